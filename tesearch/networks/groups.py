"""The group front end: SymPy builds and checks the group, numpy walks it.

:func:`cayley_graph` turns a :class:`~tesearch.networks.families.Network` into a
:class:`CayleyGraph`: every element as a row of images (BFS order, identity
first), its distance from the identity, and the right and left multiplication
tables ``right[k, g] = index of g*s_k`` and ``left[k, g] = index of s_k*g``.
SymPy's Schreier-Sims order is the cross-check of the breadth-first count; no
per-element SymPy object is made, so star-9 (362880 elements) stays in arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tesearch.running import limits
from tesearch.running.errors import GeneratorsError
from tesearch.networks.families import Network, group_memory_estimate


def sympy_order(network: Network) -> int:
    """The group order by SymPy's Schreier-Sims algorithm."""
    from sympy.combinatorics import Permutation, PermutationGroup

    group = PermutationGroup([Permutation(list(network.generators[s])) for s in network.letters])
    return int(group.order())


class _RowIndex:
    """Exact lookup of permutation rows: 64-bit hash keys, then a row comparison."""

    def __init__(self, points: int):
        rng = np.random.default_rng(0x7E5EA7C4)
        self.weights = rng.integers(1, 2**63 - 1, size=points, dtype=np.uint64) | np.uint64(1)

    def keys(self, rows: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return (rows.astype(np.uint64) * self.weights).sum(axis=1, dtype=np.uint64)


@dataclass(eq=False)
class CayleyGraph:
    """A Cayley network built out: elements, distances, multiplication tables."""

    network: Network
    elements: np.ndarray  # (N, m) images, BFS order, row 0 the identity
    dist: np.ndarray  # (N,) distance from the identity
    right: np.ndarray  # (|S|, N): right[k, g] = g * s_k
    left: np.ndarray  # (|S|, N): left[k, g] = s_k * g
    inverse_letter: np.ndarray  # (|S|,): index of s_k^-1

    @property
    def letters(self) -> tuple[str, ...]:
        """The generator letters, in row order."""
        return self.network.letters

    @property
    def order(self) -> int:
        """Number of elements (nodes)."""
        return len(self.dist)

    @property
    def degree(self) -> int:
        """Number of generators."""
        return len(self.network.letters)

    @cached_property
    def letter_index(self) -> dict[str, int]:
        """Letter -> its index."""
        return {s: k for k, s in enumerate(self.letters)}

    @cached_property
    def diameter(self) -> int:
        """The largest distance from the identity."""
        return int(self.dist.max())

    @cached_property
    def distance_distribution(self) -> list[int]:
        """How many elements lie at each distance 0, 1, ... from the identity."""
        return np.bincount(self.dist, minlength=self.diameter + 1).astype(int).tolist()

    @cached_property
    def status(self) -> int:
        """The sum of all distances from one node."""
        return int(self.dist.sum())

    @cached_property
    def level_starts(self) -> np.ndarray:
        """Index of the first element at each distance (BFS order), plus N."""
        return np.searchsorted(self.dist, np.arange(self.diameter + 2))

    @cached_property
    def parent(self) -> tuple[np.ndarray, np.ndarray]:
        """(parent, letter) with ``element = parent * letter`` on a shortest path; -1 at the identity."""
        n = self.order
        parent = np.full(n, -1, dtype=np.int64)
        letter = np.full(n, -1, dtype=np.int64)
        for k in range(self.degree):
            pred = self.right[self.inverse_letter[k]]
            ok = (letter < 0) & (self.dist[pred] == self.dist - 1)
            parent[ok] = pred[ok]
            letter[ok] = k
        return parent, letter

    def element_of(self, word) -> int:
        """Index of the element named by a word (letters or letter indices)."""
        g = 0
        for s in word:
            k = self.letter_index[s] if isinstance(s, str) else int(s)
            g = int(self.right[k, g])
        return g

    def index_of_rows(self, rows: np.ndarray) -> np.ndarray:
        """Indices of permutation rows (each must be an element)."""
        return self._lookup(np.atleast_2d(rows))

    # filled in by cayley_graph
    _index: _RowIndex | None = None
    _sorted_keys: np.ndarray | None = None
    _sorted_pos: np.ndarray | None = None

    def _lookup(self, rows: np.ndarray) -> np.ndarray:
        keys = self._index.keys(rows)
        pos = np.searchsorted(self._sorted_keys, keys)
        pos = np.minimum(pos, len(self._sorted_keys) - 1)
        idx = self._sorted_pos[pos]
        if not np.array_equal(self.elements[idx], rows):
            raise GeneratorsError("internal: a product is not an element of the group (hash lookup failed)")
        return idx


def cayley_graph(network: Network, *, check_order: bool = True) -> CayleyGraph:
    """Build the Cayley graph of ``network`` by a level-synchronous BFS in numpy.

    The order (the family's formula, or SymPy's for a generator set of no family) and the
    memory the arrays will take are checked against the limits before the BFS starts.
    """
    letters = network.letters
    order = network.order
    if order is None:
        with limits.phase("group order (SymPy)"):
            order = sympy_order(network)
    limits.require_order(order, network.spec)
    limits.require_memory(group_memory_estimate(order, network.points, len(letters)),
                          f"the group of {network.spec} ({order} elements on {network.points} points)")
    gens = np.array([network.generators[s] for s in letters], dtype=np.int32)
    m = gens.shape[1]
    dtype = np.int8 if m <= 127 else np.int16 if m <= 32767 else np.int32
    gens = gens.astype(dtype)
    index = _RowIndex(m)

    identity = np.arange(m, dtype=dtype)[None, :]
    levels = [identity]
    seen = np.sort(index.keys(identity))
    frontier = identity
    total = 1
    with limits.phase("build group", total=order):
        limits.advance(1)
        while len(frontier):
            # g * s is i -> s[g[i]]: index the generator by the row
            cand = np.concatenate([gens[k][frontier] for k in range(len(letters))])
            # order candidates by parent, then letter, so the BFS order is deterministic
            perm = np.arange(len(cand)).reshape(len(letters), len(frontier)).T.ravel()
            cand = cand[perm]
            keys = index.keys(cand)
            _, first = np.unique(keys, return_index=True)
            first.sort()
            cand, keys = cand[first], keys[first]
            fresh = ~np.isin(keys, seen)
            frontier = cand[fresh]
            if len(frontier):
                levels.append(frontier)
                seen = np.sort(np.concatenate([seen, keys[fresh]]))
                total += len(frontier)
                limits.advance(len(frontier))
                if total > order:
                    raise GeneratorsError(f"{network.spec}: BFS found more than the {order} elements of the group")
    elements = np.concatenate(levels)
    dist = np.concatenate([np.full(len(lv), d, dtype=np.int32) for d, lv in enumerate(levels)])
    n = len(elements)
    if len(seen) != n:
        raise GeneratorsError(f"{network.spec}: hash collision while building the group; report this")

    keys = index.keys(elements)
    sort = np.argsort(keys, kind="stable")
    cg = CayleyGraph(network, elements, dist,
                     right=np.empty((len(letters), n), dtype=np.int32),
                     left=np.empty((len(letters), n), dtype=np.int32),
                     inverse_letter=np.empty(len(letters), dtype=np.int32))
    cg._index, cg._sorted_keys, cg._sorted_pos = index, keys[sort], sort.astype(np.int64)
    if np.any(np.diff(cg._sorted_keys) == 0):
        raise GeneratorsError(f"{network.spec}: hash collision while building the group; report this")
    with limits.phase("multiplication tables", total=2 * len(letters)):
        for k in range(len(letters)):
            cg.right[k] = cg._lookup(gens[k][elements])  # g * s
            cg.left[k] = cg._lookup(elements[:, gens[k]])  # s * g: i -> g[s[i]]
            limits.advance(2)
    gen_index = cg.right[:, 0]
    for k in range(len(letters)):
        inv = np.nonzero(cg.right[:, gen_index[k]] == 0)[0]
        cg.inverse_letter[k] = inv[0]
    if n != order:
        raise GeneratorsError(f"{network.spec}: BFS found {n} elements but the group's order is {order}")
    if check_order and network.order is not None:
        with limits.phase("group order (SymPy)"):
            checked = sympy_order(network)
        if checked != n:
            raise GeneratorsError(f"{network.spec}: BFS found {n} elements but SymPy's order is {checked}")
    return cg


_CACHE: dict[tuple, CayleyGraph] = {}


def cached_cayley_graph(network: Network) -> CayleyGraph:
    """:func:`cayley_graph`, memoised on the spec and the generators (small networks only)."""
    key = (network.spec, tuple((s, network.generators[s]) for s in network.letters))
    if key not in _CACHE:
        cg = cayley_graph(network)
        if cg.order <= 50_000:
            _CACHE[key] = cg
        return cg
    return _CACHE[key]
