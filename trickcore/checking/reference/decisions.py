"""Decisions and choices in a replayed trick deal: asked between phases (in the order of the
file, while their `offer_if` holds) and at a turn in trick play, their rules and effects."""

from __future__ import annotations

from typing import Any

from .expressions import TRUMP, TURNUP
from .names_read import NamesRead
from .rule_blocks import NO_TRUMP, DecisionRule
from .scoring import ReplayScoring
from .variant import run_step


class DecisionsReplay(ReplayScoring):
    """Who is asked which decision when, what it reads, what taking it does."""

    def _ask_point(self, point: str) -> bool:
        """Queue the decisions of `point`: each decision in the order of the file, and of
        each, every player of the deal in deal order (`who: declarer`: the declarer alone);
        ask the first whose `offer_if` holds."""
        self.ask_point = point
        self.asked_again = False  # a decision with `again: yes` taken in this round
        self.queue = [
            (seat, d) for d in self.ref.decisions if point in d.at for seat in self._asked(d)
        ]
        return self._ask_next()

    def _asked(self, d: DecisionRule) -> list[int]:
        """The players a decision between phases may go to, in turn: all the players of
        the deal, from the forehand, or from the player after the declarer (`first_asked:
        left_of_declarer`); whom `who` names is judged as each one's turn comes."""
        n = len(self.active)
        start = 0
        if d.first_asked == "left_of_declarer" and self.declarer in self.active:
            start = self.active.index(self.declarer) + 1
        return [self.active[(start + k) % n] for k in range(n)]

    def _named(self, d: DecisionRule, seat: int) -> bool:
        """`who` names this player now: each, the declarer (who may have become so by a
        choice just made), or a defender (not of the declarer's side)."""
        if d.who == "each":
            return True
        if self.declarer < 0:
            return False
        if d.who == "declarer":
            return seat == self.declarer
        return seat not in self.side(self.declarer)

    def _ask_next(self) -> bool:
        """Drop the queued decisions not offered now (an earlier answer may have changed
        it); ask the first one that is. When the round is over and a decision with `again:
        yes` was taken in it, the point's decisions are asked once more, from the first."""
        if not self.queue and self.asked_again:
            return self._ask_point(self.ask_point)
        while self.queue:
            seat, d = self.queue[0]
            if self._named(d, seat) and (
                d.offer_if is None
                or self.ref.eval(
                    d.offer_if,
                    self.decision_env(seat, reads=d.reads),
                    hand=self.hands[seat],
                    qualifier=self.qualifier,
                )
            ):
                return self._stage("decide", seat)
            self.queue.pop(0)
            if not self.queue and self.asked_again:
                return self._ask_point(self.ask_point)
        return False

    def decision_env(
        self, seat: int, others: bool = True, reads: NamesRead | None = None
    ) -> dict[str, Any]:
        """The names a decision (offer_if, its rules, a choice's OPTION_if) reads now; for
        the aggregates, every player of the deal's (TABLE) and his side's (SIDE). With
        `reads` (what the decision's expressions read), only those names, and the other
        players' only when they call an aggregate."""
        if reads is not None and reads.lean:
            env = self.names_read(seat, reads)
            if others and reads.table:
                self._with_table(env, seat, lambda x: self.names_read(x, reads))
            return env
        env = self.result_env(seat, definitions=False, now=True)
        env.update(
            stock_left=self.stock_left(),
            stock_closed=self.stock_closed,
            hand_size=len(self.hands[seat]),
            turnup_suit=self.turnup_suit(),
            out_left=self.out_left(),
        )
        env[TRUMP] = self.trump
        env[TURNUP] = self.turnup  # turnup_rank(R)
        if others:
            self._with_table(env, seat, lambda x: self.decision_env(x, others=False))
        return env

    def _decisions_offered(self, seat: int, at: str) -> list[str]:
        """The decisions `seat` may take at his turn to `at` (lead, play), or right after
        announcing a meld (`after_announce`), whose `offer_if` holds now."""
        out = []
        env: dict[str, Any] | None = None
        for d in self.ref.decisions:
            if d.options or not (d.after_announce if at == "announced" else at in d.at):
                continue
            if env is None:
                env = self.decision_env(seat, reads=self.ref.turn_reads[at])
            hand, q = self.hands[seat], self.qualifier
            if d.offer_if is None or self.ref.eval(d.offer_if, env, hand=hand, qualifier=q):
                out.append(d.name)
        return out

    def _forced(self, seat: int, offered: list[str]) -> list[str]:
        """Of the decisions offered `seat` at a turn or in a round of offers, those whose
        `forced_if` holds: he must take one of them before anything else."""
        rules = [
            d
            for d in self.ref.decisions
            if d.name in offered and not d.options and d.forced_if is not None
        ]
        if not rules:
            return []
        env = self.decision_env(seat)
        hand, q = self.hands[seat], self.qualifier
        return [
            d.name
            for d in rules
            if d.forced_if is not None and self.ref.eval(d.forced_if, env, hand=hand, qualifier=q)
        ]

    def _decide_actions(self, seat: int, hand: list[int]) -> dict[str, str]:
        """The answers to the decision asked between phases: it or keep; of a choice, the
        options whose conditions hold."""
        ref = self.ref
        _, d = self.queue[0]
        env = self.decision_env(seat, reads=d.reads)
        if not d.options:
            forced = d.forced_if is not None and ref.eval(
                d.forced_if, env, hand=hand, qualifier=self.qualifier
            )
            return {d.name: "decide"} if forced else {d.name: "decide", "keep": "keep"}
        return {
            option: "choose"
            for option, rule in zip(d.options, d.option_ifs, strict=True)
            if rule is None or ref.eval(rule, env, hand=hand, qualifier=self.qualifier)
        }

    def _answer(self, seat: int, kind: str, text: str) -> None:
        """The answer to the decision asked between phases: it, keep, or an option."""
        _, d = self.queue.pop(0)
        if kind == "choose" and d.own:  # the chooser's own value, true for him alone
            self.context[seat][text] = True
        elif kind == "choose":
            self.chosen.append(text)
            for ctx in self.context:  # an option chosen is public, and true for everyone
                ctx[text] = True
            trump = d.option_trumps[d.options.index(text)]
            if trump >= 0:
                self.trump = trump
            elif trump == NO_TRUMP:  # `trump: OPTION none`: no trump suit in this deal
                self.trump = -1
        if kind == "choose" and d.declares:  # the chooser is the declarer now (public)
            self.declarer = seat
        elif kind == "decide":
            if d.again:
                self.asked_again = True
            self._take(seat, d)
            if d.effect[:1] in (("end_deal",), ("redeal",)):
                return
            if self.exchange[0] >= 0:
                self.to_act = seat  # still deciding: the cards to lay away
                return
        if not self._ask_next():
            self._flow_on()

    def _take(self, seat: int, d: DecisionRule) -> None:
        """A decision taken: its rules set the player's deal values in order, then its
        effect (close the stock, exchange the turn-up, end the deal, skip a phase)."""
        ref = self.ref
        env = self.decision_env(seat, reads=d.reads)
        hand = self.hands[seat]
        # public: every player's values (of the players of the deal), else his own
        owners = [self.context[s] for s in self.active] if d.public else [self.context[seat]]
        for step in d.steps:
            what = f"decision '{d.name}' rule '{step.name}'"
            assigned = run_step(ref, step, env, what, hand=hand, qualifier=self.qualifier)
            for values in owners:
                values.update(assigned)
            env.update(assigned)
        effect = d.effect
        if not effect:
            return
        if effect[0] == "close_stock":
            self.stock_closed = True
        elif effect[0] == "swap_turnup":
            face = self.trump * ref.eval.n_ranks + ref.eval.ranks[effect[1]]
            card = min(c for c in hand if ref.eval.face(c) == face)  # his first copy
            hand.remove(card)
            hand.append(self.turnup)
            self.turnup = card
            for seen in self.seen:  # the exchanged card lies face up
                seen.add(card)
        elif effect[0] == "end_deal":
            self._end_now()
        elif effect[0] == "redeal":  # thrown in by him: not scored, dealt anew
            self.queue = []
            self.asked_again = False
            self._void(seat)
        elif effect[0] == "skip":
            self.skipped.add(effect[1])
        elif effect[0] == "exchange_out":  # E49: he lays N away, then takes N left out
            # `exchange_out N` or `exchange_out A to B`: at least A, at most B, and of those
            # beyond A no more than the cards left out that nobody has held
            fewest, most = int(effect[1]), int(effect[-1])
            most = min(most, max(fewest, self.out_left()))
            if most > 0:
                self.exchange = (seat, fewest, most, [])

    def exchange_actions(self, hand: list[int]) -> dict[str, str]:
        """In an exchange: each card of his hand to lay away; `keep` (no more) once he has
        laid away the fewest he must."""
        _, fewest, _, away = self.exchange
        ct = self.ref.card_text
        out = {f"discard {ct[c]}": "discard" for c in hand}
        if len(away) >= fewest:
            out["keep"] = "keep"
        return out

    def _exchange(self, seat: int, kind: str, card: int) -> None:
        """A card laid away in an exchange with the cards left out of the deal, or `keep`;
        after the last he may or says `keep`, he takes as many of those (the first in deck
        order), his in their place."""
        _, _, most, away = self.exchange
        if kind != "keep":
            self.hands[seat].remove(card)
            away.append(card)
            if len(away) < most:
                return
        taken = self.out[: len(away)]
        self.out = self.out[len(away) :] + away  # under the rest: a later exchange draws anew
        self.laid_out.update(away)
        self.hands[seat].extend(taken)
        self.seen[seat].update(taken)
        self.exchange = (-1, 0, 0, [])
        if not self._ask_next():
            self._flow_on()

    def _by_name(self, name: str) -> DecisionRule:
        return next(d for d in self.ref.decisions if d.name == name and not d.options)
