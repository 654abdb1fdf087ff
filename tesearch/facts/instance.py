"""One network and exchange with its facts computed once: the :class:`Instance` every strategy, the sweep,
``info`` and ``verify`` share.

:func:`instance` is the one way to make one (from a :class:`~tesearch.networks.families.Network` or a spec).  Every
fact is computed on first use and kept: the Cayley graph and the targets (so that a strategy can refuse a
network by its parameters before its group is built, as a construction's size guards do), the rotation,
the bounds, the targets' rotation orbits, the letter-count vectors and the shortest-word counts (each
reported as a :mod:`tesearch.running.limits` phase).  An instance is picklable: a Ray task receives one, with what
was computed before it was sent, instead of a spec string to parse again.

Rotation flags.  ``rotation_search`` is :func:`tesearch.networks.rotation.find_rotation`'s ``search``: None (the
default, every search command) searches the letter cycles of small networks; ``verify`` passes False and
takes the family's rotation only.  The bounds use the rotation only above
:data:`tesearch.facts.bounds.PARIKH_LIMIT` nodes (below it the per-letter bound is exact without one), so
``bounds`` never pays for a rotation search it does not need.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from tesearch.running import limits
from tesearch.facts.bounds import PARIKH_LIMIT, Bounds, compute_bounds, letter_vectors
from tesearch.networks.groups import CayleyGraph, cached_cayley_graph
from tesearch.networks.families import Network, network_from_spec
from tesearch.networks.rotation import Rotation, find_rotation
from tesearch.networks.symmetry import LetterGroup
from tesearch.running.terms import Exchange
from tesearch.networks.words import targets, word_counts


@dataclass(frozen=True)
class OrbitClasses:
    """The targets' rotation orbits: the full ones (by word length, then first element), the short ones
    (the exceptional elements), the full orbits' word lengths, and the blank cells the counting bound allows."""

    full: list[tuple[int, ...]]
    short: list[tuple[int, ...]]
    lengths: list[int]
    blanks: int

    def __iter__(self):
        return iter((self.full, self.short, self.lengths, self.blanks))


@dataclass(eq=False)
class Instance:
    """A network and an exchange with their facts (module doc); make one with :func:`instance`."""

    network: Network
    exchange: Exchange
    rotation_search: bool | None = None

    @functools.cached_property
    def cg(self) -> CayleyGraph:
        """The Cayley graph (elements, distances, multiplication), built on first use."""
        return cached_cayley_graph(self.network)

    @functools.cached_property
    def targets(self) -> np.ndarray:
        """The elements every node sends a message to, under the exchange."""
        return targets(self.cg, self.exchange)

    @property
    def spec(self) -> str:
        """The network's spec."""
        return self.network.spec

    @property
    def name(self) -> str:
        """'SPEC EXCHANGE', as runs and logs name it."""
        return f"{self.network.spec} {self.exchange.value}"

    @functools.cached_property
    def rotation(self) -> Rotation | None:
        """The rotation (a letter cycle that extends to an automorphism), or None."""
        with limits.phase("rotation"):
            return find_rotation(self.cg, search=self.rotation_search)

    @functools.cached_property
    def bounds(self) -> Bounds:
        """Every lower bound on the width (the rotation is asked for only where the bounds use it)."""
        rotation = self.rotation if self.cg.order > PARIKH_LIMIT else None
        with limits.phase("bounds"):
            return compute_bounds(self.cg, self.exchange, rotation)

    @functools.cached_property
    def orbit_classes(self) -> OrbitClasses:
        """The targets' rotation orbits (see :class:`OrbitClasses`); the instance must have a rotation."""
        return self.orbit_classes_under(self.rotation)

    def orbit_classes_under(self, symmetry: Rotation | LetterGroup) -> OrbitClasses:
        """The targets' orbits under a rotation or a regular letter group (:class:`OrbitClasses`; not kept)."""
        S = self.cg.degree
        with limits.phase("orbits"):
            orbit_list = symmetry.orbits(self.targets)
        full = sorted((o for o in orbit_list if len(o) == S), key=lambda o: (int(self.cg.dist[o[0]]), o[0]))
        short = [o for o in orbit_list if len(o) < S]
        lengths = [int(self.cg.dist[o[0]]) for o in full]
        return OrbitClasses(full, short, lengths, self.bounds.counting * S - self.bounds.target_letters)

    @functools.cached_property
    def letter_vectors(self) -> list[frozenset[tuple[int, ...]]]:
        """Every element's letter-count vectors over its shortest words (small networks only)."""
        with limits.phase("letter vectors"):
            return letter_vectors(self.cg)

    @functools.cached_property
    def word_counts(self) -> np.ndarray:
        """How many shortest words every element has."""
        with limits.phase("word counts"):
            return word_counts(self.cg)


def instance(network_or_spec: Network | str, exchange: Exchange | str = Exchange.TOTAL, *,
             rotation_search: bool | None = None, cg: CayleyGraph | None = None) -> Instance:
    """The instance of a network (or a spec, parsed and checked) and an exchange; ``cg`` reuses a graph
    already built for this network."""
    network = network_from_spec(network_or_spec) if isinstance(network_or_spec, str) else network_or_spec
    made = Instance(network, Exchange(exchange), rotation_search)
    if cg is not None:
        made.cg = cg  # the cached property's value, set ahead
    return made

