"""What a computer player is: one method that picks an action for a turn it is shown.

A bot never receives the match itself, only a `Turn`: the variant, its seat, its own
observation (no hidden cards) and the legal actions. So every bot plays fair by
construction, and a user's bot is any class with a `choose(turn)` method.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import attrs

from ..engine.actions import Action
from ..engine.game import Game, variant_of
from ..engine.match import Match
from ..engine.observation import BoutObservation, Observation


@attrs.frozen
class Turn:
    """One decision to make: who decides, what he may know, and what he may do."""

    variant: Game
    seat: int
    observation: Observation | BoutObservation
    legal: tuple[Action, ...]

    @property
    def legal_ids(self) -> tuple[int, ...]:
        """The legal actions as numbers of the variant's action space."""
        return tuple(a.id for a in self.legal)


@runtime_checkable
class Bot(Protocol):
    """A computer player: given a turn, it returns one of `turn.legal`."""

    def choose(self, turn: Turn) -> Action:
        """The action to take now; it must be one of `turn.legal`."""
        ...


def turn_of(match: Match) -> Turn:
    """The turn of the seat to act in `match` (the match must not be over)."""
    seat = match.to_act
    return Turn(variant_of(match), seat, match.observation(seat), tuple(match.legal_actions()))
