"""Limits and progress as the working code sees them: phases, counts, the time left, memory estimates.

A command's work runs under one :class:`Limits` (a wall-clock timeout for the
whole command, a memory limit, a largest group order) and reports what it is
doing through module-level calls that cost nothing when nobody listens::

    with phase("build group", total=order):
        ...
        advance(len(level))
    require_memory(order * points, "the element table")
    budget = time_left()  # seconds until the command's deadline, or None

:mod:`tesearch.running.supervise` runs the work in a child process, installs a
:class:`Reporter` that forwards every phase, count, log line and candidate
result to the parent, and enforces the limits from outside (the parent stops
the child at the deadline or when its memory passes the limit).  Run in
process (tests, library use) the calls are no-ops apart from the memory
estimate check, which always applies.

This module imports only the standard library and :mod:`tesearch.running.errors`.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from tesearch.running.errors import OptionError, SizeLimitError
from tesearch.running.terms import AFTER_PHASE, ROOT_PHASE, phase_text

GiB = 1 << 30
#: default memory limit of a command: below the 24 GB of the machines we run on, with room for the OS
DEFAULT_MAX_MEMORY = 16 * GiB
#: tests set this environment variable to a phase name to make that phase hang (the supervisor must stop it)
STALL_PHASE_VARIABLE = "TESEARCH_STALL_PHASE"
#: default largest group the front end builds (star-10, 3628800 elements, fits; star-11 does not)
DEFAULT_MAX_ORDER = 4_000_000


@dataclass(frozen=True)
class Limits:
    """What one command may spend: wall-clock seconds (None: no limit), bytes of memory, group order."""

    timeout_s: float | None = None
    max_memory: int = DEFAULT_MAX_MEMORY
    max_order: int = DEFAULT_MAX_ORDER

    def __post_init__(self):
        if self.timeout_s is not None and not (self.timeout_s > 0 and self.timeout_s < float("inf")):
            raise OptionError(f"--timeout must be a finite number of seconds > 0, got {self.timeout_s}")
        if self.max_memory <= 0:
            raise OptionError(f"--max-memory must be > 0, got {self.max_memory}")
        if self.max_order < 1:
            raise OptionError(f"--max-order must be >= 1, got {self.max_order}")


@dataclass(frozen=True)
class Budget:
    """What one piece of work may spend: a deadline (``time.monotonic()``; None: none) and a memory ceiling.

    A command makes one from ``--timeout`` / ``--max-memory`` (:meth:`of`, or :meth:`current` inside the
    supervised work, which reads the limits the supervisor installed and enforces from outside) and passes
    it down explicitly; a step that must leave time for others gets :meth:`part` of it.  A time in seconds
    named ``timeout_s`` is always one solver call's, never a whole run's.
    """

    deadline: float | None = None
    max_memory: int = DEFAULT_MAX_MEMORY

    @classmethod
    def of(cls, limits: Limits, *, started: float | None = None) -> Budget:
        """The budget of a command with these limits, started at ``started`` (default: now)."""
        start = time.monotonic() if started is None else started
        return cls(None if limits.timeout_s is None else start + limits.timeout_s, limits.max_memory)

    @classmethod
    def seconds(cls, seconds: float | None, *, max_memory: int = DEFAULT_MAX_MEMORY) -> Budget:
        """``seconds`` from now (None: no deadline)."""
        return cls(None if seconds is None else time.monotonic() + seconds, max_memory)

    @classmethod
    def current(cls) -> Budget:
        """The budget of the command running here: the deadline and memory limit installed by the supervisor
        (no deadline when run in process without limits)."""
        return cls(_state.deadline, _state.limits.max_memory)

    @classmethod
    def until_wall(cls, wall_deadline: float, *, max_memory: int = DEFAULT_MAX_MEMORY) -> Budget:
        """The budget up to a wall-clock deadline (a ``time.time()`` value, as the nodes of a cluster share
        it; infinity: none), on this process's monotonic clock."""
        if wall_deadline == float("inf"):
            return cls(None, max_memory)
        return cls(time.monotonic() + (wall_deadline - time.time()), max_memory)

    @property
    def left(self) -> float:
        """Seconds left (never negative; infinity without a deadline)."""
        return float("inf") if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    @property
    def wall_deadline(self) -> float:
        """The deadline as a ``time.time()`` value, for other processes or machines (infinity: none)."""
        return float("inf") if self.deadline is None else time.time() + (self.deadline - time.monotonic())

    def reserving(self, seconds: float, *, fraction: float = 1.0) -> Budget:
        """This budget less a reserve at its end for what must follow (shutting down, returning a result):
        ``seconds``, at most ``fraction`` of the time left (the reserve never eats a short budget whole)."""
        if self.deadline is None:
            return self
        return Budget(self.deadline - min(seconds, fraction * self.left), self.max_memory)

    @property
    def spent(self) -> bool:
        """No time is left."""
        return self.left <= 0

    def part(self, *, seconds: float | None = None, fraction: float | None = None) -> Budget:
        """A sub-budget for one step: at most ``seconds``, or ``fraction`` of the time left (never past this
        budget's deadline; the memory ceiling is shared)."""
        if (seconds is None) == (fraction is None):
            raise ValueError("Budget.part takes seconds or fraction")
        left = self.left
        share = seconds if seconds is not None else (left * fraction if left != float("inf") else None)
        if share is None:
            return self
        return Budget(time.monotonic() + min(share, left), self.max_memory)

    def call_timeout(self, cap: float | None = None) -> float | None:
        """Seconds for one solver call: the time left, at most ``cap`` (None: no limit at all)."""
        left = self.left
        if left == float("inf"):
            return cap
        return left if cap is None else min(cap, left)


class Reporter:
    """Receives what the work reports; the base class ignores everything (in-process use)."""

    def phase(self, name: str, total: int | None) -> None:
        """A new phase began (``total``: how many units it has, if known)."""

    def advance(self, done: int) -> None:
        """``done`` units of the current phase are finished (absolute count)."""

    def log(self, message: str) -> None:
        """A progress line for people."""

    def candidate(self, value: object) -> None:
        """A verified partial result the parent may keep if the work is stopped (a table so far)."""


@dataclass
class _State:
    limits: Limits
    reporter: Reporter
    deadline: float | None  # time.monotonic() value, or None
    phase: str = ROOT_PHASE
    total: int | None = None
    done: int = 0


_state = _State(Limits(), Reporter(), None)


def install(limits: Limits, reporter: Reporter | None = None, *, started: float | None = None) -> None:
    """Make ``limits`` and ``reporter`` the ones the working code sees (the supervisor's child calls this)."""
    global _state
    start = time.monotonic() if started is None else started
    deadline = None if limits.timeout_s is None else start + limits.timeout_s
    _state = _State(limits, reporter or Reporter(), deadline)


@contextlib.contextmanager
def activated(limits: Limits, reporter: Reporter | None = None, *, started: float | None = None) -> Iterator[None]:
    """:func:`install` for the duration of a ``with`` block, then the previous state again."""
    global _state
    previous = _state
    install(limits, reporter, started=started)
    try:
        yield
    finally:
        _state = previous


def current() -> Limits:
    """The limits in force."""
    return _state.limits


def current_phase() -> str:
    """The name of the phase the work is in."""
    return _state.phase


@contextlib.contextmanager
def phase(name: str, total: int | None = None) -> Iterator[None]:
    """Run a ``with`` block as the phase ``name``; the previous phase is restored after it."""
    previous = (_state.phase, _state.total, _state.done)
    _state.phase, _state.total, _state.done = name, total, 0
    _state.reporter.phase(name, total)
    stall = os.environ.get(STALL_PHASE_VARIABLE)
    if stall and name.startswith(stall):  # fault injection for the limit tests
        time.sleep(3600)
    try:
        yield
    finally:
        between = previous[0] == ROOT_PHASE or previous[0].startswith(AFTER_PHASE)  # no named phase outside
        outer = AFTER_PHASE + name if between else previous[0]
        _state.phase, _state.total, _state.done = outer, previous[1], previous[2]
        _state.reporter.phase(outer, previous[1])


def advance(step: int = 1) -> None:
    """``step`` more units of the current phase are done."""
    _state.done += step
    _state.reporter.advance(_state.done)


def log(message: str) -> None:
    """A progress line (shown by the supervisor on stderr unless the command is quiet)."""
    _state.reporter.log(message)


#: where working code sends its progress lines: :func:`log` (the supervisor shows them) or :func:`quiet`
Progress = Callable[[str], None]


def quiet(_: str) -> None:
    """A :data:`Progress` that drops every line (the default where nobody listens)."""


def offer(value: object) -> None:
    """Offer a verified partial result (e.g. the best table so far) to whoever supervises the work."""
    _state.reporter.candidate(value)


class _Through(Reporter):
    """A reporter that passes everything on to ``inner``, candidates through ``through`` (None: dropped)."""

    def __init__(self, inner: Reporter, through: Callable[[object], object | None]):
        self.inner = inner
        self.through = through

    def phase(self, name: str, total: int | None) -> None:
        """Passed on."""
        self.inner.phase(name, total)

    def advance(self, done: int) -> None:
        """Passed on."""
        self.inner.advance(done)

    def log(self, message: str) -> None:
        """Passed on."""
        self.inner.log(message)

    def candidate(self, value: object) -> None:
        """Passed on as ``through`` makes it, or dropped when it gives None."""
        passed = self.through(value)
        if passed is not None:
            self.inner.candidate(passed)


@contextlib.contextmanager
def candidates_through(through: Callable[[object], object | None]) -> Iterator[None]:
    """Within the block, every candidate offered (:func:`offer`) goes through ``through`` first: what it returns
    is passed on, None drops it (the front door passes on only a table narrower than the best so far, with its
    route recorded, since the supervisor keeps the last one)."""
    inner = _state.reporter
    _state.reporter = _Through(inner, through)
    try:
        yield
    finally:
        _state.reporter = inner


def time_left() -> float | None:
    """Seconds until the command's deadline (never negative), or None without a time limit."""
    if _state.deadline is None:
        return None
    return max(0.0, _state.deadline - time.monotonic())


def budget(default: float) -> float:
    """``default`` seconds, or fewer if the command's deadline is nearer."""
    left = time_left()
    return default if left is None else min(default, left)


def require_memory(estimate: int, what: str) -> None:
    """Refuse, before allocating, work whose memory estimate exceeds the limit (exit 2, naming the phase)."""
    limit = _state.limits.max_memory
    if estimate > limit:
        raise SizeLimitError(f"{what} needs about {format_bytes(estimate)}, more than the memory limit "
                             f"{format_bytes(limit)} (--max-memory raises it) ({phase_text(_state.phase)})")


def require_order(order: int, what: str) -> None:
    """Refuse a group larger than the order limit before anything is built (exit 2)."""
    limit = _state.limits.max_order
    if order > limit:
        raise SizeLimitError(f"{what}: the group has more than {limit} elements, the limit "
                             f"(--max-order raises it)")


def format_bytes(n: int) -> str:
    """Bytes for people: '1.5 GiB', '300 MiB', '12 KiB'.

    >>> format_bytes(3 * (1 << 29))
    '1.5 GiB'
    """
    for unit, size in (("GiB", GiB), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}".replace(".0 ", " ")
    return f"{n} B"


def parse_bytes(text: str) -> int:
    """'16G', '500M', '2GiB', '1048576' -> bytes; OptionError otherwise.

    >>> parse_bytes("2G") == 2 * GiB
    True
    """
    import re

    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(?:i?B)?\s*", str(text), re.IGNORECASE)
    if not match:
        raise OptionError(f"--max-memory must be a size such as 16G or 500M, got {text!r}")
    value = float(match.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": GiB, "T": 1 << 40}[match.group(2).upper()]
    if value < 1:
        raise OptionError(f"--max-memory must be > 0, got {text!r}")
    return int(value)


#: when the running command started (time.monotonic()); set by the CLI, read by the supervisor
_command_start: float | None = None


def mark_command_start(at: float | None = None, *, clear: bool = False) -> None:
    """Record when the command started (default: now; ``clear``: no command runs); --timeout counts from there."""
    global _command_start
    _command_start = None if clear else time.monotonic() if at is None else at


def command_start() -> float:
    """When the running command started, or now if nobody said."""
    return time.monotonic() if _command_start is None else _command_start


def process_age() -> float:
    """Seconds since this process started (from /proc; 0 where that cannot be read)."""
    try:
        with open("/proc/self/stat") as fh:
            start_ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as fh:
            uptime = float(fh.read().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def resident_bytes(pid: int | None = None) -> int | None:
    """Resident memory of a process (this one by default) from /proc, or None where it cannot be read."""
    try:
        with open(f"/proc/{pid or os.getpid()}/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _proc_kib_field(path: str, field: str) -> int | None:
    """The ``field:`` line of a /proc file given in kB, in bytes; None where unreadable or absent."""
    try:
        with open(path) as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def proportional_bytes(pid: int) -> int:
    """A process's proportional set size (shared pages divided among their sharers, so SMPI's shared
    allocations and MPI ranks' shared memory count once), 0 if unreadable."""
    return _proc_kib_field(f"/proc/{pid}/smaps_rollup", "Pss") or 0


def peak_resident_bytes(pid: int | None = None) -> int | None:
    """The largest resident memory a process (this one by default) has had (VmHWM), or None where unreadable.

    A peak between two polls of :func:`resident_bytes` is still seen here.
    """
    return _proc_kib_field(f"/proc/{pid or os.getpid()}/status", "VmHWM")
