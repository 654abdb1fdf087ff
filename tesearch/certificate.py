"""Proof certificates: write them (:func:`make_certificate`) and check them (:func:`check_certificate`).

A certificate (``docs/certificate-format.md``) is one JSON file under proofs/
that lets anyone re-check a result from the file alone:

* the network (generators, distance distribution, status) and every lower bound
  with its derivation and which one binds;
* the table (tesearch-table v1, embedded, with its sha256) and the checks run
  on it: seed 003 Theorem 1 (:func:`tesearch.verify.verify_table`) and the
  whole-network replay (:mod:`tesearch.replay`);
* impossibility claims ("no table of width W"): the SMT-LIB2 encoding under
  encodings/ with its sha256, Z3's result and time, and independent
  confirmations: cvc5 on a standard QF_LIA form of the same file, and a SAT
  solver on a direct CNF form with a DRAT proof checked in pure Python
  (:mod:`tesearch.proofcheck`).

:func:`check_certificate` recomputes everything and gives one
:class:`Verdict` per claim.  An impossibility claim is confirmed when its
encoding's hash matches and at least :data:`CONFIRMATIONS_NEEDED` independent
methods (Z3 re-run, cvc5 re-run, DRAT proof check) establish unsat and none
contradicts it; any contradiction (a hash mismatch, a solver finding the
encoding satisfiable, a proof that does not check) refutes it.
"""

from __future__ import annotations

import enum
import hashlib
import json
import platform
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tesearch.terms import SolveResult
from tesearch.errors import FormatError, TesearchError
from tesearch.files import read_json_file
from tesearch.files import write_atomically as atomic_write
from tesearch.table import Table, table_from_json

FORMAT = "tesearch-certificate"
FORMAT_VERSION = 1
#: independent methods that must establish unsat for an impossibility claim to be confirmed
CONFIRMATIONS_NEEDED = 2
#: default seconds per solver run when checking
DEFAULT_TIMEOUT_S = 60.0
#: the replay model the certificates use
REPLAY_MODEL = "all-port"


class Verdict(str, enum.Enum):
    CONFIRMED = "confirmed"
    REFUTED = "refuted"
    UNCHECKED = "unchecked"


class Method(str, enum.Enum):
    """Independent ways an impossibility claim is re-established."""

    Z3 = "z3"
    CVC5 = "cvc5"
    DRAT = "sat+drat"


# ------------------------------------------------------------------ helpers

def tool_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tesearch")
    except PackageNotFoundError:
        return "unknown"


def table_sha256(table_json: dict) -> str:
    """sha256 of a table's canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(table_json, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def repository_root(start: Path) -> Path:
    """The nearest ancestor holding pyproject.toml or .git (paths in certificates are relative to it)."""
    start = start.resolve()
    for candidate in [start, *start.parents]:
        if (candidate / "pyproject.toml").exists() or (candidate / ".git").exists():
            return candidate
    return start if start.is_dir() else start.parent


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.resolve().as_posix()


_HEADER = re.compile(r"^; tesearch encoding: (?P<name>.*?) T=(?P<width>\d+) items=(?P<items>\d+) (?P<options>\S+)\s*$",
                     re.MULTILINE)
_COMPLETE = re.compile(r"^; candidate words complete: (?P<complete>True|False)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class EncodingHeader:
    """What a tesearch SMT-LIB2 file says about itself in its comment header."""

    name: str  # "ring-6:cyclic total" (full) or "... core"
    width: int
    items: int
    options: str
    complete_words: bool | None


def read_encoding_header(text: str) -> EncodingHeader | None:
    match = _HEADER.search(text)
    if match is None:
        return None
    complete = _COMPLETE.search(text)
    return EncodingHeader(match["name"], int(match["width"]), int(match["items"]), match["options"],
                          None if complete is None else complete["complete"] == "True")


# ------------------------------------------------------------------ bounds and network facts

def network_facts(cg, target_set) -> dict:
    return {
        "order": int(cg.order),
        "degree": int(cg.degree),
        "diameter": int(cg.diameter),
        "distance_distribution": cg.distance_distribution,
        "status": int(cg.status),
        "targets": int(len(target_set)),
        "target_letters": int(cg.dist[target_set].sum()),
    }


def bounds_record(cg, target_set, bounds) -> dict:
    """Every lower bound with its derivation, and which binds and why."""
    from tesearch.bounds import min_letter_counts

    letter_minima = min_letter_counts(cg)[target_set].sum(axis=0).astype(int).tolist()
    total, degree = bounds.target_letters, bounds.generators
    letter = bounds.letter
    if letter.value > bounds.counting:
        why = (f"the per-letter bound {letter.value} exceeds the counting bound {bounds.counting}: no choice of "
               f"shortest words uses every letter at most {letter.value - 1} times")
    elif letter.value == bounds.counting:
        why = f"the counting bound {bounds.counting} binds (the per-letter bound is equal)"
    else:
        why = f"the counting bound {bounds.counting} binds (the per-letter estimate is {letter.value})"
    return {
        "counting": {
            "value": bounds.counting,
            "derivation": f"every column holds at most |S| = {degree} letters and the targets' shortest words "
                          f"have {total} letters in all: T >= ceil({total} / {degree}) = {bounds.counting}",
        },
        "per_letter": {
            "value": letter.value,
            "exact": letter.exact,
            "achievable_max_letter_count": letter.upper,
            "method": letter.method,
            "letter_minima": dict(zip(cg.letters, letter_minima)),
            "derivation": "every column holds each letter at most once, so T >= the least possible count of "
                          "the most-used letter over all choices of shortest words "
                          f"= {letter.value} ({letter.method}{'' if letter.exact else '; a lower estimate'}); "
                          "each letter's own minimum count is "
                          + ", ".join(f"{s}: {n}" for s, n in zip(cg.letters, letter_minima)),
        },
        "singleport": {"value": bounds.singleport,
                       "derivation": "single-port: one message per node per step, so T >= the sum of target "
                                     f"distances = {bounds.singleport} (not an all-port bound)"},
        "best": bounds.best,
        "binding": bounds.binding,
        "why": why,
    }


# ------------------------------------------------------------------ replay (tesearch.replay, by another module)

def run_replay(table_json: dict) -> tuple[Verdict, str, dict | None]:
    """Replay the table on the whole network with :func:`tesearch.replay.replay_file`."""
    try:
        from tesearch.replay import replay_file
    except ImportError as exc:
        return Verdict.UNCHECKED, f"tesearch.replay is not available ({exc})", None
    with tempfile.TemporaryDirectory(prefix="tesearch-cert-") as tmp:
        path = Path(tmp) / "table.json"
        path.write_text(json.dumps(table_json))
        try:
            report = replay_file(path, REPLAY_MODEL)
        except FormatError as exc:
            return Verdict.REFUTED, f"replay rejects the table: {exc}", None
        except TesearchError as exc:  # e.g. a network too large to replay
            return Verdict.UNCHECKED, f"replay not run: {exc}", None
    data = report.to_json() if hasattr(report, "to_json") else None
    buffer_free = getattr(report, "buffer_free", True)
    if report.ok and buffer_free:
        return Verdict.CONFIRMED, (f"replay ({REPLAY_MODEL}) delivers every message once along a shortest path "
                                   f"by step {getattr(report, 'completion_time', '?')}, no link overused, "
                                   "no buffer"), data
    kinds = sorted(k.value if hasattr(k, "value") else str(k) for k in getattr(report, "kinds", set()))
    return Verdict.REFUTED, (f"replay ({REPLAY_MODEL}) fails: {', '.join(kinds) or 'see the report'}"
                             + ("" if buffer_free else "; a message waits in a buffer")), data


# ------------------------------------------------------------------ impossibility claims

@dataclass
class RefutationRequest:
    """An impossibility claim to certify: an encoding file and what it claims."""

    encoding: Path
    claim: str | None = None  # default: worded from the encoding's header
    width: int | None = None  # default: from the header
    scope: str | None = None  # "full" (no table at all) or "restricted"; default from the header
    restriction: str | None = None


def _describe(request: RefutationRequest, header: EncodingHeader | None, network: str, exchange: str
              ) -> tuple[str, int, str, str | None]:
    width = request.width if request.width is not None else header.width if header else None
    if width is None:
        raise FormatError("no width given and the encoding has no tesearch header", where=str(request.encoding))
    scope, restriction = request.scope, request.restriction
    if scope is None:
        full = header is not None and header.name == f"{network} {exchange}" and header.complete_words
        scope = "full" if full else "restricted"
    if scope == "restricted" and restriction is None:
        if header is not None and header.name.endswith(" core"):
            restriction = "the rotation-symmetric layout: this core (exceptional elements and filler orbits) " \
                          "with the rotation blocks fixed"
        elif header is not None and header.complete_words is False:
            restriction = "only the sampled candidate shortest words of each element"
        else:
            restriction = "the restriction encoded in the file"
    claim = request.claim
    if claim is None:
        claim = f"no table of width {width} for {network} {exchange}"
        if scope == "restricted":
            claim += f" within {restriction}"
    return claim, width, scope, restriction


def refute(request: RefutationRequest, *, network: str, exchange: str, root: Path,
           timeout_s: float) -> dict:
    """Run Z3, cvc5 and a SAT solver with a DRAT proof on one encoding; the claim's record."""
    from tesearch import proofcheck

    path = Path(request.encoding)
    text = path.read_text()
    header = read_encoding_header(text)
    claim, width, scope, restriction = _describe(request, header, network, exchange)
    primary = proofcheck.run_z3(text, timeout_s)
    if primary.result is not SolveResult.UNSAT:
        raise TesearchError(f"{path}: z3 says {primary.result.value if primary.result else 'nothing'} "
                            f"({primary.reason or 'no reason'}); not an impossibility proof")
    confirmations = []
    try:
        standard = proofcheck.to_standard_smtlib2(text)
        run = proofcheck.run_cvc5(standard, timeout_s)
        confirmations.append({"method": Method.CVC5.value, "input": "standard QF_LIA form of the encoding "
                              "(tesearch.proofcheck.to_standard_smtlib2)", "input_sha256": proofcheck.sha256_text(standard),
                              **run.to_json()})
    except proofcheck.Unsupported as exc:
        confirmations.append({"method": Method.CVC5.value, "result": None, "reason": f"not translatable: {exc}"})
    try:
        cnf = proofcheck.to_cnf(text)
        run, proof = proofcheck.run_sat_with_proof(cnf)
        entry = {"method": Method.DRAT.value,
                 "cnf": {"translation": "tesearch.proofcheck.to_cnf (Tseitin + sequential weighted counter)",
                         "variables": cnf.variables, "clauses": len(cnf.clauses), "sha256": cnf.sha256},
                 **run.to_json()}
        if proof is not None:
            check = proofcheck.check_drat(cnf, proof)
            proof_path = path.with_suffix(".drat")
            atomic_write(proof_path, proof)
            entry["proof"] = {"format": "DRAT (text)", "path": _relative(proof_path, root),
                              "sha256": proofcheck.sha256_text(proof), "lines": proof.count("\n"),
                              "checker": "tesearch.proofcheck.check_drat (forward RUP/RAT, pure Python)",
                              "check": check.to_json()}
            if not check.accepted:
                raise TesearchError(f"{path}: the SAT solver's proof does not check: {check.reason}")
        confirmations.append(entry)
    except proofcheck.Unsupported as exc:
        confirmations.append({"method": Method.DRAT.value, "result": None, "reason": f"no CNF form: {exc}"})
    for entry in confirmations:
        if entry.get("result") == SolveResult.SAT.value:
            raise TesearchError(f"{path}: {entry['method']} finds the encoding satisfiable, z3 said unsat")
    confirmed_by = [Method.Z3.value] + [e["method"] for e in confirmations
                                        if e.get("result") == SolveResult.UNSAT.value
                                        and (e["method"] != Method.DRAT.value or e.get("proof", {}).get("check", {}).get("accepted"))]
    return {
        "claim": claim,
        "width": width,
        "scope": scope,
        "restriction": restriction,
        "encoding": {"path": _relative(path, root), "sha256": file_sha256(path), "bytes": path.stat().st_size,
                     "header": None if header is None else {"problem": header.name, "width": header.width,
                                                           "items": header.items, "options": header.options,
                                                           "complete_words": header.complete_words}},
        "solver": primary.to_json(),
        "confirmations": confirmations,
        "confirmed_by": confirmed_by,
    }


# ------------------------------------------------------------------ writing

def make_certificate(table: Table, *, name: str, refutations: list[RefutationRequest] | None = None,
                     table_source: str | None = None, command: str | None = None, root: Path | None = None,
                     timeout_s: float = DEFAULT_TIMEOUT_S) -> dict:
    """Check ``table`` and every refutation now, and return the certificate's JSON object."""
    from tesearch import proofcheck
    from tesearch.verify import table_graph, verify_table
    from tesearch.words import targets

    root = root or repository_root(Path.cwd())
    table_json = table.to_json()
    cg = table_graph(table)
    target_set = targets(cg, table.exchange)
    started = time.perf_counter()
    verification = verify_table(table, cg=cg)
    verify_seconds = time.perf_counter() - started
    if not verification.ok:
        raise TesearchError(f"the table does not verify: {verification.violations[0]}")
    started = time.perf_counter()
    replay_verdict, replay_reason, replay_report = run_replay(table_json)
    replay_seconds = time.perf_counter() - started
    if replay_verdict is Verdict.REFUTED:
        raise TesearchError(f"the table fails the replay: {replay_reason}")
    bounds = verification.bounds
    claims = [refute(r, network=table.network, exchange=table.exchange, root=root,
                     timeout_s=timeout_s) for r in (refutations or [])]
    at_creation = [Verdict.CONFIRMED if len(c["confirmed_by"]) >= CONFIRMATIONS_NEEDED else Verdict.UNCHECKED
                   for c in claims]
    optimality = _optimality(table.T, bounds.best, claims, {table.T - 1: at_creation})
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": name,
        "created": {
            "tool": "tesearch", "tool_version": tool_version(),
            "command": command,
            "python": platform.python_version(),
            "solvers": {"z3": proofcheck.z3_version(), "cvc5": proofcheck.cvc5_version(),
                        "python-sat": proofcheck.pysat_version(), "sat_solver": proofcheck.SAT_SOLVER},
        },
        "verification": _verification_text(claims, replay_verdict),
        "network": {"spec": table.network, "exchange": table.exchange, "letters": list(table.letters),
                    "generators": table_json["generators"], **network_facts(cg, target_set)},
        "bounds": bounds_record(cg, target_set, bounds),
        "table": {"source": table_source, "sha256": table_sha256(table_json), "T": table.T, "content": table_json},
        "table_checks": {
            "theorem1": {"outcome": "valid", "words": verification.words, "targets": verification.targets,
                         "violations": 0, "seconds": round(verify_seconds, 3),
                         "how": "tesearch.verify.verify_table: every word a shortest word of a distinct target, "
                                "all targets placed, no overlap in a row, all inside 0..T-1, no letter twice in a column"},
            "replay": {"outcome": replay_verdict.value, "detail": replay_reason, "model": REPLAY_MODEL,
                       "seconds": round(replay_seconds, 3), "report": replay_report},
        },
        "result": optimality,
        "impossibility_claims": claims,
    }


def _optimality(T: int, best: int, claims: list[dict], verdicts: dict[int, list[Verdict]]) -> dict:
    """Whether T is shown optimal: it meets the best bound, or a full claim refutes width T-1."""
    if T == best:
        return {"T": T, "optimal": True, "argument": f"T = {T} equals the best lower bound {best}"}
    for claim, verdict in zip(claims, verdicts.get(T - 1, [])):
        if claim["scope"] == "full" and claim["width"] == T - 1 and verdict is Verdict.CONFIRMED:
            return {"T": T, "optimal": True,
                    "argument": f"T = {T} exceeds the best lower bound {best}, and width {T - 1} is impossible "
                                f"(impossibility claim: {claim['claim']})"}
    return {"T": T, "optimal": False, "argument": f"T = {T} exceeds the best lower bound {best} by {T - best}; "
                                                 f"no confirmed claim refutes width {T - 1}"}


def _verification_text(claims: list[dict], replay: Verdict) -> dict:
    checks = [
        "network: the group is rebuilt from the generators by breadth-first search (order cross-checked with "
        "SymPy's Schreier-Sims); order, diameter, distance distribution, status and targets are recomputed",
        "bounds: counting and per-letter bounds are recomputed (tesearch.bounds) and compared with the ones "
        "recorded",
        "table: sha256 of the embedded table (canonical JSON) is compared; seed 003 Theorem 1 is checked by "
        "tesearch.verify.verify_table",
        f"replay: the table is replayed on the whole network ({REPLAY_MODEL}) by tesearch.replay"
        + ("" if replay is Verdict.CONFIRMED else f" (at creation: {replay.value})"),
        "optimality: T is compared with the best recomputed bound, or with a confirmed full impossibility claim "
        "at width T-1",
    ]
    if claims:
        checks.append(
            "impossibility claims: the encoding's sha256 is compared; the encoding is re-solved by z3; cvc5 "
            "solves a standard QF_LIA rewrite of the same file (Z3's PB operators as sums of ite); the file is "
            "translated to CNF in pure Python (its sha256 compared) and the SAT solver's DRAT proof is re-checked "
            f"by a forward RUP/RAT checker in pure Python. A claim is confirmed by at least "
            f"{CONFIRMATIONS_NEEDED} of these; what the encoding means (that it models the claim) rests on "
            "tesearch.encode, named in the file's header")
    return {"summary": "everything below is re-derived by `tesearch check-proof` from this file and the "
                       "encoding and proof files it names", "checks": checks}


def write_certificate(certificate: dict, path: str | Path) -> None:
    atomic_write(Path(path), json.dumps(certificate, indent=1) + "\n")


# ------------------------------------------------------------------ checking

@dataclass
class ClaimVerdict:
    claim: str  # a short identifier: network, bounds, table, replay, optimality, impossibility[i]
    statement: str
    verdict: Verdict
    reason: str
    details: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"claim": self.claim, "statement": self.statement, "verdict": self.verdict.value,
                "reason": self.reason, **({"details": self.details} if self.details else {})}


@dataclass
class CertificateReport:
    path: str
    name: str | None
    verdicts: list[ClaimVerdict]
    seconds: float

    @property
    def refuted(self) -> bool:
        return any(v.verdict is Verdict.REFUTED for v in self.verdicts)

    @property
    def all_confirmed(self) -> bool:
        return all(v.verdict is Verdict.CONFIRMED for v in self.verdicts)

    def to_json(self) -> dict:
        overall = Verdict.REFUTED if self.refuted else Verdict.CONFIRMED if self.all_confirmed else Verdict.UNCHECKED
        return {"file": self.path, "name": self.name, "verdict": overall.value,
                "seconds": round(self.seconds, 3), "claims": [v.to_json() for v in self.verdicts]}

    def text(self) -> str:
        lines = [f"{self.path}: {self.to_json()['verdict'].upper()} ({self.seconds:.2f}s)"]
        for v in self.verdicts:
            lines.append(f"  {v.verdict.value:<10} {v.claim}: {v.statement}")
            if v.reason:
                lines.append(f"             {v.reason}")
        return "\n".join(lines)


def load_certificate(path: str | Path) -> dict:
    path = Path(path)
    data = read_json_file(path)
    where = str(path)
    if not isinstance(data, dict):
        raise FormatError("a certificate is a JSON object", where=where)
    if data.get("format") != FORMAT:
        raise FormatError(f"'format' is {data.get('format')!r}, expected {FORMAT!r}", where=where)
    if data.get("format_version") != FORMAT_VERSION:
        raise FormatError(f"unsupported format_version {data.get('format_version')!r} (this checker knows 1)",
                          where=where)
    for key, kind in (("network", dict), ("bounds", dict), ("table", dict), ("result", dict),
                      ("impossibility_claims", list)):
        if not isinstance(data.get(key), kind):
            raise FormatError(f"{key!r} must be a JSON {'object' if kind is dict else 'list'}", where=where)
    if not isinstance(data["table"].get("content"), dict):
        raise FormatError("'table.content' must be the embedded tesearch-table object", where=where)
    for i, claim in enumerate(data["impossibility_claims"]):
        here = f"{where}: impossibility_claims[{i}]"
        if not isinstance(claim, dict) or not isinstance(claim.get("encoding"), dict):
            raise FormatError("a claim is an object with an 'encoding' object", where=here)
        if not isinstance(claim["encoding"].get("path"), str) or not isinstance(claim["encoding"].get("sha256"), str):
            raise FormatError("'encoding' needs 'path' and 'sha256' strings", where=here)
        if not isinstance(claim.get("width"), int) or claim.get("scope") not in ("full", "restricted"):
            raise FormatError("a claim needs an integer 'width' and a 'scope' of full or restricted", where=here)
    return data


def _compare(recorded: dict, computed: dict, keys) -> list[str]:
    return [f"{k}: recorded {recorded.get(k)!r}, recomputed {computed[k]!r}" for k in keys
            if recorded.get(k) != computed[k]]


def check_certificate(path: str | Path, *, timeout_s: float = DEFAULT_TIMEOUT_S, root: Path | None = None
                      ) -> CertificateReport:
    """Re-derive everything a certificate states; one verdict per claim.  Raises FormatError on a malformed file."""
    from tesearch.networks import network_for_table
    from tesearch.groups import cayley_graph
    from tesearch.verify import verify_table
    from tesearch.words import targets

    started = time.perf_counter()
    path = Path(path)
    data = load_certificate(path)
    root = root or repository_root(path.parent)
    table = table_from_json(data["table"]["content"], f"{path}: table.content")
    verdicts: list[ClaimVerdict] = []
    net = data["network"]

    # -- network: rebuilt from the certificate's generators
    generators = net.get("generators")
    cg = cayley_graph(network_for_table(table.network, table.generators))
    target_set = targets(cg, table.exchange)
    computed = network_facts(cg, target_set)
    problems = _compare(net, computed, computed.keys())
    if generators != {s: list(p) for s, p in table.generators.items()}:
        problems.insert(0, "the network's generators differ from the table's")
    if net.get("spec") != table.network or net.get("exchange") != table.exchange:
        problems.insert(0, "the network or exchange differs from the table's")
    verdicts.append(ClaimVerdict(
        "network", f"{table.network} {table.exchange}: {computed['order']} nodes, distances "
                   f"{computed['distance_distribution']}, status {computed['status']}",
        Verdict.REFUTED if problems else Verdict.CONFIRMED,
        "; ".join(problems) if problems else "rebuilt from the generators; every figure matches"))

    # -- table: hash and Theorem 1 (which also recomputes the bounds)
    recorded_hash = data["table"].get("sha256")
    actual_hash = table_sha256(data["table"]["content"])
    verification = verify_table(table, cg=cg)
    problems = []
    if recorded_hash != actual_hash:
        problems.append(f"sha256 of the embedded table is {actual_hash}, the certificate records {recorded_hash}")
    if data["table"].get("T") != table.T:
        problems.append(f"'table.T' is {data['table'].get('T')!r}, the table has T = {table.T}")
    problems += [str(v) for v in verification.violations[:10]]
    verdicts.append(ClaimVerdict(
        "table", f"the embedded table (T = {table.T}) is a valid {table.exchange} exchange (seed 003 Theorem 1)",
        Verdict.REFUTED if problems else Verdict.CONFIRMED,
        "; ".join(problems) if problems else f"{verification.words} words for {verification.targets} targets, "
                                              "no violation; sha256 matches"))

    # -- bounds
    bounds = verification.bounds
    fresh = bounds_record(cg, target_set, bounds)
    recorded = data["bounds"]
    problems = []
    for key in ("counting", "per_letter", "singleport"):
        old = recorded.get(key, {}).get("value") if isinstance(recorded.get(key), dict) else None
        if old != fresh[key]["value"]:
            problems.append(f"{key} bound: recorded {old!r}, recomputed {fresh[key]['value']}")
    problems += _compare(recorded, fresh, ("best", "binding"))
    if table.lower_bound is not None and table.lower_bound != bounds.counting:
        problems.append(f"the table's lower_bound is {table.lower_bound}, the counting bound is {bounds.counting}")
    verdicts.append(ClaimVerdict(
        "bounds", f"counting {fresh['counting']['value']}, per-letter {fresh['per_letter']['value']}; "
                  f"best {fresh['best']} ({fresh['binding']} binds)",
        Verdict.REFUTED if problems else Verdict.CONFIRMED,
        "; ".join(problems) if problems else fresh["why"]))

    # -- replay
    replay_verdict, replay_reason, _ = run_replay(data["table"]["content"])
    verdicts.append(ClaimVerdict("replay", f"the table replays on the whole network ({REPLAY_MODEL})",
                                 replay_verdict, replay_reason))

    # -- impossibility claims
    claim_verdicts = []
    for i, claim in enumerate(data["impossibility_claims"]):
        verdict = check_impossibility(claim, table=table, table_valid=verification.ok, root=root, timeout_s=timeout_s)
        verdict.claim = f"impossibility[{i}]"
        claim_verdicts.append(verdict)
    verdicts += claim_verdicts

    # -- optimality, from the recomputed bound and the confirmed claims
    computed_result = _optimality(table.T, bounds.best, data["impossibility_claims"],
                                  {table.T - 1: [v.verdict for v in claim_verdicts]})
    stated = data["result"].get("optimal")
    statement = f"T = {table.T} is {'optimal' if stated else 'not shown optimal'}"
    if not verification.ok:
        verdicts.append(ClaimVerdict("optimality", statement, Verdict.REFUTED, "the table is not valid"))
    elif stated and not computed_result["optimal"]:
        undecided = any(v.verdict is Verdict.UNCHECKED for v in claim_verdicts)
        verdicts.append(ClaimVerdict("optimality", statement, Verdict.UNCHECKED if undecided else Verdict.REFUTED,
                                     computed_result["argument"]))
    elif data["result"].get("T") != table.T:
        verdicts.append(ClaimVerdict("optimality", statement, Verdict.REFUTED,
                                     f"'result.T' is {data['result'].get('T')!r}, the table has T = {table.T}"))
    else:
        verdicts.append(ClaimVerdict("optimality", statement, Verdict.CONFIRMED, computed_result["argument"]))
    return CertificateReport(str(path), data.get("name"), verdicts, time.perf_counter() - started)


def _resolve(relative: str, root: Path) -> Path:
    candidate = Path(relative)
    return candidate if candidate.is_absolute() else root / candidate


def check_impossibility(claim: dict, *, table: Table, table_valid: bool, root: Path, timeout_s: float) -> ClaimVerdict:
    """Hash, z3 re-run, cvc5 re-run and DRAT re-check of one impossibility claim."""
    from tesearch import proofcheck

    statement = str(claim.get("claim", f"no table of width {claim['width']}"))
    refutations: list[str] = []
    notes: list[str] = []
    confirmed: list[str] = []
    details: dict = {}

    if claim["scope"] == "full" and table_valid and claim["width"] >= table.T:
        refutations.append(f"the certificate's own table has width {table.T} <= {claim['width']}")
    enc = claim["encoding"]
    path = _resolve(enc["path"], root)
    if not path.exists():
        return ClaimVerdict("impossibility", statement, Verdict.REFUTED if refutations else Verdict.UNCHECKED,
                            "; ".join(refutations + [f"encoding file {enc['path']} not found under {root}"]))
    data = path.read_bytes()
    actual = proofcheck.sha256_bytes(data)
    if actual != enc["sha256"]:
        return ClaimVerdict("impossibility", statement, Verdict.REFUTED,
                            "; ".join(refutations + [f"{enc['path']}: sha256 is {actual}, the certificate records "
                                                     f"{enc['sha256']}"]))
    text = data.decode()
    header = read_encoding_header(text)
    if header is not None and header.width != claim["width"]:
        refutations.append(f"the encoding is for width {header.width}, the claim is about width {claim['width']}")
    if header is not None and not header.name.startswith(f"{table.network} {table.exchange}"):
        refutations.append(f"the encoding is for {header.name!r}, not {table.network} {table.exchange}")
    if claim["scope"] == "full" and header is not None and header.complete_words is False:
        refutations.append("a full claim, but the encoding offers only sampled candidate words")

    # z3 re-run
    run = proofcheck.run_z3(text, timeout_s)
    details["z3"] = run.to_json()
    _tally(Method.Z3, run, confirmed, refutations, notes)

    # cvc5 on the standard form
    try:
        run = proofcheck.run_cvc5(proofcheck.to_standard_smtlib2(text), timeout_s)
        details["cvc5"] = run.to_json()
        _tally(Method.CVC5, run, confirmed, refutations, notes)
    except proofcheck.Unsupported as exc:
        notes.append(f"cvc5 unchecked: the encoding has no standard form ({exc})")

    # DRAT proof re-check
    drat = next((c for c in claim.get("confirmations", []) if c.get("method") == Method.DRAT.value), None)
    if drat is None or not isinstance(drat.get("proof"), dict):
        notes.append("sat+drat unchecked: the certificate records no DRAT proof")
    else:
        _check_drat_entry(drat, text, root, confirmed, refutations, notes, details)

    if refutations:
        verdict, reason = Verdict.REFUTED, "; ".join(refutations)
    elif len(confirmed) >= CONFIRMATIONS_NEEDED:
        verdict, reason = Verdict.CONFIRMED, f"unsat by {', '.join(confirmed)}; encoding sha256 matches"
    else:
        verdict = Verdict.UNCHECKED
        reason = (f"only {len(confirmed)} independent confirmation(s) ({', '.join(confirmed) or 'none'}), "
                  f"{CONFIRMATIONS_NEEDED} needed")
    if notes:
        reason += "; " + "; ".join(notes)
    details["confirmed_by"] = confirmed
    return ClaimVerdict("impossibility", statement, verdict, reason, details)


def _tally(method: Method, run, confirmed: list[str], refutations: list[str], notes: list[str]) -> None:
    if run.result is SolveResult.UNSAT:
        confirmed.append(method.value)
    elif run.result is SolveResult.SAT:
        refutations.append(f"{method.value} finds the encoding satisfiable")
    elif run.result is SolveResult.UNKNOWN:
        notes.append(f"{method.value} unchecked: unknown ({run.reason})")
    else:
        notes.append(f"{method.value} unchecked: {run.reason}")


def _check_drat_entry(entry: dict, text: str, root: Path, confirmed: list[str], refutations: list[str],
                      notes: list[str], details: dict) -> None:
    from tesearch import proofcheck

    proof_info = entry["proof"]
    try:
        cnf = proofcheck.to_cnf(text)
    except proofcheck.Unsupported as exc:
        notes.append(f"sat+drat unchecked: no CNF form ({exc})")
        return
    recorded_cnf = entry.get("cnf", {}).get("sha256")
    if recorded_cnf != cnf.sha256:
        refutations.append(f"the CNF form of the encoding has sha256 {cnf.sha256}, the certificate records "
                           f"{recorded_cnf}")
        return
    proof_path = _resolve(str(proof_info.get("path")), root)
    if not proof_path.exists():
        notes.append(f"sat+drat unchecked: proof file {proof_info.get('path')} not found")
        return
    proof_text = proof_path.read_text()
    if proofcheck.sha256_text(proof_text) != proof_info.get("sha256"):
        refutations.append(f"{proof_info.get('path')}: sha256 differs from the certificate's")
        return
    check = proofcheck.check_drat(cnf, proof_text)
    details["sat+drat"] = check.to_json()
    if check.accepted:
        confirmed.append(Method.DRAT.value)
    else:
        refutations.append(f"the DRAT proof does not check: {check.reason}")
