"""The Cayley graph the baselines route on: the checking kernel's breadth-first search, in canonical order.

The kernel (tesearch.checking.kernel.graph) shares no code with the search, so the
baselines stay independent of it too; this module only adapts its result.  Elements are
numbered in *canonical order*: by distance from the identity, and within one
distance by their canonical word, the lexicographically first shortest word in
the network's letter order.  Canonical words are prefix-closed (if ``w s`` is
the first shortest word of ``h``, ``w`` is the first shortest word of ``h s^-1``),
so a BFS that expands each layer in canonical order, letters in letter order,
and keeps the first discovery of each element finds them all: the kernel's BFS does
exactly that (node by node in index order, generators in letter order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from tesearch.running import limits
from tesearch.checking.kernel.graph import build_network


@dataclass(frozen=True)
class CayleyTable:
    """A Cayley group's elements in canonical order (``elements[i]``: images), distances and canonical words."""

    letters: tuple[str, ...]
    elements: np.ndarray  # order x points, element 0 the identity, canonical order
    parent: np.ndarray  # canonical word of i = canonical word of parent[i], then letter last_letter[i]
    last_letter: np.ndarray
    dist: np.ndarray
    index: Mapping[tuple[int, ...], int] = field(repr=False)  # element images -> index

    @property
    def order(self) -> int:
        """Number of nodes."""
        return len(self.elements)

    @property
    def degree(self) -> int:
        """Number of letters (links leaving each node)."""
        return len(self.letters)

    @property
    def status(self) -> int:
        """Sum of distances from a node to all nodes."""
        return int(self.dist.sum())

    def canonical_word(self, i: int) -> tuple[int, ...]:
        """The lexicographically first shortest word of element ``i`` (letter indices)."""
        word = []
        while i != 0:
            word.append(int(self.last_letter[i]))
            i = int(self.parent[i])
        return tuple(reversed(word))

    def index_of(self, images: Sequence[int]) -> int:
        """The index of the element with these images."""
        return self.index[tuple(int(x) for x in images)]


def memory_estimate(order: int, points: int, degree: int) -> int:
    """Bytes the BFS and the table take for a group of ``order`` elements (element rows, index, word links)."""
    return order * (points * 4 * 3 + degree * 8 + 200)


def cayley_table(letters: Sequence[str], generators: Mapping[str, Sequence[int]], *,
                 expected_order: int | None = None) -> CayleyTable:
    """BFS from the identity over ``generators`` (letter -> images; ``p*q = i -> q[p[i]]``), by the kernel.

    ``expected_order`` (the family's formula, when known) lets the memory check run before the BFS.
    """
    letters = tuple(letters)
    perms = [tuple(int(x) for x in generators[s]) for s in letters]
    if expected_order is not None:
        limits.require_memory(memory_estimate(expected_order, len(perms[0]), len(letters)),
                              "the baselines' Cayley table")
    with limits.phase("baselines: Cayley graph"):
        net = build_network(letters, perms, where="baselines")
    parent = np.maximum(net.parent, 0)  # the identity is its own parent here (its word is empty)
    last = net.parent_letter.copy()
    return CayleyTable(letters, np.array(net.elements, dtype=np.int32), parent, last, net.depth, net.index)
