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
         ("lane-core", "torus-4x4x4", "cpsat")]


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
    if name in ("repack", "narrow", "lane-core"):  # CP-SAT made these, whatever the kit's defaults
        assert record["strategy"] == name and record["solver"].startswith("cpsat"), record
        assert record["run"].startswith(f"{facts.name} {name}"), record
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
