"""tesearch view: the page's data (classes, elements, compact arrays), its refusals, and the page itself in a
real browser (headless Chromium via Playwright): pixels, hover, search, zoom, pan, blanks, compare.

The browser tests skip, with the reason, when Playwright or Chromium is missing; under CI=true they fail.
"""

import functools
import json
import os
import re
import warnings
from pathlib import Path

import pytest

from tesearch.running.errors import OptionError, SizeLimitError
from tesearch.schedules.programs.ranks import rank_numbering
from tesearch.tables.table import read_table
from tesearch.tables.view import browser
from tesearch.tables.view.data import MAX_CELLS, WordClass, unpacked
from tesearch.tables.view.page import build_page, viewed_table

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"


def cli(*args):
    return run_cli(*args, env={"TESEARCH_INLINE": "1"})


@functools.lru_cache(maxsize=None)
def built(name: str, compare: str | None = None, window: str | None = None):
    """build_page of results/NAME (once per test run: several tests read the same page)."""
    return build_page(RESULTS / name, compare=None if compare is None else RESULTS / compare, window=window)


def page_data(html: str) -> dict:
    raw = re.search(r'<script type="application/json" id="tesearch-data">(.*?)</script>', html, re.S).group(1)
    return json.loads(raw)


# ------------------------------------------------------------------ data, without a browser

def test_classes_follow_the_rotation_structure_of_star_5():
    html, (data,) = built("star-5.json")
    table = read_table(RESULTS / "star-5.json")
    word_class = unpacked(data["arrays"]["word_class"])
    column = unpacked(data["arrays"]["column"])
    core_end = next(s["end"] for s in table.extra["sections"] if s["name"] == "core")
    # every word in the rotation-block section is found to be in a block, and none in the core section
    assert set(word_class[column >= core_end]) == {WordClass.ROTATION_BLOCK}
    assert WordClass.ROTATION_BLOCK not in set(word_class[column < core_end])
    # the core holds the 7 exceptional elements and one filler orbit (['1'], 4 words)
    assert (word_class == WordClass.CORE).sum() == 7
    assert (word_class == WordClass.FILLER).sum() == 4
    size = unpacked(data["arrays"]["orbit_size"])
    assert (size[word_class == WordClass.CORE] < 4).all() and (size[word_class != WordClass.CORE] == 4).all()
    assert data["orbits"] == 33 and data["verdict"]["optimal"] and data["verdict"]["binding"] == "counting"


def test_elements_are_named_as_the_network_names_them():
    _, (data,) = build_page(RESULTS / "torus-4x4x8.json")
    assert data["element_kind"] == "coordinates" and data["element_dims"] == 3
    coordinates = unpacked(data["arrays"]["element"]).reshape(-1, 3)
    table = read_table(RESULTS / "torus-4x4x8.json")
    numbering = rank_numbering(viewed_table(RESULTS / "torus-4x4x8.json").network)
    graph = numbering.graph
    for i in (0, 17, 100):
        element = graph.element_of(table.placements[i].word)
        rank = int(numbering.rank_of_index[element])
        assert tuple(coordinates[i]) == numbering.coordinates(rank)
    _, (star,) = built("star-4.json")
    assert star["element_kind"] == "permutation"
    images = unpacked(star["arrays"]["element"]).reshape(-1, 4)
    # word "1" is the transposition of points 0 and 1
    first = read_table(RESULTS / "star-4.json").placements
    k = next(i for i, p in enumerate(first) if p.word == ("1",))
    assert tuple(images[k]) == (1, 0, 2, 3)


def test_twisted_torus_elements_are_coordinates():
    _, (data,) = build_page(RESULTS / "twisted" / "torus-8x4-twisted.json")
    coordinates = unpacked(data["arrays"]["element"]).reshape(-1, 2)
    assert sorted(map(tuple, coordinates)) == sorted((x, y) for x in range(8) for y in range(4) if (x, y) != (0, 0))
    table = read_table(RESULTS / "twisted" / "torus-8x4-twisted.json")
    k = next(i for i, p in enumerate(table.placements) if p.word == ("y+",))
    assert tuple(coordinates[k]) == (0, 1)


def test_the_page_is_self_contained():
    html, _ = built("ring-6.json")
    assert not re.search(r"""\b(src|href)\s*=|https?://|@import|url\(|fetch\(|XMLHttpRequest|import\(""", html)
    assert html.count("<script") == 2 and "tesearchView" in html


def test_too_many_cells_are_refused_with_the_figure(monkeypatch):
    assert MAX_CELLS == 1_000_000  # hypercube-17 (17 x 65536 = 1114112 cells) is refused without --window
    monkeypatch.setattr("tesearch.tables.view.data.MAX_CELLS", 400)
    with pytest.raises(SizeLimitError, match=r"4 rows x 111 columns = 444 cells, more than a page holds \(400\)"):
        build_page(RESULTS / "star-5.json")
    _, (data,) = built("star-5.json", window="10:100")
    assert data["cells"] == 360 and data["window"] == [10, 100]
    assert min(unpacked(data["arrays"]["column"]) + unpacked(data["arrays"]["length"])) > 10


def test_a_window_numbers_orbits_and_classes_as_the_full_page_does():
    """Issue 41: `view --window` numbered the orbits within the window ("orbit #0 of 1" where the full page says
    "#6 of 9"); the numbers, sizes, classes and the count are the whole table's now."""
    _, (whole,) = built("star-5.json")
    _, (part,) = built("star-5.json", window="40:60")

    def words(data):
        arrays = {k: unpacked(data["arrays"][k]) for k in ("row", "column", "orbit", "orbit_size", "word_class")}
        return {(int(r), int(c)): (int(o), int(n), int(w)) for r, c, o, n, w in
                zip(arrays["row"], arrays["column"], arrays["orbit"], arrays["orbit_size"], arrays["word_class"])}

    full, window = words(whole), words(part)
    assert 0 < len(window) < len(full) and part["orbits"] == whole["orbits"] == 33
    assert {key: full[key] for key in window} == window
    assert len({orbit for orbit, _, _ in window.values()}) < max(orbit for orbit, _, _ in window.values())


def test_cli_writes_a_page_and_refuses_bad_input(tmp_path):
    out = tmp_path / "star-4.html"
    done = cli("view", RESULTS / "star-4.json", "-o", out)
    assert done.exit_code == 0, done.output
    assert "star-4" in done.stdout and out.stat().st_size == int(re.search(r"(\d+) bytes", done.stdout).group(1))
    bad = json.loads((RESULTS / "star-4.json").read_text())
    bad["placements"][0][1] += 1
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    refused = cli("view", tmp_path / "bad.json", "-o", tmp_path / "bad.html")
    assert refused.exit_code == 2 and "does not verify" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and not (tmp_path / "bad.html").exists()
    with pytest.raises(OptionError, match="--compare"):
        build_page(RESULTS / "star-4.json", compare=RESULTS / "ring-6.json")


# ------------------------------------------------------------------ in the browser

@pytest.fixture(scope="module")
def chromium():
    reason = browser.missing_browser()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests need a browser under CI: {reason}")
        warnings.warn(f"tests/test_view.py browser tests skipped: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chrome = browser.launch(playwright)
        yield chrome
        chrome.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("view")
    out = {}
    for name, args in {"star-4": ("star-4.json",), "ring-6": ("ring-6.json",), "star-5": ("star-5.json",),
                       "compare": ("star-4.json", "--compare", "star-4.json")}.items():
        html, _ = built(args[0], args[2] if len(args) > 2 else None)
        path = folder / f"{name}.html"
        path.write_text(html)
        out[name] = path
    return out


def open_page(chromium, path, width=1200, height=1000):
    page = chromium.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(path.as_uri())
    page.wait_for_function("window.tesearchView && window.tesearchView.ready", timeout=20000)
    page.errors = errors
    return page


PIXELS = """(probes) => probes.map(([row, column, table, fx, fy, dx]) => {
  const r = window.tesearchView.cellRect(row, column, table);
  const canvas = document.querySelectorAll('canvas.main')[table];
  const x = Math.floor(r.canvasX + r.canvasWidth * fx + (dx || 0)), y = Math.floor(r.canvasY + r.canvasHeight * fy);
  const d = canvas.getContext('2d').getImageData(x, y, 1, 1).data;
  return '#' + [d[0], d[1], d[2]].map(v => v.toString(16).padStart(2, '0')).join('');
})"""


def pixels(page, probes):
    """The colour at each probe (row, column, table, fraction across, fraction down[, pixels right])."""
    return page.evaluate(PIXELS, [list(p) for p in probes])

CELL_PIXELS = """([row, column]) => {
  const r = window.tesearchView.cellRect(row, column, 0);
  const canvas = document.querySelector('canvas.main');
  const d = canvas.getContext('2d').getImageData(Math.ceil(r.canvasX) + 2, Math.ceil(r.canvasY) + 2,
      Math.floor(r.canvasWidth) - 4, Math.floor(r.canvasHeight) - 4).data;
  const out = {};
  for (let i = 0; i < d.length; i += 4) {
    const k = '#' + [d[i], d[i + 1], d[i + 2]].map(v => v.toString(16).padStart(2, '0')).join('');
    out[k] = (out[k] || 0) + 1;
  }
  return out;
}"""


def centre(page, row, column, table=0):
    rect = page.evaluate("([r, c, t]) => window.tesearchView.cellRect(r, c, t)", [row, column, table])
    return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2


@pytest.mark.parametrize("name", ["star-4", "ring-6"])
def test_the_canvas_draws_each_cell_in_its_letter_colour(chromium, pages, name):
    table = read_table(RESULTS / f"{name}.json")
    grid = table.grid()
    page = open_page(chromium, pages[name])
    page.evaluate("window.tesearchView.setView(0, 40)")
    palette = page.evaluate("window.tesearchView.palette()")
    cells = [(r, c) for r in range(table.rows) for c in range(table.T) if grid[r][c] is not None]
    seen = pixels(page, [(r, c, 0, 0.2, 0.25) for r, c in cells])
    for (row, column), colour in zip(cells, seen):
        assert colour == palette["letters"][grid[row][column]], (row, column, grid[row][column])
    assert not page.errors
    page.close()


def test_a_blank_is_drawn_as_a_blank(chromium, pages):
    page = open_page(chromium, pages["star-5"])
    page.evaluate("window.tesearchView.setView(0, 40)")
    palette = page.evaluate("window.tesearchView.palette()")
    letters = set(palette["letters"].values())
    for row, column in ((3, 0), (3, 9)):  # star-5's two blanks
        pixels = page.evaluate(CELL_PIXELS, [row, column])
        assert set(pixels) <= {palette["blank"], palette["hatch"]}, pixels
        assert pixels[palette["blank"]] > 0.6 * sum(pixels.values()) and pixels.get(palette["hatch"], 0) > 0
        assert not set(pixels) & letters
    filled = page.evaluate(CELL_PIXELS, [3, 1])
    assert max(filled, key=filled.get) in letters
    page.close()


def test_hover_shows_the_word_and_the_element(chromium, pages):
    table = read_table(RESULTS / "star-4.json")
    page = open_page(chromium, pages["star-4"])
    page.evaluate("window.tesearchView.setView(0, 40)")
    graph = viewed_table(RESULTS / "star-4.json").graph
    for placement in (table.placements[3], max(table.placements, key=lambda p: len(p.word))):
        column = placement.column + len(placement.word) - 1
        page.mouse.move(*centre(page, placement.row, column))
        text = page.evaluate("window.tesearchView.tooltipText()")
        images = tuple(int(x) for x in graph.elements[graph.element_of(placement.word)])
        assert f"row {placement.row} · column {column}" in text
        assert f"word {' '.join(placement.word)} · length {len(placement.word)} · starts at column {placement.column}" in text
        assert f"element ({', '.join(map(str, images))})" in text
        assert f"letter {placement.word[-1]}" in text
    page.mouse.move(*centre(page, 1, 7))  # star-4's blank
    assert "blank" in page.evaluate("window.tesearchView.tooltipText()")
    page.close()


def test_search_jumps_to_the_placement(chromium, pages):
    table = read_table(RESULTS / "star-5.json")
    graph = viewed_table(RESULTS / "star-5.json").graph
    target = max(table.placements, key=lambda p: p.column)  # far right: the view must move
    page = open_page(chromium, pages["star-5"])
    page.evaluate("window.tesearchView.setView(0, 30)")
    images = " ".join(str(int(x)) for x in graph.elements[graph.element_of(target.word)])
    page.fill("#search", images)
    page.press("#search", "Enter")
    chosen = page.evaluate("window.tesearchView.selected()")[0]
    assert (chosen["row"], chosen["column"], chosen["text"]) == (target.row, target.column, " ".join(target.word))
    seen = page.evaluate("window.tesearchView.visibleWindow()")
    assert seen["start"] <= target.column and target.column + len(target.word) <= seen["end"]
    assert "→ word" in page.inner_text("#search-result")
    # a word finds its placement too; nonsense finds nothing
    other = table.placements[5]
    page.evaluate("window.tesearchView.setView(100, 30)")
    found = page.evaluate("t => window.tesearchView.search(t)", "w:" + " ".join(other.word))
    assert (found[0]["row"], found[0]["column"]) == (other.row, other.column)
    assert page.evaluate("window.tesearchView.search('9 9 9 9 9')") is None
    page.close()


def test_zoom_and_pan_change_the_visible_window(chromium, pages):
    page = open_page(chromium, pages["star-5"])
    view = "window.tesearchView.visibleWindow()"
    page.evaluate("window.tesearchView.setView(20, 20)")
    before = page.evaluate(view)
    page.keyboard.press("+")
    zoomed = page.evaluate(view)
    assert zoomed["pxPerColumn"] > before["pxPerColumn"] and zoomed["end"] - zoomed["start"] < before["end"] - before["start"]
    page.keyboard.press("ArrowRight")
    panned = page.evaluate(view)
    assert panned["start"] > zoomed["start"]
    x, y = centre(page, 1, int(panned["start"]) + 5)
    page.mouse.move(x, y)
    page.mouse.wheel(0, 300)  # wheel down: zoom out around the cursor
    out = page.evaluate(view)
    assert out["pxPerColumn"] < panned["pxPerColumn"]
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 200, y, steps=5)  # drag left: later columns come into view
    page.mouse.up()
    dragged = page.evaluate(view)
    assert dragged["start"] == pytest.approx(out["start"] + 200 / out["pxPerColumn"], abs=0.5)
    page.keyboard.press("Home")
    assert page.evaluate(view)["start"] == 0
    page.keyboard.press("End")
    assert page.evaluate(view)["end"] == pytest.approx(111)
    page.close()


def test_click_highlights_the_whole_word_and_compare_follows_the_element(chromium, pages):
    table = read_table(RESULTS / "star-4.json")
    placement = max((p for p in table.placements if 0 < p.column and p.end < table.T), key=lambda p: len(p.word))
    page = open_page(chromium, pages["compare"])
    page.evaluate("window.tesearchView.setView(0, 40)")
    assert page.evaluate("window.tesearchView.tables") == 2
    page.mouse.click(*centre(page, placement.row, placement.column + 1, 1))  # in the lower table
    chosen = page.evaluate("window.tesearchView.selected()")
    assert [(c["row"], c["column"]) for c in chosen] == [(placement.row, placement.column)] * 2
    # the highlight's outline sits just outside the word's first and last cells, in both tables
    first, last = placement.column, placement.column + len(placement.word) - 1
    edges = pixels(page, [(placement.row, first, t, 0, 0.5, -2) for t in (0, 1)]
                   + [(placement.row, last, t, 1, 0.5, 1) for t in (0, 1)])
    assert set(edges) == {"#111827"}, edges
    page.keyboard.press("Escape")
    assert set(pixels(page, [(placement.row, first, t, 0, 0.5, -2) for t in (0, 1)])) != {"#111827"}
    page.mouse.move(*centre(page, placement.row, placement.column, 1))
    assert page.evaluate("window.tesearchView.tooltipText()").startswith("B · ")
    page.close()


def test_class_colours_mark_core_blocks_and_filler(chromium, pages):
    page = open_page(chromium, pages["star-5"])
    page.evaluate("window.tesearchView.setView(0, 40)")
    page.select_option("#colour-mode", "class")
    palette = page.evaluate("window.tesearchView.palette()")
    _, (data,) = built("star-5.json")
    word_class = unpacked(data["arrays"]["word_class"])
    rows, columns = unpacked(data["arrays"]["row"]), unpacked(data["arrays"]["column"])
    shown = [i for i in range(len(word_class)) if columns[i] < 25]
    seen = pixels(page, [(int(rows[i]), int(columns[i]), 0, 0.2, 0.25) for i in shown])
    for i, colour in zip(shown, seen):
        if True:
            allowed = {palette["classes"][word_class[i]]}
            if word_class[i] == WordClass.ROTATION_BLOCK:
                allowed.add(palette["blockAlt"])
            assert colour in allowed, (i, word_class[i], colour)
    page.close()


def test_the_overview_strip_moves_the_window(chromium, pages):
    page = open_page(chromium, pages["star-5"])
    page.evaluate("window.tesearchView.setView(0, 40)")
    box = page.locator("canvas.overview").bounding_box()
    label = 58  # the row-label gutter (LABEL_W in view.js)
    page.mouse.click(box["x"] + label + 0.75 * (box["width"] - label), box["y"] + box["height"] / 2)
    seen = page.evaluate("window.tesearchView.visibleWindow()")
    assert (seen["start"] + seen["end"]) / 2 == pytest.approx(0.75 * 111, abs=1.5) or seen["end"] == pytest.approx(111)
    assert seen["start"] > 30
    page.close()


@pytest.mark.slow
def test_star_8_page_becomes_interactive(chromium, tmp_path):
    """star-8's page (40135 x 7 cells) loads, reports when it became interactive, and hover works at its far end."""
    html, (data,) = build_page(RESULTS / "frontier" / "star-8.json")
    path = tmp_path / "star-8.html"
    path.write_text(html)
    assert path.stat().st_size < 4_000_000
    page = open_page(chromium, path)
    assert page.evaluate("window.tesearchView.interactiveAt") > 0
    for _ in range(16):
        page.keyboard.press("+")
    page.keyboard.press("End")
    seen = page.evaluate("window.tesearchView.visibleWindow()")
    assert seen["end"] == pytest.approx(40135) and seen["pxPerColumn"] > 10
    table = read_table(RESULTS / "frontier" / "star-8.json")
    last = max(table.placements, key=lambda p: p.end)
    page.mouse.move(*centre(page, last.row, last.end - 1))
    assert f"word {' '.join(last.word)}" in page.evaluate("window.tesearchView.tooltipText()")
    assert not page.errors
    page.close()


def test_a_window_page_holds_only_its_columns(chromium, tmp_path):
    html, _ = built("star-5.json", window="10:100")
    path = tmp_path / "window.html"
    path.write_text(html)
    page = open_page(chromium, path)
    page.evaluate("window.tesearchView.setView(0, 40)")  # asked for column 0: the page starts at 10
    seen = page.evaluate("window.tesearchView.visibleWindow()")
    assert seen["start"] == 10
    assert page.evaluate("window.tesearchView.cellRect(0, 5, 0)") is None
    grid = read_table(RESULTS / "star-5.json").grid()
    palette = page.evaluate("window.tesearchView.palette()")
    assert pixels(page, [(r, 10, 0, 0.2, 0.25) for r in range(4)]) == [palette["letters"][grid[r][10]] for r in range(4)]
    page.mouse.move(*centre(page, 2, 10))
    assert "row 2 · column 10" in page.evaluate("window.tesearchView.tooltipText()")
    page.keyboard.press("End")
    assert page.evaluate("window.tesearchView.visibleWindow()")["end"] == 100
    page.close()


def test_compare_shows_which_words_moved(chromium, tmp_path):
    """star-4 against itself with rows 0 and 1 swapped (still valid): in the changes mode, row 2's words are
    grey in both tables and rows 0 and 1 keep their letter colours."""
    data = json.loads((RESULTS / "star-4.json").read_text())
    data["placements"] = [[{0: 1, 1: 0}.get(r, r), c, w] for r, c, w in data["placements"]]
    swapped = tmp_path / "swapped.json"
    swapped.write_text(json.dumps(data))
    html, _ = build_page(RESULTS / "star-4.json", compare=swapped)
    path = tmp_path / "compare.html"
    path.write_text(html)
    page = open_page(chromium, path)
    page.evaluate("window.tesearchView.setView(0, 40)")
    page.select_option("#colour-mode", "diff")
    palette = page.evaluate("window.tesearchView.palette()")
    for table, source in ((0, RESULTS / "star-4.json"), (1, swapped)):
        grid = read_table(source).grid()
        cells = [(r, c) for r in range(3) for c in range(21) if grid[r][c] is not None]
        seen = pixels(page, [(r, c, table, 0.2, 0.25) for r, c in cells])
        for (r, c), colour in zip(cells, seen):
            if r == 2:
                assert colour == palette["unchanged"], (table, r, c)
            else:
                assert colour in palette["letters"].values(), (table, r, c)
    page.close()
