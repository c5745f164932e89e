"""The state of one deal of a trick-taking game with an auction: bid, talon, play, score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action
from .errors import RulesError
from .exprs import CARD_KEY, HAND_KEY, QUALIFIER_KEY
from .observation import Declaration, Observation, TrickView
from .state import OVER, DealState

if TYPE_CHECKING:
    from .game import Game

REDEAL, BID, GIVE, RAISE, PLAY = "redeal", "bid", "give", "raise", "play"
MAX_BIDS = 1000


def check_count(span: int, step: int, what: str) -> None:
    """A cap may offer at most MAX_BIDS values above the current bid (a RulesError if more)."""
    if span // step > MAX_BIDS:
        raise RulesError(
            f"{what} is {span} above the current bid, more than {MAX_BIDS} steps of {step}: "
            "the rules file allows too many bids (the limit of legal actions)"
        )


class Deal(DealState):
    """One deal, from the cards dealt to the deal scores. Made by Game.new_deal."""

    def __init__(self, game: Game, deck_order: list[int], dealer: int, seats: int) -> None:
        model = game.model
        assert model.tricks is not None, "a trick deal needs a trick-taking variant"
        self.rules = model.tricks
        super().__init__(game, deck_order, dealer, seats)
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
        self.to_act = -1
        if model.redeal is not None:
            self.phase = REDEAL
            self._redeal_queue = list(order)
            self._advance_redeal()
        else:
            self._start_bidding()

    def _do(self, action: Action) -> None:
        kind = action.kind
        if kind == "play" or kind == "marry":
            self._play(action)
        elif kind == "bid" or kind == "pass":
            self._bid(action)
        elif kind == "give":
            self._give(action)
        elif kind == "raise" or kind == "keep_contract":
            self._raise(action)
        else:
            self._redeal_answer(action)

    # ------------------------------------------------------------ redeal
    def _advance_redeal(self) -> None:
        """Every player is asked in turn from forehand (S5), so that being asked reveals
        nothing; only a player whose hand allows it is offered `redeal` beside `keep`."""
        if self._redeal_queue:
            self.to_act = self._redeal_queue[0]
        else:
            self._start_bidding()

    def _redeal_legal(self) -> list[Action]:
        model = self.game.model
        assert model.redeal is not None
        env = self.game.hand_env(self.hands[self.to_act], 0, len(self.active))
        if model.redeal.allowed_if(env):
            return [self.game.actions.redeal, self.game.actions.keep]
        return [self.game.actions.keep]

    def _redeal_answer(self, action: Action) -> None:
        seat = self._redeal_queue.pop(0)
        if action.kind == "redeal":
            self.redealt = True
            self.redeal_by = seat
            self.phase = OVER
            self.to_act = -1
            return
        self._advance_redeal()

    # ------------------------------------------------------------ bidding
    def _start_bidding(self) -> None:
        self.phase = BID
        self.to_act = self.active[0]

    def _bid_legal(self) -> list[Action]:
        game = self.game
        b = self.rules.bidding
        seat = self.to_act
        cap = b.cap(
            game.hand_env(self.hands[seat], self.high[0] if self.high else 0, len(self.active))
        )
        quals = game.qualifiers
        out: list[Action] = []
        table = game.actions
        if self.high is None:
            if b.opening_exact:
                values = [b.opening]
            else:
                top = max(cap, b.opening)
                check_count(top - b.opening, b.step, "the bid cap")
                values = list(range(b.opening, top + 1, b.step))
            for v in values:
                for q in quals:
                    out.append(table.bid(v, q))
            if not b.forced_opening:
                out.append(table.pass_)
            return out
        hv, hq = self.high
        check_count(cap - hv, b.step, "the bid cap")
        for qi, q in enumerate(quals):
            if qi > hq and hv <= cap:
                out.append(table.bid(hv, q))
        v = hv + b.step
        while v <= cap:
            for q in quals:
                out.append(table.bid(v, q))
            v += b.step
        out.append(table.pass_)
        return out

    def _bid(self, action: Action) -> None:
        b = self.rules.bidding
        seat = self.to_act
        self.bids.append((seat, action))
        if action.kind == "bid":
            self.high = (action.value, self.game.qualifiers.index(action.qualifier))
            self.high_bidder = seat
            self.passes_in_row = 0
        else:
            self.passes_in_row += 1
            if b.pass_drops_out:
                self.in_auction.remove(seat)
        if b.pass_drops_out:
            enough = b.ends_after_passes is not None and self.passes_in_row >= b.ends_after_passes
            if self.high is not None and (len(self.in_auction) == 1 or enough):
                return self._end_auction()
            if not self.in_auction:
                return self._throw_in()
        elif self.passes_in_row >= (b.ends_after_passes or 0):
            return self._end_auction() if self.high is not None else self._throw_in()
        order = self.in_auction if b.pass_drops_out else self.active
        n = len(self.active)
        i = self.active.index(seat)
        for k in range(1, n + 1):
            nxt = self.active[(i + k) % n]
            if nxt in order:
                self.to_act = nxt
                return

    def _throw_in(self) -> None:
        self.redealt = True
        self.phase = OVER
        self.to_act = -1

    def _end_auction(self) -> None:
        assert self.high is not None
        game = self.game
        self.declarer = self.high_bidder
        self.contract = self.high[0]
        self.qualifier = game.qualifiers[self.high[1]]
        talon_rules = self.rules.talon
        env = {QUALIFIER_KEY: self.qualifier}
        if talon_rules.split_if is not None and talon_rules.split_if(env):
            i = self.active.index(self.declarer)
            n = len(self.active)
            for k, card in enumerate(self.talon):
                seat = self.active[(i + k) % n]
                self.hands[seat].append(card)
                self.talon_taken[seat].append(card)
            self.talon = []
            return self._start_raise()
        if talon_rules.show:
            self.talon_shown = tuple(self.talon)
        self.hands[self.declarer].extend(self.talon)
        self.talon_taken[self.declarer].extend(self.talon)
        self.talon = []
        if talon_rules.give_each_defender:
            self.gives_left = {
                s: talon_rules.give_each_defender for s in self.active if s != self.declarer
            }
            self.phase = GIVE
            self.to_act = self.declarer
            return
        self._start_raise()

    # ------------------------------------------------------------ talon
    def _give_legal(self) -> list[Action]:
        give = self.game.actions.give
        targets = [s for s, n in self.gives_left.items() if n > 0]
        return [give[c][s] for c in sorted(self.hands[self.declarer]) for s in targets]

    def _give(self, action: Action) -> None:
        self.hands[self.declarer].remove(action.card)
        self.hands[action.to].append(action.card)
        self.received[action.to].append(action.card)
        self.gives_left[action.to] -= 1
        if not any(self.gives_left.values()):
            self._start_raise()

    def _start_raise(self) -> None:
        if self.rules.contract.raise_allowed:
            self.phase = RAISE
            self.to_act = self.declarer
        else:
            self._start_play()

    def _raise_legal(self) -> list[Action]:
        game = self.game
        c = self.rules.contract
        cap = c.cap(game.hand_env(self.hands[self.declarer], self.contract, len(self.active)))
        out = [game.actions.keep_contract]
        check_count(cap - self.contract, c.step, "the contract cap")
        v = self.contract + c.step
        while v <= cap:
            out.append(game.actions.raise_to(v))
            v += c.step
        return out

    def _raise(self, action: Action) -> None:
        if action.kind == "raise":
            self.contract = action.value
        self._start_play()

    # ------------------------------------------------------------ play
    def _start_play(self) -> None:
        self.phase = PLAY
        first = self.declarer if self.rules.play.first_leader == "declarer" else self.active[0]
        self.leader = first
        self.to_act = first
        self.tricks_total = len(self.hands[self.declarer])

    def _play_legal(self) -> list[Action]:
        game = self.game
        hand = self.hands[self.to_act]
        suit_of = game.suit_of
        play = game.actions.play
        trick = self.trick
        if not trick:
            leads = sorted(hand)
            lead_if = self.rules.play.lead_if
            if lead_if is not None:
                leads = self._allowed_leads(leads, lead_if)
            out = [play[c] for c in leads]
            if game.meld_of_card:
                out.extend(self._marriage_leads(leads))
            return out
        rules = self.rules.play
        rank_of = game.rank_of
        led = suit_of[trick[0][1]]
        trump = self.trump
        cards: list[int] = hand
        same = [c for c in hand if suit_of[c] == led]
        if same and rules.follow:
            cards = same
            if rules.beat_in_suit:
                trumped = trump != led and any(suit_of[c] == trump for _, c in trick)
                if not trumped:
                    best = min(rank_of[c] for _, c in trick if suit_of[c] == led)
                    beaters = [c for c in same if rank_of[c] < best]
                    if beaters:
                        cards = beaters
        elif not same and trump >= 0 and rules.trump_when_void:
            trumps = [c for c in hand if suit_of[c] == trump]
            if trumps:
                cards = trumps
                if rules.overtrump:
                    in_trick = [rank_of[c] for _, c in trick if suit_of[c] == trump]
                    if in_trick:
                        best = min(in_trick)
                        over = [c for c in trumps if rank_of[c] < best]
                        if over:
                            cards = over
        return [play[c] for c in sorted(cards)]

    def _allowed_leads(self, cards: list[int], lead_if: Any) -> list[int]:
        """The cards `play.lead_if` allows this seat to lead now."""
        seat = self.to_act
        suit_of = self.game.suit_of
        trump = self.trump
        hand = self.hands[seat]
        env: dict[str, Any] = {
            "first_lead": self.leads[seat] == 0,
            "tricks_played": len(self.tricks),
            "tricks_won": self.tricks_won[seat],
            "declarer": seat == self.declarer,
            "trump_set": trump >= 0,
            "trump_broken": trump >= 0
            and any(suit_of[c] == trump for t in self.tricks for _, c in t.cards),
            "hand_size": len(hand),
            HAND_KEY: hand,
        }
        allowed = []
        for c in cards:
            env[CARD_KEY] = c
            env["card_is_trump"] = suit_of[c] == trump
            if lead_if(env):
                allowed.append(c)
        return allowed

    def _marriage_leads(self, leads: list[int]) -> list[Action]:
        game = self.game
        seat = self.to_act
        hand = self.hands[seat]
        out = []
        env: dict[str, Any] | None = None
        held = set(hand)
        for c in leads:
            for mi, _suit, _value, cards in game.meld_of_card.get(c, ()):
                if all(x in held for x in cards):
                    if env is None:
                        env = {
                            "tricks_won": self.tricks_won[seat],
                            "tricks_played": len(self.tricks),
                            "declarer": seat == self.declarer,
                            "first_lead": self.leads[seat] == 0,
                            HAND_KEY: hand,
                        }
                    if game.model.melds[mi].declare_if(env):
                        out.append(game.actions.marry[c])
                        break
        return out

    def _play(self, action: Action) -> None:
        game = self.game
        seat = self.to_act
        card = action.card
        self.hands[seat].remove(card)
        if not self.trick:
            self.leads[seat] += 1
            if action.kind == "marry":
                self._declare(seat, card)
        self.trick.append((seat, card))
        n = len(self.active)
        if len(self.trick) < n:
            i = self.active.index(seat)
            self.to_act = self.active[(i + 1) % n]
            return
        winner = self._trick_winner()
        pts = game.points_of
        self.card_points[winner] += sum(pts[c] for _, c in self.trick)
        self.tricks_won[winner] += 1
        self.tricks.append(TrickView(self.leader, tuple(self.trick), winner, self.trump))
        self.trick = []
        self.leader = winner
        self.to_act = winner
        if len(self.tricks) == self.tricks_total:
            self._score()

    def _declare(self, seat: int, card: int) -> None:
        game = self.game
        held = set(self.hands[seat]) | {card}
        for mi, suit, value, cards in game.meld_of_card[card]:
            if all(x in held for x in cards):
                self.declarations.append(
                    Declaration(seat, game.model.melds[mi].name, suit, value, len(self.tricks))
                )
                if game.model.melds[mi].sets_trump:
                    self.trump = suit
                return

    def _trick_winner(self) -> int:
        suit_of = self.game.suit_of
        rank_of = self.game.rank_of
        trump = self.trump
        trick = self.trick
        lead_suit = suit_of[trick[0][1]]
        best_seat, best = trick[0]
        best_trump = suit_of[best] == trump
        for seat, c in trick[1:]:
            s = suit_of[c]
            if s == trump:
                if not best_trump or rank_of[c] < rank_of[best]:
                    best_seat, best, best_trump = seat, c, True
            elif not best_trump and s == lead_suit and rank_of[c] < rank_of[best]:
                best_seat, best = seat, c
        return best_seat

    # ------------------------------------------------------------ scoring
    def _score(self) -> None:
        gains = [0] * self.seats
        results: list[dict[str, Any]] = [{} for _ in range(self.seats)]
        scoring = self.rules.scoring
        for seat in self.active:
            env = self._scored_env(seat)
            rule = scoring.declarer if seat == self.declarer else scoring.defender
            gains[seat] = rule(env)
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
        melds = game.model.melds
        env["meld_points"] = sum(
            d.value for d in own if melds[game.meld_index[d.meld]].counts_if(env)
        )
        return env

    def _scored_env(self, seat: int) -> dict[str, Any]:
        env = self.result_env(seat)
        for name, fn in self.rules.scoring.definitions:
            env[name] = fn(env)
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

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            return self._play_legal()
        if phase == BID:
            return self._bid_legal()
        if phase == GIVE:
            return self._give_legal()
        if phase == RAISE:
            return self._raise_legal()
        if phase == REDEAL:
            return self._redeal_legal()
        return []
