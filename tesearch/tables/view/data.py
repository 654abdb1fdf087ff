"""What a view page draws: a verified table as compact arrays, and every word's element and class.

Words are numbered in placement order; per word the page gets its row, first column and
length, its letters (indices into the table's letters, all words' letters in one array), the
element it delivers (the destination from the identity node, as the network names it:
coordinates on tori, twisted tori and hypercubes, the permutation's images elsewhere), and its
class, derived here with the rotation code rather than read from the file:

* ``core``: the element's orbit under the rotation is shorter than the letters (an exceptional
  element, seed 004 Lemma 1);
* ``rotation block``: a full orbit laid as a block, its |S| words starting in one column, one per
  row, all of one length (row r holds sigma^r of a word, :func:`tesearch.tables.layout.rotation_blocks`);
* ``filler``: a full orbit placed otherwise (in the searched core);
* ``no rotation``: the network has no rotation.

Arrays travel as base64 of little-endian unsigned integers of the smallest width that holds
them, so star-8 (40319 words, 40135 x 7 cells) is about 1 MB of base64.
"""

from __future__ import annotations

import base64
import enum
from dataclasses import dataclass

import numpy as np

from tesearch.running.errors import SizeLimitError
from tesearch.networks.groups import CayleyGraph
from tesearch.networks.families import Network
from tesearch.networks.products import TwistedParams
from tesearch.networks.rotation import Rotation
from tesearch.tables.table import Table
from tesearch.tables.verify import Verification

#: the most cells (rows x columns) one page holds; wider tables need --window
MAX_CELLS = 1_000_000


class WordClass(enum.IntEnum):
    """A word's place in the rotation structure (the page's third colour mode)."""

    NO_ROTATION = 0
    CORE = 1
    ROTATION_BLOCK = 2
    FILLER = 3


CLASS_NAMES = {WordClass.NO_ROTATION: "no rotation", WordClass.CORE: "core (exceptional orbit)",
               WordClass.ROTATION_BLOCK: "rotation block", WordClass.FILLER: "filler (full orbit, not in a block)"}


@dataclass(frozen=True)
class Classes:
    """Per word: class, orbit number (dense, from 0; -1 without a rotation) and orbit size."""

    word_class: np.ndarray
    orbit: np.ndarray
    orbit_size: np.ndarray
    orbits: int


def packed(values: np.ndarray) -> dict:
    """A non-negative integer array as ``{"type": "u8"|"u16"|"u32", "b64": ...}`` (little-endian)."""
    values = np.asarray(values, dtype=np.int64)
    top = int(values.max()) if values.size else 0
    if values.size and int(values.min()) < 0:
        raise ValueError("packed arrays hold non-negative integers")
    kind, dtype = ("u8", "<u1") if top < 1 << 8 else ("u16", "<u2") if top < 1 << 16 else ("u32", "<u4")
    return {"type": kind, "b64": base64.b64encode(values.astype(dtype).tobytes()).decode("ascii")}


def unpacked(data: dict) -> np.ndarray:
    """The inverse of :func:`packed` (tests read pages back with it)."""
    dtype = {"u8": "<u1", "u16": "<u2", "u32": "<u4"}[data["type"]]
    return np.frombuffer(base64.b64decode(data["b64"]), dtype=dtype).astype(np.int64)


def window_cells(table: Table, window: tuple[int, int] | None) -> tuple[int, int, int]:
    """(start, end, cells) of the columns a page would hold; refuses more than :data:`MAX_CELLS` cells."""
    start, end = window if window is not None else (0, table.T)
    cells = table.rows * (end - start)
    if cells > MAX_CELLS:
        how = "the window" if window is not None else "the table"
        raise SizeLimitError(f"{table.network}: {how} has {table.rows} rows x {end - start} columns = {cells} cells, "
                             f"more than a page holds ({MAX_CELLS}); give a narrower --window START:END")
    return start, end, cells


def word_elements(cg: CayleyGraph, letters: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The element index (in ``cg``) of every word, from its letters (all words' letters in one array)."""
    n = len(lengths)
    first = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64) if n else np.zeros(0, np.int64)
    element = np.zeros(n, dtype=np.int64)
    for i in range(int(lengths.max()) if n else 0):
        live = np.flatnonzero(lengths > i)
        element[live] = cg.right[letters[first[live] + i], element[live]]
    return element


def element_labels(net: Network, cg: CayleyGraph, elements: np.ndarray) -> tuple[str, np.ndarray]:
    """How the network names the elements: ("coordinates", words x axes) on products of rings and
    twisted tori, else ("permutation", words x points) as 0-based images."""
    images = cg.elements[elements].astype(np.int64)
    if net.factors:
        offsets = np.cumsum([0] + [f.points for f in net.factors[:-1]])
        return "coordinates", images[:, offsets] - offsets
    if isinstance(net.params, TwistedParams):
        # ring positions c_i -> coordinates v_i (docs/twisted-tori.md): v_i = c_i on short axes,
        # v_j = c_j - sum of the short c_i (mod 2k) on long axes
        sides = np.array(net.params.sides)
        offsets = np.cumsum(np.concatenate(([0], sides[:-1])))
        rings = images[:, offsets] - offsets
        k = int(sides.min())
        short = sides == k
        coordinates = rings.copy()
        shear = rings[:, short].sum(axis=1)
        for j in np.flatnonzero(~short):
            coordinates[:, j] = (rings[:, j] - shear) % (2 * k)
        return "coordinates", coordinates
    return "permutation", images


def classify(rotation: Rotation | None, placements: list, elements: np.ndarray, rows: int) -> Classes:
    """Each word's class and orbit (module doc); ``placements`` and ``elements`` in the same order."""
    n = len(placements)
    if rotation is None or n == 0:
        none = np.zeros(n, dtype=np.int64)
        return Classes(none, none, none, 0)
    phi = rotation.phi
    degree = len(rotation.sigma)
    representative = elements.copy()
    current = elements.copy()
    for _ in range(degree - 1):
        current = phi[current]
        representative = np.minimum(representative, current)
    reps, orbit = np.unique(representative, return_inverse=True)
    size = rotation.orbit_size[elements].astype(np.int64)
    word_class = np.where(size < degree, int(WordClass.CORE), int(WordClass.FILLER)).astype(np.int64)
    by_column: dict[int, list[int]] = {}
    for i, p in enumerate(placements):
        if size[i] == degree:
            by_column.setdefault(p.column, []).append(i)
    for column, members in by_column.items():
        # a block: one word per row from this column, one length, one whole orbit
        by_orbit: dict[int, list[int]] = {}
        for i in members:
            by_orbit.setdefault(int(orbit[i]), []).append(i)
        for words in by_orbit.values():
            if len(words) == degree == rows and len({len(placements[i].word) for i in words}) == 1 \
                    and sorted(placements[i].row for i in words) == list(range(rows)):
                word_class[words] = int(WordClass.ROTATION_BLOCK)
    return Classes(word_class, orbit.astype(np.int64), size, len(reps))


def _text(value: object, limit: int = 160) -> str:
    text = value if isinstance(value, str) else repr(value) if not isinstance(value, (int, float)) else str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def provenance(table: Table) -> list[list[str]]:
    """How the table was made, as [key, value] pairs for the header (search or construction records)."""
    out: list[list[str]] = []
    for key in ("search", "construction"):
        record = table.extra.get(key)
        if isinstance(record, dict):
            for name, value in record.items():
                if name == "filler_orbits" and isinstance(value, list):
                    out.append([name, f"{len(value)} orbit(s)"])
                elif name == "rotation" and isinstance(value, list):
                    out.append([name, " -> ".join(map(str, value))])
                else:
                    out.append([name, _text(value)])
        elif record is not None:
            out.append([key, _text(record)])
    return out


def verdict(verification: Verification) -> dict:
    """The verification's verdict and bounds as the header shows them."""
    b = verification.bounds
    return {"valid": verification.ok, "optimal": verification.optimal, "gap": verification.gap,
            "best": b.best, "binding": b.binding, "counting": b.counting, "letter": b.letter.value,
            "letter_exact": b.letter.exact, "words": verification.words, "targets": verification.targets,
            "blanks": verification.blanks}


def view_data(table: Table, verification: Verification, net: Network, cg: CayleyGraph,
              rotation: Rotation | None, window: tuple[int, int] | None = None, *, checked_at: str = "",
              name: str = "") -> dict:
    """Everything the page needs for one table (a JSON-ready dict; arrays packed)."""
    start, end, cells = window_cells(table, window)
    index = cg.letter_index
    # every word is classified and its orbit numbered in the whole table, then the window's are kept: a window
    # shows the same orbit numbers and classes as the full page
    everything = list(table.placements)
    all_lengths = np.fromiter((len(p.word) for p in everything), dtype=np.int64, count=len(everything))
    all_letters = np.fromiter((index[s] for p in everything for s in p.word), dtype=np.int64,
                              count=int(all_lengths.sum()))
    all_elements = word_elements(cg, all_letters, all_lengths)
    all_classes = classify(rotation, everything, all_elements, table.rows)
    shown = np.fromiter((p.column < end and p.end > start for p in everything), dtype=bool, count=len(everything))
    placements = [p for p, keep in zip(everything, shown) if keep]
    lengths = all_lengths[shown]
    letters = all_letters[np.repeat(shown, all_lengths)]
    elements = all_elements[shown]
    kind, labels = element_labels(net, cg, elements)
    classes = Classes(all_classes.word_class[shown], all_classes.orbit[shown], all_classes.orbit_size[shown],
                      all_classes.orbits)
    arrays = {
        "row": packed(np.fromiter((p.row for p in placements), dtype=np.int64, count=len(placements))),
        "column": packed(np.fromiter((p.column for p in placements), dtype=np.int64, count=len(placements))),
        "length": packed(lengths),
        "letters": packed(letters),
        "element": packed(labels.reshape(-1)),
        "word_class": packed(classes.word_class),
        "orbit": packed(classes.orbit),
        "orbit_size": packed(classes.orbit_size),
    }
    sections = [s for s in table.extra.get("sections", []) if isinstance(s, dict)
                and isinstance(s.get("start"), int) and isinstance(s.get("end"), int)]
    return {
        "name": name,
        "network": table.network,
        "exchange": table.exchange,
        "T": table.T,
        "rows": table.rows,
        "letters": list(cg.letters),
        "window": [start, end],
        "cells": cells,
        "words": len(placements),
        "element_kind": kind,
        "element_dims": int(labels.shape[1]) if labels.ndim == 2 else 0,
        "rotation": None if rotation is None else " -> ".join(rotation.cycle) + " -> " + rotation.cycle[0],
        "orbits": classes.orbits,
        "class_names": [CLASS_NAMES[c] for c in WordClass],
        "sections": [{"name": str(s.get("name", "")), "start": s["start"], "end": s["end"]} for s in sections],
        "verdict": verdict(verification),
        "checked_at": checked_at,
        "provenance": provenance(table),
        "arrays": arrays,
    }
