"""``tesearch view``: a table (or two) as one self-contained, offline HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from tesearch.cli.options import OVERWRITE_OPTION, input_file, limit_options, out_option
from tesearch.running.terms import ExitCode


@click.command()
@input_file("table_file")
@out_option("The page to write (.html); written atomically.", dest="output", required=True)
@click.option("--compare", "compare_file", type=click.Path(dir_okay=True, path_type=Path), default=None,
              help="A second table of the same network, drawn under the first (e.g. before and after a repack).")
@click.option("--window", default=None, metavar="START:END",
              help="Only these columns (END exclusive); needed above 10^6 cells.")
@OVERWRITE_OPTION
@limit_options(timeout_default=None)
def view(table_file, output, compare_file, window, force, limits, quiet):
    """Write TABLE_FILE as an interactive page: canvas, zoom, pan, hover, search, colour modes.

    The table is verified first (a table that fails is refused, exit 2); the page holds the
    verdict, the bounds and how the table was made, and needs no network to open.
    """
    from tesearch.running.supervise import supervise
    from tesearch.tables.view.page import build_page, page_target, write_page

    inputs = [table_file, compare_file]
    page_target(output, inputs=inputs, force=force)

    def work():
        return build_page(table_file, compare=compare_file, window=window)

    html, datasets = supervise(work, limits=limits, quiet=quiet)
    size = write_page(html, output, inputs=inputs, force=force)
    first = datasets[0]
    start, end = first["window"]
    click.echo(f"wrote {output}: {first['network']}, columns {start}-{end - 1} of {first['T']}, "
               f"{first['cells']} cells, {len(datasets)} table(s), {size} bytes")
    return ExitCode.OK
