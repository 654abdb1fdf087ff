"""The text report of a ``tesearch simulate`` study (the JSON report is :func:`tesearch.simulate.study.simulate`'s)."""

from __future__ import annotations

from tesearch.simulate.study import CHECK_BYTES, size_label


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.4g} {unit}"
    return f"{seconds * 1e9:.4g} ns"


def report_text(report: dict) -> str:
    """The report for people: per size every contender's time and multiple of the bound, the winner, the
    crossover."""
    lines = [f"{report['network']}: {report['ranks']} ranks, {report['links']} directed links, T = {report['T']} "
             f"steps (lower bound {report['bound_steps']}); model {report['model']}, "
             f"{report['bandwidth_Bps'] / 1e9:g} GB/s and {report['latency_s'] * 1e6:g} us per link"]
    check = report["check"]
    if not check["ok"]:
        lines.append(f"check: FAULT: {check['fault_count']} fault(s) in the table's programs")
        lines += [f"  {f['kind']}: {f['detail']}" for f in check["faults"][:10]]
        return "\n".join(lines)
    lines.append(f"check: every rank received every block its origin sent, at the step its program says "
                 f"({CHECK_BYTES}-byte blocks)")
    for combined in report.get("combined", []):
        lines.append(f"{combined['contender']}: {combined['supersteps']} supersteps for {report['T']} steps; the "
                     f"largest bundles add up to {combined['bundle_sum']} blocks (at least {combined['bundle_floor']}), "
                     f"at most {combined['largest_bundle']} in one message")
    for size in report["sizes"]:
        lines.append("")
        lines.append(f"{size_label(size['bytes'])} blocks: link-time bound {_time(size['bound_s'])} "
                     f"({report['bound_steps']} x {size_label(size['bytes'])} / bandwidth; every routing: "
                     f">= {_time(size['counting_bound_s'])})")
        for run in sorted(size["runs"], key=lambda r: (r["status"] != "ok", r.get("seconds", 0))):
            if run["status"] == "ok":
                check_note = "" if run["checked"] else "  (shared buffers, contents not compared)"
                bad = f"  {run['mismatches']} BLOCK(S) DIFFER" if run.get("mismatches") else ""
                lines.append(f"  {run['contender']:34s} {_time(run['seconds']):>10s}  "
                             f"{run['multiple_of_bound']:7.2f}x bound{check_note}{bad}")
            else:
                lines.append(f"  {run['contender']:34s} {run['status']}: {run.get('reason', '')}")
        if size.get("best_mpi") and size.get("best_table"):
            lines.append(f"  best MPI: {size['best_mpi']['contender']}; best table: {size['best_table']['contender']}; "
                         f"best MPI / table = {size['ratio_best_mpi_to_table']:.2f}")
    lines.append("")
    lines.append(f"crossover: {report['crossover']['text']}")
    if "trace" in report:
        lines.append(f"trace: {report['trace_note']}" if "trace_note" in report else "trace: written")
    return "\n".join(lines)
