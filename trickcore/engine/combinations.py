"""The combinations a hand holds (`combination NAME` blocks): runs of one suit and cards of
one rank, each worth its `value`, compared by its `strength`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..language.exprs import CARD_KEY
from ..language.model import Combination, Deck

if TYPE_CHECKING:
    from .state import DealState

COMBINATION_KEYS = ("combination_points", "best_combination")


def combinations_held(
    combinations: Sequence[Combination], deck: Deck, hand: Sequence[int], trump: int
) -> list[tuple[int, int]]:
    """(value, strength) of each combination in the hand while `trump` is trump: each
    maximal run of a "run" combination in each suit is one, and each rank held often enough
    of a "same_rank" one; a combination worth 0 (or less) is none."""
    out: list[tuple[int, int]] = []
    held = set(hand)
    n_ranks, n_suits = len(deck.ranks), len(deck.suits)
    for combo in combinations:
        order = combo.order
        found: list[dict[str, Any]] = []
        if combo.kind == "run":
            for suit in range(n_suits):
                places = [p for p, r in enumerate(order) if suit * n_ranks + r in held]
                start = 0
                for k in range(1, len(places) + 1):  # split into runs of consecutive places
                    if k == len(places) or places[k] != places[k - 1] + 1:
                        length = k - start
                        if length >= combo.size:
                            top = places[start]
                            found.append(
                                _env(suit * n_ranks + order[top], length, top, suit == trump, trump)
                            )
                        start = k
        else:
            for top, rank in enumerate(order):
                cards = sorted(c for c in held if c % n_ranks == rank)
                if len(cards) >= combo.size:
                    found.append(_env(cards[0], len(cards), top, False, trump))
        for env in found:
            value = int(combo.value(env))
            if value > 0:
                strength = combo.strength
                env["value"] = value
                out.append((value, int(strength(env)) if strength is not None else value))
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
) -> dict[str, int]:
    """`combination_points` and `best_combination` of a hand."""
    if not combinations:
        return {"combination_points": 0, "best_combination": 0}
    held = combinations_held(combinations, deck, hand, trump)
    return {
        "combination_points": sum(v for v, _ in held),
        "best_combination": max((s for _, s in held), default=0),
    }


class CombinationsWhenRead(dict):  # type: ignore[type-arg]
    """A decision's names (`turns.turn_env`) with `combination_points` and
    `best_combination` of the hand worked out only when a rule reaches them: `tricks_played
    == 0 and best_combination > 0` reads them in the first trick alone. (Not compiled by
    mypyc: a dict subclass stays a plain Python class here.)"""

    __slots__ = ("deal", "seat")
    deal: DealState
    seat: int

    @classmethod
    def over(cls, env: dict[str, Any], deal: DealState, seat: int) -> CombinationsWhenRead:
        """`env` without its combination names, which `seat`'s hand in `deal` gives when a
        rule reads them."""
        out = cls(env)
        out.pop("combination_points", None)
        out.pop("best_combination", None)
        out.deal, out.seat = deal, seat
        return out

    def __missing__(self, key: str) -> Any:
        if key not in COMBINATION_KEYS:
            raise KeyError(key)
        deal = self.deal
        model = deal.game.model
        hand = deal.hands[self.seat]
        self.update(combination_names(model.combinations, model.deck, hand, deal.trump))
        return self[key]
