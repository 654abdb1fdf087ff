"""tesearch.search.lanecore (``tesearch narrow --core-model lanes``): the mirrored-lane split of a rotation core
(abelian networks), on torus-4x4x8:twisted."""

from __future__ import annotations

import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tesearch.facts.instance import instance
from tesearch.search.lanecore import LaneCore
from tesearch.tables.table import read_table
from tesearch.tables.verify import verify_table

ROOT = Path(__file__).resolve().parent.parent

SPEC = "torus-4x4x8:twisted"


@pytest.fixture(scope="module")
def core():
    return LaneCore(instance(SPEC, "total"))


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
def test_the_former_scripts_command_runs_narrow_and_writes_a_verified_table_at_the_bound(tmp_path):
    """A command recorded as the former scripts/lane_core.py (removed in issue 48: the lane core is `tesearch narrow
    --core-model lanes`), as the manifest translates it, writes a verified table at the bound."""
    from scripts.make_manifest import current

    out = tmp_path / "t.json"
    command = shlex.split(current(f"python scripts/lane_core.py {SPEC} --out {out} --timeout 120 --attempt 20"))
    assert command[:2] == ["tesearch", "narrow"]
    done = subprocess.run([sys.executable, "-m", "tesearch.entry", *command[1:]], capture_output=True, text=True,
                          cwd=ROOT)
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


def test_narrow_with_lanes_writes_a_verified_table_and_a_core_too_narrow_is_unknown_not_infeasible(tmp_path):
    """torus-4x4x4 (abelian, rotation of order 6): the lane core gives a verified table; with every core
    width refused (--max-width 1) the outcome is UNKNOWN (exit 4), never a claim that a width is impossible."""
    from click.testing import CliRunner

    from tesearch.cli import main

    out = tmp_path / "t.json"
    done = CliRunner().invoke(main, ["narrow", "torus-4x4x4", "--core-model", "lanes", "-o", str(out), "--quiet"])
    assert done.exit_code == 0, done.output
    assert verify_table(read_table(out)).ok
    unknown = CliRunner().invoke(main, ["narrow", "torus-4x4x4", "--core-model", "joint-lanes", "--max-width", "1",
                                        "--quiet", "--json"])
    assert unknown.exit_code == 4, unknown.output
    data = __import__("json").loads(unknown.stdout)
    assert data["status"] == "unknown" and data["T"] is None and "nothing is refuted" in data["summary"]
    refused = CliRunner().invoke(main, ["narrow", "torus-4x4x4", "--from-width", "3"])
    assert refused.exit_code == 2 and "--core-model" in refused.stderr
    other_group = CliRunner().invoke(main, ["narrow", "torus-4x4x4", "--core-model", "lanes", "--symmetry", "C6"])
    assert other_group.exit_code == 2 and "--symmetry" in other_group.stderr
