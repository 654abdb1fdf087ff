"""Network families as permutation generators, and the one registry of them.

Each family is one small function that returns a plain :class:`Network`:
letters, their permutations (0-based images, product ``p*q = i -> q[p[i]]``),
and, where the family has one, the letter cycle of its rotation.  Composite
networks are built from primitives: a torus is a product of rings, a hypercube
is a product of two-node rings.

The registry :data:`FAMILIES` maps the spec-string family name to its parser;
the CLI, the tests and the table reader all go through :func:`network_from_spec`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from tesearch.errors import GeneratorsError, SpecError, read_json_file

Perm = tuple[int, ...]

#: Largest group the front end will build (star-10 has 3.6 million elements).
MAX_ORDER = 4_000_000


@dataclass(frozen=True)
class Network:
    """A Cayley network presented by permutation generators.

    ``letters`` fixes the order of the generators (rows of a table, the order
    of a rotation); ``generators[letter]`` is its permutation as a tuple of
    images.  ``rotation`` is the letter cycle of a known rotation candidate
    (``rotation[i] -> rotation[i+1]``), checked by :mod:`tesearch.rotation`.
    ``factors`` holds the ring factors of a product network.
    """

    spec: str
    family: str
    letters: tuple[str, ...]
    generators: Mapping[str, Perm]
    rotation: tuple[str, ...] | None = None
    factors: tuple["Network", ...] = ()
    params: tuple = field(default=())

    @property
    def degree(self) -> int:
        """Number of generators (the network's degree)."""
        return len(self.letters)

    @property
    def points(self) -> int:
        """Number of points the permutations act on."""
        return len(next(iter(self.generators.values())))

    def generators_json(self) -> dict[str, list[int]]:
        return {s: list(self.generators[s]) for s in self.letters}

    def __str__(self) -> str:
        return self.spec


# --------------------------------------------------------------------------
# permutation helpers (plain tuples; the hot loops live in tesearch.groups)

def _transposition(m: int, a: int, b: int) -> Perm:
    images = list(range(m))
    images[a], images[b] = images[b], images[a]
    return tuple(images)


def compose(p: Perm, q: Perm) -> Perm:
    """The product ``p*q``: apply p, then q (SymPy's convention)."""
    return tuple(q[i] for i in p)


def inverse(p: Perm) -> Perm:
    inv = [0] * len(p)
    for i, image in enumerate(p):
        inv[image] = i
    return tuple(inv)


# --------------------------------------------------------------------------
# families

def star_network(n: int) -> Network:
    """The n-star: S_n with the transpositions (0 a), letters "1".."n-1"."""
    if n < 3:
        raise SpecError(f"star-{n}: the star needs n >= 3")
    letters = tuple(str(a) for a in range(1, n))
    gens = {str(a): _transposition(n, 0, a) for a in range(1, n)}
    return Network(f"star-{n}", "star", letters, gens, rotation=letters, params=(n,))


def pancake_network(n: int) -> Network:
    """The n-pancake: S_n with prefix reversals of length 2..n, letters "2".."n"."""
    if n < 3:
        raise SpecError(f"pancake-{n}: the pancake graph needs n >= 3")
    gens = {}
    for k in range(2, n + 1):
        gens[str(k)] = tuple(list(range(k - 1, -1, -1)) + list(range(k, n)))
    return Network(f"pancake-{n}", "pancake", tuple(gens), gens, params=(n,))


def bubblesort_network(n: int) -> Network:
    """The n-bubble-sort graph: S_n with adjacent transpositions (i-1 i), letters "1".."n-1"."""
    if n < 3:
        raise SpecError(f"bubblesort-{n}: the bubble-sort graph needs n >= 3")
    gens = {str(i): _transposition(n, i - 1, i) for i in range(1, n)}
    return Network(f"bubblesort-{n}", "bubblesort", tuple(gens), gens, params=(n,))


CYCLIC = "cyclic"
DIHEDRAL = "dihedral"
GROUP_KINDS = (CYCLIC, DIHEDRAL)


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


def _check_side(spec: str, side: int, kind: str) -> None:
    if side < 2:
        raise SpecError(f"{spec}: ring sides must be at least 2 (got {side})")
    if kind == DIHEDRAL and (side % 2 or side < 4):
        raise SpecError(f"{spec}: the dihedral group needs an even side of at least 4 (got {side})")


def torus_network(sides: tuple[int, ...], kinds: tuple[str, ...] | None = None, *, spec: str | None = None) -> Network:
    """The torus ``sides[0] x sides[1] x ...`` as a product of rings.

    Dimension i uses letter ``"abc..."[i]``; its second letter is ``x'`` in a
    cyclic factor and ``X`` in a dihedral one.  Letters are ordered first
    letters of all dimensions, then second letters, so that for equal sides
    and equal groups the rotation is ``a -> b -> ... -> a' -> b' -> ...``
    (seed 003, sections 3.3 and 3.4).
    """
    if not sides:
        raise SpecError("torus: no sides given")
    if len(sides) > 26:
        raise SpecError("torus: at most 26 dimensions")
    kinds = tuple(kinds) if kinds is not None else tuple(default_group(s) for s in sides)
    name = spec or _torus_spec(sides, kinds)
    offset = 0
    total = sum(sides)
    gens: dict[str, Perm] = {}
    first: list[str] = []
    second: list[str] = []
    factors = []
    for i, (side, kind) in enumerate(zip(sides, kinds)):
        _check_side(name, side, kind)
        base = "abcdefghijklmnopqrstuvwxyz"[i]
        fgens, f1, f2 = _ring_factor(side, kind, base)
        factors.append(Network(f"ring-{side}:{kind}", "ring", tuple(f1 + f2), fgens, params=(side, kind)))
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
                   factors=tuple(factors), params=(tuple(sides), kinds))


def _torus_spec(sides: tuple[int, ...], kinds: tuple[str, ...]) -> str:
    base = "torus-" + "x".join(map(str, sides))
    defaults = tuple(default_group(s) for s in sides)
    if kinds == defaults:
        return base
    if len(set(kinds)) == 1:
        return f"{base}:{kinds[0]}"
    return f"{base}:{','.join(kinds)}"


def ring_network(n: int, kind: str | None = None) -> Network:
    """The n-ring: C_n with letters a, a' or D_n (n even) with letters a, A."""
    kind = kind or default_group(n)
    spec = f"ring-{n}" if kind == default_group(n) else f"ring-{n}:{kind}"
    if n < 3:
        raise SpecError(f"{spec}: a ring needs n >= 3 (ring-2 is hypercube-1)")
    net = torus_network((n,), (kind,), spec=spec)
    return Network(spec, "ring", net.letters, net.generators, rotation=net.rotation,
                   factors=net.factors, params=(n, kind))


def hypercube_network(d: int) -> Network:
    """The d-cube C_2^d as a product of d two-node rings, letters a, b, c, ..."""
    if d < 1:
        raise SpecError(f"hypercube-{d}: the dimension must be at least 1")
    if d > 26:
        raise SpecError(f"hypercube-{d}: at most 26 dimensions")
    net = torus_network((2,) * d, (CYCLIC,) * d, spec=f"hypercube-{d}")
    return Network(f"hypercube-{d}", "hypercube", net.letters, net.generators,
                   rotation=net.letters if d > 1 else None, factors=net.factors, params=(d,))


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
        if not isinstance(letter, str) or not letter or any(c.isspace() or c in ".|" for c in letter):
            raise GeneratorsError("letters must be non-empty strings without spaces, '.' or '|'", where=here)
        if not isinstance(images, (list, tuple)) or not all(isinstance(x, int) and not isinstance(x, bool) for x in images):
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


def generators_network(gens: Mapping[str, object], *, name: str = "custom", where: str = "generators") -> Network:
    """A network from a ``generators`` object (letter -> list of images)."""
    perms = check_generators(gens, where)
    return Network(name, "generators", tuple(perms), perms)


def network_from_file(path: str | Path) -> Network:
    """A network from a JSON file holding a ``generators`` object (a bare one or a table's)."""
    path = Path(path)
    data = read_json_file(path, GeneratorsError)
    if isinstance(data, dict) and "generators" in data:
        gens = data["generators"]
        name = data.get("network") if isinstance(data.get("network"), str) else None
    else:
        gens, name = data, None
    return generators_network(gens, name=name or f"file:{path.name}", where=str(path))


# --------------------------------------------------------------------------
# the registry

def _int(spec: str, text: str, what: str) -> int:
    if not re.fullmatch(r"[0-9]+", text):
        raise SpecError(f"{spec}: {what} must be a positive integer, got {text!r}")
    return int(text)


def _no_group(spec: str, family: str, group: str | None) -> None:
    if group is not None:
        raise SpecError(f"{spec}: the {family} family takes no ':GROUP' suffix")


def _parse_star(spec, params, group):
    _no_group(spec, "star", group)
    return star_network(_int(spec, params, "n"))


def _parse_pancake(spec, params, group):
    _no_group(spec, "pancake", group)
    return pancake_network(_int(spec, params, "n"))


def _parse_bubblesort(spec, params, group):
    _no_group(spec, "bubblesort", group)
    return bubblesort_network(_int(spec, params, "n"))


def _parse_hypercube(spec, params, group):
    _no_group(spec, "hypercube", group)
    return hypercube_network(_int(spec, params, "d"))


def _parse_kind(spec: str, group: str) -> str:
    if group not in GROUP_KINDS:
        raise SpecError(f"{spec}: unknown group {group!r} (use cyclic or dihedral)")
    return group


def _parse_ring(spec, params, group):
    n = _int(spec, params, "n")
    kind = _parse_kind(spec, group) if group is not None else None
    if kind is not None:
        _check_side(spec, n, kind)
    return ring_network(n, kind)


def _parse_torus(spec, params, group):
    parts = params.split("x")
    sides = tuple(_int(spec, p, "each side") for p in parts)
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
    return torus_network(sides, kinds)


#: family name -> parser(spec, params, group) -> Network
FAMILIES: dict[str, Callable[[str, str, str | None], Network]] = {
    "star": _parse_star,
    "hypercube": _parse_hypercube,
    "ring": _parse_ring,
    "torus": _parse_torus,
    "pancake": _parse_pancake,
    "bubblesort": _parse_bubblesort,
}


def network_from_spec(spec: str) -> Network:
    """Parse ``FAMILY-PARAMS[:GROUP]`` (or a path to a generators JSON file)."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("empty network spec")
    spec = spec.strip()
    if spec.endswith(".json") or "/" in spec or spec.startswith("file:"):
        return network_from_file(spec.removeprefix("file:"))
    match = re.fullmatch(r"([a-z]+)-([^:]*)(?::(.*))?", spec)
    if not match:
        raise SpecError(f"{spec!r}: expected FAMILY-PARAMS[:GROUP], e.g. star-5, torus-6x6:dihedral "
                        f"(families: {', '.join(FAMILIES)})")
    family, params, group = match.groups()
    if family not in FAMILIES:
        raise SpecError(f"{spec!r}: unknown family {family!r} (families: {', '.join(FAMILIES)})")
    return FAMILIES[family](spec, params, group)


def network_for_generators(spec: str, gens: Mapping[str, Perm]) -> Network:
    """The network a table names: its family's (with the rotation hint) when the
    generators are the family's own, else a plain generators network."""
    try:
        net = network_from_spec(spec)
    except Exception:  # an unknown or custom spec: the generators alone define it
        net = None
    if net is not None and dict(net.generators) == {s: tuple(p) for s, p in gens.items()} \
            and tuple(net.letters) == tuple(gens):
        return net
    return generators_network({s: list(p) for s, p in gens.items()}, name=spec)
