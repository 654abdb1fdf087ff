"""A fuzz case and what the fuzzer knows: the limits a run is judged by, the committed tables' widths, a :class:`Case`, what its process did (:class:`Run`) and its judged result (:class:`CaseResult`)."""

from __future__ import annotations

import functools
import importlib
import json
import shlex
import signal
from dataclasses import dataclass, field
from pathlib import Path



ROOT = Path(__file__).resolve().parents[2]
ALLOWED_EXITS = frozenset({0, 1, 2, 3, 4, 130, 143})
#: seconds a case may take before it counts as a hang (cases with --timeout X get X + 15)
CASE_SECONDS = 40.0
#: seconds a case writing to a FIFO may take (a writer that opens the FIFO blocks until killed)
FIFO_SECONDS = 12.0
#: seconds a command may take to end after a SIGINT or SIGTERM (the issue asks for 2; one more for a busy machine)
STOP_SECONDS = 3.0
#: seconds a command may run past its own --timeout (the issue asks for 1 s and one polling interval; the judge's
#: clock also counts the interpreter's start, which --timeout counts too, and the exit)
TIMEOUT_GRACE = 2.0
#: runnable processes per core up to which the machine counts as not busy: the graces above hold as they are there
QUIET_LOAD_PER_CORE = 4.0


def busy_grace(seconds: float, load_per_core: float) -> float:
    """``seconds`` (a grace above) on a machine that is not busy, stretched in proportion to the load beyond
    :data:`QUIET_LOAD_PER_CORE` runnable processes per core: the stop's own work (the interpreter's start, a
    signal handler, killing a process group, the exit) is a fixed amount of CPU, which a process given a tenth of
    a core (a load of 25 on 2 cores, as under CI beside other work) takes several times as long to get.  The load
    is the run's own (:attr:`Run.load_per_core`, measured as it ended), so that a judgement depends on the run,
    not on the machine at the time it is judged."""
    return seconds * max(1.0, load_per_core / QUIET_LOAD_PER_CORE)
#: seconds after the command ends by which every process it started must be gone
LEFTOVER_GRACE = 3.0
#: the table commands that must refuse a table verify refuses (issue 28, item 3: one checked loader)
STRICT_TABLE_COMMANDS = {"verify", "replay", "run", "certify", "export", "draw", "compare", "view"}
#: files the runner keeps beside the sandbox (not judged)
RUNNER_FILES = ("stdout", "stderr", "tmp")

_PRELOAD = ("numpy", "sympy.combinatorics", "z3", "tesearch.checking.certificate", "tesearch.cli.checking",
            "tesearch.cli.network", "tesearch.cli.searching", "tesearch.cli.tables", "tesearch.facts.info",
            "tesearch.checking.replay", "tesearch.search", "tesearch.checking.kernel", "matplotlib.pyplot", "tesearch.tables.draw",
            "tesearch.cli.programs", "tesearch.cli.compare", "tesearch.schedules.compare", "tesearch.schedules.singleport")


def preload() -> None:
    """Import the heavy modules every command may load, so that each forked case starts at once."""
    for name in _PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # a module renamed by another branch: the case then pays the import itself
            pass


preload()


# ------------------------------------------------------------------ what the fuzzer knows

@functools.cache
def known_widths() -> dict[tuple[str, str], int]:
    """(network, exchange) -> the smallest T of a committed table (results/*.json, frontier, twisted)."""
    best: dict[tuple[str, str], int] = {}
    for path in sorted([*ROOT.glob("results/*.json"), *ROOT.glob("results/frontier/*.json"),
                        *ROOT.glob("results/twisted/*.json")]):
        if path.stat().st_size > 50_000_000:
            continue
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or data.get("format") != "tesearch-table" or not isinstance(data.get("T"), int):
            continue
        key = (str(data.get("network")), str(data.get("exchange", "total")))
        best[key] = min(best.get(key, data["T"]), data["T"])
    return best


@functools.cache
def counting_bound(network: str, exchange: str = "total") -> int | None:
    """ceil(sum of target distances / letters), from the kernel's own BFS (None for a spec that does not build).

    ``tesearch stratify`` searches this one width (a stratified table fills the counting bound), so its
    exit 3 claims only that no table of this width exists."""
    from tesearch.checking.kernel import build_network
    from tesearch.networks.families import network_from_spec

    try:
        net = network_from_spec(network)
        rebuilt = build_network(list(net.letters), [tuple(net.generators[s]) for s in net.letters])
    except Exception:  # noqa: BLE001 - the judge only needs the bound where it can be had
        return None
    depth = rebuilt.depth
    targets = depth[depth > 0] if exchange == "total" else depth[depth % 2 == 1]
    return -(-int(targets.sum()) // len(net.letters))


def known_width(network: str | None, exchange: str = "total") -> int | None:
    """The smallest known T of ``network`` (a canonical spec), or None."""
    if network is None:
        return None
    return known_widths().get((network, exchange))


@functools.cache
def committed(relative: str) -> bytes:
    """The bytes of a committed file of this repository."""
    return (ROOT / relative).read_bytes()


def committed_json(relative: str) -> dict:
    """A committed JSON file, parsed afresh (callers mutate it)."""
    return json.loads(committed(relative))


# ------------------------------------------------------------------ a case and its outcome

@dataclass
class Case:
    """A command line, its sandbox and what the fuzzer knows about it."""

    args: list[str]
    files: dict[str, bytes] = field(default_factory=dict)  # sandbox path -> bytes
    links: dict[str, str] = field(default_factory=dict)  # sandbox path -> symlink target
    fifos: list[str] = field(default_factory=list)
    dirs: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)  # character devices (a null device) made in the sandbox
    outputs: list[str] = field(default_factory=list)  # sandbox paths the command was told to write
    output_kinds: dict[str, str] = field(default_factory=dict)  # output -> kind (see OUTPUT_SUFFIXES)
    replaceable: list[str] = field(default_factory=list)  # pre-existing outputs it may replace without --force
    invalid_table: str | None = None  # why the table it reads is invalid (exit 0 is wrong for strict commands)
    network: str | None = None  # the canonical network it was asked about (exit 3 and written tables)
    exchange: str = "total"
    tampered: list[int] = field(default_factory=list)  # impossibility claims whose encoding the fuzzer forged
    setup: list[list[str]] = field(default_factory=list)  # commands run (unjudged) before the snapshot
    follow_up: list[str] | None = None  # a command judged after a successful run (certify -> check-proof)
    signal: tuple[int, float, bool] | None = None  # (signal, delay s, to the whole group)
    exec_mode: bool = False  # a real `python -m tesearch.entry` process instead of a fork
    seconds: float = CASE_SECONDS
    kind: str = "plain"  # which generator branch made it (for the report)
    env: dict[str, str] = field(default_factory=dict)  # environment variables the command gets (the tests' hooks)

    @property
    def command(self) -> str:
        """The subcommand."""
        return self.args[0] if self.args else "(none)"

    def command_line(self) -> str:
        """The command line, shell-quoted, to reproduce it."""
        return shlex.join([f"{k}={v}" for k, v in self.env.items()] + ["tesearch", *self.args])


@dataclass
class Run:
    """What one process did."""

    exit_code: int | None  # None: killed after its time
    stdout: str
    stderr: str
    seconds: float
    signal_sent: float | None = None  # seconds after start
    leftovers: list[str] = field(default_factory=list)
    #: the machine's load while it ran (the one-minute average per core at its end: :func:`busy_grace`); 0 when
    #: not measured (a run made up by a test: the graces hold as they are)
    load_per_core: float = 0.0


@dataclass
class CaseResult:
    """A judged case."""

    case: Case
    exit_code: int | None
    seconds: float
    wrong: list[str]
    stderr: str = ""

    def problems(self) -> list[str]:
        """Why the outcome is wrong (empty when it is acceptable)."""
        return self.wrong

    def report_line(self) -> str:
        """One line: the command line, what was in the sandbox, and why it is wrong."""
        extras = []
        if self.case.signal:
            sig, delay, group = self.case.signal
            extras.append(f"{signal.Signals(sig).name} after {delay:.2f} s{' to the group' if group else ''}")
        for name in sorted(self.case.links):
            extras.append(f"{name} -> {self.case.links[name]}")
        for name in self.case.fifos:
            extras.append(f"{name} is a FIFO")
        for name in self.case.devices:
            extras.append(f"{name} is a device")
        for name in self.case.dirs:
            extras.append(f"{name}/ is a directory")
        if self.case.invalid_table:
            extras.append(f"table invalid: {self.case.invalid_table}")
        if self.case.setup:
            extras.append("after " + "; ".join(shlex.join(["tesearch", *s]) for s in self.case.setup))
        where = f" [{'; '.join(extras)}]" if extras else ""
        return f"`{self.case.command_line()}`{where} ({self.case.kind}, exit {self.exit_code}): {'; '.join(self.wrong)}"
