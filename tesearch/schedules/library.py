"""``tesearch library``: a shared library defining MPI_Alltoall (PMPI) on a table's schedule, compiled in.

:class:`LibraryPlan` is what the library holds: the table's schedule (its own timing) and its balanced superstep
map as tesearch-hops bytes (routes layout, under the rank map the user gave or tesearch's own rank numbering), and
the size rules (:class:`SizeRule`) that pick an executor by block size: from a ``tesearch simulate --json`` report
(:func:`rules_from_report`: below the first measured size where a schedule the library can run beats every MPI
algorithm, PMPI_Alltoall; from there on, at each measured size, the fastest of those schedules) or
:data:`DEFAULT_RULES`.  :func:`embedded_source` writes it as C (``te_embedded.c``: const arrays that
``te_pmpi.c`` parses with ``te_schedule_parse``), :func:`write_sources` puts every C file the library needs in one
directory (``tesearch simulate --program`` compiles them into a program under SimGrid), :func:`build_library` compiles
``libtesearch_alltoall.so`` with an MPI compiler; :func:`header_text` and :func:`readme_text` are the files that go
beside it.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tesearch.running.errors import FormatError
from tesearch.schedules.execute.build import HEADERS, SOURCE_DIRECTORY, run_compiler
from tesearch.running.limits import format_bytes
from tesearch.schedules.programs.ranks import RankNumbering

LIBRARY_NAME = "libtesearch_alltoall.so"
HEADER_NAME = "tesearch_alltoall.h"
PLAN_NAME = "tesearch_alltoall.json"
README_NAME = "README.md"
#: the C files of the library, besides the generated te_embedded.c
LIBRARY_SOURCES = ("te_pmpi.c", "te_layout.c", "te_schedule.c", "te_run.c", "te_check.c")
EMBEDDED_SOURCE = "te_embedded.c"
#: te.h's te_executor_kind codes, and 0 for PMPI_Alltoall
EXECUTOR_CODES = {"pmpi": 0, "step": 1, "dataflow": 2, "combined": 3}
#: the names of the schedules a simulate report runs that the library can run (with its executor kind)
TABLE_SCHEDULE = "table"
BALANCED_SCHEDULE = "table: balanced supersteps"


@dataclass(frozen=True)
class SizeRule:
    """From ``min_bytes`` per block on (until the next rule), this executor (``pmpi``: PMPI_Alltoall)."""

    min_bytes: int
    executor: str
    lookahead: int = 1
    inflight: int = 1

    @property
    def name(self) -> str:
        """'PMPI_Alltoall', 'step', 'dataflow K=2 W=2', 'combined'."""
        if self.executor == "pmpi":
            return "PMPI_Alltoall"
        return f"dataflow K={self.lookahead} W={self.inflight}" if self.executor == "dataflow" else self.executor

    def to_json(self) -> dict:
        """The rule as JSON."""
        return {"min_bytes": self.min_bytes, "executor": self.executor, "lookahead": self.lookahead,
                "inflight": self.inflight}


#: without a simulate report: the combined executor on the balanced superstep map at every size
DEFAULT_RULES = (SizeRule(0, "combined"),)


@dataclass(frozen=True)
class LibraryPlan:
    """Everything the library is made of."""

    network: str
    ranks: int
    steps: int
    table: bytes  # the table's schedule, routes layout
    supersteps: bytes  # its balanced superstep map (the combined executor's schedule)
    rules: tuple[SizeRule, ...]
    rules_source: str  # where the rules come from, for people
    rank_map: tuple[int, ...] | None  # MPI rank r runs tesearch rank rank_map[r]; None: the identity

    def rules_text(self) -> str:
        """'PMPI_Alltoall below 4 KiB, combined from 4 KiB' (each rule from its size on)."""
        parts = []
        for rule, following in zip(self.rules, self.rules[1:] + (None,)):
            span = f"from {format_bytes(rule.min_bytes)}" if rule.min_bytes else "at every size"
            if following is not None:
                span = (f"below {format_bytes(following.min_bytes)}" if not rule.min_bytes else
                        f"from {format_bytes(rule.min_bytes)} below {format_bytes(following.min_bytes)}")
            parts.append(f"{rule.name} {span}")
        return ", ".join(parts)

    def description(self) -> str:
        """One line: what the library runs."""
        mapping = "tesearch's rank numbering" if self.rank_map is None else "the rank map given"
        return (f"MPI_Alltoall on the table of {self.network} ({self.ranks} ranks, T = {self.steps}; ranks in "
                f"{mapping}): {self.rules_text()} ({self.rules_source})")

    def to_json(self) -> dict:
        """The plan without its schedules' bytes: what DIR/tesearch_alltoall.json records."""
        return {"format": "tesearch-library", "network": self.network, "ranks": self.ranks, "T": self.steps,
                "rules": [r.to_json() for r in self.rules], "rules_source": self.rules_source,
                "rank_map": None if self.rank_map is None else list(self.rank_map),
                "table_schedule_bytes": len(self.table), "superstep_schedule_bytes": len(self.supersteps),
                "description": self.description()}


# ------------------------------------------------------------------ the rules from a simulate report

def _library_executor(contender: dict) -> SizeRule | None:
    """The rule (size 0) of a simulate contender the library can run, or None (another schedule, pieces, MPI)."""
    executor = contender.get("executor") or {}
    kind, schedule = executor.get("kind"), contender.get("schedule")
    if executor.get("pieces"):
        return None
    if schedule == TABLE_SCHEDULE and kind in ("step", "dataflow"):
        return SizeRule(0, kind, int(executor.get("lookahead", 1)), int(executor.get("inflight", 1)))
    if schedule == BALANCED_SCHEDULE and kind == "combined":
        return SizeRule(0, "combined")
    return None


def rules_from_report(report: object, *, network: str, ranks: int, where: str) -> tuple[tuple[SizeRule, ...], str]:
    """The size rules of a ``tesearch simulate --json`` report of the same network, and a sentence on how they were
    chosen; FormatError (exit 2, naming ``where``) for anything else.

    At each measured size the library's candidates are the report's runs of the table's own timing under step and
    dataflow and of its balanced supersteps under combined; the fastest of them wins the size when it beats the
    fastest MPI_Alltoall contender there, else PMPI_Alltoall does.  The rule of a size holds from that size up to
    the next measured one, and the smallest measured size's rule from 0."""
    if not isinstance(report, dict) or not isinstance(report.get("sizes"), list) or \
            not isinstance(report.get("contenders"), list):
        raise FormatError("not a tesearch simulate --json report (no 'sizes' and 'contenders')", where=where)
    if report.get("network") != network or report.get("ranks") != ranks:
        raise FormatError(f"the report is of {report.get('network')} ({report.get('ranks')} ranks), the table of "
                          f"{network} ({ranks} ranks)", where=where)
    candidates = {}
    for contender in report["contenders"]:
        if isinstance(contender, dict) and (rule := _library_executor(contender)) is not None:
            candidates[contender.get("name")] = rule
    if not candidates:
        raise FormatError("the report times none of the executors the library runs (the table under step or "
                          "dataflow, its balanced supersteps under combined)", where=where)
    rules, said = [], []
    for size in sorted((s for s in report["sizes"] if isinstance(s, dict)), key=lambda s: s.get("bytes", 0)):
        runs = [r for r in size.get("runs", []) if isinstance(r, dict) and r.get("status") == "ok"
                and isinstance(r.get("seconds"), (int, float))]
        ours = [r for r in runs if r.get("contender") in candidates]
        mpi = [r for r in runs if r.get("family") == "MPI"]
        if not ours and not mpi:
            continue
        best = min(ours, key=lambda r: r["seconds"], default=None)
        rival = min(mpi, key=lambda r: r["seconds"], default=None)
        bytes_ = int(size["bytes"])
        if best is not None and (rival is None or best["seconds"] < rival["seconds"]):
            rule = candidates[best["contender"]]
            rules.append(SizeRule(bytes_, rule.executor, rule.lookahead, rule.inflight))
        else:
            rules.append(SizeRule(bytes_, "pmpi"))
        said.append(f"{format_bytes(bytes_)}: {rules[-1].name}")
    if not rules:
        raise FormatError("the report has no size with a timed run", where=where)
    rules[0] = SizeRule(0, rules[0].executor, rules[0].lookahead, rules[0].inflight)
    merged = [rules[0]]
    for rule in rules[1:]:
        if (rule.executor, rule.lookahead, rule.inflight) != (merged[-1].executor, merged[-1].lookahead,
                                                              merged[-1].inflight):
            merged.append(rule)
    return tuple(merged), f"from {Path(where).name}, measured at {', '.join(said)}"


def read_report(path: Path) -> object:
    """A JSON file's content; FormatError naming the file when it is not JSON."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read: {getattr(exc, 'strerror', None) or exc}", where=str(path)) from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise FormatError(f"not valid JSON ({exc})", where=str(path)) from None


def read_rank_map(path: Path, ranks: int) -> tuple[int, ...]:
    """A rank map file: a JSON list, or whitespace-separated integers; entry r is the tesearch rank (the element in
    tesearch's rank numbering) that MPI rank r runs.  FormatError naming the file unless it is a permutation of
    0..ranks-1."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read: {getattr(exc, 'strerror', None) or exc}", where=str(path)) from None
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            values = json.loads(stripped)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise FormatError(f"not valid JSON ({exc})", where=str(path)) from None
        if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise FormatError("a rank map is a list of integers", where=str(path))
    else:
        values = []
        for number, word in enumerate(stripped.split(), start=1):
            if not word.lstrip("-").isdigit():
                raise FormatError(f"entry {number} ({word[:20]!r}) is not an integer", where=str(path))
            values.append(int(word))
    if len(values) != ranks:
        raise FormatError(f"a rank map of {len(values)} entries; the network has {ranks} nodes, one per MPI rank",
                          where=str(path))
    seen = [False] * ranks
    for rank, value in enumerate(values):
        if not 0 <= value < ranks:
            raise FormatError(f"MPI rank {rank} is mapped to {value}, outside 0..{ranks - 1}", where=str(path))
        if seen[value]:
            raise FormatError(f"tesearch rank {value} is given twice (MPI rank {rank} and one before it)",
                              where=str(path))
        seen[value] = True
    return tuple(values)


def plan_for(table_file: Path, crossover: Path | None, rank_map_file: Path | None, *,
             command: str) -> tuple[LibraryPlan, RankNumbering]:
    """The plan of a library for the table at ``table_file`` (checked as verify checks it): its schedule and balanced
    superstep map under the rank map of ``rank_map_file``, the size rules of the simulate report ``crossover``; and
    the numbering (MPI rank -> node) it runs.  Bad files: one line naming them, exit 2."""
    from tesearch.schedules.contenders.maps import balanced_map
    from tesearch.running.errors import OptionError
    from tesearch.schedules.execute.hops import HopSchedule
    from tesearch.schedules.execute.hopsfile import routes_bytes
    from tesearch.tables.loading import load_checked_table
    from tesearch.schedules.programs.schedule import compile_schedule
    from tesearch.running.terms import Exchange

    compiled = compile_schedule(load_checked_table(table_file, command=command))
    table = compiled.table
    if table.exchange != Exchange.TOTAL.value:
        raise OptionError(f"the table is for the {table.exchange} exchange; MPI_Alltoall is a total exchange",
                          where=str(table_file))
    rank_map = None if rank_map_file is None else read_rank_map(rank_map_file, compiled.ranks)
    if crossover is None:
        rules, source = DEFAULT_RULES, "no simulate report given: the default"
    else:
        rules, source = rules_from_report(read_report(crossover), network=table.network, ranks=compiled.ranks,
                                          where=str(crossover))
    numbering = mapped_numbering(compiled.numbering, rank_map)
    schedule = HopSchedule.from_table(table, numbering=numbering)
    supersteps = balanced_map(schedule)
    for made in (schedule, supersteps):  # a schedule that fails here is a bug (exit 70), never compiled in
        made.check()
    plan = LibraryPlan(table.network, compiled.ranks, table.T, routes_bytes(schedule), routes_bytes(supersteps),
                       rules, source, rank_map)
    return plan, numbering


def mapped_numbering(numbering: RankNumbering, rank_map: tuple[int, ...] | None) -> RankNumbering:
    """The numbering in which MPI rank r stands for the element of tesearch rank ``rank_map[r]``."""
    if rank_map is None:
        return numbering
    index_of_rank = numbering.index_of_rank[np.asarray(rank_map, dtype=np.int64)]
    rank_of_index = np.empty_like(index_of_rank)
    rank_of_index[index_of_rank] = np.arange(len(index_of_rank), dtype=np.int64)
    return RankNumbering(numbering.graph, index_of_rank, rank_of_index)


# ------------------------------------------------------------------ the C files

def _c_bytes(name: str, data: bytes) -> str:
    rows = [", ".join(str(b) for b in data[i:i + 32]) for i in range(0, len(data), 32)]
    body = ",\n  ".join(rows) if rows else "0"
    return (f"const unsigned char {name}[] = {{\n  {body}\n}};\n"
            f"const unsigned long {name}_bytes = {len(data)}ul;\n")


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def embedded_source(plan: LibraryPlan) -> str:
    """``te_embedded.c``: the plan's schedules, size rules and description as C constants (te_pmpi.c reads them)."""
    rules = ",\n  ".join(f"{{{r.min_bytes}ull, {EXECUTOR_CODES[r.executor]}, {r.lookahead}, {r.inflight}}}"
                         for r in plan.rules)
    return "\n".join([
        f"/* te_embedded.c: written by tesearch library for {plan.network}; do not edit. */",
        "typedef struct { unsigned long long min_bytes; int executor, lookahead, inflight; } te_size_rule;",
        _c_bytes("te_embedded_table", plan.table),
        _c_bytes("te_embedded_supersteps", plan.supersteps),
        f"const te_size_rule te_embedded_rules[] = {{\n  {rules}\n}};",
        f"const int te_embedded_rule_count = {len(plan.rules)};",
        f"const char te_embedded_description[] = {_c_string(plan.description())};", ""])


def write_sources(plan: LibraryPlan, directory: Path) -> list[Path]:
    """Every C file of the library (and the headers they include) in ``directory``; the files to compile."""
    for name in LIBRARY_SOURCES + HEADERS:
        shutil.copyfile(SOURCE_DIRECTORY / name, directory / name)
    (directory / EMBEDDED_SOURCE).write_text(embedded_source(plan))
    return [directory / name for name in LIBRARY_SOURCES + (EMBEDDED_SOURCE,)]


def build_library(plan: LibraryPlan, compiler: str, directory: Path) -> Path:
    """Compile ``libtesearch_alltoall.so`` in ``directory`` (a scratch directory) with ``compiler``; its path.
    BuildFailed (exit 4) when the compiler refuses."""
    sources = write_sources(plan, directory)
    output = directory / LIBRARY_NAME
    run_compiler([compiler, "-O2", "-std=gnu11", "-fPIC", "-shared", "-fvisibility=hidden", "-o", str(output),
                  *[str(s) for s in sources]], cwd=directory, what="the MPI_Alltoall library")
    return output


def header_text(plan: LibraryPlan) -> str:
    """``tesearch_alltoall.h``: what the library defines beside MPI_Alltoall."""
    return f"""/* tesearch_alltoall.h: libtesearch_alltoall.so, written by tesearch library.
 *
 * {plan.description()}
 *
 * The library defines MPI_Alltoall (and MPI 4's MPI_Alltoall_c) through the PMPI profiling interface, and
 * MPI_Finalize (to free what it made and print its counts when TESEARCH_ALLTOALL_STATS=1).  A program needs none of
 * this header to use it (LD_PRELOAD, or -L DIR -ltesearch_alltoall before the MPI library); the two functions below
 * let a program that links it ask what it did.  README.md says what it handles and what goes to PMPI_Alltoall.
 */
#ifndef TESEARCH_ALLTOALL_H
#define TESEARCH_ALLTOALL_H

#define TESEARCH_ALLTOALL_RANKS {plan.ranks}

/* one line: the table, the network and the size rules */
const char *tesearch_alltoall_description(void);

/* this process's MPI_Alltoall calls so far, those run on the schedule, and those sent to PMPI_Alltoall */
void tesearch_alltoall_counts(long *calls, long *on_schedule, long *to_pmpi);

#endif
"""


def readme_text(plan: LibraryPlan, directory: Path) -> str:
    """``README.md`` of the output directory: use, environment, what falls back to PMPI_Alltoall."""
    rules = "\n".join(f"| {format_bytes(r.min_bytes)} | {r.name} |" for r in plan.rules)
    return f"""# libtesearch_alltoall.so: {plan.network}

{plan.description()}.

## Use it

    LD_PRELOAD={directory.resolve() / LIBRARY_NAME} mpiexec -n {plan.ranks} ./your_program
    mpicc your_program.c -L{directory.resolve()} -ltesearch_alltoall -Wl,-rpath,{directory.resolve()} -o your_program

(MPICH; with Open MPI pass `-x LD_PRELOAD=...` to mpiexec.)  `TESEARCH_ALLTOALL_STATS=1` makes each process print
at MPI_Finalize how many calls ran on the schedule and how many went to PMPI_Alltoall, and why.

## What it does

A call to MPI_Alltoall (or MPI_Alltoall_c) runs on the table's schedule when **all** of these hold; otherwise it
goes to PMPI_Alltoall unchanged, on every rank (which reports MPI's errors through the communicator's error
handler, as without the library):

- the communicator is an intracommunicator of {plan.ranks} ranks (any such communicator: rank r of it runs the
  node the rank map gives r), not a thread communicator (MPICH's MPIX_Threadcomm);
- the send buffer is not `MPI_IN_PLACE`, the counts are not zero, and no argument is one MPI must report as an
  error (a negative count, `MPI_DATATYPE_NULL`, a null buffer, send and receive buffers that are the same or
  overlap);
- the size rules below pick an executor for the block (count x type size) rather than PMPI_Alltoall;
- on every rank, the send and receive blocks are provably the same contiguous bytes in typemap order (predefined
  types, and derived types whose flattened typemap is one increasing run from 0 with extent = size: a contiguous
  type, two ints at displacements {{0,4}}, but not {{4,0}}), of one size and type signature on every rank;
- the block is at most 2 GiB - 1 bytes, and the executor holds at most `TESEARCH_ALLTOALL_MAX_HELD` bytes (1 GiB)
  beyond your buffers (bundles above 2 GiB - 1 bytes go in pieces).

The ranks agree on the last three with one PMPI_Allreduce of 7 integers on the library's own communicator (a
program may pass different datatypes on different ranks); `TESEARCH_ALLTOALL_SAME_TYPES=1` skips it when every rank
passes the same counts and datatypes in a correct call.

Per communicator the library makes, at its first call there, a private duplicate (it never sends on your
communicator) and this rank's programs, kept as an attribute: later calls only look them up.  They are freed with
the communicator or at MPI_Finalize.  Threads: under `MPI_THREAD_MULTIPLE`, calls on different communicators may
run at the same time, first calls included (as MPI allows for any collective); one thread at a time per
communicator, as MPI requires.

## Size rules (per block)

| from | executor |
|---|---|
{rules}

({plan.rules_source}.)  Executors: step (one message per hop, step by step), dataflow (out of order within K
positions, W messages in flight per link), combined (the table's balanced superstep map, one message per link per
superstep).

## Environment (give every rank the same values)

| variable | effect |
|---|---|
| `TESEARCH_ALLTOALL_EXECUTOR=pmpi\\|step\\|dataflow\\|combined` | that executor at every size, instead of the rules |
| `TESEARCH_ALLTOALL_MIN_BYTES=N` | blocks below N bytes go to PMPI_Alltoall, the others to the schedule |
| `TESEARCH_ALLTOALL_DATAFLOW=K:W` | the dataflow executor's lookahead and messages in flight |
| `TESEARCH_SCHEDULE=FILE` | a tesearch-hops file run by every executor instead of the embedded schedules |
| `TESEARCH_ALLTOALL_MAX_HELD=N` | most bytes an executor may hold beyond your buffers (default 1 GiB) |
| `TESEARCH_ALLTOALL_SAME_TYPES=1` | skip the agreement (every rank passes the same counts and datatypes) |
| `TESEARCH_ALLTOALL_STATS=1` | print each process's counts at MPI_Finalize |
| `TESEARCH_ALLTOALL_CHECK=1` | run every call made on the schedule again with PMPI_Alltoall and compare (a test mode: twice the traffic) |
| `TESEARCH_ALLTOALL_RECORD=PATH`, `TESEARCH_ALLTOALL_NONCE=WORD` | each process writes `PATH.RANK` at MPI_Finalize: its counts, compared calls and differences (what `tesearch simulate --program` reads) |

{PLAN_NAME} records the plan (the rules, the rank map, the schedules' sizes); {HEADER_NAME} declares
`tesearch_alltoall_description()` and `tesearch_alltoall_counts()` for programs that link the library.
"""
