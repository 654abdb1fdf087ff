"""The console entry point: a Ctrl-C while the command line is still loading is a clean exit too."""

import os
import sys
import time


def run() -> None:
    """``tesearch``: load the command line (no traceback even if interrupted while loading) and run it."""
    try:
        from tesearch.running import limits
        limits.mark_command_start(time.monotonic() - limits.process_age())  # the interpreter's start-up counts too
        os.environ["TESEARCH_ENTRY_PID"] = str(os.getpid())  # tesearch.cli.app.ENTRY_VARIABLE
        from tesearch.cli.app import main
    except KeyboardInterrupt:  # nothing more is imported here: tesearch.running.terms.stop_text's words, written out
        sys.stderr.write("tesearch: interrupted (SIGINT); nothing was written\n")
        sys.exit(130)
    main()


if __name__ == "__main__":
    run()
