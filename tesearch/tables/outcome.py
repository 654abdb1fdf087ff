"""What making a table ended with: the :class:`Outcome` every strategy returns, the sweep records and
``--json`` reports.

An outcome is three-valued (:class:`~tesearch.running.terms.Status`): FOUND (``table`` is a verified table of the
instance, made by :class:`tesearch.tables.build.TableBuilder`, its provenance in its ``extra``), INFEASIBLE (what
was refuted is in ``summary``: a theorem) or UNKNOWN (nothing proved; ``summary`` says what stopped it).
:meth:`Outcome.to_json` is the one JSON of an outcome: the fields every outcome has, then the strategy's
own (``facts``: a search's run, refuted widths and attempts, stratify's width).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tesearch.facts.bounds import Bounds
from tesearch.tables.table import Table
from tesearch.running.terms import Status, optimality_text


class AgainstBound:
    """The width of a result's table (``table``, or None) and whether it meets the best bound (``bounds``)."""

    table: Table | None
    bounds: Bounds

    @property
    def T(self) -> int | None:
        """The table's width, if there is a table."""
        return self.table.T if self.table is not None else None

    @property
    def optimal(self) -> bool:
        """A table was found and it meets the best lower bound."""
        return self.table is not None and self.table.T == self.bounds.best


@dataclass
class Outcome(AgainstBound):
    """One strategy's result on one instance (module doc)."""

    strategy: str  # the registry name of the strategy (tesearch.search.strategies.STRATEGIES)
    status: Status
    table: Table | None
    summary: str  # one line: the verdict with the table, or what was shown / what stopped it without one
    bounds: Bounds
    seconds: float = 0.0
    #: why the work stopped short of its aim, with the phase (a limit, a solver's unknown); None when it did not
    #: stop short or says so in its summary alone
    stop_reason: str | None = None
    facts: dict = field(default_factory=dict)  # strategy-specific JSON fields (e.g. stratify's width)

    def __post_init__(self):
        if (self.table is not None) != (self.status is Status.FOUND):
            raise ValueError(f"an outcome with status {self.status.value} must "
                             f"{'hold' if self.status is Status.FOUND else 'not hold'} a table")

    @property
    def verdict(self) -> str | None:
        """'OPTIMAL' or 'not shown optimal (gap N)' with a table; None without one."""
        return optimality_text(self.table.T, self.bounds.best) if self.table is not None else None

    @property
    def provenance(self) -> dict | None:
        """How the table was made: its 'search' or 'construction' record."""
        if self.table is None:
            return None
        return self.table.extra.get("search") or self.table.extra.get("construction")

    def to_json(self) -> dict:
        """The outcome as JSON fields (every command that reports an outcome includes them)."""
        return {"strategy": self.strategy, "status": self.status.value, "T": self.T,
                "lower_bound": self.bounds.counting, "letter_bound": self.bounds.letter.value,
                "best_bound": self.bounds.best, "binding_bound": self.bounds.binding, "optimal": self.optimal,
                "summary": self.summary, "seconds": round(self.seconds, 3), "provenance": self.provenance,
                "stop_reason": self.stop_reason, **self.facts}
