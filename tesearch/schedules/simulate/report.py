"""The text report of a ``tesearch simulate`` study (the JSON report is :func:`tesearch.schedules.simulate.study.simulate`'s)."""

from __future__ import annotations

from tesearch.running.limits import format_bytes
from tesearch.schedules.simulate.lineup import ContenderFamily
from tesearch.schedules.simulate.study import CHECK_BYTES, size_label


def time_label(seconds: float) -> str:
    """A simulated time for people: 1.205 ms, 541.5 us."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.4g} {unit}"
    return f"{seconds * 1e9:.4g} ns"


def _memory(run: dict) -> str:
    parts = []
    if "held_bytes" in run:
        parts.append(f"holds {format_bytes(run['held_bytes'])}")
    if run.get("rss_above_idle_per_rank") is not None:
        parts.append(f"simulator +{format_bytes(run['rss_above_idle_per_rank'])}/rank")
    return ("  [" + ", ".join(parts) + "]") if parts else ""


def _family_line(label: str, family: dict) -> str:
    if not family["contenders"]:
        return f"  best {label}: none run"
    if not family["complete"]:
        return (f"  best {label}: INCOMPLETE, no time for {', '.join(family['missing'])}"
                + (f" (fastest timed: {family['best']['contender']}, {time_label(family['best']['seconds'])})"
                   if family.get("best") else ""))
    if not family.get("best"):
        return f"  best {label}: none finished"
    excluded = f" (not compared: {', '.join(family['not_compared'])})" if family["not_compared"] else ""
    return f"  best {label}: {family['best']['contender']}, {time_label(family['best']['seconds'])}{excluded}"


def report_text(report: dict) -> str:
    """The report for people: per size every contender's time, multiple of the bound and memory, each family's best
    (or why it is incomplete), what the table contributes, the crossover."""
    lines = [f"{report['network']}: {report['ranks']} ranks, {report['links']} directed links, T = {report['T']} "
             f"steps (lower bound {report['bound_steps']}); model {report['model']}, "
             f"{report['bandwidth_Bps'] / 1e9:g} GB/s and {report['latency_s'] * 1e6:g} us per link"]
    failed = [c for c in report["checks"] if not c["ok"]]
    if failed:
        for check in failed:
            lines.append(f"check of {check['schedule']}: FAULT: {check['fault_count']} fault(s) in its programs")
            lines += [f"  {f['kind']}: {f['detail']}" for f in check["faults"][:10]]
        return "\n".join(lines)
    lines.append(f"check: every schedule's programs delivered every block at the step they say "
                 f"({len(report['checks'])} schedules, {CHECK_BYTES}-byte blocks)")
    for built in report.get("schedules", []):
        lines.append(f"  {built['contender']}: {built['active_steps']} steps, bundle sum {built['bundle_sum']}, "
                     f"largest bundle {built['largest_bundle']}"
                     + (f"; {built['standing']['verdict']}" if built.get("standing") else ""))
    lines += [f"  left out {entry}" for entry in report.get("left_out", [])]
    for size in report["sizes"]:
        lines.append("")
        lines.append(f"{size_label(size['bytes'])} blocks: link-time bound {time_label(size['bound_s'])} "
                     f"({report['bound_steps']} x {size_label(size['bytes'])} / bandwidth; every routing: "
                     f">= {time_label(size['counting_bound_s'])})")
        for run in sorted(size["runs"], key=lambda r: (r["status"] != "ok", r.get("seconds", 0))):
            if run["status"] == "ok":
                check_note = "" if run["checked"] else "  (shared buffers)"
                bad = f"  {run['mismatches']} BLOCK(S) DIFFER" if run.get("mismatches") else ""
                lines.append(f"  {run['contender']:52s} {time_label(run['seconds']):>10s}  "
                             f"{run['multiple_of_bound']:6.2f}x bound{_memory(run)}{check_note}{bad}")
            else:
                lines.append(f"  {run['contender']:52s} {run['status']}: {run.get('reason', '')}")
        families = size["families"]
        lines.append(_family_line("table-based", families[ContenderFamily.TABLE.value]))
        lines.append(_family_line("table-free", families[ContenderFamily.TABLE_FREE.value]))
        lines.append(_family_line("MPI", families[ContenderFamily.MPI.value]))
        credit = size["attribution"]
        if credit["table_vs_table_free"] is not None:
            lines.append(f"  best table-based / best table-free = {credit['table_vs_table_free']:.3f}")
        for name, value in sorted(credit["optimality"].items()):
            lines.append(f"  optimality: {name} takes {value:.3f}x the optimal table's time under the same executor")
        for name, value in sorted(credit["words"].items()):
            lines.append(f"  words: the {name}'s words in balanced supersteps take {value:.3f}x the table's")
        for key, label in (("mpi_over_table", "table-based"), ("mpi_over_table_free", "table-free")):
            if key in size:
                lines.append(f"  best MPI / best {label} = {size[key]:.3f}")
    lines.append("")
    lines.append(f"crossover: {report['crossover']['text']}")
    if "trace" in report:
        lines.append(f"trace: {report['trace_note']}" if "trace_note" in report else "trace: written")
    return "\n".join(lines)
