"""A forward DRAT proof checker in pure Python: every lemma RUP, or RAT on its first literal.

Imports: the standard library and tesearch.checking.proof.cnf.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tesearch.checking.proof.cnf import Cnf


@dataclass
class ProofCheck:
    """The outcome of a DRAT proof check: accepted or not, counts, time and the reason."""

    accepted: bool
    lemmas: int
    deletions: int
    rat_lemmas: int
    seconds: float
    reason: str  # why it was accepted or rejected

    def to_json(self) -> dict:
        """The check as a JSON object."""
        return {"accepted": self.accepted, "lemmas": self.lemmas, "deletions": self.deletions,
                "rat_lemmas": self.rat_lemmas, "seconds": round(self.seconds, 3), "reason": self.reason}


class _Propagator:
    """Clause database with two watched literals and a persistent top-level trail."""

    def __init__(self, variables: int):
        self.value = [0] * (variables + 1)  # 0 unassigned, 1 true, -1 false (by variable)
        self.trail: list[int] = []
        self.clauses: list[list[int]] = []
        self.alive: list[bool] = []
        self.watches: dict[int, list[int]] = {}
        self.by_key: dict[tuple[int, ...], list[int]] = {}
        self.by_literal: dict[int, list[int]] = {}  # every clause ever added, by literal (for RAT)
        self.conflict = False  # the top level is contradictory: the empty clause is derived

    def grow(self, var: int) -> None:
        if var >= len(self.value):
            self.value.extend([0] * (var + 1 - len(self.value)))

    def lit_value(self, lit: int) -> int:
        v = self.value[abs(lit)]
        return v if lit > 0 else -v

    def assign(self, lit: int) -> None:
        self.value[abs(lit)] = 1 if lit > 0 else -1
        self.trail.append(lit)

    def undo(self, length: int) -> None:
        while len(self.trail) > length:
            self.value[abs(self.trail.pop())] = 0

    def propagate(self, start: int) -> bool:
        """Unit propagation from trail[start:]; True on a conflict."""
        i = start
        value, clauses, alive, watches = self.value, self.clauses, self.alive, self.watches
        while i < len(self.trail):
            false_lit = -self.trail[i]
            i += 1
            watching = watches.get(false_lit)
            if not watching:
                continue
            keep = []
            conflict = False
            for n, cid in enumerate(watching):
                if conflict:
                    keep.append(cid)
                    continue
                if not alive[cid]:
                    continue
                clause = clauses[cid]
                if clause[0] == false_lit:
                    clause[0], clause[1] = clause[1], clause[0]
                other = clause[0]
                ov = value[abs(other)]
                if (ov if other > 0 else -ov) == 1:
                    keep.append(cid)
                    continue
                for k in range(2, len(clause)):
                    lit = clause[k]
                    lv = value[abs(lit)]
                    if (lv if lit > 0 else -lv) != -1:
                        clause[1], clause[k] = lit, clause[1]
                        watches.setdefault(lit, []).append(cid)
                        break
                else:
                    keep.append(cid)
                    if (ov if other > 0 else -ov) == -1:
                        conflict = True
                    else:
                        self.assign(other)
            watches[false_lit] = keep
            if conflict:
                return True
        return False

    def add_clause(self, clause: list[int]) -> None:
        """Add a clause to the database and propagate at the top level."""
        clause = list(dict.fromkeys(clause))
        for lit in clause:
            self.grow(abs(lit))
        cid = len(self.clauses)
        self.clauses.append(clause)
        self.alive.append(True)
        self.by_key.setdefault(tuple(sorted(clause)), []).append(cid)
        for lit in clause:
            self.by_literal.setdefault(lit, []).append(cid)
        if self.conflict:
            return
        if any(-lit in clause for lit in clause):
            self.alive[cid] = False  # a tautology never propagates
            return
        # order: non-false literals first, so the watches are sound at the top level
        clause.sort(key=lambda lit: self.lit_value(lit) == -1)
        if not clause or self.lit_value(clause[0]) == -1:
            self.conflict = True
            return
        if len(clause) == 1 or self.lit_value(clause[1]) == -1:
            if self.lit_value(clause[0]) == 0:
                start = len(self.trail)
                self.assign(clause[0])
                if self.propagate(start):
                    self.conflict = True
            if len(clause) == 1:
                return
        self.watches.setdefault(clause[0], []).append(cid)
        self.watches.setdefault(clause[1], []).append(cid)

    def delete_clause(self, clause: list[int]) -> bool:
        ids = self.by_key.get(tuple(sorted(set(clause))))
        while ids:
            cid = ids.pop()
            if self.alive[cid]:
                if len(set(clause)) > 1:  # unit deletions are ignored, as drat-trim does
                    self.alive[cid] = False
                return True
        return False

    def is_rup(self, clause: list[int]) -> bool:
        if self.conflict:
            return True
        start = len(self.trail)
        conflict = False
        for lit in clause:
            self.grow(abs(lit))
            v = self.lit_value(lit)
            if v == 1:
                conflict = True
                break
            if v == 0:
                self.assign(-lit)
        if not conflict:
            conflict = self.propagate(start)
        self.undo(start)
        return conflict

    def is_rat(self, clause: list[int]) -> bool:
        """RAT on the first literal, against every clause ever added (deletions ignored: still sound)."""
        if not clause:
            return False
        pivot = clause[0]
        for cid in list(self.by_literal.get(-pivot, [])):
            resolvent = list(dict.fromkeys(clause + [x for x in self.clauses[cid] if x != -pivot]))
            if any(-x in resolvent for x in resolvent):
                continue
            if not self.is_rup(resolvent):
                return False
        return True


def check_drat(cnf: Cnf, proof_text: str) -> ProofCheck:
    """Check a textual DRUP/DRAT refutation of ``cnf`` forward; accepted only if the empty clause follows."""
    started = time.perf_counter()
    prop = _Propagator(cnf.variables)
    for clause in cnf.clauses:
        prop.add_clause(clause)
    lemmas = deletions = rat = 0

    def result(accepted: bool, reason: str) -> ProofCheck:
        return ProofCheck(accepted, lemmas, deletions, rat, time.perf_counter() - started, reason)

    if prop.conflict:
        return result(True, "the formula is refuted by unit propagation alone")
    for number, line in enumerate(proof_text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        delete = line.startswith("d")
        try:
            lits = [int(tok) for tok in (line[1:] if delete else line).split()]
        except ValueError:
            return result(False, f"proof line {number} is not a clause: {line[:60]!r}")
        if not lits or lits[-1] != 0 or 0 in lits[:-1]:
            return result(False, f"proof line {number} is not terminated by a single 0")
        clause = lits[:-1]
        if delete:
            deletions += 1
            prop.delete_clause(clause)
            continue
        lemmas += 1
        if not prop.is_rup(clause):
            if prop.is_rat(clause):
                rat += 1
            else:
                return result(False, f"lemma {lemmas} (proof line {number}: {line[:60]}) is neither RUP nor RAT")
        if not clause:
            return result(True, f"the empty clause is derived at lemma {lemmas}")
        prop.add_clause(clause)
        if prop.conflict:
            return result(True, f"unit propagation refutes the formula after lemma {lemmas}")
    return result(False, "the proof ends without deriving the empty clause")
