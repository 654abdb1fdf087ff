"""SimGrid benchmark: each network's table beside every MPI_Alltoall algorithm, in simulated time.

Usage: nice -n 10 .venv/bin/python benchmarks/simulate.py [--networks hypercube-7,...] [--report-only]
       [--json results/simulate.json] [--markdown results/simulate.md] [--plot results/simulate.png]

For each network it runs ``tesearch simulate TABLE --json`` (its committed table) under SimGrid's
default SMPI model at every size of the network's plan, and again under the CM02 model (no per-size
factors) at 64 KiB and 1 MiB, and keeps every record in the JSON file (merged network by network, so
a later run adds to an earlier one and ``--report-only`` rebuilds the report and the plot from it).
The markdown report gives per network and size every contender's time as a multiple of the link-time
bound, the best MPI algorithm, the table under each executor, the ratio, and the crossover; the plot
shows time against message size, log-log, one line per contender plus the bound, one panel per network.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tesearch.files import write_atomically  # noqa: E402
from tesearch.limits import format_bytes  # noqa: E402
from tesearch.simulate.study import crossover, regular_over_twisted, summarise_size  # noqa: E402

#: MPI contenders of the large networks and of the CM02 runs (every algorithm would take hours there on a
#: shared machine): the library selectors and the algorithms they pick from
LARGE_ALGORITHMS = "ompi,mpich,mvapich2,impi,pair,bruck,ring"
#: the 128-rank networks: those and the other algorithms that apply, without the barrier variants
MEDIUM_ALGORITHMS = LARGE_ALGORITHMS + ",basic_linear,rdb,2dmesh,3dmesh,mvapich2_scatter_dest"
#: network -> (table, sizes under SMPI, MPI algorithms, seconds per smpirun run)
PLAN = {
    "hypercube-7": ("results/hypercube-7.json", "8,4K,64K,1M", "all", 90),
    "torus-8x8": ("results/torus-8x8.json", "8,4K,64K,1M", "all", 60),
    "torus-4x4x8": ("results/torus-4x4x8.json", "8,4K,64K,1M", MEDIUM_ALGORITHMS, 60),
    "torus-4x4x8:twisted": ("results/twisted/torus-4x4x8-twisted.json", "8,4K,64K,1M", MEDIUM_ALGORITHMS, 60),
    "star-5": ("results/star-5.json", "8,4K,64K,1M", MEDIUM_ALGORITHMS, 60),
    "torus-4x8x8": ("results/frontier/torus-4x8x8.json", "64K,1M", LARGE_ALGORITHMS, 300),
    "torus-4x8x8:twisted": ("results/twisted/torus-4x8x8-twisted.json", "64K,1M", LARGE_ALGORITHMS, 300),
    "star-6": ("results/star-6.json", "64K,1M", LARGE_ALGORITHMS, 600),
    "torus-8x8x16:twisted": ("results/twisted/torus-8x8x16-twisted.json", "64K", LARGE_ALGORITHMS, 900),
}
CM02_SIZES = "64K,1M"
GOAL_SIZES = (64 << 10, 1 << 20)
#: the combined executor's default contender (tesearch simulate --combine balanced)
COMBINED = "table (combined: balanced)"
PAIRS = (("torus-4x4x8", "torus-4x4x8:twisted"), ("torus-4x8x8", "torus-4x8x8:twisted"))


def run_network(network: str, model: str, python: str, algorithms_override: str | None = None,
                run_timeout_override: float | None = None, sizes_override: str | None = None,
                executor: str = "both", max_memory: str = "6G", budget: float | None = None) -> dict:
    """One ``tesearch simulate`` run; its JSON report (or a record of why there is none)."""
    table, sizes, algorithms, run_timeout = PLAN[network]
    sizes = sizes_override or sizes
    algorithms = algorithms_override or algorithms
    run_timeout = run_timeout_override or run_timeout
    if model == "cm02" and sizes_override is None:
        sizes = CM02_SIZES if network != "torus-8x8x16:twisted" else "64K"
        algorithms = LARGE_ALGORITHMS
    command = [python, "-m", "tesearch.entry", "simulate", str(ROOT / table), "--json", "--quiet",
               "--bytes", sizes, "--model", model, "--mpi-algorithms", algorithms,
               "--run-timeout", str(run_timeout), "--max-memory", max_memory, "--executor", executor]
    if budget is not None:
        command += ["--budget", str(budget)]
    started = time.monotonic()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        stdout, stderr = child.communicate()
    finally:
        if child.poll() is None:  # interrupted: the command kills its SimGrid run on SIGTERM
            child.terminate()
            child.wait()
    done = subprocess.CompletedProcess(command, child.returncode, stdout, stderr)
    wall = time.monotonic() - started
    if done.returncode not in (0, 1):
        return {"network": network, "model": model, "error": done.stderr.strip()[-500:], "wall_s": wall}
    report = json.loads(done.stdout)
    report.update(network_spec=network, wall_s=round(wall, 1), command=" ".join(
        ["tesearch simulate", table] + command[command.index("--bytes"):]))
    return report


def merge_sizes(old: dict | None, new: dict) -> dict:
    """``new`` (a run of some sizes) merged into ``old`` (the network's record): the sizes of both; at a size
    both ran, every contender's run from ``new`` where it ran there, else from ``old`` (a run ``new`` lists as
    "not run" keeps ``old``'s when that one ran; best MPI, best table and ratio recomputed); the contenders of
    both; the runs, wall time and commands added up."""
    if old is None or "error" in old or "error" in new:
        return new if old is None or "error" not in new else old
    merged = dict(old)
    sizes = {s["bytes"]: s for s in old["sizes"]}
    for size in new["sizes"]:
        earlier = sizes.get(size["bytes"])
        if earlier is not None:  # the same size run again with other contenders: each contender's latest run
            latest = {r["contender"]: r for r in size["runs"]}
            for r in earlier["runs"]:  # a contender a later study left "not run" (its budget) keeps what it did
                if latest.get(r["contender"], {}).get("status") == "not run" and r["status"] != "not run":
                    latest[r["contender"]] = r
            runs = [latest.pop(r["contender"], r) for r in earlier["runs"]] + list(latest.values())
            size = dict(summarise_size(size["bytes"], runs, size["bound_s"]),
                        counting_bound_s=size.get("counting_bound_s", earlier.get("counting_bound_s")))
        sizes[size["bytes"]] = size
    merged["sizes"] = [sizes[b] for b in sorted(sizes)]
    names = [c["name"] for c in old["contenders"]]
    merged["contenders"] = old["contenders"] + [c for c in new["contenders"] if c["name"] not in names]
    maps = {m["contender"]: m for m in old.get("combined", []) + new.get("combined", [])}  # the latest of each
    if maps:
        merged["combined"] = list(maps.values())
    merged["smpirun_runs"] = old["smpirun_runs"] + new["smpirun_runs"]
    merged["wall_s"] = round(old["wall_s"] + new["wall_s"], 1)
    merged["command"] = old["command"] + "`, then `" + new["command"]
    merged["crossover"] = crossover(merged["sizes"])  # the winners of every size, old and new
    return merged


def _key(record: dict) -> str:
    return f"{record.get('network_spec', record['network'])}|{record['model']}"


def _seconds(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def _run(size: dict, name: str) -> dict | None:
    return next((r for r in size["runs"] if r["contender"] == name), None)


def _multiple(run: dict | None) -> str:
    if run is None:
        return "-"
    if run["status"] != "ok":
        return run["status"]
    return f"{run['multiple_of_bound']:.2f}x"


def left_out(record: dict, every_mpi: list[str]) -> list[str]:
    """The MPI contenders SimGrid offers (the record's own list, else ``every_mpi``: those of every record) that
    this record did not run at all."""
    ran = {c["name"] for c in record.get("contenders", [])}
    return [name for name in record.get("mpi_available") or every_mpi if name not in ran]


def every_mpi_contender(records: dict) -> list[str]:
    """Every MPI contender named in any record (what SimGrid offers, from the records that ran them all)."""
    names: dict[str, None] = {}
    for record in records.values():
        for name in record.get("mpi_available") or [c["name"] for c in record.get("contenders", [])
                                                     if c["kind"] == "mpi"]:
            names.setdefault(name, None)
    return list(names)


def network_section(record: dict, every_mpi: list[str] = ()) -> list[str]:
    """One network under one model: a table per size (every contender, and a row for each one SimGrid offers
    that was not run), winners, crossover."""
    spec = record.get("network_spec", record["network"])
    if "error" in record:
        return [f"### {spec} ({record['model']})", "", f"no result: {record['error']}", ""]
    lines = [f"### {spec} ({record['model']} model)", "",
             f"{record['ranks']} ranks, {record['links']} directed links, T = {record['T']} (lower bound "
             f"{record['bound_steps']}; counting form {record['counting_steps']:.4g}), "
             f"{record['bandwidth_Bps'] / 1e9:g} GB/s and {record['latency_s'] * 1e6:g} us per link; "
             f"{record['smpirun_runs']} smpirun runs, {record['wall_s']:.0f} s wall. Command: `{record['command']}`", ""]
    sizes = record["sizes"]
    names = [c["name"] for c in record["contenders"]]
    lines.append("| contender | " + " | ".join(format_bytes(s["bytes"]) for s in sizes) + " |")
    lines.append("|---|" + "---|" * len(sizes))
    lines.append("| link-time bound | " + " | ".join(_seconds(s["bound_s"]) for s in sizes) + " |")
    partly = []
    for name in names:
        cells = []
        for s in sizes:
            run = _run(s, name)
            if run is None:
                cells.append("not run")
                partly += [] if name in partly else [name]
            elif run["status"] == "ok":
                cells.append(f"{_seconds(run['seconds'])} ({run['multiple_of_bound']:.2f}x)")
            else:
                cells.append(f"{run['status']}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    missing = left_out(record, list(every_mpi))
    for name in missing:
        lines.append(f"| {name} | " + " | ".join("not run" for _ in sizes) + " |")
    lines.append("| **best MPI** | " + " | ".join(
        (s["best_mpi"]["contender"] if s.get("best_mpi") else "-") for s in sizes) + " |")
    lines.append("| **best MPI / best table** | " + " | ".join(
        (f"{s['ratio_best_mpi_to_table']:.2f}" if "ratio_best_mpi_to_table" in s else "-") for s in sizes) + " |")
    lines.append("")
    reasons = {}
    for s in sizes:
        for run in s["runs"]:
            if run["status"] != "ok":
                reasons.setdefault(run["contender"], f"{run['status']}: {run.get('reason', '')}")
    if reasons:
        lines.append("Not run to the end: " + "; ".join(f"{name}: {why}" for name, why in reasons.items()) + ".")
        lines.append("")
    if missing or partly:
        lines.append(f"Not run (time: this network's runs in benchmarks/simulate.py named only some of SimGrid's "
                     f"contenders or sizes, each smpirun of {record['ranks']} ranks taking up to "
                     f"{record['run_timeout_s']:.0f} s of wall clock on a 2-core machine shared with other work; the "
                     f"findings above say what was measured of them elsewhere): "
                     + "; ".join(([f"at every size: {', '.join(missing)}"] if missing else [])
                                 + ([f"at some sizes: {', '.join(partly)}"] if partly else [])) + ".")
        lines.append("")
    lines.append(f"Crossover: {record['crossover']['text']}.")
    lines.append("")
    return lines


def goal_rows(records: dict) -> list[str]:
    """Combined, dataflow and step multiples of the bound at 64 KiB and 1 MiB, both models, and the best MPI
    ratio."""
    lines = ["| network | model | size | table (combined: balanced) | table (dataflow) | table (step) | best MPI "
             "| best MPI / best table |", "|---|---|---|---|---|---|---|---|"]
    for key, record in records.items():
        if "error" in record:
            continue
        for size in record["sizes"]:
            if size["bytes"] not in GOAL_SIZES:
                continue
            best = size.get("best_mpi")
            lines.append(f"| {record.get('network_spec', record['network'])} | {record['model']} | "
                         f"{format_bytes(size['bytes'])} | {_multiple(_run(size, COMBINED))} | "
                         f"{_multiple(_run(size, 'table (dataflow)'))} | "
                         f"{_multiple(_run(size, 'table (step)'))} | "
                         f"{best['contender'] + ' ' + _multiple(_run(size, best['contender'])) if best else '-'} | "
                         f"{size.get('ratio_best_mpi_to_table', float('nan')):.2f} |")
    return lines


def headline_rows(records: dict) -> list[str]:
    """Per network (SMPI model): best MPI / best table, and the dataflow and combined tables' multiples of the
    bound at 64 KiB and 1 MiB, and the crossover."""
    lines = ["| network | ranks | T | best MPI / best table, 64 KiB | 1 MiB | table x bound (dataflow executor), "
             "64 KiB | 1 MiB | combined (balanced) x bound, 64 KiB | 1 MiB | crossover |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for record in records.values():
        if record.get("model") != "smpi" or "error" in record:
            continue
        cells = {}
        for size in record["sizes"]:
            if size["bytes"] in GOAL_SIZES:
                ratio = size.get("ratio_best_mpi_to_table")
                dataflow, step = _run(size, "table (dataflow)"), _run(size, "table (step)")
                if dataflow is not None and dataflow["status"] == "ok" or step is None or step["status"] != "ok":
                    table = _multiple(dataflow)
                else:  # the dataflow executor did not run or did not finish: the step executor's, marked
                    table = f"{_multiple(step)} (step)" + ("" if dataflow is None else f"; dataflow {dataflow['status']}")
                cells[size["bytes"]] = (f"{ratio:.2f} ({size['best_mpi']['contender']})" if ratio else "-", table,
                                        _multiple(_run(size, COMBINED)))
        small, large = cells.get(GOAL_SIZES[0], ("-",) * 3), cells.get(GOAL_SIZES[1], ("-",) * 3)
        lines.append(f"| {record.get('network_spec', record['network'])} | {record['ranks']} | {record['T']} | "
                     f"{small[0]} | {large[0]} | {small[1]} | {large[1]} | {small[2]} | {large[2]} | "
                     f"{record['crossover']['text']} |")
    return lines


def twisted_rows(records: dict) -> list[str]:
    """Twisted against regular in simulated time, under the table and the best MPI algorithm (SMPI model)."""
    lines = ["| pair | size | table: regular / twisted | best MPI: regular / twisted |", "|---|---|---|---|"]
    for regular, twisted in PAIRS:
        a, b = records.get(f"{regular}|smpi"), records.get(f"{twisted}|smpi")
        if not a or not b or "error" in a or "error" in b:
            lines.append(f"| {regular} vs {twisted} | - | not measured | not measured |")
            continue
        for size, gain in regular_over_twisted(a, b).items():
            mpi = float("nan") if gain["mpi"] is None else gain["mpi"]
            lines.append(f"| {regular} vs {twisted} | {format_bytes(size)} | {gain['table']:.2f} | {mpi:.2f} |")
    return lines


def markdown(records: dict, notes: str) -> str:
    """The whole report."""
    lines = ["# Simulated time on SimGrid: tables against MPI_Alltoall", "",
             "Made by `benchmarks/simulate.py` (which runs `tesearch simulate` per network and model) from "
             "`results/simulate.json`; the plot is `results/simulate.png`. Method and the bound: docs/simulate.md.",
             "", "## Headline (SMPI model, 10 GB/s and 1 us per link)", ""]
    lines += headline_rows(records)
    lines += ["", notes, "", "## The goal: the table's time as a multiple of the link-time bound", ""]
    lines += goal_rows(records)
    lines += ["", "## Twisted against regular tori (simulated time, SMPI model)", ""]
    lines += twisted_rows(records)
    lines += ["", "## Every network, every contender", ""]
    every_mpi = every_mpi_contender(records)
    for record in records.values():
        lines += network_section(record, every_mpi)
    missing = [n for n in PLAN if f"{n}|smpi" not in records]
    if missing:
        lines += ["## Not reached", "", "Not simulated in this run (time): " + ", ".join(missing) + ".", ""]
    return "\n".join(lines) + "\n"


def plot(records: dict, path: Path) -> None:
    """Time against size, log-log, one panel per network (SMPI model): every contender and the bound."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chosen = [r for r in records.values() if r.get("model") == "smpi" and "error" not in r]
    if not chosen:
        return
    columns = min(3, len(chosen))
    rows = -(-len(chosen) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(5.5 * columns, 4.2 * rows), squeeze=False)
    # one colour per contender across every panel (the legend is shared): the table's executors fixed and strong
    names = list(dict.fromkeys(c["name"] for record in chosen for c in record["contenders"]))
    table_colours = {"table (step)": "tab:blue", "table (dataflow)": "tab:orange", COMBINED: "tab:green"}
    others = [n for n in names if n not in table_colours]
    palette = plt.get_cmap("tab20")
    colours = dict(table_colours, **{n: palette((i % 20) / 20 + 0.025) for i, n in enumerate(others)})
    for ax, record in zip(axes.flat, chosen):
        sizes = [s["bytes"] for s in record["sizes"]]
        ax.plot(sizes, [s["bound_s"] for s in record["sizes"]], "k--", linewidth=2, label="link-time bound")
        for contender in record["contenders"]:
            points = [(s["bytes"], r["seconds"]) for s in record["sizes"]
                      for r in s["runs"] if r["contender"] == contender["name"] and r["status"] == "ok"]
            if not points:
                continue
            table = contender["kind"] == "table"
            ax.plot(*zip(*points), marker="o" if table else ".", linewidth=2.5 if table else 0.8,
                    alpha=1.0 if table else 0.6, label=contender["name"], color=colours[contender["name"]])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{record.get('network_spec', record['network'])} ({record['ranks']} ranks)")
        ax.set_xlabel("block size (bytes)")
        ax.set_ylabel("simulated time (s)")
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axes.flat)[len(chosen):]:
        ax.axis("off")
    handles, labels = {}, {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    figure.legend(list(handles.values()), list(handles.keys()), loc="lower center", ncol=5, fontsize=7)
    figure.tight_layout(rect=(0, 0.12, 1, 1))
    scratch = path.with_suffix(".tmp.png")
    figure.savefig(scratch, dpi=90)
    os.replace(scratch, path)


def _terminate(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Simulate the networks asked for (merging into the JSON), then write the report and the plot."""
    signal.signal(signal.SIGTERM, _terminate)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default=",".join(PLAN))
    parser.add_argument("--models", default="smpi,cm02")
    parser.add_argument("--json", default=str(ROOT / "results" / "simulate.json"))
    parser.add_argument("--markdown", default=str(ROOT / "results" / "simulate.md"))
    parser.add_argument("--plot", default=str(ROOT / "results" / "simulate.png"))
    parser.add_argument("--notes", default=str(ROOT / "docs" / "notes" / "simulate-findings.md"),
                        help="hand-written findings included at the top of the report")
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--algorithms", default=None, help="MPI contenders instead of the plan's")
    parser.add_argument("--drop-errors", action="store_true",
                        help="drop records of runs that ended without a report (interrupted runs); the report then "
                             "lists their networks as not reached")
    parser.add_argument("--run-timeout", type=float, default=None, help="seconds per smpirun run instead of the plan's")
    parser.add_argument("--executor", default="all",
                        help="the table's executors, as tesearch simulate --executor takes them (step, dataflow, "
                             "combined, both, all)")
    parser.add_argument("--max-memory", default="6G",
                        help="each simulate run's --max-memory (SMPI allocates some algorithms' temporary buffers "
                             "for real: bruck on star-6 at 64 KiB needs more than 6 GiB)")
    parser.add_argument("--budget", type=float, default=None,
                        help="each simulate run's --budget: wall-clock seconds for the timed runs after the check run "
                             "(contenders past it are reported as not run)")
    parser.add_argument("--sizes", default=None,
                        help="message sizes to run instead of the plan's (e.g. 4K); merged into the network's record")
    parser.add_argument("--merge", nargs="*", default=[],
                        help="records files of other runs (e.g. run in parallel with --json elsewhere) to merge in; "
                             "a record with an error never replaces one with results")
    args = parser.parse_args(argv)
    json_path = Path(args.json)
    records = json.loads(json_path.read_text())["records"] if json_path.exists() else {}
    for other in args.merge:
        for key, record in json.loads(Path(other).read_text())["records"].items():
            old = records.get(key)
            if old is not None and "error" not in old and "error" not in record:
                records[key] = merge_sizes(old, record)  # a run of some sizes or contenders adds to the record
            elif "error" not in record or "error" in records.get(key, {"error": ""}):
                records[key] = record
    if args.drop_errors:
        records = {key: record for key, record in records.items() if "error" not in record}
    if args.merge or args.drop_errors:
        write_atomically(json_path, json.dumps({"records": records}, indent=1))
    if not args.report_only:
        for model in args.models.split(","):
            for network in args.networks.split(","):
                print(f"{network} ({model}) ...", flush=True)
                record = run_network(network, model, sys.executable, args.algorithms, args.run_timeout, args.sizes,
                                     args.executor, args.max_memory, args.budget)
                key = _key(record)
                partial = args.sizes or args.algorithms or args.executor != "all"  # adds to the record
                records[key] = merge_sizes(records.get(key), record) if partial else record
                write_atomically(json_path, json.dumps({"records": records}, indent=1))
                print(f"  done in {record['wall_s']:.0f} s" + (f": {record['error']}" if "error" in record else ""),
                      flush=True)
    order = {name: i for i, name in enumerate(PLAN)}
    records = dict(sorted(records.items(), key=lambda kv: (order.get(kv[0].split("|")[0], 99), kv[0])))
    notes_path = Path(args.notes)
    notes = notes_path.read_text() if notes_path.exists() else ""
    write_atomically(Path(args.markdown), markdown(records, notes))
    plot(records, Path(args.plot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
