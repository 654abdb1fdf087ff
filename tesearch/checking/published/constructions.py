"""The seed papers' general constructions, as code.

Each function builds a whole :class:`~tesearch.tables.table.Table` for one size;
:func:`verify_construction` checks it with the Theorem-1 verifier.

* :func:`ring_odd` (seed 003 §3.1, C_n, n odd): row 0 holds a, aa, ..., a^((n-1)/2)
  and row 1 the same words in a'; T = (n-1)(n+1)/8.
* :func:`ring_even` (seed 003 §3.1, D_n, n even): the paper prints the tables for
  n = 12 and 10 and says "the general case can easily be derived"; the printed
  tables lost letters in transcription (see results/errata.md), so the rule
  used here is derived, not transcribed: both rows are alternating strings,
  row 1 the letterwise complement of row 0 (the last cell of row 1 blank when
  n/2 is odd), and the cut points are found by a longest-word-first
  backtracking so that every element appears once.  T = n^2/8 (n/2 even) or
  (n^2+4)/8 (n/2 odd).
* :func:`torus2d_odd` (seed 003 §3.3, C_n^2, n odd): every target orbit of
  sigma = a -> b -> a' -> b' is full; one rotation block per orbit.
* :func:`torus2d_even` (§3.3, D_n^2, n >= 6 even): the printed 11-message part
  (template ``torus-even-11``) followed by rotation blocks.
* :func:`torus3d_odd` (§3.4, C_n^3, n odd): the printed table of one class of
  size 2 and three classes of size 6, joined for i = 1..(n-1)/2, then blocks.
* :func:`torus3d_even` (§3.4, D_n^3, n > 4 even): the three printed tables
  (size-1/size-3 classes; size-2 classes for i = 1, 2; for each 3 <= i < n/2),
  joined, then blocks.
* :func:`star_odd_by_rotation` (seed 004 Theorem 3 and the n = 6 remark): when
  every exceptional word has even length, the odd-distance table is rotation
  blocks only.

Template parts are read with :func:`tesearch.checking.published.reading.read_cells` in
core mode with the printed cells as the only cut points; the reading must
hold every exceptional element and whole sigma-orbits, so the rest of the
targets is always a union of full orbits.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

from tesearch.running.errors import ConstructionError
from tesearch.networks.groups import CayleyGraph, cayley_graph
from tesearch.networks.families import network_from_spec
from tesearch.checking.published.complete import orbit_blocks
from tesearch.checking.published.reading import ReadingMode, read_cells
from tesearch.checking.published.templates import expand_blocks, expand_tokens, join, template_rows
from tesearch.networks.rotation import Rotation, find_rotation
from tesearch.tables.table import Placement, Table
from tesearch.tables.verify import Verification, verify_table
from tesearch.networks.words import targets


@dataclass
class Constructed:
    """A constructed table and the Cayley graph it was built on."""
    table: Table
    cg: CayleyGraph


def _graph(spec: str) -> tuple[CayleyGraph, Rotation | None]:
    cg = cayley_graph(network_from_spec(spec), check_order=False)
    return cg, find_rotation(cg, search=False)


def _table(cg: CayleyGraph, exchange: str, placements: list[Placement], T: int, sections: list[dict],
           construction: str) -> Table:
    net = cg.network
    extra = {"construction": construction}
    if sections:
        extra["sections"] = sections
    return Table(net.spec, exchange, {s: tuple(net.generators[s]) for s in net.letters}, T,
                 sorted(placements), None, extra)


def _core_then_blocks(spec: str, exchange: str, core_cells, cuts, construction: str) -> Constructed:
    cg, rotation = _graph(spec)
    if rotation is None:
        raise ConstructionError(f"{spec}: no rotation")
    result = read_cells(core_cells, cg, exchange, ReadingMode.CORE, rotation, cap=1, cuts=cuts)
    if not result.readings:
        raise ConstructionError(f"{spec}: the printed part has no reading ({result.reason})")
    core = result.readings[0]
    width = len(core_cells[0])
    in_core = {cg.element_of(p.word) for p in core}
    rest = [int(g) for g in targets(cg, exchange) if int(g) not in in_core]
    blocks, end = orbit_blocks(cg, rotation, rest, width)
    sections = [{"name": "core", "start": 0, "end": width}, {"name": "rotation blocks", "start": width, "end": end}]
    return Constructed(_table(cg, exchange, core + blocks, end, sections, construction), cg)


def ring_odd(n: int) -> Constructed:
    """Seed 003's table for C_n, n odd."""
    if n < 3 or n % 2 == 0:
        raise ConstructionError("ring_odd needs odd n >= 3")
    cg, _ = _graph(f"ring-{n}:cyclic")
    h = (n - 1) // 2
    placements, col = [], 0
    for k in range(1, h + 1):
        placements.append(Placement(0, col, ("a",) * k))
        placements.append(Placement(1, col, ("a'",) * k))
        col += k
    return Constructed(_table(cg, "total", placements, col, [], "Coolsaet, Fack and De Meyer (1994) §3.1 ring, n odd"), cg)


def _ring_even_cuts(h: int) -> tuple[list[int], list[int]] | None:
    """Word lengths of rows 0 and 1 for D_(2h) (see the module doc)."""
    total = h * h
    T = (total + 1) // 2
    ends = [T, T - (2 * T - total)]
    used: set = set()
    rows: list[list[int]] = [[], []]
    pos = [0, 0]

    def kind(r: int, c: int) -> str:
        return ("y" if c % 2 == 0 else "Y") if r == 0 else ("Y" if c % 2 == 0 else "y")

    def dfs() -> bool:
        r = 0 if pos[0] <= pos[1] else 1
        if pos[r] == ends[r]:
            r = 1 - r
        if pos[r] == ends[r]:
            return len(used) == 2 * (h - 1) + 1
        c = pos[r]
        for k in range(min(h, ends[r] - c), 0, -1):
            element = "z" if k == h else (kind(r, c), k)
            if element in used:
                continue
            used.add(element)
            rows[r].append(k)
            pos[r] += k
            if dfs():
                return True
            used.discard(element)
            rows[r].pop()
            pos[r] -= k
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * h * h + 100))
    try:
        return (rows[0], rows[1]) if dfs() else None
    finally:
        sys.setrecursionlimit(limit)


def ring_even(n: int) -> Constructed:
    """The even ring D_n by the derived cut rule (module doc)."""
    if n < 4 or n % 2:
        raise ConstructionError("ring_even needs even n >= 4")
    cg, _ = _graph(f"ring-{n}:dihedral")
    lengths = _ring_even_cuts(n // 2)
    if lengths is None:
        raise ConstructionError(f"ring-{n}: no cut sequence found")
    placements, T = [], 0
    for r, row in enumerate(lengths):
        col = 0
        for k in row:
            first = ("a" if col % 2 == 0 else "A") if r == 0 else ("A" if col % 2 == 0 else "a")
            other = "A" if first == "a" else "a"
            placements.append(Placement(r, col, tuple(first if j % 2 == 0 else other for j in range(k))))
            col += k
        T = max(T, col)
    return Constructed(_table(cg, "total", placements, T, [], "Coolsaet, Fack and De Meyer (1994) §3.1 ring, n even (derived cut rule)"), cg)


def torus2d_odd(n: int) -> Constructed:
    """Seed 003's table for C_n^2, n odd: rotation blocks only."""
    if n < 3 or n % 2 == 0:
        raise ConstructionError("torus2d_odd needs odd n >= 3")
    cg, rotation = _graph(f"torus-{n}x{n}")
    blocks, end = orbit_blocks(cg, rotation, targets(cg, "total"), 0)
    return Constructed(_table(cg, "total", blocks, end, [{"name": "rotation blocks", "start": 0, "end": end}],
                        "Coolsaet, Fack and De Meyer (1994) §3.3 torus, n odd"), cg)


def torus2d_even(n: int) -> Constructed:
    """Seed 003's table for D_n^2, n even: the printed part and rotation blocks."""
    if n < 6 or n % 2:
        raise ConstructionError("torus2d_even needs even n >= 6 (n = 4 is hypercube-4)")
    _, rows = template_rows("torus-even-11")
    part = expand_blocks(rows, n // 2)
    return _core_then_blocks(f"torus-{n}x{n}", "total", part.cells, part.cuts,
                             "Coolsaet, Fack and De Meyer (1994) §3.3 torus, n even (11 special messages + rotation)")


def torus3d_odd(n: int) -> Constructed:
    """Seed 003's table for C_n^3, n odd."""
    if n < 3 or n % 2 == 0:
        raise ConstructionError("torus3d_odd needs odd n >= 3")
    _, rows = template_rows("torus3d-odd")
    part = join([expand_tokens(rows, i=i) for i in range(1, (n - 1) // 2 + 1)])
    return _core_then_blocks(f"torus-{n}x{n}x{n}", "total", part.cells, part.cuts,
                             "Coolsaet, Fack and De Meyer (1994) §3.4 torus, n odd (size-2 classes + rotation)")


def torus3d_even(n: int) -> Constructed:
    """Seed 003's table for D_n^3, n even > 4."""
    if n < 6 or n % 2:
        raise ConstructionError("torus3d_even needs even n > 4 (n = 4 is hypercube-6)")
    h = n // 2
    _, rows_a = template_rows("torus3d-even-a")
    _, rows_b = template_rows("torus3d-even-b")
    _, rows_c = template_rows("torus3d-even-c")
    parts = [expand_tokens(rows_a, m=h - 1), expand_tokens(rows_b)]
    parts += [expand_tokens(rows_c, m=i - 1) for i in range(3, h)]
    part = join(parts)
    return _core_then_blocks(f"torus-{n}x{n}x{n}", "total", part.cells, part.cuts,
                             "Coolsaet, Fack and De Meyer (1994) §3.4 torus, n even (size-1/3/2 classes + rotation)")


def star_odd_by_rotation(n: int) -> Constructed:
    """Seed 004's odd-distance star table: rotation blocks only (when every exceptional word is even)."""
    cg, rotation = _graph(f"star-{n}")
    blocks, end = orbit_blocks(cg, rotation, targets(cg, "odd-distance"), 0)
    return Constructed(_table(cg, "odd-distance", blocks, end, [{"name": "rotation blocks", "start": 0, "end": end}],
                        "Coolsaet and Fack (1994) Theorem 3 / §2.2 odd-distance by rotation"), cg)


#: name -> (builder, the paper's T formula, sizes it applies to)
CONSTRUCTIONS: dict[str, tuple[Callable[[int], Constructed], Callable[[int], int], Callable[[int], bool]]] = {
    "ring-odd": (ring_odd, lambda n: (n - 1) * (n + 1) // 8, lambda n: n >= 3 and n % 2 == 1),
    "ring-even": (ring_even, lambda n: n * n // 8 if (n // 2) % 2 == 0 else (n * n + 4) // 8,
                  lambda n: n >= 4 and n % 2 == 0),
    "torus2d-odd": (torus2d_odd, lambda n: n * (n - 1) * (n + 1) // 8, lambda n: n >= 3 and n % 2 == 1),
    "torus2d-even": (torus2d_even, lambda n: n ** 3 // 8, lambda n: n >= 6 and n % 2 == 0),
    "torus3d-odd": (torus3d_odd, lambda n: n * n * (n - 1) * (n + 1) // 8, lambda n: n >= 3 and n % 2 == 1),
    "torus3d-even": (torus3d_even, lambda n: n ** 4 // 8, lambda n: n >= 6 and n % 2 == 0),
}


@dataclass
class ConstructionCheck:
    """A construction's table against the paper's formula and the bound."""
    name: str
    n: int
    T: int
    claimed_T: int
    bound: int
    valid: bool
    verification: Verification


def verify_construction(name: str, n: int) -> ConstructionCheck:
    """Build a construction for n and check it with the verifier."""
    builder, formula, applies = CONSTRUCTIONS[name]
    if not applies(n):
        raise ConstructionError(f"{name} does not apply to n = {n}")
    built = builder(n)
    result = verify_table(built.table, cg=built.cg)
    return ConstructionCheck(name, n, built.table.T, formula(n), result.bounds.best, result.ok, result)
