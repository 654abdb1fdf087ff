"""Runs on MPI: schedules match MPI_Alltoall; broken programs (late, wrong neighbour, dropped) are caught and named.

Needs the mpi extra (mpi4py and an MPI library with mpiexec); skipped with the reason otherwise.
The everyday run uses at most 16 ranks (a broken program on ring-8, 8 ranks); the 24-rank runs of star-4
and the 120- and 128-rank runs are marked slow.
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


def run_json(*args):
    result = run_cli("run", *args, "--mpi", "--json", "--quiet", "--timeout", "300")
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("name,ranks", [("hypercube-4.json", 16),  # the everyday run launches MPI a few times only
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
    for fragment in ("MPI library:", "ranks 16, steps 8", "MPI_Alltoall:", "schedule:", "verdict: match"):
        assert fragment in result.output


def broken_programs(tmp_path, kind, name="star-4.json"):
    """The programs of table ``name`` with one hop of rank BROKEN_RANK at step BROKEN_STEP broken (conftest)."""
    return shared_broken_programs(tmp_path, kind, RESULTS / name, BROKEN_RANK, BROKEN_STEP)


@pytest.mark.parametrize("name,kind,fault,step_shown", [
    ("ring-8.json", "late", "late", BROKEN_STEP + 1),  # the everyday run: 8 ranks
    pytest.param("star-4.json", "late", "late", BROKEN_STEP + 1, marks=pytest.mark.slow),  # 24 ranks
    pytest.param("star-4.json", "wrong", "wrong neighbour", BROKEN_STEP, marks=pytest.mark.slow),
    pytest.param("star-4.json", "dropped", "dropped", BROKEN_STEP, marks=pytest.mark.slow),
])
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
@pytest.mark.parametrize("name,ranks", [("star-5.json", 120)])  # torus-4x4x8 (128 ranks): benchmarks/mpi.py
def test_large_schedules_match_alltoall(name, ranks):
    code, report = run_json(RESULTS / name)
    assert code == 0 and report["ranks"] == ranks and report["fault_count"] == 0
