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
blank; docs/notes/frontier.md, checked by experiments/star_structure.py), wider cores with extra orbits, and
the arrays for p = 7 (star-8 at T = 40135; no published optimum for star-8 or beyond was found) and
p = 11 (star-12 at T = 490753571, implied, not built).

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
p(3p - 1) and its letters 3p^2 - p - 1: one blank. It may also hold *extra orbits*: whole rotation orbits
of other elements, each element once with a shortest word, the core one column wider per p of their
letters, so still one blank (p = 11 needs one: no 32-column array was found, below). Rows follow by
interval colouring (at most p words cover a column). **Theorem:** a core array for p, followed by the
rotation blocks of every other orbit, is a valid table of star-(p+1) at the counting bound, so optimal.

Proof: Theorem 1 of the table method needs every target once with a shortest word and no column
holding a letter twice. The core array places each exceptional element once (one progression per
step = one word per c^k, by the line above) and the elements of its filler orbits (the generators'
orbit, the p - 1 orbits at distance 2 and any extra orbits) once each, with shortest words, and no
column repeat by definition; each rotation block places its orbit once and holds p distinct letters
in each column; blocks and core use disjoint columns, and every orbit is wholly in the core or a
block. The blanks: one in the core, none in the blocks, so p T - (letters) = 1 and
T = ceil(letters / p), the counting bound.

What is not here: a rule that writes a core array for every prime p. The arrays below were found by
CP-SAT (`experiments/star_core_array.py`, with the progressions' first columns fixed; the runs:
docs/notes/frontier.md). For p = 11 no 32-column array was found: with the first columns fixed, CP-SAT
says INFEASIBLE for every one of the 66 patterns the clash fact allows (no certificate;
results/frontier/star-core-arrays.json); with one extra orbit, the transpositions (a a+5) (words a b a),
the 35-column array below was found (results/frontier/star-core-arrays-extra.json). star-12 has 12! elements, more than tesearch builds
(`construct star-12` refuses its size); :func:`check_implied_table` checks what the array implies without
them: the array's conditions, the width from the cycle types (T = 490753571, the counting bound, one
blank) and sampled elements. The arrays are checked again each time a table is built (:func:`check_core`,
then the TableBuilder verifies the whole table).
"""

from __future__ import annotations

import time

from tesearch.tables.build import CONSTRUCTION, core_and_blocks
from tesearch.running.errors import ConstructionError
from tesearch.facts.instance import Instance
from tesearch.tables.table import Table
from tesearch.running.terms import Exchange

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
    11: (
        (0, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0)), (0, (1, 7, 1)), (0, (2,)), (0, (3, 9)), (0, (4, 10)),
        (0, (5, 0)), (0, (6, 8)), (0, (7, 3)), (0, (8,)), (0, (9, 5)), (0, (10, 2)), (1, (4, 3)), (1, (6, 9)),
        (2, (0, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)), (2, (4, 5)), (2, (5, 0, 5)), (2, (6, 1)), (2, (7, 6)),
        (2, (8, 2)), (2, (10, 4)), (3, (7, 8)), (3, (8, 10)), (3, (9, 3)), (4, (0, 7)), (4, (1, 2)), (4, (2, 6)),
        (4, (6, 10)), (4, (7, 4, 1, 9, 6, 3, 0, 8, 5, 2, 10, 7)), (5, (0, 8)), (5, (1, 0)), (5, (3, 2)),
        (5, (9, 4)), (6, (3, 0)), (6, (5, 4)), (6, (9, 8)), (6, (10, 3)), (7, (1, 7)), (7, (2, 3)),
        (7, (5, 0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5)), (7, (10, 1)), (8, (2, 5)), (8, (4, 8)), (8, (9, 1)),
        (8, (10, 0)), (9, (2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 0, 2)), (9, (7, 2)), (9, (10, 5)), (10, (6,)), (10, (7,)),
        (10, (8, 4)), (10, (9, 10)), (11, (1, 9)), (11, (3, 6)), (11, (5, 7)), (11, (9,)), (12, (0, 5)),
        (12, (3, 4)), (12, (4,)), (12, (10, 7)), (13, (1, 5)), (13, (3, 7)),
        (13, (6, 4, 2, 0, 9, 7, 5, 3, 1, 10, 8, 6)), (13, (9, 6)), (14, (0, 10)), (14, (2, 4)), (14, (8, 6)),
        (14, (9, 0)), (15, (1, 3)), (15, (5, 1)), (15, (8, 2, 8)), (16, (6, 2)), (16, (7, 0)), (16, (8, 3, 8)),
        (16, (9, 5, 1, 8, 4, 0, 7, 3, 10, 6, 2, 9)), (16, (10, 4, 10)), (17, (1, 4)), (17, (6, 3)), (18, (0, 3)),
        (18, (2, 9)), (18, (6, 7)), (19, (1, 10)), (19, (2, 1)), (19, (4, 9, 3, 8, 2, 7, 1, 6, 0, 5, 10, 4)),
        (19, (6, 5)), (19, (10, 6)), (20, (0, 6)), (20, (7, 10)), (20, (8, 9)),
        (21, (2, 6, 10, 3, 7, 0, 4, 8, 1, 5, 9, 2)), (21, (4, 0)), (21, (5, 3)), (21, (7, 9)), (21, (8, 5)),
        (22, (1, 6)), (22, (2, 0)), (22, (4, 7)), (23, (1,)), (23, (4, 9)), (23, (5, 2)),
        (23, (9, 1, 4, 7, 10, 2, 5, 8, 0, 3, 6, 9)), (24, (0, 9)), (24, (4, 2)), (24, (5, 8)), (24, (8, 0)),
        (25, (3, 5)), (25, (5, 10)), (25, (10, 9)), (26, (1, 6, 1)), (26, (3, 8)), (26, (4, 1)), (26, (8, 3)),
        (27, (2, 7)), (27, (5, 9)), (27, (7, 4)), (28, (0, 4)), (28, (6, 0)), (28, (10, 8)), (29, (2, 10)),
        (29, (3, 9, 3)), (29, (6, 0, 6)), (29, (7, 1)), (29, (9, 2)), (30, (3, 10)), (30, (6, 4)), (30, (7, 2, 7)),
        (31, (1, 8)), (31, (5, 6)), (31, (7, 5)), (31, (8, 1)), (32, (0, 1)), (32, (4, 9, 4)), (32, (9, 7)),
        (32, (10, 5, 10)), (33, (0, 2)), (33, (2, 8)), (33, (3, 1)), (33, (4, 6)), (33, (8, 7)), (33, (10,)),
        (34, (0,)), (34, (3,)), (34, (5,)),),
}


def is_prime(p: int) -> bool:
    """Whether p is a prime."""
    return p >= 2 and all(p % q for q in range(2, int(p ** 0.5) + 1))


def _is_progression(word: tuple[int, ...], p: int) -> bool:
    return len(word) == p + 1 and len({(word[i + 1] - word[i]) % p for i in range(p)}) == 1 and word[1] != word[0]


def core_width(p: int, core) -> int:
    """The columns of a core array: 3p - 1, plus one column per p letters of the extra orbits' words."""
    extra = sum(len(w) for _, w in core if len(w) not in (1, 2) and not _is_progression(tuple(w), p))
    return 3 * p - 1 + extra // p


def check_core(p: int, core: tuple[tuple[int, tuple[int, ...]], ...]) -> list[str]:
    """Every way core fails to be a core array for p (empty: it is one); no group is built.

    Besides the progressions, the single letters and the words ab, a core array may hold *extra orbits*: whole
    rotation orbits of other elements, each word a shortest word (its length the star distance of the
    permutation it names), every element once; the core is then one column wider per p of their letters, so it
    keeps its one blank (p = 11 needs one such orbit, docs/notes/frontier.md)."""
    faults = []
    words = [(column, tuple(word)) for column, word in core]
    progressions = [w for _, w in words if _is_progression(w, p)]
    steps = sorted((w[1] - w[0]) % p for w in progressions)
    if steps != list(range(1, p)):
        faults.append(f"the progressions' steps are {steps}, not 1..{p - 1} once each")
    if sorted(w for _, w in words if len(w) == 1) != [(a,) for a in range(p)]:
        faults.append("the single letters are not each letter once")
    if sorted(w for _, w in words if len(w) == 2) != [(a, b) for a in range(p) for b in range(p) if a != b]:
        faults.append("the two-letter words are not every ordered pair of different letters once")
    extra = [w for _, w in words if len(w) > 2 and not _is_progression(w, p)]
    if extra:
        elements = [named(w, p) for w in extra]
        if any(star_distance(g) != len(w) for g, w in zip(elements, extra)):
            faults.append("an extra word is not a shortest word of the permutation it names")
        if len(set(elements)) != len(elements):
            faults.append("two extra words name the same permutation")
        if {named(tuple((x + 1) % p for x in w), p) for w in extra} != set(elements):
            faults.append("the extra words are not whole orbits of the rotation")
        if sum(map(len, extra)) % p:
            faults.append("the extra words' letters are not a multiple of p")
    width = core_width(p, words)
    seen: set[tuple[int, int]] = set()
    for column, w in words:
        if column < 0 or column + len(w) > width:
            faults.append(f"word {w} at column {column} leaves the {width} columns")
        for i, letter in enumerate(w):
            if (column + i, letter) in seen:
                faults.append(f"letter {letter} twice in column {column + i}")
            seen.add((column + i, letter))
    if p * width - sum(len(w) for _, w in words) != 1 and not faults:
        faults.append(f"the core has {p * width - sum(len(w) for _, w in words)} blanks, not one")
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
    array), verified by the TableBuilder, its record a construction's; ConstructionError otherwise."""
    started = time.monotonic()
    network = facts.network
    p = network.degree
    why = applies(p) if facts.exchange is Exchange.TOTAL else "it builds total exchange"
    if why is not None:
        raise ConstructionError(f"{network.spec} {facts.exchange.value}: no prime-star table: {why}")
    faults = check_core(p, CORE_ARRAYS[p])
    if faults:
        raise ConstructionError(f"{network.spec}: the recorded core array for p = {p} is not one: {faults[0]}")
    cg = facts.cg
    # residue r <-> the letter whose transposition moves point r (point p for residue 0)
    letter_of = {r: cg.letter_index[str(r if r else p)] for r in range(p)}
    core = []
    for column, residues in CORE_ARRAYS[p]:
        word = tuple(letter_of[x] for x in residues)
        core.append((cg.element_of(tuple(cg.letters[i] for i in word)), column, word))
    full = facts.orbit_classes.full
    in_core = {g for g, _, _ in core}
    plan = [j for j, orbit in enumerate(full) if int(orbit[0]) in in_core]
    if any(not set(int(g) for g in full[j]) <= in_core for j in plan) or \
            len(in_core) != p - 1 + p * len(plan):
        raise ConstructionError(f"{network.spec}: the core array's words are not the exceptional elements and "
                                f"whole orbits")
    return core_and_blocks(facts, core, core_width(p, CORE_ARRAYS[p]), full, plan, facts.rotation,
                           CONSTRUCTION.record("construct", CONSTRUCTION_NAME, time.monotonic() - started),
                           what="the prime-star construction")


# ---------------------------------------------------------------- checking a core array without the group

def star_distance(perm: tuple[int, ...]) -> int:
    """The distance of a permutation of 0..n-1 from the identity in star-n (Coolsaet and Fack, 1994, section 2:
    c + m if it fixes 0, else c + m - 2, with c its non-trivial cycles and m its moved points)."""
    seen, cycles, moved = set(), 0, 0
    for start in range(len(perm)):
        if start in seen or perm[start] == start:
            continue
        cycles += 1
        x = start
        while x not in seen:
            seen.add(x)
            moved += 1
            x = perm[x]
    return cycles + moved - (0 if perm[0] == 0 else 2)


def _times_letter(perm: tuple[int, ...], letter: int) -> tuple[int, ...]:
    """perm * (0 letter) with (p*q)[i] = q[p[i]] (the package's product; a word names its letters' product)."""
    swap = {0: letter, letter: 0}
    return tuple(swap.get(x, x) for x in perm)


def named(word, p: int) -> tuple[int, ...]:
    """The permutation a word of residues names (residue r is the transposition (0 r), residue 0 the point p)."""
    perm = tuple(range(p + 1))
    for r in word:
        perm = _times_letter(perm, r % p or p)
    return perm


def distance_counts(n: int) -> dict[int, int]:
    """How many permutations of star-n lie at each distance, from the cycle types alone (no group built)."""
    from math import factorial

    counts: dict[int, int] = {}

    def types(rest: int, largest: int):
        if rest == 0:
            yield []
            return
        for part in range(min(rest, largest), 0, -1):
            for tail in types(rest - part, part):
                yield [part, *tail]

    for parts in types(n, n):
        z = 1
        for size in set(parts):
            z *= size ** parts.count(size) * factorial(parts.count(size))
        total = factorial(n) // z
        fixed = parts.count(1)
        cycles = sum(1 for size in parts if size > 1)
        moved = sum(size for size in parts if size > 1)
        with_zero_fixed = total * fixed // n
        for d, how_many in ((cycles + moved, with_zero_fixed), (cycles + moved - 2, total - with_zero_fixed)):
            if how_many:
                counts[d] = counts.get(d, 0) + how_many
    return counts


def implied_width(p: int, core=()) -> tuple[int, int]:
    """(the width of the table a core array implies for star-(p+1), the total letters): the core's columns plus
    one block of d columns per full orbit at distance d outside it, from :func:`distance_counts` alone."""
    counts = distance_counts(p + 1)
    core_counts = {0: 1, 1: p, 2: p * (p - 1), p + 1: p - 1}
    for _, w in core:
        if len(w) > 2 and not _is_progression(tuple(w), p):
            core_counts[len(w)] = core_counts.get(len(w), 0) + 1
    width = core_width(p, core)
    for d, k in sorted(counts.items()):
        rest = k - core_counts.get(d, 0)
        if rest % p:
            raise ConstructionError(f"{rest} elements at distance {d} of star-{p + 1} outside the core: not whole "
                                    f"orbits of {p}")
        width += d * (rest // p)
    return width, sum(d * k for d, k in counts.items())


def check_implied_table(p: int, core, samples: int = 200, seed: int = 0) -> list[str]:
    """Every fault of the table a core array implies for star-(p+1), found without building the group: the
    theorem's conditions on the array (:func:`check_core`), the width and the one blank from the distance counts
    of the cycle types, and for ``samples`` random elements the word the table gives them (a progression or a
    word of the array, or a rotation block of p shortest words naming the p elements of its orbit)."""
    import random

    faults = list(check_core(p, core))
    n = p + 1
    width, status = implied_width(p, core)
    if p * width - status != 1 or width != -(-status // p):
        faults.append(f"the implied width {width} is not the counting bound {-(-status // p)} with one blank")
    words = {named(w, p): w for _, w in core}
    rng = random.Random(seed)
    for _ in range(samples):
        g = list(range(n))
        rng.shuffle(g)
        g = tuple(g)
        distance = star_distance(g)
        if distance == 0:
            continue
        word = []  # a shortest word by descent: some letter always brings the distance down by one
        current = g
        while star_distance(current) > 0:
            letter = next(r for r in range(p) if star_distance(_times_letter(current, r or p)) ==
                          star_distance(current) - 1)
            word.append(letter)
            current = _times_letter(current, letter or p)
        word = tuple(reversed(word))
        if named(word, p) != g or len(word) != distance:
            faults.append(f"no shortest word found for {g}")
            continue
        block = {named(tuple((x + k) % p for x in word), p) for k in range(p)}
        if len(block) == 1:  # fixed by the rotation: a power of the p-cycle, in the core
            if g not in words:
                faults.append(f"the exceptional element {g} has no word in the core array")
        elif distance <= 2:
            if g not in words:
                faults.append(f"the element {g} at distance {distance} has no word in the core array")
        elif len(block) != p:
            faults.append(f"the orbit of {g} has {len(block)} elements, not {p}")
    return faults
