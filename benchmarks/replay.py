"""Replay benchmark: the vectorised engine against the per-message reference, and at scale.

Usage: .venv/bin/python -m benchmarks.replay [--no-large] [--no-reference-star6] [--no-frontier]
       .venv/bin/python -m benchmarks.replay --frontier-only

Inputs are built here (not read from results/): a "sequential" table puts one shortest
word per target one after another in row 0 (every column holds one letter, so it is a
valid, far from optimal table with exactly the message and hop counts of any table for
the network); a "greedy" table packs the same words into all rows; "fifo" and "a2" are
seed 000 / seed 001 single-port schedules (buffered).  The issue-5 target: a star-7-sized
table (5040 nodes, ~25 M messages, ~150 M hops) and hypercube-12 (4096 nodes, ~100 M
hops) each replay in under a minute on one core.

Past measurements: docs/notes/benchmark-runs.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from tesearch.networks.groups import cayley_graph
from tesearch.networks.families import network_from_spec
from tesearch.checking.replay import PortModel, input_from_json, replay, replay_reference
from tesearch.schedules.singleport import a2_schedule, fifo_schedule
from tesearch.networks.words import canonical_words

TARGET_SECONDS = 60.0


def sequential_table(spec: str) -> dict:
    net = network_from_spec(spec)
    cg = cayley_graph(net)
    words = canonical_words(cg)
    placements, col = [], 0
    for g in range(1, cg.order):
        w = [net.letters[k] for k in words[g] if k >= 0]
        placements.append([0, col, w])
        col += len(w)
    return {"format": "tesearch-table", "format_version": 1, "network": spec, "exchange": "total",
            "generators": net.generators_json(), "T": col, "lower_bound": None, "placements": placements}


def greedy_table(spec: str) -> dict:
    """The same words packed into every row: earliest start with a free row and no column repeat."""
    data = sequential_table(spec)
    rows = len(data["generators"])
    busy = [set() for _ in range(rows)]
    column_letters: dict[int, set] = {}
    placements = []
    for _, _, w in sorted(data["placements"], key=lambda p: -len(p[2])):
        c = 0
        while True:
            row = next((r for r in range(rows) if all(c + i not in busy[r] for i in range(len(w)))), None)
            if row is not None and all(s not in column_letters.get(c + i, ()) for i, s in enumerate(w)):
                break
            c += 1
        for i, s in enumerate(w):
            busy[row].add(c + i)
            column_letters.setdefault(c + i, set()).add(s)
        placements.append([row, c, w])
    data["placements"] = placements
    data["T"] = max(c + len(w) for _, c, w in placements)
    return data


def fifo(spec: str) -> dict:
    return fifo_schedule(cayley_graph(network_from_spec(spec))).to_json()


def a2(spec: str) -> dict:
    return a2_schedule(cayley_graph(network_from_spec(spec))).schedule.to_json()


def row(case, model, inp, fast, slow=None, build_s=None):
    hops_per_node = sum(len(m.word) for m in inp.messages)
    ref = f"{slow.seconds:9.2f}" if slow is not None else "        -"
    speedup = f"{slow.seconds / fast.seconds:7.0f}x" if slow is not None else "       -"
    agree = "-"
    if slow is not None:
        same = all(getattr(fast, a) == getattr(slow, a) for a in
                   ("ok", "violation_counts", "completion_time", "transmissions", "max_buffer", "delivered"))
        agree = "yes" if same else "NO"
    print(f"{case:<28} {model:<11} {fast.nodes:>6} {fast.messages:>11,} {hops_per_node * fast.nodes:>13,} "
          f"{fast.completion_time:>7} {fast.max_buffer:>6} {'ok' if fast.ok else 'FAIL':>4} "
          f"{fast.seconds:9.2f} {ref} {speedup} {agree:>5}"
          + (f"   (input built in {build_s:.1f} s)" if build_s is not None else ""))
    sys.stdout.flush()
    return fast


FRONTIER = ("hypercube-14", "hypercube-15", "hypercube-16", "star-8")
FRONTIER_DIR = Path(__file__).resolve().parent.parent / "results" / "frontier"
_CHILD = """
import json, sys
from tesearch.checking.replay import load_input, replay
inp = load_input(sys.argv[1])
r = replay(inp, "all-port")
print(json.dumps({"engine": r.engine, "nodes": r.nodes, "T": r.claimed_T, "words": len(inp.messages),
                  "hops": r.transmissions, "ok": r.ok, "seconds": r.seconds}))
"""


def frontier_rows(names=FRONTIER) -> list[dict]:
    """Replay each frontier table in a child process; its own wall time, replay time and peak memory."""
    print(f"{'case':<16} {'engine':<10} {'nodes':>6} {'T':>6} {'words':>6} {'copy-hops':>15} {'ok':>4} "
          f"{'replay s':>9} {'wall s':>7} {'peak MB':>8}")
    rows = []
    for name in names:
        started = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-c", _CHILD, str(FRONTIER_DIR / f"{name}.json")],
                                 stdout=subprocess.PIPE, text=True)
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        if child.returncode != 0:
            print(f"{name:<16} failed (exit {child.returncode})")
            continue
        r = json.loads(out)
        r.update(case=name, wall=wall, peak_mb=usage.ru_maxrss / 1024)
        rows.append(r)
        print(f"{name:<16} {r['engine']:<10} {r['nodes']:>6} {r['T']:>6} {r['words']:>6} {r['hops']:>15,} "
              f"{'ok' if r['ok'] else 'FAIL':>4} {r['seconds']:9.1f} {wall:7.1f} {r['peak_mb']:8.0f}")
        sys.stdout.flush()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-large", action="store_true", help="skip star-7 and hypercube-12")
    parser.add_argument("--no-reference-star6", action="store_true", help="skip the slow reference on star-6")
    parser.add_argument("--no-frontier", action="store_true",
                        help="skip the frontier tables above 12000 nodes (star-8, hypercube-14..16)")
    parser.add_argument("--frontier-only", action="store_true", help="only the frontier tables")
    args = parser.parse_args()
    if args.frontier_only:
        frontier_rows()
        return 0

    print(f"{'case':<28} {'model':<11} {'nodes':>6} {'messages':>11} {'hops':>13} {'T':>7} {'buffer':>6} "
          f"{'ok':>4} {'vector s':>9} {'ref s':>9} {'speedup':>8} {'agree':>5}")
    small = [
        ("star-4 greedy", greedy_table, "star-4", PortModel.ALL_PORT),
        ("torus-6x6 greedy", greedy_table, "torus-6x6", PortModel.ALL_PORT),
        ("hypercube-6 greedy", greedy_table, "hypercube-6", PortModel.ALL_PORT),
        ("star-5 sequential", sequential_table, "star-5", PortModel.ALL_PORT),
        ("star-5 fifo", fifo, "star-5", PortModel.SINGLE_PORT),
        ("torus-6x6 a2", a2, "torus-6x6", PortModel.SINGLE_PORT),
        ("hypercube-8 sequential", sequential_table, "hypercube-8", PortModel.ALL_PORT),
    ]
    if not args.no_reference_star6:
        small.append(("star-6 sequential", sequential_table, "star-6", PortModel.ALL_PORT))
    for case, build, spec, model in small:
        inp = input_from_json(build(spec), case)
        row(case, model.value, inp, replay(inp, model), replay_reference(inp, model))

    large = [("star-6 fifo (buffered)", fifo, "star-6", PortModel.SINGLE_PORT)]
    if not args.no_large:
        large += [("star-7 sequential", sequential_table, "star-7", PortModel.ALL_PORT),
                  ("hypercube-12 sequential", sequential_table, "hypercube-12", PortModel.ALL_PORT),
                  ("hypercube-12 a2", a2, "hypercube-12", PortModel.SINGLE_PORT)]
    slow_cases = []
    for case, build, spec, model in large:
        started = time.perf_counter()
        inp = input_from_json(build(spec), case)
        built = time.perf_counter() - started
        fast = row(case, model.value, inp, replay(inp, model), build_s=built)
        if spec in ("star-7", "hypercube-12") and fast.seconds >= TARGET_SECONDS:
            slow_cases.append(case)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory {peak_mb:.0f} MB")
    if not args.no_frontier:
        print()
        frontier_rows()
    if not args.no_large:
        print("issue-5 target (< 60 s each for star-7 and hypercube-12): "
              + ("MET" if not slow_cases else f"MISSED by {', '.join(slow_cases)}"))
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
