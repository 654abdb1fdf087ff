"""The Table type: tesearch-table v1 JSON and the papers' plain text form.

JSON (``../shared/spec/table-format.md``) is the exchange format.  The text
form is for people and transcriptions::

    # comments start with '#'
    network: star-4
    exchange: total
    T: 21

    1 2 3 | 1 3 | 2 . 1 3
    2 3 1 | 2 1 | 3 2 1 .
    ...

Header lines ``key: value`` come first (``network`` required, ``exchange``
default total, ``T`` default the longest row, ``generators`` optional JSON,
anything else kept as metadata).  Then one line per row: letters separated by
spaces, ``.`` for a blank, ``|`` between adjacent words.  A file whose rows
carry no ``|`` at all (as printed in the papers) has unmarked word boundaries,
unless its header says ``boundaries: marked``; such rows are split into words
by :mod:`tesearch.tables.segment` (its Z3 model is needed only then: pass
``segmenter=segment_table`` to :func:`read_table`).  Readers refuse bad input
with one line naming the file, row and column; writers write atomically.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from tesearch.running.errors import FormatError
from tesearch.running.files import gzip_bytes, parse_json_text, read_text_file, write_atomically
from tesearch.running.terms import Exchange

TABLE_FORMAT = "tesearch-table"
TABLE_FORMAT_VERSION = 1
#: largest T and first column a table may state (beyond it no command could allocate its columns)
MAX_COLUMNS = 1 << 31
BLANK = "."
BOUNDARY = "|"
_REQUIRED = ("format", "format_version", "network", "exchange", "generators", "T", "lower_bound", "placements")


@dataclass(frozen=True, order=True)
class Placement:
    """One message: its word laid in ``row`` from ``column`` on."""

    row: int
    column: int
    word: tuple[str, ...]

    @property
    def end(self) -> int:
        """The column after the word's last letter."""
        return self.column + len(self.word)

    def to_json(self) -> list:
        """[row, first column, word] as in tesearch-table v1."""
        return [self.row, self.column, list(self.word)]


@dataclass
class Table:
    """A table: network, exchange, generators, width T and the placed words."""
    network: str
    exchange: str
    generators: dict[str, tuple[int, ...]]
    T: int
    placements: list[Placement]
    lower_bound: int | None = None
    extra: dict = field(default_factory=dict)  # keys we do not interpret, kept on write

    @property
    def letters(self) -> tuple[str, ...]:
        """The generator letters, in row order."""
        return tuple(self.generators)

    @property
    def rows(self) -> int:
        """Number of rows (one per generator)."""
        return len(self.generators)

    def grid(self) -> list[list[str | None]]:
        """Rows x T cells (None = blank).  Later placements overwrite earlier ones;
        use :func:`tesearch.tables.verify.verify_table` to find overlaps."""
        cells: list[list[str | None]] = [[None] * self.T for _ in range(self.rows)]
        for p in self.placements:
            if 0 <= p.row < self.rows:
                for i, s in enumerate(p.word):
                    if 0 <= p.column + i < self.T:
                        cells[p.row][p.column + i] = s
        return cells

    def with_placements(self, placements: Iterable[Placement], T: int | None = None) -> "Table":
        """A copy with other placements (and optionally another T)."""
        return Table(self.network, self.exchange, dict(self.generators), self.T if T is None else T,
                     sorted(placements), self.lower_bound, dict(self.extra))

    # ---------------------------------------------------------------- JSON
    def to_json(self) -> dict:
        """The table as a tesearch-table v1 object."""
        out = {
            "format": TABLE_FORMAT,
            "format_version": TABLE_FORMAT_VERSION,
            "network": self.network,
            "exchange": self.exchange,
            "generators": {s: list(p) for s, p in self.generators.items()},
            "T": self.T,
            "lower_bound": self.lower_bound,
        }
        out.update({k: v for k, v in self.extra.items() if k not in out and k != "placements"})
        out["placements"] = [p.to_json() for p in sorted(self.placements)]
        return out

    def dumps(self) -> str:
        """JSON text with one placement per line (readable diffs, compact files)."""
        data = self.to_json()
        placements = data.pop("placements")
        head = json.dumps(data, indent=2)
        body = ",\n".join("    " + json.dumps(p) for p in placements)
        return head[:-2] + ',\n  "placements": [\n' + body + "\n  ]\n}\n"

    # ---------------------------------------------------------------- text
    def to_text(self) -> str:
        """The table in the text form (module doc)."""
        lines = [f"network: {self.network}", f"exchange: {self.exchange}", f"T: {self.T}"]
        if self.lower_bound is not None:
            lines.append(f"lower_bound: {self.lower_bound}")
        lines.append("")
        rows: list[list[str]] = [[BLANK] * self.T for _ in range(self.rows)]
        starts = [set() for _ in range(self.rows)]
        for p in self.placements:
            starts[p.row].add(p.column)
            for i, s in enumerate(p.word):
                rows[p.row][p.column + i] = s
        for r, cells in enumerate(rows):
            tokens = []
            for c, cell in enumerate(cells):
                if c in starts[r] and c > 0 and cells[c - 1] != BLANK:
                    tokens.append(BOUNDARY)
                tokens.append(cell)
            lines.append(" ".join(tokens))
        return "\n".join(lines) + "\n"


def table_file_bytes(table: Table, path: str | Path) -> bytes:
    """The bytes of ``table`` in the form ``path``'s extension asks for: JSON, text for .txt,
    gzip-compressed JSON for .gz (exactly what :meth:`Table.dumps` gives, compressed reproducibly)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".gz":
        return gzip_bytes(table.dumps().encode("utf-8"))
    return (table.to_text() if suffix == ".txt" else table.dumps()).encode("utf-8")


def write_table(table: Table, path: str | Path) -> None:
    """Write a table atomically in the form its extension asks for (:func:`table_file_bytes`).

    No keep-better check and no output checks here: commands write tables through
    :func:`tesearch.tables.outputs.save_table`.
    """
    write_atomically(path, table_file_bytes(table, path))


# -------------------------------------------------------------------- reading

def _int_field(data: dict, key: str, where: str, *, minimum: int = 0, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= MAX_COLUMNS:
        raise FormatError(f"{key!r} must be an integer between {minimum} and {MAX_COLUMNS}, got {value!r}",
                          where=where)
    return value


def table_from_json(data: object, where: str = "table") -> Table:
    """Validate a decoded tesearch-table v1 object and build a :class:`Table`."""
    from tesearch.networks.families import check_generators

    if not isinstance(data, dict):
        raise FormatError("a tesearch-table is a JSON object", where=where)
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise FormatError(f"missing key(s) {', '.join(missing)}", where=where)
    if data["format"] != TABLE_FORMAT:
        raise FormatError(f"'format' is {data['format']!r}, expected {TABLE_FORMAT!r}", where=where)
    if data["format_version"] != TABLE_FORMAT_VERSION:
        raise FormatError(f"unsupported format_version {data['format_version']!r} (this reader knows 1)", where=where)
    if not isinstance(data["network"], str):
        raise FormatError("'network' must be a string", where=where)
    if data["exchange"] not in Exchange.values():
        raise FormatError(f"'exchange' must be one of {', '.join(Exchange.values())}, got {data['exchange']!r}", where=where)
    gens = check_generators(data["generators"], where)
    T = _int_field(data, "T", where)
    lower = _int_field(data, "lower_bound", where, optional=True)
    raw = data["placements"]
    if not isinstance(raw, list):
        raise FormatError("'placements' must be a list", where=where)
    placements = []
    for i, item in enumerate(raw):
        here = f"{where}: placements[{i}]"
        if not (isinstance(item, list) and len(item) == 3):
            raise FormatError("a placement is [row, first_column, word]", where=here)
        row, col, word = item
        for name, value in (("row", row), ("first_column", col)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COLUMNS:
                raise FormatError(f"{name} must be an integer between 0 and {MAX_COLUMNS}, got {value!r}",
                                  where=here)
        if not isinstance(word, list) or not word or not all(isinstance(s, str) for s in word):
            raise FormatError("word must be a non-empty list of letters", where=here)
        placements.append(Placement(row, col, tuple(word)))
    extra = {k: v for k, v in data.items() if k not in _REQUIRED}
    return Table(data["network"], data["exchange"], gens, T, placements, lower, extra)


@dataclass
class TextTable:
    """A parsed text table before word segmentation."""

    header: dict[str, str]
    rows: list[list[str]]  # tokens: letters, BLANK, BOUNDARY
    where: str
    line_numbers: list[int]

    @property
    def marked(self) -> bool:
        """Whether word boundaries are marked with '|'."""
        mode = self.header.get("boundaries")
        if mode is not None:
            return mode == "marked"
        return any(BOUNDARY in row for row in self.rows)

    def cells(self, r: int) -> list[str | None]:
        """Row r's cells: letters, None for a blank."""
        return [None if t == BLANK else t for t in self.rows[r] if t != BOUNDARY]

    def segments(self) -> list[tuple[int, int, tuple[str, ...]]]:
        """Maximal runs of letters: (row, first column, letters); '|' and '.' end a run."""
        out = []
        for r, tokens in enumerate(self.rows):
            col, start, run = 0, 0, []
            for tok in tokens + [BLANK]:
                if tok in (BLANK, BOUNDARY):
                    if run:
                        out.append((r, start, tuple(run)))
                    run = []
                    if tok == BLANK:
                        col += 1
                    start = col
                    continue
                if not run:
                    start = col
                run.append(tok)
                col += 1
        return out


_HEADER = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$")


def parse_text(text: str, where: str = "table") -> TextTable:
    """Parse the text form into its header and token rows (no words yet)."""
    header: dict[str, str] = {}
    rows: list[list[str]] = []
    numbers: list[int] = []
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.split("#", 1)[0].strip()
        if not stripped:
            continue
        match = _HEADER.match(stripped)
        if match and not rows:
            header[match.group(1)] = match.group(2).strip()
            continue
        rows.append(stripped.split())
        numbers.append(n)
    if "network" not in header:
        raise FormatError("text table has no 'network:' header line", where=where)
    if not rows:
        raise FormatError("text table has no rows", where=where)
    if header.get("boundaries") not in (None, "marked", "unmarked"):
        raise FormatError("'boundaries' must be marked or unmarked", where=where)
    return TextTable(header, rows, where, numbers)


def _text_generators(tt: TextTable) -> dict[str, tuple[int, ...]]:
    from tesearch.networks.families import check_generators, network_from_spec

    if "generators" in tt.header:
        try:
            gens = json.loads(tt.header["generators"])
        except json.JSONDecodeError as exc:
            raise FormatError(f"'generators' header is not JSON: {exc.msg}", where=tt.where) from None
        return check_generators(gens, tt.where)
    net = network_from_spec(tt.header["network"])
    return {s: net.generators[s] for s in net.letters}


def table_from_text(tt: TextTable, *, segmenter: "Segmenter | None" = None) -> Table:
    """Build a Table from text with marked boundaries (or unmarked ones via segmentation)."""
    gens = _text_generators(tt)
    letters = tuple(gens)
    exchange = tt.header.get("exchange", "total")
    if exchange not in Exchange.values():
        raise FormatError(f"'exchange' must be one of {', '.join(Exchange.values())}, got {exchange!r}", where=tt.where)
    if len(tt.rows) != len(letters):
        raise FormatError(f"{len(tt.rows)} rows, but the network has {len(letters)} generators", where=tt.where)
    widths = [len(tt.cells(r)) for r in range(len(tt.rows))]
    T = _header_int(tt, "T", max(widths))
    for r, tokens in enumerate(tt.rows):
        col = 0
        for tok in tokens:
            if tok == BOUNDARY:
                continue
            if tok != BLANK and tok not in gens:
                raise FormatError(f"unknown letter {tok!r} (letters: {' '.join(letters)})",
                                  where=f"{tt.where}: line {tt.line_numbers[r]}, row {r}, column {col}")
            col += 1
        if widths[r] > T:
            raise FormatError(f"row has {widths[r]} cells but T is {T}",
                              where=f"{tt.where}: line {tt.line_numbers[r]}, row {r}")
    lower = _header_int(tt, "lower_bound", None)
    meta = {k: v for k, v in tt.header.items() if k not in ("network", "exchange", "T", "generators", "lower_bound", "boundaries")}
    table = Table(tt.header["network"], exchange, dict(gens), T, [], lower, meta)
    if tt.marked:
        table.placements = sorted(Placement(r, c, w) for r, c, w in tt.segments())
        return table
    if segmenter is None:
        raise FormatError("the rows carry no '|' word boundaries: splitting them into words needs "
                          "segmenter=tesearch.tables.segment.segmented (or mark each boundary with '|')", where=tt.where)
    return segmenter(table, tt)


def _header_int(tt: TextTable, key: str, default: int | None) -> int | None:
    text = tt.header.get(key)
    if text is None:
        return default
    if not re.fullmatch(r"[0-9]{1,10}", text) or int(text) > MAX_COLUMNS:
        raise FormatError(f"'{key}:' must be an integer between 0 and {MAX_COLUMNS}, got {text!r}", where=tt.where)
    return int(text)


Segmenter = Callable[[Table, TextTable], Table]


def read_table(path: str | Path, *, segmenter: Segmenter | None = None) -> Table:
    """Read a table file: ``.json`` (tesearch-table v1), ``.json.gz`` (the same, gzip-compressed) or text.

    Text rows printed without word boundaries need ``segmenter`` (``tesearch.tables.segment.segment_table``).
    """
    path = Path(path)
    text = read_text_file(path, gzip_ok=True)
    if path.suffix in (".json", ".gz") or text.lstrip().startswith("{"):
        return table_from_json(parse_json_text(text, str(path)), str(path))
    return table_from_text(parse_text(text, str(path)), segmenter=segmenter)
