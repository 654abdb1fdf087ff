"""Run the issue-4 result suite through the CLI and write results/suite.md.

Every row of the summary is one `tesearch search` run made by this script;
the command column is what reproduces it.  Usage:

    .venv/bin/python -m scripts.results_suite [--only SUBSTRING] [--timeout 300] [--report]
    .venv/bin/python -m scripts.results_suite --sweep [--address ADDR] [--timeout 3600]

With --sweep the targets run through `tesearch sweep` (one per exchange, as Ray tasks: locally, or
on the cluster at --address; --timeout is then each sweep's whole wall-clock limit) instead of one
`tesearch search` each.  The default stays the per-target search, which made the committed results.
The ring-n:cyclic targets refute widths below their tables with Z3 and keep the encodings, which a
sweep does not do, so they always run as searches.  Tables go to the same paths under the
keep-better rule: a sweep replaces a committed table only by a narrower verified one.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESEARCH = str(Path(sys.executable).with_name("tesearch"))


def suite() -> list[tuple[str, list[str]]]:
    runs: list[tuple[str, list[str]]] = []
    for n in range(3, 7):
        runs.append((f"star-{n}", []))
        runs.append((f"star-{n}", ["--exchange", "odd-distance"]))
    for d in range(1, 10):
        runs.append((f"hypercube-{d}", []))
    for n in range(3, 33):
        runs.append((f"ring-{n}", []))
    for n in range(3, 13):
        runs.append((f"torus-{n}x{n}", []))
    for n in range(3, 7):
        runs.append((f"torus-{n}x{n}x{n}", []))
    runs.append(("torus-4x8", []))
    runs.append(("torus-4x4x8", []))
    for fam in ("pancake", "bubblesort"):
        for n in (4, 5):
            runs.append((f"{fam}-{n}", []))
    for n in range(4, 13, 2):
        # the counting bound is below the per-letter bound: have Z3 refute the widths between
        runs.append((f"ring-{n}:cyclic", ["--from-width", "COUNTING", "--keep-encodings", "encodings"]))
    return runs


def table_path(spec: str, extra: list[str]) -> str:
    """Where a suite run writes its table (--out replaces a committed table only with a narrower one)."""
    odd = "--exchange" in extra and extra[extra.index("--exchange") + 1] == "odd-distance"
    return f"results/{spec.replace(':', '-')}{'-odd' if odd else ''}.json"


def counting_bound(spec: str, extra: list[str]) -> int:
    ex = extra[extra.index("--exchange") + 1] if "--exchange" in extra else "total"
    out = subprocess.run([TESEARCH, "info", spec, "--exchange", ex, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["lower_bound"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--report", action="store_true", help="only rewrite results/suite.md from results/suite.json")
    ap.add_argument("--sweep", action="store_true", help="run the targets through `tesearch sweep` (Ray)")
    ap.add_argument("--address", default=None, help="with --sweep: the Ray cluster to use (default: local)")
    args = ap.parse_args()
    summary_path = ROOT / "results" / "suite.json"
    previous = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    if args.report:
        write_readme(previous)
        return
    chosen = [(spec, extra) for spec, extra in suite() if not args.only or args.only in spec]
    if args.sweep:
        chosen = sweep_suite(chosen, previous, summary_path, timeout=args.timeout, address=args.address)
    for spec, extra in chosen:
        extra = [str(counting_bound(spec, extra)) if e == "COUNTING" else e for e in extra]
        cmd = ["tesearch", "search", spec, *extra, "--timeout", str(int(args.timeout)), "--out", table_path(spec, extra)]
        t0 = time.monotonic()
        proc = subprocess.run([TESEARCH, *cmd[1:], "--json", "--quiet"], capture_output=True, text=True, cwd=ROOT)
        wall = time.monotonic() - t0
        try:
            data = json.loads(proc.stdout)
        except json.JSONDecodeError:
            print(f"{spec}: failed: {proc.stderr.strip()}", file=sys.stderr)
            continue
        data["command"] = " ".join(shlex.quote(c) for c in cmd)
        data["wall_seconds"] = round(wall, 2)
        data["exit_code"] = proc.returncode
        info = subprocess.run([TESEARCH, "info", spec, "--json", *(["--exchange", data["exchange"]])],
                              capture_output=True, text=True, check=True)
        data["nodes"] = json.loads(info.stdout)["nodes"]
        key = f"{spec} {data['exchange']}"
        previous[key] = data
        print(f"{key:32s} {data['status']:8s} T={data['T']} bound={data['best_bound']} optimal={data['optimal']} "
              f"{wall:.1f}s", flush=True)
        summary_path.write_text(json.dumps(previous, indent=1) + "\n")
    write_readme(previous)


def sweep_suite(chosen: list[tuple[str, list[str]]], previous: dict, summary_path: Path, *, timeout: float,
                address: str | None) -> list[tuple[str, list[str]]]:
    """Sweep the targets that are plain searches (one sweep per exchange); return the others, left to search."""
    from scripts.sweeping import sweep_targets

    plain = {"total": [], "odd-distance": []}
    rest = []
    for spec, extra in chosen:
        if extra in ([], ["--exchange", "odd-distance"]):
            plain["total" if not extra else "odd-distance"].append(spec)
        else:
            rest.append((spec, extra))
    for exchange, specs in plain.items():
        for data in sweep_targets(specs, exchange, "results", timeout=timeout, root=ROOT, address=address):
            info = subprocess.run([TESEARCH, "info", data["network"], "--json", "--exchange", exchange],
                                  capture_output=True, text=True, check=True)
            facts = json.loads(info.stdout)
            data.update(nodes=facts["nodes"], lower_bound=facts["lower_bound"], letter_bound=facts["letter_bound"])
            data.pop("tasks")
            key = f"{data['network']} {exchange}"
            previous[key] = data
            print(f"{key:32s} {data['status']:8s} T={data['T']} bound={data['best_bound']} "
                  f"optimal={data['optimal']} ({data['strategy']})", flush=True)
        summary_path.write_text(json.dumps(previous, indent=1) + "\n")
    return rest


def write_readme(results: dict) -> None:
    lines = [
        "# Search results",
        "",
        "Written by `scripts/results_suite.py` from its own runs of `tesearch search` (2-core machine,",
        "one core per search). Every table here passed `tesearch verify` when it was written (the",
        "search refuses to write one that does not); `tesearch replay` and `tesearch check-proof`",
        "results are in the certificates under proofs/. Verdict: `optimal` = T equals the best lower",
        "bound (the table is its own certificate); `refuted below` lists widths Z3 proved impossible",
        "(encodings kept under encodings/).",
        "",
        "| network | nodes | exchange | T | counting bound | per-letter bound | verdict | time (s) | command |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for key, d in results.items():
        verdict = "optimal" if d["optimal"] else (d["status"] if d["T"] is None else f"T - bound = {d['T'] - d['best_bound']}")
        if d.get("refuted_widths"):
            verdict += f"; refuted below: {', '.join(map(str, d['refuted_widths']))}"
        command = d["command"] if "--out" in d["command"] or not d.get("table") else f"{d['command']} --out {d['table']}"
        lines.append(f"| {d['network']} | {d['nodes']} | {d['exchange']} | {d['T']} | {d['lower_bound']} | "
                     f"{d['letter_bound']} | {verdict} | {d['seconds']} | `{command}` |")
    better = []
    for key, d in results.items():
        path = ROOT / (d.get("table") or "-")
        if d.get("table") and path.is_file():
            t = json.loads(path.read_text())
            if d["T"] is not None and t["T"] < d["T"]:
                best = max(t["lower_bound"], t.get("letter_bound") or 0)
                verdict = "optimal" if t["T"] == best else f"T - bound = {t['T'] - best}"
                better.append(f"| {d['network']} | {d['exchange']} | {d['T']} | {t['T']} | {best} | {verdict} | "
                              f"{t['search'].get('method', t['search'].get('strategy'))} | {t['search']['seconds']} |")
    if better:
        lines += ["", "## Narrower tables found since (the table file holds the narrower one)", "",
                  "Later runs (the CP-SAT backend, `tesearch search --solver cpsat` or",
                  "`tesearch repack`) replaced these tables; `--out` replaces a table only with a narrower one, so a",
                  "rerun of this suite keeps them. Each passes verify and replay and has its certificate; the",
                  "commands are in results/manifest.toml.", "",
                  "| network | exchange | suite T | table T | best bound | verdict | method | time (s) |",
                  "|---|---|---|---|---|---|---|---|", *better]
    for name, title in (("fuzz.md", "Hostile input (benchmarks/fuzz.py)"),
                        ("limits.md", "Limits (benchmarks/limits.py)")):
        quoted = ROOT / "results" / name
        if quoted.is_file():  # the benchmarks' own reports, quoted whole
            lines += ["", f"## {title}", "", quoted.read_text().rstrip()]
    (ROOT / "results" / "suite.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
