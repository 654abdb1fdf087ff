"""Non-optimal tables: what optimality of the table buys, measured against tables that are valid but wider.

Each builder returns a :class:`NaiveTable`: a table made and verified by :class:`tesearch.tables.build.TableBuilder`
(Theorem 1, exactly as every table tesearch writes) and its own timing as a HopSchedule
(:meth:`~tesearch.schedules.execute.hops.HopSchedule.from_table`), which every executor runs as it runs the optimal table.

* :func:`first_fit_table` with :attr:`NaiveWords.FIRST_SHORTEST`: every element's lexicographically first
  shortest word (the ``shortest-path`` route of ``tesearch compare``), or :attr:`NaiveWords.DIMENSION_ORDERED`:
  its dimension-ordered word (the ``dimension-ordered`` route of ``tesearch compare``, e-cube on a hypercube;
  on a twisted torus the letters sorted by axis, :mod:`tesearch.schedules.contenders.axes`); the words packed by first
  fit (:func:`tesearch.tables.layout.first_fit`: longest first, each at the first column where it fits) and given rows
  by interval colouring (:func:`tesearch.tables.layout.assign_rows`).
* :func:`widened_table`: the optimal table's placements dealt in turn (in their sorted order) into ``k`` groups,
  group ``i`` shifted right by ``i * T``: the same words, width ``k * T``.  Valid by construction (each group is
  part of a valid table and the groups' columns do not meet) and checked all the same.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tesearch.tables.build import TableBuilder
from tesearch.schedules.contenders.axes import grouped_words, network_axes
from tesearch.schedules.contenders.subject import Subject
from tesearch.running.errors import OptionError
from tesearch.schedules.execute.hops import HopSchedule
from tesearch.tables.layout import assign_rows, first_fit
from tesearch.tables.table import Placement, Table
from tesearch.networks.words import canonical_word


class NaiveWords(str, enum.Enum):
    """Which one shortest word every element takes in a first-fit table."""

    FIRST_SHORTEST = "first-shortest-word"  # lexicographically first (compare's shortest-path route)
    DIMENSION_ORDERED = "dimension-ordered"  # axes in order, shorter way round (compare's dimension-ordered route)


@dataclass(frozen=True)
class NaiveTable:
    """A verified non-optimal table and its own timing."""

    table: Table
    schedule: HopSchedule


@dataclass(frozen=True)
class _Item:
    element: int
    length: int
    words: tuple[tuple[int, ...], ...]


def naive_words(subject: Subject, words: NaiveWords) -> list[tuple[int, ...]]:
    """The word of every target (in ``subject.facts.targets`` order) under the rule ``words``."""
    cg = subject.graph
    targets = subject.facts.targets
    if NaiveWords(words) is NaiveWords.FIRST_SHORTEST:
        return [canonical_word(cg, int(g)) for g in targets]
    axes = network_axes(cg)
    return [found[0] for found in grouped_words(cg, axes, targets, tuple(range(axes.count)), cap=1)]


def _finish(subject: Subject, builder: TableBuilder, width: int, provenance: dict, name: str) -> NaiveTable:
    table = builder.finish(width, {"construction": provenance})
    return NaiveTable(table, HopSchedule.from_table(table, numbering=subject.numbering, name=name))


def first_fit_table(subject: Subject, words: NaiveWords = NaiveWords.FIRST_SHORTEST) -> NaiveTable:
    """The first-fit table of the naive words ``words`` (module doc)."""
    words = NaiveWords(words)
    chosen = naive_words(subject, words)
    items = [_Item(int(g), len(w), (w,)) for g, w in zip(subject.facts.targets, chosen)]
    width, placed = first_fit(items, subject.graph.degree)
    builder = TableBuilder(subject.facts, f"{words.value} first fit")
    builder.place(assign_rows(placed, subject.graph.degree))
    return _finish(subject, builder, width, {"name": f"{words.value} first fit", "words": words.value,
                                              "packing": "first fit, longest first (tesearch.tables.layout.first_fit)"},
                   f"{words.value} first-fit table")


def widened_table(subject: Subject, factor: int = 2) -> NaiveTable:
    """The subject's table widened to ``factor`` times its width without changing a word (module doc)."""
    if factor < 1:
        raise OptionError(f"a table is widened by a factor of at least 1, got {factor}")
    table = subject.table_schedule and subject.table  # refuses a subject without a table
    placements = [Placement(p.row, p.column + (i % factor) * table.T, p.word) for i, p in enumerate(sorted(table.placements))]
    builder = TableBuilder(subject.facts, f"table widened x{factor}").place_letters(placements)
    return _finish(subject, builder, factor * table.T, {"name": f"widened x{factor}", "factor": factor,
                                                         "from_T": table.T, "rule": "placements dealt in turn into "
                                                         "factor groups, group i shifted right by i * T"},
                   f"table widened x{factor}")
