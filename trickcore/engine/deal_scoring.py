"""A trick deal's scoring: each player's results and the scoring rules over them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..language.exprs import (
    HAND_KEY,
    SEAT_KEY,
    SEATS_KEY,
    SIDE_KEY,
    TABLE_KEY,
    TAKEN_KEY,
    TRICKS_KEY,
    TRUMP_KEY,
)
from ..language.limits import MAX_VALUE, in_range
from .combinations import NO_COMBINATIONS, combination_names
from .state import OVER
from .trick_names import tricks_common, tricks_envs

if TYPE_CHECKING:
    pass


from .deal_roles import DealRoles


class DealScoring(DealRoles):
    """A trick deal scored when its flow is over (see the module docstring)."""

    __slots__ = ()

    # ------------------------------------------------------------ scoring
    def _score(self) -> None:
        gains = [0] * self.seats
        scoring = self.rules.scoring
        envs = self._scored_envs()
        active = self.active
        for seat in range(self.seats):
            env = envs[seat]
            if seat not in active:
                if scoring.sitting_out is not None:
                    gains[seat] = scoring.sitting_out(env)
                    in_range(gains[seat], "scoring's sitting_out score", scoring.sitting_out.loc)
                continue
            declarer = seat == self.declarer
            rule = scoring.declarer if declarer else scoring.defender
            gains[seat] = gain = rule.fn(env)
            if not -MAX_VALUE <= gain <= MAX_VALUE:  # the message only when it fails
                role = "declarer" if declarer else "defender"
                in_range(gain, f"scoring's {role} score", rule.loc)
        self.gains = gains
        self.results = envs
        self.phase = OVER
        self.to_act = -1

    def result_env(
        self,
        seat: int,
        shared: dict[str, Any] | None = None,
        commons: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The quantities a scoring rule reads for one seat at the end of the deal (`shared`:
        `_shared_results()`, and `commons`: each finished trick's names the same for every
        player (when scoring reads them), when the caller has made them for every seat)."""
        rules = self.rules
        tricks = self.tricks
        env = (shared if shared is not None else self._shared_results()).copy()
        env["tricks_won"] = self.tricks_won[seat]
        env["won_last_trick"] = bool(tricks) and tricks[-1].winner == seat and not self.ended_early
        env["tricks_bid"] = max(self.tricks_bid[seat], 0)
        env["bid_blind"] = self.bid_blind[seat]
        env["declarer"] = seat == self.declarer
        env["card_points"] = self.card_points[seat] + (
            self._set_aside_points(seat) if rules.talon.counts_for_if else 0
        )
        own = [d for d in self.declarations if d.seat == seat] if self.declarations else []
        env["melds_declared"] = sum(d.value for d in own)
        env["seat"] = seat
        env["position"] = self.active.index(seat) if seat in self.active else -1
        if self.game.model.combinations:  # of his hand as play began
            model = self.game.model
            hand = self.start_hands.get(seat, [])
            env.update(combination_names(model.combinations, model.deck, hand, self.trump))
        self._set_role(env, seat)
        if rules.scoring.reads_top_trumps:
            env["top_trumps"] = self.top_trumps(seat)
        env.update(self.context[seat])
        if rules.scoring.reads_taken:
            env[TAKEN_KEY] = [c for t in tricks if t.winner == seat for _, c in t.cards]
        if rules.scoring.reads_hand:  # count_rank, holds_trump: his hand as play began
            env[HAND_KEY] = self.start_hands.get(seat, [])
            env[TRUMP_KEY] = self.trump
        game = self.game
        if rules.scoring.reads_tricks:  # sum_tricks: each finished trick, the deal's sides
            env[TRICKS_KEY] = tricks_envs(
                tricks,
                self.tricks_total,
                self.points_under,
                seat,
                self.side_of,
                commons,
                game.trick_combination_points,
            )
        if own:
            melds = game.model.melds
            env["meld_points"] = sum(
                d.value for d in own if melds[game.meld_index[d.meld]].counts_if(env)
            )
        return env

    def _shared_results(self) -> dict[str, Any]:
        """The part of every seat's `result_env` that is the same for all (the seat's own
        names are set over it)."""
        shared = self._contract_public()
        shared.update(self.game.result_base)
        if self.game.points_vary:  # the deck's points with the deal's trump, call, choices
            shared["deck_points"] = sum(self.points_now())
        shared["tricks_total"] = self.tricks_total
        shared["tricks_played"] = len(self.tricks)
        shared["stock_closed"] = self.stock_closed
        shared["meld_points"] = 0
        shared.update(NO_COMBINATIONS)
        shared["players"] = len(self.active)
        shared["seats"] = self.seats
        shared["top_trumps"] = 0
        return shared

    def top_trumps(self, seat: int) -> int:
        """With the highest trump among his cards: the unbroken run of trumps he holds from
        the top; without it: the trumps above his highest (see the name `top_trumps`)."""
        trumps = self.game.trump_order(self.trump, self.qualifier, self.chosen)
        held: set[int] = set()
        owner = self.set_aside_owner()
        for member in self.side_members[seat]:  # his side's cards together
            held.update(self.start_hands.get(member, ()))
            if member == owner:
                held.update(self.laid_away)
                held.update(self.talon)
        run = 0
        with_top = bool(trumps) and trumps[0] in held
        for c in trumps:
            if (c in held) != with_top:
                break
            run += 1
        return run

    def set_aside_owner(self) -> int:
        """Who gets the laid-away and untaken talon cards: the first player in deal order
        for whom `talon.counts_for_if` holds (-1: nobody)."""
        rule = self.rules.talon.counts_for_if
        if rule is None or (not self.laid_away and not self.talon):
            return -1
        key = (len(self.tricks), self.declarer, self.ended_early)
        if self._owner[0] == key:
            return self._owner[1]
        owner = -1
        for seat in self.active:
            env = self.open_env(seat)
            env.update(won_last_trick=self._won_last_trick(seat), contract=self.contract)
            if rule(env):
                owner = seat
                break
        self._owner = (key, owner)
        return owner

    def _won_last_trick(self, seat: int) -> bool:
        return bool(self.tricks) and self.tricks[-1].winner == seat and not self.ended_early

    def _set_aside_points(self, seat: int) -> int:
        """The points of the laid-away and untaken talon cards, for their owner."""
        if seat != self.set_aside_owner():
            return 0
        points = self.points_now()
        return sum(points[c] for c in self.laid_away) + sum(points[c] for c in self.talon)

    def _scored_envs(self) -> list[dict[str, Any]]:
        """Every seat's scoring environment: each definition is worked out for every player
        before the next one, so that `sum_all(x)` and the like see them all (they read the
        players of the deal; a seat sitting out has his own results, all zero)."""
        shared = self._shared_results()
        commons = None
        if self.rules.scoring.reads_tricks:
            game = self.game
            commons = tricks_common(
                self.tricks, self.tricks_total, self.points_under, game.trick_combination_points
            )
        envs = [self.result_env(s, shared, commons) for s in range(self.seats)]
        table = [envs[s] for s in self.active]
        members = self.side_members  # each seat's side, in seat order
        for seat, env in enumerate(envs):
            env[TABLE_KEY] = table
            env[SEATS_KEY] = envs
            env[SEAT_KEY] = seat
            env[SIDE_KEY] = [envs[t] for t in members[seat]]
        for name, rule in self.rules.scoring.definitions:
            fn = rule.fn
            for env in envs:
                env[name] = value = fn(env)
                if not -MAX_VALUE <= value <= MAX_VALUE:  # the message only when it fails
                    in_range(value, f"scoring definition '{name}'", rule.loc)
        return envs

    def final_env(self, seat: int) -> dict[str, Any]:
        """The scoring quantities and definitions of a seat after the deal (for after_deal)."""
        if self.results and self.results[seat]:
            return dict(self.results[seat])
        return dict(self._scored_envs()[seat])

    @property
    def judged_by_progress(self) -> bool:
        """Whether `worth()` is scoring's `progress` (higher is better) or the deal scores."""
        return self.rules.scoring.progress

    def worth(self) -> list[int] | None:
        """What the finished deal is worth to each seat, for those who judge play before the
        match is decided: scoring's `progress` where the rules define it (higher is better),
        else the deal scores; None before the end and for a deal thrown in unscored."""
        if self.gains is None:
            return None
        if not self.rules.scoring.progress or not self.results:
            return list(self.gains)
        return [int(self.results[s].get("progress", 0)) for s in range(self.seats)]

    def summary(self) -> dict[str, Any]:
        """The deal's result as plain data (kept in Match.deal_results)."""
        return {
            "dealer": self.dealer,
            "declarer": self.declarer,
            "contract": self.contract,
            "qualifier": self.qualifier,
            "gains": list(self.gains or [0] * self.seats),
            "card_points": list(self.card_points),
        }
