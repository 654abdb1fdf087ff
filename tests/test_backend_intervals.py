"""CP-SAT's interval model (tesearch/solvers/intervals.py): same answers as the placement model,
valid placements, honest statuses, the mirror pin, the CLI option; pancake-5 at its bound."""

import json
import subprocess
import sys

import pytest

from tesearch.facts.instance import instance
from tesearch.running.limits import Budget
from tesearch.solvers import Backend, CpsatModel
from tesearch.solvers.problem import TableProblem
from tesearch.tables.layout import assign_rows
from tesearch.search.core import SearchParams, Strategy, candidate_words, search
from tesearch.running.terms import Status
from tesearch.running.terms import SolveResult
from tesearch.tables.verify import verify_table
from tesearch.networks.words import targets

pytest.importorskip("ortools")
from tesearch.solvers import cpsat, intervals  # noqa: E402
from tesearch.solvers.decide import decide, solver_name  # noqa: E402


def full_problem(cg, spec, width, pin=None):
    items = tuple(candidate_words(cg, int(g), 24) for g in targets(cg, "total"))
    return TableProblem(spec, cg.degree, width, items, pin)


def check_placement(cg, problem, chosen):
    """Every item once, its word one of its own, inside the width, no (column, letter) twice."""
    assert sorted(i for i, _, _ in chosen) == list(range(len(problem.items)))
    cells = set()
    for i, w, c in chosen:
        word = problem.items[i].words[w]
        assert 0 <= c and c + len(word) <= problem.width
        for k, s in enumerate(word):
            assert (c + k, s) not in cells
            cells.add((c + k, s))
    rows = assign_rows([(problem.items[i].element, c, problem.items[i].words[w]) for i, w, c in chosen], cg.degree)
    assert len({(r, c) for r, c, _ in rows}) == len(rows)


@pytest.mark.parametrize("spec,T", [("ring-4:cyclic", 2), ("ring-6:cyclic", 5), ("ring-8:cyclic", 9),
                                    ("ring-10:cyclic", 14), ("pancake-4", 19), ("bubblesort-4", 23)])
def test_intervals_refute_what_the_placement_model_refutes(graph, spec, T):
    """One below an optimum (Z3-refuted for the cyclic rings, encodings/; below the counting or
    per-letter bound for the others): both CP-SAT models say unsat, and one column more is sat."""
    cg = graph(spec)
    assert cpsat.solve(full_problem(cg, spec, T), timeout_s=20)[0] is SolveResult.UNSAT
    # the model itself, not only the counting refutation that solve() checks first
    assert intervals.solve_model(intervals.build(full_problem(cg, spec, T)), timeout_s=20)[0] is SolveResult.UNSAT
    problem = full_problem(cg, spec, T + 1)
    result, chosen = intervals.solve(problem, timeout_s=20)
    assert result is SolveResult.SAT
    check_placement(cg, problem, chosen)


def test_intervals_honour_the_mirror_pin(graph):
    """The pinned item starts in the left half (2 * start + length <= T)."""
    cg = graph("pancake-4")
    items = full_problem(cg, "pancake-4", 20).items
    pin = max(range(len(items)), key=lambda i: items[i].length)
    problem = full_problem(cg, "pancake-4", 20, pin)
    result, chosen = intervals.solve(problem, timeout_s=20)
    assert result is SolveResult.SAT
    check_placement(cg, problem, chosen)
    (i, w, c), = [p for p in chosen if p[0] == pin]
    assert 2 * c + items[pin].length <= 20


def test_intervals_timeout_is_unknown_not_unsat(graph):
    cg = graph("pancake-5")  # pancake-4 is solved in presolve, before the time limit is looked at
    result, chosen = intervals.solve(full_problem(cg, "pancake-5", 107), timeout_s=0.001)
    assert result is SolveResult.UNKNOWN and chosen is None


def test_intervals_minimise_width_from_a_hint(graph):
    """From a valid wider placement, the makespan minimisation reaches bubblesort-4's bound 24."""
    cg = graph("bubblesort-4")
    problem = full_problem(cg, "bubblesort-4", 30)
    result, hint = intervals.solve(problem, timeout_s=20)
    assert result is SolveResult.SAT
    outcome = intervals.minimize_width(problem, lower=24, hint=hint, timeout_s=30)
    assert outcome.result is SolveResult.SAT and outcome.width == 24
    check_placement(cg, TableProblem("bubblesort-4", cg.degree, 24, problem.items), outcome.chosen)


DECIDERS = [(Backend.Z3, CpsatModel.PLACEMENTS), (Backend.CPSAT, CpsatModel.PLACEMENTS),
            (Backend.CPSAT, CpsatModel.INTERVALS)]


@pytest.mark.parametrize("backend,model", DECIDERS)
def test_decide_answers_alike_with_every_backend(graph, backend, model):
    """tesearch.solvers.decide.decide, the one dispatch of search and stratify: one column below
    bubblesort-4's bound is unsat, the bound is sat with a valid placement; only Z3 leaves an encoding."""
    cg = graph("bubblesort-4")
    below = decide(full_problem(cg, "bubblesort-4", 23), backend, model, timeout_s=20, label="full")
    assert below.result is SolveResult.UNSAT and below.chosen is None
    problem = full_problem(cg, "bubblesort-4", 24)
    found = decide(problem, backend, model, timeout_s=20)
    assert found.result is SolveResult.SAT and found.problem is problem
    check_placement(cg, problem, found.chosen)
    assert (found.encoding is not None) == (backend is Backend.Z3)
    assert found.outcome.startswith("sat (") and (", cpsat)" in found.outcome) == (backend is Backend.CPSAT)
    assert solver_name(backend, model).startswith({Backend.Z3: "z3 ", Backend.CPSAT: "cpsat "}[backend])
    assert ("intervals" in solver_name(backend, model)) == (model is CpsatModel.INTERVALS
                                                              and backend is Backend.CPSAT)


def test_decide_timeout_is_unknown_not_unsat(graph):
    cg = graph("pancake-5")
    decision = decide(full_problem(cg, "pancake-5", 107), Backend.CPSAT, CpsatModel.INTERVALS, timeout_s=0)
    assert decision.result is SolveResult.UNKNOWN and decision.chosen is None
    assert decision.outcome.startswith("unknown (")


@pytest.mark.parametrize("spec,T", [("pancake-4", 20), ("star-4", 21)])
def test_search_with_intervals_meets_the_bound(spec, T):
    outcome = search(instance(spec), SearchParams(Strategy.FULL, backend=Backend.CPSAT, cpsat_model=CpsatModel.INTERVALS),
                     budget=Budget.seconds(60))
    assert outcome.status is Status.FOUND and outcome.optimal and outcome.T == T
    assert all("intervals" in a.detail for a in outcome.attempts)
    assert outcome.table.extra["search"]["solver"].startswith("cpsat intervals")
    assert verify_table(outcome.table).ok


def test_cli_intervals_are_not_for_repack_tail(tmp_path):
    """The interval model with repack --tail is refused in one line."""
    run = subprocess.run([sys.executable, "-m", "tesearch.entry", "repack", "pancake-4", "--solver", "cpsat-intervals",
                          "--tail", "4"], capture_output=True, text=True)
    assert run.returncode == 2 and "leave out --tail" in run.stderr


@pytest.mark.slow
def test_pancake5_at_the_counting_bound(tmp_path):
    """pancake-5 at T = 107 = the counting bound (3 blanks): the interval model finds it in seconds
    (8.7 s on a loaded 2-core machine), the placement model did not in 1498 s."""
    out = tmp_path / "pancake-5.json"
    run = subprocess.run([sys.executable, "-m", "tesearch.entry", "search", "pancake-5", "--solver",
                          "cpsat-intervals", "--timeout", "300", "--out", str(out), "--quiet"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text())["T"] == 107


@pytest.mark.slow  # 4-6 s: the everyday run stays under 2 minutes
def test_repack_starts_from_a_given_table(tmp_path):
    """--start: the minimisation starts from that table (here a wider one of bubblesort-4, greedy 27)."""
    wide = tmp_path / "wide.json"
    run = subprocess.run([sys.executable, "-m", "tesearch.entry", "search", "bubblesort-4", "--solver", "cpsat",
                          "--from-width", "27", "--max-width", "27", "--quiet", "--out", str(wide)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(wide.read_text())["T"] == 27
    out = tmp_path / "narrow.json"
    run = subprocess.run([sys.executable, "-m", "tesearch.entry", "repack", "bubblesort-4", "--start", str(wide),
                          "--solver", "cpsat-intervals", "--timeout", "60", "--out", str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "starting table: T=27" in run.stderr + run.stdout
    assert json.loads(out.read_text())["T"] == 24
    run = subprocess.run([sys.executable, "-m", "tesearch.entry", "repack", "pancake-4", "--start", str(wide)],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "not a total table of pancake-4" in run.stderr


def test_every_solver_choice_is_found_by_the_one_lookup():
    """solver_module maps each (backend, CP-SAT model) to the module decide calls, each with the same interface."""
    from tesearch.solvers import Backend, CpsatModel, cpsat, intervals, solver_module, z3model
    from tesearch.solvers.decide import solver_name

    assert solver_module(Backend.Z3) is z3model
    assert solver_module(Backend.CPSAT, CpsatModel.PLACEMENTS) is cpsat
    assert solver_module(Backend.CPSAT, CpsatModel.INTERVALS) is intervals
    for module in (z3model, cpsat, intervals):
        assert callable(module.decide_once) and callable(module.solver_label)
    assert solver_name(Backend.Z3).startswith("z3 ")
    assert solver_name(Backend.CPSAT).startswith("cpsat (OR-Tools ")
    assert solver_name(Backend.CPSAT, CpsatModel.INTERVALS).startswith("cpsat intervals (OR-Tools ")
