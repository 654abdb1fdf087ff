"""The Instance: a network's facts computed once, shared by every strategy, and picklable for Ray tasks."""

import pickle

import pytest

from tesearch.facts.bounds import compute_bounds
from tesearch.facts.instance import instance
from tesearch.networks.rotation import find_rotation
from tesearch.search.core import SearchParams, Searcher
from tesearch.running.terms import Exchange
from tesearch.networks.words import targets


@pytest.mark.parametrize("spec,exchange", [("star-5", "total"), ("ring-8:cyclic", "total"), ("torus-3x4", "odd-distance")])
def test_the_facts_are_those_the_modules_compute(spec, exchange):
    facts = instance(spec, exchange)
    rotation = find_rotation(facts.cg)
    assert facts.exchange is Exchange(exchange)
    assert list(facts.targets) == list(targets(facts.cg, exchange))
    assert facts.bounds == compute_bounds(facts.cg, exchange, rotation)
    assert (facts.rotation is None) == (rotation is None)
    if rotation is not None:
        full, short, lengths, blanks = facts.orbit_classes
        assert sum(map(len, full)) + sum(map(len, short)) == len(facts.targets)
        assert all(len(o) == facts.cg.degree for o in full) and all(len(o) < facts.cg.degree for o in short)
        assert blanks == facts.bounds.counting * facts.cg.degree - facts.bounds.target_letters


def test_an_instance_is_computed_once_and_survives_pickling():
    facts = instance("star-5")
    bounds, rotation = facts.bounds, facts.rotation
    assert facts.bounds is bounds and facts.rotation is rotation  # kept, not recomputed
    copy = pickle.loads(pickle.dumps(facts))
    assert copy.bounds == bounds and copy.rotation.cycle == rotation.cycle and copy.spec == "star-5"
    # a searcher given the instance uses its facts instead of building its own
    searcher = Searcher(copy, SearchParams())
    assert searcher.cg is copy.cg and searcher.bounds is copy.bounds


def test_a_search_run_is_named_by_its_instance():
    """The network and the exchange come from the instance alone (the params name neither): the run's record
    says the instance's exchange."""
    searcher = Searcher(instance("star-5", "odd-distance"), SearchParams(seed=3))
    assert searcher.provenance.run.startswith("star-5 odd-distance auto cap=")
    assert searcher.provenance.seed == 3 and searcher.provenance.solver.startswith("z3 ")
