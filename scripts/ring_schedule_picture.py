"""Print the schedule of a ring table as an ASCII space-time picture (the one in docs/schedules.md).

Usage: .venv/bin/python -m scripts.ring_schedule_picture results/ring-6.json

Nodes are ranks (on a ring, rank = position on the ring); each step shows every link's two
directions with the message on it as ORIGIN>DESTINATION; a second part lists node 0's own
messages hop by hop.  Everything is derived from tesearch.schedules.programs.schedule.program.
"""

from __future__ import annotations

import sys

from tesearch.schedules.programs.schedule import compile_schedule, program
from tesearch.tables.table import read_table

CELL = 11


def picture(path: str) -> str:
    """The picture of the ring table at ``path``."""
    schedule = compile_schedule(read_table(path))
    n = schedule.ranks
    letters = schedule.letters
    programs = [program(schedule, rank) for rank in range(n)]
    across = {}  # (node, next node) -> letter
    for rank in range(n):
        for k, letter in enumerate(letters):
            across[(rank, int(schedule.neighbours[rank][k]))] = letter
    if any((i, (i + 1) % n) not in across for i in range(n)):
        raise SystemExit("not a ring numbered in ring order")
    lines = [f"{schedule.table.network}: T = {schedule.steps}; links of each step, ORIGIN>DESTINATION on each",
             "direction (-> from the left node to the right one, <- back); node 0 appears at both ends", ""]
    top = "        " + "".join(f"{i:<3}{'--' + across[(i, (i + 1) % n)] + '--':^{CELL - 3}}" for i in range(n)) + "0"
    lines.append(top)
    for step in range(schedule.steps):
        right, left = [], []
        for i in range(n):
            j = (i + 1) % n
            sent = {(int(r[2]),): (int(r[3]), int(r[4])) for r in programs[i].at_step(programs[i].sends, step)}
            back = {(int(r[2]),): (int(r[3]), int(r[4])) for r in programs[j].at_step(programs[j].sends, step)}
            forward = sent.get((j,))
            backward = back.get((i,))
            right.append(f"{forward[0]}>{forward[1]} ->" if forward else "")
            left.append(f"<- {backward[0]}>{backward[1]}" if backward else "")
        lines.append(f"step {step:<3}" + "".join(f"{cell:^{CELL}}" for cell in right))
        lines.append("        " + "".join(f"{cell:^{CELL}}" for cell in left))
    lines += ["", "node 0's messages (table placement -> hops):"]
    table = schedule.table
    for placement in sorted(table.placements, key=lambda p: (p.column, p.row)):
        holder = 0
        path = []
        for j, letter in enumerate(placement.word):
            nxt = int(schedule.neighbours[holder][letters.index(letter)])
            path.append(f"step {placement.column + j}: {holder} -{letter}-> {nxt}")
            holder = nxt
        lines.append(f"  word {' '.join(placement.word):<6} row {placement.row} from column {placement.column}: "
                     f"0 -> {holder};  " + ", ".join(path))
    return "\n".join(lines)


if __name__ == "__main__":
    print(picture(sys.argv[1] if len(sys.argv) > 1 else "results/ring-6.json"))
