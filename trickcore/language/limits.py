"""The ranges every number and count in play keeps, and the checks that enforce them.

One place for them, so that the compiler, the engine and saving agree.
"""

from __future__ import annotations

from .errors import Location, RulesError, TrickcoreError

MAX_VALUE = 999_999_999  # every number a rule computes and keeps stays within ±MAX_VALUE
MAX_BIDS = 1000  # bid values (or contract raises) above the current bid a cap may offer


def is_whole(value: object) -> bool:
    """A whole number (not a bool) within ±MAX_VALUE."""
    return type(value) is int and -MAX_VALUE <= value <= MAX_VALUE


def in_range(value: int | bool, what: str, loc: Location | None) -> None:
    """Numbers in play stay within ±MAX_VALUE; outside it the rules are broken (RulesError)."""
    if not isinstance(value, bool) and not -MAX_VALUE <= value <= MAX_VALUE:
        digits = value.bit_length() * 3 // 10
        shown = str(value) if abs(value) < 10**30 else f"a number of about {digits} digits"
        raise RulesError(
            f"{what} gives {shown}, outside the range of numbers in play "
            f"(±{MAX_VALUE:,}); the match stops here",
            loc,
        )


def check_count(span: int, step: int, what: str, loc: Location | None = None) -> None:
    """A cap may offer at most MAX_BIDS values above the current bid (a RulesError at the
    cap's place `loc` if more)."""
    if span // step > MAX_BIDS:
        raise RulesError(
            f"{what} is {span} above the current bid, more than {MAX_BIDS} steps of {step}: "
            "the rules file allows too many bids (the limit of legal actions)",
            loc,
        )


def shown(value: object) -> str:
    """A user's value for an error message: short, and safe for numbers of any size."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return f"a number of about {value.bit_length() * 3 // 10} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_seat(seat: object, seats: int, what: str = "a seat") -> int:
    """A seat number 0..seats-1, or a TrickcoreError that says what a seat is."""
    if type(seat) is not int or not 0 <= seat < seats:
        raise TrickcoreError(f"{what} must be a seat number 0..{seats - 1}, not {shown(seat)}")
    return seat
