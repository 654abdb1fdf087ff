"""Runs on MPI: schedules match MPI_Alltoall; broken programs (late, wrong neighbour, dropped) are caught and named.

Needs the mpi extra (mpi4py and an MPI library with mpiexec); skipped with the reason otherwise.
The everyday run uses at most 16 ranks (broken programs on ring-8, 8 ranks); the 24-rank runs of star-4
and the 120-rank run are marked slow.  Both executors (step and dataflow, issue 29) are tested the same way,
and the dataflow one also on a cycle of late hops that would lock it without its progress markers.
"""

import json

import pytest

from conftest import ROOT, run_cli
from conftest import broken_programs as shared_broken_programs
from tesearch.errors import SolverUnavailable
from tesearch.programs.launch import find_mpiexec, require_mpi4py

try:
    require_mpi4py()
    find_mpiexec()
except SolverUnavailable as exc:
    pytest.skip(f"MPI tests need mpi4py and mpiexec: {exc.message}", allow_module_level=True)

pytestmark = pytest.mark.mpi
RESULTS = ROOT / "results"
#: the rank whose program the broken-program tests break, and the step of the hop they break
BROKEN_RANK = 5
BROKEN_STEP = 3


def run_json(*args, timeout=300):
    result = run_cli("run", *args, "--mpi", "--json", "--quiet", "--timeout", str(timeout))
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("name,ranks", [  # everyday: test_both_executors_match_alltoall_and_report_each (hypercube-4)
                                        pytest.param("hypercube-4.json", 16, marks=pytest.mark.slow),
                                        pytest.param("star-4.json", 24, marks=pytest.mark.slow),
                                        pytest.param("torus-4x4.json", 16, marks=pytest.mark.slow)])
def test_schedule_matches_alltoall(name, ranks):
    code, report = run_json(RESULTS / name, "--bytes", "64", "--repeat", "2")
    assert code == 0 and report["verdict"] == "match" and report["fault_count"] == 0
    assert report["ranks"] == ranks and report["messages"] == ranks * (ranks - 1)
    assert "MPICH" in report["library"] or "Open MPI" in report["library"]
    assert len(report["schedule_s"]) == len(report["alltoall_s"]) == 2


def test_text_output_names_library_ranks_times_and_verdict():
    result = run_cli("run", RESULTS / "hypercube-4.json", "--mpi", "--quiet")
    assert result.exit_code == 0, result.output
    for fragment in ("MPI library:", "ranks 16, steps 8", "MPI_Alltoall:", "schedule (step):", "verdict: match"):
        assert fragment in result.output


def broken_programs(tmp_path, kind, name="star-4.json"):
    """The programs of table ``name`` with one hop of rank BROKEN_RANK at step BROKEN_STEP broken (conftest)."""
    return shared_broken_programs(tmp_path, kind, RESULTS / name, BROKEN_RANK, BROKEN_STEP)


@pytest.mark.parametrize("name,kind,fault,step_shown", [
    ("ring-8.json", "late", "late", BROKEN_STEP + 1),  # the everyday run: 8 ranks
    pytest.param("ring-8.json", "wrong", "wrong neighbour", BROKEN_STEP, marks=pytest.mark.slow),
    pytest.param("ring-8.json", "dropped", "dropped", BROKEN_STEP, marks=pytest.mark.slow),
])  # star-4 (24 ranks, 9.5 s a kind): benchmarks/mpi.py and results/mpi.md
def test_broken_program_is_caught_and_named(tmp_path, name, kind, fault, step_shown):
    path, (_, neighbour, origin, destination) = broken_programs(tmp_path, kind, name)
    code, report = run_json(RESULTS / name, "--programs", path)
    assert code == 1 and report["verdict"] == "fault"
    first = report["faults"][0]
    assert first["kind"] == fault
    assert (first["rank"], first["origin"], first["destination"], first["step"]) == \
        (BROKEN_RANK, origin, destination, step_shown)
    assert f"rank {BROKEN_RANK}" in first["detail"] and f"{origin}->{destination}" in first["detail"]
    if kind == "late":
        assert "1 step(s) late" in first["detail"]
    text = run_cli("run", RESULTS / name, "--programs", path, "--mpi", "--quiet")
    assert text.exit_code == 1 and f"{fault}: " in text.output


@pytest.mark.slow
# 64 ranks in the suite (about 10 s); star-5 (120 ranks, about 60 s with both executors) and torus-4x4x8 (128):
# benchmarks/mpi.py, results/mpi.md
@pytest.mark.parametrize("name,ranks", [("hypercube-6.json", 64)])
def test_large_schedules_match_alltoall(name, ranks):
    code, report = run_json(RESULTS / name, "--executor", "both")
    assert code == 0 and report["ranks"] == ranks and report["fault_count"] == 0
    assert [report["runs"][name]["verdict"] for name in ("step", "dataflow")] == ["match", "match"]


# ---------------------------------------------------------------- the dataflow executor (issue 29)

def test_both_executors_match_alltoall_and_report_each():
    code, report = run_json(RESULTS / "hypercube-4.json", "--executor", "both", "--bytes", "64", "--repeat", "2")
    assert code == 0 and report["verdict"] == "match" and report["executors"] == ["step", "dataflow"]
    for name in ("step", "dataflow"):
        run = report["runs"][name]
        assert run["verdict"] == "match" and run["fault_count"] == 0 and len(run["schedule_s"]) == 2
    assert "schedule_s" not in report  # two executors: the times are per run only


@pytest.mark.slow  # 2-4 s: the everyday run stays under 2 minutes (the full suite runs it)
def test_both_executors_in_text():
    text = run_cli("run", RESULTS / "ring-8.json", "--mpi", "--executor", "both", "--quiet")
    assert text.exit_code == 0, text.output
    for fragment in ("schedule (step):", "schedule (dataflow):", "verdict (step): match", "verdict (dataflow): match"):
        assert fragment in text.output


@pytest.mark.slow
@pytest.mark.parametrize("name,ranks", [("star-4.json", 24), ("torus-4x4.json", 16), ("hypercube-4.json", 16)])
def test_dataflow_matches_alltoall(name, ranks):
    code, report = run_json(RESULTS / name, "--executor", "dataflow", "--bytes", "1K")
    assert code == 0 and report["ranks"] == ranks and report["runs"]["dataflow"]["verdict"] == "match"
    assert report["executors"] == ["dataflow"] and len(report["schedule_s"]) == 1


@pytest.mark.parametrize("name,kind,fault,step_shown", [
    ("ring-8.json", "late", "late", BROKEN_STEP + 1),  # the everyday run: 8 ranks
    pytest.param("ring-8.json", "wrong", "wrong neighbour", BROKEN_STEP, marks=pytest.mark.slow),
    pytest.param("ring-8.json", "dropped", "dropped", BROKEN_STEP, marks=pytest.mark.slow),
])  # star-4 (24 ranks): benchmarks/mpi.py runs it; ring-8 covers the three kinds here
def test_dataflow_catches_and_names_broken_program(tmp_path, name, kind, fault, step_shown):
    path, (_, neighbour, origin, destination) = broken_programs(tmp_path, kind, name)
    code, report = run_json(RESULTS / name, "--programs", path, "--executor", "dataflow", timeout=60)  # no hang
    assert code == 1 and report["verdict"] == "fault" and report["runs"]["dataflow"]["verdict"] == "fault"
    first = report["faults"][0]
    assert first["kind"] == fault and first["executor"] == "dataflow"
    assert (first["rank"], first["origin"], first["destination"], first["step"]) == \
        (BROKEN_RANK, origin, destination, step_shown)
    assert f"rank {BROKEN_RANK}" in first["detail"] and f"{origin}->{destination}" in first["detail"]
    if kind != "late":  # the message never reaches its destination: the final comparison says so too
        kinds = {f["kind"] for f in report["faults"]}
        assert "block missing" in kinds


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


def test_dataflow_never_hangs_on_a_cycle_of_late_hops(tmp_path):
    """Without the progress markers every rank of the cycle would wait for the one before it for ever."""
    path, cycle, step = late_cycle_programs(tmp_path)
    assert len(cycle) >= 2
    code, report = run_json(RESULTS / "ring-8.json", "--programs", path, "--executor", "both", timeout=30)
    assert code == 1
    for name in ("step", "dataflow"):
        faults = report["runs"][name]["faults"]
        late = {(f["rank"], f["step"]) for f in faults if f["kind"] == "late"}
        assert late == {(rank, step) for rank, _ in cycle}, name  # every cycle link named, one step late
    gave_up = {f["rank"] for f in report["runs"]["dataflow"]["faults"] if f["kind"] == "not held"}
    assert gave_up and gave_up <= {rank for rank, _ in cycle}
