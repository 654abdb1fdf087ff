"""What counts as wrong in a run (:func:`judge`): exit codes, error lines, hangs, changed or half-written files, leftover processes, and false claims (an exit 3 or a CONFIRMED that a known table contradicts)."""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
from pathlib import Path

from tesearch.testing.cases import (ALLOWED_EXITS, Case, ROOT, Run, STOP_SECONDS, STRICT_TABLE_COMMANDS,
                                    TIMEOUT_GRACE, busy_grace, counting_bound, known_width)


# ------------------------------------------------------------------ the judge

#: output kind -> the suffixes its files may have
OUTPUT_SUFFIXES = {
    "table": (".json", ".txt", ".json.gz"),
    "schedule": (".json",),
    "certificate": (".json",),
    "programs": (".jsonl", ".json", ".jsonl.gz", ".json.gz"),
    "picture": (".png", ".svg"),
    "plot": (".png", ".svg"),
    "runs": (".json",),
    "directory": ("",),
    "encodings": ("",),
    "page": (".html", ".htm"),
    "trace": (".json",),
}

TRACEBACK = "Traceback (most recent call last)"
_PROGRESS = re.compile(r"^\[\s*[\d.]+\s*s\]")
_CONFIRMED_IMPOSSIBLE = re.compile(r"confirmed\s+impossibility\[(\d+)\]: no table of width (\d+) for (\S+) (\S+)")
_CONFIRMED_OPTIMAL = re.compile(r"confirmed\s+optimality: T = (\d+) is optimal")
_CONFIRMED_NETWORK = re.compile(r"confirmed\s+network: (\S+) (\S+):")


def content_problem(name: str, data: bytes) -> str | None:
    """Why a written file's bytes do not fit its name's extension (None if they do or it says nothing)."""
    lower = name.lower()
    if lower.endswith(".gz"):
        if not data.startswith(b"\x1f\x8b"):
            return "not gzip"
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            return "a truncated gzip file"
        lower = lower[:-3]
    if lower.endswith(".png") and not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "not a PNG"
    if lower.endswith(".svg") and b"<svg" not in data[:4000]:
        return "not an SVG"
    if lower.endswith(".json"):
        try:
            json.loads(data)
        except ValueError:
            return "not JSON (half-written?)"
    if lower.endswith(".jsonl"):
        try:
            for line in data.splitlines():
                if line.strip():
                    json.loads(line)
        except ValueError:
            return "not JSON Lines (half-written?)"
    return None


def _suffix_fits(name: str, kind: str) -> bool:
    suffixes = OUTPUT_SUFFIXES.get(kind, ("",))
    return "" in suffixes or name.lower().endswith(suffixes)


def option_value(args: list[str], name: str) -> str | None:
    """The value of option ``name`` in ``args`` (the last one given; ``--name=value`` too), or None."""
    value = None
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(name + "="):
            value = arg.split("=", 1)[1]
    return value


def _int_option(args: list[str], name: str) -> int | None:
    value = option_value(args, name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def judge_claims(case: Case, run: Run) -> list[str]:
    """False claims in a run's output: exit 3 against known tables, check-proof confirmations."""
    wrong = []
    command = case.command
    exchange = option_value(case.args, "--exchange") or case.exchange
    if run.exit_code == 3 and case.network is not None:
        known = known_width(case.network, exchange)
        top = _int_option(case.args, "--max-width")
        if command == "stratify":  # its one width is the counting bound
            top = counting_bound(case.network, exchange)
        if known is not None and (top is None or top >= known):
            asked = f"widths up to {top}" if top is not None else "every width"
            wrong.append(f"exit 3 (infeasible) for {case.network} {exchange} over {asked}, but a table of width "
                         f"{known} is known")
    if run.exit_code == 0 and case.invalid_table and command in STRICT_TABLE_COMMANDS:
        wrong.append(f"exit 0 on a table known invalid ({case.invalid_table})")
    if run.exit_code == 0 and command in ("search", "stratify", "lift", "repack", "narrow", "construct") \
            and case.network and "--json" in case.args:
        try:
            data = json.loads(run.stdout)
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get("optimal") is True and isinstance(data.get("T"), int):
            known = known_width(case.network, exchange)
            if known is not None and data["T"] > known:
                wrong.append(f"says T = {data['T']} is optimal, but a table of width {known} is known")
    wrong += _proof_claims(case, run.stdout)
    if command == "check-proof" and case.tampered and run.exit_code == 0:
        wrong.append("check-proof exit 0 on a certificate whose encoding the fuzzer tampered with (it must refute it)")
    return wrong


def _proof_claims(case: Case, stdout: str) -> list[str]:
    """check-proof confirmations that cannot be true (text or --json output)."""
    wrong = []
    lines = stdout
    try:  # --json: rebuild the text lines the regexes read
        data = json.loads(stdout)
        results = data if isinstance(data, list) else [data]
        lines = "\n".join(f"{c.get('verdict')}  {c.get('claim')}: {c.get('statement')}"
                          for r in results if isinstance(r, dict) for c in r.get("claims", []) if isinstance(c, dict))
    except ValueError:
        pass
    network = None
    for match in _CONFIRMED_NETWORK.finditer(lines):
        network = (match.group(1), match.group(2))
    for match in _CONFIRMED_IMPOSSIBLE.finditer(lines):
        index, width, net, exch = int(match.group(1)), int(match.group(2)), match.group(3), match.group(4)
        known = known_width(net, exch)
        if known is not None and known <= width:
            wrong.append(f"check-proof CONFIRMED 'no table of width {width} for {net} {exch}', but a table of "
                         f"width {known} is known")
        if index in case.tampered:
            wrong.append(f"check-proof CONFIRMED impossibility[{index}] on an encoding the fuzzer tampered with")
    for match in _CONFIRMED_OPTIMAL.finditer(lines):
        known = known_width(*network) if network else None
        if known is not None and int(match.group(1)) > known:
            wrong.append(f"check-proof CONFIRMED 'T = {match.group(1)} is optimal' for {network[0]}, but a table "
                         f"of width {known} is known")
    return wrong


def interrupted_before_start(run: Run) -> bool:
    """A signal that reached the interpreter before any tesearch code ran (its traceback has no frame of
    the package): no program can answer it, so only the files and processes are judged."""
    return (run.signal_sent is not None and "KeyboardInterrupt" in run.stderr
            and f"{ROOT / 'tesearch'}{os.sep}" not in run.stderr)


def error_lines(stderr: str) -> list[str]:
    """The error message in stderr: from its first line that starts with 'tesearch' (or click's 'Usage:' and
    'Error:') to the end, progress lines before it aside."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if line.startswith(("tesearch", "Usage:", "Error:")):
            return [x for x in lines[i:] if not _PROGRESS.match(x)]
    return []


def judge(case: Case, run: Run, before: dict[str, tuple], after: dict[str, tuple], case_dir: Path) -> list[str]:
    """Everything wrong with one run (see the module docstring)."""
    wrong = []
    code = run.exit_code
    if interrupted_before_start(run):  # Python's own start-up (site, .pth files) took the KeyboardInterrupt
        return _judge_files(case, code, before, after, case_dir) + [
            f"processes left after it ended: {', '.join(run.leftovers[:5])}" for _ in run.leftovers[:1]]
    if code is None:
        wrong.append(f"no exit within {run.seconds:.0f} s (killed)")
    elif code not in ALLOWED_EXITS:
        wrong.append(f"exit code {code}" + (" (internal error)" if code == 70 else ""))
    for name, text in (("stdout", run.stdout), ("stderr", run.stderr)):
        if TRACEBACK in text:
            wrong.append(f"a traceback on {name}")
        if "internal error" in text:
            wrong.append(f"an internal error on {name}")
    if code == 2:
        message = error_lines(run.stderr)
        if not message:
            wrong.append("exit 2 without a 'tesearch: ...' error line")
        elif len(message) > 1:
            wrong.append(f"an error of {len(message)} lines: {' / '.join(message[:3])[:200]}")
    timeout = option_value(case.args, "--timeout")
    try:
        limit = float(timeout) if timeout is not None else None
    except ValueError:
        limit = None
    if code is not None and limit is not None and 0 < limit < 1e6 and run.seconds > limit + busy_grace(TIMEOUT_GRACE, run.load_per_core):
        wrong.append(f"ran {run.seconds:.1f} s with --timeout {timeout}")
    if run.signal_sent is not None and code is not None:
        expected = 130 if case.signal and case.signal[0] == signal.SIGINT else 143
        if code not in (expected, 0, 2, 3, 4):
            wrong.append(f"exit {code} after {signal.Signals(case.signal[0]).name} (expected {expected})")
        if run.seconds - run.signal_sent > busy_grace(STOP_SECONDS, run.load_per_core):
            name = signal.Signals(case.signal[0]).name
            if code in (0, 3, 4):
                wrong.append(f"ignored {name} (sent at {run.signal_sent:.2f} s): ran {run.seconds:.1f} s and exited {code}")
            else:
                wrong.append(f"took {run.seconds - run.signal_sent:.1f} s to stop after {name}")
    if run.leftovers:
        wrong.append(f"processes left after it ended: {', '.join(run.leftovers[:5])}"
                     + (f" and {len(run.leftovers) - 5} more" if len(run.leftovers) > 5 else ""))
    wrong += _judge_files(case, code, before, after, case_dir)
    wrong += judge_claims(case, run)
    return wrong


def _judge_files(case: Case, code: int | None, before: dict, after: dict, case_dir: Path) -> list[str]:
    wrong = []
    outputs = {f"work/{name}" for name in case.outputs}
    forced = "--force" in case.args
    written = []
    for name, state in before.items():
        now = after.get(name)
        if now == state:
            continue
        if name in outputs and case.args.count(name[5:]) > 1:
            wrong.append(f"exit {code} but overwrote its own input {name[5:]}")
            continue
        if name in outputs:
            if state[0] in ("fifo", "device"):
                wrong.append(f"replaced the {state[0]} {name[5:]} ({now[0] if now else 'removed'})")
            elif code not in (0, 4) and not (code == 1 and case.output_kinds.get(name[5:]) == "plot"):
                wrong.append(f"exit {code} but changed its output {name[5:]}")
            elif not forced and name[5:] not in case.replaceable:
                wrong.append(f"replaced {name[5:]} (another kind of file, or a committed table) without --force")
            else:
                written.append(name)
            continue
        what = "an input" if name.startswith("work/") else "a file outside the sandbox"
        if "committed" in name:
            what = "a committed file (behind a symlink)"
        wrong.append(f"changed {what}: {name[5:] if name.startswith('work/') else name}"
                     f" ({state[0]} -> {now[0] if now else 'removed'})")
    for name, state in after.items():
        if name in before:
            continue
        base = name.rsplit("/", 1)[-1]
        if base.endswith(".tmp") or re.search(r"\.tmp\b", base):
            wrong.append(f"left a temporary file {name}")
            continue
        if code in (2, 130, 143):
            wrong.append(f"exit {code} but wrote {name[5:] if name.startswith('work/') else name}")
            continue
        written.append(name)
    for name in written:
        state = after.get(name)
        if state is None or state[0] != "file":
            continue
        relative = name[5:] if name.startswith("work/") else name
        try:
            data = (case_dir / name).read_bytes()
        except OSError:
            continue
        problem = content_problem(relative, data)
        if problem:
            wrong.append(f"wrote {relative}: {problem}")
        if name in outputs:
            kind = case.output_kinds.get(relative, "")
            if not _suffix_fits(relative, kind):
                wrong.append(f"exit {code} writing a {kind} to {relative} (its extension does not fit)")
            if kind == "table" and case.network:
                try:
                    label = json.loads(data).get("network")
                except (ValueError, AttributeError):
                    label = None
                if label is not None and label != case.network:
                    wrong.append(f"wrote a table of {label} to {relative}, asked for {case.network}")
    if code == 0:
        for name in case.outputs:
            state = before.get(f"work/{name}")
            if state and state[0] in ("fifo", "device") and os.geteuid() == 0:
                wrong.append(f"exit 0 writing onto the {state[0]} {name}")
    return wrong
