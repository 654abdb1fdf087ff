"""`tesearch search NETWORK` to an optimal or best table, for every family at three sizes: before the front door
(a checkout of the code before it), after it, and by the route a user would have had to know.

Each row runs real `tesearch` processes with `-o FILE --timeout SECONDS --quiet` and records the wall time to
exit, the exit code and the table written (its T against the best bound recorded in it: OPTIMAL only when they
meet); a run stopped at the time limit counts with the best table it wrote, if any.  "Before" runs the same
command from the checkout named by --before (made with `git worktree add DIR 99aa099`, the commit before the
front door); "expert" runs the command that made the table before the front door, where it is not `search`
itself (`construct`, `lift`), on the code of this checkout.  "after" also names the route the front door took.

    python -m benchmarks.front_door --before /work/wt/old              # every row (up to an hour)
    python -m benchmarks.front_door --before /work/wt/old --quick      # one small network per family
    python -m benchmarks.front_door --before /work/wt/old --report results/front-door.md
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scripts.markdown_report import Report

ROOT = Path(__file__).resolve().parent.parent
#: (family, network, the command a user would have had to know) for every family at three sizes; None: `search`
ROWS = [
    ("hypercube", "hypercube-4", ["construct"]),
    ("hypercube", "hypercube-8", ["construct"]),
    ("hypercube", "hypercube-12", ["construct"]),
    ("ring", "ring-9", ["construct"]),
    ("ring", "ring-8:cyclic", None),
    ("ring", "ring-32", ["construct"]),
    ("torus (2 sides)", "torus-3x4", ["lift"]),
    ("torus (2 sides)", "torus-6x6", ["construct"]),
    ("torus (2 sides)", "torus-4x6", None),
    ("torus (3 sides)", "torus-3x3x3", ["construct"]),
    ("torus (3 sides)", "torus-4x8x8", ["construct"]),
    ("torus (3 sides)", "torus-8x12x12", ["construct"]),
    ("twisted torus", "torus-8x4:twisted", None),
    ("twisted torus", "torus-4x4x8:twisted", None),
    ("twisted torus", "torus-4x8x8:twisted", None),
    ("star", "star-4", ["construct"]),
    ("star", "star-5", None),
    ("star", "star-6", ["construct"]),
    ("pancake", "pancake-4", None),
    ("pancake", "pancake-5", None),
    ("pancake", "pancake-6", None),
    ("bubblesort", "bubblesort-4", None),
    ("bubblesort", "bubblesort-5", None),
    ("bubblesort", "bubblesort-6", None),
]
QUICK = ["hypercube-4", "ring-9", "torus-3x4", "torus-3x3x3", "torus-8x4:twisted", "star-4", "pancake-4",
         "bubblesort-4"]


def run(code: Path, args: list[str], timeout: float) -> dict:
    """``tesearch ARGS -o FILE`` on the code at ``code``: wall seconds, exit code, the T written and its best bound,
    and the route recorded in the table's provenance (if any)."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "table.json"
        command = [sys.executable, "-m", "tesearch.entry", *args, "-o", str(out), "--timeout", f"{timeout:g}",
                   "--quiet"]
        env = {**os.environ, "PYTHONPATH": str(code)}
        started = time.monotonic()
        done = subprocess.run(command, cwd=scratch, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, timeout=timeout + 120)
        wall = time.monotonic() - started
        row = {"exit": done.returncode, "wall": wall, "T": None, "best": None, "route": None}
        if out.is_file():  # judged by this checkout's `tesearch verify` (T, the best bound it recomputes)
            checked = subprocess.run([sys.executable, "-m", "tesearch.entry", "verify", str(out), "--json"],
                                     cwd=scratch, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                                     text=True, timeout=600)
            verdict = json.loads(checked.stdout)
            if not verdict["valid"]:
                raise SystemExit(f"{' '.join(args)} wrote a table that does not verify: {verdict['violations'][:1]}")
            record = json.loads(out.read_text())
            record = record.get("search") or record.get("construction")
            route = record.get("route") if isinstance(record, dict) else None
            row.update(T=verdict["T"], best=verdict["best_bound"], route=(route or {}).get("made_by"))
        return row


def commit(checkout: Path) -> str:
    """The commit a checkout is at (short), or 'unknown commit' outside git."""
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True)
    return done.stdout.strip() or "unknown commit"


def cell(row: dict | None) -> str:
    """A run for the table: seconds, then T and OPTIMAL or the gap, or no table."""
    if row is None:
        return "= before"
    stopped = " (time limit)" if row["exit"] == 4 else "" if row["exit"] == 0 else f" (exit {row['exit']})"
    if row["T"] is None:
        return f"{row['wall']:.1f} s, no table{stopped}"
    verdict = "OPTIMAL" if row["T"] == row["best"] else f"gap {row['T'] - row['best']}"
    return f"{row['wall']:.1f} s, T = {row['T']} {verdict}{stopped}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, metavar="DIR",
                        help="a checkout of the code before the front door (git worktree add DIR 99aa099)")
    parser.add_argument("--timeout", type=float, default=60.0, help="--timeout of every run (seconds)")
    parser.add_argument("--quick", action="store_true", help="one small network per family")
    parser.add_argument("--report", default=None, metavar="FILE",
                        help="also write the table, with the command and date, to FILE (results/front-door.md)")
    args = parser.parse_args()
    if not (args.before / "tesearch" / "entry.py").is_file():
        parser.error(f"--before {args.before}: no tesearch checkout there")
    rows = [r for r in ROWS if not args.quick or r[1] in QUICK]
    command = f"python -m benchmarks.front_door --before DIR --timeout {args.timeout:g}" + \
        (" --quick" if args.quick else "")
    out = Report(args.report, command)
    out.line(f"`search NETWORK` before the front door (DIR at {commit(args.before)}), after it (this checkout, at "
             f"{commit(ROOT)}), and the command a user had to know before it (`= before`: that was `search` itself); "
             f"every run `-o FILE --timeout {args.timeout:g}`; load average {os.getloadavg()[0]:.0f} at the start.")
    out.line("")
    out.line("| family | network | before: `search` | after: `search` | route taken | expert command | expert |")
    out.line("|---|---|---|---|---|---|---|")
    for family, network, expert in rows:
        before = run(args.before, ["search", network], args.timeout)
        after = run(ROOT, ["search", network], args.timeout)
        known = run(ROOT, [*expert, network], args.timeout) if expert is not None else None
        out.line(f"| {family} | {network} | {cell(before)} | {cell(after)} | {after['route'] or '-'} | "
                 f"`{' '.join(expert or ['search'])}` | {cell(known)} |")
    out.close()
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
