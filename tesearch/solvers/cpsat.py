"""The table problem as a Google OR-Tools CP-SAT model, section for section as :func:`tesearch.solvers.z3model.encode`.

Same variables (one Boolean per item, word and first column that fits), same
sections: one placement per item (exactly one), letters in columns (at most
once per column and letter; exactly once when there is no blank), letter counts
(each letter's count relative to every item's least count of it, and the total
against the cells), and mirror symmetry breaking (the pinned item's placements
in the right half are not created, which equals fixing them to false).

:func:`solve` returns what :func:`tesearch.solvers.z3model.solve` returns: a
:class:`~tesearch.solvers.z3model.SolveResult` and, if sat, the chosen (item, word,
first column) triples, sorted.  OPTIMAL/FEASIBLE is sat, INFEASIBLE is unsat,
anything else (UNKNOWN, MODEL_INVALID) is unknown.  A CP-SAT unsat is not a
certificate in this project: re-check it with Z3 (tesearch certify) before
calling a width impossible.

ortools is imported lazily: without it, :func:`solve` raises a one-line
:class:`~tesearch.running.errors.SolverUnavailable`.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field

from tesearch.running import limits
from tesearch.solvers.problem import Answer, TableProblem
from tesearch.running.terms import SolveResult
from tesearch.running.errors import SolverUnavailable

from tesearch.solvers import DEFAULT_WORKERS  # noqa: F401  (cpsat.DEFAULT_WORKERS, as callers name it)


def load_cp_model():
    """OR-Tools' cp_model module (the cpsat extra), loaded on first use; one line and exit 2 without it."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise SolverUnavailable("the cpsat backend needs OR-Tools: pip install 'tesearch[cpsat]' "
                                "(or pip install ortools)") from None
    return cp_model


def ortools_version() -> str:
    """OR-Tools' version, or 'not installed'."""
    try:
        import ortools
    except ImportError:
        return "not installed"
    return ortools.__version__


def counting_refutation(problem: TableProblem) -> str | None:
    """The counting facts :func:`tesearch.solvers.z3model.encode` reports as ``trivially_unsat``, or None."""
    why = None
    if problem.options.counting:
        for s in range(problem.letters):
            base = sum(min(word.count(s) for word in item.words) for item in problem.items)
            if base > problem.width:
                why = why or (f"letter {s} occurs at least {base} times in any choice of words, "
                              f"more than the {problem.width} columns")
    if problem.letter_count > problem.cells:
        why = (f"{problem.letter_count} letters do not fit in {problem.letters} x {problem.width} = "
               f"{problem.cells} cells")
    return why


@dataclass
class PlacementModel:
    """The CP-SAT model of one table problem, with its variables and sections."""
    problem: TableProblem
    model: object  # cp_model.CpModel
    placements: dict[tuple[int, int, int], object]  # (item, word, first column) -> BoolVar
    sections: dict[str, int]  # section name -> number of constraints (symmetry: placements left out)
    trivially_unsat: str | None = None
    build_seconds: float = 0.0
    stats: dict = field(default_factory=dict)


def build(problem: TableProblem) -> PlacementModel:
    """The CP-SAT model of ``problem`` (see the module docstring for the sections).

    Long because the model is built in one pass, section by section (variables, exactly once, columns,
    letter counts), each section counted as it is added and in the order of :func:`tesearch.solvers.z3model.encode`,
    so that the two models read side by side."""
    cp_model = load_cp_model()
    t0 = time.monotonic()
    opts = problem.options
    T = problem.width
    model = cp_model.CpModel()
    sections: dict[str, int] = {}

    # -- symmetry breaking, decided first: the pinned item's right-half placements are not created
    pin = problem.mirror_pin if opts.reversal_symmetry else None
    left_out = 0

    # -- variables: one per (item, word, first column) that fits in the width
    placements: dict[tuple[int, int, int], object] = {}
    covering: dict[tuple[int, int], list] = defaultdict(list)  # (column, letter) -> vars
    letter_terms: dict[int, list[tuple[object, int]]] = defaultdict(list)  # letter -> (var, count above least)
    per_item: list[list] = []
    total_terms: list[tuple[object, int]] = []
    least = [[min(word.count(s) for word in item.words) for s in range(problem.letters)]
             for item in problem.items]
    for i, item in enumerate(problem.items):
        mine = []
        for w, word in enumerate(item.words):
            counts: dict[int, int] = defaultdict(int)
            for s in word:
                counts[s] += 1
            extra = [(s, n - least[i][s]) for s, n in counts.items() if n > least[i][s]]
            for c in range(0, T - len(word) + 1):
                if i == pin and 2 * c + len(word) > T:
                    left_out += 1
                    continue
                v = model.NewBoolVar(f"x_{i}_{w}_{c}")
                placements[(i, w, c)] = v
                mine.append(v)
                for k, s in enumerate(word):
                    covering[(c + k, s)].append(v)
                for s, n in extra:
                    letter_terms[s].append((v, n))
                total_terms.append((v, len(word)))
        per_item.append(mine)

    # -- section: every item is placed exactly once
    for vs in per_item:
        model.AddExactlyOne(vs)  # an empty list is infeasible, like z3's BoolVal(False)
    sections["one placement per item"] = len(per_item)

    # -- section: no column holds a letter twice (exactly once when there is no blank)
    exact = opts.exact_columns and problem.no_blanks
    n_cols = 0
    for c in range(T):
        for s in range(problem.letters):
            vs = covering.get((c, s), [])
            if exact:
                model.AddExactlyOne(vs)
                n_cols += 1
            elif len(vs) > 1:
                model.AddAtMostOne(vs)
                n_cols += 1
    sections["letters in columns"] = n_cols

    # -- section: redundant letter counts, relative to each item's least count
    trivially_unsat = counting_refutation(problem)
    if opts.counting:
        n_counts = 0
        for s in range(problem.letters):
            base = sum(row[s] for row in least)
            terms = letter_terms[s]
            if terms:
                model.Add(sum(n * v for v, n in terms) <= T - base)
                n_counts += 1
            elif base > T:
                model.AddBoolOr([])  # the empty clause: false, as encode() writes it
                n_counts += 1
        if total_terms:
            model.Add(sum(n * v for v, n in total_terms) <= problem.cells)
            n_counts += 1
        sections["letter counts"] = n_counts
    sections["symmetry breaking"] = left_out
    return PlacementModel(problem, model, placements, sections, trivially_unsat, time.monotonic() - t0,
                      {"variables": len(placements)})


def new_solver(*, seed: int, timeout_s: float | None, workers: int, log: bool):
    """A CP-SAT solver with our run parameters."""
    solver = load_cp_model().CpSolver()
    solver.parameters.num_search_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    if timeout_s is not None:
        solver.parameters.max_time_in_seconds = max(float(timeout_s), 0.01)
    solver.parameters.log_search_progress = bool(log)
    return solver


def solve_model(built: PlacementModel, *, seed: int = 0, timeout_s: float | None = None,
                workers: int = DEFAULT_WORKERS, log: bool = False
                ) -> tuple[SolveResult, list[tuple[int, int, int]] | None]:
    """Run CP-SAT once on a built model: (result, chosen placements if sat)."""
    if built.trivially_unsat is not None:
        return SolveResult.UNSAT, None
    cp_model = load_cp_model()
    solver = new_solver(seed=seed, timeout_s=timeout_s, workers=workers, log=log)
    t0 = time.monotonic()
    status = solver.Solve(built.model)
    built.stats.update(solve_seconds=time.monotonic() - t0, status=solver.StatusName(status))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = sorted(key for key, v in built.placements.items() if solver.BooleanValue(v))
        return SolveResult.SAT, chosen
    if status == cp_model.INFEASIBLE:
        return SolveResult.UNSAT, None
    return SolveResult.UNKNOWN, None


def solve(problem: TableProblem, *, seed: int = 0, timeout_s: float | None = None,
          workers: int = DEFAULT_WORKERS) -> tuple[SolveResult, list[tuple[int, int, int]] | None]:
    """Build and run CP-SAT once: (result, chosen placements if sat), as :func:`tesearch.solvers.z3model.solve`."""
    if counting_refutation(problem) is not None:
        load_cp_model()  # still report a missing ortools, so the backend choice fails the same way everywhere
        return SolveResult.UNSAT, None
    return solve_model(build(problem), seed=seed, timeout_s=timeout_s, workers=workers)



def solver_label() -> str:
    """How a table's record names this solver: ``cpsat (OR-Tools 9.x)``."""
    return f"cpsat (OR-Tools {ortools_version()})"


def decide_once(problem: TableProblem, *, where: str, seed: int, timeout_s: float | None) -> Answer:
    """Build the placement model of ``problem`` and solve it once within ``timeout_s`` seconds (None: no limit)."""
    with limits.phase(f"encode {where} (cpsat)"):
        built = build(problem)
    with limits.phase(f"solve {where} (cpsat)"):
        result, chosen = solve_model(built, seed=seed, timeout_s=timeout_s)
    return Answer(result, chosen, built.trivially_unsat or f"cpsat {built.stats['variables']} variables")


@dataclass
class WidthResult:
    """What :func:`minimize_width` found: the narrowest width reached and CP-SAT's own lower bound."""

    result: SolveResult  # sat: ``chosen`` fits in ``width``; unknown: no placement was found
    chosen: list[tuple[int, int, int]] | None
    width: int | None
    bound: int  # CP-SAT's best objective bound (not a certificate)
    status: str
    seconds: float


def minimize_width(problem: TableProblem, *, lower: int = 0, hint: list[tuple[int, int, int]] | None = None,
                   seed: int = 0, timeout_s: float | None = None, workers: int = DEFAULT_WORKERS,
                   log: bool = False) -> WidthResult:
    """One optimisation instead of a width loop: the model of ``problem`` (its width is the upper
    bound, columns at most once per letter) plus a makespan to minimise, starting from ``hint``
    (e.g. the greedy placement).  CP-SAT's large-neighbourhood search then narrows the table."""
    from dataclasses import replace

    # at the upper width there are blanks; the exact-column and mirror sections are width-specific
    upper = replace(problem, mirror_pin=None)
    built = build(upper)
    model = built.model
    makespan = model.NewIntVar(max(lower, max(it.length for it in problem.items)), problem.width, "width")
    per_item: dict[int, list[tuple[object, int]]] = defaultdict(list)
    for (i, w, c), v in built.placements.items():
        per_item[i].append((v, c + len(problem.items[i].words[w])))
    for terms in per_item.values():
        model.Add(makespan >= sum(end * v for v, end in terms))
    model.Minimize(makespan)
    if hint:
        hinted = set(hint)
        for key, v in built.placements.items():
            model.AddHint(v, key in hinted)
    return solve_width(model, makespan,
                       lambda solver: sorted(key for key, v in built.placements.items() if solver.BooleanValue(v)),
                       seed=seed, timeout_s=timeout_s, workers=workers, log=log)


def solve_width(model, makespan, chosen, *, seed: int, timeout_s: float | None, workers: int,
                log: bool) -> WidthResult:
    """Minimise ``makespan`` in ``model`` and say what came of it, one way for every CP-SAT model:
    sat with ``chosen(solver)`` (the placements kept) and the width reached, unsat when CP-SAT proved
    the model infeasible (no placement within the model's widest width), unknown otherwise."""
    cp_model = load_cp_model()
    solver = new_solver(seed=seed, timeout_s=timeout_s, workers=workers, log=log)
    t0 = time.monotonic()
    status = solver.Solve(model)
    seconds = time.monotonic() - t0
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return WidthResult(SolveResult.SAT, chosen(solver), int(solver.Value(makespan)),
                           int(solver.BestObjectiveBound()), solver.StatusName(status), seconds)
    result = SolveResult.UNSAT if status == cp_model.INFEASIBLE else SolveResult.UNKNOWN
    return WidthResult(result, None, None, int(solver.BestObjectiveBound()), solver.StatusName(status), seconds)


def repack(problem: TableProblem, chosen: list[tuple[int, int, int]], free: set[int], *, lower: int = 0,
           seed: int = 0, timeout_s: float | None = None, workers: int = DEFAULT_WORKERS) -> WidthResult:
    """A large-neighbourhood step: keep every item of ``chosen`` (a valid placement within
    ``problem.width``) except those in ``free``, and let CP-SAT re-place the free items
    (any word, any column whose cells the kept items leave empty) to minimise the width.
    A small model even when the whole table is too big for one."""
    cp_model = load_cp_model()
    T = problem.width
    blocked: set[tuple[int, int]] = set()
    fixed_end = max(lower, 0)
    for i, w, c in chosen:
        if i not in free:
            word = problem.items[i].words[w]
            blocked.update((c + k, s) for k, s in enumerate(word))
            fixed_end = max(fixed_end, c + len(word))
    model = cp_model.CpModel()
    placements: dict[tuple[int, int, int], object] = {}
    covering: dict[tuple[int, int], list] = defaultdict(list)
    makespan = model.NewIntVar(fixed_end, T, "width")
    for i in sorted(free):
        terms = []
        for w, word in enumerate(problem.items[i].words):
            for c in range(0, T - len(word) + 1):
                if any((c + k, s) in blocked for k, s in enumerate(word)):
                    continue
                v = model.NewBoolVar(f"x_{i}_{w}_{c}")
                placements[(i, w, c)] = v
                terms.append((v, c + len(word)))
                for k, s in enumerate(word):
                    covering[(c + k, s)].append(v)
        model.AddExactlyOne([v for v, _ in terms])
        model.Add(makespan >= sum(end * v for v, end in terms))
    for vs in covering.values():
        if len(vs) > 1:
            model.AddAtMostOne(vs)
    model.Minimize(makespan)
    current = set(chosen)
    for key, v in placements.items():
        model.AddHint(v, key in current)
    kept = [key for key in chosen if key[0] not in free]
    return solve_width(model, makespan,
                       lambda solver: sorted(kept + [key for key, v in placements.items() if solver.BooleanValue(v)]),
                       seed=seed, timeout_s=timeout_s, workers=workers, log=False)
