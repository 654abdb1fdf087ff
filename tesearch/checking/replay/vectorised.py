"""The vectorised engine: every copy of a hop is one numpy gather; N x N distance and pair matrices."""

from __future__ import annotations

import time

import numpy as np

from tesearch.running.errors import TesearchError
from tesearch.checking.kernel.graph import RebuiltNetwork
from tesearch.checking.kernel.loader import LoadedInput, LoadedMessage, PortModel
from tesearch.checking.replay.report import DETAIL_LIMIT, ReplayReport, ViolationKind, node_text, Violations
from tesearch.checking.replay.steps import (Buffers, claim_links, expected_destination, lane_checks, message_pair_of,
                                   progress_bar, report_late)
from tesearch.running.terms import Exchange


def all_pairs_distances(net: RebuiltNetwork) -> np.ndarray:
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


def replay_vectorised(inp: LoadedInput, model: PortModel, net: RebuiltNetwork, *, progress: bool,
                       started: float) -> ReplayReport:
    """The N x N engine: all-pairs distances and an N x N pair-count matrix.

    Long because the hop loop, the link stamps and the pair count share N x N and N x |S| arrays allocated
    once at the start (the streaming engine splits the same work into :class:`~tesearch.checking.replay.streaming.\
_StreamingRun`)."""
    n, degree = net.order, net.degree
    dist = all_pairs_distances(net)
    found = Violations()
    lane_checks(inp, found)
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
    buffers = Buffers(n)
    position: dict[int, np.ndarray] = {}  # message -> node of each copy (copy g starts at node g)
    step_hops: list[tuple[int, int, np.ndarray, np.ndarray]] = []  # this step: (message, letter, from, to)
    current_step = -1
    late_messages: set[int] = set()
    message_pair = message_pair_of(net, messages)
    bar = progress_bar(progress, total_hops * n, "replay")
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
            claim_links(found, ViolationKind.LINK_CAPACITY, link_stamp, here * degree + k, hop)
        else:
            claim_links(found, ViolationKind.SEND_PORT, send_stamp, here, hop)
            claim_links(found, ViolationKind.RECEIVE_PORT, recv_stamp, there, hop)
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

    report_late(found, net, messages, late_messages, inp.T, message_pair)

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


def _deliver(found: Violations, net: RebuiltNetwork, dist: np.ndarray, pair_count: np.ndarray, msg: LoadedMessage,
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
        e = expected_destination(net, msg.destination, where)
        intended = sources
        for k in net.bfs_word(e):
            intended = net.successor[k][intended]
        wrong = np.nonzero(intended != final)[0]
        if len(wrong):
            g = int(wrong[0])
            found.add(ViolationKind.WRONG_DESTINATION, len(wrong), step=t, node=net.elements[int(final[g])],
                      message=(net.elements[g], net.elements[int(intended[g])]),
                      detail=f"arrived at {node_text(net.elements[int(final[g])])} ({len(wrong)} copies)")


def _pair_violations(found: Violations, net: RebuiltNetwork, target: np.ndarray, counts: np.ndarray) -> None:
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
