"""What a broken invariant reports, and how the checker raises it."""

from __future__ import annotations

from typing import Any

import attrs

from ...engine.game import Game
from ...engine.saving import saved_match_data


@attrs.frozen
class Violation:
    """A broken invariant: its name, a sentence, and how to reproduce it."""

    invariant: str
    message: str
    seed: int
    players: int
    actions: tuple[str, ...]

    def saved_match(self, game: Game) -> dict[str, Any]:
        """The failing run as a complete saved match (rules texts included), replayable
        with `trickcore replay` anywhere."""
        return saved_match_data(
            game,
            players=self.players,
            seed=self.seed,
            actions=self.actions,
            extra={"violation": {"invariant": self.invariant, "message": self.message}},
        )


class Found(Exception):
    """A broken invariant found at this step (its name and sentence): the run stops there."""

    def __init__(self, invariant: str, message: str) -> None:
        super().__init__(message)
        self.invariant = invariant
        self.message = message


def invariant_of(stage: str, kinds: set[str]) -> str:
    """The invariant wrong legal actions break, by phase and the kinds of actions involved."""
    if stage == "play":
        if "decide" in kinds:
            return "decisions"
        if "announce" in kinds:
            return "melds"
        return "obligations"
    names = {"bid": "auction", "decide": "decisions", "give": "talon", "raise": "contract"}
    return names.get(stage, stage)
