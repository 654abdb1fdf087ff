"""The ``tesearch`` command group: lazy subcommands, one-line errors, documented exit codes.

A subcommand's module is imported only when that subcommand runs (or its own
``--help`` is asked for): ``tesearch info`` never loads z3.  Every way a
command can end maps to an :class:`~tesearch.running.terms.ExitCode`:

* a :class:`~tesearch.running.errors.TesearchError` -> ``tesearch: <one line>`` and its code (control
  characters echoed from the input are escaped: :func:`one_line`);
* a click usage error (unknown option, bad value) -> click's message, exit 2;
* Ctrl-C outside a supervised phase -> exit 130, SIGTERM -> 143;
* anything else is a bug: one line naming a file that holds the traceback, exit 70 (the file is in
  ``$TESEARCH_CRASH_DIR`` if set, else the temporary directory).

No path prints a traceback.
"""

from __future__ import annotations

import importlib
import math
import os
import re
import signal
import sys
import traceback

import click

from tesearch.running.errors import TesearchError
from tesearch.running.terms import ExitCode, stop_text

#: set by tesearch.entry to this process's pid: the command's start was marked at the interpreter's start
ENTRY_VARIABLE = "TESEARCH_ENTRY_PID"

#: subcommand -> (module, attribute, one-line help); the only list of commands
COMMANDS: dict[str, tuple[str, str, str]] = {
    "info": ("tesearch.cli.network", "info", "Nodes, distances, status, bounds, rotation and exceptional words."),
    "bound": ("tesearch.cli.network", "bound",
              "The exact word-choice bound: the fewest uses of the most-used letter over all word choices."),
    "search": ("tesearch.cli.searching", "search", "Search a network for a table of the smallest width."),
    "stratify": ("tesearch.cli.searching", "stratify",
                 "Symmetry-stratified search for networks with a rotation (how star-7 was settled)."),
    "lift": ("tesearch.cli.searching", "lift", "A torus table lifted from a table of its other sides."),
    "repack": ("tesearch.cli.searching", "repack", "A greedy table narrowed by CP-SAT (whole model or last columns)."),
    "narrow": ("tesearch.cli.searching", "narrow",
               "The rotation search's core narrowed by CP-SAT round by round (star-9, star-10, large tori)."),
    "sweep": ("tesearch.cli.sweeping", "sweep",
              "A portfolio of strategies, seeds and backends per network as Ray tasks (needs the ray extra)."),
    "construct": ("tesearch.cli.searching", "construct",
                  "Optimal tables by construction, no solver (hypercubes, mirror lanes, rings, tori, odd stars)."),
    "verify": ("tesearch.cli.checking", "verify", "Check a table against Theorem 1 (one letter per column, every word placed)."),
    "replay": ("tesearch.cli.checking", "replay", "Replay a table on the whole network (independent simulator)."),
    "certify": ("tesearch.cli.checking", "certify", "Check a table and refutations now and write a certificate."),
    "check-proof": ("tesearch.cli.checking", "check_proof", "Re-derive every claim of proof certificates."),
    "draw": ("tesearch.cli.tables", "draw", "Draw a table as a picture."),
    "view": ("tesearch.cli.viewing", "view", "Write a table as an interactive, self-contained HTML page."),
    "regress": ("tesearch.cli.tables", "regress", "Check every table printed in the table-method and star-graph papers."),
    "singleport": ("tesearch.cli.tables", "singleport", "Single-port total exchange (the node-invariant FIFO schedule, algorithm A2)."),
    "compare": ("tesearch.cli.compare", "compare", "A table or network against shortest-path, e-cube and the node-invariant FIFO schedule."),
    "export": ("tesearch.cli.programs", "export", "Write a table's schedule as per-rank programs (tesearch-programs v1)."),
    "run": ("tesearch.cli.programs", "run", "Run a table's schedule on MPI and compare it with MPI_Alltoall."),
    "library": ("tesearch.cli.programs", "library",
                "Build an MPI_Alltoall (PMPI) library on a table's schedule that unmodified programs pick up."),
    "simulate": ("tesearch.cli.simulating", "simulate",
                 "Time a table's schedule beside every MPI_Alltoall algorithm on SimGrid (SMPI)."),
}


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when it is used, and owns every exit path."""

    def list_commands(self, ctx):
        """The subcommands, from COMMANDS."""
        return list(COMMANDS)

    def get_command(self, ctx, name):
        """The subcommand's click object, importing its module now."""
        entry = COMMANDS.get(name)
        if entry is None:
            return None
        module, attribute, _ = entry
        return getattr(importlib.import_module(module), attribute)

    def format_commands(self, ctx, formatter):
        """The command list from :data:`COMMANDS`, without importing any command's module."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, help_text) for name, (_, _, help_text) in COMMANDS.items()])

    def format_epilog(self, ctx, formatter):
        """The NETWORK spec grammar after the commands, made from the family registry when help is shown."""
        from tesearch.networks.families import spec_grammar

        opening, rows, closing = spec_grammar()
        with formatter.section("Networks"):
            formatter.write_text(opening)
            formatter.write_dl(rows)
            formatter.write_paragraph()
            formatter.write_text(closing)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Run the command and exit with its :class:`ExitCode`; never print a traceback."""
        from tesearch.running import limits
        if os.environ.get(ENTRY_VARIABLE) != str(os.getpid()):  # in-process use (tests): the command starts now
            limits.mark_command_start()
        previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
        # our own handlers, even where the shell started us with SIGINT ignored (a background job):
        # Ctrl-C is always exit 130, SIGTERM 143, and every command stops what it started
        signal.signal(signal.SIGINT, _interrupt)
        signal.signal(signal.SIGTERM, _terminate)
        previous_hook, sys.unraisablehook = sys.unraisablehook, _unraisable
        try:
            code = super().main(args=args, prog_name="tesearch", complete_var=complete_var,
                                standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            code = exc.exit_code
        except click.exceptions.Abort:
            code = _fail(f"{stop_text(ExitCode.INTERRUPTED)}; nothing was written", ExitCode.INTERRUPTED)
        except click.ClickException as exc:
            code = _fail(_usage_line(exc), ExitCode.BAD_INPUT)
        except TesearchError as exc:
            code = _fail(str(exc), exc.exit_code)
        except _StopSignal as stop:
            code = _fail(stop.message, stop.exit_code)
        except KeyboardInterrupt:
            code = _fail(f"{stop_text(ExitCode.INTERRUPTED)}; nothing was written", ExitCode.INTERRUPTED)
        except BrokenPipeError:
            code = ExitCode.OK  # the reader went away (| head): nothing to report
        except MemoryError:
            code = _fail("out of memory (see --max-memory)", ExitCode.UNKNOWN)
        except Exception as exc:  # a bug: one line here, the traceback in a file
            code = _internal(exc)
        finally:
            own_process = os.environ.get(ENTRY_VARIABLE) == str(os.getpid())
            if own_process:  # the outcome is decided: a signal from here on must not turn it into a traceback
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            sys.unraisablehook = previous_hook
            limits.mark_command_start(None, clear=True)
        code = int(code) if code is not None else 0
        if own_process:
            _prompt_exit(code)  # with the stop signals still blocked, through to the process's end
        sys.exit(code)


def _prompt_exit(code: int) -> None:
    """Run the atexit handlers, flush, and end the process now (the command's own process only): the
    interpreter's teardown can take a second on a loaded machine with numpy, z3 and ray loaded (a stop
    must take at most 2 s from the signal), and a signal during it would print a traceback."""
    import atexit

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


class _StopSignal(BaseException):
    """SIGINT or SIGTERM in the command's own process, outside a supervised run.

    A BaseException, like KeyboardInterrupt, and not a TesearchError: code that takes an error for a
    fault of its input (``except TesearchError`` / ``except Exception``) must not swallow a stop, or a
    Ctrl-C that lands there is lost and the command runs on to exit 0.  Turned into the one-line message
    and exit 130 / 143 in :meth:`LazyGroup.main`."""

    def __init__(self, message: str, exit_code: ExitCode):
        super().__init__(message)
        self.message, self.exit_code = message, exit_code


def _unraisable(unraisable) -> None:
    """A stop raised where Python cannot raise it (a finalizer, a weakref callback: "Exception ignored in"):
    no traceback; the signal is sent again a moment later (from a thread: a signal sent here would be
    handled here again), so that the command stops at its next step instead of running on."""
    if isinstance(unraisable.exc_value, (_StopSignal, KeyboardInterrupt)):
        import threading

        code = getattr(unraisable.exc_value, "exit_code", ExitCode.INTERRUPTED)
        again = threading.Timer(0.01, os.kill, (os.getpid(), signal.SIGTERM if code == ExitCode.TERMINATED
                                                else signal.SIGINT))
        again.daemon = True
        again.start()
        return
    sys.__unraisablehook__(unraisable)


def _interrupt(signum, frame):
    raise _StopSignal(f"{stop_text(ExitCode.INTERRUPTED)}; nothing was written", ExitCode.INTERRUPTED)


def _terminate(signum, frame):
    raise _StopSignal(f"{stop_text(ExitCode.TERMINATED)}; nothing was written", ExitCode.TERMINATED)


def _usage_line(exc: click.ClickException) -> str:
    """A click usage error as one line: the command, the message, and where to get help."""
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "tesearch"
    message = " ".join(exc.format_message().split())
    return f"{where}: {message} (see {where} --help)"


def one_line(text: str) -> str:
    """``text`` with every character that is not printable (newline, tab, escape, a bidi override...)
    written as its Python escape, so an error that echoes the user's input stays one line.

    >>> one_line("star-4\\nx: bad")
    'star-4\\\\nx: bad'
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _fail(message: str, code: int) -> int:
    click.echo(f"tesearch: {one_line(message)}", err=True)
    return code


def _internal(exc: BaseException) -> int:
    from tesearch.running.supervise import crash_file

    try:
        where = crash_file(traceback.format_exc())
    except OSError:
        where = "nowhere (the crash directory is not writable)"
    return _fail(f"internal error: {type(exc).__name__}: {str(exc)[:200]} (traceback in {where}; please report it)",
                 ExitCode.INTERNAL)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tesearch")
def main():
    """tesearch: optimal total exchange tables on Cayley networks.

    Exit codes: 0 ok; 1 a check fails; 2 bad input or a size over a limit; 3 the search proved
    no table exists in the widths asked for; 4 a time or memory limit was reached (or a solver
    gave up) with nothing proved; 130 interrupted (Ctrl-C), 143 terminated; nothing is written then.
    """


# ------------------------------------------------------------------ shared option types

#: the longest time limit any option accepts: a year (timers and solvers overflow far above it)
MAX_SECONDS = 365 * 24 * 3600


class Seconds(click.ParamType):
    """A finite number of seconds > 0, at most :data:`MAX_SECONDS`."""

    name = "SECONDS"

    def convert(self, value, param, ctx):
        """The value as seconds, or a usage error."""
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(number) or number <= 0:
            self.fail(f"must be a finite number of seconds > 0, got {value!r}", param, ctx)
        if number > MAX_SECONDS:
            self.fail(f"must be at most {MAX_SECONDS} seconds (a year), got {value!r}", param, ctx)
        return number


#: the largest integer any option accepts unless it says otherwise (solvers take 32-bit ints)
MAX_OPTION_INT = 2**31 - 1


class AtLeast(click.ParamType):
    """An integer from ``minimum`` to ``maximum`` (default :data:`MAX_OPTION_INT`): a huge number is a usage
    error, never an overflow deep inside a solver."""

    name = "INTEGER"

    def __init__(self, minimum: int, maximum: int = MAX_OPTION_INT):
        self.minimum = minimum
        self.maximum = maximum

    def convert(self, value, param, ctx):
        """The value as an integer in range, or a usage error."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                self.fail(f"{value!r} is not an integer", param, ctx)
            digits = text.lstrip("+-")
            if len(digits.lstrip("0")) > 40:  # do not even convert a 10^6-digit number
                self.fail(f"must be an integer from {self.minimum} to {self.maximum}, got a "
                          f"{len(digits)}-digit number", param, ctx)
            number = int(text, 10)
        if not self.minimum <= number <= self.maximum:
            self.fail(f"must be an integer from {self.minimum} to {self.maximum}, got {number}", param, ctx)
        return number


class ByteSize(click.ParamType):
    """A memory size: 16G, 500M, 2GiB or a number of bytes."""

    name = "SIZE"

    def convert(self, value, param, ctx):
        """The value in bytes, or a usage error."""
        from tesearch.running.limits import parse_bytes

        if isinstance(value, int):
            return value
        try:
            return parse_bytes(value)
        except TesearchError as exc:
            self.fail(exc.message, param, ctx)


SECONDS = Seconds()
POSITIVE = AtLeast(1)
NON_NEGATIVE = AtLeast(0)
#: solver seeds: Z3 and CP-SAT take 32-bit seeds, and the CP-SAT rounds add their round number to it
SEED = AtLeast(0, 2**30)
#: CP-SAT worker threads (above a few thousand CP-SAT rejects its own model as MODEL_INVALID)
WORKERS = AtLeast(1, 1024)
BYTES = ByteSize()
