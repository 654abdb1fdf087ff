"""``tesearch simulate``: a table's schedule, table-free schedules and every MPI_Alltoall algorithm, timed on SimGrid."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import click

from tesearch.cli.app import SECONDS
from tesearch.cli.options import JSON_OPTION, OVERWRITE_OPTION, emit, limit_options, output_option
from tesearch.running.terms import ExitCode

DEFAULT_SIZES = "8,4K,64K,1M"
#: environment variable of the tests' hook: run the programs of this tesearch-programs file (a broken one, made on
#: purpose) instead of the table's own in the check run; not a user option
PROGRAMS_HOOK = "TESEARCH_TEST_PROGRAMS"


def write_trace(path: Path, text: str, *, inputs=(), force: bool = False) -> None:
    """Write the trace through the safe writer (atomic; never an input, a link or a device; .json)."""
    from tesearch.running.files import TRACE_KIND, write_output

    write_output(path, text, kind=TRACE_KIND, inputs=inputs, force=force)


def _sizes(text: str) -> tuple[int, ...]:
    from tesearch.running.errors import OptionError
    from tesearch.running.limits import parse_bytes

    sizes = []
    for item in text.split(","):
        try:
            value = parse_bytes(item.strip())
        except Exception:
            raise OptionError(f"--bytes: {item.strip()!r} is not a size such as 8, 4K, 64K or 1M") from None
        if value < 1 or value > (1 << 31) - 1:
            raise OptionError(f"--bytes: {item.strip()!r} must be between 1 byte and 2 GiB - 1")
        sizes.append(value)
    return tuple(sorted(set(sizes)))


def _executors(text: str):
    from tesearch.running.errors import OptionError
    from tesearch.schedules.simulate.lineup import ExecutorKind

    chosen = []
    for item in (part.strip() for part in str(text).split(",")):
        if item == "all":
            chosen += list(ExecutorKind)
        elif item in {e.value for e in ExecutorKind}:
            chosen.append(ExecutorKind(item))
        else:
            raise OptionError(f"--executor: {item!r} is not one of step, dataflow, combined, pipelined, all")
    return tuple(dict.fromkeys(chosen))


def _mpi_algorithms(text: str) -> tuple[str, ...] | None:
    """None for all, () for none, else the names (each checked against SimGrid 3.32's list up front)."""
    from tesearch.running.errors import OptionError
    from tesearch.schedules.simulate.lineup import KNOWN_ALGORITHMS, SELECTORS

    text = text.strip()
    if text == "all":
        return None
    if text == "none":
        return ()
    names = tuple(a.strip() for a in text.split(","))
    if not all(names):
        raise OptionError("--mpi-algorithms: an empty name; give all, none or a comma list such as pair,bruck,ompi")
    known = set(KNOWN_ALGORITHMS) | set(SELECTORS)
    for name in names:
        if name.removeprefix("alltoall:").removeprefix("selector:") not in known:
            raise OptionError(f"--mpi-algorithms: SimGrid has no alltoall algorithm or selector {name!r}; it has "
                              f"{', '.join(sorted(known))}")
    return names


def _table_free(text: str) -> tuple[str, ...] | None:
    text = text.strip()
    if text == "all":
        return None
    if text == "none":
        return ()
    return tuple(a.strip() for a in text.split(",") if a.strip())


def _choice(executor: str, dataflow_pairs: str, combine: str, pieces: str, table_free: str, non_optimal: bool,
            pipelined: str = "rule"):
    """The study's line-up from the options; an option for an executor that does not run is refused up front."""
    from tesearch.running.errors import OptionError
    from tesearch.running.limits import parse_bytes
    from tesearch.schedules.simulate.lineup import Choice, ExecutorKind, parse_dataflow, parse_pipelined, parse_supersteps

    executors = _executors(executor)
    pipelines = parse_pipelined(pipelined)
    supersteps = parse_supersteps(combine)
    dataflow = parse_dataflow(dataflow_pairs)
    piece_sizes = tuple(parse_bytes(p.strip()) for p in pieces.split(",") if p.strip())
    if any(p < 1 for p in piece_sizes):
        raise OptionError("--pieces: a piece holds at least 1 byte")
    source = click.get_current_context().get_parameter_source
    if ExecutorKind.COMBINED not in executors:
        for option, name in (("combine", "--combine"), ("pieces", "--pieces"), ("table_free", "--table-free")):
            if source(option) is not click.core.ParameterSource.DEFAULT:
                raise OptionError(f"{name} is for the combined executor, which --executor {executor} does not run")
    if ExecutorKind.DATAFLOW not in executors and source("dataflow_pairs") is not click.core.ParameterSource.DEFAULT:
        raise OptionError(f"--dataflow is for the dataflow executor, which --executor {executor} does not run")
    if ExecutorKind.PIPELINED not in executors and source("pipelined") is not click.core.ParameterSource.DEFAULT:
        raise OptionError(f"--pipelined is for the pipelined executor, which --executor {executor} does not run")
    return Choice(executors=executors, dataflow=dataflow, supersteps=supersteps, pieces=piece_sizes,
                  non_optimal=non_optimal, table_free=_table_free(table_free), pipelined=pipelines)


@click.command()
@click.argument("target", metavar="TABLE|NETWORK")
@click.option("--bytes", "sizes", default=DEFAULT_SIZES, show_default=True,
              help="Message sizes (bytes per block, one block per origin and destination), comma-separated.")
@click.option("--bandwidth", default="10GBps", show_default=True,
              help="Bandwidth of each directed link (SimGrid units: 10GBps bytes, 100Gbps bits).")
@click.option("--latency", default="1us", show_default=True, help="Latency of each link (1us, 500ns, 2e-6).")
@click.option("--model", type=click.Choice(["smpi", "cm02"]), default="smpi", show_default=True,
              help="SimGrid's network model: smpi (calibrated per-size factors) or cm02 (none).")
@click.option("--mpi-algorithms", default="all", show_default=True,
              help="MPI_Alltoall contenders: all, none, or a comma list of SimGrid alltoall algorithms "
                   "(pair, bruck, ...) and library selectors (ompi, mpich, mvapich2, impi).")
@click.option("--executor", default="all", show_default=True,
              help="Executors of the table and the non-optimal tables, a comma list: step (one message per hop, step "
                   "by step), dataflow (out of order within K positions, W in flight per link), combined (one message "
                   "per link per superstep; also runs every table-free schedule), pipelined (the table's order on every "
                   "link, every hop in P pieces, W pieces in flight per link: --pipelined); all.")
@click.option("--dataflow", "dataflow_pairs", default="1:1,64:64", show_default=True,
              help="The dataflow executor's K:W pairs: each link sends any unsent hop among the K positions from its "
                   "first unsent one whose block is here, with at most W hops in flight.")
@click.option("--pipelined", default="rule", show_default=True,
              help="The pipelined executor's P:W pairs (P pieces per hop, each forwarded as soon as it is here; W "
                   "pieces in flight per link, each sent synchronously), or rule: chosen per block size from the "
                   "platform's latency and bandwidth (docs/simulate.md), e.g. rule,8:2,8:4.")
@click.option("--combine", default="balanced,optimum", show_default=True,
              help="The table's paths in supersteps under the combined executor, a comma list: balanced (local "
                   "search), optimum (bundle sum driven to its floor), K (the table's columns in windows of K), none.")
@click.option("--pieces", default="", show_default=False,
              help="Also run the table's balanced supersteps with every bundle sent as pieces of at most this size "
                   "(a comma list, e.g. 8K).")
@click.option("--table-free", "table_free", default="all", show_default=True,
              help="Table-free schedules under the combined executor: all, none, or a comma list of names "
                   "(greedy combining, superstep optimum, dimension-ordered, Johnsson-Ho (balanced classes), ...).")
@click.option("--non-optimal/--no-non-optimal", default=True, show_default=True,
              help="Also run valid non-optimal tables (naive words by first fit, the table widened) under the same "
                   "executors: what the table's optimality buys.")
@click.option("--run-timeout", type=SECONDS, default=None,
              help="Wall-clock seconds for one timed smpirun run (default: grown with the square of the ranks; the "
                   "check runs always get the default); a run stopped there without a time leaves its family's "
                   "comparison incomplete.")
@click.option("--budget", type=SECONDS, default=None,
              help="Wall-clock seconds for all timed runs after the check runs: a run is cut where it ends, "
                   "contenders after it are reported as not run (and their family as incomplete).")
@click.option("--program", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Instead of the study: time this MPI program (C source) with the table's MPI_Alltoall library "
                   "linked (per --executor), beside the same program on SMPI's algorithms (--mpi-algorithms).")
@output_option("--trace", "trace_file", help="Write the simulated run of the table as Chrome trace-event JSON.")
@OVERWRITE_OPTION
@JSON_OPTION
@limit_options(timeout_default=None)
def simulate(target, sizes, bandwidth, latency, model, mpi_algorithms, executor, dataflow_pairs, pipelined, combine,
             pieces, table_free, non_optimal, run_timeout, budget, program, trace_file, force, as_json, limits, quiet):
    """Time TARGET's table, table-free schedules and MPI_Alltoall's algorithms on the network, simulated by SimGrid.

    TARGET is a table file or a network spec (the table tesearch ships for it).  Needs SimGrid's SMPI (smpicc,
    smpirun: apt-get install libsimgrid-dev).  A family's best and every ratio are printed only when each of its
    contenders has a simulated time, does not apply, failed in SimGrid, or was stopped once it could no longer be
    the best; otherwise the comparison is printed as incomplete.  Exit 0 when every run's blocks arrived as sent,
    1 when a schedule's programs are broken (the faults name rank, message and step), 2 on bad input (a table
    failing verification, a size that cannot fit), 4 at --timeout or --max-memory.
    """
    from tesearch.running.errors import OptionError
    from tesearch.running.limits import activated
    from tesearch.schedules.simulate import smpi
    from tesearch.schedules.simulate.report import report_text
    from tesearch.schedules.simulate.study import Model, Setup, parse_bandwidth, parse_latency, simulate as run_study
    from tesearch.schedules.simulate.study import simulator_base_bytes, size_plan
    from tesearch.running.terms import Exchange

    setup_started = time.monotonic()
    deadline = None if limits.timeout_s is None else setup_started + limits.timeout_s
    size_list = _sizes(sizes)
    bandwidth_bps, latency_s = parse_bandwidth(bandwidth), parse_latency(latency)
    wanted = _mpi_algorithms(mpi_algorithms)
    choice = _choice(executor, dataflow_pairs, combine, pieces, table_free, non_optimal, pipelined)
    from tesearch.tables.loading import resolve_target

    resolved = resolve_target(target, shipped=True)  # once: a table file, or a spec and the table tesearch ships
    ranks = resolved.order
    if ranks is not None:  # a spec: refuse what its order already rules out, before anything is built
        if ranks > limits.max_order:
            raise OptionError(f"{target} has {ranks} nodes, more than --max-order {limits.max_order}")
        if simulator_base_bytes(ranks) > limits.max_memory:
            size_plan(ranks, 0, min(size_list), max_memory=limits.max_memory)
    table_path = resolved.table_file()
    if trace_file is not None:  # the safe writer's checks before any work
        from tesearch.running.files import TRACE_KIND, check_output

        check_output(trace_file, kind=TRACE_KIND, inputs=[table_path], force=force)
    smpi.find_tool("smpirun")  # a missing SimGrid is one line and exit 2, before anything is built
    smpi.find_tool("smpicc")
    if program is not None:  # the user's program instead of the study (tesearch/schedules/simulate/userprogram.py)
        return _time_program(program, table_path, bandwidth_bps, latency_s, Model(model), choice, wanted, run_timeout,
                             limits, deadline, as_json, quiet)
    with activated(limits):
        loaded = resolved.load(command="simulate")  # a broken table is refused before anything runs
        table, verification = loaded.table, loaded.check
        if table.exchange != Exchange.TOTAL.value:
            raise OptionError(f"the table is for the {table.exchange} exchange; MPI_Alltoall is a total exchange",
                              where=str(table_path))
        from tesearch.schedules.contenders import subject_of

        subject = subject_of(loaded.network, table)  # the network as loaded: not derived again
        for size in size_list:
            size_plan(subject.numbering.size, subject.graph.status, size, max_memory=limits.max_memory)
        say = (lambda message: None) if quiet else (lambda message: click.echo(message, err=True))
        from tesearch.schedules.simulate.lineup import build_lineup

        lineup = build_lineup(subject, choice, progress=say)
    if not lineup.contenders and wanted == ():
        raise OptionError("nothing to run: no executor and --mpi-algorithms none")
    hook = os.environ.get(PROGRAMS_HOOK)
    if hook:
        _programs_hook(lineup, subject, Path(hook), table)
    setup = Setup(sizes=size_list, bandwidth_bps=bandwidth_bps, latency_s=latency_s, model=Model(model),
                  choice=choice, mpi_algorithms=wanted, run_timeout_s=run_timeout, trace=trace_file is not None,
                  max_memory=limits.max_memory, deadline=deadline, budget_s=budget)
    bounds = verification.bounds
    report = run_study(lineup, subject.numbering, network=table.network, steps=table.T, bound_steps=bounds.best,
                       counting_steps=bounds.target_letters / bounds.generators, setup=setup, progress=say,
                       trace_schedule="table")
    report["table"] = str(table_path)
    document = report.pop("trace", None)
    if document is not None:
        write_trace(trace_file, json.dumps(document), inputs=[table_path], force=force)
        report["trace_note"] = f"{trace_file} ({document['otherData']['hops']} hops; open in ui.perfetto.dev)"
    emit(report, as_json, report_text(report))
    if report["verdict"] != "ok":
        return ExitCode.FAILED
    return ExitCode.OK


def _time_program(program: Path, table_path: Path, bandwidth_bps, latency_s, model, choice, wanted, run_timeout, limits,
                  deadline, as_json: bool, quiet: bool) -> ExitCode:
    """simulate --program: the user's MPI program with the table's MPI_Alltoall linked in, beside SMPI's algorithms;
    the study's own options are refused."""
    from tesearch.running.errors import OptionError
    from tesearch.schedules.simulate.userprogram import program_text, simulate_program

    source = click.get_current_context().get_parameter_source
    for option in ("sizes", "combine", "pieces", "table_free", "non_optimal", "budget", "trace_file"):
        if source(option) is not click.core.ParameterSource.DEFAULT:
            raise OptionError(f"--{option.replace('_file', '').replace('_', '-').replace('sizes', 'bytes')} is for the "
                              f"study; with --program the program chooses its sizes and is not traced")
    say = (lambda message: None) if quiet else (lambda message: click.echo(message, err=True))
    report = simulate_program(program, table_path, bandwidth_bps=bandwidth_bps, latency_s=latency_s, model=model,
                              choice=choice, mpi_algorithms=wanted, run_timeout_s=run_timeout, limits=limits,
                              deadline=deadline, progress=say)
    emit(report, as_json, program_text(report))
    return ExitCode.OK if report["verdict"] == "ok" else ExitCode.FAILED


def _programs_hook(lineup, subject, path: Path, table) -> None:
    """The tests' hook: the table's schedule replaced by the programs of a tesearch-programs file, checked as given."""
    from tesearch.running.errors import FormatError
    from tesearch.schedules.programs.export import read_header

    head = read_header(path)
    if head["ranks"] != subject.numbering.size or head["network"] != table.network or head["T"] != table.T:
        raise FormatError(f"the programs are for {head['network']} ({head['ranks']} ranks, T = {head['T']}), "
                          f"the table is {table.network} ({subject.numbering.size} ranks, T = {table.T})",
                          where=str(path))
    lineup.programs_override = path
