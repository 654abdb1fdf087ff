"""Every published table in the regression with its verdict; constructions at small sizes."""

import json

import pytest
from click.testing import CliRunner

from tesearch.cli import main
from tesearch.checking.published.catalog import published_tables
from tesearch.checking.published.constructions import CONSTRUCTIONS, ConstructionError, verify_construction
from tesearch.checking.published.reading import ReadingMode, read_cells, reinsert_blanks
from tesearch.checking.published.regress import (CONSTRUCTION_SIZES, Finding, regress_published, regress_star6_odd,
                                        run_regress)
from tesearch.networks.rotation import find_rotation

C, D, A = Finding.CONFIRMED, Finding.CLAIM_DIFFERS, Finding.AMBIGUOUS

#: name -> (verdict, claimed T, verified T, lower bound), as `tesearch regress` found them
EXPECTED = {
    "hypercube-4 total (first table)": (C, 8, 8, 8),
    "hypercube-4 total (second table)": (C, 8, 8, 8),
    "ring-10 D_10 total": (A, 13, 13, 13),
    "ring-12 D_12 total": (A, 18, 18, 18),
    "ring-6 C_6 odd-distance": (C, 4, 4, 4),
    "ring-6 C_6 total": (C, 6, 6, 6),
    "ring-6 D_6 odd-distance": (C, 3, 3, 3),
    "ring-6 D_6 total": (C, 5, 5, 5),
    "star-4 odd-distance": (C, 10, 10, 10),
    "star-4 total": (C, 21, 21, 21),
    "star-5 odd-distance": (C, 56, 56, 56),
    "star-5 total": (A, 111, 111, 111),
    "star-6 total": (C, 689, 689, 689),
    "torus-5x5 total": (C, 15, 15, 15),
    "torus-6x6 total (n = 6 table)": (A, 27, 27, 27),
}


@pytest.fixture(scope="module")
def regress_rows():
    rows = []
    for table in published_tables():
        rows += regress_published(table)
    return {r.name: r for r in rows}


def test_every_transcribed_table_is_in_the_regression(regress_rows):
    assert set(regress_rows) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_published_verdict(regress_rows, name):
    row = regress_rows[name]
    verdict, claimed, verified, bound = EXPECTED[name]
    assert (row.verdict, row.claimed_T, row.verified_T, row.lower_bound) == (verdict, claimed, verified, bound), \
        row.detail
    if row.table is not None:
        from tesearch.tables.verify import verify_table

        assert verify_table(row.table).ok


def test_star5_total_is_read_after_dropping_invented_blanks(regress_rows):
    detail = regress_rows["star-5 total"].detail
    assert "width 13 -> 12" in detail and "letter-twice-in-column" in detail


def test_star6_odd_distance_claim_differs():
    row = regress_star6_odd()
    assert (row.verdict, row.claimed_T, row.verified_T, row.lower_bound) == (D, 250, 342, 342)


def test_core_reading_needs_exceptional_elements_and_whole_orbits(graph):
    cg = graph("star-4")
    rotation = find_rotation(cg)
    cells = [list("12"), list("23"), list("31")]  # one full orbit, no exceptional word
    assert read_cells(cells, cg, "total", ReadingMode.PARTIAL, rotation).readings
    core = read_cells(cells, cg, "total", ReadingMode.CORE, rotation)
    assert not core.readings and "exceptional" in core.reason
    half = [list("1231"), list("3213"), list("12") + [None, None]]  # an orbit cut in part
    assert not read_cells(half, cg, "total", ReadingMode.CORE, rotation).readings


def test_blank_reinsertion_finds_the_moved_blank(graph):
    from tesearch.checking.published.reading import columns_valid

    cg = graph("ring-6")
    cells = [list("aAaaA"), ["A", "a", "A", "a", None]]  # seed 003 D_6 total with its blank moved to the end
    assert not columns_valid(cells)
    repairs = reinsert_blanks(cells, cg, "total", ReadingMode.COMPLETE)
    assert ["A", "a", "A", None, "a"] in [r.cells[1] for r in repairs]
    assert all(r.changed_rows == (1,) and columns_valid(r.cells) for r in repairs)


def test_regress_json_keys():
    result = CliRunner().invoke(main, ["regress", "--json", "--no-constructions"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == len(EXPECTED) + 1
    for row in rows:
        assert set(row) == {"name", "source", "claimed_T", "verified_T", "best_bound", "verdict", "detail"}
        assert row["verdict"] in {v.value for v in Finding}


SMALL = {
    "ring-odd": [3, 5, 7, 9, 11],
    "ring-even": [4, 6, 8, 10, 12, 14],
    "torus2d-odd": [3, 5, 7, 9],
    "torus2d-even": [6, 8, 10],
    "torus3d-odd": [3, 5],
    "torus3d-even": [6],
}


@pytest.mark.parametrize("name,n", [(k, n) for k, ns in SMALL.items() for n in ns])
def test_construction_is_valid_and_meets_the_papers_formula(name, n):
    check = verify_construction(name, n)
    assert check.valid, check.verification.summary()
    assert check.T == check.claimed_T == check.bound


@pytest.mark.parametrize("name,n", [("ring-odd", 6), ("torus2d-even", 4), ("torus3d-even", 4), ("torus3d-odd", 4)])
def test_construction_refuses_sizes_it_does_not_cover(name, n):
    with pytest.raises(ConstructionError):
        verify_construction(name, n)


def test_construction_tables_carry_sections():
    table = CONSTRUCTIONS["torus2d-even"][0](6).table
    names = [s["name"] for s in table.extra["sections"]]
    assert names == ["core", "rotation blocks"]
    assert table.extra["sections"][-1]["end"] == table.T


@pytest.mark.slow  # 4-6 s: the everyday run stays under 2 minutes
def test_run_regress_has_every_row_with_its_verdict():
    """`tesearch regress`'s rows: every printed table with the verdict EXPECTED gives it, the star-6
    odd-distance claim, and one CONFIRMED row per general construction in CONSTRUCTION_SIZES, in order.
    (An ``all(...)`` over the rows alone would pass on an empty list.)"""
    rows = run_regress()
    assert len(rows) == len(EXPECTED) + 1 + len(CONSTRUCTION_SIZES), [r.name for r in rows]
    verdicts = {r.name: r.verdict for r in rows}
    assert {name: verdicts.get(name) for name in EXPECTED} == {name: want[0] for name, want in EXPECTED.items()}
    assert verdicts["star-6 odd-distance (rotation only)"] is D
    constructions = rows[-len(CONSTRUCTION_SIZES):]
    assert [(r.name.split(", n = ")[0], r.verdict) for r in constructions] == \
        [(title, C) for _, _, title, _ in CONSTRUCTION_SIZES], [r.detail for r in constructions]
    assert not [r.name for r in rows if r.verdict is Finding.INVALID]
