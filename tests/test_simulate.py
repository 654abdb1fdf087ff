"""tesearch simulate: the SimGrid platform is the network, the C executors run every schedule and hold to its
program, a family is compared only when complete, broken programs are caught in the simulation, the trace holds
every hop once in time order, and bad input is one line and exit 2 before anything is simulated.

Tests that run SimGrid need smpirun and smpicc (Debian: apt-get install libsimgrid-dev).  Where they are
absent they are skipped with the reason, except under CI=true, where a missing SimGrid fails them.
The everyday run simulates ring-6, hypercube-3 and torus-3x3 only (a few seconds each).
"""

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import networkx as nx
import pytest
from conftest import ROOT, run_cli
from conftest import broken_programs as shared_broken_programs

from tesearch.schedules.chrome_trace import trace_problems
from tesearch.schedules.execute.output import parse_driver_output
from tesearch.networks.families import network_from_spec
from tesearch.schedules.programs.ranks import rank_numbering
from tesearch.schedules.simulate.platform import (
    Routing,
    directed_links,
    platform_xml,
    shortest_routes,
)
from tesearch.schedules.simulate.study import (
    parse_bandwidth,
    parse_latency,
    seconds_label,
    size_plan,
)
from tesearch.schedules.simulate.verdicts import crossover, family_summary, summarise_size

RESULTS = ROOT / "results"
#: the rank whose program the broken-program tests break, and the step of the hop they break
BROKEN_RANK = 5
BROKEN_STEP = 2
SMALL = ("ring-6", "hypercube-3", "torus-3x3")


@pytest.fixture(scope="session")
def compiled_cache(tmp_path_factory):
    """One cache directory for the whole session: the executor is compiled once, then removed with it."""
    return tmp_path_factory.mktemp("tesearch-cache")


@pytest.fixture
def simgrid(compiled_cache, monkeypatch):
    """SimGrid's tools are there (else skip with the reason, or fail under CI=true); the session's cache."""
    missing = [tool for tool in ("smpirun", "smpicc") if shutil.which(tool) is None]
    if missing:
        message = f"{' and '.join(missing)} not on PATH (apt-get install libsimgrid-dev)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: SimGrid is required: {message}")
        pytest.skip(message)
    monkeypatch.setenv("XDG_CACHE_HOME", str(compiled_cache))


def simulate_json(*args):
    result = run_cli("simulate", *args, "--json", "--quiet")
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


# ------------------------------------------------------------------ the platform (no SimGrid needed)

@pytest.mark.parametrize("spec,twin", [
    ("ring-6", nx.cycle_graph(6)),
    ("hypercube-3", nx.hypercube_graph(3)),
    ("torus-3x3", nx.grid_2d_graph(3, 3, periodic=True)),
    ("torus-4x4x8:twisted", None),
    ("star-4", None),
])
def test_platform_links_are_the_directed_edges(spec, twin):
    numbering = rank_numbering(network_from_spec(spec))
    expected = {(r, numbering.neighbour(r, k)) for r in range(numbering.size) for k in range(len(numbering.graph.letters))}
    xml = ElementTree.fromstring(platform_xml(numbering, bandwidth_bps=1e10, latency_s=1e-6).split("\n", 2)[2])
    links = {link.get("id"): link for link in xml.iter("link")}
    assert {tuple(int(x) for x in name[1:].split("-")) for name in links} == expected
    assert all(link.get("bandwidth") == "10000000000Bps" and link.get("latency") == "9.9999999999999995e-07s"
               for link in links.values())
    routes = list(xml.iter("route"))
    assert len(routes) == len(expected) and all(r.get("symmetrical") == "NO" for r in routes)
    for route in routes:  # Floyd: one-hop routes, each over its own link
        (hop,) = route.findall("link_ctn")
        assert hop.get("id") == f"l{route.get('src')[1:]}-{route.get('dst')[1:]}"
    assert len(list(xml.iter("host"))) == numbering.size
    graph = nx.DiGraph(list(expected))
    assert all(graph.has_edge(b, a) for a, b in expected)  # every cable has both directions, each a link
    if twin is not None:
        assert nx.is_isomorphic(graph.to_undirected(), twin)


def test_full_routes_are_shortest_paths():
    numbering = rank_numbering(network_from_spec("torus-3x3"))
    links = directed_links(numbering)
    routes = shortest_routes(numbering.size, links)
    graph = nx.DiGraph([(a, b) for a, b, _ in links])
    distance = dict(nx.all_pairs_shortest_path_length(graph))
    assert len(routes) == 9 * 8
    for (a, b), path in routes.items():
        assert path[0] == a and path[-1] == b and len(path) - 1 == distance[a][b]
        assert all(graph.has_edge(x, y) for x, y in zip(path, path[1:]))
    xml = platform_xml(numbering, bandwidth_bps=1e9, latency_s=0, routing=Routing.FULL)
    assert xml.count("<route ") == 72


def test_units_and_sizes():
    assert parse_bandwidth("10GBps") == 1e10 and parse_bandwidth("100Gbps") == 1.25e10
    assert parse_bandwidth("1GiBps") == 2.0 ** 30
    assert parse_latency("1us") == 1e-6 and parse_latency("500ns") == pytest.approx(5e-7) and parse_latency("2e-6") == 2e-6
    assert size_plan(6, 9, 8, max_memory=None).checked
    assert not size_plan(720, 3000, 1 << 20, max_memory=None).checked  # shared buffers at star-6, 1 MiB


    assert seconds_label(0.2) == "0.2 s" and seconds_label(90) == "90 s" and seconds_label(0.004) == "4 ms"


# ------------------------------------------------------------------ a family is compared only when complete

def _run(name, family, status="ok", seconds=None):
    run = {"contender": name, "family": family, "bytes": 8, "status": status, "checked": True}
    if seconds is not None:
        run["seconds"] = seconds
    return run


def _size_runs(mpi_status="ok"):
    return [_run("table (step)", "table", seconds=2.0), _run("greedy combining (combined)", "table-free", seconds=1.0),
            _run("alltoall:pair", "MPI", seconds=3.0), _run("alltoall:basic_linear", "MPI", mpi_status,
                                                             1.5 if mpi_status == "ok" else None)]


def test_a_contender_cut_by_the_wall_clock_makes_its_family_incomplete():
    complete = summarise_size(8, _size_runs(), 1.0, 0, 8)
    assert complete["families"]["MPI"]["complete"] and complete["families"]["MPI"]["best"]["contender"] == \
        "alltoall:basic_linear"
    assert complete["mpi_over_table_free"] == pytest.approx(1.5) and complete["winner_family"] == "schedule"
    cut = summarise_size(8, _size_runs("too slow"), 1.0, 0, 8)
    mpi = cut["families"]["MPI"]
    assert not mpi["complete"] and mpi["missing"] == ["alltoall:basic_linear"]
    assert "mpi_over_table" not in cut and "mpi_over_table_free" not in cut and "winner" not in cut
    assert "incomplete at 8 B" in crossover([cut])["text"]
    assert "wins" not in crossover([cut])["text"]
    bounded = summarise_size(8, _size_runs("cannot be best"), 1.0, 0, 8)  # stopped once above the best: complete
    assert bounded["families"]["MPI"]["complete"] and bounded["families"]["MPI"]["best"]["contender"] == "alltoall:pair"
    failed = family_summary([_run("alltoall:rdb", "MPI", "failed")], family_of("MPI"))
    assert failed["complete"] and failed["not_compared"] == ["alltoall:rdb"] and "best" not in failed


def family_of(name):
    from tesearch.schedules.simulate.lineup import ContenderFamily

    return ContenderFamily(name)


def test_crossover_uses_only_complete_sizes_and_names_the_winner():
    small = summarise_size(8, [_run("table (step)", "table", seconds=2.0), _run("g (combined)", "table-free",
                                                                                  seconds=2.0),
                               _run("alltoall:bruck", "MPI", seconds=1.0)], 1.0, 0, 8)
    large = summarise_size(65536, [_run("table (step)", "table", seconds=2.0),
                                   _run("g (combined)", "table-free", seconds=1.0),
                                   _run("alltoall:bruck", "MPI", seconds=3.0)], 1.0, 0, 8)
    found = crossover([small, large])
    assert found["found"] and found["mpi_winner"] == "alltoall:bruck" and found["schedule_wins_from"] == 65536
    assert "between 8 B and 64 KiB" in found["text"]


def test_attribution_states_what_optimality_and_words_buy():
    from tesearch.schedules.simulate.verdicts import attribution

    runs = [_run("table (step)", "table", seconds=1.0), _run("table: balanced supersteps (combined)", "table",
                                                              seconds=0.5),
            _run("first-shortest-word table (step)", "non-optimal table", seconds=1.25),
            _run("first-shortest-word table: balanced supersteps (combined)", "non-optimal table", seconds=0.6),
            _run("table widened x2 (step)", "non-optimal table", seconds=2.0),
            _run("greedy combining (combined)", "table-free", seconds=0.5)]
    credit = attribution(runs)
    assert credit["optimality"] == {"first-shortest-word table (step)": 1.25, "table widened x2 (step)": 2.0}
    assert credit["words"] == {"first-shortest-word table": pytest.approx(1.2)}
    assert credit["table_vs_table_free"] == 1.0


# ------------------------------------------------------------------ refusals (no SimGrid needed)

def test_missing_smpirun_is_one_line_and_exit_2(tmp_path):
    result = run_cli("simulate", RESULTS / "ring-6.json", env={"PATH": str(tmp_path)})
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tesearch: smpirun is not on PATH")
    assert "libsimgrid-dev" in lines[0] and "Traceback" not in result.output


def test_table_failing_verification_is_refused_before_simulation(tmp_path):
    data = json.loads((RESULTS / "ring-6.json").read_text())
    assert data["placements"][1][2] == ["a", "A"]
    data["placements"][1][2] = ["a", "a"]  # the identity: not a shortest word of a target
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    result = run_cli("simulate", broken)
    assert result.exit_code == 2 and "does not verify" in result.stderr and "simulate refuses" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_size_that_cannot_fit_is_refused_up_front_with_the_figure(tmp_path):
    result = run_cli("simulate", RESULTS / "star-6.json", "--bytes", "64K,1G")
    assert result.exit_code == 2
    assert "720 x 1 GiB x 720 x 2" in result.stderr and "PiB" in result.stderr or "GiB of address" in result.stderr


def test_a_network_known_too_large_from_its_order_is_refused_before_anything_is_built():
    import time

    started = time.monotonic()
    result = run_cli("simulate", "hypercube-20", "--bytes", "8")
    assert result.exit_code == 2 and "1048576 ranks need about" in result.stderr, result.output
    assert time.monotonic() - started < 5  # the order, not the group (131 s and 3.3 GB before)


def test_a_bundle_larger_than_one_mpi_message_is_bad_input_not_a_deadlock():
    result = run_cli("simulate", RESULTS / "hypercube-3.json", "--bytes", "1500M", "--mpi-algorithms", "none",
                     "--table-free", "none", "--no-non-optimal", "--combine", "balanced", "--max-memory", "64G")
    assert result.exit_code == 2, result.output
    assert "more than one MPI message carries" in result.stderr and "table: balanced supersteps" in result.stderr


@pytest.mark.parametrize("options,message", [
    (("--executor", "sideways"), "--executor: 'sideways'"),
    (("--combine", "sideways"), "--combine: 'sideways'"),
    (("--executor", "step", "--combine", "4"), "--combine is for the combined executor"),
    (("--executor", "step", "--table-free", "greedy combining"), "--table-free is for the combined executor"),
    (("--executor", "combined", "--dataflow", "2:2"), "--dataflow is for the dataflow executor"),
    (("--dataflow", "0:3"), "--dataflow: '0:3'"),
    (("--pipelined", "0:3"), "--pipelined: '0:3'"),
    (("--pipelined", "8:0"), "--pipelined: '8:0'"),
    (("--pipelined", "8:2000"), "--pipelined: '8:2000'"),
    (("--pipelined", "fast"), "--pipelined: 'fast'"),
    (("--executor", "step", "--pipelined", "8:2"), "--pipelined is for the pipelined executor"),
    (("--mpi-algorithms", ""), "--mpi-algorithms: an empty name"),
    (("--mpi-algorithms", "pair,sideways"), "no alltoall algorithm or selector 'sideways'"),
])
def test_options_for_what_does_not_run_or_bad_names_are_refused_up_front(options, message, tmp_path):
    result = run_cli("simulate", RESULTS / "ring-6.json", *options, env={"PATH": str(tmp_path)})  # before SimGrid
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_network_spec_takes_the_packaged_table():
    import gzip

    from tesearch.running.errors import OptionError
    from tesearch.tables.loading import resolve_target

    found = resolve_target("torus-4x4x8:twisted", shipped=True).path
    assert found.name == "torus-4x4x8-twisted.json.gz" and "results" not in found.parts
    assert json.loads(gzip.decompress(found.read_bytes())) == \
        json.loads((RESULTS / "twisted" / "torus-4x4x8-twisted.json").read_text())
    with pytest.raises(OptionError, match="ships no table of ring-97"):
        resolve_target("ring-97", shipped=True).table_file()


def test_the_packaged_tables_equal_the_committed_ones():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "package_tables.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


# ------------------------------------------------------------------ the C side's programs are Python's

@pytest.mark.parametrize("name", ["ring-6.json", "star-4.json", "torus-3x3.json"])
def test_the_c_library_makes_every_rank_the_program_python_makes(tmp_path, name):
    """te_schedule.c multiplies permutations and looks elements up itself; its programs equal programs.schedule's."""
    import subprocess

    from tesearch.schedules.execute.build import Flavour, build
    from tesearch.schedules.execute.hops import HopSchedule
    from tesearch.schedules.execute.hopsfile import write_routes
    from tesearch.schedules.programs.schedule import compile_schedule, program
    from tesearch.tables.table import read_table

    mpiexec = shutil.which("mpiexec", path=os.path.dirname(os.sys.executable)) or shutil.which("mpiexec")
    if mpiexec is None:
        pytest.skip("no mpiexec (the mpi extra)")
    table = read_table(RESULTS / name)
    compiled = compile_schedule(table)
    schedule = HopSchedule.from_compiled(compiled)
    path = write_routes(schedule, tmp_path / "s.hops")
    binary = build(Flavour.MPI)
    for rank in (0, compiled.ranks // 2, compiled.ranks - 1):
        done = subprocess.run([mpiexec, "-n", "1", str(binary), "mode=dump", f"schedule={path}", f"rank={rank}"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        ours = {"send": [], "recv": []}
        for line in done.stdout.splitlines():
            side, *fields = line.split()[1:]
            ours[side].append(tuple(int(x) for x in fields[:5]))
        python = program(compiled, rank)
        assert sorted(ours["send"]) == sorted(map(tuple, python.sends.tolist()))
        assert sorted(ours["recv"]) == sorted(map(tuple, python.receives.tolist()))


# ------------------------------------------------------------------ SimGrid runs

@pytest.mark.parametrize("spec", SMALL)
def test_routes_in_simgrid_are_shortest_paths(simgrid, tmp_path, spec):
    from tesearch.schedules.execute.build import Flavour, build
    from tesearch.schedules.simulate import smpi
    from tesearch.schedules.simulate.platform import hostfile

    numbering = rank_numbering(network_from_spec(spec))
    (tmp_path / "platform.xml").write_text(platform_xml(numbering, bandwidth_bps=1e15, latency_s=1e-6))
    (tmp_path / "hostfile").write_text(hostfile(numbering.size))
    command = [smpi.find_tool("smpirun"), "-no-privatize", "-platform", "platform.xml", "-hostfile", "hostfile",
               "-np", str(numbering.size), "--cfg=network/model:CM02"] + \
        [f"--cfg={c}" for c in smpi.BASE_CONFIGURATION] + [str(build(Flavour.SIMGRID)), "mode=routes", "bytes=1"]
    finished = smpi.run_smpirun(command, work=tmp_path, timeout_s=120, max_memory=None)
    assert finished.status == 0, smpi.failure_reason(finished)
    routes = parse_driver_output(finished.stdout).routes
    graph = nx.DiGraph([(a, b) for a, b, _ in directed_links(numbering)])
    distance = dict(nx.all_pairs_shortest_path_length(graph))
    assert len(routes) == numbering.size * (numbering.size - 1)
    for (sender, receiver), seconds in routes.items():  # CM02: a route's time is its links' latencies
        assert round(seconds / 1e-6) == distance[sender][receiver], (sender, receiver, seconds)


@pytest.mark.slow  # about 15 s on a loaded machine (every family, 15 schedules checked); the pieces have fast tests above
def test_a_small_network_end_to_end_lists_every_family(simgrid):
    code, report = simulate_json(RESULTS / "hypercube-3.json", "--bytes", "64K", "--mpi-algorithms",
                                 "pair,bruck,ompi", "--dataflow", "1:1,4:4")
    assert code == 0 and report["verdict"] == "ok" and all(c["ok"] for c in report["checks"])
    names = [c["name"] for c in report["contenders"]]
    for expected in ("table (step)", "table (dataflow K=1 W=1)", "table (dataflow K=4 W=4)",
                     "table: balanced supersteps (combined)", "table: superstep optimum (combined)",
                     "first-shortest-word table (step)", "table widened x2 (step)",
                     "first-shortest-word table: balanced supersteps (combined)", "greedy combining (combined)",
                     "Johnsson-Ho (balanced classes) (combined)", "dimension-ordered (combined)",
                     "alltoall:pair", "alltoall:bruck", "selector:ompi"):
        assert expected in names
    for size in report["sizes"]:
        runs = {r["contender"]: r for r in size["runs"]}
        assert set(runs) == set(names)  # none dropped
        for name, run in runs.items():
            assert run["status"] == "ok", (name, run)
            assert run["multiple_of_bound"] == pytest.approx(run["seconds"] / size["bound_s"])
            if run["family"] != "MPI":
                assert run["held_bytes"] > 0 and run["held_blocks"] > 0 and run["mismatches"] == 0
        assert runs["table (step)"]["checked"]  # small sizes compare every delivered block
        # a table's own timing: strict dataflow never waits longer than the step executor, and at 64 KiB (every
        # link busy every step) exactly as long
        assert runs["table (dataflow K=1 W=1)"]["seconds"] <= runs["table (step)"]["seconds"] * (1 + 1e-9)
        if size["bytes"] == 65536:
            assert runs["table (dataflow K=1 W=1)"]["seconds"] == pytest.approx(runs["table (step)"]["seconds"],
                                                                               rel=1e-9)
        # the step executor holds each transit block for two steps: at most 2 x letters blocks
        assert runs["table (step)"]["held_blocks"] <= 2 * 3
        for family in ("table", "table-free", "MPI"):
            assert size["families"][family]["complete"] and size["families"][family]["best"]
        assert "mpi_over_table" in size and "table_vs_table_free" in size["attribution"]
    assert "text" in report["crossover"] and "incomplete" not in report["crossover"]["text"]
    assert report["simgrid"] not in ("", None)


def test_one_column_windows_time_exactly_as_the_step_executor(simgrid):
    code, report = simulate_json(RESULTS / "hypercube-3.json", "--bytes", "64K", "--mpi-algorithms", "none",
                                 "--executor", "step,combined", "--combine", "1,balanced", "--table-free", "none",
                                 "--no-non-optimal")
    assert code == 0
    runs = {r["contender"]: r for r in report["sizes"][0]["runs"]}
    assert runs["table: 1-column windows (combined)"]["seconds"] == pytest.approx(runs["table (step)"]["seconds"],
                                                                                  rel=1e-9)
    assert runs["table: balanced supersteps (combined)"]["seconds"] < runs["table (step)"]["seconds"]


def test_the_held_blocks_the_c_executor_counts_are_the_profile_python_computes(simgrid):
    """The combined executor's peak of transit blocks equals contenders.memory's exact profile of the schedule."""
    from tesearch.schedules.contenders import contender, subject_of
    from tesearch.tables.table import read_table

    subject = subject_of(table=read_table(RESULTS / "hypercube-4.json"))
    code, report = simulate_json(RESULTS / "hypercube-4.json", "--bytes", "8", "--mpi-algorithms", "none",
                                 "--executor", "combined", "--combine", "balanced", "--table-free",
                                 "greedy combining", "--no-non-optimal")
    assert code == 0
    runs = {r["contender"]: r for r in report["sizes"][0]["runs"]}
    for name in ("greedy combining", "table: balanced supersteps"):
        held = contender(name).build(subject).held
        assert runs[f"{name} (combined)"]["held_blocks"] == held.peak, name


def broken_programs(tmp_path, kind, name="hypercube-3.json"):
    """The programs of table ``name`` with one hop of rank BROKEN_RANK at step BROKEN_STEP broken (conftest)."""
    return shared_broken_programs(tmp_path, kind, RESULTS / name, BROKEN_RANK, BROKEN_STEP)


@pytest.mark.parametrize("kind,fault,step_shown", [("late", "late", BROKEN_STEP + 1),
                                                    ("wrong", "wrong neighbour", BROKEN_STEP),
                                                    ("dropped", "dropped", BROKEN_STEP)])
def test_broken_program_is_caught_in_the_simulation(simgrid, tmp_path, kind, fault, step_shown):
    path, (_, _, origin, destination) = broken_programs(tmp_path, kind)
    hook = {"TESEARCH_TEST_PROGRAMS": str(path)}
    options = ("--bytes", "8", "--mpi-algorithms", "none", "--executor", "step", "--no-non-optimal")
    result = run_cli("simulate", RESULTS / "hypercube-3.json", *options, "--json", "--quiet", env=hook)
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    table_check = next(c for c in report["checks"] if c["schedule"] == "table")
    assert report["verdict"] == "fault" and not table_check["ok"]
    first = table_check["faults"][0]
    assert first["kind"] == fault
    assert (first["rank"], first["origin"], first["destination"], first["step"]) == \
        (BROKEN_RANK, origin, destination, step_shown), table_check["faults"]
    assert f"rank {BROKEN_RANK}" in first["detail"] and f"{origin}->{destination}" in first["detail"]
    assert "sizes" not in report  # nothing was timed with a broken program
    text = run_cli("simulate", RESULTS / "hypercube-3.json", *options, "--quiet", env=hook)
    assert text.exit_code == 1 and f"{fault}: " in text.output


def test_a_truncated_programs_file_is_bad_input(tmp_path):
    path, _ = broken_programs(tmp_path, "late")
    path.write_text(path.read_text().splitlines()[0] + "\n")  # the header alone
    result = run_cli("simulate", RESULTS / "hypercube-3.json", "--bytes", "8", "--mpi-algorithms", "none",
                     "--executor", "step", "--no-non-optimal", env={"TESEARCH_TEST_PROGRAMS": str(path)})
    assert result.exit_code == 2 and "has 0 of its 8 ranks" in result.stderr, result.output


@pytest.mark.parametrize("executor,option", [("step", ()), ("dataflow", ("--dataflow", "2:2")),
                                             ("combined", ("--combine", "balanced"))])
def test_trace_holds_every_hop_once_in_time_order(simgrid, tmp_path, executor, option):
    trace = tmp_path / "trace.json"
    code, report = simulate_json(RESULTS / "ring-6.json", "--bytes", "64K", "--mpi-algorithms", "none",
                                 "--executor", executor, *option, "--trace", trace, "--table-free", "none"
                                 if executor == "combined" else "all", "--no-non-optimal") \
        if executor == "combined" else simulate_json(RESULTS / "ring-6.json", "--bytes", "64K", "--mpi-algorithms",
                                                     "none", "--executor", executor, *option, "--trace", trace,
                                                     "--no-non-optimal")
    assert code == 0
    document = json.loads(trace.read_text())
    assert trace_problems(document) == []
    slices = [e for e in document["traceEvents"] if e["ph"] == "X"]
    seen = [(e["args"]["origin"], e["args"]["destination"], e["args"]["step"], e["args"]["from"], e["args"]["to"])
            for e in slices]
    assert len(set(seen)) == len(seen) == 6 * 9  # ring-6: 6 ranks x 9 hops each, every hop once
    by_message = {}
    for e in slices:
        by_message.setdefault((e["args"]["origin"], e["args"]["destination"]), []).append(e)
    assert len(by_message) == 30
    for hops in by_message.values():
        hops.sort(key=lambda e: e["args"]["hop"])
        assert [e["args"]["step"] for e in hops] == sorted(e["args"]["step"] for e in hops)
        for before, after in zip(hops, hops[1:]):  # a hop leaves only after the one before it arrived
            assert after["ts"] >= before["ts"] + before["dur"] - 1e-6
    assert document["otherData"]["executor"].startswith(executor)


def test_a_link_carrying_more_hops_than_a_frame_holds_is_a_fault(simgrid, tmp_path):
    """Rank 5 of hypercube-4 sends all its 15 own blocks at step 0 over one link (a frame holds 2 + 2 x 4 + 2 hops)."""
    path = tmp_path / "hypercube-4.jsonl"
    assert run_cli("export", RESULTS / "hypercube-4.json", "-o", path, "--quiet").exit_code == 0
    lines = path.read_text().splitlines()
    record = json.loads(lines[1 + BROKEN_RANK])
    first = record["steps"][0][1][0]
    own = [hop for _, sends, _ in record["steps"] for hop in sends if hop[2] == BROKEN_RANK]
    for entry in record["steps"]:
        entry[1] = [hop for hop in entry[1] if hop[2] != BROKEN_RANK]
    record["steps"][0][1] = [[first[0], first[1], origin, destination] for _, _, origin, destination in own]
    lines[1 + BROKEN_RANK] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("simulate", RESULTS / "hypercube-4.json", "--bytes", "8", "--mpi-algorithms", "none",
                     "--executor", "step", "--no-non-optimal", "--json", "--quiet",
                     env={"TESEARCH_TEST_PROGRAMS": str(path)})
    assert result.exit_code == 1, result.output
    check = next(c for c in json.loads(result.stdout)["checks"] if c["schedule"] == "table")
    overloaded = [f for f in check["faults"] if f["kind"] == "link overloaded"]
    assert overloaded and all((f["rank"], f["step"]) == (BROKEN_RANK, 0) for f in overloaded)
    assert "more than 12 hops" in overloaded[0]["detail"]


def test_budget_spent_leaves_the_rest_not_run_and_the_comparison_incomplete(simgrid):
    """--budget bounds the timed runs after the check runs; what it leaves out is reported, never dropped, and a
    family with a contender left out has no best."""
    code, report = simulate_json("ring-6", "--bytes", "8", "--mpi-algorithms", "ring,pair", "--executor", "step",
                                 "--no-non-optimal", "--budget", "0.2")
    assert code == 0 and all(c["ok"] for c in report["checks"])
    size = report["sizes"][0]
    assert [r["contender"] for r in size["runs"]] == ["table (step)", "alltoall:ring", "alltoall:pair"]
    assert all(r["status"] == "not run" and "--budget of 0.2 s" in r["reason"] for r in size["runs"]), size["runs"]
    assert not size["families"]["MPI"]["complete"] and "best" not in size["families"]["MPI"]
    assert "incomplete" in report["crossover"]["text"]
    text = run_cli("simulate", "ring-6", "--bytes", "8", "--mpi-algorithms", "ring,pair", "--executor", "step",
                   "--no-non-optimal", "--budget", "0.2", "--quiet")
    assert "best MPI: INCOMPLETE, no time for alltoall:ring, alltoall:pair" in text.output
    assert "wins at every size" not in text.output


def test_a_run_timeout_shorter_than_a_run_cuts_it_and_no_conclusion_is_drawn(simgrid):
    """--run-timeout 0.01 cuts every run (smpirun alone takes longer to start): each is too slow, said in ms, and no
    family has a best, no ratio, no crossover (was: 'an MPI algorithm wins at every size measured')."""
    result = run_cli("simulate", RESULTS / "ring-6.json", "--bytes", "8", "--mpi-algorithms", "ring", "--executor",
                     "step", "--no-non-optimal", "--run-timeout", "0.01", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    size = report["sizes"][0]
    assert [r["status"] for r in size["runs"]] == ["too slow", "too slow"], size["runs"]
    assert all("no result within 0.01 s of wall clock" in r["reason"] for r in size["runs"])
    assert not any(f.get("best") for f in size["families"].values())
    assert "no size has a complete comparison" in report["crossover"]["text"]


def test_a_run_whose_simulated_time_passes_its_familys_best_is_stopped_as_unable_to_be_best(simgrid, tmp_path,
                                                                                          monkeypatch):
    """The progress lines bound a long run's time from below; past the best so far, it cannot be the best."""
    from tesearch.schedules.contenders import subject_of
    from tesearch.schedules.simulate import study
    from tesearch.schedules.simulate.lineup import Choice, ContenderFamily, build_lineup, mpi_contenders
    from tesearch.tables.table import read_table

    monkeypatch.setattr(study, "PROGRESS_MS", 10)
    monkeypatch.setattr(study, "WATCH_EVERY_S", 0.05)
    subject = subject_of(table=read_table(RESULTS / "hypercube-6.json"))
    lineup = build_lineup(subject, Choice(executors=(), non_optimal=False, table_free=()))
    setup = study.Setup(sizes=(65536,), bandwidth_bps=1e10, latency_s=1e-6, run_timeout_s=120)
    space = study.prepare(lineup, setup, tmp_path, subject.numbering)
    (basic_linear,) = mpi_contenders(["basic_linear"], ("basic_linear",))
    record = study.run_one(space, basic_linear, 65536, checked=False, setup=setup, cut_above=1e-9)
    assert record["status"] == "cannot be best" and record["at_least_s"] > 1e-9, record
    assert record["family"] == ContenderFamily.MPI.value and "above its family's best" in record["reason"]
    free = study.run_one(space, basic_linear, 65536, checked=False, setup=setup)
    assert free["status"] == "ok" and free["seconds"] >= record["at_least_s"]  # the bound was a bound


@pytest.mark.slow  # about 30 s on a busy machine; the fast twin is the next test
@pytest.mark.parametrize("signal_name,code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_interrupt_kills_the_simgrid_run(simgrid, tmp_path, signal_name, code):
    """A long MPI_Alltoall simulation (basic_linear, 128 ranks, 64 KiB: seconds to minutes) is stopped with its
    process group."""
    import signal
    import subprocess
    import sys
    import time

    trace = tmp_path / "trace.json"
    process = subprocess.Popen([sys.executable, "-m", "tesearch.entry", "simulate", str(RESULTS / "hypercube-7.json"),
                                "--bytes", "64K", "--executor", "step", "--mpi-algorithms", "basic_linear",
                                "--no-non-optimal", "--trace", str(trace), "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        deadline = time.monotonic() + 120
        simulator = None
        while simulator is None and time.monotonic() < deadline and process.poll() is None:
            simulator = _simulator_of(b"--cfg=smpi/alltoall:basic_linear", process.pid)
            time.sleep(0.1)
        assert simulator is not None, "no MPI_Alltoall simulation was started"
        time.sleep(0.5)
        process.send_signal(getattr(signal, signal_name))
        _, stderr = process.communicate(timeout=30)
        assert process.returncode == code, stderr
        assert stderr.strip().startswith("tesearch: ") and len(stderr.strip().splitlines()) == 1
        assert not _alive(simulator)  # the simulator is gone
        assert not trace.exists()  # nothing half-written
    finally:  # whatever failed, leave nothing running
        if process.poll() is None:
            process.kill()
            process.wait()


def _simulator_of(marker: bytes, ancestor: int) -> int | None:
    """A live process whose command line holds ``marker`` and that descends from ``ancestor``."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if marker in fh.read() and _alive(int(entry)) and _descends(int(entry), ancestor):
                        return int(entry)
            except OSError:
                continue
    return None


def _descends(pid: int, ancestor: int) -> bool:
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                pid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid == ancestor:
            return True
    return False


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_run_past_its_budget_is_killed_with_its_process_group(simgrid, tmp_path):
    """run_smpirun stops a long simulation (basic_linear, 128 ranks, 64 KiB) at its budget, simulator included."""
    import time

    from tesearch.schedules.execute.build import Flavour, build
    from tesearch.schedules.simulate import smpi
    from tesearch.schedules.simulate.platform import hostfile

    numbering = rank_numbering(network_from_spec("hypercube-7"))
    (tmp_path / "platform.xml").write_text(platform_xml(numbering, bandwidth_bps=1e10, latency_s=1e-6))
    (tmp_path / "hostfile").write_text(hostfile(numbering.size))
    command = [smpi.find_tool("smpirun"), "-no-privatize", "-platform", "platform.xml", "-hostfile", "hostfile",
               "-np", "128", "--cfg=smpi/alltoall:basic_linear"] + [f"--cfg={c}" for c in smpi.BASE_CONFIGURATION] + \
        [str(build(Flavour.SIMGRID)), "mode=alltoall", "bytes=65536", "check=0"]
    started = time.monotonic()
    finished = smpi.run_smpirun(command, work=tmp_path, timeout_s=1.5, max_memory=None)
    assert finished.timed_out and finished.status is None
    assert time.monotonic() - started < 1.5 + 4
    assert smpi.failure_reason(finished) == "no result within the run's time budget"
    leftovers = [entry for entry in os.listdir("/proc") if entry.isdigit() and _runs_in(entry, tmp_path)]
    assert leftovers == []


def _runs_in(pid: str, directory) -> bool:
    """Whether process ``pid`` is a live smpirun or simulator working in ``directory``."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            command = fh.read()
        with open(f"/proc/{pid}/stat") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z" and str(directory).encode() in command


def test_a_schedule_that_forwards_a_block_before_it_arrives_is_caught_by_the_content_check(simgrid, tmp_path):
    """A superstep schedule written without its check (a hop in the superstep its block arrives) delivers wrong
    blocks; the C content check names them."""
    from tesearch.schedules.contenders import contender, subject_of
    from tesearch.schedules.execute.hops import HopSchedule
    from tesearch.schedules.simulate import study
    from tesearch.schedules.simulate.lineup import COMBINED, Entrant, ContenderFamily, Lineup
    from tesearch.tables.table import read_table

    subject = subject_of(table=read_table(RESULTS / "hypercube-3.json"))
    good = contender("greedy combining").build(subject).schedule
    steps = [tuple(s) for s in good.steps]
    long = next(i for i, w in enumerate(good.words) if len(w) >= 2)
    steps[long] = (steps[long][1],) * len(steps[long])  # every hop in one superstep: forwards too early
    bad = HopSchedule(good.numbering, "too early", good.kind, good.words, tuple(steps), good.width)
    with pytest.raises(ValueError, match="do not increase"):
        bad.check()
    lineup = Lineup({"too early": bad}, {}, [Entrant("too early (combined)", ContenderFamily.TABLE_FREE, "too early",
                                                       COMBINED)])
    setup = study.Setup(sizes=(8,), bandwidth_bps=1e10, latency_s=1e-6, run_timeout_s=60)
    space = study.prepare(lineup, setup, tmp_path, subject.numbering)
    record = study.run_one(space, lineup.contenders[0], 8, checked=True, setup=setup)
    assert record["status"] == "ok" and record["mismatches"] > 0
    assert any(f["kind"] == "block differs" for f in record["faults"])


def test_an_mpi_algorithm_with_no_recorded_run_leaves_the_report_incomplete():
    """benchmarks/simulate.py merges the MPI runs of separate jobs into the study: an algorithm that no job ran is
    'not run', so its family is incomplete and no ratio is drawn (torus-4x8x8 at 1 MiB had looked complete with
    basic_linear, the best algorithm elsewhere, missing). Mutation: without the 'not run' records the family reads
    complete."""
    from benchmarks.simulate import merge_mpi
    from tesearch.schedules.simulate.lineup import KNOWN_ALGORITHMS, mpi_contenders

    names = [c.name for c in mpi_contenders(list(KNOWN_ALGORITHMS), None)]

    def record():
        table = {"contender": "table (step)", "family": "table", "status": "ok", "seconds": 1e-5, "bytes": 8}
        return {"network_spec": "ring-6", "network": "ring-6", "model": "smpi", "ranks": 6, "idle_rss_bytes": 0,
                "sizes": [{"bytes": 8, "bound_s": 1e-6, "runs": [table]}]}

    runs = {("ring-6", "smpi", 8, name): {"contender": name, "family": "MPI", "status": "ok", "seconds": 2e-5,
                                          "bytes": 8} for name in names}
    whole = merge_mpi(record(), runs, {})["sizes"][0]
    assert whole["families"]["MPI"]["complete"] and whole["mpi_over_table"] is not None
    del runs[("ring-6", "smpi", 8, "alltoall:basic_linear")]
    cut = merge_mpi(record(), runs, {})["sizes"][0]
    assert not cut["families"]["MPI"]["complete"]
    assert cut["families"]["MPI"]["missing"] == ["alltoall:basic_linear"]
    assert cut.get("mpi_over_table") is None


# ------------------------------------------------------------------ a base install (issue 46 item 15)

WITHOUT_ORTOOLS = """
import sys
class NoOrTools:  # the base install: `import ortools` fails as if the cpsat extra were not installed
    def find_spec(self, name, path=None, target=None):
        if name == "ortools" or name.startswith("ortools."):
            raise ModuleNotFoundError(f"No module named {name!r}")
sys.meta_path.insert(0, NoOrTools())
"""


def _without_ortools(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT_ORTOOLS + code, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.slow  # 7 s idle, 23 s at a load of 15: the superstep optimum's local search on torus-4x4x8 first
def test_without_ortools_the_superstep_optimum_is_left_out_and_the_lineup_goes_on():
    """Issue 46 item 15: on a base install `simulate results/torus-4x4x8.json` ended with exit 2 ("the superstep
    optimum needs OR-Tools"): one optional contender took the whole study down."""
    code = ("from tesearch.tables.table import read_table\n"
            "from tesearch.schedules.contenders import subject_of\n"
            "from tesearch.schedules.simulate.lineup import Choice, build_lineup\n"
            "lineup = build_lineup(subject_of(table=read_table(sys.argv[1])), Choice(), progress=print)\n"
            "print('schedules', sorted(lineup.schedules))\n")
    run = _without_ortools(code, str(RESULTS / "torus-4x4x8.json"))
    assert run.returncode == 0, run.stderr
    left = [line for line in run.stdout.splitlines() if line.startswith("left out ")]
    assert left == ["left out table: superstep optimum: the superstep optimum needs OR-Tools: pip install "
                    "'tesearch[cpsat]'"], run.stdout
    built = run.stdout.split("schedules ")[1]
    assert "'table: superstep optimum'" not in built
    assert "'table: balanced supersteps'" in built and "'greedy combining'" in built, built


POLISH_WITH_CPSAT = ("from tesearch.schedules.contenders import optimum\n"
                     "def polish_with_cpsat(schedule, subject, stages, seconds, seed):\n"
                     "    return optimum.cpsat_supersteps(schedule, supersteps=subject.diameter, floor=0)\n"
                     "optimum._polish = polish_with_cpsat\n")


def test_without_ortools_a_contender_that_needs_it_is_left_out_fast_twin():
    """The fast twin of the torus-4x4x8 case: on ring-6 the superstep optima are made to need CP-SAT."""
    code = POLISH_WITH_CPSAT + (
        "from tesearch.tables.table import read_table\n"
        "from tesearch.schedules.contenders import subject_of\n"
        "from tesearch.schedules.simulate.lineup import Choice, build_lineup\n"
        "lineup = build_lineup(subject_of(table=read_table(sys.argv[1])), Choice())\n"
        "print(lineup.left_out)\n"
        "print(sorted(lineup.schedules))\n")
    run = _without_ortools(code, str(RESULTS / "ring-6.json"))
    assert run.returncode == 0, run.stderr
    left, built = run.stdout.splitlines()
    assert "table: superstep optimum: the superstep optimum needs OR-Tools" in left
    assert "superstep optimum: the superstep optimum needs OR-Tools" in left.replace("table: superstep", "")
    assert "'table'" in built and "'table: balanced supersteps'" in built and "'table: superstep optimum'" not in built


@pytest.mark.slow  # a subprocess and SimGrid: 6 s at a load of 15
def test_without_ortools_the_study_says_so_in_one_line_and_runs_the_rest(simgrid):
    """The whole command on a base install, on ring-6, whose superstep optima need no CP-SAT: made to need it,
    each is left out with one line and the study ends ok with every other contender."""
    code = POLISH_WITH_CPSAT + ("from tesearch.entry import run\n"
            "sys.argv = ['tesearch', 'simulate', *sys.argv[1:]]\n"
            "run()\n")
    run = _without_ortools(code, str(RESULTS / "ring-6.json"), "--bytes", "8", "--mpi-algorithms", "none",
                           "--executor", "combined", "--no-non-optimal", "--table-free", "greedy combining",
                           "--quiet")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("left out table: superstep optimum: the superstep optimum needs OR-Tools") == 1, run.stdout
    assert "table: balanced supersteps (combined)" in run.stdout and "greedy combining (combined)" in run.stdout
    assert "table: superstep optimum (combined)" not in run.stdout
