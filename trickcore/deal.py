"""The state of one deal of a trick-taking game, driven through its declared flow of phases
(`deal { flow: ... }`: redeal offer, auction, talon, contract raise, tricks), then scored."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action
from .exprs import QUALIFIER_KEY
from .limits import in_range
from .observation import Declaration, Observation, TrickView
from .state import OVER, DealState

if TYPE_CHECKING:
    from .game import Game
    from .phases import Phase


class Deal(DealState):
    """One deal, from the cards dealt to the deal scores. Made by Game.new_deal."""

    def __init__(
        self,
        game: Game,
        deck_order: list[int],
        dealer: int,
        seats: int,
        context: list[dict[str, Any]] | None = None,
    ) -> None:
        model = game.model
        assert model.tricks is not None, "a trick deal needs a trick-taking variant"
        self.rules = model.tricks
        super().__init__(game, deck_order, dealer, seats, context)
        order = self.active
        self.talon: list[int] = []
        pos = 0
        for packet in model.deal.pattern:
            if packet.to == "each":
                for s in order:
                    self.hands[s].extend(self.deck_order[pos : pos + packet.count])
                    pos += packet.count
            else:
                self.talon.extend(self.deck_order[pos : pos + packet.count])
                pos += packet.count
        self.bids: list[tuple[int, Action]] = []
        self.high: tuple[int, int] | None = None
        self.high_bidder = -1
        self.in_auction = list(order)
        self.passes_in_row = 0
        self.declarer = -1
        self.contract = 0
        self.qualifier = ""
        self.talon_shown: tuple[int, ...] | None = None
        self.gives_left: dict[int, int] = {}
        self.received: dict[int, list[int]] = {s: [] for s in order}
        self.talon_taken: dict[int, list[int]] = {s: [] for s in order}
        self.trump = -1
        self.trick: list[tuple[int, int]] = []
        self.leader = -1
        self.tricks: list[TrickView] = []
        self.tricks_won = [0] * seats
        self.card_points = [0] * seats
        self.leads = [0] * seats
        self.declarations: list[Declaration] = []
        self.gains: list[int] | None = None
        self.results: list[dict[str, Any]] = []
        self.redealt = False
        self.redeal_by = -1
        self.tricks_total = 0
        self.redeal_queue: list[int] = []
        self.to_act = -1
        self._flow: list[Phase] = game.flow
        self._step = -1
        self._current: Phase | None = None
        self.next_phase()

    # ------------------------------------------------------------ the flow
    def next_phase(self) -> None:
        """Enter the next phase of the flow that has something to decide; after the last,
        score the deal."""
        flow = self._flow
        while self._step + 1 < len(flow):
            self._step += 1
            phase = flow[self._step]
            self.phase = phase.name
            if phase.start(self):
                self._current = phase
                return
        self._current = None
        self._score()

    def end_unplayed(self, by: int) -> None:
        """The deal ends without being played: a redeal demanded by `by` (S5), or thrown in
        when nobody bids (by = -1)."""
        self.redealt = True
        self.redeal_by = by
        self.phase = OVER
        self.to_act = -1
        self._current = None

    def _compute_legal(self) -> list[Action]:
        current = self._current
        return [] if current is None or self.phase == OVER else current.legal(self)

    def _do(self, action: Action) -> None:
        assert self._current is not None
        self._current.apply(self, action)

    # ------------------------------------------------------------ scoring
    def _score(self) -> None:
        gains = [0] * self.seats
        results: list[dict[str, Any]] = [{} for _ in range(self.seats)]
        scoring = self.rules.scoring
        for seat in self.active:
            env = self._scored_env(seat)
            role = "declarer" if seat == self.declarer else "defender"
            gains[seat] = (scoring.declarer if role == "declarer" else scoring.defender)(env)
            in_range(gains[seat], f"scoring's {role} score", None)
            results[seat] = env
        self.gains = gains
        self.results = results
        self.phase = OVER
        self.to_act = -1

    def result_env(self, seat: int) -> dict[str, Any]:
        """The quantities a scoring rule reads for one seat at the end of the deal."""
        game = self.game
        own = [d for d in self.declarations if d.seat == seat]
        env = dict(game.result_base)
        env.update(
            tricks_won=self.tricks_won[seat],
            tricks_total=self.tricks_total,
            declarer=seat == self.declarer,
            card_points=self.card_points[seat],
            meld_points=0,
            melds_declared=sum(d.value for d in own),
            contract=self.contract,
            players=len(self.active),
        )
        env[QUALIFIER_KEY] = self.qualifier
        env.update(self.context[seat])
        melds = game.model.melds
        env["meld_points"] = sum(
            d.value for d in own if melds[game.meld_index[d.meld]].counts_if(env)
        )
        return env

    def _scored_env(self, seat: int) -> dict[str, Any]:
        env = self.result_env(seat)
        for name, fn in self.rules.scoring.definitions:
            env[name] = value = fn(env)
            in_range(value, f"scoring definition '{name}'", None)
        return env

    def final_env(self, seat: int) -> dict[str, Any]:
        """The scoring quantities and definitions of a seat after the deal (for after_deal)."""
        if self.results and self.results[seat]:
            return dict(self.results[seat])
        return self._scored_env(seat)

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
        ct = deck.card_text
        others_received: dict[int, int] = {s: len(v) for s, v in self.received.items() if s != seat}
        given: tuple[tuple[int, tuple[str, ...]], ...] = ()
        if seat >= 0 and seat == self.declarer:
            given = tuple((s, tuple(ct(c) for c in v)) for s, v in self.received.items() if v)
        return Observation(
            seat=seat,
            phase=self.phase,
            to_act=self.to_act,
            dealer=self.dealer,
            players_in_deal=tuple(self.active),
            hand=tuple(ct(c) for c in sorted(self.hands[seat])) if seat >= 0 else (),
            hand_sizes=tuple(len(h) for h in self.hands),
            talon_size=len(self.talon),
            talon_shown=None
            if self.talon_shown is None
            else tuple(ct(c) for c in self.talon_shown),
            talon_taken=tuple(ct(c) for c in self.talon_taken.get(seat, ())),
            received=tuple(ct(c) for c in self.received.get(seat, ())),
            cards_received_by_others=tuple(sorted(others_received.items())),
            given=given,
            bids=tuple((s, a.text) for s, a in self.bids),
            declarer=self.declarer,
            contract=self.contract,
            qualifier=self.qualifier,
            trump=None if self.trump < 0 else deck.suits[self.trump].name,
            trick=tuple((s, ct(c)) for s, c in self.trick),
            tricks=tuple(
                (t.leader, tuple((s, ct(c)) for s, c in t.cards), t.winner) for t in self.tricks
            ),
            declarations=tuple(
                (d.seat, d.meld, deck.suits[d.suit].name, d.value) for d in self.declarations
            ),
            tricks_won=tuple(self.tricks_won),
            card_points_taken=tuple(self.card_points) if self.phase == OVER else None,
            gains=None if self.gains is None else tuple(self.gains),
            redealt=self.redealt,
            log=tuple((s, self._seen_as(a, s, seat)) for s, a in self.history),
        )

    def _seen_as(self, action: Action, actor: int, seat: int) -> str:
        """An action's text as `seat` saw it: the card of a give only its giver and taker see."""
        if action.kind == "give" and seat not in (actor, action.to):
            return f"give a card to {action.to}"
        return action.text
