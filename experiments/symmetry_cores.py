"""The core of every regular letter group on star-5..9: which group leaves the smallest search.

For star-n every permutation of the n-1 letters is an automorphism, so every group of order n-1
acts regularly on the letters (its regular representation) and gives rotation blocks for the
elements it moves freely (tesearch.networks.symmetry).  This script prints, for total and odd-distance
exchange, each group's core: the elements some non-identity element fixes, their letters (the
sum of their distances), the core width at zero blanks (letters / |S|), and how the core splits
into orbit sizes.  It also says whether two groups leave the same set of elements.

    python -m experiments.symmetry_cores --max-n 9 --report results/symmetry-cores.md

With ``--search`` it measures instead what the rotation search reaches with each group as its
blocks' symmetry (``tesearch search NETWORK --strategy rotation --symmetry GROUP``, one process per
run, ``--timeout`` seconds each): the found T against the best bound, the core's width and how the
run ended (a core at the bound, or the greedy-core table kept when no core was found in time).

    python -m experiments.symmetry_cores --search --max-n 7 --timeout 120 --report results/symmetry-search.md
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tesearch.running.files import write_atomically
from tesearch.networks.groups import cached_cayley_graph
from tesearch.facts.instance import instance
from tesearch.networks.families import network_from_spec
from tesearch.networks.rotation import find_rotation
from tesearch.networks.symmetry import LetterGroup, groups_of_order
from tesearch.networks.words import targets

ROOT = Path(__file__).resolve().parent.parent


def cores(n: int) -> list[dict]:
    """One row per (exchange, group) of star-n."""
    cg = cached_cayley_graph(network_from_spec(f"star-{n}"))
    rotation = find_rotation(cg)
    rows = []
    for exchange in ("total", "odd-distance"):
        tg = targets(cg, exchange)
        sets = {}
        for name, perms in groups_of_order(cg.degree).items():
            group = LetterGroup(cg, name, perms)
            core = group.core(tg)
            sizes, counts = np.unique(group.orbit_size[core], return_counts=True)
            letters = int(cg.dist[core].sum())
            sets[name] = frozenset(core.tolist())
            rows.append({
                "network": f"star-{n}", "exchange": exchange, "group": name, "elements": int(len(core)),
                "letters": letters, "width": letters / cg.degree,
                "orbits": {int(s): int(c) // int(s) for s, c in zip(sizes, counts)},
                "same_as_rotation": bool(rotation is not None
                                         and sets[name] == frozenset(rotation.exceptional(tg).tolist())),
            })
        for row in rows:
            if row["exchange"] == exchange:
                row["same_set_as"] = [g for g, s in sets.items() if g != row["group"] and s == sets[row["group"]]]
    return rows


def markdown(rows: list[dict], command: str, seconds: float) -> str:
    """The report."""
    out = [f"Command: `{command}` ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit "
           f"{_commit()}, {seconds:.0f} s).", "",
           "Every group of order n-1 acting regularly on star-n's letters (tesearch.networks.symmetry): the *core* is",
           "the targets some non-identity element fixes; every other orbit is a rotation block. *width* is",
           "the core's letters / (n-1), the columns it fills with no blank. *orbits* counts the core's",
           "orbits by size. *= rotation* marks the cyclic rotation's own exceptional set.", "",
           "| network | exchange | group | core elements | core letters | width at 0 blanks | orbits (size: count) | same set as |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        orbits = ", ".join(f"{s}: {c}" for s, c in sorted(r["orbits"].items())) or "none"
        same = ", ".join(r["same_set_as"]) + (" (= rotation)" if r["same_as_rotation"] else "")
        out.append(f"| {r['network']} | {r['exchange']} | {r['group']} | {r['elements']} | {r['letters']} | "
                   f"{r['width']:g} | {orbits} | {same.strip() or '-'} |")
    return "\n".join(out) + "\n"


def search_row(n: int, exchange: str, group: str, timeout: float, workdir: Path) -> dict:
    """One `tesearch search star-n --strategy rotation --symmetry GROUP` run, as it came."""
    out = workdir / f"star-{n}-{exchange}-{group}.json"
    command = ["search", f"star-{n}", "--exchange", exchange, "--strategy", "rotation", "--symmetry", group,
               "--timeout", f"{timeout:g}"]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "tesearch.entry", *command, "--out", str(out), "--json", "--quiet"],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    row = {"network": f"star-{n}", "exchange": exchange, "group": group, "command": "tesearch " + " ".join(command),
           "wall_seconds": round(time.monotonic() - started, 1), "exit": proc.returncode}
    if out.exists():  # the table found, or (at a limit) the best verified one before it
        table = json.loads(out.read_text())
        core = next((s for s in table.get("sections", []) if s["name"] == "core"), None)
        row["core_width"] = core["end"] - core["start"] if core else None
        row["method"] = table["search"]["method"]
        out.unlink()
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:  # a limit (exit 4) prints the best verified table's T on stderr, no JSON
        best = re.search(r"best verified table before the limit: T = (\d+)", proc.stderr)
        return {**row, "status": "error" if proc.returncode != 4 else "limit", "T": int(best.group(1)) if best else None,
                "best_bound": bound_of(n, exchange),
                "ended": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "no output"}
    row.update(status=data["status"], T=data["T"], best_bound=data["best_bound"], optimal=data["optimal"])
    row["ended"] = data.get("stop_reason") or ("a core at the bound" if data["optimal"] else "")
    return row


def bound_of(n: int, exchange: str) -> int:
    """star-n's best lower bound (for a run that stopped at a limit and printed no JSON)."""
    return instance(f"star-{n}", exchange).bounds.best


def searches(max_n: int, timeout: float) -> list[dict]:
    """One search row per (star-n, exchange, group of order n-1), n = 5..max_n, with the group's core size."""
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for n in range(5, max_n + 1):
            cores_of = {(r["exchange"], r["group"]): r for r in cores(n)}
            for exchange in ("total", "odd-distance"):
                for group in groups_of_order(n - 1):
                    row = search_row(n, exchange, group, timeout, Path(work))
                    core = cores_of[(exchange, group)]
                    row.update(core_elements=core["elements"], core_letters=core["letters"])
                    print(f"{row['network']} {exchange} {group}: {row['status']} T={row['T']} "
                          f"({row['wall_seconds']} s)", file=sys.stderr, flush=True)
                    rows.append(row)
    return rows


def search_markdown(rows: list[dict], command: str, seconds: float) -> str:
    """The --search report."""
    out = [f"Command: `{command}` ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit "
           f"{_commit()}, {seconds:.0f} s on a shared 2-core machine).", "",
           "The rotation search with each regular letter group H as the blocks' symmetry (`tesearch search",
           "star-n --strategy rotation --symmetry H`, tesearch/networks/symmetry.py): H's core (the targets some",
           "h != 1 fixes) is searched, every other H-orbit is a block. *T* is the verified table the run",
           "returned (the greedy-core table when no core was found in time), *core width* its core's",
           "columns; *how it ended* is the search's own stop reason. Measured, one run each: a run that",
           "ended unknown proves nothing about the group.", "",
           "| network | exchange | group | core elements | core letters | status | T | best bound | gap | "
           "core width | seconds | how it ended |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        gap = r["T"] - r["best_bound"] if r.get("T") is not None and r.get("best_bound") is not None else "-"
        ended = str(r.get("ended", "")).replace("|", "/") + (f"; table: {r['method']}" if r.get("method") else "")
        out.append(f"| {r['network']} | {r['exchange']} | {r['group']} | {r['core_elements']} | {r['core_letters']} | "
                   f"{r['status']} | {r.get('T')} | {r.get('best_bound', '-')} | {gap} | {r.get('core_width', '-')} | "
                   f"{r['wall_seconds']} | {ended} |")
    return "\n".join(out) + "\n"


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None) -> int:
    """Print (and with --report write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=9, choices=range(3, 10))
    parser.add_argument("--report", type=Path)
    parser.add_argument("--search", action="store_true", help="run the rotation search with every group instead")
    parser.add_argument("--timeout", type=float, default=120.0, help="with --search: seconds per search run")
    args = parser.parse_args(argv)
    start = time.monotonic()
    command = "python -m experiments.symmetry_cores" + (" --search" if args.search else "") + f" --max-n {args.max_n}"
    if args.search:
        command += f" --timeout {args.timeout:g}"
    if args.report:
        command += f" --report {args.report}"
    if args.search:
        text = search_markdown(searches(args.max_n, args.timeout), command, time.monotonic() - start)
    else:
        text = markdown([r for n in range(5, args.max_n + 1) for r in cores(n)], command, time.monotonic() - start)
    print(text)
    if args.report:
        write_atomically(args.report, text)
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
