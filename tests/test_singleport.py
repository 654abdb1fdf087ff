"""Seed 000's FIFO algorithm and seed 001's Algorithm A2, checked by the independent replay."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tesearch.cli import main
from tesearch.running.errors import SpecError
from tesearch.networks.groups import cayley_graph
from tesearch.networks.families import network_from_spec
from tesearch.checking.replay import PortModel, ViolationKind as K, input_from_json, replay, replay_data, replay_reference
from tesearch.schedules.singleport import FirstLetter, a2_schedule, fifo_schedule, run_singleport

FIFO_NETWORKS = ["ring-6", "ring-7", "ring-8:cyclic", "torus-3x4", "torus-4x4", "hypercube-3", "hypercube-5",
                 "star-4", "pancake-4", "bubblesort-4", "star-5"]


@pytest.mark.parametrize("spec", FIFO_NETWORKS)
def test_fifo_finishes_in_exactly_status_steps(spec):
    run = run_singleport(network_from_spec(spec), "fifo")
    report = run.replay
    assert report.ok, report.summary()
    assert report.model is PortModel.SINGLE_PORT
    # the status by the replay's own BFS: n * status link transmissions are needed
    status = report.expected_transmissions // report.nodes
    assert report.expected_transmissions == status * report.nodes
    assert run.time == report.completion_time == status == run.status_bound
    # every node busy at every step (seed 000, condition 4), every hop closer (condition 5)
    assert report.transmissions == report.expected_transmissions
    assert (report.link_use_per_step == report.nodes).all()


@pytest.mark.parametrize("spec", ["star-4", "torus-3x4", "hypercube-4"])
def test_fifo_node_one_sends_exactly_once_per_step(spec):
    cg = cayley_graph(network_from_spec(spec))
    sched = fifo_schedule(cg)
    # at step t node 1 sends the translate of exactly one hop of the identity's messages
    hop_steps = sorted(t for m in sched.messages for t in m.times)
    assert hop_steps == list(range(sched.time))
    assert {m.destination for m in sched.messages} == set(range(1, cg.order))
    for m in sched.messages:
        assert cg.element_of(m.word) == m.destination and len(m.word) == cg.dist[m.destination]


def test_fifo_hypercube_follows_ecube_routes():
    cg = cayley_graph(network_from_spec("hypercube-5"))
    sched = fifo_schedule(cg)
    assert dict(sched.notes)["route"] == FirstLetter.HIGHEST_LETTER.value
    for m in sched.messages:  # Figure 2: the leftmost non-zero bit first, so dimensions strictly decrease
        assert list(m.word) == sorted(m.word, reverse=True) and len(set(m.word)) == len(m.word)
    low = fifo_schedule(cg, FirstLetter.LOWEST_LETTER)
    assert all(list(m.word) == sorted(m.word) for m in low.messages)
    assert replay_data(low.to_json(), "single-port").ok


def test_fifo_schedule_breaks_when_two_messages_leave_at_once():
    cg = cayley_graph(network_from_spec("star-4"))
    data = fifo_schedule(cg).to_json()
    single = next(m for m in data["messages"] if len(m[0]) == 1)
    other = next(m for m in data["messages"] if m[1][0] != single[1][0])
    single[1][0] = other[1][0]  # two messages now leave every node in one step
    report = replay_data(data, "single-port")
    assert not report.ok and K.SEND_PORT in report.kinds
    assert report.violation_counts == replay_reference(input_from_json(data), "single-port").violation_counts


A2_NETWORKS = ["ring-6", "torus-3x4", "torus-4x8", "torus-3x5:cyclic", "torus-3x3x4", "hypercube-3", "hypercube-6"]


@pytest.mark.parametrize("spec", A2_NETWORKS)
def test_a2_matches_seed_001_theorem_2_and_the_status(spec):
    net = network_from_spec(spec)
    cg = cayley_graph(net)
    result = a2_schedule(cg)
    # Theorem 2 by hand, recursively from the factors' own statuses (FIFO is optimal on each factor)
    factor_graphs = [cayley_graph(f) for f in net.factors]
    expected, rest_order = factor_graphs[-1].status, factor_graphs[-1].order
    for f in reversed(factor_graphs[:-1]):
        expected = f.order * expected + rest_order * f.status
        rest_order *= f.order
    assert rest_order == cg.order
    assert result.theorem2_time == expected == result.corollary2_time
    assert result.schedule.time == expected == cg.status  # seed 001 Theorem 3: optimal
    report = replay_data(result.schedule.to_json(), "single-port")
    assert report.ok, report.summary()
    assert report.completion_time == expected
    assert report.transmissions == report.expected_transmissions
    if cg.order > 2:
        assert report.max_buffer > 0  # A2 holds messages between its rounds


def test_a2_two_factors_formula_n1_tb_plus_n2_ta():
    net = network_from_spec("torus-4x6")
    a, b = (cayley_graph(f) for f in net.factors)
    result = a2_schedule(cayley_graph(net))
    assert result.factor_orders == (4, 6) and result.factor_times == (a.status, b.status)
    assert result.schedule.time == 4 * b.status + 6 * a.status


def test_a2_agrees_with_reference_replay():
    data = a2_schedule(cayley_graph(network_from_spec("torus-3x4"))).schedule.to_json()
    inp = input_from_json(data)
    fast, slow = replay(inp, "single-port"), replay_reference(inp, "single-port")
    assert fast.ok and slow.ok
    assert (fast.completion_time, fast.max_buffer, fast.transmissions) == \
        (slow.completion_time, slow.max_buffer, slow.transmissions)


def test_a2_needs_a_product_network():
    with pytest.raises(SpecError):
        a2_schedule(cayley_graph(network_from_spec("star-4")))


def test_cli_singleport(tmp_path):
    out = tmp_path / "s.json"
    result = CliRunner().invoke(main, ["singleport", "torus-3x4", "--algorithm", "a2", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["time"] == data["status_bound"] == data["formula_time"] and data["replay"]["ok"]
    saved = json.loads(out.read_text())
    assert saved["format"] == "tesearch-schedule" and saved["model"] == "single-port"
    again = CliRunner().invoke(main, ["replay", str(out)])  # the file's model key: single-port
    assert again.exit_code == 0 and "single-port" in again.output
    text = CliRunner().invoke(main, ["singleport", "pancake-4"])
    assert text.exit_code == 0 and "status bound 60" in text.output and "REPLAY OK" in text.output
    bad = CliRunner().invoke(main, ["singleport", "star-4", "--algorithm", "a2"])
    assert bad.exit_code == 2


def test_a_network_over_the_replay_limit_is_refused_from_its_order_before_anything_is_built():
    """singleport star-9 built its 362880-element group (14.6 s) before the replay refused it. Now the order the
    spec gives is checked first: the group's construction is made to hang here, and the refusal comes anyway."""
    from tesearch.running.limits import STALL_PHASE_VARIABLE
    from tesearch.checking.replay import MAX_REPLAY_NODES

    result = CliRunner().invoke(main, ["singleport", "star-9", "--timeout", "30", "--quiet"],
                                env={STALL_PHASE_VARIABLE: "build group"})
    assert result.exit_code == 2, result.output
    assert f"the network has 362880 nodes, more than the replay's {MAX_REPLAY_NODES}" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
