"""A table's schedule as traces other tools open: Chrome trace-event JSON (Perfetto, chrome://tracing)
and Chakra execution traces (ASTRA-sim), both built from the per-rank programs (:mod:`.schedule`).

**Chrome trace** (:func:`link_slices`, :func:`letter_slices`, written through the shared writer
:mod:`tesearch.schedules.chrome_trace`); one table step is one microsecond:

* ``links``: one track per (node, letter) link, grouped by node (a process per node, a thread per
  letter); one slice per hop, the message's origin and destination in its arguments; flow arrows
  follow each message hop by hop from node to node.  Every rank's program is stated, so the
  trace has ranks x status slices; above :data:`MAX_LINK_HOPS` use ``letters``.
* ``letters``: the node-invariant view: one track per letter, one slice per table cell (the hop
  every node takes at that step along that letter), flow arrows along each word.

**Chakra** (:func:`chakra_traces`, the ``mlc-chakra`` package's ``et_def`` protobuf schema and its
length-prefixed encoder): one execution trace per rank.  In step order, each receive of the rank's
program becomes a ``COMM_RECV_NODE`` and each send a ``COMM_SEND_NODE`` (attributes ``comm_src``
or ``comm_dst``, ``comm_size`` = ``--bytes``, ``comm_tag``, ``is_cpu_op`` false).  A send that
forwards a message (hop j >= 1) has a data dependency on the receive of hop j - 1 of the same
message at this rank; a send also has a control dependency on the previous send along the same
letter, so each link sends in the table's order.  Tags name (origin, destination, hop) uniquely
so the send and the receive of one hop match across ranks.

Files are written by :func:`write_files` (each through a temporary file; all are written before
any is renamed into place).
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from tesearch.schedules.chrome_trace import HopSlice, chrome_trace
from tesearch.running.errors import SizeLimitError, SolverUnavailable
from tesearch.running.files import CHAKRA_MARK, TRACE_KIND, FileKind, atomic_target, check_output
from tesearch.running.limits import advance, phase
from tesearch.schedules.programs.schedule import Column, CompiledSchedule, compile_schedule, program
from tesearch.running.supervise import supervise

#: the most hops (ranks x hops per rank) a links trace holds; beyond it, --tracks letters
MAX_LINK_HOPS = 300_000
#: the most hops (ranks x hops per rank) a set of Chakra traces holds
MAX_CHAKRA_HOPS = 3_000_000
#: microseconds per table step in a Chrome trace
STEP_US = 1.0
#: track layouts of a Chrome trace
TRACKS = ("auto", "links", "letters")


@dataclass(frozen=True)
class Hop:
    """One hop of one rank's program, as the traces state it."""

    rank: int
    step: int
    letter: str
    neighbour: int  # the receiver (of a send)
    origin: int
    destination: int
    index: int  # the hop's place along its message's path (0 = leaving the origin)
    length: int  # the message's number of hops


def hop_indices(schedule: CompiledSchedule) -> tuple[np.ndarray, np.ndarray]:
    """Per cell of the schedule (program row order): the hop's index along its word and the word's length.

    The cell's prefix ``(s1..sj)^-1`` lies at distance j (a prefix of a shortest word is shortest),
    and its suffix ``s(j+1)..sk`` at distance k - j.
    """
    dist = schedule.graph.dist
    index = dist[schedule.cells.before].astype(np.int64)
    return index, index + dist[schedule.cells.rest].astype(np.int64)


def rank_hops(schedule: CompiledSchedule, rank: int, index: np.ndarray, length: np.ndarray) -> Iterator[Hop]:
    """Every send of ``rank``'s program as a :class:`Hop`, in step order."""
    letters = schedule.letters
    sends = program(schedule, rank).sends
    for row, j, k in zip(sends.tolist(), index.tolist(), length.tolist()):
        yield Hop(rank, row[Column.STEP], letters[row[Column.LETTER]], row[Column.NEIGHBOUR],
                  row[Column.ORIGIN], row[Column.DESTINATION], j, k)


def node_name(schedule: CompiledSchedule, rank: int) -> str:
    """``node 0005 (0, 1, 1)``: the rank, zero-padded so viewers sort tracks in rank order, and its coordinates
    (tori, hypercubes) or element (permutation images)."""
    width = len(str(schedule.ranks - 1))
    coordinates = schedule.numbering.coordinates(rank)
    label = coordinates if coordinates is not None else schedule.numbering.element(rank)
    return f"node {rank:0{width}d} ({', '.join(map(str, label))})"


def link_slices(schedule: CompiledSchedule, *, progress: Callable[[int], None] | None = None) -> list[HopSlice]:
    """One slice per hop of every rank, on the (node, letter) link it crosses (the ``links`` layout)."""
    total = schedule.ranks * schedule.hops_per_rank
    if total > MAX_LINK_HOPS:
        raise SizeLimitError(f"{schedule.table.network}: {schedule.ranks} ranks x {schedule.hops_per_rank} hops = {total} "
                             f"hops, more than a links trace holds ({MAX_LINK_HOPS}); use --tracks letters "
                             f"(one track per letter, {schedule.hops_per_rank} slices)")
    index, length = hop_indices(schedule)
    names = [node_name(schedule, rank) for rank in range(schedule.ranks)]
    out = []
    for rank in range(schedule.ranks):
        for hop in rank_hops(schedule, rank, index, length):
            out.append(HopSlice(
                names[rank], f"letter {hop.letter} -> node {hop.neighbour}", hop.step * STEP_US, STEP_US,
                f"{hop.origin}->{hop.destination}", message=(hop.origin, hop.destination), hop=hop.index,
                args={"origin": hop.origin, "destination": hop.destination, "from": rank, "to": hop.neighbour,
                      "letter": hop.letter, "step": hop.step, "hop": hop.index, "hops": hop.length}))
        if progress is not None:
            progress(1)
    return out


def letter_slices(schedule: CompiledSchedule) -> list[HopSlice]:
    """One slice per table cell on its letter's track, arrows along each word (the ``letters`` layout)."""
    out = []
    for number, placement in enumerate(schedule.table.placements):
        word = " ".join(placement.word)
        for j, letter in enumerate(placement.word):
            out.append(HopSlice(
                "every node (node-invariant)", f"letter {letter}", (placement.column + j) * STEP_US, STEP_US,
                word, message=number, hop=j,
                args={"word": word, "row": placement.row, "first_column": placement.column, "step": placement.column + j,
                      "letter": letter, "hop": j, "hops": len(placement.word),
                      "meaning": f"every node g sends its message for g*({word}) on, hop {j + 1} of {len(placement.word)}"}))
    return out


def chrome_trace_document(schedule: CompiledSchedule, tracks: str = "auto", *,
                          progress: Callable[[int], None] | None = None) -> tuple[dict, str]:
    """The trace-event document and the layout used (``auto``: links up to :data:`MAX_LINK_HOPS` hops)."""
    if tracks not in TRACKS:
        raise ValueError(f"tracks must be one of {TRACKS}")
    if tracks == "auto":
        tracks = "links" if schedule.ranks * schedule.hops_per_rank <= MAX_LINK_HOPS else "letters"
    slices = link_slices(schedule, progress=progress) if tracks == "links" else letter_slices(schedule)
    table = schedule.table
    metadata = {"network": table.network, "exchange": table.exchange, "T": table.T, "ranks": schedule.ranks,
                "tracks": tracks, "step_us": STEP_US, "made_by": "tesearch export --format chrome-trace",
                "rank_order": "lexicographic-images (docs/programs-format.md)"}
    return chrome_trace(slices, metadata=metadata), tracks


# ------------------------------------------------------------------ Chakra

def chakra_schema():
    """mlc-chakra's protobuf module (et_def_pb2) and its message encoder, or a one-line error naming the extra."""
    try:
        from chakra.schema.protobuf import et_def_pb2
        from chakra.src.third_party.utils.protolib import encodeMessage
    except ImportError:
        raise SolverUnavailable("Chakra traces need the chakra extra: pip install -e '.[chakra]' (mlc-chakra)") from None
    return et_def_pb2, encodeMessage


def message_tag(origin: int, destination: int, index: int, ranks: int) -> int:
    """The ``comm_tag`` of hop ``index`` of the message from ``origin`` to ``destination`` (unique per hop)."""
    return (origin * ranks + destination) * 64 + index


def chakra_trace(schedule: CompiledSchedule, rank: int, block_bytes: int, index: np.ndarray) -> bytes:
    """Rank ``rank``'s Chakra execution trace: the global metadata, then its nodes (module doc).

    ``index`` is :func:`hop_indices`' first array (a receive is the same cell as its sender's send).
    """
    et, encode = chakra_schema()
    ranks = schedule.ranks
    if ranks * ranks * 64 >= 1 << 31:
        raise SizeLimitError(f"{schedule.table.network}: {ranks} ranks are too many for 32-bit comm_tag values")
    prog = program(schedule, rank)
    letters = schedule.letters
    buffer = io.BytesIO()
    encode(buffer, et.GlobalMetadata(version="1.0.0", attr=[
        et.AttributeProto(name="made_by", string_val=CHAKRA_MARK),  # first: how sniff_kind knows the file
        et.AttributeProto(name="network", string_val=schedule.table.network),
        et.AttributeProto(name="rank", int64_val=rank),
        et.AttributeProto(name="ranks", int64_val=ranks),
        et.AttributeProto(name="T", int64_val=schedule.table.T)]))
    received: dict[tuple[int, int, int], int] = {}  # (origin, destination, hop index) -> node id of its receive
    last_send_on: dict[int, int] = {}
    node_id = 0

    def attrs(*pairs) -> list:
        out = [et.AttributeProto(name="is_cpu_op", bool_val=False),
               et.AttributeProto(name="comm_size", int64_val=block_bytes)]
        for name, value in pairs:
            out.append(et.AttributeProto(name=name, int32_val=int(value)))
        return out

    sends, receives = prog.sends.tolist(), prog.receives.tolist()
    s = r = 0
    while s < len(sends) or r < len(receives):
        # at each step, first the sends of the step, then its receives (a receive enables the next step's send)
        if s < len(sends) and (r >= len(receives) or sends[s][Column.STEP] <= receives[r][Column.STEP]):
            step, letter, neighbour, origin, destination = sends[s]
            j = int(index[s])
            node = et.Node(id=node_id, name=f"send {origin}->{destination} hop {j} step {step} letter {letters[letter]}",
                           type=et.COMM_SEND_NODE)
            if j > 0:
                node.data_deps.append(received[(origin, destination, j - 1)])
            if letter in last_send_on:
                node.ctrl_deps.append(last_send_on[letter])
            node.attr.extend(attrs(("comm_dst", neighbour), ("comm_tag", message_tag(origin, destination, j, ranks))))
            last_send_on[letter] = node_id
            s += 1
        else:
            step, letter, neighbour, origin, destination = receives[r]
            j = int(index[r])
            node = et.Node(id=node_id, name=f"recv {origin}->{destination} hop {j} step {step} letter {letters[letter]}",
                           type=et.COMM_RECV_NODE)
            node.attr.extend(attrs(("comm_src", neighbour), ("comm_tag", message_tag(origin, destination, j, ranks))))
            received[(origin, destination, j)] = node_id
            r += 1
        encode(buffer, node)
        node_id += 1
    return buffer.getvalue()


def chakra_traces(schedule: CompiledSchedule, block_bytes: int, *,
                  progress: Callable[[int], None] | None = None) -> list[bytes]:
    """Every rank's Chakra execution trace (index = rank); ``progress(1)`` after each rank."""
    chakra_schema()
    total = schedule.ranks * schedule.hops_per_rank
    if total > MAX_CHAKRA_HOPS:
        raise SizeLimitError(f"{schedule.table.network}: {schedule.ranks} ranks x {schedule.hops_per_rank} hops = {total} "
                             f"hops, more than the Chakra export writes ({MAX_CHAKRA_HOPS})")
    index, _ = hop_indices(schedule)
    out = []
    for rank in range(schedule.ranks):
        out.append(chakra_trace(schedule, rank, block_bytes, index))
        if progress is not None:
            progress(1)
    return out


def chakra_paths(prefix: str | Path, ranks: int) -> list[Path]:
    """``PREFIX.{rank}.et`` for every rank (the names ASTRA-sim's workload option expects)."""
    return [Path(f"{prefix}.{rank}.et") for rank in range(ranks)]


#: one Chakra execution trace per rank (binary protobuf, so an existing one is replaced only with --force)
CHAKRA_KIND = FileKind("Chakra execution trace", (".et",), frozenset({"chakra"}))


def write_files(contents: dict[Path, bytes], *, kind: FileKind, inputs=(), force: bool = False) -> int:
    """Write every file through a temporary file beside it; rename them all only when all are written.

    Each path is checked first as the safe writer checks it (tesearch.running.files.check_output: never an input,
    a link or a device, an extension of ``kind``, not over a file of another kind without ``force``).
    On any error or interrupt, every temporary file is removed and no file is replaced. Returns the bytes written.
    """
    for path in contents:
        check_output(path, kind=kind, inputs=inputs, force=force)
    total = 0
    with contextlib.ExitStack() as stack:
        for path, data in contents.items():
            tmp = stack.enter_context(atomic_target(path))
            with open(tmp, "wb") as fh:
                fh.write(data)
            total += len(data)
    return total


def trace_json(document: dict) -> bytes:
    """The document as compact JSON bytes."""
    return json.dumps(document, separators=(",", ":")).encode("utf-8")


def _chrome_build(schedule: CompiledSchedule, output: Path, tracks: str, block_bytes: int):
    document, used = chrome_trace_document(schedule, tracks, progress=advance)
    return used, {output: trace_json(document)}


def _chrome_summary(output: Path, ranks: int, hops: int, used: str | None, size: int, block_bytes: int) -> str:
    slices = ranks * hops if used == "links" else hops
    return f"wrote {output}: Chrome trace ({used} tracks), {slices} hop slices, {size} bytes"


def _chakra_build(schedule: CompiledSchedule, output: Path, tracks: str, block_bytes: int):
    traces = chakra_traces(schedule, block_bytes, progress=advance)
    return None, dict(zip(chakra_paths(output, schedule.ranks), traces))


def _chakra_summary(output: Path, ranks: int, hops: int, used: str | None, size: int, block_bytes: int) -> str:
    return (f"wrote {output}.0.et .. {output}.{ranks - 1}.et: Chakra execution traces, {ranks} ranks, "
            f"{hops} sends and {hops} receives each, {block_bytes} bytes per message, {size} bytes in all")


@dataclass(frozen=True)
class TraceFormat:
    """One trace format of ``tesearch export``: its file kind, the file checked before any work, what it needs
    installed, how it is built from the schedule (the tracks used, the files' bytes) and its summary line."""

    name: str  # the --format value
    kind: FileKind
    first_file: Callable[[Path], Path]
    needs: Callable[[], object]  # raises SolverUnavailable when its extra is missing
    build: Callable[[CompiledSchedule, Path, str, int], tuple[str | None, dict[Path, bytes]]]
    summary: Callable[[Path, int, int, str | None, int, int], str]


#: the trace formats by their --format value, the one place ``tesearch export`` dispatches on it
TRACE_FORMATS: dict[str, TraceFormat] = {f.name: f for f in (
    TraceFormat("chrome-trace", TRACE_KIND, lambda output: output, lambda: None, _chrome_build, _chrome_summary),
    TraceFormat("chakra", CHAKRA_KIND, lambda output: Path(f"{output}.0.et"), chakra_schema, _chakra_build,
                _chakra_summary),
)}


def export_trace(fmt: str, table_file: str | Path, output: Path, *, tracks: str, block_bytes: int, limits,
                 quiet: bool, force: bool = False) -> str:
    """``tesearch export --format chrome-trace|chakra``: load the table through the checked loader, build
    under ``limits``, write through the safe writer's checks; the summary line."""
    from tesearch.tables.loading import load_checked_table

    form = TRACE_FORMATS[fmt]
    form.needs()  # a missing extra: say so before any work
    check_output(form.first_file(output), kind=form.kind, inputs=[table_file], force=force)

    def work():
        schedule = compile_schedule(load_checked_table(table_file, command="export"))
        with phase(f"build {fmt} trace", total=schedule.ranks):
            used, contents = form.build(schedule, output, tracks, block_bytes)
        return schedule.ranks, schedule.hops_per_rank, used, contents

    ranks, hops, used, contents = supervise(work, limits=limits, quiet=quiet)
    size = write_files(contents, kind=form.kind, inputs=[table_file], force=force)
    return form.summary(output, ranks, hops, used, size, block_bytes)
