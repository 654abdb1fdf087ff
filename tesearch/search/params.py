"""What names and records one search run: the layout strategies, the word sampling, the core schedule,
:class:`SearchParams` (everything that determines a run on an instance; checked when it is made), one
solver call (:class:`Attempt`) and the record of a run (:class:`SearchRun`: what it tried and what it ended with, and
the :class:`~tesearch.tables.outcome.Outcome` every strategy returns made from it)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from tesearch.solvers import Backend, CpsatModel
from tesearch.facts.bounds import Bounds
from tesearch.solvers.problem import EncodingOptions
from tesearch.running.errors import OptionError
from tesearch.tables.outcome import AgainstBound, Outcome
from tesearch.search.split import DEFAULT_GROUP_COLUMNS
from tesearch.networks.symmetry import THE_ROTATION
from tesearch.tables.table import Table
from tesearch.running.terms import SolveResult, Status, optimality_text
from tesearch.networks.words import DEFAULT_WORD_CAP


class Strategy(str, enum.Enum):
    """How the search lays out the table: rotation blocks around a searched core, or every target searched."""

    AUTO = "auto"
    ROTATION = "rotation"
    SPLIT = "split"  # rotation blocks around several small sub-cores, searched one after another
    FULL = "full"


class WordSampling(str, enum.Enum):
    """Which shortest words an element with more than ``word_cap`` of them offers the solver."""

    SPREAD = "spread"  # every 16th word of the lexicographic head: deterministic, the historical default
    UNIFORM = "uniform"  # drawn uniformly from all shortest words: spreads over letter-count vectors


class CoreSchedule(str, enum.Enum):
    """How the rotation search spends its time over (core width, filler plan) attempts."""

    ESCALATING = "escalating"  # FIRST_CORE_BUDGET_S each, then the unknown ones again with x CORE_BUDGET_GROWTH
    PATIENT = "patient"  # before 2026-11-25: a third of the time left for each attempt, one pass, no retry


@dataclass(frozen=True)
class SearchParams:
    """Everything that determines one search run on an instance (the network and the exchange are the
    instance's); its string form names the run after the instance's name.

    The width options are checked when the params are made (OptionError, exit 2), once, before any group
    is built: a ``from_width`` above ``max_width``, ``from_width`` with the rotation or split strategy, which
    have no width loop, and a ``symmetry`` other than cyclic with the full strategy, which has no blocks
    (asked for, or what auto runs with ``from_width``)."""

    strategy: Strategy = Strategy.AUTO
    seed: int = 0
    word_cap: int = DEFAULT_WORD_CAP
    options: EncodingOptions = field(default_factory=EncodingOptions)
    max_width: int | None = None  # stop the width loop here (default: the greedy upper bound)
    from_width: int | None = None  # start the width loop here (default: the best lower bound), e.g.
    #                               the counting bound, to have Z3 refute what the per-letter bound excludes
    backend: Backend = Backend.Z3  # which solver decides each width (a CP-SAT unsat is not a certificate)
    sampling: WordSampling = WordSampling.SPREAD
    core_schedule: CoreSchedule = CoreSchedule.ESCALATING
    group_columns: int = DEFAULT_GROUP_COLUMNS  # split strategy: exceptional letters per sub-core / |S|
    cpsat_model: CpsatModel = CpsatModel.PLACEMENTS  # which CP-SAT model decides each width (cpsat backend)
    #: the letter group whose free orbits become the blocks (rotation and split strategies): ``cyclic``
    #: (the network's rotation) or a group of tesearch.networks.symmetry.groups_of_order(|S|) by name
    symmetry: str = THE_ROTATION

    def __post_init__(self):
        low, high = self.from_width, self.max_width
        if low is not None and high is not None and low > high:
            raise OptionError(f"--from-width {low} is above --max-width {high}: the range of widths is empty")
        if self.symmetry != THE_ROTATION and self.strategy is Strategy.FULL:
            raise OptionError(f"--symmetry {self.symmetry} is for the rotation and split strategies (their blocks); "
                              f"the full strategy searches every target and uses no symmetry")
        if self.symmetry != THE_ROTATION and self.strategy is Strategy.AUTO and low is not None:
            raise OptionError(f"--symmetry {self.symmetry} is for the rotation and split strategies; with --from-width "
                              f"the auto strategy runs the full strategy's width loop, which uses no symmetry (leave "
                              f"out one of the two)")
        if low is not None and self.strategy in (Strategy.ROTATION, Strategy.SPLIT):
            raise OptionError(f"--from-width is for the full strategy's width loop; the {self.strategy.value} "
                              f"strategy has none: it aims at the counting bound and refutes no width "
                              f"(use --strategy full, or leave out --from-width)")

    def __str__(self) -> str:
        return (f"{self.strategy.value} cap={self.word_cap} {self.options} seed={self.seed}"
                + ("" if self.backend is Backend.Z3 else f" backend={self.backend.value}")
                + ("" if self.sampling is WordSampling.SPREAD else f" sampling={self.sampling.value}")
                + ("" if self.core_schedule is CoreSchedule.ESCALATING else f" schedule={self.core_schedule.value}")
                + (f" group={self.group_columns}" if self.strategy is Strategy.SPLIT else "")
                + ("" if self.cpsat_model is CpsatModel.PLACEMENTS else f" model={self.cpsat_model.value}")
                + ("" if self.symmetry == THE_ROTATION else f" symmetry={self.symmetry}"))


@dataclass
class Attempt:
    """One solver call: which part, width and size, and what it answered."""

    part: str  # "full", "core" or "bound"
    width: int
    items: int
    letters: int
    result: SolveResult
    seconds: float
    complete_words: bool
    detail: str = ""
    encoding: str | None = None  # path of the kept SMT-LIB2 file

    def to_json(self) -> dict:
        """The attempt as one JSON object."""
        return {"part": self.part, "width": self.width, "items": self.items, "letters": self.letters,
                "result": self.result.value, "seconds": round(self.seconds, 3),
                "complete_words": self.complete_words, "detail": self.detail, "encoding": self.encoding}


@dataclass
class SearchRun(AgainstBound):
    """One search run's record: its status, the bounds, the verified table (if any) and every attempt."""

    name: str  # the instance's name: 'star-5 total'
    params: SearchParams
    status: Status
    bounds: Bounds
    table: Table | None
    seconds: float
    attempts: list[Attempt]
    strategy_used: str
    stop_reason: str | None = None  # why the search ended without proving its table optimal, with the phase
    #: with INFEASIBLE: the widths shown to have no table, (lowest, highest); lowest None = every width up to highest
    infeasible_widths: tuple[int | None, int] | None = None
    infeasible_by: str = ""  # with INFEASIBLE: what refuted them (the bound, or the solver's unsat at each width)

    @property
    def refuted_widths(self) -> list[int]:
        """Widths shown impossible: by a full encoding with complete words, or below the lower bound."""
        return sorted({a.width for a in self.attempts if a.part in ("full", "bound")
                       and a.result is SolveResult.UNSAT and a.complete_words})


    @property
    def run(self) -> str:
        """The run named in one string: the instance and the params ('star-5 total auto cap=24 ... seed=0')."""
        return f"{self.name} {self.params}"

    def summary(self) -> str:
        """One line: the verdict with a table; without one, what stopped the run or what refuted the widths."""
        if self.table is not None:
            return (f"{self.name}: T = {self.T}, best bound {self.bounds.best}: "
                    f"{optimality_text(self.T, self.bounds.best)}; verified")
        return self.stop_reason or self.infeasible_by or "no table"

    def outcome(self) -> Outcome:
        """The run as the outcome every strategy returns: its verdict line, its stop reason, and the search's
        own JSON fields (the run, the refuted widths, what refuted them, every attempt)."""
        return Outcome(self.strategy_used, self.status, self.table, self.summary(), self.bounds, self.seconds,
                       stop_reason=self.stop_reason, facts={
                           "run": self.run, "refuted_widths": self.refuted_widths,
                           "infeasible_widths": list(self.infeasible_widths) if self.infeasible_widths else None,
                           "infeasible_by": self.infeasible_by or None,
                           "attempts": [a.to_json() for a in self.attempts]})
