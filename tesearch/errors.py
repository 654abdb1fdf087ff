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


def read_text_file(path, error: type[TesearchError] = FormatError) -> str:
    """A file's text, or ``error`` naming the file (missing, unreadable, not text)."""
    from pathlib import Path

    path = Path(path)
    try:
        return path.read_text()
    except FileNotFoundError:
        raise error("no such file", where=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read: {exc}", where=str(path)) from None


def parse_json_text(text: str, where: str, error: type[TesearchError] = FormatError) -> object:
    """Decoded JSON, or ``error`` with the line and column of the fault."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", where=where) from None


def read_json_file(path, error: type[TesearchError] = FormatError) -> object:
    """:func:`read_text_file` then :func:`parse_json_text`, errors naming the file."""
    return parse_json_text(read_text_file(path, error), str(path), error)
