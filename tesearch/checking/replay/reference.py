"""The reference engine: a plain per-message, per-node loop over the networkx graph (small inputs only)."""

from __future__ import annotations

import time
from collections import Counter

import networkx as nx
import numpy as np

from tesearch.checking.kernel.graph import RebuiltNetwork, build_network
from tesearch.checking.kernel.loader import LoadedInput, PortModel
from tesearch.checking.replay.report import ReplayReport, ViolationKind, node_text, Violations
from tesearch.checking.replay.steps import lane_checks
from tesearch.running.terms import Exchange


def network_graph(net: RebuiltNetwork) -> nx.DiGraph:
    """The network as a networkx DiGraph: edge (g, g*s) with attribute letter = s."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(net.order))
    for k, s in enumerate(net.letters):
        graph.add_edges_from(zip(range(net.order), net.successor[k].tolist()), letter=s)
    return graph


def replay_reference(inp: LoadedInput, model: PortModel | str = PortModel.ALL_PORT) -> ReplayReport:
    """The same replay as plain Python over the networkx graph, one copy of one message at a time.

    Distances come from networkx BFS (one per source); nothing is shared with :func:`replay`
    except the loader and the BFS that numbers the nodes.  Small inputs only.

    Long because it is the plain reference the fast engines are tested against: one straightforward loop
    per check, all in one place, nothing vectorised or shared.
    """
    started = time.perf_counter()
    model = PortModel.parse(model)
    net = build_network(inp.letters, inp.generators, where=inp.where)
    graph = network_graph(net)
    n = graph.number_of_nodes()
    step_to: dict[tuple[int, str], int] = {(u, d["letter"]): v for u, v, d in graph.edges(data=True)}
    dist = {u: nx.single_source_shortest_path_length(graph, u) for u in graph.nodes}
    found = Violations()
    lane_checks(inp, found)
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
                              detail=f"arrived at {node_text(net.elements[node])}")
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
