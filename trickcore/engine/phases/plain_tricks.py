"""Trick play with nothing but cards: the same steps as `TrickPlay`, without the checks for
what such a play never has. Chosen when the game is compiled (see `trick_play`), so that a
file that uses none of the extras pays nothing for them at each card.

A play is plain when no decision, announcement or round of offers comes at a turn, nobody
plays for a partner, no rule stops play early or runs after a card or a trick, there is no
stock, no talon card leads, the first lead does not set the trump, the usual rule wins the
trick, the suit led is the first card's, and the obligations are written as yes or no (not
as rules) and read nothing of the trick in progress. Every other play is a `TrickPlay`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action
from .tricks import TrickPlay, duty_cards

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
    """Whether `play` needs none of the extras (see the module's docstring)."""
    return (
        play.plain
        and not play.windows
        and not play.turn_actions
        and not play.sets_suit
        and not play.trick_reads
        and not play.duty_rules
        and play.free_if is None
        and play.winners.rule is None
    )


class PlainTrickPlay(TrickPlay):
    """`TrickPlay` for a plain play: legal cards and the play of a card, straight."""

    def legal(self, deal: Deal) -> list[Action]:
        """Leads (as `lead_if` allows, with meld declarations), or the cards the follow,
        beat, trump and overtrump obligations allow."""
        hand = deal.hands[deal.turn]
        trick = deal.trick
        if not trick:
            return self._leads(deal, hand)
        play = self.play_actions
        return [play[c] for c in self._follows(deal, hand, trick)]

    def _follows(self, deal: Deal, hand: list[int], trick: list[tuple[int, int]]) -> list[int]:
        """The cards the obligations (and `play_if`) allow to a trick that has been led."""
        rel = deal.rel
        eff, power = rel if rel is not None and deal.rel_trump == deal.trump else deal.relations()
        led = eff[trick[0][1]]
        same = [c for c in hand if eff[c] == led]
        cards = duty_cards(eff, power, self.trumps_id, led, hand, same, trick, self.duties)
        if self.play_if is not None:
            return sorted(self._allowed(deal, sorted(cards), self.play_if, bool(same)) or cards)
        return sorted(cards)
