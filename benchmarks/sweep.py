"""Sweep benchmark: one `tesearch sweep` of several networks against one `tesearch search` each, in turn.

For each network prints the T and the winning entry of the sweep, and the T and wall seconds of
the plain search (`--strategy auto`, its default); then both totals.  The sweep's wall time
includes starting and stopping a local Ray (about 5 and 3 s on the 2-core project machine).
Usage:

    .venv/bin/python -m benchmarks.sweep [--num-cpus 2] [--timeout 120] [NETWORK ...]

Past measurements: docs/notes/benchmark-runs.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESEARCH = str(Path(sys.executable).with_name("tesearch"))
DEFAULT = ["star-4", "ring-8", "hypercube-4", "torus-4x8", "ring-8:cyclic", "pancake-4", "bubblesort-4"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("networks", nargs="*", default=DEFAULT)
    ap.add_argument("--num-cpus", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as out:
        t0 = time.monotonic()
        proc = subprocess.run([TESEARCH, "sweep", *args.networks, "--num-cpus", str(args.num_cpus), "--timeout",
                               str(args.timeout), "--out-dir", out, "--json", "--quiet"], capture_output=True, text=True)
        sweep_s = time.monotonic() - t0
    swept = dict(zip(dict.fromkeys(args.networks), json.loads(proc.stdout)["networks"]))  # in the order given
    search_total = 0.0
    print(f"{'network':16s} {'bound':>6s} {'sweep T':>8s} {'won by':24s} {'search T':>9s} {'search s':>9s}")
    for spec in args.networks:
        t0 = time.monotonic()
        done = subprocess.run([TESEARCH, "search", spec, "--timeout", str(args.timeout), "--json", "--quiet"],
                              capture_output=True, text=True)
        seconds = time.monotonic() - t0
        search_total += seconds
        T = json.loads(done.stdout)["T"] if done.stdout.strip() else None
        n = swept.get(spec, {})
        print(f"{spec:16s} {n.get('best_bound', '-')!s:>6s} {n.get('T')!s:>8s} {str(n.get('won_by') or n.get('best_by')):24s} "
              f"{T!s:>9s} {seconds:9.1f}")
    print(f"sweep (exit {proc.returncode}, {args.num_cpus} CPUs): {sweep_s:.1f} s wall; "
          f"searches one after another: {search_total:.1f} s wall")


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
