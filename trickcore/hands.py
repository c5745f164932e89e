"""Hand quantities that rules expressions read (melds in hand, counts) and helper hands."""

from __future__ import annotations

from typing import Any

from .exprs import HAND_KEY
from .model import VariantModel


def meld_cards(model: VariantModel) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Every concrete meld as (meld index, suit, value, cards)."""
    n = len(model.deck.ranks)
    out = []
    for mi, meld in enumerate(model.melds):
        for si, value in enumerate(meld.values):
            out.append((mi, si, value, tuple(si * n + r for r in meld.ranks)))
    return out


def melds_in_hand(model: VariantModel, hand: list[int] | tuple[int, ...]) -> int:
    """Sum of the values of the melds the hand holds complete."""
    held = set(hand)
    return sum(v for _, _, v, cards in meld_cards(model) if all(c in held for c in cards))


def all_melds_value(model: VariantModel) -> int:
    """Sum of every meld in the deck."""
    return sum(v for _, _, v, _ in meld_cards(model))


def hand_env(
    model: VariantModel, hand: list[int] | tuple[int, ...], contract: int, players: int = 0
) -> dict[str, Any]:
    """The environment a hand rule (bid cap, redeal condition) is evaluated in."""
    return {
        "melds_in_hand": melds_in_hand(model, hand),
        "hand_size": len(hand),
        "deck_points": model.deck.total_points,
        "all_melds": all_melds_value(model),
        "contract": contract,
        "players": players or (model.deal.hands or model.players[0]),
        HAND_KEY: hand,
    }


def meld_rich_hands(model: VariantModel) -> list[list[int]]:
    """Hands holding as many of the most valuable melds as fit (for static checks)."""
    size = model.deal.per_hand
    melds = sorted(meld_cards(model), key=lambda m: -m[2])
    hand: list[int] = []
    for *_, cards in melds:
        if len(hand) + len(cards) <= size:
            hand.extend(cards)
    rest = [c for c in range(model.deck.size) if c not in hand]
    return [hand + rest[: size - len(hand)]]
