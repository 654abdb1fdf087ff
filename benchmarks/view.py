"""How large `tesearch view` pages are and how soon they become interactive, measured in headless Chromium.

    .venv/bin/python -m benchmarks.view                                   # star-5, star-7, star-8, hypercube-16
    .venv/bin/python -m benchmarks.view --report results/view.md
    .venv/bin/python -m benchmarks.view --only star-5 --screenshot docs/view-star-5.png

Per table: the seconds `build_page` takes (read, verify, rotation, arrays), the page's bytes and
gzipped bytes, and, over --loads page loads, the median time from navigation start to the moment the
page's script has drawn the first frame and attached its handlers (``tesearchView.interactiveAt``,
``performance.now()`` in the page), plus the median time of one redraw after a zoom
(``setView``). Needs Playwright and the system's Chromium (tesearch/tables/view/browser.py).
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scripts.markdown_report import Report

from tesearch.tables.view import browser
from tesearch.tables.view.page import build_page

ROOT = Path(__file__).resolve().parent.parent
TABLES = {
    "star-5": ROOT / "results" / "star-5.json",
    "star-7": ROOT / "results" / "frontier" / "star-7.json",
    "star-8": ROOT / "results" / "frontier" / "star-8.json",
    "hypercube-16": ROOT / "results" / "frontier" / "hypercube-16.json",
}
REDRAW = """() => { const v = window.tesearchView, times = [];
  for (const [s, z] of [[100, 8], [0, 30], [50, 2], [10, 0.5], [0, 20]]) {
    const t = performance.now(); v.setView(s, z); times.push(performance.now() - t); }
  times.sort((a, b) => a - b); return times[2]; }"""


def screenshot(chrome, page_path: Path, out: Path) -> None:
    """star-5's page as docs/view.md shows it: the core and the first blocks, one word selected, a tooltip."""
    page = chrome.new_page(viewport={"width": 1360, "height": 640}, device_scale_factor=1)
    page.goto(page_path.as_uri())
    page.wait_for_function("window.tesearchView && window.tesearchView.ready")
    page.evaluate("window.tesearchView.setView(0, 26)")
    for row, column in ((1, 17), (3, 6)):  # click one word, then hover a cell of the core
        rect = page.evaluate(f"window.tesearchView.cellRect({row}, {column}, 0)")
        page.mouse.move(rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2)
        if (row, column) == (1, 17):
            page.mouse.down()
            page.mouse.up()
    page.screenshot(path=str(out), full_page=True)
    page.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(TABLES), help="Only these tables (repeatable).")
    parser.add_argument("--loads", type=int, default=5, help="Page loads per table (the median is reported).")
    parser.add_argument("--report", default=None, help="Write the markdown table here too (results/view.md).")
    parser.add_argument("--screenshot", type=Path, default=None, help="Write star-5's page as a PNG here.")
    args = parser.parse_args()
    reason = browser.missing_browser()
    if reason:
        print(f"benchmarks/view.py: {reason}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    report = Report(args.report, "python -m " + " ".join(["benchmarks.view"] + sys.argv[1:]))
    report.line("| table | rows x columns | words | build s | page bytes | gzipped | interactive ms (median, range) | redraw ms |")
    report.line("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        chrome = browser.launch(playwright)
        for name in args.only or list(TABLES):
            started = time.perf_counter()
            html, (data,) = build_page(TABLES[name])
            built = time.perf_counter() - started
            path = Path(scratch) / f"{name}.html"
            path.write_text(html, encoding="utf-8")
            raw = path.stat().st_size
            packed = len(gzip.compress(html.encode("utf-8")))
            times, redraws = [], []
            for _ in range(args.loads):
                page = chrome.new_page(viewport={"width": 1400, "height": 900})
                page.goto(path.as_uri())
                page.wait_for_function("window.tesearchView && window.tesearchView.ready", timeout=60000)
                times.append(page.evaluate("window.tesearchView.interactiveAt"))
                redraws.append(page.evaluate(REDRAW))
                page.close()
            report.line(f"| {name} | {data['rows']} x {data['T']} | {data['words']} | {built:.2f} | {raw:,} | "
                        f"{packed:,} | {statistics.median(times):.0f} ({min(times):.0f}-{max(times):.0f}) | "
                        f"{statistics.median(redraws):.1f} |")
            if args.screenshot is not None and name == "star-5":
                screenshot(chrome, path, args.screenshot)
        chrome.close()
    report.line("")
    report.line("*interactive*: milliseconds from navigation start until the page's script has decoded the data, "
                "drawn the first frame and attached its handlers (`tesearchView.interactiveAt`, measured in the "
                "page with `performance.now()`), headless Chromium (Debian's) on a 1400 x 900 viewport, "
                "a file:// URL; *redraw*: the median of five `setView` calls (zoom and pan) after loading. "
                f"Load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}.")
    report.close()
    return 0


if __name__ == "__main__":
    from tesearch.running.errors import run_script

    run_script(main)
