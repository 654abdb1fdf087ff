"""Runs on MPI: the C executors (step, dataflow, combined, pipelined) match MPI_Alltoall; broken programs are caught and named.

Needs the mpi extra (the mpich wheel's mpicc and mpiexec); skipped with the reason otherwise.  The everyday run uses
at most 16 ranks (broken programs on ring-8, 8 ranks); the 24-rank runs of star-4 and the 64-rank run are marked
slow; star-5 (120 ranks) and torus-4x4x8 (128) are run by benchmarks/mpi.py (results/mpi.md).  A broken program
reaches the executors through the environment variable TESEARCH_TEST_PROGRAMS (a tesearch-programs file), as in
tesearch simulate.
"""

import json

import pytest

from conftest import ROOT, run_cli
from conftest import broken_programs as shared_broken_programs
from tesearch.running.errors import SolverUnavailable
from tesearch.schedules.execute.build import Flavour, compiler
from tesearch.schedules.execute.mpi import find_mpiexec

try:
    compiler(Flavour.MPI)
    find_mpiexec()
except SolverUnavailable as exc:
    pytest.skip(f"MPI tests need mpicc and mpiexec: {exc.message}", allow_module_level=True)

pytestmark = pytest.mark.mpi
RESULTS = ROOT / "results"
#: the rank whose program the broken-program tests break, and the step of the hop they break
BROKEN_RANK = 5
BROKEN_STEP = 3


def run_json(*args, timeout=300, env=None):
    result = run_cli("run", *args, "--mpi", "--json", "--quiet", "--timeout", str(timeout), env=env)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("name,ranks", [  # everyday: test_every_executor_matches_alltoall_and_reports_each
                                        pytest.param("hypercube-4.json", 16, marks=pytest.mark.slow),
                                        pytest.param("star-4.json", 24, marks=pytest.mark.slow),
                                        pytest.param("torus-4x4.json", 16, marks=pytest.mark.slow)])
def test_schedule_matches_alltoall(name, ranks):
    code, report = run_json(RESULTS / name, "--bytes", "64", "--repeat", "2")
    assert code == 0 and report["verdict"] == "match" and report["fault_count"] == 0
    assert report["ranks"] == ranks and report["messages"] == ranks * (ranks - 1)
    assert "MPICH" in report["library"] or "Open MPI" in report["library"]
    assert len(report["schedule_s"]) == len(report["alltoall_s"]) == 2
    assert [c["schedule"] for c in report["checks"]] == ["table"] and report["checks"][0]["ok"]


def test_text_output_names_library_ranks_times_and_verdict():
    result = run_cli("run", RESULTS / "hypercube-3.json", "--mpi", "--quiet")
    assert result.exit_code == 0, result.output
    for fragment in ("MPI library: MPICH", "ranks 8, steps 4", "MPI_Alltoall:", "schedule (step):",
                     "check: every schedule passed (table)", "verdict: match"):
        assert fragment in result.output


def test_every_executor_matches_alltoall_and_reports_each():
    """--executor all: the table's timing under step and dataflow (here K:W = 2:2), its balanced superstep map under
    combined (one message per link per superstep: fewer messages than hops), each checked first."""
    code, report = run_json(RESULTS / "hypercube-3.json", "--executor", "all", "--dataflow", "2:2", "--bytes", "64",
                            "--pipelined", "4:2", "--repeat", "2")
    assert code == 0 and report["verdict"] == "match"
    assert report["executors"] == ["step", "dataflow K=2 W=2", "combined", "pipelined P=4 W=2"]
    assert [c["schedule"] for c in report["checks"]] == ["table", "table: balanced supersteps"]
    hops = report["hops"]
    for name in report["executors"]:
        run = report["runs"][name]
        assert run["verdict"] == "match" and run["fault_count"] == 0 and len(run["schedule_s"]) == 2
        assert len(run["alltoall_s"]) == 2  # MPI_Alltoall timed as often, in the same mpiexec run
    assert report["runs"]["step"]["messages"] == report["runs"]["dataflow K=2 W=2"]["messages"] == hops == 8 * 12
    assert report["runs"]["combined"]["schedule"] == "table: balanced supersteps"
    assert report["runs"]["combined"]["messages"] < hops
    assert report["runs"]["pipelined P=4 W=2"]["messages"] == 4 * hops  # every hop in four pieces
    assert "schedule_s" not in report and len(report["alltoall_s"]) == 8


# torus-4x4 (16 ranks, 7 s) in the full suite; ring-8 and hypercube-3 (8 ranks) are the everyday twins
@pytest.mark.parametrize("name", ["ring-8.json", "hypercube-3.json",
                                  pytest.param("torus-4x4.json", marks=pytest.mark.slow)])
def test_pipelined_pieces_match_alltoall(name):
    """The pipelined executor's received blocks equal MPI_Alltoall's, block for block: pieces of alternating lengths
    (1000-byte blocks in 8 and 3 pieces), one piece in flight (strict order, each send waiting for the one before),
    a window wider than the pieces, and more pieces than bytes (7-byte blocks in 16 pieces: one byte each).
    Whatever the window, a node holds at most two blocks per outgoing link, posted receives included: P=2 W=16 posted
    8 blocks per link before the cap (issue 45: torus-4x4 held 17 blocks at P=2 W=8)."""
    links = len(json.loads((RESULTS / name).read_text())["generators"])
    for size, pairs, pieces in (("1000", "8:3,3:1,2:16", (8, 3, 2)), ("7", "16:4", (7,))):
        code, report = run_json(RESULTS / name, "--executor", "pipelined", "--pipelined", pairs, "--bytes", size)
        assert code == 0 and report["verdict"] == "match", report
        for executor, per_hop in zip(report["executors"], pieces):
            run = report["runs"][executor]
            assert run["verdict"] == "match" and run["fault_count"] == 0
            assert run["messages"] == per_hop * report["hops"]
            assert 0 < run["held_bytes"] <= 2 * links * int(size), (executor, run["held_bytes"])


@pytest.mark.slow  # 2-4 s: the everyday run stays under 2 minutes (the full suite runs it)
def test_both_is_step_and_dataflow_in_text():
    text = run_cli("run", RESULTS / "ring-8.json", "--mpi", "--executor", "both", "--quiet")
    assert text.exit_code == 0, text.output
    for fragment in ("schedule (step):", "schedule (dataflow K=1 W=1):", "verdict (step): match",
                     "verdict (dataflow K=1 W=1): match"):
        assert fragment in text.output


def broken_programs(tmp_path, kind, name="star-4.json"):
    """The programs of table ``name`` with one hop of rank BROKEN_RANK at step BROKEN_STEP broken (conftest)."""
    return shared_broken_programs(tmp_path, kind, RESULTS / name, BROKEN_RANK, BROKEN_STEP)


@pytest.mark.parametrize("name,kind,fault,step_shown", [
    ("ring-8.json", "late", "late", BROKEN_STEP + 1),  # the everyday run: 8 ranks
    pytest.param("ring-8.json", "wrong", "wrong neighbour", BROKEN_STEP, marks=pytest.mark.slow),
    pytest.param("ring-8.json", "dropped", "dropped", BROKEN_STEP, marks=pytest.mark.slow),
    pytest.param("star-4.json", "late", "late", BROKEN_STEP + 1, marks=pytest.mark.slow),
])
def test_broken_program_is_caught_named_and_nothing_is_timed(tmp_path, name, kind, fault, step_shown):
    path, (_, neighbour, origin, destination) = broken_programs(tmp_path, kind, name)
    hook = {"TESEARCH_TEST_PROGRAMS": str(path)}
    code, report = run_json(RESULTS / name, "--executor", "all", env=hook, timeout=120)
    assert code == 1 and report["verdict"] == "fault"
    assert report["runs"] == {} and report["executors"] == []  # checked first: nothing was timed
    check = report["checks"][0]
    assert check["schedule"] == "table" and not check["ok"]
    first = check["faults"][0]
    assert first == {k: v for k, v in report["faults"][0].items() if k != "check"}
    assert first["kind"] == fault
    assert (first["rank"], first["origin"], first["destination"], first["step"]) == \
        (BROKEN_RANK, origin, destination, step_shown)
    assert f"rank {BROKEN_RANK}" in first["detail"] and f"{origin}->{destination}" in first["detail"]
    if kind == "late":
        assert "1 step(s) late" in first["detail"]
    assert report["program_source"].startswith(str(path))
    text = run_cli("run", RESULTS / name, "--mpi", "--quiet", env=hook)
    assert text.exit_code == 1 and f"{fault}: " in text.output and "nothing was timed" in text.output


@pytest.mark.slow
# 64 ranks in the suite; star-5 (120 ranks) and torus-4x4x8 (128): benchmarks/mpi.py, results/mpi.md
@pytest.mark.parametrize("name,ranks", [("hypercube-6.json", 64)])
def test_large_schedules_match_alltoall(name, ranks):
    code, report = run_json(RESULTS / name, "--executor", "all", "--dataflow", "1:1,8:8", "--bytes", "1K")
    assert code == 0 and report["ranks"] == ranks and report["fault_count"] == 0
    assert [report["runs"][name]["verdict"] for name in report["executors"]] == ["match"] * 5


def late_cycle_programs(tmp_path, name="ring-8.json"):
    """Programs in which every link of a cycle sends its hop of some step t - 1 at step t, after its own hop of
    step t, which forwards the hop the previous link of the cycle now sends late: each link's first hop of
    step t waits for a block held back behind the next link's.  Returns (file, cycle of links, t)."""
    path = tmp_path / name.replace(".json", "-cycle.jsonl")
    assert run_cli("export", RESULTS / name, "-o", path, "--quiet").exit_code == 0
    lines = path.read_text().splitlines()
    records = [json.loads(line) for line in lines[1:]]
    sends = {(r["rank"], entry[0]): entry[1] for r in records for entry in r["steps"]}
    for t in range(1, json.loads(lines[0])["T"]):
        carried = {(rank, hop[1]): (hop[2], hop[3]) for (rank, step), hops in sends.items() if step == t - 1
                   for hop in hops}
        forwarded = {(rank, hop[2], hop[3]): (rank, hop[1]) for (rank, step), hops in sends.items() if step == t
                     for hop in hops}
        following = {link: forwarded.get((link[1], *message)) for link, message in carried.items()}
        for start in following:
            path_links, link = [], start
            while link is not None and link not in path_links:
                path_links.append(link)
                link = following.get(link)
            if link is None:
                continue
            cycle = path_links[path_links.index(link):]
            for rank, neighbour in cycle:
                hop = next(h for h in sends[(rank, t - 1)] if h[1] == neighbour)
                sends[(rank, t - 1)].remove(hop)
                sends[(rank, t)].append(hop)
            path.write_text("\n".join([lines[0]] + [json.dumps(r) for r in records]) + "\n")
            return path, cycle, t
    raise AssertionError(f"{name} has no cycle of forwarded hops")


def test_a_cycle_of_late_hops_is_named_without_hanging(tmp_path):
    """A cycle of late hops would lock an executor that waits for blocks; the lockstep check names every link of
    the cycle one step late, and the executors never run it."""
    path, cycle, step = late_cycle_programs(tmp_path)
    assert len(cycle) >= 2
    code, report = run_json(RESULTS / "ring-8.json", "--executor", "dataflow", timeout=30,
                            env={"TESEARCH_TEST_PROGRAMS": str(path)})
    assert code == 1 and report["runs"] == {}
    late = {(f["rank"], f["step"]) for f in report["checks"][0]["faults"] if f["kind"] == "late"}
    assert late == {(rank, step) for rank, _ in cycle}  # every cycle link named, one step late
