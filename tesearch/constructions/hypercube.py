"""Optimal total-exchange tables for the d-cube by doubling with a matching.

Result.  ``hypercube_table(d)`` builds a table for ``hypercube-d`` with
``T = 2^(d-1)`` columns and no blank (the counting bound, so optimal) for
d = 1..20, deterministically and without a solver.  The proof of everything
but the existence of the matching, lemma by lemma with the function and test
for each, is docs/proofs/hypercube.md.

Construction (doubling).  A *perfect* table for the d-cube is a set of
placed words, one per non-zero element x (any ordering of the letters of
x, i.e. a shortest path), inside columns ``0..T-1``, such that every column
holds every letter exactly once.  Rows are only lanes: a perfect table is
packed into d rows by interval partitioning (every column meets exactly d
words).  From a perfect table P for the d-cube (T columns) build one for
the (d+1)-cube (2T columns, new letter e):

* copy A = P in columns ``0..T-1``; copy B = a transform of P (letters
  rotated by ``i -> i + k mod d``, optionally time-reversed; both keep a
  table perfect) shifted to columns ``T..2T-1``.  Every x != 0 now has two
  placed words, one in each copy; every column holds each old letter once.
* For each x choose one of its two words and put e directly before or
  after it (four options: A-prefix, A-suffix, B-prefix, B-suffix, each a
  column in ``0..2T-1``); that word becomes the word of (x, 1), the other
  stays the word of (x, 0).  Old letters do not move.
* The options form a bipartite graph between the 2T-1 elements x and the
  2T columns.  A matching that saturates the elements (Hopcroft-Karp,
  deterministic order) puts exactly one e in 2T-1 distinct columns; the
  lone word ``e`` (the element (0, 1)) takes the one free column.

Why the result is valid.  Every word lists the letters of its element once
each, so it is a shortest path.  Each non-zero element of the (d+1)-cube is
placed once: (x, 0) and (x, 1) for x != 0 by the two copies, (0, 1) by the
lone ``e``.  Old letters sit exactly where the two perfect copies put them,
so each column holds each old letter once; the matching gives each column
at most one e, and with the lone e exactly one.  Every word lies in
``0..2T-1`` (options outside are never offered).  So every column holds all
d+1 letters once: a perfect table of width 2T = 2^d.

Repair (steps from 16 -> 17 on).  Beyond d = 16 the matching Hopcroft-Karp
happens to pick leaves word boundaries where nothing starts or ends; next to
them a column is the option of one element only, and an element forced by two
such columns makes the next step fail (for d = 17 -> 18 every copy transform
failed).  A recipe entry (k, reversed, k', reversed') therefore repairs its
matching toward the next step's transform (k', reversed'): ``repair_matching``
refills those boundaries along alternating cycles (every element keeps one of
its own options, so the result is again a saturating matching and the
validity argument above is unchanged).  The repair is deterministic and uses
no solver; ``scripts/find_hypercube_recipe.py --repair`` chose the targets.
That heuristic does not carry step 18 -> 19 far enough for step 19 -> 20, so that
entry instead records its changes (``MOVES_18_19``: element, option kind), found
by the free-column search ``scripts/find_hypercube_recipe.py 18 --free-columns``
(alternating paths that each lower the next step's deficiency, measured by a
max flow); ``reassign_matching`` replays them and ``apply_matching`` re-checks
that the result is a saturating matching.

What is not proved.  That the saturating matching exists.  With copy B = P
itself it does not: this matching finds none at step 6 -> 7.  The transforms
of copy B, the repairs and the recorded reassignments were found by search and
are replayed here without search.  Every step checks that its matching saturates and raises
``ConstructionError`` otherwise, and ``column_check`` re-checks the result.
So each delivered table is established by verification, not by a general
proof (docs/proofs/hypercube.md says exactly what is proved).

Run logs (sizes verified and replayed, times) are in docs/notes/hypercube.md.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Iterable

import numpy as np

from tesearch.bounds import counting_bound
from tesearch.errors import ConstructionError
from tesearch.layout import assign_rows
from tesearch.networks import hypercube_network
from tesearch.table import Placement, Table

#: placed word: (first column, letter indices)
PlacedWord = tuple[int, tuple[int, ...]]

#: The free-column repair of step 18 -> 19 toward the step 19 -> 20 copy transform (5, True): the
#: elements (bit masks in the 18-cube) whose e moves away from Hopcroft-Karp's column, each with the
#: option kind (index into OPTION_KINDS) it takes.  Found by ``scripts/find_hypercube_recipe.py
#: 18 --free-columns --toward 5 1`` (19 alternating paths, each lowering the deficiency of step
#: 19 -> 20 from 23 to 0); replayed by ``reassign_matching``, checked by ``apply_matching`` (Lemma 4c).
MOVES_18_19: tuple[tuple[int, int], ...] = (
    (603, 2), (987, 3), (4731, 3), (7483, 1), (7518, 0), (10639, 1), (16505, 0), (16953, 2), (16955, 2),
    (17437, 3), (17697, 1), (20160, 1), (21654, 3), (22264, 0), (23616, 0), (24761, 3), (28703, 3), (29107, 3),
    (31180, 1), (31494, 0), (32489, 1), (36576, 1), (36577, 2), (40570, 2), (42867, 2), (43368, 2), (43939, 0),
    (44545, 0), (44602, 3), (45354, 3), (46274, 2), (46276, 0), (46279, 3), (50381, 0), (52103, 1), (53933, 0),
    (54096, 1), (55518, 3), (56751, 3), (59431, 1), (59483, 1), (60009, 0), (61312, 0), (61621, 3), (61971, 2),
    (62282, 1), (62705, 1), (63073, 1), (69250, 1), (70575, 3), (71333, 3), (71787, 0), (73437, 2), (73899, 1),
    (75186, 1), (76057, 3), (76186, 2), (77731, 3), (78358, 1), (78779, 0), (79988, 2), (83480, 3), (85004, 1),
    (85628, 0), (87845, 1), (88754, 2), (90734, 1), (92461, 0), (93514, 1), (93787, 1), (93884, 0), (94955, 2),
    (97261, 1), (99064, 1), (101330, 3), (102233, 3), (102759, 3), (103409, 0), (103508, 3), (105597, 3),
    (106484, 1), (109377, 3), (111309, 1), (112100, 3), (113742, 1), (113800, 1), (116487, 1), (117510, 0),
    (121207, 1), (121923, 1), (121956, 2), (122082, 0), (125033, 3), (126634, 1), (128024, 3), (129709, 3),
    (133143, 1), (133941, 1), (138203, 3), (140177, 1), (142203, 2), (142976, 3), (144032, 3), (144588, 1),
    (145705, 3), (146012, 1), (146417, 1), (147775, 0), (148103, 1), (148177, 0), (148695, 3), (152232, 2),
    (152337, 0), (154051, 1), (154278, 3), (157801, 0), (158184, 1), (158822, 1), (160067, 1), (161840, 1),
    (165565, 1), (167662, 0), (168567, 1), (169832, 2), (170202, 0), (170323, 2), (170675, 1), (171518, 3),
    (172224, 3), (173110, 1), (174870, 1), (177716, 1), (178156, 1), (178717, 1), (179798, 3), (179932, 1),
    (180451, 3), (180743, 2), (182085, 1), (185447, 0), (186829, 0), (188395, 1), (188805, 0), (188813, 3),
    (189100, 2), (191459, 1), (191876, 2), (193802, 1), (194045, 0), (195209, 3), (197217, 0), (197451, 1),
    (197790, 2), (197807, 2), (198109, 3), (198226, 1), (198307, 3), (199395, 1), (200731, 0), (201581, 3),
    (202915, 2), (203360, 0), (203645, 1), (204040, 1), (204175, 2), (209391, 1), (210832, 0), (212715, 2),
    (213763, 2), (214956, 0), (216564, 1), (217130, 0), (218010, 0), (218148, 3), (222008, 2), (222157, 3),
    (222186, 3), (224413, 2), (226959, 0), (229412, 1), (230390, 0), (230792, 2), (231437, 1), (232329, 1),
    (233690, 0), (235138, 3), (235799, 3), (236623, 2), (241865, 3), (244028, 1), (244641, 1), (244692, 3),
    (245141, 1), (245376, 3), (245504, 1), (246443, 3), (246503, 1), (246723, 1), (246971, 1), (247003, 1),
    (249346, 3), (249770, 1), (249900, 0), (250577, 2), (250970, 3), (253727, 1), (255899, 2), (258282, 0),
    (259379, 0),
)

#: (letter rotation k, time-reversed) of copy B for the step d -> d + 1, d = 1, 2, ...; from step
#: 16 -> 17 on also the next step's transform, toward which the matching is repaired (for 18 -> 19
#: by the recorded reassignments MOVES_18_19).  Found by ``scripts/find_hypercube_recipe.py``
#: (``--repair`` beyond 17, ``--free-columns`` for 18 -> 19); replayed by ``perfect_words``.
RECIPE: tuple[tuple, ...] = (
    (0, False), (0, False), (0, False), (0, False), (0, False), (1, False), (1, False), (1, False),
    (1, False), (0, False), (1, False), (1, False), (3, True), (1, False), (3, False), (2, False, 2, False),
    (2, False, 5, True), (5, True, 5, True, MOVES_18_19), (5, True),
)

MAX_DIMENSION = len(RECIPE) + 1


def transform(words: Iterable[PlacedWord], d: int, rotation: int, reversed_in_time: bool) -> list[PlacedWord]:
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


def _saturating_matching(adjacency: list[list[int]], right_size: int) -> list[int] | None:
    """Hopcroft-Karp; returns match[left] = right, or None when some left vertex stays free.

    Deterministic: vertices and edges are visited in list order.
    """
    match = maximum_matching(adjacency, right_size)
    return None if -1 in match else match


def maximum_matching(adjacency: list[list[int]], right_size: int) -> list[int]:
    """Hopcroft-Karp: a maximum matching, match[left] = right or -1 (left vertex unmatched).

    Deterministic: vertices and edges are visited in list order.  The number of -1 entries is
    the deficiency max |X| - |N(X)| (Konig); scripts/hypercube_obstruction.py reports it.
    """
    left_size = len(adjacency)
    free = -1
    match_left = [free] * left_size
    match_right = [free] * right_size
    infinity = left_size + 1
    while True:
        layer = [infinity] * left_size
        queue = deque()
        for u in range(left_size):
            if match_left[u] == free:
                layer[u] = 0
                queue.append(u)
        found_free_right = False
        while queue:
            u = queue.popleft()
            for v in adjacency[u]:
                w = match_right[v]
                if w == free:
                    found_free_right = True
                elif layer[w] == infinity:
                    layer[w] = layer[u] + 1
                    queue.append(w)
        if not found_free_right:
            break
        next_edge = [0] * left_size
        for root in range(left_size):
            if match_left[root] != free:
                continue
            # iterative DFS along the layers
            stack = [root]
            path_found = False
            while stack:
                u = stack[-1]
                if next_edge[u] >= len(adjacency[u]):
                    layer[u] = infinity  # dead end
                    stack.pop()
                    continue
                v = adjacency[u][next_edge[u]]
                next_edge[u] += 1
                w = match_right[v]
                if w == free:
                    # augment along the stack
                    for depth in range(len(stack) - 1, -1, -1):
                        uu = stack[depth]
                        vv = adjacency[uu][next_edge[uu] - 1]
                        match_left[uu] = vv
                        match_right[vv] = uu
                    path_found = True
                    break
                if layer[w] == layer[u] + 1:
                    stack.append(w)
            if not path_found:
                layer[root] = infinity
    return match_left


#: the four places for the new letter e next to an element's two copies, in the order offered
OPTION_KINDS = ("A-prefix", "A-suffix", "B-prefix", "B-suffix")


def doubling_options(words: list[PlacedWord], d: int, rotation: int, reversed_in_time: bool
                     ) -> tuple[list[tuple[PlacedWord, PlacedWord]], list[dict[int, int]]]:
    """The bipartite graph of one doubling step: each element's two copies and its e-columns.

    Returns, per word of ``words`` (copy A), the pair (copy-A word, copy-B word shifted to columns
    T..2T-1) and a dict column -> option kind (index into OPTION_KINDS) of the columns in 0..2T-1
    where e may go, in the fixed order A-prefix, A-suffix, B-prefix, B-suffix (a column offered
    twice keeps its first kind).
    """
    width = 2 ** (d - 1)
    copy_b = transform(words, d, rotation, reversed_in_time)
    in_b = {frozenset(word): (start, word) for start, word in copy_b}
    pairs: list[tuple[PlacedWord, PlacedWord]] = []
    options: list[dict[int, int]] = []
    for start_a, word_a in words:
        start_b, word_b = in_b[frozenset(word_a)]
        start_b += width
        columns = (start_a - 1, start_a + len(word_a), start_b - 1, start_b + len(word_b))
        kinds: dict[int, int] = {}
        for kind, column in enumerate(columns):
            if 0 <= column < 2 * width and column not in kinds:
                kinds[column] = kind
        options.append(kinds)
        pairs.append(((start_a, word_a), (start_b, word_b)))
    return pairs, options


def apply_matching(pairs: list[tuple[PlacedWord, PlacedWord]], options: list[dict[int, int]], match: list[int],
                   d: int) -> list[PlacedWord]:
    """The doubled words for a saturating matching (element i -> column match[i], one of its options).

    The element whose e sits next to its copy becomes (x, 1), its other copy stays (x, 0); the
    lone word e takes the one column no element uses.  ConstructionError if ``match`` is not an
    injective choice of offered columns covering all but one of the 2T columns.
    """
    width = 2 ** (d - 1)
    new_letter = d
    if len(match) != len(pairs) or len(set(match)) != len(match) or len(match) != 2 * width - 1:
        raise ConstructionError("not a saturating matching: elements and columns do not pair off")
    out: list[PlacedWord] = []
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


def double(words: list[PlacedWord], d: int, rotation: int, reversed_in_time: bool,
           repair_toward: tuple[int, bool] | None = None,
           moves: tuple[tuple[int, int], ...] | None = None) -> list[PlacedWord] | None:
    """One doubling step d -> d + 1 (see the module notes); None when no saturating matching exists.

    ``repair_toward``: the next step's copy transform; the matching is then changed by
    :func:`repair_matching` so that the next step has no element forced twice.  ``moves``: recorded
    reassignments (:func:`reassign_matching`) applied to Hopcroft-Karp's matching *instead of* that
    heuristic repair (the free-column repair of step 18 -> 19, found by
    ``scripts/find_hypercube_recipe.py --free-columns``).
    """
    pairs, options = doubling_options(words, d, rotation, reversed_in_time)
    match = _saturating_matching([list(kinds) for kinds in options], 2 ** d)
    if match is None:
        return None
    if moves is not None:
        match = reassign_matching(pairs, options, match, moves)
    elif repair_toward is not None:
        match = repair_matching(pairs, options, match, d, repair_toward)
    return apply_matching(pairs, options, match, d)


def reassign_matching(pairs: list[tuple[PlacedWord, PlacedWord]], options: list[dict[int, int]], match: list[int],
                      moves: Iterable[tuple[int, int]]) -> list[int]:
    """The matching with each listed element moved to its option of the listed kind.

    ``moves``: (element, kind) pairs; the element is the bit mask of its letters in the d-cube
    (``sum(1 << letter)``), the kind an index into OPTION_KINDS.  ConstructionError if an element
    is not in the step or does not offer that kind.  Whether the result is still a matching (no
    column used twice, one column left for the lone e) is checked by :func:`apply_matching`, which
    every caller runs next (Lemma 4c in docs/proofs/hypercube.md).
    """
    index = {sum(1 << letter for letter in word_a): i for i, ((_, word_a), _) in enumerate(pairs)}
    match = list(match)
    for element, kind in moves:
        i = index.get(element)
        if i is None:
            raise ConstructionError(f"reassignment: element {element} is not in this step")
        columns = [column for column, k in options[i].items() if k == kind]
        if not columns:
            raise ConstructionError(f"reassignment: element {element} offers no {OPTION_KINDS[kind]} column")
        match[i] = columns[0]
    return match


def forced_twice(words: list[PlacedWord], d: int, rotation: int, reversed_in_time: bool) -> tuple[int, list[int]]:
    """(elements that are the only option of two or more columns, the empty boundaries behind those columns).

    In the step d -> d + 1 from the perfect ``words`` with this copy transform, a column that is the
    option of a single element forces that element there; an element forced by two columns leaves
    one of them empty (the lone e fills one).  A column of the A half is an option only of words
    ending at it or starting just after it, so a single-option column sits next to a word
    boundary of ``words`` where no word starts or ends (an *empty boundary*); those boundaries,
    in ``words``' own columns, are returned sorted.
    """
    _, options = doubling_options(words, d, rotation, reversed_in_time)
    width = 2 ** (d - 1)
    degree = Counter(column for kinds in options for column in kinds)
    starts = Counter(start for start, _ in words)
    count, boundaries = 0, set()
    for kinds in options:
        single = [column for column in kinds if degree[column] == 1]
        if len(single) < 2:
            continue
        count += 1
        for column in single:
            if column < width:
                near = (column, column + 1)
            else:  # B half: copy B's boundaries, mapped back through the time reversal
                local = column - width
                near = (width - local, width - local - 1) if reversed_in_time else (local, local + 1)
            boundaries.update(b for b in near if 1 <= b < width and starts[b] == 0)
    return count, sorted(boundaries)


#: alternating-search size per repair (elements visited); rounds of repairs per step
REPAIR_LIMIT = 200_000
REPAIR_ROUNDS = 6


def repair_matching(pairs: list[tuple[PlacedWord, PlacedWord]], options: list[dict[int, int]], match: list[int],
                    d: int, next_transform: tuple[int, bool]) -> list[int]:
    """The matching changed along alternating cycles until the next step forces no element twice.

    The empty word boundaries of the doubled table behind the next step's doubly forced elements
    (:func:`forced_twice`) are refilled one by one: the word whose ``e`` emptied boundary ``b``
    (its e at column b - 1 as a prefix, or at column b as a suffix) gives that column up to
    another element along an alternating cycle (breadth-first, options in their fixed order),
    accepted only if no other boundary becomes empty.  Every element keeps one of its own
    options and no column is used twice, so the result is again a saturating matching and
    Lemma 4 (docs/proofs/hypercube.md) applies unchanged.  Deterministic; stops when nothing
    is forced twice, when a round repairs nothing, or after REPAIR_ROUNDS rounds.
    """
    width = 2 ** (d - 1)
    columns = 2 * width
    match = list(match)
    for _ in range(REPAIR_ROUNDS):
        doubled = apply_matching(pairs, options, match, d)
        count, targets = forced_twice(doubled, d + 1, *next_transform)
        if count <= 1 or not _refill(pairs, options, match, columns, targets):
            break
    return match


def _refill(pairs, options, match: list[int], columns: int, targets: list[int]) -> int:
    """Refill the empty boundaries ``targets`` of the doubled table by alternating cycles; how many."""
    owner = [-1] * columns
    for element, column in enumerate(match):
        owner[column] = element
    starts_at: list[list[int]] = [[] for _ in range(columns + 1)]
    ends_at: list[list[int]] = [[] for _ in range(columns + 1)]
    for element, ((start_a, word_a), (start_b, word_b)) in enumerate(pairs):
        starts_at[start_a].append(element)
        ends_at[start_a + len(word_a)].append(element)
        starts_at[start_b].append(element)
        ends_at[start_b + len(word_b)].append(element)

    def starts_of(element: int, column: int) -> tuple[int, int]:
        """Where the element's two words start in the doubled table when its e is at ``column``."""
        (start_a, _), (start_b, _) = pairs[element]
        kind = options[element][column]
        return (start_a - 1 if kind == 0 else start_a, start_b - 1 if kind == 2 else start_b)

    starts = Counter()
    for element, column in enumerate(match):
        starts.update(starts_of(element, column))
    lone = owner.index(-1)
    starts[lone] += 1
    half = columns // 2
    fixed = 0
    for b in targets:
        if starts[b] >= 1:
            continue
        roots = ([(u, b - 1) for u in starts_at[b] if match[u] == b - 1]
                 + [(u, b) for u in ends_at[b] if match[u] == b])
        for root, column in roots:
            for chain in _alternating_cycles(options, match, owner, root, column):
                delta = Counter()
                for element, new_column in chain:
                    delta.subtract(starts_of(element, match[element]))
                    delta.update(starts_of(element, new_column))
                if starts[b] + delta[b] < 1 or any(starts[p] + v < 1 for p, v in delta.items()
                                                   if v < 0 and 1 <= p < columns and p != half):
                    continue  # it would empty another boundary: try the next cycle
                starts.update(delta)
                for element, new_column in chain:
                    match[element] = new_column
                    owner[new_column] = element
                fixed += 1
                break
            if starts[b] >= 1:
                break
    return fixed


#: alternating cycles tried per emptied boundary before giving it up
REPAIR_CYCLES = 64


def _alternating_cycles(options, match: list[int], owner: list[int], root: int, column: int):
    """Moves [(element, new column), ...] that hand ``column`` from ``root`` to another element.

    Breadth-first from ``root`` over the options it does not hold: an element reached through a
    column takes that column, its own column goes on to the next; a cycle closes at an element
    that has ``column`` among its options.  Yields the cycles in the order found, at most
    REPAIR_CYCLES of them.
    """
    found = 0
    previous = {root: None}
    queue = deque([root])
    seen = set()
    while queue and len(previous) < REPAIR_LIMIT:
        u = queue.popleft()
        for c in options[u]:
            if c == match[u] or (u == root and c == column):
                continue
            if c == column:
                chain = [(u, c)]
                x = u
                while previous[x] is not None:
                    chain.append((previous[x], match[x]))
                    x = previous[x]
                yield chain
                found += 1
                if found >= REPAIR_CYCLES:
                    return
                continue
            if c in seen:
                continue
            seen.add(c)
            w = owner[c]
            if w != -1 and w not in previous:
                previous[w] = u
                queue.append(w)


def column_check(words: list[PlacedWord], d: int) -> None:
    """Raise unless the words are perfect: in 0..T-1, each element once, each letter once per column."""
    width = 2 ** (d - 1)
    count = np.zeros((d, width), dtype=np.int64)
    elements = np.zeros(2 ** d, dtype=np.int64)
    for start, word in words:
        if len(set(word)) != len(word):
            raise ConstructionError(f"word {word} repeats a letter")
        if start < 0 or start + len(word) > width:
            raise ConstructionError(f"word {word} at column {start} leaves 0..{width - 1}")
        elements[sum(1 << letter for letter in word)] += 1
        count[list(word), range(start, start + len(word))] += 1
    if elements[0] or not (elements[1:] == 1).all():
        raise ConstructionError("some element is placed twice or not at all")
    if not (count == 1).all():
        raise ConstructionError("some column misses a letter or holds it twice")


def perfect_words(d: int, recipe: tuple[tuple, ...] | None = None) -> list[PlacedWord]:
    """Placed words of the perfect d-cube table obtained by replaying the recipe.

    A recipe entry is (rotation, reversed), (rotation, reversed, next rotation, next reversed) or
    (rotation, reversed, next rotation, next reversed, moves): the second form repairs its matching
    toward the next step's transform (:func:`repair_matching`), the third applies the recorded
    reassignments ``moves`` instead (:func:`reassign_matching`; found toward that transform).
    """
    recipe = RECIPE if recipe is None else recipe
    if not 1 <= d <= len(recipe) + 1:
        raise ConstructionError(f"hypercube-{d}: the recipe covers d = 1..{len(recipe) + 1}")
    words: list[PlacedWord] = [(0, (0,))]
    for step in range(1, d):
        rotation, reversed_in_time, *rest = recipe[step - 1]
        toward = tuple(rest[:2]) if rest else None
        moves = rest[2] if len(rest) > 2 else None
        doubled = double(words, step, rotation, reversed_in_time, toward, moves)
        if doubled is None:
            raise ConstructionError(f"step {step} -> {step + 1}: no saturating matching for {recipe[step - 1]}")
        words = doubled
    return words


def rows_of(words: list[PlacedWord], d: int) -> list[tuple[int, int, tuple[int, ...]]]:
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
            "name": "recursive doubling with a saturating matching",
            "module": "tesearch.constructions.hypercube",
            "recipe": [list(step) for step in RECIPE[: d - 1]],
        }
    }
    return Table(network.spec, "total", {s: network.generators[s] for s in letters}, width,
                 sorted(placements), counting_bound(total_letters, d), extra)
