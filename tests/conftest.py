import pytest

from tesearch.groups import cached_cayley_graph
from tesearch.networks import network_from_spec


@pytest.fixture(scope="session")
def graph():
    """graph(spec) -> the CayleyGraph, built once per session."""
    return lambda spec: cached_cayley_graph(network_from_spec(spec))
