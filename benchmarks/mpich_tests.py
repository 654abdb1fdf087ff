"""MPICH's own alltoall, error and threadcomm tests with the tesearch library preloaded (issue 46).

    python -m benchmarks.mpich_tests --sources DIR                      # prints the report
    python -m benchmarks.mpich_tests --sources DIR --report results/mpich-tests.md

MPICH's test code is not part of tesearch (nor may it be committed here): DIR holds MPICH's test sources in their
paths of MPICH's repository (``DIR/test/mpi/coll/alltoall1.c``, ``DIR/test/mpi/util/mtest.c`` ...), fetched by
whoever runs this; a ``DIR/SOURCES.txt`` of lines ``PATH<TAB>COMMIT`` (what was fetched, from which commit of
pmodels/mpich) is copied into the report.  This file names the tests, their rank counts (MPICH's testlists) and
how to build them, nothing of their code.

MTest's framework needs the header MPICH's configure writes (``mpitestconf.h``): this runner writes a small one
of its own into the build directory (:data:`CONFIGURATION_HEADER`: the C library's headers, pthreads, MPI-3
windows).  Two tests were written for a newer framework than the ``mtest.c`` whose version matches the headers
(``alltoalllength.c``, ``threadcomm_coll.c``): in it ``MTest_Finalize`` also calls ``MPI_Finalize`` and
``mpitest.h`` includes ``mpi.h``, ``stdio.h`` and ``mpithreadtest.h``.  For those two the runner passes those
headers with ``-include`` and links :data:`FINALIZE_GLUE` (its own four lines, through ``-Wl,--wrap``: the older
``MTest_Finalize`` and then ``MPI_Finalize``), as the newer framework does; without it the processes end without
``MPI_Finalize`` and the run is undefined (killed by mpiexec, output lost).

Each test is built once with the mpi extra's ``mpicc`` and run under its ``mpiexec`` with the ranks of MPICH's
testlist, once without the library and once with ``LD_PRELOAD`` of the library ``tesearch library`` makes from the
committed table whose node count is the size of the communicators the test's ``MPI_Alltoall`` runs on
(:data:`TABLES`: the world's ranks, times the 4 threads of a thread communicator); both with
``TESEARCH_ALLTOALL_STATS=1`` (read only with the library).  A run passes as MPICH's ``runtests`` decides: exit
status 0, a ``No Errors`` line, and no other output (the library's own ``tesearch_alltoall:`` lines aside).  The
report lists per test: ranks, table, the verdict without and with the library, and the library's MPI_Alltoall calls
summed over the ranks: on the schedule, and sent to ``PMPI_Alltoall`` with the reasons it counts.  ``alltoall1``
also runs in each environment MPICH's ``coll/testlist.collalgo`` gives it (every MPI_Alltoall algorithm of MPICH's
``maint/coll_cvars.txt``: :func:`alltoall_algorithm_environments`), which picks the algorithm of the calls the
library sends to ``PMPI_Alltoall``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tesearch.running.errors import TesearchError, run_script
from tesearch.running.processes import run_captured
from tesearch.schedules.execute.build import Flavour, compiler
from tesearch.schedules.execute.mpi import find_mpiexec, mpi_environment

ROOT = Path(__file__).resolve().parent.parent
#: MPICH's test tree inside --sources
TEST_TREE = Path("test/mpi")
#: MTest's framework (MPICH's files) every MTest program links
MTEST = ("util/mtest.c",)
#: MTest's thread layer
MTEST_THREADS = ("threads/util/mtestthread.c",)
#: threads per process of MPICH's threadcomm_coll.c (its NTHREADS)
THREADCOMM_THREADS = 4
#: the committed table for each communicator size the tests' MPI_Alltoall calls see (a size not here has no table)
TABLES = {2: "hypercube-1", 4: "hypercube-2", 5: "ring-5", 7: "ring-7", 8: "hypercube-3", 16: "hypercube-4"}
#: MPICH runtests's passing line
NO_ERRORS = re.compile(r"^\s*No [Ee]rrors\s*$")
#: the library's own lines (its description on rank 0 and each rank's counts at MPI_Finalize)
LIBRARY_LINE = re.compile(r"^tesearch_alltoall: ")
#: a rank's counts at MPI_Finalize: calls, on the schedule, to PMPI_Alltoall and the reasons in brackets
STATS = re.compile(r"^tesearch_alltoall: rank (\d+): (\d+) MPI_Alltoall calls, (\d+) on the schedule \([^)]*\), "
                   r"(\d+) to PMPI_Alltoall(?: \(([^)]*)\))?")
#: mpitestconf.h for MTest (what MPICH's configure finds on this Linux): ours, not MPICH's
CONFIGURATION_HEADER = """\
/* mpitestconf.h written by tesearch's benchmarks/mpich_tests.py in place of MPICH's configure output */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define STDC_HEADERS 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STDARG_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_PTHREAD_H 1
#define HAVE_PTHREAD_BARRIER_INIT 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_MPI_WIN_CREATE 1
/* the newer mpitest.h defines it (a valgrind annotation, nothing without valgrind) */
#ifndef MTEST_VG_MEM_INIT
#define MTEST_VG_MEM_INIT(addr_, len_) do { } while (0)
#endif
#endif
"""
#: the newer framework's MTest_Finalize ends with MPI_Finalize: ours, linked with -Wl,--wrap=MTest_Finalize
FINALIZE_GLUE = """\
/* tesearch's benchmarks/mpich_tests.py: MTest_Finalize as in MPICH's newer framework (it also finalizes MPI) */
#include <mpi.h>
void __real_MTest_Finalize(int errs);
void __wrap_MTest_Finalize(int errs) { __real_MTest_Finalize(errs); MPI_Finalize(); }
"""
#: what the newer mpitest.h includes, for the tests written for it
NEWER_HEADERS = ("mpi.h", "stdio.h")


#: MPI_Alltoall's algorithms in MPICH's maint/coll_cvars.txt (intra-blocking, then intra-nonblocking run through
#: the blocking call's "nb" algorithm), each with its extra CVARs and their values
#: the testlists the rank counts were read from, at the pmodels/mpich commits read (file by file, as the sources)
TESTLIST_COMMITS = {"coll/testlist": "04060d1d639e74db1719873c7e0ed1998dd6c972",
                    "coll/testlist.in": "011038e11648991f1956982cb54ca6b29f367c58",
                    "errors/coll/testlist.in": "3563541aa403a00127e4b4d1aabe8761b287df34",
                    "impls/mpich/threads/threadcomm/testlist": "b169849dae30c268a96dde0267652bc0a818c8ce",
                    "maint/gen_coll_cvar.py": "b5f5d01d9399de60254028fda0a61a6c6d409b7d"}
#: the commit of pmodels/mpich whose maint/coll_cvars.txt they come from
COLL_CVARS_COMMIT = "3f80d35a1d3f7ac9ca8a30add5a9cbfdc6f975dc"
ALLTOALL_BLOCKING_ALGORITHMS = (("composition:1", ()), ("composition:2", ()), ("brucks", ()),
                                ("k_brucks", (("MPIR_CVAR_ALLTOALL_BRUCKS_KVAL", "2,3,4"),)), ("pairwise", ()),
                                ("pairwise_sendrecv_replace", ()), ("scattered", ()))
ALLTOALL_NONBLOCKING_ALGORITHMS = (("sched_brucks", ()), ("sched_inplace", ()), ("sched_pairwise", ()),
                                   ("sched_permuted_sendrecv", ()), ("tsp_ring", ()),
                                   ("tsp_brucks", (("MPIR_CVAR_IALLTOALL_BRUCKS_KVAL", "2,3,4"),
                                                   ("MPIR_CVAR_IALLTOALL_BRUCKS_BUFFER_PER_NBR", "0,1"))),
                                   ("tsp_scattered", (("MPIR_CVAR_IALLTOALL_SCATTERED_BATCH_SIZE", "1,2,4"),
                                                      ("MPIR_CVAR_IALLTOALL_SCATTERED_OUTSTANDING_TASKS", "4,8"))))


def alltoall_algorithm_environments() -> tuple[tuple[str, ...], ...]:
    """The environments MPICH's coll/testlist.collalgo gives its alltoall tests, one per algorithm and choice of its
    extra CVARs, made as MPICH's maint/gen_coll_cvar.py makes them from maint/coll_cvars.txt."""
    import itertools

    def expanded(base: list[str], params: tuple[tuple[str, str], ...]) -> list[tuple[str, ...]]:
        choices = [[f"{name}={value}" for value in values.split(",")] for name, values in params]
        return [tuple(base) + combination for combination in itertools.product(*choices)]

    out: list[tuple[str, ...]] = []
    for algorithm, params in ALLTOALL_BLOCKING_ALGORITHMS:
        if algorithm.startswith("composition:"):
            base = [f"MPIR_CVAR_ALLTOALL_COMPOSITION={algorithm.split(':', 1)[1]}"]
        else:
            base = ["MPIR_CVAR_ALLTOALL_DEVICE_COLLECTIVE=0", f"MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM={algorithm}"]
        out += expanded(base, params)
    for algorithm, params in ALLTOALL_NONBLOCKING_ALGORITHMS:
        base = ["MPIR_CVAR_ALLTOALL_DEVICE_COLLECTIVE=0", "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=nb",
                "MPIR_CVAR_IALLTOALL_DEVICE_COLLECTIVE=0", f"MPIR_CVAR_IALLTOALL_INTRA_ALGORITHM={algorithm}"]
        out += expanded(base, params)
    return tuple(out)


@dataclass(frozen=True)
class MpichTest:
    """One of MPICH's test programs: its source under test/mpi, the ranks of its testlist and how it is built."""

    name: str
    source: str  # under test/mpi
    ranks: tuple[int, ...]  # MPICH's testlist (plus the 2 processes for threadcomm_coll)
    testlist: str  # where the ranks come from
    framework: tuple[str, ...] = MTEST  # further sources under test/mpi
    includes: tuple[str, ...] = ()  # headers passed with -include
    newer_framework: bool = False  # written for the MTest_Finalize that finalizes MPI (FINALIZE_GLUE)
    threads_per_rank: int = 1  # ranks of the communicator its MPI_Alltoall runs on, per process
    algorithm_runs: bool = False  # also run in each environment of MPICH's coll/testlist.collalgo for MPI_Alltoall

    def communicator_size(self, ranks: int) -> int:
        """The size of the communicators its MPI_Alltoall runs on (the table's node count)."""
        return ranks * self.threads_per_rank


#: every MPICH test that calls MPI_Alltoall among those fetched (coll/, errors/coll/, the threadcomm tests)
TESTS = (
    MpichTest("alltoall1", "coll/alltoall1.c", (8,), "coll/testlist", algorithm_runs=True),
    MpichTest("coll13", "coll/coll13.c", (4,), "coll/testlist"),
    MpichTest("icalltoall", "coll/icalltoall.c", (5, 7), "coll/testlist"),
    MpichTest("noalias2", "errors/coll/noalias2.c", (4,), "errors/coll/testlist.in"),
    MpichTest("noalias3", "errors/coll/noalias3.c", (4,), "errors/coll/testlist.in"),
    MpichTest("alltoalllength", "errors/coll/alltoalllength.c", (4,), "errors/coll/testlist.in",
              includes=NEWER_HEADERS, newer_framework=True),
    MpichTest("threadcomm_coll", "impls/mpich/threads/threadcomm/threadcomm_coll.c", (1, 2, 4),
              "impls/mpich/threads/threadcomm/testlist (1, 4; 2 from issue 46)", framework=MTEST + MTEST_THREADS,
              includes=NEWER_HEADERS + ("mpithreadtest.h",), newer_framework=True,
              threads_per_rank=THREADCOMM_THREADS),
)


@dataclass(frozen=True)
class Outcome:
    """One run of a test under mpiexec: MPICH's verdict and, with the library, its counts."""

    passed: bool
    why: str  # why it did not pass ("" when it did)
    ranks_counted: int  # ranks that printed the library's counts
    calls: int  # MPI_Alltoall calls, summed over the ranks
    on_schedule: int
    to_pmpi: int
    reasons: str  # rank 0's reasons for the calls sent to PMPI_Alltoall
    seconds: float

    @property
    def verdict(self) -> str:
        return "pass" if self.passed else f"FAIL: {self.why}"


def judge(status: int | None, output: str, seconds: float) -> Outcome:
    """MPICH runtests's verdict on a run's output (standard output and error together) and the library's counts."""
    lines = [line for line in output.splitlines() if line.strip()]
    counts = [m for m in map(STATS.match, lines) if m]
    others = [line for line in lines if not LIBRARY_LINE.match(line)]
    unexpected = [line for line in others if not NO_ERRORS.match(line)]
    why = []
    if status != 0:
        why.append("stopped at the time limit" if status is None else f"exit status {status}")
    if not any(NO_ERRORS.match(line) for line in others):
        why.append("no 'No Errors' line")
    if unexpected:
        why.append(f"{len(unexpected)} other line{'s' if len(unexpected) > 1 else ''}, first: "
                   f"'{unexpected[0].strip()[:120]}'")
    rank0 = next((m for m in counts if m.group(1) == "0"), None)
    return Outcome(not why, "; ".join(why), len(counts), sum(int(m.group(2)) for m in counts),
                   sum(int(m.group(3)) for m in counts), sum(int(m.group(4)) for m in counts),
                   (rank0.group(5) or "") if rank0 else "", seconds)


def build(test: MpichTest, sources: Path, into: Path) -> Path:
    """The test's program, built with the mpi extra's mpicc into ``into`` (TesearchError when it does not build)."""
    tree = sources / TEST_TREE
    files = [tree / test.source] + [tree / f for f in test.framework]
    missing = [str(f.relative_to(sources)) for f in files if not f.is_file()]
    if missing:
        raise TesearchError(f"--sources {sources}: no {', '.join(missing)} (MPICH's test files in their paths)")
    command = [compiler(Flavour.MPI), "-w", f"-I{into}", f"-I{tree / 'include'}"]
    for header in test.includes:
        command += ["-include", header]
    command += ["-o", str(into / test.name)] + [str(f) for f in files]
    if test.newer_framework:
        glue = into / "mtest_finalize_glue.c"
        glue.write_text(FINALIZE_GLUE)
        command += [str(glue), "-Wl,--wrap=MTest_Finalize"]
    command.append("-lpthread")
    done = run_captured(command, timeout_s=600, phase="build")
    if done.status != 0:
        raise TesearchError(f"mpicc could not build {test.source}: "
                            f"{(done.stderr or done.stdout).strip().splitlines()[-1:] or ['(no message)']}")
    return into / test.name


def build_library(table: str, into: Path) -> Path:
    """``tesearch library results/TABLE.json -o INTO``: the preloadable library's path."""
    into.mkdir(parents=True, exist_ok=True)
    done = run_captured([sys.executable, "-m", "tesearch.entry", "library", str(ROOT / "results" / f"{table}.json"),
                         "-o", str(into), "--quiet"], cwd=ROOT, timeout_s=600, phase="build")
    if done.status != 0:
        raise TesearchError(f"tesearch library {table} failed: {done.stderr.strip()[-300:]}")
    return into / "libtesearch_alltoall.so"


def run(program: Path, ranks: int, library: Path | None, timeout_s: float, settings: tuple[str, ...] = ()) -> Outcome:
    """``mpiexec -n RANKS PROGRAM``, with ``library`` preloaded into every rank when given, and the environment
    ``settings`` (``NAME=VALUE``: MPICH's CVARs of an algorithm run)."""
    command = [str(find_mpiexec()), "-n", str(ranks)]
    if library is not None:
        command += ["-env", "LD_PRELOAD", str(library)]
    environment = mpi_environment({"TESEARCH_ALLTOALL_STATS": "1",
                                   **dict(setting.split("=", 1) for setting in settings)})
    environment.pop("LD_PRELOAD", None)
    started = time.monotonic()
    done = run_captured(command + [str(program)], cwd=program.parent, env=environment, timeout_s=timeout_s)
    return judge(done.status, done.stdout + "\n" + done.stderr, time.monotonic() - started)


@dataclass(frozen=True)
class Row:
    """A test at one rank count, without and with the library."""

    test: MpichTest
    ranks: int
    settings: tuple[str, ...]  # MPICH's CVARs of an algorithm run (empty: the testlist's run)
    table: str | None
    without: Outcome
    with_library: Outcome | None  # None: no committed table of that size


def provenance(sources: Path) -> list[str]:
    """The report's lines on where the sources came from (``SOURCES.txt`` in --sources when it is there)."""
    listing = sources / "SOURCES.txt"
    lines = []
    if listing.is_file():
        for line in listing.read_text(errors="replace").splitlines():
            if line.strip() and not line.startswith("#") and "\t" in line:
                path, commit = line.split("\t", 1)
                lines.append(f"| `{path.strip()}` | `{commit.strip()}` |")
    if not lines:
        return ["The sources' commits were not recorded (no SOURCES.txt in the source directory)."]
    return ["| MPICH file | pmodels/mpich commit it was read at |", "|---|---|"] + lines


def calls_cell(outcome: Outcome | None, ranks: int) -> str:
    """The library's counts, summed over the ranks."""
    if outcome is None:
        return "no table"
    if outcome.ranks_counted == 0 and outcome.passed:
        return "no counts: no MPI_Alltoall call (the library prints them once it has had one)"
    if outcome.ranks_counted < ranks:
        return f"counts from {outcome.ranks_counted} of {ranks} ranks"
    text = f"{outcome.calls} calls: {outcome.on_schedule} on the schedule, {outcome.to_pmpi} to PMPI"
    return text + (f" (rank 0: {outcome.reasons})" if outcome.reasons else "")


def algorithm_cell(row: Row) -> str:
    """Where the run comes from: the testlist, or coll/testlist.collalgo with its CVARs (their MPIR_CVAR_ cut)."""
    if not row.settings:
        return row.test.testlist
    return "coll/testlist.collalgo: " + ", ".join(s.removeprefix("MPIR_CVAR_") for s in row.settings)


def report(rows: list[Row], sources: Path, loads: tuple[float, float]) -> str:
    """The markdown report."""
    import subprocess

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout
    lines = ["# MPICH's own alltoall, error and threadcomm tests with the library preloaded", "",
             "Sources: pmodels/mpich's test files, fetched file by file (each at the commit below, the version the "
             "public store held; MPICH's code is not in this repository), with an `mpitestconf.h` written by "
             "`benchmarks/mpich_tests.py` in place of MPICH's configure output (and, for the two tests written for "
             "MPICH's newer MTest framework, that framework's `MTest_Finalize`-then-`MPI_Finalize`; the runner's "
             "docstring says how).", ""]
    lines += provenance(sources)
    lines += ["", "Rank counts and algorithm environments were read from MPICH's " +
              ", ".join(f"`test/mpi/{name}` (`{commit[:12]}`)" for name, commit in TESTLIST_COMMITS.items()) +
              " and `maint/coll_cvars.txt` (below)."]
    if any(row.settings for row in rows):
        lines += ["", "The algorithm runs of `alltoall1` are MPICH's `coll/testlist.collalgo` for MPI_Alltoall: "
                  f"{len(alltoall_algorithm_environments())} environments, one per algorithm of MPICH's "
                  "`test/mpi/maint/coll_cvars.txt` (read at pmodels/mpich commit "
                  f"`{COLL_CVARS_COMMIT}`) and choice of its extra CVARs, formed as its `maint/gen_coll_cvar.py` "
                  "forms them (the runner lists the names; with the library they set the algorithm of the calls it "
                  "sends to `PMPI_Alltoall`)."]
    lines += ["", f"`python -m benchmarks.mpich_tests --sources DIR` at commit {commit.strip() or '?'}, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, the mpi extra's MPICH (mpicc, mpiexec), load "
              f"average {loads[0]:.1f} before and {loads[1]:.1f} after. A run passes as MPICH's runtests decides "
              "(exit 0, a `No Errors` line, no other output but the library's own lines). With the library: "
              "`LD_PRELOAD` of `tesearch library results/TABLE.json`'s library, `TESEARCH_ALLTOALL_STATS=1`; the "
              "calls are the library's counts summed over the ranks.", "",
              "| test | ranks | testlist (and MPICH's CVARs of an algorithm run) | table | without the library | with the library | MPI_Alltoall calls with "
              "the library | wall clock without, with |", "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        with_text = row.with_library.verdict if row.with_library else "not run: no committed table of " \
            f"{row.test.communicator_size(row.ranks)} nodes"
        wall = f"{row.without.seconds:.1f} s, " + (f"{row.with_library.seconds:.1f} s" if row.with_library else "-")
        lines.append(f"| {row.test.name} | {row.ranks}" +
                     (f" x {row.test.threads_per_rank} threads" if row.test.threads_per_rank > 1 else "") +
                     f" | {algorithm_cell(row)} | {row.table or '-'} | {row.without.verdict} | {with_text} | "
                     f"{calls_cell(row.with_library, row.ranks)} | {wall} |")
    worst = [r for r in rows if r.without.passed and r.with_library and not r.with_library.passed]
    both = [r for r in rows if not r.without.passed and r.with_library and not r.with_library.passed]
    lines += ["", f"Tests that pass without the library and fail with it: {len(worst)}" +
              (": " + ", ".join(f"{r.test.name} on {r.ranks}" for r in worst) if worst else "") + ".",
              f"Tests that fail without the library too (MPICH's verdict on MPICH alone): {len(both)}" +
              (": " + ", ".join(f"{r.test.name} on {r.ranks}" +
                                (" (the same reason both ways)" if r.without.why == r.with_library.why else "")
                                for r in both) if both else "") + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mpich_tests", description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, required=True,
                        help="directory holding MPICH's test files in their repository paths (test/mpi/...)")
    parser.add_argument("--report", type=Path, help="write the markdown report here (default: print it)")
    parser.add_argument("--tests", default="", help="comma-separated test names (default: all)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run (default 300)")
    args = parser.parse_args(argv)
    chosen = [t for t in TESTS if not args.tests or t.name in args.tests.split(",")]
    unknown = set(filter(None, args.tests.split(","))) - {t.name for t in TESTS}
    if unknown or not chosen:
        parser.error(f"--tests {args.tests}: each of {', '.join(t.name for t in TESTS)}")
    if args.timeout <= 0:
        parser.error(f"--timeout {args.timeout}: a positive number of seconds")
    sources = args.sources.resolve()
    if not (sources / TEST_TREE).is_dir():
        raise TesearchError(f"--sources {args.sources}: no {TEST_TREE} directory (MPICH's test files in their paths)")
    before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="tesearch-mpich-") as scratch:
        work = Path(scratch)
        (work / "mpitestconf.h").write_text(CONFIGURATION_HEADER)
        libraries: dict[str, Path] = {}
        for test in chosen:
            into = work / test.name
            into.mkdir()
            (into / "mpitestconf.h").write_text(CONFIGURATION_HEADER)
            program = build(test, sources, into)
            runs = [(ranks, ()) for ranks in test.ranks]
            if test.algorithm_runs:
                runs += [(ranks, settings) for ranks in test.ranks for settings in alltoall_algorithm_environments()]
            for ranks, settings in runs:
                table = TABLES.get(test.communicator_size(ranks))
                label = f"{test.name} on {ranks}" + (f" ({' '.join(settings)})" if settings else "")
                print(f"{label}: without the library ...", file=sys.stderr, flush=True)
                without = run(program, ranks, None, args.timeout, settings)
                with_library = None
                if table:
                    if table not in libraries:
                        libraries[table] = build_library(table, work / f"lib-{table}")
                    print(f"{label}: with {table}'s library ...", file=sys.stderr, flush=True)
                    with_library = run(program, ranks, libraries[table], args.timeout, settings)
                rows.append(Row(test, ranks, settings, table, without, with_library))
                print(f"{label}: without {without.verdict}; with "
                      f"{with_library.verdict if with_library else '(no table)'}", file=sys.stderr, flush=True)
    text = report(rows, sources, (before, os.getloadavg()[0]))
    if args.report:
        from tesearch.running.files import write_atomically

        write_atomically(args.report, text)
    else:
        print(text, end="")
    return 0 if all(r.without.passed and (r.with_library is None or r.with_library.passed) for r in rows) else 1


if __name__ == "__main__":
    run_script(main)
