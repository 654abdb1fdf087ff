"""The Z3 model of one table problem (seed 003 Theorem 1), after microsoft/sccl.

The problem itself (:class:`~tesearch.solvers.problem.TableProblem`) is solver-neutral and lives in
:mod:`tesearch.solvers.problem`; :func:`decide_once` and :func:`solver_label` are what every solver module
offers :func:`tesearch.solvers.decide.decide`.

Variables come from small factory functions with deterministic names;
constraints are added in labelled sections of :func:`encode`; decoding is
separate (:func:`decode`); parameters live in frozen dataclasses whose
string form names the run.
"""

from __future__ import annotations

import ctypes
from collections import defaultdict
from dataclasses import dataclass, field

import z3

from tesearch.running import limits
from tesearch.running.terms import SolveResult
from tesearch.solvers.problem import Answer, Chosen, TableProblem

MS_PER_SECOND = 1000

# ---------------------------------------------------------------- pseudo-Boolean terms
# z3.PbEq, z3.PbLe and z3.AtMost coerce every argument's sort in Python, one Z3 call after
# another: three quarters of encode's time on star-5.  These build the same terms (the same
# arguments, coefficients and bound, so the same hash-consed AST) in one call each.

def _asts(variables) -> ctypes.Array:
    return (z3.Ast * len(variables))(*[v.as_ast() for v in variables])


def _ints(values) -> ctypes.Array:
    for value in values:
        if not -(2 ** 31) <= value < 2 ** 31:
            raise z3.Z3Exception(f"{value} does not fit in an int")
    return (ctypes.c_int * len(values))(*values)


def _pseudo_boolean(make, fallback, pairs, k: int) -> z3.BoolRef:
    """``fallback(pairs, k)`` built by the C API function ``make`` in one call (see above)."""
    if not pairs:
        return fallback(pairs, k)
    variables, coefficients = zip(*pairs)
    ctx = variables[0].ctx
    return z3.BoolRef(make(ctx.ref(), len(variables), _asts(variables), _ints(coefficients), _ints([k])[0]), ctx)


def pb_eq(pairs, k: int) -> z3.BoolRef:
    """``z3.PbEq(pairs, k)`` for (Boolean variable, int) pairs of one context, built in one call."""
    return _pseudo_boolean(z3.Z3_mk_pbeq, z3.PbEq, pairs, k)


def pb_le(pairs, k: int) -> z3.BoolRef:
    """``z3.PbLe(pairs, k)`` for (Boolean variable, int) pairs of one context, built in one call."""
    return _pseudo_boolean(z3.Z3_mk_pble, z3.PbLe, pairs, k)


def at_most(variables, k: int) -> z3.BoolRef:
    """``z3.AtMost(*variables, k)`` for Boolean variables of one context, built in one call."""
    if not variables:
        return z3.AtMost(*variables, k)
    ctx = variables[0].ctx
    return z3.BoolRef(z3.Z3_mk_atmost(ctx.ref(), len(variables), _asts(variables), k), ctx)


# ---------------------------------------------------------------- variables

def placement_var(item: int, word: int, column: int) -> z3.BoolRef:
    """Item ``item`` uses its word ``word`` starting at ``column``."""
    return z3.Bool(f"x_{item}_{word}_{column}")


@dataclass
class Encoding:
    """The constraints of one table problem, by section, with the placement variables."""
    problem: TableProblem
    assertions: list  # labelled constraints, in section order
    sections: dict[str, int]  # section name -> number of constraints
    placements: dict[tuple[int, int, int], z3.BoolRef]
    trivially_unsat: str | None = None  # a counting argument refutes the problem before solving
    derivations: list[str] = field(default_factory=list)  # counting facts behind constraints solved as false
    # constraints solved in-process as `false` are exported as the equivalent plain letter count
    # (sum of counts <= T, equivalent given one placement per item), so the file stands alone
    exported: dict[int, z3.BoolRef] = field(default_factory=dict)

    def solver(self, *, seed: int = 0, timeout_ms: int | None = None) -> z3.Solver:
        """A Z3 solver holding the constraints."""
        solver = z3.SolverFor("QF_FD")
        solver.set("random_seed", seed)
        if timeout_ms is not None:
            solver.set("timeout", int(timeout_ms))
        solver.add(*self.assertions)
        return solver

    def to_smtlib2(self) -> str:
        """The encoding as a self-contained SMT-LIB2 script ending in (check-sat)."""
        solver = z3.Solver()
        solver.add(*[self.exported.get(i, a) for i, a in enumerate(self.assertions)])
        head = [f"; tesearch encoding: {self.problem}",
                f"; sections: {', '.join(f'{k}={v}' for k, v in self.sections.items())}",
                f"; candidate words complete: {self.problem.complete_words}",
                *[f"; letter counts: {why} (exported as the plain count)" for why in self.derivations],
                "; z3 pseudo-Boolean syntax ((_ pbeq ..), (_ at-most ..), (_ pble ..)); for other solvers",
                "; tesearch.proofcheck.to_standard_smtlib2 rewrites it to plain QF_LIA sums"]
        body = solver.sexpr()
        return "\n".join(head) + "\n" + body + "(check-sat)\n(exit)\n"


def encode(problem: TableProblem) -> Encoding:
    """Build the constraints of ``problem`` section by section.

    Long because every section is written here, in the order the labelled export names them, each block
    under the comment that says what it constrains; :func:`tesearch.solvers.cpsat.build` follows the same
    order."""
    opts = problem.options
    T = problem.width
    assertions: list = []
    sections: dict[str, int] = {}

    def section(name: str, constraints: list) -> None:
        sections[name] = len(constraints)
        assertions.extend(constraints)

    # -- variables: one per (item, word, first column) that fits in the width
    placements: dict[tuple[int, int, int], z3.BoolRef] = {}
    covering: dict[tuple[int, int], list[z3.BoolRef]] = defaultdict(list)  # (column, letter) -> vars
    letter_uses: dict[int, list[tuple[z3.BoolRef, int, int]]] = defaultdict(list)  # (var, count, item)
    per_item: list[list[z3.BoolRef]] = []
    for i, item in enumerate(problem.items):
        mine = []
        for w, word in enumerate(item.words):
            counts = defaultdict(int)
            for s in word:
                counts[s] += 1
            for c in range(0, T - len(word) + 1):
                v = placement_var(i, w, c)
                placements[(i, w, c)] = v
                mine.append(v)
                for k, s in enumerate(word):
                    covering[(c + k, s)].append(v)
                for s, n in counts.items():
                    letter_uses[s].append((v, n, i))
        per_item.append(mine)

    # -- section: every item is placed exactly once
    section("one placement per item", [pb_eq([(v, 1) for v in vs], 1) if vs else z3.BoolVal(False)
                                       for vs in per_item])

    # -- section: no column holds a letter twice (exactly once when there is no blank)
    exact = opts.exact_columns and problem.no_blanks
    cols = []
    for c in range(T):
        for s in range(problem.letters):
            vs = covering.get((c, s), [])
            if exact:
                cols.append(pb_eq([(v, 1) for v in vs], 1) if vs else z3.BoolVal(False))
            elif len(vs) > 1:
                cols.append(at_most(vs, 1))
    section("letters in columns", cols)

    # -- section: redundant counting (refutes too-narrow widths at once).  Each
    #    letter's count is written relative to every item's least possible
    #    count of it: sum (count - least) * x <= T - sum of leasts, so a width
    #    below the per-letter bound has a negative right-hand side.
    trivially_unsat = None
    derivations: list[str] = []
    exported: dict[int, z3.BoolRef] = {}  # assertion index -> the form written to SMT-LIB2
    if opts.counting:
        least = [[min(word.count(s) for word in item.words) for s in range(problem.letters)]
                 for item in problem.items]
        counts = []
        for s in range(problem.letters):
            base = sum(row[s] for row in least)
            terms = [(v, n - least[i][s]) for v, n, i in letter_uses[s] if n > least[i][s]]
            if base > T:
                # sum of non-negative terms <= a negative number: false (written as such,
                # since (_ pble k ..) takes no negative k); the reason goes in the file header
                counts.append(z3.BoolVal(False))
                exported[len(assertions) + len(counts) - 1] = pb_le([(v, n) for v, n, _ in letter_uses[s]], T)
                why = f"letter {s} occurs at least {base} times in any choice of words, more than the {T} columns"
                derivations.append(why)
                trivially_unsat = trivially_unsat or why
            else:
                counts.append(pb_le(terms, T - base) if terms else z3.BoolVal(True))
        total = [pb_le([(v, len(problem.items[i].words[w])) for (i, w, c), v in placements.items()],
                         problem.cells)] if placements else []
        section("letter counts", counts + total)
    if problem.letter_count > problem.cells:
        trivially_unsat = (f"{problem.letter_count} letters do not fit in {problem.letters} x {T} = "
                           f"{problem.cells} cells")

    # -- section: symmetry breaking.  The mirror image of a table (columns
    #    reversed, every word reversed and its letters inverted) is a table for
    #    the inverse elements; when the item set is inverse-closed, one
    #    involution item may be pinned to the left half.
    sym = []
    if opts.reversal_symmetry and problem.mirror_pin is not None:
        i = problem.mirror_pin
        sym = [z3.Not(v) for (j, w, c), v in placements.items()
               if j == i and 2 * c + len(problem.items[i].words[w]) > T]
    section("symmetry breaking", sym)
    return Encoding(problem, assertions, sections, placements, trivially_unsat, derivations, exported)


def decode(encoding: Encoding, model: z3.ModelRef) -> Chosen:
    """(item, word, first column) chosen by the model, one per item."""
    chosen = [key for key, v in encoding.placements.items() if z3.is_true(model.eval(v, model_completion=True))]
    return sorted(chosen)


def solve(encoding: Encoding, *, seed: int = 0, timeout_ms: int | None = None
          ) -> tuple[SolveResult, Chosen | None]:
    """Run Z3 once: (result, chosen placements if sat)."""
    if encoding.trivially_unsat is not None:
        # Z3 would say the same (the counting section refutes it), but at once
        return SolveResult.UNSAT, None
    solver = encoding.solver(seed=seed, timeout_ms=timeout_ms)
    result = solver.check()
    if result == z3.sat:
        return SolveResult.SAT, decode(encoding, solver.model())
    if result == z3.unsat:
        return SolveResult.UNSAT, None
    return SolveResult.UNKNOWN, None


def z3_version() -> str:
    """Z3's version string."""
    return z3.get_version_string()


def solver_label() -> str:
    """How a table's record names this solver: ``z3 4.x``."""
    return f"z3 {z3_version()}"


def decide_once(problem: TableProblem, *, where: str, seed: int, timeout_s: float | None) -> Answer:
    """Encode ``problem`` for Z3 and solve it once within ``timeout_s`` seconds (None: no limit)."""
    with limits.phase(f"encode {where}"):
        enc = encode(problem)
    with limits.phase(f"solve {where}"):
        result, chosen = solve(enc, seed=seed, timeout_ms=None if timeout_s is None else int(timeout_s * MS_PER_SECOND))
    return Answer(result, chosen, enc.trivially_unsat or "", enc)
