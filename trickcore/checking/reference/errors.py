"""What stops the restatement: rules it cannot follow, numbers out of range."""

from __future__ import annotations

from typing import Any

from ...language.limits import MAX_VALUE


class ReferenceError(Exception):
    """The restatement cannot be built (e.g. the rules text is not at hand)."""


class OutOfRange(ReferenceError):
    """A number the rules compute left ±MAX_VALUE: the rules stop the match there."""


def in_range(value: Any, what: str) -> Any:
    """`value` if it is a truth value or a number within ±MAX_VALUE, else OutOfRange."""
    if not isinstance(value, bool) and not -MAX_VALUE <= value <= MAX_VALUE:
        raise OutOfRange(f"{what} gives a number outside ±{MAX_VALUE:,}")
    return value
