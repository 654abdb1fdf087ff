"""tesearch.constructions.star_prime: total exchange on star-n, n - 1 prime, by rotation blocks around a
recorded core array (the Theorem in the module doc)."""

from __future__ import annotations

import pytest

from conftest import run_cli
from tesearch.constructions import constructed_table
from tesearch.constructions.star_prime import CORE_ARRAYS, check_core
from tesearch.errors import ConstructionError
from tesearch.networks import network_from_spec
from tesearch.replay import replay_data
from tesearch.verify import verify_table


@pytest.mark.parametrize("p", sorted(CORE_ARRAYS))
def test_every_recorded_core_array_is_one(p):
    assert check_core(p, CORE_ARRAYS[p]) == []


def _mutated(p, index, word):
    core = list(CORE_ARRAYS[p])
    core[index] = (core[index][0], word)
    return tuple(core)


def test_the_core_check_finds_a_clash_a_missing_pair_and_a_repeated_step():
    core = CORE_ARRAYS[5]
    pair = next(i for i, (_, w) in enumerate(core) if len(w) == 2)
    a, b = core[pair][1]
    assert any("not every ordered pair" in f for f in check_core(5, _mutated(5, pair, (b, a))))
    progression = [i for i, (_, w) in enumerate(core) if len(w) == 6]
    first = core[progression[0]][1]
    same_step = tuple((x + 1) % 5 for x in core[progression[1]][1])  # another word of the second step
    assert any("steps" in f for f in check_core(5, _mutated(5, progression[0], same_step)))
    shifted = tuple(core[:progression[0]]) + ((core[progression[0]][0], tuple((x + 1) % 5 for x in first)),) \
        + tuple(core[progression[0] + 1:])
    assert check_core(5, shifted) != []  # the same step from another letter clashes in some column here
    assert any("leaves" in f for f in check_core(5, ((13, (0, 1)),) + core[1:]))


@pytest.mark.parametrize("n", [4, 6])
def test_star_n_is_built_at_the_counting_bound_and_both_checkers_accept_it(n):
    outcome = constructed_table(network_from_spec(f"star-{n}"), "total")
    table = outcome.table
    check = verify_table(table)
    assert check.ok and check.optimal and table.T == check.bounds.counting
    assert replay_data(table.to_json()).ok
    assert sum(len(p.word) for p in table.placements) == table.T * (n - 1) - 1  # the one blank


@pytest.mark.slow  # about 10 s (the replay of its 40320 nodes is left to `tesearch replay`, run on it once)
def test_star_8_is_built_at_its_bound():
    table = constructed_table(network_from_spec("star-8"), "total").table
    check = verify_table(table)
    assert check.ok and check.optimal and table.T == 40135


def test_a_composite_n_minus_1_or_an_unrecorded_prime_is_refused_before_any_group_is_built():
    with pytest.raises(ConstructionError, match="n - 1 = 4 is not prime"):
        constructed_table(network_from_spec("star-5"), "total")
    result = run_cli("construct", "star-5")
    assert result.exit_code == 2 and "not prime" in result.stderr
