"""Help texts say what a thing is (issue 30): `tesearch --help` explains the NETWORK spec grammar from the
family registry, and no help cites a seed paper by number: a user has no seeds, so papers are named (issue 40)."""

import re

import pytest

from conftest import run_cli
from tesearch.cli.app import COMMANDS
from tesearch.networks.families import FAMILIES, network_from_spec

#: a seed cited by number: "seed 003 Theorem 1" or "(seed 003)" says nothing to a user, who has no seeds; the
#: help names the paper (authors, year, title)
SEED_NUMBER = re.compile(r"\bseeds? 0\d\d", re.IGNORECASE)


@pytest.fixture(scope="module")
def group_help():
    result = run_cli("--help")
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # click wraps lines: compare with whitespace collapsed


def test_the_group_help_names_every_family_with_its_form_suffixes_and_examples(group_help):
    assert "FAMILY-PARAMS[:GROUP]" in group_help
    for family in FAMILIES.values():
        form = f"{family.name}-{family.params.partition(' (')[0]}"
        assert form in group_help, f"tesearch --help does not show {form}"
        for suffix in family.groups:
            assert f":{suffix}" in group_help or f"|{suffix}" in group_help, f"{family.name}: :{suffix} missing"
        for example in family.examples:
            assert example in group_help
            network_from_spec(example)  # every example shown is a spec the parser takes


def test_the_group_help_explains_generator_files_and_the_group_default(group_help):
    assert "file of generators" in group_help and "file:PATH" in group_help and "custom:" in group_help
    assert "without it, dihedral for even sides of at least 4, else cyclic" in group_help
    network_from_spec("torus-6x5:dihedral,cyclic")  # the per-side example the help gives


@pytest.mark.parametrize("command", [None, *sorted(COMMANDS)])
def test_no_help_cites_a_seed_by_number(command):
    result = run_cli(*([command] if command else []), "--help")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert not SEED_NUMBER.findall(text), f"tesearch {command or ''} --help: {SEED_NUMBER.findall(text)} (name the paper)"


@pytest.mark.parametrize("command, paper", [
    ("verify", "A tabular method for verification of data exchange algorithms on networks of parallel processors"),
    ("regress", "Optimal data exchange algorithms on star graphs"),
    ("singleport", "Optimal total exchange in Cayley graphs"),
    ("singleport", "A theory for total exchange in multidimensional interconnection networks"),
    ("construct", "Optimal data exchange algorithms on star graphs"),
])
def test_the_help_names_the_paper(command, paper):
    text = " ".join(run_cli(command, "--help").output.split())
    assert paper in text


@pytest.mark.parametrize("text, cites", [
    ("against seed 003 Theorem 1", True), ("seeds 003 and 004", True), ("Theorem 1 of the table method (seed 003)", True),
    ("Theorem 1 of Coolsaet, Fack and De Meyer (1994)", False), ("--seed 3", False),
])
def test_the_seed_number_rule(text, cites):
    assert bool(SEED_NUMBER.search(text)) is cites
