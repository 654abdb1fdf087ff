"""Limits that hold (issue 19): --timeout stops every phase within seconds and names it; memory is checked
before allocating and while running; a stopped run writes only a verified table the keep-better rule allows.

Each phase is made to hang with the fault-injection variable tesearch.running.limits.STALL_PHASE_VARIABLE, so that
the test does not depend on how fast this machine is.
"""

import json
import subprocess
import sys
import time

import pytest

from conftest import run_cli, stop_in_phase
from tesearch.running.limits import STALL_PHASE_VARIABLE, Limits, budget, phase, time_left
from tesearch.running.supervise import supervise

# (command, phase prefix): every phase of the search (its width loop: --strategy auto; the front door's routes are
# tests/test_front_door.py's), the stratified search, lifts, repacks, info, verify
PHASES = [
    (["search", "ring-6", "--strategy", "auto"], "build group"),
    (["search", "ring-6", "--strategy", "auto"], "group order (SymPy)"),
    (["search", "ring-6", "--strategy", "auto"], "rotation"),
    (["search", "ring-6", "--strategy", "auto"], "bounds"),
    (["search", "ring-6", "--strategy", "auto"], "word counts"),
    (["search", "ring-6", "--strategy", "auto"], "orbits"),
    (["search", "star-4", "--strategy", "auto"], "candidate words"),
    (["search", "star-4", "--strategy", "auto"], "encode core"),
    (["search", "star-4", "--strategy", "auto"], "solve core"),
    (["search", "star-4", "--strategy", "auto"], "assemble"),
    (["search", "star-4", "--strategy", "auto"], "verify"),
    (["search", "pancake-4", "--strategy", "auto"], "greedy first fit"),
    (["search", "pancake-4", "--strategy", "auto"], "encode full"),
    (["search", "pancake-4", "--strategy", "auto"], "solve full"),
    (["stratify", "star-5"], "solve core"),
    (["lift", "torus-4x8"], "solve lift"),
    (["construct", "hypercube-4"], "construct"),
    (["info", "star-5"], "bounds"),
    (["verify", "RESULTS/ring-6.json"], "build group"),
]


#: the everyday run interrupts this one here and "solve full" in the greedy-table test below
#: (pancake-4 stalled there, with every assertion of this test); the slow run all of them
EVERYDAY = {("search", "candidate words")}
#: the first time limit of an interrupted run: the everyday phases are reached in under half a second
#: (star-4 and pancake-4, at a load average of 5 on 2 cores), the others may take longer
EVERYDAY_SECONDS = 3
SLOW_SECONDS = 3  # every phase listed is reached within a second on a quiet machine (ring-6, star-4/5, torus-4x8)
@pytest.mark.parametrize("args,stalled,seconds", [
    pytest.param(a, p, EVERYDAY_SECONDS, id=f"{a[0]}-{p}") if (a[0], p) in EVERYDAY else
    pytest.param(a, p, SLOW_SECONDS, marks=pytest.mark.slow, id=f"{a[0]}-{p}") for a, p in PHASES])
def test_timeout_stops_every_phase_and_names_it(args, stalled, seconds, tmp_path, monkeypatch):
    from conftest import ROOT
    from tesearch.networks import groups
    monkeypatch.setattr(groups, "_CACHE", {})  # the forked worker must build its group itself
    args = [a.replace("RESULTS", str(ROOT / "results")) for a in args]
    out = None if args[0] in ("info", "verify") else tmp_path / "t.json"
    result, seconds, took = stop_in_phase(args, stalled, seconds, out)
    assert f"time limit of {seconds} s reached (in phase: {stalled}" in result.stderr


@pytest.mark.parametrize("spec,seconds,greedy", [("pancake-4", EVERYDAY_SECONDS, 23)])  # pancake-5 (T = 118,
# 9 s) is the same path on a larger group: benchmarks/limits.py
def test_at_the_limit_the_verified_greedy_table_is_written(tmp_path, spec, seconds, greedy):
    """The full search offers its verified greedy table (pancake-4: T = 23) before
    the solver runs; stalled in "solve full", the limit names that phase and the table is written."""
    out = tmp_path / "t.json"
    result, seconds, took = stop_in_phase(["search", spec], "solve full", seconds, out)
    assert f"time limit of {seconds} s reached (in phase: solve full" in result.stderr
    assert f"best verified table before the limit: T = {greedy}" in result.stderr and "written to" in result.stderr
    table = json.loads(out.read_text())
    assert table["T"] == greedy and run_cli("verify", out).exit_code == 0


def test_memory_is_refused_in_advance_with_exit_2():
    result = run_cli("info", "star-9", "--max-memory", "40M")
    assert result.exit_code == 2 and "needs about" in result.stderr and "40 MiB" in result.stderr


def test_memory_reached_while_running_is_exit_4():
    """A real process (a forked test process would carry pytest's memory): the child passes 40 MiB at once."""
    done = subprocess.run([sys.executable, "-m", "tesearch.entry", "info", "star-8", "--max-memory", "40M"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 4, done.stderr
    assert "memory limit of 40 MiB reached" in done.stderr and "Traceback" not in done.stderr


def test_the_child_sees_the_deadline_less_a_margin():
    def work():
        return time_left(), budget(1000.0)

    left, clipped = supervise(work, limits=Limits(timeout_s=20))
    assert 17 < left < 18.5 and clipped == pytest.approx(left, abs=0.5)


def test_phases_nest_and_restore():
    seen = []

    def work():
        with phase("outer"):
            with phase("inner", total=3):
                pass
            from tesearch.running.limits import current_phase

            seen.append(current_phase())
        return seen

    assert supervise(work, limits=Limits(timeout_s=10)) == ["outer"]


def test_between_two_phases_the_work_is_after_the_last_one_never_in_setup():
    """Issue 41: a limit in the middle of a search named phase "setup (after solve core T=11)"."""
    from tesearch.running.errors import LimitReached
    from tesearch.running.limits import Limits, activated, current_phase
    from tesearch.running.terms import ROOT_PHASE

    with activated(Limits()):
        assert current_phase() == ROOT_PHASE == "setup"  # before any phase: the command's setup
        with phase("solve core T=11"):
            assert current_phase() == "solve core T=11"
        assert current_phase() == "after phase: solve core T=11"
        with phase("verify"):
            with phase("inner"):
                pass
            assert current_phase() == "verify"
        between = current_phase()
    assert between == "after phase: verify"
    assert str(LimitReached("time limit of 4 s reached", phase=between)) == \
        "time limit of 4 s reached (after phase: verify)"
    assert str(LimitReached("time limit of 4 s reached", phase="verify")) == \
        "time limit of 4 s reached (in phase: verify)"


def test_errors_in_the_child_come_back_as_one_line_with_their_code():
    from tesearch.running.errors import OptionError, TesearchError

    def work():
        raise OptionError("a bad option named here")

    with pytest.raises(TesearchError, match="a bad option named here") as caught:
        supervise(work, limits=Limits(timeout_s=10))
    assert int(caught.value.exit_code) == 2


def test_a_crash_in_the_child_is_an_internal_error_with_its_traceback_in_a_file(tmp_path):
    from pathlib import Path

    from tesearch.running.errors import TesearchError

    def work():
        return 1 / 0

    with pytest.raises(TesearchError, match="internal error.*ZeroDivisionError") as caught:
        supervise(work, limits=Limits(timeout_s=10))
    assert int(caught.value.exit_code) == 70
    path = str(caught.value).split("details in ")[1].split(";")[0]
    assert "ZeroDivisionError" in open(path).read()
    assert Path(path).parent == tmp_path  # $TESEARCH_CRASH_DIR (conftest): nothing is left in /tmp


@pytest.mark.slow  # 2-4 s: the everyday run stays under 2 minutes (the full suite runs it)
def test_a_chatty_worker_cannot_starve_the_deadline():
    """Found by benchmarks/fuzz.py: `repack star-8 --timeout 5` ran 40 s, its progress messages (ten a
    second) kept the parent from ever reaching its deadline check."""
    from tesearch.running.errors import LimitReached
    from tesearch.running.limits import advance

    def work():
        with phase("chatter", total=10 ** 6):
            for _ in range(10 ** 6):
                time.sleep(0.01)
                advance()

    started = time.monotonic()
    with pytest.raises(LimitReached, match="in phase: chatter"):
        supervise(work, limits=Limits(timeout_s=2))
    assert time.monotonic() - started < 4


def test_a_budget_reserves_time_at_its_end_and_crosses_clocks():
    """reserving: at most the seconds asked, never more than the fraction of the time left; no deadline stays
    none. until_wall / wall_deadline: the same deadline on the wall clock (what a cluster's nodes share)."""
    import time

    from tesearch.running.limits import Budget

    now = time.monotonic()
    budget = Budget(now + 100.0)
    assert abs(budget.reserving(3.0).deadline - (now + 97.0)) < 1e-6
    assert abs(budget.reserving(3.0, fraction=0.01).deadline - (now + 99.0)) < 0.01  # 1 % of ~100 s left
    short = Budget(now + 2.0)
    assert abs(short.reserving(3.0, fraction=0.25).deadline - (now + 1.5)) < 0.01
    assert Budget(None).reserving(3.0) == Budget(None) and Budget(None).wall_deadline == float("inf")
    wall = budget.wall_deadline
    assert abs(wall - (time.time() + 100.0)) < 0.05
    assert abs(Budget.until_wall(wall).deadline - budget.deadline) < 0.05
    assert Budget.until_wall(float("inf")).deadline is None
