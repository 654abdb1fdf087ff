"""README.md's tour runs as shown (issue 48: a newcomer's first page must be true): its `$ ` commands run in
order in one scratch directory, each exits 0, and every output line the README shows is in what the command
printed (a line abridged with `...` up to the cut; seconds of wall clock may differ).

The first three steps (search, verify and replay, certify and check-proof) run in the everyday run; the
whole tour (SimGrid and MPI too) is slow.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: a wall-clock figure in seconds ("0.72s", "0.01 s", "[    0.9s]"): it differs from run to run
SECONDS = re.compile(r"\d+(?:\.\d+)? ?s\b")
#: the tour's steps that start processes beyond the package: SimGrid (step 4) and MPI (step 5)
EXTERNAL = {"tesearch simulate": ("smpirun", "smpicc"), "tesearch library": ("mpicc",), "mpiexec": ("mpiexec",)}


def tour_steps() -> list[tuple[str, list[str]]]:
    """(command, the output lines the README shows for it), in the tour's order."""
    text = README.read_text()
    tour = text.split("## A tour", 1)[1].split("\n## ", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    fenced = False
    for line in tour.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            continue
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps and line.strip():
            steps[-1][1].append(line)
    return steps


def expected_parts(line: str) -> list[str]:
    """What of a shown output line must appear, in this order on one printed line: the pieces around each
    abridging `...`, seconds normalised."""
    pieces = [SECONDS.sub("<s>", piece).strip(" ,([)]") for piece in line.split("...")]
    return [piece for piece in pieces if piece]


def shows(printed_line: str, parts: list[str]) -> bool:
    at = 0
    for part in parts:
        at = printed_line.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


#: a row of a printed table: Z3's lift picks other placements of the same width in another process state (the
#: suite's process gave another table than a fresh one), so rows are counted, not compared
TABLE_ROW = re.compile(r"^[A-Za-z]+( [A-Za-z|]+)* ?$")


def check_shown(command: str, printed: str, shown: list[str]) -> None:
    lines = SECONDS.sub("<s>", printed).splitlines()
    rows = [line for line in shown if "|" in line and TABLE_ROW.match(line)]
    assert len(rows) <= sum(1 for line in lines if "|" in line and TABLE_ROW.match(line)), (command, printed)
    for line in shown:
        if line in rows:
            continue
        parts = expected_parts(line)
        assert not parts or any(shows(printed_line, parts) for printed_line in lines), \
            f"{command}: the README shows {line!r}, the command printed:\n{printed}"


def run_tour_in_process(tmp_path: Path, monkeypatch, steps: list[tuple[str, list[str]]]) -> None:
    """The tour's tesearch commands through click's runner (no interpreter start per command)."""
    from conftest import run_cli

    monkeypatch.chdir(tmp_path)
    for command, shown in steps:
        words = shlex.split(command)
        assert words[0] == "tesearch", command
        result = run_cli(*words[1:])
        assert result.exit_code == 0, f"{command}\n{result.output}"
        check_shown(command, result.output + (result.stderr if result.stderr_bytes is not None else ""), shown)


def run_tour(tmp_path: Path, steps: list[tuple[str, list[str]]]) -> None:
    """The tour's commands as a user runs them: under bash, one after the other, in one directory."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tesearch = bin_dir / "tesearch"
    tesearch.write_text(f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(ROOT))} exec {shlex.quote(sys.executable)} "
                        f"-m tesearch.entry \"$@\"\n")
    tesearch.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PATH=f"{bin_dir}:{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    for command, shown in steps:
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        check_shown(command, done.stdout + done.stderr, shown)


def test_the_tour_has_five_steps_on_one_network():
    steps = tour_steps()
    commands = [command for command, _ in steps]
    assert [sub for c in commands for sub in re.findall(r"\btesearch ([a-z-]+)", c)] == \
        ["search", "verify", "replay", "certify", "check-proof", "simulate", "library"]
    assert any("mpiexec" in c for c in commands)
    assert all("torus-4x4" in c for c in commands if c.startswith("tesearch "))
    assert all(shown for _, shown in steps), "every step shows its output"


def test_the_first_three_steps_run_as_shown(tmp_path, monkeypatch):
    steps = [s for s in tour_steps() if not any(p in s[0] for p in EXTERNAL)]
    assert len(steps) == 5
    run_tour_in_process(tmp_path, monkeypatch, steps)


def test_an_output_line_the_command_does_not_print_fails(tmp_path, monkeypatch):
    """The comparison above can fail: a shown line that is not printed is caught."""
    with pytest.raises(AssertionError, match="the README shows"):
        run_tour_in_process(tmp_path, monkeypatch,
                            [("tesearch verify --help", ["OPTIMAL: a line verify --help never prints"])])


@pytest.mark.slow  # SimGrid runs of 16 ranks under every MPI algorithm (about 30 s) and 16 MPI ranks
def test_the_whole_tour_runs_as_shown(tmp_path):
    missing = sorted({p for programs in EXTERNAL.values() for p in programs
                      if shutil.which(p, path=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}") is None})
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the tour needs {missing}")
        pytest.skip(f"the tour needs {missing}")
    run_tour(tmp_path, tour_steps())
