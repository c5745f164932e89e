"""A compiled variant: precomputed tables and the factory of deals and matches."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from ..language.errors import RulesError, TrickcoreError
from ..language.exprs import (
    HAND_KEY,
    QUALIFIER_KEY,
    SEAT_KEY,
    SEATS_KEY,
    SIDE_KEY,
    TABLE_KEY,
    TAKEN_KEY,
    TRUMP_KEY,
    relation_env,
)
from ..language.hands import HandQuantities, meld_cards, start_context
from ..language.limits import MAX_VALUE, check_seat, in_range, shown
from ..language.model import OUT, STOCK, TALON, TURNUP, Decision, VariantModel
from ..language.vocabulary import RESULT_NAMES
from .actions import Action, ActionTable
from .bouts import BoutDeal, BoutOffers, BoutSettings
from .deal import Deal
from .match import Match
from .phases import PHASE_KINDS, Phase
from .phases.pair_auction import PairAuction
from .phases.turns import AskDecisions, TurnReads
from .shuffling import seeded_order


class Game:
    """A variant ready to play (the user-facing name is Variant).

    Make one with ``trickcore.load_variant(name_or_path)``; it makes deals and matches.
    """

    def __init__(self, model: VariantModel) -> None:
        self.model = model
        deck = model.deck
        self.suit_of = list(deck.suit_of_card)
        self.rank_of = list(deck.rank_of_card)
        # `deck { copies: N }`: cards of one face are one card to the players (one text, one
        # action); the legal actions name each face once
        self.copies = not deck.plain and deck.copies > 1
        self.points_of = list(deck.card_points)
        # with `card_points` reading the trump: each card's points with each trump (-1 first)
        self.points_by_trump = (
            [list(deck.points_with(t)) for t in range(-1, len(deck.suits))]
            if deck.by_trump
            else None
        )
        self.card_texts = [deck.card_text(c) for c in range(deck.size)]
        self._card_by_text: dict[str, int] = {}  # a text -> its (first) card
        for c, t in enumerate(self.card_texts):
            self._card_by_text.setdefault(t, c)
        # melds declared by leading one of their cards (`marry CARD`), by card ...
        self.meld_of_card: dict[int, list[tuple[int, int, int, tuple[int, ...]]]] = {}
        # ... and melds announced on their own (`announce NAME SUIT`)
        self.announced_melds: list[tuple[int, int, tuple[int, ...]]] = []
        for mi, suit, value, cards in meld_cards(model):
            if model.melds[mi].announce:
                self.announced_melds.append((mi, suit, cards))
                continue
            for c in cards:
                self.meld_of_card.setdefault(c, []).append((mi, suit, value, cards))
        self.meld_index = {m.name: i for i, m in enumerate(model.melds)}
        tricks = model.tricks
        bidding = tricks.bidding if tricks else None
        quals = bidding.qualifiers if bidding else ()
        if tricks and tricks.bids and tricks.bids.blind:
            quals = (*quals, "blind")
        self.qualifiers: tuple[str, ...] = ("", *quals)
        self.levelless = bidding is not None and bidding.levelless
        self._strain_suit: dict[str, int] = {"": -1}
        if bidding is not None and bidding.strains:  # a call names a strain: "clubs alone"
            quals = tuple(
                f"{st} {q}".strip() for st in bidding.strains for q in ("", *bidding.qualifiers)
            )
            self.qualifiers = quals
            for st, suit in zip(bidding.strains, bidding.strain_suits, strict=True):
                for q in ("", *bidding.qualifiers):
                    self._strain_suit[f"{st} {q}".strip()] = suit
        self.actions = ActionTable(
            self.card_texts,
            max(model.players),
            quals,
            tuple(d.name for d in tricks.decisions if not d.options) if tricks else (),
            tuple(
                (mi, model.melds[mi].name, suit, deck.suits[suit].symbol if suit >= 0 else "")
                for mi, suit, _ in self.announced_melds
            ),
            tuple(o for d in (tricks.decisions if tricks else ()) for o in d.options),
            levelless=self.levelless,
            doubles=bidding is not None and bidding.double,
            joins=bidding is not None and bidding.join,
            n_ranks=len(deck.ranks),
            bid_slot=self.bid_slot,
            faces=() if deck.plain else deck.faces,
            n_faces=len(deck.suits) * len(deck.ranks),
        )
        # number -> action, for the numbers a phase offers (None where no action was made)
        self.action_by_number = cast("list[Action]", self.actions.by_number)
        self.hand_quantities = HandQuantities(model)
        self._start_context = start_context(model)
        self.side_of = {n: model.side_of(n) for n in model.players}  # seats -> side of each
        # seats -> for each seat, the seats of his side (himself included), in seat order
        self.side_members = {
            n: [[t for t in range(n) if sides[t] == sides[s]] for s in range(n)]
            for n, sides in self.side_of.items()
        }
        self.asking = AskDecisions(self)  # decisions between phases, as a phase
        # the decisions offered at a turn ("lead", "play", or right after an announcement)
        # and what they read
        self.decisions_at: dict[str, tuple[list[Decision], TurnReads]] = {}
        for at in ("lead", "play", "announced", "card"):
            asked = [
                d
                for d in (tricks.decisions if tricks else ())
                if (d.after_announce if at == "announced" else at in d.at)
            ]
            self.decisions_at[at] = (asked, TurnReads(frozenset().union(*(d.reads for d in asked))))
        self.ask_points = {
            point
            for d in (tricks.decisions if tricks else ())
            for point in d.at
            if point not in ("lead", "play", "card")
        }
        self.trump_suit_id = len(deck.suits)  # the effective suit of every trump
        self.flow: list[Phase] = (
            [self._phase_of(kind) for kind in model.tricks.flow] if model.tricks else []
        )
        # by position in the flow: the decisions point before that phase, if any is asked there
        self.ask_before: list[str | None] = [
            point if (point := f"before {kind}") in self.ask_points else None
            for kind in (model.tricks.flow if model.tricks else ())
        ]
        self._beaters: dict[int, list[dict[int, Action]]] = {}
        self._relations: dict[tuple[int, str, tuple[str, ...]], tuple[list[int], list[int]]] = {}
        self.options = [o for d in (tricks.decisions if tricks else ()) for o in d.options]
        self._trump_orders: dict[tuple[int, str, tuple[str, ...]], list[int]] = {}
        self._singles: dict[str, list[Action]] = {}
        self._bout_offers: dict[tuple[int, bool], BoutOffers] = {}
        # what a bout deal reads of its rules at every step (a game of bouts only)
        self.bout_settings: BoutSettings | None = (
            BoutSettings(model.bouts, self.rank_of) if model.bouts is not None else None
        )
        self._first_contexts: dict[int, list[dict[str, Any]]] = {}  # seats -> as a match begins
        self._deal_orders: dict[tuple[int, int], list[int]] = {}  # (dealer, seats) -> who plays
        self._groups: dict[tuple[tuple[int, ...], int], list[tuple[int, list[int]]]] = {}
        self.turnup_held = model.deal.turnup_held  # `1 turnup to dealer`
        self._shown: dict[tuple[tuple[int, ...], int], int] = {}  # (order, size) -> position
        # the names `play { trump = EXPR }` reads besides the public ones: suit -> number
        self.suit_numbers = {su.name: i for i, su in enumerate(deck.suits)}
        self.result_base: dict[str, Any] = {
            "deck_points": deck.total_points,
            "all_melds": self.hand_quantities.all_melds,
        }

    def _phase_of(self, kind: str) -> Phase:
        """The phase that runs a kind of the flow (the auction in its style)."""
        tricks = self.model.tricks
        if kind == "auction" and tricks and tricks.bidding and tricks.bidding.style == "pairs":
            return PairAuction(self)
        return PHASE_KINDS[kind](self)

    # ------------------------------------------------------------ identity
    @property
    def name(self) -> str:
        """The variant's name (its file name without the suffix)."""
        return self.model.name

    @property
    def title(self) -> str:
        """The variant's display name."""
        return self.model.title

    @property
    def content_hash(self) -> str:
        """A hash of the rules text the variant was built from (saved games check it)."""
        return self.model.content_hash

    def __repr__(self) -> str:
        return f"<Variant {self.name} ({self.title})>"

    def single_card_actions(self, kind: str) -> list[Action]:
        """The bout actions of one kind with one card, indexed by card (made once)."""
        found = self._singles.get(kind)
        if found is None:
            found = [self.actions.bout(kind, (c,)) for c in range(self.model.deck.size)]
            self._singles[kind] = found
        return found

    def relations(
        self, trump: int, qualifier: str = "", chosen: tuple[str, ...] = ()
    ) -> tuple[list[int], list[int]]:
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

    def trump_order(self, trump: int, qualifier: str, chosen: tuple[str, ...]) -> list[int]:
        """The trumps under these relations, highest first (kept)."""
        key = (trump, qualifier, chosen)
        found = self._trump_orders.get(key)
        if found is None:
            eff, power = self.relations(trump, qualifier, chosen)
            found = sorted(
                (c for c in range(len(eff)) if eff[c] == self.trump_suit_id),
                key=lambda c: -power[c],
            )
            self._trump_orders[key] = found
        return found

    def _work_out_relations(
        self, trump: int, qualifier: str, chosen: tuple[str, ...]
    ) -> tuple[list[int], list[int]]:
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
        return eff, power

    def bout_offers(self, trump: int, numbers: bool) -> BoutOffers:
        """What a bout deal's legal actions are made of under `trump`, as actions or as
        numbers (made once and kept)."""
        key = (trump, numbers)
        found = self._bout_offers.get(key)
        if found is None:
            found = self._bout_offers[key] = BoutOffers(self, trump, numbers)
        return found

    def beaters(self, trump: int) -> list[dict[int, Action]]:
        """For each card, the cards that beat it under `trump` (D8), with their beat actions.

        A card is beaten by a higher card of its suit, or by any trump when it is not a
        trump. Made once per trump suit and kept.
        """
        table = self._beaters.get(trump)
        if table is None:
            suit_of, rank_of = self.suit_of, self.rank_of
            table = []
            for a in range(len(suit_of)):
                row = {}
                for c in range(len(suit_of)):
                    same = suit_of[c] == suit_of[a] and rank_of[c] < rank_of[a]
                    trumps = suit_of[c] == trump and suit_of[a] != trump
                    if same or trumps:
                        row[c] = self.actions.bout("beat", (a, c))
                table.append(row)
            self._beaters[trump] = table
        return table

    # ------------------------------------------------------------ cards
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
        order = [self._card_of(t, size) for t in texts[: size + 1]]
        if self.copies:  # a text names each copy of its face in turn
            order = self._copies_in_turn(order)
        if sorted(order) != list(range(size)):
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

    def hand_env(
        self,
        hand: list[int],
        contract: int,
        players: int,
        context: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The environment of a hand rule (bid cap, redeal condition) for this hand, with
        what its holder knows of the match (`context`; as a match begins when not given)."""
        return self.hand_quantities.env(
            hand, contract, players, context if context is not None else self._start_context
        )

    @property
    def num_actions(self) -> int:
        """The size of the variant's action space: every action id is below it."""
        return self.actions.size

    def action_of(self, action_id: int) -> Action:
        """The action with this number (as `legal_ids()` gives them)."""
        numbered = self.action_by_number
        found = (
            numbered[action_id]
            if type(action_id) is int and 0 <= action_id < len(numbered)
            else None
        )
        if found is None:
            raise TrickcoreError(
                f"{shown(action_id)} is not the number of an action of {self.name} that has "
                "been offered"
            )
        return found

    def action_text(self, action_id: int) -> str:
        """The canonical text of the action with this number."""
        return self.action_of(action_id).text

    def bid_slot(self, kind: str, value: int) -> int:
        """The place of a bid or raise value among the values there can be: its index in
        `values:`, else its steps above the lowest opening (number bids: above `min`)."""
        tricks = self.model.tricks
        bidding = tricks.bidding if tricks else None
        if kind == "bid" and bidding is not None and bidding.values:
            return bidding.values.index(value) if value in bidding.values else -1
        if kind == "bid" and tricks is not None and tricks.bids is not None:
            return value - tricks.bids.min + (2048 if bidding is not None else 0)
        if bidding is None:
            return value
        base = bidding.opening if bidding.opening_expr is None else 0
        step = bidding.step
        if kind == "raise" and tricks is not None and tricks.contract is not None:
            step = tricks.contract.step
        return (value - base) // step if (value - base) % step == 0 else -1

    def strain_suit(self, call: str) -> int:
        """The trump suit a call's strain sets (-1: none)."""
        return self._strain_suit.get(call, -1)

    def points_with(self, trump: int) -> list[int]:
        """Each card's points while `trump` (a suit index, -1: none) is trump: the same for
        every trump unless `card_points` reads it."""
        by_trump = self.points_by_trump
        return self.points_of if by_trump is None else by_trump[trump + 1]

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
        _check_deal_number(deal_number)
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

    def deal_score(self, declarer: bool, qualifier: str = "", **quantities: int) -> int:
        """What the scoring rules give one player for a deal result (for bots and tests).

        Quantities not given default to: card_points, meld_points, melds_declared and
        contract 0, tricks_won 1, tricks_total the deck shared among the hands, players
        the hands in a deal; the match state (deal_number, score, target, kept names) as
        the match begins.
        """

        known = [*RESULT_NAMES, *self._start_context]
        unknown = set(quantities) - set(known)
        if unknown:
            raise TrickcoreError(
                f"unknown quantity {', '.join(sorted(unknown))}; known: {', '.join(known)}"
            )
        if type(declarer) is not bool:
            raise TrickcoreError(f"declarer is yes or no (True or False), not {shown(declarer)}")
        if not isinstance(qualifier, str) or qualifier not in ("", *self.qualifiers):
            raise TrickcoreError(f"unknown bid qualifier {shown(qualifier)}")
        for name, value in quantities.items():
            if isinstance(self._start_context.get(name), bool):
                ok = isinstance(value, bool)
            else:
                ok = isinstance(value, int) and not isinstance(value, bool)
                ok = ok and -MAX_VALUE <= value <= MAX_VALUE
            if not ok:
                raise TrickcoreError(f"quantity {name} has the wrong type: {shown(value)}")
        model = self.model
        if model.tricks is None:
            raise TrickcoreError(f"{self.name} has no deal scoring (it is a game of bouts)")
        scoring = model.tricks.scoring
        env: dict[str, Any] = {
            name: (False if kind == "bool" else 0) for name, kind in RESULT_NAMES.items()
        }
        env.update(self.result_base)
        env.update(self._start_context)
        env.update((name, init) for name, _, init in model.deal.keep)
        env.update(dict.fromkeys(self.options, False))
        env.update(
            seats=model.players[0],
            declarer_side=declarer,
            card_points=0,
            meld_points=0,
            melds_declared=0,
            contract=0,
            tricks_won=1,
            tricks_total=model.deck.size // (model.deal.hands or model.players[0]),
            players=model.deal.hands or model.players[0],
        )
        env.update(quantities)
        env["declarer"] = declarer
        env[QUALIFIER_KEY] = qualifier
        env.setdefault(TAKEN_KEY, [])
        env.setdefault(HAND_KEY, [])
        env.setdefault(TRUMP_KEY, -1)
        env[TABLE_KEY] = env[SIDE_KEY] = [env]  # the aggregates see this player alone
        env[SEATS_KEY] = [env]  # and seat_left(k, x) sees him in every seat
        env[SEAT_KEY] = 0
        for name, fn in scoring.definitions:
            env[name] = value = fn(env)
            in_range(value, f"scoring definition '{name}'", None)
        rule = scoring.declarer if declarer else scoring.defender
        return int(rule(env))

    # ------------------------------------------------------------ factories
    def check_seats(self, players: int | None) -> int:
        """The number of seated players, defaulting to the variant's first allowed count."""
        allowed = self.model.players
        if players is None:
            return allowed[0]
        if type(players) is not int or players not in allowed:
            raise TrickcoreError(
                f"{self.name} is played by {', '.join(map(str, allowed))} players, "
                f"not {shown(players)}"
            )
        return players

    def new_deal(
        self,
        deck_order: Sequence[str | int] | None = None,
        dealer: int = 0,
        players: int | None = None,
        seed: int | None = None,
        deal_number: int = 1,
    ) -> Deal | BoutDeal:
        """A single deal from a deck order (top card first, C2) or a seed, for tests/replays;
        `deal_number` is the deal's number in a match (for rules that read it)."""
        seats = self.check_seats(players)
        check_seat(dealer, seats, "the dealer")
        _check_seed(seed)
        _check_deal_number(deal_number)
        if deck_order is None:
            order = seeded_order(self.model.deck.size, seed)
        else:
            order = self.deck_from_texts(deck_order)
        context = self.match_context(seats, deal_number) if deal_number != 1 else None
        return self.make_deal(order, dealer, seats, context)

    def make_deal(
        self,
        order: list[int],
        dealer: int,
        seats: int,
        context: list[dict[str, Any]] | None = None,
    ) -> Deal | BoutDeal:
        """The deal state this variant's kind of game uses (trick-taking or bouts)."""
        if self.model.bouts is not None:
            return BoutDeal(self, order, dealer, seats, context)
        return Deal(self, order, dealer, seats, context)

    def new_match(
        self,
        seed: int | None = None,
        deck_orders: Sequence[Sequence[str | int]] | None = None,
        players: int | None = None,
        scores: Sequence[int] | None = None,
        kept: Sequence[dict[str, Any]] | None = None,
        dealer: int = 0,
        secret: bool = False,
    ) -> Match:
        """A match from a seed (shuffles reproducibly) or from given deck orders (C2).

        Deck orders are used first, one per deal; later deals are shuffled from `seed`
        (0 when none is given). `scores`, `kept` and `dealer` start the match from a given
        scoreboard instead of zero (for study, tests and resuming a paper score sheet).
        With `secret`, deals are shuffled from the operating system's cryptographically
        strong source (`random.SystemRandom`: `os.urandom`) instead of a seed: nothing a player sees
        predicts a later deal (a table among strangers); the match records each deck order
        as it deals it, so that it saves and reloads like any other.
        """
        _check_seed(seed)
        if type(secret) is not bool:
            raise TrickcoreError(f"secret is yes or no (True or False), not {shown(secret)}")
        if deck_orders is not None and (
            isinstance(deck_orders, (str, bytes)) or not isinstance(deck_orders, Sequence)
        ):
            raise TrickcoreError("deck_orders is a list of deck orders, one per deal")
        return Match(
            self,
            seed=seed,
            deck_orders=deck_orders,
            players=players,
            scores=scores,
            kept=kept,
            dealer=dealer,
            secret=secret,
        )

    def sample_worlds(
        self,
        observation: Any,
        n: int,
        rng: random.Random | int | None = None,
        deal_number: int | None = None,
    ) -> list[Deal | BoutDeal]:
        """`n` complete deals (to clone, play on and score) that agree with everything the
        observation's seat has seen: its cards, the cards played, shown or given, melds
        declared and every void the play obligations prove. Drawn uniformly among such deals
        (the method: `trickcore.engine.worlds`); `rng` is a random.Random or a seed;
        `deal_number` the deal's number in its match (by default the observation's)."""
        from .worlds import sample_worlds

        return sample_worlds(self, observation, n, rng, deal_number)


def _check_deal_number(number: object) -> None:
    if type(number) is not int or not 1 <= number <= 1_000_000:
        raise TrickcoreError(f"a deal number is a whole number from 1, not {shown(number)}")


def _check_seed(seed: object) -> None:
    # (random.Random(-n) deals as random.Random(n): a negative seed would be a second name
    # for another seed's deals, so seeds are 0 or above)
    if seed is not None and (type(seed) is not int or not 0 <= seed < MAX_SEED):
        raise TrickcoreError(
            f"a seed is a whole number from 0 to {MAX_SEED - 1:,} (at most 12 digits), "
            f"not {shown(seed)}"
        )


MAX_SEED = 10**12
