"""The transcribed seed tables in ``tesearch/checking/published/data``.

Every ``*.txt`` file there is a table in the text form of
:mod:`tesearch.tables.table` (cells as printed, ``.`` for a blank), with a header
recording its provenance:

``name``
    what the regression calls it;
``source``, ``section``
    the seed file and the section of the paper;
``claimed_T``, ``claimed_optimal``
    the width the paper claims for the whole table and whether it claims it
    optimal (``yes``/``no``);
``completion``
    ``none`` (the printed grid is the whole table) or ``rotation`` (a core:
    "add the remaining orbits as before");
``layout``
    optional; ``side-by-side K`` when the printed block is K tables of equal
    width printed next to each other;
``reconstruction``
    optional; how to rebuild the table when the printed text admits no
    reading (see :mod:`tesearch.checking.published.regress`);
``paper_says``
    the paper's own words about the table.

Files named ``*.template.txt`` are the papers' general tables with symbolic
cells (``a^i``, ``α+``, ``...``); :mod:`tesearch.checking.published.templates` expands
them and :mod:`tesearch.checking.published.constructions` builds the general tables
from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tesearch.running.errors import FormatError
from tesearch.tables.table import BOUNDARY, parse_text

DATA_PACKAGE = "tesearch.checking.published"


def data_dir() -> Path:
    """The folder of the transcribed seed tables."""
    return Path(str(resources.files(DATA_PACKAGE).joinpath("data")))


@dataclass
class PublishedTable:
    """One transcribed seed table and what the paper claims of it."""
    path: Path
    header: dict[str, str]
    cells: list[list[str | None]]  # as printed; None = blank

    @property
    def name(self) -> str:
        """The table's name in reports."""
        return self.header.get("name", self.path.stem)

    @property
    def network(self) -> str:
        """The network spec the table is for."""
        return self.header["network"]

    @property
    def exchange(self) -> str:
        """total or odd-distance."""
        return self.header.get("exchange", "total")

    @property
    def claimed_T(self) -> int | None:
        """The width the paper claims, if it states one."""
        value = self.header.get("claimed_T", "")
        return int(value) if value.isdigit() else None

    @property
    def claimed_optimal(self) -> bool:
        """Whether the paper claims optimality."""
        return self.header.get("claimed_optimal", "no") == "yes"

    @property
    def completion(self) -> str:
        """How the paper completes a printed core ('rotation' or none)."""
        return self.header.get("completion", "none")

    @property
    def side_by_side(self) -> int:
        """How many tables the printed block holds side by side."""
        layout = self.header.get("layout", "")
        if layout.startswith("side-by-side"):
            return int(layout.split()[1])
        return 1

    @property
    def source(self) -> str:
        """The paper (authors and year, as users read it) and the section."""
        seed = self.header.get("source", "?").split("_")[0]
        paper = PAPERS.get(seed, f"seed {seed}")
        return f"{paper} §{self.header.get('section', '?').split(' ')[0]}"

    @property
    def width(self) -> int:
        """Printed columns."""
        return max(len(r) for r in self.cells)


#: the transcribed tables' papers by seed number, as user-facing text names them
PAPERS = {"003": "Coolsaet, Fack and De Meyer (1994)", "004": "Coolsaet and Fack (1994)"}


def load_published(path: str | Path) -> PublishedTable:
    """Read one transcribed table file."""
    path = Path(path)
    tt = parse_text(path.read_text(encoding="utf-8"), str(path))
    cells = [[None if t == "." else t for t in row if t != BOUNDARY] for row in tt.rows]
    widths = {len(r) for r in cells}
    if len(widths) != 1:
        raise FormatError(f"rows have different widths {sorted(widths)}; write every blank as '.'", where=str(path))
    return PublishedTable(path, tt.header, cells)


def published_tables() -> list[PublishedTable]:
    """Every transcribed table, in file-name order (templates excluded)."""
    files = sorted(p for p in data_dir().glob("*.txt") if not p.name.endswith(".template.txt"))
    return [load_published(p) for p in files]
