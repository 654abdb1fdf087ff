"""``tesearch compare``: a table (or a network) against what users would otherwise run.

The baselines come from :mod:`tesearch.baselines` (shortest-path and
dimension-ordered FIFO routing, all-port) and from seed 000's single-port FIFO
algorithm (:mod:`tesearch.schedules.singleport`); the lower bound from
:mod:`tesearch.facts.info` (the best of the counting and per-letter bounds).  Every
schedule is measured the same way (:func:`tesearch.baselines.schedule_stats`):
steps, the largest number of messages waiting at a node between two of their
hops, and link utilisation = transmissions / (directed links * steps).
A table is buffer-free by the format (a word takes consecutive columns).
"""

from __future__ import annotations

import time

from tesearch.running import limits
from tesearch.baselines import Engine, InjectionOrder, Route, has_axes, run_baseline, schedule_stats
from tesearch.running.errors import OptionError
from tesearch.tables.loading import network_or_checked_table
from tesearch.networks.families import Network
from tesearch.tables.table import Table

TABLE_ROW = "tesearch table"
SEED000_ROW = "node-invariant FIFO (Dimakopoulos and Dimopoulos 2001)"


def load_target(target: str) -> tuple[Network, Table | None]:
    """The network and (for a table file) the checked table the argument names; total-exchange tables only.

    A network spec or a generators file is read as ``tesearch info`` reads it; a table through the
    checked loader (:func:`tesearch.tables.loading.network_or_checked_table`).
    """
    net, table = network_or_checked_table(target, command="compare")
    if table is not None and table.exchange != "total":
        raise OptionError(f"{target}: compare takes total-exchange tables (the baselines are total exchanges); "
                          f"this one is {table.exchange!r}")
    return net, table


def _row(name: str, model: str, stats, seconds: float | None, **extra) -> dict:
    row = {"schedule": name, "model": model, **stats.to_json(), **extra}
    if seconds is not None:
        row["seconds"] = round(seconds, 3)
    return row


def table_row(table: Table, nodes: int) -> dict:
    """The table's own numbers: T steps, no buffers, its letters over degree * T link slots."""
    letters = sum(len(p.word) for p in table.placements)
    degree = len(table.generators)
    return {"schedule": TABLE_ROW, "model": "all-port", "nodes": nodes, "degree": degree, "steps": table.T,
            "peak_buffer": 0, "transmissions": nodes * letters, "links": nodes * degree,
            "utilisation": round(letters / (degree * table.T), 6) if table.T else 0.0}


def seed000_row(network: Network) -> dict:
    """Seed 000's single-port FIFO schedule, measured like the baselines (links: all directed links)."""
    from tesearch.networks.groups import cayley_graph
    from tesearch.schedules.singleport import fifo_schedule

    started = time.perf_counter()
    cg = cayley_graph(network)
    schedule = fifo_schedule(cg)
    stats = schedule_stats([m.times for m in schedule.messages], cg.order, cg.degree)
    return _row(SEED000_ROW, "single-port", stats, time.perf_counter() - started)


def baseline_rows(network: Network, order: InjectionOrder, engine: Engine = Engine.ONE_NODE) -> list[dict]:
    """Shortest-path FIFO and dimension-ordered FIFO (or why the latter does not apply)."""
    rows = []
    for route in Route:
        name = f"{route.value} FIFO"
        if route is Route.DIMENSION_ORDERED and not has_axes(network):
            rows.append({"schedule": name, "model": "all-port",
                         "not_applicable": f"{network.family} networks have no axes"})
            continue
        with limits.phase(f"simulate {name}"):
            run = run_baseline(network, route, order, engine)
        rows.append(_row(name, "all-port", run.stats, run.seconds, injection_order=order.value,
                         engine=engine.value))
    return rows


def compare(network: Network, table: Table | None = None, *, table_path: str | None = None,
            order: InjectionOrder = InjectionOrder.FARTHEST_FIRST, engine: Engine = Engine.ONE_NODE) -> dict:
    """Every row of the comparison and the bounds, as a JSON-ready dict."""
    from tesearch.facts.info import network_info

    with limits.phase("bounds"):
        info = network_info(network)
    rows = [table_row(table, info["nodes"])] if table is not None else []
    rows += baseline_rows(network, InjectionOrder(order), Engine(engine))
    with limits.phase("the node-invariant single-port FIFO"):
        rows.append(seed000_row(network))
    return {"network": network.spec, "nodes": info["nodes"], "degree": info["degree"], "network_status": info["network_status"],
            "lower_bound": info["lower_bound"], "best_bound": info["best_bound"], "binding_bound": info["binding_bound"],
            "singleport_bound": info["singleport_bound"], "table": table_path,
            "T": table.T if table is not None else None, "rows": rows}


def compare_text(data: dict) -> str:
    """The comparison for people: one line per schedule."""
    bound = data["best_bound"]
    lines = [f"{data['network']}: {data['nodes']} nodes, {data['degree']} links per node, status {data['network_status']}",
             f"lower bound {bound} ({data['binding_bound']}, all-port); single-port bound {data['singleport_bound']}"
             + (f"; table {data['table']}: T = {data['T']}" if data["table"] else ""),
             "",
             f"{'schedule':<24} {'model':<12} {'steps':>8} {'/bound':>7} {'peak buffer':>12} {'link use':>9}"]
    for row in data["rows"]:
        if "not_applicable" in row:
            lines.append(f"{row['schedule']:<24} {row['model']:<12} {'n/a':>8}  ({row['not_applicable']})")
            continue
        ratio = row["steps"] / bound if bound else float("nan")
        lines.append(f"{row['schedule']:<24} {row['model']:<12} {row['steps']:>8} {ratio:>6.2f}x "
                     f"{row['peak_buffer']:>12} {100 * row['utilisation']:>8.1f}%")
    lines += ["", "peak buffer: most messages waiting at one node between two of their hops; link use: "
                  "transmissions / (directed links * steps); /bound: steps over the all-port lower bound"]
    return "\n".join(lines)
