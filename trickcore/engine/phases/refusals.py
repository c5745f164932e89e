"""Why a card is refused in trick play, in words: the obligation or rule that removes it
(`Phase.why_not` of `TrickPlay`), asked step by step as `TrickPlay.legal` applies them, with
the setting of `play` that sets it ("you must follow suit (play.follow: yes)")."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..actions import Action
    from ..deal import Deal
    from .tricks import TrickPlay


def why_not(play: TrickPlay, deal: Deal, action: Action) -> str | None:
    """Which obligation or rule refuses a card that is not legal now, in words, with the
    setting of `play` that sets it (`Phase.why_not`): the same steps as `legal`, each
    asked whether it removes the card."""
    if deal.window_seat >= 0 or action.kind not in ("play", "marry"):
        return None
    if not 0 <= action.card < play.game.model.deck.size:  # not a card of this game
        return None
    seat = deal.turn
    hand = deal.hands[seat]
    text = play.game.card_text
    card = action.card
    if card not in hand:
        shown = text(card)
        held = [c for c in hand if text(c) == shown]  # another copy of the card
        if not held:
            return f"seat {seat} does not hold {shown}"
        card = held[0]
    if play.has_announcements and deal.announced is not None:
        return "a meld was just announced: lead one of its cards"
    trick = deal.trick
    if not trick:
        return _why_not_lead(play, deal, hand, card, action.kind == "marry")
    if action.kind == "marry":
        return "a meld is declared only by leading its card, not in a trick already led"
    return _why_not_follow(play, deal, hand, trick, card)


def _why_not_lead(
    play: TrickPlay, deal: Deal, hand: list[int], card: int, marry: bool
) -> str | None:
    """Why leading `card` (declaring a meld with it when `marry`) is refused."""
    lead_if = play.lead_if
    if lead_if is not None:
        allowed = play._allowed(deal, sorted(hand), lead_if, None)
        if allowed and card not in allowed:
            return f"play.lead_if refuses this lead now ({lead_if.text})"
    if marry:
        if card not in play.meld_cards:
            return f"{play.game.card_text(card)} is not a card of a meld"
        return "no meld with this card is held in full that may be declared now"
    return None


def _why_not_follow(
    play: TrickPlay, deal: Deal, hand: list[int], trick: list[tuple[int, int]], card: int
) -> str | None:
    """Why playing `card` to the trick led is refused: the first of follow, beat_in_suit,
    trump_when_void, overtrump and `play_if` (as `_follows` applies them) that removes it."""
    eff, power = deal.relations()
    trumps_id = play.trumps_id
    led = deal.led_suit(trick)
    same = [c for c in hand if eff[c] == led] if led >= 0 else []
    state = play._trick_state(deal, deal.turn) if play.trick_reads else None
    follow, beat, trump_void, overtrump = (
        play._obligations(deal, state) if play.duty_rules else play.duties
    )
    written = dict(play.game.model.tricks.play.obligations) if play.game.model.tricks else {}

    def setting(name: str) -> str:
        rule = written.get(name)
        return f"play.{name} = {rule.text}" if rule is not None else f"play.{name}: yes"

    cards = hand
    if led < 0:  # no card has set the suit yet: no duty binds
        pass
    elif same and follow:
        if card not in same:
            return f"you must follow suit ({setting('follow')})"
        cards = same
        if beat:
            trumped = led != trumps_id and any(eff[c] == trumps_id for _, c in trick)
            if not trumped:
                best = max(power[c] for _, c in trick if eff[c] == led)
                beaters = [c for c in same if power[c] > best]
                if beaters:
                    if card not in beaters:
                        return (
                            "you must beat the highest card of the suit led "
                            f"({setting('beat_in_suit')})"
                        )
                    cards = beaters
    elif not same and trump_void:
        trumps = [c for c in hand if eff[c] == trumps_id]
        if trumps:
            if card not in trumps:
                return (
                    "you cannot follow suit, so you must play a trump "
                    f"({setting('trump_when_void')})"
                )
            cards = trumps
            if overtrump:
                in_trick = [power[c] for _, c in trick if eff[c] == trumps_id]
                if in_trick:
                    over = [c for c in trumps if power[c] > max(in_trick)]
                    if over and card not in over:
                        return (
                            "you must overtrump: play a trump higher than the trick's "
                            f"highest trump ({setting('overtrump')})"
                        )
    play_if = play.play_if
    if play_if is not None:
        allowed = play._allowed(deal, sorted(cards), play_if, bool(same), state)
        if allowed and card not in allowed:
            return f"play.play_if refuses this card now ({play_if.text})"
    return None
