"""A fuzz harness for trickcore's untrusted inputs: rules files, saved games and actions.

Run it as ``python -m fuzz [--cases N] [--seed S] [--jobs J] [--timeout SEC] [--memory MB]
[--kind ...]``. Each case runs in a forked child process with a wall-clock timeout and an
address-space limit, and is classified as ok, library error (a `trickcore.TrickcoreError`),
non-library exception, inconsistent (accepted rules on which verify finds the engine and its
checker disagree, for some player count the file allows), timeout or out of memory. Findings
(every class but ok and library) are saved with a reproduction.
"""

from __future__ import annotations

from .cases import KINDS, Case, generate_cases
from .runner import FuzzReport, run_cases

__all__ = ["KINDS", "Case", "FuzzReport", "generate_cases", "run_cases"]
