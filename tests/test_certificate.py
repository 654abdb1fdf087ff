"""Proof certificates: every file in proofs/ checks; tampering and satisfiable encodings are refuted."""

import importlib.util
import json
import random
from pathlib import Path

import pytest
import z3
from click.testing import CliRunner
from conftest import certificate_sandbox

from tesearch.checking import proof as proofcheck
from tesearch.checking.certificate import (RefutationRequest, Verdict, check_certificate, make_certificate,
                                  write_certificate)
from tesearch.cli import main
from tesearch.solvers.z3model import encode
from tesearch.facts.instance import instance
from tesearch.running.terms import SolveResult
from tesearch.running.errors import FormatError, OptionError
from tesearch.search.core import SearchParams, Searcher, Strategy
from tesearch.tables.table import read_table

ROOT = Path(__file__).resolve().parent.parent
CERTIFICATES = sorted((ROOT / "proofs").glob("*.json"))
#: the suite re-checks certificates up to this many nodes (the vectorised replay's range); the five larger
#: ones (star-8 total and odd, hypercube-14..16: minutes of streaming replay) are re-checked by
#: `python -m scripts.reproduce --check --deep`, as docs/reproducing.md says
SUITE_MAX_NODES = 12_000
IN_SUITE = [p for p in CERTIFICATES if json.loads(p.read_text())["network"]["order"] <= SUITE_MAX_NODES]
#: certificates with impossibility claims are swept here (z3, cvc5 and the DRAT check confirm the claims);
#: those without claims are swept with z3 and sympy unimportable in tests/test_check_without_solvers.py
WITH_CLAIMS = [p for p in IN_SUITE if json.loads(p.read_text())["impossibility_claims"]]
REPLAY_AVAILABLE = importlib.util.find_spec("tesearch.checking.replay") is not None
CYCLIC = ROOT / "proofs" / "ring-6-cyclic.json"
# CI installs only the test extra: cvc5 and python-sat may be missing (the DRAT re-check is pure Python)
HAVE_CVC5 = proofcheck.cvc5_version() is not None
HAVE_PYSAT = proofcheck.pysat_version() is not None


def verdicts(report) -> dict[str, Verdict]:
    return {v.claim: v.verdict for v in report.verdicts}


def reasons(report) -> str:
    return " | ".join(f"{v.claim}: {v.reason}" for v in report.verdicts)


# ---------------------------------------------------------------- the certificates in proofs/

def test_the_suite_leaves_out_only_the_largest_certificates():
    left_out = sorted(p.stem for p in set(CERTIFICATES) - set(IN_SUITE))
    assert left_out == ["frontier-hypercube-14", "frontier-hypercube-15", "frontier-hypercube-16",
                        "frontier-star-8", "frontier-star-8-odd"]


@pytest.mark.slow
@pytest.mark.parametrize("path", WITH_CLAIMS, ids=[p.name for p in WITH_CLAIMS])
def test_every_certificate_with_claims_checks(path):
    report = check_certificate(path, timeout_s=60)
    assert not report.refuted, reasons(report)
    for v in report.verdicts:
        if v.claim == "replay" and not REPLAY_AVAILABLE:
            assert v.verdict is Verdict.UNCHECKED
        elif v.claim == "replay" and v.verdict is Verdict.UNCHECKED:
            # the simulator refuses networks above its node limit; that is the only allowed gap
            assert "nodes" in v.reason, v.reason
        else:
            assert v.verdict is Verdict.CONFIRMED, f"{v.claim}: {v.reason}"


def test_the_small_certificates_exist():
    names = {p.name for p in CERTIFICATES}
    assert {"ring-6-seed003.json", "ring-6-cyclic.json"} <= names
    claim = json.loads(CYCLIC.read_text())["impossibility_claims"][0]
    assert claim["width"] == 5 and claim["scope"] == "full" and claim["encoding"]["path"].startswith("encodings/")
    assert set(claim["confirmed_by"]) == {"z3", "cvc5", "sat+drat"}


# ---------------------------------------------------------------- tampering

@pytest.fixture
def sandbox(tmp_path):
    """A copy of the ring-6:cyclic certificate and its files in a fresh root: (root, certificate dict, save)."""
    data = certificate_sandbox(tmp_path)
    target = tmp_path / "proofs" / "cert.json"

    def save(cert: dict) -> Path:
        target.write_text(json.dumps(cert))
        return target

    return tmp_path, data, save


def test_untampered_copy_is_confirmed(sandbox):
    root, data, save = sandbox
    report = check_certificate(save(data))
    assert not report.refuted, reasons(report)
    assert verdicts(report)["impossibility[0]"] is Verdict.CONFIRMED


def test_changed_word_is_refuted(sandbox):
    root, data, save = sandbox
    placements = data["table"]["content"]["placements"]
    row, col, word = placements[0]
    placements[0] = [row, col, ["a'" if s == "a" else "a" for s in word]]
    report = check_certificate(save(data))
    assert verdicts(report)["table"] is Verdict.REFUTED
    assert "sha256" in next(v.reason for v in report.verdicts if v.claim == "table")


def test_changed_word_with_recomputed_hash_is_refuted(sandbox):
    from tesearch.checking.certificate import table_sha256

    root, data, save = sandbox
    placements = data["table"]["content"]["placements"]
    placements[0] = [placements[0][0], placements[0][1], placements[0][2][:-1] or ["a"]]
    data["table"]["sha256"] = table_sha256(data["table"]["content"])
    report = check_certificate(save(data))
    assert verdicts(report)["table"] is Verdict.REFUTED
    assert verdicts(report)["optimality"] is Verdict.REFUTED


@pytest.mark.parametrize("key,value", [("counting", 6), ("per_letter", 5)])
def test_changed_bound_is_refuted(sandbox, key, value):
    root, data, save = sandbox
    data["bounds"][key]["value"] = value
    report = check_certificate(save(data))
    assert verdicts(report)["bounds"] is Verdict.REFUTED
    assert "recomputed" in next(v.reason for v in report.verdicts if v.claim == "bounds")


def test_changed_status_is_refuted(sandbox):
    root, data, save = sandbox
    data["network"]["status"] = 8
    assert verdicts(check_certificate(save(data)))["network"] is Verdict.REFUTED


def test_encoding_whose_hash_does_not_match_is_refuted(sandbox):
    root, data, save = sandbox
    path = root / data["impossibility_claims"][0]["encoding"]["path"]
    path.write_text(path.read_text().replace("(assert (not x_4_1_2))\n", ""))
    report = check_certificate(save(data))
    assert verdicts(report)["impossibility[0]"] is Verdict.REFUTED
    assert "sha256" in next(v.reason for v in report.verdicts if v.claim == "impossibility[0]")


def test_claim_about_another_width_is_refuted(sandbox):
    root, data, save = sandbox
    data["impossibility_claims"][0]["width"] = 4
    report = check_certificate(save(data))
    assert verdicts(report)["impossibility[0]"] is Verdict.REFUTED


def test_claim_wider_than_the_table_is_refuted(sandbox):
    root, data, save = sandbox
    data["impossibility_claims"][0]["width"] = 6
    report = check_certificate(save(data))
    reason = next(v.reason for v in report.verdicts if v.claim == "impossibility[0]")
    assert verdicts(report)["impossibility[0]"] is Verdict.REFUTED and "own table has width 6" in reason


def test_truncated_drat_proof_is_refuted(sandbox):
    """A proof that claims the empty clause before deriving it does not check.

    The kept ring encodings are refuted by unit propagation alone (their letter counts are
    fixed), so any proof of them checks; the pigeonhole formula PHP(3, 2) is not.
    """
    var = {(i, j): 2 * i + j + 1 for i in range(3) for j in range(2)}  # pigeon i in hole j
    clauses = [[var[i, 0], var[i, 1]] for i in range(3)]
    clauses += [[-var[i, j], -var[k, j]] for j in range(2) for i in range(3) for k in range(i + 1, 3)]
    php = proofcheck.Cnf(6, clauses)
    assert not proofcheck.check_drat(php, "0\n").accepted
    # a correct DRUP proof: pigeon 0 is in no hole, then the empty clause
    assert proofcheck.check_drat(php, "-1 0\n-2 0\n0\n").accepted
    # and through a certificate: a proof file that no longer matches its hash is refuted
    root, data, save = sandbox
    entry = next(c for c in data["impossibility_claims"][0]["confirmations"] if c["method"] == "sat+drat")
    path = root / entry["proof"]["path"]
    path.write_text("\n".join(path.read_text().splitlines()[:2]) + "\n0\n")
    report = check_certificate(save(data))
    reason = next(v.reason for v in report.verdicts if v.claim == "impossibility[0]")
    assert verdicts(report)["impossibility[0]"] is Verdict.REFUTED, reason


def test_optimality_without_support_is_refuted(sandbox):
    root, data, save = sandbox
    data["impossibility_claims"] = []
    content = data["table"]["content"]
    # a valid wider table: shift row 1 right by one column and widen to 7
    content["T"] = 7
    content["placements"] = [[r, c + (1 if r == 1 else 0), w] for r, c, w in content["placements"]]
    from tesearch.checking.certificate import table_sha256

    data["table"]["sha256"] = table_sha256(content)
    data["table"]["T"] = data["result"]["T"] = 7
    report = check_certificate(save(data))
    assert verdicts(report)["table"] is Verdict.CONFIRMED, reasons(report)
    assert verdicts(report)["optimality"] is Verdict.REFUTED


def test_missing_encoding_is_unchecked_not_confirmed(sandbox):
    root, data, save = sandbox
    (root / data["impossibility_claims"][0]["encoding"]["path"]).unlink()
    report = check_certificate(save(data))
    assert verdicts(report)["impossibility[0]"] is Verdict.UNCHECKED and not report.all_confirmed


# ---------------------------------------------------------------- a satisfiable encoding

def ring6_cyclic_encoding(width: int) -> str:
    kit = Searcher(instance("ring-6:cyclic"), SearchParams(Strategy.FULL))
    items = [kit.item(g) for g in kit.targets]
    return encode(kit.problem(f"{kit.network.spec} total", width, items)).to_smtlib2()


def test_claim_whose_encoding_is_satisfiable_is_refuted(sandbox):
    root, data, save = sandbox
    text = ring6_cyclic_encoding(6)
    path = root / "encodings" / "ring-6_cyclic-total-full-T6.smt2"
    path.write_text(text)
    claim = data["impossibility_claims"][0]
    claim.update({"claim": "no table of width 6 with this layout", "width": 6, "scope": "restricted"})
    claim["encoding"].update({"path": "encodings/ring-6_cyclic-total-full-T6.smt2",
                              "sha256": proofcheck.sha256_text(text)})
    report = check_certificate(save(data))
    reason = next(v.reason for v in report.verdicts if v.claim == "impossibility[0]")
    assert verdicts(report)["impossibility[0]"] is Verdict.REFUTED
    assert "z3 finds the encoding satisfiable" in reason
    assert ("cvc5 finds the encoding satisfiable" in reason) == HAVE_CVC5


def test_certify_refuses_a_satisfiable_encoding(tmp_path):
    path = tmp_path / "sat.smt2"
    path.write_text(ring6_cyclic_encoding(6))
    table = read_table(ROOT / "proofs" / "tables" / "ring-6-cyclic.json")
    with pytest.raises(Exception, match="z3 says sat"):
        make_certificate(table, name="x", refutations=[RefutationRequest(path, scope="restricted")], root=tmp_path)


@pytest.mark.skipif(not (HAVE_CVC5 or HAVE_PYSAT), reason="a second confirmation needs cvc5 or python-sat")
def test_make_and_check_round_trip(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "encodings").mkdir()
    encoding = tmp_path / "encodings" / "r6c-T5.smt2"
    encoding.write_text(ring6_cyclic_encoding(5))
    table = read_table(ROOT / "proofs" / "tables" / "ring-6-cyclic.json")
    cert = make_certificate(table, name="r6c", refutations=[RefutationRequest(encoding)], root=tmp_path,
                            command="test")
    assert cert["impossibility_claims"][0]["scope"] == "full"
    assert cert["bounds"]["binding"] == "per-letter" and cert["result"]["optimal"]
    (tmp_path / "proofs").mkdir()
    out = tmp_path / "proofs" / "r6c.json"
    write_certificate(cert, out)
    report = check_certificate(out)
    assert not report.refuted and verdicts(report)["impossibility[0]"] is Verdict.CONFIRMED


# ---------------------------------------------------------------- keep-better for certificates

def test_certify_never_replaces_a_certificate_by_one_that_claims_less(sandbox, monkeypatch):
    """Issue 41: `certify TABLE -o cert.json` replaced a certificate with an impossibility claim by one with none,
    exit 0, without --force. Now it is refused before any work, the file left as it was (what may replace it:
    the next test)."""
    root, data, save = sandbox
    monkeypatch.chdir(root)
    existing = save(data)
    before = existing.read_bytes()
    table = root / "t.json"
    table.write_text(json.dumps(data["table"]["content"]))
    runner = CliRunner()
    less = runner.invoke(main, ["certify", str(table), "-o", str(existing), "--quiet"])
    assert less.exit_code == 2, less.output
    assert "not replaced" in less.stderr and "'no table of width 5 for ring-6:cyclic total'" in less.stderr
    assert less.stderr.count("\n") == 1 and existing.read_bytes() == before


@pytest.mark.slow  # 6 s: two certify runs (z3, cvc5 and a DRAT proof; the replay and check-proof's whole check)
def test_certify_replaces_a_certificate_by_one_that_claims_as_much_or_with_force(sandbox, monkeypatch):
    root, data, save = sandbox
    monkeypatch.chdir(root)
    existing = save(data)
    table = root / "t.json"
    table.write_text(json.dumps(data["table"]["content"]))
    runner = CliRunner()
    encoding = data["impossibility_claims"][0]["encoding"]["path"]
    same = runner.invoke(main, ["certify", str(table), "--refutation", encoding, "-o", str(existing), "--quiet"])
    assert same.exit_code == 0, same.output
    assert json.loads(existing.read_text())["impossibility_claims"][0]["claim"] == data["impossibility_claims"][0]["claim"]
    forced = runner.invoke(main, ["certify", str(table), "-o", str(existing), "--force", "--quiet"])
    assert forced.exit_code == 0 and json.loads(existing.read_text())["impossibility_claims"] == []


def test_write_certificate_refuses_another_network_and_a_wider_table(sandbox):
    root, data, save = sandbox
    existing = save(data)
    before = existing.read_bytes()
    other = json.loads(json.dumps(data))
    other["network"]["spec"] = "ring-6:dihedral"
    with pytest.raises(OptionError, match="it certifies ring-6:cyclic total, not ring-6:dihedral total"):
        write_certificate(other, existing)
    wider = json.loads(json.dumps(data))
    wider["result"].update({"T": data["result"]["T"] + 1, "optimal": False})
    with pytest.raises(OptionError, match="a table of width 6 .this one: 7.; optimality"):
        write_certificate(wider, existing)
    assert existing.read_bytes() == before
    write_certificate(wider, existing, force=True)
    assert json.loads(existing.read_text())["result"]["T"] == 7


# ---------------------------------------------------------------- the command line

def test_check_proof_cli_exit_codes(sandbox, tmp_path):
    root, data, save = sandbox
    runner = CliRunner()
    good = runner.invoke(main, ["check-proof", str(CYCLIC)])
    assert good.exit_code == (0 if REPLAY_AVAILABLE else 4), good.output
    assert "confirmed  impossibility[0]" in good.output
    assert runner.invoke(main, ["check-proof", "--allow-unchecked", str(CYCLIC)]).exit_code == 0
    as_json = runner.invoke(main, ["check-proof", "--json", str(CYCLIC)])
    assert json.loads(as_json.stdout)["claims"][0]["verdict"] == "confirmed"
    data["bounds"]["counting"]["value"] = 4
    bad = runner.invoke(main, ["check-proof", str(save(data))])
    assert bad.exit_code == 1 and "refuted" in bad.output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    assert runner.invoke(main, ["check-proof", str(junk)]).exit_code == 2
    junk.write_text(json.dumps({"format": "tesearch-table"}))
    assert runner.invoke(main, ["check-proof", str(junk)]).exit_code == 2


def test_malformed_claim_is_a_format_error(sandbox):
    root, data, save = sandbox
    data["impossibility_claims"][0]["scope"] = "everything"
    with pytest.raises(FormatError):
        check_certificate(save(data))


# ---------------------------------------------------------------- the independent machinery

def random_pb_script(rng: random.Random) -> tuple[str, z3.CheckSatResult]:
    n = rng.randint(2, 7)
    xs = [z3.Bool(f"v{i}") for i in range(n)]
    solver = z3.Solver()
    for _ in range(rng.randint(1, 5)):
        sub = rng.sample(xs, rng.randint(1, n))
        coeffs = [(x, rng.randint(1, 3)) for x in sub]
        bound = rng.randint(0, 6)
        kind = rng.choice(["eq", "le", "ge", "atmost", "atleast", "or", "notle", "xor"])
        solver.add({"eq": lambda: z3.PbEq(coeffs, bound), "le": lambda: z3.PbLe(coeffs, bound),
                    "ge": lambda: z3.PbGe(coeffs, bound), "atmost": lambda: z3.AtMost(*sub, rng.randint(1, len(sub))),
                    "atleast": lambda: z3.AtLeast(*sub, rng.randint(1, len(sub))),
                    "or": lambda: z3.Or(*[x if rng.random() < 0.5 else z3.Not(x) for x in sub]),
                    "notle": lambda: z3.Not(z3.PbLe(coeffs, bound)), "xor": lambda: z3.Xor(sub[0], xs[-1])}[kind]())
    return "(set-logic QF_LIA)\n" + solver.sexpr() + "(check-sat)\n", solver.check()


def test_cnf_and_standard_forms_agree_with_z3_on_random_pb_problems():
    pytest.importorskip("pysat")
    rng = random.Random(7)
    seen = set()
    for _ in range(60):
        text, expected = random_pb_script(rng)
        want = SolveResult.SAT if expected == z3.sat else SolveResult.UNSAT
        seen.add(want)
        cnf = proofcheck.to_cnf(text)
        run, proof = proofcheck.run_sat_with_proof(cnf)
        assert run.result is want, text
        if want is SolveResult.UNSAT:
            assert proofcheck.check_drat(cnf, proof).accepted, text
        assert proofcheck.run_z3(proofcheck.to_standard_smtlib2(text), 10).result is want, text
    assert seen == {SolveResult.SAT, SolveResult.UNSAT}


def test_drat_checker_rejects_a_non_implied_lemma():
    cnf = proofcheck.Cnf(2, [[1, 2], [-1, 2], [1, -2], [-1, -2]])
    assert proofcheck.check_drat(cnf, "2 0\n0\n").accepted
    sat_cnf = proofcheck.Cnf(2, [[1, 2], [-1, 2]])
    assert not proofcheck.check_drat(sat_cnf, "-2 0\n0\n").accepted
    assert not proofcheck.check_drat(sat_cnf, "").accepted
