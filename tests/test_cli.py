"""The command line: JSON keys, one-line errors and exit codes, nothing half-written."""

import json

import pytest
from click.testing import CliRunner

from tesearch.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_info_json_keys():
    result = run("info", "star-5", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    for key in ("nodes", "degree", "diameter", "distance_distribution", "network_status", "lower_bound", "exceptional"):
        assert key in data
    assert data["nodes"] == 120 and data["network_status"] == 442 and data["lower_bound"] == 111
    assert sum(data["distance_distribution"]) == 120 and len(data["exceptional"]) == 7


def test_info_text_mentions_binding_bound():
    result = run("info", "torus-4x8")
    assert result.exit_code == 0 and "per-letter binds" in result.output


@pytest.mark.parametrize("spec", ["star-2", "torus-0x3", "ring-5:dihedral", "hypercube-x", "missing-file.json"])
def test_bad_specs_exit_2_with_one_line(spec):
    result = run("info", spec)
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("tesearch:")


@pytest.mark.parametrize("content,fragment", [
    ('{"generators": {"a": [1, 2, 0]}}', "not closed under inverses"),
    ('{"generators": {"a": [1, 1, 0]}}', "not a permutation"),
    ("[1, 2", "not valid JSON"),
])
def test_bad_generator_files(tmp_path, content, fragment):
    path = tmp_path / "g.json"
    path.write_text(content)
    result = run("info", str(path))
    assert result.exit_code == 2 and fragment in result.output


def test_search_writes_a_verified_table_and_verify_accepts_it(tmp_path):
    out = tmp_path / "t.json"
    result = run("search", "star-4", "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    assert "OPTIMAL" in result.output
    check = run("verify", str(out), "--json")
    assert check.exit_code == 0 and json.loads(check.stdout)["optimal"] is True


def test_search_exit_3_when_refuted(tmp_path):
    out = tmp_path / "t.json"
    result = run("search", "ring-8:cyclic", "--from-width", "8", "--max-width", "9", "--out", str(out), "--quiet")
    assert result.exit_code == 3
    assert not out.exists()


def test_verify_reports_broken_table_with_exit_1(tmp_path):
    out = tmp_path / "t.json"
    run("search", "ring-6", "--out", str(out), "--quiet")
    data = json.loads(out.read_text())
    data["placements"][0][1] += 1  # shift a word one column
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("verify", str(bad))
    assert result.exit_code == 1 and "INVALID" in result.output


def test_verify_malformed_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tesearch-table"}')
    result = run("verify", str(bad))
    assert result.exit_code == 2 and "missing key" in result.output


def test_keep_better_never_replaces_a_table_that_is_no_wider(tmp_path):
    out = tmp_path / "t.json"
    assert run("search", "ring-8:cyclic", "--out", str(out), "--quiet").exit_code == 0
    mine = json.loads(out.read_text())
    assert mine["T"] == 10
    mine["note"] = "mine"
    out.write_text(json.dumps(mine))
    # a rerun finds T = 10 too, no narrower: the file is left alone ...
    result = run("search", "ring-8:cyclic", "--out", str(out), "--json", "--quiet")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["kept_existing_T"] == 10 and data["table"] is None
    assert json.loads(out.read_text()).get("note") == "mine"
    text = run("search", "ring-8:cyclic", "--out", str(out), "--quiet")
    assert "kept" in text.stdout and "written to" not in text.stdout
    # ... a wider valid table there (the same words, two blank columns more) is replaced ...
    mine["T"] = 12
    out.write_text(json.dumps(mine))
    assert run("verify", str(out)).exit_code == 0
    result = run("search", "ring-8:cyclic", "--out", str(out), "--quiet")
    assert result.exit_code == 0 and "written to" in result.stdout
    assert json.loads(out.read_text())["T"] == 10
    # ... and --force always rewrites it
    mine["T"] = 10
    out.write_text(json.dumps(mine))
    assert run("search", "ring-8:cyclic", "--out", str(out), "--force", "--quiet").exit_code == 0
    assert "note" not in json.loads(out.read_text())


def test_an_output_file_that_is_not_a_table_is_never_replaced(tmp_path):
    out = tmp_path / "notes.json"
    out.write_text("my notes, not a table\n")
    result = run("search", "ring-6", "--out", str(out), "--quiet")
    assert result.exit_code == 2 and "not replaced" in result.stderr
    assert out.read_text() == "my notes, not a table\n"
    other = tmp_path / "other.json"
    assert run("search", "ring-8", "--out", str(other), "--quiet").exit_code == 0
    before = other.read_bytes()
    result = run("search", "ring-6", "--out", str(other), "--quiet")
    assert result.exit_code == 2 and "holds a table of ring-8" in result.stderr
    assert other.read_bytes() == before


def test_a_table_of_another_network_with_the_same_custom_label_is_not_kept_as_better(tmp_path):
    """Two generator files named gens.json give two networks labelled custom:gens; a table of the
    first (a 6-cycle, T = 6) is not 'a valid table' of the second (S_4 on 6 points, T = 24 here): the
    keep-better rule must not keep it as a better table of that network, nor say so."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "gens.json").write_text(json.dumps({"generators": {"a": [1, 2, 3, 4, 5, 0],
                                                                         "A": [5, 0, 1, 2, 3, 4]}}))
    (tmp_path / "b" / "gens.json").write_text(json.dumps({"generators": {
        "a": [1, 0, 2, 3, 4, 5], "b": [0, 2, 1, 3, 4, 5], "c": [0, 1, 3, 2, 4, 5]}}))
    out = tmp_path / "out.json"
    assert run("search", f"file:{tmp_path / 'a' / 'gens.json'}", "--out", str(out), "--quiet").exit_code == 0
    before = out.read_bytes()
    result = run("search", f"file:{tmp_path / 'b' / 'gens.json'}", "--out", str(out), "--quiet")
    assert result.exit_code == 2 and "not replaced" in result.stderr and "generators" in result.stderr
    assert "kept" not in result.stdout
    assert out.read_bytes() == before


def test_search_without_out_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("search", "ring-6", "--quiet")
    assert result.exit_code == 0 and "T = 5" in result.stdout and "written" not in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_output_under_a_missing_directory_is_refused_before_the_search(tmp_path):
    result = run("search", "star-4", "--out", str(tmp_path / "nope" / "t.json"))
    assert result.exit_code == 2 and "does not exist" in result.stderr
    assert not (tmp_path / "nope").exists()
