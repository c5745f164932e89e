"""The state of a new deal of a variant: a trick deal or a deal of bouts, as its rules say
(for the factory `Game`, the match and the hidden worlds alike)."""

from __future__ import annotations

from typing import Any

from .bouts import BoutDeal
from .deal import Deal
from .tables import GameTables


def make_deal(
    game: GameTables,
    order: list[int],
    dealer: int,
    seats: int,
    context: list[dict[str, Any]] | None = None,
) -> Deal | BoutDeal:
    """A deal dealt from `order` by `dealer` to `seats` seats (`context`: what each player
    knows of the match; as a match begins when not given)."""
    if game.model.bouts is not None:
        return BoutDeal(game, order, dealer, seats, context)
    return Deal(game, order, dealer, seats, context)
