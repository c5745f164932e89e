"""The redeal offer (S5): every player in turn from forehand may demand a redeal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


class RedealOffer(Phase):
    """Asked of every player in turn from forehand, so that being asked reveals nothing;
    only a player whose hand meets `redeal.allowed_if` is offered `redeal` beside `keep`. A
    hand that meets `redeal.forced_if` voids the deal before anyone is asked."""

    name = "redeal"

    def start(self, deal: Deal) -> bool:
        """Skipped when the variant has no `redeal` block (T5: never a redeal)."""
        rules = self.game.model.redeal
        if rules is None:
            return False
        if rules.forced_if is not None:  # a compulsory redeal: the first such hand voids it
            for seat in deal.active:
                env = self.quantities.env(deal.hands[seat], 0, len(deal.active), deal.context[seat])
                if rules.forced_if(env):
                    deal.end_unplayed(by=seat)
                    return True
        if rules.allowed_if is None:  # no offer: only forced redeals and `same_dealer`
            return False
        deal.redeal_queue = list(deal.active)
        deal.to_act = deal.redeal_queue[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """`redeal` (when the hand allows it) and `keep`."""
        game = self.game
        rules = game.model.redeal
        assert rules is not None
        env = self.quantities.env(
            deal.hands[deal.to_act], 0, len(deal.active), deal.context[deal.to_act]
        )
        if rules.allowed_if is not None and rules.allowed_if.fn(env):
            return [game.actions.redeal, game.actions.keep]
        return [game.actions.keep]

    def apply(self, deal: Deal, action: Action) -> None:
        """A redeal ends the deal unplayed; after everyone kept, the next phase starts."""
        seat = deal.redeal_queue.pop(0)
        if action.kind == "redeal":
            deal.end_unplayed(by=seat)
        elif deal.redeal_queue:
            deal.to_act = deal.redeal_queue[0]
        else:
            deal.next_phase()
