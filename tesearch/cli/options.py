"""Options several commands share, and the helpers that turn them into limits and output."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import click

from tesearch.cli.app import BYTES, POSITIVE, SECONDS
from tesearch.limits import DEFAULT_MAX_MEMORY, DEFAULT_MAX_ORDER, Limits, format_bytes
from tesearch.terms import Exchange

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


def output_option(*names: str, required: bool = False, help: str):
    """An output file option; the directory must exist (checked before any work starts)."""
    return click.option(*names, type=click.Path(dir_okay=False, path_type=Path), required=required,
                        callback=_check_output, help=help)


def _check_output(ctx, param, value):
    from tesearch.files import writable_target

    if value is None:
        return None
    return writable_target(value)


def limit_options(timeout_default: float | None, timeout_help: str = "Wall-clock seconds for the whole command."):
    """--timeout, --max-memory, --max-order (and --quiet): the limits every long command honours.

    The decorated function receives one ``limits`` keyword (a :class:`~tesearch.limits.Limits`) and ``quiet``;
    it runs under :func:`tesearch.supervise.deadline_alarm`, so ``--timeout`` holds in its own process too.
    """
    def decorate(function):
        @click.option("--timeout", "timeout_s", type=SECONDS, default=timeout_default,
                      show_default=timeout_default is not None, help=timeout_help)
        @click.option("--max-memory", type=BYTES, default=DEFAULT_MAX_MEMORY,
                      help=f"Memory limit (e.g. 8G); checked before large allocations and while running. "
                           f"[default: {format_bytes(DEFAULT_MAX_MEMORY)}]")
        @click.option("--max-order", type=POSITIVE, default=DEFAULT_MAX_ORDER, show_default=True,
                      help="Largest group the command builds.")
        @QUIET_OPTION
        @functools.wraps(function)
        def wrapper(*args, timeout_s, max_memory, max_order, **kwargs):
            from tesearch.supervise import deadline_alarm

            limits = Limits(timeout_s, max_memory, max_order)
            with deadline_alarm(limits):  # the deadline holds outside the supervised work too
                return function(*args, limits=limits, **kwargs)
        return wrapper
    return decorate


def emit(data, as_json: bool, text: str) -> None:
    """Print ``data`` as JSON or ``text`` for people."""
    click.echo(json.dumps(data, indent=2) if as_json else text)
