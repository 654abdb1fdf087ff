"""Time-optimal superstep schedules, with the proof of their optimality (docs/simulate.md, "The superstep model").

In the superstep model a schedule of node-invariant shortest words costs ``S`` latencies plus ``B`` blocks of
link time: ``S`` its active supersteps, ``B`` its bundle sum (the sum over supersteps of the most hops one
letter takes there).  Every such schedule has ``S >= D`` (the diameter: a block that travels ``D`` hops needs
``D`` supersteps) and ``B >= F >= P``: ``F`` the most-used letter's count in its words (each superstep's largest
bundle is at least that letter's share of it, and the shares add up to ``F``) and ``P`` the per-letter bound
(the least ``F`` over all choices of shortest words).  A schedule with ``S = D`` and ``B = P`` is therefore
optimal in the superstep model: no schedule of that model has fewer latencies or fewer blocks of link time.

:func:`assess` states where a schedule stands (:class:`Standing`): "optimal in the superstep model" only when
both terms meet their floors, else the gap of each term; for a table's words, whether it meets the floor of
those words (``B = F``), which is optimal among schedules of those words only.  Two builders:

* :func:`free_optimum`: words and supersteps with no table, by the greedy's local search
  (:class:`~tesearch.schedules.contenders.greedy.WordSearch`) run longer, then, if ``B`` is still above the floor of its
  words, CP-SAT on the supersteps of those words;
* :func:`table_optimum`: a table's words; the ported balanced map, the local search, then CP-SAT.

CP-SAT (:func:`cpsat_supersteps`) places every hop in a superstep (the hops of a word in increasing supersteps,
within the diameter) and minimises the bundle sum, then the largest bundle, from the local search's schedule as
a hint, under a time limit and 1 worker.  Its answers are three-valued and never a proof: a schedule it finds is checked and assessed
like any other, and "no better schedule found" is reported as unknown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tesearch.schedules.contenders.greedy import WordSearch
from tesearch.schedules.contenders.maps import balanced_map, words_floor
from tesearch.schedules.contenders.subject import Subject
from tesearch.running.errors import SolverUnavailable
from tesearch.schedules.execute.hops import HopSchedule
from tesearch.running.terms import SolveResult

#: CP-SAT's default time limit per schedule (seconds) and its workers
CPSAT_SECONDS, CPSAT_WORKERS = 120.0, 1

OPTIMAL = "optimal in the superstep model"


@dataclass(frozen=True)
class Standing:
    """Where a schedule stands against the superstep model's floors (module doc)."""

    supersteps: int  # S: active supersteps
    diameter: int  # D: the floor of S
    bundle_sum: int  # B
    words_floor: int  # F: the most-used letter's count in these words (the floor of B for these words)
    letter_bound: int  # P: the floor of B over every choice of shortest words

    @property
    def optimal(self) -> bool:
        """S = D and B = P: optimal in the superstep model (a theorem: docs/simulate.md, "The superstep model")."""
        return self.supersteps == self.diameter and self.bundle_sum == self.letter_bound

    @property
    def optimal_for_words(self) -> bool:
        """S = D and B = F: no schedule of these words has fewer latencies or blocks."""
        return self.supersteps == self.diameter and self.bundle_sum == self.words_floor

    @property
    def gaps(self) -> dict[str, int]:
        """Each term over its floor: S - D, B - P, and B - F."""
        return {"supersteps": self.supersteps - self.diameter, "bundle_sum": self.bundle_sum - self.letter_bound,
                "bundle_sum_over_words_floor": self.bundle_sum - self.words_floor}

    @property
    def verdict(self) -> str:
        """'optimal in the superstep model', or the gap of each term (never 'optimal' otherwise)."""
        if self.optimal:
            return OPTIMAL
        gaps = self.gaps
        text = f"not shown optimal: S - D = {gaps['supersteps']}, B - P = {gaps['bundle_sum']}"
        if self.optimal_for_words:
            text += " (optimal for these words: B = their most-used letter's count)"
        return text

    def to_json(self) -> dict:
        """The figures, the gaps and the verdict."""
        return {"supersteps": self.supersteps, "diameter": self.diameter, "bundle_sum": self.bundle_sum,
                "words_floor": self.words_floor, "letter_bound": self.letter_bound, "optimal": self.optimal,
                "optimal_for_words": self.optimal_for_words, "gaps": self.gaps, "verdict": self.verdict}


def assess(schedule: HopSchedule, subject: Subject) -> Standing:
    """``schedule``'s standing (it is checked first: a schedule that fails :meth:`HopSchedule.check` raises)."""
    schedule.check()
    return Standing(schedule.active_steps, subject.diameter, schedule.bundle_sum, words_floor(schedule),
                    subject.letter_bound)


@dataclass(frozen=True)
class Optimum:
    """A schedule, its standing, and how it was reached (each stage's bundle sum, CP-SAT's answer)."""

    schedule: HopSchedule
    standing: Standing
    stages: tuple[tuple[str, int], ...]
    solver: str  # 'not needed', or CP-SAT's three-valued answer and status


def cpsat_supersteps(schedule: HopSchedule, *, supersteps: int, floor: int, seconds: float = CPSAT_SECONDS,
                     workers: int = CPSAT_WORKERS, seed: int = 0) -> tuple[SolveResult, str, list[tuple[int, ...]] | None]:
    """Supersteps for ``schedule``'s words (within ``supersteps``) of least bundle sum and then least largest
    bundle (the memory a bundle takes), by CP-SAT from the schedule's own steps as a hint (module doc).  Returns
    (sat or unknown, CP-SAT's status name, the steps of the best schedule found or None).  ``floor`` (the words'
    floor) is given to CP-SAT as a bound; never returns unsat: an infeasible model is no proof here."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise SolverUnavailable("the superstep optimum needs OR-Tools: pip install 'tesearch[cpsat]'") from None
    model = cp_model.CpModel()
    hops: list[list[dict[int, object]]] = []
    by_cell: dict[tuple[int, int], list] = {}
    for i, (word, hint) in enumerate(zip(schedule.words, schedule.steps)):
        k, route = len(word), []
        for j, letter in enumerate(word):
            cells = {t: model.NewBoolVar(f"x{i}_{j}_{t}") for t in range(j, supersteps - k + j + 1)}
            model.AddExactlyOne(cells.values())
            for t, var in cells.items():
                by_cell.setdefault((t, letter), []).append(var)
                model.AddHint(var, int(hint[j] == t))
            if j:  # hop j at t only if hop j - 1 came before t
                before = route[-1]
                for t, var in cells.items():
                    model.Add(sum(v for u, v in before.items() if u < t) >= 1).OnlyEnforceIf(var)
            route.append(cells)
        hops.append(route)
    routes = len(schedule.words)
    tops = [model.NewIntVar(0, routes, f"m{t}") for t in range(supersteps)]
    largest = model.NewIntVar(0, routes, "largest")
    for (t, _), cells in by_cell.items():
        model.Add(tops[t] >= sum(cells))
    for top in tops:
        model.Add(largest >= top)
    model.Add(sum(tops) >= floor)
    model.Minimize(sum(tops) * (routes + 1) + largest)  # the bundle sum first, then the largest bundle
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(seconds)
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    status = solver.Solve(model)
    name = solver.StatusName(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SolveResult.UNKNOWN, name, None
    steps = [tuple(next(t for t, var in cells.items() if solver.Value(var)) for cells in route) for route in hops]
    return SolveResult.SAT, name, steps


def _polish(schedule: HopSchedule, subject: Subject, stages: list, seconds: float, seed: int) -> tuple[HopSchedule, str]:
    """CP-SAT on ``schedule``'s words when its bundle sum is above their floor (or its supersteps above D)."""
    floor = words_floor(schedule)
    if schedule.bundle_sum <= floor and schedule.active_steps == subject.diameter:
        return schedule, "not needed"
    started = time.perf_counter()
    answer, status, steps = cpsat_supersteps(schedule, supersteps=subject.diameter, floor=floor, seconds=seconds,
                                             seed=seed)
    took = round(time.perf_counter() - started, 1)
    if steps is None:
        return schedule, f"CP-SAT {answer.value} ({status}, {took} s): kept the local search's schedule"
    polished = schedule.with_steps(steps, name=schedule.name, provenance={
        **{k: v for k, v in schedule.provenance.items() if k != "words_from"},
        "cpsat": {"status": status, "seconds": took, "limit_s": seconds, "workers": CPSAT_WORKERS, "seed": seed}})
    polished.check()
    if polished.bundle_sum > schedule.bundle_sum:
        return schedule, f"CP-SAT {answer.value} ({status}, {took} s) found nothing better"
    stages.append(("CP-SAT", polished.bundle_sum))
    return polished, f"CP-SAT {answer.value} ({status}, {took} s)"


def free_optimum(subject: Subject, *, seed: int = 0, passes: int = 2000, patience: int = 200,
                 seconds: float = CPSAT_SECONDS) -> Optimum:
    """Words and supersteps with no table, aiming at S = D and B = P (module doc)."""
    search = WordSearch(subject, seed=seed)
    report = search.run(passes=passes, patience=patience, target=subject.letter_bound)
    schedule = search.schedule("superstep optimum (free words)", {
        "algorithm": "free-word superstep optimum: balanced letter counts, local search, CP-SAT on the supersteps "
                     "if needed", "seed": seed, "passes": passes, "patience": patience, **report})
    stages = [("local search", schedule.bundle_sum)]
    schedule, solver = _polish(schedule, subject, stages, seconds, seed)
    return Optimum(schedule, assess(schedule, subject), tuple(stages), solver)


def table_optimum(subject: Subject, *, seed: int = 0, passes: int = 2000, patience: int = 200,
                  seconds: float = CPSAT_SECONDS) -> Optimum:
    """The subject's table's words in supersteps, aiming at S = D and B = F (module doc)."""
    table = subject.table_schedule
    schedule = balanced_map(table)
    stages = [("balanced map", schedule.bundle_sum)]
    if schedule.bundle_sum > words_floor(schedule):
        search = WordSearch(subject, seed=seed, pools=[[w] for w in table.words])
        report = search.run(passes=passes, patience=patience, target=words_floor(schedule))
        words, steps = search.best
        if report["bundle_sum"] < schedule.bundle_sum:
            schedule = table.with_steps([tuple(s) for s in steps], name="table in optimum supersteps",
                                        provenance={"algorithm": "local search", "seed": seed, **report})
        stages.append(("local search", report["bundle_sum"]))
    schedule, solver = _polish(schedule, subject, stages, seconds, seed)
    schedule = table.with_steps(list(schedule.steps), name="table in optimum supersteps",
                                provenance={"algorithm": "table words: balanced map, local search, CP-SAT if needed",
                                            "stages": stages, "solver": solver, **schedule.provenance})
    return Optimum(schedule, assess(schedule, subject), tuple(stages), solver)
