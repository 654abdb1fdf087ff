"""The fuzzer that tests and benchmarks/fuzz.py share: hostile inputs per command, a runner that watches one
run, and its judge (issue 39 moved it here from tests/fuzzing.py).

A *case* (:class:`Case`) is a command line plus everything it finds in its sandbox: files, symlinks,
FIFOs, directories and device nodes, and what the fuzzer knows about it (which files are inputs,
which outputs the command may write, whether the table it reads is known invalid, which network
and widths a search was asked for, a signal to send).  :func:`run_case` sets the sandbox up, runs
the command in its own session (forked from this process, so the heavy imports are paid once; or
a real ``python -m tesearch.entry`` for MPI, Ray and signal cases), watches every process the
command starts, and :func:`judge` lists what was wrong:

* exit 70 or any exit outside 0, 1, 2, 3, 4, 130, 143; a traceback or an internal error anywhere;
* an error of more than one line (exit 2);
* no exit within the case's time, or more than :data:`TIMEOUT_GRACE` s past its own ``--timeout``,
  or more than :data:`STOP_SECONDS` s after a SIGINT/SIGTERM (both stretched on a busy machine: beyond 4 runnable
  processes per core, in proportion to the load; :func:`~tesearch.testing.cases.busy_grace`);
* a file that was there before changed (an input, a committed file behind a symlink, a FIFO, a
  device node); an output the command was given may change only on exit 0 or 4, and over a file
  of another kind (or a committed table) only with ``--force``;
* a file left half-written: a ``*.tmp`` file, anything new after exit 2, 130 or 143, an output whose
  content does not fit its extension, an exit 0 that wrote onto a FIFO or a device;
* a process of the command (its session, or any process seen descending from it) alive
  :data:`LEFTOVER_GRACE` s after it ended;
* a false claim: exit 3 for a range that reaches a known table's width (results/*.json); a
  check-proof CONFIRMED of "width w impossible" where a table of width <= w is known, of an
  optimality above a known width, or of an impossibility whose encoding the fuzzer tampered with;
  exit 0 of a table command on a table the fuzzer made invalid (:data:`STRICT_TABLE_COMMANDS`);
  a table of another network written where one network was asked for.

Each subcommand has one generator in :data:`GENERATORS` (a hypothesis strategy of cases);
tests/test_fuzz.py fails when ``tesearch.cli.app.COMMANDS`` holds a command without one.  Adding a
command is one entry, usually through :func:`table_command` or :func:`network_command`::

    register("simulate", table_command("simulate", output=("--trace", "trace")), reads_tables=True)

(a new output kind, here "trace", also needs a line in judge.OUTPUT_SUFFIXES and in hostile's _KIND_FILES
and _WRONG_SUFFIX).

The modules: :mod:`~tesearch.testing.cases` (a case, what the fuzzer knows), :mod:`~tesearch.testing.hostile`
(the inputs), :mod:`~tesearch.testing.generators` (one generator per subcommand), :mod:`~tesearch.testing.runner`
(one run, watched) and :mod:`~tesearch.testing.judge`.  tests/test_fuzz.py runs a few cases per subcommand;
`python -m benchmarks.fuzz` runs thousands in parallel and writes results/fuzz.md.
"""

from tesearch.testing.cases import ROOT, Case, CaseResult, Run, committed, known_width
from tesearch.testing.generators import COMMANDS, GENERATORS, SHARES, cases, missing_generators
from tesearch.testing.hostile import invalid_table
from tesearch.testing.judge import judge
from tesearch.testing.runner import Watch, make_sandbox, run_case, snapshot

__all__ = ["COMMANDS", "GENERATORS", "ROOT", "SHARES", "Case", "CaseResult", "Run", "Watch", "cases", "committed",
           "invalid_table", "judge", "known_width", "make_sandbox", "missing_generators", "run_case", "snapshot"]
