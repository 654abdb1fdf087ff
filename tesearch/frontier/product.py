"""Optimal total-exchange tables for a product of rings, lifted one ring at a time.

README
======

Result.  ``lifted_table("torus-4x8x8")`` builds a table for a torus (any
sides, cyclic or dihedral per side) from a table of a torus with one side
fewer, down to a single ring, by solving one small Z3 problem per side.  It
is how tesearch gets the TPU-shaped tori torus-4x8x8 and torus-8x8x16 at
their per-letter bound (see results/frontier.md for what was measured).

Construction (lift).  Let G = A x H, with A a ring of m elements (letters
``a`` and ``A``, or ``a`` and ``a'``) and H the torus of the other sides,
and let P be a table for H of width T_H.  Every element of G is (x, h):

* lay m copies of P side by side, copy k in columns ``k*T_H .. (k+1)*T_H-1``;
  H's letters then sit exactly where the copies put them, so every column
  holds each H letter at most once, as in P;
* in copy k the word of h becomes a word of (x, h) for some x = x(k, h):
  a shortest word w of x in A is split as w = u v, and u goes directly
  before the H word and v directly after it (``u h-word v`` is a shuffle of
  shortest words of commuting factors, hence a shortest word of (x, h));
  the H letters do not move;
* for each h != e the copies take the m elements x once each (so (x, h) is
  placed once for every x), and each x != 0 of A also gets a lone word w
  for (x, e) anywhere;
* a solver chooses x(k, h), the word w, the split and the lone words'
  columns so that each column holds each A letter at most once, inside
  ``0..m*T_H-1``.  The model (:class:`LiftModel`) is plain 0/1 constraints
  in three sections; Z3 solves it by default, OR-Tools CP-SAT with
  ``--backend cpsat`` when it is installed (the ``cpsat`` extra).

Why the result is valid.  Each element of G != e is placed exactly once
with a shortest word; H letters are column-valid because P is; A letters
are column-valid by the Z3 constraints.  The width is m*T_H.  When that
equals the network's best lower bound (it does for every torus whose
binding bound is the per-letter bound of its longest side, or the counting
bound with all sides equal, if P is optimal) the table is optimal.

What is not proved.  That a lift exists: the Z3 problem may be unsat or
time out, and then this module says so (``LiftError``) rather than widen
the table.  Two assignment modes are tried in order, ``FIXED`` (copy k
takes one x for every h: a small model) and ``LATIN`` (x(k, h) free, each
h taking every x once: a larger model, more room).  Every delivered table
is re-checked by ``verify_table`` before it is returned.  A third mode,
``CYCLIC`` (``--mode cyclic``), asks for a Latin lift of a special form:
copy k of h takes x = k + t(h) mod m, one shift t(h) per h.  Its model is
the Latin one plus a shift section, so it admits fewer tables, but the
solver has m choices per h to make instead of a permutation.

A counting test comes first (:func:`boundary_cut`): in every mode each
factor word h has m - 1 copies with x != 0, and each of those puts a ring
letter in the column just before or just after h's copy, while a column
holds at most r ring letters (r = the ring's letter count).  A max flow
from copies to those boundary columns decides whether the factor table
leaves room; when it does not, no lift over that factor table exists in
any mode, and the min cut names the factor words and columns that show it.
The test is necessary, not sufficient: passing it says nothing.

The factor table comes from :func:`factor_table` (lift, then search, with
the chosen backend: ``--backend cpsat`` also searches the factor with
CP-SAT, which is how torus-8x10 reaches 100 and torus-6x8x10 600), or from
a file with ``--factor FILE`` (it must verify).

Usage::

    python -m tesearch.frontier.product torus-4x8x8 --out results/frontier/torus-4x8x8.json
    python -m tesearch.frontier.product torus-6x8x10 --backend cpsat --out results/frontier/torus-6x8x10.json
    python -m tesearch.frontier.product torus-4x8 --ring 0 --factor torus-8.json --out torus-4x8.json
"""

from __future__ import annotations

import argparse
import enum
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import networkx as nx
import z3

from tesearch.bounds import compute_bounds
from tesearch.backends import Backend
from tesearch.encode import SolveResult
from tesearch.errors import SolverUnavailable, SpecError, TesearchError
from tesearch.groups import cached_cayley_graph
from tesearch.networks import Network, network_from_spec, torus_network
from tesearch.search import SearchParams, Strategy, Status, assign_rows, search
from tesearch.table import Placement, Table, read_table, write_table
from tesearch.verify import verify_table
from tesearch.words import Exchange, shortest_words, to_letters

Progress = Callable[[str], None]


class LiftError(TesearchError):
    """No lifted table was found (unsat or unknown), or the input does not suit a lift."""


class AssignMode(str, enum.Enum):
    """How ring elements are spread over the copies of the factor table."""

    FIXED = "fixed"  # copy k carries x_k for every h
    LATIN = "latin"  # x(k, h) free; each h takes every x once over the copies
    CYCLIC = "cyclic"  # x(k, h) = k + t(h) mod m, one shift t(h) per h: a Latin lift with far fewer choices


@dataclass(frozen=True)
class LiftParams:
    """One lift: a torus spec, the index of the ring split off, the mode and the time."""

    network: str
    ring_index: int
    mode: AssignMode
    timeout_s: float = 120.0
    seed: int = 0
    backend: Backend = Backend.Z3

    def __str__(self) -> str:
        return f"lift {self.network} ring={self.ring_index} {self.mode.value} {self.backend.value} seed={self.seed}"


@dataclass(frozen=True)
class HWord:
    """A placed word of the factor table, in the product's letters."""

    column: int
    letters: tuple[str, ...]


@dataclass(frozen=True)
class Option:
    """One way to complete an item: the ring element, its word split, and its cells."""

    x: int
    prefix: tuple[str, ...]
    suffix: tuple[str, ...]
    start: int  # first column of the completed word
    cells: tuple[tuple[str, int], ...]  # (ring letter, column)


# ---------------------------------------------------------------- variables

def option_var(item: int, option: int) -> z3.BoolRef:
    return z3.Bool(f"lift_{item}_{option}")


def shift_var(h: int, shift: int) -> z3.BoolRef:
    return z3.Bool(f"shift_{h}_{shift}")


# ---------------------------------------------------------------- the split

def split_off(network: Network, ring_index: int) -> tuple[Network, Network, dict[str, str]]:
    """(ring A, rest H, map from H's letters to the product's letters)."""
    if network.family != "torus" or len(network.factors) < 2:
        raise SpecError(f"{network.spec}: a lift needs a torus with at least two sides")
    if not 0 <= ring_index < len(network.factors):
        raise SpecError(f"{network.spec}: no side {ring_index}")
    sides, kinds = network.params
    ring = network.factors[ring_index]
    keep = [i for i in range(len(sides)) if i != ring_index]
    rest = torus_network(tuple(sides[i] for i in keep), tuple(kinds[i] for i in keep))
    letter_map: dict[str, str] = {}
    for j, i in enumerate(keep):
        for theirs, ours in zip(rest.factors[j].letters, network.factors[i].letters):
            letter_map[theirs] = ours
    if len(letter_map) != len(rest.letters):
        raise LiftError(f"{network.spec}: the sides' letters do not line up")  # pragma: no cover
    return ring, rest, letter_map


def ring_words(ring: Network) -> list[list[tuple[str, ...]]]:
    """Shortest words of each ring element, indexed by element (0 = identity)."""
    cg = cached_cayley_graph(ring)
    return [[to_letters(cg, w) for w in shortest_words(cg, g)] if g else [()] for g in range(cg.order)]


def factor_words(factor: Table, letter_map: dict[str, str]) -> list[HWord]:
    """The factor table's placed words in the product's letters, ordered by (column, word): index = h."""
    return sorted((HWord(p.column, tuple(letter_map[s] for s in p.word)) for p in factor.placements),
                  key=lambda w: (w.column, w.letters))


# ---------------------------------------------------------------- the model

@dataclass
class LiftModel:
    """The lift as 0/1 constraints over (item, option) pairs, independent of the solver.

    Sections: ``placement`` (each item takes exactly one option), ``latin``
    (in LATIN and CYCLIC mode each factor word h takes every ring element
    exactly once over the copies), ``shift`` (in CYCLIC mode each h takes one
    shift t, and copy k of h takes x = k + t: ``shifts[h][t]`` lists, per
    copy, the options that agree with t), ``column`` (each ring letter at
    most once per column).
    """

    params: LiftParams
    items: list[tuple[str, int, int]]  # ("copy", copy, h index) or ("lone", -1, x)
    options: list[list[Option]]
    latin: list[list[tuple[int, int]]]  # exactly-one groups of (item, option)
    column: list[list[tuple[int, int]]]  # at-most-one groups of (item, option)
    width: int
    shifts: list[list[list[list[tuple[int, int]]]]] = field(default_factory=list)  # [h][t][copy] -> options

    @property
    def size(self) -> int:
        return sum(map(len, self.options))


@dataclass(frozen=True)
class BoundaryCut:
    """A counting refutation of every lift over one factor table (see the module doc).

    The factor ``words`` have ``m - 1`` copies each with x != 0 (``demand`` in
    all), each needing a ring letter in one of its boundary columns.  Those
    columns, for all but the ``loose`` copies, lie in ``columns``, which hold
    r ring letters each; the loose copies are granted one letter each.  So at
    most ``capacity`` = loose + r * len(columns) < demand copies are served.
    """

    words: tuple[int, ...]
    columns: tuple[int, ...]
    loose: int
    demand: int
    capacity: int

    def text(self) -> str:
        loose = f" (and {self.loose} copies granted one each)" if self.loose else ""
        return (f"the x != 0 copies of factor words {list(self.words)} need {self.demand} ring letters in the "
                f"columns beside them, and those are {len(self.columns)} columns{loose} holding at most "
                f"{self.capacity}")


def boundary_columns(hword: HWord, copy: int, h_width: int, width: int) -> list[int]:
    """Global columns just before and just after copy ``copy`` of ``hword``, inside the lift."""
    before, after = copy * h_width + hword.column - 1, copy * h_width + hword.column + len(hword.letters)
    return [c for c in (before, after) if 0 <= c < width]


def boundary_cut(hwords: list[HWord], h_width: int, ring_word_lists: list[list[tuple[str, ...]]]
                 ) -> BoundaryCut | None:
    """A set of factor words whose lift cannot fit, or None when the counting test leaves room.

    A nonzero ring element's word is never empty, so its prefix ends in the
    column before the copy or its suffix starts in the column after it; each
    column holds each ring letter at most once.  Flow: source -> h (m - 1)
    -> copy (h, k) (1) -> its boundary columns (unbounded) -> sink (r).  The
    min cut's side of the source gives the words, the columns and the loose
    copies of :class:`BoundaryCut`.
    """
    m = len(ring_word_lists)
    width = m * h_width
    r = len({letter for words in ring_word_lists for w in words for letter in w})
    total = (m - 1) * len(hwords)
    if total == 0:
        return None
    graph = nx.DiGraph()
    graph.add_node("sink")
    for h, hw in enumerate(hwords):
        graph.add_edge("source", ("h", h), capacity=m - 1)
        for k in range(m):
            graph.add_edge(("h", h), ("copy", h, k), capacity=1)
            for c in boundary_columns(hw, k, h_width, width):
                graph.add_edge(("copy", h, k), ("column", c))  # no capacity: unbounded
                graph.add_edge(("column", c), "sink", capacity=r)
    flow, (reached, _) = nx.minimum_cut(graph, "source", "sink")
    if flow >= total:
        return None
    words = tuple(sorted(node[1] for node in reached if isinstance(node, tuple) and node[0] == "h"))
    columns = tuple(sorted(node[1] for node in reached if isinstance(node, tuple) and node[0] == "column"))
    loose = sum(1 for h in words for k in range(m) if ("copy", h, k) not in reached)
    cut = BoundaryCut(words, columns, loose, (m - 1) * len(words), loose + r * len(columns))
    if cut.capacity >= cut.demand:  # pragma: no cover - max-flow min-cut forbids it
        raise LiftError(f"boundary cut does not add up: {cut}")
    return cut


def _split_options(x: int, words: list[tuple[str, ...]], start: int, length: int, width: int
                   ) -> list[Option]:
    out = []
    for w in words:
        for p in range(len(w) + 1):
            first = start - p
            end = start + length + len(w) - p
            if first < 0 or end > width:
                continue
            cells = tuple((w[i], first + i) for i in range(p))
            cells += tuple((w[i], start + length + i - p) for i in range(p, len(w)))
            out.append(Option(x, w[:p], w[p:], first, cells))
    return out


def build_model(params: LiftParams, hwords: list[HWord], h_width: int,
                ring_word_lists: list[list[tuple[str, ...]]]) -> LiftModel:
    m = len(ring_word_lists)
    width = m * h_width
    items: list[tuple[str, int, int]] = []
    options: list[list[Option]] = []
    # -- items: copy k of the factor word h, and one lone word per ring element x != 0
    for k in range(m):
        for hi, hw in enumerate(hwords):
            xs = [k] if params.mode is AssignMode.FIXED else range(m)
            opts = []
            for x in xs:
                opts += _split_options(x, ring_word_lists[x], k * h_width + hw.column, len(hw.letters), width)
            items.append(("copy", k, hi))
            options.append(opts)
    for x in range(1, m):
        opts = []
        for w in ring_word_lists[x]:
            for c in range(width - len(w) + 1):
                opts.append(Option(x, w, (), c, tuple((w[i], c + i) for i in range(len(w)))))
        items.append(("lone", -1, x))
        options.append(opts)
    for i, opts in enumerate(options):
        if not opts:
            raise LiftError(f"{params}: item {items[i]} has no option inside the width")
    # -- section latin
    latin: list[list[tuple[int, int]]] = []
    if params.mode in (AssignMode.LATIN, AssignMode.CYCLIC):
        by_h_x: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for i, (kind, _, hi) in enumerate(items):
            if kind == "copy":
                for o, opt in enumerate(options[i]):
                    by_h_x.setdefault((hi, opt.x), []).append((i, o))
        latin = [by_h_x[key] for key in sorted(by_h_x)]
    # -- section shift
    shifts: list[list[list[list[tuple[int, int]]]]] = []
    if params.mode is AssignMode.CYCLIC:
        per_h: dict[int, dict[int, int]] = {}  # h -> copy -> item
        for i, (kind, k, hi) in enumerate(items):
            if kind == "copy":
                per_h.setdefault(hi, {})[k] = i
        for hi in range(len(hwords)):
            by_shift = []
            for t in range(m):
                by_shift.append([[(i, o) for o, opt in enumerate(options[i]) if opt.x == (k + t) % m]
                                 for k, i in sorted(per_h[hi].items())])
            shifts.append(by_shift)
    # -- section column
    users: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for i, opts in enumerate(options):
        for o, opt in enumerate(opts):
            for cell in opt.cells:
                users.setdefault(cell, []).append((i, o))
    column = [users[cell] for cell in sorted(users) if len(users[cell]) > 1]
    return LiftModel(params, items, options, latin, column, width, shifts)


def restrict(model: LiftModel, h_indices: set[int] | list[int]) -> LiftModel:
    """The lift model cut down to every copy of the factor words ``h_indices``.

    The lone words, and the column constraints with the items dropped, are
    left out, so this is a relaxation: when it is unsat, no lift of the whole
    model exists (in the same mode, over the same factor table).
    """
    keep_h = set(h_indices)
    old = [i for i, (kind, _, hi) in enumerate(model.items) if kind == "copy" and hi in keep_h]
    new_index = {i: j for j, i in enumerate(old)}

    def remap(group: list[tuple[int, int]]) -> list[tuple[int, int]]:
        return [(new_index[i], o) for i, o in group if i in new_index]

    latin = [remap(g) for g in model.latin if g and all(i in new_index for i, _ in g)]
    column = [g for g in (remap(g) for g in model.column) if len(g) > 1]
    shifts = [[[remap(per) for per in by_shift] for by_shift in model.shifts[hi]]
              for hi in sorted(keep_h)] if model.shifts else []
    return LiftModel(model.params, [model.items[i] for i in old], [model.options[i] for i in old], latin, column,
                     model.width, shifts)


def z3_solver(model: LiftModel) -> z3.Solver:
    """The lift model's sections as Z3 constraints (``.to_smt2()`` gives the SMT-LIB2 form)."""
    solver = z3.Solver()
    solver.set("random_seed", model.params.seed)
    solver.set("timeout", int(model.params.timeout_s * 1000))
    for i, opts in enumerate(model.options):
        solver.add(z3.PbEq([(option_var(i, o), 1) for o in range(len(opts))], 1))
    for group in model.latin:
        solver.add(z3.PbEq([(option_var(i, o), 1) for i, o in group], 1))
    for group in model.column:
        solver.add(z3.AtMost(*[option_var(i, o) for i, o in group], 1))
    for h, by_shift in enumerate(model.shifts):
        solver.add(z3.PbEq([(shift_var(h, t), 1) for t in range(len(by_shift))], 1))
        for t, per_copy in enumerate(by_shift):
            for group in per_copy:  # copy k agrees with shift t exactly when t is h's shift
                solver.add(shift_var(h, t) == z3.PbEq([(option_var(i, o), 1) for i, o in group], 1)
                           if group else z3.Not(shift_var(h, t)))
    return solver


def solve_z3(model: LiftModel) -> tuple[SolveResult, dict[int, int]]:
    """Z3: (result, chosen option per item)."""
    solver = z3_solver(model)
    answer = solver.check()
    if answer != z3.sat:
        return (SolveResult.UNSAT if answer == z3.unsat else SolveResult.UNKNOWN), {}
    found = solver.model()
    chosen = {}
    for i, opts in enumerate(model.options):
        for o in range(len(opts)):
            if z3.is_true(found.eval(option_var(i, o), model_completion=True)):
                chosen[i] = o
    return SolveResult.SAT, chosen


def solve_cpsat(model: LiftModel, workers: int = 2) -> tuple[SolveResult, dict[int, int]]:
    """OR-Tools CP-SAT on the same sections (optional dependency; an INFEASIBLE is not certified)."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise SolverUnavailable("the cpsat backend needs OR-Tools: pip install 'tesearch[cpsat]'") from None
    cp = cp_model.CpModel()
    var = [[cp.NewBoolVar(f"lift_{i}_{o}") for o in range(len(opts))] for i, opts in enumerate(model.options)]
    for row in var:
        cp.AddExactlyOne(row)
    for group in model.latin:
        cp.AddExactlyOne([var[i][o] for i, o in group])
    for group in model.column:
        cp.AddAtMostOne([var[i][o] for i, o in group])
    for h, by_shift in enumerate(model.shifts):
        shift = [cp.NewBoolVar(f"shift_{h}_{t}") for t in range(len(by_shift))]
        cp.AddExactlyOne(shift)
        for t, per_copy in enumerate(by_shift):
            for group in per_copy:  # an item takes one option, so the sum is 0 or 1
                cp.Add(sum(var[i][o] for i, o in group) == shift[t])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = model.params.timeout_s
    solver.parameters.num_search_workers = workers
    solver.parameters.random_seed = model.params.seed
    status = solver.Solve(cp)
    if status == cp_model.INFEASIBLE:
        return SolveResult.UNSAT, {}
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SolveResult.UNKNOWN, {}
    chosen = {i: next(o for o, v in enumerate(row) if solver.Value(v)) for i, row in enumerate(var)}
    return SolveResult.SAT, chosen


def decode(model: LiftModel, chosen: dict[int, int], hwords: list[HWord]) -> list[tuple[int, int, tuple[str, ...]]]:
    """(item, start column, word) for every item, from the chosen option of each."""
    placed = []
    for i, opts in enumerate(model.options):
        if i not in chosen:  # pragma: no cover - the placement section forbids it
            raise LiftError(f"item {model.items[i]} has no chosen option")
        opt = opts[chosen[i]]
        kind, _, hi = model.items[i]
        middle = hwords[hi].letters if kind == "copy" else ()
        placed.append((i, opt.start, opt.prefix + middle + opt.suffix))
    return placed


# ---------------------------------------------------------------- driver

def _quiet(_: str) -> None:
    return None


def _searched(network: Network, timeout_s: float, backend: Backend, progress: Progress) -> Table | None:
    outcome = search(network, SearchParams(network.spec, Exchange.TOTAL, Strategy.AUTO, timeout_s, backend=backend))
    progress(f"{network.spec}: search {outcome.status.value}, T = {outcome.T}")
    return outcome.table if outcome.status is Status.FOUND else None


def factor_table(spec: str, *, timeout_s: float, backend: Backend = Backend.Z3, progress: Progress = _quiet) -> Table:
    """The best total-exchange table of ``spec`` that search and lifts give, optimal when they reach it.

    A ring, or a torus with equal sides (it has a rotation, and the rotation
    search is fast there while a lift has no slack at all), is searched
    first; any other torus is lifted first, and searched when the lift
    leaves a gap.
    """
    network = network_from_spec(spec)
    bound = compute_bounds(cached_cayley_graph(network), Exchange.TOTAL).best
    liftable = network.family == "torus" and len(network.factors) >= 2
    tries = ["search", "lift"] if not liftable or network.rotation is not None else ["lift", "search"]
    best: Table | None = None
    failures = []
    for how in tries:
        if how == "lift" and not liftable:
            continue
        try:
            table = (lifted_table(spec, timeout_s=timeout_s, backend=backend, progress=progress) if how == "lift"
                     else _searched(network, timeout_s, backend, progress))
        except LiftError as exc:
            failures.append(str(exc))
            continue
        if table is not None and (best is None or table.T < best.T):
            best = table
        if best is not None and best.T == bound:
            break
    if best is None:
        raise LiftError(f"{spec}: neither search nor a lift gave a table ({'; '.join(failures) or 'search unknown'})")
    return best


def verified_factor(factor: Table, *, where: str) -> Table:
    """``factor`` if it passes verify; else a one-line error naming ``where`` and the first violation."""
    check = verify_table(factor)
    if not check.ok:
        raise TesearchError(f"the factor table does not verify ({len(check.violations)} violation(s)); "
                            f"first: {check.violations[0]}", where=where)
    return factor


def lifted_table(spec: str, *, ring_index: int | None = None, factor: Table | None = None,
                 timeout_s: float = 120.0, modes: tuple[AssignMode, ...] = (AssignMode.FIXED, AssignMode.LATIN),
                 backend: Backend = Backend.Z3, progress: Progress = _quiet) -> Table:
    """A verified table for the torus ``spec`` lifted from a table of its other sides (see the module doc).

    ``factor`` is that table (letters as in the torus of the other sides);
    by default it comes from :func:`factor_table`.  The result is as wide as
    ``m * factor.T``, so it is optimal only when that meets the bound.
    """
    network = network_from_spec(spec)
    if network.family != "torus" or len(network.factors) < 2:
        raise SpecError(f"{spec}: a lift needs a torus with at least two sides")
    sides = network.params[0]
    if ring_index is None:  # split off the shortest side, keeping the longest ones in the factor
        ring_index = min(range(len(sides)), key=lambda i: (sides[i], i))
    ring, rest, letter_map = split_off(network, ring_index)
    sub = factor if factor is not None else factor_table(rest.spec, timeout_s=timeout_s, backend=backend,
                                                         progress=progress)
    if sub.network != rest.spec or sub.exchange != Exchange.TOTAL.value:
        raise SpecError(f"{spec}: the factor table is for {sub.network} {sub.exchange}, not {rest.spec} total")
    hwords = factor_words(sub, letter_map)
    words = ring_words(ring)
    cg = cached_cayley_graph(network)
    bounds = compute_bounds(cg, Exchange.TOTAL)
    if len(words) * sub.T < bounds.best:  # no table is narrower than a lower bound: do not ask a solver
        raise LiftError(f"{spec}: a lift of {ring.spec} over {rest.spec} (T = {sub.T}) is {len(words)} * {sub.T} "
                        f"= {len(words) * sub.T} wide, below the lower bound {bounds.best}")
    cut = boundary_cut(hwords, sub.T, words)
    if cut is not None:  # no mode can lift this factor table: say why instead of asking a solver
        raise LiftError(f"{spec}: no lift of {ring.spec} over this {rest.spec} table (T = {sub.T}) exists in any "
                        f"mode: {cut.text()}")
    last = "no mode tried"
    for mode in modes:
        params = LiftParams(network.spec, ring_index, mode, timeout_s, backend=backend)
        t0 = time.monotonic()
        model = build_model(params, hwords, sub.T, words)
        built = time.monotonic() - t0
        answer, chosen = solve_cpsat(model) if backend is Backend.CPSAT else solve_z3(model)
        took = time.monotonic() - t0
        progress(f"{params}: {answer.value} (width {model.width}, {model.size} options, "
                 f"built {built:.1f}s, total {took:.1f}s)")
        if answer is not SolveResult.SAT:
            last = f"{params}: {answer.value} after {took:.1f}s"
            continue
        placed = decode(model, chosen, hwords)
        rows = assign_rows(placed, len(network.letters))
        table = Table(network.spec, Exchange.TOTAL.value, network.generators_json(), model.width,
                      sorted(Placement(r, c, w) for r, c, w in rows), bounds.counting,
                      {"letter_bound": bounds.letter.value,
                       "construction": {"method": "ring lift (tesearch/frontier/product.py)",
                                        "ring": ring.spec, "factor": rest.spec, "factor_T": sub.T,
                                        "mode": mode.value, "backend": backend.value,
                                        "seconds": round(took, 1)}})
        check = verify_table(table, cg=cg, bounds=bounds)
        if not check.ok:  # pragma: no cover - the model forbids it; verify anyway
            raise LiftError(f"{params}: the lifted table does not verify: {check.summary()}")
        return table
    raise LiftError(f"{spec}: no lift found ({last})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Lift a torus table from a torus with one side fewer.")
    ap.add_argument("network")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per Z3 call")
    ap.add_argument("--backend", choices=[b.value for b in Backend], default=Backend.Z3.value)
    ap.add_argument("--ring", type=int, default=None,
                    help="which side (0-based) to split off as the ring; default: the shortest")
    ap.add_argument("--mode", action="append", choices=[m.value for m in AssignMode], default=None,
                    help="assignment mode to try, repeatable, in order (default: fixed, then latin)")
    ap.add_argument("--factor", default=None, metavar="FILE",
                    help="a tesearch-table of the torus of the other sides to lift (it must verify); "
                         "default: search or lift one")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    try:
        factor = None
        if args.factor is not None:
            factor = verified_factor(read_table(args.factor), where=args.factor)
        modes = tuple(AssignMode(m) for m in args.mode) if args.mode else (AssignMode.FIXED, AssignMode.LATIN)
        table = lifted_table(args.network, ring_index=args.ring, factor=factor, timeout_s=args.timeout,
                             modes=modes, backend=Backend(args.backend),
                             progress=lambda s: print(s, flush=True))
    except TesearchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 4 if isinstance(exc, LiftError) else 2
    check = verify_table(table)
    print(f"{table.network}: T = {table.T}, best bound {check.bounds.best}: "
          f"{'optimal' if table.T == check.bounds.best else f'gap {table.T - check.bounds.best}'}")
    if args.out:
        write_table(table, Path(args.out))
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
