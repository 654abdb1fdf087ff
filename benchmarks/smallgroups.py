"""Every Cayley graph of S_n's subgroups on involutions, settled exactly by the full-table CNF.

    python -m benchmarks.smallgroups [--points 4] [--exchanges total odd-distance] [--per-width 120]
                                     [--min-order 8] [--report FILE] [--keep-above-bound]

For each set of 2 to ``--max-letters`` involutions of S_n (transpositions and products of disjoint
transpositions) that generates a group of order at least ``--min-order``, one per conjugacy class of sets
(conjugation by S_n is a graph isomorphism that renames the letters), and for each exchange: the widths from the
lower bound up are solved by the full-table CNF with the counting cut and a DRAT proof
(tesearch.search.fulltable.solve_width) until one is sat.  The lower bound is the best of tesearch's bounds and
the longest target's distance (a word must fit in the table).  Each unsat width is kept as a theorem only after
the kernel rebuilt its CNF byte for byte (tesearch.checking.kernel.fullcnf) and check_drat accepted its proof;
the sat width's table is checked by the kernel's Theorem 1 and the replay.  A width that runs out of time is
unknown, and the network's optimum is then reported as unknown.

With ``--keep-above-bound`` a network whose optimum exceeds its bound keeps its evidence in the repository:
its generators (``results/small-groups/NAME.json``), its optimal table (``results/small-groups/NAME-EXCH.json``),
and the unsat CNF one below with its proof (``encodings/NAME_EXCH-fulltable-TW.cnf``/``.drat``), which
``tesearch certify TABLE --refutation CNF`` turns into a certificate whose check-proof shows the table optimal.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import itertools
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tesearch.networks.permutations import compose, inverse, transposition
from tesearch.running.errors import run_script
from tesearch.running.files import write_atomically

ROOT = Path(__file__).resolve().parent.parent
#: how a bound that only the longest target's distance gives is named
LONGEST = "the longest target"


def involutions(points: int) -> list[tuple[int, ...]]:
    """Every involution of S_points: products of 1..points//2 disjoint transpositions."""
    out = []
    pairs = list(itertools.combinations(range(points), 2))
    for k in range(1, points // 2 + 1):
        for chosen in itertools.combinations(pairs, k):
            flat = [x for pair in chosen for x in pair]
            if len(set(flat)) == len(flat):
                out.append(functools.reduce(compose, (transposition(points, a, b) for a, b in chosen)))
    return out


def group_order(gens) -> int:
    """The order of the group the permutations generate (a breadth-first closure)."""
    ident = tuple(range(len(gens[0])))
    seen, frontier = {ident}, [ident]
    while frontier:
        frontier = [q for p in frontier for s in gens if (q := compose(p, s)) not in seen and not seen.add(q)]
    return len(seen)


def canonical(gens) -> tuple[tuple[int, ...], ...]:
    """The least sorted image of the generator set under conjugation by S_n (one per conjugacy class)."""
    images = (tuple(sorted(compose(compose(inverse(q), s), q) for s in gens))
              for q in itertools.permutations(range(len(gens[0]))))
    return min(images)


def generator_sets(points: int, max_letters: int, min_order: int) -> list[tuple[tuple[int, ...], ...]]:
    """The conjugacy classes of involution sets (2..max_letters of them) generating a group of order >= min_order,
    without a generator another one repeats."""
    found = {}
    for size in range(2, max_letters + 1):
        for gens in itertools.combinations(involutions(points), size):
            key = canonical(gens)
            if key not in found and group_order(key) >= min_order:
                found[key] = None
    return list(found)


@dataclass
class Settled:
    """One network and exchange: its bound, each width tried and what it gave."""

    name: str
    generators: tuple[tuple[int, ...], ...]
    exchange: str
    order: int
    targets: int
    bound: int
    bound_how: str
    cut: tuple[int, ...]
    widths: list[dict] = field(default_factory=list)
    optimum: int | None = None
    table: object = None
    unsat_below: object = None  # the WidthOutcome one below the optimum, when that width is above the bound

    @property
    def above_bound(self) -> bool:
        return self.optimum is not None and self.optimum > self.bound


def network_name(gens) -> str:
    """A short file-safe name: s<points>-<each generator's image string>."""
    return f"s{len(gens[0])}-" + "-".join("".join(map(str, g)) for g in gens)


def settle(gens, exchange: str, per_width: float, scratch: Path) -> Settled:
    """Widths from the bound up until one is sat (module doc)."""
    from tesearch.checking.kernel.fullcnf import kernel_fulltable_cnf
    from tesearch.checking.kernel.graph import build_network
    from tesearch.checking.kernel.theorem1 import target_mask
    from tesearch.checking.proof import check_drat, parse_dimacs
    from tesearch.facts.instance import instance
    from tesearch.running.terms import Exchange, SolveResult
    from tesearch.facts.wordchoice import dual_letter_weights
    from tesearch.search.fulltable import solve_width

    name = network_name(gens)
    path = scratch / f"{name}.json"
    path.write_text(json.dumps({"generators": {str(k + 1): list(g) for k, g in enumerate(gens)}}))
    facts = instance(str(path), exchange)
    longest = int(facts.cg.dist[facts.targets].max())
    bound = max(facts.bounds.best, longest)
    how = LONGEST if longest > facts.bounds.best else "tesearch's bounds"
    cut = dual_letter_weights(facts)
    out = Settled(name, gens, exchange, int(facts.cg.order), len(facts.targets), bound, how, cut)
    letters = [tuple(facts.network.generators[s]) for s in facts.network.letters]
    net = build_network(facts.network.letters, letters)
    mask = target_mask(net, Exchange.parse(exchange))
    width = bound
    while True:
        o = solve_width(facts, width, cut=cut, timeout_s=per_width)
        row = {"width": width, "result": o.result.value, "seconds": round(o.seconds, 2),
               "cpu_seconds": round(o.cpu_seconds, 2), "variables": o.variables, "clauses": o.clauses,
               "budget": o.cnf.cut_budget}
        if o.result is SolveResult.UNSAT:
            kernel = kernel_fulltable_cnf(net, letters, mask, width, spec=facts.spec, exchange=exchange, cut=cut)
            check = check_drat(parse_dimacs(kernel), "\n".join(o.proof) + "\n")
            row["kernel_cnf_equal"] = kernel == o.cnf.dimacs()
            row["drat"] = "accepted" if check.accepted else f"rejected: {check.reason}"
            row["proof_lines"] = len(o.proof)
            if not (row["kernel_cnf_equal"] and check.accepted):  # never a theorem then: stop here, unknown
                row["result"] = "unknown"
                out.widths.append(row)
                return out
            out.unsat_below = o
        out.widths.append(row)  # (a sat row gets its checks below, in place)
        if o.result is SolveResult.SAT:
            from benchmarks.fulltable import check_table_file
            from tesearch.tables.table import write_table

            table_path = scratch / f"{name}-{exchange}-T{width}.json"
            write_table(o.table, table_path)
            row.update(check_table_file(table_path))
            if (row["theorem1"], row["replay"]) != ("ok", "ok"):  # a table that does not check settles nothing
                row["result"] = "unknown"
                return out
            out.optimum, out.table = width, o.table
            return out
        if o.result is SolveResult.UNKNOWN:
            return out
        width += 1


def keep(s: Settled, root: Path) -> list[str]:
    """Write the evidence of an optimum above its bound (module doc); the paths written."""
    from benchmarks.fulltable import check_table_file
    from tesearch.tables.table import write_table

    (root / "results" / "small-groups").mkdir(parents=True, exist_ok=True)
    (root / "encodings").mkdir(parents=True, exist_ok=True)
    gens_path = root / "results" / "small-groups" / f"{s.name}.json"
    write_atomically(gens_path, json.dumps({"generators": {str(k + 1): list(g) for k, g in
                                                           enumerate(s.generators)}}, indent=1) + "\n")
    table_path = root / "results" / "small-groups" / f"{s.name}-{s.exchange}.json"
    write_table(s.table, table_path)
    checks = check_table_file(table_path)
    if checks != {"theorem1": "ok", "replay": "ok"}:
        raise SystemExit(f"smallgroups: {table_path} does not check: {checks}")
    base = root / "encodings" / f"{s.name}_{s.exchange}-fulltable-T{s.unsat_below.width}"
    write_atomically(base.with_suffix(".cnf"), s.unsat_below.cnf.dimacs())
    write_atomically(base.with_suffix(".drat"), "\n".join(s.unsat_below.proof) + "\n")
    return [str(p.relative_to(root)) for p in (gens_path, table_path, base.with_suffix(".cnf"),
                                                base.with_suffix(".drat"))]


def report(rows: list[Settled], args, kept: dict[str, list[str]]) -> str:
    """The markdown report."""
    above = [s for s in rows if s.above_bound]
    unknown = [s for s in rows if s.optimum is None]
    lines = ["# Small groups settled exactly: Cayley graphs of S_n's subgroups on involutions", "",
             f"`python -m benchmarks.smallgroups --points {args.points} --max-letters {args.max_letters} --min-order "
             f"{args.min_order} --exchanges {' '.join(args.exchanges)} --per-width {args.per_width:g}`, "
             f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.1f} on 2 "
             "shared cores. One row per generator set up to conjugation in S_n and exchange. Widths from the bound up, "
             "each by the full-table CNF with the counting cut (docs/notes/full-table-cnf.md; CaDiCaL 1.9.5, DRAT "
             "proof); an unsat width counts only when the kernel's CNF equals the solver's byte for byte and "
             "check_drat accepts the proof; the sat width's table passed the kernel's Theorem 1 and the replay.", "",
             f"{len(rows)} networks: the optimum equals the bound for {len(rows) - len(above) - len(unknown)}, "
             f"exceeds it for {len(above)}, is unknown (time limit) for {len(unknown)}.", "",
             "| generators | order | exchange | targets | bound | optimum | widths tried (result, s) | cut weights |",
             "|---|---|---|---|---|---|---|---|"]
    for s in rows:
        gens = " ".join("".join(map(str, g)) for g in s.generators)
        tried = "; ".join(f"{w['width']} {w['result']} {w['seconds']}" for w in s.widths)
        optimum = "unknown" if s.optimum is None else (f"**{s.optimum}**" if s.above_bound else str(s.optimum))
        lines.append(f"| {gens} | {s.order} | {s.exchange} | {s.targets} | {s.bound}"
                     f"{' (longest target)' if s.bound_how == LONGEST else ''} | "
                     f"{optimum} | {tried} | {','.join(map(str, s.cut))} |")
    if above:
        lines += ["", "## Optima above the bound", ""]
        for s in above:
            lines.append(f"- {s.name} ({s.exchange}): bound {s.bound}, optimum {s.optimum}; width {s.optimum - 1} "
                         f"refuted with a checked proof ({s.widths[-2]['proof_lines']} lines); "
                         + (f"kept: {', '.join(kept[s.name + s.exchange])}" if kept.get(s.name + s.exchange)
                            else "not kept (run with --keep-above-bound)"))
    lines += ["", "Generators are image lists (the permutation i -> g[i]); `bound (longest target)` marks a network "
              "whose longest target's distance exceeds tesearch's bounds, which do not yet count it."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.smallgroups", description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=4)
    parser.add_argument("--max-letters", type=int, default=4)
    parser.add_argument("--min-order", type=int, default=8)
    parser.add_argument("--exchanges", nargs="+", default=["total", "odd-distance"])
    parser.add_argument("--per-width", type=float, default=120.0)
    parser.add_argument("--report", help="write the markdown report here")
    parser.add_argument("--keep-above-bound", action="store_true")
    args = parser.parse_args(argv)
    rows, kept = [], {}
    with tempfile.TemporaryDirectory(prefix="tesearch-smallgroups-") as scratch:
        for gens in generator_sets(args.points, args.max_letters, args.min_order):
            for exchange in args.exchanges:
                began = time.perf_counter()
                s = settle(gens, exchange, args.per_width, Path(scratch))
                rows.append(s)
                print(f"{s.name} {exchange}: order {s.order}, bound {s.bound}, optimum "
                      f"{s.optimum if s.optimum is not None else 'unknown'}"
                      f"{' (ABOVE THE BOUND)' if s.above_bound else ''} ({time.perf_counter() - began:.1f} s)",
                      flush=True)
                if s.above_bound and args.keep_above_bound:
                    kept[s.name + exchange] = keep(s, ROOT)
    text = report(rows, args, kept)
    if args.report:
        write_atomically(Path(args.report), text)
    print(text)
    return 0


if __name__ == "__main__":
    run_script(main, sys.argv[1:])
