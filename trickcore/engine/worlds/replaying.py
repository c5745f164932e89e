"""The seat's log replayed from a deck order: deals made in the match's context, the hidden
steps given a card, the seat's view at the end; and the time the search may take."""

from __future__ import annotations

import random
import time
from typing import Any

import attrs

from ...language.errors import StuckError, TrickcoreError
from ..actions import Action
from ..bouts import BoutDeal
from ..deal import Deal
from ..dealing import make_deal
from ..observation import BoutObservation, Observation
from .errors import WorldsError
from .knowledge import SeatKnowledge


class LogReplay:
    """Replays of one seat's log in the deal number its `context` is for (set by the
    sampler); `draw_fix` holds the swaps that bring in the cards the seat remembers drawing
    when the last replay found others."""

    def __init__(
        self, known: SeatKnowledge, rng: random.Random, deadline: float | None = None
    ) -> None:
        self.known = known
        self.game = known.game
        self.obs = known.obs
        self.seat = known.seat
        self.seats = known.seats
        self.log = known.log
        self.rng = rng
        # `time.perf_counter()` after which the work stops (WorldsError): a search bot's cap
        self.deadline = deadline
        self.context: list[dict[str, Any]] = []
        self.draw_fix: list[tuple[int, int]] = []  # swaps bringing in the cards it drew

    def check_time(self) -> None:
        """A WorldsError once the deadline has passed."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise WorldsError("no hidden world found in the time allowed")

    def likely_numbers(self) -> list[int]:
        """The deal numbers (1 to 16) whose deal could give this observation, judged by what
        the seat sees from the start: the passing direction and its hand's size."""
        obs = self.obs
        out = []
        own_cards = sum(
            1
            for k, (s, _) in enumerate(self.log)
            if s == self.seat and k not in self.known.hidden_steps
        )
        estimate = len(obs.hand) + own_cards
        if isinstance(obs, Observation):
            estimate -= len(obs.received) + len(obs.talon_taken)
        for number in range(1, 17):
            self.context = self.context_of(number)
            try:
                deal = self.new_deal(list(range(self.game.model.deck.size)))
            except TrickcoreError:
                continue
            first = deal.observation(self.seat)
            if isinstance(obs, Observation) and isinstance(first, Observation):
                if obs.pass_to != first.pass_to and any(
                    k in self.known.hidden_steps for k in range(1)
                ):
                    continue
                if first.pass_to != obs.pass_to and obs.pass_to:
                    continue
            if len(first.hand) > max(estimate, len(obs.hand)) and not first.stock_size:
                continue
            out.append(number)
        return out or [1]

    def context_of(self, number: int) -> list[dict[str, Any]]:
        """The match context of deal `number` (the observation's scores and kept values)."""
        obs = self.obs
        kept = [dict(k) for k in obs.kept] if obs.kept else None
        scores = list(obs.scores) if obs.scores else None
        return self.game.match_context(self.seats, number, scores, kept)

    def new_deal(self, order: list[int]) -> Deal | BoutDeal:
        """A fresh deal of this deck order in the current context."""
        ctx = [dict(c) for c in self.context]
        return make_deal(self.game, order, self.obs.dealer, self.seats, ctx)

    def _seen(self, deal: Deal | BoutDeal, action: Action, actor: int) -> str:
        if isinstance(deal, Deal):
            return deal._seen_as(action, actor, self.seat)
        return action.text

    def replay(
        self, order: list[int], picks: dict[int, int], choose: bool
    ) -> tuple[Deal | BoutDeal, tuple[str, int] | None]:
        """The log replayed from a deck order; hidden steps take the card in `picks` (or one
        chosen at random when `choose`). Returns the deal and the failure (kind, step)."""
        known = self.known
        deal = self.new_deal(order)
        for k, (s, text) in enumerate(self.log):
            if deal.is_over or deal.to_act != s:
                return deal, ("flow", k)
            try:
                legal = deal.legal_actions()
            except StuckError:
                return deal, ("flow", k)
            if k in known.hidden_steps:
                cands = [a for a in legal if self._seen(deal, a, s) == text and a.text != text]
                pick = picks.get(k, -1)
                found = [a for a in cands if a.card == pick]
                if found:
                    action = found[0]
                elif choose and cands and self._refused(deal, s, pick, cands):
                    return deal, ("illegal", k)  # a rule refuses it from this hand: a repair
                elif choose and cands:
                    later = [a for a in cands if self._moved_later(a, s, k)]
                    unseen = [a for a in cands if a.card in known.unseen]
                    action = self.rng.choice(later or unseen or cands)
                    picks[k] = action.card
                else:
                    return deal, ("flow", k)
            else:
                for action in legal:
                    if action.text == text:
                        break
                else:
                    return deal, ("illegal", k)
                copy = known.step_card.get(k, -1)
                if copy >= 0 and copy != action.card:  # the copy this labelling moves here
                    if not any(copy in hand for hand in deal.hands):
                        return deal, ("illegal", k)  # another copy lies there: a repair
                    mine = known.action_at(k)
                    if mine is None or not deal._beside(copy, action.card):
                        return deal, ("illegal", k)
                    action = mine
            if known.draws and isinstance(deal, BoutDeal):
                before = list(deal.stock)
                deal.apply(action)
                if action.kind != "swap" and len(deal.stock) < len(before):
                    hand = deal.hands[self.seat]
                    came = {c for c in before[len(deal.stock) :] if c in hand}
                    want = known.draws.get(k + 1, set())
                    if came != want:  # the seat drew other cards than it remembers
                        self.draw_fix = list(zip(sorted(want - came), sorted(came - want)))
                        return deal, ("draw", k + 1)
                continue
            deal.apply(action)
        return deal, None

    def _refused(self, deal: Deal | BoutDeal, s: int, pick: int, cands: list[Action]) -> bool:
        """Whether the card a hidden step took, held by `s`, is one no action of the step
        moves (no copy of it either): a rule over the hand refuses it there."""
        if pick < 0 or pick not in deal.hands[s]:
            return False
        text = self.game.card_texts[pick]
        return not any(self.game.card_texts[a.card] == text for a in cands if a.card >= 0)

    def _moved_later(self, action: Action, giver: int, k: int) -> bool:
        """Whether the card of a hidden action at step k is one the log shows played later
        by its receiver (by another player than the giver, when the action names none):
        such a card can only have gone that way, so it is the first to try."""
        who = self.known.played_after(action.card, k)
        return who == action.to if action.to >= 0 else who not in (-1, giver)

    def view(self, deal: Deal | BoutDeal) -> Observation | BoutObservation:
        """The seat's view of a deal, with the observation's scores and kept values."""
        obs = self.obs
        return attrs.evolve(deal.observation(self.seat), scores=obs.scores, kept=obs.kept)
