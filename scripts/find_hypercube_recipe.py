"""How tesearch.constructions.hypercube.RECIPE was found: a depth-first search over copy-B transforms.

For each doubling step d -> d + 1 it tries the 2d transforms of copy B (letter rotation k, time
reversal) in a fixed order and keeps the first whose saturating matching exists, backtracking when a
later step has none.  `python scripts/find_hypercube_recipe.py 16` printed the committed recipe (15 s).

    python scripts/find_hypercube_recipe.py MAX_D [--budget N]
"""

from __future__ import annotations

import argparse
import sys

from tesearch.constructions.hypercube import PlacedWord, double


def find_recipe(max_d: int, budget: int = 2000) -> tuple[tuple[int, bool], ...] | None:
    """Depth-first search over copy-B transforms (rotation k, reversal) per step, in a fixed order."""
    remaining = [budget]

    def extend(d: int, words: list[PlacedWord], steps: tuple) -> tuple | None:
        if d == max_d:
            return steps
        for rotation in range(d):
            for reversed_in_time in (False, True):
                if remaining[0] <= 0:
                    return None
                remaining[0] -= 1
                doubled = double(words, d, rotation, reversed_in_time)
                if doubled is None:
                    continue
                found = extend(d + 1, doubled, steps + ((rotation, reversed_in_time),))
                if found is not None:
                    return found
        return None

    return extend(1, [(0, (0,))], ())



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("max_d", type=int)
    parser.add_argument("--budget", type=int, default=2000, help="transforms tried at most")
    args = parser.parse_args()
    recipe = find_recipe(args.max_d, args.budget)
    if recipe is None:
        print(f"no recipe up to d = {args.max_d} within {args.budget} transforms")
        return 1
    print(recipe)
    return 0


if __name__ == "__main__":
    sys.exit(main())
