"""The split strategy: exceptional orbits cut into sub-cores that each fill their rectangle."""

import pytest
from hypothesis import given, settings, strategies as st

from tesearch.facts.instance import instance
from tesearch.running.limits import Budget
from tesearch.search.core import SearchParams, Strategy, search
from tesearch.running.terms import Status
from tesearch.search.split import group_orbits
from tesearch.solvers import Backend
from tesearch.tables.verify import verify_table


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 9).flatmap(lambda degree: st.tuples(
    st.just(degree), st.lists(st.integers(1, 60), min_size=1, max_size=40), st.integers(0, 30), st.integers(1, 80))))
def test_groups_partition_the_orbits_and_fill_whole_columns(case):
    degree, letters, blanks, target = case
    blanks += (-(sum(letters) + blanks)) % degree  # a total that fills whole columns
    groups = group_orbits(letters, degree, blanks, target)
    assert sorted(i for g in groups for i in g.orbits) == list(range(len(letters)))
    assert all((g.letters + g.blanks) % degree == 0 for g in groups)
    assert all(g.letters == sum(letters[i] for i in g.orbits) for g in groups)
    assert sum(g.blanks for g in groups) == blanks and all(g.blanks == 0 for g in groups[:-1])
    # every group but the last reached the target
    assert all(g.letters >= target for g in groups[:-1])


def test_groups_refuse_a_total_that_does_not_fill_whole_columns():
    with pytest.raises(ValueError):
        group_orbits([3, 4], 4, 0, 4)


def test_profiles_level_each_group():
    # two orbits heavy on letter 0, two on letter 1: each group takes one of each
    groups = group_orbits([4, 4, 4, 4], 2, 0, 4, [[(4, 0)], [(4, 0)], [(0, 4)], [(0, 4)]])
    assert [g.orbits for g in groups] == [(0, 2), (1, 3)]


@pytest.mark.parametrize("spec,backend", [("star-5", Backend.Z3), ("star-5", Backend.CPSAT)])
def test_split_search_meets_the_bound_with_sections_that_tile_the_core(spec, backend):
    if backend is Backend.CPSAT:
        pytest.importorskip("ortools")
    outcome = search(instance(spec), SearchParams(Strategy.SPLIT, backend=backend), budget=Budget.seconds(120))
    assert outcome.status is Status.FOUND and outcome.optimal
    table = outcome.table
    assert verify_table(table).ok
    sections = table.extra["sections"]
    assert sections[0]["start"] == 0 and sections[-1]["name"] == "rotation blocks"
    assert sections[-1]["end"] == table.T
    assert all(a["end"] == b["start"] for a, b in zip(sections, sections[1:]))
    assert table.extra["search"]["strategy"] == "split"


@pytest.mark.parametrize("spec", ["star-4", pytest.param("star-6", marks=pytest.mark.slow)])  # star-6: 7 s
def test_one_group_is_the_rotation_search_core(spec):
    """star-4's two and star-6's four short orbits make one group: the split search is then the rotation
    search (which adds the flexible fillers the letter balance needs)."""
    lines = []
    outcome = search(instance(spec), SearchParams(Strategy.SPLIT), budget=Budget.seconds(120), progress=lines.append)
    assert any("one group holds every short orbit" in line for line in lines)
    assert outcome.status is Status.FOUND and outcome.optimal
    assert outcome.table.extra["search"]["strategy"] == "rotation"
    assert [s["name"] for s in outcome.table.extra["sections"]] == ["core", "rotation blocks"]
