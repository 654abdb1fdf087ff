"""Every way tesearch makes a table, behind one contract: ``TableStrategy.run(instance, budget) -> Outcome``.

This module imports no solver: each strategy loads its modules when it runs (the sweep's driver
imports the registry without loading Z3 or OR-Tools).  A strategy is a small frozen record of its own options (seed, solver, per-call limits); :meth:`run` takes
the :class:`~tesearch.facts.instance.Instance` (the network's facts, computed once) and a
:class:`~tesearch.running.limits.Budget` (the time and memory it may spend) and returns an
:class:`~tesearch.tables.outcome.Outcome` (three-valued, with the verified table and its provenance).  The
strategies:

==============  =====================================================================================
``rotation``    rotation blocks around a searched core (:mod:`tesearch.search.core`)
``split``       rotation blocks around several sub-cores
``full``        every target searched, the width loop from the bound up
``best``        the front door (:mod:`tesearch.search.frontdoor`): construct, lift, rotation, stratify, split,
                full, repack, lns in turn until a table meets the bound (``tesearch search``'s default)
``auto``        rotation where it can meet the bound, else full
``stratify``    symmetry stratification (:mod:`tesearch.search.stratify`)
``lift``        the ring lift for tori (:mod:`tesearch.search.lift`)
``repack``      the greedy table narrowed by CP-SAT (:mod:`tesearch.search.improve`)
``lns``         a table narrowed window by window by CP-SAT's interval model (:mod:`tesearch.search.lns`)
``narrow``      the rotation search's greedy core narrowed by CP-SAT (:mod:`tesearch.search.narrow`)
``lane-core``   the rotation core as mirrored lanes + a free part (:mod:`tesearch.search.lanecore`)
``construct``   a construction without a solver (:mod:`tesearch.constructions`)
==============  =====================================================================================

:data:`STRATEGIES` maps each name to a maker; :func:`strategy` makes one from a name, a seed, a solver and
the strategy's own options: every command that makes a table (``search``, ``stratify``, ``lift``, ``repack``,
``narrow``, ``construct``) and every sweep entry makes its strategy there and runs it on an instance.  A strategy that does not apply to the instance
raises :class:`~tesearch.running.errors.ConstructionError` or :class:`~tesearch.running.errors.SpecError` (exit 2);
every other end is an outcome (a lift the solvers refute or give up on is UNKNOWN).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Callable, ClassVar

from tesearch.solvers import DEFAULT_WORKERS, Backend, CpsatModel
from tesearch.running.errors import LiftError, LiftImpossible
from tesearch.facts.instance import Instance
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.tables.outcome import Outcome
from tesearch.networks.symmetry import THE_ROTATION
from tesearch.search.ejection import DEFAULT_EXCESS_PENALTY, DEFAULT_TENURE, Weighting
from tesearch.tables.table import Table
from tesearch.running.terms import Status
from tesearch.networks.words import DEFAULT_WORD_CAP

if TYPE_CHECKING:  # the search's parameters load the solver models: imported when a search is made
    from tesearch.search.params import SearchParams


class TableStrategy:
    """One way of making a table (module doc); subclasses are frozen dataclasses of their options."""

    name: ClassVar[str]

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Make a table of ``facts`` within ``budget``: the outcome."""
        raise NotImplementedError


@dataclass(frozen=True)
class Search(TableStrategy):
    """The width loop, rotation blocks or full (:func:`tesearch.search.core.search`), with ``params`` (checked
    when they were made); the network and the exchange are the instance's."""

    params: SearchParams
    progress: Progress = quiet
    encodings_dir: str | None = None  # keep the SMT-LIB2 encoding of every refuted width here
    name: ClassVar[str] = "search"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Run the search (module :mod:`tesearch.search.core`): its run's outcome."""
        from tesearch.search.core import search

        return search(facts, self.params, budget=budget, progress=self.progress,
                      encodings_dir=self.encodings_dir).outcome()


@dataclass(frozen=True)
class Stratification(TableStrategy):
    """Symmetry stratification (:func:`tesearch.search.stratify.stratify`)."""

    seed: int = 0
    backend: Backend = Backend.Z3
    cpsat_model: CpsatModel = CpsatModel.PLACEMENTS
    attempt_s: float = 120.0  # one solver call's limit
    progress: Progress = quiet
    name: ClassVar[str] = "stratify"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Run the stratified search."""
        from tesearch.search.stratify import stratify

        return stratify(facts, facts.exchange, budget=budget, attempt_s=self.attempt_s, seed=self.seed,
                        progress=self.progress, backend=self.backend, cpsat_model=self.cpsat_model)


@dataclass(frozen=True)
class RingLift(TableStrategy):
    """The ring lift of a torus (:func:`tesearch.search.lift.lifted_table`); a refuted or unknown lift is an
    UNKNOWN outcome (nothing is proved about the network).  A lift proved impossible for the factor table at
    hand (:class:`~tesearch.running.errors.LiftImpossible`, exit 2) does not apply: it is raised, as a strategy that
    does not apply raises."""

    backend: Backend = Backend.Z3
    ring_index: int | None = None
    factor: Table | None = None
    modes: tuple | None = None  # AssignMode values in order; None: fixed, then latin
    timeout_s: float | None = 120.0  # one solver call's limit (None: the budget's time left)
    progress: Progress = quiet
    name: ClassVar[str] = "lift"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Lift, or say why not."""
        from tesearch.search.lift import lifted_table

        started = time.monotonic()
        options = {} if self.modes is None else {"modes": self.modes}
        try:
            return lifted_table(facts, ring_index=self.ring_index, factor=self.factor,
                                timeout_s=self._call_seconds(budget), backend=self.backend,
                                progress=self.progress, **options)
        except LiftImpossible:
            raise
        except LiftError as exc:
            return Outcome(self.name, Status.UNKNOWN, None, str(exc), facts.bounds, time.monotonic() - started)

    def _call_seconds(self, budget: Budget) -> float:
        """One solver call's seconds: ``timeout_s`` within the budget (120 s with neither)."""
        seconds = budget.call_timeout(self.timeout_s)
        return 120.0 if seconds is None else max(seconds, 0.05)


@dataclass(frozen=True)
class _CpsatNarrowing(TableStrategy):
    """The options the two CP-SAT narrowings share."""

    seed: int = 0
    workers: int = DEFAULT_WORKERS
    word_cap: int = DEFAULT_WORD_CAP
    round_s: float = 60.0  # one CP-SAT round's limit
    cpsat_model: CpsatModel = CpsatModel.PLACEMENTS
    progress: Progress = quiet


@dataclass(frozen=True)
class Repack(_CpsatNarrowing):
    """The full search's greedy table (or ``start``) narrowed by CP-SAT (:func:`tesearch.search.improve.improve_greedy`)."""

    tail: int | None = None
    start: Table | None = None
    name: ClassVar[str] = "repack"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Narrow the greedy table."""
        from tesearch.search.improve import improve_greedy

        return improve_greedy(facts, budget=budget, word_cap=self.word_cap, seed=self.seed, workers=self.workers,
                              progress=self.progress, tail=self.tail, round_s=self.round_s,
                              cpsat_model=self.cpsat_model, start=self.start)


@dataclass(frozen=True)
class LargeNeighbourhood(_CpsatNarrowing):
    """The greedy table (or ``start``) narrowed window by window: the messages crossing a window of columns (and
    some near it) re-placed by CP-SAT's interval model, the columns right of it shifted left
    (:func:`tesearch.search.lns.lns_table`); any network, total exchange."""

    window: int = 30  # columns freed in a round, about
    start: Table | None = None
    round_s: float = 20.0  # one round's CP-SAT limit
    name: ClassVar[str] = "lns"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Narrow the table round by round until the budget is spent or the bound is met."""
        from tesearch.search.lns import lns_table

        return lns_table(facts, budget, start=self.start, window=self.window, round_s=self.round_s,
                         word_cap=self.word_cap, seed=self.seed, workers=self.workers, progress=self.progress)


@dataclass(frozen=True)
class Ejection(TableStrategy):
    """Every shortest word of every message placed by min-conflicts at a width below the best table so far, width
    after width (:func:`tesearch.search.ejection.ejection_table`); from ``start`` or the first fit over all
    shortest words; any network up to :data:`tesearch.search.ejection.MAX_ORDER` elements, any exchange; no
    solver."""

    seed: int = 0
    tenure: int = DEFAULT_TENURE
    weighting: Weighting = Weighting.LENGTH
    excess_penalty: int = DEFAULT_EXCESS_PENALTY
    start: Table | None = None
    progress: Progress = quiet
    name: ClassVar[str] = "ejection"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Narrow until the budget is spent or the bound is met."""
        from tesearch.search.ejection import ejection_table

        return ejection_table(facts, budget, start=self.start, seed=self.seed, tenure=self.tenure,
                              weighting=self.weighting, excess_penalty=self.excess_penalty, progress=self.progress)


@dataclass(frozen=True)
class NarrowCore(_CpsatNarrowing):
    """The rotation search's greedy-core table with its core narrowed by CP-SAT
    (:func:`tesearch.search.narrow.narrowed_core_table`)."""

    symmetry: str = THE_ROTATION  # the letter group of the blocks (tesearch.networks.symmetry)
    name: ClassVar[str] = "narrow"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Narrow the greedy core."""
        from tesearch.search.narrow import narrowed_core_table

        return narrowed_core_table(facts, budget=budget, round_s=self.round_s, word_cap=self.word_cap,
                                   seed=self.seed, workers=self.workers, progress=self.progress,
                                   cpsat_model=self.cpsat_model, symmetry=self.symmetry)


@dataclass(frozen=True)
class MirrorLaneCore(TableStrategy):
    """The rotation core as mirrored lanes and a free part, or as one joint model, solved by CP-SAT
    (:func:`tesearch.search.lanecore.lane_core_table`; abelian networks whose rotation has even order)."""

    joint: bool = False
    from_width: int = 0  # narrowest core tried
    max_width: int | None = None  # widest core tried (None: the exact core width + 12)
    round_s: float = 40.0  # one CP-SAT call's limit (one part of one split)
    progress: Progress = quiet
    name: ClassVar[str] = "lane-core"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Solve the lane core split by split (or width by width, joint)."""
        from tesearch.search.lanecore import lane_core_table

        return lane_core_table(facts, budget, joint=self.joint, from_width=self.from_width,
                               max_width=self.max_width, part_s=self.round_s, progress=self.progress)


@dataclass(frozen=True)
class Construction(TableStrategy):
    """A construction without a solver (:func:`tesearch.constructions.constructed_table`)."""

    name: ClassVar[str] = "construct"

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Build the table the construction that applies gives (the guards read the network's parameters
        before its group is built)."""
        from tesearch.constructions import constructed_table

        return constructed_table(facts)


@dataclass(frozen=True)
class FrontDoor(TableStrategy):
    """The best table tesearch knows how to make: a construction, a lift, then the searches, in the order of
    :data:`tesearch.search.frontdoor.ROUTES`, each a strategy of this registry made with the command's options
    (``params``: the searches' options; the other routes take its seed, solver, word cap and max width)."""

    params: SearchParams
    progress: Progress = quiet
    encodings_dir: str | None = None
    routes: tuple[str, ...] | None = None  # a part of the routes, in their order (None: every route)
    name: ClassVar[str] = "best"

    def __post_init__(self):
        from tesearch.running.errors import OptionError
        from tesearch.search.params import Strategy

        if self.params.from_width is not None:
            raise OptionError("--from-width asks the full search's width loop to refute widths; give --strategy full "
                              "(or auto) with it")
        if self.params.strategy is not Strategy.AUTO:
            raise ValueError("the front door chooses each search's layout itself")

    def run(self, facts: Instance, budget: Budget) -> Outcome:
        """Run the routes (:func:`tesearch.search.frontdoor.run_routes`)."""
        from tesearch.search.frontdoor import run_routes

        return run_routes(self, facts, budget)

    def route_strategy(self, route: str, factor: tuple[int, Table] | None = None, *,
                       start: Table | None = None) -> TableStrategy:
        """The strategy of ``route`` with the command's options (``factor``: a lift's ring index and factor table;
        ``start``: the table the large-neighbourhood search narrows, None for the greedy one)."""
        import dataclasses

        from tesearch.search.params import Strategy

        p = self.params
        if route in ("rotation", "split", "full"):
            symmetry = THE_ROTATION if route == "full" else p.symmetry  # the full search has no blocks
            return Search(dataclasses.replace(p, strategy=Strategy(route), symmetry=symmetry), self.progress,
                          self.encodings_dir)
        if route == "stratify":
            return Stratification(p.seed, p.backend, p.cpsat_model, progress=self.progress)
        if route == "lift":
            ring_index, table = factor
            backend = p.backend if p.backend in (Backend.Z3, Backend.CPSAT) else Backend.Z3
            return RingLift(backend, ring_index, table, timeout_s=None, progress=self.progress)
        if route == "repack":
            return Repack(p.seed, word_cap=p.word_cap, progress=self.progress)
        if route == "lns":
            return LargeNeighbourhood(p.seed, word_cap=p.word_cap, start=start, progress=self.progress)
        if route == "ejection":
            return Ejection(p.seed, start=start, progress=self.progress)
        if route == "construct":
            return Construction()
        raise ValueError(f"unknown route {route!r}")


def _front_door(seed: int = 0, backend: Backend = Backend.Z3, cpsat_model: CpsatModel = CpsatModel.PLACEMENTS, *,
                progress: Progress = quiet, encodings_dir: str | None = None, routes: tuple[str, ...] | None = None,
                **params) -> TableStrategy:
    from tesearch.search.params import SearchParams

    made = SearchParams(seed=seed, backend=Backend(backend), cpsat_model=CpsatModel(cpsat_model), **params)
    return FrontDoor(made, progress, encodings_dir, None if routes is None else tuple(routes))


def _search(layout: str) -> Callable[..., TableStrategy]:
    def make(seed: int = 0, backend: Backend = Backend.Z3, cpsat_model: CpsatModel = CpsatModel.PLACEMENTS, *,
             progress: Progress = quiet, encodings_dir: str | None = None, **params) -> TableStrategy:
        from tesearch.search.params import SearchParams, Strategy

        return Search(SearchParams(Strategy(layout), seed=seed, backend=Backend(backend),
                                   cpsat_model=CpsatModel(cpsat_model), **params), progress, encodings_dir)
    return make


def _with_seed_and_backend(cls) -> Callable[..., TableStrategy]:
    names = {f.name for f in fields(cls)}

    def make(seed: int = 0, backend: Backend = Backend.Z3, cpsat_model: CpsatModel = CpsatModel.PLACEMENTS,
             **options) -> TableStrategy:
        common = {"seed": seed, "backend": Backend(backend), "cpsat_model": CpsatModel(cpsat_model)}
        return cls(**{k: v for k, v in common.items() if k in names}, **options)  # an unknown option: TypeError
    return make


#: every strategy by name: a maker taking (seed, backend, cpsat_model, **options) -> TableStrategy
STRATEGIES: dict[str, Callable[..., TableStrategy]] = {
    "best": _front_door,
    "auto": _search("auto"),
    "rotation": _search("rotation"),
    "split": _search("split"),
    "full": _search("full"),
    "stratify": _with_seed_and_backend(Stratification),
    "lift": _with_seed_and_backend(RingLift),
    "repack": _with_seed_and_backend(Repack),
    "lns": _with_seed_and_backend(LargeNeighbourhood),
    "ejection": _with_seed_and_backend(Ejection),
    "narrow": _with_seed_and_backend(NarrowCore),
    "lane-core": _with_seed_and_backend(MirrorLaneCore),
    "construct": _with_seed_and_backend(Construction),
}


def strategy(name: str, *, seed: int = 0, backend: Backend | str = Backend.Z3,
             cpsat_model: CpsatModel | str = CpsatModel.PLACEMENTS, **options) -> TableStrategy:
    """The strategy ``name`` (a key of :data:`STRATEGIES`) with these options (a search's are checked here:
    OptionError, exit 2); ValueError for another name."""
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r} (one of {', '.join(STRATEGIES)})")
    return STRATEGIES[name](seed=seed, backend=Backend(backend), cpsat_model=CpsatModel(cpsat_model), **options)
