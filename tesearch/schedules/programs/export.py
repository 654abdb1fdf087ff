"""tesearch-programs v1: every rank's program, written rank by rank (docs/programs-format.md).

The file is JSON Lines: line 1 is a header object, then one line per rank in rank order.
The writer computes one rank's program, writes its line and drops it, so a 5040-rank
star-7 export holds one program in memory at a time; the file appears only when complete
(a temporary file beside it is renamed over it).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from tesearch.running.errors import FormatError
from tesearch.running.files import atomic_target
from tesearch.schedules.programs.ranks import RANK_ORDER
from tesearch.schedules.programs.schedule import Column, CompiledSchedule, RankProgram, program

PROGRAMS_FORMAT = "tesearch-programs"
_RANK_FIRST = re.compile(r'\s*\{\s*"rank"\s*:\s*(-?[0-9]+)\s*,')
PROGRAMS_FORMAT_VERSION = 1


def header(schedule: CompiledSchedule) -> dict:
    """The header line: the table's network and T, and how ranks are numbered."""
    table, numbering = schedule.table, schedule.numbering
    axes = numbering.axes
    return {
        "format": PROGRAMS_FORMAT,
        "format_version": PROGRAMS_FORMAT_VERSION,
        "network": table.network,
        "exchange": table.exchange,
        "generators": {s: list(table.generators[s]) for s in schedule.letters},
        "letters": list(schedule.letters),
        "T": table.T,
        "ranks": schedule.ranks,
        "rank_order": RANK_ORDER,
        "axes": None if axes is None else [{"first_point": offset, "side": side} for offset, side in axes],
        "hops_per_rank": schedule.hops_per_rank,
        "messages_per_rank": schedule.messages,
    }


def rank_record(schedule: CompiledSchedule, rank_program: RankProgram) -> dict:
    """One rank's line: its element, coordinates, and per step its sends and receives."""
    letters = schedule.letters
    by_step = []
    for rows in (rank_program.sends, rank_program.receives):
        hops: dict[int, list] = {}
        for step, letter, neighbour, origin, destination in rows.tolist():
            hops.setdefault(step, []).append([letters[letter], neighbour, origin, destination])
        by_step.append(hops)
    sends, receives = by_step
    steps = [[step, sends.get(step, []), receives.get(step, [])] for step in sorted(sends.keys() | receives.keys())]
    rank = rank_program.rank
    return {"rank": rank, "element": list(schedule.numbering.element(rank)),
            "coordinates": schedule.numbering.coordinates(rank), "steps": steps}


def iter_lines(schedule: CompiledSchedule) -> Iterator[str]:
    """The file's lines (without newlines): the header, then one rank at a time."""
    yield json.dumps(header(schedule), separators=(",", ":"))
    for rank in range(schedule.ranks):
        yield json.dumps(rank_record(schedule, program(schedule, rank)), separators=(",", ":"))


def stream_programs(schedule: CompiledSchedule, path: str | Path, *,
                    progress: Callable[[int], None] | None = None) -> int:
    """Write the file at ``path`` (not atomically), one rank at a time; returns its size in bytes."""
    with open(path, "w", encoding="utf-8") as fh:
        for count, line in enumerate(iter_lines(schedule)):
            fh.write(line)
            fh.write("\n")
            if progress is not None and count:
                progress(count)
        fh.flush()
        os.fsync(fh.fileno())
        return fh.tell()


def write_programs(schedule: CompiledSchedule, path: str | Path, *,
                   progress: Callable[[int], None] | None = None) -> int:
    """Write the tesearch-programs v1 file atomically, streaming rank by rank; returns its size in bytes."""
    with atomic_target(path) as tmp:
        size = stream_programs(schedule, tmp, progress=progress)
    return size


# ------------------------------------------------------------------ reading

def _check_header(data: object, where: str) -> dict:
    if not isinstance(data, dict) or data.get("format") != PROGRAMS_FORMAT:
        raise FormatError(f"the first line is not a {PROGRAMS_FORMAT} header", where=where)
    if data.get("format_version") != PROGRAMS_FORMAT_VERSION:
        raise FormatError(f"unsupported format_version {data.get('format_version')!r} (this reader knows 1)",
                          where=where)
    for key in ("letters", "T", "ranks", "generators", "network"):
        if key not in data:
            raise FormatError(f"header has no {key!r}", where=where)
    return data


def _parse(line: str, where: str) -> object:
    try:
        return json.loads(line)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise FormatError(f"not valid JSON ({exc})", where=where) from None


def read_header(path: str | Path) -> dict:
    """The header of a tesearch-programs file (only its first line is read)."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8") as fh:
            first = fh.readline()
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read: {exc}", where=str(path)) from None
    return _check_header(_parse(first, f"{path}: line 1"), f"{path}: line 1")


def program_from_record(record: object, letters: list[str], steps: int, where: str) -> RankProgram:
    """A :class:`RankProgram` from one rank line (letters given as strings, as written)."""
    if not isinstance(record, dict) or not isinstance(record.get("rank"), int) or \
            not isinstance(record.get("steps"), list):
        raise FormatError("a rank line is an object with 'rank' and 'steps'", where=where)
    index = {s: k for k, s in enumerate(letters)}
    rows: tuple[list, list] = ([], [])
    for entry in record["steps"]:
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], int)):
            raise FormatError("a step entry is [step, sends, receives]", where=where)
        step = entry[0]
        for kind, hops in enumerate(entry[1:]):
            for hop in hops:
                if not (isinstance(hop, list) and len(hop) == 4 and hop[0] in index
                        and all(isinstance(x, int) for x in hop[1:])):
                    raise FormatError(f"step {step}: a hop is [letter, neighbour, origin, destination], "
                                      f"got {hop!r}", where=where)
                rows[kind].append([step, index[hop[0]], hop[1], hop[2], hop[3]])

    def table(values):
        array = np.array(values, dtype=np.int64).reshape(-1, len(Column))
        return array[np.argsort(array[:, Column.STEP], kind="stable")]

    return RankProgram(record["rank"], steps, table(rows[0]), table(rows[1]))


def read_program(path: str | Path, rank: int) -> RankProgram:
    """Rank ``rank``'s program from a tesearch-programs file (lines are scanned, not all parsed)."""
    path = Path(path)
    head = read_header(path)
    with open(path, encoding="utf-8") as fh:
        fh.readline()
        for number, line in enumerate(fh, start=2):
            where = f"{path}: line {number}"
            leading = _RANK_FIRST.match(line)
            if leading is not None and int(leading.group(1)) != rank:
                continue  # the writer puts "rank" first: other ranks' lines are skipped unparsed
            record = _parse(line, where)
            if isinstance(record, dict) and record.get("rank") == rank:
                return program_from_record(record, head["letters"], head["T"], where)
    raise FormatError(f"no program for rank {rank}", where=str(path))


def iter_programs(path: str | Path) -> Iterator[RankProgram]:
    """Every rank's program in file order, one at a time."""
    path = Path(path)
    head = read_header(path)
    with open(path, encoding="utf-8") as fh:
        fh.readline()
        for number, line in enumerate(fh, start=2):
            if line.strip():
                where = f"{path}: line {number}"
                yield program_from_record(_parse(line, where), head["letters"], head["T"], where)
