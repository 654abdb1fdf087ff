"""Letter balance of rotation cores (search/balance.py) and the word samplers it relies on (words.py)."""

import itertools
from collections import Counter

import numpy as np
import pytest

from tesearch.facts.bounds import letter_vectors
from tesearch.facts.instance import instance
from tesearch.search.core import SearchParams, Strategy, WordSampling, search
from tesearch.running.terms import Status
from tesearch.search.balance import balancing_orbits, core_balanceable
from tesearch.running.terms import SolveResult
from tesearch.networks.words import shortest_words, uniform_words, word_counts, word_for_vector


def _counts(word, letters):
    return tuple(np.bincount(np.asarray(word, dtype=np.int64), minlength=letters).tolist())


# ---------------------------------------------------------------- balancing_orbits / core_balanceable

def test_small_cases_by_hand():
    lopsided = frozenset([(2, 0)])
    evener = [frozenset([(0, 2), (1, 1)])]
    # letter 0 is used twice, letter 1 never: 2 * 2 > 2 + 0, so an orbit must even it out
    assert balancing_orbits([lopsided], [], [], blanks=0, letters=2).result is SolveResult.UNSAT
    found = balancing_orbits([lopsided], [evener], [2], blanks=0, letters=2)
    assert (found.result, found.orbits, found.length) == (SolveResult.SAT, (0,), 2)
    # two blanks absorb the imbalance: no orbit is needed
    found = balancing_orbits([lopsided], [evener], [2], blanks=2, letters=2)
    assert (found.result, found.orbits, found.length) == (SolveResult.SAT, (), 0)
    assert core_balanceable([lopsided], 1, 2) is SolveResult.UNSAT
    assert core_balanceable([lopsided], 2, 2) is SolveResult.SAT
    assert core_balanceable([lopsided, frozenset([(1, 1), (0, 2)])], 2, 2) is SolveResult.SAT
    assert core_balanceable([lopsided, frozenset([(2, 0)])], 3, 2) is SolveResult.UNSAT


def _brute_force(exceptional, flexible, lengths, blanks, letters):
    """The least total length of orbits that balance, by enumeration (None: no subset does)."""
    best = None
    for r in range(len(flexible) + 1):
        for subset in itertools.combinations(range(len(flexible)), r):
            cost = sum(lengths[j] for j in subset)
            if best is not None and cost >= best:
                continue
            elements = list(exceptional) + [v for j in subset for v in flexible[j]]
            for pick in itertools.product(*[sorted(v) for v in elements]):
                totals = np.sum(pick, axis=0) if pick else np.zeros(letters)
                if all(letters * t <= totals.sum() + blanks for t in totals):
                    best = cost
                    break
    return best


def test_least_orbits_match_enumeration_on_random_instances():
    rng = np.random.default_rng(7)
    letters = 3
    pool = [(2, 0, 0), (0, 2, 0), (0, 0, 2), (1, 1, 0), (1, 0, 1), (0, 1, 1), (3, 0, 0), (1, 1, 1)]
    checked_unsat = checked_sat = 0
    for trial in range(40):
        def element():
            k = int(rng.integers(1, 3))
            return frozenset(pool[i] for i in rng.choice(len(pool), size=k, replace=False))
        exceptional = [element() for _ in range(int(rng.integers(1, 3)))]
        flexible = [[element() for _ in range(int(rng.integers(1, 3)))] for _ in range(int(rng.integers(0, 4)))]
        lengths = [int(rng.integers(1, 5)) for _ in flexible]
        blanks = int(rng.integers(0, 3))
        expected = _brute_force(exceptional, flexible, lengths, blanks, letters)
        found = balancing_orbits(exceptional, flexible, lengths, blanks, letters)
        if expected is None:
            assert found.result is SolveResult.UNSAT, trial
            checked_unsat += 1
        else:
            assert found.result is SolveResult.SAT and found.length == expected, trial
            assert found.length == sum(lengths[j] for j in found.orbits)
            checked_sat += 1
    assert checked_unsat and checked_sat  # the instances exercise both answers


# ---------------------------------------------------------------- word samplers

@pytest.mark.parametrize("spec", ["pancake-4", "torus-8x4:twisted"])
def test_word_for_vector_realises_every_vector(graph, spec):
    cg = graph(spec)
    vectors = letter_vectors(cg)
    for g in range(1, cg.order):
        words = set(shortest_words(cg, g))
        for v in vectors[g]:
            word = word_for_vector(cg, g, v, vectors)
            assert word in words and _counts(word, cg.degree) == v, (g, v)
    g = int(np.argmax(cg.dist))
    with pytest.raises(ValueError):
        word_for_vector(cg, g, (0,) * cg.degree, vectors)


def test_uniform_words_are_shortest_distinct_deterministic_and_uniform(graph):
    cg = graph("star-5")
    counts = word_counts(cg)
    g = int(np.flatnonzero(counts == counts.max())[0])
    everything = set(shortest_words(cg, g))
    sample = uniform_words(cg, g, 5, counts, seed=3)
    assert sample == uniform_words(cg, g, 5, counts, seed=3)
    assert len(set(sample)) == len(sample) == min(5, len(everything)) and set(sample) <= everything
    # one word per seed: each of the element's words comes up about equally often
    h = int(np.flatnonzero(counts == 4)[0]) if np.any(counts == 4) else g
    drawn = Counter(uniform_words(cg, h, 1, counts, seed=s)[0] for s in range(800))
    expected = 800 / counts[h]
    assert set(drawn) == set(shortest_words(cg, h))
    assert all(0.6 * expected <= n <= 1.4 * expected for n in drawn.values()), drawn


def test_search_with_uniform_sampling_finds_an_optimal_table():
    params = SearchParams(Strategy.ROTATION, 0, 2, sampling=WordSampling.UNIFORM)
    assert "sampling=uniform" in str(params)
    outcome = search(instance("star-5"), params)
    assert outcome.status is Status.FOUND and outcome.optimal and outcome.T == 111
