"""The whole-table SAT model: thresholds pinned with checked proofs and verified tables, the kernel's own
rebuild of the CNF (and its refusal of a tampered one), and the campaign's resume."""

import json
from pathlib import Path

import pytest

from benchmarks import fulltable as campaign
from tesearch.checking import proof as proof_tools
from tesearch.checking.certificate import RefutationRequest, Verdict, check_certificate, make_certificate, \
    write_certificate
from tesearch.checking.kernel.fullcnf import kernel_fulltable_cnf
from tesearch.checking.kernel.graph import build_network
from tesearch.checking.kernel.loader import input_from_json
from tesearch.checking.kernel.theorem1 import check_theorem1, target_mask
from tesearch.facts.instance import instance
from tesearch.running.terms import Exchange, SolveResult
from tesearch.search.fulltable import encode, solve_width
from tesearch.solvers.fulltable import letter_automorphisms

#: bubblesort-3 (6 nodes): its optimum is 5 (the counting bound)
SMALL = "bubblesort-3"
SMALL_OPTIMUM = 5


def kernel_text(facts, width: int, symmetry: bool = True, cut=None) -> str:
    gens = [tuple(facts.network.generators[s]) for s in facts.network.letters]
    net = build_network(facts.network.letters, gens)
    return kernel_fulltable_cnf(net, gens, target_mask(net, Exchange.TOTAL), width, spec=facts.spec,
                                exchange="total", symmetry=symmetry, cut=cut)


@pytest.mark.parametrize("spec,width", [("bubblesort-3", 4), ("bubblesort-3", 7), ("pancake-4", 19)])
@pytest.mark.parametrize("symmetry", [True, False])
def test_prover_and_kernel_write_the_same_bytes(spec, width, symmetry):
    facts = instance(spec)
    assert encode(facts, width, symmetry=symmetry).dimacs() == kernel_text(facts, width, symmetry)


# (network, width, cut weights, the cut's budget): every branch of the counter (below zero, zero, above zero)
CUT_CASES = [("bubblesort-3", 4, (1, 1), -1), ("bubblesort-3", 5, (1, 1), 1), ("bubblesort-3", 7, (1, 1), 5),
             ("pancake-4", 20, (1, 1, 0), 0), ("pancake-4", 22, (1, 1, 0), 4), ("bubblesort-4", 25, (0, 1, 0), 1)]


@pytest.mark.parametrize("spec,width,cut,budget", CUT_CASES)
def test_prover_and_kernel_write_the_same_bytes_with_the_counting_cut(spec, width, cut, budget):
    facts = instance(spec)
    cnf = encode(facts, width, cut=cut)
    assert cnf.cut_budget == budget
    assert cnf.dimacs() == kernel_text(facts, width, cut=cut)
    assert f"symmetry on cut {','.join(map(str, cut))}" in cnf.header[1]


def test_the_cut_weights_are_the_word_choice_dual():
    assert campaign_cut("bubblesort-5") == (0, 1, 1, 0)  # the inner letters: 2 * 154 = 308 of them needed
    assert campaign_cut("bubblesort-3") == (1, 1)


def campaign_cut(spec):
    from tesearch.facts.wordchoice import dual_letter_weights

    return dual_letter_weights(instance(spec))


def table_literals(cnf, table) -> list[int]:
    """The state and mark literals of ``table`` in ``cnf``: true along each target's walk and for its letters,
    false elsewhere."""
    from tesearch.networks.permutations import compose

    gens = {s: tuple(p) for s, p in table.generators.items()}
    letters = list(table.letters)
    walks = {}
    for placement in table.placements:
        h = tuple(range(len(next(iter(gens.values())))))
        path = [h]
        for s in placement.word:
            h = compose(h, gens[s])
            path.append(h)
        walks[h] = (placement.column, placement.word, path)
    true = set()
    for t, g in enumerate(cnf.targets):
        first, word, path = walks[g]
        for c in range(cnf.width + 1):
            true.add(cnf.state[(t, c, path[min(max(c - first, 0), len(word))])])
        for i, s in enumerate(word):
            true.add(cnf.use[(t, first + i, letters.index(s))])
    return [v if v in true else -v for v in [*cnf.state.values(), *cnf.use.values()]]


@pytest.mark.parametrize("spec,weights", [("bubblesort-4", (0, 1, 0)), ("pancake-4", (1, 1, 0)),
                                          ("bubblesort-4", (2, 1, 3))])
def test_every_table_satisfies_the_counting_cut(spec, weights):
    """The cut is implied: a committed optimal table, its walks and marks fixed, leaves the formula satisfiable (the
    auxiliaries follow); so does the same table in one more column, its last column blank (the budget above zero)."""
    from pysat.solvers import Solver

    from tesearch.tables.table import read_table

    table = read_table(Path(__file__).resolve().parent.parent / "results" / f"{spec}.json")
    facts = instance(spec)
    for width in (table.T, table.T + 1):  # at T + 1 the table's last column is blank
        cnf = encode(facts, width, symmetry=False, cut=weights)
        with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
            assert solver.solve(assumptions=table_literals(cnf, table)), (spec, width, cnf.cut_budget)


def test_the_cut_decides_one_below_the_bound_at_once_and_leaves_the_bound_sat():
    """bubblesort-4 at 23, below its bound 24: the plain formula is a pigeonhole that CaDiCaL did not refute in
    120 s (results/fulltable/calibration.md); the cut's budget is below zero, so the refutation is immediate and
    its proof checks against the kernel's formula.  At 24 the cut keeps a table."""
    facts = instance("bubblesort-4")
    below = solve_width(facts, 23, cut=(0, 1, 0), timeout_s=60)
    assert below.result is SolveResult.UNSAT and below.cnf.cut_budget == -1
    check = proof_tools.parse_dimacs(kernel_text(facts, 23, cut=(0, 1, 0)))
    assert proof_tools.check_drat(check, "\n".join(below.proof) + "\n").accepted
    at = solve_width(facts, 24, cut=(0, 1, 0), timeout_s=120)
    assert at.result is SolveResult.SAT and at.table.T == 24


def test_the_diagram_automorphism_of_bubblesort_is_found():
    facts = instance("bubblesort-5")
    gens = [tuple(facts.network.generators[s]) for s in facts.network.letters]
    assert letter_automorphisms(gens) == [(0, 1, 2, 3), (3, 2, 1, 0)]  # s_i <-> s_{n-i}


def test_the_threshold_is_pinned_unsat_with_a_checked_proof_below_sat_with_a_verified_table_at():
    facts = instance(SMALL)
    below = solve_width(facts, SMALL_OPTIMUM - 1)
    assert below.result is SolveResult.UNSAT and below.proof
    cnf = proof_tools.parse_dimacs(kernel_text(facts, SMALL_OPTIMUM - 1))
    check = proof_tools.check_drat(cnf, "\n".join(below.proof) + "\n")
    assert check.accepted, check.reason
    at = solve_width(facts, SMALL_OPTIMUM)
    assert at.result is SolveResult.SAT and at.table.T == SMALL_OPTIMUM
    inp = input_from_json(at.table.to_json())
    assert check_theorem1(inp, build_network(inp.letters, inp.generators)).ok


def test_a_proof_of_another_formula_does_not_check():
    facts = instance(SMALL)
    below = solve_width(facts, SMALL_OPTIMUM - 1)
    wider = proof_tools.parse_dimacs(kernel_text(facts, SMALL_OPTIMUM))  # satisfiable: no proof can refute it
    assert not proof_tools.check_drat(wider, "\n".join(below.proof) + "\n").accepted


def test_a_timeout_is_unknown_never_unsat():
    facts = instance("bubblesort-4")
    out = solve_width(facts, 23, timeout_s=0.01)  # below the counting bound 24: unsat, but not within 10 ms
    assert out.result is SolveResult.UNKNOWN and out.proof is None and out.table is None


@pytest.fixture
def small_certificate(tmp_path):
    """A certificate of bubblesort-3's table at 5 with the full-table CNF claim at 4, in a sandbox tree."""
    (tmp_path / "pyproject.toml").write_text("")
    facts = instance(SMALL)
    below = solve_width(facts, SMALL_OPTIMUM - 1)
    record = campaign.write_unsat(SMALL, below, tmp_path)
    table = solve_width(facts, SMALL_OPTIMUM).table
    cert = make_certificate(table, name="bs3", root=tmp_path, command="test",
                            refutations=[RefutationRequest(tmp_path / record["encoding"])])
    (tmp_path / "proofs").mkdir()
    out = tmp_path / "proofs" / "bs3.json"
    write_certificate(cert, out)
    return out, tmp_path / record["encoding"]


def claim_verdict(path):
    report = check_certificate(path)
    return next(v for v in report.verdicts if v.claim == "impossibility[0]")


def test_the_cnf_claim_is_confirmed(small_certificate):
    path, _ = small_certificate
    verdict = claim_verdict(path)
    assert verdict.verdict is Verdict.CONFIRMED, verdict.reason
    assert "kernel's own full-table CNF" in verdict.reason


def _retamper(path: Path, encoding: Path, text: str) -> None:
    encoding.write_text(text)
    data = json.loads(path.read_text())
    enc = data["impossibility_claims"][0]["encoding"]
    enc["sha256"], enc["bytes"] = proof_tools.sha256_bytes(encoding.read_bytes()), encoding.stat().st_size
    path.write_text(json.dumps(data))


def test_a_tampered_cnf_with_a_matching_hash_is_refuted_by_the_kernel(small_certificate):
    path, encoding = small_certificate
    lines = encoding.read_text().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    v, c = lines[head].split()[2:]
    # drop the at-most-one clauses' last clause: a weaker formula, still with the proof's lemmas
    del lines[-1]
    lines[head] = f"p cnf {v} {int(c) - 1}"
    _retamper(path, encoding, "\n".join(lines) + "\n")
    verdict = claim_verdict(path)
    assert verdict.verdict is Verdict.REFUTED and "not the kernel's full-table CNF" in verdict.reason


def test_a_tampered_proof_is_refuted(small_certificate):
    path, encoding = small_certificate
    proof = encoding.with_suffix(".drat")
    proof.write_text("1 0\n0\n")
    data = json.loads(path.read_text())
    data["impossibility_claims"][0]["confirmations"][0]["proof"]["sha256"] = proof_tools.sha256_text("1 0\n0\n")
    path.write_text(json.dumps(data))
    verdict = claim_verdict(path)
    assert verdict.verdict is Verdict.REFUTED and "does not check" in verdict.reason


def test_the_campaign_checkpoints_and_resumes(tmp_path, capsys):
    state = tmp_path / "state.json"
    args = ["--from", "6", "--down-to", "5", "--state", str(state), "--root", str(tmp_path)]
    assert campaign.main([SMALL, *args]) == 0
    first = json.loads(state.read_text())
    assert sorted(first["widths"]) == ["5", "6"] and first["widths"]["5"]["result"] == "sat"
    assert first["widths"]["5"]["theorem1"] == "ok" and first["widths"]["5"]["replay"] == "ok"
    # an earlier attempt at width 4 ran out of time: the resumed run decides it and counts that time
    first["attempts"].append({"width": 4, "result": "unknown", "seconds": 12.5, "reason": "timeout"})
    state.write_text(json.dumps(first))
    capsys.readouterr()
    assert campaign.main([SMALL, "--from", "6", "--down-to", "3", "--state", str(state), "--root", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "T = 6: sat (decided before" in printed and "T = 5: sat (decided before" in printed
    second = json.loads(state.read_text())
    assert second["widths"]["4"]["result"] == "unsat" and second["widths"]["4"]["seconds_in_earlier_attempts"] == 12.5
    assert "3" not in second["widths"]  # the campaign ends at the first unsat width
    assert (tmp_path / second["widths"]["4"]["encoding"]).read_text() == kernel_text(instance(SMALL), 4, cut=(1, 1))
    assert second["widths"]["4"]["cut"] == [1, 1] and second["widths"]["4"]["cut_budget"] == -1
    assert len(second["runs"]) == 2


def test_an_upward_campaign_ends_at_the_first_sat_width(tmp_path, capsys):
    state = tmp_path / "state.json"
    assert campaign.main([SMALL, "--upward", "--down-to", "3", "--from", "7", "--cut", "none", "--state", str(state),
                          "--root", str(tmp_path)]) == 0
    widths = json.loads(state.read_text())["widths"]
    assert {w: r["result"] for w, r in widths.items()} == {"3": "unsat", "4": "unsat", "5": "sat"}
    assert widths["3"]["cut"] is None and "the optimum is 5" in capsys.readouterr().out
    assert (tmp_path / widths["4"]["encoding"]).read_text() == kernel_text(instance(SMALL), 4)


def test_a_timeout_leaves_the_stopper_ready_for_the_next_width():
    from tesearch.search.fulltable import Stopper

    stopper = Stopper()
    assert solve_width(instance("bubblesort-4"), 23, timeout_s=0.01, stopper=stopper).result is SolveResult.UNKNOWN
    assert solve_width(instance(SMALL), SMALL_OPTIMUM, stopper=stopper).result is SolveResult.SAT


def test_a_cnf_claim_with_the_counting_cut_is_confirmed_and_its_weights_cannot_be_swapped(tmp_path):
    """The claim's file carries its cut's weights in its header; the kernel rebuilds the formula with them and
    compares bytes, so a header naming other weights (or none) over the same clauses is refuted."""
    (tmp_path / "pyproject.toml").write_text("")
    facts = instance(SMALL)
    below = solve_width(facts, SMALL_OPTIMUM - 1, cut=(1, 1))
    assert below.result is SolveResult.UNSAT and below.cnf.cut_budget == -1
    record = campaign.write_unsat(SMALL, below, tmp_path)
    table = solve_width(facts, SMALL_OPTIMUM, cut=(1, 1)).table
    cert = make_certificate(table, name="bs3", root=tmp_path, command="test",
                            refutations=[RefutationRequest(tmp_path / record["encoding"])])
    (tmp_path / "proofs").mkdir()
    path = tmp_path / "proofs" / "bs3.json"
    write_certificate(cert, path)
    verdict = claim_verdict(path)
    assert verdict.verdict is Verdict.CONFIRMED and "counting cut 1,1" in verdict.reason, verdict.reason
    encoding = tmp_path / record["encoding"]
    text = encoding.read_text()
    for header in ("symmetry on cut 2,1", "symmetry on"):
        _retamper(path, encoding, text.replace("symmetry on cut 1,1", header))
        verdict = claim_verdict(path)
        assert verdict.verdict is Verdict.REFUTED and "not the kernel's full-table CNF" in verdict.reason, header
    # weights whose counter could be of any size are not rebuilt at all (the checker must not be made to hang)
    _retamper(path, encoding, text.replace("symmetry on cut 1,1", "symmetry on cut 1,99999999"))
    verdict = claim_verdict(path)
    assert verdict.verdict is Verdict.UNCHECKED and "does not encode" in verdict.reason, verdict.reason


#: S4 on (2 3), (1 2), (0 1)(2 3), (0 2): with the odd-distance exchange its word-choice bound is 7 and its optimum 8
ABOVE_THE_BOUND = {"1": [0, 1, 3, 2], "2": [0, 2, 1, 3], "3": [1, 0, 3, 2], "4": [2, 1, 0, 3]}


def test_an_optimum_above_the_word_choice_bound_is_pinned(tmp_path):
    """The small-groups scan's network whose optimum exceeds every bound we have: width 7 (the bound, the cut's budget
    zero) is refuted with a proof that checks against the kernel's formula, and width 8 has a verified table."""
    path = tmp_path / "s4.json"
    path.write_text(json.dumps({"generators": ABOVE_THE_BOUND}))
    facts = instance(str(path), "odd-distance")
    assert facts.bounds.best == 7
    below = solve_width(facts, 7, cut=(0, 1, 0, 1))
    assert below.result is SolveResult.UNSAT and below.cnf.cut_budget == 0
    gens = [tuple(facts.network.generators[s]) for s in facts.network.letters]
    net = build_network(facts.network.letters, gens)
    text = kernel_fulltable_cnf(net, gens, target_mask(net, Exchange.ODD_DISTANCE), 7, spec=facts.spec,
                                exchange="odd-distance", cut=(0, 1, 0, 1))
    assert text == below.cnf.dimacs()
    assert proof_tools.check_drat(proof_tools.parse_dimacs(text), "\n".join(below.proof) + "\n").accepted
    at = solve_width(facts, 8, cut=(0, 1, 0, 1))
    assert at.result is SolveResult.SAT and at.table.T == 8
    inp = input_from_json(at.table.to_json())
    assert check_theorem1(inp, build_network(inp.letters, inp.generators)).ok
