"""Checking certificates: re-derive every claim from the file alone, one verdict per claim.

:func:`check_certificate` uses ONLY the checking kernel (:mod:`tesearch.checking.kernel`: its loader, its
BFS, its Theorem 1 and its solver-free bounds), the replay (:mod:`tesearch.checking.replay`), the proof
tools (:mod:`tesearch.checking.proof`) and the solver-free bottom layer (terms, errors, files, networks).
It never imports tesearch.tables.verify, tesearch.facts.bounds, tesearch.networks.groups, the search or the encoder;
z3 and cvc5 are imported only inside the proof tools' run functions, so without them every
certificate without impossibility claims is still confirmed (tests/test_check_without_solvers.py).

Verdicts: CONFIRMED (re-derived), REFUTED (re-derived false, with the reason) or UNCHECKED (could
not be re-derived here, with the reason: a solver missing, a time limit, a bound stronger than the
kernel derives and not covered by confirmed impossibility claims).  Unknown is never read as unsat.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tesearch.checking import proof as proof_tools
from tesearch.checking.certificate.choice import check_word_choice, cited_choice
from tesearch.checking.certificate.cnfclaim import check_cnf_claim
from tesearch.checking.certificate.format import (CNF_ENCODING_FORMAT, CONFIRMATIONS_NEEDED, DEFAULT_TIMEOUT_S,
                                         REPLAY_MODEL, Kind, Method, header_problems, load_certificate, optimality,
                                         read_encoding_header, repository_root, table_sha256)
from tesearch.running.errors import FormatError, GeneratorsError, TesearchError
from tesearch.running.files import confined_path, read_bytes, read_text_file
from tesearch.checking.kernel import (MAX_CHECK_NODES, InputFormat, KernelBounds, LoadedInput, build_network, check_theorem1,
                             input_from_json, kernel_bounds, target_mask)
from tesearch.checking.kernel.encoding import EncoderTooLarge, compare_with_kernel, kernel_encoding
from tesearch.running.terms import THEOREM_1, SolveResult, Verdict

# ---------------------------------------------------------------- verdicts and the report


@dataclass
class ClaimVerdict:
    """One claim of a certificate and what the checker found."""

    claim: str  # a short identifier: network, bounds, table, replay, optimality, impossibility[i]
    statement: str
    verdict: Verdict
    reason: str
    details: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The verdict as a JSON object."""
        return {"claim": self.claim, "statement": self.statement, "verdict": self.verdict.value,
                "reason": self.reason, **({"details": self.details} if self.details else {})}


@dataclass
class CertificateReport:
    """Every verdict on one certificate file."""

    path: str
    name: str | None
    verdicts: list[ClaimVerdict]
    seconds: float

    @property
    def refuted(self) -> bool:
        """Some claim is refuted."""
        return any(v.verdict is Verdict.REFUTED for v in self.verdicts)

    @property
    def all_confirmed(self) -> bool:
        """Every claim is confirmed."""
        return all(v.verdict is Verdict.CONFIRMED for v in self.verdicts)

    def to_json(self) -> dict:
        """The report as a JSON object (overall verdict and one entry per claim)."""
        overall = Verdict.REFUTED if self.refuted else Verdict.CONFIRMED if self.all_confirmed else Verdict.UNCHECKED
        return {"file": self.path, "name": self.name, "verdict": overall.value,
                "seconds": round(self.seconds, 3), "claims": [v.to_json() for v in self.verdicts]}

    def text(self) -> str:
        """The report for a terminal."""
        lines = [f"{self.path}: {self.to_json()['verdict'].upper()} ({self.seconds:.2f}s)"]
        for v in self.verdicts:
            lines.append(f"  {v.verdict.value:<10} {v.claim}: {v.statement}")
            if v.reason:
                lines.append(f"             {v.reason}")
        return "\n".join(lines)


def _verdict(problems: list[str], fine: str) -> tuple[Verdict, str]:
    return (Verdict.REFUTED, "; ".join(problems)) if problems else (Verdict.CONFIRMED, fine)


# ---------------------------------------------------------------- replay

def run_replay(table_json: dict) -> tuple[Verdict, str, dict | None]:
    """Replay the table on the whole network (all-port) with :func:`tesearch.checking.replay.replay_data`."""
    from tesearch.checking.replay import replay_data

    try:
        report = replay_data(table_json, REPLAY_MODEL, where="table.content")
    except FormatError as exc:
        return Verdict.REFUTED, f"replay rejects the table: {exc}", None
    except TesearchError as exc:  # e.g. a network too large to replay
        return Verdict.UNCHECKED, f"replay not run: {exc}", None
    data = report.to_json()
    if report.ok and report.buffer_free:
        return Verdict.CONFIRMED, (f"replay ({REPLAY_MODEL}) delivers every message once along a shortest path "
                                   f"by step {report.completion_time}, no link overused, no buffer"), data
    kinds = sorted(k.value for k in report.kinds)
    return Verdict.REFUTED, (f"replay ({REPLAY_MODEL}) fails: {', '.join(kinds) or 'see the report'}"
                             + ("" if report.buffer_free else "; a message waits in a buffer")), data


# ---------------------------------------------------------------- network, table, bounds

def _network_verdict(data: dict, inp: LoadedInput, net, is_target: np.ndarray, where: str) -> ClaimVerdict:
    from tesearch.networks.families import network_for_table

    recorded = data["network"]
    content = data["table"]["content"]
    problems = []
    try:
        network_for_table(inp.network, content["generators"], where=f"{where}: table.content")
    except (GeneratorsError, FormatError) as exc:  # the name is checked, never trusted
        problems.append(str(exc))
    depth = net.depth
    computed = {
        "order": net.order,
        "degree": net.degree,
        "diameter": net.diameter,
        "distance_distribution": np.bincount(depth, minlength=net.diameter + 1).astype(int).tolist(),
        "status": int(depth.sum()),
        "targets": int(is_target.sum()),
        "target_letters": int(depth[is_target].sum()),
    }
    problems += [f"{k}: recorded {recorded.get(k)!r}, recomputed {v!r}" for k, v in computed.items()
                 if recorded.get(k) != v]
    if recorded.get("generators") != content["generators"]:
        problems.append("the network's generators differ from the table's")
    if "letters" in recorded and recorded.get("letters") != list(inp.letters):
        problems.append(f"letters: recorded {recorded.get('letters')!r}, the table's are {list(inp.letters)!r}")
    if recorded.get("spec") != inp.network or recorded.get("exchange") != inp.exchange.value:
        problems.append("the network or exchange differs from the table's")
    verdict, reason = _verdict(problems, "the spec's generators are the table's; the group rebuilt from them by "
                                         "the kernel's BFS matches every figure")
    return ClaimVerdict("network", f"{inp.network} {inp.exchange.value}: {computed['order']} nodes, distances "
                                   f"{computed['distance_distribution']}, status {computed['status']}",
                        verdict, reason)


def _recorded_value(recorded: dict, key: str):
    entry = recorded.get(key)
    return entry.get("value") if isinstance(entry, dict) else None


def table_letter_max(inp: LoadedInput) -> int:
    """The most-used letter's count over the table's words (a valid table is one choice of shortest words)."""
    counts = np.zeros(len(inp.letters), dtype=np.int64)
    for message in inp.messages:
        counts += np.bincount(np.asarray(message.word, dtype=np.int64), minlength=len(inp.letters))
    return int(counts.max()) if len(inp.messages) else 0


def _recorded_theorem1_problems(table_checks: object, theorem1) -> list[str]:
    """What the certificate records of its Theorem-1 run, against the kernel's own run."""
    recorded = table_checks.get("theorem1") if isinstance(table_checks, dict) else None
    if not isinstance(recorded, dict):
        return []
    computed = {"outcome": "valid" if theorem1.ok else "invalid", "words": theorem1.words,
                "targets": theorem1.targets, "violations": len(theorem1.violations)}
    return [f"table_checks.theorem1.{k}: recorded {recorded.get(k)!r}, the kernel finds {v!r}"
            for k, v in computed.items() if k in recorded and recorded.get(k) != v]


def attainment_verdict(recorded: dict, kernel: KernelBounds, witness: int | None,
                       cited: tuple[int | None, str] | None = None) -> ClaimVerdict | None:
    """What the bounds say of attaining the per-letter bound (``exact``, ``achievable_max_letter_count``).

    None when the certificate says nothing of it (or it is refuted with the bounds); confirmed when a
    choice of words the checker knows attains it (the kernel's own, the certificate's table, or the word choice of
    a cited word-choice certificate, ``cited``: its letter count and how it was checked, from
    :func:`~tesearch.checking.certificate.choice.cited_choice`); otherwise unchecked (the lower bound still stands).
    """
    if cited is not None and cited[0] is not None and (witness is None or cited[0] < witness):
        witness, source = cited[0], cited[1]
    else:
        source = "the certificate table"
    entry = recorded.get("per_letter") if isinstance(recorded.get("per_letter"), dict) else {}
    letter = entry.get("value")
    if entry.get("exact") is not True and entry.get("achievable_max_letter_count") is None:
        return None
    problems, unchecked = _letter_facts(recorded, kernel, letter, witness)
    if problems:
        return None  # already refuted in the bounds claim
    achievable = entry.get("achievable_max_letter_count")
    statement = (f"some choice of shortest words uses no letter more than {achievable} times"
                 + (f" (so the per-letter bound {letter} is exact)" if entry.get("exact") is True else ""))
    if unchecked:
        why = (f"; the cited choice does not count: {cited[1]}" if cited is not None and cited[0] is None else
               "; the certificate holds no such choice")
        return ClaimVerdict("attainment", statement, Verdict.UNCHECKED,
                            "; ".join(unchecked) + why + ", and the lower bound does not rest on it")
    known = [w for w in (kernel.achievable_letter, witness) if w is not None]
    return ClaimVerdict("attainment", statement, Verdict.CONFIRMED,
                        f"a choice the checker knows uses no letter more than {min(known)} times "
                        f"({'the kernel' if kernel.achievable_letter == min(known) else source})")


def _letter_facts(recorded: dict, kernel: KernelBounds, letter: object, witness: int | None
                  ) -> tuple[list[str], list[str]]:
    """(problems, unchecked) for per_letter's letter_minima, exact and achievable_max_letter_count.

    A choice of words whose most-used letter occurs ``w`` times witnesses "achievable <= w": the
    kernel's own greedy choice, or the certificate's valid table itself.
    """
    entry = recorded.get("per_letter") if isinstance(recorded.get("per_letter"), dict) else {}
    problems, unchecked = [], []
    if "letter_minima" in entry and entry["letter_minima"] != kernel.letter_minima:
        problems.append(f"per_letter.letter_minima: recorded {entry['letter_minima']!r}, recomputed "
                        f"{kernel.letter_minima!r}")
    witnesses = [w for w in (kernel.achievable_letter, witness) if w is not None]
    best_witness = min(witnesses) if witnesses else None
    achievable = entry.get("achievable_max_letter_count")
    if achievable is not None:
        if not isinstance(achievable, int) or isinstance(achievable, bool):
            problems.append(f"per_letter.achievable_max_letter_count: {achievable!r} is not an integer")
        elif isinstance(letter, int) and achievable < letter:
            problems.append(f"per_letter.achievable_max_letter_count {achievable} is below the per-letter bound "
                            f"{letter}")
        elif best_witness is None or best_witness > achievable:
            unchecked.append(f"per_letter.achievable_max_letter_count {achievable}: no choice of words the "
                             f"checker knows attains it (best known: {best_witness})")
    if entry.get("exact") is True and isinstance(letter, int) and (best_witness is None or best_witness > letter):
        unchecked.append(f"per_letter.exact: no choice of words the checker knows attains {letter} "
                         f"(best known: {best_witness})")
    return problems, unchecked


def _bounds_verdict(recorded: dict, kernel: KernelBounds, inp: LoadedInput, covered: set[int],
                    witness: int | None = None) -> tuple[ClaimVerdict, int | None]:
    """The bounds claim, and the best bound it establishes (None if it cannot be established).

    ``covered`` holds the widths refuted by confirmed full impossibility claims: a recorded
    per-letter bound above what the kernel derives stands when they cover every width in between.
    ``witness`` is the valid table's own most-used letter count (a choice of words attaining it).
    """
    problems, unchecked = [], []
    for key, value in (("counting", kernel.counting), ("singleport", kernel.singleport)):
        if _recorded_value(recorded, key) != value:
            problems.append(f"{key} bound: recorded {_recorded_value(recorded, key)!r}, recomputed {value}")
    if inp.lower_bound is not None and inp.lower_bound != kernel.counting:
        problems.append(f"the table's lower_bound is {inp.lower_bound}, the counting bound is {kernel.counting}")
    letter = _recorded_value(recorded, "per_letter")
    derived = kernel.per_letter
    established = kernel.best
    if not isinstance(letter, int) or isinstance(letter, bool):
        problems.append(f"per_letter bound: recorded {letter!r}, not an integer")
    elif letter < derived:
        problems.append(f"per_letter bound: recorded {letter}, recomputed {derived} ({kernel.derivation})")
    elif letter > derived and kernel.per_letter_exact:
        problems.append(f"per_letter bound: recorded {letter}, recomputed {derived}: a choice of shortest words "
                        f"has no letter more than {derived} times")
    elif letter > derived:
        gap = set(range(max(kernel.counting, derived), letter))
        if gap <= covered:
            established = letter
        else:
            unchecked.append(f"the recorded per-letter bound {letter} exceeds what the kernel derives without a "
                             f"solver ({derived}: {kernel.derivation}; a choice of words attains "
                             f"{kernel.achievable_letter}); no confirmed impossibility claim covers widths "
                             f"{', '.join(map(str, sorted(gap - covered)))}")
    more_problems, _ = _letter_facts(recorded, kernel, letter, witness)
    problems += more_problems
    best = max(kernel.counting, letter if isinstance(letter, int) else 0)
    binding = "per-letter" if isinstance(letter, int) and letter > kernel.counting else "counting"
    for key, value in (("best", best), ("binding", binding)):
        if recorded.get(key) != value:
            problems.append(f"{key}: recorded {recorded.get(key)!r}, recomputed {value!r}")
    statement = (f"counting {kernel.counting}, per-letter {letter}; best {recorded.get('best')} "
                 f"({recorded.get('binding')} binds)")
    if problems:
        return ClaimVerdict("bounds", statement, Verdict.REFUTED, "; ".join(problems + unchecked)), None
    if unchecked:
        return ClaimVerdict("bounds", statement, Verdict.UNCHECKED, "; ".join(unchecked)), None
    how = kernel.derivation if established == kernel.best else (
        f"the kernel derives {kernel.best} ({kernel.derivation}); confirmed impossibility claims refute every "
        f"width from {kernel.best} to {established - 1}")
    return ClaimVerdict("bounds", statement, Verdict.CONFIRMED, f"derived by the kernel: {how}",
                        {"kernel": kernel.to_json()}), established


# ---------------------------------------------------------------- the whole certificate

def check_certificate(path: str | Path, *, timeout_s: float = DEFAULT_TIMEOUT_S, root: Path | None = None
                      ) -> CertificateReport:
    """Re-derive everything a certificate states; one verdict per claim.  Raises FormatError on a malformed file."""
    started = time.perf_counter()
    path = Path(path)
    data = load_certificate(path)
    if data.get("kind") == Kind.WORD_CHOICE.value:
        verdicts = [ClaimVerdict(*claim) for claim in check_word_choice(data, str(path))]
        return CertificateReport(str(path), data.get("name"), verdicts, time.perf_counter() - started)
    root = root or repository_root(path.parent)
    return check_certificate_data(data, where=str(path), root=root, timeout_s=timeout_s, started=started)


def _cited(data: dict, inp: LoadedInput, net, is_target: np.ndarray, root: Path, where: str
           ) -> tuple[int | None, str] | None:
    """The word choice a table certificate cites for its per-letter bound (``bounds.per_letter.attained_by``),
    checked now (:func:`~tesearch.checking.certificate.choice.cited_choice`); None when it cites none."""
    per_letter = data["bounds"].get("per_letter") if isinstance(data["bounds"].get("per_letter"), dict) else {}
    if "attained_by" not in per_letter:
        return None
    return cited_choice(per_letter["attained_by"], root=root, net=net, is_target=is_target, letters=inp.letters,
                        generators=inp.generators, exchange=inp.exchange, where=where)


def check_certificate_data(data: dict, *, where: str, root: Path, timeout_s: float = DEFAULT_TIMEOUT_S,
                           started: float | None = None, replay: tuple[Verdict, str] | None = None
                           ) -> CertificateReport:
    """Re-derive everything a certificate object states (``certify`` checks what it is about to write).

    ``data`` must have passed :func:`~tesearch.checking.certificate.format.validate_certificate`.  ``replay`` is a
    verdict of :func:`run_replay` on this very table, already computed by the caller (certify runs the
    replay once); otherwise the replay runs here.
    """
    started = time.perf_counter() if started is None else started
    path = where
    content = data["table"]["content"]
    inp = input_from_json(content, f"{where}: table.content")
    if inp.source_format is not InputFormat.TABLE:
        raise FormatError("'table.content' must be a tesearch-table, not a schedule", where=where)
    net = build_network(inp.letters, inp.generators, max_nodes=MAX_CHECK_NODES, where=f"{where}: table.content",
                        purpose="the certificate check")
    is_target = target_mask(net, inp.exchange)
    verdicts = [_network_verdict(data, inp, net, is_target, where)]

    # -- table: hash and Theorem 1, by the kernel
    theorem1 = check_theorem1(inp, net)
    problems = []
    actual_hash = table_sha256(content)
    if data["table"].get("sha256") != actual_hash:
        problems.append(f"sha256 of the embedded table is {actual_hash}, the certificate records "
                        f"{data['table'].get('sha256')}")
    if data["table"].get("T") != inp.T:
        problems.append(f"'table.T' is {data['table'].get('T')!r}, the table has T = {inp.T}")
    problems += [str(v) for v in theorem1.violations[:10]]
    problems += _recorded_theorem1_problems(data.get("table_checks"), theorem1)
    verdict, reason = _verdict(problems, f"{theorem1.words} words for {theorem1.targets} targets, no violation "
                                         "(the kernel's Theorem 1); sha256 matches")
    verdicts.append(ClaimVerdict("table", f"the embedded table (T = {inp.T}) is a valid {inp.exchange.value} "
                                          f"exchange ({THEOREM_1})", verdict, reason))

    # -- impossibility claims (before the bounds: confirmed ones may support a recorded bound)
    claim_verdicts = []
    for i, claim in enumerate(data["impossibility_claims"]):
        verdict = check_impossibility(claim, inp=inp, net=net, is_target=is_target, table_valid=theorem1.ok,
                                      root=root, timeout_s=timeout_s, where=f"{where}: impossibility_claims[{i}]")
        verdict.claim = f"impossibility[{i}]"
        claim_verdicts.append(verdict)
    covered = {c["width"] for c, v in zip(data["impossibility_claims"], claim_verdicts)
               if c["scope"] == "full" and v.verdict is Verdict.CONFIRMED}

    # -- bounds, by the kernel without a solver
    kernel = kernel_bounds(net, list(inp.generators), is_target)
    witness = table_letter_max(inp) if theorem1.ok else None
    bounds_verdict, best = _bounds_verdict(data["bounds"], kernel, inp, covered, witness)
    verdicts.append(bounds_verdict)
    attained = attainment_verdict(data["bounds"], kernel, witness, _cited(data, inp, net, is_target, root, where)) \
        if bounds_verdict.verdict is not Verdict.REFUTED else None
    if attained is not None:
        verdicts.append(attained)

    # -- replay
    replay_verdict, replay_reason = replay if replay is not None else run_replay(content)[:2]
    verdicts.append(ClaimVerdict("replay", f"the table replays on the whole network ({REPLAY_MODEL})",
                                 replay_verdict, replay_reason))
    verdicts += claim_verdicts

    # -- optimality, from the established bound and the confirmed claims
    stated = data["result"].get("optimal")
    statement = f"T = {inp.T} is {'optimal' if stated else 'not shown optimal'}"
    computed = optimality(inp.T, best if best is not None else kernel.best, data["impossibility_claims"],
                          {inp.T - 1: [v.verdict for v in claim_verdicts]})
    if not theorem1.ok:
        verdicts.append(ClaimVerdict("optimality", statement, Verdict.REFUTED, "the table is not valid"))
    elif data["result"].get("T") != inp.T:
        verdicts.append(ClaimVerdict("optimality", statement, Verdict.REFUTED,
                                     f"'result.T' is {data['result'].get('T')!r}, the table has T = {inp.T}"))
    elif stated and not computed["optimal"]:
        undecided = best is None or any(v.verdict is Verdict.UNCHECKED for v in claim_verdicts)
        verdicts.append(ClaimVerdict("optimality", statement, Verdict.UNCHECKED if undecided else Verdict.REFUTED,
                                     computed["argument"] + ("; the recorded bound is not independently checked"
                                                             if best is None else "")))
    else:
        verdicts.append(ClaimVerdict("optimality", statement, Verdict.CONFIRMED, computed["argument"]))
    return CertificateReport(str(path), data.get("name"), verdicts, time.perf_counter() - started)


# ---------------------------------------------------------------- impossibility claims

def claim_statement(claim: dict, network: str, exchange: str) -> str:
    """The checker's own wording of a claim (a certificate's wording is never echoed as confirmed)."""
    text = f"no table of width {claim['width']} for {network} {exchange}"
    if claim["scope"] == "full":
        return text
    return text + f" within a restricted class ({claim.get('restriction') or 'not named'})"


def kernel_comparison(text: str, net, is_target: np.ndarray, width: int, what: str):
    """(the kernel's encoding, the comparison of ``text`` with it), or (None, why the kernel cannot encode it)."""
    try:
        encoding = kernel_encoding(net, is_target, width)
    except (EncoderTooLarge, proof_tools.Unsupported) as exc:
        return None, f"the kernel does not encode this problem ({exc})"
    return encoding, compare_with_kernel(text, encoding, what)


def check_impossibility(claim: dict, *, inp: LoadedInput, net, is_target: np.ndarray, table_valid: bool, root: Path,
                        timeout_s: float, where: str = "impossibility claim") -> ClaimVerdict:
    """One impossibility claim: the file must be the kernel's own encoding; then z3, cvc5 and the DRAT re-check.

    A full claim is confirmed only when the kernel proves the file equal, after normalisation, to
    the encoding it builds itself from the generators, the exchange and the width
    (:mod:`tesearch.checking.kernel.encoding`; the file must stay in the plain fragment the kernel reads, so
    the solvers read what the kernel compared); z3 and cvc5 then solve the file and the DRAT proof
    is checked against the file's CNF (the committed proofs are for it).  A restricted claim (a class
    the kernel does not rebuild) is never confirmed: unchecked, or refuted when a solver finds the
    file satisfiable.

    Long because it is one chain of checks in the order a confirmation needs them (the file's hash and size,
    its header, the kernel's own encoding, z3, cvc5, the DRAT proof), each adding its reason to one verdict;
    split up, the order that makes a claim confirmed would be spread over several functions.
    """
    what = f"{inp.network} {inp.exchange.value}"
    statement = claim_statement(claim, inp.network, inp.exchange.value)
    refutations: list[str] = []
    notes: list[str] = []
    confirmed: list[str] = []
    details: dict = {}
    full = claim["scope"] == "full"

    if full and table_valid and claim["width"] >= inp.T:
        refutations.append(f"the certificate's own table has width {inp.T} <= {claim['width']}")
    enc = claim["encoding"]
    try:  # paths are relative and confined to the certificate's tree; anything else is never read
        path = confined_path(enc["path"], root, where=where)
    except FormatError as exc:
        return ClaimVerdict("impossibility", statement, Verdict.REFUTED, "; ".join(refutations + [exc.message]))
    if not path.exists():
        return ClaimVerdict("impossibility", statement, Verdict.REFUTED if refutations else Verdict.UNCHECKED,
                            "; ".join(refutations + [f"encoding file {enc['path']} not found under {root}"]))
    raw = read_bytes(path)
    actual = proof_tools.sha256_bytes(raw)
    if actual != enc["sha256"]:
        return ClaimVerdict("impossibility", statement, Verdict.REFUTED,
                            "; ".join(refutations + [f"{enc['path']}: sha256 is {actual}, the certificate records "
                                                     f"{enc['sha256']}"]))
    if enc.get("bytes") is not None and enc.get("bytes") != len(raw):
        refutations.append(f"{enc['path']}: {len(raw)} bytes, the certificate records {enc.get('bytes')!r}")
    text = raw.decode("utf-8", errors="replace")
    if enc.get("format") == CNF_ENCODING_FORMAT:
        return ClaimVerdict(*check_cnf_claim(claim, text, inp=inp, net=net, is_target=is_target, root=root,
                                             statement=statement, refutations=refutations, where=where))
    # the header is a comment and never evidence; one that names something else is still refuted
    header = read_encoding_header(text)
    header_refutations = [f"its header comment names another problem: {p}" for p in
                          header_problems(header, network=inp.network, exchange=inp.exchange.value,
                                          width=claim["width"])]

    if full:
        kernel, comparison = kernel_comparison(text, net, is_target, claim["width"], what)
        if kernel is None:
            refutations += header_refutations
            return ClaimVerdict("impossibility", statement, Verdict.REFUTED if refutations else Verdict.UNCHECKED,
                                "; ".join(refutations + [comparison]))
        if not comparison.equal:
            refutations.append(f"{enc['path']} is not the kernel's encoding of {statement}: {comparison.reason()}")
            return ClaimVerdict("impossibility", statement, Verdict.REFUTED, "; ".join(refutations + header_refutations),
                                {"kernel_encoding": {"equal": False, "differences": comparison.count}})
        details["kernel_encoding"] = {"equal": True, "sections": list(comparison.variant),
                                      "variables": len(kernel.variables)}
    else:
        notes.append("a restricted claim: the kernel does not rebuild the restricted class, so what the file "
                     "encodes is not checked")
    refutations += header_refutations

    # z3 re-run (on the file: proven above to be the kernel's encoding, in the fragment the kernel reads, so
    # what the solvers read is what the kernel compared)
    run = proof_tools.run_z3(text, timeout_s)
    details["z3"] = run.to_json()
    _tally(Method.Z3, run, confirmed, refutations, notes)

    # cvc5 on the standard form
    try:
        run = proof_tools.run_cvc5(proof_tools.to_standard_smtlib2(text), timeout_s)
        details["cvc5"] = run.to_json()
        _tally(Method.CVC5, run, confirmed, refutations, notes)
    except proof_tools.Unsupported as exc:
        notes.append(f"cvc5 unchecked: the encoding has no standard form ({exc})")

    # DRAT proof re-check (on the file's CNF: the file is the kernel's encoding, proven above)
    drat = next((c for c in claim.get("confirmations", []) if isinstance(c, dict)
                 and c.get("method") == Method.DRAT.value), None)
    if drat is None or not isinstance(drat.get("proof"), dict):
        notes.append("sat+drat unchecked: the certificate records no DRAT proof")
    else:
        _check_drat_entry(drat, text, root, confirmed, refutations, notes, details, where)

    if refutations:
        verdict, reason = Verdict.REFUTED, "; ".join(refutations)
    elif not full:
        verdict = Verdict.UNCHECKED
        reason = f"unsat by {', '.join(confirmed) or 'no method'}, but within a class the kernel does not rebuild"
    elif len(confirmed) >= CONFIRMATIONS_NEEDED:
        verdict, reason = Verdict.CONFIRMED, (f"the file is the kernel's own encoding (equal after normalisation, "
                                              f"{len(kernel.variables)} variables); unsat by {', '.join(confirmed)}")
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
                      notes: list[str], details: dict, where: str) -> None:
    proof_info = entry["proof"]
    try:
        cnf = proof_tools.to_cnf(text)
    except proof_tools.Unsupported as exc:
        notes.append(f"sat+drat unchecked: no CNF form ({exc})")
        return
    recorded = entry.get("cnf") if isinstance(entry.get("cnf"), dict) else {}
    if recorded.get("sha256") != cnf.sha256:
        refutations.append(f"the CNF form of the encoding has sha256 {cnf.sha256}, the certificate records "
                           f"{recorded.get('sha256')}")
        return
    for key, value in (("variables", cnf.variables), ("clauses", len(cnf.clauses))):
        if key in recorded and recorded[key] != value:
            refutations.append(f"the CNF form has {value} {key}, the certificate records {recorded[key]!r}")
    try:
        proof_path = confined_path(proof_info.get("path"), root, where=f"{where}: DRAT proof")
    except FormatError as exc:
        refutations.append(exc.message)
        return
    if not proof_path.exists():
        notes.append(f"sat+drat unchecked: proof file {proof_info.get('path')} not found")
        return
    proof_text = read_text_file(proof_path)
    if proof_tools.sha256_text(proof_text) != proof_info.get("sha256"):
        refutations.append(f"{proof_info.get('path')}: sha256 differs from the certificate's")
        return
    check = proof_tools.check_drat(cnf, proof_text)
    details["sat+drat"] = check.to_json()
    if check.accepted:
        confirmed.append(Method.DRAT.value)
    else:
        refutations.append(f"the DRAT proof does not check: {check.reason}")

