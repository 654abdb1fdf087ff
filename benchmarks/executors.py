"""The executors' parameters in simulated time: the dataflow executor's K x W grid, bundles sent as pieces, and the
pipelined executor (its P x W grid, its rule, and the optimal table pipelined beside combining on every network).

Usage: nice .venv/bin/python -m benchmarks.executors [--networks hypercube-7,...] [--report results/executors.md]
       [--json results/executors.json] [--report-only] [--pipelined-only] [--pipelined-networks ...]

* **Dataflow grid** (SMPI model, 64 KiB blocks): the optimal table under the out-of-order dataflow executor for every
  K (positions from a link's first unsent hop among which it may send any hop whose block is here) and W (hops in
  flight per link) of the grid, beside the step executor and the combined executor (balanced supersteps): what
  reordering and overlap reach without bundling, and what they hold in memory.
* **Pieces** (SMPI and CM02 models, 64 KiB and 1 MiB): the table's balanced supersteps under the combined executor
  with each bundle sent whole or as pieces of 8 KiB and 64 KiB.  SMPI's bandwidth factor is above 1 for messages
  of about 5.8 to 9.4 KB, so pieces of that size cross a link faster than its nominal bandwidth; the link-time bound
  assumes the nominal one (CM02 has no factors).  Small networks only: a simulation of many small concurrent
  messages costs SimGrid minutes on 128 ranks.

* **Pipelined grid** (torus-8x8, 64 KiB, SMPI and CM02): the optimal table under the pipelined executor for P pieces
  per hop and W pieces in flight per link, beside the rule's choice.
* **Pipelined on every network** (SMPI and CM02, 64 KiB and 1 MiB): the optimal table under the pipelined executor
  by its rule and, at 64 KiB, the non-optimal tables too (time follows T?), beside the combined contenders of the
  study (results/simulate.json, read, not rerun: the same platform and models).
* **One link** (``--one-link``, SMPI and CM02): what torus-8x8's busiest link carries at 1 MiB under the pipelined
  executor, 64 blocks of 1 MiB in pieces sent in order with a window of W pieces in flight
  (benchmarks/one_link.c, two ranks on one link of the study's platform), against the link-time bound: what
  SimGrid's sharing of a link among concurrent messages costs before any network is involved.

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
from tesearch.schedules.execute.pipeline import Link
from tesearch.running.limits import format_bytes

ROOT = Path(__file__).resolve().parent.parent

GRID = (1, 4, 16, 64, 128)
GRID_NETWORKS = {"hypercube-7": "results/hypercube-7.json", "torus-8x8": "results/torus-8x8.json",
                 "torus-4x4x8": "results/torus-4x4x8.json", "star-5": "results/star-5.json"}
PIECES_NETWORKS = {"hypercube-3": "results/hypercube-3.json", "hypercube-5": "results/hypercube-5.json",
                   "torus-4x4": "results/torus-4x4.json"}
#: the pipelined executor's grid: pieces per hop x pieces in flight per link, on torus-8x8 at 64 KiB
PIPELINED_SPLITS = (4, 8, 16)
PIPELINED_WINDOWS = (2, 3, 4, 5, 7, 9)
PIPELINED_GRID_NETWORK = "torus-8x8"
#: the networks of the study the pipelined executor runs on (benchmarks/simulate.py's PLAN names their tables)
PIPELINED_NETWORKS = {"torus-8x8": "results/torus-8x8.json", "hypercube-7": "results/hypercube-7.json",
                      "torus-4x4x8": "results/torus-4x4x8.json",
                      "torus-4x4x8:twisted": "results/twisted/torus-4x4x8-twisted.json",
                      "star-5": "results/star-5.json", "torus-4x8x8": "results/frontier/torus-4x8x8.json",
                      "torus-4x8x8:twisted": "results/twisted/torus-4x8x8-twisted.json"}
MODELS = ("smpi", "cm02")
#: the non-optimal tables of the study (lineup.py's registry names)
NON_OPTIMAL = ("first-shortest-word table", "dimension-ordered table", "table widened x2")


def simulate(table: str, *options: str, non_optimal: bool = False) -> dict:
    """One ``tesearch simulate --json`` run (no MPI); its report."""
    command = [sys.executable, "-m", "tesearch.entry", "simulate", str(ROOT / table), "--json", "--quiet",
               "--mpi-algorithms", "none", "--non-optimal" if non_optimal else "--no-non-optimal", *options]
    if "--executor" not in options or "combined" in options[options.index("--executor") + 1]:
        command += ["--table-free", "none"]
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


def pipelined_grid_run(model: str) -> dict:
    """The pipelined executor's P x W grid on torus-8x8 at 64 KiB under one model, the rule first."""
    pairs = ",".join(["rule"] + [f"{p}:{w}" for p in PIPELINED_SPLITS for w in PIPELINED_WINDOWS])
    return simulate(PIPELINED_NETWORKS[PIPELINED_GRID_NETWORK], "--bytes", "64K", "--model", model, "--executor",
                    "pipelined", "--pipelined", pairs)


def pipelined_network_run(network: str, model: str, size: str, non_optimal: bool,
                          run_timeout: float | None = None) -> dict:
    """The optimal table under the pipelined executor by its rule on one network, model and size; with
    ``non_optimal``, the study's non-optimal tables too; ``run_timeout``: wall-clock seconds per smpirun run (None:
    simulate's default, grown with the square of the ranks)."""
    more = ("--run-timeout", f"{run_timeout:g}") if run_timeout else ()
    return simulate(PIPELINED_NETWORKS[network], "--bytes", size, "--model", model, "--executor", "pipelined", *more,
                    non_optimal=non_optimal)


#: the one-link stream: torus-8x8's table at 1 MiB puts 64 blocks on every link
ONE_LINK_BLOCKS = 64
ONE_LINK_BLOCK = 1 << 20
#: (pieces per block, windows): 16 pieces of 64 KiB (the rule before it kept both lengths in one SMPI factor
#: range), 14 (the rule's at 1 MiB under SMPI), 128 pieces of 8 KiB, and whole blocks
ONE_LINK_PIECES = ((16, (1, 2, 3, 5, 8, 16)), (14, (1, 2, 3, 5, 8, 16)), (128, (1, 2, 3, 5, 8, 16)), (1, (1, 2, 3)))


def one_link_runs(model: str) -> list[dict]:
    """benchmarks/one_link.c on a two-host platform of the study's link, under ``model``: one run per piece size,
    window and staggering (pieces of equal lengths, or alternating 9/8 and 7/8 as the executor's)."""
    import tempfile

    from tesearch.networks.families import network_from_spec
    from tesearch.schedules.programs.ranks import rank_numbering
    from tesearch.schedules.simulate import smpi
    from tesearch.schedules.simulate.platform import hostfile, platform_xml

    runs = []
    with tempfile.TemporaryDirectory(prefix="one-link-") as work:
        where = Path(work)
        (where / "platform.xml").write_text(platform_xml(rank_numbering(network_from_spec("hypercube-1")),
                                                         bandwidth_bps=1e10, latency_s=1e-6))
        (where / "hostfile").write_text(hostfile(2))
        subprocess.run([smpi.find_tool("smpicc"), "-O2", "-o", str(where / "one_link"),
                        str(ROOT / "benchmarks" / "one_link.c")], check=True, capture_output=True)
        cfg = [*smpi.BASE_CONFIGURATION, f"network/model:{model.upper()}", "smpi/shared-malloc-blocksize:4194304"]
        for split, windows in ONE_LINK_PIECES:
            piece = ONE_LINK_BLOCK // split
            count = ONE_LINK_BLOCKS * split
            for stagger in ((0, 1) if split > 1 else (0,)):
                for window in windows:
                    command = [smpi.find_tool("smpirun"), "-no-privatize", "-platform", "platform.xml", "-hostfile",
                               "hostfile", "-np", "2", *[f"--cfg={c}" for c in cfg], "./one_link", f"pieces={count}",
                               f"bytes={piece}", f"window={window}", f"stagger={stagger}"]
                    done = subprocess.run(command, cwd=where, capture_output=True, text=True)
                    seconds = [float(line.split("=", 1)[1]) for line in done.stdout.splitlines()
                               if line.startswith("seconds=")]
                    if done.returncode != 0 or not seconds:
                        raise SystemExit(f"one_link {piece} {window} {stagger}: {done.stderr.strip()[-300:]}")
                    runs.append({"piece": piece, "pieces": count, "window": window, "stagger": stagger,
                                 "seconds": seconds[0]})
    return runs


def one_link_section(data: dict[str, list[dict]]) -> list[str]:
    """The one-link stream's time over its link-time bound, per model, piece, window and staggering."""
    bound = ONE_LINK_BLOCKS * ONE_LINK_BLOCK / 1e10
    lines = ["## One link: what SimGrid's sharing costs a stream of pieces", "",
             f"What one link of torus-8x8 carries at 1 MiB under the pipelined executor ({ONE_LINK_BLOCKS} blocks of "
             "1 MiB, in pieces sent in order, at most W in flight with MPI_Issend, the receiver keeping W receives "
             "posted): benchmarks/one_link.c on two ranks joined by one link of the study's platform (10 GB/s, 1 us), "
             "no other traffic. Time over the link-time bound "
             f"({ONE_LINK_BLOCKS} MiB / 10 GB/s = {bound * 1e3:.3f} ms); pieces of one length, or alternating 9/8 and "
             "7/8 of it (staggered, as the executor's). A link that served its pieces in order, one at a time at "
             "its full bandwidth, the next one's latency spent while the one before crosses, would take the bound "
             f"plus one latency: {(bound + 1e-6) / bound:.4f}x. Floor: under SMPI a message of n bytes crosses at "
             "f x the bandwidth, f SimGrid 3.32's factor for its size (tesearch/schedules/execute/pipeline.py's "
             "SMPI_FACTORS: 0.94 from 65472 bytes, 0.70 from 15424, 1.09 from 5776 to 9375), so if that is the link's "
             "time for it whatever else is in flight, the stream takes at least the bytes' mean of 1 / f over the "
             "bound (CM02: 1).", "",
             "| model | pieces per block x length | staggered | floor | "
             + " | ".join(f"W = {w}" for w in (1, 2, 3, 5, 8, 16)) + " |", "|---|---|---|---|" + "---|" * 6]
    for model, runs in data.items():
        rows: dict[tuple[int, int, int], dict[int, float]] = {}
        for run in runs:  # each run over its own bytes on the wire (1 MiB / 14 leaves 4 bytes a block out)
            key = (run["pieces"] // ONE_LINK_BLOCKS, run["piece"], run["stagger"])
            rows.setdefault(key, {})[run["window"]] = run["seconds"] / (run["pieces"] * run["piece"] / 1e10)
        for (split, piece, stagger), by_window in sorted(rows.items(), key=lambda item: item[0]):
            cells = [f"{by_window[w]:.3f}x" if w in by_window else "" for w in (1, 2, 3, 5, 8, 16)]
            sizes = (piece + piece // 8, piece - piece // 8) if stagger else (piece,)
            lengths = " and ".join(str(n) for n in sizes) + " B"
            floor = 1.0
            if model == "smpi":
                link = Link(1e-6, 1e10, smpi_factors=True)
                floor = sum(link.message(n)[1] for n in sizes) / (sum(sizes) / 1e10)
            lines.append(f"| {model.upper()} | {split} x {lengths} | {'yes' if stagger else 'no'} | {floor:.3f}x | "
                         + " | ".join(cells) + " |")
    lines += ["", "Command: `python -m benchmarks.executors --one-link`", ""]
    return lines


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


def _cell(run: dict, bound: float) -> str:
    if run["status"] == "ok":
        return f"{run['seconds'] / bound:.3f}x ({run['held_bytes'] / run['bytes']:.1f})"
    if run.get("at_least_s"):
        return f">= {run['at_least_s'] / bound:.2f}x (cut)"
    return run["status"]


def pipelined_grid_section(reports: dict[str, dict]) -> list[str]:
    """The P x W grid under each model, the rule's choice named."""
    lines = ["## The pipelined executor: pieces per hop x pieces in flight", "",
             f"The optimal table of {PIPELINED_GRID_NETWORK} (T = 64) at 64 KiB: every hop in P pieces (alternating "
             "9/8 and 7/8 of the mean length), each forwarded as soon as it is here, the table's order kept on every "
             "link, at most W pieces in flight per link, each sent with MPI_Issend. Time over the link-time bound "
             "(peak blocks held at a node: pieces held, in blocks). A run is stopped once it cannot beat the best "
             "time of the grid so far (`cut`, with the multiple it had reached).", ""]
    for model, report in reports.items():
        runs = _runs(report, 65536)
        bound = report["sizes"][0]["bound_s"]
        rule = runs["table (pipelined)"]
        lines += [f"### {model.upper()}", "",
                  f"The rule (P = {rule.get('split')}, W = {rule.get('inflight')}): {_cell(rule, bound)}.", "",
                  "| P \\ W | " + " | ".join(str(w) for w in PIPELINED_WINDOWS) + " |",
                  "|---|" + "---|" * len(PIPELINED_WINDOWS)]
        for p in PIPELINED_SPLITS:
            cells = [_cell(runs[f"table (pipelined P={p} W={w})"], bound) for w in PIPELINED_WINDOWS]
            lines.append(f"| {p} | " + " | ".join(cells) + " |")
        lines += ["", f"Command: `{report['command']}`", ""]
    return lines


def _study_records() -> dict:
    path = ROOT / "results" / "simulate.json"
    return json.loads(path.read_text())["records"] if path.exists() else {}


def _combined(record: dict | None, size: int) -> tuple[dict | None, dict | None]:
    """(greedy combining's run, the fastest combined run) of a study record at a size."""
    if record is None:
        return None, None
    runs = [r for s in record["sizes"] if s["bytes"] == size for r in s["runs"]
            if r["contender"].endswith("(combined)") and r["family"] in ("table", "table-free")]
    timed = [r for r in runs if r["status"] == "ok"]
    greedy = next((r for r in runs if r["contender"] == "greedy combining (combined)"), None)
    return greedy, min(timed, key=lambda r: r["seconds"], default=None)


def pipelined_networks_section(data: dict) -> list[str]:
    """The optimal table pipelined beside greedy combining and the best combined contender, and the non-optimal
    tables' times against their widths."""
    records = _study_records()
    lines = ["## The optimal table pipelined, beside combining, on every network", "",
             "The pipelined executor by its rule (P pieces per hop, W in flight per link: "
             "tesearch/schedules/execute/pipeline.py) against the combined contenders of the study "
             "(results/simulate.json: greedy combining, and the fastest of every combined schedule with or without "
             "the table's words). Time over the link-time bound; memory as the most blocks a node holds at once "
             "beyond its send and receive buffers (the pipelined executor holds pieces: their bytes in blocks). "
             "Bound per link per node of the issue: two blocks per link.", "",
             "| network | model | size | pipelined (P, W) | x bound | peak blocks / 2 per link | "
             "greedy combining x bound | "
             "peak blocks | best combined | x bound | peak blocks | pipelined / best combined |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for key, report in data.get("pipelined", {}).items():
        network, model, _ = key.split("|")
        record = records.get(f"{network}|{model}")
        for summary in report["sizes"]:
            size, bound = summary["bytes"], summary["bound_s"]
            run = next(r for r in summary["runs"] if r["contender"] == "table (pipelined)")
            greedy, best = _combined(record, size)
            if run["status"] == "ok":
                shown = (f"{run['seconds'] / bound:.3f}x",
                         f"{run['held_bytes'] / size:.1f} / {2 * report['links'] // report['ranks']}")
            elif run.get("at_least_s"):  # stopped by the wall clock: what its simulated time had reached
                shown = (f"{run['status']} (>= {run['at_least_s'] / bound:.2f}x after {run['wall_s']:.0f} s)", "")
            else:
                shown = (run["status"], "")
            def figures(other):
                if other is None or other.get("status") != "ok":
                    return ("not in the study", "")
                return (f"{other['seconds'] / bound:.3f}x", str(other["held_blocks"]))
            g, b = figures(greedy), figures(best)
            ratio = (f"{run['seconds'] / best['seconds']:.3f}" if run["status"] == "ok" and best is not None
                     else "")
            name = best["contender"].removesuffix(" (combined)") if best is not None else ""
            lines.append(f"| {network} | {model.upper()} | {format_bytes(size)} | ({run.get('split')}, "
                         f"{run.get('inflight')}) | {shown[0]} | {shown[1]} | {g[0]} | {g[1]} | {name} | {b[0]} | "
                         f"{b[1]} | {ratio} |")
    lines += ["", "### Time follows T: the non-optimal tables pipelined (64 KiB)", "",
              "Each valid table under the pipelined executor by its rule; T' / T is its width over the optimal "
              "table's, time' / time its time over the optimal table's. Where the two agree, the executor turns "
              "the table's width into time and the optimal table's T is what it is worth.", "",
              "| network | model | table | T' / T | time' / time | (time' / time) / (T' / T) |", "|---|---|---|---|---|---|"]
    for key, report in data.get("pipelined", {}).items():
        network, model, size = key.split("|")
        if size != "64K":
            continue
        steps = {s["contender"]: s.get("width") for s in report.get("schedules", []) if isinstance(s, dict)}
        runs = _runs(report, 65536)
        base = runs.get("table (pipelined)")
        if base is None or base["status"] != "ok":
            continue
        for name in NON_OPTIMAL:
            run = runs.get(f"{name} (pipelined)")
            if run is None or not steps.get(name):
                continue
            width = steps[name] / report["T"]
            if run["status"] == "ok":
                time_ratio = run["seconds"] / base["seconds"]
                lines.append(f"| {network} | {model.upper()} | {name} | {width:.3f} | {time_ratio:.3f} | "
                             f"{time_ratio / width:.3f} |")
            elif run.get("at_least_s"):  # stopped once slower than its family's best: a lower bound
                time_ratio = run["at_least_s"] / base["seconds"]
                lines.append(f"| {network} | {model.upper()} | {name} | {width:.3f} | >= {time_ratio:.3f} (stopped: "
                             f"slower than the family's best) | >= {time_ratio / width:.3f} |")
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
    parser.add_argument("--pipelined-only", action="store_true", help="only the pipelined executor's runs")
    parser.add_argument("--pipelined-networks", default=",".join(PIPELINED_NETWORKS))
    parser.add_argument("--pipelined-sizes", default="64K,1M")
    parser.add_argument("--pipelined-models", default=",".join(MODELS))
    parser.add_argument("--no-pipelined-grid", action="store_true", help="skip the P x W grid")
    parser.add_argument("--non-optimal-sizes", default="64K",
                        help="sizes at which the non-optimal tables run pipelined too (the rest: the optimal table)")
    parser.add_argument("--run-timeout", type=float, default=None,
                        help="wall-clock seconds per pipelined run on a network (default: simulate's, 300 s at 128 ranks)")
    parser.add_argument("--replace", action="store_true",
                        help="run the selected pipelined grid models and network runs again even if the JSON has them")
    parser.add_argument("--one-link", action="store_true",
                        help="run the one-link stream (benchmarks/one_link.c) under both models, and nothing else")
    parser.add_argument("--merge-from", nargs="*", default=[],
                        help="JSON files of other runs of this benchmark whose pipelined runs are added")
    args = parser.parse_args()
    path = Path(args.json)
    data = json.loads(path.read_text()) if path.exists() else {"grid": {}, "pieces": {}}
    data.setdefault("pipelined_grid", {})
    data.setdefault("pipelined", {})
    for other in args.merge_from:  # runs made in parallel into their own file
        more = json.loads(Path(other).read_text())
        for part in ("pipelined_grid", "pipelined"):  # what this file has already stays (it may hold more tables)
            for key, report in more.get(part, {}).items():
                data[part].setdefault(key, report)
    if args.merge_from:
        write_atomically(path, json.dumps(data, indent=1))
    if args.one_link:
        for model in MODELS:
            started = time.monotonic()
            data.setdefault("one_link", {})[model] = one_link_runs(model)
            print(f"one link {model}: {time.monotonic() - started:.0f} s", flush=True)
            write_atomically(path, json.dumps(data, indent=1))
    if not args.report_only and not args.one_link:
        for model in MODELS if not args.no_pipelined_grid else ():
            if model not in args.pipelined_models.split(",") or (model in data["pipelined_grid"] and not args.replace):
                continue  # kept: rerun with --replace
            started = time.monotonic()
            data["pipelined_grid"][model] = pipelined_grid_run(model)
            print(f"pipelined grid {model}: {time.monotonic() - started:.0f} s", flush=True)
            write_atomically(path, json.dumps(data, indent=1))
        for size in filter(None, args.pipelined_sizes.split(",")):
            for network in filter(None, args.pipelined_networks.split(",")):
                for model in filter(None, args.pipelined_models.split(",")):
                    key = f"{network}|{model}|{size}"
                    if key in data["pipelined"] and not args.replace:
                        continue
                    started = time.monotonic()
                    data["pipelined"][key] = pipelined_network_run(network, model, size,
                                                                   size in args.non_optimal_sizes.split(","),
                                                                   args.run_timeout)
                    print(f"pipelined {key}: {time.monotonic() - started:.0f} s", flush=True)
                    write_atomically(path, json.dumps(data, indent=1))
    if not args.report_only and not args.pipelined_only and not args.one_link:
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
    if data["pipelined_grid"]:
        lines += pipelined_grid_section(data["pipelined_grid"])
    if data["pipelined"]:
        lines += pipelined_networks_section(data)
    if data.get("one_link"):
        lines += one_link_section(data["one_link"])
    write_atomically(Path(args.report), "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
