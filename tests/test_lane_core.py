"""scripts/lane_core.py: the mirrored-lane split of a rotation core (abelian networks), on torus-4x4x8:twisted."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from lane_core import LaneCore  # noqa: E402

from tesearch.table import read_table  # noqa: E402
from tesearch.verify import verify_table  # noqa: E402

SPEC = "torus-4x4x8:twisted"


@pytest.fixture(scope="module")
def core():
    return LaneCore(SPEC)


def test_pairs_are_mirror_images_and_fixed_elements_are_fixed(core):
    assert core.pairs and core.fixed
    for g, partner in core.pairs:
        assert g != partner
        mirrored = core.element(tuple(core.turn[t] for t in core.some_word(g)))
        assert mirrored == partner and core.length(g) == core.length(partner)
    for g in core.fixed:
        assert core.element(tuple(core.turn[t] for t in core.some_word(g))) == g


def test_the_lanes_hold_each_pair_once_with_no_letter_twice_in_a_column(core):
    letters = sum(core.length(g) for g, _ in core.pairs)
    width = -(-letters // core.half) + 1
    status, placed = core.lanes(core.pairs, width, 20)
    assert placed is not None, status
    assert sorted(g for g, _, _ in placed) == sorted(g for p in core.pairs for g in p)  # every element once
    column = Counter((c + i, t) for _, c, word in placed for i, t in enumerate(word))
    assert max(column.values()) == 1  # no letter twice in a column
    for g, first, word in placed:  # each word is a shortest word of its element, inside the lane part
        assert core.element(word) == g and len(word) == core.length(g) and first + len(word) <= width


def test_a_lane_part_too_narrow_is_not_solved(core):
    """Narrower than the longest pair's word: refused before any model is made ("TOO-NARROW", never
    CP-SAT's MODEL_INVALID); at the longest word's length the lanes are solved."""
    longest = max(core.length(g) for g, _ in core.pairs)
    status, placed = core.lanes(core.pairs, longest - 1, 20)
    assert (status, placed) == ("TOO-NARROW", None)
    status, placed = core.lanes(core.pairs, longest, 20)
    assert status in ("OPTIMAL", "FEASIBLE") and placed is not None


@pytest.mark.slow  # 4-6 s: the everyday run stays under 2 minutes
def test_the_script_writes_a_verified_table_at_the_bound(tmp_path):
    out = tmp_path / "t.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "lane_core.py"), SPEC, "--out", str(out),
                           "--timeout", "120", "--attempt", "20"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    table = read_table(out)
    check = verify_table(table)
    assert check.ok and check.optimal and table.T == 74


@pytest.mark.slow  # 2-4 s: the everyday run stays under 2 minutes (the full suite runs it)
def test_the_joint_model_places_pairs_mirrored_and_fixed_elements_together(core):
    """--joint: one model for the whole core; every exceptional element once, no letter twice in a column,
    each pair's two words in the same columns; too narrow a core is not solved."""
    exceptional = sorted(core.fixed + [g for p in core.pairs for g in p])
    exact = -(-sum(core.length(g) for g in exceptional) // core.S)
    status, placed = core.joint(exact - 1, 20)
    assert (status, placed) == ("INFEASIBLE", None)  # proved by CP-SAT (0.4 s), not a timeout or a bad model
    for width in (exact, exact + 1, exact + 2):
        status, placed = core.joint(width, 20)
        if placed is not None:
            break
    assert placed is not None, status
    assert sorted(g for g, _, _ in placed) == exceptional
    column = Counter((c + i, t) for _, c, word in placed for i, t in enumerate(word))
    assert max(column.values()) == 1
    start = {g: c for g, c, _ in placed}
    for g, partner in core.pairs:
        assert start[g] == start[partner]
    for g, first, word in placed:
        assert core.element(word) == g and len(word) == core.length(g) and first + len(word) <= width
