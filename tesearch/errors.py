"""Errors that reach the user as one line and a non-zero exit code.

Every error names the problem and, where there is one, the place (file, row,
column).  The CLI turns a :class:`TesearchError` into ``tesearch: <message>``
on stderr and exits with :attr:`TesearchError.exit_code`.
"""

from __future__ import annotations


class TesearchError(Exception):
    """Base class: a user-facing error with a one-line message."""

    exit_code = 2

    def __init__(self, message: str, *, where: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class SpecError(TesearchError):
    """A network spec string (``star-5``, ``torus-4x8`` ...) is not valid."""


class GeneratorsError(TesearchError):
    """Permutation generators are malformed or do not define a Cayley network."""


class FormatError(TesearchError):
    """A table file (JSON or text) is malformed."""


class SolverUnavailable(TesearchError):
    """An optional solver (cvc5, a SAT solver) is not installed."""
