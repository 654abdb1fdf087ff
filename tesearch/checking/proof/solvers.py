"""The solvers an impossibility claim may be re-run by: z3, cvc5, and a PySAT solver with a DRAT proof.

Each solver is imported inside its run function, so this module imports none of them: where a
solver is missing, its run says so (result None) and the claim's verdict records it as unchecked.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tesearch.checking.proof.cnf import Cnf
from tesearch.running.terms import SolveResult

#: the SAT solver used for proofs (PySAT name); CaDiCaL writes DRAT
SAT_SOLVER = "cadical195"


@dataclass
class SolverRun:
    """One solver run: which solver, its version, the three-valued result (None: did not run), time, why."""

    solver: str
    version: str | None
    result: SolveResult | None  # None: the solver could not run (see reason)
    seconds: float
    reason: str = ""

    def to_json(self) -> dict:
        """The run as a JSON object."""
        return {"solver": self.solver, "version": self.version,
                "result": self.result.value if self.result is not None else None,
                "seconds": round(self.seconds, 3), **({"reason": self.reason} if self.reason else {})}


def z3_version() -> str | None:
    """Z3's version, or None when it is not installed."""
    try:
        import z3
    except ImportError:
        return None
    return z3.get_version_string()


def cvc5_version() -> str | None:
    """cvc5's version, or None when it is not installed."""
    try:
        import cvc5
    except ImportError:
        return None
    return getattr(cvc5, "__version__", "unknown")


def pysat_version() -> str | None:
    """python-sat's version, or None when it is not installed."""
    try:
        import pysat
    except ImportError:
        return None
    return getattr(pysat, "__version__", "unknown")


#: the longest solver time limit passed on, in milliseconds (z3 and cvc5 take an unsigned 32-bit or 64-bit
#: count; 2^32 - 1 ms is 49 days, longer than any check is run): a larger --solver-timeout is this
MAX_TIMEOUT_MS = 2 ** 32 - 1


def timeout_ms(timeout_s: float) -> int:
    """A time limit in whole milliseconds, at least 1 and at most MAX_TIMEOUT_MS (inf and huge values clamp)."""
    if timeout_s != timeout_s:  # NaN
        return MAX_TIMEOUT_MS
    if timeout_s >= MAX_TIMEOUT_MS / 1000:
        return MAX_TIMEOUT_MS
    return max(1, int(timeout_s * 1000))


def run_z3(text: str, timeout_s: float) -> SolverRun:
    """Z3 on the script's assertions (its own SMT-LIB2 reader)."""
    if z3_version() is None:
        return SolverRun("z3", None, None, 0.0, "z3 is not installed")
    import z3

    started = time.perf_counter()
    solver = z3.Solver()
    solver.set("timeout", timeout_ms(timeout_s))
    try:
        solver.add(z3.parse_smt2_string(text))
    except z3.Z3Exception as exc:
        return SolverRun("z3", z3_version(), None, time.perf_counter() - started, f"z3 cannot parse the encoding: {exc}")
    answer = solver.check()
    result = SolveResult.SAT if answer == z3.sat else SolveResult.UNSAT if answer == z3.unsat else SolveResult.UNKNOWN
    reason = "" if result is not SolveResult.UNKNOWN else f"z3: {solver.reason_unknown()}"
    return SolverRun("z3", z3_version(), result, time.perf_counter() - started, reason)


def run_cvc5(standard_text: str, timeout_s: float) -> SolverRun:
    """cvc5 (Python API) on a standard SMT-LIB2 script with one (check-sat)."""
    version = cvc5_version()
    if version is None:
        return SolverRun("cvc5", None, None, 0.0, "cvc5 is not installed (pip install cvc5, or the 'proofs' extra)")
    import cvc5

    started = time.perf_counter()
    manager = cvc5.TermManager()
    solver = cvc5.Solver(manager)
    solver.setOption("tlimit-per", str(timeout_ms(timeout_s)))
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, standard_text, "encoding")
    symbols = parser.getSymbolManager()
    answers = []
    try:
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            out = command.invoke(solver, symbols)
            if isinstance(out, str) and out.strip():
                answers.append(out.strip())
    except RuntimeError as exc:
        return SolverRun("cvc5", version, None, time.perf_counter() - started, f"cvc5 error: {exc}")
    seconds = time.perf_counter() - started
    answer = answers[-1] if answers else ""
    result = {"sat": SolveResult.SAT, "unsat": SolveResult.UNSAT}.get(answer, SolveResult.UNKNOWN)
    return SolverRun("cvc5", version, result, seconds,
                     "" if result is not SolveResult.UNKNOWN else f"cvc5 answered {answer!r}")


def run_sat_with_proof(cnf: Cnf, solver_name: str = SAT_SOLVER) -> tuple[SolverRun, str | None]:
    """A PySAT solver with proof logging on ``cnf``: (run, DRAT proof text if unsat)."""
    version = pysat_version()
    label = f"{solver_name} (pysat)"
    if version is None:
        return SolverRun(label, None, None, 0.0, "python-sat is not installed (the 'proofs' extra)"), None
    from pysat.solvers import Solver

    started = time.perf_counter()
    with Solver(name=solver_name, bootstrap_with=cnf.clauses, with_proof=True) as solver:
        answer = solver.solve()
        seconds = time.perf_counter() - started
        if answer is True:
            return SolverRun(label, version, SolveResult.SAT, seconds), None
        if answer is False:
            proof = solver.get_proof() or []
            return SolverRun(label, version, SolveResult.UNSAT, seconds), "\n".join(proof) + "\n"
    return SolverRun(label, version, SolveResult.UNKNOWN, seconds, "the SAT solver gave no answer"), None
