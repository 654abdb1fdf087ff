"""simulate --program: a verdict only from what the program cannot print, the library's own record of every rank.

Each hostile program of tests/c/programs/ runs under SimGrid with hypercube-3's library linked in (8 ranks, the step
executor, no SMPI algorithm unless a test needs one): a rank that calls MPI_Abort, a deadlock, a rank that leaves
without MPI_Finalize, a program that prints SimGrid's "Simulated time" line and the library's counts itself, and a
library whose embedded schedule is broken on purpose (wrong data, or a schedule te_run refuses, which aborts the
program from inside the library) each end in ``verdict: failed`` with the reason, exit 1; a program without an
MPI_Alltoall call, /dev/null and an empty file are refused with one line, exit 2.  Each SimGrid case costs an
smpicc build and a run (about 1.5 s of CPU): wrong data and the forged time are everyday tests, the others slow.
"""

import dataclasses
import json
import shutil

import numpy as np
import pytest

from conftest import ROOT, run_cli
from tesearch.schedules.execute.hopsfile import HEADER, MAGIC
from tesearch.schedules.simulate import userprogram

PROGRAMS = ROOT / "tests" / "c" / "programs"
TABLE = ROOT / "results" / "hypercube-3.json"
#: the columns of a routes cell (docs/hops-format.md): step, letter, before, rest, after, rest_after
REST, AFTER = 3, 4

pytestmark = pytest.mark.skipif(not shutil.which("smpirun"), reason="needs SimGrid (smpirun)")


def simulate_program(name: str, *options: str):
    """``tesearch simulate hypercube-3 --program tests/c/programs/NAME.c --executor step`` with --json; the result."""
    return run_cli("simulate", TABLE, "--program", PROGRAMS / name, "--executor", "step", "--mpi-algorithms", "none",
                   "--run-timeout", "60", "--json", "--quiet", *options)


def failed_run(result) -> dict:
    """The one linked run of a report whose verdict is failed (exit 1)."""
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "failed"
    (run,) = [r for r in report["runs"] if r["build"] == "linked"]
    assert run["status"] == "failed" and "simulated_s" not in run, run
    return run


@pytest.mark.slow  # an smpicc build and a SimGrid run: about 1.5 s of CPU
def test_a_rank_calling_mpi_abort_fails_the_verdict():
    run = failed_run(simulate_program("aborts.c"))
    assert run["reason"].startswith("check run: rank 1 called MPI_Abort"), run["reason"]


@pytest.mark.slow  # an smpicc build and a SimGrid run: about 1.5 s of CPU
def test_a_deadlock_fails_the_verdict():
    run = failed_run(simulate_program("deadlocks.c"))
    assert "rank(s) 0 did not reach MPI_Finalize" in run["reason"] and "deadlock" in run["reason"], run["reason"]


@pytest.mark.slow  # an smpicc build and a SimGrid run: about 1.5 s of CPU
def test_a_rank_that_leaves_without_mpi_finalize_fails_the_verdict():
    run = failed_run(simulate_program("leaves.c"))
    assert "rank(s) 2 did not reach MPI_Finalize" in run["reason"], run["reason"]


def test_a_printed_simulated_time_is_never_taken_and_fails_the_verdict():
    """forges.c prints 'Simulated time: 0.000000001 seconds' (and the library's counts): the verdict fails, saying
    so, and the only time reported is SimGrid's own; the SMPI algorithm's plain run fails the same way."""
    result = simulate_program("forges.c", "--mpi-algorithms", "basic_linear")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "failed" and "best_linked" not in report and "best_plain" not in report
    for run in report["runs"]:
        assert run["status"] == "failed" and "printed a simulated time of its own" in run["reason"], run
        simgrid = float(run["reason"].rsplit("SimGrid's is ", 1)[1].split()[0])
        assert simgrid > 1e-6  # 64-byte blocks on 8 ranks over links of 1 us


@pytest.mark.slow  # an smpicc build and a SimGrid run: about 1.5 s of CPU
def test_a_program_without_mpi_alltoall_is_one_line_and_exit_2():
    result = simulate_program("no_alltoall.c")
    assert result.exit_code == 2, result.output
    assert "made no MPI_Alltoall call" in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("path,fragment", [("/dev/null", "is not a regular file"), ("{empty}", "is empty")])
def test_a_program_that_is_no_c_source_is_named_for_what_it_is(tmp_path, path, fragment):
    empty = tmp_path / "empty.c"
    empty.write_text("\n")
    result = run_cli("simulate", TABLE, "--program", path.format(empty=empty), "--quiet")
    assert result.exit_code == 2 and fragment in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


def broken_routes(data: bytes, column: int) -> bytes:
    """A routes-layout schedule with ``column`` of its first two cells swapped."""
    _, _, _, ranks, letters, _, hops, points, name_bytes, _, _ = HEADER.unpack_from(data, len(MAGIC))
    start = len(MAGIC) + HEADER.size + -(-name_bytes // 4) * 4 + 8 * letters + 4 * ranks + 4 * ranks * points
    cells = np.frombuffer(data, dtype="<i4", count=hops * 6, offset=start).reshape(hops, 6).copy()
    assert cells[0, column] != cells[1, column]
    cells[[0, 1], column] = cells[[1, 0], column]
    return data[:start] + cells.tobytes() + data[start + cells.nbytes:]


@pytest.fixture
def broken_library(monkeypatch):
    """broken_library(column): simulate --program embeds the table's schedules with that column broken."""
    def install(column: int):
        real = userprogram.plan_for

        def broken(*args, **kwargs):
            plan, numbering = real(*args, **kwargs)
            return dataclasses.replace(plan, table=broken_routes(plan.table, column),
                                       supersteps=broken_routes(plan.supersteps, column)), numbering
        monkeypatch.setattr(userprogram, "plan_for", broken)
    return install


def test_wrong_data_from_the_library_fails_the_verdict(broken_library):
    """Two hops' origins swapped: every rank's data differs from PMPI_Alltoall's (the program itself checks nothing
    and exits 0); the library's check finds it."""
    broken_library(REST)
    run = failed_run(simulate_program("alltoall_once.c"))
    assert "ranks whose MPI_Alltoall on the schedule differs from PMPI_Alltoall: 8" in run["reason"], run["reason"]


@pytest.mark.slow  # an smpicc build and a SimGrid run: about 1.5 s of CPU
def test_a_library_that_aborts_the_program_fails_the_verdict(broken_library):
    broken_library(AFTER)
    run = failed_run(simulate_program("alltoall_once.c"))
    assert "the library aborted the program: MPI_Alltoall on the schedule failed" in run["reason"], run["reason"]


def test_a_record_without_the_runs_word_or_rank_is_not_evidence(tmp_path):
    path = tmp_path / "record"
    line = "tesearch-record 1 {word} rank {rank} of 3 calls 2 scheduled 2 checked 2 mismatches 0 unchecked 0 wtime 1e-5\n"
    (tmp_path / "record.0").write_text(line.format(word="right", rank=0))
    (tmp_path / "record.1").write_text(line.format(word="forged", rank=1))
    (tmp_path / "record.2").write_text(line.format(word="right", rank=1))
    evidence = userprogram.read_evidence(path, "right", 3)
    assert evidence.forged == (1, 2) and evidence.missing == () and evidence.calls == 2
    assert "is not the one this run asked for" in userprogram.evidence_problem(evidence, checked=True)
    (tmp_path / "record.1").unlink()
    (tmp_path / "record.2").write_text(line.format(word="right", rank=2).replace("checked 2", "checked 1"))
    evidence = userprogram.read_evidence(path, "right", 3)
    assert evidence.missing == (1,) and "rank(s) 1 did not reach" in userprogram.evidence_problem(evidence, checked=True)
    (tmp_path / "record.1").write_text(line.format(word="right", rank=1))
    evidence = userprogram.read_evidence(path, "right", 3)
    assert userprogram.evidence_problem(evidence, checked=True) == ("6 call(s) ran on the schedule but 5 were compared "
                                                                     "with PMPI_Alltoall")
    assert userprogram.evidence_problem(evidence, checked=False) is None
