"""External processes a command starts (smpirun, mpiexec, compilers, Ray): each in a session of its own, watched,
and stopped with everything it started.

:class:`ProcessGroupChild` starts one and :meth:`~ProcessGroupChild.stop` ends it and every process it started
(found by process group, session and parentage: MPICH's hydra gives each proxy and rank a session of its own);
:func:`run_watched` is the one way tesearch runs such a command to its end: its own time budget, a memory limit,
the command's deadline, a caller's watch function, and its peak memory (``wait4``'s maximum resident set);
:func:`run_captured` is the same with the command's output read back (a compiler, ``smpirun -version``).
"""

from __future__ import annotations

import enum
import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Callable

from tesearch.running import limits as _limits
from tesearch.running.errors import LimitReached

#: the signals that stop a command (Ctrl-C, SIGTERM)
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
#: held back while processes are being stopped (the deadline alarm too: a cleanup is never cut short)
CLEANUP_SIGNALS = STOP_SIGNALS | {signal.SIGALRM}

#: seconds a stopped process group gets between SIGTERM and SIGKILL (the whole stop stays under 2 s)
GROUP_GRACE_S = 1.0
#: seconds between scans of /proc for the processes a started command has (they are found by parentage)
TRACK_S = 0.5


def _process_table() -> dict[int, tuple[int, int, int, int]]:
    """pid -> (parent pid, process group, session, start time in clock ticks) for every process /proc shows."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                # stat fields 4 (ppid), 5 (pgrp), 6 (session), 22 (starttime)
                found[int(entry)] = (int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19]))
            except (OSError, IndexError, ValueError):
                continue
    return found


def process_family(root: int) -> dict[int, int]:
    """The processes ``root`` started, however they detached: pid -> start time.

    A process belongs to the family when its parent does, or when it stays in ``root``'s process
    group or session (a daemon reparented to init keeps those: Ray's agents, an orphaned solver).
    MPICH's hydra gives each proxy and rank a session of its own, so parentage is needed too.
    """
    table = _process_table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found: dict[int, int] = {}
    # a process group or session whose id is ``root`` was made by ``root`` (setsid / setpgid: the id is the
    # leader's pid, and Linux reuses no pid while a group or session holds it), so its members count even
    # after ``root`` has gone (a Ray worker forked at the moment its raylet was killed); a child that has not
    # yet called setsid still shares its parent's group and session: those are not its family
    frontier = ([root] if root in table else []) + [pid for pid, (_, pgid, sid, _) in table.items()
                                                    if pgid == root or sid == root]
    while frontier:
        pid = frontier.pop()
        if pid in table and pid not in found:
            found[pid] = table[pid][3]
            frontier.extend(children.get(pid, ()))
    return found


def alive(known: dict[int, int]) -> dict[int, int]:
    """The members of ``known`` (pid -> start time) still running; a reused pid is never counted."""
    table = _process_table()
    return {pid: start for pid, start in known.items()
            if pid in table and table[pid][3] == start and not _is_zombie(pid)}


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def stop_family(root: int, known: dict[int, int], *, grace_s: float = GROUP_GRACE_S) -> None:
    """Stop ``root``'s process group and every process in ``known``: SIGTERM, ``grace_s``, SIGKILL.

    ``known`` should have been filled by :func:`process_family` while the processes ran (a process
    reparented after its parent died can no longer be found by parentage).  Returns when all are
    gone or at most ``grace_s`` + 0.5 s later.
    """
    members = dict(known)
    members.update(process_family(root))
    signal_family(root, members, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while alive(members) and time.monotonic() < deadline:
        members.update(process_family(root))  # a process started while the family winds down is family too
        time.sleep(0.02)
    kill_family(root, members)


def kill_family(root: int, members: dict[int, int], *, within_s: float = 0.5) -> None:
    """SIGKILL ``root``'s group and every member, rescanning until none is left or ``within_s`` has passed.

    ``members`` is updated in place.  Each pass scans the family again and kills what is new: a process
    forked between the last scan and the kill (a worker its raylet was starting) is found by its group or
    session on the next pass, even when its parent is gone.
    """
    deadline = time.monotonic() + within_s
    while True:
        members.update(process_family(root))
        if not alive(members):
            return
        signal_family(root, members, signal.SIGKILL)
        if time.monotonic() >= deadline:
            return
        time.sleep(0.02)


def signal_family(root: int, members: dict[int, int], signum: int) -> None:
    """Send ``signum`` to the process group ``root`` leads and to every live member of ``members``."""
    try:
        os.killpg(root, signum)  # the group root leads (start_new_session / setsid)
    except (ProcessLookupError, PermissionError):
        pass
    for pid in alive(members):
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def kill_with_parent() -> None:
    """In a child: be sent SIGKILL when the process that started us dies (Linux prctl; nothing elsewhere)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class ProcessGroupChild:
    """An external command run in a session (and process group) of its own, stopped with all it started.

    ``ProcessGroupChild(argv, env=..., stdout=..., stderr=...)`` starts ``argv`` with
    ``start_new_session`` (so a terminal's Ctrl-C reaches only the command, which decides) and,
    by default, with ``PR_SET_PDEATHSIG`` (SIGKILL when this process dies, even by SIGKILL).
    :meth:`track` (called by :meth:`wait` and :meth:`poll_for`) remembers every process it started,
    :meth:`stop` ends them all within ``GROUP_GRACE_S`` + 0.5 s (SIGTERM to the group and the
    family, then SIGKILL).  As a context manager it stops on leaving the block, whatever ended it.
    """

    def __init__(self, argv: list[str], *, env: dict | None = None, cwd: str | os.PathLike | None = None,
                 stdin=subprocess.DEVNULL, stdout=None, stderr=None, die_with_parent: bool = True):
        self.argv = [str(a) for a in argv]
        self.known: dict[int, int] = {}
        self._last_track = 0.0
        self.proc = subprocess.Popen(self.argv, env=env, cwd=cwd, stdin=stdin, stdout=stdout, stderr=stderr,
                                     start_new_session=True,
                                     preexec_fn=kill_with_parent if die_with_parent else None)
        self.pid = self.proc.pid
        self.peak_rss_bytes = 0  # filled in when the command is reaped (poll_for)
        self.track(force=True)

    def track(self, *, force: bool = False) -> dict[int, int]:
        """Scan /proc for the command's processes (at most every TRACK_S unless ``force``); the ones now running."""
        now = time.monotonic()
        if force or now - self._last_track >= TRACK_S:
            self._last_track = now
            members = process_family(self.pid)
            self.known.update(members)
            return members
        return alive(self.known)

    def poll(self) -> int | None:
        """The command's exit status, or None while it runs."""
        return self.proc.poll()

    def poll_for(self, seconds: float) -> int | None:
        """Wait up to ``seconds`` for the command to end; its exit status, or None (tracks its processes).

        The command is reaped with ``wait4``, so :attr:`peak_rss_bytes` is the largest resident set of it and of
        every process it waited for (the simulator smpirun starts, mpiexec's proxies)."""
        if self.proc.returncode is not None:
            return self.proc.returncode
        deadline = time.monotonic() + seconds
        pause = 0.002
        while True:
            try:
                pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere
                return self.proc.poll()
            if pid == self.pid:
                self.peak_rss_bytes = usage.ru_maxrss * 1024
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                return self.proc.returncode
            if time.monotonic() >= deadline:
                self.track()
                return None
            time.sleep(min(pause, max(deadline - time.monotonic(), 0.0)))
            pause = min(pause * 2, 0.05)

    def stop(self, grace_s: float = GROUP_GRACE_S) -> None:
        """End the command and everything it started (idempotent), signals blocked meanwhile."""
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, CLEANUP_SIGNALS)
        try:
            stop_family(self.pid, self.known, grace_s=grace_s)
            if self.proc.poll() is None:
                self.proc.kill()
            try:
                self.proc.wait(1.0)
            except subprocess.TimeoutExpired:
                pass
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def __enter__(self) -> "ProcessGroupChild":
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()


def start_process_group(argv: list[str], **options) -> ProcessGroupChild:
    """Start ``argv`` in a process group and session of its own (see :class:`ProcessGroupChild`)."""
    return ProcessGroupChild(argv, **options)


class EndedBy(str, enum.Enum):
    """Why a watched command stopped."""

    EXIT = "exit"  # it ended by itself
    TIMEOUT = "timeout"  # its own time budget ran out
    MEMORY = "memory"  # it passed its memory limit
    WATCHER = "watcher"  # the caller's watch function stopped it


@dataclass
class WatchedRun:
    """How one watched command ended: its status (None when stopped), wall time and memory."""

    status: int | None
    ended_by: "EndedBy"
    wall_s: float
    peak_rss_bytes: int  # the largest resident set of the command or a process it waited for (wait4)
    peak_pss_bytes: int  # the largest sum of its processes' proportional set sizes seen by the polls
    reason: str = ""  # what the watch function said when it stopped the command


def run_watched(argv: list[str], *, cwd: str | os.PathLike | None = None, env: dict | None = None, stdout=None,
                stderr=None, timeout_s: float | None = None, max_memory: int | None = None,
                deadline: float | None = None, phase: str = "run", memory_poll_s: float = 1.0,
                watch: Callable[[], str | None] | None = None, watch_every_s: float = 1.0) -> WatchedRun:
    """Run an external command (smpirun, mpiexec, a compiler) in a session of its own and watch it: the one way
    tesearch starts such a command.

    Past ``deadline`` (time.monotonic(), the command's --timeout) :class:`~tesearch.running.errors.LimitReached` is raised
    (exit 4, naming ``phase``); past ``timeout_s`` (this run's own budget) the command is stopped and the run says
    TIMEOUT; past ``max_memory`` (its processes' proportional set sizes summed) MEMORY; when ``watch()`` returns a
    reason, WATCHER.  Ctrl-C and SIGTERM propagate as the caller's exception.  Whatever ends the wait, the command
    and everything it started are stopped before this returns (ProcessGroupChild.stop).
    """
    started = time.monotonic()
    child = ProcessGroupChild(argv, env=env, cwd=cwd, stdout=stdout, stderr=stderr)
    ended_by, status, reason, pss = EndedBy.EXIT, None, "", 0
    next_memory = next_watch = started
    try:
        while True:
            wait = 0.2 if timeout_s is None else min(0.2, max(started + timeout_s - time.monotonic(), 0.001))
            status = child.poll_for(wait)
            if status is not None:
                break
            now = time.monotonic()
            if deadline is not None and now > deadline:
                raise LimitReached("time limit reached", phase=phase)
            if timeout_s is not None and now - started > timeout_s:
                ended_by = EndedBy.TIMEOUT
                break
            if now >= next_memory:
                next_memory = now + memory_poll_s
                used = sum(_limits.proportional_bytes(pid) for pid in alive(child.known))
                pss = max(pss, used)
                if max_memory is not None and used > max_memory:
                    ended_by = EndedBy.MEMORY
                    break
            if watch is not None and now >= next_watch:
                next_watch = now + watch_every_s
                said = watch()
                if said:
                    ended_by, reason = EndedBy.WATCHER, said
                    break
    finally:
        child.stop()
    return WatchedRun(status if ended_by is EndedBy.EXIT else None, ended_by, time.monotonic() - started,
                      child.peak_rss_bytes, pss, reason)


@dataclass
class CapturedRun:
    """A watched command's end (:class:`WatchedRun`) with what it printed."""

    run: WatchedRun
    stdout: str
    stderr: str

    @property
    def status(self) -> int | None:
        """Its exit status (None when it was stopped)."""
        return self.run.status


def run_captured(argv: list[str], *, cwd: str | os.PathLike | None = None, env: dict | None = None,
                 timeout_s: float | None = None, deadline: float | None = None, phase: str = "run",
                 max_memory: int | None = None) -> CapturedRun:
    """:func:`run_watched` with the command's standard output and error kept in temporary files and read back."""
    with tempfile.TemporaryFile("w+", errors="replace") as out, tempfile.TemporaryFile("w+", errors="replace") as err:
        done = run_watched(argv, cwd=cwd, env=env, stdout=out, stderr=err, timeout_s=timeout_s, deadline=deadline,
                           phase=phase, max_memory=max_memory)
        out.seek(0)
        err.seek(0)
        return CapturedRun(done, out.read(), err.read())
