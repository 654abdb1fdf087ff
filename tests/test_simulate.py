"""tesearch simulate: the SimGrid platform is the network, broken programs are caught in the simulation, the
trace holds every hop once in time order, and bad input (no SimGrid, a broken table, a size that cannot fit)
is one line and exit 2.

Tests that run SimGrid need smpirun and smpicc (Debian: apt-get install libsimgrid-dev).  Where they are
absent they are skipped with the reason, except under CI=true, where a missing SimGrid fails them.
The everyday run simulates ring-6, hypercube-3 and torus-3x3 only (a few seconds each; the whole study of
hypercube-3 and torus-3x3, about 10 s each, is marked slow).
"""

import json
import os
import shutil
import xml.etree.ElementTree as ElementTree

import networkx as nx
import pytest

from conftest import ROOT, run_cli
from conftest import broken_programs as shared_broken_programs
from tesearch.chrome_trace import trace_problems
from tesearch.networks import network_from_spec
from tesearch.simulate.combine import SuperstepRule
from tesearch.programs.ranks import rank_numbering
from tesearch.simulate.platform import Routing, directed_links, platform_xml, shortest_routes
from tesearch.simulate.study import crossover, parse_bandwidth, parse_latency, regular_over_twisted, size_plan

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


def test_crossover_names_the_sizes_and_the_winner():
    sizes = [{"bytes": 8, "winner": "alltoall:bruck", "ratio_best_mpi_to_table": 0.5},
             {"bytes": 4096, "winner": "alltoall:pair", "ratio_best_mpi_to_table": 0.9},
             {"bytes": 65536, "winner": "table", "ratio_best_mpi_to_table": 2.0},
             {"bytes": 1 << 20, "winner": "table", "ratio_best_mpi_to_table": 3.0}]
    found = crossover(sizes)
    assert found["found"] and found["mpi_wins_up_to"] == 4096 and found["table_wins_from"] == 65536
    assert found["mpi_winner"] == "alltoall:pair"
    assert not crossover([dict(s, winner="table") for s in sizes])["found"]


def test_regular_over_twisted_divides_the_best_times_of_each_size_both_measured():
    """The one computation behind results/simulate.md's twisted section and the twisted report's time columns."""
    def size(bytes_, table, mpi=None):
        return {"bytes": bytes_, "best_table": {"contender": "table (step)", "seconds": table},
                "best_mpi": None if mpi is None else {"contender": f"alltoall:{mpi[0]}", "seconds": mpi[1]}}

    regular = {"sizes": [size(8, 3.0, ("ring", 1.0)), size(65536, 6.0, ("pair", 8.0)), size(1 << 20, 9.0)]}
    twisted = {"sizes": [size(65536, 4.0, ("bruck", 2.0)), size(1 << 20, 3.0, ("ring", 1.0))]}
    gains = regular_over_twisted(regular, twisted)
    assert list(gains) == [65536, 1 << 20]  # 8 B: the twisted torus was not measured there
    assert gains[65536] == {"table": 1.5, "mpi": 4.0, "mpi_regular": "alltoall:pair", "mpi_twisted": "alltoall:bruck"}
    assert gains[1 << 20]["table"] == 3.0 and gains[1 << 20]["mpi"] is None  # no MPI time on the regular side


def test_benchmark_merge_keeps_every_contender_of_a_size_run_twice():
    """benchmarks/simulate.py: a second run of 64 KiB with other contenders adds to the first, the latest run of a
    contender wins, and the best MPI contender and ratio are recomputed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("simulate_benchmark", ROOT / "benchmarks" / "simulate.py")
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)

    def record(sizes, contenders):
        return {"network": "x", "model": "smpi", "sizes": sizes, "contenders": [{"name": c, "kind": k}
                                                                                for c, k in contenders],
                "smpirun_runs": 1, "wall_s": 1.0, "command": "c"}

    def run(name, kind, seconds):
        return {"contender": name, "kind": kind, "status": "ok", "seconds": seconds}

    bound = 1e-3
    old = record([{"bytes": 65536, "bound_s": bound, "counting_bound_s": bound,
                   "runs": [run("table (step)", "table", 2e-3), run("alltoall:ring", "mpi", 8e-3)]},
                  {"bytes": 1 << 20, "bound_s": 16 * bound, "runs": []}],
                 [("table (step)", "table"), ("alltoall:ring", "mpi")])
    new = record([{"bytes": 65536, "bound_s": bound,
                   "runs": [run("table (step)", "table", 2e-3), run("alltoall:pair", "mpi", 4e-3)]}],
                 [("table (step)", "table"), ("alltoall:pair", "mpi")])
    merged = benchmark.merge_sizes(old, new)
    size = merged["sizes"][0]
    assert [r["contender"] for r in size["runs"]] == ["table (step)", "alltoall:ring", "alltoall:pair"]
    assert size["best_mpi"]["contender"] == "alltoall:pair" and size["ratio_best_mpi_to_table"] == 2.0
    assert size["counting_bound_s"] == bound and [s["bytes"] for s in merged["sizes"]] == [65536, 1 << 20]


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
    result = run_cli("simulate", broken, env={"PATH": str(tmp_path)})  # no SimGrid either: refused first
    assert result.exit_code == 2 and "does not verify" in result.stderr and "simulate refuses" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_size_that_cannot_fit_is_refused_up_front_with_the_figure(tmp_path):
    result = run_cli("simulate", RESULTS / "star-6.json", "--bytes", "64K,1G", env={"PATH": str(tmp_path)})
    assert result.exit_code == 2
    assert "720 x 1 GiB x 720 x 2" in result.stderr and "PiB" in result.stderr or "GiB of address" in result.stderr


# ------------------------------------------------------------------ SimGrid runs

@pytest.mark.parametrize("spec", SMALL)
def test_routes_in_simgrid_are_shortest_paths(simgrid, tmp_path, spec):
    from tesearch.simulate import smpi
    from tesearch.simulate.platform import hostfile

    numbering = rank_numbering(network_from_spec(spec))
    (tmp_path / "platform.xml").write_text(platform_xml(numbering, bandwidth_bps=1e15, latency_s=1e-6))
    (tmp_path / "hostfile").write_text(hostfile(numbering.size))
    command = [smpi.find_tool("smpirun"), "-no-privatize", "-platform", "platform.xml", "-hostfile", "hostfile",
               "-np", str(numbering.size), "--cfg=network/model:CM02"] + \
        [f"--cfg={c}" for c in smpi.BASE_CONFIGURATION] + \
        [str(smpi.executor_binary()), "routes", str(tmp_path), "1", "0", "0", "1"]
    finished = smpi.run_smpirun(command, work=tmp_path, timeout_s=120, max_memory=None)
    assert finished.status == 0, smpi.failure_reason(finished)
    routes = smpi.parse_output(finished.stdout).routes
    graph = nx.DiGraph([(a, b) for a, b, _ in directed_links(numbering)])
    distance = dict(nx.all_pairs_shortest_path_length(graph))
    assert len(routes) == numbering.size * (numbering.size - 1)
    for (sender, receiver), seconds in routes.items():  # CM02: a route's time is its links' latencies
        assert round(seconds / 1e-6) == distance[sender][receiver], (sender, receiver, seconds)


@pytest.mark.parametrize("spec", ["ring-6", pytest.param("hypercube-3", marks=pytest.mark.slow),
                                  pytest.param("torus-3x3", marks=pytest.mark.slow)])
def test_small_networks_end_to_end(simgrid, spec):
    table = {"ring-6": "ring-6.json", "hypercube-3": "hypercube-3.json", "torus-3x3": "torus-3x3.json"}[spec]
    code, report = simulate_json(RESULTS / table, "--bytes", "8,64K", "--mpi-algorithms", "pair,bruck,ompi")
    assert code == 0 and report["verdict"] == "ok" and report["check"]["ok"] and report["check"]["fault_count"] == 0
    names = [c["name"] for c in report["contenders"]]
    assert names == ["table (step)", "table (dataflow)", "table (combined: balanced)", "alltoall:pair",
                     "alltoall:bruck", "selector:ompi"]
    for size in report["sizes"]:
        assert size["bound_s"] == pytest.approx(report["bound_steps"] * size["bytes"] / 1e10)
        assert [r["contender"] for r in size["runs"]] == names  # none dropped
        runs = {r["contender"]: r for r in size["runs"]}
        for name in ("table (step)", "table (dataflow)", "table (combined: balanced)", "alltoall:bruck",
                     "selector:ompi"):
            assert runs[name]["status"] == "ok" and runs[name]["seconds"] > 0 and runs[name]["mismatches"] == 0
            assert runs[name]["multiple_of_bound"] == pytest.approx(runs[name]["seconds"] / size["bound_s"])
        if spec == "ring-6":  # 6 ranks: pair needs a power of two
            assert runs["alltoall:pair"]["status"] == "not applicable"
            assert "power of two" in runs["alltoall:pair"]["reason"]
        assert size["best_mpi"] and "ratio_best_mpi_to_table" in size
        assert runs["table (step)"]["checked"]  # small sizes compare every delivered block
    assert "text" in report["crossover"]


def broken_programs(tmp_path, kind, name="hypercube-3.json"):
    """The programs of table ``name`` with one hop of rank BROKEN_RANK at step BROKEN_STEP broken (conftest)."""
    return shared_broken_programs(tmp_path, kind, RESULTS / name, BROKEN_RANK, BROKEN_STEP)


@pytest.mark.parametrize("kind,fault,step_shown", [("late", "late", BROKEN_STEP + 1),
                                                    ("wrong", "wrong neighbour", BROKEN_STEP),
                                                    ("dropped", "dropped", BROKEN_STEP)])
def test_broken_program_is_caught_in_the_simulation(simgrid, tmp_path, kind, fault, step_shown):
    path, (_, _, origin, destination) = broken_programs(tmp_path, kind)
    code, report = simulate_json(RESULTS / "hypercube-3.json", "--programs", path, "--bytes", "8",
                                 "--mpi-algorithms", "none")
    assert code == 1 and report["verdict"] == "fault" and not report["check"]["ok"]
    first = report["check"]["faults"][0]
    assert first["kind"] == fault
    assert (first["rank"], first["origin"], first["destination"], first["step"]) == \
        (BROKEN_RANK, origin, destination, step_shown), report["check"]["faults"]
    assert f"rank {BROKEN_RANK}" in first["detail"] and f"{origin}->{destination}" in first["detail"]
    assert "sizes" not in report  # nothing was timed with a broken program
    text = run_cli("simulate", RESULTS / "hypercube-3.json", "--programs", path, "--bytes", "8",
                   "--mpi-algorithms", "none", "--quiet")
    assert text.exit_code == 1 and f"{fault}: " in text.output


@pytest.mark.parametrize("executor", ["dataflow", "step", "combined"])
def test_trace_holds_every_hop_once_in_time_order(simgrid, tmp_path, executor):
    from tesearch.programs.export import iter_programs

    trace = tmp_path / "trace.json"
    programs = tmp_path / "ring-6.jsonl"
    assert run_cli("export", RESULTS / "ring-6.json", "-o", programs, "--quiet").exit_code == 0
    code, report = simulate_json(RESULTS / "ring-6.json", "--bytes", "64K", "--mpi-algorithms", "none",
                                 "--executor", executor, "--trace", trace)
    assert code == 0
    document = json.loads(trace.read_text())
    assert trace_problems(document) == []
    slices = [e for e in document["traceEvents"] if e["ph"] == "X"]
    seen = [(e["args"]["origin"], e["args"]["destination"], e["args"]["step"], e["args"]["from"], e["args"]["to"])
            for e in slices]
    expected = [(int(o), int(d), int(step), p.rank, int(n))
                for p in iter_programs(programs) for step, _, n, o, d in p.sends.tolist()]
    assert sorted(seen) == sorted(expected) and len(set(seen)) == len(seen)  # every hop, once
    by_message = {}
    for e in slices:
        by_message.setdefault((e["args"]["origin"], e["args"]["destination"]), []).append(e)
    for hops in by_message.values():
        hops.sort(key=lambda e: e["args"]["hop"])
        assert [e["args"]["step"] for e in hops] == sorted(e["args"]["step"] for e in hops)
        for before, after in zip(hops, hops[1:]):  # a hop leaves only after the one before it arrived
            assert after["ts"] >= before["ts"] + before["dur"] - 1e-6
    assert document["otherData"]["executor"] == executor


def test_a_link_carrying_more_hops_than_a_frame_holds_is_a_fault(simgrid, tmp_path):
    """Rank 5 of hypercube-4 sends all its 15 own blocks at step 0 over one link (a frame holds 2 x 4 + 2 hops)."""
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
    code, report = simulate_json(RESULTS / "hypercube-4.json", "--programs", path, "--bytes", "8",
                                 "--mpi-algorithms", "none")
    assert code == 1 and not report["check"]["ok"]
    overloaded = [f for f in report["check"]["faults"] if f["kind"] == "link overloaded"]
    assert overloaded and all((f["rank"], f["step"]) == (BROKEN_RANK, 0) for f in overloaded)
    assert len(overloaded) == len(own) - 10 and "more than 10 hops" in overloaded[0]["detail"]


def test_budget_spent_leaves_the_rest_not_run_with_the_reason(simgrid):
    """--budget bounds the timed runs after the check run; what it leaves out is reported, never dropped."""
    code, report = simulate_json("ring-6", "--bytes", "8", "--mpi-algorithms", "ring,pair", "--executor", "step",
                                 "--budget", "0.5")
    assert code == 0 and report["check"]["ok"]
    runs = report["sizes"][0]["runs"]
    assert [r["contender"] for r in runs] == ["table (step)", "alltoall:ring", "alltoall:pair"]
    assert all(r["status"] == "not run" and "--budget of 0.5 s" in r["reason"] for r in runs), runs


def test_a_network_spec_takes_its_committed_table():
    from tesearch.cli.simulating import committed_table
    from tesearch.errors import OptionError

    assert committed_table("torus-4x4x8:twisted") == RESULTS / "twisted" / "torus-4x4x8-twisted.json"
    assert committed_table("hypercube-7") == RESULTS / "hypercube-7.json"
    assert committed_table("star-7") == RESULTS / "frontier" / "star-7.json"
    with pytest.raises(OptionError, match="no committed table for ring-97"):
        committed_table("ring-97")


@pytest.mark.slow  # about 30 s on a busy machine (hypercube-7's programs first); the fast twin is the next test
@pytest.mark.parametrize("signal_name,code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_interrupt_kills_the_simgrid_run(simgrid, tmp_path, signal_name, code):
    """A long MPI_Alltoall simulation (basic_linear, 128 ranks, 64 KiB: minutes) is stopped with its process group."""
    import signal
    import subprocess
    import sys
    import time

    from tesearch.simulate.smpi import _session_members

    trace = tmp_path / "trace.json"
    process = subprocess.Popen([sys.executable, "-m", "tesearch.entry", "simulate", str(RESULTS / "hypercube-7.json"),
                                "--bytes", "64K", "--executor", "step", "--mpi-algorithms", "basic_linear",
                                "--trace", str(trace), "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, PYTHONPATH=str(ROOT)))

    def alltoall_session() -> int | None:
        """The session of the smpirun this command started for basic_linear (its leader is our child)."""
        for entry in os.listdir("/proc"):
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    command = fh.read().split(b"\0")
                with open(f"/proc/{entry}/stat") as fh:
                    session = int(fh.read().rsplit(")", 1)[1].split()[3])
                if b"--cfg=smpi/alltoall:basic_linear" in command:
                    with open(f"/proc/{session}/stat") as fh:
                        if int(fh.read().rsplit(")", 1)[1].split()[1]) == process.pid:
                            return session
            except (OSError, ValueError, IndexError):
                continue
        return None

    session = None
    try:
        deadline = time.monotonic() + 120
        while session is None and time.monotonic() < deadline and process.poll() is None:
            session = alltoall_session()
            time.sleep(0.1)
        assert session is not None, "no MPI_Alltoall simulation was started"
        time.sleep(0.5)
        assert _session_members(session), "the simulation ended before the signal: the test proves nothing"
        process.send_signal(getattr(signal, signal_name))
        _, stderr = process.communicate(timeout=30)
        assert process.returncode == code, stderr
        assert stderr.strip().startswith("tesearch: ") and len(stderr.strip().splitlines()) == 1
        assert not _session_members(session)  # the whole SimGrid group is gone, the simulator included
        assert not trace.exists()  # nothing half-written
    finally:  # whatever failed, leave nothing running
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in _session_members(session) if session is not None else ():
            os.kill(pid, signal.SIGKILL)


def test_a_run_past_its_budget_is_killed_with_its_process_group(simgrid, tmp_path):
    """run_smpirun stops a long simulation (basic_linear, 128 ranks, 64 KiB: minutes) at its budget, simulator included."""
    import time

    from tesearch.simulate import smpi
    from tesearch.simulate.platform import hostfile

    numbering = rank_numbering(network_from_spec("hypercube-7"))
    (tmp_path / "platform.xml").write_text(platform_xml(numbering, bandwidth_bps=1e10, latency_s=1e-6))
    (tmp_path / "hostfile").write_text(hostfile(numbering.size))
    command = [smpi.find_tool("smpirun"), "-no-privatize", "-platform", "platform.xml", "-hostfile", "hostfile",
               "-np", "128", "--cfg=smpi/alltoall:basic_linear"] + [f"--cfg={c}" for c in smpi.BASE_CONFIGURATION] + \
        [str(smpi.executor_binary()), "alltoall", str(tmp_path), "65536", "0", "0", "1"]
    started = time.monotonic()
    finished = smpi.run_smpirun(command, work=tmp_path, timeout_s=1.5, max_memory=None)
    assert finished.timed_out and finished.status is None
    assert time.monotonic() - started < 1.5 + 2 * smpi.STOP_GRACE_S + 2
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


# ------------------------------------------------------------------ the combined executor

def _schedule(name):
    from tesearch.programs.schedule import compile_schedule
    from tesearch.table import read_table

    return compile_schedule(read_table(RESULTS / name))


def test_one_column_windows_are_the_tables_own_steps_and_wide_ones_the_hop_order():
    from tesearch.simulate.combine import check_superstep_map, superstep_map

    schedule = _schedule("hypercube-4.json")
    table, letter_index = schedule.table, schedule.graph.letter_index
    own = superstep_map(schedule, 1)
    wide = superstep_map(schedule, table.T)
    for placement in table.placements:
        for j, name in enumerate(placement.word):
            cell = (placement.column + j, letter_index[name])
            assert own.cells[cell] == placement.column + j  # K = 1: the table's column
            assert wide.cells[cell] == j  # K >= T: the j-th hop of every path in superstep j
    assert own.supersteps == table.T and own.bundle_sum == table.T and own.largest_bundle == 1
    assert wide.supersteps == max(len(p.word) for p in table.placements)
    for combine in (1, 2, 3, 5, table.T):
        mapping = superstep_map(schedule, combine)
        check_superstep_map(schedule, mapping)
        for placement in table.placements:  # a hop never leaves before its window
            for j, name in enumerate(placement.word):
                assert mapping.cells[placement.column + j, letter_index[name]] >= (placement.column + j) // combine


@pytest.mark.parametrize("name", ["hypercube-4.json", "torus-4x4.json", "star-4.json"])
def test_balanced_supersteps_follow_every_path_and_respect_the_floor(name):
    from tesearch.simulate.combine import balanced_map, bundle_floor, check_superstep_map

    schedule = _schedule(name)
    mapping = balanced_map(schedule)
    check_superstep_map(schedule, mapping)  # strictly increasing along every path, blanks stay blank
    assert mapping.supersteps == max(len(p.word) for p in schedule.table.placements)
    floor = bundle_floor(schedule)
    assert floor <= mapping.bundle_sum <= schedule.table.T  # never worse than the table's own steps here
    per_superstep = [max(int((mapping.cells[:, letter] == s).sum()) for letter in range(len(schedule.letters)))
                     for s in range(mapping.supersteps)]
    assert sum(per_superstep) == mapping.bundle_sum and max(per_superstep) == mapping.largest_bundle


def test_a_superstep_map_that_sends_a_block_before_it_arrives_is_refused():
    from tesearch.simulate.combine import check_superstep_map, superstep_map

    schedule = _schedule("hypercube-3.json")
    mapping = superstep_map(schedule, 1)
    placement = next(p for p in schedule.table.placements if len(p.word) >= 2)
    letter_index = schedule.graph.letter_index
    mapping.cells[placement.column + 1, letter_index[placement.word[1]]] = \
        mapping.cells[placement.column, letter_index[placement.word[0]]]
    with pytest.raises(ValueError, match=f"row {placement.row}, column {placement.column} has hop 1"):
        check_superstep_map(schedule, mapping)


def _combined_workspace(tmp_path, name, sizes, rules):
    from tesearch.simulate import study

    schedule = _schedule(name)
    setup = study.Setup(sizes=sizes, bandwidth_bps=1e10, latency_s=1e-6, executors=(study.Executor.COMBINED,),
                        combine=rules, mpi_algorithms=(), run_timeout_s=120)
    return schedule, setup, study.prepare(schedule, setup, tmp_path)


def test_combined_with_one_column_windows_times_exactly_as_the_step_executor(simgrid, tmp_path):
    """The combined executor under the K = 1 map sends what the step executor sends, when it sends it."""
    from tesearch.simulate import study

    _, setup, space = _combined_workspace(tmp_path, "hypercube-3.json", (8, 65536),
                                           (SuperstepRule(1), SuperstepRule()))
    step = study.Contender("table (step)", "table", "step")
    own, balanced = study.table_contenders((study.Executor.COMBINED,), setup.combine)
    for size in setup.sizes:
        checked = size == 8
        a = study.run_one(space, step, size, checked=checked, setup=setup)
        b = study.run_one(space, own, size, checked=checked, setup=setup)
        c = study.run_one(space, balanced, size, checked=checked, setup=setup)
        assert a["status"] == b["status"] == c["status"] == "ok", (a, b, c)
        assert b["seconds"] == pytest.approx(a["seconds"], rel=1e-9)
        assert c["seconds"] < a["seconds"]  # 3 supersteps of bundles against 4 steps
        assert a["mismatches"] == b["mismatches"] == c["mismatches"] == 0 and b["checked"] == checked


def test_a_combined_run_that_forwards_a_block_too_early_is_caught_by_the_content_check(simgrid, tmp_path):
    """The C executor compares every delivered block with its origin's: a map (written past the Python check)
    that forwards a block in the superstep it arrives sends a block that is not there yet."""
    from tesearch.simulate import study
    from tesearch.simulate.combine import combine_file_name, superstep_map

    schedule, setup, space = _combined_workspace(tmp_path, "hypercube-3.json", (8,), (SuperstepRule(1),))
    mapping = superstep_map(schedule, 1)
    placement = next(p for p in schedule.table.placements if len(p.word) >= 2)
    letter_index = schedule.graph.letter_index
    mapping.cells[placement.column + 1, letter_index[placement.word[1]]] = \
        mapping.cells[placement.column, letter_index[placement.word[0]]]
    (tmp_path / combine_file_name(1)).write_text(mapping.file_text())
    contender, = study.table_contenders((study.Executor.COMBINED,), setup.combine)
    record = study.run_one(space, contender, 8, checked=True, setup=setup)
    assert record["status"] == "ok" and record["checked"]
    assert record["mismatches"] == schedule.ranks  # every rank gets one block that was not there to forward
    assert all(f["kind"] == "block differs" for f in record["faults"])


@pytest.mark.parametrize("option,value,message", [("--executor", "sideways", "--executor: 'sideways'"),
                                                   ("--combine", "0", "--combine: '0'"),
                                                   ("--combine", "balanced,x", "--combine: 'x'")])
def test_bad_executor_or_combine_is_one_line_and_exit_2(option, value, message):
    result = run_cli("simulate", RESULTS / "ring-6.json", option, value, "--bytes", "8")
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
