"""The checking commands refuse what they cannot stand behind (issue 14): names are checked, certify writes
nothing it cannot stand behind, certificate paths are confined, a partial check never claims optimality."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tesearch.checking.certificate import check_certificate, table_sha256
from tesearch.cli import main
from tesearch.running.terms import Verdict

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.fixture
def mislabelled(tmp_path):
    """star-4's table and certificate, both saying network star-5."""
    table = json.loads((ROOT / "results" / "star-4.json").read_text())
    table["network"] = "star-5"
    table_path = tmp_path / "star-4-as-5.json"
    table_path.write_text(json.dumps(table))
    cert = json.loads((ROOT / "proofs" / "star-4.json").read_text())
    cert["table"]["content"]["network"] = cert["network"]["spec"] = "star-5"
    cert["table"]["sha256"] = table_sha256(cert["table"]["content"])
    cert_path = tmp_path / "cert.json"
    cert_path.write_text(json.dumps(cert))
    return table_path, cert_path


# ---------------------------------------------------------------- names are checked, never trusted

def test_verify_refuses_another_networks_generators(mislabelled):
    table_path, _ = mislabelled
    result = run("verify", table_path)
    assert result.exit_code == 2 and "star-5" in one_line(result), result.output
    assert one_line(result).startswith(f"tesearch: {table_path}: ")  # the file, not "table:" (issue 39 item 8)


def test_certify_refuses_another_networks_generators_and_writes_nothing(mislabelled, tmp_path):
    table_path, _ = mislabelled
    out = tmp_path / "x.json"
    result = run("certify", table_path, "-o", out)
    assert result.exit_code == 2 and "star-5" in one_line(result)
    assert not out.exists()


def test_check_proof_refutes_a_mislabelled_network(mislabelled):
    _, cert_path = mislabelled
    report = check_certificate(cert_path, root=ROOT)
    network = next(v for v in report.verdicts if v.claim == "network")
    assert network.verdict is Verdict.REFUTED and "star-5" in network.reason and "3 letters" in network.reason
    assert run("check-proof", cert_path).exit_code in (1, 2)


# ---------------------------------------------------------------- certify refuses what it cannot stand behind

def test_certify_refuses_an_encoding_of_another_network(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "x.json"
    result = run("certify", "results/ring-6-cyclic.json", "--refutation",
                 "encodings/ring-12_cyclic-total-full-T18.smt2", "-o", out)
    line = one_line(result)
    assert result.exit_code == 2 and "ring-12:cyclic" in line and "ring-6:cyclic" in line, result.output
    assert not out.exists()


def test_certify_refuses_a_missing_encoding_and_an_unwritable_output(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "x.json"
    missing = run("certify", "results/ring-6-cyclic.json", "--refutation", "/nope.smt2", "-o", out)
    assert missing.exit_code == 2 and "/nope.smt2" in one_line(missing)
    assert not out.exists()
    unwritable = run("certify", "results/ring-6-cyclic.json", "-o", "/proc/x.json")
    assert unwritable.exit_code == 2 and "/proc" in one_line(unwritable)


# ---------------------------------------------------------------- paths in certificates are confined

@pytest.mark.parametrize("bad_path", ["/etc/passwd", "../../../x"])
def test_encoding_path_outside_the_tree_is_refuted_and_never_read(tmp_path, bad_path, monkeypatch):
    (tmp_path / "proofs").mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    data = json.loads((ROOT / "proofs" / "ring-6-cyclic.json").read_text())
    data["impossibility_claims"][0]["encoding"]["path"] = bad_path
    target = tmp_path / "proofs" / "cert.json"
    target.write_text(json.dumps(data))
    opened = []
    real = Path.read_bytes

    def spy(self):
        opened.append(str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", spy)
    report = check_certificate(target)
    claim = next(v for v in report.verdicts if v.claim == "impossibility[0]")
    assert claim.verdict is Verdict.REFUTED and bad_path in claim.reason
    assert not any("passwd" in p or p.endswith("/x") for p in opened)


def test_drat_path_outside_the_tree_is_refuted(tmp_path):
    for sub in ("proofs", "encodings"):
        (tmp_path / sub).mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    data = json.loads((ROOT / "proofs" / "ring-6-cyclic.json").read_text())
    claim = data["impossibility_claims"][0]
    shutil.copy(ROOT / claim["encoding"]["path"], tmp_path / claim["encoding"]["path"])
    next(c for c in claim["confirmations"] if c["method"] == "sat+drat")["proof"]["path"] = "/etc/passwd"
    target = tmp_path / "proofs" / "cert.json"
    target.write_text(json.dumps(data))
    verdict = next(v for v in check_certificate(target).verdicts if v.claim == "impossibility[0]")
    assert verdict.verdict is Verdict.REFUTED and "/etc/passwd" in verdict.reason


# ---------------------------------------------------------------- a partial check never claims optimality

def test_partial_verify_of_an_empty_core_is_not_optimal(tmp_path):
    table = json.loads((ROOT / "results" / "star-4.json").read_text())
    table["placements"] = []
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(table))
    result = run("verify", "--partial", path)
    assert result.exit_code == 0, result.output
    assert "VALID CORE (0 of 23 targets placed)" in result.output and "OPTIMAL" not in result.output
    as_json = json.loads(run("verify", "--partial", "--json", path).stdout)
    assert as_json["optimal"] is False and as_json["partial"] is True


# ---------------------------------------------------------------- a bound stronger than the kernel derives

@pytest.fixture
def ring6_cyclic_sandbox(tmp_path, monkeypatch):
    """ring-6:cyclic's certificate and files in a fresh root, with the kernel's exact enumeration switched off
    (so the kernel derives only 5, the counting bound, against the recorded per-letter 6)."""
    import tesearch.checking.kernel.bounds as kernel_bounds

    monkeypatch.setattr(kernel_bounds, "MAX_ENUMERATION_ORDER", 0)
    for sub in ("proofs", "encodings"):
        (tmp_path / sub).mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    data = json.loads((ROOT / "proofs" / "ring-6-cyclic.json").read_text())
    claim = data["impossibility_claims"][0]
    shutil.copy(ROOT / claim["encoding"]["path"], tmp_path / claim["encoding"]["path"])
    proof = next(c for c in claim["confirmations"] if c["method"] == "sat+drat")["proof"]
    shutil.copy(ROOT / proof["path"], tmp_path / proof["path"])
    return tmp_path, data


def test_a_stronger_recorded_bound_stands_on_confirmed_impossibility_claims(ring6_cyclic_sandbox):
    root, data = ring6_cyclic_sandbox
    target = root / "proofs" / "cert.json"
    target.write_text(json.dumps(data))
    report = check_certificate(target)
    bounds = next(v for v in report.verdicts if v.claim == "bounds")
    assert bounds.verdict is Verdict.CONFIRMED and "impossibility claims refute every width from 5 to 5" in bounds.reason
    assert report.all_confirmed


def test_a_stronger_recorded_bound_without_support_is_unchecked_not_refuted(ring6_cyclic_sandbox):
    root, data = ring6_cyclic_sandbox
    data["impossibility_claims"] = []
    target = root / "proofs" / "cert.json"
    target.write_text(json.dumps(data))
    report = check_certificate(target)
    verdicts = {v.claim: v for v in report.verdicts}
    assert verdicts["bounds"].verdict is Verdict.UNCHECKED and "exceeds what the kernel derives" in verdicts["bounds"].reason
    assert verdicts["optimality"].verdict is Verdict.UNCHECKED and not report.refuted
