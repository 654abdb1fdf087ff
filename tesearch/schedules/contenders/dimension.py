"""The classic topology-aware all-to-all algorithms, in the superstep model: dimension order on tori, rotated
dimension exchange on hypercubes.

All of them send every block along one shortest word, the same from every node, one hop per superstep, the hops
of one superstep on one link bundled into one message (message combining); they differ in the words and the
supersteps.  Axes are those of :mod:`tesearch.schedules.contenders.axes` (the rings of a torus or hypercube, the letter
pairs of a twisted torus).

* :func:`dimension_ordered`: every block corrects its axes in the network's axis order, each on the shorter way
  round (the dimension-ordered words of ``tesearch compare``: e-cube words on a hypercube), hop ``j`` in
  superstep ``j`` (as soon as possible).  ``S`` = the diameter.
* :func:`dimension_orders_aligned`: the elements dealt in turn to ``orders`` axis orders (the axis order, its
  reverse, then its other rotations and their reverses), every word from superstep 0, so that each axis is
  crossed early by some blocks and late by others and all the orders end together in superstep ``D - 1``.
  (Right-aligning the odd orders, to end each word in ``D - 1``, was measured worse on torus-4x4x8: bundle
  sum 222 against 155.)
* :func:`dimension_orders_balanced`: the best form built here: every element may take any word grouped in any
  axis order (all ``axes!`` orders up to 4 axes, else the rotations of the axis order and their reverses; every
  shortest way round at an antipode), the letter counts balanced first, then words and supersteps chosen by the
  local search of :mod:`tesearch.schedules.contenders.greedy` over those words only.
* :func:`johnsson_ho`: hypercubes, the rotated dimension exchange: element ``x`` (its set ``D(x)`` of
  dimensions) is given a rotation class ``r``; its word takes ``D(x)`` in cyclic order from ``r``, the hop along
  dimension ``j`` in superstep ``(j - r) mod d`` (a block waits where its next dimension's turn has not come).
  :attr:`RotationClasses.NECKLACE`: ``x = rot^r(y)`` for the least rotation ``y`` of ``x`` (the classes follow
  the cyclic shifts); on prime ``d`` this gives ``B = 2^(d-1) + d - 1`` (70 on hypercube-7).
  :attr:`RotationClasses.BALANCED`: the classes chosen so that every superstep loads every dimension alike,
  which gives ``B = 2^(d-1)``, the floor: found by CP-SAT (1 worker, seeded, time limit; d = 2..8 in at most
  a few seconds); if CP-SAT answers nothing, a local search's classes are kept and the bundle sum says so.

References (checked: publishers' pages):

* S. L. Johnsson and C.-T. Ho, "Optimum broadcasting and personalized communication in hypercubes", IEEE
  Transactions on Computers 38(9):1249-1268, September 1989.  Their all-port personalized communication routes
  along rotated spanning binomial trees (dimension orders rotated per tree); the rotation classes here are that
  idea with one tree per block and the block's hops in the tree's supersteps.  The class balancing is ours.
* Y.-J. Suh and S. Yalamanchili, "All-to-all communication with minimum start-up costs in 2D/3D tori and
  meshes", IEEE Transactions on Parallel and Distributed Systems 9(5):442-458, May 1998: message combining,
  dimension by dimension, to cut start-ups to O(d) at the price of larger messages.  Here: combining hop by hop
  (one start-up per superstep, ``D`` in all) on any side lengths; their wormhole multi-hop phases are not
  modelled.
* Y.-C. Tseng, T.-H. Lin, S. K. S. Gupta and D. K. Panda, "Bandwidth-optimal complete exchange on
  wormhole-routed 2D/3D torus networks: a diagonal-propagation approach", IEEE Transactions on Parallel and
  Distributed Systems 8(4):380-396, April 1997: contention-free phases that keep every link of the bisection
  busy, with message combining.  The several aligned or balanced dimension orders here serve the same end (all
  links loaded alike in every superstep); the diagonal phases themselves are not reproduced.
"""

from __future__ import annotations

import enum
import itertools

import numpy as np

from tesearch.schedules.contenders.axes import Axes, grouped_words, network_axes
from tesearch.schedules.contenders.greedy import WordSearch
from tesearch.schedules.contenders.subject import Subject
from tesearch.running.errors import ConstructionError
from tesearch.schedules.execute.hops import HopSchedule

JOHNSSON_HO = ("S. L. Johnsson and C.-T. Ho, Optimum broadcasting and personalized communication in hypercubes, "
               "IEEE Trans. Computers 38(9):1249-1268, 1989")
SUH_YALAMANCHILI = ("Y.-J. Suh and S. Yalamanchili, All-to-all communication with minimum start-up costs in 2D/3D "
                    "tori and meshes, IEEE TPDS 9(5):442-458, 1998")
TSENG_ET_AL = ("Y.-C. Tseng, T.-H. Lin, S. K. S. Gupta and D. K. Panda, Bandwidth-optimal complete exchange on "
               "wormhole-routed 2D/3D torus networks: a diagonal-propagation approach, IEEE TPDS 8(4):380-396, 1997")


def _routes(subject: Subject, words, steps, name: str, provenance: dict) -> HopSchedule:
    return HopSchedule.from_routes(subject.graph, list(words), [tuple(s) for s in steps], name=name,
                                   provenance=provenance, numbering=subject.numbering)


def axis_orders(axes: Axes, count: int | None = None) -> list[tuple[int, ...]]:
    """Axis orders: the axis order, its reverse, then its other rotations each followed by its reverse (distinct
    ones only); the first ``count`` of them, or all ``axes!`` orders when ``count`` is None."""
    base = tuple(range(axes.count))
    if count is None:
        return list(itertools.permutations(base))
    out: list[tuple[int, ...]] = []
    for shift in range(axes.count):
        rotated = base[shift:] + base[:shift]
        for order in (rotated, rotated[::-1]):
            if order not in out:
                out.append(order)
    return out[:count]


def dimension_ordered(subject: Subject) -> HopSchedule:
    """Dimension-ordered (e-cube) words, hops as soon as possible (module doc)."""
    cg = subject.graph
    axes = network_axes(cg)
    order = tuple(range(axes.count))
    words = [found[0] for found in grouped_words(cg, axes, subject.facts.targets, order, cap=1)]
    return _routes(subject, words, [range(len(w)) for w in words], "dimension-ordered (e-cube) as soon as possible",
                   {"algorithm": "dimension-ordered words (axis order, shorter way round), hop j in superstep j",
                    "axis_order": list(order), "citation": SUH_YALAMANCHILI})


def dimension_orders_aligned(subject: Subject, orders: int = 2) -> HopSchedule:
    """The elements dealt in turn to ``orders`` axis orders, every word from superstep 0 (module doc)."""
    cg = subject.graph
    axes = network_axes(cg)
    chosen = axis_orders(axes, orders)
    if orders < 1 or len(chosen) < orders:
        raise ConstructionError(f"{subject.network.spec}: {orders} axis orders asked for, {len(chosen)} exist here")
    targets = subject.facts.targets
    per_order = [grouped_words(cg, axes, targets, order, cap=1) for order in chosen]
    words = [per_order[i % orders][i][0] for i in range(len(targets))]
    return _routes(subject, words, [range(len(w)) for w in words], f"{orders} dimension orders aligned", {
        "algorithm": "elements dealt in turn to axis orders, hop j in superstep j",
        "axis_orders": [list(o) for o in chosen],
        "citation": [SUH_YALAMANCHILI, TSENG_ET_AL]})


def dimension_orders_balanced(subject: Subject, *, seed: int = 0, passes: int = 300, patience: int = 40) -> HopSchedule:
    """Words grouped in any axis order, letter counts balanced, words and supersteps by local search (module doc)."""
    cg = subject.graph
    axes = network_axes(cg)
    targets = subject.facts.targets
    orders = axis_orders(axes, None if axes.count <= 4 else 2 * axes.count)
    per_order = [grouped_words(cg, axes, targets, order) for order in orders]
    pools = []
    for i in range(len(targets)):
        pools.append(list(dict.fromkeys(w for found in per_order for w in found[i])))
    search = WordSearch(subject, seed=seed, pools=pools, balance=True)
    report = search.run(passes=passes, patience=patience, target=subject.letter_bound)
    return search.schedule("dimension orders balanced", {
        "algorithm": "words grouped in any axis order, letter counts balanced, words and supersteps by local search",
        "axis_orders": len(orders), "seed": seed, "passes": passes, "patience": patience,
        "citation": [SUH_YALAMANCHILI, TSENG_ET_AL], **report})


class RotationClasses(str, enum.Enum):
    """How the rotated dimension exchange gives elements their rotation classes (module doc)."""

    NECKLACE = "necklace"  # x = rot^r(least rotation of x)
    BALANCED = "balanced"  # every superstep loads every dimension alike (CP-SAT from a local search)


def _dimensions(subject: Subject) -> list[int]:
    """The bit set of every target of a hypercube, as a mask over the letters (letter j = dimension j)."""
    cg = subject.graph
    network = subject.network
    if not network.factors or any(factor.order != 2 for factor in network.factors):
        raise ConstructionError(f"{network.spec}: the rotated dimension exchange applies to hypercubes (a product "
                                f"of rings of 2)")
    masks = []
    for found in grouped_words(cg, network_axes(cg), subject.facts.targets, tuple(range(cg.degree)), cap=1):
        masks.append(sum(1 << k for k in found[0]))
    return masks


def _rotated(mask: int, d: int, r: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    dims = sorted((j for j in range(d) if mask >> j & 1), key=lambda j: (j - r) % d)
    return tuple(dims), tuple((j - r) % d for j in dims)


def _necklace_class(mask: int, d: int) -> int:
    full = (1 << d) - 1
    rotations = [((mask << r) | (mask >> (d - r))) & full if r else mask for r in range(d)]  # rot^r(mask)
    least = min(rotations)
    return (d - rotations.index(least)) % d  # rot^r(least) = mask


def _loads(masks: list[int], classes: list[int], d: int) -> np.ndarray:
    load = np.zeros((d, d), dtype=np.int64)
    for mask, r in zip(masks, classes):
        dims, steps = _rotated(mask, d, r)
        load[list(steps), list(dims)] += 1
    return load


def _cpsat_classes(masks: list[int], d: int, seconds: float, seed: int) -> list[int] | None:
    """Classes with every dimension loaded alike in every superstep (B = 2^(d-1)), or None (no answer, or no
    OR-Tools)."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    model = cp_model.CpModel()
    choose = [[model.NewBoolVar(f"x{i}_{r}") for r in range(d)] for i in range(len(masks))]
    for row in choose:
        model.AddExactlyOne(row)
    level = [model.NewIntVar(0, len(masks), f"c{t}") for t in range(d)]
    for t in range(d):
        for j in range(d):
            model.Add(sum(choose[i][(j - t) % d] for i, mask in enumerate(masks) if mask >> j & 1) == level[t])
    model.Add(sum(level) == 1 << (d - 1))  # each dimension is crossed 2^(d-1) times in all
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(seconds)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = int(seed)
    if solver.Solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return [next(r for r, var in enumerate(row) if solver.Value(var)) for row in choose]


def _search_classes(masks: list[int], d: int, classes: list[int], seed: int, passes: int, patience: int) -> list[int]:
    """A local search over the classes for a small bundle sum (ties: the least sum of squared loads)."""
    random = np.random.default_rng(seed)
    options = [[_rotated(mask, d, r) for r in range(d)] for mask in masks]
    load = _loads(masks, classes, d)
    best, best_classes, stale = int(load.max(axis=1).sum()), list(classes), 0
    for _ in range(passes):
        if best <= 1 << (d - 1) or stale >= patience:
            break
        for i in random.permutation(len(masks)):
            dims, steps = options[i][classes[i]]
            load[list(steps), list(dims)] -= 1
            top = load.max(axis=1)
            cost = (np.where(load + 1 > top[:, None], 1 << 20, 0) + (load + 1) ** 2).astype(float)
            cost += 2.0 * (1 + stale) * random.random(load.shape)
            classes[i] = int(np.argmin([cost[list(s), list(w)].sum() for w, s in options[i]]))
            dims, steps = options[i][classes[i]]
            load[list(steps), list(dims)] += 1
        total = int(load.max(axis=1).sum())
        if total < best:
            best, best_classes, stale = total, list(classes), 0
        else:
            stale += 1
    return best_classes


def johnsson_ho(subject: Subject, classes: RotationClasses = RotationClasses.BALANCED, *, seed: int = 0,
                seconds: float = 60.0) -> HopSchedule:
    """The rotated dimension exchange on a hypercube (module doc)."""
    classes = RotationClasses(classes)
    d = subject.graph.degree
    masks = _dimensions(subject)
    chosen = [_necklace_class(mask, d) for mask in masks]
    how = "necklace classes (x = rot^r of its least rotation)"
    if classes is RotationClasses.BALANCED:
        exact = _cpsat_classes(masks, d, seconds, seed)
        if exact is not None:
            chosen, how = exact, "classes by CP-SAT (every dimension loaded alike in every superstep)"
        else:
            chosen = _search_classes(masks, d, chosen, seed, passes=300, patience=60)
            how = "classes by a local search (CP-SAT gave no answer or is not installed)"
    words, steps = zip(*(_rotated(mask, d, r) for mask, r in zip(masks, chosen)))
    return _routes(subject, words, steps, f"Johnsson-Ho rotated dimension exchange ({classes.value} classes)", {
        "algorithm": "rotated dimension exchange: class r, dimensions in cyclic order from r, dimension j in "
                     "superstep (j - r) mod d", "classes": how, "seed": seed, "citation": JOHNSSON_HO})
