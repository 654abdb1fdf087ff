"""What a replay reports: violation kinds, violations and the report (counts, totals, per-step link use)."""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tesearch.checking.kernel.loader import PortModel
from tesearch.checking.kernel.graph import Perm

#: How many violations of each kind are kept with full detail (all are counted).
DETAIL_LIMIT = 20



class ViolationKind(str, enum.Enum):
    """What a replay violation breaks."""

    LINK_CAPACITY = "link-capacity"  # all-port: two messages on one directed link in one step
    SEND_PORT = "send-port"  # single-port: a node sends two messages in one step
    RECEIVE_PORT = "receive-port"  # single-port: a node receives two messages in one step
    MISSING = "pair-not-delivered"
    DUPLICATE = "pair-delivered-twice"
    NOT_TARGET = "not-a-target"  # delivered to itself, or (odd-distance) to an even-distance node
    WRONG_DESTINATION = "wrong-destination"  # arrived elsewhere than the schedule's stated destination
    NOT_SHORTEST = "not-shortest"  # more hops than the distance
    LATE = "after-T"  # a hop at or after the claimed number of steps T
    LANE_OVERLAP = "lane-overlap"  # table only: two words share a cell of one row
    LANE_RANGE = "lane-out-of-range"  # table only: a row index >= number of generators



@dataclass(frozen=True)
class ReplayViolation:
    """One violation: its kind, and the step, node, link and message where it has them."""

    kind: ViolationKind
    step: int | None
    node: Perm | None
    link: tuple[Perm, str, Perm] | None  # (from node, letter, to node)
    message: tuple[Perm, Perm] | None  # (source, destination)
    detail: str

    def __str__(self) -> str:
        where = []
        if self.step is not None:
            where.append(f"step {self.step}")
        if self.node is not None:
            where.append(f"node {node_text(self.node)}")
        if self.link is not None:
            a, s, b = self.link
            where.append(f"link {node_text(a)} -{s}-> {node_text(b)}")
        if self.message is not None:
            where.append(f"message {node_text(self.message[0])} => {node_text(self.message[1])}")
        return f"{self.kind.value}: {', '.join(where) + ': ' if where else ''}{self.detail}"

    def to_json(self) -> dict:
        """The violation as a JSON object."""
        return {
            "kind": self.kind.value,
            "step": self.step,
            "node": list(self.node) if self.node is not None else None,
            "link": [list(self.link[0]), self.link[1], list(self.link[2])] if self.link is not None else None,
            "message": [list(self.message[0]), list(self.message[1])] if self.message is not None else None,
            "detail": self.detail,
        }


def node_text(perm: Perm) -> str:
    """A node as a violation names it: its permutation in brackets (spaced above 10 points)."""
    sep = "" if len(perm) <= 10 else " "
    return "[" + sep.join(str(x) for x in perm) + "]"


@dataclass
class ReplayReport:
    """What a replay found: totals, violations (counted, the first of each kind in detail), link use."""

    network: str
    exchange: str
    model: PortModel
    engine: str
    source_format: str
    nodes: int
    links: int  # directed links
    messages: int  # message copies over all nodes (N x messages of one node)
    claimed_T: int
    completion_time: int
    transmissions: int
    expected_transmissions: int  # n * (sum of target distances): the all-shortest-paths count
    max_buffer: int
    delivered: int  # ordered target pairs delivered exactly once
    target_pairs: int
    violations: list[ReplayViolation] = field(default_factory=list)
    violation_counts: dict[str, int] = field(default_factory=dict)
    link_use_per_step: np.ndarray | None = None  # transmissions in each step
    seconds: float | None = None

    @property
    def ok(self) -> bool:
        """No violation."""
        return not self.violation_counts

    @property
    def buffer_free(self) -> bool:
        """No message ever waits at a node."""
        return self.max_buffer == 0

    @property
    def kinds(self) -> set[ViolationKind]:
        """The kinds of violation found."""
        return {ViolationKind(k) for k in self.violation_counts}

    @property
    def capacity_per_step(self) -> int:
        """Transmissions one step allows: directed links (all-port) or nodes."""
        return self.links if self.model is PortModel.ALL_PORT else self.nodes

    def to_json(self, *, per_step: bool = False) -> dict:
        """The report as a JSON object (``per_step``: with the link use of every step)."""
        out = {
            "network": self.network,
            "exchange": self.exchange,
            "model": self.model.value,
            "engine": self.engine,
            "format": self.source_format,
            "ok": self.ok,
            "nodes": self.nodes,
            "links": self.links,
            "messages": self.messages,
            "claimed_T": self.claimed_T,
            "completion_time": self.completion_time,
            "transmissions": self.transmissions,
            "expected_transmissions": self.expected_transmissions,
            "buffer_free": self.buffer_free,
            "max_buffer": self.max_buffer,
            "delivered": self.delivered,
            "target_pairs": self.target_pairs,
            "violation_counts": dict(self.violation_counts),
            "violations": [v.to_json() for v in self.violations],
        }
        if self.seconds is not None:
            out["seconds"] = round(self.seconds, 3)
        if per_step and self.link_use_per_step is not None:
            out["link_use_per_step"] = self.link_use_per_step.astype(int).tolist()
        return out

    def summary(self) -> str:
        """The report for a terminal."""
        lines = [
            f"replay ({self.engine}, {self.model.value}) of {self.source_format} {self.network}, exchange {self.exchange}: "
            f"{self.nodes} nodes, {self.links} directed links, {self.messages} messages",
            f"completion time {self.completion_time} (claimed T = {self.claimed_T}); "
            f"link transmissions {self.transmissions} (n * sum of target distances = {self.expected_transmissions})",
            f"delivered {self.delivered} of {self.target_pairs} ordered pairs exactly once; "
            + ("buffer-free" if self.buffer_free else f"messages wait: largest buffer {self.max_buffer}"),
        ]
        if self.seconds is not None:
            lines[-1] += f"; {self.seconds:.2f} s"
        if self.ok:
            lines.append("REPLAY OK: no violations")
        else:
            total = sum(self.violation_counts.values())
            counts = ", ".join(f"{k} {n}" for k, n in sorted(self.violation_counts.items()))
            lines.append(f"REPLAY FAILED: {total} violation(s) ({counts})")
            lines += [f"  {v}" for v in self.violations[:50]]
            if total > len(self.violations[:50]):
                lines.append(f"  ... (details kept for the first {DETAIL_LIMIT} of each kind)")
        return "\n".join(lines)



class Violations:
    """Counts every violation, keeps the first DETAIL_LIMIT of each kind in detail."""

    def __init__(self):
        self.items: list[ReplayViolation] = []
        self.counts: Counter = Counter()
        self.kept: Counter = Counter()

    def wants(self, kind: ViolationKind) -> bool:
        """Whether a violation of ``kind`` would still be kept in detail."""
        return self.kept[kind] < DETAIL_LIMIT

    def add(self, kind: ViolationKind, count: int = 1, *, step=None, node=None, link=None, message=None,
            detail: str = "") -> None:
        """Count ``count`` violations of ``kind``; keep this one's detail if the kind is not full yet."""
        if count <= 0:
            return
        if self.wants(kind):
            self.items.append(ReplayViolation(kind, step, node, link, message, detail))
            self.kept[kind] += 1
        self.counts[kind.value] += count

    def count_only(self, kind: ViolationKind, count: int) -> None:
        """Count ``count`` violations of ``kind`` without keeping any detail."""
        if count > 0:
            self.counts[kind.value] += count
