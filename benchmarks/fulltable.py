"""The whole-table SAT model as a resumable campaign: widths decided from the top down, a checkpoint after each.

    python -m benchmarks.fulltable bubblesort-5 [--from 164] [--down-to 154] [--upward] [--cut dual|none]
                                                [--stop-at 01:45] [--state FILE]
    python -m benchmarks.fulltable --calibrate bubblesort-4 pancake-4 [--per-width 600] [--report FILE]

A campaign starts one below the committed table (``results/NETWORK.json``) and solves width after width of
:mod:`tesearch.solvers.fulltable` with CaDiCaL (python-sat, DRAT proof on).  A sat width gives a verified table
(``results/fulltable/NETWORK-T<W>.json``, made by TableBuilder; then the kernel's Theorem 1 and the replay run
on it); an unsat width writes the CNF and its DRAT proof to ``encodings/`` and ends the campaign (the optimum is
one above); ``--upward`` solves from the bound up instead, and a sat width ends it (the optimum).  The formula
carries the counting cut of the word-choice LP's dual weights unless ``--cut none`` (sound for any weights: see
docs/notes/full-table-cnf.md); each attempt records its cut.  A width that runs out of time (``--per-width``, ``--stop-at``) or is stopped by Ctrl-C/SIGTERM is
``unknown``: never unsat; its solver time is kept in the state as an attempt, and the next run starts that width
again (CaDiCaL's state cannot be saved: an attempt restarts from nothing).  The state file
(``results/fulltable/NETWORK.state.json``) is written atomically after every width decided and at every stop,
so a run resumes where the last one stopped.  A heartbeat line every minute shows the width and its time.

``--calibrate`` runs, on networks whose optimum is known (the committed table meets the bound), the widths
optimum+2, optimum+1, optimum and optimum-1 with a time limit each, and prints (or writes) the time per width
against its distance from the optimum.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import signal
import sys
import threading
import time
from pathlib import Path

from tesearch.running.errors import run_script
from tesearch.running.files import write_atomically
from tesearch.running.terms import SolveResult

ROOT = Path(__file__).resolve().parent.parent
STATE_FORMAT = "tesearch-fulltable-campaign"
HEARTBEAT_S = 60


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def seconds_until(stop_at: str | None) -> float | None:
    """Seconds from now to the next HH:MM UTC, or None."""
    if not stop_at:
        return None
    hour, minute = (int(x) for x in stop_at.split(":"))
    now = _utc_now()
    target = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if target <= now:
        target += dt.timedelta(days=1)
    return (target - now).total_seconds()


def committed_width(spec: str) -> int | None:
    """The width of the committed table results/SPEC.json, if there is one."""
    path = ROOT / "results" / f"{spec}.json"
    if not path.exists():
        return None
    return int(json.loads(path.read_text())["T"])


def load_state(path: Path, spec: str, symmetry: bool) -> dict:
    """The campaign's state (a fresh one if the file does not exist)."""
    if path.exists():
        state = json.loads(path.read_text())
        if state.get("format") != STATE_FORMAT or state.get("network") != spec:
            raise SystemExit(f"fulltable: {path} is not this campaign's state (network {state.get('network')!r})")
        if state.get("symmetry") != symmetry:
            raise SystemExit(f"fulltable: {path} was run with symmetry {state.get('symmetry')}; pass the same")
        return state
    return {"format": STATE_FORMAT, "version": 1, "network": spec, "exchange": "total", "symmetry": symmetry,
            "widths": {}, "attempts": [], "runs": []}


def save_state(path: Path, state: dict) -> None:
    """Write the state atomically (the previous file stays whole until the new one is complete)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(state, indent=1, sort_keys=True) + "\n")


class Heartbeat:
    """A line every HEARTBEAT_S seconds while a width is being solved."""

    def __init__(self, label: str):
        self.label, self.started, self.done = label, time.perf_counter(), threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.done.wait(HEARTBEAT_S):
            print(f"  {self.label}: still solving, {time.perf_counter() - self.started:.0f} s", flush=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()


def check_table_file(path: Path) -> dict:
    """The kernel's Theorem 1 and the replay on a written table file: {theorem1, replay} verdicts."""
    from tesearch.checking.kernel.graph import build_network
    from tesearch.checking.kernel.loader import load_input
    from tesearch.checking.kernel.theorem1 import check_theorem1
    from tesearch.checking.replay import replay_file

    inp = load_input(path)
    net = build_network(inp.letters, inp.generators)
    theorem1 = check_theorem1(inp, net)
    report = replay_file(path)
    return {"theorem1": "ok" if theorem1.ok else f"violations: {theorem1.violations[:3]}",
            "replay": "ok" if getattr(report, "ok", False) else str(getattr(report, "detail", report))}


def solve_one(facts, width: int, timeout_s: float | None, stopper, label: str, cut: tuple[int, ...] | None = None):
    """One width through tesearch.search.fulltable.solve_width, with a heartbeat."""
    from tesearch.search.fulltable import solve_width

    with Heartbeat(label):
        return solve_width(facts, width, timeout_s=timeout_s, stopper=stopper, cut=cut)


#: ``--cut``: the word-choice LP's dual weights (tesearch.facts.wordchoice.dual_letter_weights), or no counting cut
CUT_CHOICES = ("dual", "none")


def chosen_cut(facts, choice: str) -> tuple[int, ...] | None:
    """The counting cut's letter weights for ``--cut`` (None: the formula without it)."""
    from tesearch.facts.wordchoice import dual_letter_weights

    return dual_letter_weights(facts) if choice == "dual" else None


def write_unsat(spec: str, outcome, root: Path = ROOT) -> dict:
    """The CNF and the DRAT proof of an unsat width, under ``root``/encodings/: their record."""
    from tesearch.checking.proof import sha256_text

    (root / "encodings").mkdir(parents=True, exist_ok=True)
    base = root / "encodings" / f"{spec}_total-fulltable-T{outcome.width}"
    text = outcome.cnf.dimacs()
    proof = "\n".join(outcome.proof or []) + "\n"
    write_atomically(base.with_suffix(".cnf"), text)
    write_atomically(base.with_suffix(".drat"), proof)
    return {"encoding": str(base.with_suffix(".cnf").relative_to(root)), "encoding_sha256": sha256_text(text),
            "proof": str(base.with_suffix(".drat").relative_to(root)), "proof_sha256": sha256_text(proof),
            "proof_lines": len(outcome.proof or [])}


def campaign(args) -> int:
    """The top-down campaign on one network (module doc)."""
    from tesearch.facts.instance import instance
    from tesearch.search.fulltable import Stopper
    from tesearch.tables.table import write_table

    spec = args.networks[0]
    root = Path(args.root)
    state_path = Path(args.state) if args.state else root / "results" / "fulltable" / f"{spec}.state.json"
    state = load_state(state_path, spec, not args.no_symmetry)
    facts = instance(spec)
    best = committed_width(spec)
    top = args.start if args.start is not None else (best - 1 if best else None)
    if top is None:
        raise SystemExit(f"fulltable: no committed table for {spec}: pass --from")
    floor = args.down_to if args.down_to is not None else facts.bounds.best
    widths = range(floor, top + 1) if args.upward else range(top, floor - 1, -1)
    if not widths:
        print(f"{spec}: no width between {floor} and {top} is left to decide", flush=True)
        return 0
    cut = chosen_cut(facts, args.cut)
    deadline = seconds_until(args.stop_at)
    began = time.perf_counter()
    stopper = Stopper()

    def on_signal(signum, _frame):
        stopper.stop("interrupted by " + signal.Signals(signum).name)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    run = {"started": _utc_now().isoformat(timespec="seconds"), "widths": []}
    state["runs"].append(run)
    run["cut"] = list(cut) if cut is not None else None
    print(f"{spec}: widths {widths[0]} {'up' if args.upward else 'down'} to {widths[-1]} (bound {facts.bounds.best}, "
          f"committed table {best}; counting cut {'off' if cut is None else ','.join(map(str, cut))}); "
          f"state {state_path}", flush=True)
    interrupted = False
    for width in widths:
        known = state["widths"].get(str(width))
        if known is not None:
            print(f"  T = {width}: {known['result']} (decided before, {known['seconds']:.1f} s)", flush=True)
            if known["result"] == ("sat" if args.upward else "unsat"):
                break
            continue
        left = None if deadline is None else deadline - (time.perf_counter() - began)
        limit = min(x for x in (left, args.per_width) if x is not None) if (left, args.per_width) != (None, None) \
            else None
        if limit is not None and limit <= 0:
            break
        print(f"  T = {width}: solving (limit {'none' if limit is None else f'{limit:.0f} s'})", flush=True)
        outcome = solve_one(facts, width, limit, stopper, f"T = {width}", cut)
        record = {"result": outcome.result.value, "seconds": round(outcome.seconds, 2), "cut": run["cut"],
                  "cut_budget": outcome.cnf.cut_budget if outcome.cnf is not None else None,
                  "cpu_seconds": round(outcome.cpu_seconds, 2),
                  "build_seconds": round(outcome.build_seconds, 2), "variables": outcome.variables,
                  "clauses": outcome.clauses, "decided": _utc_now().isoformat(timespec="seconds")}
        if outcome.result is SolveResult.UNKNOWN:
            record["reason"] = outcome.reason
            state["attempts"].append({"width": width, **record})
            run["widths"].append({"width": width, **record})
            save_state(state_path, state)
            print(f"  T = {width}: unknown after {outcome.seconds:.0f} s, {outcome.cpu_seconds:.0f} s CPU "
                  f"({outcome.reason}); checkpoint saved",
                  flush=True)
            interrupted = stopper.stopped and outcome.reason.startswith("interrupted")
            break
        if outcome.result is SolveResult.SAT:
            path = root / "results" / "fulltable" / f"{spec}-T{width}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_table(outcome.table, path)
            record["table"] = str(path.relative_to(root))
            record.update(check_table_file(path))
        else:
            record.update(write_unsat(spec, outcome, root))
        before = [a["seconds"] for a in state["attempts"] if a["width"] == width]
        record["seconds_in_earlier_attempts"] = round(sum(before), 2)
        state["widths"][str(width)] = record
        run["widths"].append({"width": width, **record})
        save_state(state_path, state)
        print(f"  T = {width}: {outcome.result.value} in {outcome.seconds:.1f} s ({outcome.cpu_seconds:.1f} s CPU) "
              f"({outcome.variables} variables, {outcome.clauses} clauses); checkpoint saved", flush=True)
        if outcome.result is SolveResult.UNSAT and not args.upward:
            print(f"{spec}: no table of width {width}; the optimum is {width + 1}", flush=True)
            break
        if outcome.result is SolveResult.SAT and args.upward:
            print(f"{spec}: a table of width {width}, and none narrower; the optimum is {width}", flush=True)
            break
    run["wall_seconds"] = round(time.perf_counter() - began, 1)
    run["stopped"] = _utc_now().isoformat(timespec="seconds")
    save_state(state_path, state)
    if interrupted:
        raise KeyboardInterrupt
    return 0


def calibrate(args) -> int:
    """Time per width around the known optimum of each network (module doc)."""
    from tesearch.facts.instance import instance
    from tesearch.search.fulltable import Stopper

    rows = []
    stopper = Stopper()
    signal.signal(signal.SIGINT, lambda *_: stopper.stop("interrupted by SIGINT"))
    for spec in args.networks:
        facts = instance(spec)
        optimum = committed_width(spec)
        if optimum is None or optimum != facts.bounds.best:
            raise SystemExit(f"fulltable: {spec} has no committed table at its bound; its optimum is not known")
        cut = chosen_cut(facts, args.cut)  # one LP per network, not per width
        for delta in args.deltas:
            width = optimum + delta
            outcome = solve_one(facts, width, args.per_width, stopper, f"{spec} T = {width}", cut)
            rows.append((spec, optimum, delta, width, outcome))
            print(f"{spec} T = {width} (optimum {delta:+d}): {outcome.result.value} in {outcome.seconds:.2f} s "
                  f"({outcome.cpu_seconds:.2f} s CPU), "
                  f"build {outcome.build_seconds:.1f} s, {outcome.variables} variables, {outcome.clauses} clauses"
                  + (f", proof {len(outcome.proof)} lines" if outcome.proof else "")
                  + (f" ({outcome.reason})" if outcome.reason else ""), flush=True)
            if stopper.stopped and outcome.reason.startswith("interrupted"):
                raise KeyboardInterrupt
    if args.report:
        write_atomically(Path(args.report), calibration_report(rows, args))
    return 0


def calibration_report(rows, args) -> str:
    """The calibration as a markdown table."""
    import os

    lines = ["# Full-table SAT model: solve time against the distance from the optimum", "",
             f"`python -m benchmarks.fulltable --calibrate {' '.join(args.networks)} --per-width {args.per_width:g}"
             f" --deltas {' '.join(str(d) for d in args.deltas)}`, {_utc_now():%Y-%m-%d %H:%M} UTC, "
             f"load average {os.getloadavg()[0]:.1f} on 2 cores (shared; CaDiCaL 1.9.5 via python-sat, "
             f"DRAT proof on, symmetry breaking on, counting cut {args.cut}). unknown = the per-width limit ran out: "
             "not unsat.", "",
             "| network | optimum | width | distance | result | solve s (wall) | solve s (CPU) | build s | variables | clauses |"
             " proof lines |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for spec, optimum, delta, width, o in rows:
        lines.append(f"| {spec} | {optimum} | {width} | {delta:+d} | {o.result.value} | {o.seconds:.2f} | {o.cpu_seconds:.2f} | "
                     f"{o.build_seconds:.1f} | {o.variables} | {o.clauses} | "
                     f"{len(o.proof) if o.proof else '-'} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    """Parse the options and run the campaign or the calibration."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fulltable", description=__doc__.split("\n")[0])
    parser.add_argument("networks", nargs="+")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--from", dest="start", type=int)
    parser.add_argument("--down-to", type=int)
    parser.add_argument("--per-width", type=float, help="seconds per width (unknown after)")
    parser.add_argument("--stop-at", help="HH:MM UTC: stop then, checkpointed")
    parser.add_argument("--state", help="the campaign's state file")
    parser.add_argument("--no-symmetry", action="store_true")
    parser.add_argument("--cut", choices=CUT_CHOICES, default="dual",
                        help="the counting cut: the word-choice LP's dual weights (default) or none")
    parser.add_argument("--upward", action="store_true",
                        help="from the bound (or --down-to) up to --from: the first sat width is the optimum")
    parser.add_argument("--deltas", type=int, nargs="+", default=[2, 1, 0, -1])
    parser.add_argument("--report", help="write the calibration table here")
    parser.add_argument("--root", default=str(ROOT), help="where results/fulltable/ and encodings/ are written "
                        "(default: this checkout)")
    args = parser.parse_args(argv)
    if args.calibrate:
        return calibrate(args)
    if len(args.networks) != 1:
        parser.error("a campaign runs one network")
    return campaign(args)


if __name__ == "__main__":
    run_script(main, sys.argv[1:])
