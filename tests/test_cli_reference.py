"""docs/cli.md is the CLI's own help (issue 48: the README's hand-kept command table had drifted from it and
had grown to rows of 15 lines): the test regenerates the page and compares, so a changed help text fails here
until `python -m scripts.cli_reference` is rerun."""

from __future__ import annotations

import re

import click

from scripts.cli_reference import REFERENCE, reference_text
from tesearch.cli.app import COMMANDS, main as cli


def test_the_committed_reference_is_the_clis_help():
    assert REFERENCE.read_text() == reference_text(), \
        "docs/cli.md differs from the CLI's help: rerun python -m scripts.cli_reference"


def test_the_page_does_not_depend_on_what_ran_before_in_the_process():
    """click keeps a command's help option once built: the page is the same before and after the CLI has run
    (it differed inside the everyday run: "-h, --help" there, "--help" alone in a fresh process)."""
    from conftest import run_cli

    before = reference_text()
    for name in ("--help", *COMMANDS):
        assert run_cli(*([name, "-h"] if name in COMMANDS else [name])).exit_code == 0
    assert reference_text() == before
    assert "-h, --help" in before


def test_every_command_and_every_option_of_it_is_on_the_page():
    page = REFERENCE.read_text()
    sections = re.findall(r"^## tesearch (\S+)$", page, re.MULTILINE)
    assert sections == list(COMMANDS)
    for name in COMMANDS:
        body = page.split(f"## tesearch {name}\n", 1)[1].split("\n## ", 1)[0]
        assert f"Usage: tesearch {name} " in body
        for parameter in cli.get_command(None, name).params:
            if isinstance(parameter, click.Option):
                assert any(opt in body for opt in parameter.opts), f"{name}: {parameter.opts} not on the page"


def test_a_changed_help_text_changes_the_page(monkeypatch):
    """The comparison above can fail: a help changed in the code gives another page."""
    command = cli.get_command(None, "verify")
    monkeypatch.setattr(command, "help", (command.help or "") + " A sentence added to the help.")
    assert "A sentence added to the help." in reference_text()
    assert reference_text() != REFERENCE.read_text()
