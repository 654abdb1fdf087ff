"""`tesearch search NETWORK` is the front door (issue 48): the best table tesearch knows how to make, route by route
(tesearch.search.frontdoor): a construction, a lift over a factor table that exists, then the searches; it says which
route made the table and why the earlier ones did not, records the route in the table's provenance, and at a time
limit writes the best table so far with its route."""

import json

import pytest

from conftest import run_cli, stop_in_phase
from tesearch.data import packaged_table
from tesearch.facts.instance import instance
from tesearch.running.limits import STALL_PHASE_VARIABLE, Budget
from tesearch.search.frontdoor import ROUTES, Passed, Routes
from tesearch.search.strategies import strategy
from tesearch.tables.table import read_table


def _search(tmp_path, spec, *options, env=None):
    out = tmp_path / "t.json"
    result = run_cli("search", spec, "-o", out, "--json", "--quiet", *options, env=env)
    return result, out


def _route_record(path):
    written = json.loads(path.read_text())
    return (written.get("search") or written["construction"])["route"]


@pytest.mark.parametrize("spec,route,T", [
    ("hypercube-3", "construct", 4),  # the doubling construction, no solver
    ("ring-8:cyclic", "full", 10),  # no construction, no torus, the per-letter bound above the counting bound
    ("torus-3x4", "lift", 6),  # ring-3 lifted over the ring-4 table tesearch ships
    ("torus-4x4:cyclic", "rotation", 8),  # the lift's T = 12 leaves a gap of 4: the rotation search meets the bound
    ("pancake-4", "full", 20),  # no rotation
])
def test_each_family_takes_its_route_and_the_table_says_so(tmp_path, spec, route, T):
    result, out = _search(tmp_path, spec)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["strategy"], data["route"], data["T"], data["optimal"]) == ("best", route, T, True)
    assert run_cli("verify", out).exit_code == 0 and read_table(out).T == T
    record = _route_record(out)
    assert record["made_by"] == route and record == data["provenance"]["route"]
    assert [p["route"] for p in record["passed"]] == list(ROUTES[:ROUTES.index(route)])  # each before it, in order
    assert record["passed"] == data["routes"]


def test_a_route_that_made_a_wider_table_is_named_with_its_width(tmp_path):
    """torus-4x4:cyclic: the lift over the shipped ring-4:cyclic table gives T = 12 (gap 4), the rotation search
    T = 8 (OPTIMAL); the lift is recorded as passed with its T, and the route that made the table is the rotation."""
    result, out = _search(tmp_path, "torus-4x4:cyclic")
    lift = next(p for p in _route_record(out)["passed"] if p["route"] == "lift")
    assert lift["T"] == 12 and "a later route made a narrower table" in lift["why"]


def test_the_printed_report_names_each_route_and_why_it_did_not_apply(tmp_path):
    result = run_cli("search", "pancake-4", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("route construct: does not apply: pancake-4 total: no construction applies")
    assert lines[1] == "route lift: does not apply: pancake-4 is not a product of rings (a torus)"
    assert lines[2:5] == [f"route {r}: does not apply: pancake-4 has no rotation" for r in ("rotation", "stratify",
                                                                                           "split")]
    assert lines[5] == "route full: made the table (the full search)"
    assert "T = 20; counting bound 20, per-letter bound 20; OPTIMAL; verified (Theorem 1)" in result.stdout


def test_a_construction_route_reports_its_construction_and_the_table(tmp_path):
    result = run_cli("search", "torus-4x8x8", "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "route construct: made the table (a construction)"
    assert "torus-4x8x8 total: T = 256 by mirror lanes" in result.stdout and "OPTIMAL" in result.stdout


def test_below_the_bound_it_is_infeasible_by_the_bound_and_no_route_is_tried(tmp_path):
    result, out = _search(tmp_path, "ring-6", "--max-width", "4")
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "infeasible" and data["route"] == "full" and not out.exists()
    assert all(p["why"].startswith("not tried: --max-width 4 is below the best bound 5") for p in data["routes"])


def test_a_route_that_does_not_apply_never_makes_the_outcome_infeasible():
    """ring-6:cyclic: rotation, stratification and split cannot meet its per-letter bound; they are passed, not
    refuted (a stratified table of the counting width is infeasible there, which says nothing of the network)."""
    facts = instance("ring-6:cyclic")
    outcome = strategy("best", routes=("stratify", "full")).run(facts, Budget.seconds(60))
    assert outcome.status.value == "found" and outcome.facts["route"] == "full" and outcome.T == 6
    assert outcome.facts["routes"][0]["why"].startswith("does not apply: the per-letter bound 6 is above")


def test_no_route_made_a_table_is_unknown_with_the_reasons():
    facts = instance("pancake-4")
    outcome = strategy("best", routes=("construct", "rotation")).run(facts, Budget.seconds(30))
    assert outcome.status.value == "unknown" and outcome.table is None and outcome.facts["route"] is None
    assert "no route made a table" in outcome.summary and "pancake-4 has no rotation" in outcome.summary


def test_time_spent_before_any_route_ran_is_the_reason_given():
    """Issue 46: at load 30, `search pancake-4 --timeout 6` spent its time building the instance; every route was
    "not tried", and the command said only "tesearch: no table: the search stopped" (exit 4, no reason)."""
    facts = instance("pancake-4")
    outcome = strategy("best", routes=("rotation", "full")).run(facts, Budget.seconds(0))
    assert outcome.status.value == "unknown" and outcome.table is None
    assert outcome.stop_reason == "the time limit was reached before route full could start", outcome.stop_reason


def test_only_a_narrower_table_of_this_network_is_passed_on_with_its_route():
    """What a route offers (the supervisor keeps the last offer) goes on only when it is narrower than the best so
    far and a table of this instance (a lift's factor is not), with the route recorded in its provenance."""
    facts = instance("torus-3x4")
    door = strategy("best")
    routes = Routes(door, facts, Budget.seconds(30))
    routes.route = "full"
    routes.passed.append(Passed("construct", "does not apply: test"))
    wide = door.route_strategy("full").run(facts, Budget.seconds(30)).table
    factor = read_table(packaged_table("ring-4"))
    assert routes.narrower(factor) is None  # another network's table
    passed = routes.narrower(wide)
    assert passed.T == wide.T and _record(passed)["route"] == {
        "made_by": "full", "passed": [{"route": "construct", "why": "does not apply: test", "T": None}]}
    assert routes.narrower(wide) is None  # no narrower than the best so far


def _record(table):
    return table.extra.get("search") or table.extra["construction"]


def test_at_the_time_limit_the_best_table_so_far_is_written_with_its_route(tmp_path):
    """pancake-4: the full route offers its greedy table (T = 23) before the solver runs; stalled there, the limit
    writes it, and its provenance names the route and the routes passed before it."""
    out = tmp_path / "t.json"
    result, _, _ = stop_in_phase(["search", "pancake-4"], "solve full", 3, out)  # a busy machine: a longer limit
    assert "best verified table before the limit: T = 23 (route full)" in result.stderr
    record = _route_record(out)
    assert record["made_by"] == "full" and [p["route"] for p in record["passed"]] == list(ROUTES[:5])
    assert run_cli("verify", out).exit_code == 0


@pytest.mark.slow  # 6 s: a lift, then the full route stalled until the limit
def test_at_the_time_limit_an_earlier_route_s_table_is_kept(tmp_path):
    """torus-4x6: the lift gives T = 20 (gap 2); the full route, stalled in its greedy first fit, offers nothing; at
    the limit the lift's table is written, its route the lift's."""
    out = tmp_path / "t.json"
    result, _, _ = stop_in_phase(["search", "torus-4x6"], "greedy first fit", 6, out)  # a busy machine: longer
    assert "best verified table before the limit: T = 20 (route lift)" in result.stderr
    assert _route_record(out)["made_by"] == "lift" and read_table(out).T == 20


def test_from_width_runs_the_full_width_loop_as_before(tmp_path):
    """--from-width asks the full search to refute widths: the front door passes it to the width loop (auto)."""
    result = run_cli("search", "ring-6", "--from-width", "4", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "route" not in data and data["refuted_widths"] == [4]


def test_a_seed_construction_s_table_records_its_bounds(tmp_path):
    """ring-9 is made by the seed paper's construction, whose tables recorded `lower_bound` null (the table format
    requires the counting bound there) and no per-letter bound; the front door writes them, so they are labelled."""
    result, out = _search(tmp_path, "ring-9")
    assert result.exit_code == 0 and json.loads(result.stdout)["route"] == "construct", result.output
    written = json.loads(out.read_text())
    assert (written["lower_bound"], written["letter_bound"]) == (10, 10)


def test_the_lns_route_narrows_the_table_an_earlier_route_made(monkeypatch):
    """The last route starts from the narrowest table a route returned (here the lift's T = 20 on torus-4x6), not
    from the greedy table: its strategy gets that table as its start."""
    from tesearch.search.strategies import LargeNeighbourhood
    from tesearch.tables.outcome import Outcome
    from tesearch.running.terms import Status

    starts = []

    def record_start(self, facts, budget):
        starts.append(self.start)
        return Outcome("lns", Status.UNKNOWN, None, "stopped by the test", facts.bounds)

    monkeypatch.setattr(LargeNeighbourhood, "run", record_start)
    outcome = strategy("best", routes=("lift", "lns")).run(instance("torus-4x6"), Budget.seconds(60))
    assert starts[0].T == 20 and outcome.table.T == 20 and outcome.facts["route"] == "lift"
    assert outcome.facts["routes"] == [{"route": "lns", "why": "no table: stopped by the test", "T": None}]


@pytest.mark.slow  # a CP-SAT round: 25 s at a load of 30
def test_the_lns_route_meets_the_bound_the_lift_missed(tmp_path):
    """torus-4x6: the lift gives T = 20 (gap 2); the large-neighbourhood search from it reaches T = 18 (the bound);
    the table verifies and names the lns route, the lift passed with its width."""
    outcome = strategy("best", routes=("lift", "lns")).run(instance("torus-4x6"), Budget.seconds(120))
    assert outcome.table.T == 18 == outcome.bounds.best and outcome.facts["route"] == "lns"
    assert outcome.facts["routes"][0]["route"] == "lift" and outcome.facts["routes"][0]["T"] == 20
    out = tmp_path / "t.json"
    from tesearch.tables.table import write_table
    write_table(outcome.table, out)
    assert run_cli("verify", out).exit_code == 0 and run_cli("replay", out).exit_code == 0
