"""One solver call on one table problem, whichever backend and CP-SAT model decides it.

:func:`decide` is the one place that encodes a :class:`~tesearch.solvers.z3model.TableProblem` and
solves it: with Z3 (:func:`tesearch.solvers.z3model.encode` and :func:`~tesearch.solvers.z3model.solve`), or
with CP-SAT in the placement model (:mod:`tesearch.solvers.cpsat`) or the interval model
(:mod:`tesearch.solvers.intervals`).  The rotation and full searches
(``Searcher.run_problem``) and the stratified search (``RotationStratifier.solve_part``) both
call it.  The outcome stays three-valued: sat with the chosen (item, word, first column)
triples, unsat, or unknown (a timeout is never unsat).  A CP-SAT unsat is no certificate:
``tesearch certify`` re-checks it with Z3.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tesearch.running import limits
from tesearch.solvers import Backend, CpsatModel, cpsat, cpsat_label, intervals
from tesearch.solvers.z3model import Encoding, TableProblem, encode, solve, z3_version
from tesearch.running.terms import SolveResult

#: the shortest solver call: a budget that has run out still gets this many seconds
LEAST_SECONDS = 0.05
MS_PER_SECOND = 1000


@dataclass
class Decision:
    """What one solver call answered, with what a caller records about it."""

    problem: TableProblem
    backend: Backend
    result: SolveResult
    chosen: list[tuple[int, int, int]] | None  # sat: (item, word, first column) per item, sorted
    seconds: float  # encoding and solving
    detail: str  # the counting refutation that settled it, or the model's size ("" for a Z3 model)
    encoding: Encoding | None = None  # the Z3 encoding (z3 backend), e.g. to keep an unsat's SMT-LIB2

    @property
    def outcome(self) -> str:
        """The answer for a progress line: ``sat (1.23s, cpsat) [sampled words]``."""
        return (f"{self.result.value} ({self.seconds:.2f}s"
                + ("" if self.backend is Backend.Z3 else f", {self.backend.value}") + ")"
                + ("" if self.problem.complete_words else " [sampled words]"))


def solver_name(backend: Backend, model: CpsatModel = CpsatModel.PLACEMENTS) -> str:
    """The solver as a table's "search" record names it: ``z3 4.x`` or ``cpsat[ intervals] (OR-Tools 9.x)``."""
    if Backend(backend) is Backend.Z3:
        return f"z3 {z3_version()}"
    return f"{cpsat_label(model)} (OR-Tools {cpsat.ortools_version()})"


def decide(problem: TableProblem, backend: Backend = Backend.Z3, model: CpsatModel = CpsatModel.PLACEMENTS, *,
           timeout_s: float | None, seed: int = 0, label: str = "") -> Decision:
    """Encode ``problem`` for ``backend`` (with CP-SAT: ``model``) and solve it once within ``timeout_s``
    seconds (at least :data:`LEAST_SECONDS`; None or infinity: no limit of its own, as a budget without a
    deadline gives).  ``label`` names the part in the phases the limits report."""
    backend, model = Backend(backend), CpsatModel(model)
    t0 = time.monotonic()
    timeout_s = None if timeout_s is None or timeout_s == float("inf") else max(timeout_s, LEAST_SECONDS)
    where = f"{label} T={problem.width}".lstrip()
    enc = None
    if backend is Backend.CPSAT and model is CpsatModel.INTERVALS:
        trivial = cpsat.counting_refutation(problem)  # as intervals.solve: no model is built for it
        if trivial is not None:
            cpsat.load_cp_model()  # without the cpsat extra this still fails as every CP-SAT call does
            result, chosen, detail = SolveResult.UNSAT, None, trivial
        else:
            with limits.phase(f"encode {where} (cpsat intervals)"):
                built = intervals.build(problem)
            with limits.phase(f"solve {where} (cpsat intervals)"):
                result, chosen = intervals.solve_model(built, seed=seed, timeout_s=timeout_s)
            detail = f"cpsat intervals {built.stats['intervals']} letter intervals"
    elif backend is Backend.CPSAT:
        with limits.phase(f"encode {where} (cpsat)"):
            built = cpsat.build(problem)
        with limits.phase(f"solve {where} (cpsat)"):
            result, chosen = cpsat.solve_model(built, seed=seed, timeout_s=timeout_s)
        detail = built.trivially_unsat or f"cpsat {built.stats['variables']} variables"
    else:
        with limits.phase(f"encode {where}"):
            enc = encode(problem)
        with limits.phase(f"solve {where}"):
            result, chosen = solve(enc, seed=seed,
                                   timeout_ms=None if timeout_s is None else int(timeout_s * MS_PER_SECOND))
        detail = enc.trivially_unsat or ""
    return Decision(problem, backend, result, chosen, time.monotonic() - t0, detail, enc)
