"""Running a script's targets through `tesearch sweep` (scripts/results_suite.py and scripts/frontier.py --sweep).

One `tesearch sweep` per exchange runs every target of that exchange as Ray tasks (locally, or on
the cluster at ``address``), writes the tables under the keep-better rule to the paths the scripts
already use, and returns one record per target in the shape of `tesearch search --json`, so that
the scripts' own run records and reports work unchanged.  The sweep's runs record goes to a
temporary file: the scripts keep their own records, and nothing unlisted lands in results/.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESEARCH = str(Path(sys.executable).with_name("tesearch"))


def sweep_targets(specs: list[str], exchange: str, out_dir: str, *, timeout: float, root: Path,
                  address: str | None = None) -> list[dict]:
    """Sweep ``specs`` (one exchange) into ``out_dir`` (relative to ``root``); one record per target."""
    if not specs:
        return []
    where = ["--address", address] if address else []
    with tempfile.TemporaryDirectory(prefix="tesearch-sweep-") as scratch:
        runs = Path(scratch) / "runs.json"
        cmd = ["tesearch", "sweep", *specs, "--exchange", exchange, "--timeout", str(int(timeout)),
               "--out-dir", out_dir, *where]
        t0 = time.monotonic()
        proc = subprocess.run([TESEARCH, *cmd[1:], "--runs", str(runs), "--json", "--quiet"], capture_output=True,
                              text=True, cwd=root)
        wall = round(time.monotonic() - t0, 1)
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"{shlex.join(cmd)}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}") from None
    records = []
    for n in data["networks"]:
        ex = [] if exchange == "total" else ["--exchange", exchange]
        winner = next((t for t in n["tasks"] if t["entry"] == n["best_by"]), None)
        records.append({
            "network": n["network"], "exchange": n["exchange"],
            "status": "found" if n["T"] is not None else "unknown", "T": n["T"], "best_bound": n["best_bound"],
            "optimal": n["outcome"] == "optimal", "strategy": f"sweep: {n['best_by']}" if n["best_by"] else "sweep",
            "seconds": winner["seconds"] if winner else None, "refuted_widths": [],
            "table": n["table"] if n["written"] or n["kept_T"] is not None else None,
            # the command that reproduces this target alone; the run itself swept every target of its exchange
            "command": shlex.join(["tesearch", "sweep", n["network"], *ex, "--timeout", str(int(timeout)),
                                   "--out-dir", out_dir, *where]),
            "swept_with": len(specs), "sweep_wall_seconds": wall, "wall_seconds": wall,
            "exit_code": proc.returncode, "tasks": n["tasks"]})
    return records
