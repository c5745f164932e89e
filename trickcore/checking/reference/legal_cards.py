"""The cards a player may lead or play in a replayed trick deal (the obligations, `lead_if`,
`play_if`, melds declared by leading), and who wins a trick."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ...language import syntax as s
from .deal_state import DealState

if TYPE_CHECKING:
    from .variant import Reference
from .expressions import LEADING, LED, MEMO, OTHER, PLAYED, TRUMP


class LegalCards(DealState):
    """The cards a player may lead or play now, and those he may lead declaring a meld."""

    def _card_env(self, seat: int) -> dict[str, Any]:
        """The names `lead_if` and `play_if` read (besides the card in question)."""
        eff = self.relations()[0]
        played = [c for t in self.tricks for _, c in t[0]]
        return {
            "first_lead": self.leads[seat] == 0,
            "tricks_played": len(self.tricks),
            "tricks_won": self.tricks_won[seat],
            "declarer": seat == self.declarer,
            "trump_set": self.trump >= 0,
            "trump_broken": any(eff[c] == self.ref.trump_id for c in played),
            "hand_size": len(self.hands[seat]),
            "trumps_held": sum(1 for c in self.hands[seat] if eff[c] == self.ref.trump_id),
            PLAYED: played,
            TRUMP: self.trump,
            LED: [self.led_suit(t[0]) for t in self.tricks],
            LEADING: self.led_suit(self.trick) if self.trick else -1,
            MEMO: {},
            **self.contract_env(seat),
            **self.context[seat],
        }

    def _play_env(self, seat: int) -> dict[str, Any]:
        """The names `play_if` reads when `seat` plays to a trick: `_card_env` and whether he
        can follow the card led."""
        env = self._card_env(seat)
        eff = self.relations()[0]
        led = self.led_suit(self.trick)
        env["can_follow"] = led >= 0 and any(eff[c] == led for c in self.hands[seat])
        env.update(self._trick_env(seat))
        return env

    def _filtered(self, rule: s.Expr, env: dict[str, Any], cards: Iterable[int], hand: list[int]):
        """The cards a `lead_if` / `play_if` rule allows; all of them when it allows none."""
        ref = self.ref
        eff = self.relations()[0]
        cards = list(cards)
        allowed = set()
        for c in cards:
            env["card_is_trump"] = eff[c] == ref.trump_id
            if self.trick:
                env["card_wins"] = self._wins(self.turn, c)
            if ref.eval(rule, env, hand=hand, card=c):
                allowed.add(c)
        return allowed or set(cards)

    def may_play(self, seat: int, card: int) -> bool:
        """`card in legal_plays(seat)[0]`, worked out for this card: a `lead_if` or `play_if`
        rule is asked about the other cards only when it does not allow this one."""
        hand = self.hands[seat]
        if card not in hand:
            return False
        ref = self.ref
        if ref.free_if is not None and self._free(seat, card):
            return True
        if self.trick:
            follow = self._follow_plays(seat, hand)
            if card not in follow or ref.play_if is None:
                return card in follow
            return self._allows_card(ref.play_if, self._play_env(seat), card, follow, hand)
        if ref.lead_if is None:
            return True
        return self._allows_card(ref.lead_if, self._card_env(seat), card, hand, hand)

    def _allows_card(
        self, rule: s.Expr, env: dict[str, Any], card: int, cards: Iterable[int], hand: list[int]
    ) -> bool:
        """`card in _filtered(rule, env, cards, hand)`: the rule allows it, or none of them."""
        ref = self.ref
        eff = self.relations()[0]

        def allowed(c: int) -> bool:
            env["card_is_trump"] = eff[c] == ref.trump_id
            if self.trick:
                env["card_wins"] = self._wins(self.turn, c)
            return bool(ref.eval(rule, env, hand=hand, card=c))

        return allowed(card) or not any(allowed(c) for c in cards if c != card)

    def _free(self, seat: int, card: int) -> bool:
        """`play.free_if` holds for this card of `seat`'s hand: he may always play it."""
        rule = self.ref.free_if
        if rule is None:
            return False
        env = self._card_env(seat)
        env["card_is_trump"] = self.relations()[0][card] == self.ref.trump_id
        return bool(self.ref.eval(rule, env, hand=self.hands[seat], card=card))

    def legal_plays(self, seat: int) -> tuple[set[int], set[int]]:
        """The cards `seat` may play now, and those it may lead declaring a meld (marry)."""
        hand = self.hands[seat]
        ref = self.ref
        free = set()
        if ref.free_if is not None:  # played whatever the duties and rules say
            free = {c for c in hand if self._free(seat, c)}
        if self.trick:
            follow = self._follow_plays(seat, hand)
            if ref.play_if is None:
                return set(follow) | free, set()
            plays = self._filtered(ref.play_if, self._play_env(seat), follow, hand)
            return plays | free, set()
        leads = set(hand)
        if ref.lead_if is not None:
            leads = self._filtered(ref.lead_if, self._card_env(seat), hand, hand) | free
        marry: set[int] = set()
        if not ref.led_melds:
            return leads, marry
        env = self._declare_env(seat)
        for c in leads:
            meld = self.meld_led(seat, c)
            if meld is None:
                continue
            declare_if = ref.melds[meld[0]].declare_if
            if declare_if is None or ref.eval(declare_if, env, hand=hand):
                marry.add(c)
        return leads, marry

    def _duties(self, seat: int) -> dict[str, bool]:
        """follow, beat_in_suit, trump_when_void and overtrump now (each a yes/no, or a rule
        read at each play: stock_left, stock_closed, tricks_played, declarer, values)."""
        if self.ref.fixed_duties:
            return self.ref.obligations  # type: ignore[return-value]
        out = {}
        env: dict[str, Any] | None = None
        for name, rule in self.ref.obligations.items():
            if isinstance(rule, bool):
                out[name] = rule
                continue
            if env is None:
                env = {
                    "stock_left": self.stock_left(),
                    "stock_closed": self.stock_closed,
                    "tricks_played": len(self.tricks),
                    "declarer": seat == self.declarer,
                    **self.contract_env(seat),
                    **self.context[seat],
                    **self._trick_env(seat),
                }
            out[name] = bool(self.ref.eval(rule, env, qualifier=self.qualifier))
        return out

    def _trick_env(self, seat: int) -> dict[str, Any]:
        """The trick in progress as `seat` is to play to it: the cards in it, a trump led,
        a trump in it, and whether the card winning it so far (T15) is a partner's (his
        side's; without sides, against a declarer, another defender's)."""
        eff = self.relations()[0]
        trump = self.ref.trump_id
        winner = self.winner_of(self.trick)
        if winner < 0 or winner == seat:
            partner = False
        elif self.ref.sides:
            partner = winner in self.ref.side(seat, self.seats)
        else:
            partner = self.declarer >= 0 and self.declarer not in (seat, winner)
        return {
            "cards_in_trick": len(self.trick),
            "led_trump": self.led_suit(self.trick) == trump,
            "trick_trumped": any(eff[c] == trump for _, c in self.trick),
            "partner_winning": partner,
        }

    def _wins(self, seat: int, card: int) -> bool:
        """`card_wins`: played now, the card would win the trick as it stands (T15)."""
        return self.winner_of([*self.trick, (seat, card)]) == seat

    def winner_of(self, cards: Sequence[tuple[int, int]]) -> int:
        """Who wins these cards of the trick in progress (T15, or `play.beats`)."""
        ref = self.ref
        if ref.beats is not None:
            total = self.tricks_total
            player_env = None
            if ref.beats_reads_player:  # the rule reads names of the card's player

                def player_env(seat: int) -> dict[str, Any]:
                    assert ref.beats is not None
                    return self.open_env(seat, ref.eval.reads_table(ref.beats))

            return ruled_winner(
                ref,
                self.relations(),
                cards,
                len(self.tricks),
                total,
                player_env,
                self.qualifier,
                self.led_suit(cards),
            )
        return trick_winner(self.relations(), self.ref.trump_id, cards, self.led_suit(cards))

    def _follow_plays(self, seat: int, hand: list[int]) -> list[int]:
        """T14, S13, X13, K29: follow the led (effective) suit, beat in suit unless trumped,
        trump when void, overtrump; by the cards' effective suits and powers."""
        duty = self._duties(seat)
        eff, power = self.relations()
        trump = self.ref.trump_id
        led = self.led_suit(self.trick)
        if led < 0:  # no card of the trick has set the suit yet: no duty binds
            return hand
        on_table = [c for _, c in self.trick]
        follow = [c for c in hand if eff[c] == led]
        if follow:
            if not duty["follow"]:
                return hand
            trumped = led != trump and any(eff[c] == trump for c in on_table)
            if duty["beat_in_suit"] and not trumped:
                best = max(power[c] for c in on_table if eff[c] == led)
                return [c for c in follow if power[c] > best] or follow
            return follow
        trumps = [c for c in hand if eff[c] == trump]
        if duty["trump_when_void"] and trumps:
            in_trick = [power[c] for c in on_table if eff[c] == trump]
            if duty["overtrump"] and in_trick:
                return [c for c in trumps if power[c] > max(in_trick)] or trumps
            return trumps
        return hand

    def meld_led(self, seat: int, card: int) -> tuple[int, int, int] | None:
        """The meld (index, suit, value) that leading this card declares (`marry`): the
        first meld declared by leading (not announced) that holds the card and that the
        seat holds complete; None if none."""
        ref = self.ref
        first = ref.eval.first_copy
        held = {first(c) for c in self.hands[seat]} | {first(card)}
        for mi, suit, _, cards in ref.concrete:
            if first(card) in cards and not ref.melds[mi].announce and held.issuperset(cards):
                return mi, suit, ref.melds[mi].value_in(suit, self.trump)
        return None

    def shown_meld_cards(self, seat: int, meld_cards: list[int]) -> list[int]:
        """The cards of his hand he shows for a meld (`meld_cards`, first cards): one copy
        of each (the first he holds)."""
        ev = self.ref.eval
        out = []
        for m in meld_cards:
            face = ev.face(m)
            out.append(next((c for c in self.hands[seat] if ev.face(c) == face), m))
        return out

    def _declare_env(self, seat: int) -> dict[str, Any]:
        """The names a meld's `declare_if` reads for the player on lead."""
        return {
            "tricks_won": self.tricks_won[seat],
            "tricks_played": len(self.tricks),
            "declarer": seat == self.declarer,
            "first_lead": self.leads[seat] == 0,
            "stock_left": self.stock_left(),
            "stock_closed": self.stock_closed,
            **self.context[seat],
        }


def ruled_winner(
    ref: Reference,
    relations: tuple[list[int], list[int]],
    cards: Sequence[tuple[int, int]],
    tricks_before: int,
    tricks_total: int,
    player_env: Callable[[int], dict[str, Any]] | None = None,
    qualifier: str = "",
    led: int | None = None,
) -> int:
    """`play { beats = EXPR }`: the card led wins unless a later card beats the one winning
    so far, as the rule says of the two (`beats_usually`: T15's rule for those two); a talon
    card led (R31) is beaten by the first player's card that is a trump or of its suit.
    `player_env`: the names of a card's player, when the rule reads them. `led`: the suit
    led (`play.sets_suit_if`; the first card's by default); with that rule a card of the
    suit led beats usually a card winning so far that is neither a trump nor of that suit."""
    eff, power = relations
    trump_id = ref.trump_id
    if led is None:
        led = eff[cards[0][1]]
    off_suit_loses = ref.sets_suit_if is not None
    best_seat, best = cards[0]
    if best_seat < 0:  # a talon card: nobody holds it yet
        best_seat, best = -1, -1
    for seat, c in cards[1:]:
        trump = eff[c] == trump_id
        if best < 0:
            if trump or eff[c] == led:
                best_seat, best = seat, c
            continue
        other_trump = eff[best] == trump_id
        if trump:
            usual = not other_trump or power[c] > power[best]
        else:
            higher = power[c] > power[best] or (off_suit_loses and eff[best] != led)
            usual = not other_trump and eff[c] == led and higher
        env = player_env(seat) if player_env is not None else {}
        env |= {
            OTHER: best,
            "card_is_trump": trump,
            "card_power": power[c],
            "other_trump": other_trump,
            "other_power": power[best],
            "same_card": ref.eval.face(c) == ref.eval.face(best),
            "follows_led": eff[c] == led,
            "beats_usually": usual,
            "last_trick": tricks_before + 1 == tricks_total,
            "tricks_played": tricks_before,
        }
        assert ref.beats is not None
        if ref.eval(ref.beats, env, card=c, qualifier=qualifier):
            best_seat, best = seat, c
    return best_seat


def trick_winner(
    relations: tuple[list[int], list[int]],
    trump_id: int,
    cards: Sequence[tuple[int, int]],
    led: int | None = None,
) -> int:
    """T15, X9, K30: the highest trump wins, else the highest card of the (effective) suit
    led; of equal powers the first played. A trick led by a talon card (R31): the same
    among the players' cards, -1 (nobody) when none is a trump or of the suit led. `led`:
    the suit led (`play.sets_suit_if`; the first card's by default): when no card is a
    trump or of it, the first card wins."""
    eff, power = relations
    if led is None:
        led = eff[cards[0][1]]
    if cards[0][0] < 0:  # R31: a talon card led: the players' cards alone compete
        played = [(power[c], -i, seat, eff[c]) for i, (seat, c) in enumerate(cards) if i > 0]
        for suit in (trump_id, led):
            best = [x for x in played if x[3] == suit]
            if best:
                return max(best)[2]
        return -1
    trumps = [(power[c], -i, seat) for i, (seat, c) in enumerate(cards) if eff[c] == trump_id]
    if trumps:
        return max(trumps)[2]
    followed = [(power[c], -i, seat) for i, (seat, c) in enumerate(cards) if eff[c] == led]
    return max(followed)[2] if followed else cards[0][0]
