"""Issue 28, item 1: the checker rebuilds what it checks.

An impossibility claim is confirmed only against the kernel's own encoding (tesearch.checking.kernel.encoding):
a forged, mutated, other network's or other width's file is REFUTED, naming the difference; a header
comment is never evidence.  certify refuses what check-proof would refute, and huge numbers are one line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import certificate_sandbox

from tesearch.checking import proof as proof_tools
from tesearch.checking.certificate import Verdict, check_certificate, make_certificate, write_certificate
from tesearch.cli import main
from tesearch.solvers.z3model import encode
from tesearch.running.errors import OptionError
from tesearch.facts.instance import instance
from tesearch.checking.kernel import build_network, input_from_json, target_mask
from tesearch.checking.kernel.encoding import compare_with_kernel, kernel_encoding
from tesearch.networks.families import network_from_spec
from tesearch.search.core import SearchParams, Searcher, Strategy
from tesearch.tables.table import read_table
from tesearch.running.terms import Exchange

ROOT = Path(__file__).resolve().parent.parent
CYCLIC = ROOT / "proofs" / "ring-6-cyclic.json"
ENCODING_T5 = "encodings/ring-6_cyclic-total-full-T5.smt2"


def prover_encoding(spec: str, exchange: str, width: int, **params) -> str:
    """The prover's own file (tesearch.solvers.z3model) for a full search at one width."""
    kit = Searcher(instance(spec, exchange), SearchParams(Strategy.FULL, **params))
    items = [kit.item(g) for g in kit.targets]
    return encode(kit.problem(f"{kit.network.spec} {exchange}", width, items)).to_smtlib2()


def kernel_for(spec: str, exchange: str, width: int):
    gens = network_from_spec(spec).generators_json()
    net = build_network(list(gens), [tuple(v) for v in gens.values()])
    return kernel_encoding(net, target_mask(net, Exchange(exchange)), width)


def differences(text: str, spec: str = "ring-6:cyclic", exchange: str = "total", width: int = 5) -> str:
    comparison = compare_with_kernel(text, kernel_for(spec, exchange, width), f"{spec} {exchange}")
    assert not comparison.equal
    return comparison.reason()


# ---------------------------------------------------------------- the kernel's encoding is the prover's

@pytest.mark.parametrize("spec,exchange,widths", [
    ("ring-6:cyclic", "total", [4, 5, 6]), ("ring-8:cyclic", "total", [8, 9]), ("star-4", "total", [20, 23]),
    ("star-4", "odd-distance", [10, 11]), ("torus-3x3", "total", [4]), ("bubblesort-4", "total", [14]),
])
def test_the_kernel_encoding_equals_the_prover_file(spec, exchange, widths):
    for width in widths:
        comparison = compare_with_kernel(prover_encoding(spec, exchange, width), kernel_for(spec, exchange, width),
                                         f"{spec} {exchange}")
        assert comparison.equal, comparison.reason()


def test_every_committed_encoding_is_the_kernel_encoding():
    seen = 0
    for path in sorted((ROOT / "proofs").glob("*.json")):
        if path.stat().st_size > 1_000_000:  # the large frontier certificates hold no claims
            continue
        data = json.loads(path.read_text())
        if not data["impossibility_claims"]:
            continue
        inp = input_from_json(data["table"]["content"])
        net = build_network(inp.letters, inp.generators)
        for claim in data["impossibility_claims"]:
            kernel = kernel_encoding(net, target_mask(net, inp.exchange), claim["width"])
            comparison = compare_with_kernel((ROOT / claim["encoding"]["path"]).read_text(), kernel, inp.network)
            assert comparison.equal, f"{path.name} width {claim['width']}: {comparison.reason()}"
            seen += 1
    assert seen >= 9


def test_the_kernel_text_is_its_own_encoding_and_z3_agrees():
    kernel = kernel_for("ring-6:cyclic", "total", 5)
    assert compare_with_kernel(kernel.to_smtlib2(), kernel, "ring-6:cyclic total").equal
    assert proof_tools.run_z3(kernel.to_smtlib2(), 30).result.value == "unsat"
    wider = kernel_for("ring-6:cyclic", "total", 6)
    assert proof_tools.run_z3(wider.to_smtlib2(), 30).result.value == "sat"


# ---------------------------------------------------------------- mutations, each named

def committed_t5() -> str:
    return (ROOT / ENCODING_T5).read_text()


def test_dropping_the_column_section_is_named():
    lines = [line for line in committed_t5().splitlines() if not line.startswith("(assert ((_ at-most")]
    reason = differences("\n".join(lines) + "\n")
    assert "lacks the column constraint for letter" in reason and "at column" in reason


def test_dropping_one_column_constraint_is_named():
    text = committed_t5()
    line = next(line for line in text.splitlines() if line.startswith("(assert ((_ at-most"))
    reason = differences(text.replace(line + "\n", ""))
    assert reason.startswith("the encoding lacks the column constraint for letter"), reason


def test_weakening_one_constraint_is_named():
    text = committed_t5()
    line = next(line for line in text.splitlines() if line.startswith("(assert ((_ at-most 1)"))
    reason = differences(text.replace(line, line.replace("(_ at-most 1)", "(_ at-most 2)")))
    assert "column constraint for letter" in reason and "is changed" in reason and "<= 2" in reason, reason


def test_strengthening_one_constraint_is_named():
    text = committed_t5()
    reason = differences(text.replace("(check-sat)", "(assert (not x_0_0_0))\n(check-sat)"))
    assert "adds a constraint the kernel does not have: x_0_0_0 <= 0" in reason, reason
    line = next(line for line in text.splitlines() if line.startswith("(assert ((_ pbeq"))
    reason = differences(text.replace(line, line.replace("pbeq 1 ", "pbeq 2 ")))
    assert "placement constraint of target" in reason and "is changed" in reason, reason


def test_another_width_is_named():
    reason = differences(prover_encoding("ring-6:cyclic", "total", 4))
    assert "it encodes width 4" in reason and "the claim says 5" in reason, reason


def test_another_network_is_named():
    reason = differences((ROOT / "encodings" / "ring-4_cyclic-total-full-T2.smt2").read_text())
    assert "another network" in reason, reason
    reason = differences(prover_encoding("star-4", "odd-distance", 11), "star-4", "total", 11)
    assert "another network or exchange" in reason, reason


def test_a_forged_header_changes_nothing():
    """The header is a comment: a true header on a false body is refuted, a false header on a true body is not
    what the comparison reads."""
    forged = ("; tesearch encoding: ring-6:cyclic total T=5 items=5 pb+count+exact+mirror\n"
              "; candidate words complete: True\n(declare-fun x_0_0_0 () Bool)\n"
              "(assert ((_ pbge 2 1) x_0_0_0))\n(check-sat)\n(exit)\n")
    assert "another network or exchange" in differences(forged)
    relabelled = committed_t5().replace("T=5", "T=9")
    assert compare_with_kernel(relabelled, kernel_for("ring-6:cyclic", "total", 5), "x").equal


def test_sampled_words_are_not_a_full_encoding():
    reason = differences(prover_encoding("ring-6:cyclic", "total", 5, word_cap=1))
    assert "lacks the placement x_4_1_0" in reason, reason


# ---------------------------------------------------------------- through check-proof

@pytest.fixture
def sandbox(tmp_path):
    """A copy of the ring-6:cyclic certificate, its encoding and proof in a fresh root."""
    return tmp_path, certificate_sandbox(tmp_path)


def swap_encoding(root: Path, data: dict, text: str, name: str = "encodings/forged.smt2") -> Path:
    """Point the claim at a new file with every hash recomputed and a DRAT proof that checks for it."""
    (root / name).write_text(text)
    claim = data["impossibility_claims"][0]
    claim["encoding"].update({"path": name, "sha256": proof_tools.sha256_text(text), "bytes": len(text.encode())})
    entry = next(c for c in claim["confirmations"] if c["method"] == "sat+drat")
    cnf = proof_tools.to_cnf(text)
    proof_text = "0\n"  # the forged files below are refuted by unit propagation
    assert proof_tools.check_drat(cnf, proof_text).accepted
    (root / "encodings" / "forged.drat").write_text(proof_text)
    entry["cnf"].update({"sha256": cnf.sha256, "variables": cnf.variables, "clauses": len(cnf.clauses)})
    entry["proof"].update({"path": "encodings/forged.drat", "sha256": proof_tools.sha256_text(proof_text)})
    target = root / "proofs" / "cert.json"
    target.write_text(json.dumps(data))
    return target


def claim_verdict(report):
    return next(v for v in report.verdicts if v.claim == "impossibility[0]")


def test_the_forged_certificate_is_refuted(sandbox):
    """The issue's reproduction, on ring-6:cyclic: a header-only 'encoding' whose body is trivially unsat.

    Before the kernel's encoder this was CONFIRMED (z3, cvc5 and the DRAT check all say unsat)."""
    root, data = sandbox
    forged = ("; tesearch encoding: ring-6:cyclic total T=5 items=5 pb+count+exact+mirror\n"
              "; sections: one placement per item=5, letters in columns=10, letter counts=3, symmetry breaking=2\n"
              "; candidate words complete: True\n(declare-fun x_0_0_0 () Bool)\n(declare-fun x_0_0_1 () Bool)\n"
              "(assert ((_ pbge 3 1 1) x_0_0_0 x_0_0_1))\n(check-sat)\n(exit)\n")
    report = check_certificate(swap_encoding(root, data, forged))
    verdict = claim_verdict(report)
    assert verdict.verdict is Verdict.REFUTED, verdict.reason
    assert "not the kernel's encoding" in verdict.reason and "5 targets" in verdict.reason


@pytest.mark.parametrize("mutate,expected", [
    (lambda t: t.replace("(_ at-most 1)", "(_ at-most 2)", 1), "is changed"),
    (lambda t: "\n".join(l for l in t.splitlines() if not l.startswith("(assert ((_ pbeq")) + "\n",
     "lacks the placement constraint"),
    (lambda t: t.replace("(check-sat)", "(assert x_0_0_0)\n(check-sat)"), "adds a constraint"),
])
def test_mutated_encodings_are_refuted_by_check_proof(sandbox, mutate, expected):
    root, data = sandbox
    text = mutate(committed_t5())
    (root / "encodings" / "m.smt2").write_text(text)
    claim = data["impossibility_claims"][0]
    claim["encoding"].update({"path": "encodings/m.smt2", "sha256": proof_tools.sha256_text(text),
                              "bytes": len(text.encode())})
    target = root / "proofs" / "cert.json"
    target.write_text(json.dumps(data))
    verdict = claim_verdict(check_certificate(target))
    assert verdict.verdict is Verdict.REFUTED and expected in verdict.reason, verdict.reason


def test_another_width_file_is_refuted_by_check_proof(sandbox):
    root, data = sandbox
    text = prover_encoding("ring-6:cyclic", "total", 4)
    (root / "encodings" / "w4.smt2").write_text(text)
    claim = data["impossibility_claims"][0]
    claim["encoding"].update({"path": "encodings/w4.smt2", "sha256": proof_tools.sha256_text(text),
                              "bytes": len(text.encode())})
    (root / "proofs" / "cert.json").write_text(json.dumps(data))
    verdict = claim_verdict(check_certificate(root / "proofs" / "cert.json"))
    assert verdict.verdict is Verdict.REFUTED and "it encodes width 4 (its placements reach column 3), the claim says 5" in verdict.reason


def test_the_statement_is_the_checker_own(sandbox):
    root, data = sandbox
    data["impossibility_claims"][0]["claim"] = "no table of width 5 for star-9 total"
    (root / "proofs" / "cert.json").write_text(json.dumps(data))
    verdict = claim_verdict(check_certificate(root / "proofs" / "cert.json"))
    assert verdict.verdict is Verdict.CONFIRMED, verdict.reason
    assert verdict.statement == "no table of width 5 for ring-6:cyclic total"


def test_a_restricted_claim_is_never_confirmed(sandbox):
    root, data = sandbox
    data["impossibility_claims"][0]["scope"] = "restricted"
    (root / "proofs" / "cert.json").write_text(json.dumps(data))
    verdict = claim_verdict(check_certificate(root / "proofs" / "cert.json"))
    assert verdict.verdict is Verdict.UNCHECKED and "does not rebuild" in verdict.reason


# ---------------------------------------------------------------- certify

def star4_table(tmp_path: Path, **changes) -> Path:
    data = json.loads((ROOT / "results" / "star-4.json").read_text())
    data.update(changes)
    path = tmp_path / "star-4-table.json"
    path.write_text(json.dumps(data))
    return path


def test_certify_refuses_the_forged_encoding(tmp_path, monkeypatch):
    """The issue's reproduction: star-4 at width 24 with an 'encoding' of width 23 that is a header."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "encodings").mkdir()
    (tmp_path / "proofs").mkdir()
    (tmp_path / "encodings" / "X.smt2").write_text(
        "; tesearch encoding: star-4 total T=23 items=23 pb+count+exact+mirror\n; candidate words complete: True\n"
        "(declare-fun x_0_0_0 () Bool)\n(assert ((_ pbge 2 1) x_0_0_0))\n(check-sat)\n(exit)\n")
    table = star4_table(tmp_path, T=24)
    monkeypatch.chdir(tmp_path)
    run = CliRunner().invoke(main, ["certify", str(table), "--refutation", "encodings/X.smt2",
                                    "-o", "proofs/f.json"])
    assert run.exit_code == 2, run.output
    assert "not the kernel's encoding of no table of width 23 for star-4 total" in run.output
    assert not (tmp_path / "proofs" / "f.json").exists()


def test_certify_refuses_a_recorded_lower_bound_the_kernel_does_not_derive(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    table = star4_table(tmp_path, lower_bound=25)
    monkeypatch.chdir(tmp_path)
    run = CliRunner().invoke(main, ["certify", str(table), "-o", "c.json"])
    assert run.exit_code == 2 and "lower_bound is 25" in run.output and "counting bound" in run.output \
        and "is 21" in run.output, run.output
    assert not (tmp_path / "c.json").exists()
    run = CliRunner().invoke(main, ["verify", str(table)])
    assert run.exit_code == 1 and "lower_bound is 25" in run.output, run.output


def test_certify_never_writes_what_check_proof_refutes(tmp_path):
    """The in-memory check: a certificate whose recorded figures check-proof would refute is not returned."""
    (tmp_path / "pyproject.toml").write_text("")
    table = read_table(ROOT / "proofs" / "tables" / "ring-6-cyclic.json")
    table.extra["letter_bound"] = 5  # below the kernel's exact per-letter bound 6
    with pytest.raises(OptionError, match="letter_bound 5"):
        make_certificate(table, name="x", root=tmp_path)


def test_certify_keeps_an_unchanged_drat_file(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "encodings").mkdir()
    encoding = tmp_path / ENCODING_T5
    shutil.copy(ROOT / ENCODING_T5, encoding)
    table = read_table(ROOT / "proofs" / "tables" / "ring-6-cyclic.json")
    from tesearch.checking.certificate import RefutationRequest

    make_certificate(table, name="a", refutations=[RefutationRequest(encoding)], root=tmp_path)
    drat = encoding.with_suffix(".drat")
    first = drat.stat().st_mtime_ns
    import os

    os.utime(drat, ns=(first - 10 ** 10, first - 10 ** 10))
    cert = make_certificate(table, name="a", refutations=[RefutationRequest(encoding)], root=tmp_path)
    assert drat.stat().st_mtime_ns == first - 10 ** 10  # same bytes: not rewritten
    write_certificate(cert, tmp_path / "c.json")
    assert not check_certificate(tmp_path / "c.json").refuted


# ---------------------------------------------------------------- huge numbers

@pytest.mark.parametrize("where", ["T", "width", "column", "bound", "status"])
def test_huge_numbers_in_a_certificate_are_one_line(tmp_path, where):
    data = json.loads(CYCLIC.read_text())
    huge = 10 ** 20
    if where == "T":
        data["table"]["content"]["T"] = huge
    elif where == "width":
        data["impossibility_claims"][0]["width"] = huge
    elif where == "column":
        data["table"]["content"]["placements"][0][1] = huge
    elif where == "bound":
        data["bounds"]["per_letter"]["value"] = huge
    else:
        data["network"]["status"] = huge
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    run = CliRunner().invoke(main, ["check-proof", str(path)])
    assert run.exit_code == 2, run.output
    assert len(run.output.strip().splitlines()) == 1 and "larger than" in run.output


def test_the_kernel_loader_refuses_a_huge_t():
    data = json.loads((ROOT / "results" / "star-4.json").read_text())
    data["T"] = 2 ** 40
    with pytest.raises(Exception, match="larger than"):
        input_from_json(data)
    data = json.loads((ROOT / "results" / "star-4.json").read_text())
    data["T"] = 2 ** 20  # wide, but a number the loader takes
    assert input_from_json(data).T == 2 ** 20


# ---------------------------------------------------------------- every other fact: re-derived or unchecked

def verdict_of(report, claim: str):
    return next(v for v in report.verdicts if v.claim == claim)


@pytest.mark.parametrize("change,claim,expected", [
    (lambda d: d["network"].update(letters=["b", "a"]), "network", "letters: recorded"),
    (lambda d: d["bounds"]["per_letter"]["letter_minima"].update(a=4), "bounds", "letter_minima"),
    (lambda d: d["table_checks"]["theorem1"].update(words=7), "table", "table_checks.theorem1.words"),
    (lambda d: next(c for c in d["impossibility_claims"][0]["confirmations"] if c["method"] == "sat+drat")
     ["cnf"].update(clauses=1), "impossibility[0]", "clauses, the certificate records 1"),
    (lambda d: d["impossibility_claims"][0]["encoding"].update(bytes=1), "impossibility[0]", "the certificate "
     "records 1"),
])
def test_recorded_facts_are_re_derived(sandbox, change, claim, expected):
    root, data = sandbox
    change(data)
    (root / "proofs" / "cert.json").write_text(json.dumps(data))
    verdict = verdict_of(check_certificate(root / "proofs" / "cert.json"), claim)
    assert verdict.verdict is Verdict.REFUTED and expected in verdict.reason, verdict.reason


def test_an_attainment_is_confirmed_by_a_known_choice_and_refuted_below_the_bound(tmp_path):
    """star-4's table (T = 21) is a choice of words with no letter more than 21 times: 'exact' is witnessed;
    a claimed attainable count below the per-letter bound is refuted."""
    data = json.loads((ROOT / "proofs" / "star-4.json").read_text())
    entry = data["bounds"]["per_letter"]
    assert entry["value"] == 21
    (tmp_path / "pyproject.toml").write_text("")
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data))
    assert verdict_of(check_certificate(path), "attainment").verdict is Verdict.CONFIRMED
    entry["achievable_max_letter_count"] = 20  # below the bound: impossible
    path.write_text(json.dumps(data))
    assert verdict_of(check_certificate(path), "bounds").verdict is Verdict.REFUTED


def test_an_attainment_no_known_choice_reaches_is_unchecked(tmp_path):
    """bubblesort-6: the prover's Z3 optimum says 1128 is attainable; the kernel's best choice has 1130 and the
    table more, so without the word-choice certificate it cites it is unchecked (never confirmed on trust), and the
    lower bound 1128 is still confirmed; the committed certificate cites proofs/word-choice/bubblesort-6.json, whose
    listed words attain 1128: confirmed (issue 47)."""
    committed = ROOT / "proofs" / "frontier-bubblesort-6.json"
    cited = verdict_of(check_certificate(committed), "attainment")
    assert cited.verdict is Verdict.CONFIRMED and "proofs/word-choice/bubblesort-6.json" in cited.reason, cited.reason
    data = json.loads(committed.read_text())
    del data["bounds"]["per_letter"]["attained_by"]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data))
    report = check_certificate(path)
    attained = verdict_of(report, "attainment")
    assert attained.verdict is Verdict.UNCHECKED and "best known: 1130" in attained.reason, attained.reason
    assert verdict_of(report, "bounds").verdict is Verdict.CONFIRMED and not report.refuted


def test_a_huge_solver_timeout_is_clamped_not_a_crash():
    """--solver-timeout 1e20 once crashed cvc5's option parser (exit 70). A limit above 2^32 - 1 ms (49.7 days) but
    within the CLI's one-year cap is clamped for the solvers; a limit beyond the cap is a one-line exit 2."""
    assert proof_tools.solvers.timeout_ms(1e20) == proof_tools.solvers.MAX_TIMEOUT_MS
    assert proof_tools.solvers.timeout_ms(0.0001) == 1 and proof_tools.solvers.timeout_ms(2.5) == 2500
    ninety_days = str(90 * 24 * 3600)
    assert float(ninety_days) * 1000 > proof_tools.solvers.MAX_TIMEOUT_MS
    run = CliRunner().invoke(main, ["check-proof", "--solver-timeout", ninety_days, str(CYCLIC)])
    assert run.exit_code == 0, run.output
    run = CliRunner().invoke(main, ["check-proof", "--solver-timeout", "99999999999999999999", str(CYCLIC)])
    assert run.exit_code == 2 and "at most 31536000 seconds" in run.output, run.output
    assert "Traceback" not in run.output and len(run.output.strip().splitlines()) == 1, run.output
