"""Word segmentation for tables printed without word boundaries.

A row of letters such as ``1 1 2 1 1 2 3 1 3 2`` must be split into words,
each a shortest word of a target element, all elements distinct.  Every run
of letters between blanks is split independently, so the search is an exact
cover of the runs by candidate words with an all-different side condition;
Z3 decides it, and is asked once more for a second reading to tell a unique
transcription from an ambiguous one.

The problem is hard for long unmarked rows (star-5's 111 columns: neither Z3
nor CP-SAT finds a reading in minutes), so the solver runs in the phase
``segment words`` with a budget: at most :data:`SEGMENT_BUDGET_S` seconds per
question, and never past the command's deadline.  Undecided, it raises
:class:`~tesearch.running.errors.LimitReached` (exit 4), which says to mark the word
boundaries with ``|``.  The CLI runs it in the supervised child, so
``--timeout``, ``--max-memory``, Ctrl-C and SIGTERM hold while Z3 works.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tesearch.running import limits
from tesearch.running.errors import FormatError, LimitReached
from tesearch.networks.groups import cached_cayley_graph
from tesearch.networks.families import network_for_table
from tesearch.tables.table import Placement, Table, TextTable
from tesearch.networks.words import targets

#: seconds the segmentation solver may spend on one question when the command has no nearer deadline
SEGMENT_BUDGET_S = 60.0


@dataclass
class Segmentation:
    """A split of a text table's runs into words, and how many splits exist."""
    table: Table
    readings: int  # 1: unique; 2: at least two valid readings
    alternative: Table | None  # a second reading, when there is one

    @property
    def unique(self) -> bool:
        """Whether the reading is the only one."""
        return self.readings == 1


def word_candidates(cg, is_target: np.ndarray, letters: tuple[str, ...]) -> list[tuple[int, int, int]]:
    """(start, end, element) for every sub-run that is a shortest word of a target."""
    idx = [cg.letter_index[s] for s in letters]
    out = []
    for i in range(len(idx)):
        g = 0
        for j in range(i, len(idx)):
            g = int(cg.right[idx[j], g])
            if cg.dist[g] != j - i + 1:
                break
            if is_target[g]:
                out.append((i, j + 1, g))
    return out


def split_run(solver, n: int, length: int, cands: list[tuple[int, int, int]]) -> list[tuple[object, int, int, int]]:
    """Z3 variables for splitting run ``n`` (``length`` letters) into candidate words.

    Returns (variable, start, end, element) per candidate and adds the flow
    constraints under which the chosen candidates tile the run exactly.
    """
    import z3

    out = []
    starts: dict[int, list] = {}
    ends: dict[int, list] = {}
    for i, j, g in cands:
        v = z3.Bool(f"run{n}_{i}_{j}")
        out.append((v, i, j, g))
        starts.setdefault(i, []).append(v)
        ends.setdefault(j, []).append(v)
    solver.add(z3.PbEq([(v, 1) for v in starts.get(0, [])], 1))
    solver.add(z3.PbEq([(v, 1) for v in ends.get(length, [])], 1))
    for b in range(1, length):
        solver.add(z3.Sum([z3.If(v, 1, 0) for v in ends.get(b, [])])
                   == z3.Sum([z3.If(v, 1, 0) for v in starts.get(b, [])]))
    return out


def segment_table(table: Table, tt: TextTable, *, complete: bool = False, readings_wanted: int = 2,
                  budget_s: float = SEGMENT_BUDGET_S) -> Segmentation:
    """Split the runs of ``tt`` into words; raise FormatError if no reading exists.

    With ``complete`` every target element must be placed (a whole table);
    otherwise the words need only name distinct targets (a core).  ``readings_wanted``: 2 tells a
    unique reading from an ambiguous one, 1 stops at the first.  Each solver call gets
    ``budget_s`` seconds or the time left to the command's deadline, if nearer; undecided,
    it raises LimitReached (exit 4).
    """
    with limits.phase("segment words"):
        return _segment(table, tt, complete, readings_wanted, budget_s)


def _segment(table: Table, tt: TextTable, complete: bool, readings_wanted: int, budget_s: float) -> Segmentation:
    import z3

    cg = cached_cayley_graph(network_for_table(table.network, table.generators))
    is_target = np.zeros(cg.order, dtype=bool)
    is_target[targets(cg, table.exchange)] = True
    runs = tt.segments()
    solver = z3.Solver()
    chosen: list[tuple[z3.BoolRef, int, int, int, tuple[str, ...]]] = []
    by_element: dict[int, list] = {}
    for n, (row, col, letters) in enumerate(runs):
        cands = word_candidates(cg, is_target, letters)
        reach = {0}
        for i, j, _ in sorted(cands):
            if i in reach:
                reach.add(j)
        if len(letters) not in reach:
            raise FormatError(
                f"no reading: the letters {' '.join(letters)} at row {row}, column {col} cannot be split "
                f"into shortest words of {table.exchange} targets", where=tt.where)
        for v, i, j, g in split_run(solver, n, len(letters), cands):
            chosen.append((v, row, col + i, g, letters[i:j]))
            by_element.setdefault(g, []).append(v)
    for g, vs in by_element.items():
        if complete:
            solver.add(z3.PbEq([(v, 1) for v in vs], 1))
        elif len(vs) > 1:
            solver.add(z3.AtMost(*vs, 1))
    if complete:
        missing = [int(g) for g in np.nonzero(is_target)[0] if int(g) not in by_element]
        if missing:
            raise FormatError(f"no reading: {len(missing)} target element(s) occur in no run at all", where=tt.where)

    readings: list[Table] = []
    for _ in range(readings_wanted):
        seconds = limits.budget(budget_s)
        solver.set("timeout", max(1, int(seconds * 1000)))
        result = solver.check()
        if result == z3.unknown:
            reason = solver.reason_unknown()
            why = "the time limit was reached" if limits.time_left() == 0 else \
                f"the solver gave up after {seconds:.3g} s ({reason})"
            raise LimitReached(f"word segmentation undecided: {why}; mark each word boundary with '|' "
                               f"(tesearch writes text tables that way)", phase="segment words", where=tt.where)
        if result == z3.unsat:
            break
        model = solver.model()
        picked = [(v, r, c, w) for v, r, c, _, w in chosen if z3.is_true(model.eval(v))]
        readings.append(table.with_placements(Placement(r, c, w) for _, r, c, w in picked))
        solver.add(z3.Or([z3.Not(v) for v, *_ in picked]))
    if not readings:
        raise FormatError("no reading: every way of splitting the rows into shortest target words "
                          "places some element twice", where=tt.where)
    return Segmentation(readings[0], len(readings), readings[1] if len(readings) > 1 else None)


def segmented(table: Table, tt: TextTable) -> Table:
    """The segmenter :func:`tesearch.tables.table.read_table` takes: the table of the first reading found."""
    return segment_table(table, tt, readings_wanted=1).table
