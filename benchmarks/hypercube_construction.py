"""Build and check the doubling tables for hypercube-d: words, T, seconds, peak memory and file sizes.

For each d: build (``hypercube_table``), the prover's Theorem 1 (``verify_table``), the kernel's
Theorem 1 (its own loader, BFS and numpy pass), the size of the table as JSON and as ``.json.gz``,
and the process's peak resident memory so far (``resource.getrusage``; run one d per process,
``--only D``, for a per-size figure).  The construction works for every d
(docs/proofs/hypercube.md); a size the checkers cannot rebuild is reported as such.

Run: .venv/bin/python -m benchmarks.hypercube_construction [MAX_D] [--only D]   (default 20)
"""

from __future__ import annotations

import argparse
import gzip
import resource
import time

from tesearch.constructions.hypercube import hypercube_table
from tesearch.running.errors import ConstructionError
from tesearch.checking.kernel import MAX_CHECK_NODES, build_network, check_theorem1, input_from_json
from tesearch.tables.verify import verify_table


def peak_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(d: int) -> str:
    """One line of the report for hypercube-d."""
    start = time.perf_counter()
    try:
        table = hypercube_table(d)
    except ConstructionError as exc:
        return f"{d:>3}  not constructed: {exc.message}"
    built = time.perf_counter()
    result = verify_table(table)
    verified = time.perf_counter()
    data = table.to_json()
    inp = input_from_json(data)
    net = build_network(inp.letters, inp.generators, max_nodes=MAX_CHECK_NODES)
    kernel_ok = check_theorem1(inp, net).ok
    checked = time.perf_counter()
    text = table.dumps().encode()
    packed = len(gzip.compress(text, compresslevel=9, mtime=0))
    status = "optimal" if result.optimal else ("valid" if result.ok else "INVALID")
    return (f"{d:>3} {len(table.placements):>8} {table.T:>7} {built - start:>8.2f} {verified - built:>9.2f} "
            f"{checked - verified:>9.2f} {len(text) / 1e6:>8.1f} {packed / 1e6:>8.2f} {peak_mb():>8.0f}  "
            f"{status}, kernel {'VALID' if kernel_ok else 'INVALID'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("max_d", nargs="?", type=int, default=20)
    parser.add_argument("--only", type=int, help="measure this d alone")
    args = parser.parse_args()
    print(f"{'d':>3} {'words':>8} {'T':>7} {'build_s':>8} {'verify_s':>9} {'kernel_s':>9} {'json_MB':>8} "
          f"{'gz_MB':>8} {'peak_MB':>8}  result", flush=True)
    for d in ([args.only] if args.only else range(1, args.max_d + 1)):
        print(measure(d), flush=True)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
