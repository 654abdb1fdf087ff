"""Writing certificates: check a table and its refutations now, and record everything (may use the prover).

:func:`make_certificate` runs Theorem 1 (:func:`tesearch.tables.verify.verify_table`), the replay and,
for each refutation, z3, cvc5 on the standard form and a SAT solver with a DRAT proof checked
in pure Python; it refuses (one error, nothing written) a table or an encoding it cannot stand
behind: another network's generators, an encoding whose header names another network,
exchange or width, an encoding outside the repository tree, a satisfiable encoding.
"""

from __future__ import annotations

import json
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from tesearch.checking import proof as proof_tools
from tesearch.checking.certificate.check import check_certificate_data, kernel_comparison, run_replay
from tesearch.checking.certificate.cnfclaim import kernel_cnf_match, refute_cnf
from tesearch.checking.certificate.format import (CONFIRMATIONS_NEEDED, DEFAULT_TIMEOUT_S, confirmations_needed,
                                         is_cnf_path, read_cnf_header, CERTIFICATE_FORMAT, CERTIFICATE_FORMAT_VERSION,
                                         REPLAY_MODEL, EncodingHeader, Method, relative_path, file_sha256,
                                         header_problems, optimality, read_encoding_header, repository_root,
                                         table_sha256, tool_version, validate_certificate)
from tesearch.running.errors import FormatError, OptionError, TesearchError
from tesearch.running.files import CERTIFICATE_KIND, read_json_file, read_text_file, write_output
from tesearch.running.files import write_atomically as atomic_write
from tesearch.checking.kernel import MAX_CHECK_NODES, build_network, input_from_json, kernel_bounds, target_mask
from tesearch.tables.table import Table
from tesearch.running.terms import SolveResult, Verdict


def network_facts(cg, target_set) -> dict:
    """The network's figures a certificate records (order, degree, diameter, distances, status, targets)."""
    return {
        "order": int(cg.order),
        "degree": int(cg.degree),
        "diameter": int(cg.diameter),
        "distance_distribution": cg.distance_distribution,
        "status": int(cg.status),
        "targets": int(len(target_set)),
        "target_letters": int(cg.dist[target_set].sum()),
    }


def bounds_record(cg, target_set, bounds, attained_by: dict | None = None) -> dict:
    """Every lower bound with its derivation, and which binds and why; ``attained_by`` (a cited word-choice
    certificate) goes into the per-letter record."""
    from tesearch.facts.bounds import min_letter_counts

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
            **({} if attained_by is None else {"attained_by": attained_by}),
        },
        "singleport": {"value": bounds.singleport,
                       "derivation": "single-port: one message per node per step, so T >= the sum of target "
                                     f"distances = {bounds.singleport} (not an all-port bound)"},
        "best": bounds.best,
        "binding": bounds.binding,
        "why": why,
    }



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


def read_refutation(request: RefutationRequest, *, network: str, exchange: str, root: Path, T: int | None = None,
                    table_json: dict | None = None) -> tuple[Path, str, EncodingHeader | None]:
    """The encoding's path, text and header, or an error (exit 2) if certify cannot stand behind it.

    Refused: a missing or unreadable file, a file outside the repository tree (certificates hold
    relative, confined paths), a header naming another network, exchange or width, a full
    claim at a width the table itself already meets, and (given ``table_json``) a full claim whose
    file is not the checking kernel's own encoding of that width (naming the difference).
    """
    path = Path(request.encoding)
    where = str(path)
    text = read_text_file(path)
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        raise OptionError(f"the encoding is outside the repository tree {root}; certificates record paths "
                          f"relative to it", where=where) from None
    cnf = is_cnf_path(path)
    header = read_cnf_header(text) if cnf else read_encoding_header(text)
    width = request.width if request.width is not None else header.width if header else None
    if cnf and (request.scope or "full") != "full":
        raise OptionError("a full-table CNF is a full claim (every shortest word of every target)", where=where)
    problems = header_problems(header, network=network, exchange=exchange, width=request.width)
    if problems:
        raise OptionError("; ".join(problems), where=where)
    full = request.scope == "full" or (request.scope is None and header is not None and header.complete_words
                                       and header.name == f"{network} {exchange}")
    if full and T is not None and width is not None and width >= T:
        raise OptionError(f"the encoding refutes width {width}, but the table has width {T}: no table of width "
                          f"{width} for {network} {exchange} would contradict the table", where=where)
    if full and table_json is not None and width is not None:
        inp = input_from_json(table_json, where)
        net = build_network(inp.letters, inp.generators, max_nodes=MAX_CHECK_NODES, where=where,
                            purpose="the kernel's encoding")
        what = f"{network} {exchange}"
        if cnf:
            equal, how = kernel_cnf_match(text, inp, net, target_mask(net, inp.exchange), width)
            if not equal:
                raise OptionError(f"not the kernel's full-table CNF of width {width} for {what}: {how}", where=where)
            return path, text, header
        kernel, comparison = kernel_comparison(text, net, target_mask(net, inp.exchange), width, what)
        if kernel is None:
            raise OptionError(f"a full claim needs the kernel's own encoding: {comparison}", where=where)
        if not comparison.equal:
            raise OptionError(f"not the kernel's encoding of no table of width {width} for {what}: "
                              f"{comparison.reason()}", where=where)
    return path, text, header


def refute(request: RefutationRequest, *, network: str, exchange: str, root: Path,
           timeout_s: float, table_json: dict | None = None) -> dict:
    """Run Z3, cvc5 and a SAT solver with a DRAT proof on one encoding; the claim's record."""
    path, text, header = read_refutation(request, network=network, exchange=exchange, root=root,
                                         table_json=table_json)
    claim, width, scope, restriction = _describe(request, header, network, exchange)
    if is_cnf_path(path):
        return refute_cnf(path, text, claim=claim, width=width, root=root)
    primary = proof_tools.run_z3(text, timeout_s)
    if primary.result is not SolveResult.UNSAT:
        raise TesearchError(f"{path}: z3 says {primary.result.value if primary.result else 'nothing'} "
                            f"({primary.reason or 'no reason'}); not an impossibility proof")
    confirmations = []
    try:
        standard = proof_tools.to_standard_smtlib2(text)
        run = proof_tools.run_cvc5(standard, timeout_s)
        confirmations.append({"method": Method.CVC5.value, "input": "standard QF_LIA form of the encoding "
                              "(tesearch.checking.proof.to_standard_smtlib2)", "input_sha256": proof_tools.sha256_text(standard),
                              **run.to_json()})
    except proof_tools.Unsupported as exc:
        confirmations.append({"method": Method.CVC5.value, "result": None, "reason": f"not translatable: {exc}"})
    try:
        cnf = proof_tools.to_cnf(text)
        run, proof = proof_tools.run_sat_with_proof(cnf)
        entry = {"method": Method.DRAT.value,
                 "cnf": {"translation": "tesearch.checking.proof.to_cnf (Tseitin + sequential weighted counter)",
                         "variables": cnf.variables, "clauses": len(cnf.clauses), "sha256": cnf.sha256},
                 **run.to_json()}
        if proof is not None:
            check = proof_tools.check_drat(cnf, proof)
            proof_path = path.with_suffix(".drat")
            write_if_changed(proof_path, proof)
            entry["proof"] = {"format": "DRAT (text)", "path": relative_path(proof_path, root),
                              "sha256": proof_tools.sha256_text(proof), "lines": proof.count("\n"),
                              "checker": "tesearch.checking.proof.check_drat (forward RUP/RAT, pure Python)",
                              "check": check.to_json()}
            if not check.accepted:
                raise TesearchError(f"{path}: the SAT solver's proof does not check: {check.reason}")
        confirmations.append(entry)
    except proof_tools.Unsupported as exc:
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
        "encoding": {"path": relative_path(path, root), "sha256": file_sha256(path), "bytes": path.stat().st_size,
                     "header": None if header is None else {"problem": header.name, "width": header.width,
                                                           "items": header.items, "options": header.options,
                                                           "complete_words": header.complete_words}},
        "solver": primary.to_json(),
        "confirmations": confirmations,
        "confirmed_by": confirmed_by,
    }



# ------------------------------------------------------------------ writing

def cited_word_choice(path: Path, table: Table) -> dict:
    """The word-choice certificate at ``path`` (read and checked for shape), refused (exit 2) unless it is one of
    ``table``'s network and exchange: certify asks this before any work."""
    from tesearch.checking.certificate.format import load_certificate

    data = load_certificate(path)
    network = data.get("network") or {}
    if data.get("kind") != "word-choice":
        raise OptionError(f"--word-choice {path}: not a word-choice certificate (`tesearch bound ... -o` writes one)")
    if network.get("spec") != table.network or network.get("exchange") != table.exchange:
        raise OptionError(f"--word-choice {path}: a certificate of {network.get('spec')} {network.get('exchange')}, "
                          f"not of {table.network} {table.exchange}")
    return data


def cite_word_choice(path: Path, table: Table, per_letter: int, *, root: Path) -> dict:
    """``bounds.per_letter.attained_by`` for the word-choice certificate at ``path``: refused (OptionError, exit 2)
    unless it is one of the table's network and exchange whose listed choice attains ``per_letter`` (the checker
    walks its words again whenever the table certificate is checked)."""
    data = cited_word_choice(path, table)
    upper = (data.get("upper") or {}).get("bound")
    if upper != per_letter:
        raise OptionError(f"--word-choice {path}: its word choice uses some letter {upper} times, not the per-letter "
                          f"bound {per_letter}")
    return {"certificate": relative_path(path, root), "sha256": file_sha256(path),
            "what": f"a word choice using every letter at most {per_letter} times, listed in that certificate"}


def make_certificate(table: Table, *, name: str, refutations: list[RefutationRequest] | None = None,
                     table_source: str | None = None, command: str | None = None, root: Path | None = None,
                     timeout_s: float = DEFAULT_TIMEOUT_S, word_choice: Path | None = None) -> dict:
    """Check ``table`` and every refutation now, and return the certificate's JSON object; ``word_choice``: a
    word-choice certificate whose listed choice attains the per-letter bound, cited in the bounds
    (:func:`cite_word_choice`)."""
    from tesearch.tables.verify import table_graph, verify_table
    from tesearch.networks.words import targets

    root = root or repository_root(Path.cwd())
    table_json = table.to_json()
    refuse_recorded_bounds(table_json, where=table_source or "the table")
    for request in refutations or []:  # refuse a wrong or missing encoding before any work
        read_refutation(request, network=table.network, exchange=table.exchange, root=root, T=table.T,
                        table_json=table_json)
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
                     timeout_s=timeout_s, table_json=table_json) for r in (refutations or [])]
    at_creation = [Verdict.CONFIRMED if len(c["confirmed_by"]) >= confirmations_needed(c) else Verdict.UNCHECKED
                   for c in claims]
    shown = optimality(table.T, bounds.best, claims, {table.T - 1: at_creation})
    certificate = {
        "format": CERTIFICATE_FORMAT,
        "format_version": CERTIFICATE_FORMAT_VERSION,
        "name": name,
        "created": {
            "tool": "tesearch", "tool_version": tool_version(),
            "command": command,
            "python": platform.python_version(),
            "solvers": {"z3": proof_tools.z3_version(), "cvc5": proof_tools.cvc5_version(),
                        "python-sat": proof_tools.pysat_version(), "sat_solver": proof_tools.SAT_SOLVER},
        },
        "verification": _verification_text(claims, replay_verdict),
        "network": {"spec": table.network, "exchange": table.exchange, "letters": list(table.letters),
                    "generators": table_json["generators"], **network_facts(cg, target_set)},
        "bounds": bounds_record(cg, target_set, bounds, attained_by=None if word_choice is None else
                                cite_word_choice(word_choice, table, bounds.letter.value, root=root)),
        "table": {"source": table_source, "sha256": table_sha256(table_json), "T": table.T, "content": table_json},
        "table_checks": {
            "theorem1": {"outcome": "valid", "words": verification.words, "targets": verification.targets,
                         "violations": 0, "seconds": round(verify_seconds, 3),
                         "how": "tesearch.tables.verify.verify_table: every word a shortest word of a distinct target, "
                                "all targets placed, no overlap in a row, all inside 0..T-1, no letter twice in a column"},
            "replay": {"outcome": replay_verdict.value, "detail": replay_reason, "model": REPLAY_MODEL,
                       "seconds": round(replay_seconds, 3), "report": replay_report},
        },
        "result": shown,
        "impossibility_claims": claims,
    }
    refuse_what_the_checker_refutes(certificate, name=name, root=root, timeout_s=timeout_s,
                                    replay=(replay_verdict, replay_reason))
    return certificate


def refuse_recorded_bounds(table_json: dict, *, where: str) -> None:
    """Refuse (OptionError, exit 2) a table whose recorded bounds disagree with the checking kernel's.

    ``lower_bound`` must be the kernel's counting bound; a recorded ``letter_bound`` may not be
    below the kernel's per-letter bound, nor differ from it where the kernel's value is exact.
    """
    inp = input_from_json(table_json, where)
    net = build_network(inp.letters, inp.generators, max_nodes=MAX_CHECK_NODES, where=where,
                        purpose="the kernel's bounds")
    kernel = kernel_bounds(net, list(inp.generators), target_mask(net, inp.exchange))
    if inp.lower_bound is not None and inp.lower_bound != kernel.counting:
        raise OptionError(f"the table records lower_bound {inp.lower_bound}, the kernel's counting bound is "
                          f"{kernel.counting} ({kernel.derivation})", where=where)
    letter = table_json.get("letter_bound")
    if letter is None:
        return
    if kernel.refutes_letter_bound(letter):
        raise OptionError(f"the table records letter_bound {letter!r}, the kernel's per-letter bound is "
                          f"{kernel.per_letter}{' (exact)' if kernel.per_letter_exact else ''}", where=where)


def refuse_what_the_checker_refutes(certificate: dict, *, name: str, root: Path, timeout_s: float,
                                    replay: tuple[Verdict, str]) -> None:
    """Run check-proof's whole check on the certificate in memory; refuse (exit 2) what it would refute."""
    validate_certificate(certificate, name)
    report = check_certificate_data(certificate, where=name, root=root, timeout_s=timeout_s, replay=replay)
    refuted = [v for v in report.verdicts if v.verdict is Verdict.REFUTED]
    if refuted:
        raise OptionError(f"check-proof would refute this certificate ({refuted[0].claim}: {refuted[0].reason}); "
                          "nothing written", where=name)


def write_if_changed(path: Path, text: str) -> None:
    """Write ``text`` atomically unless the file already holds exactly these bytes (its mtime then stays)."""
    try:
        if path.is_file() and path.read_bytes() == text.encode():
            return
    except OSError:
        pass
    atomic_write(path, text)



def _verification_text(claims: list[dict], replay: Verdict) -> dict:
    checks = [
        "network: the spec is rebuilt from the registry and its generators must equal the table's; the group "
        "is rebuilt from the generators by the checking kernel's own breadth-first search (tesearch.checking.kernel); "
        "order, diameter, distance distribution, status and targets are recomputed",
        "bounds: the kernel derives counting, set and (where few elements have a choice) exact per-letter "
        "bounds without a solver and compares them with the ones recorded; a recorded bound stronger than the "
        "kernel derives is confirmed only by confirmed impossibility claims covering the widths in between",
        "table: sha256 of the embedded table (canonical JSON) is compared; Theorem 1 of Coolsaet, Fack and De Meyer (1994) is checked by "
        "the kernel (tesearch.checking.kernel.theorem1), independently of tesearch.tables.verify",
        f"replay: the table is replayed on the whole network ({REPLAY_MODEL}) by tesearch.checking.replay"
        + ("" if replay is Verdict.CONFIRMED else f" (at creation: {replay.value})"),
        "optimality: T is compared with the best bound the kernel derives, or with a confirmed full "
        "impossibility claim at width T-1",
    ]
    if claims:
        checks.append(
            "impossibility claims: the encoding's sha256 is compared; the checking kernel builds its own encoding "
            "of 'no table of width W' from the generators, the exchange and W (tesearch.checking.kernel.encoding) and "
            "proves the file equal to it, constraint for constraint after normalisation (a header comment is "
            "never evidence); z3 re-solves the kernel's encoding and cvc5 a standard QF_LIA rewrite of it (Z3's "
            "PB operators as sums of ite); the file is translated to CNF in pure Python (its sha256 compared) and "
            "the SAT solver's DRAT proof is re-checked by a forward RUP/RAT checker in pure Python. A full claim "
            f"is confirmed by at least {CONFIRMATIONS_NEEDED} of these; a restricted claim (a class the kernel "
            "does not rebuild) is never confirmed")
    return {"summary": "everything below is re-derived by `tesearch check-proof` from this file and the "
                       "encoding and proof files it names", "checks": checks}


# ------------------------------------------------------------------ keep-better for certificates

@dataclass(frozen=True)
class Claims:
    """What a certificate claims: of which network (spec, exchange, generators), a table of width ``T``
    (``optimal`` or not; None: not yet known), and its impossibility statements."""

    spec: str
    exchange: str
    generators: dict
    T: int
    optimal: bool | None
    statements: frozenset[str]

    @classmethod
    def of(cls, data: object, *, where: str) -> Claims:
        """The claims of a certificate object; FormatError (naming ``where``) when it does not hold them."""
        try:
            network, result = data["network"], data["result"]
            claims = frozenset(str(c["claim"]) for c in data["impossibility_claims"])
            T, optimal = result["T"], result["optimal"]
            if not isinstance(T, int) or not isinstance(optimal, bool) or not isinstance(network["generators"], dict):
                raise TypeError
            return cls(str(network["spec"]), str(network["exchange"]), network["generators"], T, optimal, claims)
        except (KeyError, TypeError, IndexError):
            raise FormatError("not a readable certificate (network, result or impossibility_claims missing or "
                              "malformed)", where=where) from None

    def lost_by(self, new: Claims) -> str | None:
        """What a certificate with ``new``'s claims would no longer claim if it replaced this one (None: nothing)."""
        if (self.spec, self.exchange) != (new.spec, new.exchange):
            return f"it certifies {self.spec} {self.exchange}, not {new.spec} {new.exchange}"
        if {k: list(v) for k, v in self.generators.items()} != {k: list(v) for k, v in new.generators.items()}:
            return f"it certifies another network labelled {self.spec} (its generators are not this one's)"
        lost = [f"a table of width {self.T} (this one: {new.T})"] if new.T > self.T else []
        if self.optimal and new.optimal is False:
            lost.append("optimality")
        lost += [f"'{claim}'" for claim in sorted(self.statements - new.statements)]
        return None if not lost else "it claims what this certificate would not: " + "; ".join(lost)


def requested_claims(table: Table, refutations: Iterable[tuple[RefutationRequest, EncodingHeader | None]]) -> Claims:
    """The claims a certificate of ``table`` with these refutations (each with its encoding's header) will make,
    its optimality not yet known: what certify checks an existing certificate against before any work."""
    statements = frozenset(_describe(request, header, table.network, table.exchange)[0]
                           for request, header in refutations)
    return Claims(table.network, table.exchange, dict(table.generators), table.T, None, statements)


def check_certificate_output(path: str | Path, claims: Claims, *, force: bool = False) -> None:
    """Refuse (OptionError, exit 2, the file left as it was) to replace, without ``force``, a certificate at
    ``path`` that claims something ``claims`` does not: another network, a narrower table, optimality, an
    impossibility claim.  Equal or more claims replace it; so does anything over an empty file."""
    path = Path(path)
    if force or not path.is_file() or path.stat().st_size == 0:
        return
    try:
        old = Claims.of(read_json_file(path), where=str(path))
    except TesearchError as exc:
        why = exc.message
    else:
        why = old.lost_by(claims)
    if why is not None:
        raise OptionError(f"not replaced: {why}; it is left as it was (--force replaces it)", where=str(path))


def write_certificate(certificate: dict, path: str | Path, *, inputs: Iterable[str | Path | None] = (),
                      force: bool = False) -> None:
    """Write a certificate (indented JSON) through :func:`tesearch.running.files.write_output`: atomically, never over
    one of ``inputs``, a link or a device, nor without ``force`` over a file that is not a certificate or over
    a certificate that claims more (:func:`check_certificate_output`)."""
    if certificate.get("kind") == "word-choice":
        check_word_choice_output(path, certificate, force=force)
    else:
        check_certificate_output(path, Claims.of(certificate, where=str(path)), force=force)
    write_output(Path(path), json.dumps(certificate, indent=1) + "\n", kind=CERTIFICATE_KIND, inputs=inputs,
                 force=force)


def check_word_choice_output(path: str | Path, certificate: dict, *, force: bool = False) -> None:
    """Refuse (OptionError, exit 2, the file left as it was) to replace, without ``force``, a file at ``path`` that is
    not a readable word-choice certificate of the same network, or one whose evidence establishes tighter bounds
    (a higher lower side, a lower upper side) than ``certificate``'s.

    The old file's bounds are what the checker re-derives from its evidence (:func:`rederived_bounds`), never the
    numbers it states: a file that states 999 and proves 660 loses to a certificate that proves 660.  The new
    certificate is confirmed whole before it gets here (:func:`word_choice_certificate`), so its stated result is
    re-derived."""
    from tesearch.checking.certificate.choice import rederived_bounds
    from tesearch.checking.certificate.format import validate_word_choice

    path = Path(path)
    if force or not path.is_file() or path.stat().st_size == 0:
        return
    where = str(path)
    keep = "it is left as it was (--force replaces it)"
    try:
        old = read_json_file(path)
        if not isinstance(old, dict) or old.get("kind") != "word-choice":
            raise FormatError("not a word-choice certificate", where=where)
        validate_word_choice(old, where)
    except TesearchError as exc:
        raise OptionError(f"not replaced: it is not a readable word-choice certificate ({exc.message}); {keep}",
                          where=where) from None
    same = (old["network"]["spec"] == certificate["network"]["spec"]
            and old["network"]["exchange"] == certificate["network"]["exchange"]
            and old["network"]["generators"] == certificate["network"]["generators"])
    if not same:
        raise OptionError(f"not replaced: it is not a word-choice certificate of this network; {keep}", where=where)
    try:
        proved = rederived_bounds(old, where)
    except TesearchError as exc:
        raise OptionError(f"not replaced: its evidence cannot be re-derived ({exc.message}); {keep}",
                          where=where) from None
    new_lower, new_upper = certificate["result"]["lower"], certificate["result"]["upper"]
    lost = []
    if new_lower < proved.lower:
        lost.append(f"the lower bound {proved.lower} (this one: {new_lower})")
    if proved.upper is not None and (new_upper is None or new_upper > proved.upper):
        lost.append(f"the upper bound {proved.upper} (this one: {new_upper if new_upper is not None else 'none'})")
    if lost:
        raise OptionError(f"not replaced: its evidence proves what this certificate would not: {'; '.join(lost)}; "
                          f"{keep}", where=where)


def word_choice_certificate(result, *, name: str, command: str, generators: dict[str, list[int]]) -> dict:
    """The word-choice certificate (kind ``word-choice``) of a :class:`tesearch.facts.wordchoice.WordChoice`.

    The lower side is the LP dual's letter weights (and the parity argument, if it lifts the bound); the
    upper side the integral choice's words, when the integer model ran.  Refuses (TesearchError, nothing
    written) a certificate the checker would not confirm whole."""
    from tesearch.checking.certificate.choice import check_word_choice

    letters = list(result.letters)
    lower: dict = {"bound": result.lower, "weights": None, "parity": None}
    if result.weights is not None:
        lower["weights"] = {"denominator": result.weights.denominator, "need": result.weights.need,
                            "weights": {s: w for s, w in zip(letters, result.weights.weights) if w}}
    if result.parity is not None:
        lower["parity"] = {"odd_letters": [letters[k] for k in result.parity.odd], "level": result.parity.level,
                           "parity": result.parity.parity, "interval": list(result.parity.interval)}
    upper = None
    if result.words is not None:
        upper = {"bound": max(result.loads), "loads": dict(zip(letters, result.loads)),
                 "words": [" ".join(letters[k] for k in w) for w in result.words]}
    record = result.to_json()
    certificate = {
        "format": CERTIFICATE_FORMAT, "format_version": CERTIFICATE_FORMAT_VERSION, "kind": "word-choice", "kind_version": 1,
        "name": name,
        "created": {"tool": "tesearch", "tool_version": tool_version(), "command": command,
                    "python": platform.python_version()},
        "verification": {"summary": (
            "check-proof rebuilds the network from the generators by the kernel's BFS, recomputes the least "
            "weighted letters of every target's shortest words with exact integers (the LP dual), checks the "
            "parity character on every edge, and walks every listed word to its element (shortest, one per "
            "target), all in tesearch.checking.kernel.wordchoice")},
        "network": {"spec": result.spec, "exchange": result.exchange, "letters": letters, "generators": generators,
                    "order": result.order, "targets": result.targets, "target_letters": result.target_letters},
        "lower": lower,
        "upper": upper,
        "result": {"lower": result.lower, "upper": None if upper is None else upper["bound"],
                   "exact": upper is not None and upper["bound"] == result.lower},
        "record": {k: record[k] for k in ("lp", "lp_how", "integer", "integer_value", "integer_dual", "integer_how",
                                          "seconds")},
    }
    faults = [f"{claim}: {reason}" for claim, _, verdict, reason in check_word_choice(certificate, name)
              if verdict is not Verdict.CONFIRMED]
    if faults:  # pragma: no cover - the prover and the kernel disagree: a bug
        raise TesearchError(f"the word-choice certificate would not be confirmed: {faults[0]}")
    return certificate
