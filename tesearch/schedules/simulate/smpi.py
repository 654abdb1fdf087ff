"""SimGrid's SMPI from Python: find smpirun, run one smpirun through the one process runner, read its output.

* :func:`run_smpirun` runs an ``smpirun`` line through :func:`tesearch.running.supervise.run_watched` (a session of its
  own, stopped with all it started on its timeout, the memory limit, a watcher's word, Ctrl-C or SIGTERM), with
  its output in files of the run's directory;
* :func:`failure_reason` reads the one line that says why a run failed (what the executor prints is read by
  :func:`tesearch.schedules.execute.output.parse_driver_output`, the one parser of te_main's lines).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tesearch.running.errors import SolverUnavailable, TesearchError
from tesearch.running.limits import format_bytes
from tesearch.running.processes import EndedBy, run_captured, run_watched
from tesearch.running.terms import ExitCode

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
    try:
        done = run_captured([find_tool("smpirun"), "-version"], timeout_s=30, phase="simulate")
    except (OSError, SolverUnavailable):
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
