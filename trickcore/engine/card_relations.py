"""How the cards of a compiled variant compare: each card's effective suit and power under a
trump (tricks), the beaters of each card (bouts), card points under a trump and contract."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..language.exprs import CARD_KEY, OTHER_KEY, relation_env
from ..language.limits import in_range
from ..language.model import VariantModel
from .actions import Action, ActionTable
from .combinations import combination_cards, combinations_held


def led_suit(
    eff: Sequence[int], setters: Sequence[bool] | None, cards: Sequence[tuple[int, int]]
) -> int:
    """The effective suit led to these cards of a trick (seat, card), in order: their first
    card's, or with `setters` (`suit_setters`) the first card's that sets it; -1 when none
    does (yet)."""
    if setters is None:
        return eff[cards[0][1]]
    for _, c in cards:
        if setters[c]:
            return eff[c]
    return -1


class CardRelations:
    """The card relations of `GameTables`, worked out once per trump suit (and qualifier and
    choices) and kept."""

    model: VariantModel
    actions: ActionTable
    suit_of: list[int]
    rank_of: list[int]
    points_of: tuple[int, ...]
    points_vary: bool
    _points: dict[tuple[int, str, tuple[str, ...]], tuple[int, ...]]
    options: list[str]
    trump_suit_id: int
    _beaters: dict[int, list[dict[int, Action]]]
    _relations: dict[tuple[int, str, tuple[str, ...]], tuple[tuple[int, ...], tuple[int, ...]]]
    _trump_orders: dict[tuple[int, str, tuple[str, ...]], tuple[int, ...]]
    _setters: dict[tuple[int, str, tuple[str, ...]], tuple[bool, ...]]
    _singles: dict[str, list[Action]]
    _in_combination: dict[tuple[tuple[int, ...], int], frozenset[int]]

    def single_card_actions(self, kind: str) -> list[Action]:
        """The bout actions of one kind with one card, indexed by card (made once)."""
        found = self._singles.get(kind)
        if found is None:
            found = [self.actions.bout(kind, (c,)) for c in range(self.model.deck.size)]
            self._singles[kind] = found
        return found

    def relations(
        self, trump: int, qualifier: str = "", chosen: tuple[str, ...] = ()
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """How the cards compare in a trick while `trump` is trump (-1: none) and the
        contract carries `qualifier` and these `choice` options were chosen: each card's
        effective suit (`trump_suit_id` for every
        trump) and its power (higher beats lower within an effective suit).

        By default the trumps are the cards of the trump suit and the power follows the
        deck's rank order; `play { trump_power = ..., power = ... }` say otherwise (jacks as
        trumps, a second rank order). Worked out once per trump suit and qualifier.
        """
        key = (trump, qualifier, chosen)
        found = self._relations.get(key)
        if found is None:
            found = self._relations[key] = self._work_out_relations(trump, qualifier, chosen)
        return found

    def suit_setters(
        self, trump: int, qualifier: str = "", chosen: tuple[str, ...] = ()
    ) -> tuple[bool, ...] | None:
        """Whether each card sets the suit to follow when it is the first such card of a
        trick (`play { sets_suit_if = EXPR }`, under these relations); None when every card
        does (the usual rule). Worked out once per trump suit, qualifier and choices."""
        play = self.model.tricks.play if self.model.tricks else None
        if play is None or play.sets_suit_if is None:
            return None
        key = (trump, qualifier, chosen)
        found = self._setters.get(key)
        if found is None:
            deck = self.model.deck
            n = len(deck.ranks)
            rule = play.sets_suit_if
            found = self._setters[key] = tuple(
                bool(rule(relation_env(c, face, n, trump, qualifier, self.options, chosen)))
                for c, face in enumerate(deck.faces)
            )
        return found

    def trump_order(self, trump: int, qualifier: str, chosen: tuple[str, ...]) -> tuple[int, ...]:
        """The trumps under these relations, highest first (kept)."""
        key = (trump, qualifier, chosen)
        found = self._trump_orders.get(key)
        if found is None:
            eff, power = self.relations(trump, qualifier, chosen)
            found = tuple(
                sorted(
                    (c for c in range(len(eff)) if eff[c] == self.trump_suit_id),
                    key=lambda c: -power[c],
                )
            )
            self._trump_orders[key] = found
        return found

    def _work_out_relations(
        self, trump: int, qualifier: str, chosen: tuple[str, ...]
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        play = self.model.tricks.play if self.model.tricks else None
        deck = self.model.deck
        n = len(deck.ranks)
        eff: list[int] = []
        power: list[int] = []
        for c, face in enumerate(deck.faces):
            suit, rank = face // n, face % n
            env = relation_env(c, face, n, trump, qualifier, self.options, chosen)
            if play is not None and play.trump_power is not None:
                tp = play.trump_power(env)
                in_range(tp, "play.trump_power", None)
            else:
                tp = n - rank if suit == trump else 0
            if tp > 0:
                eff.append(self.trump_suit_id)
                power.append(tp)
                continue
            eff.append(suit)
            if play is not None and play.power is not None:
                p = play.power(env)
                in_range(p, "play.power", None)
                power.append(p)
            else:
                power.append(n - rank)
        return tuple(eff), tuple(power)  # kept and handed out: a caller cannot change them

    def beaters(self, trump: int) -> list[dict[int, Action]]:
        """For each card, the cards that beat it under `trump` (D8), with their beat actions.

        A card is beaten by a higher card of its suit, or by any trump when it is not a
        trump. Made once per trump suit and kept.
        """
        table = self._beaters.get(trump)
        if table is None:
            suit_of, rank_of = self.suit_of, self.rank_of
            bouts = self.model.bouts
            rule = bouts.beats if bouts is not None else None
            faces, n = self.model.deck.faces, len(self.model.deck.ranks)
            table = []
            for a in range(len(suit_of)):
                row = {}
                for c in range(len(suit_of)):
                    same = suit_of[c] == suit_of[a] and rank_of[c] < rank_of[a]
                    trumps = suit_of[c] == trump and suit_of[a] != trump
                    usual = same or trumps
                    if rule is not None and c != a:  # `bouts { beats = EXPR }`
                        usual = bool(
                            rule(
                                {
                                    CARD_KEY: c,
                                    OTHER_KEY: a,
                                    "card_is_trump": suit_of[c] == trump,
                                    "card_power": n - rank_of[c],
                                    "other_trump": suit_of[a] == trump,
                                    "other_power": n - rank_of[a],
                                    "same_card": faces[c] == faces[a],
                                    "same_suit": suit_of[c] == suit_of[a],
                                    "beats_usually": usual,
                                }
                            )
                        )
                    if usual:
                        row[c] = self.actions.bout("beat", (a, c))
                table.append(row)
            self._beaters[trump] = table
        return table

    def combination_cards(self, hand: Sequence[int], trump: int) -> frozenset[int]:
        """The cards of `hand` in one of its combinations under `trump`
        (`card_in_combination`), kept for the hands asked about lately."""
        key = (tuple(hand), trump)
        found = self._in_combination.get(key)
        if found is None:
            if len(self._in_combination) > 4096:
                self._in_combination.clear()
            model = self.model
            found = combination_cards(model.combinations, model.deck, hand, trump)
            self._in_combination[key] = found
        return found

    def trick_combinations(self) -> Callable[[Sequence[int], int], int] | None:
        """The points of the combinations (`combination` blocks) among a trick's cards under
        a trump (`trick_combination_points`); None without combination blocks."""
        model = self.model
        if not model.combinations:
            return None

        def points(cards: Sequence[int], trump: int) -> int:
            held = combinations_held(model.combinations, model.deck, cards, trump)
            return sum(value for value, _ in held)

        return points

    def points_with(
        self, trump: int, call: str = "", chosen: tuple[str, ...] = ()
    ) -> tuple[int, ...]:
        """Each card's points while `trump` (a suit index, -1: none) is trump, the contract
        carries `call` and the `chosen` options were chosen: the same in every case unless
        `card_points` reads them (then worked out once per case and kept)."""
        if not self.points_vary:
            return self.points_of
        key = (trump, call, chosen)
        found = self._points.get(key)
        if found is None:
            points = self.model.deck.points_in(trump, call, chosen)
            for p in points:
                in_range(p, "deck.card_points", None)
            found = self._points[key] = points
        return found
