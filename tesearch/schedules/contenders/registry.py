"""The registry of contenders the simulate study runs beside a table's own executors (issue 37).

One frozen :class:`Contender` per schedule builder: its name, :class:`Category`, :class:`Scope` (which networks it
applies to), whether it needs the network's optimal table, the builder and a one-line description.
:func:`contenders_for` lists those that apply to a :class:`~tesearch.schedules.contenders.subject.Subject`;
:meth:`Contender.build` builds one and returns a :class:`Built`: the checked HopSchedule, the table it runs
(non-optimal tables), the build time, its standing in the superstep model
(:class:`~tesearch.schedules.contenders.optimum.Standing`) and its held-blocks profile
(:class:`~tesearch.schedules.contenders.memory.HeldBlocks`).

>>> from tesearch.schedules.contenders import CONTENDERS, contenders_for, subject_of
>>> subject = subject_of("hypercube-3")
>>> built = next(c for c in contenders_for(subject) if c.name == "greedy combining").build(subject)
>>> built.schedule.active_steps, built.schedule.bundle_sum, built.standing.optimal
(3, 4, True)
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from typing import Callable

from tesearch.schedules.contenders import dimension, greedy, maps, naive, optimum
from tesearch.schedules.contenders.axes import network_axes
from tesearch.schedules.contenders.memory import HeldBlocks, held_blocks
from tesearch.schedules.contenders.optimum import Standing, assess
from tesearch.schedules.contenders.subject import Subject
from tesearch.running.errors import ConstructionError, OptionError
from tesearch.schedules.execute.hops import HopSchedule
from tesearch.networks.families import Network
from tesearch.tables.table import Table


class Category(str, enum.Enum):
    """What a contender shows (issue 37's attribution)."""

    TABLE_TIMING = "table's own timing"  # the optimal table, one hop per letter per step
    TABLE_SUPERSTEPS = "table paths in supersteps"  # the optimal table's words, other (bundled) steps
    NONOPTIMAL_TABLE = "non-optimal table"  # valid tables wider than the optimum, in their own timing
    TABLE_FREE = "table-free topology-aware"  # no table: words and supersteps from the network alone


class Scope(str, enum.Enum):
    """Which networks a contender applies to."""

    ANY = "any Cayley network"
    AXES = "networks with commuting axes (tori, twisted tori, rings, hypercubes)"
    AXES2 = "networks with at least two commuting axes (tori, twisted tori, hypercubes)"
    HYPERCUBE = "hypercubes"

    def applies(self, network: Network, subject: Subject | None = None) -> bool:
        """Whether ``network`` is in this scope."""
        if self is Scope.ANY:
            return True
        if self is Scope.HYPERCUBE:
            return bool(network.factors) and all(factor.order == 2 for factor in network.factors)
        if subject is None:
            raise OptionError("the axes scope is decided on a subject's Cayley graph")
        try:
            axes = network_axes(subject.graph)
        except ConstructionError:
            return False
        return axes.count >= (2 if self is Scope.AXES2 else 1)


@dataclass(frozen=True)
class Built:
    """A contender built for one subject."""

    contender: str
    schedule: HopSchedule  # checked
    table: Table | None  # the table it runs (the optimal one, or a non-optimal one), None for table-free
    seconds: float  # build time (wall clock)
    standing: Standing
    held: HeldBlocks
    note: str = ""  # how an optimum was reached (CP-SAT's answer), else empty

    def to_json(self) -> dict:
        """The figures a report gives (no routes)."""
        return {"contender": self.contender, **self.schedule.summary(), "build_seconds": round(self.seconds, 3),
                "standing": self.standing.to_json(), "held_blocks": {"peak_held": self.held.peak,
                                                                     "peak_waiting": self.held.peak_waiting},
                "note": self.note}


@dataclass(frozen=True)
class Contender:
    """One schedule builder of the study."""

    name: str
    category: Category
    scope: Scope
    needs_table: bool
    make: Callable[[Subject], object]  # -> HopSchedule, NaiveTable or Optimum
    description: str

    def applies(self, subject: Subject) -> bool:
        """Whether the contender can be built for ``subject``."""
        return (subject.table is not None or not self.needs_table) and self.scope.applies(subject.network, subject)

    def build(self, subject: Subject) -> Built:
        """Build, check and measure the contender for ``subject`` (ConstructionError if it does not apply)."""
        if not self.applies(subject):
            raise ConstructionError(f"{self.name} does not apply to {subject.network.spec} ({self.scope.value}"
                                    + (", with its table)" if self.needs_table else ")"))
        started = time.perf_counter()
        made = self.make(subject)
        seconds = time.perf_counter() - started
        table, note = (subject.table if self.category in (Category.TABLE_TIMING, Category.TABLE_SUPERSTEPS)
                       else None), ""
        if isinstance(made, naive.NaiveTable):
            schedule, table = made.schedule, made.table
        elif isinstance(made, optimum.Optimum):
            schedule, note = made.schedule, made.solver
        else:
            schedule = made
        schedule.check()
        return Built(self.name, schedule, table, seconds, assess(schedule, subject), held_blocks(schedule), note)


def window_contender(columns: int) -> Contender:
    """The table's paths in windows of ``columns`` columns (``tesearch simulate --combine K``)."""
    if columns < 1:
        raise OptionError(f"a window holds at least 1 column, got {columns}")
    return Contender(f"table: {columns}-column windows", Category.TABLE_SUPERSTEPS, Scope.ANY, True,
                     lambda s: maps.window_map(s.table_schedule, columns),
                     f"the optimal table's words, its columns cut into windows of {columns} (combine.py's rule)")


def _ecube_balanced(subject: Subject) -> HopSchedule:
    asap = dimension.dimension_ordered(subject)
    return maps.balanced_steps(asap, name="dimension-ordered (e-cube) words, balanced supersteps")


#: every contender, in the order a report lists them
CONTENDERS: tuple[Contender, ...] = (
    Contender("table", Category.TABLE_TIMING, Scope.ANY, True, lambda s: s.table_schedule,
              "the optimal table's own timing: one hop per letter per step, T steps, buffer-free"),
    Contender("table: balanced supersteps", Category.TABLE_SUPERSTEPS, Scope.ANY, True,
              lambda s: maps.balanced_map(s.table_schedule),
              "the optimal table's words in D supersteps balanced by a local search (combine.py's balanced map)"),
    Contender("table: superstep optimum", Category.TABLE_SUPERSTEPS, Scope.ANY, True, optimum.table_optimum,
              "the optimal table's words in D supersteps, bundle sum driven to its floor (local search, CP-SAT)"),
    Contender("first-shortest-word table", Category.NONOPTIMAL_TABLE, Scope.ANY, False,
              lambda s: naive.first_fit_table(s, naive.NaiveWords.FIRST_SHORTEST),
              "every element's first shortest word, packed by first fit (compare's shortest-path words)"),
    Contender("dimension-ordered table", Category.NONOPTIMAL_TABLE, Scope.AXES, False,
              lambda s: naive.first_fit_table(s, naive.NaiveWords.DIMENSION_ORDERED),
              "dimension-ordered (e-cube) words packed by first fit (compare's dimension-ordered words)"),
    Contender("table widened x2", Category.NONOPTIMAL_TABLE, Scope.ANY, True, lambda s: naive.widened_table(s, 2),
              "the optimal table's placements dealt into two groups, the second shifted right by T (width 2T)"),
    Contender("greedy combining", Category.TABLE_FREE, Scope.ANY, False, greedy.greedy_schedule,
              "no table: balanced letter counts, words and D supersteps by dynamic programming and local search"),
    Contender("superstep optimum", Category.TABLE_FREE, Scope.ANY, False, optimum.free_optimum,
              "no table: words and D supersteps driven to the per-letter bound (local search, CP-SAT if needed)"),
    Contender("dimension-ordered", Category.TABLE_FREE, Scope.AXES, False, dimension.dimension_ordered,
              "dimension-ordered (e-cube) words, hop j in superstep j"),
    Contender("dimension-ordered, balanced supersteps", Category.TABLE_FREE, Scope.AXES, False, _ecube_balanced,
              "dimension-ordered (e-cube) words in D supersteps balanced by combine.py's local search"),
    Contender("2 dimension orders aligned", Category.TABLE_FREE, Scope.AXES2, False,
              lambda s: dimension.dimension_orders_aligned(s, 2),
              "elements dealt in turn to the axis order and its reverse, every word from superstep 0"),
    Contender("dimension orders balanced", Category.TABLE_FREE, Scope.AXES, False, dimension.dimension_orders_balanced,
              "words grouped in any axis order, letter counts balanced, words and supersteps by local search"),
    Contender("Johnsson-Ho (necklace classes)", Category.TABLE_FREE, Scope.HYPERCUBE, False,
              lambda s: dimension.johnsson_ho(s, dimension.RotationClasses.NECKLACE),
              "rotated dimension exchange, rotation classes following the cyclic shifts"),
    Contender("Johnsson-Ho (balanced classes)", Category.TABLE_FREE, Scope.HYPERCUBE, False,
              lambda s: dimension.johnsson_ho(s, dimension.RotationClasses.BALANCED),
              "rotated dimension exchange, rotation classes loading every dimension alike in every superstep"),
)


def contender(name: str) -> Contender:
    """The registered contender called ``name`` (OptionError naming the valid ones otherwise)."""
    for entry in CONTENDERS:
        if entry.name == name:
            return entry
    raise OptionError(f"no contender {name!r}; the contenders are: {', '.join(c.name for c in CONTENDERS)}")


def contenders_for(subject: Subject) -> list[Contender]:
    """The registered contenders that apply to ``subject`` (in registry order)."""
    return [entry for entry in CONTENDERS if entry.applies(subject)]
