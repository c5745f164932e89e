"""Hand quantities that rules expressions read (melds in hand, counts), and helper hands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .exprs import HAND_KEY
from .model import VariantModel


def meld_cards(model: VariantModel) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Every concrete meld as (meld index, suit, value, cards); suit -1 for a meld of fixed
    cards. A meld of a suit missing a card the deck leaves out (`without`) cannot be held
    and is not listed."""
    deck = model.deck
    out = []
    for mi, meld in enumerate(model.melds):
        if meld.cards:  # a fixed set of cards from several suits: suit -1
            out.append((mi, -1, meld.values[0], meld.cards))
            continue
        for si, value in enumerate(meld.values):
            cards = tuple(deck.card_of(si, r) for r in meld.ranks)
            if -1 not in cards:
                out.append((mi, si, value, cards))
    return out


class HandQuantities:
    """Computes the environment of a hand rule (bid cap, redeal condition) for any hand."""

    def __init__(self, model: VariantModel) -> None:
        # each meld as (value, the bits of its cards, its cards): a hand holds it when it has
        # every bit; with `copies`, as often as the fewest copies held of its cards
        self._melds = [(v, card_bits(cards), cards) for _, _, v, cards in meld_cards(model)]
        deck = model.deck
        self._copies = deck.copies
        self._first = deck.first_copy
        self.all_melds = sum(value for value, _, _ in self._melds) * deck.copies
        self.deck_points = deck.total_points

    @property
    def meld_values(self) -> list[int]:
        """The value of each meld a hand may hold (a meld of each suit apart)."""
        return [value for value, _, _ in self._melds]

    def melds_in_hand(self, hand: list[int] | tuple[int, ...]) -> int:
        """Sum of the values of the melds the hand holds complete (with copies, each as
        often as it is held whole)."""
        total = 0
        if self._copies > 1:
            first = self._first
            count: dict[int, int] = {}
            for c in hand:
                count[first[c]] = count.get(first[c], 0) + 1
            for value, _, cards in self._melds:
                total += value * min(count.get(c, 0) for c in cards)
            return total
        held = card_bits(hand)
        for value, bits, _ in self._melds:
            if held & bits == bits:
                total += value
        return total

    def env(
        self, hand: list[int], contract: int, players: int, context: dict[str, Any]
    ) -> dict[str, Any]:
        """The names a hand rule may read, for this hand and what its holder knows of the
        match (`context`)."""
        env = {
            "melds_in_hand": self.melds_in_hand(hand),
            "hand_size": len(hand),
            "deck_points": self.deck_points,
            "all_melds": self.all_melds,
            "contract": contract,
            "players": players,
            HAND_KEY: hand,
        }
        env.update(context)
        return env


def card_bits(cards: Iterable[int]) -> int:
    """A set of cards as a number: bit c set for card c."""
    bits = 0
    for c in cards:
        bits |= 1 << c
    return bits


def start_context(model: VariantModel) -> dict[str, Any]:
    """What a player knows of the match as it begins: deal 1, score 0, initial kept values."""
    ctx: dict[str, Any] = {name: init for name, _, init in model.match.keep}
    ctx.update(deal_number=1, score=0, target=model.match.target or 0, max_other_score=0)
    return ctx


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
