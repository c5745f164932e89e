"""Which leads declare a meld (`marry CARD`): a card of a meld held in full, where the
meld's `declare_if` allows it now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.hands import card_bits
from ..observation import Declaration
from .turns import declare_env

if TYPE_CHECKING:
    from ..deal import Deal
    from ..tables import GameTables


class MeldLeads:
    """The melds of a game sorted out once: for each card, the melds leading it declares
    (with the bits of their cards), and each meld's `declare_if`."""

    def __init__(self, game: GameTables) -> None:
        # card -> (meld, the bits of its cards) of each meld leading it declares, in order
        self.melds_of_card = {
            c: [(mi, card_bits(cards)) for mi, _suit, _value, cards in melds]
            for c, melds in game.meld_of_card.items()
        }
        self.meld_bits = sorted({b for melds in self.melds_of_card.values() for _, b in melds})
        self.declare_ifs = [m.declare_if.fn for m in game.model.melds]  # by meld
        self.game = game
        self.copies = game.copies  # a meld's cards are first copies: any copy held will do

    def declare(self, deal: Deal, seat: int, card: int) -> None:
        """`seat` leads `card` declaring a meld (`marry`): the first meld of the card he
        holds in full is recorded, at its value with the trump in force; a meld that sets
        the trump makes its suit trump."""
        game = self.game
        held = game.held_as_first_copies([*deal.hands[seat], card])
        for mi, suit, _value, cards in game.meld_of_card[card]:
            if all(x in held for x in cards):
                meld = game.model.melds[mi]
                value = meld.value_in(suit, deal.trump)
                declared = Declaration(seat, meld.name, suit, value, len(deal.tricks))
                deal.declarations.append(declared)
                if meld.sets_trump and suit >= 0:
                    deal.trump = suit
                return

    def of(self, deal: Deal, leads: list[int]) -> list[int]:
        """Of `leads` (in order), those that declare a meld held in full by the player on
        lead, where its `declare_if` allows."""
        out: list[int] = []
        seat = deal.turn
        hand = deal.hands[seat]
        held = card_bits(self.game.held_as_first_copies(hand) if self.copies else hand)
        for bits in self.meld_bits:  # most hands hold no meld in full: nothing to check
            if held & bits == bits:
                break
        else:
            return out
        env: dict[str, Any] | None = None
        allowed: dict[int, bool] = {}  # meld -> its declare_if now (the same for each card)
        melds_of = self.melds_of_card
        for c in leads:  # in order
            melds = melds_of.get(c)
            if melds is None:
                continue
            for mi, bits in melds:
                if held & bits == bits:
                    ok = allowed.get(mi)
                    if ok is None:
                        if env is None:
                            env = declare_env(deal, seat)
                        ok = allowed[mi] = bool(self.declare_ifs[mi](env))
                    if ok:
                        out.append(c)
                        break
        return out
