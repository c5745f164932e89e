"""Check a house rule for consistency from your own pytest suite.

Run:  python -m pytest examples/test_house_rule.py
"""

from __future__ import annotations

from pathlib import Path

from trickcore.testing import check_rules

HERE = Path(__file__).parent


def test_quick_barrel_is_consistent() -> None:
    # compiles the file (errors come with file:line:column), then plays random runs and
    # whole matches, checking every invariant; a failure names the invariant and gives a
    # shrunk counterexample you can replay with `trickcore replay`
    check_rules(HERE / "quick-barrel.rules", examples=50)
