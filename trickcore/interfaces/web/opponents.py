"""The computer players a served table may have: the menu the server's operator allows
(`trickcore serve --opponents`), each bot with ceilings on its work.

A client names a computer player by a spec ("pimc:iterations=200"); it is taken only when
its bot is on the menu and every option stays within the menu's ceiling for it (a bot's
option the menu does not set is capped at the bot's default). So no client can make the
server search longer than its operator chose.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from ...language.errors import TrickcoreError
from ...players.registry import bot_options, parse_spec

DEFAULT_MENU = ("greedy", "random", "heuristic", "pimc", "ismcts")
NUMERIC = ("a whole number", "a number", "a number of seconds or none")


@attrs.frozen
class MenuEntry:
    """One bot of the menu: its name, the spec shown, and its ceilings (option -> most)."""

    name: str
    spec: str
    ceilings: dict[str, Any]


@attrs.frozen
class OpponentMenu:
    """The computer players a client may choose: the first entry is the default."""

    entries: tuple[MenuEntry, ...]

    @classmethod
    def parse(cls, specs: Sequence[str] | str | None) -> OpponentMenu:
        """A menu from the operator's specs (a text of specs separated by spaces, or a list);
        None gives the default menu, every bot at its default settings."""
        if specs is None:
            specs = DEFAULT_MENU
        if isinstance(specs, str):
            specs = specs.split()
        entries: list[MenuEntry] = []
        for spec in specs:
            name, options = parse_spec(spec)
            if any(e.name == name for e in entries):
                raise TrickcoreError(f"--opponents names {name} twice")
            ceilings = {k: default for k, (kind, default) in bot_options(name).items()}
            ceilings.update(options)
            entries.append(MenuEntry(name, spec.strip(), ceilings))
        if not entries:
            raise TrickcoreError("--opponents names no computer player")
        return cls(tuple(entries))

    @property
    def default(self) -> str:
        """The spec a table gets when the client names none."""
        return self.entries[0].spec

    @property
    def specs(self) -> list[str]:
        """The specs offered, in the menu's order."""
        return [e.spec for e in self.entries]

    def allow(self, spec: str | None) -> str:
        """The client's spec if the menu allows it (the default for None), else a
        TrickcoreError that says what is allowed."""
        if spec is None:
            return self.default
        name, options = parse_spec(spec)
        entry = next((e for e in self.entries if e.name == name), None)
        if entry is None:
            raise TrickcoreError(
                f"computer player {name!r} is not offered here (this server offers: "
                f"{', '.join(self.specs)})"
            )
        kinds = {k: kind for k, (kind, _) in bot_options(name).items()}
        for key, value in options.items():
            most = entry.ceilings.get(key)
            if kinds[key] not in NUMERIC or value == most:
                continue
            if value is None or (most is not None and value > most):
                shown = "none" if value is None else value
                raise TrickcoreError(
                    f"{name}: {key}={shown} is more than this server allows (at most {most})"
                )
        # every option spelled out: what the client left out is the menu's ceiling
        chosen = {**entry.ceilings, **options}
        parts = [f"{k}={'none' if v is None else v}" for k, v in chosen.items()]
        return name + (":" + ",".join(parts) if parts else "")
