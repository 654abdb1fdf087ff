"""MPI_Alltoall on SimGrid, one (network, model, size, algorithm) at a time, each run given the wall clock it needs.

Usage: nice .venv/bin/python -m benchmarks.mpi_contenders [--out results/simulate-mpi.jsonl] [--only NETWORK,...]
       [--models smpi,cm02] [--run-timeout S] [--max-memory 8G] [--list]

The simulate study's MPI contenders take from seconds (64 ranks) to hours (1024 ranks, every rank sending to every
other at once) of wall clock, so they run here, apart from the study, and their records go to a JSON-lines file that
benchmarks/simulate.py merges.  The jobs are every (network, model, size, algorithm or selector) of the study that the
file has no settled run for (a time; not applicable; failed in SimGrid; or cannot be best), in this order: SMPI up to
256 ranks, CM02 up to 256 ranks, SMPI star-6, SMPI torus-8x8x16:twisted at 64 KiB, then the rest; within a size the
likely winners first.  A run prints its simulated clock as it goes (tesearch/schedules/execute/c/te_main.c); once its lower
bound passes the best MPI time of its (network, model, size) so far it is stopped: it cannot be the best, which the
record says with the bound (tesearch.schedules.simulate.study.run_one).  Runs already in the file are skipped, so the script
resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from benchmarks.simulate import PLAN, every_mpi_contender
from tesearch.running.limits import parse_bytes
from tesearch.tables.loading import load_checked
from tesearch.schedules.programs.ranks import rank_numbering
from tesearch.networks.families import network_for_table
from tesearch.schedules.simulate import study
from tesearch.schedules.simulate.lineup import Lineup
from tesearch.schedules.simulate.verdicts import RunStatus

ROOT = Path(__file__).resolve().parent.parent

SIZES = {"8": 8, "4K": 4096, "64K": 65536, "1M": 1 << 20}


def _sizes(text: str) -> tuple[int, ...]:
    return tuple(SIZES[s] for s in text.split(","))


def _ranks(network: str) -> int:
    from tesearch.networks.families import network_from_spec

    return network_from_spec(network).order


def phase(network: str, model: str, size: int) -> tuple[int, int]:
    """The order of the jobs: SMPI up to 256 ranks, CM02 up to 256, SMPI star-6, SMPI 1024 ranks at 64 KiB, the rest."""
    ranks = _ranks(network)
    if ranks <= 256:
        return (0 if model == "smpi" else 1, ranks)
    if ranks < 1024:
        return (2 if model == "smpi" else 4, ranks)
    return (3 if (model == "smpi" and size == 65536) else 5 + (model != "smpi") * 2 + (size > 65536), ranks)


def read_runs(path: Path) -> list[dict]:
    """The records of the file (none when it does not exist)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def jobs(runs: list[dict], models: list[str], only: list[str] | None) -> list[tuple[str, str, int, str]]:
    """(network, model, size, contender) of every run the file has no settled record of, in the order to run."""
    settled = {(r["network"], r["model"], r["bytes"], r["contender"]) for r in runs if RunStatus(r["status"]).settles}
    names = [c.name for c in every_mpi_contender()]  # likely winners first
    todo = []
    for network, (_, smpi_sizes, cm02_sizes, _) in PLAN.items():
        if only and network not in only:
            continue
        for model in models:
            for size in _sizes(smpi_sizes if model == "smpi" else cm02_sizes):
                todo += [(phase(network, model, size), network, model, size, name) for name in names
                         if (network, model, size, name) not in settled]
    todo.sort(key=lambda job: job[0])  # stable: the contender order stays within a size
    return [job[1:] for job in todo]


def best_so_far(runs: list[dict], network: str, model: str, size: int) -> float | None:
    """The best MPI time the file has for (network, model, size), None without one."""
    times = [r["seconds"] for r in runs if (r["network"], r["model"], r["bytes"]) == (network, model, size)
             and r["status"] == RunStatus.OK.value and not r.get("wrong_blocks")]
    return min(times, default=None)


def untrusted(runs: list[dict]) -> dict[str, str]:
    """Algorithms that delivered wrong blocks in a checked run of any network: name -> the evidence."""
    evidence = {}
    for run in runs:
        if run.get("wrong_blocks"):
            evidence.setdefault(run["contender"], f"{run['wrong_blocks']} wrong blocks in a checked run on "
                                                  f"{run['network']} at {run['bytes']} bytes ({run['model']})")
    return evidence


def main() -> int:
    """Run the missing MPI contenders, appending one JSON line per run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "results" / "simulate-mpi.jsonl"))
    parser.add_argument("--only", default=None)
    parser.add_argument("--models", default="smpi,cm02")
    parser.add_argument("--run-timeout", type=float, default=6 * 3600)
    parser.add_argument("--max-memory", default="8G")
    parser.add_argument("--also", nargs="*", default=[],
                        help="other JSON-lines files of runs (read only): their settled runs are not run again")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    out = Path(args.out)
    known = [run for path in args.also for run in read_runs(Path(path))]
    todo = jobs(known + read_runs(out), args.models.split(","), args.only.split(",") if args.only else None)
    broken = untrusted(known + read_runs(out))
    if args.list:
        for job in todo:
            print(*job)
        print(len(todo), "runs")
        return 0
    by_name = {c.name: c for c in every_mpi_contender()}
    spaces: dict[tuple[str, str], study.Workspace] = {}
    with tempfile.TemporaryDirectory(prefix="mpi-contenders-") as scratch:
        for network, model, size, name in todo:
            if (network, model) not in spaces:
                table = load_checked(ROOT / PLAN[network][0], command="simulate").table
                numbering = rank_numbering(network_for_table(table.network, table.generators))
                directory = Path(scratch) / f"{network.replace(':', '-')}-{model}"
                directory.mkdir()
                setup = study.Setup(sizes=(1 << 20,), bandwidth_bps=1e10, latency_s=1e-6, model=study.Model(model))
                spaces[(network, model)] = study.prepare(Lineup(), setup, directory, numbering)
            setup = study.Setup(sizes=(size,), bandwidth_bps=1e10, latency_s=1e-6, model=study.Model(model),
                                run_timeout_s=args.run_timeout, max_memory=parse_bytes(args.max_memory))
            if name in broken:  # wrong blocks in a checked run: its times would not be trusted, so it is not run
                record = {"contender": name, "family": "MPI", "bytes": size, "status": RunStatus.FAILED.value,
                          "checked": False, "network": network, "model": model, "source": "benchmarks/mpi_contenders.py",
                          "reason": f"not run: not trusted, {broken[name]}"}
                with out.open("a") as fh:
                    fh.write(json.dumps(record) + "\n")
                continue
            cut = best_so_far(known + read_runs(out), network, model, size)
            print(f"{time.strftime('%H:%M:%S')} {network} {model} {size} {name} (best so far "
                  f"{'-' if cut is None else f'{cut * 1e3:.4g} ms'}) ...", flush=True)
            record = study.run_one(spaces[(network, model)], by_name[name], size, checked=False, setup=setup,
                                   cut_above=cut)
            record.update(network=network, model=model, source="benchmarks/mpi_contenders.py")
            with out.open("a") as fh:
                fh.write(json.dumps(record) + "\n")
            print(f"  {record['status']} {record.get('seconds', record.get('at_least_s'))} wall {record['wall_s']} s",
                  flush=True)
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
