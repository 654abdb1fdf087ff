"""A Cayley network presented by permutation generators (the :class:`Network` record every family builds),
and the plain permutation helpers the families use.  The families, their registry and the spec grammar are
:mod:`tesearch.networks.families`'s, which re-exports all of this; this module imports only the standard library."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

Perm = tuple[int, ...]

@dataclass(frozen=True)
class Network:
    """A Cayley network presented by permutation generators.

    ``letters`` fixes the order of the generators (rows of a table, the order
    of a rotation); ``generators[letter]`` is its permutation as a tuple of
    images.  ``rotation`` is the letter cycle of a known rotation candidate
    (``rotation[i] -> rotation[i+1]``), checked by :mod:`tesearch.networks.rotation`.
    ``factors`` holds the ring factors (axes) of a product network, ``params``
    the family's parameter record, ``order`` the group order when the family
    knows it in advance.
    """

    spec: str
    family: str
    letters: tuple[str, ...]
    generators: Mapping[str, Perm]
    rotation: tuple[str, ...] | None = None
    factors: tuple["Network", ...] = ()
    params: object | None = None
    order: int | None = None

    @property
    def degree(self) -> int:
        """Number of generators (the network's degree)."""
        return len(self.letters)

    @property
    def points(self) -> int:
        """Number of points the permutations act on."""
        return len(next(iter(self.generators.values())))

    @property
    def is_product(self) -> bool:
        """Whether the network is a product of at least two rings (a torus or hypercube: it has axes)."""
        return len(self.factors) >= 2

    def generators_json(self) -> dict[str, list[int]]:
        """Letter -> list of images, in letter order (the tables' ``generators`` object)."""
        return {s: list(self.generators[s]) for s in self.letters}

    def same_generators(self, gens: Mapping[str, object]) -> bool:
        """Whether ``gens`` names exactly these letters with exactly these permutations."""
        return set(gens) == set(self.letters) and all(tuple(gens[s]) == self.generators[s] for s in self.letters)

    def __str__(self) -> str:
        return self.spec


# --------------------------------------------------------------------------
# permutation helpers (plain tuples; the hot loops live in tesearch.networks.groups)

def transposition(m: int, a: int, b: int) -> Perm:
    """The transposition of points a and b on m points."""
    images = list(range(m))
    images[a], images[b] = images[b], images[a]
    return tuple(images)


def compose(p: Perm, q: Perm) -> Perm:
    """The product ``p*q``: apply p, then q (SymPy's convention)."""
    return tuple(q[i] for i in p)


def inverse(p: Perm) -> Perm:
    """The inverse permutation."""
    inv = [0] * len(p)
    for i, image in enumerate(p):
        inv[image] = i
    return tuple(inv)


def group_memory_estimate(order: int, points: int, degree: int) -> int:
    """Bytes the group front end (tesearch.networks.groups.cayley_graph) needs at its peak for a group of ``order``
    elements on ``points`` points with ``degree`` generators."""
    itemsize = 1 if points <= 127 else 2 if points <= 32767 else 4
    rows = order * points * itemsize
    # elements twice (levels, then one array) and a level's candidates; keys, sort, dist; right and left
    return 3 * rows + order * (8 * 4 + 4) + 2 * degree * order * 4


def capped_factorial(n: int, cap: int) -> int:
    """n!, or cap + 1 as soon as the product passes cap (star-99999 is refused without computing 99999!)."""
    value = 1
    for k in range(2, n + 1):
        value *= k
        if value > cap:
            return cap + 1
    return value
