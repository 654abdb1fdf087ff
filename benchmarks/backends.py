"""Backend benchmark: Z3 vs CP-SAT on the same table problems (one width each).

For every instance prints the placement-variable count, then for each backend the
seconds to build the model, the seconds to solve it, and the result.  The width
problems are the full encodings (every target an item, up to 24 candidate words,
mirror pin as the search sets it).  Usage:

    .venv/bin/python -m benchmarks.backends [--timeout 120] [--workers 2]

CP-SAT is run with ``--workers`` search workers (2 on the project machine); Z3 is
single-threaded.  A CP-SAT unsat is not a certificate (only Z3's is).
"""

from __future__ import annotations

import argparse
import time

from tesearch.solvers import cpsat
from tesearch.solvers.z3model import encode, solve
from tesearch.facts.instance import instance
from tesearch.search.core import SearchParams, Searcher

# (network, exchange, width): feasible and infeasible widths, small to large
SUITE = [
    ("ring-12:cyclic", "total", 20),  # unsat (the per-letter bound is 21)
    ("star-4", "total", 21),  # sat at the bound
    ("torus-4x8", "odd-distance", 15),  # unsat below the per-letter bound
    ("torus-4x8", "total", 32),  # sat at the per-letter bound
    ("bubblesort-4", "total", 24),  # sat at the bound
    ("pancake-5", "total", 112),  # sat, 5 above the bound
    ("pancake-5", "total", 110),  # sat, 3 above the bound
]


def problem_for(spec: str, exchange: str, width: int):
    kit = Searcher(instance(spec, exchange), SearchParams())
    items = [kit.item(g) for g in kit.targets]
    return kit.problem(f"{spec} {exchange}", width, items)


def run_z3(problem, timeout: float):
    t0 = time.monotonic()
    enc = encode(problem)
    built = time.monotonic() - t0
    result, _ = solve(enc, timeout_ms=int(timeout * 1000))
    return built, time.monotonic() - t0 - built, result.value


def run_cpsat(problem, timeout: float, workers: int):
    model = cpsat.build(problem)
    result, _ = cpsat.solve_model(model, timeout_s=timeout, workers=workers)
    return model.build_seconds, model.stats.get("solve_seconds", 0.0), result.value


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=120.0, help="solve seconds per backend and instance")
    ap.add_argument("--workers", type=int, default=cpsat.DEFAULT_WORKERS, help="CP-SAT search workers")
    ap.add_argument("--only", default=None, help="run only instances whose network contains this")
    args = ap.parse_args()
    head = (f"{'instance':32s} {'vars':>7s} | {'z3 build':>9s} {'z3 solve':>9s} {'z3':>8s} | "
            f"{'cp build':>9s} {'cp solve':>9s} {'cpsat':>8s}")
    print(head)
    print("-" * len(head))
    for spec, exchange, width in SUITE:
        if args.only and args.only not in spec:
            continue
        problem = problem_for(spec, exchange, width)
        size = sum(len(it.words) * max(0, width - it.length + 1) for it in problem.items)
        zb, zs, zr = run_z3(problem, args.timeout)
        cb, cs, cr = run_cpsat(problem, args.timeout, args.workers)
        print(f"{spec + ' ' + exchange + ' T=' + str(width):32s} {size:7d} | {zb:8.2f}s {zs:8.2f}s {zr:>8s} | "
              f"{cb:8.2f}s {cs:8.2f}s {cr:>8s}", flush=True)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
