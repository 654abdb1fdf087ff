"""The executors' parameters in simulated time: the dataflow executor's K x W grid, and bundles sent as pieces.

Usage: nice .venv/bin/python -m benchmarks.executors [--networks hypercube-7,...] [--report results/executors.md]
       [--json results/executors.json] [--report-only]

* **Dataflow grid** (SMPI model, 64 KiB blocks): the optimal table under the out-of-order dataflow executor for every
  K (positions from a link's first unsent hop among which it may send any hop whose block is here) and W (hops in
  flight per link) of the grid, beside the step executor and the combined executor (balanced supersteps): what
  reordering and overlap reach without bundling, and what they hold in memory.
* **Pieces** (SMPI and CM02 models, 64 KiB and 1 MiB): the table's balanced supersteps under the combined executor
  with each bundle sent whole or as pieces of 8 KiB and 64 KiB.  SMPI's bandwidth factor is above 1 for messages
  of about 5.8 to 9.4 KB, so pieces of that size cross a link faster than its nominal bandwidth; the link-time bound
  assumes the nominal one (CM02 has no factors).  Small networks only: a simulation of many small concurrent
  messages costs SimGrid minutes on 128 ranks.

Each figure is a ``tesearch simulate --json`` run; the report gives times as multiples of the link-time bound and the
peak bytes held per node.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tesearch.running.files import write_atomically
from tesearch.running.limits import format_bytes

ROOT = Path(__file__).resolve().parent.parent

GRID = (1, 4, 16, 64, 128)
GRID_NETWORKS = {"hypercube-7": "results/hypercube-7.json", "torus-8x8": "results/torus-8x8.json",
                 "torus-4x4x8": "results/torus-4x4x8.json", "star-5": "results/star-5.json"}
PIECES_NETWORKS = {"hypercube-3": "results/hypercube-3.json", "hypercube-5": "results/hypercube-5.json",
                   "torus-4x4": "results/torus-4x4.json"}


def simulate(table: str, *options: str) -> dict:
    """One ``tesearch simulate --json`` run (no MPI); its report."""
    command = [sys.executable, "-m", "tesearch.entry", "simulate", str(ROOT / table), "--json", "--quiet",
               "--mpi-algorithms", "none", "--no-non-optimal", "--table-free", "none", *options]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: {done.stderr.strip()[-300:]}")
    report = json.loads(done.stdout)
    report["command"] = " ".join(["tesearch simulate", table] + list(options))
    return report


def grid_run(network: str) -> dict:
    """The dataflow grid of one network at 64 KiB."""
    pairs = ",".join(f"{k}:{w}" for k in GRID for w in GRID)
    return simulate(GRID_NETWORKS[network], "--bytes", "64K", "--dataflow", pairs, "--combine", "balanced")


def pieces_run(network: str, model: str) -> dict:
    """The combined executor with whole bundles and pieces, one network and model."""
    return simulate(PIECES_NETWORKS[network], "--bytes", "64K,1M", "--model", model, "--executor", "combined",
                    "--combine", "balanced", "--pieces", "8K,64K")


def _runs(report: dict, size: int) -> dict[str, dict]:
    return {r["contender"]: r for s in report["sizes"] if s["bytes"] == size for r in s["runs"]}


def grid_section(network: str, report: dict) -> list[str]:
    """One network's grid: time over the bound and blocks held, per K and W."""
    runs = _runs(report, 65536)
    bound = report["sizes"][0]["bound_s"]
    lines = [f"### {network} ({report['ranks']} ranks, T = {report['T']}), 64 KiB, SMPI", "",
             f"step executor {runs['table (step)']['seconds'] / bound:.2f}x the bound "
             f"({runs['table (step)']['held_blocks']} blocks held at a node at most); combined executor, balanced "
             f"supersteps {runs['table: balanced supersteps (combined)']['seconds'] / bound:.2f}x "
             f"({runs['table: balanced supersteps (combined)']['held_blocks']} blocks). Dataflow, time over the bound "
             f"(blocks held):", "",
             "| K \\ W | " + " | ".join(str(w) for w in GRID) + " |", "|---|" + "---|" * len(GRID)]
    for k in GRID:
        cells = []
        for w in GRID:
            run = runs[f"table (dataflow K={k} W={w})"]
            cells.append(f"{run['seconds'] / bound:.2f}x ({run['held_blocks']})" if run["status"] == "ok"
                         else run["status"])
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    lines += ["", f"Command: `{report['command']}`", ""]
    return lines


def pieces_section(network: str, reports: dict[str, dict]) -> list[str]:
    """Whole bundles against pieces, both models and both sizes."""
    lines = [f"### {network}", "", "| model | size | whole bundles | 8 KiB pieces | 64 KiB pieces |", "|---|---|---|---|---|"]
    for model, report in reports.items():
        for size in (65536, 1 << 20):
            runs = _runs(report, size)
            bound = next(s["bound_s"] for s in report["sizes"] if s["bytes"] == size)
            cells = []
            for name in ("table: balanced supersteps (combined)", "table: balanced supersteps (combined, 8 KiB pieces)",
                         "table: balanced supersteps (combined, 64 KiB pieces)"):
                run = runs[name]
                cells.append(f"{run['seconds'] / bound:.3f}x" if run["status"] == "ok" else run["status"])
            lines.append(f"| {model} | {format_bytes(size)} | " + " | ".join(cells) + " |")
    lines += [""]
    return lines


def main() -> int:
    """Run the grid and the pieces (or rebuild the report from the JSON) and write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default=",".join(GRID_NETWORKS))
    parser.add_argument("--pieces-networks", default=",".join(PIECES_NETWORKS))
    parser.add_argument("--json", default=str(ROOT / "results" / "executors.json"))
    parser.add_argument("--report", default=str(ROOT / "results" / "executors.md"))
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()
    path = Path(args.json)
    data = json.loads(path.read_text()) if path.exists() else {"grid": {}, "pieces": {}}
    if not args.report_only:
        for network in filter(None, args.networks.split(",")):
            started = time.monotonic()
            data["grid"][network] = grid_run(network)
            print(f"grid {network}: {time.monotonic() - started:.0f} s", flush=True)
            write_atomically(path, json.dumps(data, indent=1))
        for network in filter(None, args.pieces_networks.split(",")):
            for model in ("smpi", "cm02"):
                started = time.monotonic()
                data["pieces"].setdefault(network, {})[model] = pieces_run(network, model)
                print(f"pieces {network} {model}: {time.monotonic() - started:.0f} s", flush=True)
                write_atomically(path, json.dumps(data, indent=1))
    lines = ["# The executors' parameters in simulated time", "",
             "Made by `benchmarks/executors.py` (SimGrid, 10 GB/s and 1 us per directed link, the committed optimal "
             "tables). Times are multiples of the link-time bound (docs/simulate.md); blocks held are the most a rank "
             "holds beyond its send and receive buffers at once, as the executors count them.", "",
             "## The dataflow executor: K x W", "",
             "Each outgoing link sends any unsent hop among the K positions starting at its first unsent one whose "
             "block is here, with at most W hops in flight; each incoming link keeps K + W receives posted. K = W = 1 "
             "is strict schedule order.", ""]
    for network, report in data["grid"].items():
        lines += grid_section(network, report)
    lines += ["## Bundles as pieces", "",
              "The table's balanced supersteps under the combined executor, each bundle sent whole or as pieces. "
              "Under SMPI a piece of about 8 KiB gets a bandwidth factor above 1 (SimGrid's calibration), so a "
              "multiple below 1.0 there says the model, not the schedule, beat the bound; under CM02 (no factors) "
              "the bound holds.", ""]
    for network, reports in data["pieces"].items():
        lines += pieces_section(network, reports)
    write_atomically(Path(args.report), "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
