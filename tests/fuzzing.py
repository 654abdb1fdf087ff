"""Fuzzing every subcommand: hostile inputs per command, a runner that watches one run, and its judge.

A *case* (:class:`Case`) is a command line plus everything it finds in its sandbox: files, symlinks,
FIFOs, directories and device nodes, and what the fuzzer knows about it (which files are inputs,
which outputs the command may write, whether the table it reads is known invalid, which network
and widths a search was asked for, a signal to send).  :func:`run_case` sets the sandbox up, runs
the command in its own session (forked from this process, so the heavy imports are paid once; or
a real ``python -m tesearch.entry`` for MPI, Ray and signal cases), watches every process the
command starts, and :func:`judge` lists what was wrong:

* exit 70 or any exit outside 0, 1, 2, 3, 4, 130, 143; a traceback or an internal error anywhere;
* an error of more than one line (exit 2);
* no exit within the case's time, or more than :data:`TIMEOUT_GRACE` s past its own ``--timeout``,
  or more than :data:`STOP_SECONDS` s after a SIGINT/SIGTERM;
* a file that was there before changed (an input, a committed file behind a symlink, a FIFO, a
  device node); an output the command was given may change only on exit 0 or 4, and over a file
  of another kind (or a committed table) only with ``--force``;
* a file left half-written: a ``*.tmp`` file, anything new after exit 2, 130 or 143, an output whose
  content does not fit its extension, an exit 0 that wrote onto a FIFO or a device;
* a process of the command (its session, or any process seen descending from it) alive
  :data:`LEFTOVER_GRACE` s after it ended;
* a false claim: exit 3 for a range that reaches a known table's width (results/*.json); a
  check-proof CONFIRMED of "width w impossible" where a table of width <= w is known, of an
  optimality above a known width, or of an impossibility whose encoding the fuzzer tampered with;
  exit 0 of a table command on a table the fuzzer made invalid (:data:`STRICT_TABLE_COMMANDS`);
  a table of another network written where one network was asked for.

Each subcommand has one generator in :data:`GENERATORS` (a hypothesis strategy of cases);
tests/test_fuzz.py fails when ``tesearch.cli.app.COMMANDS`` holds a command without one.  Adding a
command is one entry, usually through :func:`table_command` or :func:`network_command`::

    register("simulate", table_command("simulate", output=("--trace", "trace")), reads_tables=True)

(a new output kind, here "trace", also needs a line in OUTPUT_SUFFIXES, _KIND_FILES and _WRONG_SUFFIX).

benchmarks/fuzz.py runs thousands of cases in parallel and writes results/fuzz.md.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib
import json
import os
import random
import re
import shlex
import signal
import stat
import string
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
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
#: seconds after the command ends by which every process it started must be gone
LEFTOVER_GRACE = 3.0
#: the table commands that must refuse a table verify refuses (issue 28, item 3: one checked loader)
STRICT_TABLE_COMMANDS = {"verify", "replay", "run", "certify", "export", "draw", "compare", "view"}
#: files the runner keeps beside the sandbox (not judged)
_RUNNER_FILES = ("stdout", "stderr", "tmp")

_PRELOAD = ("numpy", "sympy.combinatorics", "z3", "tesearch.certificate", "tesearch.cli.checking",
            "tesearch.cli.network", "tesearch.cli.searching", "tesearch.cli.tables", "tesearch.info",
            "tesearch.replay", "tesearch.search", "tesearch.kernel", "matplotlib.pyplot", "tesearch.draw",
            "tesearch.cli.programs", "tesearch.cli.compare", "tesearch.compare", "tesearch.singleport")


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
    from tesearch.kernel import build_network
    from tesearch.networks import network_from_spec

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


@dataclass
class Outcome:
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


# ------------------------------------------------------------------ processes

def _proc_stat(pid: int) -> tuple[str, int, int, int, str] | None:
    """(state, ppid, session, start time, name) of a live process, or None."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = raw[raw.find("(") + 1:raw.rfind(")")]
    rest = raw[raw.rfind(")") + 2:].split()
    return rest[0], int(rest[1]), int(rest[3]), int(rest[19]), name


def _all_processes() -> dict[int, tuple[str, int, int, int, str]]:
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _proc_stat(int(entry))
            if info is not None:
                out[int(entry)] = info
    return out


class Watch:
    """Every process seen in a session or below its leader, by (pid, start time)."""

    def __init__(self, leader: int):
        self.leader = leader
        self.seen: dict[tuple[int, int], str] = {}

    def poll(self) -> None:
        """Record the session's processes and the leader's descendants now."""
        procs = _all_processes()
        family = {self.leader}
        changed = True
        while changed:
            changed = False
            for pid, (_, ppid, _, _, _) in procs.items():
                if ppid in family and pid not in family:
                    family.add(pid)
                    changed = True
        for pid, (state, _, session, start, name) in procs.items():
            if pid != self.leader and (session == self.leader or pid in family) and state != "Z":
                self.seen[(pid, start)] = name

    def alive(self) -> dict[int, str]:
        """Processes recorded (or in the session) that still run, leader excluded."""
        self.poll()
        out = {}
        for (pid, start), name in self.seen.items():
            info = _proc_stat(pid)
            if info is not None and info[3] == start and info[0] != "Z":
                out[pid] = name
        return out

    def kill_all(self) -> None:
        """SIGKILL every live process this watch recorded (the fuzzer started them)."""
        for pid in self.alive():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def _exec_env(tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ, **(extra or {}))
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["TMPDIR"] = str(tmp)
    env["RAY_TMPDIR"] = str(tmp)
    env.pop("TESEARCH_ENTRY_PID", None)
    return env


def _become_main_process() -> None:
    """In a forked child: forget a multiprocessing pool worker's state (a daemon may not start processes)."""
    import multiprocessing.process as mp_process

    mp_process._current_process._config["daemon"] = False
    mp_process._children = set()


def run_process(args: list[str], work: Path, case_dir: Path, *, exec_mode: bool, seconds: float,
                sig: tuple[int, float, bool] | None = None, env: dict[str, str] | None = None) -> Run:
    """Run ``tesearch ARGS`` in ``work`` in a session of its own; watch it and every process it starts."""
    tmp = case_dir / "tmp"
    tmp.mkdir(exist_ok=True)
    out_path, err_path = case_dir / "stdout", case_dir / "stderr"
    started = time.monotonic()
    if exec_mode:
        # an ignored SIGINT is inherited through exec (a shell's `&` job ignores it): the command must start
        # with the default disposition, as from a terminal, or its Ctrl-C cases prove nothing
        previous = signal.getsignal(signal.SIGINT)
        if previous == signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                proc = subprocess.Popen([sys.executable, "-m", "tesearch.entry", *args], cwd=work, stdout=out,
                                        stderr=err, stdin=subprocess.DEVNULL, env=_exec_env(tmp, env),
                                        start_new_session=True)
        finally:
            signal.signal(signal.SIGINT, previous)
        pid = proc.pid
    else:
        pid = os.fork()
        if pid == 0:  # the child: become `tesearch ARGS` in the sandbox, in a session of its own
            code = 0
            try:
                _become_main_process()
                os.setsid()
                os.chdir(work)
                os.environ.update({"TMPDIR": str(tmp), "RAY_TMPDIR": str(tmp), **(env or {})})
                tempfile.tempdir = str(tmp)
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                os.dup2(os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
                os.dup2(os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
                # a test runner may have replaced the streams with its capture objects: write to fds 1 and 2
                sys.stdin = open(0, closefd=False)  # noqa: SIM115
                sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
                sys.stderr = open(2, "w", closefd=False, buffering=1)  # noqa: SIM115
                signal.signal(signal.SIGINT, signal.default_int_handler)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                sys.argv = ["tesearch", *args]
                from tesearch.cli.app import main

                main(args=args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except BaseException:  # noqa: BLE001 - anything escaping main is a failure the judge must see
                os.write(2, traceback.format_exc().encode())
                code = 99
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                except BaseException:  # noqa: BLE001
                    pass
            os._exit(code)
        proc = None
    watch = Watch(pid)
    code: int | None = None
    sent: float | None = None
    deadline = started + seconds
    next_poll = 0.0
    while True:
        now = time.monotonic()
        if proc is not None:
            status = proc.poll()
            done = status is not None
            if done:
                code = status if status >= 0 else 128 - status  # killed by a signal: 128 + n, as a shell says
        else:
            done_pid, status = os.waitpid(pid, os.WNOHANG)
            done = done_pid != 0
            if done:
                code = os.waitstatus_to_exitcode(status)
                code = code if code >= 0 else 128 - code
        if done:
            break
        if sig is not None and sent is None and now - started >= sig[1]:
            try:
                (os.killpg if sig[2] else os.kill)(pid, sig[0])
            except OSError:
                pass
            sent = now - started
        if now >= deadline:
            watch.poll()
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            watch.kill_all()
            if proc is not None:
                proc.wait()
            else:
                os.waitpid(pid, 0)
            code = None
            break
        if now >= next_poll:
            watch.poll()
            next_poll = now + 0.2
        time.sleep(0.01)
    elapsed = time.monotonic() - started
    leftovers: dict[int, str] = {}
    if code is not None:
        grace_end = time.monotonic() + LEFTOVER_GRACE
        while True:
            leftovers = watch.alive()
            if not leftovers or time.monotonic() >= grace_end:
                break
            time.sleep(0.1)
        watch.kill_all()
    text = [p.read_text(errors="replace") if p.exists() else "" for p in (out_path, err_path)]
    return Run(code, text[0], text[1], elapsed, sent, [f"{name} (pid {pid})" for pid, name in sorted(leftovers.items())])


# ------------------------------------------------------------------ the sandbox

def _entry_state(path: Path) -> tuple:
    st_ = path.lstat()
    if stat.S_ISLNK(st_.st_mode):
        return ("symlink", os.readlink(path))
    if stat.S_ISREG(st_.st_mode):
        return ("file", hashlib.sha256(path.read_bytes()).hexdigest())
    if stat.S_ISDIR(st_.st_mode):
        return ("directory",)
    if stat.S_ISFIFO(st_.st_mode):
        return ("fifo",)
    if stat.S_ISCHR(st_.st_mode):
        return ("device", st_.st_rdev)
    return ("other", stat.S_IFMT(st_.st_mode))


def snapshot(case_dir: Path) -> dict[str, tuple]:
    """Every entry under the case directory (runner files aside) -> its kind and content hash."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(case_dir):
        here = Path(dirpath)
        if here == case_dir:
            dirnames[:] = [d for d in dirnames if d not in _RUNNER_FILES]
            filenames = [f for f in filenames if f not in _RUNNER_FILES]
        for name in [*dirnames, *filenames]:
            path = here / name
            out[path.relative_to(case_dir).as_posix()] = _entry_state(path)
    return out


def make_sandbox(case: Case, case_dir: Path) -> Path:
    """Write the case's files, links, FIFOs, directories and device nodes; the working directory."""
    work = case_dir / "work"
    work.mkdir(parents=True)
    for name in case.dirs:
        (work / name).mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for name, target in case.links.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, work / name)
    for name in case.fifos:
        os.mkfifo(work / name)
    for name in case.devices:
        if os.geteuid() == 0:
            os.mknod(work / name, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a null device, in the sandbox
        else:  # nobody else can make one; a regular file stands in (the device checks then do not apply)
            (work / name).write_bytes(b"")
    return work


# ------------------------------------------------------------------ the judge

#: output kind -> the suffixes its files may have
OUTPUT_SUFFIXES = {
    "table": (".json", ".txt", ".json.gz"),
    "schedule": (".json",),
    "certificate": (".json",),
    "programs": (".jsonl", ".json", ".jsonl.gz", ".json.gz"),
    "picture": (".png", ".svg"),
    "plot": (".png", ".svg"),
    "runs": (".json",),
    "directory": ("",),
    "encodings": ("",),
    "page": (".html", ".htm"),
    "trace": (".json",),
}

_TRACEBACK = "Traceback (most recent call last)"
_PROGRESS = re.compile(r"^\[\s*[\d.]+\s*s\]")
_CONFIRMED_IMPOSSIBLE = re.compile(r"confirmed\s+impossibility\[(\d+)\]: no table of width (\d+) for (\S+) (\S+)")
_CONFIRMED_OPTIMAL = re.compile(r"confirmed\s+optimality: T = (\d+) is optimal")
_CONFIRMED_NETWORK = re.compile(r"confirmed\s+network: (\S+) (\S+):")


def content_problem(name: str, data: bytes) -> str | None:
    """Why a written file's bytes do not fit its name's extension (None if they do or it says nothing)."""
    lower = name.lower()
    if lower.endswith(".gz"):
        if not data.startswith(b"\x1f\x8b"):
            return "not gzip"
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            return "a truncated gzip file"
        lower = lower[:-3]
    if lower.endswith(".png") and not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "not a PNG"
    if lower.endswith(".svg") and b"<svg" not in data[:4000]:
        return "not an SVG"
    if lower.endswith(".json"):
        try:
            json.loads(data)
        except ValueError:
            return "not JSON (half-written?)"
    if lower.endswith(".jsonl"):
        try:
            for line in data.splitlines():
                if line.strip():
                    json.loads(line)
        except ValueError:
            return "not JSON Lines (half-written?)"
    return None


def _suffix_fits(name: str, kind: str) -> bool:
    suffixes = OUTPUT_SUFFIXES.get(kind, ("",))
    return "" in suffixes or name.lower().endswith(suffixes)


def _option(args: list[str], name: str) -> str | None:
    value = None
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(name + "="):
            value = arg.split("=", 1)[1]
    return value


def _int_option(args: list[str], name: str) -> int | None:
    value = _option(args, name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def judge_claims(case: Case, run: Run) -> list[str]:
    """False claims in a run's output: exit 3 against known tables, check-proof confirmations."""
    wrong = []
    command = case.command
    exchange = _option(case.args, "--exchange") or case.exchange
    if run.exit_code == 3 and case.network is not None:
        known = known_width(case.network, exchange)
        top = _int_option(case.args, "--max-width")
        if command == "stratify":  # its one width is the counting bound
            top = counting_bound(case.network, exchange)
        if known is not None and (top is None or top >= known):
            asked = f"widths up to {top}" if top is not None else "every width"
            wrong.append(f"exit 3 (infeasible) for {case.network} {exchange} over {asked}, but a table of width "
                         f"{known} is known")
    if run.exit_code == 0 and case.invalid_table and command in STRICT_TABLE_COMMANDS:
        wrong.append(f"exit 0 on a table known invalid ({case.invalid_table})")
    if run.exit_code == 0 and command in ("search", "stratify", "lift", "repack", "narrow", "construct") \
            and case.network and "--json" in case.args:
        try:
            data = json.loads(run.stdout)
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get("optimal") is True and isinstance(data.get("T"), int):
            known = known_width(case.network, exchange)
            if known is not None and data["T"] > known:
                wrong.append(f"says T = {data['T']} is optimal, but a table of width {known} is known")
    wrong += _proof_claims(case, run.stdout)
    if command == "check-proof" and case.tampered and run.exit_code == 0:
        wrong.append("check-proof exit 0 on a certificate whose encoding the fuzzer tampered with (it must refute it)")
    return wrong


def _proof_claims(case: Case, stdout: str) -> list[str]:
    """check-proof confirmations that cannot be true (text or --json output)."""
    wrong = []
    lines = stdout
    try:  # --json: rebuild the text lines the regexes read
        data = json.loads(stdout)
        results = data if isinstance(data, list) else [data]
        lines = "\n".join(f"{c.get('verdict')}  {c.get('claim')}: {c.get('statement')}"
                          for r in results if isinstance(r, dict) for c in r.get("claims", []) if isinstance(c, dict))
    except ValueError:
        pass
    network = None
    for match in _CONFIRMED_NETWORK.finditer(lines):
        network = (match.group(1), match.group(2))
    for match in _CONFIRMED_IMPOSSIBLE.finditer(lines):
        index, width, net, exch = int(match.group(1)), int(match.group(2)), match.group(3), match.group(4)
        known = known_width(net, exch)
        if known is not None and known <= width:
            wrong.append(f"check-proof CONFIRMED 'no table of width {width} for {net} {exch}', but a table of "
                         f"width {known} is known")
        if index in case.tampered:
            wrong.append(f"check-proof CONFIRMED impossibility[{index}] on an encoding the fuzzer tampered with")
    for match in _CONFIRMED_OPTIMAL.finditer(lines):
        known = known_width(*network) if network else None
        if known is not None and int(match.group(1)) > known:
            wrong.append(f"check-proof CONFIRMED 'T = {match.group(1)} is optimal' for {network[0]}, but a table "
                         f"of width {known} is known")
    return wrong


def interrupted_before_start(run: Run) -> bool:
    """A signal that reached the interpreter before any tesearch code ran (its traceback has no frame of
    the package): no program can answer it, so only the files and processes are judged."""
    return (run.signal_sent is not None and "KeyboardInterrupt" in run.stderr
            and f"{ROOT / 'tesearch'}{os.sep}" not in run.stderr)


def error_lines(stderr: str) -> list[str]:
    """The error message in stderr: from its first line that starts with 'tesearch' (or click's 'Usage:' and
    'Error:') to the end, progress lines before it aside."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if line.startswith(("tesearch", "Usage:", "Error:")):
            return [x for x in lines[i:] if not _PROGRESS.match(x)]
    return []


def judge(case: Case, run: Run, before: dict[str, tuple], after: dict[str, tuple], case_dir: Path) -> list[str]:
    """Everything wrong with one run (see the module docstring)."""
    wrong = []
    code = run.exit_code
    if interrupted_before_start(run):  # Python's own start-up (site, .pth files) took the KeyboardInterrupt
        return _judge_files(case, code, before, after, case_dir) + [
            f"processes left after it ended: {', '.join(run.leftovers[:5])}" for _ in run.leftovers[:1]]
    if code is None:
        wrong.append(f"no exit within {run.seconds:.0f} s (killed)")
    elif code not in ALLOWED_EXITS:
        wrong.append(f"exit code {code}" + (" (internal error)" if code == 70 else ""))
    for name, text in (("stdout", run.stdout), ("stderr", run.stderr)):
        if _TRACEBACK in text:
            wrong.append(f"a traceback on {name}")
        if "internal error" in text:
            wrong.append(f"an internal error on {name}")
    if code == 2:
        message = error_lines(run.stderr)
        if not message:
            wrong.append("exit 2 without a 'tesearch: ...' error line")
        elif len(message) > 1:
            wrong.append(f"an error of {len(message)} lines: {' / '.join(message[:3])[:200]}")
    timeout = _option(case.args, "--timeout")
    try:
        limit = float(timeout) if timeout is not None else None
    except ValueError:
        limit = None
    if code is not None and limit is not None and 0 < limit < 1e6 and run.seconds > limit + TIMEOUT_GRACE:
        wrong.append(f"ran {run.seconds:.1f} s with --timeout {timeout}")
    if run.signal_sent is not None and code is not None:
        expected = 130 if case.signal and case.signal[0] == signal.SIGINT else 143
        if code not in (expected, 0, 2, 3, 4):
            wrong.append(f"exit {code} after {signal.Signals(case.signal[0]).name} (expected {expected})")
        if run.seconds - run.signal_sent > STOP_SECONDS:
            name = signal.Signals(case.signal[0]).name
            if code in (0, 3, 4):
                wrong.append(f"ignored {name} (sent at {run.signal_sent:.2f} s): ran {run.seconds:.1f} s and exited {code}")
            else:
                wrong.append(f"took {run.seconds - run.signal_sent:.1f} s to stop after {name}")
    if run.leftovers:
        wrong.append(f"processes left after it ended: {', '.join(run.leftovers[:5])}"
                     + (f" and {len(run.leftovers) - 5} more" if len(run.leftovers) > 5 else ""))
    wrong += _judge_files(case, code, before, after, case_dir)
    wrong += judge_claims(case, run)
    return wrong


def _judge_files(case: Case, code: int | None, before: dict, after: dict, case_dir: Path) -> list[str]:
    wrong = []
    outputs = {f"work/{name}" for name in case.outputs}
    forced = "--force" in case.args
    written = []
    for name, state in before.items():
        now = after.get(name)
        if now == state:
            continue
        if name in outputs and case.args.count(name[5:]) > 1:
            wrong.append(f"exit {code} but overwrote its own input {name[5:]}")
            continue
        if name in outputs:
            if state[0] in ("fifo", "device"):
                wrong.append(f"replaced the {state[0]} {name[5:]} ({now[0] if now else 'removed'})")
            elif code not in (0, 4) and not (code == 1 and case.output_kinds.get(name[5:]) == "plot"):
                wrong.append(f"exit {code} but changed its output {name[5:]}")
            elif not forced and name[5:] not in case.replaceable:
                wrong.append(f"replaced {name[5:]} (another kind of file, or a committed table) without --force")
            else:
                written.append(name)
            continue
        what = "an input" if name.startswith("work/") else "a file outside the sandbox"
        if "committed" in name:
            what = "a committed file (behind a symlink)"
        wrong.append(f"changed {what}: {name[5:] if name.startswith('work/') else name}"
                     f" ({state[0]} -> {now[0] if now else 'removed'})")
    for name, state in after.items():
        if name in before:
            continue
        base = name.rsplit("/", 1)[-1]
        if base.endswith(".tmp") or re.search(r"\.tmp\b", base):
            wrong.append(f"left a temporary file {name}")
            continue
        if code in (2, 130, 143):
            wrong.append(f"exit {code} but wrote {name[5:] if name.startswith('work/') else name}")
            continue
        written.append(name)
    for name in written:
        state = after.get(name)
        if state is None or state[0] != "file":
            continue
        relative = name[5:] if name.startswith("work/") else name
        try:
            data = (case_dir / name).read_bytes()
        except OSError:
            continue
        problem = content_problem(relative, data)
        if problem:
            wrong.append(f"wrote {relative}: {problem}")
        if name in outputs:
            kind = case.output_kinds.get(relative, "")
            if not _suffix_fits(relative, kind):
                wrong.append(f"exit {code} writing a {kind} to {relative} (its extension does not fit)")
            if kind == "table" and case.network:
                try:
                    label = json.loads(data).get("network")
                except (ValueError, AttributeError):
                    label = None
                if label is not None and label != case.network:
                    wrong.append(f"wrote a table of {label} to {relative}, asked for {case.network}")
    if code == 0:
        for name in case.outputs:
            state = before.get(f"work/{name}")
            if state and state[0] in ("fifo", "device") and os.geteuid() == 0:
                wrong.append(f"exit 0 writing onto the {state[0]} {name}")
    return wrong


def run_case(case: Case, case_dir: Path) -> Outcome:
    """Set up the case in ``case_dir`` (which must not exist), run it, and judge it."""
    case_dir.mkdir(parents=True)
    work = make_sandbox(case, case_dir)
    for setup in case.setup:
        run_process(setup, work, case_dir, exec_mode=False, seconds=CASE_SECONDS)
    before = snapshot(case_dir)
    seconds = case.seconds
    limit = _option(case.args, "--timeout")
    try:
        if limit is not None and 0 < float(limit) < seconds - 15:
            seconds = float(limit) + 15
    except ValueError:
        pass
    run = run_process(case.args, work, case_dir, exec_mode=case.exec_mode, seconds=seconds, sig=case.signal,
                      env=case.env)
    after = snapshot(case_dir)
    wrong = judge(case, run, before, after, case_dir)
    if case.follow_up and run.exit_code == 0:
        second = run_process(case.follow_up, work, case_dir, exec_mode=False, seconds=CASE_SECONDS)
        follow = Case(case.follow_up, tampered=case.tampered)
        problems = judge_claims(follow, second)
        if second.exit_code not in ALLOWED_EXITS or _TRACEBACK in second.stderr:
            problems.append(f"exit {second.exit_code}")
        if second.exit_code == 1:
            problems.append("check-proof REFUTES the certificate certify just wrote")
        wrong += [f"then `{shlex.join(['tesearch', *case.follow_up])}`: {p}" for p in problems]
    return Outcome(case, run.exit_code, run.seconds, wrong, run.stderr[-2000:])


# ------------------------------------------------------------------ building blocks of hostile input

HUGE = ["100000000000000000000", "99999999999999999999", "1e20", "-100000000000000000000", str(2 ** 64)]
CONTROL = ["\n", "\r", "\t", "\x1b[31m", "\x07", "\u2028", "\x7f", " \n "]
FAMILIES = ["star", "hypercube", "ring", "torus", "pancake", "bubblesort", "blob", "Star", ""]
#: small committed tables (inputs of the table commands)
SMALL_TABLES = ["ring-4.json", "ring-6.json", "star-4.json", "hypercube-3.json", "torus-3x3.json",
                "ring-4-cyclic.json", "ring-6-cyclic.json", "pancake-4.json", "star-4-odd.json", "torus-4x4.json"]
#: small networks with a known table: (spec, exchange)
SMALL_NETWORKS = [("star-4", "total"), ("ring-6", "total"), ("ring-6:cyclic", "total"), ("ring-8", "total"),
                  ("hypercube-3", "total"), ("torus-3x3", "total"), ("ring-4", "total"), ("pancake-4", "total"),
                  ("star-4", "odd-distance"), ("ring-8:cyclic", "total"), ("torus-4x4", "total")]

numbers = st.one_of(st.integers(-5, 40).map(str),
                    st.sampled_from(["0", "1", "99999", "100000000", "2.5", "x", "", "-1", "1e9", "٣", *HUGE]))
specs = st.one_of(
    st.builds(lambda f, a: f"{f}-{a}", st.sampled_from(FAMILIES), numbers),
    st.builds(lambda sides, g: "torus-" + "x".join(sides) + g, st.lists(numbers, min_size=1, max_size=4),
              st.sampled_from(["", ":cyclic", ":dihedral", ":twisted", ":cyclic,dihedral", ":x"])),
    st.builds(lambda n, g: f"ring-{n}{g}", numbers, st.sampled_from(["", ":cyclic", ":dihedral", ":weird"])),
    st.builds(lambda s, c, at: s[:at] + c + s[at:], st.sampled_from(["star-4", "ring-6", "torus-3x3", "ring-6:cyclic"]),
              st.sampled_from(CONTROL), st.integers(0, 12)),
    st.text(alphabet=string.printable, max_size=30),
    st.sampled_from(["star-4", "ring-6", "hypercube-3", "torus-3x3", "pancake-4", "bubblesort-4", "ring-6:cyclic",
                     "star-3", "torus-2x2x2", "ring-3", f"star-{HUGE[0]}", f"torus-{HUGE[0]}x2"]),
)

options = st.lists(st.sampled_from([
    "--timeout", "-1", "0", "nan", "inf", "5", "--max-memory", "1", "10M", "lots", "--max-order", "0", "30",
    "--exchange", "odd-distance", "total", "both", "--json", "--quiet", "--force", "--word-cap", "--max-width",
    "--from-width", "3", "-3", "--strategy", "full", "rotation", "--backend", "cpsat", "--solver", "z3",
    "cpsat-intervals", "--output", "-o", "--round", "--cpsat-model", "intervals", "--window", "1:2", "-1:3",
    "--partial", "--engine", "streaming", "reference", "--model", "single-port", "--ring", "--mode", "cyclic",
    "--tail", "--workers", "--algorithm", "a2", "--attempt-timeout", "--solver-timeout", "--allow-unchecked",
    *HUGE, "--max-memory", "--seed", "--repeat", "--bytes", "-n", "--order", "--num-cpus", "--seeds",
]), max_size=4)


def _clean(args: list[str]) -> list[str]:
    """No NUL in a command line (no shell can pass one)."""
    return [a.replace("\x00", "") for a in args]


def _table(name: str) -> dict:
    return committed_json(f"results/{name}")


def _mutate_json(value, draw, depth=0):
    """A structurally plausible, possibly hostile, variant of a JSON value."""
    choice = draw(st.integers(0, 9))
    if depth > 3 or choice == 0:
        return draw(st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                              st.text(max_size=8), st.just([]), st.just({}), st.just(10 ** 20)))
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        out = dict(value)
        action = draw(st.integers(0, 3))
        if action == 0:
            del out[key]
        elif action == 1:
            out[key] = _mutate_json(value[key], draw, depth + 1)
        elif action == 2:
            out[draw(st.text(max_size=6))] = _mutate_json(value[key], draw, depth + 1)
        else:
            out[key] = _mutate_json(out[key], draw, depth + 1)
        return out
    if isinstance(value, list) and value:
        out = list(value)
        i = draw(st.integers(0, len(out) - 1))
        action = draw(st.integers(0, 3))
        if action == 0:
            del out[i]
        elif action == 1:
            out[i] = _mutate_json(out[i], draw, depth + 1)
        elif action == 2:
            out.append(out[i])
        else:
            out.insert(i, _mutate_json(out[i], draw, depth + 1))
        return out
    if isinstance(value, int) and not isinstance(value, bool):
        return draw(st.sampled_from([value + 1, value - 1, -value, 0, 10 ** 12, 2 ** 31, 2 ** 63, -1, 10 ** 20]))
    if isinstance(value, str):
        return draw(st.sampled_from([value + "x", "", "star-5", "custom:x", "ring-6:cyclic", "odd-distance",
                                     "\u0000", value * 3, value + "\n", "star-4\nstar-5"]))
    return value


def text_table(data: dict, *, marked: bool = True) -> bytes:
    """The plain text form of a table (one row per letter row; '|' before each word when marked)."""
    T = data["T"]
    rows = max(len(data["generators"]), 1 + max((p[0] for p in data["placements"]), default=0))
    grid = [["."] * T for _ in range(rows)]
    starts = [set() for _ in range(rows)]
    for row, col, word in data["placements"]:
        starts[row].add(col)
        for k, letter in enumerate(word):
            if col + k < T:
                grid[row][col + k] = letter
    lines = [f"network: {data['network']}", f"exchange: {data['exchange']}", f"T: {T}"]
    if not marked:
        lines.append("boundaries: unmarked")
    lines.append("")
    for row in range(rows):
        tokens = []
        for col in range(T):
            if marked and col in starts[row]:
                tokens.append("|")
            tokens.append(grid[row][col])
        lines.append(" ".join(tokens))
    return ("\n".join(lines) + "\n").encode()


@st.composite
def table_bytes(draw) -> bytes:
    """A small valid table, mutated; or text-form garbage; or raw hostile bytes."""
    kind = draw(st.integers(0, 11))
    if kind <= 5:
        data = _table(draw(st.sampled_from(SMALL_TABLES)))
        for _ in range(draw(st.integers(1, 3))):
            data = _mutate_json(data, draw)
        return json.dumps(data).encode()
    if kind <= 7:
        rows = draw(st.lists(st.text(alphabet="aAbB'|. 0123\n", max_size=30), min_size=0, max_size=4))
        header = draw(st.sampled_from(["network: ring-6\n", "network: ring-6\nT: abc\n", "network: star-9\n",
                                       "network: ring-6\nexchange: odd\n", "", "network: custom:x\n",
                                       f"network: ring-6\nT: {HUGE[0]}\n", "network: ring-6\nlower_bound: 1e20\n"]))
        return (header + "\n" + "\n".join(rows)).encode()
    if kind <= 9:
        data = _table(draw(st.sampled_from(SMALL_TABLES)))
        key = draw(st.sampled_from(["T", "lower_bound", "letter_bound", "format_version", "placements"]))
        if key == "placements":
            data["placements"][0][draw(st.integers(0, 1))] = 10 ** 20
        else:
            data[key] = draw(st.sampled_from([10 ** 20, -10 ** 20, 2 ** 63, 1e20]))
        return json.dumps(data).encode()
    return draw(st.sampled_from([b"[" * 5000, b"\xff\xfe\x00", b"{}", b"null", b"", b"{\"format\": NaN}",
                                 b"9" * 5000, json.dumps({"format": "tesearch-table"}).encode(),
                                 b"\x1f\x8b\x08\x00garbage"]))


def _commute(p: list[int], q: list[int]) -> bool:
    return all(p[q[i]] == q[p[i]] for i in range(len(p)))


@st.composite
def invalid_table(draw, names=SMALL_TABLES) -> tuple[dict, str]:
    """A committed valid table with one mutation that makes it invalid, and which mutation.

    Each is invalid whatever the group: the valid table maps its words one to one onto the targets,
    so a word that now reaches another element duplicates a target (or is no shortest word), and one
    that reaches the same element with another length is no shortest word."""
    name = draw(st.sampled_from(list(names)))
    data = _table(name)
    places = data["placements"]
    gens = data["generators"]
    how = draw(st.sampled_from(["moved word", "swapped letters", "doubled letter", "wrong label generators",
                                "edited lower_bound", "T too small"]))
    if how == "moved word":
        i = draw(st.integers(0, len(places) - 1))
        row, col = places[i][0], places[i][1]
        others = [p for j, p in enumerate(places) if j != i and p[0] == row and p[1] != col]
        if others:
            places[i][1] = draw(st.sampled_from(others))[1]
            return data, f"moved word: row {row}, column {col} now overlaps another word ({name})"
        places[i][1] = data["T"]
        return data, f"moved word: row {row}, column {col} now starts at T ({name})"
    if how == "swapped letters":
        for i, (_, _, word) in enumerate(places):
            for k in range(len(word) - 1):
                a, b = word[k], word[k + 1]
                if a != b and a in gens and b in gens and not _commute(gens[a], gens[b]):
                    word[k], word[k + 1] = b, a
                    return data, f"swapped letters {a}{b} in word {i} ({name})"
        how = "doubled letter"
    if how == "doubled letter":
        i = draw(st.integers(0, len(places) - 1))
        places[i][2] = [places[i][2][0], *places[i][2]]
        return data, f"doubled the first letter of word {i} ({name})"
    if how == "wrong label generators":
        letters = sorted(gens)
        pairs = [(a, b) for a in letters for b in letters if a < b and gens[a] != gens[b]]
        if pairs:
            a, b = draw(st.sampled_from(pairs))
            gens[a], gens[b] = gens[b], gens[a]
            return data, f"generators of {a} and {b} swapped under the label {data['network']} ({name})"
        how = "edited lower_bound"
    if how == "T too small" and data["T"] > 1:
        end = max(p[1] + len(p[2]) for p in places)
        data["T"] = end - 1
        return data, f"T = {end - 1} but a word ends at column {end} ({name})"
    data["lower_bound"] = data["T"] + draw(st.integers(1, 4))
    return data, f"lower_bound {data['lower_bound']} above T = {data['T']} ({name})"


@st.composite
def generator_bytes(draw) -> bytes:
    """A generators file: permutations (valid or not) under random letters, maybe inside a table object."""
    points = draw(st.integers(0, 7))
    letters = draw(st.lists(st.text(alphabet="ab'A .|1\n", min_size=0, max_size=3), min_size=0, max_size=4))
    gens = {}
    for letter in letters:
        perm = list(range(points))
        random.Random(draw(st.integers(0, 10 ** 6))).shuffle(perm)
        if draw(st.booleans()):
            perm = draw(st.lists(st.integers(-2, 9), max_size=8))
        if draw(st.integers(0, 9)) == 0:
            perm = [10 ** 20, *perm]
        gens[letter] = perm
    wrapper = draw(st.sampled_from(["bare", "table", "labelled"]))
    if wrapper == "bare":
        return json.dumps(gens).encode()
    label = draw(st.sampled_from(["star-4", "custom:mine", "ring-6", "x", "custom:a\nb"]))
    return json.dumps({"generators": gens, "network": label} if wrapper == "labelled" else {"generators": gens}).encode()


# ------------------------------------------------------------------ encodings and certificates

FORGED_BODIES = [
    "(declare-fun x () Bool)\n(assert x)\n(assert (not x))\n(check-sat)\n",
    "(declare-fun x_0_0_0 () Bool)\n(assert ((_ pbeq 2 1) x_0_0_0))\n(check-sat)\n",
    "(declare-fun x_0_0_0 () Bool)\n(declare-fun x_1_0_0 () Bool)\n(assert ((_ at-most 0) x_0_0_0))\n"
    "(assert ((_ pbeq 1 1 1) x_0_0_0 x_0_0_0))\n(check-sat)\n",
]


def forged_encoding(problem: str, width: int, items: int, body: str) -> bytes:
    """An SMT-LIB2 file whose header says it encodes ``problem`` at ``width``; its body is anything."""
    return (f"; tesearch encoding: {problem} T={width} items={items} pb+count+exact+mirror\n"
            f"; sections: one placement per item={items}\n; candidate words complete: True\n{body}").encode()


def _header_lines(text: str) -> tuple[list[str], list[str]]:
    lines = text.splitlines(keepends=True)
    head = [line for line in lines if line.startswith(";")]
    return head, [line for line in lines if not line.startswith(";")]


@st.composite
def tampered_encoding(draw, problem: str, width: int, items: int, own: str) -> tuple[bytes, str]:
    """An encoding for ``problem`` at ``width`` that the trusted kernel did not make, and how it was made."""
    how = draw(st.sampled_from(["forged", "dropped assertion", "other network", "other network, this header",
                                "other width"]))
    original = committed(own).decode()
    if how == "forged":
        return forged_encoding(problem, width, items, draw(st.sampled_from(FORGED_BODIES))), "forged header"
    if how == "dropped assertion":
        head, body = _header_lines(original)
        asserts = [i for i, line in enumerate(body) if line.startswith("(assert")]
        drop = draw(st.sampled_from(asserts))
        return "".join(head + body[:drop] + body[drop + 1:]).encode(), f"assertion {drop} dropped"
    others = [p for p in ENCODINGS if p != own]
    other = draw(st.sampled_from(others))
    text = committed(other).decode()
    if how == "other network":
        return text.encode(), f"the encoding of {other}"
    if how == "other width":
        same = [p for p in others if p.split("-T")[0] == own.split("-T")[0]] or others
        return committed(draw(st.sampled_from(same))), "another width's encoding"
    head, body = _header_lines(text)
    return forged_encoding(problem, width, items, "".join(body)), f"the body of {other} under this header"


ENCODINGS = ["encodings/ring-4_cyclic-total-full-T2.smt2", "encodings/ring-6_cyclic-total-full-T5.smt2",
             "encodings/ring-8_cyclic-total-full-T8.smt2", "encodings/ring-8_cyclic-total-full-T9.smt2"]
#: certificate -> (problem, its committed encodings), for the tampering cases
CERTIFIED = {"ring-6-cyclic": ("ring-6:cyclic total", ["encodings/ring-6_cyclic-total-full-T5.smt2"]),
             "ring-4-cyclic": ("ring-4:cyclic total", ["encodings/ring-4_cyclic-total-full-T2.smt2"]),
             "ring-8-cyclic": ("ring-8:cyclic total", ["encodings/ring-8_cyclic-total-full-T8.smt2",
                                                       "encodings/ring-8_cyclic-total-full-T9.smt2"])}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _canonical_sha(table: dict) -> str:
    return _sha(json.dumps(table, sort_keys=True, separators=(",", ":")).encode())


def _repo_files(*relative: str) -> dict[str, bytes]:
    """Copies of committed files at the same place in the sandbox, and a pyproject.toml marking its root."""
    return {"pyproject.toml": b"", **{r: committed(r) for r in relative}}


@st.composite
def tampered_certificate(draw) -> tuple[dict[str, bytes], list[int], str]:
    """A certificate (proofs/c.json) whose impossibility claim rests on an encoding the kernel did not make.

    Either the claim is false (a width at or above the known table, the table padded to width + 1,
    a forged encoding) or its encoding was altered (an assertion dropped, another network's or
    width's file).  The hashes are made to match, as a forger would."""
    name = draw(st.sampled_from(sorted(CERTIFIED)))
    problem, encodings = CERTIFIED[name]
    cert = committed_json(f"proofs/{name}.json")
    index = draw(st.integers(0, len(cert["impossibility_claims"]) - 1))
    claim = cert["impossibility_claims"][index]
    files = _repo_files(*{p for c in cert["impossibility_claims"] for p in (c["encoding"]["path"],)},
                        *{c["proof"]["path"] for cl in cert["impossibility_claims"] for c in cl.get("confirmations", [])
                          if isinstance(c.get("proof"), dict)})
    network = cert["network"]["spec"]
    items = claim["encoding"]["header"]["items"]
    if draw(st.booleans()):  # a false claim: width at or above the known table's
        known = known_width(network, cert["network"]["exchange"])
        width = known + draw(st.integers(0, 2))
        table = cert["table"]["content"]
        table["T"] = width + 1  # padded with empty columns: still a valid table
        cert["table"]["T"] = width + 1
        cert["table"]["sha256"] = _canonical_sha(table)
        cert["result"] = {"T": width + 1, "optimal": True, "argument": f"width {width} is impossible"}
        cert["impossibility_claims"] = [claim]
        index = 0
        claim["width"] = width
        claim["claim"] = f"no table of width {width} for {problem}"
        data, how = forged_encoding(problem, width, items, draw(st.sampled_from(FORGED_BODIES))), "forged header"
    else:
        data, how = draw(tampered_encoding(problem, claim["width"], items, claim["encoding"]["path"]))
        if data == committed(claim["encoding"]["path"]):
            data += b"\n; tampered\n(assert false)\n"
    path = f"encodings/forged-{index}.smt2"
    files[path] = data
    claim["encoding"].update({"path": path, "sha256": _sha(data), "bytes": len(data)})
    claim["encoding"]["header"]["width"] = claim["width"]
    if draw(st.booleans()):
        claim["confirmations"] = [c for c in claim.get("confirmations", []) if c.get("method") != "sat+drat"]
    files["proofs/c.json"] = json.dumps(cert, indent=1).encode()
    return files, [index], f"tampered certificate ({how})"


@st.composite
def certificate_bytes(draw) -> bytes:
    """A small committed certificate, mutated (paths, hashes, claims, nesting, huge numbers)."""
    name = draw(st.sampled_from(["ring-6.json", "star-4.json", "ring-6-cyclic.json", "hypercube-3.json"]))
    data = committed_json(f"proofs/{name}")
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate_json(data, draw)
    claims = data.get("impossibility_claims") if isinstance(data, dict) else None
    if draw(st.integers(0, 4)) == 0 and isinstance(claims, list) and claims and isinstance(claims[0], dict) \
            and isinstance(claims[0].get("encoding"), dict):
        claims[0]["encoding"]["path"] = draw(st.sampled_from(
            ["/etc/passwd", "../../../etc/passwd", "encodings/../../x", "", "encodings/nope.smt2"]))
    if draw(st.integers(0, 5)) == 0 and isinstance(data, dict) and isinstance(data.get("table"), dict):
        data["table"]["T"] = 10 ** 20
    return json.dumps(data).encode()


# ------------------------------------------------------------------ output-path attacks

#: output kind -> (a good name, a committed file of that kind, a file of another kind)
_KIND_FILES = {
    "table": ("out.json", "results/star-4.json", "proofs/ring-6.json"),
    "schedule": ("out.json", None, "results/star-4.json"),
    "certificate": ("c.json", "proofs/ring-6.json", "results/ring-6.json"),
    "programs": ("p.jsonl", None, "results/ring-6.json"),
    "picture": ("p.png", "results/compare.png", "results/ring-6.json"),
    "plot": ("p.png", "results/compare.png", "results/ring-6.json"),
    "runs": ("runs.json", None, "results/star-4.json"),
    "directory": ("outdir", None, "results/star-4.json"),
    "encodings": ("enc", None, "results/star-4.json"),
    "page": ("p.html", None, "results/ring-6.json"),
    "trace": ("trace.json", None, "results/ring-6.json"),
}
_WRONG_SUFFIX = {"table": ["out.png", "out.svg", "out", "out.smt2"], "schedule": ["out.txt", "out.png", "out"],
                 "certificate": ["c.txt", "c.png", "c"], "programs": ["p.png", "p.gz", "p.txt", "p"],
                 "picture": ["p.txt", "p.json", "p.gif", "p"], "plot": ["p.txt", "p.json", "p"],
                 "runs": ["runs.png", "runs"], "directory": [], "encodings": [],
                 "page": ["p.png", "p.txt", "p"], "trace": ["trace.png", "trace.txt", "trace"]}


@st.composite
def output_target(draw, kind: str, inputs: list[str], *, attack: bool = True) -> dict:
    """Where a command is told to write: a fresh file, or an attack on a file that must survive.

    Returns the case fields: path, files, links, fifos, dirs, devices, replaceable, seconds, label."""
    good, same_kind, other_kind = _KIND_FILES[kind]
    choices = ["fresh"]
    if attack:
        choices += ["input", "symlink", "device", "fifo", "directory", "other kind", "wrong extension",
                    "missing directory", "same kind", "better table"]
    how = draw(st.sampled_from(choices))
    out = {"path": good, "files": {}, "links": {}, "fifos": [], "dirs": [], "devices": [], "replaceable": [],
           "seconds": None, "label": f"output: {how}"}
    if how == "input" and inputs:
        out["path"] = draw(st.sampled_from(inputs))
    elif how == "symlink":
        target = same_kind or other_kind
        suffix = good[good.rfind("."):] if "." in good else ""
        out["path"] = f"link{suffix}"
        out["files"][f"committed/{Path(target).name}"] = committed(target)
        out["links"][out["path"]] = draw(st.sampled_from([f"committed/{Path(target).name}",
                                                          f"../work/committed/{Path(target).name}"]))
        if same_kind and kind in ("certificate", "picture", "plot"):
            out["replaceable"].append(out["path"])  # the link may be replaced; the file it points to never
    elif how == "device":
        out["path"] = "null-device"
        out["devices"].append("null-device")
    elif how == "fifo":
        out["path"] = "fifo" + (good[good.rfind("."):] if "." in good else "")
        out["fifos"].append(out["path"])
        out["seconds"] = FIFO_SECONDS
    elif how == "directory" and kind not in ("directory", "encodings"):
        out["path"] = "adir"
        out["dirs"].append("adir")
        out["files"]["adir/keep.txt"] = b"keep me\n"
    elif how == "other kind":
        out["files"][good] = committed(other_kind)
    elif how == "wrong extension" and _WRONG_SUFFIX[kind]:
        out["path"] = draw(st.sampled_from(_WRONG_SUFFIX[kind]))
    elif how == "missing directory":
        out["path"] = f"missing/{good}"
    elif how == "same kind" and same_kind:
        out["files"][good] = committed(same_kind)
        if kind in ("certificate", "picture", "plot"):
            out["replaceable"].append(good)
    elif how == "better table":
        out["files"][good] = committed(draw(st.sampled_from(["results/star-6.json", "results/star-4.json",
                                                             "results/ring-6.json"])))
    else:
        out["label"] = "output: fresh"
    return out


def _apply_output(case: Case, option: str, kind: str, target: dict) -> None:
    case.args += [option, target["path"]]
    case.files.update(target["files"])
    case.links.update(target["links"])
    case.fifos += target["fifos"]
    case.dirs += target["dirs"]
    case.devices += target["devices"]
    case.replaceable += target["replaceable"]
    case.outputs.append(target["path"])
    case.output_kinds[target["path"]] = kind
    if target["seconds"] is not None:
        case.seconds = min(case.seconds, target["seconds"])
    case.kind = target["label"] if case.kind == "plain" else f"{case.kind}, {target['label']}"


# ------------------------------------------------------------------ signals

@st.composite
def signal_spec(draw) -> tuple[int, float, bool]:
    """SIGINT or SIGTERM after 0.05-3 s, to the process or (as Ctrl-C does) to its group."""
    sig = draw(st.sampled_from([signal.SIGINT, signal.SIGTERM]))
    delay = draw(st.floats(0.05, 3.0, allow_nan=False))
    return int(sig), round(delay, 2), draw(st.booleans())


def signal_case(draw, args: list[str], files: dict[str, bytes] | None = None, *, seconds: float = 60.0) -> Case:
    """A long-running command line, interrupted at a random moment (a real process, not a fork)."""
    case = Case(_clean(args), dict(files or {}), signal=draw(signal_spec()), exec_mode=True, seconds=seconds,
                kind="signal")
    return case


# ------------------------------------------------------------------ the generators, one per subcommand

#: subcommand -> a function returning its strategy of cases
GENERATORS: dict[str, Callable[[], st.SearchStrategy[Case]]] = {}
#: subcommand -> the share of --per-command it runs (slow ones run fewer)
SHARES: dict[str, float] = {}
#: the subcommands that take --timeout (tesearch.cli.options.limit_options)
TIMED: set[str] = set()  # every registered command unless registered with timed=False


def register(command: str, strategy: Callable[[], st.SearchStrategy[Case]], *, share: float = 1.0,
             reads_tables: bool = False, timed: bool = True) -> None:
    """Make ``strategy`` the generator of ``command``'s cases.

    ``share``: the part of --per-command it runs; ``reads_tables``: it loads tables through the checked
    loader, so exit 0 on a table the fuzzer made invalid is wrong; ``timed``: it takes --timeout."""
    GENERATORS[command] = strategy
    SHARES[command] = share
    if reads_tables:
        STRICT_TABLE_COMMANDS.add(command)
    if timed:
        TIMED.add(command)


def _bounded(command: str, extra: list[str], seconds: str | None = None, args: list[str] = ()) -> list[str]:
    """Keep runs short, as a user with a deadline would (unless the case sets its own --timeout)."""
    if "--timeout" in extra or "--timeout" in args or command not in TIMED:
        return []
    return ["--timeout", seconds or ("5" if command in ("search", "stratify", "lift", "repack", "narrow") else "20")]


def _extra(draw) -> list[str]:
    return draw(options) if draw(st.integers(0, 2)) == 0 else []


#: how often each kind of case comes (signal cases are slow: a real process, a delay of up to 3 s)
NETWORK_BRANCHES = ["known"] * 6 + ["hostile spec"] * 3 + ["generators"] * 2 + ["range"] * 3 + ["huge"] * 2 + ["signal"]
TABLE_BRANCHES = ["valid"] * 4 + ["hostile"] * 3 + ["invalid"] * 4 + ["text"] * 2 + ["signal"]


def network_command(command: str, *, output: tuple[str, str] | None = ("--out", "table"),
                    range_checks: bool = False, signal_args: list[list[str]] = (),
                    extra_choices: list[list[str]] = (), networks: list[tuple[str, str]] = SMALL_NETWORKS,
                    input_files: dict[str, str] | None = None) -> Callable[[], st.SearchStrategy[Case]]:
    """The cases of a command that takes a NETWORK (spec or generators file), maybe with an output.

    ``input_files``: file name -> committed file, copied into the sandbox when an extra option names it
    (lift --factor f.json); such a file is then also an input an output attack may aim at."""

    @st.composite
    def strategy(draw) -> Case:
        branch = draw(st.sampled_from(NETWORK_BRANCHES))
        extra = _extra(draw)
        if branch == "signal" and signal_args:
            return signal_case(draw, draw(st.sampled_from(list(signal_args))))
        if branch == "generators":
            case = Case([command, "g.json"], {"g.json": draw(generator_bytes())}, kind="generators file")
            if output and draw(st.booleans()):
                _apply_output(case, output[0], output[1], draw(output_target(output[1], ["g.json"])))
            case.args += [*extra, *_bounded(command, extra, None, case.args)]
            case.args = _clean(case.args)
            return case
        if branch == "hostile spec":
            spec = draw(specs)
            case = Case([command, spec], kind="hostile spec",
                        network=spec if any(spec == known for known, _ in SMALL_NETWORKS) else None)
        elif branch == "huge":
            spec, exchange = draw(st.sampled_from(list(networks)))
            option = draw(st.sampled_from(["--timeout", "--max-memory", "--max-order", "--word-cap", "--max-width",
                                           "--from-width", "--seed", "--workers", "--tail", "--ring"]))
            case = Case([command, spec, option, draw(st.sampled_from(HUGE))], kind="huge number")
        else:
            spec, exchange = draw(st.sampled_from(list(networks)))
            case = Case([command, spec], network=spec, exchange=exchange, kind="known network")
            if exchange != "total":
                case.args += ["--exchange", exchange]
            if branch == "range" and range_checks:
                known = known_width(spec, exchange) or 5
                case.args += ["--strategy", draw(st.sampled_from(["auto", "rotation", "split", "full"]))]
                case.args += ["--from-width", str(draw(st.sampled_from([known - 2, known - 1, known, known + 1,
                                                                        known + 4, 25, 1])))]
                if draw(st.booleans()):
                    case.args += ["--max-width", str(draw(st.sampled_from([known - 1, known, known + 2, 25])))]
                case.kind = "width range"
            if extra_choices and draw(st.booleans()):
                case.args += draw(st.sampled_from(list(extra_choices)))
        inputs = [name for name in (input_files or {}) if name in case.args]
        for name in inputs:
            case.files[name] = committed(input_files[name])
        if output and draw(st.booleans()):
            _apply_output(case, output[0], output[1], draw(output_target(output[1], inputs)))
        case.args += [*extra, *_bounded(command, extra, "10" if branch == "range" else None, case.args)]
        case.args = _clean(case.args)
        return case

    return strategy


def table_command(command: str, *, output: tuple[str, str] | None = None, output_required: bool = False,
                  extra_choices: list[list[str]] = (), tables: list[str] = SMALL_TABLES, text_ok: bool = True,
                  exec_mode: bool = False, signal_args: list[list[str]] = (),
                  timeout: str | None = None) -> Callable[[], st.SearchStrategy[Case]]:
    """The cases of a command that reads a TABLE file, maybe with an output option (``(option, kind)``)."""

    @st.composite
    def strategy(draw) -> Case:
        branch = draw(st.sampled_from(TABLE_BRANCHES))
        if branch == "signal" and signal_args:
            return _signal_table_case(draw, draw(st.sampled_from(list(signal_args))))
        name = "t.json"
        case = Case([command, name], exec_mode=exec_mode, kind=branch)
        if branch == "invalid":
            data, why = draw(invalid_table([t for t in tables]))
            case.files[name] = json.dumps(data).encode()
            case.invalid_table = why
        elif branch == "hostile":
            if text_ok and draw(st.booleans()):
                name = "t.txt"
                case.args[1] = name
            case.files[name] = draw(table_bytes())
        elif branch == "text" and text_ok:
            name = "t.txt"
            case.args[1] = name
            source = draw(st.sampled_from([*tables[:4], "star-5.json"]))
            case.files[name] = text_table(_table(source), marked=draw(st.booleans()))
            case.kind = f"text table ({source})"
        else:
            source = draw(st.sampled_from(list(tables)))
            case.files[name] = committed(f"results/{source}")
            case.kind = f"valid table ({source})"
        if extra_choices and draw(st.booleans()):
            case.args += draw(st.sampled_from(list(extra_choices)))
        if output and (output_required or draw(st.booleans())):
            _apply_output(case, output[0], output[1], draw(output_target(output[1], [name])))
        extra = _extra(draw)
        case.args += [*extra, *_bounded(command, extra, timeout, case.args)]
        case.args = _clean(case.args)
        return case

    return strategy


def _signal_table_case(draw, args: list[str]) -> Case:
    """A signal case whose table arguments (results/NAME) are copied into the sandbox."""
    files = {}
    out = []
    for arg in args:
        if arg.startswith("results/"):
            files[Path(arg).name] = committed(arg)
            out.append(Path(arg).name)
        else:
            out.append(arg)
    return signal_case(draw, out, files)


# --- the subcommands (every one of tesearch.cli.app.COMMANDS; tests/test_fuzz.py checks)

register("info", network_command("info", output=None))
register("bound", network_command("bound", output=("--out", "certificate"),
                                  extra_choices=[["--lp-only"], ["--no-symmetry"], ["--timeout", "0.5"]]))
register("search", network_command(
    "search", range_checks=True,
    signal_args=[["search", "star-5", "--timeout", "30"], ["search", "star-6", "--timeout", "30"],
                 ["search", "star-5", "--strategy", "full", "--timeout", "30"]],
    extra_choices=[["--keep-encodings", "enc"], ["--solver", "cpsat"], ["--solver", "cpsat-intervals"],
                   ["--backend", "cpsat"], ["--strategy", "split"],
                   ["--sampling", "uniform"], ["--word-cap", "1"], ["--symmetry", "C2xC2"], ["--symmetry", "Q8"],
                   ["--symmetry", "nonsense"]]))
register("stratify", network_command(
    "stratify", signal_args=[["stratify", "star-5", "--timeout", "30"], ["stratify", "ring-8:cyclic", "--timeout", "30"]],
    extra_choices=[["--solver-timeout", "1"], ["--attempt-timeout", "1"], ["--solver", "cpsat"],
                   ["--backend", "cpsat"]]), share=0.5)
_TORI = [("torus-4x4x8", "total"), ("torus-3x3x3", "total"), ("torus-4x4x4", "total"), ("torus-4x8", "total"),
         ("torus-4x4", "total"), ("torus-3x3", "total")]
register("lift", network_command(
    "lift", networks=_TORI, input_files={"f.json": "results/torus-4x4.json"},
    extra_choices=[["--timeout", "0.01"], ["--timeout", "0.1"], ["--timeout", "1"], ["--ring", "1"],
                   ["--mode", "cyclic"], ["--factor", "f.json"]]))
register("repack", network_command(
    "repack", input_files={"s.json": "results/star-4.json"},
    extra_choices=[["--tail", "3"], ["--workers", "100000"], ["--solver-timeout", "1"], ["--round", "1"],
                   ["--rotation-core"], ["--solver", "cpsat-intervals"], ["--start", "s.json"]]), share=0.5)
register("narrow", network_command(
    "narrow", extra_choices=[["--workers", "100000"], ["--solver-timeout", "1"], ["--solver", "cpsat-intervals"],
                             ["--exchange", "odd-distance"], ["--core-model", "lanes"],
                             ["--core-model", "joint-lanes", "--max-width", "3"], ["--from-width", "2"],
                             ["--symmetry", "C2xC2"]]), share=0.5)
register("construct", network_command("construct", extra_choices=[["--exchange", "odd-distance"]]))
register("singleport", network_command("singleport", output=("--out", "schedule"),
                                       extra_choices=[["--algorithm", "a2"], ["--algorithm", "fifo"]]))
register("verify", table_command("verify", extra_choices=[["--kernel"], ["--partial"], ["--json"]]))
register("replay", table_command(
    "replay", output=("--plot", "plot"), extra_choices=[["--engine", "streaming"], ["--engine", "reference"],
                                                       ["--model", "single-port"], ["--max-memory", "200M"]],
    signal_args=[["replay", "results/star-6.json"], ["replay", "results/hypercube-9.json"],
                 ["replay", "results/star-6.json", "--engine", "reference"]]))
register("draw", table_command("draw", output=("-o", "picture"), output_required=True,
                               extra_choices=[["--window", "0:3"], ["--window", "5:2"],
                                              ["--window", f"0:{HUGE[0]}"]]), share=0.5)
register("export", table_command("export", output=("-o", "programs"), output_required=True,
                                 extra_choices=[["--format", "programs"], ["--format", "mpi"],
                                                ["--format", "chrome-trace"]]))
register("simulate", table_command("simulate", output=("--trace", "trace"), exec_mode=True,
                                   extra_choices=[["--bytes", "8", "--mpi-algorithms", "none", "--executor", "step"],
                                                  ["--bytes", "8,4K", "--mpi-algorithms", "pair", "--json"],
                                                  ["--bytes", "0"], ["--bytes", f"{HUGE[0]}"],
                                                  ["--bandwidth", "fast"], ["--model", "cm02", "--bytes", "8"],
                                                  ["--bytes", "8", "--mpi-algorithms", "none", "--executor", "combined",
                                                   "--combine", "balanced,3"],
                                                  ["--executor", "combined,sideways"], ["--combine", "0"],
                                                  ["--combine", f"{HUGE[0]}", "--bytes", "8"]]),
         share=0.1, reads_tables=True)
register("library", table_command("library", output=("-o", "directory"), output_required=True,
                                  extra_choices=[["--crossover", "t.json"], ["--rank-map", "t.json"],
                                                 ["--mpicc", "no-such-compiler"], ["--force"]]),
         share=0.3, reads_tables=True)
register("view", table_command("view", output=("-o", "page"), output_required=True,
                               extra_choices=[["--window", "0:3"], ["--window", "5:2"], ["--window", f"0:{HUGE[0]}"]]),
         share=0.5)
register("compare", table_command("compare", extra_choices=[["--engine", "all-nodes"], ["--order", "nearest-first"],
                                                            ["--json"]]))


@st.composite
def _certify(draw) -> Case:
    """certify: a table (valid, invalid or hostile), refutations (committed, forged, mutated), an output;
    a certificate it writes is then checked by check-proof (a false or refuted one is wrong)."""
    case = draw(table_command("certify", tables=["ring-6-cyclic.json", "ring-4-cyclic.json", "ring-8-cyclic.json",
                                                 "star-4.json", "ring-6.json"], text_ok=False)())
    if case.kind == "signal":
        return case
    refute = draw(st.sampled_from(["none", "committed", "tampered", "forged false", "path"]))
    if refute == "committed":
        enc = draw(st.sampled_from(ENCODINGS))
        case.files.update(_repo_files(enc))
        case.args += ["--refutation", enc]
    elif refute == "tampered":
        data, how = draw(tampered_encoding("ring-6:cyclic total", 5, 5, "encodings/ring-6_cyclic-total-full-T5.smt2"))
        case.files.update({"pyproject.toml": b"", "encodings/e.smt2": data})
        case.files["t.json"] = committed("results/ring-6-cyclic.json")
        case.invalid_table = None
        case.args += ["--refutation", "encodings/e.smt2"]
        case.tampered = [0]
        case.kind = f"ring-6-cyclic.json, refutation {how}"
    elif refute == "forged false":  # the repro: a padded table, a forged encoding one width below it
        source, problem, spec = draw(st.sampled_from([("star-4.json", "star-4 total", "star-4"),
                                                      ("ring-6-cyclic.json", "ring-6:cyclic total", "ring-6:cyclic")]))
        table = _table(source)
        width = known_width(spec) + draw(st.integers(0, 3))
        table["T"] = width + 1
        case.files.update({"pyproject.toml": b"", "t.json": json.dumps(table).encode(),
                           "encodings/f.smt2": forged_encoding(problem, width, len(table["placements"]),
                                                               draw(st.sampled_from(FORGED_BODIES)))})
        case.invalid_table = None
        case.args += ["--refutation", "encodings/f.smt2"]
        case.tampered = [0]
        case.kind = f"{source} padded to T = {width + 1}, forged refutation of width {width}"
    elif refute == "path":
        case.args += ["--refutation", draw(st.sampled_from(["/nope.smt2", "../e.smt2", "t.json", "/etc/passwd"]))]
    if "-o" not in case.args:
        _apply_output(case, "-o", "certificate", draw(output_target("certificate", ["t.json"])))
    out = case.args[case.args.index("-o") + 1]
    case.args = _clean(case.args)
    case.follow_up = ["check-proof", out, "--solver-timeout", "20"]
    return case


register("certify", lambda: _certify())


@st.composite
def _check_proof(draw) -> Case:
    """check-proof: mutated committed certificates, tampered ones (forged or altered encodings), signals."""
    branch = draw(st.sampled_from(["mutated", "mutated", "tampered", "tampered", "committed", "signal"]))
    extra = _extra(draw)
    if branch == "signal":
        return signal_case(draw, ["check-proof", "proofs/ring-12-cyclic.json"],
                           _repo_files("proofs/ring-12-cyclic.json", *[f"encodings/{p}" for p in (
                               "ring-12_cyclic-total-full-T18.smt2", "ring-12_cyclic-total-full-T19.smt2",
                               "ring-12_cyclic-total-full-T20.smt2", "ring-12_cyclic-total-full-T18.drat",
                               "ring-12_cyclic-total-full-T19.drat", "ring-12_cyclic-total-full-T20.drat")]))
    if branch == "tampered":
        files, tampered, how = draw(tampered_certificate())
        case = Case(["check-proof", "proofs/c.json"], files, tampered=tampered, kind=how)
    elif branch == "committed":
        name = draw(st.sampled_from(sorted(CERTIFIED)))
        cert = committed_json(f"proofs/{name}.json")
        paths = [c["encoding"]["path"] for c in cert["impossibility_claims"]]
        paths += [c["proof"]["path"] for cl in cert["impossibility_claims"] for c in cl.get("confirmations", [])
                  if isinstance(c.get("proof"), dict)]
        case = Case(["check-proof", f"proofs/{name}.json"], _repo_files(f"proofs/{name}.json", *paths),
                    kind="committed certificate")
    else:
        case = Case(["check-proof", "c.json"], {"c.json": draw(certificate_bytes())}, kind="mutated certificate")
    case.args += [*extra, "--solver-timeout", "10", *_bounded("check-proof", extra)]
    case.args = _clean(case.args)
    return case


register("check-proof", lambda: _check_proof())


@st.composite
def _run(draw) -> Case:
    """run: tiny MPI runs (ring-4, ring-6; valid, invalid or hostile tables, hostile programs files through the
    tests' hook TESEARCH_TEST_PROGRAMS), no --mpi, huge sizes, every executor, and SIGINT/SIGTERM to run --mpi
    ring-8."""
    branch = draw(st.sampled_from(["mpi", "mpi", "invalid", "no mpi", "hostile", "programs", "huge", "signal"]))
    if branch == "signal":
        return signal_case(draw, ["run", "t.json", "--mpi", "--repeat", "20", "--timeout", "40"],
                           {"t.json": committed("results/ring-8.json")})
    case = Case(["run", "t.json"], exec_mode=True, seconds=40.0, kind=branch)
    source = draw(st.sampled_from(["ring-4.json", "ring-6.json"]))
    case.files["t.json"] = committed(f"results/{source}")
    if branch != "no mpi":
        case.args.append("--mpi")
    if branch == "invalid":
        data, why = draw(invalid_table(["ring-4.json", "ring-6.json", "ring-6-cyclic.json"]))
        case.files["t.json"] = json.dumps(data).encode()
        case.invalid_table = why
    elif branch == "hostile":
        case.files["t.json"] = draw(table_bytes())
    elif branch == "programs":
        good = committed("results/ring-4.json")
        case.files["t.json"] = good
        case.files["p.jsonl"] = draw(st.sampled_from([b"", b"{}\n", b"[" * 100, b"\xff", json.dumps(
            {"format": "tesearch-programs", "format_version": 1, "ranks": 10 ** 20}).encode() + b"\n"]))
        case.env["TESEARCH_TEST_PROGRAMS"] = "p.jsonl"
    elif branch == "huge":
        case.args += [draw(st.sampled_from(["--bytes", "--repeat", "-n", "--dataflow"])), draw(st.sampled_from(HUGE))]
    extra = draw(st.sampled_from([[], ["--json"], ["-n", "3"], ["--bytes", "0"], ["--repeat", "2"], ["--quiet"],
                                  ["--executor", "all"], ["--executor", "combined,step"], ["--executor", "nope"],
                                  ["--executor", "dataflow", "--dataflow", "2:3"], ["--dataflow", "1:1"]]))
    case.args += [*extra, *_bounded("run", extra, "30")]
    return case


register("run", lambda: _run(), share=0.5)


@st.composite
def _sweep(draw) -> Case:
    """sweep: most cases are bad input (exit 2 before Ray starts); a few start a one-CPU Ray on a tiny
    network (10-15 s each), some of them signalled while Ray starts or runs, some writing outputs."""
    branch = draw(st.sampled_from(["bad", "bad", "bad", "ray", "signal"]))
    if branch == "bad":
        bad = draw(st.sampled_from([
            [draw(specs)], ["ring-4", "--num-cpus", draw(st.sampled_from(["0", "-1", HUGE[0]]))],
            ["ring-4", "--seeds", draw(st.sampled_from(["0", HUGE[0]]))], ["ring-4", "--address", "nowhere:1"],
            ["ring-4", "--timeout", draw(st.sampled_from(["0", "-1", "nan", HUGE[0]]))],
            ["ring-4", "--exchange", "both"], [], ["ring-4", "--max-memory", "lots"],
            ["ring-4", "--address", "auto", "--num-cpus", "1"]]))
        if "--timeout" not in bad:  # joining a cluster that is not there waits ~30 s otherwise
            bad = [*bad, "--timeout", "10"]
        case = Case(_clean(["sweep", *bad]), exec_mode=True, seconds=60.0, kind="bad input")
        if bad and bad[0] == "ring-4" and draw(st.booleans()):
            _apply_output(case, "--out-dir", "directory", draw(output_target("directory", [])))
        return case
    networks = draw(st.sampled_from([["ring-4"], ["ring-6"], ["hypercube-2"], ["ring-4", "ring-4:cyclic"]]))
    args = ["sweep", *networks, "--num-cpus", "1", "--seeds", "1", "--timeout", "60"]
    if branch == "signal":
        return signal_case(draw, args, seconds=90.0)
    case = Case(args, exec_mode=True, seconds=90.0, kind="ray")
    how = draw(st.sampled_from(["none", "out-dir", "runs"]))
    if how == "out-dir":
        _apply_output(case, "--out-dir", "directory", draw(output_target("directory", [])))
    elif how == "runs":
        _apply_output(case, "--runs", "runs", draw(output_target("runs", [])))
    return case


register("sweep", lambda: _sweep(), share=0.03)


@st.composite
def _regress(draw) -> Case:
    """regress: takes no input; its options, huge and hostile, and a signal while it checks."""
    branch = draw(st.sampled_from(["plain", "options", "signal"]))
    if branch == "signal":
        return signal_case(draw, ["regress"])
    extra = draw(options) if branch == "options" else draw(st.sampled_from([[], ["--json"], ["--no-constructions"]]))
    return Case(_clean(["regress", *extra]), kind=branch)


register("regress", lambda: _regress(), share=0.05)


def cases(command: str) -> st.SearchStrategy[Case]:
    """The strategy of cases of one subcommand."""
    return GENERATORS[command]()


def missing_generators() -> list[str]:
    """Subcommands of the CLI (tesearch.cli.app.COMMANDS) that have no generator here."""
    from tesearch.cli.app import COMMANDS as CLI_COMMANDS

    return [name for name in CLI_COMMANDS if name not in GENERATORS]


#: the subcommands with a generator, in the CLI's order where it has them
COMMANDS = list(GENERATORS)
