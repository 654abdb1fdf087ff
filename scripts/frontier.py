"""Issue-7 frontier runs through the CLI: results/frontier/*.json and results/frontier.md.

Tables for hypercube-d come from tesearch.frontier.hypercube (a construction, see its
docstring); everything else here is `tesearch search`, with the outcome recorded as it came
(found optimal, found with a gap, or unknown with the time spent).  Usage:

    .venv/bin/python scripts/frontier.py [--only SUBSTRING] [--timeout 120] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESEARCH = str(Path(sys.executable).with_name("tesearch"))
STORE = ROOT / "results" / "frontier" / "runs.json"


def targets() -> list[tuple[str, list[str]]]:
    runs = [(f"torus-{n}x{n}", []) for n in range(13, 33)]
    runs += [(f"torus-{n}x{n}x{n}", []) for n in range(7, 13)]
    runs += [("torus-4x8x8", []), ("torus-8x8x16", [])]
    runs += [("pancake-6", []), ("bubblesort-6", [])]
    runs += [("star-7", ["--exchange", "odd-distance"]), ("star-7", [])]
    return runs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="searches run side by side (default: one per CPU)")
    ap.add_argument("--report", action="store_true", help="only rewrite results/frontier.md")
    args = ap.parse_args()
    if args.report:
        write_report()
        return
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    chosen = [(spec, extra) for spec, extra in targets() if not args.only or args.only in spec]
    # Each run is its own `tesearch search` process; the pool runs --jobs of them side by side.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for data in pool.map(lambda t: run_one(*t, timeout=args.timeout), chosen):
            store[f"{data['network']} {data['exchange']}"] = data
            print(f"{data['network']:16s} {data['exchange']:12s} {data['status']:8s} T={data['T']} "
                  f"bound={data['best_bound']} {data['wall_seconds']}s", flush=True)
            STORE.parent.mkdir(parents=True, exist_ok=True)
            STORE.write_text(json.dumps(store, indent=1) + "\n")
    write_report()


def run_one(spec: str, extra: list[str], *, timeout: int) -> dict:
    """One `tesearch search` run, recorded as it came (found, unknown, infeasible or error)."""
    odd = "--exchange" in extra
    out = f"results/frontier/{spec.replace(':', '-')}{'-odd' if odd else ''}.json"
    cmd = ["tesearch", "search", spec, *extra, "--timeout", str(timeout), "--out", out]
    t0 = time.monotonic()
    proc = subprocess.run([TESEARCH, *cmd[1:], "--json", "--quiet"], capture_output=True, text=True, cwd=ROOT)
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        data = {"network": spec, "exchange": "odd-distance" if odd else "total", "status": "error",
                "T": None, "best_bound": None, "optimal": False, "strategy": "-",
                "seconds": None, "error": proc.stderr.strip()[-300:]}
    data["network"] = spec
    data["command"] = " ".join(shlex.quote(c) for c in cmd)
    data["wall_seconds"] = round(time.monotonic() - t0, 1)
    return data


def write_report() -> None:
    """results/frontier.md from runs.json and the hypercube construction tables."""
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    lifts_path = ROOT / "results" / "frontier" / "lifts.json"
    lifts = json.loads(lifts_path.read_text()) if lifts_path.exists() else {}
    lines = [
        "# Frontier (issue 7): new optimal tables and open cases",
        "",
        "Every row comes from a run recorded in results/frontier/runs.json (searches, by",
        "`scripts/frontier.py`) or from the committed construction tables. Each table was checked by",
        "`tesearch verify`, and has a certificate under proofs/ (replay is unchecked above 12000",
        "nodes, the simulator's limit). Check one with `tesearch check-proof proofs/NAME.json`.",
        "",
        "| target | exchange | outcome | T | best bound | time (s) | strategy | reproduce |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for d in range(1, 17):
        path = ROOT / "results" / "frontier" / f"hypercube-{d}.json"
        if path.exists():
            t = json.loads(path.read_text())
            outcome = "optimal" if t["T"] == t["lower_bound"] else "found"
            lines.append(f"| hypercube-{d} | total | {outcome} (no blank) | {t['T']} | {t['lower_bound']} | "
                         f"see benchmarks/hypercube_construction.py | recursive doubling + matching "
                         f"(tesearch/frontier/hypercube.py) | `python -m tesearch.frontier.hypercube results/frontier` |")
    for key, d in store.items():
        if d["status"] == "found":
            outcome = "optimal" if d.get("optimal") else f"found, gap {d['T'] - d['best_bound']} (not shown optimal)"
            if not d.get("optimal") and d["network"] in lifts and lifts[d["network"]].get("optimal"):
                outcome += "; superseded by the optimal ring lift below"
        else:
            outcome = f"{d['status']}: no table within the time"
        lines.append(f"| {d['network']} | {d['exchange']} | {outcome} | {d['T']} | {d['best_bound']} | "
                     f"{d.get('wall_seconds')} | {d.get('strategy')} | `{d['command']}` |")
    for spec, d in lifts.items():
        if d["status"] == "found":
            outcome = "optimal" if d.get("optimal") else f"found, gap {d['T'] - d['best_bound']} (not shown optimal)"
        else:
            outcome = f"{d['status']}: {d.get('error', 'no table')}"
        lines.append(f"| {spec} | total | {outcome} | {d['T']} | {d['best_bound']} | {d['seconds']} | "
                     f"ring lift (tesearch/frontier/product.py) | `{d['command']}` |")
    for n in (10, 12):
        path = ROOT / "results" / "frontier" / f"torus-{n}x{n}x{n}.json"
        if path.exists():
            t = json.loads(path.read_text())
            lines.append(f"| torus-{n}x{n}x{n} | total | optimal, by seed 003 §3.4's even 3D construction "
                         f"(our search: unknown, row above) | {t['T']} | {t['lower_bound']} | ~1 | construction | "
                         f"`python scripts/frontier_constructions.py` |")
    (ROOT / "results" / "frontier.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
