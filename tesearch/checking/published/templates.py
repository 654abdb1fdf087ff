"""The papers' general tables with symbolic cells, expanded for a given size.

Seed 003 prints its general tables with cells such as ``a^i`` (i copies of
a), ``α+`` (the word aAa... of length m) and blocks ending in ``...``.  The
template files in ``data/*.template.txt`` hold them as printed (letters
renamed to ours); :func:`expand` turns one into concrete cells, and returns
the column boundaries of the printed cells too: a word of the table is taken
to be a union of whole printed cells, which is how the paper describes its
words (``a^i b^-i c^i``, ``a α-``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tesearch.running.errors import FormatError
from tesearch.checking.published.catalog import data_dir, load_published

#: symbolic alternating words: token -> (first letter, second letter)
ALTERNATING = {"α+": ("a", "A"), "α-": ("A", "a"), "β+": ("b", "B"), "β-": ("B", "b"),
               "γ+": ("c", "C"), "γ-": ("C", "c")}
ELLIPSIS = "..."


@dataclass
class Expanded:
    """A template part expanded into cells and word cut points."""
    cells: list[list[str]]  # rows x columns, letters
    cuts: list[set[int]]  # per row: columns where a printed cell starts (and the row end)

    @property
    def width(self) -> int:
        """Columns of the expanded part."""
        return len(self.cells[0]) if self.cells else 0


def template_rows(name: str) -> tuple[dict[str, str], list[list[str]]]:
    """Header and rows of tokens of ``data/<name>.template.txt``."""
    table = load_published(data_dir() / f"{name}.template.txt")
    return table.header, [[t for t in row] for row in table.cells]


def _alternate(first: str, second: str, length: int) -> list[str]:
    return [first if k % 2 == 0 else second for k in range(length)]


def expand_tokens(rows: list[list[str]], *, i: int = 1, m: int = 1) -> Expanded:
    """The cells of a template whose tokens are letters, ``x^i`` or ``α±``/``β±``/``γ±`` (length m)."""
    cells, cuts = [], []
    for row in rows:
        out: list[str] = []
        starts = {0}
        for token in row:
            if token in ALTERNATING:
                out += _alternate(*ALTERNATING[token], m)
            elif token.endswith("^i"):
                out += [token[:-2]] * i
            else:
                out.append(token)
            starts.add(len(out))
        cells.append(out)
        cuts.append(starts)
    if len({len(r) for r in cells}) != 1:
        raise FormatError("template rows expand to different widths")
    return Expanded(cells, cuts)


def expand_blocks(rows: list[list[str]], block: int) -> Expanded:
    """The cells of a template of ``...``-terminated blocks, each continued to ``block`` cells.

    A block continues the alternation of its last two printed cells (``a A a A ...``
    goes on ``a A``) and is cut to ``block`` cells when fewer are needed.
    """
    cells, cuts = [], []
    for row in rows:
        out: list[str] = []
        starts = {0}
        current: list[str] = []
        for token in (row if row[-1] == ELLIPSIS else row + [ELLIPSIS]):
            if token != ELLIPSIS:
                current.append(token)
                continue
            if len(current) < 2:
                raise FormatError("a '...' block needs at least two printed cells")
            seq = list(current)
            while len(seq) < block:
                seq.append(seq[-2])
            out += seq[:block]
            starts.add(len(out))
            current = []
        cells.append(out)
        cuts.append(starts)
    return Expanded(cells, cuts)


def join(parts: list[Expanded]) -> Expanded:
    """Tables side by side."""
    rows = len(parts[0].cells)
    cells = [[] for _ in range(rows)]
    cuts = [set() for _ in range(rows)]
    for part in parts:
        for r in range(rows):
            offset = len(cells[r])
            cuts[r] |= {offset + c for c in part.cuts[r]}
            cells[r] += part.cells[r]
    return Expanded(cells, cuts)
