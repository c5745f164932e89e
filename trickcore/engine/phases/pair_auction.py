"""The auction in pairs (`bidding { style: pairs }`): one challenger bids to one listener.

The second player in deal order bids to the first, who holds (accepts the same value) or
passes; whoever passes is out, and the next player in order bids to the survivor; and so
on. Bids come from `bidding.values`, each higher than every value named before. The last
survivor declares at the highest value named; if nobody named one, he may still bid the
lowest value, or pass (then everybody passed: `bidding.all_pass`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


class PairAuction(Phase):
    """Challenger and listener, bid and hold, from the values the variant lists."""

    name = "bid"

    def start(self, deal: Deal) -> bool:
        """The second player in deal order bids to the first."""
        deal.listener = deal.active[0]
        deal.challengers = list(deal.active[1:])
        deal.answering = False
        deal.to_act = deal.challengers[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """Listener: hold or pass. Challenger: a value above every value named (up to the
        cap), or pass. The last survivor with nothing named: the lowest value, or pass."""
        b = deal.rules.bidding
        assert b is not None
        table = self.game.actions
        if deal.answering:
            return [table.hold, table.pass_]
        if not deal.challengers:  # the survivor, nothing named: play at the lowest, or pass
            return [table.bid(b.values[0]), table.pass_]
        seat = deal.to_act
        env = self.quantities.env(
            deal.hands[seat], deal.high[0] if deal.high else 0, len(deal.active), deal.context[seat]
        )
        cap = b.cap(env)
        low = deal.high[0] if deal.high else 0
        return [table.bid(v) for v in b.values if low < v <= cap] + [table.pass_]

    def apply(self, deal: Deal, action: Action) -> None:
        """A bid, a hold or a pass; then the answer, the next challenger, or the end."""
        seat = deal.to_act
        deal.bids.append((seat, action))
        if action.kind == "bid":
            deal.high = (action.value, 0)
            deal.high_bidder = seat
            if not deal.challengers:  # the survivor plays at the lowest value
                return self._declare(deal, seat)
            deal.answering = True
            deal.to_act = deal.listener
            return
        if action.kind == "hold":
            deal.answering = False
            deal.to_act = deal.challengers[0]
            return
        if not deal.challengers:  # the survivor passes too: everybody passed
            return deal.all_passed()
        challenger = deal.challengers.pop(0)
        if deal.answering:  # the listener passed: the challenger survives him
            deal.answering = False
            deal.listener = challenger
        if deal.challengers:
            deal.to_act = deal.challengers[0]
        elif deal.high is not None:
            self._declare(deal, deal.listener)
        else:
            deal.to_act = deal.listener

    def _declare(self, deal: Deal, seat: int) -> None:
        """The survivor declares at the highest value named (K16)."""
        assert deal.high is not None
        deal.declarer = seat
        deal.contract = deal.high[0]
        deal.next_phase()
