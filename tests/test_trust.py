"""Issue 14's "what was seen", one regression test each: interrupts, outputs, sizes, options, hostile files.

Signals are sent to a real `tesearch` process; everything else runs in process.
"""

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from tesearch.running.limits import STALL_PHASE_VARIABLE

TESEARCH = [sys.executable, "-m", "tesearch.entry"]
#: the time limit of a run stalled in its solver (pancake-4 gets there in under half a second)
STALLED_LIMIT_S = 3


def start(*args, cwd=None):
    """A real tesearch process (its own stdout/stderr), as a user's shell would start it."""
    code = "import sys; from tesearch.entry import run; sys.argv[0] = 'tesearch'; run()"
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for(proc, seconds):
    try:
        return proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(f"the process did not stop within {seconds} s")


# ------------------------------------------------------------------ Ctrl-C and SIGTERM lose nothing

@pytest.mark.parametrize("signum,code,delay", [(signal.SIGINT, 130, 4.0),
                                               pytest.param(signal.SIGINT, 130, 1.5, marks=pytest.mark.slow),
                                               pytest.param(signal.SIGTERM, 143, 4.0, marks=pytest.mark.slow)])
@pytest.mark.slow  # 2-4 s: the everyday run stays under 2 minutes (the full suite runs it)
def test_a_signal_stops_the_search_at_once_and_keeps_the_better_table(tmp_path, signum, code, delay):
    """pancake-5 over a file holding the committed T = 107 table: the search (greedy 118) is stopped."""
    out = tmp_path / "x.json"
    shutil.copy(ROOT / "results" / "pancake-5.json", out)
    before = out.read_bytes()
    proc = start("search", "pancake-5", "--timeout", "60", "--out", out)
    time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(signum)
    stdout, stderr = wait_for(proc, 10)
    assert time.monotonic() - sent < 5
    assert proc.returncode == code, stderr
    assert "Traceback" not in stderr and "written to" not in stdout
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]  # no temporary file left behind


@pytest.mark.slow  # 8 s of Z3; the everyday twin below stops pancake-4 at the limit the same way
def test_a_better_table_is_kept_and_not_reported_as_written(tmp_path):
    out = tmp_path / "x.json"
    shutil.copy(ROOT / "results" / "pancake-5.json", out)
    before = out.read_bytes()
    result = run_cli("search", "pancake-5", "--timeout", "8", "--out", out, "--quiet")
    assert result.exit_code in (0, 4)
    assert out.read_bytes() == before
    assert "written to" not in result.stdout


def test_a_better_table_is_kept_at_the_limit(tmp_path):
    """pancake-4 over a file holding the committed T = 20 table, stopped by the time limit in its
    solver: the verified greedy table it offered (T = 23) is not written, and it says so."""
    out = tmp_path / "x.json"
    shutil.copy(ROOT / "results" / "pancake-4.json", out)
    before = out.read_bytes()
    result = run_cli("search", "pancake-4", "--timeout", STALLED_LIMIT_S, "--out", out, "--quiet",
                     env={STALL_PHASE_VARIABLE: "solve full"})
    assert result.exit_code == 4, result.output
    assert out.read_bytes() == before
    assert "written to" not in result.output
    assert "best verified table before the limit: T = 23 (route full); kept" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]


def test_files_get_the_umask_mode(tmp_path):
    out = tmp_path / "t.json"
    assert run_cli("search", "ring-6", "--out", out, "--quiet").exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask


def test_readme_command_one_leaves_results_alone():
    readme = (ROOT / "README.md").read_text()
    command = next(line for line in readme.splitlines() if "tesearch search" in line)
    out = command.split("--out", 1)[1].split()[0]
    assert not out.startswith("results/"), command


# ------------------------------------------------------------------ sizes refused before allocation

@pytest.mark.parametrize("spec", ["star-99999", "torus-2000x2000", "hypercube-26", "ring-100000000", "star-12",
                                  "pancake-12", "star-11"])
def test_oversized_networks_are_refused_at_once(spec):
    started = time.monotonic()
    proc = start("info", spec)
    stdout, stderr = wait_for(proc, 30)
    assert proc.returncode == 2, stderr
    assert time.monotonic() - started < 5  # under 2 s on an idle machine; the suite runs beside other work
    assert stderr.count("\n") == 1 and ("limit" in stderr) and "Traceback" not in stderr


def test_a_huge_generators_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "g.json"
    with open(path, "w") as fh:  # 2^21 points, about 15 MB of digits per generator: over the 16 MiB file limit
        n = 2 ** 21
        fh.write('{"a": [' + ",".join(map(str, [*range(1, n), 0])) + '], "b": [' +
                 ",".join(map(str, [n - 1, *range(n - 1)])) + "]}")
    result = run_cli("info", path)
    assert result.exit_code == 2 and "more than the limit" in result.stderr


def test_max_order_option_raises_and_lowers_the_limit():
    assert run_cli("info", "star-5", "--max-order", "100").exit_code == 2
    assert run_cli("info", "star-5", "--max-order", "120").exit_code == 0


# ------------------------------------------------------------------ hostile files

@pytest.mark.parametrize("content", ["[" * 100000, b"\xff\xfe{}", "{\"format\": NaN}", "1" * 5000])
@pytest.mark.parametrize("command", ["verify", "replay", "draw", "check-proof", "info"])
def test_hostile_json_is_one_line_and_exit_2(tmp_path, content, command):
    path = tmp_path / "bad.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    args = [command, path] + (["-o", tmp_path / "p.png"] if command == "draw" else [])
    result = run_cli(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert not (tmp_path / "p.png").exists()


def test_a_directory_or_device_is_not_a_table(tmp_path):
    assert run_cli("verify", tmp_path).exit_code == 2
    assert run_cli("verify", "/dev/zero").exit_code == 2


def test_draw_refuses_huge_tables_and_unknown_letters(tmp_path):
    table = json.loads((ROOT / "results" / "ring-6.json").read_text())
    table["T"] = 4 * 10 ** 8
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(table))
    result = run_cli("draw", huge, "-o", tmp_path / "x.png")
    assert result.exit_code == 2 and "columns" in result.stderr
    table = json.loads((ROOT / "results" / "ring-6.json").read_text())
    table["placements"][0][2] = ["q"]
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(table))
    result = run_cli("draw", odd, "-o", tmp_path / "x.png")
    assert result.exit_code == 2 and "'q'" in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_text_table_header_must_be_a_number(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("network: ring-6\nT: abc\n\na | A\nA | a\n")
    result = run_cli("verify", path)
    assert result.exit_code == 2 and "'T:'" in result.stderr


# ------------------------------------------------------------------ options validated

@pytest.mark.parametrize("args", [
    ["search", "star-4", "--timeout", "inf"], ["search", "star-4", "--timeout", "-1"],
    ["search", "star-4", "--timeout", "0"], ["search", "star-4", "--timeout", "nan"],
    ["search", "star-4", "--word-cap", "0"], ["search", "star-4", "--word-cap", "-1"],
    ["search", "star-4", "--max-width", "-3"], ["search", "star-4", "--from-width", "0"],
    ["search", "star-4", "--from-width", "30", "--max-width", "25"],
    ["search", "star-4", "--out", "/proc/x.json"], ["search", "star-4", "--max-memory", "lots"],
    ["repack", "star-4", "--timeout", "-1"], ["repack", "star-4", "--tail", "-5"],
    ["repack", "star-4", "--workers", "0"], ["stratify", "star-4", "--solver-timeout", "0"],
    ["lift", "torus-4x8", "--ring", "-1"], ["construct", "pancake-4"], ["stratify", "pancake-4"],
    ["construct", "star-5", "--exchange", "odd-distance"], ["construct", "hypercube-99"],
    ["draw", "results/ring-6.json", "-o", "{tmp}/x.png", "--window", "-1:3"],
    ["certify", "results/ring-6.json", "-o", "/proc/x.json"],
    ["certify", "results/ring-6.json", "--refutation", "/nope.smt2", "-o", "{tmp}/c.json"],
    ["certify", "results/ring-6.json", "--refutation", "../e.smt2", "-o", "{tmp}/c.json"],
    ["certify", "results/ring-6-cyclic.json", "--refutation", "encodings/ring-12_cyclic-total-full-T18.smt2",
     "-o", "{tmp}/c.json"],
])
def test_bad_options_exit_2_with_one_line(tmp_path, args):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    args = [str(ROOT / a) if a.startswith(("results/", "encodings/")) else a for a in args]
    result = run_cli(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "c.json").exists()


def test_max_width_below_the_bound_is_infeasible_by_the_bound(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("search", "star-4", "--max-width", "5", "--out", out, "--json", "--quiet")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert data["status"] == "infeasible" and data["refuted_widths"] == [5] and not out.exists()


def test_python_m_entry_points_are_gone():
    for module in ("tesearch.frontier.hypercube", "tesearch.frontier.star", "tesearch.frontier.product"):
        done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True,
                              cwd=ROOT)
        assert done.returncode != 0 and "No module named" in done.stderr
    assert not any(Path(ROOT).glob("--help")) and not any(Path(ROOT).glob("-h"))
