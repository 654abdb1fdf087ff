"""Readings of printed tables: cells -> words, with the paper's intent as constraints.

A printed table is a grid of cells (letters or blanks) without reliable word
boundaries.  A *reading* splits every maximal run of letters into shortest
words of distinct target elements.  What else a reading must satisfy depends
on what the paper says the grid is:

* ``ReadingMode.COMPLETE``: a whole table; every target element exactly once;
* ``ReadingMode.CORE``: a core to be completed by rotation blocks ("add the
  remaining orbits as before"): every exceptional target is in it and every
  full sigma-orbit is in it entirely or not at all;
* ``ReadingMode.PARTIAL``: words of distinct targets, nothing more.

Readings are enumerated with Z3 (one blocking clause per reading found) up to
a cap, so a caller can tell "no reading", "exactly one" and "several".

:func:`reinsert_blanks` handles transcriptions that lost, moved or invented
blank cells: it keeps each row's letters in order, re-places the blanks
(narrowing the table where blanks were invented), and returns the placements
whose columns are valid and which admit a reading, narrowest and closest to
the print first.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from tesearch.networks.groups import CayleyGraph
from tesearch.networks.rotation import Rotation
from tesearch.tables.segment import split_run, word_candidates
from tesearch.tables.table import Placement
from tesearch.networks.words import targets

PrintedCells = list[list[str | None]]  # rows x columns, None = blank

#: readings enumerated before saying "at least this many"
READING_CAP = 8


class ReadingMode(str, enum.Enum):
    """What a reading of printed cells must place: a whole table or a core."""
    COMPLETE = "complete"
    CORE = "core"
    PARTIAL = "partial"


@dataclass
class ReadingResult:
    """The readings of printed cells found, and why there are none."""
    readings: list[list[Placement]]  # up to the cap
    capped: bool  # True when more readings may exist
    reason: str  # why there is none (empty when there are readings)

    @property
    def count_text(self) -> str:
        """How many readings, for people ('8+' when capped)."""
        n = len(self.readings)
        return f"{n}+" if self.capped else str(n)


def runs_of(cells: PrintedCells) -> list[tuple[int, int, tuple[str, ...]]]:
    """Maximal runs of letters: (row, first column, letters)."""
    out = []
    for r, row in enumerate(cells):
        start, run = 0, []
        for c, cell in enumerate(list(row) + [None]):
            if cell is None:
                if run:
                    out.append((r, start, tuple(run)))
                run = []
                continue
            if not run:
                start = c
            run.append(cell)
    return out


def columns_valid(cells: PrintedCells) -> bool:
    """No column holds a letter twice."""
    width = max((len(r) for r in cells), default=0)
    for c in range(width):
        seen = set()
        for row in cells:
            if c < len(row) and row[c] is not None:
                if row[c] in seen:
                    return False
                seen.add(row[c])
    return True


def read_cells(cells: PrintedCells, cg: CayleyGraph, exchange: str, mode: ReadingMode,
               rotation: Rotation | None = None, cap: int = READING_CAP,
               cuts: list[set[int]] | None = None) -> ReadingResult:
    """Enumerate up to ``cap`` readings of ``cells`` (see the module doc).

    ``cuts`` (optional, per row) are the only columns where a word may start or
    end inside a run: the boundaries of a template's printed cells.

    Long because the readings come from one Z3 model built and queried in place (the cell checks, the
    candidate words of each run, the mode's rules on elements and orbits, then one blocking clause per
    reading found), and every step uses the same variables.
    """
    import z3

    target_set = targets(cg, exchange)
    is_target = np.zeros(cg.order, dtype=bool)
    is_target[target_set] = True
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            if cell is not None and cell not in cg.letter_index:
                return ReadingResult([], False, f"unknown letter {cell!r} at row {r}, column {c}")
    solver = z3.Solver()
    chosen: list[tuple[z3.BoolRef, Placement, int]] = []
    by_element: dict[int, list] = {}
    for n, (row, col, letters) in enumerate(runs_of(cells)):
        cands = word_candidates(cg, is_target, letters)
        if cuts is not None:
            allowed = cuts[row] | {col, col + len(letters)}
            cands = [(i, j, g) for i, j, g in cands if col + i in allowed and col + j in allowed]
        reach = {0}
        for i, j, _ in sorted(cands):
            if i in reach:
                reach.add(j)
        if len(letters) not in reach:
            return ReadingResult([], False, f"the run {''.join(letters)} at row {row}, column {col} cannot be "
                                            f"split into shortest words of {exchange} targets")
        for v, i, j, g in split_run(solver, n, len(letters), cands):
            chosen.append((v, Placement(row, col + i, letters[i:j]), g))
            by_element.setdefault(g, []).append(v)
    used = {g: z3.Or(vs) if len(vs) > 1 else vs[0] for g, vs in by_element.items()}
    for g, vs in by_element.items():
        if len(vs) > 1:
            solver.add(z3.AtMost(*vs, 1))
    if mode is ReadingMode.COMPLETE:
        missing = [int(g) for g in target_set if int(g) not in used]
        if missing:
            return ReadingResult([], False, f"{len(missing)} target element(s) occur in no run "
                                            f"({int(cg.dist[target_set].sum())} letters needed, "
                                            f"{sum(c is not None for row in cells for c in row)} printed)")
        solver.add(*[used[int(g)] for g in target_set])
    elif mode is ReadingMode.CORE:
        if rotation is None:
            raise ValueError("a core reading needs a rotation")
        for orbit in rotation.orbits(target_set):
            if len(orbit) < cg.degree:
                absent = [g for g in orbit if g not in used]
                if absent:
                    return ReadingResult([], False, f"exceptional element {_name(cg, absent[0])} occurs in no run")
                solver.add(*[used[g] for g in orbit])
            else:
                present = [used[g] for g in orbit if g in used]
                if len(present) < len(orbit):
                    solver.add(*[z3.Not(p) for p in present])
                else:
                    solver.add(*[p == present[0] for p in present[1:]])
    readings: list[list[Placement]] = []
    capped = False
    while True:
        result = solver.check()
        if result != z3.sat:
            break
        if len(readings) == cap:
            capped = True
            break
        model = solver.model()
        picked = [(v, p) for v, p, _ in chosen if z3.is_true(model.eval(v, model_completion=True))]
        readings.append(sorted(p for _, p in picked))
        solver.add(z3.Or([z3.Not(v) for v, _ in picked]))
    reason = "" if readings else {
        ReadingMode.COMPLETE: "no split of the runs places every target exactly once",
        ReadingMode.CORE: "no split of the runs gives distinct targets that hold every exceptional element "
                          "and whole sigma-orbits only",
        ReadingMode.PARTIAL: "no split of the runs gives distinct target elements",
    }[mode]
    return ReadingResult(readings, capped, reason)


def _name(cg: CayleyGraph, g: int) -> str:
    from tesearch.networks.words import canonical_word, to_letters, word_text

    return word_text(to_letters(cg, canonical_word(cg, g)))


@dataclass
class BlankRepair:
    """Blanks moved within rows so that a printed table reads validly."""
    cells: PrintedCells
    changed_rows: tuple[int, ...]
    result: ReadingResult

    def describe(self, original: PrintedCells) -> str:
        """The repair for people: which blanks moved where."""
        parts = []
        width, printed = len(self.cells[0]), max(len(r) for r in original)
        if width < printed:
            parts.append(f"width {printed} -> {width}")
        for r in self.changed_rows:
            before = [c for c, x in enumerate(original[r]) if x is None]
            after = [c for c, x in enumerate(self.cells[r]) if x is None]
            parts.append(f"row {r}: blank(s) at column(s) {_cols(before)} -> {_cols(after)}")
        return "; ".join(parts)


def _cols(cols: list[int]) -> str:
    return ",".join(map(str, cols)) if cols else "none"


def _placements_of(letters: list[str], width: int) -> list[list[str | None]]:
    """Every way to lay ``letters`` in order into ``width`` cells, blanks elsewhere."""
    out = []
    for spots in combinations(range(width), width - len(letters)):
        it = iter(letters)
        out.append([None if c in spots else next(it) for c in range(width)])
    return out


def _runs_splittable(cells: PrintedCells, cg: CayleyGraph, is_target: np.ndarray) -> bool:
    """Every run splits into shortest target words (elements not yet required distinct)."""
    for _, _, letters in runs_of(cells):
        reach = {0}
        for i, j, _ in sorted(word_candidates(cg, is_target, letters)):
            if i in reach:
                reach.add(j)
        if len(letters) not in reach:
            return False
    return True


def reinsert_blanks(cells: PrintedCells, cg: CayleyGraph, exchange: str, mode: ReadingMode,
                    rotation: Rotation | None = None, max_leaves: int = 200_000) -> list[BlankRepair]:
    """Readings after re-placing blank cells, as narrow and as close to the print as possible.

    Every row keeps its letters in order; its blanks may sit elsewhere, and
    blanks may be dropped (the table narrows) since a transcription can
    invent blank cells as well as lose them.  Widths are tried from the
    narrowest (the longest row's letter count) up to the printed width; at
    each width the placements are walked row by row, pruned by the column
    rule, and those with a reading that alter the fewest rows are returned.
    """
    printed = max(len(r) for r in cells)
    cells = [list(r) + [None] * (printed - len(r)) for r in cells]
    letters = [[x for x in r if x is not None] for r in cells]
    is_target = np.zeros(cg.order, dtype=bool)
    is_target[targets(cg, exchange)] = True
    leaves = 0
    for width in range(max(len(x) for x in letters), printed + 1):
        options = []
        for r in range(len(cells)):
            laid = _placements_of(letters[r], width)
            same = [o for o in laid if o == cells[r][:width]]
            options.append(same + [o for o in laid if o != cells[r][:width]])
        by_changes: dict[int, list[PrintedCells]] = {}

        def walk(k: int, current: PrintedCells, changed: int) -> None:
            nonlocal leaves
            if leaves > max_leaves:
                return
            if k == len(cells):
                leaves += 1
                if (changed or width < printed) and _runs_splittable(current, cg, is_target):
                    by_changes.setdefault(changed, []).append([list(r) for r in current])
                return
            for option in options[k]:
                trial = current + [option]
                if columns_valid(trial):
                    walk(k + 1, trial, changed + (option != cells[k][:width]))

        walk(0, [], 0)
        for changed in sorted(by_changes):
            found = []
            for candidate in by_changes[changed]:
                result = read_cells(candidate, cg, exchange, mode, rotation, cap=2)
                if result.readings:
                    rows = tuple(r for r in range(len(cells)) if candidate[r] != cells[r][:width])
                    found.append(BlankRepair(candidate, rows, result))
            if found:
                return found
    return []
