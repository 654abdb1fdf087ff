"""Hostile inputs: specs, numbers and options; garbled, mutated and invalid tables; forged and tampered encodings and certificates; output paths that attack (inputs, links, devices, FIFOs, wrong suffixes, other kinds of files); signals at random moments."""

from __future__ import annotations

import hashlib
import json
import random
import signal
import string
from pathlib import Path

from hypothesis import strategies as st
from tesearch.testing.cases import Case, FIFO_SECONDS, committed, committed_json, known_width


# ------------------------------------------------------------------ building blocks of hostile input

HUGE = ["100000000000000000000", "99999999999999999999", "1e20", "-100000000000000000000", str(2 ** 64)]
CONTROL = ["\n", "\r", "\t", "\x1b[31m", "\x07", "\u2028", "\x7f", " \n "]
FAMILIES = ["star", "hypercube", "ring", "torus", "pancake", "bubblesort", "blob", "Star", ""]
#: small committed tables (inputs of the table commands)
SMALL_TABLES = ["ring-4.json", "ring-6.json", "star-4.json", "hypercube-3.json", "torus-3x3.json",
                "ring-4-cyclic.json", "ring-6-cyclic.json", "pancake-4.json", "star-4-odd.json", "torus-4x4.json"]
#: small networks with a known table: (spec, exchange)
SMALL_NETWORKS = [("star-4", "total"), ("ring-6", "total"), ("ring-6:cyclic", "total"), ("ring-8", "total"),
                  ("hypercube-3", "total"), ("torus-3x3", "total"), ("ring-4", "total"), ("pancake-4", "total"),
                  ("star-4", "odd-distance"), ("ring-8:cyclic", "total"), ("torus-4x4", "total")]

numbers = st.one_of(st.integers(-5, 40).map(str),
                    st.sampled_from(["0", "1", "99999", "100000000", "2.5", "x", "", "-1", "1e9", "٣", *HUGE]))
specs = st.one_of(
    st.builds(lambda f, a: f"{f}-{a}", st.sampled_from(FAMILIES), numbers),
    st.builds(lambda sides, g: "torus-" + "x".join(sides) + g, st.lists(numbers, min_size=1, max_size=4),
              st.sampled_from(["", ":cyclic", ":dihedral", ":twisted", ":cyclic,dihedral", ":x"])),
    st.builds(lambda n, g: f"ring-{n}{g}", numbers, st.sampled_from(["", ":cyclic", ":dihedral", ":weird"])),
    st.builds(lambda s, c, at: s[:at] + c + s[at:], st.sampled_from(["star-4", "ring-6", "torus-3x3", "ring-6:cyclic"]),
              st.sampled_from(CONTROL), st.integers(0, 12)),
    st.text(alphabet=string.printable, max_size=30),
    st.sampled_from(["star-4", "ring-6", "hypercube-3", "torus-3x3", "pancake-4", "bubblesort-4", "ring-6:cyclic",
                     "star-3", "torus-2x2x2", "ring-3", f"star-{HUGE[0]}", f"torus-{HUGE[0]}x2"]),
)

options = st.lists(st.sampled_from([
    "--timeout", "-1", "0", "nan", "inf", "5", "--max-memory", "1", "10M", "lots", "--max-order", "0", "30",
    "--exchange", "odd-distance", "total", "both", "--json", "--quiet", "--force", "--word-cap", "--max-width",
    "--from-width", "3", "-3", "--strategy", "full", "rotation", "--backend", "cpsat", "--solver", "z3",
    "cpsat-intervals", "--output", "-o", "--round", "--cpsat-model", "intervals", "--window", "1:2", "-1:3",
    "--partial", "--engine", "streaming", "reference", "--model", "single-port", "--ring", "--mode", "cyclic",
    "--tail", "--workers", "--algorithm", "a2", "--attempt-timeout", "--solver-timeout", "--allow-unchecked",
    *HUGE, "--max-memory", "--seed", "--repeat", "--bytes", "-n", "--order", "--num-cpus", "--seeds",
]), max_size=4)


def clean_args(args: list[str]) -> list[str]:
    """No NUL in a command line (no shell can pass one)."""
    return [a.replace("\x00", "") for a in args]


def committed_table(name: str) -> dict:
    """The committed table results/NAME as a JSON object."""
    return committed_json(f"results/{name}")


def _mutate_json(value, draw, depth=0):
    """A structurally plausible, possibly hostile, variant of a JSON value."""
    choice = draw(st.integers(0, 9))
    if depth > 3 or choice == 0:
        return draw(st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                              st.text(max_size=8), st.just([]), st.just({}), st.just(10 ** 20)))
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        out = dict(value)
        action = draw(st.integers(0, 3))
        if action == 0:
            del out[key]
        elif action == 1:
            out[key] = _mutate_json(value[key], draw, depth + 1)
        elif action == 2:
            out[draw(st.text(max_size=6))] = _mutate_json(value[key], draw, depth + 1)
        else:
            out[key] = _mutate_json(out[key], draw, depth + 1)
        return out
    if isinstance(value, list) and value:
        out = list(value)
        i = draw(st.integers(0, len(out) - 1))
        action = draw(st.integers(0, 3))
        if action == 0:
            del out[i]
        elif action == 1:
            out[i] = _mutate_json(out[i], draw, depth + 1)
        elif action == 2:
            out.append(out[i])
        else:
            out.insert(i, _mutate_json(out[i], draw, depth + 1))
        return out
    if isinstance(value, int) and not isinstance(value, bool):
        return draw(st.sampled_from([value + 1, value - 1, -value, 0, 10 ** 12, 2 ** 31, 2 ** 63, -1, 10 ** 20]))
    if isinstance(value, str):
        return draw(st.sampled_from([value + "x", "", "star-5", "custom:x", "ring-6:cyclic", "odd-distance",
                                     "\u0000", value * 3, value + "\n", "star-4\nstar-5"]))
    return value


def text_table(data: dict, *, marked: bool = True) -> bytes:
    """The plain text form of a table (one row per letter row; '|' before each word when marked)."""
    T = data["T"]
    rows = max(len(data["generators"]), 1 + max((p[0] for p in data["placements"]), default=0))
    grid = [["."] * T for _ in range(rows)]
    starts = [set() for _ in range(rows)]
    for row, col, word in data["placements"]:
        starts[row].add(col)
        for k, letter in enumerate(word):
            if col + k < T:
                grid[row][col + k] = letter
    lines = [f"network: {data['network']}", f"exchange: {data['exchange']}", f"T: {T}"]
    if not marked:
        lines.append("boundaries: unmarked")
    lines.append("")
    for row in range(rows):
        tokens = []
        for col in range(T):
            if marked and col in starts[row]:
                tokens.append("|")
            tokens.append(grid[row][col])
        lines.append(" ".join(tokens))
    return ("\n".join(lines) + "\n").encode()


@st.composite
def table_bytes(draw) -> bytes:
    """A small valid table, mutated; or text-form garbage; or raw hostile bytes."""
    kind = draw(st.integers(0, 11))
    if kind <= 5:
        data = committed_table(draw(st.sampled_from(SMALL_TABLES)))
        for _ in range(draw(st.integers(1, 3))):
            data = _mutate_json(data, draw)
        return json.dumps(data).encode()
    if kind <= 7:
        rows = draw(st.lists(st.text(alphabet="aAbB'|. 0123\n", max_size=30), min_size=0, max_size=4))
        header = draw(st.sampled_from(["network: ring-6\n", "network: ring-6\nT: abc\n", "network: star-9\n",
                                       "network: ring-6\nexchange: odd\n", "", "network: custom:x\n",
                                       f"network: ring-6\nT: {HUGE[0]}\n", "network: ring-6\nlower_bound: 1e20\n"]))
        return (header + "\n" + "\n".join(rows)).encode()
    if kind <= 9:
        data = committed_table(draw(st.sampled_from(SMALL_TABLES)))
        key = draw(st.sampled_from(["T", "lower_bound", "letter_bound", "format_version", "placements"]))
        if key == "placements":
            data["placements"][0][draw(st.integers(0, 1))] = 10 ** 20
        else:
            data[key] = draw(st.sampled_from([10 ** 20, -10 ** 20, 2 ** 63, 1e20]))
        return json.dumps(data).encode()
    return draw(st.sampled_from([b"[" * 5000, b"\xff\xfe\x00", b"{}", b"null", b"", b"{\"format\": NaN}",
                                 b"9" * 5000, json.dumps({"format": "tesearch-table"}).encode(),
                                 b"\x1f\x8b\x08\x00garbage"]))


def _commute(p: list[int], q: list[int]) -> bool:
    return all(p[q[i]] == q[p[i]] for i in range(len(p)))


@st.composite
def invalid_table(draw, names=SMALL_TABLES) -> tuple[dict, str]:
    """A committed valid table with one mutation that makes it invalid, and which mutation.

    Each is invalid whatever the group: the valid table maps its words one to one onto the targets,
    so a word that now reaches another element duplicates a target (or is no shortest word), and one
    that reaches the same element with another length is no shortest word."""
    name = draw(st.sampled_from(list(names)))
    data = committed_table(name)
    places = data["placements"]
    gens = data["generators"]
    how = draw(st.sampled_from(["moved word", "swapped letters", "doubled letter", "wrong label generators",
                                "edited lower_bound", "T too small"]))
    if how == "moved word":
        i = draw(st.integers(0, len(places) - 1))
        row, col = places[i][0], places[i][1]
        others = [p for j, p in enumerate(places) if j != i and p[0] == row and p[1] != col]
        if others:
            places[i][1] = draw(st.sampled_from(others))[1]
            return data, f"moved word: row {row}, column {col} now overlaps another word ({name})"
        places[i][1] = data["T"]
        return data, f"moved word: row {row}, column {col} now starts at T ({name})"
    if how == "swapped letters":
        for i, (_, _, word) in enumerate(places):
            for k in range(len(word) - 1):
                a, b = word[k], word[k + 1]
                if a != b and a in gens and b in gens and not _commute(gens[a], gens[b]):
                    word[k], word[k + 1] = b, a
                    return data, f"swapped letters {a}{b} in word {i} ({name})"
        how = "doubled letter"
    if how == "doubled letter":
        i = draw(st.integers(0, len(places) - 1))
        places[i][2] = [places[i][2][0], *places[i][2]]
        return data, f"doubled the first letter of word {i} ({name})"
    if how == "wrong label generators":
        letters = sorted(gens)
        pairs = [(a, b) for a in letters for b in letters if a < b and gens[a] != gens[b]]
        if pairs:
            a, b = draw(st.sampled_from(pairs))
            gens[a], gens[b] = gens[b], gens[a]
            return data, f"generators of {a} and {b} swapped under the label {data['network']} ({name})"
        how = "edited lower_bound"
    if how == "T too small" and data["T"] > 1:
        end = max(p[1] + len(p[2]) for p in places)
        data["T"] = end - 1
        return data, f"T = {end - 1} but a word ends at column {end} ({name})"
    data["lower_bound"] = data["T"] + draw(st.integers(1, 4))
    return data, f"lower_bound {data['lower_bound']} above T = {data['T']} ({name})"


@st.composite
def generator_bytes(draw) -> bytes:
    """A generators file: permutations (valid or not) under random letters, maybe inside a table object."""
    points = draw(st.integers(0, 7))
    letters = draw(st.lists(st.text(alphabet="ab'A .|1\n", min_size=0, max_size=3), min_size=0, max_size=4))
    gens = {}
    for letter in letters:
        perm = list(range(points))
        random.Random(draw(st.integers(0, 10 ** 6))).shuffle(perm)
        if draw(st.booleans()):
            perm = draw(st.lists(st.integers(-2, 9), max_size=8))
        if draw(st.integers(0, 9)) == 0:
            perm = [10 ** 20, *perm]
        gens[letter] = perm
    wrapper = draw(st.sampled_from(["bare", "table", "labelled"]))
    if wrapper == "bare":
        return json.dumps(gens).encode()
    label = draw(st.sampled_from(["star-4", "custom:mine", "ring-6", "x", "custom:a\nb"]))
    return json.dumps({"generators": gens, "network": label} if wrapper == "labelled" else {"generators": gens}).encode()


# ------------------------------------------------------------------ encodings and certificates

FORGED_BODIES = [
    "(declare-fun x () Bool)\n(assert x)\n(assert (not x))\n(check-sat)\n",
    "(declare-fun x_0_0_0 () Bool)\n(assert ((_ pbeq 2 1) x_0_0_0))\n(check-sat)\n",
    "(declare-fun x_0_0_0 () Bool)\n(declare-fun x_1_0_0 () Bool)\n(assert ((_ at-most 0) x_0_0_0))\n"
    "(assert ((_ pbeq 1 1 1) x_0_0_0 x_0_0_0))\n(check-sat)\n",
]


def forged_encoding(problem: str, width: int, items: int, body: str) -> bytes:
    """An SMT-LIB2 file whose header says it encodes ``problem`` at ``width``; its body is anything."""
    return (f"; tesearch encoding: {problem} T={width} items={items} pb+count+exact+mirror\n"
            f"; sections: one placement per item={items}\n; candidate words complete: True\n{body}").encode()


def _header_lines(text: str) -> tuple[list[str], list[str]]:
    lines = text.splitlines(keepends=True)
    head = [line for line in lines if line.startswith(";")]
    return head, [line for line in lines if not line.startswith(";")]


@st.composite
def tampered_encoding(draw, problem: str, width: int, items: int, own: str) -> tuple[bytes, str]:
    """An encoding for ``problem`` at ``width`` that the trusted kernel did not make, and how it was made."""
    how = draw(st.sampled_from(["forged", "dropped assertion", "other network", "other network, this header",
                                "other width"]))
    original = committed(own).decode()
    if how == "forged":
        return forged_encoding(problem, width, items, draw(st.sampled_from(FORGED_BODIES))), "forged header"
    if how == "dropped assertion":
        head, body = _header_lines(original)
        asserts = [i for i, line in enumerate(body) if line.startswith("(assert")]
        drop = draw(st.sampled_from(asserts))
        return "".join(head + body[:drop] + body[drop + 1:]).encode(), f"assertion {drop} dropped"
    others = [p for p in ENCODINGS if p != own]
    other = draw(st.sampled_from(others))
    text = committed(other).decode()
    if how == "other network":
        return text.encode(), f"the encoding of {other}"
    if how == "other width":
        same = [p for p in others if p.split("-T")[0] == own.split("-T")[0]] or others
        return committed(draw(st.sampled_from(same))), "another width's encoding"
    head, body = _header_lines(text)
    return forged_encoding(problem, width, items, "".join(body)), f"the body of {other} under this header"


ENCODINGS = ["encodings/ring-4_cyclic-total-full-T2.smt2", "encodings/ring-6_cyclic-total-full-T5.smt2",
             "encodings/ring-8_cyclic-total-full-T8.smt2", "encodings/ring-8_cyclic-total-full-T9.smt2"]
#: certificate -> (problem, its committed encodings), for the tampering cases
CERTIFIED = {"ring-6-cyclic": ("ring-6:cyclic total", ["encodings/ring-6_cyclic-total-full-T5.smt2"]),
             "ring-4-cyclic": ("ring-4:cyclic total", ["encodings/ring-4_cyclic-total-full-T2.smt2"]),
             "ring-8-cyclic": ("ring-8:cyclic total", ["encodings/ring-8_cyclic-total-full-T8.smt2",
                                                       "encodings/ring-8_cyclic-total-full-T9.smt2"])}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _canonical_sha(table: dict) -> str:
    return _sha(json.dumps(table, sort_keys=True, separators=(",", ":")).encode())


def repo_files(*relative: str) -> dict[str, bytes]:
    """Copies of committed files at the same place in the sandbox, and a pyproject.toml marking its root."""
    return {"pyproject.toml": b"", **{r: committed(r) for r in relative}}


@st.composite
def tampered_certificate(draw) -> tuple[dict[str, bytes], list[int], str]:
    """A certificate (proofs/c.json) whose impossibility claim rests on an encoding the kernel did not make.

    Either the claim is false (a width at or above the known table, the table padded to width + 1,
    a forged encoding) or its encoding was altered (an assertion dropped, another network's or
    width's file).  The hashes are made to match, as a forger would."""
    name = draw(st.sampled_from(sorted(CERTIFIED)))
    problem, encodings = CERTIFIED[name]
    cert = committed_json(f"proofs/{name}.json")
    index = draw(st.integers(0, len(cert["impossibility_claims"]) - 1))
    claim = cert["impossibility_claims"][index]
    files = repo_files(*{p for c in cert["impossibility_claims"] for p in (c["encoding"]["path"],)},
                        *{c["proof"]["path"] for cl in cert["impossibility_claims"] for c in cl.get("confirmations", [])
                          if isinstance(c.get("proof"), dict)})
    network = cert["network"]["spec"]
    items = claim["encoding"]["header"]["items"]
    if draw(st.booleans()):  # a false claim: width at or above the known table's
        known = known_width(network, cert["network"]["exchange"])
        width = known + draw(st.integers(0, 2))
        table = cert["table"]["content"]
        table["T"] = width + 1  # padded with empty columns: still a valid table
        cert["table"]["T"] = width + 1
        cert["table"]["sha256"] = _canonical_sha(table)
        cert["result"] = {"T": width + 1, "optimal": True, "argument": f"width {width} is impossible"}
        cert["impossibility_claims"] = [claim]
        index = 0
        claim["width"] = width
        claim["claim"] = f"no table of width {width} for {problem}"
        data, how = forged_encoding(problem, width, items, draw(st.sampled_from(FORGED_BODIES))), "forged header"
    else:
        data, how = draw(tampered_encoding(problem, claim["width"], items, claim["encoding"]["path"]))
        if data == committed(claim["encoding"]["path"]):
            data += b"\n; tampered\n(assert false)\n"
    path = f"encodings/forged-{index}.smt2"
    files[path] = data
    claim["encoding"].update({"path": path, "sha256": _sha(data), "bytes": len(data)})
    claim["encoding"]["header"]["width"] = claim["width"]
    if draw(st.booleans()):
        claim["confirmations"] = [c for c in claim.get("confirmations", []) if c.get("method") != "sat+drat"]
    files["proofs/c.json"] = json.dumps(cert, indent=1).encode()
    return files, [index], f"tampered certificate ({how})"


@st.composite
def certificate_bytes(draw) -> bytes:
    """A small committed certificate, mutated (paths, hashes, claims, nesting, huge numbers)."""
    name = draw(st.sampled_from(["ring-6.json", "star-4.json", "ring-6-cyclic.json", "hypercube-3.json"]))
    data = committed_json(f"proofs/{name}")
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate_json(data, draw)
    claims = data.get("impossibility_claims") if isinstance(data, dict) else None
    if draw(st.integers(0, 4)) == 0 and isinstance(claims, list) and claims and isinstance(claims[0], dict) \
            and isinstance(claims[0].get("encoding"), dict):
        claims[0]["encoding"]["path"] = draw(st.sampled_from(
            ["/etc/passwd", "../../../etc/passwd", "encodings/../../x", "", "encodings/nope.smt2"]))
    if draw(st.integers(0, 5)) == 0 and isinstance(data, dict) and isinstance(data.get("table"), dict):
        data["table"]["T"] = 10 ** 20
    return json.dumps(data).encode()


# ------------------------------------------------------------------ output-path attacks

#: output kind -> (a good name, a committed file of that kind, a file of another kind)
_KIND_FILES = {
    "table": ("out.json", "results/star-4.json", "proofs/ring-6.json"),
    "schedule": ("out.json", None, "results/star-4.json"),
    "certificate": ("c.json", "proofs/ring-6.json", "results/ring-6.json"),
    "programs": ("p.jsonl", None, "results/ring-6.json"),
    "picture": ("p.png", "results/compare.png", "results/ring-6.json"),
    "plot": ("p.png", "results/compare.png", "results/ring-6.json"),
    "runs": ("runs.json", None, "results/star-4.json"),
    "directory": ("outdir", None, "results/star-4.json"),
    "encodings": ("enc", None, "results/star-4.json"),
    "page": ("p.html", None, "results/ring-6.json"),
    "trace": ("trace.json", None, "results/ring-6.json"),
}
_WRONG_SUFFIX = {"table": ["out.png", "out.svg", "out", "out.smt2"], "schedule": ["out.txt", "out.png", "out"],
                 "certificate": ["c.txt", "c.png", "c"], "programs": ["p.png", "p.gz", "p.txt", "p"],
                 "picture": ["p.txt", "p.json", "p.gif", "p"], "plot": ["p.txt", "p.json", "p"],
                 "runs": ["runs.png", "runs"], "directory": [], "encodings": [],
                 "page": ["p.png", "p.txt", "p"], "trace": ["trace.png", "trace.txt", "trace"]}


@st.composite
def output_target(draw, kind: str, inputs: list[str], *, attack: bool = True) -> dict:
    """Where a command is told to write: a fresh file, or an attack on a file that must survive.

    Returns the case fields: path, files, links, fifos, dirs, devices, replaceable, seconds, label."""
    good, same_kind, other_kind = _KIND_FILES[kind]
    choices = ["fresh"]
    if attack:
        choices += ["input", "symlink", "device", "fifo", "directory", "other kind", "wrong extension",
                    "missing directory", "same kind", "better table"]
    how = draw(st.sampled_from(choices))
    out = {"path": good, "files": {}, "links": {}, "fifos": [], "dirs": [], "devices": [], "replaceable": [],
           "seconds": None, "label": f"output: {how}"}
    if how == "input" and inputs:
        out["path"] = draw(st.sampled_from(inputs))
    elif how == "symlink":
        target = same_kind or other_kind
        suffix = good[good.rfind("."):] if "." in good else ""
        out["path"] = f"link{suffix}"
        out["files"][f"committed/{Path(target).name}"] = committed(target)
        out["links"][out["path"]] = draw(st.sampled_from([f"committed/{Path(target).name}",
                                                          f"../work/committed/{Path(target).name}"]))
        if same_kind and kind in ("certificate", "picture", "plot"):
            out["replaceable"].append(out["path"])  # the link may be replaced; the file it points to never
    elif how == "device":
        out["path"] = "null-device"
        out["devices"].append("null-device")
    elif how == "fifo":
        out["path"] = "fifo" + (good[good.rfind("."):] if "." in good else "")
        out["fifos"].append(out["path"])
        out["seconds"] = FIFO_SECONDS
    elif how == "directory" and kind not in ("directory", "encodings"):
        out["path"] = "adir"
        out["dirs"].append("adir")
        out["files"]["adir/keep.txt"] = b"keep me\n"
    elif how == "other kind":
        out["files"][good] = committed(other_kind)
    elif how == "wrong extension" and _WRONG_SUFFIX[kind]:
        out["path"] = draw(st.sampled_from(_WRONG_SUFFIX[kind]))
    elif how == "missing directory":
        out["path"] = f"missing/{good}"
    elif how == "same kind" and same_kind:
        out["files"][good] = committed(same_kind)
        if kind in ("certificate", "picture", "plot"):
            out["replaceable"].append(good)
    elif how == "better table":
        out["files"][good] = committed(draw(st.sampled_from(["results/star-6.json", "results/star-4.json",
                                                             "results/ring-6.json"])))
    else:
        out["label"] = "output: fresh"
    return out


def apply_output(case: Case, option: str, kind: str, target: dict) -> None:
    """Give ``case`` the output ``option`` with a drawn :func:`output_target` of ``kind``, and what it knows of it."""
    case.args += [option, target["path"]]
    case.files.update(target["files"])
    case.links.update(target["links"])
    case.fifos += target["fifos"]
    case.dirs += target["dirs"]
    case.devices += target["devices"]
    case.replaceable += target["replaceable"]
    case.outputs.append(target["path"])
    case.output_kinds[target["path"]] = kind
    if target["seconds"] is not None:
        case.seconds = min(case.seconds, target["seconds"])
    case.kind = target["label"] if case.kind == "plain" else f"{case.kind}, {target['label']}"


# ------------------------------------------------------------------ signals

@st.composite
def signal_spec(draw) -> tuple[int, float, bool]:
    """SIGINT or SIGTERM after 0.05-3 s, to the process or (as Ctrl-C does) to its group."""
    sig = draw(st.sampled_from([signal.SIGINT, signal.SIGTERM]))
    delay = draw(st.floats(0.05, 3.0, allow_nan=False))
    return int(sig), round(delay, 2), draw(st.booleans())


def signal_case(draw, args: list[str], files: dict[str, bytes] | None = None, *, seconds: float = 60.0) -> Case:
    """A long-running command line, interrupted at a random moment (a real process, not a fork)."""
    case = Case(clean_args(args), dict(files or {}), signal=draw(signal_spec()), exec_mode=True, seconds=seconds,
                kind="signal")
    return case
