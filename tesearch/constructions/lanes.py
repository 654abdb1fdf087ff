"""Mirror lanes: optimal tables for the regular torus m x n x n (4 | m, m < n, n even), no solver.

Result.  :func:`mirror_lane_table` builds a total-exchange table of width
``m * n**3 / 8`` for the torus with one side m and two sides n; that width is
the per-letter bound of the two long axes (each of their four letters is busy
in every column), so the table is optimal, and it exists for every such shape
(docs/proofs/lanes.md, the Theorem: Lemmas 1-7).  It settles torus-8x16x16 (T = 4096),
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
4. **Sequencing by a port matching** (Lemma 6).  A braid is a *shell* with
   two parts (b and c columns) and a *port* at each: the port's length is its
   part's, its demand the X distance of the job leaving the shell there.
   Shells may stand side by side when each facing port's demand fits the
   other's length.  An explicit matching of ports (small lengths transposed
   against small demands, demand q against length-q ports, then a clique of
   demand-0 ports and a clique of universal ports) makes every facing pair
   fit; exchanging partners within a kind joins its cycles into one chain,
   cut at a virtual shell so that the first prefix and the last suffix are
   empty.  The jobs (a, 0, 0) take free X runs (Lemma 7).  The counts the
   matching needs are closed forms, so it succeeds on every shape; a failure
   would be a :class:`ConstructionError`, never a wider table.

Every table is checked by :func:`tesearch.tables.verify.verify_table` before it is
returned.
"""

from __future__ import annotations

from dataclasses import dataclass

from tesearch.tables.build import TableBuilder
from tesearch.facts.instance import instance
from tesearch.running.errors import ConstructionError
from tesearch.networks.groups import cached_cayley_graph
from tesearch.tables.layout import assign_rows
from tesearch.networks.families import Network
from tesearch.networks.products import TorusParams
from tesearch.tables.table import Placement, Table
from tesearch.running.terms import Exchange
from tesearch.networks.words import words_by_element

CONSTRUCTION_NAME = "mirror lanes (tesearch/constructions/lanes.py)"
RULE_NAME = "port matching (docs/proofs/lanes.md, Lemma 6)"

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


# ---------------------------------------------------------------- shells and ports

UNIVERSAL, ZERO = "universal", "zero"  # the two clique kinds of matched pairs (docs/proofs/lanes.md, Lemma 6)


@dataclass(frozen=True)
class Shell:
    """Two pair jobs braided on the long lanes: parts of ``b`` and ``c`` columns (b <= c).

    ``job_b`` leaves through the b-port (its X block lies beyond the b part's end of the braid), ``job_c``
    through the c-port.  For b < c, ``job_b`` has profile (., b, c) and ``job_c`` profile (., c, b); for
    b = c both have (., b, b).  Placed with the b part first, the shell's first column is the b-port;
    placed with the c part first, the c-port.  The job that leaves on the left runs Y first (for the left
    part's length) then Z; the other runs Z first then Y.
    """

    b: int
    c: int
    job_b: tuple[int, int, int]
    job_c: tuple[int, int, int]

    @property
    def length(self) -> int:
        """Columns the shell takes on the long lanes."""
        return self.b + self.c


Port = tuple[int, int]  # (shell index, 0 for the b-port / 1 for the c-port); shell -1 is the virtual shell


def _shells(braided: list[tuple[int, int, int]], profile, h: int) -> list[Shell]:
    """Every braided pair job in a shell, deterministically (docs/proofs/lanes.md, Lemma 6, step 0).

    Class {b, c} (b < c): its jobs of profile (., b, c) and of (., c, b), each sorted by X distance, are
    paired in that order, so a shell's two jobs have the same X distance.  Class {b, b}: its jobs sorted by
    X distance, paired neighbour with neighbour.
    """
    classes: dict[tuple[int, int], tuple[list, list]] = {}
    for g in braided:
        a, b, c = profile(g)
        key = (min(b, c), max(b, c))
        first, second = classes.setdefault(key, ([], []))
        (first if b <= c else second).append(g)
    shells = []
    for (b, c), (first, second) in sorted(classes.items()):
        first.sort(key=lambda g: (profile(g)[0], g))
        second.sort(key=lambda g: (profile(g)[0], g))
        if b < c:
            if len(first) != len(second):  # pragma: no cover - swapping Y and Z is a bijection
                raise ConstructionError(f"mirror lanes: {len(first)} jobs (., {b}, {c}) against {len(second)} (., {c}, {b})")
            shells += [Shell(b, c, f, s) for f, s in zip(first, second)]
        else:
            if len(first) % 2:  # pragma: no cover - counted in Lemma 6
                raise ConstructionError(f"mirror lanes: an odd number of jobs (., {b}, {b})")
            shells += [Shell(b, b, first[i], first[i + 1]) for i in range(0, len(first), 2)]
    return shells


def _match_ports(shells: list[Shell], demand_of, q: int
                 ) -> tuple[dict[Port, Port], dict[Port, object], dict[Port, tuple[int, int]]]:
    """The partner of every port and the kind of its matched pair (docs/proofs/lanes.md, Lemma 6, steps 1-4).

    A port has a *length* (its part) and a *demand* (the X distance of the job leaving through it).  Two
    ports may face each other across a shell boundary when each one's demand is at most the other's
    length: the job leaving one then lies inside the other's part.  Lengths below q are *small*; the rest
    are *universal* (any demand fits).

    Long because it follows the proof's steps 1 to 4 one after another, each a short block under a comment
    naming its step, so the code reads against docs/proofs/lanes.md.
    """
    length = {}
    demand = {}
    for i, sh in enumerate(shells):
        length[(i, 0)], length[(i, 1)] = sh.b, sh.c
        demand[(i, 0)], demand[(i, 1)] = demand_of(sh.job_b), demand_of(sh.job_c)
    for port in ((-1, 0), (-1, 1)):  # the virtual shell: the fixed block's end and the table's end
        length[port], demand[port] = 0, 0
    buckets: dict[tuple[int, int], list[Port]] = {}
    for port in sorted(length):
        key = (length[port], demand[port])
        buckets.setdefault(key, []).append(port)
    partner: dict[Port, Port] = {}
    kind: dict[Port, object] = {}

    def pair(p1: Port, p2: Port, what) -> None:
        if demand[p1] > length[p2] or demand[p2] > length[p1]:  # pragma: no cover - Lemma 6
            raise ConstructionError(f"mirror lanes: ports {p1} and {p2} cannot face each other")
        partner[p1], partner[p2] = p2, p1
        kind[p1] = kind[p2] = what

    def take(key: tuple[int, int], count: int, avoid: set[Port] | None = None) -> list[Port]:
        pool = buckets.get(key, [])
        chosen = [p for p in pool if not avoid or p not in avoid][:count]
        if len(chosen) < count:  # pragma: no cover - the counts of Lemma 6
            raise ConstructionError(f"mirror lanes: {len(chosen)} ports of type {key}, {count} needed")
        chosen_set = set(chosen)
        buckets[key] = [p for p in pool if p not in chosen_set]
        return chosen

    # step 1: small x small, transposed: (l, d) with (d, l) for 1 <= l, d <= q-1 (the diagonal among itself)
    for l in range(1, q):
        for d in range(l, q):
            if l == d:
                ports = take((l, l), len(buckets.get((l, l), [])))
                if len(ports) % 2:  # pragma: no cover - 4h of each
                    raise ConstructionError(f"mirror lanes: an odd number of ports of type ({l}, {l})")
                for k in range(0, len(ports), 2):
                    pair(ports[k], ports[k + 1], ((l, l), (l, l)))
            else:
                ones, others = buckets.get((l, d), []), buckets.get((d, l), [])
                if len(ones) != len(others):  # pragma: no cover - 4h of each
                    raise ConstructionError(f"mirror lanes: {len(ones)} ports ({l}, {d}) against {len(others)} ({d}, {l})")
                for p1, p2 in zip(take((l, d), len(ones)), take((d, l), len(others))):
                    pair(p1, p2, ((l, d), (d, l)))
    # step 2: length 0 with demand d against length d with demand 0; one (d, 0) is left over per d.  The
    # leftover is not the (d, 0) port of class {d, h}: that shell ties this kind to the zero clique.
    for d in range(1, q):
        zeros = buckets.get((0, d), [])
        keep = {(i, side) for (i, side) in buckets.get((d, 0), []) if i >= 0 and shells[i].c > q and shells[i].b == d}
        others = buckets.get((d, 0), [])
        chosen = [p for p in others if p in keep] + [p for p in others if p not in keep]
        buckets[(d, 0)] = chosen
        for p1, p2 in zip(take((0, d), len(zeros)), take((d, 0), len(zeros))):
            pair(p1, p2, ((0, d), (d, 0)))
    # step 3: small length l with demand q against a universal port with demand l
    for l in range(0, q):
        need = buckets.get((l, q), [])
        for p1, p2 in zip(take((l, q), len(need)), take((q, l), len(need))):
            pair(p1, p2, ((l, q), (q, l)))
    # step 4: what is left is universal (any demand) or has demand 0: two cliques, each matched inside
    rest = [p for key in sorted(buckets) for p in buckets[key]]
    zero = [p for p in rest if demand[p] == 0 and length[p] < q] + \
           [p for p in rest if demand[p] == 0 and length[p] >= q]
    universal = [p for p in rest if not (demand[p] == 0)]
    if any(length[p] < q for p in universal):  # pragma: no cover - Lemma 6
        raise ConstructionError("mirror lanes: a small port is left with a demand")
    if len(zero) % 2:  # move the (h, 0) port of class {h - 1, h} to the universal clique (Lemma 6, step 4)
        h = max(length.values())
        moved = next((p for p in zero if p[0] >= 0 and length[p] == h
                      and {shells[p[0]].b, shells[p[0]].c} == {h - 1, h}), None)
        if moved is None:  # pragma: no cover - the class {h - 1, h} has one shell whose jobs have X distance 0
            raise ConstructionError("mirror lanes: no (h, 0) port of class {h - 1, h} to even the cliques")
        zero.remove(moved)
        universal.append(moved)
    for group, what in ((zero, ZERO), (universal, UNIVERSAL)):
        for k in range(0, len(group), 2):
            pair(group[k], group[k + 1], what)
    port_type = {port: (length[port], demand[port]) for port in length}
    return partner, kind, port_type


def _one_cycle(shells: list[Shell], partner: dict[Port, Port], kind: dict[Port, object],
               port_type: dict[Port, tuple[int, int]]) -> list[tuple[int, bool]]:
    """The shells in one chain from the virtual shell, each with ``b_first`` (Lemma 6, step 5).

    Shell edges and matching edges form disjoint cycles.  Two matched pairs of one kind can exchange
    partners and stay compatible (a transposed kind pairs type t with type t' in both; a clique pairs
    anything in it), and the exchange joins two cycles into one.  Doing so wherever two cycles share a
    kind leaves one cycle, because the shells connect every kind (Lemma 6).
    """
    def other_end(port: Port) -> Port:
        return (port[0], 1 - port[1])

    cycle_of: dict[Port, int] = {}
    count = 0
    for start in sorted(partner):
        if start in cycle_of:
            continue
        port = start
        while port not in cycle_of:
            cycle_of[port] = count
            cycle_of[other_end(port)] = count
            port = partner[other_end(port)]
        count += 1
    parent = list(range(count))

    def find(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def oriented(port: Port) -> bool:
        """Visit each pair once: from its first type's port (transposed kinds), else from its smaller port."""
        what, mate = kind[port], partner[port]
        if isinstance(what, tuple) and what[0] != what[1]:
            return port_type[port] == what[0]
        return port < mate

    representative: dict[object, Port] = {}
    for port in sorted(partner):
        if not oriented(port):
            continue
        what = kind[port]
        rep = representative.setdefault(what, port)
        if rep == port or find(cycle_of[rep]) == find(cycle_of[port]):
            continue
        rep_mate, mate = partner[rep], partner[port]
        partner[rep], partner[mate] = mate, rep  # rep's side keeps its type, and so does port's
        partner[port], partner[rep_mate] = rep_mate, port
        parent[find(cycle_of[port])] = find(cycle_of[rep])
    roots = {find(c) for c in range(count)}
    if len(roots) != 1:  # pragma: no cover - Lemma 6 (connectivity)
        raise ConstructionError(f"mirror lanes: the shells form {len(roots)} chains, not one")
    order = []
    port = partner[(-1, 1)]  # the fixed block's end faces the first shell's left port
    while port[0] != -1:
        order.append((port[0], port[1] == 0))
        port = partner[other_end(port)]
    if len(order) != len(shells):  # pragma: no cover
        raise ConstructionError("mirror lanes: the chain misses shells")
    return order


# ---------------------------------------------------------------- the table

def _word_and_start(job: Job, axes: tuple[Axis, Axis, Axis], mirrored: bool) -> tuple[int, Word]:
    blocks = sorted(job.blocks, key=lambda bl: bl[2])
    start, word = blocks[0][2], ()
    for axis, letters, column in blocks:
        if column != start + len(word):
            raise ConstructionError(f"mirror lanes: the blocks of {job.element} are not contiguous")  # pragma: no cover
        word += axes[axis].swap(letters) if mirrored else letters
    return start, word


@dataclass(frozen=True)
class _Plan:
    """What the construction works from: the axes, the odd (1, h, h) pair, the X-only jobs, the shells."""

    axes: tuple
    odd: tuple[int, int, int]
    x_only: list
    shells: list
    profile: object  # element -> (a, b, c)


def _plan(network: Network) -> _Plan:
    """The axes, the jobs and the shells of a shape the construction applies to (Lemma 6, step 0)."""
    axes = _axes(network)
    x, y, z = axes
    h = y.side // 2

    def profile(g: tuple[int, int, int]) -> tuple[int, int, int]:
        return x.distance(g[0]), y.distance(g[1]), z.distance(g[2])

    pairs, fixed = _elements(x, y, z)
    if len(fixed) != 7:  # pragma: no cover - three rings of even order have one antipode each
        raise ConstructionError(f"{network.spec}: expected 7 elements fixed by the mirror, found {len(fixed)}")
    odd = min((g for g in pairs if profile(g)[1:] == (h, h)), key=lambda g: (profile(g), g))  # a* = 1
    x_only = sorted((g for g in pairs if profile(g)[1:] == (0, 0)), key=lambda g: (-profile(g)[0], g))
    braided = [g for g in pairs if g != odd and profile(g)[1:] != (0, 0)]
    return _Plan(axes, odd, x_only, _shells(braided, profile, h), profile)


def mirror_lane_table(network: Network) -> Table:
    """A verified optimal table for the regular torus m x n x n (see the module docstring; the rule and
    its proof: docs/proofs/lanes.md)."""
    reason = applies(network)
    if reason is not None:
        raise ConstructionError(f"{network.spec}: {reason}")
    plan = _plan(network)
    axes, shells, x_only, profile = plan.axes, plan.shells, plan.x_only, plan.profile
    x, y, z = axes
    q, h = x.side // 2, y.side // 2
    width = x.side * y.side * h * h // 2
    block = _fixed_block(x, y, z, plan.odd)
    partner, kind, port_type = _match_ports(shells, lambda g: x.distance(g[0]), q)
    order = _one_cycle(shells, partner, kind, port_type)
    lane = _XLane(width)
    for job in block:
        for axis, letters, column in job.blocks:
            if axis == 0 and (job.mirrored or lane.free(column, len(letters))):
                lane.take(column, len(letters))  # a shared X block is taken once
    jobs = list(block)
    pos = 3 * h
    for index, b_first in order:
        shell = shells[index]
        left_len = shell.b if b_first else shell.c
        left_job, right_job = (shell.job_b, shell.job_c) if b_first else (shell.job_c, shell.job_b)
        jobs += _shell_jobs(left_job, right_job, left_len, shell.length, pos, x, y, z, lane)
        pos += shell.length
    if pos != width:  # pragma: no cover - Lemma 5
        raise ConstructionError(f"{network.spec}: the shells end at column {pos}, not {width}")
    for g in x_only:  # Lemma 7: enough free runs of length >= q for the q - 1 jobs (a, 0, 0)
        a = x.distance(g[0])
        column = lane.first_free_run(a)
        if column is None:  # pragma: no cover - Lemma 7
            raise ConstructionError(f"{network.spec}: no room on the X lane for the job {profile(g)}")
        lane.take(column, a)
        jobs.append(Job(g, ((0, x.words[g[0]][0], column),), True))
    return _assemble(network, axes, jobs, width, len(shells))


class _XLane:
    """The X lane's cells 0..T-1: free or taken (the construction checks every X block it lays)."""

    def __init__(self, width: int):
        self.taken = bytearray(width)
        self.width = width

    def free(self, start: int, length: int) -> bool:
        """Whether cells start..start+length-1 exist and are free."""
        return 0 <= start and start + length <= self.width and not any(self.taken[start:start + length])

    def take(self, start: int, length: int) -> None:
        """Mark the cells taken; ConstructionError if one is not free (Lemma 6 says it cannot happen)."""
        if not self.free(start, length):  # pragma: no cover - Lemma 6
            raise ConstructionError(f"mirror lanes: X cells {start}..{start + length - 1} are taken")
        self.taken[start:start + length] = b"\x01" * length

    def first_free_run(self, length: int) -> int | None:
        """The first column of the first run of ``length`` free cells."""
        run = 0
        for c, t in enumerate(self.taken):
            run = 0 if t else run + 1
            if run == length:
                return c - length + 1
        return None


def _shell_jobs(left_job, right_job, left_len: int, length: int, start: int, x: Axis, y: Axis, z: Axis,
                lane: _XLane) -> list[Job]:
    """The two jobs of a shell at ``start``: the left job runs Y then Z and carries its X block before the
    shell, the right job runs Z then Y and carries its X block after it (Lemma 3)."""
    X, Y, Z = 0, 1, 2
    end = start + length
    jobs = []
    for g, on_left in ((left_job, True), (right_job, False)):
        i, j, k = g
        first, second = ((Y, y.words[j][0]), (Z, z.words[k][0])) if on_left else ((Z, z.words[k][0]), (Y, y.words[j][0]))
        if len(first[1]) != left_len:  # pragma: no cover - the shell's profiles
            raise ConstructionError(f"mirror lanes: job {g} does not fit its shell's first part ({left_len})")
        long_blocks = [(first[0], first[1], start), (second[0], second[1], start + left_len)]
        a = x.distance(i)
        x_start = start - a if on_left else end
        lane.take(x_start, a)
        blocks = tuple(bl for bl in [(X, x.words[i][0], x_start), *long_blocks] if bl[1])
        jobs.append(Job(g, blocks, True))
    return jobs


def _assemble(network: Network, axes, jobs: list[Job], width: int, shells: int) -> Table:
    placed = []
    for n, job in enumerate(jobs):
        start, word = _word_and_start(job, axes, False)
        placed.append((("job", n), start, word))
        if job.mirrored:
            start, word = _word_and_start(job, axes, True)
            placed.append((("mirror", n), start, word))
    rows = assign_rows(placed, len(network.letters))
    provenance = {"construction": {"method": CONSTRUCTION_NAME, "rule": RULE_NAME, "shells": shells}}
    return TableBuilder(instance(network, Exchange.TOTAL), "the mirror-lane construction").place_letters(
        Placement(r, c, w) for r, c, w in rows).finish(width, provenance)
