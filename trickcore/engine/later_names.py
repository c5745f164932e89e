"""Names of an expression's environment worked out only when a rule reads one of them (a
plain module: the compiled engine uses it as it is, a dictionary that fills itself)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class LaterNames(dict[str, Any]):
    """A rule's names: those given, and the others made by `make()` the first time a rule
    reads a name not given (a name given stays as given)."""

    __slots__ = ("_make",)

    def __init__(self, names: dict[str, Any], make: Callable[[], dict[str, Any]]) -> None:
        super().__init__(names)
        self._make: Callable[[], dict[str, Any]] | None = make

    def __missing__(self, key: str) -> Any:
        make = self._make
        if make is None:
            raise KeyError(key)
        self._make = None
        for name, value in make().items():
            self.setdefault(name, value)
        return self[key]
