"""Per-rank programs: the pure function program(table, rank), the rank numbering, the tesearch-programs export."""

import itertools
import json
import subprocess
import sys
import weakref
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, run_cli
from tesearch.networks.families import compose, inverse, network_from_spec
from tesearch.schedules.programs import export as export_module
from tesearch.schedules.programs.export import iter_lines, iter_programs, read_header, read_program, write_programs
from tesearch.schedules.programs.ranks import rank_numbering
from tesearch.schedules.programs.schedule import Column, compile_schedule, program
from tesearch.tables.table import read_table

RESULTS = ROOT / "results"
TABLES = ["ring-6.json", "star-4.json", "hypercube-4.json", "torus-4x4.json", "star-4-odd.json", "ring-7.json"]


def compiled(name):
    return compile_schedule(read_table(RESULTS / name))


def all_programs(schedule):
    return [program(schedule, rank) for rank in range(schedule.ranks)]


@pytest.mark.parametrize("name", TABLES)
def test_every_message_hops_chain_from_origin_to_destination(name):
    schedule = compiled(name)
    hops = defaultdict(list)
    for prog in all_programs(schedule):
        for step, letter, neighbour, origin, destination in prog.sends.tolist():
            assert neighbour == schedule.neighbours[prog.rank][letter]
            hops[(origin, destination)].append((step, prog.rank, neighbour))
    expected_messages = schedule.ranks * schedule.messages
    assert len(hops) == expected_messages
    for (origin, destination), path in hops.items():
        path.sort()
        assert path[0][1] == origin and path[-1][2] == destination
        for (step, _, receiver), (next_step, sender, _) in zip(path, path[1:]):
            assert next_step == step + 1 and sender == receiver  # forwarded the step after it arrives


@pytest.mark.parametrize("name", TABLES)
def test_counts_links_and_receives_mirror_sends(name):
    schedule = compiled(name)
    table = schedule.table
    hop_count = sum(len(p.word) for p in table.placements)
    sends, receives = set(), set()
    for prog in all_programs(schedule):
        assert len(prog.sends) == len(prog.receives) == hop_count
        for step in range(schedule.steps):
            links = prog.at_step(prog.sends, step)[:, Column.NEIGHBOUR]
            assert len(set(links.tolist())) == len(links)  # each directed link at most once per step
            incoming = prog.at_step(prog.receives, step)[:, Column.NEIGHBOUR]
            assert len(set(incoming.tolist())) == len(incoming)
        sends |= {(prog.rank, s, n, o, d) for s, _, n, o, d in prog.sends.tolist()}
        receives |= {(n, s, prog.rank, o, d) for s, _, n, o, d in prog.receives.tolist()}
    assert sends == receives
    assert len(sends) == hop_count * schedule.ranks


def test_status_times_nodes_for_total_exchange():
    schedule = compiled("star-5.json")
    total = sum(len(program(schedule, rank).sends) for rank in range(schedule.ranks))
    assert total == 442 * 120  # status of star-5 times its nodes


def test_program_agrees_with_plain_permutation_arithmetic():
    """An independent derivation: origins and destinations by composing permutation tuples."""
    schedule = compiled("star-4.json")
    table = schedule.table
    net = network_from_spec("star-4")
    elements = sorted(tuple(int(x) for x in row) for row in schedule.graph.elements)
    rank_of = {element: rank for rank, element in enumerate(elements)}
    identity = tuple(range(4))

    def word_element(word):
        element = identity
        for letter in word:
            element = compose(element, net.generators[letter])
        return element

    for rank in (0, 7, 23):
        g = elements[rank]
        expected = set()
        for placement in table.placements:
            word = placement.word
            for j, letter in enumerate(word):
                holder = compose(g, word_element(word[:j]))
                origin = compose(holder, inverse(word_element(word[:j])))
                assert origin == g
                # rank `rank` as the holder at hop j: the origin is rank * (s1..sj)^-1
                origin = compose(g, inverse(word_element(word[:j])))
                destination = compose(origin, word_element(word))
                expected.add((placement.column + j, letter, rank_of[compose(g, net.generators[letter])],
                              rank_of[origin], rank_of[destination]))
        prog = program(schedule, rank)
        got = {(s, schedule.letters[k], n, o, d) for s, k, n, o, d in prog.sends.tolist()}
        assert got == expected


def test_program_is_a_function_of_table_and_rank_only():
    first, second = compiled("torus-4x4.json"), compiled("torus-4x4.json")
    for rank in range(first.ranks):
        a, b = program(first, rank), program(second, rank)
        assert np.array_equal(a.sends, b.sends) and np.array_equal(a.receives, b.receives)
    with pytest.raises(ValueError):
        program(first, first.ranks)


def test_rank_numbering_identity_first_lexicographic_and_coordinates():
    numbering = rank_numbering(network_from_spec("torus-4x4x8"))
    assert numbering.element(0) == tuple(range(16))
    elements = [numbering.element(r) for r in range(numbering.size)]
    assert elements == sorted(elements)
    for rank in range(numbering.size):
        coordinates = numbering.coordinates(rank)
        assert numbering.rank_of_coordinates(coordinates) == rank
    assert numbering.coordinates(1 * 8 + 3) == (0, 1, 3)


def test_hypercube_ranks_are_bit_strings():
    numbering = rank_numbering(network_from_spec("hypercube-4"))
    letters = numbering.network.letters
    for rank in range(16):
        assert numbering.coordinates(rank) == tuple((rank >> (3 - i)) & 1 for i in range(4))
        for k, _ in enumerate(letters):
            assert numbering.neighbour(rank, k) == rank ^ (1 << (3 - k))


def test_star_has_no_coordinates():
    assert rank_numbering(network_from_spec("star-4")).coordinates(3) is None


def test_export_round_trip(tmp_path):
    schedule = compiled("torus-4x4.json")
    path = tmp_path / "p.jsonl"
    size = write_programs(schedule, path)
    assert size == path.stat().st_size
    head = read_header(path)
    assert head["format"] == "tesearch-programs" and head["format_version"] == 1
    assert head["ranks"] == 16 and head["T"] == schedule.steps and head["axes"] == [
        {"first_point": 0, "side": 4}, {"first_point": 4, "side": 4}]
    lines = path.read_text().splitlines()
    assert len(lines) == 17
    record = json.loads(lines[1 + 6])
    assert record["rank"] == 6 and record["coordinates"] == [1, 2]
    for prog in iter_programs(path):
        fresh = program(schedule, prog.rank)
        assert np.array_equal(prog.sends, fresh.sends) and np.array_equal(prog.receives, fresh.receives)
    one = read_program(path, 11)
    assert one.rank == 11 and np.array_equal(one.sends, program(schedule, 11).sends)


def test_export_streams_one_program_at_a_time(monkeypatch):
    """star-6 (720 ranks): the writer computes a rank's program only when its line is wanted."""
    schedule = compiled("star-6.json")
    computed = []
    alive = weakref.WeakSet()
    peak = [0]

    def counting(schedule_, rank):
        prog = program(schedule_, rank)
        computed.append(rank)
        alive.add(prog)
        peak[0] = max(peak[0], len(alive))
        return prog

    monkeypatch.setattr(export_module, "program", counting)
    lines = iter_lines(schedule)
    head = json.loads(next(lines))
    assert head["ranks"] == 720 and computed == []
    for line in itertools.islice(lines, 3):
        assert json.loads(line)["rank"] == computed[-1]
    assert computed == [0, 1, 2]
    assert peak[0] <= 2  # a program is dropped once its line is written


#: run in a fresh process: compile star-6's schedule, then export it; print the resident memory before the
#: export, the process's peak resident memory after it (VmHWM: this program's own, where getrusage's
#: ru_maxrss keeps the peak of the forked parent's copy across exec), and the file's size
EXPORT_MEMORY = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tesearch.schedules.programs.export import write_programs
from tesearch.schedules.programs.schedule import compile_schedule
from tesearch.tables.table import read_table

def status(key):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith(key + ":"))

schedule = compile_schedule(read_table(sys.argv[2]))
before = status("VmRSS")
size = write_programs(schedule, sys.argv[3])
print(json.dumps({"before": before, "peak": status("VmHWM"), "size": size}))
"""


@pytest.mark.slow
def test_star6_export_memory_stays_below_the_file(tmp_path):
    """star-6 (720 ranks, a 92 MB file): the export raises a fresh process's peak resident memory by less
    than a quarter of the file (streamed, by about 4 MB; a writer that keeps every line raises it by more
    than the file).  The kernel's count in a fresh process (whose peak is its own) replaces tracemalloc,
    under which the same export took 15 times as long (93 s)."""
    path = tmp_path / "star-6.jsonl"
    done = subprocess.run([sys.executable, "-c", EXPORT_MEMORY, str(ROOT), str(RESULTS / "star-6.json"), str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    measured = json.loads(done.stdout)
    assert measured["size"] == path.stat().st_size and read_header(path)["ranks"] == 720
    assert measured["peak"] - measured["before"] < measured["size"] / 4, measured


def test_cli_export_writes_the_format(tmp_path):
    out = tmp_path / "ring.jsonl"
    result = run_cli("export", RESULTS / "ring-6.json", "--format", "programs", "-o", out, "--quiet")
    assert result.exit_code == 0, result.output
    assert "6 ranks" in result.output
    assert read_header(out)["network"] == "ring-6"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no scratch file left


@pytest.mark.parametrize("args,fragment", [
    (["export", "missing.json", "-o", "{tmp}/x.jsonl"], "no such file"),
    (["export", "{bad}", "-o", "{tmp}/x.jsonl"], "not valid JSON"),
    (["export", "{ring}", "-o", "{tmp}/no/dir/x.jsonl"], "does not exist"),
    (["export", "{ring}", "--format", "csv", "-o", "{tmp}/x.jsonl"], "csv"),
    (["run", "{ring}"], "--mpi"),
    (["run", "{ring}", "--mpi", "-n", "5"], "6 nodes"),
    (["run", "{odd}", "--mpi"], "odd-distance"),
    (["run", "{ring}", "--mpi", "--bytes", "0"], "size in bytes"),
    (["run", "{ring}", "--mpi", "--bytes", "1M", "--max-memory", "10M"], "max-memory"),
    (["run", "{ring}", "--mpi", "--executor", "fast"], "'fast' is not one of step"),
    (["run", "{ring}", "--mpi", "--dataflow", "0:1", "--executor", "dataflow"], "--dataflow"),
    (["run", "{ring}", "--mpi", "--dataflow", "2:2"], "--dataflow is for the dataflow executor"),
    (["run", "{ring}", "--mpi", "--executor", "pipelined", "--pipelined", "0:2"], "--pipelined: '0:2'"),
    (["run", "{ring}", "--mpi", "--executor", "pipelined", "--pipelined", "8:0"], "--pipelined: '8:0'"),
    (["run", "{ring}", "--mpi", "--executor", "pipelined", "--pipelined", "8"], "--pipelined: '8'"),
    (["run", "{ring}", "--mpi", "--pipelined", "8:2"], "--pipelined is for the pipelined executor"),
    (["run", "{ring}", "--mpi", "TESEARCH_TEST_PROGRAMS={star_programs}"], "programs are for"),
    (["run", "{ring}", "--mpi", "TESEARCH_TEST_PROGRAMS={header_only}"], "has 0 of its 6 ranks"),
    (["run", "{ring}", "--mpi", "TESEARCH_TEST_PROGRAMS={cut}"], "line 3: not valid JSON"),
])
def test_bad_input_exits_2(tmp_path, args, fragment):
    """Bad options and bad hook files (the environment variable TESEARCH_TEST_PROGRAMS, written VAR=FILE here) are
    one line and exit 2, before any mpiexec starts."""
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    star_programs = tmp_path / "star.jsonl"
    write_programs(compiled("star-4.json"), star_programs)
    ring_programs = tmp_path / "ring.jsonl"
    write_programs(compiled("ring-6.json"), ring_programs)
    lines = ring_programs.read_text().splitlines()
    header_only, cut = tmp_path / "header.jsonl", tmp_path / "cut.jsonl"
    header_only.write_text(lines[0] + "\n")
    cut.write_text("\n".join(lines[:2] + [lines[2][:len(lines[2]) // 2]]))  # rank 1's line cut in half
    values = {"tmp": tmp_path, "bad": bad, "ring": RESULTS / "ring-6.json", "odd": RESULTS / "star-4-odd.json",
              "star_programs": star_programs, "header_only": header_only, "cut": cut}
    words = [a.format(**values) for a in args]
    env = dict(w.split("=", 1) for w in words if w.startswith("TESEARCH_"))
    result = run_cli(*[w for w in words if not w.startswith("TESEARCH_")], env=env)
    assert result.exit_code == 2, result.output
    assert fragment in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_replay_does_not_import_programs():
    code = "import sys, tesearch.checking.replay; print(any(m.startswith('tesearch.schedules.programs') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    assert not any("tesearch.schedules.programs" in p.read_text() for p in (ROOT / "tesearch" / "replay").glob("*.py"))


def test_run_without_mpiexec_exits_2_naming_the_extra(monkeypatch, tmp_path):
    from tesearch.schedules.execute import mpi

    monkeypatch.setattr(mpi.sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    result = run_cli("run", RESULTS / "ring-6.json", "--mpi", "--quiet")
    assert result.exit_code == 2 and "no mpiexec" in result.output and "[mpi]" in result.output


@pytest.mark.parametrize("command", ["run", "simulate"])
@pytest.mark.parametrize("damage,fragment", [("header only", "has 0 of its 8 ranks"),
                                             ("cut", "line 3: not valid JSON")])
def test_a_truncated_programs_hook_file_is_bad_input_in_both_commands(tmp_path, command, damage, fragment):
    """The tests' hook TESEARCH_TEST_PROGRAMS (run --mpi and simulate read it alike): a programs file cut after its
    header or inside a rank's line is one line naming the file, exit 2, before any rank runs."""
    import shutil

    if command == "run" and not (Path(sys.executable).parent / "mpiexec").exists() and not shutil.which("mpiexec"):
        pytest.skip("run --mpi needs the mpi extra")
    if command == "simulate" and not shutil.which("smpirun"):
        pytest.skip("simulate needs SimGrid")
    path = tmp_path / "hypercube-3.jsonl"
    write_programs(compiled("hypercube-3.json"), path)
    lines = path.read_text().splitlines()
    path.write_text(lines[0] + "\n" if damage == "header only" else "\n".join(lines[:2] + [lines[2][:40]]))
    args = ["--mpi"] if command == "run" else ["--bytes", "8", "--mpi-algorithms", "none", "--executor", "step",
                                               "--no-non-optimal"]
    result = run_cli(command, RESULTS / "hypercube-3.json", *args, "--quiet", env={"TESEARCH_TEST_PROGRAMS": str(path)})
    assert result.exit_code == 2, result.output
    assert fragment in result.output and str(path) in result.output and "Traceback" not in result.output
