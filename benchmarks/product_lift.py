"""Ring lifts of mixed-radix tori: nodes, factor, options of the Z3 model, T, bound, seconds.

Each torus is lifted from its factor table (searched or lifted in turn), then verified.
Run: .venv/bin/python -m benchmarks.product_lift [SPEC ...]   (default: the TPU-shaped tori)
"""

import sys
import time

from tesearch.running.errors import TesearchError
from tesearch.networks.families import network_from_spec
from tesearch.search.lift import lifted_table
from tesearch.tables.verify import verify_table

DEFAULT = ("torus-4x4x8", "torus-4x8x8", "torus-8x16", "torus-4x8x16", "torus-8x8x16")


def main(specs: tuple[str, ...]) -> None:
    print(f"{'network':>14} {'nodes':>6} {'factor':>12} {'mode':>6} {'options':>8} {'T':>6} {'bound':>6} "
          f"{'lift_s':>7} {'verify_s':>9}  result")
    for spec in specs:
        steps: list[str] = []
        start = time.perf_counter()
        try:
            table = lifted_table(network_from_spec(spec), timeout_s=300, progress=steps.append).table
        except TesearchError as exc:
            print(f"{spec:>14} {'-':>6} {'-':>12} {'-':>6} {'-':>8} {'-':>6} {'-':>6} "
                  f"{time.perf_counter() - start:>7.1f} {'-':>9}  {exc}", flush=True)
            continue
        built = time.perf_counter()
        result = verify_table(table)
        verified = time.perf_counter()
        how = table.extra["construction"]
        options = next(s for s in reversed(steps) if s.startswith(f"lift {spec} ")).split("width ")[1]
        options = options.split(", ")[1].split(" ")[0]
        status = "optimal" if result.optimal else ("valid" if result.ok else "INVALID")
        print(f"{spec:>14} {len(table.placements) + 1:>6} {how['factor']:>12} {how['mode']:>6} {options:>8} "
              f"{table.T:>6} {result.bounds.best:>6} {built - start:>7.1f} {verified - built:>9.2f}  {status}",
              flush=True)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main, tuple(sys.argv[1:]) or DEFAULT)
