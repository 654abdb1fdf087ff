"""Letter balance of a rotation core: which filler orbits a core needs, and which cores cannot exist.

In a table at the counting bound built as a searched core beside rotation blocks, every core
column holds each letter at most once, so each letter occurs at most ``core_width`` times in
the core, and the core's blanks are exactly ``core_width * |S|`` minus its letters.  A full
orbit whose elements each have one letter-count vector (a *rigid* orbit) adds the same count
to every letter, whichever of its elements' words are used (the rotation maps the words of one
element onto those of the next).  So only the exceptional elements and the *flexible* full
orbits (some element has two or more letter-count vectors) decide whether a core can be
balanced; rigid fillers only pad its width.

:func:`balancing_orbits` finds the flexible orbits of least total word length that make the
exceptional elements balanceable (an exact integer model, Z3), or proves there are none, in
which case no table of that shape exists at the bound: every core width and every filler plan
would fail the count.  :func:`core_balanceable` checks one core.  Both read each element's
set of letter-count vectors (:func:`tesearch.facts.bounds.letter_vectors`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import z3

from tesearch.running.terms import SolveResult

#: letter-count vectors of one element (each a tuple, one count per letter)
Vectors = frozenset


@dataclass(frozen=True)
class Balance:
    """The outcome of :func:`balancing_orbits`: the result and, when sat, the orbits to put in the core."""

    result: SolveResult
    orbits: tuple[int, ...] = ()  # indices into the flexible orbits passed in
    length: int = 0  # their total word length (one word per orbit: the orbit's distance)


def _choice(solver, name: str, options: Sequence[tuple[int, ...]], used) -> list:
    """One 0/1 variable per option of an element; exactly ``used`` (0 or 1) of them is set."""
    picks = [z3.Bool(f"{name}_v{i}") for i in range(len(options))]
    solver.add(z3.PbEq([(p, 1) for p in picks], 1) if used is True else
               z3.If(used, z3.PbEq([(p, 1) for p in picks], 1), z3.And([z3.Not(p) for p in picks])))
    return picks


def _letter_sums(solver, items: Sequence[tuple[str, Sequence[tuple[int, ...]], object]], letters: int) -> list:
    """The model's per-letter totals over (name, options, used) items."""
    totals = [z3.IntVal(0) for _ in range(letters)]
    for name, options, used in items:
        options = sorted(options)
        if len(options) == 1 and used is True:
            totals = [t + options[0][k] for k, t in enumerate(totals)]
            continue
        picks = _choice(solver, name, options, used)
        for k in range(letters):
            terms = [z3.If(p, v[k], 0) for p, v in zip(picks, options) if v[k]]
            if terms:
                totals[k] = totals[k] + z3.Sum(terms)
    return totals


def balancing_orbits(exceptional: Sequence[Vectors], flexible: Sequence[Sequence[Vectors]],
                     lengths: Sequence[int], blanks: int, letters: int, timeout_ms: int = 20_000) -> Balance:
    """The flexible orbits of least total length with which the exceptional elements can be balanced.

    Balanced: with ``F`` the letters of the exceptional elements and the chosen orbits, every
    letter's total ``c_k`` satisfies ``letters * c_k <= F + blanks`` (what any core width
    leaves once rigid fillers pad it).  UNSAT means no core exists whatever the width and plan.
    """
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    items: list[tuple[str, Sequence[tuple[int, ...]], object]] = [
        (f"e{i}", sorted(v), True) for i, v in enumerate(exceptional)]
    uses = []
    for j, orbit in enumerate(flexible):
        use = z3.Bool(f"use_orbit_{j}")
        uses.append(use)
        items += [(f"o{j}_{i}", sorted(v), use) for i, v in enumerate(orbit)]
    totals = _letter_sums(opt, items, letters)
    everything = z3.Sum(totals) if totals else z3.IntVal(0)
    opt.add(*[letters * t <= everything + blanks for t in totals])
    cost = z3.Sum([z3.If(u, n, 0) for u, n in zip(uses, lengths)]) if uses else z3.IntVal(0)
    opt.minimize(cost)
    answer = opt.check()
    if answer == z3.unsat:
        return Balance(SolveResult.UNSAT)
    if answer != z3.sat:
        return Balance(SolveResult.UNKNOWN)
    model = opt.model()
    chosen = tuple(j for j, u in enumerate(uses) if z3.is_true(model.eval(u, model_completion=True)))
    return Balance(SolveResult.SAT, chosen, sum(lengths[j] for j in chosen))


def core_balanceable(core: Sequence[Vectors], width: int, letters: int, timeout_ms: int = 20_000) -> SolveResult:
    """Whether the core's elements have words with every letter used at most ``width`` times."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    totals = _letter_sums(solver, [(f"c{i}", sorted(v), True) for i, v in enumerate(core)], letters)
    solver.add(*[t <= width for t in totals])
    answer = solver.check()
    return SolveResult.SAT if answer == z3.sat else SolveResult.UNSAT if answer == z3.unsat else SolveResult.UNKNOWN
