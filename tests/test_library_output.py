"""tesearch library's inputs and output directory: nothing a user had is replaced, bad input is one line and exit 2.

The output directory is written whole or not at all, and only where nothing but an earlier output of the command
stands (its tesearch-manifest.json names the files and their sha256): a fresh clone's ``-o .`` once deleted the
project's README.  The simulate report and the rank map are read through the safe readers (regular files under a
size limit: /dev/zero once grew to 22 GB, a FIFO blocked), and every field of a report is checked with a one-line
error naming the file and the field (exit 70 before).  A compiler that exits 0 without writing a shared object that
defines MPI_Alltoall is a failed build (exit 4), never installed.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli
from tesearch.running.errors import OptionError
from tesearch.running.files import DIRECTORY_MANIFEST, REPORT_KIND, check_output, write_output_directory

TABLE = ROOT / "results" / "hypercube-3.json"
LIBRARY_FILES = ["README.md", "libtesearch_alltoall.so", "tesearch-manifest.json", "tesearch_alltoall.h",
                 "tesearch_alltoall.json"]


def one_line(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def tree(path):
    """Every file under ``path`` with its bytes."""
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A library directory written by tesearch library (one build for the module)."""
    pytest.importorskip("mpi4py")  # the mpi extra, whose mpicc builds it
    directory = tmp_path_factory.mktemp("built") / "lib"
    result = run_cli("library", TABLE, "-o", directory, "--quiet")
    assert result.exit_code == 0, result.output
    return directory


@pytest.mark.slow  # an mpicc build of the library: about 3 s of CPU
def test_a_new_directory_gets_the_library_and_its_manifest(built):
    assert sorted(p.name for p in built.iterdir()) == LIBRARY_FILES
    manifest = json.loads((built / DIRECTORY_MANIFEST).read_text())
    assert manifest["made_by"] == "tesearch library" and sorted(manifest["files"]) == sorted(
        set(LIBRARY_FILES) - {DIRECTORY_MANIFEST})


def earlier_output(target) -> None:
    """An output of tesearch library at ``target`` as the safe writer records it (the files' bytes made up)."""
    write_output_directory(target, {name: f"{name}\n".encode() for name in LIBRARY_FILES if name != DIRECTORY_MANIFEST},
                           made_by="tesearch library")


@pytest.mark.parametrize("case", ["readme", "cwd", "extra file", "changed output"])
def test_a_directory_holding_files_it_did_not_write_is_left_as_it_was(tmp_path, monkeypatch, case):
    """The fresh clone's ``tesearch library results/hypercube-3.json -o .`` replaced README.md (exit 0)."""
    target = tmp_path / "out"
    if case in ("readme", "cwd"):
        target.mkdir()
        (target / "README.md").write_text("# my project\n")
    else:
        earlier_output(target)
        assert sorted(p.name for p in target.iterdir()) == LIBRARY_FILES
        if case == "extra file":
            (target / "notes.txt").write_text("mine\n")
        else:
            (target / "README.md").write_text("# edited by hand\n")
    if case == "cwd":
        monkeypatch.chdir(target)
    before = tree(tmp_path)
    line = one_line(run_cli("library", TABLE, "-o", "." if case == "cwd" else target, "--quiet"))
    assert {"readme": "did not write (README.md)", "cwd": "is the current directory",
            "extra file": "did not write (notes.txt)", "changed output": "README.md there changed"}[case] in line, line
    assert tree(tmp_path) == before


@pytest.mark.slow  # two mpicc builds of the library
def test_an_earlier_output_is_replaced_whole(tmp_path, built):
    import shutil

    target = tmp_path / "out"
    shutil.copytree(built, target)
    (target / "tesearch_alltoall.h").write_text("/* edited */\n")
    assert one_line(run_cli("library", TABLE, "-o", target, "--quiet"))
    result = run_cli("library", TABLE, "-o", target, "--quiet", "--force")  # --force: over its own edited output
    assert result.exit_code == 0, result.output
    written, first = tree(target), tree(built)
    assert sorted(written) == LIBRARY_FILES and written["tesearch_alltoall.h"] == first["tesearch_alltoall.h"]
    assert written["libtesearch_alltoall.so"] == first["libtesearch_alltoall.so"]  # README names its directory
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no scratch or earlier directory left


def test_an_empty_output_name_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "an empty directory name" in one_line(run_cli("library", TABLE, "-o", "", "--quiet"))
    assert list(tmp_path.iterdir()) == []


def test_a_report_replaces_only_a_report(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n")
    with pytest.raises(OptionError, match="not replaced"):
        check_output(notes, kind=REPORT_KIND)
    notes.write_text("Command: `python -m benchmarks.fuzz --report notes.md` (2026-12-05)\n\nrows\n")
    assert check_output(notes, kind=REPORT_KIND) == notes


@pytest.mark.slow  # the fuzzer's start in a fresh process (hypothesis, every generator): about 3 s
def test_the_fuzzer_refuses_to_replace_notes_before_running_a_case(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n")
    done = subprocess.run([sys.executable, "-m", "benchmarks.fuzz", "--per-command", "1", "--only", "verify",
                           "--report", str(notes)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "not replaced" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert notes.read_text() == "my notes\n" and done.stdout == ""


# ------------------------------------------------------------------ the inputs

def library_cli(tmp_path, *options):
    return run_cli("library", TABLE, "-o", tmp_path / "lib", "--quiet", *options)


def test_a_device_as_the_report_is_refused_unread(tmp_path):
    line = one_line(library_cli(tmp_path, "--crossover", "/dev/zero", "--max-memory", "500M"))
    assert "/dev/zero" in line and "not a regular file" in line
    assert not (tmp_path / "lib").exists()


def test_a_fifo_as_the_rank_map_does_not_block(tmp_path):
    """Run in a child with a time limit: the old reader waited for a writer forever."""
    fifo = tmp_path / "map"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "tesearch.entry", "library", str(TABLE), "-o", str(tmp_path / "lib"),
                           "--rank-map", str(fifo), "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr


@pytest.mark.parametrize("text", ["--7 0 1 2 3 4 5 6", "\u00b2 0 1 2 3 4 5 6", "0 1 2 3 4 5 6 1e3"])
def test_a_rank_map_entry_that_is_no_integer_is_one_line(tmp_path, text):
    (tmp_path / "m.txt").write_text(text)
    assert "is not an integer" in one_line(library_cli(tmp_path, "--rank-map", tmp_path / "m.txt"))


def crossover_report() -> dict:
    """A report of hypercube-3 the rules can come from: the table under step beats pair at 64 KiB."""
    return {"network": "hypercube-3", "ranks": 8,
            "contenders": [{"name": "table (step)", "family": "table", "schedule": "table",
                            "executor": {"kind": "step", "lookahead": 1, "inflight": 1, "pieces": 0}},
                           {"name": "table (dataflow K=2 W=2)", "family": "table", "schedule": "table",
                            "executor": {"kind": "dataflow", "lookahead": 2, "inflight": 2, "pieces": 0}},
                           {"name": "alltoall:pair", "family": "MPI", "schedule": None, "executor": None}],
            "sizes": [{"bytes": 8, "runs": [{"contender": "table (step)", "family": "table", "status": "ok",
                                             "seconds": 2e-5},
                                            {"contender": "alltoall:pair", "family": "MPI", "status": "ok",
                                             "seconds": 1e-5}]},
                      {"bytes": 65536, "runs": [{"contender": "table (dataflow K=2 W=2)", "family": "table",
                                                 "status": "ok", "seconds": 1e-4},
                                                {"contender": "alltoall:pair", "family": "MPI", "status": "ok",
                                                 "seconds": 2e-4}]}]}


def _set(path: str, value):
    def change(report):
        *parents, last = path.split(".")
        at = report
        for key in parents:
            at = at[int(key)] if key.isdigit() else at[key]
        if value is KeyError:
            del at[int(last) if last.isdigit() else last]
        else:
            at[int(last) if last.isdigit() else last] = value
    return change


@pytest.mark.parametrize("path,value,fragment", [
    ("contenders.0.name", ["table"], "contenders[0].name: [\"table\"] is not a string"),
    ("contenders.0.name", {"a": 1}, "contenders[0].name: {\"a\": 1} is not a string"),
    ("contenders.0.executor", ["step"], "contenders[0].executor: [\"step\"] is not an object"),
    ("contenders.1.executor.lookahead", "abc", "contenders[1].executor.lookahead: \"abc\" is not a whole number"),
    ("sizes.0.bytes", KeyError, "sizes[0]: no 'bytes'"),
    ("sizes.0.bytes", "8", "sizes[0].bytes: \"8\" is not a whole number"),
    ("sizes.0.runs", 5, "sizes[0].runs: 5 is not a list"),
    ("sizes.0.runs.0.seconds", "fast", "sizes[0].runs[0].seconds: \"fast\" is not a whole number or a number"),
    ("contenders.1.executor.lookahead", 0, "lookahead 0 and inflight 2"),
    ("contenders.1.executor.lookahead", -5, "lookahead -5 and inflight 2"),
    ("contenders.1.executor.lookahead", 10**12, "lookahead 1000000000000 and inflight 2"),
    ("contenders.1.executor.inflight", 32767, "lookahead 2 and inflight 32767"),
])
def test_a_report_field_of_the_wrong_kind_or_range_is_one_line_naming_it(tmp_path, path, value, fragment):
    report = crossover_report()
    _set(path, value)(report)
    (tmp_path / "r.json").write_text(json.dumps(report))
    line = one_line(library_cli(tmp_path, "--crossover", tmp_path / "r.json"))
    assert str(tmp_path / "r.json") in line and fragment in line, line
    assert not (tmp_path / "lib").exists()


def test_the_report_made_up_here_gives_rules():
    from tesearch.schedules.library import rules_from_report

    rules, _ = rules_from_report(crossover_report(), network="hypercube-3", ranks=8, where="r.json")
    assert [(r.min_bytes, r.name) for r in rules] == [(0, "PMPI_Alltoall"), (65536, "dataflow K=2 W=2")]


# ------------------------------------------------------------------ the compiler

def fake_compiler(tmp_path, body: str) -> str:
    """A compiler script in tmp_path/bin, named by a path relative to tmp_path (the test's current directory)."""
    (tmp_path / "bin").mkdir(exist_ok=True)
    script = tmp_path / "bin" / "fakecc"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return "bin/fakecc"


@pytest.mark.parametrize("body,fragment", [
    ("exit 0\n", "fakecc exited 0 but wrote no libtesearch_alltoall.so"),
    ('while [ $# -gt 1 ]; do [ "$1" = -o ] && printf "notelf\\n" > "$2"; shift; done\nexit 0\n',
     "wrote 7 bytes that are not an ELF shared object"),
])
def test_a_compiler_that_writes_no_shared_object_is_a_failed_build(tmp_path, monkeypatch, body, fragment):
    """Named by a relative path that exists (it said 'No such file': the build ran in a scratch directory)."""
    monkeypatch.chdir(tmp_path)
    line = one_line(run_cli("library", TABLE, "-o", "lib", "--mpicc", fake_compiler(tmp_path, body), "--quiet"), 4)
    assert fragment in line, line
    assert not (tmp_path / "lib").exists()


@pytest.mark.slow  # a time limit of 10 s in a fresh process (longer when the machine did not reach the build)
def test_the_time_limit_names_the_compiler_phase(tmp_path):
    """The old message named the last phase before the build ('after phase: multiplication tables').  A limit that
    falls in an earlier phase of its own (a loaded machine) is tried again with a longer one."""
    compiler = fake_compiler(tmp_path, "sleep 600\n")
    for seconds in (10, 40, 120):
        done = subprocess.run([sys.executable, "-m", "tesearch.entry", "library", str(TABLE), "-o", "lib", "--mpicc",
                               compiler, "--timeout", str(seconds), "--quiet"], cwd=tmp_path, capture_output=True,
                              text=True, timeout=seconds + 120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert done.returncode == 4, done.stderr
        if "compile" in done.stderr:
            break
    assert "(in phase: compile the MPI_Alltoall library with fakecc)" in done.stderr, done.stderr


# ------------------------------------------------------------------ what the library says at run time

STATS_LINE = re.compile(r"tesearch_alltoall: rank (\d+): .*; (rank \d+'s neighbours[ \d]*)$")


def run_preloaded(built, source, tmp_path, env: dict) -> str:
    """``source`` (tests/c) built with the mpi extra's mpicc and run on 8 ranks with ``built``'s library preloaded
    and TESEARCH_ALLTOALL_STATS=1; its standard error."""
    from tesearch.running.processes import run_captured
    from tesearch.schedules.execute.build import Flavour, compiler
    from tesearch.schedules.execute.mpi import find_mpiexec, mpi_environment

    binary = tmp_path / source.stem
    done = run_captured([compiler(Flavour.MPI), "-O2", "-o", str(binary), str(source)], timeout_s=120)
    assert done.status == 0, done.stderr
    environment = mpi_environment({"TESEARCH_ALLTOALL_STATS": "1", **env})
    done = run_captured([str(find_mpiexec()), "-n", "8", "-env", "LD_PRELOAD", str(built / "libtesearch_alltoall.so"),
                         str(binary)], env=environment, timeout_s=120)
    assert done.status == 0, done.stderr[-2000:]
    return done.stderr


@pytest.mark.slow  # an mpicc build and an 8-rank run
def test_the_stats_line_names_world_ranks_on_a_sub_communicator(tmp_path, built):
    """On a communicator of every rank in reverse order, world rank w runs the node of rank 7 - w there; its line
    said 'rank w: ...; rank 7-w's neighbours' in the communicator's ranks, mixing the two."""
    from tesearch.networks.families import network_from_spec
    from tesearch.schedules.programs.ranks import rank_numbering

    stderr = run_preloaded(built, ROOT / "tests" / "c" / "reversed_stats.c", tmp_path, {})
    said = {int(m.group(1)): m.group(2) for m in map(STATS_LINE.search, stderr.splitlines()) if m}
    assert sorted(said) == list(range(8)), stderr
    numbering = rank_numbering(network_from_spec("hypercube-3"))
    for world, text in said.items():
        expected = [7 - numbering.neighbour(7 - world, k) for k in range(3)]
        assert text == f"rank {world}'s neighbours " + " ".join(map(str, expected)), text


@pytest.mark.slow  # an mpicc build and an 8-rank run
def test_a_directory_as_the_schedule_is_named_and_every_call_goes_to_pmpi(tmp_path, built):
    """TESEARCH_SCHEDULE=<a directory> printed an uninitialised buffer as the reason."""
    stderr = run_preloaded(built, ROOT / "tests" / "c" / "reversed_stats.c", tmp_path,
                           {"TESEARCH_SCHEDULE": str(tmp_path)})
    assert f"TESEARCH_SCHEDULE={tmp_path} cannot be used (a directory, not a file)" in stderr, stderr
    assert stderr.count("0 on the schedule") == 8, stderr


@pytest.mark.slow  # a time limit of 5 s or more in a fresh process
def test_the_time_limit_of_run_mpi_names_mpiexec(tmp_path):
    """The phase of ``run --mpi``'s mpiexec run, held there by the fault-injection variable (the run itself would
    end too soon); a machine too loaded to reach it in time is given a longer limit."""
    from tesearch.running.limits import STALL_PHASE_VARIABLE

    pytest.importorskip("mpi4py")
    for seconds in (5, 20, 60):
        done = subprocess.run([sys.executable, "-m", "tesearch.entry", "run", str(TABLE), "--mpi", "--timeout",
                               str(seconds), "--quiet"], cwd=tmp_path, capture_output=True, text=True,
                              timeout=seconds + 120, env=dict(os.environ, PYTHONPATH=str(ROOT),
                                                              **{STALL_PHASE_VARIABLE: "run on 8 ranks"}))
        assert done.returncode == 4, done.stderr
        if "run on 8 ranks" in done.stderr:
            break
    assert "(in phase: run on 8 ranks with mpiexec)" in done.stderr, done.stderr
