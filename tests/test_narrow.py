"""Narrowing the rotation search's greedy-core table (tesearch.search.narrow, `tesearch narrow`)."""

import json

import pytest

from conftest import run_cli
from tesearch.running.limits import Budget
from tesearch.running import limits
from tesearch.networks.families import network_from_spec
from tesearch.search.narrow import narrowed_core_table
from tesearch.tables.verify import verify_table

pytest.importorskip("ortools")


class Offers(limits.Reporter):
    """The tables the work offers to its supervisor, in order."""

    def __init__(self):
        self.tables = []

    def candidate(self, value: object) -> None:
        self.tables.append(value)


def narrowed_star5(**options):
    """narrowed_core_table on star-5 (bound 111): (table, summary, every table offered on the way)."""
    offers = Offers()
    with limits.activated(limits.Limits(), offers):
        outcome = narrowed_core_table(network_from_spec("star-5"), budget=Budget.seconds(60), **options)
        table, summary = outcome.table, outcome.summary
    return table, summary, offers.tables


def check_narrowing(table, offered):
    """The first table offered is the greedy-core one, each later one is narrower, the last is the one
    returned, each verifies, and the rotation blocks after the core are the same width in all of them."""
    greedy = offered[0]
    assert offered[-1] is table and len(offered) >= 2
    widths = [t.T for t in offered]
    assert widths == sorted(set(widths), reverse=True), widths  # each offer strictly narrower
    for t in offered:
        assert verify_table(t).ok
        core, blocks = t.extra["sections"]
        assert core["name"] == "core" and blocks["name"] == "rotation blocks" and blocks["end"] == t.T
        assert t.T - core["end"] == greedy.T - greedy.extra["sections"][0]["end"]
    assert 111 <= table.T < greedy.T  # star-5's bound is 111: never below it, and narrower than greedy


def test_the_narrowed_core_table_is_verified_and_narrower_than_the_greedy_one():
    table, summary, offered = narrowed_star5()
    check_narrowing(table, offered)
    assert table.extra["search"]["method"].startswith("cpsat: greedy first-fit core, width minimised")
    assert f"T = {table.T}" in summary and "not a certificate" in summary


def test_the_interval_model_narrows_the_core_too():
    from tesearch.solvers import CpsatModel

    table, _, offered = narrowed_star5(cpsat_model=CpsatModel.INTERVALS)
    check_narrowing(table, offered)
    assert table.extra["search"]["method"].startswith("cpsat intervals: greedy first-fit core")


def test_odd_distance_too(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("narrow", "star-5", "--exchange", "odd-distance", "--timeout", "60", "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["exchange"] == "odd-distance" and run_cli("verify", out).exit_code == 0


@pytest.mark.parametrize("args, words", [
    (["repack", "star-5", "--rotation-core", "--tail", "3"], "No such option '--rotation-core'"),  # the shim is gone
    (["narrow", "pancake-4"], "has no rotation"),
    (["repack", "star-5", "--exchange", "odd-distance"], "tesearch narrow"),
    (["narrow", "star-5", "--tail", "3"], "No such option"),
])
def test_refusals_are_one_line_exit_2(args, words, tmp_path):
    out = tmp_path / "t.json"
    result = run_cli(*args, "--out", out)
    assert result.exit_code == 2 and words in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()
