"""Lifts end to end: the factor table (searched, lifted, or given), the modes in turn, a verified table."""

from __future__ import annotations

import time

from tesearch.running import limits
from tesearch.solvers import Backend
from tesearch.tables.build import TableBuilder
from tesearch.facts.instance import Instance, instance
from tesearch.running.errors import LiftError, LiftImpossible, SpecError, TesearchError
from tesearch.tables.layout import assign_rows
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.networks.families import Network
from tesearch.tables.outcome import Outcome
from tesearch.search.core import SearchParams, Strategy, search
from tesearch.search.lift.cut import boundary_cut
from tesearch.search.lift.model import AssignMode, LiftParams, build_model, factor_words, ring_words, split_off
from tesearch.search.lift.solvers import decode, solve_cpsat, solve_z3
from tesearch.tables.table import Placement, Table
from tesearch.running.terms import Exchange, SolveResult, Status

def _searched(network: Network, timeout_s: float, backend: Backend, progress: Progress) -> Table | None:
    """The search's table of a factor, the search given ``timeout_s`` seconds (one step, as a solver call)."""
    run = search(instance(network, Exchange.TOTAL), SearchParams(Strategy.AUTO, backend=backend),
                 budget=Budget.current().part(seconds=timeout_s))
    progress(f"{network.spec}: search {run.status.value}, T = {run.T}")
    return run.table if run.status is Status.FOUND else None


def factor_table(network: Network, *, timeout_s: float, backend: Backend = Backend.Z3,
                 progress: Progress = quiet) -> Table:
    """The best total-exchange table of ``spec`` that search and lifts give, optimal when they reach it.

    A ring, or a torus with equal sides (it has a rotation, and the rotation
    search is fast there while a lift has no slack at all), is searched
    first; any other torus is lifted first, and searched when the lift
    leaves a gap.
    """
    bound = instance(network, Exchange.TOTAL).bounds.best
    liftable = network.is_product
    tries = ["search", "lift"] if not liftable or network.rotation is not None else ["lift", "search"]
    best: Table | None = None
    failures = []
    for how in tries:
        if how == "lift" and not liftable:
            continue
        try:
            table = (lifted_table(network, timeout_s=timeout_s, backend=backend, progress=progress).table
                     if how == "lift" else _searched(network, timeout_s, backend, progress))
        except LiftError as exc:
            failures.append(str(exc))
            continue
        if table is not None and (best is None or table.T < best.T):
            best = table
        if best is not None and best.T == bound:
            break
    if best is None:
        raise LiftError(f"{network.spec}: neither search nor a lift gave a table "
                        f"({'; '.join(failures) or 'search unknown'})")
    return best


def verified_factor(factor: Table, *, where: str) -> Table:
    """``factor`` if :func:`tesearch.tables.loading.judge_table` takes it; else a one-line error naming ``where``."""
    from tesearch.tables.loading import judge_table

    judged = judge_table(factor, where=where)
    if not judged.accepted:
        raise TesearchError(f"the factor table is refused: {judged.problem}", where=where)
    return factor


def lifted_table(network: Network | Instance, *, ring_index: int | None = None, factor: Table | None = None,
                 timeout_s: float = 120.0, modes: tuple[AssignMode, ...] = (AssignMode.FIXED, AssignMode.LATIN),
                 backend: Backend = Backend.Z3, progress: Progress = quiet) -> Outcome:
    """A verified table for the torus ``network`` lifted from a table of its other sides (an outcome FOUND;
    LiftImpossible (exit 2) when no lift of that factor table can exist, LiftError (exit 4) when none was found,
    with why).  ``timeout_s`` is one solver call's limit.

    See the package doc.

    ``factor`` is that table (letters as in the torus of the other sides);
    by default it comes from :func:`factor_table`.  The result is as wide as
    ``m * factor.T``, so it is optimal only when that meets the bound.
    """
    started = time.monotonic()
    facts = network if isinstance(network, Instance) else instance(network, Exchange.TOTAL)
    network = facts.network
    spec = network.spec
    if not network.is_product:
        raise SpecError(f"{spec}: a lift needs a product of at least two rings (a torus)")
    sides = [f.order for f in network.factors]
    if ring_index is None:  # split off the shortest side, keeping the longest ones in the factor
        ring_index = min(range(len(sides)), key=lambda i: (sides[i], i))
    ring, rest, letter_map = split_off(network, ring_index)
    sub = factor if factor is not None else factor_table(rest, timeout_s=timeout_s, backend=backend,
                                                         progress=progress)
    if sub.network != rest.spec or sub.exchange != Exchange.TOTAL.value:
        raise SpecError(f"{spec}: the factor table is for {sub.network} {sub.exchange}, not {rest.spec} total")
    hwords = factor_words(sub, letter_map)
    words = ring_words(ring)
    bounds = facts.bounds
    if len(words) * sub.T < bounds.best:  # no table is narrower than a lower bound: do not ask a solver
        raise LiftImpossible(f"{spec}: a lift of {ring.spec} over {rest.spec} (T = {sub.T}) is {len(words)} * {sub.T} "
                        f"= {len(words) * sub.T} wide, below the lower bound {bounds.best}")
    cut = boundary_cut(hwords, sub.T, words)
    if cut is not None:  # no mode can lift this factor table: say why instead of asking a solver
        raise LiftImpossible(f"{spec}: no lift of {ring.spec} over this {rest.spec} table (T = {sub.T}) exists in any "
                        f"mode: {cut.text()}")
    last = "no mode tried"
    for mode in modes:
        params = LiftParams(network.spec, ring_index, mode, max(limits.budget(timeout_s), 0.05), backend=backend)
        t0 = time.monotonic()
        with limits.phase(f"build lift model ({mode.value})"):
            model = build_model(params, hwords, sub.T, words)
        built = time.monotonic() - t0
        with limits.phase(f"solve lift ({mode.value}, {backend.value})"):
            answer, chosen = solve_cpsat(model) if backend is Backend.CPSAT else solve_z3(model)
        took = time.monotonic() - t0
        progress(f"{params}: {answer.value} (width {model.width}, {model.size} options, "
                 f"built {built:.1f}s, total {took:.1f}s)")
        if answer is not SolveResult.SAT:
            last = f"{params}: {answer.value} after {took:.1f}s"
            continue
        placed = decode(model, chosen, hwords)
        rows = assign_rows(placed, len(network.letters))
        builder = TableBuilder(facts, f"the {mode.value} ring lift")
        table = builder.place_letters(Placement(r, c, w) for r, c, w in rows).finish(
            model.width, {"construction": {"method": "ring lift (tesearch/search/lift)",
                                           "ring": ring.spec, "factor": rest.spec, "factor_T": sub.T,
                                           "mode": mode.value, "backend": backend.value,
                                           "seconds": round(took, 1)}})
        return Outcome("lift", Status.FOUND, table, f"{spec}: T = {table.T}, best bound {bounds.best}: "
                       f"{builder.verdict(table)}; verified ({mode.value} lift of {ring.spec} over {rest.spec}, "
                       f"T = {sub.T})", bounds, time.monotonic() - started)
    raise LiftError(f"{spec}: no lift found ({last})")
