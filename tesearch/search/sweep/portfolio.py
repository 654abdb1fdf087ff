"""What a sweep runs for one network: the portfolio entries, and running one of them to a plain record.

A :class:`Entry` is one run: a strategy, a solver seed and a backend (and, for
lifts, nothing more: the lift picks its ring).  :func:`portfolio` chooses the
entries by asking the network what it has, never by its family name:

* ``network.rotation`` (stars, rings, square tori, hypercubes, twisted tori),
  unless the per-letter bound is above the counting bound (rotation blocks are
  letter-balanced and cannot reach it): the rotation search with Z3 under each
  seed, then the symmetry stratification;
* every network: the full search with Z3, and with CP-SAT when OR-Tools is
  installed;
* total exchange with CP-SAT installed: the CP-SAT repack of the greedy table
  (``tesearch repack``);
* ``network.is_product`` (tori and hypercubes, total exchange): the ring lift.

:func:`run_entry` runs one entry in the calling process and returns a record
made of plain JSON values only (the table as its tesearch-table v1 object), so
that it crosses any process or machine boundary.  A record is a claim: the
sweep driver verifies every table itself before it counts it.

This module does not import ray: the driver (:mod:`tesearch.search.sweep.driver`)
wraps :func:`run_entry` as a Ray task.
"""

from __future__ import annotations

import importlib.util
import time
import traceback
from dataclasses import asdict, dataclass, field

from tesearch.running import limits
from tesearch.running.errors import ConstructionError, LiftImpossible, SpecError, TesearchError
from tesearch.facts.instance import Instance, instance
from tesearch.running.limits import Budget, Limits
from tesearch.running.files import safe_name
from tesearch.networks.families import Network, network_from_spec
from tesearch.search.strategies import STRATEGIES, TableStrategy, strategy
from tesearch.running.terms import Exchange, Status

#: the outcome of an entry that did not end with a search status
ERROR = "error"  # the strategy raised (its message is the stop reason)
NOT_APPLICABLE = "not-applicable"  # the strategy does not apply to this network (e.g. no stratification fits)
CANCELLED = "cancelled"  # the driver cancelled it (another entry won, or the time ran out)
REJECTED = "rejected"  # it returned a table that the driver's own verification refused
#: seconds a task leaves before the sweep's deadline to return its record
RETURN_MARGIN_S = 1.0


@dataclass(frozen=True)
class Entry:
    """One portfolio run: strategy, solver seed, backend, and extra parameters; its str names the run."""

    strategy: str
    seed: int = 0
    backend: str = "z3"
    params: tuple[tuple[str, object], ...] = field(default=())

    def __post_init__(self):
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown sweep strategy {self.strategy!r} (one of {', '.join(STRATEGIES)})")

    def __str__(self) -> str:
        extra = "".join(f" {k}={v}" for k, v in self.params)
        return f"{self.strategy} {self.backend} seed={self.seed}{extra}"

    def to_json(self) -> dict:
        """The entry as one JSON object."""
        data = asdict(self)
        data["params"] = dict(self.params)
        return data


def cpsat_available() -> bool:
    """True when OR-Tools can be imported (the cpsat extra), checked without importing it."""
    return importlib.util.find_spec("ortools") is not None


def portfolio(network: Network, exchange: Exchange | str = Exchange.TOTAL, *, seeds: int = 2,
              cpsat: bool | None = None, letter_binds: bool = False) -> list[Entry]:
    """The entries a sweep runs for ``network``, most promising first (module doc).

    ``letter_binds``: the per-letter bound is above the counting bound, so rotation blocks (letter-balanced)
    cannot reach it and the rotation-based entries are left out, as ``search --strategy auto`` does.
    """
    exchange = Exchange(exchange)
    cpsat = cpsat_available() if cpsat is None else cpsat
    rotation = network.rotation is not None and not letter_binds
    entries: list[Entry] = []
    if rotation:
        entries += [Entry("rotation", seed) for seed in range(seeds)]
        if cpsat:  # CP-SAT decides small rotation cores far faster than Z3 (star-8: docs/notes/frontier.md)
            entries.append(Entry("rotation", backend="cpsat"))
    if network.is_product and exchange is Exchange.TOTAL:
        entries.append(Entry("lift"))
    entries.append(Entry("full"))
    if cpsat:
        entries.append(Entry("full", backend="cpsat"))
    if rotation:
        entries.append(Entry("stratify"))
        if cpsat:  # CP-SAT builds the wide parts Z3 stalls encoding (torus-12x12x24:twisted's width-22 core)
            entries.append(Entry("stratify", backend="cpsat"))
    if cpsat and exchange is Exchange.TOTAL:
        entries.append(Entry("repack", backend="cpsat"))
    if network.is_product and exchange is Exchange.TOTAL and cpsat:
        entries.append(Entry("lift", backend="cpsat"))
    return entries


@dataclass
class Prepared:
    """One network of a sweep as preparation leaves it: its instance (graph, rotation, bounds, computed once
    and sent to every task) and its portfolio."""

    instance: Instance
    entries: list[Entry]

    @property
    def spec(self) -> str:
        """The network's spec."""
        return self.instance.spec

    @property
    def exchange(self) -> str:
        """The exchange's name."""
        return self.instance.exchange.value

    @property
    def bound(self) -> int:
        """The best lower bound."""
        return self.instance.bounds.best

    @property
    def binding(self) -> str:
        """Which bound binds."""
        return self.instance.bounds.binding

    @property
    def key(self) -> str:
        """The network's key in the runs record: 'SPEC EXCHANGE'."""
        return f"{self.spec} {self.exchange}"

    @property
    def file_name(self) -> str:
        """Its table's file name in --out-dir (as results/ names them: star-5.json, star-5-odd.json)."""
        return safe_name(self.spec) + Exchange(self.exchange).file_suffix + ".json"


def prepare(specs: list[str], exchange: str, *, seeds: int = 2) -> list[Prepared]:
    """Every network's instance made (its graph, rotation and bounds computed) and its portfolio chosen (run
    it supervised: it builds groups)."""
    out = []
    for spec in specs:
        network = network_from_spec(spec)
        with limits.phase(f"bounds of {network.spec}"):
            facts = instance(network, exchange)
            _ = facts.rotation, facts.bounds  # computed here, once, and sent to every task with the instance
        letter_binds = facts.bounds.letter.value > facts.bounds.counting
        out.append(Prepared(facts, portfolio(network, exchange, seeds=seeds, letter_binds=letter_binds)))
    return out


def entry_strategy(entry: Entry) -> TableStrategy:
    """The registry's strategy an entry names, with its seed and solver (a sweep's repack uses one CP-SAT worker,
    leaving the other CPUs to the other tasks; a sweep's lift gives each solver call the task's time left)."""
    options = {"repack": {"workers": 1}, "lift": {"timeout_s": None}}.get(entry.strategy, {})
    return strategy(entry.strategy, seed=entry.seed, backend=entry.backend, **options)


def run_entry(network: Instance | str, exchange: str, entry: Entry, deadline: float, *,
              max_memory: int = limits.DEFAULT_MAX_MEMORY, max_order: int = limits.DEFAULT_MAX_ORDER) -> dict:
    """Run ``entry`` on ``network`` (an instance, as the sweep sends it, or a spec) until ``deadline`` (a
    ``time.time()`` value): a plain record.

    The record has ``network``, ``exchange``, ``entry`` (its name), ``strategy``, ``seed``,
    ``backend``, ``outcome`` (a :class:`~tesearch.running.terms.Status` value, or ``error`` /
    ``not-applicable``), ``T``, ``table`` (a tesearch-table v1 object or None), ``seconds`` and
    ``stop_reason``.  Nothing raises out of it: a failing strategy is an ``error`` record.
    """
    started = time.monotonic()
    spec = network.spec if isinstance(network, Instance) else network
    record = {"network": spec, "exchange": exchange, "entry": str(entry), "strategy": entry.strategy,
              "seed": entry.seed, "backend": entry.backend, "outcome": Status.UNKNOWN.value, "T": None,
              "table": None, "seconds": 0.0, "stop_reason": None}
    budget = Budget.until_wall(deadline, max_memory=max_memory).reserving(RETURN_MARGIN_S)
    if budget.spent:
        record["stop_reason"] = "no time left when the task started"
        return record
    try:
        # limits.budget() and time_left() see the task's budget; the caller's limits come back afterwards (a
        # sweep run in-process, as the tests do, must not leave an expired deadline behind)
        with limits.activated(Limits(budget.left, max_memory, max_order), started=started):
            facts = network if isinstance(network, Instance) else instance(spec, exchange)
            outcome = entry_strategy(entry).run(facts, Budget.current())
        reason = outcome.stop_reason if outcome.stop_reason is not None or outcome.table else outcome.summary
        record.update(outcome=outcome.status.value, stop_reason=reason, summary=outcome.summary)
        if outcome.table is not None:
            record.update(T=outcome.table.T, table=outcome.table.to_json())
    except (ConstructionError, SpecError, LiftImpossible) as exc:  # e.g. no stratification fits, a lift of a
        # non-product, or a lift no mode can fit over the factor table at hand
        record.update(outcome=NOT_APPLICABLE, stop_reason=str(exc))
    except TesearchError as exc:
        record.update(outcome=ERROR, stop_reason=str(exc))
    except Exception as exc:  # a bug in a strategy: the sweep goes on and the record says what happened
        last = traceback.format_exc().strip().splitlines()[-3:]
        record.update(outcome=ERROR, stop_reason=f"internal error: {type(exc).__name__}: {str(exc)[:200]} "
                                                  f"({' | '.join(s.strip() for s in last)})")
    record["seconds"] = round(time.monotonic() - started, 3)
    return record
