"""How well --timeout and --max-memory hold: the time from the limit to the actual exit, and peak memory.

For each (command, --timeout, --max-memory) row, a real `tesearch` process is started; the benchmark
samples the resident memory of its whole process tree (the command and its worker) every 0.1 s from
/proc, and records the wall time to exit, the exit code, the phase the command named, and the peak.

    python -m benchmarks.limits            # the default rows (star-8, star-9, pancake-7, hypercube-20)
    python -m benchmarks.limits --quick    # small rows only (seconds)

Prints a markdown table (results/suite.md quotes a run).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

from scripts.markdown_report import Report

ROWS = [
    # (label, arguments, timeout, max memory)
    ("star-8 search", ["search", "star-8"], 30, "8G"),
    ("star-9 search", ["search", "star-9"], 60, "8G"),
    ("star-9 search, 2G", ["search", "star-9"], 60, "2G"),
    ("star-9 info", ["info", "star-9"], 60, "8G"),
    ("pancake-7 search", ["search", "pancake-7"], 60, "8G"),
    ("hypercube-20 search", ["search", "hypercube-20"], 60, "8G"),
    ("hypercube-20 info", ["info", "hypercube-20"], 60, "8G"),
    ("star-10 info, 1G", ["info", "star-10"], 60, "1G"),
]
QUICK = [
    ("pancake-5 search", ["search", "pancake-5"], 5, "4G"),
    ("star-7 search", ["search", "star-7"], 10, "4G"),
    ("star-8 info, 100M", ["info", "star-8"], 10, "100M"),
]


def tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/statm") as fh:
                rss[int(name)] = int(fh.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack += children.get(pid, [])
    return total


def run_row(args: list[str], timeout: float, memory: str) -> dict:
    """Run one command to its end; its wall time, exit code, named phase and peak tree memory."""
    command = [sys.executable, "-m", "tesearch.entry", *args, "--timeout", str(timeout), "--max-memory", memory,
               "--quiet"]
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.1)
    wall = time.monotonic() - started
    stderr = proc.stderr.read()
    phases = re.findall(r"phase: ([^)]*\)?)\)", stderr)
    return {"exit": proc.returncode, "wall": wall, "peak": peak, "phase": phases[-1] if phases else "",
            "message": stderr.strip().splitlines()[-1] if stderr.strip() else ""}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small rows only")
    parser.add_argument("--report", default=None, metavar="FILE",
                        help="also write the table, with the command and date, to FILE (results/limits.md)")
    args = parser.parse_args()
    out = Report(args.report, "python -m benchmarks.limits" + (" --quick" if args.quick else ""))
    out.line("| run | --timeout | --max-memory | exit | wall s | over the limit s | peak memory | phase named |")
    out.line("|---|---|---|---|---|---|---|---|")
    for label, arguments, timeout, memory in (QUICK if args.quick else ROWS):
        row = run_row(arguments, timeout, memory)
        out.line(f"| {label} | {timeout} | {memory} | {row['exit']} | {row['wall']:.1f} | "
                 f"{row['wall'] - timeout:+.1f} | {row['peak'] / 2**30:.2f} GiB | {row['phase'] or '-'} |")
    out.close()
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
