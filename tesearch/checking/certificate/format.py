"""The tesearch-certificate v1 format: constants, loading and validation, hashes, encoding headers.

Shared by :mod:`~tesearch.checking.certificate.make` (writing) and :mod:`~tesearch.checking.certificate.check`
(checking).  Imports: the standard library and tesearch's bottom layer only.
"""

from __future__ import annotations

import enum
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from tesearch.running.errors import FormatError
from tesearch.running.files import read_json_file
from tesearch.running.terms import Verdict

CERTIFICATE_FORMAT = "tesearch-certificate"
CERTIFICATE_FORMAT_VERSION = 1
#: independent methods that must establish unsat for an impossibility claim to be confirmed
CONFIRMATIONS_NEEDED = 2
#: default seconds per solver run when checking
DEFAULT_TIMEOUT_S = 60.0
#: the replay model the certificates use
REPLAY_MODEL = "all-port"
#: the widest impossibility claim a certificate may state (the loader's largest T)
MAX_CLAIM_WIDTH = 2 ** 31 - 1


class Kind(str, enum.Enum):
    """What a certificate is about (its ``kind`` key; absent means a table)."""

    TABLE = "table"  # a table, its bounds and impossibility claims (the original kind)
    WORD_CHOICE = "word-choice"  # how often the most-used letter must occur over all word choices


#: the version of each kind this checker knows
KIND_VERSIONS = {Kind.TABLE: 1, Kind.WORD_CHOICE: 1}


class Method(str, enum.Enum):
    """Independent ways an impossibility claim is re-established."""

    Z3 = "z3"
    CVC5 = "cvc5"
    DRAT = "sat+drat"



def tool_version() -> str:
    """The installed tesearch version ("unknown" when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tesearch")
    except PackageNotFoundError:
        return "unknown"


def table_sha256(table_json: dict) -> str:
    """sha256 of a table's canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(table_json, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def file_sha256(path: Path) -> str:
    """sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def repository_root(start: Path) -> Path:
    """The nearest ancestor holding pyproject.toml or .git (paths in certificates are relative to it)."""
    start = start.resolve()
    for candidate in [start, *start.parents]:
        if (candidate / "pyproject.toml").exists() or (candidate / ".git").exists():
            return candidate
    return start if start.is_dir() else start.parent


def relative_path(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` as a certificate records it (absolute when it lies outside)."""
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
    """The header a tesearch encoding writes about itself, or None."""
    match = _HEADER.search(text)
    if match is None:
        return None
    complete = _COMPLETE.search(text)
    return EncodingHeader(match["name"], int(match["width"]), int(match["items"]), match["options"],
                          None if complete is None else complete["complete"] == "True")



#: the ``encoding.format`` of a claim whose file is a full-table CNF (DIMACS; tesearch.checking.kernel.fullcnf)
CNF_ENCODING_FORMAT = "full-table-cnf"
#: a full-table CNF proves its claim with one checked DRAT proof of the kernel's own formula (no solver's word)
CNF_CONFIRMATIONS_NEEDED = 1
_CNF_HEADER = re.compile(r"^c network (?P<spec>\S+) exchange (?P<exchange>\S+) width (?P<width>\d+) "
                         r"symmetry (?P<symmetry>on|off)(?: cut (?P<cut>\d+(?:,\d+)*))?$", re.MULTILINE)


def is_cnf_path(path) -> bool:
    """Whether an encoding file is a full-table CNF (by its extension ``.cnf``)."""
    return str(path).endswith(".cnf")


def read_cnf_header(text: str) -> EncodingHeader | None:
    """The comment a full-table CNF writes about itself, as an EncodingHeader (a record, never evidence)."""
    match = _CNF_HEADER.search(text[:4096])
    if match is None:
        return None
    return EncodingHeader(f"{match['spec']} {match['exchange']}", int(match["width"]), 0,
                          f"full-table cnf, symmetry {match['symmetry']}"
                          + (f", counting cut {match['cut']}" if match["cut"] else ""), True)


def read_cnf_cut(text: str) -> tuple[int, ...] | None:
    """The letter weights of a full-table CNF's counting cut as its header names them (None: no cut).  A
    parameter to rebuild the formula with, never evidence: the rebuilt bytes must still equal the file's, and the
    cut is sound for any weights >= 0."""
    match = _CNF_HEADER.search(text[:4096])
    return tuple(int(w) for w in match["cut"].split(",")) if match is not None and match["cut"] else None


def confirmations_needed(claim: dict) -> int:
    """How many independent methods must establish a claim: one checked DRAT proof for a full-table CNF."""
    encoding = claim.get("encoding") if isinstance(claim, dict) else None
    if isinstance(encoding, dict) and encoding.get("format") == CNF_ENCODING_FORMAT:
        return CNF_CONFIRMATIONS_NEEDED
    return CONFIRMATIONS_NEEDED


def header_problems(header: EncodingHeader | None, *, network: str, exchange: str, width: int | None) -> list[str]:
    """What an encoding's header says that does not fit the claim (another network, exchange or width)."""
    if header is None:
        return []
    problems = []
    expected = f"{network} {exchange}"
    if not (header.name == expected or header.name.startswith(expected + " ")):
        problems.append(f"the encoding is for {header.name!r}, not {expected}")
    if width is not None and header.width != width:
        problems.append(f"the encoding is for width {header.width}, the claim is about width {width}")
    return problems


def optimality(T: int, best: int, claims: list[dict], verdicts: dict[int, list[Verdict]]) -> dict:
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



#: no number in a certificate may be larger than this in magnitude (a table, a width, a bound); larger is malformed
MAX_NUMBER = 2 ** 53


def _huge_number(value: object, at: str) -> str | None:
    """The path of the first integer (or float) beyond MAX_NUMBER in a JSON value, or None."""
    stack = [(value, at)]
    while stack:
        item, here = stack.pop()
        if isinstance(item, bool) or item is None or isinstance(item, str):
            continue
        if isinstance(item, (int, float)):
            if not (-MAX_NUMBER <= item <= MAX_NUMBER):
                return here
        elif isinstance(item, dict):
            stack.extend((v, f"{here}.{k}") for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{here}[{i}]") for i, v in enumerate(item))
    return None


def certificate_kind(data: object, where: str) -> Kind:
    """The kind of a certificate object (FormatError for an unknown kind or version, or a wrong format)."""
    if not isinstance(data, dict):
        raise FormatError("a certificate is a JSON object", where=where)
    if data.get("format") != CERTIFICATE_FORMAT:
        raise FormatError(f"'format' is {data.get('format')!r}, expected {CERTIFICATE_FORMAT!r}", where=where)
    if data.get("format_version") != CERTIFICATE_FORMAT_VERSION:
        raise FormatError(f"unsupported format_version {data.get('format_version')!r} (this checker knows 1)",
                          where=where)
    try:
        kind = Kind(data.get("kind", Kind.TABLE.value))
    except ValueError:
        raise FormatError(f"unknown certificate kind {data.get('kind')!r} (this checker knows "
                          f"{', '.join(k.value for k in Kind)})", where=where) from None
    version = data.get("kind_version", 1)
    if version != KIND_VERSIONS[kind]:
        raise FormatError(f"unsupported kind_version {version!r} of kind {kind.value!r} (this checker knows "
                          f"{KIND_VERSIONS[kind]})", where=where)
    return kind


def load_certificate(path: str | Path) -> dict:
    """Read a certificate of any kind and check its shape (FormatError naming what is wrong)."""
    path = Path(path)
    data = read_json_file(path)
    if certificate_kind(data, str(path)) is Kind.WORD_CHOICE:
        validate_word_choice(data, str(path))
    else:
        validate_certificate(data, str(path))
    return data


def validate_word_choice(data: dict, where: str) -> None:
    """Check a word-choice certificate's shape (FormatError naming what is wrong)."""
    huge = _huge_number(data, "certificate")
    if huge is not None:
        raise FormatError(f"the number at {huge} is larger than {MAX_NUMBER} in magnitude", where=where)
    network = data.get("network")
    if not isinstance(network, dict) or not isinstance(network.get("generators"), dict) \
            or not isinstance(network.get("spec"), str) or not isinstance(network.get("exchange"), str):
        raise FormatError("'network' must be an object with 'spec', 'exchange' and 'generators'", where=where)
    lower = data.get("lower")
    if not isinstance(lower, dict) or not _is_integer(lower.get("bound")):
        raise FormatError("'lower' must be an object with an integer 'bound'", where=where)
    weights = lower.get("weights")
    if weights is not None and (not isinstance(weights, dict) or not isinstance(weights.get("weights"), dict)
                                or not isinstance(weights.get("denominator"), int)):
        raise FormatError("'lower.weights' must hold a 'weights' object (letter -> integer) and an integer "
                          "'denominator'", where=where)
    parity = lower.get("parity")
    if parity is not None and (not isinstance(parity, dict) or not isinstance(parity.get("odd_letters"), list)
                               or not _is_integer(parity.get("level"))):
        raise FormatError("'lower.parity' must hold an 'odd_letters' list and an integer 'level'", where=where)
    upper = data.get("upper")
    if upper is not None and (not isinstance(upper, dict) or not _is_integer(upper.get("bound"))
                              or not isinstance(upper.get("words"), list)
                              or not all(isinstance(w, str) for w in upper["words"])):
        raise FormatError("'upper' must be null or an object with an integer 'bound' and 'words' (strings of "
                          "letters separated by spaces)", where=where)
    result = data.get("result")
    if not isinstance(result, dict) or not _is_integer(result.get("lower")) \
            or not (result.get("upper") is None or _is_integer(result.get("upper"))) \
            or not isinstance(result.get("exact"), bool):
        raise FormatError("'result' must be an object with an integer 'lower', an integer or null 'upper' and a "
                          "true or false 'exact'", where=where)


def _is_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_certificate(data: object, where: str) -> None:
    """Check a table certificate object's shape (FormatError naming what is wrong, e.g. a number too large)."""
    if certificate_kind(data, where) is not Kind.TABLE:
        raise FormatError(f"a {data.get('kind')} certificate, not a table certificate", where=where)
    for key, kind in (("network", dict), ("bounds", dict), ("table", dict), ("result", dict),
                      ("impossibility_claims", list)):
        if not isinstance(data.get(key), kind):
            raise FormatError(f"{key!r} must be a JSON {'object' if kind is dict else 'list'}", where=where)
    huge = _huge_number(data, "certificate")
    if huge is not None:
        raise FormatError(f"the number at {huge} is larger than {MAX_NUMBER} in magnitude", where=where)
    if not isinstance(data["table"].get("content"), dict):
        raise FormatError("'table.content' must be the embedded tesearch-table object", where=where)
    for i, claim in enumerate(data["impossibility_claims"]):
        here = f"{where}: impossibility_claims[{i}]"
        if not isinstance(claim, dict) or not isinstance(claim.get("encoding"), dict):
            raise FormatError("a claim is an object with an 'encoding' object", where=here)
        if not isinstance(claim["encoding"].get("path"), str) or not isinstance(claim["encoding"].get("sha256"), str):
            raise FormatError("'encoding' needs 'path' and 'sha256' strings", where=here)
        width = claim.get("width")
        if not isinstance(width, int) or isinstance(width, bool) or claim.get("scope") not in ("full", "restricted"):
            raise FormatError("a claim needs an integer 'width' and a 'scope' of full or restricted", where=here)
        if not 0 <= width <= MAX_CLAIM_WIDTH:
            raise FormatError(f"'width' is {width}, outside 0..{MAX_CLAIM_WIDTH}", where=here)
