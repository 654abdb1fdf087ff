"""Build and verify the doubling tables for hypercube-d: d, words, T, build and verify seconds.

Run: .venv/bin/python benchmarks/hypercube_construction.py [MAX_D]   (default 16)
"""

import sys
import time

from tesearch.constructions.hypercube import hypercube_table
from tesearch.verify import verify_table


def main(max_d: int = 16) -> None:
    print(f"{'d':>3} {'words':>7} {'T':>7} {'build_s':>8} {'verify_s':>9}  result")
    for d in range(1, max_d + 1):
        start = time.perf_counter()
        table = hypercube_table(d)
        built = time.perf_counter()
        result = verify_table(table)
        verified = time.perf_counter()
        status = "optimal" if result.optimal else ("valid" if result.ok else "INVALID")
        print(f"{d:>3} {len(table.placements):>7} {table.T:>7} {built - start:>8.2f} {verified - built:>9.2f}  {status}",
              flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 16)
