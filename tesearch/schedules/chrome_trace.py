"""Chrome trace-event JSON for schedules: what Perfetto (ui.perfetto.dev) and chrome://tracing open.

One writer for every trace tesearch makes: ``tesearch export --format chrome-trace`` (hops at
the table's step times) and ``tesearch simulate --trace`` (hops at the times SimGrid simulated).
A caller describes each hop as a :class:`HopSlice`: the track it runs on (a process and a thread
name, e.g. ``("node 3", "letter b")`` or ``("rank 3", "send")``), its start and duration in
microseconds, a name, its arguments (origin, destination, step...), and the message it carries.
:func:`chrome_trace` turns them into the trace-event document:

* one ``M`` (metadata) event per process and per thread, naming the tracks;
* one ``X`` (complete) event per hop;
* flow events that follow each message hop by hop: for consecutive hops ``i`` and ``i + 1`` of
  one message, an ``s`` event inside hop ``i`` and an ``f`` event (``bp: "e"``, bound to the
  enclosing slice) inside hop ``i + 1``, both with one flow id of their own.

:func:`trace_problems` checks a document against the format (the rules the viewers rely on) and
returns what is wrong, so a test or a user can check a trace tesearch did not make.

Format reference: the Trace Event Format document (Google), "Complete events", "Flow events",
"Metadata events".  Timestamps are in microseconds.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Mapping

#: fields every duration slice must carry for the viewers
REQUIRED_SLICE_FIELDS = ("name", "ph", "ts", "dur", "pid", "tid")
#: the flow category tesearch uses
FLOW_CATEGORY = "message"


@dataclass(frozen=True)
class HopSlice:
    """One hop of one message on one track.

    ``message`` identifies the message (any hashable); ``hop`` is its index along the message's
    path (0 for the first hop).  Hops of one message are chained by flow arrows in hop order.
    """

    process: str
    thread: str
    start_us: float
    duration_us: float
    name: str
    message: object
    hop: int
    args: Mapping[str, object] = field(default_factory=dict)


def chrome_trace(slices: Iterable[HopSlice], *, metadata: Mapping[str, object] | None = None) -> dict:
    """The trace-event document (a JSON-ready dict) for ``slices``; see the module doc."""
    hops = list(slices)
    pids: dict[str, int] = {}
    tids: dict[tuple[str, str], int] = {}
    for h in sorted(hops, key=lambda s: (s.process, s.thread)):
        pids.setdefault(h.process, len(pids) + 1)
        tids.setdefault((h.process, h.thread), len(tids) + 1)
    events: list[dict] = []
    for process, pid in pids.items():
        events.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": process}})
        events.append({"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0,
                       "args": {"sort_index": pid}})
    for (process, thread), tid in tids.items():
        events.append({"name": "thread_name", "ph": "M", "pid": pids[process], "tid": tid,
                       "args": {"name": thread}})
    ordered = sorted(hops, key=lambda s: (s.start_us, pids[s.process], tids[(s.process, s.thread)]))
    for h in ordered:
        for value in (h.start_us, h.duration_us):
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"hop {h.name!r}: times must be finite and non-negative, got {value}")
        args = dict(h.args)
        args.setdefault("hop", h.hop)
        events.append({"name": h.name, "cat": "hop", "ph": "X", "ts": h.start_us, "dur": h.duration_us,
                       "pid": pids[h.process], "tid": tids[(h.process, h.thread)], "args": args})
    by_message: dict[object, list[HopSlice]] = defaultdict(list)
    for h in hops:
        by_message[h.message].append(h)
    flow_id = 0
    for message_hops in by_message.values():
        message_hops.sort(key=lambda s: s.hop)
        for a, b in zip(message_hops, message_hops[1:]):
            flow_id += 1
            # the start sits inside hop a (its last instant), the finish binds to hop b's slice
            events.append({"name": "message", "cat": FLOW_CATEGORY, "ph": "s", "id": flow_id,
                           "ts": a.start_us + a.duration_us * 0.5, "pid": pids[a.process],
                           "tid": tids[(a.process, a.thread)]})
            events.append({"name": "message", "cat": FLOW_CATEGORY, "ph": "f", "bp": "e", "id": flow_id,
                           "ts": b.start_us + b.duration_us * 0.5, "pid": pids[b.process],
                           "tid": tids[(b.process, b.thread)]})
    document: dict = {"traceEvents": events, "displayTimeUnit": "ns"}
    if metadata:
        document["otherData"] = {str(k): v for k, v in metadata.items()}
    return document


def trace_problems(document: object) -> list[str]:
    """What is wrong with a trace-event document (empty when it is well formed).

    Checks: a ``traceEvents`` list; every ``X`` slice has the required fields with numbers for
    ``ts``/``dur`` (non-negative) and is in time order within its track (``pid``, ``tid``);
    slices of one track do not overlap; every flow start ``s`` has exactly one finish ``f`` with
    the same id, not earlier than it; each flow event lies inside a slice of its own track.
    """
    problems: list[str] = []
    if not isinstance(document, dict) or not isinstance(document.get("traceEvents"), list):
        return ["no traceEvents list"]
    slices: dict[tuple, list[tuple[float, float]]] = defaultdict(list)
    flows: dict[object, dict[str, list[dict]]] = defaultdict(lambda: {"s": [], "f": []})
    for index, event in enumerate(document["traceEvents"]):
        if not isinstance(event, dict) or "ph" not in event:
            problems.append(f"event {index}: not an object with 'ph'")
            continue
        ph = event["ph"]
        if ph == "X":
            missing = [f for f in REQUIRED_SLICE_FIELDS if f not in event]
            if missing:
                problems.append(f"event {index}: slice without {', '.join(missing)}")
                continue
            ts, dur = event["ts"], event["dur"]
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in (ts, dur)):
                problems.append(f"event {index}: ts and dur must be non-negative numbers")
                continue
            slices[(event["pid"], event["tid"])].append((ts, ts + dur))
        elif ph in ("s", "f"):
            flows[event.get("id")][ph].append(event)
    for track, spans in slices.items():
        for (a0, a1), (b0, _) in zip(spans, spans[1:]):
            if b0 < a0:
                problems.append(f"track pid={track[0]} tid={track[1]}: slices out of time order at ts={b0}")
                break
            if b0 < a1 - 1e-9:
                problems.append(f"track pid={track[0]} tid={track[1]}: slices overlap at ts={b0}")
                break

    def inside(event: dict) -> bool:
        return any(t0 <= event.get("ts", -1) <= t1 for t0, t1 in slices.get((event.get("pid"), event.get("tid")), ()))

    for flow, ends in flows.items():
        if len(ends["s"]) != 1 or len(ends["f"]) != 1:
            problems.append(f"flow {flow}: {len(ends['s'])} starts and {len(ends['f'])} finishes (want 1 and 1)")
            continue
        start, finish = ends["s"][0], ends["f"][0]
        if finish.get("ts", -1) < start.get("ts", 0):
            problems.append(f"flow {flow}: finishes before it starts")
        for end in (start, finish):
            if not inside(end):
                problems.append(f"flow {flow}: its {end['ph']} event lies in no slice of its track")
    return problems
