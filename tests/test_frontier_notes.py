"""results/frontier.md's dated sections (docs/notes/frontier.md) against the newest figures (issue 47, item 4).

scripts/frontier.py refuses to write the report while a note claims a bound or best width of an open case that is
not its newest figure without saying what stands now ("now N").
"""

from __future__ import annotations

import pytest

from scripts import frontier

FIGURES = {"pancake-6": {"bound": 660, "best": 710}, "torus-12x12x24:twisted": {"bound": 6036, "best": 6039}}


def test_the_committed_notes_say_the_newest_figures():
    figures = frontier.newest_figures()
    assert figures["pancake-6"]["bound"] == 660  # the word-choice certificate's parity bound, not the LP's 659
    assert frontier.stale_claims("\n".join(frontier.notes()), figures) == []


@pytest.mark.parametrize("text", [
    "- **pancake-6** (bound 659, best **710**, was 713; open)",
    "- pancake-6: best known T = 713, nothing refuted",
    "  *pancake-6 (710 against 659)*: open",
    "- twisted 12x12x24: best T = 6040 after the lane core",
])
def test_a_stale_figure_is_named(text):
    problems = frontier.stale_claims(text, FIGURES)
    assert len(problems) == 1 and "newest figure" in problems[0]


@pytest.mark.parametrize("text", [
    "- **pancake-6** (bound 659 then, now 660; best **710**, was 713; open)",
    "- pancake-6: the bound rises from 659 to 660; best 710",
    "- pancake-6 (710 against 659, now 660: Frontier IV) and bubblesort-6 (bound 1128)",
    "- lifts the bound of pancake-6 659 -> 660",
])
def test_a_historic_figure_beside_the_newest_passes(text):
    assert frontier.stale_claims(text, FIGURES) == []


def test_the_report_is_not_written_over_stale_notes(monkeypatch, tmp_path):
    monkeypatch.setattr(frontier, "notes", lambda: ["- pancake-6 (bound 659, best 710)"])
    monkeypatch.setattr(frontier, "ROOT", tmp_path)
    with pytest.raises(SystemExit, match="pancake-6: the notes say bound 659, the newest figure is 660"):
        frontier.write_report()
    assert not (tmp_path / "results" / "frontier.md").exists()


def test_the_report_lists_every_campaign_run():
    """results/frontier.md's core campaigns: one row per recorded run of each record, in order."""
    import json

    lines = frontier.campaign_section()
    for record, _ in frontier.CAMPAIGNS:
        runs = json.loads((frontier.ROOT / record).read_text())
        rows = [line for line in lines if f"({record}) |" in line]
        assert [row.split(" | ")[1] for row in rows] == [str(k) for k in range(1, len(runs) + 1)]
        assert all(str(run.get("solve_seconds", run.get("seconds"))) in row for run, row in zip(runs, rows))


def test_the_report_gives_each_campaigns_hours(monkeypatch, tmp_path):
    """Each core campaign's hours in all, summed over its runs (wall clock where recorded, else the solve time)."""
    import json

    (tmp_path / "a.json").write_text(json.dumps([{"width": 5, "wall_seconds": 3600, "command": "x"},
                                                 {"width": 5, "seconds": 1800, "command": "x"}]))
    (tmp_path / "b.json").write_text("[]")
    monkeypatch.setattr(frontier, "ROOT", tmp_path)
    monkeypatch.setattr(frontier, "CAMPAIGNS", (("a.json", "A"), ("b.json", "B")))
    monkeypatch.setattr(frontier, "current", lambda command: command)
    last = frontier.campaign_section()[-1]
    assert "a.json: 2 runs, 1.50 h in all" in last and "b.json: 0 runs, 0.00 h in all" in last


def test_the_hand_written_tables_of_best_widths_say_the_newest_figures():
    """results/README.md's "best known" table said bubblesort-5 165, pancake-6 710 and bubblesort-6 1303 for a session
    after the ejection search had made 158, 679 and 1204: no clause check saw a table row."""
    from pathlib import Path

    root = Path(frontier.__file__).resolve().parent.parent
    figures = frontier.newest_figures()
    for name in ("results/README.md", "README.md"):
        assert frontier.stale_table_rows((root / name).read_text(), figures) == [], name


def test_a_stale_table_row_is_named():
    text = "| network | T | bound | method |\n|---|---|---|---|\n| pancake-6 | 713 | 660 | repack |\n\nAfter."
    assert frontier.stale_table_rows(text, FIGURES) == ["pancake-6: the table says best 713, the newest figure is 710"]
    assert frontier.stale_table_rows(text.replace("713", "710"), FIGURES) == []
