"""The one error tree: every error that reaches the user as one line and an exit code.

Every error names the problem and, where there is one, the place (file, row,
column).  The CLI turns a :class:`TesearchError` into ``tesearch: <message>``
on stderr and exits with its :attr:`~TesearchError.exit_code`; nothing else
reaches the user (no traceback).

>>> str(FormatError("T must be an integer", where="x.json"))
'x.json: T must be an integer'
>>> LimitReached("time limit of 5 s reached", phase="encode").exit_code
<ExitCode.UNKNOWN: 4>
"""

from __future__ import annotations

from tesearch.running.terms import ExitCode, phase_text, stop_text


class TesearchError(Exception):
    """Base class: a user-facing error with a one-line message (exit 2 unless a subclass says otherwise)."""

    exit_code = ExitCode.BAD_INPUT

    def __init__(self, message: str, *, where: str | None = None):
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)


class SpecError(TesearchError):
    """A network spec string (``star-5``, ``torus-4x8`` ...) is not valid."""


class GeneratorsError(TesearchError):
    """Permutation generators are malformed or do not define a Cayley network."""


class FormatError(TesearchError):
    """A file (table, certificate, schedule, encoding) is malformed."""


class OptionError(TesearchError):
    """A command-line option has a value the command cannot use."""


class SizeLimitError(TesearchError):
    """Known in advance: the input is larger than a documented limit (an option raises the limit)."""


class SolverUnavailable(TesearchError):
    """An optional solver or runtime (ortools, cvc5, python-sat, mpi4py, ray) is not installed."""


class ResourceUnavailable(TesearchError):
    """The machine cannot give the command what it needs now (a runtime such as Ray that cannot start on a busy or
    short-of-memory machine): not bad input, so exit 4 with the reason; nothing is written."""

    exit_code = ExitCode.UNKNOWN


class ConstructionError(TesearchError):
    """A construction or decomposition does not apply to the network asked for."""


class StratifyError(ConstructionError):
    """The stratified search does not apply: no rotation, or no split of the exceptional orbits fits."""


class UnverifiedTable(TesearchError):
    """A table tesearch built does not verify against Theorem 1: a bug in the strategy that made it (exit 70).
    :class:`tesearch.tables.build.TableBuilder` raises it, the one place where tables are verified as they are made."""

    exit_code = ExitCode.INTERNAL


class LiftError(TesearchError):
    """No ring lift was found for a torus (the model was refuted or the solver gave up): exit 4."""

    exit_code = ExitCode.UNKNOWN


class LiftImpossible(LiftError):
    """A ring lift of the factor table at hand is proved impossible (narrower than a lower bound, or a counting
    cut no mode can pass): the request cannot be met, which is bad input (exit 2), not a limit."""

    exit_code = ExitCode.BAD_INPUT


class LimitReached(TesearchError):
    """A time or memory limit was reached while running; nothing proved, nothing half-written."""

    exit_code = ExitCode.UNKNOWN
    #: set by the supervisor: why and where the work was stopped, and its best candidate result
    stopped = None

    def __init__(self, message: str, *, phase: str | None = None, where: str | None = None):
        self.phase = phase
        super().__init__(message + (f" ({phase_text(phase)})" if phase else ""), where=where)


class Interrupted(TesearchError):
    """SIGINT or SIGTERM: the command stopped and wrote nothing."""

    def __init__(self, message: str, *, exit_code: ExitCode = ExitCode.INTERRUPTED):
        self.exit_code = exit_code
        super().__init__(message)


def run_script(main, *args) -> None:
    """How a script of scripts/ or benchmarks/ ends: with its ``main``'s exit code, on a TesearchError with its one
    line and exit code, and on Ctrl-C with one line and exit 130, never a traceback (what the script had written stays as it was written)."""
    import sys
    from pathlib import Path

    try:
        code = main(*args)
    except KeyboardInterrupt:
        sys.stderr.write(f"{Path(sys.argv[0]).name}: {stop_text(ExitCode.INTERRUPTED)}\n")
        _exit_promptly(int(ExitCode.INTERRUPTED))
    except TesearchError as exc:  # a refused output, bad input: one line and its exit code
        sys.stderr.write(f"{Path(sys.argv[0]).name}: {exc}\n")
        sys.exit(int(exc.exit_code))
    sys.exit(code)


def _exit_promptly(code: int) -> None:
    """Exit now: the exit handlers run (temporary files, child processes), the interpreter's teardown of every loaded
    module does not (benchmarks.fuzz took 4.0 s to stop on Ctrl-C, nearly all of it that teardown at a load of 15)."""
    import atexit
    import os
    import sys

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
