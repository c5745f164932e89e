"""The deal's finished tricks as a player reads them: the names of one trick (`after_trick`,
and each trick of `sum_tricks(x)` / `count_tricks(b)`), and the `after_trick` rules run
after each trick."""

from __future__ import annotations

from typing import Any

from .deal_state import DealState
from .expressions import SIDE, TABLE, TRICK, TRUMP
from .names_read import NamesRead
from .variant import run_step


class FinishedTricks(DealState):
    """Each finished trick's names for a player, and `after_trick`."""

    def trick_names(self, seat: int, number: int, sides: bool) -> dict[str, Any]:
        """Trick `number` (from 1) as `seat` reads it: its number, its card points (with the
        trump in force when it was won), whether it is the deal's last (its number is
        `tricks_total`) and whether he won it; with `sides` (scoring: the sides as they
        are now, at the end) whether his side won it and which cards his opponents played
        to it (`opponents_played`)."""
        cards, winner, trump = self.tricks[number - 1]
        points = self.points(trump)
        partners = self.side(seat) if sides else ()
        names: dict[str, Any] = {
            "trick_number": number,
            "trick_points": sum(points[c] for _, c in cards),
            "last_trick": number == self.tricks_total,
            "won_trick": winner == seat,
            TRICK: (cards, winner, seat, partners),
        }
        if sides:
            names["side_won"] = winner >= 0 and winner in partners
        if self.ref.reads_trick_combinations:  # the combinations among the trick's cards
            in_trick = [c for _, c in cards]
            names["trick_combination_points"] = self.ref.combination_names(in_trick, trump)[
                "combination_points"
            ]
        return names

    def trick_records(self, seat: int, sides: bool) -> list[dict[str, Any]]:
        """Every finished trick of the deal as `seat` reads it (`trick_names`), in order."""
        return [self.trick_names(seat, k + 1, sides) for k in range(len(self.tricks))]

    def _after_trick(self) -> None:
        """`after_trick`, after the trick just finished: each rule in order for every player
        of the deal (over that trick's names, his tricks, role, place in deal order, his
        combinations as trick play began and values, and the aggregates over the players of
        the deal or of his side), every player's values worked out before any is set; they
        set his deal values. Of his values, those the rules read are made, and the others'
        only for an aggregate."""
        ref = self.ref
        reads = ref.after_trick_reads
        number = len(self.tricks)
        if ref.after_trick_common_first and self._held_by_nobody(number):
            return
        envs: dict[int, dict[str, Any]] = {}
        for position, seat in enumerate(self.active):
            env = self.trick_names(seat, number, sides=False)
            env.update(
                tricks_played=number,
                tricks_won=self.tricks_won[seat],
                declarer=seat == self.declarer,
                position=position,
            )
            if reads.combinations:  # his combinations as trick play began
                env.update(ref.combination_names(self.start_hands.get(seat, []), self.trump))
            self._values_read(env, seat, reads)
            envs[seat] = env
        if reads.table:
            self._tables(envs)
        first = next(iter(envs.values()))
        for step, common in zip(ref.after_trick, ref.after_trick_common):
            if common is not None and not ref.eval(common, first, qualifier=self.qualifier):
                continue  # it fails for every player alike
            what = f"after_trick rule '{step.name}'"
            assigned = {
                seat: run_step(ref, step, env, what, qualifier=self.qualifier)
                for seat, env in envs.items()
            }
            for seat, values in assigned.items():
                envs[seat].update(values)
                self.context[seat].update(values)

    def _held_by_nobody(self, number: int) -> bool:
        """Whether the part of each after_trick rule that is the same for every player
        (`Reference.after_trick_common`) fails: then no rule holds for anybody. Worked out
        over each player's names and the trick's that are the same for all (which alone of
        the trick's names those parts read)."""
        ref = self.ref
        table = []
        # the trick's names that are the same for every player
        trick = self.trick_names(self.active[0], number, sides=False)
        same = {n: trick[n] for n in ("trick_number", "trick_points", "last_trick")}
        for position, seat in enumerate(self.active):
            env: dict[str, Any] = {
                **same,
                "tricks_played": number,
                "tricks_won": self.tricks_won[seat],
                "declarer": seat == self.declarer,
                "position": position,
            }
            self._values_read(env, seat, ref.after_trick_reads)
            table.append(env)
        over = {TABLE: table, **same, "tricks_played": number}
        return not any(
            ref.eval(common, over, qualifier=self.qualifier)
            for common in ref.after_trick_common
            if common is not None
        )

    def _values_read(self, env: dict[str, Any], seat: int, reads: NamesRead) -> None:
        """Set over `env` the player's values the rules read (`reads`)."""
        context = self.context[seat]
        for name in reads.names:
            if name in context:
                env[name] = context[name]

    def _tables(self, envs: dict[int, dict[str, Any]]) -> None:
        """Give each player's names (`envs`, by seat, in deal order) the aggregates' view:
        every player of the deal's (TABLE), those of his side (SIDE)."""
        table = list(envs.values())
        for seat, env in envs.items():
            partners = self.side(seat)
            env[TABLE] = table
            env[SIDE] = [envs[x] for x in self.active if x in partners]

    def _after_card(self, seat: int, card: int) -> None:
        """`after_card`, after `seat` played `card` to the trick: each rule in order for every
        player of the deal (over that card: `card_is(C)`, whether it is a trump, of the trump
        suit, whether he played it; the trick's cards so far; his hand now, his tricks, role,
        place and values; the aggregates), every player's values worked out before any is
        set. Of his values, those the rules read are made, and the others' only for an
        aggregate."""
        ref = self.ref
        reads = ref.after_card_reads
        eff = self.relations()[0]
        envs: dict[int, dict[str, Any]] = {}
        # rules that each begin `played_it and`: false for everybody but the player who
        # played, worked out for him alone (the others' names made only for an aggregate)
        only = ref.after_card_player_only
        players = [seat] if only and not reads.table else self.active
        for player in players:
            position = self.active.index(player)
            env: dict[str, Any] = {
                "played_it": player == seat,
                "card_is_trump": eff[card] == ref.trump_id,
                "card_in_trump_suit": ref.eval.suit(card) == self.trump,
                "cards_in_trick": len(self.trick),
                "tricks_played": len(self.tricks),
                "tricks_won": self.tricks_won[player],
                "declarer": player == self.declarer,
                "position": position,
                TRUMP: self.trump,
            }
            self._values_read(env, player, reads)
            envs[player] = env
        if reads.table:
            self._tables(envs)
        for step in ref.after_card:
            what = f"after_card rule '{step.name}'"
            assigned = {
                player: run_step(
                    ref,
                    step,
                    env,
                    what,
                    hand=self.hands[player],
                    card=card,
                    qualifier=self.qualifier,
                )
                for player, env in envs.items()
                if not only or player == seat
            }
            for player, values in assigned.items():
                envs[player].update(values)
                self.context[player].update(values)
