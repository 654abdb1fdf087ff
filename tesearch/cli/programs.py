"""``tesearch export`` and ``tesearch run``: a table's schedule as per-rank programs, and run on MPI."""

from __future__ import annotations

import enum
import json
import os
from pathlib import Path

import click

from tesearch.cli.app import POSITIVE
from tesearch.cli.options import JSON_OPTION, OVERWRITE_OPTION, emit, input_file, limit_options, out_option
from tesearch.running.terms import ExitCode


class ExportFormat(str, enum.Enum):
    """The formats ``tesearch export`` writes."""

    PROGRAMS = "programs"  # tesearch-programs v1
    CHROME_TRACE = "chrome-trace"  # Chrome trace-event JSON (tesearch/schedules/programs/traces.py)
    CHAKRA = "chakra"  # one Chakra execution trace per rank, PREFIX.{rank}.et (tesearch/schedules/programs/traces.py)


#: the largest message size a Chakra trace records: comm_size is a signed 64-bit integer
CHAKRA_MAX_BYTES = 2**63 - 1


class BlockSize(click.ParamType):
    """A block size in bytes: 8, 64K, 1M, 1MiB (at least 1 byte; at most ``maximum`` when given)."""

    name = "SIZE"

    def __init__(self, maximum: int | None = None):
        self.maximum = maximum

    def convert(self, value, param, ctx):
        """The value as a positive number of bytes, or a usage error."""
        from tesearch.running.errors import TesearchError
        from tesearch.running.limits import parse_bytes

        if isinstance(value, int):
            number = value
        elif str(value).strip().isdigit() and len(str(value).strip()) <= 40:
            number = int(str(value).strip())  # exactly: parse_bytes goes through a float
        else:
            try:
                number = parse_bytes(value)
            except TesearchError:
                self.fail(f"must be a size in bytes such as 8, 64K or 1M, got {value!r}", param, ctx)
        if number < 1:
            self.fail(f"must be a size in bytes such as 8, 64K or 1M (at least 1 byte), got {value!r}", param, ctx)
        if self.maximum is not None and number > self.maximum:
            self.fail(f"must be at most {self.maximum} bytes, got {value!r}", param, ctx)
        return number


def _schedule_of(table_file: Path, command: str):
    """The table at ``table_file``, checked as verify checks it, compiled for programs (bad files exit 2)."""
    from tesearch.tables.loading import load_checked_table
    from tesearch.schedules.programs.schedule import compile_schedule

    return compile_schedule(load_checked_table(table_file, command=command))


@click.command()
@input_file("table_file")
@click.option("--format", "fmt", type=click.Choice([f.value for f in ExportFormat]),
              default=ExportFormat.PROGRAMS.value,
              show_default=True, help="What to write: tesearch-programs v1 (docs/programs-format.md), a Chrome "
                                      "trace (Perfetto, chrome://tracing) or Chakra traces (ASTRA-sim; -o names the "
                                      "prefix of PREFIX.{rank}.et; docs/traces.md).")
@out_option("The file to write: .jsonl for programs, .json for a Chrome trace, a prefix for Chakra traces.",
            dest="output", required=True)
@click.option("--tracks", type=click.Choice(["auto", "links", "letters"]), default="auto", show_default=True,
              help="chrome-trace: one track per (node, letter) link, or per letter (node-invariant); auto: links "
                   "up to 300000 hops.")
@click.option("--bytes", "block_bytes", type=BlockSize(CHAKRA_MAX_BYTES), default="8", show_default=True,
              help=f"chakra: bytes of each message (comm_size, at most {CHAKRA_MAX_BYTES}).")
@OVERWRITE_OPTION
@limit_options(timeout_default=None)
def export(table_file, fmt, output, tracks, block_bytes, force, limits, quiet):
    """Write every rank's program of TABLE_FILE's schedule (streamed rank by rank), or traces of it."""
    if fmt != ExportFormat.PROGRAMS.value:
        from tesearch.schedules.programs.traces import export_trace

        click.echo(export_trace(fmt, table_file, output, tracks=tracks, block_bytes=block_bytes, limits=limits,
                                quiet=quiet, force=force))
        return ExitCode.OK
    from tesearch.running import limits as progress
    from tesearch.running.files import PROGRAMS_KIND, output_target
    from tesearch.schedules.programs.export import stream_programs
    from tesearch.running.supervise import supervise

    with output_target(output, kind=PROGRAMS_KIND, inputs=[table_file], force=force) as scratch:
        def work():
            schedule = _schedule_of(table_file, "export")
            with progress.phase("write programs", total=schedule.ranks):
                size = stream_programs(schedule, scratch, progress=progress.advance)
            return schedule.ranks, schedule.steps, size

        ranks, steps, size = supervise(work, limits=limits, quiet=quiet)
    click.echo(f"wrote {output}: tesearch-programs v1, {ranks} ranks, {steps} steps, {size} bytes")
    return ExitCode.OK


#: the tests' hook: the table's schedule replaced by the programs of this tesearch-programs file (a broken one, made
#: on purpose), checked and run as given; not a user option (simulate reads the same variable)
PROGRAMS_HOOK = "TESEARCH_TEST_PROGRAMS"
#: --executor's names: each executor of the C library, ``all`` and ``both`` (step, dataflow: the old pair)
EXECUTOR_GROUPS = {"all": ("step", "dataflow", "combined", "pipelined"), "both": ("step", "dataflow")}
#: the name of the table's balanced superstep map, the schedule the combined executor runs
BALANCED = "table: balanced supersteps"


def executor_kinds(text: str):
    """``--executor``: a comma list of step, dataflow, combined, pipelined, all (the four), both (step, dataflow)."""
    from tesearch.running.errors import OptionError
    from tesearch.schedules.simulate.lineup import ExecutorKind

    chosen = []
    for item in (part.strip() for part in str(text).split(",")):
        if item in EXECUTOR_GROUPS:
            chosen += [ExecutorKind(name) for name in EXECUTOR_GROUPS[item]]
        elif item in {kind.value for kind in ExecutorKind}:
            chosen.append(ExecutorKind(item))
        else:
            raise OptionError(f"--executor: {item!r} is not one of step, dataflow, combined, pipelined, all, both")
    return tuple(dict.fromkeys(chosen))


def mpi_jobs(schedule, kinds, dataflow: str, pipelined: str = "rule", block_bytes: int = 8):
    """The schedules (name, tesearch-hops bytes) and the jobs of a run: the table's timing under step, each
    dataflow K:W and each pipelined P:W (``rule``: the rule's choice for ``block_bytes`` on the study's default link,
    :data:`tesearch.schedules.execute.pipeline.DEFAULT_LINK`), its balanced superstep map
    (tesearch.schedules.contenders.maps) under combined; and the largest bundle of the schedules (the most blocks one
    message of the combined executor holds)."""
    from tesearch.schedules.contenders.maps import balanced_map
    from tesearch.schedules.execute.hopsfile import routes_bytes
    from tesearch.schedules.execute.mpi import MpiJob
    from tesearch.schedules.execute.pipeline import DEFAULT_LINK, pipeline_for
    from tesearch.schedules.simulate.lineup import Choice, Executor, ExecutorKind, parse_dataflow, parse_pipelined
    from tesearch.schedules.simulate.lineup import pipelined_executors

    schedules = [("table", routes_bytes(schedule))]
    jobs, largest = [], schedule.largest_bundle
    for kind in kinds:
        if kind is ExecutorKind.DATAFLOW:
            executors = [Executor(kind, k, w) for k, w in parse_dataflow(dataflow)]
        elif kind is ExecutorKind.PIPELINED:
            executors = []
            for executor in pipelined_executors(Choice(pipelined=parse_pipelined(pipelined))):
                if executor.by_rule:
                    chosen = pipeline_for(block_bytes, link=DEFAULT_LINK)
                    executor = Executor(kind, inflight=chosen.inflight, split=chosen.split)
                executors.append(executor)
        else:
            executors = [Executor(kind)]
        for executor in executors:
            on = BALANCED if kind is ExecutorKind.COMBINED else "table"
            jobs.append(MpiJob(executor.name, on, tuple(executor.arguments())))
    if ExecutorKind.COMBINED in kinds:
        balanced = balanced_map(schedule)
        schedules.append((BALANCED, routes_bytes(balanced)))
        largest = max(largest, balanced.largest_bundle)
    return schedules, jobs, largest


def hooked_programs(path: Path, compiled) -> bytes:
    """The tests' hook: the programs layout of a tesearch-programs file, whose header must be the table's network,
    ranks and T (FormatError naming the file, exit 2, for a truncated, header-only or foreign file)."""
    from tesearch.running.errors import FormatError
    from tesearch.schedules.execute.hopsfile import programs_bytes
    from tesearch.schedules.programs.export import read_header

    table = compiled.table
    head = read_header(path)
    if head["ranks"] != compiled.ranks or head["network"] != table.network or head["T"] != table.T:
        raise FormatError(f"the programs are for {head['network']} ({head['ranks']} ranks, T = {head['T']}), "
                          f"the table is {table.network} ({compiled.ranks} ranks, T = {table.T})", where=str(path))
    return programs_bytes(path, compiled.numbering)


@click.command()
@input_file("table_file")
@click.option("--mpi", is_flag=True, help="Run on MPI (mpiexec, one rank per node); the only way to run so far.")
@click.option("--executor", default="step", show_default=True,
              help="The C executors to time, a comma list: step (one message per hop, step by step), dataflow (out "
                   "of order within K positions, W hops in flight per link: --dataflow), combined (the table's "
                   "balanced supersteps, one message per link per superstep), pipelined (the table's order on every "
                   "link, every hop in pieces, a few pieces in flight per link: --pipelined); all; both "
                   "(step,dataflow).")
@click.option("--dataflow", "dataflow_pairs", default="1:1", show_default=True,
              help="The dataflow executor's K:W pairs, a comma list (as tesearch simulate --dataflow).")
@click.option("--pipelined", default="rule", show_default=True,
              help="The pipelined executor's P:W pairs (P pieces per hop, W in flight per link) or rule (chosen for "
                   "--bytes on the study's default link: 1 us, 10 GB/s), a comma list (as tesearch simulate "
                   "--pipelined).")
@click.option("-n", "ranks", type=POSITIVE, default=None,
              help="Number of ranks; must equal the network's number of nodes (the default).")
@click.option("--bytes", "block_bytes", type=BlockSize(), default="8", show_default=True,
              help="Bytes of each message (one block per origin and destination).")
@click.option("--repeat", type=POSITIVE, default=1, show_default=True,
              help="Time each executor and MPI_Alltoall this often.")
@JSON_OPTION
@limit_options(timeout_default=None)
def run(table_file, mpi, executor, dataflow_pairs, pipelined, ranks, block_bytes, repeat, as_json, limits, quiet):
    """Run TABLE_FILE's schedule on MPI under the C executors and compare every block with MPI_Alltoall.

    Every schedule is first checked in lockstep frames (a broken program is named by rank, message and step, and
    nothing is timed); then each executor runs with MPI_Alltoall of the same buffers timed as often.  Exit 0 when
    every block matches, 1 when a check or a block fails (the faults name rank, message and step), 2 on bad input,
    4 when mpiexec fails or a limit is reached.
    """
    from tesearch.running.errors import OptionError, SizeLimitError
    from tesearch.schedules.execute.hops import HopSchedule
    from tesearch.schedules.execute.mpi import COMPUTED, MpiRun, find_mpiexec, launch, memory_estimate
    from tesearch.running.limits import command_start, format_bytes
    from tesearch.schedules.simulate.lineup import ExecutorKind, parse_dataflow, parse_pipelined
    from tesearch.running.terms import Exchange

    if not mpi:
        raise OptionError("give --mpi: MPI is the only executor (tesearch run TABLE --mpi)")
    kinds = executor_kinds(executor)
    if ExecutorKind.DATAFLOW in kinds:
        pairs = parse_dataflow(dataflow_pairs)
    elif click.get_current_context().get_parameter_source("dataflow_pairs") is not click.core.ParameterSource.DEFAULT:
        raise OptionError(f"--dataflow is for the dataflow executor, which --executor {executor} does not run")
    else:
        pairs = ()
    if ExecutorKind.PIPELINED in kinds:
        parse_pipelined(pipelined)
    elif click.get_current_context().get_parameter_source("pipelined") is not click.core.ParameterSource.DEFAULT:
        raise OptionError(f"--pipelined is for the pipelined executor, which --executor {executor} does not run")
    compiled = _schedule_of(table_file, "run")  # in this process: --max-memory is for the MPI run's blocks
    table = compiled.table
    if table.exchange != Exchange.TOTAL.value:
        raise OptionError(f"the table is for the {table.exchange} exchange; a run is compared with MPI_Alltoall, "
                          f"so it needs a total exchange table", where=str(table_file))
    nodes = compiled.ranks
    if nodes > limits.max_order:
        raise SizeLimitError(f"{table.network} has {nodes} nodes, more than --max-order {limits.max_order}")
    if ranks is not None and ranks != nodes:
        raise OptionError(f"-n {ranks}: the schedule runs one rank per node, and {table.network} has {nodes} nodes")
    schedule = HopSchedule.from_compiled(compiled)
    letters = len(compiled.letters)
    transit = max([letters] * (ExecutorKind.STEP in kinds) + [min(schedule.hops, letters * (k + w)) for k, w in pairs]
                  + [min(schedule.hops, 2 * letters)] * (ExecutorKind.PIPELINED in kinds) + [0])
    needed = memory_estimate(nodes, block_bytes, transit)
    if needed > limits.max_memory:
        raise SizeLimitError(f"{nodes} ranks with blocks of {format_bytes(block_bytes)} need about "
                             f"{format_bytes(needed)}, more than --max-memory {format_bytes(limits.max_memory)}")
    hook = os.environ.get(PROGRAMS_HOOK)
    hooked = hooked_programs(Path(hook), compiled) if hook else None
    mpiexec = find_mpiexec()  # a missing MPI is one line and exit 2, before the superstep map is built
    schedules, jobs, bundle = mpi_jobs(schedule, kinds, dataflow_pairs, pipelined, block_bytes)
    if hooked is not None:
        schedules[0] = ("table", hooked)
    if ExecutorKind.COMBINED in kinds:
        needed = memory_estimate(nodes, block_bytes, max(transit, 2 * letters * bundle))
        if needed > limits.max_memory:
            raise SizeLimitError(f"{nodes} ranks with blocks of {format_bytes(block_bytes)} under the combined "
                                 f"executor need about {format_bytes(needed)}, more than --max-memory "
                                 f"{format_bytes(limits.max_memory)}")
    if not quiet:
        click.echo(f"running {table.network} on {nodes} ranks with {mpiexec} ...", err=True)
    from tesearch.running.limits import phase

    with phase(f"run on {nodes} ranks with {Path(str(mpiexec)).name}"):  # a time limit names mpiexec, not setup
        report = launch(MpiRun(nodes, block_bytes, tuple(schedules), tuple(jobs), table.T, schedule.hops, repeat,
                               limits.timeout_s, limits.max_memory, COMPUTED if hook is None else f"{hook} (test hook)"),
                        started=command_start())
    emit(report.to_json(), as_json, report.summary())
    return ExitCode.OK if report.ok else ExitCode.FAILED


@click.command()
@input_file("table_file")
@click.option("-o", "--out-dir", "out_dir", required=True,
              help="The directory to write libtesearch_alltoall.so, tesearch_alltoall.h, tesearch_alltoall.json, "
                   "README.md and tesearch-manifest.json into: a new directory (its parent must exist), an empty one, "
                   "or an earlier output of tesearch library (it holds nothing else); anything else is refused.")
@click.option("--crossover", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The JSON report of tesearch simulate on the same network: below the first size where one of the "
                   "library's executors beat every MPI algorithm, PMPI_Alltoall; from there, the fastest of them. "
                   "Default: the combined executor at every size.")
@click.option("--rank-map", "rank_map", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A file of one integer per MPI rank (or a JSON list): the tesearch rank (node in tesearch's rank "
                   "numbering) MPI rank r runs.  Default: MPI rank r runs tesearch rank r.")
@click.option("--mpicc", default=None, help="The MPI C compiler (default: the mpi extra's mpicc, else mpicc on PATH).")
@OVERWRITE_OPTION
@limit_options(timeout_default=None)
def library(table_file, out_dir, crossover, rank_map, mpicc, force, limits, quiet):
    """Build an MPI_Alltoall library for TABLE_FILE's network into DIR: libtesearch_alltoall.so defines MPI_Alltoall
    through the PMPI profiling interface with the table's schedule compiled in; unmodified programs pick it up with
    LD_PRELOAD or by linking it.  Calls it does not handle go to PMPI_Alltoall (DIR/README.md lists them).  DIR is
    written whole or not at all, and never over files tesearch library did not write (--force: over its own earlier
    output even when changed since).
    """
    import tempfile

    from tesearch.running.files import check_output_directory, write_output_directory
    from tesearch.running.limits import activated
    from tesearch.schedules.library import HEADER_NAME, LIBRARY_NAME, PLAN_NAME, README_NAME, build_library
    from tesearch.schedules.library import check_shared_library, header_text, library_compiler, plan_for, readme_text

    inputs = [table_file, crossover, rank_map]
    made_by = "tesearch library"
    out_dir = check_output_directory(out_dir, made_by=made_by, inputs=inputs, force=force)  # before any work
    command = library_compiler(mpicc)
    with activated(limits):
        plan, _ = plan_for(table_file, crossover, rank_map, command="library")
        if not quiet:
            click.echo(f"compiling {LIBRARY_NAME} for {plan.network} with {command} ...", err=True)
        with tempfile.TemporaryDirectory(prefix="tesearch-library-") as scratch:  # run_compiler names its phase
            built = build_library(plan, command, Path(scratch))
            data = check_shared_library(built, command)
    files = {LIBRARY_NAME: data, HEADER_NAME: header_text(plan).encode(),
             PLAN_NAME: (json.dumps(plan.to_json(), indent=1) + "\n").encode(),
             README_NAME: readme_text(plan, out_dir).encode()}
    write_output_directory(out_dir, files, made_by=made_by, inputs=inputs, force=force)
    click.echo(f"wrote {out_dir / LIBRARY_NAME} ({len(data)} bytes), {HEADER_NAME}, {PLAN_NAME}, {README_NAME}, "
               f"tesearch-manifest.json: "
               f"{plan.description()}")
    return ExitCode.OK
