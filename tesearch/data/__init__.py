"""Data shipped with the package: the committed tables, so a network spec finds its table without the source tree.

``tables/NAME.json.gz`` are copies of the tables under the repository's ``results/`` (made and checked by
``scripts/package_tables.py``; ``tests/test_packaged_tables.py`` fails when they drift).  :func:`packaged_table`
finds one by network spec.
"""

from __future__ import annotations

from pathlib import Path

TABLES = Path(__file__).with_name("tables")


def packaged_name(network_spec: str, exchange: str = "total") -> str:
    """The file name of a network's packaged table: the spec with ':' as '-', '-odd' for the odd-distance exchange."""
    stem = network_spec.replace(":", "-").replace("/", "-")
    return f"{stem}{'-odd' if exchange == 'odd-distance' else ''}.json.gz"


def packaged_table(network_spec: str, exchange: str = "total") -> Path | None:
    """The packaged table of a network (its canonical spec), or None."""
    path = TABLES / packaged_name(network_spec, exchange)
    return path if path.is_file() else None
