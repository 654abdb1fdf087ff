"""Write docs/cli.md, the command reference, from the CLI's own help (so the two cannot drift).

    .venv/bin/python -m scripts.cli_reference            # rewrite docs/cli.md
    .venv/bin/python -m scripts.cli_reference --check    # exit 1 when docs/cli.md differs from the help

The page is `tesearch --help` and then every subcommand's `--help`, in the order of
``tesearch.cli.app.COMMANDS``, each in an indented block, formatted by click at a fixed width so that the
page does not depend on the terminal it was made in.  tests/test_cli_reference.py regenerates it and
compares: change a help text, then rerun this script.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "cli.md"
#: the column click wraps the help at (a terminal's width would make the page depend on the machine)
HELP_WIDTH = 100
#: the indentation that makes a block of text a code block in markdown
CODE_INDENT = "    "

HEADER = """\
# Command reference

Generated from the CLI's own help by `python -m scripts.cli_reference` (tests/test_cli_reference.py fails
when this page and the help differ: after changing a help text, rerun it). Every command also takes
`--help`. What each command is for, and which one to use when, is in README.md ("Which command when");
exit codes, limits and interrupts in docs/safety.md; the `--json` reports in docs/json.md.
"""


def help_text(command: click.Command, ctx: click.Context) -> str:
    return command.get_help(ctx).rstrip()


def indented(text: str) -> str:
    return "\n".join(CODE_INDENT + line if line.strip() else "" for line in text.splitlines())


def reference_text() -> str:
    """docs/cli.md as the current CLI's help makes it."""
    from tesearch.cli.app import COMMANDS, main as cli

    # the group's own context settings (its -h/--help spelling), as `tesearch --help` runs it; subcommands inherit them
    root = click.Context(cli, info_name="tesearch", terminal_width=HELP_WIDTH, max_content_width=HELP_WIDTH,
                         **cli.context_settings)
    parts = [HEADER, "Commands: " + ", ".join(f"[{name}](#tesearch-{name})" for name in COMMANDS) + ".\n",
             "## tesearch\n", indented(help_text(cli, root)) + "\n"]
    for name in COMMANDS:
        command = cli.get_command(root, name)
        ctx = click.Context(command, info_name=name, parent=root, terminal_width=HELP_WIDTH,
                            max_content_width=HELP_WIDTH)
        parts += [f"## tesearch {name}\n", indented(help_text(command, ctx)) + "\n"]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare docs/cli.md with the help; write nothing")
    args = parser.parse_args(argv)
    text = reference_text()
    if args.check:
        if REFERENCE.exists() and REFERENCE.read_text() == text:
            print(f"{REFERENCE.relative_to(ROOT)} matches the CLI's help")
            return 0
        print(f"{REFERENCE.relative_to(ROOT)} differs from the CLI's help: rerun python -m scripts.cli_reference",
              file=sys.stderr)
        return 1
    REFERENCE.write_text(text)
    print(f"wrote {REFERENCE.relative_to(ROOT)}: {len(text.splitlines())} lines")
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
