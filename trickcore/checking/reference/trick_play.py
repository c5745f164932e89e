"""Trick play in a replayed trick deal: the trump in force, who sits out and who leads,
whose turn it is (and who plays for him), a turn's actions (decisions, announcements,
cards), the trick to its winner, drawing from the stock, the end of play."""

from __future__ import annotations

from typing import Any

from .card_offers import CardOffers
from .expressions import TRUMP
from .legal_cards import LegalCards


class TrickPlayReplay(LegalCards, CardOffers):
    """The course of trick play, from the first lead to the last trick."""

    def _start_play(self) -> bool:
        """The trump in force from the first trick (`play.trump`: a suit, the turn-up's
        suit, or the contract's strain), who sits out (`sit_out_if`, E16), and the first
        leader (declarer, the player after him, forehand, the holder of a card, or the
        first in deal order for whom `first_leader = EXPR` holds; if he sits out, the next
        player in deal order who does not, E17); the sides (`side_if`); the round of offers
        before the first card."""
        ref = self.ref
        # a fixed or turned-up trump has been in force since the deal (`_fixed_trump`)
        if ref.trump_bid and self.strain in ref.strains:
            self.trump = ref.strain_suits[ref.strains.index(self.strain)]
        if ref.trump_if is not None and not ref.eval(ref.trump_if, self._public_env()):
            self.trump = -1  # O42: the deal is played without trump
        self.playing = [s for s in self.active if not self._sits_out(s)]
        first = self.active[0]
        if ref.first_leader == "holder":  # `holder CARD`: `holds(CARD)`, any copy of it
            first = next(
                (s for s in self.active if ref.eval.copies_in(ref.leader_card, self.hands[s])),
                first,
            )
        elif ref.first_leader == "rule":  # the first in deal order for whom it holds
            assert ref.leader_rule is not None
            first = next((s for s in self.active if self._holds_for(ref.leader_rule, s)), first)
        elif ref.first_leader == "declarer" and self.declarer >= 0:
            first = self.declarer
        elif ref.first_leader == "left_of_declarer" and self.declarer >= 0:  # B17
            i = self.active.index(self.declarer)
            first = self.active[(i + 1) % len(self.active)]
        first = self._next_playing(first, 0)
        self.start_hands = {seat: list(self.hands[seat]) for seat in self.active}
        if ref.side_if is not None:
            self._form_sides()
        self.tricks_total = len(self.hands[first]) + self.stock_left() // len(self.playing)
        self.stage = "play"
        self.first = first
        self._give_turn(first)
        if ref.talon_leads and self.talon:  # R31: the talon's cards lead the first tricks
            self._talon_lead()
        if ref.skip_if is not None and any(  # nothing to play: the deal ends at once
            ref.eval(
                ref.skip_if,
                self.open_env(s, ref.eval.reads_table(ref.skip_if)),
                qualifier=self.qualifier,
            )
            for s in self.active
        ):
            self.ended_early = True
            self.trick = []
            return False
        return True

    def _holds_for(self, rule: Any, seat: int) -> bool:
        """A rule over a player's role and his hand as trick play began (`side_if`,
        `first_leader = EXPR`) holds for him."""
        env = self.role_env(seat)
        env[TRUMP] = self.trump
        hand = self.start_hands.get(seat, self.hands[seat])
        return bool(self.ref.eval(rule, env, hand=hand, qualifier=self.qualifier))

    def _form_sides(self) -> None:
        """`side_if` as trick play begins (and again after each trick's `after_trick`), over
        each player's role and hand as play began: those for whom it holds are one side,
        the others the other; a seat sitting out is alone."""
        ref = self.ref
        assert ref.side_if is not None
        # every player's names made once, each with the others' for the aggregates
        envs = {x: self.role_env(x, others=False) for x in self.active}
        hands = {x: self.start_hands.get(x, self.hands[x]) for x in self.active}
        # formed over the same names, hands, trump, bid and sides as they stood (which the
        # names and the aggregates of a side read), they are the sides they were
        key = (
            tuple((x, tuple(env.items())) for x, env in envs.items()),
            tuple(tuple(hand) for hand in hands.values()),
            self.trump,
            self.qualifier,
            None if self.formed is None else tuple(self.formed.items()),
        )
        if key == self.sides_key:
            return
        self.sides_key = key
        for x, env in envs.items():
            self._with_table(env, x, envs.__getitem__)
            env[TRUMP] = self.trump
        team = [
            x
            for x in self.active
            if ref.eval(ref.side_if, envs[x], hand=hands[x], qualifier=self.qualifier)
        ]
        rest = tuple(x for x in self.active if x not in team)
        self.team = tuple(team)
        self.formed = {x: (x,) for x in range(self.seats)}
        for x in self.active:
            self.formed[x] = self.team if x in team else rest

    def _talon_lead(self) -> None:
        """The talon's next card, turned face up, is the card led (by nobody, seat -1);
        the first leader plays to it first."""
        card = self.talon.pop(0)
        for seen in self.seen:
            seen.add(card)
        self.trick = [(-1, card)]
        self._give_turn(self.first)

    def _next_playing(self, seat: int, k: int) -> int:
        """The player `k` places on from `seat` (0: himself), in deal order, among those who
        take part in trick play; from a seat that sits out, the next who does not."""
        n = len(self.active)
        i = self.active.index(seat)
        order = [self.active[(i + m) % n] for m in range(n)]
        return [x for x in order if x in self.playing][k]

    def _give_turn(self, seat: int) -> None:
        """It is `seat`'s turn to lead or play: first the round of offers before his card
        (decisions `at: card`); then he acts, or his partner for him (`_card_player`)."""
        self.turn = seat
        self.to_act = self._card_player(seat)
        self._open_offers(seat)

    def _card_player(self, seat: int) -> int:
        """Who plays `seat`'s card: he, or his partner while `partner_plays_if` holds (B19);
        the partner then sees the hand he plays from."""
        rule = self.ref.partner_plays_if
        if rule is not None and self.ref.eval(
            rule, self.open_env(seat, self.ref.eval.reads_table(rule)), qualifier=self.qualifier
        ):
            partner = self.ref.partner(seat, self.seats, self.declarer, self.playing)
            self.seen[partner].update(self.hands[seat])
            return partner
        return seat

    def _turn_actions(self, seat: int) -> dict[str, str]:
        """At a turn in trick play: the decisions offered, announcements, and the cards."""
        ref = self.ref
        ct = ref.card_text
        if self.offer_at >= 0:  # the round of offers before the card
            return self.offer_actions()
        out: dict[str, str] = {}
        hand = self.hands[seat]
        if self.announced is not None:  # lead a card of the meld, or a decision after it
            mi, suit = self.announced
            offered = self._decisions_offered(seat, "announced")
            forced = self._forced(seat, offered)
            if forced:  # he must take it before anything else
                return dict.fromkeys(forced, "decide")
            out.update((d, "decide") for d in offered)
            cards = set(self._meld_cards(mi, suit))  # any copy of them he holds
            first = ref.eval.first_copy
            out.update((f"play {ct[c]}", "play") for c in hand if first(c) in cards)
            return out
        at = "play" if self.trick else "lead"
        offered = self._decisions_offered(seat, at)
        forced = self._forced(seat, offered)
        if forced:
            return dict.fromkeys(forced, "decide")
        out.update((d, "decide") for d in offered)
        if not self.trick and ref.announced_melds:
            out.update((a, "announce") for a in self._announcements(seat))
        plays, marries = self.legal_plays(seat)
        out.update((ref.play_text[c], "play") for c in plays)
        out.update((ref.marry_text[c], "marry") for c in marries)
        return out

    def _announcements(self, seat: int) -> list[str]:
        """`announce NAME SUIT` for every announced meld held in full whose declare_if holds."""
        ref = self.ref
        held = {ref.eval.first_copy(c) for c in self.hands[seat]}
        out = []
        env: dict[str, Any] | None = None
        for mi, suit, _, cards in ref.concrete:
            meld = ref.melds[mi]
            if not meld.announce or not held.issuperset(cards):
                continue
            if env is None:
                env = self._declare_env(seat)
            if meld.declare_if is None or ref.eval(meld.declare_if, env, hand=self.hands[seat]):
                sym = f" {ref.suit_symbols[suit]}" if suit >= 0 else ""
                out.append(f"announce {meld.name}{sym}")
        return out

    def _meld_cards(self, mi: int, suit: int) -> list[int]:
        meld = self.ref.melds[mi]
        if meld.cards:
            return list(meld.cards)
        ev = self.ref.eval
        return [ev.first_card(suit * ev.n_ranks + r) for r in meld.ranks]

    def _turn(self, seat: int, kind: str, card: int, value: int, to: int, text: str) -> None:
        """A decision, an announcement or a card at a turn in trick play."""
        if kind == "decide":
            self._take(seat, self._by_name(text))
            return
        if kind == "announce":
            meld = self.ref.melds[value]
            self.declarations.append((seat, value, to, meld.value_in(to, self.trump)))
            if meld.sets_trump and to >= 0:
                self.trump = to
            self.announced = (value, to)
            shown = self.shown_meld_cards(seat, self._meld_cards(value, to))
            for seen in self.seen:  # X24: he shows the meld's cards
                seen.update(shown)
            return
        self.announced = None
        if not self.trick:
            self.leads[seat] += 1
            if self.ref.trump_first_lead and self.trump < 0 and not self.tricks:
                self.trump = self.ref.eval.suit(card)  # trump from this card on
            if kind == "marry":
                led = self.meld_led(seat, card)
                if led is not None:
                    mi, suit, value = led
                    self.declarations.append((seat, mi, suit, value))
                    if self.ref.melds[mi].sets_trump and suit >= 0:
                        self.trump = suit
                    shown = self.shown_meld_cards(seat, self._meld_cards(mi, suit))
                    for seen in self.seen:
                        seen.update(shown)
        self.hands[seat].remove(card)
        for seen in self.seen:
            seen.add(card)
        self.trick.append((seat, card))
        self.cards_played += 1
        cards = self.ref.after_card_cards  # after other cards no rule can hold
        if self.ref.after_card and (cards is None or card in cards):
            self._after_card(seat, card)
        from_talon = 1 if self.trick[0][0] < 0 else 0  # a talon card leads: one more card
        if len(self.trick) < len(self.playing) + from_talon:  # E18: who sits out is skipped
            self._give_turn(self._next_playing(seat, 1))
            return
        self._trick_done()

    def _trick_done(self) -> None:
        """The trick to its winner, who leads next; `after_trick` (and the sides formed
        again); stop_if; drawing from the stock; the end of play when every hand is empty,
        else the round of offers before the next card."""
        ref = self.ref
        winner = self.winner_of(self.trick)
        from_talon = self.trick[0][0] < 0
        if winner >= 0:  # R31: a talon-led trick nobody followed is nobody's
            self.card_points[winner] += sum(self.points()[c] for _, c in self.trick)
            self.tricks_won[winner] += 1
        self.tricks.append((tuple(self.trick), winner, self.trump))
        self.trick = []
        if ref.after_trick:  # the rules after a trick; the sides formed again over them
            self._after_trick()
            if ref.side_if is not None:
                self._form_sides()
        if from_talon and self.talon:
            self._talon_lead()
            return
        if from_talon:  # R31: after the talon's tricks the first leader leads
            winner = self.first
        self.turn = winner
        self.to_act = self._card_player(winner)
        if ref.stop_if is not None and any(
            ref.eval(
                ref.stop_if,
                self.open_env(s, ref.eval.reads_table(ref.stop_if)),
                qualifier=self.qualifier,
            )
            for s in self.active
        ):
            self.ended_early = True
            self._flow_on()
            return
        if ref.draw and not self.stock_closed:  # X12: the winner first, the turn-up last
            n = len(self.active)
            i = self.active.index(winner)
            for k in range(n):
                seat = self.active[(i + k) % n]
                if self.stock:
                    card = self.stock.pop(0)
                elif self.turnup >= 0:
                    card, self.turnup = self.turnup, -1
                else:
                    break
                self.hands[seat].append(card)
                self.seen[seat].add(card)
            self.turn_stock_top()
        if not any(self.hands[s] for s in self.playing):
            self._flow_on()
            return
        self._open_offers(winner)  # before his card, the cards drawn, a round of offers
