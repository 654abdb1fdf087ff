"""What the runs of one size say: each family's best only when the family is complete, and what the table contributes.

A family's comparison is **complete** when every contender of it has a simulated time, does not apply, failed in
SimGrid, or was stopped once its simulated time had passed the family's best (:class:`RunStatus`); a run cut by the
wall clock without such a bound leaves the family incomplete, and then no best, ratio or crossover is stated.
"""

from __future__ import annotations

import enum

from tesearch.running.limits import format_bytes
from tesearch.schedules.simulate.lineup import ContenderFamily


def size_label(size: int) -> str:
    """8 B, 4 KiB, 64 KiB, 1 MiB."""
    return format_bytes(size)


class RunStatus(str, enum.Enum):
    """How one contender's run at one size ended."""

    OK = "ok"
    NOT_APPLICABLE = "not applicable"  # SimGrid refuses the algorithm for this rank count
    FAILED = "failed"  # SimGrid crashed or ran out of memory
    CANNOT_BE_BEST = "cannot be best"  # stopped once its simulated time passed its family's best
    TOO_SLOW = "too slow"  # its wall-clock budget ran out first: no time, no bound above the best
    NOT_RUN = "not run"  # the study's --budget was spent, or it was too slow at a smaller size

    @property
    def settles(self) -> bool:
        """Whether the run needs no more for its family's comparison to be complete."""
        return self is not RunStatus.TOO_SLOW and self is not RunStatus.NOT_RUN



def family_summary(runs: list[dict], family: ContenderFamily) -> dict:
    """The best of one family at one size, and whether its comparison is complete."""
    members = [r for r in runs if r["family"] == family.value]
    done = [r for r in members if r["status"] == RunStatus.OK.value]
    missing = [r["contender"] for r in members if not RunStatus(r["status"]).settles]
    best = min(done, key=lambda r: r["seconds"], default=None)
    summary = {"family": family.value, "contenders": len(members), "timed": len(done), "complete": not missing,
               "missing": missing,
               "not_compared": sorted(r["contender"] for r in members if r["status"] in
                                      (RunStatus.FAILED.value, RunStatus.NOT_APPLICABLE.value))}
    if best is not None:
        summary["best"] = {"contender": best["contender"], "seconds": best["seconds"]}
    return summary


def _ratio(runs: dict[str, dict], slower: str, faster: str) -> float | None:
    a, b = runs.get(slower), runs.get(faster)
    if not a or not b or a["status"] != RunStatus.OK.value or b["status"] != RunStatus.OK.value:
        return None
    return a["seconds"] / b["seconds"]


def attribution(runs: list[dict]) -> dict:
    """What the table itself contributes at one size (None where a run is missing).

    * ``optimality``: each non-optimal table's time over the optimal table's, under the executors that keep a
      table's timing (step; dataflow K=1 W=1): above 1, the optimal table is faster by that factor;
    * ``words``: under the combined executor with balanced supersteps, the naive-word tables' paths over the
      optimal table's;
    * ``table_vs_table_free``: the best table-based time over the best table-free time (above 1: a table-free
      algorithm is faster).
    """
    by_name = {r["contender"]: r for r in runs}
    optimality, words = {}, {}
    for name, run in by_name.items():
        if run["family"] != ContenderFamily.NONOPTIMAL.value:
            continue
        base, _, executor = name.rpartition(" (")
        executor = executor.rstrip(")")
        if base.endswith(": balanced supersteps"):
            value = _ratio(by_name, name, "table: balanced supersteps (combined)")
            if value is not None and "widened" not in base:
                words[base.removesuffix(": balanced supersteps")] = value
        elif executor in ("step", "dataflow K=1 W=1"):
            value = _ratio(by_name, name, f"table ({executor})")
            if value is not None:
                optimality[f"{base} ({executor})"] = value
    table = family_summary(runs, ContenderFamily.TABLE)
    free = family_summary(runs, ContenderFamily.TABLE_FREE)
    versus = None
    if table.get("best") and free.get("best") and table["complete"] and free["complete"]:
        versus = table["best"]["seconds"] / free["best"]["seconds"]
    return {"optimality": optimality, "words": words, "table_vs_table_free": versus}


def summarise_size(size: int, runs: list[dict], bound_s: float, idle_rss_bytes: int, ranks: int) -> dict:
    """One size: every run's multiple of the bound and memory, each family's best (when complete), the ratios."""
    for run in runs:
        if run["status"] == RunStatus.OK.value:
            run["multiple_of_bound"] = run["seconds"] / bound_s if bound_s > 0 else None
        if run.get("peak_rss_bytes") and idle_rss_bytes:
            run["rss_above_idle_per_rank"] = max(0, run["peak_rss_bytes"] - idle_rss_bytes) // ranks
    families = {f.value: family_summary(runs, f) for f in ContenderFamily}
    summary = {"bytes": size, "bound_s": bound_s, "runs": runs, "families": families,
               "attribution": attribution(runs)}
    ours = [families[ContenderFamily.TABLE.value], families[ContenderFamily.TABLE_FREE.value]]
    mpi = families[ContenderFamily.MPI.value]
    summary["complete"] = all(f["complete"] for f in families.values() if f["contenders"])
    for name, family in (("table", families[ContenderFamily.TABLE.value]), ("table_free", families[ContenderFamily.TABLE_FREE.value])):
        if mpi.get("best") and family.get("best") and mpi["complete"] and family["complete"]:
            summary[f"mpi_over_{name}"] = mpi["best"]["seconds"] / family["best"]["seconds"]
    if all(f.get("best") and f["complete"] for f in ours) and mpi.get("best") and mpi["complete"]:
        best_ours = min((f["best"] for f in ours), key=lambda b: b["seconds"])
        summary["winner"] = best_ours["contender"] if best_ours["seconds"] < mpi["best"]["seconds"] \
            else mpi["best"]["contender"]
        summary["winner_family"] = "schedule" if best_ours["seconds"] < mpi["best"]["seconds"] else "MPI"
    return summary


def crossover(per_size: list[dict]) -> dict:
    """Where the winner between the best schedule (table-based or table-free) and the best MPI algorithm changes,
    over the sizes where every family's comparison is complete; incomplete sizes are named, never guessed."""
    incomplete = [s["bytes"] for s in per_size if "winner_family" not in s]
    decided = [s for s in per_size if "winner_family" in s]
    note = (f"; incomplete at {', '.join(size_label(b) for b in incomplete)} (a contender without a time)"
            if incomplete else "")
    if not decided:
        return {"found": False, "incomplete": incomplete,
                "text": "no size has a complete comparison" + (f" (incomplete at "
                                                              f"{', '.join(size_label(b) for b in incomplete)})"
                                                              if incomplete else "")}
    schedule_from = None
    for s in reversed(decided):
        if s["winner_family"] != "schedule":
            break
        schedule_from = s
    if schedule_from is None:
        return {"found": False, "incomplete": incomplete, "mpi_wins_up_to": decided[-1]["bytes"],
                "text": f"an MPI algorithm wins at every size with a complete comparison (up to "
                        f"{size_label(decided[-1]['bytes'])}: {decided[-1]['winner']}){note}"}
    below = [s for s in decided if s["winner_family"] == "MPI" and s["bytes"] < schedule_from["bytes"]]
    if not below:
        return {"found": False, "incomplete": incomplete, "schedule_wins_from": schedule_from["bytes"],
                "text": f"a schedule wins at every size with a complete comparison (from "
                        f"{size_label(schedule_from['bytes'])}){note}"}
    last = below[-1]
    return {"found": True, "incomplete": incomplete, "mpi_wins_up_to": last["bytes"], "mpi_winner": last["winner"],
            "schedule_wins_from": schedule_from["bytes"],
            "text": f"between {size_label(last['bytes'])} and {size_label(schedule_from['bytes'])}: below, "
                    f"{last['winner']} wins; from {size_label(schedule_from['bytes'])} on, a schedule wins{note}"}


def regular_over_twisted(regular: dict, twisted: dict) -> dict[int, dict]:
    """The regular torus's simulated time over the twisted one's, per size both reports measured, for each family's
    best (None unless both sides have a complete comparison), and the two bests' names (``"<family> contenders"``:
    regular, twisted)."""
    gains = {}
    for sa in regular["sizes"]:
        sb = next((s for s in twisted["sizes"] if s["bytes"] == sa["bytes"]), None)
        if sb is None:
            continue
        entry = {}
        for family in (ContenderFamily.TABLE, ContenderFamily.TABLE_FREE, ContenderFamily.MPI):
            fa, fb = sa["families"].get(family.value, {}), sb["families"].get(family.value, {})
            both = fa.get("best") and fb.get("best") and fa.get("complete") and fb.get("complete")
            entry[family.value] = fa["best"]["seconds"] / fb["best"]["seconds"] if both else None
            entry[f"{family.value} contenders"] = (fa["best"]["contender"], fb["best"]["contender"]) if both else None
        gains[sa["bytes"]] = entry
    return gains
