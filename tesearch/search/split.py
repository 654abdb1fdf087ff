"""Splitting a rotation core into small sub-cores searched one after another.

A table at the counting bound built from rotation blocks needs a core that holds the exceptional
elements (those whose sigma-orbit is shorter than |S|) and fills its rectangle exactly.  When the
exceptional elements are many (star-9: 383 of them, 3504 letters, no blank allowed) one core is a
model no solver decides.  But nothing forces a single core: any placement whose columns hold
distinct letters is valid, so several sub-cores side by side in time are a valid core as long as
each sub-core is valid on its own.  And the counting bound is still met when every sub-core fills
its own rectangle exactly (letters + blanks = |S| x width), because the blocks have no blank.

:func:`group_orbits` cuts the exceptional sigma-orbits into groups whose letter count plus blanks
is a multiple of |S| (the one condition for a sub-core to be able to fill its rectangle; filler
orbits add |S| letters per column), each of about ``target`` letters.  The search
(:meth:`tesearch.search.core.Searcher.split_search`) then gives each group filler orbits and a
width, as the rotation search does for its one core, and fixes each sub-core once found.

What this refutes: nothing.  A group that finds no sub-core says only that this grouping failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

#: exceptional letters per sub-core the grouping aims at, in multiples of |S| (star-8's one core,
#: which CP-SAT decides in about a second, held 48 exceptional letters with |S| = 7)
DEFAULT_GROUP_COLUMNS = 6


@dataclass(frozen=True)
class OrbitGroup:
    """Exceptional sigma-orbits (indices into the list given to :func:`group_orbits`) that one sub-core holds."""

    orbits: tuple[int, ...]
    letters: int  # sum over the orbits of (orbit size x word length)
    blanks: int  # blank cells this sub-core takes (letters + blanks is a multiple of |S|)


def group_orbits(orbit_letters: Sequence[int], degree: int, blanks: int, target: int,
                 profiles: Sequence[Sequence[Sequence[int]]] | None = None) -> list[OrbitGroup]:
    """Cut orbits (given by their letter counts) into groups of about ``target`` letters whose
    letters plus blanks are multiples of ``degree``; all ``blanks`` go to the last group.

    Orbits are taken largest first.  A group closes once it holds at least ``target`` letters and
    its residue mod ``degree`` is 0; while its residue is not 0, the orbit that mends it (or, failing
    that, the largest one left) is added.  Only the last group can end with another residue, and
    the blanks mend it, because the total fills whole columns:

    >>> [(g.orbits, g.letters) for g in group_orbits([16, 12, 12, 8, 4, 4], 8, 0, 16)]
    [((0,), 16), ((1, 2), 24), ((3, 4, 5), 16)]

    With ``profiles`` (for each orbit, the letter counts, one per letter, that its choices of words
    can give), a sub-core with no blank must hold every letter equally often (fillers add the same
    count to every letter), so a group also waits until some choice levels it (up to ``2 * target``
    letters), and each orbit added is the one, with the choice, that levels it most:

    >>> [g.orbits for g in group_orbits([4, 4, 4, 4], 2, 0, 4, [[(4, 0)], [(4, 0)], [(0, 4), (4, 0)], [(0, 4)]])]
    [(0, 2), (1, 3)]
    """
    if (sum(orbit_letters) + blanks) % degree:
        raise ValueError("the orbits' letters and the blanks do not fill whole columns")
    left = sorted(range(len(orbit_letters)), key=lambda i: (-orbit_letters[i], i))
    groups: list[OrbitGroup] = []

    def spread(vector) -> int:
        return max(vector) - min(vector) if vector is not None else 0

    def best(vector, i):
        """The level-most sum of ``vector`` and one of orbit i's profiles."""
        return min(([a + b for a, b in zip(vector, option)] for option in profiles[i]), key=spread)

    while left:
        first = left.pop(0)
        chosen, letters = [first], orbit_letters[first]
        vector = min((list(o) for o in profiles[first]), key=spread) if profiles is not None else None
        while left and (letters < target or letters % degree or (spread(vector) and letters < 2 * target)):
            need = (-letters) % degree
            if vector is not None:
                pick = min(left, key=lambda i: (spread(best(vector, i)),
                                                 orbit_letters[i] % degree != need, -orbit_letters[i], i))
                vector = best(vector, pick)
            else:
                pick = next((i for i in left if need and orbit_letters[i] % degree == need), left[0])
            left.remove(pick)
            chosen.append(pick)
            letters += orbit_letters[pick]
        groups.append(OrbitGroup(tuple(sorted(chosen)), letters, 0))
    # every group but the last closed at residue 0, so the last one's letters and the blanks fill
    # whole columns (the total does)
    last = groups[-1]
    groups[-1] = OrbitGroup(last.orbits, last.letters, blanks)
    return groups
