"""What a run of per-rank programs on MPI can get wrong, named per rank: shared by both executors.

:class:`Fault` is the vocabulary (the step executor, :mod:`tesearch.programs.executor`, and the
dataflow executor, :mod:`tesearch.programs.dataflow`, name the same mistakes the same way);
:func:`classify_arrivals` turns the arrivals a rank did not expect and the expected arrivals that
never came into LATE / EARLY / WRONG_NEIGHBOUR / DROPPED faults; :func:`compare_blocks` is the final
byte-for-byte comparison with ``MPI_Alltoall``.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass

import numpy as np

from tesearch.programs.schedule import RankProgram


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
class ProgramRun:
    """What one rank saw in one run of its program."""

    faults: list[FaultRecord]
    delivered: dict[int, np.ndarray]  # origin -> block
    markers: int = 0  # progress markers sent (the dataflow executor's; docs/schedules.md)


def classify_arrivals(me: int, unexpected: list[tuple[int, int, int, int]], missing: dict[tuple[int, int], tuple[int, int]]
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
