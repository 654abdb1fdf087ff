"""The former entry point of the lane core, kept so that recorded commands still run (results/manifest.toml,
results/twisted/runs.json): the lane core is now ``tesearch narrow --core-model lanes|joint-lanes``
(tesearch/search/lanecore.py, the ``lane-core`` strategy).

    python -m scripts.lane_core SPEC --out FILE [--timeout S] [--attempt S] [--min-width W] [--max-width W] [--joint]

runs ``tesearch narrow SPEC --core-model lanes (joint-lanes with --joint) -o FILE --timeout S
--solver-timeout S [--from-width W] [--max-width W]``, with this script's former defaults (1200 s, 40 s
per part), and exits with its code.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec")
    parser.add_argument("--out", required=True)
    parser.add_argument("--timeout", type=float, default=1200.0, help="seconds for the whole run")
    parser.add_argument("--attempt", type=float, default=40.0, help="seconds per part of one split")
    parser.add_argument("--min-width", type=int, default=0, help="narrowest core tried (default: the exact width)")
    parser.add_argument("--max-width", type=int, default=None, help="widest core tried (default: exact width + 12)")
    parser.add_argument("--joint", action="store_true", help="one model for the whole core, width by width")
    args = parser.parse_args()
    command = [str(Path(sys.executable).parent / "tesearch"), "narrow", args.spec, "--core-model",
               "joint-lanes" if args.joint else "lanes", "-o", args.out, "--timeout", str(args.timeout),
               "--solver-timeout", str(args.attempt)]
    command += ["--from-width", str(args.min_width)] if args.min_width > 0 else []
    command += ["--max-width", str(args.max_width)] if args.max_width is not None else []
    os.execv(command[0], command)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
