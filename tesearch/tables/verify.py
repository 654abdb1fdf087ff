"""Theorem 1 of seed 003: is a table a valid buffer-free total exchange?

The verifier rebuilds the group from the table's own generators and checks
every rule, reporting each failure with its row, column, word and the rule
broken: every word is a shortest path to its element; every target element is
placed exactly once (and nothing else is); no two words of a row overlap;
every word lies in columns 0..T-1; no column holds a letter twice.  It then
sets T against every lower bound and says whether the table is optimal.

Large tables (hypercube-20: 2^20 - 1 words, 10^7 letters) are decided by
:func:`vectorised_valid`, a numpy pass over all words at once; only when it
finds a fault does the word-by-word loop run, to name every violation.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from tesearch.facts.bounds import Bounds
from tesearch.networks.groups import CayleyGraph, cached_cayley_graph
from tesearch.facts.instance import Instance, instance
from tesearch.networks.families import network_for_table
from tesearch.tables.table import Table
from tesearch.running.terms import THEOREM_1
from tesearch.networks.words import canonical_word, to_letters, word_text


class Rule(str, enum.Enum):
    """The Theorem-1 rule a violation breaks."""
    BAD_ROW = "row-out-of-range"
    UNKNOWN_LETTER = "unknown-letter"
    OUT_OF_RANGE = "outside-columns"
    NOT_SHORTEST = "not-shortest"
    NOT_TARGET = "not-a-target"
    DUPLICATE = "element-placed-twice"
    MISSING = "element-missing"
    OVERLAP = "words-overlap-in-row"
    COLUMN_REPEAT = "letter-twice-in-column"


@dataclass(frozen=True)
class Violation:
    """One broken rule, with its row, column and word where it has them."""
    rule: Rule
    row: int | None
    column: int | None
    word: tuple[str, ...] | None
    detail: str

    def __str__(self) -> str:
        where = []
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column}")
        if self.word is not None:
            where.append(f"word {word_text(self.word)}")
        return f"{self.rule.value}: {', '.join(where) + ': ' if where else ''}{self.detail}"

    def to_json(self) -> dict:
        """The violation as a JSON object."""
        return {"rule": self.rule.value, "row": self.row, "column": self.column,
                "word": list(self.word) if self.word is not None else None, "detail": self.detail}


@dataclass
class Verification:
    """What verify_table found: the violations, the bounds, and whether T meets them."""
    network: str
    exchange: str
    T: int
    bounds: Bounds
    words: int
    targets: int
    violations: list[Violation] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No violation: the table is valid."""
        return not self.violations

    @property
    def gap(self) -> int:
        """T less the best lower bound."""
        return self.T - self.bounds.best

    @property
    def optimal(self) -> bool:
        """Valid and as narrow as the best lower bound."""
        return self.ok and self.gap == 0

    @property
    def blanks(self) -> int:
        """Blank cells of the table (cells less letters)."""
        return self.T * self.bounds.generators - self.bounds.target_letters

    def to_json(self) -> dict:
        """The verification as one JSON object."""
        return {
            "network": self.network,
            "exchange": self.exchange,
            "valid": self.ok,
            "T": self.T,
            "lower_bound": self.bounds.counting,
            "letter_bound": self.bounds.letter.value,
            "best_bound": self.bounds.best,
            "binding_bound": self.bounds.binding,
            "gap": self.gap,
            "optimal": self.optimal,
            "words": self.words,
            "targets": self.targets,
            "violations": [v.to_json() for v in self.violations],
        }

    def summary(self) -> str:
        """The verification for people: counts, bounds, verdict and the first violations."""
        b = self.bounds
        lines = [
            f"network {self.network}, exchange {self.exchange}: {self.words} words for {self.targets} targets",
            f"T = {self.T}; counting bound {b.counting}, per-letter bound {b.letter.value}"
            f"{'' if b.letter.exact else ' (lower estimate)'}, best {b.best} ({b.binding} binds); gap {self.gap}",
        ]
        if self.ok:
            lines.append(f"VALID ({THEOREM_1})" + ("; OPTIMAL: T meets the best lower bound" if self.gap == 0
                                                         else f"; not shown optimal (T exceeds the bound by {self.gap})"))
        else:
            lines.append(f"INVALID: {len(self.violations)} violation(s)")
            lines += [f"  {v}" for v in self.violations[:50]]
            if len(self.violations) > 50:
                lines.append(f"  ... and {len(self.violations) - 50} more")
        return "\n".join(lines)


def table_graph(table: Table) -> CayleyGraph:
    """The Cayley graph of a table's own generators (its family's, when they match)."""
    return cached_cayley_graph(network_for_table(table.network, table.generators))


def vectorised_valid(table: Table, cg: CayleyGraph, is_target: np.ndarray, *, complete: bool = True) -> bool:
    """Every Theorem-1 rule at once with numpy; False when any may be broken (then the loop names them).

    Letters become indices; the element of every word is followed letter by letter through the
    multiplication table for all words together; distances, targets, duplicates (sorting the
    elements), overlaps in a row (sorting by row and column) and repeated letters in a column
    (unique (column, letter) keys once no row overlaps) are array comparisons.
    """
    placements = table.placements
    n = len(placements)
    if n == 0:
        return not (complete and is_target.any())
    index = cg.letter_index
    lengths = np.fromiter((len(p.word) for p in placements), dtype=np.int64, count=n)
    if lengths.min() < 1:
        return False
    try:
        letters = np.fromiter((index[s] for p in placements for s in p.word), dtype=np.int64,
                              count=int(lengths.sum()))
    except KeyError:
        return False
    rows = np.fromiter((p.row for p in placements), dtype=np.int64, count=n)
    columns = np.fromiter((p.column for p in placements), dtype=np.int64, count=n)
    ends = columns + lengths
    if rows.min() < 0 or rows.max() >= table.rows or columns.min() < 0 or ends.max() > table.T:
        return False
    first = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    element = np.zeros(n, dtype=np.int64)
    for i in range(int(lengths.max())):
        live = np.flatnonzero(lengths > i)
        element[live] = cg.right[letters[first[live] + i], element[live]]
    if not (cg.dist[element] == lengths).all() or not is_target[element].all():
        return False
    if len(np.unique(element)) != n or (complete and n != int(is_target.sum())):
        return False
    order = np.lexsort((columns, rows))
    same_row = rows[order][1:] == rows[order][:-1]
    if (columns[order][1:][same_row] < ends[order][:-1][same_row]).any():
        return False
    position = np.repeat(columns - first, lengths) + np.arange(len(letters))
    keys = position * cg.degree + letters
    return len(np.unique(keys)) == len(keys)


def verify_table(table: Table, *, complete: bool = True, cg: CayleyGraph | None = None,
                 bounds: Bounds | None = None, facts: Instance | None = None) -> Verification:
    """Check a table against Theorem 1 and its exchange (with the facts of ``facts``, of ``cg``, or of
    the table's own network, in that order; ``bounds`` replaces the facts' bounds).

    ``complete=False`` checks a partial table (a core): every word must still
    be a shortest word of a distinct target, but missing targets are allowed.
    """
    if facts is None:
        cg = cg or table_graph(table)
        # the family's rotation only (no search): the bounds use it only above PARIKH_LIMIT nodes
        facts = instance(cg.network, table.exchange, rotation_search=False, cg=cg)
    cg, target_set = facts.cg, facts.targets
    is_target = np.zeros(cg.order, dtype=bool)
    is_target[target_set] = True
    bounds = bounds if bounds is not None else facts.bounds
    result = Verification(table.network, table.exchange, table.T, bounds, len(table.placements), len(target_set))
    if vectorised_valid(table, cg, is_target, complete=complete):
        return result
    bad = result.violations.append
    T, rows = table.T, table.rows

    placed_by: dict[int, tuple[int, int, tuple[str, ...]]] = {}
    by_row: dict[int, list] = defaultdict(list)
    by_column: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for p in table.placements:
        if not 0 <= p.row < rows:
            bad(Violation(Rule.BAD_ROW, p.row, p.column, p.word, f"the table has rows 0..{rows - 1}"))
            continue
        unknown = [s for s in p.word if s not in cg.letter_index]
        if unknown:
            bad(Violation(Rule.UNKNOWN_LETTER, p.row, p.column, p.word,
                          f"letter {unknown[0]!r} is not a generator ({' '.join(cg.letters)})"))
            continue
        if p.end > T:
            bad(Violation(Rule.OUT_OF_RANGE, p.row, p.column, p.word,
                          f"the word ends at column {p.end - 1}, past the last column {T - 1}"))
        by_row[p.row].append(p)
        for i, s in enumerate(p.word):
            by_column[p.column + i][s].append(p.row)
        g = cg.element_of(p.word)
        d = int(cg.dist[g])
        if d != len(p.word):
            bad(Violation(Rule.NOT_SHORTEST, p.row, p.column, p.word,
                          f"length {len(p.word)}, but its element is at distance {d}"
                          + (f" (a shortest word: {word_text(to_letters(cg, canonical_word(cg, g)))})" if d else "")))
        elif not is_target[g]:
            why = "the identity" if d == 0 else f"at even distance {d}, not an {table.exchange} target"
            bad(Violation(Rule.NOT_TARGET, p.row, p.column, p.word, f"its element is {why}"))
        if g in placed_by:
            r0, c0, w0 = placed_by[g]
            bad(Violation(Rule.DUPLICATE, p.row, p.column, p.word,
                          f"same element as word {word_text(w0)} at row {r0}, column {c0}"))
        else:
            placed_by[g] = (p.row, p.column, p.word)

    for r, items in sorted(by_row.items()):
        items.sort()
        for a, b in zip(items, items[1:]):
            if b.column < a.end:
                bad(Violation(Rule.OVERLAP, r, b.column, b.word,
                              f"starts inside word {word_text(a.word)} (columns {a.column}..{a.end - 1})"))

    for c in sorted(by_column):
        for s, in_rows in by_column[c].items():
            rows_here = sorted(set(in_rows))  # overlapping words in one row are an OVERLAP, not a repeat
            if len(rows_here) > 1:
                bad(Violation(Rule.COLUMN_REPEAT, rows_here[1], c, None,
                              f"letter {s!r} appears in rows {', '.join(map(str, rows_here))}"))

    if complete:
        missing = [int(g) for g in target_set if int(g) not in placed_by]
        for g in missing[:20]:
            bad(Violation(Rule.MISSING, None, None, to_letters(cg, canonical_word(cg, g)),
                          f"target element at distance {int(cg.dist[g])} is not placed"))
        if len(missing) > 20:
            bad(Violation(Rule.MISSING, None, None, None, f"... {len(missing) - 20} more target elements are not placed"))
    return result
