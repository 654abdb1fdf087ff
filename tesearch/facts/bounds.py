"""Lower bounds on the width T of a table, and which of them binds.

* counting (all-port): every column holds at most |S| letters, so
  ``T >= ceil(sum of target distances / |S|)``;
* per-letter: every column holds each letter at most once, so T is at least
  the count of the most-used letter, minimised over the choice of shortest
  words: ``T >= min over word choices of max_s count_s``.  It binds for
  mixed-radix tori (the bisection bound) and for even rings and tori under the
  cyclic group (the antipode's word is all a or all a');
* single-port: ``T >= sum of target distances`` (seed 000; the status for a
  total exchange), attained by node-invariant algorithms.

The per-letter value is computed exactly where it can be: a lower estimate
(each letter's own minimum, and the counting bound), an upper estimate from a
balanced choice of words, and, when they differ, the exact integer optimum by
Z3 over elements grouped by their sets of letter-count vectors.

Where the exact optimum is out of reach, the lower estimate includes the *letter-set bounds*: a
column holds each letter of a set A at most once, so ``T * |A| >= sum over targets of the fewest
A-letters on any shortest word`` (:func:`set_bound`; every nonempty subset of the letters up to
``SET_BOUND_ALL_SUBSETS`` letters, otherwise single letters, inverse pairs, axis groups and their
complements). On torus-28x30x30 the set {b, B, c, C} of the two long axes gives 94500, the
width of the mirror-lane table (docs/proofs/lanes.md), where the counting bound is 94080.

Star networks of any size get the exact value by a max flow
(:func:`star_letter_balance`): a shortest word of a permutation on the
transpositions ``(0 a)`` uses each moved point ``a != 0`` once, plus one more
copy of one point of each nontrivial cycle that avoids 0, and any point of
that cycle can be the doubled one (the word enters the cycle there and leaves
it there).  So the letter counts are a fixed part plus one free unit per such
cycle, and "every letter at most M" is a bipartite transportation problem:
cycles grouped by their point sets on one side, letters with capacity
``M - fixed`` on the other.  Max-flow integrality makes the flow test exact.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import networkx as nx
import numpy as np

from tesearch.running import limits
from tesearch.networks.groups import CayleyGraph
from tesearch.networks.families import TRANSPOSITION_STAR, has_trait
from tesearch.networks.rotation import Rotation
from tesearch.networks.words import shortest_words, targets
from tesearch.running.terms import Exchange

#: networks up to this order get the exact letter-count DP over all elements
PARIKH_LIMIT = 20_000
#: shortest words enumerated per exceptional element on the rotation route
EXCEPTIONAL_WORD_CAP = 2_000
#: Z3 time for the exact min-max (ms)
LETTER_ILP_TIMEOUT_MS = 20_000
#: the letter-set bounds try every nonempty subset of the letters up to this degree
SET_BOUND_ALL_SUBSETS = 6
#: memory the letter-set bounds' dynamic programme may hold at once (the sets are taken in chunks)
SET_BOUND_MEMORY = 1 << 28


@dataclass(frozen=True)
class LetterBound:
    """The per-letter bound: its value, whether it is exact, an achievable count, how it was found."""
    value: int  # a valid lower bound on T
    exact: bool  # value is the exact min-max (no better letter bound exists)
    upper: int | None  # an achievable max letter count, if one was found
    method: str


@dataclass(frozen=True)
class Bounds:
    """Every lower bound on T for one network and exchange."""
    target_letters: int  # sum of the targets' distances
    generators: int
    counting: int
    letter: LetterBound
    singleport: int

    @property
    def best(self) -> int:
        """The best all-port lower bound."""
        return max(self.counting, self.letter.value)

    @property
    def binding(self) -> str:
        """Which all-port bound binds: counting, per-letter, or both (equal)."""
        return "per-letter" if self.letter.value > self.counting else "counting"

    @property
    def blanks_at_best(self) -> int:
        """Blank cells a table at the best bound has."""
        return self.best * self.generators - self.target_letters

    def to_json(self) -> dict:
        """The bounds as one JSON object."""
        return {
            "target_letters": self.target_letters,
            "counting_bound": self.counting,
            "letter_bound": self.letter.value,
            "letter_bound_exact": self.letter.exact,
            "letter_bound_upper": self.letter.upper,
            "letter_bound_method": self.letter.method,
            "singleport_bound": self.singleport,
            "best": self.best,
            "binding": self.binding,
        }


def counting_bound(total_letters: int, generators: int) -> int:
    """ceil(total letters / generators): each column holds at most one of each letter."""
    return -(-total_letters // generators)


def min_letter_counts(cg: CayleyGraph) -> np.ndarray:
    """(N, |S|): each element's least possible count of each letter over its shortest words."""
    big = np.iinfo(np.int32).max // 2
    m = np.full((cg.order, cg.degree), big, dtype=np.int32)
    m[0] = 0
    starts = cg.level_starts
    for d in range(1, cg.diameter + 1):
        level = np.arange(starts[d], starts[d + 1])
        best = np.full((len(level), cg.degree), big, dtype=np.int32)
        for t in range(cg.degree):
            pred = cg.right[cg.inverse_letter[t], level]
            ok = cg.dist[pred] == d - 1
            cand = m[pred].copy()
            cand[:, t] += 1
            cand[~ok] = big
            np.minimum(best, cand, out=best)
        m[level] = best
    return m


@dataclass(frozen=True)
class LetterSetBound:
    """T >= ceil(needed / |letters|): the targets need ``needed`` letters of the set, a column holds each once."""
    letters: tuple[int, ...]  # letter indices
    needed: int  # sum over targets of the fewest letters of the set on a shortest word
    value: int


def _commuting(p: tuple[int, ...], q: tuple[int, ...]) -> bool:
    return all(p[q[i]] == q[p[i]] for i in range(len(p)))


def letter_sets(cg: CayleyGraph) -> list[tuple[int, ...]]:
    """The sets of letters :func:`set_bound` tries: every nonempty subset up to ``SET_BOUND_ALL_SUBSETS``
    letters; otherwise the single letters, the inverse pairs, the axis groups (letters joined by being
    inverses or by not commuting) and the complements of all of these."""
    degree = cg.degree
    if degree <= SET_BOUND_ALL_SUBSETS:
        return [tuple(k for k in range(degree) if mask >> k & 1) for mask in range(1, 1 << degree)]
    inverse = [int(i) for i in cg.inverse_letter]
    images = [tuple(cg.network.generators[s]) for s in cg.letters]
    sets = {frozenset([k]) for k in range(degree)} | {frozenset([k, inverse[k]]) for k in range(degree)}
    group = list(range(degree))  # union-find over "inverse of, or does not commute with"

    def find(k: int) -> int:
        while group[k] != k:
            k = group[k]
        return k

    for a in range(degree):
        for b in range(a + 1, degree):
            if inverse[a] == b or not _commuting(images[a], images[b]):
                group[find(a)] = find(b)
    axes: dict[int, set[int]] = defaultdict(set)
    for k in range(degree):
        axes[find(k)].add(k)
    sets |= {frozenset(members) for members in axes.values()}
    everything = frozenset(range(degree))
    sets |= {everything - s for s in sets if s != everything}
    return sorted((tuple(sorted(s)) for s in sets), key=lambda s: (len(s), s))


def set_needs(cg: CayleyGraph, target_set: np.ndarray, sets: list[tuple[int, ...]]) -> np.ndarray:
    """For each set of letters, the sum over the targets of the fewest letters of the set on a shortest word.

    One pass over the BFS levels per chunk of sets: the fewest of g is the least, over letters t whose
    predecessor g*t^-1 is one level closer, of that predecessor's fewest plus [t in the set]."""
    needs = np.zeros(len(sets), dtype=np.int64)
    chunk = max(1, SET_BOUND_MEMORY // (3 * 4 * cg.order))
    limits.require_memory(3 * 4 * cg.order * min(chunk, len(sets)), "the letter-set bounds")
    starts = cg.level_starts
    big = np.iinfo(np.int32).max // 2
    for first in range(0, len(sets), chunk):
        part = sets[first:first + chunk]
        member = np.zeros((cg.degree, len(part)), dtype=np.int32)
        for j, letters in enumerate(part):
            member[list(letters), j] = 1
        fewest = np.zeros((cg.order, len(part)), dtype=np.int32)
        for d in range(1, cg.diameter + 1):
            level = np.arange(starts[d], starts[d + 1])
            best = np.full((len(level), len(part)), big, dtype=np.int32)
            for t in range(cg.degree):
                pred = cg.right[cg.inverse_letter[t], level]
                cand = fewest[pred] + member[t]
                cand[cg.dist[pred] != d - 1] = big
                np.minimum(best, cand, out=best)
            fewest[level] = best
        needs[first:first + len(part)] = fewest[target_set].sum(axis=0, dtype=np.int64)
        del fewest
    return needs


def set_bound(cg: CayleyGraph, target_set: np.ndarray) -> LetterSetBound:
    """The best letter-set bound over :func:`letter_sets` (the module doc)."""
    sets = letter_sets(cg)
    best = None
    for letters, needed in zip(sets, set_needs(cg, target_set, sets).tolist()):
        bound = LetterSetBound(letters, int(needed), -(-int(needed) // len(letters)))
        if best is None or bound.value > best.value:
            best = bound
    return best


def letter_vectors(cg: CayleyGraph) -> list[frozenset[tuple[int, ...]]]:
    """Every element's set of letter-count vectors over its shortest words (exact DP)."""
    zero = (0,) * cg.degree
    vectors: list[frozenset] = [frozenset()] * cg.order
    vectors[0] = frozenset([zero])
    dist = cg.dist
    right = cg.right
    inv = cg.inverse_letter
    for g in range(1, cg.order):
        acc = set()
        for t in range(cg.degree):
            p = int(right[inv[t], g])
            if dist[p] == dist[g] - 1:
                for v in vectors[p]:
                    w = list(v)
                    w[t] += 1
                    acc.add(tuple(w))
        vectors[g] = frozenset(acc)
    return vectors


def _greedy_max(fixed: np.ndarray, choices: list[tuple[tuple[int, ...], ...]]) -> int:
    """Achievable max letter count: choose each multi-option element's vector greedily."""
    counts = fixed.astype(np.int64).copy()
    # big vectors first, so small ones can even out what is left
    for options in sorted(choices, key=lambda o: -sum(o[0])):
        best = min(options, key=lambda v: (int((counts + v).max()), tuple(sorted(counts + v, reverse=True))))
        counts += np.asarray(best)
    return int(counts.max())


def _exact_minmax(fixed: np.ndarray, choices: list[tuple[tuple[int, ...], ...]], lower: int, upper: int) -> int | None:
    """min over choices of max letter count, by Z3 over grouped elements; None if Z3 gives up."""
    import z3

    groups: dict[tuple, int] = defaultdict(int)
    for options in choices:
        groups[tuple(sorted(options))] += 1
    opt = z3.Optimize()
    opt.set("timeout", LETTER_ILP_TIMEOUT_MS)
    top = z3.Int("max_letter_count")
    totals = [z3.IntVal(int(fixed[k])) for k in range(len(fixed))]
    for j, (options, size) in enumerate(sorted(groups.items())):
        counts = [z3.Int(f"n_{j}_{i}") for i in range(len(options))]
        opt.add(*[c >= 0 for c in counts], z3.Sum(counts) == size)
        for k in range(len(fixed)):
            totals[k] = totals[k] + z3.Sum([c * v[k] for c, v in zip(counts, options) if v[k]] or [z3.IntVal(0)])
    opt.add(*[t <= top for t in totals], top >= lower, top <= upper)
    opt.minimize(top)
    if opt.check() != z3.sat:
        return None
    return opt.model().eval(top).as_long()


@dataclass(frozen=True)
class StarBalance:
    """A witness that star-n's targets have shortest words using each letter at most ``maximum`` times.

    ``fixed[k]``: targets that move point k+1 (each such word uses letter k once);
    ``free[mask]``: targets' nontrivial cycles avoiding point 0, by point set (bit a = point a);
    ``flow[(mask, k)]``: how many of the cycles with point set ``mask`` double letter k.
    The loads ``fixed[k] + sum over masks of flow[(mask, k)]`` are all at most ``maximum``,
    and the flow test found no such choice for ``maximum - 1`` (unless ``maximum`` is the
    lower estimate it started from).
    """
    maximum: int
    fixed: tuple[int, ...]
    free: dict[int, int]
    flow: dict[tuple[int, int], int]

    def loads(self) -> list[int]:
        """Each letter's count under the witnessed word choice."""
        out = list(self.fixed)
        for (_, k), units in self.flow.items():
            out[k] += units
        return out


def star_cycle_profile(elements: np.ndarray) -> tuple[np.ndarray, dict[int, int]]:
    """For permutations (rows of images) of the star's group: moved-point counts and free cycles.

    Returns ``fixed`` (per letter a = 1..n-1, how many rows move point a) and a count of the
    nontrivial cycles that avoid point 0, keyed by their point sets as bit masks.
    """
    n = elements.shape[1]
    rows = np.arange(len(elements))[:, None]
    current = np.broadcast_to(np.arange(n), elements.shape).copy()
    smallest = current.copy()
    for _ in range(n):
        current = elements[rows, current]
        np.minimum(smallest, current, out=smallest)
    moved = elements != np.arange(n)
    fixed = moved[:, 1:].sum(axis=0)
    free: dict[int, int] = {}
    for root in range(1, n):
        members = (smallest == root) & moved
        masks = (members.astype(np.int64) << np.arange(n)).sum(axis=1)
        values, counts = np.unique(masks[masks.astype(bool)], return_counts=True)
        for mask, count in zip(values.tolist(), counts.tolist()):
            free[mask] = free.get(mask, 0) + count
    return fixed.astype(np.int64), free


def _star_flow(fixed: np.ndarray, free: dict[int, int], maximum: int) -> dict[tuple[int, int], int] | None:
    """A flow doubling one letter per free cycle with every load <= maximum, or None."""
    if int(fixed.max(initial=0)) > maximum:
        return None
    net = nx.DiGraph()
    for mask, count in free.items():
        net.add_edge("source", ("cycle", mask), capacity=count)
        for point in range(1, mask.bit_length()):
            if mask >> point & 1:
                net.add_edge(("cycle", mask), ("letter", point - 1))
    for k, used in enumerate(fixed.tolist()):
        net.add_edge(("letter", k), "sink", capacity=maximum - used)
    if not free:
        return {}
    value, flows = nx.maximum_flow(net, "source", "sink")
    if value < sum(free.values()):
        return None
    return {(node[1], letter[1]): units for node, out in flows.items() if isinstance(node, tuple) and node[0] == "cycle"
            for letter, units in out.items() if units}


def star_letter_balance(elements: np.ndarray, lower: int) -> StarBalance:
    """The least M >= lower with a choice of shortest words using every letter at most M times.

    ``elements``: the targets' permutations of a star network.  Exact: the flow test decides
    each M (module doc); M grows from ``lower`` by doubling steps, then bisects.
    """
    fixed, free = star_cycle_profile(elements)
    low, high = lower, max(lower, 1)
    while _star_flow(fixed, free, high) is None:
        low, high = high + 1, high * 2
    while low < high:
        middle = (low + high) // 2
        if _star_flow(fixed, free, middle) is None:
            low = middle + 1
        else:
            high = middle
    return StarBalance(high, tuple(fixed.tolist()), free, _star_flow(fixed, free, high))


def star_words(cg: CayleyGraph, target_set: np.ndarray, balance: StarBalance) -> list[tuple[int, ...]]:
    """One shortest word per target with the loads of the max flow ``balance``.

    A target's word uses each moved point's letter once and, for each nontrivial cycle avoiding point 0, the
    letter of one of its points once more (the module doc); the flow says how many cycles of each
    point set double which letter.  Each target gets its letter counts from the flow, then a shortest word with
    exactly those counts, found backwards along the shortest-path DAG (a depth-first search; states that fail
    are remembered).  The kernel re-walks every word (the certificate's upper side)."""
    by_mask: dict[int, list[int]] = {}
    for (mask, k), units in balance.flow.items():
        by_mask.setdefault(mask, []).extend([k] * units)
    words = []
    for g in target_set.tolist():
        perm = cg.elements[g].tolist()
        counts = [0] * cg.degree
        seen = [False] * len(perm)
        for start in range(len(perm)):
            if seen[start] or perm[start] == start:
                seen[start] = True
                continue
            cycle, p = [], start
            while not seen[p]:
                seen[p] = True
                cycle.append(p)
                p = perm[p]
            for point in cycle:
                if point:
                    counts[point - 1] += 1
            if 0 not in cycle:
                mask = sum(1 << point for point in cycle)
                counts[by_mask[mask].pop()] += 1
        words.append(_word_with_counts(cg, g, counts))
    return words


def _word_with_counts(cg: CayleyGraph, g: int, counts: list[int]) -> tuple[int, ...]:
    """A shortest word of node ``g`` using letter k exactly ``counts[k]`` times (ValueError if none)."""
    failed: set[tuple[int, tuple[int, ...]]] = set()

    def back(node: int, need: list[int]) -> list[int] | None:
        if node == 0:
            return [] if not any(need) else None
        key = (node, tuple(need))
        if key in failed:
            return None
        depth = int(cg.dist[node])
        for t in range(cg.degree):
            if need[t] == 0:
                continue
            pred = int(cg.right[cg.inverse_letter[t], node])
            if int(cg.dist[pred]) != depth - 1:
                continue
            need[t] -= 1
            found = back(pred, need)
            need[t] += 1
            if found is not None:
                return found + [t]
        failed.add(key)
        return None

    if sum(counts) != int(cg.dist[g]):
        raise ValueError(f"letter counts {counts} do not add up to the distance of node {g}")
    word = back(g, list(counts))
    if word is None:
        raise ValueError(f"no shortest word of node {g} has the letter counts {counts}")  # pragma: no cover
    return tuple(word)


def letter_bound(cg: CayleyGraph, target_set: np.ndarray, rotation: Rotation | None = None) -> LetterBound:
    """The per-letter bound for a set of target elements (see the module doc)."""
    total = int(cg.dist[target_set].sum())
    counting = counting_bound(total, cg.degree)
    per_target = min_letter_counts(cg)[target_set]
    mins = per_target.sum(axis=0)
    lower = max(counting, int(mins.max()))
    if cg.order > PARIKH_LIMIT and (per_target.sum(axis=1) == cg.dist[target_set]).all():
        # the least counts add up to the distance, so every shortest word of a target has exactly
        # these letter counts: no choice of words changes the load (hypercubes, odd tori)
        return LetterBound(lower, True, lower, "letter counts forced (one letter-count vector per target)")

    if has_trait(cg.network, TRANSPOSITION_STAR):
        balance = star_letter_balance(cg.elements[target_set], lower)
        return LetterBound(balance.maximum, True, balance.maximum, "cycle-entry max flow (star)")
    sets = set_bound(cg, target_set)
    set_note = ""
    if sets.value > lower:
        lower = sets.value
        set_note = (f"; letter-set bound: the letters {{{', '.join(cg.letters[k] for k in sets.letters)}}} are "
                    f"needed {sets.needed} times")

    if cg.order <= PARIKH_LIMIT:
        vecs = letter_vectors(cg)
        option_sets = [vecs[int(g)] for g in target_set]
        fixed_part = np.zeros(cg.degree, dtype=np.int64)
        complete, method = True, "exact letter-count DP"
    elif rotation is not None:
        # full orbits placed as sigma-images of one word give each letter |w| per orbit
        full = target_set[rotation.orbit_size[target_set] == cg.degree]
        fixed_part = np.full(cg.degree, int(cg.dist[full].sum()) // cg.degree, dtype=np.int64)
        option_sets = []
        complete = True
        for g in rotation.exceptional(target_set):
            opts = set()
            for n, w in enumerate(shortest_words(cg, int(g), cap=EXCEPTIONAL_WORD_CAP + 1)):
                if n == EXCEPTIONAL_WORD_CAP:
                    complete = False
                    break
                opts.add(tuple(np.bincount(w, minlength=cg.degree).tolist()))
            option_sets.append(frozenset(opts))
        complete = False  # the full-orbit part was fixed, so the optimum is only an upper bound
        method = "rotation-symmetric word choice"
    else:
        return LetterBound(lower, False, None, "per-letter minima only" + set_note)

    fixed = fixed_part.copy()
    choices = []
    for opts in option_sets:
        if len(opts) == 1:
            fixed += np.asarray(next(iter(opts)))
        else:
            choices.append(tuple(sorted(opts)))
    upper = _greedy_max(fixed, choices)
    if upper <= lower:
        return LetterBound(lower, True, upper, method + set_note)
    if complete:
        exact = _exact_minmax(fixed, choices, lower, upper)
        if exact is not None:
            return LetterBound(exact, True, exact, method + " + Z3 optimum")
    return LetterBound(lower, False, upper, method + set_note)


def compute_bounds(cg: CayleyGraph, exchange: Exchange | str, rotation: Rotation | None = None) -> Bounds:
    """The counting, per-letter and single-port bounds of an exchange."""
    target_set = targets(cg, exchange)
    total = int(cg.dist[target_set].sum())
    return Bounds(
        target_letters=total,
        generators=cg.degree,
        counting=counting_bound(total, cg.degree),
        letter=letter_bound(cg, target_set, rotation),
        singleport=total,
    )
