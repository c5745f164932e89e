"""Passing cards (`pass_cards`): players set cards aside, then each set moves on.

The players who pass (every player, or those `passes_if` picks as the phase begins) choose
in deal order from the dealer's left, each his `count` cards in a row, one action per card.
Nobody receives a card until every card is chosen; then each player's cards go to the player
`to` seats on (in deal order), all at once. With `back`, each player who received cards
then chooses as many to pass back to the player they came from, in deal order, and those
move at once too.
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
    """Players choose cards to pass (`pass CARD`); skipped when `to` gives 0 or nobody
    passes."""

    name = "pass"

    def start(self, deal: Deal) -> bool:
        """Work out how many seats on the cards go and who passes; start with the first
        of them from the dealer's left."""
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
        who = rules.passes_if
        givers = [s for s in deal.active if who is None or who(deal.role_env(s))]
        if not givers:
            return False
        deal.set_aside = {s: [] for s in givers}
        deal.to_act = givers[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """Every card of the hand."""
        pass_card = self.game.actions.pass_card
        return [pass_card[c] for c in sorted(deal.hands[deal.to_act])]

    def apply(self, deal: Deal, action: Action) -> None:
        """Set the card aside; after the last choice every set moves on at once (and with
        `back`, the players who received choose the cards going back)."""
        rules = deal.rules.pass_cards
        assert rules is not None
        seat = deal.to_act
        deal.hands[seat].remove(action.card)
        aside = deal.set_aside
        aside[seat].append(action.card)
        if len(aside[seat]) < rules.count:
            return
        order = list(aside)
        i = order.index(seat)
        if i + 1 < len(order):
            deal.to_act = order[i + 1]
            return
        if deal.passed and rules.back:  # the cards passed back: to where they came from
            came_from = {t: g for g, (t, _) in deal.passed.items()}
            for taker in order:
                giver = came_from[taker]
                deal.hands[giver].extend(aside[taker])
                deal.passed_back[taker] = (giver, list(aside[taker]))
            deal.set_aside = {}
            deal.next_phase()
            return
        for giver in order:
            taker = seat_on(deal.active, giver, deal.pass_to)
            deal.hands[taker].extend(aside[giver])
            deal.passed[giver] = (taker, list(aside[giver]))
        deal.set_aside = {}
        if rules.back:  # those who received choose as many to pass back, in deal order
            takers = {t for t, _ in deal.passed.values()}
            deal.set_aside = {s: [] for s in deal.active if s in takers}
            deal.to_act = next(iter(deal.set_aside))
            return
        deal.next_phase()
