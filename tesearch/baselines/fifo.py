"""FIFO store-and-forward total exchange in the all-port step model, simulated from one node's view.

**The model.**  Every node injects all its messages at step 0; the message
from ``g`` to ``g*h`` follows the fixed word ``route[h]`` (see
:mod:`tesearch.baselines.routes`).  Each directed link ``(g, s)`` carries at
most one message per step and has a FIFO queue at ``g``: at every step it sends
the message that has waited longest in it.  A message that arrives at its
destination is delivered at once; otherwise it joins the queue of its next
letter at the end of the step.  Ties, both node-invariant:

- injection: the queue of letter ``s`` at node ``g`` starts with the messages
  whose word begins with ``s``, in ``InjectionOrder``: farthest first (the
  default, seed 000's order: decreasing canonical index, i.e. by distance and
  then by canonical word, descending) or nearest first (increasing);
- arrivals: messages that join one queue in the same step join in the order of
  the letter of the link they arrived on (letter order).

**Why one node suffices (exact).**  Left multiplication by any ``x`` maps
link ``(g, s)`` to link ``(x g, s)`` and the message ``g -> g h`` to
``x g -> x g h`` with the same word.  The initial state is invariant under it
and the rules above refer only to letters, words and arrival times, never to
node names, so the deterministic run is invariant too: at every step the queues
of node ``x`` are the ``x``-translates of the identity's (seed 000, Lemma 2, in
the all-port model).  The identity's queue entry "message of type ``h`` that
has taken ``k`` hops" stands for the copy that came from ``(route[h][:k])^-1``;
when the identity sends it across ``s``, the same step brings the translated
copy in from node ``s^-1`` across ``s``, now with ``k + 1`` hops.  So the
identity's queues, one per letter, evolve on their own, and the hop times of
its entries are the hop times of the identity's own messages.  The run is a
timed schedule of the identity's messages (tesearch-schedule v1): its link
capacity holds because each letter's queue sends one entry per step, and every
node's link use, buffer and completion time follow by translation.
:func:`tesearch.baselines.reference.simulate_reference` simulates every node
and every message and the tests hold this engine to it.

The work is the status (sum of distances) times a small constant: star-7 and
hypercube-12 take well under a second; N x degree memory for the Cayley table.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from tesearch.running import limits
Word = tuple[int, ...]


class InjectionOrder(str, enum.Enum):
    """The order of a node's own messages in its link queues at step 0."""

    FARTHEST_FIRST = "farthest-first"
    NEAREST_FIRST = "nearest-first"


@dataclass(frozen=True)
class TimedRoutes:
    """The identity's messages: ``words[h]`` (letter indices) and the step of each hop, ``times[h]``."""

    words: tuple[Word, ...]
    times: tuple[tuple[int, ...], ...]


def injection_sequence(count: int, order: InjectionOrder) -> range:
    """Element indices 1..count-1 in the order a node queues its own messages."""
    if InjectionOrder(order) is InjectionOrder.FARTHEST_FIRST:
        return range(count - 1, 0, -1)
    return range(1, count)


def simulate_fifo(words: Sequence[Word], degree: int, order: InjectionOrder = InjectionOrder.FARTHEST_FIRST) \
        -> TimedRoutes:
    """Run the FIFO link queues of the identity node (element 0's word is empty) and time every hop."""
    queues: list[deque[tuple[int, int]]] = [deque() for _ in range(degree)]
    for h in injection_sequence(len(words), order):
        queues[words[h][0]].append((h, 0))
    times: list[list[int]] = [[] for _ in words]
    pending = sum(len(q) for q in queues)
    step = hops = 0
    with limits.phase("baselines: FIFO links", total=sum(len(w) for w in words)):
        while pending:
            sent = []
            for queue in queues:  # letter order: the arrival tie-break
                if queue:
                    h, k = queue.popleft()
                    times[h].append(step)
                    sent.append((h, k + 1))
            for h, k in sent:  # k: hops taken so far
                if k < len(words[h]):
                    queues[words[h][k]].append((h, k))
                else:
                    pending -= 1
            step += 1
            hops += len(sent)
            if step % 4096 == 0:
                limits.advance(hops)
    return TimedRoutes(tuple(words), tuple(tuple(t) for t in times))


@dataclass(frozen=True)
class ScheduleStats:
    """Steps, the largest buffer at a node, and link use of a node-invariant timed schedule."""

    nodes: int
    degree: int
    steps: int
    peak_buffer: int  # messages waiting at a node that is neither their source nor destination, at one step
    transmissions: int  # over the whole network
    links: int  # directed links that may carry one message per step (all-port: nodes * degree)

    @property
    def utilisation(self) -> float:
        """Transmissions / (links * steps)."""
        return self.transmissions / (self.links * self.steps) if self.steps else 0.0

    def to_json(self) -> dict:
        """The numbers, utilisation included."""
        return {"nodes": self.nodes, "degree": self.degree, "steps": self.steps, "peak_buffer": self.peak_buffer,
                "transmissions": self.transmissions, "links": self.links,
                "utilisation": round(self.utilisation, 6)}


def schedule_stats(times: Sequence[Sequence[int]], nodes: int, degree: int) -> ScheduleStats:
    """Statistics of a schedule every node runs translated, from the identity's hop times.

    A message waits at an intermediate node during the steps strictly between two
    consecutive hops; by translation the number of such waits at one node in step
    x is the number of the identity's hop pairs (a, b) with a < x < b (the replay's
    ``max_buffer``).  Links: ``nodes * degree`` directed links (all-port).
    """
    hops = sum(len(t) for t in times)
    last = max((t[-1] for t in times if t), default=-1)
    steps = last + 1
    waiting = np.zeros(steps + 2, dtype=np.int64)
    starts, ends = [], []
    for t in times:
        for a, b in zip(t, t[1:]):
            if b > a + 1:
                starts.append(a + 1)
                ends.append(b)
    np.add.at(waiting, np.array(starts, dtype=np.int64), 1)
    np.add.at(waiting, np.array(ends, dtype=np.int64), -1)
    peak = int(np.cumsum(waiting).max()) if steps else 0
    return ScheduleStats(nodes, degree, steps, peak, nodes * hops, nodes * degree)
