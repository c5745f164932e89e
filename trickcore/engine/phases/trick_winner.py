"""Who wins a trick: the highest trump, else the highest card of the suit led (the usual
rule), or as `play { beats = EXPR }` says, card by card against the card winning so far."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...language.exprs import CARD_KEY, OTHER_KEY
from ..later_names import LaterNames

if TYPE_CHECKING:
    from ..deal import Deal
    from ..tables import GameTables


class TrickWinners:
    """The trick winners of a trick game (held by its `TrickPlay`)."""

    def __init__(self, game: GameTables) -> None:
        self.trumps_id = game.trump_suit_id
        play = game.model.tricks.play if game.model.tricks else None
        self.rule = play.beats if play is not None else None
        # `beats` reads names of the card's player: his open names are given to it
        self.reads_player = play is not None and play.beats_reads_player
        self.faces = game.model.deck.faces
        # `play.sets_suit_if`: the suit led is the first card's that sets it (-1: none)
        self.sets_suit = play is not None and play.sets_suit_if is not None
        # neither: the usual rule, the first card's suit led (the short way through `trick`)
        self.usual = self.rule is None and not self.sets_suit

    def trick(self, deal: Deal) -> int:
        """The seat whose card wins the trick in play (when it is complete: its winner)."""
        rel = deal.rel
        eff, power = rel if rel is not None and deal.rel_trump == deal.trump else deal.relations()
        trumps_id = self.trumps_id
        trick = deal.trick
        best_seat, best = trick[0]
        if self.usual:
            lead_suit = eff[best]
            best_trump = lead_suit == trumps_id
            for seat, c in trick[1:]:
                s = eff[c]
                if s == trumps_id:
                    if not best_trump or power[c] > power[best]:
                        best_seat, best, best_trump = seat, c, True
                elif not best_trump and s == lead_suit and power[c] > power[best]:
                    best_seat, best = seat, c
            return best_seat
        lead_suit = deal.led_suit(trick) if self.sets_suit else eff[trick[0][1]]
        if self.rule is not None:
            for seat, c in trick[1:]:
                if self._ruled(deal, eff, power, lead_suit, seat, c, best):
                    best_seat, best = seat, c
            return best_seat
        best_trump = eff[best] == trumps_id
        # a first card that set no suit is beaten by any card of the suit led
        best_led = eff[best] == lead_suit
        for seat, c in trick[1:]:
            s = eff[c]
            if s == trumps_id:
                if not best_trump or power[c] > power[best]:
                    best_seat, best, best_trump = seat, c, True
            elif not best_trump and s == lead_suit and (not best_led or power[c] > power[best]):
                best_seat, best, best_led = seat, c, True
        return best_seat

    def talon_trick(self, deal: Deal) -> int:
        """A trick led by a talon card (R31): the highest trump played, else the highest card
        of the talon card's suit played by a player (the talon card itself wins nothing);
        -1 when nobody played either."""
        eff, power = deal.relations()
        trumps_id = self.trumps_id
        led = deal.led_suit(deal.trick)
        best_seat, best, best_trump = -1, -1, False
        for seat, c in deal.trick[1:]:
            s = eff[c]
            if best >= 0 and self.rule is not None:  # a card against the one winning so far
                if self._ruled(deal, eff, power, led, seat, c, best):
                    best_seat, best = seat, c
            elif s == trumps_id and led != trumps_id:
                if not best_trump or power[c] > power[best]:
                    best_seat, best, best_trump = seat, c, True
            elif not best_trump and s == led and (best < 0 or power[c] > power[best]):
                best_seat, best = seat, c
        return best_seat

    def beats(self, deal: Deal, best: tuple[int, int, bool], card: int) -> bool:
        """`card_wins`: the card would win the trick in progress, played by the player to
        play, beating the card that wins it so far (a higher trump, or, with no trump in it,
        a higher card of the suit led; or as `play.beats` says)."""
        eff, power = deal.relations()
        _seat, winner, winner_trump = best
        led = deal.led_suit([*deal.trick, (deal.turn, card)]) if self.sets_suit else None
        if led is None:
            led = eff[deal.trick[0][1]]
        if self.rule is not None and winner >= 0:
            return self._ruled(deal, eff, power, led, deal.turn, card, winner)
        if eff[card] == self.trumps_id:
            return not winner_trump or power[card] > power[winner]
        if winner_trump or eff[card] != led:
            return False
        return winner < 0 or eff[winner] != led or power[card] > power[winner]

    def _ruled(
        self,
        deal: Deal,
        eff: Sequence[int],
        power: Sequence[int],
        led: int,
        seat: int,
        card: int,
        other: int,
    ) -> bool:
        """`play.beats` for `card`, played by `seat`, against `other`, the card winning the
        trick so far."""
        trumps_id = self.trumps_id
        trump, other_trump = eff[card] == trumps_id, eff[other] == trumps_id
        if trump:
            usual = not other_trump or power[card] > power[other]
        elif self.sets_suit:  # a card that set no suit is beaten by any card of the suit led
            higher = eff[other] != led or power[card] > power[other]
            usual = not other_trump and eff[card] == led and higher
        else:
            usual = not other_trump and eff[card] == led and power[card] > power[other]
        names: dict[str, Any] = {
            CARD_KEY: card,
            OTHER_KEY: other,
            "card_is_trump": trump,
            "card_power": power[card],
            "other_trump": other_trump,
            "other_power": power[other],
            "same_card": self.faces[card] == self.faces[other],
            "follows_led": eff[card] == led,
            "beats_usually": usual,
            "last_trick": len(deal.tricks) + 1 == deal.tricks_total,
            "tricks_played": len(deal.tricks),
        }
        assert self.rule is not None
        if self.reads_player:  # his open names, made only when the rule reads one
            return bool(self.rule.fn(LaterNames(names, lambda: deal.open_view(seat))))
        return bool(self.rule.fn(names))
