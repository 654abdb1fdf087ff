"""Ring lifts (tesearch.search.lift): optimal mixed-radix tori, checked three ways."""

import json
from collections import defaultdict

import pytest
import z3

from conftest import run_cli
from tesearch.solvers import Backend
from tesearch.running.errors import LiftError, LiftImpossible, SpecError
from tesearch.networks.families import network_from_spec
from tesearch.search.lift import (AssignMode, HWord, LiftParams, boundary_cut, build_model, factor_table,
                                  factor_words, ring_words, solve_z3, split_off, z3_solver)
from tesearch.search.lift.solvers import option_var
from tesearch.running.terms import ExitCode, SolveResult
from tesearch.checking.published.constructions import torus2d_even
from tesearch.checking.replay import replay_data
from tesearch.tables.table import read_table, write_table
from tesearch.tables.verify import verify_table


def restrict(model, keep):
    """experiments/lift_core.py's relaxation: every copy of the chosen factor words, nothing else."""
    from experiments.lift_core import restrict

    return restrict(model, keep)


def lifted_table(spec, **options):
    from tesearch.search.lift import lifted_table as lift

    return lift(network_from_spec(spec), **options).table


def per_letter_bound(sides: tuple[int, ...]) -> int:
    """Closed form: the longest even side L of an N-node torus forces N*L/8 uses of each of its letters."""
    nodes = 1
    for s in sides:
        nodes *= s
    longest = max(sides)
    assert longest % 2 == 0
    return nodes * longest // 8


@pytest.fixture(scope="module")
def factor_8x8():
    return factor_table(network_from_spec("torus-8x8"), timeout_s=60)


@pytest.fixture(scope="module")
def tpu_4x8x8(factor_8x8):
    return lifted_table("torus-4x8x8", factor=factor_8x8, timeout_s=60)


def test_tpu_torus_meets_per_letter_bound(tpu_4x8x8):
    table = tpu_4x8x8
    assert table.T == per_letter_bound((4, 8, 8)) == 256
    check = verify_table(table)
    assert check.ok, check.summary()
    assert check.optimal and check.bounds.best == 256


def test_tpu_torus_replays(tpu_4x8x8):
    report = replay_data(tpu_4x8x8.to_json())
    assert report.ok, report.violations[:3]
    assert report.completion_time == 256 and report.delivered == report.target_pairs == 256 * 255


def test_factor_letters_stay_where_the_factor_table_put_them(tpu_4x8x8, factor_8x8):
    """Independent of the verifier: strip the ring letters and find each copy of the 8x8 table."""
    table = tpu_4x8x8
    network = network_from_spec("torus-4x8x8")
    ring, rest, letter_map = split_off(network, 0)
    sub = factor_8x8
    m, width = 4, sub.T
    assert table.T == m * width
    ring_letters = set(ring.letters)
    expected = defaultdict(int)
    for p in sub.placements:
        for k in range(m):
            expected[(k * width + p.column, tuple(letter_map[s] for s in p.word))] += 1
    seen = defaultdict(int)
    for p in table.placements:
        prefix = 0
        while prefix < len(p.word) and p.word[prefix] in ring_letters:
            prefix += 1
        middle = tuple(s for s in p.word[prefix:] if s not in ring_letters)
        assert all(s in ring_letters for s in p.word[prefix + len(middle):]), p  # ring letters only outside
        if middle:
            seen[(p.column + prefix, middle)] += 1
    assert seen == expected


@pytest.mark.parametrize("spec, sides", [("torus-4x8", (4, 8)), ("torus-3x4x8", (3, 4, 8)), ("torus-8x16", (8, 16))])
def test_lift_meets_the_closed_form_bound(spec, sides):
    table = lifted_table(spec, timeout_s=60)
    assert table.T == per_letter_bound(sides)
    check = verify_table(table)
    assert check.ok and check.optimal, check.summary()


def test_lift_with_cyclic_and_odd_sides():
    table = lifted_table("torus-3x5:cyclic", timeout_s=60)
    check = verify_table(table)
    assert check.ok, check.summary()
    assert table.T == check.bounds.best


def test_fixed_mode_alone_may_fail_and_says_so(factor_8x8):
    """One x per copy is too tight for torus-4x8x8: the lift reports it instead of widening."""
    with pytest.raises(LiftError, match="no lift found"):
        lifted_table("torus-4x8x8", factor=factor_8x8, modes=(AssignMode.FIXED,), timeout_s=60)


def test_a_factor_table_of_another_network_is_refused(factor_8x8):
    with pytest.raises(SpecError, match="factor table is for torus-8x8"):
        lifted_table("torus-4x4x8", factor=factor_8x8)


@pytest.mark.parametrize("spec", ["star-5", "torus-8", "ring-6"])
def test_not_a_product(spec):
    with pytest.raises(SpecError, match="at least two rings"):
        lifted_table(spec)


def test_cli_writes_a_verified_table(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("lift", "torus-4x8", "--out", out)
    assert result.exit_code == 0, result.output
    table = read_table(out)
    assert verify_table(table).ok
    assert "T = 32, best bound 32: OPTIMAL" in result.stdout


def test_cli_ring_chooses_the_side_split_off(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("lift", "torus-4x8", "--ring", "0", "--out", out)
    assert result.exit_code == 0, result.output
    assert read_table(out).extra["construction"]["ring"].startswith("ring-4")
    assert "ring=0" in result.stderr
    out.unlink()
    # the 8-ring over ring-4 (T = 2) is 16 wide, below the bound 32: refused without a solver, and a proved
    # impossibility of what was asked is bad input (exit 2), not a limit (it was exit 4)
    result = run_cli("lift", "torus-4x8", "--ring", "1", "--out", out, "--quiet")
    assert result.exit_code == 2 and "16 wide, below the lower bound 32" in result.stderr
    assert result.stderr.count("\n") == 1
    result = run_cli("lift", "torus-4x8", "--ring", "2", "--out", out)
    assert result.exit_code == 2 and "no side 2" in result.stderr
    assert not out.exists()


def test_cli_bad_input(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("lift", "pancake-4", "--out", out)
    assert result.exit_code == 2
    assert not out.exists()
    assert result.stderr.count("\n") == 1


def test_cpsat_backend_gives_the_same_kind_of_table(factor_8x8):
    pytest.importorskip("ortools")
    table = lifted_table("torus-4x8x8", factor=factor_8x8, backend=Backend.CPSAT, timeout_s=60)
    check = verify_table(table)
    assert check.ok and check.optimal, check.summary()
    assert table.extra["construction"]["backend"] == "cpsat"


def test_cli_lifts_a_given_factor_table_and_refuses_a_broken_one(tmp_path):
    network = network_from_spec("torus-4x8")
    _, rest, _ = split_off(network, 0)
    factor = factor_table(rest, timeout_s=60)
    good = tmp_path / "factor.json"
    write_table(factor, good)
    out = tmp_path / "t.json"
    assert run_cli("lift", "torus-4x8", "--ring", "0", "--factor", good, "--out", out).exit_code == 0
    lifted = read_table(out)
    assert verify_table(lifted).ok and lifted.extra["construction"]["factor_T"] == factor.T
    out.unlink()
    # the same factor with its first message placed twice: it must not be lifted
    data = json.loads(good.read_text())
    data["placements"].append(data["placements"][0])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run_cli("lift", "torus-4x8", "--ring", "0", "--factor", bad, "--out", out)
    assert result.exit_code == 2
    err = result.stderr
    assert err.count("\n") == 1 and str(bad) in err and "does not verify" in err
    assert not out.exists()


@pytest.fixture(scope="module")
def factor_8():
    return factor_table(network_from_spec("torus-8"), timeout_s=60)


def lift_model_4x8(factor_8, mode):
    """The lift model of the 4-ring over ``factor_8`` in ``mode``, with its factor words and ring words."""
    network = network_from_spec("torus-4x8")
    ring, rest, letter_map = split_off(network, 0)
    assert rest.spec == factor_8.network
    hwords = factor_words(factor_8, letter_map)
    words = ring_words(ring)
    return build_model(LiftParams(network.spec, 0, mode), hwords, factor_8.T, words), hwords, words


def test_cyclic_mode_gives_each_factor_word_one_shift(factor_8):
    model, hwords, words = lift_model_4x8(factor_8, AssignMode.CYCLIC)
    factor = factor_8
    m = len(words)
    answer, chosen = solve_z3(model)
    assert answer is SolveResult.SAT
    x_of = defaultdict(dict)
    for i, (kind, k, hi) in enumerate(model.items):
        if kind == "copy":
            x_of[hi][k] = model.options[i][chosen[i]].x
    assert len(x_of) == len(hwords)
    for per_copy in x_of.values():  # x = k + t(h) mod m for one t per h, so every x once
        shifts = {(x - k) % m for k, x in per_copy.items()}
        assert len(shifts) == 1 and sorted(per_copy.values()) == list(range(m))
    table = lifted_table("torus-4x8", ring_index=0, factor=factor, modes=(AssignMode.CYCLIC,), timeout_s=60)
    assert verify_table(table).ok and table.extra["construction"]["mode"] == "cyclic"


def test_cyclic_mode_with_cpsat():
    pytest.importorskip("ortools")
    table = lifted_table("torus-4x8", ring_index=0, modes=(AssignMode.CYCLIC,), backend=Backend.CPSAT,
                         timeout_s=60)
    check = verify_table(table)
    assert check.ok and check.optimal and table.extra["construction"]["mode"] == "cyclic"


def test_restrict_is_a_relaxation_that_keeps_a_solution(factor_8):
    model, hwords, words = lift_model_4x8(factor_8, AssignMode.LATIN)
    answer, chosen = solve_z3(model)
    assert answer is SolveResult.SAT
    keep = [0, 2, len(hwords) - 1]
    sub = restrict(model, keep)
    kept = [i for i, (kind, _, hi) in enumerate(model.items) if kind == "copy" and hi in keep]
    assert len(sub.items) == len(words) * len(keep) == len(kept)
    assert all(kind == "copy" for kind, _, _ in sub.items) and sub.size < model.size
    assert len(sub.latin) == sum(len(g) > 0 for g in model.latin if model.items[g[0][0]][2] in keep)
    # the full solution, cut down to the kept items, satisfies the restricted model
    solver = z3_solver(sub)
    assert solver.check([option_var(j, chosen[i]) for j, i in enumerate(kept)]) == z3.sat


def three_one_letter_words():
    """ring-4 under three one-letter factor words in a one-column factor table: (ring words, words, Latin model)."""
    network = network_from_spec("torus-4x4")
    ring, _, _ = split_off(network, 0)
    words = ring_words(ring)
    hwords = [HWord(0, ("b",)), HWord(0, ("B",)), HWord(0, ("b",))]
    return words, hwords, build_model(LiftParams(network.spec, 0, AssignMode.LATIN), hwords, 1, words)


def test_restrict_refutes_with_a_few_factor_words():
    # each factor word's four copies take x = 1, 2, 3 (a, A, aA) and 0 once, so 2 a's and 2 A's
    # per word; 4 columns hold 4 of each, so one word fits, three do not, and neither does the lift
    _, _, model = three_one_letter_words()
    assert solve_z3(restrict(model, [0]))[0] is SolveResult.SAT
    assert solve_z3(restrict(model, [0, 1, 2]))[0] is SolveResult.UNSAT
    assert solve_z3(model)[0] is SolveResult.UNSAT
    text = z3_solver(restrict(model, [0, 1, 2])).to_smt2()
    reread = z3.Solver()
    reread.from_string(text)
    assert reread.check() == z3.unsat


def test_boundary_cut_counts_the_columns_beside_the_copies():
    # the same three words: 3 * 3 nonzero copies, 4 columns of 2 ring letters: 9 > 8
    words, hwords, model = three_one_letter_words()
    cut = boundary_cut(hwords, 1, words)
    assert cut is not None and cut.words == (0, 1, 2) and cut.columns == (0, 1, 2, 3)
    assert (cut.demand, cut.capacity, cut.loose) == (9, 8, 0)
    assert boundary_cut(hwords[:2], 1, words) is None  # 6 <= 8: the test leaves room, so it says nothing
    assert solve_z3(restrict(model, cut.words))[0] is SolveResult.UNSAT


def test_lift_over_seed_003_construction_is_refuted_by_counting():
    # torus-2x6x6 over seed 003's 6x6 table: the ring-2 letter must sit beside 35 words in 32 columns
    factor = torus2d_even(6).table
    network = network_from_spec("torus-2x6x6")
    ring, _, letter_map = split_off(network, 0)
    words = ring_words(ring)
    hwords = factor_words(factor, letter_map)
    cut = boundary_cut(hwords, factor.T, words)
    assert cut is not None and cut.demand > cut.capacity
    with pytest.raises(LiftImpossible, match="in any mode") as refused:  # proved: bad input, exit 2
        lifted_table(network.spec, ring_index=0, factor=factor, timeout_s=30)
    assert refused.value.exit_code == ExitCode.BAD_INPUT
    # the solver agrees on the words the cut names
    model = build_model(LiftParams(network.spec, 0, AssignMode.LATIN, 60), hwords, factor.T, words)
    assert solve_z3(restrict(model, cut.words))[0] is SolveResult.UNSAT


def test_boundary_cut_passes_a_factor_that_lifts(factor_8x8, tpu_4x8x8):
    network = network_from_spec("torus-4x8x8")
    ring, _, letter_map = split_off(network, 0)  # the shortest side, as lifted_table splits it
    assert tpu_4x8x8.extra["construction"]["ring"] == ring.spec
    assert boundary_cut(factor_words(factor_8x8, letter_map), factor_8x8.T, ring_words(ring)) is None
