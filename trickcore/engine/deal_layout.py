"""Where the cards of a deal go and what the players know as a deal begins: the deal's size,
the places each deck position goes to, the players in a deal, the match context."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..language.errors import RulesError
from ..language.model import VariantModel


class DealLayout:
    """The dealing tables of `GameTables`, worked out once per seating and kept."""

    model: VariantModel
    side_of: dict[int, list[int]]
    _start_context: dict[str, Any]
    _first_contexts: dict[int, list[dict[str, Any]]]
    _deal_orders: dict[tuple[int, int], list[int]]
    _groups: dict[tuple[tuple[int, ...], int], list[tuple[int, list[int]]]]
    _shown: dict[tuple[tuple[int, ...], int], int]

    def partner_of(self, seat: int, seats: int) -> int:
        """The other player of a seat's side (`sides:`); the seat itself without one."""
        for side in self.model.sides:
            if seat in side:
                others = [s for s in side if s != seat and s < seats]
                if others:
                    return others[0]
        return seat

    def deal_size(self, context: dict[str, Any], players: int) -> int:
        """`deal { size = EXPR }` for a deal (1 without one), from the public match state."""
        rule = self.model.deal.size
        if rule is None:
            return 1
        env = {
            "deal_number": context.get("deal_number", 1),
            "target": context.get("target", 0),
            "players": players,
            "deck_size": self.model.deck.size,
        }
        size = rule(env)
        if not 0 <= size <= self.model.deck.size:
            raise RulesError(
                f"deal.size gives {size} for deal {env['deal_number']}: outside "
                f"0..{self.model.deck.size}",
                rule.loc,
            )
        return size

    def deal_groups(
        self, order: list[int], context: dict[str, Any], size: int
    ) -> list[tuple[int, list[int]]]:
        """`deal_places` grouped: each place (a seat, TALON, ...) once, in the order places
        first get a card, with the deck positions it gets in order; kept per seating and
        size (the same for every deal of a match)."""
        key = (tuple(order), size)
        groups = self._groups.get(key)
        if groups is None:
            by_place: dict[int, list[int]] = {}
            for position, place in enumerate(self.deal_places(order, context, size)):
                by_place.setdefault(place, []).append(position)
            groups = self._groups[key] = list(by_place.items())
        return groups

    def shown_position(self, order: list[int], size: int) -> int:
        """The deck position of the card turned up into the dealer's hand (`1 turnup to
        dealer`), or -1."""
        key = (tuple(order), size)
        found = self._shown.get(key)
        if found is None:
            found = self._shown[key] = self.model.deal.shown_position(
                order, self.model.deck.size, size
            )
        return found

    def deal_places(
        self, order: list[int], context: dict[str, Any], size: int | None = None
    ) -> list[int]:
        """Where each deck position goes in a deal (a seat, TALON, STOCK, TURNUP or OUT),
        with the deal's `size` worked out from the public match state."""
        deck_size = self.model.deck.size
        if size is None:
            size = self.deal_size(context, len(order))
        places = self.model.deal.places(order, deck_size, size)
        if len(places) > deck_size and self.model.bouts is not None:
            return places[:deck_size]  # D2: with many players the deck runs out
        if len(places) > deck_size:
            size_rule = self.model.deal.size
            raise RulesError(
                f"the deal pattern deals {len(places)} cards in deal "
                f"{context.get('deal_number', 1)} but the deck has {deck_size}",
                size_rule.loc if size_rule is not None else None,
            )
        return places

    def players_in_deal(self, dealer: int, seats: int) -> list[int]:
        """The seats that take part in a deal, in dealing order from the left of the dealer
        (`DealRules.players_in_deal`, worked out once)."""
        key = (dealer, seats)
        order = self._deal_orders.get(key)
        if order is None:
            order = self._deal_orders[key] = self.model.deal.players_in_deal(dealer, seats)
        return order[:]

    def match_context(
        self,
        seats: int,
        deal_number: int = 1,
        scores: Sequence[int] | None = None,
        kept: Sequence[dict[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        """What each seat knows of the match as a deal begins: deal number, own score, the
        match target and its own kept values (readable by the deal's expressions)."""
        if deal_number == 1 and not scores and kept is None:  # as a match begins: copies
            first = self._first_contexts.get(seats)
            if first is None:
                first = self._first_contexts[seats] = self._contexts(seats, 1, None, None)
            return [dict(ctx) for ctx in first]
        return self._contexts(seats, deal_number, scores, kept)

    def _contexts(
        self,
        seats: int,
        deal_number: int,
        scores: Sequence[int] | None,
        kept: Sequence[dict[str, Any]] | None,
    ) -> list[dict[str, Any]]:
        out = []
        for seat in range(seats):
            ctx = dict(self._start_context)
            if kept is not None:
                ctx.update(kept[seat])
            ctx.update(deal_number=deal_number, score=scores[seat] if scores else 0)
            out.append(ctx)
        if scores:  # else every score is 0, and so is the start context's max_other_score
            side_of = self.side_of[seats]
            for seat, ctx in enumerate(out):
                others = [scores[s] for s in range(seats) if side_of[s] != side_of[seat]]
                ctx["max_other_score"] = max(others, default=0)
        return out
