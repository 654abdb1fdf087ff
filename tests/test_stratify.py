"""Symmetry stratification (tesearch.search.stratify): strata rules, reduced parts, whole tables."""

import itertools
from collections import Counter, defaultdict

import pytest
from conftest import run_cli

from tesearch.running.limits import Budget
from tesearch.networks.groups import cached_cayley_graph
from tesearch.tables.layout import filler_plans as layout_filler_plans
from tesearch.search.stratify import (Part, RotationStratifier, expand, fits, letter_classes, plan_moves, stratify,
                                      sub_orbits)
from tesearch.running.terms import SolveResult
from tesearch.networks.families import network_from_spec
from tesearch.networks.rotation import find_rotation
from tesearch.tables.table import read_table
from tesearch.tables.verify import verify_table
from tesearch.networks.words import canonical_word, targets
from tesearch.running.terms import Exchange


def _rotation(spec):
    cg = cached_cayley_graph(network_from_spec(spec))
    return cg, find_rotation(cg)


def _class_sets(cg, rot, d):
    classes = letter_classes(rot, d)
    out = defaultdict(set)
    for k, c in enumerate(classes):
        out[c].add(cg.letters[k])
    return sorted(sorted(v) for v in out.values())


def test_letter_classes_of_star_7():
    cg, rot = _rotation("star-7")
    assert _class_sets(cg, rot, 3) == [["1", "4"], ["2", "5"], ["3", "6"]]
    assert _class_sets(cg, rot, 2) == [["1", "3", "5"], ["2", "4", "6"]]
    assert _class_sets(cg, rot, 6) == [[s] for s in "123456"]


def test_which_orbits_fit_which_stratum():
    # star-7: size-2 orbits are one word in sigma^3, size-3 orbits one word in sigma^2
    assert fits(2, 3, 6) and not fits(2, 2, 6)
    assert fits(3, 2, 6) and not fits(3, 3, 6)
    assert all(fits(m, 6, 6) for m in (1, 2, 3, 6))
    assert not fits(1, 2, 6) and not fits(1, 3, 6)
    assert fits(6, 1, 6) and fits(6, 2, 6) and fits(6, 3, 6)
    # star-5: a size-2 orbit is sigma^2-fixed, so only the core takes it
    assert not fits(2, 2, 4) and fits(4, 2, 4)
    assert sub_orbits((10, 11, 12, 13, 14, 15), 3) == [(10, 13), (11, 14), (12, 15)]
    assert sub_orbits((10, 11, 12, 13, 14, 15), 2) == [(10, 12, 14), (11, 13, 15)]
    assert sub_orbits((20, 21), 3) == [(20, 21)]


def test_star_7_split_is_divisible():
    cg, rot = _rotation("star-7")
    orbits = rot.orbits(targets(cg, Exchange.TOTAL))
    exceptional = [o for o in orbits if len(o) < 6]
    layout = plan_moves(cg, exceptional, 0)
    assert set(layout) == {6, 3, 2}
    core_letters = sum(int(cg.dist[g]) for o in layout[6] for g in o)
    assert core_letters % 6 == 0
    assert sorted(len(o) for o in layout[6]) == [1, 1, 1, 1, 1, 3]  # fixed elements + one size-3 orbit
    assert sum(int(cg.dist[o[0]]) for o in layout[3]) % 3 == 0
    assert sum(int(cg.dist[o[0]]) for o in layout[2]) % 2 == 0
    assert len(layout[3]) == 6 and len(layout[2]) == 13


def _column_and_element_check(cg, rot, full_rows, elements):
    """Independent of tesearch.tables.verify: distinct letters per column, each element once, shortest words."""
    columns = defaultdict(list)
    seen = []
    for r, c, w in full_rows:
        assert 0 <= r < cg.degree
        for i, k in enumerate(w):
            columns[c + i].append(k)
        g = cg.element_of(w)
        assert int(cg.dist[g]) == len(w)
        seen.append(g)
    assert sorted(seen) == sorted(elements)
    return all(len(set(ks)) == len(ks) for ks in columns.values())


@pytest.mark.parametrize("d", [2])
def test_reduced_part_of_fillers_expands_to_a_valid_block(d):
    """A sigma^2 part of star-5 made of full orbits only: solve the 2-row reduced table,
    expand it to 4 rows, check columns and elements without the verifier."""
    cg, rot = _rotation("star-5")
    full = [o for o in rot.orbits(targets(cg, Exchange.TOTAL)) if len(o) == 4]
    chosen = sorted(full, key=lambda o: (int(cg.dist[o[0]]), o[0]))[:4]  # lengths 1, 2, 2, 2
    letters = sum(int(cg.dist[o[0]]) for o in chosen) * 4
    width = letters // 4
    part = Part(d, 4, own=[], fillers=chosen)
    stratifier = RotationStratifier(network_from_spec("star-5"), budget=Budget.seconds(20))
    assert stratifier.solve_part(part, d, width, 10.0) is SolveResult.SAT
    classes = letter_classes(rot, d)
    reduced_columns = defaultdict(list)
    for r, c, w in part.placed:
        assert 0 <= r < d
        for i, k in enumerate(w):
            reduced_columns[c + i].append(classes[k])
    assert all(sorted(v) == list(range(d)) for v in reduced_columns.values())  # no blank: every class once
    full_rows = expand(rot, d, part.placed)
    assert _column_and_element_check(cg, rot, full_rows, [g for o in chosen for g in o])


def test_class_rule_is_needed():
    """Two reduced words that share a class in one column expand to a repeated letter."""
    cg, rot = _rotation("star-7")
    one, three = cg.letter_index["1"], cg.letter_index["3"]  # same sigma^2 class {1,3,5}
    four = cg.letter_index["4"]  # other sigma^2 class
    bad = [(0, 0, (one,)), (1, 0, (three,))]
    good = [(0, 0, (one,)), (1, 0, (four,))]

    def column_ok(rows):
        letters = [w[0] for _, _, w in rows]
        return len(set(letters)) == len(letters)

    assert not column_ok(expand(rot, 2, bad))
    assert column_ok(expand(rot, 2, good))
    # sigma^3: 1 and 4 share a class
    assert not column_ok(expand(rot, 3, [(0, 0, (one,)), (1, 0, (four,)), (2, 0, (three,))]))
    assert column_ok(expand(rot, 3, [(0, 0, (one,)), (1, 0, (cg.letter_index["2"],)), (2, 0, (three,))]))


def test_expand_places_sigma_images():
    cg, rot = _rotation("star-7")
    g = cg.element_of("1351")
    word = canonical_word(cg, g)
    rows = expand(rot, 3, [(1, 5, word)], offset=10)
    assert [(r, c) for r, c, _ in rows] == [(1, 15), (4, 15)]
    assert rows[1][2] == rot.apply(word, 3)
    assert cg.element_of(rows[1][2]) == int(rot.phi[rot.phi[rot.phi[g]]])


@pytest.mark.parametrize("spec", ["star-4", "star-5"])
def test_stratified_tables_are_valid_and_optimal(spec):
    table = stratify(network_from_spec(spec), Exchange.TOTAL, budget=Budget.seconds(30)).table
    assert table is not None
    result = verify_table(table)
    assert result.ok, result.summary()
    assert result.optimal
    assert table.extra["search"]["strategy"] == "symmetry stratification"


def test_stratified_table_with_cpsat_parts():
    """--solver cpsat: every part decided by CP-SAT, the assembled table verified and named by its solver."""
    pytest.importorskip("ortools")
    from tesearch.solvers import Backend

    table = stratify(network_from_spec("star-5"), Exchange.TOTAL, budget=Budget.seconds(60), backend=Backend.CPSAT).table
    assert table is not None
    result = verify_table(table)
    assert result.ok and result.optimal, result.summary()
    assert table.extra["search"]["solver"].startswith("cpsat ")


@pytest.mark.parametrize("spec", ["star-4", "star-5"])
def test_cli_stratify_with_the_interval_model(tmp_path, spec):
    """`stratify --solver cpsat-intervals`: every part decided by the interval model, the
    written table accepted by the verifier and named by its model."""
    pytest.importorskip("ortools")
    out = tmp_path / f"{spec}.json"
    result = run_cli("stratify", spec, "--solver", "cpsat-intervals", "--timeout", "60",
                     "--out", out)
    assert result.exit_code == 0, result.output
    assert ", cpsat)" in result.stderr  # the progress lines: every part decided by CP-SAT
    table = read_table(out)
    check = verify_table(table)
    assert check.ok, check.summary()
    assert table.extra["search"]["solver"].startswith("cpsat intervals (OR-Tools ")


@pytest.mark.parametrize("args,fragment", [
    (["--solver", "cpsat-interval"], "'cpsat-interval' is not one of"),
    (["--backend", "cpsat"], "No such option '--backend'"),  # the renamed options' shims are gone
    (["--cpsat-model", "intervals"], "No such option '--cpsat-model'"),
])
def test_cli_stratify_bad_cpsat_model_is_one_line_exit_2(tmp_path, args, fragment):
    out = tmp_path / "t.json"
    result = run_cli("stratify", "star-4", *args, "--out", out)
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not out.exists()


def filler_plans(lengths, need, limit):
    """The stratified search's filler plans: greedy orders with lengths 2 and 3 first, then every multiset."""
    return layout_filler_plans(lengths, need, limit, preferred=(2, 3), exhaustive=True)


def test_filler_plans_reach_every_length_multiset():
    # star-7 odd-distance sigma^3 at T = 11 needed 5 + 3 and the greedy orders never produced it
    lengths = {0: 3, 1: 3, 2: 3, 3: 5, 4: 7, 5: 9}
    plans = filler_plans(lengths, 8, limit=10)
    assert [3, 3] not in plans  # 3 + 3 = 6, not 8
    assert any(sorted(lengths[j] for j in p) == [3, 5] for p in plans)
    # exactly the multisets a brute force over all subsets finds, each once
    brute = {tuple(sorted(lengths[j] for j in c)) for r in range(len(lengths) + 1)
             for c in itertools.combinations(lengths, r) if sum(lengths[j] for j in c) == 8}
    got = [tuple(sorted(lengths[j] for j in p)) for p in plans]
    assert set(got) == brute and len(got) == len(set(got))
    for p in plans:
        assert len(set(p)) == len(p) and sum(lengths[j] for j in p) == 8
    # the limit holds, and a sum no subset reaches gives nothing
    assert len(filler_plans(lengths, 12, limit=2)) == 2
    assert filler_plans(lengths, 1, limit=5) == []
    assert Counter(map(len, filler_plans(lengths, 9, limit=10)))[1] == 1  # 9 alone, once
