"""A replayed trick deal's result: the deal scores by the scoring rules, and the quantities
they read (card points with the cards set aside, melds that count, top trumps)."""

from __future__ import annotations

from typing import Any

from .errors import in_range
from .expressions import SEAT, SEATS, SIDE, TABLE, TAKEN, TRICKS, TRUMP
from .finished_tricks import FinishedTricks


class ReplayScoring(FinishedTricks):
    """The deal's scores and result quantities, from the deal as the checker followed it."""

    def deal_scores(self) -> tuple[list[int], list[dict[str, Any]]]:
        """Each seat's deal score, and the names after_deal reads, from the replayed deal.

        The definitions are evaluated in dependency order, each for every player of the
        deal before the next (so that the aggregates see every player's value).
        """
        ref = self.ref
        seats = self.seats
        envs = [self.result_env(seat, definitions=False) for seat in range(seats)]
        table = [envs[seat] for seat in self.active]
        for seat in range(seats):
            side = [x for x in self.side(seat) if x in self.active or x == seat]
            envs[seat][TABLE] = table
            envs[seat][SIDE] = [envs[x] for x in side]
            envs[seat][SEATS] = envs
            envs[seat][SEAT] = seat
        others = [seat for seat in range(seats) if seat not in self.active]
        for name in ref.order:
            for seat in [*self.active, *others]:
                value = ref.eval(
                    ref.definitions[name],
                    envs[seat],
                    hand=self.start_hands.get(seat, []),
                    qualifier=self.qualifier,
                )
                envs[seat][name] = in_range(value, f"scoring definition '{name}'")
        gains = [0] * seats
        if "sitting_out" in ref.definitions:  # a seat not in the deal (S3)
            for seat in others:
                value = ref.eval(ref.definitions["sitting_out"], envs[seat], hand=[])
                gains[seat] = int(in_range(value, "scoring's sitting_out score"))
        for seat in self.active:
            if "player" in ref.definitions:
                rule = "player"
            else:
                rule = "declarer" if seat == self.declarer else "defender"
            value = ref.eval(
                ref.definitions[rule],
                envs[seat],
                hand=self.start_hands.get(seat, []),
                qualifier=self.qualifier,
            )
            gains[seat] = int(in_range(value, f"scoring's {rule} score"))
        return gains, envs

    def result_env(self, seat: int, definitions: bool = True, now: bool = False) -> dict[str, Any]:
        """The result quantities of a seat (at the end of the deal; `now`: as the deal
        stands, for a decision: card points of his tricks only), and, for one seat alone,
        the scoring definitions that need no other player."""
        ref = self.ref
        own = [d for d in self.declarations if d[0] == seat]
        card_points = self.card_points[seat]
        if not now and seat == self.set_aside_owner():
            points = ref.points_for(self.trump)
            card_points += sum(points[c] for c in [*self.laid_away, *self.talon])
        env: dict[str, Any] = {
            "card_points": card_points,
            "tricks_won": self.tricks_won[seat],
            "tricks_total": self.tricks_total,
            "tricks_played": len(self.tricks),
            "won_last_trick": self.won_last_trick(seat),
            "stock_closed": self.stock_closed,
            "tricks_bid": max(self.tricks_bid[seat], 0),
            "bid_blind": self.bid_blind[seat],
            "contract": self.contract,
            "declarer": seat == self.declarer,
            "deck_points": ref.deck_points_for(self.trump),
            "all_melds": ref.all_melds,
            "players": len(self.active),
            "seats": self.seats,
            "seat": seat,
            "position": self.active.index(seat) if seat in self.active else -1,
            **ref.combination_names(
                self.hands[seat] if now else self.start_hands.get(seat, []), self.trump
            ),
            "melds_declared": sum(d[3] for d in own),
            "meld_points": 0,
            "top_trumps": self.top_trumps(seat) if ref.reads_top_trumps else 0,
            TAKEN: [c for cards, winner, _ in self.tricks if winner == seat for _, c in cards],
            **self.contract_env(seat),
            **self.context[seat],
            TRUMP: self.trump,  # holds_trump in scoring: over his hand as play began
        }
        if ref.decisions_read_tricks if now else ref.scoring_reads_tricks:
            # sum_tricks: each finished trick (in scoring with the deal's sides at the end;
            # in a decision without them, which are secret)
            env[TRICKS] = self.trick_records(seat, sides=not now)
        counting = 0
        for _, mi, _, value in own:
            counts_if = ref.melds[mi].counts_if
            if counts_if is None or ref.eval(counts_if, env, qualifier=self.qualifier):
                counting += value
        env["meld_points"] = counting
        if definitions:
            env[TABLE] = env[SIDE] = env[SEATS] = [env]
            env[SEAT] = 0
            for name in ref.order:
                value = ref.eval(
                    ref.definitions[name],
                    env,
                    hand=self.start_hands.get(seat, []),
                    qualifier=self.qualifier,
                )
                env[name] = in_range(value, f"scoring definition '{name}'")
        return env

    def set_aside_owner(self) -> int:
        """Who gets the laid-away cards and the talon left untaken: the first player in deal
        order for whom `talon.counts_for_if` holds (-1: nobody)."""
        ref = self.ref
        if ref.counts_for_if is None or (not self.laid_away and not self.talon):
            return -1
        for seat in self.active:
            env = self.open_env(seat, ref.eval.reads_table(ref.counts_for_if))
            env.update(won_last_trick=self.won_last_trick(seat), contract=self.contract)
            if ref.eval(ref.counts_for_if, env, qualifier=self.qualifier):
                return seat
        return -1

    def top_trumps(self, seat: int) -> int:
        """Over his hand as play began and the talon cards counted for him: with the
        highest trump, his unbroken run of trumps from the top; without it, the trumps above
        his highest (all of them if he has none). Trumps by the relations at the end."""
        eff, power = self.relations()
        trumps = sorted(
            (c for c in range(self.ref.size) if eff[c] == self.ref.trump_id),
            key=lambda c: -power[c],
        )
        held: set[int] = set()
        owner = self.set_aside_owner()
        for member in self.side(seat):  # his side's cards together
            held.update(self.start_hands.get(member, ()))
            if member == owner:
                held.update(self.laid_away)
                held.update(self.talon)
        if not trumps:
            return 0
        with_top = trumps[0] in held
        run = 0
        for c in trumps:
            if (c in held) != with_top:
                break
            run += 1
        return run
