"""The axes of a network whose letters split into commuting classes, and its dimension-ordered words.

A torus or hypercube is a product of rings (``Network.factors``): the letters of one factor form an *axis*, and
letters of different axes commute.  A twisted torus has no factors but an abelian group: its axes are the pairs
``{s, s^-1}``.  Either way a shortest word can be regrouped axis by axis in any order of the axes and stays a
shortest word of the same element (letters of different axes commute, and on each axis the word's part is a
shortest word of that axis' part of the element), so a word *grouped in the axis order* ``order`` (its letters'
axes appear in that order, each axis' letters together) exists for every element and every order.
:func:`network_axes` finds the axes (:class:`~tesearch.running.errors.ConstructionError` for a network without them:
stars, pancakes, bubble-sort graphs); :func:`grouped_words` lists every shortest word of an element grouped in
an order; the first of them, in the axis order of the network, is the dimension-ordered (e-cube) word of
``tesearch compare`` (the lexicographically first on every axis).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tesearch.running.errors import ConstructionError
from tesearch.networks.groups import CayleyGraph


@dataclass(frozen=True)
class Axes:
    """The letters of every axis (letter indices, in the network's order) and the axis of every letter."""

    letters: tuple[tuple[int, ...], ...]
    of: tuple[int, ...]  # letter index -> axis

    @property
    def count(self) -> int:
        """The number of axes."""
        return len(self.letters)


def _commute(cg: CayleyGraph, a: int, b: int) -> bool:
    return int(cg.right[b, cg.right[a, 0]]) == int(cg.right[a, cg.right[b, 0]])


def network_axes(cg: CayleyGraph) -> Axes:
    """The axes of ``cg``'s network (module doc), checked: letters of different axes commute."""
    network, index = cg.network, cg.letter_index
    if network.factors:
        letters = tuple(tuple(index[s] for s in factor.letters) for factor in network.factors)
    elif all(_commute(cg, a, b) for a in range(cg.degree) for b in range(a)):
        seen: list[tuple[int, ...]] = []
        for k in range(cg.degree):
            inverse = int(cg.inverse_letter[k])
            if not any(k in axis for axis in seen):
                seen.append(tuple(sorted({k, inverse})))
        letters = tuple(seen)
    else:
        raise ConstructionError(f"{network.spec}: its letters do not split into commuting axes (dimension order "
                                f"applies to tori, twisted tori, rings and hypercubes)")
    of = [0] * cg.degree
    for axis, members in enumerate(letters):
        for k in members:
            of[k] = axis
    for a in range(cg.degree):
        for b in range(a):
            if of[a] != of[b] and not _commute(cg, a, b):
                raise ConstructionError(f"{network.spec}: letters {cg.letters[a]} and {cg.letters[b]} of different "
                                        f"axes do not commute")
    return Axes(letters, tuple(of))


def grouped_words(cg: CayleyGraph, axes: Axes, elements, order: tuple[int, ...], cap: int = 64) -> list[list[tuple[int, ...]]]:
    """For every element of ``elements``: up to ``cap`` of its shortest words grouped in the axis order ``order``
    (a permutation of the axes), lexicographically by (axis position, letter index) at every hop."""
    rank = {axis: position for position, axis in enumerate(order)}
    letters = sorted(range(cg.degree), key=lambda k: (rank[axes.of[k]], k))

    @lru_cache(maxsize=None)
    def words_from(h: int, position: int) -> tuple[tuple[int, ...], ...]:
        d = int(cg.dist[h])
        if d == 0:
            return ((),)
        out: list[tuple[int, ...]] = []
        for k in letters:
            here = rank[axes.of[k]]
            if here < position:
                continue
            rest = int(cg.left[cg.inverse_letter[k], h])  # h = s_k * rest
            if cg.dist[rest] != d - 1:
                continue
            for tail in words_from(rest, here):
                out.append((k,) + tail)
                if len(out) >= cap:
                    return tuple(out)
        return tuple(out)

    found = []
    for g in elements:
        words = list(words_from(int(g), 0))
        if not words:
            raise ConstructionError(f"{cg.network.spec}: element {g} has no shortest word grouped in axis order {order}")
        found.append(words)
    return found
