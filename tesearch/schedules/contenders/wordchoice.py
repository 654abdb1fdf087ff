"""Choosing shortest words without a table: letter-count vectors balanced to the per-letter bound, and words
drawn for a vector.

A shortest word's letter counts (its *vector*) decide what it adds to each letter's total, and the most-used
letter's total is a floor on the bundle sum of any superstep schedule of the words (docs/notes/
docs/simulate.md, "The superstep model").  :func:`balanced_vectors` picks one vector per element so that the largest total is as
small as it can make it: greedily (longest elements first, each the vector that keeps the largest total and
then the sorted totals least), then a descent that moves one element at a time to another of its vectors while
that lowers (largest total, letters at it, sum of squares); where that stays above the ``target`` it is given
(the per-letter bound ``P``), the choice with every total at most ``target`` is asked of Z3 over the elements
grouped by their sets of vectors (as :func:`tesearch.facts.bounds.letter_bound` does for the bound's value), with a
time limit: sat gives the choice, anything else keeps the descent's.  The callers compare what was reached
with ``P`` before they claim anything.

:func:`random_word` draws a shortest word with a given vector from its last letter back (every predecessor
kept must still realise the rest of the vector, so it never backtracks), uniformly among the letters that can
come last at each step; deterministic for a generator state.
"""

from __future__ import annotations

import numpy as np

from tesearch.networks.groups import CayleyGraph

Vector = tuple[int, ...]


def _score(counts: np.ndarray) -> tuple[int, int, int]:
    top = int(counts.max(initial=0))
    return top, int((counts == top).sum()), int((counts.astype(np.int64) ** 2).sum())


def balanced_vectors(cg: CayleyGraph, vectors: list[frozenset[Vector]], elements: np.ndarray, *,
                     target: int | None = None, timeout_ms: int = 20_000) -> list[Vector]:
    """One letter-count vector per element of ``elements`` (in that order), balancing the letter totals (module
    doc).  ``vectors`` is :func:`tesearch.facts.bounds.letter_vectors` of ``cg``; ``target`` the total to reach."""
    options = [sorted(vectors[int(g)]) for g in elements]
    return balanced_choice(options, [int(cg.dist[g]) for g in elements], cg.degree, target=target,
                           timeout_ms=timeout_ms)


def balanced_choice(options: list[list[Vector]], lengths: list[int], letters: int, *, target: int | None = None,
                    timeout_ms: int = 20_000) -> list[Vector]:
    """:func:`balanced_vectors` over given option lists (``lengths``: each item's word length)."""
    counts = np.zeros(letters, dtype=np.int64)
    chosen: list[Vector | None] = [None] * len(options)
    for i in sorted(range(len(options)), key=lambda i: (-lengths[i], i)):
        best = min(options[i], key=lambda v: (int((counts + v).max()), tuple(sorted((counts + v).tolist(), reverse=True)), v))
        chosen[i] = best
        counts += np.asarray(best)
    movable = [i for i in range(len(options)) if len(options[i]) > 1]
    improved = True
    while improved:
        improved = False
        score = _score(counts)
        for i in movable:
            current = np.asarray(chosen[i])
            for v in options[i]:
                if v == chosen[i]:
                    continue
                trial = counts - current + np.asarray(v)
                trial_score = _score(trial)
                if trial_score < score:
                    counts, chosen[i], score, current = trial, v, trial_score, np.asarray(v)
                    improved = True
    if target is not None and int(counts.max(initial=0)) > target:
        exact = _vectors_at_most(options, target, letters, timeout_ms)
        if exact is not None:
            chosen = exact
    return [tuple(int(x) for x in v) for v in chosen]


def _vectors_at_most(options: list[list[Vector]], target: int, letters: int, timeout_ms: int) -> list[Vector] | None:
    """A vector per element with every letter total at most ``target``, by Z3 over elements grouped by their
    option sets; None unless Z3 answers sat within ``timeout_ms``."""
    import z3

    groups: dict[tuple[Vector, ...], list[int]] = {}
    for i, opts in enumerate(options):
        groups.setdefault(tuple(opts), []).append(i)
    context = z3.Context()  # a fresh context: the answer does not depend on what the process solved before
    solver = z3.Solver(ctx=context)
    solver.set("timeout", int(timeout_ms))
    totals = [z3.IntVal(0, ctx=context) for _ in range(letters)]
    amounts = {}
    for j, (opts, members) in enumerate(sorted(groups.items())):
        counts = [z3.Int(f"n_{j}_{o}", ctx=context) for o in range(len(opts))]
        amounts[opts] = counts
        solver.add(*[c >= 0 for c in counts], z3.Sum(counts) == len(members))
        for k in range(letters):
            terms = [c * v[k] for c, v in zip(counts, opts) if v[k]]
            if terms:
                totals[k] = totals[k] + z3.Sum(terms)
    solver.add(*[t <= target for t in totals])
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    chosen: list[Vector] = [()] * len(options)
    for opts, members in groups.items():
        queue = iter(members)
        for v, c in zip(opts, amounts[opts]):
            for _ in range(model.eval(c).as_long()):
                chosen[next(queue)] = v
    return chosen


def random_word(cg: CayleyGraph, g: int, vector: Vector, vectors: list[frozenset[Vector]],
                random: np.random.Generator) -> tuple[int, ...]:
    """A shortest word of element ``g`` with letter counts ``vector`` (one of ``vectors[g]``), drawn from the last
    letter back (module doc)."""
    word: list[int] = []
    h, left = int(g), list(vector)
    while cg.dist[h] > 0:
        fits = []
        for k in range(cg.degree):
            if not left[k]:
                continue
            p = int(cg.right[cg.inverse_letter[k], h])
            rest = left.copy()
            rest[k] -= 1
            if cg.dist[p] == cg.dist[h] - 1 and tuple(rest) in vectors[p]:
                fits.append((k, p, rest))
        if not fits:
            raise ValueError(f"element {g} has no shortest word with letter counts {tuple(vector)}")
        k, h, left = fits[int(random.integers(len(fits)))]
        word.append(k)
    return tuple(reversed(word))
