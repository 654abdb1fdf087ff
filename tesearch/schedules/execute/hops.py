"""A node-invariant total-exchange schedule as hops in steps: the one thing every executor runs.

Every contender that sends each block along one shortest word, the same at every node, is a
:class:`HopSchedule`: route ``i`` carries node ``g``'s block for ``g * target_i`` along the word
``words[i]`` (letter indices), hop ``j`` taken at step ``steps[i][j]`` (strictly increasing).  What
differs between contenders is only which words and which steps:

* a table (:meth:`HopSchedule.from_table`): the placed words, hop ``j`` of the word placed at column
  ``c`` at step ``c + j``; Theorem 1 makes it buffer-free with one hop per letter and step
  (:attr:`ScheduleKind.TABLE`);
* a superstep schedule (:attr:`ScheduleKind.SUPERSTEPS`): any increasing steps, several hops of one
  letter in one step (the executors bundle them per link); blocks may wait at a node between hops.
  The table's paths under a superstep map, and the table-free algorithms of :mod:`tesearch.supersteps`,
  are of this kind.

The schedule is checked (:meth:`HopSchedule.check`): one route per element other than the identity,
each word a shortest path to its target, steps increasing, and for a table one hop per letter per step
on consecutive steps.  Its cost figures in the superstep model: ``loads`` (hops per step and letter),
``bundle_sum`` (the sum over steps of the largest load), ``active_steps``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from tesearch.networks.groups import CayleyGraph
from tesearch.schedules.programs.ranks import RankNumbering, numbering_of_graph
from tesearch.schedules.programs.schedule import Cells, CompiledSchedule, compile_schedule, route_cells
from tesearch.tables.table import Table


class ScheduleKind(str, enum.Enum):
    """What a schedule promises about its steps."""

    TABLE = "table"  # a table's timing: consecutive steps per word, one hop per letter per step, buffer-free
    SUPERSTEPS = "supersteps"  # increasing steps per word, several hops per letter per step (bundled per link)


@dataclass(frozen=True, eq=False)
class HopSchedule:
    """Node-invariant routes with the step of every hop (see the module doc)."""

    numbering: RankNumbering
    name: str
    kind: ScheduleKind
    words: tuple[tuple[int, ...], ...]
    steps: tuple[tuple[int, ...], ...]
    width: int  # the number of steps: a table's T, else one more than the last step used
    provenance: dict = field(default_factory=dict)

    @property
    def graph(self) -> CayleyGraph:
        """The Cayley graph the schedule runs on."""
        return self.numbering.graph

    @property
    def ranks(self) -> int:
        """Nodes (one MPI rank each)."""
        return self.numbering.size

    @property
    def letters(self) -> tuple[str, ...]:
        """The letters, in the network's order."""
        return self.graph.letters

    @cached_property
    def cells(self) -> Cells:
        """The hops as cells (sorted by step; a cell's position is the same at every node)."""
        return route_cells(self.graph, list(self.words), list(self.steps))

    @cached_property
    def targets(self) -> np.ndarray:
        """The element index each route delivers to (``g * target`` from node ``g``)."""
        return np.array([self.graph.element_of(word) for word in self.words], dtype=np.int64)

    @cached_property
    def loads(self) -> np.ndarray:
        """(width, letters): hops of each letter in each step."""
        counts = np.zeros((max(self.width, 1), len(self.letters)), dtype=np.int64)
        for word, when in zip(self.words, self.steps):
            np.add.at(counts, (np.array(when, dtype=np.int64), np.array(word, dtype=np.int64)), 1)
        return counts

    @property
    def hops(self) -> int:
        """Hops each node sends: the sum of the word lengths (the status when every word is shortest)."""
        return sum(len(word) for word in self.words)

    @property
    def letter_counts(self) -> np.ndarray:
        """How often each letter occurs in the words."""
        return self.loads.sum(axis=0)

    @property
    def active_steps(self) -> int:
        """Steps in which some hop is taken (what the bundled executor pays one latency for)."""
        return int((self.loads.sum(axis=1) > 0).sum())

    @property
    def bundle_sum(self) -> int:
        """The sum over steps of the largest number of hops on one letter (blocks per link, bundled)."""
        return int(self.loads.max(axis=1).sum())

    @property
    def largest_bundle(self) -> int:
        """The most hops one letter takes in one step."""
        return int(self.loads.max(initial=0))

    def check(self) -> None:
        """Raise ValueError unless the schedule is a total exchange of shortest words with increasing steps (and,
        for a table, one hop per letter per step on consecutive steps)."""
        graph = self.graph
        if len(self.words) != len(self.steps):
            raise ValueError(f"{self.name}: {len(self.words)} words but {len(self.steps)} step lists")
        seen = np.zeros(graph.order, dtype=bool)
        for i, (word, when) in enumerate(zip(self.words, self.steps)):
            if len(word) != len(when):
                raise ValueError(f"{self.name}: route {i} has {len(word)} hops but {len(when)} steps")
            if not word:
                raise ValueError(f"{self.name}: route {i} is empty")
            target = int(self.targets[i])
            if target == 0 or seen[target]:
                raise ValueError(f"{self.name}: route {i} goes to the identity or to an element already served")
            seen[target] = True
            if len(word) != int(graph.dist[target]):
                raise ValueError(f"{self.name}: route {i} has {len(word)} hops; its target is {graph.dist[target]} away")
            if any(b <= a for a, b in zip(when, when[1:])) or when[0] < 0 or when[-1] >= self.width:
                raise ValueError(f"{self.name}: route {i}'s steps {when} do not increase within 0..{self.width - 1}")
            if self.kind is ScheduleKind.TABLE and any(b != a + 1 for a, b in zip(when, when[1:])):
                raise ValueError(f"{self.name}: route {i}'s hops are not on consecutive steps (a table's timing)")
        if int(seen.sum()) != graph.order - 1:
            raise ValueError(f"{self.name}: {graph.order - 1 - int(seen.sum())} elements get no route")
        if self.kind is ScheduleKind.TABLE and self.largest_bundle > 1:
            raise ValueError(f"{self.name}: a letter is taken twice in one step (not a table's timing)")

    def with_steps(self, steps: list[tuple[int, ...]], *, name: str, provenance: dict | None = None) -> HopSchedule:
        """The same words in other steps (a superstep map of a table's paths)."""
        width = 1 + max((s[-1] for s in steps if s), default=-1)
        return HopSchedule(self.numbering, name, ScheduleKind.SUPERSTEPS, self.words, tuple(map(tuple, steps)), width,
                           dict(provenance or {}, words_from=self.name))

    def summary(self) -> dict:
        """The figures a report gives of a schedule."""
        return {"name": self.name, "kind": self.kind.value, "width": self.width, "active_steps": self.active_steps,
                "bundle_sum": self.bundle_sum, "largest_bundle": self.largest_bundle,
                "most_used_letter": int(self.letter_counts.max(initial=0)), "provenance": self.provenance}

    @classmethod
    def from_table(cls, table: Table, *, numbering: RankNumbering | None = None, name: str = "table") -> HopSchedule:
        """The table's own timing: the words in their rows, hop ``j`` of the word at column ``c`` at step ``c + j``."""
        compiled = compile_schedule(table, numbering=numbering)
        return cls.from_compiled(compiled, name=name)

    @classmethod
    def from_compiled(cls, compiled: CompiledSchedule, *, name: str = "table") -> HopSchedule:
        """:meth:`from_table` of an already compiled table."""
        letter_index = compiled.graph.letter_index
        words, steps = [], []
        for placement in compiled.table.placements:
            words.append(tuple(letter_index[s] for s in placement.word))
            steps.append(tuple(range(placement.column, placement.column + len(placement.word))))
        return cls(compiled.numbering, name, ScheduleKind.TABLE, tuple(words), tuple(steps), compiled.table.T,
                   {"table": compiled.table.network, "T": compiled.table.T})

    @classmethod
    def from_routes(cls, graph: CayleyGraph, words: list[tuple[int, ...]], steps: list[tuple[int, ...]], *, name: str,
                    provenance: dict | None = None, numbering: RankNumbering | None = None) -> HopSchedule:
        """A superstep schedule from its routes (``numbering`` defaults to the lexicographic one of ``graph``)."""
        width = 1 + max((s[-1] for s in steps if s), default=-1)
        return cls(numbering or numbering_of_graph(graph), name, ScheduleKind.SUPERSTEPS,
                   tuple(tuple(int(x) for x in w) for w in words), tuple(tuple(int(x) for x in s) for s in steps),
                   width, dict(provenance or {}))
