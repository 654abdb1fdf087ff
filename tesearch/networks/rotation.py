"""Rotations: automorphisms that permute the letters as one |S|-cycle.

A rotation sigma acts on words letterwise; because it is an automorphism,
sigma of a shortest word for g is a shortest word for phi(g).  Target elements
fall into phi-orbits; full orbits (size |S|) become rotation blocks, the rest
are the exceptional elements of seed 004 Lemma 1 (those commuting with a power
of sigma) and go into the searched core.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import permutations

import numpy as np

from tesearch.networks.groups import CayleyGraph
from tesearch.networks.symmetry import letter_automorphism

#: how many letter cycles a blind search may try (7 letters give 720)
MAX_CYCLES_TRIED = 5040
#: search all letter cycles for a rotation only on networks this small (info, search and verify agree)
ROTATION_SEARCH_LIMIT = 50_000
#: ... and with at most this many letters
ROTATION_SEARCH_MAX_DEGREE = 7


@dataclass(eq=False)
class Rotation:
    """A letter cycle ``sigma`` and the element map ``phi`` it induces."""

    cg: CayleyGraph
    sigma: np.ndarray  # letter index -> letter index
    phi: np.ndarray  # element index -> element index

    @property
    def cycle(self) -> tuple[str, ...]:
        """The letter cycle, starting from the first letter."""
        k, out = 0, []
        for _ in range(len(self.sigma)):
            out.append(self.cg.letters[k])
            k = int(self.sigma[k])
        return tuple(out)

    def __str__(self) -> str:
        return " -> ".join(self.cycle) + " -> " + self.cycle[0]

    @property
    def order(self) -> int:
        """The order of sigma (= the number of letters), the rows of one block."""
        return len(self.sigma)

    def transversal(self, orbit) -> list[int]:
        """The powers of sigma taking an orbit's first element to each of its elements, in order: 0, 1, ..."""
        return list(range(len(orbit)))

    def apply(self, word, power: int = 1) -> tuple[int, ...]:
        """sigma^power applied letterwise to a word of letter indices."""
        out = tuple(int(k) for k in word)
        for _ in range(power % len(self.sigma)):
            out = tuple(int(self.sigma[k]) for k in out)
        return out

    @cached_property
    def orbit_size(self) -> np.ndarray:
        """Orbit size of every element under phi."""
        size = np.zeros(self.cg.order, dtype=np.int32)
        cur = np.arange(self.cg.order)
        for r in range(1, len(self.sigma) + 1):
            cur = self.phi[cur]
            fresh = (size == 0) & (cur == np.arange(self.cg.order))
            size[fresh] = r
        return size

    def orbits(self, elements) -> list[tuple[int, ...]]:
        """The phi-orbits of a phi-invariant element set, each from its smallest index."""
        seen: set[int] = set()
        out = []
        for g in sorted(int(x) for x in elements):
            if g in seen:
                continue
            orbit = [g]
            h = int(self.phi[g])
            while h != g:
                orbit.append(h)
                h = int(self.phi[h])
            seen.update(orbit)
            out.append(tuple(orbit))
        return out

    def exceptional(self, elements) -> np.ndarray:
        """Elements of the set whose orbit is shorter than |S|."""
        elements = np.asarray(elements)
        return elements[self.orbit_size[elements] < len(self.sigma)]


def rotation_from_cycle(cg: CayleyGraph, cycle) -> Rotation | None:
    """The rotation with letter cycle ``cycle`` if it extends to an automorphism, else None."""
    cycle = [cg.letter_index[s] if isinstance(s, str) else int(s) for s in cycle]
    if sorted(cycle) != list(range(cg.degree)):
        return None
    sigma = np.empty(cg.degree, dtype=np.int32)
    for i, k in enumerate(cycle):
        sigma[k] = cycle[(i + 1) % len(cycle)]
    phi = letter_automorphism(cg, sigma)
    if phi is None:
        return None
    return Rotation(cg, sigma, phi)


def find_rotation(cg: CayleyGraph, *, search: bool | None = None) -> Rotation | None:
    """The family's rotation if it is one; otherwise search the letter cycles.

    ``search=None`` searches on networks up to :data:`ROTATION_SEARCH_LIMIT` nodes with at most
    :data:`ROTATION_SEARCH_MAX_DEGREE` letters, so every command gives the same answer.
    """
    if search is None:
        search = cg.order <= ROTATION_SEARCH_LIMIT and cg.degree <= ROTATION_SEARCH_MAX_DEGREE
    hint = cg.network.rotation
    if hint is not None and cg.degree > 1:
        rot = rotation_from_cycle(cg, hint)
        if rot is not None:
            return rot
    if not search or cg.degree < 2:
        return None
    tried = 0
    for rest in permutations(range(1, cg.degree)):
        tried += 1
        if tried > MAX_CYCLES_TRIED:
            break
        rot = rotation_from_cycle(cg, (0,) + rest)
        if rot is not None:
            return rot
    return None
