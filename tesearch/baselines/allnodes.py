"""The FIFO model of :mod:`tesearch.baselines.fifo` over every node and every message, vectorised with numpy.

No symmetry is used: all ``N (N - 1)`` messages are simulated.  Each directed
link ``(g, s)`` (index ``g * degree + s``) owns a slice of one slot array, sized
by the number of messages its routes send across it; a message that joins the
queue gets the next ticket (slot) of that link, and at each step every link
with ``head < tail`` sends the message in slot ``head``.  Arrivals that join one
queue in the same step take tickets in the order of the letter they came across,
own messages at step 0 in injection order: the tie rules of :mod:`.fifo`.  Hop
times are kept for every message, so buffers are counted per node from them.

Memory (:func:`memory_estimate`, checked before anything is allocated): about
``8 N status + N (N - 1) (96 + 4 diameter)`` bytes: star-6 90 MB, hypercube-10
190 MB, hypercube-12 3.5 GB, star-7 4.5 GB.  It is the scale check of the one-node engine; the reports use
the one-node engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from tesearch.running import limits
from tesearch.baselines.cayley import CayleyTable
from tesearch.baselines.fifo import InjectionOrder, injection_sequence

Word = tuple[int, ...]


@dataclass(frozen=True)
class AllNodesRun:
    """Steps, the largest buffer at any node in any step, transmissions, and every hop time."""

    steps: int
    peak_buffer: int
    transmissions: int
    hop_times: np.ndarray  # messages x diameter, -1 past the end of a word; message = source * (N-1) + rank
    destination: np.ndarray  # relative destination (element index) of each message


def memory_estimate(nodes: int, status: int, diameter: int) -> int:
    """Bytes: the slot array (8 per hop of every message), per-message state and hop times, sort temporaries."""
    return 8 * nodes * status + nodes * (nodes - 1) * (96 + 4 * diameter)


def successors(table: CayleyTable, generators: Mapping[str, Sequence[int]]) -> np.ndarray:
    """``right[k, i]`` = index of element i * letter k."""
    right = np.empty((table.degree, table.order), dtype=np.int64)
    for k, s in enumerate(table.letters):
        images = np.asarray(generators[s], dtype=np.int32)[table.elements]
        right[k] = [table.index[tuple(row.tolist())] for row in images]
    return right


def simulate_all_nodes(table: CayleyTable, generators: Mapping[str, Sequence[int]], words: Sequence[Word],
                       order: InjectionOrder = InjectionOrder.FARTHEST_FIRST) -> AllNodesRun:
    """Run every node's FIFO link queues; ``words[h]`` is the route to relative destination h."""
    n, degree = table.order, table.degree
    lengths = np.array([len(w) for w in words], dtype=np.int64)
    diameter = int(lengths.max()) if n > 1 else 0
    messages = n * (n - 1)
    limits.require_memory(memory_estimate(n, int(lengths.sum()), diameter), "the all-node FIFO simulation")
    padded = np.full((n, diameter + 1), -1, dtype=np.int64)
    for h, w in enumerate(words):
        padded[h, :len(w)] = w
    right = successors(table, generators)

    rank_to_h = np.array(list(injection_sequence(n, order)), dtype=np.int64)
    source = np.repeat(np.arange(n, dtype=np.int64), n - 1)
    dest = np.tile(rank_to_h, n)  # message m = source * (n-1) + injection rank
    # left-invariance of the routes: node g's message to g*h follows words[h] from g
    position = source.copy()
    hops_done = np.zeros(messages, dtype=np.int64)
    hop_times = np.full((messages, diameter), -1, dtype=np.int32)

    # slots: each link's share = the number of hops its routes put on it
    link_use = np.zeros(n * degree, dtype=np.int64)
    where, alive = position.copy(), np.ones(messages, dtype=bool)
    for j in range(diameter):
        alive &= lengths[dest] > j
        letters = padded[dest[alive], j]
        np.add.at(link_use, where[alive] * degree + letters, 1)
        where[alive] = right[letters, where[alive]]
    offset = np.concatenate(([0], np.cumsum(link_use)[:-1]))
    slots = np.full(int(link_use.sum()), -1, dtype=np.int64)
    head = np.zeros(n * degree, dtype=np.int64)
    tail = np.zeros(n * degree, dtype=np.int64)

    def join(ids: np.ndarray, tie: np.ndarray) -> None:
        """Messages ``ids`` join the queues of their next letters, ties in the order of ``tie``."""
        links = position[ids] * degree + padded[dest[ids], hops_done[ids]]
        sort = np.lexsort((tie, links))
        ids, links = ids[sort], links[sort]
        first = np.searchsorted(links, links, side="left")
        ticket = tail[links] + np.arange(len(ids)) - first
        slots[offset[links] + ticket] = ids
        np.add.at(tail, links, 1)

    all_ids = np.arange(messages, dtype=np.int64)
    join(all_ids, all_ids % (n - 1) if n > 1 else all_ids)  # own messages: injection rank
    pending = messages
    step = 0
    with limits.phase("baselines: all-node FIFO", total=messages):
        while pending:
            busy = np.nonzero(head < tail)[0]
            sent = slots[offset[busy] + head[busy]]
            head[busy] += 1
            letters = busy % degree
            hop_times[sent, hops_done[sent]] = step
            position[sent] = right[letters, position[sent]]
            hops_done[sent] += 1
            moving = hops_done[sent] < lengths[dest[sent]]
            pending -= int((~moving).sum())
            if moving.any():
                join(sent[moving], letters[moving])
            step += 1
            limits.advance(messages - pending)
    # buffers: message waits at the node it reached after hop i during steps strictly between hops i and i+1
    wait = np.zeros((n, step + 1), dtype=np.int64)
    node = source.copy()
    for i in range(diameter - 1):
        has_next = hop_times[:, i + 1] >= 0
        letters = padded[dest, i]
        node = np.where(hop_times[:, i] >= 0, right[np.maximum(letters, 0), node], node)
        a, b = hop_times[has_next, i].astype(np.int64), hop_times[has_next, i + 1].astype(np.int64)
        gap = b > a + 1
        at = node[has_next][gap]
        np.add.at(wait, (at, a[gap] + 1), 1)
        np.add.at(wait, (at, b[gap]), -1)
    peak = int(np.cumsum(wait, axis=1).max()) if step else 0
    return AllNodesRun(step, peak, int(lengths[dest].sum()), hop_times, dest)
