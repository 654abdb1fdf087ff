"""``tesearch search``, ``stratify``, ``lift``, ``repack`` and ``construct``: every way to make a table.

Each command builds its table in a supervised child process (limits hold in
every phase, Ctrl-C stops it at once), and the table comes back verified.
Only then, and only with ``--out``, is a file written, under the keep-better
rule of :mod:`tesearch.outputs`.  At a time or memory limit the best verified
table offered so far is written (same rule) before the command exits 4.
"""

from __future__ import annotations

from pathlib import Path

import click

from tesearch.cli.app import NON_NEGATIVE, POSITIVE, SECONDS
from tesearch.cli.options import (EXCHANGE_OPTION, FORCE_OPTION, JSON_OPTION, emit, limit_options,
                                  output_option)
from tesearch.errors import LimitReached, OptionError, TesearchError
from tesearch.terms import ExitCode
from tesearch.words import DEFAULT_WORD_CAP

OUT_OPTION = output_option("--out", help="Write the table to this file (JSON, or text for .txt). "
                                         "Without --out the table is printed and nothing is written.")
BACKEND_CHOICES = ("z3", "cpsat")
CPSAT_MODEL_CHOICES = ("placements", "intervals")
CPSAT_MODEL_OPTION = click.option(
    "--cpsat-model", type=click.Choice(CPSAT_MODEL_CHOICES), default="placements", show_default=True,
    help="With --backend cpsat: one Boolean per (item, word, first column) (placements), or one start "
         "per item with a unit interval per letter cell and a no-overlap per letter (intervals).")


def _cpsat_model(cpsat_model: str, backend: str):
    """The CP-SAT model chosen with --cpsat-model; a model other than placements needs --backend cpsat."""
    from tesearch.backends import CpsatModel

    if cpsat_model != "placements" and backend != "cpsat":
        raise OptionError(f"--cpsat-model {cpsat_model} needs --backend cpsat")
    return CpsatModel(cpsat_model)


def _network(spec: str, limits):
    """The network of ``spec``, its size checked against ``limits`` before anything is built."""
    from tesearch.limits import activated
    from tesearch.networks import network_from_spec

    with activated(limits):
        return network_from_spec(spec)


#: output path -> its keep-better check, made under the command's limits before the work (tesearch.outputs)
_CHECKED_OUTPUTS: dict = {}


def _supervised(work, limits, quiet, out: Path | None, force: bool):
    """Run ``work`` supervised; at a limit, save the best verified table offered so far, then re-raise.

    A table already at ``out`` is read and verified first, supervised too: its time counts against
    ``--timeout`` (star-9's takes longer than a minute), and the save after the work reuses the check.
    """
    from tesearch.outputs import check_existing, save_table
    from tesearch.supervise import supervise

    if out is not None and not force and out.exists():
        _CHECKED_OUTPUTS[out] = supervise(lambda: check_existing(out), limits=limits, quiet=quiet)
    try:
        return supervise(work, limits=limits, quiet=quiet)
    except LimitReached as exc:
        best = exc.stopped.candidate if exc.stopped is not None else None
        if best is not None:
            line = f"best verified table before the limit: T = {best.T}"
            if out is not None:
                try:
                    line += "; " + save_table(best, out, force=force, existing=_CHECKED_OUTPUTS.get(out)).text(best.T)
                except TesearchError as refused:  # the limit stays the outcome (exit 4); say why nothing was written
                    line += f"; {refused}"
            click.echo(line, err=True)
        raise


def _finish_table(table, out: Path | None, force: bool, text: str, data: dict, as_json: bool) -> None:
    """Save (with --out) and print a verified table and what was said about it."""
    from tesearch.outputs import save_table

    saved = save_table(table, out, force=force, existing=_CHECKED_OUTPUTS.get(out)) if out is not None else None
    data["table"] = str(out) if saved is not None and saved.written else None
    data["kept_existing_T"] = saved.kept_T if saved is not None else None
    lines = [text]
    if saved is not None:
        lines.append(saved.text(table.T))
    emit(data, as_json, "\n".join(lines))


@click.command()
@click.argument("network")
@EXCHANGE_OPTION
@OUT_OPTION
@FORCE_OPTION
@click.option("--strategy", type=click.Choice(["auto", "rotation", "split", "full"]), default="auto",
              show_default=True,
              help="rotation: core + blocks; split: several small sub-cores + blocks (for many exceptional "
                   "elements: star-9); full: every target searched.")
@click.option("--seed", type=NON_NEGATIVE, default=0, show_default=True, help="Solver random seed.")
@click.option("--word-cap", type=POSITIVE, default=DEFAULT_WORD_CAP, show_default=True,
              help="Candidate shortest words per element.")
@click.option("--sampling", type=click.Choice(["spread", "uniform"]), default="spread", show_default=True,
              help="Which words an element with more than --word-cap offers: every 16th of the lexicographic "
                   "head (spread), or drawn uniformly from all its shortest words (uniform, seeded by --seed).")
@click.option("--core-schedule", type=click.Choice(["escalating", "patient"]), default="escalating",
              show_default=True,
              help="Rotation search: every core width and filler plan first gets 2 s, the unknown ones again "
                   "with 4x the time, pass after pass (escalating); or each attempt a third of the time left, "
                   "one pass (patient: the schedule before 2026-11-25, kept for comparison).")
@click.option("--max-width", type=POSITIVE, default=None, help="Do not look for tables wider than this.")
@click.option("--from-width", type=POSITIVE, default=None,
              help="Start the width loop here instead of at the best bound (e.g. the counting bound, to refute it).")
@click.option("--keep-encodings", type=click.Path(exists=True, file_okay=False, writable=True, path_type=Path),
              default=None, help="Write the SMT-LIB2 encoding of every refuted width into this directory.")
@click.option("--backend", type=click.Choice(BACKEND_CHOICES), default="z3", show_default=True,
              help="Solver for each width; cpsat needs the cpsat extra and its unsat is not a certificate.")
@CPSAT_MODEL_OPTION
@JSON_OPTION
@limit_options(timeout_default=300.0)
def search(network, exchange, out, force, strategy, seed, word_cap, sampling, core_schedule, max_width, from_width,
           keep_encodings, backend, cpsat_model, as_json, limits, quiet):
    """Search NETWORK for a valid table of the smallest width (exit 0 found, 3 refuted, 4 unknown)."""
    from tesearch.backends import Backend
    from tesearch.limits import log
    from tesearch.report import outcome_json, outcome_text
    from tesearch.search import CoreSchedule, SearchParams, Status, Strategy, WordSampling, search as run_search
    from tesearch.terms import Exchange

    if max_width is not None and from_width is not None and from_width > max_width:
        raise OptionError(f"--from-width {from_width} is above --max-width {max_width}")
    model = _cpsat_model(cpsat_model, backend)
    net = _network(network, limits)
    params = SearchParams(net.spec, Exchange(exchange), Strategy(strategy), limits.timeout_s, seed,
                          word_cap, max_width=max_width, min_width=from_width,
                          backend=Backend(backend), sampling=WordSampling(sampling),
                          core_schedule=CoreSchedule(core_schedule), cpsat_model=model)
    outcome = _supervised(lambda: run_search(net, params, progress=log, encodings_dir=keep_encodings),
                          limits, quiet, out, force)
    data = outcome_json(outcome)
    if outcome.table is not None:
        _finish_table(outcome.table, out, force, outcome_text(outcome), data, as_json)
    else:
        emit(data, as_json, outcome_text(outcome))
        if outcome.status is Status.UNKNOWN:
            click.echo(f"tesearch: no table: {outcome.stop_reason or 'the search stopped'}", err=True)
    return {Status.FOUND: ExitCode.OK, Status.INFEASIBLE: ExitCode.INFEASIBLE,
            Status.UNKNOWN: ExitCode.UNKNOWN}[outcome.status]


@click.command()
@click.argument("network")
@EXCHANGE_OPTION
@OUT_OPTION
@FORCE_OPTION
@click.option("--attempt-timeout", "attempt_s", type=SECONDS, default=120.0, show_default=True,
              help="Seconds for one solver call (one part, width and filler plan).")
@click.option("--seed", type=NON_NEGATIVE, default=0, show_default=True)
@click.option("--backend", type=click.Choice(BACKEND_CHOICES), default="z3", show_default=True,
              help="Solver for each part; cpsat needs the cpsat extra (it builds the wide cores Z3 stalls on).")
@CPSAT_MODEL_OPTION
@JSON_OPTION
@limit_options(timeout_default=600.0)
def stratify(network, exchange, out, force, attempt_s, seed, backend, cpsat_model, as_json, limits, quiet):
    """Symmetry-stratified search for networks with a rotation: one part per divisor of its order."""
    from tesearch.backends import Backend
    from tesearch.limits import log
    from tesearch.search.stratify import stratified_table

    model = _cpsat_model(cpsat_model, backend)
    net = _network(network, limits)
    table, summary = _supervised(
        lambda: stratified_table(net, exchange, timeout_s=limits.timeout_s, attempt_s=attempt_s, seed=seed,
                                 progress=log, backend=Backend(backend), cpsat_model=model),
        limits, quiet, out, force)
    if table is None:
        emit({"network": net.spec, "exchange": exchange, "status": "unknown"}, as_json,
             f"{net.spec} {exchange}: unknown: a part stayed unsolved within the time")
        return ExitCode.UNKNOWN
    _finish_table(table, out, force, summary, {"network": net.spec, "exchange": exchange, "status": "found",
                                               "T": table.T}, as_json)
    return ExitCode.OK


@click.command()
@click.argument("network")
@OUT_OPTION
@FORCE_OPTION
@click.option("--ring", type=NON_NEGATIVE, default=None,
              help="Which side (0-based) to split off as the ring; default: the shortest.")
@click.option("--mode", "modes", multiple=True, type=click.Choice(["fixed", "latin", "cyclic"]),
              help="Assignment mode to try, repeatable, in order [default: fixed, then latin].")
@click.option("--factor", type=click.Path(path_type=Path), default=None,
              help="A table of the torus of the other sides to lift (it must verify); default: search or lift one.")
@click.option("--backend", type=click.Choice(BACKEND_CHOICES), default="z3", show_default=True)
@click.option("--solver-timeout", "solver_s", type=SECONDS, default=120.0, show_default=True,
              help="Seconds per solver call.")
@JSON_OPTION
@limit_options(timeout_default=None)
def lift(network, out, force, ring, modes, factor, backend, solver_s, as_json, limits, quiet):
    """A table for the torus NETWORK from m copies of a table of its other sides (the ring lift)."""
    from tesearch.backends import Backend
    from tesearch.limits import log
    from tesearch.search.lift import AssignMode, lifted_table, verified_factor
    from tesearch.table import read_table

    net = _network(network, limits)
    factor_table = verified_factor(read_table(factor), where=str(factor)) if factor is not None else None
    chosen = tuple(AssignMode(m) for m in modes) if modes else (AssignMode.FIXED, AssignMode.LATIN)
    table, summary = _supervised(
        lambda: lifted_table(net, ring_index=ring, factor=factor_table, timeout_s=solver_s, modes=chosen,
                             backend=Backend(backend), progress=log), limits, quiet, out, force)
    _finish_table(table, out, force, summary, {"network": net.spec, "status": "found", "T": table.T}, as_json)
    return ExitCode.OK


@click.command()
@click.argument("network")
@OUT_OPTION
@FORCE_OPTION
@click.option("--tail", type=POSITIVE, default=None,
              help="Repack the items ending in the last TAIL columns, round by round, instead of one whole model.")
@click.option("--round", "round_s", type=SECONDS, default=60.0, show_default=True, help="Seconds per repack round.")
@click.option("--workers", type=POSITIVE, default=2, show_default=True, help="CP-SAT worker threads.")
@click.option("--word-cap", type=POSITIVE, default=DEFAULT_WORD_CAP, show_default=True,
              help="Candidate shortest words per element.")
@click.option("--seed", type=NON_NEGATIVE, default=0, show_default=True)
@click.option("--cpsat-model", type=click.Choice(CPSAT_MODEL_CHOICES), default="placements",
              show_default=True,
              help="The minimisation's CP-SAT model (as search's --cpsat-model; also with --rotation-core); "
                   "not with --tail.")
@click.option("--start", type=click.Path(path_type=Path), default=None,
              help="Start from this table of NETWORK (total exchange; it must verify) instead of the greedy one.")
@click.option("--rotation-core", is_flag=True,
              help="Narrow the rotation search's greedy-core table instead: only its core (the exceptional "
                   "elements) is modelled, round by round, so it reaches star-9, star-10 and large tori.")
@EXCHANGE_OPTION
@JSON_OPTION
@limit_options(timeout_default=300.0)
def repack(network, out, force, tail, round_s, workers, word_cap, seed, cpsat_model, start, rotation_core, exchange,
           as_json, limits, quiet):
    """The greedy table of NETWORK narrowed by CP-SAT (needs the cpsat extra; its bound is no certificate)."""
    from tesearch.backends import CpsatModel
    from tesearch.limits import log

    if tail is not None and cpsat_model != "placements":
        raise OptionError(f"--cpsat-model {cpsat_model} is for the whole model: leave out --tail")
    if rotation_core and (tail is not None or start is not None):
        raise OptionError("--rotation-core narrows the rotation search's core: leave out --tail and --start "
                          "(they are for the full greedy table): choose one")
    if not rotation_core and exchange != "total":
        raise OptionError(f"--exchange {exchange} needs --rotation-core (the full greedy repack is for total "
                          f"exchange)")
    net = _network(network, limits)
    if rotation_core:
        from tesearch.search.narrow import narrowed_core_table

        work = lambda: narrowed_core_table(net, exchange, timeout_s=limits.timeout_s, round_s=round_s,  # noqa: E731
                                           word_cap=word_cap, seed=seed, workers=workers, progress=log,
                                           cpsat_model=CpsatModel(cpsat_model))
    else:
        from tesearch.search.improve import improve_greedy

        first = None
        if start is not None:
            from tesearch.table import read_table
            from tesearch.verify import verify_table

            first = read_table(start)
            check = verify_table(first)
            if not check.ok:
                raise TesearchError(f"the starting table does not verify ({len(check.violations)} violation(s)); "
                                    f"first: {check.violations[0]}", where=str(start))
            if first.network != net.spec or first.exchange != "total":
                raise OptionError(f"{start}: a {first.exchange} table of {first.network}, not a total table of "
                                  f"{net.spec}")
        work = lambda: improve_greedy(net, timeout_s=limits.timeout_s, word_cap=word_cap, seed=seed,  # noqa: E731
                                      workers=workers, tail=tail, round_s=round_s, progress=log,
                                      cpsat_model=CpsatModel(cpsat_model), start=first)
    table, summary = _supervised(work, limits, quiet, out, force)
    if table is None:
        emit({"network": net.spec, "status": "unknown"}, as_json, summary)
        return ExitCode.UNKNOWN
    _finish_table(table, out, force, summary, {"network": net.spec, "status": "found", "T": table.T}, as_json)
    return ExitCode.OK


@click.command()
@click.argument("network")
@EXCHANGE_OPTION
@OUT_OPTION
@FORCE_OPTION
@JSON_OPTION
@limit_options(timeout_default=None)
def construct(network, exchange, out, force, as_json, limits, quiet):
    """An optimal table by construction, no solver: hypercube doubling, mirror lanes for the regular
    torus m x n x n (4 | m < n, n even), seed 003's rings and tori, seed 004's odd-distance stars."""
    from tesearch.constructions import constructed_table

    net = _network(network, limits)
    table, summary = _supervised(lambda: constructed_table(net, exchange), limits, quiet, out, force)
    _finish_table(table, out, force, summary, {"network": net.spec, "exchange": exchange, "status": "found",
                                               "T": table.T}, as_json)
    return ExitCode.OK
