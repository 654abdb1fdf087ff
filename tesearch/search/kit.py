"""The building blocks of a searched table, for one instance and one run: the public toolkit the search
strategies (:class:`tesearch.search.core.Searcher`), the CP-SAT narrowing (:mod:`tesearch.search.narrow`) and the
repack (:mod:`tesearch.search.improve`) share.

:class:`TableKit` gives an element's candidate words (all its shortest words, or a sample; with the
letter balance computed, every letter-count vector it has), the table problem of some items at a width
(with the mirror pin where it is sound), the placed words of a solution, the greedy core, the letter
balance of a rotation core, the assembly of a core with rotation blocks, and the verified table (through
:class:`tesearch.tables.build.TableBuilder`), whose record says what its :class:`~tesearch.tables.build.Provenance` says:
a kit is made with the run's provenance (the solver, the run, the seed), never with another run's.  Its
state is explicit: ``vectors`` and ``flexible`` are None and empty until :meth:`TableKit.core_balance`
computes them.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from tesearch.running import limits
from tesearch.facts.bounds import PARIKH_LIMIT
from tesearch.tables.build import Provenance, TableBuilder, core_and_blocks
from tesearch.solvers.problem import EncodingOptions, Item, TableProblem
from tesearch.running.errors import OptionError
from tesearch.networks.groups import CayleyGraph
from tesearch.facts.instance import Instance, OrbitClasses
from tesearch.tables.layout import first_fit
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.search.balance import Balance, balancing_orbits, core_balanceable
from tesearch.search.params import WordSampling
from tesearch.networks.symmetry import THE_ROTATION, LetterGroup, SymmetryError, letter_group
from tesearch.tables.table import Table
from tesearch.running.terms import SolveResult
from tesearch.networks.words import (DEFAULT_WORD_CAP, canonical_word, shortest_words, uniform_words,
                            word_for_vector)

def shortest_fillers_first(lengths: list[int]) -> Callable[[list[int]], tuple[int, int]]:
    """Sort key for filler plans (lists of full-orbit indices): the shortest longest filler first,
    then the fewest orbits; such cores have complete words and small models, and decide fast."""
    return lambda plan: (max((lengths[j] for j in plan), default=0), len(plan))


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


class RunClock:
    """Seconds since the search began, and seconds left of its budget."""

    def __init__(self, budget: Budget):
        self.start = time.monotonic()
        self.budget = budget

    @property
    def elapsed(self) -> float:
        """Seconds since the run began."""
        return time.monotonic() - self.start

    @property
    def left(self) -> float:
        """Seconds left of the run's budget (infinity without a deadline)."""
        return self.budget.left


class TableKit:
    """The building blocks of one run's tables (module doc): the instance's facts, the run's provenance and
    word choice (``word_cap`` words per element, sampled by ``sampling`` with ``seed``; ``options`` for the
    table problems; ``symmetry``, the letter group of the blocks), its clock (seconds spent, seconds left of
    its budget) and its progress lines."""

    def __init__(self, facts: Instance, provenance: Provenance, *, word_cap: int = DEFAULT_WORD_CAP,
                 sampling: WordSampling = WordSampling.SPREAD, seed: int = 0, options: EncodingOptions | None = None,
                 symmetry: str = THE_ROTATION, budget: Budget | None = None, progress: Progress = quiet):
        self.instance = facts
        self.network = facts.network
        self.provenance = provenance
        self.word_cap, self.sampling, self.seed = word_cap, sampling, seed
        self.options = options if options is not None else EncodingOptions()
        self.symmetry = symmetry
        self.progress = progress
        self.clock = RunClock(budget if budget is not None else Budget.current())
        self.cg = facts.cg
        self.rotation = facts.rotation if symmetry == THE_ROTATION else self._letter_group(symmetry)
        self._orbit_classes: OrbitClasses | None = None
        self.targets = facts.targets
        self.bounds = facts.bounds
        self.counts = facts.word_counts
        self.vectors: list[frozenset[tuple[int, ...]]] | None = None  # set by core_balance (small networks)
        self.flexible: set[int] = set()  # full orbits with more than one letter-count vector (core_balance)
        self._inverse_cache: dict[int, int] = {}

    def _letter_group(self, name: str) -> LetterGroup:
        """The regular letter group ``name`` as automorphisms (tesearch.networks.symmetry), or OptionError (exit 2)."""
        with limits.phase("letter group"):
            try:
                return letter_group(self.cg, name)
            except SymmetryError as exc:
                raise OptionError(f"--symmetry {name}: {exc}") from None

    @property
    def blocks_name(self) -> str:
        """What makes the blocks, for a table's method: 'rotation', or the letter group's name."""
        return "rotation" if self.symmetry == THE_ROTATION else self.rotation.name

    def log(self, msg: str) -> None:
        """A progress line stamped with the seconds since the search began."""
        self.progress(f"[{self.clock.elapsed:7.1f}s] {msg}")

    def inverse(self, g: int) -> int:
        """g^-1: the word of g reversed, with every letter inverted."""
        if g not in self._inverse_cache:
            word = canonical_word(self.cg, g)
            self._inverse_cache[g] = self.cg.element_of([int(self.cg.inverse_letter[k]) for k in reversed(word)])
        return self._inverse_cache[g]

    def item(self, g: int) -> Item:
        """The item of element g: its shortest words, all of them or a capped sample."""
        item = candidate_words(self.cg, int(g), self.word_cap, float(self.counts[int(g)]),
                               self.sampling, self.counts, self.seed)
        vectors = self.vectors
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
        return TableProblem(name, self.cg.degree, width, tuple(items), pin, self.options)

    def placed(self, problem: TableProblem, chosen) -> list[tuple[int, int, tuple[int, ...]]]:
        """(element, first column, word) of every item of a solution."""
        return [(problem.items[i].element, c, problem.items[i].words[w]) for i, w, c in chosen]

    def make_table(self, rows: list[tuple[int, int, tuple[int, ...]]], width: int, strategy: str, method: str
                   ) -> Table:
        """A verified table from rows of letter indices (:class:`~tesearch.tables.build.TableBuilder`), its record the
        run's (:meth:`record`)."""
        return TableBuilder(self.instance, f"the {strategy} strategy").place(rows).finish(
            width, self.record(strategy, method))

    @property
    def orbit_classes(self) -> OrbitClasses:
        """The targets' sigma-orbits, computed once per instance (:class:`~tesearch.facts.instance.OrbitClasses`),
        or their orbits under the run's letter group (computed once per run)."""
        if self.symmetry == THE_ROTATION:
            return self.instance.orbit_classes
        if self._orbit_classes is None:
            self._orbit_classes = self.instance.orbit_classes_under(self.rotation)
        return self._orbit_classes

    def greedy_core(self, exceptional: list[int]) -> tuple[list[Item], int, list[tuple[int, int, tuple[int, ...]]]]:
        """The exceptional elements' items, packed by greedy first fit: (items, core width, (element, first
        column, word) per item)."""
        items = self.items(exceptional)
        with limits.phase("greedy core"):
            width, placed = first_fit(items, self.cg.degree)
        return items, width, placed

    def core_balance(self, exceptional: list[int], full: list[tuple[int, ...]], lengths: list[int],
                     blanks: int) -> Balance | None:
        """Which flexible orbits the core needs for its letters to balance (module balance); None if not computed."""
        self.flexible = set()
        if self.cg.order > PARIKH_LIMIT:
            return None
        with limits.phase("letter balance"):
            self.vectors = self.instance.letter_vectors
            self.flexible = {j for j, orbit in enumerate(full) if any(len(self.vectors[g]) > 1 for g in orbit)}
            flexible = sorted(self.flexible)
            found = balancing_orbits([self.vectors[g] for g in exceptional],
                                     [[self.vectors[g] for g in full[j]] for j in flexible],
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
        core = [self.vectors[g] for g in exceptional] + [self.vectors[g] for j in plan for g in full[j]]
        if core_balanceable(core, core_width, self.cg.degree) is SolveResult.UNSAT:
            self.log(f"core T={core_width}: filler plan of {len(plan)} orbit(s) refuted by its letter counts")
            return False
        return True

    def orbit_profiles(self, orbit: tuple[int, ...], cap: int = 400) -> list[list[int]]:
        """The letter counts an orbit's words can give: one per count vector of its first element's
        shortest words (up to ``cap`` words), each summed over the orbit's rotated copies."""
        S = self.cg.degree
        out: dict[tuple[int, ...], list[int]] = {}
        for word in shortest_words(self.cg, int(orbit[0]), cap=cap):
            key = tuple(np.bincount(word, minlength=S).tolist())
            if key not in out:
                out[key] = np.sum([np.bincount(self.rotation.apply(word, j), minlength=S)
                                   for j in self.rotation.transversal(orbit)], axis=0).tolist()
        return list(out.values())

    def assemble(self, core: list, core_width: int, full: list[tuple[int, ...]], plan: list[int], *,
                 strategy: str, method: str, sections: list[dict] | None = None) -> Table:
        """Core rows by interval colouring, then every unused full orbit as a rotation block
        (:func:`tesearch.tables.build.core_and_blocks`), its record the run's."""
        return core_and_blocks(self.instance, core, core_width, full, plan, self.rotation,
                               self.record(strategy, method), what=f"the {strategy} strategy", sections=sections)

    def record(self, strategy: str, method: str) -> dict:
        """The table's provenance record, as the run's :class:`~tesearch.tables.build.Provenance` writes it, with
        the seconds spent so far."""
        return self.provenance.record(strategy, method, self.clock.elapsed)
