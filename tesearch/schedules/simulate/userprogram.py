"""``tesearch simulate TABLE --program FILE.c``: a user's own MPI program timed under SimGrid with the table's
MPI_Alltoall linked in, beside the same program on SMPI's own MPI_Alltoall algorithms.

The program is compiled with smpicc twice: **linked** with the MPI_Alltoall library's sources (``tesearch library``'s
``te_pmpi.c`` with the table's schedule compiled in, :mod:`tesearch.schedules.library`), and **plain**.  Each runs under
smpirun on the study's platform (:mod:`tesearch.schedules.simulate.platform`: one host per node, one link per directed edge,
the given bandwidth, latency and network model) with one rank per node: the linked build once per executor asked
for (``--executor``, ``--dataflow``: ``TESEARCH_ALLTOALL_EXECUTOR`` and ``TESEARCH_ALLTOALL_DATAFLOW`` at every
size), the plain build once per MPI_Alltoall algorithm or selector asked for (``--mpi-algorithms``).  Computation is
not simulated (``smpi/simulate-computation:no``), so the times are the program's communication.  Each run reports
SimGrid's simulated time of the whole program, what the program printed (its own timings), and for the linked
build how many MPI_Alltoall calls ran on the schedule (``TESEARCH_ALLTOALL_STATS=1``).  A run that fails (exit
status, SimGrid's error) is reported as failed with its reason; the verdict is ``ok`` when every linked run ended
well.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Callable

from tesearch.running.errors import OptionError
from tesearch.schedules.execute.build import BuildFailed
from tesearch.schedules.library import plan_for, write_sources
from tesearch.running.limits import Limits
from tesearch.running.processes import EndedBy, run_captured
from tesearch.schedules.simulate import smpi
from tesearch.schedules.simulate.lineup import KNOWN_ALGORITHMS, Choice, ExecutorKind, mpi_contenders
from tesearch.schedules.simulate.platform import hostfile, platform_xml
from tesearch.schedules.simulate.study import Model, seconds_label

#: wall-clock seconds one run of the program gets unless --run-timeout says otherwise
RUN_TIMEOUT_S = 600.0
#: lines of the program's output kept per run
OUTPUT_LINES = 40
_SIMULATED = re.compile(r"Simulated time: ([0-9.eE+-]+) seconds")
_STATS = re.compile(r"tesearch_alltoall: rank \d+: (\d+) MPI_Alltoall calls, (\d+) on the schedule")


def _compile(smpicc: str, sources: list[Path], output: Path, work: Path, *, program: Path) -> None:
    try:
        done = run_captured([smpicc, "-O2", "-std=gnu11", "-o", str(output), *map(str, sources)], cwd=work,
                            timeout_s=300, phase="build")
    except OSError as exc:
        raise BuildFailed(f"cannot run {smpicc}: {exc.strerror or exc}") from None
    if done.status == 0:
        return
    tail = " | ".join(line.strip() for line in (done.stderr or done.stdout).strip().splitlines()[-3:])
    if len(sources) == 1:  # the user's program alone: their input
        raise OptionError(f"smpicc cannot compile it: {tail or 'no message'}", where=str(program))
    raise BuildFailed(f"smpicc cannot compile {program.name} with the MPI_Alltoall library: {tail}")


def _run(command: list[str], work: Path, *, env_names: dict[str, str], timeout_s: float, limits: Limits,
         deadline: float | None) -> dict:
    """One smpirun of the program: status, simulated time, output, calls on the schedule."""
    environment = dict(os.environ, TESEARCH_ALLTOALL_STATS="1", **env_names)
    done = run_captured(command, cwd=work, env=environment, timeout_s=timeout_s, deadline=deadline, phase="simulate",
                        max_memory=limits.max_memory)
    record = {"wall_s": round(done.run.wall_s, 3), "status": "ok"}
    simulated = _SIMULATED.search(done.stderr)
    lines = done.stdout.splitlines()
    record["output"] = lines[:OUTPUT_LINES] + ([f"... ({len(lines) - OUTPUT_LINES} more lines)"]
                                               if len(lines) > OUTPUT_LINES else [])
    stats = [tuple(map(int, m.groups())) for m in map(_STATS.search, done.stderr.splitlines()) if m]
    if stats:
        record["alltoall_calls"] = sum(calls for calls, _ in stats)
        record["on_schedule"] = sum(on for _, on in stats)
    if done.status == 0 and simulated:
        record["simulated_s"] = float(simulated.group(1))
        return record
    finished = smpi.Finished(done.status, done.stdout, done.stderr, done.run.wall_s, done.run.peak_rss_bytes,
                             done.run.peak_pss_bytes, done.run.ended_by)
    reason = smpi.failure_reason(finished)
    if done.run.ended_by is EndedBy.EXIT and done.status not in (0, None) and not simulated:
        reason = f"exit status {done.status}: {reason}"
    record.update(status="failed", reason=reason)
    return record


def simulate_program(program: Path, table_path: Path, *, bandwidth_bps: float, latency_s: float, model: Model,
                     choice: Choice, mpi_algorithms: tuple[str, ...] | None, run_timeout_s: float | None,
                     limits: Limits, deadline: float | None,
                     progress: Callable[[str], None] | None = None) -> dict:
    """The whole comparison (see the module doc); the JSON-ready report."""
    say = progress or (lambda message: None)
    if not program.is_file():
        raise OptionError("no such file (give the C source of an MPI program)", where=str(program))
    smpicc, smpirun = smpi.find_tool("smpicc"), smpi.find_tool("smpirun")
    plan, numbering = plan_for(table_path, None, None, command="simulate")
    timeout = run_timeout_s if run_timeout_s is not None else RUN_TIMEOUT_S
    linked_runs = []
    for kind in choice.executors:
        if kind is ExecutorKind.DATAFLOW:
            linked_runs += [(f"tesearch (dataflow K={k} W={w})", {"TESEARCH_ALLTOALL_EXECUTOR": "dataflow",
                                                                   "TESEARCH_ALLTOALL_DATAFLOW": f"{k}:{w}"})
                            for k, w in choice.dataflow]
        else:
            linked_runs.append((f"tesearch ({kind.value})", {"TESEARCH_ALLTOALL_EXECUTOR": kind.value}))
    plain_runs = [(c.name, c.configuration) for c in mpi_contenders(list(KNOWN_ALGORITHMS), mpi_algorithms)]
    configuration = [*smpi.BASE_CONFIGURATION, f"network/model:{model.simgrid_name}", "smpi/display-timing:1"]
    report: dict = {"program": str(program), "table": str(table_path), "network": plan.network, "ranks": plan.ranks,
                    "T": plan.steps, "model": model.value, "bandwidth_Bps": bandwidth_bps, "latency_s": latency_s,
                    "simgrid": smpi.simgrid_version(), "computation": "not simulated", "runs": []}
    with tempfile.TemporaryDirectory(prefix="tesearch-program-") as scratch:
        work = Path(scratch)
        (work / "platform.xml").write_text(platform_xml(numbering, bandwidth_bps=bandwidth_bps, latency_s=latency_s))
        (work / "hostfile").write_text(hostfile(plan.ranks))
        source = work / "program.c"
        source.write_bytes(program.read_bytes())
        say(f"compiling {program.name} with smpicc, plain and with the MPI_Alltoall library of {plan.network} ...")
        _compile(smpicc, [source], work / "plain", work, program=program)
        _compile(smpicc, [source, *write_sources(plan, work)], work / "linked", work, program=program)
        base = [smpirun, "-platform", "platform.xml", "-hostfile", "hostfile", "-np", str(plan.ranks)]
        base += [f"--cfg={c}" for c in configuration]
        for name, names in linked_runs:
            say(f"{name} ...")
            record = _run(base + [str(work / "linked")], work, env_names=names, timeout_s=timeout, limits=limits,
                          deadline=deadline)
            report["runs"].append({"name": name, "build": "linked", "environment": names, **record})
        for name, cfg in plain_runs:
            say(f"{name} ...")
            record = _run(base + [f"--cfg={c}" for c in cfg] + [str(work / "plain")], work,
                          env_names={}, timeout_s=timeout, limits=limits, deadline=deadline)
            report["runs"].append({"name": name, "build": "plain", **record})
    timed = [r for r in report["runs"] if r["status"] == "ok"]
    for build in ("linked", "plain"):
        best = min((r for r in timed if r["build"] == build), key=lambda r: r["simulated_s"], default=None)
        if best is not None:
            report[f"best_{build}"] = {"name": best["name"], "simulated_s": best["simulated_s"]}
    linked = [r for r in report["runs"] if r["build"] == "linked"]
    report["verdict"] = "ok" if linked and all(r["status"] == "ok" for r in linked) else "failed"
    return report


def program_text(report: dict) -> str:
    """The comparison for people: each run's simulated time, calls on the schedule, and what the program printed."""
    lines = [f"{report['program']} on {report['network']} ({report['ranks']} ranks, SimGrid {report['simgrid']}, "
             f"{report['model']} model, {report['bandwidth_Bps']:.4g} B/s and {report['latency_s']:.3g} s per link; "
             f"computation not simulated)"]
    for run in report["runs"]:
        if run["status"] == "ok":
            what = f"{run['simulated_s'] * 1e3:.6g} ms simulated"
        else:
            what = f"FAILED: {run['reason']}"
        used = (f", {run['on_schedule']} of {run['alltoall_calls']} MPI_Alltoall calls (all ranks) on the "
                f"schedule" if "alltoall_calls" in run else "")
        lines.append(f"{run['name']:<34} {what}{used} ({seconds_label(run['wall_s'])} of wall clock)")
        lines += [f"    | {line}" for line in run["output"][:8]]
    for build, who in (("linked", "with the library"), ("plain", "on SMPI's algorithms")):
        if f"best_{build}" in report:
            best = report[f"best_{build}"]
            lines.append(f"best {who}: {best['name']}, {best['simulated_s'] * 1e3:.6g} ms")
    if report.get("best_linked") and report.get("best_plain"):
        ratio = report["best_plain"]["simulated_s"] / report["best_linked"]["simulated_s"]
        lines.append(f"the program's simulated time on SMPI's best algorithm over its time with the library: "
                     f"{ratio:.3g}")
    lines.append(f"verdict: {report['verdict']}")
    return "\n".join(lines)

