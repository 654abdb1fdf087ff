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

from tesearch.backends import Backend
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


@main.command()
@click.argument("network")
@EXCHANGE_OPTION
@click.option("--timeout", "timeout_s", type=float, default=300.0, show_default=True, help="Seconds for the whole search.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the table (default results/NETWORK[-odd].json).")
@click.option("--strategy", type=click.Choice([s.value for s in __import__("tesearch.search", fromlist=["Strategy"]).Strategy]),
              default="auto", show_default=True, help="rotation: core + blocks; full: every target searched.")
@click.option("--seed", type=int, default=0, show_default=True, help="Solver random seed (runs are deterministic).")
@click.option("--word-cap", type=int, default=24, show_default=True, help="Candidate shortest words per element.")
@click.option("--max-width", type=int, default=None, help="Do not look for tables wider than this.")
@click.option("--from-width", type=int, default=None,
              help="Start the width loop here instead of at the best bound (e.g. the counting bound, to refute it).")
@click.option("--keep-encodings", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write the SMT-LIB2 encoding of every refuted width here.")
@click.option("--backend", type=click.Choice([b.value for b in Backend]), default=Backend.Z3.value, show_default=True,
              help="Solver for each width; cpsat needs ortools and its unsat is not a certificate.")
@click.option("--keep-better", is_flag=True,
              help="Leave the output file alone when it already holds a valid table of this network and exchange "
                   "that is no wider (reruns never replace a better table).")
@click.option("--quiet", is_flag=True, help="No progress lines.")
@JSON_OPTION
def search(network, exchange, timeout_s, out, strategy, seed, word_cap, max_width, from_width, keep_encodings, backend,
           keep_better, quiet, as_json):
    """Search NETWORK for a valid table of the smallest width and write it."""
    from tesearch.networks import network_from_spec
    from tesearch.report import default_table_path, outcome_json, outcome_text
    from tesearch.search import SearchParams, Status, Strategy, search as run_search
    from tesearch.table import write_table
    from tesearch.verify import verify_table
    from tesearch.words import Exchange

    net = network_from_spec(network)
    params = SearchParams(net.spec, Exchange(exchange), Strategy(strategy), timeout_s, seed, word_cap,
                          max_width=max_width, min_width=from_width, backend=Backend(backend))
    progress = (lambda msg: None) if quiet else (lambda msg: click.echo(msg, err=True))
    outcome = run_search(net, params, progress=progress, encodings_dir=keep_encodings)
    path = None
    if outcome.table is not None:
        check = verify_table(outcome.table, cg=None)
        if not check.ok:  # never write a table that does not verify
            click.echo(f"tesearch: internal error: the table found does not verify: {check.violations[0]}", err=True)
            sys.exit(EXIT_FAILED)
        path = out or default_table_path(net.spec, params.exchange)
        kept = _no_wider_table_at(path, outcome.table) if keep_better else None
        if kept is None:
            write_table(outcome.table, path)
        else:
            click.echo(f"tesearch: kept {path}: it already holds a valid table with T = {kept.T} "
                       f"(this search: T = {outcome.T})", err=True)
    data = outcome_json(outcome, path)
    if path is not None and keep_better:
        data["kept_existing_T"] = kept.T if kept is not None else None
    _emit(data, as_json, outcome_text(outcome, path))
    sys.exit({Status.FOUND: EXIT_OK, Status.INFEASIBLE: EXIT_UNSAT, Status.UNKNOWN: EXIT_UNKNOWN}[outcome.status])


def _no_wider_table_at(path: Path, found):
    """The table already at ``path`` if it is a valid table of the same network and exchange no wider than
    ``found``; None otherwise (no file, another network, wider, unreadable or invalid: then it is replaced)."""
    from tesearch.table import read_table
    from tesearch.verify import verify_table

    if not path.exists():
        return None
    try:
        old = read_table(path)
    except TesearchError:
        return None
    if (old.network, old.exchange) != (found.network, found.exchange) or old.T > found.T:
        return None
    return old if verify_table(old).ok else None


@main.command()
@JSON_OPTION
@click.option("--no-constructions", is_flag=True, help="Only the printed tables, not the general constructions.")
def regress(as_json, no_constructions):
    """Check every table printed in seeds 003 and 004, and the papers' general constructions."""
    from tesearch.published.regress import Verdict, regress_text, run_regress

    rows = run_regress(constructions=not no_constructions)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in rows], indent=2))
    else:
        click.echo(regress_text(rows))
    sys.exit(EXIT_OK if all(r.verdict is not Verdict.INVALID for r in rows) else EXIT_FAILED)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Picture to write: .png or .svg.")
@click.option("--window", default=None, metavar="START:END", help="Columns to draw (END exclusive).")
def draw(file, output, window):
    """Draw the table in FILE as a grid: one colour per letter, word boundaries, blanks, sections."""
    from tesearch.draw import draw_table, parse_window
    from tesearch.table import read_table

    table = read_table(file)
    start, end = draw_table(table, output, parse_window(window, table.T))
    click.echo(f"wrote {output} (columns {start}-{end - 1} of {table.T})")


@main.command("certify")
@click.argument("table_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--refutation", "refutations", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="An SMT-LIB2 encoding (under encodings/) that z3 finds unsat: an impossibility claim. Repeatable.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Where to write the certificate (proofs/NAME.json).")
@click.option("--name", default=None, help="The certificate's name (default: the output file's stem).")
@click.option("--timeout", "timeout_s", type=float, default=600.0, show_default=True, help="Seconds per solver run.")
def certify(table_file, refutations, output, name, timeout_s):
    """Check TABLE_FILE and the refutations now and write a proof certificate."""
    from tesearch.certificate import RefutationRequest, make_certificate, repository_root, write_certificate
    from tesearch.table import read_table

    root = repository_root(Path.cwd())
    certificate = make_certificate(
        read_table(table_file), name=name or output.stem, table_source=str(table_file),
        refutations=[RefutationRequest(p) for p in refutations], root=root, timeout_s=timeout_s,
        command="tesearch " + " ".join(sys.argv[1:]))
    write_certificate(certificate, output)
    claims = certificate["impossibility_claims"]
    click.echo(f"wrote {output}: T = {certificate['result']['T']}, "
               f"{'optimal' if certificate['result']['optimal'] else 'not shown optimal'}; "
               f"{len(claims)} impossibility claim(s)"
               + "".join(f"\n  {c['claim']}: unsat by {', '.join(c['confirmed_by'])}" for c in claims))


@main.command("check-proof")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--timeout", "timeout_s", type=float, default=60.0, show_default=True, help="Seconds per solver run.")
@click.option("--allow-unchecked", is_flag=True, help="Exit 0 when nothing is refuted, even if some claim is unchecked.")
@JSON_OPTION
def check_proof(files, timeout_s, allow_unchecked, as_json):
    """Re-derive every claim of proof certificates FILES; one verdict per claim.

    Exit 0 if every claim is confirmed, 1 if any is refuted, 4 if none is refuted
    but some could not be checked (0 with --allow-unchecked), 2 on a malformed file.
    """
    from tesearch.certificate import check_certificate

    reports = [check_certificate(f, timeout_s=timeout_s) for f in files]
    data = [r.to_json() for r in reports]
    _emit(data[0] if len(data) == 1 else data, as_json, "\n".join(r.text() for r in reports))
    if any(r.refuted for r in reports):
        sys.exit(EXIT_FAILED)
    if not all(r.all_confirmed for r in reports) and not allow_unchecked:
        sys.exit(EXIT_UNKNOWN)
    sys.exit(EXIT_OK)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--model", type=click.Choice(["all-port", "single-port"]), default=None,
              help="Port model (default: the file's 'model' key, else all-port).")
@click.option("--plot", "plot_png", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Draw link utilisation per step to this PNG.")
@click.option("--engine", type=click.Choice(["auto", "vectorised", "streaming", "reference"]), default="auto",
              show_default=True,
              help="auto: the N x N vectorised engine up to 12000 nodes, the streaming engine above.")
@JSON_OPTION
def replay(file, model, plot_png, engine, as_json):
    """Replay FILE (tesearch-table or tesearch-schedule JSON) on the whole network."""
    from tesearch.replay import plot_utilization, replay_file

    report = replay_file(file, model, progress=True, engine=engine)
    if plot_png is not None:
        plot_utilization(report, plot_png)
    _emit(report.to_json(), as_json, report.summary())
    sys.exit(EXIT_OK if report.ok else EXIT_FAILED)


@main.command()
@click.argument("network")
@click.option("--algorithm", type=click.Choice(["fifo", "a2"]), default="fifo", show_default=True,
              help="fifo: seed 000 node-invariant FIFO; a2: seed 001 Algorithm A2 (product networks).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the schedule (tesearch-schedule JSON).")
@JSON_OPTION
def singleport(network, algorithm, out, as_json):
    """Single-port total exchange on NETWORK: schedule, time vs status bound, replay verdict."""
    from tesearch.networks import network_from_spec
    from tesearch.singleport import run_singleport
    from tesearch.table import atomic_write

    run = run_singleport(network_from_spec(network), algorithm, progress=True)
    if out is not None:
        atomic_write(out, json.dumps(run.schedule_json) + "\n")
    _emit(run.to_json(), as_json, run.summary())
    sys.exit(EXIT_OK if run.ok else EXIT_FAILED)


if __name__ == "__main__":  # pragma: no cover
    main()
