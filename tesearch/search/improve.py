"""Improving a table: the greedy table narrowed by width minimisation or by repacking its last columns.

The full search's greedy first-fit table is an upper bound.  :func:`improve_greedy`
narrows it with the backend's width minimisation on the whole model
(:func:`tesearch.solvers.cpsat.minimize_width`), or, for tables too big for
one model, by :func:`repack_tail`: rounds of a large-neighbourhood search that
free the words ending in the last columns and let the backend re-place them
(:func:`tesearch.solvers.cpsat.repack`).  Every round keeps a valid placement,
and every improvement is verified and offered to the supervisor, so a time
limit keeps the best table reached.  The backend's own lower bound is reported
but is never a certificate.
"""

from __future__ import annotations

from typing import Callable

from tesearch.running import limits
from tesearch.solvers import Backend, CpsatModel, cpsat, cpsat_label, cpsat_module
from tesearch.solvers.decide import solver_name
from tesearch.tables.build import Provenance
from tesearch.solvers.problem import Chosen, Item, TableProblem
from tesearch.tables.layout import assign_rows, first_fit
from tesearch.facts.instance import Instance, instance
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.networks.families import Network
from tesearch.tables.outcome import Outcome
from tesearch.search.kit import TableKit
from tesearch.tables.table import Table
from tesearch.running.terms import Exchange, SolveResult, Status, optimality_text
from tesearch.networks.words import DEFAULT_WORD_CAP


def placement_width(problem: TableProblem, placement: Chosen) -> int:
    """The width a placement of ``problem``'s items takes."""
    return max(c + len(problem.items[i].words[w]) for i, w, c in placement)


def repack_tail(problem: TableProblem, chosen: Chosen, *, tail: int, round_s: float, budget: Budget,
                lower: int = 0, seed: int = 0, workers: int = cpsat.DEFAULT_WORKERS, progress: Progress = quiet,
                on_better: Callable[[Chosen, int], None] | None = None) -> tuple[Chosen, int]:
    """Repeat :func:`cpsat.repack` on the items ending in the last ``tail`` columns while ``budget`` has time
    left, each round at most ``round_s`` seconds: (placement, its width).  Every round's result is a valid placement, so stopping is safe;
    ``on_better`` hears of every narrower one."""
    best, width = list(chosen), placement_width(problem, chosen)
    rounds, stale = 0, 0
    with limits.phase("repack rounds"):
        while not budget.spent and width > lower and stale < 3:
            free = {i for i, w, c in best if c + len(problem.items[i].words[w]) > width - tail}
            step = cpsat.repack(problem, best, free, lower=lower, seed=seed + rounds, timeout_s=budget.call_timeout(round_s),
                                workers=workers)
            rounds += 1
            limits.advance()
            if step.chosen is not None and step.width < width:
                best, width, stale = step.chosen, step.width, 0
                if on_better is not None:
                    on_better(best, width)
            else:
                stale += 1
                tail += tail // 2  # a wider neighbourhood after a round without gain
            progress(f"repack round {rounds}: {len(free)} items free, width {width} "
                     f"({step.status}, {step.seconds:.1f}s)")
    return best, width


def starting_placement(kit: TableKit, facts: Instance, start: Table | None) -> tuple[TableProblem, Chosen, str]:
    """(the table problem of every target at the starting width, the starting placement, what it is): ``start``'s
    words and columns (a verified table of the network, total exchange; its words join their messages' candidate
    words) or the greedy first-fit table of ``kit``'s candidate words."""
    items = kit.items(kit.targets)
    if start is None:
        with limits.phase("greedy first fit"):
            upper, greedy = first_fit(items, kit.cg.degree)
    else:
        upper = start.T
        greedy = []
        for p in start.placements:
            word = tuple(kit.cg.letter_index[s] for s in p.word)
            greedy.append((kit.cg.element_of(word), p.column, word))
    index = {it.element: i for i, it in enumerate(items)}
    for e, _, w in greedy:  # a starting table's word may lie outside the capped candidates
        if w not in items[index[e]].words:
            item = items[index[e]]
            items[index[e]] = Item(item.element, item.words + (w,), item.complete)
    hint = [(index[e], items[index[e]].words.index(w), c) for e, c, w in greedy]
    return (kit.problem(f"{facts.spec} total", upper, items), hint,
            "greedy first-fit table" if start is None else "starting table")


def improve_greedy(network: Network | Instance, *, budget: Budget | None = None, word_cap: int = DEFAULT_WORD_CAP,
                   seed: int = 0, workers: int = cpsat.DEFAULT_WORKERS, log: bool = False, progress: Progress = quiet,
                   tail: int | None = None, round_s: float = 60.0, cpsat_model: CpsatModel = CpsatModel.PLACEMENTS,
                   start: Table | None = None) -> Outcome:
    """The full search's greedy table narrowed by CP-SAT within ``budget`` (default: the command's): an outcome,
    FOUND with the verified table or UNKNOWN (CP-SAT gave no placement; nothing is proved).

    Without ``tail``: one whole-model width minimisation, with the placement model or the interval
    model (``cpsat_model``); with ``tail``: :func:`repack_tail` rounds (placement model).  ``start``
    (a verified table of the network, total exchange) replaces the greedy table as the first
    placement and the upper width; its words join their messages' candidate words.
    """
    facts = network if isinstance(network, Instance) else instance(network, Exchange.TOTAL)
    if facts.exchange is not Exchange.TOTAL:
        raise AssertionError(f"repack narrows a total exchange's greedy table, not {facts.name}'s")
    cpsat_model = CpsatModel(cpsat_model)
    run = (f"{facts.name} repack cap={word_cap} seed={seed} model={cpsat_model.value}"
           + ("" if tail is None else f" tail={tail}") + ("" if start is None else " start=table"))
    kit = TableKit(facts, Provenance(solver_name(Backend.CPSAT, cpsat_model), run, seed), word_cap=word_cap,
                   seed=seed, budget=budget, progress=progress)
    problem, hint, first = starting_placement(kit, facts, start)
    upper = problem.width
    bound = kit.bounds.best

    def table_of(placement: Chosen, width: int, how: str) -> Table:
        return kit.make_table(assign_rows(kit.placed(problem, placement), kit.cg.degree), width, "repack", how)

    limits.offer(table_of(hint, upper, f"cpsat: {first} (not yet narrowed)"))
    kit.log(f"{first}: T={upper}; narrowing it (CP-SAT, {workers} workers)")
    if tail is not None:
        how = f"cpsat: {first}, then the last {tail}+ columns repacked"
        chosen, width = repack_tail(problem, hint, tail=tail, round_s=round_s, budget=kit.clock.budget, lower=bound,
                                    seed=seed, workers=workers, progress=kit.log,
                                    on_better=lambda p, w: limits.offer(table_of(p, w, how)))
        table = table_of(chosen, width, how)
        return _outcome(kit, table, f"{facts.spec}: T = {width} (best bound {bound}, "
                                    f"{optimality_text(width, bound)}) after repacking; verified")
    backend = cpsat_module(cpsat_model)
    label = cpsat_label(cpsat_model)
    with limits.phase(f"minimise width ({label})"):
        step = backend.minimize_width(problem, lower=bound, hint=hint, seed=seed,
                                      timeout_s=max(kit.clock.left, 0.05), workers=workers, log=log)
    kit.log(f"cpsat: {step.status}, width {step.width}, CP-SAT bound {step.bound} (not a certificate), "
            f"{step.seconds:.1f}s")
    if step.result is not SolveResult.SAT:
        return _outcome(kit, None, f"{facts.spec}: no table: CP-SAT ended {step.status} without a "
                                   f"placement of width {upper} or less (nothing is proved)")
    table = table_of(step.chosen, step.width, f"{label}: width minimised from the {first}")
    return _outcome(kit, table, f"{facts.spec}: T = {table.T} (best bound {bound}, "
                                f"{optimality_text(table.T, bound)}; CP-SAT bound {step.bound}, not a "
                                f"certificate); verified")


def _outcome(kit: TableKit, table: Table | None, summary: str) -> Outcome:
    """The repack's outcome: FOUND with a table, UNKNOWN without one."""
    return Outcome("repack", Status.FOUND if table is not None else Status.UNKNOWN, table, summary,
                   kit.bounds, kit.clock.elapsed)
