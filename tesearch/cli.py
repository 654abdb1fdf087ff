"""The command line: parse, call, print.  No logic lives here.

Exit codes: 0 success; 1 a checked table or proof fails; 2 bad input; 3 the
search proved that no table meets the bound; 4 the search timed out with
nothing found.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from tesearch.errors import TesearchError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_UNSAT, EXIT_UNKNOWN = 0, 1, 2, 3, 4

EXCHANGE_OPTION = click.option("--exchange", type=click.Choice(["total", "odd-distance"]), default="total",
                               show_default=True, help="Which messages each node sends.")
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")


class _Group(click.Group):
    """Turns TesearchError into one line on stderr and its exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except TesearchError as exc:
            click.echo(f"tesearch: {exc}", err=True)
            sys.exit(exc.exit_code)
        except ValueError as exc:
            click.echo(f"tesearch: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tesearch")
def main():
    """tesearch: optimal total exchange tables on Cayley networks."""


def _emit(data: dict, as_json: bool, text: str) -> None:
    click.echo(json.dumps(data, indent=2) if as_json else text)


@main.command()
@click.argument("network")
@EXCHANGE_OPTION
@JSON_OPTION
def info(network, exchange, as_json):
    """Nodes, distances, status, bounds, rotation and exceptional words of NETWORK."""
    from tesearch.info import info_text, network_info
    from tesearch.networks import network_from_spec

    data = network_info(network_from_spec(network), exchange)
    _emit(data, as_json, info_text(data))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--partial", is_flag=True, help="Check a core: words must be valid and distinct, targets may be missing.")
@JSON_OPTION
def verify(file, partial, as_json):
    """Check FILE (tesearch-table JSON or text) against seed 003 Theorem 1."""
    from tesearch.table import read_table
    from tesearch.verify import verify_table

    result = verify_table(read_table(file), complete=not partial)
    _emit(result.to_json(), as_json, result.summary())
    sys.exit(EXIT_OK if result.ok else EXIT_FAILED)


if __name__ == "__main__":  # pragma: no cover
    main()
