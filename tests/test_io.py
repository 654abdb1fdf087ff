"""Issue 28 item 3: one checked way in for tables (tesearch.tables.loading), one safe way out for files (tesearch.running.files).

Each failure the issue saw has a test here that failed before the fix; the writer matrix runs every
command that writes a file against every output-path attack and requires exit 2, one line, and the
target left exactly as it was (bytes, inode, file type).
"""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from tesearch.running.errors import GeneratorsError, OptionError
from tesearch.running.files import (FIGURE_KIND, HTML_KIND, TRACE_KIND, PROGRAMS_KIND, SCHEDULE_KIND, TABLE_KIND, check_output, gzip_bytes,
                            sniff_kind, write_output)
from tesearch.tables.loading import InvalidTableError, load_checked_table, network_or_checked_table

RESULTS = ROOT / "results"
STAR4 = RESULTS / "star-4.json"


def star4_copy(path: Path, change=None) -> Path:
    """results/star-4.json written to ``path``, after ``change(data)`` if given."""
    data = json.loads(STAR4.read_text())
    if change is not None:
        change(data)
    path.write_text(json.dumps(data))
    return path


def one_error_line(result) -> str:
    """The command's error output, required to be exactly one line starting 'tesearch: '."""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tesearch: "), result.output
    return lines[0]


# ============================================================================ one way in

def moved_word(data):
    """Word 0 (row 0 from column 0) one column later: it overlaps its row's next word (verify: violations)."""
    row, column, word = data["placements"][0]
    data["placements"][0] = [row, column + 1, word]


def wrong_label(data):
    data["network"] = "pancake-4"  # star-4's generators are not pancake-4's


def wrong_lower_bound(data):
    data["lower_bound"] = 25  # star-4's counting bound is 21


def wrong_letter_bound(data):
    data["letter_bound"] = 23  # star-4's per-letter bound is 21


FAULTS = {
    "moved word": (moved_word, "Theorem 1"),
    "label": (wrong_label, "pancake-4"),
    "lower_bound": (wrong_lower_bound, "lower_bound is 25"),
    "letter_bound": (wrong_letter_bound, "letter_bound is 23"),
}

#: every command that takes a table, with its arguments (the table file, a scratch directory)
TABLE_COMMANDS = {
    "run": lambda table, tmp: ["run", table, "--mpi", "--quiet"],
    "library": lambda table, tmp: ["library", table, "-o", tmp / "lib", "--quiet"],
    "export": lambda table, tmp: ["export", table, "-o", tmp / "p.jsonl", "--quiet"],
    "certify": lambda table, tmp: ["certify", table, "-o", tmp / "c.json", "--quiet"],
    "draw": lambda table, tmp: ["draw", table, "-o", tmp / "d.png"],
    "compare": lambda table, tmp: ["compare", table, "--quiet"],
    "singleport": lambda table, tmp: ["singleport", table, "--quiet"],
    "repack --start": lambda table, tmp: ["repack", "star-4", "--start", table, "--quiet"],
}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("command", TABLE_COMMANDS)
def test_every_command_that_takes_a_table_refuses_what_verify_refuses(tmp_path, command, fault):
    change, fragment = FAULTS[fault]
    table = star4_copy(tmp_path / "bad.json", change)
    result = run_cli(*TABLE_COMMANDS[command](table, tmp_path))
    assert result.exit_code == 2, result.output
    line = one_error_line(result)
    assert str(table) in line and fragment in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]  # nothing written


def test_run_mpi_refuses_a_moved_word_before_mpiexec(tmp_path):
    """Issue 28: `run --mpi` on a table with a moved word printed `verdict: match` and exited 0."""
    table = star4_copy(tmp_path / "moved.json", moved_word)
    result = run_cli("run", table, "--mpi", "--quiet")
    assert result.exit_code == 2 and "verdict" not in result.output, result.output
    assert "row 0, column" in one_error_line(result)  # the fault's place: row, column, word


def test_replay_refuses_a_label_that_is_not_its_generators(tmp_path):
    """Issue 28: `replay` exited 0 on a table whose generators are not its label's; the check stays
    on the checking side (a fresh interpreter running replay loads neither verify, sympy nor z3)."""
    table = star4_copy(tmp_path / "label.json", wrong_label)
    assert run_cli("replay", star4_copy(tmp_path / "good.json"), "--quiet").exit_code == 0
    result = run_cli("replay", table, "--quiet")
    assert result.exit_code == 2, result.output
    assert "pancake-4" in one_error_line(result) and str(table) in result.stderr
    code = ("import sys\nfrom tesearch.cli.app import main\n"
            "try:\n    main([\"replay\", sys.argv[1], \"--quiet\"])\nexcept SystemExit as exc:\n    code = exc.code\n"
            "bad = [m for m in ('z3', 'sympy', 'tesearch.tables.verify', 'tesearch.networks.groups', 'tesearch.tables.loading') "
            "if m in sys.modules]\nprint(code, bad)")
    done = subprocess.run([sys.executable, "-c", code, str(table)], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.split("\n")[0] == "2 []", done.stdout + done.stderr


@pytest.mark.parametrize("fault", ["lower_bound", "letter_bound"])
def test_verify_fails_a_wrong_recorded_bound_as_the_loader_refuses_it(tmp_path, fault):
    """Issue 28: `verify` exited 0 on a table whose lower_bound was edited to 25; the loader and verify agree."""
    change, fragment = FAULTS[fault]
    table = star4_copy(tmp_path / "b.json", change)
    result = run_cli("verify", table, "--quiet")
    assert result.exit_code == 1 and "WRONG RECORDED BOUND" in result.output and fragment in result.output
    data = json.loads(run_cli("verify", table, "--json", "--quiet").stdout)
    assert data["valid"] and fragment in data["recorded_bound_faults"][0]
    assert run_cli("verify", STAR4, "--quiet").exit_code == 0


def test_the_loader_names_the_fault_and_accepts_a_valid_table(tmp_path):
    assert load_checked_table(STAR4, command="x").T == 21
    with pytest.raises(InvalidTableError, match=r"4 violations of Theorem 1 of the table method; the first: words-overlap-in-row: row 0, column 4"):
        load_checked_table(star4_copy(tmp_path / "m.json", moved_word), command="x")
    with pytest.raises(GeneratorsError, match="pancake-4"):
        load_checked_table(star4_copy(tmp_path / "l.json", wrong_label), command="x")
    data = json.loads(STAR4.read_text())
    data["lower_bound"] = None  # the format allows a table without one
    (tmp_path / "n.json").write_text(json.dumps(data))
    assert load_checked_table(tmp_path / "n.json", command="x").lower_bound is None


SMALL_COMMITTED = sorted(p for p in [*RESULTS.glob("*.json"), *(ROOT / "proofs" / "tables").glob("*.json")]
                         if p.stat().st_size < 100_000 and sniff_kind(p) == "tesearch-table")


def test_every_small_committed_table_loads():
    """No false refusal: the recorded bounds of the committed tables are the ones verify recomputes.
    (All 147 committed tables, hypercube-20 included, were checked once by hand: none refused.)"""
    assert len(SMALL_COMMITTED) > 30
    for path in SMALL_COMMITTED:
        load_checked_table(path, command="test")


def test_compare_accepts_the_generator_files_info_accepts(tmp_path, monkeypatch):
    """Issue 28: `compare` refused a generators file that `info` accepts."""
    gens = json.loads(STAR4.read_text())["generators"]
    bare = tmp_path / "gens.json"
    bare.write_text(json.dumps(gens))
    labelled = tmp_path / "labelled.json"
    labelled.write_text(json.dumps({"network": "star-4", "generators": gens}))
    for path in (bare, labelled):
        assert run_cli("info", path).exit_code == 0
        result = run_cli("compare", path, "--quiet")
        assert result.exit_code == 0, result.output
        assert "tesearch table" not in result.output  # a network, not a table
    (tmp_path / "star-4").write_text("not a network")  # a file named like a spec does not shadow the spec
    monkeypatch.chdir(tmp_path)
    assert network_or_checked_table("star-4", command="compare")[0].spec == "star-4"
    assert network_or_checked_table("gens.json", command="compare")[0].degree == 3
    net, table = network_or_checked_table(str(labelled), command="compare")
    assert net.spec == "star-4" and table is None
    net, table = network_or_checked_table(str(STAR4), command="compare")
    assert table is not None and table.T == 21


def test_an_error_echoing_a_newline_is_one_line():
    """Issue 28: `tesearch info $'star-4\\nx'` gave a two-line error."""
    for args in (["info", "star-4\nx"], ["info", "star-4\x1b[2J"], ["compare", "ring-\r6"]):
        result = run_cli(*args)
        assert result.exit_code == 2
        line = one_error_line(result)
        assert "\\n" in line or "\\x1b" in line or "\\r" in line, line


# ============================================================================ one way out

def fingerprint(path: Path):
    """What must not change: the entry's type, inode, link target or bytes."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        return ("link", info.st_ino, os.readlink(path), fingerprint(path.resolve()))
    if stat.S_ISREG(info.st_mode):
        return ("file", info.st_ino, path.read_bytes())
    return (stat.S_IFMT(info.st_mode), info.st_ino, info.st_rdev)


#: every command that writes a file: (its kind, arguments given the file it reads and the output path)
WRITERS = {
    "search --out": (TABLE_KIND, lambda src, out: ["search", src, "--out", out, "--quiet"]),
    "stratify --out": (TABLE_KIND, lambda src, out: ["stratify", src, "--out", out, "--quiet"]),
    "lift --out": (TABLE_KIND, lambda src, out: ["lift", src, "--out", out, "--quiet"]),
    "repack --out": (TABLE_KIND, lambda src, out: ["repack", "star-4", "--start", src, "--out", out, "--quiet"]),
    "construct --out": (TABLE_KIND, lambda src, out: ["construct", src, "--out", out, "--quiet"]),
    "singleport --out": (SCHEDULE_KIND, lambda src, out: ["singleport", src, "--out", out, "--quiet"]),
    "draw -o": (FIGURE_KIND, lambda src, out: ["draw", src, "-o", out]),
    "export -o": (PROGRAMS_KIND, lambda src, out: ["export", src, "-o", out, "--quiet"]),
    "certify -o": (None, lambda src, out: ["certify", src, "-o", out, "--quiet"]),
    "bound -o": (None, lambda src, out: ["bound", "ring-6", "-o", out, "--quiet"]),
    "replay --plot": (FIGURE_KIND, lambda src, out: ["replay", src, "--plot", out, "--quiet"]),
    "sweep --runs": (None, lambda src, out: ["sweep", src, "--runs", out, "--quiet", "--timeout", "5"]),
    "export --format chrome-trace -o": (TRACE_KIND, lambda src, out: ["export", src, "--format", "chrome-trace",
                                                                      "-o", out, "--quiet"]),
    "view -o": (HTML_KIND, lambda src, out: ["view", src, "-o", out, "--quiet"]),
}
ATTACKS = ["input as output", "symlink to a file", "device", "fifo", "wrong extension", "another kind"]
PNG_BYTES = b"\x89PNG\r\n\x1a\n" + bytes(32)


#: (major, minor) of /dev/null and /dev/full on Linux
NULL_DEVICE, FULL_DEVICE = (1, 3), (1, 7)


def private_device(path: Path, numbers: tuple[int, int]) -> Path:
    """A character device node of our own at ``path`` (as root), else the system's /dev/null.

    Never the system's node as root: a regression (or the code before the fix) would replace it
    with a regular file for every process on the machine, which the code before the fix did.
    """
    if os.geteuid() != 0:
        return Path(os.devnull)  # nobody but root could replace it
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(*numbers))
    return path


def good_suffix(kind) -> str:
    return ".json" if kind is None else kind.suffixes[0]


def attack_target(attack: str, kind, tmp_path: Path, src: Path) -> Path:
    suffix = good_suffix(kind)
    if attack == "input as output":
        return src
    if attack == "symlink to a file":
        committed = tmp_path / "committed" / f"figure{suffix}"
        committed.parent.mkdir()
        committed.write_bytes(PNG_BYTES if suffix == ".png" else b'{"format": "something committed"}\n')
        link = tmp_path / f"link{suffix}"
        link.symlink_to(committed)
        return link
    if attack == "device":
        return private_device(tmp_path / f"null{suffix}", NULL_DEVICE)
    if attack == "fifo":
        fifo = tmp_path / f"fifo{suffix}"
        os.mkfifo(fifo)
        return fifo
    if attack == "wrong extension":
        return tmp_path / ("out.txt" if kind in (FIGURE_KIND, SCHEDULE_KIND, PROGRAMS_KIND, None) else "out.png")
    other = tmp_path / f"other{suffix}"
    if kind is TABLE_KIND:
        other.write_bytes(PNG_BYTES)  # a picture under a table's name
    else:
        star4_copy(other)  # a table where a schedule, a picture, programs or a certificate would go
    return other


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("writer", WRITERS)
def test_no_command_writes_where_it_must_not(tmp_path, writer, attack):
    kind, arguments = WRITERS[writer]
    src = star4_copy(tmp_path / "star-4.json")
    target = attack_target(attack, kind, tmp_path, src)
    before = fingerprint(target) if os.path.lexists(target) else None
    src_before = src.read_bytes()
    result = run_cli(*arguments(src, target))
    assert result.exit_code == 2, result.output
    one_error_line(result)
    assert (fingerprint(target) if os.path.lexists(target) else None) == before
    assert src.read_bytes() == src_before
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert not leftovers  # no temporary file left beside the target


def test_singleport_keeps_an_optimal_table_without_force(tmp_path):
    """Issue 28: `singleport --out best.json` replaced an optimal table with a schedule, without --force."""
    best = star4_copy(tmp_path / "best.json")
    before = best.read_bytes()
    result = run_cli("singleport", "star-4", "--out", best, "--quiet")
    assert result.exit_code == 2 and "tesearch table" in one_error_line(result)
    assert best.read_bytes() == before
    result = run_cli("singleport", "star-4", "--out", best, "--force", "--quiet")
    assert result.exit_code == 0, result.output
    assert json.loads(best.read_text())["format"] == "tesearch-schedule"


def test_export_and_certify_never_write_over_their_own_input(tmp_path):
    """Issue 28: `export -o` and `certify -o` overwrote anything, their own input table included;
    --force does not change that."""
    table = star4_copy(tmp_path / "t.json")
    before = table.read_bytes()
    for args in (["export", table, "-o", table], ["certify", table, "-o", table],
                 ["certify", table, "-o", table, "--force"], ["draw", table, "-o", tmp_path / "t.png", "--force"]):
        result = run_cli(*args, "--quiet") if args[0] != "draw" else None
        if result is None:
            (tmp_path / "t.png").symlink_to(table)
            result = run_cli(*args)
        assert result.exit_code == 2, (args, result.output)
        assert table.read_bytes() == before


def test_replay_plot_never_follows_a_link_and_checks_the_extension(tmp_path):
    """Issue 28: `replay --plot link.png` overwrote the committed figure the link points to; `--plot p.txt`
    exited 70."""
    figure = tmp_path / "figure.png"
    figure.write_bytes(PNG_BYTES)
    link = tmp_path / "link.png"
    link.symlink_to(figure)
    result = run_cli("replay", STAR4, "--plot", link, "--quiet")
    assert result.exit_code == 2 and "symbolic link" in one_error_line(result)
    assert figure.read_bytes() == PNG_BYTES and link.is_symlink()
    result = run_cli("replay", STAR4, "--plot", tmp_path / "p.txt", "--quiet")
    assert result.exit_code == 2 and ".png or .svg" in one_error_line(result)
    result = run_cli("replay", STAR4, "--plot", tmp_path / "p.png", "--quiet")
    assert result.exit_code == 0 and (tmp_path / "p.png").read_bytes().startswith(PNG_BYTES[:8])


def test_export_refuses_a_gz_name(tmp_path):
    """Issue 28: `export -o x.gz` wrote plain text under a .gz name (the programs are read line by line)."""
    result = run_cli("export", STAR4, "-o", tmp_path / "x.gz", "--quiet")
    assert result.exit_code == 2 and ".jsonl" in one_error_line(result)
    assert not (tmp_path / "x.gz").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root could replace a device node")
def test_export_never_replaces_a_device_node_as_root(tmp_path):
    """Issue 28: as root, `export -o /dev/full` replaced the device node with a regular file
    (a private copy of /dev/full's node here, so that a regression cannot break the machine's)."""
    full = private_device(tmp_path / "full", FULL_DEVICE)
    before = fingerprint(full)
    result = run_cli("export", STAR4, "-o", full, "--quiet")
    assert result.exit_code == 2 and "device" in one_error_line(result)
    assert fingerprint(full) == before and stat.S_ISCHR(os.lstat(full).st_mode)


def test_the_writer_itself(tmp_path):
    """write_output: atomic, refuses inputs, links, non-regular files, wrong names and other kinds;
    --force replaces another kind but never a link."""
    out = tmp_path / "s.json"
    write_output(out, "{}\n", kind=SCHEDULE_KIND)
    assert out.read_text() == "{}\n"  # a JSON file tesearch did not write: now replaced only with force
    with pytest.raises(OptionError, match="JSON file tesearch did not write"):
        write_output(out, "x", kind=SCHEDULE_KIND)
    write_output(out, '{"format": "tesearch-schedule"}\n', kind=SCHEDULE_KIND, force=True)
    write_output(out, '{"format": "tesearch-schedule", "v": 2}\n', kind=SCHEDULE_KIND)  # same kind: replaced
    assert sniff_kind(out) == "tesearch-schedule"
    with pytest.raises(OptionError, match="inputs"):
        write_output(out, "x", kind=SCHEDULE_KIND, inputs=[tmp_path / "." / "s.json"])
    hard = tmp_path / "hard.json"
    os.link(out, hard)
    with pytest.raises(OptionError, match="inputs"):
        check_output(hard, kind=SCHEDULE_KIND, inputs=[out])
    link = tmp_path / "l.json"
    link.symlink_to(out)
    with pytest.raises(OptionError, match="symbolic link"):
        write_output(link, "x", kind=SCHEDULE_KIND, force=True)
    dangling = tmp_path / "d.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(OptionError, match="symbolic link"):
        write_output(dangling, "x", kind=SCHEDULE_KIND, force=True)
    assert not (tmp_path / "nowhere.json").exists()
    with pytest.raises(OptionError, match="ending in .json"):
        write_output(tmp_path / "s.json.txt", "x", kind=SCHEDULE_KIND)
    (tmp_path / "sub.json").mkdir()
    with pytest.raises(OptionError, match="directory"):
        write_output(tmp_path / "sub.json", "x", kind=SCHEDULE_KIND, force=True)
    text_table = tmp_path / "t.txt"
    text_table.write_text("network: star-4\n\n1 2 | 3\n")
    assert sniff_kind(text_table) == "tesearch-table"
    gz_table = tmp_path / "t.json.gz"
    gz_table.write_bytes(gzip_bytes(STAR4.read_bytes()))
    assert sniff_kind(gz_table) == "tesearch-table"
    picture_name = tmp_path / "t.png"
    picture_name.write_bytes(gz_table.read_bytes())
    with pytest.raises(OptionError, match="tesearch table, not a picture"):
        check_output(picture_name, kind=FIGURE_KIND)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("command", ["certify", "compare"])
def test_the_table_check_runs_where_the_time_limit_holds(tmp_path, command):
    """Checking a large table takes a while (hypercube-20: 160 s): --timeout stops it, names the phase,
    and nothing is written."""
    from tesearch.running.limits import STALL_PHASE_VARIABLE
    from tesearch.tables.loading import CHECK_PHASE

    table = star4_copy(tmp_path / "t.json")
    args = {"certify": ["certify", table, "-o", tmp_path / "c.json"], "compare": ["compare", table]}[command]
    result = run_cli(*args, "--timeout", "1", "--quiet", env={STALL_PHASE_VARIABLE: CHECK_PHASE})
    assert result.exit_code == 4 and f"(in phase: {CHECK_PHASE})" in one_error_line(result)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.json"]


def test_replay_and_verify_partial_refuse_a_wrong_recorded_lower_bound(tmp_path):
    """The fuzzing run found both exiting 0 on ring-6 with lower_bound 9 (the counting bound is 5)."""
    data = json.loads((ROOT / "results" / "ring-6.json").read_text())
    data["lower_bound"] = 9
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    replayed = run_cli("replay", path)
    assert replayed.exit_code == 2 and "lower_bound is 9" in one_error_line(replayed)
    partial = run_cli("verify", path, "--partial")
    assert partial.exit_code == 1 and "lower_bound is 9" in partial.output
    data["lower_bound"] = 5
    path.write_text(json.dumps(data))
    assert run_cli("replay", path).exit_code == 0


@pytest.mark.parametrize("letter_bound", [4, 6, "6"])
def test_replay_refuses_a_wrong_recorded_letter_bound(tmp_path, letter_bound):
    """Issue 39: replay refused a tampered lower_bound but took a tampered letter_bound (REPLAY OK, exit 0). ring-6's
    per-letter bound is 5 and exact, so the kernel's own bounds refute 4 and 6 (and a string) without the prover."""
    data = json.loads((ROOT / "results" / "ring-6.json").read_text())
    assert data["letter_bound"] == 5
    data["letter_bound"] = letter_bound
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    replayed = run_cli("replay", path)
    assert replayed.exit_code == 2, replayed.output
    assert "letter_bound" in one_error_line(replayed) and str(path) in one_error_line(replayed)


#: a command that makes a table, a network whose table it makes, and a phase of its work (made to hang: a command
#: that starts its work before checking its output runs into its --timeout instead of refusing at once)
MAKERS = [
    (["search", "star-5"], "candidate words"),
    (["narrow", "star-5"], "candidate words"),
    (["lift", "torus-4x8"], "solve lift"),
    (["repack", "star-5"], "greedy first fit"),
    (["stratify", "star-5"], "solve core"),
    (["construct", "hypercube-3"], "construct"),
]


@pytest.mark.parametrize("args,work_phase", MAKERS)
def test_an_output_holding_another_networks_table_is_refused_before_the_work(tmp_path, args, work_phase):
    """Issue 39: search, narrow, lift, repack and stratify with -o FILE holding another network's table ran the
    whole search, then exited 2 with the table found neither written nor printed. Now the output is checked first,
    as the save would check it; the work, made to hang here, never starts."""
    from tesearch.running.limits import STALL_PHASE_VARIABLE

    out = star4_copy(tmp_path / "t.json")
    before = out.read_bytes()
    result = run_cli(*args, "-o", out, "--timeout", "20", "--quiet", env={STALL_PHASE_VARIABLE: work_phase})
    assert result.exit_code == 2, result.output
    assert f"{out}: not replaced: it holds a table of star-4 total, not {args[1]} total" in one_error_line(result)
    assert result.stdout == "" and out.read_bytes() == before
