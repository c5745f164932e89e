"""The state of one deal of a trick-taking game and its flow of phases (`deal { flow: ... }`:
redeal offer, auction, talon, contract raise, tricks): what is dealt, what the phases set,
and the flow itself. The roles, the scoring and the views are the classes above it
(`deal_roles.py`, `deal_scoring.py`, `deal.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..language.errors import RulesError
from ..language.exprs import (
    CompiledExpr,
)
from ..language.model import NO_TRUMP, STOCK, TALON, TURNUP
from .actions import Action
from .card_relations import led_suit
from .flow import Phase
from .observation import Declaration
from .records import TrickView
from .state import OVER, DealState

if TYPE_CHECKING:
    from .tables import GameTables


class DealCore(DealState):
    """A trick deal's state and flow (see the module docstring)."""

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
        "exchange_least",
        "exchange_left",
        "exchanged",
        "first_leader",
        "gives_left",
        "high",
        "high_bidder",
        "in_auction",
        "laid_away",
        "laid_shown",
        "lay_away_by",
        "lay_away_left",
        "leader",
        "leads",
        "listener",
        "looked",
        "next_player",
        "out",
        "out_fresh",
        "pass_takers",
        "pass_to",
        "partner_for",
        "passed",
        "passed_back",
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
        "sides_key",
        "size",
        "skipped",
        "start_hands",
        "stock",
        "stock_closed",
        "stock_dealt",
        "stock_shown",
        "strain_bids",
        "talon",
        "talon_shown",
        "talon_taken",
        "trick",
        "tricks",
        "window_envs",
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
        # `out_left`: the cards left out that nobody has held (an exchange lays its cards
        # under them: the first `out_fresh` cards of `out`)
        self.out_fresh = len(self.out)
        self.turned_up = self.turnup  # as dealt: public all deal (Observation.turned_up)
        # `stock_top: shown`: every card that lay face up on the stock, with the number of
        # stock cards drawn before it came to the top (its place in the stock as dealt)
        self.stock_dealt = len(self.stock)
        self.stock_shown: tuple[tuple[int, int], ...] = ()
        if model.deal.stock_top_shown and self.stock:
            self.stock_shown = ((0, self.stock[0]),)
        if game.turnup_held:  # `1 turnup to dealer`: face up, in the dealer's hand
            shown = game.shown_position(order, self.size)
            if shown >= 0:
                self.turned_up = deck[shown]
        play = self.rules.play  # a trump known as the cards are dealt is in force (and shown)
        if play.trump >= 0:
            self.trump = play.trump
        elif play.trump_from == "turnup" and self.turned_up >= 0:
            self.trump = game.suit_of[self.turned_up]
        elif play.trump_from == "stock_top" and self.stock:
            self.trump = game.suit_of[self.stock[0]]
        elif play.trump_rule is not None:
            self.trump = self.ruled_trump(play.trump_rule)
        if self.trump >= 0 and play.trump_if is not None and not play.trump_if(self.trump_if_env()):
            self.trump = -1
        self.stock_closed = False
        self.ended_early = False  # ended before the hands were empty (a decision, stop_if)
        self.announced: tuple[int, int] | None = None  # (meld, suit) announced, to be led
        self.ask_queue: list[tuple[int, str]] = []  # (seat, decision) asked between phases
        self.chosen: tuple[str, ...] = ()  # the options of choices made so far
        self.rel: tuple[tuple[int, ...], tuple[int, ...]] | None = None  # relations(), kept
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
        # of them, those shown to all as they were laid away (`lay_away_shown_if`), in order
        self.laid_shown: tuple[int, ...] = ()
        self.lay_away_by = -1  # who laid them away (the declarer, or who picked up)
        self.picked_up = -1  # who took the turned-up card into his hand (`pickup`)
        self.picked_card = -1  # the card he took
        self.exchange_by = -1  # `exchange_out N`: who exchanges with the cards left out
        self.exchange_left = 0  # the cards he may still lay away
        self.exchange_least = 0  # of them, those he must lay away before he may stop (`keep`)
        self.exchanged: list[int] = []  # those he laid away so far
        self.received: dict[int, list[int]] = {s: [] for s in order}
        self.talon_taken: dict[int, list[int]] = {s: [] for s in order}
        self.trick: list[tuple[int, int]] = []
        # before each card, with `at: card` decisions: whom the round of offers is at (-1:
        # no round open) and how many players in a row passed or were passed over
        self.window_seat = -1
        self.window_quiet = 0
        # with a `partner_plays_if` that play does not change: who acts for each seat's
        # hand, worked out once as play begins (see `TrickPlay.hand_to`)
        self.partner_for: tuple[int, ...] | None = None
        # what each player is offered in the round now (worked out once until a decision),
        # and the players' names it was worked out over (kept for the next round, in which
        # only the hand of the player who played a card in between has changed)
        self.window_offers: tuple[tuple[Action, ...], ...] | None = None
        self.window_envs: list[dict[str, Any]] | None = None
        # what `form_sides` last formed the sides over (None: form them; a tuple, shared)
        self.sides_key: tuple[Any, ...] | None = None
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
        self.pass_takers: dict[int, list[int]] = {}  # giver -> takers, as the passing began
        self.set_aside: dict[int, list[int]] = {}
        # giver -> [(taker, cards)], one entry per taker (`count: N each`: several)
        self.passed: dict[int, list[tuple[int, list[int]]]] = {}
        self.passed_back: dict[int, list[tuple[int, list[int]]]] = {}  # `back`: the same
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
        assert isinstance(src, DealCore)
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
        self.exchange_least = src.exchange_least
        self.leader = src.leader
        self.window_seat = src.window_seat
        self.window_quiet = src.window_quiet
        self.partner_for = src.partner_for  # (a tuple: shared)
        self.window_offers = src.window_offers  # replaced, never changed in place
        self.window_envs = None  # they hold the original's lists: made again in a copy
        self.sides_key = src.sides_key  # (a tuple of tuples of values: shared)
        self.tricks_total = src.tricks_total
        self.pass_to = src.pass_to
        self.pass_takers = dict(src.pass_takers)
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
        self.stock_dealt = src.stock_dealt
        self.stock_shown = src.stock_shown  # a tuple of tuples: replaced, never changed
        self.out = src.out[:]
        self.out_fresh = src.out_fresh
        self.ask_queue = src.ask_queue[:]
        self.bids = src.bids[:]
        self.in_auction = src.in_auction[:]
        self.challengers = src.challengers[:]
        self.laid_away = src.laid_away[:]
        self.laid_shown = src.laid_shown  # a tuple: replaced, never changed
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
        self.passed = {s: [(t, cs[:]) for t, cs in m] for s, m in src.passed.items()}
        self.passed_back = {s: [(t, cs[:]) for t, cs in m] for s, m in src.passed_back.items()}
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
                if point is not None and self.game.asking.ask(self, point):
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
            if "end" in self.game.ask_points and self.game.asking.ask(self, "end"):
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
        """The deal ends without being played: a redeal demanded by `by` (S5) or thrown in by
        his decision (`effect: redeal`), or thrown in when nobody bids (by = -1)."""
        self.redealt = True
        self.redeal_by = by
        self.phase = OVER
        self.to_act = -1
        self._current = None

    def ask(self) -> None:
        """Decisions between phases are asked now (`ask_queue`): they act as a phase."""
        self._current = self.game.asking

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

    def relations(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Each card's effective suit and power now (see `GameTables.relations`), kept while the
        trump suit stays (the qualifier and the choices are settled before play)."""
        if self.rel_trump != self.trump or self.rel is None:
            self.rel = self.game.relations(self.trump, self.qualifier, self.chosen)
            self.rel_trump = self.trump
        return self.rel

    def led_suit(self, cards: Sequence[tuple[int, int]]) -> int:
        """The effective suit led to these cards of a trick: the first card's, or with
        `play.sets_suit_if` the first card's that sets it; -1 when none does (yet)."""
        eff = self.relations()[0]
        setters = self.game.suit_setters(self.trump, self.qualifier, self.chosen)
        return led_suit(eff, setters, cards)

    def stock_drawn(self) -> None:
        """Cards were drawn from the stock: with `stock_top: shown` its new top card is
        turned face up (none while the stock is closed). A deal shows its stock's cards
        exactly when it showed the first as dealt (`stock_shown` not empty)."""
        if self.stock_shown and self.stock and not self.stock_closed:
            drawn = self.stock_dealt - len(self.stock)
            if not self.stock_shown or self.stock_shown[-1][0] != drawn:
                self.stock_shown = (*self.stock_shown, (drawn, self.stock[0]))

    def turnup_suit(self) -> int:
        """`turnup_suit`: the suit of the turned-up card while it lies there, else -1."""
        return self.game.suit_of[self.turnup] if self.turnup >= 0 else -1

    def stock_top(self) -> int:
        """The card lying face up on top of the stock now (`stock_top: shown`), or -1."""
        if self.stock_shown and self.stock and not self.stock_closed:
            return self.stock[0]
        return -1

    def points_now(self) -> tuple[int, ...]:
        """Each card's points with the trump, call and choices in force now (`card_points`
        may read them)."""
        return self.points_under(self.trump)

    def points_under(self, trump: int) -> tuple[int, ...]:
        """Each card's points in a trick played while `trump` was trump (under this deal's
        call and choices)."""
        return self.game.points_with(trump, self.qualifier, self.chosen)

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

    def _score(self) -> None:
        """Score the deal once its flow is over (`DealScoring`)."""
        raise NotImplementedError

    def role_env(self, seat: int) -> dict[str, Any]:
        """A player's role in the deal (`DealRoles`)."""
        raise NotImplementedError
