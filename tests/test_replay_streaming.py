"""The streaming replay engine (no N x N memory) against the N x N vectorised engine.

Both engines replay real tables from results/ and mutated copies of them (two letters swapped, a word
moved by one column, a word dropped, a word duplicated); they must give the same verdict, the same
violation kinds and counts, the same totals and the same per-step link use.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tesearch.checking.replay as replay_module
from tesearch.running.errors import TesearchError
from tesearch.checking.replay import ViolationKind as K, input_from_json, replay

RESULTS = Path(__file__).resolve().parent.parent / "results"
TABLES = {
    "star-5": RESULTS / "star-5.json",
    "torus-8x8": RESULTS / "torus-8x8.json",
    "hypercube-10": RESULTS / "frontier" / "hypercube-10.json",
    "pancake-5": RESULTS / "pancake-5.json",
    "star-4 odd": RESULTS / "star-4-odd.json",
}
FIELDS = ("ok", "violation_counts", "completion_time", "transmissions", "expected_transmissions", "max_buffer",
          "delivered", "target_pairs", "nodes", "links", "messages", "claimed_T", "exchange")


def load(name: str) -> dict:
    return json.loads(TABLES[name].read_text())


def both(data: dict, model: str = "all-port"):
    inp = input_from_json(json.loads(json.dumps(data)))
    vec, stream = replay(inp, model, engine="vectorised"), replay(inp, model, engine="streaming")
    assert (vec.engine, stream.engine) == ("vectorised", "streaming")
    for attr in FIELDS:
        assert getattr(stream, attr) == getattr(vec, attr), attr
    assert (stream.link_use_per_step == vec.link_use_per_step).all()
    assert stream.kinds == vec.kinds
    # the details (node, step, link, message) are listed alike
    assert [str(v) for v in stream.violations] == [str(v) for v in vec.violations]
    return vec, stream


def _longest(data: dict) -> int:
    return max(range(len(data["placements"])), key=lambda j: (len(data["placements"][j][2]), -j))


def swap_letters(data: dict) -> dict:
    """Swap two neighbouring, different letters inside one word."""
    out = json.loads(json.dumps(data))
    for _, _, w in out["placements"]:
        for i in range(len(w) - 1):
            if w[i] != w[i + 1]:
                w[i], w[i + 1] = w[i + 1], w[i]
                return out
    raise AssertionError("no word with two different letters")


def move_word(data: dict) -> dict:
    out = json.loads(json.dumps(data))
    out["placements"][_longest(out)][1] += 1
    return out


def drop_word(data: dict) -> dict:
    out = json.loads(json.dumps(data))
    del out["placements"][len(out["placements"]) // 2]
    return out


def duplicate_word(data: dict) -> dict:
    """A second copy of a word, after the table in row 0 (the pairs it serves are then served twice)."""
    out = json.loads(json.dumps(data))
    _, _, w = out["placements"][0]
    out["placements"].append([0, out["T"], list(w)])
    out["T"] += len(w)
    return out


def duplicate_in_place(data: dict) -> dict:
    """A copy of a word in the same columns of another row: links clash and pairs are served twice."""
    out = json.loads(json.dumps(data))
    r, c, w = out["placements"][0]
    out["placements"].append([(r + 1) % len(out["generators"]), c, list(w)])
    return out


def shorten_T(data: dict) -> dict:
    out = json.loads(json.dumps(data))
    out["T"] -= 1
    return out


@pytest.mark.parametrize("name", list(TABLES))
def test_good_tables_agree(name):
    vec, stream = both(load(name))
    assert stream.ok and stream.buffer_free
    assert stream.transmissions == stream.expected_transmissions
    assert stream.delivered == stream.target_pairs


MUTATIONS = {
    "swap letters": swap_letters,
    "move word": move_word,
    "drop word": drop_word,
    "duplicate word": duplicate_word,
    "duplicate in place": duplicate_in_place,
    "T too small": shorten_T,
}


@pytest.mark.parametrize("mutation", list(MUTATIONS))
@pytest.mark.parametrize("name", ["star-5", "torus-8x8", "hypercube-10", "star-4 odd"])
def test_mutated_tables_agree(name, mutation):
    vec, stream = both(MUTATIONS[mutation](load(name)))
    assert not stream.ok
    expected = {
        "drop word": {K.MISSING},
        "duplicate word": {K.DUPLICATE},
        "T too small": {K.LATE},
    }.get(mutation)
    if expected is not None:
        assert expected <= stream.kinds
    if mutation == "duplicate in place":
        assert {K.LINK_CAPACITY, K.DUPLICATE} <= stream.kinds
    if mutation == "move word":
        assert K.LANE_OVERLAP in stream.kinds or K.LINK_CAPACITY in stream.kinds or K.LATE in stream.kinds


def test_single_port_agrees():
    for name in ("star-5", "torus-8x8"):
        vec, stream = both(load(name), "single-port")
        assert not stream.ok and {K.SEND_PORT, K.RECEIVE_PORT} <= stream.kinds


def test_auto_engine_switches_above_the_vectorised_limit(monkeypatch):
    data = load("torus-8x8")
    assert replay(input_from_json(data)).engine == "vectorised"
    monkeypatch.setattr(replay_module, "MAX_VECTORISED_NODES", 32)
    report = replay(input_from_json(data))
    assert report.engine == "streaming" and report.ok
    with pytest.raises(TesearchError, match="streaming engine"):
        replay(input_from_json(data), engine="vectorised")
    with pytest.raises(TesearchError, match="unknown replay engine"):
        replay(input_from_json(data), engine="fast")


def test_node_limit_still_applies():
    data = load("torus-8x8")
    inp = input_from_json(data)
    with pytest.raises(TesearchError, match="more than 10 nodes"):
        replay_module.build_network(inp.letters, inp.generators, max_nodes=10)
    assert replay_module.MAX_REPLAY_NODES >= 200_000
