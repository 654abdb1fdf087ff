"""``tesearch run --mpi``: the C executor library on a real MPI (``te_main`` built with the mpi extra's mpicc).

A run is a few ``mpiexec`` lines, one rank per network node, each started and stopped by
:func:`tesearch.running.processes.run_watched` (a session of its own; on the command's ``--timeout``, ``--max-memory``,
Ctrl-C or SIGTERM, mpiexec, its hydra proxy and every rank are stopped within 2 s):

1. **check**: every schedule in lockstep frames (``mode=check``, 8-byte blocks, ``te_check``): a broken program is
   named by its faults (rank, message, step), and then nothing is timed;
2. **one run per job** (a schedule under one executor: step, dataflow K:W, combined): ``mode=run check=1
   reference=1``: ``MPI_Alltoall`` of the same send buffers timed ``repeat`` times, then the executor ``repeat``
   times; every block of the executor's first run is compared byte for byte with its origin's pattern and with
   what ``MPI_Alltoall`` delivered (``block differs`` faults name rank and origin).

``mpiexec`` is the one beside this Python (the ``mpich`` wheel of the mpi extra puts it in the environment's
``bin/``), else the first on ``PATH``.  With more ranks than cores the ranks must not spin: MPICH is told to yield
the processor while it polls (:data:`MPI_ENVIRONMENT`), Open MPI to allow oversubscription and root.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

from tesearch.running.errors import LimitReached, SolverUnavailable, TesearchError
from tesearch.schedules.execute.build import MPI_HINT, Flavour, build
from tesearch.schedules.execute.faults import by_cause
from tesearch.schedules.execute.output import DriverOutput, parse_driver_output
from tesearch.running.limits import format_bytes
from tesearch.running.processes import EndedBy, run_watched
from tesearch.running.terms import ExitCode

#: memory of one rank besides its blocks (the MPICH process, its shared-memory segments, the program): about 9 MiB
#: measured (proportional set size per process, star-4's 24 ranks at 8 B), doubled
RANK_BASE_BYTES = 20 << 20
#: bytes of each block in the check run
CHECK_BYTES = 8
#: environment for the ranks, unless the user set these: no busy spinning, oversubscription allowed
MPI_ENVIRONMENT = {
    "MPIR_CVAR_ENABLE_HEAVY_YIELD": "1",
    "MPIR_CVAR_POLLS_BEFORE_YIELD": "10",
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe",
}
#: the executor's program source when no test hook replaced it
COMPUTED = "computed on each rank"


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
    raise SolverUnavailable(f"no mpiexec beside {sys.executable} or on PATH; {MPI_HINT}")


def mpi_environment(extra: dict | None = None) -> dict[str, str]:
    """This process's environment with :data:`MPI_ENVIRONMENT`'s defaults (a value the user set wins) and ``extra``."""
    environment = dict(os.environ)
    for key, value in MPI_ENVIRONMENT.items():
        environment.setdefault(key, value)
    environment.update(extra or {})
    return environment


def memory_estimate(ranks: int, block_bytes: int, transit_blocks: int = 0) -> int:
    """Bytes a run needs at its peak: per rank a base, the send, MPI_Alltoall and receive buffers, and
    ``transit_blocks`` blocks held in transit (a combined executor's staged bundles: twice the letters times the
    largest bundle)."""
    return ranks * (RANK_BASE_BYTES + (3 * ranks + transit_blocks) * block_bytes)


@dataclass(frozen=True)
class MpiJob:
    """One timed run: a schedule (by its name in :attr:`MpiRun.schedules`) under one executor."""

    name: str  # the executor's name in the report: step, dataflow K=1 W=1, combined
    schedule: str
    arguments: tuple[str, ...]  # te_main's executor arguments (executor=..., lookahead=..., inflight=...)


@dataclass(frozen=True)
class MpiRun:
    """What to run: ``ranks`` ranks, blocks of ``block_bytes``, the schedules (tesearch-hops bytes) and the jobs."""

    ranks: int
    block_bytes: int
    schedules: tuple[tuple[str, bytes], ...]  # (name, tesearch-hops file bytes), checked in this order
    jobs: tuple[MpiJob, ...]
    steps: int  # the table's T
    hops: int  # hops each rank sends in the table's schedule
    repeat: int = 1
    timeout_s: float | None = None  # from ``started`` (the command's start)
    max_memory: int | None = None
    program_source: str = COMPUTED
    extra_environment: dict = field(default_factory=dict)


@dataclass
class MpiReport:
    """The runs' results as one JSON-ready dict, with mpiexec, the whole wall time and the peak memory."""

    data: dict
    mpiexec: Path
    wall_s: float
    peak_resident_bytes: int = 0  # the largest sum of the run's processes' proportional set sizes seen

    @property
    def ok(self) -> bool:
        """Every schedule passed its check and every block of every run matched MPI_Alltoall's."""
        return self.data["fault_count"] == 0

    def to_json(self) -> dict:
        """The run as one JSON object."""
        return dict(self.data, mpiexec=str(self.mpiexec), wall_s=self.wall_s,
                    peak_resident_bytes=self.peak_resident_bytes, verdict="match" if self.ok else "fault")

    def summary(self) -> str:
        """The run for people: library, ranks, steps, times and the verdict, per executor."""
        d = self.data
        lines = [f"MPI library: {d['library']} (MPI {d['mpi_version']}), {self.mpiexec}",
                 f"ranks {d['ranks']}, steps {d['steps']}, messages {d['messages']} ({d['hops']} hops), "
                 f"blocks of {format_bytes(d['bytes'])}, {d['repeat']} repeat(s), {os.cpu_count()} core(s); "
                 f"executors: the C library (te_main)"]
        failed = [c for c in d["checks"] if not c["ok"]]
        for check in failed:
            lines.append(f"check ({check['schedule']}): FAULT: {check['fault_count']} fault(s); nothing was timed")
            lines += _fault_lines(check["faults"], check["fault_count"])
        if failed:
            return "\n".join(lines)
        lines.append(f"check: every schedule passed ({', '.join(c['schedule'] for c in d['checks'])})")
        width = max((len(name) for name in d["executors"]), default=4) + 12
        for name in d["executors"]:
            run = d["runs"][name]
            held = f", held at most {format_bytes(run['held_bytes'])} ({run['held_blocks']} blocks) at a rank"
            lines.append(f"{f'schedule ({name}):':<{width}} {_times(run['schedule_s'])}, {run['messages']} "
                         f"messages{held}")
        lines.append(f"{'MPI_Alltoall:':<{width}} {_times(d['alltoall_s'])}")
        lines += [f"wall {self.wall_s:.1f} s for the whole run ({len(d['checks']) + len(d['runs'])} mpiexec "
                  f"runs), peak memory {format_bytes(self.peak_resident_bytes)} (proportional set sizes summed)",
                  "(times are the slowest rank's; on one shared-memory machine they record this run and are "
                  "no speed-up claim)"]
        for name in d["executors"]:
            run = d["runs"][name]
            prefix = f"verdict ({name}):" if len(d["executors"]) > 1 else "verdict:"
            if run["fault_count"] == 0:
                lines.append(f"{prefix} match: every rank's {d['ranks'] - 1} received blocks equal MPI_Alltoall's "
                             f"byte for byte")
            else:
                lines.append(f"{prefix} FAULT: {run['fault_count']} fault(s) in the run")
                lines += _fault_lines(run["faults"], run["fault_count"])
        return "\n".join(lines)


def _fault_lines(faults: list[dict], count: int) -> list[str]:
    lines = [f"  {f['kind']}: {f['detail']}" for f in faults[:10]]
    if count > 10:
        lines.append(f"  ... ({count - 10} more)")
    return lines


def _times(values: list[float]) -> str:
    return f"best {min(values):.4f} s, median {median(values):.4f} s over {len(values)} run(s)"


# ------------------------------------------------------------------ running

class _Runner:
    """The mpiexec lines of one run, each through run_watched, with the peak memory seen over all of them."""

    def __init__(self, run: MpiRun, mpiexec: Path, binary: Path, directory: Path, deadline: float | None):
        self.run, self.mpiexec, self.binary, self.directory, self.deadline = run, mpiexec, binary, directory, deadline
        self.environment = mpi_environment(run.extra_environment)
        self.peak = 0

    def execute(self, arguments: list[str], what: str) -> tuple[DriverOutput, float]:
        """One mpiexec run of te_main; its output (RunFailed unless it ended well with a RESULT line)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise LimitReached(f"time limit of {self.run.timeout_s:g} s reached", phase="mpiexec")
        out_path, err_path = self.directory / "mpiexec.out", self.directory / "mpiexec.err"
        with open(out_path, "w+", errors="replace") as out, open(err_path, "w+", errors="replace") as err:
            done = run_watched([str(self.mpiexec), "-n", str(self.run.ranks), str(self.binary), *arguments],
                               cwd=self.directory, env=self.environment, stdout=out, stderr=err,
                               deadline=self.deadline, max_memory=self.run.max_memory, phase="mpiexec")
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
        self.peak = max(self.peak, done.peak_pss_bytes)
        if done.ended_by is EndedBy.MEMORY:
            raise LimitReached(f"memory limit of {format_bytes(self.run.max_memory)} reached (the ranks hold "
                               f"{format_bytes(done.peak_pss_bytes)})", phase="mpiexec")
        output = parse_driver_output(stdout)
        if done.status != 0 or not output.results:
            said = [line.split(":", 2)[-1].strip() for line in stderr.splitlines() if line.startswith("te_main:")]
            tail = said[:1] or [line.strip() for line in (stderr + stdout).strip().splitlines()[-3:]]
            raise RunFailed(f"the {what} ended with status {done.status} and no result: "
                            f"{' | '.join(tail) or 'no output'}")
        return output, done.wall_s

    def check(self, name: str, path: Path) -> tuple[dict, DriverOutput]:
        """The lockstep check of one schedule."""
        output, wall = self.execute(["mode=check", f"schedule={path}", f"bytes={CHECK_BYTES}", "label=check"],
                                    f"check of {name}")
        result = output.results["check"]
        faults = sorted((f.to_json() for f in output.faults), key=by_cause)
        return ({"schedule": name, "bytes": CHECK_BYTES, "fault_count": result["mismatches"], "faults": faults,
                 "ok": result["mismatches"] == 0, "wall_s": round(wall, 3)}, output)

    def time(self, job: MpiJob, path: Path) -> dict:
        """One executor's timed runs beside MPI_Alltoall's, its first run compared block for block."""
        run = self.run
        output, wall = self.execute(["mode=run", f"schedule={path}", f"bytes={run.block_bytes}", "check=1",
                                     "reference=1", f"repeat={run.repeat}", "label=run", *job.arguments],
                                    f"{job.name} run")
        result = output.results["run"]
        faults = sorted((dict(f.to_json(), executor=job.name) for f in output.faults), key=by_cause)
        return {"schedule": job.schedule, "schedule_s": output.times.get("run", [result["seconds"]]),
                "alltoall_s": output.times.get("MPI_Alltoall", []), "fault_count": result["mismatches"],
                "faults": faults, "verdict": "match" if result["mismatches"] == 0 else "fault",
                "held_bytes": result["held_bytes"], "held_blocks": result["held_blocks"],
                "messages": result["messages"], "start_skew_s": result["start_skew_s"], "wall_s": round(wall, 3)}


def launch(run: MpiRun, *, started: float | None = None) -> MpiReport:
    """Check every schedule, then time every job (see the module doc); the processes never outlive this call.

    ``run.timeout_s`` counts from ``started`` (a time.monotonic() value: the command's start; default now): past it
    LimitReached (exit 4) names the phase.  RunFailed (exit 4) when mpiexec or te_main ends without a result.
    """
    launched = time.monotonic()
    started = launched if started is None else started
    deadline = None if run.timeout_s is None else started + run.timeout_s
    mpiexec = find_mpiexec()
    binary = build(Flavour.MPI)
    with tempfile.TemporaryDirectory(prefix="tesearch-mpi-") as scratch:
        directory = Path(scratch)
        files = {}
        for number, (name, data) in enumerate(run.schedules):
            files[name] = directory / f"schedule-{number}.hops"
            files[name].write_bytes(data)
        runner = _Runner(run, mpiexec, binary, directory, deadline)
        checks, library = [], ("?", "unknown")
        for name, path in files.items():
            check, output = runner.check(name, path)
            checks.append(check)
            library = output.library or library
        runs = {}
        if all(check["ok"] for check in checks):
            for job in run.jobs:
                runs[job.name] = runner.time(job, files[job.schedule])
    faults = sorted([dict(f, check=c["schedule"]) for c in checks for f in c["faults"]] +
                    [f for r in runs.values() for f in r["faults"]], key=by_cause)
    data = {"library": library[1], "mpi_version": library[0], "ranks": run.ranks, "steps": run.steps,
            "messages": run.ranks * (run.ranks - 1), "hops": run.ranks * run.hops, "bytes": run.block_bytes,
            "repeat": run.repeat, "executor_binary": str(binary), "checks": checks,
            "executors": [job.name for job in run.jobs] if runs else [], "runs": runs,
            "alltoall_s": [t for r in runs.values() for t in r["alltoall_s"]],
            "fault_count": sum(c["fault_count"] for c in checks) + sum(r["fault_count"] for r in runs.values()),
            "faults": faults, "program_source": run.program_source}
    if len(runs) == 1:
        data["schedule_s"] = next(iter(runs.values()))["schedule_s"]
    return MpiReport(data, mpiexec, time.monotonic() - launched, runner.peak)
