"""tesearch library: an MPI_Alltoall (PMPI) that unmodified programs pick up, checked against PMPI_Alltoall.

tests/c/alltoall_check.c calls MPI_Alltoall and PMPI_Alltoall on the same buffers in one run, case by case (blocks
of several sizes, MPI_INT, repeated calls, a duplicate of MPI_COMM_WORLD, and the fall-backs: MPI_IN_PLACE, a
non-contiguous vector type, send and receive types that differ, one rank alone with another type, a sub-communicator
of another size, zero counts); with TESEARCH_ALLTOALL_STATS=1 each process says at MPI_Finalize how many calls ran
on the schedule and why the others went to PMPI_Alltoall, which shows the library was used.  The everyday tests run
hypercube-3 (8 ranks); star-4 (24) and star-5 (120) are slow, and torus-4x4x8 and hypercube-7 (128 ranks each) are
``python -m benchmarks.conformance --check``'s rows (results/conformance-check.md), outside the suite.  mpi4py's own
collective tests (from its source distribution, downloaded once into a cache) run with the library preloaded on 4
ranks, slow (8, 16 and 24: python -m benchmarks.conformance).
"""

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from tesearch.running.errors import SolverUnavailable
from tesearch.schedules.execute.build import Flavour, compiler
from tesearch.schedules.library import (DEFAULT_RULES, LibraryPlan, SizeRule, embedded_source, read_rank_map,
                                       rules_from_report)
from tesearch.schedules.execute.mpi import find_mpiexec, mpi_environment
from tesearch.running.processes import run_captured
from tesearch.networks.families import network_from_spec
from tesearch.schedules.programs.ranks import rank_numbering

RESULTS = ROOT / "results"
CHECK_SOURCE = ROOT / "tests" / "c" / "alltoall_check.c"
#: cases of alltoall_check.c on the schedule and sent to PMPI_Alltoall (by reason), per process, for two sizes
ON_SCHEDULE = 8  # 2 MPI_INT sent and one contiguous pair received: provably the same bytes, on the schedule
FALLBACKS = {"another communicator size": 1, "MPI_IN_PLACE": 1, "a zero count": 1, "datatypes or counts": 2}
_STATS = re.compile(r"tesearch_alltoall: rank (\d+): (\d+) MPI_Alltoall calls, (\d+) on the schedule \(step (\d+), "
                    r"dataflow (\d+), combined (\d+), pipelined (\d+)\), (\d+) to PMPI_Alltoall(?: \(([^)]*)\))?; "
                    r"(.*)$")


def _mpi_or_skip() -> tuple[str, Path]:
    try:
        return compiler(Flavour.MPI), find_mpiexec()
    except SolverUnavailable as exc:
        pytest.skip(f"the library tests need mpicc and mpiexec: {exc.message}")


@pytest.fixture(scope="session")
def mpi():
    """(mpicc, mpiexec) of the mpi extra."""
    return _mpi_or_skip()


@pytest.fixture(scope="session")
def libraries(tmp_path_factory, mpi):
    """libraries(name, *options) -> the directory tesearch library wrote for results/NAME.json (built once)."""
    built = {}

    def make(name: str, *options: str) -> Path:
        key = (name, options)
        if key not in built:
            directory = tmp_path_factory.mktemp(name.replace(".json", ""))
            result = run_cli("library", RESULTS / name, "-o", directory, *options, "--quiet")
            assert result.exit_code == 0, result.output
            built[key] = directory
        return built[key]
    return make


@pytest.fixture(scope="session")
def check_program(tmp_path_factory, mpi):
    """alltoall_check.c compiled with the mpi extra's mpicc (plain: it knows nothing of the library)."""
    binary = tmp_path_factory.mktemp("check") / "alltoall_check"
    done = run_captured([mpi[0], "-O2", "-o", str(binary), str(CHECK_SOURCE)], timeout_s=120)
    assert done.status == 0, done.stderr
    return binary


def run_check(mpiexec: Path, ranks: int, program: Path, *, preload: Path | None, env: dict | None = None,
              timeout: float = 120):
    """alltoall_check under mpiexec with TESEARCH_ALLTOALL_STATS=1 (and the library preloaded); (stdout, stats)."""
    environment = mpi_environment({"TESEARCH_ALLTOALL_STATS": "1", **(env or {})})
    command = [str(mpiexec), "-n", str(ranks)]
    if preload is not None:
        command += ["-env", "LD_PRELOAD", str(preload)]
    done = run_captured(command + [str(program)], env=environment, timeout_s=timeout)
    assert done.status == 0, done.stdout[-2000:] + done.stderr[-2000:]
    stats = {}
    for line in done.stderr.splitlines():
        if match := _STATS.match(line):
            rank, calls, on, step, dataflow, combined, pipelined, fell, reasons, neighbours = match.groups()
            stats[int(rank)] = {"calls": int(calls), "on": int(on), "step": int(step), "dataflow": int(dataflow),
                                "combined": int(combined), "pipelined": int(pipelined), "fell": int(fell),
                                "reasons": {k: int(v) for k, v in (r.rsplit(" ", 1) for r in (reasons or "").split(", ")
                                                                  if r)}, "neighbours": neighbours}
    return done.stdout, stats


def assert_agrees_and_used(stdout: str, stats: dict, ranks: int, executor: str) -> None:
    assert "CHECKED 13 cases, 0 differ" in stdout, stdout
    assert stdout.count(" same\n") == 13
    assert sorted(stats) == list(range(ranks)), stats.keys()  # one line per process: the library was loaded
    for numbers in stats.values():
        assert numbers["calls"] == 13 and numbers["on"] == ON_SCHEDULE and numbers[executor] == ON_SCHEDULE
        assert numbers["reasons"] == FALLBACKS


@pytest.mark.parametrize("name,ranks,executor", [
    ("hypercube-3.json", 8, "combined"),  # the default rules: combined at every size
    ("hypercube-3.json", 8, "step"),
    ("hypercube-3.json", 8, "dataflow"),
    ("hypercube-3.json", 8, "pipelined"),  # forced: the default rule names combined, so one piece, one in flight
    # 7.4 s of CPU (24 processes on 2 cores): the everyday twin is hypercube-3's 8 ranks above, the same 13 cases
    pytest.param("star-4.json", 24, "combined", marks=pytest.mark.slow),
    # 40 s on the 2-core machine (120 processes), the suite's largest; the other executors at this scale: run --mpi
    # (results/mpi.md), and this with TESEARCH_ALLTOALL_EXECUTOR by hand (step 51-56 s, dataflow 2:3 108 s).
    # torus-4x4x8 and hypercube-7 (128 processes, about 50 s each, the same program and judgement) are
    # benchmarks.conformance --check's rows, outside the suite (results/conformance-check.md)
    pytest.param("star-5.json", 120, "combined", marks=pytest.mark.slow),
])
def test_preloaded_library_gives_what_pmpi_alltoall_gives(mpi, libraries, check_program, name, ranks, executor):
    directory = libraries(name)
    env = {} if executor == "combined" else {"TESEARCH_ALLTOALL_EXECUTOR": executor,
                                             "TESEARCH_ALLTOALL_DATAFLOW": "2:3"}
    stdout, stats = run_check(mpi[1], ranks, check_program, preload=directory / "libtesearch_alltoall.so", env=env,
                              timeout=900)
    assert_agrees_and_used(stdout, stats, ranks, executor)


def test_a_program_linked_with_the_library_uses_it(mpi, libraries, tmp_path):
    directory = libraries("hypercube-3.json")
    binary = tmp_path / "linked"
    done = run_captured([mpi[0], "-O2", "-o", str(binary), str(CHECK_SOURCE), f"-L{directory}", "-ltesearch_alltoall",
                         f"-Wl,-rpath,{directory}"], timeout_s=120)
    assert done.status == 0, done.stderr
    stdout, stats = run_check(mpi[1], 8, binary, preload=None)
    assert_agrees_and_used(stdout, stats, 8, "combined")


def test_without_the_library_nothing_reports(mpi, check_program):
    """The counts come from the library alone: the same program without it prints none (and agrees trivially)."""
    stdout, stats = run_check(mpi[1], 8, check_program, preload=None)
    assert "CHECKED 13 cases, 0 differ" in stdout and stats == {}


def test_environment_overrides_the_size_rules(mpi, libraries, check_program):
    """TESEARCH_ALLTOALL_MIN_BYTES: blocks below it go to PMPI_Alltoall (the 8-byte, MPI_INT x 3 and 16-byte cases);
    TESEARCH_ALLTOALL_EXECUTOR=pmpi sends every call there."""
    lib = libraries("hypercube-3.json") / "libtesearch_alltoall.so"
    stdout, stats = run_check(mpi[1], 8, check_program, preload=lib, env={"TESEARCH_ALLTOALL_MIN_BYTES": "20"})
    assert "0 differ" in stdout
    assert {s["on"] for s in stats.values()} == {2}  # 65536 B and the 24-byte blocks of the duplicate
    # below 20 B: 8 B, MPI_INT x 3, the three 16-byte calls, and the 8-byte vector, pair and mixed-type cases
    assert {s["reasons"]["below the size rules"] for s in stats.values()} == {8}
    stdout, stats = run_check(mpi[1], 8, check_program, preload=lib, env={"TESEARCH_ALLTOALL_EXECUTOR": "pmpi"})
    assert "0 differ" in stdout and {s["on"] for s in stats.values()} == {0}


def test_a_rank_map_moves_the_nodes(mpi, libraries, check_program, tmp_path):
    """MPI rank r runs tesearch rank map[r]: its neighbours are the map's images of the node's neighbours."""
    mapping = [3, 6, 0, 5, 7, 1, 4, 2]
    (tmp_path / "map.txt").write_text("\n".join(map(str, mapping)) + "\n")
    directory = libraries("hypercube-3.json", "--rank-map", str(tmp_path / "map.txt"))
    plan = json.loads((directory / "tesearch_alltoall.json").read_text())
    assert plan["rank_map"] == mapping
    stdout, stats = run_check(mpi[1], 8, check_program, preload=directory / "libtesearch_alltoall.so")
    assert_agrees_and_used(stdout, stats, 8, "combined")
    numbering = rank_numbering(network_from_spec("hypercube-3"))
    mpi_rank_of = {t: r for r, t in enumerate(mapping)}
    for rank, numbers in stats.items():
        expected = [mpi_rank_of[numbering.neighbour(mapping[rank], k)] for k in range(3)]
        assert numbers["neighbours"] == f"rank {rank}'s neighbours " + " ".join(map(str, expected))
    plain = run_check(mpi[1], 8, check_program, preload=libraries("hypercube-3.json") / "libtesearch_alltoall.so")[1]
    assert plain[0]["neighbours"] != stats[0]["neighbours"]


def test_a_schedule_from_the_environment_is_checked_before_use(mpi, libraries, check_program, tmp_path):
    """TESEARCH_SCHEDULE: a tesearch-hops file run instead of the embedded schedules; the programs of a broken one
    (a hop sent a step late) fail the lockstep check on the communicator and every call goes to PMPI_Alltoall."""
    from conftest import broken_programs
    from tesearch.schedules.execute.hops import HopSchedule
    from tesearch.schedules.execute.hopsfile import programs_bytes, routes_bytes
    from tesearch.tables.table import read_table

    lib = libraries("hypercube-3.json") / "libtesearch_alltoall.so"
    good = tmp_path / "good.hops"
    good.write_bytes(routes_bytes(HopSchedule.from_table(read_table(RESULTS / "hypercube-3.json"))))
    stdout, stats = run_check(mpi[1], 8, check_program, preload=lib, env={"TESEARCH_SCHEDULE": str(good)})
    assert_agrees_and_used(stdout, stats, 8, "combined")
    path, _ = broken_programs(tmp_path, "late", RESULTS / "hypercube-3.json", 5, 2)
    bad = tmp_path / "late.hops"
    bad.write_bytes(programs_bytes(path, rank_numbering(network_from_spec("hypercube-3"))))
    environment = mpi_environment({"TESEARCH_ALLTOALL_STATS": "1", "TESEARCH_SCHEDULE": str(bad)})
    done = run_captured([str(mpi[1]), "-n", "8", "-env", "LD_PRELOAD", str(lib), str(check_program)],
                        env=environment, timeout_s=120)
    assert done.status == 0 and "CHECKED 13 cases, 0 differ" in done.stdout, done.stderr[-2000:]
    assert "TESEARCH_SCHEDULE's schedule fails its check" in done.stderr and "late" in done.stderr
    calls = [_STATS.match(line) for line in done.stderr.splitlines()]
    assert [int(m.group(3)) for m in calls if m] == [0] * 8  # nothing ran on the broken schedule


# ------------------------------------------------------------------ the size rules from a simulate report

def _report(sizes: dict[int, dict[str, float]]) -> dict:
    contenders = [{"name": "table (step)", "family": "table", "schedule": "table",
                   "executor": {"kind": "step", "lookahead": 1, "inflight": 1, "pieces": 0}},
                  {"name": "table (dataflow K=64 W=64)", "family": "table", "schedule": "table",
                   "executor": {"kind": "dataflow", "lookahead": 64, "inflight": 64, "pieces": 0}},
                  {"name": "table: balanced supersteps (combined)", "family": "table",
                   "schedule": "table: balanced supersteps",
                   "executor": {"kind": "combined", "lookahead": 1, "inflight": 1, "pieces": 0}},
                  {"name": "greedy combining (combined)", "family": "table-free", "schedule": "greedy combining",
                   "executor": {"kind": "combined", "lookahead": 1, "inflight": 1, "pieces": 0}},
                  {"name": "alltoall:pair", "family": "MPI"}]
    family = {c["name"]: c["family"] for c in contenders}
    return {"network": "hypercube-3", "ranks": 8, "contenders": contenders,
            "sizes": [{"bytes": size, "runs": [{"contender": name, "family": family[name], "status": "ok",
                                                "seconds": seconds} for name, seconds in times.items()]}
                      for size, times in sizes.items()]}


def test_rules_follow_the_measured_crossover():
    report = _report({8: {"table (step)": 3.0, "table: balanced supersteps (combined)": 2.5, "alltoall:pair": 2.0,
                          "greedy combining (combined)": 1.0},  # a table-free schedule the library cannot run
                      4096: {"table (step)": 5.0, "table: balanced supersteps (combined)": 4.0, "alltoall:pair": 4.5},
                      65536: {"table (dataflow K=64 W=64)": 9.0, "table: balanced supersteps (combined)": 9.5,
                              "alltoall:pair": 20.0},
                      1 << 20: {"table (dataflow K=64 W=64)": 90.0, "alltoall:pair": 200.0}})
    rules, said = rules_from_report(report, network="hypercube-3", ranks=8, where="r.json")
    assert rules == (SizeRule(0, "pmpi"), SizeRule(4096, "combined"), SizeRule(65536, "dataflow", 64, 64))
    assert "8 B: PMPI_Alltoall" in said and "r.json" in said
    assert DEFAULT_RULES == (SizeRule(0, "combined"),)


def test_a_pipelined_run_by_rule_gives_its_sizes_own_pieces_and_window():
    """The pipelined executor by rule has no pieces or window of its own (0, 0): each size's rule takes the ones its
    run had, and two sizes with different pieces are two rules."""
    report = _report({4096: {"table (step)": 5.0, "alltoall:pair": 4.5},
                      65536: {"table: balanced supersteps (combined)": 9.5, "alltoall:pair": 20.0},
                      1 << 20: {"table: balanced supersteps (combined)": 95.0, "alltoall:pair": 200.0}})
    report["contenders"].append({"name": "table (pipelined)", "family": "table", "schedule": "table",
                                 "executor": {"kind": "pipelined", "lookahead": 1, "inflight": 0, "pieces": 0,
                                              "split": 0}})
    for size, split, inflight, seconds in ((65536, 8, 5, 8.0), (1 << 20, 16, 5, 90.0)):
        runs = next(s for s in report["sizes"] if s["bytes"] == size)["runs"]
        runs.append({"contender": "table (pipelined)", "family": "table", "status": "ok", "seconds": seconds,
                     "split": split, "inflight": inflight})
    rules, said = rules_from_report(report, network="hypercube-3", ranks=8, where="r.json")
    assert rules == (SizeRule(0, "pmpi"), SizeRule(65536, "pipelined", 1, 5, 8), SizeRule(1 << 20, "pipelined", 1, 5, 16))
    assert "64 KiB: pipelined P=8 W=5" in said
    assert "{65536ull, 4, 1, 5, 8}" in embedded_source(LibraryPlan("hypercube-3", 8, 4, b"", b"", rules, "r", None))


@pytest.mark.parametrize("change,fragment", [
    (lambda r: r.update(network="star-4"), "the report is of star-4"),
    (lambda r: r.pop("sizes"), "not a tesearch simulate --json report"),
    (lambda r: r.update(contenders=[c for c in r["contenders"] if c["family"] != "table"]), "none of the executors"),
])
def test_a_report_the_rules_cannot_come_from_is_refused(change, fragment):
    from tesearch.running.errors import FormatError

    report = _report({8: {"table (step)": 1.0, "alltoall:pair": 2.0}})
    change(report)
    with pytest.raises(FormatError, match=fragment):
        rules_from_report(report, network="hypercube-3", ranks=8, where="r.json")


@pytest.mark.parametrize("text,fragment", [("0 1 2", "3 entries"), ("0 1 2 3 4 5 6 6", "given twice"),
                                           ("0 1 2 3 4 5 6 8", "outside 0..7"), ("[0, 1, true]", "list of integers"),
                                           ("0 1 two", "not an integer")])
def test_a_rank_map_that_is_no_permutation_is_refused(tmp_path, text, fragment):
    from tesearch.running.errors import FormatError

    (tmp_path / "m.txt").write_text(text)
    with pytest.raises(FormatError, match=fragment):
        read_rank_map(tmp_path / "m.txt", 8)


@pytest.mark.parametrize("args,fragment", [
    (["-o", "{tmp}/missing/lib"], "does not exist"),
    (["-o", "{tmp}/lib", "--crossover", "{star_report}"], "the report is of star-4"),
    (["-o", "{tmp}/lib", "--crossover", "{table}"], "not a tesearch simulate --json report"),
    (["-o", "{tmp}/lib", "--rank-map", "{short_map}"], "a rank map of 2 entries"),
    (["-o", "{tmp}/lib", "--mpicc", "/no/such/mpicc"], "--mpicc /no/such/mpicc"),
    (["-o", "{occupied}"], "not written: it holds files tesearch library did not write"),
])
def test_bad_input_is_one_line_and_nothing_is_written(tmp_path, args, fragment):
    table = RESULTS / "hypercube-3.json"
    star_report = tmp_path / "star.json"
    star_report.write_text(json.dumps(dict(_report({8: {"table (step)": 1.0}}), network="star-4", ranks=24)))
    (tmp_path / "map.txt").write_text("0 1\n")
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "libtesearch_alltoall.so").write_text("not a library\n")
    values = {"tmp": tmp_path, "star_report": star_report, "table": table, "short_map": tmp_path / "map.txt",
              "occupied": occupied}
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = run_cli("library", table, *[a.format(**values) for a in args], "--quiet")
    assert result.exit_code == 2, result.output
    assert fragment in result.output and len(result.output.strip().splitlines()) == 1, result.output
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    assert (occupied / "libtesearch_alltoall.so").read_text() == "not a library\n"


# ------------------------------------------------------------------ mpi4py's own collective tests


@pytest.mark.slow
def test_mpi4py_collective_tests_pass_with_the_library_preloaded(mpi, libraries):
    """mpi4py's test_cco_buf and test_cco_obj (and, by their names, the intercommunicator variants) on 4 ranks with
    hypercube-2's library preloaded: every test passes on every rank, and the library ran a part of the calls on the
    schedule (mpi4py calls MPI 4's MPI_Alltoall_c, which the library defines too), the others (sub-communicators,
    intercommunicators, odd layouts) went to PMPI_Alltoall.  8, 16 and 24 ranks (1 to 16 minutes each: 8 busy
    processes or more on 2 cores) are benchmarks.conformance's rows, outside the suite (results/conformance.md)."""
    from benchmarks.conformance import Unavailable, run_mpi4py

    try:
        run = run_mpi4py(libraries("hypercube-2.json") / "libtesearch_alltoall.so", 4, mpiexec=mpi[1])
    except Unavailable as exc:
        pytest.skip(str(exc))
    assert run.passed, "; ".join(run.problems) + "\n" + run.stderr_tail
    assert min(run.on_schedule) < min(run.calls)  # some calls went to PMPI_Alltoall too (mpi4py's odd layouts)


@pytest.mark.slow  # a SimGrid study of hypercube-3 (about 6 s) and an 8-rank run
def test_a_library_built_from_a_simulate_report_falls_back_below_its_crossover(mpi, tmp_path, check_program):
    """The rules come from the study's runs: on hypercube-3 under SMPI an MPI algorithm wins at 8 B and 4 KiB, the
    pipelined executor at 64 KiB (issue 45: it beats combining there); so the 8-byte calls go to PMPI_Alltoall and
    the 65536-byte call to the schedule."""
    if not shutil.which("smpirun"):
        pytest.skip("needs SimGrid (smpirun)")
    report = tmp_path / "simulate.json"
    result = run_cli("simulate", RESULTS / "hypercube-3.json", "--bytes", "8,4K,64K", "--mpi-algorithms",
                     "basic_linear,pair,bruck,ompi", "--executor", "all", "--dataflow", "1:1,8:8", "--table-free",
                     "none", "--no-non-optimal", "--combine", "balanced", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    report.write_text(result.stdout)
    out = tmp_path / "lib"
    out.mkdir()
    assert run_cli("library", RESULTS / "hypercube-3.json", "-o", out, "--crossover", report, "--quiet").exit_code == 0
    plan = json.loads((out / "tesearch_alltoall.json").read_text())
    assert [(r["min_bytes"], r["executor"]) for r in plan["rules"]] == [(0, "pmpi"), (65536, "pipelined")], plan
    stdout, stats = run_check(mpi[1], 8, check_program, preload=out / "libtesearch_alltoall.so")
    assert "CHECKED 13 cases, 0 differ" in stdout
    for numbers in stats.values():
        assert numbers["on"] == numbers["pipelined"] == 1  # 65536 B: every other case is below 64 KiB
        assert numbers["reasons"]["below the size rules"] == 9


# ------------------------------------------------------------------ simulate --program: a user's program under SimGrid

TIMING_SOURCE = ROOT / "tests" / "c" / "alltoall_timing.c"


def test_simulate_times_a_users_program_with_the_library_beside_smpi(tmp_path):
    """The program is built with smpicc linked with the library and plain; every MPI_Alltoall of the linked build ran
    on the schedule (4 calls at 3 sizes on 8 ranks), its blocks arrived as sent, and SMPI's algorithm ran the plain
    build: each with SimGrid's simulated time and the program's own printed timings."""
    if not shutil.which("smpirun"):
        pytest.skip("needs SimGrid (smpirun)")
    result = run_cli("simulate", RESULTS / "hypercube-3.json", "--program", TIMING_SOURCE, "--executor",
                     "step,combined", "--mpi-algorithms", "basic_linear", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    runs = {r["name"]: r for r in report["runs"]}
    assert list(runs) == ["tesearch (step)", "tesearch (combined)", "alltoall:basic_linear"]
    for name in ("tesearch (step)", "tesearch (combined)"):
        run = runs[name]
        assert run["status"] == "ok" and run["alltoall_calls"] == run["on_schedule"] == 8 * 12, run
        assert run["output"][-1] == "BLOCKS ok" and run["simulated_s"] > 0
        assert [line.split()[1] for line in run["output"][:3]] == ["8", "4096", "65536"]
    plain = runs["alltoall:basic_linear"]
    assert plain["status"] == "ok" and "on_schedule" not in plain and plain["output"][-1] == "BLOCKS ok"
    assert report["verdict"] == "ok" and report["best_plain"]["name"] == "alltoall:basic_linear"


@pytest.mark.parametrize("args,fragment", [
    (["--program", "{missing}"], "no such file"),
    (["--program", "{broken}"], "smpicc cannot compile it"),
    (["--program", "{timing}", "--bytes", "8"], "--bytes is for the study"),
])
def test_simulate_program_refuses_bad_input(tmp_path, args, fragment):
    if not shutil.which("smpirun"):
        pytest.skip("needs SimGrid (smpirun)")
    broken = tmp_path / "broken.c"
    broken.write_text("int main(void) { return undefined_name; }\n")
    values = {"missing": tmp_path / "missing.c", "broken": broken, "timing": TIMING_SOURCE}
    result = run_cli("simulate", RESULTS / "hypercube-3.json", *[a.format(**values) for a in args], "--quiet")
    assert result.exit_code == 2, result.output
    assert fragment in result.output and len(result.output.strip().splitlines()) == 1, result.output
