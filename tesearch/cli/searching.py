"""``tesearch search``, ``stratify``, ``lift``, ``repack``, ``narrow`` and ``construct``: every way to make a table.

Each command builds its table in a supervised child process (limits hold in
every phase, Ctrl-C stops it at once), and the table comes back verified.
Only then, and only with ``--out``, is a file written, under the keep-better
rule of :mod:`tesearch.tables.outputs`.  At a time or memory limit the best verified
table offered so far is written (same rule) before the command exits 4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import click

from tesearch.cli.app import NON_NEGATIVE, POSITIVE, SECONDS, SEED, WORKERS
from tesearch.cli.options import (EXCHANGE_OPTION, FORCE_OPTION, JSON_OPTION, SEARCH_TIMEOUT_S, emit,
                                  limit_options, out_option, solver_option, solver_parts)
from tesearch.running.errors import LimitReached, OptionError, TesearchError
from tesearch.networks.symmetry import THE_ROTATION
from tesearch.search.ejection import DEFAULT_EXCESS_PENALTY, DEFAULT_TENURE, MAX_EXCESS_PENALTY
from tesearch.running.terms import CoreModel, ExitCode, Status
from tesearch.networks.words import DEFAULT_WORD_CAP

OUT_OPTION = out_option("Write the table to this file (JSON, or text for .txt). "
                        "Without -o/--out the table is printed and nothing is written.")
#: the CP-SAT solvers (repack and narrow minimise with CP-SAT only)
CPSAT_SOLVERS = ("cpsat", "cpsat-intervals")
SYMMETRY_OPTION = click.option(
    "--symmetry", default=THE_ROTATION, show_default=True, metavar="NAME",
    help="The letter group whose free orbits become the blocks: cyclic (the network's rotation) or a group of "
         "order |S| acting regularly on the letters as automorphisms (C4, C2xC2; S3; C8, C4xC2, C2^3, D4, Q8 on "
         "star-9, ...; a bad name lists the valid ones).")


def check_symmetry_name(name: str, degree: int) -> None:
    """OptionError (exit 2) unless ``name`` is a --symmetry value for ``degree`` letters (before any work;
    whether the group acts as automorphisms is checked when the network's graph is built)."""
    from tesearch.networks.symmetry import symmetry_names

    valid = symmetry_names(degree)
    if name not in valid:
        raise OptionError(f"--symmetry {name}: no such group of order {degree} (the number of letters); "
                          f"valid: {', '.join(valid)}")


def _network(spec: str, limits):
    """The network of ``spec``, its size checked against ``limits`` before anything is built."""
    from tesearch.running.limits import activated
    from tesearch.networks.families import network_from_spec

    with activated(limits):
        return network_from_spec(spec)


def _inputs(network: str, *files: Path | None) -> list:
    """The command's input files, never written: NETWORK when it names a file, and the table options given."""
    from tesearch.tables.loading import names_a_file

    return ([network.removeprefix("file:")] if names_a_file(network) else []) + [f for f in files if f is not None]


#: a table-making command's exit code by its outcome's status
EXIT_CODES = {Status.FOUND: ExitCode.OK, Status.INFEASIBLE: ExitCode.INFEASIBLE, Status.UNKNOWN: ExitCode.UNKNOWN}


def _make_table(made, net, exchange: str, *, out: Path | None, force: bool, inputs, limits, quiet: bool,
                as_json: bool, text: Callable | None = None):
    """Run the registry's strategy ``made`` on the instance of ``net`` and ``exchange``, supervised, and report
    its outcome (``text`` words it for people; default: its summary): the outcome.

    ``--out`` is checked first (tesearch.tables.outputs.check_table_output: never an input, a link or a device, an
    extension that fits, not over a file that is no table without --force), before any work starts.
    A table already at ``out`` is read and verified first, supervised too: its time counts against
    ``--timeout`` (star-9's takes longer than a minute), and the save after the work reuses the check.
    A file there that no table of this network could replace (another network's table, an invalid one) is
    refused then, before the work (tesearch.tables.outputs.refuse_unreplaceable), as the save after it would be.
    At a time or memory limit the best verified table offered so far is saved, then the limit is re-raised;
    a table offered for another network (a lift's factor, searched on the way) or another exchange is never
    written or shown.  A verified table comes back with the outcome and is saved (with --out) and printed.
    """
    from tesearch.facts.instance import instance
    from tesearch.running.limits import Budget
    from tesearch.tables.outputs import check_existing, check_table_output, refuse_unreplaceable, save_table
    from tesearch.running.supervise import supervise

    existing = None
    if out is not None:
        check_table_output(out, inputs=inputs, force=force)
        if not force and out.exists():
            existing = supervise(lambda: check_existing(out), limits=limits, quiet=quiet)
            refuse_unreplaceable(existing, net.spec, exchange, net.generators)
    try:
        outcome = supervise(lambda: made.run(instance(net, exchange), Budget.current()), limits=limits, quiet=quiet)
    except LimitReached as exc:
        best = exc.stopped.candidate if exc.stopped is not None else None
        if best is not None and (best.network, best.exchange) != (net.spec, exchange):
            best = None  # e.g. the factor table a lift was building on: not a table of this network
        if best is not None:
            route = (best.extra.get("search") or best.extra.get("construction") or {}).get("route")
            line = f"best verified table before the limit: T = {best.T}" + (
                f" (route {route['made_by']})" if route else "")
            if out is not None:
                try:
                    line += "; " + save_table(best, out, force=force, inputs=inputs, existing=existing).text(best.T)
                except TesearchError as refused:  # the limit stays the outcome (exit 4); say why nothing was written
                    line += f"; {refused}"
            click.echo(line, err=True)
        raise
    data = {**outcome.to_json(), "network": net.spec, "exchange": exchange}
    shown = text(outcome) if text is not None else outcome.summary
    if outcome.table is None:
        emit(data, as_json, shown)
        return outcome
    table = outcome.table
    if (table.network, table.exchange) != (net.spec, exchange):
        raise AssertionError(f"a {table.exchange} table of {table.network} came back for {net.spec} {exchange}")
    saved = save_table(table, out, force=force, inputs=inputs, existing=existing) if out is not None else None
    data["table"] = str(out) if saved is not None and saved.written else None
    data["kept_existing_T"] = saved.kept_T if saved is not None else None
    emit(data, as_json, shown if saved is None else f"{shown}\n{saved.text(table.T)}")
    return outcome


@click.command()
@click.argument("network")
@EXCHANGE_OPTION
@OUT_OPTION
@FORCE_OPTION
@click.option("--strategy", type=click.Choice(["best", "auto", "rotation", "split", "full", "ejection"]),
              default="best",
              show_default=True,
              help="best: the best table tesearch knows how to make, route by route until one meets the bound: a "
                   "construction, a ring lift over a factor table that exists, then the rotation search, the "
                   "stratification, the split and full searches, the CP-SAT repack and the large-neighbourhood "
                   "search from the narrowest table so far, within --timeout; it says "
                   "which route made the table and why the earlier ones did not. auto: rotation where it can meet "
                   "the bound, else full; rotation: core + blocks; split: several small sub-cores + blocks (for many "
                   "exceptional elements: star-9); full: every target searched; ejection: every shortest word of every "
                   "target placed by min-conflicts, width after width below the best table so far (no solver; "
                   "from --start or a first fit; it runs until --timeout or the bound).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Solver random seed.")
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
@click.option("--max-width", type=POSITIVE, default=None,
              help="Return no table wider than this (every strategy); below the best bound: infeasible by the bound.")
@click.option("--from-width", type=POSITIVE, default=None,
              help="Start the full strategy's width loop here instead of at the best bound (e.g. the counting "
                   "bound, to refute it); best and auto then run the full strategy, rotation and split refuse it. "
                   "Above the greedy table's width: a usage error.")
@click.option("--keep-encodings", type=click.Path(exists=True, file_okay=False, writable=True, path_type=Path),
              default=None, help="Write the SMT-LIB2 encoding of every refuted width into this directory.")
@SYMMETRY_OPTION
@solver_option(help="Solver for each width.")
@click.option("--start", type=click.Path(path_type=Path), default=None,
              help="ejection: start from this table of NETWORK and the exchange (it must verify) instead of the "
                   "first fit.")
@click.option("--weighting", type=click.Choice(["length", "square"]), default=None,
              help="ejection: what a held cell weighs when a message takes it: its holder's length (default) or "
                   "its square (long messages moved still less).")
@click.option("--tenure", type=POSITIVE, default=None,
              help=f"ejection: a message just placed may not be moved for this many placements (the tabu tenure; "
                   f"default {DEFAULT_TENURE}).")
@click.option("--excess-penalty", type=click.IntRange(min=0, max=MAX_EXCESS_PENALTY), default=None,
              help=f"ejection: what each unit of waste in a word costs, in cell weights: a step that uses more of the "
                   f"letters the word-choice bound counts than the lightest shortest word (default "
                   f"{DEFAULT_EXCESS_PENALTY}; 0: none).")
@JSON_OPTION
@limit_options(timeout_default=SEARCH_TIMEOUT_S)
def search(network, exchange, out, force, strategy, seed, word_cap, sampling, core_schedule, max_width, from_width,
           keep_encodings, symmetry, solver, start, weighting, tenure, excess_penalty, as_json, limits, quiet):
    """The best table tesearch knows how to make for NETWORK: by default a construction where one applies, a lift
    for a torus whose factor table exists, then the searches, until a table meets the best lower bound; it says
    which route made the table (also in the table's provenance) and why the earlier ones did not (exit 0 found;
    3 every width asked for refuted, by the bound or a solver's unsat over all shortest words; 4 unknown)."""
    from tesearch.running.limits import log
    from tesearch.search.report import front_door_text, search_text
    from tesearch.search.params import CoreSchedule, WordSampling
    from tesearch.search.strategies import strategy as make_strategy

    if strategy == "best" and from_width is not None:  # refuting widths is the full width loop's: auto runs it
        strategy = "auto"
    backend, model = solver_parts(solver)
    if strategy == "ejection":
        _check_ejection_options(max_width=max_width, from_width=from_width, keep_encodings=keep_encodings,
                                symmetry=symmetry)
        net = _network(network, limits)
        first = _start_table(start, net.spec, exchange, "search") if start is not None else None
        given = {name: value for name, value in (("tenure", tenure), ("weighting", weighting),
                                                 ("excess_penalty", excess_penalty)) if value is not None}
        made = make_strategy("ejection", seed=seed, start=first, progress=log, **given)  # the rest: its defaults
    else:
        given = [name for name, value in (("--start", start), ("--tenure", tenure), ("--weighting", weighting),
                                          ("--excess-penalty", excess_penalty)) if value is not None]
        if given:
            raise OptionError(f"{', '.join(given)}: the ejection search's option(s): give --strategy ejection")
        made = make_strategy(strategy, seed=seed, backend=backend, cpsat_model=model, word_cap=word_cap,
                             max_width=max_width, from_width=from_width, sampling=WordSampling(sampling),
                             core_schedule=CoreSchedule(core_schedule), symmetry=symmetry, progress=log,
                             encodings_dir=keep_encodings)  # the options checked here, before any group is built
        net = _network(network, limits)
    check_symmetry_name(symmetry, len(net.letters))
    outcome = _make_table(made, net, exchange, out=out, force=force, inputs=_inputs(network, start), limits=limits,
                          quiet=quiet, as_json=as_json,
                          text=None if strategy == "ejection" else lambda made: (
                              front_door_text if strategy == "best" else search_text)(
                              made, f"{net.spec} {exchange}", backend.value))
    if outcome.status is Status.UNKNOWN:
        click.echo(f"tesearch: no table: {outcome.stop_reason or 'the search stopped'}", err=True)
    return EXIT_CODES[outcome.status]


def _check_ejection_options(*, max_width, from_width, keep_encodings, symmetry) -> None:
    """OptionError (exit 2) for a search option the ejection search has no use for."""
    given = [name for name, value in (("--max-width", max_width), ("--from-width", from_width),
                                      ("--keep-encodings", keep_encodings)) if value is not None]
    if symmetry != THE_ROTATION:
        given.append("--symmetry")
    if given:
        raise OptionError(f"{', '.join(given)}: not an option of the ejection search (it narrows a table by "
                          f"min-conflicts, without a solver or blocks)")


def _start_table(start: Path, spec: str, exchange: str, command: str):
    """The verified table ``start`` of ``spec`` and ``exchange`` for ``command`` (OptionError, exit 2, for
    another's)."""
    from tesearch.tables.loading import load_checked_table

    first = load_checked_table(start, command=command)
    if first.network != spec or first.exchange != exchange:
        raise OptionError(f"{start}: a {first.exchange} table of {first.network}, not a {exchange} table of {spec}")
    return first


@click.command()
@click.argument("network")
@EXCHANGE_OPTION
@OUT_OPTION
@FORCE_OPTION
@click.option("--solver-timeout", "attempt_s", type=SECONDS, default=120.0, show_default=True,
              help="Seconds for one solver call (one part, width and filler plan).")
@click.option("--seed", type=SEED, default=0, show_default=True)
@solver_option(help="Solver for each part (cpsat builds the wide cores Z3 stalls on).")
@JSON_OPTION
@limit_options(timeout_default=SEARCH_TIMEOUT_S)
def stratify(network, exchange, out, force, attempt_s, seed, solver, as_json, limits, quiet):
    """Symmetry-stratified search for networks with a rotation: one part per divisor of its order. A stratified
    table is as wide as the counting bound (exit 0 found; 3 no table of that width exists, by the best lower
    bound; 4 none found, with what was shown)."""
    from tesearch.running.limits import log
    from tesearch.search.strategies import strategy

    backend, model = solver_parts(solver)
    made = strategy("stratify", seed=seed, backend=backend, cpsat_model=model, attempt_s=attempt_s, progress=log)
    net = _network(network, limits)
    outcome = _make_table(made, net, exchange, out=out, force=force, inputs=_inputs(network), limits=limits,
                          quiet=quiet, as_json=as_json)
    return EXIT_CODES[outcome.status]


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
@solver_option(choices=("z3", "cpsat"), help="Solver for each assignment.")
@click.option("--solver-timeout", "solver_s", type=SECONDS, default=120.0, show_default=True,
              help="Seconds per solver call.")
@JSON_OPTION
@limit_options(timeout_default=SEARCH_TIMEOUT_S)
def lift(network, out, force, ring, modes, factor, solver, solver_s, as_json, limits, quiet):
    """A table for the torus NETWORK from m copies of a table of its other sides (the ring lift)."""
    from tesearch.running.limits import log
    from tesearch.tables.loading import load_checked_table
    from tesearch.search.lift import AssignMode
    from tesearch.search.strategies import strategy

    net = _network(network, limits)
    factor_table = load_checked_table(factor, command="lift") if factor is not None else None
    chosen = tuple(AssignMode(m) for m in modes) if modes else (AssignMode.FIXED, AssignMode.LATIN)
    made = strategy("lift", backend=solver_parts(solver)[0], ring_index=ring, factor=factor_table, modes=chosen,
                    timeout_s=solver_s, progress=log)
    outcome = _make_table(made, net, "total", out=out, force=force, inputs=_inputs(network, factor), limits=limits,
                          quiet=quiet, as_json=as_json)
    return EXIT_CODES[outcome.status]


ROUND_OPTION = click.option("--solver-timeout", "round_s", type=SECONDS, default=60.0, show_default=True,
                            help="Seconds per CP-SAT round (one solver call).")
WORKERS_OPTION = click.option("--workers", type=WORKERS, default=2, show_default=True,
                              help="CP-SAT worker threads (1 to 1024).")
WORD_CAP_OPTION = click.option("--word-cap", type=POSITIVE, default=DEFAULT_WORD_CAP, show_default=True,
                               help="Candidate shortest words per element.")


@click.command()
@click.argument("network")
@OUT_OPTION
@FORCE_OPTION
@click.option("--tail", type=POSITIVE, default=None,
              help="Repack the items ending in the last TAIL columns, round by round, instead of one whole model.")
@click.option("--window", type=POSITIVE, default=None,
              help="Large-neighbourhood search: free the messages crossing a window of about WINDOW columns, "
                   "round by round left to right, re-place them with CP-SAT's interval model and shift the "
                   "columns right of the window left (with --solver cpsat-intervals; --solver-timeout is one "
                   "round's).")
@ROUND_OPTION
@WORKERS_OPTION
@WORD_CAP_OPTION
@click.option("--seed", type=SEED, default=0, show_default=True)
@solver_option(choices=CPSAT_SOLVERS, default="cpsat", help="The minimisation's CP-SAT model (not "
                                                               "cpsat-intervals with --tail).")
@click.option("--start", type=click.Path(path_type=Path), default=None,
              help="Start from this table of NETWORK (total exchange; it must verify) instead of the greedy one.")
@EXCHANGE_OPTION
@JSON_OPTION
@limit_options(timeout_default=SEARCH_TIMEOUT_S)
def repack(network, out, force, tail, window, round_s, workers, word_cap, seed, solver, start, exchange, as_json,
           limits, quiet):
    """The greedy table of NETWORK (total exchange) narrowed by CP-SAT (needs the cpsat extra; its bound is no
    certificate).  To narrow the rotation search's core instead: `tesearch narrow`."""
    from tesearch.running.limits import log
    from tesearch.search.strategies import strategy

    if tail is not None and solver != "cpsat":
        raise OptionError(f"--solver {solver} is for the whole model: leave out --tail")
    if window is not None and (tail is not None or solver != "cpsat-intervals"):
        raise OptionError("--window re-solves windows with CP-SAT's interval model: give --solver cpsat-intervals "
                          "and leave out --tail")
    if exchange != "total":
        raise OptionError(f"--exchange {exchange}: repack narrows a total exchange's greedy table; `tesearch "
                          f"narrow` takes other exchanges")
    net = _network(network, limits)
    first = _start_table(start, net.spec, "total", "repack") if start is not None else None
    if window is not None:
        made = strategy("lns", seed=seed, word_cap=word_cap, workers=workers, window=window, round_s=round_s,
                        start=first, progress=log)
    else:
        made = strategy("repack", seed=seed, cpsat_model=solver_parts(solver)[1], word_cap=word_cap,
                        workers=workers, tail=tail, round_s=round_s, start=first, progress=log)
    outcome = _make_table(made, net, exchange, out=out, force=force, inputs=_inputs(network, start), limits=limits,
                          quiet=quiet, as_json=as_json)
    return EXIT_CODES[outcome.status]


@click.command()
@click.argument("network")
@OUT_OPTION
@FORCE_OPTION
@ROUND_OPTION
@WORKERS_OPTION
@WORD_CAP_OPTION
@click.option("--seed", type=SEED, default=0, show_default=True)
@solver_option(choices=CPSAT_SOLVERS, default="cpsat", help="The minimisation's CP-SAT model.")
@click.option("--core-model", type=click.Choice([m.value for m in CoreModel]), default=CoreModel.GREEDY.value,
              show_default=True,
              help="greedy: the greedy core narrowed round by round; lanes: the core as mirrored lanes (rows r and "
                   "r + S/2 mirrored by the rotation's half turn) + a free part, split by split; joint-lanes: the "
                   "whole core as one mirrored model, width by width (lanes: abelian networks whose rotation has "
                   "even order; made torus-12x12x24:twisted's T = 6039).")
@click.option("--from-width", type=POSITIVE, default=None,
              help="lanes, joint-lanes: the narrowest core tried (default: the exact core width).")
@click.option("--max-width", type=POSITIVE, default=None,
              help="lanes, joint-lanes: the widest core tried (default: the exact core width + 12).")
@EXCHANGE_OPTION
@SYMMETRY_OPTION
@JSON_OPTION
@limit_options(timeout_default=SEARCH_TIMEOUT_S)
def narrow(network, out, force, round_s, workers, word_cap, seed, solver, core_model, from_width, max_width,
           exchange, symmetry, as_json, limits, quiet):
    """The rotation core of NETWORK made narrow by CP-SAT: the greedy core narrowed round by round (only the
    exceptional elements are modelled, so it reaches star-9, star-10 and large tori), or mirrored lanes
    (--core-model); needs the cpsat extra; CP-SAT's bounds are no certificates."""
    from tesearch.running.limits import log
    from tesearch.search.strategies import strategy

    model = CoreModel(core_model)
    if model is CoreModel.GREEDY and (from_width is not None or max_width is not None):
        raise OptionError("--from-width and --max-width apply to --core-model lanes or joint-lanes")
    if model is not CoreModel.GREEDY and symmetry != THE_ROTATION:
        raise OptionError(f"--symmetry {symmetry}: the lane core mirrors by the cyclic rotation's half turn; "
                          f"leave out --symmetry with --core-model {model.value}")
    net = _network(network, limits)
    if model is CoreModel.GREEDY:
        check_symmetry_name(symmetry, len(net.letters))
        made = strategy("narrow", seed=seed, cpsat_model=solver_parts(solver)[1], word_cap=word_cap, workers=workers,
                        round_s=round_s, symmetry=symmetry, progress=log)
    else:
        made = strategy("lane-core", joint=model is CoreModel.JOINT_LANES, from_width=from_width or 0,
                        max_width=max_width, round_s=round_s, progress=log)
    outcome = _make_table(made, net, exchange, out=out, force=force, inputs=_inputs(network), limits=limits,
                          quiet=quiet, as_json=as_json)
    return EXIT_CODES[outcome.status]


@click.command()
@click.argument("network")
@EXCHANGE_OPTION
@OUT_OPTION
@FORCE_OPTION
@JSON_OPTION
@limit_options(timeout_default=None)  # a construction needs no solver: it runs to its end
def construct(network, exchange, out, force, as_json, limits, quiet):
    """An optimal table by construction, no solver: hypercube doubling, mirror lanes for the regular
    torus m x n x n (4 | m < n, n even), star-n for n - 1 prime by rotation blocks around a recorded core
    array (the method of Coolsaet and Fack, 1994, "Optimal data exchange algorithms on star graphs", made a
    theorem for every prime), the ring and torus tables of Coolsaet, Fack and De Meyer (1994, "A tabular
    method for verification of data exchange algorithms on networks of parallel processors"), and the
    odd-distance star tables by rotation blocks of Coolsaet and Fack (1994)."""
    from tesearch.search.strategies import strategy

    net = _network(network, limits)
    outcome = _make_table(strategy("construct"), net, exchange, out=out, force=force, inputs=_inputs(network),
                          limits=limits, quiet=quiet, as_json=as_json)
    return EXIT_CODES[outcome.status]
