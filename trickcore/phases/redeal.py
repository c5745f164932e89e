"""The redeal offer (S5): every player in turn from forehand may demand a redeal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


class RedealOffer(Phase):
    """Asked of every player in turn from forehand, so that being asked reveals nothing;
    only a player whose hand meets `redeal.allowed_if` is offered `redeal` beside `keep`."""

    name = "redeal"

    def start(self, deal: Deal) -> bool:
        """Skipped when the variant has no `redeal` block (T5: never a redeal)."""
        if self.game.model.redeal is None:
            return False
        deal.redeal_queue = list(deal.active)
        deal.to_act = deal.redeal_queue[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """`redeal` (when the hand allows it) and `keep`."""
        game = self.game
        rules = game.model.redeal
        assert rules is not None
        env = game.hand_env(deal.hands[deal.to_act], 0, len(deal.active), deal.context[deal.to_act])
        if rules.allowed_if(env):
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
