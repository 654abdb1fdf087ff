"""Solver backends for a :class:`tesearch.solvers.problem.TableProblem`.

Z3 (:mod:`tesearch.solvers.z3model`) is the default and the one whose refutations become
certificates.  :mod:`tesearch.solvers.cpsat` builds the same model for Google
OR-Tools CP-SAT (optional: ``pip install tesearch[cpsat]``); it builds and
solves much larger models, but its INFEASIBLE is not a certificate here.
:mod:`tesearch.solvers.intervals` is a second CP-SAT model of the same problem
(a start and letters per item, unit intervals per letter cell, one no-overlap per
letter), chosen with ``--solver cpsat-intervals``.  :func:`tesearch.solvers.decide.decide`
is the one call that encodes and solves a problem with whichever of the three is chosen.
"""

from __future__ import annotations

import enum

#: CP-SAT search workers: the project runs on 2 cores beside other jobs
DEFAULT_WORKERS = 2


class Backend(str, enum.Enum):
    """Which solver decides a table problem."""

    Z3 = "z3"
    CPSAT = "cpsat"


class CpsatModel(str, enum.Enum):
    """Which CP-SAT model the cpsat backend builds."""

    PLACEMENTS = "placements"  # one Boolean per (item, word, first column): tesearch.solvers.cpsat
    INTERVALS = "intervals"  # one start per item, unit intervals per letter: tesearch.solvers.intervals


def cpsat_label(model: CpsatModel) -> str:
    """How tables and progress lines name a CP-SAT model: ``cpsat`` (placements) or ``cpsat intervals``."""
    model = CpsatModel(model)
    return "cpsat" if model is CpsatModel.PLACEMENTS else f"cpsat {model.value}"


def cpsat_module(model: CpsatModel):
    """The module that builds and solves ``model``: :mod:`tesearch.solvers.intervals` or
    :mod:`tesearch.solvers.cpsat` (both offer ``minimize_width`` and ``solve_model``)."""
    if CpsatModel(model) is CpsatModel.INTERVALS:
        from tesearch.solvers import intervals

        return intervals
    from tesearch.solvers import cpsat

    return cpsat


def solver_module(backend: Backend, model: CpsatModel = CpsatModel.PLACEMENTS):
    """The module that decides a table problem for this choice, as CPMpy's SolverLookup maps a name to a
    solver: :mod:`tesearch.solvers.z3model`, :mod:`tesearch.solvers.cpsat` or :mod:`tesearch.solvers.intervals`.
    Each offers ``decide_once(problem, where=, seed=, timeout_s=) -> Answer`` and ``solver_label()``; it is
    imported only when asked for, so that choosing a solver loads no other."""
    if Backend(backend) is Backend.Z3:
        from tesearch.solvers import z3model

        return z3model
    return cpsat_module(model)

