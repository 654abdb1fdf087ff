"""What names and records one search run: the layout strategies, the word sampling, the core schedule,
:class:`SearchParams` (everything that determines a run; its string form names it), one solver call
(:class:`Attempt`) and what a search ended with (:class:`SearchOutcome`).  The width options' rules are
:func:`check_width_range`'s."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from tesearch.backends import Backend, CpsatModel
from tesearch.bounds import Bounds
from tesearch.encode import EncodingOptions
from tesearch.errors import OptionError
from tesearch.outcome import AgainstBound
from tesearch.search.split import DEFAULT_GROUP_COLUMNS
from tesearch.symmetry import CYCLIC
from tesearch.table import Table
from tesearch.terms import Exchange, SolveResult, Status
from tesearch.words import DEFAULT_WORD_CAP


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
    """Everything that determines one search run; its string form names the run."""

    network: str
    exchange: Exchange = Exchange.TOTAL
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
    #: (the network's rotation) or a group of tesearch.symmetry.groups_of_order(|S|) by name
    symmetry: str = CYCLIC

    def __str__(self) -> str:
        return (f"{self.network} {self.exchange.value} {self.strategy.value} cap={self.word_cap} "
                f"{self.options} seed={self.seed}"
                + ("" if self.backend is Backend.Z3 else f" backend={self.backend.value}")
                + ("" if self.sampling is WordSampling.SPREAD else f" sampling={self.sampling.value}")
                + ("" if self.core_schedule is CoreSchedule.ESCALATING else f" schedule={self.core_schedule.value}")
                + (f" group={self.group_columns}" if self.strategy is Strategy.SPLIT else "")
                + ("" if self.cpsat_model is CpsatModel.PLACEMENTS else f" model={self.cpsat_model.value}")
                + ("" if self.symmetry == CYCLIC else f" symmetry={self.symmetry}"))


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
class SearchOutcome(AgainstBound):
    """What a search ended with: its status, the bounds, the verified table (if any) and every attempt."""

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


def check_width_range(params: SearchParams) -> None:
    """Refuse width options the chosen strategy cannot honour (OptionError, exit 2): a --from-width above
    --max-width, --from-width with the rotation or split strategy, which have no width loop, and a
    --symmetry other than cyclic with the full strategy, which has no blocks (asked for, or what auto runs
    with --from-width)."""
    low, high = params.from_width, params.max_width
    if low is not None and high is not None and low > high:
        raise OptionError(f"--from-width {low} is above --max-width {high}: the range of widths is empty")
    if params.symmetry != CYCLIC and params.strategy is Strategy.FULL:
        raise OptionError(f"--symmetry {params.symmetry} is for the rotation and split strategies (their blocks); "
                          f"the full strategy searches every target and uses no symmetry")
    if params.symmetry != CYCLIC and params.strategy is Strategy.AUTO and low is not None:
        raise OptionError(f"--symmetry {params.symmetry} is for the rotation and split strategies; with --from-width "
                          f"the auto strategy runs the full strategy's width loop, which uses no symmetry (leave out "
                          f"one of the two)")
    if low is not None and params.strategy in (Strategy.ROTATION, Strategy.SPLIT):
        raise OptionError(f"--from-width is for the full strategy's width loop; the {params.strategy.value} "
                          f"strategy has none: it aims at the counting bound and refutes no width "
                          f"(use --strategy full, or leave out --from-width)")
