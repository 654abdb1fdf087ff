"""Making a table, in one place: :class:`TableBuilder` labels, verifies and names the bound of every table
a strategy or a construction makes.

A strategy places words (rows of letter indices, or :class:`~tesearch.table.Placement` rows of letters) and
calls :meth:`TableBuilder.finish` with the width and its provenance record (``{"search": {...}}`` or
``{"construction": {...}}``).  ``finish`` labels the table with its instance (network, exchange,
generators, the counting bound as ``lower_bound``, the per-letter bound as ``extra["letter_bound"]``),
verifies it against Theorem 1 (:func:`tesearch.verify.verify_table`, with the instance's graph and bounds)
and returns it; a table that does not verify raises :class:`~tesearch.errors.UnverifiedTable` (exit 70: a
bug in the strategy), never an AssertionError.  A table a construction module built by itself goes through
:meth:`TableBuilder.check` instead.  :func:`relabelled` is the one way to give a verified table another
provenance (a copy: the placements, hence the verification, stay).  No code elsewhere edits a table after
it was verified.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable

from tesearch import limits
from tesearch.errors import UnverifiedTable
from tesearch.instance import Instance
from tesearch.table import Placement, Table
from tesearch.terms import optimality_text
from tesearch.verify import Verification, verify_table
from tesearch.words import to_letters


class TableBuilder:
    """The words of one table of an instance, placed by one strategy (``what`` names it in errors)."""

    def __init__(self, facts: Instance, what: str):
        self.facts = facts
        self.what = what
        self.placements: list[Placement] = []

    def place(self, rows: Iterable[tuple[int, int, tuple[int, ...]]]) -> TableBuilder:
        """Add (row, first column, word of letter indices) rows."""
        cg = self.facts.cg
        self.placements += [Placement(r, c, to_letters(cg, w)) for r, c, w in rows]
        return self

    def place_letters(self, placements: Iterable[Placement]) -> TableBuilder:
        """Add placements whose words are tuples of letters already."""
        self.placements += list(placements)
        return self

    def finish(self, width: int, provenance: dict) -> Table:
        """The table of width ``width``, labelled with the instance and ``provenance``, verified (module doc)."""
        facts = self.facts
        bounds = facts.bounds
        table = Table(facts.spec, facts.exchange.value, facts.network.generators_json(), width,
                      sorted(self.placements), bounds.counting, {"letter_bound": bounds.letter.value, **provenance})
        self.check(table)
        return table

    def check(self, table: Table) -> Verification:
        """Verify a table made for this instance (UnverifiedTable if it does not verify): its verification."""
        with limits.phase("verify"):
            check = verify_table(table, facts=self.facts)
        if not check.ok:
            raise UnverifiedTable(f"{self.facts.name}: the table made by {self.what} (T = {table.T}) does not "
                                  f"verify: {check.violations[0]}")
        return check

    def verdict(self, table: Table) -> str:
        """'OPTIMAL' or 'not shown optimal (gap N)' against the instance's best bound."""
        return optimality_text(table.T, self.facts.bounds.best)


def relabelled(table: Table, key: str, **changes) -> Table:
    """A copy of a verified table whose provenance record ``extra[key]`` has ``changes``: its words stay, so
    its verification holds."""
    extra = dict(table.extra)
    extra[key] = {**extra.get(key, {}), **changes}
    return dataclasses.replace(table, extra=extra)
