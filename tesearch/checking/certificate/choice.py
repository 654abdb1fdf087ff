"""Checking word-choice certificates (kind ``word-choice``, docs/certificate-format.md), with the kernel only.

The network is rebuilt from the certificate's generators by the kernel's BFS (its label checked against the
registry, never trusted); the lower bound is re-derived from the letter weights and, if given, the parity
argument (:mod:`tesearch.checking.kernel.wordchoice`, exact integers); the upper bound from the listed words.  Each
claim gets CONFIRMED, REFUTED (with the reason) or UNCHECKED.  Imports: the kernel, the spec registry and the
bottom layer; never the prover (tests/test_kernel.py checks the certificate checker in a fresh interpreter).
"""

from __future__ import annotations

from dataclasses import dataclass

from tesearch.running.errors import FormatError, GeneratorsError
from tesearch.checking.kernel import MAX_CHECK_NODES, build_network, target_mask
from tesearch.checking.kernel.wordchoice import ChoiceCheck, check_parity, check_weights, check_words
from tesearch.networks.families import network_for_table
from tesearch.running.terms import Exchange, Verdict

#: one checked claim: (claim, statement, verdict, reason)
Claim = tuple[str, str, Verdict, str]


def _letters_and_generators(network: dict, where: str) -> tuple[tuple[str, ...], list[tuple[int, ...]]]:
    gens = network["generators"]
    letters = tuple(network.get("letters") or gens)
    if sorted(letters) != sorted(gens):
        raise FormatError("'network.letters' are not the generators' letters", where=where)
    try:
        perms = [tuple(int(x) for x in gens[s]) for s in letters]
    except (TypeError, ValueError):
        raise FormatError("a generator is not a list of integers", where=where) from None
    points = len(perms[0]) if perms else 0
    if not perms or any(sorted(p) != list(range(points)) for p in perms):
        raise FormatError("the generators are not permutations of 0..n-1 of one length", where=where)
    return letters, perms


@dataclass(frozen=True)
class Rederived:
    """The bounds a word-choice certificate's evidence establishes, as the kernel re-derived them (never its
    stated numbers): what the keep-better rule of ``bound -o`` compares."""

    lower: int  # the best of the counting bound and the confirmed lower arguments
    upper: int | None  # the largest load of the listed words when they are a valid word choice (None: none)


#: numbers (and truth values) of a word-choice certificate that the checker re-derives or compares, by path
#: (``*`` any key or index); ``created``, ``verification`` and ``record`` are records, not claims
CHECKED_NUMBERS = ("format_version", "kind_version", "network.order", "network.targets", "network.target_letters",
                   "network.generators.*.*", "lower.bound", "lower.weights.denominator", "lower.weights.need",
                   "lower.weights.weights.*", "lower.parity.level", "lower.parity.parity", "lower.parity.interval.*",
                   "upper.bound", "upper.loads.*", "result.lower", "result.upper", "result.exact")
RECORDS = ("created", "verification", "record")


def check_word_choice(data: dict, where: str) -> list[Claim]:
    """Every claim of a word-choice certificate (already validated by ``validate_word_choice``), re-derived."""
    return _check(data, where)[0]


def rederived_bounds(data: dict, where: str) -> Rederived:
    """The bounds the certificate's evidence establishes (:class:`Rederived`); FormatError or GeneratorsError
    when it is not a readable word-choice certificate."""
    return _check(data, where)[1]


def _check(data: dict, where: str) -> tuple[list[Claim], Rederived]:
    network = data["network"]
    letters, perms = _letters_and_generators(network, where)
    try:
        exchange = Exchange(network["exchange"])
    except ValueError:
        raise FormatError(f"'network.exchange' is {network['exchange']!r}, not total or odd-distance",
                          where=where) from None
    net = build_network(letters, perms, max_nodes=MAX_CHECK_NODES, where=where, purpose="the word-choice check")
    is_target = target_mask(net, exchange)
    claims = [_network_claim(network, exchange, net, is_target, letters, perms, where)]
    index = {s: k for k, s in enumerate(letters)}
    lower_claims, lower, best = _lower_claims(data["lower"], net, perms, is_target, letters, index)
    claims += lower_claims
    upper_claim, upper = _upper_claim(data.get("upper"), net, is_target, index)
    claims += [upper_claim] if upper_claim else []
    result = data["result"]
    if result["exact"]:
        stated = data["lower"]["bound"]
        exact = upper is not None and lower is not None and upper == stated
        claims.append(("exact", f"the least possible most-used letter count is {stated}",
                       Verdict.CONFIRMED if exact else Verdict.REFUTED,
                       "the confirmed lower bound meets the confirmed word choice" if exact else
                       "the lower and upper bounds confirmed here do not meet"))
    claims.append(_result_claim(data, lower, upper))
    unchecked = _unchecked_numbers(data)
    if unchecked:
        claims.append(("numbers", f"the numbers at {', '.join(unchecked)}", Verdict.UNCHECKED,
                       "the checker re-derives no number at these places (docs/certificate-format.md lists the "
                       "ones it does)"))
    return claims, Rederived(best, upper)


def _result_claim(data: dict, lower: int | None, upper: int | None) -> Claim:
    """``result`` must restate the sides confirmed above: its lower and upper, and exact only where they meet."""
    result = data["result"]
    stated_upper = (data.get("upper") or {}).get("bound")
    statement = f"lower {result['lower']}, upper {result['upper']}, exact {str(result['exact']).lower()}"
    faults = []
    if lower is None:
        faults.append(f"result.lower is {result['lower']}, but the lower bound {data['lower']['bound']} is refuted")
    elif result["lower"] != lower:
        faults.append(f"result.lower is {result['lower']}, the confirmed lower bound is {lower}")
    if result["upper"] != stated_upper:
        faults.append(f"result.upper is {result['upper']}, upper.bound is {stated_upper}")
    elif stated_upper is not None and upper is None:
        faults.append(f"result.upper is {result['upper']}, but the word choice is refuted")
    meet = lower is not None and upper is not None and stated_upper == lower
    if result["exact"] != meet:
        faults.append(f"result.exact is {str(result['exact']).lower()}, the confirmed sides "
                      f"{'meet' if meet else 'do not meet'}")
    if faults:
        return "result", statement, Verdict.REFUTED, "; ".join(faults)
    return "result", statement, Verdict.CONFIRMED, "it restates the confirmed lower and upper sides"


def _unchecked_numbers(data: dict) -> list[str]:
    """The places of numbers and truth values outside :data:`CHECKED_NUMBERS` and the records."""
    found: list[str] = []

    def walk(value, path: tuple[str, ...]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + (str(key),))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, path + (str(i),))
        elif isinstance(value, (bool, int, float)) and not any(_matches(path, pattern) for pattern in CHECKED_NUMBERS):
            found.append(".".join(path))

    for key, value in data.items():
        if key not in RECORDS:
            walk(value, (str(key),))
    return found[:10] + ([f"and {len(found) - 10} more"] if len(found) > 10 else [])


def _matches(path: tuple[str, ...], pattern: str) -> bool:
    parts = pattern.split(".")
    return len(parts) == len(path) and all(p in ("*", q) for p, q in zip(parts, path))


def _network_claim(network: dict, exchange: Exchange, net, is_target, letters, perms, where: str) -> Claim:
    problems = []
    try:
        network_for_table(network["spec"], {s: list(p) for s, p in zip(letters, perms)}, where=f"{where}: network")
    except (GeneratorsError, FormatError) as exc:
        problems.append(str(exc))
    computed = {"order": net.order, "targets": int(is_target.sum()),
                "target_letters": int(net.depth[is_target].sum())}
    problems += [f"{k}: recorded {network.get(k)!r}, recomputed {v!r}" for k, v in computed.items()
                 if k in network and network[k] != v]
    return ("network", f"{network['spec']} {exchange.value}: the spec's generators, {net.order} nodes",
            Verdict.REFUTED if problems else Verdict.CONFIRMED,
            "; ".join(problems) or "the spec's generators are the certificate's; the group rebuilt by the kernel's "
                                   "BFS matches every recorded figure")


def _stated_figures(stated: dict, check: ChoiceCheck, where: str) -> list[str]:
    """Where the numbers a certificate states beside an argument (``need``, ``parity``, ``interval``, ``loads``)
    differ from the ones the kernel computed; a figure the certificate leaves out is not stated."""
    return [f"{where}.{name} is {stated[name]!r}, re-derived {value!r}" for name, value in check.figures
            if name in stated and stated[name] != value]


def _lower_claims(lower: dict, net, perms, is_target, letters, index) -> tuple[list[Claim], int | None, int]:
    """The weights and the parity claims, then the stated bound against what they established (None: refuted),
    and the best bound established."""
    claims: list[Claim] = []
    established = []
    weights = lower.get("weights")
    if weights is not None:
        unknown = sorted(set(weights["weights"]) - set(letters))
        values = [weights["weights"].get(s, 0) for s in letters]
        check = check_weights(net, perms, is_target, values, weights["denominator"]) if not unknown else None
        statement = "letter weights (the LP dual): every word choice uses some letter at least as often as they say"
        if check is None:
            claims.append(("lower.weights", statement, Verdict.REFUTED, f"weights of unknown letters {unknown}"))
        elif not check.ok:
            claims.append(("lower.weights", statement, Verdict.REFUTED, "; ".join(check.faults)))
        elif _stated_figures(weights, check, "lower.weights"):
            established.append(check.value)  # the weights hold; only the figure stated beside them is wrong
            claims.append(("lower.weights", statement, Verdict.REFUTED,
                           "; ".join(_stated_figures(weights, check, "lower.weights"))))
        else:
            established.append(check.value)
            claims.append(("lower.weights", f"every word choice uses some letter at least {check.value} times",
                           Verdict.CONFIRMED, check.how))
    parity = lower.get("parity")
    if parity is not None:
        odd_names = parity["odd_letters"]
        statement = f"parity of the letters {odd_names}: no word choice uses every letter at most {parity['level']} times"
        if not all(isinstance(s, str) and s in index for s in odd_names):
            claims.append(("lower.parity", statement, Verdict.REFUTED, "an odd letter is not a letter of the network"))
        else:
            check = check_parity(net, perms, is_target, [index[s] for s in odd_names], parity["level"])
            if check.ok and _stated_figures(parity, check, "lower.parity"):
                established.append(check.value)
                claims.append(("lower.parity", statement, Verdict.REFUTED,
                               "; ".join(_stated_figures(parity, check, "lower.parity"))))
            elif check.ok:
                established.append(check.value)
                claims.append(("lower.parity", f"every word choice uses some letter at least {check.value} times",
                               Verdict.CONFIRMED, check.how))
            else:
                claims.append(("lower.parity", statement, Verdict.REFUTED, "; ".join(check.faults)))
    counting = -(-int(net.depth[is_target].sum()) // net.degree)
    best = max([counting, *established])
    stated = lower["bound"]
    statement = f"every word choice uses some letter at least {stated} times"
    if stated > best:
        claims.append(("lower", statement, Verdict.REFUTED, f"the certificate's arguments establish only {best}"))
        return claims, None, best
    claims.append(("lower", statement, Verdict.CONFIRMED,
                   f"re-derived {best} (counting {counting}"
                   + (f", the certificate's arguments {', '.join(map(str, established))}" if established else "") + ")"))
    return claims, stated, best


def _upper_claim(upper: dict | None, net, is_target, index) -> tuple[Claim | None, int | None]:
    """The listed word choice against its stated bound (None, None: the certificate lists none)."""
    if upper is None:
        return None, None
    statement = f"a word choice uses every letter at most {upper['bound']} times"
    words = []
    for i, text in enumerate(upper["words"]):
        names = text.split()
        if not all(s in index for s in names):
            return ("upper", statement, Verdict.REFUTED, f"word {i} ({text!r}) has a letter the network does not "
                                                         f"have"), None
        words.append([index[s] for s in names])
    check = check_words(net, is_target, words)
    if not check.ok:
        return ("upper", statement, Verdict.REFUTED, "; ".join(check.faults)), None
    if check.value > upper["bound"]:
        return ("upper", statement, Verdict.REFUTED, f"the words use some letter {check.value} times"), None
    figures = _stated_figures(upper, check, "upper")
    if figures:  # the words are a valid choice (their value stands); the loads stated beside them are wrong
        return ("upper", statement, Verdict.REFUTED, "; ".join(figures)), check.value
    return ("upper", statement, Verdict.CONFIRMED, check.how), check.value


def cited_choice(cited: object, *, root, net, is_target, letters: tuple[str, ...], generators, exchange: Exchange,
                 where: str) -> tuple[int | None, str]:
    """A table certificate's ``bounds.per_letter.attained_by`` (``{"certificate": path, "sha256": ...}``): the
    word-choice certificate it cites, its words walked now by the kernel on the table's own network.  (the most-used
    letter's count of that choice, how it was checked) or (None, why it does not count): the file missing, changed
    since it was cited, of another network or exchange, or its words not a valid choice."""
    from tesearch.checking.certificate.format import file_sha256, load_certificate
    from tesearch.running.files import confined_path

    if not isinstance(cited, dict) or not isinstance(cited.get("certificate"), str) \
            or not isinstance(cited.get("sha256"), str):
        raise FormatError("'bounds.per_letter.attained_by' needs 'certificate' and 'sha256' strings", where=where)
    path = confined_path(cited["certificate"], root, where=f"{where}: bounds.per_letter.attained_by")
    if not path.is_file():
        return None, f"the cited word-choice certificate {cited['certificate']} is not found under {root}"
    if file_sha256(path) != cited["sha256"]:
        return None, f"the cited word-choice certificate {cited['certificate']} changed since it was cited (sha256)"
    data = load_certificate(path)
    network = data.get("network") or {}
    if data.get("kind") != "word-choice":
        return None, f"{cited['certificate']} is not a word-choice certificate"
    theirs = _letters_and_generators(network, str(path))
    ours = (tuple(letters), [tuple(int(x) for x in g) for g in generators])
    if theirs != ours or network.get("exchange") != exchange.value:
        return None, f"{cited['certificate']} is about another network or exchange ({network.get('spec')})"
    claim, value = _upper_claim(data.get("upper"), net, is_target, {s: k for k, s in enumerate(letters)})
    if claim is None or claim[2] is not Verdict.CONFIRMED:
        return None, f"{cited['certificate']}: " + ("it lists no word choice" if claim is None else claim[3])
    return value, (f"the word choice of {cited['certificate']} (sha256 matches; its {int(is_target.sum())} words "
                   f"walked now by the kernel: {claim[3]})")
