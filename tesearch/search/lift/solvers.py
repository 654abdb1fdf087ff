"""The lift model solved: Z3 (the default) or OR-Tools CP-SAT, and the chosen options decoded.

Variables come from small factories with deterministic names (``lift_i_o``,
``shift_h_t``); a CP-SAT INFEASIBLE is reported as unsat but is never a
certificate.
"""

from __future__ import annotations

import z3

from tesearch.solvers.z3model import at_most, pb_eq
from tesearch.running.errors import LiftError, SolverUnavailable
from tesearch.search.lift.model import HWord, LiftModel
from tesearch.running.terms import SolveResult


def option_var(item: int, option: int) -> z3.BoolRef:
    """Item ``item`` takes its option ``option``."""
    return z3.Bool(f"lift_{item}_{option}")


def shift_var(h: int, shift: int) -> z3.BoolRef:
    """Factor word ``h`` takes the shift ``shift`` (cyclic mode)."""
    return z3.Bool(f"shift_{h}_{shift}")


def z3_solver(model: LiftModel) -> z3.Solver:
    """The lift model's sections as Z3 constraints (``.to_smt2()`` gives the SMT-LIB2 form)."""
    solver = z3.Solver()
    solver.set("random_seed", model.params.seed)
    solver.set("timeout", int(model.params.timeout_s * 1000))
    for i, opts in enumerate(model.options):
        solver.add(pb_eq([(option_var(i, o), 1) for o in range(len(opts))], 1))
    for group in model.latin:
        solver.add(pb_eq([(option_var(i, o), 1) for i, o in group], 1))
    for group in model.column:
        solver.add(at_most([option_var(i, o) for i, o in group], 1))
    for h, by_shift in enumerate(model.shifts):
        solver.add(pb_eq([(shift_var(h, t), 1) for t in range(len(by_shift))], 1))
        for t, per_copy in enumerate(by_shift):
            for group in per_copy:  # copy k agrees with shift t exactly when t is h's shift
                solver.add(shift_var(h, t) == pb_eq([(option_var(i, o), 1) for i, o in group], 1)
                           if group else z3.Not(shift_var(h, t)))
    return solver


def solve_z3(model: LiftModel) -> tuple[SolveResult, dict[int, int]]:
    """Z3: (result, chosen option per item)."""
    solver = z3_solver(model)
    answer = solver.check()
    if answer != z3.sat:
        return (SolveResult.UNSAT if answer == z3.unsat else SolveResult.UNKNOWN), {}
    found = solver.model()
    chosen = {}
    for i, opts in enumerate(model.options):
        for o in range(len(opts)):
            if z3.is_true(found.eval(option_var(i, o), model_completion=True)):
                chosen[i] = o
    return SolveResult.SAT, chosen


def solve_cpsat(model: LiftModel, workers: int = 2) -> tuple[SolveResult, dict[int, int]]:
    """OR-Tools CP-SAT on the same sections (optional dependency; an INFEASIBLE is not certified)."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise SolverUnavailable("the cpsat backend needs OR-Tools: pip install 'tesearch[cpsat]'") from None
    cp = cp_model.CpModel()
    var = [[cp.NewBoolVar(f"lift_{i}_{o}") for o in range(len(opts))] for i, opts in enumerate(model.options)]
    for row in var:
        cp.AddExactlyOne(row)
    for group in model.latin:
        cp.AddExactlyOne([var[i][o] for i, o in group])
    for group in model.column:
        cp.AddAtMostOne([var[i][o] for i, o in group])
    for h, by_shift in enumerate(model.shifts):
        shift = [cp.NewBoolVar(f"shift_{h}_{t}") for t in range(len(by_shift))]
        cp.AddExactlyOne(shift)
        for t, per_copy in enumerate(by_shift):
            for group in per_copy:  # an item takes one option, so the sum is 0 or 1
                cp.Add(sum(var[i][o] for i, o in group) == shift[t])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = model.params.timeout_s
    solver.parameters.num_search_workers = workers
    solver.parameters.random_seed = model.params.seed
    status = solver.Solve(cp)
    if status == cp_model.INFEASIBLE:
        return SolveResult.UNSAT, {}
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SolveResult.UNKNOWN, {}
    chosen = {i: next(o for o, v in enumerate(row) if solver.Value(v)) for i, row in enumerate(var)}
    return SolveResult.SAT, chosen


def decode(model: LiftModel, chosen: dict[int, int], hwords: list[HWord]) -> list[tuple[int, int, tuple[str, ...]]]:
    """(item, start column, word) for every item, from the chosen option of each."""
    placed = []
    for i, opts in enumerate(model.options):
        if i not in chosen:  # pragma: no cover - the placement section forbids it
            raise LiftError(f"item {model.items[i]} has no chosen option")
        opt = opts[chosen[i]]
        kind, _, hi = model.items[i]
        middle = hwords[hi].letters if kind == "copy" else ()
        placed.append((i, opt.start, opt.prefix + middle + opt.suffix))
    return placed


