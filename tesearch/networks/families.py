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

The symmetric-group families (star, pancake, bubble-sort) and user generators are built here; rings,
tori and hypercubes, the products of rings, in :mod:`tesearch.networks.products`.  This module imports
only the standard library, tesearch's bottom layer (errors, files, limits),
:mod:`tesearch.networks.permutations` (the :class:`Network` record and the permutation helpers,
re-exported here) and :mod:`tesearch.networks.products`: the checking side may use it to learn what a
spec names.
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
from tesearch.networks.products import (AXIS_LETTERS, CYCLIC, DIHEDRAL, GROUP_KINDS, HypercubeParams, RingParams,
                                        TWISTED, TorusParams, TwistedParams, check_side, default_group,
                                        hypercube_network, ring_network, torus_network, torus_params, twisted_params,
                                        twisted_torus_network)

#: the prefix of a network that belongs to no family (a generator set of the user's)
CUSTOM_PREFIX = "custom:"


# --------------------------------------------------------------------------
# parameter records

@dataclass(frozen=True)
class SymmetricParams:
    """Parameters of a network on the symmetric group S_n (star, pancake, bubble-sort)."""

    n: int


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
    check_side(spec, n, kind)
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
        return twisted_params(sides, spec)
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
    return torus_params(sides, kinds, spec)


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
