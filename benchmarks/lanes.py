"""Build and verify mirror-lane tables (tesearch/constructions/lanes.py) for every m x n x n in range; print times.

    .venv/bin/python -m benchmarks.lanes              # 4 | m < n, n even, n <= 24
    .venv/bin/python -m benchmarks.lanes --max-n 64 --report results/lanes-bench.md
    .venv/bin/python -m benchmarks.lanes --min-n 48 --min-m 32 --max-n 64   # go on after n = 48, m = 28
    .venv/bin/python -m benchmarks.lanes --restate results/lanes-bench.md   # the bound column recomputed now

Each row: the shape, its nodes, T, two lower bounds, whether the table is valid and meets them,
the number of shells (braids) the port-matching rule chains, and the seconds to build (the
construction verifies every table it returns with tesearch.tables.verify before returning it). *bound* is tesearch.facts.bounds' best (on large networks its per-letter part falls back to
single-letter minima, which can lie below T); *kernel* is the checking kernel's best bound,
which includes set bounds such as {b, B} (each of a long ring's two letters once per column)
and so reaches m * n * (n/2)^2 / 2 on every shape; it is computed up to --kernel-max-nodes
nodes (beyond, the column says "closed form": Lemma 1 of docs/proofs/lanes.md). *optimal*
means T equals the kernel's bound (or the closed form) and verify_table found the table valid.
A shape the construction refuses prints FAILED with the reason (Lemma 6 says none does).

--restate FILE rewrites a report this script wrote, every column as the runs printed it, with each *bound* below
the row's proved bound (the *kernel* column, or Lemma 1's closed form) marked superseded: the runs printed the
prover's estimate of the time (since issue 40 the prover derives the letter-set bounds too: 10648 for 8x22x22,
where the run printed 10560).  Nothing is computed again.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from scripts.markdown_report import Report

from tesearch.constructions.lanes import mirror_lane_table
from tesearch.running.errors import ConstructionError
from tesearch.checking.kernel import build_network, input_from_json, kernel_bounds, target_mask
from tesearch.networks.families import network_from_spec
from tesearch.running.files import MARKDOWN_KIND, write_output
from tesearch.tables.verify import verify_table


#: the kernel's bound is computed on shapes up to this many nodes (--kernel-max-nodes); beyond, Lemma 1's closed form
KERNEL_MAX_NODES = 60000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=24)
    parser.add_argument("--min-n", type=int, default=6, help="first n (default 6)")
    parser.add_argument("--min-m", type=int, default=4,
                        help="first m at the first n (default 4; to go on from where a stopped run ended)")
    parser.add_argument("--kernel-max-nodes", type=int, default=KERNEL_MAX_NODES,
                        help="compute the kernel's bound only on shapes up to this many nodes (default 60000)")
    parser.add_argument("--report", default=None, metavar="FILE",
                        help="also write the table, with the command and date, to FILE (results/lanes-bench.md)")
    parser.add_argument("--restate", default=None, metavar="FILE",
                        help="rewrite FILE (a report of this script) with each bound below the proved one marked "
                             "superseded")
    args = parser.parse_args()
    if args.restate:
        return restate(args.restate)
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


ROW = re.compile(r"^\| (torus-\d+x\d+x\d+) \| (.*) \|$")


def restate(path: str) -> int:
    """Rewrite the report at ``path`` with every *bound* below the row's proved bound marked superseded (module doc)."""
    text = Path(path).read_text()
    head, _, rest = text.partition("\n| shape |")
    body = rest.split("\n", 2)[2]  # after the header row and the rule
    rows, tail = [], []
    for line in body.split("\n"):
        match = ROW.match(line)
        if match:
            rows.append((match.group(1), match.group(2).split(" | ")))
        elif line.strip():  # the runs' summary, without its sentence on the bound column (restated above)
            tail.append(re.sub(r" \*bound\* below T .*?\(see the script's doc\)\.", "", line))
    if not rows:
        print(f"benchmarks.lanes: {path} holds no rows of this script's report", file=sys.stderr)
        return 2
    lines, superseded = [], []
    for spec, (nodes, T, bound, kernel, optimal, shells, seconds) in rows:
        proved = T if kernel == "closed form" else kernel  # Lemma 1's closed form is T on every row
        bound = bound.removesuffix(" (superseded)")
        if bound.isdigit() and proved.isdigit() and int(bound) < int(proved):
            superseded.append(f"{spec} {bound} < {proved}")
            bound += " (superseded)"
        lines.append(f"| {spec} | {nodes} | {T} | {bound} | {kernel} | {optimal} | {shells} | {seconds} |")
    note = (f"*bound* is what the runs printed: tesearch.facts.bounds' estimate then, which fell back to "
            f"single-letter minima on large shapes. In the {len(superseded)} rows marked **(superseded)** it lies "
            f"below the row's proved bound, the *kernel* column (the checking kernel's bound, or Lemma 1's closed "
            f"form beyond {KERNEL_MAX_NODES} nodes), for example {'; '.join(superseded[:2])}. The prover now derives "
            f"the letter-set bounds too (`tesearch info torus-8x22x22` gives 10648, `torus-28x30x30` 94500). Marked "
            f"by `python -m benchmarks.lanes --restate {path}`; every other column is the runs' own.")
    restated = "\n".join([head.rstrip("\n").split("\n\n*bound* is what the runs printed")[0], "", note, "",
                          "| shape | nodes | T | bound | kernel | optimal | shells | seconds |",
                          "|---|---|---|---|---|---|---|---|", *lines, "", *tail]) + "\n"
    write_output(path, restated, kind=MARKDOWN_KIND)
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
