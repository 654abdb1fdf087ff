"""``tesearch simulate``: a table's schedule beside every MPI_Alltoall algorithm, in time, on SimGrid (SMPI)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from tesearch.cli.app import POSITIVE, SECONDS
from tesearch.cli.options import JSON_OPTION, emit, limit_options, output_option
from tesearch.terms import ExitCode

#: where committed tables live, looked up (in this order) for a NETWORK argument
RESULTS = Path(__file__).resolve().parents[2] / "results"
TABLE_DIRECTORIES = ("", "frontier", "twisted")
DEFAULT_SIZES = "8,4K,64K,1M"


def committed_table(spec: str) -> Path:
    """The committed table of a network spec (results/, results/frontier/, results/twisted/)."""
    from tesearch.errors import OptionError
    from tesearch.files import safe_name
    from tesearch.networks import network_from_spec

    network = network_from_spec(spec)  # a bad spec is one line and exit 2
    stems = dict.fromkeys([safe_name(spec), safe_name(network.spec)])
    for directory in TABLE_DIRECTORIES:
        for stem in stems:
            for suffix in (".json", ".json.gz"):
                candidate = RESULTS / directory / f"{stem}{suffix}"
                if candidate.is_file():
                    return candidate
    raise OptionError(f"no committed table for {spec} under {RESULTS}; make one (tesearch construct, search or "
                      f"sweep) and give its file")


def load_verified_table(path: Path):
    """The table at ``path`` through the checked loader (tesearch.loading: Theorem 1, the label, the recorded
    bounds; exit 2 otherwise, before anything is simulated); returns (table, verification)."""
    from tesearch.loading import load_checked

    loaded = load_checked(path, command="simulate")
    return loaded.table, loaded.check


def write_trace(path: Path, text: str, *, inputs=()) -> None:
    """Write the trace through the safe writer (atomic; never an input, a link or a device; .json)."""
    from tesearch.files import TRACE_KIND, write_output

    write_output(path, text, kind=TRACE_KIND, inputs=inputs)


def _sizes(text: str) -> tuple[int, ...]:
    from tesearch.errors import OptionError
    from tesearch.limits import parse_bytes

    sizes = []
    for item in text.split(","):
        try:
            value = parse_bytes(item.strip())
        except Exception:
            raise OptionError(f"--bytes: {item.strip()!r} is not a size such as 8, 4K, 64K or 1M") from None
        if value < 1 or value > 1 << 31:
            raise OptionError(f"--bytes: {item.strip()!r} must be between 1 byte and 2 GiB")
        sizes.append(value)
    return tuple(sorted(set(sizes)))


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
              help="How the table's schedule runs, a comma list: step (step by step), dataflow (as data flows), "
                   "combined (the table's paths in supersteps, one message per link per superstep); both = "
                   "step,dataflow; all = all three.")
@click.option("--combine", default="balanced", show_default=True,
              help="Combined executor's superstep maps, a comma list: balanced (the fewest supersteps, bundles "
                   "balanced), or K (the table's columns in windows of K).")
@click.option("--window", type=POSITIVE, default=1, show_default=True,
              help="Dataflow executor: hops in flight at once on one link.")
@click.option("--run-timeout", type=SECONDS, default=300.0, show_default=True,
              help="Wall-clock seconds for one smpirun run; a contender that needs more is reported as too slow.")
@click.option("--budget", type=SECONDS, default=None,
              help="Wall-clock seconds for all timed runs after the check run: a run is cut where it ends (too "
                   "slow), contenders after it are reported as not run.")
@click.option("--programs", "programs_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Run the programs of this tesearch-programs file instead of the table's own (how the tests "
                   "feed a broken program).")
@output_option("--trace", "trace_file", help="Write the simulated run of the table as Chrome trace-event JSON.")
@JSON_OPTION
@limit_options(timeout_default=None)
def simulate(target, sizes, bandwidth, latency, model, mpi_algorithms, executor, combine, window, run_timeout, budget,
             programs_file, trace_file, as_json, limits, quiet):
    """Time TARGET's table and MPI_Alltoall's algorithms on the network, simulated by SimGrid.

    TARGET is a table file or a network spec (its committed table is used).  Needs SimGrid's SMPI
    (smpicc, smpirun: apt-get install libsimgrid-dev).  Exit 0 when every run's blocks arrived as sent,
    1 when the table's programs are broken (the faults name rank, message and step), 2 on bad input
    (a table failing verification, a size that cannot fit), 4 at --timeout or --max-memory.
    """
    from tesearch.loading import names_a_file
    from tesearch.errors import FormatError, OptionError
    from tesearch.limits import activated
    from tesearch.programs.schedule import compile_schedule
    from tesearch.simulate import smpi
    from tesearch.simulate.combine import parse_rules
    from tesearch.simulate.report import report_text
    from tesearch.simulate.study import Model, Setup, parse_bandwidth, parse_executors, parse_latency
    from tesearch.simulate.study import simulate as run_study
    from tesearch.simulate.study import size_plan
    from tesearch.terms import Exchange

    setup_started = time.monotonic()
    deadline = None if limits.timeout_s is None else setup_started + limits.timeout_s
    size_list = _sizes(sizes)
    bandwidth_bps, latency_s = parse_bandwidth(bandwidth), parse_latency(latency)
    wanted = None if mpi_algorithms.strip() == "all" else \
        () if mpi_algorithms.strip() == "none" else tuple(a.strip() for a in mpi_algorithms.split(",") if a.strip())
    executors = parse_executors(executor)
    combine_rules = parse_rules(combine)
    table_path = Path(target.removeprefix("file:")) if names_a_file(target) else committed_table(target)
    if trace_file is not None:  # the safe writer's checks before any work
        from tesearch.files import TRACE_KIND, check_output

        check_output(trace_file, kind=TRACE_KIND, inputs=[table_path])
    with activated(limits):
        table, verification = load_verified_table(table_path)  # a broken table is refused before anything runs
        if table.exchange != Exchange.TOTAL.value:
            raise OptionError(f"the table is for the {table.exchange} exchange; MPI_Alltoall is a total exchange",
                              where=str(table_path))
        schedule = compile_schedule(table)
    for size in size_list:
        size_plan(schedule.ranks, schedule.status, size, max_memory=limits.max_memory)
    smpi.find_tool("smpirun")  # a missing SimGrid is one line and exit 2, before anything is simulated
    smpi.find_tool("smpicc")
    if programs_file is not None:
        from tesearch.programs.export import read_header

        head = read_header(programs_file)
        if head["ranks"] != schedule.ranks or head["network"] != table.network or head["T"] != table.T:
            raise FormatError(f"the programs are for {head['network']} ({head['ranks']} ranks, T = {head['T']}), "
                              f"the table is {table.network} ({schedule.ranks} ranks, T = {table.T})",
                              where=str(programs_file))
    setup = Setup(sizes=size_list, bandwidth_bps=bandwidth_bps, latency_s=latency_s, model=Model(model),
                  executors=executors, combine=combine_rules, mpi_algorithms=wanted, run_timeout_s=run_timeout,
                  window=window,
                  trace=trace_file is not None, max_memory=limits.max_memory, deadline=deadline, budget_s=budget)
    say = (lambda message: None) if quiet else (lambda message: click.echo(message, err=True))
    bounds = verification.bounds
    report = run_study(schedule, bound_steps=bounds.best, counting_steps=bounds.target_letters / bounds.generators,
                       setup=setup,
                       programs_file=None if programs_file is None else programs_file.resolve(), progress=say)
    report["table"] = str(table_path)
    document = report.pop("trace", None)
    if document is not None:
        write_trace(trace_file, json.dumps(document), inputs=[table_path])
        report["trace_note"] = f"{trace_file} ({document['otherData']['hops']} hops; open in ui.perfetto.dev)"
    emit(report, as_json, report_text(report))
    return ExitCode.OK if report["verdict"] == "ok" else ExitCode.FAILED
