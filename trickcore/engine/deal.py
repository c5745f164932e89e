"""The state of one deal of a trick-taking game, driven through its declared flow of phases
(`deal { flow: ... }`: redeal offer, auction, talon, contract raise, tricks), then scored."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..language.errors import RulesError
from ..language.exprs import (
    HAND_KEY,
    QUALIFIER_KEY,
    SEAT_KEY,
    SEATS_KEY,
    SIDE_KEY,
    TABLE_KEY,
    TAKEN_KEY,
    TRICKS_KEY,
    TRUMP_KEY,
    CompiledExpr,
)
from ..language.limits import MAX_VALUE, in_range
from ..language.model import NO_TRUMP, STOCK, TALON, TURNUP
from .actions import Action
from .combinations import combination_names
from .observation import Declaration, Observation
from .phases.turns import ask_decisions
from .records import TrickView
from .state import OVER, DealState
from .trick_names import tricks_envs

if TYPE_CHECKING:
    from .game import Game
    from .phases import Phase


class _Later:
    """A list worked out the first time it is read (the aggregates' view of the table)."""

    __slots__ = ("_make", "_items")

    def __init__(self, make: Callable[[], list[dict[str, Any]]]) -> None:
        self._make: Callable[[], list[dict[str, Any]]] | None = make
        self._items: list[dict[str, Any]] = []

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._make is not None:
            self._items = self._make()
            self._make = None
        return iter(self._items)


class Deal(DealState):
    """One deal, from the cards dealt to the deal scores. Made by Game.new_deal."""

    __slots__ = (
        "_asked",
        "_flow",
        "_owner",
        "_step",
        "announced",
        "answering",
        "ask_queue",
        "bid_blind",
        "bid_round",
        "bids",
        "calls_made",
        "card_points",
        "cards_played",
        "challengers",
        "chosen",
        "contract",
        "declarations",
        "doubled",
        "ended_early",
        "exchange_by",
        "exchange_left",
        "exchanged",
        "first_leader",
        "gives_left",
        "high",
        "high_bidder",
        "in_auction",
        "laid_away",
        "lay_away_by",
        "lay_away_left",
        "leader",
        "leads",
        "listener",
        "looked",
        "next_player",
        "out",
        "pass_to",
        "passed",
        "passes_in_row",
        "picked_card",
        "picked_up",
        "played",
        "playing",
        "qualifier",
        "received",
        "redeal_queue",
        "rel",
        "rel_trump",
        "results",
        "rules",
        "set_aside",
        "side_members",
        "side_of",
        "size",
        "skipped",
        "start_hands",
        "stock",
        "stock_closed",
        "strain_bids",
        "talon",
        "talon_shown",
        "talon_taken",
        "trick",
        "tricks",
        "window_offers",
        "window_quiet",
        "window_seat",
        "tricks_bid",
        "tricks_total",
        "tricks_won",
        "turn",
        "turnup",
    )

    def __init__(
        self,
        game: Game,
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
        assert model.tricks is not None, "a trick deal needs a trick-taking variant"
        self.rules = model.tricks
        super().__init__(game, deck_order, dealer, seats, context)
        order = self.active
        self.talon: list[int] = []
        self.stock: list[int] = []  # face down, top first; the turned-up card lies under it
        self.turnup = -1
        self.out: list[int] = []  # cards that take no part in the deal (`rest out`)
        self.size = game.deal_size(self.context[order[0]], len(order))
        deck = self.deck_order
        for place, positions in game.deal_groups(order, self.context[order[0]], self.size):
            cards = [deck[i] for i in positions]
            if place >= 0:
                self.hands[place] = cards
            elif place == TALON:
                self.talon = cards
            elif place == STOCK:
                self.stock = cards
            elif place == TURNUP:
                self.turnup = cards[0]
            else:
                self.out = cards
        self.turned_up = self.turnup  # as dealt: public all deal (Observation.turned_up)
        if game.turnup_held:  # `1 turnup to dealer`: face up, in the dealer's hand
            shown = game.shown_position(order, self.size)
            if shown >= 0:
                self.turned_up = deck[shown]
        play = self.rules.play  # a trump known as the cards are dealt is in force (and shown)
        if play.trump >= 0:
            self.trump = play.trump
        elif play.trump_turnup and self.turned_up >= 0:
            self.trump = game.suit_of[self.turned_up]
        elif play.trump_rule is not None:
            self.trump = self.ruled_trump(play.trump_rule)
        if self.trump >= 0 and play.trump_if is not None and not play.trump_if(self.trump_if_env()):
            self.trump = -1
        self.stock_closed = False
        self.ended_early = False  # ended before the hands were empty (a decision, stop_if)
        self.announced: tuple[int, int] | None = None  # (meld, suit) announced, to be led
        self.ask_queue: list[tuple[int, str]] = []  # (seat, decision) asked between phases
        self.chosen: tuple[str, ...] = ()  # the options of choices made so far
        self.rel: tuple[list[int], list[int]] | None = None  # relations() while trump stays
        self.rel_trump = -1
        if model.deal.keep or game.options:  # values set during the deal: its own copies
            self.context = [dict(c) for c in self.context]
            for seat in range(seats):  # a seat sitting out has them too (for his results)
                self.context[seat].update((name, init) for name, _, init in model.deal.keep)
                self.context[seat].update(dict.fromkeys(game.options, False))
        self.bids: list[tuple[int, Action]] = []
        self.high: tuple[int, int] | None = None
        self.high_bidder = -1
        self.in_auction = list(order)
        self.listener = -1  # an auction in pairs: who is bid to, who bids, is he answering
        self.challengers: list[int] = []
        self.answering = False
        self.passes_in_row = 0
        self.contract = 0
        self.qualifier = ""
        # each seat's side, and the seats of each seat's side: the file's `sides:` until
        # `play.side_if` forms the deal's own as trick play begins (replaced, never changed)
        self.side_of: list[int] = game.side_of[seats]
        self.side_members: list[list[int]] = game.side_members[seats]
        self.talon_shown: tuple[int, ...] | None = None
        self.gives_left: dict[int, int] = {}
        self.lay_away_left = 0
        self.laid_away: list[int] = []  # the cards the declarer laid away (face down)
        self.lay_away_by = -1  # who laid them away (the declarer, or who picked up)
        self.picked_up = -1  # who took the turned-up card into his hand (`pickup`)
        self.picked_card = -1  # the card he took
        self.exchange_by = -1  # `exchange_out N`: who exchanges with the cards left out
        self.exchange_left = 0  # the cards he has still to lay away
        self.exchanged: list[int] = []  # those he laid away so far
        self.received: dict[int, list[int]] = {s: [] for s in order}
        self.talon_taken: dict[int, list[int]] = {s: [] for s in order}
        self.trick: list[tuple[int, int]] = []
        # before each card, with `at: card` decisions: whom the round of offers is at (-1:
        # no round open) and how many players in a row passed or were passed over
        self.window_seat = -1
        self.window_quiet = 0
        # what each player is offered in the round now (worked out once until a decision)
        self.window_offers: tuple[tuple[Action, ...], ...] | None = None
        self.leader = -1
        self.tricks: list[TrickView] = []
        self.tricks_won = [0] * seats
        self.card_points = [0] * seats
        self.leads = [0] * seats
        self.declarations: list[Declaration] = []
        self.results: list[dict[str, Any]] = []
        self.tricks_total = 0
        self.redeal_queue: list[int] = []
        self.pass_to = 0
        self.set_aside: dict[int, list[int]] = {}
        self.passed: dict[int, tuple[int, list[int]]] = {}  # giver -> (taker, cards)
        self.tricks_bid = [-1] * seats
        self.bid_blind = [False] * seats
        self.looked = [True] * seats
        self.played: list[int] = []  # the cards of the finished tricks, in order
        self.start_hands: dict[int, list[int]] = {}  # each hand as trick play began
        self._owner: tuple[object, int] = (None, -1)  # set_aside_owner, for its state
        self.to_act = -1
        self.turn = -1  # in trick play: whose hand plays now (to_act may be his partner)
        self.next_player: list[int] = []  # in trick play: by seat, who plays after him
        self.playing: list[int] = list(order)  # who takes part in trick play (sit_out_if)
        self.first_leader = -1  # who led (or played first to) the first trick
        self.cards_played = 0
        self.doubled = 0  # 1 doubled, 2 redoubled (`bidding { double: yes }`)
        self.calls_made = [0] * seats  # calls each player made in the auction
        self.bid_round = 0  # the round of calls of the winning bid
        self.strain_bids: list[tuple[int, str]] = []  # (seat, strain) of every bid, in order
        self._flow: list[Phase] = game.flow
        self._step = -1
        self._asked = -1  # the flow position whose decisions `before` it were asked
        self.skipped: set[str] = set()  # phases a decision skipped
        self.next_phase()

    def _copy_from(self, src: DealState) -> None:
        assert isinstance(src, Deal)
        super()._copy_from(src)
        # shared: the rules, the flow and its phases, the card relations and the order of
        # play in tricks are replaced, never changed in place
        self.rules = src.rules
        self._flow = src._flow
        self.rel = src.rel
        self.rel_trump = src.rel_trump
        self.next_player = src.next_player
        self.side_of = src.side_of
        self.side_members = src.side_members
        # values and tuples
        self.turnup = src.turnup
        self.size = src.size
        self.turned_up = src.turned_up
        self.stock_closed = src.stock_closed
        self.ended_early = src.ended_early
        self.announced = src.announced
        self.chosen = src.chosen
        self.high = src.high
        self.high_bidder = src.high_bidder
        self.listener = src.listener
        self.answering = src.answering
        self.passes_in_row = src.passes_in_row
        self.contract = src.contract
        self.qualifier = src.qualifier
        self.talon_shown = src.talon_shown
        self.lay_away_left = src.lay_away_left
        self.lay_away_by = src.lay_away_by
        self.picked_up = src.picked_up
        self.picked_card = src.picked_card
        self.exchange_by = src.exchange_by
        self.exchange_left = src.exchange_left
        self.leader = src.leader
        self.window_seat = src.window_seat
        self.window_quiet = src.window_quiet
        self.window_offers = src.window_offers  # replaced, never changed in place
        self.tricks_total = src.tricks_total
        self.pass_to = src.pass_to
        self._owner = src._owner
        self.turn = src.turn
        self.first_leader = src.first_leader
        self.cards_played = src.cards_played
        self.doubled = src.doubled
        self.bid_round = src.bid_round
        self._step = src._step
        self._asked = src._asked
        # lists of values or tuples
        self.talon = src.talon[:]
        self.stock = src.stock[:]
        self.out = src.out[:]
        self.ask_queue = src.ask_queue[:]
        self.bids = src.bids[:]
        self.in_auction = src.in_auction[:]
        self.challengers = src.challengers[:]
        self.laid_away = src.laid_away[:]
        self.exchanged = src.exchanged[:]
        self.trick = src.trick[:]
        self.tricks = src.tricks[:]
        self.tricks_won = src.tricks_won[:]
        self.card_points = src.card_points[:]
        self.leads = src.leads[:]
        self.declarations = src.declarations[:]
        self.redeal_queue = src.redeal_queue[:]
        self.tricks_bid = src.tricks_bid[:]
        self.bid_blind = src.bid_blind[:]
        self.looked = src.looked[:]
        self.played = src.played[:]
        self.playing = src.playing[:]
        self.calls_made = src.calls_made[:]
        self.strain_bids = src.strain_bids[:]
        # containers of containers
        self.results = [r.copy() for r in src.results]
        self.gives_left = src.gives_left.copy()
        self.received = {s: cs[:] for s, cs in src.received.items()}
        self.talon_taken = {s: cs[:] for s, cs in src.talon_taken.items()}
        self.set_aside = {s: cs[:] for s, cs in src.set_aside.items()}
        self.start_hands = {s: cs[:] for s, cs in src.start_hands.items()}
        self.passed = {s: (t, cs[:]) for s, (t, cs) in src.passed.items()}
        self.skipped = src.skipped.copy()

    # ------------------------------------------------------------ the flow
    def next_phase(self) -> None:
        """Enter the next phase of the flow that has something to decide; after the last,
        score the deal. Decisions `at: before PHASE` (and `at: end`, before scoring) are
        asked first."""
        flow = self._flow
        kinds = self.rules.flow
        while self._step + 1 < len(flow):
            here = self._step + 1
            if self._asked < here:
                self._asked = here
                point = self.game.ask_before[here]
                if point is not None and ask_decisions(self.game, self, point):
                    return
            self._step = here
            phase = flow[here]
            self.phase = phase.name
            if kinds[here] not in self.skipped and phase.start(self):
                if self.phase != OVER:  # a phase may end the deal as it starts (a redeal)
                    self._current = phase
                return
        if self._asked < len(flow):
            self._asked = len(flow)
            if "end" in self.game.ask_points and ask_decisions(self.game, self, "end"):
                return
        self._current = None
        self._score()

    def all_passed(self) -> None:
        """Nobody bid: thrown in (a redeal), or played as it is with no declarer
        (`bidding { all_pass: played }`: it counts as a deal and is scored)."""
        bidding = self.rules.bidding
        if bidding is not None and bidding.all_pass == "played":
            self.end_now()
        elif bidding is not None and bidding.all_pass == "play_on":
            self.next_phase()
        else:
            self.end_unplayed(by=-1)

    def skip_phase(self, kind: str) -> None:
        """A decision skips a phase of the flow that has not started yet (a hand game: no
        talon)."""
        self.skipped.add(kind)

    def end_now(self) -> None:
        """A decision ended the deal: the phases left are skipped (the decisions at the end
        are still asked), and it is scored."""
        self.ended_early = True
        self.ask_queue = []
        self._step = len(self._flow) - 1
        self._asked = max(self._asked, len(self._flow) - 1)  # the end's decisions: once
        self.next_phase()

    def end_unplayed(self, by: int) -> None:
        """The deal ends without being played: a redeal demanded by `by` (S5), or thrown in
        when nobody bids (by = -1)."""
        self.redealt = True
        self.redeal_by = by
        self.phase = OVER
        self.to_act = -1
        self._current = None

    def ask(self) -> None:
        """Decisions between phases are asked now (`ask_queue`): they act as a phase."""
        self._current = self.game.asking

    # ------------------------------------------------------------ scoring
    def _score(self) -> None:
        gains = [0] * self.seats
        scoring = self.rules.scoring
        envs = self._scored_envs()
        active = self.active
        for seat in range(self.seats):
            env = envs[seat]
            if seat not in active:
                if scoring.sitting_out is not None:
                    gains[seat] = scoring.sitting_out(env)
                    in_range(gains[seat], "scoring's sitting_out score", scoring.sitting_out.loc)
                continue
            declarer = seat == self.declarer
            rule = scoring.declarer if declarer else scoring.defender
            gains[seat] = gain = rule.fn(env)
            if not -MAX_VALUE <= gain <= MAX_VALUE:  # the message only when it fails
                role = "declarer" if declarer else "defender"
                in_range(gain, f"scoring's {role} score", rule.loc)
        self.gains = gains
        self.results = envs
        self.phase = OVER
        self.to_act = -1

    def result_env(self, seat: int, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The quantities a scoring rule reads for one seat at the end of the deal (`shared`:
        `_shared_results()`, when the caller has made it for every seat)."""
        rules = self.rules
        tricks = self.tricks
        env = (shared if shared is not None else self._shared_results()).copy()
        env["tricks_won"] = self.tricks_won[seat]
        env["won_last_trick"] = bool(tricks) and tricks[-1].winner == seat and not self.ended_early
        env["tricks_bid"] = max(self.tricks_bid[seat], 0)
        env["bid_blind"] = self.bid_blind[seat]
        env["declarer"] = seat == self.declarer
        env["card_points"] = self.card_points[seat] + (
            self._set_aside_points(seat) if rules.talon.counts_for_if else 0
        )
        own = [d for d in self.declarations if d.seat == seat] if self.declarations else []
        env["melds_declared"] = sum(d.value for d in own)
        env["seat"] = seat
        env["position"] = self.active.index(seat) if seat in self.active else -1
        if self.game.model.combinations:  # of his hand as play began
            model = self.game.model
            hand = self.start_hands.get(seat, [])
            env.update(combination_names(model.combinations, model.deck, hand, self.trump))
        self._set_role(env, seat)
        if rules.scoring.reads_top_trumps:
            env["top_trumps"] = self.top_trumps(seat)
        env.update(self.context[seat])
        if rules.scoring.reads_taken:
            env[TAKEN_KEY] = [c for t in tricks if t.winner == seat for _, c in t.cards]
        if rules.scoring.reads_hand:  # count_rank, holds_trump: his hand as play began
            env[HAND_KEY] = self.start_hands.get(seat, [])
            env[TRUMP_KEY] = self.trump
        if rules.scoring.reads_tricks:  # sum_tricks: each finished trick, the deal's sides
            env[TRICKS_KEY] = tricks_envs(
                tricks, self.tricks_total, self.game.points_with, seat, self.side_of
            )
        if own:
            game = self.game
            melds = game.model.melds
            env["meld_points"] = sum(
                d.value for d in own if melds[game.meld_index[d.meld]].counts_if(env)
            )
        return env

    def _shared_results(self) -> dict[str, Any]:
        """The part of every seat's `result_env` that is the same for all (the seat's own
        names are set over it)."""
        shared = self._contract_public()
        shared.update(self.game.result_base)
        if self.game.points_by_trump is not None:  # the deck's points with the deal's trump
            shared["deck_points"] = sum(self.points_now())
        shared["tricks_total"] = self.tricks_total
        shared["tricks_played"] = len(self.tricks)
        shared["stock_closed"] = self.stock_closed
        shared["meld_points"] = 0
        shared["combination_points"] = shared["best_combination"] = 0
        shared["players"] = len(self.active)
        shared["seats"] = self.seats
        shared["top_trumps"] = 0
        return shared

    def declare(self, seat: int) -> None:
        """A choice with `declares: yes` made `seat` the declarer (a declarer without an
        auction, or in place of the auction's)."""
        self.declarer = seat

    def note_choice(self, option: str, trump: int) -> None:
        """An option of a choice was chosen: it is public, and may set the trump suit."""
        self.chosen = (*self.chosen, option)
        for seat in range(self.seats):
            self.context[seat][option] = True
        if trump >= 0:
            self.trump = trump
        elif trump == NO_TRUMP:
            self.trump = -1
        self.rel = None

    def relations(self) -> tuple[list[int], list[int]]:
        """Each card's effective suit and power now (see `Game.relations`), kept while the
        trump suit stays (the qualifier and the choices are settled before play)."""
        if self.rel_trump != self.trump or self.rel is None:
            self.rel = self.game.relations(self.trump, self.qualifier, self.chosen)
            self.rel_trump = self.trump
        return self.rel

    def top_trumps(self, seat: int) -> int:
        """With the highest trump among his cards: the unbroken run of trumps he holds from
        the top; without it: the trumps above his highest (see the name `top_trumps`)."""
        trumps = self.game.trump_order(self.trump, self.qualifier, self.chosen)
        held: set[int] = set()
        owner = self.set_aside_owner()
        for member in self.side_members[seat]:  # his side's cards together
            held.update(self.start_hands.get(member, ()))
            if member == owner:
                held.update(self.laid_away)
                held.update(self.talon)
        run = 0
        with_top = bool(trumps) and trumps[0] in held
        for c in trumps:
            if (c in held) != with_top:
                break
            run += 1
        return run

    def form_sides(self) -> None:
        """`play.side_if`, as trick play begins: the players for whom it holds (over his
        role and his hand as play begins) form one side, the others the other; a seat
        sitting the deal out is a side of his own."""
        rule = self.rules.play.side_if
        assert rule is not None
        seats = self.seats
        side_of = list(range(seats))
        for s in self.active:
            side_of[s] = seats + (0 if rule(self.hand_role_env(s)) else 1)
        self.side_of = side_of
        self.side_members = [
            [t for t in range(seats) if side_of[t] == side_of[s]] for s in range(seats)
        ]

    def hand_role_env(self, seat: int) -> dict[str, Any]:
        """`role_env` with the player's hand as trick play began (the names of
        `play.side_if` and `play.first_leader = EXPR`)."""
        env = self.role_env(seat)
        env[HAND_KEY] = self.start_hands.get(seat, self.hands[seat])
        env[TRUMP_KEY] = self.trump
        return env

    def set_aside_owner(self) -> int:
        """Who gets the laid-away and untaken talon cards: the first player in deal order
        for whom `talon.counts_for_if` holds (-1: nobody)."""
        rule = self.rules.talon.counts_for_if
        if rule is None or (not self.laid_away and not self.talon):
            return -1
        key = (len(self.tricks), self.declarer, self.ended_early)
        if self._owner[0] == key:
            return self._owner[1]
        owner = -1
        for seat in self.active:
            env = self.open_env(seat)
            env.update(won_last_trick=self._won_last_trick(seat), contract=self.contract)
            if rule(env):
                owner = seat
                break
        self._owner = (key, owner)
        return owner

    def _won_last_trick(self, seat: int) -> bool:
        return bool(self.tricks) and self.tricks[-1].winner == seat and not self.ended_early

    def _set_aside_points(self, seat: int) -> int:
        """The points of the laid-away and untaken talon cards, for their owner."""
        if seat != self.set_aside_owner():
            return 0
        points = self.points_now()
        return sum(points[c] for c in self.laid_away) + sum(points[c] for c in self.talon)

    def points_now(self) -> list[int]:
        """Each card's points with the trump in force now (`card_points` may read it)."""
        return self.game.points_with(self.trump)

    def _scored_envs(self) -> list[dict[str, Any]]:
        """Every seat's scoring environment: each definition is worked out for every player
        before the next one, so that `sum_all(x)` and the like see them all (they read the
        players of the deal; a seat sitting out has his own results, all zero)."""
        shared = self._shared_results()
        envs = [self.result_env(s, shared) for s in range(self.seats)]
        table = [envs[s] for s in self.active]
        members = self.side_members  # each seat's side, in seat order
        for seat, env in enumerate(envs):
            env[TABLE_KEY] = table
            env[SEATS_KEY] = envs
            env[SEAT_KEY] = seat
            env[SIDE_KEY] = [envs[t] for t in members[seat]]
        for name, rule in self.rules.scoring.definitions:
            fn = rule.fn
            for env in envs:
                env[name] = value = fn(env)
                if not -MAX_VALUE <= value <= MAX_VALUE:  # the message only when it fails
                    in_range(value, f"scoring definition '{name}'", rule.loc)
        return envs

    def final_env(self, seat: int) -> dict[str, Any]:
        """The scoring quantities and definitions of a seat after the deal (for after_deal)."""
        if self.results and self.results[seat]:
            return dict(self.results[seat])
        return dict(self._scored_envs()[seat])

    def summary(self) -> dict[str, Any]:
        """The deal's result as plain data (kept in Match.deal_results)."""
        return {
            "dealer": self.dealer,
            "declarer": self.declarer,
            "contract": self.contract,
            "qualifier": self.qualifier,
            "gains": list(self.gains or [0] * self.seats),
            "card_points": list(self.card_points),
        }

    # ------------------------------------------------------------ views
    def _observe(self, seat: int) -> Observation:
        """What `seat` may know now, and nothing more."""
        deck = self.game.model.deck
        ct = self.game.card_texts.__getitem__  # a card's text (made once per game)
        others_received: dict[int, int] = {s: len(v) for s, v in self.received.items() if s != seat}
        given: tuple[tuple[int, tuple[str, ...]], ...] = ()
        if seat >= 0 and seat == self.declarer:
            given = tuple((s, tuple(ct(c) for c in v)) for s, v in self.received.items() if v)
        received = list(self.received.get(seat, ()))
        if self.passed and seat >= 0:
            if seat in self.passed:
                taker, cards = self.passed[seat]
                given = (*given, (taker, tuple(ct(c) for c in cards)))
            received += [c for taker, cards in self.passed.values() if taker == seat for c in cards]
        sees_hand = seat >= 0 and self.looked[seat]
        return Observation(
            seat=seat,
            deal_number=self.context[0].get("deal_number", 1),
            phase=self.phase,
            to_act=self.to_act,
            dealer=self.dealer,
            players_in_deal=tuple(self.active),
            hand=tuple(ct(c) for c in sorted(self.hands[seat])) if sees_hand else (),
            hand_sizes=tuple(len(h) for h in self.hands),
            talon_size=len(self.talon),
            talon_shown=tuple(ct(c) for c in self.talon_shown)
            if self.talon_shown is not None
            else tuple(ct(c) for c in self.talon)
            if self.phase == OVER and self.talon
            else None,
            talon_taken=tuple(ct(c) for c in self.talon_taken.get(seat, ())),
            received=tuple(ct(c) for c in received),
            cards_received_by_others=tuple(sorted(others_received.items())),
            given=given,
            bids=tuple((s, a.text) for s, a in self.bids),
            declarer=self.declarer,
            contract=self.contract,
            qualifier=self.qualifier,
            trump=None if self.trump < 0 else deck.suits[self.trump].name,
            trick=tuple((s, ct(c)) for s, c in self.trick),
            tricks=self._grown("tricks", self.tricks, self._trick_view),
            declarations=tuple(
                (d.seat, d.meld, deck.suits[d.suit].name if d.suit >= 0 else "", d.value)
                for d in self.declarations
            ),
            tricks_won=tuple(self.tricks_won),
            card_points_taken=tuple(self.card_points) if self.phase == OVER else None,
            gains=None if self.gains is None else tuple(self.gains),
            redealt=self.redealt,
            log=self._grown(
                (seat, self._discards_public()),
                self.history,
                lambda step: (step[0], self._seen_as(step[1], step[0], seat)),
            ),
            set_aside=tuple(ct(c) for c in self.set_aside.get(seat, ())),
            pass_to=self.pass_to,
            open_hands=self._open_hands(seat),
            laid_away=tuple(ct(c) for c in self.laid_away)
            if seat == self.lay_away_by or self._discards_public()
            else (),
            turnup=ct(self.turnup)
            if self.turnup >= 0 and not self.stock_closed
            else ct(self.picked_card)
            if self.picked_card >= 0 and self.leader < 0
            else None,
            turned_up=ct(self.turned_up) if self.turned_up >= 0 else None,
            stock_size=len(self.stock) + (self.turnup >= 0),
            stock_closed=self.stock_closed,
            announced=None
            if self.announced is None
            else (
                self.to_act,
                self.game.model.melds[self.announced[0]].name,
                deck.suits[self.announced[1]].name if self.announced[1] >= 0 else "",
            ),
            deal_keep=tuple(
                (s, name, self.context[s][name])
                for s in self.active
                for name, _, _ in self.game.model.deal.keep
            ),
            sitting_out=tuple(s for s in self.active if s not in self.playing),
            playing_for=self.turn
            if self.phase == "play" and self.turn >= 0 and self.turn != self.to_act
            else None,
            contract_text=self.contract_text(),
        )

    def _discards_public(self) -> bool:
        """Laid-away cards are shown to all once the deal is over if they count for someone
        (`talon.counts_for_if`); otherwise nobody else ever sees them."""
        return self.phase == OVER and self.rules.talon.counts_for_if is not None

    def contract_text(self) -> str | None:
        """The contract as players say it ("4 clubs doubled"), once the auction is over."""
        if self.declarer < 0 or self.rules.bidding is None:
            return None
        words = [] if self.game.levelless else [str(self.contract)]
        if self.qualifier:
            words.append(self.qualifier)
        if self.doubled:
            words.append("doubled" if self.doubled == 1 else "redoubled")
        return " ".join(words)

    def _open_hands(self, seat: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """The other hands shown to all by `play.open_hand_if`."""
        rule = self.rules.play.open_hand_if
        if rule is None:
            return ()
        ct = self.game.card_text
        out = []
        for s in self.active:
            if s != seat and rule(self.open_view(s)):
                out.append((s, tuple(ct(c) for c in sorted(self.hands[s]))))
        return tuple(out)

    def partner_of(self, seat: int) -> int:
        """The other player of a seat's side (`sides:`); without sides, in a deal with a
        declarer and two defenders, the other defender; else the seat itself."""
        partner = self.game.partner_of(seat, self.seats)
        if partner == seat and not self.game.model.sides and self.declarer >= 0:
            defenders = [s for s in self.playing if s != self.declarer]
            if seat in defenders and len(defenders) == 2:
                return defenders[1 - defenders.index(seat)]
        return partner

    def partners(self, seat: int, other: int) -> bool:
        """`other` is another player of `seat`'s side (`sides:`); without sides, in a deal
        with a declarer, both are defenders."""
        if other == seat:
            return False
        if self.game.model.sides or self.rules.play.side_if is not None:
            side_of = self.side_of
            return side_of[seat] == side_of[other]
        declarer = self.declarer
        return declarer >= 0 and declarer not in (seat, other)

    def open_view(self, seat: int) -> dict[str, Any]:
        """`open_env`, with the aggregates' view of the players of the deal and of his side
        when the open rules read `count_all` and the like: each player's values of the
        names they read, worked out when an aggregate is reached."""
        env = self.open_env(seat)
        play = self.rules.play
        if play.open_aggregates:
            names = play.open_table_reads
            side_of = self.side_of
            env[TABLE_KEY] = _Later(lambda: [self._aggregated(s, names) for s in self.active])
            env[SIDE_KEY] = _Later(
                lambda: [
                    self._aggregated(s, names) for s in self.active if side_of[s] == side_of[seat]
                ]
            )
        return env

    def open_env(self, seat: int) -> dict[str, Any]:
        """The names `play.open_hand_if`, `play.stop_if` and `talon.counts_for_if` read for a
        player (of his own values, those they use)."""
        context = self.context[seat]
        env = {
            "declarer": seat == self.declarer,
            "tricks_won": self.tricks_won[seat],
            "tricks_played": len(self.tricks),
            "cards_played": self.cards_played,
            **{name: context[name] for name in self.rules.play.player_reads},
        }
        if self.rules.play.open_reads_contract:
            env.update(self.contract_env(seat))
        if self.rules.talon.counts_for_if is not None:
            env.update(context)
        return env

    def _aggregated(self, seat: int, names: frozenset[str]) -> dict[str, Any]:
        """A player's values of `names` (those the aggregates of the open rules read)."""
        context = self.context[seat]
        out: dict[str, Any] = {}
        contract: dict[str, Any] | None = None
        for name in names:
            if name in context:
                out[name] = context[name]
            elif name == "declarer":
                out[name] = seat == self.declarer
            elif name == "tricks_won":
                out[name] = self.tricks_won[seat]
            elif name == "tricks_played":
                out[name] = len(self.tricks)
            elif name == "cards_played":
                out[name] = self.cards_played
            else:
                if contract is None:
                    contract = self.contract_env(seat)
                out[name] = contract[name]
        return out

    def contract_env(self, seat: int) -> dict[str, Any]:
        """What every player knows of the contract and of a seat's role in it."""
        env = self._contract_public()
        self._set_role(env, seat)
        return env

    def _contract_public(self) -> dict[str, Any]:
        """The contract as every player knows it (the part of `contract_env` that is the
        same for every seat)."""
        return {
            "contract": self.contract,
            "doubled": self.doubled == 1,
            "redoubled": self.doubled == 2,
            "bid_round": self.bid_round,
            QUALIFIER_KEY: self.qualifier,
        }

    def _set_role(self, env: dict[str, Any], seat: int) -> None:
        """Add a seat's role in the contract to `env` (the rest of `contract_env`)."""
        side_of = self.side_of
        declarer = self.declarer
        env["declarer_side"] = declarer >= 0 and side_of[seat] == side_of[declarer]
        env["side"] = self.side_number(seat)
        env["dealer"] = seat == self.dealer

    def side_number(self, seat: int) -> int:
        """The name `side`: the seat's side's place in `sides:` (with `play.side_if`, once
        trick play began: 0 where it holds, 1 where not), else his seat."""
        side = self.side_of[seat]
        return side - self.seats if side >= self.seats else seat

    def ruled_trump(self, rule: CompiledExpr) -> int:
        """`play { trump = EXPR }` for this deal: a suit's number (its place in `suits:`),
        over the public names of `trump_if`, each suit's name meaning its number."""
        numbers = self.game.suit_numbers
        env = {**self.trump_if_env(), **numbers}
        suit = rule(env)
        if not 0 <= suit < len(numbers):
            raise RulesError(
                f"play.trump gives {suit} in deal {env['deal_number']}: not a suit "
                f"(0..{len(numbers) - 1}, or a suit's name)",
                rule.loc,
            )
        return suit

    def trump_if_env(self) -> dict[str, Any]:
        """The public names `play.trump_if` reads."""
        context = self.context[self.active[0]]
        return {
            "deal_number": context.get("deal_number", 1),
            "target": context.get("target", 0),
            "players": len(self.active),
            "deck_size": self.game.model.deck.size,
            "size": self.size,
        }

    def role_env(self, seat: int) -> dict[str, Any]:
        """The names `play.sit_out_if` and `pickup.take_if` read for a player, with the
        aggregates' view of the players of the deal and of his side (`count_side(x)`)."""
        envs = [self._role_base(s) for s in self.active]
        env = envs[self.active.index(seat)] if seat in self.active else self._role_base(seat)
        side_of = self.side_of
        env[TABLE_KEY] = envs
        env[SIDE_KEY] = [e for s, e in zip(self.active, envs) if side_of[s] == side_of[seat]]
        return env

    def _role_base(self, seat: int) -> dict[str, Any]:
        return {
            **self.context[seat],
            "declarer": seat == self.declarer,
            "players": len(self.active),
            "seats": self.seats,
            **self.contract_env(seat),
        }

    def _trick_view(self, t: TrickView) -> tuple[int, tuple[tuple[int, str], ...], int]:
        texts = self.game.card_texts
        return (t.leader, tuple((s, texts[c]) for s, c in t.cards), t.winner)

    def _seen_as(self, action: Action, actor: int, seat: int) -> str:
        """An action's text as `seat` saw it: the card of a give only its giver and taker see."""
        if action.kind == "give" and seat not in (actor, action.to):
            return f"give a card to {action.to}"
        if action.kind == "pass_card" and seat != actor:
            return "pass a card"
        if action.kind == "discard" and seat != actor and not self._discards_public():
            return "discard a card"
        return action.text
