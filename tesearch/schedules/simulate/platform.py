"""The SimGrid platform of a network: one host per node, one link per directed edge, shortest-path routes.

Host ``n{r}`` stands for rank ``r`` (the rank numbering of :mod:`tesearch.schedules.programs.ranks`), so the
hostfile lists ``n0 .. n{N-1}`` in rank order.  Every directed edge ``r -> r*s`` of the Cayley graph is
a link ``l{r}-{r*s}`` of its own, with the given bandwidth and latency: a node sends on all its links
at once and each direction of a cable carries its own traffic (all-port, full duplex).  Each link is
used in one direction only, so SimGrid's sharing of a link's bandwidth is exactly the sharing of one
directed edge.

Routes: a one-hop route (``symmetrical="NO"``) for every directed edge, in a zone with
``routing="Floyd"``: SimGrid's Floyd routing (3.32, platform DTD 4.1) extends them to a shortest path
(fewest links) between every pair of hosts.  ``routing="Full"`` instead lists a shortest path for
every pair (breadth-first search here); it is exact but its size grows with the square of the node
count, so it is meant for small platforms and for cross-checking Floyd.

>>> from tesearch.networks.families import network_from_spec
>>> from tesearch.schedules.programs.ranks import rank_numbering
>>> links = directed_links(rank_numbering(network_from_spec("ring-4")))
>>> sorted((a, b) for a, b, _ in links)
[(0, 1), (0, 3), (1, 0), (1, 2), (2, 1), (2, 3), (3, 0), (3, 2)]
"""

from __future__ import annotations

import enum
from collections import deque
from xml.sax.saxutils import quoteattr

from tesearch.schedules.programs.ranks import RankNumbering

#: host speed (flop/s); the executors compute nothing that is simulated (smpi/simulate-computation:no)
HOST_SPEED = "1Gf"


class Routing(str, enum.Enum):
    """How the platform states the routes between non-neighbours."""

    FLOYD = "Floyd"  # one-hop routes; SimGrid computes the shortest paths
    FULL = "Full"  # every pair's shortest path written out


def directed_links(numbering: RankNumbering) -> list[tuple[int, int, str]]:
    """Every directed edge once: (rank, neighbour rank, letter); parallel letters to one neighbour share it."""
    letters = numbering.graph.letters
    seen: dict[tuple[int, int], str] = {}
    for rank in range(numbering.size):
        for k, letter in enumerate(letters):
            neighbour = numbering.neighbour(rank, k)
            if neighbour != rank:
                seen.setdefault((rank, neighbour), letter)
    return [(a, b, letter) for (a, b), letter in seen.items()]


def host_name(rank: int) -> str:
    """The SimGrid host of a rank."""
    return f"n{rank}"


def link_name(source: int, destination: int) -> str:
    """The SimGrid link of the directed edge ``source -> destination``."""
    return f"l{source}-{destination}"


def shortest_routes(ranks: int, links: list[tuple[int, int, str]]) -> dict[tuple[int, int], list[int]]:
    """A shortest path (list of ranks, both ends included) for every ordered pair, by BFS from every rank."""
    adjacent: dict[int, list[int]] = {r: [] for r in range(ranks)}
    for a, b, _ in links:
        adjacent[a].append(b)
    routes = {}
    for source in range(ranks):
        parent = {source: source}
        queue = deque([source])
        while queue:
            here = queue.popleft()
            for there in adjacent[here]:
                if there not in parent:
                    parent[there] = here
                    queue.append(there)
        for destination in parent:
            if destination == source:
                continue
            path = [destination]
            while path[-1] != source:
                path.append(parent[path[-1]])
            routes[(source, destination)] = path[::-1]
    return routes


def platform_xml(numbering: RankNumbering, *, bandwidth_bps: float, latency_s: float,
                 routing: Routing = Routing.FLOYD) -> str:
    """The platform file (SimGrid DTD 4.1) of the numbering's network."""
    links = directed_links(numbering)
    lines = ["<?xml version='1.0'?>",
             '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">',
             f'<zone id="network" routing={quoteattr(routing.value)}>']
    lines += [f'<host id="{host_name(r)}" speed="{HOST_SPEED}"/>' for r in range(numbering.size)]
    bandwidth, latency = f"{bandwidth_bps:.17g}Bps", f"{latency_s:.17g}s"
    lines += [f'<link id="{link_name(a, b)}" bandwidth="{bandwidth}" latency="{latency}"/>' for a, b, _ in links]
    if routing is Routing.FLOYD:
        paths = [[a, b] for a, b, _ in links]
    else:
        paths = list(shortest_routes(numbering.size, links).values())
    for path in paths:
        hops = "".join(f'<link_ctn id="{link_name(x, y)}"/>' for x, y in zip(path, path[1:]))
        lines.append(f'<route src="{host_name(path[0])}" dst="{host_name(path[-1])}" symmetrical="NO">{hops}</route>')
    lines += ["</zone>", "</platform>", ""]
    return "\n".join(lines)


def hostfile(ranks: int) -> str:
    """The hostfile: rank r runs on host n{r}."""
    return "".join(f"{host_name(r)}\n" for r in range(ranks))
