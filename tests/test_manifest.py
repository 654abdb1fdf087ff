"""results/manifest.toml covers every committed result file, and its commands are current.

Fast: hashes and option parsing only, nothing is run (scripts/reproduce.py --check verifies
the tables; --deep replays them and re-checks the certificates).
"""

from __future__ import annotations

import hashlib
import shlex
import subprocess
import tomllib
from pathlib import Path

import click
import pytest

from tesearch.cli.app import COMMANDS, main as cli

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "results" / "manifest.toml"
KINDS = {"table", "certificate", "encoding", "proof", "record", "report"}


@pytest.fixture(scope="module")
def entries() -> list[dict]:
    return tomllib.loads(MANIFEST.read_text())["entry"]


def result_files() -> set[str]:
    """Files under results/, proofs/ and encodings/ that git tracks or that are new (not ignored)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                          "results", "proofs", "encodings"], cwd=ROOT, capture_output=True, text=True, check=True)
    return {p for p in out.stdout.split() if not p.endswith(".gitkeep") and p != "results/manifest.toml"
            and (ROOT / p).is_file()}


def commands(entry: dict) -> list[str]:
    c = entry["command"]
    return [x for x in ([c] if isinstance(c, str) else c) if x]


def test_every_result_file_has_exactly_one_entry_and_every_entry_a_file(entries):
    paths = [e["path"] for e in entries]
    assert len(paths) == len(set(paths)), "a path has two entries"
    files = result_files()
    assert sorted(files - set(paths)) == [], "files without a manifest entry (rerun scripts/make_manifest.py)"
    assert sorted(set(paths) - files) == [], "entries whose file is not committed"


def test_entries_are_well_formed(entries):
    names = [e["name"] for e in entries]
    assert len(names) == len(set(names))
    for e in entries:
        assert e["kind"] in KINDS, e["name"]
        assert isinstance(e["command"], (str, list)), e["name"]
        if not commands(e):
            assert e.get("note"), f"{e['name']}: no command and no note saying why"
        for dep in e.get("depends_on", []):
            assert (ROOT / dep).is_file(), f"{e['name']}: depends on missing {dep}"
        if e["kind"] == "table":
            assert {"network", "exchange", "T"} <= e.keys(), e["name"]


def test_sha256_matches_the_committed_files(entries):
    stale = [e["path"] for e in entries
             if hashlib.sha256((ROOT / e["path"]).read_bytes()).hexdigest() != e["sha256"]]
    assert stale == [], "files changed since the manifest was written (rerun scripts/make_manifest.py)"


def test_commands_use_existing_subcommands_and_options(entries, monkeypatch):
    """Every `tesearch` command parses against the click command objects (nothing runs); every
    script command names an existing script and only options that script defines."""
    monkeypatch.chdir(ROOT)  # output directories and --keep-encodings are checked from the root
    for e in entries:
        for command in commands(e):
            words = shlex.split(command)
            if words[0] == "tesearch":
                assert words[1] in COMMANDS, f"{e['name']}: no subcommand {words[1]!r}"
                sub = cli.get_command(None, words[1])
                try:
                    sub.make_context(words[1], words[2:])
                except click.ClickException as exc:
                    pytest.fail(f"{e['name']}: {command}: {exc.format_message()}")
                if e["kind"] == "table" and words[1] in ("search", "stratify", "lift", "repack", "construct"):
                    assert "--out" in words and words[words.index("--out") + 1] == e["path"], \
                        f"{e['name']}: the command does not write {e['path']}"
            else:
                assert words[0] == "python" and words[1].startswith(("scripts/", "benchmarks/")), f"{e['name']}: {command}"
                script = ROOT / words[1]
                assert script.is_file(), f"{e['name']}: no {words[1]}"
                source = script.read_text()
                for w in words[2:]:
                    if w.startswith("--"):
                        assert f'"{w}"' in source, f"{e['name']}: {words[1]} has no option {w}"


def test_certificates_depend_on_their_table_and_encodings(entries):
    by_path = {e["path"]: e for e in entries}
    for e in entries:
        if e["kind"] == "certificate":
            words = shlex.split(e["command"])
            if words[:2] == ["tesearch", "bound"]:  # a word-choice certificate: about every word choice, no table
                assert "-o" in words and words[words.index("-o") + 1] == e["path"] and not e["depends_on"], e["name"]
                continue
            assert e["depends_on"], e["name"]
            assert words[:2] == ["tesearch", "certify"] and words[2] == e["depends_on"][0]
            assert all(d in by_path for d in e["depends_on"]), e["name"]


def reproduce(*args: str) -> subprocess.CompletedProcess:
    import sys

    return subprocess.run([sys.executable, str(ROOT / "scripts" / "reproduce.py"), *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_reproduce_refuses_to_overwrite_committed_files():
    before = (ROOT / "results" / "ring-3.json").read_bytes()
    proc = reproduce("table:ring-3")
    assert proc.returncode != 0 and "refusing to overwrite" in proc.stderr
    proc = reproduce("table:ring-3", "--into", str(ROOT / "scratch"))
    assert proc.returncode != 0 and "outside the repository" in proc.stderr
    assert not (ROOT / "scratch").exists()
    assert (ROOT / "results" / "ring-3.json").read_bytes() == before


def test_reproduce_lists_and_checks_one_entry():
    proc = reproduce("--list", "certificate:ring-6-cyclic")
    assert proc.returncode == 0 and "tesearch certify results/ring-6-cyclic.json" in proc.stdout
    proc = reproduce("--check", "table:ring-6", "certificate:ring-6-cyclic", "encoding:ring-6_cyclic-total-full-T5")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "all              3       0" in proc.stdout
