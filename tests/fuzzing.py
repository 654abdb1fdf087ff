"""Fuzzing every subcommand: hypothesis strategies for hostile input, and a judge of one run.

A *case* is a command line plus the files it reads, written into a fresh sandbox directory.
:func:`run_case` runs it in its own process (forked from this one, so the heavy imports are
paid once) with stdout and stderr to files, and :func:`judge` says whether the outcome is
acceptable:

* the exit code is one the CLI documents (tesearch.terms.ExitCode, less INTERNAL);
* stderr holds no "Traceback" and no "internal error";
* the process ends within its time (a hang is wrong);
* on any failure (exit != 0) every file that was in the sandbox before is byte for byte as it was.

tests/test_fuzz.py runs a few hundred cases; benchmarks/fuzz.py runs thousands and counts them.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import signal
import string
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

# the heavy modules every command may load, imported once here so that each forked case starts at once
for _name in ("numpy", "sympy.combinatorics", "z3", "tesearch.certificate", "tesearch.cli.checking",
              "tesearch.cli.network", "tesearch.cli.searching", "tesearch.cli.tables", "tesearch.info",
              "tesearch.replay", "tesearch.search", "tesearch.kernel"):
    importlib.import_module(_name)

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_EXITS = {0, 1, 2, 3, 4}
#: seconds one case may take before it counts as a hang (a run has --timeout 5 where it takes one)
CASE_SECONDS = 40

FAMILIES = ["star", "hypercube", "ring", "torus", "pancake", "bubblesort", "blob", "Star", ""]
SMALL_TABLES = ["ring-6.json", "star-4.json", "hypercube-3.json", "torus-3x3.json", "ring-4-cyclic.json"]


@dataclass
class Case:
    """A command line and the files (name -> bytes) it reads from its sandbox."""

    args: list[str]
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def command(self) -> str:
        return self.args[0] if self.args else "(none)"


@dataclass
class Outcome:
    """What one run did."""

    exit_code: int | None
    stderr: str
    seconds: float
    changed: list[str]

    def problems(self) -> list[str]:
        """Why the outcome is wrong (empty when it is acceptable)."""
        out = []
        if self.exit_code is None:
            out.append(f"no exit within {CASE_SECONDS} s")
        elif self.exit_code not in ALLOWED_EXITS:
            out.append(f"exit code {self.exit_code}")
        if "Traceback" in self.stderr:
            out.append("a traceback on stderr")
        if "internal error" in self.stderr:
            out.append("an internal error")
        if self.exit_code not in (0, None) and self.changed:
            out.append(f"a failed run changed {self.changed}")
        return out


# ------------------------------------------------------------------ strategies

numbers = st.one_of(st.integers(-5, 40).map(str), st.sampled_from(["0", "1", "99999", "100000000", "2.5", "x",
                                                                    "", "-1", "1e9", "٣"]))
specs = st.one_of(
    st.builds(lambda f, a: f"{f}-{a}", st.sampled_from(FAMILIES), numbers),
    st.builds(lambda sides, g: "torus-" + "x".join(sides) + g, st.lists(numbers, min_size=1, max_size=4),
              st.sampled_from(["", ":cyclic", ":dihedral", ":twisted", ":cyclic,dihedral", ":x"])),
    st.builds(lambda n, g: f"ring-{n}{g}", numbers, st.sampled_from(["", ":cyclic", ":dihedral", ":weird"])),
    st.text(alphabet=string.printable, max_size=30),
    st.sampled_from(["star-4", "ring-6", "hypercube-3", "torus-3x3", "pancake-4", "bubblesort-4", "ring-6:cyclic",
                     "star-3", "torus-2x2x2", "ring-3"]),
)


def _table(name: str) -> dict:
    return json.loads((ROOT / "results" / name).read_text())


def _mutate_json(value, draw, depth=0):
    """A structurally plausible, possibly hostile, variant of a JSON value."""
    choice = draw(st.integers(0, 9))
    if depth > 3 or choice == 0:
        return draw(st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                              st.text(max_size=8), st.just([]), st.just({})))
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        out = dict(value)
        action = draw(st.integers(0, 3))
        if action == 0:
            del out[key]
        elif action == 1:
            out[key] = _mutate_json(value[key], draw, depth + 1)
        elif action == 2:
            out[draw(st.text(max_size=6))] = _mutate_json(value[key], draw, depth + 1)
        else:
            out[key] = _mutate_json(out[key], draw, depth + 1)
        return out
    if isinstance(value, list) and value:
        out = list(value)
        i = draw(st.integers(0, len(out) - 1))
        action = draw(st.integers(0, 3))
        if action == 0:
            del out[i]
        elif action == 1:
            out[i] = _mutate_json(out[i], draw, depth + 1)
        elif action == 2:
            out.append(out[i])
        else:
            out.insert(i, _mutate_json(out[i], draw, depth + 1))
        return out
    if isinstance(value, int) and not isinstance(value, bool):
        return draw(st.sampled_from([value + 1, value - 1, -value, 0, 10 ** 12, 2 ** 31, 2 ** 63, -1]))
    if isinstance(value, str):
        return draw(st.sampled_from([value + "x", "", "star-5", "custom:x", "ring-6:cyclic", "odd-distance",
                                     "\u0000", value * 3]))
    return value


@st.composite
def table_bytes(draw) -> bytes:
    """A small valid table, mutated; or text-form garbage; or raw hostile bytes."""
    kind = draw(st.integers(0, 9))
    if kind <= 5:
        data = _table(draw(st.sampled_from(SMALL_TABLES)))
        for _ in range(draw(st.integers(1, 3))):
            data = _mutate_json(data, draw)
        return json.dumps(data).encode()
    if kind <= 7:
        rows = draw(st.lists(st.text(alphabet="aAbB'|. 0123\n", max_size=30), min_size=0, max_size=4))
        header = draw(st.sampled_from(["network: ring-6\n", "network: ring-6\nT: abc\n", "network: star-9\n",
                                       "network: ring-6\nexchange: odd\n", "", "network: custom:x\n"]))
        return (header + "\n" + "\n".join(rows)).encode()
    return draw(st.sampled_from([b"[" * 5000, b"\xff\xfe\x00", b"{}", b"null", b"", b"{\"format\": NaN}",
                                 b"9" * 5000, json.dumps({"format": "tesearch-table"}).encode()]))


@st.composite
def generator_bytes(draw) -> bytes:
    """A generators file: permutations (valid or not) under random letters, maybe inside a table object."""
    points = draw(st.integers(0, 7))
    letters = draw(st.lists(st.text(alphabet="ab'A .|1", min_size=0, max_size=3), min_size=0, max_size=4))
    gens = {}
    for letter in letters:
        perm = list(range(points))
        random.Random(draw(st.integers(0, 10 ** 6))).shuffle(perm)
        if draw(st.booleans()):
            perm = draw(st.lists(st.integers(-2, 9), max_size=8))
        gens[letter] = perm
    wrapper = draw(st.sampled_from(["bare", "table", "labelled"]))
    if wrapper == "bare":
        return json.dumps(gens).encode()
    label = draw(st.sampled_from(["star-4", "custom:mine", "ring-6", "x"]))
    return json.dumps({"generators": gens, "network": label} if wrapper == "labelled" else {"generators": gens}).encode()


@st.composite
def certificate_bytes(draw) -> bytes:
    """A small committed certificate, mutated (paths, hashes, claims, nesting)."""
    name = draw(st.sampled_from(["ring-6.json", "star-4.json", "ring-6-cyclic.json", "hypercube-3.json"]))
    data = json.loads((ROOT / "proofs" / name).read_text())
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate_json(data, draw)
    claims = data.get("impossibility_claims") if isinstance(data, dict) else None
    if draw(st.integers(0, 4)) == 0 and isinstance(claims, list) and claims and isinstance(claims[0], dict) \
            and isinstance(claims[0].get("encoding"), dict):
        claims[0]["encoding"]["path"] = draw(st.sampled_from(
            ["/etc/passwd", "../../../etc/passwd", "encodings/../../x", "", "encodings/nope.smt2"]))
    return json.dumps(data).encode()


options = st.lists(st.sampled_from([
    "--timeout", "-1", "0", "nan", "inf", "5", "--max-memory", "1", "10M", "lots", "--max-order", "0", "30",
    "--exchange", "odd-distance", "total", "both", "--json", "--quiet", "--force", "--word-cap", "--max-width",
    "--from-width", "3", "-3", "--strategy", "full", "rotation", "--backend", "cpsat", "--window", "1:2", "-1:3",
    "--partial", "--engine", "streaming", "reference", "--model", "single-port", "--ring", "--mode", "cyclic",
    "--tail", "--workers", "--algorithm", "a2", "--attempt-timeout", "--solver-timeout", "--allow-unchecked",
]), max_size=4)


@st.composite
def cases(draw, command: str | None = None) -> Case:
    """A command line for one subcommand (or any), with its hostile input files."""
    command = command or draw(st.sampled_from(COMMANDS))
    extra = draw(options) if draw(st.integers(0, 2)) == 0 else []
    network_commands = {"info", "search", "stratify", "lift", "repack", "construct", "singleport"}
    if command in network_commands:
        if draw(st.integers(0, 4)) == 0:
            return Case([command, "g.json", *extra, *_bounded(command, extra)], {"g.json": draw(generator_bytes())})
        spec = draw(specs)
        out = ["--out", "out.json"] if draw(st.booleans()) and command != "info" else []
        files = {"out.json": draw(table_bytes())} if out and draw(st.booleans()) else {}
        return Case([command, spec, *out, *extra, *_bounded(command, extra)], files)
    if command in ("verify", "replay", "draw", "view"):
        name = draw(st.sampled_from(["t.json", "t.txt"]))
        args = [command, name, *extra]
        if command == "draw":
            args += ["-o", draw(st.sampled_from(["p.png", "p.svg", "p.jpg", "missing/p.png"]))]
        if command == "view":
            args += ["-o", draw(st.sampled_from(["p.html", "p.png", "missing/p.html"]))]
        return Case(args + _bounded(command, extra), {name: draw(table_bytes())})
    if command == "certify":
        refute = ["--refutation", draw(st.sampled_from(["e.smt2", "/nope.smt2", "../e.smt2"]))] \
            if draw(st.booleans()) else []
        files = {"t.json": draw(table_bytes())}
        if refute and refute[1] == "e.smt2":
            files["e.smt2"] = draw(st.sampled_from([b"(check-sat)", b"(assert (", b"",
                                                    (ROOT / "encodings" / "ring-4_cyclic-total-full-T2.smt2").read_bytes()]))
        return Case([command, "t.json", *refute, "-o", "c.json", *extra, *_bounded(command, extra)], files)
    if command == "check-proof":
        return Case([command, "c.json", *extra, "--solver-timeout", "5", *_bounded(command, extra)],
                    {"c.json": draw(certificate_bytes())})
    return Case([command, *extra])


def _bounded(command: str, extra: list[str]) -> list[str]:
    """Keep runs short, as a user with a deadline would: --timeout 5 for the solver commands and 20 for the
    others that take one, unless the case sets its own (long work without a --timeout is not a hang)."""
    if "--timeout" in extra or command not in TIMED:
        return []
    return ["--timeout", "5" if command in ("search", "stratify", "lift", "repack") else "20"]


#: the subcommands that take --timeout (tesearch.cli.options.limit_options)
TIMED = {"info", "search", "stratify", "lift", "repack", "construct", "verify", "replay", "certify", "check-proof",
         "singleport", "view"}
COMMANDS = ["info", "search", "stratify", "lift", "repack", "construct", "verify", "replay", "certify",
            "check-proof", "draw", "singleport", "view"]


# ------------------------------------------------------------------ running one case

def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.is_file()}


def run_case(case: Case, sandbox: Path) -> Outcome:
    """Run ``tesearch ARGS`` in its own forked process inside ``sandbox``; what it did."""
    for name, data in case.files.items():
        (sandbox / name).write_bytes(data)
    before = _snapshot(sandbox)
    err_path = sandbox.parent / f"{sandbox.name}.stderr"
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: become `tesearch ARGS` in the sandbox
        try:
            os.chdir(sandbox)
            devnull = os.open(os.devnull, os.O_WRONLY)
            err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(devnull, 1)
            os.dup2(err, 2)
            os.setpgid(0, 0)
            import sys

            sys.argv = ["tesearch", *case.args]
            from tesearch.cli.app import main

            main(args=case.args)
        except SystemExit as exc:
            os._exit(exc.code if isinstance(exc.code, int) else 1)
        except BaseException:  # noqa: BLE001 - anything escaping main is a failure the judge must see
            import traceback

            os.write(2, traceback.format_exc().encode())
            os._exit(99)
        os._exit(0)
    code = None
    deadline = started + CASE_SECONDS
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            break
        time.sleep(0.005)
    if code is None:
        os.killpg(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    seconds = time.monotonic() - started
    stderr = err_path.read_text(errors="replace") if err_path.exists() else ""
    after = _snapshot(sandbox)
    changed = sorted(name for name, data in before.items() if after.get(name) != data)
    return Outcome(code, stderr, seconds, changed)
