"""Mutation testing for trickcore: the shipped rules files and the engine.

`python -m mutation rules` changes the shipped rules files in `variants/` one setting,
number, operator or rule at a time, and runs the tests of that variant against each change;
`python -m mutation engine` does the same with small changes to the engine's Python;
`python -m mutation ci` runs a small fixed sample of both. A mutant that no test notices
"survives"; known equivalent mutants (changes that cannot alter behaviour) are listed with a
reason in `mutation/equivalent.txt`.
"""

from __future__ import annotations

from .core import Mutant, apply_mutant, load_equivalents

__all__ = ["Mutant", "apply_mutant", "load_equivalents"]
