"""Mixed-radix tori by ring lifts (tesearch/search/lift, `tesearch lift`): results/frontier/*.json.

Each table is lifted, re-verified, and written only when it passes verify and is narrower
than the table already there (an equal one is left alone, so its certificate stays valid);
every run (found or not) is recorded with its time in results/frontier/lifts.json, which
scripts/frontier.py --report reads.  Usage:

    .venv/bin/python -m scripts.frontier_lifts [--only SUBSTRING] [--timeout 120] [--backend cpsat] [--ring I]
        [--mode fixed|latin|cyclic ...]

A run with the default options is stored under the network's name; one with --backend,
--ring or --mode under the name and those options, so it is a row of its own beside the
default run.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tesearch.solvers import Backend
from tesearch.facts.bounds import compute_bounds
from tesearch.running.errors import TesearchError
from tesearch.networks.groups import cached_cayley_graph
from tesearch.networks.families import network_from_spec
from tesearch.running.terms import Exchange
from tesearch.search.lift import AssignMode, lifted_table
from tesearch.tables.table import read_table, write_table
from tesearch.tables.verify import verify_table

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / "results" / "frontier" / "lifts.json"

# The TPU-shaped targets first, then more slices of TPU-like and odd mixed-radix tori.
TARGETS = ("torus-4x4x8", "torus-4x8x8", "torus-8x8x16",
           "torus-4x4x16", "torus-4x8x16", "torus-8x16x16", "torus-4x4x4x8",
           "torus-8x16", "torus-16x32", "torus-3x5x7", "torus-6x8x10", "torus-12x12x24")


def best_bound(spec: str) -> int:
    return compute_bounds(cached_cayley_graph(network_from_spec(spec)), Exchange.TOTAL).best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per solver call (tesearch lift --solver-timeout)")
    ap.add_argument("--backend", choices=[b.value for b in Backend], default=Backend.Z3.value)
    ap.add_argument("--ring", type=int, default=None, help="the side to split off (needs --only naming one target)")
    ap.add_argument("--mode", action="append", choices=[m.value for m in AssignMode], default=None,
                    help="assignment modes to try, repeatable, in order (default: fixed, then latin)")
    args = ap.parse_args()
    backend = Backend(args.backend)
    chosen = [spec for spec in TARGETS if not args.only or args.only in spec]
    if args.ring is not None and len(chosen) != 1:
        ap.error(f"--ring needs --only to pick exactly one target (it picks {len(chosen)})")
    modes = tuple(AssignMode(m) for m in args.mode) if args.mode else (AssignMode.FIXED, AssignMode.LATIN)
    options = (f" --ring {args.ring}" if args.ring is not None else "") + \
        "".join(f" --mode {m}" for m in args.mode or ()) + \
        (f" --backend {backend.value}" if backend is not Backend.Z3 else "")
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    for spec in chosen:
        t0 = time.monotonic()
        steps: list[str] = []
        try:
            table = lifted_table(network_from_spec(spec), ring_index=args.ring, timeout_s=args.timeout, modes=modes, backend=backend,
                                 progress=steps.append).table
        except TesearchError as exc:
            record = {"network": spec, "status": "unknown", "T": None, "best_bound": best_bound(spec),
                      "error": str(exc)}
        else:
            check = verify_table(table)
            path = ROOT / "results" / "frontier" / f"{spec}.json"
            old = read_table(path).T if path.exists() else None
            if check.ok and (old is None or table.T < old):  # an equal table would orphan its certificate
                write_table(table, path)
            record = {"network": spec, "status": "found" if check.ok else "invalid", "T": table.T,
                      "best_bound": check.bounds.best, "optimal": check.ok and table.T == check.bounds.best}
        record["seconds"] = round(time.monotonic() - t0, 1)
        record["steps"] = steps
        record["command"] = (f"tesearch lift {spec}{options} --solver-timeout {args.timeout:g} "
                             f"--out results/frontier/{spec}.json")
        store[spec + options] = record
        print(f"{spec:16s} {record['status']:8s} T={record['T']} bound={record.get('best_bound')} "
              f"{record['seconds']}s", flush=True)
        STORE.write_text(json.dumps(store, indent=1) + "\n")


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
