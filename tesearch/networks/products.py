"""Rings, tori (regular and twisted) and hypercubes: the products of rings, their parameter records and builders.

A torus is a product of rings (its ``factors``, one per axis), a hypercube a product of two-node rings, a
ring a one-axis torus; a twisted torus (Camara et al. 2010; TPU v4) shifts one axis when another wraps
(docs/twisted-tori.md).  The registry (:data:`tesearch.networks.families.FAMILIES`) parses specs into the
records here and calls these builders.  Imports only the standard library, tesearch's bottom layer and
:mod:`tesearch.networks.permutations`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tesearch.running.errors import SpecError
from tesearch.networks.permutations import Network, Perm, inverse


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


def check_side(spec: str, side: int, kind: str) -> None:
    """Refuse, naming ``spec``, a ring side below 2, an unknown group kind or a dihedral side that is odd or below 4."""
    if side < 2:
        raise SpecError(f"{spec}: ring sides must be at least 2 (got {side})")
    if kind not in GROUP_KINDS:
        raise SpecError(f"{spec}: unknown group {kind!r} (use cyclic or dihedral)")
    if kind == DIHEDRAL and (side % 2 or side < 4):
        raise SpecError(f"{spec}: the dihedral group needs an even side of at least 4 (got {side})")


def torus_params(sides: tuple[int, ...], kinds: tuple[str, ...] | None, spec: str | None) -> TorusParams:
    """The parameter record of a torus with these sides and group kinds (default: :func:`default_group`), checked."""
    if not sides:
        raise SpecError("torus: no sides given")
    if len(sides) > len(AXIS_LETTERS):
        raise SpecError(f"torus: at most {len(AXIS_LETTERS)} dimensions")
    kinds = tuple(kinds) if kinds is not None else tuple(default_group(s) for s in sides)
    if len(kinds) != len(sides):
        raise SpecError(f"{spec or 'torus'}: give one group for all sides or one per side ({len(sides)})")
    name = spec or _torus_spec(sides, kinds)
    for side, kind in zip(sides, kinds):
        check_side(name, side, kind)
    return TorusParams(tuple(sides), kinds)


def torus_network(sides: tuple[int, ...], kinds: tuple[str, ...] | None = None, *, spec: str | None = None) -> Network:
    """The torus ``sides[0] x sides[1] x ...`` as a product of rings.

    Dimension i uses letter ``"abc..."[i]``; its second letter is ``x'`` in a
    cyclic factor and ``X`` in a dihedral one.  Letters are ordered first
    letters of all dimensions, then second letters, so that for equal sides
    and equal groups the rotation is ``a -> b -> ... -> a' -> b' -> ...``
    (seed 003, sections 3.3 and 3.4).
    """
    params = torus_params(tuple(sides), kinds, spec)
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


def twisted_params(sides: tuple[int, ...], spec: str | None = None) -> TwistedParams:
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
    params = twisted_params(tuple(sides))
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
