"""The frontier stars side by side: star-7 and star-8, total and odd-distance, every strategy in one run.

Each row runs one real `tesearch` command to its end (or its --timeout) in a fresh process and
records the wall time, the exit code and the table's width; every table found is then checked by
`tesearch verify` (its own process).  Rows:

* the earlier strategies: the rotation search with the patient schedule (one pass, a third of the
  time left per core: how star-8 was first found, in 418-567 s) with Z3; symmetry stratification
  (how star-7 was first found);
* the current ones: the rotation search with the escalating schedule (Z3 and CP-SAT) and the split
  strategy (sub-cores; CP-SAT).

    python benchmarks/frontier.py                 # every row (about 45 minutes on 2 cores)
    python benchmarks/frontier.py --only star-8   # the star-8 rows
    python benchmarks/frontier.py --only star-8 --report results/frontier-bench-star-8.md

Prints a markdown table of times and sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from markdown_report import Report

#: (network, exchange, label, command after `tesearch`, timeout in seconds)
ROWS = [
    ("star-7", "total", "stratify (z3; earlier)", ["stratify", "star-7"], 900),
    ("star-7", "total", "rotation, patient (z3; earlier)", ["search", "star-7", "--core-schedule", "patient"], 300),
    ("star-7", "total", "split (cpsat)", ["search", "star-7", "--strategy", "split", "--solver", "cpsat",
                                         "--word-cap", "64"], 300),
    ("star-7", "odd-distance", "stratify (z3; earlier)",
     ["stratify", "star-7", "--exchange", "odd-distance", "--solver-timeout", "60"], 900),
    ("star-7", "odd-distance", "split (cpsat)", ["search", "star-7", "--exchange", "odd-distance", "--strategy",
                                                "split", "--solver", "cpsat", "--word-cap", "64"], 300),
    ("star-8", "total", "rotation, patient (z3; earlier)", ["search", "star-8", "--core-schedule", "patient"], 900),
    ("star-8", "total", "rotation, escalating (z3)", ["search", "star-8"], 600),
    ("star-8", "total", "rotation, escalating (cpsat)", ["search", "star-8", "--solver", "cpsat"], 900),
    ("star-8", "odd-distance", "rotation, patient (z3; earlier)",
     ["search", "star-8", "--exchange", "odd-distance", "--core-schedule", "patient"], 900),
    ("star-8", "odd-distance", "rotation, escalating (cpsat)",
     ["search", "star-8", "--exchange", "odd-distance", "--solver", "cpsat"], 900),
]


def tesearch(*args: str, timeout: float | None = None) -> subprocess.CompletedProcess:
    """One `tesearch` command in a fresh process (this interpreter), its output captured."""
    return subprocess.run([sys.executable, "-m", "tesearch.entry", *args], capture_output=True, text=True,
                          timeout=timeout)


def run_row(command: list[str], timeout: float, workdir: str) -> dict:
    """Run one row; its wall time, exit code, T and whether `tesearch verify` accepts the table."""
    out = os.path.join(workdir, "table.json")
    if os.path.exists(out):
        os.remove(out)
    started = time.monotonic()
    proc = tesearch(*command, "--timeout", str(timeout), "--out", out, "--quiet", timeout=timeout + 120)
    wall = time.monotonic() - started
    T, verified = None, None
    if os.path.exists(out):
        with open(out) as fh:
            T = json.load(fh)["T"]
        verified = tesearch("verify", out).returncode == 0
    return {"exit": proc.returncode, "wall": wall, "T": T, "verified": verified}


def main() -> None:
    """Run the rows (optionally of one network) and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="run only the rows of this network (e.g. star-8)")
    ap.add_argument("--report", help="also write the table, with the command and date, to this file")
    args = ap.parse_args()
    report = Report(args.report, "python benchmarks/frontier.py" + (f" --only {args.only}" if args.only else ""))
    report.line("| network | exchange | strategy | wall s | exit | T | verify |")
    report.line("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as workdir:
        for network, exchange, label, command, timeout in ROWS:
            if args.only and network != args.only:
                continue
            row = run_row(command, timeout, workdir)
            verdict = {True: "VALID", False: "FAILS", None: "-"}[row["verified"]]
            report.line(f"| {network} | {exchange} | {label} | {row['wall']:.1f} | {row['exit']} | "
                        f"{row['T'] if row['T'] is not None else '-'} | {verdict} |")
    report.close()


if __name__ == "__main__":
    main()
