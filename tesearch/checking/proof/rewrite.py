"""Z3's pseudo-Boolean operators rewritten as standard SMT-LIB2 (QF_LIA sums of ite), for cvc5.

``(_ pbeq k c1 .. cn)``, ``(_ pble ..)``, ``(_ pbge ..)``, ``(_ at-most k)`` and ``(_ at-least k)`` become
``(= / <= / >= (+ (ite x c 0) ...) k)``.  Imports: the standard library and tesearch.checking.proof.sexpr.
"""

from __future__ import annotations

from tesearch.checking.proof.sexpr import SExpr, Unsupported, format_sexpr, parse_sexprs


def pb_head(expr: SExpr) -> tuple[str, int, list[int]] | None:
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
    if expr and (head := pb_head(expr[0])) is not None:
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
