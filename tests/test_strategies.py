"""The one contract for making tables: every registered strategy's run(instance, budget) gives an Outcome, and
every table says truthfully how it was made."""

import json

import pytest

from conftest import run_cli
from tesearch.constructions import star_prime
from tesearch.running.errors import ConstructionError
from tesearch.facts.instance import instance
from tesearch.running.limits import Budget
from tesearch.tables.outcome import Outcome
from tesearch.search.strategies import STRATEGIES, strategy
from tesearch.search.sweep.portfolio import Entry
from tesearch.running.terms import Status
from tesearch.tables.verify import verify_table

#: (strategy, network, solver) small enough for the everyday run; CP-SAT ones need the cpsat extra
CASES = [("best", "ring-8:cyclic", "z3"), ("auto", "ring-8", "z3"), ("rotation", "star-4", "z3"), ("split", "star-4", "z3"), ("full", "ring-6", "z3"),
         ("stratify", "star-4", "z3"), ("lift", "torus-4x4", "z3"), ("repack", "ring-8", "cpsat"),
         ("narrow", "star-4", "cpsat"), ("construct", "ring-8", "z3"),
         ("lane-core", "torus-4x4x4", "cpsat"), ("lns", "pancake-4", "cpsat"), ("ejection", "pancake-4", "z3")]


def test_the_cases_cover_the_registry_and_the_sweep_names_only_registered_strategies():
    assert sorted(name for name, _, _ in CASES) == sorted(STRATEGIES)
    assert all(Entry(name).strategy == name for name in STRATEGIES)  # a sweep entry names the registry's strategies
    with pytest.raises(ValueError, match="unknown sweep strategy 'greedy'"):
        Entry("greedy")
    with pytest.raises(ValueError, match="unknown strategy 'greedy'"):
        strategy("greedy")


@pytest.mark.parametrize("name,spec,solver", CASES)
def test_every_strategy_returns_a_verified_outcome(name, spec, solver):
    if solver == "cpsat":
        pytest.importorskip("ortools")
    facts = instance(spec)
    outcome = strategy(name, backend=solver).run(facts, Budget.seconds(60))
    assert isinstance(outcome, Outcome) and outcome.status is Status.FOUND, outcome.summary
    assert verify_table(outcome.table).ok and outcome.table.network == spec
    assert outcome.provenance and outcome.bounds == facts.bounds
    data = outcome.to_json()
    assert data["status"] == "found" and data["T"] == outcome.table.T and data["best_bound"] == facts.bounds.best
    assert data["optimal"] == (outcome.table.T == facts.bounds.best) and outcome.verdict in outcome.summary
    record = outcome.table.extra.get("search")
    if name in ("repack", "narrow", "lane-core", "lns"):  # CP-SAT made these, whatever the kit's defaults
        assert record["strategy"] == name and record["solver"].startswith("cpsat"), record
        assert record["run"].startswith(f"{facts.name} {name}"), record
    if name == "ejection":  # no solver ran: the record names the min-conflicts search
        assert record["strategy"] == name and record["solver"] == "min-conflicts", record
    if name in ("auto", "rotation", "split", "full"):
        assert record["solver"].startswith("z3") and record["run"].startswith(facts.name), record


def test_a_construction_says_construction_and_names_no_solver(tmp_path):
    """`construct star-4` lays rotation blocks around a recorded core array, with no solver: its table's record
    is a construction's, naming no solver, run or seed (it said "search" with a z3 solver; issue 39)."""
    out = tmp_path / "t.json"
    result = run_cli("construct", "star-4", "-o", out, "--json", "--quiet")
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text())
    assert "search" not in written
    record = written["construction"]
    assert record["strategy"] == "construct" and record["method"] == star_prime.CONSTRUCTION_NAME
    assert not {"solver", "run", "seed"} & set(record), record
    assert record["rotation"] and len(record["filler_orbits"]) == 3
    assert json.loads(result.stdout)["provenance"] == record


def test_a_lift_that_finds_nothing_is_unknown_not_an_error():
    facts = instance("torus-3x5:cyclic")
    outcome = strategy("lift", modes=()).run(facts, Budget.seconds(30))  # no mode to try: no lift
    assert outcome.status is Status.UNKNOWN and outcome.table is None and "no lift found" in outcome.summary


def test_a_strategy_that_does_not_apply_says_so():
    with pytest.raises(ConstructionError):
        strategy("construct").run(instance("pancake-4"), Budget.seconds(10))


def test_an_outcome_holds_a_table_exactly_when_found():
    facts = instance("ring-8")
    with pytest.raises(ValueError):
        Outcome("x", Status.UNKNOWN, strategy("construct").run(facts, Budget.seconds(10)).table, "", facts.bounds)
    with pytest.raises(ValueError):
        Outcome("x", Status.FOUND, None, "", facts.bounds)


# -- the large-neighbourhood search (issue 47, item 2)

def _shifted_optimal(spec: str, by: int):
    """The committed optimal table of ``spec`` as a placement of its table problem, every message moved ``by``
    columns right (still valid, ``by`` columns wider): (kit, problem, placement)."""
    from tesearch.search.improve import starting_placement
    from tesearch.search.kit import TableKit
    from tesearch.tables.build import Provenance
    from tesearch.tables.table import read_table

    facts = instance(spec)
    kit = TableKit(facts, Provenance("cpsat intervals", f"{spec} lns test", 0))
    problem, chosen, _ = starting_placement(kit, facts, read_table(f"results/{spec}.json"))
    return kit, problem, [(i, w, c + by) for i, w, c in chosen]


def test_a_window_round_shifts_the_columns_right_of_it_back():
    """The optimal pancake-4 table moved 3 columns right: one round on columns 0-3 shifts the block right of the
    window 3 to the left again (width 20, the bound), and the placement stays valid (mutation: the block's cells
    at column + shift instead of column - shift gives width 23 or a clash)."""
    pytest.importorskip("ortools")
    from tesearch.search.lns import Window, solve_window
    from tesearch.tables.layout import assign_rows

    kit, problem, chosen = _shifted_optimal("pancake-4", 3)
    step = solve_window(problem, chosen, Window(0, 4), timeout_s=20, workers=1)
    assert step.chosen is not None and step.width == 20 and step.shift == 3, step
    table = kit.make_table(assign_rows(kit.placed(problem, step.chosen), kit.cg.degree), 20, "lns", "test")
    assert verify_table(table).ok


def test_window_rounds_keep_a_valid_placement_no_wider():
    """Rounds on windows across pancake-4's greedy table (23 wide): each answer uses no cell twice (solve_window
    checks, AssertionError otherwise) and is no wider (mutation: the block's cells modelled at column + shift makes
    the round on columns 6-10 reuse cell (8, 0))."""
    pytest.importorskip("ortools")
    from tesearch.search.improve import placement_width, starting_placement
    from tesearch.search.kit import TableKit
    from tesearch.search.lns import Window, solve_window
    from tesearch.tables.build import Provenance

    facts = instance("pancake-4")
    kit = TableKit(facts, Provenance("cpsat intervals", "pancake-4 lns test", 0))
    problem, chosen, _ = starting_placement(kit, facts, None)
    width = placement_width(problem, chosen)
    for start in range(0, 13, 6):  # the round on columns 6-10 is the one the mutation breaks
        step = solve_window(problem, chosen, Window(start, 5), timeout_s=2, workers=1)
        assert step.chosen is not None and placement_width(problem, step.chosen) == step.width <= width, start


def test_lns_meets_the_bound_from_the_greedy_table():
    """pancake-4's greedy table is 23 wide; the window rounds narrow it to the bound 20 (about 2 s)."""
    pytest.importorskip("ortools")
    facts = instance("pancake-4")
    outcome = strategy("lns", window=6, round_s=5).run(facts, Budget.seconds(60))
    assert outcome.status is Status.FOUND and outcome.table.T == 20 == facts.bounds.best, outcome.summary
    assert "OPTIMAL" in outcome.summary and verify_table(outcome.table).ok


def test_lns_at_its_time_limit_keeps_the_starting_table(monkeypatch):
    """With no time for a round, the outcome is the starting table, offered and verified: a time limit never makes
    an outcome worse than the table it started from, and nothing is called infeasible."""
    pytest.importorskip("ortools")
    from tesearch.running import limits
    from tesearch.tables.table import read_table

    offered = []
    monkeypatch.setattr(limits, "offer", offered.append)
    start = read_table("results/pancake-5.json")
    outcome = strategy("lns", start=start).run(instance("pancake-5"), Budget.seconds(0.01))
    assert outcome.status is Status.FOUND and outcome.table.T == start.T and verify_table(outcome.table).ok
    assert offered and offered[0].T == start.T


def test_repack_window_needs_the_interval_model(tmp_path):
    result = run_cli("repack", "pancake-4", "--window", "6", "-o", tmp_path / "t.json")
    assert result.exit_code == 2 and not (tmp_path / "t.json").exists()
    assert result.output.strip().splitlines() == ["tesearch: --window re-solves windows with CP-SAT's interval "
                                                  "model: give --solver cpsat-intervals and leave out --tail"]
