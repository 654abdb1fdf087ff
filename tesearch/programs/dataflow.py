"""The dataflow executor of ``tesearch run --mpi --executor dataflow``: each hop goes as soon as it can.

The step executor (:mod:`tesearch.programs.executor`) moves all ranks through the steps together.
This one runs the same per-rank programs without steps, as ``run_dataflow`` in
``tesearch/simulate/tesearch_simulate.c`` does in SimGrid:

* one MPI message per hop, carrying (step, origin, destination) and the block;
* each outgoing link sends its hops in table (step) order; a rank's own messages go at once, a
  forward goes as soon as the hop that brings it has arrived, so independent messages pipeline and
  no step waits for the slowest link;
* one receive is always posted on every incoming link, with ``MPI_ANY_TAG``, so MPI's
  non-overtaking rule delivers each link's messages in the order they were sent;
* every link ends with an *end marker*; a rank is done when it has sent the end marker on every
  outgoing link and received it on every incoming one.

**It never hangs on a broken program.**  A forward at step ``t`` whose block has not arrived waits
only for *evidence about steps before t* from the link the program says it arrives on (its
receive of that message): a message on that link with step ``>= t`` or the link's end marker.  Since
each link sends in step order, such a message means the sender has dealt with every hop below
step ``t`` on that link, so the block is not coming in time: the rank gives up on that hop (fault
NOT_HELD) and goes on.  A sender whose next hop on a link is blocked at step ``t`` must not keep
that evidence back: before a rank waits for an arrival, it sends on each blocked link a *progress
marker* "nothing more below step t" (only when it has not yet shown step ``t`` there).

Why every rank finishes: say a rank has *passed step t on a link* once it has dealt with (sent or
given up on) all its hops below ``t`` there and sent a message with step ``>= t`` (hop or marker) or
the end marker.  Claim: for every ``t``, every rank eventually passes step ``t`` on every outgoing
link.  For ``t = 0``: a rank's first message on a link is its first hop, or a marker before its
first wait, or the end marker.  From ``t`` to ``t + 1``: a hop at step ``t`` is preceded on its link
only by hops of step ``<= t``; by induction along the link each is sent at once, or waits for its
block, and that wait ends at the latest when the incoming link has passed step ``t``, which the
claim for ``t`` guarantees (receives are always posted, so what was sent arrives).  Once all hops
below ``t + 1`` are dealt with, the rank sends its next hop (step ``>= t + 1``) or, if that is
blocked, a marker before it next waits (it processes finitely many arrivals between waits, since
each link carries finitely many messages: hops, at most one marker per step, one end marker), or
the end marker.  Steps are bounded, so every hop is dealt with, every link's end marker is sent and,
by non-overtaking, received after everything sent before it: every receive and send completes.

In a correct program no rank ever gives up: a forward at step ``t`` needs the hop of step ``t - 1``
on its incoming link, which comes before anything of step ``>= t`` there.  What a rank checks:
every arrival against its program's receives (same message, same link, same step, else LATE,
EARLY or WRONG_NEIGHBOUR by :func:`tesearch.programs.faults.classify_arrivals`; an expected arrival
that never came is DROPPED), forwards of a block it does not hold (NOT_HELD) or that arrived more
than one step before the forward (HELD_TOO_LONG), blocks still held at the end, blocks delivered
twice; after the run the caller compares every block with ``MPI_Alltoall`` byte for byte.
"""

from __future__ import annotations

import numpy as np

from tesearch.programs.faults import Fault, FaultRecord, ProgramRun
from tesearch.programs.schedule import Column, RankProgram

#: the kinds of message on a link: a hop (carries a block), a progress marker, the link's end marker
HOP, MARK, END = 0, 1, 2
HEADER_ITEM = np.dtype(np.int64)
#: header fields: kind, step, origin, destination
HEADER_BYTES = 4 * HEADER_ITEM.itemsize
#: a step beyond every program: what a link has shown once its end marker arrived
PAST_EVERY_STEP = np.iinfo(np.int64).max


def incoming_links(neighbours: np.ndarray, me: int) -> list[int]:
    """The ranks with a network link to ``me`` (``neighbours``: the schedule's (ranks, letters) array)."""
    return sorted(int(r) for r in np.nonzero((neighbours == me).any(axis=1))[0] if r != me)


class _Rank:
    """One rank's state in one dataflow run (see the module docstring)."""

    def __init__(self, comm, prog: RankProgram, out_links: list[int], in_links: list[int], sendbuf: np.ndarray,
                 block_bytes: int):
        from mpi4py import MPI

        self.MPI = MPI
        self.comm = comm
        self.me = comm.Get_rank()
        self.sendbuf = sendbuf
        self.block_bytes = block_bytes
        self.faults: list[FaultRecord] = []
        self.delivered: dict[int, np.ndarray] = {}
        self.held: dict[tuple[int, int], tuple[np.ndarray, int]] = {}  # (origin, destination) -> (block, step)
        self.queues: dict[int, list[tuple[int, int, int]]] = {n: [] for n in out_links}
        self.position = dict.fromkeys(out_links, 0)
        self.shown_out = dict.fromkeys(out_links, -1)  # largest step sent on each outgoing link
        self.shown_in = dict.fromkeys(in_links, -1)  # largest step arrived on each incoming link
        self.blocked: dict[int, tuple[int, int, int, int]] = {}  # link -> (step, origin, destination, source)
        self.waiting_for: dict[tuple[int, int], set[int]] = {}  # message -> outgoing links blocked on it
        self.waiting_on: dict[int, set[int]] = {}  # incoming link -> outgoing links blocked on it
        self.sends: list = []
        self.markers = 0
        order = np.argsort(prog.sends[:, Column.STEP], kind="stable")
        for step, _, neighbour, origin, destination in prog.sends[order].tolist():
            if neighbour in self.queues:
                self.queues[neighbour].append((step, origin, destination))
            else:
                self.faults.append(FaultRecord(Fault.NOT_A_NEIGHBOUR, self.me, step, origin, destination,
                                               f"rank {self.me}'s program sends message {origin}->{destination} at "
                                               f"step {step} to rank {neighbour}, which is not a network neighbour"))
        # (origin, destination) -> (step, sender) of the program's receives: what is still expected
        self.expected = {(origin, destination): (step, neighbour)
                         for step, _, neighbour, origin, destination in prog.receives.tolist()}
        self.arrival_of = dict(self.expected)  # the same, kept whole: where a forward's block comes from
        self.unexpected: list[tuple[int, int, int, int]] = []  # (origin, destination, sender, step)

    def send(self, link: int, kind: int, step: int, origin: int, destination: int, block=None) -> None:
        """One message on ``link``: a hop with its block, or a marker (header only)."""
        head = np.array([kind, step, origin, destination], dtype=HEADER_ITEM).view(np.uint8)
        buffer = head if block is None else np.concatenate([head, block])
        self.sends.append(self.comm.Isend(buffer, dest=link, tag=kind))
        if kind != END:
            self.shown_out[link] = max(self.shown_out[link], step)
        if len(self.sends) > 256:
            self.sends = [r for r in self.sends if not r.Test()]

    def unblock(self, link: int) -> None:
        """Forget what ``link`` was waiting for (it is about to look again)."""
        entry = self.blocked.pop(link, None)
        if entry is not None:
            self.waiting_for.get(entry[1:3], set()).discard(link)
            self.waiting_on.get(entry[3], set()).discard(link)

    def pump(self, link: int) -> None:
        """Send ``link``'s hops in order while their blocks are here (or given up on); end it when all are done."""
        self.unblock(link)
        queue, me = self.queues[link], self.me
        while self.position[link] < len(queue):
            step, origin, destination = queue[self.position[link]]
            if origin == me:
                block = self.sendbuf[destination * self.block_bytes:(destination + 1) * self.block_bytes]
            else:
                item = self.held.pop((origin, destination), None)
                if item is None:
                    due = self.arrival_of.get((origin, destination))
                    source = None if due is None else due[1]
                    if source is not None and self.shown_in.get(source, PAST_EVERY_STEP) < step:
                        self.blocked[link] = (step, origin, destination, source)
                        self.waiting_for.setdefault((origin, destination), set()).add(link)
                        self.waiting_on.setdefault(source, set()).add(link)
                        return
                    why = ("its program never receives it" if due is None else
                           f"its program expects it from rank {source} at step {due[0]}, and that link "
                           + ("ended" if self.shown_in.get(source, PAST_EVERY_STEP) == PAST_EVERY_STEP else
                              f"reached step {self.shown_in[source]}") + " without it")
                    self.faults.append(FaultRecord(Fault.NOT_HELD, me, step, origin, destination,
                                                   f"rank {me}'s program forwards message {origin}->{destination} "
                                                   f"at step {step}, but rank {me} does not hold it ({why})"))
                    self.position[link] += 1
                    continue
                block, arrived = item
                if step > arrived + 1:
                    self.faults.append(FaultRecord(Fault.HELD_TOO_LONG, me, step, origin, destination,
                                                   f"rank {me} holds message {origin}->{destination} past step "
                                                   f"{arrived + 1} (it arrived at step {arrived} and was sent on "
                                                   f"at step {step})"))
            self.send(link, HOP, step, origin, destination, block)
            self.position[link] += 1
        self.send(link, END, 0, -1, -1)
        self.position[link] += 1  # past the end: never pumped again

    def announce(self) -> None:
        """Before waiting: tell each blocked link's receiver that nothing below its blocked step is coming."""
        for link, (step, *_) in self.blocked.items():
            if self.shown_out[link] < step:
                self.send(link, MARK, step, -1, -1)
                self.markers += 1

    def arrive(self, source: int, buffer: np.ndarray, count: int) -> bool:
        """Take one message from ``source``; False if it was the link's end marker."""
        kind, step, origin, destination = (int(x) for x in buffer[:HEADER_BYTES].view(HEADER_ITEM))
        if kind == END:
            self.shown_in[source] = PAST_EVERY_STEP
        else:
            self.shown_in[source] = max(self.shown_in[source], step)
        if kind == HOP:
            block = buffer[HEADER_BYTES:count]
            key = (origin, destination)
            if self.expected.get(key) == (step, source):
                del self.expected[key]
            else:
                self.unexpected.append((origin, destination, source, step))
            if destination == self.me:
                if origin in self.delivered:
                    self.faults.append(FaultRecord(Fault.DUPLICATE, source, step, origin, destination,
                                                   f"message {origin}->{destination} reached rank {self.me} a second "
                                                   f"time at step {step} (from rank {source})"))
                self.delivered[origin] = block
            else:
                self.held[key] = (block, step)
                for link in sorted(self.waiting_for.get(key, ())):
                    self.pump(link)
        for link in sorted(self.waiting_on.get(source, ())):
            if link in self.blocked and self.blocked[link][0] <= self.shown_in[source]:
                self.pump(link)
        return kind != END

    def finish(self, steps: int) -> ProgramRun:
        """Blocks still held, expected arrivals that never came and arrivals nobody expected, as faults."""
        from tesearch.programs.faults import classify_arrivals

        for (origin, destination), (_, arrived) in self.held.items():
            self.faults.append(FaultRecord(Fault.HELD_TOO_LONG, self.me, steps, origin, destination,
                                           f"rank {self.me} still holds message {origin}->{destination} after the "
                                           f"run (it arrived at step {arrived})"))
        self.faults.extend(classify_arrivals(self.me, self.unexpected, self.expected))
        return ProgramRun(self.faults, self.delivered, self.markers)


def run_dataflow(comm, prog: RankProgram, out_links: list[int], in_links: list[int], sendbuf: np.ndarray,
                 block_bytes: int) -> ProgramRun:
    """Run ``prog`` as dataflow over ``comm`` (a communicator of its own): faults seen and blocks delivered.

    ``out_links`` / ``in_links``: the network neighbours this rank sends to / receives from (every one
    gets and sends an end marker, so a message sent to the wrong neighbour is received and named).
    """
    from mpi4py import MPI

    rank = _Rank(comm, prog, out_links, in_links, sendbuf, block_bytes)
    size = HEADER_BYTES + block_bytes
    buffers = [np.empty(size, dtype=np.uint8) for _ in in_links]
    receives = [comm.Irecv(buffer, source=n, tag=MPI.ANY_TAG) for buffer, n in zip(buffers, in_links)]
    for link in out_links:
        rank.pump(link)
    open_links = len(in_links)
    status = MPI.Status()
    while open_links:
        index, done = MPI.Request.Testany(receives, status)
        if not done or index == MPI.UNDEFINED:
            rank.announce()
            index = MPI.Request.Waitany(receives, status)
        source = in_links[index]
        if rank.arrive(source, buffers[index], status.Get_count(MPI.BYTE)):
            buffers[index] = np.empty(size, dtype=np.uint8)
            receives[index] = comm.Irecv(buffers[index], source=source, tag=MPI.ANY_TAG)
        else:
            open_links -= 1
    stuck = [n for n in out_links if rank.position[n] <= len(rank.queues[n])]
    if stuck:  # cannot happen (module docstring); kept as a loud check of that argument
        raise RuntimeError(f"rank {rank.me}: links to {stuck} never ended")
    MPI.Request.Waitall(rank.sends)
    return rank.finish(prog.steps)
