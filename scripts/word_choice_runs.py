"""Word-choice bounds (issue 40) of the open frontier cases: results/frontier/word-choice.json and proofs/.

Each target is one ``tesearch bound`` run under ``nice -n 10`` and ``/usr/bin/time`` (peak memory), with
``--max-memory`` and ``--timeout``; its record holds the command, exit code, wall seconds, peak resident
memory and the command's JSON report.  Where the target's row says so the run writes a word-choice
certificate under proofs/ (``tesearch check-proof`` re-derives it).  scripts/frontier.py --report reads
the records into results/frontier.md.

    python -m scripts.word_choice_runs [--only SUBSTRING] [--refresh-facts]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / "results" / "frontier" / "word-choice.json"

#: (spec, extra options, certificate under proofs/ or None, timeout s, the committed best table or None, why)
TARGETS = [
    ("torus-12x12x24:twisted", [], "proofs/word-choice/twisted-torus-12x12x24.json", 1800,
     "results/twisted/torus-12x12x24-twisted.json",
     "open; its table certificate's per-letter attainment was unchecked"),
    ("bubblesort-5", [], "proofs/word-choice/bubblesort-5.json", 600, "results/bubblesort-5.json", "open"),
    ("bubblesort-6", [], "proofs/word-choice/bubblesort-6.json", 1800, "results/frontier/bubblesort-6.json",
     "open; its table certificate's per-letter attainment was unchecked"),
    ("pancake-6", [], "proofs/word-choice/pancake-6.json", 1800, "results/frontier/pancake-6.json", "open"),
    ("star-9", [], None, 3600, "results/frontier/star-9.json.gz", "open"),
    ("star-10", [], None, 7200, None, "open (a table at 3680878 was built, not committed)"),
    ("torus-28x30x30", ["--lp-only"], "proofs/word-choice/torus-28x30x30.json", 900, None,
     "issue 39 finding 10: the bound code missed 94500, the mirror-lane table's T"),
]
MAX_MEMORY = "8G"


def run(spec: str, extra: list[str], certificate: str | None, timeout: int) -> dict:
    """One ``tesearch bound`` run, recorded as it came."""
    args = ["bound", spec, *extra, "--json", "--quiet", "--max-memory", MAX_MEMORY, "--timeout", str(timeout)]
    if certificate:
        args += ["-o", certificate, "--force"]
    started = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(["nice", "-n", "10", "/usr/bin/time", "-f", "PEAK_KB %M", sys.executable, "-m",
                           "tesearch.entry", *args], cwd=ROOT, capture_output=True, text=True, env=env)
    peak = re.search(r"PEAK_KB (\d+)", done.stderr)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        report = None
    errors = [line for line in done.stderr.splitlines() if line.startswith("tesearch:")]
    return {"network": spec, "command": "tesearch " + " ".join(args), "exit_code": done.returncode,
            "wall_seconds": round(time.monotonic() - started, 1),
            "peak_gb": None if peak is None else round(int(peak.group(1)) / 2 ** 20, 2),
            "certificate": certificate if certificate and done.returncode in (0, 4) else None,
            "report": report, "error": errors[-1] if errors else None}


def table_facts(rel: str | None) -> dict | None:
    """The committed best table's path, T and recorded bounds (None: no table committed)."""
    if rel is None:
        return None
    raw = (ROOT / rel).read_bytes()
    data = json.loads(gzip.decompress(raw) if rel.endswith(".gz") else raw)
    return {"path": rel, "T": data["T"], "lower_bound": data["lower_bound"], "letter_bound": data.get("letter_bound")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--refresh-facts", action="store_true",
                    help="only rewrite each record's 'why' and committed-table facts from TARGETS (no run)")
    args = ap.parse_args()
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    if args.refresh_facts:
        for spec, _, _, _, table, why in TARGETS:
            if spec in store:
                store[spec].update(why=why, table=table_facts(table))
        STORE.write_text(json.dumps(store, indent=1) + "\n")
        return
    for spec, extra, certificate, timeout, table, why in TARGETS:
        if args.only and args.only not in spec:
            continue
        record = run(spec, extra, certificate, timeout)
        record["why"] = why
        record["table"] = table_facts(table)
        store[spec] = record
        report = record["report"] or {}
        print(f"{spec:24s} exit {record['exit_code']} lower {report.get('lower')} upper {report.get('upper')} "
              f"{record['wall_seconds']} s {record['peak_gb']} GB {record['error'] or ''}", flush=True)
        STORE.write_text(json.dumps(store, indent=1) + "\n")


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
