"""``tesearch simulate TABLE --program FILE.c``: a user's own MPI program timed under SimGrid with the table's
MPI_Alltoall linked in, beside the same program on SMPI's own MPI_Alltoall algorithms.

The program is compiled with smpicc and linked with the MPI_Alltoall library's sources (``tesearch library``'s
``te_pmpi.c`` with the table's schedule compiled in, :mod:`tesearch.schedules.library`).  It runs under smpirun on
the study's platform (:mod:`tesearch.schedules.simulate.platform`: one host per node, one link per directed edge, the
given bandwidth, latency and network model) with one rank per node: per executor asked for (``--executor``,
``--dataflow``: ``TESEARCH_ALLTOALL_EXECUTOR`` and ``TESEARCH_ALLTOALL_DATAFLOW`` at every size), and **plain**, per
MPI_Alltoall algorithm or selector of SMPI asked for (``--mpi-algorithms``), with ``TESEARCH_ALLTOALL_EXECUTOR=pmpi``:
every call goes straight to PMPI_Alltoall, SMPI's algorithm, and the library only keeps its record.  Computation is
not simulated (``smpi/simulate-computation:no``), so the times are the program's communication.

Nothing the program prints decides anything.  Each linked executor runs twice: a **check run**
(``TESEARCH_ALLTOALL_CHECK=1``: the library runs every call it puts on the schedule again with PMPI_Alltoall and
compares the data) and a **timed run** without the check.  In both the library writes, per rank, a record at
MPI_Finalize (te_pmpi.c's run record: calls, calls on the schedule, calls compared and those that differ, a random
word of the run) to a fresh path in a private directory; an executor is ``ok`` only when both runs exited 0 and every
rank's record is there with the run's word, no call differs and every call on the schedule was compared.  A rank
that aborts, hangs (SimGrid's deadlock, or the run's time budget) or leaves without MPI_Finalize writes no record.
The simulated time is SimGrid's own, which smpirun logs to a file of its own (never the program's output).  A
program that makes no MPI_Alltoall call has nothing of the library to time: exit 2.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tesearch.running.errors import OptionError
from tesearch.running.files import read_bytes
from tesearch.schedules.execute.build import BuildFailed
from tesearch.schedules.library import plan_for, write_sources
from tesearch.running.limits import Limits, phase
from tesearch.running.processes import EndedBy, run_captured
from tesearch.schedules.simulate import smpi
from tesearch.schedules.simulate.lineup import KNOWN_ALGORITHMS, Choice, ExecutorKind, mpi_contenders
from tesearch.schedules.simulate.platform import hostfile, platform_xml
from tesearch.schedules.simulate.study import Model, seconds_label

#: wall-clock seconds one run of the program gets unless --run-timeout says otherwise
RUN_TIMEOUT_S = 600.0
#: lines of the program's output kept per run
OUTPUT_LINES = 40
#: the largest C source accepted
MAX_SOURCE_BYTES = 16 << 20
#: SimGrid's own line (category smpi_utils, logged to a file of the run with the format '%m%n')
_SIMULATED = re.compile(r"^Simulated time: ([0-9.eE+-]+) seconds", re.MULTILINE)
#: the same words anywhere in what the program printed: its own (SimGrid's line goes to the run's log file)
_SIMULATED_ANYWHERE = re.compile(r"Simulated time\W.*")
#: SMPI's warning when a rank calls MPI_Abort: [host:RANK:(actor) time] ...
_ABORT = re.compile(r"^\[[^:\]]+:(\d+):\(\d+\)[^\]]*\] .*MPI_Abort was called", re.MULTILINE)
#: te_pmpi.c's line before it aborts the program
_LIBRARY_FAILED = re.compile(r"^tesearch_alltoall: (MPI_Alltoall on the schedule failed: .*)$", re.MULTILINE)
#: the SMPI algorithms' runs: the same binary, every call sent to PMPI_Alltoall (SMPI's algorithm), with the record
PLAIN = {"TESEARCH_ALLTOALL_EXECUTOR": "pmpi"}
#: the SimGrid log category that says the simulated time
TIMING_CATEGORY = "smpi_utils"
#: one rank's run record (te_pmpi.c, "the run record")
_RECORD = re.compile(r"tesearch-record 1 (\S+) rank (\d+) of (\d+) calls (\d+) scheduled (\d+) checked (\d+) "
                     r"mismatches (\d+) unchecked (\d+) wtime (\S+)\n\Z")
#: ranks named in a reason before '...'
RANKS_SHOWN = 8
#: the library's record variables: set per run here, never taken from the caller's environment
RECORD_VARIABLES = ("TESEARCH_ALLTOALL_RECORD", "TESEARCH_ALLTOALL_NONCE", "TESEARCH_ALLTOALL_CHECK")


@dataclass(frozen=True)
class Evidence:
    """What the library's records of one run say, summed over the ranks (``missing``: ranks without a record)."""

    missing: tuple[int, ...]
    forged: tuple[int, ...]  # ranks whose record is not the library's (another word, malformed)
    calls: int = 0
    scheduled: int = 0
    checked: int = 0
    mismatches: int = 0
    unchecked: int = 0
    differing_ranks: int = 0


def _ranks_text(ranks: tuple[int, ...]) -> str:
    shown = ", ".join(map(str, ranks[:RANKS_SHOWN]))
    return shown + (f" and {len(ranks) - RANKS_SHOWN} more" if len(ranks) > RANKS_SHOWN else "")


def read_evidence(path: Path, nonce: str, ranks: int) -> Evidence:
    """The records ``PATH.RANK`` of ranks 0..ranks-1 that the library wrote at MPI_Finalize with the word ``nonce``."""
    missing, forged, totals, differing = [], [], [0] * 5, 0
    for rank in range(ranks):
        try:
            text = Path(f"{path}.{rank}").read_text(encoding="ascii")
        except FileNotFoundError:
            missing.append(rank)
            continue
        except (OSError, UnicodeDecodeError):
            forged.append(rank)
            continue
        match = _RECORD.match(text)
        if match is None or match.group(1) != nonce or int(match.group(2)) != rank or int(match.group(3)) != ranks:
            forged.append(rank)
            continue
        numbers = [int(match.group(i)) for i in range(4, 9)]
        totals = [a + b for a, b in zip(totals, numbers)]
        differing += numbers[3] > 0
    return Evidence(tuple(missing), tuple(forged), *totals, differing_ranks=differing)


def evidence_problem(evidence: Evidence, *, checked: bool) -> str | None:
    """Why the records do not show a run that ended well (None when they do)."""
    if evidence.missing:
        return (f"rank(s) {_ranks_text(evidence.missing)} did not reach MPI_Finalize (no record of the library: the "
                f"rank aborted, hung or left early)")
    if evidence.forged:
        return f"the library's record of rank(s) {_ranks_text(evidence.forged)} is not the one this run asked for"
    if evidence.mismatches:
        return (f"ranks whose MPI_Alltoall on the schedule differs from PMPI_Alltoall: {evidence.differing_ranks} "
                f"({evidence.mismatches} call(s) over all ranks)")
    if checked and evidence.unchecked:
        return f"{evidence.unchecked} call(s) on the schedule could not be compared with PMPI_Alltoall"
    if checked and evidence.checked != evidence.scheduled:
        return (f"{evidence.scheduled} call(s) ran on the schedule but {evidence.checked} were compared with "
                f"PMPI_Alltoall")
    return None


def read_program(program: Path) -> bytes:
    """The C source's bytes; one line and exit 2 for what is not a non-empty regular file."""
    data = read_bytes(program, OptionError, max_bytes=MAX_SOURCE_BYTES)
    if not data.strip():
        raise OptionError("is empty (give the C source of an MPI program)", where=str(program))
    return data


def _compile(smpicc: str, arguments: list[str], work: Path, *, program: Path, alone: bool) -> None:
    try:
        with phase(f"compile {program.name} with smpicc" + ("" if alone else " and the MPI_Alltoall library")):
            done = run_captured([smpicc, "-O2", "-std=gnu11", *arguments], cwd=work, timeout_s=300, phase="build")
    except OSError as exc:
        raise BuildFailed(f"cannot run {smpicc}: {exc.strerror or exc}") from None
    if done.status == 0:
        return
    tail = " | ".join(line.strip() for line in (done.stderr or done.stdout).strip().splitlines()[-3:])
    if alone:  # the user's program alone: their input
        raise OptionError(f"smpicc cannot compile it: {tail or 'no message'}", where=str(program))
    raise BuildFailed(f"smpicc cannot link {program.name} with the MPI_Alltoall library: {tail}")


@dataclass(frozen=True)
class RunSetup:
    """What every smpirun of one comparison shares."""

    base: tuple[str, ...]  # smpirun, the platform, the ranks and the configuration
    work: Path
    records: Path  # the private directory of the run records and SimGrid's timing logs
    ranks: int
    timeout_s: float
    limits: Limits
    deadline: float | None


def _run(setup: RunSetup, arguments: list[str], *, env_names: dict[str, str], library: bool = True,
         check: bool = False) -> dict:
    """One smpirun of the program: status (with the reason of a failure), SimGrid's simulated time, what the program
    printed, and the library's records (every rank finished, calls, calls on the schedule)."""
    word = secrets.token_hex(16)
    record_path = setup.records / secrets.token_hex(12)
    timing_log = setup.records / f"{secrets.token_hex(12)}.log"
    names = dict(env_names)
    if library:
        names.update(TESEARCH_ALLTOALL_RECORD=str(record_path), TESEARCH_ALLTOALL_NONCE=word)
        if check:
            names["TESEARCH_ALLTOALL_CHECK"] = "1"
    environment = {key: value for key, value in os.environ.items() if key not in RECORD_VARIABLES}
    environment.update(names)
    command = [*setup.base, f"--log={TIMING_CATEGORY}.app:file:{timing_log}", f"--log={TIMING_CATEGORY}.fmt:%m%n",
               *arguments]
    with phase("simulate the program with smpirun" + (" (check run)" if check else "")):
        done = run_captured(command, cwd=setup.work, env=environment, timeout_s=setup.timeout_s,
                            deadline=setup.deadline, phase="simulate", max_memory=setup.limits.max_memory)
    record: dict = {"wall_s": round(done.run.wall_s, 3), "status": "ok"}
    lines = done.stdout.splitlines()
    record["output"] = lines[:OUTPUT_LINES] + ([f"... ({len(lines) - OUTPUT_LINES} more lines)"]
                                               if len(lines) > OUTPUT_LINES else [])
    try:
        times = _SIMULATED.findall(timing_log.read_text(errors="replace"))
    except OSError:
        times = []
    problem = None
    if library:
        evidence = read_evidence(record_path, word, setup.ranks)
        if not evidence.missing and not evidence.forged:
            record.update(alltoall_calls=evidence.calls, on_schedule=evidence.scheduled)
            if check:
                record.update(compared=evidence.checked, differ=evidence.mismatches)
        problem = evidence_problem(evidence, checked=check)
    finished = smpi.Finished(done.status, done.stdout, done.stderr, done.run.wall_s, done.run.peak_rss_bytes,
                             done.run.peak_pss_bytes, done.run.ended_by)
    if done.run.ended_by is not EndedBy.EXIT:
        problem = smpi.failure_reason(finished)
    elif done.status != 0:
        problem = f"exit status {done.status}: {smpi.failure_reason(finished)}"
    elif problem is not None and evidence.missing:  # exit 0: SimGrid's own message says why, when it has one
        said = smpi.failure_reason(finished)
        problem = f"{problem}; {said}" if said and said != "no output" else problem
    elif problem is None and len(times) != 1:
        problem = "SimGrid stated no simulated time"
    if problem is None and (forged := _SIMULATED_ANYWHERE.search(done.stdout + done.stderr)):
        problem = (f"the program printed a simulated time of its own ({forged.group(0).strip()[:80]!r}); SimGrid's "
                   f"is {float(times[0]):.6g} s")
    if library_failed := _LIBRARY_FAILED.search(done.stderr):
        problem = f"the library aborted the program: {library_failed.group(1).strip()[:200]}"
    elif (aborted := _ABORT.search(done.stderr)) and (problem is None or "MPI_Abort" not in problem):
        problem = f"rank {aborted.group(1)} called MPI_Abort" + (f"; {problem}" if problem else "")
    if problem is not None:
        record.update(status="failed", reason=problem)
    else:
        record["simulated_s"] = float(times[0])
    return record


def _linked(setup: RunSetup, binary: Path, names: dict[str, str]) -> dict:
    """An executor's check run and, when it ended well, its timed run, as one entry."""
    checked = _run(setup, [str(binary)], env_names=names, library=True, check=True)
    if checked["status"] != "ok":
        return {**checked, "reason": f"check run: {checked['reason']}", "check_wall_s": checked["wall_s"]}
    if checked["alltoall_calls"] == 0:
        raise OptionError("the program made no MPI_Alltoall call (the library's record of every rank): nothing of "
                          "the library to time")
    timed = _run(setup, [str(binary)], env_names=names, library=True)
    entry = {**timed, "compared": checked["compared"], "differ": checked["differ"],
             "check_wall_s": checked["wall_s"]}
    if timed["status"] != "ok":
        entry["reason"] = f"timed run: {timed['reason']}"
    elif (timed["alltoall_calls"], timed["on_schedule"]) != (checked["alltoall_calls"], checked["on_schedule"]):
        entry.update(status="failed", reason=f"the timed run made {timed['alltoall_calls']} calls "
                     f"({timed['on_schedule']} on the schedule), the check run {checked['alltoall_calls']} "
                     f"({checked['on_schedule']}): its calls were not all compared")
        entry.pop("simulated_s", None)
    return entry


def simulate_program(program: Path, table_path: Path, *, bandwidth_bps: float, latency_s: float, model: Model,
                     choice: Choice, mpi_algorithms: tuple[str, ...] | None, run_timeout_s: float | None,
                     limits: Limits, deadline: float | None,
                     progress: Callable[[str], None] | None = None) -> dict:
    """The whole comparison (see the module doc); the JSON-ready report."""
    say = progress or (lambda message: None)
    source_bytes = read_program(program)
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
        records = work / "records"
        records.mkdir(mode=0o700)
        (work / "platform.xml").write_text(platform_xml(numbering, bandwidth_bps=bandwidth_bps, latency_s=latency_s))
        (work / "hostfile").write_text(hostfile(plan.ranks))
        source = work / "program.c"
        source.write_bytes(source_bytes)
        say(f"compiling {program.name} with smpicc and the MPI_Alltoall library of {plan.network} ...")
        _compile(smpicc, ["-c", "-o", "program.o", str(source)], work, program=program, alone=True)
        _compile(smpicc, ["-o", str(work / "linked"), "program.o", *map(str, write_sources(plan, work))], work,
                 program=program, alone=False)
        base = [smpirun, "-platform", "platform.xml", "-hostfile", "hostfile", "-np", str(plan.ranks)]
        base += [f"--cfg={c}" for c in configuration]
        setup = RunSetup(tuple(base), work, records, plan.ranks, timeout, limits, deadline)
        for name, names in linked_runs:
            say(f"{name}: a check run against PMPI_Alltoall, then a timed run ...")
            record = _linked(setup, work / "linked", names)
            report["runs"].append({"name": name, "build": "linked", "environment": names, **record})
        for name, cfg in plain_runs:
            say(f"{name} ...")
            record = _run(setup, [f"--cfg={c}" for c in cfg] + [str(work / "linked")], env_names=PLAIN, library=True)
            for key in ("alltoall_calls", "on_schedule"):  # every call went to PMPI_Alltoall
                record.pop(key, None)
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
        if "compared" in run and run["status"] == "ok":
            used += f", {run['compared']} compared with PMPI_Alltoall: {run['differ']} differ"
        lines.append(f"{run['name']:<34} {what}{used} ({seconds_label(run['wall_s'])} of wall clock)")
        lines += [f"    | {line}" for line in run["output"][:8]]
    for build, who in (("linked", "with the library"), ("plain", "on SMPI's algorithms")):
        if f"best_{build}" in report:
            best = report[f"best_{build}"]
            lines.append(f"best {who}: {best['name']}, {best['simulated_s'] * 1e3:.6g} ms")
    if report.get("best_linked") and report.get("best_plain") and report["best_linked"]["simulated_s"] > 0:
        ratio = report["best_plain"]["simulated_s"] / report["best_linked"]["simulated_s"]
        lines.append(f"the program's simulated time on SMPI's best algorithm over its time with the library: "
                     f"{ratio:.3g}")
    lines.append(f"verdict: {report['verdict']}")
    return "\n".join(lines)

