"""The combined executor's supersteps: the table's paths, with the hops of several steps bundled per link.

A table sends one hop per letter per step, so every step costs one per-message latency however small its
blocks (SimGrid's SMPI model: 11.64 us at 64 KiB, more than the block's 6.97 us on a 10 GB/s link).  The
combined executor (``tesearch simulate --executor combined``) runs the table's paths in *supersteps*: at
each, every rank sends one message per neighbour holding every hop of that superstep on that link, then
waits for all of them.  A superstep map gives each hop its superstep; along every path the supersteps
strictly increase, so a hop leaves only after the superstep that brought its block has ended.  Blocks may
wait at a node (the schedule is no longer buffer-free), and a superstep costs one latency plus the bytes
of its largest bundle.  Two rules make maps:

* ``K``-column windows (:func:`superstep_map`): the table's columns cut into windows of ``K``; the hops of a
  window on one link go in one message unless the block arrives in that same superstep, then in the next.
  Per placed word ``s1 ... sk`` at column ``c``, hop ``j`` goes to
  ``sigma(j) = max(floor((c + j) / K), sigma(j - 1) + 1)`` (``sigma(-1) = -1``).  ``K = 1`` is the table's
  own timing (the step executor, to the nanosecond in SimGrid).
* ``balanced`` (:func:`balanced_map`): as few supersteps as the longest path needs, the hops placed by a
  local search that keeps the sum of the supersteps' largest bundles small (at least the most hops on one
  letter, :func:`bundle_floor`; the committed tables of hypercube-7, torus-8x8, star-5 and the twisted
  torus-4x4x8 reach it or come within one block).

By the Cayley symmetry every node runs the same supersteps, so a map depends on the table alone: one
superstep per cell ``(column, letter)`` (Theorem 1: a column holds a letter at most once), written as
``DIR/combine-N.txt`` for the C executor (``N`` numbers the study's maps)::

    tesearch-combine 1
    steps T letters L supersteps S
    T lines of L integers (the superstep of cell (column, letter); -1 for a blank cell)

Letters are in the network's order (the programs export's ``letters``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tesearch.errors import OptionError
from tesearch.programs.schedule import CompiledSchedule

COMBINE_FILE_VERSION = 1


@dataclass(frozen=True)
class SuperstepMap:
    """The superstep of every cell of a table under one rule; what it costs per link is derived from the cells."""

    rule: str  # "K-column windows" (the table's columns) or "balanced" (bundles balanced by a local search)
    cells: np.ndarray  # (T, letters) int: superstep of cell (column, letter), -1 blank

    @property
    def supersteps(self) -> int:
        """S: one more than the last superstep any cell uses (0 for a table without a hop)."""
        return int(self.cells.max(initial=-1)) + 1

    @property
    def bundles(self) -> np.ndarray:
        """(supersteps, letters): how many hops each superstep sends on each letter."""
        counts = np.zeros((self.supersteps, self.cells.shape[1]), dtype=np.int64)
        columns, letters = np.nonzero(self.cells >= 0)
        np.add.at(counts, (self.cells[columns, letters], letters), 1)
        return counts

    @property
    def bundle_sum(self) -> int:
        """The sum over supersteps of the largest bundle on one letter (blocks)."""
        return int(self.bundles.max(axis=1, initial=0).sum())

    @property
    def largest_bundle(self) -> int:
        """The largest bundle (blocks in one message on one letter)."""
        return int(self.bundles.max(initial=0))

    def file_text(self) -> str:
        """The ``combine-N.txt`` file the C executor reads."""
        steps, letters = self.cells.shape
        lines = [f"tesearch-combine {COMBINE_FILE_VERSION}", f"steps {steps} letters {letters} supersteps "
                 f"{self.supersteps}"]
        lines += [" ".join(str(int(v)) for v in row) for row in self.cells]
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class SuperstepRule:
    """How a superstep map is made: ``balanced`` (``columns`` None), or windows of ``columns`` table columns."""

    columns: int | None = None

    @property
    def name(self) -> str:
        """'balanced' or 'K-column windows' (the contender's and the report's name of the rule)."""
        return "balanced" if self.columns is None else f"{self.columns}-column windows"

    def make(self, schedule: CompiledSchedule) -> SuperstepMap:
        """This rule's map of ``schedule``'s table."""
        return balanced_map(schedule) if self.columns is None else superstep_map(schedule, self.columns)


#: the default rule of ``tesearch simulate --combine``
BALANCED = SuperstepRule()


def parse_rules(text: str) -> tuple[SuperstepRule, ...]:
    """``--combine``: a comma list of ``balanced`` and window widths ``K`` (integers >= 1); OptionError otherwise."""
    rules = []
    for item in (part.strip() for part in str(text).split(",")):
        if item == BALANCED.name:
            rules.append(BALANCED)
        elif item.isdigit() and int(item) >= 1:
            rules.append(SuperstepRule(int(item)))
        else:
            raise OptionError(f"--combine: {item!r} is neither 'balanced' nor a window of columns (an integer >= 1)")
    return tuple(dict.fromkeys(rules))


def combine_file_name(number: int) -> str:
    """The file of the study's ``number``-th superstep map inside the run's directory (the executor's PARAM)."""
    return f"combine-{number}.txt"


def superstep_map(schedule: CompiledSchedule, combine: int) -> SuperstepMap:
    """The supersteps of ``schedule``'s table with windows of ``combine`` columns (the rule of the module doc).

    Bundles are counted per letter; letters that lead to one neighbour share a link, and the C executor
    bundles per neighbour, so ``largest_bundle`` is the largest per letter (the executor sizes its own
    buffers).
    """
    if combine < 1:
        raise OptionError(f"--combine must be at least 1, got {combine}")
    table = schedule.table
    letter_index = schedule.graph.letter_index
    letters = len(schedule.letters)
    cells = np.full((table.T, letters), -1, dtype=np.int64)
    for placement in table.placements:
        previous = -1
        for j, name in enumerate(placement.word):
            column, letter = placement.column + j, letter_index[name]
            previous = max((column // combine), previous + 1)
            cells[column, letter] = previous
    return SuperstepMap(f"{combine}-column windows", cells)


def _word_letters(schedule: CompiledSchedule) -> list[tuple[int, ...]]:
    letter_index = schedule.graph.letter_index
    return [tuple(letter_index[name] for name in placement.word) for placement in schedule.table.placements]


def _cheapest_supersteps(load: np.ndarray, word: tuple[int, ...], noise: np.ndarray | None) -> list[int]:
    """Supersteps ``p1 < ... < pk`` for ``word``'s hops given the current ``load`` (supersteps x letters), by
    dynamic programming: a hop costs a large constant where it would raise its superstep's largest bundle,
    plus the square of the load it makes there (plus ``noise``, the random tie-breaking)."""
    steps = load.shape[0]
    top = load.max(axis=1)
    cost = (np.where(load + 1 > top[:, None], 1 << 20, 0) + (load + 1) ** 2).astype(float)
    if noise is not None:
        cost += noise
    k = len(word)
    best = np.full((k, steps), np.inf)
    came = np.zeros((k, steps), dtype=np.int64)
    best[0, :] = cost[:, word[0]]
    for j in range(1, k):
        prefix = np.minimum.accumulate(best[j - 1])  # best over supersteps <= s
        where = np.zeros(steps, dtype=np.int64)
        for s in range(1, steps):
            where[s] = where[s - 1] if best[j - 1, where[s - 1]] <= best[j - 1, s] else s
        best[j, 1:] = prefix[:-1] + cost[1:, word[j]]
        came[j, 1:] = where[:-1]
    chosen = [int(np.argmin(best[k - 1]))]
    for j in range(k - 1, 0, -1):
        chosen.append(int(came[j, chosen[-1]]))
    return chosen[::-1]


def balanced_map(schedule: CompiledSchedule, *, supersteps: int | None = None, passes: int = 2000, patience: int = 200,
                 seed: int = 0) -> SuperstepMap:
    """Supersteps chosen to balance the bundles, not derived from the table's columns.

    Every placed word ``s1 ... sk`` gets supersteps ``p1 < ... < pk`` in ``0 .. S-1`` (``S`` = the longest
    word, the fewest any schedule of these paths can have, unless ``supersteps`` says more) so that the sum
    over supersteps of the largest bundle on one letter is small: each word is placed by dynamic programming
    at the least increase of that sum (ties: the least loaded cells), and then taken out and placed again,
    pass after pass in an order drawn from ``seed`` (the same map every run), keeping the best map, until the
    sum reaches its floor (the most hops on one letter, :func:`bundle_floor`), ``patience`` passes improve
    nothing, or ``passes`` passes.  A local search, not a proof of the least sum.
    The result is a :class:`SuperstepMap` whose ``cells`` give each hop's superstep; by symmetry the hops of a
    cell (column, letter) are one hop of one word, so the map is per cell as for windows, and ``rule``
    is "balanced".
    """
    words = _word_letters(schedule)
    letters = len(schedule.letters)
    longest = max((len(w) for w in words), default=0)
    steps = longest if supersteps is None else supersteps
    if steps < longest:
        raise OptionError(f"{steps} supersteps cannot hold a word of {longest} hops")
    load = np.zeros((max(steps, 1), letters), dtype=np.int64)
    phases: list[list[int]] = [[] for _ in words]

    random = np.random.default_rng(seed)

    def place(index: int, noise: float = 0.0) -> None:
        phases[index] = _cheapest_supersteps(load, words[index], noise * random.random(load.shape) if noise else None)
        for s, letter in zip(phases[index], words[index]):
            load[s, letter] += 1

    def unplace(index: int) -> None:
        for s, letter in zip(phases[index], words[index]):
            load[s, letter] -= 1

    order = sorted(range(len(words)), key=lambda i: -len(words[i]))
    for index in order:
        place(index)
    floor = bundle_floor(schedule)
    total = int(load.max(axis=1).sum())
    best_total, best_phases = total, [list(p) for p in phases]
    stale = 0
    for _ in range(passes):
        if best_total <= floor or stale >= patience:
            break
        for index in random.permutation(len(words)):  # a fixed seed: the same map every run
            unplace(int(index))
            place(int(index), noise=2.0 * (1 + stale))  # ties broken at random, more so the longer it is stuck
        total = int(load.max(axis=1).sum())
        if total < best_total:
            best_total, best_phases, stale = total, [list(p) for p in phases], 0
        else:
            stale += 1
    cells = np.full((schedule.table.T, letters), -1, dtype=np.int64)
    for placement, word, chosen in zip(schedule.table.placements, words, best_phases):
        cells[placement.column + np.arange(len(word)), list(word)] = chosen
    return SuperstepMap("balanced", cells)


def bundle_floor(schedule: CompiledSchedule) -> int:
    """The least sum of largest bundles any superstep map of the table's paths can have: the most hops on one
    letter (each superstep's largest bundle is at least that letter's share of it)."""
    hops = [letter for word in _word_letters(schedule) for letter in word]
    return int(np.bincount(hops, minlength=len(schedule.letters)).max(initial=0))


def check_superstep_map(schedule: CompiledSchedule, mapping: SuperstepMap) -> None:
    """Raise ValueError unless every placed word's hops sit in strictly increasing supersteps and every
    occupied cell has one (what makes the combined run a valid schedule of the table's paths)."""
    letter_index = schedule.graph.letter_index
    occupied = np.zeros(mapping.cells.shape, dtype=bool)
    for placement in schedule.table.placements:
        previous = -1
        for j, name in enumerate(placement.word):
            cell = (placement.column + j, letter_index[name])
            occupied[cell] = True
            value = int(mapping.cells[cell])
            if value <= previous:
                raise ValueError(f"{mapping.rule}: the word at row {placement.row}, column "
                                 f"{placement.column} has hop {j} in superstep {value}, not after {previous}")
            previous = value
    if (mapping.cells[~occupied] != -1).any():
        raise ValueError(f"{mapping.rule}: a blank cell has a superstep")


def write_superstep_map(directory: str | Path, number: int, mapping: SuperstepMap) -> Path:
    """Write ``mapping`` as ``combine-N.txt`` (``N`` = ``number``) into ``directory``; returns its path."""
    path = Path(directory) / combine_file_name(number)
    path.write_text(mapping.file_text())
    return path
