"""The lift's counting test: a max flow that refutes every lift over one factor table, or leaves room.

Each copy of a factor word with x != 0 needs a ring letter in the column just
before or just after it, and a column holds r ring letters.  When the factor
table leaves too few such cells, no lift over it exists in any mode, and the
min cut names the words and columns that show it.  Necessary, not sufficient.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from tesearch.running.errors import LiftError
from tesearch.search.lift.model import HWord


@dataclass(frozen=True)
class BoundaryCut:
    """A counting refutation of every lift over one factor table (see the module doc).

    The factor ``words`` have ``m - 1`` copies each with x != 0 (``demand`` in
    all), each needing a ring letter in one of its boundary columns.  Those
    columns, for all but the ``loose`` copies, lie in ``columns``, which hold
    r ring letters each; the loose copies are granted one letter each.  So at
    most ``capacity`` = loose + r * len(columns) < demand copies are served.
    """

    words: tuple[int, ...]
    columns: tuple[int, ...]
    loose: int
    demand: int
    capacity: int

    def text(self) -> str:
        """The counting argument for people."""
        loose = f" (and {self.loose} copies granted one each)" if self.loose else ""
        return (f"the x != 0 copies of factor words {list(self.words)} need {self.demand} ring letters in the "
                f"columns beside them, and those are {len(self.columns)} columns{loose} holding at most "
                f"{self.capacity}")


def boundary_columns(hword: HWord, copy: int, h_width: int, width: int) -> list[int]:
    """Global columns just before and just after copy ``copy`` of ``hword``, inside the lift."""
    before, after = copy * h_width + hword.column - 1, copy * h_width + hword.column + len(hword.letters)
    return [c for c in (before, after) if 0 <= c < width]


def boundary_cut(hwords: list[HWord], h_width: int, ring_word_lists: list[list[tuple[str, ...]]]
                 ) -> BoundaryCut | None:
    """A set of factor words whose lift cannot fit, or None when the counting test leaves room.

    A nonzero ring element's word is never empty, so its prefix ends in the
    column before the copy or its suffix starts in the column after it; each
    column holds each ring letter at most once.  Flow: source -> h (m - 1)
    -> copy (h, k) (1) -> its boundary columns (unbounded) -> sink (r).  The
    min cut's side of the source gives the words, the columns and the loose
    copies of :class:`BoundaryCut`.
    """
    m = len(ring_word_lists)
    width = m * h_width
    r = len({letter for words in ring_word_lists for w in words for letter in w})
    total = (m - 1) * len(hwords)
    if total == 0:
        return None
    graph = nx.DiGraph()
    graph.add_node("sink")
    for h, hw in enumerate(hwords):
        graph.add_edge("source", ("h", h), capacity=m - 1)
        for k in range(m):
            graph.add_edge(("h", h), ("copy", h, k), capacity=1)
            for c in boundary_columns(hw, k, h_width, width):
                graph.add_edge(("copy", h, k), ("column", c))  # no capacity: unbounded
                graph.add_edge(("column", c), "sink", capacity=r)
    flow, (reached, _) = nx.minimum_cut(graph, "source", "sink")
    if flow >= total:
        return None
    words = tuple(sorted(node[1] for node in reached if isinstance(node, tuple) and node[0] == "h"))
    columns = tuple(sorted(node[1] for node in reached if isinstance(node, tuple) and node[0] == "column"))
    loose = sum(1 for h in words for k in range(m) if ("copy", h, k) not in reached)
    cut = BoundaryCut(words, columns, loose, (m - 1) * len(words), loose + r * len(columns))
    if cut.capacity >= cut.demand:  # pragma: no cover - max-flow min-cut forbids it
        raise LiftError(f"boundary cut does not add up: {cut}")
    return cut


