"""Headless Chromium for the view's tests, benchmark and screenshots: the system's browser, driven by Playwright.

No browser is downloaded (``playwright install`` is never run): Playwright (the ``test`` extra)
launches the Chromium the system has (Debian's ``chromium`` package), found at
``$TESEARCH_CHROMIUM``, ``/usr/bin/chromium`` or on the PATH, with networking services off.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

#: the switches every launch uses (no sandbox for containers, no GPU, nothing phoning home)
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync")


def chromium_path() -> str | None:
    """The Chromium executable to use, or None when the system has none."""
    named = os.environ.get("TESEARCH_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def missing_browser() -> str | None:
    """Why a browser cannot be launched here (Playwright or Chromium missing), or None when it can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if chromium_path() is None:
        return "no Chromium found (apt-get install chromium, or set TESEARCH_CHROMIUM)"
    return None


def launch(playwright):
    """A headless Chromium browser from a started ``sync_playwright()`` object."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
