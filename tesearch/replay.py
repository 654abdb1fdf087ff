"""The independent whole-network simulator: every node, every message, every step.

A table (tesearch-table v1) or a timed schedule (tesearch-schedule v1, see
``docs/schedule-format.md``) is a claim about what a whole Cayley network does.
This module checks the claim by running it, sharing no code with the search or
the Theorem-1 verifier: it imports neither z3 nor sympy nor any tesearch module
that does (only :mod:`tesearch.errors`).  It reads the JSON itself, rebuilds the
group from the generators alone by its own breadth-first search, computes
distances by its own BFS (all pairs, or from the identity in the streaming
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
- the streaming engine (:func:`_replay_streaming`, whose docstring says
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

import enum
import functools
import heapq
import itertools
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import networkx as nx
import numpy as np

from tesearch.errors import FormatError, TesearchError
from tesearch.files import read_json_file

TABLE_FORMAT = "tesearch-table"
SCHEDULE_FORMAT = "tesearch-schedule"
FORMAT_VERSION = 1
_HEADER_KEYS = ("format", "format_version", "network", "exchange", "generators", "T")

#: Largest network the vectorised engine replays (it keeps N x N distance and pair-count matrices).
MAX_VECTORISED_NODES = 12_000
#: Largest network any engine replays (the streaming engine keeps N x |S| and N x points arrays only).
MAX_REPLAY_NODES = 200_000
#: Engines: ``auto`` is vectorised up to MAX_VECTORISED_NODES nodes and streaming above.
ENGINES = ("auto", "vectorised", "streaming", "reference")
#: How many violations of each kind are kept with full detail (all are counted).
DETAIL_LIMIT = 20


class PortModel(str, enum.Enum):
    """What a node may do in one step."""

    ALL_PORT = "all-port"  # every directed link carries at most one message per step
    SINGLE_PORT = "single-port"  # a node sends at most one and receives at most one message per step

    @classmethod
    def parse(cls, text: "PortModel | str") -> "PortModel":
        try:
            return cls(text)
        except ValueError:
            raise FormatError(f"unknown port model {text!r} (use all-port or single-port)") from None


class Exchange(str, enum.Enum):
    """Which ordered pairs must be served (the replay's own copy; it imports no words module)."""

    TOTAL = "total"
    ODD_DISTANCE = "odd-distance"


class InputFormat(str, enum.Enum):
    TABLE = TABLE_FORMAT
    SCHEDULE = SCHEDULE_FORMAT


class ViolationKind(str, enum.Enum):
    LINK_CAPACITY = "link-capacity"  # all-port: two messages on one directed link in one step
    SEND_PORT = "send-port"  # single-port: a node sends two messages in one step
    RECEIVE_PORT = "receive-port"  # single-port: a node receives two messages in one step
    MISSING = "pair-not-delivered"
    DUPLICATE = "pair-delivered-twice"
    NOT_TARGET = "not-a-target"  # delivered to itself, or (odd-distance) to an even-distance node
    WRONG_DESTINATION = "wrong-destination"  # arrived elsewhere than the schedule's stated destination
    NOT_SHORTEST = "not-shortest"  # more hops than the distance
    LATE = "after-T"  # a hop at or after the claimed number of steps T
    LANE_OVERLAP = "lane-overlap"  # table only: two words share a cell of one row
    LANE_RANGE = "lane-out-of-range"  # table only: a row index >= number of generators


Perm = tuple[int, ...]


@dataclass(frozen=True)
class ReplayMessage:
    """One message of the identity node: letters (as indices), hop steps, optional stated destination."""

    word: tuple[int, ...]
    times: tuple[int, ...]
    destination: Perm | None = None
    lane: int | None = None  # table row, for tables


@dataclass(frozen=True)
class ReplayInput:
    """A table or schedule as the replay reads it (its own loader, its own validation)."""

    source_format: InputFormat
    network: str
    exchange: Exchange
    letters: tuple[str, ...]
    generators: tuple[Perm, ...]
    T: int
    messages: tuple[ReplayMessage, ...]
    model_hint: PortModel | None = None
    where: str = "input"


@dataclass(frozen=True)
class ReplayViolation:
    kind: ViolationKind
    step: int | None
    node: Perm | None
    link: tuple[Perm, str, Perm] | None  # (from node, letter, to node)
    message: tuple[Perm, Perm] | None  # (source, destination)
    detail: str

    def __str__(self) -> str:
        where = []
        if self.step is not None:
            where.append(f"step {self.step}")
        if self.node is not None:
            where.append(f"node {_node_text(self.node)}")
        if self.link is not None:
            a, s, b = self.link
            where.append(f"link {_node_text(a)} -{s}-> {_node_text(b)}")
        if self.message is not None:
            where.append(f"message {_node_text(self.message[0])} => {_node_text(self.message[1])}")
        return f"{self.kind.value}: {', '.join(where) + ': ' if where else ''}{self.detail}"

    def to_json(self) -> dict:
        return {
            "kind": self.kind.value,
            "step": self.step,
            "node": list(self.node) if self.node is not None else None,
            "link": [list(self.link[0]), self.link[1], list(self.link[2])] if self.link is not None else None,
            "message": [list(self.message[0]), list(self.message[1])] if self.message is not None else None,
            "detail": self.detail,
        }


def _node_text(perm: Perm) -> str:
    sep = "" if len(perm) <= 10 else " "
    return "[" + sep.join(str(x) for x in perm) + "]"


@dataclass
class ReplayReport:
    network: str
    exchange: str
    model: PortModel
    engine: str
    source_format: str
    nodes: int
    links: int  # directed links
    messages: int  # message copies over all nodes (N x messages of one node)
    claimed_T: int
    completion_time: int
    transmissions: int
    expected_transmissions: int  # n * (sum of target distances): the all-shortest-paths count
    max_buffer: int
    delivered: int  # ordered target pairs delivered exactly once
    target_pairs: int
    violations: list[ReplayViolation] = field(default_factory=list)
    violation_counts: dict[str, int] = field(default_factory=dict)
    link_use_per_step: np.ndarray | None = None  # transmissions in each step
    seconds: float | None = None

    @property
    def ok(self) -> bool:
        return not self.violation_counts

    @property
    def buffer_free(self) -> bool:
        return self.max_buffer == 0

    @property
    def kinds(self) -> set[ViolationKind]:
        return {ViolationKind(k) for k in self.violation_counts}

    @property
    def capacity_per_step(self) -> int:
        return self.links if self.model is PortModel.ALL_PORT else self.nodes

    def to_json(self, *, per_step: bool = False) -> dict:
        out = {
            "network": self.network,
            "exchange": self.exchange,
            "model": self.model.value,
            "engine": self.engine,
            "format": self.source_format,
            "ok": self.ok,
            "nodes": self.nodes,
            "links": self.links,
            "messages": self.messages,
            "claimed_T": self.claimed_T,
            "completion_time": self.completion_time,
            "transmissions": self.transmissions,
            "expected_transmissions": self.expected_transmissions,
            "buffer_free": self.buffer_free,
            "max_buffer": self.max_buffer,
            "delivered": self.delivered,
            "target_pairs": self.target_pairs,
            "violation_counts": dict(self.violation_counts),
            "violations": [v.to_json() for v in self.violations],
        }
        if self.seconds is not None:
            out["seconds"] = round(self.seconds, 3)
        if per_step and self.link_use_per_step is not None:
            out["link_use_per_step"] = self.link_use_per_step.astype(int).tolist()
        return out

    def summary(self) -> str:
        lines = [
            f"replay ({self.engine}, {self.model.value}) of {self.source_format} {self.network}, exchange {self.exchange}: "
            f"{self.nodes} nodes, {self.links} directed links, {self.messages} messages",
            f"completion time {self.completion_time} (claimed T = {self.claimed_T}); "
            f"link transmissions {self.transmissions} (n * sum of target distances = {self.expected_transmissions})",
            f"delivered {self.delivered} of {self.target_pairs} ordered pairs exactly once; "
            + ("buffer-free" if self.buffer_free else f"messages wait: largest buffer {self.max_buffer}"),
        ]
        if self.seconds is not None:
            lines[-1] += f"; {self.seconds:.2f} s"
        if self.ok:
            lines.append("REPLAY OK: no violations")
        else:
            total = sum(self.violation_counts.values())
            counts = ", ".join(f"{k} {n}" for k, n in sorted(self.violation_counts.items()))
            lines.append(f"REPLAY FAILED: {total} violation(s) ({counts})")
            lines += [f"  {v}" for v in self.violations[:50]]
            if total > len(self.violations[:50]):
                lines.append(f"  ... (details kept for the first {DETAIL_LIMIT} of each kind)")
        return "\n".join(lines)


# ============================================================================ loading

def _bad(message: str, where: str) -> FormatError:
    return FormatError(message, where=where)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_generators(raw: object, where: str) -> tuple[tuple[str, ...], tuple[Perm, ...]]:
    here = f"{where}: generators"
    if not isinstance(raw, dict) or not raw:
        raise _bad("must be a non-empty object of letter -> list of images", here)
    letters: list[str] = []
    perms: list[Perm] = []
    size = None
    for letter, images in raw.items():
        at = f"{here}[{letter!r}]"
        if not isinstance(letter, str) or not letter or any(c.isspace() for c in letter):
            raise _bad("letters must be non-empty strings without spaces", at)
        if not isinstance(images, list) or not images or not all(_is_int(x) for x in images):
            raise _bad("a permutation is a non-empty list of integer images", at)
        if size is None:
            size = len(images)
        if len(images) != size:
            raise _bad(f"has {len(images)} images, the first generator has {size}", at)
        if sorted(images) != list(range(size)):
            raise _bad(f"is not a permutation of 0..{size - 1}", at)
        if images == list(range(size)):
            raise _bad("is the identity", at)
        letters.append(letter)
        perms.append(tuple(images))
    if len(set(perms)) != len(perms):
        raise _bad("two letters name the same permutation", here)
    known = set(perms)
    for letter, p in zip(letters, perms):
        inv = [0] * len(p)
        for i, x in enumerate(p):
            inv[x] = i
        if tuple(inv) not in known:
            raise _bad(f"not closed under inverses (the inverse of {letter!r} is missing)", here)
    return tuple(letters), tuple(perms)


def _word(raw: object, index: Mapping[str, int], at: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(s, str) for s in raw):
        raise _bad("a word is a non-empty list of letters", at)
    unknown = [s for s in raw if s not in index]
    if unknown:
        raise _bad(f"letter {unknown[0]!r} is not a generator ({' '.join(index)})", at)
    return tuple(index[s] for s in raw)


def input_from_json(data: object, where: str = "input") -> ReplayInput:
    """Validate a decoded tesearch-table v1 or tesearch-schedule v1 object."""
    if not isinstance(data, dict):
        raise _bad("a tesearch-table or tesearch-schedule is a JSON object", where)
    fmt = data.get("format")
    if fmt not in (TABLE_FORMAT, SCHEDULE_FORMAT):
        raise _bad(f"'format' is {fmt!r}, expected {TABLE_FORMAT!r} or {SCHEDULE_FORMAT!r}", where)
    body_key = "placements" if fmt == TABLE_FORMAT else "messages"
    missing = [k for k in _HEADER_KEYS + (body_key,) if k not in data]
    if fmt == TABLE_FORMAT and "lower_bound" not in data:
        missing.append("lower_bound")
    if missing:
        raise _bad(f"missing key(s) {', '.join(missing)}", where)
    if data["format_version"] != FORMAT_VERSION:
        raise _bad(f"unsupported format_version {data['format_version']!r} (this reader knows 1)", where)
    if not isinstance(data["network"], str):
        raise _bad("'network' must be a string", where)
    try:
        exchange = Exchange(data["exchange"])
    except ValueError:
        raise _bad(f"'exchange' must be total or odd-distance, got {data['exchange']!r}", where) from None
    letters, perms = _check_generators(data["generators"], where)
    T = data["T"]
    if not _is_int(T) or T < 0:
        raise _bad(f"'T' must be an integer >= 0, got {T!r}", where)
    hint = None
    if "model" in data:
        try:
            hint = PortModel(data["model"])
        except ValueError:
            raise _bad(f"'model' must be all-port or single-port, got {data['model']!r}", where) from None
    index = {s: k for k, s in enumerate(letters)}
    raw = data[body_key]
    if not isinstance(raw, list):
        raise _bad(f"{body_key!r} must be a list", where)
    messages = []
    points = len(perms[0])
    for i, item in enumerate(raw):
        at = f"{where}: {body_key}[{i}]"
        if fmt == TABLE_FORMAT:
            if not (isinstance(item, list) and len(item) == 3):
                raise _bad("a placement is [row, first_column, word]", at)
            row, col, word = item
            for name, value in (("row", row), ("first_column", col)):
                if not _is_int(value) or value < 0:
                    raise _bad(f"{name} must be an integer >= 0, got {value!r}", at)
            w = _word(word, index, at)
            messages.append(ReplayMessage(w, tuple(range(col, col + len(w))), None, row))
        else:
            if not (isinstance(item, list) and len(item) in (2, 3)):
                raise _bad("a message is [word, times] or [word, times, destination]", at)
            w = _word(item[0], index, at)
            times = item[1]
            if not isinstance(times, list) or not all(_is_int(t) and t >= 0 for t in times):
                raise _bad("times must be a list of integers >= 0", at)
            if len(times) != len(w):
                raise _bad(f"{len(w)} letters but {len(times)} times", at)
            if any(b <= a for a, b in zip(times, times[1:])):
                raise _bad("times must increase strictly (one hop per step)", at)
            dest = None
            if len(item) == 3:
                d = item[2]
                if not isinstance(d, list) or not all(_is_int(x) for x in d) or sorted(d) != list(range(points)):
                    raise _bad(f"destination must be a permutation of 0..{points - 1} (a list of images)", at)
                dest = tuple(d)
            messages.append(ReplayMessage(w, tuple(times), dest))
    return ReplayInput(InputFormat(fmt), data["network"], exchange, letters, perms, T, tuple(messages), hint, where)


def load_input(path: str | Path) -> ReplayInput:
    path = Path(path)
    return input_from_json(read_json_file(path), str(path))


# ============================================================================ the network

@dataclass(frozen=True)
class ReplayNetwork:
    """The network rebuilt from generators alone: nodes by BFS from the identity permutation."""

    letters: tuple[str, ...]
    elements: tuple[Perm, ...]  # node index -> permutation (BFS order, 0 = identity)
    index: Mapping[Perm, int]
    successor: np.ndarray  # (S, N): successor[k, g] = index of g*s_k
    parent: np.ndarray  # (N,): BFS parent (-1 at the identity)
    parent_letter: np.ndarray  # (N,): letter with element = parent * letter
    depth: np.ndarray  # (N,): BFS depth = distance from the identity

    @functools.cached_property
    def graph(self) -> nx.DiGraph:
        """The network as a networkx DiGraph: edge (g, g*s) with attribute letter = s (built on first use)."""
        graph = nx.DiGraph()
        graph.add_nodes_from(range(self.order))
        for k, s in enumerate(self.letters):
            graph.add_edges_from(zip(range(self.order), self.successor[k].tolist()), letter=s)
        return graph

    @property
    def order(self) -> int:
        return len(self.elements)

    @property
    def degree(self) -> int:
        return len(self.letters)

    def bfs_word(self, g: int) -> list[int]:
        """A shortest word of node g from the identity (letters as indices), by the BFS tree."""
        word = []
        while g != 0:
            word.append(int(self.parent_letter[g]))
            g = int(self.parent[g])
        return word[::-1]


def build_network(letters: Sequence[str], generators: Sequence[Perm], *, max_nodes: int = MAX_REPLAY_NODES,
                  where: str = "input") -> ReplayNetwork:
    """BFS from the identity permutation; node g -> g*s with (p*q)[i] = q[p[i]].

    Level by level: the products of a whole level with every generator are one numpy gather, and new
    elements are numbered in the order a node-by-node BFS (node g, then generators in order) meets them.
    """
    points = len(generators[0])
    dtype = np.uint8 if points <= 256 else np.uint16 if points <= 65536 else np.int64
    gens = np.array(generators, dtype=dtype)
    width = points * np.dtype(dtype).itemsize
    levels = [np.arange(points, dtype=dtype)[None, :]]
    key_index: dict[bytes, int] = {levels[0].tobytes(): 0}
    parent = [-1]
    parent_letter = [-1]
    depth = [0]
    succ_parts: list[np.ndarray] = []  # (level size, S) successor indices, level by level
    first, d = 0, 0
    while first < len(parent):
        frontier = levels[-1]
        size = len(frontier)
        products = gens[:, frontier]  # products[k, g, i] = s_k[p_g[i]]
        products = np.ascontiguousarray(products.transpose(1, 0, 2))  # node-major, then generator
        raw = products.tobytes()
        found_ids = np.empty(size * len(gens), dtype=np.int64)
        new_rows = []
        for c in range(size * len(gens)):
            key = raw[c * width:(c + 1) * width]
            j = key_index.get(key)
            if j is None:
                j = len(parent)
                if j >= max_nodes:
                    raise TesearchError(f"the network has more than {max_nodes} nodes; too large for the replay",
                                        where=where)
                key_index[key] = j
                g, k = divmod(c, len(gens))
                parent.append(first + g)
                parent_letter.append(k)
                depth.append(d + 1)
                new_rows.append(c)
            found_ids[c] = j
        succ_parts.append(found_ids.reshape(size, len(gens)))
        first += size
        d += 1
        if new_rows:
            levels.append(products.reshape(-1, points)[np.array(new_rows)])
        else:
            break
    all_elements = np.concatenate(levels)
    elements = tuple(tuple(row) for row in all_elements.tolist())
    index = {e: i for i, e in enumerate(elements)}
    successor = np.ascontiguousarray(np.concatenate(succ_parts).T, dtype=np.int64)
    return ReplayNetwork(tuple(letters), elements, index, successor, np.array(parent), np.array(parent_letter),
                         np.array(depth, dtype=np.int64))


def all_pairs_distances(net: ReplayNetwork) -> np.ndarray:
    """dist[u, v] for every pair, by a BFS from every node at once (boolean frontier matrix)."""
    n = net.order
    dist = np.zeros((n, n), dtype=np.uint8 if n <= 255 else np.uint16)
    # Row v of the bit matrices holds the sources u (packed 8 to a byte): frontier[v, u] says
    # dist(u, v) = d.  v is at distance d + 1 from u when some neighbour v*s_k is at distance d.
    frontier = np.packbits(np.eye(n, dtype=bool), axis=1)
    reached = frontier.copy()
    d = 0
    while True:
        d += 1
        nxt = np.zeros_like(frontier)
        for k in range(net.degree):
            nxt |= frontier[net.successor[k]]
        nxt &= ~reached
        if not nxt.any():
            break
        reached |= nxt
        dist += np.unpackbits(nxt, axis=1, count=n).astype(dist.dtype) * dist.dtype.type(d)
        frontier = nxt
    if not np.unpackbits(reached, axis=1, count=n).all():
        raise TesearchError("the generators do not connect the network")
    return dist.T.copy()  # dist[u, v]: rows are sources


# ============================================================================ vectorised replay

class _Violations:
    """Counts every violation, keeps the first DETAIL_LIMIT of each kind in detail."""

    def __init__(self):
        self.items: list[ReplayViolation] = []
        self.counts: Counter = Counter()
        self.kept: Counter = Counter()

    def wants(self, kind: ViolationKind) -> bool:
        return self.kept[kind] < DETAIL_LIMIT

    def add(self, kind: ViolationKind, count: int = 1, *, step=None, node=None, link=None, message=None,
            detail: str = "") -> None:
        """Count ``count`` violations of ``kind``; keep this one's detail if the kind is not full yet."""
        if count <= 0:
            return
        if self.wants(kind):
            self.items.append(ReplayViolation(kind, step, node, link, message, detail))
            self.kept[kind] += 1
        self.counts[kind.value] += count

    def count_only(self, kind: ViolationKind, count: int) -> None:
        if count > 0:
            self.counts[kind.value] += count


def _lane_checks(inp: ReplayInput, found: _Violations) -> None:
    """A table's rows are lanes: a row index must exist and no cell may hold two letters."""
    if inp.source_format is not InputFormat.TABLE:
        return
    rows: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for m in inp.messages:
        if m.lane >= len(inp.letters):
            found.add(ViolationKind.LANE_RANGE, detail=f"row {m.lane} at column {m.times[0]}: the table has rows "
                                                        f"0..{len(inp.letters) - 1}")
            continue
        rows[m.lane].append((m.times[0], m.times[-1] + 1))
    for r, spans in sorted(rows.items()):
        spans.sort()
        for (a0, a1), (b0, _) in zip(spans, spans[1:]):
            if b0 < a1:
                found.add(ViolationKind.LANE_OVERLAP, detail=f"row {r}: a word starting at column {b0} overlaps the "
                                                              f"word in columns {a0}..{a1 - 1}")


def _expected_destination(net: ReplayNetwork, dest: Perm, where: str) -> int:
    g = net.index.get(tuple(dest))
    if g is None:
        raise TesearchError(f"a stated destination {list(dest)} is not an element of the group", where=where)
    return g


def replay(inp: ReplayInput, model: PortModel | str = PortModel.ALL_PORT, *, progress: bool = False,
           engine: str = "auto") -> ReplayReport:
    """Replay every copy of every message at every node.

    ``engine``: ``vectorised`` (N x N distance and pair matrices, up to MAX_VECTORISED_NODES nodes),
    ``streaming`` (N x |S| memory, up to MAX_REPLAY_NODES), ``reference`` (plain Python, small inputs),
    ``auto`` (vectorised up to MAX_VECTORISED_NODES nodes, streaming above).
    """
    if engine not in ENGINES:
        raise TesearchError(f"unknown replay engine {engine!r} (use {', '.join(ENGINES)})")
    if engine == "reference":
        return replay_reference(inp, model)
    started = time.perf_counter()
    model = PortModel.parse(model)
    net = build_network(inp.letters, inp.generators, where=inp.where)
    if engine == "auto":
        engine = "vectorised" if net.order <= MAX_VECTORISED_NODES else "streaming"
    if engine == "streaming":
        return _replay_streaming(inp, model, net, progress=progress, started=started)
    if net.order > MAX_VECTORISED_NODES:
        raise TesearchError(f"the network has {net.order} nodes, more than the vectorised engine's "
                            f"{MAX_VECTORISED_NODES} (it keeps N x N matrices); use the streaming engine",
                            where=inp.where)
    return _replay_vectorised(inp, model, net, progress=progress, started=started)


class _Buffers:
    """Messages in transit that wait at a node between two of their hops; the largest count at one node."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.occupancy = np.zeros(n, dtype=np.int64)  # in-transit messages waiting at each node
        self.ends: list[tuple[int, int]] = []  # heap of (last waiting step, wait id)
        self.waiting: dict[int, np.ndarray] = {}
        self.ids = itertools.count()
        self.max_buffer = 0

    def wait(self, nodes: np.ndarray, last_step: int) -> None:
        """One message's copies, at `nodes`, wait through step `last_step`."""
        wid = next(self.ids)
        self.waiting[wid] = nodes.copy()
        self.occupancy += np.bincount(nodes, minlength=self.n)
        heapq.heappush(self.ends, (last_step, wid))

    def close_step(self, t: int) -> None:
        while self.ends and self.ends[0][0] <= t:
            _, wid = heapq.heappop(self.ends)
            self.occupancy -= np.bincount(self.waiting.pop(wid), minlength=self.n)
        if self.waiting:
            self.max_buffer = max(self.max_buffer, int(self.occupancy.max()))


def _message_pair_of(net: ReplayNetwork, messages: Sequence[ReplayMessage]):
    """(source, destination) of copy g of message m, for violation reports."""
    def message_pair(m: int, g: int) -> tuple[Perm, Perm]:
        end = g
        for k in messages[m].word:
            end = int(net.successor[k, end])
        return net.elements[g], net.elements[end]
    return message_pair


def _progress_bar(progress: bool, hops: int, desc: str):
    """A tqdm bar over copy-hops when the replay is long enough to want one, else None."""
    if not progress or hops <= 20_000_000:
        return None
    from tqdm import tqdm

    return tqdm(total=hops, unit="hop", unit_scale=True, desc=desc, leave=False)


def _report_late(found: _Violations, net: ReplayNetwork, messages: Sequence[ReplayMessage], late: set[int],
                 T: int, message_pair) -> None:
    n = net.order
    for m in sorted(late):
        msg = messages[m]
        found.add(ViolationKind.LATE, n, step=msg.times[-1], node=net.elements[0], message=message_pair(m, 0),
                  detail=f"the last hop is at step {msg.times[-1]}, but T = {T} (steps 0..{T - 1}); "
                         f"all {n} copies are late")


def _replay_vectorised(inp: ReplayInput, model: PortModel, net: ReplayNetwork, *, progress: bool,
                       started: float) -> ReplayReport:
    """The N x N engine: all-pairs distances and an N x N pair-count matrix."""
    n, degree = net.order, net.degree
    dist = all_pairs_distances(net)
    found = _Violations()
    _lane_checks(inp, found)
    messages = inp.messages
    sources = np.arange(n)

    # every hop of the identity's messages, in step order
    hop_counts = np.array([len(m.word) for m in messages], dtype=np.int64)
    total_hops = int(hop_counts.sum())
    hop_msg = np.repeat(np.arange(len(messages)), hop_counts)
    hop_pos = np.concatenate([np.arange(c) for c in hop_counts]) if total_hops else np.zeros(0, dtype=np.int64)
    hop_time = np.fromiter((t for m in messages for t in m.times), dtype=np.int64, count=total_hops)
    order = np.lexsort((hop_pos, hop_msg, hop_time))
    completion = int(hop_time.max()) + 1 if total_hops else 0
    link_use = np.zeros(max(completion, 1), dtype=np.int64)

    link_stamp = np.full(n * degree, -1, dtype=np.int64)  # last step a directed link was used
    send_stamp = np.full(n, -1, dtype=np.int64)
    recv_stamp = np.full(n, -1, dtype=np.int64)
    pair_count = np.zeros(n * n, dtype=np.uint8)
    buffers = _Buffers(n)
    position: dict[int, np.ndarray] = {}  # message -> node of each copy (copy g starts at node g)
    step_hops: list[tuple[int, int, np.ndarray, np.ndarray]] = []  # this step: (message, letter, from, to)
    current_step = -1
    late_messages: set[int] = set()
    message_pair = _message_pair_of(net, messages)
    bar = _progress_bar(progress, total_hops * n, "replay")
    done_since_update = 0
    for h in order.tolist():
        m, i, t = int(hop_msg[h]), int(hop_pos[h]), int(hop_time[h])
        if t != current_step:
            if current_step >= 0:
                buffers.close_step(current_step)
            current_step, step_hops = t, []
        msg = messages[m]
        k = msg.word[i]
        here = position.pop(m) if i else sources
        there = net.successor[k][here]
        if t >= inp.T:
            late_messages.add(m)
        # link capacity / ports, over all n copies at once
        hop = (here, there, m, k, t, step_hops, net, message_pair)
        if model is PortModel.ALL_PORT:
            _claim(found, ViolationKind.LINK_CAPACITY, link_stamp, here * degree + k, hop)
        else:
            _claim(found, ViolationKind.SEND_PORT, send_stamp, here, hop)
            _claim(found, ViolationKind.RECEIVE_PORT, recv_stamp, there, hop)
        step_hops.append((m, k, here, there))
        link_use[t] += here.size
        if i + 1 < len(msg.word):
            position[m] = there
            next_t = msg.times[i + 1]
            if next_t > t + 1:  # waits at `there` during steps t+1 .. next_t-1
                buffers.wait(there, next_t - 1)
        else:
            _deliver(found, net, dist, pair_count, msg, there, len(msg.word), t, inp.where)
        if bar is not None:
            done_since_update += here.size
            if done_since_update > 5_000_000:
                bar.update(done_since_update)
                done_since_update = 0
    if current_step >= 0:
        buffers.close_step(current_step)
    if bar is not None:
        bar.update(done_since_update)
        bar.close()

    _report_late(found, net, messages, late_messages, inp.T, message_pair)

    # every ordered pair: delivered once if a target, never otherwise
    if inp.exchange is Exchange.TOTAL:
        target = np.ones((n, n), dtype=bool)
        np.fill_diagonal(target, False)
    else:
        target = (dist % 2 == 1)
    counts = pair_count.reshape(n, n)
    delivered = int(np.count_nonzero(target & (counts == 1)))
    _pair_violations(found, net, target, counts)
    expected = int(dist[target].sum(dtype=np.int64))
    report = ReplayReport(
        network=inp.network, exchange=inp.exchange.value, model=model, engine="vectorised",
        source_format=inp.source_format.value, nodes=n, links=n * degree, messages=n * len(messages),
        claimed_T=inp.T, completion_time=completion, transmissions=int(link_use.sum()),
        expected_transmissions=expected, max_buffer=buffers.max_buffer, delivered=delivered,
        target_pairs=int(np.count_nonzero(target)), violations=found.items, violation_counts=dict(found.counts),
        link_use_per_step=link_use[:completion], seconds=time.perf_counter() - started)
    return report


def _report_clash(found: _Violations, kind: ViolationKind, clash: np.ndarray, here: np.ndarray, there: np.ndarray,
                  m: int, k: int, t: int, step_hops, net: ReplayNetwork, message_pair) -> None:
    """Record a link or port used twice in step t, naming the message that used it first."""
    copies = np.nonzero(clash)[0]
    if not found.wants(kind):
        found.count_only(kind, len(copies))
        return
    g = int(copies[0])
    a, b = int(here[g]), int(there[g])
    other = None
    for m2, k2, here2, there2 in step_hops:
        if kind is ViolationKind.LINK_CAPACITY:
            hit = np.nonzero(here2 == a)[0] if k2 == k else ()
        elif kind is ViolationKind.SEND_PORT:
            hit = np.nonzero(here2 == a)[0]
        else:
            hit = np.nonzero(there2 == b)[0]
        if len(hit):
            other = message_pair(m2, int(hit[0]))
            break
    what = {ViolationKind.LINK_CAPACITY: "the link already carries", ViolationKind.SEND_PORT: "the node already sends",
            ViolationKind.RECEIVE_PORT: "the node already receives"}[kind]
    node = net.elements[b] if kind is ViolationKind.RECEIVE_PORT else net.elements[a]
    detail = f"{what} message {_node_text(other[0])} => {_node_text(other[1])} in this step" if other else what
    detail += f" ({len(copies)} node(s) clash in this step for this hop)"
    found.add(kind, len(copies), step=t, node=node, link=(net.elements[a], net.letters[k], net.elements[b]),
              message=message_pair(m, g), detail=detail)


def _claim(found: _Violations, kind: ViolationKind, stamp: np.ndarray, index: np.ndarray, hop: tuple) -> None:
    """Mark the links or ports ``stamp[index]`` used at this hop's step; report the copies that find one
    already used in that step. ``hop`` is (here, there, message, letter, step, step_hops, net, message_pair)."""
    here, there, m, k, t, step_hops, net, message_pair = hop
    clash = stamp[index] == t
    if clash.any():
        _report_clash(found, kind, clash, here, there, m, k, t, step_hops, net, message_pair)
    stamp[index] = t


def _deliver(found: _Violations, net: ReplayNetwork, dist: np.ndarray, pair_count: np.ndarray, msg: ReplayMessage,
             final: np.ndarray, hops: int, t: int, where: str) -> None:
    n = net.order
    sources = np.arange(n)
    keys = sources * n + final
    seen = pair_count[keys]
    pair_count[keys] = np.minimum(seen, 250) + 1
    long = np.nonzero(dist[sources, final] != hops)[0]
    if len(long):
        g = int(long[0])
        found.add(ViolationKind.NOT_SHORTEST, len(long), step=t, node=net.elements[int(final[g])],
                  message=(net.elements[g], net.elements[int(final[g])]),
                  detail=f"{hops} hops for distance {int(dist[g, final[g]])} ({len(long)} copies)")
    if msg.destination is not None:
        e = _expected_destination(net, msg.destination, where)
        intended = sources
        for k in net.bfs_word(e):
            intended = net.successor[k][intended]
        wrong = np.nonzero(intended != final)[0]
        if len(wrong):
            g = int(wrong[0])
            found.add(ViolationKind.WRONG_DESTINATION, len(wrong), step=t, node=net.elements[int(final[g])],
                      message=(net.elements[g], net.elements[int(intended[g])]),
                      detail=f"arrived at {_node_text(net.elements[int(final[g])])} ({len(wrong)} copies)")


def _pair_violations(found: _Violations, net: ReplayNetwork, target: np.ndarray, counts: np.ndarray) -> None:
    for kind, mask, what in (
        (ViolationKind.MISSING, target & (counts == 0), "never delivered"),
        (ViolationKind.DUPLICATE, target & (counts > 1), "delivered more than once"),
        (ViolationKind.NOT_TARGET, ~target & (counts > 0), "delivered, but not a target pair of the exchange"),
    ):
        total = int(np.count_nonzero(mask))
        if not total:
            continue
        us, vs = np.nonzero(mask)
        for u, v in zip(us[:DETAIL_LIMIT].tolist(), vs[:DETAIL_LIMIT].tolist()):
            found.add(kind, node=net.elements[v], message=(net.elements[u], net.elements[v]),
                      detail=f"{what} ({int(counts[u, v])} times)")
        found.count_only(kind, total - min(total, DETAIL_LIMIT))


# ============================================================================ streaming replay

#: Largest slot array (in-flight message copies, int32) the streaming engine allocates.
STREAMING_SLOT_BYTES = 4 << 30


def _element_base(elements: np.ndarray) -> np.ndarray:
    """Points whose images tell the group elements apart (a base), chosen greedily and checked on all N."""
    n, points = elements.shape
    classes = np.zeros(n, dtype=np.int64)
    count = 1
    base = []
    for i in range(points):
        if count == n:
            break
        refined = classes * points + elements[:, i]
        _, inverse = np.unique(refined, return_inverse=True)
        new_count = int(inverse.max()) + 1
        if new_count > count:
            base.append(i)
            classes, count = inverse.reshape(-1).astype(np.int64), new_count
    if count != n:
        raise TesearchError("two nodes of the network are the same permutation")  # cannot happen after BFS
    return np.array(base, dtype=np.int64)


def _word_element(generators: np.ndarray, word: Sequence[int]) -> np.ndarray:
    """The permutation s_1 * s_2 * ... of a word, (p*q)[i] = q[p[i]]."""
    e = np.arange(generators.shape[1])
    for k in word:
        e = generators[k][e]
    return e


def _replay_streaming(inp: ReplayInput, model: PortModel, net: ReplayNetwork, *, progress: bool,
                      started: float) -> ReplayReport:
    """The streaming engine: no N x N array, memory N x |S| (successors, link stamps) plus N per in-flight message.

    What it checks, and how (all nodes simulated, vectorised over the nodes; node-invariance is not assumed):

    - Every copy moves hop by hop: the N copies of a message (copy g starts at node g) are one int32 array of
      positions, advanced by one gather through the successor table of the letter (built from the permutation
      generators by the BFS), so the path of copy g is g, g*s1, g*s1*s2, ... at the steps the input gives.
      Each successor table is checked to be a permutation of the nodes, so the copies of one message are at N
      distinct nodes at every step.
    - Link capacity (all-port), per (step, letter): when several hops of one step use the same letter, they are
      stamped one after another into a per-letter "last step used" array (N int32 per letter) and a copy finding
      its link already stamped in this step is a clash (reported with node, step, link and the other message).
      A letter used by one hop only in a step cannot clash (its copies sit at N distinct nodes), exactly as in
      the vectorised engine.  Single-port: the same with per-node send and receive stamps.
    - Destination of every copy: the word's element e = s1*s2*... is computed by multiplying the permutations
      (not through the successor table); every copy g must end at the node g*e.  This is checked exactly for all
      N copies by comparing permutations on a base (points whose images separate all N group elements, checked
      on the whole group): final(g)[b] == e[g[b]] for b in the base.  A copy elsewhere is a wrong-destination
      violation; a stated destination (schedules) must equal e.
    - Shortest paths: d(g, g*e) = d(1, e) in a Cayley graph (left multiplication is an automorphism), so with
      every copy verified to end at g*e, the path of copy g is shortest iff |word| == dist(1, e), with the
      distances from the identity by one BFS (N ints).
    - Delivery: every copy of message m goes from g to g*e_m, so source g delivers to {g*e_m : m}; every ordered
      target pair (g, h) is served once iff every target element (non-identity; odd distance for the
      odd-distance exchange) is the element of exactly one word.  Pair counts (delivered, missing, duplicate,
      not-target) are those counts times N, the same numbers as the N x N pair matrix gives.
    - Buffers, completion time, transmissions, lanes and lateness as in the vectorised engine.
    """
    n, degree = net.order, net.degree
    found = _Violations()
    _lane_checks(inp, found)
    messages = inp.messages
    dist0 = net.depth
    succ = np.ascontiguousarray(net.successor, dtype=np.int32)
    for k in range(degree):
        if np.bincount(succ[k], minlength=n).max() != 1:
            raise TesearchError(f"generator {net.letters[k]!r} does not permute the nodes", where=inp.where)
    points = len(inp.generators[0])
    elements = np.array(net.elements, dtype=np.uint8 if points <= 256 else np.uint16)
    base = _element_base(elements)
    if points <= 256:  # pad to whole 8-byte words (repeating a base point) so rows compare as uint64
        base = np.concatenate((base, np.full(-len(base) % 8, base[-1], dtype=base.dtype)))
    on_base = np.ascontiguousarray(elements[:, base])  # (N, |base|): images of the base points, node by node
    word_view = on_base.dtype == np.uint8
    if word_view:
        on_base_words = on_base.view(np.uint64)
    pair_lut = word_view and n * len(base) >= 1 << 18  # map two base images at once through a 65536-entry table
    if pair_lut:
        on_base_pairs = on_base.view(np.uint16)
        low_byte = np.arange(1 << 16) & 0xFF
        high_byte = np.arange(1 << 16) >> 8
    generators = np.array(inp.generators, dtype=np.int64)

    # every hop of the identity's messages, in step order
    hop_counts = np.array([len(m.word) for m in messages], dtype=np.int64)
    total_hops = int(hop_counts.sum())
    hop_msg = np.repeat(np.arange(len(messages)), hop_counts)
    hop_pos = np.concatenate([np.arange(c) for c in hop_counts]) if total_hops else np.zeros(0, dtype=np.int64)
    hop_time = np.fromiter((t for m in messages for t in m.times), dtype=np.int64, count=total_hops)
    hop_letter = np.fromiter((k for m in messages for k in m.word), dtype=np.int64, count=total_hops)
    order = np.lexsort((hop_pos, hop_msg, hop_time))
    hop_msg, hop_pos, hop_time, hop_letter = hop_msg[order], hop_pos[order], hop_time[order], hop_letter[order]
    completion = int(hop_time.max()) + 1 if total_hops else 0
    link_use = np.zeros(max(completion, 1), dtype=np.int64)

    # slots: one int32 position array per message in flight (from its first hop to its last)
    slot_of = np.zeros(len(messages), dtype=np.int64)
    free: list[int] = []
    busy: list[tuple[int, int]] = []  # heap of (last step, slot)
    n_slots = 0
    for m in sorted(range(len(messages)), key=lambda m: messages[m].times[0]):
        first = messages[m].times[0]
        while busy and busy[0][0] < first:
            heapq.heappush(free, heapq.heappop(busy)[1])
        if free:
            slot = heapq.heappop(free)
        else:
            slot, n_slots = n_slots, n_slots + 1
        slot_of[m] = slot
        heapq.heappush(busy, (messages[m].times[-1], slot))
    if n_slots * n * 4 > STREAMING_SLOT_BYTES:
        raise TesearchError(f"{n_slots} messages in flight at once on {n} nodes: more than "
                            f"{STREAMING_SLOT_BYTES >> 30} GB of positions", where=inp.where)
    position = np.zeros((max(n_slots, 1), n), dtype=np.int32)

    link_stamp = np.full((degree, n), -1, dtype=np.int32) if model is PortModel.ALL_PORT else None
    send_stamp = np.full(n, -1, dtype=np.int32)
    recv_stamp = np.full(n, -1, dtype=np.int32)
    element_count = np.zeros(n, dtype=np.int64)  # words per group element
    buffers = _Buffers(n)
    late_messages: set[int] = set()
    sources = np.arange(n, dtype=np.int32)
    message_pair = _message_pair_of(net, messages)

    def finish(m: int, final: np.ndarray, t: int) -> None:
        msg = messages[m]
        e = _word_element(generators, msg.word)
        j = net.index.get(tuple(int(x) for x in e))
        if j is None:  # a product of generators is always an element
            raise TesearchError(f"the word of message {m} is not an element of the group", where=inp.where)
        # every copy g ends at g*e: compare on the base, final(g)[b] == e[g[b]]
        if pair_lut:
            e256 = np.zeros(256, dtype=np.uint16)
            e256[:points] = e
            lut = np.take(e256, low_byte) | (np.take(e256, high_byte) << 8)
            expected_images = np.take(lut, on_base_pairs).view(np.uint8)
        else:
            expected_images = np.take(e.astype(on_base.dtype), on_base)
        if word_view and np.array_equal(np.take(on_base_words, final, axis=0), expected_images.view(np.uint64)):
            wrong = ()
        else:
            wrong = np.nonzero((np.take(on_base, final, axis=0) != expected_images).any(axis=1))[0]
        if len(wrong):
            g = int(wrong[0])
            intended = net.index[tuple(int(x) for x in e[np.array(net.elements[g])])]
            found.add(ViolationKind.WRONG_DESTINATION, len(wrong), step=t, node=net.elements[int(final[g])],
                      message=(net.elements[g], net.elements[intended]),
                      detail=f"arrived at {_node_text(net.elements[int(final[g])])}, not at source * element of "
                             f"the word ({len(wrong)} copies)")
        element_count[j] += 1
        if len(msg.word) != dist0[j]:
            found.add(ViolationKind.NOT_SHORTEST, n, step=t, node=net.elements[int(final[0])],
                      message=(net.elements[0], net.elements[int(final[0])]),
                      detail=f"{len(msg.word)} hops for distance {int(dist0[j])} ({n} copies)")
        if msg.destination is not None:
            d = _expected_destination(net, msg.destination, inp.where)
            if d != j:
                found.add(ViolationKind.WRONG_DESTINATION, n, step=t, node=net.elements[int(final[0])],
                          message=(net.elements[0], net.elements[d]),
                          detail=f"arrived at {_node_text(net.elements[int(final[0])])} ({n} copies)")

    bar = _progress_bar(progress, total_hops * n, "replay (streaming)")
    bounds = np.flatnonzero(np.diff(hop_time)) + 1 if total_hops else np.zeros(0, dtype=np.int64)
    starts = np.concatenate(([0], bounds)).tolist() if total_hops else []
    ends = np.concatenate((bounds, [total_hops])).tolist() if total_hops else []
    hop_msg_l, hop_pos_l, hop_letter_l = hop_msg.tolist(), hop_pos.tolist(), hop_letter.tolist()
    for a, b in zip(starts, ends):
        t = int(hop_time[a])
        if t >= inp.T:
            late_messages.update(hop_msg_l[a:b])
        if model is PortModel.ALL_PORT:
            letters_here = hop_letter_l[a:b]
            shared = {k for k, c in Counter(letters_here).items() if c > 1}
        else:
            shared = None if b - a > 1 else set()
        step_hops: list[tuple[int, int, np.ndarray, np.ndarray]] = []
        for h in range(a, b):
            m, i, k = hop_msg_l[h], hop_pos_l[h], hop_letter_l[h]
            row = position[slot_of[m]]
            contested = k in shared if shared is not None else True
            if not contested:  # the fast path: one gather, in place
                if i == 0:
                    row[:] = succ[k]
                else:
                    np.take(succ[k], row, out=row, mode="clip")
                there = row
            else:
                here = sources.copy() if i == 0 else row.copy()
                there = succ[k][here]
                hop = (here, there, m, k, t, step_hops, net, message_pair)
                if model is PortModel.ALL_PORT:
                    _claim(found, ViolationKind.LINK_CAPACITY, link_stamp[k], here, hop)
                else:
                    _claim(found, ViolationKind.SEND_PORT, send_stamp, here, hop)
                    _claim(found, ViolationKind.RECEIVE_PORT, recv_stamp, there, hop)
                step_hops.append((m, k, here, there))
                row[:] = there
                there = row
            msg = messages[m]
            if i + 1 < len(msg.word):
                next_t = msg.times[i + 1]
                if next_t > t + 1:  # waits at `there` during steps t+1 .. next_t-1
                    buffers.wait(there, next_t - 1)
            else:
                finish(m, there, t)
        link_use[t] += (b - a) * n
        buffers.close_step(t)
        if bar is not None:
            bar.update((b - a) * n)
    if bar is not None:
        bar.close()

    _report_late(found, net, messages, late_messages, inp.T, message_pair)

    # ordered pairs (g, g*x): x a target element iff the pair is a target pair
    if inp.exchange is Exchange.TOTAL:
        target = np.ones(n, dtype=bool)
        target[0] = False
    else:
        target = dist0 % 2 == 1
    delivered = n * int(np.count_nonzero(target & (element_count == 1)))
    _element_pair_violations(found, net, generators, target, element_count)
    expected = n * int(dist0[target].sum(dtype=np.int64))
    return ReplayReport(
        network=inp.network, exchange=inp.exchange.value, model=model, engine="streaming",
        source_format=inp.source_format.value, nodes=n, links=n * degree, messages=n * len(messages),
        claimed_T=inp.T, completion_time=completion, transmissions=int(link_use.sum()),
        expected_transmissions=expected, max_buffer=buffers.max_buffer, delivered=delivered,
        target_pairs=n * int(np.count_nonzero(target)), violations=found.items, violation_counts=dict(found.counts),
        link_use_per_step=link_use[:completion], seconds=time.perf_counter() - started)


def _element_pair_violations(found: _Violations, net: ReplayNetwork, generators: np.ndarray, target: np.ndarray,
                             element_count: np.ndarray) -> None:
    """Pair violations from words per element: element x stands for the N ordered pairs (u, u*x).

    Details are listed in the order of the N x N engine (by source u, then destination v)."""
    n = net.order
    for kind, mask, what in (
        (ViolationKind.MISSING, target & (element_count == 0), "never delivered"),
        (ViolationKind.DUPLICATE, target & (element_count > 1), "delivered more than once"),
        (ViolationKind.NOT_TARGET, ~target & (element_count > 0), "delivered, but not a target pair of the exchange"),
    ):
        xs = np.nonzero(mask)[0]
        if not len(xs):
            continue
        total = n * len(xs)
        kept = 0
        perms = [np.array(net.elements[x]) for x in xs.tolist()]
        for u in range(n):
            if kept >= DETAIL_LIMIT:
                break
            pu = np.array(net.elements[u])
            vs = sorted((net.index[tuple(int(y) for y in p[pu])], x) for x, p in zip(xs.tolist(), perms))
            for v, x in vs[:DETAIL_LIMIT - kept]:
                found.add(kind, node=net.elements[v], message=(net.elements[u], net.elements[v]),
                          detail=f"{what} ({int(element_count[x])} times)")
                kept += 1
        found.count_only(kind, total - kept)


# ============================================================================ reference replay

def replay_reference(inp: ReplayInput, model: PortModel | str = PortModel.ALL_PORT) -> ReplayReport:
    """The same replay as plain Python over the networkx graph, one copy of one message at a time.

    Distances come from networkx BFS (one per source); nothing is shared with :func:`replay`
    except the loader and the BFS that numbers the nodes.  Small inputs only.
    """
    started = time.perf_counter()
    model = PortModel.parse(model)
    net = build_network(inp.letters, inp.generators, where=inp.where)
    graph = net.graph
    n = graph.number_of_nodes()
    step_to: dict[tuple[int, str], int] = {(u, d["letter"]): v for u, v, d in graph.edges(data=True)}
    dist = {u: nx.single_source_shortest_path_length(graph, u) for u in graph.nodes}
    found = _Violations()
    _lane_checks(inp, found)
    link_load: Counter = Counter()
    sends: Counter = Counter()
    receives: Counter = Counter()
    buffer: Counter = Counter()
    delivered: Counter = Counter()
    transmissions = 0
    completion = 0
    first_user: dict[tuple, tuple[int, int]] = {}
    for m, msg in enumerate(inp.messages):
        letters = [inp.letters[k] for k in msg.word]
        for source in range(n):
            node = source
            for i, (s, t) in enumerate(zip(letters, msg.times)):
                if i and t > msg.times[i - 1] + 1:
                    for wait in range(msg.times[i - 1] + 1, t):
                        buffer[(wait, node)] += 1
                nxt = step_to[(node, s)]
                transmissions += 1
                completion = max(completion, t + 1)
                if model is PortModel.ALL_PORT:
                    link_load[(t, node, s)] += 1
                    first_user.setdefault((t, node, s), (m, source))
                else:
                    sends[(t, node)] += 1
                    receives[(t, nxt)] += 1
                node = nxt
            delivered[(source, node)] += 1
            if len(letters) != dist[source][node]:
                found.add(ViolationKind.NOT_SHORTEST, step=msg.times[-1], node=net.elements[node],
                          message=(net.elements[source], net.elements[node]),
                          detail=f"{len(letters)} hops for distance {dist[source][node]}")
            if msg.destination is not None:
                e = net.index[tuple(msg.destination)]
                intended = source
                for k in net.bfs_word(e):
                    intended = step_to[(intended, inp.letters[k])]
                if intended != node:
                    found.add(ViolationKind.WRONG_DESTINATION, step=msg.times[-1], node=net.elements[node],
                              message=(net.elements[source], net.elements[intended]),
                              detail=f"arrived at {_node_text(net.elements[node])}")
        if msg.times[-1] >= inp.T:
            found.add(ViolationKind.LATE, n, step=msg.times[-1], node=net.elements[0],
                      detail=f"the last hop is at step {msg.times[-1]}, but T = {inp.T}")
    for load, kind in ((link_load, ViolationKind.LINK_CAPACITY), (sends, ViolationKind.SEND_PORT),
                       (receives, ViolationKind.RECEIVE_PORT)):
        for key, count in sorted(load.items()):
            if count > 1:
                found.add(kind, count - 1, step=key[0], node=net.elements[key[1]],
                          detail=f"{count} messages in one step")
    for u in range(n):
        for v in range(n):
            is_target = u != v and (inp.exchange is Exchange.TOTAL or dist[u][v] % 2 == 1)
            c = delivered[(u, v)]
            kind = (ViolationKind.MISSING if is_target and c == 0 else ViolationKind.DUPLICATE if is_target and c > 1
                    else ViolationKind.NOT_TARGET if not is_target and c else None)
            if kind is not None:
                found.add(kind, node=net.elements[v], message=(net.elements[u], net.elements[v]),
                          detail=f"delivered {c} times")
    pairs = [(u, v) for u in range(n) for v in range(n)
             if u != v and (inp.exchange is Exchange.TOTAL or dist[u][v] % 2 == 1)]
    return ReplayReport(
        network=inp.network, exchange=inp.exchange.value, model=model, engine="reference",
        source_format=inp.source_format.value, nodes=n, links=graph.number_of_edges(),
        messages=n * len(inp.messages), claimed_T=inp.T, completion_time=completion, transmissions=transmissions,
        expected_transmissions=sum(dist[u][v] for u, v in pairs), max_buffer=max(buffer.values(), default=0),
        delivered=sum(1 for p in pairs if delivered[p] == 1), target_pairs=len(pairs), violations=found.items,
        violation_counts=dict(found.counts),
        link_use_per_step=np.bincount([t for (t, _, _) in link_load.elements()] if model is PortModel.ALL_PORT
                                      else [t for (t, _) in sends.elements()], minlength=completion)[:completion],
        seconds=time.perf_counter() - started)


# ============================================================================ front doors

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


def plot_utilization(report_or_data: ReplayReport | Mapping[str, Any] | str | Path, png_path: str | Path,
                     model: PortModel | str | None = None) -> Path:
    """Draw the link utilisation per step (transmissions / capacity) to a PNG file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if isinstance(report_or_data, ReplayReport):
        report = report_or_data
    elif isinstance(report_or_data, (str, Path)):
        report = replay_file(report_or_data, model)
    else:
        report = replay_data(report_or_data, model)
    use = report.link_use_per_step if report.link_use_per_step is not None else np.zeros(0)
    share = use / max(report.capacity_per_step, 1)
    fig, ax = plt.subplots(figsize=(9, 3.2))
    steps = np.arange(len(share))
    if len(share) > 400:
        ax.plot(steps, share, linewidth=0.6)
    else:
        ax.bar(steps, share, width=1.0)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("step")
    unit = "directed links" if report.model is PortModel.ALL_PORT else "node send ports"
    ax.set_ylabel(f"share of {unit} busy")
    ax.set_title(f"{report.network} ({report.model.value}): {report.transmissions} transmissions in "
                 f"{report.completion_time} steps, mean {share.mean() if len(share) else 0:.3f}")
    fig.tight_layout()
    png_path = Path(png_path)
    png_path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png_path, dpi=110)
    plt.close(fig)
    return png_path
