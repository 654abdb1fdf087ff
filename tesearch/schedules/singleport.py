"""Single-port total exchange: seed 000's node-invariant FIFO algorithm and seed 001's Algorithm A2.

Both produce a timed schedule of the identity's messages (tesearch-schedule v1,
``docs/schedule-format.md``): every node runs the same schedule translated by
left multiplication, which is what :mod:`tesearch.checking.replay` replays.

**FIFO (seed 000, Figures 1 and 2).**  Node-invariance (seed 000, Lemma 2:
``Q_g(t) = sigma_g(Q_1(t))`` with ``sigma_g(x) = g*x``) means that simulating
node 1's queue alone determines the whole algorithm.  Node 1's queue holds
messages by their destination relative to node 1.  At every step node 1 sends
the head ``y`` of its queue across the letter ``s = W(y)`` (a first letter of a
shortest word of ``y``), and receives from its neighbour ``s^-1`` the copy of
that same message, whose destination relative to node 1 is ``s^-1 * y``: it is
consumed if that is the identity, else it joins the tail.  The message at the
head is the identity's message to ``d`` (its original destination) taking one
more hop, so the hop times of the identity's messages are read off the queue.
One message leaves node 1 at every step until the queue is empty, and every hop
is along a shortest path, so the time is exactly the status (seed 000,
Theorem 1).  ``W`` picks the lowest letter on a shortest path by default, and
for hypercubes the highest dimension (Figure 2's leftmost non-zero bit, e-cube
routing).

**A2 (seed 001, Figure 4, Theorem 2).**  For G = A x B with n1 = |A|, n2 = |B|:
first n1 total exchanges inside the copies of B (round r: node (x, y) sends its
messages for (x * a_r, y * b), b != 1, to (x, y * b)); then n2 total exchanges
inside the copies of A (round l: node (x, y) forwards the messages that came
from (x, y * b_l^-1), to (x * a, y)).  Rounds are indexed relative to each node,
which keeps the algorithm node-invariant.  Each inner total exchange is the
factor's FIFO schedule; more than two factors recurse on B = G2 x ... x Gk.
Time: n1 * T_B + n2 * T_A (Theorem 2); with optimal factors this is the status
of G (Theorem 3).
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass

import numpy as np

from tesearch.running.errors import SizeLimitError, SpecError
from tesearch.networks.groups import CayleyGraph, cayley_graph
from tesearch.networks.families import Network

SCHEDULE_FORMAT = "tesearch-schedule"


class SinglePortAlgorithm(str, enum.Enum):
    """Which single-port algorithm to run."""
    FIFO = "fifo"  # seed 000, Figure 1 (Figure 2 for hypercubes)
    A2 = "a2"  # seed 001, Algorithm A2 for product networks


class FirstLetter(str, enum.Enum):
    """Which first letter W picks among those on a shortest path."""

    LOWEST_LETTER = "lowest-letter"
    HIGHEST_LETTER = "highest-letter"  # hypercubes: the leftmost non-zero bit (seed 000, Figure 2)


@dataclass(frozen=True)
class TimedMessage:
    """One message of the identity: its destination (element index), letters (indices), hop steps."""

    destination: int
    word: tuple[int, ...]
    times: tuple[int, ...]


@dataclass(frozen=True)
class Schedule:
    """A timed single-port schedule of the identity's messages on ``cg``."""

    cg: CayleyGraph
    algorithm: SinglePortAlgorithm
    messages: tuple[TimedMessage, ...]
    time: int
    max_queue: int  # FIFO: the largest queue at a node; A2: largest of its factors'
    notes: tuple[tuple[str, object], ...] = ()

    def to_json(self) -> dict:
        """The schedule as tesearch-schedule v1 JSON (docs/schedule-format.md)."""
        cg = self.cg
        net = cg.network
        return {
            "format": SCHEDULE_FORMAT,
            "format_version": 1,
            "network": net.spec,
            "exchange": "total",
            "generators": net.generators_json(),
            "T": self.time,
            "lower_bound": cg.status,
            "model": "single-port",
            "algorithm": self.algorithm.value,
            **{k: v for k, v in self.notes},
            "messages": [[[cg.letters[k] for k in m.word], list(m.times),
                          cg.elements[m.destination].astype(int).tolist()] for m in self.messages],
        }


def default_route(network: Network) -> FirstLetter:
    """Seed 000's choice: on a product of two-node rings (a hypercube, Figure 2) the highest axis first,
    elsewhere the lowest letter (Figure 1)."""
    binary_axes = bool(network.factors) and all(factor.order == 2 for factor in network.factors)
    return FirstLetter.HIGHEST_LETTER if binary_axes else FirstLetter.LOWEST_LETTER


def first_letters(cg: CayleyGraph, route: FirstLetter) -> np.ndarray:
    """W for every element y != 1: a letter s with dist(s^-1 * y) = dist(y) - 1."""
    choice = np.full(cg.order, -1, dtype=np.int64)
    letters = range(cg.degree) if route is FirstLetter.LOWEST_LETTER else reversed(range(cg.degree))
    for k in letters:
        rest = cg.left[cg.inverse_letter[k]]  # s_k^-1 * y
        ok = (choice < 0) & (cg.dist[rest] == cg.dist - 1) & (cg.dist > 0)
        choice[ok] = k
    return choice


def fifo_schedule(cg: CayleyGraph, route: FirstLetter | None = None) -> Schedule:
    """Seed 000's node-invariant FIFO algorithm, by simulating node 1's queue only."""
    route = route or default_route(cg.network)
    first = first_letters(cg, route)
    # Q(0): messages for v_1 .. v_{n-1}; the right end (v_{n-1}) is the head (seed 000, section 6)
    queue: deque[tuple[int, int]] = deque((y, y) for y in range(cg.order - 1, 0, -1))
    words: dict[int, list[int]] = {d: [] for d in range(1, cg.order)}
    times: dict[int, list[int]] = {d: [] for d in range(1, cg.order)}
    step = 0
    max_queue = len(queue)
    while queue:
        y, d = queue.popleft()  # head: the identity's message to d, now at a node from which d is y away
        k = int(first[y])
        words[d].append(k)
        times[d].append(step)
        rest = int(cg.left[cg.inverse_letter[k], y])  # what node 1 receives from node s_k^-1
        if rest != 0:
            queue.append((rest, d))
        max_queue = max(max_queue, len(queue))
        step += 1
    messages = tuple(TimedMessage(d, tuple(words[d]), tuple(times[d])) for d in range(1, cg.order))
    return Schedule(cg, SinglePortAlgorithm.FIFO, messages, step, max_queue, (("route", route.value),))


# ---------------------------------------------------------------------------- A2

@dataclass(frozen=True)
class _FactorSchedule:
    """A schedule over a product's coordinates: element = tuple of factor element indices."""

    order: int
    time: int
    hops: dict[tuple[int, ...], tuple[tuple[str, ...], tuple[int, ...]]]  # element -> (letters, times)
    elements: list[tuple[int, ...]]  # all elements, identity first


def _factor_fifo(factor: Network) -> tuple[_FactorSchedule, CayleyGraph]:
    cg = cayley_graph(factor)
    sched = fifo_schedule(cg, default_route(factor))
    hops = {(m.destination,): (tuple(cg.letters[k] for k in m.word), m.times) for m in sched.messages}
    return _FactorSchedule(cg.order, sched.time, hops, [(g,) for g in range(cg.order)]), cg


def _a2_product(first: _FactorSchedule, rest: _FactorSchedule) -> _FactorSchedule:
    """Algorithm A2 on A x B (A = first, B = rest): n1 exchanges in B, then n2 exchanges in A."""
    n1, n2 = first.order, rest.order
    phase_two = n1 * rest.time
    hops = {}
    elements = []
    for r, a in enumerate(first.elements):  # phase-1 round r carries the messages for A-offset a
        for l, b in enumerate(rest.elements):  # phase-2 round l carries the messages from B-offset b
            element = a + b
            elements.append(element)
            if r == 0 and l == 0:
                continue
            letters: tuple[str, ...] = ()
            steps: tuple[int, ...] = ()
            if l != 0:
                w, t = rest.hops[b]
                letters += w
                steps += tuple(r * rest.time + x for x in t)
            if r != 0:
                w, t = first.hops[a]
                letters += w
                steps += tuple(phase_two + l * first.time + x for x in t)
            hops[element] = (letters, steps)
    return _FactorSchedule(n1 * n2, n1 * rest.time + n2 * first.time, hops, elements)


@dataclass(frozen=True)
class A2Result:
    """Seed 001's Algorithm A2 on a product network: the schedule and its parts."""
    schedule: Schedule
    factor_orders: tuple[int, ...]
    factor_times: tuple[int, ...]
    theorem2_time: int  # n1 * T_B + n2 * T_A, applied recursively (B = the product of the later factors)
    corollary2_time: int  # sum_i (n / n_i) * T_i
    status: int


def a2_schedule(cg: CayleyGraph) -> A2Result:
    """Seed 001's Algorithm A2 on a product network (tori: rings; hypercubes: two-node rings)."""
    net = cg.network
    if not net.factors:
        raise SpecError(f"{net.spec}: Algorithm A2 needs a product network (a torus, ring or hypercube)")
    factor_scheds = []
    factor_graphs = []
    for f in net.factors:
        fs, fcg = _factor_fifo(f)
        factor_scheds.append(fs)
        factor_graphs.append(fcg)
    combined = factor_scheds[-1]
    theorem2 = factor_scheds[-1].time
    for fs in reversed(factor_scheds[:-1]):
        theorem2 = fs.order * theorem2 + combined.order * fs.time
        combined = _a2_product(fs, combined)
    # the product element of a coordinate tuple: factor i acts on its own block of points
    messages = []
    for coords, (letters, steps) in combined.hops.items():
        images = []
        for fcg, g in zip(factor_graphs, coords):
            offset = len(images)
            images += [offset + int(x) for x in fcg.elements[g]]
        dest = int(cg.index_of_rows(np.array(images, dtype=cg.elements.dtype))[0])
        messages.append(TimedMessage(dest, tuple(cg.letter_index[s] for s in letters), steps))
    messages.sort(key=lambda m: m.destination)
    n = cg.order
    orders = tuple(fs.order for fs in factor_scheds)
    times = tuple(fs.time for fs in factor_scheds)
    corollary2 = sum(n // o * t for o, t in zip(orders, times))
    schedule = Schedule(cg, SinglePortAlgorithm.A2, tuple(messages), combined.time, 0,
                        (("factors", [f.spec for f in net.factors]), ("factor_times", list(times)),
                         ("theorem2_time", theorem2)))
    return A2Result(schedule, orders, times, theorem2, corollary2, cg.status)


# ---------------------------------------------------------------------------- front door

@dataclass(frozen=True)
class SinglePortRun:
    """What ``tesearch singleport`` reports."""

    network: str
    algorithm: SinglePortAlgorithm
    time: int
    status_bound: int
    formula_time: int | None  # A2: seed 001 Theorem 2
    replay: object  # tesearch.checking.replay.ReplayReport
    schedule_json: dict

    @property
    def ok(self) -> bool:
        """The replay found no violation."""
        return self.replay.ok and self.replay.completion_time == self.time

    def to_json(self) -> dict:
        """The run as one JSON object."""
        return {
            "network": self.network,
            "algorithm": self.algorithm.value,
            "time": self.time,
            "status_bound": self.status_bound,
            "gap": self.time - self.status_bound,
            "formula_time": self.formula_time,
            "replay": self.replay.to_json(),
            "ok": self.ok,
        }

    def summary(self) -> str:
        """The run for people: time against the status bound and the replay verdict."""
        lines = [f"{self.algorithm.value} on {self.network}: time {self.time}, single-port status bound "
                 f"{self.status_bound} (gap {self.time - self.status_bound})"]
        if self.formula_time is not None:
            lines.append(f"Theorem 2 of Dimakopoulos and Dimopoulos (1998): n1*T_B + n2*T_A = {self.formula_time} "
                         f"({'matches' if self.formula_time == self.time else 'DIFFERS'})")
        lines.append(self.replay.summary())
        return "\n".join(lines)


def run_singleport(network: Network, algorithm: SinglePortAlgorithm | str = SinglePortAlgorithm.FIFO, *,
                   progress: bool = False) -> SinglePortRun:
    """Generate the schedule, replay it in the single-port model, compare with the bounds."""
    from tesearch.checking.replay import MAX_REPLAY_NODES, PortModel, replay_data

    algorithm = SinglePortAlgorithm(algorithm)
    if network.order is not None and network.order > MAX_REPLAY_NODES:  # known from the spec: refuse before building
        raise SizeLimitError(f"{algorithm.value} schedule of {network.spec}: the network has {network.order} nodes, "
                             f"more than the replay's {MAX_REPLAY_NODES}; refused before anything is built")
    cg = cayley_graph(network)
    if algorithm is SinglePortAlgorithm.FIFO:
        schedule, formula = fifo_schedule(cg), None
    else:
        result = a2_schedule(cg)
        schedule, formula = result.schedule, result.theorem2_time
    data = schedule.to_json()
    report = replay_data(data, PortModel.SINGLE_PORT, where=f"{algorithm.value} schedule of {network.spec}",
                         progress=progress)
    return SinglePortRun(network.spec, algorithm, schedule.time, cg.status, formula, report, data)
