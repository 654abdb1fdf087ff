"""docs/json.md is the schema of every --json report: each documented command prints exactly the keys
listed there, with values of the listed types (the page and the code cannot drift apart)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tesearch.cli import main

DOC = Path(__file__).resolve().parent.parent / "docs" / "json.md"
ROW = re.compile(r"^\| `([a-z_A-Z]+)` \| ([a-z|\\?]+) \| .* \|$")
TYPES = {"int": (int,), "float": (int, float), "str": (str,), "bool": (bool,), "list": (list,),
         "object": (dict,), "null": (type(None),)}


def read_schema(text: str) -> dict[str, dict[str, tuple[set[str], bool]]]:
    """Command -> key -> (type names, always present), from the page's sections; '*outcome*' adds the
    outcome keys."""
    sections: dict[str, list[str]] = {}
    name = None
    for line in text.splitlines():
        if line.startswith("## "):
            name = line[3:].strip()
            sections[name] = []
        elif name is not None:
            sections[name].append(line)

    def keys(lines: list[str]) -> dict[str, tuple[set[str], bool]]:
        out = {}
        for line in lines:
            m = ROW.match(line)
            if m:
                kinds = m.group(2).replace("\\", "")
                out[m.group(1)] = (set(kinds.rstrip("?").split("|")), not kinds.endswith("?"))
        return out

    outcome = keys(sections["Outcome keys"])
    schema = {}
    for heading, lines in sections.items():
        m = re.fullmatch(r"`([a-z-]+)`", heading)
        if m:
            schema[m.group(1)] = {**(outcome if "*outcome*" in "\n".join(lines) else {}), **keys(lines)}
    return schema


SCHEMA = read_schema(DOC.read_text())


def faults(command: str, data: dict) -> list[str]:
    """Every way ``data`` departs from the documented keys of ``command``."""
    documented = SCHEMA[command]
    found = [f"undocumented key {k!r}" for k in data if k not in documented]
    for key, (kinds, always) in documented.items():
        if key not in data:
            if always:
                found.append(f"missing key {key!r}")
            continue
        value = data[key]
        ok = any(isinstance(value, TYPES[k]) and not (k in ("int", "float") and isinstance(value, bool))
                 for k in kinds)
        if not ok:
            found.append(f"{key!r} is {type(value).__name__}, documented {'|'.join(sorted(kinds))}")
    return found


@pytest.fixture(scope="module")
def ring6_table(tmp_path_factory):
    path = tmp_path_factory.mktemp("json") / "ring-6.json"
    assert CliRunner().invoke(main, ["search", "ring-6", "-o", str(path), "--quiet"]).exit_code == 0
    return path


#: the everyday run checks one outcome with its table written; the whole suite checks every command
EVERYDAY = [("search", ["ring-6", "-o", "{out}"])]
SLOW = [("info", ["ring-6"]), ("search", ["ring-6", "--max-width", "4"]), ("verify", ["{table}"]), ("info", ["hypercube-3"]), ("search", ["ring-6"]), ("stratify", ["star-4"]), ("lift", ["torus-3x4"]),
        ("repack", ["{table}"]), ("narrow", ["ring-6"]), ("construct", ["hypercube-3"]), ("replay", ["{table}"]),
        ("compare", ["{table}"]), ("compare", ["ring-6"]), ("singleport", ["{table}"]),
        ("check-proof", ["proofs/bubblesort-4.json"])]
CASES = [*EVERYDAY, *(pytest.param(*case, marks=pytest.mark.slow) for case in SLOW)]


@pytest.mark.parametrize("command,args", CASES, ids=[f"{c}-{'-'.join(a)}" for c, a in [*EVERYDAY, *SLOW]])
def test_every_report_has_exactly_the_documented_keys(command, args, request, tmp_path, monkeypatch):
    monkeypatch.chdir(DOC.parent.parent)
    table = request.getfixturevalue("ring6_table") if "{table}" in args else None
    args = [a.format(table=table, out=tmp_path / "out.json") for a in args]
    result = CliRunner().invoke(main, [command, *args, "--json", "--quiet"] if command not in ("verify", "replay",
                                "info", "check-proof", "compare", "singleport") else [command, *args, "--json"])
    assert result.exit_code in (0, 3), result.output
    data = json.loads(result.stdout)
    for one in data if isinstance(data, list) else [data]:
        assert faults(command, one) == []


@pytest.mark.slow
def test_regress_reports_the_documented_keys():
    result = CliRunner().invoke(main, ["regress", "--json", "--no-constructions"])
    rows = json.loads(result.stdout)
    assert rows and all(faults("regress", row) == [] for row in rows)


def test_the_checker_finds_an_undocumented_key_a_missing_key_and_a_wrong_type():
    good = {"network": "ring-6", "exchange": "total", "valid": True, "T": 5, "lower_bound": 5, "letter_bound": 5,
            "best_bound": 5, "binding_bound": "counting", "gap": 0, "optimal": True, "words": 5, "targets": 5,
            "violations": []}
    assert faults("verify", good) == []
    assert faults("verify", {**good, "binding": "counting"}) == ["undocumented key 'binding'"]
    assert faults("verify", {k: v for k, v in good.items() if k != "gap"}) == ["missing key 'gap'"]
    assert faults("verify", {**good, "T": True}) == ["'T' is bool, documented int"]
    assert faults("verify", {**good, "T": None}) == ["'T' is NoneType, documented int"]


@pytest.mark.slow
def test_the_page_documents_every_command_with_json():
    """Each command whose help offers --json has a section (run, simulate and sweep point to their pages)."""
    from tesearch.cli.app import COMMANDS

    text = DOC.read_text()
    with_json = [name for name in COMMANDS
                 if "--json" in CliRunner().invoke(main, [name, "--help"]).stdout]
    assert len(with_json) >= 15
    for name in with_json:
        assert f"## `{name}`" in text or f"`{name}`" in text.split("## `run`, `simulate`, `sweep`")[1], name
