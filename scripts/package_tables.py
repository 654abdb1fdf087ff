"""Copy the committed tables into the package (tesearch/data/tables/*.json.gz), for network specs without results/.

Usage: python -m scripts.package_tables [--check]

Every tesearch-table under results/, results/twisted/ and results/frontier/ whose gzipped form is at most 64 KiB,
named by its network's spec (as `tesearch.tables_data.packaged_table` looks it up).  --check exits 1 when the
package's copies differ from results/ (tests/test_packaged_tables.py runs the same comparison).
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from tesearch.data import TABLES, packaged_name

ROOT = Path(__file__).resolve().parent.parent

LIMIT = 64 << 10


def wanted() -> dict[str, Path]:
    """name -> the committed file of every table small enough to ship (at most LIMIT bytes gzipped)."""
    found = {}
    for directory in ("results", "results/twisted", "results/frontier"):
        for path in sorted((ROOT / directory).glob("*.json")):
            size = path.stat().st_size
            if size > 16 * LIMIT or (size > LIMIT and len(gzip.compress(path.read_bytes(), mtime=0)) > LIMIT):
                continue  # no table compresses 16-fold
            data = json.loads(path.read_text())
            if not isinstance(data, dict) or data.get("format") != "tesearch-table":
                continue
            found.setdefault(packaged_name(data["network"], data.get("exchange", "total")), path)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    tables = wanted()
    present = {p.name: p for p in TABLES.glob("*.json.gz")}
    if args.check:
        stale = sorted(set(tables) ^ set(present)) + sorted(
            n for n in tables if n in present and gzip.decompress(present[n].read_bytes()) != tables[n].read_bytes())
        print("\n".join(stale) or "the packaged tables equal results/")
        return 1 if stale else 0
    TABLES.mkdir(parents=True, exist_ok=True)
    for name in set(present) - set(tables):
        (TABLES / name).unlink()
    for name, path in tables.items():
        (TABLES / name).write_bytes(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
    print(f"{len(tables)} tables, {sum((TABLES / n).stat().st_size for n in tables)} bytes")
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
