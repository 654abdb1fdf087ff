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
    python scripts/find_hypercube_recipe.py 18 --free-columns [--toward 5 1]

``--free-columns D`` (how ``MOVES_18_19`` was found, for D = 18): the step D -> D + 1 of the committed
recipe, with Hopcroft-Karp's matching, is changed along alternating paths until the next step (copy
transform ``--toward K R``) has a saturating matching.  Each round solves the next step's matching
as a max flow (OR-tools; its deficiency, its free columns and the Hall violator X, the elements
reachable from an unmatched one), then tries, for each free column c and each word boundary of the
doubled table that would make c an option of an element of X, the change of one element's e that
creates that boundary, carried out along the shortest alternating path (breadth-first, at most
LIMIT elements) so that the step's matching stays saturating; the first change that lowers the
deficiency is kept.  The BFS limits are tried in turn (20000, then 600000) until no change helps.
Prints the reassignments, (element mask, option kind), for the recipe entry.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque

from tesearch.constructions.hypercube import (RECIPE, PlacedWord, _saturating_matching, double, doubling_options,
                                              forced_twice, perfect_words)


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


def free_column_repair(d: int, toward: tuple[int, bool], limits: tuple[int, ...] = (20000, 600000),
                       log=print) -> tuple[tuple[int, int], ...] | None:
    """Reassignments of the step d -> d + 1 (committed recipe) after which step d + 1 -> d + 2 saturates.

    Returns the (element mask, option kind) pairs that differ from Hopcroft-Karp's matching, or None
    when the deficiency stays above 0.  See the module notes (``--free-columns``).
    """
    import numpy as np
    try:
        from ortools.graph.python import max_flow
    except ImportError as exc:  # the search needs a fast max flow; the construction does not
        raise SystemExit("--free-columns needs OR-tools (pip install .[cpsat])") from exc

    width, width1 = 2 ** (d - 1), 2 ** d
    words = perfect_words(d)
    rotation, reversed_in_time = RECIPE[d - 1][:2]
    pairs, options = doubling_options(words, d, rotation, reversed_in_time)
    match = _saturating_matching([list(kinds) for kinds in options], 2 * width)
    n = len(pairs)
    start_a = np.array([a[0] for a, _ in pairs]); len_a = np.array([len(a[1]) for a, _ in pairs])
    start_b = np.array([b[0] for _, b in pairs]); len_b = np.array([len(b[1]) for _, b in pairs])
    mask = np.array([sum(1 << letter for letter in a[1]) for a, _ in pairs], dtype=np.int64)
    option = np.full((n, 4), -1, dtype=np.int64)
    for i, kinds in enumerate(options):
        for column, kind in kinds.items():
            option[i, kind] = column
    column_of = np.array(match, dtype=np.int64)
    kind_of = np.array([options[i][c] for i, c in enumerate(match)], dtype=np.int64)
    new_letter = 1 << d
    next_k, next_r = toward

    def doubled():
        """Starts, lengths and masks of the doubled table: (x, 1) for every x, then (x, 0), then e."""
        s1 = np.select([kind_of == 0, kind_of == 1, kind_of == 2], [start_a - 1, start_a, start_b - 1], start_b)
        used = np.zeros(2 * width, dtype=bool)
        used[column_of] = True
        lone = int(np.flatnonzero(~used)[0])
        starts = np.concatenate([s1, np.where(kind_of <= 1, start_b, start_a), [lone]])
        lens = np.concatenate([np.where(kind_of <= 1, len_a, len_b) + 1, np.where(kind_of <= 1, len_b, len_a), [1]])
        return starts, lens, np.concatenate([mask | new_letter, mask, [new_letter]])

    def rotate(masks):
        full = (1 << (d + 1)) - 1
        return ((masks << next_k) | (masks >> (d + 1 - next_k))) & full if next_k else masks

    def next_options(starts, lens, masks):
        """The option columns of step d + 1 -> d + 2, as doubling_options gives them (-1: none)."""
        b_mask = rotate(masks)
        b_start = (width1 - starts - lens) if next_r else starts
        order = np.argsort(b_mask)
        where = order[np.searchsorted(b_mask[order], masks)]
        sb = b_start[where] + width1
        cols = np.stack([starts - 1, starts + lens, sb - 1, sb + lens], axis=1)
        cols[(cols < 0) | (cols >= 2 * width1)] = -1
        for a in range(4):
            for b in range(a + 1, 4):
                cols[(cols[:, b] == cols[:, a]) & (cols[:, b] >= 0), b] = -1
        return cols

    def solve(cols):
        """(deficiency, free columns, elements of the Hall violator) of the next step."""
        m, columns = cols.shape[0], 2 * width1
        flow = max_flow.SimpleMaxFlow()
        source, sink = m + columns, m + columns + 1
        flat = cols.reshape(-1)
        keep = flat >= 0
        tails = np.concatenate([np.full(m, source), np.repeat(np.arange(m), 4)[keep], m + np.arange(columns)])
        heads = np.concatenate([np.arange(m), m + flat[keep], np.full(columns, sink)])
        flow.add_arcs_with_capacity(tails, heads, np.ones(len(tails), dtype=np.int64))
        flow.solve(source, sink)
        free = np.flatnonzero(flow.flows(np.arange(len(tails) - columns, len(tails))) == 0)
        side = np.asarray(flow.get_source_side_min_cut())
        in_x = np.zeros(m, dtype=bool)
        in_x[side[side < m]] = True
        return m - flow.optimal_flow(), free, in_x

    def boundaries(c):
        """Word boundaries of the doubled table that make column c an option: (start?, position, via copy B)."""
        if c < width1:
            return [(False, c, False), (True, c + 1, False)]
        if next_r:
            return [(False, 2 * width1 - 1 - c, True), (True, 2 * width1 - c, True)]
        return [(True, c - width1 + 1, True), (False, c - width1, True)]

    by_start: dict[int, list] = {}
    by_end: dict[int, list] = {}
    for z in range(n):
        end_a, end_b = start_a[z] + len_a[z], start_b[z] + len_b[z]
        for kind in range(4):
            if option[z, kind] < 0:
                continue
            one = [(start_a[z] - 1, end_a), (start_a[z], end_a + 1),
                   (start_b[z] - 1, end_b), (start_b[z], end_b + 1)][kind]
            zero = (start_b[z], end_b) if kind <= 1 else (start_a[z], end_a)
            for element, (s, e) in ((mask[z] | new_letter, one), (mask[z], zero)):
                by_start.setdefault(int(s), []).append((z, kind, element))
                by_end.setdefault(int(e), []).append((z, kind, element))

    owner = np.full(2 * width, -1, dtype=np.int64)
    owner[column_of] = np.arange(n)

    def alternating_path(z, new_column, limit):
        """[(element, column)]: z takes new_column, each displaced element another option of its own."""
        old = column_of[z]
        first = owner[new_column]
        if first == -1:
            return [(z, new_column)]
        parent = {int(first): None}
        queue = deque([int(first)])
        while queue and len(parent) < limit:
            u = queue.popleft()
            for kind in range(4):
                c = option[u, kind]
                if c < 0 or c == column_of[u] or c == new_column:
                    continue
                w = owner[c]
                if c == old or w == -1:
                    chain, x, target = [(z, new_column)], u, c
                    while x is not None:
                        chain.append((x, target))
                        target, x = column_of[x], parent[x]
                    return chain
                if int(w) not in parent and w != z:
                    parent[int(w)] = u
                    queue.append(int(w))
        return None

    def move(chain):
        for x, _ in chain:
            if owner[column_of[x]] == x:
                owner[column_of[x]] = -1
        for x, c in chain:
            column_of[x] = c
            kind_of[x] = int(np.flatnonzero(option[x] == c)[0])
            owner[c] = x

    deficiency, free, in_x = solve(next_options(*doubled()))
    log(f"step {d} -> {d + 1} toward {toward}: deficiency of the next step {deficiency}")
    began = time.time()
    for limit in limits:
        while deficiency > 0:
            _, _, masks = doubled()
            order = np.argsort(masks)
            improved = False
            for c in free:
                for is_start, position, via_b in boundaries(int(c)):
                    for z, kind, element in (by_start if is_start else by_end).get(position, []):
                        if kind_of[z] == kind:
                            continue
                        gains = int(rotate(np.array([element]))[0]) if via_b else int(element)
                        if not in_x[order[np.searchsorted(masks[order], gains)]]:
                            continue
                        chain = alternating_path(z, option[z, kind], limit)
                        if chain is None:
                            continue
                        saved = [(x, column_of[x]) for x, _ in chain]
                        move(chain)
                        result = solve(next_options(*doubled()))
                        if result[0] < deficiency:
                            log(f"  path of {len(chain)} elements (BFS limit {limit}): deficiency "
                                f"{deficiency} -> {result[0]} ({time.time() - began:.0f} s)")
                            deficiency, free, in_x = result
                            improved = True
                            break
                        move(saved)
                    if improved:
                        break
                if improved:
                    break
            if not improved:
                log(f"  BFS limit {limit}: no single change lowers the deficiency {deficiency}")
                break
    if deficiency > 0:
        return None
    return tuple(sorted((int(mask[i]), int(kind_of[i])) for i in range(n) if column_of[i] != match[i]))


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
    parser.add_argument("--free-columns", action="store_true",
                        help="repair step MAX_D -> MAX_D + 1 of RECIPE by alternating paths toward --toward")
    parser.add_argument("--toward", nargs=2, type=int, default=(5, 1), metavar=("K", "R"),
                        help="with --free-columns: the next step's copy transform (rotation, reversed 0/1)")
    args = parser.parse_args()
    if args.free_columns:
        moves = free_column_repair(args.max_d, (args.toward[0], bool(args.toward[1])))
        print(moves if moves is not None else "no reassignment found")
        return 0 if moves is not None else 1
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
