"""Narrowing the rotation search's greedy-core table: the core's width minimised by CP-SAT.

When no core at the bound is found, the rotation search keeps a table whose core holds the
exceptional elements packed by greedy first fit (blanks allowed) in front of the rotation blocks
(the rotation search's greedy-core table).  That table exceeds the bound by exactly
its core's excess width, ``core width - ceil((exceptional letters + allowed blanks) / S)``, because
the rotation blocks are full.  :func:`narrowed_core_table` shrinks that excess: rounds of
:func:`tesearch.solvers.cpsat.minimize_width` on the core alone, each round hinted with the best
placement so far and run with a fresh seed, while time is left and rounds still gain.  Only the core
is modelled, so this reaches networks whose whole model no solver holds (star-9, star-10,
torus-12x12x24:twisted).  Every narrower table is assembled, verified and offered to the supervisor,
so a time or memory limit writes the best one (Ctrl-C writes nothing).  CP-SAT's own lower bound is reported, never taken as a
certificate; a core at its exact width is a table at the bound, and then it is optimal by counting.
"""

from __future__ import annotations

from tesearch.running import limits
from tesearch.solvers import Backend, CpsatModel, cpsat, cpsat_label, cpsat_module
from tesearch.solvers.decide import solver_name
from tesearch.tables.build import Provenance
from tesearch.running.errors import ConstructionError
from tesearch.facts.instance import Instance, instance
from tesearch.running.limits import Budget, Progress, quiet
from tesearch.networks.families import Network
from tesearch.tables.outcome import Outcome
from tesearch.search.kit import TableKit
from tesearch.networks.symmetry import THE_ROTATION
from tesearch.tables.table import Table
from tesearch.running.terms import Exchange, SolveResult, Status, optimality_text
from tesearch.networks.words import DEFAULT_WORD_CAP

#: rounds in a row without a narrower core before the narrowing stops
MAX_STALE_ROUNDS = 3


def narrowed_core_table(network: Network | Instance, exchange: Exchange | str | None = None, *,
                        budget: Budget | None = None, round_s: float = 60.0, word_cap: int = DEFAULT_WORD_CAP, seed: int = 0,
                        workers: int = cpsat.DEFAULT_WORKERS, progress: Progress = quiet,
                        cpsat_model: CpsatModel = CpsatModel.PLACEMENTS, symmetry: str = THE_ROTATION) -> Outcome:
    """The greedy-core table of ``network`` (an instance, or a network and ``exchange``, default total) with its
    core narrowed by CP-SAT (the placement or the interval model, ``cpsat_model``) within ``budget`` (default:
    the command's), each round at most ``round_s`` seconds: an outcome FOUND with the verified table.
    ``symmetry`` names the letter group whose free orbits are the blocks (default: the rotation)."""
    facts = network if isinstance(network, Instance) else instance(network, exchange or Exchange.TOTAL)
    if exchange is not None and Exchange(exchange) is not facts.exchange:
        raise AssertionError(f"a {facts.exchange.value} instance for a narrowing of {Exchange(exchange).value}")
    cpsat_model = CpsatModel(cpsat_model)
    backend = cpsat_module(cpsat_model)
    run = (f"{facts.name} narrow cap={word_cap} seed={seed} model={cpsat_model.value}"
           + ("" if symmetry == THE_ROTATION else f" symmetry={symmetry}"))
    kit = TableKit(facts, Provenance(solver_name(Backend.CPSAT, cpsat_model), run, seed), word_cap=word_cap,
                   seed=seed, symmetry=symmetry, budget=budget, progress=progress)
    if kit.rotation is None:
        raise ConstructionError(f"{facts.spec} has no rotation; narrow its greedy table with `tesearch repack`")
    full, short, lengths, blanks = kit.orbit_classes
    exceptional = [g for o in short for g in o]
    if not exceptional:
        raise ConstructionError(f"{facts.name} has no exceptional element: the rotation blocks alone meet the "
                                f"bound (use tesearch search)")
    S = kit.cg.degree
    exact = -(-(int(kit.cg.dist[exceptional].sum()) + blanks) // S)
    kit.core_balance(exceptional, full, lengths, blanks)  # adds the words of every letter-count vector
    items, width, greedy = kit.greedy_core(exceptional)
    index = {it.element: i for i, it in enumerate(items)}
    best = [(index[g], items[index[g]].words.index(w), c) for g, c, w in greedy]
    problem = kit.problem(f"{facts.name} core", width, items)
    how = f"{cpsat_label(cpsat_model)}: greedy first-fit core, width minimised, + {kit.blocks_name} blocks"

    def table_of(placement, core_width: int) -> Table:
        return kit.assemble(kit.placed(problem, placement), core_width, full, [], strategy="narrow", method=how)

    table = table_of(best, width)
    limits.offer(table)
    kit.log(f"greedy core width {width} (exact width {exact}): T = {table.T}, bound {kit.bounds.best}")
    rounds = stale = 0
    cpsat_bound = exact
    with limits.phase("narrow core (cpsat)"):
        while width > exact and stale < MAX_STALE_ROUNDS and kit.clock.left > 0:
            step = backend.minimize_width(problem, lower=exact, hint=best, seed=seed + rounds,
                                          timeout_s=min(round_s, kit.clock.left), workers=workers)
            rounds += 1
            cpsat_bound = max(cpsat_bound, step.bound)
            if step.result is SolveResult.SAT and step.width < width:
                best, width, stale = step.chosen, step.width, 0
                table = table_of(best, width)
                limits.offer(table)
            else:
                stale += 1
            kit.log(f"round {rounds}: core width {width} ({step.status}, {step.seconds:.1f}s); T = {table.T}")
            if step.result is SolveResult.UNSAT or step.status == "OPTIMAL":
                break  # this core (with these candidate words) is as narrow as it gets
    best_bound = kit.bounds.best
    summary = (f"{facts.name}: T = {table.T} (best bound {best_bound}, "
               f"{optimality_text(table.T, best_bound)}) after {rounds} round(s); core width {width}, "
               f"exact width {exact}, CP-SAT core bound {cpsat_bound} (not a certificate); verified")
    return Outcome("narrow", Status.FOUND, table, summary, kit.bounds, kit.clock.elapsed)
