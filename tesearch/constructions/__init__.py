"""Optimal tables by construction, no solver: one registry of every construction tesearch has.

:func:`constructed_table` picks the construction that applies to a network and
an exchange: the recursive doubling for hypercubes
(:mod:`~tesearch.constructions.hypercube`), the mirror lanes for the regular
torus m x n x n with 4 | m < n, n even (:mod:`~tesearch.constructions.lanes`),
total exchange on star-n for n - 1 prime around a recorded core array
(:mod:`~tesearch.constructions.star_prime`), and the seed papers' general
constructions for rings and tori (Coolsaet, Fack and De Meyer 1994) and odd-distance stars
(Coolsaet and Fack 1994),
implemented in :mod:`tesearch.checking.published.constructions`.  Every table is
verified before it is returned.
"""

from __future__ import annotations

import time

from tesearch.running import limits
from tesearch.constructions import lanes, star_prime
from tesearch.constructions.hypercube import CONSTRUCTION_NAME, MAX_DIMENSION, hypercube_table
from tesearch.tables.build import TableBuilder, relabelled
from tesearch.running.errors import ConstructionError
from tesearch.facts.instance import Instance, instance
from tesearch.networks.families import TRANSPOSITION_STAR, Network, SymmetricParams, has_trait
from tesearch.networks.products import HypercubeParams, RingParams, TorusParams
from tesearch.checking.published import constructions as seeds
from tesearch.checking.published.complete import CompletionError
from tesearch.tables.outcome import Outcome
from tesearch.running.terms import Exchange, Status


def _seed_construction(network: Network, exchange: Exchange) -> str | None:
    """The name of the seed construction (tesearch.checking.published.constructions.CONSTRUCTIONS) for a network."""
    p = network.params
    if exchange is not Exchange.TOTAL:
        return None
    if isinstance(p, RingParams):
        return "ring-odd" if p.n % 2 else "ring-even" if p.kind == "dihedral" else None
    if isinstance(p, TorusParams) and len(set(p.sides)) == 1 and len(set(p.kinds)) == 1:
        n, dims = p.sides[0], len(p.sides)
        odd = n % 2 == 1 and p.kinds[0] == "cyclic"
        even = n % 2 == 0 and p.kinds[0] == "dihedral"
        if dims == 2 and (odd or even):
            return "torus2d-odd" if odd else "torus2d-even"
        if dims == 3 and (odd or even):
            return "torus3d-odd" if odd else "torus3d-even"
    return None


def constructed_table(network: Network | Instance, exchange: Exchange | str | None = None) -> Outcome:
    """A verified table for ``network`` (an instance, or a network and ``exchange``, default total) by
    construction, as an outcome FOUND; ConstructionError if none applies."""
    started = time.monotonic()
    # the instance builds its group on first use: after the guards below, which read the parameters only
    facts = network if isinstance(network, Instance) else instance(network, exchange or Exchange.TOTAL)
    network, exchange = facts.network, facts.exchange
    p = network.params
    with limits.phase("construct"):
        if isinstance(p, HypercubeParams) and exchange is Exchange.TOTAL:
            if p.d > MAX_DIMENSION:
                raise ConstructionError(f"{network.spec}: tesearch constructs hypercube-d for d = 1..{MAX_DIMENSION}, "
                                        f"the largest its checkers rebuild (2^{MAX_DIMENSION} nodes)")
            table, how = hypercube_table(p.d), CONSTRUCTION_NAME
        elif isinstance(p, SymmetricParams) and has_trait(network, TRANSPOSITION_STAR) and exchange is Exchange.ODD_DISTANCE:
            try:
                table, how = seeds.star_odd_by_rotation(p.n).table, "Coolsaet and Fack (1994): odd-distance by rotation blocks"
            except CompletionError as exc:
                raise ConstructionError(
                    f"{network.spec} odd-distance: the construction of Coolsaet and Fack (1994) needs every odd-distance element in "
                    f"a full orbit of the rotation ({network.degree} elements: a rotation block), as when n - 1 is "
                    f"an odd prime (its Theorem 3); for n = {p.n} an odd-distance orbit is short ({exc}); "
                    f"use tesearch search --exchange odd-distance") from None
        elif isinstance(p, SymmetricParams) and has_trait(network, TRANSPOSITION_STAR) and exchange is Exchange.TOTAL:
            why = star_prime.applies(p.n - 1)
            if why is not None:
                raise ConstructionError(f"{network.spec} total: no construction applies: {why}; use tesearch search "
                                        f"or narrow")
            table, how = star_prime.star_prime_table(facts), star_prime.CONSTRUCTION_NAME
        elif exchange is Exchange.TOTAL and lanes.applies(network) is None:
            table, how = lanes.mirror_lane_table(network), lanes.CONSTRUCTION_NAME
        else:
            name = _seed_construction(network, exchange)
            if name is None:
                raise ConstructionError(
                    f"{network.spec} {exchange.value}: no construction applies (tesearch constructs hypercube-d, "
                    f"ring-n, torus-nxn and torus-nxnxn with the default groups, torus-mxnxn with 4 | m < n and "
                    f"n even, star-n with n - 1 prime, and odd-distance star-n); "
                    f"use tesearch search")
            builder, _, applies = seeds.CONSTRUCTIONS[name]
            n = p.n if isinstance(p, RingParams) else p.sides[0]
            if not applies(n):
                raise ConstructionError(f"{network.spec}: the {name} construction of Coolsaet, Fack and De Meyer (1994) does not apply to n = {n}")
            table, how = builder(n).table, f"Coolsaet, Fack and De Meyer (1994) construction {name}"
    if not isinstance(table.extra.get("construction"), dict):  # the seed papers' tables name their construction only
        table = relabelled(table, "construction", method=how, tool="tesearch", strategy="construct")
    builder = TableBuilder(facts, how)
    if table.lower_bound is None or "letter_bound" not in table.extra:
        table = builder.labelled(table)
    check = builder.check(table)
    return Outcome("construct", Status.FOUND, table, f"{network.spec} {exchange.value}: T = {table.T} by {how}; "
                   f"best bound {check.bounds.best}; {builder.verdict(table)}", facts.bounds, time.monotonic() - started)
