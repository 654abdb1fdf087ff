"""Mirror lanes (tesearch.constructions.lanes): optimal tables for the regular torus m x n x n, checked three ways."""

import json
import random
from collections import Counter, defaultdict

import pytest

from conftest import run_cli
from tesearch.constructions import constructed_table, lanes
from tesearch.running.errors import ConstructionError
from tesearch.checking.kernel import build_network, check_theorem1, input_from_json, kernel_bounds, target_mask
from tesearch.networks.families import network_from_spec
from tesearch.checking.replay import replay_data
from tesearch.tables.table import read_table
from tesearch.tables.verify import verify_table

# every axis order, both ring presentations, short sides 4, 8 and 12
SHAPES = ["torus-4x8x8", "torus-8x4x8", "torus-8x8x4", "torus-4x6x6", "torus-4x10x10", "torus-8x10x10",
          "torus-8x12x12", "torus-4x8x8:cyclic"]


def closed_form(m: int, n: int) -> int:
    """The per-letter bound of the long axes: m*n nodes per long ring, each ring's distances summing to (n/2)^2,
    over two letters."""
    return m * n * (n // 2) ** 2 // 2


def sides_of(spec: str) -> tuple[int, int]:
    sides = sorted(int(s) for s in spec.split("-")[1].split(":")[0].split("x"))
    return sides[0], sides[2]


@pytest.fixture(scope="module")
def tables():
    return {spec: lanes.mirror_lane_table(network_from_spec(spec)) for spec in SHAPES}


@pytest.mark.parametrize("spec", SHAPES)
def test_width_is_the_closed_form_per_letter_bound_and_verify_agrees(tables, spec):
    table = tables[spec]
    m, n = sides_of(spec)
    assert table.T == closed_form(m, n)
    check = verify_table(table)
    assert check.ok, check.summary()
    assert check.optimal and check.bounds.best == table.T  # no lower bound above it: T - 1 is impossible


@pytest.mark.parametrize("spec", ["torus-4x8x8", "torus-8x4x8", "torus-4x8x8:cyclic"])
def test_the_kernel_and_the_replay_agree(tables, spec):
    """The checking kernel (no sympy, no z3) rebuilds the network from the generators; the replay runs it."""
    data = tables[spec].to_json()
    inp = input_from_json(data)
    net = build_network(inp.letters, inp.generators)
    report = check_theorem1(inp, net)
    assert report.ok, report.violations[:3]
    bounds = kernel_bounds(net, list(inp.generators), target_mask(net, inp.exchange))
    assert bounds.best == inp.T
    replayed = replay_data(data)
    assert replayed.ok and replayed.completion_time == inp.T


@pytest.mark.parametrize("spec", ["torus-4x8x8", "torus-8x10x10"])
def test_long_letters_fill_every_column(tables, spec):
    """Both long axes' four letters in every column: the construction's claim, counted from the placements."""
    table = tables[spec]
    network = network_from_spec(spec)
    short = min(range(3), key=lambda i: network.params.sides[i])
    long_letters = {s for i, f in enumerate(network.factors) if i != short for s in f.letters}
    column = defaultdict(list)
    for p in table.placements:
        for offset, letter in enumerate(p.word):
            column[p.column + offset].append(letter)
    for c in range(table.T):
        assert len(column[c]) == len(set(column[c]))  # no letter twice
        assert long_letters <= set(column[c]), c


def test_pairs_share_their_columns_and_the_fixed_elements_sit_in_the_first_block(tables):
    spec = "torus-8x10x10"
    table = tables[spec]
    swap = str.swapcase  # dihedral letters: a <-> A, b <-> B, c <-> C
    by_start = Counter((p.column, p.word) for p in table.placements)
    h = 5
    unmirrored = [p for p in table.placements if by_start[(p.column, tuple(swap(s) for s in p.word))] == 0]
    # an antipode's two words are each other's swap, so only the seven fixed elements lack a partner
    assert len(unmirrored) == 7
    assert all(p.column + len(p.word) <= 3 * h for p in unmirrored)


@pytest.mark.parametrize("spec, reason", [
    ("torus-8x8x16", "one short side m and two equal long sides"),
    ("torus-8x8x8", "one short side m and two equal long sides"),
    ("torus-6x12x12", "divisible by 4"),
    ("torus-4x8", "3D tori"),
    ("torus-4x4x8:twisted", "3D tori"),
    ("star-5", "3D tori"),
])
def test_shapes_without_the_construction_are_refused(spec, reason):
    network = network_from_spec(spec)
    assert reason in lanes.applies(network)
    with pytest.raises(ConstructionError, match=reason):
        lanes.mirror_lane_table(network)


def test_a_wrong_matching_is_an_error_not_a_table(monkeypatch):
    """Mutation: two ports that cannot face each other (a demand above the other's length) are made partners;
    the construction's own X-lane check refuses to lay the blocks, and nothing is returned."""
    real = lanes._match_ports

    def broken(shells, demand_of, q):
        partner, kind, port_type = real(shells, demand_of, q)
        # a port with demand >= 1 made to face a port of length 0: its X block has no room there
        big = next(p for p in sorted(partner) if p[0] >= 0 and port_type[p][1] >= 1)
        small = next(p for p in sorted(partner) if p[0] >= 0 and port_type[p][0] == 0 and p not in (big, partner[big]))
        a, b = partner[big], partner[small]
        partner[big], partner[small] = small, big
        partner[a], partner[b] = b, a
        kind[big] = kind[small] = "mutated 1"  # kinds of their own, so the cycle merging leaves them as they are
        kind[a] = kind[b] = "mutated 2"
        return partner, kind, port_type

    monkeypatch.setattr(lanes, "_match_ports", broken)
    with pytest.raises(ConstructionError):
        lanes.mirror_lane_table(network_from_spec("torus-8x10x10"))


def _n(d: int, top: int) -> int:
    """Elements of a ring at distance d: 1 at 0 and the antipode ``top``, else 2."""
    return 1 if d in (0, top) else 2


@pytest.mark.parametrize("spec", ["torus-4x6x6", "torus-8x10x10", "torus-12x14x14", "torus-8x16x16", "torus-4x8x8:cyclic"])
def test_port_counts_are_lemma_6s_closed_forms(spec):
    """The counts the proof of Lemma 6 rests on, for each (length, demand): 2h N_q(d) for 0 < length < h;
    (h-1) N_q(d) + [1 <= d <= q-1] at length 0; and + [2 <= d <= q-1] more at length h."""
    plan = lanes._plan(network_from_spec(spec))
    x, y, _ = plan.axes
    q, h = x.side // 2, y.side // 2
    shells = plan.shells
    counts = Counter()
    for sh in shells:
        counts[(sh.b, x.distance(sh.job_b[0]))] += 1
        counts[(sh.c, x.distance(sh.job_c[0]))] += 1
    for length in range(h + 1):
        for d in range(q + 1):
            nq = _n(d, q)
            if 0 < length < h:
                want = 2 * h * nq
            else:
                want = (h - 1) * nq + (1 <= d <= q - 1) + (length == h and 2 <= d <= q - 1)
            assert counts[(length, d)] == want, (length, d)


@pytest.mark.parametrize("spec", ["torus-4x6x6", "torus-8x10x10", "torus-12x14x14"])
def test_the_chain_visits_every_shell_once_from_and_to_demand_zero(spec):
    """Lemma 6, steps 4-5: one chain through all shells; the first shell's prefix and the last one's suffix are empty."""
    plan = lanes._plan(network_from_spec(spec))
    x, y, _ = plan.axes
    q = x.side // 2
    shells = plan.shells
    partner, kind, port_type = lanes._match_ports(shells, lambda g: x.distance(g[0]), q)
    for port, mate in partner.items():  # every facing pair is compatible (the heart of the lemma)
        assert port_type[port][1] <= port_type[mate][0] and port_type[mate][1] <= port_type[port][0]
    order = lanes._one_cycle(shells, partner, kind, port_type)
    assert sorted(i for i, _ in order) == list(range(len(shells)))
    first, b_first = order[0]
    left_demand = x.distance((shells[first].job_b if b_first else shells[first].job_c)[0])
    last, b_first = order[-1]
    right_demand = x.distance((shells[last].job_c if b_first else shells[last].job_b)[0])
    assert left_demand == 0 and right_demand == 0


def _moved_port(shells, kind, port_type, h):
    return next(p for p, k in kind.items() if k == lanes.UNIVERSAL and port_type[p] == (h, 0))


def test_step_4_moves_the_h0_port_of_class_h_minus_1_h():
    """Lemma 6, step 4: when the zero clique is odd, the port moved to the universal clique is the (h, 0) port of
    the class {h - 1, h} (on these shapes the zero clique is odd)."""
    for spec in ("torus-4x6x6", "torus-8x10x10", "torus-12x14x14"):
        plan = lanes._plan(network_from_spec(spec))
        x, y, _ = plan.axes
        q, h = x.side // 2, y.side // 2
        partner, kind, port_type = lanes._match_ports(plan.shells, lambda g: x.distance(g[0]), q)
        moved = _moved_port(plan.shells, kind, port_type, h)
        assert {plan.shells[moved[0]].b, plan.shells[moved[0]].c} == {h - 1, h}, spec


def _pairs_of(kind: dict, port_type: dict) -> dict:
    """The partners a kind assignment makes: a transposed kind pairs its two types in order, a clique in twos."""
    groups: dict = {}
    for port in sorted(kind):
        groups.setdefault(str(kind[port]), []).append(port)
    partner = {}
    for what, ports in groups.items():
        types = sorted({port_type[p] for p in ports})
        if len(types) == 2 and what not in (lanes.ZERO, lanes.UNIVERSAL):
            ones = [p for p in ports if port_type[p] == types[0]]
            others = [p for p in ports if port_type[p] == types[1]]
            pairs = list(zip(ones, others))
        else:
            pairs = list(zip(ports[::2], ports[1::2]))
        for a, b in pairs:
            partner[a], partner[b] = b, a
    return partner


def test_other_allowed_choices_isolate_the_zero_clique_on_4x6x6():
    """Why step 4 names the port. With q = 2, moving the (h, 0) port of class {1, h} instead (universal, demand 0:
    the old text allowed it), together with two choices steps 2 and 3 allow (the (1, 0) port of class {0, 1}
    left over, the (2, 0) ports of class {1, 2} against the (0, 2) ports), leaves the zero clique without a
    shell to any other kind: the chaining step finds two chains. Every facing pair is still compatible."""
    plan = lanes._plan(network_from_spec("torus-4x6x6"))
    x, y, _ = plan.axes
    q, h = x.side // 2, y.side // 2
    shells = plan.shells
    partner, kind, port_type = lanes._match_ports(shells, lambda g: x.distance(g[0]), q)
    lanes._one_cycle(shells, dict(partner), dict(kind), port_type)  # the code's choices: one chain
    assert (q, h) == (2, 3)

    def of_class(kind_now, what, pair):
        return [p for p in sorted(kind_now) if p[0] >= 0 and port_type[p] == what
                and sorted((shells[p[0]].b, shells[p[0]].c)) == list(pair)]

    step2 = next(kind[p] for p in kind if port_type[p] == (1, 0) and kind[p] != lanes.ZERO)
    step3 = next(kind[p] for p in kind if port_type[p] == (2, 0) and kind[p] not in (lanes.ZERO, lanes.UNIVERSAL))
    for p in kind:
        if port_type[p] == (1, 0):
            kind[p] = step2
        if port_type[p] == (2, 0) or (port_type[p][1] == 0 and port_type[p][0] >= q):
            kind[p] = lanes.ZERO
    kind[of_class(kind, (1, 0), (0, 1))[0]] = lanes.ZERO  # step 2's leftover
    for p in of_class(kind, (2, 0), (1, 2)):  # step 3's two (q, 0) ports
        kind[p] = step3
    kind[of_class(kind, (h, 0), (1, h))[0]] = lanes.UNIVERSAL  # step 4: the port the proof must not move
    partner = _pairs_of(kind, port_type)
    assert len(partner) == len(port_type)
    for port, mate in partner.items():
        assert port_type[port][1] <= port_type[mate][0] and port_type[mate][1] <= port_type[port][0]
    with pytest.raises(ConstructionError, match="chains, not one"):
        lanes._one_cycle(shells, partner, kind, port_type)


def test_a_moved_word_is_caught_by_the_verifier(tables):
    """The checks above can fail: shift one braid word by a column and verify names a clash."""
    table = tables["torus-4x8x8"]
    rng = random.Random(3)
    placements = list(table.placements)
    i = rng.randrange(len(placements))
    p = placements[i]
    column = p.column + 1 if p.column + len(p.word) < table.T else p.column - 1
    placements[i] = type(p)(p.row, column, p.word)
    assert not verify_table(table.with_placements(placements)).ok


def test_construct_writes_torus_8x16x16_at_its_bound(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("construct", "torus-8x16x16", "--out", out)
    assert result.exit_code == 0, result.output
    table = read_table(out)
    assert table.T == closed_form(8, 16) == 4096
    check = verify_table(table)
    assert check.ok and check.optimal
    assert json.loads(out.read_text())["construction"]["method"] == lanes.CONSTRUCTION_NAME


def test_construct_refuses_a_shape_it_cannot_build_in_one_line(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli("construct", "torus-6x12x12", "--out", out)
    assert result.exit_code == 2
    assert "torus-mxnxn with 4 | m < n" in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_the_registry_names_the_construction():
    outcome = constructed_table(network_from_spec("torus-4x8x8"))
    table, summary = outcome.table, outcome.summary
    assert "mirror lanes" in summary and "OPTIMAL" in summary and table.T == 256


def test_a_short_side_close_to_the_long_one():
    """torus-16x18x18 (the X lane 89 % full): the old greedy needed a relief rule; the port matching just works."""
    table = lanes.mirror_lane_table(network_from_spec("torus-16x18x18"))
    assert table.T == closed_form(16, 18) == 11664
    check = verify_table(table)
    assert check.ok and check.T == table.T


@pytest.mark.slow
@pytest.mark.parametrize("m, n", [(24, 26), (28, 30)])
def test_the_shapes_the_greedy_never_built(m, n):
    """m = n - 2, the X lane 92-93 % full: the greedy failed at all 16 seeds; the rule builds them at the bound."""
    table = lanes.mirror_lane_table(network_from_spec(f"torus-{m}x{n}x{n}"))
    assert table.T == closed_form(m, n)  # Lemma 1's bound, which the letter-set bound of the long axes finds
    check = verify_table(table)
    assert check.ok and check.T == table.T and check.optimal


def test_the_letter_set_bound_is_lemma_1s_width_where_the_exact_count_does_not_run(monkeypatch):
    """Issue 39, finding 10: above the exact letter-count DP's order (torus-28x30x30 has 25200 nodes) the prover's
    per-letter bound fell back to the per-letter minima (94080 there, gap 420), though the two long axes' four
    letters are needed m n^3 / 2 times, four per column: the width of the lanes. Here the DP is switched off
    for 4x6x6 and 8x10x10 so the same path runs in a second."""
    from tesearch.facts import bounds
    from tesearch.facts.instance import instance

    monkeypatch.setattr(bounds, "PARIKH_LIMIT", 0)
    for m, n in ((4, 6), (8, 10)):
        facts = instance(f"torus-{m}x{n}x{n}")
        assert facts.cg.order > bounds.PARIKH_LIMIT
        assert facts.bounds.counting < closed_form(m, n) == facts.bounds.letter.value == facts.bounds.best
        assert "letter-set bound" in facts.bounds.letter.method
        outcome = constructed_table(facts)
        assert outcome.table.T == closed_form(m, n) and "OPTIMAL" in outcome.summary


@pytest.mark.slow
def test_construct_prints_torus_28x30x30_optimal():
    """The command of finding 10, as the user ran it (6 s)."""
    result = run_cli("construct", "torus-28x30x30")
    assert result.exit_code == 0, result.output
    assert "best bound 94500; OPTIMAL" in result.output and "gap" not in result.output


def test_the_bench_report_marks_superseded_bounds(tmp_path, monkeypatch):
    """benchmarks/lanes.py --restate: a bound the run printed below the row's proved bound (the kernel's, or Lemma 1's
    closed form) is marked superseded, the others and every other column are kept, and a second restate changes
    nothing (issue 47: results/lanes-bench.md showed 10560 for 8x22x22 without saying so)."""
    import sys

    from benchmarks import lanes

    report = tmp_path / "bench.md"
    report.write_text("Command: `python -m benchmarks.lanes` (a test).\n\n"
                      "| shape | nodes | T | bound | kernel | optimal | shells | seconds |\n"
                      "|---|---|---|---|---|---|---|---|\n"
                      "| torus-4x6x6 | 144 | 108 | 108 | 108 | yes | 33 | 2.09 |\n"
                      "| torus-8x22x22 | 3872 | 10648 | 10560 | 10648 | yes | 964 | 3.10 |\n"
                      "| torus-40x42x42 | 70560 | 370440 | 369600 | closed form | yes | 17628 | 125.17 |\n\n"
                      "All valid.\n")
    monkeypatch.setattr(sys, "argv", ["lanes", "--restate", str(report)])
    assert lanes.main() == 0
    once = report.read_text()
    assert "| torus-4x6x6 | 144 | 108 | 108 | 108 | yes | 33 | 2.09 |" in once
    assert "| torus-8x22x22 | 3872 | 10648 | 10560 (superseded) | 10648 | yes | 964 | 3.10 |" in once
    assert "| torus-40x42x42 | 70560 | 370440 | 369600 (superseded) | closed form |" in once
    assert "In the 2 rows marked **(superseded)**" in once and once.endswith("All valid.\n")
    assert lanes.main() == 0 and report.read_text() == once
