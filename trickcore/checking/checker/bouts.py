"""The invariants of a deal of bouts at each step: the legal moves (D5-D8, D12), who is
asked to throw in (D6), the bout's limit (D7) and when a bout may end (D8, D9)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ...engine.actions import Action
from ...engine.bouts import BoutDeal
from ...engine.deal import Deal
from ...engine.game import Game
from ..reference.bouts import bout_limit, bout_moves, first_attacker
from ..reference.variant import Reference
from .violations import Found


@attrs.frozen
class _BoutView:
    """The checker's copy of a bout's state: what D6 decides who may throw in from."""

    bouts: int
    seats: int
    attacker: int
    defender: int
    in_game: tuple[int, ...]
    table: list[list[int]]
    hands: list[list[int]]
    taking: bool

    @classmethod
    def of(cls, deal: BoutDeal) -> _BoutView:
        """A copy of the deal's bout as it is now."""
        return cls(
            deal.bouts,
            deal.seats,
            deal.attacker,
            deal.defender,
            tuple(deal.in_game),
            [list(pair) for pair in deal.table],
            [list(h) for h in deal.hands],
            deal.taking,
        )


@attrs.define
class _BoutBook:
    """What the checker keeps of a deal of bouts: bout count, limit, declined throwers, and
    the bout as it was before the last action."""

    bouts: int = -1
    limit: int = 1
    declined: set[int] = attrs.field(factory=set)
    ranks_before: set[int] = attrs.field(factory=set)
    swapped: int = -1
    before: _BoutView | None = None


class BoutChecks:
    """A deal of bouts checked at each step against the checker's own copy of its bout."""

    def __init__(self, game: Game, ref: Reference) -> None:
        self.game = game
        self.ref = ref
        self._bout = _BoutBook()

    def start_deal(self) -> None:
        """A new deal: nothing kept of its bouts yet."""
        self._bout = _BoutBook()

    def check_moves(self, deal: BoutDeal, legal: Sequence[Action]) -> None:
        """D5-D8, D12: the complete set of legal actions, compared both ways."""
        book = self._bout
        bouts = deal.rules
        if not deal.history:  # D4: the deal's first attacker, from the hands as dealt
            self._check_first_attacker(deal)
        if deal.bouts != book.bouts:  # a new bout: D7's limit, nobody has declined yet
            book.bouts = deal.bouts
            book.limit = self._bout_limit_now(deal)
            book.declined = set()
        if len(deal.table) > book.limit:
            raise Found(
                "bout limit", f"{len(deal.table)} attack cards, more than the limit {book.limit}"
            )
        rank = self.ref.eval.rank
        book.ranks_before = {rank(c) for pair in deal.table for c in pair if c >= 0}
        view = book.before = _BoutView.of(deal)
        seat = deal.to_act
        phase = deal.phase
        n = len(self.game.model.deck.ranks)
        swap = None
        swap_rank = self.game.model.bouts.swap_rank if self.game.model.bouts else None
        if swap_rank is not None and deal.stock and deal.trump >= 0:
            # D12: his card of that rank of trumps (any copy he holds; with `without`, a
            # card the deck may not hold), not when the turned-up card is that card itself
            face = deal.trump * n + swap_rank
            held = [c for c in deal.hands[seat] if self.ref.eval.face(c) == face]
            if held and self.ref.eval.face(deal.trump_card) != face:
                swap = held[0]
        room = None
        if bouts.transfer:
            nxt = self._next_in_game(deal, deal.defender)
            if nxt != deal.defender:
                room = len(deal.hands[nxt])
        expected = bout_moves(
            self.ref, phase, deal.hands[seat], deal.table, deal.trump, book.limit, swap, room
        )
        # each card as the first of its face: the copies of a card are one card to the
        # players (one action offered, whichever copy it moves)
        first = self.ref.eval.first_copy
        offered = {(a.kind, tuple(map(first, a.cards))) for a in legal}
        expected = {(kind, tuple(map(first, cards))) for kind, cards in expected}
        role = {"attack": "attacking", "defend": "defending", "throw": "throwing in"}.get(
            phase, phase
        )
        extra = sorted(offered - expected)
        missing = sorted(expected - offered)
        if extra or missing:
            words = []
            if extra:
                words.append(f"is offered {self._bout_texts(extra)}, which the rules do not allow")
            if missing:
                words.append(f"is not offered {self._bout_texts(missing)}, which the rules allow")
            raise Found("bout moves", f"seat {seat} ({role}) " + " and ".join(words))
        if phase == "throw" and book.swapped != seat:  # D12: a swap keeps the turn
            due = self._thrower(view)
            if due != seat:
                who = f"seat {due}" if due >= 0 else "nobody"
                raise Found(
                    "throw-in order", f"seat {seat} is asked to throw in, but D6 asks {who}"
                )
        elif phase == "defend" and (
            bouts.throw_in == "any_time" or all(pair[1] >= 0 for pair in deal.table)
        ):
            due = self._thrower(view)
            if due >= 0:
                raise Found(
                    "throw-in order",
                    f"the defender (seat {seat}) is asked to answer, but D6 first asks "
                    f"seat {due} to throw in",
                )

    def _check_first_attacker(self, deal: BoutDeal) -> None:
        order = list(deal.active)
        due = first_attacker(self.ref, order, deal.hands, deal.trump, deal.dealer, deal.context)
        if deal.attacker != due or deal.to_act != due:
            raise Found(
                "first attacker",
                f"seat {deal.attacker} attacks first, but D4 (first_attacker) names seat {due}",
            )

    def follow(
        self, deal: Deal | BoutDeal, seat: int, action: Action, seen_by: list[set[int]]
    ) -> None:
        """Bring the checker's copy of the bout and the cards each seat has seen (`seen_by`)
        up to date with the action taken, and check the end of a bout it ended."""
        assert isinstance(deal, BoutDeal)
        for seen in seen_by:
            seen.update(action.cards)
        for s, hand in enumerate(deal.hands):
            seen_by[s].update(hand)
        book = self._bout
        mode = deal.rules.throw_in
        kind = action.kind
        book.swapped = seat if kind == "swap" else -1
        if kind == "done":
            book.declined.add(seat)
        elif kind == "attack":
            if mode == "any_time":
                book.declined.clear()
        elif kind == "take":
            if deal.rules.throw_after_take:
                book.declined.clear()
        elif kind == "transfer":
            book.declined.clear()
            book.limit = max(self._bout_limit_now(deal), len(deal.table))
        elif kind == "beat":
            if mode == "any_time":
                if self.ref.eval.rank(action.cards[1]) not in book.ranks_before:
                    book.declined.clear()
            elif all(pair[1] >= 0 for pair in deal.table):
                book.declined.clear()
        before = book.before
        if before is not None and deal.bouts != before.bouts:
            self._check_bout_end(deal.rules.throw_after_take, seat, action, before)

    def _check_bout_end(
        self, throw_after_take: bool, seat: int, action: Action, before: _BoutView
    ) -> None:
        """D6, D8, D9: a bout ends only when every attack card is beaten or the defender
        takes, and only once nobody is still due to throw in (the checker's own copy of the
        bout, with the last action applied to it)."""
        table, hands, taking = before.table, before.hands, before.taking
        kind, cards = action.kind, action.cards
        if kind == "beat":
            hands[seat].remove(cards[1])
            for pair in table:
                if pair[0] == cards[0]:
                    pair[1] = cards[1]
        elif kind == "throw":
            hands[seat].remove(cards[0])
            table.append([cards[0], -1])
        elif kind == "take":
            taking = True
        if not taking and any(pair[1] < 0 for pair in table):
            raise Found(
                "bout end",
                f"the bout ended after '{action.text}' with an attack card unbeaten and "
                "the defender not taking (D8, D9)",
            )
        if taking and not throw_after_take:
            return  # D8: the defender picks up at once
        due = self._thrower(attrs.evolve(before, table=table, hands=hands, taking=taking))
        if due >= 0:
            raise Found(
                "throw-in order",
                f"the bout ended after '{action.text}', but D6 still asks seat {due} to "
                "throw in (it has not said done and may add a card)",
            )

    def _bout_limit_now(self, deal: BoutDeal) -> int:
        env = {
            "defender_cards": len(deal.hands[deal.defender]),
            "bout_number": deal.bouts + 1,
            "players": len(deal.in_game),
            "stock": len(deal.stock),
        }
        return bout_limit(self.ref, env)

    def _bout_texts(self, moves: Sequence[tuple[str, tuple[int, ...]]]) -> str:
        ct = self.game.card_text
        out = []
        for kind, cards in moves:
            if kind == "beat":
                out.append(f"'beat {ct(cards[0])} with {ct(cards[1])}'")
            else:
                out.append("'" + " ".join([kind, *(ct(c) for c in cards)]) + "'")
        return ", ".join(out)

    def _next_in_game(self, deal: BoutDeal | _BoutView, seat: int) -> int:
        for k in range(1, deal.seats + 1):
            s = (seat + k) % deal.seats
            if s in deal.in_game:
                return s
        return seat

    def _thrower(self, view: _BoutView) -> int:
        """D6: the first player, from the attacker round the table, who may throw in now
        (has not said done, may add under throw_in_by and skip_unable, the bout has room);
        -1 if nobody."""
        rules = self.game.model.bouts
        assert rules is not None
        if len(view.table) >= self._bout.limit:
            return -1
        order = [
            (view.attacker + k) % view.seats
            for k in range(view.seats)
            if (view.attacker + k) % view.seats in view.in_game
            and (view.attacker + k) % view.seats != view.defender
        ]
        if rules.throw_in_by == "attacker":
            order = order[:1]
        elif rules.throw_in_by == "neighbours":
            left = self._next_in_game(view, view.defender)
            order = [s for s in order if s in (view.attacker, left)]
        rank = self.ref.eval.rank
        ranks = {rank(c) for pair in view.table for c in pair if c >= 0}
        for s in order:
            if s in self._bout.declined:
                continue
            if rules.skip_unable and not any(rank(c) in ranks for c in view.hands[s]):
                continue
            return s
        return -1
