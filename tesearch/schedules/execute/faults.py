"""The fault vocabulary, read from the one definition the C executors include (``c/te_faults.def``).

Each line ``FAULT(NAME, "words", "meaning")`` is one kind; the order is the reports' order (causes first).
The executors print a fault as ``FAULT NAME rank step origin destination detail``; :func:`parse_fault`
reads that line back.  :class:`Fault` values are the words people read (``"wrong neighbour"``).
"""

from __future__ import annotations

import enum
import re
from dataclasses import asdict, dataclass
from pathlib import Path

DEFINITION = Path(__file__).with_name("c") / "te_faults.def"
_ENTRY = re.compile(r'^FAULT\((\w+), "([^"]+)", "([^"]+)"\)\s*$', re.M)


def _entries() -> list[tuple[str, str, str]]:
    return _ENTRY.findall(DEFINITION.read_text())


#: what went wrong in a run, as the rank that saw it names it; members in the definition's order (causes first)
Fault = enum.Enum("Fault", [(name, words) for name, words, _ in _entries()], type=str, module=__name__)
Fault.__doc__ = "What went wrong in a run of a schedule (defined once, in c/te_faults.def)."
#: what each kind means, for documentation and help texts
MEANING = {Fault[name]: meaning for name, _, meaning in _entries()}


@dataclass(frozen=True)
class FaultRecord:
    """One fault: its kind, the rank it is blamed on, the step, the message, and a sentence."""

    kind: Fault
    rank: int
    step: int
    origin: int
    destination: int
    detail: str

    def to_json(self) -> dict:
        """The fault as one JSON object (``kind`` as its words)."""
        data = asdict(self)
        data["kind"] = self.kind.value
        return data


_LINE = re.compile(r"^FAULT (\w+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (.*)$")


def parse_fault(line: str) -> FaultRecord | None:
    """The fault of one ``FAULT ...`` line, or None when the line is no fault line."""
    match = _LINE.match(line)
    if not match or match.group(1) not in Fault.__members__:
        return None
    name, rank, step, origin, destination, detail = match.groups()
    return FaultRecord(Fault[name], int(rank), int(step), int(origin), int(destination), detail)


def by_cause(fault: dict) -> tuple[int, int, int]:
    """Sort key of faults as JSON objects: causes first (the definition's order), then step and rank."""
    order = [kind.value for kind in Fault]
    return order.index(fault["kind"]) if fault["kind"] in order else len(order), fault["step"], fault["rank"]
