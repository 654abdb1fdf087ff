"""A benchmark's markdown table, printed as it grows and written with its command and date for results/."""

from __future__ import annotations

import time


class Report:
    """Lines printed as they come, and kept for --report FILE with the command and the date."""

    def __init__(self, path: str | None, command: str):
        self.path, self.command, self.lines = path, command, []

    def line(self, text: str) -> None:
        print(text, flush=True)
        self.lines.append(text)

    def close(self) -> None:
        if self.path:
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            head = [f"Command: `{self.command}` ({when}; a 2-core machine, other work beside it).", ""]
            with open(self.path, "w") as fh:
                fh.write("\n".join(head + self.lines) + "\n")
