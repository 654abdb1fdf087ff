"""benchmarks/mpich_tests.py judges a run of MPICH's tests as MPICH's runtests does (exit 0, a No Errors line, no
other output but the library's own lines) and sums the library's counts; it refuses a source directory without
MPICH's test tree (one line, exit 2).  Everything here is fast: no MPI program runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.mpich_tests import TABLES, TESTS, alltoall_algorithm_environments, judge

ROOT = Path(__file__).resolve().parent.parent

COUNTS = ("tesearch_alltoall: MPI_Alltoall on the table of hypercube-2 (4 ranks, T = 2)\n"
          "tesearch_alltoall: rank 0: 3 MPI_Alltoall calls, 1 on the schedule (step 0, dataflow 0, combined 1, "
          "pipelined 0), 2 to PMPI_Alltoall (another communicator size 1, MPI_IN_PLACE 1); rank 0's neighbours 2 1\n"
          "tesearch_alltoall: rank 1: 3 MPI_Alltoall calls, 1 on the schedule (step 0, dataflow 0, combined 1, "
          "pipelined 0), 2 to PMPI_Alltoall (another communicator size 1, MPI_IN_PLACE 1); rank 1's neighbours 3 0\n")


def test_a_run_passes_with_no_errors_and_the_library_lines_only():
    outcome = judge(0, " No Errors\n" + COUNTS, 1.0)
    assert outcome.passed, outcome.why
    assert (outcome.ranks_counted, outcome.calls, outcome.on_schedule, outcome.to_pmpi) == (2, 6, 2, 4)
    assert outcome.reasons == "another communicator size 1, MPI_IN_PLACE 1"
    assert judge(0, " No errors\n", 1.0).passed  # MPICH's older error tests print it in lower case


def test_any_other_line_a_missing_no_errors_or_a_bad_exit_fails():
    assert not judge(0, " No Errors\nrecvbuf[0,1] = 3, should be 2\n" + COUNTS, 1.0).passed
    assert "other line" in judge(0, " No Errors\nMPICH: Builtin communicator 44000000 has pending 4 references.\n",
                                 1.0).why
    assert "no 'No Errors' line" in judge(0, COUNTS, 1.0).why
    assert "Found 3 errors" in judge(0, " Found 3 errors\n", 1.0).why
    assert "exit status 1" in judge(1, " No Errors\n", 1.0).why
    assert "time limit" in judge(None, " No Errors\n", 1.0).why


def test_every_test_has_a_table_for_the_communicators_of_its_testlist_ranks():
    assert {t.name for t in TESTS} >= {"alltoall1", "icalltoall", "noalias2", "threadcomm_coll"}
    for test in TESTS:
        for ranks in test.ranks:
            table = TABLES.get(test.communicator_size(ranks))
            assert table and (ROOT / "results" / f"{table}.json").is_file(), (test.name, ranks)


def test_a_source_directory_without_mpichs_tests_is_refused_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "benchmarks.mpich_tests", "--sources", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "test/mpi" in done.stderr and "Traceback" not in done.stderr


def test_the_algorithm_runs_are_mpichs_collalgo_environments_for_alltoall():
    environments = alltoall_algorithm_environments()
    assert len(environments) == len(set(environments)) == 26  # 9 blocking (k_brucks x 3), 17 through nb
    assert ("MPIR_CVAR_ALLTOALL_COMPOSITION=1",) in environments
    assert ("MPIR_CVAR_ALLTOALL_DEVICE_COLLECTIVE=0", "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=k_brucks",
            "MPIR_CVAR_ALLTOALL_BRUCKS_KVAL=4") in environments
    nonblocking = [e for e in environments if "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=nb" in e]
    assert len(nonblocking) == 17 and all(any(s.startswith("MPIR_CVAR_IALLTOALL_INTRA_ALGORITHM=") for s in e)
                                          for e in nonblocking)
