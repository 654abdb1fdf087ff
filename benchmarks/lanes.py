"""Build and verify mirror-lane tables (tesearch/constructions/lanes.py) for every m x n x n in range; print times.

    .venv/bin/python -m benchmarks.lanes              # 4 | m < n, n even, n <= 24
    .venv/bin/python -m benchmarks.lanes --max-n 64 --report results/lanes-bench.md
    .venv/bin/python -m benchmarks.lanes --min-n 48 --min-m 32 --max-n 64   # go on after n = 48, m = 28

Each row: the shape, its nodes, T, two lower bounds, whether the table is valid and meets them,
the number of shells (braids) the port-matching rule chains, and the seconds to build (the
construction verifies every table it returns with tesearch.tables.verify before returning it). *bound* is tesearch.facts.bounds' best (on large networks its per-letter part falls back to
single-letter minima, which can lie below T); *kernel* is the checking kernel's best bound,
which includes set bounds such as {b, B} (each of a long ring's two letters once per column)
and so reaches m * n * (n/2)^2 / 2 on every shape; it is computed up to --kernel-max-nodes
nodes (beyond, the column says "closed form": Lemma 1 of docs/proofs/lanes.md). *optimal*
means T equals the kernel's bound (or the closed form) and verify_table found the table valid.
A shape the construction refuses prints FAILED with the reason (Lemma 6 says none does).
"""

from __future__ import annotations

import argparse
import time

from scripts.markdown_report import Report

from tesearch.constructions.lanes import mirror_lane_table
from tesearch.running.errors import ConstructionError
from tesearch.checking.kernel import build_network, input_from_json, kernel_bounds, target_mask
from tesearch.networks.families import network_from_spec
from tesearch.tables.verify import verify_table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=24)
    parser.add_argument("--min-n", type=int, default=6, help="first n (default 6)")
    parser.add_argument("--min-m", type=int, default=4,
                        help="first m at the first n (default 4; to go on from where a stopped run ended)")
    parser.add_argument("--kernel-max-nodes", type=int, default=60000,
                        help="compute the kernel's bound only on shapes up to this many nodes (default 60000)")
    parser.add_argument("--report", default=None, metavar="FILE",
                        help="also write the table, with the command and date, to FILE (results/lanes-bench.md)")
    args = parser.parse_args()
    out = Report(args.report, f"python -m benchmarks.lanes --min-n {args.min_n} --min-m {args.min_m} --max-n {args.max_n} "
                 f"--kernel-max-nodes {args.kernel_max_nodes}")
    failures = 0
    out.line("| shape | nodes | T | bound | kernel | optimal | shells | seconds |")
    out.line("|---|---|---|---|---|---|---|---|")
    for n in range(args.min_n + args.min_n % 2, args.max_n + 1, 2):
        for m in range(args.min_m if n <= args.min_n else 4, n, 4):
            spec = f"torus-{m}x{n}x{n}"
            start = time.perf_counter()
            try:
                table = mirror_lane_table(network_from_spec(spec))
            except ConstructionError as error:
                failures += 1
                out.line(f"| {spec} | {m * n * n} | FAILED: {error} | | | | | {time.perf_counter() - start:.2f} |")
                continue
            seconds = time.perf_counter() - start
            check = verify_table(table)
            closed_form = m * n * (n // 2) ** 2 // 2
            if m * n * n <= args.kernel_max_nodes:
                inp = input_from_json(table.to_json())
                net = build_network(inp.letters, inp.generators)
                kernel = kernel_bounds(net, list(inp.generators), target_mask(net, inp.exchange)).best
            else:
                kernel = "closed form"
            ok = check.ok and table.T == closed_form and kernel in (closed_form, "closed form")
            failures += not ok
            shells = table.extra["construction"]["shells"]
            out.line(f"| {spec} | {m * n * n} | {table.T} | {check.bounds.best} | {kernel} | {'yes' if ok else 'NO'} "
                     f"| {shells} | {seconds:.2f} |")
    out.line("")
    out.line("all valid and optimal" if not failures else f"{failures} shape(s) failed or not optimal")
    out.close()
    return 1 if failures else 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
