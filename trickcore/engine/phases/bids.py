"""Bids of a number (`bids`): every player of the deal bids once, in deal order.

A player for whom `blind_if` holds decides first, before seeing his hand: a blind bid, or
`look`; after looking he bids as the others do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.exprs import HAND_KEY, SIDE_KEY, TABLE_KEY, Env
from ...language.limits import check_count, in_range
from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


class Bids(Phase):
    """One bid each, from `min` to `max` (`bid N`), blind bids (`bid N blind`) and `look`."""

    name = "bids"

    def start(self, deal: Deal) -> bool:
        """Who may bid blind is settled as the phase begins (from the match state)."""
        rules = deal.rules.bids
        assert rules is not None
        for seat in deal.active:
            blind = rules.blind_if is not None and bool(rules.blind_if(deal.context[seat]))
            deal.looked[seat] = not blind
        deal.to_act = deal.active[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """Blind bids and `look` for a player who has not looked; otherwise min..max as
        `bid_if` allows (none when max is below min: the rules leave him stuck, which
        `trickcore verify` finds)."""
        rules = deal.rules.bids
        assert rules is not None
        game = self.game
        seat = deal.to_act
        if not deal.looked[seat]:
            return [*(game.actions.bid(v, "blind") for v in rules.blind), game.actions.look]
        env = self.quantities.env(deal.hands[seat], 0, len(deal.active), deal.context[seat])
        high = rules.max(env)
        in_range(high, "bids.max", rules.max.loc)
        check_count(high - rules.min, 1, "bids.max", rules.max.loc)
        values: list[int] | range = range(rules.min, high + 1)
        if rules.bid_if is not None:
            bids = deal.tricks_bid
            made = [bids[s] for s in deal.active if bids[s] >= 0]
            env["bids_total"] = total = sum(made)
            env["bids_made"] = count = len(made)
            self._own(deal, seat, env)
            fn = rules.bid_if
            allowed = []
            if rules.bid_if_aggregates:  # each player's names: what he has bid so far
                shared = {"bids_total": total, "bids_made": count}
                envs = self._table(deal, seat, env, shared)
                for v in values:
                    for e in envs:
                        e["level"] = v  # the bid in question, the same for everybody
                    if fn(env):
                        allowed.append(v)
            else:
                for v in values:
                    env["level"] = v
                    if fn(env):
                        allowed.append(v)
            values = allowed or values  # none allowed: all are (as lead_if)
        return [game.actions.bid(v) for v in values]

    @staticmethod
    def _own(deal: Deal, seat: int, env: Env) -> None:
        """A player's own names in `bid_if`: dealer, his bid so far and whether he made it."""
        bid = deal.tricks_bid[seat]
        env["dealer"] = seat == deal.dealer
        env["tricks_bid"] = max(bid, 0)
        env["has_bid"] = bid >= 0

    def _table(self, deal: Deal, seat: int, env: Env, shared: Env) -> list[Env]:
        """The names of every player of the deal for the aggregates (TABLE: all of them,
        SIDE: those of `seat`'s side, himself included); returns every environment made."""
        players = len(deal.active)
        envs: list[Env] = []
        for s in deal.active:
            if s == seat:
                envs.append(env)
                continue
            other = self.quantities.env(deal.hands[s], 0, players, deal.context[s])
            del other[HAND_KEY]  # his hand is his: nothing may read it from here
            other.update(shared)
            self._own(deal, s, other)
            envs.append(other)
        side_of = deal.side_of
        env[TABLE_KEY] = envs
        env[SIDE_KEY] = [e for s, e in zip(deal.active, envs) if side_of[s] == side_of[seat]]
        return envs

    def apply(self, deal: Deal, action: Action) -> None:
        """Record the bid (or the look); after the last player's bid, the phase is over."""
        seat = deal.to_act
        if action.kind == "look":
            deal.looked[seat] = True
            return
        deal.looked[seat] = True
        deal.tricks_bid[seat] = action.value
        deal.bid_blind[seat] = action.qualifier == "blind"
        deal.bids.append((seat, action))
        i = deal.active.index(seat)
        if i + 1 < len(deal.active):
            deal.to_act = deal.active[i + 1]
        else:
            deal.next_phase()
