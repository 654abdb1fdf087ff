"""Build and verify the seed 003 general constructions over a range of sizes; print times.

    .venv/bin/python -m benchmarks.constructions            # 2D n <= 32, 3D n <= 12, rings n <= 64
    .venv/bin/python -m benchmarks.constructions --quick    # 2D n <= 15, 3D n <= 8
"""

from __future__ import annotations

import argparse
import time

from tesearch.checking.published.constructions import CONSTRUCTIONS, verify_construction


def sizes(quick: bool) -> dict[str, list[int]]:
    ring, two, three = (31, 15, 8) if quick else (64, 32, 12)
    return {
        "ring-odd": list(range(3, ring + 1, 2)),
        "ring-even": list(range(4, ring + 1, 2)),
        "torus2d-odd": list(range(3, two + 1, 2)),
        "torus2d-even": list(range(6, two + 1, 2)),
        "torus3d-odd": list(range(3, three + 1, 2)),
        "torus3d-even": list(range(6, three + 1, 2)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    failures = 0
    print(f"{'construction':14} {'n':>3} {'nodes':>6} {'T':>7} {'claimed':>7} {'bound':>7} {'valid':>5} {'seconds':>8}")
    for name, ns in sizes(args.quick).items():
        assert name in CONSTRUCTIONS
        for n in ns:
            start = time.perf_counter()
            check = verify_construction(name, n)
            seconds = time.perf_counter() - start
            ok = check.valid and check.T == check.claimed_T == check.bound
            failures += not ok
            nodes = check.verification.targets + 1
            print(f"{name:14} {n:>3} {nodes:>6} {check.T:>7} {check.claimed_T:>7} {check.bound:>7} "
                  f"{'yes' if ok else 'NO':>5} {seconds:>8.2f}", flush=True)
    print("all valid and optimal" if not failures else f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
