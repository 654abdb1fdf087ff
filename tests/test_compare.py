"""tesearch.baselines and ``tesearch compare``: hand-checked counts, invariants, the slow reference, the CLI."""

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from tesearch.baselines import Engine, InjectionOrder, Route, run_baseline, schedule_json
from tesearch.baselines.reference import simulate_reference
from tesearch.cli import main
from tesearch.schedules.compare import SEED000_ROW
from tesearch.networks.families import network_from_spec
from tesearch.checking.replay import PortModel, replay_data

SMALL = ["ring-6", "ring-6:cyclic", "ring-7", "star-4", "hypercube-2", "hypercube-3", "torus-4x4", "torus-3x4",
         "pancake-4", "bubblesort-4"]


def cases():
    for spec in SMALL:
        net = network_from_spec(spec)
        for route in Route:
            if route is Route.DIMENSION_ORDERED and not net.factors:
                continue
            for order in InjectionOrder:
                yield pytest.param(spec, route, order, id=f"{spec}-{route.value}-{order.value}")


def counting_bound(run):
    """ceil(status / degree), from the reference's own distances."""
    status = sum(run.distance.values())
    return -(-status // len(run.letters))


# ------------------------------------------------------------------ hand-checked counts

@pytest.mark.parametrize("n", [5, 6, 7, 8, 9])
def test_cyclic_ring_shortest_path_takes_the_letter_a_count(n):
    """Cyclic n-ring, k = n // 2: the words are a^j (j <= k, the antipode goes the a way) and a'^j (j < k).

    The identity's a-queue receives back every a-hop it sends until that message is delivered, so it
    never idles: it sends 1 + 2 + ... + k = k(k+1)/2 a-hops, one per step, and the a'-queue fewer.
    """
    spec = f"ring-{n}" if n % 2 else f"ring-{n}:cyclic"
    k = n // 2
    for order in InjectionOrder:
        run = run_baseline(network_from_spec(spec), Route.SHORTEST_PATH, order)
        assert run.stats.steps == k * (k + 1) // 2
    # odd rings: both letters carry k(k+1)/2 hops, so this meets ceil(status / 2) and uses every link every step
    if n % 2:
        assert run.stats.utilisation == 1.0


def test_hypercube_2_by_hand():
    """Words a, b, ab (e-cube: a first).  Farthest first, the a-link sends ab then a while b sends b then
    forwards ab: 2 steps, nothing waits.  Nearest first, a sends a then ab, which b forwards at step 2: 3 steps."""
    net = network_from_spec("hypercube-2")
    for route in Route:
        far = run_baseline(net, route, InjectionOrder.FARTHEST_FIRST)
        near = run_baseline(net, route, InjectionOrder.NEAREST_FIRST)
        assert (far.stats.steps, far.stats.peak_buffer) == (2, 0)
        assert (near.stats.steps, near.stats.peak_buffer) == (3, 0)
        assert near.timed.times[3] == (1, 2)  # element 3 = ab


def test_hypercube_3_e_cube_words_and_steps():
    """e-cube corrects dimensions a, b, c in order, which is also the first shortest word: the routes agree.
    Every letter occurs in 4 of the 7 words (4 = status 12 / 3), and farthest first meets that bound."""
    net = network_from_spec("hypercube-3")
    direct = run_baseline(net, Route.SHORTEST_PATH)
    ecube = run_baseline(net, Route.DIMENSION_ORDERED)
    assert direct.timed.words == ecube.timed.words
    assert all(list(w) == sorted(w) for w in ecube.timed.words)
    assert Counter(k for w in ecube.timed.words for k in w) == {0: 4, 1: 4, 2: 4}
    assert ecube.stats.steps == 4 and ecube.stats.utilisation == 1.0


def test_dimension_ordered_corrects_axes_in_order():
    net = network_from_spec("torus-4x3")
    run = run_baseline(net, Route.DIMENSION_ORDERED)
    axis = {"a": 0, "A": 0, "b": 1, "b'": 1}
    for word in run.timed.words:
        axes = [axis[run.table.letters[k]] for k in word]
        assert axes == sorted(axes)
    # the antipode of the dihedral 4-ring goes a A (first letter first)
    words = {tuple(run.table.letters[k] for k in w) for w in run.timed.words}
    assert ("a", "A") in words and ("A", "a") not in words


# ------------------------------------------------------------------ invariants and the reference

@pytest.mark.parametrize("spec,route,order", list(cases()))
def test_fast_engine_agrees_with_the_reference_and_invariants_hold(spec, route, order):
    net = network_from_spec(spec)
    fast = run_baseline(net, route, order)
    ref = simulate_reference(net, dimension_ordered=route is Route.DIMENSION_ORDERED,
                             farthest_first=order is InjectionOrder.FARTHEST_FIRST)
    # same numbers
    assert (fast.stats.steps, fast.stats.peak_buffer, fast.stats.transmissions) == \
           (ref.steps, ref.peak_buffer, ref.transmissions)
    # the identity's messages took the same hops at the same steps in both
    identity = ref.nodes[0]
    letters = fast.table.letters
    for h in range(1, fast.table.order):
        dest = tuple(int(x) for x in fast.table.elements[h])
        hops = ref.hops[(identity, dest)]
        assert [s for _, s, _ in hops] == [letters[k] for k in fast.timed.words[h]]
        assert [t for _, _, t in hops] == list(fast.timed.times[h])
    # every link carries at most one message per step
    use = Counter((node, s, t) for hops in ref.hops.values() for node, s, t in hops)
    assert max(use.values()) == 1
    # every ordered pair delivered once, along its route, which is a shortest path walked in step order
    n = len(ref.nodes)
    assert len(ref.hops) == n * (n - 1)
    for (source, dest), hops in ref.hops.items():
        relative = tuple(dest[source.index(j)] for j in range(len(source)))  # dest = source * relative
        node = source
        for (at, s, _), want in zip(hops, ref.routes[relative]):
            assert at == node and s == want
            node = tuple(ref.generators[s][i] for i in node)
        assert node == dest
        assert len(hops) == len(ref.routes[relative]) == ref.distance[relative]
        assert all(a[2] < b[2] for a, b in zip(hops, hops[1:]))
    assert ref.steps >= counting_bound(ref)


@pytest.mark.parametrize("spec,route,order", list(cases()) + [
    pytest.param("star-5", Route.SHORTEST_PATH, InjectionOrder.FARTHEST_FIRST, id="star-5"),
    pytest.param("torus-8x8", Route.DIMENSION_ORDERED, InjectionOrder.NEAREST_FIRST, id="torus-8x8"),
    pytest.param("hypercube-6", Route.DIMENSION_ORDERED, InjectionOrder.FARTHEST_FIRST, id="hypercube-6"),
    pytest.param("star-6", Route.SHORTEST_PATH, InjectionOrder.FARTHEST_FIRST, id="star-6", marks=pytest.mark.slow),
])
def test_all_node_engine_agrees_with_the_one_node_engine(spec, route, order):
    """No symmetry in the numpy engine: every node's queues, every message; same hop times for node 0."""
    net = network_from_spec(spec)
    one = run_baseline(net, route, order, Engine.ONE_NODE)
    every = run_baseline(net, route, order, Engine.ALL_NODES)
    assert every.stats == one.stats
    assert every.timed == one.timed


def test_all_node_engine_memory_check():
    from tesearch.running.errors import SizeLimitError
    from tesearch.running.limits import Limits, activated

    with activated(Limits(max_memory=20 << 20)), pytest.raises(SizeLimitError, match="all-node"):
        run_baseline(network_from_spec("star-6"), Route.SHORTEST_PATH, engine=Engine.ALL_NODES)


@pytest.mark.parametrize("spec", ["star-4", "torus-4x4", "hypercube-3", "ring-7"])
def test_the_independent_replay_accepts_the_baseline_schedules(spec):
    net = network_from_spec(spec)
    for route in Route:
        if route is Route.DIMENSION_ORDERED and not net.factors:
            continue
        run = run_baseline(net, route)
        report = replay_data(schedule_json(net, run), PortModel.ALL_PORT, engine="reference")
        assert report.ok, report.summary()
        assert report.completion_time == run.stats.steps
        assert report.max_buffer == run.stats.peak_buffer
        assert report.transmissions == run.stats.transmissions


@pytest.mark.parametrize("spec", ["ring-6", "star-4", "torus-3x4"])
def test_seed000_row_measures_what_the_replay_measures(spec):
    """Seed 000's schedule through schedule_stats: time = status, and the replay's own buffer count."""
    from tesearch.schedules.compare import seed000_row
    from tesearch.schedules.singleport import run_singleport

    net = network_from_spec(spec)
    row = seed000_row(net)
    single = run_singleport(net)
    assert single.ok
    assert row["steps"] == single.time == single.status_bound
    assert row["peak_buffer"] == single.replay.max_buffer
    assert row["utilisation"] == pytest.approx(1 / len(net.letters))


def test_seed000_ring_6_buffer_by_hand():
    """docs/schedule-format.md: on ring-6 node 1 sends aAa, Aa, aA, A, a at steps 0..4 and forwards at 5..8;
    during step 3 the copies of aAa, Aa and aA (first hops at 0, 1, 2) all wait at one node: 3."""
    from tesearch.schedules.compare import seed000_row

    assert seed000_row(network_from_spec("ring-6"))["peak_buffer"] == 3


def test_memory_limit_refuses_before_the_search():
    from tesearch.running.errors import SizeLimitError
    from tesearch.running.limits import Limits, activated

    with activated(Limits(max_memory=100_000)), pytest.raises(SizeLimitError, match="Cayley table"):
        run_baseline(network_from_spec("star-6"), Route.SHORTEST_PATH)


def test_dimension_ordered_needs_axes():
    from tesearch.running.errors import SpecError

    with pytest.raises(SpecError, match="no axes"):
        run_baseline(network_from_spec("star-4"), Route.DIMENSION_ORDERED)


def test_baselines_import_nothing_from_the_search_side():
    import ast
    import pathlib

    import tesearch.baselines as pkg

    forbidden = {"groups", "words", "bounds", "rotation", "solvers", "z3model", "search", "verify", "singleport", "z3", "sympy"}
    for path in pathlib.Path(pkg.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                parts = set(name.split("."))
                assert not (parts & forbidden), f"{path.name} imports {name}"


# ------------------------------------------------------------------ CLI

def run(*args):
    return CliRunner().invoke(main, list(args))


def test_compare_network_json():
    result = run("compare", "ring-7", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {r["schedule"]: r for r in data["rows"]}
    assert data["best_bound"] == 6 and data["T"] is None
    assert rows["shortest-path FIFO"]["steps"] == 6
    assert rows[SEED000_ROW]["steps"] == data["network_status"] == 12 and rows[SEED000_ROW]["model"] == "single-port"


def test_compare_table_text(tmp_path):
    result = run("compare", "results/star-4.json", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    table = next(line for line in lines if line.startswith("tesearch table"))
    assert " 0 " in table  # buffer-free
    assert "T = " in result.output and "n/a" in result.output  # star-4 has no axes


def test_compare_all_nodes_engine_same_numbers():
    one = json.loads(run("compare", "torus-3x4", "--json", "--quiet").stdout)
    every = json.loads(run("compare", "torus-3x4", "--engine", "all-nodes", "--json", "--quiet").stdout)
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("seconds", "engine")} for r in rows]  # noqa: E731
    assert strip(one["rows"]) == strip(every["rows"])


def test_compare_nearest_first_order():
    result = run("compare", "hypercube-2", "--order", "nearest-first", "--json", "--quiet")
    rows = {r["schedule"]: r for r in json.loads(result.stdout)["rows"]}
    assert rows["dimension-ordered FIFO"]["steps"] == 3


@pytest.mark.parametrize("target,fragment", [
    ("nosuch-5", "unknown family"),
    ("missing.json", "no such file"),
    ("results/star-4-odd.json", "total-exchange tables"),
    ("star-2", "star"),
])
def test_compare_bad_input_exit_2_one_line(target, fragment):
    result = run("compare", target, "--quiet")
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("tesearch:")
    assert fragment in result.output


def test_compare_order_limit_exit_2():
    result = run("compare", "star-8", "--max-order", "5040", "--quiet")
    assert result.exit_code == 2 and "limit" in result.output
