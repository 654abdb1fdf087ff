"""Placing routes in supersteps: the loads of a schedule being built, and the cheapest supersteps of one word.

Every builder of this package that chooses supersteps (the balanced map of a table's paths, the greedy, the
optimum's local search) works on one :class:`Loads`: a (supersteps, letters) count of the hops placed so far.
:func:`cheapest_supersteps` is the dynamic programme of the former ``tesearch.schedules.simulate.combine.balanced_map``, kept
to the operation (costs, ties, noise) so that the ported map is the same map: for a word ``s1 ... sk`` and the
current loads it returns supersteps ``p1 < ... < pk`` at which the word raises the bundle sum least (a hop that
raises its superstep's largest bundle costs a large constant), then puts it where the loads it makes are
smallest (the sum of their squares), with optional random noise to break ties.
"""

from __future__ import annotations

import numpy as np

#: the cost of a hop that raises its superstep's largest bundle (above any sum of squared loads here)
RAISE = 1 << 20


def cheapest_supersteps(load: np.ndarray, word: tuple[int, ...], noise: np.ndarray | None) -> list[int]:
    """Supersteps ``p1 < ... < pk`` for ``word``'s hops given ``load`` (supersteps x letters), by dynamic
    programming (module doc); ``noise`` (same shape as ``load``) is added to every cell's cost."""
    steps = load.shape[0]
    top = load.max(axis=1)
    cost = (np.where(load + 1 > top[:, None], RAISE, 0) + (load + 1) ** 2).astype(float)
    if noise is not None:
        cost += noise
    k = len(word)
    best = np.full((k, steps), np.inf)
    came = np.zeros((k, steps), dtype=np.int64)
    best[0, :] = cost[:, word[0]]
    for j in range(1, k):
        prefix = np.minimum.accumulate(best[j - 1])  # best over supersteps <= s
        where = np.zeros(steps, dtype=np.int64)
        for s in range(1, steps):
            where[s] = where[s - 1] if best[j - 1, where[s - 1]] <= best[j - 1, s] else s
        best[j, 1:] = prefix[:-1] + cost[1:, word[j]]
        came[j, 1:] = where[:-1]
    chosen = [int(np.argmin(best[k - 1]))]
    for j in range(k - 1, 0, -1):
        chosen.append(int(came[j, chosen[-1]]))
    return chosen[::-1]


def cost_rows(load: np.ndarray, noise: np.ndarray | None = None) -> list[list[float]]:
    """Per letter, per superstep: what one more hop costs there (the costs of :func:`cheapest_supersteps`)."""
    top = load.max(axis=1)
    cost = (np.where(load + 1 > top[:, None], RAISE, 0) + (load + 1) ** 2).astype(float)
    if noise is not None:
        cost += noise
    return cost.T.tolist()


def best_supersteps(rows: list[list[float]], word: tuple[int, ...]) -> tuple[float, list[int]]:
    """The least total of ``rows[letter][step]`` over increasing steps for ``word``'s hops, and those steps (the
    earliest on ties): :func:`cheapest_supersteps`'s programme in plain Python, for the short words and few
    supersteps here, where it is many times faster."""
    first = rows[word[0]]
    steps = len(first)
    best = list(first)
    back: list[list[int]] = []
    for letter in word[1:]:
        row = rows[letter]
        current = [float("inf")] * steps
        came = [0] * steps
        low, at = float("inf"), 0
        for s in range(1, steps):
            if best[s - 1] < low:
                low, at = best[s - 1], s - 1
            current[s] = low + row[s]
            came[s] = at
        back.append(came)
        best = current
    end = min(range(steps), key=best.__getitem__)
    chosen = [end]
    for came in reversed(back):
        chosen.append(came[chosen[-1]])
    return best[end], chosen[::-1]


def word_cost(load: np.ndarray, word: tuple[int, ...], steps: list[int] | tuple[int, ...]) -> float:
    """What :func:`cheapest_supersteps` charges for ``word`` at ``steps`` on ``load`` (without noise)."""
    top = load.max(axis=1)
    total = 0.0
    for s, letter in zip(steps, word):
        value = int(load[s, letter]) + 1
        total += (RAISE if value > top[s] else 0) + value * value
    return total


class Loads:
    """Hops per (superstep, letter) of the routes placed so far, and each route's word and supersteps."""

    def __init__(self, supersteps: int, letters: int, routes: int):
        self.load = np.zeros((max(supersteps, 1), letters), dtype=np.int64)
        self.words: list[tuple[int, ...]] = [()] * routes
        self.steps: list[list[int]] = [[] for _ in range(routes)]

    @property
    def bundle_sum(self) -> int:
        """The sum over supersteps of the largest load."""
        return int(self.load.max(axis=1).sum())

    @property
    def letter_counts(self) -> np.ndarray:
        """How often each letter occurs in the placed words."""
        return self.load.sum(axis=0)

    def place(self, route: int, word: tuple[int, ...], steps: list[int]) -> None:
        """Put route ``route`` with ``word`` at ``steps``."""
        self.words[route], self.steps[route] = tuple(word), list(steps)
        for s, letter in zip(steps, word):
            self.load[s, letter] += 1

    def unplace(self, route: int) -> None:
        """Take route ``route`` out (its word and steps stay recorded until placed again)."""
        for s, letter in zip(self.steps[route], self.words[route]):
            self.load[s, letter] -= 1

    def snapshot(self) -> tuple[list[tuple[int, ...]], list[list[int]]]:
        """A copy of every route's word and supersteps."""
        return list(self.words), [list(s) for s in self.steps]
