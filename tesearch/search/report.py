"""How an outcome is shown to people (its JSON is :meth:`tesearch.tables.outcome.Outcome.to_json`): the search's
report, the table's rows."""

from __future__ import annotations

from tesearch.running.terms import Status, optimality_text

#: tables up to this width are printed whole; wider ones in part
PRINT_WIDTH = 120


def table_text(table, width: int = PRINT_WIDTH) -> list[str]:
    """The table's rows as text, whole up to ``width`` columns, else its first ``width`` columns."""
    if table.T <= width:
        text = table.to_text().splitlines()
        return text[text.index("") + 1:]
    lines = [f"first {width} of {table.T} columns:"]
    for row in table.grid():
        lines.append(" ".join(s or "." for s in row[:width]) + " ...")
    return lines


def search_text(outcome, name: str, solver: str) -> str:
    """A search's outcome for people (``name``: the instance's, 'star-5 total'; ``solver``: the backend that
    decided the widths): status, T against the bounds, refuted widths, the table."""
    b = outcome.bounds
    facts = outcome.facts
    strategy = outcome.facts.get("route") or outcome.strategy  # the front door's: the search route that ran
    lines = [f"{name}: {outcome.status.value} in {outcome.seconds:.2f}s ({strategy} strategy)"]
    refuted = facts["refuted_widths"]
    if refuted:
        lines.append(f"refuted widths: {refuted}"
                     + ("" if solver == "z3" else f" (by {solver}: not certified; re-check with z3)"))
    if outcome.stop_reason:
        lines.append(f"stopped: {outcome.stop_reason}")
    if outcome.table is None:
        if outcome.status is Status.INFEASIBLE:
            low, high = facts["infeasible_widths"]
            widths = f"<= {high}" if low is None else (f"{high}" if low == high else f"{low} to {high}")
            lines.append(f"no table of width {widths} exists: refuted by {facts['infeasible_by']}"
                         + ("" if low is None else f"; best lower bound {b.best} ({b.binding})"))
        else:
            lines.append(f"no table; nothing proved; best lower bound {b.best} ({b.binding})")
        return "\n".join(lines)
    verdict = optimality_text(outcome.T, b.best)
    lines.append(f"T = {outcome.T}; counting bound {b.counting}, per-letter bound {b.letter.value}; "
                 f"{verdict}; verified (Theorem 1)")
    lines += [""] + table_text(outcome.table) + [""]
    return "\n".join(lines)


def front_door_text(outcome, name: str, solver: str) -> str:
    """The front door's outcome for people (``tesearch search``): each route passed and why, the route that made
    the table, then the route's own report (a search's as :func:`search_text` words it) and the table."""
    from tesearch.search.frontdoor import ROUTE_NAMES

    lines = [f"route {p['route']}: {p['why']}" for p in outcome.facts.get("routes", [])]
    route = outcome.facts.get("route")
    if route is not None:
        lines.append(f"route {route}: {'made the table' if outcome.table is not None else 'ended'} "
                     f"({ROUTE_NAMES[route]})")
    if "refuted_widths" in outcome.facts:  # a search route: its own report
        return "\n".join(lines + [search_text(outcome, name, solver)])
    lines.append(f"{name}: {outcome.status.value} in {outcome.seconds:.2f}s")
    if outcome.table is None:
        b = outcome.bounds
        lines.append(f"no table; nothing proved; best lower bound {b.best} ({b.binding})")
        return "\n".join(lines)
    lines.append(outcome.summary)
    lines += [""] + table_text(outcome.table) + [""]
    return "\n".join(lines)
