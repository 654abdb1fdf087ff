"""The ejection search (tesearch/search/ejection.py): the width it reaches in a number of placements, by excess penalty, cell weighting, tabu tenure and seed.

    python -m benchmarks.ejection [--networks bubblesort-5 pancake-5] [--tenures 3 5 10 30]
                                  [--weightings length square] [--penalties 0 10] [--seeds 0 1] [--steps 100000]
                                  [--report FILE]

Each run starts from the first fit over all shortest words (no start table) and makes ``--steps`` placements; the
row gives the first fit's width, the width reached and after how many placements (both the same on any machine for
a seed), and the seconds (which follow the machine's load: the table gives it).
"""

from __future__ import annotations

import argparse
import os
import re
import time

import sys

from scripts.markdown_report import Report

#: a progress line of the search that reports a width reached: "[   12.3s] T=159 after 84319 placements"
REACHED = re.compile(r"\[\s*([\d.]+)s\] T=(\d+) after (\d+) placements")


def run_one(spec: str, tenure: int, weighting: str, seed: int, steps: int, penalty: int) -> dict:
    """One ejection run: (first width, width reached, seconds to reach it, placements then)."""
    from tesearch.facts.instance import instance
    from tesearch.running.limits import Budget
    from tesearch.search.ejection import ejection_table

    lines: list[str] = []
    facts = instance(spec)
    started = time.monotonic()
    outcome = ejection_table(facts, Budget.seconds(None), seed=seed, tenure=tenure, weighting=weighting,
                             excess_penalty=penalty, max_steps=steps, progress=lines.append)
    reached = [REACHED.search(line) for line in lines]
    reached = [m for m in reached if m]
    first = re.search(r"T=(\d+) \(bound", lines[0])
    last = reached[-1] if reached else None
    return {"network": spec, "tenure": tenure, "seed": seed, "bound": facts.bounds.best,
            "first_fit": int(first.group(1)) if first else None, "T": outcome.table.T,
            "at_s": float(last.group(1)) if last else 0.0, "placements": int(last.group(3)) if last else 0,
            "wall_s": round(time.monotonic() - started, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--networks", nargs="+", default=["bubblesort-5", "pancake-5"])
    ap.add_argument("--tenures", type=int, nargs="+", default=[3, 5, 10, 30])
    ap.add_argument("--weightings", nargs="+", default=["length", "square"], choices=["length", "square"])
    ap.add_argument("--penalties", type=int, nargs="+", default=[0, 10],
                    help="excess penalties (0: none; the search's default is 10)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--steps", type=int, default=100_000, help="placements per run (the same on any machine)")
    ap.add_argument("--report", default=None)
    args = ap.parse_args()
    out = Report(args.report, "python -m benchmarks.ejection " + " ".join(sys.argv[1:]))
    out.line("# The ejection search: width reached in a number of placements, by excess penalty, weighting, tabu "
             "tenure and seed")
    out.line("")
    out.line(f"Each run {args.steps} placements from the first fit over all shortest words: a run's widths depend "
             f"on its seed and step count only, not on the machine; its seconds follow the load (average "
             f"{os.getloadavg()[0]:.1f} at the start, 2 shared cores). 'reached' is the placement count at which the "
             f"run made its narrowest table; no width below it is shown infeasible.")
    out.line("")
    out.line("| network | excess penalty | weighting | tenure | seed | bound | first fit | T reached | reached after "
             "(placements) | at (s) | run (s) |")
    out.line("|---|---|---|---|---|---|---|---|---|---|---|")
    for spec in args.networks:
        for penalty in args.penalties:
            for weighting in args.weightings:
                for tenure in args.tenures:
                    for seed in args.seeds:
                        r = run_one(spec, tenure, weighting, seed, args.steps, penalty)
                        out.line(f"| {spec} | {penalty} | {weighting} | {tenure} | {seed} | {r['bound']} | "
                                 f"{r['first_fit']} | {r['T']} | {r['placements']} | {r['at_s']} | {r['wall_s']} |")
    out.line("")
    out.line(f"Load average at the end: {os.getloadavg()[0]:.1f}.")
    out.close()
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
