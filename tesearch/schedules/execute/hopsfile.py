"""The tesearch-hops v1 file: a schedule as the C executors read it (docs/hops-format.md).

Written once per schedule by Python, read by every rank (``te_schedule.c``); little-endian, in two layouts:

* **routes** (:func:`routes_bytes`, what ``simulate``, ``run --mpi`` and the PMPI library run): the schedule
  once, node-invariant: the group's elements as permutations, the rank of each element, and the cells (step,
  letter and the four element indices a rank multiplies by its own element to get each hop's neighbour,
  origin and destination).  A few hundred kilobytes for 1024 ranks, whatever the block size;
* **programs** (:func:`programs_bytes`): every rank's hops written out, so a program the schedule does not
  define (a broken one, made on purpose by the tests) runs as given.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from tesearch.schedules.execute.hops import HopSchedule, ScheduleKind
from tesearch.schedules.programs.export import iter_programs, read_header
from tesearch.schedules.programs.ranks import RankNumbering

MAGIC = b"TEHOPS01"
VERSION = 1
LAYOUT_ROUTES = 1
LAYOUT_PROGRAMS = 2
KIND_CODES = {ScheduleKind.TABLE: 1, ScheduleKind.SUPERSTEPS: 2}
#: the header after the magic: version, layout, kind, ranks, letters, steps, hops, points, name bytes, 2 reserved
HEADER = struct.Struct("<11I")


def _name_bytes(name: str) -> bytes:
    raw = name.encode()[:4096]
    return raw + b"\0" * (-len(raw) % 4)


def routes_bytes(schedule: HopSchedule) -> bytes:
    """The routes layout of ``schedule``."""
    graph, numbering, cells = schedule.graph, schedule.numbering, schedule.cells
    elements = np.ascontiguousarray(graph.elements, dtype="<u4")
    generator = np.array([graph.right[k, 0] for k in range(graph.degree)], dtype="<i4")  # e * s_k
    name = schedule.name.encode()[:4096]
    table = np.stack([cells.step, cells.letter, cells.before, cells.rest, cells.after, cells.rest_after],
                     axis=1).astype("<i4")
    head = HEADER.pack(VERSION, LAYOUT_ROUTES, KIND_CODES[schedule.kind], numbering.size, graph.degree,
                       schedule.width, len(cells.step), elements.shape[1], len(name), 0, 0)
    return b"".join([MAGIC, head, _name_bytes(schedule.name), graph.inverse_letter.astype("<i4").tobytes(),
                     generator.tobytes(), numbering.index_of_rank.astype("<i4").tobytes(), elements.tobytes(),
                     table.tobytes()])


def write_routes(schedule: HopSchedule, path: str | Path) -> Path:
    """Write the routes layout of ``schedule`` to ``path`` (a scratch file of the run)."""
    path = Path(path)
    path.write_bytes(routes_bytes(schedule))
    return path


def programs_bytes(programs_path: str | Path, numbering: RankNumbering, kind: ScheduleKind = ScheduleKind.TABLE) -> bytes:
    """The programs layout of a tesearch-programs v1 file (``tesearch export``), read rank by rank; the neighbours are
    the network's (``numbering``), whatever the programs say."""
    header = read_header(programs_path)
    ranks, steps = int(header["ranks"]), int(header["T"])
    letters = numbering.graph.degree
    neighbours = numbering.rank_of_index[numbering.graph.right[:, numbering.index_of_rank]].T.astype("<i4")
    name = _name_bytes(f"programs of {header.get('network', '?')}")
    sections = []
    for program in iter_programs(programs_path):
        sends = np.asarray(program.sends, dtype="<i4").reshape(-1, 5)
        receives = np.asarray(program.receives, dtype="<i4").reshape(-1, 5)
        sections.append(struct.pack("<2I", len(sends), len(receives)) + sends.tobytes() + receives.tobytes())
    if len(sections) != ranks:
        from tesearch.running.errors import FormatError

        raise FormatError(f"the programs file has {len(sections)} of its {ranks} ranks", where=str(programs_path))
    head = HEADER.pack(VERSION, LAYOUT_PROGRAMS, KIND_CODES[kind], ranks, letters, steps, 0, 0,
                       len(f"programs of {header.get('network', '?')}".encode()[:4096]), 0, 0)
    start = len(MAGIC) + HEADER.size + len(name) + neighbours.nbytes + 8 * (ranks + 1)
    offsets = [start]
    for section in sections:
        offsets.append(offsets[-1] + len(section))
    return b"".join([MAGIC, head, name, neighbours.tobytes(), np.array(offsets, dtype="<u8").tobytes(), *sections])
