"""experiments/lp_bound.py, the LP relaxation of the table model (a measurement quoted in
docs/notes/frontier.md): on small networks its threshold is the best lower bound."""

import pytest

from experiments import lp_bound as lp

pytest.importorskip("ortools")


@pytest.mark.parametrize("spec,bound", [("pancake-4", 20), ("bubblesort-4", 24), ("ring-6:cyclic", 5)])
def test_lp_is_infeasible_below_the_bound_and_feasible_at_it(spec, bound):
    pricing = lp.Pricing(spec)
    below, _, _ = lp.lp_value(pricing, bound - 1)
    at, _, _ = lp.lp_value(pricing, bound)
    assert below < len(pricing.targets) - 1e-6
    assert at == pytest.approx(len(pricing.targets))


def test_lp_of_a_width_below_the_longest_word_is_zero():
    pricing = lp.Pricing("pancake-4")
    assert lp.lp_value(pricing, 3)[0] < len(pricing.targets)
