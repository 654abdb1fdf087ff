"""Independent confirmation of impossibility claims: SMT-LIB2 reading, rewriting, CNF, DRAT, solvers.

An impossibility claim rests on an SMT-LIB2 encoding that Z3 found unsat.  This
package re-establishes that by means that do not trust Z3's answer:

* :mod:`~tesearch.checking.proof.sexpr`: a plain s-expression reader (:func:`parse_sexprs`) and the hashes;
* :mod:`~tesearch.checking.proof.rewrite`: :func:`to_standard_smtlib2` rewrites Z3's pseudo-Boolean extensions
  into standard QF_LIA so that cvc5 can read the same problem;
* :mod:`~tesearch.checking.proof.cnf`: :func:`to_cnf` translates the Boolean + PB encoding to CNF in pure Python;
* :mod:`~tesearch.checking.proof.drat`: :func:`check_drat` checks a DRUP/DRAT proof forward in pure Python, so a
  proof can be re-checked where no solver is installed;
* :mod:`~tesearch.checking.proof.solvers`: :func:`run_z3`, :func:`run_cvc5`, :func:`run_sat_with_proof`
  (each solver imported inside its run function).

Constructs outside the Boolean + PB fragment raise :class:`Unsupported`, and the caller records
the confirmation as unchecked, never as passed.  Importing this package imports no solver.
"""

from tesearch.checking.proof.cnf import MAX_CNF_CLAUSES, Cnf, parse_dimacs, to_cnf
from tesearch.checking.proof.drat import ProofCheck, check_drat
from tesearch.checking.proof.rewrite import to_standard_smtlib2
from tesearch.checking.proof.sexpr import SExpr, Unsupported, format_sexpr, parse_sexprs, sha256_bytes, sha256_text
from tesearch.checking.proof.solvers import (SAT_SOLVER, SolverRun, cvc5_version, pysat_version, run_cvc5, run_sat_with_proof,
                                    run_z3, z3_version)

__all__ = [
    "Cnf", "MAX_CNF_CLAUSES", "parse_dimacs", "ProofCheck", "SAT_SOLVER", "SExpr", "SolverRun", "Unsupported", "check_drat",
    "cvc5_version", "format_sexpr", "parse_sexprs", "pysat_version", "run_cvc5", "run_sat_with_proof", "run_z3",
    "sha256_bytes", "sha256_text", "to_cnf", "to_standard_smtlib2", "z3_version",
]
