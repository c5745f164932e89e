"""Skat rules (K1–K54 of docs/rules/skat.md) played through the public API, and the
options and house rules K44, K55–K62, K64, K65 (`variants/skat-*.rules`).

Each test plays a rule on real cards (deals stacked with `stack_deck`, the auction and the
declarer's choices scripted) and fails when that rule is broken in `variants/skat.rules` or
in the engine; none of them reads the compiled model. The rules are restated below in a few
lines of Python, independent of trickcore (`legal`, `winner`, `matadors`, `result`); the
random-deal tests play the engine and the restatement side by side. Worked deals are given
as three hands in order of preference: each player plays the first card of his list that he
may play (`play_prefs`), so the hands alone fix every trick.

K63 (`kontra-re`, `variants/skat-kontra-re.rules`) is tested in `tests/test_decisions.py`;
K44 with 4 seats (+30 to the dealer sitting out) below.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from conftest import run, texts

import trickcore

# ---------------------------------------------------------------- the rules restated
# K4, K5 (not read from the variant).
RANKS = ["A", "10", "K", "Q", "J", "9", "8", "7"]
SUITS = "CSHD"  # K4: ♣ > ♠ > ♥ > ♦
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
ALL = [r + s for s in SUITS for r in RANKS]
CARD_RE = re.compile(r"(?<![0-9A-Z])(?:10|[7-9AKQJ])[CSHD](?![0-9A-Z])")
# K13: every value a game can have.
BIDS = sorted(
    {b * m for b in (9, 10, 11, 12) for m in range(2, 19)}
    | {24 * m for m in range(2, 12)}
    | {23, 35, 46, 59}
)
# K65: matadors over the jacks only.
JACK_BIDS = sorted({b * m for b in (9, 10, 11, 12, 24) for m in range(2, 12)} | {23, 35, 46, 59})
# The game options of the announcement (K23) and what they are.
GAME_OF = {
    "diamonds_game": "D",
    "hearts_game": "H",
    "spades_game": "S",
    "clubs_game": "C",
    "grand": "G",
    "null": "N",
    "null_ouvert": "N",
}
OPTIONS = list(GAME_OF)
BASE = {"D": 9, "H": 10, "S": 11, "C": 12, "G": 24}  # K9
NULL_VALUE = {("null", False): 23, ("null", True): 35}  # K9
NULL_VALUE |= {("null_ouvert", False): 46, ("null_ouvert", True): 59}
SUIT_ORDER = ["A", "10", "K", "Q", "9", "8", "7"]  # K10, K11: a suit without its jack
NULL_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7"]  # K12


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def points(cards: Iterable[str]) -> int:
    """K5: card points of some cards."""
    return sum(POINTS[rank(c)] for c in cards)


def is_trump(card: str, game: str) -> bool:
    """K10–K12: the jacks and the trump suit (suit games), the jacks (grand), none (null)."""
    if game == "N":
        return False
    return rank(card) == "J" or suit(card) == game


def led_suit(card: str, game: str) -> str:
    """K29: the "suit" a card belongs to: T for the trumps."""
    return "T" if is_trump(card, game) else suit(card)


def strength(card: str, game: str) -> int:
    """K10–K12: higher is better within the card's K29 suit."""
    if is_trump(card, game):
        if rank(card) == "J":
            return 100 - SUITS.index(suit(card))
        return 50 - SUIT_ORDER.index(rank(card))
    order = NULL_ORDER if game == "N" else SUIT_ORDER
    return 20 - order.index(rank(card))


def legal(hand: Sequence[str], trick: Sequence[tuple[int, str]], game: str) -> list[str]:
    """K29: follow the led suit if able, else any card; no duty to trump or to beat."""
    if not trick:
        return list(hand)
    led = led_suit(trick[0][1], game)
    same = [c for c in hand if led_suit(c, game) == led]
    return same or list(hand)


def winner(trick: Sequence[tuple[int, str]], game: str) -> int:
    """K30: the highest trump, else the highest card of the led suit."""
    trumps = [t for t in trick if is_trump(t[1], game)]
    led = led_suit(trick[0][1], game)
    pool = trumps or [t for t in trick if led_suit(t[1], game) == led]
    return max(pool, key=lambda t: strength(t[1], game))[0]


def trump_sequence(game: str, jacks_only: bool = False) -> list[str]:
    """K37: the trumps from the top (K65: the jacks only)."""
    seq = ["J" + s for s in SUITS]
    if game in SUITS and not jacks_only:
        seq += [r + game for r in SUIT_ORDER]
    return seq


def matadors(cards: Iterable[str], game: str, jacks_only: bool = False) -> int:
    """K37: "with n" / "without n" over the declarer's 10 dealt cards and the skat."""
    held = set(cards)
    seq = trump_sequence(game, jacks_only)
    with_top = seq[0] in held
    n = 0
    for c in seq:
        if (c in held) != with_top:
            break
        n += 1
    return n


def result(
    option: str,
    bid: int,
    pts: int,
    tricks: int,
    mat: int,
    hand: bool = False,
    level: str = "",
    lost_hand_single: bool = False,
) -> tuple[int, bool, int]:
    """K34–K43: (value, won, the declarer's list score) of a game. `level` is the hand
    game's announcement (K24): "", "schneider", "schwarz" or "ouvert"; `pts` the
    declarer's card points with the skat, `tricks` his tricks (of 10), `mat` his n."""
    if GAME_OF[option] == "N":  # K36, K41
        value, won = NULL_VALUE[(option, hand)], tricks == 0
    else:
        said_schneider = level in ("schneider", "schwarz", "ouvert")  # K25
        said_schwarz = level in ("schwarz", "ouvert")
        schneider = pts >= 90 or pts <= 30 or said_schneider  # K39
        schwarz = tricks in (0, 10) or said_schwarz
        mult = mat + 1 + sum([hand, schneider, said_schneider, schwarz, said_schwarz])
        mult += level == "ouvert"  # K38
        base = BASE[GAME_OF[option]]
        value = base * mult  # K40
        overbid = value < bid  # K42
        if overbid:
            value = -(-bid // base) * base
        won = (
            not overbid
            and pts >= 61
            and (not said_schneider or pts >= 90)
            and (not said_schwarz or tricks == 10)
        )  # K35
    loss = 1 if lost_hand_single and hand else 2  # K43, K64
    return value, won, value if won else -loss * value


# ---------------------------------------------------------------- building deals
def positions(dealer: int, seats: int = 3) -> dict[str, int]:
    """K2: forehand, middlehand, rearhand for a dealer."""
    if seats == 3:
        return {"F": (dealer + 1) % 3, "M": (dealer + 2) % 3, "R": dealer}
    return {"F": (dealer + 1) % 4, "M": (dealer + 2) % 4, "R": (dealer + 3) % 4}


def cards(text: str) -> list[str]:
    return text.split()


def stacked(
    v: trickcore.Variant,
    hands: dict[str, str],
    skat: str = "",
    dealer: int = 0,
    seats: int = 3,
) -> list[str]:
    """A deck order: the named cards to F, M, R (by position) and the skat; the rest in
    deck order."""
    pos = positions(dealer, seats)
    named = {pos[p]: cards(h) for p, h in hands.items()}
    return v.stack_deck(named, talon=cards(skat), dealer=dealer, players=seats)


def new_deal(
    v: trickcore.Variant, hands: dict[str, str], skat: str = "", dealer: int = 0
) -> trickcore.Deal:
    d = v.new_deal(stacked(v, hands, skat, dealer), dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    return d


def cards_in(obs: Any) -> set[str]:
    """Every card text anywhere in an observation."""
    return set(CARD_RE.findall(json.dumps(obs.to_dict())))


def legal_texts(state: Any) -> list[str]:
    return texts(state.legal_actions())


def play_prefs(state: Any, prefs: dict[int, list[str]]) -> None:
    """Play the deal out: each player plays the first card of his list he may play (a
    player without a list plays his first legal card)."""
    deal = state.current if isinstance(state, trickcore.Match) else state
    while not deal.is_over:
        allowed = legal_texts(state)
        mine = [f"play {c}" for c in prefs.get(state.to_act, [])]
        state.apply(next((a for a in mine if a in allowed), allowed[0]))


def finish(state: Any) -> None:
    """Every player plays his first legal action until the deal ends."""
    deal = state.current if isinstance(state, trickcore.Match) else state
    while not deal.is_over:
        state.apply(state.legal_actions()[0])


@pytest.fixture(scope="module")
def skat() -> trickcore.Variant:
    return trickcore.load_variant("skat")


def dealt(order: Sequence[str], dealer: int) -> tuple[dict[int, list[str]], list[str]]:
    """K6 restated: "3 – skat – 4 – 3" from the top: the hands by seat and the skat."""
    pos = positions(dealer)
    hands: dict[int, list[str]] = {s: [] for s in range(3)}
    i = 0
    for count in (3, 0, 4, 3):  # 0: the skat goes between the first and second rounds
        if count == 0:
            skat = list(order[i : i + 2])
            i += 2
            continue
        for p in "FMR":
            hands[pos[p]] += order[i : i + count]
            i += count
    return hands, skat


class RefAuction:
    """K13–K18 restated: the auction in pairs, M to F, then R to the survivor."""

    def __init__(self, dealer: int, bids: Sequence[int] = BIDS) -> None:
        pos = positions(dealer)
        self.bids = list(bids)
        self.f, self.m, self.r = pos["F"], pos["M"], pos["R"]
        self.bidder, self.listener = self.m, self.f  # K14
        self.stage = 1
        self.high = 0  # the highest value named
        self.answering = False
        self.last_call = False  # K17: F alone, nothing named
        self.over = False
        self.declarer = -1
        self.passed: set[int] = set()

    @property
    def to_act(self) -> int:
        if self.last_call:
            return self.f
        return self.listener if self.answering else self.bidder

    def legal(self) -> set[str]:
        if self.over:
            return set()
        if self.last_call:  # K17
            return {f"bid {self.bids[0]}", "pass"}
        if self.answering:  # K14: hold or pass
            return {"hold", "pass"}
        return {f"bid {v}" for v in self.bids if v > self.high} | {"pass"}  # K13

    def apply(self, a: str) -> None:
        assert a in self.legal(), (a, sorted(self.legal()))
        seat = self.to_act
        if self.last_call:
            self.over = True
            self.declarer = self.f if a != "pass" else -1
            self.high = self.bids[0] if a != "pass" else 0
            return
        if a.startswith("bid"):
            self.high = int(a.split()[1])
            self.answering = True
            return
        if a == "hold":
            self.answering = False
            return
        self.passed.add(seat)  # K18
        survivor = self.bidder if seat == self.listener else self.listener
        self.answering = False
        if self.stage == 1:  # K15
            self.stage, self.bidder, self.listener = 2, self.r, survivor
            return
        self.over = self.high > 0  # K16
        if self.over:
            self.declarer = survivor
        else:
            self.last_call = True


class RefDeal:
    """K6, K21–K36 restated: one deal from the deck order, step by step, checking every
    action against the sheet, then scored (K34–K43)."""

    def __init__(self, order: Sequence[str], dealer: int) -> None:
        self.hands, self.skat = dealt(order, dealer)
        self.start = {s: list(h) for s, h in self.hands.items()}
        self.auction = RefAuction(dealer)
        self.f = positions(dealer)["F"]
        self.declarer = -1
        self.step = "auction"
        self.hand = False
        self.laid: list[str] = []
        self.option = ""
        self.level = ""
        self.trick: list[tuple[int, str]] = []
        self.tricks = {s: 0 for s in range(3)}
        self.won: dict[int, list[str]] = {s: [] for s in range(3)}
        self.played = 0
        self.winners: list[int] = []
        self.to_act = self.auction.to_act
        self.over = False

    @property
    def game(self) -> str:
        return GAME_OF[self.option]

    def legal(self) -> set[str]:
        a = self.auction
        if self.over:
            return set()
        if self.step == "auction":
            return a.legal()
        if self.step == "hand":  # K21
            return {"hand", "keep"}
        if self.step == "discard":  # K22: any card of the 12
            return {f"discard {c}" for c in self.hands[self.declarer]}
        if self.step == "game":  # K23, K24, K26
            out = {o for o in OPTIONS if GAME_OF[o] != "N"}
            if NULL_VALUE[("null", self.hand)] >= a.high:
                out.add("null")
            if NULL_VALUE[("null_ouvert", self.hand)] >= a.high:
                out.add("null_ouvert")
            return out
        if self.step in ("ouvert", "schwarz", "schneider"):  # K24, K25
            return {self.step, "keep"}
        return {f"play {c}" for c in legal(self.hands[self.to_act], self.trick, self.game)}

    def apply(self, action: str) -> None:
        assert action in self.legal(), (action, sorted(self.legal()))
        a = self.auction
        if self.step == "auction":
            a.apply(action)
            self.to_act = a.to_act
            if a.over:
                self.declarer = a.declarer
                if self.declarer < 0:  # K20: nothing is played
                    self.over = True
                    return
                self.step, self.to_act = "hand", self.declarer
            return
        if self.step == "hand":
            self.hand = action == "hand"
            if self.hand:
                self.step = "game"
            else:
                self.hands[self.declarer] += self.skat  # K22
                self.step = "discard"
            return
        if self.step == "discard":
            card = action.split()[1]
            self.hands[self.declarer].remove(card)
            self.laid.append(card)
            if len(self.laid) == 2:
                self.step = "game"
            return
        if self.step == "game":
            self.option = action
            self.step = "ouvert" if self.hand and self.game != "N" else "play"
            self.to_act = self.declarer if self.step != "play" else self.f
            return
        if self.step in ("ouvert", "schwarz", "schneider"):
            if action != "keep":
                self.level = action
                self.step = "play"
            else:
                self.step = {"ouvert": "schwarz", "schwarz": "schneider"}.get(self.step, "play")
            if self.step == "play":
                self.to_act = self.f  # K28
            return
        seat = self.to_act
        card = action.split()[1]
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.to_act = (seat + 1) % 3
        if len(self.trick) == 3:
            w = winner(self.trick, self.game)
            self.winners.append(w)
            self.tricks[w] += 1
            self.won[w] += [c for _, c in self.trick]
            self.trick = []
            self.played += 1
            self.to_act = w  # K28
            declarer_took = w == self.declarer
            self.over = (
                self.played == 10
                or (self.game == "N" and declarer_took)  # K32
                or (self.level in ("schwarz", "ouvert") and not declarer_took)
            )

    def card_points(self) -> int:
        """K34: the declarer's tricks and the skat (laid away, or the hand game's skat)."""
        skat = self.skat if self.hand else self.laid
        return points(self.won[self.declarer]) + points(skat)

    def gains(self, lost_hand_single: bool = False) -> list[int]:
        """K43: the declarer's list score; the others 0; an all-pass deal 0."""
        out = [0, 0, 0]
        if self.declarer < 0:
            return out
        mat = matadors(self.start[self.declarer] + self.skat, self.game)  # K37
        out[self.declarer] = result(
            self.option,
            self.auction.high,
            self.card_points(),
            self.tricks[self.declarer],
            mat,
            self.hand,
            self.level,
            lost_hand_single,
        )[2]
        return out


def random_policy(rng: random.Random, legal_now: list[str], announce: bool) -> str:
    """Random choices that make for varied deals: short bidding, every game, and (when
    `announce`) the hand game's announcements."""
    bids = [a for a in legal_now if a.startswith("bid ")]
    if bids and "pass" in legal_now:
        return rng.choice(bids[:6]) if rng.random() < 0.6 else "pass"
    if legal_now == ["hold", "pass"] or set(legal_now) == {"hold", "pass"}:
        return "hold" if rng.random() < 0.5 else "pass"
    if not announce and set(legal_now) in ({"ouvert", "keep"}, {"schwarz", "keep"}):
        return "keep"
    return rng.choice(legal_now)


def random_ref_deal(
    v: trickcore.Variant, seed: int, announce: bool = False
) -> tuple[trickcore.Deal, RefDeal]:
    """A random deal played by the engine and the restatement side by side; every action
    offered is compared."""
    rng = random.Random(seed)
    order = list(ALL)
    rng.shuffle(order)
    dealer = seed % 3
    d = v.new_deal(order, dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    ref = RefDeal(order, dealer)
    for s in range(3):
        assert sorted(d.hand_texts(s)) == sorted(ref.hands[s])
    while not d.is_over:
        assert d.to_act == ref.to_act, (seed, d.to_act, ref.to_act)
        legal_now = legal_texts(d)
        assert set(legal_now) == ref.legal(), (seed, ref.step, legal_now)
        action = random_policy(rng, legal_now, announce)
        d.apply(action)
        ref.apply(action)
    assert ref.over, (seed, "the engine ended the deal early", ref.step, ref.played)
    return d, ref


class Worked:
    """A worked deal: hands by position (F, M, R) in order of preference, the skat, the
    auction and the declarer's choices, and his order of play after taking the skat."""

    def __init__(self, hands: dict[str, str], skat: str, actions: str, play: str = "") -> None:
        self.hands, self.skat = hands, skat
        self.actions = [a.strip() for a in actions.split(",")]
        self.play = play

    def order(self, v: trickcore.Variant, dealer: int = 0, seats: int = 3) -> list[str]:
        return stacked(v, self.hands, self.skat, dealer, seats)

    def deal(self, v: trickcore.Variant, dealer: int = 0) -> trickcore.Deal:
        d = v.new_deal(self.order(v, dealer), dealer=dealer)
        assert isinstance(d, trickcore.Deal)
        self.run(d, dealer)
        return d

    def run(self, state: Any, dealer: int = 0, seats: int = 3) -> None:
        """The auction and the choices, then the play by preference."""
        run(state, self.actions)
        pos = positions(dealer, seats)
        prefs = {pos[p]: cards(h) for p, h in self.hands.items()}
        deal = state.current if isinstance(state, trickcore.Match) else state
        if self.play:
            prefs[deal.declarer] = cards(self.play)
        play_prefs(state, prefs)


# K47: M declares ♥ at 30 with J♣ J♠ (not J♥) over his 12 cards and makes 75.
K47 = Worked(
    {
        "F": "9D 7D 10C 9H KS 10D 7S 8S JH 10S",
        "M": "JC AH AC 10H JS 8C KH AS 8H QS",
        "R": "8D AD 7H KC JD 9C QD 9S 7C KD",
    },
    "QC QH",
    "bid 30, pass, pass, keep, discard 8H, discard AS, hearts_game",
    "KH QC QS AC JC 10H JS 8C QH AH",
)
# K48: R declares grand hand at 120 with J♥ J♦ (no black jack) over his 12 cards: 94.
K48 = Worked(
    {
        "F": "9C 10H JC QD QS 9H 7D 8C 9S AD",
        "M": "JS KC 10D 7S 7H 7C 9D 8D KS 8H",
        "R": "AH KH 8S 10C JD 10S KD AS JH AC",
    },
    "QC QH",
    "pass, bid 120, pass, hand, grand, keep, keep, keep",
)
# K49: M holds J♥, no black jack, bids 27; the skat brings J♠; ♦ without 1; he makes 87.
K49 = Worked(
    {
        "F": "8S AS 8D 9S 7D AH 10H 9H 10C 10S",
        "M": "9D 8C 9C KD 10D JH QD QH AC AD",
        "R": "KS 8H KC 7C JD JC 7H QS QC KH",
    },
    "JS 7S",
    "bid 27, pass, pass, keep, discard 8C, discard 9C, diamonds_game",
    "QH 10D 9D AD QD KD AC JS JH 7S",
)
# K50: R declares ♠ at 36 with 1 (J♣, not J♠) after taking the skat and makes 70.
K50 = Worked(
    {
        "F": "10C JH 7C KH AH 10D QD 7H JS KD",
        "M": "KC 7S 9S JD 9H 8C 10H 9D QH 8D",
        "R": "10S AS QS QC 9C JC 7D 8S AC KS",
    },
    "AD 8H",
    "pass, bid 36, pass, keep, discard AD, discard 9C, spades_game",
    "AS 10S AC 7D QS QC JC 8S 8H KS",
)
K35_60_CHOICES = ", keep, discard 7C, discard 9D, hearts_game"
K50_CHOICES = ", keep, discard AD, discard 9C, spades_game"
# K50, all 10 tricks: F (held at 36 by M) plays ♠ with 1 and takes every trick.
K50_SCHWARZ = Worked(
    {
        "F": "JC JH JD AC 10C AS 10S KS QS 9S",
        "M": "JS 7C 8C 9C QC KC 7D 8D 9D 10D",
        "R": "8S 7S AD KD QD AH 10H KH QH 9H",
    },
    "7H 8H",
    "bid 36, hold, pass, pass, keep, discard 7H, discard 8H, spades_game",
)
# K51: M declares ♣ at 48 without 3 (highest trump J♦) after the skat and makes 28.
K51 = Worked(
    {
        "F": "8S 7C 7S 8H 7D 9S JS 8C 10C QS",
        "M": "AD 8D QH KD 9D AC JD 9H KC KH",
        "R": "AS 10D 7H JH 10H KS QD AH JC QC",
    },
    "10S 9C",
    "bid 48, pass, pass, keep, discard 10S, discard 8D, clubs_game",
    "AD 9H QH AC KC 9D 9C KD JD KH",
)
# K52: M declares ♦ hand at 36, schneider announced, with 1, and makes 85.
K52 = Worked(
    {
        "F": "KS 8D QC QH JD AC 7S QD 10H 8H",
        "M": "7C JC 9D 7D 7H JH 8C KC 10D AD",
        "R": "9H 8S KH JS 10S KD 9C AS AH 9S",
    },
    "QS 10C",
    "bid 36, pass, pass, hand, diamonds_game, keep, keep, schneider",
)
# K53: F (M and R pass) plays ouvert and takes every trick, whatever the others play.
OUVERT_HANDS = {
    # grand with 1: J♠ falls under J♣ (his only trump)
    "grand 1": ("JC JH JD AC 10C KC QC AS 10S KS", "JS 9C 8C 7C QS 9S 8S 7S AH 10H", "grand"),
    # ♣ with 2: the four trumps out (J♥ J♦ 8♣ 7♣) fall to J♣ J♠ A♣ 10♣
    "clubs 2": ("JC JS AC 10C KC QC 9C AS 10S KS", "JH 8C QS 9S 8S 7S AH 10H KH QH", "clubs_game"),
    # grand with 4
    "grand 4": ("JC JS JH JD AC 10C KC AS 10S KS", "QC 9C 8C 7C QS 9S 8S 7S AH 10H", "grand"),
}


def hand_game(
    v: trickcore.Variant,
    option: str,
    hands: dict[str, str],
    skat: str = "",
    dealer: int = 0,
) -> trickcore.Deal:
    """F declares `option` as a hand game at 18 (M and R pass), no announcement; the deal
    stands at the first lead."""
    d = new_deal(v, hands, skat, dealer)
    run(d, ["pass", "pass", "bid 18", "hand", option])
    while d.phase != "play":
        d.apply("keep")  # K24: no announcement
    return d


# ---------------------------------------------------------------- seats and cards
def test_K1_three_players_ten_cards_each_and_two_in_the_skat(skat):
    """K1: 3 seats and no other count; all 3 take part in every deal; K6: 10 cards each,
    2 in the skat."""
    for n in (2, 4):
        with pytest.raises(trickcore.TrickcoreError):
            skat.new_match(seed=1, players=n)
    m = skat.new_match(seed=1)
    for _ in range(3):
        obs = m.observation(0)
        assert sorted(obs.players_in_deal) == [0, 1, 2]
        assert obs.hand_sizes == (10, 10, 10) and obs.talon_size == 2
        run(m, ["pass", "pass", "pass"])


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_K2_M_bids_first_to_F_and_the_dealer_is_R(skat, dealer):
    """K2, K14, K15: F = d+1, M = d+2, R = d: M opens, F answers, R bids after them."""
    pos = positions(dealer)
    d = skat.new_deal(seed=dealer, dealer=dealer)
    assert d.observation(0).players_in_deal == (pos["F"], pos["M"], pos["R"])
    assert d.to_act == pos["M"] == (dealer + 2) % 3
    d.apply("bid 18")
    assert d.to_act == pos["F"] == (dealer + 1) % 3
    d.apply("pass")
    assert d.to_act == pos["R"] == dealer


def test_K3_seat_0_deals_first_and_the_deal_passes_left_every_deal(skat):
    """K3: dealers 0, 1, 2, 0, 1, 2 whatever happened: all-pass deals and played games
    alike; nobody deals twice in a row."""
    m = skat.new_match(deck_orders=[K47.order(skat, k % 3) for k in range(6)])
    assert m.deal.dealer == 0
    for k in range(6):
        if k in (1, 4):  # a game is played in deals 2 and 5
            K47.run(m, dealer=m.deal.dealer)
        else:
            run(m, ["pass", "pass", "pass"])
    dealers = [r["dealer"] for r in m.deal_results]
    assert dealers == [0, 1, 2, 0, 1, 2]
    assert m.deal.dealer == 0 and m.deals_played == 6


def test_K4_thirty_two_cards_of_four_suits_and_eight_ranks(skat):
    """K4: the deck is A 10 K Q J 9 8 7 of ♣ ♠ ♥ ♦, nothing else."""
    order = skat.stack_deck({})
    assert sorted(order) == sorted(ALL) and len(order) == 32
    for bad in ("6H", "2C", "BH", "11S", "JX"):
        with pytest.raises(trickcore.TrickcoreError):
            skat.card(bad)


def test_K5_card_points_A11_10_10_K4_Q3_J2_and_120_in_all(skat):
    """K5: card points per rank; the three players' points (the skat counted for the
    declarer) add up to 120 in the K47 deal and in random deals played out."""
    d = K47.deal(skat)
    envs = [d.final_env(s) for s in range(3)]
    assert sum(e["card_points"] for e in envs) == 120
    tricks = d.observation(0).tricks
    for seat in range(3):  # each player's tricks, by K5's table
        taken = [c for _, cs, w in tricks if w == seat for _, c in cs]
        skat_pts = points(["8H", "AS"]) if seat == d.declarer else 0
        assert envs[seat]["card_points"] == points(taken) + skat_pts
    for seed in range(40):
        d, ref = random_ref_deal(skat, 1000 + seed)
        if ref.declarer >= 0 and ref.played == 10:  # (K32: a null game may end early)
            assert sum(d.final_env(s)["card_points"] for s in range(3)) == 120
    assert points(ALL) == 120 and all(points([r + s for r in RANKS]) == 30 for s in SUITS)


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_K6_three_skat_four_three_by_deck_position(skat, dealer):
    """K6: F gets positions 1–3, 12–15, 24–26; M 4–6, 16–19, 27–29; R 7–9, 20–23, 30–32;
    positions 10–11 are the skat (seen when F takes it)."""
    order = list(ALL)
    random.Random(dealer).shuffle(order)
    d = skat.new_deal(order, dealer=dealer)
    pos = positions(dealer)

    def at(*spans: tuple[int, int]) -> list[str]:
        return sorted(c for a, b in spans for c in order[a - 1 : b])

    assert sorted(d.hand_texts(pos["F"])) == at((1, 3), (12, 15), (24, 26))
    assert sorted(d.hand_texts(pos["M"])) == at((4, 6), (16, 19), (27, 29))
    assert sorted(d.hand_texts(pos["R"])) == at((7, 9), (20, 23), (30, 32))
    run(d, ["pass", "pass", "bid 18", "keep"])
    assert sorted(d.observation(pos["F"]).talon_taken) == at((10, 11))


def test_K7_K20_never_a_redeal_an_all_pass_deal_counts(skat):
    """K7, K20: no redeal is ever offered; a deal that all pass counts as a played deal
    of the match, scores nothing, and the next seat deals."""
    m = skat.new_match(seed=2)
    for _ in range(4):
        assert "redeal" not in legal_texts(m)
        run(m, ["pass", "pass", "pass"])
    assert m.deals_played == 4 and m.redeals == 0
    assert m.scores == [0, 0, 0]
    assert [r["gains"] for r in m.deal_results] == [[0, 0, 0]] * 4
    for seed in range(30):  # no action of a random deal is a redeal
        d = skat.new_deal(seed=seed)
        rng = random.Random(seed)
        while not d.is_over:
            assert "redeal" not in legal_texts(d)
            d.apply(rng.choice(d.legal_actions()))
        assert not d.redealt


# ---------------------------------------------------------------- games and card order
def announcements(v: trickcore.Variant, take_skat: bool) -> set[tuple[str, ...]]:
    """Every way F (declarer at 18) can announce, as the choices made until the first
    lead; each path is played from a fresh deal."""
    prefix = ["pass", "pass", "bid 18"]
    prefix += ["keep", "discard 7D", "discard 8D"] if take_skat else ["hand"]
    found: set[tuple[str, ...]] = set()
    todo: list[list[str]] = [[]]
    while todo:
        path = todo.pop()
        d = new_deal(v, {"F": "JC JS AC 10C 7D"}, "8D 9D")
        run(d, prefix + path)
        if d.phase == "play":
            found.add(tuple(a for a in path if a != "keep"))
            continue
        assert d.to_act == 1  # K23, K24: the declarer alone announces
        todo += [[*path, a] for a in legal_texts(d)]
    return found


def test_K8_K23_seven_games_after_taking_the_skat(skat):
    """K8, K23: after the skat the declarer announces one of ♦ ♥ ♠ ♣ grand null
    null-ouvert, and nothing more (no schneider, schwarz or ouvert)."""
    assert announcements(skat, take_skat=True) == {(o,) for o in OPTIONS}


def test_K8_K24_K25_twenty_two_hand_games(skat):
    """K8, K24, K25: playing hand, he announces one of 22 games: each suit game and grand
    plain, with schneider, with schwarz (which includes schneider), or ouvert (which
    includes both), and null hand, null ouvert hand."""
    found = announcements(skat, take_skat=False)
    levels = [(), ("schneider",), ("schwarz",), ("ouvert",)]
    suits = ["diamonds_game", "hearts_game", "spades_game", "clubs_game", "grand"]
    assert found == {(o, *lv) for o in suits for lv in levels} | {("null",), ("null_ouvert",)}
    assert len(found) == 22


@pytest.mark.parametrize(
    "option, base",
    [("diamonds_game", 9), ("hearts_game", 10), ("spades_game", 11), ("clubs_game", 12)],
)
def test_K9_K37_K40_suit_base_values_with_11_hand_ouvert(skat, option, base):
    """K9, K40: the base values ♦ 9, ♥ 10, ♠ 11, ♣ 12: with all 11 trumps (the 7 in the
    skat of a hand game counts, K37), hand, ouvert and every level the multiplier is 18:
    the highest suit values, up to 216 for ♣."""
    x = GAME_OF[option]
    hand = " ".join(["JC", "JS", "JH", "JD"] + [r + x for r in ["A", "10", "K", "Q", "9", "8"]])
    other = "C" if x != "C" else "S"
    d = new_deal(skat, {"F": hand}, f"7{x} 7{other}")
    run(d, ["pass", "pass", "bid 18", "hand", option, "ouvert"])
    finish(d)
    assert d.final_env(1)["tricks_won"] == 10
    assert d.gains == [0, base * 18, 0]


def test_K9_K41_null_values_23_35_46_59(skat):
    """K9, K41: null 23, null hand 35, null ouvert 46, null ouvert hand 59, whatever the
    matadors; M holds the lowest cards and never takes a trick (K36: won)."""
    low = {"M": "7C 8C 9C 7S 8S 9S 7H 8H 9H 7D"}
    cases = {
        ("null", False): 23,
        ("null", True): 35,
        ("null_ouvert", False): 46,
        ("null_ouvert", True): 59,
    }
    for (option, hand), value in cases.items():
        d = new_deal(skat, low, "8D 9D")
        run(d, ["bid 18", "pass", "pass"])
        run(d, ["hand"] if hand else ["keep", "discard 8D", "discard 9D"])
        d.apply(option)
        finish(d)
        assert d.gains == [0, 0, value], (option, hand)


TRUMPS = {  # K10, K11: high to low
    "hearts_game": ["JC", "JS", "JH", "JD", "AH", "10H", "KH", "QH", "9H", "8H", "7H"],
    "grand": ["JC", "JS", "JH", "JD"],
}
NON_TRUMPS_H = "AC 10C KC QC 9C 8C 7C AS 10S KS"  # no trump in a ♥ game or in grand


def first_trick(
    v: trickcore.Variant, option: str, lead: str, second: str, third_hand: str = NON_TRUMPS_H
) -> trickcore.Deal:
    """F (declarer, hand game) leads `lead`, M plays `second`, R (holding `third_hand`)
    plays his first legal card; the first trick is over."""
    d = hand_game(v, option, {"F": lead, "M": second, "R": third_hand}, "")
    d.apply(f"play {lead}")
    d.apply(f"play {second}")
    d.apply(legal_texts(d)[0])
    return d


TRUMP_PAIRS = [(g, hi, lo) for g, seq in TRUMPS.items() for hi, lo in zip(seq, seq[1:])]


@pytest.mark.parametrize("option, high, low", TRUMP_PAIRS)
def test_K10_K11_K30_trump_order(skat, option, high, low):
    """K10 (♥ game: J♣ J♠ J♥ J♦ A 10 K Q 9 8 7 of ♥), K11 (grand: the four jacks), K30:
    of two trumps in a trick the higher wins, whichever is led."""
    d = first_trick(skat, option, low, high)
    assert d.observation(0).tricks[0][2] == 2  # M's higher trump
    d = first_trick(skat, option, high, low)
    assert d.observation(0).tricks[0][2] == 1  # F's higher trump


SUIT_PAIRS = [
    (g, s + "S", t + "S")
    for g in ("hearts_game", "grand")
    for s, t in zip(SUIT_ORDER, SUIT_ORDER[1:])
]
SUIT_PAIRS += [("null", s + "S", t + "S") for s, t in zip(NULL_ORDER, NULL_ORDER[1:])]


@pytest.mark.parametrize("option, high, low", SUIT_PAIRS)
def test_K10_K11_K12_order_within_a_plain_suit(skat, option, high, low):
    """K10, K11: a plain suit ranks A 10 K Q 9 8 7 (its jack is not in it); K12: in null
    A K Q J 10 9 8 7; K30: the higher card of the led suit wins."""
    third = "AC 10C KC QC 9C 8C 7C AD 10D KD"
    d = first_trick(skat, option, low, high, third)
    assert d.observation(0).tricks[0][2] == 2
    d = first_trick(skat, option, high, low, third)
    assert d.observation(0).tricks[0][2] == 1


def plays(d: trickcore.Deal) -> set[str]:
    return {a.split()[1] for a in legal_texts(d)}


def test_K10_K29_a_jack_is_a_trump_not_a_card_of_its_suit(skat):
    """K10, K29: in a ♥ game, to a ♠ lead M must play his 7♠, not his J♠ (a trump); to a
    trump lead (J♦) he must play the J♠ or a heart; holding J♠ as his only "spade" he may
    play any card to a ♠ lead."""
    d = hand_game(
        skat, "hearts_game", {"F": "AS JD", "M": "JS 7S 7H AC", "R": "10C KC QC 9C 8C 7C 10D"}
    )
    d.apply("play AS")
    assert plays(d) == {"7S"} | {c for c in d.hand_texts(2) if suit(c) == "S" and c != "JS"}
    d = hand_game(skat, "hearts_game", {"F": "JD AS", "M": "JS 7H AC 10C KC QC 9C 8C 7C AD"})
    d.apply("play JD")
    assert plays(d) == {"JS", "7H"}
    d = hand_game(skat, "hearts_game", {"F": "AS JD", "M": "JS 7H AC 10C KC QC 9C 8C 7C AD"})
    d.apply("play AS")
    assert plays(d) == set(d.hand_texts(2))


def test_K11_K29_in_grand_a_jack_answers_only_a_jack_lead(skat):
    """K11, K29: in grand, to A♥ M must play his 7♥, not his J♥; to a jack lead he must
    play his J♥ (the only trump); a jack discarded on a suit lead wins it (K30)."""
    m_hand = "JH 7H AC 10C KC QC 9C 8C 7C AD"
    d = hand_game(skat, "grand", {"F": "AH JS", "M": m_hand})
    d.apply("play AH")
    assert plays(d) == {"7H"}
    d = hand_game(skat, "grand", {"F": "JS AH", "M": m_hand})
    d.apply("play JS")
    assert plays(d) == {"JH"}
    d = hand_game(skat, "grand", {"F": "AS JS", "M": "JH AC 10C KC QC 9C 8C 7C AD 10D"})
    run(d, ["play AS", "play JH"])
    d.apply(legal_texts(d)[0])
    assert d.observation(0).tricks[0][2] == 2


def test_K12_K29_in_null_the_jack_belongs_to_its_suit_and_nothing_is_trump(skat):
    """K12, K29: in null, to 7♥ M must play his J♥ (a heart there); a jack played by a
    void player does not win a heart trick; no trump is in force."""
    d = hand_game(skat, "null", {"F": "7H JD", "M": "JH AC 10C KC QC 9C 8C 7C AD 10D"})
    d.apply("play 7H")
    assert plays(d) == {"JH"}
    d = hand_game(skat, "null", {"F": "7H", "M": "8H", "R": "JC JS JD AC 10C KC QC 9C 8C 7C"})
    run(d, ["play 7H", "play 8H", "play JC"])
    assert d.observation(0).tricks[0][2] == 2
    assert d.observation(0).trump is None


def test_K29_follow_if_able_else_any_card_no_duty_to_trump_or_beat(skat):
    """K29: M, holding clubs, may play any club to A♣ (no duty to beat); void in clubs he
    may play any card, trump or not (no duty to trump)."""
    d = hand_game(skat, "hearts_game", {"F": "7C", "M": "AC 8C JC AH AS AD 10S 10D KS KD"})
    d.apply("play 7C")
    assert plays(d) == {"AC", "8C"}
    d = hand_game(skat, "hearts_game", {"F": "AC", "M": "JC AH AS AD 10S 10D KS KD QS QD"})
    d.apply("play AC")
    assert plays(d) == set(d.hand_texts(2))
    d.apply("play AS")  # a discard, not a trump: F's A♣ still wins
    d.apply(legal_texts(d)[0])
    assert d.observation(0).tricks[0][2] == 1


def test_K10_K29_K30_legal_cards_and_winners_in_random_deals(skat):
    """K6, K10–K12, K13–K18, K21–K26, K28–K30, K32, K34–K43: 150 random deals (no
    ouvert or schwarz announced) played by the engine and by the restated rules side by
    side: the same player to act, the same actions offered at every step, the same card
    points and the same scores."""
    kinds: set[str] = set()
    for seed in range(150):
        d, ref = random_ref_deal(skat, seed)
        assert list(d.gains or []) == ref.gains(), seed
        if ref.declarer >= 0:
            assert d.final_env(ref.declarer)["card_points"] == ref.card_points(), seed
            kinds.add(ref.option + (" hand" if ref.hand else ""))
            assert [w for _, _, w in d.observation(0).tricks] == ref.winners, seed
    assert len(kinds) >= 12  # every game, with and without the skat, came up


# ---------------------------------------------------------------- bidding
def bid_values(d: trickcore.Deal) -> list[int]:
    return [int(a.split()[1]) for a in legal_texts(d) if a.startswith("bid ")]


def test_K13_the_63_game_values_are_the_bids(skat):
    """K13: M's first call offers exactly the 63 game values (from 18) and pass."""
    assert len(BIDS) == 63 and BIDS[0] == 18 and BIDS[-1] == 264
    d = skat.new_deal(seed=1)
    assert bid_values(d) == BIDS
    assert set(legal_texts(d)) == {f"bid {v}" for v in BIDS} | {"pass"}


def test_K13_jumps_allowed_each_bid_above_every_value_named(skat):
    """K13: M may jump to 40; after F holds, M's next bids start above 40; after M
    passes, R's bids too start above 40 (the highest value named in the deal)."""
    d = skat.new_deal(seed=1)
    d.apply("bid 40")
    d.apply("hold")
    assert bid_values(d) == [v for v in BIDS if v > 40]
    d.apply("pass")
    assert d.to_act == 0 and bid_values(d) == [v for v in BIDS if v > 40]
    d.apply("bid 264")  # the highest: F may only hold or pass, then R only pass
    d.apply("hold")
    assert legal_texts(d) == ["pass"]


def test_K14_F_answers_hold_or_pass_and_a_pass_ends_stage_1(skat):
    """K14: after each bid of M, F holds or passes; M bids again after a hold; when F
    passes, M is the survivor and R bids to him."""
    d = skat.new_deal(seed=1)  # dealer 0: F 1, M 2, R 0
    d.apply("bid 18")
    assert d.to_act == 1 and set(legal_texts(d)) == {"hold", "pass"}
    d.apply("hold")
    assert d.to_act == 2 and "pass" in legal_texts(d)
    d.apply("bid 20")
    d.apply("pass")  # F passes: M survives
    assert d.to_act == 0 and set(bid_values(d)) == {v for v in BIDS if v > 20}
    d.apply("bid 22")
    assert d.to_act == 2 and set(legal_texts(d)) == {"hold", "pass"}  # M answers R


def test_K14_M_passing_first_leaves_F_survivor_without_a_value(skat):
    """K14, K15: M passes at once: F survives without having held; R bids to F from 18."""
    d = skat.new_deal(seed=1)
    d.apply("pass")
    assert d.to_act == 0 and bid_values(d) == BIDS
    d.apply("bid 18")
    assert d.to_act == 1 and set(legal_texts(d)) == {"hold", "pass"}


def test_K15_K16_R_bids_to_the_survivor_the_candidate_declares_the_highest(skat):
    """K15, K16: M 18, F hold, M 20, F hold, M pass (F survives at 20); R 22, F hold,
    R 23, F pass: R declares at 23, the highest value named."""
    d = skat.new_deal(seed=1)
    run(d, ["bid 18", "hold", "bid 20", "hold", "pass"])
    assert d.to_act == 0 and bid_values(d)[0] == 22
    run(d, ["bid 22", "hold", "bid 23", "pass"])
    assert d.declarer == 0 and d.contract == 23
    assert d.to_act == 0 and set(legal_texts(d)) == {"hand", "keep"}  # K21


def test_K16_a_holder_declares_at_the_value_he_held(skat):
    """K16: M 18, F hold, M pass; R 20, F hold, R pass: F declares at 20 (held, not
    named by him)."""
    d = skat.new_deal(seed=1)
    run(d, ["bid 18", "hold", "pass", "bid 20", "hold", "pass"])
    assert d.declarer == 1 and d.contract == 20
    assert d.observation(2).contract == 20 and d.observation(2).declarer == 1


def test_K17_nothing_named_F_plays_at_18_or_all_pass(skat):
    """K17: M and R pass at their first turns: F alone chooses 18 or pass; with 18 he
    is the declarer at 18."""
    d = skat.new_deal(seed=1)
    run(d, ["pass", "pass"])
    assert d.to_act == 1 and set(legal_texts(d)) == {"bid 18", "pass"}
    d.apply("bid 18")
    assert d.declarer == 1 and d.contract == 18


def test_K18_a_player_who_passed_is_never_asked_again(skat):
    """K18: in 100 random auctions, no seat acts in the auction after its pass; the
    auction ends with one declarer or none (K20)."""
    for seed in range(100):
        d = skat.new_deal(seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        passed: set[int] = set()
        while d.phase == "bid" and not d.is_over:
            assert d.to_act not in passed
            a = random_policy(rng, legal_texts(d), False)
            if a == "pass":
                passed.add(d.to_act)
            d.apply(a)
        assert len(passed) == 3 if d.is_over else len(passed) == 2
        if not d.is_over:
            assert d.declarer not in passed


@pytest.mark.parametrize(
    "calls, declarer, bid",
    [
        ("bid 18, hold, bid 20, pass, bid 22, hold, pass", "M", 22),
        ("pass, bid 18, hold, bid 20, hold, bid 22, pass", "R", 22),
        ("bid 18, pass, pass", "M", 18),
    ],
)
def test_K19_worked_auctions(skat, calls, declarer, bid):
    """K19: the three examples: M declares at 22; R declares at 22; M declares at 18."""
    for dealer in range(3):
        d = skat.new_deal(seed=dealer, dealer=dealer)
        run(d, [c.strip() for c in calls.split(",")])
        assert d.declarer == positions(dealer)[declarer] and d.contract == bid


def test_K13_K18_auctions_in_random_deals(skat):
    """K13–K18: 200 random auctions played by the engine and the restated auction side
    by side: the same seat to act, the same calls offered, the same declarer and bid."""
    for seed in range(200):
        dealer = seed % 3
        d = skat.new_deal(seed=seed, dealer=dealer)
        ref = RefAuction(dealer)
        rng = random.Random(seed)
        while not ref.over:
            assert d.to_act == ref.to_act and set(legal_texts(d)) == ref.legal(), seed
            a = random_policy(rng, legal_texts(d), False)
            d.apply(a)
            ref.apply(a)
        assert d.declarer == ref.declarer
        if ref.declarer >= 0:
            assert d.contract == ref.high and not d.is_over
        else:
            assert d.is_over


def test_K20_K54_all_pass_scores_nothing_and_the_next_seat_deals(skat):
    """K20, K54: M pass, R pass, F pass: the deal is over, nothing is scored, it counts as
    a deal of the match and seat 1 deals the next (M = seat 0 opens it)."""
    m = skat.new_match(seed=4, scores=[5, -10, 7])
    run(m, ["pass", "pass", "pass"])
    assert m.deals_played == 1 and m.redeals == 0
    assert m.scores == [5, -10, 7]
    assert m.deal_results[0]["gains"] == [0, 0, 0] and m.deal_results[0]["declarer"] == -1
    assert m.deal.dealer == 1 and m.to_act == 0


# ---------------------------------------------------------------- the skat, announcing
def test_K21_the_declarer_first_chooses_hand_or_the_skat(skat):
    """K21: right after the auction the declarer alone is asked: play hand or take the
    skat ("keep" = not hand)."""
    d = skat.new_deal(seed=3)
    run(d, ["bid 18", "pass", "pass"])
    assert d.to_act == 2 and set(legal_texts(d)) == {"hand", "keep"}
    assert d.observation(2).hand_sizes == (10, 10, 10)


def test_K22_taking_the_skat_and_laying_away_any_two(skat):
    """K22: the declarer takes both skat cards (12 in hand), then lays away 2 of them one
    at a time: any card, jacks, trumps and the cards just taken included; then he holds
    10 and announces (K23)."""
    d = new_deal(skat, {"M": "JC JS AH 10H KH QH 9H 8H 7H AC"}, "JH 7D")
    run(d, ["bid 18", "pass", "pass", "keep"])
    assert sorted(d.hand_texts(2)) == sorted(cards("JC JS AH 10H KH QH 9H 8H 7H AC JH 7D"))
    assert plays_discard(d) == set(d.hand_texts(2))
    d.apply("discard JH")  # a card just taken, a jack
    assert plays_discard(d) == set(d.hand_texts(2)) and len(d.hand_texts(2)) == 11
    d.apply("discard JC")
    assert len(d.hand_texts(2)) == 10 and "JC" not in d.hand_texts(2)
    assert set(legal_texts(d)) == set(OPTIONS)  # K23, K26 (bid 18)
    assert sorted(d.observation(2).laid_away) == ["JC", "JH"]


def plays_discard(d: trickcore.Deal) -> set[str]:
    return {a.split()[1] for a in legal_texts(d) if a.startswith("discard ")}


def test_K22_K34_the_laid_away_cards_count_for_the_declarer(skat):
    """K22, K34: in K47 the declarer lays away 8♥ and A♠: his 75 card points are his
    tricks (64) and these 11."""
    d = K47.deal(skat)
    tricks = d.observation(2).tricks
    taken = [c for _, cs, w in tricks if w == 2 for _, c in cs]
    assert points(taken) == 64
    assert d.final_env(2)["card_points"] == 75 and d.final_env(2)["tricks_won"] == 7


def test_K22_no_hand_game_after_taking_the_skat(skat):
    """K22, K38: after the skat there is no hand multiplier: K47 is worth 30 = (2 + 1) x
    10, not 40; and no schneider, schwarz or ouvert is offered (K24, K25)."""
    d = K47.deal(skat)
    assert d.final_env(2)["multiplier"] == 3 and d.gains == [0, 0, 30]


@pytest.mark.parametrize(
    "bid, hand, nulls",
    [
        (23, False, {"null", "null_ouvert"}),
        (24, False, {"null_ouvert"}),
        (46, False, {"null_ouvert"}),
        (48, False, set()),
        (35, True, {"null", "null_ouvert"}),
        (36, True, {"null_ouvert"}),
        (59, True, {"null_ouvert"}),
        (60, True, set()),
    ],
)
def test_K26_null_only_when_its_value_reaches_the_bid(skat, bid, hand, nulls):
    """K26: a null contract is offered only if its fixed value (K9: 23, 46 after the
    skat; 35, 59 hand) is at least the bid; suit games and grand always."""
    d = skat.new_deal(seed=1)
    run(d, [f"bid {bid}", "pass", "pass"])
    run(d, ["hand"] if hand else ["keep", "discard " + d.hand_texts(2)[0]])
    if not hand:
        d.apply("discard " + d.hand_texts(2)[0])
    offered = set(legal_texts(d))
    assert offered == {o for o in OPTIONS if GAME_OF[o] != "N"} | nulls


def test_K24_K33_K46_a_hand_game_leaves_the_skat_unseen_until_the_end(skat):
    """K24, K46, K33: in K48 (grand hand) nobody sees the skat, the declarer included,
    until the deal is over; then it is shown to all; its points count for him (K34)."""
    d = new_deal(skat, K48.hands, K48.skat)
    run(d, K48.actions)
    for seat in range(3):
        obs = d.observation(seat)
        assert obs.talon_shown is None and obs.talon_taken == () and obs.laid_away == ()
        assert "QC" not in obs.hand and "QH" not in obs.hand
    play_prefs(d, {positions(0)[p]: cards(h) for p, h in K48.hands.items()})
    for seat in range(3):
        assert sorted(d.observation(seat).talon_shown or ()) == ["QC", "QH"]
    taken = [c for _, cs, w in d.observation(0).tricks if w == 0 for _, c in cs]
    assert d.final_env(0)["card_points"] == points(taken) + 6 == 94


def test_K25_levels_include_each_other(skat):
    """K25: ouvert says schwarz and schneider too (neither is asked after it); schwarz
    says schneider (not asked after it); each shows in the game value (K38): grand hand
    with 4 and all 10 tricks is 11, 10 or 9 x 24."""
    f = {"F": "JC JS JH JD AC 10C KC AS 10S KS"}
    asked = ["ouvert", "schwarz", "schneider"]
    mults = {"ouvert": 11, "schwarz": 10, "schneider": 9}  # he takes all tricks: schwarz
    for level in asked:
        d = new_deal(skat, f, "7D 8D")
        run(d, ["pass", "pass", "bid 18", "hand", "grand"])
        for question in asked[: asked.index(level)]:
            assert set(legal_texts(d)) == {question, "keep"}
            d.apply("keep")
        assert set(legal_texts(d)) == {level, "keep"}
        d.apply(level)
        assert d.phase == "play"  # nothing more is asked
        finish(d)
        assert d.final_env(1)["multiplier"] == mults[level], level
        assert d.gains == [0, 24 * mults[level], 0]


def test_K25_suit_and_grand_ouvert_only_as_hand_games_null_ouvert_both(skat):
    """K25: after taking the skat no ouvert is offered for a suit game or grand; null
    ouvert is offered with and without the skat (K8)."""
    found = announcements(skat, take_skat=True)
    assert ("grand", "ouvert") not in found and ("null_ouvert",) in found
    assert ("null_ouvert",) in announcements(skat, take_skat=False)


def test_K27_an_ouvert_hand_is_shown_before_the_first_lead_and_stays_shown(skat):
    """K27, K46: after F announces grand ouvert his 10 cards are visible to M and R
    before the first card is led; after 4 tricks his 6 remaining cards are; no other
    hand is ever shown; a hand game without ouvert shows nothing."""
    hand, m_hand, _ = OUVERT_HANDS["grand 4"]
    d = new_deal(skat, {"F": hand, "M": m_hand}, "7D 8D")
    run(d, ["pass", "pass", "bid 18", "hand", "grand", "ouvert"])
    for seat in (0, 2):
        assert dict(d.observation(seat).open_hands) == {1: tuple(d.hand_texts(1))}
    for _ in range(12):
        d.apply(legal_texts(d)[0])
    for seat in (0, 2):  # (open_hands lists the hands of the others)
        shown = dict(d.observation(seat).open_hands)
        assert set(shown) == {1} and sorted(shown[1]) == sorted(d.hand_texts(1))
        assert len(shown[1]) == 6
    d = new_deal(skat, {"F": hand, "M": m_hand}, "7D 8D")
    run(d, ["pass", "pass", "bid 18", "hand", "grand", "keep", "keep", "keep"])
    assert all(d.observation(s).open_hands == () for s in range(3))


def test_K27_null_ouvert_is_shown_too_also_after_the_skat(skat):
    """K27: null ouvert (after taking the skat) shows the declarer's hand to all before
    the first lead."""
    d = new_deal(skat, {"M": "7C 8C 9C 7S 8S 9S 7H 8H 9H 7D"}, "8D 9D")
    run(d, ["bid 18", "pass", "pass", "keep", "discard 8D", "discard 9D", "null_ouvert"])
    assert d.observation(1).trick == () and d.observation(1).tricks == ()
    assert sorted(dict(d.observation(1).open_hands)[2]) == sorted(d.hand_texts(2))


# R declares ♥ at 20 with 1 after the skat: 60 card points (K35: lost) and 61 (won).
K35_60 = Worked(
    {
        "F": "JS 8C 9S AS 7D QC JH QH AD 10C",
        "M": "JD 8S QD 10S 8H KD KC 9H AC QS",
        "R": "JC AH 10D 7S 7C 9C 10H 7H 8D 9D",
    },
    "KH KS",
    "pass, bid 20, pass, keep, discard 7C, discard 9D, hearts_game",
    "10D KS 8D KH JC 10H AH 7H 9C 7S",
)
K35_61 = Worked(
    {
        "F": "10C 7S 9C 9S AS JD 7H JS 7C AC",
        "M": "8H QS JH KS 9D 8C QD 9H QC 8D",
        "R": "QH 10H JC KD KC AH KH AD 8S 10S",
    },
    "10D 7D",
    "pass, bid 20, pass, keep, discard 10D, discard AD, hearts_game",
    "AH 10H KD JC KH QH 10S 7D 8S KC",
)
# R declares ♠ at 18 without 3, lays away A♦ A♠ and takes no trick: 22 card points.
NO_TRICK = Worked(
    {
        "F": "QS 10S 8C KD KC 7C JH QC 8D 7S",
        "M": "10H 9S JS JC AH 10C 9H 7H 10D AC",
        "R": "KS QD AD KH QH JD 9C AS 8S 7D",
    },
    "9D 8H",
    "pass, bid 18, pass, keep, discard AD, discard AS, spades_game",
    "KH QH 8S JD 8H QD KS 9D 7D 9C",
)
# M declares ♣ hand at 18, schneider announced, with 1, and makes 30.
SCHNEIDER_SAID_30 = Worked(
    {
        "F": "AH 9H 7D 9S 10D KC 10C 7C 7S QC",
        "M": "JD 10H QD AS 9C 9D JC 8H KH 7H",
        "R": "KS KD 8D 8C QS JH JS AD 10S AC",
    },
    "8S QH",
    "bid 18, pass, pass, hand, clubs_game, keep, keep, schneider",
)


# M plays ♦ hand with schneider announced, with 1, at 18: 90 card points, then 89.
SCHNEIDER_SAID_90 = Worked(
    {
        "F": "JD KC JH QC QS 7C 8S 7S KH 9S",
        "M": "9D AH 10D JC AS 8H KD AD AC 8C",
        "R": "QD 10C 10S QH 9H 8D 10H JS 7D KS",
    },
    "7H 9C",
    "bid 18, pass, pass, hand, diamonds_game, keep, keep, schneider",
)
SCHNEIDER_SAID_89 = Worked(
    {
        "F": "QC 10S 8C 7S 8S JS 7H JH 7C KH",
        "M": "KD 10D AS AD AH 10C AC 9C 7D JC",
        "R": "10H KS 9H 8H QS 8D KC 9D 9S JD",
    },
    "QD QH",
    "bid 18, pass, pass, hand, diamonds_game, keep, keep, schneider",
)
# F plays grand hand with 1 (J♣; J♥ J♦ in the skat) at 99 (held against M) and makes 69.
GRAND_OVERBID = Worked(
    {
        "F": "9D AC QH 10C 10S 8C 10H JC AS QC",
        "M": "AH 9S 7C KH 10D AD 7H 7S 8S 9C",
        "R": "8D 9H KD JS KS 7D KC QS 8H QD",
    },
    "JH JD",
    "bid 99, hold, pass, pass, hand, grand, keep, keep, keep",
)


# R declares ♥ at 20 with 1 after the skat and makes 90, 89, 31, 30 (K39's edges).
K39_EDGES = {
    90: Worked(
        {
            "F": "9S KC JS 7S 9D 10D 8C 7H QC 9C",
            "M": "10C JD KD AD 7D KS 7C QH QD 9H",
            "R": "AH KH AS 10H 8D QS 10S 8S JC AC",
        },
        "JH 8H",
        "pass, bid 20, pass, keep, discard AC, discard 8S, hearts_game",
        "JH AS QS AH 8H 10H KH 10S 8D JC",
    ),
    89: Worked(
        {
            "F": "KS QH 9D 10C 10D KC JS 9C 10S 7H",
            "M": "8C 7C 9H 9S 7S KD 8H 7D AD 8S",
            "R": "AH JD 10H JC KH JH AS QC QS AC",
        },
        "8D QD",
        "pass, bid 20, pass, keep, discard AS, discard QC, hearts_game",
        "JD JC JH AC AH KH 10H QD 8D QS",
    ),
    31: Worked(
        {
            "F": "10C KH JD AH JS 10S KD 7C AC 9C",
            "M": "AD QS 7S 10H JH 9H 9D 8H QD 9S",
            "R": "8D QH JC 8S 7D 7H KS AS QC 10D",
        },
        "KC 8C",
        "pass, bid 20, pass, keep, discard 8C, discard 7D, hearts_game",
        "KC QC AS 8S 8D 10D QH 7H JC KS",
    ),
    30: Worked(
        {
            "F": "KH 10H JD AS 9S 8H AC 10S AH 7S",
            "M": "9C 9D JS 10D QH 10C 7C KD 9H QD",
            "R": "QC 8S JC 7H JH AD KS QS 8D 8C",
        },
        "KC 7D",
        "pass, bid 20, pass, keep, discard 8D, discard KS, hearts_game",
        "AD KC 7D JH 8C QS 7H 8S JC QC",
    ),
}


# ---------------------------------------------------------------- play
@pytest.mark.parametrize("declarer", ["F", "M", "R"])
def test_K28_F_leads_the_first_trick_whoever_declares(skat, declarer):
    """K28: whoever is declarer, F leads to trick 1; each trick's winner leads the next;
    10 tricks of 3 cards."""
    calls = {"F": "pass, pass, bid 18", "M": "bid 18, pass, pass", "R": "pass, bid 18, pass"}
    for dealer in range(3):
        d = skat.new_deal(seed=dealer, dealer=dealer)
        run(d, [c.strip() for c in calls[declarer].split(",")] + ["hand", "grand"])
        while d.phase != "play":
            d.apply("keep")
        assert d.declarer == positions(dealer)[declarer]
        assert d.to_act == positions(dealer)["F"]
        finish(d)
        tricks = d.observation(0).tricks
        assert len(tricks) == 10 and all(len(cs) == 3 for _, cs, _ in tricks)
        assert tricks[0][0] == positions(dealer)["F"]
        assert [t[0] for t in tricks[1:]] == [t[2] for t in tricks[:-1]]


def test_K31_the_defenders_pool_their_tricks(skat):
    """K31, K35: in K35_61 the declarer wins with 61 although each defender's own tricks
    are worth less than 59; the defenders score nothing either way (K43)."""
    d = K35_61.deal(skat)
    assert d.final_env(0)["card_points"] == 61 and d.gains == [20, 0, 0]
    assert d.final_env(1)["card_points"] + d.final_env(2)["card_points"] == 59
    d = K35_60.deal(skat)
    assert d.final_env(0)["card_points"] == 60 and d.gains == [-40, 0, 0]
    assert d.final_env(1)["card_points"] + d.final_env(2)["card_points"] == 60


def test_K31_K39_the_skat_is_never_a_trick(skat):
    """K31, K39: a declarer who takes no trick has the skat's 22 card points but no
    trick: schwarz (and schneider) count against him: ♠ without 3 is (3 + 1 + 1 + 1) x
    11 = 66, lost: -132."""
    d = NO_TRICK.deal(skat)
    env = d.final_env(0)
    assert env["tricks_won"] == 0 and env["card_points"] == 22
    assert env["top_trumps"] == 3 and d.gains == [-132, 0, 0]


def test_K32_a_null_game_ends_when_the_declarer_takes_a_trick(skat):
    """K32, K36: M plays null hand; F leads 7♣ and M's A♣ wins trick 1: the deal is over
    at once, lost: -2 x 35."""
    d = new_deal(skat, {"F": "7C 8C", "M": "AC 7S 8S 9S 7H 8H 9H 7D 8D 9D", "R": "9C"})
    run(d, ["bid 18", "pass", "pass", "hand", "null"])
    run(d, ["play 7C", "play AC", "play 9C"])
    assert d.is_over and len(d.observation(0).tricks) == 1
    assert d.gains == [0, 0, -70]


def test_K32_schwarz_announced_ends_when_a_defender_takes_a_trick(skat):
    """K32, K39: F plays grand hand with schwarz announced; M's A♥ wins trick 1: the deal
    is over at once, lost, every announced level counting: (4 + 1 + 1 + 1 + 1 + 1 + 1) x
    24 = 240, scored -480."""
    d = new_deal(skat, {"F": "7H JC JS JH JD AC 10C KC AS 10S", "M": "AH"}, "7D 8D")
    run(d, ["pass", "pass", "bid 18", "hand", "grand", "keep", "schwarz"])
    d.apply("play 7H")
    d.apply("play AH")
    d.apply(legal_texts(d)[0])
    assert d.observation(0).tricks[0][2] == 2
    assert d.is_over and len(d.observation(0).tricks) == 1
    assert d.gains == [0, -480, 0]


def test_K32_ouvert_ends_when_a_defender_takes_a_trick(skat):
    """K32: the same with grand ouvert (schwarz announced in it): over after trick 1,
    (4 + 7) x 24 = 264, scored -528."""
    d = new_deal(skat, {"F": "7H JC JS JH JD AC 10C KC AS 10S", "M": "AH"}, "7D 8D")
    run(d, ["pass", "pass", "bid 18", "hand", "grand", "ouvert"])
    run(d, ["play 7H", "play AH"])
    d.apply(legal_texts(d)[0])
    assert d.is_over and len(d.observation(0).tricks) == 1
    assert d.gains == [0, -528, 0]


def test_K32_other_games_are_played_to_the_tenth_trick(skat):
    """K32: a game without schwarz announced is played out even when lost early: K35_60
    has all 10 tricks; so has a null game the declarer wins (K9's deals)."""
    d = K35_60.deal(skat)
    assert len(d.observation(0).tricks) == 10
    d = new_deal(skat, {"M": "7C 8C 9C 7S 8S 9S 7H 8H 9H 7D"}, "8D 9D")
    run(d, ["bid 18", "pass", "pass", "hand", "null"])
    finish(d)
    assert len(d.observation(0).tricks) == 10 and d.gains == [0, 0, 35]


def test_K33_K46_the_laid_away_cards_are_shown_at_the_end(skat):
    """K33, K46: the two cards laid away are seen by the declarer only during the deal
    ("discard a card" in the others' logs) and by everybody when it is over."""
    d = new_deal(skat, K47.hands, K47.skat)
    run(d, K47.actions)
    assert sorted(d.observation(2).laid_away) == ["8H", "AS"]
    for seat in (0, 1):
        obs = d.observation(seat)
        assert obs.laid_away == () and obs.talon_taken == ()
        assert "8H" not in str(obs.log) and "AS" not in str(obs.log)
        assert (2, "discard a card") in obs.log
    play_prefs(d, {2: cards(K47.play)})
    for seat in range(3):
        assert sorted(d.observation(seat).laid_away) == ["8H", "AS"]


def test_K24_K25_K32_K38_random_hand_games_with_announcements(skat):
    """K24, K25, K32, K38, K39: 150 random deals in which the declarer also announces
    schwarz or ouvert at random, played by the engine and the restated rules side by
    side (every action offered, the early end, the scores)."""
    said = 0
    for seed in range(150):
        d, ref = random_ref_deal(skat, 5000 + seed, announce=True)
        assert list(d.gains or []) == ref.gains(), seed
        said += ref.level in ("schwarz", "ouvert")
    assert said >= 10


# ---------------------------------------------------------------- result and game value
def test_K34_K35_61_wins_60_loses(skat):
    """K34, K35 (a): with the skat's points, 61 card points win (+20, ♥ with 1 at 20) and
    60 lose (-40)."""
    assert K35_61.deal(skat).gains == [20, 0, 0]
    assert K35_60.deal(skat).gains == [-40, 0, 0]


def test_K35_schneider_announced_needs_90(skat):
    """K35 (b), K52: ♦ hand with schneider announced and 85 card points is lost although
    85 >= 61."""
    d = K52.deal(skat)
    assert d.final_env(2)["card_points"] == 85 and d.gains == [0, 0, -90]


def test_K35_schneider_announced_won_with_90_lost_with_89(skat):
    """K35 (b): ♦ hand, schneider announced, with 1: 90 card points win (1 + 1 + 1 + 1 +
    1) x 9 = +45; 89 lose: -90."""
    d = SCHNEIDER_SAID_90.deal(skat)
    assert d.final_env(2)["card_points"] == 90 and d.gains == [0, 0, 45]
    d = SCHNEIDER_SAID_89.deal(skat)
    assert d.final_env(2)["card_points"] == 89 and d.gains == [0, 0, -90]


def test_K35_schwarz_announced_needs_every_trick(skat):
    """K35 (c): grand hand with schwarz announced loses when a defender takes a trick,
    whatever the card points (here the declarer's 10 cards are worth 88 and the deal is
    lost)."""
    d = new_deal(skat, {"F": "7H JC JS JH JD AC 10C KC AS 10S", "M": "AH"}, "7D 8D")
    run(d, ["pass", "pass", "bid 18", "hand", "grand", "keep", "schwarz"])
    run(d, ["play 7H", "play AH"])
    finish(d)
    assert d.observation(0).tricks[0][2] == 2 and d.gains[1] < 0


def test_K35_K42_a_value_below_the_bid_loses_with_any_card_points(skat):
    """K35 (d), K42, K49: M wins 87 card points but his ♦ without 1 is worth 18 < 27: lost
    and valued at 27."""
    d = K49.deal(skat)
    env = d.final_env(2)
    assert env["card_points"] == 87 and env["top_trumps"] == 1
    assert d.gains == [0, 0, -54]


def test_K36_null_won_without_a_trick_lost_with_one(skat):
    """K36: null (skat taken, bid 18) won when the declarer takes no trick: +23; the null
    hand of K32 lost at his first trick."""
    d = new_deal(skat, {"M": "7C 8C 9C 7S 8S 9S 7H 8H 9H 7D"}, "8D 9D")
    run(d, ["bid 18", "pass", "pass", "keep", "discard 8D", "discard 9D", "null"])
    finish(d)
    assert d.final_env(2)["tricks_won"] == 0 and d.gains == [0, 0, 23]


@pytest.mark.parametrize(
    "twelve, option, n",
    [
        ("JC JS", "hearts_game", 2),  # with 2 (K47)
        ("JC JS JH JD AH 10H", "hearts_game", 6),  # with 6
        ("JC JH", "hearts_game", 1),  # with 1: J♠ missing
        ("JH JD", "grand", 2),  # without 2 (K48)
        ("JD", "clubs_game", 3),  # without 3 (K51)
        ("7H", "hearts_game", 10),  # without 10: only the 7 of trumps
        ("", "hearts_game", 11),  # without 11: no trump at all
        ("", "grand", 4),  # without 4
        ("JC JS JH JD", "grand", 4),  # with 4
    ],
)
def test_K37_matadors_with_and_without(skat, twelve, option, n):
    """K37: "with n" counts the trumps from J♣ down without a gap, "without n" the trumps
    above the highest held, over the 10 dealt cards and the skat; F plays the game hand
    and his score follows from n (K38–K43 restated)."""
    x = GAME_OF[option]
    trumps = set(trump_sequence(x))
    mine = cards(twelve)
    # F: the named trumps; no other trump for him; plain cards to fill his 10
    plain = [c for c in ALL if c not in trumps and c not in mine]
    fill = [c for r in ("A", "10", "K", "Q") for c in plain if rank(c) == r]
    hand = (mine + fill)[:10]
    skat_cards = [c for c in plain if c not in hand][:2]
    d = new_deal(skat, {"F": " ".join(hand)}, " ".join(skat_cards))
    run(d, ["pass", "pass", "bid 18", "hand", option, "keep", "keep", "keep"])
    finish(d)
    env = d.final_env(1)
    assert env["top_trumps"] == n == matadors(hand + skat_cards, x)
    pts, tricks = env["card_points"], env["tricks_won"]
    assert d.gains[1] == result(option, 18, pts, tricks, n, hand=True)[2]


def test_K37_matadors_count_the_skat_in_a_hand_game(skat):
    """K37: F holds J♣ J♦ and plays hand: the J♠ in the skat, which he never sees, still
    makes him "with 2" (not "with 1") in grand hand."""
    d = new_deal(skat, {"F": "JC JD AC 10C KC AS 10S KS AH 10H"}, "JS 7D")
    run(d, ["pass", "pass", "bid 18", "hand", "grand", "keep", "keep", "keep"])
    finish(d)
    assert d.final_env(1)["top_trumps"] == 2


def test_K37_K49_matadors_after_taking_the_skat_count_the_12_cards(skat):
    """K37, K49: M's 10 cards alone are ♦ "without 2" (J♥ highest), but the J♠ in the
    skat makes him "without 1" — even though he keeps it."""
    d = K49.deal(skat)
    assert d.final_env(2)["top_trumps"] == 1 == matadors(cards(K49.hands["M"]) + ["JS", "7S"], "D")
    assert matadors(cards(K49.hands["M"]), "D") == 2


def test_K38_K39_schneider_announced_and_made_below_31_counts_once(skat):
    """K38, K39: ♣ hand, schneider announced, with 1; the declarer ends with 30: lost;
    schneider counts once plus announced: (1 + 1 + 1 + 1 + 1) x 12 = 60, scored -120."""
    d = SCHNEIDER_SAID_30.deal(skat)
    env = d.final_env(2)
    assert env["card_points"] == 30 and env["tricks_won"] > 0
    assert env["multiplier"] == 5 and d.gains == [0, 0, -120]


def test_K39_schneider_by_90_or_by_30_either_party(skat):
    """K39: schneider counts at 90 or more for the declarer (K48: 94) and at 30 or fewer
    (K51: 28), whoever is schneider."""
    assert K48.deal(skat).final_env(0)["multiplier"] == 5  # without 2, game, hand, schneider
    assert K51.deal(skat).final_env(2)["multiplier"] == 5  # without 3, game, schneider


@pytest.mark.parametrize("pts, gain", [(90, 30), (89, 20), (31, -40), (30, -60)])
def test_K39_schneider_edges_90_and_30(skat, pts, gain):
    """K39, K35: ♥ with 1 at 20, nothing announced: 90 card points are schneider ((1 + 1 +
    1) x 10 = +30), 89 are not (+20); 31 lose without schneider (-40), 30 with it (-60)."""
    d = K39_EDGES[pts].deal(skat)
    env = d.final_env(0)
    assert (env["card_points"], env["top_trumps"]) == (pts, 1) and 0 < env["tricks_won"] < 10
    assert d.gains == [gain, 0, 0]


def test_K40_game_value_is_base_times_multiplier(skat):
    """K40: K47 30 = 10 x 3; K48 120 = 24 x 5; K53 grand ouvert with 4 264 = 24 x 11."""
    assert K47.deal(skat).gains == [0, 0, 30]
    assert K48.deal(skat).gains == [120, 0, 0]
    hand, m_hand, option = OUVERT_HANDS["grand 4"]
    d = new_deal(skat, {"F": hand, "M": m_hand}, "7D 8D")
    run(d, ["pass", "pass", "bid 18", "hand", option, "ouvert"])
    finish(d)
    assert d.gains == [0, 264, 0]


def test_K41_null_matadors_play_no_part(skat):
    """K41: M wins null hand holding all four jacks: still 35 (no matadors)."""
    hands = {
        "F": "AC KC QC 10C AS KS QS 10S AH KH",
        "M": "7C 8C JC 7S 8S JS 7H 8H JH JD",
        "R": "QH 10H 9H AD KD QD 10D 9D 8D 7D",
    }
    d = new_deal(skat, hands, "9C 9S")
    run(d, ["bid 18", "pass", "pass", "hand", "null"])
    play_prefs(d, {positions(0)[p]: cards(h) for p, h in hands.items()})
    assert d.final_env(2)["tricks_won"] == 0 and d.gains == [0, 0, 35]


# K42: as K49 (♦ without 1 after the skat at 27), but M makes 105: schneider saves him.
K42_SCHNEIDER = Worked(
    {
        "F": "QH KS 9S QS 7D 9H QC AH 10H 7C",
        "M": "AS JH 7S KD 10D AC 10C 8D AD QD",
        "R": "KH KC 9C 10S 8S JD 7H 8H JC 8C",
    },
    "JS 9D",
    "bid 27, pass, pass, keep, discard AC, discard AS, diamonds_game",
    "JH QD KD AD 9D JS 10C 10D 7S 8D",
)


def test_K42_an_overbid_game_is_valued_at_the_next_multiple_of_its_base(skat):
    """K42, K50: ♠ with 1 at 36 is worth 22: lost and valued 44 (4 x 11, not 36): -88;
    K49: ♦ at 27 is valued 27 (3 x 9): -54."""
    d = K50.deal(skat)
    assert d.final_env(0)["card_points"] == 70 and d.gains == [-88, 0, 0]
    assert K49.deal(skat).gains == [0, 0, -54]


def test_K42_an_overbid_grand_is_valued_at_the_next_multiple_of_24(skat):
    """K42: grand hand with 1 at 99 is worth (1 + 1 + 1) x 24 = 72 < 99: lost with 69
    card points and valued 120 (5 x 24): -240."""
    d = GRAND_OVERBID.deal(skat)
    env = d.final_env(1)
    assert (env["card_points"], env["top_trumps"], d.contract) == (69, 1, 99)
    assert d.gains == [0, -240, 0]


def test_K42_every_level_that_applies_counts_before_comparing_with_the_bid(skat):
    """K42 (with every level that applies, K38–K39): the K49 game with 105 card points
    has schneider: (1 + 1 + 1) x 9 = 27, not below the bid 27: won, +27. (So K49's
    "whatever his card points" holds below 90.)"""
    d = K42_SCHNEIDER.deal(skat)
    env = d.final_env(2)
    assert env["card_points"] == 105 and env["top_trumps"] == 1 and env["tricks_won"] < 10
    assert d.gains == [0, 0, 27]


def test_K43_won_adds_the_value_lost_takes_twice_defenders_nothing(skat):
    """K43: K47 won: +30 to the declarer; K51 lost: -2 x 60; the defenders' scores are 0
    in both; a match adds them to the totals."""
    m = skat.new_match(deck_orders=[K47.order(skat, 0), K51.order(skat, 1)], seed=1)
    K47.run(m, dealer=0)
    assert m.scores == [0, 0, 30]
    # deal 2: dealer 1, M = seat 0 declares K51
    K51.run(m, dealer=1)
    assert m.deal_results[1]["gains"] == [-120, 0, 0]
    assert m.scores == [-120, 0, 30]


# ---------------------------------------------------------------- information
def test_K46_bids_and_announcements_public_hands_and_skat_private(skat):
    """K46: every call and the declarer's choices are in every player's log; each player
    sees only his own hand; the skat is seen by the declarer only once he takes it."""
    d = new_deal(skat, K47.hands, K47.skat)
    run(d, K47.actions[:4])  # the auction and "keep" (take the skat)
    logs = [d.observation(s).log for s in range(3)]
    assert logs[0] == logs[1] == logs[2]
    assert [a for _, a in logs[0]] == ["bid 30", "pass", "pass", "keep"]
    for seat in range(3):
        obs = d.observation(seat)
        assert cards_in(obs) == set(d.hand_texts(seat))  # (the declarer's 12 with the skat)
    assert set(d.observation(2).talon_taken) == {"QC", "QH"}
    run(d, K47.actions[4:])
    assert [a for _, a in d.observation(0).log][-1] == "hearts_game"
    assert d.observation(0).trump == "hearts" and d.observation(0).contract == 30


# ---------------------------------------------------------------- worked examples
def test_K47_hearts_with_2_won_with_75(skat):
    """K47: M holds J♣ J♠ but not J♥ over his 12 cards: with 2; he takes the skat,
    announces ♥ at 30 and wins with 75: (2 + 1) x 10 = 30, scored +30."""
    d = K47.deal(skat)
    env = d.final_env(2)
    assert (env["card_points"], env["top_trumps"]) == (75, 2)
    assert d.gains == [0, 0, 30]


def test_K48_grand_hand_without_2_schneider_120(skat):
    """K48: R plays grand hand at 120 with J♥ J♦ (no black jack): without 2; 94 card
    points: (2 + 1 + 1 hand + 1 schneider) x 24 = 120, scored +120."""
    d = K48.deal(skat)
    env = d.final_env(0)
    assert (env["card_points"], env["top_trumps"]) == (94, 2) and env["tricks_won"] < 10
    assert d.gains == [120, 0, 0]


def test_K49_overbid_by_the_skat(skat):
    """K49: M bids 27 on ♦ without 2, finds J♠ in the skat: without 1, (1 + 1) x 9 = 18
    < 27: lost with 87 card points, valued 27: -54."""
    d = K49.deal(skat)
    env = d.final_env(2)
    assert matadors(cards(K49.hands["M"]), "D") == 2  # what he bid on
    assert (env["card_points"], env["top_trumps"]) == (87, 1)
    assert d.gains == [0, 0, -54]


def test_K50_overbid_to_the_next_multiple_and_saved_by_schwarz(skat):
    """K50: bid 36, ♠ with 1 after the skat, 70 card points: 22 < 36, lost, valued 44:
    -88. Taking all 10 tricks instead: (1 + 1 + 1 + 1) x 11 = 44 >= 36: won, +44."""
    d = K50.deal(skat)
    assert d.final_env(0)["top_trumps"] == 1 and d.gains == [-88, 0, 0]
    d = K50_SCHWARZ.deal(skat)
    env = d.final_env(1)
    assert (env["top_trumps"], env["tricks_won"], d.contract) == (1, 10, 36)
    assert d.gains == [0, 44, 0]


def test_K51_lost_schneider(skat):
    """K51: bid 48, ♣ after the skat without 3 (J♦ highest), 28 card points: lost and
    schneider: (3 + 1 + 1) x 12 = 60, scored -120."""
    d = K51.deal(skat)
    env = d.final_env(2)
    assert (env["card_points"], env["top_trumps"], d.contract) == (28, 3, 48)
    assert d.gains == [0, 0, -120]


def test_K52_announcement_missed(skat):
    """K52: bid 36, ♦ hand with schneider announced, with 1, 85 card points: lost:
    (1 + 1 + 1 + 1 + 1) x 9 = 45, scored -90."""
    d = K52.deal(skat)
    env = d.final_env(2)
    assert (env["card_points"], env["top_trumps"], d.contract) == (85, 1, 36)
    assert d.gains == [0, 0, -90]


@pytest.mark.parametrize("key, value", [("grand 1", 192), ("clubs 2", 108), ("grand 4", 264)])
def test_K53_ouvert_games_won(skat, key, value):
    """K53: grand ouvert with 1 = 8 x 24 = 192; ♣ ouvert with 2 = 9 x 12 = 108; grand
    ouvert with 4 = 11 x 24 = 264 (F takes all 10 tricks)."""
    hand, m_hand, option = OUVERT_HANDS[key]
    d = new_deal(skat, {"F": hand, "M": m_hand}, "7D 8D")
    run(d, ["pass", "pass", "bid 18", "hand", option, "ouvert"])
    play_prefs(d, {1: cards(hand)})  # F plays his cards in the order listed
    assert d.final_env(1)["tricks_won"] == 10
    assert d.gains == [0, value, 0]


def test_K53_null_ouvert_hand_lost_and_null_after_the_skat_won(skat):
    """K53: null ouvert hand lost: -2 x 59 = -118; null won after taking the skat: +23,
    announceable at a bid of 23 but not of 24 (K26)."""
    d = new_deal(skat, {"F": "7C", "M": "AC 7S 8S 9S 7H 8H 9H 7D 8D 9D", "R": "8C"})
    run(d, ["bid 18", "pass", "pass", "hand", "null_ouvert", "play 7C", "play AC", "play 8C"])
    assert d.is_over and d.gains == [0, 0, -118]
    low = {"M": "7C 8C 9C 7S 8S 9S 7H 8H 9H 7D"}
    d = new_deal(skat, low, "8D 9D")
    run(d, ["bid 23", "pass", "pass", "keep", "discard 8D", "discard 9D", "null"])
    finish(d)
    assert d.gains == [0, 0, 23]
    d = new_deal(skat, low, "8D 9D")
    run(d, ["bid 24", "pass", "pass", "keep", "discard 8D", "discard 9D"])
    assert "null" not in legal_texts(d)


def test_K54_all_pass_worked(skat):
    """K54: M pass, R pass, F pass: nothing is scored; the deal counts; the next seat
    deals."""
    m = skat.new_match(seed=9)
    assert m.to_act == 2  # M opens
    m.apply("pass")
    assert m.to_act == 0  # R
    m.apply("pass")
    assert m.to_act == 1 and set(legal_texts(m)) == {"bid 18", "pass"}  # F (K17)
    m.apply("pass")
    assert m.scores == [0, 0, 0] and m.deals_played == 1 and m.deal.dealer == 1


# ---------------------------------------------------------------- match
def all_pass_deals(m: trickcore.Match, n: int) -> None:
    for _ in range(n):
        assert not m.is_over
        run(m, ["pass", "pass", "pass"])


@pytest.mark.parametrize(
    "scores, winners", [([0, 30, 0], [1]), ([0, 30, 30], [1, 2]), ([-5, -5, -5], [0, 1, 2])]
)
def test_K45_36_deals_highest_total_wins_ties_share(skat, scores, winners):
    """K45: the match is 36 deals (all-pass deals count); the highest total wins, equal
    highest totals share the win."""
    m = skat.new_match(seed=1, scores=scores)
    all_pass_deals(m, 35)
    assert not m.is_over
    all_pass_deals(m, 1)
    assert m.is_over and m.deals_played == 36
    assert sorted(m.winners) == winners
    assert [r["dealer"] for r in m.deal_results] == [k % 3 for k in range(36)]  # K3


def test_K45_equal_highest_share_even_with_a_declarer_in_the_last_deal(skat):
    """K45: seat 0 starts with 30; seat 1 wins K47 (30) in deal 36: both have 30 and
    share the win (the last deal's declarer is not preferred)."""
    orders = [K47.order(skat, k % 3) for k in range(36)]
    m = skat.new_match(deck_orders=orders, scores=[30, 0, 0])
    all_pass_deals(m, 35)
    K47.run(m, dealer=2)
    assert m.is_over and m.scores == [30, 30, 0] and sorted(m.winners) == [0, 1]


def test_K45_no_score_ends_the_match_early(skat):
    """K45: the match is a number of deals, not a target: a total of 1,020 after one deal
    does not end it."""
    m = skat.new_match(deck_orders=[K47.order(skat, 0)], scores=[0, 0, 990])
    K47.run(m, dealer=0)
    assert m.scores == [0, 0, 1020] and not m.is_over


def test_K45_a_played_game_decides_the_match(skat):
    """K43, K45: one K47 game in 36 deals, the last (dealer 2): its declarer (M = seat 1)
    wins alone with 30."""
    orders = [K47.order(skat, k % 3) for k in range(36)]
    m = skat.new_match(deck_orders=orders)
    all_pass_deals(m, 35)
    K47.run(m, dealer=2)
    assert m.is_over and m.scores == [0, 30, 0] and m.winners == [1]


# ---------------------------------------------------------------- option four-seats
@pytest.fixture(scope="module")
def four() -> trickcore.Variant:
    return trickcore.load_variant("skat-four-seats")


def test_four_seats_K1_four_at_the_table_three_in_each_deal(four):
    """K1 (four-seats): 4 seats, no other count; 3 players in every deal, 10 cards each;
    the dealer gets none."""
    for n in (3, 5):
        with pytest.raises(trickcore.TrickcoreError):
            four.new_match(seed=1, players=n)
    m = four.new_match(seed=1)
    for k in range(4):
        obs = m.observation(0)
        assert obs.dealer == k and len(obs.players_in_deal) == 3
        assert k not in obs.players_in_deal
        assert obs.hand_sizes[k] == 0 and sum(obs.hand_sizes) == 30
        run(m, ["pass", "pass", "pass"])


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_seats_K2_F_M_R_left_of_the_dealer_who_sits_out(four, dealer):
    """K2 (four-seats): F = d+1, M = d+2, R = d+3; the dealer holds no cards, is never
    asked anything and scores nothing, while M plays and wins K47."""
    pos = positions(dealer, 4)
    d = four.new_deal(K47.order(four, dealer, 4), dealer=dealer)
    assert d.observation(dealer).players_in_deal == (pos["F"], pos["M"], pos["R"])
    assert (pos["F"], pos["M"], pos["R"]) == tuple((dealer + k) % 4 for k in (1, 2, 3))
    assert d.hand_texts(dealer) == [] and d.to_act == pos["M"]
    assert sorted(d.hand_texts(pos["M"])) == sorted(cards(K47.hands["M"]))
    seen = set()
    for action in K47.actions:
        seen.add(d.to_act)
        d.apply(action)
    prefs = {pos[p]: cards(h) for p, h in K47.hands.items()}
    prefs[pos["M"]] = cards(K47.play)
    while not d.is_over:
        seen.add(d.to_act)
        allowed = legal_texts(d)
        d.apply(next(f"play {c}" for c in prefs[d.to_act] if f"play {c}" in allowed))
    assert dealer not in seen and dealer not in {s for s, _ in d.observation(0).log}
    expected = [0, 0, 0, 0]
    expected[pos["M"]] = 30
    assert d.gains == expected


def test_four_seats_K3_K45_48_deals_every_seat_deals_12_times(four):
    """K3, K45 (four-seats): the deal passes left every deal; the match is 48 deals."""
    m = four.new_match(seed=2, scores=[0, 0, 7, 0])
    all_pass_deals(m, 47)
    assert not m.is_over
    all_pass_deals(m, 1)
    assert m.is_over and m.deals_played == 48 and m.winners == [2]
    assert [r["dealer"] for r in m.deal_results] == [k % 4 for k in range(48)]


def test_four_seats_K43_a_match_deal_scores_only_the_declarer(four):
    """K2, K43 (four-seats): K51 played in a match with seat 3 dealing: M (seat 1) loses
    120; the dealer, sitting out, and the defenders keep their totals."""
    m = four.new_match(deck_orders=[K51.order(four, 3, 4)], scores=[1, 2, 3, 4], dealer=3)
    K51.run(m, dealer=3, seats=4)
    assert m.scores == [1, 2 - 120, 3, 4]


# ---------------------------------------------------------------- option seeger-fabian
@pytest.fixture(scope="module")
def seeger() -> trickcore.Variant:
    return trickcore.load_variant("skat-seeger-fabian")


def test_seeger_fabian_K44_K47_a_won_game_gets_50_more(seeger):
    """K44, K47: K47 won with Seeger-Fabian: 30 + 50 = +80 for the declarer, the
    defenders 0; K50's schwarz game: 44 + 50."""
    assert K47.deal(seeger).gains == [0, 0, 80]
    assert K50_SCHWARZ.deal(seeger).gains == [0, 94, 0]


def test_seeger_fabian_K44_K50_a_lost_game_50_less_and_40_to_each_other(seeger):
    """K44, K50: K50 lost: -88 - 50 = -138 for the declarer, +40 to each defender; K51:
    -170, +40, +40; K52 (lost hand game) likewise."""
    assert K50.deal(seeger).gains == [-138, 40, 40]
    assert K51.deal(seeger).gains == [40, 40, -170]
    assert K52.deal(seeger).gains == [40, 40, -140]


def test_seeger_fabian_K44_all_pass_carries_nothing(seeger):
    """K44: an all-pass deal carries no Seeger-Fabian points; totals add up in a match."""
    m = seeger.new_match(deck_orders=[K47.order(seeger, 0), K50.order(seeger, 1)])
    K47.run(m, dealer=0)
    run(m, ["pass", "pass", "pass"])
    assert m.scores == [0, 0, 80] and m.deal_results[1]["gains"] == [0, 0, 0]


def test_seeger_fabian_K44_four_seats_30_to_each_other_the_dealer_included():
    """K44 with four seats (settled there): K51 lost by M with seat 3 dealing and sitting
    out: -120 - 50 for M, +30 to each of the three others, the dealer included; a won game
    (K47) gives the sitting-out dealer nothing."""
    both = trickcore.variant_from_text(
        'extends "skat-four-seats", "skat-seeger-fabian"\n', "four-seeger"
    )
    m = both.new_match(deck_orders=[K51.order(both, 3, 4)], dealer=3)
    K51.run(m, dealer=3, seats=4)
    assert m.scores == [30, -170, 30, 30]
    won = both.new_match(deck_orders=[K47.order(both, 3, 4)], dealer=3)
    K47.run(won, dealer=3, seats=4)
    assert won.scores == [0, 80, 0, 0]


# ---------------------------------------------------------------- option ramsch
@pytest.fixture(scope="module")
def ramsch() -> trickcore.Variant:
    return trickcore.load_variant("skat-ramsch")


def ramsch_gains(taken: dict[int, list[str]], tricks: dict[int, int]) -> list[int]:
    """K58–K60 restated from each player's cards taken (the skat with the last trick's
    winner, K57) and tricks won."""
    pts = {s: points(c) for s, c in taken.items()}
    out = [0] * (max(taken) + 1)
    full = [s for s, t in tricks.items() if t == 10]
    if full:  # K58
        out[full[0]] = 120
        return out
    most = max(pts.values())  # K59
    double = sum(1 for t in tricks.values() if t == 0) == 1  # K60
    for s, p in pts.items():
        if p == most:
            out[s] = -most * (2 if double else 1)
    return out


def ramsch_play(
    v: trickcore.Variant, order: Sequence[str], dealer: int, pick: Any
) -> tuple[trickcore.Deal, dict[int, list[str]], dict[int, int], list[int]]:
    """An all-pass deal played out by the engine, each card chosen by `pick(seat, legal
    cards)`; the restated rules (K56: grand order, F leads, K29, K30) check every offer.
    Returns the deal, the cards each took (K57: the skat to the last trick's winner),
    the tricks each won and the winners in order."""
    d = v.new_deal(list(order), dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    hands, skat_cards = dealt(order, dealer)
    run(d, ["pass", "pass", "pass"])  # K55: a Ramsch, not K20
    leader = positions(dealer)["F"]
    taken: dict[int, list[str]] = {s: [] for s in range(3)}
    tricks = {s: 0 for s in range(3)}
    winners: list[int] = []
    trick: list[tuple[int, str]] = []
    seat = leader
    for _ in range(30):
        assert d.to_act == seat and d.phase == "play"
        allowed = legal(hands[seat], trick, "G")
        assert plays(d) == set(allowed)
        card = pick(seat, allowed)
        d.apply(f"play {card}")
        hands[seat].remove(card)
        trick.append((seat, card))
        seat = (seat + 1) % 3
        if len(trick) == 3:
            w = winner(trick, "G")
            winners.append(w)
            taken[w] += [c for _, c in trick]
            tricks[w] += 1
            trick, seat = [], w
    taken[winners[-1]] += skat_cards  # K57
    assert d.is_over
    return d, taken, tricks, winners


def test_ramsch_K55_all_pass_plays_a_ramsch_without_declarer_or_skat(ramsch):
    """K55, K56: when M, R and F pass, play starts at once: no declarer, no hand or skat
    choice, no game; F leads; nobody has taken the skat."""
    d = ramsch.new_deal(seed=3)
    run(d, ["pass", "pass", "pass"])
    assert not d.is_over and d.phase == "play" and d.declarer == -1
    assert d.to_act == 1 and d.observation(1).hand_sizes == (10, 10, 10)
    for seat in range(3):
        obs = d.observation(seat)
        assert obs.talon_taken == () and obs.laid_away == () and obs.talon_shown is None
        assert obs.trump is None
    assert all(a.startswith("play ") for a in legal_texts(d))


def test_ramsch_K55_a_bid_still_leads_to_a_normal_game(ramsch):
    """K55: a Ramsch replaces only K20: K47 is played and scored as in the base game."""
    assert K47.deal(ramsch).gains == [0, 0, 30]
    assert K50.deal(ramsch).gains == [-88, 0, 0]


def test_ramsch_K56_K57_K58_K59_K60_random_ramsch_deals(ramsch):
    """K56–K60: 120 random Ramsch deals played by the engine and by the restated rules
    (grand order, F leads; the skat to the last trick's winner; Durchmarsch, the most
    card points minus, Jungfrau doubled): the same cards offered, winners and scores."""
    jungfrau = 0
    for seed in range(120):
        rng = random.Random(seed)
        order = list(ALL)
        rng.shuffle(order)
        d, taken, tricks, winners = ramsch_play(
            ramsch, order, seed % 3, lambda s, allowed, r=rng: r.choice(allowed)
        )
        assert [w for _, _, w in d.observation(0).tricks] == winners
        assert list(d.gains or []) == ramsch_gains(taken, tricks), seed
        for s in range(3):
            assert d.final_env(s)["card_points"] == points(taken[s])
        jungfrau += sum(1 for t in tricks.values() if t == 0) == 1
    assert jungfrau >= 5


def ramsch_by_prefs(
    v: trickcore.Variant, hands: dict[str, str], skat_cards: str, dealer: int = 0
) -> tuple[trickcore.Deal, dict[int, list[str]], dict[int, int], list[int]]:
    """An all-pass deal of these hands (by position, in order of preference)."""
    order = stacked(v, hands, skat_cards, dealer)
    pos = positions(dealer)
    prefs = {pos[p]: cards(h) for p, h in hands.items()}
    return ramsch_play(
        v, order, dealer, lambda s, allowed: next(c for c in prefs[s] if c in allowed)
    )


def test_ramsch_K56_jacks_are_the_only_trumps(ramsch):
    """K56 (K11): in a Ramsch a jack lead must be answered with a jack; to A♥ a player
    holding J♥ and 7♥ must play the 7♥; the J♦ wins over A♣."""
    d = new_deal(ramsch, {"F": "JD AH", "M": "JH 7H AC 10C KC QC 9C 8C 7C AD"})
    run(d, ["pass", "pass", "pass"])
    d.apply("play JD")
    assert plays(d) == {"JH"}
    d = new_deal(ramsch, {"F": "AH JD", "M": "JH 7H AC 10C KC QC 9C 8C 7C AD"})
    run(d, ["pass", "pass", "pass", "play AH"])
    assert plays(d) == {"7H"}
    d = new_deal(ramsch, {"F": "AC", "M": "JD AH 10H KH QH 9H 8H 7H AD 10D"})
    run(d, ["pass", "pass", "pass", "play AC", "play JD"])
    d.apply(legal_texts(d)[0])
    assert d.observation(0).tricks[0][2] == 2


def test_ramsch_K57_K58_durchmarsch_120_and_the_skat_to_the_last_trick(ramsch):
    """K57, K58: F takes all 10 tricks: +120, the others 0; with the skat his card
    points are all 120."""
    hands = {
        "F": "JC JS JH JD AC 10C KC AS 10S KS",
        "M": "QC 9C QS 9S AH 10H KH QH 9H 8H",
        "R": "8C 7C 8S 7S AD 10D KD QD 9D 8D",
    }
    d, taken, tricks, _ = ramsch_by_prefs(ramsch, hands, "7H 7D")
    assert tricks[1] == 10 and d.gains == [0, 120, 0]
    assert d.final_env(1)["card_points"] == 120


def test_ramsch_K59_tied_most_points_both_minus(ramsch):
    """K59: M and R both end with 55 card points, F with 10: M and R score -55 each."""
    hands = {
        "R": "QC KD 9S 9D JS KS QS QD 10C 8D",
        "F": "9H AD 7C AC AS 7H 10S 9C 7D QH",
        "M": "8C AH JC KC 8H 10D 8S KH 10H JH",
    }
    d, taken, tricks, _ = ramsch_by_prefs(ramsch, hands, "JD 7S")
    assert [points(taken[s]) for s in range(3)] == [10, 55, 55]
    assert min(tricks.values()) > 0
    assert d.gains == [0, -55, -55]


def test_ramsch_K57_K59_forty_forty_forty_all_minus_40(ramsch):
    """K57, K59 (Settled: 40–40–40 gives -40 to each): the skat's 10 card points go to
    the winner of the last trick and make the three totals equal."""
    hands = {
        "R": "10S QH AC JC QS 7D AS QD 10H 8H",
        "F": "7C AD 8C JH KH 9H 9S KS JD 7H",
        "M": "7S 8D KC AH KD 10D JS 8S 9D QC",
    }
    d, taken, tricks, winners = ramsch_by_prefs(ramsch, hands, "9C 10C")
    assert [points(taken[s]) for s in range(3)] == [40, 40, 40]
    last = winners[-1]
    assert d.final_env(last)["card_points"] == 40 == points(taken[last])
    tricks_only = [c for _, cs, w in d.observation(0).tricks if w == last for _, c in cs]
    assert points(tricks_only) == 30  # 40 with the skat's 10
    assert d.gains == [-40, -40, -40]


def test_ramsch_K60_jungfrau_doubles_the_minus(ramsch):
    """K60: M wins no trick, F one: R's 107 card points cost -214."""
    hands = {
        "R": "7C AD 10H JC KH 10S KD JD 10D KC",
        "F": "7D 7H 8D 8S 10C QH 9C QS JS 8C",
        "M": "8H KS 9H 9S JH QD AS 9D QC AH",
    }
    d, taken, tricks, _ = ramsch_by_prefs(ramsch, hands, "AC 7S")
    assert tricks == {0: 9, 1: 1, 2: 0}
    assert points(taken[0]) == 107 and d.gains == [-214, 0, 0]


def test_ramsch_K61_a_ramsch_is_a_deal_of_the_match(ramsch):
    """K61, K3: a Ramsch counts as a played deal; its scores go to the totals; the next
    seat deals."""
    hands = {
        "R": "7C AD 10H JC KH 10S KD JD 10D KC",
        "F": "7D 7H 8D 8S 10C QH 9C QS JS 8C",
        "M": "8H KS 9H 9S JH QD AS 9D QC AH",
    }
    m = ramsch.new_match(deck_orders=[stacked(ramsch, hands, "AC 7S", 0)], scores=[0, 5, 0])
    run(m, ["pass", "pass", "pass"])
    prefs = {positions(0)[p]: cards(h) for p, h in hands.items()}
    play_prefs(m, prefs)
    assert m.deals_played == 1 and m.deal.dealer == 1
    assert m.scores == [-214, 5, 0]


def test_ramsch_K61_with_four_seats_the_dealer_sits_out(tmp_path):
    """K61: Ramsch with `four-seats` (a house rule combining the two files): the dealer
    holds no cards and takes no part; the three others play the Ramsch."""
    path = tmp_path / "four-ramsch.rules"
    path.write_text('extends "skat-four-seats", "skat-ramsch"\nname: "Four with Ramsch"\n')
    v = trickcore.load_variant(str(path))
    m = v.new_match(seed=3, dealer=2)
    run(m, ["pass", "pass", "pass"])
    assert m.current.phase == "play" and m.to_act == 3  # F = dealer + 1
    seen = set()
    while m.deals_played == 0:
        seen.add(m.to_act)
        m.apply(legal_texts(m)[0])
    assert seen == {3, 0, 1}
    assert m.deal_results[0]["gains"][2] == 0 and sum(m.deal_results[0]["gains"]) < 0


# ---------------------------------------------------------------- house rule bock-rounds
@pytest.fixture(scope="module")
def bock() -> trickcore.Variant:
    return trickcore.load_variant("skat-bock-rounds")


def play_match(
    v: trickcore.Variant, deals: Sequence[Worked | None], seats: int = 3
) -> trickcore.Match:
    """A match of these deals (None: all pass), dealt by seats 0, 1, 2, 0, ... (or 0..3)"""
    orders = [(w or K47).order(v, k % seats, seats) for k, w in enumerate(deals)]
    m = v.new_match(deck_orders=orders)
    for k, w in enumerate(deals):
        if w is None:
            run(m, ["pass", "pass", "pass"])
        else:
            w.run(m, dealer=k % seats, seats=seats)
    return m


def declarer_gains(m: trickcore.Match) -> list[int]:
    """Each deal's score of its declarer (0 for an all-pass deal)."""
    return [r["gains"][r["declarer"]] if r["declarer"] >= 0 else 0 for r in m.deal_results]


def test_bock_K62_a_game_worth_100_makes_the_next_round_bock(bock):
    """K62: K48 (grand hand, 120 >= 100) is scored normally; the next 3 deals (a round,
    all-pass deals included) double the K43 score; the deal after them is normal."""
    m = play_match(bock, [K48, K47, None, None, K47])
    assert declarer_gains(m) == [120, 60, 0, 0, 30]


def test_bock_K62_with_four_seats_a_round_is_four_deals():
    """K62 with four seats: a round has as many deals as seats, so K48's trigger doubles
    the next four deals (the fifth is normal)."""
    both = trickcore.variant_from_text('extends "skat-four-seats", "skat-bock-rounds"\n', "b4")
    m = play_match(both, [K48, K47, None, None, K47, K47], seats=4)
    assert declarer_gains(m) == [120, 60, 0, 0, 60, 30]


def test_bock_K62_sixty_sixty_triggers_and_a_lost_game_doubles(bock):
    """K62: K35_60 ends 60–60: lost, -40 as usual; in the Bock round K51 costs 2 x -120."""
    m = play_match(bock, [K35_60, K51])
    assert declarer_gains(m) == [-40, -240]


def test_bock_K62_a_value_of_exactly_100_triggers_99_does_not(bock):
    """K62 (value after K42): ♥ with 1 at a bid of 100 is overbid and valued 100: lost
    (-200) and a trigger; ♠ with 1 at 99 is valued 99 (-198): no trigger."""
    hearts_100 = Worked(
        K35_60.hands, K35_60.skat, "pass, bid 100, pass" + K35_60_CHOICES, K35_60.play
    )
    spades_99 = Worked(K50.hands, K50.skat, "pass, bid 99, pass" + K50_CHOICES, K50.play)
    m = play_match(bock, [hearts_100, K47, None, None, K47])
    assert declarer_gains(m) == [-200, 60, 0, 0, 30]
    m = play_match(bock, [spades_99, K47])
    assert declarer_gains(m) == [-198, 30]


def test_bock_K62_no_trigger_no_bock(bock):
    """K62: K47 (30, 75 card points) and K50 (overbid, 44) trigger nothing: K47 again
    scores 30."""
    m = play_match(bock, [K47, K50, K47, K47])
    assert declarer_gains(m) == [30, -88, 30, 30]


def test_bock_K62_a_trigger_in_a_bock_round_queues_a_full_round(bock):
    """K62: K48 in deal 1 and again in deal 2 (a Bock deal: 240, not 480: no fourfold
    score); deals 2–4 are the first round, 5–7 the queued one; deal 8 is normal."""
    deals: list[Worked | None] = [K48, K48, None, None, None, None, K47, K47]
    m = play_match(bock, deals)
    assert declarer_gains(m) == [120, 240, 0, 0, 0, 0, 60, 30]


# ---------------------------------------------------------------- house rule lost-hand-single
@pytest.fixture(scope="module")
def single() -> trickcore.Variant:
    return trickcore.load_variant("skat-lost-hand-single")


def test_lost_hand_single_K64_a_lost_hand_game_costs_its_value_once(single):
    """K64: K52 (♦ hand, lost, 45): -45, not -90; a lost null hand (K32): -35; a lost
    null ouvert hand (K53): -59."""
    assert K52.deal(single).gains == [0, 0, -45]
    d = new_deal(single, {"F": "7C 8C", "M": "AC 7S 8S 9S 7H 8H 9H 7D 8D 9D", "R": "9C"})
    run(d, ["bid 18", "pass", "pass", "hand", "null", "play 7C", "play AC", "play 9C"])
    assert d.gains == [0, 0, -35]
    d = new_deal(single, {"F": "7C", "M": "AC 7S 8S 9S 7H 8H 9H 7D 8D 9D", "R": "8C"})
    run(d, ["bid 18", "pass", "pass", "hand", "null_ouvert", "play 7C", "play AC", "play 8C"])
    assert d.gains == [0, 0, -59]


def test_lost_hand_single_K64_games_with_the_skat_and_won_games_unchanged(single):
    """K64: a lost game after taking the skat still costs twice (K50: -88, K51: -120);
    won games score as before (K47 +30, K48 +120)."""
    assert K50.deal(single).gains == [-88, 0, 0]
    assert K51.deal(single).gains == [0, 0, -120]
    assert K47.deal(single).gains == [0, 0, 30]
    assert K48.deal(single).gains == [120, 0, 0]


def test_lost_hand_single_K64_random_deals(single):
    """K64 with K13–K43: 100 random deals against the restated rules with lost hand
    games single."""
    for seed in range(100):
        d, ref = random_ref_deal(single, 9000 + seed)
        assert list(d.gains or []) == ref.gains(lost_hand_single=True), seed


# ---------------------------------------------------------------- house rule jack-matadors
@pytest.fixture(scope="module")
def jacks() -> trickcore.Variant:
    return trickcore.load_variant("skat-jack-matadors")


def test_jack_matadors_K65_the_44_bids(jacks):
    """K65: the legal bids are the 44 values listed (the opening call offers exactly
    them)."""
    assert len(JACK_BIDS) == 44
    d = jacks.new_deal(seed=1)
    assert bid_values(d) == JACK_BIDS
    run(d, ["bid 110", "hold"])
    assert bid_values(d)[:3] == [120, 121, 132]


@pytest.mark.parametrize(
    "twelve, option, n",
    [
        ("JC JS JH JD AH 10H", "hearts_game", 4),  # with 6 in the base game
        ("JC JS", "hearts_game", 2),
        ("7H", "hearts_game", 4),  # without 10 in the base game
        ("", "clubs_game", 4),  # without 11 in the base game
        ("JD", "spades_game", 3),
        ("JH JD", "grand", 2),
    ],
)
def test_jack_matadors_K65_n_counts_the_jacks_only(jacks, twelve, option, n):
    """K65 (K37 over the 4 jacks): the hand games of test_K37 scored with n of 1..4."""
    x = GAME_OF[option]
    trumps = set(trump_sequence(x))
    mine = cards(twelve)
    plain = [c for c in ALL if c not in trumps and c not in mine]
    fill = [c for r in ("A", "10", "K", "Q") for c in plain if rank(c) == r]
    hand = (mine + fill)[:10]
    skat_cards = [c for c in plain if c not in hand][:2]
    assert matadors(hand + skat_cards, x, jacks_only=True) == n
    d = new_deal(jacks, {"F": " ".join(hand)}, " ".join(skat_cards))
    run(d, ["pass", "pass", "bid 18", "hand", option, "keep", "keep", "keep"])
    finish(d)
    env = d.final_env(1)
    assert d.gains[1] == result(option, 18, env["card_points"], env["tricks_won"], n, True)[2]


def test_jack_matadors_K65_games_with_the_skat(jacks):
    """K65: with the skat taken nothing changes where the jacks decide n: K47 +30, K51
    -120, K50 -88."""
    assert K47.deal(jacks).gains == [0, 0, 30]
    assert K51.deal(jacks).gains == [0, 0, -120]
    assert K50.deal(jacks).gains == [-88, 0, 0]


def test_jack_matadors_K65_highest_suit_value_is_11_times_base(jacks):
    """K65: ♣ hand ouvert with all 11 trumps is with 4 in this house rule: (4 + 7) x 12 =
    132, not 216."""
    hand = "JC JS JH JD AC 10C KC QC 9C 8C"
    d = new_deal(jacks, {"F": hand}, "7C 7S")
    run(d, ["pass", "pass", "bid 18", "hand", "clubs_game", "ouvert"])
    finish(d)
    assert d.gains == [0, 132, 0]
