"""The slow reference: the same FIFO model over every node and every message, in plain Python.

Nothing is shared with :mod:`tesearch.baselines.fifo` or its Cayley table: the
group is rebuilt here by a BFS over permutation tuples, routes are recomputed
(first shortest word in letter order; per-axis words for dimension-ordered
routing), and each directed link ``(node, letter)`` has its own deque.  Every
hop is logged so that tests can check link capacity, delivery and paths.
Small networks only (a few tens of thousands of messages).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Mapping, Sequence

from tesearch.running.errors import SizeLimitError
from tesearch.networks.families import Network
from tesearch.checking.kernel.graph import Perm

#: the reference refuses networks with more ordered pairs than this
MAX_REFERENCE_MESSAGES = 200_000



def _compose(p: Perm, q: Perm) -> Perm:
    return tuple(q[i] for i in p)


def _first_words(letters: Sequence[str], gens: Mapping[str, Perm]) -> dict[Perm, tuple[str, ...]]:
    """Element -> lexicographically first shortest word, by BFS in canonical (lexicographic) layer order."""
    identity = tuple(range(len(next(iter(gens.values())))))
    words = {identity: ()}
    layer = [identity]
    while layer:
        nxt = []
        for g in layer:
            for s in letters:
                h = _compose(g, gens[s])
                if h not in words:
                    words[h] = words[g] + (s,)
                    nxt.append(h)
        layer = nxt
    return words


@dataclass(frozen=True)
class ReferenceRun:
    """Everything the reference saw: per message (source, destination) its hops (node, letter, step)."""

    nodes: tuple[Perm, ...]
    letters: tuple[str, ...]
    generators: Mapping[str, Perm]
    routes: Mapping[Perm, tuple[str, ...]]  # relative destination -> word
    distance: Mapping[Perm, int]  # relative destination -> distance
    hops: Mapping[tuple[Perm, Perm], list[tuple[Perm, str, int]]]
    steps: int
    peak_buffer: int
    transmissions: int


def _routes(network: Network, dimension_ordered: bool) -> dict[Perm, tuple[str, ...]]:
    words = _first_words(network.letters, network.generators)
    if not dimension_ordered:
        return words
    per_axis = []
    offset = 0
    for factor in network.factors:
        per_axis.append((offset, factor.points, _first_words(factor.letters, factor.generators)))
        offset += factor.points
    routes = {}
    for h in words:
        word: tuple[str, ...] = ()
        for start, points, fwords in per_axis:
            word += fwords[tuple(x - start for x in h[start:start + points])]
        routes[h] = word
    return routes


def simulate_reference(network: Network, *, dimension_ordered: bool = False, farthest_first: bool = True) \
        -> ReferenceRun:
    """Simulate every node's FIFO link queues (the model of :mod:`tesearch.baselines.fifo`)."""
    letters = network.letters
    gens = {s: tuple(network.generators[s]) for s in letters}
    words = _first_words(letters, gens)
    nodes = tuple(words)  # BFS order: by distance, then canonical word
    if len(nodes) * (len(nodes) - 1) > MAX_REFERENCE_MESSAGES:
        raise SizeLimitError(f"{network.spec}: the reference simulator takes at most "
                             f"{MAX_REFERENCE_MESSAGES} messages")
    routes = _routes(network, dimension_ordered)
    queues: dict[tuple[Perm, str], deque] = {(g, s): deque() for g in nodes for s in letters}
    hops: dict[tuple[Perm, Perm], list[tuple[Perm, str, int]]] = {}
    own = nodes[::-1] if farthest_first else nodes
    for g in nodes:
        for h in own:
            if not routes[h]:
                continue
            dest = _compose(g, h)
            hops[(g, dest)] = []
            queues[(g, routes[h][0])].append((g, dest, routes[h], 0))
    pending = len(hops)
    step = 0
    peak_buffer = 0
    transmissions = 0
    while pending:
        sent = []
        for s in letters:  # arrivals join queues in the order of the letter they came across
            for g in nodes:
                queue = queues[(g, s)]
                if queue:
                    source, dest, word, k = queue.popleft()
                    hops[(source, dest)].append((g, s, step))
                    transmissions += 1
                    sent.append((_compose(g, gens[s]), source, dest, word, k + 1))
        for there, source, dest, word, k in sent:
            if k == len(word):
                assert there == dest
                pending -= 1
            else:
                queues[(there, word[k])].append((source, dest, word, k))
        step += 1
        # in the next step: transit messages held at a node and not sent (all but the queue heads)
        waiting: dict[Perm, int] = {}
        for (g, s), queue in queues.items():
            transit = sum(1 for source, *_ in queue if source != g)
            head_transit = 1 if queue and queue[0][0] != g else 0
            waiting[g] = waiting.get(g, 0) + transit - head_transit
        peak_buffer = max(peak_buffer, max(waiting.values()))
    distance = {h: len(w) for h, w in words.items()}
    return ReferenceRun(nodes, letters, gens, routes, distance, hops, step, peak_buffer, transmissions)
