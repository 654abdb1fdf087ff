"""Fuzz every subcommand and count: how many hostile inputs were tried, and how many ended wrong.

Each case (tests/fuzzing.py: hostile network specs, generator files, table files in JSON and text,
certificates, option sets) runs in its own process.  Wrong = an exit code the CLI does not
document, a traceback or an internal error on stderr, no exit within the time, or a failed run
that changed a file it was given.

    python benchmarks/fuzz.py [--per-command N] [--seed S]

Prints one row per command and a total (results/README.md quotes a run); exit 1 if anything was
wrong, with the failing command lines listed.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fuzzing import COMMANDS, cases, run_case  # noqa: E402
from markdown_report import Report  # noqa: E402


def fuzz_command(command: str, count: int, rng_seed: int, scratch: Path) -> dict:
    """Run ``count`` generated cases of one command; the tally and the wrong ones."""
    tally = {"tried": 0, "wrong": 0, "seconds": 0.0, "exits": collections.Counter(), "failures": []}

    @seed(rng_seed)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def run(data):
        case = data.draw(cases(command))
        sandbox = Path(tempfile.mkdtemp(dir=scratch))
        outcome = run_case(case, sandbox)
        tally["tried"] += 1
        tally["seconds"] += outcome.seconds
        tally["exits"][outcome.exit_code] += 1
        problems = outcome.problems()
        if problems:
            tally["wrong"] += 1
            tally["failures"].append(f"tesearch {' '.join(case.args)}: {'; '.join(problems)}")
        shutil.rmtree(sandbox, ignore_errors=True)

    run()
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-command", type=int, default=420, help="cases per subcommand (12 subcommands)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", default=None, metavar="FILE",
                        help="also write the table, with the command and date, to FILE (results/fuzz.md)")
    args = parser.parse_args()
    out = Report(args.report, f"python benchmarks/fuzz.py --per-command {args.per_command} --seed {args.seed}")
    started = time.monotonic()
    total_tried = total_wrong = 0
    failures = []
    out.line("| command | inputs tried | wrong | exit codes seen | seconds |")
    out.line("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="tesearch-fuzz-") as scratch:
        for command in COMMANDS:
            tally = fuzz_command(command, args.per_command, args.seed, Path(scratch))
            exits = ", ".join(f"{code}: {n}" for code, n in sorted(tally["exits"].items(), key=lambda kv: str(kv[0])))
            out.line(f"| {command} | {tally['tried']} | {tally['wrong']} | {exits} | {tally['seconds']:.0f} |")
            total_tried += tally["tried"]
            total_wrong += tally["wrong"]
            failures += tally["failures"]
    out.line(f"| **total** | **{total_tried}** | **{total_wrong}** | | {time.monotonic() - started:.0f} |")
    for line in failures[:50]:
        out.line(f"- WRONG: `{line}`")
    out.close()
    return 1 if total_wrong else 0


if __name__ == "__main__":
    sys.exit(main())
