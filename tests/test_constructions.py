"""The doubling construction for hypercube-d: verified for d = 1..10, plus an independent check."""

from collections import defaultdict

import pytest

from tesearch.constructions.hypercube import MAX_DIMENSION, hypercube_table, perfect_words
from conftest import run_cli
from tesearch.running.errors import ConstructionError, TesearchError
from tesearch.checking.kernel import MAX_CHECK_NODES, build_network
from tesearch.networks.products import hypercube_network
from tesearch.tables.verify import verify_table

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
    """Without tesearch.tables.verify: rows, columns, letters and elements straight from the placements."""
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


def test_construct_stops_where_the_checkers_stop(tmp_path):
    """construct makes hypercube-d for d up to MAX_DIMENSION, the largest the kernel rebuilds: its node cap is
    exact (n nodes pass with max_nodes = n, not with n - 1) and 2^MAX_DIMENSION is within it, 2^(d+1) not.
    One dimension more is refused by the construction itself (one line, exit 2, nothing written) even when
    --max-order and --max-memory would let it start."""
    cube = hypercube_network(5)
    generators = [cube.generators[s] for s in cube.letters]
    assert build_network(cube.letters, generators, max_nodes=32).order == 32
    with pytest.raises(TesearchError, match="more than 31 nodes"):
        build_network(cube.letters, generators, max_nodes=31)
    assert 2 ** MAX_DIMENSION <= MAX_CHECK_NODES < 2 ** (MAX_DIMENSION + 1)
    out = tmp_path / "t.json"
    result = run_cli("construct", f"hypercube-{MAX_DIMENSION + 1}", "--max-order", 2 ** (MAX_DIMENSION + 2),
                     "--max-memory", "4G", "--timeout", "60", "--out", out)
    assert result.exit_code == 2 and f"hypercube-d for d = 1..{MAX_DIMENSION}" in result.stderr, result.output
    assert "Traceback" not in result.output and not out.exists()
    with pytest.raises(ConstructionError):
        perfect_words(0)
