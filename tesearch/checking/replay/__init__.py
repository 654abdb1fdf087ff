"""The independent whole-network simulator: every node, every message, every step.

A table (tesearch-table v1) or a timed schedule (tesearch-schedule v1, see
``docs/schedule-format.md``) is a claim about what a whole Cayley network does.
This module checks the claim by running it, sharing no code with the search or
the Theorem-1 verifier: it imports neither z3 nor sympy nor any tesearch module
that does (only the checking kernel, :mod:`tesearch.checking.kernel`, and the bottom layer).  It reads the JSON
through the kernel's loader, rebuilds the group from the generators alone by the kernel's
breadth-first search, computes distances by its own BFS (all pairs, or from the identity in the streaming
engine), and replays the locally defined algorithm (seed 003 Theorem 1, converse part):
at each step every node ``g`` sends its own messages whose words begin in that
column and forwards along the next letter what it received.  A schedule may
hold a message at an intermediate node (a buffer); the largest buffer is
reported.

Three engines do the same thing (:func:`replay` picks one, ``engine="auto"``
takes the vectorised one up to MAX_VECTORISED_NODES nodes and the streaming
one above, up to MAX_REPLAY_NODES):

- the vectorised engine: for every hop of every message of the identity, the
  positions of all N copies (one per source node) are one numpy array, moved
  by one gather through the successor table of the letter; link, port and
  buffer usage are stamped or counted over all nodes at once; distances and
  delivered pairs are N x N matrices.
- the streaming engine (:mod:`tesearch.checking.replay.streaming`, whose docstring says
  exactly what it checks and how): the same hop-by-hop simulation of all N
  copies with N x |S| memory, no N x N array: distances from the identity by
  one BFS (d(g, h) = d(1, g^-1 h)), the destination of every copy checked
  against source * element(word) by permutation arithmetic, delivered pairs
  counted per group element.  It replays star-8 (40320 nodes) and
  hypercube-16 (65536 nodes).
- :func:`replay_reference` is a plain per-message, per-node Python loop over
  the networkx graph, with networkx BFS distances.  It is the slow reference
  the fast engine is compared with (small inputs only).

Checks (each violation carries the step, node, link and message where it has
them): link capacity (all-port: a directed link carries at most one message per
step; single-port: a node sends at most one and receives at most one per step);
every ordered pair (u, v), u != v, of targets delivered exactly once (for the
odd-distance exchange only pairs at odd distance), at the right node; every path
a shortest path; nothing after the claimed T; table lanes well formed.
Reported: completion time, link transmissions against n * (sum of target
distances), the largest buffer.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Mapping

from tesearch.running import limits
from tesearch.running.errors import TesearchError
from tesearch.checking.kernel.graph import MAX_REPLAY_NODES, RebuiltNetwork, build_network
from tesearch.checking.kernel.loader import (TABLE_FORMAT_VERSION, SCHEDULE_FORMAT, TABLE_FORMAT, InputFormat, LoadedInput,
                                    LoadedMessage, PortModel, input_from_json, load_input)
from tesearch.checking.replay.plot import plot_utilization
from tesearch.checking.replay.reference import replay_reference
from tesearch.checking.replay.report import DETAIL_LIMIT, ReplayReport, ReplayViolation, ViolationKind
from tesearch.checking.replay.streaming import STREAMING_SLOT_BYTES, replay_streaming
from tesearch.checking.replay.vectorised import replay_vectorised, all_pairs_distances
from tesearch.running.terms import Exchange

#: Largest network the vectorised engine replays (it keeps N x N distance and pair-count matrices).
MAX_VECTORISED_NODES = 12_000
#: Engines: ``auto`` is vectorised up to MAX_VECTORISED_NODES nodes and streaming above.
ENGINES = ("auto", "vectorised", "streaming", "reference")
#: bytes the engines keep per step of the time horizon (link use per step and bookkeeping)
BYTES_PER_STEP = 64

# the names this package had as one module
LoadedInput = LoadedInput
LoadedMessage = LoadedMessage
RebuiltNetwork = RebuiltNetwork

__all__ = [
    "DETAIL_LIMIT", "ENGINES", "Exchange", "TABLE_FORMAT_VERSION", "InputFormat", "MAX_REPLAY_NODES",
    "MAX_VECTORISED_NODES", "PortModel", "LoadedInput", "LoadedMessage", "RebuiltNetwork", "ReplayReport",
    "ReplayViolation", "SCHEDULE_FORMAT", "STREAMING_SLOT_BYTES", "TABLE_FORMAT", "ViolationKind",
    "all_pairs_distances", "build_network", "input_from_json", "load_input", "plot_utilization", "replay",
    "replay_data", "replay_file", "replay_reference", "require_horizon",
]


def require_horizon(inp: LoadedInput) -> None:
    """Refuse, before anything is allocated, a time horizon (T or the last hop) larger than memory allows."""
    limits.require_memory(inp.horizon * BYTES_PER_STEP, f"the replay's time horizon of {inp.horizon} steps")


def replay(inp: LoadedInput, model: PortModel | str = PortModel.ALL_PORT, *, progress: bool = False,
           engine: str = "auto") -> ReplayReport:
    """Replay every copy of every message at every node.

    ``engine``: ``vectorised`` (N x N distance and pair matrices, up to MAX_VECTORISED_NODES nodes),
    ``streaming`` (N x |S| memory, up to MAX_REPLAY_NODES), ``reference`` (plain Python, small inputs),
    ``auto`` (vectorised up to MAX_VECTORISED_NODES nodes, streaming above).
    """
    if engine not in ENGINES:
        raise TesearchError(f"unknown replay engine {engine!r} (use {', '.join(ENGINES)})")
    require_horizon(inp)
    if engine == "reference":
        return replay_reference(inp, model)
    started = time.perf_counter()
    model = PortModel.parse(model)
    net = build_network(inp.letters, inp.generators, where=inp.where)
    if engine == "auto":
        engine = "vectorised" if net.order <= MAX_VECTORISED_NODES else "streaming"
    if engine == "streaming":
        return replay_streaming(inp, model, net, progress=progress, started=started)
    if net.order > MAX_VECTORISED_NODES:
        raise TesearchError(f"the network has {net.order} nodes, more than the vectorised engine's "
                            f"{MAX_VECTORISED_NODES} (it keeps N x N matrices); use the streaming engine",
                            where=inp.where)
    return replay_vectorised(inp, model, net, progress=progress, started=started)


def replay_data(data: Mapping[str, Any], model: PortModel | str | None = None, *, where: str = "input",
                progress: bool = False, engine: str = "auto") -> ReplayReport:
    """Replay a decoded table or schedule; ``model=None`` takes the file's ``model`` key, else all-port."""
    inp = input_from_json(dict(data), where)
    return replay(inp, model or inp.model_hint or PortModel.ALL_PORT, progress=progress, engine=engine)


def replay_file(path: str | Path, model: PortModel | str | None = None, *, progress: bool = False,
                engine: str = "auto") -> ReplayReport:
    """Load ``path`` (tesearch-table v1 or tesearch-schedule v1) and replay it (see :func:`replay` for engines)."""
    inp = load_input(path)
    return replay(inp, model or inp.model_hint or PortModel.ALL_PORT, progress=progress, engine=engine)
