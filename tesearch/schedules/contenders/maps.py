"""A table's paths in supersteps: the superstep maps of the former ``tesearch.schedules.simulate.combine``, on a HopSchedule.

The combined executor runs a table's words in supersteps (docs/simulate.md).  These are its two rules, ported
from the former ``tesearch.schedules.simulate.combine`` onto :class:`~tesearch.schedules.execute.hops.HopSchedule`: the same algorithm, the
same seed, the same supersteps for every hop of the committed tables (``tests/test_contenders.py`` compares
them cell by cell).  Each takes a table's own timing (:meth:`HopSchedule.from_table`, kind TABLE: hop ``j`` of
the word placed at column ``c`` at step ``c + j``) and returns ``table.with_steps(...)``: the same words in
other steps.

* :func:`window_map`: the table's columns cut into windows of ``K``; hop ``j`` of a word goes to superstep
  ``max(floor((c + j) / K), previous + 1)``.  ``K = 1`` is the table's own timing.
* :func:`balanced_map`: as many supersteps as the longest word; each word placed by the dynamic programme of
  :func:`~tesearch.schedules.contenders.placing.cheapest_supersteps` (longest words first), then taken out and placed
  again pass after pass in an order drawn from ``seed``, keeping the best, until the bundle sum reaches its
  floor (the most-used letter's count), ``patience`` passes improve nothing, or ``passes`` passes.  A local
  search: it proves nothing about the least bundle sum (:mod:`tesearch.schedules.contenders.optimum` does that).
  :func:`balanced_steps` is the same search for the words of any schedule, a table's or not (the
  dimension-ordered words of :mod:`tesearch.schedules.contenders.dimension`, say).
"""

from __future__ import annotations

import numpy as np

from tesearch.schedules.contenders.placing import Loads, cheapest_supersteps
from tesearch.running.errors import OptionError
from tesearch.schedules.execute.hops import HopSchedule, ScheduleKind


def _table_timing(table: HopSchedule, what: str) -> None:
    if table.kind is not ScheduleKind.TABLE:
        raise OptionError(f"{what}: {table.name} is not a table's own timing (kind {table.kind.value})")


def words_floor(schedule: HopSchedule) -> int:
    """The least bundle sum any superstep schedule of these words can have: the most-used letter's count (each
    superstep's largest bundle is at least that letter's share of it)."""
    return int(schedule.letter_counts.max(initial=0))


def window_map(table: HopSchedule, columns: int) -> HopSchedule:
    """The table's paths with windows of ``columns`` columns (the module doc's rule)."""
    _table_timing(table, "window map")
    if columns < 1:
        raise OptionError(f"a window holds at least 1 column, got {columns}")
    steps = []
    for when in table.steps:
        previous, out = -1, []
        for column in when:
            previous = max(column // columns, previous + 1)
            out.append(previous)
        steps.append(tuple(out))
    return table.with_steps(steps, name=f"{table.name} in {columns}-column windows",
                            provenance={"algorithm": "K-column windows", "columns": columns,
                                        "ported_from": "tesearch.schedules.simulate.combine.superstep_map"})


def balanced_map(table: HopSchedule, *, supersteps: int | None = None, passes: int = 2000, patience: int = 200,
                 seed: int = 0) -> HopSchedule:
    """The table's paths in supersteps chosen to balance the bundles (the module doc's local search)."""
    _table_timing(table, "balanced map")
    return balanced_steps(table, supersteps=supersteps, passes=passes, patience=patience, seed=seed,
                          name=f"{table.name} in balanced supersteps")


def balanced_steps(table: HopSchedule, *, supersteps: int | None = None, passes: int = 2000, patience: int = 200,
                   seed: int = 0, name: str | None = None) -> HopSchedule:
    """:func:`balanced_map`'s supersteps for the words of any schedule (a table's or not), in its route order."""
    words = list(table.words)
    longest = max((len(w) for w in words), default=0)
    steps = longest if supersteps is None else supersteps
    if steps < longest:
        raise OptionError(f"{steps} supersteps cannot hold a word of {longest} hops")
    loads = Loads(steps, len(table.letters), len(words))
    random = np.random.default_rng(seed)

    def place(index: int, noise: float = 0.0) -> None:
        chosen = cheapest_supersteps(loads.load, words[index],
                                     noise * random.random(loads.load.shape) if noise else None)
        loads.place(index, words[index], chosen)

    for index in sorted(range(len(words)), key=lambda i: -len(words[i])):
        place(index)
    floor = words_floor(table)
    best_total, best_steps = loads.bundle_sum, loads.snapshot()[1]
    stale = 0
    for _ in range(passes):
        if best_total <= floor or stale >= patience:
            break
        for index in random.permutation(len(words)):  # a fixed seed: the same map every run
            loads.unplace(int(index))
            place(int(index), noise=2.0 * (1 + stale))  # ties broken at random, more so the longer it is stuck
        total = loads.bundle_sum
        if total < best_total:
            best_total, best_steps, stale = total, loads.snapshot()[1], 0
        else:
            stale += 1
    return table.with_steps([tuple(s) for s in best_steps], name=name or f"{table.name} in balanced supersteps",
                            provenance={"algorithm": "balanced", "seed": seed, "passes": passes, "patience": patience,
                                        "ported_from": "tesearch.schedules.simulate.combine.balanced_map"})
