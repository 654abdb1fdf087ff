"""Pictures of tables (matplotlib, Agg backend).

The table is drawn as a grid: one row per generator, one column per time
step, one colour per letter with the letter written in the cell, blank cells
white and hatched, a heavy vertical bar at every word boundary.  If the table
carries the optional ``sections`` key (docs/sections.md), each section is
labelled above the grid and separated by a dashed line.

Wide tables are cropped to a window of columns (``window=(start, end)``,
default the first :data:`MAX_DETAIL_COLUMNS`); the title states the window,
and an overview strip under the grid shows the whole table at one pixel per
cell with the window outlined.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Iterable

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from tesearch.running.errors import FormatError, OptionError, SizeLimitError  # noqa: E402
from tesearch.running.files import FIGURE_KIND, check_output, write_output  # noqa: E402
from tesearch.tables.table import Table  # noqa: E402

#: widest window drawn cell by cell
MAX_DETAIL_COLUMNS = 80
#: widest table drawn at all (the overview holds one pixel per cell)
MAX_DRAW_COLUMNS = 1_000_000
CELL_INCHES = 0.32
BLANK_COLOUR = "#ffffff"


def letter_colours(letters: tuple[str, ...]) -> dict[str, tuple]:
    """A colour per letter (matplotlib's tab10 or tab20)."""
    cmap = plt.get_cmap("tab10" if len(letters) <= 10 else "tab20")
    return {s: cmap(k % cmap.N) for k, s in enumerate(letters)}


def parse_window(text: str | None, T: int) -> tuple[int, int] | None:
    """``START:END`` (END exclusive, either may be empty) -> (start, end), inside 0..T and not empty."""
    if text is None:
        return None
    try:
        start_text, end_text = text.split(":")
        start = int(start_text) if start_text.strip() else 0
        end = int(end_text) if end_text.strip() else T
    except ValueError:
        raise OptionError(f"--window must be START:END with integers, got {text!r}") from None
    if not 0 <= start < end <= T:
        raise OptionError(f"--window {text!r} must satisfy 0 <= START < END <= {T} (the table's columns)")
    return start, end


def _word_starts(table: Table) -> list[set[int]]:
    starts = [set() for _ in range(table.rows)]
    for p in table.placements:
        if 0 <= p.row < table.rows:
            starts[p.row].add(p.column)
            starts[p.row].add(p.end)
    return starts


def draw_table(table: Table, path: str | Path, window: tuple[int, int] | None = None,
               title: str | None = None, *, inputs: Iterable[str | Path | None] = (),
               force: bool = False) -> tuple[int, int]:
    """Draw ``table`` to ``path`` (.png or .svg); returns the window drawn.

    The picture is written by :func:`tesearch.running.files.write_output`: never over one of ``inputs``
    (the table's file), a link or a device, nor without ``force`` over a file that is not a picture.

    Long because it lays out one matplotlib figure in order (the input checks, the detail grid, the section
    marks, the axes, the overview strip), and every part uses the figure's geometry computed at the start.
    """
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg"):
        raise FormatError(f"draw writes .png or .svg, not {path.suffix or 'no extension'!r}", where=str(path))
    inputs = tuple(inputs)
    T, rows = table.T, table.rows
    if T == 0:
        raise FormatError("the table has no columns", where=str(path))
    if T > MAX_DRAW_COLUMNS:
        raise SizeLimitError(f"the table has {T} columns; draw pictures tables of at most {MAX_DRAW_COLUMNS}")
    check_output(path, kind=FIGURE_KIND, inputs=inputs, force=force)
    known = set(table.letters)
    for i, p in enumerate(table.placements):
        unknown = [s for s in p.word if s not in known]
        if unknown:
            raise FormatError(f"placement {i} (row {p.row}, column {p.column}) uses letter {unknown[0]!r}, "
                              f"which is not a generator ({' '.join(table.letters)})")
        if not 0 <= p.row < rows or p.end > T:
            raise FormatError(f"placement {i} (row {p.row}, column {p.column}) lies outside the table's "
                              f"{rows} rows and {T} columns")
    cropped = window is not None or T > MAX_DETAIL_COLUMNS
    start, end = window if window is not None else (0, min(T, MAX_DETAIL_COLUMNS))
    grid = table.grid()
    letters = table.letters
    colours = letter_colours(letters)
    starts = _word_starts(table)
    sections = [s for s in table.extra.get("sections", []) if isinstance(s, dict)]

    width_cols = end - start
    fig_w = max(4.0, width_cols * CELL_INCHES + 1.5)
    detail_h = rows * CELL_INCHES + 1.2
    overview_h = 0.9 if cropped else 0.0
    fig = plt.figure(figsize=(fig_w, detail_h + overview_h + 0.4))
    top = fig.add_axes([0.6 / fig_w, (overview_h + 0.55) / (detail_h + overview_h + 0.4),
                        1 - 1.0 / fig_w, (rows * CELL_INCHES) / (detail_h + overview_h + 0.4)])
    fontsize = 9 if max(len(s) for s in letters) == 1 else 7
    for r in range(rows):
        for c in range(start, end):
            s = grid[r][c]
            x = c - start
            if s is None:
                top.add_patch(Rectangle((x, r), 1, 1, facecolor=BLANK_COLOUR, edgecolor="#bbbbbb",
                                        hatch="////", linewidth=0.3))
            else:
                top.add_patch(Rectangle((x, r), 1, 1, facecolor=colours[s], edgecolor="white", linewidth=0.5))
                top.text(x + 0.5, r + 0.5, s, ha="center", va="center", fontsize=fontsize, color="black")
        for c in starts[r]:
            if start <= c <= end:
                top.plot([c - start, c - start], [r, r + 1], color="black", linewidth=2.2, solid_capstyle="butt")
    for sec in sections:
        a, b = max(int(sec.get("start", 0)), start), min(int(sec.get("end", T)), end)
        if a >= b:
            continue
        for edge in (a, b):
            if start < edge < end:
                top.axvline(edge - start, color="#333333", linestyle="--", linewidth=1.2)
        top.text((a + b) / 2 - start, -0.25, str(sec.get("name", "")), ha="center", va="bottom", fontsize=9,
                 style="italic")
    top.set_xlim(0, width_cols)
    top.set_ylim(rows, 0)
    top.set_yticks([r + 0.5 for r in range(rows)], [f"row {r}" for r in range(rows)], fontsize=8)
    step = 1 if width_cols <= 30 else 5 if width_cols <= 150 else 10
    ticks = [c for c in range(start, end) if c % step == 0]
    top.set_xticks([c - start + 0.5 for c in ticks], [str(c) for c in ticks], fontsize=7)
    top.tick_params(length=0)
    for spine in top.spines.values():
        spine.set_visible(False)
    heading = title or f"{table.network}, {table.exchange}, T = {table.T}"
    if cropped:
        heading += f" (columns {start}-{end - 1} of 0-{T - 1})"
    fig.suptitle(heading, fontsize=11, y=1 - 0.12 / (detail_h + overview_h + 0.4))
    handles = [Rectangle((0, 0), 1, 1, facecolor=colours[s]) for s in letters]
    handles.append(Rectangle((0, 0), 1, 1, facecolor=BLANK_COLOUR, edgecolor="#999999", hatch="////"))
    top.legend(handles, list(letters) + ["blank"], ncol=len(letters) + 1, fontsize=8, frameon=False,
               loc="upper center", bbox_to_anchor=(0.5, -0.02 - 0.35 / (rows * CELL_INCHES)))

    if cropped:
        image = np.full((rows, T), len(letters), dtype=int)
        index = {s: k for k, s in enumerate(letters)}
        for r in range(rows):
            for c in range(T):
                if grid[r][c] is not None:
                    image[r, c] = index[grid[r][c]]
        cmap = ListedColormap([colours[s] for s in letters] + [(1, 1, 1, 1)])
        bottom = fig.add_axes([0.6 / fig_w, 0.12 / (detail_h + overview_h + 0.4), 1 - 1.0 / fig_w,
                               0.45 / (detail_h + overview_h + 0.4)])
        bottom.imshow(image, aspect="auto", cmap=cmap, vmin=0, vmax=len(letters), interpolation="nearest")
        bottom.add_patch(Rectangle((start - 0.5, -0.5), end - start, rows, fill=False, edgecolor="black",
                                   linewidth=1.5))
        for sec in sections:
            for edge in (int(sec.get("start", 0)), int(sec.get("end", T))):
                if 0 < edge < T:
                    bottom.axvline(edge - 0.5, color="#333333", linestyle="--", linewidth=0.8)
        bottom.set_yticks([])
        bottom.set_xticks([0, T - 1], ["0", str(T - 1)], fontsize=7)
        bottom.set_title(f"whole table ({T} columns); the window is outlined", fontsize=8, pad=2)
    buffer = io.BytesIO()
    fig.savefig(buffer, format=path.suffix.lower()[1:], dpi=110 if path.suffix.lower() == ".png" else None,
                bbox_inches="tight")
    plt.close(fig)
    write_output(path, buffer.getvalue(), kind=FIGURE_KIND, inputs=inputs, force=force)
    return start, end
