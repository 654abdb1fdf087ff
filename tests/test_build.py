"""The TableBuilder: every table made is labelled and verified in one place, with one error type."""

import pytest

from tesearch.tables.build import TableBuilder, relabelled
from tesearch.running.errors import UnverifiedTable
from tesearch.facts.instance import instance
from tesearch.running.terms import ExitCode, optimality_text
from tesearch.tables.verify import verify_table
from tesearch.networks.words import canonical_word


def _ring8_rows(facts):
    """ring-8's 7 targets laid out by hand: row 0 the words of the + letter, row 1 those of the - letter."""
    rows, ends = [], [0, 0]
    for g in facts.targets:
        word = canonical_word(facts.cg, int(g))
        r = word[0]
        rows.append((r, ends[r], word))
        ends[r] += len(word)
    return rows, max(ends)


def test_finish_labels_and_verifies_a_table():
    facts = instance("ring-8")
    rows, width = _ring8_rows(facts)
    table = TableBuilder(facts, "a hand layout").place(rows).finish(width, {"search": {"strategy": "by hand"}})
    assert verify_table(table).ok
    assert (table.network, table.exchange, table.lower_bound) == ("ring-8", "total", facts.bounds.counting)
    assert table.extra == {"letter_bound": facts.bounds.letter.value, "search": {"strategy": "by hand"}}


def test_a_table_that_does_not_verify_is_an_unverified_table_error_not_an_assertion():
    facts = instance("ring-8")
    rows, width = _ring8_rows(facts)
    with pytest.raises(UnverifiedTable, match="ring-8 total: the table made by a bad layout .* does not verify"):
        TableBuilder(facts, "a bad layout").place(rows[1:]).finish(width, {})  # one target left out
    assert UnverifiedTable("x").exit_code is ExitCode.INTERNAL


def test_relabelled_copies_and_leaves_the_verified_table_alone():
    facts = instance("ring-8")
    rows, width = _ring8_rows(facts)
    table = TableBuilder(facts, "a hand layout").place(rows).finish(width, {"search": {"seconds": 1.0, "x": 1}})
    other = relabelled(table, "search", seconds=2.5)
    assert other.extra["search"] == {"seconds": 2.5, "x": 1} and table.extra["search"] == {"seconds": 1.0, "x": 1}
    assert other.placements == table.placements


def test_the_one_optimality_wording():
    assert optimality_text(7, 7) == "OPTIMAL"
    assert optimality_text(9, 7) == "not shown optimal (gap 2)"
