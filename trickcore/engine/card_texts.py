"""Cards by text and number for a compiled variant: card texts, deck orders given as texts,
and stacked decks for tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..language.errors import TrickcoreError
from ..language.limits import check_seat
from ..language.model import OUT, STOCK, TALON, TURNUP, VariantModel
from .arguments import check_deal_number


class CardTexts:
    """Card texts and deck orders of `GameTables`."""

    model: VariantModel
    copies: bool
    card_texts: list[str]
    _card_by_text: dict[str, int]

    if TYPE_CHECKING:  # from GameTables and DealLayout

        @property
        def name(self) -> str: ...

        def check_seats(self, players: int | None) -> int: ...

        def players_in_deal(self, dealer: int, seats: int) -> list[int]: ...

        def match_context(
            self,
            seats: int,
            deal_number: int = 1,
            scores: Sequence[int] | None = None,
            kept: Sequence[dict[str, Any]] | None = None,
        ) -> list[dict[str, Any]]: ...

        def deal_places(
            self, order: list[int], context: dict[str, Any], size: int | None = None
        ) -> list[int]: ...

        def deal_size(self, context: dict[str, Any], players: int) -> int: ...

        def shown_position(self, order: list[int], size: int) -> int: ...

    def card(self, text: str) -> int:
        """The card number of a card text such as 'KH'."""
        found = self._card_by_text.get(text) if isinstance(text, str) else None
        if found is None:
            shown = repr(text)[:40]
            raise TrickcoreError(
                f"{shown} is not a card of {self.name}; cards look like "
                f"{', '.join(self.card_texts[:3])}"
            )
        return found

    def _card_of(self, item: object, size: int) -> int:
        if isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < size:
                raise TrickcoreError(f"card number {item} is not a card (0..{size - 1})")
            return item
        return self.card(item)  # type: ignore[arg-type]

    def card_text(self, card: int) -> str:
        """The canonical text of a card number."""
        return self.card_texts[card]

    def deck_from_texts(self, texts: Sequence[str | int]) -> list[int]:
        """Validate a deck order (card texts or numbers, top card first) and return numbers."""
        size = self.model.deck.size
        if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence):
            raise TrickcoreError("a deck order is a list of card texts (or card numbers)")
        head = texts[: size + 1]
        try:  # card texts (the usual case): all at once
            lookup: dict[Any, int] = self._card_by_text
            found: list[int | None] = list(map(lookup.get, head))
        except TypeError:  # something unhashable
            found = [None]
        if None in found:  # card numbers, or something that is no card: one by one
            order = [self._card_of(t, size) for t in head]
        else:
            order = found  # type: ignore[assignment]
        if self.copies:  # a text names each copy of its face in turn
            order = self._copies_in_turn(order)
        if len(order) != size or len(set(order)) != size:  # each of the cards once
            counts = {c: order.count(c) for c in set(order) if 0 <= c < size}
            dup = [self.card_texts[c] for c, n in sorted(counts.items()) if n > 1]
            raise TrickcoreError(
                f"a deck order must list each of the {size} cards once "
                f"(got {len(order)} cards{', repeated: ' + ', '.join(dup) if dup else ''})"
            )
        return order

    def _copies_in_turn(self, cards: list[int]) -> list[int]:
        """Cards named by text (each the first copy of its face) as the copies of their
        faces in turn: the second QC named is the second copy (a copy named too often stays
        the last, so that the caller finds it repeated)."""
        faces = self.model.deck.faces
        copies = self.model.deck.cards_of_face
        used: dict[int, int] = {}
        out = []
        for c in cards:
            face = faces[c]
            k = used.get(face, 0)
            used[face] = k + 1
            out.append(copies[face][min(k, len(copies[face]) - 1)])
        return out

    def stack_deck(
        self,
        hands: dict[int, Sequence[str]],
        talon: Sequence[str] = (),
        dealer: int = 0,
        players: int | None = None,
        deal_number: int = 1,
        turnup: str | None = None,
    ) -> list[str]:
        """A deck order (C2) that deals these cards to these seats, the talon and the
        turned-up card (with `1 turnup to dealer`: the dealer's card dealt face up, his
        other cards named in `hands`).

        Cards not named fill the remaining places in deck order, so a test names only
        the cards that matter. `deal_number` matters when the deal's size depends on it.
        Returns card texts, top card first.
        """
        seats = self.check_seats(players)
        check_seat(dealer, seats, "the dealer")
        check_deal_number(deal_number)
        if not isinstance(hands, dict) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in hands
        ):
            raise TrickcoreError("stack_deck: hands maps seat numbers to lists of card texts")
        for named_cards in (*hands.values(), talon):
            if isinstance(named_cards, (str, bytes)) or not isinstance(named_cards, Sequence):
                raise TrickcoreError("stack_deck: cards are given as a list of card texts")
        model = self.model
        order = model.deal.players_in_deal(dealer, seats)
        context = self.match_context(seats, deal_number)
        # the talon's cards, then the stock's and the turned-up card, are named in `talon`
        # (in deck order), unless the turned-up card is named on its own
        merged = (STOCK, OUT) if turnup is not None else (STOCK, OUT, TURNUP)
        places = [TALON if p in merged else p for p in self.deal_places(order, context[order[0]])]
        if turnup is not None and model.deal.turnup_held:  # named apart from the dealer's hand
            shown = self.shown_position(order, self.deal_size(context[order[0]], len(order)))
            if shown >= 0:
                places[shown] = TURNUP
        wanted = {s: [self.card(c) for c in cs] for s, cs in hands.items()}
        wanted[TALON] = [self.card(c) for c in talon]
        if turnup is not None:
            wanted[TURNUP] = [self.card(turnup)]
        if self.copies:  # the copies of a face in turn, in the order named
            flat = self._copies_in_turn([c for cs in wanted.values() for c in cs])
            for dest, cards in wanted.items():
                wanted[dest], flat = flat[: len(cards)], flat[len(cards) :]
        named = [c for cs in wanted.values() for c in cs]
        if len(set(named)) != len(named):
            raise TrickcoreError("stack_deck: a card is named twice")
        for dest, cards in wanted.items():
            room = places.count(dest)
            if len(cards) > room:
                where = (
                    "the talon"
                    if dest == TALON
                    else "the turned-up card"
                    if dest == TURNUP
                    else f"seat {dest}"
                )
                raise TrickcoreError(
                    f"stack_deck: {len(cards)} cards named for {where}, room for {room}"
                )
        rest = iter(c for c in range(model.deck.size) if c not in set(named))
        queues = {dest: list(cards) for dest, cards in wanted.items()}
        deck = []
        for dest in places:
            q = queues.get(dest)
            deck.append(q.pop(0) if q else next(rest))
        return [self.card_texts[c] for c in deck]
