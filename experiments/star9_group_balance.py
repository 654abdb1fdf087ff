"""star-9 at its bound over each regular letter group of order 8: can the group's core balance its letters? (issue 47)

    python -m experiments.star9_group_balance [--groups C8,C4xC2,C2^3,Q8] [--record FILE]

The core-array method (tesearch/constructions/star_prime.py) lays every free orbit of a letter group H as a block
(|H| = 8 rows, each column holding each letter once) and fills the other columns with the core: the targets some
non-identity h fixes.  At T = 365202, the counting bound, no cell is blank, so each core column holds each of the
eight letters exactly once; the core's words fill W = (core letters) / 8 columns and use every letter exactly W
times.  The star max flow (tesearch.facts.bounds.star_letter_balance, an exact flow test) gives the least possible
count of the most-used letter over every choice of shortest words for the core.  If it exceeds W, no table at
365202 has every free H-orbit as a block: a theorem about that class of tables, nothing about others (a core widened
by whole orbits, as the p = 11 array was, is not covered).  If it equals W, the letters do not rule the class out,
and a core of W columns is still to be found.  Each group's line is recorded with its figures and wall seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tesearch.facts.bounds import star_letter_balance
from tesearch.facts.instance import instance
from tesearch.networks.symmetry import letter_group

GROUPS = ("C8", "C4xC2", "C2^3", "Q8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", default=",".join(GROUPS))
    ap.add_argument("--record", default=None)
    args = ap.parse_args()
    started = time.monotonic()
    facts = instance("star-9")
    cg = facts.cg
    rows = []
    for name in args.groups.split(","):
        began = time.monotonic()
        group = letter_group(cg, name)
        core = group.core(facts.targets)
        letters = int(cg.dist[core].sum())
        width = -(-letters // cg.degree)
        least = star_letter_balance(cg.elements[core], width).maximum
        row = {"network": "star-9", "group": name, "core_elements": int(len(core)), "letters": letters,
               "width": width, "no_blank": letters == cg.degree * width, "least_max_letter": int(least),
               "balanced": int(least) == width, "seconds": round(time.monotonic() - began, 1)}
        row["verdict"] = (f"no table at 365202 has every free {name}-orbit as a block (the core's words use some "
                          f"letter at least {least} > {width} times)" if least > width and row["no_blank"] else
                          f"not ruled out by letter counts: a choice of the core's words uses every letter {width} "
                          f"times; a core of {width} columns was not searched here")
        print(json.dumps(row), flush=True)
        rows.append(row)
    record = {"runs": rows, "wall_seconds": round(time.monotonic() - started, 1),
              "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(time.time() - (time.monotonic() - started))),
              "command": "python -m experiments.star9_group_balance " + " ".join(sys.argv[1:])}
    if args.record:
        Path(args.record).write_text(json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
