"""Solver backends for a :class:`tesearch.encode.TableProblem`.

Z3 (:mod:`tesearch.encode`) is the default and the one whose refutations become
certificates.  :mod:`tesearch.backends.cpsat` builds the same model for Google
OR-Tools CP-SAT (optional: ``pip install tesearch[cpsat]``); it builds and
solves much larger models, but its INFEASIBLE is not a certificate here.
"""

from __future__ import annotations

import enum


class Backend(str, enum.Enum):
    """Which solver decides a table problem."""

    Z3 = "z3"
    CPSAT = "cpsat"
