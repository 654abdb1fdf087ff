"""The Cayley graph the baselines route on: one breadth-first search over permutation tuples.

Kept small and self-contained (numpy and the standard library only) so that it
can later be swapped for the independent checking kernel's BFS.  Elements are
numbered in *canonical order*: by distance from the identity, and within one
distance by their canonical word, the lexicographically first shortest word in
the network's letter order.  Canonical words are prefix-closed (if ``w s`` is
the first shortest word of ``h``, ``w`` is the first shortest word of ``h s^-1``),
so a BFS that expands each layer in canonical order, letters in letter order,
and keeps the first discovery of each element finds them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from tesearch import limits


@dataclass(frozen=True)
class CayleyTable:
    """A Cayley group's elements in canonical order (``elements[i]``: images), distances and canonical words."""

    letters: tuple[str, ...]
    elements: np.ndarray  # order x points, element 0 the identity, canonical order
    parent: np.ndarray  # canonical word of i = canonical word of parent[i], then letter last_letter[i]
    last_letter: np.ndarray
    dist: np.ndarray
    index: Mapping[bytes, int] = field(repr=False)  # element images (int32 bytes) -> index

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
        return self.index[bytes(np.asarray(images, dtype=np.int32))]


def memory_estimate(order: int, points: int, degree: int) -> int:
    """Bytes the BFS and the table take for a group of ``order`` elements (element rows, index, word links)."""
    return order * (points * 4 * 3 + degree * 8 + 200)


def cayley_table(letters: Sequence[str], generators: Mapping[str, Sequence[int]], *,
                 expected_order: int | None = None) -> CayleyTable:
    """BFS from the identity over ``generators`` (letter -> images; ``p*q = i -> q[p[i]]``).

    ``expected_order`` (the family's formula, when known) lets the memory check run before the BFS;
    without it the check runs after every layer.
    """
    letters = tuple(letters)
    perms = np.array([generators[s] for s in letters], dtype=np.int32)
    degree, points = perms.shape
    if expected_order is not None:
        limits.require_memory(memory_estimate(expected_order, points, degree), "the baselines' Cayley table")
    rows = [np.arange(points, dtype=np.int32)]
    index: dict[bytes, int] = {bytes(rows[0]): 0}
    parent, last, dist = [0], [-1], [0]
    layer = rows[0][None, :]
    layer_ids = np.array([0])
    depth = 0
    with limits.phase("baselines: Cayley graph"):
        while len(layer):
            depth += 1
            # children in (parent canonical rank, letter) order: g*s = i -> s[g[i]]
            children = perms[:, layer].transpose(1, 0, 2).reshape(-1, points)
            found, found_ids = [], []
            for c, row in enumerate(children):
                key = bytes(row)
                if key not in index:
                    index[key] = len(rows)
                    rows.append(row)
                    parent.append(int(layer_ids[c // degree]))
                    last.append(c % degree)
                    dist.append(depth)
                    found.append(row)
                    found_ids.append(index[key])
            layer = np.array(found, dtype=np.int32).reshape(-1, points)
            layer_ids = np.array(found_ids, dtype=np.int64)
            limits.advance(len(found))
            limits.require_memory(memory_estimate(len(rows), points, degree), "the baselines' Cayley table")
    return CayleyTable(letters, np.array(rows, dtype=np.int32), np.array(parent), np.array(last), np.array(dist),
                       index)
