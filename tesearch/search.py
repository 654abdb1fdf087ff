"""Search strategies for tables of the smallest width.

* rotation-symmetric assembly: the full sigma-orbits become blocks (row r is
  sigma^r of row 0, valid by construction), the exceptional elements go into a
  core together with filler orbits chosen by the tool, and only the core is
  searched.  A core that meets its own counting bound makes the whole table
  meet the network's counting bound, because the blocks have no blank.
* full search: every target is an item; for networks without a rotation, or
  where the per-letter bound binds (the blocks are letter-balanced, so they
  cannot help there).
* the width loop: from the best lower bound upward to a known upper bound (a
  greedy first-fit table), each width sat / unsat / unknown; unknown is never
  read as unsat, and every unsat width can keep its SMT-LIB2 encoding.
"""

from __future__ import annotations

import enum
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np

from tesearch.backends import Backend
from tesearch.bounds import Bounds, compute_bounds
from tesearch.encode import EncodingOptions, Item, SolveResult, TableProblem, encode, solve, z3_version
from tesearch.groups import CayleyGraph, cayley_graph
from tesearch.networks import Network
from tesearch.rotation import find_rotation
from tesearch.table import Placement, Table, atomic_write
from tesearch.words import Exchange, canonical_word, shortest_words, targets, to_letters, word_counts

#: candidate words per item when an element has more shortest words than this
DEFAULT_WORD_CAP = 24
#: how many further core widths and filler plans the rotation strategy tries
MAX_EXTRA_CORE_COLUMNS = 30
MAX_PLANS_PER_WIDTH = 4
#: Z3's Python API needs about 40 s to build 200k placement variables: above this the
#: full encoding is not built and the width is reported unknown (z3 backend only)
MAX_PLACEMENT_VARIABLES = 60_000


class Strategy(str, enum.Enum):
    AUTO = "auto"
    ROTATION = "rotation"
    FULL = "full"


class Status(str, enum.Enum):
    """What a search ended with."""

    FOUND = "found"  # a table (optimal or not: see SearchOutcome.optimal)
    INFEASIBLE = "infeasible"  # every width asked for was refuted and no table was found
    UNKNOWN = "unknown"  # the solver gave up before a table was found


@dataclass(frozen=True)
class SearchParams:
    network: str
    exchange: Exchange = Exchange.TOTAL
    strategy: Strategy = Strategy.AUTO
    timeout_s: float = 300.0
    seed: int = 0
    word_cap: int = DEFAULT_WORD_CAP
    options: EncodingOptions = field(default_factory=EncodingOptions)
    max_width: int | None = None  # stop the width loop here (default: the greedy upper bound)
    min_width: int | None = None  # start the width loop here (default: the best lower bound), e.g.
    #                               the counting bound, to have Z3 refute what the per-letter bound excludes
    backend: Backend = Backend.Z3  # which solver decides each width (a CP-SAT unsat is not a certificate)

    def __str__(self) -> str:
        return (f"{self.network} {self.exchange.value} {self.strategy.value} cap={self.word_cap} "
                f"{self.options} seed={self.seed}"
                + ("" if self.backend is Backend.Z3 else f" backend={self.backend.value}"))


@dataclass
class Attempt:
    part: str  # "full" or "core"
    width: int
    items: int
    letters: int
    result: SolveResult
    seconds: float
    complete_words: bool
    detail: str = ""
    encoding: str | None = None  # path of the kept SMT-LIB2 file

    def to_json(self) -> dict:
        return {"part": self.part, "width": self.width, "items": self.items, "letters": self.letters,
                "result": self.result.value, "seconds": round(self.seconds, 3),
                "complete_words": self.complete_words, "detail": self.detail, "encoding": self.encoding}


@dataclass
class SearchOutcome:
    params: SearchParams
    status: Status
    bounds: Bounds
    table: Table | None
    seconds: float
    attempts: list[Attempt]
    strategy_used: str

    @property
    def T(self) -> int | None:
        return self.table.T if self.table is not None else None

    @property
    def optimal(self) -> bool:
        return self.table is not None and self.table.T == self.bounds.best

    @property
    def refuted_widths(self) -> list[int]:
        return sorted({a.width for a in self.attempts if a.part == "full" and a.result is SolveResult.UNSAT
                       and a.complete_words})


Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


# ---------------------------------------------------------------- helpers

def candidate_words(cg: CayleyGraph, g: int, cap: int, count: float | None = None) -> Item:
    """An item with all of g's shortest words, or an evenly spread sample of ``cap`` of them."""
    if count is None or count <= cap:
        words = tuple(shortest_words(cg, g, cap=cap + 1))
        if len(words) <= cap:
            return Item(int(g), words, True)
    # spread the sample over the lexicographic order instead of taking its head
    scan = tuple(shortest_words(cg, g, cap=cap * 16))
    step = max(1, len(scan) // cap)
    return Item(int(g), scan[::step][:cap], False)


def assign_rows(placed: list[tuple[int, int, tuple[int, ...]]], rows: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Interval colouring: (element, column, word) -> (row, column, word), at most ``rows`` rows.

    At any column the words covering it hold distinct letters, so at most |S|
    words overlap and first-fit by start column never needs more rows.
    """
    free_at = [0] * rows
    out = []
    for element, column, word in sorted(placed, key=lambda p: (p[1], -len(p[2]), p[0])):
        for r in range(rows):
            if free_at[r] <= column:
                free_at[r] = column + len(word)
                out.append((r, column, word))
                break
        else:  # pragma: no cover - impossible for a column-valid placement
            raise AssertionError("interval colouring needed more rows than letters")
    return out


def greedy_placement(items: list[Item], letters: int) -> tuple[int, list[tuple[int, int, tuple[int, ...]]]]:
    """First fit, longest items first: a valid placement and its width (an upper bound)."""
    used = np.zeros((16, letters), dtype=bool)
    placed = []
    for item in sorted(items, key=lambda it: (-it.length, it.element)):
        best = None
        for word in item.words:
            idx = np.arange(len(word))
            c = 0
            while True:
                need = c + len(word)
                if need > len(used):
                    used = np.vstack([used, np.zeros((max(need, 2 * len(used)) - len(used), letters), dtype=bool)])
                if not used[c + idx, list(word)].any():
                    break
                c += 1
            if best is None or c < best[0]:
                best = (c, word)
        c, word = best
        used[c + np.arange(len(word)), list(word)] = True
        placed.append((item.element, c, word))
    width = max((c + len(w) for _, c, w in placed), default=0)
    return width, placed


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


class _Clock:
    def __init__(self, budget: float):
        self.start = time.monotonic()
        self.budget = budget

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start

    @property
    def left(self) -> float:
        return max(0.0, self.budget - self.elapsed)


# ---------------------------------------------------------------- the searcher

class Searcher:
    """One search run: network -> bounds -> strategy -> table."""

    def __init__(self, network: Network, params: SearchParams, *, progress: Progress = _quiet,
                 encodings_dir: str | Path | None = None):
        self.network = network
        self.params = params
        self.progress = progress
        self.encodings_dir = Path(encodings_dir) if encodings_dir is not None else None
        self.cg = cayley_graph(network)
        self.rotation = find_rotation(self.cg, search=self.cg.order <= 5000 and self.cg.degree <= 7)
        self.targets = targets(self.cg, params.exchange)
        self.bounds = compute_bounds(self.cg, params.exchange, self.rotation)
        self.counts = word_counts(self.cg)
        self.attempts: list[Attempt] = []
        self.clock = _Clock(params.timeout_s)
        self._inverse_cache: dict[int, int] = {}

    def log(self, msg: str) -> None:
        self.progress(f"[{self.clock.elapsed:7.1f}s] {msg}")

    # ------------------------------------------------------------ building blocks
    def inverse(self, g: int) -> int:
        """g^-1: the word of g reversed, with every letter inverted."""
        if g not in self._inverse_cache:
            word = canonical_word(self.cg, g)
            self._inverse_cache[g] = self.cg.element_of([int(self.cg.inverse_letter[k]) for k in reversed(word)])
        return self._inverse_cache[g]

    def item(self, g: int) -> Item:
        return candidate_words(self.cg, int(g), self.params.word_cap, float(self.counts[int(g)]))

    def problem(self, name: str, width: int, items: list[Item]) -> TableProblem:
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
        t0 = time.monotonic()
        if self.params.backend is Backend.CPSAT:
            from tesearch.backends import cpsat

            enc = None
            built = cpsat.build(problem)
            result, chosen = cpsat.solve_model(built, seed=self.params.seed, timeout_s=max(timeout_s, 0.05))
            detail = built.trivially_unsat or f"cpsat {built.stats['variables']} variables"
        else:
            enc = encode(problem)
            result, chosen = solve(enc, seed=self.params.seed, timeout_ms=int(max(timeout_s, 0.05) * 1000))
            detail = enc.trivially_unsat or ""
        seconds = time.monotonic() - t0
        attempt = Attempt(part, problem.width, len(problem.items), problem.letter_count, result, seconds,
                          problem.complete_words, detail)
        if result is SolveResult.UNSAT and self.encodings_dir is not None:
            # a CP-SAT unsat keeps the same Z3 encoding, so that `tesearch certify` can re-check it
            path = self.encodings_dir / _safe(f"{self.network.spec}-{self.params.exchange.value}-{part}-T{problem.width}.smt2")
            atomic_write(path, (enc or encode(problem)).to_smtlib2())
            attempt.encoding = str(path)
        self.attempts.append(attempt)
        self.log(f"{part} T={problem.width}: {len(problem.items)} items, {problem.letter_count} letters, "
                 f"{problem.cells - problem.letter_count} blanks -> {result.value} ({seconds:.2f}s"
                 + ("" if self.params.backend is Backend.Z3 else f", {self.params.backend.value}") + ")"
                 + ("" if problem.complete_words else " [sampled words]"))
        return result, chosen

    def _placed(self, problem: TableProblem, chosen) -> list[tuple[int, int, tuple[int, ...]]]:
        return [(problem.items[i].element, c, problem.items[i].words[w]) for i, w, c in chosen]

    def make_table(self, rows: list[tuple[int, int, tuple[int, ...]]], width: int, extra: dict) -> Table:
        placements = [Placement(r, c, to_letters(self.cg, w)) for r, c, w in rows]
        extra = {"letter_bound": self.bounds.letter.value, **extra}
        return Table(self.network.spec, self.params.exchange.value, self.network.generators_json(), width,
                     sorted(placements), self.bounds.counting, extra)

    # ------------------------------------------------------------ strategies
    def run(self) -> SearchOutcome:
        strategy = self.params.strategy
        if strategy is Strategy.AUTO:
            usable = self.rotation is not None and self.bounds.letter.value <= self.bounds.counting
            strategy = Strategy.ROTATION if usable else Strategy.FULL
        self.log(f"{self.network.spec} {self.params.exchange.value}: {self.cg.order} nodes, "
                 f"{len(self.targets)} targets, best bound {self.bounds.best} ({self.bounds.binding}); "
                 f"strategy {strategy.value}")
        if strategy is Strategy.ROTATION:
            if self.rotation is None:
                raise ValueError(f"{self.network.spec} has no rotation; use --strategy full")
            status, table = self.rotation_search()
        else:
            status, table = self.full_search()
        return SearchOutcome(self.params, status, self.bounds, table, self.clock.elapsed, self.attempts, strategy.value)

    def full_search(self) -> tuple[Status, Table | None]:
        items = [self.item(g) for g in self.targets]
        upper, greedy = greedy_placement(items, self.cg.degree)
        self.log(f"greedy first-fit table: T={upper}")
        top = min(upper, self.params.max_width) if self.params.max_width else upper
        width = self.params.min_width if self.params.min_width is not None else self.bounds.best
        saw_unknown = False
        while width <= top:
            if width == upper:
                rows = assign_rows(greedy, self.cg.degree)
                return Status.FOUND, self.make_table(rows, width, self._meta("full", "greedy first-fit"))
            if self.clock.left <= 0:
                saw_unknown = True
                break
            problem = self.problem(f"{self.network.spec} {self.params.exchange.value}", width, items)
            size = sum(len(it.words) * max(0, width - it.length + 1) for it in items)
            if self.params.backend is Backend.Z3 and size > MAX_PLACEMENT_VARIABLES:
                self.log(f"full T={width}: {size} placement variables exceed {MAX_PLACEMENT_VARIABLES}; not encoded")
                saw_unknown = True
                break
            result, chosen = self.run_problem("full", problem, self.clock.left)
            if result is SolveResult.SAT:
                rows = assign_rows(self._placed(problem, chosen), self.cg.degree)
                return Status.FOUND, self.make_table(rows, width, self._meta("full", self.params.backend.value))
            if result is SolveResult.UNKNOWN:
                saw_unknown = True
                break
            width += 1
        if saw_unknown:
            if self.params.max_width is None or upper <= self.params.max_width:
                rows = assign_rows(greedy, self.cg.degree)
                self.log(f"solver gave up at T={width}; keeping the greedy table T={upper} (not shown optimal)")
                return Status.FOUND, self.make_table(rows, upper, self._meta("full", "greedy first-fit (solver unknown below)"))
            return Status.UNKNOWN, None
        return Status.INFEASIBLE, None

    def rotation_search(self) -> tuple[Status, Table | None]:
        rot, S = self.rotation, self.cg.degree
        orbit_list = rot.orbits(self.targets)
        full = [o for o in orbit_list if len(o) == S]
        exceptional = [g for o in orbit_list if len(o) < S for g in o]
        full.sort(key=lambda o: (int(self.cg.dist[o[0]]), o[0]))
        exc_letters = int(self.cg.dist[exceptional].sum()) if exceptional else 0
        blanks = self.bounds.counting * S - self.bounds.target_letters
        base, rem = divmod(exc_letters + blanks, S)
        assert rem == 0, "exceptional letters and blanks must fill whole columns"
        longest_exc = max((int(self.cg.dist[g]) for g in exceptional), default=0)
        self.log(f"rotation {rot}: {len(full)} full orbits, {len(exceptional)} exceptional elements "
                 f"({exc_letters} letters), {blanks} blanks allowed")
        lengths = [int(self.cg.dist[o[0]]) for o in full]
        tried: set[tuple[int, ...]] = set()
        start_width = max(base, longest_exc)
        for core_width in range(start_width, start_width + MAX_EXTRA_CORE_COLUMNS + 1):
            need = core_width - base  # sum of filler orbit word lengths
            for plan in _filler_plans(lengths, need, core_width)[:MAX_PLANS_PER_WIDTH]:
                if tuple(plan) in tried:
                    continue
                tried.add(tuple(plan))
                if self.clock.left <= 0:
                    self.log("time is up")
                    return Status.UNKNOWN, None
                core_elements = exceptional + [g for j in plan for g in full[j]]
                if not core_elements:
                    return Status.FOUND, self.assemble([], 0, full, plan)
                items = [self.item(g) for g in core_elements]
                problem = self.problem(f"{self.network.spec} {self.params.exchange.value} core", core_width, items)
                budget = max(self.clock.left / 3, min(self.clock.left, 5.0))
                result, chosen = self.run_problem("core", problem, budget)
                if result is SolveResult.SAT:
                    return Status.FOUND, self.assemble(self._placed(problem, chosen), core_width, full, plan)
        self.log("no core found within the plans tried")
        return Status.UNKNOWN, None

    def assemble(self, core: list, core_width: int, full: list[tuple[int, ...]], plan: list[int]) -> Table:
        """Core rows by interval colouring, then every unused full orbit as a rotation block."""
        rot, S = self.rotation, self.cg.degree
        rows = assign_rows(core, S)
        used = set(plan)
        column = core_width
        for j, orbit in enumerate(full):
            if j in used:
                continue
            word = canonical_word(self.cg, orbit[0])
            for r in range(S):
                rows.append((r, column, rot.apply(word, r)))
            column += len(word)
        sections = [{"name": "core", "start": 0, "end": core_width},
                    {"name": "rotation blocks", "start": core_width, "end": column}]
        meta = self._meta("rotation", f"{self.params.backend.value} core + rotation blocks")
        meta["sections"] = sections
        meta["search"]["rotation"] = list(rot.cycle)
        meta["search"]["filler_orbits"] = [[list(to_letters(self.cg, canonical_word(self.cg, full[j][0])))] for j in plan]
        return self.make_table(rows, column, meta)

    def _meta(self, strategy: str, how: str) -> dict:
        if self.params.backend is Backend.CPSAT:
            from tesearch.backends.cpsat import ortools_version

            solver = f"cpsat (OR-Tools {ortools_version()})"
        else:
            solver = f"z3 {z3_version()}"
        return {"search": {"tool": "tesearch", "strategy": strategy, "method": how, "run": str(self.params),
                           "seed": self.params.seed, "solver": solver,
                           "seconds": round(self.clock.elapsed, 3)}}


def greedy_orbit_fill(order: Sequence[int], lengths: Mapping[int, int] | Sequence[int], need: int
                      ) -> list[int] | None:
    """Take orbits in ``order`` while each still fits; the sorted choice if the word
    lengths ``lengths[j]`` sum to exactly ``need``, else None."""
    chosen, left = [], need
    for j in order:
        if lengths[j] <= left:
            chosen.append(j)
            left -= lengths[j]
            if left == 0:
                return sorted(chosen)
    return None


def _filler_plans(lengths: list[int], need: int, max_len: int) -> list[list[int]]:
    """Ways to pick full orbits (indices into ``lengths``, sorted ascending) whose
    word lengths sum to ``need``: short orbits first, then variations."""
    if need == 0:
        return [[]]
    plans = []
    avail = [j for j, n in enumerate(lengths) if n <= max_len]
    orders = [avail,  # shortest first
              sorted(avail, key=lambda j: (-lengths[j], j)),  # longest first
              avail[1:] + avail[:1],  # shortest first, skipping the very first orbit
              sorted(avail, key=lambda j: (lengths[j] != 2, lengths[j], j))]  # length-2 words first
    for order in orders:
        plan = greedy_orbit_fill(order, lengths, need)
        if plan is not None and plan not in plans:
            plans.append(plan)
    return plans


def search(network: Network, params: SearchParams, *, progress: Progress = _quiet,
           encodings_dir: str | Path | None = None) -> SearchOutcome:
    return Searcher(network, params, progress=progress, encodings_dir=encodings_dir).run()
