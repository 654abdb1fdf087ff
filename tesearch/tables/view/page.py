"""The view page: one HTML file with the data, script and style inlined (nothing fetched, opens offline).

:func:`viewed_table` is the one place a view reads and verifies its table (a table that fails
verification is bad input: one line, exit 2); :func:`write_page` the one place it writes
(atomically).  The page's script (``assets/view.js``) draws on a canvas and exposes
``window.tesearchView`` for tests (``cellAt``, ``cellRect``, ``visibleWindow``, ``colourAt``...).
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tesearch.tables.draw import parse_window
from tesearch.running.errors import OptionError
from tesearch.running.files import HTML_KIND, check_output, write_output
from tesearch.networks.groups import CayleyGraph, cached_cayley_graph
from tesearch.networks.families import Network
from tesearch.networks.rotation import Rotation, find_rotation
from tesearch.tables.segment import segmented
from tesearch.tables.table import Table
from tesearch.tables.verify import Verification
from tesearch.tables.view.data import view_data, window_cells

#: the placeholders of assets/page.html
_SLOTS = ("/*STYLE*/", "/*SCRIPT*/", "/*DATA*/", "<!--TITLE-->")


@dataclass(eq=False)
class ViewedTable:
    """A table read from a file, verified, with its network, Cayley graph and rotation."""

    path: Path
    table: Table
    window: tuple[int, int] | None
    verification: Verification
    network: Network
    graph: CayleyGraph
    rotation: Rotation | None


def viewed_table(path: str | Path, *, command: str = "view", window: str | None = None) -> ViewedTable:
    """Read and verify the table at ``path``; a table that fails verification is a :class:`FormatError`.

    ``window`` (``START:END``) is checked against the table, and the page's size limit
    (:data:`tesearch.tables.view.data.MAX_CELLS`) applied, before the table is verified.
    (The one place tesearch.tables.view reads tables: through the checked loader, tesearch.tables.loading.load_checked.)
    """
    from tesearch.tables.loading import load_checked

    holder = {}

    def within_limits(table: Table) -> None:
        holder["columns"] = parse_window(window, table.T)
        window_cells(table, holder["columns"])

    loaded = load_checked(path, command=command, segmenter=segmented, precheck=within_limits)
    graph = cached_cayley_graph(loaded.network)
    return ViewedTable(loaded.path, loaded.table, holder["columns"], loaded.check, loaded.network, graph,
                        find_rotation(graph))


def _asset(name: str) -> str:
    return resources.files("tesearch.tables.view").joinpath("assets", name).read_text(encoding="utf-8")


def page_html(datasets: list[dict], title: str) -> str:
    """The page for one or two tables' data (:func:`tesearch.tables.view.data.view_data`)."""
    template = _asset("page.html")
    for slot in _SLOTS:
        if slot not in template:
            raise RuntimeError(f"assets/page.html has no {slot}")
    # no '<' inside the inlined JSON (only strings can hold one: escaped), so no data ends the script early
    data = json.dumps({"tables": datasets}, separators=(",", ":")).replace("<", "\\u003c")
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (template.replace("/*STYLE*/", _asset("view.css"))
            .replace("/*SCRIPT*/", _asset("view.js"))
            .replace("<!--TITLE-->", escaped)
            .replace("/*DATA*/", data))


def build_page(table_path: str | Path, *, compare: str | Path | None = None,
               window: str | None = None) -> tuple[str, list[dict]]:
    """The page's HTML for a table (and a second table of the same network), and the data it holds.

    ``window`` is ``START:END`` (END exclusive, either may be empty), as ``tesearch draw`` takes it.
    """
    first = viewed_table(table_path, window=window)
    checked = [first]
    if compare is not None:
        other = viewed_table(compare, window=None if window is None else f"{first.window[0]}:{first.window[1]}")
        if other.network.spec != first.network.spec or other.table.exchange != first.table.exchange \
                or other.table.letters != first.table.letters:
            raise OptionError(f"--compare {compare}: a table of {other.table.network} ({other.table.exchange}), "
                              f"not of {first.table.network} ({first.table.exchange}) with the same letters")
        checked.append(other)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    datasets = [view_data(c.table, c.verification, c.network, c.graph, c.rotation, first.window,
                          checked_at=now, name=c.path.name) for c in checked]
    title = f"{first.table.network} ({first.table.exchange}), T = {first.table.T}"
    if compare is not None:
        title += f" vs T = {checked[1].table.T}"
    return page_html(datasets, title), datasets


def page_target(output: str | Path, *, inputs=(), force: bool = False) -> Path:
    """``output`` if a page can be written there (the safe writer's checks: an .html name, not an input, a
    link or a device, not over a file of another kind without --force), checked before any work."""
    return check_output(output, kind=HTML_KIND, inputs=inputs, force=force)


def write_page(html: str, output: str | Path, *, inputs=(), force: bool = False) -> int:
    """Write the page atomically through the safe writer (the one place tesearch.tables.view writes); its size in bytes."""
    raw = html.encode("utf-8")
    write_output(output, raw, kind=HTML_KIND, inputs=inputs, force=force)
    return len(raw)
