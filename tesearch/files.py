"""Reading and writing files safely: every reader refuses bad input with one line, every writer is atomic.

Readers (:func:`read_text_file`, :func:`read_json_file`) refuse, with an error
naming the file: a missing file, a directory or device, a file larger than a
limit (checked before reading), bytes that are not UTF-8, JSON that does not
parse, nests too deeply or holds NaN/Infinity.  Writers
(:func:`write_atomically`) write a temporary file beside the target and rename
it over the target, so a reader (or an interrupted run) sees the old file or
the new one, never half of one; the file gets the mode the umask gives (as
``open`` would), and the target's directory must exist: nothing is created
silently.  Readers asked to (``gzip_ok=True``: tables, as tesearch.table and the
kernel's loader read them) accept a gzip-compressed file, recognised by its magic
bytes, and decompress it under the same size limit (:func:`gunzip_limited`);
:func:`gzip_bytes` writes one reproducibly (no name, no time stamp).  Paths recorded inside certificates are relative and confined to
their tree (:func:`confined_path`).

This module imports only the standard library and :mod:`tesearch.errors`.
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
from pathlib import Path
from typing import Iterator

from tesearch.errors import FormatError, OptionError, SizeLimitError, TesearchError

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


def writable_target(path: str | Path) -> Path:
    """``path`` if a file can be written there: its directory exists and it is not a directory.

    Raises :class:`OptionError` naming the path otherwise (checked before any work starts).
    """
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.exists() and path.is_dir():
        raise OptionError("is a directory; give a file name", where=str(path))
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
