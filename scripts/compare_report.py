"""Write results/compare.md, results/compare.json and results/compare.png: tesearch tables against the schedules
users would otherwise run (shortest-path FIFO, dimension-ordered FIFO, the node-invariant single-port FIFO FIFO).

    python -m scripts.compare_report [--only SPEC ...] [--out-dir results]

Every number comes from this run: the baselines are simulated (tesearch.schedules.compare), the bound is computed
(tesearch info's best bound), and the tesearch T is read from the committed tables results/SPEC.json and
results/frontier/SPEC.json (the smaller T if both exist; "—" where neither does).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from tesearch.baselines import Engine, InjectionOrder, Route, has_axes, run_baseline, schedule_json
from tesearch.schedules.compare import SEED000_ROW, baseline_rows, seed000_row
from tesearch.running.files import FIGURE_KIND, MARKDOWN_KIND, RECORD_KIND, write_output
from tesearch.facts.info import network_info
from tesearch.networks.families import network_from_spec

ROOT = Path(__file__).resolve().parent.parent
NETWORKS = ([f"star-{n}" for n in range(4, 8)] + [f"hypercube-{d}" for d in range(4, 13)]
            + [f"ring-{n}" for n in range(8, 33)] + [f"torus-{n}x{n}" for n in range(4, 17)]
            + ["torus-4x4x8", "torus-4x8x8", "torus-8x8x16", "pancake-5", "bubblesort-5"])
SCHEDULES = ("shortest-path FIFO", "dimension-ordered FIFO", SEED000_ROW)


def committed_T(spec: str) -> tuple[int | None, str | None]:
    """The smallest T of the committed total-exchange tables of ``spec``, and its file."""
    best = (None, None)
    for path in (ROOT / "results" / f"{spec}.json", ROOT / "results" / "frontier" / f"{spec}.json"):
        if not path.is_file():
            continue
        data = json.loads(path.read_text())
        if data.get("format") != "tesearch-table" or data.get("network") != spec or data.get("exchange") != "total":
            continue
        if best[0] is None or data["T"] < best[0]:
            best = (int(data["T"]), str(path.relative_to(ROOT)))
    return best


def replay_all(spec: str) -> dict:
    """Replay every schedule of the comparison on the whole network (tesearch.checking.replay, streaming engine).

    The replay rebuilds the network and checks link (or port) capacity, delivery of every ordered pair
    exactly once along shortest paths, and completion time; its buffer count must equal ours.
    """
    from tesearch.networks.groups import cayley_graph
    from tesearch.checking.replay import PortModel, replay_data
    from tesearch.schedules.singleport import fifo_schedule

    started = time.perf_counter()
    net = network_from_spec(spec)
    problems = []
    for route in Route:
        if route is Route.DIMENSION_ORDERED and not has_axes(net):
            continue
        run = run_baseline(net, route, InjectionOrder.FARTHEST_FIRST)
        report = replay_data(schedule_json(net, run), PortModel.ALL_PORT, engine="streaming")
        if not (report.ok and report.completion_time == run.stats.steps and report.max_buffer == run.stats.peak_buffer
                and report.transmissions == run.stats.transmissions):
            problems.append(f"{route.value}: {report.summary()}")
    schedule = fifo_schedule(cayley_graph(net))
    report = replay_data(schedule.to_json(), PortModel.SINGLE_PORT, engine="streaming")
    if not (report.ok and report.completion_time == schedule.time):
        problems.append(f"node-invariant FIFO: {report.summary()}")
    return {"ok": not problems, "problems": problems, "seconds": round(time.perf_counter() - started, 2)}


def all_nodes_check(spec: str, max_messages: int) -> dict:
    """Both baselines again with the all-node numpy engine (no symmetry): same statistics and hop times?"""
    net = network_from_spec(spec)
    messages = net.order * (net.order - 1)
    if messages > max_messages:
        return {"ok": None, "why": f"{messages} messages > {max_messages}"}
    started = time.perf_counter()
    differ = []
    for route in Route:
        if route is Route.DIMENSION_ORDERED and not has_axes(net):
            continue
        one = run_baseline(net, route, InjectionOrder.FARTHEST_FIRST, Engine.ONE_NODE)
        every = run_baseline(net, route, InjectionOrder.FARTHEST_FIRST, Engine.ALL_NODES)
        if one.stats != every.stats or one.timed != every.timed:
            differ.append(route.value)
    return {"ok": not differ, "differ": differ, "seconds": round(time.perf_counter() - started, 2)}


def measure(spec: str, replay: bool, all_nodes_limit: int) -> dict:
    """One network: bound, committed T, the three baselines, and how long each part took."""
    started = time.perf_counter()
    net = network_from_spec(spec)
    info = network_info(net)
    bound_seconds = time.perf_counter() - started
    T, table = committed_T(spec)
    rows = baseline_rows(net, InjectionOrder.FARTHEST_FIRST) + [seed000_row(net)]
    seconds = time.perf_counter() - started
    return {"network": spec, "family": net.family, "nodes": info["nodes"], "degree": info["degree"],
            "status": info["network_status"], "lower_bound": info["best_bound"], "binding_bound": info["binding_bound"],
            "T": T, "table": table, "rows": {r["schedule"]: r for r in rows},
            "bound_seconds": round(bound_seconds, 2), "seconds": round(seconds, 2),
            "replay": replay_all(spec) if replay else None, "all_nodes": all_nodes_check(spec, all_nodes_limit)}


def replay_cell(replay: dict | None) -> str:
    if replay is None:
        return "not run"
    return f"{'ok' if replay['ok'] else 'FAILED'} {replay['seconds']:.1f} s"


def all_nodes_cell(check: dict) -> str:
    if check["ok"] is None:
        return "not run"
    return f"{'same' if check['ok'] else 'DIFFERS'} {check['seconds']:.1f} s"


def cell(row: dict) -> str:
    if "not_applicable" in row:
        return "n/a"
    return f"{row['steps']} / {row['peak_buffer']} / {100 * row['utilisation']:.0f}%"


def findings(results: list[dict]) -> list[str]:
    """One line per schedule: how often it meets the bound, its worst ratio, its buffers; then the tables."""
    lines = []
    for name in SCHEDULES:
        runs = [(r, r["rows"][name]) for r in results if "steps" in r["rows"][name]]
        if not runs:
            continue
        meets = [r["network"] for r, row in runs if row["steps"] == r["lower_bound"]]
        worst_r, worst = max(runs, key=lambda x: x[1]["steps"] / x[0]["lower_bound"])
        buffers = sorted(row["peak_buffer"] / r["nodes"] for r, row in runs)
        lines.append(f"- {name}: meets the all-port bound on {len(meets)} of {len(runs)} networks; worst "
                     f"{worst['steps'] / worst_r['lower_bound']:.2f}x the bound ({worst_r['network']}); peak buffer "
                     f"{buffers[0]:.2f} to {buffers[-1]:.2f} messages per node of the network (median "
                     f"{buffers[len(buffers) // 2]:.2f})")
    with_T = [r for r in results if r["T"] is not None]
    optimal = [r for r in with_T if r["T"] == r["lower_bound"]]
    lines.append(f"- tesearch tables: committed for {len(with_T)} of {len(results)} networks, T = bound on "
                 f"{len(optimal)} (others: " + (", ".join(f"{r['network']} T {r['T']} vs {r['lower_bound']}"
                                                           for r in with_T if r not in optimal) or "none")
                 + "); buffer-free; shortest-path FIFO is slower than the table on "
                 + str(sum(1 for r in with_T if r["rows"]["shortest-path FIFO"]["steps"] > r["T"])) + ", as fast on "
                 + str(sum(1 for r in with_T if r["rows"]["shortest-path FIFO"]["steps"] == r["T"])) + ", faster on "
                 + str(sum(1 for r in with_T if r["rows"]["shortest-path FIFO"]["steps"] < r["T"])))
    return lines


def markdown(results: list[dict], command: str, total_seconds: float, skipped: list[tuple[str, str]],
             load: tuple[float, float], all_nodes_limit: int) -> str:
    lines = [
        "# tesearch tables against what users would otherwise run",
        "",
        "Generated by `scripts/compare_report.py`; every number is from that run (the tesearch T is read from the "
        "committed tables named in the last column). Do not edit by hand.",
        "",
        f"- command: `{command}`",
        f"- run: {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}, Python {platform.python_version()}, "
        f"total {total_seconds:.1f} s wall-clock (per-network seconds in the table: bound + all three baselines; "
        f"replay seconds separately) on a shared machine, load average {load[0]:.0f} at the start and "
        f"{load[1]:.0f} at the end, so the seconds are upper bounds",
        "- model: all-port store-and-forward, a directed link carries one message per step (the node-invariant FIFO: "
        "single-port, a node sends one and receives one message per step; it is shown in the same units, so its "
        "utilisation is at most 1/degree)",
        "- **shortest-path FIFO**: every node injects all its messages at step 0, each along its canonical "
        "shortest word (first in letter order); each link sends the message that has waited longest at it; "
        "a node's own messages queue farthest first, arrivals in one step join in letter order",
        "- **dimension-ordered FIFO**: the same, but routes correct the axes one at a time in axis order, the "
        "shorter way round (antipode of an even ring: the first letter's way); hypercubes: e-cube, which is also "
        "the canonical word there, so the two rows coincide; n/a for networks without axes",
        "- **node-invariant FIFO (Dimakopoulos and Dimopoulos 2001)**: tesearch.schedules.singleport's node-invariant algorithm (optimal in the single-port model, "
        "time = status)",
        "- each cell: **steps / peak buffer / link utilisation**. Peak buffer: the most messages waiting at one "
        "node between two of their hops in one step (a tesearch table has 0: words take consecutive columns). "
        "Utilisation: transmissions / (directed links x steps)",
        "- bound: the best all-port lower bound (`tesearch info`: counting or per-letter, whichever binds)",
        "- replayed: every schedule of the row (the two baselines all-port, the node-invariant single-port FIFO) replayed on the "
        "whole network by `tesearch.checking.replay` (streaming engine: every node, every message): link or port capacity, "
        "every ordered pair delivered once along shortest paths, completion time, and (baselines) the same peak "
        "buffer and transmissions; the seconds are the replays'",
        "- all-node engine: both baselines simulated again over every node and every message with numpy "
        "(`tesearch.baselines.allnodes`, no symmetry used): \"same\" = the same steps, peak buffer, transmissions "
        "and hop times of node 0's messages as the one-node engine the table reports. Run up to "
        f"{all_nodes_limit} messages (N(N-1)); larger networks rely on the symmetry argument in `tesearch/baselines/fifo.py` "
        "and on the replay",
        "",
        "| network | nodes | bound | tesearch T | shortest-path FIFO | dimension-ordered FIFO | node-invariant FIFO "
        "(single-port) | s | replayed | all-node engine | table |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for r in results:
        T = "—" if r["T"] is None else str(r["T"])
        lines.append(f"| {r['network']} | {r['nodes']} | {r['lower_bound']} | {T} | "
                     + " | ".join(cell(r["rows"][s]) for s in SCHEDULES)
                     + f" | {r['seconds']:.1f} | {replay_cell(r['replay'])} | {all_nodes_cell(r['all_nodes'])} | {r['table'] or '—'} |")
    lines += ["", "## Summary (computed from the table above)", ""] + findings(results)
    if skipped:
        lines += ["", "Not run:", ""] + [f"- {spec}: {why}" for spec, why in skipped]
    lines += ["", "![steps against network size](compare.png)", "",
              "![steps over the bound and peak buffers](compare-overhead.png)", ""]
    return "\n".join(lines)


FAMILY_MARKERS = {"ring": "o", "torus": "s", "hypercube": "D", "star": "^", "pancake": "v", "bubblesort": "P"}
SCHEDULE_COLOURS = {"shortest-path FIFO": "C0", "dimension-ordered FIFO": "C1", SEED000_ROW: "C2",
                    "tesearch T": "black"}


def _log_axes(ax) -> None:
    """Log-log axes labelled 1 2 5 10 20 50 ... in plain numbers."""
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        axis.set_major_formatter(ScalarFormatter())
        axis.set_minor_formatter(NullFormatter())


def plot_overhead(results: list[dict], path: Path) -> None:
    """Steps over the bound, and peak buffer, against nodes: every network, colour = schedule, marker = family."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, (left, right) = plt.subplots(1, 2, figsize=(15, 6))
    for r in results:
        marker = FAMILY_MARKERS[r["family"]]
        for name in SCHEDULES:
            row = r["rows"][name]
            if "steps" not in row:
                continue
            left.scatter(r["nodes"], row["steps"] / r["lower_bound"], marker=marker, color=SCHEDULE_COLOURS[name],
                         alpha=0.75, s=30)
            right.scatter(r["nodes"], max(row["peak_buffer"], 0.5), marker=marker, color=SCHEDULE_COLOURS[name],
                          alpha=0.75, s=30)
        if r["T"] is not None:
            left.scatter(r["nodes"], r["T"] / r["lower_bound"], marker=marker, color="black", s=30)
    _log_axes(left)
    left.set_ylabel("steps / lower bound (1 = optimal)")
    left.set_title("Time over the all-port lower bound")
    left.axhline(1.0, color="grey", linestyle=":")
    _log_axes(right)
    right.set_ylabel("peak messages waiting at one node")
    right.set_title("Buffers (tesearch tables: 0, buffer-free; not drawable on a log axis)")
    for ax in (left, right):
        ax.set_xlabel("nodes")
        ax.grid(True, which="both", alpha=0.3)
    handles = [Line2D([], [], color=c, marker="o", linestyle="", label=n + (" (single-port)" if n == SEED000_ROW
                                                                            else ""))
               for n, c in SCHEDULE_COLOURS.items()]
    handles += [Line2D([], [], color="grey", marker=m, linestyle="", label=f) for f, m in FAMILY_MARKERS.items()]
    fig.legend(handles=handles, loc="lower center", ncol=10, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    save_figure(fig, path)


def plot(results: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [("rings (ring-8..32)", lambda r: r["family"] == "ring"),
              ("square tori (4x4..16x16)", lambda r: r["family"] == "torus" and r["network"].count("x") == 1),
              ("hypercubes (4..12)", lambda r: r["family"] == "hypercube"),
              ("stars (4..7)", lambda r: r["family"] == "star"),
              ("3-D tori (4x4x8, 4x8x8, 8x8x16)", lambda r: r["family"] == "torus" and r["network"].count("x") == 2)]
    styles = {"shortest-path FIFO": dict(color="C0", marker="o"), "dimension-ordered FIFO": dict(color="C1", marker="s"),
              SEED000_ROW: dict(color="C2", marker="^", linestyle="--"),
              "tesearch T": dict(color="black", marker="*", markersize=9),
              "lower bound": dict(color="grey", linestyle=":", linewidth=2)}
    fig, axes = plt.subplots(2, 3, figsize=(15, 9))
    for ax, (title, keep) in zip(axes.flat, panels):
        rs = sorted((r for r in results if keep(r)), key=lambda r: r["nodes"])
        if not rs:
            ax.set_visible(False)
            continue
        series = {name: [(r["nodes"], r["rows"][name].get("steps")) for r in rs] for name in SCHEDULES}
        series["tesearch T"] = [(r["nodes"], r["T"]) for r in rs]
        series["lower bound"] = [(r["nodes"], r["lower_bound"]) for r in rs]
        for name, points in series.items():
            points = [(x, y) for x, y in points if y is not None]
            if points:
                label = name + (" (single-port)" if name == SEED000_ROW else "")
                ax.plot(*zip(*points), label=label, **styles[name])
        _log_axes(ax)
        ax.set_title(title)
        ax.set_xlabel("nodes")
        ax.set_ylabel("steps")
        ax.grid(True, which="both", alpha=0.3)
    # last panel: the three 120-node networks on S_5, side by side
    ax = axes.flat[5]
    rs = [r for r in results if r["nodes"] == 120 and r["family"] in ("star", "pancake", "bubblesort")]
    for i, r in enumerate(rs):
        for name in SCHEDULES:
            if "steps" in r["rows"][name]:
                ax.plot([i], [r["rows"][name]["steps"]], **{k: v for k, v in styles[name].items() if k != "linestyle"})
        if r["T"] is not None:
            ax.plot([i], [r["T"]], **styles["tesearch T"])
        ax.plot([i - 0.3, i + 0.3], [r["lower_bound"]] * 2, **styles["lower bound"])
    ax.set_xticks(range(len(rs)), [r["network"] for r in rs])
    ax.set_xlim(-0.6, len(rs) - 0.4)
    ax.set_yscale("log")
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 3.0, 5.0)))
    ax.yaxis.set_major_formatter(ScalarFormatter())
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_title("120 nodes on S_5")
    ax.set_ylabel("steps")
    ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=5, frameon=False)
    fig.suptitle("Total exchange: steps against network size (log-log); lower is better, the bound is the floor")
    fig.tight_layout(rect=(0, 0.05, 1, 0.96))
    save_figure(fig, path)


def save_figure(fig, path: Path) -> None:
    """Write a matplotlib figure as PNG through tesearch's one safe writer, and close it."""
    import io

    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    write_output(path, buffer.getvalue(), kind=FIGURE_KIND)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="Run these specs only (default: the issue's list).")
    parser.add_argument("--out-dir", type=Path, default=ROOT / "results")
    parser.add_argument("--no-replay", action="store_true", help="Skip the whole-network replays.")
    parser.add_argument("--all-nodes-limit", type=int, default=300_000,
                        help="Cross-check with the all-node engine up to this many messages (0: never).")
    args = parser.parse_args(argv)
    specs = args.only or NETWORKS
    started = time.perf_counter()
    load_start = os.getloadavg()[0]
    results, skipped = [], []
    for spec in specs:
        try:
            result = measure(spec, not args.no_replay, args.all_nodes_limit)
        except Exception as exc:  # report and go on: a size over a limit is a "not run" line, not a crash
            skipped.append((spec, f"{type(exc).__name__}: {exc}"))
            print(f"{spec}: not run ({exc})", file=sys.stderr)
            continue
        results.append(result)
        print(f"{spec}: {result['seconds']} s, replay {replay_cell(result['replay'])}, "
              f"all-node engine {all_nodes_cell(result['all_nodes'])}", file=sys.stderr)
    total = time.perf_counter() - started
    command = ("python -m scripts.compare_report" + (" --only " + " ".join(args.only) if args.only else "")
               + (" --no-replay" if args.no_replay else "")
               + (f" --all-nodes-limit {args.all_nodes_limit}" if args.all_nodes_limit != 300_000 else ""))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    write_output(args.out_dir / "compare.md", markdown(results, command, total, skipped,
                                                       (load_start, os.getloadavg()[0]), args.all_nodes_limit),
                 kind=MARKDOWN_KIND)
    write_output(args.out_dir / "compare.json", json.dumps({"command": command, "seconds": round(total, 1),
                                                             "results": results, "not_run": skipped}, indent=1) + "\n",
                 kind=RECORD_KIND)
    plot(results, args.out_dir / "compare.png")
    plot_overhead(results, args.out_dir / "compare-overhead.png")
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
