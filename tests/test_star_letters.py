"""The star networks' exact per-letter bound by max flow, checked against the exact DP + Z3 route."""

import numpy as np
import pytest

from tesearch.facts import bounds
from tesearch.networks.words import targets


def _dp_minmax(cg, subset):
    """min over word choices of the max letter count, by the generic exact DP and Z3 optimum."""
    vectors = bounds.letter_vectors(cg)
    fixed = np.zeros(cg.degree, dtype=np.int64)
    choices = []
    for g in subset:
        options = vectors[int(g)]
        if len(options) == 1:
            fixed += np.asarray(next(iter(options)))
        else:
            choices.append(tuple(sorted(options)))
    upper = bounds._greedy_max(fixed, choices)
    return bounds._exact_minmax(fixed, choices, int(fixed.max()), upper)


@pytest.mark.parametrize("n", [4, 5])
def test_flow_matches_exact_optimum_on_lopsided_target_sets(graph, n):
    cg = graph(f"star-{n}")
    rng = np.random.default_rng(n)
    for trial in range(12):
        # lopsided sets: elements moving point 1 are kept more often, so letters are unequal
        weight = np.where(cg.elements[:, 1] != 1, 0.8, 0.25)
        subset = np.flatnonzero(rng.random(cg.order) < weight)
        subset = subset[subset != 0]
        balance = bounds.star_letter_balance(cg.elements[subset], 0)
        assert balance.maximum == _dp_minmax(cg, subset), (n, trial)
        assert max(balance.loads()) <= balance.maximum
        if balance.maximum > 0:
            assert bounds._star_flow(np.asarray(balance.fixed), balance.free, balance.maximum - 1) is None


def test_witness_spends_every_free_cycle_once(graph):
    cg = graph("star-6")
    balance = bounds.star_letter_balance(cg.elements[targets(cg, "total")], 0)
    spent = {}
    for (mask, letter), units in balance.flow.items():
        assert mask >> (letter + 1) & 1, "a cycle can only double one of its own points"
        spent[mask] = spent.get(mask, 0) + units
    assert spent == balance.free
    # the loads add up to the status: every word's letters are counted once
    assert sum(balance.loads()) == int(cg.dist.sum())


@pytest.mark.parametrize("spec,exchange", [("star-5", "total"), ("star-6", "odd-distance"), ("star-7", "total")])
def test_star_letter_bound_is_exact_and_equals_counting(graph, spec, exchange):
    cg = graph(spec)
    chosen = targets(cg, exchange)
    b = bounds.compute_bounds(cg, exchange)
    assert b.letter.exact and b.letter.upper == b.letter.value == b.counting
    assert b.counting == -(-int(cg.dist[chosen].sum()) // cg.degree)
