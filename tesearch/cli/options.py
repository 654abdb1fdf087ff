"""Options several commands share, and the helpers that turn them into limits and output."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import click

from tesearch.cli.app import BYTES, POSITIVE, SECONDS
from tesearch.running.limits import DEFAULT_MAX_MEMORY, DEFAULT_MAX_ORDER, Limits, format_bytes
from tesearch.running.terms import Exchange

EXCHANGE_OPTION = click.option("--exchange", type=click.Choice(Exchange.values()), default=Exchange.TOTAL.value,
                               show_default=True, help="Which messages each node sends.")
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
QUIET_OPTION = click.option("--quiet", is_flag=True, help="No progress lines.")
FORCE_OPTION = click.option("--force", is_flag=True,
                            help="Replace the output file even if it holds a table no wider than this one "
                                 "(or something that is not a table of this network).  Never a link, a "
                                 "device, a FIFO or one of the command's inputs.")
#: --force for the commands that write a file other than a table
OVERWRITE_OPTION = click.option("--force", is_flag=True,
                                help="Replace the output file even if it holds another kind of file.  Never a "
                                     "link, a device, a FIFO or one of the command's inputs.")


def input_file(name: str = "file"):
    """A positional argument naming a file to read (the readers check it and name it in errors)."""
    return click.argument(name, type=click.Path(dir_okay=True, path_type=Path))


#: the one default rule for ``--timeout``: a command that searches (search, stratify, lift, repack, narrow,
#: sweep) stops after this many seconds unless told otherwise; every other command runs to its end
SEARCH_TIMEOUT_S = 300.0
#: the one name of a limit on a single solver call (a width, a part, a round), beside --timeout for the command
SOLVER_TIMEOUT = "--solver-timeout"


def output_option(*names: str, required: bool = False, help: str):
    """An output file option; the directory must exist (checked before any work starts)."""
    return click.option(*names, type=click.Path(dir_okay=False, path_type=Path), required=required,
                        callback=_check_output, help=help)


def out_option(help: str, *, dest: str = "out", required: bool = False):
    """``-o/--out FILE``: the file a command writes (every command spells it so)."""
    return click.option("-o", "--out", dest, type=click.Path(dir_okay=False, path_type=Path), required=required,
                        callback=_check_output, help=help)


#: --solver: which solver places the words (each reports sat / unsat / unknown the same way; only z3's unsat
#: over all shortest words is a certificate)
SOLVER_CHOICES = ("z3", "cpsat", "cpsat-intervals")


def solver_option(*, choices: tuple[str, ...] = SOLVER_CHOICES, default: str = "z3", help: str = ""):
    """``--solver z3|cpsat|cpsat-intervals``: the function receives ``solver`` (one of ``choices``)."""
    described = {"z3": "z3: Z3 pseudo-Boolean placements (its unsat over all shortest words is a certificate)",
                 "cpsat": "cpsat: OR-tools CP-SAT, one Boolean per (item, word, first column)",
                 "cpsat-intervals": "cpsat-intervals: CP-SAT, one start per item and a no-overlap per letter"}
    text = "; ".join(described[c] for c in choices) + \
        (" (CP-SAT needs the cpsat extra; its unsat is no certificate)." if choices != ("z3",) else ".")
    return click.option("--solver", type=click.Choice(choices), default=default, show_default=True,
                        help=(help + " " if help else "") + text)


def solver_parts(solver: str):
    """(Backend, CpsatModel) of a --solver value."""
    from tesearch.solvers import Backend, CpsatModel

    if solver == "z3":
        return Backend.Z3, CpsatModel.PLACEMENTS
    return Backend.CPSAT, CpsatModel.INTERVALS if solver == "cpsat-intervals" else CpsatModel.PLACEMENTS


def _check_output(ctx, param, value):
    from tesearch.running.files import writable_target

    if value is None:
        return None
    return writable_target(value)


def limit_options(timeout_default: float | None, timeout_help: str = "Wall-clock seconds for the whole command."):
    """--timeout, --max-memory, --max-order (and --quiet): the limits every long command honours.

    The decorated function receives one ``limits`` keyword (a :class:`~tesearch.running.limits.Limits`) and ``quiet``;
    it runs under :func:`tesearch.running.supervise.deadline_alarm`, so ``--timeout`` holds in its own process too.
    """
    def decorate(function):
        @click.option("--timeout", "timeout_s", type=SECONDS, default=timeout_default,
                      show_default=timeout_default is not None,
                      help=timeout_help + (" [default: none, it runs to its end]" if timeout_default is None else
                                           f" (commands that search stop after {SEARCH_TIMEOUT_S:g} s by default; the others run "
                                           "to their end)"))
        @click.option("--max-memory", type=BYTES, default=DEFAULT_MAX_MEMORY,
                      help=f"Memory limit (e.g. 8G); checked before large allocations and while running. "
                           f"[default: {format_bytes(DEFAULT_MAX_MEMORY)}]")
        @click.option("--max-order", type=POSITIVE, default=DEFAULT_MAX_ORDER, show_default=True,
                      help="Largest group the command builds.")
        @QUIET_OPTION
        @functools.wraps(function)
        def wrapper(*args, timeout_s, max_memory, max_order, **kwargs):
            from tesearch.running.supervise import deadline_alarm

            limits = Limits(timeout_s, max_memory, max_order)
            with deadline_alarm(limits):  # the deadline holds outside the supervised work too
                return function(*args, limits=limits, **kwargs)
        return wrapper
    return decorate


def emit(data, as_json: bool, text: str) -> None:
    """Print ``data`` as JSON or ``text`` for people."""
    click.echo(json.dumps(data, indent=2) if as_json else text)
