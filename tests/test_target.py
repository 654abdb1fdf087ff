"""A command's TABLE|NETWORK target is loaded once (issue 48): tesearch.tables.loading.resolve_target decides once
whether the argument names a file or a network (and, for simulate, the table tesearch ships), Target.load checks the
table once and derives its network once, and the command passes that one object on.  Counted on simulate's path up
to its line-up: before, a spec was resolved 9 times (names_a_file twice, network_from_spec twice, packaged_table,
network_for_table twice, each deriving the network from its spec again) and a table file 6 times."""

import collections
import sys

import pytest

from conftest import ROOT, run_cli
import tesearch.data
import tesearch.networks.families
import tesearch.tables.loading
from tesearch.running.errors import TesearchError
from tesearch.tables.loading import resolve_target

RESULTS = ROOT / "results"

#: every function that decides what an argument names or derives a network from a spec, a label or a file
RESOLVERS = {
    "names_a_file": tesearch.tables.loading.names_a_file,
    "network_from_spec": tesearch.networks.families.network_from_spec,
    "network_for_table": tesearch.networks.families.network_for_table,
    "network_from_file": tesearch.networks.families.network_from_file,
    "packaged_table": tesearch.data.packaged_table,
}


@pytest.fixture
def resolutions(monkeypatch):
    """Every call of a resolver (under any name a module of the package bound it to), in order."""
    calls = []
    for name, resolver in RESOLVERS.items():
        def counted(*args, _resolver=resolver, _name=name, **kwargs):
            calls.append(_name)
            return _resolver(*args, **kwargs)
        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("tesearch") and getattr(module, name, None) is resolver:
                monkeypatch.setattr(module, name, counted)
    return calls


class _LineUp(TesearchError):
    """simulate reached its line-up: the target was loaded."""


@pytest.fixture
def simulate_until_the_line_up(monkeypatch):
    """simulate run in process up to the line-up of its contenders (SimGrid is not needed: nothing is simulated)."""
    from tesearch.schedules.simulate import lineup, smpi

    def stop(*args, **kwargs):
        raise _LineUp("the line-up")
    monkeypatch.setattr(lineup, "build_lineup", stop)
    monkeypatch.setattr(smpi, "find_tool", lambda name: name)

    def simulate(target):
        result = run_cli("simulate", target, "--quiet")
        assert result.exit_code == 2 and "the line-up" in result.stderr, result.output
    return simulate


@pytest.mark.parametrize("target,expected", [
    ("star-4", ["names_a_file", "network_from_spec", "packaged_table"]),
    (str(RESULTS / "star-4.json"), ["names_a_file", "network_for_table", "network_from_spec"]),
])
def test_simulate_resolves_its_target_once(resolutions, simulate_until_the_line_up, target, expected):
    """A spec: one decision that it is no file, its network built once, the shipped table looked up once; a table
    file: one decision, the network derived once from the table's label (network_for_table builds the spec's
    network to compare the generators)."""
    simulate_until_the_line_up(target)
    assert resolutions == expected, collections.Counter(resolutions)


def test_the_counter_sees_a_second_resolution(resolutions):
    """The instrument can fail: a command that resolved its spec twice would be counted twice."""
    resolve_target("star-4")
    tesearch.networks.families.network_from_spec("star-4")
    assert resolutions == ["names_a_file", "network_from_spec", "network_from_spec"]


def test_a_table_and_a_network_argument_load_once_for_compare(resolutions):
    from tesearch.tables.loading import network_or_checked_table

    network, table = network_or_checked_table(str(RESULTS / "ring-6.json"), command="compare")
    assert table is not None and network.spec == "ring-6"
    assert resolutions == ["names_a_file", "network_for_table", "network_from_spec"]


def test_the_loaded_target_is_the_table_its_network_and_its_verdict():
    loaded = resolve_target("ring-6", shipped=True).load(command="simulate")
    assert loaded.network.spec == loaded.table.network == "ring-6" and loaded.verdict == "OPTIMAL"
    assert loaded.check.ok


def test_a_shipped_table_of_another_network_is_refused(tmp_path, monkeypatch):
    """The network a spec resolved to is the one the table must be of: a shipped file holding another network's
    table is refused with one line (it is not silently taken as its label's)."""
    import tesearch.tables.loading as loading

    monkeypatch.setattr(loading, "packaged_table", lambda spec: RESULTS / "ring-8.json")
    with pytest.raises(loading.InvalidTableError, match="it holds a table of ring-8 total, not ring-6 total"):
        resolve_target("ring-6", shipped=True).load(command="simulate")
