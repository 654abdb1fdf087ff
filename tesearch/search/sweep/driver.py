"""The sweep driver: every network's portfolio as Ray tasks, the first verified table at the bound wins.

Where each piece runs, and why:

* **Preparation** (parsing every spec, building each group, its rotation and
  bounds, choosing the portfolio) runs under :func:`tesearch.running.supervise.supervise`
  in a forked child, before Ray starts: a bad spec ends the command with exit 2
  before anything is started or written, and ``--timeout``, ``--max-memory``
  and Ctrl-C hold there as in every command.  No Ray thread exists yet when
  that child is forked.
* **The driver** runs in a second supervised child (:func:`supervised_sweep`),
  forked before any Ray thread exists, with a session of its own: it starts
  Ray there, so the gcs_server, raylet, agents and workers share its process
  group.  The command's own process only watches: on Ctrl-C, SIGTERM or a
  limit it gives the driver :data:`STOP_GRACE_S` to cancel its tasks, then
  kills the whole group and every process the driver started, and exits 130,
  143 or 4 within 2 s (measured: a signal during ``ray.init`` included).
  Inside, the driver installs its own SIGINT and SIGTERM handlers (replacing
  the one ``ray.init`` sets), so a signal raises
  :class:`~tesearch.running.errors.Interrupted` between waits; ``finally`` then
  force-cancels every task and shuts down a Ray it started.  A table is
  written only when its network is settled, atomically; an interrupt writes
  nothing more (no runs record).  A local Ray keeps its files in a private
  temporary directory, removed at the end.
* **Each task** (:func:`tesearch.search.sweep.portfolio.run_entry`) runs one
  portfolio entry in a Ray worker with the time left to the command's
  deadline, and returns a plain record.  The solvers run in native code and do
  not see Python interrupts, so a task is stopped by ``ray.cancel(ref,
  force=True)``, which kills its worker process.

The driver trusts no record: :func:`accept` rebuilds the table from its JSON,
checks its network, exchange and generators, and verifies it against Theorem 1
(:func:`tesearch.tables.verify.verify_table`) before it counts.  A network is won by
the first accepted table at its best lower bound; its other tasks are then
cancelled.  At the deadline every remaining task is cancelled and each
unsettled network keeps its narrowest accepted table.  Files are written with
the keep-better rule of :mod:`tesearch.tables.outputs`.

``ray`` is imported only here, inside functions; without it :func:`require_ray`
raises the one-line "needs the ray extra" error (exit 2).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, TypeVar

from tesearch.running.errors import FormatError, OptionError, ResourceUnavailable, SolverUnavailable, TesearchError
from tesearch.running.files import read_json_file, write_atomically
from tesearch.facts.instance import Instance, instance
from tesearch.running.limits import Budget, phase
from tesearch.tables.outputs import Saved, save_table
from tesearch.running.supervise import Signalled, interruption, supervise
from tesearch.search.sweep.portfolio import CANCELLED, ERROR, REJECTED, Entry, Prepared, prepare, run_entry  # noqa: F401
from tesearch.tables.table import Table, table_from_json
from tesearch.running.terms import ExitCode

#: the runs record's file name in --out-dir, and its format tag
RUNS_FILE = "sweep-runs.json"
RUNS_FORMAT = "tesearch-sweep-runs"
RUNS_FORMAT_VERSION = 1
INSTALL_HINT = "tesearch sweep needs the ray extra: pip install 'tesearch[ray]'"
#: seconds between the driver's checks of its tasks (and of signals)
POLL_S = 0.25
#: seconds without an event after which a non-terminal progress display prints a "still working" line
HEARTBEAT_S = 10.0
#: seconds a local Ray takes to shut down (measured 2-3 s on 2 cores): the driver stops waiting this much
#: before the command's deadline when it started Ray itself
SHUTDOWN_S = 3.0
#: seconds (at most a tenth of the time) between the tasks' deadline and the driver's, to collect their tables
TASK_MARGIN_S = 3.0
#: seconds the driver waits for a TCP answer from --address HOST:PORT before it gives up (exit 2)
PROBE_S = 5.0
#: seconds a stopped sweep gets to cancel its tasks before its process group is killed (2 s in all)
STOP_GRACE_S = 0.5
T = TypeVar("T")
#: the phase while Ray starts or is joined: a time limit reached there names it
STARTING_RAY = "starting Ray"
#: the start of the one line (exit 4) when a local Ray cannot start: tests accept exactly this outcome on a busy machine
LOCAL_RAY_FAILED = "cannot start a local Ray"
#: what that line goes on to say
LOCAL_RAY_FAILED_HINT = ("the machine is too busy or short of memory for Ray to start now; nothing was written: "
                         "try again when it is quieter, or join a running Ray with --address")
#: Ray object store of a local sweep: records are small (a table is a few MB at most)
LOCAL_OBJECT_STORE_BYTES = 256 << 20


def require_ray():
    """The ray module, or SolverUnavailable (exit 2) naming the extra to install."""
    try:
        import ray
    except ImportError:
        raise SolverUnavailable(INSTALL_HINT) from None
    return ray


def accept(record: dict, network: Instance | str, exchange: str) -> tuple[Table | None, str | None]:
    """(the record's table, None) if the driver's own checks pass; (None, why not) otherwise.

    The table must parse as tesearch-table v1, carry the T the record says, and pass
    :func:`tesearch.tables.loading.judge_table` against this network (an instance, or a spec) and exchange:
    the same label and generators, complete validity under Theorem 1, right recorded bounds.
    A record without a table is (None, None).
    """
    from tesearch.tables.loading import judge_table

    data = record.get("table") if isinstance(record, dict) else None
    if data is None:
        return None, None
    try:
        table = table_from_json(data, where="task table")
    except TesearchError as exc:
        return None, f"not a table: {exc}"
    if record.get("T") != table.T:
        return None, f"the record says T = {record.get('T')} but the table has T = {table.T}"
    spec = network.spec if isinstance(network, Instance) else network
    try:
        facts = network if isinstance(network, Instance) else instance(spec, exchange)
    except TesearchError as exc:
        return None, f"cannot be checked: {exc}"
    if facts.exchange != exchange:
        return None, f"cannot be checked: the instance is of {facts.exchange}, not {exchange}"
    judged = judge_table(table, expected=facts, where="task table")
    return (table, None) if judged.accepted else (None, judged.problem)


@dataclass
class _Network:
    """The driver's state of one network."""

    prepared: Prepared
    tasks: list[dict] = field(default_factory=list)  # finished task records, in the order they ended
    best: Table | None = None
    best_by: str | None = None
    won: bool = False
    saved: Saved | None = None
    save_error: str | None = None
    rejected: int = 0

    @property
    def settled(self) -> bool:
        return self.won

    def summary(self, out_dir: Path | None) -> dict:
        p = self.prepared
        T = self.best.T if self.best is not None else None
        return {"network": p.spec, "exchange": p.exchange, "best_bound": p.bound, "binding_bound": p.binding,
                "outcome": "optimal" if self.won else ("found" if self.best is not None else "none"),
                "T": T, "won_by": self.best_by if self.won else None, "best_by": self.best_by,
                "table": str(out_dir / p.file_name) if out_dir is not None and self.best is not None else None,
                "written": bool(self.saved and self.saved.written),
                "kept_T": self.saved.kept_T if self.saved is not None else None,
                "not_written": self.save_error,
                "tasks": self.tasks}


@dataclass
class SweepResult:
    """What a sweep ended with: per network its summary, the runs record, and the exit code."""

    networks: list[dict]
    record: dict
    exit_code: ExitCode
    runs_path: Path | None


class _Starts:
    """A tiny Ray actor: tasks report when they start, so the driver can count tasks running."""

    def __init__(self):
        self.started: dict[str, float] = {}

    def start(self, key: str, when: float) -> None:
        """Task ``key`` started at ``when`` (time.time())."""
        self.started[key] = when

    def snapshot(self) -> dict[str, float]:
        """Every start reported so far."""
        return dict(self.started)


def _task(facts: Instance, entry: Entry, deadline: float, key: str, board, max_memory: int, max_order: int) -> dict:
    """The body of one Ray task: report the start, run the entry on the instance (module
    :mod:`tesearch.search.sweep.portfolio`)."""
    if board is not None:
        board.start.remote(key, time.time())
    return run_entry(facts, facts.exchange.value, entry, deadline, max_memory=max_memory, max_order=max_order)


class _Progress:
    """Progress: one line per event when stderr is not a terminal, a tqdm bar on a terminal."""

    def __init__(self, quiet: bool, total: int, networks: int, started: float):
        self.quiet, self.total, self.networks, self.started = quiet, total, networks, started
        self.bar = None
        self.running = self.done = self.won = 0
        self.last = time.monotonic()
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc="sweep", unit="task", leave=False, file=sys.stderr, dynamic_ncols=True)

    def counts(self, running: int, done: int, won: int) -> None:
        self.running, self.done, self.won = running, done, won
        if self.bar is not None:
            self.bar.n = done
            self.bar.set_postfix_str(f"running {running}, won {won}/{self.networks}", refresh=True)

    def tick(self) -> None:
        """A heartbeat line when nothing was printed for HEARTBEAT_S (no terminal, not quiet)."""
        if not self.quiet and self.bar is None and time.monotonic() - self.last >= HEARTBEAT_S:
            self.event("still working")

    def event(self, text: str) -> None:
        self.last = time.monotonic()
        if self.quiet:
            return
        line = (f"[{time.monotonic() - self.started:7.1f}s] {text} | tasks: {self.running} running, "
                f"{self.done}/{self.total} done; networks won {self.won}/{self.networks}")
        if self.bar is not None:
            self.bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class _SignalFlag:
    """SIGINT/SIGTERM noted, not raised: an exception raised inside Ray's native wait becomes a
    SystemError, so the driver checks the flag after every wait (at most POLL_S later)."""

    def __init__(self):
        self.signum: int | None = None

    def __call__(self, signum, _frame):
        if self.signum is None:
            self.signum = signum

    def check(self) -> None:
        if self.signum is not None:
            raise Signalled(self.signum)


def check_runs_file(path: Path) -> dict:
    """The runs record already at ``path`` (empty if none); FormatError (exit 2) if that file is something else."""
    if not path.exists():
        return {}
    try:
        data = read_json_file(path)
    except TesearchError:
        data = None
    if not isinstance(data, dict) or data.get("format") != RUNS_FORMAT or not isinstance(data.get("networks"), dict):
        raise FormatError(f"not replaced: it is not a {RUNS_FORMAT} record; it is left as it was "
                          f"(move it or choose another --out-dir)", where=str(path))
    return data


def probe_address(address: str, timeout_s: float = PROBE_S) -> None:
    """OptionError (exit 2) unless HOST:PORT accepts a TCP connection within ``timeout_s``.

    ``ray.init`` retries an unreachable address for minutes in native code, where neither
    --timeout nor Ctrl-C reach it; this probe fails fast instead.  Other forms ('auto',
    'ray://...') are left to Ray, which answers them quickly.
    """
    import socket

    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise OptionError(f"--address {address}: nothing answers there ({exc.strerror or exc}); start the head "
                          f"node with `ray start --head --port {port}` (docs/sweep.md)") from None


def supervised_sweep(run: Callable[[str | None], T], *, limits, quiet: bool = False) -> T:
    """``run(ray_temp_dir)`` (the sweep and its report) in a supervised child with a session of its own.

    The child starts Ray, so Ray's gcs_server, raylet, agents and workers share the child's process
    group and session: on SIGINT, SIGTERM or a limit the command stops the child (SIGTERM, then
    after :data:`STOP_GRACE_S` SIGKILL to the whole group and every process it started) and exits
    130, 143 or 4 within 2 s, a signal during ``ray.init`` included.  Ray's files go to a private
    temporary directory (``ray_temp_dir``), removed at the end.  When this process already runs Ray
    (a test, a notebook), ``run(None)`` runs here instead: forking a process with Ray's threads is unsafe.
    """
    ray = require_ray()
    if ray.is_initialized():
        return run(None)
    # Ray's socket paths must stay under 107 bytes: a short base directory
    base = tempfile.gettempdir() if len(tempfile.gettempdir()) <= 24 else "/tmp"
    scratch = tempfile.mkdtemp(prefix="tesearch-ray-", dir=base)
    try:
        return supervise(lambda: run(scratch), limits=limits, quiet=True, stop_grace_s=STOP_GRACE_S,
                         stopped_note="Ray stopped; tables written before the signal stay, nothing else was written")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        if os.path.exists(scratch):  # a Ray process was still writing its log: once more
            time.sleep(0.2)
            shutil.rmtree(scratch, ignore_errors=True)


def _init_ray(ray, address: str | None, num_cpus: int | None, temp_dir: str | None = None) -> bool:
    """Start (or join) Ray; True when this call started it (the driver shuts it down then).

    While ``ray.init`` runs (native code), SIGINT and SIGTERM take their default action, so a
    Ctrl-C always ends the command (killed by the signal: the shell reports 130); the raylet and
    workers of a local Ray die with it.
    """
    import logging

    if ray.is_initialized():  # a caller (a test, a notebook) runs Ray already: use it, leave it running
        return False
    if address is not None:
        probe_address(address)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    try:
        if address is not None:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR, ignore_reinit_error=True)
        else:
            ray.init(address="local", num_cpus=num_cpus or os.cpu_count() or 1, include_dashboard=False,
                     log_to_driver=False, logging_level=logging.ERROR, ignore_reinit_error=True,
                     object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                     **({} if temp_dir is None else {"_temp_dir": temp_dir}))
    except Exception as exc:  # Ray's errors name the problem; one line of it
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
        if address is not None:  # nothing of ours there: bad input, exit 2
            raise OptionError(f"--address {address}: cannot join a Ray cluster there ({first}); "
                              f"docs/sweep.md says how to start one") from None
        # a local start that fails is the machine's trouble, not the input's (at a load of 15 to 25 Ray's raylet
        # or GCS does not come up in time): exit 4 with the reason
        raise ResourceUnavailable(f"{LOCAL_RAY_FAILED} ({first}); {LOCAL_RAY_FAILED_HINT}") from None
    return True


def run_sweep(prepared: list[Prepared], *, budget: Budget, out_dir: Path | None, force: bool = False,
              address: str | None = None, num_cpus: int | None = None, quiet: bool = False,
              limits=None, accept_table: Callable = accept, runs_path: Path | None = None,
              ray_temp_dir: str | None = None) -> SweepResult:
    """Run every network's portfolio as Ray tasks until each is won or ``budget`` is spent.

    See the module doc.  Returns the summaries, the runs record (written to ``runs_path``, by default
    ``out_dir / RUNS_FILE`` when ``out_dir`` is given)
    and the exit code: 0 when every network got a verified table at its best bound; 1 when a task
    returned a table the driver's verification refused; 2 when a table could not be written (the file
    there is not a table of that network); 4 otherwise (the time limit or the solvers
    stopped some network short of its bound).  SIGINT / SIGTERM raise Interrupted (exit 130 / 143).
    """
    from tesearch.running.limits import DEFAULT_MAX_MEMORY, DEFAULT_MAX_ORDER

    ray = require_ray()
    max_memory = limits.max_memory if limits is not None else DEFAULT_MAX_MEMORY
    max_order = limits.max_order if limits is not None else DEFAULT_MAX_ORDER
    if runs_path is None and out_dir is not None:
        runs_path = out_dir / RUNS_FILE
    previous_runs = check_runs_file(runs_path) if runs_path is not None else {}
    wall_start = datetime.now(timezone.utc)
    started = time.monotonic()
    states = {p.key: _Network(p) for p in prepared}
    total = sum(len(p.entries) for p in prepared)
    view = _Progress(quiet, total, len(prepared), started)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    owned = False
    pending: dict = {}  # ref -> (network key, entry, task key)
    submitted: dict[str, float] = {}
    starts: dict[str, float] = {}
    board = None
    flag = _SignalFlag()
    try:
        with phase(STARTING_RAY):  # a limit that strikes while Ray starts says so (a busy machine, exit 4)
            owned = _init_ray(ray, address, num_cpus, ray_temp_dir)
        for sig in handlers:  # ray.init sets its own SIGTERM handler: ours decides
            signal.signal(sig, flag)
        if owned:  # leave time to shut Ray down before the command's deadline
            budget = budget.reserving(SHUTDOWN_S, fraction=0.25)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        view.event(f"Ray {'started locally' if owned and address is None else 'joined at ' + str(address or 'the running instance')}"
                   f" with {cpus} CPUs; {total} tasks for {len(prepared)} network(s)")
        board = ray.remote(num_cpus=0)(_Starts).remote()
        remote = ray.remote(num_cpus=1, max_retries=0)(_task)
        # the tasks' own deadline, a little before the driver's (to collect their tables), in wall-clock time
        # (nodes of a cluster share it, not time.monotonic())
        task_deadline = budget.reserving(TASK_MARGIN_S, fraction=0.1).wall_deadline
        # round robin over the networks, so that every network's best entries are queued first
        longest = max((len(p.entries) for p in prepared), default=0)
        shared = {p.key: ray.put(p.instance) for p in prepared}  # one copy of each instance in the object store
        for i in range(longest):
            for p in prepared:
                if i < len(p.entries):
                    entry = p.entries[i]
                    key = f"{p.key}: {entry}"
                    ref = remote.remote(shared[p.key], entry, task_deadline, key, board, max_memory, max_order)
                    pending[ref] = (p.key, entry, key)
                    submitted[key] = time.monotonic()
        while pending:
            flag.check()
            if budget.spent:
                _cancel(ray, pending, list(pending), states, starts, "the time limit was reached", view)
                break
            wait = max(0.01, min(POLL_S, budget.left))
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=wait)
            flag.check()
            try:
                starts = ray.get(board.snapshot.remote(), timeout=5)
            except Exception:  # progress only: a slow actor must not stop the sweep
                pass
            for ref in ready:
                network_key, entry, key = pending.pop(ref)
                state = states[network_key]
                record = _collect(ray, ref, state.prepared, entry, starts.get(key), submitted[key])
                _judge(record, state, accept_table)
                state.tasks.append(record)
                view.counts(_running(pending, starts), total - len(pending), sum(s.won for s in states.values()))
                view.event(_event_text(record, state))
                if state.won:
                    others = [r for r, (k, _, _) in pending.items() if k == network_key]
                    _cancel(ray, pending, others, states, starts, f"{state.best_by} won", view)
                    _save(state, out_dir, force, view)
            view.counts(_running(pending, starts), total - len(pending), sum(s.won for s in states.values()))
            view.tick()
        flag.check()
        for state in states.values():
            if not state.won and state.best is not None:
                _save(state, out_dir, force, view)
            elif not state.won:
                view.event(f"{state.prepared.key}: no verified table")
    except Signalled as sig:
        written = [str(out_dir / s.prepared.file_name) for s in states.values() if s.saved and s.saved.written]
        raise interruption(sig.signum, "; Ray tasks cancelled; "
                           + (f"tables written before the interrupt: {', '.join(written)}; nothing else was written"
                              if written else "nothing was written")) from None
    finally:
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})  # no second Ctrl-C mid-cleanup
            for ref in list(pending):
                try:
                    ray.cancel(ref, force=True)
                except Exception:
                    pass
            if owned:
                ray.shutdown()
            elif board is not None:
                try:
                    ray.kill(board)
                except Exception:
                    pass
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})  # to the flag, not to
            for sig, handler in handlers.items():  # the previous handlers
                signal.signal(sig, handler)
            view.close()
    summaries = [s.summary(out_dir) for s in states.values()]
    record = {"format": RUNS_FORMAT, "format_version": RUNS_FORMAT_VERSION,
              "networks": dict(previous_runs.get("networks", {}))}
    for summary in summaries:
        summary["sweep"] = {"started": wall_start.isoformat(timespec="seconds"),
                            "seconds": round(time.monotonic() - started, 3),
                            "ray": address or "local",
                            "timeout_s": limits.timeout_s if limits is not None else None}
        record["networks"][f"{summary['network']} {summary['exchange']}"] = summary
    if runs_path is not None:
        write_atomically(runs_path, json.dumps(record, indent=1) + "\n")
    if any(s.rejected for s in states.values()):
        code = ExitCode.FAILED
    elif any(s.save_error for s in states.values()):
        code = ExitCode.BAD_INPUT
    elif all(s.won for s in states.values()):
        code = ExitCode.OK
    else:
        code = ExitCode.UNKNOWN
    return SweepResult(summaries, record, code, runs_path)


def _running(pending: dict, starts: dict) -> int:
    return sum(1 for _, _, key in pending.values() if key in starts)


def _collect(ray, ref, prepared: Prepared, entry: Entry, started_at: float | None, submitted: float) -> dict:
    """The record a finished task returned, or an error record for a task that failed in Ray itself."""
    try:
        record = ray.get(ref)
        if not isinstance(record, dict):
            raise TypeError(f"a task returned {type(record).__name__}, not a record")
    except Exception as exc:  # the worker died, or Ray failed the task: the sweep goes on
        record = {"network": prepared.spec, "exchange": prepared.exchange, "outcome": ERROR, "T": None,
                  "table": None, "seconds": round(time.monotonic() - submitted, 3),
                  "stop_reason": f"the task failed in Ray: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
    record.update({"entry": str(entry), "strategy": entry.strategy, "seed": entry.seed, "backend": entry.backend,
                   "params": dict(entry.params)})
    record.setdefault("seconds", None)
    return record


def _judge(record: dict, state: _Network, accept_table: Callable) -> None:
    """Verify the record's table (the driver's own check), keep it if narrower, and note a win."""
    p = state.prepared
    table, why = accept_table(record, p.instance, p.exchange)
    record["verified"] = table is not None if record.get("table") is not None else None
    record.pop("table", None)  # the record keeps T; the table itself goes to its file
    if why is not None:
        record["outcome"] = REJECTED
        record["stop_reason"] = f"the driver refused its table: {why}"
        state.rejected += 1
        return
    if table is None or state.won:
        return
    if state.best is None or table.T < state.best.T:
        state.best, state.best_by = table, record["entry"]
    if table.T <= p.bound:
        state.won = True
        record["won"] = True


def _cancel(ray, pending: dict, refs: list, states: dict, starts: dict, why: str, view: _Progress) -> None:
    """Force-cancel ``refs`` (their workers are killed: native solvers do not see Python interrupts)."""
    now = time.time()
    for ref in refs:
        network_key, entry, key = pending.pop(ref)
        try:
            ray.cancel(ref, force=True)
        except Exception:  # already finished: its record is dropped, the network is settled
            pass
        began = starts.get(key)
        states[network_key].tasks.append({
            "network": states[network_key].prepared.spec, "exchange": states[network_key].prepared.exchange,
            "entry": str(entry), "strategy": entry.strategy, "seed": entry.seed, "backend": entry.backend,
            "params": dict(entry.params), "outcome": CANCELLED, "T": None, "verified": None,
            "seconds": round(now - began, 3) if began is not None else 0.0,
            "stop_reason": f"cancelled {'while running' if began is not None else 'before it started'}: {why}"})
    if refs:
        view.counts(_running(pending, starts), view.total - len(pending), view.won)
        view.event(f"cancelled {len(refs)} task(s): {why}")


def _save(state: _Network, out_dir: Path | None, force: bool, view: _Progress) -> None:
    """Write the network's table under the keep-better rule (only the driver writes)."""
    if out_dir is None or state.best is None or state.saved is not None:
        return
    path = out_dir / state.prepared.file_name
    try:
        state.saved = save_table(state.best, path, force=force)
        view.event(f"{state.prepared.key}: {state.saved.text(state.best.T)}")
    except OptionError as exc:
        state.save_error = str(exc)
        view.event(f"{state.prepared.key}: {exc}")


def _event_text(record: dict, state: _Network) -> str:
    p = state.prepared
    T = f" T={record['T']}" if record.get("T") is not None else ""
    won = f"; WON at the bound {p.bound}" if record.get("won") else ""
    reason = f" ({record['stop_reason']})" if record.get("stop_reason") and record["outcome"] != "found" else ""
    return f"{p.key}: {record['entry']}: {record['outcome']}{T} in {record.get('seconds')}s{won}{reason}"
