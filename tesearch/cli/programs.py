"""``tesearch export`` and ``tesearch run``: a table's schedule as per-rank programs, and run on MPI."""

from __future__ import annotations

import enum
from pathlib import Path

import click

from tesearch.cli.app import POSITIVE, NON_NEGATIVE
from tesearch.cli.options import JSON_OPTION, OVERWRITE_OPTION, emit, input_file, limit_options, out_option
from tesearch.terms import ExitCode


class ExportFormat(str, enum.Enum):
    """The formats ``tesearch export`` writes."""

    PROGRAMS = "programs"  # tesearch-programs v1
    CHROME_TRACE = "chrome-trace"  # Chrome trace-event JSON (tesearch/programs/traces.py)
    CHAKRA = "chakra"  # one Chakra execution trace per rank, PREFIX.{rank}.et (tesearch/programs/traces.py)


#: the largest message size a Chakra trace records: comm_size is a signed 64-bit integer
CHAKRA_MAX_BYTES = 2**63 - 1


class BlockSize(click.ParamType):
    """A block size in bytes: 8, 64K, 1M, 1MiB (at least 1 byte; at most ``maximum`` when given)."""

    name = "SIZE"

    def __init__(self, maximum: int | None = None):
        self.maximum = maximum

    def convert(self, value, param, ctx):
        """The value as a positive number of bytes, or a usage error."""
        from tesearch.errors import TesearchError
        from tesearch.limits import parse_bytes

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
    from tesearch.loading import load_checked_table
    from tesearch.programs.schedule import compile_schedule

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
        from tesearch.programs.traces import export_trace

        click.echo(export_trace(fmt, table_file, output, tracks=tracks, block_bytes=block_bytes, limits=limits,
                                quiet=quiet, force=force))
        return ExitCode.OK
    from tesearch import limits as progress
    from tesearch.files import PROGRAMS_KIND, output_target
    from tesearch.programs.export import stream_programs
    from tesearch.supervise import supervise

    with output_target(output, kind=PROGRAMS_KIND, inputs=[table_file], force=force) as scratch:
        def work():
            schedule = _schedule_of(table_file, "export")
            with progress.phase("write programs", total=schedule.ranks):
                size = stream_programs(schedule, scratch, progress=progress.advance)
            return schedule.ranks, schedule.steps, size

        ranks, steps, size = supervise(work, limits=limits, quiet=quiet)
    click.echo(f"wrote {output}: tesearch-programs v1, {ranks} ranks, {steps} steps, {size} bytes")
    return ExitCode.OK


@click.command()
@input_file("table_file")
@click.option("--mpi", is_flag=True, help="Run on MPI (mpiexec, one rank per node); the only way to run so far.")
@click.option("--executor", type=click.Choice(["step", "dataflow", "both"]), default="step", show_default=True,
              help="How the ranks follow their programs: step by step (every rank exchanges a frame with every "
                   "neighbour at every step), as data flows (each hop sent as soon as its block is there; "
                   "docs/schedules.md), or both, one after the other.")
@click.option("-n", "ranks", type=POSITIVE, default=None,
              help="Number of ranks; must equal the network's number of nodes (the default).")
@click.option("--bytes", "block_bytes", type=BlockSize(), default="8", show_default=True,
              help="Bytes of each message (one block per origin and destination).")
@click.option("--repeat", type=POSITIVE, default=1, show_default=True, help="Time the schedule and MPI_Alltoall this often.")
@click.option("--seed", type=NON_NEGATIVE, default=0, show_default=True, help="Seed of the blocks' random bytes.")
@click.option("--programs", "programs_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Read each rank's program from this tesearch-programs file instead of computing it "
                   "(how the tests feed the executor a broken program).")
@JSON_OPTION
@limit_options(timeout_default=None)
def run(table_file, mpi, executor, ranks, block_bytes, repeat, seed, programs_file, as_json, limits, quiet):
    """Run TABLE_FILE's schedule on MPI and compare every block with MPI_Alltoall.

    Exit 0 when every block matches (with --executor both: in both runs), 1 when any does not (the
    faults name rank, message and step), 2 on bad input, 4 when mpiexec fails or a limit is reached.
    """
    from tesearch.errors import FormatError, OptionError, SizeLimitError
    from tesearch.limits import command_start, format_bytes
    from tesearch.programs.launch import MpiRun, find_mpiexec, launch, memory_estimate, require_mpi4py
    from tesearch.terms import Exchange

    if not mpi:
        raise OptionError("give --mpi: MPI is the only executor (tesearch run TABLE --mpi)")
    schedule = _schedule_of(table_file, "run")  # in this process: --max-memory is for the MPI run's blocks
    table = schedule.table
    if table.exchange != Exchange.TOTAL.value:
        raise OptionError(f"the table is for the {table.exchange} exchange; a run is compared with MPI_Alltoall, "
                          f"so it needs a total exchange table", where=str(table_file))
    nodes = schedule.ranks
    if nodes > limits.max_order:
        raise SizeLimitError(f"{table.network} has {nodes} nodes, more than --max-order {limits.max_order}")
    if ranks is not None and ranks != nodes:
        raise OptionError(f"-n {ranks}: the schedule runs one rank per node, and {table.network} has {nodes} nodes")
    needed = memory_estimate(nodes, block_bytes)
    if needed > limits.max_memory:
        raise SizeLimitError(f"{nodes} ranks with blocks of {format_bytes(block_bytes)} need about "
                             f"{format_bytes(needed)}, more than --max-memory {format_bytes(limits.max_memory)}")
    if programs_file is not None:
        from tesearch.programs.export import read_header

        head = read_header(programs_file)
        if head["ranks"] != nodes or head["network"] != table.network or head["T"] != table.T:
            raise FormatError(f"the programs are for {head['network']} ({head['ranks']} ranks, T = {head['T']}), "
                              f"the table is {table.network} ({nodes} ranks, T = {table.T})",
                              where=str(programs_file))
    require_mpi4py()
    mpiexec = find_mpiexec()
    if not quiet:
        click.echo(f"running {table.network} on {nodes} ranks with {mpiexec} ...", err=True)
    report = launch(MpiRun(Path(table_file).resolve(), nodes, block_bytes, repeat, seed,
                           None if programs_file is None else programs_file.resolve(), limits.timeout_s,
                           limits.max_memory, executor=executor), started=command_start())
    emit(report.to_json(), as_json, report.summary())
    return ExitCode.OK if report.ok else ExitCode.FAILED
