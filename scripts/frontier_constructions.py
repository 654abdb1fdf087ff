"""Frontier tables from the seed papers' general constructions, where our search gave up.

The search (scripts/frontier.py) did not find torus-10x10x10 or torus-12x12x12 within its
time; seed 003 section 3.4's even 3D construction (tesearch/published/constructions.py)
does, and each table is verified before it is written to results/frontier/.  Usage:

    .venv/bin/python scripts/frontier_constructions.py
"""

from __future__ import annotations

import time
from pathlib import Path

from tesearch.published.constructions import torus3d_even
from tesearch.table import write_table
from tesearch.verify import verify_table

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    for n in (10, 12):
        t0 = time.monotonic()
        built = torus3d_even(n)
        check = verify_table(built.table, cg=built.cg)
        if not check.ok or check.gap:
            raise SystemExit(f"torus-{n}x{n}x{n}: construction does not verify optimal: {check.summary()}")
        built.table.lower_bound = check.bounds.counting
        path = ROOT / "results" / "frontier" / f"torus-{n}x{n}x{n}.json"
        write_table(built.table, path)
        print(f"torus-{n}x{n}x{n}: T={built.table.T} bound={check.bounds.best} valid, optimal "
              f"({time.monotonic() - t0:.1f}s) -> {path.relative_to(ROOT)}")
