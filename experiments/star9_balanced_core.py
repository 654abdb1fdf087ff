"""star-9 at its bound: the rotation core with a balanced word choice fixed first (issue 40, item 3).

    python -m experiments.star9_balanced_core [--exchange total] [--width W] [--timeout 1200] [--cap 48] [--record FILE]

At T = 365202 the table has no blank and every letter is used exactly T times; with every free C8 orbit a
rotation block, the core's 383 elements (3504 letters) must fill 438 columns with each letter exactly once per
column, so the core's words must use each letter exactly 438 times (the star max flow of tesearch.facts.bounds shows
such a choice exists: 336 forced uses per letter plus 102 doubled points).  This script fixes that balanced
choice first (each free cycle's doubled point from the max flow, element by element), offers each element only
its shortest words with that letter-count vector (at most --cap), and asks CP-SAT's interval model
(tesearch.solvers, --solver cpsat-intervals) for the core at the given width.  Its INFEASIBLE would cover only
this word choice (never a certificate); a core found is not assembled here, only recorded.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from tesearch.solvers import Backend, CpsatModel
from tesearch.solvers.decide import decide
from tesearch.facts.bounds import star_letter_balance
from tesearch.solvers.problem import EncodingOptions, Item, TableProblem
from tesearch.facts.instance import instance
from tesearch.networks.words import shortest_words

ROOT = Path(__file__).resolve().parent.parent


def balanced_vectors(cg, core: list[int]) -> dict[int, tuple[int, ...]]:
    """Each core element's letter-count vector under the max flow's balanced choice."""
    balance = star_letter_balance(cg.elements[np.array(core)], 0)
    left = dict(balance.flow)  # (point-set mask, letter) -> units still to give out
    out = {}
    for g in core:
        perm = [int(x) for x in cg.elements[g]]
        counts = [0] * cg.degree
        seen = set()
        for start in range(len(perm)):
            if start in seen or perm[start] == start:
                continue
            cycle, x = [], start
            while x not in seen:
                seen.add(x)
                cycle.append(x)
                x = perm[x]
            for point in cycle:
                if point:
                    counts[point - 1] += 1  # every moved point's letter once
            if 0 not in cycle:  # a free cycle: one of its points doubled, as the flow says
                mask = sum(1 << point for point in cycle)
                k = next(k for (m, k), units in left.items() if m == mask and units > 0)
                left[mask, k] -= 1
                counts[k] += 1
        out[g] = tuple(counts)
    assert all(units == 0 for units in left.values())
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exchange", default="total")
    ap.add_argument("--width", type=int, default=None, help="default: the core's letters / 8 (no blank)")
    ap.add_argument("--timeout", type=float, default=1200.0)
    ap.add_argument("--cap", type=int, default=48)
    ap.add_argument("--record", default=None)
    args = ap.parse_args()
    started = time.monotonic()
    facts = instance("star-9", args.exchange)
    cg = facts.cg
    core = sorted(int(g) for orbit in facts.orbit_classes.short for g in orbit)
    vectors = balanced_vectors(cg, core)
    loads = np.sum([vectors[g] for g in core], axis=0)
    items = []
    for g in core:
        words = []
        for w in shortest_words(cg, g):
            if tuple(np.bincount(w, minlength=cg.degree).tolist()) == vectors[g]:
                words.append(tuple(int(k) for k in w))
                if len(words) == args.cap:
                    break
        items.append(Item(g, tuple(words), False))
    letters = int(sum(cg.dist[g] for g in core))
    width = args.width or -(-letters // cg.degree)
    problem = TableProblem(f"star-9 {args.exchange} core (balanced word choice)", cg.degree, width, tuple(items),
                           None, EncodingOptions())
    decision = decide(problem, Backend.CPSAT, CpsatModel.INTERVALS, timeout_s=args.timeout)
    row = {"network": "star-9", "exchange": args.exchange, "core_elements": len(core), "letters": letters,
           "width": width, "loads": sorted(set(int(x) for x in loads)),
           "words_offered": sum(len(it.words) for it in items), "cap": args.cap,
           "result": decision.result.value, "solve_seconds": round(decision.seconds, 1),
           "wall_seconds": round(time.monotonic() - started, 1), "timeout": args.timeout,
           "command": "python -m experiments.star9_balanced_core " + " ".join(sys.argv[1:])}
    print(json.dumps(row))
    if args.record:
        path = Path(args.record)
        runs = json.loads(path.read_text()) if path.exists() else []
        runs.append(row)
        path.write_text(json.dumps(runs, indent=1) + "\n")
    return 0 if decision.result.value == "sat" else 4


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
