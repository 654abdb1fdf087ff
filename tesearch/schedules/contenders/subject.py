"""What a contender is built for: a network with its facts, and, where one is given, a verified table of it.

:func:`subject_of` makes a :class:`Subject` from a network (or its spec) and an optional table.  Every builder of
this package reads the network's Cayley graph, bounds and letter-count vectors from ``subject.facts`` (an
:class:`~tesearch.facts.instance.Instance`, each fact computed once) and numbers ranks with ``subject.numbering``, so
all the schedules of one subject share one graph and one rank numbering; a table is checked against Theorem 1
on the way in (a table that does not verify is refused with its first violation).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from tesearch.running.errors import FormatError
from tesearch.schedules.execute.hops import HopSchedule
from tesearch.networks.groups import CayleyGraph, cayley_graph
from tesearch.facts.instance import Instance, instance
from tesearch.networks.families import Network, network_for_table, network_from_spec
from tesearch.schedules.programs.ranks import RankNumbering, numbering_of_graph
from tesearch.tables.table import Table
from tesearch.tables.verify import verify_table


@dataclass(eq=False)
class Subject:
    """A network's facts and rank numbering, and optionally a verified table of it (its own timing as
    :attr:`table_schedule`)."""

    facts: Instance
    numbering: RankNumbering
    table: Table | None = None

    @property
    def network(self) -> Network:
        """The network."""
        return self.facts.network

    @property
    def graph(self) -> CayleyGraph:
        """The network's Cayley graph (the one the numbering numbers)."""
        return self.facts.cg

    @property
    def diameter(self) -> int:
        """The longest distance: the fewest supersteps any schedule has."""
        return self.graph.diameter

    @property
    def letter_bound(self) -> int:
        """The per-letter bound ``P`` (a lower bound on every schedule's bundle sum; docs/simulate.md, "The superstep model")."""
        return self.facts.bounds.letter.value

    @cached_property
    def table_schedule(self) -> HopSchedule:
        """The table's own timing; FormatError when the subject has no table."""
        if self.table is None:
            raise FormatError(f"{self.network.spec}: no table was given")
        return HopSchedule.from_table(self.table, numbering=self.numbering, name="table")


def subject_of(network: Network | str | None = None, table: Table | None = None) -> Subject:
    """The subject of a network (a :class:`Network` or a spec) and/or a table of it (verified here); a table with
    its :class:`Network` (a command's target, loaded once) is held to that network, which is not derived again."""
    if table is not None and isinstance(network, Network):  # resolved by the caller: the table must be of it
        net = network
        if net.spec != table.network or not net.same_generators(table.generators):
            raise FormatError(f"the table is of {table.network}, not of {net.spec}")
    elif table is not None:
        net = network_for_table(table.network, table.generators)
        if network is not None:
            given = network_from_spec(network)
            if given.spec != net.spec or not given.same_generators(table.generators):
                raise FormatError(f"the table is of {net.spec}, not of {given.spec}")
    elif network is not None:
        net = network_from_spec(network) if isinstance(network, str) else network
    else:
        raise FormatError("a subject needs a network or a table")
    graph = cayley_graph(net, check_order=False)
    facts = instance(net, cg=graph, rotation_search=False)
    if table is not None:
        if table.exchange != facts.exchange.value:
            raise FormatError(f"{net.spec}: the contenders are total exchanges; the table is {table.exchange!r}")
        check = verify_table(table, facts=facts)
        if not check.ok:
            raise FormatError(f"{net.spec}: the table does not verify: {check.violations[0]}")
    return Subject(facts, numbering_of_graph(graph), table)
