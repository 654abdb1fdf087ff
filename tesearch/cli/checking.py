"""``tesearch verify``, ``replay``, ``certify`` and ``check-proof``: the checking side."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tesearch.cli.app import SECONDS
from tesearch.cli.options import (JSON_OPTION, OVERWRITE_OPTION, emit, input_file, limit_options, out_option,
                                  output_option)
from tesearch.running.terms import ExitCode


@click.command()
@input_file()
@click.option("--partial", is_flag=True, help="Check a core: words must be valid and distinct, targets may be missing.")
@click.option("--kernel", is_flag=True,
              help="Also check Theorem 1 with the independent checking kernel (JSON tables, up to 2^21 nodes).")
@JSON_OPTION
@limit_options(timeout_default=None)
def verify(file, partial, kernel, as_json, limits, quiet):
    """Check FILE (tesearch-table JSON, .json.gz or text) against Theorem 1 of the table method (Coolsaet, Fack
    and De Meyer, 1994, "A tabular method for verification of data exchange algorithms on networks of parallel
    processors"): every word a shortest path to its element, every target placed once, no two words of a row
    overlapping, no letter twice in a column; then T against every lower bound."""
    from tesearch.networks.groups import cached_cayley_graph
    from tesearch.tables.loading import recorded_bound_faults
    from tesearch.networks.families import network_for_table
    from tesearch.tables.segment import segmented
    from tesearch.running.supervise import supervise
    from tesearch.tables.table import read_table
    from tesearch.tables.verify import verify_table

    # reading runs supervised too: unmarked text rows need a solver (tesearch.tables.segment)
    def work():
        table = read_table(file, segmenter=segmented)
        net = network_for_table(table.network, table.generators, where=str(file))  # a wrong label names the file
        return table, verify_table(table, complete=not partial, cg=cached_cayley_graph(net))

    table, result = supervise(work, limits=limits, quiet=quiet)
    if not partial:
        data, text = result.to_json(), result.summary()
    else:
        data, text = partial_json(result), partial_summary(result)
    ok = result.ok
    faults = recorded_bound_faults(table, result)  # network facts, a core's too
    if faults:  # a wrong recorded bound is refused by every command that loads the table (tesearch.tables.loading)
        data["recorded_bound_faults"] = faults
        text += "\nWRONG RECORDED BOUND: " + "; ".join(faults)
        ok = False
    if kernel:
        report = supervise(lambda: kernel_theorem1(file, complete=not partial), limits=limits, quiet=quiet)
        data["kernel"] = {"valid": report.ok, "summary": report.summary(),
                          "violations": [v.to_json() for v in report.violations]}
        text += "\nkernel: " + report.summary()
        ok = ok and report.ok
    emit(data, as_json, text)
    return ExitCode.OK if ok else ExitCode.FAILED


def kernel_theorem1(file, *, complete: bool = True):
    """The checking kernel's Theorem-1 report on a table file: its own loader, BFS and check."""
    from tesearch.checking.kernel import MAX_CHECK_NODES, build_network, check_theorem1, load_input

    inp = load_input(file)
    net = build_network(inp.letters, inp.generators, max_nodes=MAX_CHECK_NODES, where=str(file),
                        purpose="the checking kernel's Theorem-1 check")
    return check_theorem1(inp, net, complete=complete)


def partial_json(result) -> dict:
    """A partial check's JSON: valid or not, how much is placed, and never a claim of optimality."""
    data = result.to_json()
    data.update({"partial": True, "optimal": False, "placed": result.words})
    return data


def partial_summary(result) -> str:
    """A partial check's text: VALID CORE (k of n targets placed), or the violations; never OPTIMAL."""
    lines = result.summary().splitlines()
    if not result.ok:
        return "\n".join(lines)
    body = [line for line in lines if not line.startswith("VALID")]
    return "\n".join(body + [f"VALID CORE ({result.words} of {result.targets} targets placed): every word is a "
                              "shortest word of a distinct target, no overlap, no letter twice in a column "
                              "(a partial check says nothing about optimality)"])


@click.command()
@input_file()
@click.option("--model", type=click.Choice(["all-port", "single-port"]), default=None,
              help="Port model (default: the file's 'model' key, else all-port).")
@output_option("--plot", "plot_png", help="Draw link utilisation per step to this PNG (or .svg).")
@OVERWRITE_OPTION
@click.option("--engine", type=click.Choice(["auto", "vectorised", "streaming", "reference"]), default="auto",
              show_default=True,
              help="auto: the N x N vectorised engine up to 12000 nodes, the streaming engine above.")
@JSON_OPTION
@limit_options(timeout_default=None)
def replay(file, model, plot_png, force, engine, as_json, limits, quiet):
    """Replay FILE (tesearch-table or tesearch-schedule JSON) on the whole network."""
    from tesearch.running.files import FIGURE_KIND, check_output
    from tesearch.checking.replay import load_input, plot_utilization, replay as run_replay
    from tesearch.running.supervise import supervise

    if plot_png is not None:
        check_output(plot_png, kind=FIGURE_KIND, inputs=[file], force=force)
    data = load_input(file)
    replay_label_check(data)

    def work():
        replay_bound_check(data)
        return run_replay(data, model or data.model_hint or "all-port", progress=False, engine=engine)

    report = supervise(work, limits=limits, quiet=quiet)
    if plot_png is not None:
        plot_utilization(report, plot_png, inputs=[file], force=force)
    emit(report.to_json(), as_json, report.summary())
    return ExitCode.OK if report.ok else ExitCode.FAILED


def replay_label_check(inp) -> None:
    """Refuse (GeneratorsError, exit 2) a replay input whose ``network`` label names a family whose generators
    are not the file's (``custom:NAME`` takes them as they are).

    The replay stays independent of the prover: this is :func:`tesearch.networks.families.network_for_table`
    (the family rebuilt from the registry, no sympy, no verify), applied to what the kernel's loader read.
    """
    from tesearch.networks.families import network_for_table

    network_for_table(inp.network, {s: list(p) for s, p in zip(inp.letters, inp.generators)}, where=inp.where)


def replay_bound_check(inp) -> None:
    """Refuse (exit 2) a table whose recorded ``lower_bound`` is not the counting bound, or whose recorded
    ``letter_bound`` the kernel's own per-letter bound refutes (below it, or another value where it is exact), as
    the checked loader and certify do, with the kernel's own BFS and bounds (no prover module)."""
    from tesearch.checking.kernel import build_network, kernel_bounds, target_mask
    from tesearch.running.errors import FormatError
    from tesearch.running.terms import Exchange

    if inp.lower_bound is None and inp.letter_bound is None:
        return
    net = build_network(inp.letters, inp.generators, where=inp.where)
    exchange = Exchange(inp.exchange)
    total = int(net.depth[target_mask(net, exchange)].sum())
    counting = -(-total // len(inp.letters))
    if inp.lower_bound is not None and inp.lower_bound != counting:
        raise FormatError(f"replay refuses this table: its recorded lower_bound is {inp.lower_bound}, but the "
                          f"counting bound of {inp.network} {exchange.value} is {counting}", where=inp.where)
    if inp.letter_bound is None:
        return
    kernel = kernel_bounds(net, list(inp.generators), target_mask(net, exchange))
    if kernel.refutes_letter_bound(inp.letter_bound):
        raise FormatError(f"replay refuses this table: its recorded letter_bound is {inp.letter_bound}, but the "
                          f"kernel's per-letter bound of {inp.network} {exchange.value} is {kernel.per_letter}"
                          f"{' (exact)' if kernel.per_letter_exact else ''}", where=inp.where)


@click.command("certify")
@input_file("table_file")
@click.option("--refutation", "refutations", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="An SMT-LIB2 encoding (under encodings/) that z3 finds unsat: an impossibility claim. Repeatable.")
@click.option("--word-choice", "word_choice", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A word-choice certificate (`tesearch bound NETWORK -o FILE`) whose listed words attain the "
                   "per-letter bound: cited, so that check-proof confirms the bound is attained.")
@out_option("Where to write the certificate (proofs/NAME.json).", dest="output", required=True)
@OVERWRITE_OPTION
@click.option("--name", default=None, help="The certificate's name (default: the output file's stem).")
@click.option("--solver-timeout", "solver_timeout_s", type=SECONDS, default=600.0, show_default=True,
              help="Seconds per solver run.")
@limit_options(timeout_default=None)
def certify(table_file, refutations, word_choice, output, force, name, solver_timeout_s, limits, quiet):
    """Check TABLE_FILE and the refutations now and write a proof certificate."""
    from tesearch.checking.certificate import (RefutationRequest, make_certificate, read_refutation, repository_root,
                                      write_certificate)
    from tesearch.checking.certificate.make import check_certificate_output, requested_claims
    from tesearch.running.files import CERTIFICATE_KIND, check_output
    from tesearch.tables.loading import load_checked_table
    from tesearch.running.supervise import supervise

    root = repository_root(Path.cwd())
    inputs = [table_file, *refutations, *([] if word_choice is None else [word_choice])]
    check_output(output, kind=CERTIFICATE_KIND, inputs=inputs, force=force)
    # refuse, before any work and writing nothing, what certify cannot stand behind: the label,
    # Theorem 1 and the recorded bounds (the checked loader), and each refutation's header
    table = supervise(lambda: load_checked_table(table_file, command="certify"), limits=limits, quiet=quiet)
    if word_choice is not None:
        from tesearch.checking.certificate.make import cited_word_choice

        cited_word_choice(word_choice, table)
    headers = [read_refutation(RefutationRequest(path), network=table.network, exchange=table.exchange, root=root,
                               T=table.T)[2] for path in refutations]
    # keep-better for certificates: one that claims more is never replaced by one that claims less (--force does)
    check_certificate_output(output, requested_claims(table, zip(map(RefutationRequest, refutations), headers)),
                             force=force)
    certificate = supervise(lambda: make_certificate(
        table, name=name or output.stem, table_source=str(table_file),
        refutations=[RefutationRequest(p) for p in refutations], root=root, timeout_s=solver_timeout_s,
        command="tesearch " + " ".join(sys.argv[1:]), word_choice=word_choice), limits=limits, quiet=quiet)
    write_certificate(certificate, output, inputs=inputs, force=force)
    claims = certificate["impossibility_claims"]
    click.echo(f"wrote {output}: T = {certificate['result']['T']}, "
               f"{'optimal' if certificate['result']['optimal'] else 'not shown optimal'}; "
               f"{len(claims)} impossibility claim(s)"
               + "".join(f"\n  {c['claim']}: unsat by {', '.join(c['confirmed_by'])}" for c in claims))


@click.command("check-proof")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--solver-timeout", "solver_timeout_s", type=SECONDS, default=60.0, show_default=True,
              help="Seconds per solver run.")
@click.option("--allow-unchecked", is_flag=True, help="Exit 0 when nothing is refuted, even if some claim is unchecked.")
@JSON_OPTION
@limit_options(timeout_default=None)
def check_proof(files, solver_timeout_s, allow_unchecked, as_json, limits, quiet):
    """Re-derive every claim of proof certificates FILES; one verdict per claim.

    Exit 0 if every claim is confirmed, 1 if any is refuted, 4 if none is refuted
    but some could not be checked (0 with --allow-unchecked), 2 on a malformed file.
    Uses only the checking kernel, the replay and the proof checker (docs/trusted-base.md).
    """
    from tesearch.checking.certificate.check import check_certificate
    from tesearch.running.supervise import supervise

    reports = supervise(lambda: [check_certificate(f, timeout_s=solver_timeout_s) for f in files],
                        limits=limits, quiet=quiet)
    data = [r.to_json() for r in reports]
    emit(data[0] if len(data) == 1 else data, as_json, "\n".join(r.text() for r in reports))
    if any(r.refuted for r in reports):
        return ExitCode.FAILED
    if not all(r.all_confirmed for r in reports) and not allow_unchecked:
        return ExitCode.UNKNOWN
    return ExitCode.OK
