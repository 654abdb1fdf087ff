"""Rank numbering: which group element (network node) each MPI rank stands for.

Rank ``r`` is the ``r``-th element of the group when the elements, written as tuples of
images (``g = (g(0), g(1), ..., g(m-1))``), are sorted lexicographically.  The identity is
rank 0.  The numbering depends on the generators alone (not on a BFS order or on a
table), so every rank computes it by itself and any reader can recompute it.

For products of rings (tori, rings, hypercubes) the lexicographic order is the
mixed-radix order of coordinates: axis ``i`` acts on the points ``offset_i ..
offset_i + side_i - 1`` and its coordinate is ``g(offset_i) - offset_i`` (where the
element moves the axis' first point); axis 0 (letters ``a``/``a'``/``A``) is the most
significant, so ``rank = ((x_0 * side_1) + x_1) * side_2 + ...``.  On a hypercube-d
rank ``r`` has bit ``d-1-i`` of ``r`` as its coordinate on axis ``i``.

>>> from tesearch.networks.families import network_from_spec
>>> numbering = rank_numbering(network_from_spec("torus-4x4"))
>>> numbering.coordinates(6), numbering.rank_of_coordinates((1, 2))
((1, 2), 6)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tesearch.networks.groups import CayleyGraph, cayley_graph
from tesearch.networks.families import Network

#: the name of the numbering in tesearch-programs files
RANK_ORDER = "lexicographic-images"


@dataclass(eq=False)
class RankNumbering:
    """The rank of every element and the element of every rank, over one Cayley graph."""

    graph: CayleyGraph
    index_of_rank: np.ndarray  # (N,) rank -> element index in graph (BFS order)
    rank_of_index: np.ndarray  # (N,) element index -> rank

    @property
    def size(self) -> int:
        """Number of ranks (the group order)."""
        return len(self.index_of_rank)

    @property
    def network(self) -> Network:
        """The network the ranks number."""
        return self.graph.network

    def element(self, rank: int) -> tuple[int, ...]:
        """The group element (tuple of images) rank ``rank`` stands for."""
        return tuple(int(x) for x in self.graph.elements[self.index_of_rank[rank]])

    def neighbour(self, rank: int, letter: int) -> int:
        """The rank of ``g * s`` for rank ``rank``'s element ``g`` and letter index ``letter``."""
        return int(self.rank_of_index[self.graph.right[letter, self.index_of_rank[rank]]])

    @property
    def axes(self) -> tuple[tuple[int, int], ...] | None:
        """(first point, side) of each axis of a product of rings, or None for other networks."""
        factors = self.network.factors
        if not factors:
            return None
        out, offset = [], 0
        for factor in factors:
            out.append((offset, factor.points))
            offset += factor.points
        return tuple(out)

    def coordinates(self, rank: int) -> tuple[int, ...] | None:
        """The position of rank ``rank`` on each axis (tori, rings, hypercubes), or None."""
        axes = self.axes
        if axes is None:
            return None
        element = self.graph.elements[self.index_of_rank[rank]]
        return tuple(int(element[offset]) - offset for offset, _ in axes)

    def rank_of_coordinates(self, coordinates: tuple[int, ...]) -> int:
        """The rank at the given axis coordinates (mixed radix, axis 0 most significant)."""
        axes = self.axes
        if axes is None or len(coordinates) != len(axes):
            raise ValueError("coordinates are defined on products of rings only, one per axis")
        rank = 0
        for (_, side), x in zip(axes, coordinates):
            rank = rank * side + int(x)
        return rank


def numbering_of_graph(graph: CayleyGraph) -> RankNumbering:
    """The lexicographic rank numbering of an already built Cayley graph."""
    elements = graph.elements
    index_of_rank = np.lexsort(elements.T[::-1]).astype(np.int64)  # column 0 is the primary key
    rank_of_index = np.empty_like(index_of_rank)
    rank_of_index[index_of_rank] = np.arange(len(index_of_rank), dtype=np.int64)
    return RankNumbering(graph, index_of_rank, rank_of_index)


def rank_numbering(network: Network) -> RankNumbering:
    """The lexicographic rank numbering of ``network`` (builds its Cayley graph; no SymPy)."""
    return numbering_of_graph(cayley_graph(network, check_order=False))
