"""SimGrid's SMPI from Python: find smpirun, run one smpirun through the one process runner, read its output.

* :func:`run_smpirun` runs an ``smpirun`` line through :func:`tesearch.supervise.run_watched` (a session of its
  own, stopped with all it started on its timeout, the memory limit, a watcher's word, Ctrl-C or SIGTERM), with
  its output in files of the run's directory;
* :func:`parse_output` reads the lines the executor prints (``RESULT``, ``TIMES``, ``FAULT``, ``ROUTE``,
  ``START``, ``CLOCK``: ``tesearch/execute/c/te_main.c``) and :func:`failure_reason` the one line that says why
  a run failed.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tesearch.errors import SolverUnavailable, TesearchError
from tesearch.execute.faults import FaultRecord, parse_fault
from tesearch.limits import format_bytes
from tesearch.processes import EndedBy, run_watched
from tesearch.terms import ExitCode

SIMGRID_INSTALL_HINT = "install SimGrid: apt-get install libsimgrid-dev (Debian, Ubuntu)"
#: configuration every run gets: nothing the host computes is simulated, no TCP reverse traffic, exact clocks
BASE_CONFIGURATION = ("smpi/simulate-computation:no", "network/crosstraffic:0", "smpi/wtime:0",
                      "smpi/display-timing:0")


class SimulationFailed(TesearchError):
    """SimGrid could not be run at all (smpirun printed nothing usable): exit 4."""

    exit_code = ExitCode.UNKNOWN


def find_tool(name: str) -> str:
    """The path of ``smpicc`` or ``smpirun``; SolverUnavailable (exit 2, one line) when it is not on PATH."""
    found = shutil.which(name)
    if not found:
        raise SolverUnavailable(f"{name} is not on PATH; {SIMGRID_INSTALL_HINT}")
    return found


def simgrid_version() -> str:
    """SimGrid's version as smpirun states it ('3.32'), or 'unknown'."""
    import subprocess

    try:
        done = subprocess.run([find_tool("smpirun"), "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError, SolverUnavailable):
        return "unknown"
    match = re.search(r"SimGrid version (\S+)", done.stdout + done.stderr)
    return match.group(1) if match else "unknown"


@dataclass
class Finished:
    """How one smpirun run ended: its exit status (None when stopped), output, time and memory."""

    status: int | None
    stdout: str
    stderr: str
    wall_s: float
    peak_rss_bytes: int
    peak_pss_bytes: int
    ended_by: EndedBy = EndedBy.EXIT
    reason: str = ""

    @property
    def timed_out(self) -> bool:
        """The run's own budget ran out."""
        return self.ended_by is EndedBy.TIMEOUT

    @property
    def over_memory(self) -> bool:
        """The run passed --max-memory."""
        return self.ended_by is EndedBy.MEMORY


def run_smpirun(command: list[str], *, work: Path, timeout_s: float | None, max_memory: int | None,
                deadline: float | None = None, watch: Callable[[str], str | None] | None = None,
                watch_every_s: float = 1.0) -> Finished:
    """Run ``command`` (an smpirun line) in ``work``; ``watch(stdout so far)`` may stop it with a reason."""
    out_path, err_path = work / "smpirun.out", work / "smpirun.err"
    with open(out_path, "w+") as out, open(err_path, "w+") as err:
        observer = None if watch is None else (lambda: watch(out_path.read_text(errors="replace")))
        done = run_watched(command, cwd=work, stdout=out, stderr=err, timeout_s=timeout_s, max_memory=max_memory,
                           deadline=deadline, phase="simulate", watch=observer, watch_every_s=watch_every_s)
        out.seek(0)
        err.seek(0)
        return Finished(done.status, out.read(), err.read(), done.wall_s, done.peak_rss_bytes, done.peak_pss_bytes,
                        done.ended_by, done.reason)


# ------------------------------------------------------------------ reading the output

@dataclass
class Output:
    """What the executor printed."""

    results: dict[str, dict] = field(default_factory=dict)  # label -> the RESULT line's fields
    times: dict[str, list[float]] = field(default_factory=dict)  # label -> TIMES
    faults: list[FaultRecord] = field(default_factory=list)
    routes: dict[tuple[int, int], float] = field(default_factory=dict)
    start_ns: int | None = None  # rank 0's start, simulated (progress lines)
    clocks: list[tuple[int, int]] = field(default_factory=list)  # (simulated ns, ranks finished)

    def at_least_s(self, ranks: int) -> float | None:
        """A lower bound on the run's simulated time from its progress lines (None without one): while fewer than all
        ranks had finished, the clock had passed ``START`` by this much."""
        unfinished = [ns for ns, done in self.clocks if done < ranks]
        if self.start_ns is None or not unfinished:
            return None
        return max(0.0, (max(unfinished) - self.start_ns) * 1e-9)


_RESULT = re.compile(r"^RESULT (\S+) (\d+) (\S+) ([01]) (\d+) (\S+) (\d+) (\d+) (\d+)$")
_TIMES = re.compile(r"^TIMES (\S+)((?: \S+)+)$")
_ROUTE = re.compile(r"^ROUTE (\d+) (\d+) (\S+)$")
_START = re.compile(r"^START (-?\d+)$")
_CLOCK = re.compile(r"^CLOCK (-?\d+) (\d+)$")


def parse_output(text: str) -> Output:
    """The RESULT, TIMES, FAULT, ROUTE, START and CLOCK lines of a run."""
    output = Output()
    for line in text.splitlines():
        if match := _RESULT.match(line):
            label, size, seconds, checked, mismatches, skew, held_bytes, held_blocks, messages = match.groups()
            output.results[label] = {"bytes": int(size), "seconds": float(seconds), "checked": checked == "1",
                                     "mismatches": int(mismatches), "start_skew_s": float(skew),
                                     "held_bytes": int(held_bytes), "held_blocks": int(held_blocks),
                                     "messages": int(messages)}
        elif match := _TIMES.match(line):
            output.times[match.group(1)] = [float(x) for x in match.group(2).split()]
        elif (fault := parse_fault(line)) is not None:
            output.faults.append(fault)
        elif match := _ROUTE.match(line):
            receiver, sender, seconds = match.groups()
            output.routes[(int(sender), int(receiver))] = float(seconds)
        elif match := _START.match(line):
            output.start_ns = int(match.group(1))
        elif match := _CLOCK.match(line):
            output.clocks.append((int(match.group(1)), int(match.group(2))))
    return output


_EXCEPTION = re.compile(r"Uncaught exception [^:]*: (.*)$")
_CRITICAL = re.compile(r"\[[\w.]+/CRITICAL\] (.*)$")


def failure_reason(finished: Finished) -> str:
    """One line saying why a run failed, from SimGrid's messages."""
    if finished.timed_out:
        return "no result within the run's time budget"
    if finished.over_memory:
        return f"stopped at {format_bytes(finished.peak_pss_bytes)}: more memory than --max-memory allows"
    lines = finished.stderr.splitlines()
    for line in lines:
        if match := _EXCEPTION.search(line):
            return match.group(1).strip()
    for line in lines:
        if "Deadlock" in line or "deadlock" in line:
            return "deadlock: " + line.split("]", 1)[-1].strip()
    for line in lines:
        if (match := _CRITICAL.search(line)) and "backtrace" not in line:
            return match.group(1).strip()
    for line in lines:
        if line.startswith("te_main:"):
            return line.split(":", 1)[1].strip()
    tail = [line.strip() for line in lines if line.strip() and "INFO]" not in line and not line.strip().startswith("->")]
    return (tail[-1] if tail else f"smpirun exited with status {finished.status}")[:300]


_VALID = re.compile(r"has no algorithm '[^']*'! Valid algorithms: (.*?)\.?$")


def alltoall_algorithms(smpirun: str, binary: Path, work: Path) -> list[str]:
    """The alltoall algorithms this SimGrid offers (asked by naming one that does not exist)."""
    (work / "one.xml").write_text("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
                                  "\n<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">"
                                  "<host id=\"n0\" speed=\"1Gf\"/></zone></platform>\n")
    (work / "one.hosts").write_text("n0\n")
    finished = run_smpirun([smpirun, "-no-privatize", "-platform", "one.xml", "-hostfile", "one.hosts", "-np", "1",
                            "--cfg=smpi/alltoall:tesearch-no-such-algorithm", str(binary), "mode=alltoall",
                            "bytes=8"], work=work, timeout_s=60, max_memory=None)
    for line in finished.stderr.splitlines():
        if match := _VALID.search(line):
            return [name.strip() for name in match.group(1).split(",") if name.strip()]
    raise SimulationFailed(f"could not list SimGrid's alltoall algorithms: {failure_reason(finished)}")
