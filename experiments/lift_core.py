"""Refute every lift over one factor table by a small core: results/frontier/lift-cores.json.

A ring lift (tesearch/search/lift) stacks m copies of a factor table H and
completes copy k of each factor word h with a ring element.  In LATIN mode, the most
general one the lift has, copy k of h may take any ring element, each once over the
copies of h; FIXED and CYCLIC lifts are LATIN lifts too.  ``restrict`` keeps only some
factor words (all their copies, their Latin groups, the lone ring words dropped), so it
is a relaxation: when the restricted model is unsat, no LATIN lift over that factor
table exists at the lift's width.  This is a refutation of one class of tables, not of
the network's bound.

Steps:
1. build the LATIN model of the lift (default: torus-8x16x16, ring side 0, over seed 003's
   construction table for torus-16x16 from tesearch.checking.published.constructions), and run the
   counting test of tesearch.search.lift.boundary_cut on it (a max flow, no solver);
2. grow runs of consecutive factor words (ordered by column), from each start in turn, with
   CP-SAT until one is infeasible (or take the words given with --core);
3. shrink that set word by word with CP-SAT, keeping a word only when dropping it makes
   the model feasible or unknown;
4. write the core's Z3 model to encodings/ as SMT-LIB2 and have Z3 solve the written
   file: only Z3's unsat on that file is recorded as the refutation (CP-SAT's INFEASIBLE
   guides the search and is not certified);
5. record the counting test's cut, the core's words, sizes, times and the file's sha256 in
   results/frontier/lift-cores.json.

The counting test and the Z3 core are independent: the first is a Hall-type count anyone
can redo by hand from the words it names, the second a solver's answer on a file.

Usage:

    .venv/bin/python -m experiments.lift_core [torus-8x16x16] [--ring 0] [--factor FILE]
        [--core 8,9,10] [--window 16] [--cpsat-timeout 60] [--z3-timeout 1800]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import time
from pathlib import Path

import z3

from tesearch.facts.bounds import compute_bounds
from tesearch.running.terms import SolveResult
from tesearch.running.errors import TesearchError
from tesearch.networks.groups import cached_cayley_graph
from tesearch.search.lift import (AssignMode, HWord, LiftModel, LiftParams, boundary_cut, build_model,
                                  factor_words, ring_words, solve_cpsat, split_off, verified_factor, z3_solver)
from tesearch.solvers import Backend
from tesearch.networks.families import network_from_spec
from tesearch.checking.published.constructions import CONSTRUCTIONS
from tesearch.tables.table import Table, read_table
from tesearch.running.terms import Exchange

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / "results" / "frontier" / "lift-cores.json"


def restrict(model: LiftModel, h_indices: set[int] | list[int]) -> LiftModel:
    """The lift model cut down to every copy of the factor words ``h_indices``.

    The lone words, and the column constraints with the items dropped, are
    left out, so this is a relaxation: when it is unsat, no lift of the whole
    model exists (in the same mode, over the same factor table).
    """
    keep_h = set(h_indices)
    old = [i for i, (kind, _, hi) in enumerate(model.items) if kind == "copy" and hi in keep_h]
    new_index = {i: j for j, i in enumerate(old)}

    def remap(group: list[tuple[int, int]]) -> list[tuple[int, int]]:
        return [(new_index[i], o) for i, o in group if i in new_index]

    latin = [remap(g) for g in model.latin if g and all(i in new_index for i, _ in g)]
    column = [g for g in (remap(g) for g in model.column) if len(g) > 1]
    shifts = [[[remap(per) for per in by_shift] for by_shift in model.shifts[hi]]
              for hi in sorted(keep_h)] if model.shifts else []
    return LiftModel(model.params, [model.items[i] for i in old], [model.options[i] for i in old], latin, column,
                     model.width, shifts)


def construction_factor(spec: str) -> Table:
    """Seed 003's table for a square 2-D torus (the only factor shape the constructions cover here)."""
    sides = network_from_spec(spec).params.sides
    if len(sides) != 2 or sides[0] != sides[1]:
        raise TesearchError(f"{spec}: seed 003 gives constructions for n x n tori only; pass --factor FILE")
    name = "torus2d-even" if sides[0] % 2 == 0 else "torus2d-odd"
    build, _, applies = CONSTRUCTIONS[name]
    if not applies(sides[0]):
        raise TesearchError(f"{spec}: the {name} construction does not apply")
    return build(sides[0]).table


def feasible(model: LiftModel, keep: list[int], timeout_s: float) -> SolveResult:
    sub = restrict(model, keep)
    sub.params = dataclasses.replace(model.params, timeout_s=timeout_s, backend=Backend.CPSAT)
    return solve_cpsat(sub)[0]


def word_records(hwords: list[HWord], indices) -> list[dict]:
    return [{"h": h, "column": hwords[h].column, "word": "".join(hwords[h].letters)} for h in indices]


def scan(model: LiftModel, n_words: int, window: int, timeout_s: float) -> list[int] | None:
    """The first run of consecutive factor words that CP-SAT finds infeasible.

    From each start, the run grows one word at a time (a feasible run is quick to
    show) up to ``window`` words; an unknown ends the growth from that start.
    """
    for start in range(n_words):
        for end in range(start + 1, min(n_words, start + window) + 1):
            keep = list(range(start, end))
            t0 = time.monotonic()
            answer = feasible(model, keep, timeout_s)
            if answer is not SolveResult.SAT:
                print(f"  h {start}..{end - 1}: cpsat {answer.value} ({time.monotonic() - t0:.1f}s)", flush=True)
            if answer is SolveResult.UNSAT:
                return keep
            if answer is SolveResult.UNKNOWN:
                break
        else:
            print(f"  runs from h {start} (up to {window} words): all feasible", flush=True)
    return None


def shrink(model: LiftModel, keep: list[int], timeout_s: float) -> list[int]:
    """Drop each word whose removal leaves the model infeasible (CP-SAT)."""
    core = list(keep)
    for h in list(keep):
        trial = [g for g in core if g != h]
        answer = feasible(model, trial, timeout_s)
        if answer is SolveResult.UNSAT:
            core = trial
        print(f"  without h {h}: cpsat {answer.value}; core now {len(core)} words", flush=True)
    return core


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("network", nargs="?", default="torus-8x16x16")
    ap.add_argument("--ring", type=int, default=0, help="the side split off as the ring (0-based)")
    ap.add_argument("--factor", default=None, metavar="FILE",
                    help="the factor table (tesearch-table v1); default: seed 003's construction")
    ap.add_argument("--core", default=None, help="comma-separated factor word indices to test instead of scanning")
    ap.add_argument("--window", type=int, default=16)
    ap.add_argument("--cpsat-timeout", type=float, default=60.0)
    ap.add_argument("--z3-timeout", type=float, default=1800.0)
    args = ap.parse_args(argv)
    t_start = time.monotonic()
    try:
        network = network_from_spec(args.network)
        ring, rest, letter_map = split_off(network, args.ring)
        if args.factor:
            factor, factor_name = read_table(args.factor), args.factor
        else:
            factor, factor_name = construction_factor(rest.spec), f"seed 003 construction for {rest.spec}"
        if factor.network != rest.spec:
            raise TesearchError(f"the factor table is for {factor.network}, not {rest.spec}",
                                where=args.factor or "construction")
        verified_factor(factor, where=args.factor or "construction")
        core_given = sorted({int(h) for h in args.core.split(",")}) if args.core else None
    except ValueError:
        print(f"error: --core: {args.core!r} is not a comma-separated list of integers", file=sys.stderr)
        return 2
    except TesearchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    hwords = factor_words(factor, letter_map)
    words_of_ring = ring_words(ring)
    params = LiftParams(network.spec, args.ring, AssignMode.LATIN, args.cpsat_timeout, backend=Backend.CPSAT)
    model = build_model(params, hwords, factor.T, words_of_ring)
    print(f"{params}: {factor_name}, T = {factor.T}, {len(hwords)} factor words, width {model.width}, "
          f"{len(model.items)} items, {model.size} options", flush=True)
    t0 = time.monotonic()
    cut = boundary_cut(hwords, factor.T, words_of_ring)
    cut_s = time.monotonic() - t0
    print(f"counting test (boundary columns, max flow, {cut_s:.1f}s): "
          f"{cut.text() if cut else 'leaves room (it refutes nothing)'}", flush=True)
    t0 = time.monotonic()
    if core_given is not None:
        core = core_given
        if not all(0 <= h < len(hwords) for h in core):
            print(f"error: --core: factor word indices run 0..{len(hwords) - 1}", file=sys.stderr)
            return 2
    else:
        window = scan(model, len(hwords), args.window, args.cpsat_timeout)
        if window is None:
            print("no window of factor words is infeasible for CP-SAT: nothing refuted", flush=True)
            return 1
        core = shrink(model, window, args.cpsat_timeout)
    found_s = time.monotonic() - t0
    sub = restrict(model, core)
    sub.params = dataclasses.replace(params, timeout_s=args.z3_timeout, backend=Backend.Z3)
    name = f"lift-{network.spec}-ring{args.ring}-{'construction' if not args.factor else Path(args.factor).stem}-core"
    path = ROOT / "encodings" / f"{name}.smt2"
    words = word_records(hwords, core)
    header = [f"; tesearch lift core: {params.network} ring={args.ring} latin over {factor_name} (T = {factor.T})",
              f"; width {sub.width}, factor words {len(core)}, items {len(sub.items)}, options {sub.size}",
              "; factor words (h, column, word): " + ", ".join(f"{w['h']}@{w['column']}:{w['word']}" for w in words),
              "; unsat means: no LATIN lift of this ring over this factor table exists at this width"]
    text = "\n".join(header) + "\n" + z3_solver(sub).to_smt2()
    path.write_text(text)
    digest = hashlib.sha256(text.encode()).hexdigest()
    print(f"core: {len(core)} factor words {core}, {len(sub.items)} items, {sub.size} options; wrote "
          f"{path.relative_to(ROOT)}; Z3 solves the file ...", flush=True)
    t1 = time.monotonic()
    solver = z3.Solver()
    solver.set("timeout", int(args.z3_timeout * 1000))
    solver.from_file(str(path))
    answer = solver.check()
    z3_s = time.monotonic() - t1
    status = "unsat" if answer == z3.unsat else "sat" if answer == z3.sat else "unknown"
    print(f"z3 on {path.name}: {status} ({z3_s:.1f}s)", flush=True)
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    store[name] = {
        "network": network.spec, "best_bound": compute_bounds(cached_cayley_graph(network), Exchange.TOTAL).best,
        "ring": ring.spec, "ring_index": args.ring, "mode": AssignMode.LATIN.value,
        "factor": factor_name, "factor_T": factor.T, "width": model.width,
        "full_model": {"factor_words": len(hwords), "items": len(model.items), "options": model.size},
        "core": {"factor_words": words, "items": len(sub.items), "options": sub.size},
        "boundary_cut": None if cut is None else {
            "words": word_records(hwords, cut.words),
            "columns": len(cut.columns), "loose_copies": cut.loose, "demand": cut.demand,
            "capacity": cut.capacity, "seconds": round(cut_s, 1), "text": cut.text()},
        "found_by": "given with --core" if args.core else f"CP-SAT growing runs (up to {args.window} words) and deletion",
        "found_seconds": round(found_s, 1),
        "z3": {"status": status, "seconds": round(z3_s, 1), "version": z3.get_version_string(),
               "timeout_s": args.z3_timeout},
        "encoding": {"path": path.relative_to(ROOT).as_posix(), "sha256": digest},
        "claim": ("no LATIN (hence no FIXED or CYCLIC) lift of the ring over this factor table exists at width "
                  f"{model.width}" if status == "unsat" else "none: Z3 did not refute the core"),
        "seconds": round(time.monotonic() - t_start, 1),
        "command": "python -m experiments.lift_core " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    STORE.write_text(json.dumps(store, indent=1) + "\n")
    return 0 if status == "unsat" else 1


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
