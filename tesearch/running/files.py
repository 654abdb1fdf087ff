"""Reading and writing files safely: every reader refuses bad input with one line, every writer is atomic.

Readers (:func:`read_text_file`, :func:`read_json_file`) refuse, with an error
naming the file: a missing file, a directory or device, a file larger than a
limit (checked before reading), bytes that are not UTF-8, JSON that does not
parse, nests too deeply or holds NaN/Infinity.  Writers
(:func:`write_atomically`) write a temporary file beside the target and rename
it over the target, so a reader (or an interrupted run) sees the old file or
the new one, never half of one; the file gets the mode the umask gives (as
``open`` would), and the target's directory must exist: nothing is created
silently.  Readers asked to (``gzip_ok=True``: tables, as tesearch.tables.table and the
kernel's loader read them) accept a gzip-compressed file, recognised by its magic
bytes, and decompress it under the same size limit (:func:`gunzip_limited`);
:func:`gzip_bytes` writes one reproducibly (no name, no time stamp).  Paths recorded inside certificates are relative and confined to
their tree (:func:`confined_path`).

Every file a command writes goes through :func:`write_output` (or, for a file
streamed piece by piece, :func:`output_target`); :func:`check_output` makes the
same checks before any work starts.  Beyond atomicity they refuse, with one line
and exit 2 (:class:`~tesearch.running.errors.OptionError`), and leave the target as it was:

* a path that is one of the command's own inputs (same resolved path or same inode);
* a symbolic link (never followed, whatever it points to), a directory, a device,
  a FIFO or a socket: only a regular file is ever replaced;
* a file name whose extension does not fit the format written (:class:`FileKind`);
* without ``force``, an existing file of another kind (a certificate over a table,
  a PNG over a JSON file, anything over a file tesearch did not write), as
  recognised from its first bytes by :func:`sniff_kind`.  An empty file is
  replaced.  Whether a table may replace a table is the keep-better rule of
  :mod:`tesearch.tables.outputs`, which calls these.

This module imports only the standard library and :mod:`tesearch.running.errors`.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import stat
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from tesearch.running.errors import FormatError, OptionError, SizeLimitError, TesearchError

#: largest file a reader accepts by default (a star-9 table is about 25 MB; an option raises it)
MAX_INPUT_BYTES = 1 << 30
#: largest generators file (a network spec given as a path): 65536 points x 16 letters fit in far less
MAX_GENERATORS_FILE_BYTES = 16 << 20


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: the mode new files get: what open() would give under this process's umask
FILE_MODE = 0o666 & ~_umask()


def read_bytes(path: str | Path, error: type[TesearchError] = FormatError, *, max_bytes: int = MAX_INPUT_BYTES
               ) -> bytes:
    """A regular file's bytes, or ``error`` naming the file (missing, not a file, too large, unreadable)."""
    path = Path(path)
    where = str(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise error("no such file", where=where) from None
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", where=where) from None
    if stat.S_ISDIR(info.st_mode):
        raise error("is a directory, not a file", where=where)
    if not stat.S_ISREG(info.st_mode):
        raise error("is not a regular file", where=where)
    if info.st_size > max_bytes:
        raise SizeLimitError(f"the file has {info.st_size} bytes, more than the limit of {max_bytes}", where=where)
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)  # /proc files report size 0: read no more than the limit
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", where=where) from None
    if len(data) > max_bytes:
        raise SizeLimitError(f"the file has more than {max_bytes} bytes (the limit)", where=where)
    return data


#: the first two bytes of every gzip stream
GZIP_MAGIC = b"\x1f\x8b"


def gunzip_limited(data: bytes, where: str, error: type[TesearchError] = FormatError, *,
                   max_bytes: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes a gzip stream holds, refused (SizeLimitError) past ``max_bytes``: no decompression bomb."""
    out = bytearray()
    rest = data
    try:
        while rest:
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip header and trailer; one member
            chunk = inflater.decompress(rest, max_bytes + 1 - len(out))
            out += chunk
            if len(out) > max_bytes or inflater.unconsumed_tail:
                raise SizeLimitError(f"decompresses to more than {max_bytes} bytes (the limit)", where=where)
            if not inflater.eof:
                raise error("not a complete gzip file (truncated)", where=where)
            rest = inflater.unused_data
    except zlib.error as exc:
        raise error(f"not a valid gzip file ({exc})", where=where) from None
    return bytes(out)


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzip-compressed reproducibly: the same bytes give the same file (mtime 0, no file name)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def decode_utf8(data: bytes, where: str, error: type[TesearchError] = FormatError) -> str:
    """UTF-8 text, or ``error`` naming the byte offset of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"not UTF-8 text (bad byte at offset {exc.start})", where=where) from None


def read_text_file(path: str | Path, error: type[TesearchError] = FormatError, *,
                   max_bytes: int = MAX_INPUT_BYTES, gzip_ok: bool = False) -> str:
    """A file's UTF-8 text, or ``error`` naming the file (``gzip_ok``: a gzip file is decompressed first)."""
    data = read_bytes(path, error, max_bytes=max_bytes)
    if gzip_ok and data[:2] == GZIP_MAGIC:
        data = gunzip_limited(data, str(path), error, max_bytes=max_bytes)
    return decode_utf8(data, str(path), error)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def parse_json_text(text: str, where: str, error: type[TesearchError] = FormatError) -> object:
    """Decoded JSON, or ``error`` with the line and column of the fault (never a RecursionError)."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", where=where) from None
    except RecursionError:
        raise error("not usable JSON: nested too deeply", where=where) from None
    except ValueError as exc:  # NaN/Infinity, or an integer with too many digits
        raise error(f"not usable JSON: {exc}", where=where) from None


def read_json_file(path: str | Path, error: type[TesearchError] = FormatError, *,
                   max_bytes: int = MAX_INPUT_BYTES, gzip_ok: bool = False) -> object:
    """:func:`read_text_file` then :func:`parse_json_text`, errors naming the file."""
    return parse_json_text(read_text_file(path, error, max_bytes=max_bytes, gzip_ok=gzip_ok), str(path), error)


def _refuse_unsafe_entry(path: Path) -> None:
    """OptionError unless ``path`` is absent or a regular file that is not a symbolic link."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OptionError(f"cannot inspect the output: {exc.strerror or exc}", where=str(path)) from None
    if stat.S_ISLNK(info.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        raise OptionError(f"is a symbolic link (to {target}); tesearch never writes through a link: "
                          "give the path of a regular file", where=str(path))
    if stat.S_ISDIR(info.st_mode):
        raise OptionError("is a directory; give a file name", where=str(path))
    if not stat.S_ISREG(info.st_mode):
        what = ("a FIFO" if stat.S_ISFIFO(info.st_mode) else "a socket" if stat.S_ISSOCK(info.st_mode)
                else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "not a regular file")
        raise OptionError(f"is {what}; tesearch replaces only regular files", where=str(path))


def writable_target(path: str | Path) -> Path:
    """``path`` if a file can be written there: its directory exists and the path is absent or a regular file.

    A symbolic link, a directory, a device, a FIFO or a socket is refused (never written through or
    replaced).  Raises :class:`OptionError` naming the path otherwise (checked before any work starts).
    """
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    _refuse_unsafe_entry(path)
    if not parent.is_dir():
        raise OptionError(f"directory {parent} does not exist (tesearch creates no directories)", where=str(path))
    if path.exists() and not os.access(path, os.W_OK):
        raise OptionError("the file is not writable", where=str(path))
    try:  # access() says yes to root everywhere (/proc too): try what the writer will do
        fd, probe = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=".probe")
    except OSError as exc:
        raise OptionError(f"cannot write in directory {parent}: {exc.strerror or exc}", where=str(path)) from None
    os.close(fd)
    os.unlink(probe)
    return path


@contextlib.contextmanager
def atomic_target(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write; renamed over ``path`` (with :data:`FILE_MODE`) when the
    ``with`` block ends normally, removed on any error (KeyboardInterrupt included)."""
    path = writable_target(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.close(fd)
    except OSError as exc:
        raise OptionError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    try:
        yield Path(tmp)
        _refuse_unsafe_entry(path)  # again: the target may have changed while the work ran
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OptionError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomically(path: str | Path, data: str | bytes) -> Path:
    """Write a whole file or nothing (:func:`atomic_target`), flushed to disk before the rename."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_target(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
    return Path(path)


# ---------------------------------------------------------------------------- outputs: one safe writer

@dataclass(frozen=True)
class FileKind:
    """A kind of file tesearch writes: a name for people, the extensions that fit it, and the
    :func:`sniff_kind` tags of existing files it may replace without ``--force``."""

    name: str
    suffixes: tuple[str, ...]
    tags: frozenset[str]

    def fits(self, path: Path) -> bool:
        """Whether ``path``'s file name ends with one of this kind's extensions (case-insensitive)."""
        name = path.name.lower()
        return any(name.endswith(suffix) and len(name) > len(suffix) for suffix in self.suffixes)

    def suffix_text(self) -> str:
        """The extensions, for messages: ``.json, .json.gz or .txt``."""
        return self.suffixes[0] if len(self.suffixes) == 1 else \
            f"{', '.join(self.suffixes[:-1])} or {self.suffixes[-1]}"


#: tesearch-table v1 (JSON; gzip-compressed JSON for .json.gz; the text form for .txt)
TABLE_KIND = FileKind("tesearch table", (".json", ".json.gz", ".txt"), frozenset({"tesearch-table"}))
#: tesearch-schedule v1 (singleport --out)
SCHEDULE_KIND = FileKind("tesearch schedule", (".json",), frozenset({"tesearch-schedule"}))
#: tesearch-programs v1, JSON Lines (export -o; read back line by line, so never compressed)
PROGRAMS_KIND = FileKind("tesearch-programs file", (".jsonl",), frozenset({"tesearch-programs"}))
#: proof certificates (certify -o)
CERTIFICATE_KIND = FileKind("proof certificate", (".json",), frozenset({"tesearch-certificate"}))
#: pictures (draw -o, replay --plot): the format follows the extension
FIGURE_KIND = FileKind("picture", (".png", ".svg"), frozenset({"png", "svg"}))
#: a sweep's runs record
RUNS_KIND = FileKind("sweep runs record", (".json",), frozenset({"tesearch-sweep-runs"}))
#: Chrome trace-event JSON (tesearch.schedules.chrome_trace)
TRACE_KIND = FileKind("Chrome trace", (".json",), frozenset({"chrome-trace"}))
#: an HTML page
HTML_KIND = FileKind("HTML page", (".html", ".htm"), frozenset({"html"}))
#: a markdown report (benchmarks' --report): plain text, so it may replace any text file tesearch did not write
MARKDOWN_KIND = FileKind("markdown report", (".md",), frozenset({"other", "tesearch-report"}))
#: a benchmark's or script's --report (scripts.markdown_report, benchmarks.fuzz): its first line says the command
#: that wrote it ("Command: `...`"), and it replaces only such a report (or an empty file) without --force
REPORT_KIND = FileKind("tesearch report", (".md",), frozenset({"tesearch-report"}))
#: a plain JSON record of a benchmark or report script (no tesearch format): never over a table or certificate
RECORD_KIND = FileKind("JSON record", (".json",), frozenset({"json"}))
#: a shared library (tesearch library): only over another ELF file
SHARED_LIBRARY_KIND = FileKind("shared library", (".so",), frozenset({"elf"}))
#: a C header (tesearch library): plain text
HEADER_KIND = FileKind("C header", (".h",), frozenset({"other"}))

#: what tesearch's Chakra traces record as ``made_by`` at the start of their global metadata (binary protobuf:
#: :func:`sniff_kind` recognises them by it; tesearch.schedules.programs.traces writes it)
CHAKRA_MARK = "tesearch export --format chakra"

#: what :func:`sniff_kind`'s tags mean, for messages
KIND_NAMES = {
    "empty": "an empty file", "tesearch-table": "a tesearch table", "tesearch-schedule": "a tesearch schedule",
    "tesearch-programs": "a tesearch-programs file", "tesearch-certificate": "a proof certificate",
    "tesearch-sweep-runs": "a sweep runs record", "chrome-trace": "a Chrome trace", "png": "a PNG image",
    "svg": "an SVG image", "html": "an HTML page", "chakra": "a Chakra execution trace",
    "json": "a JSON file tesearch did not write", "tesearch-report": "a report a tesearch script wrote",
    "gzip": "a gzip file tesearch did not write", "elf": "an ELF binary", "other": "a file tesearch did not write",
}
#: bytes :func:`sniff_kind` reads from the start of a file
SNIFF_BYTES = 1 << 16
_FORMAT_TAG = re.compile(r'"format"\s*:\s*"([A-Za-z0-9_.-]{1,64})"')
_TEXT_TABLE = re.compile(r"^\s*network\s*:", re.MULTILINE)
#: the first line of a report a tesearch benchmark or script wrote (REPORT_KIND)
_REPORT_HEAD = re.compile(r"Commands?: `")


def sniff_kind(path: str | Path) -> str:
    """What the regular file at ``path`` holds, from its first bytes: a key of :data:`KIND_NAMES`.

    ``tesearch-*`` formats by their ``"format"`` key (a gzip file by what it decompresses to), a
    text table by its ``network:`` header, PNG by its magic bytes, SVG, HTML and Chrome traces by
    their opening, tesearch's Chakra traces by :data:`CHAKRA_MARK`; ``other`` for anything else.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError as exc:
        raise OptionError(f"cannot read the existing file: {exc.strerror or exc}", where=str(path)) from None
    if not head:
        return "empty"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head[:1] not in (b"{", b"[", b"<") and b"made_by" in head[:128] and CHAKRA_MARK.encode() in head[:128]:
        return "chakra"  # a protobuf GlobalMetadata whose first attribute is made_by = CHAKRA_MARK
    if head.startswith(b"\x7fELF"):
        return "elf"
    compressed = head[:2] == GZIP_MAGIC
    if compressed:
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, SNIFF_BYTES)
        except zlib.error:
            return "gzip"
    text = head.decode("utf-8", errors="replace")
    start = text.lstrip()[:512].lower()
    if start.startswith("{"):
        found = _FORMAT_TAG.search(text)
        if found and found.group(1).startswith("tesearch-"):
            return found.group(1) if found.group(1) in KIND_NAMES else "json"
        return "chrome-trace" if '"traceEvents"' in text else "json"
    if start.startswith("["):
        return "chrome-trace" if '"ph"' in text else "json"
    if "<svg" in start:
        return "svg"
    if start.startswith("<!doctype html") or start.startswith("<html"):
        return "html"
    if not compressed and _TEXT_TABLE.search(text[:4096]):
        return "tesearch-table"
    if not compressed and _REPORT_HEAD.match(text):
        return "tesearch-report"
    return "gzip" if compressed else "other"


def _same_file(path: Path, other: Path) -> bool:
    try:
        if path.resolve() == Path(other).resolve():
            return True
        return path.exists() and Path(other).exists() and os.path.samefile(path, other)
    except OSError:
        return False


def check_output(path: str | Path, *, kind: FileKind, inputs: Iterable[str | Path | None] = (),
                 force: bool = False) -> Path:
    """``path`` as a place a command may write a ``kind`` file, or :class:`OptionError` (exit 2) saying why.

    Call it before any work starts; :func:`write_output` and :func:`output_target` call it again.
    Refused always: one of ``inputs`` (the command's input files; same resolved path or inode), a
    symbolic link, a directory, device, FIFO or socket, a missing directory, an extension that does
    not fit ``kind``.  Refused without ``force``: an existing file of another kind (:func:`sniff_kind`).
    """
    path = Path(path)
    where = str(path)
    for source in inputs:
        if source is not None and _same_file(path, Path(source)):
            raise OptionError(f"is one of this command's inputs ({source}); write the output elsewhere",
                              where=where)
    _refuse_unsafe_entry(path)
    if not kind.fits(path):
        raise OptionError(f"a {kind.name} is written to a file ending in {kind.suffix_text()}, "
                          f"not {''.join(path.suffixes) or 'a name without an extension'!r}", where=where)
    writable_target(path)
    if not force and path.exists():
        found = sniff_kind(path)
        if found != "empty" and found not in kind.tags:
            raise OptionError(f"not replaced: it holds {KIND_NAMES.get(found, found)}, not a {kind.name}; "
                              "it is left as it was (--force replaces it)", where=where)
    return path


@contextlib.contextmanager
def output_target(path: str | Path, *, kind: FileKind, inputs: Iterable[str | Path | None] = (),
                  force: bool = False) -> Iterator[Path]:
    """:func:`check_output`, then a temporary path beside ``path`` to write (streamed, by a child process...);
    it is renamed over ``path`` when the ``with`` block ends normally, after the checks are made once more."""
    inputs = tuple(inputs)
    path = check_output(path, kind=kind, inputs=inputs, force=force)
    with atomic_target(path) as tmp:
        yield tmp
        check_output(path, kind=kind, inputs=inputs, force=force)


def write_output(path: str | Path, data: str | bytes, *, kind: FileKind,
                 inputs: Iterable[str | Path | None] = (), force: bool = False) -> Path:
    """Write a whole ``kind`` file at ``path`` atomically, or refuse with one line (see :func:`check_output`).

    ``data`` is the file's content (text is written as UTF-8); ``inputs`` are the command's input
    files, which are never written; ``force`` replaces an existing file of another kind.  Links,
    devices, FIFOs and sockets are never written, ``force`` or not.  Returns ``path``.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with output_target(path, kind=kind, inputs=inputs, force=force) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
    return Path(path)


# ---------------------------------------------------------------------------- output directories

#: the file a command writes into every output directory it makes, naming the files it wrote and their sha256
DIRECTORY_MANIFEST = "tesearch-manifest.json"
DIRECTORY_MANIFEST_FORMAT = "tesearch-output-directory"
#: the largest manifest read back
MAX_MANIFEST_BYTES = 1 << 20


def _sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _previous_output(path: Path, made_by: str, force: bool) -> str | None:
    """Why the existing directory ``path`` is not an earlier output of ``made_by`` (None when it is one, or empty)."""
    entries = sorted(os.listdir(path))
    if not entries:
        return None
    shown = ", ".join(entries[:5]) + (f" and {len(entries) - 5} more" if len(entries) > 5 else "")
    foreign = f"it holds files {made_by} did not write ({shown})"
    if DIRECTORY_MANIFEST not in entries:
        return foreign
    manifest_path = path / DIRECTORY_MANIFEST
    try:
        if not stat.S_ISREG(os.lstat(manifest_path).st_mode):
            return foreign
        manifest = json.loads(read_bytes(manifest_path, max_bytes=MAX_MANIFEST_BYTES).decode("utf-8"))
    except (TesearchError, OSError, UnicodeDecodeError, ValueError, RecursionError):
        return foreign
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if (manifest.get("format") != DIRECTORY_MANIFEST_FORMAT or manifest.get("made_by") != made_by
            or not isinstance(files, dict)):
        return foreign
    others = [name for name in entries if name != DIRECTORY_MANIFEST and name not in files]
    if others:
        return f"it holds files {made_by} did not write ({', '.join(others[:5])})"
    for name in entries:
        if name == DIRECTORY_MANIFEST:
            continue
        entry = path / name
        if not stat.S_ISREG(os.lstat(entry).st_mode):
            return f"{name} there is not a regular file"
        if not force and _sha256(entry) != files[name]:
            return f"{name} there changed since {made_by} wrote it (--force replaces it)"
    return None


def check_output_directory(path: str | Path, *, made_by: str, inputs: Iterable[str | Path | None] = (),
                           force: bool = False) -> Path:
    """``path`` as a directory a command may write its whole output into, or :class:`OptionError` (exit 2).

    Accepted: a new directory (its parent exists), an empty one, or one holding only an earlier output of
    ``made_by`` (the files its :data:`DIRECTORY_MANIFEST` names, unchanged; ``force``: changed too).  Refused
    always: an empty name, a symbolic link, something else than a directory, a directory holding any other file,
    the current directory or one holding it, a directory holding one of the command's inputs."""
    if not str(path):
        raise OptionError("an empty directory name; give the directory to write (a new one, or an earlier output)")
    path = Path(path)
    where = str(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OptionError(f"cannot inspect the output directory: {exc.strerror or exc}", where=where) from None
    parent = path.absolute().parent
    if info is None:
        if not parent.is_dir():
            raise OptionError(f"directory {parent} does not exist (tesearch creates one directory, not its parents)",
                              where=where)
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OptionError(f"cannot write in directory {parent}", where=where)
        return path
    if stat.S_ISLNK(info.st_mode):
        raise OptionError("is a symbolic link; tesearch never writes through a link: give a directory", where=where)
    if not stat.S_ISDIR(info.st_mode):
        raise OptionError("exists and is not a directory; give a new directory or an earlier output", where=where)
    here = Path.cwd().resolve()
    resolved = path.resolve()
    if resolved == here or resolved in here.parents:
        raise OptionError("is the current directory or holds it; give a new directory (tesearch never replaces "
                          "the files of a directory it did not make)", where=where)
    for source in inputs:
        if source is not None and (resolved in Path(source).resolve().parents):
            raise OptionError(f"holds one of this command's inputs ({source}); write the output elsewhere",
                              where=where)
    why = _previous_output(path, made_by, force)
    if why is not None:
        raise OptionError(f"not written: {why}; it is left as it was: give a new directory", where=where)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OptionError(f"cannot write in directory {parent} (the output is swapped in as a whole)", where=where)
    return path


def write_output_directory(path: str | Path, files: dict[str, bytes], *, made_by: str,
                           inputs: Iterable[str | Path | None] = (), force: bool = False) -> Path:
    """Write ``files`` (name -> bytes) and a manifest as the directory ``path``, whole or not at all.

    :func:`check_output_directory` first (and again just before the swap); the files are written into a new
    directory beside ``path``, which then takes its place by rename (an earlier output is moved aside first and
    removed after; put back if the rename fails).  On any error or interrupt nothing at ``path`` has changed."""
    import hashlib
    import shutil

    inputs = tuple(inputs)
    path = check_output_directory(path, made_by=made_by, inputs=inputs, force=force)
    absolute = path.absolute()
    try:
        scratch = Path(tempfile.mkdtemp(dir=absolute.parent, prefix=f".{absolute.name}.", suffix=".tmp"))
    except OSError as exc:
        raise OptionError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    aside = None
    try:
        os.chmod(scratch, 0o777 & ~_umask())
        manifest = {"format": DIRECTORY_MANIFEST_FORMAT, "made_by": made_by,
                    "files": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}}
        for name, data in [*files.items(), (DIRECTORY_MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())]:
            if "/" in name or name in ("", ".", ".."):
                raise ValueError(f"not a file name: {name!r}")
            with open(scratch / name, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(scratch / name, FILE_MODE)
        check_output_directory(path, made_by=made_by, inputs=inputs, force=force)  # again: it may have changed
        if os.path.lexists(absolute):
            aside = Path(tempfile.mkdtemp(dir=absolute.parent, prefix=f".{absolute.name}.", suffix=".old"))
            os.rename(absolute, aside / "previous")
            try:
                os.rename(scratch, absolute)
            except BaseException:
                os.rename(aside / "previous", absolute)
                raise
        else:
            os.rename(scratch, absolute)
    except OSError as exc:
        shutil.rmtree(scratch, ignore_errors=True)
        raise OptionError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    finally:
        stranded = aside is not None and os.path.lexists(aside / "previous") and not os.path.lexists(absolute)
        if aside is not None and not stranded:  # the earlier output, replaced (or never moved)
            shutil.rmtree(aside, ignore_errors=True)
    return path


def safe_name(text: str) -> str:
    """A file-name stem for a spec or a name: ':' becomes '-', anything else unusual '_'.

    >>> safe_name("ring-6:cyclic")
    'ring-6-cyclic'
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text.replace(":", "-"))


def confined_path(relative: str, root: Path, *, where: str) -> Path:
    """``root / relative`` for a relative path that stays inside ``root``; FormatError otherwise."""
    if not isinstance(relative, str) or not relative:
        raise FormatError("a path must be a non-empty string", where=where)
    candidate = Path(relative)
    if candidate.is_absolute():
        raise FormatError(f"path {relative!r} is absolute; paths in a certificate are relative to its tree",
                          where=where)
    resolved = (root / candidate).resolve()
    try:
        resolved.relative_to(root.resolve())
    except ValueError:
        raise FormatError(f"path {relative!r} leaves the certificate's tree ({root})", where=where) from None
    return resolved
