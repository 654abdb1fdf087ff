"""MPI benchmark: a table's schedule run rank by rank against MPI_Alltoall on the same blocks.

Usage: nice -n 10 .venv/bin/python -m benchmarks.mpi [--networks star-4,...] [--sizes 8,64K,1M]
       [--repeat 3] [--max-memory 8G] [--executor step|dataflow|both] [--json FILE]

For each network (a table in results/) and block size it runs ``tesearch run TABLE --mpi``'s
launcher (one rank per node, the MPI library of the mpi extra) and prints ranks, steps,
messages, the best wall time of the schedule under each executor asked for (step, dataflow: both
by default) and of MPI_Alltoall (the slowest rank's, best of --repeat), the whole mpiexec run's
wall time, its peak memory, and the verdict.  A combination
whose memory estimate (ranks x 3 x ranks x block bytes plus a base per rank) exceeds
--max-memory is listed as skipped, not run.  results/mpi.md quotes a run and says what such
numbers on one shared-memory machine can and cannot show.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from tesearch.files import RECORD_KIND, write_output
from tesearch.limits import format_bytes, parse_bytes
from tesearch.programs.launch import MpiRun, launch, memory_estimate

ROOT = Path(__file__).resolve().parent.parent

NETWORKS = ("hypercube-4", "star-4", "torus-4x4", "torus-4x4x8", "star-5")
SIZES = ("8", "64K", "1M")
RANKS = {"hypercube-4": 16, "star-4": 24, "torus-4x4": 16, "torus-4x4x8": 128, "star-5": 120}


def _nodes(table: Path) -> int:
    """Number of nodes of a table's network (for networks not in RANKS)."""
    from tesearch.programs.schedule import compile_schedule
    from tesearch.table import read_table

    return compile_schedule(read_table(table)).ranks


def main(argv: list[str] | None = None) -> int:
    """Run every network and size asked for; print one table row per run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default=",".join(NETWORKS))
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-memory", default="8G")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    parser.add_argument("--executor", choices=["step", "dataflow", "both"], default="both")
    parser.add_argument("--json", default=None, help="also write the rows here")
    args = parser.parse_args(argv)
    budget = parse_bytes(args.max_memory)
    executors = ["step", "dataflow"] if args.executor == "both" else [args.executor]
    header = (f"{'network':<13}{'ranks':>6}{'steps':>6}{'messages':>9}{'bytes':>9}"
              + "".join(f"{name + ' s':>12}" for name in executors)
              + f"{'alltoall s':>12}{'run wall s':>11}{'peak mem':>10}  verdict")
    print(f"{os.cpu_count()} cores; best of {args.repeat} repeat(s); times are the slowest rank's")
    print(header)
    rows = []
    for network in args.networks.split(","):
        table = ROOT / "results" / f"{network}.json"
        for size_text in args.sizes.split(","):
            block = parse_bytes(size_text)
            ranks = RANKS.get(network) or _nodes(table)
            needed = memory_estimate(ranks, block)
            if needed > budget:
                row = {"network": network, "ranks": ranks, "bytes": block, "verdict":
                       f"skipped: needs about {format_bytes(needed)} (> {format_bytes(budget)})"}
                print(f"{network:<13}{ranks:>6}{'':>6}{'':>9}{format_bytes(block):>9}{'':>12}"
                      + "".join(f"{'':>12}" for _ in executors) + f"{'':>11}"
                      f"{'':>10}  {row['verdict']}", flush=True)
                rows.append(row)
                continue
            report = launch(MpiRun(table, ranks, block, args.repeat, timeout_s=args.timeout, max_memory=budget,
                                   executor=args.executor))
            d = report.data
            row = {"network": network, "ranks": d["ranks"], "steps": d["steps"], "messages": d["messages"],
                   "bytes": block, **{f"{name}_s": min(d["runs"][name]["schedule_s"]) for name in executors},
                   "alltoall_s": min(d["alltoall_s"]),
                   "wall_s": report.wall_s, "peak_bytes": report.peak_resident_bytes, "library": d["library"],
                   "verdict": "match" if report.ok else
                   "FAULT (" + ", ".join(f"{name} {d['runs'][name]['fault_count']}" for name in executors) + ")"}
            rows.append(row)
            print(f"{network:<13}{row['ranks']:>6}{row['steps']:>6}{row['messages']:>9}{format_bytes(block):>9}"
                  + "".join(f"{row[name + '_s']:>12.4f}" for name in executors)
                  + f"{row['alltoall_s']:>12.4f}{row['wall_s']:>11.1f}"
                  f"{format_bytes(row['peak_bytes']):>10}  {row['verdict']}", flush=True)
    libraries = sorted({r["library"] for r in rows if "library" in r})
    print(f"MPI library: {', '.join(libraries)}")
    if args.json:
        write_output(args.json, json.dumps(rows, indent=1) + "\n", kind=RECORD_KIND)
    return 0 if all(r["verdict"] == "match" or r["verdict"].startswith("skipped") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
