"""The MPI side of ``tesearch run --mpi``: every rank follows its program, then checks against MPI_Alltoall.

Started by :mod:`tesearch.programs.launch` as ``mpiexec -n N python -m tesearch.programs.executor
TABLE --report PATH ...``, one rank per network node (rank numbering: :mod:`tesearch.programs.ranks`).
Each rank computes its own program with :func:`tesearch.programs.schedule.program` (or reads it from a
tesearch-programs file given with ``--programs``: how the tests feed it a broken one) and runs it:

* at step ``t`` it sends one frame to each network neighbour (``Isend``, tag ``t``): the messages its
  program sends along that link (usually one, none on an idle link), each a block of ``--bytes`` bytes
  with its origin and destination.  A message it forwards must be one it holds; its own messages come
  from its send buffer (the same buffer it gives to ``MPI_Alltoall``);
* it receives one frame from each neighbour (``Mprobe``/``Recv``, tag ``t``), keeps what is in transit
  and keeps what is for itself, and compares the arrivals with its program's receives for step ``t``;
* after the last step, every block it received is compared byte for byte with ``MPI_Alltoall``'s.

Every rank exchanges a frame with every neighbour at every step, so a broken program cannot make the
run hang: it shows as a fault (:class:`Fault`) naming the rank, the message (origin, destination) and
the step.  That is the *step* executor; ``--executor dataflow`` runs the same programs without steps
(:mod:`tesearch.programs.dataflow`), ``--executor both`` runs the step executor, then the dataflow one,
on the same blocks, each compared with the same ``MPI_Alltoall`` result.  Rank 0 gathers the faults
and the timings, per executor, and writes a JSON report for the launcher.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from tesearch.programs.faults import Fault, FaultRecord, ProgramRun, classify_arrivals, compare_blocks
from tesearch.programs.schedule import RankProgram

#: tags are steps modulo this (MPI guarantees tags up to 32767); neighbours are never two steps apart
TAG_SPACE = 32768
#: the executors, in the order ``both`` runs them
EXECUTORS = ("step", "dataflow")
BOTH = "both"
#: faults each rank reports in full (the rest are counted)
MAX_FAULTS_PER_RANK = 20
HEADER_ITEM = np.dtype(np.int64)


def block_data(seed: int, rank: int, ranks: int, block_bytes: int) -> np.ndarray:
    """Rank ``rank``'s send buffer: ``ranks`` blocks of ``block_bytes`` pseudo-random bytes."""
    return np.random.default_rng([seed, rank]).integers(0, 256, ranks * block_bytes, dtype=np.uint8)


def _frame(pairs: list[int], payloads: list[np.ndarray]) -> np.ndarray:
    head = np.array([len(payloads)] + pairs, dtype=HEADER_ITEM).view(np.uint8)
    return np.concatenate([head] + payloads) if payloads else head


def _unframe(frame: np.ndarray, block_bytes: int) -> list[tuple[int, int, np.ndarray]]:
    count = int(frame[:HEADER_ITEM.itemsize].view(HEADER_ITEM)[0])
    head_end = HEADER_ITEM.itemsize * (1 + 2 * count)
    pairs = frame[HEADER_ITEM.itemsize:head_end].view(HEADER_ITEM)
    return [(int(pairs[2 * i]), int(pairs[2 * i + 1]),
             frame[head_end + i * block_bytes: head_end + (i + 1) * block_bytes]) for i in range(count)]


def run_program(comm, prog: RankProgram, neighbours: list[int], sendbuf: np.ndarray, block_bytes: int) -> ProgramRun:
    """Follow ``prog`` step by step with non-blocking sends to network neighbours; return faults and blocks."""
    from mpi4py import MPI

    me = comm.Get_rank()
    faults: list[FaultRecord] = []
    held: dict[tuple[int, int], tuple[np.ndarray, int]] = {}
    delivered: dict[int, np.ndarray] = {}
    missing: dict[tuple[int, int], tuple[int, int]] = {}  # (origin, destination) -> (step, expected sender)
    unexpected: list[tuple[int, int, int, int]] = []  # (origin, destination, sender, step)
    reported_held: set[tuple[int, int]] = set()
    links = sorted(set(neighbours))
    for step in range(prog.steps):
        tag = step % TAG_SPACE
        frames: dict[int, tuple[list[int], list[np.ndarray]]] = {n: ([], []) for n in links}
        for _, _, neighbour, origin, destination in prog.at_step(prog.sends, step).tolist():
            if neighbour not in frames:
                faults.append(FaultRecord(Fault.NOT_A_NEIGHBOUR, me, step, origin, destination,
                                          f"rank {me}'s program sends message {origin}->{destination} at step {step} "
                                          f"to rank {neighbour}, which is not a network neighbour"))
                continue
            if origin == me:
                payload = sendbuf[destination * block_bytes:(destination + 1) * block_bytes]
            else:
                item = held.pop((origin, destination), None)
                if item is None:
                    faults.append(FaultRecord(Fault.NOT_HELD, me, step, origin, destination,
                                              f"rank {me}'s program forwards message {origin}->{destination} at "
                                              f"step {step}, but rank {me} does not hold it"))
                    continue
                payload = item[0]
            frames[neighbour][0].extend((origin, destination))
            frames[neighbour][1].append(payload)
        for key, (_, arrived) in held.items():
            if arrived < step and key not in reported_held:
                reported_held.add(key)
                faults.append(FaultRecord(Fault.HELD_TOO_LONG, me, step, key[0], key[1],
                                          f"rank {me} holds message {key[0]}->{key[1]} past step {step} "
                                          f"(it arrived at step {arrived} and was not sent on at step {arrived + 1})"))
        outgoing = [_frame(*frames[n]) for n in links]
        requests = [comm.Isend(buffer, dest=n, tag=tag) for buffer, n in zip(outgoing, links)]
        expected = {(origin, destination): neighbour
                    for _, _, neighbour, origin, destination in prog.at_step(prog.receives, step).tolist()}
        status = MPI.Status()
        for n in links:
            message = comm.Mprobe(source=n, tag=tag, status=status)
            frame = np.empty(status.Get_count(MPI.BYTE), dtype=np.uint8)
            message.Recv(frame)
            for origin, destination, payload in _unframe(frame, block_bytes):
                if expected.get((origin, destination)) == n:
                    del expected[(origin, destination)]
                else:
                    unexpected.append((origin, destination, n, step))
                if destination == me:
                    if origin in delivered:
                        faults.append(FaultRecord(Fault.DUPLICATE, n, step, origin, destination,
                                                  f"message {origin}->{destination} reached rank {me} a second time "
                                                  f"at step {step} (from rank {n})"))
                    delivered[origin] = payload
                else:
                    held[(origin, destination)] = (payload, step)
        for key, sender in expected.items():
            missing[key] = (step, sender)
        MPI.Request.Waitall(requests)
    for key, (_, arrived) in held.items():
        if key not in reported_held:
            faults.append(FaultRecord(Fault.HELD_TOO_LONG, me, prog.steps, key[0], key[1],
                                      f"rank {me} still holds message {key[0]}->{key[1]} after the last step "
                                      f"(it arrived at step {arrived})"))
    faults.extend(classify_arrivals(me, unexpected, missing))
    return ProgramRun(faults, delivered)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tesearch.programs.executor")
    parser.add_argument("table")
    parser.add_argument("--report", required=True, help="where rank 0 writes the JSON report")
    parser.add_argument("--bytes", dest="block_bytes", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--programs", default=None, help="a tesearch-programs file to read each rank's program from")
    parser.add_argument("--executor", choices=[*EXECUTORS, BOTH], default=EXECUTORS[0])
    return parser.parse_args(argv)


def _library() -> str:
    from mpi4py import MPI

    text = MPI.Get_library_version().strip().splitlines()
    return " ".join(text[0].split()) if text else "unknown"


def main(argv: list[str] | None = None) -> int:
    """Run under mpiexec: compute or read this rank's program, run it, compare, and report from rank 0."""
    started = time.perf_counter()
    from mpi4py import MPI

    from tesearch.programs.export import read_program
    from tesearch.programs.schedule import compile_schedule, program
    from tesearch.table import read_table

    args = _arguments(argv)
    comm = MPI.COMM_WORLD
    me, size = comm.Get_rank(), comm.Get_size()
    error = None
    try:
        schedule = compile_schedule(read_table(args.table))
        if schedule.ranks != size:
            raise ValueError(f"the network has {schedule.ranks} nodes but the run has {size} ranks")
        prog = read_program(args.programs, me) if args.programs else program(schedule, me)
    except Exception as exc:  # reported by rank 0 as the run's error; every rank stops together
        error = f"rank {me}: {type(exc).__name__}: {exc}"
    errors = comm.allgather(error)
    if any(errors):
        if me == 0:
            _write_report(args.report, {"error": next(e for e in errors if e)})
        return 1
    setup_s = comm.reduce(time.perf_counter() - started, op=MPI.MAX, root=0)
    block_bytes = args.block_bytes
    sendbuf = block_data(args.seed, me, size, block_bytes)
    reference = np.empty_like(sendbuf)
    alltoall_s = []
    for _ in range(args.repeat):
        comm.Barrier()
        begin = MPI.Wtime()
        comm.Alltoall(sendbuf, reference)
        alltoall_s.append(comm.allreduce(MPI.Wtime() - begin, op=MPI.MAX))
    hops = comm.reduce(len(prog.sends), op=MPI.SUM, root=0)
    executors = EXECUTORS if args.executor == BOTH else (args.executor,)
    runs = {}
    for executor in executors:
        run = _time_executor(comm, executor, prog, schedule.neighbours, sendbuf, reference, args)
        if me == 0:
            runs[executor] = run
    if me == 0:
        listed = sorted((dict(f, executor=name) for name, run in runs.items() for f in run["faults"]),
                        key=_fault_order(executors))
        report = {
            "library": _library(),
            "mpi_version": "{}.{}".format(*MPI.Get_version()),
            "ranks": size,
            "steps": prog.steps,
            "messages": size * (size - 1),
            "hops": hops,
            "bytes": block_bytes,
            "repeat": args.repeat,
            "setup_s": setup_s,
            "alltoall_s": alltoall_s,
            "executors": list(executors),
            "runs": runs,
            "fault_count": sum(run["fault_count"] for run in runs.values()),
            "faults": listed,
            "program_source": args.programs or "computed on each rank",
        }
        if len(executors) == 1:
            report["schedule_s"] = runs[executors[0]]["schedule_s"]
        _write_report(args.report, report)
    return 0


def _by_cause(fault: dict) -> tuple[int, int, int]:
    """Sort key of gathered faults: causes first (the order of :class:`Fault`), then step and rank."""
    return [kind.value for kind in Fault].index(fault["kind"]), fault["step"], fault["rank"]


def _fault_order(executors):
    """Sort key of faults gathered over executors: :func:`_by_cause`, then the executor's order."""
    return lambda fault: (*_by_cause(fault), executors.index(fault["executor"]))


def _time_executor(comm, executor: str, prog: RankProgram, neighbours: np.ndarray, sendbuf: np.ndarray,
                   reference: np.ndarray, args: argparse.Namespace) -> dict | None:
    """Run ``executor`` ``args.repeat`` times; rank 0 gets its times, fault count and faults (others None)."""
    from mpi4py import MPI

    from tesearch.programs.dataflow import incoming_links, run_dataflow

    me, block_bytes = comm.Get_rank(), args.block_bytes
    out_links = sorted({int(n) for n in neighbours[me]} - {me})
    in_links = incoming_links(neighbours, me)
    flow = comm.Dup()  # the dataflow run's messages (MPI_ANY_TAG) never meet another run's
    faults: list[FaultRecord] = []
    schedule_s, markers = [], 0
    for repeat in range(args.repeat):
        comm.Barrier()
        begin = MPI.Wtime()
        if executor == "step":
            result = run_program(comm, prog, [int(n) for n in neighbours[me]], sendbuf, block_bytes)
        else:
            result = run_dataflow(flow, prog, out_links, in_links, sendbuf, block_bytes)
        schedule_s.append(comm.allreduce(MPI.Wtime() - begin, op=MPI.MAX))
        if repeat == 0:
            faults = result.faults + compare_blocks(me, result.delivered, reference, block_bytes, prog)
            markers = result.markers
        del result
    flow.Free()
    markers = comm.reduce(markers, op=MPI.SUM, root=0)
    counts = comm.gather(len(faults), root=0)
    gathered = comm.gather([f.to_json() for f in faults[:MAX_FAULTS_PER_RANK]], root=0)
    if me != 0:
        return None
    listed = sorted((f for per_rank in gathered for f in per_rank), key=_by_cause)
    run = {"schedule_s": schedule_s, "fault_count": sum(counts), "faults": listed,
           "verdict": "match" if sum(counts) == 0 else "fault"}
    if executor == "dataflow":
        run["progress_markers"] = markers  # first run's, all ranks: waits that could have locked without them
    return run


def _write_report(path: str, data: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())
