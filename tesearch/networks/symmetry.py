"""Letter symmetry groups: any group H of letter automorphisms that acts regularly on the letters.

A rotation (:mod:`tesearch.networks.rotation`) is the cyclic case: one |S|-cycle sigma.  The table method
needs less.  If H is a group of letter permutations, each of which extends to an automorphism
``phi_h`` of the Cayley graph, and H acts *regularly* on the letters (|H| = |S|, only the identity
fixes a letter), then for an element g with trivial stabiliser the |H| words ``h(w)`` of the
elements ``phi_h(g)``, placed in |H| rows from one start column, hold in every column the letters
``h(x)`` for the one letter x of w there: all different, since h -> h(x) is a bijection.  So every
free H-orbit is a rotation block, and only the elements some ``h != 1`` fixes (the *core*) need a
search.  The cyclic group gives the rotation's blocks; on star-n every permutation of the n-1
letters is an automorphism (conjugation by a permutation of the symbols 1..n-1), so every group of
order n-1 appears, in its regular representation, and their cores differ.

:func:`letter_automorphism` extends a letter map to the element map or says it does not extend;
:class:`LetterGroup` holds a group's element maps and its core; :func:`groups_of_order` gives the
regular representations of the groups of order 2..8 (one per isomorphism class), which is every
regular subgroup of Sym(k) up to conjugacy (Cayley).  ``experiments/symmetry_cores.py`` reports the
cores of each on star-5..9 (results/symmetry-cores.md).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Sequence

import numpy as np

from tesearch.networks.groups import CayleyGraph


def letter_automorphism(cg: CayleyGraph, sigma: Sequence[int]) -> np.ndarray | None:
    """The element map ``phi`` with ``phi(g * s) = phi(g) * sigma(s)``, or None if ``sigma`` does not extend.

    ``sigma`` maps letter index to letter index.  It extends when it maps inverse pairs to inverse
    pairs and the map built along the BFS tree commutes with every letter's right multiplication
    and is a bijection.
    """
    sigma = np.asarray(sigma, dtype=np.int64)
    if sorted(sigma.tolist()) != list(range(cg.degree)):
        return None
    inv = cg.inverse_letter
    if not np.array_equal(sigma[inv], inv[sigma]):
        return None
    parent, letter = cg.parent
    phi = np.zeros(cg.order, dtype=np.int64)
    starts = cg.level_starts
    for d in range(1, cg.diameter + 1):
        level = np.arange(starts[d], starts[d + 1])
        phi[level] = cg.right[sigma[letter[level]], phi[parent[level]]]
    for k in range(cg.degree):
        if not np.array_equal(phi[cg.right[k]], cg.right[sigma[k]][phi]):
            return None
    if len(np.unique(phi)) != cg.order:
        return None
    return phi


class SymmetryError(ValueError):
    """A letter group that is not a regular group of automorphisms."""


@dataclass(eq=False)
class LetterGroup:
    """A group H of letter permutations acting regularly on the letters, with its element maps."""

    cg: CayleyGraph
    name: str
    perms: tuple[tuple[int, ...], ...]  # every element of H as a letter map; perms[0] is the identity

    def __post_init__(self) -> None:
        k = self.cg.degree
        if len(self.perms) != k:
            raise SymmetryError(f"{self.name}: {len(self.perms)} permutations for {k} letters (regular needs |H| = |S|)")
        identity = tuple(range(k))
        if self.perms[0] != identity:
            raise SymmetryError(f"{self.name}: the first permutation must be the identity")
        as_set = set(self.perms)
        if len(as_set) != k or any(tuple(p[q[i]] for i in range(k)) not in as_set for p in self.perms for q in self.perms):
            raise SymmetryError(f"{self.name}: the permutations are not a group")
        if any(p[x] == x for p in self.perms[1:] for x in range(k)):
            raise SymmetryError(f"{self.name}: a non-identity element fixes a letter (not regular)")

    @cached_property
    def phis(self) -> np.ndarray:
        """(|H|, N): the element map of every group element; SymmetryError if one does not extend."""
        out = np.empty((len(self.perms), self.cg.order), dtype=np.int64)
        for i, p in enumerate(self.perms):
            phi = letter_automorphism(self.cg, p)
            if phi is None:
                raise SymmetryError(f"{self.name}: the letter map {p} is not an automorphism of {self.cg.network.spec}")
            out[i] = phi
        return out

    @cached_property
    def orbit_size(self) -> np.ndarray:
        """Size of every element's H-orbit (|H| / its stabiliser's order)."""
        fixed = (self.phis == np.arange(self.cg.order)[None, :]).sum(axis=0)
        return len(self.perms) // fixed

    def core(self, elements) -> np.ndarray:
        """The elements of the set that some non-identity h fixes (orbit shorter than |H|)."""
        elements = np.asarray(elements)
        return elements[self.orbit_size[elements] < len(self.perms)]

    # The rotation search's interface (what tesearch.networks.rotation.Rotation also gives): orbits, the letter
    # map of a group element, a transversal of an orbit, the order, and a name for logs and records.

    @property
    def order(self) -> int:
        """|H|, the rows of one block (= the number of letters)."""
        return len(self.perms)

    def __str__(self) -> str:
        return self.name

    def orbits(self, elements) -> list[tuple[int, ...]]:
        """The H-orbits of an H-invariant element set, in the order of their smallest elements; each
        orbit starts at its smallest element g and lists phi_h(g) in the order of the first h (index
        into ``perms``) that reaches it, so a free orbit's entry r is phi_{perms[r]}(g)."""
        elements = np.unique(np.asarray(elements, dtype=np.int64))
        images = self.phis[:, elements]  # (|H|, n): row r holds phi_r of every element
        smallest = images.min(axis=0)
        out = []
        for g in elements[smallest == elements].tolist():
            orbit = dict.fromkeys(self.phis[:, g].tolist())  # first appearance order, identity first
            out.append(tuple(orbit))
        return out

    def apply(self, word, index: int = 1) -> tuple[int, ...]:
        """The letter map of group element ``perms[index]`` applied letterwise to a word of letter indices."""
        perm = self.perms[index % len(self.perms)]
        return tuple(perm[int(k)] for k in word)

    def transversal(self, orbit: Sequence[int]) -> list[int]:
        """For each element of an orbit (from :meth:`orbits`), the first group index h with phi_h(orbit[0]) = it."""
        column = self.phis[:, orbit[0]].tolist()
        return [column.index(int(g)) for g in orbit]

    def letter_maps(self) -> list[list[str]]:
        """Every group element as the images of the letters (``letters[i] -> maps[h][i]``), for a table's record."""
        letters = self.cg.letters
        return [[letters[p[i]] for i in range(len(p))] for p in self.perms]


def _regular(elements: list, multiply: Callable) -> tuple[tuple[int, ...], ...]:
    """The left-regular representation: element g -> the permutation x -> g*x of the element indices."""
    index = {e: i for i, e in enumerate(elements)}
    return tuple(tuple(index[multiply(g, x)] for x in elements) for g in elements)


def _abelian(*moduli: int) -> tuple[tuple[int, ...], ...]:
    elements = list(itertools.product(*(range(m) for m in moduli)))
    return _regular(elements, lambda a, b: tuple((x + y) % m for x, y, m in zip(a, b, moduli)))


def _dihedral(n: int) -> tuple[tuple[int, ...], ...]:
    """D_n of order 2n: (r, f) means rotation r then reflection if f."""
    elements = [(r, f) for f in (0, 1) for r in range(n)]
    return _regular(elements, lambda a, b: ((a[0] + (b[0] if a[1] == 0 else -b[0])) % n, a[1] ^ b[1]))


def _quaternion() -> tuple[tuple[int, ...], ...]:
    """Q8 = {+-1, +-i, +-j, +-k} with i^2 = j^2 = k^2 = ijk = -1."""
    unit = {("1", "1"): (1, "1"), ("1", "i"): (1, "i"), ("1", "j"): (1, "j"), ("1", "k"): (1, "k"),
            ("i", "1"): (1, "i"), ("i", "i"): (-1, "1"), ("i", "j"): (1, "k"), ("i", "k"): (-1, "j"),
            ("j", "1"): (1, "j"), ("j", "i"): (-1, "k"), ("j", "j"): (-1, "1"), ("j", "k"): (1, "i"),
            ("k", "1"): (1, "k"), ("k", "i"): (1, "j"), ("k", "j"): (-1, "i"), ("k", "k"): (-1, "1")}
    elements = [(s, u) for s in (1, -1) for u in "1ijk"]

    def multiply(a, b):
        sign, u = unit[(a[1], b[1])]
        return (a[0] * b[0] * sign, u)

    return _regular(elements, multiply)


def groups_of_order(k: int) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Every group of order ``k`` (2 <= k <= 8) up to isomorphism, as its regular representation."""
    table: dict[int, dict[str, Callable[[], tuple]]] = {
        2: {"C2": lambda: _abelian(2)},
        3: {"C3": lambda: _abelian(3)},
        4: {"C4": lambda: _abelian(4), "C2xC2": lambda: _abelian(2, 2)},
        5: {"C5": lambda: _abelian(5)},
        6: {"C6": lambda: _abelian(6), "S3": lambda: _dihedral(3)},
        7: {"C7": lambda: _abelian(7)},
        8: {"C8": lambda: _abelian(8), "C4xC2": lambda: _abelian(4, 2), "C2^3": lambda: _abelian(2, 2, 2),
            "D4": lambda: _dihedral(4), "Q8": _quaternion},
    }
    if k not in table:
        raise SymmetryError(f"groups of order {k} are not tabulated (2..8 are)")
    return {name: make() for name, make in table[k].items()}


#: the --symmetry name of the network's own rotation (tesearch.networks.rotation, a cyclic letter group), the rotation
#: search's default symmetry
THE_ROTATION = "cyclic"
#: relabellings of the letters tried when a group's regular representation does not extend as given
MAX_RELABELLINGS_TRIED = 5040


def symmetry_names(degree: int) -> list[str]:
    """The names a symmetry option takes for ``degree`` letters: ``cyclic``, then every group of that order."""
    try:
        return [THE_ROTATION] + list(groups_of_order(degree))
    except SymmetryError:
        return [THE_ROTATION]


def letter_group(cg: CayleyGraph, name: str) -> LetterGroup:
    """The group ``name`` (a key of :func:`groups_of_order` for cg's degree) as letter automorphisms of ``cg``.

    The regular representation is tried as given (letter i is group element i), then relabelled
    (conjugated by a permutation of the letters, up to :data:`MAX_RELABELLINGS_TRIED` of them) until
    every element extends to an automorphism; SymmetryError when the name is unknown or no labelling
    tried extends.
    """
    groups = groups_of_order(cg.degree) if 2 <= cg.degree <= 8 else {}
    if name not in groups:
        raise SymmetryError(f"no group {name!r} of order {cg.degree} (the number of letters of "
                            f"{cg.network.spec}); valid: {', '.join(symmetry_names(cg.degree))}")
    perms = groups[name]
    for tried, relabel in enumerate(itertools.permutations(range(cg.degree))):
        if tried >= MAX_RELABELLINGS_TRIED:
            break
        back = {image: i for i, image in enumerate(relabel)}
        # relabel o p o relabel^-1: letter relabel[i] goes where i goes under p, relabelled
        conjugate = tuple(tuple(relabel[p[back[x]]] for x in range(cg.degree)) for p in perms)
        group = LetterGroup(cg, name, conjugate)
        if _extends(group):
            return group
    raise SymmetryError(f"{name} acts on {cg.network.spec}'s letters as no group of automorphisms "
                        f"(tried {min(MAX_RELABELLINGS_TRIED, math.factorial(cg.degree))} labellings)")


def _extends(group: LetterGroup) -> bool:
    """Whether every element of the group extends to an automorphism (its element maps are then kept)."""
    inverse = group.cg.inverse_letter
    for p in group.perms:  # the cheap test first: inverse pairs to inverse pairs
        p = np.asarray(p)
        if not np.array_equal(p[inverse], inverse[p]):
            return False
    try:
        _ = group.phis
    except SymmetryError:
        return False
    return True

