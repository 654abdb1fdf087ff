"""Large tables: gzip-compressed table files, and the vectorised Theorem-1 passes of both checkers.

The numpy passes (:func:`tesearch.tables.verify.vectorised_valid`, :func:`tesearch.checking.kernel.all_rules_hold`)
decide validity for hypercube-20 (2^20 - 1 words); the word-by-word loops run only after a fault.
Each test below breaks one rule and requires both passes to refuse the table, so a pass that
waved a broken table through would fail here (and then the loop would never name the fault).
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from tesearch.running.errors import FormatError, SizeLimitError
from tesearch.running.files import gunzip_limited, gzip_bytes, read_json_file
from tesearch.checking.kernel import all_rules_hold, build_network, check_theorem1, input_from_json, load_input, target_mask
from tesearch.tables.table import read_table, table_from_json, write_table
from tesearch.tables.verify import table_graph, vectorised_valid, verify_table
from tesearch.networks.words import targets

ROOT = Path(__file__).resolve().parent.parent
HYPERCUBE_8 = ROOT / "results" / "frontier" / "hypercube-8.json"


def both_passes(data: dict) -> tuple[bool, bool]:
    """(prover-side numpy pass, kernel numpy pass) on a table object."""
    table = table_from_json(copy.deepcopy(data))
    cg = table_graph(table)
    is_target = np.zeros(cg.order, dtype=bool)
    is_target[targets(cg, table.exchange)] = True
    inp = input_from_json(copy.deepcopy(data))
    net = build_network(inp.letters, inp.generators)
    return vectorised_valid(table, cg, is_target), all_rules_hold(inp, net, target_mask(net, inp.exchange))


def test_the_numpy_passes_accept_a_valid_table():
    assert both_passes(json.loads(HYPERCUBE_8.read_text())) == (True, True)


def _letters_of(data):
    return list(data["generators"])


def _mutate(kind: str, data: dict) -> dict:
    data = copy.deepcopy(data)
    placements = data["placements"]
    longest = next(i for i, p in enumerate(placements) if len(p[2]) == 3)  # a word of 3 of the 8 letters
    if kind == "swap-letter":  # the word names another element (or repeats a letter)
        row, col, word = placements[longest]
        other = next(s for s in _letters_of(data) if s not in word)
        placements[longest] = [row, col, [other] + word[1:]]
    elif kind == "drop-word":  # a target is missing
        del placements[longest]
    elif kind == "duplicate":  # one element placed twice (in an empty row beyond the table's rows)
        placements.append(list(placements[longest]))
    elif kind == "shift-right":  # words overlap in a row, or a letter sits twice in a column
        row, col, word = placements[longest]
        placements[longest] = [row, col + 1, word]
    elif kind == "past-the-end":
        row, col, word = placements[longest]
        placements[longest] = [row, data["T"] - len(word) + 1, word]
    elif kind == "other-row":  # same columns, another row: two words of one row overlap
        row, col, word = placements[longest]
        placements[longest] = [(row + 1) % len(data["generators"]), col, word]
    elif kind == "reversed-not-shortest":  # a longer word: a letter repeated
        row, col, word = placements[longest]
        placements[longest] = [row, col, word + [word[0]]]
    return data


@pytest.mark.parametrize("kind", ["swap-letter", "drop-word", "duplicate", "shift-right", "past-the-end",
                                  "other-row", "reversed-not-shortest"])
def test_each_broken_rule_is_refused_by_both_numpy_passes(kind):
    data = _mutate(kind, json.loads(HYPERCUBE_8.read_text()))
    assert both_passes(data) == (False, False)
    # and the loops that run after the numpy pass name a violation
    assert not verify_table(table_from_json(copy.deepcopy(data))).ok
    inp = input_from_json(copy.deepcopy(data))
    assert not check_theorem1(inp, build_network(inp.letters, inp.generators)).ok


def test_gzip_tables_read_like_json(tmp_path):
    table = read_table(HYPERCUBE_8)
    plain, packed = tmp_path / "t.json", tmp_path / "t.json.gz"
    write_table(table, plain)
    write_table(table, packed)
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()  # exactly tesearch-table v1 inside
    assert read_table(packed).to_json() == table.to_json()
    a, b = load_input(packed), load_input(plain)
    assert (a.messages, a.generators, a.T, a.network) == (b.messages, b.generators, b.T, b.network)
    assert verify_table(read_table(packed)).optimal
    write_table(table, tmp_path / "again.json.gz")
    assert (tmp_path / "again.json.gz").read_bytes() == packed.read_bytes()  # reproducible bytes


def test_gzip_limits_and_damage_are_refused(tmp_path):
    bomb = gzip_bytes(b" " * 5000)
    with pytest.raises(SizeLimitError):
        gunzip_limited(bomb, "bomb", max_bytes=4000)
    assert gunzip_limited(bomb, "bomb", max_bytes=5000) == b" " * 5000
    truncated = tmp_path / "cut.json.gz"
    truncated.write_bytes(gzip_bytes(HYPERCUBE_8.read_bytes())[:-20])
    with pytest.raises(FormatError):
        read_json_file(truncated, gzip_ok=True)
    with pytest.raises(FormatError):
        read_table(truncated)
    with pytest.raises(FormatError):
        load_input(truncated)
    # readers not asked to decompress see binary data
    with pytest.raises(FormatError):
        read_json_file(tmp_path / "cut.json.gz")


def test_the_kernel_check_and_the_certificate_check_name_their_own_node_limit(monkeypatch, tmp_path):
    """Above MAX_CHECK_NODES the kernel refuses with one line naming itself (not 'the replay'), exit 2;
    star-10 (3628800 nodes) is below the limit."""
    from conftest import run_cli
    import tesearch.checking.certificate.check as certificate_check
    import tesearch.checking.kernel as kernel

    assert kernel.MAX_CHECK_NODES >= 3628800
    monkeypatch.setattr(kernel, "MAX_CHECK_NODES", 50)
    result = run_cli("verify", "--kernel", HYPERCUBE_8)
    assert result.exit_code == 2 and "too large for the checking kernel's Theorem-1 check" in result.stderr
    assert "Traceback" not in result.stderr
    monkeypatch.setattr(certificate_check, "MAX_CHECK_NODES", 50)
    proof = ROOT / "proofs" / "hypercube-8.json"
    result = run_cli("check-proof", proof)
    assert result.exit_code == 2 and "too large for the certificate check" in result.stderr, result.output
