"""What users would run without tesearch: shortest-path and dimension-ordered FIFO routing.

A sibling of :mod:`tesearch.checking.replay` that shares no code with the search side
(it imports none of groups, words, bounds, rotation, encode, search, verify):
its own Cayley BFS (:mod:`.cayley`), its own routes (:mod:`.routes`), a
one-node FIFO simulation that is exact by Cayley symmetry (:mod:`.fifo`), the
same model over every node and message with numpy (:mod:`.allnodes`, the scale
check: ``Engine.ALL_NODES``), and a plain all-node Python reference the tests
compare both with (:mod:`.reference`).

>>> from tesearch.networks.families import network_from_spec
>>> run = run_baseline(network_from_spec("ring-7"), Route.SHORTEST_PATH)
>>> run.stats.steps, run.stats.peak_buffer, run.stats.utilisation
(6, 4, 1.0)
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from tesearch.baselines.cayley import CayleyTable, cayley_table
from tesearch.baselines.fifo import InjectionOrder, ScheduleStats, TimedRoutes, schedule_stats, simulate_fifo
from tesearch.baselines.routes import Route, has_axes, route_words
from tesearch.networks.families import Network

__all__ = ["BaselineRun", "Engine", "InjectionOrder", "Route", "ScheduleStats", "cayley_table", "has_axes", "run_baseline",
           "schedule_json", "schedule_stats"]


class Engine(str, enum.Enum):
    """How the FIFO model is simulated; both give the same numbers (the tests check it)."""

    ONE_NODE = "one-node"  # the identity's queues only, exact by Cayley symmetry (tesearch.baselines.fifo)
    ALL_NODES = "all-nodes"  # every node and message, numpy (tesearch.baselines.allnodes); N^2 memory


@dataclass(frozen=True)
class BaselineRun:
    """One baseline on one network: its route, injection order, statistics and the identity's timed hops."""

    network: str
    route: Route
    order: InjectionOrder
    engine: Engine
    stats: ScheduleStats
    seconds: float
    table: CayleyTable
    timed: TimedRoutes

    def to_json(self) -> dict:
        """Route, order, statistics and run time (no hop times)."""
        return {"network": self.network, "schedule": f"{self.route.value} FIFO", "model": "all-port",
                "route": self.route.value, "injection_order": self.order.value, "engine": self.engine.value,
                **self.stats.to_json(),
                "seconds": round(self.seconds, 3)}


def run_baseline(network: Network, route: Route, order: InjectionOrder = InjectionOrder.FARTHEST_FIRST,
                 engine: Engine = Engine.ONE_NODE) -> BaselineRun:
    """Simulate FIFO total exchange with ``route`` on ``network`` (all-port, one message per link per step)."""
    started = time.perf_counter()
    route, order, engine = Route(route), InjectionOrder(order), Engine(engine)
    table = cayley_table(network.letters, network.generators, expected_order=network.order)
    words = route_words(network, table, route)
    if engine is Engine.ONE_NODE:
        timed = simulate_fifo(words, table.degree, order)
        stats = schedule_stats(timed.times, table.order, table.degree)
    else:
        from tesearch.baselines.allnodes import simulate_all_nodes

        run = simulate_all_nodes(table, network.generators, words, order)
        times: list[tuple[int, ...]] = [()] * table.order
        for m in range(table.order - 1):  # node 0 (the identity)'s messages
            times[int(run.destination[m])] = tuple(int(t) for t in run.hop_times[m] if t >= 0)
        timed = TimedRoutes(tuple(words), tuple(times))
        stats = ScheduleStats(table.order, table.degree, run.steps, run.peak_buffer,
                              run.transmissions, table.order * table.degree)
    return BaselineRun(network.spec, route, order, engine, stats, time.perf_counter() - started, table, timed)


def schedule_json(network: Network, run: BaselineRun) -> dict:
    """The run as a tesearch-schedule v1 object (all-port), for ``tesearch replay``."""
    letters, elements = run.table.letters, run.table.elements
    return {
        "format": "tesearch-schedule", "format_version": 1, "network": network.spec, "exchange": "total",
        "generators": {s: list(network.generators[s]) for s in letters}, "T": run.stats.steps,
        "model": "all-port", "algorithm": f"{run.route.value} FIFO", "injection_order": run.order.value,
        "messages": [[[letters[k] for k in word], list(times), elements[h].astype(int).tolist()]
                     for h, (word, times) in enumerate(zip(run.timed.words, run.timed.times)) if word],
    }
