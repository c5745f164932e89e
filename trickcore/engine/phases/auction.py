"""The auction (T6-T9, S6-S8): bids in steps up to a cap, passes, and the declarer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.limits import check_count
from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


class Auction(Phase):
    """Forehand opens; bids rise by the step up to the bidder's cap; passing drops a player
    out or not (`bidding.pass`); the auction ends with one player left or after N passes in a
    row. If nobody bids, the deal is thrown in (redealt)."""

    name = "bid"

    def start(self, deal: Deal) -> bool:
        """Forehand opens."""
        deal.to_act = deal.active[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """Every bid from the one to beat up to the cap (with each qualifier), and pass."""
        game = self.game
        b = deal.rules.bidding
        assert b is not None
        seat = deal.to_act
        high = deal.high
        env = game.hand_env(
            deal.hands[seat], high[0] if high else 0, len(deal.active), deal.context[seat]
        )
        cap = b.cap(env)
        quals = game.qualifiers
        out: list[Action] = []
        table = game.actions
        if b.values:  # the listed values only
            low = high[0] if high else b.opening_for(env) - 1
            top = cap if high or not b.opening_exact else b.opening_for(env)
            out = [table.bid(v, q) for v in b.values if low < v <= top for q in quals]
            if high is not None:
                hv, hq = high
                same = [table.bid(hv, q) for qi, q in enumerate(quals) if qi > hq and hv <= cap]
                out = same + out
            if high is not None or not b.forced_opening:
                out.append(table.pass_)
            return out
        if high is None:
            opening = b.opening_for(env)
            if b.opening_exact:
                values = [opening]
            else:
                top = max(cap, opening)
                check_count(top - opening, b.step, "the bid cap")
                values = list(range(opening, top + 1, b.step))
            for v in values:
                for q in quals:
                    out.append(table.bid(v, q))
            if not b.forced_opening:
                out.append(table.pass_)
            return out
        hv, hq = high
        check_count(cap - hv, b.step, "the bid cap")
        for qi, q in enumerate(quals):
            if qi > hq and hv <= cap:
                out.append(table.bid(hv, q))
        v = hv + b.step
        while v <= cap:
            for q in quals:
                out.append(table.bid(v, q))
            v += b.step
        out.append(table.pass_)
        return out

    def apply(self, deal: Deal, action: Action) -> None:
        """A bid or a pass; then the next bidder, the declarer, or a thrown-in deal."""
        b = deal.rules.bidding
        assert b is not None
        seat = deal.to_act
        deal.bids.append((seat, action))
        if action.kind == "bid":
            deal.high = (action.value, self.game.qualifiers.index(action.qualifier))
            deal.high_bidder = seat
            deal.passes_in_row = 0
        else:
            deal.passes_in_row += 1
            if b.pass_drops_out:
                deal.in_auction.remove(seat)
        if b.pass_drops_out:
            enough = b.ends_after_passes is not None and deal.passes_in_row >= b.ends_after_passes
            if deal.high is not None and (len(deal.in_auction) == 1 or enough):
                return self._declare(deal)
            if not deal.in_auction:
                return deal.all_passed()
        elif deal.passes_in_row >= (b.ends_after_passes or 0):
            return self._declare(deal) if deal.high is not None else deal.all_passed()
        order = deal.in_auction if b.pass_drops_out else deal.active
        n = len(deal.active)
        i = deal.active.index(seat)
        for k in range(1, n + 1):
            nxt = deal.active[(i + k) % n]
            if nxt in order:
                deal.to_act = nxt
                return

    def _declare(self, deal: Deal) -> None:
        """The last bidder is the declarer; his bid is the contract (T8, S7)."""
        assert deal.high is not None
        deal.declarer = deal.high_bidder
        deal.contract = deal.high[0]
        deal.qualifier = self.game.qualifiers[deal.high[1]]
        deal.next_phase()
