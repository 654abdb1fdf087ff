"""A large-neighbourhood search: windows of a table's columns re-solved by CP-SAT's interval model.

Each round frees the messages that cross a window of columns ``[a, a + L)`` (and, every other round, a few more
messages started near it, chosen at random: the "set of messages" neighbourhood), keeps every message that ends
at or before ``a`` where it is, and keeps the messages that start at or after ``a + L`` as one rigid block that may
move left by a shift ``d`` in ``0..L``.  CP-SAT's interval model (as :mod:`tesearch.solvers.intervals`: one start
and one letter per position for each free message, unit intervals per letter cell, one no-overlap per letter)
places the free messages, with the block's cells as intervals at ``column - d``, and minimises the width; a second
solve at that width minimises the free messages' starts (so the free cells it cannot use drift right, into the next
window).  The block is
rigid, so its own cells never clash; with ``d <= L`` it cannot reach the kept cells left of ``a``; only the cells
the free messages can meet are in the model, so a round stays small on any table.

Every round's answer is a valid placement (the current one is the hint, ``d = 0``), so stopping is safe.  A round
that narrows the table builds it through :class:`~tesearch.tables.build.TableBuilder` (verified, or
``UnverifiedTable``: a bug) and offers it (:func:`tesearch.running.limits.offer`), so a time limit keeps the best
table reached; at the end of each sweep the current placement is offered too, even at the same width, so that a
run resumed from the table written (``--start``) goes on from the cells swept right.  A round's INFEASIBLE or
UNKNOWN proves nothing and changes nothing.  Windows sweep left to right,
their width varying by the seed; after a sweep without gain the window grows by half.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from tesearch.running import limits
from tesearch.solvers import Backend, CpsatModel
from tesearch.solvers.cpsat import DEFAULT_WORKERS, load_cp_model, new_solver
from tesearch.solvers.decide import solver_name
from tesearch.solvers.problem import Chosen, TableProblem
from tesearch.tables.build import Provenance
from tesearch.tables.layout import assign_rows
from tesearch.facts.instance import Instance
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.tables.outcome import Outcome
from tesearch.search.improve import placement_width, starting_placement
from tesearch.search.kit import TableKit
from tesearch.tables.table import Table
from tesearch.running.terms import Exchange, Status, optimality_text
from tesearch.networks.words import DEFAULT_WORD_CAP

#: the share of a window's messages added at random in a "set of messages" round
EXTRA_MESSAGE_SHARE = 0.25
#: the second solve of a round (the free messages pulled left) gets this share of the round's time
PULL_SHARE = 0.25


@dataclass(frozen=True)
class Window:
    """One neighbourhood: the columns ``[start, start + width)`` and the extra messages freed with them."""

    start: int
    width: int
    extra: frozenset[int] = frozenset()


@dataclass(frozen=True)
class RoundResult:
    """What one round gave: the new placement (None: nothing found within its time), its width, the shift of the
    block right of the window, the free messages and CP-SAT's status."""

    chosen: Chosen | None
    width: int
    shift: int
    free: int
    status: str
    seconds: float


def _ends(problem: TableProblem, chosen: Chosen) -> dict[int, tuple[int, int, int]]:
    """item -> (word, first column, end column) of a placement."""
    return {i: (w, c, c + len(problem.items[i].words[w])) for i, w, c in chosen}


@dataclass
class WindowModel:
    """The CP-SAT model of one round and its variables: the free messages' starts and letters (in ``order``), the
    block's shift, the width; ``left`` and ``block`` the kept messages."""

    model: object  # cp_model.CpModel
    shift: object
    width: object
    order: list[int]
    starts: list
    letters: list
    left: list[int]
    block: list[int]

    def placement(self, problem: TableProblem, placed: dict, answer) -> tuple[Chosen, int]:
        """(the placement a solver's answer gives, the block's shift)."""
        d = int(answer.Value(self.shift))
        new = [(i, placed[i][0], placed[i][1]) for i in self.left]
        new += [(i, placed[i][0], placed[i][1] - d) for i in self.block]
        for i, start, positions in zip(self.order, self.starts, self.letters):
            word = tuple(int(answer.Value(x)) for x in positions)
            new.append((i, problem.items[i].words.index(word), int(answer.Value(start))))
        return sorted(new), d


def _free_message(model, cp_model, item, name: str, low: int, high: int, cells: list[list], uses: list[list]):
    """A free message's start in ``[low, high - length]`` and one letter per position (its words' tuples), with an
    optional unit interval per (position, letter) in ``cells``: (start, letters)."""
    start = model.NewIntVar(low, max(low, high - item.length), f"start_{name}")
    positions = []
    for k in range(item.length):
        options = sorted({word[k] for word in item.words})
        x = model.NewIntVarFromDomain(cp_model.Domain.FromValues(options), f"letter_{name}_{k}")
        positions.append(x)
        for s in options:
            present = model.NewConstant(1) if len(options) == 1 else model.NewBoolVar(f"is_{name}_{k}_{s}")
            if len(options) > 1:
                model.Add(x == s).OnlyEnforceIf(present)
                model.Add(x != s).OnlyEnforceIf(present.Not())
            cells[s].append(model.NewOptionalFixedSizeIntervalVar(start + k, 1, present, f"cell_{name}_{k}_{s}"))
            uses[s].append(present)
    if len(item.words) > 1:
        model.AddAllowedAssignments(positions, [list(word) for word in item.words])
    return start, positions


def build_window(problem: TableProblem, placed: dict, window: Window) -> WindowModel:
    """The model of one round on ``window`` (module doc); ``placed``: item -> (word, first column, end column)."""
    cp_model = load_cp_model()
    a, L = window.start, window.width
    free = {i for i, (_, c, e) in placed.items() if c < a + L and e > a} | set(window.extra)
    block = [i for i in placed if i not in free and placed[i][1] >= a + L]
    left = [i for i in placed if i not in free and i not in block]  # each ends at or before a
    longest = max((problem.items[i].length for i in free), default=0)
    low = max(0, a - L)
    high = min(problem.width, a + 2 * L + longest)  # the free messages lie in [low, high)
    model = cp_model.CpModel()
    shift = model.NewIntVar(0, L if block else 0, "shift")
    width = model.NewIntVar(0, problem.width, "width")
    cells: list[list] = [[] for _ in range(problem.letters)]
    uses: list[list] = [[] for _ in range(problem.letters)]  # per letter: the free cells that may hold it
    kept_in = [0] * problem.letters  # per letter: the kept cells in [low, high)
    block_at: list[list[int]] = [[] for _ in range(problem.letters)]  # per letter: the block's columns
    for i in left:
        w, c, e = placed[i]
        model.Add(width >= e)
        for k, s in enumerate(problem.items[i].words[w]):
            if c + k >= low - 1:
                cells[s].append(model.NewFixedSizeIntervalVar(c + k, 1, f"kept_{i}_{k}"))
            kept_in[s] += low <= c + k < high
    for i in block:
        w, c, e = placed[i]
        model.Add(width >= e - shift)
        for k, s in enumerate(problem.items[i].words[w]):
            block_at[s].append(c + k)
            if c + k < high + L:  # farther right, the shifted cell stays right of every free cell
                cells[s].append(model.NewFixedSizeIntervalVar(c + k - shift, 1, f"block_{i}_{k}"))
    order = sorted(free)
    built = WindowModel(model, shift, width, order, [], [], left, block)
    for i in order:
        start, positions = _free_message(model, cp_model, problem.items[i], str(i), low, high, cells, uses)
        model.Add(width >= start + problem.items[i].length)
        w, c, _ = placed[i]
        model.AddHint(start, c)
        for x, s in zip(positions, problem.items[i].words[w]):
            model.AddHint(x, s)
        built.starts.append(start)
        built.letters.append(positions)
    for intervals in cells:
        model.AddNoOverlap(intervals)
    for s, present in enumerate(uses):  # redundant: letter s's free cells fit in what [low, high) leaves of it
        entering = [sum(low + d <= x < high + d for x in block_at[s]) for d in range(L + 1 if block else 1)]
        taken = model.NewIntVar(min(entering), max(entering), f"block_cells_{s}")
        model.AddElement(shift, entering, taken)
        model.Add(sum(present) + taken + kept_in[s] <= high - low)
    model.AddHint(shift, 0)
    return built


def solve_window(problem: TableProblem, chosen: Chosen, window: Window, *, seed: int = 0,
                 timeout_s: float | None = None, workers: int = DEFAULT_WORKERS) -> RoundResult:
    """One round on ``window`` (module doc): the free messages re-placed and the block right of the window shifted,
    width first, then the free messages' starts, minimised; ``chosen`` (valid within ``problem.width``) is the hint."""
    cp_model = load_cp_model()
    started = time.monotonic()
    placed = _ends(problem, chosen)
    built = build_window(problem, placed, window)
    model = built.model
    model.Minimize(built.width)
    solver = new_solver(seed=seed, timeout_s=timeout_s, workers=workers, log=False)
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return RoundResult(None, placement_width(problem, chosen), 0, len(built.order), solver.StatusName(status),
                           time.monotonic() - started)
    new, d = built.placement(problem, placed, solver)
    # second, at that width: the free messages as far left as they go, so the cells they leave drift right
    model.Add(built.width <= int(solver.Value(built.width)))
    model.Add(built.shift == d)
    model.ClearHints()
    for start, positions in zip(built.starts, built.letters):
        model.AddHint(start, solver.Value(start))
        for x in positions:
            model.AddHint(x, solver.Value(x))
    model.Minimize(sum(built.starts))
    pull = new_solver(seed=seed, timeout_s=None if timeout_s is None else timeout_s * PULL_SHARE, workers=workers,
                      log=False)
    if pull.Solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        new, d = built.placement(problem, placed, pull)
    _check_cells(problem, new)
    return RoundResult(new, placement_width(problem, new), d, len(built.order), solver.StatusName(status),
                       time.monotonic() - started)


def _check_cells(problem: TableProblem, chosen: Chosen) -> None:
    """A placement uses no (column, letter) cell twice and fits its width, or AssertionError (a bug of this module:
    the table built from it would not verify either)."""
    seen: set[tuple[int, int]] = set()
    for i, w, c in chosen:
        for k, s in enumerate(problem.items[i].words[w]):
            if c + k < 0 or (c + k, s) in seen:
                raise AssertionError(f"large-neighbourhood round: cell ({c + k}, {s}) used twice or outside the table")
            seen.add((c + k, s))


def windows(width: int, window: int, rng: random.Random, problem: TableProblem, chosen: Chosen,
            with_messages: bool) -> list[Window]:
    """One sweep of windows over ``width`` columns, left to right, each ``window`` columns give or take a quarter,
    overlapping by half; with ``with_messages`` each also frees a quarter as many random messages started near it."""
    out, a = [], 0
    while a < width:
        size = max(2, window + rng.randint(-window // 4, window // 4))
        extra: frozenset[int] = frozenset()
        if with_messages:
            near = [i for i, w, c in chosen if a - size <= c < a + 2 * size]
            extra = frozenset(rng.sample(near, min(len(near), max(1, int(size * EXTRA_MESSAGE_SHARE)))))
        out.append(Window(a, size, extra))
        a += max(1, size // 2)
    return out


def lns_table(facts: Instance, budget: Budget | None = None, *, start: Table | None = None, window: int = 30,
              round_s: float = 20.0, word_cap: int = DEFAULT_WORD_CAP, seed: int = 0, workers: int = DEFAULT_WORKERS,
              progress: Progress = quiet) -> Outcome:
    """The large-neighbourhood search (module doc) from ``start`` (a verified total table of the network) or the
    greedy first-fit table, within ``budget``: FOUND with the narrowest verified table reached."""
    if facts.exchange is not Exchange.TOTAL:
        raise AssertionError(f"lns narrows a total exchange's table, not {facts.name}'s")
    run = (f"{facts.name} lns window={window} round={round_s:g} cap={word_cap} seed={seed}"
           + ("" if start is None else " start=table"))
    kit = TableKit(facts, Provenance(solver_name(Backend.CPSAT, CpsatModel.INTERVALS), run, seed), word_cap=word_cap,
                   seed=seed, budget=budget, progress=progress)
    problem, best, first = starting_placement(kit, facts, start)
    width, bound = placement_width(problem, best), kit.bounds.best
    how = f"large-neighbourhood search (windows of about {window} columns, CP-SAT interval model) from the {first}"

    def table_of(placement: Chosen, w: int) -> Table:
        return kit.make_table(assign_rows(kit.placed(problem, placement), kit.cg.degree), w, "lns", how)

    table = table_of(best, width)
    limits.offer(table)
    kit.log(f"{first}: T={width} (bound {bound}); windows of about {window} columns, {round_s:g} s a round")
    rng = random.Random(seed)
    rounds, size, offered = 0, window, best
    with limits.phase("large-neighbourhood rounds"):
        while not kit.clock.budget.spent and width > bound:
            swept_from = width
            for spot in windows(width, size, rng, problem, best, with_messages=rounds % 2 == 1):
                if kit.clock.budget.spent or width <= bound:
                    break
                if spot.start >= width:  # the table narrowed during the sweep
                    continue
                step = solve_window(replace_width(problem, width), best, spot, seed=seed + rounds,
                                    timeout_s=kit.clock.budget.call_timeout(round_s), workers=workers)
                rounds += 1
                limits.advance()
                if step.chosen is not None:
                    best = step.chosen
                    if step.width < width:
                        width = step.width
                        table, offered = table_of(best, width), best
                        limits.offer(table)
                kit.log(f"round {rounds}: columns {spot.start}-{spot.start + spot.width - 1}"
                        f"{f' + {len(spot.extra)} messages' if spot.extra else ''}, {step.free} free, shift "
                        f"{step.shift}, width {width} ({step.status}, {step.seconds:.1f}s)")
            if best != offered:  # the sweep moved free cells right: a resumed run starts from here
                table = table_of(best, width)
                limits.offer(table)
                offered = best
            if width == swept_from:
                size += max(1, size // 2)
                kit.log(f"a sweep without gain: windows of about {size} columns now")
    summary = (f"{facts.spec}: T = {width} (best bound {bound}, {optimality_text(width, bound)}) after {rounds} "
               f"large-neighbourhood rounds; verified")
    return Outcome("lns", Status.FOUND, table, summary, kit.bounds, kit.clock.elapsed)


def replace_width(problem: TableProblem, width: int) -> TableProblem:
    """``problem`` at another width (the current table's)."""
    return replace(problem, width=width)
