"""Search, verify, replay and certify one twisted torus, recording every step in results/twisted/runs.json.

    python -m scripts.twisted_runs torus-4x4x8:twisted --timeout 600 [--command search|stratify|repack|narrow] [--extra "..."]

Each step is one ``tesearch`` command (the lane core: ``--command narrow --extra "--core-model lanes"``) run
under ``nice -n 10``; its row in runs.json holds the
command, exit code, outcome, T, bound and seconds.  Later steps run only if the table exists.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TWISTED = ROOT / "results" / "twisted"
RUNS = TWISTED / "runs.json"
TESEARCH = str(Path(sys.executable).parent / "tesearch")


def table_path(spec: str) -> Path:
    """results/twisted/torus-4x4x8-twisted.json for torus-4x4x8:twisted."""
    return TWISTED / (spec.replace(":", "-") + ".json")


def proof_path(spec: str) -> Path:
    """proofs/twisted-torus-4x4x8.json for torus-4x4x8:twisted."""
    return ROOT / "proofs" / ("twisted-" + spec.removesuffix(":twisted") + ".json")


def run_step(step: str, args: list[str]) -> dict:
    """Run ``tesearch ARGS`` niced; the row to record (command, exit code, seconds, last output line)."""
    start = time.monotonic()
    program = [TESEARCH]
    done = subprocess.run(["nice", "-n", "10", *program, *args], cwd=ROOT, capture_output=True, text=True)
    seconds = round(time.monotonic() - start, 1)
    lines = [line for line in done.stdout.splitlines() if line.strip()] or \
        [line for line in done.stderr.splitlines() if line.strip()]
    name = "tesearch"
    return {"step": step, "command": name + " " + " ".join(args), "exit_code": done.returncode,
            "seconds": seconds, "outcome": lines[-1] if lines else ""}


def table_facts(path: Path) -> dict:
    """T and bounds of a table file, or {} when there is none."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    return {"T": data["T"], "lower_bound": data["lower_bound"], "letter_bound": data.get("letter_bound"),
            "optimal": data["T"] == max(data["lower_bound"], data.get("letter_bound") or 0)}


def record(row: dict) -> None:
    """Append one row to runs.json (a list, oldest first)."""
    rows = json.loads(RUNS.read_text()) if RUNS.exists() else []
    rows.append(row)
    RUNS.write_text(json.dumps(rows, indent=1) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--command", choices=("search", "stratify", "repack", "narrow"), default="search")
    parser.add_argument("--extra", default="", help="more options for the search command, one string")
    args = parser.parse_args()
    TWISTED.mkdir(parents=True, exist_ok=True)
    table, proof = table_path(args.spec), proof_path(args.spec)
    rel_table, rel_proof = str(table.relative_to(ROOT)), str(proof.relative_to(ROOT))
    search = [args.command, args.spec, "--out", rel_table, "--timeout", str(args.timeout), "--quiet",
              *args.extra.split()]
    steps = [("search", search)]
    steps += [("verify", ["verify", rel_table]), ("replay", ["replay", rel_table]),
              ("certify", ["certify", rel_table, "-o", rel_proof, "--quiet"]),
              ("check-proof", ["check-proof", rel_proof])]
    for step, command in steps:
        if step != "search" and not table.exists():
            break
        row = {"network": args.spec, **run_step(step, command),
               **table_facts(table)}
        record(row)
        print(json.dumps(row))
        if step != "search" and row["exit_code"] != 0:
            return 1
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
