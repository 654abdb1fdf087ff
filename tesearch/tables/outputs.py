"""Writing a table without losing anything: the keep-better rule.

A command that produced a verified table writes it with :func:`save_table`:

* no file there: the table is written (atomically);
* a valid table of the same network (the same generators, not only the same
  label) and exchange, no wider: it is kept and
  nothing is written (``--force`` replaces it);
* a valid table of the same network and exchange, wider: it is replaced;
* anything else (not a table, another network, a table that does not
  verify): refused with exit 2 and left as it is, unless ``--force``.

So a rerun never replaces a better table, and a mistyped ``--out`` never
destroys a file that is not a table.  Before all that, the checks of
:func:`tesearch.running.files.check_output` hold, ``--force`` or not: never one of the
command's inputs, never a link, device, FIFO or socket, and an extension that
fits (.json, .json.gz or .txt); the file is written by
:func:`tesearch.running.files.write_output`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from tesearch.running.errors import OptionError, TesearchError
from tesearch.running.files import TABLE_KIND, check_output, write_output
from tesearch.running.limits import phase
from tesearch.tables.loading import judge_table, other_network
from tesearch.tables.table import Table, read_table, table_file_bytes


@dataclass(frozen=True)
class Saved:
    """What :func:`save_table` did: ``written`` or not, and the T of a table it kept."""

    path: Path
    written: bool
    kept_T: int | None = None
    replaced_T: int | None = None

    def text(self, new_T: int) -> str:
        """One line for people: written, or kept and why."""
        if self.written:
            return f"written to {self.path}" + (f" (it held T = {self.replaced_T})" if self.replaced_T else "")
        return (f"kept {self.path}: it already holds a valid table with T = {self.kept_T} "
                f"(this run: T = {new_T}); --force replaces it")


def existing_table(path: Path, table: Table) -> tuple[Table | None, str | None]:
    """(the valid table of the same network and exchange at ``path``, None) or (None, why it is not one)."""
    try:
        old = read_table(path)
    except TesearchError as exc:
        return None, f"it is not a readable tesearch table ({exc.message})"
    judged = judge_table(old, expected=table, where=str(path))
    return (old, None) if judged.accepted else (None, judged.problem)


def check_table_output(path: str | Path, *, inputs: Iterable[str | Path | None] = (), force: bool = False) -> Path:
    """Refuse, before any work, a ``--out`` that no table could be written to (see :func:`tesearch.running.files.check_output`)."""
    return check_output(path, kind=TABLE_KIND, inputs=inputs, force=force)


@dataclass(frozen=True)
class Existing:
    """An output file's keep-better check made ahead, under the command's limits (before a search runs).

    ``fingerprint``: (device, inode, size, mtime) when checked (None: no file then); ``problem``: why
    it is not a valid table (None when it is one: ``network``, ``exchange``, ``generators`` and ``T``
    say which).
    """

    path: Path
    fingerprint: tuple | None
    network: str | None = None
    exchange: str | None = None
    T: int | None = None
    problem: str | None = None
    generators: Mapping[str, object] | None = None


def _fingerprint(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def check_existing(path: str | Path) -> Existing:
    """Read and verify the table at ``path`` now (the slow part of :func:`save_table` for a big table)."""
    path = Path(path)
    fingerprint = _fingerprint(path)
    if fingerprint is None:
        return Existing(path, None)
    try:
        with phase("check existing output"):
            old = read_table(path)
    except TesearchError as exc:
        return Existing(path, fingerprint, problem=f"it is not a readable tesearch table ({exc.message})")
    with phase("check existing output"):
        judged = judge_table(old, where=str(path))
    return Existing(path, fingerprint, old.network, old.exchange, old.T, judged.problem, old.generators)


def _judged(existing: Existing, table: Table) -> tuple[int | None, str | None]:
    """(T of the valid table of the same network and exchange, None) or (None, why not) from a check made ahead."""
    if existing.network is None:
        return None, existing.problem
    why = other_network((existing.network, existing.exchange, existing.generators),
                        (table.network, table.exchange, table.generators))
    if why is not None:
        return None, why
    if existing.problem is not None:
        return None, existing.problem
    return existing.T, None


def refuse_unreplaceable(existing: Existing, network: str, exchange: str, generators: Mapping[str, object]) -> None:
    """Refuse now (OptionError, exit 2), before any work, an output that no table of ``network`` ``exchange``
    could replace without ``--force``: a file that is not a valid table of that network (another network or
    exchange, another network under the same label, not a table, a table that does not verify).  A valid table
    of that network passes: whether the new one is narrower is decided when it is there."""
    if existing.fingerprint is None or existing.fingerprint[2] == 0:  # no file, or an empty one: nothing to keep
        return
    if existing.network is None:
        why = existing.problem
    else:
        why = other_network((existing.network, existing.exchange, existing.generators),
                            (network, exchange, generators)) or existing.problem
    if why is not None:
        raise OptionError(f"not replaced: {why}; it is left as it was (--force replaces it)", where=str(existing.path))


def save_table(table: Table, path: str | Path, *, force: bool = False,
               inputs: Iterable[str | Path | None] = (), existing: Existing | None = None) -> Saved:
    """Write a verified ``table`` to ``path`` under the keep-better rule (see the module doc).

    ``inputs`` are the command's input files: never written, ``force`` or not.
    ``existing``: :func:`check_existing` of ``path`` made earlier; used while the file is unchanged.
    """
    path = Path(path)
    inputs = tuple(inputs)
    check_output(path, kind=TABLE_KIND, inputs=inputs, force=force)
    replaced = None
    if path.exists() and path.stat().st_size > 0 and not force:  # an empty file holds nothing to keep
        if existing is not None and existing.path == path and existing.fingerprint is not None \
                and existing.fingerprint == _fingerprint(path):
            old_T, why = _judged(existing, table)
        else:
            old, why = existing_table(path, table)
            old_T = None if old is None else old.T
        if old_T is None:
            raise OptionError(f"not replaced: {why}; it is left as it was (--force replaces it)", where=str(path))
        if old_T <= table.T:
            return Saved(path, False, kept_T=old_T)
        replaced = old_T
    write_output(path, table_file_bytes(table, path), kind=TABLE_KIND, inputs=inputs, force=force)
    return Saved(path, True, replaced_T=replaced)
