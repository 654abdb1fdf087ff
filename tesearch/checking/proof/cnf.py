"""A Boolean + pseudo-Boolean SMT-LIB2 script translated to CNF in pure Python (no solver).

Tseitin for the Boolean structure, a sequential weighted counter for every PB constraint.
Imports: the standard library and tesearch.checking.proof.sexpr / rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tesearch.checking.proof.rewrite import pb_head
from tesearch.checking.proof.sexpr import SExpr, Unsupported, format_sexpr, parse_sexprs, sha256_text

#: above this many clauses the direct CNF translation gives up (the proof check would be too slow anyway)
MAX_CNF_CLAUSES = 2_000_000


@dataclass
class Cnf:
    """A CNF formula: variable count, clauses as lists of literals, declared Booleans' variables."""

    variables: int
    clauses: list[list[int]]
    names: dict[str, int] = field(default_factory=dict)  # declared Boolean -> variable

    def dimacs(self) -> str:
        """The formula in DIMACS form."""
        lines = [f"p cnf {self.variables} {len(self.clauses)}"]
        lines += [" ".join(map(str, c)) + " 0" for c in self.clauses]
        return "\n".join(lines) + "\n"

    @property
    def sha256(self) -> str:
        """sha256 of the DIMACS form."""
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
        if pb_head(head) is not None:
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
            if (pb := pb_head(head)) is not None:
                self.pb_constraint(pb, [self.literal(a, env) for a in expr[1:]], negated=False)
                return
            if head == "not" and len(expr) == 2 and isinstance(expr[1], list) and expr[1] \
                    and (pb := pb_head(expr[1][0])) is not None and pb[0] != "eq":
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


def parse_dimacs(text: str, where: str = "DIMACS") -> Cnf:
    """A DIMACS file (comment lines, one ``p cnf V C`` line, clauses ending in 0) as a Cnf; Unsupported if malformed."""
    variables, declared, clauses, current = None, None, [], []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("p"):
            parts = line.split()
            if variables is not None or len(parts) != 4 or parts[1] != "cnf" or not all(p.isdigit() for p in parts[2:]):
                raise Unsupported(f"{where}: line {number}: not one 'p cnf V C' line")
            variables, declared = int(parts[2]), int(parts[3])
            continue
        if variables is None:
            raise Unsupported(f"{where}: line {number}: a clause before the 'p cnf' line")
        for token in line.split():
            try:
                lit = int(token)
            except ValueError:
                raise Unsupported(f"{where}: line {number}: {token!r} is not a literal") from None
            if abs(lit) > variables:
                raise Unsupported(f"{where}: line {number}: literal {lit} beyond {variables} variables")
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if variables is None or current or len(clauses) != declared:
        raise Unsupported(f"{where}: {len(clauses)} whole clauses, the 'p cnf' line declares {declared}")
    return Cnf(variables, clauses)
