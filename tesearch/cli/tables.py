"""``tesearch draw``, ``regress`` and ``singleport``: pictures, the papers' tables, single-port schedules."""

from __future__ import annotations

import json

import click

from tesearch.cli.options import JSON_OPTION, OVERWRITE_OPTION, emit, input_file, limit_options, out_option
from tesearch.running.terms import ExitCode


#: what draw shows without --window: tesearch.tables.draw.MAX_DETAIL_COLUMNS (not imported here: it loads matplotlib)
DRAW_DEFAULT_COLUMNS = 80


@click.command()
@input_file()
@out_option("Picture to write: .png or .svg.", dest="output", required=True)
@OVERWRITE_OPTION
@click.option("--window", default=None, metavar="START:END",
              help=f"Columns to draw cell by cell (END exclusive). Without it: columns 0-{DRAW_DEFAULT_COLUMNS - 1} "
                   f"(the first {DRAW_DEFAULT_COLUMNS}, or all of a narrower table); a cropped drawing has a strip "
                   "under the grid showing the whole table with the window outlined.")
@limit_options(timeout_default=None)
def draw(file, output, force, window, limits, quiet):
    """Draw the table in FILE as a grid: one colour per letter, word boundaries, blanks, sections."""
    from tesearch.tables.draw import draw_table, parse_window
    from tesearch.running.files import FIGURE_KIND, check_output
    from tesearch.tables.loading import load_checked_table

    check_output(output, kind=FIGURE_KIND, inputs=[file], force=force)
    table = load_checked_table(file, command="draw")
    start, end = draw_table(table, output, parse_window(window, table.T), inputs=[file], force=force)
    click.echo(f"wrote {output} (columns {start}-{end - 1} of {table.T})")


@click.command()
@JSON_OPTION
@click.option("--no-constructions", is_flag=True, help="Only the printed tables, not the general constructions.")
@limit_options(timeout_default=None)
def regress(as_json, no_constructions, limits, quiet):
    """Check every table printed in Coolsaet, Fack and De Meyer (1994), "A tabular method for verification of
    data exchange algorithms on networks of parallel processors", and Coolsaet and Fack (1994), "Optimal data
    exchange algorithms on star graphs", and the papers' general constructions."""
    from tesearch.checking.published.regress import Finding, regress_text, run_regress
    from tesearch.running.supervise import supervise

    rows = supervise(lambda: run_regress(constructions=not no_constructions), limits=limits, quiet=quiet)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in rows], indent=2))
    else:
        click.echo(regress_text(rows))
    return ExitCode.OK if all(r.verdict is not Finding.INVALID for r in rows) else ExitCode.FAILED


@click.command()
@click.argument("network")
@click.option("--algorithm", type=click.Choice(["fifo", "a2"]), default="fifo", show_default=True,
              help="fifo: the node-invariant FIFO schedule of Dimakopoulos and Dimopoulos (2001), \"Optimal total "
                   "exchange in Cayley graphs\"; a2: Algorithm A2 for product networks of Dimakopoulos and "
                   "Dimopoulos (1998), \"A theory for total exchange in multidimensional interconnection networks\".")
@out_option("Write the schedule (tesearch-schedule JSON, .json).")
@OVERWRITE_OPTION
@JSON_OPTION
@limit_options(timeout_default=None)
def singleport(network, algorithm, out, force, as_json, limits, quiet):
    """Single-port total exchange on NETWORK (a spec, a generators file or a table): schedule, time vs
    status bound, replay verdict."""
    from tesearch.running.files import SCHEDULE_KIND, check_output, write_output
    from tesearch.running.limits import activated
    from tesearch.tables.loading import network_or_checked_table, resolve_target
    from tesearch.schedules.singleport import run_singleport
    from tesearch.running.supervise import supervise

    with activated(limits):  # a spec's order is checked against --max-order as it is read
        target = resolve_target(network)  # once: a spec, or a file (a table or generators) that is never written
    inputs = [target.path] if target.path is not None else []
    if out is not None:
        check_output(out, kind=SCHEDULE_KIND, inputs=inputs, force=force)
    with activated(limits):
        net, _ = supervise(lambda: network_or_checked_table(target, command="singleport"), limits=limits,
                           quiet=quiet)
    run = supervise(lambda: run_singleport(net, algorithm, progress=not quiet), limits=limits, quiet=quiet)
    if out is not None:
        write_output(out, json.dumps(run.schedule_json) + "\n", kind=SCHEDULE_KIND, inputs=inputs, force=force)
    emit(run.to_json(), as_json, run.summary())
    return ExitCode.OK if run.ok else ExitCode.FAILED
