"""Why the hypercube doubling stops at d = 17: the measurements quoted in docs/proofs/hypercube.md.

For each step d -> d + 1 of tesearch.constructions.hypercube (the recipe's transform, or
--transform K R), it prints: the columns that are an option of exactly one element (degree 1)
or of none, the word boundaries of P where no word starts, and the elements that are the only
option of two or more columns (each such element leaves a column empty; the lone word e fills
one).  With --deficiency it also runs a maximum matching for the transforms listed and prints
how many elements stay unmatched (0 = the step works).

    python scripts/hypercube_obstruction.py 8 17 --plain
    python scripts/hypercube_obstruction.py 17 17 --plain --deficiency 0,3,6,9,12,15
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from tesearch.constructions.hypercube import RECIPE, doubling_options, maximum_matching, perfect_words


def step_profile(d: int, rotation: int, reversed_in_time: bool, recipe: tuple | None = None) -> dict:
    """The option graph of step d -> d + 1 from perfect_words(d): counts behind a failed matching."""
    words = perfect_words(d, recipe)
    _, options = doubling_options(words, d, rotation, reversed_in_time)
    degree = Counter(column for kinds in options for column in kinds)
    columns = 2 ** d
    only_option: Counter = Counter()
    for element, kinds in enumerate(options):
        only_option[element] = sum(1 for column in kinds if degree[column] == 1)
    starts = Counter(start for start, _ in words)
    return {
        "columns": columns,
        "degree 1": sum(1 for c in range(columns) if degree[c] == 1),
        "degree 0": sum(1 for c in range(columns) if degree[c] == 0),
        "empty boundaries": sum(1 for b in range(1, columns // 2) if starts[b] == 0),
        "elements forced twice": sum(1 for count in only_option.values() if count > 1),
    }


def deficiency(d: int, rotation: int, reversed_in_time: bool, recipe: tuple | None = None) -> int:
    """Elements left unmatched by a maximum matching of step d -> d + 1 (0: the step works)."""
    _, options = doubling_options(perfect_words(d, recipe), d, rotation, reversed_in_time)
    return maximum_matching([list(kinds) for kinds in options], 2 ** d).count(-1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--transform", nargs=2, type=int, metavar=("K", "R"),
                        help="copy-B rotation K and reversal R (0/1) instead of the recipe's")
    parser.add_argument("--deficiency", default="", help="comma-separated rotations to match (both reversals)")
    parser.add_argument("--plain", action="store_true",
                        help="the recipe without its repairs (the tables before repair_matching existed)")
    args = parser.parse_args()
    recipe = tuple(entry[:2] for entry in RECIPE) if args.plain else None
    for d in range(args.first, args.last + 1):
        if args.transform:
            rotation, reversed_in_time = args.transform[0], bool(args.transform[1])
        elif d - 1 < len(RECIPE):
            rotation, reversed_in_time = RECIPE[d - 1][:2]
        else:
            rotation, reversed_in_time = (2, False)
        profile = step_profile(d, rotation, reversed_in_time, recipe)
        print(f"step {d} -> {d + 1}, copy B ({rotation}, {reversed_in_time}): "
              + ", ".join(f"{k} {v}" for k, v in profile.items()), flush=True)
        for k in [int(x) for x in args.deficiency.split(",") if x]:
            for r in (False, True):
                print(f"  transform ({k}, {r}): {deficiency(d, k, r, recipe)} unmatched", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
