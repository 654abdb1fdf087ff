"""The streaming engine: the same hop-by-hop simulation in N x |S| memory (no N x N array).

Memory N x |S| (successors, link stamps) plus N per in-flight message.

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

:func:`replay_streaming` runs the steps in order; the state of one run (positions, stamps,
buffers, words per element) is a :class:`_StreamingRun`, and the destination test of every copy
is a :class:`_DestinationCheck`.
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from typing import Sequence

import numpy as np

from tesearch.running.errors import TesearchError
from tesearch.checking.kernel.graph import RebuiltNetwork
from tesearch.checking.kernel.loader import LoadedInput, PortModel
from tesearch.checking.replay.report import DETAIL_LIMIT, ReplayReport, ViolationKind, node_text, Violations
from tesearch.checking.replay.steps import (Buffers, claim_links, expected_destination, lane_checks, message_pair_of,
                                   progress_bar, report_late)
from tesearch.running.terms import Exchange


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


class _DestinationCheck:
    """Which copies of a message did not end at source * element: permutations compared on a base.

    Copy g must end at g*e, i.e. final(g)[b] == e[g[b]] for every point b of a base (points whose images
    separate all N group elements).  The images of the base are kept node by node; with one byte per point
    the rows compare as uint64 words, and large networks map two base images at once through a 65536-entry
    table."""

    def __init__(self, net: RebuiltNetwork, points: int):
        elements = np.array(net.elements, dtype=np.uint8 if points <= 256 else np.uint16)
        base = _element_base(elements)
        if points <= 256:  # pad to whole 8-byte words (repeating a base point) so rows compare as uint64
            base = np.concatenate((base, np.full(-len(base) % 8, base[-1], dtype=base.dtype)))
        self.points = points
        self.on_base = np.ascontiguousarray(elements[:, base])  # (N, |base|): images of the base points
        self.word_view = self.on_base.dtype == np.uint8
        if self.word_view:
            self.on_base_words = self.on_base.view(np.uint64)
        self.pair_lut = self.word_view and net.order * len(base) >= 1 << 18
        if self.pair_lut:
            self.on_base_pairs = self.on_base.view(np.uint16)
            self.low_byte = np.arange(1 << 16) & 0xFF
            self.high_byte = np.arange(1 << 16) >> 8

    def wrong_copies(self, e: np.ndarray, final: np.ndarray):
        """The copies g (sources) whose final node is not g*e (an empty tuple when all are right)."""
        if self.pair_lut:
            e256 = np.zeros(256, dtype=np.uint16)
            e256[:self.points] = e
            lut = np.take(e256, self.low_byte) | (np.take(e256, self.high_byte) << 8)
            expected_images = np.take(lut, self.on_base_pairs).view(np.uint8)
        else:
            expected_images = np.take(e.astype(self.on_base.dtype), self.on_base)
        if self.word_view and np.array_equal(np.take(self.on_base_words, final, axis=0),
                                             expected_images.view(np.uint64)):
            return ()
        return np.nonzero((np.take(self.on_base, final, axis=0) != expected_images).any(axis=1))[0]


def _hops_in_step_order(messages) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every hop of the identity's messages, sorted by (step, message, position): (message, position in its
    word, step, letter) arrays."""
    hop_counts = np.array([len(m.word) for m in messages], dtype=np.int64)
    total_hops = int(hop_counts.sum())
    hop_msg = np.repeat(np.arange(len(messages)), hop_counts)
    hop_pos = np.concatenate([np.arange(c) for c in hop_counts]) if total_hops else np.zeros(0, dtype=np.int64)
    hop_time = np.fromiter((t for m in messages for t in m.times), dtype=np.int64, count=total_hops)
    hop_letter = np.fromiter((k for m in messages for k in m.word), dtype=np.int64, count=total_hops)
    order = np.lexsort((hop_pos, hop_msg, hop_time))
    return hop_msg[order], hop_pos[order], hop_time[order], hop_letter[order]


def _position_slots(messages, n: int, where: str) -> tuple[np.ndarray, np.ndarray]:
    """(slot per message, the position arrays): one int32 row of N positions per message in flight (from its
    first hop to its last), rows reused as messages finish; refused over :data:`STREAMING_SLOT_BYTES`."""
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
                            f"{STREAMING_SLOT_BYTES >> 30} GB of positions", where=where)
    return slot_of, np.zeros((max(n_slots, 1), n), dtype=np.int32)


class _StreamingRun:
    """The state of one streaming replay: copy positions, link and port stamps, buffers, words per element
    and the violations found; :meth:`advance` runs the hops of one step, :meth:`finish` checks a message
    whose last hop is done."""

    def __init__(self, inp: LoadedInput, model: PortModel, net: RebuiltNetwork, found: Violations):
        n, degree = net.order, net.degree
        self.inp, self.model, self.net, self.found = inp, model, net, found
        self.messages = inp.messages
        self.succ = np.ascontiguousarray(net.successor, dtype=np.int32)
        for k in range(degree):
            if np.bincount(self.succ[k], minlength=n).max() != 1:
                raise TesearchError(f"generator {net.letters[k]!r} does not permute the nodes", where=inp.where)
        self.destinations = _DestinationCheck(net, len(inp.generators[0]))
        self.generators = np.array(inp.generators, dtype=np.int64)
        self.slot_of, self.position = _position_slots(self.messages, n, inp.where)
        self.link_stamp = np.full((degree, n), -1, dtype=np.int32) if model is PortModel.ALL_PORT else None
        self.send_stamp = np.full(n, -1, dtype=np.int32)
        self.recv_stamp = np.full(n, -1, dtype=np.int32)
        self.element_count = np.zeros(n, dtype=np.int64)  # words per group element
        self.buffers = Buffers(n)
        self.sources = np.arange(n, dtype=np.int32)
        self.message_pair = message_pair_of(net, self.messages)

    def advance(self, t: int, hops: list[tuple[int, int, int]]) -> None:
        """Move every copy of the step-``t`` hops (message, position in its word, letter) one link on, claim
        the links (or ports) the contested ones use, record waits, and finish the messages that arrive."""
        net, messages, succ = self.net, self.messages, self.succ
        if self.model is PortModel.ALL_PORT:
            shared = {k for k, c in Counter(k for _, _, k in hops).items() if c > 1}
        else:
            shared = None if len(hops) > 1 else set()
        step_hops: list[tuple[int, int, np.ndarray, np.ndarray]] = []
        for m, i, k in hops:
            row = self.position[self.slot_of[m]]
            contested = k in shared if shared is not None else True
            if not contested:  # the fast path: one gather, in place
                if i == 0:
                    row[:] = succ[k]
                else:
                    np.take(succ[k], row, out=row, mode="clip")
                there = row
            else:
                here = self.sources.copy() if i == 0 else row.copy()
                there = succ[k][here]
                hop = (here, there, m, k, t, step_hops, net, self.message_pair)
                if self.model is PortModel.ALL_PORT:
                    claim_links(self.found, ViolationKind.LINK_CAPACITY, self.link_stamp[k], here, hop)
                else:
                    claim_links(self.found, ViolationKind.SEND_PORT, self.send_stamp, here, hop)
                    claim_links(self.found, ViolationKind.RECEIVE_PORT, self.recv_stamp, there, hop)
                step_hops.append((m, k, here, there))
                row[:] = there
                there = row
            msg = messages[m]
            if i + 1 < len(msg.word):
                next_t = msg.times[i + 1]
                if next_t > t + 1:  # waits at `there` during steps t+1 .. next_t-1
                    self.buffers.wait(there, next_t - 1)
            else:
                self.finish(m, there, t)
        self.buffers.close_step(t)

    def finish(self, m: int, final: np.ndarray, t: int) -> None:
        """Message ``m`` made its last hop at step ``t`` (copy g is at node ``final[g]``): count its element,
        and report copies not at g*e, a word longer than the distance, a stated destination missed."""
        net, found, n = self.net, self.found, self.net.order
        msg = self.messages[m]
        e = _word_element(self.generators, msg.word)
        j = net.index.get(tuple(int(x) for x in e))
        if j is None:  # a product of generators is always an element
            raise TesearchError(f"the word of message {m} is not an element of the group", where=self.inp.where)
        wrong = self.destinations.wrong_copies(e, final)
        if len(wrong):
            g = int(wrong[0])
            intended = net.index[tuple(int(x) for x in e[np.array(net.elements[g])])]
            found.add(ViolationKind.WRONG_DESTINATION, len(wrong), step=t, node=net.elements[int(final[g])],
                      message=(net.elements[g], net.elements[intended]),
                      detail=f"arrived at {node_text(net.elements[int(final[g])])}, not at source * element of "
                             f"the word ({len(wrong)} copies)")
        self.element_count[j] += 1
        if len(msg.word) != net.depth[j]:
            found.add(ViolationKind.NOT_SHORTEST, n, step=t, node=net.elements[int(final[0])],
                      message=(net.elements[0], net.elements[int(final[0])]),
                      detail=f"{len(msg.word)} hops for distance {int(net.depth[j])} ({n} copies)")
        if msg.destination is not None:
            d = expected_destination(net, msg.destination, self.inp.where)
            if d != j:
                found.add(ViolationKind.WRONG_DESTINATION, n, step=t, node=net.elements[int(final[0])],
                          message=(net.elements[0], net.elements[d]),
                          detail=f"arrived at {node_text(net.elements[int(final[0])])} ({n} copies)")


def replay_streaming(inp: LoadedInput, model: PortModel, net: RebuiltNetwork, *, progress: bool,
                      started: float) -> ReplayReport:
    """The streaming engine (what it checks and how: the module's documentation): the steps in order, then
    lateness and the delivery counts from words per element."""
    n, degree = net.order, net.degree
    found = Violations()
    lane_checks(inp, found)
    messages = inp.messages
    run = _StreamingRun(inp, model, net, found)
    hop_msg, hop_pos, hop_time, hop_letter = _hops_in_step_order(messages)
    total_hops = len(hop_msg)
    completion = int(hop_time.max()) + 1 if total_hops else 0
    link_use = np.zeros(max(completion, 1), dtype=np.int64)
    late_messages: set[int] = set()

    bar = progress_bar(progress, total_hops * n, "replay (streaming)")
    bounds = np.flatnonzero(np.diff(hop_time)) + 1 if total_hops else np.zeros(0, dtype=np.int64)
    starts = np.concatenate(([0], bounds)).tolist() if total_hops else []
    ends = np.concatenate((bounds, [total_hops])).tolist() if total_hops else []
    hops = list(zip(hop_msg.tolist(), hop_pos.tolist(), hop_letter.tolist()))
    for a, b in zip(starts, ends):
        t = int(hop_time[a])
        if t >= inp.T:
            late_messages.update(m for m, _, _ in hops[a:b])
        run.advance(t, hops[a:b])
        link_use[t] += (b - a) * n
        if bar is not None:
            bar.update((b - a) * n)
    if bar is not None:
        bar.close()

    report_late(found, net, messages, late_messages, inp.T, run.message_pair)

    # ordered pairs (g, g*x): x a target element iff the pair is a target pair
    dist0 = net.depth
    if inp.exchange is Exchange.TOTAL:
        target = np.ones(n, dtype=bool)
        target[0] = False
    else:
        target = dist0 % 2 == 1
    delivered = n * int(np.count_nonzero(target & (run.element_count == 1)))
    _element_pair_violations(found, net, run.generators, target, run.element_count)
    expected = n * int(dist0[target].sum(dtype=np.int64))
    return ReplayReport(
        network=inp.network, exchange=inp.exchange.value, model=model, engine="streaming",
        source_format=inp.source_format.value, nodes=n, links=n * degree, messages=n * len(messages),
        claimed_T=inp.T, completion_time=completion, transmissions=int(link_use.sum()),
        expected_transmissions=expected, max_buffer=run.buffers.max_buffer, delivered=delivered,
        target_pairs=n * int(np.count_nonzero(target)), violations=found.items, violation_counts=dict(found.counts),
        link_use_per_step=link_use[:completion], seconds=time.perf_counter() - started)


def _element_pair_violations(found: Violations, net: RebuiltNetwork, generators: np.ndarray, target: np.ndarray,
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
