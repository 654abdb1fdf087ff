"""SimGrid's SMPI from Python: find smpicc/smpirun, compile the C executor once, run smpirun, read its output.

* :func:`executor_binary` compiles ``tesearch_simulate.c`` (package data) with ``smpicc`` into the cache
  directory (``$XDG_CACHE_HOME/tesearch`` or ``~/.cache/tesearch``), named by the hash of the source and
  of ``smpicc``'s version, so an edited source or a new SimGrid compiles afresh; the binary appears by
  an atomic rename, so concurrent first uses never see half a file.
* :func:`run_smpirun` starts ``smpirun`` in a session of its own (``start_new_session``) and kills the
  whole process group on its timeout, on the memory limit, on Ctrl-C (KeyboardInterrupt) and on SIGTERM
  (the CLI turns it into :class:`~tesearch.errors.Interrupted`): a ``finally`` always does it.
* :func:`parse_output` reads the lines the executor prints (``RESULT``, ``FAULT``, ``ROUTE``) and
  :func:`failure_reason` the one line that says why a run failed.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tesearch.errors import LimitReached, SolverUnavailable, TesearchError
from tesearch.limits import format_bytes, proportional_bytes
from tesearch.terms import ExitCode

SOURCE = Path(__file__).with_name("tesearch_simulate.c")
INSTALL_HINT = "install SimGrid: apt-get install libsimgrid-dev (Debian, Ubuntu)"
#: seconds between checks of a run's time and memory
POLL_S = 0.2
#: seconds between SIGTERM and SIGKILL to the run's process group
STOP_GRACE_S = 2.0
#: configuration every run gets: nothing the host computes is simulated, no TCP reverse traffic, exact clocks
BASE_CONFIGURATION = ("smpi/simulate-computation:no", "network/crosstraffic:0", "smpi/wtime:0",
                      "smpi/display-timing:0")


class SimulationFailed(TesearchError):
    """SimGrid could not be run at all (the compiler failed, smpirun printed nothing usable): exit 4."""

    exit_code = ExitCode.UNKNOWN


def find_tool(name: str) -> str:
    """The path of ``smpicc`` or ``smpirun``; SolverUnavailable (exit 2, one line) when it is not on PATH."""
    found = shutil.which(name)
    if not found:
        raise SolverUnavailable(f"{name} is not on PATH; {INSTALL_HINT}")
    return found


def cache_directory() -> Path:
    """Where compiled executors live: ``$XDG_CACHE_HOME/tesearch`` or ``~/.cache/tesearch``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tesearch"


def _smpicc_version(smpicc: str) -> str:
    try:
        done = subprocess.run([smpicc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout + done.stderr


def executor_binary() -> Path:
    """The compiled C executor, compiled with smpicc on first use (cached by the hash of source and compiler)."""
    smpicc = find_tool("smpicc")
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source + _smpicc_version(smpicc).encode()).hexdigest()[:16]
    directory = cache_directory()
    binary = directory / f"tesearch_simulate-{digest}"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(dir=directory, prefix=".tesearch_simulate-", suffix=".tmp")
        os.close(fd)
    except OSError as exc:
        raise SimulationFailed(f"cannot write the compiled executor into {directory}: {exc.strerror or exc}") from None
    try:
        with tempfile.TemporaryDirectory(prefix="tesearch-smpicc-") as work:
            copy = Path(work) / SOURCE.name
            copy.write_bytes(source)
            done = subprocess.run([smpicc, "-O2", "-o", scratch, str(copy)], capture_output=True, text=True,
                                  timeout=300, cwd=work)
        if done.returncode != 0:
            tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
            raise SimulationFailed(f"smpicc could not compile {SOURCE.name}: {tail}")
        os.chmod(scratch, 0o755)
        os.replace(scratch, binary)
    finally:
        Path(scratch).unlink(missing_ok=True)
    return binary


# ------------------------------------------------------------------ running smpirun

@dataclass
class Finished:
    """How one smpirun run ended: its exit status (None when stopped), output, time and memory."""

    status: int | None
    stdout: str
    stderr: str
    wall_s: float
    peak_bytes: int
    timed_out: bool = False
    over_memory: bool = False


def _session_members(session: int) -> list[int]:
    """Live processes whose session id is ``session`` (smpirun's script and the simulator it starts)."""
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                if int(fields[3]) == session and fields[0] != "Z":  # field 6: the session id; zombies are gone
                    members.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return members


def stop_group(proc: subprocess.Popen) -> None:
    """Stop smpirun with everything it started (tesearch.supervise.stop_family: its group and session, and
    its descendants by parentage; SIGTERM, a grace period, SIGKILL), then wait for the simulator to go."""
    from tesearch.supervise import process_family, stop_family

    if proc.poll() is None or _session_members(proc.pid):
        stop_family(proc.pid, process_family(proc.pid), grace_s=STOP_GRACE_S)
    proc.wait()
    deadline = time.monotonic() + STOP_GRACE_S  # a large simulator takes a moment to unmap its memory
    while _session_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)


def run_smpirun(command: list[str], *, work: Path, timeout_s: float | None, max_memory: int | None,
                deadline: float | None = None) -> Finished:
    """Run ``command`` (an smpirun line) in its own session, in ``work``; stop it at ``timeout_s``.

    Past ``deadline`` (time.monotonic(), the command's own --timeout) LimitReached is raised (exit 4);
    past ``timeout_s`` (this run's budget) the run is stopped and reported as timed out; past
    ``max_memory`` (the run's proportional set size) it is stopped and reported as over memory.  The
    group is always killed.
    """
    started = time.monotonic()
    out_path, err_path = work / "smpirun.out", work / "smpirun.err"
    peak = 0
    with open(out_path, "w+") as out, open(err_path, "w+") as err:
        proc = subprocess.Popen(command, cwd=work, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                start_new_session=True)
        timed_out = over_memory = False
        try:
            next_memory = started
            while True:
                try:
                    status = proc.wait(POLL_S)
                    break
                except subprocess.TimeoutExpired:
                    pass
                now = time.monotonic()
                if deadline is not None and now > deadline:
                    raise LimitReached("time limit reached", phase="simulate")
                if timeout_s is not None and now - started > timeout_s:
                    timed_out, status = True, None
                    break
                if now >= next_memory:
                    next_memory = now + 1.0
                    used = sum(proportional_bytes(pid) for pid in _session_members(proc.pid))
                    peak = max(peak, used)
                    if max_memory is not None and used > max_memory:
                        over_memory, status = True, None
                        break
        finally:
            stop_group(proc)
        out.seek(0)
        err.seek(0)
        return Finished(status, out.read(), err.read(), time.monotonic() - started, peak, timed_out, over_memory)


# ------------------------------------------------------------------ reading the output

@dataclass
class Output:
    """What the executor printed: timings by (mode, bytes), faults, and route latencies."""

    results: dict[tuple[str, int], dict] = field(default_factory=dict)
    faults: list[dict] = field(default_factory=list)
    routes: dict[tuple[int, int], float] = field(default_factory=dict)


_RESULT = re.compile(r"^RESULT (\S+) (\d+) (\S+) ([01]) (\d+) (\S+)$")
_FAULT = re.compile(r"^FAULT (\S+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (.*)$")
_ROUTE = re.compile(r"^ROUTE (\d+) (\d+) (\S+)$")


def parse_output(text: str) -> Output:
    """The RESULT, FAULT and ROUTE lines of a run."""
    output = Output()
    for line in text.splitlines():
        if match := _RESULT.match(line):
            mode, size, seconds, checked, mismatches, skew = match.groups()
            output.results[(mode, int(size))] = {"seconds": float(seconds), "checked": checked == "1",
                                                 "mismatches": int(mismatches), "start_skew_s": float(skew)}
        elif match := _FAULT.match(line):
            kind, rank, step, origin, destination, detail = match.groups()
            output.faults.append({"kind": kind.replace("-", " "), "rank": int(rank), "step": int(step),
                                  "origin": int(origin), "destination": int(destination), "detail": detail})
        elif match := _ROUTE.match(line):
            receiver, sender, seconds = match.groups()
            output.routes[(int(sender), int(receiver))] = float(seconds)
    return output


_EXCEPTION = re.compile(r"Uncaught exception [^:]*: (.*)$")
_CRITICAL = re.compile(r"\[[\w.]+/CRITICAL\] (.*)$")


def failure_reason(finished: Finished) -> str:
    """One line saying why a run failed, from SimGrid's messages."""
    if finished.timed_out:
        return "no result within the run's time budget"
    if finished.over_memory:
        return f"stopped at {format_bytes(finished.peak_bytes)}: more memory than --max-memory allows"
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
        if line.startswith("tesearch_simulate:"):
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
                            "--cfg=smpi/alltoall:tesearch-no-such-algorithm", str(binary), "alltoall", ".", "8", "0",
                            "0", "1"], work=work, timeout_s=60, max_memory=None)
    for line in finished.stderr.splitlines():
        if match := _VALID.search(line):
            return [name.strip() for name in match.group(1).split(",") if name.strip()]
    raise SimulationFailed(f"could not list SimGrid's alltoall algorithms: {failure_reason(finished)}")
