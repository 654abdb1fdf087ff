"""The doubling construction for hypercube-d: verified for d = 1..10, plus an independent check."""

from collections import defaultdict

import pytest

from tesearch.constructions.hypercube import MAX_DIMENSION, hypercube_table, perfect_words
from tesearch.errors import ConstructionError
from tesearch.kernel import MAX_CHECK_NODES
from tesearch.verify import verify_table

DIMENSIONS = range(1, 11)


@pytest.fixture(scope="module")
def tables():
    return {d: hypercube_table(d) for d in DIMENSIONS}


@pytest.mark.parametrize("d", DIMENSIONS)
def test_verifier_accepts_optimal_table(tables, d):
    table = tables[d]
    assert table.T == 2 ** (d - 1)
    assert table.lower_bound == table.T
    result = verify_table(table)
    assert result.ok, result.summary()
    assert result.optimal and result.blanks == 0


@pytest.mark.parametrize("d", DIMENSIONS)
def test_independent_column_and_element_check(tables, d):
    """Without tesearch.verify: rows, columns, letters and elements straight from the placements."""
    table = tables[d]
    letters = table.letters
    assert letters == tuple("abcdefghijklmnopqrstuvwxyz"[:d])
    bit = {letter: 1 << i for i, letter in enumerate(letters)}
    column_letters = defaultdict(list)
    row_cells = defaultdict(set)
    elements = set()
    for p in table.placements:
        assert 0 <= p.row < d
        assert 0 <= p.column and p.column + len(p.word) <= table.T
        assert len(set(p.word)) == len(p.word)  # each letter once: a shortest path in the cube
        element = sum(bit[s] for s in p.word)
        assert element not in elements
        elements.add(element)
        for offset, letter in enumerate(p.word):
            cell = p.column + offset
            assert cell not in row_cells[p.row]  # words in a row do not overlap
            row_cells[p.row].add(cell)
            column_letters[cell].append(letter)
    assert elements == set(range(1, 2 ** d))
    for column in range(table.T):
        assert sorted(column_letters[column]) == list(letters)  # every letter exactly once: no blank


def test_construct_stops_where_the_checkers_stop():
    """construct builds what both checkers can rebuild: 2^MAX_DIMENSION nodes is the kernel's limit."""
    assert 2 ** MAX_DIMENSION == MAX_CHECK_NODES
    with pytest.raises(ConstructionError):
        perfect_words(0)
