"""Optimal total-exchange tables for the d-cube, for every d, by doubling with an explicit matching.

Result.  ``hypercube_table(d)`` builds a table for ``hypercube-d`` with
``T = 2^(d-1)`` columns and no blank (the counting bound, so optimal),
deterministically, without a solver and without a search, for every d.  The
proof, lemma by lemma with the function and test for each, is
docs/proofs/hypercube.md; this docstring is its outline.

Construction (doubling).  A *perfect* table for the d-cube is a set of
placed words, one per non-zero element x (any ordering of the letters of
x, i.e. a shortest path), inside columns ``0..T-1``, such that every column
holds every letter exactly once.  Rows are only lanes: a perfect table is
packed into d rows by interval partitioning (every column meets exactly d
words).  From a perfect table P for the d-cube (T columns) build one for
the (d+1)-cube (2T columns, new letter e = d):

* copy A = P in columns ``0..T-1``; copy B = P mirrored in time (a word at
  columns ``s..t`` moves to ``T-1-t..T-1-s``, read backwards) in columns
  ``T..2T-1``.  Every x != 0 now has two placed words, one in each copy;
  every column holds each old letter once.
* If x contains the newest letter d-1 of P, e goes right *after its copy-A
  word*: that word plus e is the word of (x, 1), and the copy-B word is the
  word of (x, 0).  Otherwise e goes right *after its copy-B word*: that word
  plus e is (x, 1), the copy-A word is (x, 0).  The lone word ``e`` (the
  element (0, 1)) goes in column 0.

Why every column gets exactly one e: the **boundary invariant** of P.  The
words containing the newest letter end one at each column ``0..T-1``, and
the other words start one at each column ``1..T-1``.  So the e's after
copy A fill columns ``1..T`` (one word ends at each ``c``, its e is at
``c+1``), the e's after copy B fill ``T+1..2T-1`` (a word starting at
``s >= 1`` in P ends, mirrored, at ``2T-1-s``, so its e is at ``2T-s``), and
the lone e fills column 0.  The doubled table has the invariant again, for
its newest letter e: the words with e are (0, 1) ending at 0 and the (x, 1)
ending at ``1..2T-1``; the words without e are the (x, 0), starting at
``T..2T-1`` (mirrored copy-B words of the words that ended at ``0..T-1``)
and at ``1..T-1`` (copy-A words that started there).  The 1-cube table
``a`` at column 0 has it.  By induction every d has a perfect table of
width ``2^(d-1)``.

This is Lemma 4 of the proof (a saturating matching of the elements to
the columns next to their copies doubles a perfect table) with an explicit
matching; ``apply_matching`` re-checks that the matching saturates, and
``column_check`` re-checks every table.  Run logs are in
docs/notes/hypercube.md; the recipe of transforms and repaired Hopcroft-Karp
matchings that reached d = 20 before this construction was found is
described there (git history: commit cef0008 and earlier).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

import numpy as np

from tesearch.facts.bounds import counting_bound
from tesearch.running.errors import ConstructionError
from tesearch.tables.layout import assign_rows
from tesearch.networks.products import hypercube_network
from tesearch.tables.table import Placement, Table

#: placed word: (first column, letter indices)
ColumnWord = tuple[int, tuple[int, ...]]

#: the four places for the new letter e next to an element's two copies, in the order offered
OPTION_KINDS = ("A-prefix", "A-suffix", "B-prefix", "B-suffix")
A_SUFFIX = OPTION_KINDS.index("A-suffix")
B_SUFFIX = OPTION_KINDS.index("B-suffix")

#: copy B of every doubling step: letters not rotated, mirrored in time
COPY_B = (0, True)

#: the largest d ``tesearch construct`` builds: the checkers rebuild networks up to 2^22 nodes
#: (tesearch.checking.kernel.graph.MAX_CHECK_NODES; a test ties the two).  ``perfect_words`` has no limit.
MAX_DIMENSION = 22

#: the name the tables carry in their ``construction`` field
CONSTRUCTION_NAME = "recursive doubling, copy B mirrored in time, explicit matching (boundary invariant)"


def transform(words: Iterable[ColumnWord], d: int, rotation: int, reversed_in_time: bool) -> list[ColumnWord]:
    """Copy of a perfect d-cube table: letters i -> i + rotation (mod d), optionally mirrored in time."""
    width = 2 ** (d - 1)
    out = []
    for start, word in words:
        moved = tuple((letter + rotation) % d for letter in word)
        if reversed_in_time:
            moved = moved[::-1]
            start = width - start - len(word)
        out.append((start, moved))
    return out


def _mask(word: Iterable[int]) -> int:
    """The element named by a word of distinct letters, as a bit mask."""
    return sum(1 << letter for letter in word)


def doubling_options(words: list[ColumnWord], d: int, rotation: int, reversed_in_time: bool
                     ) -> tuple[list[tuple[ColumnWord, ColumnWord]], list[dict[int, int]]]:
    """The bipartite graph of one doubling step: each element's two copies and its e-columns.

    Returns, per word of ``words`` (copy A), the pair (copy-A word, copy-B word shifted to columns
    T..2T-1) and a dict column -> option kind (index into OPTION_KINDS) of the columns in 0..2T-1
    where e may go, in the fixed order A-prefix, A-suffix, B-prefix, B-suffix (a column offered
    twice keeps its first kind).
    """
    width = 2 ** (d - 1)
    in_b = {_mask(word): (start, word) for start, word in transform(words, d, rotation, reversed_in_time)}
    pairs: list[tuple[ColumnWord, ColumnWord]] = []
    options: list[dict[int, int]] = []
    for start_a, word_a in words:
        start_b, word_b = in_b[_mask(word_a)]
        start_b += width
        columns = (start_a - 1, start_a + len(word_a), start_b - 1, start_b + len(word_b))
        kinds: dict[int, int] = {}
        for kind, column in enumerate(columns):
            if 0 <= column < 2 * width and column not in kinds:
                kinds[column] = kind
        options.append(kinds)
        pairs.append(((start_a, word_a), (start_b, word_b)))
    return pairs, options


def apply_matching(pairs: list[tuple[ColumnWord, ColumnWord]], options: list[dict[int, int]], match: list[int],
                   d: int) -> list[ColumnWord]:
    """The doubled words for a saturating matching (element i -> column match[i], one of its options).

    The element whose e sits next to its copy becomes (x, 1), its other copy stays (x, 0); the
    lone word e takes the one column no element uses.  ConstructionError if ``match`` is not an
    injective choice of offered columns covering all but one of the 2T columns.
    """
    width = 2 ** (d - 1)
    new_letter = d
    if len(match) != len(pairs) or len(set(match)) != len(match) or len(match) != 2 * width - 1:
        raise ConstructionError("not a saturating matching: elements and columns do not pair off")
    out: list[ColumnWord] = []
    for (a, b), kinds, column in zip(pairs, options, match):
        if column not in kinds:
            raise ConstructionError(f"column {column} is not an option of its element")
        kind = kinds[column]
        (start_a, word_a), (start_b, word_b) = a, b
        if kind == 0:
            out += [(start_a - 1, (new_letter,) + word_a), (start_b, word_b)]
        elif kind == 1:
            out += [(start_a, word_a + (new_letter,)), (start_b, word_b)]
        elif kind == 2:
            out += [(start_a, word_a), (start_b - 1, (new_letter,) + word_b)]
        else:
            out += [(start_a, word_a), (start_b, word_b + (new_letter,))]
    used = set(match)
    (lone_column,) = [c for c in range(2 * width) if c not in used]
    out.append((lone_column, (new_letter,)))
    return out


def boundary_invariant(words: list[ColumnWord], d: int) -> None:
    """Raise unless the words containing the newest letter d-1 end one at each column 0..T-1 and the
    other words start one at each column 1..T-1 (the hypothesis of Lemma 4b, docs/proofs/hypercube.md)."""
    width = 2 ** (d - 1)
    newest = d - 1
    ends = Counter(start + len(word) - 1 for start, word in words if newest in word)
    starts = Counter(start for start, word in words if newest not in word)
    if sorted(ends) != list(range(width)) or max(ends.values(), default=0) > 1:
        raise ConstructionError(f"d = {d}: the words with letter {newest} do not end one at each column 0..{width - 1}")
    if sorted(starts) != list(range(1, width)) or max(starts.values(), default=0) > 1:
        raise ConstructionError(f"d = {d}: the words without letter {newest} do not start one at each column "
                                f"1..{width - 1}")


def explicit_matching(pairs: list[tuple[ColumnWord, ColumnWord]], d: int) -> list[int]:
    """Lemma 4b's matching: e after the copy-A word of an element with the newest letter d-1, after
    the copy-B word of the others (columns as in :func:`doubling_options`, copy B = COPY_B)."""
    newest = d - 1
    return [start_a + len(word_a) if newest in word_a else start_b + len(word_b)
            for (start_a, word_a), (start_b, word_b) in pairs]


def double(words: list[ColumnWord], d: int) -> list[ColumnWord]:
    """One doubling step d -> d + 1 (module notes; Lemmas 4 and 4b): ConstructionError unless the
    words have the boundary invariant, and again unless the explicit matching saturates."""
    boundary_invariant(words, d)
    pairs, options = doubling_options(words, d, *COPY_B)
    return apply_matching(pairs, options, explicit_matching(pairs, d), d)


def perfect_words(d: int) -> list[ColumnWord]:
    """Placed words of the perfect d-cube table, by d - 1 doubling steps from the 1-cube's ``a``."""
    if d < 1:
        raise ConstructionError(f"hypercube-{d}: the dimension must be at least 1")
    words: list[ColumnWord] = [(0, (0,))]
    for step in range(1, d):
        words = double(words, step)
    return words


def column_check(words: list[ColumnWord], d: int) -> None:
    """Raise unless the words are perfect: in 0..T-1, each element once, each letter once per column."""
    width = 2 ** (d - 1)
    if any(len(set(word)) != len(word) for _, word in words):
        word = next(word for _, word in words if len(set(word)) != len(word))
        raise ConstructionError(f"word {word} repeats a letter")
    outside = [(start, word) for start, word in words if start < 0 or start + len(word) > width]
    if outside:
        raise ConstructionError(f"word {outside[0][1]} at column {outside[0][0]} leaves 0..{width - 1}")
    elements = np.bincount(np.fromiter((_mask(word) for _, word in words), dtype=np.int64, count=len(words)),
                           minlength=2 ** d)
    if len(elements) != 2 ** d or elements[0] or not (elements[1:] == 1).all():
        raise ConstructionError("some element is placed twice or not at all")
    cells = sum(len(word) for _, word in words)
    letters = np.fromiter((letter for _, word in words for letter in word), dtype=np.int64, count=cells)
    columns = np.fromiter((start + i for start, word in words for i in range(len(word))), dtype=np.int64, count=cells)
    count = np.bincount(letters * width + columns, minlength=d * width)
    if len(count) != d * width or not (count == 1).all():
        raise ConstructionError("some column misses a letter or holds it twice")


def rows_of(words: list[ColumnWord], d: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Pack placed words into d rows (interval colouring, shortest word first at each column)."""
    return assign_rows(((word, start, word) for start, word in words), d,
                       key=lambda placed: (placed[1], len(placed[2]), placed[2]))


def hypercube_table(d: int) -> Table:
    """The optimal table for hypercube-d (T = 2^(d-1), no blank) by recursive doubling."""
    network = hypercube_network(d)
    words = perfect_words(d)
    column_check(words, d)
    letters = network.letters
    placements = [Placement(row, start, tuple(letters[i] for i in word)) for row, start, word in rows_of(words, d)]
    width = 2 ** (d - 1)
    total_letters = sum(len(word) for _, word in words)
    extra = {
        "construction": {
            "name": CONSTRUCTION_NAME,
            "module": "tesearch.constructions.hypercube",
            "proof": "docs/proofs/hypercube.md",
        }
    }
    return Table(network.spec, "total", {s: network.generators[s] for s in letters}, width,
                 sorted(placements), counting_bound(total_letters, d), extra)
