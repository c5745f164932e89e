"""The headless Chromium that the browser tests drive (the web table, the HTML report).

`python -m browsers` (a step of the test command) makes sure one is there: Debian's
`chromium` package, installed with apt-get when it is missing and the machine allows it.
"""

from __future__ import annotations

import shutil

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """The path of a Chromium or Chrome executable on PATH, or None."""
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None
