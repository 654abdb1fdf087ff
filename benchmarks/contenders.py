"""Build every contender of tesearch/schedules/contenders/ on the simulate study's networks; print their superstep figures.

    .venv/bin/python -m benchmarks.contenders                                   # the nine networks
    .venv/bin/python -m benchmarks.contenders --only hypercube-7 torus-4x4x8
    .venv/bin/python -m benchmarks.contenders --report results/contenders.md

Per network (its committed optimal table as the subject) and contender: S (active supersteps, or the steps of a
table's own timing), B (bundle sum: the sum over steps of the most hops one letter takes there), the floors D (the
diameter, floor of S) and P (the per-letter bound, floor of B for every choice of shortest words), F (the most-used
letter's count in the contender's words, floor of B for those words), the largest bundle, the held-blocks peaks
(blocks a node holds between two steps; of them, blocks held through a whole step), the build time, and the
verdict of tesearch.schedules.contenders.optimum.assess: "optimal in the superstep model" only when S = D and B = P.
Every schedule passes HopSchedule.check() before it is measured.
"""

from __future__ import annotations

import argparse
import time

from scripts.markdown_report import Report

from tesearch.schedules.contenders import contenders_for, subject_of
from tesearch.tables.table import read_table

#: the simulate study's networks and their committed tables
STUDY = {
    "hypercube-7": "results/hypercube-7.json",
    "torus-8x8": "results/torus-8x8.json",
    "torus-4x4x8": "results/torus-4x4x8.json",
    "torus-4x4x8:twisted": "results/twisted/torus-4x4x8-twisted.json",
    "star-5": "results/star-5.json",
    "torus-4x8x8": "results/frontier/torus-4x8x8.json",
    "torus-4x8x8:twisted": "results/twisted/torus-4x8x8-twisted.json",
    "star-6": "results/star-6.json",
    "torus-8x8x16:twisted": "results/twisted/torus-8x8x16-twisted.json",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", default=None, metavar="NETWORK", help="these study networks only")
    parser.add_argument("--report", default=None, metavar="FILE", help="also write the tables to FILE (results/contenders.md)")
    args = parser.parse_args()
    names = args.only or list(STUDY)
    command = "python -m benchmarks.contenders" + (f" --only {' '.join(args.only)}" if args.only else "") \
        + (f" --report {args.report}" if args.report else "")
    out = Report(args.report, command)
    optimum_rows = []
    failures = 0
    for spec in names:
        started = time.perf_counter()
        subject = subject_of(spec, table=read_table(STUDY[spec]))
        facts = subject.facts
        out.line(f"## {spec}")
        out.line("")
        out.line(f"{subject.graph.order} nodes, {subject.graph.degree} letters, diameter D = {subject.diameter}, "
                 f"per-letter bound P = {subject.letter_bound} ({facts.bounds.letter.method}; exact: "
                 f"{facts.bounds.letter.exact}), table T = {subject.table.T} ({STUDY[spec]}); subject built in "
                 f"{time.perf_counter() - started:.1f} s")
        out.line("")
        out.line("| contender | category | width | S | B | D | P | F | largest bundle | held peak | waiting peak | build s "
                 "| verdict |")
        out.line("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for entry in contenders_for(subject):
            try:
                built = entry.build(subject)
            except Exception as error:  # a benchmark reports every failure and goes on
                failures += 1
                out.line(f"| {entry.name} | {entry.category.value} | FAILED: {type(error).__name__}: {error} |"
                         " | | | | | | | | | |")
                continue
            s, st = built.schedule, built.standing
            verdict = st.verdict + (f"; {built.note}" if built.note and built.note != "not needed" else "")
            out.line(f"| {entry.name} | {entry.category.value} | {s.width} | {st.supersteps} | {st.bundle_sum} | {st.diameter} | "
                     f"{st.letter_bound} | {st.words_floor} | {s.largest_bundle} | {built.held.peak} | "
                     f"{built.held.peak_waiting} | {built.seconds:.2f} | {verdict} |")
            if entry.name in ("superstep optimum", "table: superstep optimum"):
                optimum_rows.append((spec, entry.name, st, built.seconds, built.note))
        out.line("")
    out.line("## Superstep optimum (S = D and B = P)")
    out.line("")
    out.line("| network | schedule | S | D | B | P | F | verdict | build s | solver |")
    out.line("|---|---|---|---|---|---|---|---|---|---|")
    for spec, name, st, seconds, note in optimum_rows:
        out.line(f"| {spec} | {name} | {st.supersteps} | {st.diameter} | {st.bundle_sum} | {st.letter_bound} | "
                 f"{st.words_floor} | {st.verdict} | {seconds:.2f} | {note} |")
    out.line("")
    out.line("width: steps from the first to the last (a table's T); S: active supersteps (a table's own timing: its "
             "nonempty steps); B: bundle sum, in blocks; D: diameter; "
             "P: per-letter bound; F: the most-used letter's count in these words. 'optimal in the superstep model' "
             "is the theorem of docs/simulate.md, 'The superstep model' (S >= D and B >= F >= P for every schedule of "
             "node-invariant shortest words). held peak: the most blocks a node holds between two steps (arrived, "
             "not yet forwarded); waiting peak: of them, the most held through a whole step "
             "(tesearch/schedules/contenders/memory.py). Build times: wall clock on a shared 2-core machine.")
    out.close()
    return 1 if failures else 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
