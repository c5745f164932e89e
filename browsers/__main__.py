"""Make sure a headless Chromium is there for the browser tests; install Debian's if not."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from . import find_chromium


def main() -> int:
    """Print the browser found, or install Debian's `chromium` (root with apt-get only)."""
    found = find_chromium()
    if found:
        print(f"browser tests: {found}")
        return 0
    apt = shutil.which("apt-get")
    if apt is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        print(
            "browser tests: no Chromium found and it cannot be installed here (needs root and "
            "apt-get); install Chromium to run them, they are skipped meanwhile"
        )
        return 0
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=False)
        if done.returncode != 0:
            print(f"browser tests: '{' '.join(cmd)}' failed; they are skipped", file=sys.stderr)
            return 0
    print(f"browser tests: installed {find_chromium()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
