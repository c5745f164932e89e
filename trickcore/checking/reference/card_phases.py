"""The phases of a replayed trick deal that move cards before trick play: the redeal
(compulsory or offered), cards passed, the talon (shown, taken, shared, given, laid away),
the pickup of the turned-up card, hands drawn up from the stock."""

from __future__ import annotations

from typing import Any

from .errors import in_range
from .scoring import ReplayScoring


class CardPhases(ReplayScoring):
    """The redeal offer and the phases that move cards between hands, talon and stock."""

    def _start_redeal(self) -> bool:
        """A compulsory redeal (the first hand that meets `forced_if` voids the deal), else
        the redeal offer to every player in turn; False when there is neither."""
        ref = self.ref
        active = self.active
        if not ref.has_redeal:
            return False
        if ref.forced_if is not None:  # a compulsory redeal: the first such hand voids it
            for seat in active:
                env = ref.hand_env(self.hands[seat], len(active), self.context[seat])
                if ref.eval(ref.forced_if, env, hand=self.hands[seat]):
                    self._void(seat)
                    return True
        if ref.allowed_if is None:  # nobody is offered a redeal
            return False
        self.redeal_queue = list(active)
        return self._stage("redeal", active[0])

    def _redeal_actions(self, seat: int, hand: list[int]) -> dict[str, str]:
        """Redeal (as `allowed_if` allows) or keep."""
        ref = self.ref
        env = ref.hand_env(hand, len(self.active), self.context[seat])
        allowed = ref.allowed_if is not None and ref.eval(ref.allowed_if, env, hand=hand)
        return {"redeal": "redeal", "keep": "keep"} if allowed else {"keep": "keep"}

    def _redeal_answer(self, seat: int, kind: str) -> None:
        self.redeal_queue.pop(0)
        if kind == "redeal":
            self._void(seat)
        elif self.redeal_queue:
            self.to_act = self.redeal_queue[0]
        else:
            self._flow_on()

    # ------------------------------------------------------------ cards passed
    def _start_pass(self) -> bool:
        """The pass phase: each player who passes (`passes_if`, worked out for each as the
        phase begins; every player without it) sets cards aside in turn, for the player
        `to` seats on or the first after him for whom `receives_if` held then; none when
        they go nowhere or nobody passes."""
        active = self.active
        n = len(active)
        rule = self.ref.passes_if
        givers = [s for s in active if rule is None or self.ref.eval(rule, self.role_env(s))]
        takes = self.ref.receives_if
        if takes is not None or self.ref.pass_each:
            self.pass_to = 0
            receivers = [
                s for s in active if takes is None or self.ref.eval(takes, self.role_env(s))
            ]
            self.takers = {}
            for giver in givers:
                i = active.index(giver)
                after = [active[(i + k) % n] for k in range(1, n)]
                found = [s for s in after if s in receivers]
                if found:  # the first of them; `count: N each`: all of them
                    self.takers[giver] = found if self.ref.pass_each else found[:1]
            givers = [g for g in givers if g in self.takers]
        else:
            self.pass_to = self._pass_offset()
            if not self.pass_to:
                return False
            self.takers = {g: [active[(active.index(g) + self.pass_to) % n]] for g in givers}
        if not givers:
            return False
        self.set_aside = {seat: [] for seat in givers}
        return self._stage("pass", givers[0])

    def may_pass(self, seat: int, hand: list[int]) -> list[int]:
        """The cards `pass_cards.pass_if` lets `seat` pass now; all when it allows none (or
        there is no such rule)."""
        ref = self.ref
        if ref.pass_card_if is None:
            return list(hand)
        eff = self.relations()[0]  # worked out once for the hand, not per card
        trumps = {c for c in hand if eff[c] == ref.trump_id}
        env = {
            "hand_size": len(hand),
            "pass_left": self._to_set_aside(seat) - len(self.set_aside.get(seat, [])),
            "passing_back": bool(self.passed),
            "trumps_held": len(trumps),
            **self.contract_env(seat),
            **self.context[seat],
        }
        allowed = [
            c
            for c in hand
            if ref.eval(
                ref.pass_card_if,
                {**env, "card_is_trump": c in trumps},
                hand=hand,
                card=c,
                qualifier=self.qualifier,
            )
        ]
        return allowed or list(hand)

    def _pass_offset(self) -> int:
        """How many seats on the passed cards go (`pass_cards.to`, public), 0 for none."""
        ref = self.ref
        if ref.pass_to is None:
            return 0
        first = self.context[self.active[0]]
        env = {
            "deal_number": first["deal_number"],
            "target": ref.target,
            "players": len(self.active),
        }
        return in_range(ref.eval(ref.pass_to, env), "pass_cards.to") % len(self.active)

    def _to_set_aside(self, seat: int) -> int:
        """The cards `seat` sets aside now: `count`, or N for each of his takers (`count: N
        each`); passing back, as many as he received."""
        if self.ref.pass_each and not self.passed:
            return self.ref.pass_count * len(self.takers[seat])
        return self.ref.pass_count

    def _pass_card(self, seat: int, card: int) -> None:
        """A card set aside; after the last choice every set goes to its taker (with `count:
        N each` N to each, in turn from the giver's left), and with `back` each player who
        received then sets aside as many to send back."""
        self.hands[seat].remove(card)
        self.set_aside[seat].append(card)
        if len(self.set_aside[seat]) < self._to_set_aside(seat):
            return
        choosers = list(self.set_aside)
        k = choosers.index(seat)
        if k + 1 < len(choosers):
            self.to_act = choosers[k + 1]
            return
        back = bool(self.passed)  # the first passes are made: these go back
        n = self.ref.pass_count
        for giver in choosers:
            cards = self.set_aside[giver]
            if back:
                (taker,) = [g for g, t, _ in self.passed if t == giver]
                moves = [(taker, cards)]
            elif self.ref.pass_each:  # N to each taker, in turn
                moves = [(t, cards[i * n : (i + 1) * n]) for i, t in enumerate(self.takers[giver])]
            else:
                moves = [(self.takers[giver][0], cards)]
            for taker, part in moves:
                self.hands[taker] += part
                self.seen[taker].update(part)
                (self.passed_back if back else self.passed).append((giver, taker, list(part)))
        self.set_aside = {}
        if self.ref.pass_back and not back:
            takers = {t for _, t, _ in self.passed}
            self.set_aside = {s: [] for s in self.active if s in takers}
            self.to_act = next(iter(self.set_aside))
            return
        self._leader_card_public()
        self._flow_on()

    def _leader_card_public(self) -> None:
        """`first_leader: holder CARD`: who holds the card is public once the cards stop
        moving (he is to lead); no other world may move it (any copy of it) to another
        hand."""
        ref = self.ref
        if ref.first_leader == "holder":
            copies = [c for c in range(ref.size) if ref.eval.face(c) == ref.leader_card]
            for seen in self.seen:
                seen.update(copies)

    # ------------------------------------------------------------ the talon
    def _start_talon(self) -> bool:
        """The declarer's talon: shared out (split_if), or shown (show) and taken, then
        cards given to each defender and laid away (one action each)."""
        ref = self.ref
        rules = ref.talon
        assert rules is not None
        if self.declarer < 0:  # everybody passed and play goes on: the talon stays
            return False
        talon, self.talon = self.talon, []
        if ref.split_if is not None and ref.eval(ref.split_if, {}, qualifier=self.qualifier):
            i = self.active.index(self.declarer)
            for k, card in enumerate(talon):
                seat = self.active[(i + k) % len(self.active)]
                self.hands[seat].append(card)
                self.talon_taken[seat].append(card)
                self.seen[seat].add(card)
            return False
        if rules.show:
            self.talon_shown = list(talon)
            for seen in self.seen:
                seen.update(talon)
        self.hands[self.declarer] += talon
        self.talon_taken[self.declarer] += talon
        self.seen[self.declarer].update(talon)
        if not rules.give_each_defender and not rules.lay_away:
            return False
        self.gives_left = {
            seat: rules.give_each_defender for seat in self.active if seat != self.declarer
        }
        self.lay_away_left = rules.lay_away
        return self._stage("give", self.declarer)

    def _give_actions(self, hand: list[int]) -> dict[str, str]:
        """The declarer's talon cards: given to a defender still due some, else laid away."""
        ct = self.ref.card_text
        targets = [s for s, n in self.gives_left.items() if n > 0]
        if targets:
            return {f"give {ct[c]} to {s}": "give" for c in hand for s in targets}
        cards = self.may_lay_away(self.declarer, hand, self.ref.talon_lay_away_if)
        return {f"discard {ct[c]}": "discard" for c in cards}

    def may_lay_away(self, seat: int, hand: list[int], rule: Any) -> list[int]:
        """The cards `lay_away_if` (talon or pickup) lets `seat` lay away; all when it
        allows none (or there is no such rule)."""
        if rule is None:
            return list(hand)
        allowed = [c for c in hand if self._lay_away_rule(rule, seat, hand, c)]
        return allowed or list(hand)

    def _lay_away_rule(self, rule: Any, seat: int, hand: list[int], card: int) -> bool:
        """`lay_away_if` or `lay_away_shown_if` for this card of `seat`'s hand, as a card
        is to be laid away."""
        ref = self.ref
        left = self.lay_away_left if self.stage == "give" else self.pickup_left
        env = {
            "hand_size": len(hand),
            "lay_away_left": left,
            "card_is_trump": self.relations()[0][card] == ref.trump_id,
            **self.contract_env(seat),
            **self.context[seat],
        }
        return bool(ref.eval(rule, env, hand=hand, card=card, qualifier=self.qualifier))

    def _shown_if_laid(self, seat: int, card: int, rule: Any) -> None:
        """The card `seat` is laying away is shown to every player when `lay_away_shown_if`
        holds for it (judged before it leaves his hand)."""
        if rule is not None and self._lay_away_rule(rule, seat, self.hands[seat], card):
            self.laid_shown.append(card)
            for seen in self.seen:
                seen.add(card)

    def _give(self, kind: str, card: int, to: int) -> None:
        """A card given to a defender (he sees it), or laid away by the declarer."""
        if kind == "discard":
            self._shown_if_laid(self.declarer, card, self.ref.talon_shown_if)
        self.hands[self.declarer].remove(card)
        if kind == "discard":
            self.laid_away.append(card)
            self.lay_away_left -= 1
            if not self.lay_away_left:
                self._flow_on()
            return
        self.hands[to].append(card)
        self.received[to].append(card)
        self.seen[to].add(card)
        self.gives_left[to] -= 1
        if not any(self.gives_left.values()) and not self.lay_away_left:
            self._flow_on()

    # ------------------------------------------------------------ the pickup, drawing up
    def _start_pickup(self) -> bool:
        """E12: the taker (the dealer, or the declarer) takes the turned-up card into his
        hand, unless he will sit out or `take_if` does not hold for him; then he lays away
        `lay_away` cards, one action each."""
        ref = self.ref
        taker = self.dealer if ref.pickup_who == "dealer" else self.declarer
        if taker not in self.active or self.turnup < 0 or self._sits_out(taker):
            return False
        if ref.take_if is not None:
            env = self.result_env(taker, definitions=False, now=True)
            env.update(self.role_env(taker), sits_out=False)
            if not ref.eval(ref.take_if, env, hand=self.hands[taker], qualifier=self.qualifier):
                return False
        self.hands[taker].append(self.turnup)
        self.picked, self.taker, self.turnup = self.turnup, taker, -1
        self.pickup_left = ref.pickup_lay_away
        if self.pickup_left <= 0:
            return False
        return self._stage("pickup", taker)

    def _lay_away(self, seat: int, card: int) -> None:
        """A card the taker of the turned-up card lays away (seen by him alone, unless
        `lay_away_shown_if` shows it)."""
        self._shown_if_laid(seat, card, self.ref.pickup_shown_if)
        self.hands[seat].remove(card)
        self.pickup_away.append(card)
        self.pickup_left -= 1
        if not self.pickup_left:
            self._flow_on()

    def _draw_up(self) -> None:
        """BL11, BL12: from the forehand round the table, each player takes the stock's top
        cards, the turned-up card after them, until he holds `draw_up.to`."""
        for seat in self.active:
            hand = self.hands[seat]
            while len(hand) < self.ref.draw_up_to and (self.stock or self.turnup >= 0):
                if self.stock:
                    hand.append(self.stock.pop(0))
                else:
                    hand.append(self.turnup)
                    self.turnup = -1
                self.seen[seat].add(hand[-1])  # BL44: his own cards, seen by him alone
        self.turn_stock_top()
