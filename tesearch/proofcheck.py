"""Independent confirmation of impossibility claims: solvers, CNF and DRAT.

An impossibility claim rests on an SMT-LIB2 encoding that Z3 found unsat.  This
module re-establishes that by means that do not trust Z3's answer:

* :func:`to_standard_smtlib2` rewrites Z3's pseudo-Boolean extensions
  (``(_ pbeq k c1 .. cn)``, ``(_ pble ..)``, ``(_ pbge ..)``, ``(_ at-most k)``,
  ``(_ at-least k)``) into standard QF_LIA sums of ``(ite x c 0)`` so that
  cvc5 can read the same problem (:func:`run_cvc5`);
* :func:`to_cnf` translates the Boolean + pseudo-Boolean encoding directly to
  CNF (Tseitin for the Boolean structure, a sequential weighted counter for
  every PB constraint) in pure Python, without Z3's tactics;
* :func:`run_sat_with_proof` runs a PySAT solver (CaDiCaL) on that CNF with
  proof logging, and :func:`check_drat` checks the DRUP/DRAT proof forward in
  pure Python (RUP for every lemma, RAT on the first literal when RUP fails),
  so the proof can be re-checked where no solver is installed.

Parsing is a plain s-expression reader (:func:`parse_sexprs`); constructs
outside the Boolean + PB fragment raise :class:`Unsupported`, and the caller
records the confirmation as unchecked, never as passed.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

from tesearch.terms import SolveResult

#: above this many clauses the direct CNF translation gives up (the proof check would be too slow anyway)
MAX_CNF_CLAUSES = 2_000_000
#: the SAT solver used for proofs (PySAT name); CaDiCaL writes DRAT
SAT_SOLVER = "cadical195"


class Unsupported(Exception):
    """The encoding uses a construct outside what this module translates."""


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------- s-expressions

SExpr = str | list  # an atom or a list of s-expressions


def _tokens(text: str):
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif ch in "()":
            yield ch
            i += 1
        elif ch == "|":
            j = text.index("|", i + 1)
            yield text[i:j + 1]
            i = j + 1
        elif ch == '"':
            j = i + 1
            while True:
                j = text.index('"', j)
                if j + 1 < n and text[j + 1] == '"':  # "" escapes a quote
                    j += 2
                    continue
                break
            yield text[i:j + 1]
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '();|"':
                j += 1
            yield text[i:j]
            i = j


def parse_sexprs(text: str) -> list[SExpr]:
    """All top-level s-expressions of an SMT-LIB2 script."""
    stack: list[list] = [[]]
    try:
        for tok in _tokens(text):
            if tok == "(":
                stack.append([])
            elif tok == ")":
                if len(stack) == 1:
                    raise Unsupported("unbalanced ')' in the SMT-LIB2 script")
                done = stack.pop()
                stack[-1].append(done)
            else:
                stack[-1].append(tok)
    except ValueError:
        raise Unsupported("unterminated quoted symbol or string in the SMT-LIB2 script") from None
    if len(stack) != 1:
        raise Unsupported("unbalanced '(' in the SMT-LIB2 script")
    return stack[0]


def format_sexpr(expr: SExpr) -> str:
    if isinstance(expr, str):
        return expr
    return "(" + " ".join(format_sexpr(e) for e in expr) + ")"


def _pb_head(expr: SExpr) -> tuple[str, int, list[int]] | None:
    """(kind, bound, coefficients) of a Z3 PB operator ``(_ pbeq k c..)`` etc., else None."""
    if not (isinstance(expr, list) and len(expr) >= 3 and expr[0] == "_"
            and expr[1] in ("pbeq", "pble", "pbge", "at-most", "at-least")):
        return None
    try:
        numbers = [int(x) for x in expr[2:]]
    except (TypeError, ValueError):
        raise Unsupported(f"non-numeric parameter in {format_sexpr(expr)}") from None
    kind = expr[1]
    if kind in ("at-most", "at-least"):
        return ("le" if kind == "at-most" else "ge"), numbers[0], []
    return {"pbeq": "eq", "pble": "le", "pbge": "ge"}[kind], numbers[0], numbers[1:]


def _int_literal(value: int) -> str:
    return str(value) if value >= 0 else f"(- {-value})"


def _standardise(expr: SExpr) -> SExpr:
    if isinstance(expr, str):
        return expr
    if expr and (head := _pb_head(expr[0])) is not None:
        kind, bound, coeffs = head
        args = [_standardise(a) for a in expr[1:]]
        coeffs = coeffs or [1] * len(args)
        if len(coeffs) != len(args):
            raise Unsupported(f"{format_sexpr(expr[0])} has {len(coeffs)} coefficients for {len(args)} arguments")
        terms: list[SExpr] = [["ite", a, _int_literal(c), "0"] for a, c in zip(args, coeffs)]
        total: SExpr = "0" if not terms else terms[0] if len(terms) == 1 else ["+", *terms]
        op = {"eq": "=", "le": "<=", "ge": ">="}[kind]
        return [op, total, _int_literal(bound)]
    return [_standardise(e) for e in expr]


def to_standard_smtlib2(text: str) -> str:
    """The script with Z3's PB operators rewritten as standard QF_LIA (for cvc5).

    Comments are dropped; a ``(set-logic QF_LIA)`` is added if there is none.
    """
    commands = parse_sexprs(text)
    out = []
    if not any(isinstance(c, list) and c and c[0] == "set-logic" for c in commands):
        out.append("(set-logic QF_LIA)")
    for command in commands:
        if isinstance(command, list) and command and command[0] == "set-logic":
            out.append("(set-logic QF_LIA)")
        else:
            out.append(format_sexpr(_standardise(command)))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- CNF

@dataclass
class Cnf:
    variables: int
    clauses: list[list[int]]
    names: dict[str, int] = field(default_factory=dict)  # declared Boolean -> variable

    def dimacs(self) -> str:
        lines = [f"p cnf {self.variables} {len(self.clauses)}"]
        lines += [" ".join(map(str, c)) + " 0" for c in self.clauses]
        return "\n".join(lines) + "\n"

    @property
    def sha256(self) -> str:
        return sha256_text(self.dimacs())


class _CnfBuilder:
    def __init__(self):
        self.variables = 0
        self.clauses: list[list[int]] = []
        self.names: dict[str, int] = {}
        self._true: int | None = None

    def fresh(self) -> int:
        self.variables += 1
        return self.variables

    def add(self, clause: list[int]) -> None:
        self.clauses.append(clause)
        if len(self.clauses) > MAX_CNF_CLAUSES:
            raise Unsupported(f"the CNF form has more than {MAX_CNF_CLAUSES} clauses")

    def true(self) -> int:
        if self._true is None:
            self._true = self.fresh()
            self.add([self._true])
        return self._true

    # -- Boolean structure (Tseitin) ------------------------------------
    def literal(self, expr: SExpr, env: dict) -> int:
        if isinstance(expr, str):
            if expr in env:
                return env[expr]
            if expr == "true":
                return self.true()
            if expr == "false":
                return -self.true()
            if expr in self.names:
                return self.names[expr]
            raise Unsupported(f"unknown symbol {expr!r}")
        if not expr:
            raise Unsupported("empty expression")
        head, args = expr[0], expr[1:]
        if _pb_head(head) is not None:
            raise Unsupported("a pseudo-Boolean constraint below the top level of an assertion")
        if head == "let":
            inner = dict(env)
            for name, value in expr[1]:
                inner[name] = self.literal(value, env)
            return self.literal(expr[2], inner)
        lits = [self.literal(a, env) for a in args]
        if head == "not" and len(lits) == 1:
            return -lits[0]
        if head == "and":
            return self._gate_and(lits)
        if head == "or":
            return -self._gate_and([-x for x in lits])
        if head == "=>" and len(lits) >= 2:
            return -self._gate_and([*lits[:-1], -lits[-1]])
        if head in ("=", "xor") and len(lits) == 2:
            a, b = lits
            x = self.fresh()  # x <-> (a xor b)
            for clause in ([-x, a, b], [-x, -a, -b], [x, -a, b], [x, a, -b]):
                self.add(clause)
            return -x if head == "=" else x
        if head == "ite" and len(lits) == 3:
            c, a, b = lits
            x = self.fresh()
            for clause in ([-c, -a, x], [-c, a, -x], [c, -b, x], [c, b, -x]):
                self.add(clause)
            return x
        raise Unsupported(f"operator {format_sexpr(head)!r} is outside the Boolean + PB fragment")

    def _gate_and(self, lits: list[int]) -> int:
        if not lits:
            return self.true()
        if len(lits) == 1:
            return lits[0]
        x = self.fresh()
        for a in lits:
            self.add([-x, a])
        self.add([x, *(-a for a in lits)])
        return x

    # -- top-level assertions ------------------------------------------
    def assertion(self, expr: SExpr, env: dict) -> None:
        if isinstance(expr, list) and expr:
            head = expr[0]
            if head == "and":
                for a in expr[1:]:
                    self.assertion(a, env)
                return
            if head == "let":
                inner = dict(env)
                for name, value in expr[1]:
                    inner[name] = self.literal(value, env)
                self.assertion(expr[2], inner)
                return
            if (pb := _pb_head(head)) is not None:
                self.pb_constraint(pb, [self.literal(a, env) for a in expr[1:]], negated=False)
                return
            if head == "not" and len(expr) == 2 and isinstance(expr[1], list) and expr[1] \
                    and (pb := _pb_head(expr[1][0])) is not None and pb[0] != "eq":
                self.pb_constraint(pb, [self.literal(a, env) for a in expr[1][1:]], negated=True)
                return
            if head == "or":
                self.add([self.literal(a, env) for a in expr[1:]])
                return
        self.add([self.literal(expr, env)])

    def pb_constraint(self, pb: tuple[str, int, list[int]], lits: list[int], *, negated: bool) -> None:
        kind, bound, coeffs = pb
        coeffs = coeffs or [1] * len(lits)
        if len(coeffs) != len(lits):
            raise Unsupported(f"a PB constraint has {len(coeffs)} coefficients for {len(lits)} arguments")
        if negated:  # not (sum <= k) is sum >= k+1; not (sum >= k) is sum <= k-1
            kind, bound = ("ge", bound + 1) if kind == "le" else ("le", bound - 1)
        terms = list(zip(coeffs, lits))
        if kind in ("le", "eq"):
            self.at_most(terms, bound)
        if kind in ("ge", "eq"):
            # sum c x >= k  <=>  sum c (not x) <= sum c - k
            self.at_most([(c, -x) for c, x in terms], sum(coeffs) - bound)

    def at_most(self, terms: list[tuple[int, int]], bound: int) -> None:
        """sum c_i x_i <= bound by a sequential weighted counter (Hoelldobler et al. 2012)."""
        normal = []
        for c, x in terms:  # negative coefficients: c x = c - c (not x)
            if c < 0:
                bound -= c
                c, x = -c, -x
            if c:
                normal.append((c, x))
        if bound < 0:
            self.add([])  # unsatisfiable; an empty clause
            return
        if sum(c for c, _ in normal) <= bound:
            return
        kept = []
        for c, x in normal:
            if c > bound:
                self.add([-x])
            else:
                kept.append((c, x))
        if len(kept) <= 1 or sum(c for c, _ in kept) <= bound:
            return
        # s[i][j-1]: the first i+1 terms sum to at least j (j = 1..bound); upward implications only
        prev: list[int] | None = None
        for i, (c, x) in enumerate(kept):
            last = i == len(kept) - 1
            if prev is not None:
                self.add([-prev[bound - c], -x])  # prefix >= bound+1-c and x: overflow
            if last:
                break
            cur = [self.fresh() for _ in range(bound)]
            for j in range(1, c + 1):
                self.add([-x, cur[j - 1]])
            if prev is not None:
                for j in range(1, bound + 1):
                    self.add([-prev[j - 1], cur[j - 1]])
                for j in range(1, bound - c + 1):
                    self.add([-prev[j - 1], -x, cur[j + c - 1]])
            prev = cur


def to_cnf(text: str) -> Cnf:
    """The CNF form of a Boolean + pseudo-Boolean SMT-LIB2 script (equisatisfiable)."""
    builder = _CnfBuilder()
    check_sats = 0
    for command in parse_sexprs(text):
        if not isinstance(command, list) or not command:
            raise Unsupported(f"unexpected top-level token {format_sexpr(command)!r}")
        head = command[0]
        if head in ("set-logic", "set-info", "set-option", "exit", "get-model", "get-info"):
            continue
        if head == "check-sat":
            check_sats += 1
            continue
        if head == "declare-fun" and len(command) == 4 and command[2] == [] and command[3] == "Bool" \
                or head == "declare-const" and len(command) == 3 and command[2] == "Bool":
            name = command[1]
            if name in builder.names:
                raise Unsupported(f"{name!r} is declared twice")
            builder.names[name] = builder.fresh()
            continue
        if head == "assert" and len(command) == 2:
            builder.assertion(command[1], {})
            continue
        raise Unsupported(f"command {format_sexpr(command)[:80]!r} is outside the Boolean + PB fragment")
    if check_sats != 1:
        raise Unsupported(f"the script has {check_sats} (check-sat) commands, expected one")
    return Cnf(builder.variables, builder.clauses, builder.names)


def parse_dimacs(text: str) -> Cnf:
    variables, clauses, current = 0, [], []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("p"):
            variables = int(line.split()[2])
            continue
        for tok in line.split():
            lit = int(tok)
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if current:
        raise ValueError("the last DIMACS clause is not terminated by 0")
    return Cnf(variables, clauses)


# ---------------------------------------------------------------- DRAT checking

@dataclass
class ProofCheck:
    accepted: bool
    lemmas: int
    deletions: int
    rat_lemmas: int
    seconds: float
    reason: str  # why it was accepted or rejected

    def to_json(self) -> dict:
        return {"accepted": self.accepted, "lemmas": self.lemmas, "deletions": self.deletions,
                "rat_lemmas": self.rat_lemmas, "seconds": round(self.seconds, 3), "reason": self.reason}


class _Propagator:
    """Clause database with two watched literals and a persistent top-level trail."""

    def __init__(self, variables: int):
        self.value = [0] * (variables + 1)  # 0 unassigned, 1 true, -1 false (by variable)
        self.trail: list[int] = []
        self.clauses: list[list[int]] = []
        self.alive: list[bool] = []
        self.watches: dict[int, list[int]] = {}
        self.by_key: dict[tuple[int, ...], list[int]] = {}
        self.by_literal: dict[int, list[int]] = {}  # every clause ever added, by literal (for RAT)
        self.conflict = False  # the top level is contradictory: the empty clause is derived

    def grow(self, var: int) -> None:
        if var >= len(self.value):
            self.value.extend([0] * (var + 1 - len(self.value)))

    def lit_value(self, lit: int) -> int:
        v = self.value[abs(lit)]
        return v if lit > 0 else -v

    def assign(self, lit: int) -> None:
        self.value[abs(lit)] = 1 if lit > 0 else -1
        self.trail.append(lit)

    def undo(self, length: int) -> None:
        while len(self.trail) > length:
            self.value[abs(self.trail.pop())] = 0

    def propagate(self, start: int) -> bool:
        """Unit propagation from trail[start:]; True on a conflict."""
        i = start
        value, clauses, alive, watches = self.value, self.clauses, self.alive, self.watches
        while i < len(self.trail):
            false_lit = -self.trail[i]
            i += 1
            watching = watches.get(false_lit)
            if not watching:
                continue
            keep = []
            conflict = False
            for n, cid in enumerate(watching):
                if conflict:
                    keep.append(cid)
                    continue
                if not alive[cid]:
                    continue
                clause = clauses[cid]
                if clause[0] == false_lit:
                    clause[0], clause[1] = clause[1], clause[0]
                other = clause[0]
                ov = value[abs(other)]
                if (ov if other > 0 else -ov) == 1:
                    keep.append(cid)
                    continue
                for k in range(2, len(clause)):
                    lit = clause[k]
                    lv = value[abs(lit)]
                    if (lv if lit > 0 else -lv) != -1:
                        clause[1], clause[k] = lit, clause[1]
                        watches.setdefault(lit, []).append(cid)
                        break
                else:
                    keep.append(cid)
                    if (ov if other > 0 else -ov) == -1:
                        conflict = True
                    else:
                        self.assign(other)
            watches[false_lit] = keep
            if conflict:
                return True
        return False

    def add_clause(self, clause: list[int]) -> None:
        """Add a clause to the database and propagate at the top level."""
        clause = list(dict.fromkeys(clause))
        for lit in clause:
            self.grow(abs(lit))
        cid = len(self.clauses)
        self.clauses.append(clause)
        self.alive.append(True)
        self.by_key.setdefault(tuple(sorted(clause)), []).append(cid)
        for lit in clause:
            self.by_literal.setdefault(lit, []).append(cid)
        if self.conflict:
            return
        if any(-lit in clause for lit in clause):
            self.alive[cid] = False  # a tautology never propagates
            return
        # order: non-false literals first, so the watches are sound at the top level
        clause.sort(key=lambda lit: self.lit_value(lit) == -1)
        if not clause or self.lit_value(clause[0]) == -1:
            self.conflict = True
            return
        if len(clause) == 1 or self.lit_value(clause[1]) == -1:
            if self.lit_value(clause[0]) == 0:
                start = len(self.trail)
                self.assign(clause[0])
                if self.propagate(start):
                    self.conflict = True
            if len(clause) == 1:
                return
        self.watches.setdefault(clause[0], []).append(cid)
        self.watches.setdefault(clause[1], []).append(cid)

    def delete_clause(self, clause: list[int]) -> bool:
        ids = self.by_key.get(tuple(sorted(set(clause))))
        while ids:
            cid = ids.pop()
            if self.alive[cid]:
                if len(set(clause)) > 1:  # unit deletions are ignored, as drat-trim does
                    self.alive[cid] = False
                return True
        return False

    def is_rup(self, clause: list[int]) -> bool:
        if self.conflict:
            return True
        start = len(self.trail)
        conflict = False
        for lit in clause:
            self.grow(abs(lit))
            v = self.lit_value(lit)
            if v == 1:
                conflict = True
                break
            if v == 0:
                self.assign(-lit)
        if not conflict:
            conflict = self.propagate(start)
        self.undo(start)
        return conflict

    def is_rat(self, clause: list[int]) -> bool:
        """RAT on the first literal, against every clause ever added (deletions ignored: still sound)."""
        if not clause:
            return False
        pivot = clause[0]
        for cid in list(self.by_literal.get(-pivot, [])):
            resolvent = list(dict.fromkeys(clause + [x for x in self.clauses[cid] if x != -pivot]))
            if any(-x in resolvent for x in resolvent):
                continue
            if not self.is_rup(resolvent):
                return False
        return True


def check_drat(cnf: Cnf, proof_text: str) -> ProofCheck:
    """Check a textual DRUP/DRAT refutation of ``cnf`` forward; accepted only if the empty clause follows."""
    started = time.perf_counter()
    prop = _Propagator(cnf.variables)
    for clause in cnf.clauses:
        prop.add_clause(clause)
    lemmas = deletions = rat = 0

    def result(accepted: bool, reason: str) -> ProofCheck:
        return ProofCheck(accepted, lemmas, deletions, rat, time.perf_counter() - started, reason)

    if prop.conflict:
        return result(True, "the formula is refuted by unit propagation alone")
    for number, line in enumerate(proof_text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        delete = line.startswith("d")
        try:
            lits = [int(tok) for tok in (line[1:] if delete else line).split()]
        except ValueError:
            return result(False, f"proof line {number} is not a clause: {line[:60]!r}")
        if not lits or lits[-1] != 0 or 0 in lits[:-1]:
            return result(False, f"proof line {number} is not terminated by a single 0")
        clause = lits[:-1]
        if delete:
            deletions += 1
            prop.delete_clause(clause)
            continue
        lemmas += 1
        if not prop.is_rup(clause):
            if prop.is_rat(clause):
                rat += 1
            else:
                return result(False, f"lemma {lemmas} (proof line {number}: {line[:60]}) is neither RUP nor RAT")
        if not clause:
            return result(True, f"the empty clause is derived at lemma {lemmas}")
        prop.add_clause(clause)
        if prop.conflict:
            return result(True, f"unit propagation refutes the formula after lemma {lemmas}")
    return result(False, "the proof ends without deriving the empty clause")


# ---------------------------------------------------------------- solvers

@dataclass
class SolverRun:
    solver: str
    version: str | None
    result: SolveResult | None  # None: the solver could not run (see reason)
    seconds: float
    reason: str = ""

    def to_json(self) -> dict:
        return {"solver": self.solver, "version": self.version,
                "result": self.result.value if self.result is not None else None,
                "seconds": round(self.seconds, 3), **({"reason": self.reason} if self.reason else {})}


def z3_version() -> str:
    import z3

    return z3.get_version_string()


def cvc5_version() -> str | None:
    try:
        import cvc5
    except ImportError:
        return None
    return getattr(cvc5, "__version__", "unknown")


def pysat_version() -> str | None:
    try:
        import pysat
    except ImportError:
        return None
    return getattr(pysat, "__version__", "unknown")


def run_z3(text: str, timeout_s: float) -> SolverRun:
    """Z3 on the script's assertions (its own SMT-LIB2 reader)."""
    import z3

    started = time.perf_counter()
    solver = z3.Solver()
    solver.set("timeout", max(1, int(timeout_s * 1000)))
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
    solver.setOption("tlimit-per", str(max(1, int(timeout_s * 1000))))
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
