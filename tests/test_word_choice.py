"""The exact word-choice bound (tesearch bound, tesearch/facts/wordchoice.py) and its certificates (the kernel's check)."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from conftest import ROOT, run_cli
from tesearch.checking.certificate.check import check_certificate
from tesearch.checking.certificate.choice import check_word_choice
from tesearch.checking.certificate.make import word_choice_certificate
from tesearch.facts.instance import instance
from tesearch.running.terms import Verdict
from tesearch.facts.wordchoice import Solved, characters, word_choice

pytest.importorskip("ortools")


def solved(spec: str, **options):
    return word_choice(instance(spec), **options)


def certificate(result, spec: str) -> dict:
    facts = instance(spec)
    gens = {s: list(facts.cg.network.generators[s]) for s in facts.cg.letters}
    return word_choice_certificate(result, name="test", command="test", generators=gens)


@pytest.fixture(scope="module")
def pancake6():
    result = solved("pancake-6")
    return result, certificate(result, "pancake-6")


# ---------------------------------------------------------------- pinned values

@pytest.mark.parametrize("spec, lp, lower, integer", [
    ("bubblesort-5", Fraction(154), 154, 154),  # the letters {2, 3}: 308 needed, two per column
    ("pancake-5", Fraction(425, 4), 107, 107),  # the LP is the counting bound's 106.25
    ("torus-4x8", Fraction(32), 32, 32),  # the letter b alone
    ("ring-12:cyclic", Fraction(18), 18, 21),  # the antipode's word is all a or all a': the integer gap
])
def test_lp_lower_and_integer_optimum_on_small_networks(spec, lp, lower, integer):
    result = solved(spec)
    assert abs(float(result.lp) - float(lp)) < 1e-6
    assert result.lower == lower and result.weights.value == lp
    assert result.integer is Solved.OPTIMAL and result.upper == integer
    assert result.exact == (lower == integer)


def test_pancake6_parity_lifts_the_bound_to_660(pancake6):
    """3295 letters in 5 rows: at 659 every letter is used 659 times, so the odd prefix reversals {2, 3, 6} would
    number 1977, odd; every word choice uses an even number of them (360 odd permutations among the targets)."""
    result, _ = pancake6
    assert result.counting == 659 and result.weights.bound == 659
    assert [result.letters[k] for k in result.parity.odd] == ["2", "3", "6"]
    assert result.parity.level == 659 and result.parity.interval == (1977, 1977) and result.parity.parity == 0
    assert result.lower == 660 == result.upper and result.exact


def test_the_rotation_decides_the_lp_without_a_model():
    """A rotation permutes all the letters, so uniform weights are LP-optimal: the model agrees on star-5 and
    ring-12:cyclic, where the shortcut builds none."""
    for spec in ("star-5", "ring-12:cyclic"):
        fast, model = solved(spec, integer=False), solved(spec, integer=False, symmetry=False)
        assert "no model built" in fast.lp_how and "GLOP" in model.lp_how
        assert abs(float(fast.lp) - float(model.lp)) < 1e-6 and fast.lower == model.lower


def test_star_networks_take_the_integer_optimum_from_the_max_flow():
    result = solved("star-5")
    assert result.integer is Solved.MAX_FLOW and result.upper == result.lower == 111 and result.exact


def test_characters_are_the_sign_on_permutation_networks_and_the_axes_on_tori():
    assert [tuple(instance("pancake-5").cg.letters[k] for k in odd) for odd in characters(instance("pancake-5").cg)] \
        == [("2", "3")]  # r2 and r3 are one transposition each, r4 and r5 two
    torus = instance("torus-4x6:cyclic").cg  # even cyclic rings: each axis's letters counted mod 2
    assert sorted(tuple(torus.letters[k] for k in odd) for odd in characters(torus)) == \
        [("a", "a'"), ("a", "b", "a'", "b'"), ("b", "b'")]
    ring = instance("ring-6").cg  # D_3 by two reflections: a and A must count alike ((aA)^3 = 1)
    assert [tuple(ring.letters[k] for k in odd) for odd in characters(ring)] == [("a", "A")]
    assert characters(instance("ring-5:cyclic").cg) == []  # an odd cyclic ring has no character onto Z/2


@pytest.mark.parametrize("path", ["results/star-4.json", "results/ring-8-cyclic.json", "results/torus-4x8.json",
                                  "results/bubblesort-4.json", "results/pancake-4.json", "results/torus-3x3x3.json",
                                  "results/hypercube-4.json", "results/ring-12-cyclic.json",
                                  "results/bubblesort-5.json", "results/pancake-5.json"])
def test_never_above_a_committed_table(path):
    """Every table is a word choice: the certified lower bound and any optimum the solver proves are at most T,
    and the table's own loads are a choice at most T."""
    table = json.loads((ROOT / path).read_text())
    result = solved(table["network"] if table["exchange"] == "total" else table["network"])
    assert float(result.lp) <= result.lower + 1e-6 and result.lower <= table["T"]
    assert result.integer is not Solved.OPTIMAL or result.upper <= table["T"]
    if table["T"] == max(table["lower_bound"], table.get("letter_bound") or 0):
        assert result.lower <= table["T"]


# ---------------------------------------------------------------- certificates

def verdicts(data: dict) -> dict[str, Verdict]:
    return {claim: verdict for claim, _, verdict, _ in check_word_choice(data, "test")}


def test_the_kernel_confirms_pancake6(pancake6):
    _, cert = pancake6
    assert set(verdicts(cert).values()) == {Verdict.CONFIRMED}
    assert set(verdicts(cert)) == {"network", "lower.weights", "lower.parity", "lower", "upper", "exact", "result"}


def _mutate(cert: dict, change) -> dict:
    data = copy.deepcopy(cert)
    change(data)
    return data


MUTATIONS = {
    "weights over their denominator": (lambda d: d["lower"]["weights"].update(denominator=4), "lower.weights"),
    "a heavier weight": (lambda d: d["lower"]["weights"]["weights"].update({"4": 3}), "lower.weights"),
    "a claim above the weights": (lambda d: (d["lower"].update(bound=661)), "lower"),
    "a letter set that is no character": (lambda d: d["lower"]["parity"].update(odd_letters=["2", "6"]),
                                          "lower.parity"),
    "a parity level it does not rule out": (lambda d: d["lower"]["parity"].update(level=660), "lower.parity"),
    "a missing word": (lambda d: d["upper"]["words"].pop(), "upper"),
    "a word twice": (lambda d: d["upper"]["words"].__setitem__(0, d["upper"]["words"][1]), "upper"),
    "a word not shortest": (lambda d: d["upper"]["words"].__setitem__(0, d["upper"]["words"][0] + " 2 2"), "upper"),
    "a letter of no network": (lambda d: d["upper"]["words"].__setitem__(0, "7"), "upper"),
    "an upper bound below the loads": (lambda d: d["upper"].update(bound=659), "upper"),
    "another network's label": (lambda d: d["network"].update(spec="bubblesort-6"), "network"),
    # issue 46 item 9: every number stated is re-derived (these were never looked at: CONFIRMED before)
    "a result.lower the arguments do not give": (lambda d: d["result"].update(lower=999), "result"),
    "a result.upper the words do not give": (lambda d: d["result"].update(upper=999), "result"),
    "a result.lower below the confirmed one": (lambda d: d["result"].update(lower=659), "result"),
    "exact denied where the sides meet": (lambda d: d["result"].update(exact=False), "result"),
    "a need the weights do not give": (lambda d: d["lower"]["weights"].update(need=3300), "lower.weights"),
    "the wrong parity": (lambda d: d["lower"]["parity"].update(parity=1), "lower.parity"),
    "another interval": (lambda d: d["lower"]["parity"].update(interval=[1976, 1978]), "lower.parity"),
    "loads the words do not have": (lambda d: d["upper"]["loads"].update({"2": 660}), "upper"),
    "a wrong order": (lambda d: d["network"].update(order=721), "network"),
}


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_the_kernel_refutes_a_mutated_certificate(pancake6, mutation):
    change, claim = MUTATIONS[mutation]
    found = verdicts(_mutate(pancake6[1], change))
    assert found[claim] is Verdict.REFUTED, found


def test_a_number_the_checker_does_not_derive_is_unchecked(pancake6):
    """docs/trusted-base.md: each number a certificate states is re-derived or reported UNCHECKED."""
    found = verdicts(_mutate(pancake6[1], lambda d: d["lower"]["weights"].update(bound=999)))
    assert found["numbers"] is Verdict.UNCHECKED and Verdict.REFUTED not in found.values(), found
    assert "numbers" not in verdicts(pancake6[1])


def test_exact_is_refuted_when_the_sides_do_not_meet(pancake6):
    data = _mutate(pancake6[1], lambda d: d["lower"].update(parity=None, bound=659))
    found = verdicts(data)
    assert found["lower"] is Verdict.CONFIRMED and found["exact"] is Verdict.REFUTED


# ---------------------------------------------------------------- the command

def test_bound_writes_a_certificate_check_proof_confirms(tmp_path):
    out = tmp_path / "b.json"
    result = run_cli("bound", "bubblesort-5", "-o", out, "--quiet")
    assert result.exit_code == 0, result.output
    assert "EXACT: the least possible most-used letter count is 154" in result.output
    report = check_certificate(out)
    assert report.all_confirmed, report.text()
    checked = run_cli("check-proof", out)
    assert checked.exit_code == 0 and "CONFIRMED" in checked.output
    again = run_cli("bound", "bubblesort-5", "-o", out, "--quiet")  # as much again: replaces
    assert again.exit_code == 0, again.output
    lp_only = run_cli("bound", "bubblesort-5", "--lp-only", "-o", out, "--quiet")  # no upper side: keeps the file
    assert lp_only.exit_code == 2 and "the upper bound 154" in lp_only.stderr, lp_only.output


def test_bound_exits_4_where_the_certified_sides_do_not_meet():
    result = run_cli("bound", "ring-12:cyclic", "--quiet")
    assert result.exit_code == 4, result.output
    assert "between 18 and 21" in result.output and "not a certificate" in result.output


def test_bound_json_keys_are_the_documented_ones():
    from test_json_schema import faults

    result = run_cli("bound", "torus-4x8", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    assert faults("bound", json.loads(result.output)) == []


def test_bound_refuses_a_bad_spec_in_one_line(tmp_path):
    out = tmp_path / "b.json"
    result = run_cli("bound", "star-1x", "-o", out)
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "Traceback" not in result.output
    assert not out.exists()


def test_committed_word_choice_certificates_are_confirmed():
    paths = sorted((ROOT / "proofs" / "word-choice").glob("*.json"))
    assert paths, "no word-choice certificate under proofs/word-choice/"
    for path in paths:
        if json.loads(path.read_text())["network"]["order"] > 5000:
            continue  # the large ones in the slow sweep of tests/test_certificate.py
        assert check_certificate(path).all_confirmed, path


def test_a_word_choice_certificate_checks_without_z3_sympy_or_ortools():
    """The checking side of the new kind needs neither the prover's solvers nor OR-Tools (docs/trusted-base.md)."""
    import subprocess
    import sys

    code = ("import sys\nfor name in ('z3', 'sympy', 'ortools'):\n    sys.modules[name] = None\n"
            "from tesearch.checking.certificate.check import check_certificate\n"
            "report = check_certificate(sys.argv[1])\nprint(report.all_confirmed)")
    run = subprocess.run([sys.executable, "-c", code, str(ROOT / "proofs" / "word-choice" / "pancake-6.json")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.stdout.strip() == "True", run.stdout + run.stderr


# ---------------------------------------------------------------- issue 46: what is printed is what is proved

@pytest.mark.parametrize("spec", ["star-4", "star-5"])
def test_bound_prints_exact_only_with_a_certificate_that_proves_it(tmp_path, spec):
    """Issue 46 item 8: star-n printed EXACT (the max flow's value) while the certificate it wrote said exact false,
    upper null.  Now the max flow's words are listed: the certificate says exact and check-proof confirms it."""
    out = tmp_path / "b.json"
    result = run_cli("bound", spec, "-o", out, "--quiet")
    data = json.loads(out.read_text())
    assert result.exit_code == 0, result.output
    assert "EXACT" in result.output and data["result"]["exact"] is True, (result.output, data["result"])
    assert data["result"]["upper"] == data["result"]["lower"] == data["upper"]["bound"]
    report = check_certificate(out)
    assert report.all_confirmed, report.text()


def test_a_value_without_its_words_is_not_printed_exact(monkeypatch):
    """Where the star's words are too many to list, the max flow's value is a best choice, not a proof: no EXACT,
    exit 4 (the certificate would hold no upper side)."""
    import tesearch.facts.wordchoice as module

    monkeypatch.setattr(module, "MAX_STAR_WORD_TARGETS", 0)
    result = solved("star-4")
    assert result.words is None and result.upper == 21 and not result.exact
    assert "EXACT" not in result.text() and "not certified" in result.text()


@pytest.fixture(scope="module")
def bubblesort5_certificate(tmp_path_factory):
    out = tmp_path_factory.mktemp("wc") / "b.json"
    result = run_cli("bound", "bubblesort-5", "-o", out, "--quiet")
    assert result.exit_code == 0, result.output
    return out.read_text()


def test_check_proof_refutes_a_tampered_result_and_bound_replaces_it(tmp_path, bubblesort5_certificate):
    """Issue 46 item 9: result.lower and result.upper set to 999 were CONFIRMED, and `bound -o` then kept the
    tampered file because it "claimed" 999.  The keep-better rule now compares what the old file's evidence proves."""
    out = tmp_path / "b.json"
    data = json.loads(bubblesort5_certificate)
    data["result"].update(lower=999, upper=999)
    out.write_text(json.dumps(data))
    checked = run_cli("check-proof", out)
    assert checked.exit_code == 1 and "refuted" in checked.output.lower(), checked.output
    again = run_cli("bound", "bubblesort-5", "-o", out, "--quiet")
    assert again.exit_code == 0, again.output
    assert json.loads(out.read_text())["result"]["lower"] == 154


def test_bound_keeps_a_file_whose_evidence_proves_more(tmp_path, bubblesort5_certificate):
    """The keep-better rule still keeps what is proved: an --lp-only run (no words) does not replace a certificate
    whose words prove the upper side 154, even when its stated result.upper was tampered with."""
    out = tmp_path / "b.json"
    data = json.loads(bubblesort5_certificate)
    data["result"].update(upper=999)
    out.write_text(json.dumps(data))
    kept = run_cli("bound", "bubblesort-5", "--lp-only", "-o", out, "--quiet")
    assert kept.exit_code == 2 and "the upper bound 154" in kept.stderr, kept.output
    assert json.loads(out.read_text())["result"]["upper"] == 999


@pytest.mark.parametrize("value", ["999", None, True, 1.5])
def test_bound_over_a_certificate_with_a_malformed_result_is_one_line(tmp_path, bubblesort5_certificate, value):
    """Issue 46 item 12: result.lower "999" or null ended `bound -o` with exit 70 (a TypeError)."""
    out = tmp_path / "b.json"
    data = json.loads(bubblesort5_certificate)
    data["result"]["lower"] = value
    out.write_text(before := json.dumps(data))
    result = run_cli("bound", "bubblesort-5", "-o", out, "--quiet")
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and "'result'" in result.stderr and "Traceback" not in result.output
    assert out.read_text() == before
    checked = run_cli("check-proof", out)
    assert checked.exit_code == 2 and "'result'" in checked.stderr, checked.output


# -- a table certificate citing the word-choice certificate (issue 47, item 4)

@pytest.fixture(scope="module")
def cited_tree(tmp_path_factory):
    """A tree (with a pyproject.toml) holding pancake-4's word-choice certificate and a table certificate of
    results/pancake-4.json citing it: (table certificate, word-choice certificate)."""
    import os

    tree = tmp_path_factory.mktemp("cited")
    (tree / "pyproject.toml").write_text("")
    choice = tree / "wc.json"
    assert run_cli("bound", "pancake-4", "-o", choice, "--quiet").exit_code == 0
    here = os.getcwd()
    os.chdir(tree)  # certify records paths relative to the tree it runs in
    try:
        made = run_cli("certify", ROOT / "results" / "pancake-4.json", "--word-choice", choice, "-o", tree / "t.json",
                       "--quiet")
    finally:
        os.chdir(here)
    assert made.exit_code == 0, made.output
    return tree / "t.json", choice


@pytest.fixture()
def cited_pair(cited_tree, tmp_path, monkeypatch):
    """``cited_tree`` copied to ``tmp_path``, with check.py's own witnesses (the kernel's greedy choice, the table's
    letter counts) switched off, so that only the cited choice can confirm the attainment."""
    import shutil
    from dataclasses import replace

    from tesearch.checking.certificate import check

    for path in cited_tree[0].parent.iterdir():
        shutil.copy(path, tmp_path / path.name)
    kernel_bounds = check.kernel_bounds
    monkeypatch.setattr(check, "kernel_bounds", lambda *a: replace(kernel_bounds(*a), achievable_letter=None))
    monkeypatch.setattr(check, "table_letter_max", lambda inp: 10 ** 6)
    return tmp_path / "t.json", tmp_path / "wc.json"


def test_a_cited_word_choice_confirms_the_attainment(cited_pair):
    """Mutation: attainment_verdict ignoring ``cited`` leaves it unchecked ('best known: None')."""
    table_cert, _ = cited_pair
    attainment = next(v for v in check_certificate(table_cert).verdicts if v.claim == "attainment")
    assert attainment.verdict is Verdict.CONFIRMED, attainment.reason
    assert "the word choice of wc.json (sha256 matches" in attainment.reason


def test_a_changed_cited_certificate_does_not_count(cited_pair):
    table_cert, choice = cited_pair
    choice.write_text(choice.read_text().replace('"name"', '"name" ', 1))
    attainment = next(v for v in check_certificate(table_cert).verdicts if v.claim == "attainment")
    assert attainment.verdict is Verdict.UNCHECKED and "changed since it was cited" in attainment.reason


def test_certify_refuses_a_word_choice_of_another_network(cited_tree, tmp_path):
    choice = cited_tree[1]
    result = run_cli("certify", ROOT / "results" / "bubblesort-4.json", "--word-choice", choice, "-o",
                     tmp_path / "t.json")
    assert result.exit_code == 2 and not (tmp_path / "t.json").exists()
    assert result.output.strip().splitlines() == [
        f"tesearch: --word-choice {choice}: a certificate of pancake-4 total, not of bubblesort-4 total"]
