"""The cards a player may lay away (`talon.lay_away_if`, `pickup.lay_away_if`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.exprs import CARD_KEY, HAND_KEY

if TYPE_CHECKING:
    from ..deal import Deal


def cards_to_lay_away(deal: Deal, seat: int, rule: Any) -> list[int]:
    """The cards of `seat`'s hand `rule` (a compiled `lay_away_if`, or None) lets him lay
    away now, in order; all of them when it allows none."""
    hand = sorted(deal.hands[seat])
    if rule is None:
        return hand
    eff = deal.relations()[0]
    trumps = deal.game.trump_suit_id
    env: dict[str, Any] = {
        HAND_KEY: deal.hands[seat],
        "hand_size": len(hand),
        "lay_away_left": deal.lay_away_left,
        **deal.contract_env(seat),
        **deal.context[seat],
    }
    allowed = []
    for c in hand:
        env[CARD_KEY] = c
        env["card_is_trump"] = eff[c] == trumps
        if rule(env):
            allowed.append(c)
    return allowed or hand
