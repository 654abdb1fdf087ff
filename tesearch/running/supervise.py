"""Run a command's work where it can always be stopped: a child process watched by the parent.

:func:`supervise` forks a child that runs the work under the command's
:class:`~tesearch.running.limits.Limits` and reports phases, counts, log lines and
candidate results back through a pipe.  The parent (the command the user
started) shows the progress and enforces the limits from outside, so they hold
in every phase, native solver code and long numpy calls included:

* the **deadline**: the child sees the command's timeout less a small margin
  (so that a search can finish by itself, with its fallback table); at the
  timeout itself the parent stops the child and raises
  :class:`~tesearch.running.errors.LimitReached` naming the phase it was in (exit 4);
* **memory**: the parent reads the child's resident memory every
  :data:`POLL_S` seconds and stops it when it passes the limit (exit 4); work
  whose size is known in advance is refused before allocating by
  :func:`tesearch.running.limits.require_memory` (exit 2);
* **signals**: SIGINT (Ctrl-C) and SIGTERM stop the child at once and raise
  :class:`~tesearch.running.errors.Interrupted` (exit 130 or 143).  The child never
  writes a file, so whatever the user had is left as it was;
* **errors**: a :class:`~tesearch.running.errors.TesearchError` in the child comes
  back as one line with its exit code; anything else is an internal error whose
  traceback goes to a file in the temporary directory, never to the terminal.

``TESEARCH_INLINE=1`` runs the work in this process instead (for profiling and
debugging; no limit is enforced from outside then).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Iterator, TypeVar

from tesearch.running import limits as _limits
from tesearch.running.errors import Interrupted, LimitReached, TesearchError
from tesearch.running.limits import Limits, format_bytes, peak_resident_bytes
from tesearch.running.processes import CLEANUP_SIGNALS, STOP_SIGNALS, TRACK_S, alive, kill_family, kill_with_parent, process_family
from tesearch.running.terms import ROOT_PHASE, ExitCode, phase_text, stop_text

T = TypeVar("T")

#: seconds between the parent's checks of the child's time and memory
POLL_S = 0.2
#: seconds the parent allows past the deadline before it stops the child
KILL_GRACE_S = 0.5
#: seconds of a non-terminal heartbeat line ("still in phase ...")
HEARTBEAT_S = 10.0
#: environment variable naming the directory for crash files (default: the temporary directory)
CRASH_DIR_VARIABLE = "TESEARCH_CRASH_DIR"


class RemoteError(TesearchError):
    """An error raised in the supervised child, carried back with its message and exit code."""

    def __init__(self, message: str, exit_code: int, phase: str | None = None):
        self.exit_code = ExitCode(exit_code) if exit_code in ExitCode._value2member_map_ else ExitCode.INTERNAL
        self.phase = phase
        super().__init__(message)


@dataclass
class Stopped:
    """Why and where a supervised run was stopped, and the best candidate it had offered."""

    reason: str
    phase: str
    candidate: object | None


class _PipeReporter(_limits.Reporter):
    def __init__(self, conn):
        self.conn = conn
        self.last_advance = 0.0

    def _send(self, message: tuple) -> None:
        try:
            self.conn.send(message)
        except (BrokenPipeError, OSError):  # the parent is gone: stop quietly
            os._exit(int(ExitCode.INTERRUPTED))

    def phase(self, name, total):
        self._send(("phase", name, total))

    def advance(self, done):
        now = time.monotonic()
        if now - self.last_advance >= 0.1:  # no more than ten updates a second through the pipe
            self.last_advance = now
            self._send(("advance", done))

    def log(self, message):
        self._send(("log", message))

    def candidate(self, value):
        self._send(("candidate", value))


def crash_file(text: str) -> str:
    """Write an internal error's traceback to a new file; its path (in $TESEARCH_CRASH_DIR, else the temporary
    directory).  Raises OSError when neither can be written."""
    directory = os.environ.get(CRASH_DIR_VARIABLE) or None
    fd, path = tempfile.mkstemp(prefix="tesearch-crash-", suffix=".txt", dir=directory)
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    return path


def _child_main(conn, work: Callable[[], object], limits: Limits, started: float, margin: float,
                parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what a Ctrl-C does
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # a session of our own: what the work starts (solvers, Ray, mpiexec) is stopped with our group, and
    # a terminal's Ctrl-C reaches only the parent; and we die with the parent, even if it is SIGKILLed
    try:
        os.setsid()
    except OSError:
        pass
    kill_with_parent()
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(int(ExitCode.INTERRUPTED))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # blocked by the parent around the fork
    reporter = _PipeReporter(conn)
    child_limits = limits if limits.timeout_s is None else \
        Limits(max(limits.timeout_s - margin, 0.01), limits.max_memory, limits.max_order)
    _limits.install(child_limits, reporter, started=started)
    try:
        value = work()
        # the value, the peak memory, and whether the work's time ran out (it stopped at its limit)
        message = ("done", value, peak_resident_bytes(), _limits.time_left() == 0)
    except TesearchError as exc:
        message = ("error", str(exc), int(exc.exit_code), getattr(exc, "phase", None) or _limits.current_phase())
    except MemoryError:
        message = ("error", f"out of memory ({phase_text(_limits.current_phase())}; "
                            f"limit {format_bytes(limits.max_memory)})", int(ExitCode.UNKNOWN),
                   _limits.current_phase())
    except BaseException as exc:  # a bug: one line for the user, the traceback in a file
        try:
            path = crash_file(traceback.format_exc())
        except OSError:
            path = "nowhere (the crash directory is not writable)"
        message = ("error", f"internal error ({phase_text(_limits.current_phase())}): {type(exc).__name__}: "
                            f"{str(exc)[:200]} (details in {path}; please report it)",
                   int(ExitCode.INTERNAL), _limits.current_phase())
    try:
        conn.send(message)
    except Exception as exc:  # the result does not pickle: report it instead of dying silently
        conn.send(("error", f"internal error: the result could not be sent back ({exc})", int(ExitCode.INTERNAL),
                   _limits.current_phase()))
    conn.close()




class Signalled(BaseException):
    """SIGINT or SIGTERM, raised where the work is: by :func:`supervise`'s handler, or by a caller that noted the
    signal first and raises it where it is safe (the sweep driver, whose waits are inside Ray's native code)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_signalled(signum, _frame):
    raise Signalled(signum)


def interruption(signum: int, detail: str) -> Interrupted:
    """The one error a stop signal becomes: exit 130 for SIGINT, 143 for SIGTERM, the message naming the signal
    (worded by terms.stop_text) followed by ``detail`` (where it was, what was written)."""
    code = ExitCode.INTERRUPTED if signum == signal.SIGINT else ExitCode.TERMINATED
    return Interrupted(f"{stop_text(code)}{detail}", exit_code=code)


class _ProgressView:
    """What the parent shows: log lines, and the current phase (a bar on a terminal, heartbeat lines otherwise)."""

    def __init__(self, quiet: bool, started: float):
        self.quiet = quiet
        self.started = started
        self.tty = sys.stderr.isatty()
        self.bar = None
        self.phase_name = ROOT_PHASE
        self.total: int | None = None
        self.done = 0
        self.last_line = time.monotonic()

    def _elapsed(self) -> str:
        return f"[{time.monotonic() - self.started:7.1f}s]"

    def phase(self, name: str, total: int | None) -> None:
        self.phase_name, self.total, self.done = name, total, 0
        if self.quiet:
            return
        if self.tty:
            from tqdm import tqdm

            if self.bar is not None:
                self.bar.close()
            self.bar = tqdm(total=total, desc=name, unit="", leave=False, file=sys.stderr, dynamic_ncols=True)

    def advance(self, done: int) -> None:
        self.done = done
        if self.bar is not None:
            self.bar.n = done
            self.bar.refresh()

    def log(self, message: str) -> None:
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.write(message, file=sys.stderr)
        else:
            print(message, file=sys.stderr, flush=True)
        self.last_line = time.monotonic()

    def tick(self) -> None:
        """A heartbeat line when nothing was printed for a while (no terminal, not quiet)."""
        if self.quiet or self.tty or time.monotonic() - self.last_line < HEARTBEAT_S:
            return
        count = f" ({self.done}/{self.total})" if self.total else (f" ({self.done} done)" if self.done else "")
        self.log(f"{self._elapsed()} still working ({phase_text(self.phase_name)}){count}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _stop(proc, known: dict[int, int] | None = None, grace_s: float = 0.0) -> None:
    """Stop the worker and everything it started (its session, and the processes seen in its family).

    With ``grace_s`` the worker first gets SIGTERM and that long to end by itself (a sweep cancels its
    tasks); then SIGKILL to its process group and every known member.  A large process may take
    seconds to unmap after SIGKILL; the command need not wait for that: the kernel frees it.
    """
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, CLEANUP_SIGNALS)
    try:
        members = dict(known or {})
        if proc.pid is not None:
            members.update(process_family(proc.pid))
        if grace_s > 0 and proc.is_alive():
            try:
                os.kill(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + grace_s
            while proc.is_alive() and time.monotonic() < deadline:  # what it starts while winding down is family
                members.update(process_family(proc.pid))
                proc.join(0.05)
        if proc.pid is not None:
            kill_family(proc.pid, members, within_s=0.0)
        if proc.is_alive():
            proc.kill()
        proc.join(1)
        if proc.pid is not None:  # again, until none is left: a process forked at the first kill is found now
            kill_family(proc.pid, members)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


#: True while supervise() watches a child (it enforces the limits then; the deadline alarm stands aside)
_supervising = False
#: seconds past the deadline at which the alarm stops work that runs in the command's own process
ALARM_GRACE_S = KILL_GRACE_S


#: seconds after which the alarm raises again if its LimitReached was swallowed (a library's `except Exception`)
ALARM_REPEAT_S = 0.25


def _alarm(signum, frame):
    if _supervising:
        return
    signal.setitimer(signal.ITIMER_REAL, ALARM_REPEAT_S)  # until the command has ended
    limit = _limits.current().timeout_s
    raise LimitReached(f"time limit of {limit:g} s reached", phase=_limits.current_phase())


@contextlib.contextmanager
def deadline_alarm(limits: Limits) -> Iterator[None]:
    """Hold ``limits.timeout_s`` (from the command's start) for work in this process too.

    Commands do their light work (imports, reading input, writing output) in their own process and
    the heavy work under :func:`supervise`.  This arms SIGALRM for the deadline + ``ALARM_GRACE_S``:
    outside a supervised run it raises LimitReached (exit 4) where the work is; inside one the
    supervisor enforces the deadline itself.  Not in a thread other than the main one (no-op there).
    """
    if limits.timeout_s is None or threading.current_thread() is not threading.main_thread():
        with _limits.activated(limits):
            yield
        return
    left = _limits.command_start() + limits.timeout_s + ALARM_GRACE_S - time.monotonic()
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        with _limits.activated(limits):
            if left <= 0:
                raise LimitReached(f"time limit of {limits.timeout_s:g} s reached", phase=ROOT_PHASE)
            signal.setitimer(signal.ITIMER_REAL, left)
            yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _limit_error(reason: str, text: str, phase: str, candidate) -> LimitReached:
    error = LimitReached(text, phase=phase)
    error.stopped = Stopped(reason, phase, candidate)
    return error


def supervise(work: Callable[[], T], *, limits: Limits, quiet: bool = False, stop_grace_s: float = 0.0,
              stopped_note: str = "nothing was written") -> T:
    """Run ``work()`` in a child process under ``limits`` and return its value.

    Raises :class:`LimitReached` (with ``.stopped``: the phase and the last candidate the work
    offered) at the deadline or the memory limit, :class:`Interrupted` on SIGINT/SIGTERM, and
    the child's own error (as :class:`RemoteError`) when the work fails.  A limit holds even
    when the work ends by itself: a value that comes after the deadline, or from work that used up
    its time (it stopped at the limit with what it had), or from a child whose peak memory (VmHWM)
    passed the limit, is a LimitReached too.  The child runs in a session of
    its own; whatever it started is stopped with it (``stop_grace_s``: seconds of SIGTERM first,
    for work that cleans up, such as a sweep's Ray).  ``stopped_note`` ends the interrupt's message
    (work that writes files as it goes says what stays).
    """
    started = _limits.command_start()  # --timeout counts from the command's start, imports included
    if os.environ.get("TESEARCH_INLINE"):
        with _limits.activated(limits):
            return work()
    if limits.timeout_s is not None and time.monotonic() - started > limits.timeout_s:
        raise _limit_error("time", f"time limit of {limits.timeout_s:g} s reached", ROOT_PHASE, None)
    margin = 0.0 if limits.timeout_s is None else min(2.0, 0.1 * limits.timeout_s)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    proc = context.Process(target=_child_main, args=(sender, work, limits, started, margin, os.getpid()),
                           daemon=True)
    view = _ProgressView(quiet, started)
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    candidate = None
    phase = ROOT_PHASE
    known: dict[int, int] = {}
    global _supervising
    outer, _supervising = _supervising, True
    try:
        for sig in previous:
            signal.signal(sig, _raise_signalled)
        # no signal may reach the child before it ignores SIGINT: block both around the fork
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        sender.close()
        last_memory_check = last_track = 0.0
        while True:
            if receiver.poll(POLL_S):
                try:
                    message = receiver.recv()
                except EOFError:
                    message = None
                if message is None:
                    proc.join(5)
                    raise RemoteError(f"internal error: the worker process ended unexpectedly ({phase_text(phase)}) "
                                      f"(exit status {proc.exitcode})", ExitCode.INTERNAL, phase)
                kind = message[0]
                if kind == "done":
                    proc.join(5)
                    peak = message[2]
                    if peak is not None and peak > limits.max_memory:
                        raise _limit_error("memory", f"memory limit of {format_bytes(limits.max_memory)} reached "
                                                     f"(peak resident {format_bytes(peak)})", phase, candidate)
                    if limits.timeout_s is not None and (message[3] or time.monotonic() - started > limits.timeout_s):
                        # late, or the work used up its time and ended with what it had (a fallback table):
                        # either way the limit stopped it (exit 4, the last candidate saved by the caller)
                        raise _limit_error("time", f"time limit of {limits.timeout_s:g} s reached", phase, candidate)
                    return message[1]
                if kind == "error":
                    proc.join(5)
                    raise RemoteError(message[1], message[2], message[3])
                if kind == "phase":
                    phase = message[1]
                    view.phase(message[1], message[2])
                elif kind == "advance":
                    view.advance(message[1])
                elif kind == "log":
                    view.log(message[1])
                elif kind == "candidate":
                    candidate = message[1]
            # the limits are checked after every message too: a chatty worker must not starve them
            now = time.monotonic()
            if limits.timeout_s is not None and now - started > limits.timeout_s + KILL_GRACE_S:
                _stop(proc, known, stop_grace_s)
                raise _limit_error("time", f"time limit of {limits.timeout_s:g} s reached", phase, candidate)
            if now - last_track >= TRACK_S:
                last_track = now
                known.update(process_family(proc.pid))
            if now - last_memory_check >= POLL_S:
                last_memory_check = now
                peak = peak_resident_bytes(proc.pid)  # the peak: a spike between two polls counts
                if peak is not None and peak > limits.max_memory:
                    _stop(proc, known, 0.0)
                    raise _limit_error("memory", f"memory limit of {format_bytes(limits.max_memory)} reached "
                                                 f"(peak resident {format_bytes(peak)})", phase, candidate)
                if not proc.is_alive() and not receiver.poll():
                    status = proc.exitcode
                    how = f"killed by signal {-status}" if status is not None and status < 0 else f"exit {status}"
                    raise RemoteError(f"internal error: the worker process died ({phase_text(phase)}; {how})",
                                      ExitCode.INTERNAL, phase)
                view.tick()
    except Signalled as sig:
        _stop(proc, known, stop_grace_s)
        raise interruption(sig.signum, f" ({phase_text(phase)}); {stopped_note}") from None
    finally:
        _supervising = outer
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        view.close()
        if proc.pid is not None and (proc.is_alive() or alive(known)):
            _stop(proc, known, 0.0)
        receiver.close()
