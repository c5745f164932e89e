"""Passing cards (`pass_cards`): every player sets cards aside, then each set moves on.

Players choose in deal order from the dealer's left, each his `count` cards in a row, one
action per card. Nobody receives a card until every card is chosen; then each player's
cards go to the player `to` seats on (in deal order), all at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.limits import in_range
from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


def seat_on(active: list[int], seat: int, offset: int) -> int:
    """The player `offset` places on from `seat` in the order of play (backwards when
    negative): where a player's passed cards go, or where a seat's came from."""
    return active[(active.index(seat) + offset) % len(active)]


class PassCards(Phase):
    """Each player chooses cards to pass (`pass CARD`); skipped when `to` gives 0."""

    name = "pass"

    def start(self, deal: Deal) -> bool:
        """Work out how many seats on the cards go; start with the dealer's left."""
        rules = deal.rules.pass_cards
        assert rules is not None
        n = len(deal.active)
        env = {
            "deal_number": deal.context[deal.active[0]]["deal_number"],
            "target": deal.context[deal.active[0]]["target"],
            "players": n,
        }
        offset = rules.to(env)
        in_range(offset, "pass_cards.to", rules.to.loc)
        offset %= n
        deal.pass_to = offset
        if offset == 0:
            return False
        deal.set_aside = {s: [] for s in deal.active}
        deal.to_act = deal.active[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """Every card of the hand."""
        pass_card = self.game.actions.pass_card
        return [pass_card[c] for c in sorted(deal.hands[deal.to_act])]

    def apply(self, deal: Deal, action: Action) -> None:
        """Set the card aside; after the last choice every set moves on at once."""
        rules = deal.rules.pass_cards
        assert rules is not None
        seat = deal.to_act
        deal.hands[seat].remove(action.card)
        deal.set_aside[seat].append(action.card)
        if len(deal.set_aside[seat]) < rules.count:
            return
        i = deal.active.index(seat)
        n = len(deal.active)
        if i + 1 < n:
            deal.to_act = deal.active[i + 1]
            return
        for giver in deal.active:
            taker = seat_on(deal.active, giver, deal.pass_to)
            cards = deal.set_aside[giver]
            deal.hands[taker].extend(cards)
            deal.passed[giver] = (taker, list(cards))
        deal.set_aside = {}
        deal.next_phase()
