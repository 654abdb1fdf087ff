"""Mirror lanes: optimal tables for the regular torus m x n x n (4 | m, m < n, n even), no solver.

Result.  :func:`mirror_lane_table` builds a total-exchange table of width
``m * n**3 / 8`` for the torus with one side m and two sides n; that width is
the per-letter bound of the two long axes (each of their four letters is busy
in every column), so every table it returns is optimal.  That it returns one
for every such shape is not proved: the braid order and the packing of the
(a, 0, 0) jobs are greedy steps that are checked, and fail with a
ConstructionError where they get stuck (24x26x26, 28x30x30).  It settles torus-8x16x16 (T = 4096),
which every ring lift and search had left open, and gives 4x8x8, 4x16x16,
12x16x16, 12x24x24, ... the same way.

Notation.  X is the short axis (ring of m = 2q elements), Y and Z the long
ones (rings of n = 2h).  A ring element has a distance d and one shortest word
(two for the antipode d = q or h).  The *mirror* phi of a ring element is the
element whose word has the axis's two letters swapped (for the dihedral ring
``a A a`` <-> ``A a A``; for the cyclic one ``a a`` <-> ``a' a'``): it has the
same distance, and it is the element itself exactly at 0 and the antipode.
On the torus, phi acts on every axis at once.

Construction.

1. **Lanes.**  An element g != phi(g) and its mirror are placed together: the
   word w of g and the word phi(w) of phi(g) start in the same column.  In a
   column where w has a letter of some axis, phi(w) has that axis's other
   letter.  So a set of such pairs is column-valid as soon as, in every column,
   no two pairs use the same *axis*: the six letters become three axis lanes
   X, Y, Z, and a pair is a *job* of profile (a, b, c) = its distances, one
   lane per column, a + b + c columns in a row (any order of its axis blocks is
   a shortest word, the factors commuting).  The table is optimal when the Y
   and Z lanes are busy in every column.
2. **Braids.**  A job (a, b, c) and a job (a', c, b) make a braid of
   L = b + c columns: the first runs Y for b columns then Z for c, the second
   Z for b then Y for c, so both long lanes are busy throughout.  The X blocks
   go outside the braid: one job's X block directly before it (a *prefix*,
   inside the previous braid's columns) and the other's directly after it (a
   *suffix*).  Jobs of profile (., b, c) and (., c, b) are equally many, so all
   jobs pair up, except one job of profile (., h, h) (there are q - 1 of them,
   an odd number when 4 | m) and the jobs (a, 0, 0), which use X alone.
3. **The fixed block.**  The seven elements fixed by phi (every coordinate 0
   or antipodal, not all 0) cannot be mirrored.  Two of them may share a lane
   column when their letters there differ; an antipode has both words, so two
   of them running aligned blocks of one axis take its two words.  The first
   3h columns hold them and the odd (a*, h, h) job, every long lane busy:

   ====================  ===========  ==========  ==========  ============
   element               X            Y           Z
   ====================  ===========  ==========  ==========  ============
   (a*, h, h) pair        2h..2h+a*-1  0..h-1      h..2h-1
   (q, h, h)              h-q..h-1     h..2h-1     2h..3h-1
   (0, h, h)                           h..2h-1     0..h-1
   (0, 0, h)                                       0..h-1
   (q, 0, h)              2h-q..2h-1               2h..3h-1
   (q, h, 0)              2h-q..2h-1   2h..3h-1
   (0, h, 0)                           2h..3h-1
   (q, 0, 0)              h-q..h-1
   ====================  ===========  ==========  ==========  ============

   Rows sharing a lane column share it in aligned blocks and take the axis's
   two different words there.
4. **Sequencing.**  The braids follow the fixed block side by side.  A
   greedy pass places them one by one, choosing for each the braid and the
   orientation (which job takes the prefix) whose prefix fits the free X cells
   left of it; the suffixes are marked as they are placed.  Braids with a job
   of a = 0 can always take an empty prefix, so they are held back as
   *relief*, placed only where no other braid fits; one of them is the last
   braid, its a = 0 job taking the suffix, so nothing passes column T - 1.  The
   jobs (a, 0, 0) take free X cells last.  Orders that fail are retried with
   other seeds; a failure after every seed is a :class:`ConstructionError`,
   never a wider table.

Every table is checked by :func:`tesearch.verify.verify_table` before it is
returned.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tesearch.bounds import compute_bounds
from tesearch.errors import ConstructionError
from tesearch.groups import cached_cayley_graph
from tesearch.layout import assign_rows
from tesearch.networks import Network, TorusParams
from tesearch.table import Placement, Table
from tesearch.terms import Exchange
from tesearch.verify import verify_table
from tesearch.words import words_by_element

CONSTRUCTION_NAME = "mirror lanes (tesearch/constructions/lanes.py)"
SEEDS = 16  # sequencing orders tried before giving up

Word = tuple[str, ...]


@dataclass(frozen=True)
class Axis:
    """One ring of the torus: its letters, shortest words and mirror, by ring element."""

    side: int
    letters: tuple[str, str]
    words: tuple[tuple[Word, ...], ...]  # element -> its shortest words
    mirror: tuple[int, ...]  # element -> phi(element)

    def distance(self, g: int) -> int:
        """The ring distance of element ``g`` (the length of its shortest words)."""
        return len(self.words[g][0])

    def swap(self, word: Word) -> Word:
        """phi on a word of this ring: each of its two letters replaced by the other."""
        a, b = self.letters
        return tuple(b if s == a else a for s in word)


@dataclass(frozen=True)
class Job:
    """A placed element (with its mirror, unless it is fixed): blocks of (axis, word, first column)."""

    element: tuple[int, int, int]  # ring elements on X, Y, Z
    blocks: tuple[tuple[int, Word, int], ...]
    mirrored: bool


def _axis(network: Network, index: int) -> Axis:
    ring = network.factors[index]
    cg = cached_cayley_graph(ring)
    words = tuple(tuple(ws) for ws in words_by_element(cg))
    letters = tuple(ring.letters)
    if len(letters) != 2:
        raise ConstructionError(f"{network.spec}: mirror lanes need rings of two letters")
    a, b = letters
    by_word = {w: g for g, ws in enumerate(words) for w in ws}
    mirror = tuple(by_word[tuple(b if s == a else a for s in ws[0])] for ws in words)
    return Axis(cg.order, letters, words, mirror)


def applies(network: Network) -> str | None:
    """None when the construction applies to ``network``; else the reason it does not."""
    p = network.params
    if not isinstance(p, TorusParams) or len(p.sides) != 3 or not network.is_product:
        return "mirror lanes build regular 3D tori m x n x n only"
    sides = sorted(p.sides)
    m, n = sides[0], sides[2]
    if sides[1] != n or m == n:
        return "mirror lanes need one short side m and two equal long sides n (m x n x n, m < n)"
    if m % 4 or n % 2:
        return "mirror lanes need the short side divisible by 4 and the long sides even"
    return None


def _axes(network: Network) -> tuple[Axis, Axis, Axis]:
    """(X, Y, Z): the short ring, then the two long ones in the spec's order (the rings carry the product's letters)."""
    sides = network.params.sides
    short = min(range(3), key=lambda i: sides[i])
    x, y, z = (_axis(network, i) for i in (short, *(i for i in range(3) if i != short)))
    return x, y, z


# ---------------------------------------------------------------- jobs

def _elements(x: Axis, y: Axis, z: Axis) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """(one representative of every mirror pair {g, phi(g)}, the elements fixed by phi), identity excluded."""
    pairs, fixed = [], []
    for i in range(x.side):
        for j in range(y.side):
            for k in range(z.side):
                g = (i, j, k)
                if g == (0, 0, 0):
                    continue
                mg = (x.mirror[i], y.mirror[j], z.mirror[k])
                if mg == g:
                    fixed.append(g)
                elif g < mg:
                    pairs.append(g)
    return pairs, fixed


def _antipode(axis: Axis) -> int:
    return next(g for g in range(axis.side) if g and axis.mirror[g] == g)


def _fixed_block(x: Axis, y: Axis, z: Axis, odd_job: tuple[int, int, int]) -> list[Job]:
    """The first 3h columns: the seven elements fixed by phi and the odd (a*, h, h) pair (docstring, step 3)."""
    q, h = x.side // 2, y.side // 2
    iq, jh, kh = _antipode(x), _antipode(y), _antipode(z)
    X, Y, Z = 0, 1, 2

    def w(axis: Axis, g: int, choice: int = 0) -> Word:
        return axis.words[g][choice]

    i_star = odd_job[0]
    return [
        Job(odd_job, ((Y, w(y, jh), 0), (Z, w(z, kh), h), (X, w(x, i_star), 2 * h)), True),
        Job((iq, jh, kh), ((X, w(x, iq, 0), h - q), (Y, w(y, jh, 0), h), (Z, w(z, kh, 0), 2 * h)), False),
        Job((0, jh, kh), ((Z, w(z, kh, 0), 0), (Y, w(y, jh, 1), h)), False),
        Job((0, 0, kh), ((Z, w(z, kh, 1), 0),), False),
        Job((iq, 0, kh), ((X, w(x, iq, 0), 2 * h - q), (Z, w(z, kh, 1), 2 * h)), False),
        Job((iq, jh, 0), ((X, w(x, iq, 1), 2 * h - q), (Y, w(y, jh, 0), 2 * h)), False),
        Job((0, jh, 0), ((Y, w(y, jh, 1), 2 * h),), False),
        Job((iq, 0, 0), ((X, w(x, iq, 1), h - q),), False),
    ]


@dataclass(frozen=True)
class Braid:
    """Two pairs of profiles (a1, b, c) and (a2, c, b) side by side on the long lanes for b + c columns."""

    first: tuple[int, int, int]  # runs Y for b columns, then Z for c
    second: tuple[int, int, int]  # runs Z for b columns, then Y for c
    b: int
    c: int

    @property
    def length(self) -> int:
        """Columns the braid takes on the long lanes."""
        return self.b + self.c


def _braids(pairs: list[tuple[int, int, int]], profile, rng: random.Random) -> list[Braid]:
    """Every pair job with a long axis in use, two by two; ConstructionError if one is left over."""
    groups: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for g in pairs:
        _, b, c = profile(g)
        groups.setdefault((b, c), []).append(g)
    for jobs in groups.values():
        rng.shuffle(jobs)
    braids = []
    for (b, c), jobs in sorted(groups.items()):
        if b > c:
            continue
        partners = groups.get((c, b), []) if b < c else jobs[1::2]
        firsts = jobs if b < c else jobs[0::2]
        if len(partners) != len(firsts):
            raise ConstructionError(f"mirror lanes: {len(firsts)} jobs of profile (., {b}, {c}) against "
                                    f"{len(partners)} of (., {c}, {b}): they do not pair up")
        braids += [Braid(f, s, b, c) for f, s in zip(firsts, partners)]
    return braids


# ---------------------------------------------------------------- sequencing

class _XLane:
    """The X lane's cells 0..T-1: free or taken."""

    def __init__(self, width: int):
        self.taken = bytearray(width)
        self.width = width

    def free(self, start: int, length: int) -> bool:
        return 0 <= start and start + length <= self.width and not any(self.taken[start:start + length])

    def take(self, start: int, length: int) -> None:
        if not self.free(start, length):  # pragma: no cover - callers check first
            raise ConstructionError(f"mirror lanes: X cells {start}..{start + length - 1} are taken")
        self.taken[start:start + length] = b"\x01" * length

    def first_free_run(self, length: int) -> int | None:
        run = 0
        for c, t in enumerate(self.taken):
            run = 0 if t else run + 1
            if run == length:
                return c - length + 1
        return None


def _braid_jobs(braid: Braid, start: int, prefix_first: bool, x: Axis, y: Axis, z: Axis) -> list[Job]:
    """The two jobs of ``braid`` at ``start``; the first (or, if not ``prefix_first``, the second) has its X block before."""
    X, Y, Z = 0, 1, 2
    end = start + braid.length
    jobs = []
    for g, prefix in ((braid.first, prefix_first), (braid.second, not prefix_first)):
        i, j, k = g
        a = x.distance(i)
        if g is braid.first:
            long_blocks = [(Y, y.words[j][0], start), (Z, z.words[k][0], start + braid.b)]
        else:
            long_blocks = [(Z, z.words[k][0], start), (Y, y.words[j][0], start + braid.b)]
        x_block = (X, x.words[i][0], start - a if prefix else end)
        blocks = tuple(bl for bl in [x_block, *long_blocks] if bl[1])
        jobs.append(Job(g, blocks, True))
    return jobs


def _best_fit(candidates: list[Braid], a_of: dict, lane: _XLane, pos: int) -> tuple[int, bool, int, int] | None:
    """(index, prefix_first, prefix length, suffix length) of the braid to place at ``pos``, or None.

    Both X blocks must land on free cells; among those that do, the longest prefix (it fills the room
    on the left), then the longest braid (it leaves room on the right)."""
    best, best_key = None, None
    for idx, br in enumerate(candidates):
        for prefix_first in (True, False):
            a_pre = a_of[br.first] if prefix_first else a_of[br.second]
            a_suf = a_of[br.second] if prefix_first else a_of[br.first]
            if not lane.free(pos - a_pre, a_pre) or not lane.free(pos + br.length, a_suf):
                continue
            key = (a_pre, br.length, -idx)
            if best_key is None or key > best_key:
                best, best_key = (idx, prefix_first, a_pre, a_suf), key
    return best


def _sequence(braids: list[Braid], x: Axis, y: Axis, z: Axis, lane: _XLane, first_column: int,
              rng: random.Random) -> list[Job] | None:
    """Braids side by side from ``first_column`` (docstring, step 4); None when the greedy gets stuck."""
    a_of = {}
    for br in braids:
        a_of[br.first], a_of[br.second] = x.distance(br.first[0]), x.distance(br.second[0])
    # keep a braid with a job of a = 0 for the end: its suffix is empty, so nothing passes T - 1
    enders = [br for br in braids if a_of[br.first] == 0 or a_of[br.second] == 0]
    if not enders:
        return None
    last = rng.choice(enders)
    # the other braids with an a = 0 job are the relief: their prefix can always be empty, so they are
    # kept back and placed only where no other braid's prefix fits
    relief = [br for br in enders if br is not last]
    kept = {id(br) for br in relief} | {id(last)}
    pool = [br for br in braids if id(br) not in kept]
    rng.shuffle(pool)
    rng.shuffle(relief)
    pos, jobs = first_column, []
    while pool or relief:
        best = None
        for candidates in (pool, relief):
            best = _best_fit(candidates, a_of, lane, pos)
            if best is not None:
                break
        if best is None:
            return None
        idx, prefix_first, a_pre, a_suf = best
        br = candidates.pop(idx)
        lane.take(pos - a_pre, a_pre)
        lane.take(pos + br.length, a_suf)
        jobs += _braid_jobs(br, pos, prefix_first, x, y, z)
        pos += br.length
    # the last braid: its a = 0 job goes second, so its (empty) X block is the suffix
    prefix_first = a_of[last.second] == 0
    a_pre = a_of[last.first] if prefix_first else a_of[last.second]
    if not lane.free(pos - a_pre, a_pre):
        return None
    lane.take(pos - a_pre, a_pre)
    jobs += _braid_jobs(last, pos, prefix_first, x, y, z)
    return jobs


# ---------------------------------------------------------------- the table

def _word_and_start(job: Job, axes: tuple[Axis, Axis, Axis], mirrored: bool) -> tuple[int, Word]:
    blocks = sorted(job.blocks, key=lambda bl: bl[2])
    start, word = blocks[0][2], ()
    for axis, letters, column in blocks:
        if column != start + len(word):
            raise ConstructionError(f"mirror lanes: the blocks of {job.element} are not contiguous")  # pragma: no cover
        word += axes[axis].swap(letters) if mirrored else letters
    return start, word


def mirror_lane_table(network: Network, *, seeds: int = SEEDS) -> Table:
    """A verified optimal table for the regular torus m x n x n (see the module docstring)."""
    reason = applies(network)
    if reason is not None:
        raise ConstructionError(f"{network.spec}: {reason}")
    axes = _axes(network)
    x, y, z = axes
    h = y.side // 2
    width = x.side * y.side * h * h // 2

    def profile(g: tuple[int, int, int]) -> tuple[int, int, int]:
        return x.distance(g[0]), y.distance(g[1]), z.distance(g[2])

    pairs, fixed = _elements(x, y, z)
    if len(fixed) != 7:  # pragma: no cover - three rings of even order have one antipode each
        raise ConstructionError(f"{network.spec}: expected 7 elements fixed by the mirror, found {len(fixed)}")
    # the (a*, h, h) pair with the smallest a* leaves the most X room after the fixed block
    odd = min((g for g in pairs if profile(g)[1:] == (h, h)), key=profile)
    x_only = [g for g in pairs if profile(g)[1:] == (0, 0)]
    braided = [g for g in pairs if g != odd and profile(g)[1:] != (0, 0)]
    block = _fixed_block(x, y, z, odd)
    last_error = "no seed tried"
    for seed in range(seeds):
        rng = random.Random(seed)
        braids = _braids(braided, profile, rng)
        lane = _XLane(width)
        for job in block:
            for axis, letters, column in job.blocks:
                if axis == 0 and (job.mirrored or lane.free(column, len(letters))):
                    lane.take(column, len(letters))  # a shared X block is taken once
        jobs = _sequence(braids, x, y, z, lane, 3 * h, rng)
        if jobs is None:
            last_error = f"seed {seed}: the greedy sequencing got stuck"
            continue
        for g in x_only:
            a = x.distance(g[0])
            column = lane.first_free_run(a)
            if column is None:
                break
            lane.take(column, a)
            jobs.append(Job(g, ((0, x.words[g[0]][0], column),), True))
        else:
            return _assemble(network, axes, block + jobs, width, seed)
        last_error = f"seed {seed}: no room on the X lane for the jobs (a, 0, 0)"
    raise ConstructionError(f"{network.spec}: mirror lanes found no sequence ({last_error})")


def _assemble(network: Network, axes, jobs: list[Job], width: int, seed: int) -> Table:
    placed = []
    for n, job in enumerate(jobs):
        start, word = _word_and_start(job, axes, False)
        placed.append((("job", n), start, word))
        if job.mirrored:
            start, word = _word_and_start(job, axes, True)
            placed.append((("mirror", n), start, word))
    rows = assign_rows(placed, len(network.letters))
    cg = cached_cayley_graph(network)
    bounds = compute_bounds(cg, Exchange.TOTAL)
    table = Table(network.spec, Exchange.TOTAL.value, network.generators_json(), width,
                  sorted(Placement(r, c, w) for r, c, w in rows), bounds.counting,
                  {"letter_bound": bounds.letter.value,
                   "construction": {"method": CONSTRUCTION_NAME, "seed": seed}})
    check = verify_table(table, cg=cg, bounds=bounds)
    if not check.ok:
        raise ConstructionError(f"{network.spec}: the mirror-lane table does not verify: {check.violations[0]}")
    return table
