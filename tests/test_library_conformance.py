"""The MPI_Alltoall library against PMPI_Alltoall where MPI is subtle: layouts, errors, threads, large counts.

Each C program of tests/c (alltoall_layouts.c, alltoall_errors.c, alltoall_threads.c, alltoall_large.c; compiled
with the mpi extra's mpicc, knowing nothing of the library) calls MPI_Alltoall and PMPI_Alltoall on the same
arguments and says, case by case, whether they agree (data byte for byte, or error class per rank) and, through
the library's tesearch_alltoall_counts (found with dlsym), whether the library ran the call on its schedule.  The
library is hypercube-3's (8 ranks), preloaded.  MPICH's own test suite (errors/coll/noalias2, threads/threadcomm)
is not available offline: these are written to the same effect.
"""

import re
import shutil

import pytest

from conftest import ROOT, run_cli
from tesearch.running.processes import run_captured
from tesearch.schedules.execute.mpi import mpi_environment
from tesearch.schedules.library import LIBRARY_NAME, plan_for, write_sources
from test_library import _STATS, _mpi_or_skip

RESULTS = ROOT / "results"
C_TESTS = ROOT / "tests" / "c"
_CASE = re.compile(r"^CASE (.*) (same|DIFFERS on \d+ ranks)$", re.M)
_SCHEDULE = re.compile(r"^SCHEDULE (.*) (yes|no) on (\d+) ranks$", re.M)


@pytest.fixture(scope="module")
def mpi():
    return _mpi_or_skip()


@pytest.fixture(scope="module")
def library(tmp_path_factory, mpi):
    """hypercube-3's libtesearch_alltoall.so, as `tesearch library` writes it."""
    directory = tmp_path_factory.mktemp("hypercube-3")
    result = run_cli("library", RESULTS / "hypercube-3.json", "-o", directory, "--quiet")
    assert result.exit_code == 0, result.output
    return directory / LIBRARY_NAME


@pytest.fixture(scope="module")
def program(tmp_path_factory, mpi):
    """program(name) -> tests/c/NAME.c compiled with the mpi extra's mpicc (once)."""
    built = {}

    def make(name: str):
        if name not in built:
            binary = tmp_path_factory.mktemp("c") / name
            done = run_captured([mpi[0], "-O2", "-pthread", "-o", str(binary), str(C_TESTS / f"{name}.c"), "-ldl"],
                                timeout_s=120)
            assert done.status == 0, done.stderr
            built[name] = binary
        return built[name]
    return make


def run_preloaded(mpi, ranks: int, binary, library, *args, env=None, timeout=120):
    """The program on `ranks` processes with the library preloaded (TESEARCH_ALLTOALL_STATS=1): (run, cases,
    schedules, stats) with cases {name: verdict}, schedules {name: ranks that ran it on the schedule}, and stats the
    per-process counts lines."""
    environment = mpi_environment({"TESEARCH_ALLTOALL_STATS": "1", **(env or {})})
    command = [str(mpi[1]), "-n", str(ranks), "-env", "LD_PRELOAD", str(library), str(binary), *map(str, args)]
    done = run_captured(command, env=environment, timeout_s=timeout)
    cases = dict(_CASE.findall(done.stdout))
    schedules = {name: int(count) if yes == "yes" else 0 for name, yes, count in _SCHEDULE.findall(done.stdout)}
    stats = [m for m in map(_STATS.match, done.stderr.splitlines()) if m]
    return done, cases, schedules, stats


def assert_all_same(done, cases: dict, count: int) -> None:
    assert done.status == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert len(cases) == count and set(cases.values()) == {"same"}, cases
    assert f"CHECKED {count} cases, 0 differ" in done.stdout


# ------------------------------------------------------------------ layouts and type signatures

@pytest.mark.parametrize("ranks", [8, pytest.param(16, marks=pytest.mark.slow)])
def test_layouts_that_differ_get_pmpis_data_and_contiguous_ones_the_schedule(mpi, library, program, ranks):
    """Same signatures, other byte orders (hindexed {4,0}, indexed_block {1,0}, resized structs at {4,0}; on one
    rank, on even ranks, on every rank): PMPI_Alltoall's data, never the schedule (the old check took any type with
    lower bound 0 and size = extent; rank 1 got `2 3` where PMPI gives `3 2`).  Provably contiguous types (a
    contiguous type, hindexed {0,4} on one rank, resized structs at {0,4}, 4 MPI_INT against 2 contiguous pairs, an
    int and a float) run on the schedule, on every rank, and agree.  MPI_INT blocks on even ranks and MPI_FLOAT on
    odd ones (signatures differ: erroneous, and MPICH copies the bytes) never run on the schedule, since the ranks
    agree on a digest of the signature too.  A type made with MPI_Type_contiguous_c goes to PMPI (the library asked
    MPI_Type_get_envelope, which MPICH refuses on it: the program aborted).  Sub-communicators: every rank in reverse order;
    on 16 ranks the two halves of the world at once."""
    done, cases, schedules, _ = run_preloaded(mpi, ranks, program("alltoall_layouts"), library)
    assert_all_same(done, cases, 17)
    for name, on in schedules.items():
        expected = ranks if name.startswith("SAFE") and ("halves" in name) == (ranks == 16) else 0
        assert on == expected, (name, on)
    assert sum(1 for n in schedules if n.startswith("SAFE")) == 7


# ------------------------------------------------------------------ MPI's error classes

def test_errors_are_reported_as_pmpi_reports_them(mpi, library, program):
    """MPICH's errors/coll/noalias2, for MPI_Alltoall and MPI_Alltoall_c: send buffer = receive buffer is
    MPI_ERR_BUFFER through the communicator's error handler, with the library as without it (the old library ran
    the schedule and returned MPI_SUCCESS); so are overlapping buffers, counts that differ between ranks (the old
    library aborted in its executor), fewer bytes received than sent, MPI_DATATYPE_NULL, a negative count, a null
    buffer and MPI_COMM_NULL; a correct call after them runs on the schedule."""
    done, cases, _, stats = run_preloaded(mpi, 8, program("alltoall_errors"), library)
    assert_all_same(done, cases, 10)
    assert "CLASSES send and receive buffer the same: library 1 (Invalid buffer pointer)" in done.stdout
    assert len(stats) == 8 and {int(m.group(3)) for m in stats} == {1}  # only the correct call


def test_the_librarys_communicator_copies_no_attributes_and_types_must_be_committed(mpi, library, program):
    """The library's private communicator is made with PMPI_Comm_create, not PMPI_Comm_dup: a program's attribute
    whose copy callback counts is never called by MPI_Alltoall (the old library called it at the first call), and
    one whose copy callback refuses (returns MPI_ERR_OTHER, as MPI allows) no longer makes the first call abort in
    PMPI_Comm_dup ("user copy function returned error code 15"): both run on the schedule with PMPI's data.  An
    uncommitted derived type is MPI_ERR_TYPE with the library as without it (the old library ran the schedule and
    returned MPI_SUCCESS)."""
    done, cases, schedules, _ = run_preloaded(mpi, 8, program("alltoall_attributes"), library, timeout=60)
    assert_all_same(done, cases, 6)
    assert "CLASSES uncommitted type: library 3, PMPI 3" in done.stdout
    assert schedules == {"user copy callback": 8, "copy callback that refuses": 8,
                         "correct after the uncommitted type": 8}


_HOSTILE_ON_SCHEDULE = {
    "send 4 INT recv 1 contig4", "send 1 contig4 recv 4 INT", "vector(2,2,2) vs 4 INT", "hvector(3,1,4B) contiguous",
    "indexed ascending (contig)", "nested hvector(contig(indexed))", "Type_dup(INT) vs INT",
    "freed and remade 0 (contig)", "freed and remade 2 (contig)", "MPI_BYTE 13", "MPI_2INT", "MPI_LONG_DOUBLE",
    "MPI_C_BOOL", "even contig4 odd 4INT", "loop 0", "loop 2", "loop 3", "loop 5", "split shuffled keys",
    "create_group permuted", "dup freed remade 0", "dup freed remade 1", "dup freed remade 2",
    "comm with user attribute", "comm whose attribute refuses copy (fatal handler)", "counting errhandler legal call",
    "with user ANY_SOURCE/ANY_TAG irecvs pending", "with user irecvs pending (big)"}


@pytest.mark.slow  # 18 s at a load of 30: 55 cases, each through both calls
@pytest.mark.parametrize("executor", ["combined", "step", "dataflow"])
def test_a_hostile_testers_legal_calls_get_pmpis_data(mpi, library, program, executor):
    """tests/c/alltoall_hostile.c (55 cases: layouts that match by signature only, resized, vector, indexed, nested,
    dup'd and freed types, predefined pair types, communicators split, made from groups, freed and made again, the
    program's attributes, error handler and pending MPI_ANY_TAG receives): every case agrees with PMPI_Alltoall, and
    exactly the provably contiguous ones run on the schedule.  Before the private communicator was made with
    PMPI_Comm_create, "user copy_fn called" differed and the refusing copy callback aborted the program."""
    done, cases, schedules, _ = run_preloaded(mpi, 8, program("alltoall_hostile"), library, timeout=300,
                                              env={"TESEARCH_ALLTOALL_EXECUTOR": executor})
    assert_all_same(done, cases, 55)
    assert {name for name, on in schedules.items() if on} == _HOSTILE_ON_SCHEDULE
    assert all(on in (0, 8) for on in schedules.values()), schedules


# ------------------------------------------------------------------ threads

THREAD_RUNS = 3


def _concurrent_first_calls(mpi, library, program, runs: int) -> None:
    for _ in range(runs):  # the old library's set-up raced between threads in about 1 run of 3
        done, cases, _, stats = run_preloaded(mpi, 8, program("alltoall_threads"), library, timeout=60)
        assert_all_same(done, cases, 1)
        assert len(stats) == 8 and {int(m.group(2)) for m in stats} == {4 * 2 * 4}
        assert {int(m.group(3)) for m in stats} == {4 * 2 * 4}  # every call on the schedule


def test_threads_make_their_first_calls_on_different_communicators_at_once(mpi, library, program):
    """MPI_THREAD_MULTIPLE: 4 threads per process, each on its own fresh duplicate of MPI_COMM_WORLD, make their
    first MPI_Alltoall at the same moment (twice), then 4 more each: no hang, PMPI's data, every call on the
    schedule.  The old library's unguarded set-up let a thread see it half made and send its call to PMPI_Alltoall
    while the other ranks ran the schedule: a hang or a crash in 2 runs of 6."""
    _concurrent_first_calls(mpi, library, program, THREAD_RUNS)


@pytest.mark.slow
def test_threads_make_their_first_calls_at_once_many_times(mpi, library, program):
    _concurrent_first_calls(mpi, library, program, 15)


@pytest.mark.parametrize("processes,threads", [(2, 4), (1, 8)])
def test_a_thread_communicator_goes_to_pmpi(mpi, library, program, processes, threads):
    """MPICH's MPIX_Threadcomm: 2 processes x 4 threads (or 1 x 8) make a communicator of 8 ranks (hypercube-3's
    size) whose handle each process's threads share; the old library cached one rank's state on it for all the
    process's threads and hung.  Every call now goes to PMPI_Alltoall ("a thread communicator") and agrees."""
    done, cases, _, stats = run_preloaded(mpi, processes, program("alltoall_threads"), library, "threadcomm", threads,
                                          timeout=60)
    if "SKIP" in done.stdout:
        pytest.skip(done.stdout.strip())
    assert_all_same(done, cases, 1)
    calls = threads * 4  # ROUNDS calls per thread
    assert len(stats) == processes and all(f"a thread communicator {calls}" in m.group(9) for m in stats)


# ------------------------------------------------------------------ large counts and bundles above one message

@pytest.fixture(scope="module")
def small_message_library(tmp_path_factory, mpi):
    """hypercube-3's library compiled with TE_MESSAGE_LIMIT = 4096 (a message of at most 4 KiB): what a block of
    2^30 bytes meets with the real limit (2^31 - 1), at a size a test can hold."""
    directory = tmp_path_factory.mktemp("small-messages")
    plan, _ = plan_for(RESULTS / "hypercube-3.json", None, None, command="library")
    sources = write_sources(plan, directory)
    done = run_captured([mpi[0], "-O2", "-std=gnu11", "-fPIC", "-shared", "-fvisibility=hidden",
                         "-DTE_MESSAGE_LIMIT=4096", "-o", str(directory / LIBRARY_NAME), *map(str, sources)],
                        cwd=directory, timeout_s=120)
    assert done.status == 0, done.stderr
    return directory / LIBRARY_NAME


def test_bundles_above_the_message_limit_go_in_pieces(mpi, small_message_library, program):
    """The combined executor bundles several blocks per link and superstep; above the message limit it sends the
    bundle in pieces (before: "combined: a message of more than 2^31 - 1 bytes" and the program aborted, as with
    2^30-byte blocks under the real limit).  Blocks of 1000 B to 4096 B run on the schedule through MPI_Alltoall_c
    (bundles up to 3 blocks: pieces), a block above the limit goes to PMPI_Alltoall_c; all agree."""
    sizes = (1000, 3000, 4096, 4104)
    done, cases, schedules, stats = run_preloaded(mpi, 8, program("alltoall_large"), small_message_library, *sizes)
    assert_all_same(done, cases, 8)
    for name, on in schedules.items():
        assert on == (0 if name.startswith("4104 ") else 8), (name, on)
    assert all("more than the executors hold 2" in m.group(9) for m in stats)


def test_the_memory_an_executor_holds_is_bounded(mpi, library, program):
    """TESEARCH_ALLTOALL_MAX_HELD: a call whose executor would hold more bytes than that beyond the user's buffers
    goes to PMPI_Alltoall on every rank (so 2^30-byte blocks, whose bundles the combined executor would stage in
    gigabytes, go there by default)."""
    done, cases, schedules, stats = run_preloaded(mpi, 8, program("alltoall_large"), library, 64, 65536,
                                                  env={"TESEARCH_ALLTOALL_MAX_HELD": "1000000"})
    assert_all_same(done, cases, 4)
    assert schedules == {"64 B blocks as MPI_BYTE": 8, "64 B blocks as 8-byte contiguous elements": 8,
                         "65536 B blocks as MPI_BYTE": 0, "65536 B blocks as 8-byte contiguous elements": 0}
