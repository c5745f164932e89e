"""The round of offers before each card (`decision NAME { at: card }`): from the player whose
card is next, round the table, each player is offered the decisions whose `offer_if` holds
for him, and `pass`; a player offered none is passed over; the round ends when every player
of the deal in a row has passed or been passed over, and the card is played."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..actions import Action
from .turns import offers_round, take_decision

if TYPE_CHECKING:
    from ..deal import Deal
    from ..tables import GameTables


class OfferRound:
    """The rounds of offers of a trick game's play (held by its `TrickPlay`)."""

    def __init__(self, game: GameTables, hand_to: Callable[[Deal, int], None]) -> None:
        """`hand_to(deal, seat)`: who acts for `seat`'s hand when the round is over."""
        self.game = game
        self.hand_to = hand_to

    def open(self, deal: Deal, seat: int, played: int = -1) -> None:
        """A round of `at: card` offers before `seat`'s card (none when he holds none).
        `played`: the player who has just played a card to the same trick, when nothing
        else has changed since the last round (`offers_round` then makes only his names
        again)."""
        if deal.hands[seat]:
            deal.window_seat = seat
            deal.window_quiet = 0
            deal.window_offers = offers_round(self.game, deal, played)
            self._go_on(deal)

    def _go_on(self, deal: Deal) -> None:
        """The round of `at: card` offers before a card: from the player it is at, round
        the table, the first player offered something acts; a player offered nothing is
        passed over; when every player in a row has passed or been passed over, the round
        ends and the card is played."""
        active = deal.active
        n = len(active)
        offers = deal.window_offers
        if offers is None:  # the same for the whole round until someone decides
            offers = deal.window_offers = offers_round(self.game, deal)
        while deal.window_quiet < n:
            seat = deal.window_seat
            if offers[seat]:
                deal.to_act = seat
                return
            deal.window_quiet += 1
            deal.window_seat = active[(active.index(seat) + 1) % n]
        deal.window_seat = -1
        self.hand_to(deal, deal.turn)

    def answer(self, deal: Deal, action: Action) -> None:
        """A player in the round of offers passes or takes a decision; the round goes on
        with the next player (after a decision, every player may answer it again)."""
        seat = deal.window_seat
        if action.kind == "decide":
            # his names of the round (those of every decision at a card: current, as the
            # round is worked out again after each decision and only a card comes between)
            envs = deal.window_envs
            env = None if envs is None else envs[deal.active.index(seat)]
            effect = take_decision(self.game, deal, seat, action, env)
            if deal.is_over or deal.phase != "play":  # it ended play (`effect: end_deal`)
                deal.window_seat = -1
                return
            deal.window_quiet = 0
            # without an effect only the players' values changed: the round's names are
            # kept, their values read again (else they are all made again)
            deal.window_offers = None if effect else offers_round(self.game, deal, decided=True)
        else:
            deal.window_quiet += 1
        active = deal.active
        deal.window_seat = active[(active.index(seat) + 1) % len(active)]
        self._go_on(deal)
