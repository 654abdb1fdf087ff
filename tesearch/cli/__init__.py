"""The command line: ``tesearch`` and its subcommands (see :mod:`tesearch.cli.app`).

The modules here parse options, call the package, and print; no logic lives
in them.  Each subcommand's module is imported only when that command runs.
"""

from tesearch.cli.app import main

__all__ = ["main"]
