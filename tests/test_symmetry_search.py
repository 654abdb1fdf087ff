"""The rotation search with another letter group than the cyclic rotation (``--symmetry``, issue 32).

A regular group H of letter automorphisms gives blocks (row r of a block holds h_r of one word) for
the targets it moves freely; the core is the targets some h != 1 fixes.  These tests pin the widths
the search reaches with C2xC2 on star-5 and S3 on star-7, check that the table is verified and names
its group, that ``tesearch verify`` and ``replay`` accept it without knowing H, that the default
(cyclic) run is unchanged, and the refusals (a bad name, a group that acts as no automorphisms).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from tesearch.facts.instance import instance
from tesearch.tables.loading import load_checked_table
from tesearch.search.core import Searcher, SearchParams, Strategy
from tesearch.running.terms import SolveResult, Status
from tesearch.tables.verify import verify_table

ROOT = Path(__file__).resolve().parent.parent


def _searcher(spec: str, exchange: str, symmetry: str, strategy: Strategy = Strategy.ROTATION) -> Searcher:
    return Searcher(instance(spec, exchange), SearchParams(strategy, symmetry=symmetry))


def _greedy_core_table(spec: str, exchange: str, symmetry: str):
    """The rotation search's first table: H's core by greedy first fit, every free H-orbit a block."""
    searcher = _searcher(spec, exchange, symmetry)
    full, short, _, _ = searcher.orbit_classes
    return searcher, searcher.greedy_core_table([g for orbit in short for g in orbit], full)


def _assert_valid(table, spec: str, exchange: str, group: str) -> None:
    """Verified again from scratch (Theorem 1), and its record names the group, its maps and the run."""
    report = verify_table(table)
    assert report.ok and (table.network, table.exchange) == (spec, exchange), report.violations[:3]
    record = table.extra["search"]
    assert record["symmetry"]["group"] == group and "rotation" not in record
    assert f"symmetry={group}" in record["run"] and f"{group} blocks" in record["method"]
    maps = record["symmetry"]["letter_maps"]
    assert maps[0] == list(table.generators) and len(maps) == len(table.generators)


def test_c2xc2_core_of_star5_odd_distance_is_found_at_the_bound(tmp_path):
    """C2xC2 leaves 12 odd-distance core elements (48 letters) on star-5; the core search refutes width 12
    and places them with one filler orbit at 13, so the table meets the bound 56.  Made by
    `tesearch search --symmetry C2xC2 --out`, then `verify` and `replay` (which know nothing of H) accept it."""
    full, short, _, blanks = _searcher("star-5", "odd-distance", "C2xC2").orbit_classes
    assert sum(len(o) for o in short) == 12 and len(full) == 12 and blanks == 0
    out = tmp_path / "star-5-odd-c2xc2.json"
    result = run_cli("search", "star-5", "--exchange", "odd-distance", "--symmetry", "C2xC2", "--out", out,
                     "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["T"] == 56 == data["best_bound"] and data["run"].endswith("symmetry=C2xC2")
    table = load_checked_table(out, command="test")
    _assert_valid(table, "star-5", "odd-distance", "C2xC2")
    core = table.extra["sections"][0]  # 13 on a quiet machine; a loaded one may time out that attempt and place the
    assert core["name"] == "core" and core["start"] == 0 and 13 <= core["end"] <= 20  # core wider (16 at load 100)
    assert run_cli("verify", out, "--quiet").exit_code == 0
    assert run_cli("replay", out, "--quiet").exit_code == 0


def test_c2xc2_greedy_core_of_star5_total():
    """C2xC2's total core on star-5 is 15 elements (66 letters); packed by first fit it is 19 wide: T = 113."""
    searcher, table = _greedy_core_table("star-5", "total", "C2xC2")
    assert sum(len(o) for o in searcher.orbit_classes.short) == 15
    assert table.T == 113
    _assert_valid(table, "star-5", "total", "C2xC2")


#: the core width where C2xC2's search on star-5 total meets the bound: the first candidate there (23 items) is sat
#: (results/symmetry-search.md: core width 20, 9.4 s on a quiet machine)
C2XC2_STAR5_CORE_WIDTH = 20


def c2xc2_star5_total_in_a_fresh_process() -> None:
    """The search of the test below, run in this process: the cores below width 20 answer unknown, the rest are
    decided with 120 s each; asserts what the test asserts and prints a JSON object: None, or the failure's
    traceback."""
    import traceback

    from tesearch.search import core as core_module

    real = core_module.Searcher.run_problem
    widths = []

    def scripted(self, part, problem, timeout_s):
        widths.append(problem.width)
        if problem.width < C2XC2_STAR5_CORE_WIDTH:
            return SolveResult.UNKNOWN, None  # as if the first budget were too short
        return real(self, part, problem, 120.0)

    core_module.Searcher.run_problem = scripted
    try:
        outcome = _searcher("star-5", "total", "C2xC2").run()
        assert outcome.status is Status.FOUND and outcome.T == 111 == outcome.bounds.best, \
            (outcome.stop_reason, widths)
        _assert_valid(outcome.table, "star-5", "total", "C2xC2")
        core = outcome.table.extra["sections"][0]
        assert core["name"] == "core" and core["end"] - core["start"] == C2XC2_STAR5_CORE_WIDTH, core
        failure = None
    except Exception:  # noqa: BLE001 - reported to the test
        failure = traceback.format_exc()
    print(json.dumps(failure))


@pytest.mark.slow  # about 9 s of Z3 CPU, in a fresh process
def test_c2xc2_reaches_star5_total_optimum():
    """The whole rotation search with C2xC2 meets star-5's bound 111, as the cyclic rotation does.  The cores below
    width 20 answer unknown, as they do within the first 2 s budget on a quiet machine (the search then found
    width 20's); the rest are decided with 120 s each whatever the load.  Without that, the escalating schedule
    ran at the load of the whole suite through every width at 2 s, then 4 s, ...: 313 s there, 5.5 minutes alone
    beside the campaigns (tests/test_search.py checks the schedule itself).  In a fresh process: Z3's path follows
    the terms already in its process-wide context, and in a pytest worker after hundreds of tests width 20's core
    took minutes (tests/test_search.py's thresholds are decided in a fresh process for the same reason)."""
    code = (f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'tests')!r}]; import test_symmetry_search; "
            "test_symmetry_search.c2xc2_star5_total_in_a_fresh_process()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    assert done.returncode == 0, done.stderr[-3000:]
    failure = json.loads(done.stdout.splitlines()[-1])
    assert failure is None, failure


@pytest.mark.parametrize(("exchange", "core", "T"), [
    ("odd-distance", 72, 2499), pytest.param("total", 143, 4973, marks=pytest.mark.slow)])
def test_s3_greedy_core_tables_of_star7(exchange, core, T):
    """S3 (non-abelian) on star-7: its core (72 / 143 elements, against C6's 30 / 59) by first fit."""
    searcher, table = _greedy_core_table("star-7", exchange, "S3")
    assert sum(len(o) for o in searcher.orbit_classes.short) == core
    assert table.T == T
    _assert_valid(table, "star-7", exchange, "S3")


def test_the_cyclic_group_by_name_gives_the_default_table():
    """C4 in the regular representation is star-5's rotation 1 -> 2 -> 3 -> 4: the same orbits and the same
    greedy-core table (no solver, so deterministic) as the default, whose record is as before (a rotation,
    no symmetry, the run and the method named as before)."""
    default_searcher, default = _greedy_core_table("star-5", "total", "cyclic")
    named_searcher, named = _greedy_core_table("star-5", "total", "C4")
    assert tuple(default_searcher.orbit_classes) == tuple(named_searcher.orbit_classes)
    assert default.placements == named.placements and default.T == 114
    record = default.extra["search"]
    assert record["rotation"] == ["1", "2", "3", "4"] and "symmetry" not in record
    assert record["run"] == "star-5 total rotation cap=24 pb+count+exact+mirror seed=0"
    assert record["method"] == "greedy first-fit core + rotation blocks"
    assert named.extra["search"]["symmetry"]["group"] == "C4"


@pytest.mark.parametrize(("args", "message"), [
    (("star-5", "--symmetry", "Q8"), "--symmetry Q8: no such group of order 4 (the number of letters); "
                                     "valid: cyclic, C4, C2xC2"),
    (("star-5", "--symmetry", "C2xC2", "--strategy", "full"), "--symmetry C2xC2 is for the rotation and split"),
    (("torus-3x5", "--symmetry", "C2xC2", "--strategy", "rotation"),
     "--symmetry C2xC2: C2xC2 acts on torus-3x5's letters as no group of automorphisms"),
    (("ring-9", "--symmetry", "C3"), "--symmetry C3: no such group of order 2"),
    (("star-5", "--symmetry", "C2xC2", "--from-width", "111"),
     "--symmetry C2xC2 is for the rotation and split strategies; with --from-width the auto strategy runs the full"),
])
def test_refusals(tmp_path, args, message):
    """A bad --symmetry: one line naming the option and the valid names (or why the group does not act), exit 2,
    nothing written."""
    out = tmp_path / "t.json"
    result = run_cli("search", *args, "--out", out, "--quiet")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tesearch: {message}"), lines
    assert not out.exists()


@pytest.mark.slow
def test_narrow_takes_the_symmetry_too(tmp_path):
    """`tesearch narrow --symmetry` narrows H's greedy core (star-5 odd-distance: 15 columns for 12 exact)."""
    out = tmp_path / "n.json"
    result = run_cli("narrow", "star-5", "--exchange", "odd-distance", "--symmetry", "C2xC2", "--out", out,
                     "--solver-timeout", "5", "--quiet")
    assert result.exit_code == 0, result.output
    table = json.loads(out.read_text())
    assert table["search"]["symmetry"]["group"] == "C2xC2" and 56 <= table["T"] <= 59


def test_a_non_regular_letter_set_gives_no_table(monkeypatch):
    """The safety net: a set of letter automorphisms that is not regular (here: star-5's C4 with its
    generator replaced by the transposition of letters 1 and 2, which fixes letters 3 and 4), slipped past
    LetterGroup's own check, makes blocks whose columns repeat a letter, and the TableBuilder refuses them."""
    from tesearch.running.errors import UnverifiedTable
    from tesearch.search import kit
    from tesearch.networks.symmetry import LetterGroup

    def loose_group(cg, name):
        group = object.__new__(LetterGroup)  # no __post_init__: the regularity check is skipped
        group.cg, group.name = cg, name
        group.perms = ((0, 1, 2, 3), (1, 0, 2, 3), (2, 3, 0, 1), (3, 2, 1, 0))
        return group

    monkeypatch.setattr(kit, "letter_group", loose_group)
    with pytest.raises(UnverifiedTable):
        _greedy_core_table("star-5", "odd-distance", "C2xC2")
