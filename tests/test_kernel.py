"""The checking kernel: its imports, its bounds, and its Theorem 1 against tesearch.tables.verify's."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tesearch.checking.kernel import build_network, check_theorem1, input_from_json, kernel_bounds, target_mask

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"


def kernel_view(data: dict):
    inp = input_from_json(data)
    net = build_network(inp.letters, inp.generators)
    return inp, net


# ---------------------------------------------------------------- what the kernel imports

def test_kernel_imports_no_solver_and_no_prover_module():
    forbidden = ["z3", "sympy", "networkx", "tesearch.networks.groups", "tesearch.networks.words", "tesearch.facts.bounds", "tesearch.tables.verify",
                 "tesearch.solvers.z3model", "tesearch.search", "tesearch.networks.rotation", "tesearch.tables.table"]
    code = ("import sys, tesearch.checking.kernel, tesearch.checking.kernel.encoding; bad = [m for m in %r if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)" % forbidden)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


# ---------------------------------------------------------------- bounds without a solver

@pytest.mark.parametrize("name,best,how", [
    ("torus-4x8", 32, "set bound"),
    ("torus-4x4x8", 128, "set bound"),
    ("bubblesort-5", 154, "set bound"),
    ("ring-12-cyclic", 21, "exact per-letter optimum"),
    ("ring-6-cyclic", 6, "exact per-letter optimum"),
    ("star-5", 111, "counting"),
])
def test_kernel_bounds_reproduce_the_recorded_ones(name, best, how):
    inp, net = kernel_view(json.loads((RESULTS / f"{name}.json").read_text()))
    bounds = kernel_bounds(net, list(inp.generators), target_mask(net, inp.exchange))
    assert bounds.best == best
    assert bounds.derivation.startswith(how), bounds.derivation


# ---------------------------------------------------------------- two Theorem-1 checkers agree

def mutations(data: dict, rng: random.Random, count: int):
    """Copies of a table with one thing broken (or not: some mutations keep it valid)."""
    placements = data["placements"]
    letters = list(data["generators"])
    for _ in range(count):
        new = copy.deepcopy(data)
        p = new["placements"]
        i = rng.randrange(len(p))
        kind = rng.choice(["shift", "swap", "drop", "duplicate", "wrong-T", "wrong-row", "letter", "move-row"])
        row, col, word = p[i]
        if kind == "shift":
            p[i] = [row, max(0, col + rng.choice([-1, 1])), word]
        elif kind == "swap" and len(word) >= 2:
            j = rng.randrange(len(word) - 1)
            word[j], word[j + 1] = word[j + 1], word[j]
        elif kind == "drop":
            del p[i]
        elif kind == "duplicate":
            p.append([rng.randrange(len(letters)), new["T"], list(word)])
            new["T"] += len(word)
        elif kind == "wrong-T":
            new["T"] = max(0, new["T"] - 1)
        elif kind == "wrong-row":
            p[i] = [len(letters), col, word]
        elif kind == "letter":
            word[rng.randrange(len(word))] = rng.choice(letters)
        elif kind == "move-row":
            p[i] = [rng.randrange(len(letters)), col, word]
        yield kind, new
    assert placements == data["placements"]


@pytest.mark.parametrize("name", ["ring-6-cyclic", "star-4", "torus-4x4", "star-4-odd", "pancake-4"])
def test_kernel_and_verify_agree_on_mutated_tables(name):
    from tesearch.tables.table import table_from_json
    from tesearch.tables.verify import verify_table

    data = json.loads((RESULTS / f"{name}.json").read_text())
    rng = random.Random(name)
    seen = set()
    for kind, mutated in [("none", data), *mutations(data, rng, 60)]:
        inp, net = kernel_view(mutated)
        mine = check_theorem1(inp, net).ok
        theirs = verify_table(table_from_json(mutated, "mutated")).ok
        assert mine == theirs, (kind, mutated["placements"][:3])
        seen.add(mine)
    assert seen == {True, False}


def test_partial_check_counts_what_is_placed():
    data = json.loads((RESULTS / "star-4.json").read_text())
    data["placements"] = data["placements"][:5]
    inp, net = kernel_view(data)
    report = check_theorem1(inp, net, complete=False)
    assert report.ok and "VALID CORE (5 of 23 targets placed)" in report.summary()
    assert not check_theorem1(inp, net).ok


def test_the_certificate_checker_imports_no_solver_and_no_prover_module():
    forbidden = ["z3", "sympy", "tesearch.networks.groups", "tesearch.networks.words", "tesearch.facts.bounds", "tesearch.tables.verify",
                 "tesearch.solvers.z3model", "tesearch.search", "tesearch.networks.rotation"]
    code = ("import sys, tesearch.checking.certificate.check, tesearch.cli.checking; "
            "bad = [m for m in %r if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)" % forbidden)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("spec", ["star-5", "torus-3x4", "pancake-4"])
def test_set_bounds_in_chunks_equal_the_whole_programme(spec, monkeypatch):
    """The set bounds taken a few sets at a time (as star-10 needs) sum to the same needs as all at once."""
    import numpy as np

    from tesearch.checking.kernel import bounds as kernel_bounds_module
    from tesearch.networks.families import network_from_spec

    net_spec = network_from_spec(spec)
    generators = [tuple(int(x) for x in net_spec.generators[s]) for s in net_spec.letters]
    net = build_network(list(net_spec.letters), generators)
    sets = kernel_bounds_module.letter_sets(net, generators)
    targets = np.arange(1, net.order)
    whole = kernel_bounds_module.fewest_letters(net, generators, sets)[targets].sum(axis=0)
    monkeypatch.setattr(kernel_bounds_module, "SET_BOUNDS_MEMORY", 3 * net.order * 4 * 3)  # 3 sets per chunk
    chunked = kernel_bounds_module.set_needs(net, generators, sets, targets)
    assert len(sets) > 3 and chunked.tolist() == whole.tolist()
