"""What every engine shares: lane checks of tables, buffers, link and port claims, late hops."""

from __future__ import annotations

import heapq
import itertools
from collections import defaultdict
from typing import Sequence

import numpy as np

from tesearch.running.errors import TesearchError
from tesearch.checking.kernel.graph import RebuiltNetwork
from tesearch.checking.kernel.loader import InputFormat, LoadedInput, LoadedMessage
from tesearch.checking.replay.report import ViolationKind, node_text, Violations
from tesearch.checking.kernel.graph import Perm



def lane_checks(inp: LoadedInput, found: Violations) -> None:
    """A table's rows are lanes: a row index must exist and no cell may hold two letters."""
    if inp.source_format is not InputFormat.TABLE:
        return
    rows: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for m in inp.messages:
        if m.lane >= len(inp.letters):
            found.add(ViolationKind.LANE_RANGE, detail=f"row {m.lane} at column {m.times[0]}: the table has rows "
                                                        f"0..{len(inp.letters) - 1}")
            continue
        rows[m.lane].append((m.times[0], m.times[-1] + 1))
    for r, spans in sorted(rows.items()):
        spans.sort()
        for (a0, a1), (b0, _) in zip(spans, spans[1:]):
            if b0 < a1:
                found.add(ViolationKind.LANE_OVERLAP, detail=f"row {r}: a word starting at column {b0} overlaps the "
                                                              f"word in columns {a0}..{a1 - 1}")


def expected_destination(net: RebuiltNetwork, dest: Perm, where: str) -> int:
    """The element index of a stated destination; a one-line error naming ``where`` if it is no element."""
    g = net.index.get(tuple(dest))
    if g is None:
        raise TesearchError(f"a stated destination {list(dest)} is not an element of the group", where=where)
    return g


class Buffers:
    """Messages in transit that wait at a node between two of their hops; the largest count at one node."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.occupancy = np.zeros(n, dtype=np.int64)  # in-transit messages waiting at each node
        self.ends: list[tuple[int, int]] = []  # heap of (last waiting step, wait id)
        self.waiting: dict[int, np.ndarray] = {}
        self.ids = itertools.count()
        self.max_buffer = 0

    def wait(self, nodes: np.ndarray, last_step: int) -> None:
        """One message's copies, at `nodes`, wait through step `last_step`."""
        wid = next(self.ids)
        self.waiting[wid] = nodes.copy()
        self.occupancy += np.bincount(nodes, minlength=self.n)
        heapq.heappush(self.ends, (last_step, wid))

    def close_step(self, t: int) -> None:
        """Step ``t`` is over: the messages whose wait ends there leave; the largest count at one node is kept."""
        while self.ends and self.ends[0][0] <= t:
            _, wid = heapq.heappop(self.ends)
            self.occupancy -= np.bincount(self.waiting.pop(wid), minlength=self.n)
        if self.waiting:
            self.max_buffer = max(self.max_buffer, int(self.occupancy.max()))


def message_pair_of(net: RebuiltNetwork, messages: Sequence[LoadedMessage]):
    """(source, destination) of copy g of message m, for violation reports."""
    def message_pair(m: int, g: int) -> tuple[Perm, Perm]:
        end = g
        for k in messages[m].word:
            end = int(net.successor[k, end])
        return net.elements[g], net.elements[end]
    return message_pair


def progress_bar(progress: bool, hops: int, desc: str):
    """A tqdm bar over copy-hops when the replay is long enough to want one, else None."""
    if not progress or hops <= 20_000_000:
        return None
    from tqdm import tqdm

    return tqdm(total=hops, unit="hop", unit_scale=True, desc=desc, leave=False)


def report_late(found: Violations, net: RebuiltNetwork, messages: Sequence[LoadedMessage], late: set[int],
                T: int, message_pair) -> None:
    """Report every message of ``late`` (its last hop at step T or later) as late, all its copies."""
    n = net.order
    for m in sorted(late):
        msg = messages[m]
        found.add(ViolationKind.LATE, n, step=msg.times[-1], node=net.elements[0], message=message_pair(m, 0),
                  detail=f"the last hop is at step {msg.times[-1]}, but T = {T} (steps 0..{T - 1}); "
                         f"all {n} copies are late")


def _report_clash(found: Violations, kind: ViolationKind, clash: np.ndarray, here: np.ndarray, there: np.ndarray,
                  m: int, k: int, t: int, step_hops, net: RebuiltNetwork, message_pair) -> None:
    """Record a link or port used twice in step t, naming the message that used it first."""
    copies = np.nonzero(clash)[0]
    if not found.wants(kind):
        found.count_only(kind, len(copies))
        return
    g = int(copies[0])
    a, b = int(here[g]), int(there[g])
    other = None
    for m2, k2, here2, there2 in step_hops:
        if kind is ViolationKind.LINK_CAPACITY:
            hit = np.nonzero(here2 == a)[0] if k2 == k else ()
        elif kind is ViolationKind.SEND_PORT:
            hit = np.nonzero(here2 == a)[0]
        else:
            hit = np.nonzero(there2 == b)[0]
        if len(hit):
            other = message_pair(m2, int(hit[0]))
            break
    what = {ViolationKind.LINK_CAPACITY: "the link already carries", ViolationKind.SEND_PORT: "the node already sends",
            ViolationKind.RECEIVE_PORT: "the node already receives"}[kind]
    node = net.elements[b] if kind is ViolationKind.RECEIVE_PORT else net.elements[a]
    detail = f"{what} message {node_text(other[0])} => {node_text(other[1])} in this step" if other else what
    detail += f" ({len(copies)} node(s) clash in this step for this hop)"
    found.add(kind, len(copies), step=t, node=node, link=(net.elements[a], net.letters[k], net.elements[b]),
              message=message_pair(m, g), detail=detail)


def claim_links(found: Violations, kind: ViolationKind, stamp: np.ndarray, index: np.ndarray, hop: tuple) -> None:
    """Mark the links or ports ``stamp[index]`` used at this hop's step; report the copies that find one
    already used in that step. ``hop`` is (here, there, message, letter, step, step_hops, net, message_pair)."""
    here, there, m, k, t, step_hops, net, message_pair = hop
    clash = stamp[index] == t
    if clash.any():
        _report_clash(found, kind, clash, here, there, m, k, t, step_hops, net, message_pair)
    stamp[index] = t
