"""A match: deals in sequence, scores and kept per-player state, end and winners."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..language.errors import IllegalActionError, RulesError, TrickcoreError
from ..language.limits import MAX_VALUE, check_seat, in_range, is_whole
from .actions import Action
from .bouts import BoutDeal
from .deal import Deal
from .observation import BoutObservation, Observation
from .saving import match_to_json
from .shuffling import shuffle

if TYPE_CHECKING:
    from .game import Game


class Match:
    """A whole match. Exactly one seat is to act until `is_over`.

    `current` is the current deal's full state (every hand: for tests, debugging and a
    referee); players and bots should read `observation(seat)` or the public `deal`.
    """

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        deck_orders: Sequence[Sequence[str | int]] | None = None,
        players: int | None = None,
        scores: Sequence[int] | None = None,
        kept: Sequence[dict[str, Any]] | None = None,
        dealer: int = 0,
    ) -> None:
        self.game = game
        self.seats = game.check_seats(players)
        if seed is None and deck_orders is None:
            seed = random.randrange(2**31)
        self.seed = seed
        self.deck_orders = [game.deck_from_texts(o) for o in deck_orders] if deck_orders else []
        self._rng = random.Random(seed if seed is not None else 0)
        match = game.model.match
        self.scores = [0] * self.seats
        self.kept: list[dict[str, Any]] = [
            {name: init for name, _, init in match.keep} for _ in range(self.seats)
        ]
        self.start: dict[str, Any] = {"scores": None, "kept": None, "dealer": dealer}
        if scores is not None:
            if not isinstance(scores, (list, tuple)):
                raise TrickcoreError(f"scores must be a list of {self.seats} whole numbers")
            if len(scores) != self.seats or not all(is_whole(x) for x in scores):
                raise TrickcoreError(
                    f"scores must be {self.seats} whole numbers within ±{MAX_VALUE:,}"
                )
            self.scores = list(scores)
            self.start["scores"] = list(scores)
        if kept is not None:
            self._set_kept(kept)
        if not is_whole(dealer) or not 0 <= dealer < self.seats:
            raise TrickcoreError(f"dealer must be a seat 0..{self.seats - 1}")
        self.dealer = dealer
        self.deals_dealt = 0
        self.deals_played = 0
        self.redeals = 0
        self.stopped: str | None = None
        self.history: list[tuple[int, int, str]] = []
        self.deal_results: list[dict[str, Any]] = []
        self.winners: list[int] = []
        self.is_over = False
        self.current: Deal | BoutDeal = self._next_deal()
        self._skip_void_deals()

    def _set_kept(self, kept: Sequence[dict[str, Any]]) -> None:
        types = {name: typ for name, typ, _ in self.game.model.match.keep}
        if (
            not isinstance(kept, (list, tuple))
            or len(kept) != self.seats
            or not all(isinstance(k, dict) for k in kept)
        ):
            raise TrickcoreError(f"kept state must list {self.seats} seats")
        for seat, values in enumerate(kept):
            for name, value in values.items():
                if name not in types:
                    known = ", ".join(types) or "none"
                    raise TrickcoreError(f"'{name}' is not kept state of this variant ({known})")
                ok = isinstance(value, bool) if types[name] == "bool" else is_whole(value)
                if not ok:
                    kind = "yes/no value" if types[name] == "bool" else "whole number in range"
                    raise TrickcoreError(f"kept state '{name}' must be a {kind}")
                self.kept[seat][name] = value
        self.start["kept"] = [dict(k) for k in self.kept]

    # ------------------------------------------------------------ flow
    def _next_order(self) -> list[int]:
        if self.deals_dealt < len(self.deck_orders):
            return list(self.deck_orders[self.deals_dealt])
        order = list(range(self.game.model.deck.size))
        shuffle(self._rng, order)
        return order

    def _next_deal(self) -> Deal | BoutDeal:
        order = self._next_order()
        self.deals_dealt += 1
        context = self.game.match_context(self.seats, self.deals_played + 1, self.scores, self.kept)
        return self.game.make_deal(order, self.dealer, self.seats, context)

    @property
    def deal(self) -> Observation | BoutObservation:
        """The current deal's public view: what every player at the table may know."""
        return attrs.evolve(self.current.public_view(), scores=tuple(self.scores))

    @property
    def to_act(self) -> int:
        """The seat to act, or -1 when the match is over."""
        return -1 if self.is_over else self.current.to_act

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act."""
        return [] if self.is_over else self.current.legal_actions()

    def legal_ids(self) -> list[int]:
        """The legal actions as numbers of the variant's action space (see
        `Variant.action_of`), in the order of `legal_actions()`."""
        return [] if self.is_over else self.current.legal_ids()

    def apply_id(self, action_id: int) -> None:
        """Take the legal action with this number (IllegalActionError if none is)."""
        if type(action_id) is int:  # (a float or a bool equal to a number is no number)
            for a in self.legal_actions():
                if a.id == action_id:
                    self.apply(a)
                    return
        if self.is_over:
            raise IllegalActionError("the match is over; no action is possible")
        self.current.apply_id(action_id)  # raises, naming the legal actions

    def clone(self) -> Match:
        """An independent copy of the match: its deal, scores, kept values, history and
        the shuffle to come (the copy deals the same cards next)."""
        new = object.__new__(Match)
        state = self.__dict__.copy()
        state["current"] = self.current.clone()
        state["scores"] = self.scores[:]
        state["kept"] = [dict(k) for k in self.kept]
        state["history"] = self.history[:]
        state["deal_results"] = self.deal_results[:]
        state["winners"] = self.winners[:]
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        state["_rng"] = rng
        new.__dict__ = state
        return new

    def apply(self, action: Action | str) -> None:
        """Take an action (object or text); illegal actions raise and change nothing.

        A rules file that breaks while an action is carried out (a number outside ±999,999,999,
        a bout limit below one) stops the match: the action is recorded, `is_over` and
        `stopped` (the reason) are set, and the RulesError is raised. An error while listing
        the legal actions changes nothing.
        """
        if self.is_over:
            raise IllegalActionError(f"the match is over; no action is possible ({action})")
        deal = self.current
        seat = deal.to_act
        taken = len(deal.history)
        try:
            deal.apply(action)
        except RulesError as exc:
            if len(deal.history) > taken:  # taken, and the rules broke carrying it out
                self.history.append((self.deals_dealt - 1, seat, deal.history[-1][1].text))
                deal.stop()
                self._stop(exc)
            raise
        self.history.append((self.deals_dealt - 1, seat, deal.history[-1][1].text))
        if deal.is_over:
            self._finish_deal()

    def _stop(self, exc: RulesError) -> None:
        self.is_over = True
        self.stopped = exc.message

    def _finish_deal(self) -> None:
        self._book(self.current)
        if not self.is_over:
            self.current = self._next_deal()
            self._skip_void_deals()

    def _skip_void_deals(self) -> None:
        """A deal void as it is dealt (a compulsory redeal, `redeal.forced_if`) is booked at
        once and the next one dealt."""
        while self.current.is_over and not self.is_over:
            self._book(self.current)
            if not self.is_over:
                self.current = self._next_deal()

    def _book(self, deal: Deal | BoutDeal) -> None:
        """Account for a deal that is over: redeal count or after_deal, dealer, match end."""
        model = self.game.model
        if deal.redealt:
            self.redeals += 1
            if model.redeal is None or not model.redeal.same_dealer:
                self.dealer = (self.dealer + 1) % self.seats
            self.deal_results.append({"redeal": True, "by": deal.redeal_by, "dealer": deal.dealer})
        else:
            try:
                self._run_after_deal(deal)
            except RulesError as exc:
                self._stop(exc)
                raise
            self.deals_played += 1
            if model.deal.next_dealer == "left":
                self.dealer = (self.dealer + 1) % self.seats
            elif model.deal.next_dealer == "loser":
                loser = deal.loser
                self.dealer = loser if loser >= 0 else (self.dealer + 1) % self.seats
        self._check_end(deal)

    def _run_after_deal(self, deal: Deal | BoutDeal) -> None:
        """Run the after_deal rules for every seat; nothing changes unless all succeed."""
        model = self.game.model
        gains = deal.gains or [0] * self.seats
        record = deal.summary()
        scores = list(self.scores)
        kept = [dict(k) for k in self.kept]
        for seat in range(self.seats):
            in_range(gains[seat], "the deal score (scoring's declarer or defender)", None)
            env = deal.final_env(seat)
            env.update(kept[seat])
            env.update(
                score=scores[seat],
                gain=gains[seat],
                deal_number=self.deals_played + 1,
                target=model.match.target or 0,
            )
            for step in model.match.after_deal:
                if step.condition is None or step.condition(env):
                    values = [(a.name, a.expr(env)) for a in step.assigns]
                    for name, value in values:
                        in_range(value, f"after_deal rule '{step.name}' ({name})", step.loc)
                    env.update(values)
            scores[seat] = env["score"]
            for name in kept[seat]:
                kept[seat][name] = env[name]
        self.scores = scores
        self.kept = kept
        record["scores"] = list(self.scores)
        self.deal_results.append(record)

    def _check_end(self, deal: Deal | BoutDeal) -> None:
        rules = self.game.model.match
        if not deal.redealt:
            candidates: list[int] = []
            if rules.target is not None:
                candidates = [s for s in range(self.seats) if self.scores[s] >= rules.target]
            if not candidates and rules.end_if is not None and self._end_if_holds():
                # every seat is ranked: the highest standing, then the tie-breaks among them
                top = max(self.standing(s) for s in range(self.seats))
                candidates = [s for s in range(self.seats) if self.standing(s) == top]
            if candidates:
                winners = self._rank(candidates, deal, rules.tie_break)
                side_of = self.game.model.side_of(self.seats)
                play_on = "play_on" in rules.tie_break
                if not (play_on and len({side_of[s] for s in winners}) > 1):
                    self.winners = winners
                    self.is_over = True
                    return
        if self.deals_played >= rules.deal_limit or self.redeals > rules.redeal_limit:
            self.winners = self._rank(list(range(self.seats)), deal, ("highest",))
            self.is_over = True

    def _end_if_holds(self) -> bool:
        """`match.end_if` holds for some seat (after the deal's after_deal rules)."""
        end_if = self.game.model.match.end_if
        assert end_if is not None
        context = self.game.match_context(self.seats, self.deals_played, self.scores, self.kept)
        players = len(self.game.model.deal.players_in_deal(0, self.seats))
        return any(end_if({**env, "players": players}) for env in context)

    def standing(self, seat: int) -> int:
        """The number the match ranks a seat by: `rank_by` of the variant, else the score."""
        check_seat(seat, self.seats)
        rank_by = self.game.model.match.rank_by
        if rank_by is None:
            return self.scores[seat]
        return int(rank_by({"score": self.scores[seat], **self.kept[seat]}))

    def _rank(
        self, candidates: list[int], deal: Deal | BoutDeal, ties: tuple[str, ...]
    ) -> list[int]:
        declarer = deal.declarer
        for rule in ties:
            if rule == "declarer" and declarer in candidates:
                return [declarer]
            if rule == "highest":
                top = max(self.standing(s) for s in candidates)
                return [s for s in candidates if self.standing(s) == top]
        return candidates

    # ------------------------------------------------------------ views
    def observation(self, seat: int) -> Observation | BoutObservation:
        """What `seat` may know now: its view of the current deal plus the match scores and
        every player's kept values (public: they follow from the deals' public results)."""
        kept = tuple(tuple(sorted(k.items())) for k in self.kept)
        return attrs.evolve(self.current.observation(seat), scores=tuple(self.scores), kept=kept)

    def kept_state(self, seat: int) -> dict[str, Any]:
        """The per-player state the variant keeps across deals (`match { keep ... }`)."""
        return dict(self.kept[check_seat(seat, self.seats)])

    # ------------------------------------------------------------ saving
    def to_json(self) -> dict[str, Any]:
        """The match as JSON-ready data: variant and hash, seed or deck orders, actions."""
        return match_to_json(self)
