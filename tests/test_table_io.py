"""The Theorem-1 verifier pinned on hand-made tables; text <-> JSON round trips; malformed files."""

import json

import pytest

from tesearch.running.errors import FormatError
from tesearch.tables.segment import segmented
from click.testing import CliRunner

from tesearch.cli import main
from tesearch.networks.families import network_from_spec
from tesearch.tables.table import Placement, Table, parse_text, read_table, table_from_json, table_from_text
from tesearch.tables.verify import Rule, verify_table


def ring6(T: int, placements, exchange: str = "total") -> Table:
    net = network_from_spec("ring-6")  # dihedral: letters a, A
    return Table("ring-6", exchange, {s: net.generators[s] for s in net.letters}, T,
                 sorted(Placement(r, c, tuple(w.split())) for r, c, w in placements))


# seed 003 §3.1, D_6 total:  a A a | a A  /  A a | A . a
GOOD_TOTAL = [(0, 0, "a A a"), (0, 3, "a A"), (1, 0, "A a"), (1, 2, "A"), (1, 4, "a")]
# D_6 odd distance: a A a  /  A | a .
GOOD_ODD = [(0, 0, "a A a"), (1, 0, "A"), (1, 1, "a")]


def test_good_tables_are_valid_and_optimal():
    for placements, exchange, T in ((GOOD_TOTAL, "total", 5), (GOOD_ODD, "odd-distance", 3)):
        result = verify_table(ring6(T, placements, exchange))
        assert result.ok, result.summary()
        assert result.optimal and result.gap == 0


def _swap(placements, old, new):
    return [p for p in placements if p != old] + ([new] if new else [])


BROKEN = [
    # (rule, T, placements, exchange, expected row, expected column)
    (Rule.BAD_ROW, 6, GOOD_TOTAL + [(5, 5, "a")], "total", 5, 5),
    (Rule.UNKNOWN_LETTER, 6, GOOD_TOTAL + [(0, 5, "x")], "total", 0, 5),
    (Rule.OUT_OF_RANGE, 5, _swap(GOOD_TOTAL, (1, 4, "a"), (1, 5, "a")), "total", 1, 5),
    (Rule.NOT_SHORTEST, 7, _swap(GOOD_TOTAL, (1, 4, "a"), (1, 4, "a a a")), "total", 1, 4),
    (Rule.NOT_TARGET, 5, GOOD_ODD + [(1, 3, "a A")], "odd-distance", 1, 3),
    (Rule.DUPLICATE, 6, GOOD_TOTAL + [(1, 5, "a")], "total", 1, 5),
    (Rule.MISSING, 5, _swap(GOOD_TOTAL, (1, 2, "A"), None), "total", None, None),
    (Rule.OVERLAP, 5, _swap(GOOD_TOTAL, (1, 4, "a"), (1, 1, "a")), "total", 1, 1),
    (Rule.COLUMN_REPEAT, 3, [(0, 0, "a A a"), (1, 0, "A"), (1, 2, "a")], "odd-distance", 1, 2),
]


def test_every_rule_is_covered():
    assert {case[0] for case in BROKEN} == set(Rule)


@pytest.mark.parametrize("rule,T,placements,exchange,row,column", BROKEN, ids=[c[0].value for c in BROKEN])
def test_each_rule_broken_once_is_detected_where_it_is(rule, T, placements, exchange, row, column):
    result = verify_table(ring6(T, placements, exchange))
    assert not result.ok
    assert [v.rule for v in result.violations] == [rule], [str(v) for v in result.violations]
    violation = result.violations[0]
    assert (violation.row, violation.column) == (row, column)
    if rule is Rule.NOT_SHORTEST:
        assert violation.word == ("a", "a", "a")


def test_cli_verify_names_rule_row_and_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(ring6(3, [(0, 0, "a A a"), (1, 0, "A"), (1, 2, "a")], "odd-distance").dumps())
    result = CliRunner().invoke(main, ["verify", str(path), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["violations"] == [{"rule": "letter-twice-in-column", "row": 1, "column": 2, "word": None,
                                   "detail": "letter 'a' appears in rows 0, 1"}]


# ------------------------------------------------------------------ round trips

def _same(a: Table, b: Table) -> None:
    assert (a.network, a.exchange, a.T, dict(a.generators)) == (b.network, b.exchange, b.T, dict(b.generators))
    assert sorted(a.placements) == sorted(b.placements)


def test_round_trip_json_text_json(tmp_path):
    from tesearch.checking.published.regress import run_regress

    tables = [r.table for r in run_regress(constructions=False) if r.table is not None]
    assert len(tables) >= 10
    for table in tables:
        via_json = table_from_json(json.loads(table.dumps()))
        _same(table, via_json)
        assert via_json.extra.get("sections") == table.extra.get("sections")
        via_text = table_from_text(parse_text(table.to_text()))
        _same(table, via_text)
    # and through files
    table = tables[0]
    for name in ("t.json", "t.txt"):
        from tesearch.tables.table import write_table

        write_table(table, tmp_path / name)
        _same(table, read_table(tmp_path / name))


def test_unmarked_text_is_segmented():
    text = "network: ring-6\nexchange: total\nT: 5\n\na A a a A\nA a A . a\n"
    with pytest.raises(FormatError, match="no '|' word boundaries"):
        table_from_text(parse_text(text))
    table = table_from_text(parse_text(text), segmenter=segmented)
    assert verify_table(table).ok


# ------------------------------------------------------------------ malformed input

MALFORMED = [
    ("not-json.json", "{ not json", "not valid JSON"),
    ("missing.json", json.dumps({"format": "tesearch-table"}), "missing key"),
    ("version.json", json.dumps({"format": "tesearch-table", "format_version": 9, "network": "ring-6",
                                 "exchange": "total", "generators": {"a": [1, 0, 3, 2, 5, 4]}, "T": 1,
                                 "lower_bound": 1, "placements": []}), "format_version"),
    ("placement.json", json.dumps({"format": "tesearch-table", "format_version": 1, "network": "ring-6",
                                   "exchange": "total",
                                   "generators": {"a": [1, 0, 3, 2, 5, 4], "A": [5, 2, 1, 4, 3, 0]},
                                   "T": 1, "lower_bound": 1, "placements": [[0, -1, ["a"]]]}), "first_column"),
    ("noheader.txt", "a A a\n", "no 'network:' header"),
    ("letter.txt", "network: ring-6\n\na x a\nA a A\n", "unknown letter 'x'"),
    ("rows.txt", "network: ring-6\n\na A a\n", "1 rows, but the network has 2"),
]


@pytest.mark.parametrize("name,content,fragment", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_files_exit_2_with_one_line(tmp_path, name, content, fragment):
    path = tmp_path / name
    path.write_text(content)
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tesearch: ") and fragment in lines[0], result.stderr


def test_missing_file_exits_2(tmp_path):
    result = CliRunner().invoke(main, ["verify", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
