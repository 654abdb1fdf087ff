"""The kernel's own encoding of "no table of width T", and the proof that a supplied file is it.

An impossibility claim ("no table of width T for this network and exchange") is confirmed only
against an encoding the kernel builds itself, from the generators (rebuilt by the kernel's BFS),
the exchange and T.  Seed 003 Theorem 1 as a placement problem:

* every target is placed exactly once, as one of its shortest words, at a first column c with
  c + length <= T (one Boolean ``x_i_w_c`` per target i, word w, column c);
* no column holds a letter twice (exactly once when the words fill every cell).

Rows need not be modelled: a placement with no letter twice in a column packs into |S| rows by
interval colouring.  Targets are numbered in the kernel's BFS order, a target's shortest words in
lexicographic order of letter indices.  The encoding may carry two sections that add no solution and
remove none that matters:

* letter counts (implied): a column holds a letter at most once, so each letter occurs at most T
  times in all, written as encode.py writes it (each item's count relative to its least count of
  that letter), and in all at most |S| * T letters;
* symmetry breaking (sound): when the target set is closed under inverses, the mirror image of a
  table (columns reversed, each word reversed with its letters inverted) is a table; so the longest
  involution target (the first in BFS order among equals) may be pinned to the left half
  (2c + length <= T).

:func:`compare_with_kernel` reads a SMT-LIB2 file (Boolean + Z3 pseudo-Boolean fragment),
normalises every assertion to ``sum coef * var (<= | =) bound`` over positive variables (terms
sorted, ``not`` and ``>=`` rewritten) and requires the multiset of assertions to equal the kernel's
for one choice of the optional sections, clause for clause.  It names the first differences in words
("the encoding lacks the column constraint for letter b at column 7", "it encodes width 23, the
claim says 24", "another network").  Comments, and so any header, are never read.

Written for clarity, not speed.  Imports: the standard library, the kernel's graph and the proof
tools' s-expression reader.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import product
from typing import Sequence

import numpy as np

from tesearch.checking.kernel.graph import RebuiltNetwork
from tesearch.checking.proof.sexpr import SExpr, Unsupported, format_sexpr, parse_sexprs

#: the kernel encodes at most this many placement variables (the check is in pure Python)
MAX_KERNEL_VARIABLES = 500_000
#: differences named in a verdict (all are counted)
DIFFERENCES_NAMED = 5

SECTION_ITEMS = "one placement per item"
SECTION_EXACT = "letters in columns (exactly once)"
SECTION_AT_MOST = "letters in columns (at most once)"
SECTION_COUNTS = "letter counts"
SECTION_MIRROR = "symmetry breaking"

_VARIABLE = re.compile(r"^x_(0|[1-9][0-9]*)_(0|[1-9][0-9]*)_(0|[1-9][0-9]*)$")


class EncoderTooLarge(Exception):
    """The kernel's encoding of this problem would exceed MAX_KERNEL_VARIABLES (the claim stays unchecked)."""


@dataclass(frozen=True)
class Constraint:
    """``sum coef * var  op  bound`` (op ``<=`` or ``=``), terms sorted by variable name, no zero coefficient."""

    op: str
    terms: tuple[tuple[str, int], ...]
    bound: int

    @staticmethod
    def normal(op: str, terms: Sequence[tuple[str, int]], bound: int) -> "Constraint":
        """The normal form: duplicate variables merged, zero terms dropped, constants decided, ``=`` signed."""
        merged: dict[str, int] = {}
        for name, coef in terms:
            merged[name] = merged.get(name, 0) + coef
        ordered = tuple(sorted((n, c) for n, c in merged.items() if c != 0))
        if not ordered:  # a constant: true is "0 <= 0", false is "0 <= -1"
            holds = bound == 0 if op == "=" else bound >= 0
            return Constraint("<=", (), 0 if holds else -1)
        if op == "=" and ordered[0][1] < 0:
            ordered, bound = tuple((n, -c) for n, c in ordered), -bound
        return Constraint(op, ordered, bound)

    def text(self) -> str:
        """The constraint in words: ``x_0_0_1 + 2 x_2_0_0 <= 1``."""
        if not self.terms:
            return "true" if self.bound >= 0 else "false"
        parts = [(name if coef == 1 else f"{coef} {name}") for name, coef in self.terms]
        shown = " + ".join(parts[:6]) + (f" + ... ({len(parts)} terms)" if len(parts) > 6 else "")
        return f"{shown} {self.op} {self.bound}"


@dataclass(frozen=True)
class Target:
    """One item: a target node and all its shortest words (letter indices, lexicographic order)."""

    node: int
    words: tuple[tuple[int, ...], ...]

    @property
    def length(self) -> int:
        """The target's distance (every shortest word has it)."""
        return len(self.words[0])


@dataclass
class KernelEncoding:
    """The kernel's placement problem at one width, by section, each constraint with what it says."""

    letters: tuple[str, ...]
    width: int
    targets: tuple[Target, ...]
    variables: dict[str, tuple[int, int, int]]  # name -> (item, word, column)
    sections: dict[str, list[Constraint]]
    meaning: dict[Constraint, str] = field(default_factory=dict)  # constraint -> what it says, in words
    mirror_pin: int | None = None

    @property
    def no_blanks(self) -> bool:
        """Whether the targets' words fill every cell of |S| x T."""
        return sum(t.length for t in self.targets) == len(self.letters) * self.width

    def variants(self) -> list[tuple[str, ...]]:
        """The section choices a faithful encoding may make: the column form, letter counts or not, mirror or not."""
        columns = [SECTION_EXACT, SECTION_AT_MOST] if self.no_blanks else [SECTION_AT_MOST]
        out = []
        for column, counts, mirror in product(columns, (True, False), (True, False)):
            out.append((SECTION_ITEMS, column) + ((SECTION_COUNTS,) if counts else ())
                       + ((SECTION_MIRROR,) if mirror and self.mirror_pin is not None else ()))
        return list(dict.fromkeys(out))

    def constraints(self, variant: tuple[str, ...]) -> Counter:
        """The multiset of constraints of one variant."""
        return Counter(c for name in variant for c in self.sections[name])

    def word_text(self, item: int, word: int) -> str:
        """A target's word as letters, e.g. ``a a b``."""
        return " ".join(self.letters[s] for s in self.targets[item].words[word])

    def to_smtlib2(self, variant: tuple[str, ...] | None = None) -> str:
        """The encoding as SMT-LIB2 in Z3's pseudo-Boolean syntax (one assertion per constraint)."""
        variant = variant or self.variants()[0]
        lines = [f"(declare-fun {name} () Bool)" for name in sorted(self.variables)]
        for name in variant:
            lines += [f"(assert {_smtlib2(c)})" for c in self.sections[name]]
        return "\n".join(lines + ["(check-sat)", "(exit)"]) + "\n"


def _smtlib2(c: Constraint) -> str:
    """One constraint in Z3's PB syntax, negative coefficients as negated literals (k >= 0 in pble/pbeq)."""
    bound, args, coefs = c.bound, [], []
    for name, coef in c.terms:
        if coef < 0:  # coef * x = coef + |coef| * (not x)
            bound -= coef
            args.append(f"(not {name})")
            coefs.append(-coef)
        else:
            args.append(name)
            coefs.append(coef)
    if bound < 0:
        return "false"
    if not args:
        return "true"
    kind = "pbeq" if c.op == "=" else "pble"
    return f"((_ {kind} {bound} {' '.join(map(str, coefs))}) {' '.join(args)})"


# ---------------------------------------------------------------- building the kernel's encoding

def shortest_words(net: RebuiltNetwork, node: int, limit: int, memo: dict | None = None
                   ) -> tuple[tuple[int, ...], ...]:
    """All shortest words of ``node`` (letter indices), in lexicographic order; EncoderTooLarge past ``limit``.

    ``memo`` (node -> its words) may be shared between calls on the same network.
    """
    memo = {0: [()]} if memo is None else memo
    memo.setdefault(0, [()])
    inverse = inverse_letters_of(net)

    def words_of(g: int) -> list[tuple[int, ...]]:
        if g not in memo:
            out = []
            for s in range(net.degree):  # g = h * s with h one level closer: h = g * s^-1
                h = int(net.successor[inverse[s], g])
                if net.depth[h] == net.depth[g] - 1:
                    out += [w + (s,) for w in words_of(h)]
                    if len(out) > limit:
                        raise EncoderTooLarge(f"node {g} has more than {limit} shortest words")
            memo[g] = out
        return memo[g]

    return tuple(sorted(words_of(node)))


def inverse_letters_of(net: RebuiltNetwork) -> tuple[int, ...]:
    """For each letter, the letter of its inverse, read off the successor table (s * s' = identity)."""
    out = []
    for s in range(net.degree):
        t = [t for t in range(net.degree) if int(net.successor[t, int(net.successor[s, 0])]) == 0]
        if not t:
            raise Unsupported("the generators are not closed under inverses")
        out.append(t[0])
    return tuple(out)


def inverse_node(net: RebuiltNetwork, word: Sequence[int], inverse: Sequence[int]) -> int:
    """The node of ``word`` reversed with every letter inverted (the inverse element)."""
    g = 0
    for s in reversed(word):
        g = int(net.successor[inverse[s], g])
    return g


def kernel_encoding(net: RebuiltNetwork, is_target: np.ndarray, width: int) -> KernelEncoding:
    """The kernel's encoding of "no table of width ``width``" for the targets of ``is_target``.

    Long because it is trusted code read against :func:`tesearch.solvers.z3model.encode`: one sequence of sections
    (items and their words, exactly once, columns, letter counts, the mirror pin) in the same order, with
    nothing hidden in helpers."""
    if not isinstance(width, int) or width < 0 or width > MAX_KERNEL_VARIABLES:
        raise EncoderTooLarge(f"width {width!r} is outside what the kernel encodes")
    letters = net.letters
    inverse = inverse_letters_of(net)
    nodes = [int(g) for g in np.nonzero(is_target)[0]]  # BFS order
    targets, budget, memo = [], MAX_KERNEL_VARIABLES, {}
    for g in nodes:
        words = shortest_words(net, g, budget, memo)
        targets.append(Target(g, words))
        budget -= len(words) * max(1, width - len(words[0]) + 1)
        if budget < 0:
            raise EncoderTooLarge(f"more than {MAX_KERNEL_VARIABLES} placement variables")
    targets = tuple(targets)

    variables: dict[str, tuple[int, int, int]] = {}
    per_item: list[list[str]] = []
    covering: dict[tuple[int, int], list[str]] = {}  # (column, letter) -> variables
    for i, t in enumerate(targets):
        mine = []
        for w, word in enumerate(t.words):
            for c in range(width - len(word) + 1):
                name = f"x_{i}_{w}_{c}"
                variables[name] = (i, w, c)
                mine.append(name)
                for k, s in enumerate(word):
                    covering.setdefault((c + k, s), []).append(name)
        per_item.append(mine)

    meaning: dict[Constraint, str] = {}

    def said(c: Constraint, what: str) -> Constraint:
        meaning.setdefault(c, what)
        return c

    def word_of(i: int) -> str:
        return " ".join(letters[s] for s in targets[i].words[0])

    sections: dict[str, list[Constraint]] = {SECTION_ITEMS: [said(
        Constraint.normal("=", [(v, 1) for v in vs], 1),
        f"the placement constraint of target {i} ({word_of(i)}): placed exactly once") for i, vs in enumerate(per_item)]}
    exact, at_most = [], []
    for c in range(width):
        for s in range(len(letters)):
            vs = covering.get((c, s), [])
            exact.append(said(Constraint.normal("=", [(v, 1) for v in vs], 1),
                              f"the column constraint for letter {letters[s]} at column {c} (exactly once)"))
            if len(vs) > 1:
                at_most.append(said(Constraint.normal("<=", [(v, 1) for v in vs], 1),
                                    f"the column constraint for letter {letters[s]} at column {c} (at most once)"))
    sections[SECTION_EXACT] = exact
    sections[SECTION_AT_MOST] = at_most

    # letter counts, as encode.py writes them: each item's count of s relative to its least count
    counts = []
    for s in range(len(letters)):
        least = [min(word.count(s) for word in t.words) for t in targets]
        base = sum(least)
        uses = [(name, targets[i].words[w].count(s), i) for name, (i, w, _) in variables.items()]
        if base > width:  # plain count: sum of counts <= T (false given one placement per item)
            terms = [(name, n) for name, n, _ in uses if n > 0]
            bound = width
        else:
            terms = [(name, n - least[i]) for name, n, i in uses if n > least[i]]
            bound = width - base
        counts.append(said(Constraint.normal("<=", terms, bound), f"the letter count for letter {letters[s]}"))
    if variables:
        counts.append(said(Constraint.normal("<=", [(name, targets[i].length) for name, (i, _, _) in variables.items()],
                                             len(letters) * width), "the total letter count"))
    sections[SECTION_COUNTS] = counts

    # the mirror pin: target set closed under inverses, the longest involution (first in BFS order)
    target_nodes = set(nodes)
    inverses = [inverse_node(net, t.words[0], inverse) for t in targets]
    pin = None
    if all(h in target_nodes for h in inverses):
        involutions = [i for i, t in enumerate(targets) if inverses[i] == t.node]
        if involutions:
            pin = min(involutions, key=lambda i: -targets[i].length)
    mirror = []
    if pin is not None:
        for name, (i, w, c) in variables.items():
            if i == pin and 2 * c + targets[i].length > width:
                mirror.append(said(Constraint.normal("<=", [(name, 1)], 0),
                                   f"the mirror pin of target {pin} ({word_of(pin)}): not as word {w} at column {c}"))
    sections[SECTION_MIRROR] = mirror
    return KernelEncoding(letters, width, targets, variables, sections, meaning, pin)


# ---------------------------------------------------------------- reading a file into the normal form

@dataclass
class ReadScript:
    """A SMT-LIB2 script in the kernel's normal form: declared variables and the asserted constraints."""

    declared: list[str]
    constraints: list[Constraint]


def _literal(expr: SExpr) -> tuple[str, bool]:
    """A variable or its negation: (name, positive)."""
    if isinstance(expr, str):
        return expr, True
    if isinstance(expr, list) and len(expr) == 2 and expr[0] == "not" and isinstance(expr[1], str):
        return expr[1], False
    raise Unsupported(f"{format_sexpr(expr)[:80]!r} is not a literal")


def _pb_operator(head: SExpr) -> tuple[str, int, list[int] | None] | None:
    """(kind, k, coefficients) of ``(_ pbeq k c..)``, ``(_ pble ..)``, ``(_ pbge ..)``, ``(_ at-most k)``, ``(_ at-least k)``."""
    if not (isinstance(head, list) and len(head) >= 3 and head[0] == "_"
            and head[1] in ("pbeq", "pble", "pbge", "at-most", "at-least")):
        return None
    if not all(isinstance(x, str) and re.fullmatch(r"-?[0-9]+", x) for x in head[2:]):
        raise Unsupported(f"non-numeric parameter in {format_sexpr(head)}")
    numbers = [int(x) for x in head[2:]]
    if head[1] in ("at-most", "at-least"):
        if len(numbers) != 1:
            raise Unsupported(f"{format_sexpr(head)} takes one parameter")
        return head[1], numbers[0], None
    return head[1], numbers[0], numbers[1:]


def normal_constraint(expr: SExpr) -> Constraint:
    """One asserted formula as a normal-form constraint (Unsupported outside the kernel's fragment)."""
    if expr == "true":
        return Constraint.normal("<=", [], 0)
    if expr == "false":
        return Constraint.normal("<=", [], -1)
    if isinstance(expr, str) or (isinstance(expr, list) and expr and expr[0] == "not"):
        name, positive = _literal(expr)
        # x  is  -x <= -1;  not x  is  x <= 0
        return Constraint.normal("<=", [(name, -1 if positive else 1)], -1 if positive else 0)
    if not (isinstance(expr, list) and expr) or (pb := _pb_operator(expr[0])) is None:
        raise Unsupported(f"{format_sexpr(expr)[:80]!r} is outside the kernel's pseudo-Boolean form")
    kind, k, coefs = pb
    args = [_literal(a) for a in expr[1:]]
    coefs = coefs if coefs is not None else [1] * len(args)
    if len(coefs) != len(args):
        raise Unsupported(f"{format_sexpr(expr[0])} has {len(coefs)} coefficients for {len(args)} arguments")
    terms, bound = [], k
    for (name, positive), coef in zip(args, coefs):
        if positive:
            terms.append((name, coef))
        else:  # coef * (not x) = coef - coef * x
            terms.append((name, -coef))
            bound -= coef
    if kind in ("pbge", "at-least"):  # sum >= k  is  -sum <= -k
        return Constraint.normal("<=", [(n, -c) for n, c in terms], -bound)
    return Constraint.normal("=" if kind == "pbeq" else "<=", terms, bound)


def read_script(text: str) -> ReadScript:
    """Declarations and assertions of a script, normalised; Unsupported for anything else that could matter.

    Allowed: ``set-logic``, ``set-info``, Boolean ``declare-fun``/``declare-const`` of plain names
    ``x_i_w_c``, ``assert``, then exactly one ``check-sat`` (after every assertion) and ``exit``.
    """
    declared: list[str] = []
    constraints: list[Constraint] = []
    checked = 0
    for command in parse_sexprs(text):
        if not isinstance(command, list) or not command:
            raise Unsupported(f"unexpected top-level token {format_sexpr(command)[:80]!r}")
        head = command[0]
        if head in ("set-logic", "set-info") and checked == 0:
            continue
        if head == "exit" and checked == 1:
            continue
        if head == "check-sat" and len(command) == 1 and checked == 0:
            checked = 1
            continue
        if checked:
            raise Unsupported(f"{format_sexpr(command)[:80]!r} after (check-sat)")
        if (head == "declare-fun" and len(command) == 4 and command[2] == [] and command[3] == "Bool") or \
                (head == "declare-const" and len(command) == 3 and command[2] == "Bool"):
            name = command[1]
            if not isinstance(name, str) or not _VARIABLE.match(name):
                raise Unsupported(f"declares {format_sexpr(name)[:40]!r}, not a placement variable x_i_w_c")
            if name in declared:
                raise Unsupported(f"{name} is declared twice")
            declared.append(name)
            continue
        if head == "assert" and len(command) == 2:
            constraints.append(normal_constraint(command[1]))
            continue
        raise Unsupported(f"command {format_sexpr(command)[:80]!r} is outside the kernel's form")
    if checked != 1:
        raise Unsupported("the script has no (check-sat)")
    undeclared = sorted({n for c in constraints for n, _ in c.terms} - set(declared))
    if undeclared:
        raise Unsupported(f"{undeclared[0]} is used but not declared")
    return ReadScript(declared, constraints)


# ---------------------------------------------------------------- the comparison

def _variables_differ(script: ReadScript, kernel: KernelEncoding, what: str) -> list[str]:
    """Why the declared variables are not the kernel's: another network, exchange or width, or which are missing."""
    mine, theirs = set(kernel.variables), set(script.declared)
    if mine == theirs:
        return []
    parsed = [tuple(int(x) for x in _VARIABLE.match(n).groups()) for n in theirs]
    items = {i for i, _, _ in parsed}
    if items != set(range(len(kernel.targets))):
        return [f"its variables place {len(items)} item{'' if len(items) == 1 else 's'}, {what} has "
                f"{len(kernel.targets)} targets: another network or exchange"]
    width = 0
    for i, w, c in parsed:
        if w >= len(kernel.targets[i].words):
            return [f"its item {i} has a word {w}, but target {i} ({kernel.word_text(i, 0)}) of {what} has "
                    f"{len(kernel.targets[i].words)} shortest words: another network"]
        width = max(width, c + kernel.targets[i].length)
    if width != kernel.width:
        return [f"it encodes width {width} (its placements reach column {width - 1}), the claim says {kernel.width}"]
    out = []
    for name in sorted(mine - theirs)[:DIFFERENCES_NAMED]:
        i, w, c = kernel.variables[name]
        out.append(f"it lacks the placement {name} (target {i} as {kernel.word_text(i, w)} at column {c})")
    for name in sorted(theirs - mine)[:DIFFERENCES_NAMED]:
        out.append(f"it declares {name}, which is no placement of {what} at width {kernel.width}")
    return out


def _describe(kernel: KernelEncoding, missing: Counter, extra: Counter) -> list[str]:
    """The constraints one side has and the other lacks, in words; a changed one is named as such."""
    out = []
    extra_by_vars: dict[tuple[str, ...], list[Constraint]] = {}
    for c in extra.elements():
        extra_by_vars.setdefault(tuple(n for n, _ in c.terms), []).append(c)
    for c in missing.elements():
        label = kernel.meaning.get(c, c.text())
        twins = extra_by_vars.get(tuple(n for n, _ in c.terms), [])
        if twins:
            other = twins.pop()
            out.append(f"{label} is changed: the file has {other.text()}, the kernel {c.text()}")
        else:
            out.append(f"the encoding lacks {label} ({c.text()})")
    for group in extra_by_vars.values():
        for c in group:
            out.append(f"the encoding adds a constraint the kernel does not have: {c.text()}")
    return out


@dataclass(frozen=True)
class Comparison:
    """Whether a file is the kernel's encoding, and if not, what differs (in words)."""

    equal: bool
    differences: tuple[str, ...]
    variant: tuple[str, ...] | None = None  # the sections the file chose, when equal
    count: int = 0  # differing constraints in all

    def reason(self) -> str:
        """The differences joined into one line."""
        more = f"; {self.count - len(self.differences)} more" if self.count > len(self.differences) else ""
        return "; ".join(self.differences) + more


def compare_with_kernel(text: str, kernel: KernelEncoding, what: str) -> Comparison:
    """Prove ``text`` equal to the kernel's encoding after normalisation, or name how it differs.

    ``what`` names the problem in the messages (e.g. ``star-4 total``).  Equal means: the same
    declared variables, and the same multiset of normal-form assertions as the kernel's sections
    for one of :meth:`KernelEncoding.variants`.
    """
    try:
        script = read_script(text)
    except Unsupported as exc:
        return Comparison(False, (f"the encoding is not in the kernel's form: {exc}",), count=1)
    problems = _variables_differ(script, kernel, what)
    if problems:
        return Comparison(False, tuple(problems), count=len(problems))
    theirs = Counter(script.constraints)
    best = None
    for variant in kernel.variants():
        mine = kernel.constraints(variant)
        missing, extra = mine - theirs, theirs - mine
        size = sum(missing.values()) + sum(extra.values())
        if size == 0:
            return Comparison(True, (), variant)
        if best is None or size < best[0]:
            best = (size, missing, extra)
    size, missing, extra = best
    named = _describe(kernel, missing, extra)
    return Comparison(False, tuple(named[:DIFFERENCES_NAMED]), count=len(named))
