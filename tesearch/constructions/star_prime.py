"""Total exchange on star-n for n - 1 = p prime: rotation blocks around a recorded core array.

**Credit.** The core-array method is Coolsaet and Fack's: "Optimal data exchange algorithms on star
graphs", Computers Math. Applic. 27(3), 1994 (received August 1993), sections 2.1 and 2.2. Their n = 4
table combines the exceptional words 1231 and 3213 with the orbits [1, 2, 3], [12, 23, 31] and
[13, 21, 32] in 8 columns, and their n = 6 table is "built around the exceptional words 123451, 253142,
352413 and 432154 together with all words of length <= 2" in 14 columns, each then extended "by adding
the remaining tuples as usual" (rotation blocks): both are core arrays in the sense below, for p = 3 and
p = 5. What is new here: the statement for every prime p (any core array gives an optimal table) and its
proof, the structural facts behind it (the core is the powers of the p-cycle, their shortest words are
the progressions, two progressions clash once in every p columns, a table at the bound has exactly one
blank; docs/notes/frontier.md, checked by scripts/star_structure.py), and the array for p = 7 (star-8 at
T = 40135; no published optimum for star-8 or beyond was found).

The rotation sigma of star-n permutes the p letters cyclically (letter i is the transposition (0 i);
read it as the residue i mod p, point p being residue 0). For p prime:

* the exceptional elements are the p - 1 powers of the p-cycle c = x -> x + 1 on points 1..p; each is at
  distance p + 1 and its shortest words are the progressions (t, t + s, ..., t + ps = t) mod p. One line
  shows which power each names: read left to right (this package's product, p*q = i -> q[p[i]]), the
  word (0 t)(0 t+s)...(0 t+ps) sends t + js (j = 0..p-1) to 0 at its (j+1)-th letter and on to
  t + (j+1)s at the next, where it stays, and fixes 0, so it is x -> x + s = c^s (read right to left,
  x -> x - s). So the word with step s names c^s: one progression per step is one word per power c^k,
  and the steps 1..p-1 name the p - 1 powers once each;
* every other element lies in a full orbit of p elements, placed as a rotation block (row r holds
  sigma^r of one word: no blank, no letter twice in a column);
* the target letters are -1 mod p, so a table at the counting bound has exactly one blank.

A **core array** for p is a placement, in 3p - 1 columns, of the p - 1 progressions (one of each step,
any starting letter), the p single letters (the orbit of the generators) and the p(p - 1) words ab,
a != b (the p - 1 orbits of distance-2 elements), with no letter twice in a column. Its cells number
p(3p - 1) and its letters 3p^2 - p - 1: one blank. Rows follow by interval colouring (at most p
words cover a column). **Theorem:** a core array for p, followed by the rotation blocks of every
other orbit, is a valid table of star-(p+1) at the counting bound, so optimal.

Proof: Theorem 1 of the table method needs every target once with a shortest word and no column
holding a letter twice. The core array places each exceptional element once (one progression per
step = one word per c^k, by the line above) and the elements of the p filler orbits (the generators'
orbit and the p - 1 orbits at distance 2) once each, with shortest words, and no column repeat by
definition; each rotation block places its orbit once and holds p distinct letters in each column;
blocks and core use disjoint columns. The blanks: one in the core, none in the blocks, so
p T - (letters) = 1 and T = ceil(letters / p), the counting bound.

What is not here: a rule that writes a core array for every prime p. The arrays below were found by
CP-SAT in scratch runs (seconds for p <= 5, 82 s for p = 7; rows restricted so that steps k and p - k
share row k - 1, and step 1 starting at letter 0). For p = 11 that row restriction is infeasible
(CP-SAT, no certificate) and the free model was unknown after 1500 s; docs/notes/frontier.md records the
later runs. The arrays are checked again each time a table is built (:func:`check_core`, then the
TableBuilder verifies the whole table).
"""

from __future__ import annotations

from tesearch.errors import ConstructionError
from tesearch.instance import Instance
from tesearch.search.kit import TableKit
from tesearch.search.params import SearchParams, Strategy
from tesearch.table import Table
from tesearch.terms import Exchange

CONSTRUCTION_NAME = "rotation blocks around a recorded core array (star-n, n - 1 prime)"

#: p -> the core array: (first column, the word's letters as residues mod p)
CORE_ARRAYS: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {
    3: (
        (0, (0, 1, 2, 0)), (0, (1, 2)), (1, (0, 1)), (2, (0,)), (3, (1,)), (3, (2, 0)), (4, (1, 0, 2, 1)),
        (4, (2, 1)), (5, (2,)), (6, (0, 2)), (6, (1, 0)),),
    5: (
        (0, (0, 1, 2, 3, 4, 0)), (0, (2, 4)), (0, (3,)), (0, (4, 3)), (1, (0, 4)), (1, (2, 1)), (2, (0, 1)),
        (2, (3, 0, 2, 4, 1, 3)), (3, (2,)), (3, (4, 0)), (4, (1, 2)), (4, (3, 1)), (5, (3, 4)), (6, (0,)),
        (6, (2, 1, 0, 4, 3, 2)), (6, (3, 0)), (7, (2, 3)), (7, (4, 2)), (8, (1, 3)), (8, (4, 2, 0, 3, 1, 4)),
        (9, (0, 2)), (9, (1, 4)), (10, (1, 0)), (11, (1,)), (11, (4,)), (12, (0, 3)), (12, (2, 0)), (12, (3, 2)),
        (12, (4, 1)),),
    7: (
        (0, (0, 5)), (0, (1, 4, 0, 3, 6, 2, 5, 1)), (0, (2, 6)), (0, (3, 0)), (0, (4, 3)), (0, (5, 1)),
        (0, (6, 2)), (2, (1, 4)), (2, (2,)), (2, (3, 2, 1, 0, 6, 5, 4, 3)), (2, (4, 6)), (2, (5, 0)), (2, (6, 5)),
        (3, (1, 5)), (4, (0,)), (4, (2, 1)), (4, (3,)), (4, (4, 6, 1, 3, 5, 0, 2, 4)), (5, (3, 2)), (5, (4, 0)),
        (5, (5,)), (6, (3, 4)), (6, (4, 2)), (7, (0, 3)), (7, (6, 0)), (8, (1, 2)), (8, (2, 6, 3, 0, 4, 1, 5, 2)),
        (8, (6, 4)), (9, (1,)), (9, (5, 4)), (10, (0, 1, 2, 3, 4, 5, 6, 0)), (10, (1, 3)), (10, (5, 6)),
        (10, (6,)), (11, (2, 5)), (12, (0, 2)), (12, (1, 0)), (12, (3, 6)), (12, (6, 4, 2, 0, 5, 3, 1, 6)),
        (13, (5, 3)), (14, (0, 4)), (14, (1, 6)), (14, (6, 1)), (15, (3, 1)), (16, (0, 6)), (16, (2, 4)),
        (16, (3, 5)), (16, (4, 1)), (17, (2, 3)), (18, (0, 1)), (18, (2, 0)), (18, (4, 5)), (18, (5, 2)),
        (18, (6, 3)), (19, (4,)),),
}


def is_prime(p: int) -> bool:
    """Whether p is a prime."""
    return p >= 2 and all(p % q for q in range(2, int(p ** 0.5) + 1))


def check_core(p: int, core: tuple[tuple[int, tuple[int, ...]], ...]) -> list[str]:
    """Every way core fails to be a core array for p (empty: it is one); no group is built."""
    faults, width = [], 3 * p - 1
    words = [(column, tuple(word)) for column, word in core]
    steps = sorted((w[1] - w[0]) % p for _, w in words if len(w) == p + 1)
    progressions = [w for _, w in words if len(w) == p + 1]
    if steps != list(range(1, p)) or any(len({(w[i + 1] - w[i]) % p for i in range(p)}) != 1 for w in progressions):
        faults.append(f"the progressions' steps are {steps}, not 1..{p - 1} once each")
    if sorted(w for _, w in words if len(w) == 1) != [(a,) for a in range(p)]:
        faults.append("the single letters are not each letter once")
    if sorted(w for _, w in words if len(w) == 2) != [(a, b) for a in range(p) for b in range(p) if a != b]:
        faults.append("the two-letter words are not every ordered pair of different letters once")
    if len(words) != len(progressions) + p + p * (p - 1):
        faults.append("it holds words of other lengths")
    seen: set[tuple[int, int]] = set()
    for column, w in words:
        if column < 0 or column + len(w) > width:
            faults.append(f"word {w} at column {column} leaves the {width} columns")
        for i, letter in enumerate(w):
            if (column + i, letter) in seen:
                faults.append(f"letter {letter} twice in column {column + i}")
            seen.add((column + i, letter))
    return faults


def applies(p: int) -> str | None:
    """Why the construction does not apply to star-(p+1) total exchange (None: it does), before any group is built."""
    if not is_prime(p):
        return (f"n - 1 = {p} is not prime (the construction needs every non-exceptional orbit full and the "
                f"core the powers of a p-cycle)")
    if p not in CORE_ARRAYS:
        return (f"no core array is recorded for p = {p} (recorded: {', '.join(map(str, sorted(CORE_ARRAYS)))}; "
                f"a rule for every prime is open)")
    return None


def star_prime_table(facts: Instance) -> Table:
    """The table of the module doc for ``facts`` (star-n total exchange, n - 1 prime with a recorded core
    array), verified by the TableBuilder; ConstructionError otherwise."""
    network = facts.network
    p = network.degree
    why = applies(p) if facts.exchange is Exchange.TOTAL else "it builds total exchange"
    if why is not None:
        raise ConstructionError(f"{network.spec} {facts.exchange.value}: no prime-star table: {why}")
    faults = check_core(p, CORE_ARRAYS[p])
    if faults:
        raise ConstructionError(f"{network.spec}: the recorded core array for p = {p} is not one: {faults[0]}")
    kit = TableKit(facts, SearchParams(network.spec, Exchange.TOTAL, Strategy.ROTATION))
    cg = kit.cg
    # residue r <-> the letter whose transposition moves point r (point p for residue 0)
    letter_of = {r: cg.letter_index[str(r if r else p)] for r in range(p)}
    core = []
    for column, residues in CORE_ARRAYS[p]:
        word = tuple(letter_of[x] for x in residues)
        core.append((cg.element_of(tuple(cg.letters[i] for i in word)), column, word))
    full = kit.orbit_classes.full
    plan = [j for j, orbit in enumerate(full) if int(cg.dist[orbit[0]]) <= 2]
    if len(plan) != p:
        raise ConstructionError(f"{network.spec}: expected the generators' orbit and {p - 1} orbits at distance 2, "
                                f"found {len(plan)} orbits")
    return kit.assemble(core, 3 * p - 1, full, plan, strategy="construct", method=CONSTRUCTION_NAME)
