"""Search strategies for tables of the smallest width.

* rotation-symmetric assembly: the full sigma-orbits become blocks (row r is
  sigma^r of row 0, valid by construction), the exceptional elements go into a
  core together with filler orbits chosen by the tool, and only the core is
  searched.  A core that meets its own counting bound makes the whole table
  meet the network's counting bound, because the blocks have no blank.
* full search: every target is an item; for networks without a rotation, or
  where the per-letter bound binds (the blocks are letter-balanced, so they
  cannot help there).
* the width loop: from the best lower bound (or ``--from-width``) upward to a
  known upper bound (a greedy first-fit table, or ``--max-width`` when it is
  narrower), each width sat / unsat / unknown; unknown is never read as unsat,
  and every unsat width can keep its SMT-LIB2 encoding.

What "infeasible" means.  A search ends :attr:`Status.INFEASIBLE` only when
every width of the range asked for is refuted: by the best lower bound (a
``--max-width`` below it), or by a solver's unsat at each width, with every
target's shortest words all offered (an unsat over capped candidate words
refutes only those words: the search then ends unknown), by Z3 (a CP-SAT
unsat is no certificate: the search then ends unknown too).  No width at or
above a table the search holds (the greedy one included) is ever refuted; an
empty range (``--from-width`` above the greedy width) is a usage error.  The
rotation and split strategies have no width loop (they aim at the counting
bound, and the rotation search keeps a wider greedy-core table when no core
is found) and refute no width, so they refuse ``--from-width`` (``auto``
with it runs the full strategy's width loop); they honour ``--max-width`` by
returning no wider table.
"""

from __future__ import annotations

from pathlib import Path

from tesearch.running import limits
from tesearch.solvers import Backend
from tesearch.solvers.decide import decide, solver_name
from tesearch.tables.build import Provenance, relabelled
from tesearch.solvers.problem import TableProblem
from tesearch.solvers.z3model import encode
from tesearch.running.errors import ConstructionError, OptionError
from tesearch.running.files import safe_name, write_atomically
from tesearch.facts.instance import Instance
from tesearch.tables.layout import assign_rows, filler_plans, first_fit
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.search.kit import TableKit, candidate_words, shortest_fillers_first
from tesearch.search.params import Attempt, CoreSchedule, SearchParams, SearchRun, Strategy, WordSampling
from tesearch.search.split import OrbitGroup, group_orbits
from tesearch.networks.symmetry import THE_ROTATION
from tesearch.tables.table import Table
from tesearch.running.terms import SolveResult, Status, phase_text

__all__ = ["Attempt", "CoreSchedule", "SearchParams", "SearchRun", "Searcher", "Strategy", "WordSampling",
           "candidate_words", "search"]

#: how many further core widths and filler plans the rotation strategy tries
MAX_EXTRA_CORE_COLUMNS = 30
#: the split strategy tries fewer widths per sub-core, so that its budgets escalate sooner (groups
#: merged into one run the rotation search's core instead)
MAX_EXTRA_SUBCORE_COLUMNS = 10
#: ... and escalates no further than this before merging the group with the next one
MAX_SUBCORE_BUDGET_S = 32.0
#: filler plans tried per core width (the rotation and split searches)
MAX_CORE_PLANS_PER_WIDTH = 4
#: the rotation search gives every (core width, filler plan) this many seconds first, then retries
#: the unknown ones with the budget multiplied by CORE_BUDGET_GROWTH, pass after pass: one hard
#: unsat or unknown core no longer holds up an easy core a column wider (star-8's runs:
#: docs/notes/frontier.md, Frontier II)
FIRST_CORE_BUDGET_S = 2.0
CORE_BUDGET_GROWTH = 4.0
#: Z3's Python API needs about 40 s to build 200k placement variables: above this the
#: full encoding is not built and the width is reported unknown (z3 backend only)
MAX_PLACEMENT_VARIABLES = 60_000



class Searcher(TableKit):
    """One search run: network -> bounds -> strategy -> a verified table (the building blocks are
    :class:`~tesearch.search.kit.TableKit`'s).

    Every phase reports itself through :mod:`tesearch.running.limits` (so a supervisor can show it and
    name it when a limit stops the run), and every table is verified before it is returned or
    offered as the best table so far.
    """

    def __init__(self, facts: Instance, params: SearchParams, *, budget: Budget | None = None,
                 progress: Progress = quiet, encodings_dir: str | Path | None = None):
        provenance = Provenance(solver_name(params.backend, params.cpsat_model), f"{facts.name} {params}", params.seed)
        super().__init__(facts, provenance, word_cap=params.word_cap, sampling=params.sampling, seed=params.seed,
                         options=params.options, symmetry=params.symmetry, budget=budget, progress=progress)
        self.params = params
        self.encodings_dir = Path(encodings_dir) if encodings_dir is not None else None
        self.attempts: list[Attempt] = []
        self.stop_reason: str | None = None
        self.infeasible_widths: tuple[int | None, int] | None = None  # set only where a range is refuted
        self.infeasible_by = ""

    def run_problem(self, part: str, problem: TableProblem, timeout_s: float
                    ) -> tuple[SolveResult, list[tuple[int, int, int]] | None]:
        """Solve one width with the chosen backend; record the attempt; keep the encoding of an unsat."""
        decision = decide(problem, self.params.backend, self.params.cpsat_model, timeout_s=timeout_s,
                          seed=self.params.seed, label=part)
        result, chosen = decision.result, decision.chosen
        attempt = Attempt(part, problem.width, len(problem.items), problem.letter_count, result, decision.seconds,
                          problem.complete_words, decision.detail)
        if result is SolveResult.UNSAT and self.encodings_dir is not None:
            # a CP-SAT unsat keeps the same Z3 encoding, so that `tesearch certify` can re-check it
            attempt.encoding = str(self.keep_encoding(part, problem, decision.encoding))
        self.attempts.append(attempt)
        self.log(f"{part} T={problem.width}: {len(problem.items)} items, {problem.letter_count} letters, "
                 f"{problem.cells - problem.letter_count} blanks -> {decision.outcome}")
        return result, chosen

    def keep_encoding(self, part: str, problem: TableProblem, enc) -> Path:
        """Write the SMT-LIB2 encoding of a refuted width; an existing different file is never replaced."""
        text = (enc or encode(problem)).to_smtlib2()
        stem = safe_name(f"{self.network.spec}-{self.instance.exchange.value}-{part}-T{problem.width}")
        path = self.encodings_dir / f"{stem}.smt2"
        n = 1
        while path.exists() and path.read_text() != text:
            n += 1
            path = self.encodings_dir / f"{stem}.{n}.smt2"
        if not path.exists():
            write_atomically(path, text)
        return path

    def run(self) -> SearchRun:
        """Pick the strategy (auto: rotation where it can meet the bound, else full; with --from-width the
        full strategy's width loop) and run it."""
        strategy = self.params.strategy
        if strategy is Strategy.AUTO:
            usable = self.rotation is not None and self.bounds.letter.value <= self.bounds.counting
            strategy = Strategy.ROTATION if usable and self.params.from_width is None else Strategy.FULL
            if strategy is Strategy.FULL and self.params.symmetry != THE_ROTATION:  # never drop the option silently
                raise OptionError(f"--symmetry {self.params.symmetry}: {self.network.spec} has no rotation that can "
                                  f"meet its bound, so auto runs the full strategy, which uses no symmetry (give "
                                  f"--strategy rotation to use the group anyway, or leave out --symmetry)")
        self.log(f"{self.instance.name}: {self.cg.order} nodes, "
                 f"{len(self.targets)} targets, best bound {self.bounds.best} ({self.bounds.binding}); "
                 f"strategy {strategy.value}")
        if self.params.max_width is not None and self.params.max_width < self.bounds.best \
                and self.params.from_width is None:
            status, table = self.below_bound()
        elif strategy in (Strategy.ROTATION, Strategy.SPLIT):
            if self.rotation is None:
                raise ConstructionError(f"{self.network.spec} has no rotation; use --strategy full")
            status, table = self.rotation_search() if strategy is Strategy.ROTATION else self.split_search()
        else:
            status, table = self.full_search()
        if status is Status.INFEASIBLE and self.infeasible_widths is None:
            raise AssertionError("an infeasible outcome must name the widths it refuted")
        return SearchRun(self.instance.name, self.params, status, self.bounds, table, self.clock.elapsed, self.attempts,
                         strategy.value, self.stop_reason, self.infeasible_widths, self.infeasible_by)

    def stop(self, reason: str) -> None:
        """Record why the search stops short (the last solver phase, if any, named), and log it."""
        last = self.attempts[-1] if self.attempts else None
        where = f" (after phase: solve {last.part} T={last.width})" if last is not None else \
            f" ({phase_text(limits.current_phase())})"
        self.stop_reason = reason + where
        self.log(self.stop_reason)

    def below_bound(self) -> tuple[Status, None]:
        """--max-width below the best lower bound (and no --from-width asking a solver to show it):
        no table exists, by the bound alone."""
        width = self.params.max_width
        self.attempts.append(Attempt("bound", width, len(self.targets), self.bounds.target_letters,
                                     SolveResult.UNSAT, 0.0, True,
                                     f"the best lower bound is {self.bounds.best} ({self.bounds.binding})"))
        self.log(f"no table of width <= {width}: the best lower bound is {self.bounds.best} ({self.bounds.binding})")
        self.infeasible_widths = (None, width)
        self.infeasible_by = f"the best lower bound {self.bounds.best} ({self.bounds.binding})"
        return Status.INFEASIBLE, None

    def full_search(self) -> tuple[Status, Table | None]:
        """Every target an item; widths from the bound up, the greedy table as the fallback."""
        items = self.items(self.targets)
        with limits.phase("greedy first fit"):
            upper, greedy = first_fit(items, self.cg.degree)
        self.log(f"greedy first-fit table: T={upper}")
        top = min(upper, self.params.max_width) if self.params.max_width else upper
        fallback = None
        if upper <= top:
            fallback = self.make_table(assign_rows(greedy, self.cg.degree), upper, "full",
                                       "greedy first-fit (solver unknown below)")
            limits.offer(fallback)
        start = self.params.from_width if self.params.from_width is not None else self.bounds.best
        if start > upper:
            raise OptionError(f"--from-width {start} is above the greedy table's width {upper}: a table of width "
                              f"{upper} exists, so every width from {upper} up has one; nothing to search "
                              f"(use --from-width {upper} or less)")
        width = start
        saw_unknown = False
        capped: list[int] = []  # widths refuted only over capped candidate words: no proof
        while width <= top:
            if width == upper:
                return Status.FOUND, relabelled(fallback, "search", **self.record("full", "greedy first-fit")["search"])
            if self.clock.left <= 0:
                self.stop(f"the time limit was reached before width {width} was decided")
                saw_unknown = True
                break
            problem = self.problem(self.instance.name, width, items)
            size = sum(len(it.words) * max(0, width - it.length + 1) for it in items)
            if self.params.backend is Backend.Z3 and size > MAX_PLACEMENT_VARIABLES:
                self.stop(f"width {width}: {size} placement variables exceed the Z3 encoding cap "
                          f"{MAX_PLACEMENT_VARIABLES} (try --solver cpsat)")
                saw_unknown = True
                break
            result, chosen = self.run_problem("full", problem, self.clock.left)
            if result is SolveResult.SAT:
                rows = assign_rows(self.placed(problem, chosen), self.cg.degree)
                return Status.FOUND, self.make_table(rows, width, "full", self.params.backend.value)
            if result is SolveResult.UNKNOWN:
                self.stop(f"the solver answered unknown at width {width}")
                saw_unknown = True
                break
            if not problem.complete_words:
                capped.append(width)
            width += 1
        if saw_unknown:
            if fallback is not None:
                self.log(f"solver gave up at T={width}; keeping the greedy table T={upper} (not shown optimal)")
                return Status.FOUND, relabelled(fallback, "search", seconds=round(self.clock.elapsed, 3))
            return Status.UNKNOWN, None
        if top >= upper:  # the loop returns the greedy table at width upper: a table is known there
            raise AssertionError(f"width {top} refuted although a table of width {upper} is known")
        if capped:
            self.stop(f"width(s) {_span(capped)} were refuted only over the first {self.params.word_cap} candidate "
                      f"words of some elements (--word-cap): that proves nothing about all tables")
            return Status.UNKNOWN, None
        if self.params.backend is not Backend.Z3:
            self.stop(f"{self.params.backend.value} answered unsat at every width from {start} to {top}, but its "
                      f"unsat is no certificate: refute them with --solver z3 (and --keep-encodings to certify)")
            return Status.UNKNOWN, None
        self.infeasible_widths = (start, top)
        self.infeasible_by = (f"{solver_name(self.params.backend, self.params.cpsat_model)} unsat at every width, "
                              f"all shortest words offered")
        return Status.INFEASIBLE, None

    def rotation_search(self) -> tuple[Status, Table | None]:
        """Exceptional elements and filler orbits in a searched core, every other full orbit a rotation block.

        The assembled table is always as wide as the counting bound (the core is filled exactly).
        """
        rot, S = self.rotation, self.cg.degree
        full, short, lengths, blanks = self.orbit_classes
        exceptional = [g for o in short for g in o]
        exc_letters = int(self.cg.dist[exceptional].sum()) if exceptional else 0
        base, rem = divmod(exc_letters + blanks, S)
        if rem:
            raise AssertionError("exceptional letters and blanks must fill whole columns")
        longest_exc = max((int(self.cg.dist[g]) for g in exceptional), default=0)
        self.log(f"rotation {rot}: {len(full)} full orbits, {len(exceptional)} exceptional elements "
                 f"({exc_letters} letters), {blanks} blanks allowed")
        start_width = max(base, longest_exc)
        balance = self.core_balance(exceptional, full, lengths, blanks)
        if balance is not None and balance.result is SolveResult.UNSAT:
            self.stop("no rotation core can be balanced: the exceptional elements' letters cannot be evened out "
                      "by any filler orbits, so no table of core + rotation blocks meets the bound")
            return Status.UNKNOWN, None
        required = list(balance.orbits) if balance is not None else []
        required_length = sum(lengths[j] for j in required)
        if required:
            self.log(f"letter balance needs {len(required)} flexible filler orbit(s) of total length "
                     f"{required_length} in the core")
            start_width = max(start_width, base + required_length, max(lengths[j] for j in required))
        fallback = self.greedy_core_table(exceptional, full)
        if fallback is not None and fallback.T <= self.bounds.best:
            return Status.FOUND, fallback
        fresh = self.core_candidates(start_width, base, lengths, required, required_length, exceptional, full)
        found = self.find_core("core", fresh, exceptional, full)
        if found is None:
            if fallback is None:
                return Status.UNKNOWN, None
            self.log(f"no core at the bound; keeping the greedy-core table T={fallback.T} (not shown optimal)")
            return Status.FOUND, relabelled(fallback, "search", seconds=round(self.clock.elapsed, 3))
        core_width, plan, placed = found
        return Status.FOUND, self.assemble(placed, core_width, full, plan, strategy="rotation",
                                           method=f"{self.params.backend.value} core + {self.blocks_name} blocks")

    def greedy_core_table(self, exceptional: list[int], full: list[tuple[int, ...]]) -> Table | None:
        """The fallback of the rotation search: the exceptional elements packed by greedy first fit (blanks
        allowed) and every full orbit a rotation block; verified, offered to the supervisor (so a time or memory
        limit still writes it; Ctrl-C writes nothing), and None when it is wider than --max-width or there is no exceptional element
        (then the core is empty and the first candidate is the table)."""
        if not exceptional:
            return None
        _, width, placed = self.greedy_core(exceptional)
        total = width + sum(int(self.cg.dist[o[0]]) for o in full)
        if self.params.max_width is not None and total > self.params.max_width:
            return None
        table = self.assemble(placed, width, full, [], strategy="rotation",
                              method=f"greedy first-fit core + {self.blocks_name} blocks")
        self.log(f"greedy-core table: T={table.T} (core width {width}, bound {self.bounds.best})")
        limits.offer(table)
        return table

    def find_core(self, part: str, fresh, exceptional: list[int], full: list[tuple[int, ...]],
                  max_budget: float | None = None) -> tuple[int, list[int], list] | None:
        """The first (core width, filler plan) of ``fresh`` whose core a solver places, with the placement.

        The schedule (``params.core_schedule``) decides each candidate's time, escalating no further
        than ``max_budget`` seconds when given; None when none was found (the reason is recorded with
        :meth:`stop`).
        """
        candidates: list[tuple[int, list[int]]] = []  # filled from ``fresh`` as the first pass goes
        problems: dict[int, TableProblem] = {}
        escalating = self.params.core_schedule is CoreSchedule.ESCALATING
        unresolved: list[int] | None = None  # None: the first pass, over candidates as they come
        budget, gave_up = FIRST_CORE_BUDGET_S, 0
        capped = False  # a refuted core offered only capped candidate words
        while unresolved is None or (unresolved and (max_budget is None or budget <= max_budget)):
            still: list[int] = []
            for index in self._pass_order(unresolved, candidates, fresh):
                core_width, plan = candidates[index]
                if self.clock.left <= 0:
                    self.stop(f"the time limit was reached with no {part} found (width {core_width}"
                              + (f", attempt budget {budget:g} s)" if escalating else ")"))
                    return None
                core_elements = exceptional + [g for j in plan for g in full[j]]
                if not core_elements:
                    return 0, plan, []
                if index not in problems:
                    problems[index] = self.problem(f"{self.instance.name} {part}",
                                                   core_width, self.items(core_elements))
                if not escalating:
                    budget = max(self.clock.left / 3, min(self.clock.left, 5.0))
                result, chosen = self.run_problem(part, problems[index], min(budget, self.clock.left))
                if result is SolveResult.SAT:
                    return core_width, plan, self.placed(problems[index], chosen)
                if result is SolveResult.UNKNOWN and escalating:
                    still.append(index)
                else:
                    gave_up += result is SolveResult.UNKNOWN
                    capped |= result is SolveResult.UNSAT and not problems[index].complete_words
                    problems.pop(index)  # refuted (or given up by the patient schedule): never tried again
            unresolved = still
            budget *= CORE_BUDGET_GROWTH
            if unresolved and (max_budget is None or budget <= max_budget):
                self.log(f"{len(unresolved)} {part} attempt(s) unknown; again with {budget:g} s each")
        if not candidates:
            self.stop(f"no filler plan fits any {part} width tried")
        else:
            widths = f"widths {candidates[0][0]} to {candidates[-1][0]}"
            gave_up += len(unresolved or [])
            self.stop(f"no {part} found: of those tried ({widths}) {gave_up} ended unknown and the rest were "
                      f"refuted" if gave_up else
                      f"every {part} tried was refuted ({widths}"
                      + ("; some over capped candidate words" if capped else "")
                      + "; this refutes only these cores, not the network)")
        return None

    def split_search(self) -> tuple[Status, Table | None]:
        """Rotation blocks around several small sub-cores, one per group of exceptional orbits
        (:mod:`tesearch.search.split`), each searched like the rotation search's one core and fixed
        once found; the fillers one sub-core takes are not offered to the next."""
        rot, S = self.rotation, self.cg.degree
        full, short, lengths, blanks = self.orbit_classes
        if not short:  # no exceptional element: nothing to split, the rotation search's core is all there is
            self.log("no short orbit to split: the rotation search")
            return self.rotation_search()
        profiles = [self.orbit_profiles(o) for o in short]
        groups = group_orbits([len(o) * int(self.cg.dist[o[0]]) for o in short], S, blanks,
                              self.params.group_columns * S, profiles)
        self.log(f"rotation {rot}: {len(full)} full orbits, {len(short)} short orbits in {len(groups)} sub-core(s), "
                 f"{blanks} blanks allowed")
        free = set(range(len(full)))
        found_cores: list[tuple[OrbitGroup, int, list[int], list]] = []  # group, width, plan, placement
        pending = list(groups)
        while pending:
            if len(pending) == 1 and not found_cores:
                # one group holding every short orbit is the rotation search's core, which also
                # takes the flexible fillers that the letter balance needs
                self.log("one group holds every short orbit: the rotation search's core")
                return self.rotation_search()
            group = pending.pop(0)
            elements = [g for i in group.orbits for g in short[i]]
            base = (group.letters + group.blanks) // S
            longest = max((int(self.cg.dist[g]) for g in elements), default=0)
            part = f"core-{len(found_cores) + 1}-of-{len(found_cores) + 1 + len(pending)}"
            with limits.phase(f"sub-core {len(found_cores) + 1} of {len(found_cores) + 1 + len(pending)}"):
                found = self.find_core(part, self.split_candidates(max(base, longest), base, lengths, free),
                                       elements, full, MAX_SUBCORE_BUDGET_S)
            if found is None:
                if self.clock.left <= 0:
                    return Status.UNKNOWN, None
                # a group that finds no sub-core merges with the next one (or, the last, with the one
                # before it, whose sub-core is undone): a bigger sub-core has more ways to fill its rectangle
                with_next = bool(pending)
                if with_next:
                    other = pending.pop(0)
                else:
                    other, _, undone, _ = found_cores.pop()
                    free |= set(undone)
                merged = OrbitGroup(tuple(sorted(group.orbits + other.orbits)), group.letters + other.letters,
                                    group.blanks + other.blanks)
                self.log(f"{part} not found within {MAX_SUBCORE_BUDGET_S:g} s per attempt: merged with the "
                         f"{'next' if with_next else 'previous'} group "
                         f"({len(merged.orbits)} orbits, {merged.letters} letters)")
                self.stop_reason = None
                pending.insert(0, merged)
                continue
            width, plan, placed = found
            self.log(f"{part}: {len(elements)} exceptional elements + {len(plan)} filler orbit(s) in width {width}")
            found_cores.append((group, width, plan, placed))
            free -= set(plan)
        placed_all: list = []
        used: list[int] = []
        sections = []
        offset = 0
        for k, (_, width, plan, placed) in enumerate(found_cores, 1):
            placed_all += [(g, column + offset, word) for g, column, word in placed]
            sections.append({"name": f"core {k}", "start": offset, "end": offset + width})
            offset += width
            used += plan
        return Status.FOUND, self.assemble(placed_all, offset, full, used, sections=sections, strategy="split",
                                           method=f"{self.params.backend.value} sub-cores + {self.blocks_name} blocks")

    @staticmethod
    def split_candidates(start_width: int, base: int, lengths: list[int], free: set[int]):
        """(width, filler plan) for one sub-core: widths ascending, fillers from the orbits still free,
        plans with the shortest longest filler first at each width."""
        for width in range(start_width, start_width + MAX_EXTRA_SUBCORE_COLUMNS + 1):
            fitting = {j: lengths[j] for j in free if lengths[j] <= width}
            plans = filler_plans(fitting, width - base, MAX_CORE_PLANS_PER_WIDTH)
            plans.sort(key=shortest_fillers_first(lengths))
            for plan in plans:
                yield width, plan

    @staticmethod
    def _pass_order(unresolved: list[int] | None, candidates: list, fresh):
        """Indices into ``candidates`` for one pass: the first pass appends from ``fresh`` as it goes."""
        if unresolved is not None:
            yield from unresolved
            return
        for candidate in fresh:
            candidates.append(candidate)
            yield len(candidates) - 1

    def core_candidates(self, start_width: int, base: int, lengths: list[int], required: list[int],
                        required_length: int, exceptional: list[int], full: list[tuple[int, ...]]):
        """Every (core width, filler plan) the rotation search may try, in the order it tries them (a generator).

        Widths ascend from ``start_width``; with the escalating schedule, at each width the plans with
        the shortest longest filler come first (their words are complete and their models small, and
        in our runs they decide fast); a plan whose letter counts cannot balance at that width is left out.
        """
        tried: set[tuple[int, ...]] = set()
        for core_width in range(start_width, start_width + MAX_EXTRA_CORE_COLUMNS + 1):
            need = core_width - base  # sum of filler orbit word lengths
            fitting = {j: n for j, n in enumerate(lengths) if n <= core_width}
            rigid = {j: n for j, n in fitting.items() if j not in self.flexible}
            plans = [sorted(required + p)
                     for p in filler_plans(rigid, need - required_length, MAX_CORE_PLANS_PER_WIDTH)]
            plans += filler_plans(fitting, need, MAX_CORE_PLANS_PER_WIDTH)
            fresh = []
            for plan in plans:
                if tuple(plan) in tried:
                    continue
                tried.add(tuple(plan))
                if self.plan_balanceable(exceptional, full, plan, core_width):
                    fresh.append(plan)
            if self.params.core_schedule is CoreSchedule.ESCALATING:
                fresh.sort(key=shortest_fillers_first(lengths))
            for plan in fresh:
                yield core_width, plan


def _span(widths: list[int]) -> str:
    """Widths as 'a' or 'a to b' (they are consecutive)."""
    return str(widths[0]) if len(widths) == 1 else f"{widths[0]} to {widths[-1]}"


def search(facts: Instance, params: SearchParams, *, budget: Budget | None = None, progress: Progress = quiet,
           encodings_dir: str | Path | None = None) -> SearchRun:
    """Run one search (see :class:`Searcher`) on ``facts`` within ``budget`` (default: the command's,
    :meth:`Budget.current`)."""
    return Searcher(facts, params, budget=budget, progress=progress, encodings_dir=encodings_dir).run()
