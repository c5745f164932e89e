"""`MatchBook`: a match's scores, kept values, dealer and end, kept by the checker itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .expressions import SIDE, TABLE
from .variant import Reference, players_in_deal, run_step


class MatchBook:
    """Scores and kept values of a match, kept by running `after_deal` here; and whether
    the match ends after a deal, and who wins (`target`, `end_if`, `tie_break`, limits);
    and who deals next."""

    def __init__(self, ref: Reference, seats: int) -> None:
        self.ref = ref
        self.seats = seats
        self.scores = [0] * seats
        self.kept = [dict(ref.keep) for _ in range(seats)]
        self.deals_scored = 0
        self.redeals = 0
        self.dealer = 0  # C1: seat 0 deals first
        # each seat's names once after_deal's rules ran after the last played deal
        self.after: list[dict[str, Any]] = []
        self.qualifier = ""

    def dealt(self, redealt: bool, loser: int = -1) -> None:
        """Who deals the next deal: after a redeal the same dealer (`redeal.same_dealer`) or
        the next; after a played deal by `next_dealer` (left, same, loser), or `next_dealer
        = EXPR`: over the names after_deal's rules left, the first seat from the dealer's
        left round the table (the dealer last) for whom it holds, else the dealer's left."""
        if redealt:
            if not self.ref.same_dealer:
                self.dealer = (self.dealer + 1) % self.seats
            return
        expr = self.ref.next_dealer
        if expr is not None:
            order = [(self.dealer + k) % self.seats for k in range(1, self.seats + 1)]
            self.dealer = next(
                (x for x in order if self.ref.eval(expr, self.after[x], qualifier=self.qualifier)),
                order[0],
            )
            return
        rule = self.ref.model.deal.next_dealer
        if rule == "left" or (rule == "loser" and loser < 0):
            self.dealer = (self.dealer + 1) % self.seats
        elif rule == "loser":
            self.dealer = loser

    def context(self) -> list[dict[str, Any]]:
        """What each seat knows of the match as the next deal begins."""
        return [
            {
                **kept,
                "deal_number": self.deals_scored + 1,
                "score": score,
                "target": self.ref.target,
                "max_other_score": self.ref.max_other_score(seat, self.scores),
            }
            for seat, (score, kept) in enumerate(zip(self.scores, self.kept, strict=True))
        ]

    def after_deal(
        self, envs: Sequence[Mapping[str, Any]], gains: Sequence[int], qualifier: str
    ) -> None:
        """Run every after_deal rule in order for every seat, right sides before assigning."""
        ref = self.ref
        self.deals_scored += 1
        self.after = []
        self.qualifier = qualifier
        for seat, base in enumerate(envs):
            env = dict(base)
            env.update(self.kept[seat])
            env.update(
                score=self.scores[seat],
                gain=gains[seat],
                deal_number=self.deals_scored,
                target=ref.target,
            )
            for step in ref.after_deal:
                what = f"after_deal rule '{step.name}'"
                env.update(run_step(ref, step, env, what, qualifier=qualifier, each=True))
            self.scores[seat] = env["score"]
            for name in self.kept[seat]:
                self.kept[seat][name] = env[name]
            self.after.append(env)

    # ------------------------------------------------------------ the end
    def standing(self, seat: int) -> int:
        """What the match ranks a seat by: `rank_by`, else its score."""
        ref = self.ref
        if ref.rank_by is None:
            return self.scores[seat]
        env = {"score": self.scores[seat], "target": ref.target, **self.kept[seat]}
        return int(ref.eval(ref.rank_by, env))

    def ends(self, redealt: bool, declarer: int) -> tuple[bool, list[int]]:
        """Whether the match is over after the deal just finished, and its winners.

        After a played deal: the seats that reached the target (if any), ranked by
        `tie_break`; else `end_if` holding for any seat ends it, the winners ranked among all
        seats by standing and then `tie_break`. `play_on` in the tie-breaks: winners of
        more than one side play another deal. The deal and redeal limits end it regardless,
        the winners the seats of the highest standing.
        """
        ref = self.ref
        seats = range(self.seats)
        if not redealt:
            candidates: list[int] = []
            if ref.has_target:
                candidates = [x for x in seats if self.scores[x] >= ref.target]
            if not candidates and ref.end_if is not None:
                envs = [self._end_env(seat) for seat in seats]
                for seat, env in zip(seats, envs, strict=True):  # the aggregates' views
                    side = ref.side(seat, self.seats)
                    env[TABLE] = envs
                    env[SIDE] = [envs[x] for x in side]
                if any(ref.eval(ref.end_if, env) for env in envs):
                    top = max(self.standing(x) for x in seats)
                    candidates = [x for x in seats if self.standing(x) == top]
            if candidates:
                winners = self._tie_break(candidates, declarer)
                if winners is not None:
                    return True, winners
        if self.deals_scored >= ref.deal_limit or self.redeals > ref.redeal_limit:
            top = max(self.standing(x) for x in seats)
            return True, [x for x in seats if self.standing(x) == top]
        return False, []

    def _tie_break(self, candidates: list[int], declarer: int) -> list[int] | None:
        """The winners among `candidates` by `tie_break`; None when `play_on` plays on."""
        for rule in self.ref.tie_break:
            if rule == "declarer" and declarer in candidates:
                return [declarer]
            if rule == "highest":
                top = max(self.standing(x) for x in candidates)
                candidates = [x for x in candidates if self.standing(x) == top]
            if rule == "play_on":
                sides = {tuple(self.ref.side(x, self.seats)) for x in candidates}
                if len(sides) > 1:
                    return None
        return candidates

    def _end_env(self, seat: int) -> dict[str, Any]:
        return {
            **self.kept[seat],
            "players": len(players_in_deal(self.ref.model, 0, self.seats)),
            "seats": self.seats,
            "score": self.scores[seat],
            "deal_number": self.deals_scored,
            "target": self.ref.target,
            "max_other_score": self.ref.max_other_score(seat, self.scores),
        }
