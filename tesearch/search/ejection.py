"""The ejection search: every shortest word of every message, placed by min-conflicts at a fixed width.

A message's shortest words are the paths of a graded DAG: from the element ``g`` still to be travelled, letter
``k`` leads to ``s_k^-1 g`` when that is one step nearer the identity (:class:`WordGraph`).  Placed from column
``t``, the word's ``j``-th letter takes the cell (letter, ``t + j``).  So the cheapest way to place one message in
a table whose cells are held by other messages is a shortest path in that DAG laid over the columns, for every
start at once (:func:`cheapest_placement`): no candidate list, no word cap.

The search (:func:`ejection_table`) keeps a width ``W`` below the best table so far and every message either placed
inside ``[0, W)`` (no cell used twice) or waiting.  It takes the longest waiting message, places it where the cells
it would take from others weigh least (a cell weighs its holder's length; a message placed in the last ``tenure``
steps may not be taken from), and sends the holders of those cells back to wait.  When nobody waits the placement
is a table of width ``W``: it is built and verified (:class:`~tesearch.tables.build.TableBuilder`), offered
(:func:`tesearch.running.limits.offer`, so a time limit keeps it), and the search goes on at ``W - 1`` with the
messages that end beyond it waiting.  With an excess penalty ``lam`` each step of a word also costs ``lam`` times
its reduced cost under the word-choice LP's dual letter weights (the full-table CNF's counting cut: a step that makes
the word heavier in the letters every column must hold than the lightest shortest word is waste, and a table of
width ``W`` has at most ``W * sum(w) - need`` of it, blank cells of those letters included), so the search spends the
scarce letters only where nothing else fits.  It stops at the best lower bound (the table is then optimal), or when the
budget is spent.  Its start is a table (``start``: its words and columns) or the first fit of every message,
longest first, over all its shortest words (:func:`first_fit_all_words`).  Nothing it prints is a lower bound: a
width it does not reach is not shown infeasible.
"""

from __future__ import annotations

import enum
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tesearch.facts.instance import Instance
from tesearch.networks.groups import CayleyGraph
from tesearch.running import limits
from tesearch.running.errors import OptionError
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.running.terms import Status, optimality_text
from tesearch.tables.build import Provenance
from tesearch.tables.layout import assign_rows
from tesearch.tables.outcome import Outcome
from tesearch.tables.table import Table

if TYPE_CHECKING:
    from tesearch.search.kit import TableKit

#: the largest group the search builds its word graph for (one Python list of steps per element)
MAX_ORDER = 100_000
#: a placement may not take a cell from a message placed in the last TENURE steps (the tabu tenure); with cells
#: weighed by length, 3 reached the narrowest tables of 3, 10 and 30 in 150000 placements from the first fit on
#: bubblesort-5 and pancake-5, three seeds each, with and without the excess penalty (results/ejection-bench.md)
DEFAULT_TENURE = 3
#: the excess penalty by default: a step that wastes one unit of the scarce letters costs as much as taking ten
#: cells held by messages of length one (bubblesort-5 from the first fit, length weighting, tenure 3, seeds 0-2:
#: 154, 155, 155 in 150000 placements against 158, 159, 160 without; results/ejection-bench.md)
DEFAULT_EXCESS_PENALTY = 10
#: the largest excess penalty (a word's penalties stay far below FORBIDDEN, the weight of a cell nobody may take)
MAX_EXCESS_PENALTY = 1_000_000
#: the weight of a cell nobody may take (a tabu message's)
FORBIDDEN = 1 << 40
#: a narrower table is built, verified and offered at most this often while the search narrows fast (seconds);
#: the narrowest is always built at the end
OFFER_EVERY_S = 5.0
#: a progress line at most this often (seconds)
PROGRESS_EVERY_S = 10.0
#: the search stops this long before its budget's end (at most a tenth of it) to build, verify and return its
#: narrowest table: it runs until the time is up by design, which is its normal end, not a limit reached
RETURN_MARGIN_S = 10.0

Placed = tuple[int, int, tuple[int, ...]]  # (element, first column, word of letter indices)


class Weighting(str, enum.Enum):
    """What a held cell weighs, by its holder's length ``d``: ``d`` (length) or ``d * d`` (square: long messages
    are moved still less).  From the first fit (results/ejection-bench.md, tenure 3): pancake-5 107 (its optimum),
    108, 108 with square against 108, 108, 108 with length; bubblesort-5 167, 165, 167 against 158, 160, 160.
    From the best table so far, square narrowed pancake-6 from 686 to 679 where length had stood at 686."""

    LENGTH = "length"
    SQUARE = "square"

    def of(self, length: int) -> int:
        """The weight of a cell held by a message of ``length`` letters."""
        return length if self is Weighting.LENGTH else length * length


@dataclass(frozen=True)
class WordGraph:
    """Every shortest word of some elements as one graded DAG: ``steps[g]`` = ((letter, ``s^-1 g``), ...) over the
    letters that begin a shortest word of ``g``, for every element on such a word; ``dist[g]`` = its length."""

    steps: dict[int, tuple[tuple[int, int], ...]]
    dist: list[int]
    letters: int


def word_graph(cg: CayleyGraph, elements=None) -> WordGraph:
    """The word graph of ``elements`` of ``cg`` (default: every element) and of every element on their shortest
    words (:class:`WordGraph`)."""
    dist = cg.dist.tolist()
    inverse = [int(cg.inverse_letter[k]) for k in range(cg.degree)]
    left = cg.left
    steps: dict[int, tuple[tuple[int, int], ...]] = {}
    todo = list(range(cg.order)) if elements is None else [int(g) for g in elements]
    while todo:
        g = todo.pop()
        if g in steps:
            continue
        after = [(k, int(left[inverse[k], g])) for k in range(cg.degree)]
        steps[g] = tuple((k, r) for k, r in after if dist[r] == dist[g] - 1)
        if elements is not None:
            todo += [r for _, r in steps[g] if r not in steps]
    return WordGraph(steps, dist, cg.degree)


def excess_penalties(cg: CayleyGraph, graph: WordGraph, weights, lam: int) -> dict[int, tuple[int, ...]]:
    """Per element ``g`` of ``graph`` (a word graph of ``cg``), aligned with ``graph.steps[g]``: ``lam`` times the
    step's reduced cost ``w_k + L(s_k^-1 g) - L(g)`` (``L``: the least weight of a shortest word,
    :func:`tesearch.facts.wordchoice.least_word_weights`; every term >= 0, and along a word they add up to its
    weight minus ``L`` of its element)."""
    from tesearch.facts.wordchoice import least_word_weights

    least = least_word_weights(cg, weights).tolist()
    return {g: tuple(lam * (weights[k] + least[r] - least[g]) for k, r in graph.steps[g]) for g in graph.steps}


def is_shortest_word(graph: WordGraph, g: int, word: tuple[int, ...]) -> bool:
    """Whether ``word`` spells a shortest word of ``g`` in ``graph``."""
    if len(word) != graph.dist[g]:
        return False
    for k in word:
        nxt = dict(graph.steps[g]).get(k)
        if nxt is None:
            return False
        g = nxt
    return g == 0


def first_fit_all_words(graph: WordGraph, order: list[int], rng: random.Random) -> tuple[list[Placed], int]:
    """Each message of ``order`` in turn at its earliest start over all its shortest words (the DAG over the
    columns, one bit per start), a word among the earliest ones drawn by ``rng``: (placements, width)."""
    S, dist, steps = graph.letters, graph.dist, graph.steps
    taken = [0] * S  # per letter: a bit per column held
    horizon = sum(dist[g] for g in order) + 1  # one message after another always fits
    every = (1 << horizon) - 1
    out: list[Placed] = []
    for g in order:
        d = dist[g]
        free = [every & ~taken[k] for k in range(S)]
        layers = [{g: every}]  # layer j: element still to travel -> starts (bits) that reach it
        for j in range(d):
            nxt: dict[int, int] = {}
            for r, starts in layers[j].items():
                for k, r2 in steps[r]:
                    ok = starts & (free[k] >> j)
                    if ok:
                        nxt[r2] = nxt.get(r2, 0) | ok
            layers.append(nxt)
        reached = layers[d].get(0, 0)
        t = (reached & -reached).bit_length() - 1
        bit, word, r = 1 << t, [], 0
        for j in range(d, 0, -1):  # back from the identity: a step whose cell is free at start t
            back = [(k, rp) for rp, starts in layers[j - 1].items() if starts & bit
                    for k, r2 in steps[rp] if r2 == r and (free[k] >> (t + j - 1)) & 1]
            k, r = rng.choice(back)
            word.append(k)
        word.reverse()
        for j, k in enumerate(word):
            taken[k] |= 1 << (t + j)
        out.append((g, t, tuple(word)))
    return out, max(t + len(w) for _, t, w in out)


class Board:
    """A placement inside ``width`` columns: who holds each (letter, column) cell, and where each placed message
    is.  ``owner`` holds ``empty`` (= the group's order) in a free cell."""

    def __init__(self, letters: int, width: int, empty: int):
        self.width, self.empty = width, empty
        self.owner = np.full((letters, width), empty, dtype=np.int64)
        self.placed: dict[int, tuple[int, tuple[int, ...]]] = {}

    def put(self, g: int, start: int, word: tuple[int, ...]) -> None:
        """Place ``g``'s word from ``start`` on free cells (AssertionError otherwise: a bug of this module)."""
        cols = np.arange(start, start + len(word))
        if start < 0 or start + len(word) > self.width or np.any(self.owner[list(word), cols] != self.empty):
            raise AssertionError(f"ejection search: {g} placed on a held cell or outside {self.width} columns")
        self.owner[list(word), cols] = g
        self.placed[g] = (start, word)

    def take(self, g: int) -> None:
        """Lift ``g`` off the board."""
        start, word = self.placed.pop(g)
        self.owner[list(word), np.arange(start, start + len(word))] = self.empty

    def holders(self, start: int, word: tuple[int, ...]) -> set[int]:
        """The messages holding cells that ``word`` from ``start`` would take."""
        held = self.owner[list(word), np.arange(start, start + len(word))]
        return {int(h) for h in held if h != self.empty}

    def narrowed(self, width: int) -> tuple[Board, list[int]]:
        """This placement inside ``width`` columns: (the board, the messages that end beyond it)."""
        board = Board(self.owner.shape[0], width, self.empty)
        out = []
        for g, (start, word) in self.placed.items():
            if start + len(word) <= width:
                board.put(g, start, word)
            else:
                out.append(g)
        return board, out

    def placements(self) -> list[Placed]:
        """(element, first column, word) of every placed message."""
        return [(g, start, word) for g, (start, word) in self.placed.items()]


def cheapest_placement(board: Board, graph: WordGraph, g: int, weight: np.ndarray, rng: random.Random,
                       penalty: dict[int, tuple[int, ...]] | None = None) -> tuple[int, tuple[int, ...], int] | None:
    """Where ``g`` takes the least weight from others: (start, word, cost) with a start and a word drawn by ``rng``
    among the cheapest, or None when every placement takes a forbidden cell (or ``g`` is longer than the board).
    ``weight`` has one entry per element and the board's ``empty`` (0: a free cell costs nothing); ``penalty``
    (:func:`excess_penalties`) adds a cost to each step of a word wherever it is placed."""
    d = graph.dist[g]
    n = board.width - d + 1
    if n <= 0:
        return None
    cell = weight[board.owner]  # (letters, width): the cost of taking each cell
    steps = graph.steps
    layers: list[dict[int, np.ndarray]] = [{g: np.zeros(n, dtype=np.int64)}]
    zeros = (0,) * graph.letters  # no penalty: zip stops at the steps' end
    for j in range(d):
        nxt: dict[int, np.ndarray] = {}
        for r, cost in layers[j].items():
            for (k, r2), e in zip(steps[r], zeros if penalty is None else penalty[r]):
                c = cost + cell[k, j:j + n] + e
                old = nxt.get(r2)
                nxt[r2] = c if old is None else np.minimum(old, c)
        layers.append(nxt)
    final = layers[d][0]
    best = int(final.min())
    if best >= FORBIDDEN:
        return None
    t = int(rng.choice(np.flatnonzero(final == best)))
    word, r, value = [], 0, best
    for j in range(d, 0, -1):
        back = [(k, rp) for rp, cost in layers[j - 1].items()
                for (k, r2), e in zip(steps[rp], zeros if penalty is None else penalty[rp])
                if r2 == r and cost[t] + cell[k, t + j - 1] + e == value]
        k, r = rng.choice(back)
        word.append(k)
        value = int(layers[j - 1][r][t])
    word.reverse()
    return t, tuple(word), best


def _start_placement(kit: TableKit, graph: WordGraph, start: Table | None, rng: random.Random
                     ) -> tuple[list[Placed], int, str]:
    """(placements, width, what they are) of ``start`` (every word checked to be a shortest word of its target,
    every target once) or of the first fit of every target, longest first."""
    cg, targets = kit.cg, [int(g) for g in kit.targets]
    if start is None:
        order = sorted(targets, key=lambda g: (-graph.dist[g], rng.random()))
        with limits.phase("first fit over all shortest words"):
            placed, width = first_fit_all_words(graph, order, rng)
        return placed, width, "first fit over all shortest words"
    placed = []
    for p in start.placements:
        word = tuple(cg.letter_index[s] for s in p.word)
        placed.append((cg.element_of(word), p.column, word))
    if sorted(g for g, _, _ in placed) != sorted(targets):
        raise OptionError(f"--start: the table's words are not one per target of {kit.instance.name}")
    for g, _, word in placed:
        if not is_shortest_word(graph, g, word):
            raise AssertionError("ejection search: a verified table holds a word that is not a shortest word")
    return placed, start.T, "starting table"


class Ejector:
    """The min-conflicts loop (module doc) on one board: ``waiting`` messages placed one by one, the holders of
    the cells each takes sent back to wait; ``tenure`` steps of protection for a message just placed."""

    def __init__(self, graph: WordGraph, order: int, rng: random.Random, tenure: int = DEFAULT_TENURE,
                 weighting: Weighting = Weighting.LENGTH, penalty: dict[int, tuple[int, ...]] | None = None):
        self.graph, self.rng, self.tenure, self.penalty = graph, rng, tenure, penalty
        self.order = order  # the group's order: the board's empty mark and the weights' last entry
        self.weight = np.zeros(order + 1, dtype=np.int64)  # a held cell weighs what its holder's length gives
        for g in graph.steps:
            self.weight[g] = weighting.of(graph.dist[g])
        self.tabu_until = np.zeros(order + 1, dtype=np.int64)
        self.steps = 0

    def step(self, board: Board, waiting: list[int]) -> None:
        """Place the longest waiting message (ties drawn) where it takes the least weight."""
        self.steps += 1
        dist, rng = self.graph.dist, self.rng
        i = max(range(len(waiting)), key=lambda i: (dist[waiting[i]], rng.random()))
        g = waiting.pop(i)
        cost = self.weight.copy()
        cost[self.tabu_until > self.steps] = FORBIDDEN
        cost[self.order] = 0
        found = cheapest_placement(board, self.graph, g, cost, rng, self.penalty)
        if found is None:
            waiting.append(g)
            return
        t, word, _ = found
        for h in board.holders(t, word):
            board.take(h)
            waiting.append(h)
        board.put(g, t, word)
        self.tabu_until[g] = self.steps + self.tenure


def _penalties(facts: Instance, graph: WordGraph, lam: int) -> tuple[dict | None, tuple[int, ...] | None]:
    """(the step penalties, the letter weights) of excess penalty ``lam`` (None, None for 0)."""
    if not lam:
        return None, None
    from tesearch.facts.wordchoice import dual_letter_weights

    with limits.phase("excess penalties (the word-choice LP's dual weights)"):
        weights = dual_letter_weights(facts)
        return excess_penalties(facts.cg, graph, weights, lam), weights


def ejection_table(facts: Instance, budget: Budget | None = None, *, start: Table | None = None, seed: int = 0,
                   tenure: int = DEFAULT_TENURE, weighting: Weighting = Weighting.LENGTH,
                   excess_penalty: int = DEFAULT_EXCESS_PENALTY, max_steps: int | None = None,
                   progress: Progress = quiet) -> Outcome:
    """The ejection search (module doc) from ``start`` or the first fit, within ``budget`` and at most ``max_steps``
    placements (a run of a given seed and step count is the same on any machine): FOUND with the narrowest verified
    table reached (OPTIMAL in its summary only when it meets the best lower bound)."""
    from tesearch.search.kit import TableKit  # it loads Z3: not when the strategy registry is imported

    cg = facts.cg
    if cg.order > MAX_ORDER:
        raise OptionError(f"the ejection search builds every element's shortest-word steps: {facts.spec} has "
                          f"{cg.order} elements, more than {MAX_ORDER}")
    weighting = Weighting(weighting)
    if not 0 <= excess_penalty <= MAX_EXCESS_PENALTY:
        raise OptionError(f"the excess penalty must be in 0..{MAX_EXCESS_PENALTY}, not {excess_penalty}")
    run = (f"{facts.name} ejection tenure={tenure} seed={seed}"
           + ("" if weighting is Weighting.LENGTH else f" weighting={weighting.value}")
           + f" excess-penalty={excess_penalty}"
           + ("" if start is None else " start=table"))
    budget = (budget if budget is not None else Budget.current()).reserving(RETURN_MARGIN_S, fraction=0.1)
    kit = TableKit(facts, Provenance("min-conflicts", run, seed), seed=seed, budget=budget,
                   progress=progress)
    rng = random.Random(seed)
    with limits.phase("word graph"):
        graph = word_graph(cg)
    penalty, weights = _penalties(facts, graph, excess_penalty)
    placed, width, first = _start_placement(kit, graph, start, rng)
    bound = kit.bounds.best
    penalised = "" if penalty is None else f", excess penalty {excess_penalty} on letters {','.join(map(str, weights))}"
    how = (f"ejection search (min-conflicts over every shortest word, tabu tenure {tenure}, cells weighed by "
           f"{weighting.value}{penalised}) from the {first}")

    def table_of(rows: list[Placed], w: int) -> Table:
        return kit.make_table(assign_rows(rows, cg.degree), w, "ejection", how)

    table, offered = table_of(placed, width), (width, time.monotonic())  # the table offered last: (its T, when)
    limits.offer(table)

    def offer(rows: list[Placed], w: int) -> None:
        nonlocal table, offered
        table, offered = table_of(rows, w), (w, time.monotonic())
        limits.offer(table)

    kit.log(f"{first}: T={width} (bound {bound}); narrowing by min-conflicts, tabu tenure {tenure}")
    N = cg.order
    ejector = Ejector(graph, N, rng, tenure, weighting, penalty)
    full = Board(cg.degree, width, N)
    for g, t, word in placed:
        full.put(g, t, word)
    best_rows, best_width = full.placements(), width
    board, waiting = full.narrowed(width - 1)
    last_log = time.monotonic()
    with limits.phase("ejection search"):
        while best_width > bound and not kit.clock.budget.spent and (max_steps is None or ejector.steps < max_steps):
            if not waiting:  # every message inside the board: a table of its width
                best_rows, best_width = board.placements(), board.width
                if time.monotonic() - offered[1] >= OFFER_EVERY_S or best_width <= bound:
                    offer(best_rows, best_width)
                kit.log(f"T={best_width} after {ejector.steps} placements")
                board, waiting = board.narrowed(best_width - 1)
                continue
            ejector.step(board, waiting)
            if ejector.steps % 256 == 0:
                limits.advance()
                now = time.monotonic()
                if offered[0] != best_width and now - offered[1] >= OFFER_EVERY_S:  # a narrower table held back
                    offer(best_rows, best_width)
                if now - last_log >= PROGRESS_EVERY_S:
                    kit.log(f"width {board.width}: {len(waiting)} messages waiting, {ejector.steps} placements")
                    last_log = now
    if not waiting and board.width < best_width:  # the last placement completed a table (the step limit struck)
        best_rows, best_width = board.placements(), board.width
        kit.log(f"T={best_width} after {ejector.steps} placements")
    if offered[0] != best_width:
        offer(best_rows, best_width)
    summary = (f"{facts.spec}: T = {best_width} (best bound {bound}, {optimality_text(best_width, bound)}) after "
               f"{ejector.steps} ejection-search placements; verified")
    return Outcome("ejection", Status.FOUND, table, summary, kit.bounds, kit.clock.elapsed)
