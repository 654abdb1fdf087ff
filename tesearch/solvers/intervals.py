"""The table problem as a CP-SAT scheduling model: one start per item, one interval per letter cell.

:mod:`tesearch.solvers.cpsat` has one Boolean per (item, word, first column), about
``items * words * width`` of them.  This model has, per item, one integer start column,
one integer letter per position of its word (the tuple restricted to the item's words by
an allowed-assignments table), and per (position, possible letter) one optional interval
of length 1 at ``start + position`` that is present when that position holds that letter.
"No column holds a letter twice" is then one no-overlap constraint per letter, and a
cumulative of whole words with capacity ``|S|`` is added as a redundant count of cells.
The model does not grow with the width, and CP-SAT's scheduling propagation (energy and
edge-finding reasoning on the no-overlaps) works on it directly.

It settled pancake-5 at its counting bound 107, where the placement model stayed unknown (the runs:
docs/notes/frontier.md, Frontier II).

Same interface as :func:`tesearch.solvers.cpsat.solve`: a
:class:`~tesearch.running.terms.SolveResult` and, if sat, the (item, word, first column) triples.
Its INFEASIBLE is no certificate either: ``tesearch certify`` re-checks unsat widths
with Z3.  The mirror pin is honoured (the pinned item starts in the left half).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from tesearch.solvers.cpsat import DEFAULT_WORKERS, WidthResult, load_cp_model, new_solver, counting_refutation, solve_width
from tesearch.running import limits
from tesearch.solvers.problem import Answer, TableProblem
from tesearch.running.terms import SolveResult


@dataclass
class IntervalModel:
    """The scheduling model of one table problem, with each item's start and letter variables."""

    problem: TableProblem
    model: object  # cp_model.CpModel
    starts: list  # per item: its first column (IntVar)
    letters: list  # per item: one IntVar per position of its word
    build_seconds: float = 0.0
    stats: dict = field(default_factory=dict)


def build(problem: TableProblem) -> IntervalModel:
    """The interval model of ``problem`` (see the module docstring)."""
    cp_model = load_cp_model()
    t0 = time.monotonic()
    T = problem.width
    model = cp_model.CpModel()
    pin = problem.mirror_pin if problem.options.reversal_symmetry else None
    cells: list[list] = [[] for _ in range(problem.letters)]  # letter -> its optional unit intervals
    starts, letters, words = [], [], []
    for i, item in enumerate(problem.items):
        length = item.length
        last = T - length
        if i == pin:
            last = min(last, (T - length) // 2)  # 2 * start + length <= T: the mirror image starts right
        start = model.NewIntVar(0, max(last, 0), f"start_{i}")
        if last < 0:
            model.AddBoolOr([])  # the word does not fit: false
        positions = []
        for k in range(length):
            options = sorted({word[k] for word in item.words})
            x = model.NewIntVarFromDomain(cp_model.Domain.FromValues(options), f"letter_{i}_{k}")
            positions.append(x)
            for s in options:
                if len(options) == 1:
                    present = model.NewConstant(1)
                else:
                    present = model.NewBoolVar(f"is_{i}_{k}_{s}")
                    model.Add(x == s).OnlyEnforceIf(present)
                    model.Add(x != s).OnlyEnforceIf(present.Not())
                cells[s].append(model.NewOptionalFixedSizeIntervalVar(start + k, 1, present, f"cell_{i}_{k}_{s}"))
        if len(item.words) > 1:
            model.AddAllowedAssignments(positions, [list(word) for word in item.words])
        words.append(model.NewFixedSizeIntervalVar(start, length, f"word_{i}"))
        starts.append(start)
        letters.append(positions)
    for intervals in cells:
        model.AddNoOverlap(intervals)
    model.AddCumulative(words, [1] * len(words), problem.letters)
    return IntervalModel(problem, model, starts, letters, time.monotonic() - t0,
                         {"intervals": sum(len(c) for c in cells), "items": len(problem.items)})


def _add_hint(built: IntervalModel, hint: list[tuple[int, int, int]] | None) -> None:
    """Hint each hinted item's start column and the letters of its word."""
    for i, w, c in hint or ():
        built.model.AddHint(built.starts[i], c)
        for x, s in zip(built.letters[i], built.problem.items[i].words[w]):
            built.model.AddHint(x, s)


def _chosen(built: IntervalModel, solver) -> list[tuple[int, int, int]]:
    """The (item, word, first column) triples of a solution, sorted."""
    return sorted((i, item.words.index(tuple(solver.Value(x) for x in built.letters[i])), solver.Value(built.starts[i]))
                  for i, item in enumerate(built.problem.items))


def solve_model(built: IntervalModel, *, seed: int = 0, timeout_s: float | None = None,
                workers: int = DEFAULT_WORKERS, hint: list[tuple[int, int, int]] | None = None
                ) -> tuple[SolveResult, list[tuple[int, int, int]] | None]:
    """Run CP-SAT once on a built interval model: (result, chosen (item, word, first column) if sat)."""
    cp_model = load_cp_model()
    _add_hint(built, hint)
    solver = new_solver(seed=seed, timeout_s=timeout_s, workers=workers, log=False)
    t0 = time.monotonic()
    status = solver.Solve(built.model)
    built.stats.update(solve_seconds=time.monotonic() - t0, status=solver.StatusName(status))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SolveResult.SAT, _chosen(built, solver)
    if status == cp_model.INFEASIBLE:
        return SolveResult.UNSAT, None
    return SolveResult.UNKNOWN, None


def solve(problem: TableProblem, *, seed: int = 0, timeout_s: float | None = None,
          workers: int = DEFAULT_WORKERS, hint: list[tuple[int, int, int]] | None = None
          ) -> tuple[SolveResult, list[tuple[int, int, int]] | None]:
    """Build and run the interval model once, as :func:`tesearch.solvers.cpsat.solve`."""
    if counting_refutation(problem) is not None:
        load_cp_model()
        return SolveResult.UNSAT, None
    return solve_model(build(problem), seed=seed, timeout_s=timeout_s, workers=workers, hint=hint)



def solver_label() -> str:
    """How a table's record names this solver: ``cpsat intervals (OR-Tools 9.x)``."""
    from tesearch.solvers.cpsat import ortools_version

    return f"cpsat intervals (OR-Tools {ortools_version()})"


def decide_once(problem: TableProblem, *, where: str, seed: int, timeout_s: float | None) -> Answer:
    """Build the interval model of ``problem`` and solve it once within ``timeout_s`` seconds (None: no limit);
    a problem the letter counts refute is answered without a model, as :func:`solve` does."""
    trivial = counting_refutation(problem)
    if trivial is not None:
        load_cp_model()  # without the cpsat extra this still fails as every CP-SAT call does
        return Answer(SolveResult.UNSAT, None, trivial)
    with limits.phase(f"encode {where} (cpsat intervals)"):
        built = build(problem)
    with limits.phase(f"solve {where} (cpsat intervals)"):
        result, chosen = solve_model(built, seed=seed, timeout_s=timeout_s)
    return Answer(result, chosen, f"cpsat intervals {built.stats['intervals']} letter intervals")


def minimize_width(problem: TableProblem, *, lower: int = 0, hint: list[tuple[int, int, int]] | None = None,
                   seed: int = 0, timeout_s: float | None = None, workers: int = DEFAULT_WORKERS,
                   log: bool = False) -> WidthResult:
    """The interval model at ``problem.width`` (the upper bound) plus a makespan to minimise, from ``hint``
    (e.g. the greedy placement), as :func:`tesearch.solvers.cpsat.minimize_width`."""
    built = build(replace(problem, mirror_pin=None))  # the mirror pin is width-specific
    model = built.model
    top = max(it.length for it in problem.items)
    makespan = model.NewIntVar(min(max(lower, top), problem.width), problem.width, "width")
    for start, item in zip(built.starts, problem.items):
        model.Add(start + item.length <= makespan)
    model.Minimize(makespan)
    _add_hint(built, hint)
    return solve_width(model, makespan, lambda solver: _chosen(built, solver),
                       seed=seed, timeout_s=timeout_s, workers=workers, log=log)
