"""The lift's counting test (boundary_cut) on seed 003's n x n constructions and ring sizes m.

For each torus-m x n x n, with the ring side split off and seed 003's table for torus-nxn
as the factor, prints the factor's size, whether the boundary-column count refutes every
lift over it (and the cut: words, columns, demand > capacity), and the seconds it took.
A "room" row means the count refutes nothing; it does not mean a lift exists.
Run: .venv/bin/python -m benchmarks.boundary_cut [--n 6 8 10 12 16] [--m 2 3 4 5 6 8 10]
"""

from __future__ import annotations

import argparse
import time

from tesearch.search.lift import boundary_cut, factor_words, ring_words, split_off
from tesearch.networks.families import network_from_spec
from tesearch.checking.published.constructions import torus2d_even


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[6, 8, 10, 12, 16])
    ap.add_argument("--m", type=int, nargs="+", default=[2, 3, 4, 5, 6, 8, 10])
    args = ap.parse_args()
    print(f"{'network':>16} {'factor T':>8} {'words':>6} {'result':>7} {'cut words':>9} {'columns':>7} "
          f"{'demand':>6} {'capacity':>8} {'seconds':>7}")
    for n in args.n:
        factor = torus2d_even(n).table
        for m in args.m:
            network = network_from_spec(f"torus-{m}x{n}x{n}")
            ring, _, letter_map = split_off(network, 0)
            hwords = factor_words(factor, letter_map)
            start = time.perf_counter()
            cut = boundary_cut(hwords, factor.T, ring_words(ring))
            took = time.perf_counter() - start
            if cut is None:
                print(f"{network.spec:>16} {factor.T:>8} {len(hwords):>6} {'room':>7} {'-':>9} {'-':>7} {'-':>6} "
                      f"{'-':>8} {took:>7.2f}", flush=True)
            else:
                print(f"{network.spec:>16} {factor.T:>8} {len(hwords):>6} {'refuted':>7} {len(cut.words):>9} "
                      f"{len(cut.columns):>7} {cut.demand:>6} {cut.capacity:>8} {took:>7.2f}", flush=True)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
