"""The kernel's check of word-choice bounds: how often the most-used letter must occur.

A *word choice* picks one shortest word for every target; its *load* on a letter is how often the
chosen words use it.  Every table is a word choice and holds each letter at most once per column, so
``T >= the least possible maximum load``.  A word-choice certificate states a lower bound L ("every
word choice has a load >= L") and may state an upper bound U ("this word choice has every load <=
U"); this module re-derives both from the generators alone, with exact integer arithmetic:

* **weights** (the dual of the flow LP): non-negative integers ``w_s`` and a denominator D with
  ``sum w_s <= D``.  For every word choice, ``max load >= sum_s (w_s / D) load_s = (1/D) sum over
  targets of the weight of its word >= (1/D) sum over targets of the least weight of any of its
  shortest words``.  That least weight is one dynamic programme over the BFS levels (the least of
  g is the least, over letters t whose predecessor g*t^-1 is one level closer, of the predecessor's
  least plus w_t), so ``L = ceil(that sum / D)``.  With every weight 1 and D = |S| this is the
  counting bound; with weight 1 on a set A and D = |A|, the set bound of A.
* **parity**: a set O of letters such that ``chi(g*s) = chi(g) + [s in O] (mod 2)`` holds for every
  node g and letter s, with ``chi(identity) = 0`` (chi is then a homomorphism onto Z/2, and every
  word of g has ``chi(g)`` letters of O, mod 2).  So every word choice puts ``X = sum over targets of
  chi``, mod 2, letters of O, and ``X`` is at least what the targets need of O and at most the total
  less what they need of the other letters.  If every load were at most ``level``, X would also lie
  in ``[total - level |S - O|, level |O|]``: when that interval holds no integer of X's parity, no
  word choice has every load <= level, and ``L = level + 1``.
* **words** (the upper side): one word per target, each a shortest word of its element (its length
  is the element's BFS depth), every target exactly once; U is the largest load.

Imports: the standard library, numpy and the kernel's graph and bounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from tesearch.checking.kernel.bounds import ceil_div, fewest_letters
from tesearch.checking.kernel.graph import RebuiltNetwork, inverse_letters


@dataclass(frozen=True)
class ChoiceCheck:
    """What the kernel re-derived for one side of a word-choice certificate: the value, or the faults."""

    value: int | None  # the bound established (None: nothing established)
    faults: tuple[str, ...]
    how: str  # in words, what was computed
    #: the other numbers computed on the way, (name, value): a certificate that states them is compared with these
    figures: tuple[tuple[str, object], ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the side holds (no fault)."""
        return not self.faults and self.value is not None


def least_weights(net: RebuiltNetwork, generators: Sequence[tuple[int, ...]], weights: Sequence[int]) -> np.ndarray:
    """(N,) int64: every node's least total letter weight over its shortest words (a DP over BFS levels)."""
    inverse = inverse_letters(generators)
    weight = np.asarray(weights, dtype=np.int64)
    big = np.iinfo(np.int64).max // 4
    least = np.zeros(net.order, dtype=np.int64)
    starts = net.level_starts()
    for d in range(1, net.diameter + 1):
        a, b = starts[d], starts[d + 1]
        best = np.full(b - a, big, dtype=np.int64)
        for t in range(net.degree):
            pred = net.successor[inverse[t], a:b]
            cand = least[pred] + weight[t]
            cand[net.depth[pred] != d - 1] = big
            np.minimum(best, cand, out=best)
        least[a:b] = best
    return least


def check_weights(net: RebuiltNetwork, generators: Sequence[tuple[int, ...]], is_target: np.ndarray,
                  weights: Sequence[int], denominator: int) -> ChoiceCheck:
    """The lower bound ceil(sum over targets of the least weight / denominator), if the weights are admissible."""
    faults = []
    if len(weights) != net.degree:
        faults.append(f"{len(weights)} weights for {net.degree} letters")
    if any(not isinstance(w, int) or isinstance(w, bool) or w < 0 for w in weights):
        faults.append("a weight is not a non-negative integer")
    if not isinstance(denominator, int) or isinstance(denominator, bool) or denominator <= 0:
        faults.append("the denominator is not a positive integer")
    elif not faults and sum(weights) > denominator:
        faults.append(f"the weights sum to {sum(weights)}, more than the denominator {denominator}")
    if faults:
        return ChoiceCheck(None, tuple(faults), "weights not admissible")
    need = int(least_weights(net, generators, weights)[is_target].sum(dtype=np.int64))
    return ChoiceCheck(ceil_div(need, denominator), (),
                       f"the targets' least weighted letters sum to {need} / {denominator}, so some letter is "
                       f"used at least {ceil_div(need, denominator)} times", (("need", need),))


def character(net: RebuiltNetwork, odd: frozenset[int]) -> np.ndarray | None:
    """chi over the nodes (0 or 1) with chi(g*s) = chi(g) + [s in odd] for every edge, or None if there is none."""
    chi = np.zeros(net.order, dtype=np.int8)
    flip = np.array([1 if k in odd else 0 for k in range(net.degree)], dtype=np.int8)
    starts = net.level_starts()
    for d in range(1, net.diameter + 1):  # along the BFS tree, level by level (a parent is one level closer)
        a, b = starts[d], starts[d + 1]
        chi[a:b] = chi[net.parent[a:b]] ^ flip[net.parent_letter[a:b]]
    for k in range(net.degree):
        if np.any(chi[net.successor[k]] != chi ^ flip[k]):
            return None
    return chi


def check_parity(net: RebuiltNetwork, generators: Sequence[tuple[int, ...]], is_target: np.ndarray,
                 odd_letters: Sequence[int], level: int) -> ChoiceCheck:
    """The lower bound level + 1, if the parity of the letters ``odd_letters`` rules out every load <= level."""
    odd = frozenset(odd_letters)
    if not odd or any(not 0 <= k < net.degree for k in odd) or len(odd) != len(odd_letters):
        return ChoiceCheck(None, ("the odd letters are not a non-empty set of distinct letters",), "no parity")
    if not isinstance(level, int) or isinstance(level, bool) or level < 0:
        return ChoiceCheck(None, ("the level is not a non-negative integer",), "no parity")
    chi = character(net, odd)
    names = ", ".join(net.letters[k] for k in sorted(odd))
    if chi is None:
        return ChoiceCheck(None, (f"counting the letters {{{names}}} mod 2 is not a homomorphism: some node is "
                                  f"reached by words of both parities",), "no parity")
    targets = np.flatnonzero(is_target)
    total = int(net.depth[targets].sum())
    parity = int(chi[targets].sum()) % 2
    even = frozenset(range(net.degree)) - odd
    sets = [odd] + ([even] if even else [])
    needs = fewest_letters(net, list(generators), sets)[targets].sum(axis=0).tolist()
    need_odd, need_even = int(needs[0]), int(needs[1]) if even else 0
    low = max(need_odd, total - level * len(even))
    high = min(level * len(odd), total - need_even)
    first = low + ((low - parity) % 2)  # the least integer >= low of the right parity
    if first <= high:
        return ChoiceCheck(None, (f"at level {level} the letters {{{names}}} can number {first} (parity {parity}, "
                                  f"between {low} and {high}): the parity rules nothing out",), "parity")
    return ChoiceCheck(level + 1, (), f"the letters {{{names}}} number {parity} mod 2 in every word choice; with every "
                                      f"load <= {level} they would number between {low} and {high}, none of that "
                                      f"parity, so some letter is used at least {level + 1} times",
                       (("parity", parity), ("interval", [low, high])))


def check_words(net: RebuiltNetwork, is_target: np.ndarray, words: Sequence[Sequence[int]]) -> ChoiceCheck:
    """The largest load of a word choice: every word shortest, every target exactly once."""
    faults = []
    seen = np.zeros(net.order, dtype=np.int64)
    loads = np.zeros(net.degree, dtype=np.int64)
    for i, word in enumerate(words):
        g = 0
        for k in word:
            g = int(net.successor[k, g])
        if len(word) != int(net.depth[g]):
            faults.append(f"word {i} has {len(word)} letters, its element is at distance {int(net.depth[g])}")
        elif not is_target[g]:
            faults.append(f"word {i} names an element that is not a target")
        seen[g] += 1
        loads += np.bincount(np.asarray(word, dtype=np.int64), minlength=net.degree)
        if len(faults) >= 10:
            break
    missing = int((is_target & (seen == 0)).sum())
    twice = int((seen > 1).sum())
    if missing:
        faults.append(f"{missing} target(s) have no word")
    if twice:
        faults.append(f"{twice} element(s) have more than one word")
    if faults:
        return ChoiceCheck(None, tuple(faults), "words")
    top = int(loads.max()) if net.degree else 0
    return ChoiceCheck(top, (), f"{len(words)} shortest words, one per target; letter loads "
                                f"{', '.join(f'{s} {int(c)}' for s, c in zip(net.letters, loads))}, the largest {top}",
                       (("loads", {s: int(c) for s, c in zip(net.letters, loads)}),))
