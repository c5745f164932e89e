"""`TrickReplay`: a trick deal followed action by action from its deck order, without the
engine: the flow of its phases, the legal actions of the seat to act, one action followed.
Each job is a part of its own (see the bases); this is where they meet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .auction import AuctionReplay
from .card_phases import CardPhases
from .deal_state import OVER
from .errors import ReferenceError
from .trick_play import TrickPlayReplay
from .variant import Reference
from .views import ReplayViews


class TrickReplay(AuctionReplay, CardPhases, TrickPlayReplay, ReplayViews):
    """A trick deal followed action by action from its deck order, without the engine.

    `stage` is the phase the rules are in (the engine's phase names: redeal, pass, bid,
    bids, give, raise, decide, play, over) and `to_act` the seat to act; `legal()` lists the
    texts of the actions the rules allow that seat now; `apply` follows one action.
    """

    def __init__(
        self,
        ref: Reference,
        deck_order: Sequence[int],
        dealer: int,
        seats: int,
        context: Sequence[Mapping[str, Any]] | None = None,
        watch: bool = True,
    ) -> None:
        super().__init__(ref, deck_order, dealer, seats, context, watch)
        self._fixed_trump()
        self._flow_on()
        if ref.first_leader == "holder" and not self._pass_offset():
            self._leader_card_public()
        self._show_open_hands()

    # ------------------------------------------------------------ the flow
    def _flow_on(self) -> None:
        """Enter the next phase of the flow that has something to do, asking the decisions
        `at: before PHASE` first; after the last phase, the decisions `at: end`; then the
        deal is over (scored)."""
        flow = self.ref.flow
        while True:
            here = self.step + 1
            if here < len(flow):
                if self.asked < here:
                    self.asked = here
                    if self._ask_point(f"before {flow[here]}"):
                        return
                self.step = here
                kind = flow[here]
                if kind not in self.skipped and self._start(kind):
                    return
                continue
            if self.asked < len(flow):
                self.asked = len(flow)
                if self._ask_point("end"):
                    return
            self._over()
            return

    def _over(self) -> None:
        self.stage = OVER
        self.to_act = -1
        self.queue = []
        self.asked_again = False
        self.offer_at = -1

    def _end_now(self) -> None:
        """A decision ended the deal (or everybody passed and it is played as it is): the
        phases left do not run; the decisions at the end are still asked, then it is scored."""
        self.ended_early = True
        self.queue = []
        self.asked_again = False
        at_end = self.asked >= len(self.ref.flow)
        self.step = len(self.ref.flow) - 1
        if at_end:
            self._over()
            return
        self.asked = min(self.asked, len(self.ref.flow) - 1)
        self._flow_on()

    def _void(self, by: int) -> None:
        """The deal ends unplayed: a redeal (asked for, compulsory, or all passed)."""
        self.redealt = True
        self.redeal_by = by
        self._over()

    def _start(self, kind: str) -> bool:
        """Start a phase; False when it has nothing to do (it skips itself)."""
        if kind == "redeal":
            return self._start_redeal()
        if kind == "pass":
            return self._start_pass()
        if kind == "auction":
            return self._start_auction()
        if kind == "bids":
            return self._start_bids()
        if kind == "talon":
            return self._start_talon()
        if kind == "pickup":
            return self._start_pickup()
        if kind == "draw_up":
            self._draw_up()
            return False
        if kind == "contract":
            return self._start_raise()
        return self._start_play()

    # ------------------------------------------------------------ the legal actions
    def legal(self) -> dict[str, str] | None:
        """The texts of the actions the rules allow the seat to act, each with its kind; None
        where the checker does not restate them (the calls of an auction in turns that
        uses none of the spec-4 call settings)."""
        stage = self.stage
        seat = self.to_act
        ref = self.ref
        ct = ref.card_text
        hand = self.hands[seat] if seat >= 0 else []
        if stage == "redeal":
            return self._redeal_actions(seat, hand)
        if stage == "pass":
            return {f"pass {ct[c]}": "pass_card" for c in self.may_pass(seat, hand)}
        if stage == "bid":
            return self._call_actions(seat)
        if stage == "bids":
            return self._bids_actions(seat, hand)
        if stage == "give":
            return self._give_actions(hand)
        if stage == "raise":
            return self._raise_actions(seat, hand)
        if stage == "decide" and self.exchange[0] < 0:
            return self._decide_actions(seat, hand)
        if stage == "pickup":
            cards = self.may_lay_away(seat, hand, ref.pickup_lay_away_if)
            return {f"discard {ct[c]}": "discard" for c in cards}
        if stage == "decide" and self.exchange[0] >= 0:
            return self.exchange_actions(hand)
        if stage == "play":
            return self._turn_actions(self.turn)
        return {}

    def allows(self, kind: str, card: int, text: str) -> bool | None:
        """Whether the rules allow the seat to act this action now, as `legal()` would say
        (None where it restates none); a card played in trick play is judged from the cards
        the player may play alone."""
        at_card = self.stage == "play" and self.announced is None and self.offer_at < 0
        if at_card and kind == "play":
            return self.may_play(self.turn, card)
        if at_card and kind == "marry":
            return card in self.legal_plays(self.turn)[1]
        right = self.legal()
        return None if right is None else text in right

    # ------------------------------------------------------------ following the deal
    def apply(
        self,
        seat: int,
        kind: str,
        card: int = -1,
        value: int = 0,
        to: int = -1,
        qualifier: str = "",
        text: str = "",
    ) -> None:
        """Follow one action of the deal, taken by `seat` in the current stage."""
        stage = self.stage
        self.log.append((seat, "lay_away" if stage == "pickup" else kind, text, to))
        if stage == "redeal":
            self._redeal_answer(seat, kind)
        elif stage == "pass":
            self._pass_card(seat, card)
        elif stage == "bid":
            self.calls.append((seat, text))
            if self.joining is not None:
                self._join_call(seat, kind)
            elif self.listener >= 0:
                self._pair_call(seat, kind, value)
            else:
                self._call(seat, kind, text)
        elif stage == "bids":
            self._bid(seat, kind, value, qualifier, text)
        elif stage == "give":
            self._give(kind, card, to)
        elif stage == "pickup":
            self._lay_away(seat, card)
        elif stage == "raise":
            self._raise(kind, value, text)
        elif stage == "decide" and self.exchange[0] >= 0:
            self._exchange(seat, kind, card)
        elif stage == "decide":
            self._answer(seat, kind, text)
        elif stage == "play" and self.offer_at >= 0:  # the round of offers before a card
            self._answer_offer(seat, kind, text)
        elif stage == "play":
            self._turn(self.turn, kind, card, value, to, text)
        else:
            raise ReferenceError(f"an action after the deal ended: {text}")
        self._show_open_hands()
