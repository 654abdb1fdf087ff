"""A rotation core split into mirrored lanes and a free part (abelian networks with a rotation of even
order; it made torus-12x12x24:twisted's T = 6039): the ``narrow --core-model lanes|joint-lanes`` strategy.

The rotation search (:mod:`tesearch.search.core`) places the exceptional elements in a core in front of
the rotation blocks. For an abelian network whose rotation sigma has even order S, this builds that
core from two parts, side by side:

* **lanes** (columns 0..P-1): row r and row r + S/2 form a lane; every word in row r < S/2 is
  mirrored in row r + S/2 by sigma^(S/2), which names the element sigma^(S/2)(g). A lane unit is a
  pair {g, sigma^(S/2)(g)} of distinct exceptional elements. A column is then valid exactly when
  the S/2 upper rows use letters of distinct classes {l, sigma^(S/2)(l)}, so the lane part is a
  model over S/2 rows and S/2 classes (CP-SAT, blanks allowed when P * S/2 exceeds its letters).
* **free** (columns P..P+Q-1): every other exceptional element (those fixed by sigma^(S/2), and
  the pairs not put in lanes), in an exact model: a start and a letter-count vector per element,
  one Boolean per (element, column, letter), each letter at most once per column. Because the
  group is abelian, any order of a shortest word's letters is a shortest word, so no word list is
  needed; rows follow by interval colouring.

Splits (which pairs go free) are tried in order of total width P + Q, each part with a time limit;
the first that both parts solve is assembled with the rotation blocks (:meth:`TableKit.assemble`,
which verifies the table). A split whose part is infeasible is skipped; CP-SAT's infeasible is not a
certificate, so nothing is claimed about widths skipped: the outcome is FOUND or UNKNOWN, never
INFEASIBLE. ``joint`` puts the whole core in one model (pairs mirrored, fixed elements sharing their
columns), width by width.
"""

from __future__ import annotations

import itertools
import time

from tesearch.solvers import DEFAULT_WORKERS, Backend
from tesearch.solvers.decide import solver_name
from tesearch.facts.bounds import letter_vectors
from tesearch.tables.build import Provenance
from tesearch.running.errors import ConstructionError
from tesearch.facts.instance import Instance
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.tables.outcome import Outcome
from tesearch.search.kit import TableKit
from tesearch.running.terms import Exchange, Status, optimality_text


def _cp():
    """OR-Tools' cp_model (the cpsat extra), loaded when a model is built; one line and exit 2 without it."""
    from tesearch.solvers.cpsat import load_cp_model

    return load_cp_model()


def _found(status) -> bool:
    cp_model = _cp()
    return status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


#: columns beyond a part's letter count tried for it (each adds blank cells)
MAX_EXTRA_COLUMNS = 2


def start_columns(m, length: int, width: int):
    """A word of ``length`` letters somewhere in ``width`` columns: one Boolean per first column (exactly
    one true), and per column the 0/1 expression "the word covers it"."""
    starts = [m.NewBoolVar("") for _ in range(width - length + 1)]
    m.AddExactlyOne(starts)
    cover = [sum(starts[a] for a in range(max(0, c - length + 1), min(c, width - length) + 1)) for c in range(width)]
    return starts, cover


def run(m, timeout_s: float):
    """(solver, status) of one CP-SAT run on ``m``."""
    solver = _cp().CpSolver()
    solver.parameters.max_time_in_seconds = timeout_s
    solver.parameters.num_workers = DEFAULT_WORKERS
    # CP-SAT would take Ctrl-C as "stop this solve" and the run would go on to the next split;
    # leave it to Python, which raises KeyboardInterrupt when the solve returns (within one solver call)
    solver.parameters.catch_sigint_signal = False
    return solver, solver.Solve(m)


def first_column(solver, starts) -> int:
    """The first column a solved word of :func:`start_columns` took."""
    return next(c for c, b in enumerate(starts) if solver.Value(b))


def any_order_word(m, vectors, length: int, width: int, letters: int):
    """A word of ``length`` letters in ``width`` columns whose letter counts are one of ``vectors``, in any
    order (an abelian group's shortest words): (its start Booleans, its (column, letter) -> Boolean uses)."""
    starts, cover = start_columns(m, length, width)
    chosen = [m.NewBoolVar("") for _ in vectors]
    m.AddExactlyOne(chosen)
    use = {}
    for t in range(letters):
        if any(v[t] for v in vectors):
            for c in range(width):
                use[c, t] = m.NewBoolVar("")
            m.Add(sum(use[c, t] for c in range(width)) == sum(v[t] * b for v, b in zip(vectors, chosen)))
    for c in range(width):
        m.Add(sum(use[c, t] for t in range(letters) if (c, t) in use) == cover[c])
    return starts, use


def solved_word(solver, starts, use, length: int, letters: int):
    """(first column, word) of a solved :func:`any_order_word`."""
    first = first_column(solver, starts)
    return first, tuple(next(t for t in range(letters) if (c, t) in use and solver.Value(use[c, t]))
                        for c in range(first, first + length))


class LaneCore:
    """The exceptional elements of SPEC's rotation core, split into lane pairs and free elements; its tables
    name ``run`` (default: the lane core of the instance) as their run, and CP-SAT as their solver."""

    def __init__(self, facts: Instance, run: str | None = None):
        spec = facts.spec
        if facts.exchange is not Exchange.TOTAL:
            raise ConstructionError(f"{spec}: the lane core is built for total exchange")
        provenance = Provenance(solver_name(Backend.CPSAT), run or f"{facts.name} lane-core", None)
        self.kit = TableKit(facts, provenance)
        s = self.kit
        if s.rotation is None:
            raise ConstructionError(f"{spec}: no rotation")
        self.full, short, _, self.blanks = s.orbit_classes
        self.S = s.cg.degree
        if self.S % 2:
            raise ConstructionError(f"{spec}: the rotation's order {self.S} is odd; lanes need an even order")
        self.half = self.S // 2
        letters = range(self.S)
        if any(self.step(self.step(0, a), b) != self.step(self.step(0, b), a) for a in letters for b in letters):
            raise ConstructionError(f"{spec}: the group is not abelian; the free part's model needs any-order words")
        self.vectors = letter_vectors(s.cg)
        cycle = [s.cg.letters.index(x) for x in s.rotation.cycle]
        self.turn = {cycle[i]: cycle[(i + self.half) % self.S] for i in range(self.S)}  # sigma^(S/2) on letters
        exceptional = [g for orbit in short for g in orbit]
        self.fixed, self.pairs, seen = [], [], set()
        for g in exceptional:
            if g in seen:
                continue
            word = self.some_word(g)
            partner = self.element(tuple(self.turn[t] for t in word))
            seen.update((g, partner))
            if partner == g:
                self.fixed.append(g)
            else:
                self.pairs.append((g, partner))

    def step(self, g: int, letter: int) -> int:
        """The element g followed by ``letter``."""
        return int(self.kit.cg.right[letter, g])

    def element(self, word) -> int:
        """The element a word (letter indices) names."""
        g = 0
        for t in word:
            g = self.step(g, t)
        return g

    def some_word(self, g: int) -> tuple[int, ...]:
        """A shortest word of g: the letters of its least letter-count vector, in letter order."""
        vector = min(self.vectors[g])
        return tuple(t for t in range(self.S) for _ in range(vector[t]))

    def length(self, g: int) -> int:
        """The distance of g."""
        return int(self.kit.cg.dist[g])

    def lanes(self, pairs, width: int, timeout_s: float):
        """Lane part: (status, [(element, column, word), ...] or None); "TOO-NARROW" without a model when a
        word is longer than ``width`` (CP-SAT would call such a model invalid, not infeasible)."""
        S, half = self.S, self.half
        if any(self.length(g) > width for g, _ in pairs):
            return "TOO-NARROW", None
        classes = sorted({frozenset((t, self.turn[t])) for t in range(S)}, key=min)
        m = _cp().CpModel()
        items, rows = [], {r: [] for r in range(half)}
        for g, partner in pairs:
            length = self.length(g)
            options = [(h, v) for h in (g, partner) for v in sorted(self.vectors[h])
                       if all(sum(v[t] > 0 for t in c_set) <= 1 for c_set in classes)]  # one letter per class
            if not options:
                return "NO-OPTION", None
            starts, cover = start_columns(m, length, width)
            first = m.NewIntVar(0, width - length, "")
            m.Add(first == sum(c * b for c, b in enumerate(starts)))
            row = [m.NewBoolVar("") for _ in range(half)]
            m.AddExactlyOne(row)
            for r in range(half):
                rows[r].append(m.NewOptionalFixedSizeIntervalVar(first, length, row[r], ""))
            chosen = [m.NewBoolVar("") for _ in options]
            m.AddExactlyOne(chosen)
            at = {(c, k): m.NewBoolVar("") for c in range(width) for k in range(half)}
            for k, c_set in enumerate(classes):
                m.Add(sum(at[c, k] for c in range(width)) ==
                      sum(sum(v[t] for t in c_set) * b for (_, v), b in zip(options, chosen)))
            for c in range(width):
                m.Add(sum(at[c, k] for k in range(half)) == cover[c])
            items.append((length, options, starts, chosen, at))
        for r in range(half):
            m.AddNoOverlap(rows[r])
        for c in range(width):
            for k in range(half):
                m.Add(sum(it[4][c, k] for it in items) <= 1)
        solver, status = run(m, timeout_s)
        if not _found(status):
            return solver.StatusName(status), None
        placed = []
        for length, options, starts, chosen, at in items:
            first = first_column(solver, starts)
            h, v = next(o for o, b in zip(options, chosen) if solver.Value(b))
            letter = {k: next(t for t in classes[k] if v[t] > 0) for k in range(half)
                      if any(v[t] > 0 for t in classes[k])}
            word = tuple(letter[next(k for k in range(half) if solver.Value(at[c, k]))] for c in range(first, first + length))
            mirror = tuple(self.turn[t] for t in word)
            placed += [(self.element(word), first, word), (self.element(mirror), first, mirror)]
        return solver.StatusName(status), placed

    def free(self, elements, width: int, timeout_s: float):
        """Free part: (status, [(element, column, word), ...] or None)."""
        S = self.S
        m = _cp().CpModel()
        words = {g: any_order_word(m, sorted(self.vectors[g]), self.length(g), width, S) for g in elements}
        for c in range(width):
            for t in range(S):
                m.Add(sum(use[c, t] for _, use in words.values() if (c, t) in use) <= 1)
        solver, status = run(m, timeout_s)
        if not _found(status):
            return solver.StatusName(status), None
        placed = [(g, *solved_word(solver, starts, use, self.length(g), S)) for g, (starts, use) in words.items()]
        return solver.StatusName(status), placed

    def joint(self, width: int, timeout_s: float):
        """The whole core in one model: (status, [(element, column, word), ...] or None).

        Every pair is mirrored (its upper word's letter t at column c puts sigma^(S/2)(t) there too),
        and the elements fixed by sigma^(S/2) share the same columns: a letter is used at most once
        per column by an upper word, a mirror or a fixed element. Two fixed elements may so share a
        letter class in one column when their letters differ, which the split into lanes and a
        free part cannot express.
        """
        S = self.S
        m = _cp().CpModel()
        jobs = []  # (kind, unit, starts, use)
        for kind, unit in [("pair", p) for p in self.pairs] + [("fixed", (g,)) for g in self.fixed]:
            vectors = [v for h in unit for v in sorted(self.vectors[h])]
            jobs.append((kind, unit, *any_order_word(m, vectors, self.length(unit[0]), width, S)))
        for c in range(width):
            for t in range(S):
                terms = []
                for kind, _, _, use in jobs:
                    if (c, t) in use:
                        terms.append(use[c, t])
                    if kind == "pair" and (c, self.turn[t]) in use:
                        terms.append(use[c, self.turn[t]])
                m.Add(sum(terms) <= 1)
        solver, status = run(m, timeout_s)
        if not _found(status):
            return solver.StatusName(status), None
        placed = []
        for kind, unit, starts, use in jobs:
            first, word = solved_word(solver, starts, use, self.length(unit[0]), S)
            placed.append((self.element(word), first, word))
            if kind == "pair":
                mirror = tuple(self.turn[t] for t in word)
                placed.append((self.element(mirror), first, mirror))
        return solver.StatusName(status), placed

    def splits(self, max_width: int):
        """(total width, lane width, free width, lane pairs, free elements), narrowest first."""
        out = []
        fixed_letters = sum(self.length(g) for g in self.fixed)
        longest_fixed = max((self.length(g) for g in self.fixed), default=0)
        for k in range(len(self.pairs) + 1):
            for free_pairs in itertools.combinations(self.pairs, k):
                lane_pairs = [p for p in self.pairs if p not in free_pairs]
                lane_letters = sum(self.length(g) for g, _ in lane_pairs)
                free = self.fixed + [g for p in free_pairs for g in p]
                free_letters = fixed_letters + sum(self.length(g) for g in free[len(self.fixed):])
                lane_w = -(-lane_letters // self.half) if lane_pairs else 0
                lane_w = max([lane_w] + [self.length(g) for g, _ in lane_pairs])
                free_w = max(-(-free_letters // self.S), longest_fixed, max((self.length(g) for g in free), default=0))
                for extra_lane in range(MAX_EXTRA_COLUMNS + 1):
                    for extra_free in range(MAX_EXTRA_COLUMNS + 1):
                        total = lane_w + extra_lane + free_w + extra_free
                        if total <= max_width:
                            out.append((total, lane_w + extra_lane, free_w + extra_free, lane_pairs, free))
        out.sort(key=lambda s: (s[0], s[2]))
        return out


def lane_core_table(facts: Instance, budget: Budget, *, joint: bool = False, from_width: int = 0,
                    max_width: int | None = None, part_s: float = 40.0,
                    progress: Progress = quiet) -> Outcome:
    """The lane core's table of ``facts`` (module doc) within ``budget``: FOUND with the verified table, or
    UNKNOWN when no split (``joint``: no width) was solved in time up to ``max_width`` (default: the
    exact core width + 12).  ``from_width`` skips narrower cores; ``part_s`` bounds one CP-SAT call.
    Raises ConstructionError where the lane core does not apply (no rotation, odd order, not abelian)."""
    began = time.monotonic()
    run = (f"{facts.name} lane-core {'joint' if joint else 'split'} from={from_width} max={max_width} "
           f"part={part_s:g}s")
    core = LaneCore(facts, run)
    s = core.kit
    exact = -(-(sum(core.length(g) for g in core.fixed + [g for p in core.pairs for g in p]) + core.blanks) // core.S)
    widest = max_width if max_width is not None else exact + 12
    progress(f"{facts.spec}: {len(core.pairs)} lane pairs, {len(core.fixed)} elements fixed by sigma^{core.half}; "
             f"exact core width {exact}")
    found = _joint(core, exact, widest, from_width, part_s, budget, progress) if joint else \
        _split(core, widest, from_width, part_s, budget, progress)
    seconds = time.monotonic() - began
    if found is None:
        stopped = budget.spent
        why = "the time limit was reached" if stopped else f"no core was solved up to width {widest}"
        return Outcome("lane-core", Status.UNKNOWN, None, f"{facts.name}: no lane core table ({why}; "
                       "CP-SAT's infeasible parts are not certificates: nothing is refuted)", s.bounds, seconds)
    placed, width, method, what = found
    table = s.assemble(placed, width, core.full, [], strategy="lane-core", method=method)
    return Outcome("lane-core", Status.FOUND, table,
                   f"{facts.name}: T = {table.T}, best bound {s.bounds.best}: "
                   f"{optimality_text(table.T, s.bounds.best)}; {what}; verified", s.bounds, seconds)


def _split(core: LaneCore, widest: int, from_width: int, part_s: float, budget: Budget, progress):
    """Lanes + free part, split by split in order of total width: (placed, width, method, what) or None."""
    failed: set = set()
    for total, lane_w, free_w, lane_pairs, free in core.splits(widest):
        if total < from_width:
            continue
        if budget.call_timeout(part_s) <= 0:
            return None
        key_lane, key_free = (lane_w, tuple(lane_pairs)), (free_w, tuple(free))
        if key_lane in failed or key_free in failed:
            continue
        status, lanes = core.lanes(lane_pairs, lane_w, budget.call_timeout(part_s)) if lane_pairs else ("EMPTY", [])
        if lanes is None:
            failed.add(key_lane)
            progress(f"core {total}: lanes {lane_w} {status}")
            continue
        left = budget.call_timeout(part_s)
        if left <= 0:
            return None
        status_free, free_part = core.free(free, free_w, left)
        progress(f"core {total}: lanes {lane_w} {status}, free {free_w} {status_free}")
        if free_part is None:
            failed.add(key_free)
            continue
        placed = lanes + [(g, c + lane_w, w) for g, c, w in free_part]
        return (placed, total, "lane core (mirrored lanes + exact free part) + rotation blocks",
                f"core {total} = lanes {lane_w} + free {free_w}")
    return None


def _joint(core: LaneCore, exact: int, widest: int, from_width: int, part_s: float, budget: Budget, progress):
    """The whole core as one model, narrowest width first: (placed, width, method, what) or None."""
    for width in range(max(from_width, exact), widest + 1):
        left = budget.call_timeout(part_s)
        if left <= 0:
            return None
        t0 = time.monotonic()
        status, placed = core.joint(width, left)
        progress(f"core {width}: joint {status} ({time.monotonic() - t0:.1f} s)")
        if placed is not None:
            return (placed, width, "joint lane core (mirrored pairs and fixed elements in one model) + rotation "
                    "blocks", f"core {width}")
    return None
