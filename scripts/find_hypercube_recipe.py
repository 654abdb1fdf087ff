"""How tesearch.constructions.hypercube.RECIPE was found: a depth-first search over copy-B transforms.

For each doubling step d -> d + 1 it tries the 2d transforms of copy B (letter rotation k, time
reversal) in a fixed order and keeps the first whose saturating matching exists, backtracking when a
later step has none.  `python scripts/find_hypercube_recipe.py 16` printed the first 15 steps (15 s);
`python scripts/find_hypercube_recipe.py 17` prints the committed recipe (the same 15 steps, then
(2, False) for 16 -> 17).  ``--extend`` keeps the committed recipe fixed and searches only the steps
after it, so the tables already committed do not change; beyond d = 17 every transform was tried
from both d = 17 tables it finds and none extends (docs/proofs/hypercube.md, "What is not proved").

    python scripts/find_hypercube_recipe.py MAX_D [--budget N] [--extend]
"""

from __future__ import annotations

import argparse
import sys

from tesearch.constructions.hypercube import RECIPE, PlacedWord, double, perfect_words


def find_recipe(max_d: int, budget: int = 2000, prefix: tuple[tuple[int, bool], ...] = ()
                ) -> tuple[tuple[int, bool], ...] | None:
    """Depth-first search over copy-B transforms (rotation k, reversal) per step, in a fixed order.

    ``prefix``: steps kept as they are (the search starts after them).
    """
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

    start = len(prefix) + 1
    return extend(start, perfect_words(start, prefix) if prefix else [(0, (0,))], tuple(prefix))



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("max_d", type=int)
    parser.add_argument("--budget", type=int, default=2000, help="transforms tried at most")
    parser.add_argument("--extend", action="store_true", help="keep the committed RECIPE; search only beyond it")
    args = parser.parse_args()
    recipe = find_recipe(args.max_d, args.budget, RECIPE if args.extend else ())
    if recipe is None:
        print(f"no recipe up to d = {args.max_d} within {args.budget} transforms")
        return 1
    print(recipe)
    return 0


if __name__ == "__main__":
    sys.exit(main())
