"""The combinations a hand holds (`combination NAME` blocks): runs of one suit, ranks held in
several suits and given cards, each worth its `value`, compared by its `strength`."""

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
    maximal run of a "run" combination in each suit is one, each rank held in enough suits
    of a "same_rank" one, and each set held whole of a "cards" one; a combination worth 0
    (or less) is none."""
    return [(value, strength) for value, strength, _ in _held(combinations, deck, hand, trump)]


def combination_cards(
    combinations: Sequence[Combination], deck: Deck, hand: Sequence[int], trump: int
) -> frozenset[int]:
    """The cards of the hand that belong to one of its combinations (`card_in_combination`)."""
    return frozenset(c for _, _, cards in _held(combinations, deck, hand, trump) for c in cards)


def _held(
    combinations: Sequence[Combination], deck: Deck, hand: Sequence[int], trump: int
) -> list[tuple[int, int, list[int]]]:
    """(value, strength, cards) of each combination in the hand (see `combinations_held`).
    Patterns are of faces; with copies each is held as often (`times`) as the fewest
    copies held of its faces, and its cards are every copy held of them."""
    out: list[tuple[int, int, list[int]]] = []
    face_of = deck.faces
    count: dict[int, int] = {}
    for c in hand:
        f = face_of[c]
        count[f] = count.get(f, 0) + 1
    n_ranks, n_suits = len(deck.ranks), len(deck.suits)
    for combo in combinations:
        order = combo.order
        found: list[tuple[dict[str, Any], list[int]]] = []  # (names, faces)
        if combo.kind == "run":
            for suit in range(n_suits):
                places = [p for p, r in enumerate(order) if suit * n_ranks + r in count]
                start = 0
                for k in range(1, len(places) + 1):  # split into runs of consecutive places
                    if k == len(places) or places[k] != places[k - 1] + 1:
                        length = k - start
                        if length >= combo.size:
                            faces = [suit * n_ranks + order[p] for p in places[start:k]]
                            env = _env(faces, count, deck, length, places[start], suit == trump)
                            found.append((env, faces))
                        start = k
        elif combo.kind == "same_rank":
            for top, rank in enumerate(order):
                faces = [f for f in range(rank, n_suits * n_ranks, n_ranks) if f in count]
                if len(faces) >= combo.size:
                    found.append((_env(faces, count, deck, len(faces), top, False), faces))
        else:
            for given in combo.sets:
                if all(f in count for f in given):
                    in_trump = given[0] // n_ranks == trump
                    env = _env(given, count, deck, len(given), 0, in_trump)
                    found.append((env, list(given)))
        for env, faces in found:
            env["trump_set"] = trump >= 0
            value = int(combo.value(env))
            if value > 0:
                strength = combo.strength
                env["value"] = value
                cards = list(faces) if deck.plain else [c for c in hand if face_of[c] in faces]
                out.append((value, int(strength(env)) if strength is not None else value, cards))
    return out


def _env(
    faces: Sequence[int], count: dict[int, int], deck: Deck, length: int, top: int, in_trump: bool
) -> dict[str, Any]:
    """The names a combination's `value` and `strength` read: its first face's card is the
    card in question, `times` the fewest copies held of its faces."""
    return {
        CARD_KEY: deck.cards_of_face[faces[0]][0],
        "length": length,
        "times": min(count[f] for f in faces),
        "top": top,
        "card_in_trump_suit": in_trump,
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
