"""MPI benchmark: a table's schedule under the C executors against MPI_Alltoall on the same blocks.

Usage: nice -n 10 .venv/bin/python -m benchmarks.mpi [--networks star-4,...] [--sizes 8,64K,1M]
       [--repeat 3] [--max-memory 10G] [--executor all] [--dataflow 1:1] [--json FILE]

For each network (a table in results/) and block size it runs what ``tesearch run TABLE --mpi`` runs (the check of
every schedule, then each executor asked for, one rank per node, the MPI library of the mpi extra) and prints
ranks, steps, messages, the best time of the schedule under each executor (step, dataflow K:W, combined: all by
default) and of MPI_Alltoall (the slowest rank's, best of --repeat over every executor's run), the whole run's wall
time, its peak memory, and the verdict.  A combination whose memory estimate exceeds --max-memory is listed as
skipped, not run.  results/mpi.md quotes a run and says what such numbers on one shared-memory machine can and
cannot show.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from tesearch.cli.programs import executor_kinds, mpi_jobs
from tesearch.schedules.execute.hops import HopSchedule
from tesearch.schedules.execute.mpi import MpiRun, launch, memory_estimate
from tesearch.running.files import RECORD_KIND, write_output
from tesearch.running.limits import format_bytes, parse_bytes
from tesearch.schedules.programs.schedule import compile_schedule
from tesearch.tables.table import read_table

ROOT = Path(__file__).resolve().parent.parent

NETWORKS = ("hypercube-4", "star-4", "torus-4x4", "torus-4x4x8", "star-5")
SIZES = ("8", "64K", "1M")


def main(argv: list[str] | None = None) -> int:
    """Run every network and size asked for; print one table row per run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default=",".join(NETWORKS))
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-memory", default="10G")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per network and size")
    parser.add_argument("--executor", default="all", help="as tesearch run --executor")
    parser.add_argument("--dataflow", default="1:1", help="as tesearch run --dataflow")
    parser.add_argument("--json", default=None, help="also write the rows here")
    args = parser.parse_args(argv)
    budget = parse_bytes(args.max_memory)
    kinds = executor_kinds(args.executor)
    rows = []
    print(f"{os.cpu_count()} cores; best of {args.repeat} repeat(s); times are the slowest rank's", flush=True)
    header = None
    for network in args.networks.split(","):
        compiled = compile_schedule(read_table(ROOT / "results" / f"{network}.json"))
        schedule = HopSchedule.from_compiled(compiled)
        schedules, jobs, bundle = mpi_jobs(schedule, kinds, args.dataflow)
        names = [job.name for job in jobs]
        if header is None:
            header = (f"{'network':<13}{'ranks':>6}{'steps':>6}{'messages':>9}{'bytes':>9}"
                      + "".join(f"{name + ' s':>{max(12, len(name) + 4)}}" for name in names)
                      + f"{'alltoall s':>12}{'run wall s':>11}{'peak mem':>10}  verdict")
            print(header, flush=True)
        letters = len(compiled.letters)
        for size_text in args.sizes.split(","):
            block = parse_bytes(size_text)
            ranks = compiled.ranks
            needed = memory_estimate(ranks, block, max(letters, 2 * letters * bundle))
            if needed > budget:
                row = {"network": network, "ranks": ranks, "bytes": block, "verdict":
                       f"skipped: needs about {format_bytes(needed)} (> {format_bytes(budget)})"}
                print(f"{network:<13}{ranks:>6}{'':>15}{format_bytes(block):>9}  {row['verdict']}", flush=True)
                rows.append(row)
                continue
            report = launch(MpiRun(ranks, block, tuple(schedules), tuple(jobs), compiled.table.T, schedule.hops,
                                   args.repeat, args.timeout, budget))
            d = report.data
            row = {"network": network, "ranks": d["ranks"], "steps": d["steps"], "messages": d["messages"],
                   "bytes": block, **{f"{name}_s": min(d["runs"][name]["schedule_s"]) for name in d["runs"]},
                   "alltoall_s": min(d["alltoall_s"]) if d["alltoall_s"] else None, "wall_s": report.wall_s,
                   "peak_bytes": report.peak_resident_bytes, "library": d["library"],
                   "held_blocks": {name: d["runs"][name]["held_blocks"] for name in d["runs"]},
                   "verdict": "match" if report.ok else
                   "FAULT (" + ", ".join(f"{c['schedule']} {c['fault_count']}" for c in d["checks"]) + "; " +
                   ", ".join(f"{name} {d['runs'][name]['fault_count']}" for name in d["runs"]) + ")"}
            rows.append(row)
            print(f"{network:<13}{row['ranks']:>6}{row['steps']:>6}{row['messages']:>9}{format_bytes(block):>9}"
                  + "".join(f"{row.get(name + '_s', float('nan')):>{max(12, len(name) + 4)}.4f}" for name in names)
                  + f"{row['alltoall_s'] or float('nan'):>12.4f}{row['wall_s']:>11.1f}"
                  f"{format_bytes(row['peak_bytes']):>10}  {row['verdict']}", flush=True)
    libraries = sorted({r["library"] for r in rows if "library" in r})
    print(f"MPI library: {', '.join(libraries)}")
    if args.json:
        write_output(args.json, json.dumps(rows, indent=1) + "\n", kind=RECORD_KIND)
    return 0 if all(r["verdict"] == "match" or r["verdict"].startswith("skipped") for r in rows) else 1


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
