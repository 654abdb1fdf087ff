"""The streaming engine: the same hop-by-hop simulation in N x |S| memory (no N x N array)."""

from __future__ import annotations

import heapq
import time
from collections import Counter
from typing import Sequence

import numpy as np

from tesearch.errors import TesearchError
from tesearch.kernel.graph import RebuiltNetwork
from tesearch.kernel.loader import LoadedInput, PortModel
from tesearch.replay.report import DETAIL_LIMIT, ReplayReport, ViolationKind, _node_text, _Violations
from tesearch.replay.steps import (_Buffers, _claim, _expected_destination, _lane_checks, _message_pair_of,
                                   _progress_bar, _report_late)
from tesearch.terms import Exchange


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


def _replay_streaming(inp: LoadedInput, model: PortModel, net: RebuiltNetwork, *, progress: bool,
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


def _element_pair_violations(found: _Violations, net: RebuiltNetwork, generators: np.ndarray, target: np.ndarray,
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
