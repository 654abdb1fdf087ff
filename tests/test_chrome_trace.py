"""The shared Chrome trace-event writer: well-formed documents, and a checker that can disagree."""

import copy
import json

import pytest

from tesearch.schedules.chrome_trace import HopSlice, chrome_trace, trace_problems


def _two_messages():
    return [
        HopSlice("node 0", "letter a", 0.0, 1.0, "0->2 hop 1", message=(0, 2), hop=0, args={"origin": 0}),
        HopSlice("node 1", "letter a", 1.0, 1.0, "0->2 hop 2", message=(0, 2), hop=1, args={"origin": 0}),
        HopSlice("node 1", "letter b", 0.0, 1.0, "1->0 hop 1", message=(1, 0), hop=0),
    ]


def test_document_is_well_formed_and_complete():
    doc = chrome_trace(_two_messages(), metadata={"network": "ring-3"})
    assert trace_problems(doc) == []
    json.dumps(doc)  # JSON-ready
    slices = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    assert len(slices) == 3
    starts = [e for e in doc["traceEvents"] if e["ph"] == "s"]
    finishes = [e for e in doc["traceEvents"] if e["ph"] == "f"]
    assert len(starts) == len(finishes) == 1  # one message of two hops: one arrow
    names = {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names == {"letter a", "letter b"}
    assert doc["otherData"] == {"network": "ring-3"}


@pytest.mark.parametrize("mutation", ["drop_field", "unbound_flow", "out_of_order", "overlap", "negative"])
def test_checker_finds_each_fault(mutation):
    doc = chrome_trace(_two_messages())
    events = doc["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    if mutation == "drop_field":
        del slices[0]["dur"]
    elif mutation == "unbound_flow":
        events.remove(next(e for e in events if e["ph"] == "f"))
    elif mutation == "out_of_order":
        track = [e for e in slices if (e["pid"], e["tid"]) == (slices[0]["pid"], slices[0]["tid"])]
        extra = copy.deepcopy(track[0])
        extra["ts"] = track[0]["ts"] - 0.5 if track[0]["ts"] >= 0.5 else 0
        track[0]["ts"] += 5
        events.append(extra)
    elif mutation == "overlap":
        extra = copy.deepcopy(slices[0])
        extra["ts"] += 0.5
        events.append(extra)
    elif mutation == "negative":
        slices[0]["ts"] = -1
    assert trace_problems(doc) != []


def test_bad_times_are_refused():
    with pytest.raises(ValueError):
        chrome_trace([HopSlice("p", "t", float("nan"), 1.0, "x", message=1, hop=0)])
