"""The lift as a solver-neutral 0/1 model: ring and factor, items and options, sections.

See :mod:`tesearch.search.lift` for the construction.  :func:`split_off` splits a
product network into the ring A and the rest H; :func:`build_model` turns a
factor table of H into the :class:`LiftModel`: items (copies of factor words,
lone ring words), their options (ring element, word split, cells) and the
sections ``placement``, ``latin``, ``shift`` and ``column``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from tesearch.solvers import Backend
from tesearch.running.errors import LiftError, SpecError
from tesearch.networks.groups import cached_cayley_graph
from tesearch.networks.families import Network
from tesearch.networks.products import torus_network
from tesearch.tables.table import Table
from tesearch.networks.words import words_by_element


class AssignMode(str, enum.Enum):
    """How ring elements are spread over the copies of the factor table."""

    FIXED = "fixed"  # copy k carries x_k for every h
    LATIN = "latin"  # x(k, h) free; each h takes every x once over the copies
    CYCLIC = "cyclic"  # x(k, h) = k + t(h) mod m, one shift t(h) per h: a Latin lift with far fewer choices


@dataclass(frozen=True)
class LiftParams:
    """One lift: a torus spec, the index of the ring split off, the mode and the time."""

    network: str
    ring_index: int
    mode: AssignMode
    timeout_s: float = 120.0
    seed: int = 0
    backend: Backend = Backend.Z3

    def __str__(self) -> str:
        return f"lift {self.network} ring={self.ring_index} {self.mode.value} {self.backend.value} seed={self.seed}"


@dataclass(frozen=True)
class HWord:
    """A placed word of the factor table, in the product's letters."""

    column: int
    letters: tuple[str, ...]


@dataclass(frozen=True)
class Option:
    """One way to complete an item: the ring element, its word split, and its cells."""

    x: int
    prefix: tuple[str, ...]
    suffix: tuple[str, ...]
    start: int  # first column of the completed word
    cells: tuple[tuple[str, int], ...]  # (ring letter, column)


# ---------------------------------------------------------------- the split

def split_off(network: Network, ring_index: int) -> tuple[Network, Network, dict[str, str]]:
    """(ring A, rest H, map from H's letters to the product's letters) of a product of rings."""
    if not network.is_product:
        raise SpecError(f"{network.spec}: a lift needs a product of at least two rings (a torus)")
    if not 0 <= ring_index < len(network.factors):
        raise SpecError(f"{network.spec}: no side {ring_index} (it has sides 0..{len(network.factors) - 1})")
    sides = [factor.order for factor in network.factors]
    kinds = [factor.params.kind for factor in network.factors]
    ring = network.factors[ring_index]
    keep = [i for i in range(len(sides)) if i != ring_index]
    rest = torus_network(tuple(sides[i] for i in keep), tuple(kinds[i] for i in keep))
    letter_map: dict[str, str] = {}
    for j, i in enumerate(keep):
        for theirs, ours in zip(rest.factors[j].letters, network.factors[i].letters):
            letter_map[theirs] = ours
    if len(letter_map) != len(rest.letters):
        raise LiftError(f"{network.spec}: the sides' letters do not line up")  # pragma: no cover
    return ring, rest, letter_map


def ring_words(ring: Network) -> list[list[tuple[str, ...]]]:
    """Shortest words of each ring element, indexed by element (0 = identity)."""
    return words_by_element(cached_cayley_graph(ring))


def factor_words(factor: Table, letter_map: dict[str, str]) -> list[HWord]:
    """The factor table's placed words in the product's letters, ordered by (column, word): index = h."""
    return sorted((HWord(p.column, tuple(letter_map[s] for s in p.word)) for p in factor.placements),
                  key=lambda w: (w.column, w.letters))


# ---------------------------------------------------------------- the model

@dataclass
class LiftModel:
    """The lift as 0/1 constraints over (item, option) pairs, independent of the solver.

    Sections: ``placement`` (each item takes exactly one option), ``latin``
    (in LATIN and CYCLIC mode each factor word h takes every ring element
    exactly once over the copies), ``shift`` (in CYCLIC mode each h takes one
    shift t, and copy k of h takes x = k + t: ``shifts[h][t]`` lists, per
    copy, the options that agree with t), ``column`` (each ring letter at
    most once per column).
    """

    params: LiftParams
    items: list[tuple[str, int, int]]  # ("copy", copy, h index) or ("lone", -1, x)
    options: list[list[Option]]
    latin: list[list[tuple[int, int]]]  # exactly-one groups of (item, option)
    column: list[list[tuple[int, int]]]  # at-most-one groups of (item, option)
    width: int
    shifts: list[list[list[list[tuple[int, int]]]]] = field(default_factory=list)  # [h][t][copy] -> options

    @property
    def size(self) -> int:
        """Options in the model (its 0/1 variables)."""
        return sum(map(len, self.options))


def _split_options(x: int, words: list[tuple[str, ...]], start: int, length: int, width: int
                   ) -> list[Option]:
    out = []
    for w in words:
        for p in range(len(w) + 1):
            first = start - p
            end = start + length + len(w) - p
            if first < 0 or end > width:
                continue
            cells = tuple((w[i], first + i) for i in range(p))
            cells += tuple((w[i], start + length + i - p) for i in range(p, len(w)))
            out.append(Option(x, w[:p], w[p:], first, cells))
    return out


def build_model(params: LiftParams, hwords: list[HWord], h_width: int,
                ring_word_lists: list[list[tuple[str, ...]]]) -> LiftModel:
    """The lift of ``hwords`` (a factor table of width ``h_width``) by a ring with these shortest words."""
    m = len(ring_word_lists)
    width = m * h_width
    items: list[tuple[str, int, int]] = []
    options: list[list[Option]] = []
    # -- items: copy k of the factor word h, and one lone word per ring element x != 0
    for k in range(m):
        for hi, hw in enumerate(hwords):
            xs = [k] if params.mode is AssignMode.FIXED else range(m)
            opts = []
            for x in xs:
                opts += _split_options(x, ring_word_lists[x], k * h_width + hw.column, len(hw.letters), width)
            items.append(("copy", k, hi))
            options.append(opts)
    for x in range(1, m):
        opts = []
        for w in ring_word_lists[x]:
            for c in range(width - len(w) + 1):
                opts.append(Option(x, w, (), c, tuple((w[i], c + i) for i in range(len(w)))))
        items.append(("lone", -1, x))
        options.append(opts)
    for i, opts in enumerate(options):
        if not opts:
            raise LiftError(f"{params}: item {items[i]} has no option inside the width")
    # -- section latin
    latin: list[list[tuple[int, int]]] = []
    if params.mode in (AssignMode.LATIN, AssignMode.CYCLIC):
        by_h_x: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for i, (kind, _, hi) in enumerate(items):
            if kind == "copy":
                for o, opt in enumerate(options[i]):
                    by_h_x.setdefault((hi, opt.x), []).append((i, o))
        latin = [by_h_x[key] for key in sorted(by_h_x)]
    # -- section shift
    shifts: list[list[list[list[tuple[int, int]]]]] = []
    if params.mode is AssignMode.CYCLIC:
        per_h: dict[int, dict[int, int]] = {}  # h -> copy -> item
        for i, (kind, k, hi) in enumerate(items):
            if kind == "copy":
                per_h.setdefault(hi, {})[k] = i
        for hi in range(len(hwords)):
            by_shift = []
            for t in range(m):
                by_shift.append([[(i, o) for o, opt in enumerate(options[i]) if opt.x == (k + t) % m]
                                 for k, i in sorted(per_h[hi].items())])
            shifts.append(by_shift)
    # -- section column
    users: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for i, opts in enumerate(options):
        for o, opt in enumerate(opts):
            for cell in opt.cells:
                users.setdefault(cell, []).append((i, o))
    column = [users[cell] for cell in sorted(users) if len(users[cell]) > 1]
    return LiftModel(params, items, options, latin, column, width, shifts)


