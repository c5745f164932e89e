"""Sixty-six rules (X1–X44 of docs/rules/sixty-six.md) played through the public API, and
the house rules X45–X50 (`variants/sixty-six-*.rules`).

Each test plays a rule on real cards and fails when that rule is broken in
`variants/sixty-six.rules` or in the engine; none of them reads the compiled model. Deck
orders are built here from X6's positions (forehand 1–3 and 7–9, dealer 4–6 and 10–12, the
trump card 13, the stock 14–24 top first), so each test fixes both hands, the trump card and
the stock. `Ref` restates the rules in a few lines of Python, independent of trickcore; the
random-deal tests play the engine and `Ref` side by side.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import run, texts

import trickcore

# X1, X2 restated here (not read from the variant).
RANKS = ["A", "10", "K", "Q", "J", "9"]
SUITS = "CSHD"
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
ALL = [r + s for s in SUITS for r in RANKS]
ALL20 = [c for c in ALL if not c.startswith("9")]  # X45
NAME = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
CARD_RE = re.compile(r"(?<![0-9A-Z])(?:10|[9AKQJ])[CSHD](?![0-9A-Z])")


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def points(cards: Sequence[str]) -> int:
    """X2: card points of some cards."""
    return sum(POINTS[rank(c)] for c in cards)


# ---------------------------------------------------------------- the rules restated
class Ref:
    """Sixty-six restated from the rule sheet (X6–X38), for two seats.

    `nine` is the trump rank that may be exchanged (X17; the J under X45); the flags are the
    house rules X46 (`second_exchange=False`), X47 (`late_marriages=False`) and X49
    (`false_claims=True`)."""

    def __init__(
        self,
        order: Sequence[str],
        dealer: int,
        nine: str = "9",
        second_exchange: bool = True,
        late_marriages: bool = True,
        false_claims: bool = False,
    ) -> None:
        order = list(order)
        fh = 1 - dealer
        if len(order) == 24:  # X6: 3 + 3 each, card 13 turned up
            self.hands = {fh: order[0:3] + order[6:9], dealer: order[3:6] + order[9:12]}
            k = 12
        else:  # X45: 3 + 2 each, card 11 turned up
            self.hands = {fh: order[0:3] + order[6:8], dealer: order[3:6] + order[8:10]}
            k = 10
        self.turnup: str | None = order[k]
        self.stock = order[k + 1 :]
        self.trump = suit(order[k])  # X3
        self.nine, self.second_exchange = nine, second_exchange
        self.late_marriages, self.false_claims = late_marriages, false_claims
        self.to_act = fh  # X8
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[tuple[int, list[str], int]] = []
        self.won: dict[int, list[str]] = {0: [], 1: []}
        self.nwon = [0, 0]
        self.closed, self.closer, self.trickless_at_close = False, -1, False
        self.melds: list[tuple[int, str, int]] = []
        self.announced: str | None = None
        self.claimed = -1
        self.claim_points = 0
        self.over = False

    def stock_left(self) -> int:
        return len(self.stock) + (self.turnup is not None)

    def strict(self) -> bool:
        return self.closed or self.stock_left() == 0  # X10

    def played_out(self) -> bool:
        return self.claimed < 0 and not self.hands[0] and not self.hands[1]

    def deal_points(self, s: int) -> int:
        """X26, X28, X31: card points + credited marriages + the last-trick bonus."""
        p = points(self.won[s])
        if self.nwon[s]:
            p += sum(v for seat, _, v in self.melds if seat == s)
        if self.played_out() and not self.closed and self.tricks[-1][2] == s:
            p += 10
        return p

    def can_exchange(self, s: int) -> bool:  # X17, X19
        return (
            self.nine + self.trump in self.hands[s]
            and self.nwon[s] >= 1
            and not self.closed
            and self.stock_left() >= 4
        )

    def beats(self, card: str, led: str) -> bool:  # X1, X9
        if suit(card) == suit(led):
            return RANKS.index(rank(card)) < RANKS.index(rank(led))
        return suit(card) == self.trump

    def allowed(self, s: int) -> list[str]:
        """X11, X13: the cards the second player may play."""
        hand = self.hands[s]
        if not self.strict():
            return list(hand)
        led = self.trick[0][1]
        same = [c for c in hand if suit(c) == suit(led)]
        if same:
            return [c for c in same if self.beats(c, led)] or same
        return [c for c in hand if suit(c) == self.trump] or list(hand)

    def legal(self) -> set[str]:
        """X15, X16: every action of the player on turn."""
        if self.over:
            return set()
        s = self.to_act
        claim = self.false_claims or self.deal_points(s) >= 66  # X32, X49
        if self.announced is not None:  # X15, X24
            out = {f"play K{self.announced}", f"play Q{self.announced}"}
            return out | ({"claim"} if claim else set())
        out = {"exchange"} if self.can_exchange(s) else set()
        if self.trick:
            if not self.second_exchange:
                out = set()
            return out | {f"play {c}" for c in self.allowed(s)}
        if claim:
            out.add("claim")
        if not self.closed and self.stock_left() >= 4:  # X21
            out.add("close")
        if self.late_marriages or not self.strict():
            for x in SUITS:
                if f"K{x}" in self.hands[s] and f"Q{x}" in self.hands[s]:
                    out.add(f"announce marriage {x}")
        return out | {f"play {c}" for c in self.hands[s]}

    def apply(self, a: str) -> None:
        assert a in self.legal(), (a, sorted(self.legal()))
        s = self.to_act
        hand = self.hands[s]
        if a == "claim":
            self.claimed, self.claim_points, self.over = s, self.deal_points(s), True
        elif a == "exchange":  # X18
            i = hand.index(self.nine + self.trump)
            assert self.turnup is not None
            hand[i], self.turnup = self.turnup, hand[i]
        elif a == "close":  # X20, X23
            self.closed, self.closer = True, s
            self.trickless_at_close = self.nwon[1 - s] == 0
        elif a.startswith("announce"):  # X4, X24
            x = a.split()[2]
            self.announced = x
            self.melds.append((s, x, 40 if x == self.trump else 20))
        else:
            card = a.split()[1]
            self.announced = None
            hand.remove(card)
            self.trick.append((s, card))
            self.to_act = 1 - s
            if len(self.trick) == 2:
                (lead, lc), (_, fc) = self.trick
                w = 1 - lead if self.beats(fc, lc) else lead
                self.tricks.append((lead, [lc, fc], w))
                self.won[w] += [lc, fc]
                self.nwon[w] += 1
                self.trick = []
                if not self.closed and self.stock_left():  # X12
                    for seat in (w, 1 - w):
                        if self.stock:
                            self.hands[seat].append(self.stock.pop(0))
                        else:
                            assert self.turnup is not None
                            self.hands[seat].append(self.turnup)
                            self.turnup = None
                self.to_act = w
                self.over = not self.hands[0] and not self.hands[1]

    def claimant(self) -> int:
        """X33, X34: the (deemed) claimant, -1 for none."""
        if self.claimed >= 0:
            return self.claimed
        w = self.tricks[-1][2]
        for s in (w, 1 - w):
            if self.deal_points(s) >= 66:
                return s
        return -1

    def gains(self) -> list[int]:
        """X35–X38 (and X49 under `false_claims`)."""
        c = self.claimant()
        g = [0, 0]
        if self.false_claims and self.claimed >= 0 and self.claim_points < 66:  # X49
            g[1 - c] = 3 if self.nwon[1 - c] == 0 else 2
        elif self.closed and c != self.closer:  # X36
            g[1 - self.closer] = 3 if self.trickless_at_close else 2
        elif c >= 0:  # X35
            o = 1 - c
            g[c] = 3 if self.nwon[o] == 0 else 2 if self.deal_points(o) < 33 else 1
        return g


# ---------------------------------------------------------------- building and playing deals
def deck(fh: str, dl: str, turnup: str, stock: str = "", cards: Sequence[str] = ALL) -> list[str]:
    """X6: the deck order dealing these hands (6 cards each), this trump card and this stock
    (top first; cards not named follow in deck order)."""
    f, d, st = fh.split(), dl.split(), stock.split()
    named = f + d + [turnup] + st
    assert len(f) == len(d) == 6 and len(set(named)) == len(named) and set(named) <= set(cards)
    st += [c for c in cards if c not in named]
    return f[:3] + d[:3] + f[3:] + d[3:] + [turnup] + st


def deck20(fh: str, dl: str, turnup: str, stock: str = "") -> list[str]:
    """X45: 3 + 2 cards each, card 11 turned up, cards 12–20 the stock."""
    f, d, st = fh.split(), dl.split(), stock.split()
    named = f + d + [turnup] + st
    assert len(f) == len(d) == 5 and len(set(named)) == len(named) and set(named) <= set(ALL20)
    st += [c for c in ALL20 if c not in named]
    return f[:3] + d[:3] + f[3:] + d[3:] + [turnup] + st


def new(v: trickcore.Variant, order: Sequence[str], dealer: int = 0) -> trickcore.Deal:
    d = v.new_deal(list(order), dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    return d


def legal(state: Any) -> set[str]:
    return set(texts(state.legal_actions()))


def steps(script: str) -> list[str]:
    """Action texts separated by `|`."""
    return [a.strip() for a in script.split("|") if a.strip()]


def hand(d: trickcore.Deal, seat: int) -> set[str]:
    return set(d.hand_texts(seat))


def plays(cards: Sequence[str] | set[str]) -> set[str]:
    return {f"play {c}" for c in cards}


def play_cards(d: Any, tricks: int) -> None:
    """Play `tricks` more tricks with the first legal card of each player (no decisions)."""
    deal = d.current if isinstance(d, trickcore.Match) else d
    target = len(deal.observation(0).tricks) + tricks
    while len(deal.observation(0).tricks) < target and not deal.is_over:
        d.apply(next(a for a in texts(d.legal_actions()) if a.startswith("play")))


def finish(d: Any) -> None:
    """Play the deal out with the first legal card of each player (no decisions)."""
    deal = d.current if isinstance(d, trickcore.Match) else d
    while not deal.is_over:
        d.apply(next(a for a in texts(d.legal_actions()) if a.startswith("play")))


def taken(obs: Any) -> list[int]:
    """X2: card points in each seat's tricks, from the public record of the tricks."""
    out = [0, 0]
    for _leader, cards, winner in obs.tricks:
        out[winner] += points([c for _, c in cards])
    return out


def cards_in(obs: Any) -> set[str]:
    """Every card text anywhere in an observation."""
    return set(CARD_RE.findall(json.dumps(obs.to_dict())))


@pytest.fixture(scope="module")
def ss() -> trickcore.Variant:
    return trickcore.load_variant("sixty-six")


# ---------------------------------------------------------------- the scripted deals
# All dealt by seat 0: forehand is seat 1.
# DEAL A: clubs trump (JC turned up); forehand holds the heart marriage and the trump 9.
A_ORDER = deck(
    "AS 10S KH QH 9C JD", "AH 10H KS 9S AD QC", "JC", "AC KD 10C QS 10D KC JS 9H JH QD 9D"
)
# Forehand wins the first six tricks (62 card points after five), the dealer plays low.
A_SIX = "play JD|play AH|play AS|play 9S|play 10S|play QS|play AC|play KS|play 10C|play 9H|"
A_SIX += "play JS|play KD"

# DEAL B: clubs trump (AC turned up); the dealer holds the trump 9, wins trick 1 and forehand
# trick 2; at trick 3 the dealer plays second.
B_ORDER = deck(
    "10S JS KD QD 9H JH", "AS 9C KH QH 10D 9D", "AC", "10C KC QC JC AH 10H 9S KS QS AD JD"
)
B_TWO = "play 10S|play AS|play 9D|play KD|play JS"

# X41: clubs trump. The dealer wins trick 1 (Q, J: 5) and declares twenty in spades; forehand
# takes 48 card points in tricks 2-5 and declares twenty in hearts before trick 6.
X41_ORDER = deck("JD AS 10D AC KH QH", "QD KS QS 9D 9S JS", "10C", "9H 10S")
X41_SCRIPT = "play JD|play QD|announce marriage S|play KS|play AS|play 10D|play 9D|play AC|"
X41_SCRIPT += "play 9S|play 10S|play JS"

# X42: diamonds trump; nobody closes or declares; 58 and 60 before trick 12, which seat 0 wins
# with a J and a 9.
X42_ORDER = "10H QC KH KC 10C AS JD AH JH 9D 10S QH 10D 9H 9S QD JC AC AD KD QS JS 9C KS".split()
X42_SCRIPT = (
    "play KH|play KC|play AH|play AS|play 10H|play QH|play QD|play AD|play 9D|play AC|"
    "play 10S|play 9H|play JC|play QC|play JD|play KD|play KS|play QS|play JS|play 10D|"
    "play 9C|play 10C|play 9S|play JH"
)

# X37: played out, no marriage, no closing: 55 card points + the bonus for seat 0, 65 for
# seat 1.
DRAW_ORDER = "9H QH AC JC KC JS KD KS 9C QD 10D 10C 10S AH QC JD 9S AS 10H AD QS 9D KH JH".split()
DRAW_SCRIPT = (
    "play AC|play 10D|play QH|play JS|play JD|play KS|play 9H|play 10H|play KC|play QS|"
    "play KD|play 10C|play JH|play KH|play AD|play 9D|play QD|play 9S|play 9C|play JC|"
    "play QC|play AS|play AH|play 10S"
)

# Seat 1 claims after six tricks with 74; seat 0 has no trick (X35: 3).
THREE_ORDER = "JD 10H QS QD AD JS JC AH AS QC 9D 9C QH KC 9H 10C 10S KH AC JH KD 9S KS 10D".split()
THREE_SCRIPT = (
    "play AH|play JS|play AS|play 9C|play 10H|play QC|play KH|play AC|play JC|play 9D|"
    "play 10C|play 10S|claim"
)

# Seat 1 claims with 68; seat 0 has three tricks and 30 (X35: 2).
TWO_ORDER = "9D JS AD QS AC 9H 9C KS 10S KD QC 10C AS 9S JC QH 10H JH KC AH JD KH QD 10D".split()
TWO_SCRIPT = (
    "play 9D|play QC|play 9S|play 9H|play AD|play KD|play JS|play AC|play KS|play JC|"
    "play JH|play KC|play KH|play 10H|play JD|play 10D|play QH|play QS|play 10C|play 9C|"
    "play QD|play 10S|claim"
)

# Seat 0 claims with 78; seat 1 has 27 card points and a credited twenty (47: X35 gives 1).
LIFT_ORDER = "AC JS QD JC 10C QH AS 10D 9D QC 9H 10H AH KH JD 10S AD 9C 9S JH KS KC KD QS".split()
LIFT_SCRIPT = (
    "play AC|play QH|play 10C|play 10D|play 9H|play JD|play 9C|play 9S|play QC|play KS|"
    "play JC|play JS|play QS|play AS|announce marriage D|play QD|play 10H|play JH|play AH|"
    "play 9D|play KH|play 10S|play KD|claim"
)

# Seat 0 reaches 74 before trick 9 and plays on (X32); he loses trick 9, plays second to
# trick 10 with 74 (X30) and claims before trick 11 with 78.
LATER_ORDER = "9H QS JH AD 9C JD KH 10H QH AC JS 10D QC KS QD 9D KD KC 10C AS JC AH 9S 10S".split()
LATER_SCRIPT = (
    "play KH|play 9C|play 10D|play QS|play AD|play QD|play JS|play JH|play JD|play QH|"
    "play 9D|play KD|play 10S|play AS|play AC|play JC|play QC|play 10C|play 9S|play KS|claim"
)

# X34: nobody claims; seat 0 wins the last trick with 32, seat 1 has 88.
OTHER_ORDER = "AS QC JH KC 9S KS 10D KD KH 9H QS 9D QH 9C 10S QD 10C JC JD AH AC JS AD 10H".split()
OTHER_SCRIPT = (
    "play JH|play KS|play KH|play 9H|play 9C|play 9D|play AS|play 9S|play JC|play KC|"
    "play AC|play AH|play KD|play JD|play 10D|play QH|play JS|play 10H|play QD|play 10S|"
    "play AD|play QS|play QC|play 10C"
)

# X34 with marriages: nobody claims; seat 0 ends with 54 card points and two twenties (94),
# seat 1 wins the last trick and has 66 + 10 = 76.
BOTH_ORDER = "9D JS KD KH 9S 10C JH 9C JD 10H QD 10D AD KS AS AC 9H KC JC QH AH QC QS 10S".split()
BOTH_SCRIPT = (
    "play KD|play 10H|play JD|play 10D|play 9S|play 9H|play AS|play KS|announce marriage H|"
    "play QH|play 9C|announce marriage C|play QC|play QS|play KC|play JC|play 10S|play JS|"
    "play QD|play AD|play 9D|play KH|play JH|play 10C|play AH|play AC"
)

# X22, X31: forehand closes before trick 1 and takes the last trick with 56 card points.
CLOSED_LAST_ORDER = (
    "10C 10H AS QC QD QS KC 9D AC JC 9S JH 10D JD KH JS KS AH 10S 9H KD QH 9C AD".split()
)
CLOSED_LAST_SCRIPT = (
    "close|play AS|play 9S|play 9D|play QD|play QC|play KC|play 10C|play JC|play AC|"
    "play QS|play 10H|play JH"
)

# X43: forehand wins tricks 1 and 2 and closes; (a) he ends on 60, the dealer on 39;
# (b) the dealer reaches 69 and claims; (c) forehand closes before trick 4, having won
# tricks 2 and 3 (the dealer trick 1), and ends on 43.
X43_CASES = {
    "a": (
        "AD 9S JC 10D 10C JS KC KD AC QD AS 10H QH AH 10S 9D 9H JD QS KH KS QC 9C JH",
        "play JC|play JS|play AC|play 10S|close|play AH|play 10H|play KD|play 10D|play QD|"
        "play AD|play 9D|play 9H|play AS|play 9S|play 10C|play KC",
        (3, 0),
    ),
    "b": (
        "10C JC 9H 10D QS AC 10S 9D KC AS JD 10H KH KD 9S QH AD JH KS 9C QC QD JS AH",
        "play 9D|play QS|play JC|play 9S|close|play 10S|play AS|play 10D|play KD|play AC|"
        "play 10C|play AD|play 9H|play QH|play 10H|claim",
        (3, 0),
    ),
    "c": (
        "9C JS KS AH 10S KC AS JH QD 10C JC 9S 9H KH 10D 10H QS QC AC QH 9D JD AD KD",
        "play KS|play AH|play 10S|play AS|play 10H|play 10C|close|play QC|play AC|play KH|"
        "play JH|play 9S|play JS|play 9C|play KC|play QS|play 10D|play JC|play QD",
        (2, 0),
    ),
}

# X36: forehand (seat 1) closes after four tricks; the dealer, who had a trick, claims with
# 66 while the closer has 45.
CLOSED_CLAIM_ORDER = (
    "KS 9C 10H 10C KD AD AC JC QC JS QH QS KC 9D 10S AS JH QD AH 10D KH 9S 9H JD".split()
)
CLOSED_CLAIM_SCRIPT = (
    "play AC|play QS|play KS|play 10S|play KD|play JC|play 9C|play AS|close|play QD|play AD|"
    "play KH|play 10H|play QC|play 10C|play AH|play JH|play JS|play 10D|claim"
)


# ---------------------------------------------------------------- X1–X4 cards
def test_X1_two_players_and_24_cards(ss):
    """X1: two players; the deck is A 10 K Q J 9 in four suits."""
    for players in (1, 3):
        with pytest.raises(trickcore.TrickcoreError):
            ss.new_match(seed=1, players=players)
    for card in ALL:
        assert ss.card_text(ss.card(card)) == card
    for bad in ("8C", "7H", "OH", "KE"):
        with pytest.raises(trickcore.TrickcoreError):
            ss.card(bad)
    d = ss.new_deal(seed=3, dealer=0)
    obs = d.observation(0)
    assert obs.players_in_deal == (1, 0)
    seen = hand(d, 0) | hand(d, 1) | {obs.turnup}
    assert len(seen) == 13 and obs.stock_size == 12  # 12 + 1 + 11 = 24


@pytest.mark.parametrize("high, low", list(zip(RANKS, RANKS[1:])))
def test_X1_rank_order_A_10_K_Q_J_9(ss, high, low):
    """X1: within a plain suit the higher rank wins (the 10 beats the K); forehand leads a
    heart, the dealer plays another heart (clubs are trump)."""
    fill1, fill0 = "AS 10S KS QS JS", "AD 10D KD QD JD"
    for lead, follow, winner in ((low, high, 0), (high, low, 1)):
        d = new(ss, deck(f"{lead}H {fill1}", f"{follow}H {fill0}", "JC"))
        run(d, [f"play {lead}H", f"play {follow}H"])
        assert d.observation(0).tricks[0][2] == winner, (lead, follow)


def test_X2_card_points_in_every_trick(ss):
    """X2: A 11, 10 10, K 4, Q 3, J 2, 9 0: the points each seat took, trick by trick."""
    d = new(ss, A_ORDER)
    run(d, steps(A_SIX))
    obs = d.observation(1)
    assert obs.tricks_won == (0, 6)
    # JD AH, AS 9S, 10S QS, AC KS, 10C 9H, JS KD
    assert taken(obs) == [0, 13 + 11 + 13 + 15 + 10 + 6]
    finish(d)
    obs = d.observation(1)
    assert list(obs.card_points_taken or ()) == taken(obs)


def test_X2_X29_120_card_points_in_a_deal_played_out(ss):
    """X2, X29: a deal that is not closed holds 120 card points, every card in a trick."""
    for seed in range(6):
        d = ss.new_deal(seed=seed, dealer=seed % 2)
        finish(d)
        obs = d.observation(0)
        assert len(obs.tricks) == 12 and sum(obs.card_points_taken or ()) == 120
        assert list(obs.card_points_taken or ()) == taken(obs)


@pytest.mark.parametrize("trump", list(SUITS))
def test_X3_the_turned_up_suit_is_trump_and_its_9_beats_a_plain_ace(ss, trump):
    """X3: the trump card's suit is trump; a trump 9 beats the ace of a plain suit."""
    plain = next(s for s in SUITS if s != trump)
    rest = [c for c in ALL if suit(c) not in (trump, plain)]
    d = new(
        ss,
        deck(f"A{plain} " + " ".join(rest[:5]), f"9{trump} " + " ".join(rest[5:10]), f"J{trump}"),
    )
    assert d.observation(0).trump == NAME[trump] and d.observation(1).trump == NAME[trump]
    run(d, [f"play A{plain}", f"play 9{trump}"])
    assert d.observation(1).tricks[0][2] == 0
    assert d.observation(0).trump == NAME[trump]  # X3: for the whole deal


@pytest.mark.parametrize("marriage, value", [("C", 40), ("H", 20), ("S", 20)])
def test_X4_marriage_20_plain_40_in_trumps(ss, marriage, value):
    """X4: a marriage (K and Q of one suit) is worth 20, or 40 in trumps (clubs here)."""
    turnup = "AC" if marriage == "C" else "JC"
    order = deck(f"K{marriage} Q{marriage} AD 10D JD 9D", "AH 10H JH 9H AS 10S", turnup)
    d = new(ss, order)
    d.apply(f"announce marriage {marriage}")
    assert d.observation(0).declarations == ((1, "marriage", NAME[marriage], value),)


# ---------------------------------------------------------------- X5–X7 the deal
def test_X5_the_deal_alternates_whatever_the_result(ss):
    """X5: seat 0 deals the first deal, then the deal alternates; forehand leads (X8)."""
    # Seat 0 wins deal 1 (X42); deal 2 is X42 dealt by seat 1, who wins it; deal 3 is drawn
    m = ss.new_match(deck_orders=[X42_ORDER, X42_ORDER, DRAW_ORDER, THREE_ORDER], seed=1)
    expected_scores = [[1, 0], [1, 1], [1, 1], [4, 1]]  # deal 4 dealt by seat 1: seat 0 claims
    scripts = [X42_SCRIPT, X42_SCRIPT, DRAW_SCRIPT, THREE_SCRIPT]
    for k, script in enumerate(scripts):
        assert m.deal.dealer == k % 2 and m.to_act == 1 - k % 2
        run(m, steps(script))
        assert m.scores == expected_scores[k]
    assert not m.is_over and m.deal.dealer == 0


@pytest.mark.parametrize("dealer", [0, 1])
def test_X6_dealing_pattern_and_drawing_order(ss, dealer):
    """X6, X12: forehand 1–3 and 7–9, the dealer 4–6 and 10–12, card 13 turned up, the stock
    drawn from 14 on, the trump card last; the trick's winner draws first."""
    for seed in range(4):
        order = ALL[:]
        random.Random(seed).shuffle(order)
        d = new(ss, order, dealer)
        fh = 1 - dealer
        assert hand(d, fh) == set(order[0:3] + order[6:9])
        assert hand(d, dealer) == set(order[3:6] + order[9:12])
        for seat in (0, 1):
            obs = d.observation(seat)
            assert obs.turnup == order[12] and obs.trump == NAME[suit(order[12])]
            assert obs.stock_size == 12
        for k in range(6):
            before = {s: hand(d, s) for s in (0, 1)}
            play_cards(d, 1)
            w = d.observation(0).tricks[-1][2]
            lost = 1 - w
            got_w = hand(d, w) - before[w]
            got_l = hand(d, lost) - before[lost]
            assert got_w == {order[13 + 2 * k]}
            assert got_l == {order[14 + 2 * k] if k < 5 else order[12]}
            assert d.observation(0).stock_size == 10 - 2 * k


def test_X7_six_cards_each_and_never_a_redeal(ss):
    """X7: six cards each, play starts at once (no redeal offer, no other phase)."""
    for seed in range(10):
        d = ss.new_deal(seed=seed, dealer=seed % 2)
        assert d.phase == "play" and d.observation(0).hand_sizes == (6, 6)
        assert not any(t.startswith(("redeal", "keep", "bid")) for t in legal(d))


# ---------------------------------------------------------------- X8–X14 play
def test_X8_forehand_leads_then_the_winner_two_cards_a_trick(ss):
    """X8: forehand (seat 1) leads to trick 1; the winner of a trick leads the next."""
    d = new(ss, B_ORDER)
    assert d.to_act == 1
    run(d, ["play 10S"])
    assert d.to_act == 0
    run(d, ["play AS"])  # the dealer wins trick 1
    assert d.to_act == 0
    run(d, ["play 9D", "play KD"])  # forehand wins trick 2
    assert d.to_act == 1
    assert [len(cards) for _, cards, _ in d.observation(0).tricks] == [2, 2]
    assert [w for _, _, w in d.observation(0).tricks] == [0, 1]


@pytest.mark.parametrize(
    "lead, follow, winner",
    [
        ("AH", "9C", 0),  # X9: one trump: it wins
        ("9C", "AH", 1),  # a trump led, a plain card played: the trump wins
        ("JC", "AC", 0),  # both trumps: the higher
        ("AC", "9C", 1),
        ("9H", "AS", 1),  # another plain suit never wins, whatever its rank
        ("JH", "AH", 0),  # the led suit: the higher card
        ("10H", "KH", 1),  # the 10 beats the K
    ],
)
def test_X9_trick_winner(ss, lead, follow, winner):
    """X9: the only trump; the higher trump; otherwise the higher card of the led suit."""
    others = [c for c in ALL if c not in (lead, follow, "QC")]
    d = new(
        ss, deck(f"{lead} " + " ".join(others[:5]), f"{follow} " + " ".join(others[5:10]), "QC")
    )
    run(d, [f"play {lead}", f"play {follow}"])
    assert d.observation(0).tricks[0][2] == winner


def test_X10_X11_open_phase_any_card(ss):
    """X11: while the stock is open the second player may play any card: here the dealer
    could follow, beat (AD) or trump (QC) a diamond, and may still play anything."""
    d = new(ss, A_ORDER)
    d.apply("play JD")
    assert legal(d) == plays("AH 10H KS 9S AD QC".split())
    d.apply("play AH")  # X9: the led JD wins
    assert d.observation(0).tricks[0][2] == 1


def test_X10_X13_strict_phase_after_the_stock_is_exhausted(ss):
    """X10, X13: after the sixth trick (the stock exhausted) the second player must follow
    and beat: the dealer holds 10H, JC, ...; a JH is led: the 10H only."""
    d = new(ss, A_ORDER)
    run(d, steps(A_SIX))
    assert d.observation(0).stock_size == 0 and d.observation(0).turnup is None
    assert hand(d, 0) == {"10H", "AD", "QC", "KC", "QD", "JC"}
    d.apply("play JH")
    assert legal(d) == {"play 10H"}
    d.apply("play 10H")  # the dealer wins and leads the QD: forehand holds 10D and 9D
    d.apply("play QD")
    assert legal(d) == {"play 10D"}


def test_X12_drawing_and_exhaustion_after_the_sixth_trick(ss):
    """X12: after each trick the winner draws first; with 2 cards left the winner takes the
    face-down card and the loser the trump card; then 6 more tricks: 12 in all."""
    d = new(ss, A_ORDER)
    run(d, ["play JD", "play AH"])  # forehand wins
    assert "AC" in hand(d, 1) and "KD" in hand(d, 0)  # cards 14 and 15
    run(d, steps(A_SIX)[2:])
    assert "9D" in hand(d, 1) and "JC" in hand(d, 0)  # card 24 to the winner, 13 to the loser
    obs = d.observation(0)
    assert obs.stock_size == 0 and obs.hand_sizes == (6, 6)
    finish(d)
    assert len(d.observation(0).tricks) == 12 and d.is_over


def test_X12_X17_a_drawn_trump_9_may_be_exchanged_at_the_next_lead(ss):
    """X12: drawing comes before the next turn to lead: forehand wins trick 1, draws the 9
    of trumps (card 14) and is offered the exchange at once."""
    order = deck("AS 10S KH QH JD AD", "AH 10H KS 9S 10D QC", "JC", "9C")
    d = new(ss, order)
    assert "exchange" not in legal(d)
    run(d, ["play AS", "play 9S"])
    assert "9C" in hand(d, 1) and "exchange" in legal(d)


@pytest.mark.parametrize(
    "lead, dealer_hand, allowed",
    [
        ("JH", "AH QH 9H AS 9S AD", "AH QH"),  # (a) follow and beat: either higher heart
        ("QH", "KH JH AS 9S AD QD", "KH"),  # (a) the JH does not beat the QH
        ("AH", "KH JH AS 9S AD QD", "KH JH"),  # (a) cannot beat: any heart
        ("QH", "JH 9H AC 9S AD QD", "JH 9H"),  # (a) before (b): follow, do not trump
        ("AS", "AC 9C KH QH AD QD", "AC 9C"),  # (b) void: any trump
        ("AS", "KH QH JH AD QD 9D", "KH QH JH AD QD 9D"),  # (c) no spade, no trump
        ("JC", "AC 9C KH QH AD 9D", "AC"),  # trump led: a higher trump
        ("AC", "10C 9C KH QH AD 9D", "10C 9C"),  # trump led, none higher: any trump
    ],
)
def test_X13_strict_phase_duties_after_closing(ss, lead, dealer_hand, allowed):
    """X13, X21, X22: forehand closes before trick 1 and leads; the dealer's cards."""
    used = {lead, "QC", *dealer_hand.split()}
    fh = [lead] + [c for c in ALL if c not in used][:5]
    d = new(ss, deck(" ".join(fh), dealer_hand, "QC"))
    run(d, ["close", f"play {lead}"])
    assert legal(d) == plays(allowed.split())


def test_X14_the_leader_may_lead_any_card_in_either_phase(ss):
    """X14: every card of the leader's hand, before and after closing (and after exhaustion:
    see X10)."""
    d = new(ss, A_ORDER)
    assert plays("AS 10S KH QH 9C JD".split()) <= legal(d)
    d.apply("close")
    assert {a for a in legal(d) if a.startswith("play")} == plays("AS 10S KH QH 9C JD".split())
    run(d, ["play JD", "play AD"])  # X13: the dealer must beat
    assert {a for a in legal(d) if a.startswith("play")} == plays(hand(d, 0))


# ---------------------------------------------------------------- X15–X19 turns, exchange
def test_X15_a_turn_to_lead_exchange_close_declare_then_lead(ss):
    """X15: the lead offers exchange, close, the marriage and every card; exchanging and
    closing leave the turn with the same player; after the marriage only its K or Q."""
    d = new(ss, A_ORDER)
    assert legal(d) == {"close", "announce marriage H"} | plays("AS 10S KH QH 9C JD".split())
    run(d, ["play JD", "play AH"])  # forehand wins and draws the AC
    hand1 = {"AS", "10S", "KH", "QH", "9C", "AC"}
    assert legal(d) == {"exchange", "close", "announce marriage H"} | plays(hand1)
    d.apply("exchange")
    assert d.to_act == 1
    hand1 = hand1 - {"9C"} | {"JC"}
    assert legal(d) == {"close", "announce marriage H"} | plays(hand1)
    d.apply("close")
    assert d.to_act == 1 and legal(d) == {"announce marriage H"} | plays(hand1)
    d.apply("announce marriage H")
    assert d.to_act == 1 and legal(d) == {"play KH", "play QH"}  # 13 + 20 < 66: no claim
    for bad in ("play AS", "close", "announce marriage H", "exchange"):
        with pytest.raises(trickcore.IllegalActionError):
            d.apply(bad)
    d.apply("play QH")
    assert d.to_act == 0 and legal(d) == {"play 10H"}  # X13 after closing: beat the QH


def test_X16_X17_exchange_when_playing_second(ss):
    """X16, X17(a): the second player, who has won a trick and holds the trump 9, is offered
    the exchange before his card; he then plays (here the AC he took)."""
    d = new(ss, B_ORDER)
    run(d, steps(B_TWO))
    assert d.to_act == 0
    dealer = hand(d, 0)
    assert "9C" in dealer and legal(d) == {"exchange"} | plays(dealer)
    d.apply("exchange")
    assert d.to_act == 0 and d.observation(1).turnup == "9C"
    assert legal(d) == plays(dealer - {"9C"} | {"AC"})
    d.apply("play AC")
    assert d.observation(0).tricks[-1][2] == 0


def test_X16_no_close_claim_or_marriage_when_playing_second(ss):
    """X16, X21, X30: playing second only the exchange and the cards are offered (the dealer
    holds the heart marriage here)."""
    d = new(ss, B_ORDER)
    d.apply("play 10S")
    assert legal(d) == plays(hand(d, 0))


def test_X17b_no_exchange_before_winning_a_trick(ss):
    """X17(b): forehand holds the trump 9 but has won no trick; the dealer has won one."""
    d = new(ss, A_ORDER)
    assert "9C" in hand(d, 1) and "exchange" not in legal(d)
    d = new(ss, B_ORDER)
    run(d, ["play 10S", "play AS"])
    assert "exchange" in legal(d)  # the dealer, after his first trick


def test_X17c_no_exchange_with_two_cards_left_or_after_closing(ss):
    """X17(c): offered with 10, 8, 6 and 4 cards in the stock, not with 2, not once closed."""
    d = new(ss, A_ORDER)
    run(d, ["play JD", "play AH"])
    for k in range(4):
        assert "exchange" in legal(d) and d.observation(1).stock_size == 10 - 2 * k
        run(d, steps(A_SIX)[2 + 2 * k : 4 + 2 * k])
    assert d.to_act == 1 and d.observation(1).stock_size == 2 and "9C" in hand(d, 1)
    assert "exchange" not in legal(d)
    d = new(ss, A_ORDER)
    run(d, ["play JD", "play AH", "close"])
    assert "9C" in hand(d, 1) and "exchange" not in legal(d)


def test_X18_the_exchanged_9_is_the_last_card_drawn_by_the_loser(ss):
    """X18: the trump card goes to the exchanger's hand, the 9 lies face up in its place and
    goes to the loser of the sixth trick."""
    d = new(ss, A_ORDER)
    run(d, ["play JD", "play AH", "exchange"])
    assert "JC" in hand(d, 1) and "9C" not in hand(d, 1)
    for seat in (0, 1):
        assert d.observation(seat).turnup == "9C"
        assert d.observation(seat).trump == "clubs"
    run(d, steps(A_SIX)[2:])  # forehand wins tricks 2–6
    assert "9C" in hand(d, 0) and "9D" in hand(d, 1)
    assert d.observation(0).turnup is None


def test_X19_a_turned_up_trump_9_cannot_be_exchanged(ss):
    """X19: with the 9 of trumps turned up, nobody is ever offered the exchange."""
    order = deck("AS 10S KH QH JD AD", "AH 10H KS 9S 10D QC", "9C")
    for seed in range(8):
        d = new(ss, order, seed % 2)
        rng = random.Random(seed)
        while not d.is_over:
            options = legal(d)
            assert "exchange" not in options
            d.apply(rng.choice(sorted(a for a in options if a != "claim")))


# ---------------------------------------------------------------- X20–X23 closing
def test_X20_X22_after_closing_nobody_draws_and_the_stock_is_out_of_play(ss):
    """X20, X22: forehand closes before trick 1: no more drawing, six tricks, the stock's 51
    card points (the trump card's included) belong to nobody, clubs stay trump and the
    winner of the last trick gets no bonus."""
    d = new(ss, A_ORDER)
    d.apply("close")
    obs = d.observation(0)
    assert obs.stock_closed and obs.trump == "clubs"
    run(d, ["play JD"])
    assert legal(d) == {"play AD"}  # X22: strict from the first card led
    d.apply("play AD")
    assert d.observation(1).hand_sizes == (5, 5)
    finish(d)
    obs = d.observation(0)
    assert len(obs.tricks) == 6 and obs.trump == "clubs"
    assert sum(obs.card_points_taken or ()) == 120 - points(A_ORDER[12:]) == 69
    assert not hand(d, 0) and not hand(d, 1)


def test_X21_closing_only_on_lead_with_4_or_more_cards_and_once(ss):
    """X21: forehand may close before trick 1 without a trick; never when playing second,
    never after declaring, not with 2 cards left, at most once per deal."""
    d = new(ss, A_ORDER)
    assert "close" in legal(d)
    d.apply("play JD")
    assert "close" not in legal(d)  # the dealer plays second
    d.apply("play AH")
    d.apply("announce marriage H")
    assert "close" not in legal(d)
    d = new(ss, A_ORDER)
    run(d, steps(A_SIX)[:8])
    assert d.observation(1).stock_size == 4 and "close" in legal(d)
    run(d, steps(A_SIX)[8:10])
    assert d.to_act == 1 and d.observation(1).stock_size == 2 and "close" not in legal(d)
    d = new(ss, B_ORDER)
    run(d, ["close", "play 10S", "play AS"])
    assert d.to_act == 0 and "close" not in legal(d)  # closed once


def test_X22_X31_a_closed_deal_has_no_last_trick_bonus(ss):
    """X22, X31: forehand closes, takes the last trick and 56 card points: without the bonus
    he stays below 66, so the dealer (no trick when closed) scores 3 (X36)."""
    d = new(ss, CLOSED_LAST_ORDER)
    run(d, steps(CLOSED_LAST_SCRIPT))
    obs = d.observation(0)
    assert d.is_over and obs.tricks[-1][2] == 1 and obs.card_points_taken == (3, 56)
    assert tuple(d.gains) == (3, 0)


@pytest.mark.parametrize("case", ["a", "b", "c"])
def test_X23_X36_X43_failed_closing(ss, case):
    """X23, X36, X43: forehand closes after winning tricks 1–2 with the dealer trickless: the
    dealer scores 3 whether forehand ends below 66 (a) or the dealer claims (b); had the
    dealer won a trick before the closing (c), 2."""
    order, script, gains = X43_CASES[case]
    d = new(ss, order.split())
    acts = steps(script)
    k = acts.index("close")
    run(d, acts[:k])
    obs = d.observation(0)
    assert d.to_act == 1 and obs.tricks_won == ((0, 2) if case != "c" else (1, 2))
    run(d, acts[k:])
    assert d.is_over and tuple(d.gains) == gains
    if case == "a":
        assert d.observation(0).card_points_taken == (39, 60)


# ---------------------------------------------------------------- X24–X27 marriages
def test_X24_a_declared_marriage_is_public_then_its_K_or_Q_is_led(ss):
    """X24, X40: forehand holds two marriages and declares one on his first lead (X25): both
    seats see it; he must lead its K or Q; one marriage per lead."""
    d = new(ss, deck("KH QH KS QS AD 9D", "AH 10H JH 9H AS 10S", "JC"))
    assert {"announce marriage H", "announce marriage S"} <= legal(d)
    d.apply("announce marriage S")
    for seat in (0, 1):
        obs = d.observation(seat)
        assert obs.declarations == ((1, "marriage", "spades", 20),)
        assert obs.announced == (1, "marriage", "spades")
    assert legal(d) == {"play KS", "play QS"}
    for bad in ("announce marriage H", "play KH", "play AD"):
        with pytest.raises(trickcore.IllegalActionError):
            d.apply(bad)
    d.apply("play QS")
    assert d.observation(0).announced is None and d.to_act == 0
    assert d.observation(0).trick == ((1, "QS"),)


def test_X25_marriages_after_closing_and_after_exhaustion(ss):
    """X25: a marriage may be declared after closing and after the stock is exhausted."""
    d = new(ss, A_ORDER)
    d.apply("close")
    assert "announce marriage H" in legal(d)
    d = new(ss, A_ORDER)
    run(d, steps(A_SIX))
    assert d.observation(1).stock_size == 0 and d.to_act == 1
    assert "announce marriage H" in legal(d)
    d.apply("announce marriage H")
    assert d.observation(0).declarations == ((1, "marriage", "hearts", 20),)


def test_X26_a_marriage_before_the_first_trick_counts_from_that_trick(ss):
    """X26: forehand declares forty on his first lead and loses the trick (pending); he wins
    trick 2 (21: 61 with the forty, no claim) and trick 3 (42 + 40 = 82: claim)."""
    d = new(ss, deck("KC QC AH AD JS 9S", "AC 10H 10D KS QS JH", "9C"))
    run(d, ["announce marriage C", "play KC", "play AC"])
    assert d.observation(0).declarations == ((1, "marriage", "clubs", 40),)
    run(d, ["play 10H", "play AH"])
    assert d.to_act == 1 and "claim" not in legal(d)
    run(d, ["play AD", "play 10D"])
    assert taken(d.observation(0)) == [15, 42]
    assert "claim" in legal(d)  # 42 card points alone would not do
    d.apply("claim")
    assert tuple(d.gains) == (0, 2)  # X35: the dealer has a trick and 15


def test_X27_a_marriage_card_led_undeclared_never_scores(ss):
    """X27: forehand leads the KH of his marriage without declaring it; the QH alone can
    never be declared."""
    d = new(ss, A_ORDER)
    run(d, ["play KH", "play 9S"])
    assert d.to_act == 1 and "QH" in hand(d, 1)
    assert not any(a.startswith("announce") for a in legal(d))
    assert d.observation(0).declarations == ()


# ---------------------------------------------------------------- X28–X34 points and claims
def test_X28_X31_X34_X42_worked_end_of_play(ss):
    """X42: 58 and 60 before trick 12; seat 0 wins it (J and 9): 58 + 2 + 10 = 70 against
    60; seat 0 is deemed to claim and scores 1 (X35: seat 1 has 33 or more)."""
    d = new(ss, X42_ORDER)
    acts = steps(X42_SCRIPT)
    run(d, acts[:22])
    obs = d.observation(0)
    assert taken(obs) == [58, 60] and obs.declarations == ()
    assert d.to_act == 0 and not obs.stock_closed
    for a in acts[:22]:
        assert a.startswith("play")
    run(d, acts[22:])
    obs = d.observation(0)
    assert d.is_over and obs.tricks[-1][2] == 0
    assert sorted(rank(c) for _, c in obs.tricks[-1][1]) == ["9", "J"]
    assert obs.card_points_taken == (60, 60)
    assert tuple(d.gains) == (1, 0)


def test_X29_a_closed_deal_plays_fewer_card_points(ss):
    """X29: in a closed deal the cards left in the stock are out of play (see X20)."""
    d = new(ss, CLOSED_LAST_ORDER)
    run(d, steps(CLOSED_LAST_SCRIPT))
    assert sum(d.observation(0).card_points_taken or ()) < 120


def test_X30_X32_claims_only_true_optional_and_only_on_lead(ss):
    """X32: the claim is offered exactly when the player on lead has 66 or more; seat 0
    plays on at 74 (X32: optional), loses a trick, plays second with 74 (X30: no claim) and
    claims at his next lead."""
    d = new(ss, LATER_ORDER)
    r = Ref(LATER_ORDER, 0)
    offered = []
    for i, a in enumerate(steps(LATER_SCRIPT)):
        leading = not r.trick
        true = r.deal_points(r.to_act) >= 66
        assert ("claim" in legal(d)) == (leading and true), i
        if true and not leading:
            assert i == 19 and r.to_act == 0  # X30: he plays second with 74
        if "claim" in legal(d):
            offered.append(i)
        d.apply(a)
        r.apply(a)
    assert offered == [16, 20]
    assert d.is_over and tuple(d.gains) == (2, 0)


def test_X33_a_claim_ends_the_deal_at_once(ss):
    """X33: after six tricks seat 1 claims with 74: no more cards are played or drawn."""
    d = new(ss, THREE_ORDER)
    run(d, steps(THREE_SCRIPT))
    obs = d.observation(0)
    assert d.is_over and not d.legal_actions()
    assert len(obs.tricks) == 6 and obs.hand_sizes == (6, 6)
    assert obs.card_points_taken == (0, 74)
    with pytest.raises(trickcore.TrickcoreError):
        d.apply("play " + sorted(hand(d, 1))[0])


def test_X34_the_other_player_is_deemed_to_claim(ss):
    """X34: nobody claims; seat 0 wins the last trick with 32 + 10 = 42, seat 1 has 88:
    seat 1 is deemed to claim and scores 1 (X35: seat 0 has 33 or more)."""
    d = new(ss, OTHER_ORDER)
    run(d, steps(OTHER_SCRIPT))
    obs = d.observation(0)
    assert d.is_over and obs.tricks[-1][2] == 0 and obs.card_points_taken == (32, 88)
    assert tuple(d.gains) == (0, 1)


def test_X34_X39_only_the_last_trick_winner_is_deemed_to_claim(ss):
    """X34, X38, X39: nobody claims and both end with 66 or more (seat 0: 54 + two twenties,
    seat 1: 66 + the bonus): the winner of the last trick (seat 1) is deemed to claim and
    only he scores (1: seat 0 has 33 or more)."""
    d = new(ss, BOTH_ORDER)
    run(d, steps(BOTH_SCRIPT))
    obs = d.observation(0)
    assert d.is_over and obs.tricks[-1][2] == 1 and obs.card_points_taken == (54, 66)
    assert [v for s, _, _, v in obs.declarations] == [20, 20]
    assert tuple(d.gains) == (0, 1)


# ---------------------------------------------------------------- X35–X39 scoring
@pytest.mark.parametrize(
    "order, script, gains",
    [
        (THREE_ORDER, THREE_SCRIPT, (0, 3)),  # the opponent has no trick
        (TWO_ORDER, TWO_SCRIPT, (0, 2)),  # a trick but 30: schneider
        (X42_ORDER, X42_SCRIPT, (1, 0)),  # 60: 33 or more
        (LIFT_ORDER, LIFT_SCRIPT, (1, 0)),  # 27 card points + a credited twenty
    ],
    ids=["three", "two", "one", "credited-marriage"],
)
def test_X35_game_points_3_2_1(ss, order, script, gains):
    """X35: 3 if the opponent won no trick, 2 below 33 deal points, 1 with 33 or more, his
    credited marriages included."""
    d = new(ss, order)
    run(d, steps(script))
    obs = d.observation(0)
    winner = gains.index(max(gains))
    assert d.is_over and obs.card_points_taken is not None
    loser_points = obs.card_points_taken[1 - winner]
    loser_points += sum(v for s, _, _, v in obs.declarations if s == 1 - winner)
    assert (obs.tricks_won[1 - winner] == 0) == (gains[winner] == 3)
    assert (loser_points >= 33) == (gains[winner] == 1)
    assert tuple(d.gains) == gains


def test_X36_the_closer_s_opponent_claims_2_not_X35(ss):
    """X36: forehand closes; the dealer, who had a trick, claims with 66 while the closer has
    45: the dealer scores 2 (X35 would give 1), the closer nothing."""
    d = new(ss, CLOSED_CLAIM_ORDER)
    run(d, steps(CLOSED_CLAIM_SCRIPT))
    obs = d.observation(0)
    assert obs.stock_closed and obs.card_points_taken == (66, 45)
    assert tuple(d.gains) == (2, 0)


def test_X35_X36_the_closer_claims(ss):
    """X35, X36: the dealer closes and later claims with 69; forehand has 21 with tricks:
    the closer scores 2 by X35."""
    order = "AS QD KS 10C 10D QC 9S JC QH JH 9D AC 9C QS AD KC AH 10S JD 9H KD 10H JS KH"
    script = "play AS|play 10C|play QS|play JC|play KC|play AC|play AH|play JD|close|play JH|"
    script += "play QH|play 9S|play 10S|play 9H|play QD|play 9D|play AD|play KS|play QC|claim"
    d = new(ss, order.split())
    run(d, steps(script))
    obs = d.observation(0)
    assert obs.card_points_taken == (69, 21) and obs.tricks_won[1] > 0
    assert tuple(d.gains) == (2, 0)


def test_X37_a_drawn_deal_scores_nothing(ss):
    """X37: played out, never closed, 65 each (55 + the bonus, and 65): no claimant."""
    d = new(ss, DRAW_ORDER)
    run(d, steps(DRAW_SCRIPT))
    obs = d.observation(0)
    assert d.is_over and obs.tricks[-1][2] == 0 and obs.card_points_taken == (55, 65)
    assert tuple(d.gains) == (0, 0)
    m = ss.new_match(deck_orders=[DRAW_ORDER], scores=[3, 5])
    run(m, steps(DRAW_SCRIPT))
    assert m.scores == [3, 5] and not m.is_over and m.deal.dealer == 1


def test_X38_only_the_deal_s_winner_scores_never_a_loss(ss):
    """X38: in random deals every gain is 0 to 3 and at most one seat scores."""
    for seed in range(40):
        rng = random.Random(seed)
        d = ss.new_deal(seed=seed, dealer=seed % 2)
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        gains = list(d.gains)
        assert all(0 <= g <= 3 for g in gains) and min(gains) == 0, (seed, gains)


@pytest.mark.parametrize(
    "start, over",
    [([6, 0], True), ([5, 6], False), ([6, 6], True), ([0, 0], False)],
)
def test_X39_the_match_is_won_at_7(ss, start, over):
    """X39: seat 0 wins the X42 deal (1 game point): at 7 the match is over."""
    m = ss.new_match(deck_orders=[X42_ORDER], scores=start)
    run(m, steps(X42_SCRIPT))
    assert m.scores == [start[0] + 1, start[1]]
    assert m.is_over is over
    assert m.winners == ([0] if over else [])


# ---------------------------------------------------------------- X40 information
def test_X40_hands_and_stock_private_the_rest_public(ss):
    """X40: a seat sees his hand, the trump card, every played card, exchanges and
    declarations; never the other hand or the face-down stock."""
    d = new(ss, A_ORDER)
    stock = set(A_ORDER[13:])
    for seat in (0, 1):
        seen = cards_in(d.observation(seat))
        assert seen == hand(d, seat) | {"JC"}
        assert not seen & (stock | hand(d, 1 - seat))
    run(d, ["play JD", "play AH", "exchange", "announce marriage H", "play KH"])
    for seat in (0, 1):
        obs = d.observation(seat)
        assert obs.turnup == "9C" and obs.declarations == ((1, "marriage", "hearts", 20),)
        assert obs.tricks[0][1] == ((1, "JD"), (0, "AH")) and obs.trick == ((1, "KH"),)
        seen = cards_in(obs)
        # the QH was shown (X24), the JC taken by the exchange (X18)
        assert not seen & (hand(d, 1 - seat) - {"QH", "JC"})
        assert not seen & (set(A_ORDER[15:]))  # the face-down stock
    assert d.observation(0).hand_sizes == (6, 5)


# ---------------------------------------------------------------- X41–X44 worked examples
def test_X41_claim_with_a_marriage(ss):
    """X41: forehand has 48, declares twenty (68) and claims without leading; the dealer has
    a trick worth 5 and a twenty (25): forehand scores 2."""
    d = new(ss, X41_ORDER)
    run(d, steps(X41_SCRIPT))
    obs = d.observation(0)
    assert d.to_act == 1 and taken(obs) == [5, 48] and obs.tricks_won[0] == 1
    assert "claim" not in legal(d)
    d.apply("announce marriage H")
    assert legal(d) == {"play KH", "play QH", "claim"}  # X15, X32
    d.apply("claim")
    obs = d.observation(1)
    assert obs.declarations == ((0, "marriage", "spades", 20), (1, "marriage", "hearts", 20))
    assert d.is_over and tuple(d.gains) == (0, 2)


def test_X42_the_deal_in_a_match(ss):
    """X42 as a match deal: seat 0 scores 1 game point."""
    m = ss.new_match(deck_orders=[X42_ORDER])
    run(m, steps(X42_SCRIPT))
    assert m.scores == [1, 0] and m.deal_results[-1]["gains"] == [1, 0]


def test_X43_the_three_becomes_two_when_the_dealer_had_a_trick(ss):
    """X43: see X23/X36 (cases a, b, c): 3, 3, and 2."""
    for case, (order, script, gains) in X43_CASES.items():
        d = new(ss, order.split())
        run(d, steps(script))
        assert tuple(d.gains) == gains, case


def test_X44_exchange_then_forty(ss):
    """X44: spades trump (KS turned up); seat 1 has won tricks, holds QS 9S and leads with
    8 cards in the stock: he exchanges (the 9S lies as trump card), declares forty with KS QS
    and leads the QS."""
    d = new(ss, deck("QS 9S AH 10H AD JC", "KH QH 9H KD QD 9D", "KS"))
    run(d, ["play AH", "play 9H", "play 10H", "play KH"])
    assert d.to_act == 1 and d.observation(1).stock_size == 8
    assert "exchange" in legal(d)
    d.apply("exchange")
    assert {"KS", "QS"} <= hand(d, 1) and d.observation(0).turnup == "9S"
    assert "announce marriage S" in legal(d)
    d.apply("announce marriage S")
    assert d.observation(0).declarations == ((1, "marriage", "spades", 40),)
    assert legal(d) == {"play KS", "play QS"}  # 25 + 40 = 65: no claim
    d.apply("play QS")
    assert d.observation(0).trick == ((1, "QS"),)


# ---------------------------------------------------------------- random deals, restated
def choose(rng: random.Random, options: set[str]) -> str:
    """A random action; decisions a little less often than cards, so deals go on."""
    cards = sorted(a for a in options if a.startswith("play"))
    others = sorted(options - set(cards))
    if others and (not cards or rng.random() < 0.25):
        return rng.choice(others)
    return rng.choice(cards)


def cross_check(
    v: trickcore.Variant, seeds: range, cards: Sequence[str] = ALL, **house: Any
) -> None:
    """Random deals of `v` and of `Ref` (with the house rules `house`) side by side: the
    hands, the legal actions at every step, the card points and the game points."""
    for seed in seeds:
        rng = random.Random(seed)
        order = list(cards)
        rng.shuffle(order)
        dealer = seed % 2
        d = new(v, order, dealer)
        r = Ref(order, dealer, **house)
        done: list[str] = []
        while not r.over:
            where = (seed, done)
            assert legal(d) == r.legal(), where
            assert hand(d, 0) == set(r.hands[0]) and hand(d, 1) == set(r.hands[1]), where
            assert d.observation(0).stock_size == r.stock_left(), where
            # X20: closing turns the trump card face down
            assert d.observation(1).turnup == (None if r.closed else r.turnup), where
            a = choose(rng, r.legal())
            done.append(a)
            d.apply(a)
            r.apply(a)
        obs = d.observation(0)
        assert d.is_over, (seed, done)
        assert list(obs.card_points_taken or ()) == [points(r.won[0]), points(r.won[1])]
        assert list(d.gains) == r.gains(), (seed, done, [r.deal_points(s) for s in (0, 1)])


def test_X6_X38_random_deals_follow_the_restated_rules(ss):
    """X6–X38: 150 random deals agree with `Ref` at every step and in the game points."""
    cross_check(ss, range(150))


# ---------------------------------------------------------------- X45 twenty-card
@pytest.fixture(scope="module")
def twenty() -> trickcore.Variant:
    return trickcore.load_variant("sixty-six-twenty-card")


def test_X45_twenty_cards_hands_of_five_and_ten_tricks(twenty):
    """X45: no 9s; 3 + 2 cards each, card 11 turned up, a stock of 10 with it; the stock is
    exhausted after trick 5; 10 tricks and 120 card points."""
    for bad in ("9C", "9S", "9H", "9D"):
        with pytest.raises(trickcore.TrickcoreError):
            twenty.card(bad)
    for seed in range(3):
        order = list(ALL20)
        random.Random(seed).shuffle(order)
        d = new(twenty, order, 0)
        assert hand(d, 1) == set(order[0:3] + order[6:8])
        assert hand(d, 0) == set(order[3:6] + order[8:10])
        obs = d.observation(0)
        assert obs.turnup == order[10] and obs.stock_size == 10
        assert obs.trump == NAME[suit(order[10])]
        play_cards(d, 5)
        assert d.observation(0).stock_size == 0 and d.observation(0).hand_sizes == (5, 5)
        finish(d)
        obs = d.observation(0)
        assert len(obs.tricks) == 10 and sum(obs.card_points_taken or ()) == 120


def test_X45_the_trump_jack_is_exchanged(twenty):
    """X45 with X17, X18: the holder of the trump J (who has won a trick) exchanges it."""
    d = new(twenty, deck20("AS JC 10S KH QH", "KS AH 10H AD QS", "AC"))
    assert "exchange" not in legal(d)
    run(d, ["play AS", "play KS"])
    assert "exchange" in legal(d)
    d.apply("exchange")
    assert "AC" in hand(d, 1) and d.observation(0).turnup == "JC"


def test_X45_a_turned_up_trump_jack_cannot_be_exchanged(twenty):
    """X45 with X19: the J of trumps turned up: no exchange in the deal."""
    order = deck20("AS 10S KH QH AD", "KS AH 10H QS 10D", "JC")
    for seed in range(6):
        d = new(twenty, order, seed % 2)
        rng = random.Random(seed)
        while not d.is_over:
            options = legal(d)
            assert "exchange" not in options
            d.apply(rng.choice(sorted(a for a in options if a != "claim")))


def test_X45_random_deals_follow_the_restated_rules(twenty):
    """X45 (everything else unchanged): random deals agree with `Ref` on 20 cards."""
    cross_check(twenty, range(80), cards=ALL20, nine="J")


# ---------------------------------------------------------------- X46–X50
def test_X46_exchange_on_lead_only():
    """X46: the dealer, playing second with the trump 9 and a trick, is not offered the
    exchange; on lead he is."""
    v = trickcore.load_variant("sixty-six-exchange-on-lead-only")
    d = new(v, B_ORDER)
    run(d, steps(B_TWO)[:2])
    assert d.to_act == 0 and "exchange" in legal(d)
    run(d, steps(B_TWO)[2:])
    assert d.to_act == 0 and "9C" in hand(d, 0)
    assert legal(d) == plays(hand(d, 0))


def test_X46_random_deals_follow_the_restated_rules():
    """X46 (everything else unchanged): random deals agree with `Ref` without the exchange
    when playing second."""
    v = trickcore.load_variant("sixty-six-exchange-on-lead-only")
    cross_check(v, range(60), second_exchange=False)


def test_X47_no_late_marriages():
    """X47: a marriage only in the open phase: not after closing, not after exhaustion."""
    v = trickcore.load_variant("sixty-six-no-late-marriages")
    d = new(v, A_ORDER)
    assert "announce marriage H" in legal(d)
    d.apply("close")
    assert "announce marriage H" not in legal(d)
    d = new(v, A_ORDER)
    run(d, steps(A_SIX)[:10])
    assert d.observation(1).stock_size == 2 and "announce marriage H" in legal(d)
    run(d, steps(A_SIX)[10:])
    assert d.observation(1).stock_size == 0 and {"KH", "QH"} <= hand(d, 1)
    assert "announce marriage H" not in legal(d)
    d = new(v, deck("KC QC AH AD JS 9S", "AC 10H 10D KS QS JH", "9C"))
    run(d, ["play 9S", "play QS", "close", "play 10D", "play AD"])  # the dealer closed
    assert d.to_act == 1 and {"KC", "QC"} <= hand(d, 1)
    assert "announce marriage C" not in legal(d)


def test_X47_random_deals_follow_the_restated_rules():
    """X47 (everything else unchanged): random deals agree with `Ref`, marriages only in
    the open phase."""
    v = trickcore.load_variant("sixty-six-no-late-marriages")
    cross_check(v, range(80), late_marriages=False)


@pytest.mark.parametrize(
    "orders, scripts, base, carried",
    [
        ([DRAW_ORDER, X42_ORDER], [DRAW_SCRIPT, X42_SCRIPT], [0, 1], [0, 2]),
        (
            [DRAW_ORDER, DRAW_ORDER, X42_ORDER, THREE_ORDER],
            [DRAW_SCRIPT, DRAW_SCRIPT, X42_SCRIPT, THREE_SCRIPT],
            [4, 0],
            [6, 0],
        ),
        ([DRAW_ORDER, CLOSED_LAST_ORDER], [DRAW_SCRIPT, CLOSED_LAST_SCRIPT], [0, 3], [0, 4]),
    ],
    ids=["one-draw", "two-draws", "draw-then-failed-closing"],
)
def test_X48_a_drawn_deal_carries_a_point(ss, orders, scripts, base, carried):
    """X48: after one draw the next deal's winner scores 1 more (X42 dealt by seat 1: seat 1
    wins 1 + 1); after two draws 2 more (seat 0: 1 + 2), and then nothing more (deal 4:
    3); a failed closing is not a draw (X36: its winner, seat 1, scores 3 + 1)."""
    v = trickcore.load_variant("sixty-six-drawn-deal-carries")
    for variant, final in ((ss, base), (v, carried)):
        m = variant.new_match(deck_orders=orders)
        for script in scripts:
            run(m, steps(script))
        assert m.scores == final, variant.name
        assert not m.is_over


def test_X49_false_claims():
    """X49: the claim is offered at every turn to lead; a false one gives the opponent 2, or
    3 if he has no trick; a true one scores as the base game."""
    v = trickcore.load_variant("sixty-six-false-claims")
    d = new(v, A_ORDER)
    assert "claim" in legal(d)
    d.apply("claim")  # forehand, 0 points; the dealer has no trick
    assert tuple(d.gains) == (3, 0)
    d = new(v, B_ORDER)
    d.apply("play 10S")
    assert "claim" not in legal(d)  # playing second
    run(d, ["play AS", "play 9D", "play KD", "claim"])  # forehand, 4 points
    assert tuple(d.gains) == (2, 0)
    d = new(v, A_ORDER)
    d.apply("announce marriage H")
    assert legal(d) == {"play KH", "play QH", "claim"}
    # a false claim by the closer's opponent: X49, not X36
    d = new(v, A_ORDER)
    run(d, ["close", "play JD", "play AD", "claim"])  # the dealer claims with 13
    assert tuple(d.gains) == (0, 3)
    for order, script, gains in (
        (THREE_ORDER, THREE_SCRIPT, (0, 3)),
        (X41_ORDER, X41_SCRIPT + "|announce marriage H|claim", (0, 2)),
    ):
        d = new(v, order)
        run(d, steps(script))
        assert tuple(d.gains) == gains


def test_X49_random_deals_follow_the_restated_rules():
    """X49 (everything else unchanged): random deals agree with `Ref`, claims offered at
    every lead."""
    v = trickcore.load_variant("sixty-six-false-claims")
    cross_check(v, range(80), false_claims=True)


@pytest.mark.parametrize("start, over", [([6, 0], False), ([8, 5], False), ([9, 0], True)])
def test_X50_match_target_10(start, over):
    """X50 with N = 10: the match is won at 10 game points."""
    v = trickcore.load_variant("sixty-six-match-target-10")
    m = v.new_match(deck_orders=[X42_ORDER], scores=start)
    run(m, steps(X42_SCRIPT))
    assert m.scores == [start[0] + 1, start[1]]
    assert m.is_over is over and m.winners == ([0] if over else [])
