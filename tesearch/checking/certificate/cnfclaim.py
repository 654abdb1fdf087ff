"""Checking a full-table CNF impossibility claim: the kernel's own CNF byte for byte, then its DRAT proof.

A claim whose ``encoding.format`` is ``full-table-cnf`` names a DIMACS file and a DRAT proof.  The file must
be exactly what :func:`tesearch.checking.kernel.fullcnf.kernel_fulltable_cnf` writes for the certificate's
generators, exchange and the claimed width (with or without its symmetry breaking); then the proof is checked
forward by :func:`tesearch.checking.proof.check_drat`.  A checked proof of the kernel's own formula is a proof
of the claim: no solver's word is taken, so one confirmation suffices (``CNF_CONFIRMATIONS_NEEDED``).

Imports: numpy, the checking kernel, the proof tools and the certificate format (nothing of the prover).
:func:`refute_cnf` (used by certify) records such a claim after checking its proof.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tesearch.checking import proof as proof_tools
from tesearch.checking.certificate.format import (CNF_ENCODING_FORMAT, Method, file_sha256, header_problems,
                                                  read_cnf_cut, read_cnf_header, relative_path)
from tesearch.checking.kernel import LoadedInput
from tesearch.checking.kernel.fullcnf import kernel_fulltable_cnf
from tesearch.running.errors import FormatError, OptionError, TesearchError
from tesearch.running.files import confined_path, read_text_file
from tesearch.running.terms import SolveResult, Verdict



def kernel_cnf_match(text: str, inp: LoadedInput, net, is_target: np.ndarray, width: int) -> tuple[bool | None, str]:
    """Whether ``text`` is byte for byte the kernel's full-table CNF of ``width`` (with or without its symmetry
    breaking; with the counting cut of the weights its header names, if it names one: any weights >= 0 give a
    sound cut): (True, which), (False, the first difference) or (None, why the kernel cannot build it)."""
    first_difference = ""
    cut = read_cnf_cut(text)
    for symmetry in (True, False):
        try:
            kernel = kernel_fulltable_cnf(net, inp.generators, is_target, width, spec=inp.network,
                                          exchange=inp.exchange.value, symmetry=symmetry, cut=cut)
        except ValueError as exc:
            return None, f"the kernel does not encode this width ({exc})"
        if kernel == text:
            return True, (f"symmetry breaking {'on' if symmetry else 'off'}"
                          + (f", counting cut {','.join(map(str, cut))}" if cut else ""))
        if not first_difference:
            mine, theirs = kernel.splitlines(), text.splitlines()
            line = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
            first_difference = (f"line {line + 1} differs from the kernel's (kernel: "
                                f"{mine[line][:60] if line < len(mine) else 'end of file'!r}, file: "
                                f"{theirs[line][:60] if line < len(theirs) else 'end of file'!r})")
    return False, first_difference


def check_cnf_claim(claim: dict, text: str, *, inp: LoadedInput, net, is_target: np.ndarray, root: Path,
                    statement: str, refutations: list[str], where: str) -> tuple:
    """A full-table CNF claim: the file must be the kernel's own CNF (byte for byte), and its DRAT proof must
    check (:func:`tesearch.checking.proof.check_drat`); then the claim is confirmed.  The header is a comment,
    never evidence; a header naming another network, exchange or width is refuted."""
    header = read_cnf_header(text)
    refutations += [f"its header comment names another problem: {p}" for p in
                    header_problems(header, network=inp.network, exchange=inp.exchange.value, width=claim["width"])]
    if claim["scope"] != "full":
        refutations.append("a full-table CNF claim must have scope 'full'")
    if refutations:
        return _verdict(statement, Verdict.REFUTED, "; ".join(refutations))
    equal, how = kernel_cnf_match(text, inp, net, is_target, claim["width"])
    if equal is None:
        return _verdict(statement, Verdict.UNCHECKED, how)
    if not equal:
        return _verdict(statement, Verdict.REFUTED,
                            f"{claim['encoding']['path']} is not the kernel's full-table CNF of width "
                            f"{claim['width']}: {how}", {"kernel_encoding": {"equal": False}})
    details: dict = {"kernel_encoding": {"equal": True, "variant": how}}
    try:
        cnf = proof_tools.parse_dimacs(text, claim["encoding"]["path"])
    except proof_tools.Unsupported as exc:
        return _verdict(statement, Verdict.REFUTED, str(exc))
    drat = next((c for c in claim.get("confirmations", []) if isinstance(c, dict)
                 and c.get("method") == Method.DRAT.value and isinstance(c.get("proof"), dict)), None)
    if drat is None:
        return _verdict(statement, Verdict.UNCHECKED,
                            "the file is the kernel's CNF, but the certificate records no DRAT proof", details)
    proof_info = drat["proof"]
    try:
        proof_path = confined_path(proof_info.get("path"), root, where=f"{where}: DRAT proof")
    except FormatError as exc:
        return _verdict(statement, Verdict.REFUTED, exc.message, details)
    if not proof_path.exists():
        return _verdict(statement, Verdict.UNCHECKED,
                            f"proof file {proof_info.get('path')} not found", details)
    proof_text = read_text_file(proof_path)
    if proof_tools.sha256_text(proof_text) != proof_info.get("sha256"):
        return _verdict(statement, Verdict.REFUTED,
                            f"{proof_info.get('path')}: sha256 differs from the certificate's", details)
    check = proof_tools.check_drat(cnf, proof_text)
    details["sat+drat"] = check.to_json()
    details["confirmed_by"] = [Method.DRAT.value] if check.accepted else []
    if not check.accepted:
        return _verdict(statement, Verdict.REFUTED,
                            f"the DRAT proof does not check: {check.reason}", details)
    return _verdict(statement, Verdict.CONFIRMED,
                        f"the file is the kernel's own full-table CNF ({how}, {cnf.variables} variables, "
                        f"{len(cnf.clauses)} clauses); its DRAT proof checks ({check.lemmas} lemmas)", details)


def _verdict(statement: str, verdict: Verdict, reason: str, details: dict | None = None) -> tuple:
    """(claim name, statement, verdict, reason, details): the fields of check.py's ClaimVerdict."""
    return "impossibility", statement, verdict, reason, details or {}


def refute_cnf(path: Path, text: str, *, claim: str, width: int, root: Path) -> dict:
    """A full-table CNF's claim: its DRAT proof (the file beside it, ``.drat``, written by the solver that found
    it unsat: benchmarks/fulltable.py) checked now; no solver runs here.  Refused if the proof is missing or
    does not check."""
    proof_path = path.with_suffix(".drat")
    if not proof_path.exists():
        raise OptionError(f"no DRAT proof {proof_path.name} beside the CNF (python -m benchmarks.fulltable writes "
                          "it)", where=str(path))
    proof = read_text_file(proof_path)
    cnf = proof_tools.parse_dimacs(text, str(path))
    check = proof_tools.check_drat(cnf, proof)
    if not check.accepted:
        raise TesearchError(f"{path}: the DRAT proof does not check: {check.reason}")
    return {
        "claim": claim,
        "width": width,
        "scope": "full",
        "restriction": None,
        "encoding": {"path": relative_path(path, root), "sha256": file_sha256(path), "bytes": path.stat().st_size,
                     "format": CNF_ENCODING_FORMAT, "header": text.split("\n", 2)[1] if text.count("\n") > 1 else None},
        "solver": {"solver": "CaDiCaL 1.9.5 (python-sat cadical195), run by benchmarks/fulltable.py",
                   "result": SolveResult.UNSAT.value},
        "confirmations": [{"method": Method.DRAT.value, "result": SolveResult.UNSAT.value,
                           "cnf": {"translation": "none: the file is the kernel's full-table CNF "
                                                  "(tesearch.checking.kernel.fullcnf)",
                                   "variables": cnf.variables, "clauses": len(cnf.clauses),
                                   "sha256": file_sha256(path)},
                           "proof": {"format": "DRAT (text)", "path": relative_path(proof_path, root),
                                     "sha256": proof_tools.sha256_text(proof), "lines": proof.count("\n"),
                                     "checker": "tesearch.checking.proof.check_drat (forward RUP/RAT, pure Python)",
                                     "check": check.to_json()}}],
        "confirmed_by": [Method.DRAT.value],
    }
