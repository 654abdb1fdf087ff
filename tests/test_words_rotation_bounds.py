"""Shortest words, rotations and exceptional words (seed 004), and the bounds."""

import pytest

from tesearch.facts.bounds import compute_bounds
from tesearch.networks.rotation import find_rotation, rotation_from_cycle
from tesearch.networks.words import canonical_words, shortest_words, targets, word_counts


def element(cg, text):
    return cg.element_of(list(text))


def test_seed004_star4_words_and_exceptions(graph):
    cg = graph("star-4")
    # seed 004: (0 1 2)(3 4)-style translations are shortest; 1231 and 3213 are fixed by sigma
    rot = find_rotation(cg)
    assert rot.cycle == ("1", "2", "3")
    exc = set(int(g) for g in rot.exceptional(targets(cg, "total")))
    assert exc == {element(cg, "1231"), element(cg, "3213")}
    sizes = sorted(rot.orbit_size[targets(cg, "total")].tolist())
    assert sizes.count(1) == 2 and sizes.count(3) == 21  # 2 fixed, 7 triplets


def test_seed004_star5_exceptional_elements(graph):
    cg = graph("star-5")
    rot = find_rotation(cg)
    printed = ["12341", "131242", "14321", "131", "242", "121343", "141232"]
    assert set(int(g) for g in rot.exceptional(targets(cg, "total"))) == {element(cg, w) for w in printed}
    odd = ["12341", "14321", "131", "242"]
    assert set(int(g) for g in rot.exceptional(targets(cg, "odd-distance"))) == {element(cg, w) for w in odd}
    # orbit structure: 3 of size 1 ... as info reports, checked against Lemma 2's centraliser count
    tg = targets(cg, "total")
    assert sorted(set(rot.orbit_size[tg].tolist())) == [1, 2, 4]


def test_seed004_star6_exceptional_words(graph):
    cg = graph("star-6")
    rot = find_rotation(cg)
    printed = ["123451", "253142", "352413", "432154"]
    assert set(int(g) for g in rot.exceptional(targets(cg, "total"))) == {element(cg, w) for w in printed}


def test_sigma_maps_shortest_words_to_shortest_words(graph):
    cg = graph("star-5")
    rot = find_rotation(cg)
    for g in range(1, cg.order, 7):
        for w in shortest_words(cg, g, cap=3):
            image = rot.apply(w)
            assert cg.element_of(image) == rot.phi[g]
            assert len(image) == cg.dist[rot.phi[g]]


def test_a_non_rotation_is_rejected(graph):
    assert rotation_from_cycle(graph("star-5"), ["1", "3", "2", "4"]) is not None  # conjugation by (1 3 2 4)
    assert find_rotation(graph("pancake-4")) is None
    assert rotation_from_cycle(graph("torus-6x6"), ["a", "A", "b", "B"]) is None


def test_word_enumeration_counts_agree(graph):
    cg = graph("star-5")
    counts = word_counts(cg)
    for g in range(cg.order):
        words = list(shortest_words(cg, g))
        assert len(words) == counts[g]
        assert len(set(words)) == len(words)
        assert all(cg.element_of(w) == g and len(w) == cg.dist[g] for w in words)
    assert list(shortest_words(cg, 119, cap=2)) == list(shortest_words(cg, 119))[:2]


def test_canonical_words_are_lex_first(graph):
    cg = graph("bubblesort-4")
    table = canonical_words(cg)
    for g in range(cg.order):
        first = next(shortest_words(cg, g))
        assert tuple(int(k) for k in table[g] if k >= 0) == first


@pytest.mark.parametrize("spec,exchange,counting,letter", [
    ("star-5", "total", 111, 111), ("star-5", "odd-distance", 56, 56), ("star-4", "total", 21, 21),
    ("ring-6", "total", 5, 5), ("ring-6:cyclic", "total", 5, 6), ("ring-12:cyclic", "total", 18, 21),
    ("torus-4x8", "total", 24, 32), ("torus-4x4x8", "total", 86, 128), ("hypercube-4", "total", 8, 8),
])
def test_bounds(graph, spec, exchange, counting, letter):
    cg = graph(spec)
    b = compute_bounds(cg, exchange, find_rotation(cg))
    assert b.counting == counting
    assert b.letter.value == letter and b.letter.exact
    assert b.binding == ("per-letter" if letter > counting else "counting")
    assert b.singleport == int(cg.dist[targets(cg, exchange)].sum())


def test_even_cyclic_ring_letter_bound_closed_form(graph):
    # the antipode's word is a^(n/2) or a'^(n/2): one letter carries n^2/8 + n/4 ... + n/2
    for n in range(4, 13, 2):
        cg = graph(f"ring-{n}:cyclic")
        half = n // 2
        one_side = sum(range(1, half))  # a, aa, ..., a^(half-1)
        assert compute_bounds(cg, "total").letter.value == one_side + half
