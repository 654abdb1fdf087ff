"""The core of every regular letter group on star-5..9: which group leaves the smallest search.

For star-n every permutation of the n-1 letters is an automorphism, so every group of order n-1
acts regularly on the letters (its regular representation) and gives rotation blocks for the
elements it moves freely (tesearch.symmetry).  This script prints, for total and odd-distance
exchange, each group's core: the elements some non-identity element fixes, their letters (the
sum of their distances), the core width at zero blanks (letters / |S|), and how the core splits
into orbit sizes.  It also says whether two groups leave the same set of elements.

    python scripts/symmetry_cores.py --max-n 9 --report results/symmetry-cores.md
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tesearch.files import write_atomically  # noqa: E402
from tesearch.groups import cached_cayley_graph  # noqa: E402
from tesearch.networks import network_from_spec  # noqa: E402
from tesearch.rotation import find_rotation  # noqa: E402
from tesearch.symmetry import LetterGroup, groups_of_order  # noqa: E402
from tesearch.words import targets  # noqa: E402


def cores(n: int) -> list[dict]:
    """One row per (exchange, group) of star-n."""
    cg = cached_cayley_graph(network_from_spec(f"star-{n}"))
    rotation = find_rotation(cg)
    rows = []
    for exchange in ("total", "odd-distance"):
        tg = targets(cg, exchange)
        sets = {}
        for name, perms in groups_of_order(cg.degree).items():
            group = LetterGroup(cg, name, perms)
            core = group.core(tg)
            sizes, counts = np.unique(group.orbit_size[core], return_counts=True)
            letters = int(cg.dist[core].sum())
            sets[name] = frozenset(core.tolist())
            rows.append({
                "network": f"star-{n}", "exchange": exchange, "group": name, "elements": int(len(core)),
                "letters": letters, "width": letters / cg.degree,
                "orbits": {int(s): int(c) // int(s) for s, c in zip(sizes, counts)},
                "same_as_rotation": bool(rotation is not None
                                         and sets[name] == frozenset(rotation.exceptional(tg).tolist())),
            })
        for row in rows:
            if row["exchange"] == exchange:
                row["same_set_as"] = [g for g, s in sets.items() if g != row["group"] and s == sets[row["group"]]]
    return rows


def markdown(rows: list[dict], command: str, seconds: float) -> str:
    """The report."""
    out = [f"Command: `{command}` ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit "
           f"{_commit()}, {seconds:.0f} s).", "",
           "Every group of order n-1 acting regularly on star-n's letters (tesearch.symmetry): the *core* is",
           "the targets some non-identity element fixes; every other orbit is a rotation block. *width* is",
           "the core's letters / (n-1), the columns it fills with no blank. *orbits* counts the core's",
           "orbits by size. *= rotation* marks the cyclic rotation's own exceptional set.", "",
           "| network | exchange | group | core elements | core letters | width at 0 blanks | orbits (size: count) | same set as |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        orbits = ", ".join(f"{s}: {c}" for s, c in sorted(r["orbits"].items())) or "none"
        same = ", ".join(r["same_set_as"]) + (" (= rotation)" if r["same_as_rotation"] else "")
        out.append(f"| {r['network']} | {r['exchange']} | {r['group']} | {r['elements']} | {r['letters']} | "
                   f"{r['width']:g} | {orbits} | {same.strip() or '-'} |")
    return "\n".join(out) + "\n"


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None) -> int:
    """Print (and with --report write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=9, choices=range(3, 10))
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv)
    start = time.monotonic()
    rows = [r for n in range(5, args.max_n + 1) for r in cores(n)]
    command = "python scripts/symmetry_cores.py --max-n " + str(args.max_n)
    if args.report:
        command += f" --report {args.report}"
    text = markdown(rows, command, time.monotonic() - start)
    print(text)
    if args.report:
        write_atomically(args.report, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
