"""Write results/regress.md and results/errata.md from a run of `tesearch regress`.

results/regress.md: the regress table as run (tesearch.checking.published.regress.run_regress, what
`tesearch regress --json` prints) and the output of benchmarks/constructions.py.
results/errata.md: every `claim-differs` / `invalid` row and every `ambiguous-transcription`
row, each with its hand-written explanation from results/errata-notes.md (keyed by the row's
name; a row without a note gets its regress detail and a warning on stderr). Usage:

    .venv/bin/python -m scripts.regress_report [--outdir DIR] [--regress-json FILE]

--outdir writes the two files there instead of results/; --regress-json takes the rows from a
saved `tesearch regress --json` output instead of running the regression.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "results" / "errata-notes.md"
ERRATA_VERDICTS = ("claim-differs", "invalid")
TRANSCRIPTION = "ambiguous-transcription"


def commit() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def regress_rows(saved: Path | None) -> tuple[list[dict], int]:
    """The rows as `tesearch regress --json` gives them, and the command's exit code."""
    if saved is not None:
        rows = json.loads(saved.read_text())
    else:
        from tesearch.checking.published.regress import run_regress

        rows = [r.to_json() for r in run_regress(constructions=True)]
    code = 1 if any(r["verdict"] == "invalid" for r in rows) else 0
    return rows, code


def read_notes(path: Path = NOTES) -> dict[str, str]:
    """key -> text from the notes file's `<!-- key -->` sections (in file order)."""
    notes: dict[str, str] = {}
    key = None
    lines: list[str] = []
    for line in path.read_text().splitlines():
        m = re.fullmatch(r"<!-- (.+) -->", line)
        if m:
            if key is not None:
                notes[key] = "\n".join(lines).strip("\n")
            key, lines = m.group(1), []
        elif key is not None:
            lines.append(line)
    if key is not None:
        notes[key] = "\n".join(lines).strip("\n")
    return notes


def table(rows: list[dict]) -> list[str]:
    """The Markdown table of tesearch.checking.published.regress.regress_text, from JSON rows."""
    dash = lambda x: "-" if x is None else str(x)  # noqa: E731
    lines = ["| name | source | claimed T | verified T | lower bound | verdict | detail |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        cells = [r["name"], r["source"], dash(r["claimed_T"]), dash(r["verified_T"]), dash(r.get("best_bound", r.get("lower_bound"))),
                 r["verdict"], r["detail"].replace("|", "\\|")]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def constructions_block() -> tuple[list[str], int]:
    """benchmarks/constructions.py as run, with its times (the `time` lines of the original report)."""
    before = os.times()
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "benchmarks.constructions"], cwd=ROOT, capture_output=True, text=True)
    real = time.perf_counter() - started
    after = os.times()
    fmt = lambda s: f"{int(s // 60)}m{s % 60:.3f}s"  # noqa: E731
    return [*proc.stdout.rstrip("\n").splitlines(),
            f"real\t{fmt(real)}",
            f"user\t{fmt(after.children_user - before.children_user)}",
            f"sys\t{fmt(after.children_system - before.children_system)}"], proc.returncode


def regress_md(rows: list[dict], code: int, when: str, rev: str) -> str:
    block, bench_code = constructions_block()
    if bench_code != 0:
        print(f"benchmarks/constructions.py exit {bench_code}", file=sys.stderr)
    return "\n".join([
        "# tesearch regress, as run",
        "",
        f"Command: `.venv/bin/tesearch regress` (exit {code}; {when}, commit {rev}; written by "
        f"`scripts/regress_report.py`). Verdicts are defined in tesearch/checking/published/regress.py; errata in errata.md.",
        "",
        *table(rows),
        "",
        "## Constructions over a wider range",
        "",
        "`.venv/bin/python -m benchmarks.constructions` (each row: build, then the Theorem-1 verifier with bounds; "
        "seconds on this machine):",
        "",
        "```",
        *block,
        "```",
        "",
    ])


def errata_md(rows: list[dict], notes: dict[str, str], when: str, rev: str) -> str:
    order = [k.removeprefix("row: ") for k in notes if k.startswith("row: ")]

    def ordered(verdicts) -> list[dict]:
        chosen = [r for r in rows if r["verdict"] in verdicts]
        return sorted(chosen, key=lambda r: order.index(r["name"]) if r["name"] in order else len(order))

    def note(row: dict, fallback: str) -> str:
        text = notes.get(f"row: {row['name']}")
        if text is None:
            print(f"warning: no note in {NOTES.relative_to(ROOT)} for {row['verdict']} row {row['name']!r}",
                  file=sys.stderr)
            return fallback
        return text

    lines = ["# Errata to the seed papers, found by `tesearch regress`", "",
             notes["intro"], "",
             f"Generated by `scripts/regress_report.py` from `tesearch regress` ({when}, commit {rev}) and the notes "
             f"in results/errata-notes.md.", "",
             "## Errata (claim-differs / invalid)", ""]
    for r in ordered(ERRATA_VERDICTS):
        lines += [note(r, f"### {r['source']}: {r['name']} ({r['verdict']})\n\n{r['detail']}"), ""]
    if not any(r["verdict"] == "invalid" for r in rows):
        lines += [notes["no-invalid"], ""]
    lines += ["## Transcription problems (ambiguous-transcription)", "", notes["transcription-intro"], ""]
    lines += [note(r, f"- **{r['source']}, {r['name']}**: {r['detail']}") for r in ordered((TRANSCRIPTION,))]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--outdir", type=Path, default=ROOT / "results")
    ap.add_argument("--regress-json", type=Path, default=None)
    args = ap.parse_args()
    rows, code = regress_rows(args.regress_json)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    rev = commit()
    notes = read_notes()
    (args.outdir / "errata.md").write_text(errata_md(rows, notes, when, rev))
    (args.outdir / "regress.md").write_text(regress_md(rows, code, when, rev))
    print(f"wrote {args.outdir / 'regress.md'} and {args.outdir / 'errata.md'} ({len(rows)} rows, exit {code})")
    return code


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
