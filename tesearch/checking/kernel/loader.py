"""The kernel's own loader: validation of a decoded tesearch-table v1 (or tesearch-schedule v1) object.

Nothing is taken on trust: the format and version, the exchange, every
generator (a permutation, not the identity, no two letters equal, closed
under inverses), T, and every placement (row and column integers >= 0, a word
of known letters) or schedule message (times strictly increasing, a stated
destination a permutation).  Which network the ``network`` label names is
checked elsewhere (:func:`tesearch.networks.families.network_for_table`); here it is
only a string.  The replay reads its input through this module too.

Imports: the standard library and tesearch.running.terms / errors / files.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from tesearch.running.errors import FormatError
from tesearch.running.files import read_json_file
from tesearch.running.terms import Exchange
from tesearch.checking.kernel.graph import Perm

TABLE_FORMAT = "tesearch-table"
SCHEDULE_FORMAT = "tesearch-schedule"
TABLE_FORMAT_VERSION = 1
_HEADER_KEYS = ("format", "format_version", "network", "exchange", "generators", "T")
#: the largest T, column, row, time or bound the loader accepts (2^31 - 1: beyond any table the checker can hold;
#: a larger number is a malformed file, refused with one line, not an overflow deeper down)
MAX_INTEGER = 2 ** 31 - 1



class PortModel(str, enum.Enum):
    """What a node may do in one step."""

    ALL_PORT = "all-port"  # every directed link carries at most one message per step
    SINGLE_PORT = "single-port"  # a node sends at most one and receives at most one message per step

    @classmethod
    def parse(cls, text: "PortModel | str") -> "PortModel":
        """The model named by ``text``; FormatError naming the choices otherwise."""
        try:
            return cls(text)
        except ValueError:
            raise FormatError(f"unknown port model {text!r} (use all-port or single-port)") from None


class InputFormat(str, enum.Enum):
    """Which exchange format a file is in."""

    TABLE = TABLE_FORMAT
    SCHEDULE = SCHEDULE_FORMAT


@dataclass(frozen=True)
class LoadedMessage:
    """One message of the identity node: letters (as indices), hop steps, optional stated destination."""

    word: tuple[int, ...]
    times: tuple[int, ...]
    destination: Perm | None = None
    lane: int | None = None  # table row, for tables


@dataclass(frozen=True)
class LoadedInput:
    """A table or schedule as the kernel and the replay read it (validated, letters as indices)."""

    source_format: InputFormat
    network: str
    exchange: Exchange
    letters: tuple[str, ...]
    generators: tuple[Perm, ...]
    T: int
    messages: tuple[LoadedMessage, ...]
    model_hint: PortModel | None = None
    where: str = "input"
    lower_bound: int | None = None
    letter_bound: int | None = None

    @property
    def horizon(self) -> int:
        """The number of steps the input spans: T, or later if a message runs past T."""
        return max([self.T] + [m.times[-1] + 1 for m in self.messages])


# ============================================================================ validation

def _bad(message: str, where: str) -> FormatError:
    return FormatError(message, where=where)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _too_large(value: object) -> bool:
    return _is_int(value) and value > MAX_INTEGER


def check_generators(raw: object, where: str) -> tuple[tuple[str, ...], tuple[Perm, ...]]:
    """Letters and permutations of a generators object, each checked (FormatError naming the letter)."""
    here = f"{where}: generators"
    if not isinstance(raw, dict) or not raw:
        raise _bad("must be a non-empty object of letter -> list of images", here)
    letters: list[str] = []
    perms: list[Perm] = []
    size = None
    for letter, images in raw.items():
        at = f"{here}[{letter!r}]"
        if not isinstance(letter, str) or not letter or any(c.isspace() for c in letter):
            raise _bad("letters must be non-empty strings without spaces", at)
        if not isinstance(images, list) or not images or not all(_is_int(x) for x in images):
            raise _bad("a permutation is a non-empty list of integer images", at)
        if size is None:
            size = len(images)
        if len(images) != size:
            raise _bad(f"has {len(images)} images, the first generator has {size}", at)
        if sorted(images) != list(range(size)):
            raise _bad(f"is not a permutation of 0..{size - 1}", at)
        if images == list(range(size)):
            raise _bad("is the identity", at)
        letters.append(letter)
        perms.append(tuple(images))
    if len(set(perms)) != len(perms):
        raise _bad("two letters name the same permutation", here)
    known = set(perms)
    for letter, p in zip(letters, perms):
        inv = [0] * len(p)
        for i, x in enumerate(p):
            inv[x] = i
        if tuple(inv) not in known:
            raise _bad(f"not closed under inverses (the inverse of {letter!r} is missing)", here)
    return tuple(letters), tuple(perms)


def _word(raw: object, index: Mapping[str, int], at: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(s, str) for s in raw):
        raise _bad("a word is a non-empty list of letters", at)
    unknown = [s for s in raw if s not in index]
    if unknown:
        raise _bad(f"letter {unknown[0]!r} is not a generator ({' '.join(index)})", at)
    return tuple(index[s] for s in raw)


def input_from_json(data: object, where: str = "input") -> LoadedInput:
    """Validate a decoded tesearch-table v1 or tesearch-schedule v1 object."""
    if not isinstance(data, dict):
        raise _bad("a tesearch-table or tesearch-schedule is a JSON object", where)
    fmt = data.get("format")
    if fmt not in (TABLE_FORMAT, SCHEDULE_FORMAT):
        raise _bad(f"'format' is {fmt!r}, expected {TABLE_FORMAT!r} or {SCHEDULE_FORMAT!r}", where)
    body_key = "placements" if fmt == TABLE_FORMAT else "messages"
    missing = [k for k in _HEADER_KEYS + (body_key,) if k not in data]
    if fmt == TABLE_FORMAT and "lower_bound" not in data:
        missing.append("lower_bound")
    if missing:
        raise _bad(f"missing key(s) {', '.join(missing)}", where)
    if data["format_version"] != TABLE_FORMAT_VERSION:
        raise _bad(f"unsupported format_version {data['format_version']!r} (this reader knows 1)", where)
    if not isinstance(data["network"], str):
        raise _bad("'network' must be a string", where)
    try:
        exchange = Exchange(data["exchange"])
    except ValueError:
        raise _bad(f"'exchange' must be total or odd-distance, got {data['exchange']!r}", where) from None
    letters, perms = check_generators(data["generators"], where)
    T = data["T"]
    if not _is_int(T) or T < 0:
        raise _bad(f"'T' must be an integer >= 0, got {T!r}", where)
    if _too_large(T):
        raise _bad(f"'T' is {T}, larger than {MAX_INTEGER}", where)
    hint = None
    if "model" in data:
        try:
            hint = PortModel(data["model"])
        except ValueError:
            raise _bad(f"'model' must be all-port or single-port, got {data['model']!r}", where) from None
    index = {s: k for k, s in enumerate(letters)}
    raw = data[body_key]
    if not isinstance(raw, list):
        raise _bad(f"{body_key!r} must be a list", where)
    messages = []
    points = len(perms[0])
    for i, item in enumerate(raw):
        at = f"{where}: {body_key}[{i}]"
        if fmt == TABLE_FORMAT:
            if not (isinstance(item, list) and len(item) == 3):
                raise _bad("a placement is [row, first_column, word]", at)
            row, col, word = item
            for name, value in (("row", row), ("first_column", col)):
                if not _is_int(value) or value < 0:
                    raise _bad(f"{name} must be an integer >= 0, got {value!r}", at)
                if _too_large(value):
                    raise _bad(f"{name} is {value}, larger than {MAX_INTEGER}", at)
            w = _word(word, index, at)
            messages.append(LoadedMessage(w, tuple(range(col, col + len(w))), None, row))
        else:
            if not (isinstance(item, list) and len(item) in (2, 3)):
                raise _bad("a message is [word, times] or [word, times, destination]", at)
            w = _word(item[0], index, at)
            times = item[1]
            if not isinstance(times, list) or not all(_is_int(t) and 0 <= t <= MAX_INTEGER for t in times):
                raise _bad(f"times must be a list of integers from 0 to {MAX_INTEGER}", at)
            if len(times) != len(w):
                raise _bad(f"{len(w)} letters but {len(times)} times", at)
            if any(b <= a for a, b in zip(times, times[1:])):
                raise _bad("times must increase strictly (one hop per step)", at)
            dest = None
            if len(item) == 3:
                d = item[2]
                if not isinstance(d, list) or not all(_is_int(x) for x in d) or sorted(d) != list(range(points)):
                    raise _bad(f"destination must be a permutation of 0..{points - 1} (a list of images)", at)
                dest = tuple(d)
            messages.append(LoadedMessage(w, tuple(times), dest))
    recorded = {}
    for key in ("lower_bound", "letter_bound"):
        value = recorded[key] = data.get(key) if fmt == TABLE_FORMAT else None
        if value is not None and (not _is_int(value) or value < 0):
            raise _bad(f"'{key}' must be an integer >= 0, got {value!r}", where)
        if _too_large(value):
            raise _bad(f"'{key}' is {value}, larger than {MAX_INTEGER}", where)
    return LoadedInput(InputFormat(fmt), data["network"], exchange, letters, perms, T, tuple(messages), hint, where,
                       recorded["lower_bound"], recorded["letter_bound"])


def load_input(path: str | Path) -> LoadedInput:
    """Read and validate a tesearch-table or tesearch-schedule JSON file."""
    path = Path(path)
    return input_from_json(read_json_file(path, gzip_ok=True), str(path))
