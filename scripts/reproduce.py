"""List, check and rerun the committed results recorded in results/manifest.toml.

    .venv/bin/python -m scripts.reproduce --list [--kind table]       # every entry and its command
    .venv/bin/python -m scripts.reproduce --check [--deep] [NAME...]  # the committed files still hold
    .venv/bin/python -m scripts.reproduce NAME... --into /tmp/scratch # rerun into a scratch directory
    .venv/bin/python -m scripts.reproduce NAME... --force             # rerun in place, replacing files

--check: every entry's file exists and its sha256 matches the manifest; a table also passes
the Theorem-1 verifier (in this process, tesearch.tables.verify.verify_table, as `tesearch verify`);
a certificate loads, the hash of its embedded table matches the one it records, and the
embedded table is the committed table it names. --deep also runs `tesearch check-proof` on
every certificate and `tesearch replay` on every table (slow: star-8 and hypercube-16 take
minutes each). Exit 0 only when every check passes.

Running entries: NAME is an entry name (e.g. table:star-5) or a path (results/star-5.json);
the entries that share a command run once; entries they depend on that are also named run
first. A run never overwrites a committed file by accident:

- without --into or --force it refuses to run an entry whose output files exist;
- --into DIR (outside the repository) copies the inputs the commands read into DIR and
  runs the commands there, so every output lands under DIR (the scripts under scripts/
  write into the repository and are refused with --into);
- --force runs in place, and adds --force to `tesearch` table commands so an equal-width
  table replaces the committed one (then rerun scripts/make_manifest.py).

After a run into DIR, each table is compared with the committed one: same network,
exchange, T and placements ("same"), or what differs. Timing metadata is not compared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "results" / "manifest.toml"
BIN = Path(sys.executable).parent
#: --check says where it is at least this often (seconds): a line per entry that takes longer, one while it runs
PROGRESS_S = 5.0


def load_manifest(path: Path = MANIFEST) -> list[dict]:
    return tomllib.loads(path.read_text())["entry"]


def commands_of(entry: dict) -> list[str]:
    command = entry.get("command", "")
    return [c for c in ([command] if isinstance(command, str) else command) if c]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- check ---------------------------------------------------------------------------------------

def check_table(path: Path, entry: dict) -> str | None:
    """None when the table reads, matches the manifest's network/exchange/T and verifies; else why not."""
    from tesearch.tables.table import read_table
    from tesearch.tables.verify import verify_table

    table = read_table(path)
    for key, value in (("network", table.network), ("exchange", table.exchange), ("T", table.T)):
        if key in entry and entry[key] != value:
            return f"{key} is {value!r}, the manifest says {entry[key]!r}"
    result = verify_table(table)
    return None if result.ok else f"verify: {result.summary()}"


def check_certificate_file(path: Path, entry: dict) -> str | None:
    """None when the certificate loads, its embedded table hashes to the recorded sha256, and it is the
    committed table it names (same canonical JSON, or for a text table the same placements)."""
    from tesearch.checking.certificate import load_certificate, table_sha256
    from tesearch.tables.table import read_table, table_from_json

    data = load_certificate(path)
    if data.get("kind") == "word-choice":  # no embedded table: the network it is about
        same = (data["network"]["spec"], data["network"]["exchange"]) == (entry.get("network"), entry.get("exchange"))
        return None if same else "it is about another network or exchange than the manifest says"
    content = data["table"]["content"]
    if table_sha256(content) != data["table"].get("sha256"):
        return "the embedded table's sha256 differs from the one recorded"
    if entry.get("T") not in (None, data["result"]["T"]):
        return f"T is {data['result']['T']}, the manifest says {entry['T']}"
    source = ROOT / data["table"]["source"]
    if not source.is_file():
        return f"its table {data['table']['source']} is missing"
    if source.suffix == ".json":
        if table_sha256(json.loads(source.read_text())) != data["table"]["sha256"]:
            return f"its embedded table is not the committed {data['table']['source']}"
    elif read_table(source).placements != table_from_json(content).placements:
        return f"its embedded table's placements differ from {data['table']['source']}"
    return None


def run_cli(args: list[str], timeout: float | None = None) -> tuple[int, str]:
    proc = subprocess.run([str(BIN / "tesearch"), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)
    tail = (proc.stdout + proc.stderr).strip().splitlines()
    return proc.returncode, (tail[-1] if tail else "")


class Progress:
    """Lines on stderr while --check works: after an entry that took PROGRESS_S or more, after every PROGRESS_S of
    quicker ones, and from a background thread while one entry runs long ("still checking ..."), so the check is
    silent for more than PROGRESS_S only while one C call holds the interpreter (43 s inside hypercube-20 at a load
    of 36; issue 46: it printed nothing for 300 s at a load of 15)."""

    def __init__(self, total: int):
        import threading

        self.total, self.started, self.last = total, time.monotonic(), time.monotonic()
        self.current: tuple[int, str, float] | None = None
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True)
        self.thread.start()

    def say(self, text: str) -> None:
        with self.lock:
            print(f"[{time.monotonic() - self.started:5.0f} s] {text}", file=sys.stderr, flush=True)
            self.last = time.monotonic()

    def begin(self, i: int, path: str) -> None:
        self.current = (i, path, time.monotonic())

    def end(self, i: int, path: str) -> None:
        _, _, began = self.current
        self.current = None
        took = time.monotonic() - began
        if took >= PROGRESS_S:
            self.say(f"[{i}/{self.total}] {path}: {took:.1f} s")
        elif time.monotonic() - self.last >= PROGRESS_S or i == self.total:
            self.say(f"[{i}/{self.total}] checked")

    def _beat(self) -> None:
        while not self.stop.wait(1.0):
            current = self.current
            if current is not None and time.monotonic() - self.last >= PROGRESS_S:
                i, path, began = current
                self.say(f"[{i}/{self.total}] still checking {path} ({time.monotonic() - began:.0f} s)")

    def close(self) -> None:
        self.stop.set()
        self.thread.join()


def check(entries: list[dict], deep: bool) -> int:
    rows: list[tuple[str, str, str]] = []
    total = len(entries)
    progress = Progress(total)
    try:
        for i, entry in enumerate(entries, 1):
            progress.begin(i, entry["path"])
            rows.append((entry["name"], entry["kind"], check_entry(entry, deep, i, total) or "ok"))
            progress.end(i, entry["path"])
    finally:
        progress.close()
    return summary(rows, deep)


def check_entry(entry: dict, deep: bool, i: int, total: int) -> str | None:
    """None when the entry's file holds (module doc), else what is wrong."""
    path = ROOT / entry["path"]
    problem = None
    started = time.monotonic()
    if not path.is_file():
        problem = "missing"
    elif sha256(path) != entry["sha256"]:
        problem = "sha256 differs from the manifest (regenerated? rerun scripts/make_manifest.py)"
    else:
        try:
            if entry["kind"] == "table":
                problem = check_table(path, entry)
            elif entry["kind"] == "certificate":
                problem = check_certificate_file(path, entry)
        except Exception as exc:  # a malformed file is a failed check, reported by name
            problem = f"{type(exc).__name__}: {exc}"
        if problem is None and deep and entry["kind"] in ("table", "certificate"):
            code, last = run_cli(["replay", entry["path"], "--quiet"] if entry["kind"] == "table"
                                 else ["check-proof", entry["path"], "--quiet"])
            print(f"[{i}/{total}] {entry['kind']} {entry['path']}: exit {code} ({time.monotonic() - started:.1f} s)",
                  flush=True, file=sys.stderr)
            if code != 0:
                problem = f"{'replay' if entry['kind'] == 'table' else 'check-proof'} exit {code}: {last}"
    return problem


def summary(rows: list[tuple[str, str, str]], deep: bool) -> int:
    """The table per kind and every failure on stdout; the exit code."""
    failed = [r for r in rows if r[2] != "ok"]
    by_kind: dict[str, list[int]] = {}
    for _, kind, status in rows:
        counts = by_kind.setdefault(kind, [0, 0])
        counts[0 if status == "ok" else 1] += 1
    what = "sha256, verify, certificate hashes" + (", replay, check-proof" if deep else "")
    print(f"{'kind':12s} {'ok':>5s} {'failed':>7s}   ({what})")
    for kind, (ok, bad) in sorted(by_kind.items()):
        print(f"{kind:12s} {ok:5d} {bad:7d}")
    print(f"{'all':12s} {len(rows) - len(failed):5d} {len(failed):7d}")
    for name, kind, status in failed:
        print(f"FAILED {name}: {status}")
    return 1 if failed else 0


# -- run -----------------------------------------------------------------------------------------

def select(entries: list[dict], names: list[str]) -> list[dict]:
    by_key = {e["name"]: e for e in entries} | {e["path"]: e for e in entries}
    unknown = [n for n in names if n not in by_key]
    if unknown:
        raise SystemExit(f"no manifest entry named {', '.join(unknown)} (see --list)")
    return [by_key[n] for n in dict.fromkeys(names)]


def run_groups(entries: list[dict], chosen: list[dict]) -> list[tuple[list[str], list[dict]]]:
    """The chosen entries grouped by command (one run per command), dependencies first."""
    by_command: dict[tuple[str, ...], list[dict]] = {}
    for e in entries:
        if commands_of(e):
            by_command.setdefault(tuple(commands_of(e)), []).append(e)
    groups: list[tuple[list[str], list[dict]]] = []
    seen: set[tuple[str, ...]] = set()
    chosen_paths = {e["path"] for e in chosen}
    by_path = {e["path"]: e for e in entries}

    def visit(e: dict, stack: tuple[str, ...] = ()) -> None:
        key = tuple(commands_of(e))
        if not key:
            raise SystemExit(f"{e['name']}: no command makes this file ({e.get('note', '')})")
        if key in seen:
            return
        for dep in e.get("depends_on", []):
            if dep in chosen_paths and dep in by_path and dep not in stack:
                visit(by_path[dep], (*stack, e["path"]))
        seen.add(key)
        groups.append((list(key), by_command[key]))

    for e in chosen:
        visit(e)
    return groups


def localise(command: str, force: bool) -> list[str]:
    words = shlex.split(command)
    if words[0] == "tesearch":
        words[0] = str(BIN / "tesearch")
        if force and ("--out" in words or "--out-dir" in words) and "--force" not in words:  # search ... / sweep
            words.append("--force")
    elif words[0] == "python":
        words[0] = sys.executable
    return words


def inputs_of(group: list[dict], entries: list[dict]) -> set[str]:
    """Committed files a group's commands read: its depends_on, and any manifest path named in the command."""
    paths = {e["path"] for e in entries}
    outputs = {e["path"] for e in group}
    named = {w for c in commands_of(group[0]) for w in shlex.split(c) if w in paths}
    wanted = {d for e in group for d in e.get("depends_on", [])} | named
    # a certify run reads the table and the encodings it names; an encoding's DRAT is written beside it
    return {p for p in wanted if p not in outputs}


def compare_table(new: Path, old: Path) -> str:
    from tesearch.tables.table import read_table

    a, b = read_table(new), read_table(old)
    diffs = [k for k in ("network", "exchange", "T") if getattr(a, k) != getattr(b, k)]
    if diffs:
        return "differs: " + ", ".join(f"{k} {getattr(a, k)!r} (committed {getattr(b, k)!r})" for k in diffs)
    if sorted(map(repr, a.placements)) != sorted(map(repr, b.placements)):
        return "same network, exchange and T; other placements"
    return "same (network, exchange, T, placements)"


def table_key(certificate: dict) -> tuple:
    """What makes the embedded table the same table: network, exchange, T, placements (not its metadata)."""
    t = certificate["table"]["content"]
    return t["network"], t["exchange"], t["T"], sorted(map(json.dumps, t["placements"]))


def compare_certificate(new: Path, old: Path) -> str:
    """Same result, same embedded table and the same claims confirmed by the same methods? (timings aside)"""
    a, b = json.loads(new.read_text()), json.loads(old.read_text())
    claims = lambda d: [(c.get("claim"), sorted(c.get("confirmed_by", []))) for c in d["impossibility_claims"]]  # noqa: E731
    diffs = [what for what, x, y in (("result", a["result"], b["result"]),
                                      ("embedded table", table_key(a), table_key(b)),
                                      ("claims", claims(a), claims(b))) if x != y]
    return ("same (result, embedded table's placements, claims and their confirmations)" if not diffs
            else "differs: " + ", ".join(diffs))


def run(entries: list[dict], chosen: list[dict], into: Path | None, force: bool) -> int:
    groups = run_groups(entries, chosen)
    if into is not None:
        into = into.resolve()
        if into == ROOT or ROOT in into.parents:
            raise SystemExit(f"--into {into}: choose a directory outside the repository")
        for commands, group in groups:
            if any(shlex.split(c)[0] == "python" for c in commands):
                raise SystemExit(f"{group[0]['name']}: made by a script that writes into the repository "
                                 f"({commands[0]}); run it in place with --force instead of --into")
    else:
        existing = [e["path"] for _, group in groups for e in group if (ROOT / e["path"]).exists()]
        if existing and not force:
            raise SystemExit("refusing to overwrite committed files (use --into DIR, or --force): "
                             + ", ".join(existing[:8]) + (" ..." if len(existing) > 8 else ""))
    status = 0
    for commands, group in groups:
        cwd = ROOT
        if into is not None:
            cwd = into
            for rel in sorted(inputs_of(group, entries)):  # committed inputs a previous run did not write
                target = into / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.exists():
                    shutil.copy2(ROOT / rel, target)
            for e in group:
                (into / e["path"]).parent.mkdir(parents=True, exist_ok=True)
            for c in commands:  # directories a command writes into must exist (the CLI never creates them)
                words = shlex.split(c)
                if "--keep-encodings" in words:
                    (into / words[words.index("--keep-encodings") + 1]).mkdir(parents=True, exist_ok=True)
        for c in commands:
            print(f"$ {c}" + (f"    (in {cwd})" if cwd != ROOT else ""), flush=True)
            started = time.monotonic()
            env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
            code = subprocess.run(localise(c, force and into is None), cwd=cwd, env=env).returncode
            print(f"  exit {code} ({time.monotonic() - started:.1f} s)", flush=True)
            status = status or code
        if into is not None:
            for e in group:
                new = into / e["path"]
                if not new.exists() and e.get("written_as") and (into / e["written_as"]).exists():
                    new = into / e["written_as"]
                    same = sha256(new) == e["sha256"]
                    print(f"  {e['name']}: written as {e['written_as']}"
                          f"{' (identical bytes)' if same else ' (bytes differ)'}")
                elif not new.exists():
                    print(f"  {e['name']}: not written")
                elif e["kind"] == "table" and new.suffix == ".json":
                    print(f"  {e['name']}: {compare_table(new, ROOT / e['path'])}")
                elif e["kind"] == "certificate":
                    print(f"  {e['name']}: {compare_certificate(new, ROOT / e['path'])}")
                else:
                    same = sha256(new) == e["sha256"]
                    print(f"  {e['name']}: {'identical bytes' if same else 'written (bytes differ: timings, run line)'}")
    return status


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("names", nargs="*", help="entry names or paths (with --check: only these)")
    ap.add_argument("--list", action="store_true", help="print every entry and its command")
    ap.add_argument("--kind", default=None, help="with --list or --check: only entries of this kind")
    ap.add_argument("--check", action="store_true", help="check the committed files against the manifest")
    ap.add_argument("--deep", action="store_true", help="with --check: also replay tables and check-proof certificates")
    ap.add_argument("--into", type=Path, default=None, help="run into this scratch directory (outside the repository)")
    ap.add_argument("--force", action="store_true", help="run in place, replacing committed files")
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    args = ap.parse_args()
    entries = load_manifest(args.manifest)
    chosen = select(entries, args.names) if args.names else entries
    if args.kind:
        chosen = [e for e in chosen if e["kind"] == args.kind]
    if args.list:
        for e in chosen:
            commands = commands_of(e)
            print(f"{e['name']:58s} {e['kind']:11s} {e['path']}")
            for c in commands or ["(no command: " + e.get("note", "") + ")"]:
                print(f"    {c}")
        print(f"{len(chosen)} entries")
        return 0
    if args.check:
        return check(chosen, args.deep)
    if not args.names:
        ap.error("name the entries to run (see --list), or use --list / --check")
    return run(entries, chosen, args.into, args.force)


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
