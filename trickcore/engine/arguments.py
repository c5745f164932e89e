"""Checks of the arguments callers give the engine (seeds, deal numbers)."""

from __future__ import annotations

from ..language.errors import TrickcoreError
from ..language.limits import shown

MAX_SEED = 10**12


def check_deal_number(number: object) -> None:
    """A deal number is a whole number from 1 to 1,000,000 (a TrickcoreError otherwise)."""
    if type(number) is not int or not 1 <= number <= 1_000_000:
        raise TrickcoreError(f"a deal number is a whole number from 1, not {shown(number)}")


def check_seed(seed: object) -> None:
    """A seed is None or a whole number from 0 below MAX_SEED (a TrickcoreError otherwise)."""
    # (random.Random(-n) deals as random.Random(n): a negative seed would be a second name
    # for another seed's deals, so seeds are 0 or above)
    if seed is not None and (type(seed) is not int or not 0 <= seed < MAX_SEED):
        raise TrickcoreError(
            f"a seed is a whole number from 0 to {MAX_SEED - 1:,} (at most 12 digits), "
            f"not {shown(seed)}"
        )
