"""Every command the docs show runs as written (docs/*.md and README.md).

The commands are read from the documents themselves: each line of a fenced block that starts with a program
(``tesearch``, ``.venv/bin/python``, ``pip``, ``mkdir`` ...), and each inline code span that is a whole
``tesearch SUBCOMMAND ARGUMENT ...`` line.  A span that shows a synopsis (``NETWORK``, ``[--force]``,
``a|b``, ``...``) or only mentions a subcommand or an option (``tesearch search --strategy full``: no
argument) is no command.  Each command runs in a scratch directory that sees the repository's
``results/``, ``proofs/``, ``encodings/`` and ``scripts/`` (so the relative paths of the docs hold), with
``tesearch`` and ``.venv/bin/{tesearch,python}`` running this checkout, under ``bash`` (``mkdir -p out &&
...`` runs as one line), and must exit 0.  Long ones are listed in :data:`SKIPPED` with the reason, or
marked slow in :data:`SLOW`; a listed command that the docs no longer show fails the test too.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ray_could_not_start

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "results" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: the first word of a fenced line that makes it a command
PROGRAMS = ("tesearch", ".venv/bin/tesearch", ".venv/bin/python", "python", "python3", "pip", "apt-get", "mkdir")
#: a word of a synopsis, not of a command: a placeholder (NETWORK, FILE.json, A:B), a choice, an optional part
SYNOPSIS = re.compile(r"[A-Z]{3,}|[\[\]|]|\.\.")

#: commands the docs show that this test does not run, and why (each must still be in the docs)
SKIPPED = {
    "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/tesearch search star-5 --out star-5.json":
        "installs tesearch into a new virtual environment (needs the package index; minutes)",
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test,proofs,cpsat,mpi,ray,chakra]' && "
    ".venv/bin/python -m pytest": "installs every extra and runs the whole test suite (this file among it)",
    "pip install -e '.[ray,cpsat]'": "installs packages",
    "pip install -e '.[chakra]'": "installs packages",
    "apt-get install libsimgrid-dev": "installs a system package",
    "tesearch info star-10": "569 s and 1.9 GB (the README says so beside it)",
    "tesearch search star-8 --solver cpsat": "16 s of CP-SAT on an idle machine, minutes on a loaded one",
    "tesearch lift torus-12x12x24 --solver cpsat": "32 s of CP-SAT",
    "tesearch check-proof proofs/frontier-star-8.json": "replays 40320 nodes (minutes)",
    "tesearch run results/star-5.json --mpi --executor all": "120 MPI ranks (tests/test_mpi.py runs it, slow)",
    "tesearch simulate results/hypercube-7.json --bytes 8,64K,1M": "SimGrid runs of 128 ranks at three sizes "
                                                                   "under every MPI algorithm (minutes)",
    "tesearch simulate results/torus-8x8.json --bytes 64K": "SimGrid runs of 64 ranks under every MPI algorithm "
                                                           "(minutes)",
    "tesearch simulate torus-4x4x8:twisted --model cm02 --mpi-algorithms pair,bruck,ompi --json":
        "SimGrid runs of 128 ranks (minutes)",
    ".venv/bin/python -m scripts.reproduce --check": "about a minute of CPU (the docs say so)",
    ".venv/bin/python -m scripts.reproduce --check --deep": "replays every table and checks every certificate "
                                                            "(the docs say: long)",
    ".venv/bin/python -m scripts.reproduce table:torus-5x5 --force": "rewrites a committed result in place",
    "tesearch search torus-4x8 --timeout 300": "the docs report it: Z3 unknown at T = 32 after 300 s, exit 4",
}
#: commands that run, but take more than the everyday run's few seconds
SLOW = {
    "mkdir -p out && tesearch sweep star-4 ring-8 hypercube-4 --timeout 120 --out-dir out/":
        "starts Ray (11 s on a quiet machine, 40 s on a loaded one)",
    "tesearch sweep torus-4x8 ring-8:cyclic torus-3x3 --num-cpus 2": "starts Ray (8 s quiet, 40 s loaded)",
    "tesearch replay results/frontier/star-7.json": "3.7 s: 5040 nodes",
    "tesearch view results/frontier/star-8.json -o star-8.html": "2 to 3 s: star-8's 40135 columns",
    "tesearch export results/torus-4x4x8.json --format chrome-trace -o torus-4x4x8.trace.json": "3.4 s",
    # measured by CPU time in the everyday run (docs/notes/test-timings.md, 2026-12-05); each has an everyday twin
    "tesearch simulate results/ring-6.json --bytes 64K --mpi-algorithms none --trace ring-6.trace.json":
        "3.9 s of CPU: compiles the executor with smpicc and runs SimGrid (twin: test_simulate.py's "
        "test_trace_holds_every_hop_once_in_time_order)",
    "mkdir -p traces && tesearch export results/torus-4x4x8.json --format chakra -o traces/torus-4x4x8 --bytes 1M":
        "1.7 s of CPU: 128 Chakra traces (twin: test_traces.py's test_chakra_traces_round_trip_and_match_the_programs)",
    "tesearch export results/frontier/star-7.json --format chrome-trace --tracks letters -o star-7.trace.json":
        "1.3 s of CPU: star-7's 4938 columns (twin: test_traces.py's test_letter_tracks_show_the_table)",
    "tesearch bound pancake-6": "1.3 s of CPU in a fresh interpreter (twin: test_word_choice.py's "
                                "test_pancake6_parity_lifts_the_bound_to_660, in process)",
    "tesearch search bubblesort-5": "21 s: the front door's routes up to the ejection search at 154 (twin: "
                                    "test_front_door.py's routes on small networks)",
    "tesearch search bubblesort-5 --strategy ejection": "8 s: 139362 placements to 154 (twin: test_ejection.py's "
                                                        "small networks at their bound)",
}
#: a command that needs more than the test extra: the programs or modules it needs (missing: skipped, but
#: under CI=true, where .ci/run installs them, a failure)
NEEDS = {"tesearch simulate": ("smpirun", "smpicc"), "tesearch sweep": ("ray",),
         "tesearch export results/torus-4x4x8.json --format chakra": ("chakra",)}
#: absolute paths the docs write to, and where the test sends them instead (a test writes only under tmp_path)
SCRATCH_PATHS = ("/tmp/scratch",)


def _is_command_span(text: str) -> bool:
    """Whether an inline code span is a whole tesearch command line (not a synopsis, not a mention)."""
    words = text.split()
    if len(words) < 3 or words[0] != "tesearch" or not re.fullmatch(r"[a-z][a-z-]*", words[1]):
        return False
    if any(SYNOPSIS.search(word) for word in words[2:]):
        return False
    return not words[2].startswith("-")  # its first argument: `tesearch search --strategy full` names an option


def documented_commands() -> dict[str, str]:
    """Every command of the docs -> the document (and line) that shows it first."""
    found: dict[str, str] = {}
    for document in DOCUMENTS:
        fenced = False
        for number, line in enumerate(document.read_text().splitlines(), 1):
            where = f"{document.relative_to(ROOT)}:{number}"
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                text = re.sub(r"\s+#.*$", "", line).strip()
                if text.split(" ", 1)[0] in PROGRAMS:
                    found.setdefault(" ".join(text.split()), where)
                continue
            for span in re.findall(r"`([^`\n]+)`", line):
                if _is_command_span(span):
                    found.setdefault(" ".join(span.split()), where)
    return found


COMMANDS = documented_commands()


def _scratch(tmp_path: Path) -> Path:
    """A working directory that sees the repository's files (read-only use) and runs this checkout's code."""
    work = tmp_path / "work"
    work.mkdir()
    for name in ("results", "proofs", "encodings", "scripts", "experiments"):
        (work / name).symlink_to(ROOT / name)
    bin_dir = work / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    tesearch = bin_dir / "tesearch"
    tesearch.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m tesearch.entry \"$@\"\n")
    tesearch.chmod(0o755)
    return work


def _run(command: str, tmp_path: Path, timeout: float) -> subprocess.CompletedProcess:
    work = _scratch(tmp_path)
    for path in SCRATCH_PATHS:
        command = command.replace(path, str(tmp_path / Path(path).name))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PATH": f"{work / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}  # simulate compiles its executor there, not in ~/.cache
    return subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _missing(command: str) -> list[str]:
    """What ``command`` needs (NEEDS) that this machine lacks."""
    import importlib.util
    import shutil

    needed = [tool for prefix, tools in NEEDS.items() if command.split(" && ")[-1].startswith(prefix) for tool in tools]
    return [tool for tool in needed if shutil.which(tool) is None and importlib.util.find_spec(tool) is None]


def test_the_docs_show_commands_and_the_lists_name_only_shown_ones():
    assert "tesearch construct torus-8x16x16" in COMMANDS  # the extraction finds inline commands
    assert any(c.startswith(".venv/bin/python -m scripts.reproduce") for c in COMMANDS)  # and fenced ones
    assert not any(c.startswith("tesearch search NETWORK") for c in COMMANDS)  # synopses are no commands
    assert "tesearch search --strategy full" not in COMMANDS  # nor mentions of an option
    assert not [c for c in NEEDS if not any(command.split(" && ")[-1].startswith(c) for command in COMMANDS)]
    stale = [c for c in [*SKIPPED, *SLOW] if c not in COMMANDS]
    assert stale == [], f"listed here but no longer in the docs: {stale}"


def _cases():
    for command, where in COMMANDS.items():
        if command in SKIPPED:
            continue
        marks = [pytest.mark.slow] if command in SLOW else []
        yield pytest.param(command, where, marks=marks, id=command[:80])


@pytest.mark.parametrize("command,where", list(_cases()))
def test_a_documented_command_runs_as_written(command, where, tmp_path):
    missing = _missing(command)
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: {where}: `{command}` needs {', '.join(missing)}")
        pytest.skip(f"needs {', '.join(missing)}")
    done = _run(command, tmp_path, timeout=600)
    if command.split(" && ")[-1].startswith("tesearch sweep") and ray_could_not_start(done.returncode, done.stderr):
        return  # a machine too busy for Ray to start: exit 4 with its line is the sweep's right outcome (issue 46)
    assert done.returncode == 0, f"{where}: `{command}` exits {done.returncode}: {done.stderr.strip()[-600:]}"
    assert "Traceback" not in done.stderr
