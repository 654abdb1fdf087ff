"""The exact word-choice bound: the least possible count of the most-used letter over all word choices.

A *word choice* gives every target one shortest word; a table is one, with each letter at most once per
column, so ``T >= min over word choices of the largest letter load``.  The choice is a single-commodity
flow on the shortest-path DAG from the identity (an edge g -> g*s, labelled s, whenever g*s is one
step farther): the identity sends one unit to every target, and an integral flow decomposes into one
path, that is one shortest word, per target.  The load of letter s is the flow on its edges; minimise
z subject to every load <= z.

* **LP relaxation** (GLOP): ``ceil(LP optimum)`` is a lower bound.  Its dual is one weight per letter,
  ``mu_s >= 0`` with ``sum mu_s = 1``, and the dual objective is the sum over targets of the least
  mu-weight of a shortest word (the node potentials of the dual are those least weights).  The weights,
  made rational, are the certificate: :mod:`tesearch.checking.kernel.wordchoice` recomputes that sum exactly.
  Where the network has a rotation (a graph automorphism fixing the identity that permutes all the
  letters in one cycle), the LP optimum is attained at uniform weights (average any optimal mu over
  the rotation), so it is the counting bound's ``total / |S|`` and no model is built: the symmetry
  shrinks the model to nothing.
* **Integer optimum** (HiGHS through OR-Tools): the exact value when the solver proves it, else the
  best choice found.  The solver's optimality is not a certificate: the words it chose are (the upper
  side, re-checked by the kernel), and the lower side is certified by the weights, or by a **parity**
  argument: when counting a set O of letters mod 2 is a homomorphism onto Z/2 (the sign of a
  permutation, for instance), every word choice uses a fixed parity of O-letters, and with every load
  at most z their number would lie in an interval that may hold no integer of that parity
  (pancake-6: 3295 letters in 5 rows forces every load to 659 at z = 659, so the odd prefix
  reversals {2, 3, 6} would number 1977, odd, while every word choice uses an even number of them).
* Star networks get the integer optimum from the cycle-entry max flow of :mod:`tesearch.facts.bounds`
  (exact, integral) without a model.

Imports: numpy, the group, words, bounds and the instance; OR-Tools inside the solving functions.
"""

from __future__ import annotations

import contextlib
import enum
import os
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from tesearch.running import limits
from tesearch.facts.bounds import counting_bound, set_bound, set_needs, star_letter_balance, star_words
from tesearch.running.errors import SolverUnavailable
from tesearch.networks.groups import CayleyGraph
from tesearch.facts.instance import Instance
from tesearch.networks.families import TRANSPOSITION_STAR, has_trait

#: the LP is built for networks whose shortest-path DAG has at most this many edges
MAX_LP_EDGES = 2_000_000
#: the integer model is built for networks whose DAG has at most this many edges
MAX_MILP_EDGES = 300_000
#: memory one DAG edge of a model costs, estimated (the solver's copy and OR-Tools' Python objects)
MODEL_BYTES_PER_EDGE = 1_200
#: characters (letter sets counted mod 2) are enumerated for networks with at most this many letters
MAX_CHARACTER_LETTERS = 16
#: star networks list the max flow's words (the certificate's upper side) up to this many targets (star-8)
MAX_STAR_WORD_TARGETS = 40_319
#: the denominators tried when the LP's weights are made rational (the best exact bound is kept)
DENOMINATORS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 24, 60, 120, 720, 5040, 10 ** 6)


class Solved(str, enum.Enum):
    """What a solver run said (three-valued, plus the cases where no model was run)."""

    OPTIMAL = "optimal"  # the solver proved its value optimal (a solver's claim, not a certificate)
    FEASIBLE = "feasible"  # a solution, not proved optimal (a time limit)
    UNKNOWN = "unknown"  # nothing found within the limit
    SYMMETRY = "symmetry"  # decided by the rotation without a model
    MAX_FLOW = "max-flow"  # the star networks' exact max flow
    NOT_RUN = "not run"  # too large, or not asked for


@dataclass(frozen=True)
class Weights:
    """Letter weights w_s / D with sum w_s <= D: every word choice has a load >= need / D."""

    denominator: int
    weights: tuple[int, ...]
    need: int  # the sum over targets of the least weight of a shortest word (in units of 1 / D)

    @property
    def value(self) -> Fraction:
        """The bound before rounding up."""
        return Fraction(self.need, self.denominator)

    @property
    def bound(self) -> int:
        """The lower bound: some letter is used at least this often in every word choice."""
        return -(-self.need // self.denominator)


@dataclass(frozen=True)
class Parity:
    """Counting the letters ``odd`` mod 2 is a homomorphism, and rules out every load <= ``level``."""

    odd: tuple[int, ...]
    level: int
    parity: int  # the number of odd letters every word choice uses, mod 2
    interval: tuple[int, int]  # where their number would lie with every load <= level

    @property
    def bound(self) -> int:
        """The lower bound: level + 1."""
        return self.level + 1


@dataclass
class WordChoice:
    """The word-choice bound of one network and exchange: the LP, the integer optimum and their evidence."""

    spec: str
    exchange: str
    letters: tuple[str, ...]
    order: int
    targets: int
    target_letters: int
    counting: int
    lp: Fraction | float | None  # the LP optimum (exact under the rotation, else GLOP's floating point)
    lp_how: str
    weights: Weights | None  # the certified lower side from the LP dual
    integer: Solved
    integer_value: int | None  # the best integral maximum load found
    integer_dual: float | None  # the solver's own lower bound on it (not a certificate)
    integer_how: str
    parity: Parity | None = None
    words: list[tuple[int, ...]] | None = None  # the integral choice (letter indices), one per target
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def lower(self) -> int:
        """The certified lower bound (weights, parity, counting)."""
        values = [self.counting]
        values += [self.weights.bound] if self.weights else []
        values += [self.parity.bound] if self.parity else []
        return max(values)

    @property
    def loads(self) -> tuple[int, ...] | None:
        """The letter loads of the integral choice."""
        if self.words is None:
            return None
        counts = np.zeros(len(self.letters), dtype=np.int64)
        for w in self.words:
            counts += np.bincount(np.asarray(w, dtype=np.int64), minlength=len(self.letters))
        return tuple(int(c) for c in counts)

    @property
    def upper(self) -> int | None:
        """The largest load of a word choice found (the words' own, or the max flow's)."""
        loads = self.loads
        return max(loads) if loads else self.integer_value

    @property
    def exact(self) -> bool:
        """Whether the certified lower bound meets a listed word choice (the certificate's upper side, which the
        kernel walks): the word-choice optimum is proved.  A value without its words (a max flow too large to list)
        is no proof."""
        return self.words is not None and self.upper == self.lower

    def to_json(self) -> dict:
        """The result as one JSON object (words left out: the certificate holds them)."""
        return {
            "network": self.spec, "exchange": self.exchange, "letters": list(self.letters), "nodes": self.order,
            "targets": self.targets, "target_letters": self.target_letters, "counting_bound": self.counting,
            "lp": None if self.lp is None else float(self.lp), "lp_how": self.lp_how,
            "weights": None if self.weights is None else {
                "denominator": self.weights.denominator, "weights": list(self.weights.weights),
                "need": self.weights.need, "bound": self.weights.bound},
            "parity": None if self.parity is None else {
                "odd_letters": [self.letters[k] for k in self.parity.odd], "level": self.parity.level,
                "parity": self.parity.parity, "interval": list(self.parity.interval), "bound": self.parity.bound},
            "integer": self.integer.value, "integer_value": self.integer_value, "integer_dual": self.integer_dual,
            "integer_how": self.integer_how, "loads": None if self.loads is None else list(self.loads),
            "lower": self.lower, "upper": self.upper, "exact": self.exact, "seconds": round(self.seconds, 2),
            "notes": list(self.notes),
        }

    def text(self) -> str:
        """The result for a terminal."""
        lines = [f"network        {self.spec} ({self.exchange}), {self.order} nodes, {self.targets} targets, "
                 f"{self.target_letters} letters in {len(self.letters)} rows",
                 f"counting       {self.counting}"]
        if self.lp is None:
            lines.append(f"LP             not solved: {self.lp_how}")
        else:
            lines.append(f"LP             {float(self.lp):.6f} ({self.lp_how})")
        if self.weights is not None:
            w = ", ".join(f"{s} {x}" for s, x in zip(self.letters, self.weights.weights) if x)
            lines.append(f"LP dual        weights {w} over {self.weights.denominator}: every word choice uses some "
                         f"letter >= {self.weights.value} times, so >= {self.weights.bound} (certificate)")
        if self.parity is not None:
            odd = ", ".join(self.letters[k] for k in self.parity.odd)
            lines.append(f"parity         the letters {{{odd}}} number {self.parity.parity} mod 2 in every word choice; "
                         f"at most {self.parity.level} per letter puts them in {list(self.parity.interval)}, no "
                         f"such number: >= {self.parity.bound} (certificate)")
        integer = {Solved.OPTIMAL: f"{self.integer_value}, proved optimal by the solver (not a certificate)",
                   Solved.FEASIBLE: f"{self.integer_value} found, solver bound {self.integer_dual} (time limit)",
                   Solved.MAX_FLOW: f"{self.integer_value} (exact: an integral max flow)",
                   }.get(self.integer, self.integer.value)
        lines.append(f"integer        {integer}; {self.integer_how}")
        if self.loads is not None:
            lines.append("loads          " + ", ".join(f"{s} {c}" for s, c in zip(self.letters, self.loads)))
        lines += [f"note           {n}" for n in self.notes]
        upper = "-" if self.upper is None else str(self.upper)
        listed = "" if self.words is not None or self.upper is None else " (its words not listed: not certified)"
        verdict = (f"EXACT: the least possible most-used letter count is {self.lower}" if self.exact else
                   f"between {self.lower} and {upper}{listed}")
        lines.append(f"word choice    certified lower bound {self.lower}, best choice {upper}: {verdict}")
        return "\n".join(lines)


# ---------------------------------------------------------------- the DAG and exact weights

@dataclass(frozen=True)
class ShortestPathDag:
    """The edges g -> g*s of the Cayley graph that go one step farther from the identity."""

    tail: np.ndarray  # (E,) the nearer node
    head: np.ndarray  # (E,) the farther node
    letter: np.ndarray  # (E,) the letter index

    @property
    def edges(self) -> int:
        """How many edges."""
        return len(self.tail)


def shortest_path_dag(cg: CayleyGraph) -> ShortestPathDag:
    """Every edge of the shortest-path DAG from the identity, letter by letter."""
    tails, heads, letters = [], [], []
    for s in range(cg.degree):
        head = cg.right[s]
        tail = np.flatnonzero(cg.dist[head] == cg.dist + 1)
        tails.append(tail)
        heads.append(head[tail])
        letters.append(np.full(len(tail), s, dtype=np.int64))
    return ShortestPathDag(np.concatenate(tails), np.concatenate(heads), np.concatenate(letters))


def least_weight_need(cg: CayleyGraph, target_set: np.ndarray, weights) -> int:
    """The sum over targets of the least total weight (integers) of a shortest word."""
    return int(least_word_weights(cg, weights)[target_set].sum(dtype=np.int64))


def least_word_weights(cg: CayleyGraph, weights) -> np.ndarray:
    """Per element, the least total weight (integers) of a shortest word, by a DP over the levels."""
    weight = np.asarray(weights, dtype=np.int64)
    big = np.iinfo(np.int64).max // 4
    least = np.zeros(cg.order, dtype=np.int64)
    starts = cg.level_starts
    for d in range(1, cg.diameter + 1):
        level = np.arange(starts[d], starts[d + 1])
        best = np.full(len(level), big, dtype=np.int64)
        for t in range(cg.degree):
            pred = cg.right[cg.inverse_letter[t], level]
            cand = least[pred] + weight[t]
            cand[cg.dist[pred] != d - 1] = big
            np.minimum(best, cand, out=best)
        least[level] = best
    return least


def exact_weights(cg: CayleyGraph, target_set: np.ndarray, mu) -> Weights:
    """The best certificate among rational roundings of the weights ``mu`` (floats, summing to about 1)."""
    mu = np.clip(np.asarray(mu, dtype=float), 0.0, None)
    if mu.sum() <= 0:
        mu = np.ones(cg.degree)
    mu = mu / mu.sum()
    best = None
    for d in DENOMINATORS:
        w = [Fraction(float(x)).limit_denominator(d) for x in mu]
        den = int(np.lcm.reduce([f.denominator for f in w])) if w else 1
        ints = [int(f * den) for f in w]
        total = sum(ints)
        if total == 0:
            continue
        # sum w <= D: take D = the sum itself (weights renormalised exactly)
        candidate = Weights(total, tuple(ints), least_weight_need(cg, target_set, ints))
        if best is None or candidate.value > best.value:
            best = candidate
    return best


def uniform_weights(cg: CayleyGraph, target_set: np.ndarray) -> Weights:
    """Every letter weight 1 over |S|: the counting bound."""
    ones = (1,) * cg.degree
    return Weights(cg.degree, ones, int(cg.dist[target_set].sum()))


# ---------------------------------------------------------------- parity

def characters(cg: CayleyGraph) -> list[tuple[int, ...]]:
    """Every non-empty set O of letters whose count mod 2 is a homomorphism of the group onto Z/2.

    Along the BFS tree every node gets the parity vector of its tree word (bit s: letter s's count mod 2);
    an edge g -> g*s then asks chi(tree(g)) + chi(s) = chi(tree(g*s)), one linear equation over GF(2) in
    the letters' values.  The characters are the non-zero solutions."""
    parent_letter = np.full(cg.order, -1, dtype=np.int64)
    vector = np.zeros(cg.order, dtype=np.int64)
    starts = cg.level_starts
    for d in range(1, cg.diameter + 1):
        level = np.arange(starts[d], starts[d + 1])
        for t in range(cg.degree):
            pred = cg.right[cg.inverse_letter[t], level]
            fresh = (cg.dist[pred] == d - 1) & (parent_letter[level] < 0)
            parent_letter[level[fresh]] = t
            vector[level[fresh]] = vector[pred[fresh]] ^ (1 << t)
    equations = set()
    for t in range(cg.degree):
        equations.update(np.unique(vector ^ (1 << t) ^ vector[cg.right[t]]).tolist())
    equations.discard(0)
    basis: dict[int, int] = {}  # pivot bit -> row (reduced)
    for eq in equations:
        for bit, row in basis.items():
            if eq >> bit & 1:
                eq ^= row
        if eq:
            pivot = eq.bit_length() - 1
            for bit in list(basis):
                if basis[bit] >> pivot & 1:
                    basis[bit] ^= eq
            basis[pivot] = eq
    if cg.degree > MAX_CHARACTER_LETTERS:
        return []
    found = []
    for mask in range(1, 1 << cg.degree):
        if all(bin(mask & row).count("1") % 2 == 0 for row in basis.values()):
            found.append(tuple(k for k in range(cg.degree) if mask >> k & 1))
    return found


def parity_cut(cg: CayleyGraph, target_set: np.ndarray, odd: tuple[int, ...], level: int) -> Parity | None:
    """The parity argument of the module doc at ``level`` for the character ``odd``, or None if it rules nothing out."""
    total = int(cg.dist[target_set].sum())
    even = tuple(k for k in range(cg.degree) if k not in odd)
    parity = 0
    vec = np.zeros(cg.order, dtype=np.int8)  # chi along any shortest word (a character: the word does not matter)
    starts = cg.level_starts
    flip = np.zeros(cg.degree, dtype=np.int8)
    flip[list(odd)] = 1
    for d in range(1, cg.diameter + 1):
        level_nodes = np.arange(starts[d], starts[d + 1])
        for t in range(cg.degree):
            pred = cg.right[cg.inverse_letter[t], level_nodes]
            ok = cg.dist[pred] == d - 1
            vec[level_nodes[ok]] = vec[pred[ok]] ^ flip[t]
    parity = int(vec[target_set].sum()) % 2
    sets = [odd] + ([even] if even else [])
    needs = set_needs(cg, target_set, sets).tolist()
    need_odd, need_even = int(needs[0]), int(needs[1]) if even else 0
    low = max(need_odd, total - level * len(even))
    high = min(level * len(odd), total - need_even)
    first = low + ((low - parity) % 2)
    return None if first <= high else Parity(odd, level, parity, (low, high))


def best_parity(cg: CayleyGraph, target_set: np.ndarray, start: int) -> Parity | None:
    """The strongest parity cut at levels >= start over every character (None: none rules ``start`` out).

    A cut at a level rules out every lower level too (the interval only shrinks), so each character is
    tried from ``start`` upwards until it rules a level no longer out."""
    best = None
    for odd in characters(cg):
        level = start
        cut = None
        while True:
            found = parity_cut(cg, target_set, odd, level)
            if found is None:
                break
            cut, level = found, level + 1
        if cut is not None and (best is None or cut.bound > best.bound):
            best = cut
    return best


# ---------------------------------------------------------------- the models

def _model_builder():
    try:
        from ortools.linear_solver.python import model_builder
    except ImportError:
        raise SolverUnavailable("the word-choice bound needs OR-Tools (GLOP, HiGHS): pip install 'tesearch[cpsat]' "
                                "(or pip install ortools)") from None
    return model_builder


@contextlib.contextmanager
def _quiet_native_output():
    """Send what native solver code writes to the process's stdout (HiGHS's banner) to /dev/null meanwhile."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _flow_model(cg: CayleyGraph, dag: ShortestPathDag, target_set: np.ndarray, integer: bool):
    """The flow model of the module doc: (model, flow variables, the load constraints)."""
    mb = _model_builder()
    model = mb.Model()
    demand = np.zeros(cg.order, dtype=np.int64)
    demand[target_set] = 1
    flows = [model.new_var(0, len(target_set), integer, None) for _ in range(dag.edges)]
    z = model.new_var(0, len(target_set) * cg.diameter, integer, "z")
    incoming: list[list] = [[] for _ in range(cg.order)]
    outgoing: list[list] = [[] for _ in range(cg.order)]
    for e, (u, v) in enumerate(zip(dag.tail.tolist(), dag.head.tolist())):
        incoming[v].append(flows[e])
        outgoing[u].append(flows[e])
    for g in range(1, cg.order):
        model.add(mb.LinearExpr.sum(incoming[g]) - mb.LinearExpr.sum(outgoing[g]) == int(demand[g]))
    loads = [model.add(mb.LinearExpr.sum([flows[e] for e in np.flatnonzero(dag.letter == s).tolist()]) - z <= 0)
             for s in range(cg.degree)]
    model.minimize(z)
    return model, flows, loads


def _solve(name: str, model, budget: limits.Budget):
    mb = _model_builder()
    solver = mb.Solver(name)
    timeout = budget.call_timeout()
    if timeout is not None:
        solver.set_time_limit_in_seconds(max(0.1, timeout))
    with _quiet_native_output():
        status = solver.solve(model)
    return solver, status, mb.SolveStatus


def solve_lp(cg: CayleyGraph, dag: ShortestPathDag, target_set: np.ndarray, budget: limits.Budget
             ) -> tuple[float | None, list[float] | None, str]:
    """GLOP on the LP relaxation: (optimum, the load rows' duals as letter weights, what happened)."""
    limits.require_memory(dag.edges * MODEL_BYTES_PER_EDGE, "the word-choice LP")
    model, _, loads = _flow_model(cg, dag, target_set, integer=False)
    solver, status, states = _solve("glop", model, budget)
    if status != states.OPTIMAL:
        return None, None, f"GLOP stopped without an optimum ({status.name})"
    return solver.objective_value, [-solver.dual_value(row) for row in loads], \
        f"GLOP on the flow LP, {dag.edges} edges, {cg.order} nodes"


def solve_integer(cg: CayleyGraph, dag: ShortestPathDag, target_set: np.ndarray, budget: limits.Budget
                  ) -> tuple[Solved, list[tuple[int, ...]] | None, float | None, str]:
    """HiGHS on the integer model: (status, the words of the best choice, the solver's bound, what happened)."""
    limits.require_memory(dag.edges * MODEL_BYTES_PER_EDGE, "the word-choice integer model")
    model, flows, _ = _flow_model(cg, dag, target_set, integer=True)
    solver, status, states = _solve("highs", model, budget)
    if status not in (states.OPTIMAL, states.FEASIBLE):
        return Solved.UNKNOWN, None, None, f"HiGHS: no integral choice within the time ({status.name})"
    values = np.rint([solver.value(f) for f in flows]).astype(np.int64)
    words = decompose(cg, dag, target_set, values)
    solved = Solved.OPTIMAL if status == states.OPTIMAL else Solved.FEASIBLE
    return solved, words, solver.best_objective_bound, f"HiGHS on the flow model, {dag.edges} edges"


def decompose(cg: CayleyGraph, dag: ShortestPathDag, target_set: np.ndarray, flow: np.ndarray
              ) -> list[tuple[int, ...]]:
    """One shortest word per target from an integral flow: walk back from each target along edges with flow left."""
    flow = flow.copy()
    order = np.argsort(dag.head, kind="stable")
    first = np.searchsorted(dag.head[order], np.arange(cg.order + 1))
    words = []
    for t in target_set.tolist():
        word, v = [], t
        while v != 0:
            incoming = order[first[v]:first[v + 1]]
            live = incoming[flow[incoming] > 0]
            if len(live) == 0:
                raise ValueError(f"the flow does not reach target {t}")  # pragma: no cover - conservation
            e = int(live[0])
            flow[e] -= 1
            word.append(int(dag.letter[e]))
            v = int(dag.tail[e])
        words.append(tuple(reversed(word)))
    return words


# ---------------------------------------------------------------- all together

def dual_letter_weights(facts: Instance) -> tuple[int, ...]:
    """Integer letter weights of the best word-choice bound (the LP's dual, made exact; the counting bound's
    uniform weights when the LP is not run): what every column can hold least of, weighted."""
    weights = word_choice(facts, integer=False).weights
    return tuple(weights.weights) if weights is not None else (1,) * facts.cg.degree


def word_choice(facts: Instance, budget: limits.Budget | None = None, *, integer: bool = True,
                symmetry: bool = True) -> WordChoice:
    """The word-choice bound of ``facts`` (module doc): LP, certificate weights, integer optimum, parity."""
    started = time.monotonic()
    budget = budget or limits.Budget.current()
    cg, target_set = facts.cg, facts.targets
    total = int(cg.dist[target_set].sum())
    counting = counting_bound(total, cg.degree)
    notes = []
    with limits.phase("word-choice: shortest-path DAG"):
        dag = shortest_path_dag(cg)
    star = has_trait(cg.network, TRANSPOSITION_STAR)
    with limits.phase("word-choice: LP relaxation"):
        if symmetry and facts.rotation is not None:
            weights = uniform_weights(cg, target_set)
            lp, lp_how = Fraction(total, cg.degree), (f"exact: the rotation {facts.rotation} permutes every letter, so "
                                                      f"uniform weights are LP-optimal (total / |S|); no model built")
        elif dag.edges > MAX_LP_EDGES:
            weights, lp = None, None
            lp_how = f"the DAG has {dag.edges} edges, more than {MAX_LP_EDGES}"
        else:
            lp, mu, lp_how = solve_lp(cg, dag, target_set, budget.part(fraction=0.5))
            weights = exact_weights(cg, target_set, mu) if mu is not None else None
        sets = set_bound(cg, target_set)  # the set bounds are weights too: keep the better certificate
        candidates = [w for w in (weights, uniform_weights(cg, target_set)) if w is not None]
        candidates.append(Weights(len(sets.letters), tuple(int(k in sets.letters) for k in range(cg.degree)),
                                  sets.needed))
        weights = max(candidates, key=lambda w: (w.value, -w.denominator))
    words, dual, integer_value = None, None, None
    with limits.phase("word-choice: integer optimum"):
        if not integer:
            solved, how = Solved.NOT_RUN, "not asked for (--lp-only)"
        elif star:
            balance = star_letter_balance(cg.elements[target_set], counting)
            solved, integer_value = Solved.MAX_FLOW, balance.maximum
            if len(target_set) <= MAX_STAR_WORD_TARGETS:
                words = star_words(cg, target_set, balance)
                how = "the star networks' cycle-entry max flow (tesearch.facts.bounds), its words listed"
            else:
                how = (f"the star networks' cycle-entry max flow (tesearch.facts.bounds); its words are not listed "
                       f"(more than {MAX_STAR_WORD_TARGETS} targets)")
        elif dag.edges > MAX_MILP_EDGES:
            solved, how = Solved.NOT_RUN, f"the DAG has {dag.edges} edges, more than {MAX_MILP_EDGES}"
        else:
            solved, words, dual, how = solve_integer(cg, dag, target_set, budget)
    result = WordChoice(cg.network.spec, facts.exchange.value, cg.letters, cg.order, len(target_set), total,
                        counting, lp, lp_how, weights, solved, integer_value, dual, how, words=words, notes=notes)
    if words is not None:
        result.integer_value = result.upper
    with limits.phase("word-choice: parity"):
        if result.upper is None or result.upper > result.lower:
            result.parity = best_parity(cg, target_set, result.lower)
            if result.parity is not None and result.parity.bound <= (weights.bound if weights else counting):
                result.parity = None
    result.seconds = time.monotonic() - started
    return result
