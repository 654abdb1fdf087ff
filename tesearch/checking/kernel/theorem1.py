"""The kernel's own check of seed 003 Theorem 1 (independent of :mod:`tesearch.tables.verify`).

A table is valid when: every row index names a row (0..|S|-1); every word is a
shortest word of its element; every element placed is a target of the exchange
(not the identity; for odd-distance, at odd distance) and is placed once; every
target is placed (unless the check is partial); no two words of a row share a
column; every word lies in columns 0..T-1; no column holds a letter twice.
Each failure names its rule, row, column and word.

Large tables (hypercube-20: 2^20 - 1 words) are decided by :func:`all_rules_hold`,
one numpy pass over every message at once; the message-by-message loop runs only
when it finds a fault, to name the violations.

This is the checking side's implementation; :mod:`tesearch.tables.verify` is the
prover side's.  They share no code on purpose (tests/test_kernel.py mutates
tables and requires them to agree).

Imports: the standard library, numpy and the kernel's loader and graph.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from tesearch.checking.kernel.graph import RebuiltNetwork, element_of
from tesearch.checking.kernel.loader import InputFormat, LoadedInput
from tesearch.running.terms import THEOREM_1, Exchange

#: failures of one rule kept in detail (all are counted)
DETAIL_LIMIT = 20


class Rule(str, enum.Enum):
    """The rules of Theorem 1 (same spellings as tesearch.tables.verify's, so reports read alike)."""

    BAD_ROW = "row-out-of-range"
    OUT_OF_RANGE = "outside-columns"
    NOT_SHORTEST = "not-shortest"
    NOT_TARGET = "not-a-target"
    DUPLICATE = "element-placed-twice"
    MISSING = "element-missing"
    OVERLAP = "words-overlap-in-row"
    COLUMN_REPEAT = "letter-twice-in-column"


@dataclass(frozen=True)
class KernelViolation:
    """One broken rule, where it was broken, and why."""

    rule: Rule
    row: int | None
    column: int | None
    word: tuple[str, ...] | None
    detail: str

    def __str__(self) -> str:
        where = [f"row {self.row}"] if self.row is not None else []
        where += [f"column {self.column}"] if self.column is not None else []
        where += [f"word {' '.join(self.word)}"] if self.word is not None else []
        return f"{self.rule.value}: {', '.join(where) + ': ' if where else ''}{self.detail}"

    def to_json(self) -> dict:
        """The violation as a JSON object."""
        return {"rule": self.rule.value, "row": self.row, "column": self.column,
                "word": list(self.word) if self.word is not None else None, "detail": self.detail}


@dataclass
class Theorem1Report:
    """What the kernel found: counts, and every violation (the first DETAIL_LIMIT of each rule in detail)."""

    T: int
    words: int
    targets: int
    placed_targets: int
    complete: bool
    violations: list[KernelViolation] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No rule is broken."""
        return not self.counts

    def summary(self) -> str:
        """One line: valid (how much was placed) or the violations."""
        if self.ok:
            what = "VALID" if self.complete else f"VALID CORE ({self.placed_targets} of {self.targets} targets placed)"
            return f"{what}: {self.words} words, T = {self.T} (kernel, {THEOREM_1})"
        total = sum(self.counts.values())
        return f"INVALID: {total} violation(s): " + "; ".join(str(v) for v in self.violations[:5])


def target_mask(net: RebuiltNetwork, exchange: Exchange) -> np.ndarray:
    """Which nodes the identity must send to: all but itself, or (odd-distance) those at odd distance."""
    if exchange is Exchange.TOTAL:
        mask = np.ones(net.order, dtype=bool)
        mask[0] = False
        return mask
    return net.depth % 2 == 1


def all_rules_hold(inp: LoadedInput, net: RebuiltNetwork, is_target: np.ndarray, *, complete: bool = True) -> bool:
    """True when the table breaks no rule, decided with whole-array numpy steps (no per-message loop).

    A message's letters sit at cells (column, letter); a word's element is its walk through the
    successor table, taken one letter position at a time for all words together; each rule is then
    a count: distances equal lengths, every element is a target and occurs once (a bincount over
    the nodes), rows hold no two words over one column (a bincount over row x column cells), and no
    (column, letter) cell is used twice (a bincount over column x letter cells).
    """
    messages = inp.messages
    count = len(messages)
    if count == 0:
        return not (complete and is_target.any())
    sizes = np.array([len(m.word) for m in messages], dtype=np.int64)
    lanes = np.array([-1 if m.lane is None else m.lane for m in messages], dtype=np.int64)
    starts = np.array([m.times[0] if m.times else -1 for m in messages], dtype=np.int64)
    if sizes.min() < 1 or lanes.min() < 0 or lanes.max() >= len(inp.letters) or starts.min() < 0:
        return False
    if (starts + sizes).max() > inp.T:
        return False
    flat = np.fromiter((k for m in messages for k in m.word), dtype=np.int64, count=int(sizes.sum()))
    owner = np.repeat(np.arange(count), sizes)
    offset = np.arange(len(flat)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    node = np.zeros(count, dtype=np.int64)
    for step in range(int(sizes.max())):
        at = offset == step
        node[owner[at]] = net.successor[flat[at], node[owner[at]]]
    if (net.depth[node] != sizes).any() or not is_target[node].all():
        return False
    times_per_node = np.bincount(node, minlength=net.order)
    if times_per_node.max() > 1 or (complete and (times_per_node[is_target] != 1).any()):
        return False
    cell = starts[owner] + offset  # the column of every letter
    if np.bincount(lanes[owner] * inp.T + cell).max() > 1:  # two words of one row over one column
        return False
    return bool(np.bincount(cell * len(inp.letters) + flat).max() <= 1)


def check_theorem1(inp: LoadedInput, net: RebuiltNetwork, *, complete: bool = True) -> Theorem1Report:
    """Check a loaded table against Theorem 1 on the rebuilt network (``complete=False``: a core)."""
    if inp.source_format is not InputFormat.TABLE:
        raise ValueError("Theorem 1 is about tables; a schedule is checked by the replay")
    is_target = target_mask(net, inp.exchange)
    report = Theorem1Report(inp.T, len(inp.messages), int(is_target.sum()), 0, complete)
    kept: dict[Rule, int] = defaultdict(int)

    def bad(rule: Rule, row, column, word, detail: str) -> None:
        report.counts[rule.value] = report.counts.get(rule.value, 0) + 1
        if kept[rule] < DETAIL_LIMIT:
            kept[rule] += 1
            report.violations.append(KernelViolation(rule, row, column, word, detail))

    if all_rules_hold(inp, net, is_target, complete=complete):
        report.placed_targets = len(inp.messages)
        return report
    rows = len(inp.letters)
    placed: dict[int, tuple[int, int, tuple[str, ...]]] = {}
    spans: dict[int, list[tuple[int, int, tuple[str, ...]]]] = defaultdict(list)
    column_letters: dict[tuple[int, int], int] = {}  # (column, letter) -> the first row using it
    for m in inp.messages:
        row, first = m.lane, m.times[0]
        letters = tuple(inp.letters[k] for k in m.word)
        if not 0 <= row < rows:
            bad(Rule.BAD_ROW, row, first, letters, f"the table has rows 0..{rows - 1}")
            continue
        end = first + len(m.word)
        if end > inp.T:
            bad(Rule.OUT_OF_RANGE, row, first, letters, f"the word ends at column {end - 1}, past the last "
                                                        f"column {inp.T - 1}")
        spans[row].append((first, end, letters))
        g = element_of(net, m.word)
        distance = int(net.depth[g])
        if distance != len(m.word):
            bad(Rule.NOT_SHORTEST, row, first, letters, f"length {len(m.word)}, but its element is at distance "
                                                        f"{distance}")
        elif not is_target[g]:
            why = "the identity" if distance == 0 else f"at even distance {distance}"
            bad(Rule.NOT_TARGET, row, first, letters, f"its element is {why}, not a {inp.exchange.value} target")
        if g in placed:
            r0, c0, w0 = placed[g]
            bad(Rule.DUPLICATE, row, first, letters, f"same element as word {' '.join(w0)} at row {r0}, column {c0}")
        else:
            placed[g] = (row, first, letters)
    for row, items in sorted(spans.items()):
        items.sort()
        reach, reach_word = -1, None
        for first, end, letters in items:
            if first < reach:
                bad(Rule.OVERLAP, row, first, letters, f"starts inside word {' '.join(reach_word[2])} "
                                                       f"(columns {reach_word[0]}..{reach_word[1] - 1})")
            if end > reach:
                reach, reach_word = end, (first, end, letters)
        for first, end, letters in items:
            for i, s in enumerate(letters):
                other = column_letters.setdefault((first + i, s), row)
                if other != row:
                    bad(Rule.COLUMN_REPEAT, row, first + i, None, f"letter {s!r} appears in rows {other} and {row}")
    report.placed_targets = sum(1 for g in placed if is_target[g])
    if complete:
        missing = [int(g) for g in np.flatnonzero(is_target) if int(g) not in placed]
        for g in missing[:DETAIL_LIMIT]:
            bad(Rule.MISSING, None, None, tuple(inp.letters[k] for k in net.bfs_word(g)),
                f"target element at distance {int(net.depth[g])} is not placed")
        if len(missing) > DETAIL_LIMIT:
            report.counts[Rule.MISSING.value] += len(missing) - DETAIL_LIMIT
    return report
