"""The routes a user would pick without tesearch: one fixed shortest word per relative destination.

Both routes are left-invariant: the message from node ``g`` to node ``g*h``
follows the word ``route[h]`` from ``g``, whatever ``g`` is.

- ``shortest-path``: the canonical word of ``h``, the lexicographically first
  shortest word in the network's letter order (``tesearch info``'s letter
  order: stars 1 2 3 ..., tori a b ... then a' b' ... or A B ...).
- ``dimension-ordered``: for a product of rings (a torus, a ring, a hypercube),
  correct the axes one at a time in axis order (a first); on each axis take
  that ring's canonical word, i.e. the shorter way round.  At the antipode of
  an even ring both ways are shortest and the canonical word wins: ``a^(n/2)``
  (the positive direction) in a cyclic ring, ``a A a ...`` (starting with the
  first letter) in a dihedral one.  On a hypercube this is e-cube routing,
  lowest dimension first, which is also the hypercube's canonical word: the
  two routes coincide there.
"""

from __future__ import annotations

import enum

from tesearch.baselines.cayley import CayleyTable, cayley_table
from tesearch.running.errors import SpecError
from tesearch.networks.families import Network

Word = tuple[int, ...]


class Route(str, enum.Enum):
    """Which shortest word each message follows."""

    SHORTEST_PATH = "shortest-path"
    DIMENSION_ORDERED = "dimension-ordered"


def has_axes(network: Network) -> bool:
    """Whether dimension-ordered routing applies (a torus, ring or hypercube: the network has ring factors)."""
    return bool(network.factors)


def route_words(network: Network, table: CayleyTable, route: Route) -> list[Word]:
    """``route[h]`` for every element index h of ``table`` (the identity's word is empty)."""
    route = Route(route)
    if route is Route.SHORTEST_PATH:
        return [table.canonical_word(h) for h in range(table.order)]
    if not has_axes(network):
        raise SpecError(f"{network.spec}: dimension-ordered routing needs a torus, ring or hypercube "
                        f"(a product of rings); the {network.family} family has no axes")
    letter_index = {s: k for k, s in enumerate(table.letters)}
    axes = []
    offset = 0
    for factor in network.factors:
        ftable = cayley_table(factor.letters, factor.generators)
        fwords = [tuple(letter_index[factor.letters[k]] for k in ftable.canonical_word(i))
                  for i in range(ftable.order)]
        axes.append((offset, factor.points, ftable, fwords))
        offset += factor.points
    words = []
    for h in range(table.order):
        images = table.elements[h]
        word: Word = ()
        for start, points, ftable, fwords in axes:
            word += fwords[ftable.index_of(images[start:start + points] - start)]
        if len(word) != table.dist[h]:
            raise AssertionError(f"{network.spec}: dimension-ordered word of element {h} is not shortest")
        words.append(word)
    return words
