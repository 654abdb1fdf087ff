"""torus-12x12x24:twisted at T = 6036: its rotation core in exactly 60 columns, one CP-SAT model (issue 40, item 5).

    python -m experiments.twisted_core_exact [--width 60] [--timeout 900] [--workers 2] [--record FILE]

At the bound the table has no blank: every column holds each of the six letters once.  With every full orbit a
rotation block (each letter once per block column), the 29 exceptional elements must fill a core of exactly
360 / 6 = 60 columns, each column holding each letter once.  The group is abelian, so any order of a
letter-count vector is a shortest word: the model chooses for every element one of its letter-count vectors and
a first column, and for every column it covers one letter, with every (column, letter) cell used exactly once
(rows follow by interval colouring: six elements cover every column).  Symmetries broken: the rotation permutes
the core and the letters (so the element l^12 is x+^12), and reversing the columns with the letters inverted maps
cores to cores (so x+^12 starts in the left half).  A table is not written; the record says what CP-SAT
decided (its INFEASIBLE is no certificate, and it covers only the tables whose full orbits are all blocks).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tesearch.facts.bounds import letter_vectors
from tesearch.facts.instance import instance

ROOT = Path(__file__).resolve().parent.parent

SPEC = "torus-12x12x24:twisted"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default=SPEC, help="another twisted torus, to try the model where the answer is known")
    ap.add_argument("--width", type=int, default=None, help="default: the core's letters / 6 (no blank)")
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--record", default=None)
    args = ap.parse_args()
    from ortools.sat.python import cp_model

    facts = instance(args.spec)
    cg = facts.cg
    core = [int(g) for orbit in facts.orbit_classes.short for g in orbit]
    vectors = letter_vectors(cg)
    options = {g: sorted(vectors[g]) for g in core}
    S = cg.degree
    W = args.width or -(-int(sum(cg.dist[g] for g in core)) // S)
    model = cp_model.CpModel()
    start, active, use = {}, {}, {}
    for g in core:
        length = int(cg.dist[g])
        starts = [model.NewBoolVar(f"b{g}_{c}") for c in range(W - length + 1)]
        model.AddExactlyOne(starts)
        start[g] = starts
        for x in range(W):
            covering = [starts[c] for c in range(max(0, x - length + 1), min(x, W - length) + 1)]
            active[g, x] = sum(covering)
        choice = [model.NewBoolVar(f"o{g}_{k}") for k in range(len(options[g]))]
        model.AddExactlyOne(choice)
        for s in range(S):
            cells = []
            for x in range(W):
                v = model.NewBoolVar(f"x{g}_{x}_{s}")
                use[g, x, s] = v
                cells.append(v)
            model.Add(sum(cells) == sum(c * vec[s] for c, vec in zip(choice, options[g])))
        for x in range(W):
            model.Add(sum(use[g, x, s] for s in range(S)) == active[g, x])
        if len(options[g]) == S and all(sum(1 for n in vec if n) == 1 for vec in options[g]):
            # l^12, fixed by every rotation: pin it to x+ (the rotation) and to the left half (the mirror)
            model.Add(choice[[k for k, vec in enumerate(options[g]) if vec[0]][0]] == 1)
            model.Add(sum(start[g][: (W - length) // 2 + 1]) == 1)
    full = int(sum(cg.dist[g] for g in core)) == S * W  # no blank: every cell used
    for x in range(W):
        for s in range(S):
            cell = sum(use[g, x, s] for g in core)
            model.Add(cell == 1) if full else model.Add(cell <= 1)
        covered = sum(active[g, x] for g in core)
        model.Add(covered == S) if full else model.Add(covered <= S)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = args.timeout
    solver.parameters.num_workers = args.workers
    started = time.monotonic()
    status = solver.Solve(model)
    row = {"network": args.spec, "width": W, "elements": len(core), "letters": int(sum(cg.dist[g] for g in core)),
           "status": solver.StatusName(status), "seconds": round(time.monotonic() - started, 1),
           "timeout": args.timeout, "workers": args.workers,
           "command": "python -m experiments.twisted_core_exact " + " ".join(sys.argv[1:])}
    print(json.dumps(row))
    if args.record:
        path = Path(args.record)
        runs = json.loads(path.read_text()) if path.exists() else []
        runs.append(row)
        path.write_text(json.dumps(runs, indent=1) + "\n")
    return 0 if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else 4


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
