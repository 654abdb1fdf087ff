"""Completing a core by rotation blocks, the way the seed papers say it.

Seed 004 ("adding the remaining 4-tuples as usual") and seed 003 section 3.3
("the other lines are obtained by applying sigma to the line above"): after
the core, every sigma-orbit of targets not in the core becomes one block of
columns; row 0 holds one word of the orbit and row r holds sigma^r of it, so
every column of a block holds sigma^0..sigma^(|S|-1) of one letter, all
distinct.  The word is the canonical (lexicographically first) shortest word
of the orbit's smallest element.  Blocks come in BFS order of that element,
so shorter words come first.
"""

from __future__ import annotations

from dataclasses import dataclass

from tesearch.running.errors import ConstructionError
from tesearch.networks.groups import CayleyGraph
from tesearch.tables.layout import rotation_blocks
from tesearch.networks.rotation import Rotation
from tesearch.tables.table import Placement
from tesearch.networks.words import canonical_word, targets, to_letters, word_text


class CompletionError(ConstructionError):
    """The core cannot be completed by full orbits."""


@dataclass
class Completion:
    """A core completed by rotation blocks: placements, width and sections."""
    placements: list[Placement]  # core and blocks
    T: int
    core_width: int
    orbits_added: int

    @property
    def sections(self) -> list[dict]:
        """The optional ``sections`` key of a table (docs/sections.md)."""
        out = []
        if self.core_width:
            out.append({"name": "core", "start": 0, "end": self.core_width})
        if self.T > self.core_width:
            out.append({"name": "rotation blocks", "start": self.core_width, "end": self.T})
        return out


def orbit_blocks(cg: CayleyGraph, rotation: Rotation, elements, start_column: int) -> tuple[list[Placement], int]:
    """One rotation block per orbit of ``elements`` (all orbits must be full), from ``start_column``, as
    placements of letters (:func:`tesearch.tables.layout.rotation_blocks` lays out the words' blocks).

    Returns the placements and the first free column after the blocks.
    """
    words = []
    for orbit in rotation.orbits(elements):
        if len(orbit) != cg.degree:
            raise CompletionError(f"the orbit of {word_text(to_letters(cg, canonical_word(cg, orbit[0])))} has "
                                  f"{len(orbit)} elements, not {cg.degree}: it cannot be a rotation block")
        words.append(canonical_word(cg, orbit[0]))
    rows, column = rotation_blocks(words, rotation, start_column)
    return [Placement(r, c, to_letters(cg, w)) for r, c, w in rows], column


def complete_by_rotation(cg: CayleyGraph, exchange: str, rotation: Rotation, core: list[Placement],
                         core_width: int) -> Completion:
    """The core followed by rotation blocks of every target orbit it does not hold."""
    in_core = {cg.element_of(p.word) for p in core}
    rest = [int(g) for g in targets(cg, exchange) if int(g) not in in_core]
    blocks, end = orbit_blocks(cg, rotation, rest, core_width)
    return Completion(sorted(list(core) + blocks), end, core_width, len(blocks) // max(cg.degree, 1))
