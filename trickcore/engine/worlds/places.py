"""Where the cards lie: in a deal (a hand, a hidden heap, the table) and as a seat's view
shows them, and the card that set the trump suit."""

from __future__ import annotations

from typing import Any

from ..bouts import BoutDeal
from ..deal import Deal
from ..observation import BoutObservation, Observation

# the places of a view whose cards were seen lying there (not played)
PLACES_SEEN = ("talon_shown", "talon_taken", "laid_away", "set_aside", "turnup", "trump_card")


def card_places(deal: Deal | BoutDeal, size: int) -> list[Any]:
    """Where each card is now: a seat number for a hand, a name for a hidden heap, None when
    on the table or out of play for good (seen)."""
    where: list[Any] = [None] * size
    if isinstance(deal, Deal):
        for c in deal.talon:
            where[c] = "talon"
        for c in deal.stock:
            where[c] = "stock"
        if deal.turnup >= 0:
            where[deal.turnup] = "turnup"
        for c in deal.out:
            where[c] = "out"
        for c in deal.laid_away:
            where[c] = "laid"
        for s, cs in deal.set_aside.items():
            for c in cs:
                where[c] = f"aside{s}"
    else:
        for c in deal.stock:
            where[c] = "stock"
    for s, hand in enumerate(deal.hands):
        for c in hand:
            where[c] = s
    return where


def trump_card(deal: Deal | BoutDeal) -> int:
    """The card that set the trump suit as the cards were dealt (a turned-up card), or -1."""
    card = deal.turnup if isinstance(deal, Deal) else deal.trump_card
    if card >= 0 and deal.trump >= 0 and deal.game.suit_of[card] == deal.trump:
        return card
    return -1


def sightings(obs: Observation | BoutObservation) -> dict[str, tuple[str, ...]]:
    """The cards a view shows in places (not played), by place."""
    out: dict[str, tuple[str, ...]] = {"hand": tuple(sorted(obs.hand))}
    if isinstance(obs, Observation):
        out["talon_shown"] = tuple(obs.talon_shown or ())
        out["talon_taken"] = obs.talon_taken
        out["received"] = obs.received
        out["laid_away"] = obs.laid_away
        out["set_aside"] = obs.set_aside
        out["turnup"] = (obs.turnup,) if obs.turnup is not None else ()
        out["turned_up"] = (obs.turned_up,) if obs.turned_up is not None else ()
        out["stock_shown"] = tuple(t for _, t in obs.stock_shown)
        for s, cs in obs.given:
            out[f"given{s}"] = cs
        for s, cs in obs.open_hands:
            out[f"open{s}"] = cs
        out["talon_led"] = talon_led(obs)
    else:
        turned = turned_card(obs)
        if turned is not None:  # where it was dealt (a swap moves it later)
            out["trump_card"] = (turned,)
    return out


def turned_card(obs: Observation | BoutObservation) -> str | None:
    """The card turned up as the cards were dealt (before any swap or pickup)."""
    if isinstance(obs, Observation):
        return obs.turned_up if obs.turned_up is not None else obs.turnup
    return obs.turned_up if obs.turned_up is not None else obs.trump_card


def talon_led(obs: Observation) -> tuple[str, ...]:
    """The talon's cards turned up to lead tricks so far (`play { talon_leads: yes }`: led
    by nobody, seat -1), in the order they were led: the talon's first cards."""
    led = [cs[0][1] for _, cs, _ in obs.tricks if cs and cs[0][0] < 0]
    if obs.trick and obs.trick[0][0] < 0:
        led.append(obs.trick[0][1])
    return tuple(led)


def deal_values(deal: object) -> tuple[Any, ...]:
    """The deal values every seat sees (`deal { keep }`, for each player of the deal): what
    the rules worked out as the deal went on, some of it from the hands (an announcement made)."""
    if not isinstance(deal, Deal):
        return ()
    names = [name for name, _, _ in deal.game.model.deal.keep]
    return tuple(deal.context[s][name] for s in deal.active for name in names)
