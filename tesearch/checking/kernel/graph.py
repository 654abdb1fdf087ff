"""The kernel's Cayley graph: rebuilt from the generators alone by one breadth-first search.

Nodes are numbered in BFS order from the identity permutation (node 0); node
``g``'s neighbour across letter ``s`` is ``g*s`` with ``(p*q)[i] = q[p[i]]``.
The successor table, the BFS tree and the depth (the distance from the
identity) come out of the same search.  The whole checking side (the kernel's
Theorem 1 and bounds, and every replay engine) uses this one BFS.

Imports: the standard library, numpy, tesearch.running.errors and tesearch.running.limits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from tesearch.running.errors import TesearchError

#: a permutation as its images, 0-based: the checking side's own (tesearch.networks.permutations holds the prover's)
Perm = tuple[int, ...]


#: Largest network the checking side rebuilds (the replay's streaming engine keeps N x |S| arrays).
MAX_REPLAY_NODES = 200_000
#: Largest network rebuilt for a Theorem-1 check alone (``tesearch verify --kernel``): star-10 (3628800 nodes)
#: and hypercube-22 fit
MAX_CHECK_NODES = 1 << 22


@dataclass(frozen=True)
class RebuiltNetwork:
    """The network rebuilt from generators alone: nodes by BFS from the identity permutation."""

    letters: tuple[str, ...]
    elements: tuple[Perm, ...]  # node index -> permutation (BFS order, 0 = identity)
    index: Mapping[Perm, int]
    successor: np.ndarray  # (S, N): successor[k, g] = index of g*s_k
    parent: np.ndarray  # (N,): BFS parent (-1 at the identity)
    parent_letter: np.ndarray  # (N,): letter with element = parent * letter
    depth: np.ndarray  # (N,): BFS depth = distance from the identity

    @property
    def order(self) -> int:
        """Number of nodes (the group order)."""
        return len(self.elements)

    @property
    def degree(self) -> int:
        """Number of generators."""
        return len(self.letters)

    @property
    def diameter(self) -> int:
        """The largest distance from the identity."""
        return int(self.depth.max())

    def level_starts(self) -> list[int]:
        """Node index where each BFS level begins (BFS order keeps levels contiguous), plus the order."""
        return np.searchsorted(self.depth, np.arange(self.diameter + 2)).tolist()

    def bfs_word(self, g: int) -> list[int]:
        """A shortest word of node g from the identity (letters as indices), by the BFS tree."""
        word = []
        while g != 0:
            word.append(int(self.parent_letter[g]))
            g = int(self.parent[g])
        return word[::-1]


def build_network(letters: Sequence[str], generators: Sequence[Perm], *, max_nodes: int = MAX_REPLAY_NODES,
                  where: str = "input", purpose: str = "the replay") -> RebuiltNetwork:
    """BFS from the identity permutation; node g -> g*s with (p*q)[i] = q[p[i]].

    Level by level: the products of a whole level with every generator are one numpy gather, and new
    elements are numbered in the order a node-by-node BFS (node g, then generators in order) meets them.
    """
    points = len(generators[0])
    dtype = np.uint8 if points <= 256 else np.uint16 if points <= 65536 else np.int64
    gens = np.array(generators, dtype=dtype)
    width = points * np.dtype(dtype).itemsize
    levels = [np.arange(points, dtype=dtype)[None, :]]
    key_index: dict[bytes, int] = {levels[0].tobytes(): 0}
    parent = [-1]
    parent_letter = [-1]
    depth = [0]
    succ_parts: list[np.ndarray] = []  # (level size, S) successor indices, level by level
    first, d = 0, 0
    while first < len(parent):
        frontier = levels[-1]
        size = len(frontier)
        products = gens[:, frontier]  # products[k, g, i] = s_k[p_g[i]]
        products = np.ascontiguousarray(products.transpose(1, 0, 2))  # node-major, then generator
        raw = products.tobytes()
        found_ids = np.empty(size * len(gens), dtype=np.int64)
        new_rows = []
        for c in range(size * len(gens)):
            key = raw[c * width:(c + 1) * width]
            j = key_index.get(key)
            if j is None:
                j = len(parent)
                if j >= max_nodes:
                    raise TesearchError(f"the network has more than {max_nodes} nodes; too large for {purpose}",
                                        where=where)
                key_index[key] = j
                g, k = divmod(c, len(gens))
                parent.append(first + g)
                parent_letter.append(k)
                depth.append(d + 1)
                new_rows.append(c)
            found_ids[c] = j
        succ_parts.append(found_ids.reshape(size, len(gens)))
        first += size
        d += 1
        if new_rows:
            levels.append(products.reshape(-1, points)[np.array(new_rows)])
        else:
            break
    all_elements = np.concatenate(levels)
    elements = tuple(tuple(row) for row in all_elements.tolist())
    index = {e: i for i, e in enumerate(elements)}
    successor = np.ascontiguousarray(np.concatenate(succ_parts).T, dtype=np.int64)
    return RebuiltNetwork(tuple(letters), elements, index, successor, np.array(parent), np.array(parent_letter),
                         np.array(depth, dtype=np.int64))


def inverse_letters(generators: Sequence[Perm]) -> tuple[int, ...]:
    """For each letter index, the index of the letter of its inverse permutation."""
    index = {p: k for k, p in enumerate(generators)}
    out = []
    for p in generators:
        inv = [0] * len(p)
        for i, x in enumerate(p):
            inv[x] = i
        if tuple(inv) not in index:
            raise TesearchError("the generators are not closed under inverses")
        out.append(index[tuple(inv)])
    return tuple(out)


def element_of(net: RebuiltNetwork, word: Sequence[int]) -> int:
    """The node a word (letter indices) names: start at the identity, follow each letter."""
    g = 0
    for k in word:
        g = int(net.successor[k, g])
    return g
