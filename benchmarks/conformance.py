"""mpi4py's own collective tests with the tesearch library preloaded, on 8, 16 and 24 ranks (issue 46); with
``--check``, tests/c/alltoall_check.c on the libraries of the 128-rank tables.

    python -m benchmarks.conformance                       # 8, 16 and 24 ranks; prints the report
    python -m benchmarks.conformance --ranks 16,24 --report results/conformance.md
    python -m benchmarks.conformance --check torus-4x4x8,hypercube-7 --report results/conformance-check.md

mpi4py's test directory comes from its source distribution (the installed version), downloaded once with
``pip download mpi4py --no-binary mpi4py --no-deps`` into tesearch's cache.  For each row a library is made by
``tesearch library`` from the committed table of that many nodes (hypercube-3, hypercube-4, star-4), preloaded into
every rank of ``mpiexec -n RANKS python runtests.py -i test_cco_buf -i test_cco_obj`` (the mpi extra's MPICH) with
``TESEARCH_ALLTOALL_STATS=1``: a row passes when mpiexec exits 0, every rank ran the same number of tests (more than
100) and reported OK with no failure, and every rank's library ran some of its MPI_Alltoall calls on the schedule.

The suite runs the same on 4 ranks (hypercube-2's library), a slow test in tests/test_library.py; the 8-, 16- and
24-rank rows take 1 to 16 minutes each on the 2-core machine and live here, outside the test suite (its whole run is kept well under ten minutes).  The
report gives each row's verdict, tests per rank, calls on the schedule, wall clock and the load average.

``--check TABLES`` runs instead tests/c/alltoall_check.c (13 cases through MPI_Alltoall and PMPI_Alltoall on the same
buffers: block sizes, MPI_INT, repeated calls, a duplicate communicator, and the fall-backs), compiled with the mpi
extra's mpicc, on one rank per node of each committed table with that table's library preloaded, as
tests/test_library.py's test_preloaded_library_gives_what_pmpi_alltoall_gives does on hypercube-3, star-4 and star-5
(120 ranks, the suite's largest).  A row passes when mpiexec exits 0, the program says all 13 cases are the same,
and every rank's library line says 13 calls, 8 on the schedule (all 8 by the combined executor, the default rule)
and the others sent to PMPI_Alltoall for the expected reasons.  The 128-rank rows (torus-4x4x8, hypercube-7: about
50 s each on the 2-core machine, most of the whole suite's tail) live here, outside the suite.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tesearch.running.errors import TesearchError, run_script
from tesearch.running.processes import run_captured
from tesearch.schedules.execute.build import cache_directory
from tesearch.schedules.execute.mpi import find_mpiexec, mpi_environment

ROOT = Path(__file__).resolve().parent.parent
#: mpi4py's collective test modules (with them, by name, the intercommunicator variants)
MPI4PY_TESTS = ("test_cco_buf", "test_cco_obj")
#: the committed table of each row's size
TABLES = {8: "hypercube-3.json", 16: "hypercube-4.json", 24: "star-4.json"}
#: a rank's library line at MPI_Finalize (TESEARCH_ALLTOALL_STATS=1): calls, on the schedule
STATS = re.compile(r"tesearch_alltoall: rank (\d+): (\d+) MPI_Alltoall calls, (\d+) on the schedule")
#: mpi4py's unittest summary line; not only at a line's start: several ranks' lines may interleave
RAN = re.compile(r"Ran (\d+) tests? in")
#: --check: the program, its cases, and what each rank's library line must say (as tests/test_library.py)
CHECK_SOURCE = ROOT / "tests" / "c" / "alltoall_check.c"
CHECK_CASES = 13
CHECK_ON_SCHEDULE = 8  # 2 MPI_INT sent and one contiguous pair received: provably the same bytes, on the schedule
CHECK_FALLBACKS = {"another communicator size": 1, "MPI_IN_PLACE": 1, "a zero count": 1, "datatypes or counts": 2}
CHECK_TABLES = ("torus-4x4x8", "hypercube-7")
CHECK_STATS = re.compile(r"tesearch_alltoall: rank (\d+): (\d+) MPI_Alltoall calls, (\d+) on the schedule \(step \d+, "
                         r"dataflow \d+, combined (\d+), pipelined \d+\), \d+ to PMPI_Alltoall(?: \(([^)]*)\))?;")


class Unavailable(Exception):
    """The tests cannot run here (no network for the download): the reason."""


def mpi4py_test_dir() -> Path:
    """mpi4py's test directory from its source distribution (the installed version), downloaded once into
    tesearch's cache (``:all:`` would build its build dependencies from source too: more than 5 minutes here).
    Unavailable with the reason when it cannot be had."""
    try:
        import mpi4py
    except ImportError:
        raise Unavailable("mpi4py is not installed (the mpi extra)") from None
    version = mpi4py.__version__
    cache = cache_directory() / "mpi4py-sdist"
    tests = cache / f"mpi4py-{version}" / "test"
    if tests.is_dir():
        return tests
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / f"mpi4py-{version}.tar.gz"
    if not archive.exists():
        done = run_captured([sys.executable, "-m", "pip", "download", f"mpi4py=={version}", "--no-binary", "mpi4py",
                             "--no-deps", "-d", str(cache)], timeout_s=1200)
        if done.status != 0 or not archive.exists():
            raise Unavailable(f"mpi4py's source distribution could not be downloaded (no network?): "
                              f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(f"mpi4py-{version}/test/")]
        tar.extractall(cache, members=members, filter="data")
    return tests


@dataclass(frozen=True)
class Mpi4pyRun:
    """One run of mpi4py's collective tests under mpiexec with the library preloaded."""

    ranks: int
    status: int  # mpiexec's exit status
    tests_per_rank: tuple[int, ...]  # each rank's "Ran N tests"
    ok_lines: int  # how many ranks printed OK
    failed: bool  # some rank printed "FAILED ("
    on_schedule: tuple[int, ...]  # each rank's calls on the schedule (its library's line at MPI_Finalize)
    calls: tuple[int, ...]  # each rank's MPI_Alltoall calls
    seconds: float
    stderr_tail: str

    @property
    def problems(self) -> list[str]:
        """Why the run does not pass (empty: it passes)."""
        found = []
        if self.status != 0:
            found.append(f"mpiexec exited {self.status}")
        if len(self.tests_per_rank) != self.ranks or len(set(self.tests_per_rank)) != 1 \
                or min(self.tests_per_rank, default=0) <= 100:
            found.append(f"tests per rank {list(self.tests_per_rank)} (want {self.ranks} equal counts above 100)")
        if self.ok_lines < self.ranks or self.failed:
            found.append(f"{self.ok_lines} ranks said OK" + (", some rank FAILED" if self.failed else ""))
        if len(self.on_schedule) != self.ranks or min(self.on_schedule, default=0) == 0:
            found.append(f"calls on the schedule per rank {list(self.on_schedule)} (want {self.ranks} lines, none 0)")
        return found

    @property
    def passed(self) -> bool:
        return not self.problems


def run_mpi4py(library: Path, ranks: int, *, mpiexec: Path | None = None, timeout_s: float = 3600) -> Mpi4pyRun:
    """mpi4py's collective tests on ``ranks`` ranks with ``library`` (libtesearch_alltoall.so) preloaded."""
    tests = mpi4py_test_dir()
    environment = mpi_environment({"TESEARCH_ALLTOALL_STATS": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    environment.pop("PYTHONPATH", None)
    command = [str(mpiexec or find_mpiexec()), "-n", str(ranks), "-env", "LD_PRELOAD", str(library),
               sys.executable, "runtests.py"]
    for test in MPI4PY_TESTS:
        command += ["-i", test]
    started = time.monotonic()
    done = run_captured(command, cwd=tests, env=environment, timeout_s=timeout_s)
    seconds = time.monotonic() - started
    err = done.stderr
    stats = [m for m in map(STATS.match, err.splitlines()) if m]
    return Mpi4pyRun(ranks, done.status, tuple(int(n) for n in RAN.findall(err)),
                     len(re.findall(r"\bOK\b", err)), "FAILED (" in err, tuple(int(m.group(3)) for m in stats),
                     tuple(int(m.group(2)) for m in stats), seconds, err[-3000:])


@dataclass(frozen=True)
class CheckRun:
    """One run of alltoall_check.c under mpiexec with a table's library preloaded."""

    table: str
    ranks: int
    status: int  # mpiexec's exit status
    same_cases: int  # cases the program printed as "same"
    summary: bool  # it printed "CHECKED 13 cases, 0 differ"
    calls: tuple[int, ...]  # each rank's MPI_Alltoall calls (its library's line at MPI_Finalize)
    on_schedule: tuple[int, ...]  # each rank's calls on the schedule
    combined: tuple[int, ...]  # each rank's calls on the schedule by the combined executor
    fallbacks_as_expected: bool  # every rank's reasons for PMPI_Alltoall are CHECK_FALLBACKS
    seconds: float
    tail: str

    @property
    def problems(self) -> list[str]:
        """Why the run does not pass (empty: it passes)."""
        found = []
        if self.status != 0:
            found.append(f"mpiexec exited {self.status}")
        if self.same_cases != CHECK_CASES or not self.summary:
            found.append(f"{self.same_cases} of {CHECK_CASES} cases the same" + ("" if self.summary else
                                                                                 ", no 0-differ summary"))
        if len(self.calls) != self.ranks:
            found.append(f"{len(self.calls)} library lines for {self.ranks} ranks")
        if set(self.calls) - {CHECK_CASES} or set(self.on_schedule) - {CHECK_ON_SCHEDULE} \
                or set(self.combined) - {CHECK_ON_SCHEDULE}:
            found.append(f"calls {sorted(set(self.calls))}, on the schedule {sorted(set(self.on_schedule))}, combined "
                         f"{sorted(set(self.combined))} (want {CHECK_CASES}, {CHECK_ON_SCHEDULE}, {CHECK_ON_SCHEDULE})")
        if not self.fallbacks_as_expected:
            found.append("reasons for PMPI_Alltoall differ from the expected ones")
        return found

    @property
    def passed(self) -> bool:
        return not self.problems


def compile_check_program(into: Path) -> Path:
    """tests/c/alltoall_check.c compiled with the mpi extra's mpicc (it knows nothing of the library)."""
    from tesearch.schedules.execute.build import Flavour, compiler

    binary = into / "alltoall_check"
    done = run_captured([compiler(Flavour.MPI), "-O2", "-o", str(binary), str(CHECK_SOURCE)], timeout_s=300)
    if done.status != 0:
        raise TesearchError(f"mpicc cannot compile {CHECK_SOURCE.name}: {done.stderr.strip()[-300:]}")
    return binary


def run_check(table: str, library: Path, ranks: int, program: Path, timeout_s: float = 3600) -> CheckRun:
    """alltoall_check on ``ranks`` ranks with ``library`` preloaded (TESEARCH_ALLTOALL_STATS=1)."""
    environment = mpi_environment({"TESEARCH_ALLTOALL_STATS": "1"})
    command = [str(find_mpiexec()), "-n", str(ranks), "-env", "LD_PRELOAD", str(library), str(program)]
    started = time.monotonic()
    done = run_captured(command, env=environment, timeout_s=timeout_s)
    seconds = time.monotonic() - started
    stats = [m for m in map(CHECK_STATS.match, done.stderr.splitlines()) if m]
    expected = all({k: int(v) for k, v in (r.rsplit(" ", 1) for r in (m.group(5) or "").split(", ") if r)}
                   == CHECK_FALLBACKS for m in stats)
    return CheckRun(table, ranks, done.status, done.stdout.count(" same\n"),
                    f"CHECKED {CHECK_CASES} cases, 0 differ" in done.stdout, tuple(int(m.group(2)) for m in stats),
                    tuple(int(m.group(3)) for m in stats), tuple(int(m.group(4)) for m in stats), expected, seconds,
                    (done.stdout[-1500:] + done.stderr[-1500:]))


def _spread(values: tuple[int, ...]) -> str:
    """One value when every rank has it, else the range."""
    return str(values[0]) if len(set(values)) == 1 else f"{min(values, default=0)} to {max(values, default=0)}"


def check_report(runs: list[CheckRun], loads: list[tuple[float, float]]) -> str:
    """The markdown report of the --check runs."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout
    lines = ["# tests/c/alltoall_check.c with the library preloaded, on tables the suite leaves out", "",
             f"`python -m benchmarks.conformance --check {','.join(r.table for r in runs)}` at commit "
             f"{commit.strip() or '?'}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: the program's "
             f"{CHECK_CASES} cases through MPI_Alltoall and PMPI_Alltoall on the same buffers, one rank per node under "
             f"the mpi extra's MPICH, the library of the committed table preloaded into every rank "
             f"(benchmarks/conformance.py says what passing means; tests/test_library.py runs the same check on 8, "
             f"24 and 120 ranks).", "",
             "| table | ranks | verdict | cases the same | MPI_Alltoall calls per rank | on the schedule per rank "
             "(combined) | wall clock | load average before, after |", "|---|---|---|---|---|---|---|---|"]
    for run, (before, after) in zip(runs, loads):
        verdict = "pass" if run.passed else "FAIL: " + "; ".join(run.problems)
        lines.append(f"| {run.table} | {run.ranks} | {verdict} | {run.same_cases} of {CHECK_CASES} | "
                     f"{_spread(run.calls)} | {_spread(run.on_schedule)} ({_spread(run.combined)}) | {run.seconds:.0f} s | "
                     f"{before:.1f}, {after:.1f} |")
    return "\n".join(lines) + "\n"


def run_checks(tables: list[str]) -> tuple[list[CheckRun], list[tuple[float, float]]]:
    """--check: alltoall_check.c on each table's nodes with its library preloaded."""
    import json

    runs, loads = [], []
    with tempfile.TemporaryDirectory(prefix="tesearch-conformance-check-") as scratch:
        program = compile_check_program(Path(scratch))
        for table in tables:
            path = ROOT / "results" / f"{table}.json"
            into = Path(scratch) / table
            into.mkdir()
            library = build_library(path, into)
            ranks = json.loads((into / "tesearch_alltoall.json").read_text())["ranks"]
            before = os.getloadavg()[0]
            print(f"{table}: alltoall_check on {ranks} ranks with its library ...", file=sys.stderr, flush=True)
            run = run_check(table, library, ranks, program)
            runs.append(run)
            loads.append((before, os.getloadavg()[0]))
            print(f"{table}: {'pass' if run.passed else 'FAIL: ' + '; '.join(run.problems)} ({run.seconds:.0f} s)",
                  file=sys.stderr, flush=True)
            if not run.passed:
                print(run.tail, file=sys.stderr)
    return runs, loads


def build_library(table: Path, into: Path) -> Path:
    """``tesearch library TABLE -o INTO``: the preloadable library's path."""
    done = subprocess.run([sys.executable, "-m", "tesearch.entry", "library", str(table), "-o", str(into), "--quiet"],
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise TesearchError(f"tesearch library {table.name} failed: {done.stderr.strip()[-300:]}")
    return into / "libtesearch_alltoall.so"


def report(runs: list[Mpi4pyRun], loads: list[tuple[float, float]]) -> str:
    """The markdown report of the runs."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout
    lines = ["# mpi4py's collective tests with the library preloaded", "",
             f"`python -m benchmarks.conformance --ranks {','.join(str(r.ranks) for r in runs)}` at commit "
             f"{commit.strip() or '?'}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: mpi4py's "
             f"{' and '.join(MPI4PY_TESTS)} under the mpi extra's MPICH, the library of the committed table of that "
             f"many nodes preloaded into every rank (benchmarks/conformance.py says what passing means).", "",
             "| ranks | table | verdict | tests per rank | MPI_Alltoall calls per rank | on the schedule (least rank) "
             "| wall clock | load average before, after |", "|---|---|---|---|---|---|---|---|"]
    for run, (before, after) in zip(runs, loads):
        verdict = "pass" if run.passed else "FAIL: " + "; ".join(run.problems)
        tests = str(run.tests_per_rank[0]) if len(set(run.tests_per_rank)) == 1 else str(list(run.tests_per_rank))
        calls = str(run.calls[0]) if len(set(run.calls)) == 1 else f"{min(run.calls, default=0)} to {max(run.calls, default=0)}"
        lines.append(f"| {run.ranks} | {TABLES[run.ranks].removesuffix('.json')} | {verdict} | {tests} | {calls} | "
                     f"{min(run.on_schedule, default=0)} | {run.seconds:.0f} s | {before:.1f}, {after:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.conformance", description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", default="8,16,24", help="rows, comma-separated, of 8, 16 and 24 (default: all)")
    parser.add_argument("--report", type=Path, help="write the markdown report here (default: print it)")
    parser.add_argument("--check", metavar="TABLES",
                        help="instead: tests/c/alltoall_check.c on these committed tables' nodes with their libraries "
                             f"preloaded, comma-separated (e.g. {','.join(CHECK_TABLES)})")
    args = parser.parse_args(argv)
    if args.check is not None:
        tables = [t.strip().removesuffix(".json") for t in args.check.split(",") if t.strip()]
        missing = [t for t in tables if not (ROOT / "results" / f"{t}.json").is_file()]
        if missing or not tables:
            parser.error(f"--check {args.check}: no committed table results/{(missing or [''])[0]}.json")
        runs, loads = run_checks(tables)
        text = check_report(runs, loads)
        if args.report:
            from tesearch.running.files import write_atomically

            write_atomically(args.report, text)
        else:
            print(text, end="")
        return 0 if all(r.passed for r in runs) else 1
    try:
        counts = [int(r) for r in args.ranks.split(",") if r.strip()]
    except ValueError:
        parser.error(f"--ranks {args.ranks}: comma-separated numbers")
    unknown = [r for r in counts if r not in TABLES]
    if unknown or not counts:
        parser.error(f"--ranks {args.ranks}: each of {', '.join(map(str, TABLES))}")
    try:
        mpi4py_test_dir()
    except Unavailable as exc:
        print(f"benchmarks.conformance: {exc}", file=sys.stderr)
        return 4
    runs, loads = [], []
    with tempfile.TemporaryDirectory(prefix="tesearch-conformance-") as scratch:
        for ranks in counts:
            into = Path(scratch) / str(ranks)
            into.mkdir()
            library = build_library(ROOT / "results" / TABLES[ranks], into)
            before = os.getloadavg()[0]
            print(f"{ranks} ranks: mpi4py's collective tests with {TABLES[ranks]}'s library ...", file=sys.stderr,
                  flush=True)
            run = run_mpi4py(library, ranks)
            runs.append(run)
            loads.append((before, os.getloadavg()[0]))
            print(f"{ranks} ranks: {'pass' if run.passed else 'FAIL: ' + '; '.join(run.problems)} "
                  f"({run.seconds:.0f} s)", file=sys.stderr, flush=True)
    text = report(runs, loads)
    if args.report:
        from tesearch.running.files import write_atomically

        write_atomically(args.report, text)
    else:
        print(text, end="")
    return 0 if all(r.passed for r in runs) else 1


if __name__ == "__main__":
    run_script(main)
