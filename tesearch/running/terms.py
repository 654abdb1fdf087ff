"""The project's shared vocabulary: the enums several layers speak, and nothing else.

This module imports nothing (no z3, no numpy), so the search, the checking
kernel, the replay and the CLI can all use it without depending on each other.

>>> Exchange.parse("odd-distance").value
'odd-distance'
>>> SolveResult.UNKNOWN.proves_infeasible
False
>>> int(ExitCode.INTERRUPTED)
130
"""

from __future__ import annotations

import enum


class Exchange(str, enum.Enum):
    """Which messages a node sends: to every other node, or to every node at odd distance."""

    TOTAL = "total"
    ODD_DISTANCE = "odd-distance"

    @classmethod
    def parse(cls, text: "Exchange | str") -> "Exchange":
        """The exchange named by ``text``; ValueError naming the choices otherwise."""
        try:
            return cls(text)
        except ValueError:
            raise ValueError(f"unknown exchange {text!r} (use {' or '.join(e.value for e in cls)})") from None

    @classmethod
    def values(cls) -> tuple[str, ...]:
        """The spellings files and the command line use."""
        return tuple(e.value for e in cls)

    @property
    def file_suffix(self) -> str:
        """What a file name adds for this exchange: '' for total, '-odd' for odd-distance."""
        return "" if self is Exchange.TOTAL else "-odd"


class SolveResult(str, enum.Enum):
    """Three-valued solver outcome (as CPMpy's ExitStatus): unknown is never read as unsat."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"

    @property
    def proves_infeasible(self) -> bool:
        """Only an unsat answer refutes a width."""
        return self is SolveResult.UNSAT


class Status(str, enum.Enum):
    """What a search ended with."""

    FOUND = "found"  # a table (optimal or not)
    INFEASIBLE = "infeasible"  # every width asked for was refuted and no table was found
    UNKNOWN = "unknown"  # the solver or the time limit stopped the search before a table was found


class CoreModel(str, enum.Enum):
    """How ``tesearch narrow`` makes the rotation core: the greedy core narrowed by CP-SAT, or the
    mirrored lanes (:mod:`tesearch.search.lanecore`) as lanes + a free part or as one joint model."""

    GREEDY = "greedy"
    LANES = "lanes"
    JOINT_LANES = "joint-lanes"


class Verdict(str, enum.Enum):
    """What a check says about one claim: the one verdict vocabulary of certificates and regressions."""

    CONFIRMED = "confirmed"  # re-derived: the claim holds
    REFUTED = "refuted"  # re-derived: the claim is false (the reason says why)
    UNCHECKED = "unchecked"  # could not be re-derived here (a solver missing, a time limit, too large)


#: Theorem 1 of the table method (Coolsaet, Fack and De Meyer, 1994, "A tabular method for verification of data
#: exchange algorithms on networks of parallel processors"), as one-line verdicts name it
THEOREM_1 = "Theorem 1 of Coolsaet, Fack and De Meyer (1994)"


def optimality_text(T: int, best: int) -> str:
    """The one wording of how a table's width stands to the best lower bound: 'OPTIMAL' when it meets it
    (a theorem: no table is narrower than a lower bound), 'not shown optimal (gap N)' otherwise."""
    return "OPTIMAL" if T == best else f"not shown optimal (gap {T - best})"


class ExitCode(enum.IntEnum):
    """Exit codes of every tesearch command (docs and README list them)."""

    OK = 0
    FAILED = 1  # a checked table, proof or run fails
    BAD_INPUT = 2  # bad input or options, or a size known in advance to exceed a limit
    INFEASIBLE = 3  # the search proved that no table exists in the widths asked for
    UNKNOWN = 4  # a time or memory limit was reached, or a solver gave up, with nothing proved
    INTERNAL = 70  # a bug in tesearch (EX_SOFTWARE); never expected
    INTERRUPTED = 130  # SIGINT (Ctrl-C): nothing written
    TERMINATED = 143  # SIGTERM: nothing written


def stop_text(code: ExitCode) -> str:
    """The one wording of a stop by a signal, for every command and every path (the supervisor, the sweep, the
    command's own process, run and simulate): 'interrupted (SIGINT)' for exit 130, 'terminated (SIGTERM)' for 143.

    >>> stop_text(ExitCode.TERMINATED)
    'terminated (SIGTERM)'
    """
    return {ExitCode.INTERRUPTED: "interrupted (SIGINT)", ExitCode.TERMINATED: "terminated (SIGTERM)"}[code]


#: the name of the time before any phase of a command's work (imports, reading the input)
ROOT_PHASE = "setup"
#: the time between two phases is named after the one that ended last: 'after phase: verify'
AFTER_PHASE = "after phase: "


def phase_text(phase: str) -> str:
    """Where the work was, for messages: 'in phase: NAME', or 'after phase: NAME' between two phases (never
    'setup' once a phase has run).

    >>> phase_text("solve core T=11"), phase_text(AFTER_PHASE + "verify")
    ('in phase: solve core T=11', 'after phase: verify')
    """
    return phase if phase.startswith(AFTER_PHASE) else f"in phase: {phase}"
