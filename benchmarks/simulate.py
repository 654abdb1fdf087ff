"""SimGrid study: every network's table, the table-free schedules and every MPI_Alltoall algorithm, in simulated time.

Usage: nice -n 10 .venv/bin/python -m benchmarks.simulate [--networks hypercube-7,...] [--models smpi,cm02]
       [--sizes 64K] [--mpi-runs FILE.jsonl ...] [--report-only]

For each network and model it runs ``tesearch simulate TABLE --json --mpi-algorithms none`` (the table's executors,
the non-optimal tables and the table-free schedules) and keeps the report in ``results/simulate.json`` (merged size
by size: a later run of some sizes adds to an earlier one).  MPI_Alltoall's algorithms take hours of wall clock on
the large networks, so they run as separate jobs (``benchmarks/mpi_contenders.py``, one smpirun per algorithm and
size, each given the wall clock it needs and stopped only once its simulated time is above the best MPI time: it
then cannot be the best); their records (``--mpi-runs``, JSON lines) are merged into the study's sizes, and every
comparison is recomputed by tesearch.schedules.simulate.verdicts: a family's best and every ratio only where the family is
complete.  The report (``results/simulate.md``) opens with the hand-written findings
(``docs/notes/simulate-findings.md``), then the headline per model, what the table contributes, memory, and a
section per network; the plot (``results/simulate.png``) shows each family's best against the block size.
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

from tesearch.running.files import write_atomically
from tesearch.running.limits import format_bytes, parse_bytes
from tesearch.schedules.simulate.lineup import KNOWN_ALGORITHMS, mpi_contenders
from tesearch.schedules.simulate.verdicts import RunStatus, crossover, summarise_size

ROOT = Path(__file__).resolve().parent.parent

#: network -> (table, sizes under SMPI, sizes under CM02, extra simulate options)
PLAN = {
    "hypercube-7": ("results/hypercube-7.json", "8,4K,64K,1M", "64K,1M", ()),
    "torus-8x8": ("results/torus-8x8.json", "8,4K,64K,1M", "64K,1M", ()),
    "torus-4x4x8": ("results/torus-4x4x8.json", "8,4K,64K,1M", "64K,1M", ()),
    "torus-4x4x8:twisted": ("results/twisted/torus-4x4x8-twisted.json", "8,4K,64K,1M", "64K,1M", ()),
    "star-5": ("results/star-5.json", "8,4K,64K,1M", "64K,1M", ()),
    "torus-4x8x8": ("results/frontier/torus-4x8x8.json", "64K,1M", "64K,1M", ()),
    "torus-4x8x8:twisted": ("results/twisted/torus-4x8x8-twisted.json", "64K,1M", "64K,1M", ()),
    "star-6": ("results/star-6.json", "64K,1M", "64K,1M", ("--dataflow", "1:1")),
    "torus-8x8x16:twisted": ("results/twisted/torus-8x8x16-twisted.json", "64K,1M", "64K",
                             ("--dataflow", "1:1")),
}
#: sizes at which the dataflow executor runs strict order only: with K = W = 64 SimGrid takes more than 300 s of wall
#: clock for one run at 8 B or 4 KiB on 128 ranks (small messages are sent eagerly, every link has dozens in flight)
STRICT_DATAFLOW_BELOW = 64 << 10
#: wall-clock seconds per run of the schedules (a loaded machine multiplies the quiet figures by ten)
RUN_TIMEOUT_S = 3600
SIZES_SHOWN = (64 << 10, 1 << 20)


# ------------------------------------------------------------------ running

def run_network(network: str, model: str, python: str, sizes_override: str | None, max_memory: str,
                extra: tuple[str, ...] = ()) -> dict:
    """One ``tesearch simulate`` run of the network's schedules (no MPI); its JSON report, or why there is none."""
    table, smpi_sizes, cm02_sizes, planned = PLAN[network]
    extra = planned + extra
    sizes = sizes_override or (smpi_sizes if model == "smpi" else cm02_sizes)
    small = [s for s in sizes.split(",") if parse_bytes(s) < STRICT_DATAFLOW_BELOW]
    if small and "--dataflow" not in extra and len(small) < len(sizes.split(",")):  # two runs, merged
        first = run_network(network, model, python, ",".join(small), max_memory, extra=("--dataflow", "1:1"))
        rest = run_network(network, model, python, ",".join(s for s in sizes.split(",") if s not in small), max_memory)
        return merge_sizes(first, rest)
    if small and "--dataflow" not in extra:
        extra = (*extra, "--dataflow", "1:1")
    command = [python, "-m", "tesearch.entry", "simulate", str(ROOT / table), "--json", "--quiet", "--bytes", sizes,
               "--model", model, "--mpi-algorithms", "none", "--max-memory", max_memory,
               "--run-timeout", str(RUN_TIMEOUT_S), *extra]
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        stdout, stderr = child.communicate()
    finally:
        if child.poll() is None:  # interrupted: the command stops its SimGrid run on SIGTERM
            child.terminate()
            child.wait()
    wall = time.monotonic() - started
    if child.returncode not in (0, 1):
        return {"network": network, "model": model, "error": stderr.strip()[-500:], "wall_s": wall}
    report = json.loads(stdout)
    report.update(network_spec=network, wall_s=round(wall, 1),
                  command=" ".join(["tesearch simulate", table] + command[command.index("--bytes"):]))
    return report


# ------------------------------------------------------------------ merging

def _key(network: str, model: str) -> str:
    return f"{network}|{model}"


def mpi_runs_from(paths: list[Path]) -> dict[tuple[str, str, int, str], dict]:
    """(network, model, bytes, contender) -> the MPI run to use, from JSON-lines files of mpi_contenders.py and from
    records files of earlier studies (their MPI runs); a settled run beats an unsettled one, a later file an
    earlier one."""
    found: dict[tuple[str, str, int, str], dict] = {}

    def offer(key, run):
        old = found.get(key)
        if old is None or RunStatus(run["status"]).settles or not RunStatus(old["status"]).settles:
            found[key] = run

    for path in paths:
        if path.suffix == ".jsonl":
            for line in path.read_text().splitlines():
                if line.strip():
                    run = json.loads(line)
                    run["family"] = "MPI"
                    offer((run["network"], run["model"], run["bytes"], run["contender"]), run)
            continue
        for key, record in json.loads(path.read_text())["records"].items():
            if "error" in record:
                continue
            network, model = key.split("|")
            for size in record["sizes"]:
                for run in size["runs"]:
                    if run.get("family", {"mpi": "MPI"}.get(run.get("kind"))) != "MPI":
                        continue
                    run = dict(run, family="MPI", network=network, model=model)
                    run.pop("kind", None)
                    if run["status"] == "ok" and run.get("checked") and run.get("mismatches"):
                        run["wrong_blocks"] = run.pop("mismatches")
                    offer((network, model, size["bytes"], run["contender"]), run)
    return found


def broken_algorithms(mpi: dict) -> dict[str, str]:
    """MPI algorithms that delivered wrong blocks in any checked run of any network: name -> the evidence."""
    evidence: dict[str, str] = {}
    for (network, model, size, name), run in sorted(mpi.items()):
        if run.get("wrong_blocks") or (run.get("checked") and run.get("mismatches")):
            evidence.setdefault(name, f"{run.get('wrong_blocks') or run.get('mismatches')} wrong blocks in the checked "
                                      f"run on {network} at {format_bytes(size)} ({model})")
    return evidence


def every_mpi_contender() -> list:
    """Every MPI_Alltoall contender of the study (SMPI's algorithms and the library selectors), likely winners first:
    what benchmarks/mpi_contenders.py runs and what a network's MPI family must hold to be complete."""
    return mpi_contenders(list(KNOWN_ALGORITHMS), None)


def merge_mpi(record: dict, mpi: dict, broken: dict[str, str]) -> dict:
    """The record with its network's MPI runs added at each of its sizes, and every size's comparison recomputed."""
    network, model = record["network_spec"], record["model"]
    expected = [c.name for c in every_mpi_contender()]
    for size in record["sizes"]:
        runs = [r for r in size["runs"] if r["family"] != "MPI"]
        for name in expected:  # a contender with no run at all leaves the family incomplete, never silently absent
            if (network, model, size["bytes"], name) not in mpi:
                runs.append({"contender": name, "family": "MPI", "bytes": size["bytes"],
                             "status": RunStatus.NOT_RUN.value, "checked": False,
                             "reason": "no run recorded (benchmarks/mpi_contenders.py has not run it)"})
        for (net, mod, size_bytes, name), run in mpi.items():
            if (net, mod, size_bytes) != (network, model, size["bytes"]):
                continue
            run = dict(run)
            # one metric for MPI's memory: the simulator's peak resident set (wait4's maxrss); some of
            # mpi_contenders.py's runs sampled only the proportional set size, which is not the same measure and is
            # left out of the memory column (the report says so) instead of being mixed in
            if name in broken and run["status"] == "ok":
                run.update(status="failed", reason=f"not trusted: {broken[name]} (SimGrid's implementation)")
            runs.append(run)
        summary = summarise_size(size["bytes"], runs, size["bound_s"], record.get("idle_rss_bytes", 0),
                                 record["ranks"])
        size.clear()
        size.update(summary, counting_bound_s=summary.get("counting_bound_s", size.get("counting_bound_s")))
    record["crossover"] = crossover(record["sizes"])
    return record


def merge_sizes(old: dict | None, new: dict) -> dict:
    """``new`` (a run of some sizes) merged into ``old`` (the network's record): the sizes of both, ``new``'s where both
    ran one."""
    if old is None or "error" in old or "error" in new:
        return new if old is None or "error" not in new else old
    merged = dict(new)
    sizes = {s["bytes"]: s for s in old["sizes"]}
    sizes.update({s["bytes"]: s for s in new["sizes"]})
    merged["sizes"] = [sizes[b] for b in sorted(sizes)]
    merged["wall_s"] = round(old.get("wall_s", 0) + new.get("wall_s", 0), 1)
    merged["command"] = old["command"] + "`, then `" + new["command"] if old["command"] != new["command"] \
        else new["command"]
    merged["crossover"] = crossover(merged["sizes"])
    return merged


# ------------------------------------------------------------------ the report

def _seconds(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.4g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def _best(size: dict, family: str, bound_s: float) -> str:
    entry = size["families"].get(family, {})
    if not entry.get("contenders"):
        return "not run"
    if not entry["complete"]:
        return f"INCOMPLETE (no time: {', '.join(entry['missing'][:3])}{' ...' if len(entry['missing']) > 3 else ''})"
    if not entry.get("best"):
        return "none finished"
    best = entry["best"]
    failed = sum(1 for run in size["runs"] if run["family"] == family and run["status"] == RunStatus.FAILED.value)
    note = f"; complete except {failed} failed" if failed else ""
    return f"{_seconds(best['seconds'])} = {best['seconds'] / bound_s:.2f}x ({best['contender']}{note})"


def _size(record: dict, size_bytes: int) -> dict | None:
    return next((s for s in record.get("sizes", []) if s["bytes"] == size_bytes), None)


def headline(records: dict, model: str) -> list[str]:
    """Per network and shown size: the bound and each family's best (or why it is incomplete), the ratios."""
    lines = ["| network | ranks | size | link-time bound | best table-based | best table-free | table-based / "
             "table-free | best MPI | best MPI / best schedule |", "|---|---|---|---|---|---|---|---|---|"]
    for network in PLAN:
        record = records.get(_key(network, model))
        if record is None or "error" in record:
            lines.append(f"| {network} | | | | not run | | | | |")
            continue
        for size_bytes in SIZES_SHOWN:
            size = _size(record, size_bytes)
            if size is None:
                continue
            credit = size["attribution"]["table_vs_table_free"]
            ratio = "-"
            families = size["families"]
            if families["MPI"].get("complete") and families["MPI"].get("best") and \
                    all(families[f].get("complete") and families[f].get("best") for f in ("table", "table-free")):
                best_schedule = min(families["table"]["best"]["seconds"], families["table-free"]["best"]["seconds"])
                ratio = f"{families['MPI']['best']['seconds'] / best_schedule:.2f}"
            lines.append(f"| {network} | {record['ranks']} | {format_bytes(size_bytes)} | {_seconds(size['bound_s'])} | "
                         f"{_best(size, 'table', size['bound_s'])} | {_best(size, 'table-free', size['bound_s'])} | "
                         f"{'-' if credit is None else f'{credit:.3f}'} | {_best(size, 'MPI', size['bound_s'])} | "
                         f"{ratio} |")
    return lines


def contribution(records: dict, model: str) -> list[str]:
    """Per network at the shown sizes: what the table's optimality and its words buy."""
    lines = ["| network | size | optimality: non-optimal tables' time over the optimal table's (step executor) | "
             "words: naive words' time over the table's (combined, balanced supersteps) |", "|---|---|---|---|"]
    for network in PLAN:
        record = records.get(_key(network, model))
        if record is None or "error" in record:
            continue
        for size_bytes in SIZES_SHOWN:
            size = _size(record, size_bytes)
            if size is None:
                continue
            credit = size["attribution"]
            steps = {name: value for name, value in credit["optimality"].items() if name.endswith("(step)")}
            table_t = record["T"]
            optimality = "; ".join(f"{name.removesuffix(' (step)')} {value:.2f}x"
                                   for name, value in sorted(steps.items())) or "-"
            words = "; ".join(f"{name} {value:.3f}x" for name, value in sorted(credit["words"].items())) or "-"
            lines.append(f"| {network} (T = {table_t}) | {format_bytes(size_bytes)} | {optimality} | {words} |")
    return lines


def memory_rows(records: dict, model: str) -> list[str]:
    """Peak bytes held per node beyond the send and receive buffers (the executors' count) and the simulator's memory
    above an idle run per rank (where SMPI allocates an algorithm's temporaries), at 64 KiB."""
    lines = ["| network | table (step) | table (dataflow K=1 W=1) | table: balanced supersteps (combined) | best "
             "table-free, combined | best MPI: simulator's peak resident set above idle, per rank |",
             "|---|---|---|---|---|---|"]
    for network in PLAN:
        record = records.get(_key(network, model))
        size = None if record is None or "error" in record else _size(record, 64 << 10)
        if size is None:
            continue
        runs = {r["contender"]: r for r in size["runs"]}

        def held(name):
            run = runs.get(name)
            if not run or "held_bytes" not in run:
                return "-"
            return f"{format_bytes(run['held_bytes'])} ({run['held_blocks']} blocks)"

        free = size["families"]["table-free"].get("best")
        mpi = size["families"]["MPI"].get("best")
        mpi_memory = "-"
        if mpi and runs.get(mpi["contender"], {}).get("rss_above_idle_per_rank") is not None:
            mpi_memory = f"{format_bytes(runs[mpi['contender']]['rss_above_idle_per_rank'])} ({mpi['contender']})"
        elif mpi and runs.get(mpi["contender"], {}).get("peak_pss_bytes"):
            mpi_memory = f"not measured ({mpi['contender']}: only its proportional set size was sampled)"
        lines.append(f"| {network} | {held('table (step)')} | {held('table (dataflow K=1 W=1)')} | "
                     f"{held('table: balanced supersteps (combined)')} | "
                     f"{held(free['contender']) if free else '-'} | {mpi_memory} |")
    return lines


def network_section(record: dict) -> list[str]:
    """One network under one model: every contender at every size, and what is missing."""
    spec = record.get("network_spec", record["network"])
    if "error" in record:
        return [f"### {spec} ({record['model']})", "", f"no result: {record['error']}", ""]
    lines = [f"### {spec} ({record['model']} model)", "",
             f"{record['ranks']} ranks, {record['links']} directed links, T = {record['T']} (lower bound "
             f"{record['bound_steps']}), {record['bandwidth_Bps'] / 1e9:g} GB/s and {record['latency_s'] * 1e6:g} us "
             f"per link, SimGrid {record.get('simgrid', '?')}; schedules: {record['smpirun_runs']} smpirun runs, "
             f"{record['wall_s']:.0f} s wall. Command: `{record['command']}`", ""]
    sizes = record["sizes"]
    names: list[str] = []
    for size in sizes:
        names += [r["contender"] for r in size["runs"] if r["contender"] not in names]
    lines.append("| contender | family | " + " | ".join(format_bytes(s["bytes"]) for s in sizes) + " |")
    lines.append("|---|---|" + "---|" * len(sizes))
    lines.append("| link-time bound | | " + " | ".join(_seconds(s["bound_s"]) for s in sizes) + " |")
    reasons = {}
    for name in names:
        cells, family = [], ""
        for size in sizes:
            run = next((r for r in size["runs"] if r["contender"] == name), None)
            if run is None:
                cells.append("-")
                continue
            family = run["family"]
            if run["status"] == "ok":
                cells.append(f"{_seconds(run['seconds'])} ({run['seconds'] / size['bound_s']:.2f}x)")
            else:
                bound = f" > {_seconds(run['at_least_s'])}" if run.get("at_least_s") else ""
                cells.append(f"{run['status']}{bound}")
                reasons.setdefault(name, f"{run['status']}: {run.get('reason', '')}")
        lines.append(f"| {name} | {family} | " + " | ".join(cells) + " |")
    lines.append("")
    if reasons:
        lines.append("Without a time: " + "; ".join(f"{name}: {why}" for name, why in reasons.items()) + ".")
        lines.append("")
    lines.append(f"Crossover: {record['crossover']['text']}.")
    lines.append("")
    return lines


def checked_mpi_runs(records: dict) -> list[str]:
    """How many of the MPI runs with a simulated time compared their blocks, and where none did."""
    timed = [(key, size["bytes"], run) for key, record in records.items() if "error" not in record
             for size in record["sizes"] for run in size["runs"]
             if run["family"] == "MPI" and run["status"] == RunStatus.OK.value]
    checked = [(key, size, run) for key, size, run in timed if run.get("checked")]
    where = sorted({(key.split("|")[1], size) for key, size, _ in checked})
    unchecked = sorted({(key.split("|")[1], size) for key, size, run in timed if not run.get("checked")})
    return [f"**Which MPI runs were checked.** Of the {len(timed)} MPI runs with a simulated time in this report, "
            f"{len(checked)} compared every delivered block with what its origin sent (checked runs: "
            f"{', '.join(f'{model.upper()} {format_bytes(b)}' for model, b in where) or 'none'}); the other "
            f"{len(timed) - len(checked)} did not ({', '.join(f'{m.upper()} {format_bytes(b)}' for m, b in unchecked)}: "
            "SMPI's shared allocations, no payload): an MPI algorithm's blocks were checked only in some SMPI runs "
            "at 8 B and 4 KiB on up to 128 ranks, never under CM02, at 64 KiB or 1 MiB, or on 256 ranks. Every "
            "schedule passes the lockstep check before it is timed; its timed runs compare their blocks where all "
            "ranks' buffers fit in 1 GiB.", ""]


def pipelined_section(path: Path) -> list[str]:
    """The optimal table under the pipelined executor beside combining, from benchmarks/executors.py's record."""
    if not path.exists():
        return []
    from benchmarks.executors import pipelined_networks_section

    data = json.loads(path.read_text())
    if not data.get("pipelined"):
        return []
    lines = pipelined_networks_section(data)
    lines[0] = "## The optimal table pipelined, beside combining (results/executors.md)"
    return lines


def markdown(records: dict, notes: str, executors: Path | None = None) -> str:
    """The whole report."""
    lines = ["# Simulated time on SimGrid: tables, table-free schedules and MPI_Alltoall", "",
             "Made by `benchmarks/simulate.py` from `results/simulate.json` (the schedules by `tesearch simulate`, the "
             "MPI algorithms by `benchmarks/mpi_contenders.py`); the plot is `results/simulate.png`. Method, the bound "
             "and the superstep model: docs/simulate.md. A family's best, every ratio and the crossover are shown "
             "only where every contender of the family has a simulated time, does not apply, failed in SimGrid, or "
             "was stopped once its simulated time had passed the family's best; otherwise INCOMPLETE names what has "
             "no time.", ""]
    for model, title in (("smpi", "SMPI model (SimGrid's calibrated per-size factors)"),
                         ("cm02", "CM02 model (latency and bandwidth as given)")):
        lines += [f"## Headline, {title}, 10 GB/s and 1 us per link", ""] + headline(records, model) + [""]
    lines += checked_mpi_runs(records)
    if executors is not None:
        lines += pipelined_section(executors)
    lines += ["## What the table itself contributes (SMPI model)", ""] + contribution(records, "smpi") + [""]
    lines += ["## Memory per node at 64 KiB (SMPI model)", "",
              "Bytes a rank holds beyond its send and receive buffers at its peak (blocks in transit, bundles being "
              "packed or unpacked), as the executors count them; for MPI_Alltoall, the simulator's peak resident memory "
              "above an idle run of the same ranks, per rank (SMPI allocates an algorithm's temporary buffers for "
              "real, while the payload buffers are shared).", ""] + memory_rows(records, "smpi") + [""]
    if notes:
        lines += [notes.rstrip(), ""]
    lines += ["## Every network", ""]
    for key, record in records.items():
        lines += network_section(record)
    return "\n".join(lines) + "\n"


def plot(records: dict, path: Path) -> None:
    """Each family's best and the bound against the block size, log-log, one panel per network (SMPI)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chosen = [r for k, r in records.items() if k.endswith("|smpi") and "error" not in r]
    if not chosen:
        return
    columns = 3
    rows = (len(chosen) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(5 * columns, 3.6 * rows), squeeze=False)
    colours = {"table": "tab:blue", "table-free": "tab:green", "MPI": "tab:red", "bound": "black"}
    for ax, record in zip(axes.flat, chosen):
        sizes = record["sizes"]
        ax.plot([s["bytes"] for s in sizes], [s["bound_s"] for s in sizes], "k--", label="link-time bound")
        own = [(s["bytes"], run["seconds"]) for s in sizes for run in s["runs"]
               if run["contender"] == "table (step)" and run["status"] == RunStatus.OK.value]
        if own:  # the table under its own timing: buffer-free, one message per hop per step
            ax.plot(*zip(*own), marker="s", linestyle=":", color="tab:purple", label="table's own timing (step)")
        styles = {"table": dict(marker="o", markersize=8), "table-free": dict(marker="x", markersize=7),
                  "MPI": dict(marker="o", markersize=5)}  # best table-based and table-free often coincide
        for family in ("table", "table-free", "MPI"):
            points = [(s["bytes"], s["families"][family]["best"]["seconds"]) for s in sizes
                      if s["families"][family].get("best") and s["families"][family]["complete"]]
            if points:
                ax.plot(*zip(*points), color=colours[family], label=f"best {family}", **styles[family])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{record.get('network_spec', record['network'])} ({record['ranks']} ranks)")
        ax.set_xlabel("block size (bytes)")
        ax.set_ylabel("simulated time (s)")
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axes.flat)[len(chosen):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=4, fontsize=8)
    figure.tight_layout(rect=(0, 0.05, 1, 1))
    scratch = path.with_suffix(".tmp.png")
    figure.savefig(scratch, dpi=90)
    os.replace(scratch, path)


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the script is (the simulation child is stopped on the way out)."""


def _terminate(signum, frame):
    raise _Terminated


def main(argv: list[str] | None = None) -> int:
    """Simulate the networks asked for (merging into the JSON), merge the MPI runs, write the report and the plot."""
    signal.signal(signal.SIGTERM, _terminate)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default=",".join(PLAN))
    parser.add_argument("--models", default="smpi,cm02")
    parser.add_argument("--sizes", default=None, help="sizes to run instead of the plan's (merged into the record)")
    parser.add_argument("--json", default=str(ROOT / "results" / "simulate.json"))
    parser.add_argument("--markdown", default=str(ROOT / "results" / "simulate.md"))
    parser.add_argument("--plot", default=str(ROOT / "results" / "simulate.png"))
    parser.add_argument("--notes", default=str(ROOT / "docs" / "notes" / "simulate-findings.md"))
    parser.add_argument("--mpi-runs", nargs="*", default=[str(ROOT / "results" / "simulate-mpi.jsonl")],
                        help="MPI runs to merge: JSON lines of benchmarks/mpi_contenders.py, or records files")
    parser.add_argument("--max-memory", default="8G")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args(argv)
    json_path = Path(args.json)
    records = json.loads(json_path.read_text())["records"] if json_path.exists() else {}
    stale = [key for key, record in records.items() if "error" not in record and record.get("sizes")
             and "families" not in record["sizes"][0]]
    for key in stale:  # a record of the study before families (1d87e2a): its MPI runs live in results/simulate-mpi.jsonl
        print(f"dropping {key}: a record of the earlier study, without families", flush=True)
        del records[key]
    if not args.report_only:
        for model in args.models.split(","):
            for network in args.networks.split(","):
                print(f"{time.strftime('%H:%M:%S')} {network} ({model}) ...", flush=True)
                record = run_network(network, model, sys.executable, args.sizes, args.max_memory)
                key = _key(network, model)
                records[key] = merge_sizes(records.get(key), record)
                write_atomically(json_path, json.dumps({"records": records}, indent=1))
                print(f"  done in {record['wall_s']:.0f} s" + (f": {record['error']}" if "error" in record else ""),
                      flush=True)
    mpi = mpi_runs_from([Path(p) for p in args.mpi_runs if Path(p).exists()])
    broken = broken_algorithms(mpi)
    for key, record in records.items():
        if "error" not in record:
            merge_mpi(record, mpi, broken)
    order = {name: i for i, name in enumerate(PLAN)}
    records = dict(sorted(records.items(), key=lambda kv: (order.get(kv[0].split("|")[0], 99), kv[0])))
    write_atomically(json_path, json.dumps({"records": records}, indent=1))
    notes_path = Path(args.notes)
    write_atomically(Path(args.markdown), markdown(records, notes_path.read_text() if notes_path.exists() else "",
                                                   ROOT / "results" / "executors.json"))
    plot(records, Path(args.plot))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM by _terminate: the running simulation was stopped
        print(f"benchmarks/simulate.py: {'terminated (SIGTERM)' if isinstance(stop, _Terminated) else 'interrupted'}"
              "; the networks finished before it are in the JSON file, nothing else was written", file=sys.stderr)
        sys.exit(143 if isinstance(stop, _Terminated) else 130)
