"""Mirror lanes (tesearch.constructions.lanes): optimal tables for the regular torus m x n x n, checked three ways."""

import json
import random
from collections import Counter, defaultdict

import pytest

from conftest import run_cli
from tesearch.constructions import constructed_table, lanes
from tesearch.errors import ConstructionError
from tesearch.kernel import build_network, check_theorem1, input_from_json, kernel_bounds, target_mask
from tesearch.networks import network_from_spec
from tesearch.replay import replay_data
from tesearch.table import read_table
from tesearch.verify import verify_table

# every axis order, both ring presentations, short sides 4, 8 and 12
SHAPES = ["torus-4x8x8", "torus-8x4x8", "torus-8x8x4", "torus-4x6x6", "torus-4x10x10", "torus-8x10x10",
          "torus-8x12x12", "torus-4x8x8:cyclic"]


def closed_form(m: int, n: int) -> int:
    """The per-letter bound of the long axes: m*n nodes per long ring, each ring's distances summing to (n/2)^2,
    over two letters."""
    return m * n * (n // 2) ** 2 // 2


def sides_of(spec: str) -> tuple[int, int]:
    sides = sorted(int(s) for s in spec.split("-")[1].split(":")[0].split("x"))
    return sides[0], sides[2]


@pytest.fixture(scope="module")
def tables():
    return {spec: lanes.mirror_lane_table(network_from_spec(spec)) for spec in SHAPES}


@pytest.mark.parametrize("spec", SHAPES)
def test_width_is_the_closed_form_per_letter_bound_and_verify_agrees(tables, spec):
    table = tables[spec]
    m, n = sides_of(spec)
    assert table.T == closed_form(m, n)
    check = verify_table(table)
    assert check.ok, check.summary()
    assert check.optimal and check.bounds.best == table.T  # no lower bound above it: T - 1 is impossible


@pytest.mark.parametrize("spec", ["torus-4x8x8", "torus-8x4x8", "torus-4x8x8:cyclic"])
def test_the_kernel_and_the_replay_agree(tables, spec):
    """The checking kernel (no sympy, no z3) rebuilds the network from the generators; the replay runs it."""
    data = tables[spec].to_json()
    inp = input_from_json(data)
    net = build_network(inp.letters, inp.generators)
    report = check_theorem1(inp, net)
    assert report.ok, report.violations[:3]
    bounds = kernel_bounds(net, list(inp.generators), target_mask(net, inp.exchange))
    assert bounds.best == inp.T
    replayed = replay_data(data)
    assert replayed.ok and replayed.completion_time == inp.T


@pytest.mark.parametrize("spec", ["torus-4x8x8", "torus-8x10x10"])
def test_long_letters_fill_every_column(tables, spec):
    """Both long axes' four letters in every column: the construction's claim, counted from the placements."""
    table = tables[spec]
    network = network_from_spec(spec)
    short = min(range(3), key=lambda i: network.params.sides[i])
    long_letters = {s for i, f in enumerate(network.factors) if i != short for s in f.letters}
    column = defaultdict(list)
    for p in table.placements:
        for offset, letter in enumerate(p.word):
            column[p.column + offset].append(letter)
    for c in range(table.T):
        assert len(column[c]) == len(set(column[c]))  # no letter twice
        assert long_letters <= set(column[c]), c


def test_pairs_share_their_columns_and_the_fixed_elements_sit_in_the_first_block(tables):
    spec = "torus-8x10x10"
    table = tables[spec]
    swap = str.swapcase  # dihedral letters: a <-> A, b <-> B, c <-> C
    by_start = Counter((p.column, p.word) for p in table.placements)
    h = 5
    unmirrored = [p for p in table.placements if by_start[(p.column, tuple(swap(s) for s in p.word))] == 0]
    # an antipode's two words are each other's swap, so only the seven fixed elements lack a partner
    assert len(unmirrored) == 7
    assert all(p.column + len(p.word) <= 3 * h for p in unmirrored)


@pytest.mark.parametrize("spec, reason", [
    ("torus-8x8x16", "one short side m and two equal long sides"),
    ("torus-8x8x8", "one short side m and two equal long sides"),
    ("torus-6x12x12", "divisible by 4"),
    ("torus-4x8", "3D tori"),
    ("torus-4x4x8:twisted", "3D tori"),
    ("star-5", "3D tori"),
])
def test_shapes_without_the_construction_are_refused(spec, reason):
    network = network_from_spec(spec)
    assert reason in lanes.applies(network)
    with pytest.raises(ConstructionError, match=reason):
        lanes.mirror_lane_table(network)


def test_a_stuck_sequencing_is_an_error_not_a_wider_table(monkeypatch):
    """With no X room after the fixed block the greedy cannot place the braids' X blocks: every seed fails."""
    real = lanes._XLane
    block = 3 * 8 // 2  # torus-4x8x8: the fixed block is 3h = 12 columns

    class Full(real):
        def free(self, start, length):
            return real.free(self, start, length) and (length == 0 or start + length < block)

    monkeypatch.setattr(lanes, "_XLane", Full)
    with pytest.raises(ConstructionError, match="found no sequence"):
        lanes.mirror_lane_table(network_from_spec("torus-4x8x8"), seeds=2)


def test_a_moved_word_is_caught_by_the_verifier(tables):
    """The checks above can fail: shift one braid word by a column and verify names a clash."""
    table = tables["torus-4x8x8"]
    rng = random.Random(3)
    placements = list(table.placements)
    i = rng.randrange(len(placements))
    p = placements[i]
    column = p.column + 1 if p.column + len(p.word) < table.T else p.column - 1
    placements[i] = type(p)(p.row, column, p.word)
    assert not verify_table(table.with_placements(placements)).ok


def test_construct_writes_torus_8x16x16_at_its_bound(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("construct", "torus-8x16x16", "--out", out)
    assert result.exit_code == 0, result.output
    table = read_table(out)
    assert table.T == closed_form(8, 16) == 4096
    check = verify_table(table)
    assert check.ok and check.optimal
    assert json.loads(out.read_text())["construction"]["method"] == lanes.CONSTRUCTION_NAME


def test_construct_refuses_a_shape_it_cannot_build_in_one_line(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("construct", "torus-6x12x12", "--out", out)
    assert result.exit_code == 2
    assert "torus-mxnxn with 4 | m < n" in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_the_registry_names_the_construction():
    table, summary = constructed_table(network_from_spec("torus-4x8x8"))
    assert "mirror lanes" in summary and "OPTIMAL" in summary and table.T == 256


def test_relief_braids_carry_a_short_side_close_to_the_long_one():
    """torus-16x18x18 (the X lane 89 % full): the greedy without relief braids got stuck at all 16 seeds."""
    table = lanes.mirror_lane_table(network_from_spec("torus-16x18x18"), seeds=2)
    assert table.T == closed_form(16, 18) == 11664
    check = verify_table(table)
    assert check.ok and check.T == table.T
