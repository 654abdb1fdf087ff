"""The table problem as a Google OR-Tools CP-SAT model, section for section as :func:`tesearch.encode.encode`.

Same variables (one Boolean per item, word and first column that fits), same
sections: one placement per item (exactly one), letters in columns (at most
once per column and letter; exactly once when there is no blank), letter counts
(each letter's count relative to every item's least count of it, and the total
against the cells), and mirror symmetry breaking (the pinned item's placements
in the right half are not created, which equals fixing them to false).

:func:`solve` returns what :func:`tesearch.encode.solve` returns: a
:class:`~tesearch.encode.SolveResult` and, if sat, the chosen (item, word,
first column) triples, sorted.  OPTIMAL/FEASIBLE is sat, INFEASIBLE is unsat,
anything else (UNKNOWN, MODEL_INVALID) is unknown.  A CP-SAT unsat is not a
certificate in this project: re-check it with Z3 (tesearch certify) before
calling a width impossible.

ortools is imported lazily: without it, :func:`solve` raises a one-line
:class:`~tesearch.errors.SolverUnavailable`.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field

from tesearch.encode import SolveResult, TableProblem
from tesearch.errors import SolverUnavailable

#: CP-SAT search workers: the project runs on 2 cores beside other jobs
DEFAULT_WORKERS = 2


def _cp_model():
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise SolverUnavailable("the cpsat backend needs OR-Tools: pip install 'tesearch[cpsat]' "
                                "(or pip install ortools)") from None
    return cp_model


def ortools_version() -> str:
    try:
        import ortools
    except ImportError:
        return "not installed"
    return ortools.__version__


def counting_refutation(problem: TableProblem) -> str | None:
    """The counting facts :func:`tesearch.encode.encode` reports as ``trivially_unsat``, or None."""
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
class CpsatModel:
    problem: TableProblem
    model: object  # cp_model.CpModel
    placements: dict[tuple[int, int, int], object]  # (item, word, first column) -> BoolVar
    sections: dict[str, int]  # section name -> number of constraints (symmetry: placements left out)
    trivially_unsat: str | None = None
    build_seconds: float = 0.0
    stats: dict = field(default_factory=dict)


def build(problem: TableProblem) -> CpsatModel:
    """The CP-SAT model of ``problem`` (see the module docstring for the sections)."""
    cp_model = _cp_model()
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
    return CpsatModel(problem, model, placements, sections, trivially_unsat, time.monotonic() - t0,
                      {"variables": len(placements)})


def solve_model(built: CpsatModel, *, seed: int = 0, timeout_s: float | None = None,
                workers: int = DEFAULT_WORKERS, log: bool = False
                ) -> tuple[SolveResult, list[tuple[int, int, int]] | None]:
    """Run CP-SAT once on a built model: (result, chosen placements if sat)."""
    if built.trivially_unsat is not None:
        return SolveResult.UNSAT, None
    cp_model = _cp_model()
    solver = cp_model.CpSolver()
    solver.parameters.num_search_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    if timeout_s is not None:
        solver.parameters.max_time_in_seconds = max(float(timeout_s), 0.01)
    solver.parameters.log_search_progress = bool(log)
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
    """Build and run CP-SAT once: (result, chosen placements if sat), as :func:`tesearch.encode.solve`."""
    if counting_refutation(problem) is not None:
        _cp_model()  # still report a missing ortools, so the backend choice fails the same way everywhere
        return SolveResult.UNSAT, None
    return solve_model(build(problem), seed=seed, timeout_s=timeout_s, workers=workers)
