"""The schedule a table defines, stated per node: :func:`program` (a pure function of the table and a rank).

Node ``g``'s message to ``g*w``, where the word ``w = s1 ... sk`` is placed in some row
from column ``c``, is sent by ``g`` along ``s1`` at step ``c``, arrives at ``g*s1``, is
sent on along ``s2`` at step ``c+1``, and so on: hop ``j`` (0-based) is taken at step
``c+j`` from ``g*s1*...*sj`` to ``g*s1*...*s(j+1)``.  No node holds a message past the step
after it arrives (docs/schedules.md).

So at step ``t`` node ``h`` takes, for every table cell ``(row, t)`` holding letter ``s``
(hop ``j`` of word ``w``), the hop of the message whose origin is ``h*(s1...sj)^-1``: it
sends it to ``h*s``; the message's destination is ``h*s(j+1)...sk``.  It receives, for
the same cell, the message with origin ``h*(s1...s(j+1))^-1`` from ``h*s^-1``.  A column
holds a letter at most once, so every directed link carries at most one message a step.

>>> from tesearch.tables.table import read_table
>>> import pathlib
>>> schedule = compile_schedule(read_table(pathlib.Path(__file__).parents[3] / "results" / "ring-6.json"))
>>> p = program(schedule, 0)
>>> len(p.sends) == len(p.receives) == schedule.hops_per_rank
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tesearch.running.errors import FormatError
from tesearch.networks.groups import CayleyGraph
from tesearch.networks.families import network_for_table
from tesearch.schedules.programs.ranks import RankNumbering, rank_numbering
from tesearch.tables.table import Table


class Column(enum.IntEnum):
    """The columns of a program's send and receive arrays (one row per hop)."""

    STEP = 0  # the step (table column) of the hop
    LETTER = 1  # the letter index of the hop: the link is sender -> sender * letter
    NEIGHBOUR = 2  # the other end: the receiver of a send, the sender of a receive
    ORIGIN = 3  # the rank the message started from
    DESTINATION = 4  # the rank the message is for


@dataclass(frozen=True)
class Cells:
    """The hops of one word-placement table, one entry per occupied cell, independent of the node."""

    step: np.ndarray  # column of the cell
    letter: np.ndarray  # letter index in the cell
    before: np.ndarray  # element index of (s1...sj)^-1: origin = holder * before
    rest: np.ndarray  # element index of s(j+1)...sk: destination = holder * rest
    after: np.ndarray  # element index of (s1...s(j+1))^-1: origin = receiver * after
    rest_after: np.ndarray  # element index of s(j+2)...sk: destination = receiver * rest_after


@dataclass(eq=False)
class CompiledSchedule:
    """A table prepared for :func:`program`: its network's rank numbering and its cells."""

    table: Table
    numbering: RankNumbering
    cells: Cells

    @property
    def graph(self) -> CayleyGraph:
        """The Cayley graph the schedule runs on."""
        return self.numbering.graph

    @property
    def letters(self) -> tuple[str, ...]:
        """The generator letters, in row order."""
        return self.graph.letters

    @property
    def ranks(self) -> int:
        """Number of ranks (nodes)."""
        return self.numbering.size

    @property
    def steps(self) -> int:
        """Number of steps: the table's T."""
        return self.table.T

    @property
    def hops_per_rank(self) -> int:
        """Hops each node sends (and receives): the sum of the word lengths."""
        return len(self.cells.step)

    @property
    def messages(self) -> int:
        """Messages each node starts (one per placed word)."""
        return len(self.table.placements)

    @cached_property
    def neighbours(self) -> np.ndarray:
        """(ranks, letters): the rank across each letter from each rank."""
        graph, numbering = self.graph, self.numbering
        return numbering.rank_of_index[graph.right[:, numbering.index_of_rank]].T.copy()


def route_cells(graph: CayleyGraph, words: list[tuple[int, ...]], steps: list[tuple[int, ...]]) -> Cells:
    """The cells of node-invariant routes: route ``i`` sends its block along ``words[i]`` (letter indices),
    hop ``j`` at step ``steps[i][j]``.  Cells are sorted by step, then by route order (stable): a cell's
    position is the same at every node, which is how the executors match a send with its receive."""
    inverse = graph.inverse_letter
    step, letter, before, rest, after, rest_after = [], [], [], [], [], []
    for word, when in zip(words, steps):
        # suffixes[j] = s(j+1)...sk, inverse prefixes[j] = (s1...sj)^-1, both as element indices
        suffixes = [0] * (len(word) + 1)
        for j in range(len(word) - 1, -1, -1):
            suffixes[j] = int(graph.left[word[j], suffixes[j + 1]])  # s(j+1) * (s(j+2)...sk)
        prefixes = [0] * (len(word) + 1)
        for j, k in enumerate(word):
            prefixes[j + 1] = int(graph.left[inverse[k], prefixes[j]])  # (s1..s(j+1))^-1 = s(j+1)^-1 (s1..sj)^-1
        for j, k in enumerate(word):
            step.append(when[j])
            letter.append(k)
            before.append(prefixes[j])
            rest.append(suffixes[j])
            after.append(prefixes[j + 1])
            rest_after.append(suffixes[j + 1])
    order = np.argsort(np.array(step, dtype=np.int64), kind="stable")

    def column(values):
        return np.array(values, dtype=np.int64)[order]

    return Cells(column(step), column(letter), column(before), column(rest), column(after), column(rest_after))


def compile_schedule(table: Table, *, numbering: RankNumbering | None = None) -> CompiledSchedule:
    """The cells of ``table`` over its network (rebuilt from the generators and checked against the name)."""
    if numbering is None:
        numbering = rank_numbering(network_for_table(table.network, table.generators))
    letter_index = numbering.graph.letter_index
    words, steps = [], []
    for placement in table.placements:
        try:
            word = tuple(letter_index[s] for s in placement.word)
        except KeyError as exc:
            raise FormatError(f"placement at row {placement.row}, column {placement.column}: unknown letter "
                              f"{exc.args[0]!r}") from None
        if placement.column + len(word) > table.T:
            raise FormatError(f"placement at row {placement.row}, column {placement.column} ends after T = {table.T}")
        words.append(word)
        steps.append(tuple(range(placement.column, placement.column + len(word))))
    return CompiledSchedule(table, numbering, route_cells(numbering.graph, words, steps))


@dataclass(frozen=True, eq=False)
class RankProgram:
    """One rank's program: its sends and receives, one row per hop, columns as :class:`Column`, by step."""

    rank: int
    steps: int
    sends: np.ndarray  # (hops, 5) int64
    receives: np.ndarray  # (hops, 5) int64

    def at_step(self, which: np.ndarray, step: int) -> np.ndarray:
        """The rows of ``which`` (sends or receives, sorted by step) at ``step``."""
        column = which[:, Column.STEP]
        lo, hi = np.searchsorted(column, step, "left"), np.searchsorted(column, step, "right")
        return which[lo:hi]


def _times(graph: CayleyGraph, holder: int, others: np.ndarray) -> np.ndarray:
    """Element indices of ``holder * x`` for every element index x in ``others``."""
    rows = graph.elements[others][:, graph.elements[holder]]  # (h*x)(i) = x(h(i))
    return graph.index_of_rows(rows)


def program(schedule: CompiledSchedule, rank: int) -> RankProgram:
    """Rank ``rank``'s program: what it sends and receives at each step (Cayley symmetry: no other input)."""
    if not 0 <= rank < schedule.ranks:
        raise ValueError(f"rank {rank} is not in 0..{schedule.ranks - 1}")
    numbering, graph, cells = schedule.numbering, schedule.graph, schedule.cells
    holder = int(numbering.index_of_rank[rank])
    to_rank = numbering.rank_of_index
    hops = len(cells.step)
    sends = np.empty((hops, len(Column)), dtype=np.int64)
    receives = np.empty((hops, len(Column)), dtype=np.int64)
    if hops:
        sends[:, Column.STEP] = cells.step
        sends[:, Column.LETTER] = cells.letter
        sends[:, Column.NEIGHBOUR] = to_rank[graph.right[cells.letter, holder]]
        sends[:, Column.ORIGIN] = to_rank[_times(graph, holder, cells.before)]
        sends[:, Column.DESTINATION] = to_rank[_times(graph, holder, cells.rest)]
        receives[:, Column.STEP] = cells.step
        receives[:, Column.LETTER] = cells.letter
        receives[:, Column.NEIGHBOUR] = to_rank[graph.right[graph.inverse_letter[cells.letter], holder]]
        receives[:, Column.ORIGIN] = to_rank[_times(graph, holder, cells.after)]
        receives[:, Column.DESTINATION] = to_rank[_times(graph, holder, cells.rest_after)]
    return RankProgram(rank, schedule.steps, sends, receives)
