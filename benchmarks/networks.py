"""Network front-end benchmark: group build and full `tesearch info` times by network size.

Prints one row per network: nodes, degree, diameter, seconds to build the Cayley graph
(SymPy order check + numpy BFS + multiplication tables), and seconds for everything
`tesearch info` computes (rotation, orbits, exceptional words, all bounds).  Usage:

    .venv/bin/python -m benchmarks.networks [--skip-star9]
"""

from __future__ import annotations

import argparse
import time

from tesearch.networks.groups import cayley_graph
from tesearch.facts.info import network_info
from tesearch.networks.families import network_from_spec

NETWORKS = ["star-6", "star-7", "star-8", "star-9", "pancake-7", "bubblesort-7",
            "hypercube-12", "hypercube-16", "torus-32x32", "torus-12x12x12"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-star9", action="store_true")
    args = ap.parse_args()
    print(f"{'network':16s} {'nodes':>8s} {'degree':>6s} {'diam':>4s} {'build s':>8s} {'info s':>8s}")
    for spec in NETWORKS:
        if args.skip_star9 and spec == "star-9":
            continue
        net = network_from_spec(spec)
        t0 = time.monotonic()
        cg = cayley_graph(net)
        build = time.monotonic() - t0
        t0 = time.monotonic()
        network_info(net)
        info = time.monotonic() - t0
        print(f"{spec:16s} {cg.order:8d} {cg.degree:6d} {cg.diameter:4d} {build:8.2f} {info:8.2f}", flush=True)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
