"""Shortest words: enumeration (lazy, capped), counts, canonical choices, targets.

A word ``s1 s2 ... sk`` names the element ``s1*s2*...*sk``; it is a shortest
word when k equals the element's distance.  Words are tuples of letter indices
inside the package and tuples of letter strings at its edges (tables, CLI).
"""

from __future__ import annotations

from itertools import islice
from typing import Iterator

import numpy as np

from tesearch.networks.groups import CayleyGraph
from tesearch.running.terms import Exchange

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


def uniform_words(cg: CayleyGraph, g: int, cap: int, counts: np.ndarray, seed: int = 0) -> tuple[tuple[int, ...], ...]:
    """Up to ``cap`` distinct shortest words of ``g``, each drawn uniformly from all of them.

    ``counts`` is :func:`word_counts`.  A word is built from its last letter back: the
    predecessor ``g * s^-1`` is chosen with probability proportional to its own number of
    shortest words, which makes every shortest word of ``g`` equally likely.  Unlike the
    lexicographic head, such a sample spreads over the letter-count vectors the way the
    words themselves do.  Deterministic for a given ``seed`` and ``g``; sorted.
    """
    rng = np.random.default_rng([int(seed), int(g)])
    found: set[tuple[int, ...]] = set()
    for _ in range(cap * 8):
        word = []
        h = int(g)
        while cg.dist[h] > 0:
            d = int(cg.dist[h])
            preds = [(k, int(cg.right[cg.inverse_letter[k], h])) for k in range(cg.degree)]
            preds = [(k, p) for k, p in preds if cg.dist[p] == d - 1]
            weights = np.array([counts[p] for _, p in preds], dtype=np.float64)
            k, h = preds[int(rng.choice(len(preds), p=weights / weights.sum()))]
            word.append(k)
        found.add(tuple(reversed(word)))
        if len(found) >= cap:
            break
    return tuple(sorted(found))


def word_for_vector(cg: CayleyGraph, g: int, vector: tuple[int, ...], vectors) -> tuple[int, ...]:
    """A shortest word of ``g`` using letter k exactly ``vector[k]`` times.

    ``vectors[h]`` is every element's set of letter-count vectors
    (:func:`tesearch.facts.bounds.letter_vectors`); ``vector`` must be one of ``vectors[g]``.  Built
    from the last letter back, always keeping a vector the predecessor can still realise, so it
    never backtracks.
    """
    if tuple(vector) not in vectors[g]:
        raise ValueError(f"element {g} has no shortest word with letter counts {tuple(vector)}")
    word = []
    h, left = int(g), list(vector)
    while cg.dist[h] > 0:
        for k in range(cg.degree):
            if not left[k]:
                continue
            p = int(cg.right[cg.inverse_letter[k], h])
            rest = left.copy()
            rest[k] -= 1
            if cg.dist[p] == cg.dist[h] - 1 and tuple(rest) in vectors[p]:
                word.append(k)
                h, left = p, rest
                break
    return tuple(reversed(word))


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


def words_by_element(cg: CayleyGraph) -> list[list[tuple[str, ...]]]:
    """Every shortest word of every element as letter strings, indexed by element (0 = identity: the empty word).

    Meant for small groups (a torus's rings): it lists all shortest words, however many there are."""
    return [[to_letters(cg, w) for w in shortest_words(cg, g)] if g else [()] for g in range(cg.order)]


def word_text(letters) -> str:
    """A word as text: single-character letters run together, others spaced."""
    letters = tuple(letters)
    if all(len(s) == 1 for s in letters):
        return "".join(letters)
    return " ".join(letters)
