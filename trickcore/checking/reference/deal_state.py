"""The state of one trick deal as the checker follows it, and the deal as dealt."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import OutOfRange, in_range
from .expressions import SIDE, STRAIN, TABLE
from .rule_blocks import DecisionRule
from .variant import Reference, players_in_deal

OVER = "over"  # the phase of a deal that has ended


class DealState:
    """One trick deal's state, kept by the checker from its deck order: the cards where they
    lie (dealt here, C2 and the pattern), the calls, the contract, the talon, the tricks and
    the flow's position; and the names the rules read of it for any player (the contract,
    his side and role, the table of players).

    The parts of `TrickReplay` (one per job: scoring, views, legal cards, decisions, trick
    play, the auction, the phases that move cards) build on it; the flow they hand back to
    is `TrickReplay`'s own.
    """

    if TYPE_CHECKING:  # the flow, followed by TrickReplay (trick_replay.py)

        def _flow_on(self) -> None: ...

        def _end_now(self) -> None: ...

        def _void(self, by: int) -> None: ...

    def __init__(
        self,
        ref: Reference,
        deck_order: Sequence[int],
        dealer: int,
        seats: int,
        context: Sequence[Mapping[str, Any]] | None = None,
        watch: bool = True,
    ) -> None:
        model = ref.model
        self.ref = ref
        self.seats = seats
        self.dealer = dealer
        # False: the hands lying open are not followed into `seen` (a deal whose
        # information is not checked)
        self.watch = watch
        # what each seat knows of the match as the deal begins (from the checker's own book),
        # and the deal's own values: `deal.keep` names and the options of choices
        self.context = (
            [dict(c) for c in context]
            if context is not None
            else [ref.start_context() for _ in range(seats)]
        )
        for ctx in self.context:
            ctx.update(ref.deal_keep)
            ctx.update(dict.fromkeys(ref.options, False))
        self.active = players_in_deal(model, dealer, seats)
        # the deal (C2): packets from the top; a turn-up card lies under the stock
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.talon: list[int] = []
        self.stock: list[int] = []  # face down, top first
        self.turnup = -1
        self.turned_up = -1  # the card turned up as the cards were dealt (public all deal)
        self.out: list[int] = []  # `rest out`: no part in the deal, seen by nobody
        self.laid_out: set[int] = set()  # cards an exchange laid away among them (held)
        # an exchange with the cards left out: who, the fewest and the most he lays away, and
        # those he laid away so far
        self.exchange: tuple[int, int, int, list[int]] = (-1, 0, 0, [])
        self.size = 1  # the deal's `size` (deal.size), worked out as it is dealt
        self._deal(deck_order)
        # `stock_top: shown`: the cards that lay face up on the stock, each with the number
        # of stock cards drawn before it came to the top
        self.stock_dealt = len(self.stock)
        self.stock_shown: list[tuple[int, int]] = []
        self.seen: list[set[int]] = [set(h) for h in self.hands]  # cards each seat has seen
        if self.turned_up >= 0:  # the turn-up is public (lying there, or the dealer's own)
            for seen in self.seen:
                seen.add(self.turned_up)
        self.stock_closed = False
        self.turn_stock_top()
        self.ended_early = False  # a decision or stop_if ended play before the hands ran out
        self.redealt = False
        self.redeal_by = -1
        self.declarer = -1
        self.contract = 0
        self.qualifier = ""
        self.trump = -1
        self.chosen: list[str] = []  # options of choices, in the order chosen
        self.announced: tuple[int, int] | None = None  # (meld, suit) announced, to be led
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[tuple[tuple[int, int], ...], int, int]] = []  # cards, winner, trump
        self.tricks_won = [0] * seats
        self.card_points = [0] * seats
        self.leads = [0] * seats
        self.declarations: list[tuple[int, int, int, int]] = []  # seat, meld, suit, value
        self.tricks_total = 0
        self.start_hands: dict[int, list[int]] = {}  # each hand as trick play began
        # the talon: who took which of its cards, what was shown, given, laid away
        self.talon_taken: dict[int, list[int]] = {s: [] for s in self.active}
        self.talon_shown: list[int] | None = None
        self.received: dict[int, list[int]] = {s: [] for s in self.active}  # talon cards given
        self.gives_left: dict[int, int] = {}
        self.lay_away_left = 0
        self.laid_away: list[int] = []
        # the pass phase: how many seats on the cards go (0: none), the cards set aside
        self.pass_to = 0
        self.set_aside: dict[int, list[int]] = {}
        # giver -> the players his cards go to, in turn (one, but with `count: N each`)
        self.takers: dict[int, list[int]] = {}
        self.passed: list[tuple[int, int, list[int]]] = []  # (giver, taker, cards), in order
        self.passed_back: list[tuple[int, int, list[int]]] = []  # (returner, giver, cards)
        # the bids phase: each seat's bid (-1 before it bids), blind or not, looked or not
        self.tricks_bid = [-1] * seats
        self.bid_blind = [False] * seats
        self.looked = [True] * seats
        # the auction
        self.calls: list[tuple[int, str]] = []  # (seat, text) of every call and bid
        self.high: tuple[int, int, int] | None = None  # (level, strain, qualifier) to beat
        self.high_bidder = -1
        self.high_held = False  # the standing bid was taken over (`hold_if`): not again
        self.in_auction: list[int] = []
        self.passes_in_row = 0
        self.listener = -1  # style pairs: who is bid to, the challengers, is he answering
        self.challengers: list[int] = []
        self.answering = False
        self.joining: list[int] | None = None  # the round of joining: who joined so far
        self.formed: dict[int, tuple[int, ...]] | None = None  # side_if: each seat's side
        self.sides_key: tuple[Any, ...] | None = None  # what they were last formed over
        self.team: tuple[int, ...] = ()  # side_if: the players for whom it held
        self.calls_asked = 0  # calls made in the round of joining
        # the flow
        self.log: list[tuple[int, str, str, int]] = []  # (seat, kind, text, to) of every action
        self.stage = ""
        self.to_act = -1
        self.step = -1  # the flow position reached
        self.asked = -1  # the flow position whose decisions `before` it were asked
        self.skipped: set[str] = set()
        self.queue: list[tuple[int, DecisionRule]] = []  # decisions asked between phases
        self.ask_point = ""  # the point whose decisions are asked ("before tricks", "end")
        self.asked_again = False  # a decision with `again: yes` was taken in this round
        self.redeal_queue: list[int] = []
        # spec 4: the calls of the auction, the contract's strain and doubling, the pickup,
        # who plays (sit_out_if) and whose hand plays now (partner_plays_if)
        self.strain = ""  # the contract's strain ("" for none)
        self.doubled = 0  # 1 doubled, 2 redoubled
        self.bid_round = 0  # the round of calls of the winning bid
        self.call_count = [0] * seats  # calls each player made in the auction
        self.bid_count = [0] * seats  # bids each player made in the auction
        self.last_call: tuple[int, str] | None = None  # the last call that is not a pass
        self.strain_bids: list[tuple[int, int]] = []  # (seat, strain index) of every bid
        self.picked = -1  # the turned-up card taken in a pickup
        self.taker = -1
        self.pickup_left = 0
        self.pickup_away: list[int] = []  # the cards the taker laid away (seen by him only)
        # the cards laid away (talon or pickup) shown to all (`lay_away_shown_if`)
        self.laid_shown: list[int] = []
        self.playing: list[int] = list(self.active)  # who takes part in trick play
        self.turn = -1  # in trick play: whose hand plays now (to_act may be his partner)
        self.cards_played = 0
        self.first = -1  # who leads (or plays first to) the first trick
        # `at: card`: the round of offers before a card (card_offers.py): whom it is at
        # (-1: none open), how many in a row passed, what each player is offered in it
        self.offer_at = -1
        self.offer_quiet = 0
        self.round_offers: dict[int, list[str]] | None = None

    def _fixed_trump(self) -> None:
        """A trump known as the cards are dealt (`play.trump: SUIT`, or `turnup` with a card
        turned up; `trump_if` public) is in force, and shown, from the start of the deal."""
        ref = self.ref
        if ref.fixed_trump >= 0:
            self.trump = ref.fixed_trump
        elif ref.trump_turnup and self.turned_up >= 0:  # lying there, or in the dealer's hand
            self.trump = ref.eval.suit(self.turned_up)
        elif ref.trump_stock_top and self.stock:
            self.trump = ref.eval.suit(self.stock[0])
        elif ref.trump_rule is not None:  # each suit's name is its number there
            suit = ref.eval(ref.trump_rule, {**self._public_env(), **ref.suit_numbers})
            if not 0 <= suit < len(ref.suit_numbers):
                raise OutOfRange(f"play.trump gives {suit}, not a suit")
            self.trump = suit
        if self.trump >= 0 and ref.trump_if is not None:
            if not ref.eval(ref.trump_if, self._public_env()):
                self.trump = -1

    def _public_env(self) -> dict[str, Any]:
        """The public names of the deal (`deal.size`, `play.trump_if`): the deal number,
        the target, the players, the deck's size and the deal's size."""
        return {
            "deal_number": self.context[self.active[0]]["deal_number"],
            "target": self.ref.target,
            "players": len(self.active),
            "deck_size": self.ref.size,
            "size": self.size,
        }

    def _deal(self, deck_order: Sequence[int]) -> None:
        """C2 and the pattern as written: packets from the top in deal order (`N each`, `N N
        .. round`, `N talon`, `N stock`, `1 turnup`, `rest stock`, `rest out`), with `size`
        worked out from the public match state; a packet other than a hand's takes what is
        left (a turn-up with no card left is none)."""
        ref = self.ref
        size = 1
        if ref.size_rule is not None:
            size = in_range(ref.eval(ref.size_rule, self._public_env()), "deal.size")
            if not 0 <= size <= ref.size:
                raise OutOfRange(f"deal.size gives {size}, outside 0..{ref.size}")
        self.size = size

        def number(word: str) -> int:
            return size if word == "size" else int(word)

        pos = 0

        def take(count: int) -> list[int]:
            nonlocal pos
            cards = list(deck_order[pos : pos + count])
            pos += len(cards)
            return cards

        places = {"talon": self.talon, "stock": self.stock, "out": self.out}
        for parts in ref.pattern:
            if parts[0] == "rest":
                places[parts[1]].extend(take(len(deck_order) - pos))
            elif parts[-1] == "round":
                for seat, word in zip(self.active, parts[:-1], strict=True):
                    self.hands[seat] += take(number(word))
            elif tuple(parts[1:3]) == ("turnup", "to"):  # `1 turnup to dealer`: face up, his own
                card = take(1)
                self.hands[self.dealer] += card
                self.turned_up = (card or [-1])[0]
            else:
                count = number(parts[0])
                times = number(parts[2]) if len(parts) == 4 else 1
                for _ in range(times):
                    if parts[1] == "each":
                        for seat in self.active:
                            self.hands[seat] += take(count)
                    elif parts[1] == "turnup":
                        self.turnup = self.turned_up = (take(1) or [-1])[0]
                    else:
                        places[parts[1]].extend(take(count))

    def _stage(self, stage: str, seat: int) -> bool:
        self.stage = stage
        self.to_act = seat
        self.offer_at = -1  # a round of offers before a card ends with trick play
        return True

    def turn_stock_top(self) -> None:
        """With `stock_top: shown`, the card now on top of an open stock lies face up."""
        if not (self.ref.stock_top_shown and self.stock and not self.stock_closed):
            return
        drawn = self.stock_dealt - len(self.stock)
        if not self.stock_shown or self.stock_shown[-1][0] != drawn:
            self.stock_shown.append((drawn, self.stock[0]))
            for seen in self.seen:  # every player sees it
                seen.add(self.stock[0])

    def turnup_suit(self) -> int:
        """`turnup_suit`: the suit of the turned-up card while it lies there, else -1."""
        return self.ref.eval.suit(self.turnup) if self.turnup >= 0 else -1

    def out_left(self) -> int:
        """`out_left`: the cards left out of the deal that nobody has held."""
        return sum(1 for c in self.out if c not in self.laid_out)

    def stock_left(self) -> int:
        """Cards in the stock, the turn-up included (also one that just lies face up, the
        rest of the deck out: Observation.stock_size "the turned-up card included")."""
        return len(self.stock) + (1 if self.turnup >= 0 else 0)

    def relations(self) -> tuple[list[int], list[int]]:
        """Each card's effective suit and power now (trump, qualifier, options chosen)."""
        return self.ref.relations(self.trump, self.qualifier, self.chosen, self.strain)

    def led_suit(self, cards: Sequence[tuple[int, int]]) -> int:
        """The suit led to these cards of a trick: the first card's (T14), or the first
        card's that sets it (`play.sets_suit_if`); -1 when none has."""
        setters = self.ref.setters(self.trump, self.qualifier, self.chosen, self.strain)
        return self.ref.led(self.relations()[0], setters, cards)

    def points(self, trump: int | None = None) -> list[int]:
        """Each card's points under the deal's call and choices, with `trump` (else the trump
        in force now)."""
        in_force = self.trump if trump is None else trump
        return self.ref.points_for(in_force, self.qualifier, self.chosen, self.strain)

    # ------------------------------------------------------------ the names of any player
    def contract_env(self, seat: int) -> dict[str, Any]:
        """What every player knows of the contract and of a seat's role in it."""
        d = self.declarer
        return {  # (each name as CONTRACT_GETS has it)
            "contract": self.contract,
            "doubled": self.doubled == 1,
            "redoubled": self.doubled == 2,
            "bid_round": self.bid_round,
            "declarer_side": d >= 0 and seat in self.side(d),
            "side": self.side_number(seat),
            "dealer": seat == self.dealer,
            STRAIN: self.strain,
        }

    def side(self, seat: int) -> tuple[int, ...]:
        """The seats of `seat`'s side in this deal: as `side_if` formed them, else the
        file's `sides:` (else himself alone)."""
        if self.formed is not None:
            return self.formed[seat]
        return self.ref.side(seat, self.seats)

    def side_number(self, seat: int) -> int:
        """`side`: 0 for the players for whom `side_if` held, 1 for the others; without it
        the place of his side in `sides:` (without those: his seat)."""
        if self.formed is not None:
            return 0 if seat in self.team else 1
        return self.ref.side_index(seat)

    def role_env(self, seat: int, others: bool = True) -> dict[str, Any]:
        """The names `sit_out_if` and `pickup.take_if` read for a player (and, for the
        aggregates, the other players')."""
        env = {
            **self.context[seat],
            "declarer": seat == self.declarer,
            "players": len(self.active),
            **self.contract_env(seat),
        }
        if others:
            self._with_table(env, seat, lambda x: self.role_env(x, others=False))
        return env

    def open_env(self, seat: int, others: bool = True) -> dict[str, Any]:
        """The names `open_hand_if`, `stop_if` (and `counts_for_if`) read for a player (and,
        for the aggregates, the other players')."""
        env = {
            "declarer": seat == self.declarer,
            "tricks_won": self.tricks_won[seat],
            "tricks_played": len(self.tricks),
            "cards_played": self.cards_played,
            **self.contract_env(seat),
            **self.context[seat],
        }
        if others:  # the others' names made when an aggregate first reads them
            partners = self.side(seat)

            def table() -> list[dict[str, Any]]:
                return [env if x == seat else self.open_env(x, others=False) for x in self.active]

            env[TABLE] = _OnRead(table)
            env[SIDE] = _OnRead(lambda: [e for x, e in zip(self.active, table()) if x in partners])
        return env

    def _with_table(self, env: dict[str, Any], seat: int, env_of: Any) -> None:
        """Give `env` (seat's) the views of the aggregates: TABLE, the players of the deal;
        SIDE, those of them on his side (himself included)."""
        partners = self.side(seat)
        table = [env if x == seat else env_of(x) for x in self.active]
        env[TABLE] = table
        env[SIDE] = [e for x, e in zip(self.active, table) if x in partners]

    def _sits_out(self, seat: int) -> bool:
        """`sit_out_if` for a player (worked out as trick play begins, and for the taker
        of a pickup)."""
        rule = self.ref.sit_out_if
        if rule is None:
            return False
        env = self.role_env(seat)
        return bool(self.ref.eval(rule, env, hand=self.hands[seat], qualifier=self.qualifier))

    def won_last_trick(self, seat: int) -> bool:
        """He won the deal's last trick, and the deal was played out (not ended early)."""
        return bool(self.tricks) and self.tricks[-1][1] == seat and not self.ended_early


class _OnRead:
    """A list of players' names made the first time it is read (an aggregate's view)."""

    def __init__(self, make: Callable[[], list[dict[str, Any]]]) -> None:
        self._make = make
        self._items: list[dict[str, Any]] | None = None

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._items is None:
            self._items = self._make()
        return iter(self._items)


# the names of `contract_env` (what every player knows of the contract and of a seat's
# role in it), each worked out alone, as `contract_env` works it out (for the names a
# decision reads: `ReplayScoring.names_read`)
CONTRACT_GETS: tuple[tuple[str, Callable[[DealState, int], Any]], ...] = (
    ("contract", lambda r, seat: r.contract),
    ("doubled", lambda r, seat: r.doubled == 1),
    ("redoubled", lambda r, seat: r.doubled == 2),
    ("bid_round", lambda r, seat: r.bid_round),
    ("declarer_side", lambda r, seat: r.declarer >= 0 and seat in r.side(r.declarer)),
    ("side", lambda r, seat: r.side_number(seat)),
    ("dealer", lambda r, seat: seat == r.dealer),
)
