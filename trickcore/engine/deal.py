"""The state of one deal of a trick-taking game, driven through its declared flow of phases
(`deal { flow: ... }`: redeal offer, auction, talon, contract raise, tricks), then scored:
`Deal`, with what each seat may know of it (its views). Built as a line of classes, one
job each: `deal_core.DealCore` (state and flow), `deal_roles.DealRoles` (roles and sides),
`deal_scoring.DealScoring` (results and scores), `Deal` (views)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..language.exprs import CARD_KEY
from ..language.limits import check_seat
from .actions import Action
from .observation import Observation
from .records import TrickView
from .state import OVER

if TYPE_CHECKING:
    pass


from .deal_scoring import DealScoring
from .phases.lay_away import shown_if_laid_now
from .phases.passing import pass_moves


class Deal(DealScoring):
    """One deal, from the cards dealt to the deal scores. Made by Game.new_deal."""

    __slots__ = ()

    # ------------------------------------------------------------ views
    def _observe(self, seat: int) -> Observation:
        """What `seat` may know now, and nothing more."""
        deck = self.game.model.deck
        ct = self.game.card_texts.__getitem__  # a card's text (made once per game)
        others_received: dict[int, int] = {s: len(v) for s, v in self.received.items() if s != seat}
        given: tuple[tuple[int, tuple[str, ...]], ...] = ()
        if seat >= 0 and seat == self.declarer:
            given = tuple((s, tuple(ct(c) for c in v)) for s, v in self.received.items() if v)
        for done in (self.passed, self.passed_back) if self.passed else ():
            if seat >= 0 and seat in done:
                for taker, cards in done[seat]:
                    given = (*given, (taker, tuple(ct(c) for c in cards)))
        hand, talon_shown, received, set_aside, laid_away, turnup = self._private_parts(seat)
        return Observation(
            seat=seat,
            deal_number=self.context[0].get("deal_number", 1),
            phase=self.phase,
            to_act=self.to_act,
            dealer=self.dealer,
            players_in_deal=tuple(self.active),
            hand=hand,
            hand_sizes=tuple(map(len, self.hands)),
            talon_size=len(self.talon),
            talon_shown=talon_shown,
            talon_taken=tuple(map(ct, self.talon_taken.get(seat, ()))),
            received=received,
            cards_received_by_others=tuple(sorted(others_received.items())),
            given=given,
            bids=tuple([(s, a.text) for s, a in self.bids]),
            declarer=self.declarer,
            contract=self.contract,
            qualifier=self.qualifier,
            trump=None if self.trump < 0 else deck.suits[self.trump].name,
            trick=tuple([(s, ct(c)) for s, c in self.trick]),
            tricks=self._grown("tricks", self.tricks, self._trick_view),
            declarations=tuple(
                [
                    (d.seat, d.meld, deck.suits[d.suit].name if d.suit >= 0 else "", d.value)
                    for d in self.declarations
                ]
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
            set_aside=set_aside,
            pass_to=self.pass_to,
            passes=self._passes() if self.passed else (),
            open_hands=self._open_hands(seat),
            laid_away=laid_away,
            turnup=turnup,
            turned_up=ct(self.turned_up) if self.turned_up >= 0 else None,
            stock_size=len(self.stock) + (self.turnup >= 0),
            stock_closed=self.stock_closed,
            stock_top=ct(top) if (top := self.stock_top()) >= 0 else None,
            stock_shown=tuple([(k, ct(c)) for k, c in self.stock_shown]),
            announced=None
            if self.announced is None
            else (
                self.to_act,
                self.game.model.melds[self.announced[0]].name,
                deck.suits[self.announced[1]].name if self.announced[1] >= 0 else "",
            ),
            deal_keep=tuple(
                [
                    (s, name, context[name])
                    for s in self.active
                    for context in (self.context[s],)
                    for name in self.game.deal_keep_names
                ]
            ),
            sitting_out=tuple([s for s in self.active if s not in self.playing]),
            playing_for=self.turn
            if self.phase == "play" and self.turn >= 0 and self.turn != self.to_act
            else None,
            contract_text=self.contract_text(),
        )

    def _passes(self) -> tuple[tuple[int, int, int, bool], ...]:
        """Every pass made, public: (giver, taker, how many cards, passed back), those passed
        back last."""
        return tuple(
            [
                (g, t, len(cs), back)
                for back, done in ((False, self.passed), (True, self.passed_back))
                for g, t, cs in pass_moves(done)
            ]
        )

    def _private_parts(self, seat: int) -> tuple[Any, ...]:
        """The parts of `seat`'s view that only it sees (its observation's hand,
        talon_shown, received, set_aside, laid_away and turnup), as the observation has them."""
        ct = self.game.card_texts.__getitem__
        received = list(self.received.get(seat, ()))
        if self.passed and seat >= 0:
            received += [
                c
                for _, taker, cards in pass_moves(self.passed, self.passed_back)
                if taker == seat
                for c in cards
            ]
        sees_hand = seat >= 0 and self.looked[seat]
        return (
            tuple(map(ct, sorted(self.hands[seat]))) if sees_hand else (),
            tuple(map(ct, self.talon_shown))
            if self.talon_shown is not None
            else tuple(map(ct, self.talon))
            if self.phase == OVER and self.talon
            else None,
            tuple(map(ct, received)),
            tuple(map(ct, self.set_aside.get(seat, ()))),
            tuple(map(ct, self.laid_away))
            if seat == self.lay_away_by or self._discards_public()
            else tuple(map(ct, self.laid_shown)),
            ct(self.turnup)
            if self.turnup >= 0 and not self.stock_closed
            else ct(self.picked_card)
            if self.picked_card >= 0 and self.leader < 0
            else None,
        )

    def private_view(self, seat: int) -> tuple[int, tuple[tuple[str, Any], ...]]:
        """What of `seat`'s view only it sees, as its observation has it, without making the
        whole observation: the length of the log, and its hand, the talon shown to it, the
        cards it received, set aside and laid away and the turned-up card, each named."""
        parts = self._private_parts(check_seat(seat, self.seats))
        names = ("hand", "talon", "received", "set_aside", "laid_away", "turnup")
        return len(self.history), tuple(zip(names, parts))

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
        play = self.rules.play
        for s in self.active:
            if s == seat:
                continue
            env = self.open_view(s)
            if not play.open_cards:  # the whole hand, or none of it
                if rule(env):
                    out.append((s, tuple(ct(c) for c in sorted(self.hands[s]))))
                continue
            first = play.open_hand_player  # the part of it about him: none of his shown
            shown = self._open_cards(s, env) if first is None or first(env) else []
            if shown:
                out.append((s, tuple(ct(c) for c in shown)))
        return tuple(out)

    def _open_cards(self, seat: int, env: dict[str, Any]) -> list[int]:
        """The cards of `seat`'s hand `open_hand_if` shows, read card by card (over `env`,
        his names, and each card's)."""
        rule = self.rules.play.open_hand_if
        assert rule is not None
        game = self.game
        in_combination: frozenset[int] = frozenset()
        if self.rules.play.open_combination and self.start_hands:
            hand = self.start_hands.get(seat, [])
            in_combination = game.combination_cards(hand, self.trump)
        suit_of = game.suit_of
        trump = self.trump
        shown = []
        for c in sorted(self.hands[seat]):
            env[CARD_KEY] = c
            env["card_in_trump_suit"] = suit_of[c] == trump
            env["card_in_combination"] = c in in_combination
            if rule(env):
                shown.append(c)
        return shown

    def _trick_view(self, t: TrickView) -> tuple[int, tuple[tuple[int, str], ...], int]:
        texts = self.game.card_texts
        return (t.leader, tuple([(s, texts[c]) for s, c in t.cards]), t.winner)

    def _seen_as(self, action: Action, actor: int, seat: int) -> str:
        """An action's text as `seat` saw it: the card of a give only its giver and taker see."""
        if action.kind == "give" and seat not in (actor, action.to):
            return f"give a card to {action.to}"
        if action.kind == "pass_card" and seat != actor:
            return "pass a card"
        if action.kind == "discard" and seat != actor and not self._discards_public():
            # laid away face up (`lay_away_shown_if`): as it was, or, still in the hand
            # (an action about to be taken), as it would be
            if action.card not in self.laid_shown and not (
                action.card in self.hands[actor] and shown_if_laid_now(self, actor, action.card)
            ):
                return "discard a card"
        return action.text
