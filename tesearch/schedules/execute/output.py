"""What ``te_main`` prints (``tesearch/schedules/execute/c/te_main.c``), read back: one parser for both of its hosts,
``tesearch run --mpi`` under mpiexec and ``tesearch simulate`` under smpirun.

Lines: ``RESULT label bytes seconds checked mismatches skew held_bytes held_blocks messages``, ``TIMES label t...``,
``FAULT ...`` (tesearch.schedules.execute.faults), ``LIBRARY version text`` (real MPI, mode=check), and under SimGrid
``ROUTE receiver sender seconds``, ``START ns`` and ``CLOCK ns ranks_finished`` (progress).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tesearch.schedules.execute.faults import FaultRecord, parse_fault

_RESULT = re.compile(r"^RESULT (\S+) (\d+) (\S+) ([01]) (\d+) (\S+) (\d+) (\d+) (\d+)$")
_TIMES = re.compile(r"^TIMES (\S+)((?: \S+)+)$")
_LIBRARY = re.compile(r"^LIBRARY (\d+\.\d+) ?(.*)$")
_ROUTE = re.compile(r"^ROUTE (\d+) (\d+) (\S+)$")
_START = re.compile(r"^START (-?\d+)$")
_CLOCK = re.compile(r"^CLOCK (-?\d+) (\d+)$")


@dataclass
class DriverOutput:
    """What te_main printed."""

    results: dict[str, dict] = field(default_factory=dict)  # label -> the RESULT line's fields
    times: dict[str, list[float]] = field(default_factory=dict)  # label -> TIMES
    faults: list[FaultRecord] = field(default_factory=list)
    library: tuple[str, str] | None = None  # (MPI version, the library's first line)
    routes: dict[tuple[int, int], float] = field(default_factory=dict)  # (sender, receiver) -> seconds
    start_ns: int | None = None  # rank 0's start, simulated (progress lines)
    clocks: list[tuple[int, int]] = field(default_factory=list)  # (simulated ns, ranks finished)

    def at_least_s(self, ranks: int) -> float | None:
        """A lower bound on the run's simulated time from its progress lines (None without one): while fewer than all
        ranks had finished, the clock had passed ``START`` by this much."""
        unfinished = [ns for ns, done in self.clocks if done < ranks]
        if self.start_ns is None or not unfinished:
            return None
        return max(0.0, (max(unfinished) - self.start_ns) * 1e-9)


def parse_driver_output(text: str) -> DriverOutput:
    """Every line of a te_main run that the protocol (module doc) names; other lines are ignored."""
    output = DriverOutput()
    for line in text.splitlines():
        if match := _RESULT.match(line):
            label, size, seconds, checked, mismatches, skew, held_bytes, held_blocks, messages = match.groups()
            output.results[label] = {"bytes": int(size), "seconds": float(seconds), "checked": checked == "1",
                                     "mismatches": int(mismatches), "start_skew_s": float(skew),
                                     "held_bytes": int(held_bytes), "held_blocks": int(held_blocks),
                                     "messages": int(messages)}
        elif match := _TIMES.match(line):
            output.times[match.group(1)] = [float(x) for x in match.group(2).split()]
        elif (fault := parse_fault(line)) is not None:
            output.faults.append(fault)
        elif match := _LIBRARY.match(line):
            output.library = (match.group(1), " ".join(match.group(2).split()) or "unknown")
        elif match := _ROUTE.match(line):
            receiver, sender, seconds = match.groups()
            output.routes[(int(sender), int(receiver))] = float(seconds)
        elif match := _START.match(line):
            output.start_ns = int(match.group(1))
        elif match := _CLOCK.match(line):
            output.clocks.append((int(match.group(1)), int(match.group(2))))
    return output
