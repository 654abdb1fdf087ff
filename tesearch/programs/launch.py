"""Start the MPI executor under ``mpiexec``, watch it, stop it, and read its report.

``mpiexec`` is looked up next to the running Python first (the ``mpich`` wheel of the ``mpi``
extra installs it into the virtual environment's ``bin/``), then on ``PATH``.  mpiexec runs as a
:class:`tesearch.supervise.ProcessGroupChild`: in a session of its own, killed by the kernel if
this process dies.  Whatever ends the wait (the report, a time or memory limit, Ctrl-C or
SIGTERM), a ``finally`` stops the run within 2 s: SIGTERM to mpiexec's group and every process
of the run, then SIGKILL to those still there (found by parentage too: hydra gives each proxy
and rank a session of its own).

With more ranks than cores the ranks must not spin: MPICH is told to yield the processor
while it polls (``MPIR_CVAR_ENABLE_HEAVY_YIELD``), Open MPI to allow oversubscription and root.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

from tesearch.errors import LimitReached, SolverUnavailable, TesearchError
from tesearch.limits import format_bytes, proportional_bytes
from tesearch.processes import ProcessGroupChild
from tesearch.terms import ExitCode

#: memory of one rank besides its blocks (Python, numpy, mpi4py, the table): about 20 MB measured
#: (proportional set size, star-4), doubled
RANK_BASE_BYTES = 40 << 20
#: seconds between checks of the run's time
POLL_S = 0.2
#: seconds between checks of the run's memory (reading every rank's smaps costs time)
MEMORY_POLL_S = 1.0
#: environment for the ranks, unless the user set these: no busy spinning, oversubscription allowed
MPI_ENVIRONMENT = {
    "MPIR_CVAR_ENABLE_HEAVY_YIELD": "1",
    "MPIR_CVAR_POLLS_BEFORE_YIELD": "10",
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe",
}
INSTALL_HINT = "install the mpi extra: pip install -e '.[mpi]' (mpi4py and the mpich wheel)"


class RunFailed(TesearchError):
    """mpiexec or the executor ended without a verdict (a crash, not a schedule fault): exit 4."""

    exit_code = ExitCode.UNKNOWN


def find_mpiexec() -> Path:
    """The mpiexec beside this Python (the venv's), else the first on PATH; SolverUnavailable if none."""
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("mpiexec")
    if found:
        return Path(found)
    raise SolverUnavailable(f"no mpiexec beside {sys.executable} or on PATH; {INSTALL_HINT}")


def require_mpi4py() -> None:
    """SolverUnavailable unless mpi4py can be imported."""
    if importlib.util.find_spec("mpi4py") is None:
        raise SolverUnavailable(f"mpi4py is not installed; {INSTALL_HINT}")


def memory_estimate(ranks: int, block_bytes: int) -> int:
    """Bytes a run needs at its peak: per rank, the send, Alltoall and received buffers and a base."""
    return ranks * (RANK_BASE_BYTES + 3 * ranks * block_bytes)


@dataclass(frozen=True)
class MpiRun:
    """What to run: a table on ``ranks`` ranks with blocks of ``block_bytes``, ``repeat`` times."""

    table: Path
    ranks: int
    block_bytes: int
    repeat: int = 1
    seed: int = 0
    programs: Path | None = None
    timeout_s: float | None = None
    max_memory: int | None = None
    extra_environment: dict = field(default_factory=dict)
    executor: str = "step"  # step, dataflow or both (tesearch.programs.executor.EXECUTORS)


@dataclass
class MpiReport:
    """The executor's report (rank 0's JSON) and how mpiexec was started."""

    data: dict
    mpiexec: Path
    wall_s: float
    peak_resident_bytes: int = 0  # largest memory of the run seen: its processes' proportional set sizes summed

    @property
    def ok(self) -> bool:
        """Every block matched MPI_Alltoall and no fault was seen."""
        return self.data["fault_count"] == 0

    def to_json(self) -> dict:
        """The run as one JSON object."""
        return dict(self.data, mpiexec=str(self.mpiexec), wall_s=self.wall_s,
                    peak_resident_bytes=self.peak_resident_bytes, verdict="match" if self.ok else "fault")

    def summary(self) -> str:
        """The run for people: library, ranks, steps, times and the verdict, per executor."""
        d = self.data
        lines = [
            f"MPI library: {d['library']} (MPI {d['mpi_version']}), {self.mpiexec}",
            f"ranks {d['ranks']}, steps {d['steps']}, messages {d['messages']} ({d['hops']} hops), "
            f"blocks of {format_bytes(d['bytes'])}, {d['repeat']} repeat(s), {os.cpu_count()} core(s)",
            *(f"{f'schedule ({name}):':<21} {_times(d['runs'][name]['schedule_s'])}{_markers(d['runs'][name])}"
              for name in d["executors"]),
            f"{'MPI_Alltoall:':<21} {_times(d['alltoall_s'])}",
            f"wall {self.wall_s:.1f} s for the whole mpiexec run (start-up {d['setup_s']:.1f} s), "
            f"peak memory {format_bytes(self.peak_resident_bytes)} (proportional set sizes summed)",
            "(times are the slowest rank's; on one shared-memory machine they record this run and are "
            "no speed-up claim)",
        ]
        for name in d["executors"]:
            run = d["runs"][name]
            prefix = f"verdict ({name}):" if len(d["executors"]) > 1 else "verdict:"
            if run["fault_count"] == 0:
                lines.append(f"{prefix} match: every rank's {d['ranks'] - 1} received blocks equal MPI_Alltoall's "
                             f"byte for byte")
                continue
            lines.append(f"{prefix} FAULT: {run['fault_count']} fault(s) in the run")
            lines += [f"  {f['kind']}: {f['detail']}" for f in run["faults"][:10]]
            if run["fault_count"] > 10:
                lines.append(f"  ... ({run['fault_count'] - 10} more)")
        return "\n".join(lines)


def _markers(run: dict) -> str:
    """The dataflow executor's progress markers, for the summary ("" for the step executor)."""
    return f", {run['progress_markers']} progress marker(s)" if "progress_markers" in run else ""


def _times(values: list[float]) -> str:
    return f"best {min(values):.4f} s, median {median(values):.4f} s over {len(values)} run(s)"


def command(run: MpiRun, mpiexec: Path, report: Path) -> list[str]:
    """The mpiexec command line of a run."""
    cmd = [str(mpiexec), "-n", str(run.ranks), sys.executable, "-m", "tesearch.programs.executor",
           str(run.table), "--report", str(report), "--bytes", str(run.block_bytes), "--repeat", str(run.repeat),
           "--seed", str(run.seed)]
    if run.programs is not None:
        cmd += ["--programs", str(run.programs)]
    return cmd + ["--executor", run.executor]


def _resident(members: dict[int, int]) -> int:
    """Memory of the run: the sum of its processes' proportional set sizes."""
    return sum(proportional_bytes(pid) for pid in members)


def launch(run: MpiRun, *, started: float | None = None) -> MpiReport:
    """Run the executor under mpiexec and return its report; the processes never outlive this call.

    ``run.timeout_s`` counts from ``started`` (a time.monotonic() value: the command's start; default now).
    mpiexec runs in a session of its own (:class:`tesearch.supervise.ProcessGroupChild`), dies with this
    process, and on any way out (the report, a limit, SIGINT or SIGTERM raised as an exception) it, its
    hydra proxy and every rank are stopped within :data:`tesearch.supervise.GROUP_GRACE_S` + 0.5 s.
    """
    require_mpi4py()
    mpiexec = find_mpiexec()
    environment = dict(os.environ)
    for key, value in MPI_ENVIRONMENT.items():
        environment.setdefault(key, value)
    environment.update(run.extra_environment)
    launched = time.monotonic()
    started = launched if started is None else started
    if run.timeout_s is not None and time.monotonic() - started > run.timeout_s:
        raise LimitReached(f"time limit of {run.timeout_s:g} s reached", phase="setup")
    with tempfile.TemporaryDirectory(prefix="tesearch-mpi-") as scratch:
        report = Path(scratch) / "report.json"
        output = open(Path(scratch) / "output.txt", "w+")
        peak = 0
        next_memory_check = time.monotonic()
        child = None
        try:
            child = ProcessGroupChild(command(run, mpiexec, report), env=environment, stdout=output,
                                      stderr=subprocess.STDOUT)
            while True:
                status = child.poll_for(POLL_S)
                if status is not None:
                    break
                if run.timeout_s is not None and time.monotonic() - started > run.timeout_s:
                    raise LimitReached(f"time limit of {run.timeout_s:g} s reached", phase="mpiexec")
                if time.monotonic() < next_memory_check:
                    continue
                next_memory_check = time.monotonic() + MEMORY_POLL_S
                members = child.track(force=True)
                resident = _resident(members)
                peak = max(peak, resident)
                if run.max_memory is not None and resident > run.max_memory:
                    raise LimitReached(f"memory limit of {format_bytes(run.max_memory)} reached "
                                       f"(the ranks hold {format_bytes(resident)})", phase="mpiexec")
        finally:
            if child is not None:
                child.stop()
            output.seek(0)
            log = output.read()
            output.close()
        wall = time.monotonic() - launched
        if not report.exists():
            tail = " | ".join(line.strip() for line in log.strip().splitlines()[-5:])
            raise RunFailed(f"mpiexec exited with status {status} without a report: {tail or 'no output'}")
        data = json.loads(report.read_text())
    if "error" in data:
        raise TesearchError(f"the MPI run could not start: {data['error']}")
    return MpiReport(data, mpiexec, wall, peak)
