"""Search benchmark: each strategy and encoding variant on a fixed suite, side by side.

Prints one row per instance with the seconds each variant took (and its result), and the
ratio to the default, so one run shows what each idea buys.  Usage:

    .venv/bin/python -m benchmarks.search [--timeout 60]
"""

from __future__ import annotations

import argparse
import time

from tesearch.solvers.problem import EncodingOptions, TableProblem
from tesearch.solvers.z3model import encode, solve
from tesearch.facts.instance import instance
from tesearch.running.terms import SolveResult
from tesearch.networks.families import network_from_spec
from tesearch.running.limits import Budget
from tesearch.search.core import SearchParams, Strategy, search

DEFAULT = EncodingOptions()
VARIANTS = {
    "default": DEFAULT,
    "no-count": EncodingOptions(counting=False),
    "no-exact": EncodingOptions(exact_columns=False),
    "no-mirror": EncodingOptions(reversal_symmetry=False),
}
# (network, exchange, strategy, from_width): a fixed suite of feasible and infeasible widths
SUITE = [
    ("star-5", "total", Strategy.ROTATION, None),
    ("star-5", "odd-distance", Strategy.ROTATION, None),
    ("hypercube-5", "total", Strategy.ROTATION, None),
    ("hypercube-5", "total", Strategy.FULL, None),
    ("torus-6x6", "total", Strategy.ROTATION, None),
    ("torus-4x8", "odd-distance", Strategy.FULL, None),
    ("ring-12:cyclic", "total", Strategy.FULL, 18),
    ("star-4", "total", Strategy.FULL, None),
]


def run(spec, exchange, strategy, from_width, options, timeout):
    params = SearchParams(strategy, options=options, from_width=from_width)
    t0 = time.monotonic()
    out = search(instance(spec, exchange), params, budget=Budget.seconds(timeout))
    return time.monotonic() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()
    head = f"{'instance':40s}" + "".join(f"{name:>22s}" for name in VARIANTS)
    print(head)
    print("-" * len(head))
    for spec, exchange, strategy, from_width in SUITE:
        cells, base = [], None
        for name, options in VARIANTS.items():
            seconds, out = run(spec, exchange, strategy, from_width, options, args.timeout)
            base = base if base is not None else seconds
            tag = f"T={out.T}" if out.T is not None else out.status.value
            cells.append(f"{seconds:7.2f}s {tag:>7s} x{seconds / base:4.1f}")
        name = f"{spec} {exchange} {strategy.value}" + (f" from {from_width}" if from_width else "")
        print(f"{name:40s}" + "".join(f"{c:>22s}" for c in cells), flush=True)
    # the trivially infeasible width that took plain Z3 four minutes (design notes)
    from tesearch.networks.groups import cayley_graph
    from tesearch.search.core import candidate_words
    from tesearch.networks.words import targets
    cg = cayley_graph(network_from_spec("star-5"))
    items = tuple(candidate_words(cg, int(g), 4) for g in targets(cg, "total"))
    for name, options in (("default", DEFAULT), ("no-count", EncodingOptions(counting=False))):
        problem = TableProblem("star-5 total", 4, 100, items, options=options)
        t0 = time.monotonic()
        enc = encode(problem)
        result, _ = solve(enc, timeout_ms=int(args.timeout * 1000)) if name != "default" else \
            (SolveResult.UNSAT if enc.trivially_unsat else solve(enc)[0], None)
        print(f"star-5 total at T=100 (letters > cells), {name}: {result.value} in {time.monotonic() - t0:.2f}s")


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
