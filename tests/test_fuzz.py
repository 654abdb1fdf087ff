"""Fuzzing every subcommand with hostile input (issues 14 and 28), and the fuzzer's own judge.

Each case runs in its own session and sandbox; tesearch/testing/judge.py says what is wrong (exit codes,
tracebacks, multi-line errors, hangs, changed inputs, half-written or temporary files, processes
left behind, false exit 3 or CONFIRMED, exit 0 on a table the fuzzer made invalid).  The everyday
run tries a few cases per subcommand; the slow one more; benchmarks/fuzz.py runs thousands.  The
judge tests feed it made-up runs, so they show it can disagree whatever the package does today.
"""

import itertools
import json
import signal

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tesearch import testing
from tesearch.testing import COMMANDS, Case, Run, cases, judge, run_case

_counter = itertools.count()

#: slow to start (a Ray per case, or seconds of checks per case): only in the slow tests and benchmarks/fuzz.py
_SLOW_COMMANDS = ("sweep", "regress", "simulate")


def _check(case, tmp_path_factory):
    case_dir = tmp_path_factory.mktemp(f"case{next(_counter)}") / "c"
    outcome = run_case(case, case_dir)
    assert not outcome.problems(), f"{outcome.report_line()}\n{outcome.stderr[-2000:]}"


def test_every_subcommand_has_a_generator():
    """A command added to tesearch.cli.app.COMMANDS without a fuzz generator fails here."""
    assert testing.missing_generators() == [], \
        f"no fuzz generator for {testing.missing_generators()}: add one with testing.register() in tesearch/testing/generators.py"


def test_missing_generator_is_noticed(monkeypatch):
    monkeypatch.delitem(testing.GENERATORS, "export")
    assert testing.missing_generators() == ["export"]


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in _SLOW_COMMANDS])
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True,
          phases=[Phase.generate])
@given(data=st.data())
def test_hostile_input_everyday(command, data, tmp_path_factory):
    """Two fixed cases per subcommand, forked (signal cases, which need a real process, run in the slow test)."""
    case = data.draw(cases(command))
    case.signal, case.exec_mode = None, False
    _check(case, tmp_path_factory)


@pytest.mark.slow
@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in _SLOW_COMMANDS])
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None,
          phases=[Phase.generate])
@given(data=st.data())
def test_hostile_input_more(command, data, tmp_path_factory):
    _check(data.draw(cases(command)), tmp_path_factory)


@pytest.mark.slow
@pytest.mark.parametrize("command", _SLOW_COMMANDS)
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), database=None,
          phases=[Phase.generate])
@given(data=st.data())
def test_hostile_input_slow_commands(command, data, tmp_path_factory):
    _check(data.draw(cases(command)), tmp_path_factory)


# ------------------------------------------------------------------ the judge disagrees where it must

def _judged(case, run, before=None, after=None, tmp_path=None):
    return judge(case, run, before or {}, after or {}, tmp_path)


def test_judge_accepts_a_clean_run(tmp_path):
    assert _judged(Case(["info", "star-4"]), Run(0, "ok\n", "", 0.1), tmp_path=tmp_path) == []


@pytest.mark.parametrize("code, stderr, needle", [
    (70, "tesearch: internal error: X\n", "exit code 70"),
    (1, "Traceback (most recent call last):\n", "traceback"),
    (2, "tesearch: bad spec 'star\n4'\n", "error of 2 lines"),
    (-9 + 256, "", "exit code 247"),
    (None, "", "no exit"),
])
def test_judge_flags_exits_and_messages(tmp_path, code, stderr, needle):
    assert any(needle in w for w in _judged(Case(["info", "x"]), Run(code, "", stderr, 1.0), tmp_path=tmp_path))


def test_judge_flags_a_false_infeasible(tmp_path):
    case = Case(["search", "star-4", "--from-width", "25", "--strategy", "full"], network="star-4")
    assert any("exit 3" in w for w in _judged(case, Run(3, "", "", 1.0), tmp_path=tmp_path))
    below = Case(["search", "star-4", "--max-width", "20"], network="star-4")
    assert _judged(below, Run(3, "", "", 1.0), tmp_path=tmp_path) == []


def test_judge_reads_stratify_exit_3_as_a_claim_about_the_counting_bound(tmp_path):
    """stratify searches one width, the counting bound: its exit 3 is false only where a table of that width exists."""
    true_claim = Case(["stratify", "ring-6:cyclic"], network="ring-6:cyclic")  # counting bound 5, optimum 6
    assert _judged(true_claim, Run(3, "", "", 1.0), tmp_path=tmp_path) == []
    false_claim = Case(["stratify", "star-4"], network="star-4")  # counting bound 21 = optimum
    assert any("exit 3" in w for w in _judged(false_claim, Run(3, "", "", 1.0), tmp_path=tmp_path))


def test_judge_flags_confirmed_false_impossibility(tmp_path):
    out = ("c.json: CONFIRMED\n  confirmed  network: star-4 total: 24 nodes\n"
           "  confirmed  impossibility[0]: no table of width 23 for star-4 total\n"
           "  confirmed  optimality: T = 24 is optimal\n")
    wrong = _judged(Case(["check-proof", "c.json"], tampered=[0]), Run(0, out, "", 1.0), tmp_path=tmp_path)
    assert any("width 21 is known" in w and "width 23" in w for w in wrong)
    assert any("tampered" in w for w in wrong)
    assert any("T = 24 is optimal" in w for w in wrong)
    true_claim = out.replace("23", "20").replace("T = 24", "T = 21")
    assert _judged(Case(["check-proof", "c.json"]), Run(0, true_claim, "", 1.0), tmp_path=tmp_path) == []


def test_judge_flags_exit_0_on_invalid_table(tmp_path):
    case = Case(["replay", "t.json"], invalid_table="moved word")
    assert any("known invalid" in w for w in _judged(case, Run(0, "", "", 1.0), tmp_path=tmp_path))
    assert _judged(case, Run(1, "", "", 1.0), tmp_path=tmp_path) == []


def test_judge_flags_files(tmp_path):
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "p.png").write_bytes(b"not a png")
    case = Case(["export", "t.json", "-o", "t.json"], outputs=["t.json"], output_kinds={"t.json": "programs"})
    before = {"work/t.json": ("file", "a"), "work/committed/x.png": ("file", "b"), "work/fifo": ("fifo",)}
    after = {"work/t.json": ("file", "c"), "work/committed/x.png": ("file", "d"), "work/fifo": ("file", "e"),
             "work/.t.json.123.tmp": ("file", "f"), "work/p.png": ("file", "g")}
    wrong = _judged(case, Run(0, "", "", 1.0), before, after, tmp_path)
    text = "\n".join(wrong)
    for needle in ("overwrote its own input t.json", "committed file", "changed an input: fifo",
                   "temporary file", "p.png: not a PNG"):
        assert needle in text, (needle, wrong)
    failed = _judged(Case(["search", "ring-6", "--out", "o.json"], outputs=["o.json"]), Run(2, "", "x", 1.0),
                     {}, {"work/o.json": ("file", "a")}, tmp_path)
    assert any("exit 2 but wrote o.json" in w for w in failed)


def test_judge_flags_signals_and_leftovers(tmp_path):
    case = Case(["sweep", "ring-4"], signal=(int(signal.SIGTERM), 1.0, False))
    slow = Run(143, "", "", 9.0, signal_sent=1.0, leftovers=["raylet (pid 5)"])
    wrong = _judged(case, slow, tmp_path=tmp_path)
    assert any("to stop after SIGTERM" in w for w in wrong) and any("processes left" in w for w in wrong)
    assert any("expected 143" in w for w in _judged(case, Run(15, "", "", 1.5, signal_sent=1.0), tmp_path=tmp_path))
    assert _judged(case, Run(143, "", "", 1.5, signal_sent=1.0), tmp_path=tmp_path) == []


def test_judge_flags_a_timeout_ignored(tmp_path):
    case = Case(["verify", "t.txt", "--timeout", "2"])
    assert any("--timeout 2" in w for w in _judged(case, Run(4, "", "", 30.0), tmp_path=tmp_path))


def test_known_widths_come_from_committed_tables():
    assert testing.known_width("star-4") == 21
    assert testing.known_width("ring-6:cyclic") == 6
    assert testing.known_width("star-4", "odd-distance") is not None
    assert testing.known_width("no-such-net") is None


@settings(max_examples=30, deadline=None, database=None, derandomize=True)
@given(data=st.data())
def test_invalid_tables_are_invalid(data):
    """Every mutation the fuzzer calls invalid is refused by the independent kernel (its Theorem 1 or label)."""
    from tesearch.running.errors import TesearchError
    from tesearch.checking.kernel import build_network, check_theorem1, input_from_json
    from tesearch.networks.families import network_from_spec

    table, why = data.draw(testing.invalid_table())
    if why.startswith("lower_bound"):  # no table is narrower than a lower bound
        assert table["lower_bound"] > table["T"]
        return
    if why.startswith("generators of"):  # a valid table of the relabelled group, but not of its label's network
        spec = network_from_spec(table["network"])
        assert {s: list(spec.generators[s]) for s in spec.letters} != table["generators"]
        return
    try:
        inp = input_from_json(table)
    except TesearchError:  # the loader refuses it already (a word past T)
        return
    assert not check_theorem1(inp, build_network(inp.letters, inp.generators)).ok, why


def test_a_real_hang_is_caught(tmp_path):
    """The runner kills a command that blocks (here: a FIFO with no reader, read as a table) and says so."""
    case = Case(["verify", "fifo.json"], fifos=["fifo.json"], seconds=3.0)
    outcome = run_case(case, tmp_path / "c")
    assert outcome.exit_code is None or outcome.exit_code == 2
    if outcome.exit_code is None:
        assert any("no exit" in w for w in outcome.wrong)


def test_output_attack_files_are_set_up(tmp_path):
    """A symlink output points at a committed copy the judge watches; the FIFO and device are made."""
    case = Case(["draw", "t.json", "-o", "link.png"], {"t.json": testing.committed("results/ring-4.json"),
                                                       "committed/compare.png": testing.committed("results/compare.png")},
                links={"link.png": "committed/compare.png"}, fifos=["f.png"], devices=["dev"])
    work = testing.make_sandbox(case, tmp_path)
    snap = testing.snapshot(tmp_path)
    assert snap["work/link.png"] == ("symlink", "committed/compare.png")
    assert snap["work/f.png"] == ("fifo",)
    assert snap["work/dev"][0] in ("device", "file")
    assert json.loads((work / "t.json").read_text())["network"] == "ring-4"


def test_watch_finds_a_process_left_behind():
    """A process started in the command's session outlives it: the watch finds it, then kills it."""
    import subprocess
    import time

    proc = subprocess.Popen(["sh", "-c", "sleep 30 & echo started"], stdout=subprocess.DEVNULL, start_new_session=True)
    watch = testing.Watch(proc.pid)
    watch.poll()
    proc.wait()
    time.sleep(0.1)
    left = watch.alive()
    assert any(name == "sleep" for name in left.values()), left
    watch.kill_all()
    deadline = time.monotonic() + 3
    while watch.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert watch.alive() == {}


def test_judge_excuses_only_an_interrupt_before_any_tesearch_code(tmp_path):
    """SIGINT inside Python's own start-up (site) is nobody's bug; one inside tesearch's imports is."""
    case = Case(["search", "star-5"], signal=(int(signal.SIGINT), 0.05, False))
    site = "Traceback (most recent call last):\n  File \"<frozen site>\", line 1\nKeyboardInterrupt\n"
    assert _judged(case, Run(1, "", site, 0.2, signal_sent=0.05), tmp_path=tmp_path) == []
    ours = site.replace("<frozen site>", str(testing.ROOT / "tesearch" / "entry.py"))
    assert any("traceback" in w for w in _judged(case, Run(1, "", ours, 0.2, signal_sent=0.05), tmp_path=tmp_path))


# ------------------------------------------------------------------ Ctrl-C on the fuzzer itself (issue 46)

def _processes_in(directory: str) -> dict[int, str]:
    """Processes whose working directory lies under ``directory`` (the fuzzer's cases run in sandboxes there)."""
    import os
    from pathlib import Path

    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "cwd").startswith(directory):
                    found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()[:100]
            except OSError:
                pass
    return found


@pytest.mark.slow  # draws cases (a few seconds), then runs some before the Ctrl-C
def test_ctrl_c_stops_the_fuzzer_promptly_in_one_line_and_stops_every_case(tmp_path):
    """benchmarks.fuzz took 4.0 s to stop on Ctrl-C (the interpreter's teardown), its workers printed
    KeyboardInterrupt tracebacks, and the cases they ran went on in their own sessions."""
    import os
    import subprocess
    import sys
    import time

    from conftest import ROOT
    from test_signals import SIGNAL_SLACK_S, STOP_S

    out, err = tmp_path / "stdout", tmp_path / "stderr"
    with open(out, "w") as stdout, open(err, "w") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "benchmarks.fuzz", "--per-command", "10", "--only",
                                 "verify,search,info", "--jobs", "2"], cwd=ROOT, stdout=stdout, stderr=stderr,
                                start_new_session=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    deadline = time.monotonic() + 120
    while "cases drawn" not in out.read_text() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    cases = {}
    while not cases and time.monotonic() < deadline and proc.poll() is None:  # a case is running
        cases = _processes_in(str(tmp_path / "tfz-"))
        time.sleep(0.05)
    assert cases and proc.poll() is None, out.read_text() + err.read_text()
    time.sleep(1.0)
    cases.update(_processes_in(str(tmp_path / "tfz-")))
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole foreground process group
    t0 = time.monotonic()
    proc.wait(timeout=60)
    stopped = time.monotonic() - t0
    assert proc.returncode == 130, err.read_text()
    assert err.read_text() == "fuzz.py: interrupted (SIGINT)\n"  # one line: no worker's traceback
    assert stopped < STOP_S + SIGNAL_SLACK_S, stopped
    time.sleep(0.5)
    alive = {pid: name for pid, name in cases.items() if os.path.exists(f"/proc/{pid}")
             and not open(f"/proc/{pid}/stat").read().split(")")[-1].split()[0] == "Z"}
    assert alive == {}, alive
    assert not list(tmp_path.glob("tfz-*"))


def test_the_stop_graces_stretch_only_on_a_busy_machine():
    """Up to 4 runnable processes per core the graces hold as they are; beyond, in proportion to the load (a load
    of 25 on 2 cores: 12.5 per core, 3.125 times)."""
    from tesearch.testing.cases import QUIET_LOAD_PER_CORE, TIMEOUT_GRACE, busy_grace

    assert busy_grace(TIMEOUT_GRACE, 0.5) == busy_grace(TIMEOUT_GRACE, QUIET_LOAD_PER_CORE) == TIMEOUT_GRACE
    assert busy_grace(2.0, 12.5) == pytest.approx(6.25)


def test_the_judge_stretches_a_grace_by_the_runs_own_load_not_the_machines_now(tmp_path):
    """A stop 8 s after SIGTERM is too slow on a quiet machine and within the grace at 20 runnable processes per
    core (3 x 5); a run made up without a load is judged as on a quiet machine, whatever the load at judging."""
    case = Case(["sweep", "ring-4"], signal=(int(signal.SIGTERM), 1.0, False))
    assert any("to stop after SIGTERM" in w for w in _judged(case, Run(143, "", "", 9.0, signal_sent=1.0),
                                                           tmp_path=tmp_path))
    assert _judged(case, Run(143, "", "", 9.0, signal_sent=1.0, load_per_core=20.0), tmp_path=tmp_path) == []
