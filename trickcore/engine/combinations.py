"""The combinations a hand holds (`combination NAME` blocks): runs of one suit and cards of
one rank, each worth its `value`, compared by its `strength`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..language.exprs import CARD_KEY, COMBINATIONS_KEY
from ..language.model import Combination, Deck

if TYPE_CHECKING:
    from .deal_core import DealCore

COMBINATION_KEYS = ("combination_points", "best_combination", COMBINATIONS_KEY)
# a hand without combinations
NO_COMBINATIONS: dict[str, Any] = dict(zip(COMBINATION_KEYS, (0, 0, ())))


def combinations_held(
    combinations: Sequence[Combination], deck: Deck, hand: Sequence[int], trump: int
) -> list[tuple[int, int]]:
    """(value, strength) of each combination in the hand while `trump` is trump: each
    maximal run of a "run" combination in each suit is one, and each rank held often enough
    of a "same_rank" one; a combination worth 0 (or less) is none."""
    return [(value, strength) for value, strength, _ in _held(combinations, deck, hand, trump)]


def combination_cards(
    combinations: Sequence[Combination], deck: Deck, hand: Sequence[int], trump: int
) -> frozenset[int]:
    """The cards of the hand that belong to one of its combinations (`card_in_combination`)."""
    return frozenset(c for _, _, cards in _held(combinations, deck, hand, trump) for c in cards)


def _held(
    combinations: Sequence[Combination], deck: Deck, hand: Sequence[int], trump: int
) -> list[tuple[int, int, list[int]]]:
    """(value, strength, cards) of each combination in the hand (see `combinations_held`)."""
    out: list[tuple[int, int, list[int]]] = []
    held = set(hand)
    n_ranks, n_suits = len(deck.ranks), len(deck.suits)
    for combo in combinations:
        order = combo.order
        found: list[tuple[dict[str, Any], list[int]]] = []
        if combo.kind == "run":
            for suit in range(n_suits):
                places = [p for p, r in enumerate(order) if suit * n_ranks + r in held]
                start = 0
                for k in range(1, len(places) + 1):  # split into runs of consecutive places
                    if k == len(places) or places[k] != places[k - 1] + 1:
                        length = k - start
                        if length >= combo.size:
                            top = places[start]
                            cards = [suit * n_ranks + order[p] for p in places[start:k]]
                            env = _env(cards[0], length, top, suit == trump, trump)
                            found.append((env, cards))
                        start = k
        else:
            for top, rank in enumerate(order):
                cards = sorted(c for c in held if c % n_ranks == rank)
                if len(cards) >= combo.size:
                    found.append((_env(cards[0], len(cards), top, False, trump), cards))
        for env, cards in found:
            value = int(combo.value(env))
            if value > 0:
                strength = combo.strength
                env["value"] = value
                out.append((value, int(strength(env)) if strength is not None else value, cards))
    return out


def _env(card: int, length: int, top: int, in_trump: bool, trump: int) -> dict[str, Any]:
    """The names a combination's `value` and `strength` read (its highest card)."""
    return {
        CARD_KEY: card,
        "length": length,
        "top": top,
        "card_in_trump_suit": in_trump,
        "trump_set": trump >= 0,
    }


def combination_names(
    combinations: Sequence[Combination], deck: Deck, hand: Sequence[int], trump: int
) -> dict[str, Any]:
    """`combination_points` and `best_combination` of a hand, and its combinations'
    strengths, strongest first (`nth_combination`)."""
    if not combinations:
        return dict(NO_COMBINATIONS)
    held = combinations_held(combinations, deck, hand, trump)
    strengths = sorted((s for _, s in held), reverse=True)
    return {
        "combination_points": sum(v for v, _ in held),
        "best_combination": strengths[0] if strengths else 0,
        COMBINATIONS_KEY: tuple(strengths),
    }


class CombinationsWhenRead(dict):  # type: ignore[type-arg]
    """A decision's names (`turns.turn_env`) with `combination_points` and
    `best_combination` of the hand worked out only when a rule reaches them: `tricks_played
    == 0 and best_combination > 0` reads them in the first trick alone. With `start`, of the
    hand as trick play began (`after_trick`). (Not compiled by mypyc: a dict subclass stays
    a plain Python class here.)"""

    __slots__ = ("deal", "seat", "start")
    deal: DealCore
    seat: int
    start: bool

    @classmethod
    def over(
        cls, env: dict[str, Any], deal: DealCore, seat: int, start: bool = False
    ) -> CombinationsWhenRead:
        """`env` without its combination names, which `seat`'s hand in `deal` (with
        `start`: as trick play began) gives when a rule reads them."""
        out = cls(env)
        for key in COMBINATION_KEYS:
            out.pop(key, None)
        out.deal, out.seat, out.start = deal, seat, start
        return out

    def __missing__(self, key: str) -> Any:
        if key not in COMBINATION_KEYS:
            raise KeyError(key)
        deal = self.deal
        model = deal.game.model
        hand = deal.start_hands.get(self.seat, []) if self.start else deal.hands[self.seat]
        self.update(combination_names(model.combinations, model.deck, hand, deal.trump))
        return self[key]
