"""Blocks a node holds between steps: what a schedule buffers beyond its own send and receive buffers.

Route ``i`` of a :class:`~tesearch.schedules.execute.hops.HopSchedule` takes hop ``j`` at step ``steps[i][j]``; its block
arrives at the node after hop ``j - 1`` when step ``steps[i][j - 1]`` ends and leaves it during step
``steps[i][j]``.  By the Cayley symmetry every node relays one block of every route at every such moment (node
``g`` relays route ``i``'s block from ``g * (s1...sj)^-1``), so the counts below are the same at every node and
exact, in blocks (multiply by the block size for bytes):

* ``held[t]`` (boundary ``t``: after step ``t``, before step ``t + 1``): blocks that have arrived and are not
  yet forwarded, ``#{(i, j >= 1): steps[i][j - 1] <= t < steps[i][j]}``.  A block that arrives at its
  destination, or has not left its origin, is not counted (those sit in the receive and send buffers);
* ``waiting[t]``: the part of ``held[t]`` that is not forwarded in the very next step
  (``steps[i][j] > t + 1``): blocks that sit through at least one whole step.  A table's own timing forwards
  every block in the step after it arrives (consecutive steps), so its ``waiting`` is 0 everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tesearch.schedules.execute.hops import HopSchedule


@dataclass(frozen=True)
class HeldBlocks:
    """A schedule's held-blocks profile per step boundary, and its peaks (module doc)."""

    held: tuple[int, ...]  # boundary t = 0 .. width - 2
    waiting: tuple[int, ...]

    @property
    def peak(self) -> int:
        """The most blocks a node holds between two steps."""
        return max(self.held, default=0)

    @property
    def peak_waiting(self) -> int:
        """The most blocks a node holds through a whole step."""
        return max(self.waiting, default=0)

    def to_json(self) -> dict:
        """The profile and its peaks."""
        return {"held": list(self.held), "waiting": list(self.waiting), "peak_held": self.peak,
                "peak_waiting": self.peak_waiting}


def held_blocks(schedule: HopSchedule) -> HeldBlocks:
    """The held-blocks profile of ``schedule`` (module doc)."""
    boundaries = max(schedule.width - 1, 0)
    held = np.zeros(boundaries + 1, dtype=np.int64)
    waiting = np.zeros(boundaries + 1, dtype=np.int64)
    for when in schedule.steps:
        for arrived, leaves in zip(when, when[1:]):
            held[arrived:leaves] += 1  # boundaries arrived .. leaves - 1
            waiting[arrived:leaves - 1] += 1  # boundaries arrived .. leaves - 2
    return HeldBlocks(tuple(int(x) for x in held[:boundaries]), tuple(int(x) for x in waiting[:boundaries]))
