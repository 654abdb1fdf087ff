"""Letter symmetry groups (tesearch.networks.symmetry): regular groups of automorphisms and their cores."""

import numpy as np
import pytest

from tesearch.networks.rotation import find_rotation
from tesearch.networks.symmetry import LetterGroup, SymmetryError, groups_of_order, letter_automorphism
from tesearch.networks.words import shortest_words, targets


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
@pytest.mark.parametrize("exchange", ["total", "odd-distance"])
def test_cyclic_group_core_is_the_rotations_exceptional_set(graph, n, exchange):
    """Two implementations agree: the cyclic group's core is rotation.py's exceptional set."""
    cg = graph(f"star-{n}")
    tg = targets(cg, exchange)
    rotation = find_rotation(cg)
    cyclic = next(perms for name, perms in groups_of_order(n - 1).items() if name == f"C{n - 1}")
    # the cyclic group in the rotation's letter order: letter rotation.cycle[i] -> index i
    order = [cg.letter_index[s] for s in rotation.cycle]
    relabelled = tuple(tuple(order[p[order.index(x)]] for x in range(n - 1)) for p in cyclic)
    group = LetterGroup(cg, "C", relabelled)
    assert set(group.core(tg).tolist()) == set(rotation.exceptional(tg).tolist())


@pytest.mark.parametrize("n", [5, 7])
def test_every_group_gives_valid_blocks(graph, n):
    """For each group and some free orbits: h(w) is a shortest word of phi_h(g), and a column of the
    block holds |H| different letters."""
    cg = graph(f"star-{n}")
    tg = targets(cg, "total")
    for name, perms in groups_of_order(n - 1).items():
        group = LetterGroup(cg, name, perms)
        free = tg[group.orbit_size[tg] == len(perms)]
        assert len(free) % len(perms) == 0, name
        for g in free[:: max(1, len(free) // 15)]:
            w = next(shortest_words(cg, int(g)))
            for h, p in enumerate(perms):
                image = tuple(p[x] for x in w)
                assert cg.element_of(image) == group.phis[h][g]
                assert cg.dist[group.phis[h][g]] == len(w)
            for column in range(len(w)):
                assert len({p[w[column]] for p in perms}) == len(perms)


def test_orbit_sizes_count_the_targets(graph):
    cg = graph("star-5")
    tg = targets(cg, "total")
    for name, perms in groups_of_order(4).items():
        group = LetterGroup(cg, name, perms)
        sizes = group.orbit_size[tg]
        assert set(np.unique(sizes)) <= {1, 2, 4}
        # every orbit is counted size times: the number of orbits is an integer
        for s in (1, 2, 4):
            assert (sizes == s).sum() % s == 0
    assert len(LetterGroup(cg, "C2xC2", groups_of_order(4)["C2xC2"]).core(tg)) == 15


def test_refusals(graph):
    cg = graph("star-4")
    with pytest.raises(SymmetryError, match="not regular"):  # a group of order 4 whose (0 1) fixes 2 and 3
        LetterGroup(graph("star-5"), "bad", ((0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2), (1, 0, 3, 2)))
    with pytest.raises(SymmetryError, match="regular needs"):
        LetterGroup(cg, "small", ((0, 1, 2),))
    with pytest.raises(SymmetryError, match="not a group"):
        LetterGroup(cg, "nogroup", ((0, 1, 2), (1, 2, 0), (1, 0, 2)))
    # a letter map that is no automorphism: ring-6 swapping a with a letter of another role
    torus = graph("torus-3x3")
    ok = letter_automorphism(torus, list(range(torus.degree)))
    assert ok is not None and np.array_equal(ok, np.arange(torus.order))
    assert letter_automorphism(graph("star-4"), [0, 0, 1]) is None


def test_groups_of_order_eight_are_five_and_regular():
    groups = groups_of_order(8)
    assert sorted(groups) == sorted(["C8", "C4xC2", "C2^3", "D4", "Q8"])
    for perms in groups.values():
        assert len(set(perms)) == 8
        assert all(p[x] != x for p in perms[1:] for x in range(8))
    # pairwise non-isomorphic: C8 and Q8 both have one involution but C8 has an element of order 8
    def involutions(perms):
        ident = tuple(range(8))
        return sum(1 for p in perms[1:] if tuple(p[p[i]] for i in range(8)) == ident)
    assert [involutions(groups[g]) for g in ("C8", "C4xC2", "C2^3", "D4", "Q8")] == [1, 3, 7, 5, 1]

    def has_order_eight(perms):
        return any(len({tuple(range(8))} | _powers(p)) == 8 for p in perms)
    assert has_order_eight(groups["C8"]) and not has_order_eight(groups["Q8"])


def _powers(p):
    out, q = set(), tuple(range(8))
    for _ in range(8):
        q = tuple(p[i] for i in q)
        out.add(q)
    return out


# star-9 (Q8 leaves the same 383 elements as C8) takes 45 s: it is measured by experiments/symmetry_cores.py into
# results/symmetry-cores.md, not in the suite; the groups and cores code is tested above on star-4..8.
