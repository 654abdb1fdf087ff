"""Compiling the C executor library (``tesearch/schedules/execute/c/``, package data) once per compiler, into a cache.

One source tree, two compilers: :attr:`Flavour.SIMGRID` builds ``te_main`` with SimGrid's ``smpicc``
(``-DTE_SIMGRID``: SMPI's shared allocations, the progress clock) for ``tesearch simulate``;
:attr:`Flavour.MPI` builds it with the ``mpicc`` beside this Python (the ``mpich`` wheel of the ``mpi``
extra) or on PATH, for ``tesearch run --mpi``.  The binary lives in ``$XDG_CACHE_HOME/tesearch`` (or
``~/.cache/tesearch``), named by the hash of every source and of the compiler's version, so an edited
source or another compiler builds afresh; it appears by an atomic rename, so concurrent first uses never
see half a file.  Every compiler call goes through :func:`tesearch.running.processes.run_captured` (a session of its own,
stopped with all it started on Ctrl-C, SIGTERM or its time budget).
"""

from __future__ import annotations

import enum
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

from tesearch.running.errors import SolverUnavailable, TesearchError
from tesearch.running.processes import CapturedRun, EndedBy, run_captured
from tesearch.running.terms import ExitCode

SOURCE_DIRECTORY = Path(__file__).with_name("c")
#: the library's sources, in link order, and what they include
LIBRARY_SOURCES = ("te_schedule.c", "te_run.c", "te_check.c")
HEADERS = ("te.h", "te_faults.def")
DRIVER = "te_main.c"
SIMGRID_HINT = "install SimGrid: apt-get install libsimgrid-dev (Debian, Ubuntu)"
MPI_HINT = "install the mpi extra: pip install -e '.[mpi]' (mpi4py and the mpich wheel: mpicc, mpiexec)"
#: wall-clock seconds one compiler call may take (the library's sources compile in about a second)
COMPILE_TIMEOUT_S = 300.0


class BuildFailed(TesearchError):
    """The C compiler refused the executor (a broken installation, never the user's input): exit 4."""

    exit_code = ExitCode.UNKNOWN


class Flavour(str, enum.Enum):
    """Which MPI the executor is built for."""

    SIMGRID = "simgrid"  # smpicc: SimGrid's SMPI
    MPI = "mpi"  # mpicc: a real MPI library (MPICH from the mpi extra)


def cache_directory() -> Path:
    """Where compiled executors live: ``$XDG_CACHE_HOME/tesearch`` or ``~/.cache/tesearch``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tesearch"


def compiler(flavour: Flavour) -> str:
    """The path of ``smpicc`` or ``mpicc``; SolverUnavailable (exit 2, one line) when there is none."""
    if flavour is Flavour.SIMGRID:
        found = shutil.which("smpicc")
        if not found:
            raise SolverUnavailable(f"smpicc is not on PATH; {SIMGRID_HINT}")
        return found
    beside = Path(sys.executable).parent / "mpicc"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("mpicc")
    if not found:
        raise SolverUnavailable(f"no mpicc beside {sys.executable} or on PATH; {MPI_HINT}")
    return found


def _version(command: str) -> str:
    try:
        done = run_captured([command, "--version"], timeout_s=60, phase="build")
    except OSError:
        return ""
    return done.stdout + done.stderr


def run_compiler(argv: list[str], *, cwd: str | os.PathLike, what: str) -> CapturedRun:
    """Run one compiler command in ``cwd`` (through the one process runner); BuildFailed (exit 4) naming ``what``
    and the compiler's last lines when it fails or runs past :data:`COMPILE_TIMEOUT_S`."""
    from tesearch.running.limits import phase

    try:
        with phase(f"compile {what} with {Path(argv[0]).name}"):  # a time limit names the compiler
            done = run_captured(argv, cwd=cwd, timeout_s=COMPILE_TIMEOUT_S, phase="build")
    except OSError as exc:
        raise BuildFailed(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
    if done.run.ended_by is EndedBy.TIMEOUT:
        raise BuildFailed(f"{Path(argv[0]).name} did not compile {what} within {COMPILE_TIMEOUT_S:g} s")
    if done.status != 0:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise BuildFailed(f"{Path(argv[0]).name} could not compile {what}: {tail}")
    return done


def sources_digest(names: tuple[str, ...]) -> bytes:
    """The bytes of the named sources and every header, in a fixed order (what a build is keyed by)."""
    return b"".join(name.encode() + b"\0" + (SOURCE_DIRECTORY / name).read_bytes() for name in names + HEADERS)


def build(flavour: Flavour, *, sources: tuple[str, ...] = LIBRARY_SOURCES + (DRIVER,), stem: str = "te_main",
          extra_flags: tuple[str, ...] = ()) -> Path:
    """The executor compiled for ``flavour`` (compiled on first use; cached by the hash of sources and compiler)."""
    command = compiler(flavour)
    flags = ["-O2", "-std=gnu11"] + (["-DTE_SIMGRID"] if flavour is Flavour.SIMGRID else []) + list(extra_flags)
    key = sources_digest(sources) + _version(command).encode() + " ".join(flags).encode()
    digest = hashlib.sha256(key).hexdigest()[:16]
    directory = cache_directory()
    binary = directory / f"{stem}-{flavour.value}-{digest}"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(dir=directory, prefix=f".{stem}-", suffix=".tmp")
        os.close(fd)
    except OSError as exc:
        raise BuildFailed(f"cannot write the compiled executor into {directory}: {exc.strerror or exc}") from None
    try:
        with tempfile.TemporaryDirectory(prefix="tesearch-build-") as work:
            for name in sources + HEADERS:
                shutil.copyfile(SOURCE_DIRECTORY / name, Path(work) / name)
            run_compiler([command, *flags, "-o", scratch, *sources], cwd=work, what="the executor")
        os.chmod(scratch, 0o755)
        os.replace(scratch, binary)
    finally:
        Path(scratch).unlink(missing_ok=True)
    return binary
