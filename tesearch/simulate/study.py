"""One ``tesearch simulate`` study: the table and every MPI_Alltoall contender, timed on one SimGrid platform.

The steps, in order (nothing is simulated before the first three pass):

1. the table is verified (Theorem 1; the caller loads it) and its lower bound on steps taken;
2. every message size is checked against the memory it needs (:func:`size_plan`): a run compares
   every delivered block with what its origin sent when its buffers fit the check budget, and uses
   SMPI's shared allocations (no payload memory, no content check) otherwise; a size whose address
   space would not fit at all is refused before anything runs, with the figure;
3. the **check run** (8-byte blocks, lockstep frames to every neighbour, each hop carrying its origin and
   destination) runs the table's programs once: a broken program (a hop late, to the wrong neighbour,
   dropped) ends the study with faults naming rank, message and step;
4. for each size, the table under each executor (``step``, ``dataflow``, and ``combined`` under each superstep
   map asked for: :mod:`tesearch.simulate.combine`) and MPI_Alltoall under every
   algorithm and library selector asked for, each in its own smpirun with its own time budget.  An
   algorithm that does not apply to the rank count is recorded as "not applicable" with SimGrid's
   reason, one that crashes as "failed", one that runs out of its budget as "too slow" (and is not
   tried again at larger sizes, which cost as many simulated events);
5. per size: the best MPI contender, the best table executor, the ratio, the link-time bound
   ``L * bytes / bandwidth`` (``L`` the table's lower bound on steps: docs/simulate.md says why no
   schedule, buffered routings included, can beat it on this platform), every time as a multiple of
   it, and the crossover: the sizes between which the winner changes, and which MPI algorithm wins
   below.
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

from tesearch.errors import OptionError, SizeLimitError
from tesearch.limits import format_bytes
from tesearch.programs.export import stream_programs
from tesearch.programs.schedule import CompiledSchedule
from tesearch.simulate import smpi
from tesearch.simulate.combine import (BALANCED, SuperstepMap, SuperstepRule, bundle_floor, check_superstep_map,
                                       write_superstep_map)
from tesearch.simulate.inputs import write_rank_files
from tesearch.simulate.platform import directed_links, hostfile, platform_xml

#: bytes of each block in the check run
CHECK_BYTES = 8
#: real memory a checked run may use at most (payload buffers of all ranks, one process)
CHECK_BUDGET_BYTES = 1 << 30
#: a run's address space (all ranks' MPI_Alltoall buffers) must stay under this (x86-64 user space is 128 TiB)
ADDRESS_LIMIT_BYTES = 1 << 45
#: memory of the simulator per rank besides payload (SimGrid actor, stack pages touched, program arrays)
RANK_BASE_BYTES = 1 << 20
#: MPI_Alltoall choices that are not one algorithm (they pick per size) or that run every algorithm
SELECTORS = ("ompi", "mpich", "mvapich2", "impi")
SKIPPED_ALGORITHMS = ("automatic",)
#: the check run's fault kinds, causes first (as tesearch run --mpi lists them)
FAULT_ORDER = ("late", "early", "wrong neighbour", "not a neighbour", "link overloaded", "dropped", "not held",
               "held too long", "duplicate", "block missing", "block differs")


class Model(str, enum.Enum):
    """SimGrid's network model: SMPI (calibrated per-size latency and bandwidth factors) or CM02 (none)."""

    SMPI = "smpi"
    CM02 = "cm02"

    @property
    def simgrid_name(self) -> str:
        """The value of --cfg=network/model."""
        return {"smpi": "SMPI", "cm02": "CM02"}[self.value]


class Executor(str, enum.Enum):
    """How the C program runs the table's schedule."""

    STEP = "step"  # post every hop of a step, wait for all of them
    DATAFLOW = "dataflow"  # receives posted early, each forward sent when its block has arrived
    COMBINED = "combined"  # the table's paths in supersteps, one message per link per superstep (combine.py)


class Status(str, enum.Enum):
    """How one contender's run at one size ended."""

    OK = "ok"
    NOT_APPLICABLE = "not applicable"
    FAILED = "failed"
    TOO_SLOW = "too slow"
    NOT_RUN = "not run"  # the study's --budget was spent before its turn


@dataclass(frozen=True)
class Contender:
    """One thing timed at every size: the table under an executor, or MPI_Alltoall under a choice."""

    name: str
    kind: str  # "table" or "mpi"
    mode: str  # the C program's MODE
    configuration: tuple[str, ...] = ()  # extra --cfg= values
    parameter: int | None = None  # the C program's PARAM (combined: the number of its superstep map)

    def to_json(self) -> dict:
        """Name and kind."""
        return {"name": self.name, "kind": self.kind}


@dataclass(frozen=True)
class Setup:
    """What a study simulates: sizes, platform, model, contenders, budgets."""

    sizes: tuple[int, ...]
    bandwidth_bps: float
    latency_s: float
    model: Model = Model.SMPI
    executors: tuple[Executor, ...] = (Executor.STEP, Executor.DATAFLOW, Executor.COMBINED)
    combine: tuple[SuperstepRule, ...] = (BALANCED,)  # the combined executor's superstep maps (combine.py)
    mpi_algorithms: tuple[str, ...] | None = None  # None: all; () none
    run_timeout_s: float = 300.0
    window: int = 1
    trace: bool = False
    max_memory: int | None = None
    deadline: float | None = None  # time.monotonic() of the command's --timeout
    budget_s: float | None = None  # wall-clock seconds for the timed runs after the check run (None: no limit)


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


def size_label(size: int) -> str:
    """8 B, 4 KiB, 64 KiB, 1 MiB."""
    return format_bytes(size)


# ------------------------------------------------------------------ sizes and memory

@dataclass(frozen=True)
class SizePlan:
    """Whether runs at one size compare contents (real buffers) or use shared allocations."""

    size: int
    checked: bool
    checked_bytes: int  # real memory of a checked run
    address_bytes: int  # address space of an MPI_Alltoall run (all ranks' send and receive buffers)


def size_plan(ranks: int, hops_per_rank: int, size: int, *, max_memory: int | None) -> SizePlan:
    """The plan for one size; SizeLimitError (exit 2) when even shared allocations would not fit."""
    alltoall = 2 * ranks * ranks * size
    table = ranks * (2 * ranks + hops_per_rank) * size
    checked_bytes = max(alltoall, table) + ranks * RANK_BASE_BYTES
    budget = CHECK_BUDGET_BYTES if max_memory is None else min(CHECK_BUDGET_BYTES, max_memory // 2)
    if alltoall > ADDRESS_LIMIT_BYTES:
        raise SizeLimitError(f"blocks of {size_label(size)} on {ranks} ranks: MPI_Alltoall's buffers span "
                             f"{ranks} x {size_label(size)} x {ranks} x 2 = {format_bytes(alltoall)} of address "
                             f"space in the one simulator process, more than {format_bytes(ADDRESS_LIMIT_BYTES)}")
    base = ranks * RANK_BASE_BYTES
    if max_memory is not None and base > max_memory:
        raise SizeLimitError(f"{ranks} ranks need about {format_bytes(base)} in the simulator even with shared "
                             f"allocations, more than --max-memory {format_bytes(max_memory)}")
    return SizePlan(size, checked_bytes <= budget, checked_bytes, alltoall)


# ------------------------------------------------------------------ contenders

def mpi_contenders(available: list[str], wanted: tuple[str, ...] | None) -> list[Contender]:
    """MPI_Alltoall under each algorithm SimGrid lists (and each library selector), or those ``wanted``."""
    algorithms = [a for a in available if a not in SELECTORS and a not in SKIPPED_ALGORITHMS]
    everything = [Contender(f"alltoall:{a}", "mpi", "alltoall", (f"smpi/alltoall:{a}",)) for a in algorithms]
    everything += [Contender(f"selector:{s}", "mpi", "alltoall", (f"smpi/coll-selector:{s}",)) for s in SELECTORS]
    if wanted is None:
        return everything
    by_name = {c.name: c for c in everything}
    chosen = []
    for name in wanted:
        key = name if name in by_name else (f"selector:{name}" if f"selector:{name}" in by_name else f"alltoall:{name}")
        if key not in by_name:
            raise OptionError(f"--mpi-algorithms: SimGrid has no alltoall algorithm or selector {name!r}; it has "
                              f"{', '.join(algorithms + list(SELECTORS))}")
        chosen.append(by_name[key])
    return chosen


def parse_executors(text: str) -> tuple[Executor, ...]:
    """``--executor``: a comma list of step, dataflow, combined; ``both`` is step,dataflow and ``all`` all three."""
    chosen: list[Executor] = []
    for item in (part.strip() for part in str(text).split(",")):
        if item == "all":
            chosen += list(Executor)
        elif item == "both":
            chosen += [Executor.STEP, Executor.DATAFLOW]
        elif item in {e.value for e in Executor}:
            chosen.append(Executor(item))
        else:
            raise OptionError(f"--executor: {item!r} is not one of step, dataflow, combined, both, all")
    return tuple(dict.fromkeys(chosen))


def table_contenders(executors: tuple[Executor, ...],
                     combine: tuple[SuperstepRule, ...] = (BALANCED,)) -> list[Contender]:
    """The table under each executor; the combined executor once per superstep map rule (PARAM numbers the
    maps from 1 in ``combine``'s order, as :func:`prepare` writes them)."""
    contenders = []
    for executor in executors:
        if executor is Executor.COMBINED:
            contenders += [Contender(f"table (combined: {rule.name})", "table", executor.value, parameter=number)
                           for number, rule in enumerate(combine, 1)]
        else:
            contenders.append(Contender(f"table ({executor.value})", "table", executor.value))
    return contenders


def combined_summary(schedule: CompiledSchedule, setup: Setup, maps: list[SuperstepMap]) -> list[dict]:
    """The report's ``combined`` list: per superstep map its contender, rule, supersteps and bundles."""
    floor = bundle_floor(schedule)
    return [{"contender": c.name, "rule": m.rule, "supersteps": m.supersteps, "bundle_sum": m.bundle_sum,
             "bundle_floor": floor, "largest_bundle": m.largest_bundle}
            for c, m in zip(table_contenders((Executor.COMBINED,), setup.combine), maps)]


def superstep_maps(schedule: CompiledSchedule, combine: tuple[SuperstepRule, ...]) -> list[SuperstepMap]:
    """The superstep map of each rule of ``combine``, each checked (along every path the supersteps strictly
    increase) before anything runs."""
    maps = []
    for rule in combine:
        mapping = rule.make(schedule)
        try:
            check_superstep_map(schedule, mapping)
        except ValueError as exc:  # a bug in combine.py, never the user's input
            raise smpi.SimulationFailed(f"the combined executor's superstep map is wrong: {exc}") from None
        maps.append(mapping)
    return maps


# ------------------------------------------------------------------ one study

@dataclass
class Workspace:
    """The temporary directory of a study: platform, hostfile, rank files, the binary, smpirun."""

    directory: Path
    binary: Path
    smpirun: str
    ranks: int
    model: Model
    shared_blocksize: int = 1 << 20
    maps: list[SuperstepMap] = field(default_factory=list)  # the combined executor's maps, numbered from 1
    runs: int = 0
    log: list[str] = field(default_factory=list)

    def command(self, contender_mode: str, size: int, *, checked: bool, trace: bool, parameter: int,
                configuration: tuple[str, ...] = ()) -> list[str]:
        """The smpirun command line of one run (``parameter``: the C program's PARAM, the dataflow window or the
        combined executor's map)."""
        cfg = list(smpi.BASE_CONFIGURATION) + [f"network/model:{self.model.simgrid_name}",
                                               f"smpi/shared-malloc-blocksize:{self.shared_blocksize}"]
        cfg += list(configuration)
        return ([self.smpirun, "-no-privatize", "-platform", "platform.xml", "-hostfile", "hostfile",
                 "-np", str(self.ranks)] + [f"--cfg={c}" for c in cfg] +
                [str(self.binary), contender_mode, str(self.directory), str(size), "1" if checked else "0",
                 "1" if trace else "0", str(parameter)])


def _blocksize(largest_buffer: int) -> int:
    """SMPI's shared-allocation block: a power of two covering the largest buffer, so each is one mapping."""
    size = 1 << 20
    while size < largest_buffer:
        size <<= 1
    return size


def prepare(schedule: CompiledSchedule, setup: Setup, directory: Path,
            programs_file: Path | None = None) -> Workspace:
    """Write the platform, hostfile, programs export and rank files into ``directory``; compile the executor."""
    smpirun = smpi.find_tool("smpirun")
    binary = smpi.executor_binary()
    numbering = schedule.numbering
    (directory / "platform.xml").write_text(platform_xml(numbering, bandwidth_bps=setup.bandwidth_bps,
                                                          latency_s=setup.latency_s))
    (directory / "hostfile").write_text(hostfile(schedule.ranks))
    if programs_file is None:
        programs_file = directory / "programs.jsonl"
        stream_programs(schedule, programs_file)
    write_rank_files(programs_file, directory, schedule.neighbours)
    largest_bundle, maps = 1, []
    if Executor.COMBINED in setup.executors:
        maps = superstep_maps(schedule, setup.combine)
        for number, mapping in enumerate(maps, 1):
            write_superstep_map(directory, number, mapping)
            largest_bundle = max(largest_bundle, mapping.largest_bundle * len(schedule.letters))
    largest = max(setup.sizes) * max(schedule.ranks, largest_bundle)
    return Workspace(directory, binary, smpirun, schedule.ranks, setup.model, _blocksize(largest), maps)


def run_one(space: Workspace, contender: Contender, size: int, *, checked: bool, setup: Setup,
            trace: bool = False, budget_end: float | None = None) -> dict:
    """One smpirun run of one contender at one size, as a record (status, seconds, reason, wall time).

    ``budget_end`` (time.monotonic()) cuts the run where the study's --budget ends; the record says so.
    """
    parameter = setup.window if contender.parameter is None else contender.parameter
    command = space.command(contender.mode, size, checked=checked, trace=trace, parameter=parameter,
                            configuration=contender.configuration)
    timeout = setup.run_timeout_s
    if setup.deadline is not None:
        timeout = min(timeout, max(setup.deadline - time.monotonic(), 0.1))
    cut_by_budget = budget_end is not None and budget_end - time.monotonic() < timeout
    if cut_by_budget:
        timeout = max(budget_end - time.monotonic(), 0.1)
    finished = smpi.run_smpirun(command, work=space.directory, timeout_s=timeout, max_memory=setup.max_memory,
                                deadline=setup.deadline)
    space.runs += 1
    output = smpi.parse_output(finished.stdout)
    record = {"contender": contender.name, "kind": contender.kind, "bytes": size, "wall_s": round(finished.wall_s, 3),
              "checked": checked}
    result = output.results.get((contender.mode, size))
    if result is not None and finished.status == 0:
        record.update(status=Status.OK.value, seconds=result["seconds"], checked=result["checked"],
                      mismatches=result["mismatches"], faults=output.faults, start_skew_s=result["start_skew_s"])
        return record
    if finished.timed_out:
        note = "; all that was left of the study's --budget" if cut_by_budget else ""
        record.update(status=Status.TOO_SLOW.value,
                      reason=f"no result within {timeout:.0f} s of simulation (wall clock{note})")
        return record
    reason = smpi.failure_reason(finished)
    if finished.over_memory:
        record.update(status=Status.FAILED.value, reason=f"memory: {reason} (SMPI allocates this contender's "
                                                         f"temporary buffers for real)")
        return record
    applicable = not re.search(r"can't be used|cannot be used|power of two|not a power|number of processes"
                               r"|requires|only works|must be", reason, re.IGNORECASE)
    record.update(status=(Status.FAILED if applicable else Status.NOT_APPLICABLE).value, reason=reason)
    return record


#: the check run's sends are never detached: SimGrid's detached (eager) path for small messages costs it 3x the
#: wall clock on 1024 ranks (docs/notes/simulate-findings.md); the check run's simulated time is not reported
CHECK_CONFIGURATION = ("smpi/send-is-detached-thresh:0",)


def check_run(space: Workspace, setup: Setup) -> dict:
    """The lockstep check of the table's programs (8-byte blocks): its faults, none when the schedule is right."""
    contender = Contender("table (check)", "table", "check", CHECK_CONFIGURATION)
    record = run_one(space, contender, CHECK_BYTES, checked=True, setup=setup)
    if record["status"] != Status.OK.value:
        raise smpi.SimulationFailed(f"the check run of the table's programs did not finish: "
                                    f"{record.get('reason', record['status'])}")
    priority = {kind: i for i, kind in enumerate(FAULT_ORDER)}
    faults = sorted(record["faults"], key=lambda f: (priority.get(f["kind"], len(priority)), f["step"], f["rank"]))
    return {"bytes": CHECK_BYTES, "fault_count": record["mismatches"], "faults": faults,
            "ok": record["mismatches"] == 0, "simulated_s": record["seconds"]}


def link_bound_s(bound_steps: float, size: int, bandwidth_bps: float) -> float:
    """The link-time bound: the table's lower bound on steps times one block's time on one link."""
    return bound_steps * size / bandwidth_bps


def summarise_size(size: int, runs: list[dict], bound_s: float) -> dict:
    """One size's line: best MPI, best table, ratio, multiples of the bound."""
    for run in runs:
        if run["status"] == Status.OK.value:
            run["multiple_of_bound"] = run["seconds"] / bound_s if bound_s > 0 else None
    done = [r for r in runs if r["status"] == Status.OK.value]
    mpi = min((r for r in done if r["kind"] == "mpi"), key=lambda r: r["seconds"], default=None)
    table = min((r for r in done if r["kind"] == "table"), key=lambda r: r["seconds"], default=None)
    summary = {"bytes": size, "bound_s": bound_s, "runs": runs,
               "best_mpi": None if mpi is None else {"contender": mpi["contender"], "seconds": mpi["seconds"]},
               "best_table": None if table is None else {"contender": table["contender"], "seconds": table["seconds"]}}
    if mpi is not None and table is not None:
        summary["ratio_best_mpi_to_table"] = mpi["seconds"] / table["seconds"]
        summary["winner"] = "table" if table["seconds"] < mpi["seconds"] else mpi["contender"]
    return summary


def crossover(per_size: list[dict]) -> dict:
    """Where the winner changes: the largest size an MPI algorithm wins and the smallest from which the table
    wins at every larger size measured."""
    decided = [s for s in per_size if "winner" in s]
    if not decided:
        return {"found": False, "text": "no size had both a table time and an MPI time"}
    table_from = None
    for s in reversed(decided):
        if s["winner"] != "table":
            break
        table_from = s
    mpi_sizes = [s for s in decided if s["winner"] != "table"]
    if table_from is None:
        return {"found": False, "mpi_wins_up_to": decided[-1]["bytes"], "mpi_winner": decided[-1]["winner"],
                "text": f"an MPI algorithm wins at every size measured (up to {size_label(decided[-1]['bytes'])}: "
                        f"{decided[-1]['winner']})"}
    below = [s for s in mpi_sizes if s["bytes"] < table_from["bytes"]]
    if not below:
        return {"found": False, "table_wins_from": table_from["bytes"],
                "text": f"the table wins at every size measured (from {size_label(table_from['bytes'])})"}
    last = below[-1]
    return {"found": True, "mpi_wins_up_to": last["bytes"], "mpi_winner": last["winner"],
            "table_wins_from": table_from["bytes"],
            "text": f"between {size_label(last['bytes'])} and {size_label(table_from['bytes'])}: below, "
                    f"{last['winner']} wins ({last['ratio_best_mpi_to_table']:.3f}x the table's time at "
                    f"{size_label(last['bytes'])}); from {size_label(table_from['bytes'])} on, the table wins"}


def regular_over_twisted(regular: dict, twisted: dict) -> dict[int, dict]:
    """The regular torus's simulated time over the twisted one's, per size both reports measured (in the regular
    report's order): ``table`` under each side's best table executor, ``mpi`` under each side's best
    MPI_Alltoall contender (None unless both have one), and those contenders' names (``mpi_regular``,
    ``mpi_twisted``).  ``regular`` and ``twisted`` are reports of :func:`simulate` (benchmarks/simulate.py's
    records); the twisted-torus report's time columns and results/simulate.md's twisted section both read this."""
    gains = {}
    for sa in regular["sizes"]:
        sb = next((s for s in twisted["sizes"] if s["bytes"] == sa["bytes"]), None)
        if sb is None or not sa.get("best_table") or not sb.get("best_table"):
            continue
        both = bool(sa.get("best_mpi") and sb.get("best_mpi"))
        gains[sa["bytes"]] = {
            "table": sa["best_table"]["seconds"] / sb["best_table"]["seconds"],
            "mpi": sa["best_mpi"]["seconds"] / sb["best_mpi"]["seconds"] if both else None,
            "mpi_regular": sa["best_mpi"]["contender"] if both else None,
            "mpi_twisted": sb["best_mpi"]["contender"] if both else None}
    return gains


def simulate(schedule: CompiledSchedule, *, bound_steps: int, counting_steps: float, setup: Setup,
             programs_file: Path | None = None, progress: Callable[[str], None] | None = None) -> dict:
    """The whole study of one verified table (see the module doc); returns the JSON-ready report.

    ``bound_steps`` is the table's lower bound on steps (counting or per-letter, the larger);
    ``counting_steps`` the counting bound without rounding up (sum of distances / letters), whose time
    form holds for every schedule in SimGrid's fluid model (docs/simulate.md).
    """
    say = progress or (lambda message: None)
    ranks = schedule.ranks
    plans = [size_plan(ranks, schedule.status, size, max_memory=setup.max_memory) for size in setup.sizes]
    links = directed_links(schedule.numbering)
    report: dict = {
        "network": schedule.table.network, "ranks": ranks, "T": schedule.steps, "bound_steps": bound_steps,
        "counting_steps": counting_steps,
        "links": len(links), "hops_per_rank": schedule.status, "model": setup.model.value,
        "bandwidth_Bps": setup.bandwidth_bps, "latency_s": setup.latency_s, "window": setup.window,
        "run_timeout_s": setup.run_timeout_s,
    }
    with tempfile.TemporaryDirectory(prefix="tesearch-simulate-") as scratch:
        space = prepare(schedule, setup, Path(scratch), programs_file)
        if space.maps:
            report["combined"] = combined_summary(schedule, setup, space.maps)
        say(f"checking the table's programs on {ranks} simulated ranks ({len(links)} links) ...")
        report["check"] = check_run(space, setup)
        if not report["check"]["ok"]:
            report["verdict"] = "fault"
            return report
        available = smpi.alltoall_algorithms(space.smpirun, space.binary, space.directory)
        contenders = table_contenders(setup.executors, setup.combine) + mpi_contenders(available, setup.mpi_algorithms)
        report["contenders"] = [c.to_json() for c in contenders]
        report["mpi_available"] = [c.name for c in mpi_contenders(available, None)]  # what --mpi-algorithms all runs
        too_slow: dict[str, int] = {}
        per_size = []
        budget_end = None if setup.budget_s is None else time.monotonic() + setup.budget_s
        for plan in plans:
            runs = []
            for contender in contenders:
                if budget_end is not None and time.monotonic() >= budget_end - 1.0:
                    runs.append({"contender": contender.name, "kind": contender.kind, "bytes": plan.size,
                                 "status": Status.NOT_RUN.value, "checked": False,
                                 "reason": f"the study's --budget of {setup.budget_s:g} s (wall clock, after the "
                                           f"check run) was spent before its turn"})
                    continue
                if contender.name in too_slow:
                    runs.append({"contender": contender.name, "kind": contender.kind, "bytes": plan.size,
                                 "status": Status.TOO_SLOW.value, "checked": False,
                                 "reason": f"not run: too slow already at {size_label(too_slow[contender.name])}"})
                    continue
                say(f"{size_label(plan.size)}: {contender.name} ...")
                record = run_one(space, contender, plan.size, checked=plan.checked, setup=setup,
                                 budget_end=budget_end)
                if record["status"] == Status.TOO_SLOW.value:
                    too_slow[contender.name] = plan.size
                runs.append(record)
            summary = summarise_size(plan.size, runs, link_bound_s(bound_steps, plan.size, setup.bandwidth_bps))
            summary["counting_bound_s"] = link_bound_s(counting_steps, plan.size, setup.bandwidth_bps)
            per_size.append(summary)
        report["sizes"] = per_size
        report["crossover"] = crossover(per_size)
        mismatches = sum(r.get("mismatches", 0) for s in per_size for r in s["runs"])
        report["verdict"] = "fault" if mismatches else "ok"
        if setup.trace:
            from tesearch.simulate.trace import trace_document

            traced = table_contenders(setup.executors, setup.combine)
            contender = next((c for c in traced if c.mode == Executor.DATAFLOW.value), traced[0])
            executor = Executor(contender.mode)
            size = max(setup.sizes)
            say(f"tracing {contender.name} at {size_label(size)} ...")
            record = run_one(space, contender, size, checked=False, setup=setup, trace=True)
            if record["status"] != Status.OK.value:
                raise smpi.SimulationFailed(f"the traced run failed: {record.get('reason')}")
            report["trace"] = trace_document(space.directory, schedule, executor=executor.value, size=size,
                                             seconds=record["seconds"])
        report["smpirun_runs"] = space.runs
    return report
