"""Fuzz every subcommand and count: how many hostile inputs were tried, and how many ended wrong.

The cases come from tesearch/testing/ (one generator per subcommand of tesearch.cli.app.COMMANDS:
hostile specs, generator files, tables valid, invalid and garbled, tampered certificates and
encodings, output-path attacks, huge numbers, control characters, SIGINT/SIGTERM at random moments).
Each runs in a temporary directory of its own, in a session of its own, watched by the judge
(tesearch/testing/judge.py says what counts as wrong).  Cases run on --jobs worker processes.

    python -m benchmarks.fuzz [--per-command N] [--seed S] [--jobs 2] [--only CMD,...] [--keep DIR] [--report FILE]

Prints one row per command (inputs, wrong, exit codes seen, seconds of its cases, seconds per
input) and a total, then every wrong input with its command line and why; --report also writes
that as markdown (atomically).  Exit 1 if anything was wrong, 2 if a subcommand has no generator.
Slow commands run a share of N (testing.SHARES: run, stratify and draw 50 %; sweep 3 %, each real case
starting a one-CPU Ray of its own, 10-45 s; regress 5 %, 4-16 s a case).
"""

from __future__ import annotations

import argparse
import collections
import math
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tesearch import testing
from tesearch.running.files import REPORT_KIND, check_output, write_output


def draw_cases(command: str, count: int, rng_seed: int) -> list[testing.Case]:
    """``count`` cases of one subcommand, the same for the same seed."""
    drawn: list[testing.Case] = []

    @seed(rng_seed)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def collect(data):
        drawn.append(data.draw(testing.cases(command)))

    collect()
    return drawn[:count]


def count_for(command: str, per_command: int) -> int:
    """How many cases a command runs: its share of --per-command, at least 2."""
    return max(2, round(per_command * testing.SHARES.get(command, 1.0)))


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the main process (no traceback of its own) and stops on the pool's SIGTERM by an
    exception, so that the case it runs and everything that case started are killed on the way out."""
    import signal

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, stop)


def _run_one(job: tuple[int, testing.Case, str, str | None]) -> testing.CaseResult:
    index, case, scratch, keep = job
    case_dir = Path(scratch) / f"c{index}"
    outcome = None
    try:
        outcome = testing.run_case(case, case_dir)
        return outcome
    except Exception as exc:  # noqa: BLE001 - the harness itself failed on this case: say so, go on
        return testing.CaseResult(case, None, 0.0, [f"the fuzzer failed to run it: {type(exc).__name__}: {exc}"])
    finally:
        if keep and outcome is not None and outcome.wrong:
            try:
                shutil.copytree(case_dir, Path(keep) / f"{case.command}-{index}", symlinks=True,
                                ignore=shutil.ignore_patterns("null-device", "fifo*", "ray", "sockets"))
            except (OSError, shutil.Error) as exc:
                print(f"  (could not keep {case_dir}: {str(exc)[:200]})", flush=True)
        shutil.rmtree(case_dir, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-command", type=int, default=600,
                        help="cases per subcommand (slow ones run a share of it, see testing.SHARES)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once")
    parser.add_argument("--only", default=None, help="comma-separated subcommands (default: all)")
    parser.add_argument("--keep", default=None, metavar="DIR",
                        help="copy the directory of every wrong case (sandbox, stdout, stderr) into DIR")
    parser.add_argument("--report", default=None, metavar="FILE",
                        help="also write the table and the wrong inputs, with the command and date, to FILE")
    args = parser.parse_args()
    if args.report:  # refused before any case runs: only an earlier report (or an empty file) is replaced
        check_output(args.report, kind=REPORT_KIND)
    missing = testing.missing_generators()
    if missing:
        print(f"fuzz: no generator for subcommand(s) {', '.join(missing)} (add one to tesearch/testing/generators.py)",
              file=sys.stderr)
        return 2
    commands = args.only.split(",") if args.only else list(testing.GENERATORS)
    unknown = [c for c in commands if c not in testing.GENERATORS]
    if unknown:
        print(f"fuzz: unknown subcommand(s) {', '.join(unknown)}", file=sys.stderr)
        return 2
    command_line = f"python -m benchmarks.fuzz --per-command {args.per_command} --seed {args.seed} --jobs {args.jobs}"
    if args.only:
        command_line += f" --only {args.only}"
    started = time.monotonic()
    jobs = []
    for command in commands:
        for case in draw_cases(command, count_for(command, args.per_command), args.seed):
            jobs.append((len(jobs), case))
    print(f"{len(jobs)} cases drawn in {time.monotonic() - started:.0f} s; running on {args.jobs} worker(s)",
          flush=True)
    tallies = {c: {"tried": 0, "wrong": 0, "seconds": 0.0, "exits": collections.Counter()} for c in commands}
    wrong: list[testing.CaseResult] = []
    with tempfile.TemporaryDirectory(prefix="tfz-") as scratch:
        context = multiprocessing.get_context("fork")
        with context.Pool(args.jobs, initializer=_worker_signals, maxtasksperchild=100) as pool:
            done = 0
            for outcome in pool.imap_unordered(_run_one, [(i, case, scratch, args.keep) for i, case in jobs]):
                command = outcome.case.command if outcome.case.command in tallies else jobs[0][1].command
                tally = tallies[command]
                tally["tried"] += 1
                tally["seconds"] += outcome.seconds
                tally["exits"][outcome.exit_code if outcome.exit_code is not None else "hang"] += 1
                if outcome.wrong:
                    tally["wrong"] += 1
                    wrong.append(outcome)
                    print(f"  WRONG {outcome.report_line()}", flush=True)
                done += 1
                if done % 100 == 0:
                    print(f"  {done}/{len(jobs)} cases, {len(wrong)} wrong, {time.monotonic() - started:.0f} s",
                          flush=True)
    lines = ["| command | inputs | wrong | exit codes seen | seconds | s/input |", "|---|---|---|---|---|---|"]
    total_tried = total_wrong = 0
    for command in commands:
        tally = tallies[command]
        exits = ", ".join(f"{code}: {n}" for code, n in sorted(tally["exits"].items(), key=lambda kv: str(kv[0])))
        per = tally["seconds"] / tally["tried"] if tally["tried"] else 0.0
        lines.append(f"| {command} | {tally['tried']} | {tally['wrong']} | {exits} | {tally['seconds']:.0f} | "
                     f"{per:.2f} |")
        total_tried += tally["tried"]
        total_wrong += tally["wrong"]
    wall = time.monotonic() - started
    lines.append(f"| **total** | **{total_tried}** | **{total_wrong}** | | {wall:.0f} (wall, {args.jobs} jobs) | |")
    per_unit = sum(count_for(c, 1000) for c in testing.GENERATORS) / 1000  # inputs per unit of --per-command
    rate = wall / total_tried if total_tried else 0.0
    needed = math.ceil(10000 / per_unit)
    lines.append("")
    lines.append(f"Rate: {rate:.2f} s of wall time per input with {args.jobs} jobs; 10000 inputs need "
                 f"--per-command {needed}, about {10000 * rate / 60:.0f} min at this rate.")
    lines.append("")
    if wrong:
        lines.append(f"Wrong inputs ({len(wrong)}; each line is the command line, run in a directory holding the "
                     "files named, and why):")
        lines.append("")
        lines += [f"- {o.report_line()}" for o in sorted(wrong, key=lambda o: o.case.command)]
    else:
        lines.append("No wrong input.")
    print("\n".join(lines), flush=True)
    if args.report:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        head = [f"Command: `{command_line}` ({when}; a 2-core machine, other work beside it), on commit "
                f"{_commit()}.", "",
                "Wrong = exit 70 or outside 0-4/130/143, a traceback, an error of more than one line, a hang, "
                "a changed input or committed file, a half-written or temporary file, a process left behind, "
                "a false exit 3 or CONFIRMED, exit 0 on a table the fuzzer made invalid (tesearch/testing/judge.py).", ""]
        write_output(args.report, "\n".join(head + lines) + "\n", kind=REPORT_KIND)
    return 1 if total_wrong else 0


def _commit() -> str:
    """The commit this checkout is at, and whether its tracked files differ from it."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no git)"
    return head + (" with uncommitted changes" if dirty else "")


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
