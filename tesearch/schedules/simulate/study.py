"""One ``tesearch simulate`` study: every contender timed on one SimGrid platform, compared only when complete.

The steps, in order (nothing is timed before the first four pass):

1. the table is verified (the caller loads it) and every schedule of the line-up is built and checked
   (:mod:`tesearch.schedules.simulate.lineup`; each a :class:`~tesearch.schedules.execute.hops.HopSchedule` from the contender
   registry), and written once as a tesearch-hops file;
2. every message size is checked against the memory it needs (:func:`size_plan`) and against what one MPI message
   can carry (a combined executor's largest bundle: :func:`message_plan`), before anything runs;
3. the **check run** of every schedule (8-byte blocks, lockstep frames): a broken program ends the study with
   faults naming rank, message and step; and one idle run, the simulator's memory without an exchange;
4. per size, every contender in its own smpirun: the table's, the non-optimal tables' and the table-free schedules
   under their executors, then MPI_Alltoall under every algorithm and selector, the likely winners first.  A run
   prints its simulated clock as it goes (while fewer than all ranks have finished, its time is at least that
   clock less its start), so a run whose lower bound passes the best time of its family so far is stopped: it
   **cannot be the best** of its family, which the record says with the bound;
5. per size: the best of each family, **only when the family is complete** (every contender has a time, does not
   apply, failed in SimGrid, or cannot be best); otherwise the family's comparison is *incomplete* and names what is
   missing, and no ratio or crossover is printed as fact.  Then what the table itself contributes: its optimality
   (the optimal table against non-optimal ones under the executors that keep a table's timing) and its words (the
   table's words against naive words, both in balanced supersteps under the combined executor).

Memory, per run: the most bytes any rank held beyond its send and receive buffers (blocks in transit, bundles:
counted by the executors) and the simulator's peak resident memory above the idle run, per rank (where SMPI
allocates a contender's temporary buffers for real, as it does MPI_Alltoall's).
"""

from __future__ import annotations

import enum
import math
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tesearch.running.errors import OptionError, SizeLimitError
from tesearch.schedules.execute.build import Flavour, build
from tesearch.schedules.execute.faults import by_cause
from tesearch.schedules.execute.hopsfile import programs_bytes, write_routes
from tesearch.schedules.execute.output import parse_driver_output
from tesearch.running.limits import format_bytes
from tesearch.schedules.simulate import smpi
from tesearch.schedules.execute.pipeline import Link, pipeline_for
from tesearch.schedules.simulate.lineup import (Choice, ContenderFamily, Entrant, Executor, ExecutorKind, Lineup,
                                                mpi_contenders)
from tesearch.schedules.simulate.platform import directed_links, hostfile, platform_xml
from tesearch.schedules.simulate.verdicts import RunStatus, crossover, size_label, summarise_size

#: bytes of each block in the check run
CHECK_BYTES = 8
#: real memory a checked run may use at most (payload buffers of all ranks, one process)
CHECK_BUDGET_BYTES = 1 << 30
#: a run's address space (all ranks' MPI_Alltoall buffers) must stay under this (x86-64 user space is 128 TiB)
ADDRESS_LIMIT_BYTES = 1 << 45
#: memory of the simulator per rank besides payload (SimGrid actor, stack pages touched, program arrays)
SIMULATOR_RANK_BYTES = 1 << 20
#: the most bytes one MPI message carries (an int count of MPI_BYTE)
MESSAGE_LIMIT_BYTES = (1 << 31) - 1
#: a run prints its simulated clock every this many milliseconds of CPU (its lower bound while it runs)
PROGRESS_MS = 5000
#: seconds between two looks at a running contender's clock (to stop it once it cannot be its family's best)
WATCH_EVERY_S = 1.0


class Model(str, enum.Enum):
    """SimGrid's network model: SMPI (calibrated per-size latency and bandwidth factors) or CM02 (none)."""

    SMPI = "smpi"
    CM02 = "cm02"

    @property
    def simgrid_name(self) -> str:
        """The value of --cfg=network/model."""
        return {"smpi": "SMPI", "cm02": "CM02"}[self.value]


@dataclass(frozen=True)
class Setup:
    """What a study simulates: sizes, platform, model, contenders, budgets."""

    sizes: tuple[int, ...]
    bandwidth_bps: float
    latency_s: float
    model: Model = Model.SMPI
    choice: Choice = Choice()
    mpi_algorithms: tuple[str, ...] | None = None  # None: all; () none
    run_timeout_s: float | None = None  # None: sized by run_timeout()
    trace: bool = False
    max_memory: int | None = None
    deadline: float | None = None  # time.monotonic() of the command's --timeout
    budget_s: float | None = None  # wall-clock seconds for the timed runs after the check runs (None: no limit)


def run_timeout(ranks: int, family: ContenderFamily) -> float:
    """Wall-clock seconds one run gets unless --run-timeout says otherwise: grown with the square of the ranks (a
    contender that sends to every rank at once makes that many flows); an MPI run can be cut long before, as soon
    as it cannot be the best."""
    scale = max(1.0, (ranks / 128) ** 2)
    return (600.0 if family is ContenderFamily.MPI else 300.0) * scale


# ------------------------------------------------------------------ units

_BANDWIDTH = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([kKMGT]?i?)(B|b)ps\s*")
_LATENCY = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(s|ms|us|ns)?\s*")
_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
           "Ki": 2.0 ** 10, "Mi": 2.0 ** 20, "Gi": 2.0 ** 30, "Ti": 2.0 ** 40}


def parse_bandwidth(text: str) -> float:
    """'10GBps' (bytes), '100Gbps' (bits), '1.5GiBps' -> bytes per second (SimGrid's units)."""
    match = _BANDWIDTH.fullmatch(str(text))
    if not match or match.group(2) not in _PREFIX:
        raise OptionError(f"--bandwidth must be like 10GBps, 100Gbps or 12.5GiBps, got {text!r}")
    value = float(match.group(1)) * _PREFIX[match.group(2)] / (8 if match.group(3) == "b" else 1)
    if not math.isfinite(value) or value <= 0:
        raise OptionError(f"--bandwidth must be > 0, got {text!r}")
    return value


def parse_latency(text: str) -> float:
    """'1us', '500ns', '0.2ms', '1e-6' (seconds) -> seconds."""
    match = _LATENCY.fullmatch(str(text))
    if not match:
        raise OptionError(f"--latency must be like 1us, 500ns or 2e-6 (seconds), got {text!r}")
    value = float(match.group(1)) * {None: 1.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[match.group(2)]
    if not math.isfinite(value) or value < 0:
        raise OptionError(f"--latency must be >= 0, got {text!r}")
    return value


def seconds_label(seconds: float) -> str:
    """A duration for people: '0.2 s', '90 s', '1.5 ms' (never '0 s' for a positive one)."""
    if seconds >= 10:
        return f"{seconds:.0f} s"
    if seconds >= 0.01:
        return f"{seconds:.3g} s"
    return f"{seconds * 1e3:.3g} ms"


# ------------------------------------------------------------------ sizes and memory

@dataclass(frozen=True)
class SizePlan:
    """Whether runs at one size compare contents (real buffers) or use shared allocations."""

    size: int
    checked: bool
    checked_bytes: int  # real memory of a checked run
    address_bytes: int  # address space of an MPI_Alltoall run (all ranks' send and receive buffers)


def simulator_base_bytes(ranks: int) -> int:
    """Memory the simulator needs for ``ranks`` ranks even with shared allocations (known from the order alone)."""
    return ranks * SIMULATOR_RANK_BYTES


def size_plan(ranks: int, hops_per_rank: int, size: int, *, max_memory: int | None) -> SizePlan:
    """The plan for one size; SizeLimitError (exit 2) when even shared allocations would not fit."""
    alltoall = 2 * ranks * ranks * size
    table = ranks * (2 * ranks + hops_per_rank) * size
    checked_bytes = max(alltoall, table) + simulator_base_bytes(ranks)
    budget = CHECK_BUDGET_BYTES if max_memory is None else min(CHECK_BUDGET_BYTES, max_memory // 2)
    if alltoall > ADDRESS_LIMIT_BYTES:
        raise SizeLimitError(f"blocks of {size_label(size)} on {ranks} ranks: MPI_Alltoall's buffers span "
                             f"{ranks} x {size_label(size)} x {ranks} x 2 = {format_bytes(alltoall)} of address "
                             f"space in the one simulator process, more than {format_bytes(ADDRESS_LIMIT_BYTES)}")
    base = simulator_base_bytes(ranks)
    if max_memory is not None and base > max_memory:
        raise SizeLimitError(f"{ranks} ranks need about {format_bytes(base)} in the simulator even with shared "
                             f"allocations, more than --max-memory {format_bytes(max_memory)}")
    return SizePlan(size, checked_bytes <= budget, checked_bytes, alltoall)


def message_plan(lineup: Lineup, sizes: tuple[int, ...]) -> None:
    """SizeLimitError (exit 2) when a contender's largest message exceeds what one MPI message carries: a combined
    executor sends a step's hops on one link as one message (its largest bundle times the block), the others one
    block per message."""
    for contender in lineup.contenders:
        executor = contender.executor
        schedule = lineup.schedules[contender.schedule]
        blocks = schedule.largest_bundle if executor.kind is ExecutorKind.COMBINED else 1
        for size in sizes:
            largest = blocks * size if not executor.pieces else min(executor.pieces, blocks * size)
            if largest > MESSAGE_LIMIT_BYTES:
                raise SizeLimitError(f"{contender.name} at {size_label(size)}: its largest message holds {blocks} "
                                     f"blocks, {format_bytes(blocks * size)}, more than one MPI message carries "
                                     f"({format_bytes(MESSAGE_LIMIT_BYTES)}); use smaller --bytes")


# ------------------------------------------------------------------ one study's directory and runs

@dataclass
class Workspace:
    """The temporary directory of a study: platform, hostfile, the schedules' files, the binary, smpirun."""

    directory: Path
    binary: Path
    smpirun: str
    ranks: int
    model: Model
    shared_blocksize: int = 1 << 20
    files: dict[str, Path] = field(default_factory=dict)  # schedule name -> its tesearch-hops file
    runs: int = 0
    latency_s: float = 1e-6  # the platform's link (the pipelined executor's rule reads it)
    bandwidth_bps: float = 1e10

    def resolved(self, executor: Executor, size: int) -> Executor:
        """``executor`` with the pipelined rule's pieces and window at ``size`` on this platform, if by rule."""
        if not executor.by_rule:
            return executor
        link = Link(self.latency_s, self.bandwidth_bps, smpi_factors=self.model is Model.SMPI)
        chosen = pipeline_for(size, link=link)
        return Executor(ExecutorKind.PIPELINED, inflight=chosen.inflight, split=chosen.split)

    def command(self, arguments: list[str], configuration: tuple[str, ...] = ()) -> list[str]:
        """The smpirun command line of one run of the executor with ``arguments``."""
        cfg = list(smpi.BASE_CONFIGURATION) + [f"network/model:{self.model.simgrid_name}",
                                               f"smpi/shared-malloc-blocksize:{self.shared_blocksize}"]
        cfg += list(configuration)
        return ([self.smpirun, "-no-privatize", "-platform", "platform.xml", "-hostfile", "hostfile",
                 "-np", str(self.ranks)] + [f"--cfg={c}" for c in cfg] + [str(self.binary)] + arguments)


def _blocksize(largest_buffer: int) -> int:
    """SMPI's shared-allocation block: a power of two covering the largest buffer, so each is one mapping."""
    size = 1 << 20
    while size < largest_buffer:
        size <<= 1
    return size


def prepare(lineup: Lineup, setup: Setup, directory: Path, numbering) -> Workspace:
    """Write the platform, hostfile and every schedule's file into ``directory``; compile the executor."""
    smpirun = smpi.find_tool("smpirun")
    binary = build(Flavour.SIMGRID)
    (directory / "platform.xml").write_text(platform_xml(numbering, bandwidth_bps=setup.bandwidth_bps,
                                                          latency_s=setup.latency_s))
    (directory / "hostfile").write_text(hostfile(numbering.size))
    files = {}
    for number, (name, schedule) in enumerate(lineup.schedules.items()):
        files[name] = write_routes(schedule, directory / f"schedule-{number}.hops")
    if lineup.programs_override is not None:  # the tests' hook: the table's programs as a file gives them
        files["table"].write_bytes(programs_bytes(lineup.programs_override, numbering))
    largest_bundle = max((s.largest_bundle for s in lineup.schedules.values()), default=1)
    largest = max(setup.sizes) * max(numbering.size, largest_bundle)
    return Workspace(directory, binary, smpirun, numbering.size, setup.model, _blocksize(largest), files,
                     latency_s=setup.latency_s, bandwidth_bps=setup.bandwidth_bps)


def _arguments(space: Workspace, contender: Entrant | None, size: int, *, checked: bool,
               trace: bool = False, mode: str = "run") -> list[str]:
    args = [f"mode={mode}", f"bytes={size}", f"check={1 if checked else 0}", "label=run", f"progress={PROGRESS_MS}"]
    if contender is not None and contender.schedule is not None:
        args.append(f"schedule={space.files[contender.schedule]}")
        if mode == "run":
            args += space.resolved(contender.executor, size).arguments()
    if trace:
        args.append(f"trace={space.directory}")
    return args


def run_one(space: Workspace, contender: Entrant, size: int, *, checked: bool, setup: Setup,
            cut_above: float | None = None, budget_end: float | None = None, trace: bool = False) -> dict:
    """One smpirun run of one contender at one size, as a record: status, simulated seconds, memory, wall time.

    ``cut_above``: the best time of the contender's family so far; the run is stopped once its simulated lower bound
    passes it (status "cannot be best").  ``budget_end`` (time.monotonic()) cuts the run where the study's --budget
    ends; the record says so.
    """
    mode = "alltoall" if contender.family is ContenderFamily.MPI else "run"
    command = space.command(_arguments(space, contender, size, checked=checked, trace=trace, mode=mode),
                            contender.configuration)
    timeout = setup.run_timeout_s if setup.run_timeout_s is not None else run_timeout(space.ranks, contender.family)
    if setup.deadline is not None:
        timeout = min(timeout, max(setup.deadline - time.monotonic(), 0.1))
    cut_by_budget = budget_end is not None and budget_end - time.monotonic() < timeout
    if cut_by_budget:
        timeout = max(budget_end - time.monotonic(), 0.1)

    def watch(text: str) -> str | None:
        if cut_above is None:
            return None
        bound = parse_driver_output(text).at_least_s(space.ranks)
        if bound is not None and bound > cut_above:
            return f"{bound:.9e}"
        return None

    finished = smpi.run_smpirun(command, work=space.directory, timeout_s=timeout, max_memory=setup.max_memory,
                                deadline=setup.deadline, watch=watch, watch_every_s=WATCH_EVERY_S)
    space.runs += 1
    output = parse_driver_output(finished.stdout)
    record = {"contender": contender.name, "family": contender.family.value, "bytes": size,
              "wall_s": round(finished.wall_s, 3), "checked": checked, "peak_rss_bytes": finished.peak_rss_bytes}
    if contender.executor is not None and contender.executor.kind is ExecutorKind.PIPELINED:
        used = space.resolved(contender.executor, size)  # the pieces per hop and window this run had
        record.update(split=used.split, inflight=used.inflight)
    result = output.results.get("run")
    if result is not None and finished.status == 0:
        record.update(status=RunStatus.OK.value, seconds=result["seconds"], checked=result["checked"],
                      mismatches=result["mismatches"], faults=[f.to_json() for f in output.faults],
                      start_skew_s=result["start_skew_s"])
        if contender.family is not ContenderFamily.MPI:
            record.update(held_bytes=result["held_bytes"], held_blocks=result["held_blocks"],
                          messages=result["messages"])
        elif result["mismatches"]:  # SimGrid's own algorithm delivered wrong blocks: no time to compare
            record.update(status=RunStatus.FAILED.value, wrong_blocks=result["mismatches"], mismatches=0,
                          reason=f"delivered {result['mismatches']} block(s) that differ from what their origins "
                                 f"sent (this algorithm is broken in SimGrid {smpi.simgrid_version()})")
        return record
    bound = output.at_least_s(space.ranks)
    if bound is not None:
        record["at_least_s"] = bound
    if finished.reason:
        record.update(status=RunStatus.CANNOT_BE_BEST.value,
                      reason=f"stopped after {seconds_label(finished.wall_s)} of wall clock: its simulated time was "
                             f"already at least {bound * 1e3:.4g} ms, above its family's best {cut_above * 1e3:.4g} ms")
        return record
    if finished.timed_out:
        note = "; all that was left of the study's --budget" if cut_by_budget else ""
        reach = f"; its simulated time was at least {bound * 1e3:.4g} ms by then" if bound is not None else ""
        record.update(status=RunStatus.TOO_SLOW.value,
                      reason=f"no result within {seconds_label(timeout)} of wall clock{note}{reach}")
        return record
    reason = smpi.failure_reason(finished)
    if finished.over_memory:
        record.update(status=RunStatus.FAILED.value, reason=f"memory: {reason} (SMPI allocates this contender's "
                                                            f"temporary buffers for real)")
        return record
    applicable = not re.search(r"can't be used|cannot be used|power of two|not a power|number of processes"
                               r"|requires|only works|must be", reason, re.IGNORECASE)
    record.update(status=(RunStatus.FAILED if applicable else RunStatus.NOT_APPLICABLE).value, reason=reason)
    return record


#: the check run's sends are never detached: SimGrid's detached (eager) path for small messages costs it 3x the
#: wall clock on 1024 ranks (docs/notes/simulate-findings.md); the check run's simulated time is not reported
CHECK_CONFIGURATION = ("smpi/send-is-detached-thresh:0",)


def check_run(space: Workspace, setup: Setup, schedule: str) -> dict:
    """The lockstep check of one schedule's programs (8-byte blocks): its faults, none when the schedule is right."""
    args = ["mode=check", f"bytes={CHECK_BYTES}", "check=1", "label=run", f"schedule={space.files[schedule]}"]
    command = space.command(args, CHECK_CONFIGURATION)
    timeout = run_timeout(space.ranks, ContenderFamily.TABLE)  # --run-timeout is the timed runs'; a check must finish
    finished = smpi.run_smpirun(command, work=space.directory, timeout_s=timeout, max_memory=setup.max_memory,
                                deadline=setup.deadline)
    space.runs += 1
    output = parse_driver_output(finished.stdout)
    result = output.results.get("run")
    if result is None or finished.status != 0:
        raise smpi.SimulationFailed(f"the check run of {schedule} did not finish: {smpi.failure_reason(finished)}")
    faults = sorted((f.to_json() for f in output.faults), key=by_cause)
    return {"schedule": schedule, "bytes": CHECK_BYTES, "fault_count": result["mismatches"], "faults": faults,
            "ok": result["mismatches"] == 0}


def idle_run(space: Workspace, setup: Setup) -> int:
    """The simulator's peak resident memory for the study's ranks without an exchange (bytes; 0 if unknown)."""
    finished = smpi.run_smpirun(space.command(["mode=idle", "bytes=8", "check=0", "label=run"]),
                                work=space.directory, timeout_s=600, max_memory=setup.max_memory,
                                deadline=setup.deadline)
    return finished.peak_rss_bytes if finished.status == 0 else 0


def link_bound_s(bound_steps: float, size: int, bandwidth_bps: float) -> float:
    """The link-time bound: the table's lower bound on steps times one block's time on one link."""
    return bound_steps * size / bandwidth_bps


# ------------------------------------------------------------------ the study

def time_sizes(space: Workspace, contenders: list[Entrant], plans: list[SizePlan], setup: Setup,
               bound_steps: float, counting_steps: float, idle: int, say: Callable[[str], None]) -> list[dict]:
    """Every contender at every size, in order; a run is cut once it cannot be its family's best so far."""
    ranks = space.ranks
    per_size, all_runs = [], []
    budget_end = None if setup.budget_s is None else time.monotonic() + setup.budget_s
    for plan in plans:
        runs: list[dict] = []
        best: dict[str, float] = {}
        for contender in contenders:
            if budget_end is not None and time.monotonic() >= budget_end - 1.0:
                runs.append({"contender": contender.name, "family": contender.family.value, "bytes": plan.size,
                             "status": RunStatus.NOT_RUN.value, "checked": False,
                             "reason": f"the study's --budget of {seconds_label(setup.budget_s)} (wall clock, "
                                       f"after the check runs) was spent before its turn"})
                continue
            say(f"{size_label(plan.size)}: {contender.name} ...")
            record = run_one(space, contender, plan.size, checked=plan.checked, setup=setup,
                             cut_above=best.get(contender.family.value), budget_end=budget_end)
            if record["status"] == RunStatus.OK.value:
                family = contender.family.value
                best[family] = min(best.get(family, math.inf), record["seconds"])
            runs.append(record)
        all_runs.append((plan, runs))
    broken = distrust_broken_algorithms([run for _, runs in all_runs for run in runs])
    for plan, runs in all_runs:
        summary = summarise_size(plan.size, runs, link_bound_s(bound_steps, plan.size, setup.bandwidth_bps),
                                 idle, ranks)
        summary["counting_bound_s"] = link_bound_s(counting_steps, plan.size, setup.bandwidth_bps)
        per_size.append(summary)
    if broken:
        say(f"not compared (wrong blocks in a checked run): {', '.join(sorted(broken))}")
    return per_size


def distrust_broken_algorithms(runs: list[dict]) -> set[str]:
    """MPI algorithms that delivered wrong blocks in a checked run are failed at every size of the study, their
    unchecked times included (SimGrid 3.32's pair_rma delivers nearly every block wrong); returns their names."""
    broken = {r["contender"]: r["bytes"] for r in runs if r["family"] == ContenderFamily.MPI.value and r.get("wrong_blocks")}
    for run in runs:
        if run["contender"] in broken and run["status"] == RunStatus.OK.value:
            run.update(status=RunStatus.FAILED.value,
                       reason=f"not trusted: it delivered wrong blocks in the checked run at "
                              f"{size_label(broken[run['contender']])}")
    return set(broken)


def simulate(lineup: Lineup, numbering, *, network: str, steps: int, bound_steps: int, counting_steps: float,
             setup: Setup, progress: Callable[[str], None] | None = None, trace_schedule: str | None = None) -> dict:
    """The whole study of a built line-up (see the module doc); returns the JSON-ready report.

    ``bound_steps`` is the table's lower bound on steps (counting or per-letter, the larger); ``counting_steps`` the
    counting bound without rounding up (sum of distances / letters), whose time form holds for every schedule in
    SimGrid's fluid model (docs/simulate.md).
    """
    say = progress or (lambda message: None)
    ranks = numbering.size
    hops = max((s.hops for s in lineup.schedules.values()), default=0)
    plans = [size_plan(ranks, hops, size, max_memory=setup.max_memory) for size in setup.sizes]
    message_plan(lineup, setup.sizes)
    links = directed_links(numbering)
    report: dict = {
        "network": network, "ranks": ranks, "T": steps, "bound_steps": bound_steps, "counting_steps": counting_steps,
        "links": len(links), "hops_per_rank": hops, "model": setup.model.value,
        "bandwidth_Bps": setup.bandwidth_bps, "latency_s": setup.latency_s,
        "run_timeout_s": setup.run_timeout_s, "schedules": list(lineup.built.values()), "left_out": list(lineup.left_out),
        "simgrid": smpi.simgrid_version(),
    }
    with tempfile.TemporaryDirectory(prefix="tesearch-simulate-") as scratch:
        space = prepare(lineup, setup, Path(scratch), numbering)
        checks = []
        for name in lineup.schedules:
            say(f"checking {name} on {ranks} simulated ranks ({len(links)} links) ...")
            checks.append(check_run(space, setup, name))
        report["checks"] = checks
        if not all(c["ok"] for c in checks):
            report["verdict"] = "fault"
            return report
        idle = idle_run(space, setup)
        report["idle_rss_bytes"] = idle
        contenders = list(lineup.contenders)
        if setup.mpi_algorithms != ():
            available = smpi.alltoall_algorithms(space.smpirun, space.binary, space.directory)
            contenders += mpi_contenders(available, setup.mpi_algorithms)
            report["mpi_available"] = [c.name for c in mpi_contenders(available, None)]
        report["contenders"] = [c.to_json() for c in contenders]
        per_size = time_sizes(space, contenders, plans, setup, bound_steps, counting_steps, idle, say)
        report["sizes"] = per_size
        report["crossover"] = crossover(per_size)
        mismatches = sum(r.get("mismatches", 0) for s in per_size for r in s["runs"] if r["family"] != ContenderFamily.MPI.value)
        report["verdict"] = "fault" if mismatches else "ok"
        if setup.trace:
            from tesearch.schedules.simulate.trace import trace_document

            traced = next((c for c in lineup.contenders if c.schedule == trace_schedule), lineup.contenders[0])
            size = max(setup.sizes)
            say(f"tracing {traced.name} at {size_label(size)} ...")
            record = run_one(space, traced, size, checked=False, setup=setup, trace=True)
            if record["status"] != RunStatus.OK.value:
                raise smpi.SimulationFailed(f"the traced run failed: {record.get('reason')}")
            report["trace"] = trace_document(space.directory, lineup.schedules[traced.schedule], numbering,
                                             executor=traced.executor.name, size=size, seconds=record["seconds"],
                                             network=network)
        report["smpirun_runs"] = space.runs
    return report
