import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tesearch.cli import main
from tesearch.networks.groups import cached_cayley_graph
from tesearch.networks.families import network_from_spec
from tesearch.running.limits import STALL_PHASE_VARIABLE

ROOT = Path(__file__).resolve().parent.parent


#: modules whose tests share one expensive module fixture: pytest-xdist runs each on one worker, whole (test_sweep's
#: local Ray and its sweep were made once per worker: 23 to 26 s each in the whole suite at a load of 8 to 28)
ONE_WORKER_MODULES = frozenset({"tests/test_sweep.py"})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under ``--dist load`` (what ``-n auto`` uses): each module of :data:`ONE_WORKER_MODULES` is one unit of work
    for one worker, sent first (the largest unit), and every other test is a unit of its own, sent to whichever
    worker is free.  xdist's ``--dist loadgroup`` would say the same with a mark, but it groups nothing under
    pytest 9.2 (pytest-dev/pytest-xdist#1386: it renames the tests' node ids, which pytest 9.2 no longer allows)."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModulesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in ONE_WORKER_MODULES else nodeid

    return ModulesTogether(config, log)


@pytest.fixture(scope="session")
def graph():
    """graph(spec) -> the CayleyGraph, built once per session."""
    return lambda spec: cached_cayley_graph(network_from_spec(spec))


def run_cli(*args, env=None):
    """``tesearch ARGS`` in process (click's runner): the result has exit_code, output, stdout, stderr."""
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


#: on a loaded machine (issue 46: load 20 to 35 on 2 cores) the limit can strike in an earlier phase, before
#: the stalled one is reached: that stop is correct too, and the run is repeated with a limit this many
#: times longer, at most LIMIT_TRIES runs in all (3, 6, 12, 24 s), until the stalled phase is the one named
LIMIT_GROWTH = 2
LIMIT_TRIES = 4
#: how a stop at the limit names where the work was: in a phase, or between two
STOPPED_IN = re.compile(r"time limit of (\d+) s reached \((in|after) phase: ((?:[^()]|\([^()]*\))*)\)")  # a phase may hold one (...)
#: the front door's stop when building the instance took all its time (tesearch.search.frontdoor: no route ran)
BEFORE_ANY_ROUTE = re.compile(r"^tesearch: no table: the time limit was reached before route \w+ could start$", re.M)


def stop_in_phase(args, stalled, seconds, out=None):
    """Run ``tesearch ARGS --timeout S --quiet`` with the phase ``stalled`` made to hang, until the limit
    strikes there; returns (result, S, seconds taken).  Every run must be a correct stop at its limit (exit 4,
    within a few seconds of the limit, the phase named, only a verified table written); a stop in another phase
    (the machine too busy to reach the stalled one in time) is repeated with a longer limit, never accepted as
    the answer: the test passes only when the stalled phase itself is named."""
    for _ in range(LIMIT_TRIES):
        started = time.monotonic()
        result = run_cli(*args, *([] if out is None else ["--out", out]), "--timeout", seconds, "--quiet",
                         env={STALL_PHASE_VARIABLE: stalled})
        took = time.monotonic() - started
        assert result.exit_code == 4, result.output
        assert took < seconds + 4, took  # stopped within a few seconds of the limit
        stop = STOPPED_IN.search(result.stderr) or BEFORE_ANY_ROUTE.search(result.stderr)
        assert stop, result.stderr
        if out is not None and out.exists():  # only the verified best table offered before the limit
            assert "best verified table before the limit" in result.stderr
            assert run_cli("verify", out).exit_code == 0
        if stop.re is STOPPED_IN:
            assert int(stop.group(1)) == seconds, result.stderr
            if stop.group(2) == "in" and stop.group(3).startswith(stalled):
                return result, seconds, took
        if out is not None:
            out.unlink(missing_ok=True)  # the next run starts as this one did (no table to keep or beat)
        seconds *= LIMIT_GROWTH  # stopped correctly, but before the stalled phase was reached
    raise AssertionError(f"{stalled!r} not reached within {LIMIT_TRIES} limits up to {seconds // LIMIT_GROWTH} s; "
                         f"last stop: {stop.group(0)}")


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


def ray_could_not_start(exit_code: int, stderr: str) -> bool:
    """Whether a Ray command ended as it must on a machine too busy for Ray to start (issue 46 item 16): exit 4,
    its last line the one that says a local Ray cannot start and why, or that the command's time limit struck
    while Ray was starting; no traceback.  Every other outcome is False: the test then judges it as it would on an
    idle machine, so a wrong outcome still fails."""
    import re

    from tesearch.search.sweep.driver import LOCAL_RAY_FAILED, LOCAL_RAY_FAILED_HINT, STARTING_RAY

    lines = stderr.strip().splitlines()
    if int(exit_code) != 4 or not lines or "Traceback" in stderr:
        return False
    failed = lines[-1].startswith(f"tesearch: {LOCAL_RAY_FAILED} (") and lines[-1].endswith(LOCAL_RAY_FAILED_HINT)
    late = re.fullmatch(rf"tesearch: time limit of [0-9.]+ s reached \(in phase: {STARTING_RAY}\)", lines[-1])
    return failed or late is not None


class RayBusy:
    """What a test's own Ray start left when the machine was too busy: the line the sweep would say (exit 4)."""

    def __init__(self, reason: str):
        from tesearch.search.sweep.driver import LOCAL_RAY_FAILED, LOCAL_RAY_FAILED_HINT

        first = (reason.strip().splitlines() or ["no reason given"])[0][:300]
        self.line = f"tesearch: {LOCAL_RAY_FAILED} ({first}); {LOCAL_RAY_FAILED_HINT}"

    def accepted(self) -> bool:
        """The busy machine's outcome, held to the same test as a command's (so it stays one exact form)."""
        return ray_could_not_start(4, self.line)
