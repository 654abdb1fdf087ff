"""One CLI vocabulary (issue 30, item 5): every command spells the same thing the same way."""

import importlib

import click
import pytest

from conftest import ROOT, run_cli
from tesearch.cli.app import COMMANDS
from tesearch.cli.options import SEARCH_TIMEOUT_S

#: the commands that search: --timeout defaults to SEARCH_TIMEOUT_S; every other command runs to its end
SEARCHING = {"search", "stratify", "lift", "repack", "narrow", "sweep"}
#: former spellings, gone at version 0.1.0 (they were hidden shims with a notice)
FORMER = {"--output", "--backend", "--cpsat-model", "--attempt-timeout", "--round", "--rotation-core"}
#: options that name an extra file beside the command's main output (or its only output, a directory)
EXTRA_FILES = {"--plot", "--trace", "--runs", "--out-dir", "--keep-encodings"}
#: options that name a file the command reads (never writes)
READS = {"--factor", "--start", "--compare", "--programs", "--rank-map", "--crossover", "--program"}


def _command(name: str) -> click.Command:
    module, attribute, _ = COMMANDS[name]
    return getattr(importlib.import_module(module), attribute)


def _options(name: str) -> dict[str, click.Option]:
    return {opt: p for p in _command(name).params if isinstance(p, click.Option) for opt in p.opts}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_speaks_the_one_vocabulary(name):
    options = _options(name)
    visible = {opt for opt, p in options.items() if not p.hidden}
    assert not set(options) & FORMER, f"{name} still takes a former spelling: {set(options) & FORMER}"
    writes = {opt for opt, p in options.items() if not p.hidden and isinstance(p.type, click.Path)
              and not p.type.dir_okay and opt.startswith("--") and opt not in EXTRA_FILES}
    if writes - READS:
        assert "--out" in writes and options["--out"] is options.get("-o"), f"{name}: {writes} is not -o/--out"
    if "--solver" in visible:
        assert isinstance(options["--solver"].type, click.Choice)
        assert set(options["--solver"].type.choices) <= {"z3", "cpsat", "cpsat-intervals"}
    if "--timeout" in options:
        default = options["--timeout"].default
        assert default == (SEARCH_TIMEOUT_S if name in SEARCHING else None), (name, default)
    per_call = {"--solver-timeout", "--attempt-timeout", "--round"} & visible
    assert per_call <= {"--solver-timeout"}, f"{name}: {per_call}"


@pytest.mark.parametrize("args", [
    ["certify", "RESULTS/ring-6.json", "--output", "OUT.json"],
    ["draw", "RESULTS/ring-6.json", "--output", "OUT.png"],
    ["search", "ring-6", "--backend", "z3", "--quiet"],
    ["search", "ring-6", "--cpsat-model", "intervals", "--quiet"],
    ["stratify", "ring-6", "--attempt-timeout", "5", "--quiet"],
    ["repack", "star-4", "--round", "5", "--quiet"],
    ["repack", "star-4", "--rotation-core", "--quiet"],
])
def test_a_former_spelling_is_an_unknown_option(args, tmp_path):
    """The renamed options' shims are gone at 0.1.0: a former spelling is refused in one line, exit 2, and
    nothing runs or is written."""
    args = [a.replace("RESULTS", str(ROOT / "results")).replace("OUT", str(tmp_path / "out")) for a in args]
    result = run_cli(*args)
    assert result.exit_code == 2 and "No such option" in result.stderr, result.output
    assert result.stderr.count("\n") == 1 and "deprecated" not in result.stderr
    assert not list(tmp_path.iterdir())


def test_a_required_out_is_named_when_missing():
    result = run_cli("certify", str(ROOT / "results" / "ring-6.json"))
    assert result.exit_code == 2 and "Missing option '-o' / '--out'" in result.stderr
