"""The front door: the best table tesearch knows how to make for a network, by what the network is.

``tesearch search NETWORK`` runs the strategy ``best`` (:class:`tesearch.search.strategies.FrontDoor`, which
holds the command's options and makes each route's strategy through the registry; :func:`run_routes` runs them):
the routes of :data:`ROUTES` in order, each on the one instance (its facts computed once), until one makes a
table that meets the best lower bound:

==============  =====================================================================================
``construct``   a construction without a solver (:mod:`tesearch.constructions`: hypercubes, mirror lanes,
                rings, tori, prime stars, odd-distance stars); it applies or says why not, in a second
``lift``        the ring lift of a torus over a factor table that exists: one tesearch ships
                (:mod:`tesearch.data`) or one a construction makes (:mod:`tesearch.search.lift`)
``rotation``    rotation blocks around a searched core (the network has a rotation that can meet its bound)
``stratify``    symmetry stratification (the same networks; it aims at the counting bound)
``split``       rotation blocks around several small sub-cores
``full``        every target searched, the width loop from the bound up (every network)
``ejection``    the narrowest table so far (else a first fit) narrowed by min-conflicts over every shortest word
                (:mod:`tesearch.search.ejection`; no solver; groups up to its ``MAX_ORDER`` elements)
``repack``      the greedy table narrowed by CP-SAT (total exchange, with the cpsat extra)
``lns``         the best table so far narrowed window by window by CP-SAT's interval model (the
                large-neighbourhood search of :mod:`tesearch.search.lns`; total exchange, cpsat extra)
==============  =====================================================================================

A route that does not apply says why before any work (:meth:`Routes.why_not`); one that runs and ends
without a table, or with one no narrower than the best so far, says what it showed.  The best table so far
is kept; each route gets a share of the time left (:data:`ROUTE_SHARES`), so a route that ends early leaves
its time to the next, and the last gets all that is left.  Every table offered while the routes run
(:func:`tesearch.running.limits.offer`) is the best so far and carries its route in its provenance
(:func:`tesearch.tables.build.routed`), so that at a time limit the table written says how it was made.
The outcome's verdict is the route's table against the best bound: OPTIMAL only when it meets it; UNKNOWN
when no route made a table; INFEASIBLE only when the full search refuted every width asked for
(``max_width``), never because a route did not apply.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import re
import time
from dataclasses import dataclass

from tesearch.constructions import constructed_table
from tesearch.data import packaged_table
from tesearch.running import limits
from tesearch.running.errors import ConstructionError, LiftError, SpecError, TesearchError
from tesearch.facts.instance import Instance
from tesearch.networks.families import Network
from tesearch.running.limits import Budget, Progress
from tesearch.tables.build import routed
from tesearch.tables.outcome import Outcome
from tesearch.tables.table import Table, read_table
from tesearch.running.terms import Exchange, Status, optimality_text

#: the registry name of the front door (tesearch.search.strategies.STRATEGIES), the default of `tesearch search`
FRONT_DOOR = "best"

#: every route, in the order the front door tries them (the order that has worked: module doc)
ROUTES = ("construct", "lift", "rotation", "stratify", "split", "full", "ejection", "repack", "lns")
#: the share of the time left that each route may spend (the last route that applies gets all of it)
ROUTE_SHARES = {"construct": 1.0, "lift": 0.25, "rotation": 0.5, "stratify": 0.4, "split": 0.4, "full": 0.6,
                "ejection": 0.5, "repack": 0.5, "lns": 1.0}
#: seconds the routes leave before the command's deadline to return the outcome (at most a tenth of the time)
RETURN_MARGIN_S = 5.0
#: why a route was passed when the command's time was spent before it could start
TIME_SPENT = "not tried: the time was spent"
#: how each route is named for people
ROUTE_NAMES = {"construct": "a construction", "lift": "the ring lift", "rotation": "the rotation search",
               "stratify": "the symmetry stratification", "split": "the split search", "full": "the full search",
               "ejection": "the ejection search", "repack": "the CP-SAT repack", "lns": "the large-neighbourhood search"}
#: the advice a construction's refusal ends with ("; use tesearch search or narrow"): the front door goes on by itself
OTHER_COMMAND = re.compile(r"; use tesearch .*$")


@dataclass(frozen=True)
class Passed:
    """A route that did not make the table: its name and why (did not apply, found nothing, or a wider table)."""

    route: str
    why: str
    T: int | None = None  # the width of the table it made, if it made one

    def to_json(self) -> dict:
        """The route's record (a table's provenance, --json)."""
        return {"route": self.route, "why": self.why, "T": self.T}

    def text(self) -> str:
        """One line for people."""
        return f"{self.route}: {self.why}"


@dataclass
class _Best:
    """The best table so far and the route that made it."""

    table: Table | None = None
    route: str | None = None
    outcome: Outcome | None = None


class Routes:
    """One front-door run: ``door`` (the strategy :class:`tesearch.search.strategies.FrontDoor`: the command's
    options, its routes, and the registry's strategy for each route) on one instance within one budget."""

    def __init__(self, door, facts: Instance, budget: Budget):
        self.door = door
        self.facts = facts
        # the routes end a little before the command's deadline, so that the front door returns its outcome (the
        # table, its route and the routes passed, exit 0) instead of being stopped with its best table at the limit
        self.budget = budget.reserving(RETURN_MARGIN_S, fraction=0.1)
        self.params = door.params
        self.routes = ROUTES if door.routes is None else tuple(r for r in ROUTES if r in door.routes)
        self.progress: Progress = door.progress
        self.best = _Best()  # the best table offered so far (by any route's own offers too)
        self.made = _Best()  # the best table a route returned
        self.passed: list[Passed] = []
        self.route = ""  # the route running now
        self.started = time.monotonic()

    # ------------------------------------------------------------------ which routes apply

    def why_not(self, route: str) -> str | None:
        """None when ``route`` may make a table of the instance; else why it does not apply (before any work)."""
        facts = self.facts
        network = facts.network
        max_width = self.params.max_width
        if route == "lift":
            if facts.exchange is not Exchange.TOTAL:
                return "a lift makes total-exchange tables only"
            if not network.is_product or len(network.factors) < 2:
                return f"{network.spec} is not a product of rings (a torus)"
            if not self.factors():
                return "no factor table exists (none shipped, none constructed) for any side split off"
        elif route in ("rotation", "stratify", "split"):
            if facts.rotation is None:
                return f"{network.spec} has no rotation"
            bounds = facts.bounds
            if bounds.letter.value > bounds.counting:
                return (f"the per-letter bound {bounds.letter.value} is above the counting bound {bounds.counting}: "
                        f"rotation blocks are letter-balanced and cannot meet it")
            if route == "stratify" and max_width is not None and max_width < bounds.counting:
                return f"a stratified table is {bounds.counting} wide, above --max-width {max_width}"
        elif route == "ejection":
            from tesearch.search.ejection import MAX_ORDER

            if facts.cg.order > MAX_ORDER:
                return f"{network.spec} has {facts.cg.order} elements, more than the ejection search's {MAX_ORDER}"
        elif route in ("repack", "lns"):
            if facts.exchange is not Exchange.TOTAL:
                return ("the repack narrows a total exchange's greedy table" if route == "repack" else
                        "the large-neighbourhood search narrows a total exchange's table")
            if importlib.util.find_spec("ortools") is None:
                return "OR-Tools is not installed (the cpsat extra)"
        return None  # construct says itself, at once, whether a construction applies; full applies to every network

    @functools.cached_property
    def _factors(self) -> list[tuple[int, Table]]:
        from tesearch.search.lift import split_off

        network = self.facts.network
        sides = [f.order for f in network.factors]
        found: list[tuple[int, Table]] = []
        for index in sorted(range(len(sides)), key=lambda i: (sides[i], i)):
            if sides[index] in [sides[i] for i, _ in found]:
                continue  # the same side split off again gives the same factor
            _, rest, _ = split_off(network, index)
            table = existing_table(rest)
            if table is not None:
                found.append((index, table))
        return found

    def factors(self) -> list[tuple[int, Table]]:
        """(ring index, factor table) for each side that can be split off with a factor table that exists
        (:func:`existing_table`), shortest side first; computed once."""
        return self._factors

    def run_route(self, route: str, budget: Budget) -> tuple[Outcome | None, str | None]:
        """The route's outcome, or None and why it made none (a strategy that raises ConstructionError, SpecError
        or LiftError on this instance does not apply)."""
        try:
            if route in ("ejection", "lns"):  # from the narrowest table a route made (else their own first table)
                return self.door.route_strategy(route, start=self.made.table).run(self.facts, budget), None
            if route != "lift":
                return self.door.route_strategy(route).run(self.facts, budget), None
            best, whys = None, []
            factors = self.factors()
            for number, factor in enumerate(factors):
                share = budget if number == len(factors) - 1 else budget.part(fraction=0.5)
                try:
                    outcome = self.door.route_strategy(route, factor).run(self.facts, share)
                except LiftError as exc:  # this factor table cannot be lifted (or no lift was found): the next
                    whys.append(str(exc))
                    continue
                if outcome.table is not None and (best is None or outcome.table.T < best.table.T):
                    best = outcome
                else:
                    whys.append(outcome.summary)
                if best is not None and best.optimal:
                    break
            return (best, None) if best is not None else (None, "no lift: " + "; ".join(whys))
        except (ConstructionError, SpecError, LiftError) as exc:  # without its advice to use another command
            return None, f"does not apply: {OTHER_COMMAND.sub('', str(exc))}"

    def narrower(self, candidate: object) -> object | None:
        """What a route offers passes on (:func:`tesearch.running.limits.candidates_through`) only when it is a
        table of this instance, within --max-width, narrower than the best so far, and with its route recorded:
        the supervisor keeps the last table offered, so that is the best."""
        facts, best, max_width = self.facts, self.best, self.params.max_width
        if not isinstance(candidate, Table) or (candidate.network, candidate.exchange) != (facts.spec,
                                                                                           facts.exchange.value):
            return None
        if (best.table is not None and candidate.T >= best.table.T) or (max_width is not None and
                                                                         candidate.T > max_width):
            return None
        best.table, best.route = candidate, self.route
        return routed(candidate, self.route, self.passed)

    def take(self, route: str, outcome: Outcome | None, why: str | None) -> bool:
        """Record what ``route`` gave: True when its table is the new best (the caller offers it)."""
        bounds, max_width, made = self.facts.bounds, self.params.max_width, self.made
        table = outcome.table if outcome is not None else None
        if outcome is None:
            self.passed.append(Passed(route, why))
        elif table is None:
            self.passed.append(Passed(route, f"no table: {outcome.stop_reason or outcome.summary}"))
        elif max_width is not None and table.T > max_width:
            self.passed.append(Passed(route, f"T = {table.T}, wider than --max-width {max_width}", table.T))
        elif made.outcome is not None and table.T >= made.outcome.table.T:
            self.passed.append(Passed(route, f"T = {table.T}, no narrower than the {made.route} route's", table.T))
        else:
            if made.outcome is not None:
                old = made.outcome.table.T
                self.passed.append(Passed(made.route, f"T = {old}, {optimality_text(old, bounds.best)}; a later "
                                                      f"route made a narrower table", old))
            made.outcome, made.route, made.table = outcome, route, table
            self.progress(f"route {route}: T = {table.T}, {optimality_text(table.T, bounds.best)}")
            return True
        self.progress(f"route {route}: {self.passed[-1].why}")
        return False

    def last(self, position: int) -> bool:
        """Whether the route at ``position`` may take all the time left: it takes all of it anyway (a construction),
        or no later route applies (asked only then: a later route's question may cost a group or a bound)."""
        if ROUTE_SHARES[self.routes[position]] >= 1.0:
            return True
        return all(self.why_not(later) is not None for later in self.routes[position + 1:])

    def run(self) -> Outcome:
        """Run the routes in order (module doc): the outcome of the route that made the best table, its ``facts``
        naming that route and why each one before it did not make the table."""
        facts, budget = self.facts, self.budget
        max_width = self.params.max_width
        if max_width is not None and max_width < facts.bounds.best:  # no table can exist: the search says so by the bound
            skipped = [Passed(r, f"not tried: --max-width {max_width} is below the best bound {facts.bounds.best}")
                       for r in self.routes if r != "full"]
            return self.outcome(self.door.route_strategy("full").run(facts, budget), "full", skipped)
        routes = self.routes
        with limits.candidates_through(self.narrower):
            for position, route in enumerate(routes):
                why = self.why_not(route)
                if why is not None:
                    self.passed.append(Passed(route, f"does not apply: {why}"))
                    self.progress(f"route {route}: does not apply: {why}")
                    continue
                if budget.spent:
                    self.passed.append(Passed(route, TIME_SPENT))
                    continue
                share = budget if self.last(position) else budget.part(fraction=ROUTE_SHARES[route])
                self.route = route
                self.progress(f"route {route}: trying {ROUTE_NAMES[route]}" + (
                    "" if route == "construct" else f", {_seconds(share)}"))
                outcome, why = self.run_route(route, share)
                if outcome is not None and outcome.status is Status.INFEASIBLE and route == "full" \
                        and self.made.outcome is None:
                    return self.outcome(outcome, route, self.passed)  # every width up to --max-width refuted
                if self.take(route, outcome, why):
                    limits.offer(self.made.table)  # kept (with its route) if a limit stops a later route
                    if self.made.table.T == facts.bounds.best:
                        break
        made = self.made
        if made.outcome is None:
            reasons = "; ".join(p.text() for p in self.passed)
            return Outcome(FRONT_DOOR, Status.UNKNOWN, None, f"{facts.name}: no route made a table ({reasons})",
                           facts.bounds, time.monotonic() - self.started, stop_reason=_last_stop(self.passed),
                           facts={"route": None, "routes": [p.to_json() for p in self.passed]})
        return self.outcome(made.outcome, made.route, self.passed)

    def outcome(self, outcome: Outcome, route: str, passed: list[Passed]) -> Outcome:
        """``outcome`` as the front door's: its table with the route in its provenance, ``facts`` naming the
        route and the routes passed, the time of all routes."""
        passed = sorted(passed, key=lambda p: ROUTES.index(p.route))  # in the order the routes were tried
        table = routed(outcome.table, route, passed) if outcome.table is not None else None
        facts = {**outcome.facts, "route": route, "routes": [p.to_json() for p in passed]}
        return Outcome(FRONT_DOOR, outcome.status, table, outcome.summary, outcome.bounds,
                       time.monotonic() - self.started, stop_reason=outcome.stop_reason, facts=facts)


def _seconds(budget: Budget) -> str:
    """The route's time for people."""
    left = budget.left
    return "no time limit" if left == float("inf") else f"up to {left:.0f} s"


def _last_stop(passed: list[Passed]) -> str | None:
    """Why the last route that ran stopped, for an outcome without a table."""
    ran = [p for p in passed if not p.why.startswith(("does not apply", "not tried"))]
    if ran:
        return ran[-1].why
    late = [p for p in passed if p.why == TIME_SPENT]  # the instance's setup took all the time (a busy machine)
    return f"the time limit was reached before route {late[0].route} could start" if late else None


def existing_table(network: Network) -> Table | None:
    """A verified total-exchange table of ``network`` that exists without a solver: the one tesearch ships, else a
    construction's; for a torus of one side (what a lift of a two-sided torus splits off), the ring's with the same
    generators, labelled with the torus (checked again under that label); None when none exists."""
    from tesearch.search.lift import verified_factor  # the lift loads its solvers: only for a torus

    same = [network] + [ring for ring in network.factors if len(network.factors) == 1]
    for source in same:
        path = packaged_table(source.spec)
        try:
            table = read_table(path) if path is not None else constructed_table(source, Exchange.TOTAL).table
        except ConstructionError:
            continue
        try:
            return verified_factor(dataclasses.replace(table, network=network.spec), where=str(path or source.spec))
        except TesearchError:  # not the generators of this network (another presentation): no factor here
            continue
    return None


def run_routes(door, facts: Instance, budget: Budget) -> Outcome:
    """The front door ``door`` (:class:`tesearch.search.strategies.FrontDoor`) on ``facts`` within ``budget``."""
    return Routes(door, facts, budget).run()
