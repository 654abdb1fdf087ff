"""Write a proof certificate under proofs/ for every table under results/.

Each table gets proofs/NAME.json (NAME = the table file's stem; frontier tables
are prefixed "frontier-"), with every kept refutation of the same network and
exchange under encodings/ attached as an impossibility claim.  Usage:

    .venv/bin/python -m scripts.certify_all [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from tesearch.running.files import safe_name

ROOT = Path(__file__).resolve().parent.parent
TESEARCH = str(Path(sys.executable).with_name("tesearch"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    tables = sorted((ROOT / "results").glob("*.json")) + sorted((ROOT / "results" / "frontier").glob("*.json"))
    failed = 0
    for path in tables:
        data = json.loads(path.read_text())
        if data.get("format") != "tesearch-table":
            continue
        if args.only and args.only not in f"{path.parent.name}/{path.name}":
            continue
        name = ("frontier-" if path.parent.name == "frontier" else "") + path.stem
        # the search names encodings by tesearch.running.files.safe_name (':' -> '-'); the committed ones, kept
        # before that, have '_' (ring-6_cyclic-...): both are attached
        stems = {safe_name(data["network"]), re.sub(r"[^A-Za-z0-9_.-]+", "_", data["network"])}
        refutations = sorted({r for stem in stems
                              for r in (ROOT / "encodings").glob(f"{stem}-{data['exchange']}-full-T*.smt2")})
        cmd = [TESEARCH, "certify", str(path.relative_to(ROOT)), "-o", f"proofs/{name}.json"]
        for r in refutations:
            cmd += ["--refutation", str(r.relative_to(ROOT))]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        status = "ok" if proc.returncode == 0 else f"FAILED ({proc.returncode}): {proc.stderr.strip()[:200]}"
        failed += proc.returncode != 0
        print(f"{name:40s} refutations={len(refutations)} {status}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
