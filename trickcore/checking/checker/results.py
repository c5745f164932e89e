"""What the deals and the match come to: void deals, tricks, card points, declarations, deal
scores, match scores and kept values, the end of the match and its winners, its limits, and
the saved match replayed."""

from __future__ import annotations

import random

from ...engine.bouts import BoutDeal
from ...engine.deal import Deal
from ...engine.game import Game
from ...engine.match import Match
from ...engine.replay import match_from_json
from ..reference.deal_state import OVER
from ..reference.match_book import MatchBook
from ..reference.trick_replay import TrickReplay
from ..reference.variant import Reference
from .steps import StepChecks
from .violations import Found


class ResultChecks:
    """A match's deals accounted for (void ones included) and what each comes to, checked
    against the restatement and the checker's own match book."""

    def __init__(self, game: Game, ref: Reference, steps: StepChecks) -> None:
        self.game = game
        self.ref = ref
        self._steps = steps  # the views everybody has at the end of a deal
        self._accounted = 0  # deals of the match accounted for (followed, or void as dealt)
        self._orders: list[list[int]] = []  # the deck orders the seed shuffles, deal by deal
        self._shuffle = random.Random(0)  # the run's own (start_run)
        self._redeals = 0

    def start_run(self, seed: int) -> None:
        """A new match from `seed`: no deal accounted for, its deck orders shuffled anew."""
        self._accounted = 0
        self._orders = []
        self._shuffle = random.Random(seed)
        self._redeals = 0

    def check_dealt(self, deal: Deal | BoutDeal) -> None:
        """The deal begun is the one the seed shuffles (where a hand may void a deal as dealt,
        and the match deals again); it is accounted for."""
        if self.ref.forced_if is not None and deal.deck_order != self._order(self._accounted):
            raise Found("deals", f"deal {self._accounted + 1} is not the one the seed shuffles")
        self._accounted += 1

    def _order(self, index: int) -> list[int]:
        """The deck order of the match's deal `index` (from 0): the seed's shuffles, as a
        match from a seed deals (C2)."""
        size = self.game.model.deck.size
        while len(self._orders) <= index:
            order = list(range(size))
            self._shuffle.shuffle(order)
            self._orders.append(order)
        return self._orders[index]

    def void_deals(self, match: Match, book: MatchBook) -> None:
        """Deals void as dealt (`redeal.forced_if`: a hand that meets it voids the deal, nobody
        asked), which the match books and deals again before anyone acts: each must be void
        by the rules' own reading of its hands, and each is booked here (redeal count, dealer,
        the match's end)."""
        current = match.current
        last = match.deals_dealt if current.is_over else match.deals_dealt - 1
        while self._accounted < last:
            index = self._accounted
            if self.ref.forced_if is None:
                raise Found(
                    "redeal", f"deal {index + 1} was void as dealt, but no rule voids a deal"
                )
            replay = TrickReplay(
                self.ref, self._order(index), book.dealer, match.seats, book.context()
            )
            if not replay.redealt:
                raise Found(
                    "redeal",
                    f"deal {index + 1} was void as dealt, but no hand in it meets redeal.forced_if",
                )
            self._accounted += 1
            self._redeals += 1
            book.redeals += 1
            book.dealt(True)
            self.check_match_limits(book)
            over, winners = book.ends(True, -1)
            final = self._accounted == match.deals_dealt and match.is_over
            if over != final:
                raise Found(
                    "match end",
                    f"after the void deal {index + 1} the match "
                    + ("is over" if final else "goes on")
                    + ", the rules "
                    + ("end it" if over else "deal again"),
                )
            if over and sorted(match.winners) != sorted(winners):
                raise Found(
                    "winners",
                    f"the match is won by seats {sorted(match.winners)}, the rules rank "
                    f"{sorted(winners)} first",
                )

    def check_deal_end(
        self,
        deal: Deal | BoutDeal,
        match: Match,
        book: MatchBook,
        replay: TrickReplay | None,
        light: bool,
    ) -> None:
        """A deal just ended: its result (a deal of bouts: one loser or a draw; a trick deal:
        over when the rules end it, void or scored as they say, its tricks and scores), then
        the match's scores and kept values and whether the match ends (`light`: the deal was
        not checked at every step, and its final views are not compared)."""
        if isinstance(deal, BoutDeal):
            if deal.draw == (deal.loser >= 0):
                raise Found("result", "a deal of bouts must end with one loser or a draw")
            holders = [s for s in deal.active if deal.hands[s]]
            if deal.loser >= 0 and holders != [deal.loser] and deal.bouts < deal.rules.max_bouts:
                raise Found("result", "the loser is not the last player holding cards")
            envs = [
                {
                    "loser": seat == deal.loser,
                    "draw": deal.draw,
                    "cards_left": len(deal.hands[seat]),
                    "players": len(deal.active),
                }
                for seat in range(deal.seats)
            ]
            book.after_deal(envs, [0] * deal.seats, "")
            book.dealt(False, deal.loser)
            self.check_book(match, book)
            self.check_end(match, book, False, -1)
            return
        assert replay is not None
        if replay.stage != OVER:
            raise Found(
                "deal ends",
                "the deal ended, but the rules go on: "
                f"seat {replay.to_act} is to act in phase '{replay.stage}'",
            )
        if not deal.redealt and not light:
            # what everybody sees at the end (the talon left untaken, laid-away cards)
            self._steps.check_views(deal, replay, replay.active)
        if deal.redealt != replay.redealt:
            raise Found(
                "redeal",
                "the deal "
                + ("ended unplayed (redealt)" if deal.redealt else "was scored")
                + ", the rules "
                + ("void it and deal again" if replay.redealt else "score it"),
            )
        if deal.redealt:
            self._redeals += 1
            book.redeals += 1
            book.dealt(True)
            self.check_book(match, book)
            self.check_end(match, book, True, replay.declarer)
            return
        self.check_tricks(deal, replay)
        gains, envs = replay.deal_scores()
        engine = deal.gains or [0] * deal.seats
        for seat in range(deal.seats):
            if engine[seat] != gains[seat]:
                raise Found(
                    "deal score",
                    f"seat {seat} scored {engine[seat]} but the scoring rules give {gains[seat]} "
                    f"(card points {replay.card_points[seat]}, tricks {replay.tricks_won[seat]}, "
                    f"contract {replay.contract})",
                )
        book.after_deal(envs, gains, replay.qualifier)
        book.dealt(False)
        self.check_book(match, book)
        self.check_end(match, book, False, replay.declarer)

    def check_tricks(self, deal: Deal, replay: TrickReplay) -> None:
        """The deal's tricks, card points, tricks won and declarations are those of the cards
        played (the card points adding up to the deck's when every card was played)."""
        if len(deal.tricks) != len(replay.tricks):
            raise Found(
                "tricks", f"{len(deal.tricks)} tricks, the cards played make {len(replay.tricks)}"
            )
        for i in range(len(deal.tricks)):
            self.check_trick(deal, replay, i)
        points_of = replay.points  # card points may depend on the trump, call and choices
        total = sum(points_of(trump)[c] for cards, _, trump in replay.tricks for _, c in cards)
        one_trump = all(trump == replay.trump for _, _, trump in replay.tricks)
        out_of_play = any(
            (
                replay.talon,
                replay.stock,
                replay.turnup >= 0,
                replay.laid_away,
                replay.out,
                replay.pickup_away,
                any(replay.hands[s] for s in replay.active),  # the hands of who sat out
            )
        )
        deck_points = sum(points_of())
        if not replay.ended_early and not out_of_play and one_trump and total != deck_points:
            raise Found("points", f"card points in tricks add up to {total}")
        for seat in range(deal.seats):
            if deal.card_points[seat] != replay.card_points[seat]:
                raise Found(
                    "card points",
                    f"seat {seat} has {deal.card_points[seat]} card points, its tricks hold "
                    f"{replay.card_points[seat]}",
                )
            if deal.tricks_won[seat] != replay.tricks_won[seat]:
                raise Found(
                    "tricks won",
                    f"seat {seat} is counted {deal.tricks_won[seat]} tricks, it won "
                    f"{replay.tricks_won[seat]}",
                )
        mine = [
            (seat, self.ref.melds[mi].name, suit, value)
            for seat, mi, suit, value in replay.declarations
        ]
        theirs = [(d.seat, d.meld, d.suit, d.value) for d in deal.declarations]
        if mine != theirs:
            raise Found(
                "declarations",
                f"the deal records the declarations {theirs}, the leads made {mine}",
            )

    def check_trick(self, deal: Deal, replay: TrickReplay, i: int) -> None:
        """T15: trick i holds the cards played and goes to the highest trump, else the
        highest card of the suit led."""
        cards, winner, trump = replay.tricks[i]
        t = deal.tricks[i] if i < len(deal.tricks) else None
        if t is not None and tuple(t.cards) == cards and t.trump != trump:
            raise Found(
                "trump", f"trick {i + 1} is recorded with trump {t.trump}, the rules give {trump}"
            )
        if t is None or tuple(t.cards) != cards or t.winner != winner:
            text = " ".join(self.game.card_text(c) for _, c in cards)
            got = "nobody" if t is None else f"seat {t.winner}"
            raise Found(
                "trick winner", f"trick {text} went to {got}, the rules give it to seat {winner}"
            )

    def check_book(self, match: Match, book: MatchBook) -> None:
        """Every seat's match score and kept values are those the after_deal rules give."""
        for seat in range(match.seats):
            if match.scores[seat] != book.scores[seat]:
                raise Found(
                    "match score",
                    f"seat {seat}'s score is {match.scores[seat]} but the after_deal rules "
                    f"give {book.scores[seat]}",
                )
            kept = match.kept_state(seat)
            if kept != book.kept[seat]:
                raise Found(
                    "kept values",
                    f"seat {seat} keeps {kept} but the after_deal rules give {book.kept[seat]}",
                )

    def check_end(self, match: Match, book: MatchBook, redealt: bool, declarer: int) -> None:
        """The match ends exactly when the rules end it (target, `end_if`, `play_on`, the
        limits), with the winners they rank first."""
        if match.stopped is not None:
            return
        over, winners = book.ends(redealt, declarer)
        ended = match.is_over
        if match.deals_dealt > self._accounted:  # it dealt again (void deals follow): on
            ended = False
            if not over:
                return
        if ended != over:
            scores = ", ".join(map(str, book.scores))
            raise Found(
                "match end",
                f"after deal {book.deals_scored + book.redeals} (scores {scores}) the match "
                + ("is over" if ended else "goes on")
                + ", the rules "
                + ("end it" if over else "play another deal"),
            )
        if over and sorted(match.winners) != sorted(winners):
            raise Found(
                "winners",
                f"the match is won by seats {sorted(match.winners)}, the rules rank "
                f"{sorted(winners)} first",
            )

    def check_match_limits(self, book: MatchBook) -> None:
        """Every match ends: scored deals within deal_limit, redeals within redeal_limit
        (counted here, deal by deal)."""
        rules = self.game.model.match
        limit = rules.deal_limit
        if book.deals_scored > limit:
            raise Found("match ends", f"the match played more than its {limit} deals")
        if self._redeals > rules.redeal_limit + 1:
            raise Found("match ends", f"the match went past its {rules.redeal_limit} redeals")

    def check_replay(self, match: Match) -> None:
        """Replaying the saved match gives the same match, and every seat sees the same."""
        data = match.to_json()
        again = match_from_json(data, self.game)
        if again.history != match.history or again.scores != match.scores:
            raise Found("replay", "replaying the saved match gave a different match")
        for seat in range(match.seats):
            if again.observation(seat) != match.observation(seat):
                raise Found("replay", f"after replay seat {seat} sees something else")
