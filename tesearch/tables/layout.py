"""Laying words out in a table: rows by interval colouring, first-fit widths, rotation blocks, filler plans.

These are the layout ideas every strategy shares (the search, the stratified
search, the constructions, the seeds' completions); each lives here once.
A *placed word* is ``(tag, first column, word)`` with ``word`` a tuple of
letter indices; a *row* is ``(row, first column, word)``.

>>> assign_rows([("x", 0, (0, 1)), ("y", 1, (2,)), ("z", 2, (0,))], 2)
[(0, 0, (0, 1)), (1, 1, (2,)), (0, 2, (0,))]
>>> filler_plans({0: 1, 1: 2, 2: 2, 3: 3}, 3, 4)
[[0, 1], [3]]
"""

from __future__ import annotations

from itertools import islice
from typing import Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from tesearch.running.errors import ConstructionError

PlacedWord = tuple[Hashable, int, tuple[int, ...]]
Row = tuple[int, int, tuple[int, ...]]


def _by_column_longest_first(placed: PlacedWord):
    tag, column, word = placed
    return column, -len(word), tag


def assign_rows(placed: Iterable[PlacedWord], rows: int,
                key: Callable[[PlacedWord], object] = _by_column_longest_first) -> list[Row]:
    """Interval colouring: placed words -> rows, each word in the lowest row free at its first column.

    Words are taken in ``key`` order (by default: first column, longest first, then tag).  In a
    column-valid placement the words covering a column hold distinct letters, so at most
    ``rows`` (= |S|) words overlap and this never needs more rows; a placement that does is
    refused with :class:`ConstructionError`.
    """
    free_at = [0] * rows
    out = []
    for tag, column, word in sorted(placed, key=key):
        for r in range(rows):
            if free_at[r] <= column:
                free_at[r] = column + len(word)
                out.append((r, column, tuple(word)))
                break
        else:
            raise ConstructionError(f"more than {rows} words meet column {column}: the placement is not column-valid")
    return out


def first_fit(items: Sequence, letters: int) -> tuple[int, list[PlacedWord]]:
    """Greedy first fit, longest items first: a valid placement and its width (an upper bound on T).

    ``items`` have ``element``, ``length`` and ``words`` (as :class:`tesearch.solvers.problem.Item`); each item
    takes the word that starts earliest.
    """
    used = np.zeros((16, letters), dtype=bool)
    placed = []
    for item in sorted(items, key=lambda it: (-it.length, it.element)):
        best = None
        for word in item.words:
            idx = np.arange(len(word))
            c = 0
            while True:
                need = c + len(word)
                if need > len(used):
                    used = np.vstack([used, np.zeros((max(need, 2 * len(used)) - len(used), letters), dtype=bool)])
                if not used[c + idx, list(word)].any():
                    break
                c += 1
            if best is None or c < best[0]:
                best = (c, word)
        c, word = best
        used[c + np.arange(len(word)), list(word)] = True
        placed.append((item.element, c, word))
    width = max((c + len(w) for _, c, w in placed), default=0)
    return width, placed


def rotation_blocks(words: Iterable[tuple[int, ...]], rotation, start_column: int) -> tuple[list[Row], int]:
    """One rotation block per word, side by side from ``start_column``: row r holds sigma^r of the word
    (``rotation.apply(word, r)``; a :class:`tesearch.networks.symmetry.LetterGroup` gives its r-th element there).

    Every column of a block holds each letter once (sigma permutes the letters as one cycle; a regular
    letter group sends one letter to every letter once), so the blocks are valid by construction.
    Returns the rows and the first column after the blocks.
    """
    out: list[Row] = []
    column = start_column
    degree = rotation.order
    for word in words:
        for r in range(degree):
            out.append((r, column, rotation.apply(word, r)))
        column += len(word)
    return out, column


def greedy_orbit_fill(order: Sequence[int], lengths: Mapping[int, int], need: int) -> list[int] | None:
    """Take orbits in ``order`` while each still fits; the sorted choice if the word
    lengths ``lengths[j]`` sum to exactly ``need``, else None."""
    chosen, left = [], need
    for j in order:
        if lengths[j] <= left:
            chosen.append(j)
            left -= lengths[j]
            if left == 0:
                return sorted(chosen)
    return None


def filler_plans(lengths: Mapping[int, int], need: int, limit: int, *, preferred: Sequence[int] = (2,),
                 exhaustive: bool = False) -> list[list[int]]:
    """Up to ``limit`` sets of free full orbits (keys of ``lengths``: orbit -> word length) whose
    lengths sum to ``need``.

    First the greedy choices: shortest first, longest first, shortest first skipping the first
    orbit, and each length in ``preferred`` first.  With ``exhaustive``, then every other multiset
    of lengths that sums to ``need`` (fewest orbits first), each filled with the lowest-numbered
    orbits of those lengths.
    """
    if need == 0:
        return [[]]
    keys = sorted(lengths, key=lambda j: (lengths[j], j))
    orders = [keys, sorted(keys, key=lambda j: (-lengths[j], j)), keys[1:] + keys[:1]]
    orders += [sorted(keys, key=lambda j, n=n: (lengths[j] != n, lengths[j], j)) for n in preferred]
    plans: list[list[int]] = []
    for order in orders:
        plan = greedy_orbit_fill(order, lengths, need)
        if plan is not None and plan not in plans:
            plans.append(plan)
    if exhaustive:
        by_length: dict[int, list[int]] = {}
        for j in keys:
            by_length.setdefault(lengths[j], []).append(j)
        seen = {tuple(sorted(lengths[j] for j in plan)) for plan in plans}
        for multiset in sorted(length_multisets(by_length, need), key=lambda m: (len(m), m)):
            if len(plans) >= limit:
                break
            if multiset in seen:
                continue
            taken = {n: 0 for n in by_length}
            plan = []
            for n in multiset:
                plan.append(by_length[n][taken[n]])
                taken[n] += 1
            plans.append(sorted(plan))
    return plans[:limit]


def length_multisets(by_length: Mapping[int, list[int]], need: int, cap: int = 1000) -> list[tuple[int, ...]]:
    """Multisets of word lengths (ascending tuples) summing to ``need``, each length used at most as
    often as there are free orbits of it; at most ``cap`` of them."""
    sizes = sorted(by_length)

    def extend(i: int, left: int, chosen: list[int]):
        if left == 0:
            yield tuple(chosen)
            return
        for k in range(i, len(sizes)):
            n = sizes[k]
            if n > left:
                break
            if chosen.count(n) < len(by_length[n]):
                chosen.append(n)
                yield from extend(k, left - n, chosen)
                chosen.pop()

    return list(islice(extend(0, need, []), cap))
