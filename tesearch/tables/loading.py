"""One checked way in for tables: every command that takes a table loads it with :func:`load_checked_table`.

``run``, ``export``, ``certify``, ``draw``, ``compare`` and ``singleport`` (and every later command
that reads a table) call :func:`load_checked_table`; ``compare`` and ``singleport``, which take a
network or a table, call :func:`network_or_checked_table`.  The loader refuses, with one line
naming the file and the fault (exit 2), what ``tesearch verify`` refuses:

* a file that does not read as a table (tesearch-table v1 JSON, ``.json.gz`` or the marked text form);
* a ``network`` label whose family's generators are not the table's (:func:`tesearch.networks.families.network_for_table`);
* a table that breaks seed 003 Theorem 1 (:func:`tesearch.tables.verify.verify_table`: the count and the
  first violation with its rule, row, column and word);
* recorded bounds (``lower_bound``, ``letter_bound``, ``best_bound``) that differ from the ones
  :func:`tesearch.tables.verify.verify_table` recomputes from the generators.

No Theorem-1 check is written here: this module only calls the prover's verifier.  The replay,
which is the independent simulator, keeps its own loader (:mod:`tesearch.checking.kernel.loader`) and
checks the label with :func:`tesearch.networks.families.network_for_table` (see ``tesearch.cli.checking``).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from tesearch.data import packaged_table
from tesearch.running.errors import FormatError, GeneratorsError, OptionError, TesearchError
from tesearch.running.files import sniff_kind
from tesearch.networks.groups import cached_cayley_graph
from tesearch.facts.instance import Instance
from tesearch.running.limits import phase
from tesearch.networks.families import Network, network_for_table, network_from_file, network_from_spec
from tesearch.running.terms import optimality_text
from tesearch.tables.table import Table, read_table
from tesearch.tables.verify import Verification, verify_table

#: recorded bound keys of a table and how each is recomputed from a verification
RECORDED_BOUNDS = {
    "lower_bound": ("the counting bound", lambda check: check.bounds.counting),
    "letter_bound": ("the per-letter bound", lambda check: check.bounds.letter.value),
    "best_bound": ("the best lower bound", lambda check: check.bounds.best),
}
#: the phase a limit names while a table is read and checked
CHECK_PHASE = "check the table"
#: file-name endings that make a command argument a table file rather than a network spec
TABLE_FILE_ENDINGS = (".json", ".json.gz", ".gz", ".txt")
#: what a network spec looks like (FAMILY-PARAMS[:GROUP]); such an argument is never taken for a file
SPEC_SHAPE = re.compile(r"[a-z]+-[^:/]*(:[^/]*)?")


class InvalidTableError(FormatError):
    """A table file that reads but that a command refuses: Theorem 1 fails or a recorded bound is wrong."""


def recorded_bound_faults(table: Table, check: Verification) -> list[str]:
    """Each recorded bound of ``table`` that differs from the one ``check`` recomputed, as a phrase."""
    faults = []
    for key, (what, recomputed) in RECORDED_BOUNDS.items():
        recorded = table.lower_bound if key == "lower_bound" else table.extra.get(key)
        if recorded is None:
            continue
        value = recomputed(check)
        if recorded != value:
            faults.append(f"its recorded {key} is {recorded!r}, but {what} of {table.network} "
                          f"{table.exchange} is {value}")
    return faults


class Refusal(str, enum.Enum):
    """Why a table from elsewhere is refused (:func:`judge_table`; a run's faults are
    :class:`tesearch.schedules.execute.faults.Fault`)."""

    OTHER_NETWORK = "other network"  # labelled with another network or exchange than expected
    GENERATORS = "generators"  # its generators are not its label's, or not the expected network's
    UNCHECKABLE = "uncheckable"  # the check itself could not run on it
    INVALID = "invalid"  # Theorem 1 fails
    BOUNDS = "bounds"  # a recorded bound differs from the one recomputed


@dataclass(frozen=True)
class Judgement:
    """What :func:`judge_table` found: the check and the network when it got that far, and the refusal
    (None: the table is taken) with a phrase for people, and the error raised on the way, if any."""

    check: Verification | None
    network: Network | None
    refusal: Refusal | None = None
    problem: str | None = None
    error: TesearchError | None = None

    @property
    def accepted(self) -> bool:
        """Whether the table is a valid table of the expected network with right recorded bounds."""
        return self.refusal is None


def other_network(label: tuple[str, str, Mapping[str, object]],
                  expected: tuple[str, str, Mapping[str, object]]) -> str | None:
    """Why a table labelled ``label`` (network, exchange, generators) is not one of ``expected``, or None.

    Two generator sets with the same ``custom:`` label are two networks: the generators decide, not the name."""
    (network, exchange, gens), (want_network, want_exchange, want_gens) = label, expected
    if (network, exchange) != (want_network, want_exchange):
        return f"it holds a table of {network} {exchange}, not {want_network} {want_exchange}"
    if set(gens) != set(want_gens) or any(list(gens[s]) != list(want_gens[s]) for s in want_gens):
        return f"it holds a table of another network labelled {network} (its generators are not this one's)"
    return None


def judge_table(table: Table, *, expected: Table | Instance | None = None, where: str = "table",
                network: Network | None = None) -> Judgement:
    """The one way a table from elsewhere is taken (an existing output, a sweep task's table, a factor,
    a command's input): it must be labelled as ``expected`` (a table or an instance: network, exchange
    and the same generators), its generators must be its label's, it must verify completely against
    Theorem 1, and its recorded bounds must be the ones recomputed.  Never raises for a fault of the table.
    ``network``, when the caller has resolved it already (a spec's), is the network the label must name
    (its spec and generators): it is not derived from the label a second time.
    """
    facts = expected if isinstance(expected, Instance) else None
    if network is not None and facts is None:
        why = other_network((table.network, table.exchange, table.generators),
                            (network.spec, table.exchange, dict(network.generators)))
        if why is not None:
            return Judgement(None, None, Refusal.OTHER_NETWORK, why)
    if expected is not None:
        want = ((facts.spec, facts.exchange, dict(facts.network.generators)) if facts is not None
                else (expected.network, expected.exchange, expected.generators))
        why = other_network((table.network, table.exchange, table.generators), want)
        if why is not None:
            return Judgement(None, None, Refusal.OTHER_NETWORK, why)
    try:
        net = facts.network if facts is not None else network if network is not None else \
            network_for_table(table.network, table.generators, where=where)
    except TesearchError as exc:
        return Judgement(None, None, Refusal.GENERATORS, exc.message, exc)
    try:
        check = (verify_table(table, facts=facts) if facts is not None
                 else verify_table(table, cg=cached_cayley_graph(net)))
    except TesearchError as exc:
        return Judgement(None, net, Refusal.UNCHECKABLE, f"its table cannot be checked ({exc.message})", exc)
    if not check.ok:
        count = len(check.violations)
        return Judgement(check, net, Refusal.INVALID,
                         f"it does not verify ({count} violation{'' if count == 1 else 's'} of Theorem 1 of the "
                         f"table method; the first: {check.violations[0]})")
    faults = recorded_bound_faults(table, check)
    if faults:
        return Judgement(check, net, Refusal.BOUNDS, "; ".join(faults))
    return Judgement(check, net)


@dataclass(frozen=True)
class CheckedTable:
    """A table that passed the checked loader, with what the check computed (for commands that show it): the
    table, its network and its verdict, in one object a command passes on."""

    path: Path
    table: Table
    check: Verification
    network: Network

    @property
    def verdict(self) -> str:
        """'OPTIMAL' or 'not shown optimal (gap N)': the table against its best lower bound."""
        return optimality_text(self.table.T, self.check.bounds.best)


def load_checked(path: str | Path, *, command: str, segmenter=None,
                 precheck: Callable[[Table], None] | None = None, network: Network | None = None) -> CheckedTable:
    """:func:`load_checked_table`, keeping the verification and the network.

    ``segmenter`` splits text rows without ``|`` into words as ``tesearch verify`` does
    (:func:`tesearch.tables.segment.segmented`); ``precheck`` runs on the table read, before the Theorem-1
    check (a command's own size limits, so that a table too large for it is refused before work);
    ``network``: the network the caller resolved already (:class:`Target`), which the table must be of.
    """
    path = Path(path)
    where = str(path)
    with phase(CHECK_PHASE):
        table = read_table(path, segmenter=segmenter) if segmenter is not None else read_table(path)
        if precheck is not None:
            precheck(table)
        judged = judge_table(table, where=where, network=network)
    if judged.refusal is Refusal.OTHER_NETWORK:
        raise InvalidTableError(f"{command} refuses this table: {judged.problem}", where=where)
    if judged.refusal in (Refusal.GENERATORS, Refusal.UNCHECKABLE):
        raise judged.error
    if judged.refusal is Refusal.INVALID:
        raise InvalidTableError(f"{command} refuses this table: {judged.problem}; `tesearch verify {path}` lists them",
                                where=where)
    if judged.refusal is not None:
        raise InvalidTableError(f"{command} refuses this table: {judged.problem}", where=where)
    return CheckedTable(path, table, judged.check, judged.network)


def load_checked_table(path: str | Path, *, command: str) -> Table:
    """The table at ``path``, checked as ``tesearch verify`` checks it, or one line naming file and fault.

    Runs as the phase :data:`CHECK_PHASE` (a command's limits name it); a command with limits
    calls it inside :func:`tesearch.running.supervise.supervise`, so that --timeout holds while a large
    table is checked.  ``command`` is the subcommand's name, for the message (``tesearch: t.json: run refuses this
    table: ...``).  Raises :class:`~tesearch.running.errors.FormatError` (unreadable file),
    :class:`~tesearch.running.errors.GeneratorsError` (the label names other generators) or
    :class:`InvalidTableError` (Theorem 1 fails; a recorded bound differs): all exit 2.
    The :class:`~tesearch.tables.table.Table` returned is valid and its recorded bounds are right.
    """
    return load_checked(path, command=command).table


def names_a_file(target: str) -> bool:
    """Whether a command argument that may be a network spec or a file names a file.

    As :func:`tesearch.networks.families.network_from_spec` decides (``file:``, a ``/``, ``.json``), and also a
    table file ending ``.json.gz``, ``.gz`` or ``.txt``, or an existing file whose name is not
    shaped like a spec (``star-4`` is the network even beside a file of that name).
    """
    if target.startswith("file:") or "/" in target or target.endswith(TABLE_FILE_ENDINGS):
        return True
    return SPEC_SHAPE.fullmatch(target) is None and Path(target).is_file()


def network_or_checked_table(target: str | Target, *, command: str) -> tuple[Network, Table | None]:
    """The network (and the checked table, if any) that a NETWORK|TABLE argument names.

    A network spec or a generators file (a bare generators object, or one with a ``network``
    label) gives the network as ``tesearch info`` reads it and no table; a tesearch table gives
    the table through :func:`load_checked_table` and its network.
    """
    resolved = target if isinstance(target, Target) else resolve_target(target)  # a command's, resolved once
    if resolved.network is not None:
        return resolved.network, None
    path = resolved.path
    if path.is_file() and sniff_kind(path) == "tesearch-table":
        loaded = resolved.load(command=command)
        return loaded.network, loaded.table
    try:
        return network_from_file(path), None
    except GeneratorsError as exc:
        raise GeneratorsError(f"{exc.message} (give a network spec, a generators file or a tesearch table)",
                              where=exc.where) from None


@dataclass(frozen=True)
class Target:
    """A command's TABLE|NETWORK argument, resolved once (:func:`resolve_target`): the table file it names (or,
    for a network spec, the table tesearch ships), and the network a spec names; :meth:`load` then gives the one
    checked object (:class:`CheckedTable`: the table, its network, its verdict) the command works on.  Nothing
    after it resolves the argument or derives the network again."""

    argument: str
    path: Path | None  # the table file: the one named, or the shipped table of a spec
    network: Network | None  # the network a spec names (None for a file: its label names it, checked on loading)

    @property
    def order(self) -> int | None:
        """The number of nodes a spec names, from its formula (before anything is built); None for a file."""
        return self.network.order if self.network is not None else None

    def table_file(self) -> Path:
        """The table file, or one line (exit 2) when a spec has no table tesearch ships."""
        if self.path is None:
            raise OptionError(f"tesearch ships no table of {self.network.spec}; make one (tesearch search "
                              f"{self.network.spec} -o FILE) and give its file")
        return self.path

    def load(self, *, command: str, precheck: Callable[[Table], None] | None = None) -> CheckedTable:
        """The table, checked as ``tesearch verify`` checks it (one line naming the file and fault otherwise), with
        its network (a spec's, as resolved; a file's, from its label and generators, derived once here)."""
        return load_checked(self.table_file(), command=command, precheck=precheck, network=self.network)


def resolve_target(argument: str, *, shipped: bool = False) -> Target:
    """What a TABLE|NETWORK argument names, decided once: a file (:func:`names_a_file`), or a network spec (built
    from the registry: a bad spec is one line, exit 2).  ``shipped``: a spec stands for the table tesearch ships of
    it (:func:`tesearch.data.packaged_table`; none shipped: :meth:`Target.table_file` says so, after the command
    has refused what the spec's order rules out)."""
    if names_a_file(argument):
        return Target(argument, Path(argument.removeprefix("file:")), None)
    network = network_from_spec(argument)
    return Target(argument, packaged_table(network.spec) if shipped else None, network)
