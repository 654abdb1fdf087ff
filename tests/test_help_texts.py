"""Help texts say what a thing is (issue 30): `tesearch --help` explains the NETWORK spec grammar from the
family registry, and no command's help cites a seed paper by number alone."""

import re

import pytest

from conftest import run_cli
from tesearch.cli.app import COMMANDS
from tesearch.networks import FAMILIES, network_from_spec

#: a seed cited by number outside parentheses: "seed 003 Theorem 1" says nothing to a user, "Theorem 1 of
#: the table method (seed 003)" does
BARE_SEED = re.compile(r"(?<!\()\bseeds? \d{3}")


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


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_command_help_cites_a_seed_by_number_alone(command):
    result = run_cli(command, "--help")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert not BARE_SEED.findall(text), f"tesearch {command} --help: {BARE_SEED.findall(text)} (say what it is)"


@pytest.mark.parametrize("text, bare", [
    ("against seed 003 Theorem 1", True), ("seeds 003 and 004", True),
    ("Theorem 1 of the table method (seed 003)", False), ("the papers (seeds 003 and 004)", False),
])
def test_the_bare_citation_rule(text, bare):
    assert bool(BARE_SEED.search(text)) is bare
