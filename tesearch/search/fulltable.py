"""One width of the whole-table SAT model decided: a verified table, an unsat with its DRAT proof, or unknown.

The model is :mod:`tesearch.solvers.fulltable` (every shortest word of every target, every first column,
no letter twice in a column, the reversal and letter-automorphism symmetries broken); the solver is CaDiCaL
1.9.5 through python-sat with proof output.  A satisfying assignment becomes a table through
:class:`~tesearch.tables.build.TableBuilder` (laid into rows by interval colouring, verified); an
unsatisfiable one keeps the solver's DRAT proof, which the certificate's checker checks against the
kernel's own rebuild of the CNF (:mod:`tesearch.checking.kernel.fullcnf`).  A timeout or an interruption
is ``unknown``, never unsat.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tesearch.facts.instance import Instance
from tesearch.running.terms import SolveResult
from tesearch.solvers.fulltable import FullTableCnf, build_fulltable_cnf
from tesearch.tables.build import Provenance, TableBuilder
from tesearch.tables.layout import assign_rows
from tesearch.tables.table import Table

#: the python-sat solver that decides the model and writes the DRAT proof
SAT_SOLVER = "cadical195"
#: the strategy name a table made here records
STRATEGY = "full-table-sat"


@dataclass
class WidthOutcome:
    """What one width's solve gave: sat with a verified table, unsat with the proof lines, or unknown."""

    width: int
    result: SolveResult
    seconds: float  # solver time (wall clock)
    build_seconds: float
    variables: int
    clauses: int
    table: Table | None = None
    proof: list[str] | None = None
    cnf: FullTableCnf | None = None
    reason: str = ""
    cpu_seconds: float = 0.0  # the solver's CPU time (the machine is shared: wall clock follows the load)


def model_inputs(facts: Instance) -> tuple[list, list, dict, list]:
    """(letters, generators, distances, targets) as permutations, what the CNF builder takes."""
    cg = facts.cg
    elements = [tuple(int(x) for x in row) for row in cg.elements]
    dist = {p: int(d) for p, d in zip(elements, cg.dist)}
    gens = [tuple(facts.network.generators[s]) for s in facts.network.letters]
    targets = [elements[int(i)] for i in facts.targets]
    return list(facts.network.letters), gens, dist, targets


def encode(facts: Instance, width: int, *, symmetry: bool = True, cut: tuple[int, ...] | None = None) -> FullTableCnf:
    """The whole-table CNF of ``facts`` at ``width`` (with the counting cut of letter weights ``cut``)."""
    letters, gens, dist, targets = model_inputs(facts)
    return build_fulltable_cnf(letters, gens, dist, targets, width, spec=facts.spec, exchange=facts.exchange.value,
                               symmetry=symmetry, cut=cut)


class Stopper:
    """Stops a running solve from another thread or a signal handler (Ctrl-C, a timeout): the solver's process
    is killed and the width's answer is unknown.  (python-sat's CaDiCaL does not honour ``interrupt()``, so
    the solver runs in a child process of its own.)"""

    def __init__(self):
        self.process = None
        self.stopped = False
        self.why = ""

    def stop(self, why: str) -> None:
        """Stop the solve now: its answer becomes unknown."""
        self.stopped, self.why = True, why
        process = self.process
        if process is not None and process.is_alive():
            process.kill()


def _solve_in_child(clauses: list[list[int]], proof: bool, pipe) -> None:
    """The child: solve, then send ("sat", model, cpu) or ("unsat", proof text, cpu); signals are the parent's."""
    import signal

    from pysat.solvers import Solver

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    began = time.process_time()
    solver = Solver(name=SAT_SOLVER, bootstrap_with=clauses, with_proof=proof)
    try:
        if solver.solve():
            pipe.send(("sat", solver.get_model(), time.process_time() - began))
        else:
            lines = solver.get_proof() if proof else []
            pipe.send(("unsat", "\n".join(lines) + "\n" if lines else "", time.process_time() - began))
    finally:
        solver.delete()
        pipe.close()


def process_cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of a live process (Linux /proc), 0.0 when it cannot be read."""
    import os

    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, TypeError):
        return 0.0


#: how often the parent looks at the clock and the stopper while the child solves
POLL_S = 0.2


def solve_width(facts: Instance, width: int, *, symmetry: bool = True, cut: tuple[int, ...] | None = None,
                proof: bool = True, timeout_s: float | None = None, stopper: Stopper | None = None,
                seed_note: str = "") -> WidthOutcome:
    """Decide whether a table of width ``width`` exists (module doc); the solver runs in a child process."""
    import multiprocessing

    started = time.perf_counter()
    cnf = encode(facts, width, symmetry=symmetry, cut=cut)
    build_seconds = time.perf_counter() - started
    stopper = stopper or Stopper()
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_solve_in_child, args=(cnf.clauses, proof, send), daemon=True)
    began = time.perf_counter()
    out = WidthOutcome(width, SolveResult.UNKNOWN, 0.0, build_seconds, cnf.variables, len(cnf.clauses), cnf=cnf)
    try:
        stopper.process = child
        child.start()
        send.close()
        answer, why = None, ""
        while answer is None:
            if stopper.stopped:
                why = stopper.why
                break
            if timeout_s is not None and time.perf_counter() - began >= timeout_s:
                why = f"timeout {timeout_s:g} s"  # this width's limit: the stopper stays ready for the next
                break
            if receive.poll(POLL_S):
                try:
                    answer = receive.recv()
                except EOFError:  # the child died without an answer
                    why = stopper.why or f"the solver's process ended (exit code {child.exitcode})"
                    break
        out.seconds = time.perf_counter() - began
        if answer is None:
            out.reason = why or "stopped"
            out.cpu_seconds = process_cpu_seconds(child.pid)
            return out
        kind, payload, out.cpu_seconds = answer
        if kind == "sat":
            out.result = SolveResult.SAT
            out.table = table_from_model(facts, cnf, payload, out.seconds, seed_note)
        else:
            out.result = SolveResult.UNSAT
            out.proof = payload.splitlines() if proof else None
        return out
    finally:
        stopper.process = None
        if child.is_alive():
            child.kill()
        child.join(timeout=5)
        receive.close()


def table_from_model(facts: Instance, cnf: FullTableCnf, model: list[int], seconds: float, note: str = "") -> Table:
    """The verified table a model of the CNF names (rows by interval colouring)."""
    placed = [(g, first, word) for g, first, word in cnf.words(model)]
    rows = assign_rows(placed, facts.network.degree)
    provenance = Provenance(solver=f"python-sat {SAT_SOLVER}", run=f"full-table CNF at width {cnf.width}"
                            + (f"; {note}" if note else ""), seed=0)
    return (TableBuilder(facts, "the full-table SAT model").place(rows)
            .finish(cnf.width, provenance.record(STRATEGY, "sat", seconds)))
