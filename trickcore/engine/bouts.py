"""The state of one deal of a game of bouts: attack, defend, throw in, take, refill."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, cast

from ..language.errors import RulesError, TrickcoreError
from ..language.exprs import HAND_KEY, TRUMP_KEY
from .actions import Action
from .bout_settings import BoutSettings
from .observation import BoutObservation
from .state import OVER, DealState

if TYPE_CHECKING:
    from .tables import GameTables

ATTACK, DEFEND, THROW = "attack", "defend", "throw"


class BoutDeal(DealState):
    """One deal of a game of bouts. Made by Game.new_deal; the API is that of Deal."""

    __slots__ = (
        "_numbers",
        "_offers",
        "attacker",
        "bouts",
        "declined",
        "defender",
        "discarded",
        "draw",
        "drawn",
        "in_game",
        "limit",
        "out",
        "ranks_on_table",
        "rules",
        "settings",
        "stock",
        "table",
        "taking",
        "thrower_order",
        "trump_card",
        "trump_card_in_stock",
    )

    def __init__(
        self,
        game: GameTables,
        deck_order: list[int],
        dealer: int,
        seats: int,
        context: list[dict[str, Any]] | None = None,
        source: DealState | None = None,
    ) -> None:
        if source is not None:  # a copy (clone)
            self._copy_from(source)
            return
        model = game.model
        assert model.bouts is not None, "a bout deal needs a game of bouts"
        self.rules = model.bouts
        assert game.bout_settings is not None
        self.settings: BoutSettings = game.bout_settings
        super().__init__(game, deck_order, dealer, seats, context)
        order = self.active
        size = len(self.deck_order)
        pos = 0
        last_dealt = -1
        turnup = -1
        for packet in model.deal.pattern:
            if packet.to == "each":
                for s in order:
                    got = self.deck_order[pos : pos + packet.count]
                    self.hands[s].extend(got)
                    pos += len(got)
                    if got:
                        last_dealt = got[-1]
            elif packet.to == "turnup" and pos < size:
                turnup = self.deck_order[pos]
                pos += 1
        rest = self.deck_order[pos:]  # every card not dealt forms the stock
        # the stock is kept reversed: its top card is the last element, the trump card first
        self.stock: list[int] = ([turnup] if turnup >= 0 else []) + rest[::-1]
        self.trump_card = turnup if turnup >= 0 else last_dealt
        self.turned_up = self.trump_card  # as dealt: a swap may take it later
        # when each card of a hand came: (actions of the deal before it, card); 0: dealt
        self.drawn: list[list[tuple[int, int]]] = [[(0, c) for c in sorted(h)] for h in self.hands]
        self.trump_card_in_stock = turnup >= 0
        self.trump = game.suit_of[self.trump_card] if self.trump_card >= 0 else -1
        self.in_game: list[int] = list(order)
        self.out: list[int] = []
        self.discarded: list[int] = []
        self.table: list[list[int]] = []
        self.ranks_on_table: set[int] = set()
        self.taking = False
        self.declined: set[int] = set()
        self.bouts = 0
        self.draw = False
        self._offers = bout_offers(game, self.trump, numbers=False)
        self._numbers = bout_offers(game, self.trump, numbers=True)
        self.limit = 0
        self.thrower_order: list[int] = []
        self.attacker = self._first_attacker(order)  # D4
        self.defender = self._next_in_game(self.attacker)
        self.phase = ATTACK
        self.to_act = self.attacker
        self._start_bout()

    def _copy_from(self, src: DealState) -> None:
        assert isinstance(src, BoutDeal)
        super()._copy_from(src)
        self.rules = src.rules  # shared with the game: never changed in place
        self.settings = src.settings
        self._offers = src._offers
        self._numbers = src._numbers
        self.trump_card = src.trump_card
        self.turned_up = src.turned_up
        self.trump_card_in_stock = src.trump_card_in_stock
        self.taking = src.taking
        self.bouts = src.bouts
        self.draw = src.draw
        self.limit = src.limit
        self.attacker = src.attacker
        self.defender = src.defender
        self.stock = src.stock[:]
        self.drawn = [d[:] for d in src.drawn]
        self.in_game = src.in_game[:]
        self.out = src.out[:]
        self.discarded = src.discarded[:]
        self.table = [pair[:] for pair in src.table]
        self.ranks_on_table = src.ranks_on_table.copy()
        self.declined = src.declined.copy()
        self.thrower_order = src.thrower_order[:]

    def _do(self, action: Action) -> None:
        kind = action.kind
        if kind == "beat":
            self._beat(action.cards[0], action.cards[1])
        elif kind == "throw":
            self._throw(action.cards[0])
        elif kind == "done":
            self.declined.add(self.to_act)
            self._offer_throw()
        elif kind == "attack":
            self._attack(action.cards)
        elif kind == "take":
            self._take()
        elif kind == "swap":
            self._swap(action.cards[0])
        else:
            self._transfer(action.cards[0])

    def _parse(self, text: str) -> Action | None:
        table = self.game.actions
        found = table.parse(text)
        if found is not None:
            return found
        words = text.split()
        if not words:
            return None
        kind = words[0].lower()
        game = self.game
        try:
            if kind == "beat" and len(words) == 4 and words[2].lower() == "with":
                pair = (game.card(words[1]), game.card(words[3]))
                return Action("beat", text, cards=pair)  # compared by value, never kept
            if kind == "attack" and 2 <= len(words) <= 1 + game.model.deck.size:
                cards = tuple(sorted(game.card(w) for w in words[1:]))
                return Action("attack", text, cards=cards)
        except TrickcoreError:
            return None
        return None

    def _first_attacker(self, order: list[int]) -> int:
        """D4: the first player from the dealer's left for whom `first_attacker = EXPR`
        holds (over his hand as dealt); without a rule, or when it holds for nobody, the
        player left of the dealer."""
        rule = self.rules.first_attacker
        if rule is None:
            return order[0]
        lowest = -1  # the holder of the lowest trump dealt (`lowest_trump`)
        if self.trump >= 0:
            rank_of, suit_of = self.game.rank_of, self.game.suit_of
            holders = [
                (rank_of[c], s) for s in order for c in self.hands[s] if suit_of[c] == self.trump
            ]
            if holders:
                lowest = max(holders)[1]
        for seat in order:
            hand = self.hands[seat]
            env: dict[str, Any] = dict(self.context[seat])
            env.update(
                {
                    HAND_KEY: hand,
                    TRUMP_KEY: self.trump,
                    "lowest_trump": seat == lowest,
                    "hand_size": len(hand),
                    "dealer": seat == self.dealer,
                    "players": len(order),
                }
            )
            if rule(env):
                return seat
        return order[0]

    # ------------------------------------------------------------ helpers
    def _next_in_game(self, seat: int) -> int:
        for k in range(1, self.seats + 1):
            s = (seat + k) % self.seats
            if s in self.in_game:
                return s
        return seat

    def _swap_actions(self, seat: int) -> list[Action]:
        rank = self.settings.swap_rank
        if rank < 0 or not self.trump_card_in_stock:
            return []
        deck = self.game.model.deck
        card = deck.card_of(self.trump, rank)
        if card < 0:
            return []
        faces = deck.faces  # with copies: any copy he holds, unless the trump card is one
        face = faces[card]
        if faces[self.trump_card] == face:
            return []
        held = [c for c in self.hands[seat] if faces[c] == face]
        if not held:
            return []
        return [self.game.actions.bout("swap", (held[0],))]

    # ------------------------------------------------------------ legal actions
    def _compute_legal(self) -> list[Action]:
        return self._offer(self._offers)

    def _compute_ids(self) -> list[int]:
        return self._offer(self._numbers)

    def _offer(self, pieces: BoutOffers) -> list[Any]:
        """The legal actions of the seat to act, made of `pieces`: as Action objects, or as
        their numbers."""
        phase = self.phase
        if phase == OVER:
            return []
        seat = self.to_act
        hand = sorted(self.hands[seat])
        out: list[Any] = []
        if phase == DEFEND:
            beaters = pieces.beaters
            for pair in self.table:
                if pair[1] < 0:
                    a = pair[0]
                    can = beaters[a]
                    out += [can[c] for c in hand if c in can]
            if self.settings.transfer:
                out.extend(pieces.own(self._transfer_actions(hand)))
            out.append(pieces.take)
        elif phase == THROW:
            ranks = self.ranks_on_table
            rank_of = self.settings.rank_of
            throw = pieces.throw
            out += [throw[c] for c in hand if rank_of[c] in ranks]
            out.append(pieces.done)
        else:
            attack1 = pieces.attack
            out += [attack1[c] for c in hand]
            limit = self.limit
            if limit > 1 and self.settings.attack_same_rank:
                by_rank: dict[int, list[int]] = {}
                rank_of = self.settings.rank_of
                for c in hand:
                    by_rank.setdefault(rank_of[c], []).append(c)
                for cards in by_rank.values():
                    if len(cards) > 1:
                        out += pieces.rank_attacks(tuple(cards), limit)
        if self.trump_card_in_stock and self.settings.swap_rank >= 0:
            out.extend(pieces.own(self._swap_actions(seat)))
        return out

    def _transfer_actions(self, hand: list[int]) -> list[Action]:
        if not self.settings.transfer or any(pair[1] >= 0 for pair in self.table):
            return []
        rank_of = self.settings.rank_of
        ranks = {rank_of[pair[0]] for pair in self.table}
        if len(ranks) != 1:
            return []
        nxt = self._next_in_game(self.defender)
        if nxt == self.defender or len(self.table) + 1 > len(self.hands[nxt]):
            return []
        rank = ranks.pop()
        return [self.game.actions.bout("transfer", (c,)) for c in hand if rank_of[c] == rank]

    # ------------------------------------------------------------ moves
    def _bout_limit(self) -> int:
        """D7: the most attack cards this bout may hold (the variant's `limit`)."""
        env = {
            "defender_cards": len(self.hands[self.defender]),
            "bout_number": self.bouts + 1,
            "players": len(self.in_game),
            "stock": len(self.stock),
        }
        limit = int(self.rules.limit(env))
        if limit < 1:
            raise RulesError(
                f"the bout limit gives {limit} (defender holding {env['defender_cards']} cards, "
                f"bout {env['bout_number']}): a bout needs room for its attack card",
                self.rules.limit.loc,
            )
        return limit

    def _start_bout(self) -> None:
        self.limit = self._bout_limit()
        self.thrower_order = self._throwers()
        self.taking = False
        self.declined = set()
        self.phase = ATTACK
        self.to_act = self.attacker

    def _attack(self, cards: tuple[int, ...]) -> None:
        hand = self.hands[self.attacker]
        for c in cards:
            hand.remove(c)
            self.table.append([c, -1])
            self.ranks_on_table.add(self.settings.rank_of[c])
        if self.settings.any_time:  # D6: others may add before the defender answers
            self._reopen_throw_ins()
        else:
            self._defender_to_act()

    def _beat(self, attack: int, card: int) -> None:
        new_rank = self.settings.rank_of[card] not in self.ranks_on_table
        self.hands[self.defender].remove(card)
        for pair in self.table:
            if pair[0] == attack:
                pair[1] = card
                self.ranks_on_table.add(self.settings.rank_of[card])
                break
        if self.settings.any_time:
            if new_rank:
                self._reopen_throw_ins()  # a new rank on the table: everyone may add again
            else:
                self._offer_throw()
        elif all(pair[1] >= 0 for pair in self.table):
            self._reopen_throw_ins()  # the beats put new ranks on the table

    def _take(self) -> None:
        self.taking = True
        if self.settings.throw_after_take:
            self._reopen_throw_ins()
        else:
            self._end_bout()

    def _throw(self, card: int) -> None:
        self.hands[self.to_act].remove(card)
        self.table.append([card, -1])
        self.ranks_on_table.add(self.settings.rank_of[card])
        if self.settings.any_time or self.taking:
            self._offer_throw()  # the thrower is asked again first: he keeps his chance (D6)
        else:
            self._defender_to_act()

    def _swap(self, card: int) -> None:
        hand = self.hands[self.to_act]
        hand.remove(card)
        hand.append(self.trump_card)
        self.stock[0] = card
        self.trump_card = card

    def _transfer(self, card: int) -> None:
        self.hands[self.defender].remove(card)
        self.table.append([card, -1])
        self.ranks_on_table.add(self.settings.rank_of[card])
        self.defender = self._next_in_game(self.defender)
        self.limit = max(self._bout_limit(), len(self.table))
        self.thrower_order = self._throwers()
        if self.settings.any_time:
            self._reopen_throw_ins()
        else:
            self._defender_to_act()

    def _throwers(self) -> list[int]:
        """D6: from the attacker round the table, skipping the defender."""
        order = []
        s = self.attacker
        for _ in range(self.seats):
            if s in self.in_game and s != self.defender:
                order.append(s)
            s = (s + 1) % self.seats
        by = self.settings.throw_in_by
        if by == "attacker":
            return order[:1]
        if by == "neighbours":
            left_of_defender = self._next_in_game(self.defender)
            return [s for s in order if s in (self.attacker, left_of_defender)]
        return order

    def _reopen_throw_ins(self) -> None:
        """Something new is on the table: everyone who said `done` may add again."""
        self.declined = set()
        self._offer_throw()

    def _offer_throw(self) -> None:
        """D6: ask the first thrower in order who has not said `done` (and, with skip_unable,
        holds a card to add), while the bout has room; otherwise the defender answers or the
        bout ends."""
        if len(self.table) < self.limit:
            ranks = self.ranks_on_table
            settings = self.settings
            rank_of = settings.rank_of
            skip_unable = settings.skip_unable
            for s in self.thrower_order:
                if s in self.declined:
                    continue
                if skip_unable:  # does he hold a card of a rank on the table?
                    for c in self.hands[s]:
                        if rank_of[c] in ranks:
                            break
                    else:
                        continue
                self.phase = THROW
                self.to_act = s
                return
        if not self.taking and any(pair[1] < 0 for pair in self.table):
            self._defender_to_act()
        else:
            self._end_bout()

    def _defender_to_act(self) -> None:
        self.phase = DEFEND
        self.to_act = self.defender

    def _end_bout(self) -> None:
        cards = [c for pair in self.table for c in pair if c >= 0]
        settings = self.settings
        if self.taking:
            self.hands[self.defender].extend(cards)
            nxt = (
                self.defender
                if settings.after_take == "defender"
                else self._next_in_game(self.defender)
            )
        else:
            self.discarded.extend(cards)
            nxt = (
                self.defender
                if settings.after_defence == "defender"
                else self._next_in_game(self.defender)
            )
        self.table = []
        self.ranks_on_table = set()
        self.bouts += 1
        self._refill()
        if not self.stock:
            for s in list(self.in_game):
                if not self.hands[s]:
                    self.in_game.remove(s)
                    self.out.append(s)
        if len(self.in_game) <= 1 or self.bouts >= settings.max_bouts:
            self._finish()
            return
        if nxt not in self.in_game:
            nxt = self._next_in_game(nxt)
        self.attacker = nxt
        self.defender = self._next_in_game(nxt)
        self._start_bout()

    def _refill(self) -> None:
        """D10: up to the hand size, the attacker first, then round the table."""
        order = []
        s = self.attacker
        for _ in range(self.seats):
            if s in self.in_game:
                order.append(s)
            s = (s + 1) % self.seats
        if self.settings.defender_refills_last and self.defender in order:
            order.remove(self.defender)
            order.append(self.defender)
        stock = self.stock
        step = len(self.history)  # the action that ended the bout
        refill_to = self.settings.refill_to
        for s in order:
            hand = self.hands[s]
            got = []
            while len(hand) < refill_to and stock:
                card = stock.pop()
                if not stock:
                    self.trump_card_in_stock = False
                hand.append(card)
                got.append(card)
            if got:
                self.drawn[s].extend((step, c) for c in sorted(got))

    def _finish(self) -> None:
        if len(self.in_game) == 1:
            self.loser = self.in_game[0]
        else:
            self.draw = True  # D13: the last players ran out together (or the bout cap)
        self.phase = OVER
        self.to_act = -1
        self.gains = [0] * self.seats

    # ------------------------------------------------------------ results
    def final_env(self, seat: int) -> dict[str, Any]:
        """The quantities after_deal rules read for a seat."""
        return {
            "loser": seat == self.loser,
            "draw": self.draw,
            "cards_left": len(self.hands[seat]),
            "players": len(self.active),
        }

    def summary(self) -> dict[str, Any]:
        """The deal's result as plain data (kept in Match.deal_results)."""
        return {
            "dealer": self.dealer,
            "loser": self.loser,
            "draw": self.draw,
            "out": list(self.out),
            "bouts": self.bouts,
            "gains": [0] * self.seats,
        }

    # ------------------------------------------------------------ views
    def _hand_view(self, seat: int) -> tuple[str, ...]:
        ct = self.game.card_text
        return tuple(ct(c) for c in sorted(self.hands[seat])) if seat >= 0 else ()

    def private_view(self, seat: int) -> tuple[int, tuple[tuple[str, Any], ...]]:
        """What of `seat`'s view only it sees, as its observation has it, without making
        the whole observation: the length of the log and (("hand", its hand),)."""
        return len(self.history), (("hand", self._hand_view(seat)),)

    def _observe(self, seat: int) -> BoutObservation:
        """What `seat` may know now, and nothing more."""
        game = self.game
        ct = game.card_text
        deck = game.model.deck
        return BoutObservation(
            seat=seat,
            deal_number=self.context[0].get("deal_number", 1),
            phase=self.phase,
            to_act=self.to_act,
            dealer=self.dealer,
            players_in_deal=tuple(self.active),
            active=tuple(self.in_game),
            out=tuple(self.out),
            hand=self._hand_view(seat),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            trump=deck.suits[self.trump].name if self.trump >= 0 else None,
            trump_card=ct(self.trump_card) if self.trump_card >= 0 else None,
            trump_card_in_stock=self.trump_card_in_stock,
            attacker=self.attacker,
            defender=self.defender,
            table=tuple((ct(a), ct(b) if b >= 0 else None) for a, b in self.table),
            taking=self.taking,
            discarded=tuple(ct(c) for c in self.discarded),
            bouts=self.bouts,
            loser=self.loser,
            draw=self.draw,
            log=self._grown("log", self.history, lambda step: (step[0], step[1].text)),
            turned_up=ct(self.turned_up) if self.turned_up >= 0 else None,
            drawn=tuple((k, ct(c)) for k, c in self.drawn[seat]) if seat >= 0 else (),
        )


class BoutOffers:
    """What the legal actions of a bout deal are made of, for one trump suit: the one-card
    attacks and throws by card, the beats of each card, `take` and `done`, as Action objects
    or as their numbers (`legal_ids`: no Action object is read). Made once per game."""

    __slots__ = ("_rank_attacks", "attack", "beaters", "done", "game", "numbers", "take", "throw")

    def __init__(self, game: GameTables, trump: int, numbers: bool) -> None:
        self.game = game
        self.numbers = numbers
        self._rank_attacks: dict[tuple[tuple[int, ...], int], list[Any]] = {}
        attack = game.single_card_actions("attack")
        throw = game.single_card_actions("throw")
        beaters = game.beaters(trump)
        table = game.actions
        if numbers:
            self.attack: list[Any] = [a.id for a in attack]
            self.throw: list[Any] = [a.id for a in throw]
            self.beaters: list[dict[int, Any]] = [
                {c: a.id for c, a in row.items()} for row in beaters
            ]
            self.take: Any = table.take.id
            self.done: Any = table.done.id
        else:
            self.attack, self.throw, self.beaters = attack, throw, beaters
            self.take, self.done = table.take, table.done

    def rank_attacks(self, cards: tuple[int, ...], limit: int) -> list[Any]:
        """The attacks with two or more of `cards` (cards of one rank, in order) and at most
        `limit` cards: pairs first, then threes, ... (D5; made once per group and kept)."""
        key = (cards, limit)
        found = self._rank_attacks.get(key)
        if found is None:
            bout = self.game.actions.bout
            attacks = [
                bout("attack", combo)
                for k in range(2, min(len(cards), limit) + 1)
                for combo in combinations(cards, k)
            ]
            found = self._rank_attacks[key] = self.own(attacks)
        return found

    def own(self, actions: list[Action]) -> list[Any]:
        """Actions as these pieces give them (themselves, or their numbers)."""
        return [a.id for a in actions] if self.numbers else actions


def bout_offers(game: GameTables, trump: int, numbers: bool) -> BoutOffers:
    """What a bout deal's legal actions are made of under `trump`, as actions or as numbers
    (made once per game and kept on its tables)."""
    key = (trump, numbers)
    found = game._bout_offers.get(key)
    if found is None:
        found = game._bout_offers[key] = BoutOffers(game, trump, numbers)
    return cast("BoutOffers", found)
