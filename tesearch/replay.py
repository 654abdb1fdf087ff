"""The independent whole-network simulator: every node, every message, every step.

A table (tesearch-table v1) or a timed schedule (tesearch-schedule v1, see
``docs/schedule-format.md``) is a claim about what a whole Cayley network does.
This module checks the claim by running it, sharing no code with the search or
the Theorem-1 verifier: it imports neither z3 nor sympy nor any tesearch module
that does (only :mod:`tesearch.errors`).  It reads the JSON itself, rebuilds the
group from the generators alone by its own breadth-first search, builds the
network as a networkx DiGraph, computes every distance by its own all-pairs BFS,
and replays the locally defined algorithm (seed 003 Theorem 1, converse part):
at each step every node ``g`` sends its own messages whose words begin in that
column and forwards along the next letter what it received.  A schedule may
hold a message at an intermediate node (a buffer); the largest buffer is
reported.

Two engines do the same thing:

- :func:`replay` is vectorised: for every hop of every message of the
  identity, the positions of all N copies (one per source node) are one numpy
  array, moved by one gather through the successor table of the letter; link,
  port and buffer usage are stamped or counted over all nodes at once.
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
import heapq
import itertools
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import networkx as nx
import numpy as np

from tesearch.errors import FormatError, TesearchError, read_json_file

TABLE_FORMAT = "tesearch-table"
SCHEDULE_FORMAT = "tesearch-schedule"
FORMAT_VERSION = 1
_HEADER_KEYS = ("format", "format_version", "network", "exchange", "generators", "T")

#: Largest network the vectorised replay builds (it keeps N x N distance and pair-count matrices).
MAX_REPLAY_NODES = 12_000
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
    graph: nx.DiGraph  # edge (g, g*s) with attribute letter = s

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
    """BFS from the identity permutation; node g -> g*s with (p*q)[i] = q[p[i]]."""
    points = len(generators[0])
    identity = tuple(range(points))
    elements = [identity]
    index = {identity: 0}
    parent = [-1]
    parent_letter = [-1]
    succ: list[list[int]] = [[] for _ in generators]
    queue = deque([0])
    while queue:
        g = queue.popleft()
        p = elements[g]
        for k, s in enumerate(generators):
            h = tuple(s[x] for x in p)  # (p*s)[i] = s[p[i]]
            j = index.get(h)
            if j is None:
                j = len(elements)
                if j >= max_nodes:
                    raise TesearchError(f"the network has more than {max_nodes} nodes; too large for the replay",
                                        where=where)
                index[h] = j
                elements.append(h)
                parent.append(g)
                parent_letter.append(k)
                queue.append(j)
            succ[k].append(j)
    successor = np.array(succ, dtype=np.int64)
    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(elements)))
    for k, s in enumerate(letters):
        graph.add_edges_from(zip(range(len(elements)), successor[k].tolist()), letter=s)
    return ReplayNetwork(tuple(letters), tuple(elements), index, successor, np.array(parent), np.array(parent_letter),
                         graph)


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


def replay(inp: ReplayInput, model: PortModel | str = PortModel.ALL_PORT, *, progress: bool = False) -> ReplayReport:
    """Replay every copy of every message at every node, vectorised over the nodes."""
    started = time.perf_counter()
    model = PortModel.parse(model)
    net = build_network(inp.letters, inp.generators, where=inp.where)
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
    occupancy = np.zeros(n, dtype=np.int64)  # in-transit messages waiting at each node
    wait_ends: list[tuple[int, int]] = []  # heap of (last waiting step, wait id)
    waiting: dict[int, np.ndarray] = {}
    max_buffer = 0
    position: dict[int, np.ndarray] = {}  # message -> node of each copy (copy g starts at node g)
    step_hops: list[tuple[int, int, np.ndarray, np.ndarray]] = []  # this step: (message, letter, from, to)
    current_step = -1
    late_messages: set[int] = set()
    wait_ids = itertools.count()

    def message_pair(m: int, g: int) -> tuple[Perm, Perm]:
        end = g
        for k in messages[m].word:
            end = int(net.successor[k, end])
        return net.elements[g], net.elements[end]

    def close_step(t: int) -> None:
        nonlocal max_buffer
        while wait_ends and wait_ends[0][0] <= t:
            _, wid = heapq.heappop(wait_ends)
            occupancy[:] -= np.bincount(waiting.pop(wid), minlength=n)
        if waiting:
            max_buffer = max(max_buffer, int(occupancy.max()))

    bar = None
    if progress and total_hops * n > 20_000_000:
        from tqdm import tqdm

        bar = tqdm(total=total_hops * n, unit="hop", unit_scale=True, desc="replay", leave=False)
    done_since_update = 0
    for h in order.tolist():
        m, i, t = int(hop_msg[h]), int(hop_pos[h]), int(hop_time[h])
        if t != current_step:
            if current_step >= 0:
                close_step(current_step)
            current_step, step_hops = t, []
        msg = messages[m]
        k = msg.word[i]
        here = position.pop(m) if i else sources
        there = net.successor[k][here]
        if t >= inp.T:
            late_messages.add(m)
        # link capacity / ports, over all n copies at once
        if model is PortModel.ALL_PORT:
            links = here * degree + k
            clash = link_stamp[links] == t
            if clash.any():
                _report_clash(found, ViolationKind.LINK_CAPACITY, clash, here, there, m, k, t, step_hops, net,
                              message_pair)
            link_stamp[links] = t
        else:
            clash = send_stamp[here] == t
            if clash.any():
                _report_clash(found, ViolationKind.SEND_PORT, clash, here, there, m, k, t, step_hops, net,
                              message_pair)
            send_stamp[here] = t
            clash = recv_stamp[there] == t
            if clash.any():
                _report_clash(found, ViolationKind.RECEIVE_PORT, clash, here, there, m, k, t, step_hops, net,
                              message_pair)
            recv_stamp[there] = t
        step_hops.append((m, k, here, there))
        link_use[t] += here.size
        if i + 1 < len(msg.word):
            position[m] = there
            next_t = msg.times[i + 1]
            if next_t > t + 1:  # waits at `there` during steps t+1 .. next_t-1
                wid = next(wait_ids)
                waiting[wid] = there
                occupancy += np.bincount(there, minlength=n)
                heapq.heappush(wait_ends, (next_t - 1, wid))
        else:
            _deliver(found, net, dist, pair_count, msg, there, len(msg.word), t, inp.where)
        if bar is not None:
            done_since_update += here.size
            if done_since_update > 5_000_000:
                bar.update(done_since_update)
                done_since_update = 0
    if current_step >= 0:
        close_step(current_step)
    if bar is not None:
        bar.update(done_since_update)
        bar.close()

    for m in sorted(late_messages):
        msg = messages[m]
        found.add(ViolationKind.LATE, n, step=msg.times[-1], node=net.elements[0], message=message_pair(m, 0),
                  detail=f"the last hop is at step {msg.times[-1]}, but T = {inp.T} (steps 0..{inp.T - 1}); "
                         f"all {n} copies are late")

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
        expected_transmissions=expected, max_buffer=max_buffer, delivered=delivered,
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
                progress: bool = False) -> ReplayReport:
    """Replay a decoded table or schedule; ``model=None`` takes the file's ``model`` key, else all-port."""
    inp = input_from_json(dict(data), where)
    return replay(inp, model or inp.model_hint or PortModel.ALL_PORT, progress=progress)


def replay_file(path: str | Path, model: PortModel | str | None = None, *, progress: bool = False) -> ReplayReport:
    """Load ``path`` (tesearch-table v1 or tesearch-schedule v1) and replay it."""
    inp = load_input(path)
    return replay(inp, model or inp.model_hint or PortModel.ALL_PORT, progress=progress)


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
