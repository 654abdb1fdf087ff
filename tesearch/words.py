"""Shortest words: enumeration (lazy, capped), counts, canonical choices, targets.

A word ``s1 s2 ... sk`` names the element ``s1*s2*...*sk``; it is a shortest
word when k equals the element's distance.  Words are tuples of letter indices
inside the package and tuples of letter strings at its edges (tables, CLI).
"""

from __future__ import annotations

from itertools import islice
from typing import Iterator

import numpy as np

from tesearch.groups import CayleyGraph
from tesearch.terms import Exchange

#: candidate shortest words per element when an element has more than this (search, repack, lifts)
DEFAULT_WORD_CAP = 24


def targets(cg: CayleyGraph, exchange: Exchange | str) -> np.ndarray:
    """Indices of the target elements of an exchange, in BFS order."""
    exchange = Exchange(exchange)
    if exchange is Exchange.TOTAL:
        return np.nonzero(cg.dist > 0)[0]
    return np.nonzero(cg.dist % 2 == 1)[0]


def shortest_words(cg: CayleyGraph, g: int, cap: int | None = None) -> Iterator[tuple[int, ...]]:
    """All shortest words of element ``g`` in lexicographic letter order, lazily.

    ``cap`` stops after that many words (the count explodes: hypercube-16's
    all-ones element has 16! of them).
    """
    words = _words_from(cg, int(g))
    return islice(words, cap) if cap is not None else words


def _words_from(cg: CayleyGraph, g: int) -> Iterator[tuple[int, ...]]:
    d = int(cg.dist[g])
    if d == 0:
        yield ()
        return
    # g = s * g' with |g'| = |g| - 1, so g' = s^-1 * g
    for k in range(cg.degree):
        rest = int(cg.left[cg.inverse_letter[k], g])
        if cg.dist[rest] == d - 1:
            for tail in _words_from(cg, rest):
                yield (k,) + tail


def word_counts(cg: CayleyGraph) -> np.ndarray:
    """Number of shortest words of every element (float64: exact up to 2^53)."""
    count = np.zeros(cg.order, dtype=np.float64)
    count[0] = 1.0
    starts = cg.level_starts
    for d in range(1, cg.diameter + 1):
        level = np.arange(starts[d], starts[d + 1])
        total = np.zeros(len(level))
        for k in range(cg.degree):
            pred = cg.right[cg.inverse_letter[k], level]
            total += np.where(cg.dist[pred] == d - 1, count[pred], 0.0)
        count[level] = total
    return count


def canonical_words(cg: CayleyGraph) -> np.ndarray:
    """The lexicographically first shortest word of every element, vectorised.

    Returns an (N, diameter) array of letter indices padded with -1.
    """
    n = cg.order
    out = np.full((n, max(cg.diameter, 1)), -1, dtype=np.int32)
    cur = np.arange(n)
    for step in range(cg.diameter):
        todo = cg.dist[cur] > 0
        chosen = np.full(n, -1, dtype=np.int64)
        for k in range(cg.degree):
            nxt = cg.left[cg.inverse_letter[k], cur]
            ok = todo & (chosen < 0) & (cg.dist[nxt] == cg.dist[cur] - 1)
            chosen[ok] = k
        active = chosen >= 0
        out[active, step] = chosen[active]
        cur = np.where(active, cg.left[cg.inverse_letter[np.maximum(chosen, 0)], cur], cur)
    return out


def canonical_word(cg: CayleyGraph, g: int) -> tuple[int, ...]:
    """The lexicographically first shortest word of element ``g`` (letter indices)."""
    return next(_words_from(cg, int(g)))


def to_letters(cg: CayleyGraph, word) -> tuple[str, ...]:
    """A word of letter indices as letter strings."""
    return tuple(cg.letters[k] for k in word)


def word_text(letters) -> str:
    """A word as text: single-character letters run together, others spaced."""
    letters = tuple(letters)
    if all(len(s) == 1 for s in letters):
        return "".join(letters)
    return " ".join(letters)
