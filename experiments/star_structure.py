"""The rotation core of star-n when n - 1 = p is prime, measured on the group and on the committed tables;
and the core of star-9 (n - 1 = 8) under the letter groups C8 and Q8, with its letter counts.

    python -m experiments.star_structure [--report results/star-structure.md] [--no-star9]

The core-array method is Coolsaet and Fack's ("Optimal data exchange algorithms on star graphs", Computers
Math. Applic. 27(3), 1994, sections 2.1-2.2: their n = 4 and n = 6 tables are core arrays); what is new
here is the statement for every prime with its proof (tesearch/constructions/star_prime.py), the facts
below, and the p = 7 array.

Facts checked (docs/notes/frontier.md, "star construction: the prime case", states and proves them):

1. the exceptional elements of the rotation (conjugation by the p-cycle on points 1..p) are exactly the
   p - 1 non-trivial powers c^k of that p-cycle c, each at distance p + 1;
2. each c^k has exactly p shortest words, and each is an arithmetic progression of letters mod p
   (letter i as the residue i mod p): (t, t + s, t + 2s, ..., t + ps = t) with one step s per element,
   s = +k or -k by one sign convention for all k, and the p words are its p starting letters t;
3. two such words with different steps, placed in one table, hold the same letter in one column of
   every p consecutive columns: they clash when their columns overlap in p or more (so in any valid
   table the p - 1 core words start at least 2 columns apart and span at least 3p - 3 columns);
4. every table of star-n at the counting bound has exactly one blank cell (the letters are -1 mod p);

and, on the committed optimal tables (star-4, star-6, star-8): where the core words sit, their steps,
their pairwise overlaps and the span of the core.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from tesearch.facts.instance import instance
from tesearch.tables.table import read_table
from tesearch.networks.words import shortest_words

ROOT = Path(__file__).resolve().parent.parent

TABLES = {4: "results/star-4.json", 6: "results/star-6.json", 8: "results/frontier/star-8.json"}


def progression_step(word: tuple[int, ...], p: int) -> int | None:
    """The step s if the word's letters (indices 0..p-1 for letters 1..p) form t, t+s, ..., t+ps mod p; else None."""
    residues = [(x + 1) % p for x in word]
    step = (residues[1] - residues[0]) % p
    ok = len(word) == p + 1 and all((residues[i + 1] - residues[i]) % p == step for i in range(p))
    return step if ok and step else None


def clash(step_a: int, start_a: int, first_a: int, step_b: int, start_b: int, first_b: int, p: int) -> bool:
    """Whether two progression words (first letter residue, step, start column), each p + 1 long, share a
    letter in a column they both cover."""
    overlap = range(max(start_a, start_b), min(start_a, start_b) + p + 1)
    return any((first_a + step_a * (x - start_a)) % p == (first_b + step_b * (x - start_b)) % p for x in overlap)


def core_facts(n: int) -> dict:
    """Facts 1, 2 and 4 for star-n (n - 1 prime), from the Cayley graph."""
    p = n - 1
    facts = instance(f"star-{n}", "total")
    cg = facts.cg
    exceptional = sorted(int(g) for orbit in facts.orbit_classes.short for g in orbit)
    steps = {}
    for g in exceptional:
        perm = tuple(int(x) for x in cg.elements[g])
        cycle, x = [1], perm[1]
        while x != 1:
            cycle.append(x)
            x = perm[x]
        assert perm[0] == 0 and len(cycle) == p, f"star-{n}: element {perm} is not a p-cycle on 1..p"
        words = list(shortest_words(cg, g))
        found = {progression_step(w, p) for w in words}
        assert len(words) == p and None not in found and len(found) == 1, (n, perm, words)
        steps[g] = found.pop()
        assert int(cg.dist[g]) == p + 1
    letters = sum(int(cg.dist[g]) for g in facts.targets)
    return {"n": n, "p": p, "exceptional": exceptional, "steps": steps, "letters": letters,
            "blank_at_bound": facts.bounds.counting * p - letters, "bound": facts.bounds.best, "cg": cg}


def table_core(n: int, facts: dict) -> dict:
    """Where the core words sit in the committed table of star-n."""
    table = read_table(ROOT / TABLES[n])
    cg, p = facts["cg"], facts["p"]
    index = {s: i for i, s in enumerate(cg.letters)}
    core = []
    for placement in table.placements:
        word = tuple(index[s] for s in placement.word)
        g = cg.element_of(placement.word)
        if g in facts["steps"]:
            core.append((placement.column, placement.row, progression_step(word, p), (word[0] + 1) % p))
    core.sort()
    overlaps = [min(a[0], b[0]) + p + 1 - max(a[0], b[0]) for a, b in itertools.combinations(core, 2)]
    cells = table.T * p
    used = sum(len(pl.word) for pl in table.placements)
    return {"T": table.T, "core": core, "max_overlap": max(overlaps), "span": (core[0][0], core[-1][0] + p),
            "blanks": cells - used,
            "clashes": sum(clash(a[2], a[0], a[3], b[2], b[0], b[3], p) for a, b in itertools.combinations(core, 2))}


def star9_core(exchange: str) -> dict:
    """star-9's core under C8 (the rotation) and Q8: the same set (the elements the groups' common involution,
    sigma^4, fixes), its orbits under each, its letters, and the least possible most-used letter count of its
    words (the star max flow of tesearch.facts.bounds on the core alone)."""
    import numpy as np

    from tesearch.facts.bounds import star_cycle_profile, star_letter_balance
    from tesearch.networks.symmetry import letter_group

    facts = instance("star-9", exchange)
    cg = facts.cg
    cores, sizes = {}, {}
    for name, group in (("C8", facts.rotation), ("Q8", letter_group(cg, "Q8"))):
        classes = facts.orbit_classes_under(group)
        cores[name] = sorted(int(g) for orbit in classes.short for g in orbit)
        counts = {}
        for orbit in classes.short:
            counts[len(orbit)] = counts.get(len(orbit), 0) + 1
        sizes[name] = dict(sorted(counts.items()))
    assert cores["C8"] == cores["Q8"], "star-9: the C8 and Q8 cores differ"
    core = np.array(cores["C8"])
    letters = int(cg.dist[core].sum())
    fixed, free = star_cycle_profile(cg.elements[core])
    balance = star_letter_balance(cg.elements[core], 0)
    return {"exchange": exchange, "elements": len(core), "letters": letters, "width": letters / 8,
            "sizes": sizes, "forced": sorted(set(fixed.tolist())), "free_cycles": sum(free.values()),
            "balance": balance.maximum, "loads": sorted(set(balance.loads())),
            "bound": facts.bounds.best, "blanks": facts.bounds.blanks_at_best}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", default=None)
    parser.add_argument("--no-star9", action="store_true", help="leave out star-9's core (a minute)")
    args = parser.parse_args()
    lines = ["| network | p | core elements | steps (one per element) | letters mod p | blanks at the bound | "
             "committed T | bound | core words: (column, row, step) | largest overlap | core span | "
             "lower bound on the span (3p - 3) | blanks in the table |", "|" + "---|" * 13]
    for n in (4, 6, 8):
        facts = core_facts(n)
        seen = table_core(n, facts)
        assert seen["clashes"] == 0 and seen["max_overlap"] < facts["p"]
        p = facts["p"]
        lines.append(f"| star-{n} | {p} | {len(facts['exceptional'])} | "
                     f"{sorted(facts['steps'].values())} | {facts['letters'] % p} | {facts['blank_at_bound']} | "
                     f"{seen['T']} | {facts['bound']} | "
                     f"{', '.join(f'({c}, {r}, {s})' for c, r, s, _ in seen['core'])} | {seen['max_overlap']} | "
                     f"{seen['span'][0]}..{seen['span'][1]} ({seen['span'][1] - seen['span'][0] + 1} columns) | "
                     f"{3 * p - 3} | {seen['blanks']} |")
    if not args.no_star9:
        lines += ["", "star-9 (n - 1 = 8, not prime): the core under the letter groups C8 (the rotation) and Q8 is one "
                  "set, the elements sigma^4 fixes (checked here); a table at the bound with every free orbit a block "
                  "needs a core of exactly `letters / 8` columns, every letter used there exactly that often "
                  "(blocks use each letter once per column). *Forced*: per letter, the core elements that move its "
                  "point (each such word uses it once); *free cycles*: cycles avoiding 0, each doubling one of its "
                  "points; *balanced*: the least possible most-used letter count of the core's words (the star max "
                  "flow).", "",
                  "| exchange | core elements | orbits under C8 (size: count) | orbits under Q8 | letters | columns "
                  "at the bound | forced per letter | free cycles | balanced | loads of the balanced choice | "
                  "bound | blanks at the bound |", "|" + "---|" * 12]
        for exchange in ("total", "odd-distance"):
            c = star9_core(exchange)
            lines.append(f"| {c['exchange']} | {c['elements']} | {c['sizes']['C8']} | {c['sizes']['Q8']} | "
                         f"{c['letters']} | {c['width']:g} | {c['forced']} | {c['free_cycles']} | {c['balance']} | "
                         f"{c['loads']} | {c['bound']} | {c['blanks']} |")
    text = "\n".join(lines)
    print(text)
    if args.report:
        from tesearch.running.files import MARKDOWN_KIND, write_output

        head = ("Command: `python -m experiments.star_structure --report results/star-structure.md`. Facts 1-4 of the "
                "script's docstring hold on every row (the script stops on the first that does not). The core-array "
                "method is Coolsaet and Fack's (\"Optimal data exchange algorithms on star graphs\", 1994, "
                "sections 2.1-2.2: their star-4 and star-6 tables are core arrays); the statement for every prime, "
                "its proof, these facts and the p = 7 array are new (tesearch/constructions/star_prime.py).\n\n")
        write_output(args.report, head + text + "\n", kind=MARKDOWN_KIND, force=True)
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
