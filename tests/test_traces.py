"""tesearch export --format chrome-trace | chakra: the traces state exactly the hops of the programs export.

Chrome traces are checked against the trace-event format (tesearch.schedules.chrome_trace.trace_problems) and hop by hop
against tesearch-programs; Chakra traces are read back with mlc-chakra's own decoder and checked against the
programs export (same hops, same order, the data dependency of every forward on its receive).
"""

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from conftest import run_cli
from tesearch.schedules.chrome_trace import trace_problems
from tesearch.running.errors import SizeLimitError
from tesearch.schedules.programs.export import iter_programs, stream_programs
from tesearch.schedules.programs.schedule import compile_schedule
from tesearch.schedules.programs.traces import chrome_trace_document, link_slices
from tesearch.tables.table import read_table

RESULTS = Path(__file__).resolve().parent.parent / "results"


def exported_hops(table_path, tmp_path):
    """Every send of the programs export: {(rank, step, letter, to, origin, destination)}, and the letters."""
    schedule = compile_schedule(read_table(table_path))
    path = tmp_path / "programs.jsonl"
    stream_programs(schedule, path)
    letters = schedule.letters
    hops = []
    for prog in iter_programs(path):
        for step, letter, to, origin, destination in prog.sends.tolist():
            hops.append((prog.rank, step, letters[letter], to, origin, destination))
    return schedule, hops


def check_links_trace(table_path, tmp_path):
    schedule, hops = exported_hops(table_path, tmp_path)
    document, used = chrome_trace_document(schedule, "auto")
    assert used == "links" and trace_problems(document) == []
    events = document["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    for event in slices:
        assert all(key in event for key in ("ph", "ts", "pid", "tid", "dur", "name"))
    # one slice per hop of the schedule, and exactly the programs export's hops
    assert len(slices) == len(hops) == schedule.ranks * schedule.hops_per_rank
    seen = Counter((a["from"], a["step"], a["letter"], a["to"], a["origin"], a["destination"])
                   for a in (e["args"] for e in slices))
    assert seen == Counter(hops)
    # each slice sits on its (node, letter) track at its step
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    for event in slices[:500]:
        assert threads[(event["pid"], event["tid"])] == f"letter {event['args']['letter']} -> node {event['args']['to']}"
        assert event["ts"] == event["args"]["step"]
    # flow arrows: one per pair of consecutive hops of a message, from the hop's track to the next hop's
    messages = schedule.ranks * schedule.messages
    starts = [e for e in events if e["ph"] == "s"]
    assert len(starts) == len(hops) - messages
    by_track_time = {(e["pid"], e["tid"], e["ts"]): e for e in slices}
    finishes = {e["id"]: e for e in events if e["ph"] == "f"}
    for start in starts[:500]:
        a = by_track_time[(start["pid"], start["tid"], start["ts"] - 0.5)]["args"]
        finish = finishes[start["id"]]
        b = by_track_time[(finish["pid"], finish["tid"], finish["ts"] - 0.5)]["args"]
        assert (b["origin"], b["destination"], b["hop"], b["from"], b["step"]) == \
            (a["origin"], a["destination"], a["hop"] + 1, a["to"], a["step"] + 1)
    return document


def test_chrome_trace_of_star_4_matches_the_programs(tmp_path):
    check_links_trace(RESULTS / "star-4.json", tmp_path)


@pytest.mark.slow
def test_chrome_trace_of_torus_4x4x8_matches_the_programs(tmp_path):
    check_links_trace(RESULTS / "torus-4x4x8.json", tmp_path)


def test_letter_tracks_show_the_table(tmp_path):
    table = read_table(RESULTS / "star-5.json")
    schedule = compile_schedule(table)
    document, used = chrome_trace_document(schedule, "letters")
    assert used == "letters" and trace_problems(document) == []
    slices = [e for e in document["traceEvents"] if e["ph"] == "X"]
    grid = table.grid()
    cells = {(e["args"]["row"], e["args"]["step"]): e["args"]["letter"] for e in slices}
    assert cells == {(r, c): grid[r][c] for r in range(table.rows) for c in range(table.T) if grid[r][c] is not None}
    flows = [e for e in document["traceEvents"] if e["ph"] == "s"]
    assert len(flows) == len(slices) - len(table.placements)


def test_too_many_link_hops_are_refused(monkeypatch):
    schedule = compile_schedule(read_table(RESULTS / "star-4.json"))
    monkeypatch.setattr("tesearch.schedules.programs.traces.MAX_LINK_HOPS", 1000)
    with pytest.raises(SizeLimitError, match="24 ranks x 62 hops = 1488 hops"):
        link_slices(schedule)
    assert chrome_trace_document(schedule, "auto")[1] == "letters"


def test_cli_writes_a_chrome_trace(tmp_path):
    out = tmp_path / "ring-6.json"
    done = run_cli("export", RESULTS / "ring-6.json", "--format", "chrome-trace", "-o", out,
                   env={"TESEARCH_INLINE": "1"})
    assert done.exit_code == 0, done.output
    assert "links tracks" in done.stdout and trace_problems(json.loads(out.read_text())) == []


# ------------------------------------------------------------------ Chakra

def chakra_decoder():
    try:
        from chakra.schema.protobuf import et_def_pb2
        from chakra.src.third_party.utils.protolib import decodeMessage, openFileRd
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("the chakra extra (mlc-chakra) is missing under CI")
        pytest.skip("mlc-chakra is not installed (pip install -e '.[chakra]')")
    return et_def_pb2, decodeMessage, openFileRd


def read_chakra(path):
    """(global metadata, [node]) read back with chakra's own decoder."""
    et, decode, open_file = chakra_decoder()
    handle = open_file(str(path))
    meta = et.GlobalMetadata()
    assert decode(handle, meta)
    nodes = []
    while True:
        node = et.Node()
        if not decode(handle, node):
            break
        nodes.append(node)
    handle.close()
    return meta, nodes


def attributes(node) -> dict:
    return {a.name: getattr(a, a.WhichOneof("value")) for a in node.attr}


@pytest.mark.parametrize("name", ["star-4", "ring-6"])
def test_chakra_traces_round_trip_and_match_the_programs(tmp_path, name):
    et, _, _ = chakra_decoder()
    schedule, _ = exported_hops(RESULTS / f"{name}.json", tmp_path)
    programs = {p.rank: p for p in iter_programs(tmp_path / "programs.jsonl")}
    prefix = tmp_path / name
    done = run_cli("export", RESULTS / f"{name}.json", "--format", "chakra", "-o", prefix, "--bytes", "4K",
                   env={"TESEARCH_INLINE": "1"})
    assert done.exit_code == 0, done.output
    ranks = schedule.ranks
    sends_by_key, receives_by_key = {}, {}
    for rank in range(ranks):
        meta, nodes = read_chakra(f"{prefix}.{rank}.et")
        assert {a.name: getattr(a, a.WhichOneof("value")) for a in meta.attr}["rank"] == rank
        assert [n.id for n in nodes] == list(range(len(nodes)))
        prog = programs[rank]
        # same hops, same order: per step, the sends then the receives, each in the programs' order
        expected = []
        for step in range(schedule.steps):
            expected += [("send", tuple(row)) for row in prog.at_step(prog.sends, step).tolist()]
            expected += [("recv", tuple(row)) for row in prog.at_step(prog.receives, step).tolist()]
        assert len(nodes) == len(expected) == 2 * schedule.hops_per_rank
        by_id = {}
        for node, (kind, row) in zip(nodes, expected):
            step, letter, other, origin, destination = row
            attr = attributes(node)
            assert attr["comm_size"] == 4096 and attr["is_cpu_op"] is False
            tag_message, hop = divmod(attr["comm_tag"], 64)
            assert divmod(tag_message, ranks) == (origin, destination)
            if kind == "send":
                assert node.type == et.COMM_SEND_NODE and attr["comm_dst"] == other
                sends_by_key[(rank, other, attr["comm_tag"])] = step
            else:
                assert node.type == et.COMM_RECV_NODE and attr["comm_src"] == other
                receives_by_key[(other, rank, attr["comm_tag"])] = step
            by_id[node.id] = (kind, step, origin, destination, hop)
        # same dependencies: a forward depends on the receive of the same message one step earlier, at this rank
        for node in nodes:
            kind, step, origin, destination, hop = by_id[node.id]
            if kind == "send" and origin != rank:
                assert [by_id[d] for d in node.data_deps] == [("recv", step - 1, origin, destination, hop - 1)]
            else:
                assert list(node.data_deps) == []
    # every send meets one receive at the other end, at the same step, under the same tag
    assert sends_by_key == receives_by_key


def test_chakra_without_the_extra_is_one_line(monkeypatch, tmp_path):
    import builtins

    real_import = builtins.__import__

    def no_chakra(name, *args, **kwargs):
        if name.startswith("chakra"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_chakra)
    done = run_cli("export", RESULTS / "ring-6.json", "--format", "chakra", "-o", tmp_path / "r",
                   env={"TESEARCH_INLINE": "1"})
    assert done.exit_code != 0 and "chakra extra" in done.stderr and not list(tmp_path.iterdir())


def test_chakra_export_run_twice_replaces_its_own_traces(tmp_path):
    """Issue 39: the second run was refused, "holds a file tesearch did not write" (sniff_kind did not know the
    binary traces); another kind of file under a trace's name is still refused without --force."""
    from tesearch.running.files import sniff_kind

    chakra_decoder()
    prefix = tmp_path / "r"
    for _ in range(2):
        done = run_cli("export", RESULTS / "ring-6.json", "--format", "chakra", "-o", prefix, "--quiet")
        assert done.exit_code == 0, done.output
    assert sniff_kind(f"{prefix}.0.et") == "chakra"
    (tmp_path / "r.3.et").write_text('{"note": "made_by tesearch export --format chakra"}')  # JSON, not a trace
    refused = run_cli("export", RESULTS / "ring-6.json", "--format", "chakra", "-o", prefix, "--quiet")
    assert refused.exit_code == 2 and "r.3.et: not replaced" in refused.stderr


@pytest.mark.parametrize("size", [str(2**63), "1" + "0" * 30])
def test_a_chakra_message_size_over_64_bits_is_bad_input(tmp_path, size):
    """Issue 39: --bytes 9223372036854775808 was an internal error (exit 70, protobuf's ValueError)."""
    chakra_decoder()
    done = run_cli("export", RESULTS / "ring-6.json", "--format", "chakra", "-o", tmp_path / "r", "--bytes", size)
    assert done.exit_code == 2 and "--bytes" in done.stderr and done.stderr.count("\n") == 1, done.output
    assert list(tmp_path.iterdir()) == []
    top = run_cli("export", RESULTS / "ring-6.json", "--format", "chakra", "-o", tmp_path / "r", "--bytes",
                  str(2**63 - 1), "--quiet")
    assert top.exit_code == 0, top.output  # the largest comm_size a trace holds


def test_every_export_format_is_programs_or_one_registered_trace_format():
    """The CLI's --format choices are tesearch-programs and the keys of TRACE_FORMATS, the one place a trace
    format's kind, checks, build and summary are chosen (a format added to one and not the other fails)."""
    from tesearch.cli.programs import ExportFormat
    from tesearch.schedules.programs.traces import TRACE_FORMATS

    assert {f.value for f in ExportFormat} == {ExportFormat.PROGRAMS.value, *TRACE_FORMATS}
    assert all(name == form.name for name, form in TRACE_FORMATS.items())
