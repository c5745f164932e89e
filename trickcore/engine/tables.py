"""A compiled variant's tables: what the states of its deals read (cards, actions, card
relations, dealing, the decisions at each point), made once from the model. It knows no
state: the factory above it (`game.Game`) makes deals and matches."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from ..language.errors import TrickcoreError
from ..language.exprs import (
    HAND_KEY,
    QUALIFIER_KEY,
    SEAT_KEY,
    SEATS_KEY,
    SIDE_KEY,
    TABLE_KEY,
    TAKEN_KEY,
    TRUMP_KEY,
)
from ..language.hands import HandQuantities, meld_cards, start_context
from ..language.limits import MAX_VALUE, in_range, shown
from ..language.model import Decision, VariantModel
from ..language.vocabulary import RESULT_NAMES
from .actions import Action, ActionTable
from .bout_settings import BoutSettings
from .card_relations import CardRelations
from .card_texts import CardTexts
from .deal_layout import DealLayout
from .turn_reads import TurnReads


class GameTables(CardTexts, CardRelations, DealLayout):
    """A variant's tables (see the module docstring); `Game` adds the factories."""

    def __init__(self, model: VariantModel) -> None:
        self.model = model
        deck = model.deck
        self.suit_of = list(deck.suit_of_card)
        self.rank_of = list(deck.rank_of_card)
        # `deck { copies: N }`: cards of one face are one card to the players (one text, one
        # action); the legal actions name each face once
        self.copies = not deck.plain and deck.copies > 1
        self.first_copy = deck.first_copy  # a meld's cards are first copies
        self.points_of = deck.card_points  # a tuple: a caller cannot change it
        # the points of the combinations among a trick's cards (`trick_combination_points`)
        self.trick_combination_points = self.trick_combinations()
        # with `card_points` reading the trump, the call or the choices: worked out for each
        # (trump, call, choices) a deal meets and kept (`points_with`)
        self.points_vary = deck.points_vary
        self._points: dict[tuple[int, str, tuple[str, ...]], tuple[int, ...]] = {}
        self.card_texts = [deck.card_text(c) for c in range(deck.size)]
        self.deal_keep_names = [name for name, _, _ in model.deal.keep]  # in the file's order
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
            for c in cards:  # (with copies: by every copy of each of its cards)
                for copy in deck.cards_of_face[deck.faces[c]]:
                    self.meld_of_card.setdefault(copy, []).append((mi, suit, value, cards))
        self.meld_index = {m.name: i for i, m in enumerate(model.melds)}
        tricks = model.tricks
        bidding = tricks.bidding if tricks else None
        # every call's qualifier ("" first), or with strains each strain's ("clubs alone")
        self.qualifiers: tuple[str, ...] = model.call_qualifiers
        strains = bidding is not None and bool(bidding.strains)
        quals = self.qualifiers if strains else self.qualifiers[1:]  # the calls' actions
        self.levelless = bidding is not None and bidding.levelless
        self._strain_suit: dict[str, int] = {"": -1}
        if bidding is not None and bidding.strains:  # a call names a strain: "clubs alone"
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
        # the flow's phases and the decisions asked between them, as a phase: made by the
        # factory above (`Game`), which knows the phases
        self.asking: Any = None  # an `flow.Asking`
        self.flow: list[Any] = []  # `flow.Phase` objects
        # the decisions offered at a turn ("lead", "play", or right after an announcement)
        # and what they read
        self.decisions_at: dict[str, tuple[list[Decision], TurnReads]] = {}
        for at in ("lead", "play", "announced", "card"):
            asked = [
                d
                for d in (tricks.decisions if tricks else ())
                if (d.after_announce if at == "announced" else at in d.at)
            ]
            self.decisions_at[at] = (
                asked,
                TurnReads(
                    frozenset().union(*(d.reads for d in asked)),
                    frozenset().union(*(d.aggregated for d in asked)),
                ),
            )
        # the decisions `at: card`, each as its action and its offer_if; what each decision
        # reads (by the names and functions it uses, and those its aggregates read)
        decide = self.actions.decide
        self.card_offers = [(decide[d.name], d.offer_if.fn) for d in self.decisions_at["card"][0]]
        # of those asked at a turn, the ones a `forced_if` may make him take first
        self.forced_at: dict[str, list[Decision]] = {
            at: [d for d in asked if d.forced_if is not None]
            for at, (asked, _) in self.decisions_at.items()
        }
        self.decision_reads = {
            (d.reads, d.aggregated): TurnReads(d.reads, d.aggregated)
            for d in (tricks.decisions if tricks else ())
        }
        # what the decisions asked between phases read, together
        between = [
            d
            for d in (tricks.decisions if tricks else ())
            if any(p not in ("lead", "play", "card") for p in d.at)
        ]
        self.ask_reads = TurnReads(
            frozenset().union(*(d.reads for d in between)),
            frozenset().union(*(d.aggregated for d in between)),
        )
        self.ask_points = {
            point
            for d in (tricks.decisions if tricks else ())
            for point in d.at
            if point not in ("lead", "play", "card")
        }
        self.trump_suit_id = len(deck.suits)  # the effective suit of every trump
        # by position in the flow: the decisions point before that phase, if any is asked there
        self.ask_before: list[str | None] = [
            point if (point := f"before {kind}") in self.ask_points else None
            for kind in (model.tricks.flow if model.tricks else ())
        ]
        self._beaters: dict[int, list[dict[int, Action]]] = {}
        self._relations: dict[
            tuple[int, str, tuple[str, ...]], tuple[tuple[int, ...], tuple[int, ...]]
        ] = {}
        self.options = [o for d in (tricks.decisions if tricks else ()) for o in d.options]
        self._trump_orders: dict[tuple[int, str, tuple[str, ...]], tuple[int, ...]] = {}
        self._setters: dict[tuple[int, str, tuple[str, ...]], tuple[bool, ...]] = {}
        self._singles: dict[str, list[Action]] = {}
        self._in_combination: dict[tuple[tuple[int, ...], int], frozenset[int]] = {}
        self._bout_offers: dict[tuple[int, bool], Any] = {}  # kept by `bouts.bout_offers`
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

    def held_as_first_copies(self, cards: Iterable[int]) -> set[int]:
        """`cards` as a set of first copies: with copies, holding any copy of a card is
        holding it (a meld of first copies is held in full when the set contains it)."""
        if not self.copies:
            return set(cards)
        first = self.first_copy
        return {first[c] for c in cards}

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
