"""Network families as permutation generators, and the one registry of them.

Each family is one small builder that returns a plain :class:`Network`
(letters, their permutations as 0-based images with ``p*q = i -> q[p[i]]``,
and the letter cycle of its rotation where it has one), one typed parameter
record, and one parser, registered together as a :class:`Family` in
:data:`FAMILIES`.  Composite networks are built from primitives: a torus is a
product of rings (its ``factors``, one per axis), a hypercube a product of
two-node rings.  The CLI, the tests and the table readers all go through
:func:`network_from_spec`, which checks the group's order (known from the
family's formula) against the limit before anything is built.

>>> net = network_from_spec("star-4")
>>> net.letters, net.order, net.generators["1"]
(('1', '2', '3'), 24, (1, 0, 2, 3))
>>> [f.spec for f in network_from_spec("torus-4x5").factors]
['ring-4:dihedral', 'ring-5:cyclic']
>>> FAMILIES["hypercube"].order(HypercubeParams(10))
1024

This module imports only the standard library, tesearch's bottom layer
(errors, files, limits) and :mod:`tesearch.networks.permutations` (the :class:`Network`
record and the permutation helpers, re-exported here): the checking side may
use it to learn what a spec names.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from tesearch.running import limits
from tesearch.running.errors import GeneratorsError, SpecError
from tesearch.running.files import MAX_GENERATORS_FILE_BYTES, read_json_file
from tesearch.networks.permutations import (Network, Perm, capped_factorial, compose, group_memory_estimate,  # noqa: F401
                                   inverse, transposition)

#: the prefix of a network that belongs to no family (a generator set of the user's)
CUSTOM_PREFIX = "custom:"


# --------------------------------------------------------------------------
# parameter records

@dataclass(frozen=True)
class SymmetricParams:
    """Parameters of a network on the symmetric group S_n (star, pancake, bubble-sort)."""

    n: int


@dataclass(frozen=True)
class HypercubeParams:
    """Parameters of the d-dimensional hypercube."""

    d: int


@dataclass(frozen=True)
class RingParams:
    """Parameters of a ring: n nodes, presented by the cyclic or the dihedral group."""

    n: int
    kind: str


@dataclass(frozen=True)
class TorusParams:
    """Parameters of a torus: one side and one group kind per axis."""

    sides: tuple[int, ...]
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class TwistedParams:
    """Parameters of a twisted torus: two or three sides, each k or 2k, both present (see twisted_torus_network)."""

    sides: tuple[int, ...]


CYCLIC = "cyclic"
DIHEDRAL = "dihedral"
GROUP_KINDS = (CYCLIC, DIHEDRAL)
#: the ':GROUP' suffix of a twisted torus (``torus-4x4x8:twisted``); its rings are cyclic
TWISTED = "twisted"
AXIS_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: axis names of a twisted torus's letters (``x+``, ``x-``, ...), in the spec's side order
TWISTED_AXES = "xyz"
#: the one line that names the shapes a twist exists for
TWISTED_SHAPES = ("twisted tori exist for 2a x a (e.g. torus-8x4:twisted) and k x k x 2k or k x 2k x 2k "
                  "(e.g. torus-4x4x8:twisted, torus-4x8x8:twisted), sides in any order, k >= 2")


def default_group(side: int) -> str:
    """Dihedral for even sides of at least 4 (they admit optimal tables), else cyclic."""
    return DIHEDRAL if side % 2 == 0 and side >= 4 else CYCLIC


# --------------------------------------------------------------------------
# builders: one small function per family

def star_network(n: int) -> Network:
    """The n-star: S_n with the transpositions (0 a), letters "1".."n-1"."""
    p = _check_symmetric("star", n)
    letters = tuple(str(a) for a in range(1, n))
    gens = {str(a): transposition(n, 0, a) for a in range(1, n)}
    return Network(f"star-{n}", "star", letters, gens, rotation=letters, params=p, order=math.factorial(n))


def pancake_network(n: int) -> Network:
    """The n-pancake: S_n with prefix reversals of length 2..n, letters "2".."n"."""
    p = _check_symmetric("pancake", n)
    gens = {str(k): tuple(list(range(k - 1, -1, -1)) + list(range(k, n))) for k in range(2, n + 1)}
    return Network(f"pancake-{n}", "pancake", tuple(gens), gens, params=p, order=math.factorial(n))


def bubblesort_network(n: int) -> Network:
    """The n-bubble-sort graph: S_n with adjacent transpositions (i-1 i), letters "1".."n-1"."""
    p = _check_symmetric("bubblesort", n)
    gens = {str(i): transposition(n, i - 1, i) for i in range(1, n)}
    return Network(f"bubblesort-{n}", "bubblesort", tuple(gens), gens, params=p, order=math.factorial(n))


def _check_symmetric(family: str, n: int) -> SymmetricParams:
    if n < 3:
        raise SpecError(f"{family}-{n}: the {family} network needs n >= 3")
    return SymmetricParams(n)


def _ring_factor(side: int, kind: str, base: str) -> tuple[dict[str, Perm], list[str], list[str]]:
    """Generators of one ring factor acting regularly on ``side`` points.

    Returns (generators, first letters, second letters): the first letter is
    ``base``; the second is ``base'`` (cyclic inverse) or ``base.upper()``
    (the other dihedral involution).  A cyclic side of 2 has one letter.
    """
    if kind == CYCLIC:
        forward = tuple((i + 1) % side for i in range(side))
        if side == 2:
            return {base: forward}, [base], []
        return {base: forward, base + "'": inverse(forward)}, [base], [base + "'"]
    # dihedral of order `side`: y swaps 2k <-> 2k+1, Y swaps 2k+1 <-> 2k+2 (mod side)
    y = list(range(side))
    big_y = list(range(side))
    for k in range(0, side, 2):
        y[k], y[k + 1] = k + 1, k
        j, j1 = k + 1, (k + 2) % side
        big_y[j], big_y[j1] = j1, j
    return {base: tuple(y), base.upper(): tuple(big_y)}, [base], [base.upper()]


def _check_side(spec: str, side: int, kind: str) -> None:
    if side < 2:
        raise SpecError(f"{spec}: ring sides must be at least 2 (got {side})")
    if kind not in GROUP_KINDS:
        raise SpecError(f"{spec}: unknown group {kind!r} (use cyclic or dihedral)")
    if kind == DIHEDRAL and (side % 2 or side < 4):
        raise SpecError(f"{spec}: the dihedral group needs an even side of at least 4 (got {side})")


def _torus_params(sides: tuple[int, ...], kinds: tuple[str, ...] | None, spec: str | None) -> TorusParams:
    if not sides:
        raise SpecError("torus: no sides given")
    if len(sides) > len(AXIS_LETTERS):
        raise SpecError(f"torus: at most {len(AXIS_LETTERS)} dimensions")
    kinds = tuple(kinds) if kinds is not None else tuple(default_group(s) for s in sides)
    if len(kinds) != len(sides):
        raise SpecError(f"{spec or 'torus'}: give one group for all sides or one per side ({len(sides)})")
    name = spec or _torus_spec(sides, kinds)
    for side, kind in zip(sides, kinds):
        _check_side(name, side, kind)
    return TorusParams(tuple(sides), kinds)


def torus_network(sides: tuple[int, ...], kinds: tuple[str, ...] | None = None, *, spec: str | None = None) -> Network:
    """The torus ``sides[0] x sides[1] x ...`` as a product of rings.

    Dimension i uses letter ``"abc..."[i]``; its second letter is ``x'`` in a
    cyclic factor and ``X`` in a dihedral one.  Letters are ordered first
    letters of all dimensions, then second letters, so that for equal sides
    and equal groups the rotation is ``a -> b -> ... -> a' -> b' -> ...``
    (seed 003, sections 3.3 and 3.4).
    """
    params = _torus_params(tuple(sides), kinds, spec)
    sides, kinds = params.sides, params.kinds
    name = spec or _torus_spec(sides, kinds)
    offset = 0
    total = sum(sides)
    gens: dict[str, Perm] = {}
    first: list[str] = []
    second: list[str] = []
    factors = []
    for i, (side, kind) in enumerate(zip(sides, kinds)):
        base = AXIS_LETTERS[i]
        fgens, f1, f2 = _ring_factor(side, kind, base)
        factors.append(Network(f"ring-{side}:{kind}", "ring", tuple(f1 + f2), fgens, params=RingParams(side, kind),
                               order=side))
        for letter, perm in fgens.items():
            images = list(range(total))
            for j, image in enumerate(perm):
                images[offset + j] = offset + image
            gens[letter] = tuple(images)
        first += f1
        second += f2
        offset += side
    letters = tuple(first + second)
    rotation = None
    if len(set(sides)) == 1 and len(set(kinds)) == 1 and (second or len(sides) > 1):
        rotation = letters
    return Network(name, "torus", letters, {s: gens[s] for s in letters}, rotation=rotation,
                   factors=tuple(factors), params=params, order=math.prod(sides))


def _torus_spec(sides: tuple[int, ...], kinds: tuple[str, ...]) -> str:
    base = "torus-" + "x".join(map(str, sides))
    defaults = tuple(default_group(s) for s in sides)
    if kinds == defaults:
        return base
    if len(set(kinds)) == 1:
        return f"{base}:{kinds[0]}"
    return f"{base}:{','.join(kinds)}"


def _twisted_params(sides: tuple[int, ...], spec: str | None = None) -> TwistedParams:
    """Check that a shape admits the twist: 2 or 3 sides, each k or 2k (k >= 2), both lengths present."""
    sides = tuple(sides)
    name = spec or _twisted_spec(sides)
    k = min(sides, default=0)
    if len(sides) not in (2, 3) or k < 2 or set(sides) != {k, 2 * k}:
        raise SpecError(f"{name}: no twist for this shape; {TWISTED_SHAPES}")
    return TwistedParams(sides)


def _twisted_spec(sides: tuple[int, ...]) -> str:
    return "torus-" + "x".join(map(str, sides)) + ":" + TWISTED


def twisted_torus_network(sides: tuple[int, ...]) -> Network:
    """The twisted torus on sides k and 2k (Camara et al. 2010; TPU v4): see docs/twisted-tori.md.

    Rule, on coordinates (v_x, v_y[, v_z]), v_i in 0..side_i - 1: a step along an axis moves its
    coordinate by +-1; a long axis (side 2k) wraps plainly; a step that crosses the seam of a
    short axis (side k) also moves k along every long axis.  The spec's side order is kept: x
    is the first side, so torus-8x4:twisted has a long x (8) and a short y (4).

    Presentation: the group is Z^n / L (L spanned by k e_i + k sum_{long j} e_j for short i and
    2k e_j for long j), on the same points as the torus, one cyclic ring per axis.  The group
    isomorphism maps v to the ring positions c_i = v_i mod k (short i) and
    c_j = v_j + sum_{short i} v_i mod 2k (long j), so letter ``j+`` of a long axis turns ring j
    by +1, and ``i+`` of a short axis turns ring i and every long ring by +1.  The ring
    positions are sheared coordinates: a short step changes c_j but not v_j except at a seam.
    Letters are ``x+ y+ [z+] x- y- [z-]``; that order is a rotation (x+ -> y+ -> z+ -> x- ...),
    since L is invariant under every signed permutation of the axes.  Not a product of rings:
    ``factors`` is empty.
    """
    params = _twisted_params(tuple(sides))
    sides = params.sides
    k = min(sides)
    longs = [j for j, side in enumerate(sides) if side == 2 * k]
    offsets = [sum(sides[:i]) for i in range(len(sides))]

    def turn(rings: list[int], step: int) -> Perm:
        images = list(range(sum(sides)))
        for r in rings:
            for p in range(sides[r]):
                images[offsets[r] + p] = offsets[r] + (p + step) % sides[r]
        return tuple(images)

    gens: dict[str, Perm] = {}
    for i, side in enumerate(sides):
        rings = [i] + (longs if side == k else [])
        gens[TWISTED_AXES[i] + "+"] = turn(rings, 1)
        gens[TWISTED_AXES[i] + "-"] = turn(rings, -1)
    letters = tuple(TWISTED_AXES[i] + sign for sign in "+-" for i in range(len(sides)))
    return Network(_twisted_spec(sides), "torus", letters, {s: gens[s] for s in letters}, rotation=letters,
                   params=params, order=math.prod(sides))


def ring_network(n: int, kind: str | None = None) -> Network:
    """The n-ring: C_n with letters a, a' or D_n (n even) with letters a, A."""
    kind = kind or default_group(n)
    spec = f"ring-{n}" if kind == default_group(n) else f"ring-{n}:{kind}"
    if n < 3:
        raise SpecError(f"{spec}: a ring needs n >= 3 (ring-2 is hypercube-1)")
    net = torus_network((n,), (kind,), spec=spec)
    return Network(spec, "ring", net.letters, net.generators, rotation=net.rotation,
                   factors=net.factors, params=RingParams(n, kind), order=n)


def hypercube_network(d: int) -> Network:
    """The d-cube C_2^d as a product of d two-node rings, letters a, b, c, ..."""
    if d < 1:
        raise SpecError(f"hypercube-{d}: the dimension must be at least 1")
    if d > len(AXIS_LETTERS):
        raise SpecError(f"hypercube-{d}: at most {len(AXIS_LETTERS)} dimensions")
    net = torus_network((2,) * d, (CYCLIC,) * d, spec=f"hypercube-{d}")
    return Network(f"hypercube-{d}", "hypercube", net.letters, net.generators,
                   rotation=net.letters if d > 1 else None, factors=net.factors, params=HypercubeParams(d),
                   order=2 ** d)


# --------------------------------------------------------------------------
# user generators

def check_generators(gens: Mapping[str, object], where: str) -> dict[str, Perm]:
    """Validate a ``generators`` object: letters to permutations of 0..m-1.

    The set must be closed under inverses (the graph is undirected) and must
    not contain the identity or the same permutation twice.
    """
    if not isinstance(gens, Mapping) or not gens:
        raise GeneratorsError("'generators' must be a non-empty object of letter -> permutation", where=where)
    perms: dict[str, Perm] = {}
    size = None
    for letter, images in gens.items():
        here = f"{where}, generator {letter!r}"
        if not isinstance(letter, str) or not letter or any(c.isspace() or c in ".|#" for c in letter):
            raise GeneratorsError("letters must be non-empty strings without spaces, '.', '|' or '#'", where=here)
        if not isinstance(images, (list, tuple)) or not all(isinstance(x, int) and not isinstance(x, bool)
                                                              for x in images):
            raise GeneratorsError("a permutation is a list of integer images", where=here)
        if size is None:
            size = len(images)
        if len(images) != size:
            raise GeneratorsError(f"has {len(images)} images, the first generator has {size}", where=here)
        if sorted(images) != list(range(size)):
            raise GeneratorsError(f"is not a permutation of 0..{size - 1}", where=here)
        perm = tuple(images)
        if perm == tuple(range(size)):
            raise GeneratorsError("is the identity (a loop at every node)", where=here)
        perms[letter] = perm
    seen: dict[Perm, str] = {}
    for letter, perm in perms.items():
        if perm in seen:
            raise GeneratorsError(f"generators {seen[perm]!r} and {letter!r} are the same permutation", where=where)
        seen[perm] = letter
    for letter, perm in perms.items():
        if inverse(perm) not in seen:
            raise GeneratorsError(
                f"not closed under inverses: the inverse of {letter!r} is not a generator, so the graph is directed",
                where=where)
    return perms


def generators_network(gens: Mapping[str, object], *, name: str = "custom:generators",
                       where: str = "generators") -> Network:
    """A network of no family from a ``generators`` object (letter -> list of images).

    ``name`` is its label; it must start with ``custom:`` (a family name would be a claim to check:
    see :func:`network_for_table`).
    """
    if not name.startswith(CUSTOM_PREFIX):
        raise SpecError(f"{name!r}: a generator set of no family is labelled 'custom:NAME'")
    perms = check_generators(gens, where)
    return Network(name, "custom", tuple(perms), perms)


def network_from_file(path: str | Path) -> Network:
    """A network from a JSON file holding a ``generators`` object (a bare one or a table's).

    A ``network`` key naming a family is checked against the generators; without one the
    network is ``custom:<file stem>``.
    """
    path = Path(path)
    data = read_json_file(path, GeneratorsError, max_bytes=MAX_GENERATORS_FILE_BYTES)
    if isinstance(data, dict) and "generators" in data:
        gens = data["generators"]
        label = data.get("network")
        if label is not None and not isinstance(label, str):
            raise GeneratorsError("'network' must be a string", where=str(path))
    else:
        gens, label = data, None
    return network_for_table(label or CUSTOM_PREFIX + path.stem, gens, where=str(path))


def network_for_table(label: str, gens: Mapping[str, object], *, where: str = "table") -> Network:
    """The network a table or generators file names, checked against its generators (names are never trusted).

    ``custom:NAME`` takes the generators as they are.  A family spec is rebuilt from the registry and
    its generators must equal the file's (same letters, same images); a mismatch is a
    :class:`GeneratorsError` naming both.
    """
    if label.startswith(CUSTOM_PREFIX):
        return generators_network(gens, name=label, where=where)
    perms = check_generators(gens, where)
    try:
        net = network_from_spec(label)
    except SpecError as exc:
        raise GeneratorsError(f"network {label!r} is not a network tesearch knows ({exc.message}); label a "
                              f"generator set of no family 'custom:NAME'", where=where) from None
    if not net.same_generators(perms):
        raise GeneratorsError(
            f"the file says network {label!r}, but its generators are not {label}'s: it has {len(perms)} letters "
            f"({' '.join(perms)}) on {len(next(iter(perms.values())))} points, {label} has {net.degree} "
            f"({' '.join(net.letters)}) on {net.points}" + ("" if set(perms) != set(net.letters)
                                                           else ", with other permutations"), where=where)
    return net


# --------------------------------------------------------------------------
# the registry

@dataclass(frozen=True)
class Family:
    """One network family: how to read its spec, how large it is, how to build it."""

    name: str
    summary: str
    examples: tuple[str, ...]
    parse: Callable[[str, str, str | None], object]  # (spec, PARAMS text, GROUP suffix) -> parameter record
    order: Callable[[object], int]  # the group order, from the parameters alone
    build: Callable[[object], Network]
    groups: tuple[str, ...] = field(default=())  # the ':GROUP' suffixes it accepts
    params: str = field(kw_only=True)  # PARAMS of FAMILY-PARAMS and its rule, "N (N >= 3)": for spec_grammar
    traits: frozenset[str] = field(default=frozenset(), kw_only=True)  # what bounds and constructions may use


#: a family trait: the generators are the transpositions (0 a) of S_n, so the cycle-entry balance bound
#: (tesearch.facts.bounds.star_letter_balance) and the star-graph paper's rotation blocks apply
TRANSPOSITION_STAR = "transposition-star"


def has_trait(network: Network, trait: str) -> bool:
    """Whether ``network``'s family (from the registry; a generator file has none) has ``trait``: the one way
    code outside the registry asks what a family is, instead of testing its name."""
    family = FAMILIES.get(network.family)
    return family is not None and trait in family.traits


def _int(spec: str, text: str, what: str) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise SpecError(f"{spec}: {what} must be a positive integer of at most 9 digits, got {text!r}")
    return int(text)


def _no_group(family: str):
    def parse(spec: str, params: str, group: str | None) -> SymmetricParams:
        if group is not None:
            raise SpecError(f"{spec}: the {family} family takes no ':GROUP' suffix")
        return _check_symmetric(family, _int(spec, params, "n"))
    return parse


def _parse_hypercube(spec: str, params: str, group: str | None) -> HypercubeParams:
    if group is not None:
        raise SpecError(f"{spec}: the hypercube family takes no ':GROUP' suffix")
    d = _int(spec, params, "d")
    if not 1 <= d <= len(AXIS_LETTERS):
        raise SpecError(f"{spec}: the dimension must be between 1 and {len(AXIS_LETTERS)}")
    return HypercubeParams(d)


def _parse_kind(spec: str, group: str) -> str:
    if group not in GROUP_KINDS:
        raise SpecError(f"{spec}: unknown group {group!r} (use cyclic or dihedral)")
    return group


def _parse_ring(spec: str, params: str, group: str | None) -> RingParams:
    n = _int(spec, params, "n")
    kind = _parse_kind(spec, group) if group is not None else default_group(n)
    if n < 3:
        raise SpecError(f"{spec}: a ring needs n >= 3 (ring-2 is hypercube-1)")
    _check_side(spec, n, kind)
    return RingParams(n, kind)


def _parse_torus(spec: str, params: str, group: str | None) -> TorusParams | TwistedParams:
    parts = params.split("x")
    if len(parts) > len(AXIS_LETTERS):
        raise SpecError(f"{spec}: at most {len(AXIS_LETTERS)} dimensions")
    sides = tuple(_int(spec, p, "each side") for p in parts)
    if group is not None and TWISTED in group.split(","):
        if group != TWISTED:
            raise SpecError(f"{spec}: ':twisted' needs cyclic rings and takes no other group (write "
                            f"torus-{params}:twisted)")
        return _twisted_params(sides, spec)
    if group is None:
        kinds = None
    else:
        names = group.split(",")
        if len(names) == 1:
            kinds = (_parse_kind(spec, names[0]),) * len(sides)
        elif len(names) == len(sides):
            kinds = tuple(_parse_kind(spec, k) for k in names)
        else:
            raise SpecError(f"{spec}: give one group for all sides or one per side ({len(sides)})")
    return _torus_params(sides, kinds, spec)


def _build_torus(p: TorusParams | TwistedParams) -> Network:
    """A torus from its parameter record: a product of rings, or a twisted torus."""
    return twisted_torus_network(p.sides) if isinstance(p, TwistedParams) else torus_network(p.sides, p.kinds)


#: family name -> Family; the one registry the CLI, the readers and the tests use
FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("star", "S_n with the transpositions (0 a)", ("star-5",), _no_group("star"),
           lambda p: capped_factorial(p.n, limits.current().max_order), lambda p: star_network(p.n),
           params="N (N >= 3)", traits=frozenset({TRANSPOSITION_STAR})),
    Family("hypercube", "C_2^d, a product of d two-node rings", ("hypercube-4",), _parse_hypercube,
           lambda p: 2 ** p.d, lambda p: hypercube_network(p.d), params=f"D (1 <= D <= {len(AXIS_LETTERS)})"),
    Family("ring", "C_n (letters a a') or, n even, D_n (letters a A)", ("ring-7", "ring-6:cyclic"), _parse_ring,
           lambda p: p.n, lambda p: ring_network(p.n, p.kind), GROUP_KINDS, params="N (N >= 3)"),
    Family("torus", "a product of rings, one per side; or, ':twisted', a twisted torus on sides k and 2k",
           ("torus-4x4x8", "torus-6x6:dihedral", "torus-4x4x8:twisted"), _parse_torus,
           lambda p: math.prod(p.sides), _build_torus, GROUP_KINDS + (TWISTED,),
           params=f"AxB[xC...] (each side >= 2, at most {len(AXIS_LETTERS)} sides)"),
    Family("pancake", "S_n with the prefix reversals", ("pancake-5",), _no_group("pancake"),
           lambda p: capped_factorial(p.n, limits.current().max_order), lambda p: pancake_network(p.n),
           params="N (N >= 3)"),
    Family("bubblesort", "S_n with the adjacent transpositions", ("bubblesort-5",), _no_group("bubblesort"),
           lambda p: capped_factorial(p.n, limits.current().max_order), lambda p: bubblesort_network(p.n),
           params="N (N >= 3)"),
)}


def spec_grammar() -> tuple[str, list[tuple[str, str]], str]:
    """How a NETWORK argument is written, made from :data:`FAMILIES` so the help cannot drift from the parser:
    (opening line, one (form, meaning) row per family, closing paragraph)."""
    opening = "NETWORK is a spec FAMILY-PARAMS[:GROUP] or a file of generators. The families:"
    rows = []
    for f in FAMILIES.values():
        form, _, rule = f.params.partition(" (")
        rows.append((f"{f.name}-{form}" + (f"[:{'|'.join(f.groups)}]" if f.groups else ""),
                     f"{f.summary}; {rule.rstrip(')')}; e.g. {', '.join(f.examples)}"))
    closing = (f":GROUP picks each ring's group: {CYCLIC} (C_n, letters a and a') or {DIHEDRAL} (D_n, letters a "
               f"and A; even sides of at least 4); without it, {DIHEDRAL} for even sides of at least 4, else "
               f"{CYCLIC}. A torus takes one group for all sides or one per side, comma-separated "
               f"(torus-6x5:{DIHEDRAL},{CYCLIC}); :{TWISTED} makes the twisted torus on sides k and 2k "
               f"(docs/twisted-tori.md). A NETWORK ending in .json, holding a '/', or written file:PATH is a JSON "
               f"file of generators: an object of letter -> permutation (0-based images), bare or under a table's "
               f"\"generators\" key; a \"network\" key naming a family is checked against them, without one "
               f"the network is {CUSTOM_PREFIX}<file stem>.")
    return opening, rows, closing

_SPEC = re.compile(r"([a-z]+)-([^:]*)(?::(.*))?")


def network_from_spec(spec: str) -> Network:
    """Parse ``FAMILY-PARAMS[:GROUP]`` (or a path to a generators JSON file) and build the network.

    The order (from the family's formula) is checked against the limit in force before the
    generators are built: star-99999 is refused at once.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("empty network spec")
    spec = spec.strip()
    if spec.endswith(".json") or "/" in spec or spec.startswith("file:"):
        return network_from_file(spec.removeprefix("file:"))
    if len(spec) > 200:
        raise SpecError(f"{spec[:40]!r}...: a network spec is at most 200 characters")
    match = _SPEC.fullmatch(spec)
    if not match:
        raise SpecError(f"{spec!r}: expected FAMILY-PARAMS[:GROUP], e.g. star-5, torus-6x6:dihedral "
                        f"(families: {', '.join(FAMILIES)})")
    name, params, group = match.groups()
    family = FAMILIES.get(name)
    if family is None:
        raise SpecError(f"{spec!r}: unknown family {name!r} (families: {', '.join(FAMILIES)})")
    record = family.parse(spec, params, group)
    order = family.order(record)
    limits.require_order(order, spec)
    network = family.build(record)
    limits.require_memory(group_memory_estimate(order, network.points, network.degree),
                          f"the group of {spec} ({order} elements on {network.points} points)")
    return network
