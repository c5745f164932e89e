"""Raising the contract after the talon (T12, S18): up to the cap on the hand held then."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.limits import check_count
from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


class ContractRaise(Phase):
    """The declarer keeps his contract or raises it in steps (never lowers it)."""

    name = "raise"

    def start(self, deal: Deal) -> bool:
        """Skipped unless `contract.raise` allows raising."""
        contract = deal.rules.contract
        if contract is None or not contract.raise_allowed or deal.declarer < 0:
            return False
        deal.to_act = deal.declarer
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """`keep contract`, and each raise up to the contract cap on the current hand."""
        game = self.game
        c = deal.rules.contract
        assert c is not None
        env = game.hand_env(
            deal.hands[deal.declarer], deal.contract, len(deal.active), deal.context[deal.declarer]
        )
        cap = c.cap(env)
        out = [game.actions.keep_contract]
        check_count(cap - deal.contract, c.step, "the contract cap")
        v = deal.contract + c.step
        while v <= cap:
            out.append(game.actions.raise_to(v))
            v += c.step
        return out

    def apply(self, deal: Deal, action: Action) -> None:
        """Set the contract; the phase is over."""
        if action.kind == "raise":
            deal.contract = action.value
        deal.next_phase()
