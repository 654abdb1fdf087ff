"""How a search outcome is shown: text for people, JSON for tools."""

from __future__ import annotations

from tesearch.terms import optimality_text

#: tables up to this width are printed whole; wider ones in part
PRINT_WIDTH = 120


def outcome_json(outcome) -> dict:
    """A search outcome as one JSON object (the CLI adds where the table went)."""
    b = outcome.bounds
    return {
        "network": outcome.params.network,
        "exchange": outcome.params.exchange.value,
        "status": outcome.status.value,
        "T": outcome.T,
        "lower_bound": b.counting,
        "letter_bound": b.letter.value,
        "best_bound": b.best,
        "binding_bound": b.binding,
        "optimal": outcome.optimal,
        "strategy": outcome.strategy_used,
        "seconds": round(outcome.seconds, 3),
        "run": str(outcome.params),
        "refuted_widths": outcome.refuted_widths,
        "infeasible_widths": list(outcome.infeasible_widths) if outcome.infeasible_widths else None,
        "infeasible_by": outcome.infeasible_by or None,
        "attempts": [a.to_json() for a in outcome.attempts],
        "stop_reason": outcome.stop_reason,
    }


def table_text(table, width: int = PRINT_WIDTH) -> list[str]:
    """The table's rows as text, whole up to ``width`` columns, else its first ``width`` columns."""
    if table.T <= width:
        text = table.to_text().splitlines()
        return text[text.index("") + 1:]
    lines = [f"first {width} of {table.T} columns:"]
    for row in table.grid():
        lines.append(" ".join(s or "." for s in row[:width]) + " ...")
    return lines


def outcome_text(outcome) -> str:
    """A search outcome for people: status, T against the bounds, refuted widths, the table."""
    b = outcome.bounds
    lines = [f"{outcome.params.network} {outcome.params.exchange.value}: {outcome.status.value} "
             f"in {outcome.seconds:.2f}s ({outcome.strategy_used} strategy)"]
    refuted = outcome.refuted_widths
    if refuted:
        lines.append(f"refuted widths: {refuted}"
                     + ("" if outcome.params.backend.value == "z3" else
                        f" (by {outcome.params.backend.value}: not certified; re-check with z3)"))
    if outcome.stop_reason:
        lines.append(f"stopped: {outcome.stop_reason}")
    if outcome.table is None:
        if outcome.infeasible_widths is not None:
            low, high = outcome.infeasible_widths
            widths = f"<= {high}" if low is None else (f"{high}" if low == high else f"{low} to {high}")
            lines.append(f"no table of width {widths} exists: refuted by {outcome.infeasible_by}"
                         + ("" if low is None else f"; best lower bound {b.best} ({b.binding})"))
        else:
            lines.append(f"no table; nothing proved; best lower bound {b.best} ({b.binding})")
        return "\n".join(lines)
    verdict = optimality_text(outcome.T, b.best)
    lines.append(f"T = {outcome.T}; counting bound {b.counting}, per-letter bound {b.letter.value}; "
                 f"{verdict}; verified (Theorem 1)")
    lines += [""] + table_text(outcome.table) + [""]
    return "\n".join(lines)
