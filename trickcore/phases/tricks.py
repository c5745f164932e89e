"""Trick play (T13-T17, S11-S13): leads, obligations, declaring melds, trick winners."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..exprs import CARD_KEY, HAND_KEY
from ..observation import Declaration, TrickView
from .base import Phase

if TYPE_CHECKING:
    from ..deal import Deal


class TrickPlay(Phase):
    """Tricks until the hands are empty. The first leader is the declarer or forehand; the
    winner of a trick leads next; the highest trump wins, else the highest card of the led
    suit. A meld is declared by leading one of its cards (`marry CARD`)."""

    name = "play"

    def start(self, deal: Deal) -> bool:
        """The first leader leads (T13, S11)."""
        rules = deal.rules.play
        first = deal.declarer if rules.first_leader == "declarer" else deal.active[0]
        deal.leader = first
        deal.to_act = first
        deal.tricks_total = len(deal.hands[deal.declarer])
        return True

    # ------------------------------------------------------------ legal cards
    def legal(self, deal: Deal) -> list[Action]:
        """Leads (as `lead_if` allows, with meld declarations), or the cards the follow,
        beat, trump and overtrump obligations allow."""
        game = self.game
        hand = deal.hands[deal.to_act]
        suit_of = game.suit_of
        play = game.actions.play
        trick = deal.trick
        if not trick:
            leads = sorted(hand)
            lead_if = deal.rules.play.lead_if
            if lead_if is not None:
                leads = self._allowed_leads(deal, leads, lead_if)
            out = [play[c] for c in leads]
            if game.meld_of_card:
                out.extend(self._meld_leads(deal, leads))
            return out
        rules = deal.rules.play
        rank_of = game.rank_of
        led = suit_of[trick[0][1]]
        trump = deal.trump
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

    def _allowed_leads(self, deal: Deal, cards: list[int], lead_if: Any) -> list[int]:
        """The cards `play.lead_if` allows this seat to lead now."""
        seat = deal.to_act
        suit_of = self.game.suit_of
        trump = deal.trump
        hand = deal.hands[seat]
        env: dict[str, Any] = {
            "first_lead": deal.leads[seat] == 0,
            "tricks_played": len(deal.tricks),
            "tricks_won": deal.tricks_won[seat],
            "declarer": seat == deal.declarer,
            "trump_set": trump >= 0,
            "trump_broken": trump >= 0
            and any(suit_of[c] == trump for t in deal.tricks for _, c in t.cards),
            "hand_size": len(hand),
            HAND_KEY: hand,
            **deal.context[seat],
        }
        allowed = []
        for c in cards:
            env[CARD_KEY] = c
            env["card_is_trump"] = suit_of[c] == trump
            if lead_if(env):
                allowed.append(c)
        return allowed

    def _meld_leads(self, deal: Deal, leads: list[int]) -> list[Action]:
        """Leads that declare a meld held in full, where its `declare_if` allows."""
        game = self.game
        seat = deal.to_act
        hand = deal.hands[seat]
        out = []
        env: dict[str, Any] | None = None
        held = set(hand)
        for c in leads:
            for mi, _suit, _value, cards in game.meld_of_card.get(c, ()):
                if all(x in held for x in cards):
                    if env is None:
                        env = {
                            "tricks_won": deal.tricks_won[seat],
                            "tricks_played": len(deal.tricks),
                            "declarer": seat == deal.declarer,
                            "first_lead": deal.leads[seat] == 0,
                            HAND_KEY: hand,
                            **deal.context[seat],
                        }
                    if game.model.melds[mi].declare_if(env):
                        out.append(game.actions.marry[c])
                        break
        return out

    # ------------------------------------------------------------ playing
    def apply(self, deal: Deal, action: Action) -> None:
        """Play a card; a full trick goes to its winner, who leads next."""
        game = self.game
        seat = deal.to_act
        card = action.card
        deal.hands[seat].remove(card)
        if not deal.trick:
            deal.leads[seat] += 1
            if action.kind == "marry":
                self._declare(deal, seat, card)
        deal.trick.append((seat, card))
        n = len(deal.active)
        if len(deal.trick) < n:
            i = deal.active.index(seat)
            deal.to_act = deal.active[(i + 1) % n]
            return
        winner = self._trick_winner(deal)
        pts = game.points_of
        deal.card_points[winner] += sum(pts[c] for _, c in deal.trick)
        deal.tricks_won[winner] += 1
        deal.tricks.append(TrickView(deal.leader, tuple(deal.trick), winner, deal.trump))
        deal.trick = []
        deal.leader = winner
        deal.to_act = winner
        if len(deal.tricks) == deal.tricks_total:
            deal.next_phase()

    def _declare(self, deal: Deal, seat: int, card: int) -> None:
        game = self.game
        held = set(deal.hands[seat]) | {card}
        for mi, suit, value, cards in game.meld_of_card[card]:
            if all(x in held for x in cards):
                deal.declarations.append(
                    Declaration(seat, game.model.melds[mi].name, suit, value, len(deal.tricks))
                )
                if game.model.melds[mi].sets_trump:
                    deal.trump = suit
                return

    def _trick_winner(self, deal: Deal) -> int:
        suit_of = self.game.suit_of
        rank_of = self.game.rank_of
        trump = deal.trump
        trick = deal.trick
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
