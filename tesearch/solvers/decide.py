"""One solver call on one table problem, whichever backend and CP-SAT model decides it.

:func:`decide` is the one place that encodes a :class:`~tesearch.solvers.problem.TableProblem` and
solves it, through the solver module :func:`tesearch.solvers.solver_module` looks up: Z3
(:mod:`tesearch.solvers.z3model`), or CP-SAT in the placement model (:mod:`tesearch.solvers.cpsat`) or the
interval model (:mod:`tesearch.solvers.intervals`), each behind the same ``decide_once`` and ``solver_label``.  The rotation and full searches
(``Searcher.run_problem``) and the stratified search (``RotationStratifier.solve_part``) both
call it.  The outcome stays three-valued: sat with the chosen (item, word, first column)
triples, unsat, or unknown (a timeout is never unsat).  A CP-SAT unsat is no certificate:
``tesearch certify`` re-checks it with Z3.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tesearch.running.terms import SolveResult
from tesearch.solvers import Backend, CpsatModel, solver_module
from tesearch.solvers.problem import TableProblem

#: the shortest solver call: a budget that has run out still gets this many seconds
LEAST_SECONDS = 0.05


@dataclass
class Decision:
    """What one solver call answered, with what a caller records about it."""

    problem: TableProblem
    backend: Backend
    result: SolveResult
    chosen: list[tuple[int, int, int]] | None  # sat: (item, word, first column) per item, sorted
    seconds: float  # encoding and solving
    detail: str  # the counting refutation that settled it, or the model's size ("" for a Z3 model)
    encoding: object = None  # the Z3 encoding (z3 backend: tesearch.solvers.z3model.Encoding), e.g. to keep an unsat's SMT-LIB2

    @property
    def outcome(self) -> str:
        """The answer for a progress line: ``sat (1.23s, cpsat) [sampled words]``."""
        return (f"{self.result.value} ({self.seconds:.2f}s"
                + ("" if self.backend is Backend.Z3 else f", {self.backend.value}") + ")"
                + ("" if self.problem.complete_words else " [sampled words]"))


def solver_name(backend: Backend, model: CpsatModel = CpsatModel.PLACEMENTS) -> str:
    """The solver as a table's "search" record names it: ``z3 4.x`` or ``cpsat[ intervals] (OR-Tools 9.x)``."""
    return solver_module(backend, model).solver_label()


def decide(problem: TableProblem, backend: Backend = Backend.Z3, model: CpsatModel = CpsatModel.PLACEMENTS, *,
           timeout_s: float | None, seed: int = 0, label: str = "") -> Decision:
    """Encode ``problem`` for ``backend`` (with CP-SAT: ``model``) and solve it once within ``timeout_s``
    seconds (at least :data:`LEAST_SECONDS`; None or infinity: no limit of its own, as a budget without a
    deadline gives).  ``label`` names the part in the phases the limits report.  The solver module comes
    from :func:`tesearch.solvers.solver_module`, the one lookup; each answers alike (three-valued)."""
    backend, model = Backend(backend), CpsatModel(model)
    t0 = time.monotonic()
    timeout_s = None if timeout_s is None or timeout_s == float("inf") else max(timeout_s, LEAST_SECONDS)
    where = f"{label} T={problem.width}".lstrip()
    answer = solver_module(backend, model).decide_once(problem, where=where, seed=seed, timeout_s=timeout_s)
    return Decision(problem, backend, answer.result, answer.chosen, time.monotonic() - t0, answer.detail,
                    answer.encoding)
