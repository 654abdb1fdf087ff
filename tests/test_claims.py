"""Every "infeasible" is a refutation: search, stratify and the commands that make tables, against known tables.

A width range [a, b] may be reported infeasible only if no table of any width <= b exists, i.e. b is below the
network's optimal width; the committed results/*.json tables at their best bound give that width.  The sweep
below runs every strategy across width ranges on small networks and checks each outcome against them.
"""

import json
import re
import time
from types import SimpleNamespace

import pytest

from conftest import ROOT, run_cli
from tesearch.facts.instance import instance
from tesearch.running.limits import Budget
from tesearch.running.errors import OptionError
from tesearch.networks.families import network_from_spec
from tesearch.search.core import SearchParams, Strategy, search
from tesearch.running.terms import Status
from tesearch.tables.table import read_table
from tesearch.running.terms import Exchange, SolveResult
from tesearch.tables.verify import verify_table

#: network (" odd" for odd-distance exchange) -> the committed table whose T is optimal (it meets its best bound)
KNOWN = {"ring-5": "ring-5.json", "ring-6": "ring-6.json", "ring-7": "ring-7.json", "ring-8": "ring-8.json",
         "ring-6:cyclic": "ring-6-cyclic.json", "ring-8:cyclic": "ring-8-cyclic.json", "ring-4:cyclic":
         "ring-4-cyclic.json", "star-3": "star-3.json", "star-4": "star-4.json", "torus-3x3": "torus-3x3.json",
         "torus-4x4": "torus-4x4.json", "pancake-4": "pancake-4.json", "hypercube-3": "hypercube-3.json",
         "star-3 odd": "star-3-odd.json", "star-4 odd": "star-4-odd.json"}
FAST = ["ring-5", "ring-6:cyclic", "ring-8:cyclic", "star-3", "torus-3x3"]
SLOW = ["ring-6", "ring-7", "ring-8", "ring-4:cyclic", "hypercube-3", "star-4", "torus-4x4", "pancake-4",
        "star-3 odd", "star-4 odd"]


def network_of(name: str) -> tuple[str, Exchange]:
    """("star-3", odd-distance) for "star-3 odd"."""
    spec, _, odd = name.partition(" ")
    return spec, Exchange.ODD_DISTANCE if odd else Exchange.TOTAL
STRATEGIES = [Strategy.AUTO, Strategy.ROTATION, Strategy.SPLIT, Strategy.FULL]


def known_optimal(name: str) -> int:
    """The optimal width of the network ``name`` (:data:`KNOWN`): a committed table that meets its best bound."""
    data = json.loads((ROOT / "results" / KNOWN[name]).read_text())
    spec, exchange = network_of(name)
    assert data["network"] == spec and data["exchange"] == exchange.value
    assert data["T"] == max(data["lower_bound"], data.get("letter_bound") or 0), f"{spec}: not at its bound"
    return data["T"]


def width_ranges(optimal: int, broad: bool) -> list[tuple[int | None, int | None]]:
    """(--from-width, --max-width) pairs around the optimal width: below it, across it, above it, open ends."""
    if broad:
        lows = [None, 1, max(1, optimal - 2), max(1, optimal - 1), optimal, optimal + 1, optimal + 40]
        highs = [None, max(1, optimal - 2), max(1, optimal - 1), optimal, optimal + 1]
    else:
        lows = [None, max(1, optimal - 2), optimal + 40]
        highs = [None, max(1, optimal - 1), optimal]
    return [(a, b) for a in lows for b in highs if a is None or b is None or a <= b]


def check_outcome(name: str, strategy: Strategy, low: int | None, high: int | None) -> str:
    """Run one search and check what it says against the known optimal width; the kind of outcome."""
    optimal = known_optimal(name)
    spec, exchange = network_of(name)
    net = network_from_spec(spec)
    where = f"{name} {strategy.value} [{low}, {high}]"
    try:
        params = SearchParams(strategy, max_width=high, from_width=low)
        outcome = search(instance(net, exchange), params, budget=Budget.seconds(30))
    except OptionError as exc:  # exit 2: only an empty range, or --from-width where no width loop runs
        message = str(exc)
        greedy = re.search(r"greedy table's width (\d+)", message)
        if greedy:
            assert low is not None and low > int(greedy.group(1)) >= optimal, (where, message)
        else:
            assert low is not None and strategy in (Strategy.ROTATION, Strategy.SPLIT), (where, message)
        return "usage"
    except Exception as exc:  # a network without a rotation refuses the rotation strategies (exit 2)
        assert strategy in (Strategy.ROTATION, Strategy.SPLIT) and net.rotation is None, (where, exc)
        return "usage"
    if outcome.status is Status.INFEASIBLE:
        first, last = outcome.infeasible_widths
        assert last == high and last < optimal, (where, outcome.infeasible_widths, outcome.infeasible_by)
        assert first is None or first == (low if low is not None else outcome.bounds.best), where
        return "infeasible"
    if outcome.status is Status.FOUND:
        assert verify_table(outcome.table).ok, where
        assert outcome.T >= optimal, where
        assert high is None or outcome.T <= high, (where, outcome.T)
        assert low is None or outcome.T >= low or strategy is not Strategy.FULL, (where, outcome.T)
        return "found"
    assert outcome.table is None and outcome.infeasible_widths is None, where
    return "unknown"


def _sweep(networks, broad: bool) -> dict[str, int]:
    """Every strategy over every width range of every network, checked; how many of each kind of outcome."""
    seen: dict[str, int] = {}
    for spec in networks:
        for strategy in STRATEGIES:
            for low, high in width_ranges(known_optimal(spec), broad):
                kind = check_outcome(spec, strategy, low, high)
                seen[kind] = seen.get(kind, 0) + 1
    return seen


def test_every_strategy_and_width_range_agrees_with_known_tables():
    """Fast networks: every exit 3 lies below the optimal width, every table within the range asked for."""
    started = time.monotonic()
    seen = _sweep(FAST, broad=False)
    assert seen.get("infeasible", 0) >= 20 and seen.get("found", 0) >= 40 and seen.get("usage", 0) >= 20, seen
    assert time.monotonic() - started < 60


def test_stratify_exit_3_only_below_the_optimal_width():
    """stratify's one width is the counting bound: infeasible only where that is below the optimal width."""
    from tesearch.search.stratify import stratify

    kinds = set()
    for spec in FAST:
        outcome = stratify(network_from_spec(spec), Exchange.TOTAL, budget=Budget.seconds(30))
        optimal = known_optimal(spec)
        if outcome.status is Status.INFEASIBLE:
            assert outcome.facts["width"] < optimal and outcome.table is None, spec
        elif outcome.status is Status.FOUND:
            assert outcome.table.T == outcome.facts["width"] >= optimal and verify_table(outcome.table).ok, spec
        kinds.add(outcome.status)
    assert kinds == {Status.FOUND, Status.INFEASIBLE}


@pytest.mark.slow
def test_every_strategy_and_width_range_agrees_with_known_tables_broader():
    seen = _sweep(FAST + SLOW, broad=True)
    assert seen.get("infeasible", 0) > 0 and seen.get("found", 0) > 0, seen


# ------------------------------------------------------------------ the reported failures

@pytest.mark.parametrize("args,greedy", [(["star-4", "--from-width", "25", "--strategy", "full"], 24),
                                         (["ring-6", "--from-width", "20", "--strategy", "full"], 5),
                                         (["star-4", "--from-width", "25"], 24)])
def test_from_width_above_the_greedy_table_is_a_usage_error(args, greedy):
    """Was exit 3 "infeasible": the width loop from 25 up to the greedy width 24 was empty."""
    result = run_cli("search", *args, "--quiet")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"greedy table's width {greedy}" in lines[0], result.stderr


@pytest.mark.parametrize("strategy", ["rotation", "split"])
def test_rotation_strategies_refuse_from_width(strategy):
    """Was: the rotation strategy ignored --from-width and answered T = 21."""
    result = run_cli("search", "star-4", "--from-width", "22", "--strategy", strategy, "--quiet")
    assert result.exit_code == 2 and "--from-width" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_infeasible_range_names_its_widths_and_its_proof():
    result = run_cli("search", "ring-8:cyclic", "--from-width", "8", "--max-width", "9", "--json", "--quiet")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert data["infeasible_widths"] == [8, 9] and "unsat at every width" in data["infeasible_by"]
    text = run_cli("search", "ring-8:cyclic", "--from-width", "8", "--max-width", "9", "--quiet").stdout
    assert "no table of width 8 to 9 exists" in text


def test_unsat_over_capped_words_is_not_infeasible():
    """--word-cap 1 offers one word per element: an unsat then refutes only those words (exit 4, not 3)."""
    params = SearchParams(Strategy.FULL, from_width=8, max_width=9, word_cap=1)
    outcome = search(instance("ring-8:cyclic"), params)
    assert outcome.status is Status.UNKNOWN and outcome.infeasible_widths is None
    assert all(a.result is SolveResult.UNSAT and not a.complete_words for a in outcome.attempts)
    assert "--word-cap" in outcome.stop_reason and outcome.refuted_widths == []
    result = run_cli("search", "ring-8:cyclic", "--from-width", "8", "--max-width", "9", "--word-cap", "1", "--quiet")
    assert result.exit_code == 4 and "proves nothing" in result.stdout


def test_a_timeout_is_never_infeasible(monkeypatch):
    """Every width answering unknown (a timeout) ends unknown, never infeasible."""
    from tesearch.search import core

    monkeypatch.setattr(core.Searcher, "run_problem", lambda self, part, problem, timeout_s:
                        (SolveResult.UNKNOWN, None))
    params = SearchParams(Strategy.FULL, from_width=8, max_width=9)
    outcome = search(instance("ring-8:cyclic"), params)
    assert outcome.status is Status.UNKNOWN and outcome.infeasible_widths is None


# ------------------------------------------------------------------ stratify says what it proved

def test_stratify_below_the_per_letter_bound_says_why():
    """Was "unknown: a part stayed unsolved within the time" although every width was unsat: a stratified
    table is as wide as the counting bound 8, and the per-letter bound 10 rules that width out."""
    result = run_cli("stratify", "ring-8:cyclic", "--quiet")
    assert result.exit_code == 3, result.output
    assert "no table of width 8" in result.stdout and "per-letter" in result.stdout
    assert "unsolved" not in result.stdout


def test_stratify_names_the_class_an_all_unsat_part_refutes(monkeypatch, tmp_path):
    """Every part attempt unsat: only stratified tables of this layout are refuted (exit 4, never 3)."""
    from tesearch.search import stratify as module

    monkeypatch.setattr(module, "decide", lambda problem, *args, **kwargs: SimpleNamespace(
        result=SolveResult.UNSAT, chosen=None, seconds=0.0, outcome="unsat (0.00s)", problem=problem))
    out = tmp_path / "t.json"
    result = run_cli("stratify", "star-4", "--out", out, "--quiet")
    assert result.exit_code == 4, result.output
    assert "no stratified table of this layout" in result.stdout and "not the network" in result.stdout
    assert "infeasible" not in result.stdout and not out.exists()


# ------------------------------------------------------------------ other commands and width options

@pytest.mark.parametrize("args", [
    ["stratify", "ring-5", "--max-width", "3"], ["stratify", "ring-5", "--from-width", "3"],
    ["lift", "torus-3x3", "--max-width", "3"], ["repack", "ring-5", "--from-width", "3"],
    ["construct", "ring-5", "--max-width", "3"], ["sweep", "ring-5", "--from-width", "3"],
])
def test_commands_without_a_width_loop_refuse_width_options(args):
    result = run_cli(*args)
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.output


# ------------------------------------------------------------------ a limit writes only the asked network

def test_a_limit_in_lift_never_writes_the_factor_table(monkeypatch, tmp_path):
    """Was: `lift torus-4x4x8 --timeout 1.2 --out o.json` wrote the torus-4x8 table the lift was building on."""
    from tesearch.running import limits
    from tesearch.search import lift

    factor = read_table(ROOT / "results" / "torus-4x8.json")

    def stalls(network, **kwargs):
        limits.offer(factor)  # as the factor search does on its way
        time.sleep(30)

    monkeypatch.setattr(lift, "lifted_table", stalls)
    out = tmp_path / "o.json"
    result = run_cli("lift", "torus-4x4x8", "--timeout", "1", "--out", out, "--quiet")
    assert result.exit_code == 4, result.output
    assert not out.exists() and "T = 32" not in result.stderr


def test_a_limit_still_writes_a_table_of_the_asked_network(monkeypatch, tmp_path):
    """The twin: a table of the network asked for, offered before the limit, is written (exit 4)."""
    from tesearch.running import limits
    from tesearch.search import lift

    own = read_table(ROOT / "results" / "torus-4x8.json")

    def stalls(network, **kwargs):
        limits.offer(own)
        time.sleep(30)

    monkeypatch.setattr(lift, "lifted_table", stalls)
    out = tmp_path / "o.json"
    result = run_cli("lift", "torus-4x8", "--timeout", "1", "--out", out, "--quiet")
    assert result.exit_code == 4, result.output
    assert json.loads(out.read_text())["network"] == "torus-4x8"


# ------------------------------------------------------------------ huge and absurd option values

HUGE = "99999999999999999999"


@pytest.mark.parametrize("args", [
    ["search", "star-4", "--word-cap", HUGE], ["search", "star-4", "--seed", HUGE],
    ["search", "star-4", "--max-width", HUGE], ["search", "star-4", "--from-width", HUGE],
    ["search", "star-4", "--max-order", HUGE], ["search", "star-4", "--word-cap", "9" * 5000],
    ["search", "star-4", "--word-cap", "--5"], ["search", "star-4", "--seed", "1e3"],
    ["stratify", "star-4", "--seed", HUGE], ["lift", "torus-4x8", "--ring", HUGE],
    ["repack", "star-4", "--workers", "100000"], ["repack", "star-4", "--workers", HUGE],
    ["repack", "star-4", "--word-cap", HUGE], ["repack", "star-4", "--seed", HUGE],
    ["repack", "star-4", "--tail", HUGE], ["construct", "ring-5", "--max-order", HUGE],
    ["sweep", "ring-5", "--seeds", HUGE], ["sweep", "ring-5", "--num-cpus", HUGE],
])
def test_huge_numbers_in_options_are_usage_errors(args):
    """Was: --word-cap 99999999999999999999 exited 70 (islice), repack --workers 100000 exited 4 (MODEL_INVALID)."""
    result = run_cli(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr


def test_the_largest_seed_and_worker_count_still_run():
    from tesearch.cli.app import SEED, WORKERS

    result = run_cli("search", "ring-6:cyclic", "--strategy", "full", "--solver", "cpsat", "--seed", str(SEED.maximum),
                     "--quiet")
    assert result.exit_code == 0, result.output
    result = run_cli("repack", "ring-5", "--workers", str(WORKERS.maximum), "--seed", str(SEED.maximum),
                     "--timeout", "20", "--quiet")
    assert result.exit_code == 0, result.output


# ------------------------------------------------------------------ construct

def test_construct_odd_star_odd_distance_says_why():
    result = run_cli("construct", "star-5", "--exchange", "odd-distance")
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and "orbit" in line and "n - 1 is an odd prime" in line
    assert "tesearch search --exchange odd-distance" in line


def test_a_cpsat_unsat_is_not_infeasible():
    """CP-SAT's unsat is no certificate (README): every width unsat under --solver cpsat ends unknown (exit 4)."""
    pytest.importorskip("ortools")
    result = run_cli("search", "ring-8:cyclic", "--from-width", "8", "--max-width", "9", "--solver", "cpsat",
                     "--json", "--quiet")
    assert result.exit_code == 4, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "unknown" and data["infeasible_widths"] is None
    assert "--solver z3" in data["stop_reason"]
