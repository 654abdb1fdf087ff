"""Every rank's program as the text file the C executor reads (``DIR/rank-R.txt``), from the programs export.

The rows come from a tesearch-programs v1 file (:mod:`tesearch.programs.export`, read with
:func:`~tesearch.programs.export.iter_programs`), so what SimGrid runs is exactly what ``tesearch export``
writes.  One file per rank::

    tesearch-rank 1
    rank R ranks N steps T
    neighbours K
    n_0 ... n_{K-1}                    (the rank across each letter, in letter order)
    sends S
    step letter neighbour origin destination      (S lines)
    receives V
    step letter neighbour origin destination      (V lines)

Letters are indices into the header's ``letters``.  The meaning of a row is that of the export
(docs/programs-format.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tesearch.programs.export import iter_programs, read_header
from tesearch.programs.schedule import RankProgram

RANK_FILE_VERSION = 1


def rank_file_name(rank: int) -> str:
    """The file of one rank inside the run's directory."""
    return f"rank-{rank}.txt"


def rank_text(program: RankProgram, ranks: int, neighbours: list[int]) -> str:
    """One rank's file."""
    lines = [f"tesearch-rank {RANK_FILE_VERSION}",
             f"rank {program.rank} ranks {ranks} steps {program.steps}",
             f"neighbours {len(neighbours)}",
             " ".join(str(n) for n in neighbours),
             f"sends {len(program.sends)}"]
    lines += [" ".join(map(str, row)) for row in program.sends.tolist()]
    lines.append(f"receives {len(program.receives)}")
    lines += [" ".join(map(str, row)) for row in program.receives.tolist()]
    return "\n".join(lines) + "\n"


def write_rank_files(programs_path: str | Path, directory: str | Path, neighbours: np.ndarray) -> int:
    """Write ``rank-R.txt`` for every rank of the export into ``directory``; returns the number of ranks.

    ``neighbours`` is (ranks, letters): the rank across each letter (the schedule's ``neighbours``).
    """
    directory = Path(directory)
    ranks = int(read_header(programs_path)["ranks"])
    count = 0
    for program in iter_programs(programs_path):
        text = rank_text(program, ranks, [int(n) for n in neighbours[program.rank]])
        (directory / rank_file_name(program.rank)).write_text(text)
        count += 1
    return count
