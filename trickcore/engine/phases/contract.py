"""Raising the contract after the talon (T12, S18): up to the cap on the hand held then."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.exprs import NAMED_KEY, QUALIFIER_KEY
from ...language.limits import MAX_BIDS, check_count
from ..actions import Action
from .auction import named_strains
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal
    from ..tables import GameTables


class ContractRaise(Phase):
    """The declarer keeps his contract or raises it in steps (never lowers it)."""

    name = "raise"

    def __init__(self, game: GameTables) -> None:
        super().__init__(game)
        # the raises from one value to another: made once per game
        self._runs: dict[tuple[int, int, int], list[Action]] = {}

    def start(self, deal: Deal) -> bool:
        """Skipped unless `contract.raise` allows raising."""
        contract = deal.rules.contract
        if contract is None or not contract.raise_allowed or deal.declarer < 0:
            return False
        deal.to_act = deal.declarer
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """`keep contract`, and each raise up to the contract cap on the current hand; with
        strains, each higher contract of the bid ladder (`bid 7 clubs`) that `raise_if`
        allows."""
        game = self.game
        c = deal.rules.contract
        assert c is not None
        seat = deal.declarer
        env = self.quantities.env(
            deal.hands[seat], deal.contract, len(deal.active), deal.context[seat]
        )
        cap = c.cap.fn(env)
        out = [game.actions.keep_contract]
        b = deal.rules.bidding
        if b is not None and b.strains:
            return out + self._named(deal, env, cap)
        step = c.step
        if (cap - deal.contract) // step > MAX_BIDS:  # (the message only when it fails)
            check_count(cap - deal.contract, step, "the contract cap", c.cap.loc)
        if deal.contract + step <= cap:
            out.extend(self._raises(deal.contract + step, cap, step))
        return out

    def _raises(self, first: int, last: int, step: int) -> list[Action]:
        """The raises to first, first + step, ... up to last (shared: not to be changed)."""
        key = (first, last, step)
        run = self._runs.get(key)
        if run is None:
            raise_to = self.game.actions.raise_to
            run = self._runs[key] = [raise_to(v) for v in range(first, last + 1, step)]
        return run

    def _named(self, deal: Deal, env: dict[str, Any], cap: int) -> list[Action]:
        """The contracts ranking above the one won, up to the cap, as `raise_if` allows."""
        game = self.game
        b = deal.rules.bidding
        c = deal.rules.contract
        assert b is not None and c is not None
        quals = game.qualifiers
        here = (deal.contract, quals.index(deal.qualifier) if deal.qualifier in quals else -1)
        rule = c.raise_if
        env.update(contract=deal.contract, level=0)
        env[NAMED_KEY] = named_strains(deal, deal.declarer)
        out = []
        for v in b.values:
            if v > cap:
                break
            for qi, q in enumerate(quals):
                if (v, qi) <= here:
                    continue
                if rule is not None:
                    env["level"] = v
                    env[QUALIFIER_KEY] = q
                    if not rule(env):
                        continue
                out.append(game.actions.bid(v, q))
        return out

    def apply(self, deal: Deal, action: Action) -> None:
        """Set the contract (with strains: its level and strain, and the trump suit); the
        phase is over."""
        if action.kind == "raise":
            deal.contract = action.value
        elif action.kind == "bid":
            deal.contract = action.value
            deal.qualifier = action.qualifier
            if deal.rules.play.trump_bid:
                deal.trump = self.game.strain_suit(deal.qualifier)
                deal.rel = None
        deal.next_phase()
