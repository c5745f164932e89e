"""Trick play with nothing but cards at a turn: no decision or announcement beside the
cards, no round of offers before a card. Its legal actions skip the checks for those; it is
chosen when the game is compiled (see `trick_play`), so that a file that has none of them
pays nothing for them at each card. Everything else is `TrickPlay`'s own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action
from .tricks import TrickPlay

if TYPE_CHECKING:
    from ..deal import Deal
    from ..tables import GameTables


def trick_play(game: GameTables) -> TrickPlay:
    """The trick play phase of `game`: a `PlainTrickPlay` when its play is plain."""
    play = TrickPlay(game)
    if is_plain(play):
        return PlainTrickPlay(game)
    return play


def is_plain(play: TrickPlay) -> bool:
    """Whether only cards are offered at a turn of `play` (see the module's docstring)."""
    return not play.windows and not play.turn_actions


class PlainTrickPlay(TrickPlay):
    """`TrickPlay` whose turns offer only cards: legal cards without the checks for offers
    and actions at a turn."""

    def legal(self, deal: Deal) -> list[Action]:
        """Leads (as `lead_if` allows, with meld declarations), or the cards the follow,
        beat, trump and overtrump obligations allow."""
        hand = deal.hands[deal.turn]
        trick = deal.trick
        if not trick:
            return self._leads(deal, hand)
        play = self.play_actions
        return [play[c] for c in self._follows(deal, hand, trick)]
