"""The simulated run of a schedule as Chrome trace-event JSON (through :mod:`tesearch.schedules.chrome_trace`).

A traced run makes every rank write ``trace-R.txt``: one ``S`` line per hop it sent (the simulated time it
posted the send) and one ``R`` line per hop it received (the simulated time the receive completed), each
with the hop's step, letter, the other rank, origin and destination.  A hop is the pair of the sender's
``S`` and the receiver's ``R`` line of one (origin, destination, step); its slice runs from the send to
the arrival, on the track ``rank S`` / ``link to R (letter)``.  When the executor lets hops on one link
overlap in time (eager sends), the overlapping ones go to extra lanes of that link (``... #2``), because
a track's slices must not overlap.  Flow arrows follow each message hop by hop.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from tesearch.schedules.chrome_trace import HopSlice, chrome_trace
from tesearch.running.errors import FormatError
from tesearch.schedules.execute.hops import HopSchedule


def read_trace_files(directory: Path, ranks: int) -> tuple[dict, dict]:
    """(sends, arrivals): (origin, destination, step) -> (sender, receiver, letter, seconds)."""
    sends: dict[tuple[int, int, int], tuple[int, int, int, float]] = {}
    arrivals: dict[tuple[int, int, int], tuple[int, int, int, float]] = {}
    for rank in range(ranks):
        path = directory / f"trace-{rank}.txt"
        try:
            text = path.read_text()
        except OSError as exc:
            raise FormatError(f"the traced run wrote no trace for rank {rank}: {exc.strerror or exc}",
                              where=str(path)) from None
        for line in text.splitlines():
            kind, step, letter, other, origin, destination, seconds = line.split()
            key = (int(origin), int(destination), int(step))
            if kind == "S":
                sends[key] = (rank, int(other), int(letter), float(seconds))
            else:
                arrivals[key] = (int(other), rank, int(letter), float(seconds))
    return sends, arrivals


def hop_slices(sends: dict, arrivals: dict, letters: tuple[str, ...]) -> list[HopSlice]:
    """One slice per hop (send time to arrival time), lanes added where hops on one link overlap."""
    by_message: dict[tuple[int, int], list[int]] = defaultdict(list)
    for origin, destination, step in sends:
        by_message[(origin, destination)].append(step)
    hop_index = {(o, d, step): j for (o, d), steps in by_message.items() for j, step in enumerate(sorted(steps))}
    hops = []
    for key, (sender, receiver, letter, sent) in sends.items():
        arrival = arrivals.get(key)
        if arrival is None:
            raise FormatError(f"the trace has a send of message {key[0]}->{key[1]} at step {key[2]} that never "
                              f"arrived")
        hops.append((sent, max(arrival[3], sent), sender, receiver, letter, key))
    hops.sort()
    lanes: dict[tuple[int, int], list[float]] = defaultdict(list)  # link -> end time of each lane
    slices = []
    for start, end, sender, receiver, letter, (origin, destination, step) in hops:
        ends = lanes[(sender, receiver)]
        lane = next((i for i, t in enumerate(ends) if t <= start + 1e-15), None)
        if lane is None:
            lane = len(ends)
            ends.append(end)
        else:
            ends[lane] = end
        thread = f"link to {receiver} ({letters[letter]})" + ("" if lane == 0 else f" #{lane + 1}")
        slices.append(HopSlice(process=f"rank {sender}", thread=thread, start_us=start * 1e6,
                               duration_us=(end - start) * 1e6, name=f"{origin}->{destination}",
                               message=(origin, destination), hop=hop_index[(origin, destination, step)],
                               args={"origin": origin, "destination": destination, "step": step,
                                     "from": sender, "to": receiver, "letter": letters[letter]}))
    return slices


def trace_document(directory: Path, schedule: HopSchedule, numbering, *, executor: str, size: int, seconds: float,
                   network: str) -> dict:
    """The trace-event document of a traced run whose ranks wrote into ``directory``."""
    sends, arrivals = read_trace_files(directory, numbering.size)
    slices = hop_slices(sends, arrivals, schedule.letters)
    return chrome_trace(slices, metadata={"network": network, "schedule": schedule.name, "executor": executor,
                                          "bytes": size, "simulated_s": seconds, "hops": len(slices),
                                          "T": schedule.width, "source": "tesearch simulate (SimGrid SMPI)"})
