"""The building blocks of a searched table, for one instance and one run: the public toolkit the search
strategies (:class:`tesearch.search.core.Searcher`), the CP-SAT narrowing (:mod:`tesearch.search.narrow`) and the
repack (:mod:`tesearch.search.improve`) share.

:class:`TableKit` gives an element's candidate words (all its shortest words, or a sample; with the
letter balance computed, every letter-count vector it has), the table problem of some items at a width
(with the mirror pin where it is sound), the placed words of a solution, the greedy core, the letter
balance of a rotation core, the assembly of a core with rotation blocks, the provenance record, and the
verified table (through :class:`tesearch.build.TableBuilder`).  Its state is explicit: ``vectors`` and
``flexible`` are None and empty until :meth:`TableKit.core_balance` computes them.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from tesearch import limits
from tesearch.backends.decide import solver_name
from tesearch.bounds import PARIKH_LIMIT
from tesearch.build import TableBuilder
from tesearch.encode import Item, TableProblem
from tesearch.errors import OptionError
from tesearch.groups import CayleyGraph
from tesearch.instance import Instance, OrbitClasses, instance
from tesearch.layout import assign_rows, first_fit, rotation_blocks
from tesearch.limits import Budget
from tesearch.networks import Network
from tesearch.search.balance import Balance, balancing_orbits, core_balanceable
from tesearch.search.params import SearchParams, WordSampling
from tesearch.symmetry import CYCLIC, LetterGroup, SymmetryError, letter_group
from tesearch.table import Table
from tesearch.terms import Exchange, SolveResult
from tesearch.words import canonical_word, shortest_words, to_letters, uniform_words, word_for_vector

Progress = Callable[[str], None]


def shortest_fillers_first(lengths: list[int]) -> Callable[[list[int]], tuple[int, int]]:
    """Sort key for filler plans (lists of full-orbit indices): the shortest longest filler first,
    then the fewest orbits; such cores have complete words and small models, and decide fast."""
    return lambda plan: (max((lengths[j] for j in plan), default=0), len(plan))


def _quiet(_: str) -> None:
    pass


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
    """The building blocks of one run's tables (module doc): the instance's facts, the run's parameters,
    its clock (seconds spent, seconds left of its budget) and its progress lines."""

    def __init__(self, network: Network | Instance, params: SearchParams, *, budget: Budget | None = None,
                 progress: Progress = _quiet):
        self.instance = network if isinstance(network, Instance) else instance(network, params.exchange)
        if self.instance.exchange is not Exchange(params.exchange):
            raise AssertionError(f"a {self.instance.exchange.value} instance for a {params} run")
        self.network = self.instance.network
        self.params = params
        self.progress = progress
        self.clock = RunClock(budget if budget is not None else Budget.current())
        self.cg = self.instance.cg
        self.rotation = self.instance.rotation if params.symmetry == CYCLIC else self._letter_group(params.symmetry)
        self._orbit_classes: OrbitClasses | None = None
        self.targets = self.instance.targets
        self.bounds = self.instance.bounds
        self.counts = self.instance.word_counts
        self.vectors: list[frozenset[tuple[int, ...]]] | None = None  # set by core_balance (small networks)
        self.flexible: set[int] = set()  # full orbits with more than one letter-count vector (core_balance)
        self._inverse_cache: dict[int, int] = {}

    def _letter_group(self, name: str) -> LetterGroup:
        """The regular letter group ``name`` as automorphisms (tesearch.symmetry), or OptionError (exit 2)."""
        with limits.phase("letter group"):
            try:
                return letter_group(self.cg, name)
            except SymmetryError as exc:
                raise OptionError(f"--symmetry {name}: {exc}") from None

    @property
    def blocks_name(self) -> str:
        """What makes the blocks, for a table's method: 'rotation', or the letter group's name."""
        return "rotation" if self.params.symmetry == CYCLIC else self.rotation.name

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
        item = candidate_words(self.cg, int(g), self.params.word_cap, float(self.counts[int(g)]),
                               self.params.sampling, self.counts, self.params.seed)
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
        return TableProblem(name, self.cg.degree, width, tuple(items), pin, self.params.options)

    def placed(self, problem: TableProblem, chosen) -> list[tuple[int, int, tuple[int, ...]]]:
        """(element, first column, word) of every item of a solution."""
        return [(problem.items[i].element, c, problem.items[i].words[w]) for i, w, c in chosen]

    def make_table(self, rows: list[tuple[int, int, tuple[int, ...]]], width: int, extra: dict) -> Table:
        """A verified table from rows of letter indices (:class:`~tesearch.build.TableBuilder`)."""
        what = f"the {extra.get('search', {}).get('strategy', 'search')} strategy"
        return TableBuilder(self.instance, what).place(rows).finish(width, extra)

    @property
    def orbit_classes(self) -> OrbitClasses:
        """The targets' sigma-orbits, computed once per instance (:class:`~tesearch.instance.OrbitClasses`),
        or their orbits under the run's letter group (computed once per run)."""
        if self.params.symmetry == CYCLIC:
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
                                              + ("sub-cores" if strategy == "split" else "core")
                                              + f" + {self.blocks_name} blocks"))
        meta["sections"] = sections
        if self.params.symmetry == CYCLIC:
            meta["search"]["rotation"] = list(self.rotation.cycle)
        else:  # the blocks' rows are the group's letter maps, in this order
            meta["search"]["symmetry"] = {"group": self.rotation.name, "letter_maps": self.rotation.letter_maps()}
        meta["search"]["filler_orbits"] = [[list(to_letters(self.cg, canonical_word(self.cg, full[j][0])))] for j in plan]
        return self.make_table(rows + blocks, column, meta)

    def meta(self, strategy: str, how: str) -> dict:
        """The table's "search" record: strategy, method, run, seed, solver and seconds."""
        solver = solver_name(self.params.backend, self.params.cpsat_model)
        return {"search": {"tool": "tesearch", "strategy": strategy, "method": how, "run": str(self.params),
                           "seed": self.params.seed, "solver": solver,
                           "seconds": round(self.clock.elapsed, 3)}}
