"""Search for a core array of the prime-star construction (tesearch/constructions/star_prime.py) by CP-SAT.

    python -m experiments.star_core_array P [--starts 0,2,...] [--patterns N] [--timeout S] [--workers W]
                                        [--record results/frontier/star-core-arrays.json]

A core array for the prime p places, in 3p - 1 columns, the p - 1 progressions (one of each step s = 1..p-1,
any first letter t: the letters t, t+s, ..., t+ps mod p), the p single letters and the p(p - 1) words ab
(a != b), no letter twice in a column.  The model: one Boolean per (progression slot, step, first letter) with
the slots' first columns fixed by a *start pattern* (the progressions start at least 2 columns apart, since two
progressions of different steps meet once in every p columns), one Boolean per (single letter, column) and per
(word ab, column), and at most one use of every (column, letter) cell.  Symmetry: the affine maps x -> ax + b
of the letters map core arrays to core arrays (steps times a), so the leftmost progression is fixed to step 1
and first letter 0.

Without --starts, the start patterns are tried one after another: the p - 1 starts with gaps of 2 and two
units of slack placed anywhere (before, between, after), the patterns with the slack in the middle first (the
arrays for p = 3, 5 and 7 have it there).  Every run is recorded (pattern, status, seconds); CP-SAT's
INFEASIBLE is no certificate, so a pattern it rules out is recorded as such, never as a proof.  A found array is
checked by tesearch.constructions.star_prime.check_core and printed in the CORE_ARRAYS form.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

from tesearch.constructions.star_prime import check_core

ROOT = Path(__file__).resolve().parent.parent


def start_patterns(p: int, width: int | None = None) -> list[tuple[int, ...]]:
    """Every placement of the p - 1 progression starts in ``width`` (default 3p - 1) columns with gaps >= 2,
    the ones with their slack nearest the middle first."""
    width = width or 3 * p - 1
    last = width - (p + 1)  # the last start
    slots = p  # before the first start, the p - 2 gaps, after the last
    slack = last - 2 * (p - 2)
    patterns = []
    for extra in itertools.combinations_with_replacement(range(slots), slack):
        add = [extra.count(k) for k in range(slots)]
        starts, column = [], add[0]
        for i in range(p - 1):
            starts.append(column)
            column += 2 + (add[i + 1] if i < p - 2 else 0)
        if starts[-1] <= last:
            patterns.append(tuple(starts))
    middle = (slots - 1) / 2
    return sorted(set(patterns), key=lambda s: (sum(abs(k - middle) for k in range(slots)
                                                    for _ in range(_slack(s, p, width)[k])), s))


def _slack(starts: tuple[int, ...], p: int, width: int) -> list[int]:
    return [starts[0]] + [b - a - 2 for a, b in zip(starts, starts[1:])] + [width - (p + 1) - starts[-1]]


def solve(p: int, starts: tuple[int, ...], timeout: float, workers: int, seed: int = 0, extra: bool = False):
    """(status name, the core array or None, seconds) for one start pattern.

    ``extra``: the core also holds one orbit of the transpositions (a a+d) (distance 3, words a b a or b a b, any
    d chosen by the model), three more columns: a wider core with the same one blank (the theorem's proof
    holds for any full orbits placed in the core)."""
    from ortools.sat.python import cp_model

    width = 3 * p - 1 + (3 if extra else 0)
    model = cp_model.CpModel()
    cells: dict[tuple[int, int], list] = {(x, a): [] for x in range(width) for a in range(p)}
    prog = {}
    for i, column in enumerate(starts):
        for s in range(1, p):
            for t in range(p):
                if i == 0 and (s, t) != (1, 0):
                    continue  # the affine symmetry: the leftmost progression has step 1 and first letter 0
                v = model.NewBoolVar(f"p{i}_{s}_{t}")
                prog[i, s, t] = v
                for k in range(p + 1):
                    cells[column + k, (t + k * s) % p].append(v)
        model.AddExactlyOne(v for (j, _, _), v in prog.items() if j == i)
    for s in range(1, p):
        model.AddExactlyOne(v for (_, r, _), v in prog.items() if r == s)
    single = {}
    for a in range(p):
        for x in range(width):
            single[a, x] = model.NewBoolVar(f"s{a}_{x}")
            cells[x, a].append(single[a, x])
        model.AddExactlyOne(single[a, x] for x in range(width))
    pair = {}
    for a in range(p):
        for b in range(p):
            if a == b:
                continue
            for x in range(width - 1):
                pair[a, b, x] = model.NewBoolVar(f"w{a}_{b}_{x}")
                cells[x, a].append(pair[a, b, x])
                cells[x + 1, b].append(pair[a, b, x])
            model.AddExactlyOne(pair[a, b, x] for x in range(width - 1))
    third = {}
    if extra:
        chosen = [model.NewBoolVar(f"o{d}") for d in range(1, (p - 1) // 2 + 1)]
        model.AddExactlyOne(chosen)
        for d, o in enumerate(chosen, start=1):
            for a in range(p):
                words = [(a, (a + d) % p, a), ((a + d) % p, a, (a + d) % p)]
                options = []
                for w in words:
                    for x in range(width - 2):
                        v = model.NewBoolVar(f"t{d}_{a}_{w}_{x}")
                        third[w, x] = v
                        options.append(v)
                        for k, letter in enumerate(w):
                            cells[x + k, letter].append(v)
                model.Add(sum(options) == o)
    for literals in cells.values():
        model.AddAtMostOne(literals)
    for x in range(width):  # one blank in all: every column holds at least p - 1 letters
        model.Add(sum(v for a in range(p) for v in cells[x, a]) >= p - 1)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = timeout
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    started = time.monotonic()
    status = solver.Solve(model)
    seconds = round(time.monotonic() - started, 1)
    name = solver.StatusName(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return name, None, seconds
    core = []
    for (i, s, t), v in prog.items():
        if solver.Value(v):
            core.append((starts[i], tuple((t + k * s) % p for k in range(p + 1))))
    for (a, x), v in single.items():
        if solver.Value(v):
            core.append((x, (a,)))
    for (a, b, x), v in pair.items():
        if solver.Value(v):
            core.append((x, (a, b)))
    for (w, x), v in third.items():
        if solver.Value(v):
            core.append((x, w))
    return name, tuple(sorted(core)), seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("p", type=int)
    ap.add_argument("--starts", default=None, help="one start pattern, comma-separated")
    ap.add_argument("--patterns", type=int, default=None, help="try at most this many patterns")
    ap.add_argument("--skip", type=int, default=0, help="skip the first patterns of the order")
    ap.add_argument("--timeout", type=float, default=60.0, help="CP-SAT seconds per pattern")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--record", default=None, help="append every run to this JSON list")
    ap.add_argument("--extra-orbit", action="store_true",
                    help="a core three columns wider holding one orbit of transpositions (a a+d) too")
    args = ap.parse_args()
    patterns = ([tuple(int(x) for x in args.starts.split(","))] if args.starts else
                start_patterns(args.p, 3 * args.p + 2 if args.extra_orbit else None)[args.skip:])
    if args.patterns is not None:
        patterns = patterns[:args.patterns]
    record = Path(args.record) if args.record else None
    runs = json.loads(record.read_text()) if record and record.exists() else []
    found = None
    for starts in patterns:
        status, core, seconds = solve(args.p, starts, args.timeout, args.workers, args.seed, args.extra_orbit)
        faults = (check_core(args.p, core) if not args.extra_orbit else []) if core else None
        row = {"p": args.p, "extra_orbit": args.extra_orbit, "starts": list(starts), "status": status, "seconds": seconds,
               "timeout": args.timeout, "workers": args.workers, "seed": args.seed,
               "core_array": None if core is None else [[c, list(w)] for c, w in core],
               "check_core": None if faults is None else (faults or "a core array")}
        print(json.dumps({k: v for k, v in row.items() if k != "core_array"}), flush=True)
        runs.append(row)
        if record:
            record.write_text(json.dumps(runs, indent=1) + "\n")
        if core and not faults:
            found = core
            break
    if found:
        print(f"    {args.p}: (")
        print("        " + ", ".join(f"({c}, {w})" for c, w in found) + ",),")
    return 0 if found else 4


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
