"""Total-exchange tables for star graphs by symmetry stratification.

Result.  ``stratify(network, exchange)`` builds a table for a network
with a rotation sigma (a letter |S|-cycle that extends to an automorphism;
for star-n conjugation by (1 2 ... n-1)) as the concatenation in time of
independent sub-tables, one per *stratum*.  Each stratum is either searched
with the package's Z3 encoding (tesearch.solvers.z3model) on a reduced alphabet, or
is made of plain rotation blocks.  When every stratum tiles its rectangle
with the planned number of blanks, the table meets the counting bound.

Strata.  For every divisor d of S = |S| there is a stratum with d *reduced
rows*; row i + j*d of the full table (j = 0 .. S/d - 1) is sigma^(j*d) of
reduced row i.

* d = S: the free core (rows independent; every item is one element).
* 1 < d < S: a sigma^d-symmetric part.  Its items are sigma^d-orbits of size
  S/d; one word w for the representative g in reduced row i stands for the
  words sigma^(j*d)(w) of sigma^(j*d)(g) in rows i + j*d.  Letters fall into
  d classes (position in the letter cycle mod d, the orbits of sigma^d on
  letters); a column of the reduced table must hold distinct classes.  For
  star-7: d = 3 (classes {1,4},{2,5},{3,6}) takes the size-2 sigma-orbits as
  one word each, a full orbit as 3 words; d = 2 (classes {1,3,5},{2,4,6})
  takes the size-3 orbits as one word each, a full orbit as 2 words.
* d = 1: rotation blocks (one word per full orbit, exactly as
  tesearch.tables.layout.rotation_blocks).

A sigma-orbit of size m can live in stratum d iff m / gcd(m, d) = S / d;
it then splits into gcd(m, d) items.  So sigma-fixed elements only fit the
core, size-2 orbits of star-7 fit d = 3 or the core, size-3 orbits d = 2 or
the core, full orbits anywhere (as fillers).

Why the result is valid.  In a sigma^d part, the full column holds
sigma^(j*d)(x_i) for the reduced letters x_i; sigma^d keeps a letter's class
and moves it freely around its class (sigma is one S-cycle), so two equal
letters would need the same reduced row i and the same j.  Hence distinct
classes per reduced column give distinct letters per full column.  Each
element of a sigma^d-orbit of size S/d gets exactly one word, and
sigma^k of a shortest word of g is a shortest word of phi^k(g)
(tesearch.networks.rotation).  The reduced problem is literally a TableProblem with
``letters = d`` and words written over class indices, so the Z3 encoding is
reused unchanged; a reduced placement is packed into d rows by interval
colouring (tesearch.tables.layout.assign_rows).  Parts are placed side by side, so
a table is valid when every part is; it is also checked with
tesearch.tables.verify.verify_table before it is returned.

Divisibility.  With no blank, a part with d reduced rows needs reduced
letters = d * width and every class exactly ``width`` times; fillers (full
orbits, d words of length L each) add d*L reduced letters and leave the
residue mod d unchanged.  So the exceptional orbits must be split so that
every part's residue is 0.  For star-7 total: fixed elements 39 letters
(= 3 mod 6), size-2 orbits 4+4+7+7+8+9 = 39 reduced letters (= 0 mod 3),
size-3 orbits 95 reduced letters (odd): one size-3 orbit of odd length L
must go to the core (39 + 3L = 0 mod 6).  ``plan_moves`` finds the
cheapest such split (fewest letters moved to the core).  All blanks the
bound allows go to the core.

Width.  Every part is filled exactly (the core with the blanks the counting
bound allows, the others with none), so a stratified table is always as wide
as the counting bound.  When the best lower bound is above it (the per-letter
bound of ring-8:cyclic), no table of that width exists at all: stratify says
so without a solver, and that is its only "infeasible" (exit 3).

What is not proved.  Nothing about optimality beyond the counting bound
(a table meeting it is its own certificate).  An unsat part refutes only
that part at that width with those fillers (a narrower class than all
tables); the search then widens the part or changes fillers.  When every
attempt of a part was unsat, the run says so, naming the class (stratified
tables of this layout with the filler plans tried), never "infeasible": other
tables may exist.  Unknown is unknown.  Reduced words are deduplicated by class pattern; the candidate
set is complete when every shortest word of the representative was
enumerated (``PART_WORD_CAP``).

Run logs of the star-7 searches (which widths and fillers were tried, in how
long) are in docs/notes/stratify-star-7.md.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field

from tesearch.running.limits import Budget, Progress, quiet
from tesearch.solvers import Backend, CpsatModel
from tesearch.solvers.decide import decide, solver_name
from tesearch.tables.build import TableBuilder
from tesearch.solvers.problem import EncodingOptions, Item, TableProblem
from tesearch.running.errors import StratifyError
from tesearch.networks.groups import CayleyGraph
from tesearch.facts.instance import Instance, instance
from tesearch.tables.layout import assign_rows, filler_plans, rotation_blocks
from tesearch.networks.families import Network
from tesearch.tables.outcome import Outcome
from tesearch.networks.rotation import Rotation
from tesearch.tables.table import Table
from tesearch.running.terms import Exchange, SolveResult, Status, optimality_text
from tesearch.networks.words import canonical_word, shortest_words, to_letters

#: shortest words enumerated per reduced item of a part (star-7's longest exceptional elements have 576)
PART_WORD_CAP = 4096
#: further widths tried per part beyond its least width, and filler plans per width
MAX_EXTRA_WIDTH = 12
MAX_PART_PLANS_PER_WIDTH = 3
#: at most this many exceptional orbits are moved from their own stratum to the core
MAX_MOVES = 4
#: default cap on one solver call, so one hard (width, fillers) does not eat the budget
ATTEMPT_SECONDS = 120.0

# ---------------------------------------------------------------- letters and orbits

def letter_classes(rot: Rotation, d: int) -> tuple[int, ...]:
    """Class of every letter index under sigma^d: its position in the letter cycle mod d."""
    cycle = [rot.cg.letter_index[s] for s in rot.cycle]
    classes = [0] * len(cycle)
    for position, k in enumerate(cycle):
        classes[k] = position % d
    return tuple(classes)


def fits(orbit_size: int, d: int, S: int) -> bool:
    """Whether a sigma-orbit of this size splits into sigma^d-orbits of size S/d."""
    return orbit_size // math.gcd(orbit_size, d) == S // d


def sub_orbits(orbit: tuple[int, ...], d: int) -> list[tuple[int, ...]]:
    """Split a sigma-orbit (in phi order) into its sigma^d-orbits, each in sigma^d order."""
    m = len(orbit)
    out = []
    for start in range(math.gcd(m, d)):
        out.append(tuple(orbit[(start + j * d) % m] for j in range(m // math.gcd(m, d))))
    return out


@dataclass(frozen=True)
class ReducedItem:
    """A sigma^d-orbit to place as one reduced word; ``real`` maps a class word to a real word."""

    item: Item  # element = representative, words over class indices
    real: dict  # class word -> a shortest word (letter indices) of the representative


def reduced_item(cg: CayleyGraph, g: int, classes: tuple[int, ...], cap: int = PART_WORD_CAP) -> ReducedItem:
    """The item of a sigma^d-orbit's representative over class letters."""
    real: dict[tuple[int, ...], tuple[int, ...]] = {}
    words = list(shortest_words(cg, g, cap=cap + 1))
    complete = len(words) <= cap
    for w in words[:cap]:
        real.setdefault(tuple(classes[k] for k in w), w)
    return ReducedItem(Item(int(g), tuple(real), complete), real)


def expand(rot: Rotation, d: int, placed: list[tuple[int, int, tuple[int, ...]]], offset: int = 0
           ) -> list[tuple[int, int, tuple[int, ...]]]:
    """Reduced (row i, column, word w) -> full rows i + j*d holding sigma^(j*d)(w), j < S/d.

    The full columns hold distinct letters iff the reduced columns hold distinct classes
    (:func:`letter_classes`)."""
    S = len(rot.sigma)
    return [(r + j * d, offset + c, rot.apply(w, j * d)) for r, c, w in placed for j in range(S // d)]


# ---------------------------------------------------------------- parts

@dataclass
class Part:
    """One stratum: ``rows`` reduced rows (S = free core, 1 = rotation blocks)."""

    rows: int
    degree: int  # |S|
    own: list[tuple[int, ...]]  # sigma-orbits that must live here (exceptional)
    fillers: list[tuple[int, ...]] = field(default_factory=list)  # full sigma-orbits added
    blanks: int = 0  # reduced blank cells planned (only the core gets any)
    width: int = 0
    placed: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)  # reduced (row, column, word)
    seconds: float = 0.0
    result: SolveResult | None = None

    @property
    def name(self) -> str:
        """'core' or 'sigma^d'."""
        return "core" if self.rows == self.degree else f"sigma^{self.rows}"

    def items(self) -> list[tuple[int, ...]]:
        """The sigma^rows-orbits to place, one reduced word each."""
        return [sub for orbit in self.own + self.fillers for sub in sub_orbits(orbit, self.rows)]


def reduced_letters(cg: CayleyGraph, orbits: list[tuple[int, ...]], d: int) -> int:
    """Reduced letters of the orbits in stratum d."""
    return sum(int(cg.dist[sub[0]]) for orbit in orbits for sub in sub_orbits(orbit, d))


def plan_moves(cg: CayleyGraph, exceptional: list[tuple[int, ...]], blanks: int
               ) -> dict[int, list[tuple[int, ...]]]:
    """Send each exceptional orbit to its own stratum (the least d < S it fits, else the core), moving the fewest
    letters to the core (d = S) so that every stratum's reduced letter count (plus the
    core's blanks) is a multiple of its row count."""
    S = cg.degree
    divisors = [d for d in range(2, S) if S % d == 0]
    home = {orbit: next((d for d in divisors if fits(len(orbit), d, S)), S) for orbit in exceptional}
    movable = [o for o in exceptional if home[o] != S]
    best = None
    for k in range(0, min(MAX_MOVES, len(movable)) + 1):
        for moved in itertools.combinations(movable, k):
            parts: dict[int, list] = {}
            for orbit in exceptional:
                d = S if orbit in moved else home[orbit]
                parts.setdefault(d, []).append(orbit)
            ok = all((reduced_letters(cg, orbits, d) + (blanks if d == S else 0)) % d == 0
                     for d, orbits in parts.items())
            if ok:
                cost = sum(int(cg.dist[o[0]]) * len(o) for o in moved)
                if best is None or cost < best[0]:
                    best = (cost, parts)
        if best is not None:
            break
    if best is None:
        raise StratifyError(f"{cg.network.spec}: no split of the exceptional orbits with up to {MAX_MOVES} moves")
    parts = best[1]
    parts.setdefault(S, [])
    return dict(sorted(parts.items(), key=lambda kv: -kv[0]))


# ---------------------------------------------------------------- the search

class RotationStratifier:
    """Plan the strata, search each reduced part, assemble and verify."""

    def __init__(self, network: Network | Instance, exchange: Exchange = Exchange.TOTAL, *,
                 budget: Budget | None = None, attempt_s: float = ATTEMPT_SECONDS, seed: int = 0,
                 progress: Progress = quiet, options: EncodingOptions | None = None, backend: Backend = Backend.Z3,
                 cpsat_model: CpsatModel = CpsatModel.PLACEMENTS):
        self.instance = network if isinstance(network, Instance) else instance(network, exchange)
        self.network = self.instance.network
        self.backend = Backend(backend)
        self.cpsat_model = CpsatModel(cpsat_model)
        self.exchange = self.instance.exchange
        self.cg = self.instance.cg
        rot = self.instance.rotation
        if rot is None:
            raise StratifyError(f"{self.network.spec} has no rotation (a letter cycle that extends to an "
                                f"automorphism); stratify needs one: use tesearch search")
        self.rot = rot
        self.budget = budget if budget is not None else Budget.current()
        self.attempt_s = attempt_s
        self.seed = seed
        self.progress = progress
        self.options = options if options is not None else EncodingOptions()
        self.start = time.monotonic()
        self.targets = self.instance.targets
        self.failure = "no part was tried"  # why run() returned None: what was proved, or what stopped it
        self.status = Status.UNKNOWN  # INFEASIBLE only when the bound rules out the counting-bound width
        self.bounds = self.instance.bounds

    def log(self, msg: str) -> None:
        """A progress line stamped with the seconds since the start."""
        self.progress(f"[{time.monotonic() - self.start:7.1f}s] {msg}")

    @property
    def left(self) -> float:
        """Seconds left of the search's budget."""
        return self.budget.left

    def solve_part(self, part: Part, d: int, width: int, budget: float) -> SolveResult:
        """Search one reduced part at one width; on sat, part.placed holds reduced rows."""
        classes = letter_classes(self.rot, d)
        reduced = [reduced_item(self.cg, sub[0], classes) for sub in part.items()]
        problem = TableProblem(f"{self.network.spec} {self.exchange.value} {part.name}", d, width,
                               tuple(r.item for r in reduced), None, self.options)
        decision = decide(problem, self.backend, self.cpsat_model, timeout_s=budget, seed=self.seed, label=part.name)
        result, chosen = decision.result, decision.chosen
        self.last_complete = problem.complete_words
        part.seconds = decision.seconds
        part.result = result
        self.log(f"{part.name} T={width}: {len(problem.items)} items, {problem.letter_count} reduced letters, "
                 f"{problem.cells - problem.letter_count} blanks, fillers {self._lengths(part.fillers)} "
                 f"-> {decision.outcome}")
        if result is SolveResult.SAT:
            placed = [(reduced[i].item.element, c, reduced[i].real[reduced[i].item.words[w]]) for i, w, c in chosen]
            # colour on class letters: words overlapping a column hold distinct classes
            by_class = {(c, tuple(classes[k] for k in w)): w for _, c, w in placed}
            rows = assign_rows([(g, c, tuple(classes[k] for k in w)) for g, c, w in placed], d)
            part.placed = [(r, c, by_class[(c, cw)]) for r, c, cw in rows]
            part.width = width
        return result

    def _lengths(self, orbits: list[tuple[int, ...]]) -> list[int]:
        return sorted(int(self.cg.dist[o[0]]) for o in orbits)

    def run(self) -> Table | None:
        """Plan the strata, solve each part, assemble: a verified table or None (then :attr:`failure` says
        what was proved or what stopped the run, and :attr:`status` is INFEASIBLE or UNKNOWN)."""
        cg, rot, S = self.cg, self.rot, self.cg.degree
        if self.bounds.best > self.bounds.counting:
            self.status = Status.INFEASIBLE
            self.failure = (f"no table of width {self.bounds.counting} (the counting bound, the only width a "
                            f"stratified table has) exists: the best lower bound is {self.bounds.best} "
                            f"({self.bounds.binding}); use tesearch search for wider tables")
            self.log(self.failure)
            return None
        full, exceptional, _, blanks = self.instance.orbit_classes
        self.log(f"{self.network.spec} {self.exchange.value}: {len(self.targets)} targets, bound "
                 f"{self.bounds.counting} (best {self.bounds.best}), {blanks} blanks; rotation {rot}; "
                 f"{len(full)} full orbits, exceptional orbit sizes {sorted(len(o) for o in exceptional)}")
        layout = plan_moves(cg, exceptional, blanks)
        free = {j: int(cg.dist[o[0]]) for j, o in enumerate(full)}
        done: list[Part] = []
        for d, own in layout.items():
            part = Part(d, S, list(own), blanks=blanks if d == S else 0)
            base = reduced_letters(cg, own, d) + part.blanks
            longest = max((int(cg.dist[o[0]]) for o in own), default=0)
            least = max(-(-base // d), longest)
            self.log(f"{part.name}: {len(own)} own orbits (lengths {self._lengths(own)}), "
                     f"{base - part.blanks} reduced letters, least width {least}")
            found = False
            tried: dict[SolveResult, int] = {}
            widths_tried: list[int] = []
            capped = False  # some reduced item offered only PART_WORD_CAP of its words
            for width in range(least, least + MAX_EXTRA_WIDTH + 1):
                need = width - base // d  # sum of filler word lengths (base is a multiple of d)
                for plan in filler_plans(free, need, MAX_PART_PLANS_PER_WIDTH, preferred=(2, 3), exhaustive=True):
                    if self.left <= 0:
                        self.failure = f"the time ran out in the {part.name} part (width {width})"
                        self.log("time is up")
                        return None
                    part.fillers = [full[j] for j in plan]
                    budget = min(self.attempt_s, max(self.left / 3, min(self.left, 5.0)))
                    result = self.solve_part(part, d, width, budget)
                    tried[result] = tried.get(result, 0) + 1
                    capped |= not self.last_complete
                    if not widths_tried or widths_tried[-1] != width:
                        widths_tried.append(width)
                    if result is SolveResult.SAT:
                        for j in plan:
                            del free[j]
                        found = True
                        break
                if found:
                    break
            if not found:
                self.failure = self._part_failure(part, widths_tried, tried, capped)
                self.log(f"{part.name}: no width up to {least + MAX_EXTRA_WIDTH} solved: {self.failure}")
                return None
            done.append(part)
        return self.assemble(done, [full[j] for j in sorted(free)])

    def _part_failure(self, part: Part, widths: list[int], tried: dict[SolveResult, int], capped: bool) -> str:
        """What a part that found no placement shows: a class refuted (every attempt unsat), or nothing."""
        if not widths:
            return (f"no filler plan fits the {part.name} part at any width tried: no stratified table of this "
                    f"layout (this refutes nothing about other tables)")
        span = f"width {widths[0]}" if len(widths) == 1 else f"widths {widths[0]} to {widths[-1]}"
        attempts = sum(tried.values())
        unknown = tried.get(SolveResult.UNKNOWN, 0)
        if unknown:
            return (f"the {part.name} part stayed unsolved: of {attempts} attempt(s) ({span}) {unknown} ended "
                    f"unknown, the rest unsat; nothing is proved")
        words = " over capped candidate words" if capped else ""
        return (f"no stratified table of this layout: every one of the {attempts} (width, filler plan) attempts "
                f"of the {part.name} part ({span}, at most {MAX_PART_PLANS_PER_WIDTH} filler plans per width) was "
                f"unsat{words}; this refutes only those stratified tables, not the network (other tables "
                f"of width {self.bounds.counting} may exist)")

    def assemble(self, parts: list[Part], blocks: list[tuple[int, ...]]) -> Table:
        """The parts side by side, then every unused full orbit as a rotation block; verified."""
        cg, rot = self.cg, self.rot
        rows: list[tuple[int, int, tuple[int, ...]]] = []
        sections = []
        column = 0
        for part in parts:
            rows += expand(rot, part.rows, part.placed, column)
            sections.append({"name": part.name, "rows": part.rows, "start": column, "end": column + part.width,
                             "own_orbits": [["".join(to_letters(cg, canonical_word(cg, o[0])))] for o in part.own],
                             "filler_lengths": self._lengths(part.fillers),
                             "seconds": round(part.seconds, 3)})
            column += part.width
        start = column
        block_rows, column = rotation_blocks([canonical_word(cg, orbit[0]) for orbit in blocks], rot, column)
        rows += block_rows
        sections.append({"name": "rotation blocks", "rows": 1, "start": start, "end": column})
        provenance = {"search": {"tool": "tesearch", "strategy": "symmetry stratification",
                                 "module": "tesearch.search.stratify", "rotation": list(rot.cycle),
                                 "solver": solver_name(self.backend, self.cpsat_model), "seed": self.seed,
                                 "seconds": round(time.monotonic() - self.start, 3)},
                      "sections": sections}
        builder = TableBuilder(self.instance, "symmetry stratification")
        table = builder.place(rows).finish(column, provenance)
        self.log(f"assembled T={column} (bound {self.bounds.best}): verified, {builder.verdict(table)}")
        return table


def stratify(network: Network | Instance, exchange: Exchange | str = Exchange.TOTAL, *, budget: Budget | None = None,
             attempt_s: float = ATTEMPT_SECONDS, seed: int = 0, progress: Progress = quiet,
             backend: Backend = Backend.Z3, cpsat_model: CpsatModel = CpsatModel.PLACEMENTS) -> Outcome:
    """Run the stratified search (:class:`RotationStratifier`) within ``budget`` (default: the command's) and say
    what it showed."""
    stratifier = RotationStratifier(network, Exchange(exchange), budget=budget, attempt_s=attempt_s, seed=seed,
                                progress=progress, backend=backend, cpsat_model=cpsat_model)
    table = stratifier.run()
    name = f"{stratifier.network.spec} {stratifier.exchange.value}"
    bounds = stratifier.bounds
    seconds = time.monotonic() - stratifier.start
    facts = {"width": bounds.counting}  # the only width a stratified table has: the counting bound
    if table is None:
        return Outcome("stratify", stratifier.status, None, f"{name}: {stratifier.status.value}: {stratifier.failure}",
                       bounds, seconds, facts=facts)
    return Outcome("stratify", Status.FOUND, table, f"{name}: T = {table.T}, best bound {bounds.best}: "
                   f"{optimality_text(table.T, bounds.best)}; verified", bounds, seconds, facts=facts)
