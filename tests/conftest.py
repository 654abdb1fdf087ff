import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tesearch.cli import main
from tesearch.networks.groups import cached_cayley_graph
from tesearch.networks.families import network_from_spec

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def graph():
    """graph(spec) -> the CayleyGraph, built once per session."""
    return lambda spec: cached_cayley_graph(network_from_spec(spec))


def run_cli(*args, env=None):
    """``tesearch ARGS`` in process (click's runner): the result has exit_code, output, stdout, stderr."""
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


@pytest.fixture(autouse=True)
def crash_files_in_tmp_path(tmp_path, monkeypatch):
    """Internal errors a test provokes write their traceback files under the test's tmp_path, not /tmp."""
    from tesearch.running.supervise import CRASH_DIR_VARIABLE

    monkeypatch.setenv(CRASH_DIR_VARIABLE, str(tmp_path))


@pytest.fixture(autouse=True)
def no_limits_leak_between_tests():
    """Each test starts under the default limits and leaves them so: an in-process run that installs a deadline
    (a sweep's task, a supervised child run inline) must not make a later test see its time as used up."""
    from tesearch.running import limits
    saved = limits._state
    yield
    assert limits._state is saved, "a test left other limits installed (use limits.activated)"


def certificate_sandbox(root: Path) -> dict:
    """Copy the ring-6:cyclic certificate's encoding and DRAT proof into a fresh project root ``root`` (with its
    proofs/ and encodings/ and a pyproject.toml marking it); returns the certificate as a dict (not written)."""
    import shutil

    for sub in ("proofs", "encodings"):
        (root / sub).mkdir()
    data = json.loads((ROOT / "proofs" / "ring-6-cyclic.json").read_text())
    claim = data["impossibility_claims"][0]
    shutil.copy(ROOT / claim["encoding"]["path"], root / claim["encoding"]["path"])
    proof = next(c for c in claim["confirmations"] if c["method"] == "sat+drat")["proof"]
    shutil.copy(ROOT / proof["path"], root / proof["path"])
    (root / "pyproject.toml").write_text("")
    return data


def broken_programs(tmp_path, kind: str, table: Path, rank: int, step: int):
    """The programs export of ``table`` with one hop of ``rank`` at ``step`` broken: sent a step ``late``,
    to the ``wrong`` neighbour, or ``dropped``; returns (file, hop) with hop = [letter, neighbour, origin,
    destination] (the MPI run and the SimGrid simulation must both catch each)."""
    path = tmp_path / table.name.replace(".json", ".jsonl")
    assert run_cli("export", table, "-o", path, "--quiet").exit_code == 0
    lines = path.read_text().splitlines()
    record = json.loads(lines[1 + rank])
    steps = {entry[0]: entry for entry in record["steps"]}
    sends = steps[step][1]
    hop = list(sends[0])
    if kind == "late":
        sends.remove(sends[0])
        steps[step + 1][1].append(hop)
    elif kind == "wrong":
        sends[0][1] = sends[1][1]  # to the neighbour another letter leads to
    elif kind == "dropped":
        sends.remove(sends[0])
    lines[1 + rank] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    return path, hop
