"""Issue-7 frontier runs through the CLI: results/frontier/runs.json and results/frontier.md.

The searches here are `tesearch search`, with the outcome recorded as it came (found
optimal, found with a gap, or unknown with the time spent) in results/frontier/runs.json.
The report results/frontier.md is built from runs.json, lifts.json (scripts/frontier_lifts.py),
lift-cores.json (experiments/lift_core.py), the metadata of the committed tables, their commands
in results/manifest.toml (constructions, stratified and repacked tables), and the notes in
docs/notes/frontier.md (the analysis of what was refuted and what is open).  Usage:

    .venv/bin/python -m scripts.frontier [--only SUBSTRING] [--timeout 120] [--jobs N]
    .venv/bin/python -m scripts.frontier --report      # only rewrite results/frontier.md
    .venv/bin/python -m scripts.frontier --sweep [--address ADDR] [--timeout 3600]
    .venv/bin/python -m scripts.frontier --strategies [--only star-8] [--out results/frontier-bench-star-8.md]

With --sweep the targets run through `tesearch sweep` (one per exchange, as Ray tasks: locally, or
on the cluster at --address; --timeout is then each sweep's whole wall-clock limit) instead of one
`tesearch search` each; the default stays the per-target search, which made the committed records.
Tables go to the same paths under the keep-better rule, so a sweep never replaces a stratified,
lifted or repacked table by a wider one; runs.json records the winning entry as the strategy.

With --strategies the frontier stars run side by side under every strategy, earlier and current
(STRATEGY_ROWS: star-7 and star-8, total and odd-distance; each row one real `tesearch` command to its end
or its timeout, in a fresh process, its table checked by `tesearch verify`), and a markdown table of wall
times, exit codes and widths is printed (--out: also written, with the command and the date:
results/frontier-bench-star-7.md and -star-8.md; about 45 minutes on 2 cores for every row).  Nothing under
results/frontier/ changes.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from scripts.markdown_report import Report

ROOT = Path(__file__).resolve().parent.parent
TESEARCH = str(Path(sys.executable).with_name("tesearch"))
STORE = ROOT / "results" / "frontier" / "runs.json"


def targets() -> list[tuple[str, list[str]]]:
    runs = [(f"torus-{n}x{n}", []) for n in range(13, 33)]
    runs += [(f"torus-{n}x{n}x{n}", []) for n in range(7, 13)]
    runs += [("torus-4x8x8", []), ("torus-8x8x16", [])]
    runs += [("pancake-6", []), ("bubblesort-6", [])]
    runs += [("star-7", ["--exchange", "odd-distance"]), ("star-7", [])]
    runs += [("star-8", ["--exchange", "odd-distance"]), ("star-8", [])]
    return runs


# Tables made by other commands than this script's searches, in the report's order; their
# commands come from results/manifest.toml.
STRATIFIED = ("star-7", "star-7-odd")  # tesearch stratify
REPACKED = ("pancake-6", "bubblesort-6")  # tesearch repack
CONSTRUCTED = {  # tesearch construct: which construction, and what the other rows had said
    "torus-10x10x10": "by seed 003 §3.4's even 3D construction (our search: unknown, row above)",
    "torus-12x12x12": "by seed 003 §3.4's even 3D construction (our search: unknown, row above)",
    "torus-8x16x16": "by mirror lanes, no solver (tesearch/constructions/lanes.py; every lift above: unknown or "
                     "refuted for its class)",
}

NOTES = ROOT / "docs" / "notes" / "frontier.md"
MANIFEST = ROOT / "results" / "manifest.toml"


def manifest_commands() -> dict[str, str]:
    """path -> the command results/manifest.toml records for it."""
    import tomllib

    if not MANIFEST.exists():
        return {}
    entries = tomllib.loads(MANIFEST.read_text())["entry"]
    return {e["path"]: e["command"] if isinstance(e["command"], str) else " && ".join(e["command"])
            for e in entries}


def current(command: str) -> str:
    """A recorded command in the current CLI (records made before the restructure name old entry points, and
    before issue 48 scripts that live in experiments/ now)."""
    from scripts.make_manifest import current as current_command, translate

    return current_command(translate(command))


def notes() -> list[str]:
    """docs/notes/frontier.md without its leading comment."""
    text = NOTES.read_text()
    if text.startswith("<!--"):
        text = text[text.index("-->") + 3:].lstrip("\n")
    return text.rstrip("\n").split("\n")


# Targets whose search needs more than the default time (star-8's core took 418 s as first run).
TIMEOUTS = {"star-8": 900, "star-9": 1200}

# Issue 32: the rotation search with another letter group than the cyclic rotation (tesearch/networks/symmetry.py),
# run only with --symmetry-targets; recorded under "NETWORK EXCHANGE symmetry=NAME".  star-9's memory
# ceiling keeps the run beside other work on a 23 GB machine (the Z3 core encoding alone passed 4 GiB).
SYMMETRY_TARGETS = [("star-9", ["--strategy", "rotation", "--symmetry", "Q8", "--max-memory", "6G"])]


#: --strategies: (network, exchange, label, command after `tesearch`, timeout in seconds): the earlier strategies
#: (the rotation search with the patient schedule, how star-8 was first found; symmetry stratification, how star-7
#: was) beside the current ones (the escalating schedule with Z3 and CP-SAT; the split strategy with CP-SAT)
STRATEGY_ROWS = [
    ("star-7", "total", "stratify (z3; earlier)", ["stratify", "star-7"], 900),
    ("star-7", "total", "rotation, patient (z3; earlier)", ["search", "star-7", "--core-schedule", "patient"], 300),
    ("star-7", "total", "split (cpsat)", ["search", "star-7", "--strategy", "split", "--solver", "cpsat",
                                         "--word-cap", "64"], 300),
    ("star-7", "odd-distance", "stratify (z3; earlier)",
     ["stratify", "star-7", "--exchange", "odd-distance", "--solver-timeout", "60"], 900),
    ("star-7", "odd-distance", "split (cpsat)", ["search", "star-7", "--exchange", "odd-distance", "--strategy",
                                                "split", "--solver", "cpsat", "--word-cap", "64"], 300),
    ("star-8", "total", "rotation, patient (z3; earlier)", ["search", "star-8", "--core-schedule", "patient"], 900),
    ("star-8", "total", "rotation, escalating (z3)", ["search", "star-8"], 600),
    ("star-8", "total", "rotation, escalating (cpsat)", ["search", "star-8", "--solver", "cpsat"], 900),
    ("star-8", "odd-distance", "rotation, patient (z3; earlier)",
     ["search", "star-8", "--exchange", "odd-distance", "--core-schedule", "patient"], 900),
    ("star-8", "odd-distance", "rotation, escalating (cpsat)",
     ["search", "star-8", "--exchange", "odd-distance", "--solver", "cpsat"], 900),
]


def tesearch(*args: str, timeout: float | None = None) -> subprocess.CompletedProcess:
    """One `tesearch` command in a fresh process (this interpreter), its output captured."""
    return subprocess.run([sys.executable, "-m", "tesearch.entry", *args], capture_output=True, text=True,
                          timeout=timeout)


def strategy_row(command: list[str], timeout: float, workdir: str) -> dict:
    """Run one --strategies row; its wall time, exit code, T and whether `tesearch verify` accepts the table."""
    out = os.path.join(workdir, "table.json")
    if os.path.exists(out):
        os.remove(out)
    started = time.monotonic()
    proc = tesearch(*command, "--timeout", str(timeout), "--out", out, "--quiet", timeout=timeout + 120)
    wall = time.monotonic() - started
    T, verified = None, None
    if os.path.exists(out):
        with open(out) as fh:
            T = json.load(fh)["T"]
        verified = tesearch("verify", out).returncode == 0
    return {"exit": proc.returncode, "wall": wall, "T": T, "verified": verified}


def compare_strategies(only: str | None, out: str | None) -> None:
    """The --strategies rows (of one network with ``only``), printed as a markdown table (and written to ``out``)."""
    report = Report(out, "python -m scripts.frontier --strategies" + (f" --only {only}" if only else ""))
    report.line("| network | exchange | strategy | wall s | exit | T | verify |")
    report.line("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as workdir:
        for network, exchange, label, command, timeout in STRATEGY_ROWS:
            if only and network != only:
                continue
            row = strategy_row(command, timeout, workdir)
            verdict = {True: "VALID", False: "FAILS", None: "-"}[row["verified"]]
            report.line(f"| {network} | {exchange} | {label} | {row['wall']:.1f} | {row['exit']} | "
                        f"{row['T'] if row['T'] is not None else '-'} | {verdict} |")
    report.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="searches run side by side (default: one per CPU)")
    ap.add_argument("--report", action="store_true", help="only rewrite results/frontier.md")
    ap.add_argument("--sweep", action="store_true", help="run the targets through `tesearch sweep` (Ray)")
    ap.add_argument("--address", default=None, help="with --sweep: the Ray cluster to use (default: local)")
    ap.add_argument("--symmetry-targets", action="store_true",
                    help="run the letter-group searches of SYMMETRY_TARGETS instead of the frontier targets")
    ap.add_argument("--strategies", action="store_true",
                    help="time every strategy on the frontier stars side by side (STRATEGY_ROWS; --only: one network)")
    ap.add_argument("--out", default=None, help="with --strategies: also write the table to this markdown file")
    args = ap.parse_args()
    if args.strategies:
        compare_strategies(args.only, args.out)
        return
    if args.report:
        write_report()
        return
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    chosen = [(spec, extra) for spec, extra in (SYMMETRY_TARGETS if args.symmetry_targets else targets())
              if not args.only or args.only in spec]
    if args.sweep:
        sweep_frontier(chosen, store, timeout=args.timeout, address=args.address)
        write_report()
        return
    # Each run is its own `tesearch search` process; the pool runs --jobs of them side by side.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for data in pool.map(lambda t: run_one(*t, timeout=args.timeout), chosen):
            store[run_key(data)] = data
            print(f"{data['network']:16s} {data['exchange']:12s} {data['status']:8s} T={data['T']} "
                  f"bound={data['best_bound']} {data['wall_seconds']}s", flush=True)
            STORE.parent.mkdir(parents=True, exist_ok=True)
            STORE.write_text(json.dumps(store, indent=1) + "\n")
    write_report()


def sweep_frontier(chosen: list[tuple[str, list[str]]], store: dict, *, timeout: float, address: str | None) -> None:
    """Every target through `tesearch sweep`, one sweep per exchange, recorded in runs.json as searches are."""
    from scripts.sweeping import sweep_targets

    for exchange in ("total", "odd-distance"):
        specs = [spec for spec, extra in chosen if ("--exchange" in extra) == (exchange != "total")]
        for data in sweep_targets(specs, exchange, "results/frontier", timeout=timeout, root=ROOT, address=address):
            data.pop("tasks")
            store[f"{data['network']} {data['exchange']}"] = data
            print(f"{data['network']:16s} {data['exchange']:12s} {data['status']:8s} T={data['T']} "
                  f"bound={data['best_bound']} {data['strategy']}", flush=True)
        STORE.parent.mkdir(parents=True, exist_ok=True)
        STORE.write_text(json.dumps(store, indent=1) + "\n")


def run_key(data: dict) -> str:
    """The record's key in runs.json: 'NETWORK EXCHANGE', with ' symmetry=NAME' for a letter-group run."""
    symmetry = data.get("symmetry")
    return f"{data['network']} {data['exchange']}" + (f" symmetry={symmetry}" if symmetry else "")


def run_one(spec: str, extra: list[str], *, timeout: int) -> dict:
    """One `tesearch search` run, recorded as it came (found, unknown, infeasible, a limit or error).

    ``--out`` replaces a committed table only with a narrower one (the CLI's rule): a rerun never
    overwrites a stratified star table or a CP-SAT repack with a wider one; a committed table that is
    gzipped (star-9's) is the one compared with.  A run stopped by a limit (exit 4) prints no JSON: its
    record keeps the status "limit", the best verified table's T it reported, and its last words.
    """
    odd = "--exchange" in extra
    out = f"results/frontier/{spec.replace(':', '-')}{'-odd' if odd else ''}.json"
    if (ROOT / f"{out}.gz").exists():
        out += ".gz"
    cmd = ["tesearch", "search", spec, *extra, "--timeout", str(TIMEOUTS.get(spec, timeout)), "--out", out]
    t0 = time.monotonic()
    proc = subprocess.run([TESEARCH, *cmd[1:], "--json", "--quiet"], capture_output=True, text=True, cwd=ROOT)
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        best = re.search(r"best verified table before the limit: T = (\d+)", proc.stderr)
        data = {"network": spec, "exchange": "odd-distance" if odd else "total",
                "status": "limit" if proc.returncode == 4 else "error",
                "T": int(best.group(1)) if best else None, "best_bound": None, "optimal": False, "strategy": "-",
                "seconds": None, "error": proc.stderr.strip()[-300:]}
    if "--symmetry" in extra:
        data["symmetry"] = extra[extra.index("--symmetry") + 1]
    data["network"] = spec
    data["command"] = " ".join(shlex.quote(c) for c in cmd)
    data["wall_seconds"] = round(time.monotonic() - t0, 1)
    return data


def best_bound(d: dict) -> int | None:
    """The record's best lower bound; for a run stopped by its limit before it printed one (its record says
    None), the bound recomputed from the network (tesearch.facts.info, as `tesearch info` prints it)."""
    if d.get("best_bound") is not None:
        return d["best_bound"]
    from tesearch.facts.info import network_info
    from tesearch.networks.families import network_from_spec

    return network_info(network_from_spec(d["network"]), d.get("exchange", "total"))["best_bound"]


def found_outcome(d: dict, lifts: dict, superseded: str) -> str:
    """The outcome cell of a run that found a table; ``superseded`` is added when a ring lift
    of the same network is optimal and this run is not."""
    if d.get("optimal"):
        return "optimal"
    outcome = f"found, gap {d['T'] - d['best_bound']} (not shown optimal)"
    if any(x["network"] == d["network"] and x.get("optimal") for x in lifts.values()):
        outcome += superseded
    return outcome


def newest_figures() -> dict[str, dict[str, int]]:
    """network -> {"bound": the best lower bound, "best": the narrowest committed total-exchange table's T} for every
    open case of results/frontier/word-choice.json (the bound: its certified word-choice bound or the table's own bounds;
    the table: every table entry of results/manifest.toml for that network, and the record's own table)."""
    import tomllib

    store = json.loads(WORD_CHOICE.read_text()) if WORD_CHOICE.exists() else {}
    entries = tomllib.loads(MANIFEST.read_text())["entry"] if MANIFEST.exists() else []
    figures = {}
    for network, record in store.items():
        table = record.get("table") or {}
        bounds = [(record.get("report") or {}).get("lower"), table.get("lower_bound"), table.get("letter_bound")]
        widths = [e["T"] for e in entries if e.get("kind") == "table" and e.get("network") == network
                  and e.get("exchange") == "total" and e.get("T") is not None] + [table.get("T")]
        figures[network] = {key: max(v) if key == "bound" else min(v) for key, v in
                            (("bound", [b for b in bounds if b is not None]),
                             ("best", [w for w in widths if w is not None])) if v}
    return figures


#: a network's name in the notes (the twisted 12x12x24 also as "twisted 12x12x24")
NETWORK_NAME = re.compile(r"(?<![\w/-])((?:star|pancake|bubblesort|torus|ring|hypercube)-\d+(?:x\d+)*(?::twisted)?"
                          r"|twisted \d+x\d+x\d+)(?![\w-])")
#: what the notes claim of a network: its bound, its best width, or "(best against bound)"
CLAIMS = (("bound", re.compile(r"\bbounds? (?:is |of |stays? |= )?(\d{2,})\b")),
          ("best", re.compile(r"\bbest(?: known)?(?: total table)?(?::| is| =|,)? (?:T = )?(\d{2,})\b")),
          ("against", re.compile(r"\((\d{2,}) against (\d{2,})\b")))


def _canonical(name: str) -> str:
    """The spec a name in the notes stands for."""
    match = re.fullmatch(r"twisted (\d+x\d+x\d+)", name)
    return f"torus-{match.group(1)}:twisted" if match else name


def stale_claims(text: str, figures: dict[str, dict[str, int]]) -> list[str]:
    """Every claim of ``text`` (the notes) about a network's bound or best width that is not its newest figure
    (:func:`newest_figures`) and whose clause does not give the newest one as "now N".

    A clause is the text after a network's name up to the next name or the end of its paragraph (a bullet with its
    continuation lines); a transition "X -> Y" or "from X to Y" counts as its last value.  So a dated section may keep
    what it measured then, but it must say what stands now beside it."""
    problems = []
    for number, paragraph in enumerate(re.split(r"\n(?=\s*(?:- |\n|#))", text)):
        flat = re.sub(r"\s+", " ", paragraph.replace("**", ""))
        flat = re.sub(r"\b\d+ -> (\d+)", r"\1", re.sub(r"\bfrom \d+ to (\d+)", r"\1", flat))
        names = list(NETWORK_NAME.finditer(flat))
        for name, after in zip(names, names[1:] + [None]):
            network = _canonical(name.group(1))
            if network not in figures:
                continue
            clause = flat[name.end():after.start() if after else len(flat)]
            claimed = []
            for kind, pattern in CLAIMS:
                for match in pattern.finditer(clause):
                    claimed += ([("best", match.group(1)), ("bound", match.group(2))] if kind == "against"
                                else [(kind, match.group(1))])
            for kind, value in claimed:
                newest = figures[network].get(kind)
                if newest is None or int(value) == newest or re.search(rf"\bnow\b[^.;]{{0,24}}\b{newest}\b", clause):
                    continue
                problems.append(f"{network}: the notes say {kind} {value}, the newest figure is {newest} "
                                f"(\"{name.group(1)}{clause[:90]}...\")")
    return problems


#: the header of a hand-written table of best widths (results/README.md): its rows are "| NETWORK | T | bound | ..."
BEST_TABLE_HEADER = re.compile(r"^\s*\| network \| T \| bound \|")


def stale_table_rows(text: str, figures: dict[str, dict[str, int]]) -> list[str]:
    """Every row of a table headed "| network | T | bound |" whose T or bound is not the newest figure of an open
    case (:func:`newest_figures`): a hand-written table of best widths has no clause to say "now N" in."""
    problems, inside = [], False
    for line in text.splitlines():
        if BEST_TABLE_HEADER.match(line):
            inside = True
            continue
        if not line.strip().startswith("|"):
            inside = False
            continue
        row = re.match(r"^\s*\| ([^|]+?) \| (\d+) \| (\d+) \|", line)
        if inside and row and (network := _canonical(row.group(1).strip())) in figures:
            for kind, value in (("best", row.group(2)), ("bound", row.group(3))):
                newest = figures[network].get(kind)
                if newest is not None and int(value) != newest:
                    problems.append(f"{network}: the table says {kind} {value}, the newest figure is {newest}")
    return problems


def write_report() -> None:
    """results/frontier.md from the run records, the committed tables, the manifest and the notes; refused (nothing
    written) while the notes contradict a newest figure (:func:`stale_claims`)."""
    stale = stale_claims("\n".join(notes()), newest_figures())
    if stale:
        raise SystemExit("scripts.frontier: docs/notes/frontier.md contradicts the newest figures; say what stands "
                         "now (\"now N\") or correct it:\n  " + "\n  ".join(stale))
    commands = manifest_commands()
    store = json.loads(STORE.read_text()) if STORE.exists() else {}
    lifts_path = ROOT / "results" / "frontier" / "lifts.json"
    lifts = json.loads(lifts_path.read_text()) if lifts_path.exists() else {}
    lines = [
        "# Frontier (issue 7): new optimal tables and open cases",
        "",
        "Every row comes from a run recorded in results/frontier/runs.json (searches, by",
        "`scripts/frontier.py`), results/frontier/lifts.json (ring lifts, by",
        "`scripts/frontier_lifts.py`), results/frontier/lift-cores.json (lift refutations, by",
        "`experiments/lift_core.py`), or the metadata of the committed table (constructions, the",
        "stratified star search, CP-SAT repacks). Every table in results/frontier/ passes",
        "`tesearch verify` and `tesearch replay` (the streaming engine replays up to 200000 nodes:",
        "star-8's 40320 and hypercube-16's 65536 included) and has a certificate",
        "proofs/frontier-NAME.json whose replay field is confirmed, except hypercube-17..20 (committed",
        "gzipped, no certificate: `tesearch verify --kernel` checks them, the replay hypercube-17 only;",
        "18 to 20 exceed its 200000 nodes and rest on Theorem 1 and node-invariance;",
        "docs/proofs/hypercube.md). Check one with",
        "`tesearch check-proof proofs/frontier-NAME.json`. Times are wall seconds on a 2-core machine",
        "with other work beside; a later row for the same target supersedes an earlier one.",
        "",
        "| target | exchange | outcome | T | best bound | time (s) | strategy | reproduce |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for d in range(1, 21):
        for name in (f"hypercube-{d}.json", f"hypercube-{d}.json.gz"):  # large tables are committed gzipped
            path = ROOT / "results" / "frontier" / name
            if path.exists():
                t = json.loads(gzip.decompress(path.read_bytes()) if name.endswith(".gz") else path.read_text())
                outcome = "optimal" if t["T"] == t["lower_bound"] else "found"
                lines.append(f"| hypercube-{d} | total | {outcome} (no blank) | {t['T']} | {t['lower_bound']} | "
                             f"see benchmarks/hypercube_construction.py | recursive doubling, proved for every d "
                             f"(tesearch/constructions/hypercube.py) | `{commands.get(f'results/frontier/{name}', '')}` |")
    for key, d in store.items():
        if d["status"] == "found":
            outcome = found_outcome(d, lifts, "; superseded by the optimal ring lift below")
        elif d["status"] == "limit" and d["T"] is not None:
            outcome = f"limit reached; best verified table before it T = {d['T']} (not shown optimal)"
        else:
            outcome = f"{d['status']}: no table within the time"
        if d.get("symmetry"):
            outcome += f" (letter group {d['symmetry']})"
        lines.append(f"| {d['network']} | {d['exchange']} | {outcome} | {'-' if d['T'] is None else d['T']} | "
                     f"{best_bound(d)} | {d.get('wall_seconds')} | {d.get('strategy')} | `{current(d['command'])}` |")
    for d in lifts.values():
        if d["status"] == "found":
            outcome = found_outcome(d, lifts, "; superseded by the optimal lift row below")
        else:
            outcome = f"{d['status']}: {d.get('error', 'no table')}"
        lines.append(f"| {d['network']} | total | {outcome} | {d['T']} | {d['best_bound']} | {d['seconds']} | "
                     f"ring lift (tesearch/search/lift) | `{current(d['command'])}` |")
    cores_path = ROOT / "results" / "frontier" / "lift-cores.json"
    for d in (json.loads(cores_path.read_text()) if cores_path.exists() else {}).values():
        cut = d.get("boundary_cut")
        counted = (f"counting cut over {len(cut['words'])} factor words, {cut['demand']} > {cut['capacity']} "
                   f"({cut['seconds']} s); " if cut else "")
        outcome = (f"no table; refuted for one class: no lift of {d['ring']} over the {d['factor']} "
                   f"(T = {d['factor_T']}) in any mode ({counted}Z3 {d['z3']['status']} on the "
                   f"{len(d['core']['factor_words'])}-word core {d['encoding']['path']})"
                   if d["z3"]["status"] == "unsat" else f"core not refuted: Z3 {d['z3']['status']}")
        lines.append(f"| {d['network']} | total | {outcome} | none ({d['width']}-wide lifts) | {d['best_bound']} | "
                     f"{d['seconds']} | lift core: counting test, CP-SAT core search, Z3 on the written core "
                     f"(experiments/lift_core.py) | `{current(d['command'])}` |")
    for name, how in CONSTRUCTED.items():
        path = ROOT / "results" / "frontier" / f"{name}.json"
        if path.exists():
            t = json.loads(path.read_text())
            best = max(t["lower_bound"], t.get("letter_bound") or 0)
            outcome = "optimal" if t["T"] == best else f"found, gap {t['T'] - best}"
            lines.append(f"| {name} | total | {outcome}, {how} | {t['T']} | {best} | ~1 | construction | "
                         f"`{commands.get(f'results/frontier/{name}.json', '')}` |")
    for rows, at_bound, below_bound, strategy in (
            (STRATIFIED, "optimal (no blank)", "found, gap {gap}", "symmetry stratification (tesearch/search/stratify.py)"),
            (REPACKED, "optimal", "best known, gap {gap} (not shown optimal)", None)):
        for name in rows:
            path = ROOT / "results" / "frontier" / f"{name}.json"
            command = commands.get(f"results/frontier/{name}.json", "")
            if not path.exists():
                continue
            t = json.loads(path.read_text())
            best = max(t["lower_bound"], t.get("letter_bound") or 0, word_choice_lower(t["network"]) or 0)
            outcome = at_bound if t["T"] == best else below_bound.format(gap=t["T"] - best)
            if best > max(t["lower_bound"], t.get("letter_bound") or 0):
                outcome += f" (bound {best}: the word-choice certificate, section below)"
            lines.append(f"| {t['network']} | {t['exchange']} | {outcome}; the search row above is superseded | "
                         f"{t['T']} | {best} | {t['search']['seconds']:.1f} | {strategy or t['search']['method']} | "
                         f"`{command}` |")
    lines += ["", *word_choice_section(), "", *fulltable_section(), "", *campaign_section(), "", *notes()]
    (ROOT / "results" / "frontier.md").write_text("\n".join(lines) + "\n")


WORD_CHOICE = ROOT / "results" / "frontier" / "word-choice.json"
FULLTABLE = ROOT / "results" / "fulltable"


def fulltable_section() -> list[str]:
    """The whole-table SAT campaigns (issue 47; benchmarks/fulltable.py), from their state files: every width decided
    with its table or CNF and proof, every attempt that ran out of time, every run's wall clock."""
    lines = [
        "## Whole-table SAT campaigns (issue 47)",
        "",
        "`python -m benchmarks.fulltable NETWORK`: the CNF of docs/notes/full-table-cnf.md (every shortest word of",
        "every target, every first column, no letter twice in a column; reversal and letter automorphisms broken; since",
        "2026-12-06 09:00 UTC with the counting cut of the word-choice LP's dual weights, the column *cut (budget)*)",
        "solved width by width from the committed table down (or from the bound up, `--upward`) by CaDiCaL 1.9.5 with a",
        "DRAT proof. A sat width gives a table (kernel Theorem 1 and replay run on it); an unsat width a CNF the kernel",
        "rebuilds byte for byte and its proof. *unknown* = the run stopped or ran out of time: never unsat. Wall clock",
        "follows the load (2 shared cores); CPU seconds are the solver's own. The growth near known optima:",
        "results/fulltable/calibration.md (without the cut) and results/fulltable/calibration-cut.md (with it); an",
        "optimum above its bound, settled by the same CNF: results/small-groups.md.",
        "",
        "| target | width | result | cut (budget) | wall (s) | CPU (s) | variables | clauses | table or CNF | when |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    figures = newest_figures()
    for path in sorted(FULLTABLE.glob("*.state.json")):
        state = json.loads(path.read_text())
        rows = [(w, r, "decided") for w, r in ((int(k), v) for k, v in state["widths"].items())]
        rows += [(a["width"], a, "attempt") for a in state["attempts"]]
        for width, r, kind in sorted(rows, key=lambda x: (-x[0], x[1].get("decided", ""))):
            what = r.get("table") or r.get("encoding") or "-"
            if r.get("table"):
                what += f" (Theorem 1 {r.get('theorem1')}, replay {r.get('replay')})"
            result = r["result"] if kind == "decided" else f"unknown ({r.get('reason', 'stopped')})"
            cut = "none" if not r.get("cut") else f"{','.join(map(str, r['cut']))} ({r.get('cut_budget')})"
            lines.append(f"| {state['network']} | {width} | {result} | {cut} | {r['seconds']} | "
                         f"{r.get('cpu_seconds') or 'not measured'} | {r['variables']} | {r['clauses']} | {what} | "
                         f"{r.get('decided', '-')} |")
        total = sum(run.get("wall_seconds", 0) for run in state["runs"])
        committed = ROOT / "results" / f"{state['network']}.json"
        top = json.loads(committed.read_text())["T"] if committed.exists() else None
        bound = (figures.get(state["network"]) or {}).get("bound")
        table = ("" if top is None else
                 f" The committed table {committed.relative_to(ROOT)} (T = {top}) meets the bound {bound}: the optimum "
                 f"is {top}, and every attempt above is superseded by it; the campaign has no width left to decide."
                 if top == bound else
                 f" The committed table {committed.relative_to(ROOT)} (T = {top}) decides every width from {top} up "
                 f"(sat); a next run starts at {top - 1}, one below it, and the attempts above {top - 1} are "
                 f"superseded by it.")
        lines += ["", f"{state['network']}: {len(state['runs'])} run(s), {total:.0f} s of wall clock in all; widths "
                      f"decided by the campaign: {', '.join(sorted(state['widths'], key=int, reverse=True)) or 'none'}. "
                      f"State: {path.relative_to(ROOT)} (the campaign resumes from it).{table}"]
    return lines

#: the core campaigns (issue 47, item 3): (record, what one run asks)
CAMPAIGNS = (("results/frontier/star9-core.json", "star-9's 383 core elements (3504 letters) in 438 columns, each "
              "column holding each letter once, with the balanced word choice fixed first (CP-SAT interval model)"),
             ("results/twisted/core-exact.json", "torus-12x12x24:twisted's 29 core elements (360 letters) in 60 "
              "columns, each column holding each letter once (the exact abelian CP-SAT model)"))


def campaign_section() -> list[str]:
    """The core campaigns run by run: each record's rows (experiments/star9_balanced_core.py,
    experiments/twisted_core_exact.py; each run a new seed, so a campaign resumes where its record ends)."""
    lines = ["## Core campaigns (issues 40 and 47)", "",
             "Each row one run, in order, as its record holds it; a run with no seed recorded ran before seeds were "
             "recorded (CP-SAT's default seed). UNKNOWN decides nothing; an INFEASIBLE would cover only that "
             "model's class of tables (the full orbits as blocks; for star-9 also that word choice) and is no "
             "certificate.", "",
             "| campaign | run | started | seed | width | outcome | solve (s) | wall (s) | reproduce |",
             "|---|---|---|---|---|---|---|---|---|"]
    totals = []
    for record, what in CAMPAIGNS:
        path = ROOT / record
        runs = json.loads(path.read_text()) if path.exists() else []
        wall = sum(float(run.get("wall_seconds") or run.get("solve_seconds") or run.get("seconds") or 0) for run in runs)
        totals.append(f"{record}: {len(runs)} runs, {wall / 3600:.2f} h in all (wall clock where recorded, else "
                      f"the solve time)")
        for number, run in enumerate(runs, 1):
            outcome = str(run.get("result") or run.get("status")).upper()
            solve = run.get("solve_seconds", run.get("seconds"))
            lines.append(f"| {what} ({record}) | {number} | {run.get('started', '-')} | {run.get('seed', '-')} | "
                         f"{run['width']} | {outcome} | {solve} | {run.get('wall_seconds', '-')} | "
                         f"`{current(run['command'])}` |")
    return lines + ["", "Hours per campaign: " + "; ".join(totals) + "."]


def word_choice_lower(network: str) -> int | None:
    """The certified word-choice lower bound recorded for a network (results/frontier/word-choice.json), or None."""
    store = json.loads(WORD_CHOICE.read_text()) if WORD_CHOICE.exists() else {}
    report = (store.get(network) or {}).get("report") or {}
    return report.get("lower")


def word_choice_section() -> list[str]:
    """results/frontier/word-choice.json as a table: one `tesearch bound` run per open case (issue 40)."""
    store = json.loads(WORD_CHOICE.read_text()) if WORD_CHOICE.exists() else {}
    lines = [
        "## Word-choice bounds (issue 40)",
        "",
        "`tesearch bound NETWORK`: the least possible count of the most-used letter over every choice of one",
        "shortest word per target (a flow on the shortest-path DAG; tesearch/facts/wordchoice.py), a lower bound on every",
        "table's T. *LP*: the relaxation's optimum; *certified*: what the certificate proves (LP dual weights, parity),",
        "re-derived by `tesearch check-proof` with the kernel; *best choice*: the largest letter load of the best word",
        "choice found (its words are in the certificate; stars: the cycle-entry max flow, words not listed). Runs from",
        "results/frontier/word-choice.json (`scripts/word_choice_runs.py`), under `nice -n 10` beside other work.",
        "",
        "| target | case | bound before | best T then | best T now | LP | certified | best choice | outcome | time (s) | peak (GB) | certificate | reproduce |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    figures = newest_figures()
    for spec, d in store.items():
        now = figures.get(spec, {}).get("best")
        report = d.get("report") or {}
        table = d.get("table") or {}
        before = max(table.get("lower_bound") or 0, table.get("letter_bound") or 0) or None
        lower, upper = report.get("lower"), report.get("upper")
        if not report:
            outcome = f"no result (exit {d['exit_code']}: {d.get('error') or 'see the record'})"
        elif before is not None and lower is not None and lower > before:
            outcome = f"**lifts the bound {before} -> {lower}**" + (
                f"; gap to T {table['T'] - lower} then" + (f", {now - lower} now" if now is not None else "")
                if table else "")
        elif report.get("integer") == "not run":
            outcome = f"LP only: every word choice, so every table, needs T >= {lower}"
        elif report.get("exact"):
            outcome = f"exact {lower}: a word choice attains the bound; letter counts rule nothing more out"
        else:
            outcome = f"between {lower} and {upper if upper is not None else '?'}"
        lp = report.get("lp")
        why = d.get("why", "") + (f"; settled since: T = {now} meets it, optimal" if now is not None and now == lower
                                  else "")
        lines.append(f"| {spec} | {why} | {before if before is not None else '-'} | {table.get('T', '-')} | "
                     f"{now if now is not None else '-'} | "
                     f"{'-' if lp is None else f'{lp:.4f}'.rstrip('0').rstrip('.')} | {lower if lower is not None else '-'} | "
                     f"{upper if upper is not None else '-'} | {outcome} | {d['wall_seconds']} | {d.get('peak_gb')} | "
                     f"{d.get('certificate') or '-'} | `{d['command'].replace(' --force', '')}` |")
    return lines


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
