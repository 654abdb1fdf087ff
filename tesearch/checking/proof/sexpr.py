"""A plain s-expression reader for SMT-LIB2 scripts, the hashes the checker compares, and Unsupported.

Imports: the standard library only.
"""

from __future__ import annotations

import hashlib


class Unsupported(Exception):
    """The encoding uses a construct outside what this module translates."""


def sha256_text(text: str) -> str:
    """sha256 of a text's UTF-8 bytes."""
    return hashlib.sha256(text.encode()).hexdigest()


def sha256_bytes(data: bytes) -> str:
    """sha256 of bytes."""
    return hashlib.sha256(data).hexdigest()


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
    """An s-expression back as text."""
    if isinstance(expr, str):
        return expr
    return "(" + " ".join(format_sexpr(e) for e in expr) + ")"
