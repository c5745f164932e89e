"""Drawing the hands up from the stock (`draw_up`): the second distribution of a deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


class DrawUp(Phase):
    """Each player in deal order, from the forehand, takes the top cards of the stock (the
    turned-up card last, if it is still there) until his hand holds `to` cards: a second
    distribution after the taking. Nothing is decided."""

    name = "draw_up"

    def start(self, deal: Deal) -> bool:
        """Deal the cards at once; there is nothing to decide."""
        rules = deal.rules.draw_up
        assert rules is not None
        for seat in deal.active:
            hand = deal.hands[seat]
            while len(hand) < rules.to:
                if deal.stock:
                    hand.append(deal.stock.pop(0))
                elif deal.turnup >= 0:
                    hand.append(deal.turnup)
                    deal.turnup = -1
                else:  # refused at compile time: the stock holds enough for every hand
                    break
        deal.stock_drawn()
        return False

    def legal(self, deal: Deal) -> list[Action]:
        """Never asked: the phase ends as it starts."""
        return []

    def apply(self, deal: Deal, action: Action) -> None:
        """Never asked: the phase ends as it starts."""
        raise AssertionError("draw_up has no actions")
