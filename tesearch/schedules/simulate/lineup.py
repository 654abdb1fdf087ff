"""The contenders of one ``tesearch simulate`` study: schedules under executors, and MPI_Alltoall's algorithms.

Every schedule the study times is a checked :class:`~tesearch.schedules.execute.hops.HopSchedule` from the contender
registry (:mod:`tesearch.schedules.contenders`), run by the C executor library under one :class:`Executor`:

* **table** (:attr:`ContenderFamily.TABLE`): the optimal table's words, in its own timing under the step, the
  dataflow and the pipelined executors, and in supersteps (balanced, or the superstep optimum) under the combined executor;
* **non-optimal table** (:attr:`ContenderFamily.NONOPTIMAL`): valid tables wider than the optimum (naive words packed by
  first fit, the optimal table widened), under the same executors: what the table's optimality buys;
* **table-free** (:attr:`ContenderFamily.TABLE_FREE`): schedules made from the network alone (greedy combining, the
  superstep optimum, dimension order on tori, Johnsson and Ho's rotated dimension exchange on hypercubes) under
  the combined executor: what a buffered algorithm reaches without any table;
* **MPI** (:attr:`ContenderFamily.MPI`): MPI_Alltoall under every algorithm and library selector SimGrid has.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

from tesearch.schedules.contenders import Category, Subject, contenders_for, window_contender
from tesearch.schedules.contenders import maps
from tesearch.running.errors import OptionError, SolverUnavailable
from tesearch.schedules.execute.hops import HopSchedule, ScheduleKind
from tesearch.running.limits import format_bytes

#: MPI_Alltoall choices that are not one algorithm (they pick per size) or that run every algorithm
SELECTORS = ("ompi", "mpich", "mvapich2", "impi")
SKIPPED_ALGORITHMS = ("automatic",)
#: MPI contenders run first at each size: the likely winners, so that the others can be cut against them
LIKELY_MPI = ("alltoall:basic_linear", "selector:ompi", "selector:mvapich2", "selector:impi", "alltoall:2dmesh")


class ContenderFamily(str, enum.Enum):
    """What a contender's time says (the report's columns)."""

    TABLE = "table"  # the optimal table's words: its own timing, or its paths in supersteps
    NONOPTIMAL = "non-optimal table"  # a valid table wider than the optimum
    TABLE_FREE = "table-free"  # no table: words and supersteps from the network alone
    MPI = "MPI"  # MPI_Alltoall


class ExecutorKind(str, enum.Enum):
    """How the C library runs a schedule (tesearch/schedules/execute/c/te.h)."""

    STEP = "step"  # one message per hop, step by step
    DATAFLOW = "dataflow"  # out of order within a lookahead, a few hops in flight per link
    COMBINED = "combined"  # one message per link per step (superstep), or pieces of it
    PIPELINED = "pipelined"  # the table's order on every link, hops in pieces, a few pieces in flight per link


@dataclass(frozen=True)
class Executor:
    """One executor with its parameters."""

    kind: ExecutorKind
    lookahead: int = 1  # dataflow: K positions from a link's first unsent hop
    inflight: int = 1  # dataflow: W hops in flight on a link
    pieces: int = 0  # combined: bundles sent as pieces of at most this many bytes (0: whole)
    split: int = 0  # pipelined: pieces per hop (0, with inflight 0: the rule of pipeline.py chooses per size)

    @property
    def by_rule(self) -> bool:
        """A pipelined executor whose pieces and window the rule chooses per block size and platform."""
        return self.kind is ExecutorKind.PIPELINED and not self.split

    @property
    def name(self) -> str:
        """'step', 'dataflow K=1 W=1', 'combined', 'combined, 8 KiB pieces', 'pipelined', 'pipelined P=8 W=2'."""
        if self.kind is ExecutorKind.DATAFLOW:
            return f"dataflow K={self.lookahead} W={self.inflight}"
        if self.kind is ExecutorKind.COMBINED and self.pieces:
            return f"combined, {format_bytes(self.pieces)} pieces"
        if self.kind is ExecutorKind.PIPELINED and not self.by_rule:
            return f"pipelined P={self.split} W={self.inflight}"
        return self.kind.value

    def arguments(self) -> list[str]:
        """The C driver's executor arguments (a pipelined executor by rule: resolve it per size first)."""
        if self.by_rule:
            raise ValueError("the pipelined executor by rule has its pieces and window per size: resolve it first")
        args = [f"executor={self.kind.value}"]
        if self.kind is ExecutorKind.DATAFLOW:
            args += [f"lookahead={self.lookahead}", f"inflight={self.inflight}"]
        if self.kind is ExecutorKind.PIPELINED:
            args += [f"split={self.split}", f"inflight={self.inflight}"]
        if self.pieces:
            args.append(f"pieces={self.pieces}")
        return args

    def to_json(self) -> dict:
        """The executor as JSON."""
        data = {"kind": self.kind.value, "lookahead": self.lookahead, "inflight": self.inflight, "pieces": self.pieces}
        if self.kind is ExecutorKind.PIPELINED:
            data["split"] = self.split
        return data


STEP = Executor(ExecutorKind.STEP)
COMBINED = Executor(ExecutorKind.COMBINED)
PIPELINED_BY_RULE = Executor(ExecutorKind.PIPELINED, inflight=0)


@dataclass(frozen=True)
class Entrant:
    """One thing timed at every size: a schedule under an executor, or MPI_Alltoall under one choice."""

    name: str
    family: ContenderFamily
    schedule: str | None = None  # the key of its schedule in the line-up (None for MPI)
    executor: Executor | None = None
    configuration: tuple[str, ...] = ()  # MPI: extra --cfg= values

    def to_json(self) -> dict:
        """Name, family, schedule and executor."""
        data = {"name": self.name, "family": self.family.value}
        if self.schedule is not None:
            data.update(schedule=self.schedule, executor=self.executor.to_json())
        return data


@dataclass(frozen=True)
class Choice:
    """Which contenders a study runs (the CLI's options)."""

    executors: tuple[ExecutorKind, ...] = tuple(ExecutorKind)  # for the table and the non-optimal tables
    dataflow: tuple[tuple[int, int], ...] = ((1, 1), (64, 64))  # (K, W) pairs
    pipelined: tuple[tuple[int, int], ...] = ((0, 0),)  # (P, W) pairs; (0, 0): the rule's choice per size
    supersteps: tuple[str, ...] = ("balanced", "optimum")  # the table's superstep maps; an integer K: K-column windows
    pieces: tuple[int, ...] = ()  # combined runs of the table's balanced map in pieces of these sizes
    non_optimal: bool = True
    table_free: tuple[str, ...] | None = None  # None: every one that applies; () none


@dataclass
class Lineup:
    """The schedules of a study and the contenders that run them (MPI contenders are added by the study)."""

    schedules: dict[str, HopSchedule] = field(default_factory=dict)
    built: dict[str, dict] = field(default_factory=dict)  # schedule -> the registry's figures (standing, held, ...)
    contenders: list[Entrant] = field(default_factory=list)
    programs_override: Path | None = None  # the tests' hook: the table's schedule run as this programs file's programs
    left_out: list[str] = field(default_factory=list)  # "NAME: why" for each contender an absent extra leaves out


_MAP_NAMES = {"balanced": "table: balanced supersteps", "optimum": "table: superstep optimum"}
_FAMILY_OF = {Category.TABLE_TIMING: ContenderFamily.TABLE, Category.TABLE_SUPERSTEPS: ContenderFamily.TABLE,
              Category.NONOPTIMAL_TABLE: ContenderFamily.NONOPTIMAL, Category.TABLE_FREE: ContenderFamily.TABLE_FREE}


def parse_supersteps(text: str) -> tuple[str, ...]:
    """``--combine``: a comma list of balanced, optimum and window widths K (integers >= 1)."""
    chosen = []
    for item in (part.strip() for part in str(text).split(",")):
        if item in _MAP_NAMES or (item.isdigit() and int(item) >= 1):
            chosen.append(item)
        elif item != "none":
            raise OptionError(f"--combine: {item!r} is not balanced, optimum, none or a window of columns (an "
                              f"integer >= 1)")
    return tuple(dict.fromkeys(chosen))


def parse_dataflow(text: str) -> tuple[tuple[int, int], ...]:
    """``--dataflow``: a comma list of K:W pairs (lookahead and hops in flight per link, each >= 1)."""
    pairs = []
    for item in (part.strip() for part in str(text).split(",")):
        k, _, w = item.partition(":")
        if not (k.isdigit() and w.isdigit() and int(k) >= 1 and int(w) >= 1 and int(k) + int(w) <= 32767):
            raise OptionError(f"--dataflow: {item!r} is not K:W with K, W >= 1 (and K + W <= 32767), e.g. 1:1,64:64")
        pairs.append((int(k), int(w)))
    return tuple(dict.fromkeys(pairs))


def parse_pipelined(text: str) -> tuple[tuple[int, int], ...]:
    """``--pipelined``: a comma list of ``rule`` and P:W pairs (pieces per hop, pieces in flight per link, each >= 1)."""
    pairs = []
    for item in (part.strip() for part in str(text).split(",")):
        if item == "rule":
            pairs.append((0, 0))
            continue
        p, _, w = item.partition(":")
        if not (p.isdigit() and w.isdigit() and 1 <= int(p) <= MOST_PIECES_PER_HOP and 1 <= int(w) <= MOST_IN_FLIGHT):
            raise OptionError(f"--pipelined: {item!r} is not rule or P:W with 1 <= P <= {MOST_PIECES_PER_HOP} pieces "
                              f"per hop and 1 <= W <= {MOST_IN_FLIGHT} pieces in flight per link, e.g. rule,8:2")
        pairs.append((int(p), int(w)))
    return tuple(dict.fromkeys(pairs))


#: the pipelined executor's limits: pieces per hop (a block of B bytes is cut into at most B pieces anyway) and pieces
#: in flight per link (receives posted ahead: MPI's tags, at least 32767, must tell them apart)
MOST_PIECES_PER_HOP = 4096
MOST_IN_FLIGHT = 1024


def pipelined_executors(choice: Choice) -> list[Executor]:
    """The pipelined executors of ``choice``: by rule, or with fixed pieces per hop and window."""
    return [PIPELINED_BY_RULE if (p, w) == (0, 0) else Executor(ExecutorKind.PIPELINED, inflight=w, split=p)
            for p, w in choice.pipelined]


def _executors_for(schedule: HopSchedule, choice: Choice) -> list[Executor]:
    """The executors a schedule runs under: a table's timing under step, dataflow and pipelined, supersteps
    combined."""
    if schedule.kind is ScheduleKind.SUPERSTEPS:
        return [COMBINED] if ExecutorKind.COMBINED in choice.executors else []
    chosen = [STEP] if ExecutorKind.STEP in choice.executors else []
    if ExecutorKind.DATAFLOW in choice.executors:
        chosen += [Executor(ExecutorKind.DATAFLOW, k, w) for k, w in choice.dataflow]
    if ExecutorKind.PIPELINED in choice.executors:
        chosen += pipelined_executors(choice)
    return chosen


def build_lineup(subject: Subject, choice: Choice, *, progress=None) -> Lineup:
    """Every schedule the study runs, built and checked, with its contenders (in report order)."""
    say = progress or (lambda message: None)
    lineup = Lineup()

    def add(name: str, family: ContenderFamily, schedule: HopSchedule, built: dict | None, executors: list[Executor]) -> None:
        lineup.schedules[name] = schedule
        lineup.built[name] = built or {"contender": name, **schedule.summary()}
        lineup.contenders += [Entrant(f"{name} ({e.name})", family, name, e) for e in executors]

    def build(name: str, entry):
        """The contender built, or None when an optional extra it needs is missing: it is left out, said in one
        line, and the study goes on (the table itself needs no extra)."""
        say(f"building {name} ...")
        try:
            return entry.build(subject)
        except SolverUnavailable as exc:
            if name == "table":
                raise
            lineup.left_out.append(f"{name}: {exc.message}")
            say(f"left out {name}: {exc.message}")
            return None

    registry = {c.name: c for c in contenders_for(subject)}
    table_maps = [(_MAP_NAMES[item], registry[_MAP_NAMES[item]]) if item in _MAP_NAMES else
                  (f"table: {item}-column windows", window_contender(int(item))) for item in choice.supersteps]
    for name, entry in [("table", registry["table"])] + table_maps:
        built = build(name, entry)
        if built is None:
            continue
        executors = _executors_for(built.schedule, choice)
        if name == _MAP_NAMES["balanced"] and ExecutorKind.COMBINED in choice.executors:
            executors += [Executor(ExecutorKind.COMBINED, pieces=size) for size in choice.pieces]
        add(name, ContenderFamily.TABLE, built.schedule, built.to_json(), executors)
    if choice.non_optimal:
        for entry in registry.values():
            if entry.category is not Category.NONOPTIMAL_TABLE:
                continue
            built = build(entry.name, entry)
            if built is None:
                continue
            add(entry.name, ContenderFamily.NONOPTIMAL, built.schedule, built.to_json(), _executors_for(built.schedule, choice))
            if ExecutorKind.COMBINED in choice.executors:
                steps = maps.balanced_map(built.schedule)
                name = f"{entry.name}: balanced supersteps"
                add(name, ContenderFamily.NONOPTIMAL, steps, None, [COMBINED])
    wanted = choice.table_free
    free = [entry for entry in registry.values() if entry.category is Category.TABLE_FREE]
    if wanted is not None:
        known = {entry.name for entry in free}
        unknown = [name for name in wanted if name not in known]
        if unknown:
            raise OptionError(f"--table-free: {', '.join(map(repr, unknown))} is not a table-free contender of "
                              f"{subject.network.spec}; these apply: {', '.join(sorted(known)) or 'none'}")
        free = [entry for entry in free if entry.name in wanted]
    if ExecutorKind.COMBINED in choice.executors:
        for entry in free:
            built = build(entry.name, entry)
            if built is not None:
                add(entry.name, ContenderFamily.TABLE_FREE, built.schedule, built.to_json(), [COMBINED])
    return lineup


def mpi_contenders(available: list[str], wanted: tuple[str, ...] | None) -> list[Entrant]:
    """MPI_Alltoall under each algorithm SimGrid lists (and each library selector), or those ``wanted``; the likely
    winners first."""
    algorithms = [a for a in available if a not in SELECTORS and a not in SKIPPED_ALGORITHMS]
    everything = [Entrant(f"alltoall:{a}", ContenderFamily.MPI, configuration=(f"smpi/alltoall:{a}",)) for a in algorithms]
    everything += [Entrant(f"selector:{s}", ContenderFamily.MPI, configuration=(f"smpi/coll-selector:{s}",)) for s in SELECTORS]
    everything.sort(key=lambda c: LIKELY_MPI.index(c.name) if c.name in LIKELY_MPI else len(LIKELY_MPI))
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


#: SimGrid 3.32's alltoall algorithms, for checking --mpi-algorithms before SimGrid is asked (the study asks it)
KNOWN_ALGORITHMS = ("2dmesh", "3dmesh", "basic_linear", "bruck", "default", "mvapich2_scatter_dest", "pair",
                    "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier", "pair_rma", "rdb", "ring",
                    "ring_light_barrier", "ring_mpi_barrier", "ring_one_barrier")
