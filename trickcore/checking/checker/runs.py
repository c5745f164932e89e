"""`Checker`: runs of one variant, each one match played from a seed and checked after every
action by the checker's parts (see `trickcore.checking.invariants` for the invariants)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...engine.actions import Action
from ...engine.bouts import BoutDeal
from ...engine.deal import Deal
from ...engine.game import Game
from ...engine.match import Match
from ...language.errors import StuckError, TrickcoreError
from ...language.loader import MergedRules
from ..reference.errors import OutOfRange
from ..reference.match_book import MatchBook
from ..reference.trick_replay import TrickReplay
from ..reference.variant import Reference
from .action_bound import deal_action_bound
from .bouts import BoutChecks
from .information import InformationChecks
from .results import ResultChecks
from .steps import StepChecks
from .violations import Found, Violation, invariant_of


def _sampled(deal: int, every: int) -> bool:
    """Deal 1 and every `every`-th deal after it; past ten such spans, every tenth span
    (a match of random players may run to a deal limit of hundreds)."""
    span = every if deal <= 10 * every else 10 * every
    return (deal - 1) % span == 0


# the last variant's restatement, with the game and the rules it was made of: the checkers
# of one verify run (one per chunk of runs and whole match) share it, and what it keeps
# (the offers worked out by key, the expressions' walkers)
_LAST: list[tuple[Game, MergedRules | None, Reference]] = []


def _reference(game: Game, rules: MergedRules | None) -> Reference:
    """The restatement of `game`'s rules (made of `rules`, else read again): the last one
    made if it was made for the same game and rules, else a new one."""
    if _LAST and _LAST[0][0] is game and _LAST[0][1] is rules:
        return _LAST[0][2]
    ref = Reference(game.model, rules)
    _LAST[:] = [(game, rules, ref)]
    return ref


class Checker:
    """Plays runs of one variant and reports the first broken invariant.

    `info_every` is how often (in steps) the information checks compare worlds (1: every
    step; 0: never), for every seat or (`every_seat=False`) one seat in turn, in every
    `info_deals`-th deal of the match (the first included; past the 10th such deal only
    every 10·`info_deals`-th); the other worlds are kept up to date at every step
    regardless. With `full_deals` set, the checks at every step (cards, legal actions,
    refused actions, information) run in the first `full_deals` trick deals of a run and
    then in every `step_deals`-th deal (sampled as the information checks are; 0: every
    (seats + 1)-th, so that the deals checked have each seat in turn as dealer); the other
    trick deals are followed action by action (each action must be one the rules allow)
    and their tricks, scores, match scores and the match's end are checked, as in every
    deal. Deals of bouts are checked at every step. A whole match stops after
    `match_deals` deals when it is set (random players may play a match to a deal limit of
    a thousand when random contracts seldom reach the match's target).
    """

    def __init__(
        self,
        game: Game,
        max_actions: int = 400,
        rules: MergedRules | None = None,
        info_every: int = 1,
        worlds: int = 1,
        every_seat: bool = True,
        info_deals: int = 1,
        step_deals: int = 1,
        full_deals: int | None = None,
        match_deals: int | None = None,
    ) -> None:
        self.game = game
        self.max_actions = max_actions
        self.ref = _reference(game, rules)
        self.info_every = max(info_every, 0)
        self.info_deals = max(info_deals, 1)
        self.step_deals = max(step_deals, 0)
        self.full_deals = full_deals  # None: every deal checked at every step
        self.match_deals = match_deals  # a whole match's deals played at most (None: all)
        self._bounds: dict[int, int] = {}
        # one part per job, each holding what it needs
        self.information = InformationChecks(game, self.ref, max(worlds, 1), every_seat)
        self.bouts = BoutChecks(game, self.ref)
        self.steps = StepChecks(game, self.information, self.bouts)
        self.results = ResultChecks(game, self.ref, self.steps)
        # the run and the deal in hand (set as each begins)
        self._dealt = 0  # deals of the run begun
        self._light = False
        self._replay: TrickReplay | None = None
        self._seen: list[set[int]] = []

    def run(
        self, seed: int, players: int, choices: Sequence[int], whole: bool = False
    ) -> Violation | None:
        """Play one match (to its end if `whole`); return the first violation, or None."""
        taken: list[str] = []
        try:
            self._run(seed, players, choices, whole, taken)
        except Found as found:
            return Violation(found.invariant, found.message, seed, players, tuple(taken))
        except TrickcoreError as exc:
            return Violation("error", f"the engine raised: {exc}", seed, players, tuple(taken))
        except OutOfRange as exc:
            message = f"{exc}: the rules stop the match there, but the engine went on"
            return Violation("number range", message, seed, players, tuple(taken))
        return None

    def _run(
        self, seed: int, players: int, choices: Sequence[int], whole: bool, taken: list[str]
    ) -> None:
        game = self.game
        rng = random.Random(seed)
        self.information.start_run(seed)
        match = game.new_match(seed=seed, players=players)
        bound = self._bounds.setdefault(players, deal_action_bound(game, players, self.ref))
        book = MatchBook(self.ref, match.seats)
        self._dealt = 0
        self.results.start_run(seed)
        deal: Deal | BoutDeal | None = None
        in_deal = 0
        step = 0
        while not match.is_over and (whole or step < self.max_actions):
            if match.current is not deal:
                self.results.void_deals(match, book)
                if whole and self.match_deals is not None and self._dealt >= self.match_deals:
                    break  # a long match of random players: its first deals only
                deal = match.current
                self._begin_deal(deal, book, match)
                in_deal = 0
                light = self._light
            self.information.start_step()  # observations of this step, made once
            try:
                legal = match.legal_actions()
            except StuckError as exc:
                raise Found("stuck", str(exc).split(";")[0]) from None
            due = not light and self.info_every and _sampled(self._dealt, self.info_deals)
            due = due and step % self.info_every == self._dealt % self.info_every
            if not light:
                self.steps.check_cards(deal)
                self.steps.check_hands(deal, self._replay)
                self.steps.check_moves(deal, self._replay, legal)
                if step % 17 == 5:
                    self.steps.check_illegal_refused(match, legal)
            if due:
                seats = self.information.seats_due(deal)
                self.information.check(deal, legal, seats)
                if self._replay is not None and isinstance(deal, Deal):
                    # the views the worlds were compared on (made already), and every
                    # eighth such step all the seats compared
                    viewed = [x for x in seats if self.information.observed(x) or step % 8 == 0]
                    self.steps.check_views(deal, self._replay, viewed)
            choice = choices[step] if step < len(choices) else rng.randrange(1 << 16)
            action = legal[choice % len(legal)]
            scores = list(match.scores)
            seat = deal.to_act
            phase = deal.phase
            self.information.record_shape(deal)
            match.apply(action)
            self.information.start_step()
            taken.append(action.text)
            self._follow(deal, seat, action, phase)
            in_deal += 1
            step += 1
            if match.current is not deal or match.is_over:
                self.results.check_deal_end(deal, match, book, self._replay, self._light)
                self.results.check_match_limits(book)
                self.results.void_deals(match, book)
            elif match.scores != scores:
                raise Found("scores", "match scores changed in the middle of a deal")
            if in_deal > bound:
                raise Found(
                    "deal ends", f"a deal took more than {bound} actions, the most the rules allow"
                )
        if match.is_over:
            self.results.void_deals(match, book)
        self.results.check_replay(match)

    def _begin_deal(self, deal: Deal | BoutDeal, book: MatchBook, match: Match) -> None:
        self._dealt += 1
        self._light = (  # a trick deal followed and scored, not checked at every step
            self.full_deals is not None
            and isinstance(deal, Deal)
            and self._dealt > self.full_deals
            and not _sampled(self._dealt, self.step_deals or match.seats + 1)
        )
        self._replay = None
        self.bouts.start_deal()
        self.steps.start_deal()
        self.results.check_dealt(deal)
        if deal.dealer != book.dealer:
            raise Found("dealer", f"seat {deal.dealer} deals, the rules give seat {book.dealer}")
        kept = tuple(tuple(sorted(k.items())) for k in book.kept)
        for seat in range(0 if self._light else deal.seats):  # the views of a checked deal
            obs = match.observation(seat)
            if obs.scores != tuple(book.scores) or obs.kept != kept:
                raise Found(
                    "view",
                    f"seat {seat} sees the scores {list(obs.scores)} and kept values "
                    f"{obs.kept}, the match has {book.scores} and {kept}",
                )
        if isinstance(deal, Deal):
            self._replay = TrickReplay(
                self.ref,
                deal.deck_order,
                deal.dealer,
                deal.seats,
                book.context(),
                watch=not self._light,
            )
            self._seen = self._replay.seen
            if self._replay.redealt:
                raise Found(
                    "redeal",
                    f"seat {self._replay.redeal_by}'s hand makes the deal void as dealt "
                    "(redeal.forced_if), but it is played",
                )
        else:
            self._seen = [set(h) for h in deal.hands]
            public = {deal.trump_card} if deal.trump_card >= 0 else set()
            for seen in self._seen:
                seen.update(public)
        self.information.start_deal(self._seen)

    def _follow(self, deal: Deal | BoutDeal, seat: int, action: Action, phase: str) -> None:
        """Bring the restatement, the seen cards and the other worlds up to date."""
        replay = self._replay
        if replay is not None:
            if phase == replay.stage and seat != replay.to_act:
                raise Found(
                    "turn",
                    f"seat {seat} acted ({phase}), but it was seat {replay.to_act}'s turn",
                )
            if phase != replay.stage:
                raise Found(
                    "phases",
                    f"seat {seat} acted in phase '{phase}', the rules give seat "
                    f"{replay.to_act} in phase '{replay.stage}'",
                )
            if self._light:  # not compared as a whole at this step: the action taken, then
                if replay.allows(action.kind, action.card, action.text) is False:
                    raise Found(
                        invariant_of(replay.stage, {action.kind}),
                        f"seat {seat} ({phase}) took {action.text}, which the rules do not allow",
                    )
            done = len(replay.tricks)
            try:
                replay.apply(
                    seat,
                    action.kind,
                    action.card,
                    action.value,
                    action.to,
                    action.qualifier,
                    action.text,
                )
            except (ValueError, KeyError, IndexError, StopIteration):
                raise Found(
                    "legal",
                    f"seat {seat} took '{action.text}' ({phase}), which the rules do not allow",
                ) from None
            if len(replay.tricks) > done and isinstance(deal, Deal):
                self.results.check_trick(deal, replay, done)
        else:
            self.bouts.follow(deal, seat, action, self._seen)
        self.information.follow(seat, action)
