"""A markdown table for results/, printed as it grows and written with its command and date (benchmarks and
scripts that write a --report use it)."""

from __future__ import annotations

import time

from tesearch.running.files import REPORT_KIND, check_output, write_output


class Report:
    """Lines printed as they come, and kept for --report FILE with the command and the date (written by
    tesearch.running.files.write_output: atomically, a .md name, never through a link, never over a file that is not such
    a report: REPORT_KIND)."""

    def __init__(self, path: str | None, command: str):
        self.path, self.command, self.lines = path, command, []
        if path:  # refused before any work: a file that is not such a report is never replaced
            check_output(path, kind=REPORT_KIND)

    def line(self, text: str) -> None:
        print(text, flush=True)
        self.lines.append(text)

    def close(self) -> None:
        if self.path:
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            head = [f"Command: `{self.command}` ({when}; a 2-core machine, other work beside it).", ""]
            write_output(self.path, "\n".join(head + self.lines) + "\n", kind=REPORT_KIND)
