"""How tesearch.constructions.hypercube.RECIPE was found: a depth-first search over copy-B transforms.

For each doubling step d -> d + 1 it tries the 2d transforms of copy B (letter rotation k, time
reversal) in a fixed order and keeps the first whose saturating matching exists, backtracking when a
later step has none.  `python scripts/find_hypercube_recipe.py 16` printed the first 15 steps (15 s);
`python scripts/find_hypercube_recipe.py 17` prints the first 16 steps (the same 15, then
(2, False) for 16 -> 17).  ``--extend`` keeps the committed recipe fixed and searches only the steps
after it.  Beyond d = 17 no plain transform extends; the steps from 16 -> 17 on are *repaired*
toward the next step's transform (``--repair``, :func:`extend_with_repairs`;
docs/proofs/hypercube.md, "Why the plain recipe stops at 17").

    python scripts/find_hypercube_recipe.py MAX_D [--budget N] [--extend]
    python scripts/find_hypercube_recipe.py 19 --repair --keep 16 [--candidates 8]
"""

from __future__ import annotations

import argparse
import sys

from tesearch.constructions.hypercube import RECIPE, PlacedWord, double, forced_twice, perfect_words


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



def extend_with_repairs(max_d: int, prefix: tuple, candidates: int = 8, tries: int = 6) -> tuple:
    """Extend ``prefix`` (whose last entry names its repair target) to ``max_d`` with repaired steps.

    Step s -> s + 1 uses the transform the previous entry repaired toward; its own repair target is
    the first transform (rotations 0..candidates-1, both reversals, fewest elements forced twice in
    the unrepaired doubled table first) whose repair leaves at most one element forced twice (the
    lone e absorbs one) and after which the next step has a saturating matching, trying ``tries``
    of them.  The last step is not repaired.  Prints each step; returns the recipe (cut short
    where no target works).  The committed entries for 17 -> 18 and 18 -> 19 were found by this
    same search, run as a one-off script (``--repair 19 --keep 16`` implements it; it was not
    rerun in this form); the target of 16 -> 17, (2, False), was the fewest-forced of rotations
    0..4 (8 elements forced twice, 0 after repair).
    """
    recipe = list(prefix)
    s = len(recipe) + 1
    words = perfect_words(s, tuple(recipe))
    rotation, reversed_in_time = recipe[-1][2:4]
    while s < max_d:
        if s + 1 == max_d:
            recipe.append((rotation, reversed_in_time))
            print(f"step {s} -> {s + 1}: {recipe[-1]} (last step, no repair)", flush=True)
            break
        plain = double(words, s, rotation, reversed_in_time)
        if plain is None:
            print(f"step {s} -> {s + 1}: no saturating matching for {(rotation, reversed_in_time)}", flush=True)
            return tuple(recipe)
        scores = []
        for k in range(min(candidates, s + 1)):
            for r in (False, True):
                scores.append((forced_twice(plain, s + 1, k, r)[0], k, r))
        best = None
        for before, k, r in sorted(scores, key=lambda t: t[0])[:tries]:  # the fewest first, then the fixed order
            repaired = double(words, s, rotation, reversed_in_time, (k, r))
            left = forced_twice(repaired, s + 1, k, r)[0]
            works = left <= 1 and double(repaired, s + 1, k, r) is not None
            print(f"  step {s} -> {s + 1} toward {(k, r)}: forced twice {before}, after repair {left}; "
                  f"next step {'saturates' if works else 'fails'}", flush=True)
            if best is None or (works, -left) > (best[0], -best[1]):
                best = (works, left, k, r, repaired)
            if works:
                break
        works, left, k, r, words = best
        recipe.append((rotation, reversed_in_time, k, r))
        print(f"step {s} -> {s + 1}: {recipe[-1]}; after repair {left}"
              f"{'' if works else '; NO target makes the next step saturate'}", flush=True)
        if not works:
            return tuple(recipe)
        rotation, reversed_in_time = k, r
        s += 1
    return tuple(recipe)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("max_d", type=int)
    parser.add_argument("--budget", type=int, default=2000, help="transforms tried at most")
    parser.add_argument("--extend", action="store_true", help="keep the committed RECIPE; search only beyond it")
    parser.add_argument("--repair", action="store_true",
                        help="extend the committed RECIPE by repaired steps (its last entry names the next transform)")
    parser.add_argument("--keep", type=int, default=None,
                        help="with --repair: keep only the first KEEP entries of RECIPE and search the rest")
    parser.add_argument("--candidates", type=int, default=8, help="with --repair: rotations tried as targets")
    args = parser.parse_args()
    if args.repair:
        print(extend_with_repairs(args.max_d, RECIPE[:args.keep] if args.keep else RECIPE, args.candidates))
        return 0
    recipe = find_recipe(args.max_d, args.budget, RECIPE if args.extend else ())
    if recipe is None:
        print(f"no recipe up to d = {args.max_d} within {args.budget} transforms")
        return 1
    print(recipe)
    return 0


if __name__ == "__main__":
    sys.exit(main())
