"""``tesearch draw``, ``regress`` and ``singleport``: pictures, the seeds' tables, single-port schedules."""

from __future__ import annotations

import json

import click

from tesearch.cli.options import JSON_OPTION, emit, input_file, limit_options, output_option
from tesearch.terms import ExitCode


@click.command()
@input_file()
@output_option("-o", "--output", required=True, help="Picture to write: .png or .svg.")
@click.option("--window", default=None, metavar="START:END", help="Columns to draw (END exclusive).")
def draw(file, output, window):
    """Draw the table in FILE as a grid: one colour per letter, word boundaries, blanks, sections."""
    from tesearch.draw import draw_table, parse_window
    from tesearch.table import read_table

    table = read_table(file)
    start, end = draw_table(table, output, parse_window(window, table.T))
    click.echo(f"wrote {output} (columns {start}-{end - 1} of {table.T})")


@click.command()
@JSON_OPTION
@click.option("--no-constructions", is_flag=True, help="Only the printed tables, not the general constructions.")
@limit_options(timeout_default=None)
def regress(as_json, no_constructions, limits, quiet):
    """Check every table printed in seeds 003 and 004, and the papers' general constructions."""
    from tesearch.published.regress import Finding, regress_text, run_regress
    from tesearch.supervise import supervise

    rows = supervise(lambda: run_regress(constructions=not no_constructions), limits=limits, quiet=quiet)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in rows], indent=2))
    else:
        click.echo(regress_text(rows))
    return ExitCode.OK if all(r.verdict is not Finding.INVALID for r in rows) else ExitCode.FAILED


@click.command()
@click.argument("network")
@click.option("--algorithm", type=click.Choice(["fifo", "a2"]), default="fifo", show_default=True,
              help="fifo: seed 000 node-invariant FIFO; a2: seed 001 Algorithm A2 (product networks).")
@output_option("--out", help="Write the schedule (tesearch-schedule JSON).")
@JSON_OPTION
@limit_options(timeout_default=None)
def singleport(network, algorithm, out, as_json, limits, quiet):
    """Single-port total exchange on NETWORK: schedule, time vs status bound, replay verdict."""
    from tesearch.files import write_atomically
    from tesearch.limits import activated
    from tesearch.networks import network_from_spec
    from tesearch.singleport import run_singleport
    from tesearch.supervise import supervise

    with activated(limits):
        net = network_from_spec(network)
    run = supervise(lambda: run_singleport(net, algorithm, progress=not quiet), limits=limits, quiet=quiet)
    if out is not None:
        write_atomically(out, json.dumps(run.schedule_json) + "\n")
    emit(run.to_json(), as_json, run.summary())
    return ExitCode.OK if run.ok else ExitCode.FAILED
