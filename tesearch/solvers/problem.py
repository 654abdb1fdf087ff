"""One table problem, as every solver is given it, and what a solver answers.

A :class:`TableProblem` is a set of items (target elements, each with its candidate shortest words) to be
packed into a width.  A placement chooses one word and a first column for each item; a column may hold each
letter at most once (exactly once when the cells equal the letters, i.e. no blank is allowed).  Rows are not
modelled: any such placement packs into |S| rows by interval colouring (:func:`tesearch.tables.layout.assign_rows`).
Each solver module (:mod:`tesearch.solvers.z3model`, :mod:`tesearch.solvers.cpsat`,
:mod:`tesearch.solvers.intervals`) answers it with an :class:`Answer`; :func:`tesearch.solvers.decide.decide`
is the one call.  Nothing here imports a solver.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tesearch.running.terms import SolveResult

#: a placement of a table problem's items, as every solver answers it: (item, word, first column) per item
Chosen = list[tuple[int, int, int]]


@dataclass(frozen=True)
class Item:
    """One message to place: a target element and its candidate shortest words."""

    element: int
    words: tuple[tuple[int, ...], ...]  # letter indices
    complete: bool = True  # the words are all of the element's shortest words

    @property
    def length(self) -> int:
        """The length of the item's words (all shortest, so equal)."""
        return len(self.words[0])


@dataclass(frozen=True)
class EncodingOptions:
    """Which optional constraints :func:`encode` adds (each measured in benchmarks/search.py)."""

    counting: bool = True  # redundant per-letter and total letter counts vs the width
    exact_columns: bool = True  # columns hold every letter exactly once when no blank is allowed
    reversal_symmetry: bool = True  # break the table's left-right mirror symmetry

    def __str__(self) -> str:
        flags = [name for name, on in (("count", self.counting), ("exact", self.exact_columns),
                                       ("mirror", self.reversal_symmetry)) if on]
        return "pb" + "".join("+" + f for f in flags)


@dataclass(frozen=True)
class TableProblem:
    """Pack ``items`` into ``width`` columns of a ``letters``-row table."""

    name: str  # network and part, e.g. "star-5 total core"
    letters: int
    width: int
    items: tuple[Item, ...]
    # index of an item that may be pinned to the left half: set by the builder only
    # when the item set is closed under inverses, every word list is complete and
    # the item is an involution (then the mirror image of a solution is a solution)
    mirror_pin: int | None = None
    options: EncodingOptions = field(default_factory=EncodingOptions)

    @property
    def letter_count(self) -> int:
        """Letters the items need in all."""
        return sum(item.length for item in self.items)

    @property
    def cells(self) -> int:
        """Cells of the table: letters x width."""
        return self.letters * self.width

    @property
    def no_blanks(self) -> bool:
        """Whether the items fill every cell."""
        return self.cells == self.letter_count

    @property
    def complete_words(self) -> bool:
        """Whether every item carries all its shortest words (an unsat is then a real impossibility)."""
        return all(item.complete for item in self.items)

    def __str__(self) -> str:
        return f"{self.name} T={self.width} items={len(self.items)} {self.options}"


class Answer(NamedTuple):
    """What one solver module answered for one problem: three-valued, the placement if sat, and what settled it."""

    result: SolveResult
    chosen: Chosen | None  # sat: (item, word, first column) per item, sorted
    detail: str  # the counting refutation that settled it, or the model's size ("" for a Z3 model)
    encoding: Any = None  # the Z3 encoding (z3 only), e.g. to keep an unsat's SMT-LIB2
