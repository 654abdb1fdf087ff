"""results/manifest.toml covers every committed result file, and its commands are current.

Fast: hashes and option parsing only, nothing is run (scripts/reproduce.py --check verifies
the tables; --deep replays them and re-checks the certificates).
"""

from __future__ import annotations

import hashlib
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest

from tesearch.cli.app import COMMANDS, main as cli

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "results" / "manifest.toml"
KINDS = {"table", "certificate", "encoding", "proof", "record", "report"}
#: the folders of programs run as ``python -m FOLDER.NAME``: the pipeline, one-off research runs, measurements
PROGRAM_FOLDERS = ("scripts", "experiments", "benchmarks")
PROGRAM_FOLDERS_DOTTED = tuple(f"{folder}." for folder in PROGRAM_FOLDERS)


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
                    # under the group's context, as `tesearch` parses it: a bare context would make click cache this
                    # command's help option without -h (docs/cli.md and `tesearch CMD -h` then differ in-process)
                    parent = click.Context(cli, info_name="tesearch", **cli.context_settings)
                    sub.make_context(words[1], words[2:], parent=parent)
                except click.ClickException as exc:
                    pytest.fail(f"{e['name']}: {command}: {exc.format_message()}")
                if e["kind"] == "table" and words[1] in ("search", "stratify", "lift", "repack", "construct"):
                    assert "--out" in words and words[words.index("--out") + 1] == e["path"], \
                        f"{e['name']}: the command does not write {e['path']}"
            else:
                assert words[:2] == ["python", "-m"] and words[2].startswith(PROGRAM_FOLDERS_DOTTED), \
                    f"{e['name']}: {command} (a script, experiment or benchmark runs as a module, python -m scripts.NAME)"
                script = ROOT / (words[2].replace(".", "/") + ".py")
                assert script.is_file(), f"{e['name']}: no {words[2]}"
                source = script.read_text()
                for w in words[3:]:
                    if w.startswith("--"):
                        assert f'"{w}"' in source, f"{e['name']}: {words[2]} has no option {w}"


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

    return subprocess.run([sys.executable, "-m", "scripts.reproduce", *args], cwd=ROOT,
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


def test_reproduce_check_is_never_silent_while_an_entry_runs_long(monkeypatch, capsys):
    """Issue 46: `--check` printed nothing for 300 s at a load of 15.  An entry that runs long now gets 'still
    checking' lines meanwhile and its time afterwards; quick entries a line every PROGRESS_S."""
    import time as clock

    from scripts import reproduce as module

    monkeypatch.setattr(module, "PROGRESS_S", 0.5)
    monkeypatch.setattr(module, "check_table", lambda path, entry: clock.sleep(2.2))
    entries = [e for e in module.load_manifest() if e["name"] in ("table:ring-6", "table:ring-3")]
    assert len(entries) == 2
    assert module.check(entries, deep=False) == 0
    err = capsys.readouterr().err
    assert err.count("still checking results/ring-") >= 4, err  # one about every PROGRESS_S while each runs
    assert "[1/2] results/ring-" in err and ": 2.2 s" in err and "[2/2]" in err


def readme_rows(folder: str) -> dict[str, set[str]]:
    """``folder``/README.md's table: program -> the committed results it says the program makes."""
    rows = {}
    for line in (ROOT / folder / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 3:
            rows[cells[0].strip("`")] = set(re.findall(r"`([^`]+)`", cells[2]))
    return rows


def owners(entries: list[dict]) -> dict[tuple[str, str], set[str]]:
    """(folder, program) -> the result files whose manifest command runs it (its first command that does)."""
    out: dict[tuple[str, str], set[str]] = {}
    for e in entries:
        for command in commands(e):
            words = shlex.split(command)
            if words[:2] == ["python", "-m"]:
                folder, program = words[2].split(".")
                out.setdefault((folder, program), set()).add(e["path"])
                break
    return out


@pytest.mark.parametrize("folder", PROGRAM_FOLDERS)
def test_each_folder_says_what_lives_there_and_which_results_it_makes(entries, folder):
    """scripts/, experiments/ and benchmarks/ each list every program in their README with the results it makes, as the
    manifest names their commands (issue 39: neither folder said what belonged in it)."""
    rows = readme_rows(folder)
    programs = {p.stem for p in (ROOT / folder).glob("*.py") if p.name != "__init__.py"}
    assert set(rows) == programs, f"{folder}/README.md lists {sorted(set(rows) ^ programs)} wrongly"
    made = {program: paths for (where, program), paths in owners(entries).items() if where == folder}
    assert {p: r for p, r in rows.items() if r} == made, f"{folder}/README.md's results differ from the manifest's"


def test_no_program_is_in_two_folders():
    """One place for what produces a committed result (frontier.py was in both scripts/ and benchmarks/)."""
    seen: dict[str, str] = {}
    for folder in PROGRAM_FOLDERS:
        for p in (ROOT / folder).glob("*.py"):
            if p.name != "__init__.py":
                assert p.name not in seen, f"{p.name} is in {seen[p.name]}/ and {folder}/"
                seen[p.name] = folder


def test_the_one_off_experiments_left_scripts_and_their_old_commands_still_resolve():
    """Issue 48: the research runs moved from scripts/ to experiments/; a record written before names
    ``python scripts/NAME.py`` or ``python -m scripts.NAME``, and the manifest gives the command that runs now
    (the former lane-core shim is the ``tesearch narrow`` command it ran)."""
    from scripts.make_manifest import MOVED_TO_EXPERIMENTS, current

    for name in MOVED_TO_EXPERIMENTS:
        assert not (ROOT / "scripts" / f"{name}.py").exists() and (ROOT / "experiments" / f"{name}.py").is_file()
        assert current(f"python scripts/{name}.py --timeout 9") == f"python -m experiments.{name} --timeout 9"
        assert current(f"python -m scripts.{name} --x 1") == f"python -m experiments.{name} --x 1"
    assert current("python -m scripts.reproduce --check") == "python -m scripts.reproduce --check"
    assert not (ROOT / "scripts" / "lane_core.py").exists()
    assert current("python scripts/lane_core.py torus-4x4x8:twisted --out t.json --timeout 900.0 --attempt 15 "
                   "--min-width 63") == ("tesearch narrow torus-4x4x8:twisted --core-model lanes --out t.json "
                                         "--timeout 900.0 --solver-timeout 15 --from-width 63")
    assert current("python -m scripts.lane_core S --out t.json --joint --max-width 62") == (
        "tesearch narrow S --core-model joint-lanes --out t.json --timeout 1200.0 --solver-timeout 40.0 "
        "--max-width 62")
    assert current("python -m scripts.lane_core S --out t.json --min-width 0").endswith("--solver-timeout 40.0")


def test_scripts_and_benchmarks_are_modules_that_import_each_other_properly():
    """Every program of scripts/, experiments/ and benchmarks/ imports as ``scripts.NAME`` (etc.; how
    ``python -m`` runs it), none changes sys.path to find its neighbours or the package, and no test loads one
    by its path (scripts/twisted_report.py imported a function from where it no longer was)."""
    names = [f"{p.parent.name}.{p.stem}" for folder in PROGRAM_FOLDERS
             for p in sorted((ROOT / folder).glob("*.py")) if p.name != "__init__.py"]
    for folder in (*PROGRAM_FOLDERS, "tests"):
        for path in sorted((ROOT / folder).glob("*.py")):
            if path == Path(__file__).resolve():
                continue
            text = path.read_text()
            assert folder == "tests" or "sys.path" not in text, f"{path} changes sys.path"
            assert "spec_from_file_location" not in text and "run_path" not in text, f"{path} loads a file by path"
    code = "import importlib, sys; [importlib.import_module(n) for n in sys.argv[1:]]"
    done = subprocess.run([sys.executable, "-c", code, *names], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
