"""How a search outcome is shown: text for people, JSON for tools."""

from __future__ import annotations

import re
from pathlib import Path

from tesearch.words import Exchange

#: tables up to this width are printed whole; wider ones in part
PRINT_WIDTH = 120


def default_table_path(spec: str, exchange: Exchange) -> Path:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", spec.replace(":", "-"))
    return Path("results") / f"{name}{'-odd' if exchange is Exchange.ODD_DISTANCE else ''}.json"


def outcome_json(outcome, path) -> dict:
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
        "attempts": [a.to_json() for a in outcome.attempts],
        "table": str(path) if path else None,
    }


def outcome_text(outcome, path) -> str:
    b = outcome.bounds
    lines = [f"{outcome.params.network} {outcome.params.exchange.value}: {outcome.status.value} "
             f"in {outcome.seconds:.2f}s ({outcome.strategy_used} strategy)"]
    if outcome.table is None:
        lines.append(f"no table; best lower bound {b.best} ({b.binding})")
    else:
        verdict = "OPTIMAL" if outcome.optimal else f"not shown optimal (gap {outcome.T - b.best})"
        lines.append(f"T = {outcome.T}; counting bound {b.counting}, per-letter bound {b.letter.value}; "
                     f"{verdict}; verified (Theorem 1)")
        if outcome.refuted_widths:
            lines.append(f"refuted widths: {outcome.refuted_widths}"
                         + ("" if outcome.params.backend.value == "z3" else
                            f" (by {outcome.params.backend.value}: not certified; re-check with z3)"))
        if outcome.T <= PRINT_WIDTH:
            lines += [""] + [line for line in outcome.table.to_text().splitlines()[outcome.table.to_text().splitlines().index("") + 1:]]
        else:
            lines += ["", f"first {PRINT_WIDTH} of {outcome.T} columns:"]
            for row in outcome.table.grid():
                lines.append(" ".join(s or "." for s in row[:PRINT_WIDTH]) + " ...")
        lines.append("")
        lines.append(f"written to {path}")
    return "\n".join(lines)
