"""tesearch draw: pictures of small and wide tables, windows, bad input."""

import pytest
from click.testing import CliRunner

from tesearch.cli import main
from tesearch.tables.draw import MAX_DETAIL_COLUMNS, draw_table, parse_window
from tesearch.running.errors import OptionError
from tesearch.checking.published.constructions import CONSTRUCTIONS
from tesearch.tables.table import write_table

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def small_table():
    return CONSTRUCTIONS["torus2d-even"][0](6).table  # 27 columns, core + rotation blocks


@pytest.fixture(scope="module")
def wide_table():
    return CONSTRUCTIONS["torus2d-odd"][0](11).table  # 165 columns


def test_png_and_svg(tmp_path, small_table):
    assert draw_table(small_table, tmp_path / "t.png") == (0, small_table.T)
    assert (tmp_path / "t.png").read_bytes().startswith(PNG_MAGIC)
    draw_table(small_table, tmp_path / "t.svg")
    svg = (tmp_path / "t.svg").read_text()
    assert "<svg" in svg and "core" in svg and "rotation blocks" in svg


@pytest.mark.slow  # 2-4 s: the everyday run stays under 2 minutes (the full suite runs it)
def test_wide_table_is_cropped_and_says_so(tmp_path, wide_table):
    start, end = draw_table(wide_table, tmp_path / "w.svg")
    assert (start, end) == (0, MAX_DETAIL_COLUMNS)
    svg = (tmp_path / "w.svg").read_text()
    assert f"columns 0-{MAX_DETAIL_COLUMNS - 1} of 0-{wide_table.T - 1}" in svg
    assert draw_table(wide_table, tmp_path / "w2.png", window=(100, 130)) == (100, 130)


def test_parse_window():
    assert parse_window("10:20", 50) == (10, 20)
    assert parse_window(":20", 50) == (0, 20)
    assert parse_window("40:", 50) == (40, 50)
    assert parse_window(None, 50) is None
    for bad in ("x", "5", "30:10", "60:70"):
        with pytest.raises(OptionError):
            parse_window(bad, 50)


def test_cli_draw(tmp_path, small_table):
    source = tmp_path / "t.json"
    write_table(small_table, source)
    result = CliRunner().invoke(main, ["draw", str(source), "-o", str(tmp_path / "t.png"), "--window", "5:15"])
    assert result.exit_code == 0, result.output
    assert "columns 5-14 of 27" in result.output
    bad = CliRunner().invoke(main, ["draw", str(source), "-o", str(tmp_path / "t.jpg")])
    assert bad.exit_code == 2 and "png or .svg" in bad.stderr
    bad_window = CliRunner().invoke(main, ["draw", str(source), "-o", str(tmp_path / "t.png"), "--window", "9"])
    assert bad_window.exit_code == 2



def test_draw_help_says_which_columns_it_draws_without_a_window():
    """Without --window draw showed columns 0-79 only, and its --help did not say so (the drawing itself:
    test_wide_table_is_cropped_and_says_so)."""
    from tesearch.cli.tables import DRAW_DEFAULT_COLUMNS

    assert DRAW_DEFAULT_COLUMNS == MAX_DETAIL_COLUMNS  # the help's figure is the drawing's
    shown = " ".join(CliRunner().invoke(main, ["draw", "--help"]).output.split())
    assert f"Without it: columns 0-{MAX_DETAIL_COLUMNS - 1} (the first {MAX_DETAIL_COLUMNS}" in shown
