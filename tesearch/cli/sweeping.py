"""``tesearch sweep``: a portfolio of strategies, seeds and backends per network, as Ray tasks.

Options are checked, ray is looked for, and every network is built and bounded
(supervised, so limits and Ctrl-C hold) before Ray starts; then
:func:`tesearch.search.sweep.driver.run_sweep` runs the tasks in a supervised child of its own session
(:func:`tesearch.search.sweep.driver.supervised_sweep`: Ray dies with it; docs/sweep.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from tesearch.cli.app import AtLeast
from tesearch.cli.options import (EXCHANGE_OPTION, FORCE_OPTION, JSON_OPTION, SEARCH_TIMEOUT_S, limit_options,
                                  output_option)
from tesearch.running.errors import OptionError

#: --seeds: every seed is one more task per network
MAX_SEEDS = 256
#: --num-cpus of a local Ray (Ray itself refuses absurd counts only far above this)
MAX_LOCAL_CPUS = 4096


@click.command()
@click.argument("networks", nargs=-1, required=True)
@EXCHANGE_OPTION
@click.option("--out-dir", type=click.Path(exists=True, file_okay=False, writable=True, path_type=Path),
              default=None, help="Write each network's table (NAME.json, keep-better rule) and the runs record "
                                 "sweep-runs.json here. Without it nothing is written.")
@FORCE_OPTION
@output_option("--runs", help="Write the runs record here instead of DIR/sweep-runs.json (it may be given "
                              "without --out-dir).")
@click.option("--address", default=None,
              help="Ray cluster to join (HOST:6379, or 'auto' for the one `ray start` runs on this node). "
                   "Default: a local Ray on this machine's cores, started and stopped by the command.")
@click.option("--num-cpus", type=AtLeast(1, MAX_LOCAL_CPUS), default=None,
              help=f"CPUs of the local Ray, 1 to {MAX_LOCAL_CPUS} (default: all of this machine's); "
                   f"not with --address.")
@click.option("--seeds", type=AtLeast(1, MAX_SEEDS), default=2, show_default=True,
              help=f"Solver seeds of the rotation search (one task each per network), 1 to {MAX_SEEDS}.")
@JSON_OPTION
@limit_options(timeout_default=SEARCH_TIMEOUT_S)
def sweep(networks, exchange, out_dir, force, runs, address, num_cpus, seeds, as_json, limits, quiet):
    """Run a portfolio per NETWORK as Ray tasks; the first verified table at the bound wins
    (exit 0 every network at its bound, 4 a limit or the solvers left one short, 1 a task's table failed
    the driver's verification)."""
    from tesearch.running.supervise import supervise
    from tesearch.search.sweep.driver import (RUNS_FILE, check_runs_file, prepare, require_ray, run_sweep,
                                       supervised_sweep)
    from tesearch.running.limits import Budget, command_start

    if address is not None and num_cpus is not None:
        raise OptionError("--num-cpus applies to a local Ray only; a cluster has the CPUs its nodes give it")
    if runs is None and out_dir is not None:
        runs = out_dir / RUNS_FILE
    if runs is not None:
        from tesearch.running.files import RUNS_KIND, check_output
        from tesearch.tables.loading import names_a_file

        # never an input, a link or a device, and a .json name; what it may replace is check_runs_file's rule
        check_output(runs, kind=RUNS_KIND, inputs=[n for n in networks if names_a_file(n)], force=True)
        check_runs_file(runs)
    require_ray()
    specs = list(dict.fromkeys(networks))
    prepared = supervise(lambda: prepare(specs, exchange, seeds=seeds), limits=limits, quiet=quiet)
    keys = [p.key for p in prepared]
    if len(set(keys)) != len(keys):
        raise OptionError(f"a network is named twice: {', '.join(sorted(k for k in keys if keys.count(k) > 1))}")

    def finish(ray_temp_dir):
        """The sweep and its report (in the supervised child that runs Ray); the exit code."""
        result = run_sweep(prepared, budget=Budget.of(limits, started=command_start()), out_dir=out_dir, force=force,
                           address=address,
                           num_cpus=num_cpus, quiet=quiet, limits=limits, runs_path=runs,
                           ray_temp_dir=ray_temp_dir)
        if as_json:
            click.echo(json.dumps({"networks": result.networks, "runs": str(result.runs_path) if result.runs_path
                                   else None, "exit_code": int(result.exit_code)}, indent=2))
        else:
            for n in result.networks:
                T = "no table" if n["T"] is None else f"T = {n['T']}"
                how = (f"optimal, won by {n['won_by']}" if n["outcome"] == "optimal"
                       else f"best bound {n['best_bound']} not reached" + (f" (best: {n['best_by']})" if n["best_by"] else ""))
                where = ""
                if n["written"]:
                    where = f"; written to {n['table']}"
                elif n["kept_T"] is not None:
                    where = f"; kept {n['table']} (it holds T = {n['kept_T']})"
                elif n["not_written"]:
                    where = f"; {n['not_written']}"
                counts = {}
                for task in n["tasks"]:
                    counts[task["outcome"]] = counts.get(task["outcome"], 0) + 1
                tally = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
                click.echo(f"{n['network']} {n['exchange']}: {T}, bound {n['best_bound']}: {how}{where} [{tally}]")
            if result.runs_path is not None:
                click.echo(f"runs record: {result.runs_path}")
        sys.stdout.flush()
        return result.exit_code

    return supervised_sweep(finish, limits=limits, quiet=quiet)
