"""Network families against their networkx twins, closed forms and published sequences."""

import json
import math
from fractions import Fraction

import networkx as nx
import pytest

from tesearch.running.errors import GeneratorsError, SpecError
from tesearch.networks.groups import cayley_graph, sympy_order
from tesearch.networks.families import FAMILIES, generators_network, network_from_spec


def as_networkx(cg) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(range(cg.order))
    for k in range(cg.degree):
        g.add_edges_from((int(a), int(b)) for a, b in enumerate(cg.right[k]))
    return g


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
def test_hypercube_is_networkx_hypercube(graph, d):
    assert nx.is_isomorphic(as_networkx(graph(f"hypercube-{d}")), nx.hypercube_graph(d))


@pytest.mark.parametrize("spec,n", [("ring-5", 5), ("ring-6", 6), ("ring-6:cyclic", 6), ("ring-8", 8), ("star-3", 6)])
def test_rings_and_star3_are_cycles(graph, spec, n):
    assert nx.is_isomorphic(as_networkx(graph(spec)), nx.cycle_graph(n))


@pytest.mark.parametrize("spec,dims", [("torus-3x4", [3, 4]), ("torus-4x4:cyclic", [4, 4]), ("torus-6x6", [6, 6]),
                                       ("torus-3x3x4", [3, 3, 4])])
def test_torus_is_periodic_grid(graph, spec, dims):
    assert nx.is_isomorphic(as_networkx(graph(spec)), nx.grid_graph(dim=dims, periodic=True))


@pytest.mark.parametrize("spec", ["star-4", "star-5", "pancake-4", "bubblesort-4", "hypercube-6", "torus-4x8"])
def test_order_matches_sympy(graph, spec):
    cg = graph(spec)
    assert cg.order == sympy_order(cg.network)
    assert len(set(map(tuple, cg.elements.tolist()))) == cg.order


@pytest.mark.parametrize("d", range(1, 11))
def test_hypercube_status_and_distances(d):
    cg = cayley_graph(network_from_spec(f"hypercube-{d}"))
    assert cg.status == d * 2 ** (d - 1)
    assert cg.distance_distribution == [math.comb(d, k) for k in range(d + 1)]


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_star_status_closed_form(graph, n):
    harmonic = sum(Fraction(1, k) for k in range(1, n + 1))
    expected = math.factorial(n) * (n + Fraction(2, n) + harmonic - 4)
    assert expected.denominator == 1
    assert graph(f"star-{n}").status == expected


@pytest.mark.parametrize("n", range(3, 21))
def test_ring_status_is_floor_n2_over_4(n):
    for kind in ("cyclic", "dihedral") if n % 2 == 0 and n >= 4 else ("cyclic",):
        cg = cayley_graph(network_from_spec(f"ring-{n}:{kind}"))
        assert cg.status == n * n // 4


@pytest.mark.parametrize("sides", [(3, 5), (4, 8), (4, 4, 8), (3, 4, 5)])
def test_torus_status_is_seed001_product_formula(sides):
    # seed 001 Theorem 1: s(v) = sum_i s_i * N / n_i with s_i = floor(n_i^2 / 4)
    cg = cayley_graph(network_from_spec("torus-" + "x".join(map(str, sides))))
    nodes = math.prod(sides)
    assert cg.status == sum((n * n // 4) * nodes // n for n in sides)


def test_pancake_distances_match_oeis_a058986(graph):
    assert graph("pancake-4").distance_distribution == [1, 3, 6, 11, 3]
    assert graph("pancake-5").distance_distribution == [1, 4, 12, 35, 48, 20]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_bubblesort_distances_are_mahonian(graph, n):
    poly = [1]
    for k in range(1, n + 1):  # product of (1 + q + ... + q^(k-1))
        new = [0] * (len(poly) + k - 1)
        for i, c in enumerate(poly):
            for j in range(k):
                new[i + j] += c
        poly = new
    assert graph(f"bubblesort-{n}").distance_distribution == poly


def test_every_family_is_registered_and_parses():
    for family, spec in [("star", "star-4"), ("hypercube", "hypercube-3"), ("ring", "ring-7"),
                         ("torus", "torus-3x5"), ("pancake", "pancake-4"), ("bubblesort", "bubblesort-4")]:
        assert family in FAMILIES
        assert network_from_spec(spec).family == family


def test_default_groups_and_canonical_specs():
    assert network_from_spec("ring-6").letters == ("a", "A")
    assert network_from_spec("ring-6:cyclic").letters == ("a", "a'")
    assert network_from_spec("torus-6x6").letters == ("a", "b", "A", "B")
    assert network_from_spec("torus-5x5").letters == ("a", "b", "a'", "b'")
    assert network_from_spec("torus-6x6:dihedral").spec == "torus-6x6"
    assert network_from_spec("torus-4x5:cyclic,cyclic").letters == ("a", "b", "a'", "b'")


@pytest.mark.parametrize("spec,fragment", [
    ("star-2", "n >= 3"), ("torus-0x3", "at least 2"), ("ring-5:dihedral", "even side"),
    ("hypercube-x", "positive integer"), ("torus-4x4:weird", "unknown group"), ("blob-3", "unknown family"),
    ("star-5:cyclic", "takes no"), ("torus-3x3:cyclic,dihedral,cyclic", "one per side"),
])
def test_bad_specs(spec, fragment):
    with pytest.raises(SpecError, match=fragment):
        network_from_spec(spec)


@pytest.mark.parametrize("gens,fragment", [
    ({"a": [1, 1, 0]}, "not a permutation"),
    ({"a": [0, 1, 2]}, "identity"),
    ({"a": [1, 2, 0]}, "not closed under inverses"),
    ({"a": [1, 0, 2], "b": [1, 0, 2]}, "same permutation"),
    ({"a": [1, 0], "b": [0, 2, 1]}, "has 3 images"),
    ({"a": "10"}, "list of integer"),
    ({}, "non-empty"),
])
def test_bad_generators(gens, fragment):
    with pytest.raises(GeneratorsError, match=fragment):
        generators_network(gens)


def test_generators_file_round_trip(tmp_path, graph):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"generators": network_from_spec("star-4").generators_json()}))
    cg = cayley_graph(network_from_spec(str(path)))
    assert cg.status == graph("star-4").status
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(GeneratorsError, match="not valid JSON"):
        network_from_spec(str(bad))
