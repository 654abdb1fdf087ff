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
the step.  Rank 0 gathers the faults and the timings and writes a JSON report for the launcher.
"""

from __future__ import annotations

import argparse
import enum
import json
import sys
import time
from dataclasses import asdict, dataclass

import numpy as np

from tesearch.programs.schedule import RankProgram

#: tags are steps modulo this (MPI guarantees tags up to 32767); neighbours are never two steps apart
TAG_SPACE = 32768
#: faults each rank reports in full (the rest are counted)
MAX_FAULTS_PER_RANK = 20
HEADER_ITEM = np.dtype(np.int64)


class Fault(str, enum.Enum):
    """What went wrong in a run, as the rank that saw it names it (reports list them in this order: causes first)."""

    LATE = "late"  # a message arrived after the step its receiver's program expects it
    EARLY = "early"  # a message arrived before that step
    WRONG_NEIGHBOUR = "wrong neighbour"  # a message arrived at a rank its path does not pass at that step
    NOT_A_NEIGHBOUR = "not a neighbour"  # a program sends to a rank that is not a network neighbour
    DROPPED = "dropped"  # a message a rank's program expects never arrived
    NOT_HELD = "not held"  # a program sends a message its rank does not hold
    HELD_TOO_LONG = "held too long"  # a rank holds a message past the step after it arrived
    DUPLICATE = "duplicate"  # a block arrived twice at its destination
    BLOCK_MISSING = "block missing"  # after the run, a destination lacks a block MPI_Alltoall delivered
    BLOCK_DIFFERS = "block differs"  # after the run, a block differs from MPI_Alltoall's


@dataclass(frozen=True)
class FaultRecord:
    """One fault: its kind, the rank it is blamed on, the step, the message, and a sentence."""

    kind: Fault
    rank: int
    step: int
    origin: int
    destination: int
    detail: str

    def to_json(self) -> dict:
        """The fault as one JSON object."""
        data = asdict(self)
        data["kind"] = self.kind.value
        return data


@dataclass
class StepRun:
    """What one rank saw in one run of its program."""

    faults: list[FaultRecord]
    delivered: dict[int, np.ndarray]  # origin -> block


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


def run_program(comm, prog: RankProgram, neighbours: list[int], sendbuf: np.ndarray, block_bytes: int) -> StepRun:
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
    faults.extend(_classify(me, unexpected, missing))
    return StepRun(faults, delivered)


def _classify(me: int, unexpected: list[tuple[int, int, int, int]], missing: dict[tuple[int, int], tuple[int, int]]
              ) -> list[FaultRecord]:
    """Name arrivals the program did not expect and expected arrivals that did not come."""
    faults = []
    for origin, destination, sender, step in unexpected:
        due = missing.pop((origin, destination), None)
        if due is not None and due[1] == sender:
            lateness = step - due[0]
            kind = Fault.LATE if lateness > 0 else Fault.EARLY
            faults.append(FaultRecord(kind, sender, step, origin, destination,
                                      f"rank {sender} sent message {origin}->{destination} {abs(lateness)} step(s) "
                                      f"{'late' if lateness > 0 else 'early'}: rank {me} expected it at step "
                                      f"{due[0]}, it arrived at step {step}"))
            continue
        expected_from = "" if due is None else f" (rank {me} expected it from rank {due[1]} at step {due[0]})"
        faults.append(FaultRecord(Fault.WRONG_NEIGHBOUR, sender, step, origin, destination,
                                  f"rank {sender} sent message {origin}->{destination} to the wrong neighbour at "
                                  f"step {step}: rank {me} is not next on its path{expected_from}"))
    for (origin, destination), (step, sender) in missing.items():
        faults.append(FaultRecord(Fault.DROPPED, sender, step, origin, destination,
                                  f"message {origin}->{destination} was dropped: rank {me} expected it from rank "
                                  f"{sender} at step {step} and it never arrived"))
    return faults


def compare_blocks(me: int, delivered: dict[int, np.ndarray], reference: np.ndarray, block_bytes: int,
                   prog: RankProgram) -> list[FaultRecord]:
    """Faults for every block (other than the rank's own) that differs from MPI_Alltoall's or is missing."""
    last_step = {origin: step for step, _, _, origin, destination in prog.receives.tolist() if destination == me}
    faults = []
    for origin in range(len(reference) // block_bytes if block_bytes else 0):
        if origin == me:
            continue
        want = reference[origin * block_bytes:(origin + 1) * block_bytes]
        got = delivered.get(origin)
        step = last_step.get(origin, -1)
        if got is None:
            faults.append(FaultRecord(Fault.BLOCK_MISSING, me, step, origin, me,
                                      f"rank {me} never received the block from origin {origin} "
                                      f"(due at step {step}); MPI_Alltoall delivered it"))
        elif not np.array_equal(got, want):
            first = int(np.nonzero(got != want)[0][0]) if len(got) == len(want) else 0
            faults.append(FaultRecord(Fault.BLOCK_DIFFERS, me, step, origin, me,
                                      f"rank {me}'s block from origin {origin} (arrived by step {step}) differs from "
                                      f"MPI_Alltoall's at byte {first}"))
    return faults


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tesearch.programs.executor")
    parser.add_argument("table")
    parser.add_argument("--report", required=True, help="where rank 0 writes the JSON report")
    parser.add_argument("--bytes", dest="block_bytes", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--programs", default=None, help="a tesearch-programs file to read each rank's program from")
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
        neighbours = [int(n) for n in schedule.neighbours[me]]
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
    alltoall_s, schedule_s = [], []
    for _ in range(args.repeat):
        comm.Barrier()
        begin = MPI.Wtime()
        comm.Alltoall(sendbuf, reference)
        alltoall_s.append(comm.allreduce(MPI.Wtime() - begin, op=MPI.MAX))
    faults: list[FaultRecord] = []
    for repeat in range(args.repeat):
        comm.Barrier()
        begin = MPI.Wtime()
        result = run_program(comm, prog, neighbours, sendbuf, block_bytes)
        schedule_s.append(comm.allreduce(MPI.Wtime() - begin, op=MPI.MAX))
        if repeat == 0:
            faults = result.faults + compare_blocks(me, result.delivered, reference, block_bytes, prog)
        del result
    counts = comm.gather(len(faults), root=0)
    gathered = comm.gather([f.to_json() for f in faults[:MAX_FAULTS_PER_RANK]], root=0)
    hops = comm.reduce(len(prog.sends), op=MPI.SUM, root=0)
    if me == 0:
        priority = {kind.value: position for position, kind in enumerate(Fault)}
        listed = sorted((f for per_rank in gathered for f in per_rank),
                        key=lambda f: (priority[f["kind"]], f["step"], f["rank"]))
        _write_report(args.report, {
            "library": _library(),
            "mpi_version": "{}.{}".format(*MPI.Get_version()),
            "ranks": size,
            "steps": prog.steps,
            "messages": size * (size - 1),
            "hops": hops,
            "bytes": block_bytes,
            "repeat": args.repeat,
            "setup_s": setup_s,
            "schedule_s": schedule_s,
            "alltoall_s": alltoall_s,
            "fault_count": sum(counts),
            "faults": listed,
            "program_source": args.programs or "computed on each rank",
        })
    return 0


def _write_report(path: str, data: dict) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())
