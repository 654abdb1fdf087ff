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
import re
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
EXECUTOR_CODES = {"pmpi": 0, "step": 1, "dataflow": 2, "combined": 3, "pipelined": 4}
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
    split: int = 1  # pipelined: pieces per hop

    @property
    def name(self) -> str:
        """'PMPI_Alltoall', 'step', 'dataflow K=2 W=2', 'combined', 'pipelined P=8 W=5'."""
        if self.executor == "pmpi":
            return "PMPI_Alltoall"
        if self.executor == "pipelined":
            return f"pipelined P={self.split} W={self.inflight}"
        return f"dataflow K={self.lookahead} W={self.inflight}" if self.executor == "dataflow" else self.executor

    def to_json(self) -> dict:
        """The rule as JSON."""
        return {"min_bytes": self.min_bytes, "executor": self.executor, "lookahead": self.lookahead,
                "inflight": self.inflight, "split": self.split}


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

#: the dataflow executor's bounds: K, W >= 1 and K + W within the smallest tag bound MPI promises (te_run.c)
MAX_DATAFLOW_WINDOW = 32767
#: the largest simulate report and rank map read
MAX_REPORT_BYTES = 256 << 20
MAX_RANK_MAP_BYTES = 64 << 20


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _field(record: dict, key: str, kinds: tuple[type, ...], place: str, where: str, *, optional: bool = False):
    """``record[key]`` when it is one of ``kinds`` (never a bool for a number); FormatError naming the field."""
    if key not in record and optional:
        return None
    value = record.get(key)
    if key not in record:
        raise FormatError(f"{place}: no {key!r}", where=where)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if optional and value is None:
        return None
    if not ok:
        names = " or ".join({int: "a whole number", float: "a number", str: "a string", dict: "an object",
                             list: "a list", bool: "true or false"}[k] for k in kinds)
        raise FormatError(f"{place}.{key}: {_shown(value)} is not {names}", where=where)
    return value


def _shown(value: object) -> str:
    import json as _json

    try:
        text = _json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _library_executor(contender: dict, place: str, where: str) -> SizeRule | None:
    """The rule (size 0) of a simulate contender the library can run, or None (another schedule, pieces, MPI)."""
    executor = _field(contender, "executor", (dict,), place, where, optional=True) or {}
    schedule = _field(contender, "schedule", (str,), place, where, optional=True)
    kind = _field(executor, "kind", (str,), f"{place}.executor", where, optional=True)
    if executor.get("pieces"):
        return None
    if schedule == TABLE_SCHEDULE and kind in ("step", "dataflow"):
        lookahead = _field(executor, "lookahead", (int,), f"{place}.executor", where, optional=True)
        inflight = _field(executor, "inflight", (int,), f"{place}.executor", where, optional=True)
        lookahead, inflight = (1 if lookahead is None else lookahead), (1 if inflight is None else inflight)
        if kind == "dataflow" and not (lookahead >= 1 and inflight >= 1 and
                                       lookahead + inflight <= MAX_DATAFLOW_WINDOW):
            raise FormatError(f"{place}.executor: lookahead {lookahead} and inflight {inflight} are not a dataflow "
                              f"executor the library runs (each >= 1, together at most {MAX_DATAFLOW_WINDOW})",
                              where=where)
        return SizeRule(0, kind, lookahead, inflight)
    if schedule == BALANCED_SCHEDULE and kind == "combined":
        return SizeRule(0, "combined")
    if schedule == TABLE_SCHEDULE and kind == "pipelined":  # 0, 0: by rule, each size's run says what it had
        split = _field(executor, "split", (int,), f"{place}.executor", where, optional=True) or 0
        inflight = _field(executor, "inflight", (int,), f"{place}.executor", where, optional=True) or 0
        if split < 0 or inflight < 0:
            raise FormatError(f"{place}.executor: split {split} and inflight {inflight} are not a pipelined executor",
                              where=where)
        return SizeRule(0, "pipelined", 1, inflight, split)
    return None


def _timed_runs(runs: list, place: str, where: str) -> list[dict]:
    """A size's runs with a time: contender, family, seconds (and a pipelined run's pieces and window), each field
    checked; FormatError naming the run and the field."""
    checked = []
    for index, run in enumerate(runs):
        at = f"{place}.runs[{index}]"
        if not isinstance(run, dict):
            raise FormatError(f"{at}: {_shown(run)} is not an object", where=where)
        status = _field(run, "status", (str,), at, where)
        contender = _field(run, "contender", (str,), at, where, optional=True)
        family = _field(run, "family", (str,), at, where, optional=True)
        seconds = _field(run, "seconds", (int, float), at, where, optional=True)
        if status == "ok" and seconds is not None:
            if not seconds > 0 or seconds != seconds or seconds == float("inf"):
                raise FormatError(f"{at}.seconds: {_shown(seconds)} is not a time in seconds", where=where)
            entry = {"contender": contender, "family": family, "seconds": float(seconds)}
            for key in ("split", "inflight"):  # a pipelined run by rule: the pieces and window it had
                value = _field(run, key, (int,), at, where, optional=True)
                if value is not None:
                    if value < 1:
                        raise FormatError(f"{at}.{key}: {value} is not at least 1", where=where)
                    entry[key] = value
            checked.append(entry)
    return checked


def rules_from_report(report: object, *, network: str, ranks: int, where: str) -> tuple[tuple[SizeRule, ...], str]:
    """The size rules of a ``tesearch simulate --json`` report of the same network, and a sentence on how they were
    chosen; FormatError (exit 2, one line naming ``where`` and the field) for anything else.

    At each measured size the library's candidates are the report's runs of the table's own timing under step,
    dataflow and pipelined (with the pieces per hop and the window that run had) and of its balanced supersteps under
    combined; the fastest of them wins the size when it beats the
    fastest MPI_Alltoall contender there, else PMPI_Alltoall does.  The rule of a size holds from that size up to
    the next measured one, and the smallest measured size's rule from 0."""
    if not isinstance(report, dict) or not isinstance(report.get("sizes"), list) or \
            not isinstance(report.get("contenders"), list):
        raise FormatError("not a tesearch simulate --json report (no 'sizes' and 'contenders')", where=where)
    if report.get("network") != network or report.get("ranks") != ranks:
        named, counted = report.get("network"), report.get("ranks")
        raise FormatError(f"the report is of {named if isinstance(named, str) else _shown(named)} "
                          f"({counted if _whole(counted) else _shown(counted)} ranks), "
                          f"the table of {network} ({ranks} ranks)", where=where)
    candidates = {}
    for number, contender in enumerate(report["contenders"]):
        place = f"contenders[{number}]"
        if not isinstance(contender, dict):
            raise FormatError(f"{place}: {_shown(contender)} is not an object", where=where)
        name = _field(contender, "name", (str,), place, where)
        if (rule := _library_executor(contender, place, where)) is not None:
            candidates[name] = rule
    if not candidates:
        raise FormatError("the report times none of the executors the library runs (the table under step, "
                          "dataflow or pipelined, its balanced supersteps under combined)", where=where)
    measured = []
    for number, size in enumerate(report["sizes"]):
        place = f"sizes[{number}]"
        if not isinstance(size, dict):
            raise FormatError(f"{place}: {_shown(size)} is not an object", where=where)
        bytes_ = _field(size, "bytes", (int,), place, where)
        if bytes_ < 1:
            raise FormatError(f"{place}.bytes: {bytes_} is not a block size (at least 1 byte)", where=where)
        runs = _field(size, "runs", (list,), place, where)
        checked = _timed_runs(runs, place, where)
        measured.append((bytes_, checked))
    rules, said = [], []
    for bytes_, runs in sorted(measured, key=lambda item: item[0]):
        ours = [r for r in runs if r["contender"] in candidates]
        mpi = [r for r in runs if r["family"] == "MPI"]
        if not ours and not mpi:
            continue
        best = min(ours, key=lambda r: r["seconds"], default=None)
        rival = min(mpi, key=lambda r: r["seconds"], default=None)
        if best is not None and (rival is None or best["seconds"] < rival["seconds"]):
            rule = candidates[best["contender"]]
            if rule.executor == "pipelined":
                rule = SizeRule(0, "pipelined", 1, best.get("inflight") or rule.inflight or 1,
                                best.get("split") or rule.split or 1)
            rules.append(SizeRule(bytes_, rule.executor, rule.lookahead, rule.inflight, rule.split))
        else:
            rules.append(SizeRule(bytes_, "pmpi"))
        said.append(f"{format_bytes(bytes_)}: {rules[-1].name}")
    if not rules:
        raise FormatError("the report has no size with a timed run", where=where)
    rules[0] = SizeRule(0, rules[0].executor, rules[0].lookahead, rules[0].inflight, rules[0].split)
    merged = [rules[0]]
    for rule in rules[1:]:
        if (rule.executor, rule.lookahead, rule.inflight, rule.split) != \
                (merged[-1].executor, merged[-1].lookahead, merged[-1].inflight, merged[-1].split):
            merged.append(rule)
    return tuple(merged), f"from {Path(where).name}, measured at {', '.join(said)}"


def read_report(path: Path) -> object:
    """A JSON file's content (a regular file of at most :data:`MAX_REPORT_BYTES`); FormatError naming the file."""
    from tesearch.running.files import read_json_file

    return read_json_file(path, max_bytes=MAX_REPORT_BYTES)


def read_rank_map(path: Path, ranks: int) -> tuple[int, ...]:
    """A rank map file: a JSON list, or whitespace-separated integers; entry r is the tesearch rank (the element in
    tesearch's rank numbering) that MPI rank r runs.  FormatError naming the file unless it is a permutation of
    0..ranks-1."""
    from tesearch.running.files import read_text_file

    text = read_text_file(path, max_bytes=MAX_RANK_MAP_BYTES)  # a regular file only: never a FIFO or a device
    stripped = text.strip()
    if stripped.startswith("["):
        from tesearch.running.files import parse_json_text

        values = parse_json_text(stripped, str(path))
        if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise FormatError("a rank map is a list of integers", where=str(path))
    else:
        values = []
        for number, word in enumerate(stripped.split(), start=1):
            if not re.fullmatch(r"-?[0-9]{1,18}", word):
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
    rules = ",\n  ".join(f"{{{r.min_bytes}ull, {EXECUTOR_CODES[r.executor]}, {r.lookahead}, {r.inflight}, {r.split}}}"
                         for r in plan.rules)
    return "\n".join([
        f"/* te_embedded.c: written by tesearch library for {plan.network}; do not edit. */",
        "typedef struct { unsigned long long min_bytes; int executor, lookahead, inflight, split; } te_size_rule;",
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


def library_compiler(mpicc: str | None) -> str:
    """The MPI C compiler to build with, as an absolute path (a relative one names a file from the current directory,
    not from the scratch directory the build runs in); OptionError when there is none."""
    import os

    from tesearch.running.errors import OptionError
    from tesearch.schedules.execute.build import Flavour, compiler

    if mpicc is None:
        return os.path.abspath(compiler(Flavour.MPI))
    if not mpicc:
        raise OptionError("--mpicc: an empty name; give the MPI C compiler (mpicc, or its path)")
    found = shutil.which(mpicc)
    if found is None:
        what = ("is not an executable file" if Path(mpicc).exists() else "no such file") if "/" in mpicc else \
            "no such program on PATH"
        raise OptionError(f"--mpicc {mpicc}: {what}")
    return os.path.abspath(found)


#: the start of every ELF file, and the e_type of a shared object (ET_DYN)
ELF_MAGIC = b"\x7fELF"
ELF_SHARED_OBJECT = 3


def check_shared_library(path: Path, compiler: str) -> bytes:
    """The bytes the compiler wrote at ``path`` when they are a shared object that defines MPI_Alltoall (its dynamic
    symbol table, by ``nm -D --defined-only`` when nm is there, else its name among the ELF strings); BuildFailed
    (exit 4) naming the compiler otherwise (a compiler that exits 0 and writes nothing, or text)."""
    from tesearch.running.files import read_bytes
    from tesearch.running.processes import run_captured
    from tesearch.schedules.execute.build import BuildFailed

    who = Path(compiler).name
    if not path.is_file():
        raise BuildFailed(f"{who} exited 0 but wrote no {LIBRARY_NAME}")
    data = read_bytes(path, BuildFailed)
    if data[:4] != ELF_MAGIC or len(data) < 64:
        raise BuildFailed(f"{who} exited 0 but wrote {len(data)} bytes that are not an ELF shared object")
    endian = "little" if data[5] == 1 else "big"
    if int.from_bytes(data[16:18], endian) != ELF_SHARED_OBJECT:
        raise BuildFailed(f"{who} wrote an ELF file that is not a shared object")
    nm = shutil.which("nm")
    if nm is not None:
        done = run_captured([nm, "-D", "--defined-only", str(path)], timeout_s=60, phase="build")
        defined = done.status == 0 and any(line.split()[-1:] == ["MPI_Alltoall"] for line in done.stdout.splitlines())
    else:
        defined = b"\0MPI_Alltoall\0" in data
    if not defined:
        raise BuildFailed(f"{who} wrote a shared object that does not define MPI_Alltoall")
    return data


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
superstep), pipelined (the table's order on every link, every hop in P pieces, W pieces in flight per link).

## Environment (give every rank the same values)

| variable | effect |
|---|---|
| `TESEARCH_ALLTOALL_EXECUTOR=pmpi\\|step\\|dataflow\\|combined\\|pipelined` | that executor at every size, instead of the rules (pipelined: the rule's pieces and window, else one and one) |
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
