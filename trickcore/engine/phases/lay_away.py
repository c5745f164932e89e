"""The cards a player may lay away (`talon.lay_away_if`, `pickup.lay_away_if`), and those
shown to all as they are laid away (`lay_away_shown_if`)."""

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
    return cards_allowed(deal, hand, rule, _lay_away_env(deal, seat))


def cards_allowed(deal: Deal, hand: list[int], rule: Any, env: dict[str, Any]) -> list[int]:
    """The cards of `hand` (in order) for which `rule`, a compiled rule over a card of the
    hand (`lay_away_if`, `pass_cards.pass_if`), holds with the player's names `env`; all of
    them when it holds for none."""
    eff = deal.relations()[0]
    trumps = deal.game.trump_suit_id
    allowed = []
    for c in hand:
        env[CARD_KEY] = c
        env["card_is_trump"] = eff[c] == trumps
        if rule(env):
            allowed.append(c)
    return allowed or hand


def lay_away(deal: Deal, seat: int, card: int, shown_if: Any) -> None:
    """`seat` lays `card` away from his hand: shown to all when `shown_if` (a compiled
    `lay_away_shown_if`, or None) holds for it, judged as `lay_away_if` judged it."""
    if shown(deal, seat, card, shown_if):
        deal.laid_shown = (*deal.laid_shown, card)
    deal.hands[seat].remove(card)
    deal.laid_away.append(card)
    deal.lay_away_left -= 1


def shown(deal: Deal, seat: int, card: int, shown_if: Any) -> bool:
    """Whether `card`, about to be laid away by `seat`, is shown to all (`shown_if`: a
    compiled `lay_away_shown_if`, or None: never)."""
    if shown_if is None:
        return False
    env = _lay_away_env(deal, seat)
    env[CARD_KEY] = card
    env["card_is_trump"] = deal.relations()[0][card] == deal.game.trump_suit_id
    return bool(shown_if(env))


def shown_if_laid_now(deal: Deal, seat: int, card: int) -> bool:
    """Whether `card` would be shown to all if `seat` laid it away now (the rule of the
    phase in play: the talon's or the pickup's)."""
    rules = deal.rules
    if deal.phase == "pickup" and rules.pickup is not None:
        return shown(deal, seat, card, rules.pickup.lay_away_shown_if)
    if deal.phase == "give":
        return shown(deal, seat, card, rules.talon.lay_away_shown_if)
    return False


def _lay_away_env(deal: Deal, seat: int) -> dict[str, Any]:
    """The names of a card of `seat`'s hand as one is to be laid away (the card's own are
    set per card)."""
    return {
        HAND_KEY: deal.hands[seat],
        "hand_size": len(deal.hands[seat]),
        "lay_away_left": deal.lay_away_left,
        **deal.contract_env(seat),
        **deal.context[seat],
    }
