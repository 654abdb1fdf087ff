"""experiments/star_structure.py: the rotation core of star-n for n - 1 prime (facts 1-4 of its docstring)."""

from __future__ import annotations

import itertools

from experiments.star_structure import clash, core_facts, progression_step, table_core


def test_star_6_core_is_the_powers_of_the_5_cycle_each_with_its_5_progressions():
    facts = core_facts(6)
    assert len(facts["exceptional"]) == 4 and sorted(facts["steps"].values()) == [1, 2, 3, 4]
    assert facts["letters"] % 5 == 4 and facts["blank_at_bound"] == 1
    assert progression_step((1, 2, 3, 4, 0, 1), 5) == 1 and progression_step((1, 2, 3, 4, 0, 2), 5) is None


def test_two_progressions_of_different_steps_clash_when_they_overlap_in_p_columns():
    """Brute force over p = 5 and 7: every placement of two words with different steps that overlap in at
    least p columns shares a letter in a column; at overlap p - 1 some placements do not."""
    for p in (5, 7):
        spared_at = set()
        for sa, sb in itertools.permutations(range(1, p), 2):
            for fa, fb in itertools.product(range(p), repeat=2):
                for shift in range(0, p + 1):
                    overlap = p + 1 - shift
                    hit = clash(sa, 0, fa, sb, shift, fb, p)
                    if overlap >= p:
                        assert hit, (p, sa, sb, fa, fb, shift)
                    elif not hit:
                        spared_at.add(overlap)
        assert p - 1 in spared_at


def test_the_committed_star_6_table_staggers_its_core_words():
    seen = table_core(6, core_facts(6))
    starts = [column for column, _, _, _ in seen["core"]]
    assert seen["clashes"] == 0 and seen["max_overlap"] < 5 and seen["blanks"] == 1
    assert all(b - a >= 2 for a, b in zip(starts, starts[1:]))
    assert seen["span"][1] - seen["span"][0] + 1 >= 3 * 5 - 3
