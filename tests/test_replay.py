"""The whole-network replay: good tables replay clean, mutated tables fail for the right reason,
the replay and the Theorem-1 verifier agree, the vectorised and the reference engines agree."""

from __future__ import annotations

import json
from pathlib import Path
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tesearch.cli import main
from tesearch.networks.groups import cached_cayley_graph
from tesearch.networks.families import network_from_spec
from tesearch.checking.replay import (InputFormat, PortModel, ViolationKind as K, input_from_json, plot_utilization,
                             replay, replay_data, replay_file, replay_reference)
from tesearch.tables.table import table_from_json
from tesearch.tables.verify import Rule, verify_table
from tesearch.networks.words import canonical_word, shortest_words, targets, to_letters

# ------------------------------------------------------------------ building tables


def table_data(spec: str, placements, T: int, exchange: str = "total") -> dict:
    net = network_from_spec(spec)
    return {"format": "tesearch-table", "format_version": 1, "network": spec, "exchange": exchange,
            "generators": net.generators_json(), "T": T, "lower_bound": None,
            "placements": [[r, c, list(w)] for r, c, w in placements]}


def target_words(spec: str, exchange: str = "total", rng: random.Random | None = None):
    """One shortest word (letters) per target; a random one of the first few when rng is given."""
    cg = cached_cayley_graph(network_from_spec(spec))
    out = []
    for g in targets(cg, exchange):
        if rng is None:
            w = canonical_word(cg, int(g))
        else:
            w = rng.choice(list(shortest_words(cg, int(g), cap=6)))
        out.append(to_letters(cg, w))
    return out


def sequential_table(spec: str, exchange: str = "total") -> dict:
    """Every word one after another in row 0: each column holds one letter, so it is valid."""
    placements, col = [], 0
    for w in target_words(spec, exchange):
        placements.append((0, col, w))
        col += len(w)
    return table_data(spec, placements, col, exchange)


def greedy_table(spec: str, exchange: str = "total", seed: int | None = None) -> dict:
    """Pack words greedily into the rows: earliest start with a free lane and no letter repeated in a column."""
    net = network_from_spec(spec)
    rng = random.Random(seed) if seed is not None else None
    words = target_words(spec, exchange, rng)
    if rng is not None:
        rng.shuffle(words)
    busy = [set() for _ in net.letters]
    column_letters: dict[int, set] = {}
    placements = []
    for w in words:
        c = 0
        while True:
            row = next((r for r in range(len(busy)) if all(c + i not in busy[r] for i in range(len(w)))), None)
            if row is not None and all(s not in column_letters.get(c + i, ()) for i, s in enumerate(w)):
                break
            c += 1
        for i, s in enumerate(w):
            busy[row].add(c + i)
            column_letters.setdefault(c + i, set()).add(s)
        placements.append((row, c, w))
    return table_data(spec, placements, max(c + len(w) for _, c, w in placements), exchange)


# seed 003, section 3.1, ring-6 under D_6 (b, B renamed a, A): "a A a a A / A a A . a"
RING6_SEED = table_data("ring-6", [(0, 0, "aAa"), (0, 3, "aA"), (1, 0, "Aa"), (1, 2, "A"), (1, 4, "a")], 5)
# seed 004, section 2.1, star-4 odd distance: rows "1 | 1 2 1 | 1 2 3 | 1 3 2" and their rotations
STAR4_ODD = table_data("star-4", [(r, c, [str((int(x) - 1 + r) % 3 + 1) for x in w])
                                  for r in range(3) for c, w in ((0, "1"), (1, "121"), (4, "123"), (7, "132"))],
                       10, "odd-distance")

GOOD = {
    "ring-6 seed 003": RING6_SEED,
    "star-4 odd seed 004": STAR4_ODD,
    "star-4 sequential": sequential_table("star-4"),
    "torus-3x4 sequential": sequential_table("torus-3x4"),
    "hypercube-3 greedy": greedy_table("hypercube-3"),
    "star-4 greedy": greedy_table("star-4"),
    "pancake-4 greedy": greedy_table("pancake-4"),
    "torus-3x3 greedy": greedy_table("torus-3x3"),
    "star-4 odd greedy": greedy_table("star-4", "odd-distance"),
    "ring-7 odd sequential": sequential_table("ring-7", "odd-distance"),
}


def check(data: dict):
    """(vectorised replay, reference replay, verifier) on one table; the three engines must agree."""
    inp = input_from_json(data)
    fast, slow, stream = replay(inp), replay_reference(inp), replay(inp, engine="streaming")
    assert (fast.engine, stream.engine) == ("vectorised", "streaming")
    for attr in ("ok", "violation_counts", "completion_time", "transmissions", "expected_transmissions",
                 "max_buffer", "delivered", "target_pairs", "nodes", "links", "messages"):
        assert getattr(fast, attr) == getattr(slow, attr), attr
        assert getattr(stream, attr) == getattr(fast, attr), attr
    assert (fast.link_use_per_step == slow.link_use_per_step).all()
    assert (stream.link_use_per_step == fast.link_use_per_step).all()
    verdict = verify_table(table_from_json(json.loads(json.dumps(data))))
    return fast, verdict


# ------------------------------------------------------------------ good tables


@pytest.mark.parametrize("name", list(GOOD))
def test_good_tables_replay_clean(name):
    data = GOOD[name]
    report, verdict = check(data)
    assert verdict.ok, verdict.summary()
    assert report.ok, report.summary()
    assert report.buffer_free and report.max_buffer == 0
    assert report.completion_time == max(c + len(w) for _, c, w in data["placements"])
    # n * (sum of target distances), with distances from the project's own group front end
    cg = cached_cayley_graph(network_from_spec(data["network"]))
    target_distance_sum = int(cg.dist[targets(cg, data["exchange"])].sum())
    assert report.nodes == cg.order
    assert report.expected_transmissions == cg.order * target_distance_sum
    assert report.transmissions == report.expected_transmissions
    assert report.delivered == report.target_pairs == cg.order * len(targets(cg, data["exchange"]))
    assert report.link_use_per_step.sum() == report.transmissions


def test_seed_ring6_is_optimal_width():
    report, verdict = check(RING6_SEED)
    assert report.completion_time == 5 and verdict.gap == 0


def test_one_row_table_is_single_port_clean_and_multi_row_is_not():
    one_row = sequential_table("star-4")
    assert replay_data(one_row, PortModel.SINGLE_PORT).ok
    report = replay_data(STAR4_ODD, PortModel.SINGLE_PORT)
    assert not report.ok
    assert report.kinds == {K.SEND_PORT, K.RECEIVE_PORT}
    # every column holds 3 letters: each node sends 3 (2 too many) in each of the 10 steps
    assert report.violation_counts[K.SEND_PORT.value] == 24 * 2 * 10
    assert report.violation_counts == replay_reference(input_from_json(STAR4_ODD), "single-port").violation_counts


# ------------------------------------------------------------------ mutations

def _cells(data):
    """(row, column) -> (placement index, offset in its word)."""
    return {(r, c + i): (j, i) for j, (r, c, w) in enumerate(data["placements"]) for i in range(len(w))}


def mutate_shift(data, j):
    out = json.loads(json.dumps(data))
    out["placements"][j][1] += 1
    return out


def mutate_letter(data, j, i):
    out = json.loads(json.dumps(data))
    word = out["placements"][j][2]
    letters = list(out["generators"])
    word[i] = next(s for s in letters if s != word[i])
    return out


def mutate_drop(data, j):
    out = json.loads(json.dumps(data))
    del out["placements"][j]
    return out


def mutate_detour(data, j):
    """Replace word j by the same element along a longer path (w s s^-1), placed after the table."""
    out = json.loads(json.dumps(data))
    net = network_from_spec(out["network"])
    cg = cached_cayley_graph(net)
    _, _, word = out["placements"].pop(j)
    s = net.letters[0]
    back = cg.letters[int(cg.inverse_letter[0])]
    longer = word + [s, back]
    out["placements"].append([0, out["T"], longer])
    out["T"] += len(longer)
    return out


def mutate_swap_rows(data, column, r1, r2):
    out = json.loads(json.dumps(data))
    cells = _cells(out)
    (j1, i1), (j2, i2) = cells[(r1, column)], cells[(r2, column)]
    w1, w2 = out["placements"][j1][2], out["placements"][j2][2]
    w1[i1], w2[i2] = w2[i2], w1[i1]
    return out


FULL_TABLES = {"star-4 odd seed 004": STAR4_ODD, "ring-6 seed 003": RING6_SEED}


def _interior_word(data):
    """A word that is not the last in its row (shifting it right runs into its neighbour, not past T)."""
    ends = {}
    for j, (r, c, w) in enumerate(data["placements"]):
        ends.setdefault(r, []).append((c, j))
    for r, items in ends.items():
        items.sort()
        if len(items) > 1:
            return items[0][1]
    raise AssertionError("no row has two words")


@pytest.mark.parametrize("name", list(FULL_TABLES))
def test_shifted_word_clashes_on_a_link(name):
    data = FULL_TABLES[name]
    bad = mutate_shift(data, _interior_word(data))
    report, verdict = check(bad)
    assert not report.ok and not verdict.ok
    assert K.LINK_CAPACITY in report.kinds and K.LANE_OVERLAP in report.kinds
    # the verifier calls a letter repeated inside one row's overlap an overlap, not a column repeat;
    # on the network both are the same link used twice in one step
    assert Rule.OVERLAP in {v.rule for v in verdict.violations}
    clash = next(v for v in report.violations if v.kind is K.LINK_CAPACITY)
    assert clash.step is not None and clash.link is not None and clash.message is not None
    # the whole network clashes: one extra message on a link at every node
    assert report.violation_counts[K.LINK_CAPACITY.value] % report.nodes == 0


def test_shift_past_the_end_is_late():
    data = RING6_SEED
    last = max(range(len(data["placements"])), key=lambda j: data["placements"][j][1] + len(data["placements"][j][2]))
    report, verdict = check(mutate_shift(data, last))
    assert K.LATE in report.kinds and Rule.OUT_OF_RANGE in {v.rule for v in verdict.violations}


@pytest.mark.parametrize("name", list(FULL_TABLES))
def test_changed_letter_is_caught(name):
    data = FULL_TABLES[name]
    j = max(range(len(data["placements"])), key=lambda j: len(data["placements"][j][2]))
    report, verdict = check(mutate_letter(data, j, 1))
    assert not report.ok and not verdict.ok
    # the column now lacks one letter and repeats another; the word's element is no longer served
    if name.startswith("star-4"):  # no blanks: every letter is in every column
        assert K.LINK_CAPACITY in report.kinds and Rule.COLUMN_REPEAT in {v.rule for v in verdict.violations}
    assert K.MISSING in report.kinds and Rule.MISSING in {v.rule for v in verdict.violations}


@pytest.mark.parametrize("name", list(GOOD))
def test_dropped_message_is_missing_at_every_node(name):
    data = GOOD[name]
    report, verdict = check(mutate_drop(data, len(data["placements"]) // 2))
    assert report.violation_counts == {K.MISSING.value: report.nodes}
    assert {v.rule for v in verdict.violations} == {Rule.MISSING}
    assert report.delivered == report.target_pairs - report.nodes


@pytest.mark.parametrize("name", ["ring-6 seed 003", "star-4 odd seed 004", "torus-3x3 greedy", "pancake-4 greedy"])
def test_detour_is_not_shortest(name):
    data = GOOD[name]
    report, verdict = check(mutate_detour(data, 0))
    assert report.violation_counts == {K.NOT_SHORTEST.value: report.nodes}
    assert {v.rule for v in verdict.violations} == {Rule.NOT_SHORTEST}
    assert report.transmissions == report.expected_transmissions + 2 * report.nodes
    assert report.delivered == report.target_pairs


@pytest.mark.parametrize("name,column,rows", [("star-4 odd seed 004", 2, (0, 1)), ("star-4 odd seed 004", 8, (1, 2)),
                                              ("ring-6 seed 003", 1, (0, 1))])
def test_two_rows_swapped_in_one_column(name, column, rows):
    bad = mutate_swap_rows(FULL_TABLES[name], column, *rows)
    report, verdict = check(bad)
    assert not report.ok and not verdict.ok
    # the column keeps its letters, so no link clashes; the two words now go elsewhere
    assert K.LINK_CAPACITY not in report.kinds and Rule.COLUMN_REPEAT not in {v.rule for v in verdict.violations}
    assert report.kinds & {K.MISSING, K.NOT_SHORTEST}


def test_word_to_the_identity_is_not_a_target():
    data = json.loads(json.dumps(RING6_SEED))
    data["placements"].append([0, 5, ["a", "a"]])
    data["T"] = 7
    report, verdict = check(data)
    assert report.kinds == {K.NOT_SHORTEST, K.NOT_TARGET} and not verdict.ok


# ------------------------------------------------------------------ property: replay and verifier agree

VERIFIER_TO_REPLAY = {Rule.OVERLAP: K.LANE_OVERLAP, Rule.OUT_OF_RANGE: K.LATE, Rule.NOT_SHORTEST: K.NOT_SHORTEST,
                      Rule.BAD_ROW: K.LANE_RANGE}


@st.composite
def random_tables(draw):
    spec = draw(st.sampled_from(["ring-6", "ring-5", "star-3", "star-4", "torus-2x3", "hypercube-3", "pancake-3"]))
    exchange = draw(st.sampled_from(["total", "odd-distance"]))
    net = network_from_spec(spec)
    cg = cached_cayley_graph(net)
    if draw(st.booleans()):  # a valid table, then perhaps one random edit
        data = greedy_table(spec, exchange, seed=draw(st.integers(0, 10**6)))
        placements = data["placements"]
        edit = draw(st.sampled_from(["none", "move", "drop", "letter", "duplicate"]))
        j = draw(st.integers(0, len(placements) - 1))
        if edit == "move":
            placements[j][0] = draw(st.integers(0, net.degree - 1))
            placements[j][1] = draw(st.integers(0, data["T"]))
        elif edit == "drop":
            del placements[j]
        elif edit == "letter":
            w = placements[j][2]
            w[draw(st.integers(0, len(w) - 1))] = draw(st.sampled_from(net.letters))
        elif edit == "duplicate":
            placements.append([draw(st.integers(0, net.degree - 1)), data["T"], list(placements[j][2])])
            data["T"] += len(placements[j][2])
        return data
    # random placements of random shortest words of random targets
    goal = [int(g) for g in targets(cg, exchange)]
    chosen = draw(st.lists(st.sampled_from(goal), min_size=1, max_size=len(goal) + 2))
    T = draw(st.integers(1, 3 + sum(int(cg.dist[g]) for g in chosen) // net.degree))
    placements = []
    for g in chosen:
        words = list(shortest_words(cg, g, cap=4))
        w = to_letters(cg, words[draw(st.integers(0, len(words) - 1))])
        placements.append((draw(st.integers(0, net.degree - 1)), draw(st.integers(0, T)), w))
    return table_data(spec, placements, T, exchange)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_tables())
def test_replay_agrees_with_verifier_on_random_tables(data):
    report, verdict = check(data)
    assert report.ok == verdict.ok, (report.summary(), verdict.summary())
    rules = {v.rule for v in verdict.violations}
    for rule, kind in VERIFIER_TO_REPLAY.items():
        assert (rule in rules) == (kind in report.kinds), (rule, kind, report.summary(), verdict.summary())
    # a letter twice in a column is a link used twice at every node; the verifier counts a repeat
    # inside one row's overlapping words as the overlap only
    if Rule.COLUMN_REPEAT in rules:
        assert K.LINK_CAPACITY in report.kinds
    if K.LINK_CAPACITY in report.kinds:
        assert rules & {Rule.COLUMN_REPEAT, Rule.OVERLAP}
    if Rule.MISSING in rules and Rule.BAD_ROW not in rules:
        assert K.MISSING in report.kinds


# ------------------------------------------------------------------ schedules (timed, buffered)

def schedule_data(spec, messages, T, model=None):
    net = network_from_spec(spec)
    data = {"format": "tesearch-schedule", "format_version": 1, "network": spec, "exchange": "total",
            "generators": net.generators_json(), "T": T, "lower_bound": None, "messages": messages}
    if model:
        data["model"] = model
    return data


def test_table_equals_its_schedule():
    table = GOOD["torus-3x3 greedy"]
    sched = schedule_data("torus-3x3", [[w, list(range(c, c + len(w)))] for _, c, w in table["placements"]],
                          table["T"])
    a, b = replay_data(table), replay_data(sched)
    assert a.ok and b.ok and b.source_format == InputFormat.SCHEDULE.value
    for attr in ("completion_time", "transmissions", "max_buffer", "delivered"):
        assert getattr(a, attr) == getattr(b, attr)
    assert (a.link_use_per_step == b.link_use_per_step).all()


def test_waiting_messages_fill_buffers():
    # ring-6 (letters a, A): the message for aAa waits 2 steps at a and 1 step at aA
    net = network_from_spec("ring-6")
    cg = cached_cayley_graph(net)
    msgs = [[["a"], [0]], [["A"], [1]], [["a", "A"], [2, 3]], [["A", "a"], [4, 5]], [["a", "A", "a"], [6, 9, 11]]]
    data = schedule_data("ring-6", msgs, 12, "single-port")
    inp = input_from_json(data)
    fast, slow = replay(inp, "single-port"), replay_reference(inp, "single-port")
    stream = replay(inp, "single-port", engine="streaming")
    assert fast.ok and slow.ok and stream.ok
    # waits: 2 steps at a then 1 step at aA; one copy per node, so each node holds at most 1 at once
    assert fast.max_buffer == slow.max_buffer == stream.max_buffer == 1
    assert fast.completion_time == 12 and fast.transmissions == cg.order * int(cg.dist.sum())
    # two copies waiting at the same node at once: delay the message for aA too
    msgs[2] = [["a", "A"], [6, 10]]
    worse = replay_data(schedule_data("ring-6", msgs, 12), "single-port")
    ref = replay_reference(input_from_json(schedule_data("ring-6", msgs, 12)), "single-port")
    assert worse.ok is False  # both messages leave every node at step 6
    assert worse.kinds == {K.SEND_PORT, K.RECEIVE_PORT} and worse.max_buffer == ref.max_buffer == 2
    stream = replay_data(schedule_data("ring-6", msgs, 12), "single-port", engine="streaming")
    assert stream.violation_counts == worse.violation_counts and stream.max_buffer == 2
    assert [str(v) for v in stream.violations] == [str(v) for v in worse.violations]


def test_stated_destination_is_checked():
    net = network_from_spec("ring-6")
    cg = cached_cayley_graph(net)
    images = {w: cg.elements[cg.element_of(w)].astype(int).tolist() for w in ("a", "A", "aA", "Aa", "aAa")}
    msgs = [[list(w), list(range(i * 3, i * 3 + len(w))), images[w]] for i, w in enumerate(images)]
    assert replay_data(schedule_data("ring-6", msgs, 15)).ok
    msgs[0][2], msgs[1][2] = images["A"], images["a"]
    report = replay_data(schedule_data("ring-6", msgs, 15))
    assert report.violation_counts == {K.WRONG_DESTINATION.value: 2 * cg.order}
    ref = replay_reference(input_from_json(schedule_data("ring-6", msgs, 15)))
    assert ref.violation_counts == report.violation_counts
    stream = replay_data(schedule_data("ring-6", msgs, 15), engine="streaming")
    assert stream.violation_counts == report.violation_counts


# ------------------------------------------------------------------ input errors, isolation, CLI

def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("mutate,fragment", [
    (lambda d: d.pop("generators"), "missing key(s) generators"),
    (lambda d: d["placements"][3].__setitem__(2, ["a", "z"]), "placements[3]: letter 'z' is not a generator"),
    (lambda d: d["placements"].append([0, -1, ["a"]]), "first_column must be an integer >= 0"),
    (lambda d: d.__setitem__("format", "nonsense"), "'format' is 'nonsense'"),
    (lambda d: d["generators"].__setitem__("a", [1, 1, 3, 2, 5, 4]), "not a permutation"),
])
def test_bad_tables_exit_2_naming_the_place(tmp_path, mutate, fragment):
    data = json.loads(json.dumps(RING6_SEED))
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run("replay", str(path))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and fragment in lines[0], result.output


@pytest.mark.parametrize("messages,fragment", [
    ([[["a", "A"], [3, 3]]], "times must increase strictly"),
    ([[["a", "A"], [3]]], "2 letters but 1 times"),
    ([[["a"], [0], [0, 1, 2]]], "destination must be a permutation"),
])
def test_bad_schedules_exit_2(tmp_path, messages, fragment):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(schedule_data("ring-6", messages, 9)))
    result = run("replay", str(path))
    assert result.exit_code == 2 and "messages[0]" in result.output and fragment in result.output


def test_not_json_exits_2(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("{")
    assert run("replay", str(path)).exit_code == 2


def test_replay_imports_no_solver_and_no_sympy():
    code = ("import sys, tesearch.checking.replay; "
            "BOTTOM = ('tesearch.running', 'tesearch.running.errors', 'tesearch.running.terms', 'tesearch.running.files', "
            "'tesearch.running.limits', 'tesearch.checking'); "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('z3', 'sympy') or "
            "(m.startswith('tesearch.') and not m.startswith(('tesearch.checking.replay', 'tesearch.checking.kernel')) "
            "and m not in BOTTOM)]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_cli_replay_exit_codes_json_and_plot(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(STAR4_ODD))
    png = tmp_path / "use.png"
    result = run("replay", str(good), "--json", "--plot", str(png))
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["ok"] and data["completion_time"] == 10 and data["model"] == "all-port"
    assert png.stat().st_size > 1000
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(mutate_drop(STAR4_ODD, 0)))
    result = run("replay", str(bad))
    assert result.exit_code == 1 and "pair-not-delivered" in result.output
    assert run("replay", str(good), "--model", "single-port").exit_code == 1


def test_replay_file_and_plot_from_data(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(RING6_SEED))
    assert replay_file(path).ok
    out = plot_utilization(RING6_SEED, tmp_path / "p.png")
    assert out.exists()


@pytest.mark.parametrize("key,value,message", [("first_column", 10 ** 9, "time horizon"), ("T", 10 ** 9, "time horizon"),
                                               ("first_column", 10 ** 12, "larger than"),
                                               ("T", 10 ** 15, "larger than")])
def test_a_huge_time_horizon_is_refused_before_allocation(tmp_path, key, value, message):
    """Beyond the kernel loader's 2^31 - 1 the number itself is refused; below it, the replay's horizon."""
    data = json.loads((Path(__file__).resolve().parent.parent / "results" / "star-4.json").read_text())
    if key == "T":
        data["T"] = value
    else:
        data["placements"][0][1] = value
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    result = run("replay", str(path))
    assert result.exit_code == 2 and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
