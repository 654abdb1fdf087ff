"""Making a table, in one place: :class:`TableBuilder` labels, verifies and names the bound of every table
a strategy or a construction makes.

A strategy places words (rows of letter indices, or :class:`~tesearch.tables.table.Placement` rows of letters) and
calls :meth:`TableBuilder.finish` with the width and its provenance record (``{"search": {...}}`` or
``{"construction": {...}}``; a run's :class:`Provenance` writes it, so that a table says truthfully how it
was made: a search names its solver, run and seed, a construction names no solver).  ``finish`` labels the table with its instance (network, exchange,
generators, the counting bound as ``lower_bound``, the per-letter bound as ``extra["letter_bound"]``),
verifies it against Theorem 1 (:func:`tesearch.tables.verify.verify_table`, with the instance's graph and bounds)
and returns it; a table that does not verify raises :class:`~tesearch.running.errors.UnverifiedTable` (exit 70: a
bug in the strategy), never an AssertionError.  A table a construction module built by itself goes through
:meth:`TableBuilder.check` instead.  :func:`relabelled` is the one way to give a verified table another
provenance (a copy: the placements, hence the verification, stay).  No code elsewhere edits a table after
it was verified.  :func:`core_and_blocks` makes the tables of a core in front of rotation blocks, as the
rotation search and the prime-star construction lay them out.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Iterable

from tesearch.running import limits
from tesearch.running.errors import UnverifiedTable
from tesearch.facts.instance import Instance
from tesearch.tables.layout import PlacedWord, assign_rows, rotation_blocks
from tesearch.networks.rotation import Rotation
from tesearch.networks.symmetry import LetterGroup
from tesearch.tables.table import Placement, Table
from tesearch.running.terms import optimality_text
from tesearch.tables.verify import Verification, verify_table
from tesearch.networks.words import canonical_word, to_letters


@dataclass(frozen=True)
class Provenance:
    """Who makes a run's tables, for the record each of them carries: with a ``solver`` (as
    :func:`tesearch.solvers.decide.solver_name` names it) a search, with its run's parameters in one string
    and its seed; without one a construction, which names neither (no solver ran)."""

    solver: str | None = None
    run: str | None = None
    seed: int | None = None

    def __post_init__(self):
        if self.solver is None and (self.run is not None or self.seed is not None):
            raise ValueError("a construction's provenance names no run and no seed: no solver ran")

    @property
    def key(self) -> str:
        """The table's record it writes: 'search' or 'construction'."""
        return "construction" if self.solver is None else "search"

    def record(self, strategy: str, method: str, seconds: float) -> dict:
        """A table's provenance: ``{"search": {tool, strategy, method, run, seed, solver, seconds}}``, or
        ``{"construction": {tool, strategy, method, seconds}}``."""
        entry: dict = {"tool": "tesearch", "strategy": strategy, "method": method}
        if self.solver is not None:
            entry.update(run=self.run, seed=self.seed, solver=self.solver)
        entry["seconds"] = round(seconds, 3)
        return {self.key: entry}


#: the provenance of the tables a construction makes: no solver, no run, no seed
CONSTRUCTION = Provenance()


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

    def labelled(self, table: Table) -> Table:
        """A table a construction module built by itself, labelled as :meth:`finish` labels one: the counting bound as
        ``lower_bound`` and the per-letter bound as ``extra["letter_bound"]`` of this instance (the seed papers'
        constructions record neither: their files had ``lower_bound`` null, which the table format does not allow)."""
        bounds = self.facts.bounds
        return dataclasses.replace(table, lower_bound=bounds.counting,
                                   extra={"letter_bound": bounds.letter.value, **table.extra})

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
    """A copy of a verified table whose provenance record ``extra[key]`` has ``changes`` (a record that is a bare
    name, as the seed papers' constructions write it, becomes ``{"method": name}`` first): its words stay, so
    its verification holds."""
    extra = dict(table.extra)
    record = extra.get(key, {})
    extra[key] = {**(record if isinstance(record, dict) else {"method": record}), **changes}  # a bare name: its method
    return dataclasses.replace(table, extra=extra)


def routed(table: Table, route: str, passed: Iterable) -> Table:
    """A copy of a verified table whose provenance record (its ``search`` or ``construction`` entry) names the
    front door's route that made it, and each route tried before it with why it did not make the table
    (``passed``: records with ``to_json()``): ``"route": {"made_by": ROUTE, "passed": [{route, why, T}, ...]}``."""
    key = "search" if "search" in table.extra else "construction"
    return relabelled(table, key, route={"made_by": route, "passed": [p.to_json() for p in passed]})


def core_and_blocks(facts: Instance, core: Iterable[PlacedWord], core_width: int, full: list[tuple[int, ...]],
                    plan: Iterable[int], symmetry: Rotation | LetterGroup, provenance: dict, *, what: str,
                    sections: list[dict] | None = None) -> Table:
    """A verified table of ``facts``: the core's (element, first column, word) rows in ``core_width`` columns,
    rows by interval colouring, then every full orbit not in ``plan`` (indices into ``full``, the orbits the
    core holds) as a rotation block of ``symmetry`` (the rotation, or a regular letter group: its letter maps
    are the blocks' rows).  ``provenance`` (one record, as :meth:`Provenance.record` writes it) is told the
    symmetry and the core's filler orbits; ``sections`` (default: the core) gains the blocks' section."""
    cg = facts.cg
    plan = list(plan)
    with limits.phase("assemble"):
        rows = assign_rows(list(core), cg.degree)
        used = set(plan)
        words = [canonical_word(cg, orbit[0]) for j, orbit in enumerate(full) if j not in used]
        blocks, column = rotation_blocks(words, symmetry, core_width)
    extra = {key: dict(value) for key, value in provenance.items()}
    (entry,) = extra.values()
    if isinstance(symmetry, LetterGroup):  # the blocks' rows are the group's letter maps, in this order
        entry["symmetry"] = {"group": symmetry.name, "letter_maps": symmetry.letter_maps()}
    else:
        entry["rotation"] = list(symmetry.cycle)
    entry["filler_orbits"] = [[list(to_letters(cg, canonical_word(cg, full[j][0])))] for j in plan]
    extra["sections"] = (sections or [{"name": "core", "start": 0, "end": core_width}]) + \
        [{"name": "rotation blocks", "start": core_width, "end": column}]
    return TableBuilder(facts, what).place(rows + blocks).finish(column, extra)
