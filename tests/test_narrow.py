"""Narrowing the rotation search's greedy-core table (tesearch.search.narrow, `tesearch repack --rotation-core`)."""

import json

import pytest

from conftest import run_cli
from tesearch.networks import network_from_spec
from tesearch.search.narrow import narrowed_core_table
from tesearch.verify import verify_table

pytest.importorskip("ortools")


def test_the_narrowed_core_table_is_verified_and_narrower_than_the_greedy_one():
    lines = []
    table, summary = narrowed_core_table(network_from_spec("star-5"), timeout_s=60, progress=lines.append)
    greedy_T = int(next(line for line in lines if "greedy core width" in line).split("T = ")[1].split(",")[0])
    check = verify_table(table)
    assert check.ok, check.summary()
    assert 111 <= table.T < greedy_T  # star-5's bound is 111: never below it, and narrower than greedy
    assert table.extra["sections"][0]["name"] == "core"
    assert table.extra["search"]["method"].startswith("cpsat: greedy first-fit core, width minimised")
    assert f"T = {table.T}" in summary and "not a certificate" in summary


def test_the_interval_model_narrows_the_core_too():
    from tesearch.backends import CpsatModel

    lines = []
    table, _ = narrowed_core_table(network_from_spec("star-5"), timeout_s=60, progress=lines.append,
                                   cpsat_model=CpsatModel.INTERVALS)
    greedy_T = int(next(line for line in lines if "greedy core width" in line).split("T = ")[1].split(",")[0])
    assert verify_table(table).ok and 111 <= table.T < greedy_T
    assert table.extra["search"]["method"].startswith("cpsat intervals: greedy first-fit core")


def test_odd_distance_too(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("repack", "star-5", "--rotation-core", "--exchange", "odd-distance", "--timeout", "60",
                     "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["exchange"] == "odd-distance" and run_cli("verify", out).exit_code == 0


@pytest.mark.parametrize("args, words", [
    (["star-5", "--rotation-core", "--tail", "3"], "choose one"),
    (["star-5", "--rotation-core", "--start", "results/star-5.json"], "choose one"),
    (["pancake-4", "--rotation-core"], "has no rotation"),
    (["star-5", "--exchange", "odd-distance"], "needs --rotation-core"),
])
def test_refusals_are_one_line_exit_2(args, words, tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("repack", *args, "--out", out)
    assert result.exit_code == 2 and words in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()
