"""The kernel's lower bounds on the width T of a table, derived without a solver.

* counting: every column holds at most |S| letters, so
  ``T >= ceil(sum of target distances / |S|)``;
* set bounds: a column holds each letter at most once, so for any set A of
  letters ``T * |A| >= sum over targets of the fewest A-letters on any
  shortest word`` (a dynamic programme over the BFS levels: the fewest
  A-letters of g is the least, over letters t with g*t^-1 one level closer,
  of that of g*t^-1 plus [t in A]).  Sets tried: every nonempty subset of the
  letters when |S| <= ALL_SUBSETS_DEGREE, otherwise the single letters, the
  inverse pairs, the axis groups (letters joined by inverse or by not
  commuting) and the complements of all of these;
* exact per-letter optimum: where every target's set of letter-count vectors
  is small and the choices left after the forced ones are few, the least
  possible count of the most-used letter is found by enumerating the reachable
  count vectors (pruned by an achievable greedy choice).  This witnesses, for
  example, ring-12:cyclic's 21 (the antipode's word is all a or all a').

Every bound says which derivation gave it (:attr:`KernelBounds.derivation`).

Imports: the standard library, numpy, tesearch.running.limits and the kernel's graph.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from tesearch.running import limits
from tesearch.checking.kernel.graph import RebuiltNetwork, inverse_letters

#: every nonempty subset of the letters is tried up to this degree
ALL_SUBSETS_DEGREE = 10
#: the exact per-letter enumeration runs on networks up to this order
MAX_ENUMERATION_ORDER = 2048
#: an element with more letter-count vectors than this stops the enumeration (estimate only)
MAX_VECTORS_PER_ELEMENT = 256
#: reachable count vectors kept at once during the enumeration before it gives up
MAX_REACHABLE = 50_000
#: the enumeration runs only where at most this many targets have a choice of letter-count vectors
MAX_CHOICE_ELEMENTS = 128


def ceil_div(a: int, b: int) -> int:
    """a / b rounded up (whole numbers, b > 0)."""
    return -(-a // b)


@dataclass(frozen=True)
class SetBound:
    """T >= ceil(letters of the set needed / size of the set), for one set of letters."""

    letters: tuple[str, ...]
    needed: int  # sum over targets of the fewest letters of the set on a shortest word
    value: int

    def text(self) -> str:
        """How the bound follows, in words."""
        return (f"letters {{{', '.join(self.letters)}}}: the targets need at least {self.needed} of them and a "
                f"column holds each at most once, so T >= ceil({self.needed} / {len(self.letters)}) = {self.value}")


@dataclass(frozen=True)
class KernelBounds:
    """Every bound the kernel derives and the best of them, with the derivation that gave it."""

    target_letters: int
    degree: int
    counting: int
    best_set: SetBound | None
    sets_tried: int
    exact_letter: int | None  # the exact per-letter optimum, where the enumeration ran
    achievable_letter: int | None  # a max letter count some choice of shortest words achieves
    enumeration: str  # what the enumeration did (or why it did not run)
    letter_minima: dict[str, int] = field(default_factory=dict)

    @property
    def singleport(self) -> int:
        """Single-port: one message per node per step, T >= the sum of target distances."""
        return self.target_letters

    @property
    def per_letter(self) -> int:
        """The kernel's per-letter bound: the best of counting, the set bounds and the exact optimum."""
        values = [self.counting]
        values += [self.best_set.value] if self.best_set is not None else []
        values += [self.exact_letter] if self.exact_letter is not None else []
        return max(values)

    @property
    def per_letter_exact(self) -> bool:
        """Whether the per-letter value is the exact min-max (a choice of words attains it)."""
        return self.achievable_letter is not None and max(self.achievable_letter, self.counting) == self.per_letter

    def refutes_letter_bound(self, recorded: object) -> bool:
        """Whether a table's recorded per-letter bound is false by this derivation alone: not an integer, below
        the per-letter bound derived here, or another value where that one is exact."""
        if not isinstance(recorded, int) or isinstance(recorded, bool):
            return True
        return recorded < self.per_letter or (self.per_letter_exact and recorded != self.per_letter)

    @property
    def best(self) -> int:
        """The best all-port lower bound the kernel derives."""
        return max(self.counting, self.per_letter)

    @property
    def binding(self) -> str:
        """Which bound binds: per-letter if it exceeds counting, else counting."""
        return "per-letter" if self.per_letter > self.counting else "counting"

    @property
    def derivation(self) -> str:
        """Which derivation gave the best bound, in words."""
        counting = (f"counting: {self.target_letters} letters in columns of {self.degree}: "
                    f"T >= {self.counting}")
        if self.best == self.counting:
            return counting
        if self.best_set is not None and self.best_set.value == self.best:
            return f"set bound, {self.best_set.text()} (best of {self.sets_tried} sets)"
        return f"exact per-letter optimum {self.exact_letter} ({self.enumeration})"

    def to_json(self) -> dict:
        """The bounds as a JSON object."""
        return {"counting": self.counting, "per_letter": self.per_letter, "per_letter_exact": self.per_letter_exact,
                "best": self.best, "binding": self.binding, "singleport": self.singleport,
                "set_bound": None if self.best_set is None else {
                    "letters": list(self.best_set.letters), "needed": self.best_set.needed,
                    "value": self.best_set.value},
                "sets_tried": self.sets_tried, "exact_letter": self.exact_letter,
                "achievable_letter": self.achievable_letter, "enumeration": self.enumeration,
                "derivation": self.derivation}


# ---------------------------------------------------------------- which sets of letters

def _commute(p: tuple[int, ...], q: tuple[int, ...]) -> bool:
    return all(q[p[i]] == p[q[i]] for i in range(len(p)))


def letter_sets(net: RebuiltNetwork, generators: list[tuple[int, ...]]) -> list[frozenset[int]]:
    """The sets of letter indices the set bounds try (see the module doc)."""
    degree = net.degree
    everything = frozenset(range(degree))
    if degree <= ALL_SUBSETS_DEGREE:
        return [frozenset(c) for r in range(1, degree + 1) for c in itertools.combinations(range(degree), r)]
    inverse = inverse_letters(generators)
    groups = {frozenset([k]) for k in range(degree)} | {frozenset([k, inverse[k]]) for k in range(degree)}
    # axis groups: components of "inverse of, or does not commute with"
    component = list(range(degree))

    def root(k: int) -> int:
        while component[k] != k:
            k = component[k]
        return k

    for a in range(degree):
        for b in range(a + 1, degree):
            if inverse[a] == b or not _commute(generators[a], generators[b]):
                component[root(a)] = root(b)
    axes: dict[int, set[int]] = {}
    for k in range(degree):
        axes.setdefault(root(k), set()).add(k)
    groups |= {frozenset(a) for a in axes.values()}
    groups |= {everything - g for g in groups if g != everything}
    return sorted(groups, key=lambda g: (len(g), sorted(g)))


def fewest_letters(net: RebuiltNetwork, generators: list[tuple[int, ...]], sets: list[frozenset[int]]) -> np.ndarray:
    """(N, len(sets)): for each element, the fewest letters of each set on any of its shortest words."""
    n, degree = net.order, net.degree
    limits.require_memory(3 * n * len(sets) * 4, "the kernel's set bounds")
    inverse = inverse_letters(generators)
    member = np.zeros((degree, len(sets)), dtype=np.int32)
    for j, s in enumerate(sets):
        member[list(s), j] = 1
    big = np.iinfo(np.int32).max // 2
    fewest = np.zeros((n, len(sets)), dtype=np.int32)
    starts = net.level_starts()
    for d in range(1, net.diameter + 1):
        a, b = starts[d], starts[d + 1]
        best = np.full((b - a, len(sets)), big, dtype=np.int32)
        for t in range(degree):
            pred = net.successor[inverse[t], a:b]
            cand = fewest[pred] + member[t]
            cand[net.depth[pred] != d - 1] = big
            np.minimum(best, cand, out=best)
        fewest[a:b] = best
    return fewest


#: memory the set bounds' dynamic programme may hold at once; the sets are taken in chunks that fit
SET_BOUNDS_MEMORY = 1 << 30


def set_needs(net: RebuiltNetwork, generators: list[tuple[int, ...]], sets: list[frozenset[int]],
              targets: np.ndarray) -> np.ndarray:
    """(len(sets),): the sum over ``targets`` of the fewest letters of each set on a shortest word.

    The same dynamic programme as :func:`fewest_letters`, over as many sets at a time as fit in
    ``SET_BOUNDS_MEMORY`` (star-10's 511 sets at once would need about 21 GiB)."""
    chunk = max(1, SET_BOUNDS_MEMORY // (3 * net.order * 4))
    needed = np.zeros(len(sets), dtype=np.int64)
    with limits.phase("the kernel's set bounds", total=-(-len(sets) // chunk)):
        for first in range(0, len(sets), chunk):
            part = fewest_letters(net, generators, sets[first:first + chunk])
            needed[first:first + chunk] = part[targets].sum(axis=0, dtype=np.int64)
            del part
            limits.advance()
    return needed


# ---------------------------------------------------------------- the exact per-letter optimum

def letter_vectors(net: RebuiltNetwork, generators: list[tuple[int, ...]]) -> list[frozenset] | None:
    """Every element's set of letter-count vectors over its shortest words; None past the caps."""
    inverse = inverse_letters(generators)
    degree = net.degree
    vectors: list[frozenset] = [frozenset([(0,) * degree])]
    depth = net.depth.tolist()
    successor = net.successor.tolist()
    for g in range(1, net.order):
        found = set()
        for t in range(degree):
            p = successor[inverse[t]][g]
            if depth[p] == depth[g] - 1:
                for v in vectors[p]:
                    found.add(v[:t] + (v[t] + 1,) + v[t + 1:])
        if len(found) > MAX_VECTORS_PER_ELEMENT:
            return None
        vectors.append(frozenset(found))
    return vectors


def _greedy(fixed: tuple[int, ...], choices: list[tuple[tuple[int, ...], ...]]) -> int:
    counts = list(fixed)
    for options in sorted(choices, key=lambda o: -sum(o[0])):
        pick = min(options, key=lambda v: (max(c + x for c, x in zip(counts, v)),
                                           sorted((c + x for c, x in zip(counts, v)), reverse=True)))
        counts = [c + x for c, x in zip(counts, pick)]
    return max(counts)


def _attainable(fixed: tuple[int, ...], choices: list[tuple[tuple[int, ...], ...]], level: int) -> int | None | bool:
    """The top count of a choice of words whose every letter count is <= level; None if none; False past the cap."""
    degree = len(fixed)
    ordered = sorted(choices, key=len)
    # rest[i][k]: the least count of letter k the choices from i on must still add
    rest = [[0] * degree for _ in range(len(ordered) + 1)]
    for i in range(len(ordered) - 1, -1, -1):
        rest[i] = [r + min(o[k] for o in ordered[i]) for k, r in enumerate(rest[i + 1])]
    reachable = {fixed} if all(f + r <= level for f, r in zip(fixed, rest[0])) else set()
    for i, options in enumerate(ordered):
        after = rest[i + 1]
        reachable = {w for v in reachable for o in options
                     for w in [tuple(c + x for c, x in zip(v, o))]
                     if all(c + r <= level for c, r in zip(w, after))}
        if len(reachable) > MAX_REACHABLE:
            return False
        if not reachable:
            return None
    return min(max(v) for v in reachable)


def exact_letter_optimum(vectors: list[frozenset], targets: np.ndarray, lower: int, counting: int
                         ) -> tuple[int | None, int | None, str]:
    """(exact min-max or None, an achievable max, what was done): min over word choices of the top letter count.

    ``lower`` is a lower bound on the min-max (the best set bound); the min-max only matters above
    ``counting``, so the levels tried are max(lower, counting), then upwards to the greedy choice's top.
    """
    degree = len(next(iter(vectors[0])))
    fixed = [0] * degree
    choices: list[tuple[tuple[int, ...], ...]] = []
    for g in targets.tolist():
        options = vectors[g]
        if len(options) == 1:
            fixed = [c + x for c, x in zip(fixed, next(iter(options)))]
        else:
            choices.append(tuple(sorted(options)))
    upper = _greedy(tuple(fixed), choices)
    what = f"{len(choices)} target(s) with a choice of letter counts, the rest forced"
    if upper <= lower:  # lower is a lower bound on the min-max itself
        return upper, upper, f"a greedy choice of words attains the set bound {upper}; {what}"
    if upper <= counting:  # the counting bound is at least the min-max: nothing to enumerate
        return None, upper, f"a greedy choice of words attains {upper} <= the counting bound; {what}"
    if len(choices) > MAX_CHOICE_ELEMENTS:
        return None, upper, f"not enumerated: more than {MAX_CHOICE_ELEMENTS} targets have a choice ({what})"
    for level in range(max(lower, counting), upper):
        top = _attainable(tuple(fixed), choices, level)
        if top is False:
            return None, upper, (f"enumeration stopped above {MAX_REACHABLE} reachable count vectors at level "
                                 f"{level}; {what}")
        if top is not None:
            if level == lower or top > counting:
                return top, top, f"enumerated the choices of letter counts: {top} is attainable, {what}"
            return None, top, f"enumerated: a choice of words attains {top} <= the counting bound; {what}"
    return upper, upper, f"enumerated every choice of letter counts below the greedy {upper}: none; {what}"


# ---------------------------------------------------------------- all together

def kernel_bounds(net: RebuiltNetwork, generators: list[tuple[int, ...]], is_target: np.ndarray) -> KernelBounds:
    """Counting, set and (where feasible) exact per-letter bounds for the targets ``is_target`` (a node mask)."""
    degree = net.degree
    targets = np.flatnonzero(is_target)
    total = int(net.depth[targets].sum())
    counting = ceil_div(total, degree)
    sets = letter_sets(net, generators)
    needed = set_needs(net, generators, sets, targets)
    best_set = None
    for s, need in zip(sets, needed.tolist()):
        bound = SetBound(tuple(net.letters[k] for k in sorted(s)), int(need), ceil_div(int(need), len(s)))
        if best_set is None or bound.value > best_set.value:
            best_set = bound
    singletons = {next(iter(s)): int(need) for s, need in zip(sets, needed.tolist()) if len(s) == 1}
    minima = {net.letters[k]: singletons[k] for k in sorted(singletons)}
    set_lower = best_set.value if best_set else 0
    exact = achievable = None
    if net.order > MAX_ENUMERATION_ORDER:
        enumeration = f"not run: the network has more than {MAX_ENUMERATION_ORDER} nodes"
    else:
        vectors = letter_vectors(net, generators)
        if vectors is None:
            enumeration = f"not run: some element has more than {MAX_VECTORS_PER_ELEMENT} letter-count vectors"
        else:
            exact, achievable, enumeration = exact_letter_optimum(vectors, targets, set_lower, counting)
    return KernelBounds(total, degree, counting, best_set, len(sets), exact, achievable, enumeration, minima)
