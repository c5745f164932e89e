"""The auction in pairs (`bidding { style: pairs }`): one challenger bids to one listener.

The second player in deal order bids to the first, who holds (accepts the same value) or
passes; whoever passes is out, and the next player in order bids to the survivor; and so
on. Bids come from `bidding.values`, each higher than every value named before. The last
survivor declares at the highest value named; if nobody named one, he may still bid the
lowest value, or pass (then everybody passed: `bidding.all_pass`).

With `join: yes` a round of joining comes first: each player in deal order says `join` or
`pass`, and only those who joined bid. Nobody joined: everybody passed; one: he declares
at the lowest value; more: the first of them listens, holding the lowest value, and each
of the others in order bids to the survivor (a bid must be higher than the value held).
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
        """The second player in deal order bids to the first (with `join`: the round of
        joining first, from forehand; no listener until it is over)."""
        deal.answering = False
        if deal.rules.bidding is not None and deal.rules.bidding.join:
            deal.listener = -1
            deal.to_act = deal.active[0]
            return True
        deal.listener = deal.active[0]
        deal.challengers = list(deal.active[1:])
        deal.to_act = deal.challengers[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """Listener: hold or pass. Challenger: a value above every value named (up to the
        cap), or pass. The last survivor with nothing named: the lowest value, or pass."""
        b = deal.rules.bidding
        assert b is not None
        table = self.game.actions
        if deal.listener < 0:  # the round of joining
            return [table.join, table.pass_]
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
        if deal.listener < 0:
            return self._joined(deal)
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

    def _joined(self, deal: Deal) -> None:
        """After a call of the round of joining: the next player, or the bidding among
        those who joined (the first holding the lowest value)."""
        active = deal.active
        if len(deal.bids) < len(active):
            deal.to_act = active[len(deal.bids)]
            return
        joined = [s for s, a in deal.bids if a.kind == "join"]
        if not joined:
            return deal.all_passed()
        assert deal.rules.bidding is not None
        deal.high = (deal.rules.bidding.values[0], 0)
        deal.high_bidder = deal.listener = joined[0]
        deal.challengers = joined[1:]
        if not deal.challengers:
            return self._declare(deal, joined[0])
        deal.to_act = deal.challengers[0]

    def _declare(self, deal: Deal, seat: int) -> None:
        """The survivor declares at the highest value named (K16)."""
        assert deal.high is not None
        deal.declarer = seat
        deal.contract = deal.high[0]
        deal.next_phase()
