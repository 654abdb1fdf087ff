"""docs/proofs/hypercube.md, lemma by lemma: each test checks one lemma's statement on d = 1..12
(fewer where the lemma is about whole tables; d up to 20 in the slow tests) and a mutation that
breaks it, so the test can fail.

The lemmas prove, for every d: the doubling with copy B mirrored in time and the explicit matching
of Lemma 4b gives a valid table of width T = 2^(d-1), which meets the counting bound (optimal),
packs into d rows, and is valid on the whole network by node-invariance.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from tesearch.facts.bounds import counting_bound
import networkx as nx

from tesearch.constructions.hypercube import (A_SUFFIX, B_SUFFIX, COPY_B, apply_matching, boundary_invariant,
                                              column_check, double, doubling_options, explicit_matching,
                                              hypercube_table, perfect_words, rows_of, transform)
from tesearch.running.errors import ConstructionError
from tesearch.checking.kernel import build_network, check_theorem1, input_from_json, kernel_bounds
from tesearch.networks.products import hypercube_network
from tesearch.checking.replay import replay_data
from tesearch.tables.verify import verify_table

SMALL = range(1, 13)


def popcount(x: int) -> int:
    return bin(x).count("1")


# ---------------------------------------------------------------- Lemma 1: words are orderings of the support

@pytest.mark.parametrize("d", range(1, 9))
def test_lemma1_distance_is_weight_and_shortest_words_are_orderings(d):
    net = hypercube_network(d)
    rebuilt = build_network(net.letters, [net.generators[s] for s in net.letters])
    bits = np.zeros(rebuilt.order, dtype=np.int64)
    for g in range(1, rebuilt.order):  # element -> its support as a bit mask, from the BFS tree
        bits[g] = bits[rebuilt.parent[g]] ^ (1 << int(rebuilt.parent_letter[g]))
    assert all(int(rebuilt.depth[g]) == popcount(int(bits[g])) for g in range(rebuilt.order))
    index = {int(b): g for g, b in enumerate(bits)}
    for x in range(1, 2 ** d, max(1, 2 ** d // 40)):
        support = [i for i in range(d) if x >> i & 1]
        for word in itertools.islice(itertools.permutations(support), 6):
            g = 0
            for letter in word:
                g = int(rebuilt.successor[letter, g])
            assert g == index[x] and rebuilt.depth[g] == len(word)


def test_lemma1_mutation_a_repeated_letter_is_refused():
    words = perfect_words(4)
    column_check(words, 4)
    i = next(i for i, (_, word) in enumerate(words) if len(word) > 1)
    start, word = words[i]
    broken = words[:i] + [(start, word[:1] + word[:1] + word[2:])] + words[i + 1:]  # same length, a letter twice
    with pytest.raises(ConstructionError, match="repeats a letter"):
        column_check(broken, 4)


# ---------------------------------------------------------------- Lemma 2: the counting bound is 2^(d-1)

@pytest.mark.parametrize("d", SMALL)
def test_lemma2_counting_bound(d):
    """The distances summed over the rebuilt network (the kernel's BFS, not a formula of the test) are
    d 2^(d-1), so both checkers' counting bounds are 2^(d-1) with no slack: one letter more needs a column."""
    net = hypercube_network(d)
    generators = [net.generators[s] for s in net.letters]
    rebuilt = build_network(net.letters, generators)
    total = int(rebuilt.depth.sum())
    assert total == d * 2 ** (d - 1)
    targets = np.ones(rebuilt.order, dtype=bool)
    targets[0] = False
    assert kernel_bounds(rebuilt, generators, targets).counting == 2 ** (d - 1)
    assert counting_bound(total, d) == 2 ** (d - 1)
    assert counting_bound(total + 1, d) == 2 ** (d - 1) + 1


# ---------------------------------------------------------------- Lemma 3: transforms keep a table perfect

@pytest.mark.parametrize("d", range(1, 11))
def test_lemma3_every_transform_of_a_perfect_table_is_perfect(d):
    words = perfect_words(d)
    column_check(words, d)
    for rotation in range(d):
        for reversed_in_time in (False, True):
            column_check(transform(words, d, rotation, reversed_in_time), d)


def test_lemma3_mutation_a_transform_that_shifts_time_is_refused():
    words = perfect_words(6)
    shifted = [(start + 1, word) for start, word in transform(words, 6, 1, False)]
    with pytest.raises(ConstructionError):
        column_check(shifted, 6)


# ---------------------------------------------------------------- Lemma 4: any saturating matching doubles

def shuffled_matching(options, width, rng):
    """A maximum matching of the option graph, built with its edges in a random order (networkx's
    Hopcroft-Karp, not the construction's matching): element i -> column, or None unless it saturates."""
    graph = nx.Graph()
    edges = [(("x", i), ("c", column)) for i, kinds in enumerate(options) for column in kinds]
    rng.shuffle(edges)
    graph.add_edges_from(edges)
    elements = [("x", i) for i in range(len(options))]
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=elements)
    if any(x not in matching for x in elements):
        return None
    return [matching[x][1] for x in elements]


@pytest.mark.parametrize("d", range(1, 10))
def test_lemma4_every_saturating_matching_gives_a_perfect_table(d):
    words = perfect_words(d)
    rng = random.Random(d)
    found = 0
    for rotation, reversed_in_time in [COPY_B] + [(k, r) for k in range(d) for r in (False, True)][:5]:
        pairs, options = doubling_options(words, d, rotation, reversed_in_time)
        for _ in range(2):
            match = shuffled_matching(options, 2 ** (d - 1), rng)
            if match is None:
                break
            column_check(apply_matching(pairs, options, match, d), d + 1)
            found += 1
    assert found >= 2  # at least copy B = COPY_B has one (Lemma 4b), found twice in random orders


def test_lemma4_mutations_are_refused():
    d = 7
    pairs, options = doubling_options(perfect_words(d), d, *COPY_B)
    match = explicit_matching(pairs, d)
    good = apply_matching(pairs, options, match, d)
    column_check(good, d + 1)
    with pytest.raises(ConstructionError):  # two elements on one column
        apply_matching(pairs, options, [match[1]] + match[1:], d)
    not_offered = next(c for c in range(2 ** d) if c not in options[0])
    with pytest.raises(ConstructionError):  # a column that is not next to either copy
        apply_matching(pairs, options, [not_offered] + match[1:], d)
    # e put on the other side of its word than the matching says: the column count breaks
    moved = list(good)
    i = next(i for i, (s, w) in enumerate(moved) if len(w) > 1 and w[-1] == d)
    start, word = moved[i]
    moved[i] = (start - 1, (d,) + word[:-1]) if start >= 1 else (start, (d,) + word[:-1])
    with pytest.raises(ConstructionError):
        column_check(moved, d + 1)


# ---------------------------------------------------------------- Lemma 4b: the boundary invariant

@pytest.mark.parametrize("d", SMALL)
def test_lemma4b_the_explicit_matching_saturates_and_leaves_column_zero(d):
    """Under the invariant, e after copy A fills 1..T, e after copy B fills T+1..2T-1, 0 stays free."""
    words = perfect_words(d)
    boundary_invariant(words, d)
    width = 2 ** (d - 1)
    pairs, options = doubling_options(words, d, *COPY_B)
    match = explicit_matching(pairs, d)
    newest = d - 1
    in_a = sorted(c for ((_, w), _), c in zip(pairs, match) if newest in w)
    in_b = sorted(c for ((_, w), _), c in zip(pairs, match) if newest not in w)
    assert in_a == list(range(1, width + 1)) and in_b == list(range(width + 1, 2 * width))
    assert all(options[i][c] == (A_SUFFIX if newest in pairs[i][0][1] else B_SUFFIX) for i, c in enumerate(match))


@pytest.mark.parametrize("d", SMALL)
def test_lemma4b_the_doubled_table_has_the_invariant_again(d):
    words = perfect_words(d)
    doubled = double(words, d)
    column_check(doubled, d + 1)
    boundary_invariant(doubled, d + 1)
    # the words with the new letter d are exactly the (x, 1) and the lone e, as the proof says
    assert sum(1 for _, w in doubled if d in w) == 2 ** d


@pytest.mark.parametrize("d", [4, 6, 9])
def test_lemma4b_mutation_without_the_invariant_the_matching_fails(d):
    """A perfect table with its letters rotated is still perfect (Lemma 3) but lacks the invariant:
    boundary_invariant and double refuse it, and the explicit matching on it does not saturate."""
    rotated = transform(perfect_words(d), d, 1, False)
    column_check(rotated, d)
    with pytest.raises(ConstructionError):
        boundary_invariant(rotated, d)
    with pytest.raises(ConstructionError):
        double(rotated, d)
    pairs, options = doubling_options(rotated, d, *COPY_B)
    with pytest.raises(ConstructionError):
        apply_matching(pairs, options, explicit_matching(pairs, d), d)


def test_lemma4b_mutation_one_word_moved_breaks_the_invariant():
    words = perfect_words(6)
    i = next(i for i, (s, w) in enumerate(words) if 5 not in w and s > 1)
    start, word = words[i]
    with pytest.raises(ConstructionError):
        boundary_invariant(words[:i] + [(start - 1, word)] + words[i + 1:], 6)


# ---------------------------------------------------------------- Lemma 5: the induction, every d

@pytest.mark.parametrize("d", range(1, 15))
def test_lemma5_every_step_is_perfect(d):
    words = perfect_words(d)
    column_check(words, d)
    boundary_invariant(words, d)
    assert len(words) == 2 ** d - 1
    assert sum(len(w) for _, w in words) == d * 2 ** (d - 1)


@pytest.mark.slow
@pytest.mark.parametrize("d", range(15, 20))  # d = 20 (13 s): benchmarks, not the suite
def test_lemma5_every_step_is_perfect_large(d):
    """d = 15..20 (hypercube-20: 1048575 words); the construction takes seconds at every size."""
    words = perfect_words(d)
    column_check(words, d)
    boundary_invariant(words, d)


# ---------------------------------------------------------------- Lemma 6: rows are lanes

@pytest.mark.parametrize("d", SMALL)
def test_lemma6_a_perfect_table_packs_into_d_rows(d):
    words = perfect_words(d)
    rows = rows_of(words, d)
    assert {r for r, _, _ in rows} == set(range(d))
    cells = Counter((r, c) for r, start, word in rows for c in range(start, start + len(word)))
    assert max(cells.values()) == 1 and len(cells) == d * 2 ** (d - 1)  # every row full, no overlap


def test_lemma6_mutation_one_word_too_many_needs_another_row():
    words = perfect_words(5) + [(0, (0,))]
    with pytest.raises(ConstructionError):
        rows_of(words, 5)


# ---------------------------------------------------------------- Lemma 7: valid and optimal by both checkers

@pytest.mark.parametrize("d", range(1, 11))
def test_lemma7_optimal_by_the_verifier_and_the_kernel(d):
    table = hypercube_table(d)
    result = verify_table(table)
    assert result.optimal and result.blanks == 0 and table.T == 2 ** (d - 1)
    inp = input_from_json(table.to_json())
    assert check_theorem1(inp, build_network(inp.letters, inp.generators)).ok


# ---------------------------------------------------------------- Lemma 8: node-invariance (whole network)

@pytest.mark.parametrize("d", range(1, 8))
def test_lemma8_the_whole_network_replays_what_theorem1_accepts(d):
    assert replay_data(hypercube_table(d).to_json()).ok


@pytest.mark.parametrize("d", range(2, 8))
def test_lemma8_mutation_one_word_a_column_early_is_refused_by_both(d):
    data = hypercube_table(d).to_json()
    broken = dict(data)
    placements = [list(p) for p in data["placements"]]
    i = next(i for i, p in enumerate(placements) if p[1] >= 1)
    row, col, word = placements[i]
    placements[i] = [row, col - 1, word]  # one word a column early: some letter twice in a column
    broken["placements"] = placements
    inp = input_from_json(broken)
    assert not check_theorem1(inp, build_network(inp.letters, inp.generators)).ok
    assert not replay_data(broken).ok
