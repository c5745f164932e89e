"""Picking up the turned-up card (`pickup`): the dealer or the declarer takes it into his
hand and lays away cards face down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action
from .base import Phase
from .lay_away import cards_to_lay_away, lay_away

if TYPE_CHECKING:
    from ..deal import Deal


class Pickup(Phase):
    """The taker takes the turned-up card when `take_if` holds and he does not sit out the
    play; then he lays away `lay_away` cards, one `discard CARD` each."""

    name = "pickup"

    def start(self, deal: Deal) -> bool:
        """Take the card, if the rules say so; ask for the cards to lay away."""
        tricks = deal.rules
        rules = tricks.pickup
        assert rules is not None
        if deal.turnup < 0:
            return False
        taker = deal.dealer if rules.who == "dealer" else deal.declarer
        if taker not in deal.active:
            return False
        env = deal.role_env(taker)
        if rules.take_if is not None and not rules.take_if(env):
            return False
        sit_out = tricks.play.sit_out_if
        if sit_out is not None and sit_out(env):
            return False
        deal.hands[taker].append(deal.turnup)
        deal.picked_up = taker
        deal.picked_card = deal.turnup  # still shown to all until play starts
        deal.turnup = -1
        if not rules.lay_away:
            return False
        deal.lay_away_by = taker
        deal.lay_away_left = rules.lay_away
        deal.to_act = taker
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """Every card of the taker's hand `lay_away_if` allows, to lay away."""
        discard = self.game.actions.discard
        rules = deal.rules.pickup
        rule = rules.lay_away_if if rules is not None else None
        return [discard[c] for c in cards_to_lay_away(deal, deal.to_act, rule)]

    def apply(self, deal: Deal, action: Action) -> None:
        """One card laid away; the phase ends with the last."""
        rules = deal.rules.pickup
        shown_if = rules.lay_away_shown_if if rules is not None else None
        lay_away(deal, deal.to_act, action.card, shown_if)
        if not deal.lay_away_left:
            deal.next_phase()
