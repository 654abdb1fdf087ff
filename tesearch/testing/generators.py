"""One hypothesis generator of cases per subcommand (:data:`GENERATORS`, filled by :func:`register`), most through :func:`network_command` or :func:`table_command`; :func:`cases` gives a command's, :func:`missing_generators` the commands without one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st
from tesearch.testing.cases import Case, STRICT_TABLE_COMMANDS, committed, committed_json, known_width
from tesearch.testing.hostile import (CERTIFIED, ENCODINGS, FORGED_BODIES, HUGE, SMALL_NETWORKS, SMALL_TABLES,
                                      apply_output, certificate_bytes, clean_args, committed_table, forged_encoding,
                                      generator_bytes, invalid_table, options, output_target, repo_files, signal_case,
                                      specs, table_bytes, tampered_certificate, tampered_encoding, text_table)


# ------------------------------------------------------------------ the generators, one per subcommand

#: subcommand -> a function returning its strategy of cases
GENERATORS: dict[str, Callable[[], st.SearchStrategy[Case]]] = {}
#: subcommand -> the share of --per-command it runs (slow ones run fewer)
SHARES: dict[str, float] = {}
#: the subcommands that take --timeout (tesearch.cli.options.limit_options)
TIMED: set[str] = set()  # every registered command unless registered with timed=False


def register(command: str, strategy: Callable[[], st.SearchStrategy[Case]], *, share: float = 1.0,
             reads_tables: bool = False, timed: bool = True) -> None:
    """Make ``strategy`` the generator of ``command``'s cases.

    ``share``: the part of --per-command it runs; ``reads_tables``: it loads tables through the checked
    loader, so exit 0 on a table the fuzzer made invalid is wrong; ``timed``: it takes --timeout."""
    GENERATORS[command] = strategy
    SHARES[command] = share
    if reads_tables:
        STRICT_TABLE_COMMANDS.add(command)
    if timed:
        TIMED.add(command)


def _bounded(command: str, extra: list[str], seconds: str | None = None, args: list[str] = ()) -> list[str]:
    """Keep runs short, as a user with a deadline would (unless the case sets its own --timeout)."""
    if "--timeout" in extra or "--timeout" in args or command not in TIMED:
        return []
    return ["--timeout", seconds or ("5" if command in ("search", "stratify", "lift", "repack", "narrow") else "20")]


def _extra(draw) -> list[str]:
    return draw(options) if draw(st.integers(0, 2)) == 0 else []


#: how often each kind of case comes (signal cases are slow: a real process, a delay of up to 3 s)
NETWORK_BRANCHES = ["known"] * 6 + ["hostile spec"] * 3 + ["generators"] * 2 + ["range"] * 3 + ["huge"] * 2 + ["signal"]
TABLE_BRANCHES = ["valid"] * 4 + ["hostile"] * 3 + ["invalid"] * 4 + ["text"] * 2 + ["signal"]


def network_command(command: str, *, output: tuple[str, str] | None = ("--out", "table"),
                    range_checks: bool = False, signal_args: list[list[str]] = (),
                    extra_choices: list[list[str]] = (), networks: list[tuple[str, str]] = SMALL_NETWORKS,
                    input_files: dict[str, str] | None = None) -> Callable[[], st.SearchStrategy[Case]]:
    """The cases of a command that takes a NETWORK (spec or generators file), maybe with an output.

    ``input_files``: file name -> committed file, copied into the sandbox when an extra option names it
    (lift --factor f.json); such a file is then also an input an output attack may aim at."""

    @st.composite
    def strategy(draw) -> Case:
        branch = draw(st.sampled_from(NETWORK_BRANCHES))
        extra = _extra(draw)
        if branch == "signal" and signal_args:
            return signal_case(draw, draw(st.sampled_from(list(signal_args))))
        if branch == "generators":
            case = Case([command, "g.json"], {"g.json": draw(generator_bytes())}, kind="generators file")
            if output and draw(st.booleans()):
                apply_output(case, output[0], output[1], draw(output_target(output[1], ["g.json"])))
            case.args += [*extra, *_bounded(command, extra, None, case.args)]
            case.args = clean_args(case.args)
            return case
        if branch == "hostile spec":
            spec = draw(specs)
            case = Case([command, spec], kind="hostile spec",
                        network=spec if any(spec == known for known, _ in SMALL_NETWORKS) else None)
        elif branch == "huge":
            spec, exchange = draw(st.sampled_from(list(networks)))
            option = draw(st.sampled_from(["--timeout", "--max-memory", "--max-order", "--word-cap", "--max-width",
                                           "--from-width", "--seed", "--workers", "--tail", "--ring"]))
            case = Case([command, spec, option, draw(st.sampled_from(HUGE))], kind="huge number")
        else:
            spec, exchange = draw(st.sampled_from(list(networks)))
            case = Case([command, spec], network=spec, exchange=exchange, kind="known network")
            if exchange != "total":
                case.args += ["--exchange", exchange]
            if branch == "range" and range_checks:
                known = known_width(spec, exchange) or 5
                case.args += ["--strategy", draw(st.sampled_from(["auto", "rotation", "split", "full"]))]
                case.args += ["--from-width", str(draw(st.sampled_from([known - 2, known - 1, known, known + 1,
                                                                        known + 4, 25, 1])))]
                if draw(st.booleans()):
                    case.args += ["--max-width", str(draw(st.sampled_from([known - 1, known, known + 2, 25])))]
                case.kind = "width range"
            if extra_choices and draw(st.booleans()):
                case.args += draw(st.sampled_from(list(extra_choices)))
        inputs = [name for name in (input_files or {}) if name in case.args]
        for name in inputs:
            case.files[name] = committed(input_files[name])
        if output and draw(st.booleans()):
            apply_output(case, output[0], output[1], draw(output_target(output[1], inputs)))
        case.args += [*extra, *_bounded(command, extra, "10" if branch == "range" else None, case.args)]
        case.args = clean_args(case.args)
        return case

    return strategy


def table_command(command: str, *, output: tuple[str, str] | None = None, output_required: bool = False,
                  extra_choices: list[list[str]] = (), tables: list[str] = SMALL_TABLES, text_ok: bool = True,
                  exec_mode: bool = False, signal_args: list[list[str]] = (),
                  timeout: str | None = None) -> Callable[[], st.SearchStrategy[Case]]:
    """The cases of a command that reads a TABLE file, maybe with an output option (``(option, kind)``)."""

    @st.composite
    def strategy(draw) -> Case:
        branch = draw(st.sampled_from(TABLE_BRANCHES))
        if branch == "signal" and signal_args:
            return _signal_table_case(draw, draw(st.sampled_from(list(signal_args))))
        name = "t.json"
        case = Case([command, name], exec_mode=exec_mode, kind=branch)
        if branch == "invalid":
            data, why = draw(invalid_table([t for t in tables]))
            case.files[name] = json.dumps(data).encode()
            case.invalid_table = why
        elif branch == "hostile":
            if text_ok and draw(st.booleans()):
                name = "t.txt"
                case.args[1] = name
            case.files[name] = draw(table_bytes())
        elif branch == "text" and text_ok:
            name = "t.txt"
            case.args[1] = name
            source = draw(st.sampled_from([*tables[:4], "star-5.json"]))
            case.files[name] = text_table(committed_table(source), marked=draw(st.booleans()))
            case.kind = f"text table ({source})"
        else:
            source = draw(st.sampled_from(list(tables)))
            case.files[name] = committed(f"results/{source}")
            case.kind = f"valid table ({source})"
        if extra_choices and draw(st.booleans()):
            case.args += draw(st.sampled_from(list(extra_choices)))
        if output and (output_required or draw(st.booleans())):
            apply_output(case, output[0], output[1], draw(output_target(output[1], [name])))
        extra = _extra(draw)
        case.args += [*extra, *_bounded(command, extra, timeout, case.args)]
        case.args = clean_args(case.args)
        return case

    return strategy


def _signal_table_case(draw, args: list[str]) -> Case:
    """A signal case whose table arguments (results/NAME) are copied into the sandbox."""
    files = {}
    out = []
    for arg in args:
        if arg.startswith("results/"):
            files[Path(arg).name] = committed(arg)
            out.append(Path(arg).name)
        else:
            out.append(arg)
    return signal_case(draw, out, files)


# --- the subcommands (every one of tesearch.cli.app.COMMANDS; tests/test_fuzz.py checks)

register("info", network_command("info", output=None))
register("bound", network_command("bound", output=("--out", "certificate"),
                                  extra_choices=[["--lp-only"], ["--no-symmetry"], ["--timeout", "0.5"]]))
register("search", network_command(
    "search", range_checks=True,
    signal_args=[["search", "star-5", "--timeout", "30"], ["search", "star-6", "--timeout", "30"],
                 ["search", "star-5", "--strategy", "full", "--timeout", "30"]],
    extra_choices=[["--keep-encodings", "enc"], ["--solver", "cpsat"], ["--solver", "cpsat-intervals"],
                   ["--backend", "cpsat"], ["--strategy", "split"],
                   ["--sampling", "uniform"], ["--word-cap", "1"], ["--symmetry", "C2xC2"], ["--symmetry", "Q8"],
                   ["--symmetry", "nonsense"]]))
register("stratify", network_command(
    "stratify", signal_args=[["stratify", "star-5", "--timeout", "30"], ["stratify", "ring-8:cyclic", "--timeout", "30"]],
    extra_choices=[["--solver-timeout", "1"], ["--attempt-timeout", "1"], ["--solver", "cpsat"],
                   ["--backend", "cpsat"]]), share=0.5)
_TORI = [("torus-4x4x8", "total"), ("torus-3x3x3", "total"), ("torus-4x4x4", "total"), ("torus-4x8", "total"),
         ("torus-4x4", "total"), ("torus-3x3", "total")]
register("lift", network_command(
    "lift", networks=_TORI, input_files={"f.json": "results/torus-4x4.json"},
    extra_choices=[["--timeout", "0.01"], ["--timeout", "0.1"], ["--timeout", "1"], ["--ring", "1"],
                   ["--mode", "cyclic"], ["--factor", "f.json"]]))
register("repack", network_command(
    "repack", input_files={"s.json": "results/star-4.json"},
    extra_choices=[["--tail", "3"], ["--workers", "100000"], ["--solver-timeout", "1"], ["--round", "1"],
                   ["--solver", "cpsat-intervals"], ["--start", "s.json"]]), share=0.5)
register("narrow", network_command(
    "narrow", extra_choices=[["--workers", "100000"], ["--solver-timeout", "1"], ["--solver", "cpsat-intervals"],
                             ["--exchange", "odd-distance"], ["--core-model", "lanes"],
                             ["--core-model", "joint-lanes", "--max-width", "3"], ["--from-width", "2"],
                             ["--symmetry", "C2xC2"]]), share=0.5)
register("construct", network_command("construct", extra_choices=[["--exchange", "odd-distance"]]))
register("singleport", network_command("singleport", output=("--out", "schedule"),
                                       extra_choices=[["--algorithm", "a2"], ["--algorithm", "fifo"]]))
register("verify", table_command("verify", extra_choices=[["--kernel"], ["--partial"], ["--json"]]))
register("replay", table_command(
    "replay", output=("--plot", "plot"), extra_choices=[["--engine", "streaming"], ["--engine", "reference"],
                                                       ["--model", "single-port"], ["--max-memory", "200M"]],
    signal_args=[["replay", "results/star-6.json"], ["replay", "results/hypercube-9.json"],
                 ["replay", "results/star-6.json", "--engine", "reference"]]))
register("draw", table_command("draw", output=("-o", "picture"), output_required=True,
                               extra_choices=[["--window", "0:3"], ["--window", "5:2"],
                                              ["--window", f"0:{HUGE[0]}"]]), share=0.5)
register("export", table_command("export", output=("-o", "programs"), output_required=True,
                                 extra_choices=[["--format", "programs"], ["--format", "mpi"],
                                                ["--format", "chrome-trace"]]))
register("simulate", table_command("simulate", output=("--trace", "trace"), exec_mode=True,
                                   extra_choices=[["--bytes", "8", "--mpi-algorithms", "none", "--executor", "step"],
                                                  ["--bytes", "8,4K", "--mpi-algorithms", "pair", "--json"],
                                                  ["--bytes", "0"], ["--bytes", f"{HUGE[0]}"],
                                                  ["--bandwidth", "fast"], ["--model", "cm02", "--bytes", "8"],
                                                  ["--bytes", "8", "--mpi-algorithms", "none", "--executor", "combined",
                                                   "--combine", "balanced,3"],
                                                  ["--executor", "combined,sideways"], ["--combine", "0"],
                                                  ["--combine", f"{HUGE[0]}", "--bytes", "8"]]),
         share=0.1, reads_tables=True)
#: fields of a simulate report the library reads (dotted paths; a number indexes a list), and what a hostile report
#: puts there
REPORT_FIELDS = ("network", "ranks", "contenders", "sizes", "contenders.0", "contenders.0.name",
                 "contenders.0.schedule", "contenders.0.executor", "contenders.0.executor.kind",
                 "contenders.1.executor.lookahead", "contenders.1.executor.inflight", "contenders.1.executor.pieces",
                 "sizes.0", "sizes.0.bytes", "sizes.0.runs", "sizes.0.runs.0", "sizes.0.runs.0.seconds",
                 "sizes.0.runs.0.status", "sizes.0.runs.0.contender", "sizes.0.runs.1.family")
HOSTILE_VALUES = (None, True, False, 0, -5, 1, 10**12, HUGE[0], 1.5, -0.0, "", "abc", "8", "table (step)", [], ["step"],
                  {}, {"a": 1}, [[[]]])
#: words of a hostile rank map
RANK_MAP_WORDS = ("0", "1", "7", "-1", "--7", "\u00b2", "\u0663", "1e3", "0x3", "+2", "3.0", "99999999999999999999", "nan")


def simulate_report(network: str, ranks: int) -> dict:
    """A simulate report of ``network`` the library's rules can come from (the table under step and dataflow, its
    balanced supersteps under combined, SMPI's pair), at two sizes."""
    table = {"family": "table", "schedule": "table"}
    contenders = [{"name": "table (step)", **table, "executor": {"kind": "step", "lookahead": 1, "inflight": 1,
                                                                 "pieces": 0}},
                  {"name": "table (dataflow K=2 W=2)", **table, "executor": {"kind": "dataflow", "lookahead": 2,
                                                                             "inflight": 2, "pieces": 0}},
                  {"name": "table: balanced supersteps (combined)", "family": "table",
                   "schedule": "table: balanced supersteps", "executor": {"kind": "combined", "pieces": 0}},
                  {"name": "alltoall:pair", "family": "MPI", "schedule": None, "executor": None}]
    runs = [{"contender": c["name"], "family": c["family"], "status": "ok", "seconds": 1e-5 * (k + 1)}
            for k, c in enumerate(contenders)]
    return {"network": network, "ranks": ranks, "contenders": contenders,
            "sizes": [{"bytes": 8, "runs": runs}, {"bytes": 65536, "runs": runs[::-1]}]}


def _replace(document: object, path: str, value: object) -> None:
    *parents, last = path.split(".")
    for key in parents:
        document = document[int(key)] if key.isdigit() else document[key]
    document[int(last) if last.isdigit() else last] = value


def _network_and_order(table: bytes) -> tuple[str, int]:
    """The network a table file names and its order by its family's formula (nothing built); hypercube-3 for
    anything else (a hostile table: any report will do)."""
    import re

    from tesearch.networks.families import FAMILIES

    try:
        network = json.loads(table).get("network")
        name, params, group = re.fullmatch(r"([a-z]+)-([^:]+)(?::(.+))?", network).groups()
        family = FAMILIES[name]
        return network, int(family.order(family.parse(network, params, group)))
    except Exception:  # noqa: BLE001 - anything unreadable: the default
        return "hypercube-3", 8


def _library() -> st.SearchStrategy[Case]:
    """tesearch library's cases: a table command, sometimes with a hostile simulate report of the table's own
    network (one field replaced or removed) or a hostile rank map."""
    base = table_command("library", output=("-o", "directory"), output_required=True,
                         extra_choices=[["--crossover", "t.json"], ["--rank-map", "t.json"],
                                        ["--mpicc", "no-such-compiler"], ["--force"]])

    @st.composite
    def strategy(draw) -> Case:
        case = draw(base())
        what = draw(st.sampled_from(["plain", "report", "rank map"]))
        network, ranks = _network_and_order(case.files.get("t.json", b""))
        if what == "report":
            report = simulate_report(str(network), ranks)
            path = draw(st.sampled_from(REPORT_FIELDS))
            if draw(st.booleans()):
                *parents, last = path.split(".")
                holder = report
                for key in parents:
                    holder = holder[int(key)] if key.isdigit() else holder[key]
                del holder[int(last) if last.isdigit() else last]
            else:
                _replace(report, path, draw(st.sampled_from(HOSTILE_VALUES)))
            case.files["r.json"] = json.dumps(report).encode()
            case.args += ["--crossover", "r.json"]
            case.kind += f"; report with {path} changed"
        elif what == "rank map":
            words = draw(st.lists(st.sampled_from(RANK_MAP_WORDS), min_size=0, max_size=ranks + 1))
            case.files["m.txt"] = " ".join(words).encode()
            case.args += ["--rank-map", "m.txt"]
            case.kind += "; hostile rank map"
        return case

    return strategy()


register("library", _library, share=0.3, reads_tables=True)
register("view", table_command("view", output=("-o", "page"), output_required=True,
                               extra_choices=[["--window", "0:3"], ["--window", "5:2"], ["--window", f"0:{HUGE[0]}"]]),
         share=0.5)
register("compare", table_command("compare", extra_choices=[["--engine", "all-nodes"], ["--order", "nearest-first"],
                                                            ["--json"]]))


@st.composite
def _certify(draw) -> Case:
    """certify: a table (valid, invalid or hostile), refutations (committed, forged, mutated), an output;
    a certificate it writes is then checked by check-proof (a false or refuted one is wrong)."""
    case = draw(table_command("certify", tables=["ring-6-cyclic.json", "ring-4-cyclic.json", "ring-8-cyclic.json",
                                                 "star-4.json", "ring-6.json"], text_ok=False)())
    if case.kind == "signal":
        return case
    refute = draw(st.sampled_from(["none", "committed", "tampered", "forged false", "path"]))
    if refute == "committed":
        enc = draw(st.sampled_from(ENCODINGS))
        case.files.update(repo_files(enc))
        case.args += ["--refutation", enc]
    elif refute == "tampered":
        data, how = draw(tampered_encoding("ring-6:cyclic total", 5, 5, "encodings/ring-6_cyclic-total-full-T5.smt2"))
        case.files.update({"pyproject.toml": b"", "encodings/e.smt2": data})
        case.files["t.json"] = committed("results/ring-6-cyclic.json")
        case.invalid_table = None
        case.args += ["--refutation", "encodings/e.smt2"]
        case.tampered = [0]
        case.kind = f"ring-6-cyclic.json, refutation {how}"
    elif refute == "forged false":  # the repro: a padded table, a forged encoding one width below it
        source, problem, spec = draw(st.sampled_from([("star-4.json", "star-4 total", "star-4"),
                                                      ("ring-6-cyclic.json", "ring-6:cyclic total", "ring-6:cyclic")]))
        table = committed_table(source)
        width = known_width(spec) + draw(st.integers(0, 3))
        table["T"] = width + 1
        case.files.update({"pyproject.toml": b"", "t.json": json.dumps(table).encode(),
                           "encodings/f.smt2": forged_encoding(problem, width, len(table["placements"]),
                                                               draw(st.sampled_from(FORGED_BODIES)))})
        case.invalid_table = None
        case.args += ["--refutation", "encodings/f.smt2"]
        case.tampered = [0]
        case.kind = f"{source} padded to T = {width + 1}, forged refutation of width {width}"
    elif refute == "path":
        case.args += ["--refutation", draw(st.sampled_from(["/nope.smt2", "../e.smt2", "t.json", "/etc/passwd"]))]
    if "-o" not in case.args:
        apply_output(case, "-o", "certificate", draw(output_target("certificate", ["t.json"])))
    out = case.args[case.args.index("-o") + 1]
    case.args = clean_args(case.args)
    case.follow_up = ["check-proof", out, "--solver-timeout", "20"]
    return case


register("certify", lambda: _certify())


@st.composite
def _check_proof(draw) -> Case:
    """check-proof: mutated committed certificates, tampered ones (forged or altered encodings), signals."""
    branch = draw(st.sampled_from(["mutated", "mutated", "tampered", "tampered", "committed", "signal"]))
    extra = _extra(draw)
    if branch == "signal":
        return signal_case(draw, ["check-proof", "proofs/ring-12-cyclic.json"],
                           repo_files("proofs/ring-12-cyclic.json", *[f"encodings/{p}" for p in (
                               "ring-12_cyclic-total-full-T18.smt2", "ring-12_cyclic-total-full-T19.smt2",
                               "ring-12_cyclic-total-full-T20.smt2", "ring-12_cyclic-total-full-T18.drat",
                               "ring-12_cyclic-total-full-T19.drat", "ring-12_cyclic-total-full-T20.drat")]))
    if branch == "tampered":
        files, tampered, how = draw(tampered_certificate())
        case = Case(["check-proof", "proofs/c.json"], files, tampered=tampered, kind=how)
    elif branch == "committed":
        name = draw(st.sampled_from(sorted(CERTIFIED)))
        cert = committed_json(f"proofs/{name}.json")
        paths = [c["encoding"]["path"] for c in cert["impossibility_claims"]]
        paths += [c["proof"]["path"] for cl in cert["impossibility_claims"] for c in cl.get("confirmations", [])
                  if isinstance(c.get("proof"), dict)]
        case = Case(["check-proof", f"proofs/{name}.json"], repo_files(f"proofs/{name}.json", *paths),
                    kind="committed certificate")
    else:
        case = Case(["check-proof", "c.json"], {"c.json": draw(certificate_bytes())}, kind="mutated certificate")
    case.args += [*extra, "--solver-timeout", "10", *_bounded("check-proof", extra)]
    case.args = clean_args(case.args)
    return case


register("check-proof", lambda: _check_proof())


@st.composite
def _run(draw) -> Case:
    """run: tiny MPI runs (ring-4, ring-6; valid, invalid or hostile tables, hostile programs files through the
    tests' hook TESEARCH_TEST_PROGRAMS), no --mpi, huge sizes, every executor, and SIGINT/SIGTERM to run --mpi
    ring-8."""
    branch = draw(st.sampled_from(["mpi", "mpi", "invalid", "no mpi", "hostile", "programs", "huge", "signal"]))
    if branch == "signal":
        return signal_case(draw, ["run", "t.json", "--mpi", "--repeat", "20", "--timeout", "40"],
                           {"t.json": committed("results/ring-8.json")})
    case = Case(["run", "t.json"], exec_mode=True, seconds=40.0, kind=branch)
    source = draw(st.sampled_from(["ring-4.json", "ring-6.json"]))
    case.files["t.json"] = committed(f"results/{source}")
    if branch != "no mpi":
        case.args.append("--mpi")
    if branch == "invalid":
        data, why = draw(invalid_table(["ring-4.json", "ring-6.json", "ring-6-cyclic.json"]))
        case.files["t.json"] = json.dumps(data).encode()
        case.invalid_table = why
    elif branch == "hostile":
        case.files["t.json"] = draw(table_bytes())
    elif branch == "programs":
        good = committed("results/ring-4.json")
        case.files["t.json"] = good
        case.files["p.jsonl"] = draw(st.sampled_from([b"", b"{}\n", b"[" * 100, b"\xff", json.dumps(
            {"format": "tesearch-programs", "format_version": 1, "ranks": 10 ** 20}).encode() + b"\n"]))
        case.env["TESEARCH_TEST_PROGRAMS"] = "p.jsonl"
    elif branch == "huge":
        case.args += [draw(st.sampled_from(["--bytes", "--repeat", "-n", "--dataflow"])), draw(st.sampled_from(HUGE))]
    extra = draw(st.sampled_from([[], ["--json"], ["-n", "3"], ["--bytes", "0"], ["--repeat", "2"], ["--quiet"],
                                  ["--executor", "all"], ["--executor", "combined,step"], ["--executor", "nope"],
                                  ["--executor", "dataflow", "--dataflow", "2:3"], ["--dataflow", "1:1"]]))
    case.args += [*extra, *_bounded("run", extra, "30")]
    return case


register("run", lambda: _run(), share=0.5)


@st.composite
def _sweep(draw) -> Case:
    """sweep: most cases are bad input (exit 2 before Ray starts); a few start a one-CPU Ray on a tiny
    network (10-15 s each), some of them signalled while Ray starts or runs, some writing outputs."""
    branch = draw(st.sampled_from(["bad", "bad", "bad", "ray", "signal"]))
    if branch == "bad":
        bad = draw(st.sampled_from([
            [draw(specs)], ["ring-4", "--num-cpus", draw(st.sampled_from(["0", "-1", HUGE[0]]))],
            ["ring-4", "--seeds", draw(st.sampled_from(["0", HUGE[0]]))], ["ring-4", "--address", "nowhere:1"],
            ["ring-4", "--timeout", draw(st.sampled_from(["0", "-1", "nan", HUGE[0]]))],
            ["ring-4", "--exchange", "both"], [], ["ring-4", "--max-memory", "lots"],
            ["ring-4", "--address", "auto", "--num-cpus", "1"]]))
        if "--timeout" not in bad:  # joining a cluster that is not there waits ~30 s otherwise
            bad = [*bad, "--timeout", "10"]
        case = Case(clean_args(["sweep", *bad]), exec_mode=True, seconds=60.0, kind="bad input")
        if bad and bad[0] == "ring-4" and draw(st.booleans()):
            apply_output(case, "--out-dir", "directory", draw(output_target("directory", [])))
        return case
    networks = draw(st.sampled_from([["ring-4"], ["ring-6"], ["hypercube-2"], ["ring-4", "ring-4:cyclic"]]))
    args = ["sweep", *networks, "--num-cpus", "1", "--seeds", "1", "--timeout", "60"]
    if branch == "signal":
        return signal_case(draw, args, seconds=90.0)
    case = Case(args, exec_mode=True, seconds=90.0, kind="ray")
    how = draw(st.sampled_from(["none", "out-dir", "runs"]))
    if how == "out-dir":
        apply_output(case, "--out-dir", "directory", draw(output_target("directory", [])))
    elif how == "runs":
        apply_output(case, "--runs", "runs", draw(output_target("runs", [])))
    return case


register("sweep", lambda: _sweep(), share=0.03)


@st.composite
def _regress(draw) -> Case:
    """regress: takes no input; its options, huge and hostile, and a signal while it checks."""
    branch = draw(st.sampled_from(["plain", "options", "signal"]))
    if branch == "signal":
        return signal_case(draw, ["regress"])
    extra = draw(options) if branch == "options" else draw(st.sampled_from([[], ["--json"], ["--no-constructions"]]))
    return Case(clean_args(["regress", *extra]), kind=branch)


register("regress", lambda: _regress(), share=0.05)


def cases(command: str) -> st.SearchStrategy[Case]:
    """The strategy of cases of one subcommand."""
    return GENERATORS[command]()


def missing_generators() -> list[str]:
    """Subcommands of the CLI (tesearch.cli.app.COMMANDS) that have no generator here."""
    from tesearch.cli.app import COMMANDS as CLI_COMMANDS

    return [name for name in CLI_COMMANDS if name not in GENERATORS]


#: the subcommands with a generator, in the CLI's order where it has them
COMMANDS = list(GENERATORS)
