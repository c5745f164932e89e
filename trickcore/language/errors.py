"""The library's error types: every failure a user can cause raises one of these."""

from __future__ import annotations

from collections.abc import Sequence

import attrs


@attrs.frozen
class Location:
    """A place in a rules file: file name, 1-based line and column, and that line's text."""

    file: str
    line: int
    column: int
    source_line: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class TrickcoreError(Exception):
    """Base class of every error trickcore raises on purpose."""


class RulesError(TrickcoreError):
    """A rules file is broken: bad syntax, an unknown name, an inconsistent setting."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        self.message = message
        self.location = location
        super().__init__(self._format())

    def _format(self) -> str:
        if self.location is None:
            return self.message
        loc = self.location
        text = f"{loc}: {self.message}"
        if loc.source_line:
            caret = " " * (max(loc.column, 1) - 1) + "^"
            text += f"\n    {loc.source_line.rstrip()}\n    {caret}"
        return text

    @property
    def errors(self) -> list[RulesError]:
        """Every error this one reports, each with its place: itself alone, or several
        independent ones (`RulesErrors`)."""
        return [self]


class RulesErrors(RulesError):
    """Several independent errors found together (each `remove` of a file that removes
    nothing, say): `message` and `location` are the first's, the text shows them all."""

    def __init__(self, errors: Sequence[RulesError]) -> None:
        # one error per place: the first found (two compile steps that read the same broken
        # line both report it)
        self._all: list[RulesError] = []
        places: set[tuple[str, int, int]] = set()
        for e in (e for error in errors for e in error.errors):
            loc = e.location
            place = (loc.file, loc.line, loc.column) if loc is not None else None
            if place is not None and place in places:
                continue
            if place is not None:
                places.add(place)
            self._all.append(e)
        first = self._all[0]
        super().__init__(first.message, first.location)

    def _format(self) -> str:
        return "\n".join(RulesError._format(e) for e in self._all)

    def __reduce__(self) -> tuple[type[RulesErrors], tuple[list[RulesError]]]:
        return (RulesErrors, (self._all,))

    @property
    def errors(self) -> list[RulesError]:
        """The errors, in the order they were found."""
        return list(self._all)


class UnknownSettingError(RulesError):
    """A setting or block the rules language does not know, at the line that writes it:
    nothing else in the rules caused it, so no other file's line is named with it."""


class IllegalActionError(TrickcoreError):
    """An action that is malformed or not legal now; the state is unchanged."""

    def __init__(self, message: str, legal: Sequence[str] = ()) -> None:
        self.legal = list(legal)
        text = message
        if self.legal:
            shown = ", ".join(self.legal[:40])
            more = f" ... ({len(self.legal)} in all)" if len(self.legal) > 40 else ""
            text += f"\n  legal actions: {shown}{more}"
        super().__init__(text)


class StuckError(TrickcoreError):
    """The rules leave the seat to act with no legal action (a broken rules file)."""


class ConcurrentUseError(TrickcoreError):
    """Two threads used one Match at once; the second call was refused and changed nothing
    (a Match is not shared between threads without a lock of the caller's own)."""


class SavedGameError(TrickcoreError):
    """A saved match cannot be loaded: corrupt, of another format, or of another variant."""
