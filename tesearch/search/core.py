"""Search strategies for tables of the smallest width.

* rotation-symmetric assembly: the full sigma-orbits become blocks (row r is
  sigma^r of row 0, valid by construction), the exceptional elements go into a
  core together with filler orbits chosen by the tool, and only the core is
  searched.  A core that meets its own counting bound makes the whole table
  meet the network's counting bound, because the blocks have no blank.
* full search: every target is an item; for networks without a rotation, or
  where the per-letter bound binds (the blocks are letter-balanced, so they
  cannot help there).
* the width loop: from the best lower bound (or ``--from-width``) upward to a
  known upper bound (a greedy first-fit table, or ``--max-width`` when it is
  narrower), each width sat / unsat / unknown; unknown is never read as unsat,
  and every unsat width can keep its SMT-LIB2 encoding.

What "infeasible" means.  A search ends :attr:`Status.INFEASIBLE` only when
every width of the range asked for is refuted: by the best lower bound (a
``--max-width`` below it), or by a solver's unsat at each width, with every
target's shortest words all offered (an unsat over capped candidate words
refutes only those words: the search then ends unknown), by Z3 (a CP-SAT
unsat is no certificate: the search then ends unknown too).  No width at or
above a table the search holds (the greedy one included) is ever refuted; an
empty range (``--from-width`` above the greedy width) is a usage error.  The
rotation and split strategies have no width loop (they aim at the counting
bound, and the rotation search keeps a wider greedy-core table when no core
is found) and refute no width, so they refuse ``--from-width`` (``auto``
with it runs the full strategy's width loop); they honour ``--max-width`` by
returning no wider table.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from tesearch import limits
from tesearch.backends import Backend, CpsatModel
from tesearch.backends.decide import decide, solver_name
from tesearch.bounds import PARIKH_LIMIT, Bounds
from tesearch.build import TableBuilder, relabelled
from tesearch.errors import ConstructionError, OptionError
from tesearch.encode import EncodingOptions, Item, TableProblem, encode
from tesearch.files import safe_name, write_atomically
from tesearch.groups import CayleyGraph
from tesearch.instance import Instance, OrbitClasses, instance
from tesearch.limits import Budget
from tesearch.layout import assign_rows, filler_plans, first_fit, rotation_blocks
from tesearch.networks import Network
from tesearch.search.balance import Balance, balancing_orbits, core_balanceable
from tesearch.search.split import DEFAULT_GROUP_COLUMNS, OrbitGroup, group_orbits
from tesearch.table import Table
from tesearch.terms import Exchange, SolveResult, Status
from tesearch.words import (DEFAULT_WORD_CAP, canonical_word, shortest_words, to_letters,
                            uniform_words, word_for_vector)

#: how many further core widths and filler plans the rotation strategy tries
MAX_EXTRA_CORE_COLUMNS = 30
#: the split strategy tries fewer widths per sub-core, so that its budgets escalate sooner (groups
#: merged into one run the rotation search's core instead)
MAX_EXTRA_SUBCORE_COLUMNS = 10
#: ... and escalates no further than this before merging the group with the next one
MAX_SUBCORE_BUDGET_S = 32.0
MAX_PLANS_PER_WIDTH = 4
#: the rotation search gives every (core width, filler plan) this many seconds first, then retries
#: the unknown ones with the budget multiplied by CORE_BUDGET_GROWTH, pass after pass: one hard
#: unsat or unknown core no longer holds up an easy core a column wider (star-8: 19 unknown
#: after 178-266 s, 20 sat in 1-19 s)
FIRST_CORE_BUDGET_S = 2.0
CORE_BUDGET_GROWTH = 4.0
#: Z3's Python API needs about 40 s to build 200k placement variables: above this the
#: full encoding is not built and the width is reported unknown (z3 backend only)
MAX_PLACEMENT_VARIABLES = 60_000


class Strategy(str, enum.Enum):
    """How the search lays out the table: rotation blocks around a searched core, or every target searched."""

    AUTO = "auto"
    ROTATION = "rotation"
    SPLIT = "split"  # rotation blocks around several small sub-cores, searched one after another
    FULL = "full"


class WordSampling(str, enum.Enum):
    """Which shortest words an element with more than ``word_cap`` of them offers the solver."""

    SPREAD = "spread"  # every 16th word of the lexicographic head: deterministic, the historical default
    UNIFORM = "uniform"  # drawn uniformly from all shortest words: spreads over letter-count vectors


class CoreSchedule(str, enum.Enum):
    """How the rotation search spends its time over (core width, filler plan) attempts."""

    ESCALATING = "escalating"  # FIRST_CORE_BUDGET_S each, then the unknown ones again with x CORE_BUDGET_GROWTH
    PATIENT = "patient"  # before 2026-11-25: a third of the time left for each attempt, one pass, no retry


@dataclass(frozen=True)
class SearchParams:
    """Everything that determines one search run; its string form names the run."""

    network: str
    exchange: Exchange = Exchange.TOTAL
    strategy: Strategy = Strategy.AUTO
    seed: int = 0
    word_cap: int = DEFAULT_WORD_CAP
    options: EncodingOptions = field(default_factory=EncodingOptions)
    max_width: int | None = None  # stop the width loop here (default: the greedy upper bound)
    min_width: int | None = None  # start the width loop here (default: the best lower bound), e.g.
    #                               the counting bound, to have Z3 refute what the per-letter bound excludes
    backend: Backend = Backend.Z3  # which solver decides each width (a CP-SAT unsat is not a certificate)
    sampling: WordSampling = WordSampling.SPREAD
    core_schedule: CoreSchedule = CoreSchedule.ESCALATING
    group_columns: int = DEFAULT_GROUP_COLUMNS  # split strategy: exceptional letters per sub-core / |S|
    cpsat_model: CpsatModel = CpsatModel.PLACEMENTS  # which CP-SAT model decides each width (cpsat backend)

    def __str__(self) -> str:
        return (f"{self.network} {self.exchange.value} {self.strategy.value} cap={self.word_cap} "
                f"{self.options} seed={self.seed}"
                + ("" if self.backend is Backend.Z3 else f" backend={self.backend.value}")
                + ("" if self.sampling is WordSampling.SPREAD else f" sampling={self.sampling.value}")
                + ("" if self.core_schedule is CoreSchedule.ESCALATING else f" schedule={self.core_schedule.value}")
                + (f" group={self.group_columns}" if self.strategy is Strategy.SPLIT else "")
                + ("" if self.cpsat_model is CpsatModel.PLACEMENTS else f" model={self.cpsat_model.value}"))


@dataclass
class Attempt:
    """One solver call: which part, width and size, and what it answered."""

    part: str  # "full", "core" or "bound"
    width: int
    items: int
    letters: int
    result: SolveResult
    seconds: float
    complete_words: bool
    detail: str = ""
    encoding: str | None = None  # path of the kept SMT-LIB2 file

    def to_json(self) -> dict:
        """The attempt as one JSON object."""
        return {"part": self.part, "width": self.width, "items": self.items, "letters": self.letters,
                "result": self.result.value, "seconds": round(self.seconds, 3),
                "complete_words": self.complete_words, "detail": self.detail, "encoding": self.encoding}


@dataclass
class SearchOutcome:
    """What a search ended with: its status, the bounds, the verified table (if any) and every attempt."""

    params: SearchParams
    status: Status
    bounds: Bounds
    table: Table | None
    seconds: float
    attempts: list[Attempt]
    strategy_used: str
    stop_reason: str | None = None  # why the search ended without proving its table optimal, with the phase
    #: with INFEASIBLE: the widths shown to have no table, (lowest, highest); lowest None = every width up to highest
    infeasible_widths: tuple[int | None, int] | None = None
    infeasible_by: str = ""  # with INFEASIBLE: what refuted them (the bound, or the solver's unsat at each width)

    @property
    def T(self) -> int | None:
        """The table's width, if a table was found."""
        return self.table.T if self.table is not None else None

    @property
    def optimal(self) -> bool:
        """A table was found and it meets the best bound."""
        return self.table is not None and self.table.T == self.bounds.best

    @property
    def refuted_widths(self) -> list[int]:
        """Widths shown impossible: by a full encoding with complete words, or below the lower bound."""
        return sorted({a.width for a in self.attempts if a.part in ("full", "bound")
                       and a.result is SolveResult.UNSAT and a.complete_words})


Progress = Callable[[str], None]


def shortest_fillers_first(lengths: list[int]) -> Callable[[list[int]], tuple[int, int]]:
    """Sort key for filler plans (lists of full-orbit indices): the shortest longest filler first,
    then the fewest orbits; such cores have complete words and small models, and decide fast."""
    return lambda plan: (max((lengths[j] for j in plan), default=0), len(plan))


def _quiet(_: str) -> None:
    pass


# ---------------------------------------------------------------- helpers

def candidate_words(cg: CayleyGraph, g: int, cap: int, count: float | None = None,
                    sampling: WordSampling = WordSampling.SPREAD, counts: np.ndarray | None = None,
                    seed: int = 0) -> Item:
    """An item with all of g's shortest words, or a sample of ``cap`` of them (see :class:`WordSampling`)."""
    if count is None or count <= cap:
        words = tuple(shortest_words(cg, g, cap=cap + 1))
        if len(words) <= cap:
            return Item(int(g), words, True)
    if sampling is WordSampling.UNIFORM and counts is not None:
        return Item(int(g), uniform_words(cg, g, cap, counts, seed), False)
    # spread the sample over the lexicographic order instead of taking its head
    scan = tuple(shortest_words(cg, g, cap=cap * 16))
    step = max(1, len(scan) // cap)
    return Item(int(g), scan[::step][:cap], False)


class _Clock:
    """Seconds since the search began, and seconds left of its budget."""

    def __init__(self, budget: Budget):
        self.start = time.monotonic()
        self.budget = budget

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start

    @property
    def left(self) -> float:
        return self.budget.left


# ---------------------------------------------------------------- the searcher

class Searcher:
    """One search run: network -> bounds -> strategy -> a verified table.

    Every phase reports itself through :mod:`tesearch.limits` (so a supervisor can show it and
    name it when a limit stops the run), and every table is verified before it is returned or
    offered as the best table so far.
    """

    def __init__(self, network: Network | Instance, params: SearchParams, *, budget: Budget | None = None,
                 progress: Progress = _quiet, encodings_dir: str | Path | None = None):
        check_width_range(params)  # before any group is built
        self.instance = network if isinstance(network, Instance) else instance(network, params.exchange)
        if self.instance.exchange is not Exchange(params.exchange):
            raise AssertionError(f"a {self.instance.exchange.value} instance for a {params} run")
        self.network = self.instance.network
        self.params = params
        self.progress = progress
        self.encodings_dir = Path(encodings_dir) if encodings_dir is not None else None
        self.clock = _Clock(budget if budget is not None else Budget.current())
        self.cg = self.instance.cg
        self.rotation = self.instance.rotation
        self.targets = self.instance.targets
        self.bounds = self.instance.bounds
        self.counts = self.instance.word_counts
        self.attempts: list[Attempt] = []
        self.stop_reason: str | None = None
        self.infeasible_widths: tuple[int | None, int] | None = None  # set only where a range is refuted
        self.infeasible_by = ""
        self._inverse_cache: dict[int, int] = {}

    def log(self, msg: str) -> None:
        """A progress line stamped with the seconds since the search began."""
        self.progress(f"[{self.clock.elapsed:7.1f}s] {msg}")

    # ------------------------------------------------------------ building blocks
    def inverse(self, g: int) -> int:
        """g^-1: the word of g reversed, with every letter inverted."""
        if g not in self._inverse_cache:
            word = canonical_word(self.cg, g)
            self._inverse_cache[g] = self.cg.element_of([int(self.cg.inverse_letter[k]) for k in reversed(word)])
        return self._inverse_cache[g]

    def item(self, g: int) -> Item:
        """The item of element g: its shortest words, all of them or a capped sample."""
        item = candidate_words(self.cg, int(g), self.params.word_cap, float(self.counts[int(g)]),
                               self.params.sampling, self.counts, self.params.seed)
        vectors = getattr(self, "_vectors", None)
        if item.complete or vectors is None or len(vectors[int(g)]) < 2:
            return item
        # a sample may miss whole letter-count vectors, which the core's balance may need
        have = {tuple(np.bincount(w, minlength=self.cg.degree).tolist()) for w in item.words}
        extra = tuple(word_for_vector(self.cg, int(g), v, vectors) for v in sorted(vectors[int(g)]) if v not in have)
        return Item(item.element, item.words + extra, False) if extra else item

    def items(self, elements) -> list[Item]:
        """The items of ``elements``, reported as the phase 'candidate words'."""
        elements = [int(g) for g in elements]
        out = []
        with limits.phase("candidate words", total=len(elements)):
            for g in elements:
                out.append(self.item(g))
                limits.advance()
        return out

    def problem(self, name: str, width: int, items: list[Item]) -> TableProblem:
        """The table problem of ``items`` at ``width``, with the mirror pin where it is sound."""
        elements = {it.element for it in items}
        pin = None
        if all(it.complete for it in items) and all(self.inverse(g) in elements for g in elements):
            # pin the longest involution item (first in item order among equals)
            involutions = [i for i, it in enumerate(items) if self.inverse(it.element) == it.element]
            if involutions:
                pin = min(involutions, key=lambda i: -items[i].length)
        return TableProblem(name, self.cg.degree, width, tuple(items), pin, self.params.options)

    def run_problem(self, part: str, problem: TableProblem, timeout_s: float
                    ) -> tuple[SolveResult, list[tuple[int, int, int]] | None]:
        """Solve one width with the chosen backend; record the attempt; keep the encoding of an unsat."""
        decision = decide(problem, self.params.backend, self.params.cpsat_model, timeout_s=timeout_s,
                          seed=self.params.seed, label=part)
        result, chosen = decision.result, decision.chosen
        attempt = Attempt(part, problem.width, len(problem.items), problem.letter_count, result, decision.seconds,
                          problem.complete_words, decision.detail)
        if result is SolveResult.UNSAT and self.encodings_dir is not None:
            # a CP-SAT unsat keeps the same Z3 encoding, so that `tesearch certify` can re-check it
            attempt.encoding = str(self.keep_encoding(part, problem, decision.encoding))
        self.attempts.append(attempt)
        self.log(f"{part} T={problem.width}: {len(problem.items)} items, {problem.letter_count} letters, "
                 f"{problem.cells - problem.letter_count} blanks -> {decision.outcome}")
        return result, chosen

    def keep_encoding(self, part: str, problem: TableProblem, enc) -> Path:
        """Write the SMT-LIB2 encoding of a refuted width; an existing different file is never replaced."""
        text = (enc or encode(problem)).to_smtlib2()
        stem = safe_name(f"{self.network.spec}-{self.params.exchange.value}-{part}-T{problem.width}")
        path = self.encodings_dir / f"{stem}.smt2"
        n = 1
        while path.exists() and path.read_text() != text:
            n += 1
            path = self.encodings_dir / f"{stem}.{n}.smt2"
        if not path.exists():
            write_atomically(path, text)
        return path

    def placed(self, problem: TableProblem, chosen) -> list[tuple[int, int, tuple[int, ...]]]:
        """(element, first column, word) of every item of a solution."""
        return [(problem.items[i].element, c, problem.items[i].words[w]) for i, w, c in chosen]

    def make_table(self, rows: list[tuple[int, int, tuple[int, ...]]], width: int, extra: dict) -> Table:
        """A verified table from rows of letter indices (:class:`~tesearch.build.TableBuilder`)."""
        what = f"the {extra.get('search', {}).get('strategy', 'search')} strategy"
        return TableBuilder(self.instance, what).place(rows).finish(width, extra)

    # ------------------------------------------------------------ strategies
    def run(self) -> SearchOutcome:
        """Pick the strategy (auto: rotation where it can meet the bound, else full; with --from-width the
        full strategy's width loop) and run it."""
        strategy = self.params.strategy
        if strategy is Strategy.AUTO:
            usable = self.rotation is not None and self.bounds.letter.value <= self.bounds.counting
            strategy = Strategy.ROTATION if usable and self.params.min_width is None else Strategy.FULL
        self.log(f"{self.network.spec} {self.params.exchange.value}: {self.cg.order} nodes, "
                 f"{len(self.targets)} targets, best bound {self.bounds.best} ({self.bounds.binding}); "
                 f"strategy {strategy.value}")
        if self.params.max_width is not None and self.params.max_width < self.bounds.best \
                and self.params.min_width is None:
            status, table = self.below_bound()
        elif strategy in (Strategy.ROTATION, Strategy.SPLIT):
            if self.rotation is None:
                raise ConstructionError(f"{self.network.spec} has no rotation; use --strategy full")
            status, table = self.rotation_search() if strategy is Strategy.ROTATION else self.split_search()
        else:
            status, table = self.full_search()
        if status is Status.INFEASIBLE and self.infeasible_widths is None:
            raise AssertionError("an infeasible outcome must name the widths it refuted")
        return SearchOutcome(self.params, status, self.bounds, table, self.clock.elapsed, self.attempts, strategy.value,
                             self.stop_reason, self.infeasible_widths, self.infeasible_by)

    def stop(self, reason: str) -> None:
        """Record why the search stops short (the last solver phase, if any, named), and log it."""
        last = self.attempts[-1] if self.attempts else None
        where = f" (after phase: solve {last.part} T={last.width})" if last is not None else \
            f" (in phase: {limits.current_phase()})"
        self.stop_reason = reason + where
        self.log(self.stop_reason)

    def below_bound(self) -> tuple[Status, None]:
        """--max-width below the best lower bound (and no --from-width asking a solver to show it):
        no table exists, by the bound alone."""
        width = self.params.max_width
        self.attempts.append(Attempt("bound", width, len(self.targets), self.bounds.target_letters,
                                     SolveResult.UNSAT, 0.0, True,
                                     f"the best lower bound is {self.bounds.best} ({self.bounds.binding})"))
        self.log(f"no table of width <= {width}: the best lower bound is {self.bounds.best} ({self.bounds.binding})")
        self.infeasible_widths = (None, width)
        self.infeasible_by = f"the best lower bound {self.bounds.best} ({self.bounds.binding})"
        return Status.INFEASIBLE, None

    def full_search(self) -> tuple[Status, Table | None]:
        """Every target an item; widths from the bound up, the greedy table as the fallback."""
        items = self.items(self.targets)
        with limits.phase("greedy first fit"):
            upper, greedy = first_fit(items, self.cg.degree)
        self.log(f"greedy first-fit table: T={upper}")
        top = min(upper, self.params.max_width) if self.params.max_width else upper
        fallback = None
        if upper <= top:
            fallback = self.make_table(assign_rows(greedy, self.cg.degree), upper,
                                       self.meta("full", "greedy first-fit (solver unknown below)"))
            limits.offer(fallback)
        start = self.params.min_width if self.params.min_width is not None else self.bounds.best
        if start > upper:
            raise OptionError(f"--from-width {start} is above the greedy table's width {upper}: a table of width "
                              f"{upper} exists, so every width from {upper} up has one; nothing to search "
                              f"(use --from-width {upper} or less)")
        width = start
        saw_unknown = False
        capped: list[int] = []  # widths refuted only over capped candidate words: no proof
        while width <= top:
            if width == upper:
                return Status.FOUND, relabelled(fallback, "search", **self.meta("full", "greedy first-fit")["search"])
            if self.clock.left <= 0:
                self.stop(f"the time limit was reached before width {width} was decided")
                saw_unknown = True
                break
            problem = self.problem(f"{self.network.spec} {self.params.exchange.value}", width, items)
            size = sum(len(it.words) * max(0, width - it.length + 1) for it in items)
            if self.params.backend is Backend.Z3 and size > MAX_PLACEMENT_VARIABLES:
                self.stop(f"width {width}: {size} placement variables exceed the Z3 encoding cap "
                          f"{MAX_PLACEMENT_VARIABLES} (try --solver cpsat)")
                saw_unknown = True
                break
            result, chosen = self.run_problem("full", problem, self.clock.left)
            if result is SolveResult.SAT:
                rows = assign_rows(self.placed(problem, chosen), self.cg.degree)
                return Status.FOUND, self.make_table(rows, width, self.meta("full", self.params.backend.value))
            if result is SolveResult.UNKNOWN:
                self.stop(f"the solver answered unknown at width {width}")
                saw_unknown = True
                break
            if not problem.complete_words:
                capped.append(width)
            width += 1
        if saw_unknown:
            if fallback is not None:
                self.log(f"solver gave up at T={width}; keeping the greedy table T={upper} (not shown optimal)")
                return Status.FOUND, relabelled(fallback, "search", seconds=round(self.clock.elapsed, 3))
            return Status.UNKNOWN, None
        if top >= upper:  # the loop returns the greedy table at width upper: a table is known there
            raise AssertionError(f"width {top} refuted although a table of width {upper} is known")
        if capped:
            self.stop(f"width(s) {_span(capped)} were refuted only over the first {self.params.word_cap} candidate "
                      f"words of some elements (--word-cap): that proves nothing about all tables")
            return Status.UNKNOWN, None
        if self.params.backend is not Backend.Z3:
            self.stop(f"{self.params.backend.value} answered unsat at every width from {start} to {top}, but its "
                      f"unsat is no certificate: refute them with --solver z3 (and --keep-encodings to certify)")
            return Status.UNKNOWN, None
        self.infeasible_widths = (start, top)
        self.infeasible_by = (f"{solver_name(self.params.backend, self.params.cpsat_model)} unsat at every width, "
                              f"all shortest words offered")
        return Status.INFEASIBLE, None

    @property
    def orbit_classes(self) -> OrbitClasses:
        """The targets' sigma-orbits, computed once per instance (:class:`~tesearch.instance.OrbitClasses`)."""
        return self.instance.orbit_classes

    def rotation_search(self) -> tuple[Status, Table | None]:
        """Exceptional elements and filler orbits in a searched core, every other full orbit a rotation block.

        The assembled table is always as wide as the counting bound (the core is filled exactly).
        """
        rot, S = self.rotation, self.cg.degree
        full, short, lengths, blanks = self.orbit_classes
        exceptional = [g for o in short for g in o]
        exc_letters = int(self.cg.dist[exceptional].sum()) if exceptional else 0
        base, rem = divmod(exc_letters + blanks, S)
        if rem:
            raise AssertionError("exceptional letters and blanks must fill whole columns")
        longest_exc = max((int(self.cg.dist[g]) for g in exceptional), default=0)
        self.log(f"rotation {rot}: {len(full)} full orbits, {len(exceptional)} exceptional elements "
                 f"({exc_letters} letters), {blanks} blanks allowed")
        start_width = max(base, longest_exc)
        balance = self.core_balance(exceptional, full, lengths, blanks)
        if balance is not None and balance.result is SolveResult.UNSAT:
            self.stop("no rotation core can be balanced: the exceptional elements' letters cannot be evened out "
                      "by any filler orbits, so no table of core + rotation blocks meets the bound")
            return Status.UNKNOWN, None
        required = list(balance.orbits) if balance is not None else []
        required_length = sum(lengths[j] for j in required)
        if required:
            self.log(f"letter balance needs {len(required)} flexible filler orbit(s) of total length "
                     f"{required_length} in the core")
            start_width = max(start_width, base + required_length, max(lengths[j] for j in required))
        fallback = self.greedy_core_table(exceptional, full)
        if fallback is not None and fallback.T <= self.bounds.best:
            return Status.FOUND, fallback
        fresh = self.core_candidates(start_width, base, lengths, required, required_length, exceptional, full)
        found = self.find_core("core", fresh, exceptional, full)
        if found is None:
            if fallback is None:
                return Status.UNKNOWN, None
            self.log(f"no core at the bound; keeping the greedy-core table T={fallback.T} (not shown optimal)")
            return Status.FOUND, relabelled(fallback, "search", seconds=round(self.clock.elapsed, 3))
        core_width, plan, placed = found
        return Status.FOUND, self.assemble(placed, core_width, full, plan)

    def greedy_core_table(self, exceptional: list[int], full: list[tuple[int, ...]]) -> Table | None:
        """The fallback of the rotation search: the exceptional elements packed by greedy first fit (blanks
        allowed) and every full orbit a rotation block; verified, offered to the supervisor (so a timeout or
        Ctrl-C still keeps it), and None when it is wider than --max-width or there is no exceptional element
        (then the core is empty and the first candidate is the table)."""
        if not exceptional:
            return None
        _, width, placed = self.greedy_core(exceptional)
        total = width + sum(int(self.cg.dist[o[0]]) for o in full)
        if self.params.max_width is not None and total > self.params.max_width:
            return None
        table = self.assemble(placed, width, full, [], method="greedy first-fit core + rotation blocks")
        self.log(f"greedy-core table: T={table.T} (core width {width}, bound {self.bounds.best})")
        limits.offer(table)
        return table

    def greedy_core(self, exceptional: list[int]) -> tuple[list[Item], int, list[tuple[int, int, tuple[int, ...]]]]:
        """The exceptional elements' items, packed by greedy first fit: (items, core width, (element, first
        column, word) per item)."""
        items = self.items(exceptional)
        with limits.phase("greedy core"):
            width, placed = first_fit(items, self.cg.degree)
        return items, width, placed

    def find_core(self, part: str, fresh, exceptional: list[int], full: list[tuple[int, ...]],
                  max_budget: float | None = None) -> tuple[int, list[int], list] | None:
        """The first (core width, filler plan) of ``fresh`` whose core a solver places, with the placement.

        The schedule (``params.core_schedule``) decides each candidate's time, escalating no further
        than ``max_budget`` seconds when given; None when none was found (the reason is recorded with
        :meth:`stop`).
        """
        candidates: list[tuple[int, list[int]]] = []  # filled from ``fresh`` as the first pass goes
        problems: dict[int, TableProblem] = {}
        escalating = self.params.core_schedule is CoreSchedule.ESCALATING
        unresolved: list[int] | None = None  # None: the first pass, over candidates as they come
        budget, gave_up = FIRST_CORE_BUDGET_S, 0
        capped = False  # a refuted core offered only capped candidate words
        while unresolved is None or (unresolved and (max_budget is None or budget <= max_budget)):
            still: list[int] = []
            for index in self._pass_order(unresolved, candidates, fresh):
                core_width, plan = candidates[index]
                if self.clock.left <= 0:
                    self.stop(f"the time limit was reached with no {part} found (width {core_width}"
                              + (f", attempt budget {budget:g} s)" if escalating else ")"))
                    return None
                core_elements = exceptional + [g for j in plan for g in full[j]]
                if not core_elements:
                    return 0, plan, []
                if index not in problems:
                    problems[index] = self.problem(f"{self.network.spec} {self.params.exchange.value} {part}",
                                                   core_width, self.items(core_elements))
                if not escalating:
                    budget = max(self.clock.left / 3, min(self.clock.left, 5.0))
                result, chosen = self.run_problem(part, problems[index], min(budget, self.clock.left))
                if result is SolveResult.SAT:
                    return core_width, plan, self.placed(problems[index], chosen)
                if result is SolveResult.UNKNOWN and escalating:
                    still.append(index)
                else:
                    gave_up += result is SolveResult.UNKNOWN
                    capped |= result is SolveResult.UNSAT and not problems[index].complete_words
                    problems.pop(index)  # refuted (or given up by the patient schedule): never tried again
            unresolved = still
            budget *= CORE_BUDGET_GROWTH
            if unresolved and (max_budget is None or budget <= max_budget):
                self.log(f"{len(unresolved)} {part} attempt(s) unknown; again with {budget:g} s each")
        if not candidates:
            self.stop(f"no filler plan fits any {part} width tried")
        else:
            widths = f"widths {candidates[0][0]} to {candidates[-1][0]}"
            gave_up += len(unresolved or [])
            self.stop(f"no {part} found: of those tried ({widths}) {gave_up} ended unknown and the rest were "
                      f"refuted" if gave_up else
                      f"every {part} tried was refuted ({widths}"
                      + ("; some over capped candidate words" if capped else "")
                      + "; this refutes only these cores, not the network)")
        return None

    def split_search(self) -> tuple[Status, Table | None]:
        """Rotation blocks around several small sub-cores, one per group of exceptional orbits
        (:mod:`tesearch.search.split`), each searched like the rotation search's one core and fixed
        once found; the fillers one sub-core takes are not offered to the next."""
        rot, S = self.rotation, self.cg.degree
        full, short, lengths, blanks = self.orbit_classes
        if not short:  # no exceptional element: nothing to split, the rotation search's core is all there is
            self.log("no short orbit to split: the rotation search")
            return self.rotation_search()
        profiles = [self.orbit_profiles(o) for o in short]
        groups = group_orbits([len(o) * int(self.cg.dist[o[0]]) for o in short], S, blanks,
                              self.params.group_columns * S, profiles)
        self.log(f"rotation {rot}: {len(full)} full orbits, {len(short)} short orbits in {len(groups)} sub-core(s), "
                 f"{blanks} blanks allowed")
        free = set(range(len(full)))
        found_cores: list[tuple[OrbitGroup, int, list[int], list]] = []  # group, width, plan, placement
        pending = list(groups)
        while pending:
            if len(pending) == 1 and not found_cores:
                # one group holding every short orbit is the rotation search's core, which also
                # takes the flexible fillers that the letter balance needs
                self.log("one group holds every short orbit: the rotation search's core")
                return self.rotation_search()
            group = pending.pop(0)
            elements = [g for i in group.orbits for g in short[i]]
            base = (group.letters + group.blanks) // S
            longest = max((int(self.cg.dist[g]) for g in elements), default=0)
            part = f"core-{len(found_cores) + 1}-of-{len(found_cores) + 1 + len(pending)}"
            with limits.phase(f"sub-core {len(found_cores) + 1} of {len(found_cores) + 1 + len(pending)}"):
                found = self.find_core(part, self.split_candidates(max(base, longest), base, lengths, free),
                                       elements, full, MAX_SUBCORE_BUDGET_S)
            if found is None:
                if self.clock.left <= 0:
                    return Status.UNKNOWN, None
                # a group that finds no sub-core merges with the next one (or, the last, with the one
                # before it, whose sub-core is undone): a bigger sub-core has more ways to fill its rectangle
                with_next = bool(pending)
                if with_next:
                    other = pending.pop(0)
                else:
                    other, _, undone, _ = found_cores.pop()
                    free |= set(undone)
                merged = OrbitGroup(tuple(sorted(group.orbits + other.orbits)), group.letters + other.letters,
                                    group.blanks + other.blanks)
                self.log(f"{part} not found within {MAX_SUBCORE_BUDGET_S:g} s per attempt: merged with the "
                         f"{'next' if with_next else 'previous'} group "
                         f"({len(merged.orbits)} orbits, {merged.letters} letters)")
                self.stop_reason = None
                pending.insert(0, merged)
                continue
            width, plan, placed = found
            self.log(f"{part}: {len(elements)} exceptional elements + {len(plan)} filler orbit(s) in width {width}")
            found_cores.append((group, width, plan, placed))
            free -= set(plan)
        placed_all: list = []
        used: list[int] = []
        sections = []
        offset = 0
        for k, (_, width, plan, placed) in enumerate(found_cores, 1):
            placed_all += [(g, column + offset, word) for g, column, word in placed]
            sections.append({"name": f"core {k}", "start": offset, "end": offset + width})
            offset += width
            used += plan
        return Status.FOUND, self.assemble(placed_all, offset, full, used, sections=sections, strategy="split")

    def orbit_profiles(self, orbit: tuple[int, ...], cap: int = 400) -> list[list[int]]:
        """The letter counts an orbit's words can give: one per count vector of its first element's
        shortest words (up to ``cap`` words), each summed over the orbit's rotated copies."""
        S = self.cg.degree
        out: dict[tuple[int, ...], list[int]] = {}
        for word in shortest_words(self.cg, int(orbit[0]), cap=cap):
            key = tuple(np.bincount(word, minlength=S).tolist())
            if key not in out:
                out[key] = np.sum([np.bincount(self.rotation.apply(word, j), minlength=S)
                                   for j in range(len(orbit))], axis=0).tolist()
        return list(out.values())

    @staticmethod
    def split_candidates(start_width: int, base: int, lengths: list[int], free: set[int]):
        """(width, filler plan) for one sub-core: widths ascending, fillers from the orbits still free,
        plans with the shortest longest filler first at each width."""
        for width in range(start_width, start_width + MAX_EXTRA_SUBCORE_COLUMNS + 1):
            fitting = {j: lengths[j] for j in free if lengths[j] <= width}
            plans = filler_plans(fitting, width - base, MAX_PLANS_PER_WIDTH)
            plans.sort(key=shortest_fillers_first(lengths))
            for plan in plans:
                yield width, plan

    @staticmethod
    def _pass_order(unresolved: list[int] | None, candidates: list, fresh):
        """Indices into ``candidates`` for one pass: the first pass appends from ``fresh`` as it goes."""
        if unresolved is not None:
            yield from unresolved
            return
        for candidate in fresh:
            candidates.append(candidate)
            yield len(candidates) - 1

    def core_candidates(self, start_width: int, base: int, lengths: list[int], required: list[int],
                        required_length: int, exceptional: list[int], full: list[tuple[int, ...]]):
        """Every (core width, filler plan) the rotation search may try, in the order it tries them (a generator).

        Widths ascend from ``start_width``; with the escalating schedule, at each width the plans with
        the shortest longest filler come first (their words are complete and their models small, and
        in our runs they decide fast); a plan whose letter counts cannot balance at that width is left out.
        """
        tried: set[tuple[int, ...]] = set()
        for core_width in range(start_width, start_width + MAX_EXTRA_CORE_COLUMNS + 1):
            need = core_width - base  # sum of filler orbit word lengths
            fitting = {j: n for j, n in enumerate(lengths) if n <= core_width}
            rigid = {j: n for j, n in fitting.items() if j not in self._flexible}
            plans = [sorted(required + p) for p in filler_plans(rigid, need - required_length, MAX_PLANS_PER_WIDTH)]
            plans += filler_plans(fitting, need, MAX_PLANS_PER_WIDTH)
            fresh = []
            for plan in plans:
                if tuple(plan) in tried:
                    continue
                tried.add(tuple(plan))
                if self.plan_balanceable(exceptional, full, plan, core_width):
                    fresh.append(plan)
            if self.params.core_schedule is CoreSchedule.ESCALATING:
                fresh.sort(key=shortest_fillers_first(lengths))
            for plan in fresh:
                yield core_width, plan

    def core_balance(self, exceptional: list[int], full: list[tuple[int, ...]], lengths: list[int],
                     blanks: int) -> Balance | None:
        """Which flexible orbits the core needs for its letters to balance (module balance); None if not computed."""
        self._flexible: set[int] = set()
        if self.cg.order > PARIKH_LIMIT:
            return None
        with limits.phase("letter balance"):
            self._vectors = self.instance.letter_vectors
            self._flexible = {j for j, orbit in enumerate(full) if any(len(self._vectors[g]) > 1 for g in orbit)}
            flexible = sorted(self._flexible)
            found = balancing_orbits([self._vectors[g] for g in exceptional],
                                     [[self._vectors[g] for g in full[j]] for j in flexible],
                                     [lengths[j] for j in flexible], blanks, self.cg.degree)
        self.log(f"letter balance of the core: {found.result.value} ({len(flexible)} flexible orbits)")
        if found.result is not SolveResult.SAT:
            return found if found.result is SolveResult.UNSAT else None
        return Balance(found.result, tuple(flexible[j] for j in found.orbits), found.length)

    def plan_balanceable(self, exceptional: list[int], full: list[tuple[int, ...]], plan: list[int],
                         core_width: int) -> bool:
        """False when the core of this plan provably cannot hold its letters at this width (logged)."""
        if self.cg.order > PARIKH_LIMIT:
            return True
        core = [self._vectors[g] for g in exceptional] + [self._vectors[g] for j in plan for g in full[j]]
        if core_balanceable(core, core_width, self.cg.degree) is SolveResult.UNSAT:
            self.log(f"core T={core_width}: filler plan of {len(plan)} orbit(s) refuted by its letter counts")
            return False
        return True

    def assemble(self, core: list, core_width: int, full: list[tuple[int, ...]], plan: list[int], *,
                 sections: list[dict] | None = None, strategy: str = "rotation", method: str | None = None
                 ) -> Table:
        """Core rows by interval colouring, then every unused full orbit as a rotation block."""
        used = set(plan)
        with limits.phase("assemble"):
            rows = assign_rows(core, self.cg.degree)
            words = [canonical_word(self.cg, orbit[0]) for j, orbit in enumerate(full) if j not in used]
            blocks, column = rotation_blocks(words, self.rotation, core_width)
        sections = (sections or [{"name": "core", "start": 0, "end": core_width}]) + \
            [{"name": "rotation blocks", "start": core_width, "end": column}]
        meta = self.meta(strategy, method or (f"{self.params.backend.value} "
                                              + ("sub-cores" if strategy == "split" else "core") + " + rotation blocks"))
        meta["sections"] = sections
        meta["search"]["rotation"] = list(self.rotation.cycle)
        meta["search"]["filler_orbits"] = [[list(to_letters(self.cg, canonical_word(self.cg, full[j][0])))] for j in plan]
        return self.make_table(rows + blocks, column, meta)

    def meta(self, strategy: str, how: str) -> dict:
        """The table's "search" record: strategy, method, run, seed, solver and seconds."""
        solver = solver_name(self.params.backend, self.params.cpsat_model)
        return {"search": {"tool": "tesearch", "strategy": strategy, "method": how, "run": str(self.params),
                           "seed": self.params.seed, "solver": solver,
                           "seconds": round(self.clock.elapsed, 3)}}


def check_width_range(params: SearchParams) -> None:
    """Refuse width options the chosen strategy cannot honour (OptionError, exit 2): a --from-width above
    --max-width, and --from-width with the rotation or split strategy, which have no width loop."""
    low, high = params.min_width, params.max_width
    if low is not None and high is not None and low > high:
        raise OptionError(f"--from-width {low} is above --max-width {high}: the range of widths is empty")
    if low is not None and params.strategy in (Strategy.ROTATION, Strategy.SPLIT):
        raise OptionError(f"--from-width is for the full strategy's width loop; the {params.strategy.value} "
                          f"strategy has none: it aims at the counting bound and refutes no width "
                          f"(use --strategy full, or leave out --from-width)")


def _span(widths: list[int]) -> str:
    """Widths as 'a' or 'a to b' (they are consecutive)."""
    return str(widths[0]) if len(widths) == 1 else f"{widths[0]} to {widths[-1]}"


def search(network: Network | Instance, params: SearchParams, *, budget: Budget | None = None,
           progress: Progress = _quiet, encodings_dir: str | Path | None = None) -> SearchOutcome:
    """Run one search (see :class:`Searcher`) within ``budget`` (default: the command's, :meth:`Budget.current`)."""
    return Searcher(network, params, budget=budget, progress=progress, encodings_dir=encodings_dir).run()
