"""Euchre rules (E1–E49 of docs/rules/euchre.md) played through the public API, and the
house rules E44–E49 (`variants/euchre-stick-the-dealer.rules`,
`variants/euchre-defend-alone.rules`, `variants/euchre-no-trump.rules`,
`variants/euchre-assist-alone.rules`, `variants/euchre-game-to-7.rules`,
`variants/euchre-farmers-hand.rules`).

Each test plays a rule on real cards (deals stacked with `stack_deck`, or built from E7's deck
positions) and fails when that rule is broken in `variants/euchre.rules` or in the engine;
none of them reads the compiled model. `Ref` restates the rules (E7–E25) in a few lines of
Python, independent of trickcore; the random-deal tests play the engine and `Ref` side by
side.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import run, texts

import trickcore

# E2, E3, restated here (not read from the variant).
RANKS = ["A", "K", "Q", "J", "10", "9"]  # E6: high to low outside trump
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
SAME = {"C": "S", "S": "C", "D": "H", "H": "D"}  # E3: the same-colour suit
NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
CARD_RE = re.compile(r"(?<![0-9A-Z])(?:10|[9AKQJ])[CDHS](?![0-9A-Z])")

State = Any  # a trickcore.Deal or trickcore.Match: both have apply/legal_actions/to_act


@pytest.fixture(scope="module")
def euchre() -> trickcore.Variant:
    """The base game, E1–E43."""
    return trickcore.load_variant("euchre")


def house(name: str) -> trickcore.Variant:
    """A shipped house-rule file of euchre by its full name (so that the mutation tool finds
    the tests of each file)."""
    return trickcore.load_variant(name)


# ---------------------------------------------------------------- the rules restated
def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def trump_order(trump: str) -> list[str]:
    """E4: the seven trumps, high to low: right bower, left bower, A K Q 10 9."""
    return ["J" + trump, "J" + SAME[trump]] + [r + trump for r in ("A", "K", "Q", "10", "9")]


def is_trump(card: str, trump: str | None) -> bool:
    return trump is not None and card in trump_order(trump)


def eff_suit(card: str, trump: str | None) -> str:
    """E5: the left bower is a trump; every other card keeps its printed suit."""
    return trump if trump is not None and is_trump(card, trump) else suit(card)


def plain_order(s: str, trump: str | None) -> list[str]:
    """E6: a non-trump suit high to low, without the left bower in the same-colour suit."""
    return [r + s for r in RANKS if not is_trump(r + s, trump)]


def trick_winner(cards: Sequence[tuple[int, str]], trump: str | None) -> int:
    """E20: the highest trump, else the highest card of the suit led (seat, card in order)."""
    if trump is not None:
        trumps = [(s, c) for s, c in cards if is_trump(c, trump)]
        if trumps:
            return min(trumps, key=lambda sc: trump_order(trump).index(sc[1]))[0]
    led = eff_suit(cards[0][1], trump)
    followers = [(s, c) for s, c in cards if eff_suit(c, trump) == led]
    return min(followers, key=lambda sc: RANKS.index(rank(sc[1])))[0]


def may_play(hand: Sequence[str], led: str | None, trump: str | None) -> set[str]:
    """E19: follow the suit led (E5 decides suits) if possible, else any card."""
    if led is None:
        return set(hand)
    same = {c for c in hand if eff_suit(c, trump) == eff_suit(led, trump)}
    return same or set(hand)


# E7: deck positions (top = 1) of each seat, by its distance from the dealer.
POSITIONS = {
    1: [1, 2, 3, 11, 12],
    2: [4, 5, 13, 14, 15],
    3: [6, 7, 8, 16, 17],
    0: [9, 10, 18, 19, 20],
}


def dealt(order: Sequence[str], dealer: int) -> tuple[dict[int, list[str]], str, list[str]]:
    """E7, E8: each seat's hand, the up-card (position 21) and the kitty below it (22–24)."""
    hands = {(dealer + k) % 4: [order[p - 1] for p in POSITIONS[k]] for k in POSITIONS}
    return hands, order[20], list(order[21:24])


def order_for(hands: dict[int, Sequence[str]], upcard: str, dealer: int = 0) -> list[str]:
    """E7, E8 the other way round: the deck order that deals these full hands and up-card."""
    order: list[str | None] = [None] * 24
    for k, places in POSITIONS.items():
        for p, card in zip(places, hands[(dealer + k) % 4], strict=True):
            order[p - 1] = card
    order[20] = upcard
    rest = [c for c in DECK if c not in order]
    return [c if c is not None else rest.pop(0) for c in order]


def deal_gains(maker: int, made: int, alone: bool) -> list[int]:
    """E22–E25: the deal score of every seat (both partners get their team's points)."""
    if made >= 3:
        points, team = (4 if alone else 2) if made == 5 else 1, maker % 2
    else:
        points, team = 2, 1 - maker % 2
    return [points if s % 2 == team else 0 for s in range(4)]


class Ref:
    """One deal restated from the rule sheet (E7–E25)."""

    def __init__(self, order: Sequence[str], dealer: int) -> None:
        self.dealer = dealer
        self.hands, self.upcard, self.kitty = dealt(order, dealer)
        self.calls = 0
        self.phase = "call"
        self.to_act = (dealer + 1) % 4  # E10
        self.trump: str | None = None
        self.maker = -1
        self.alone = False
        self.out = -1  # the seat sitting out (E16)
        self.discard: str | None = None
        self.trick: list[tuple[int, str]] = []
        self.winners: list[int] = []
        self.thrown_in = False

    def next_seat(self, seat: int) -> int:
        """E18: clockwise, skipping a player who sits out."""
        seat = (seat + 1) % 4
        return (seat + 1) % 4 if seat == self.out else seat

    def legal(self) -> set[str]:
        if self.phase == "call":
            up = suit(self.upcard)
            named = [up] if self.calls < 4 else [s for s in SUITS if s != up]  # E10, E14
            return {"pass"} | {f"bid {NAME[s]}{q}" for s in named for q in ("", " alone")}
        if self.phase == "discard":
            return {f"discard {c}" for c in self.hands[self.dealer]}  # E12
        led = self.trick[0][1] if self.trick else None
        return {f"play {c}" for c in may_play(self.hands[self.to_act], led, self.trump)}

    def apply(self, action: str) -> None:
        assert action in self.legal(), action
        words = action.split()
        seat = self.to_act
        if words[0] == "pass":
            self.calls += 1
            if self.calls == 8:  # E15
                self.thrown_in, self.phase = True, "over"
            else:
                self.to_act = (seat + 1) % 4
        elif words[0] == "bid":  # E11, E14, E16
            self.trump = next(s for s in SUITS if NAME[s] == words[1])
            self.maker, self.alone = seat, words[2:] == ["alone"]
            self.out = (seat + 2) % 4 if self.alone else -1
            if self.calls < 4 and self.out != self.dealer:  # E12
                self.hands[self.dealer].append(self.upcard)
                self.phase, self.to_act = "discard", self.dealer
            else:
                self.start_play()
        elif words[0] == "discard":
            self.hands[seat].remove(words[1])
            self.discard = words[1]
            self.start_play()
        else:
            self.hands[seat].remove(words[1])
            self.trick.append((seat, words[1]))
            if len(self.trick) < (3 if self.alone else 4):
                self.to_act = self.next_seat(seat)
                return
            winner = trick_winner(self.trick, self.trump)
            self.winners.append(winner)
            self.trick = []
            self.to_act = winner  # E20
            if len(self.winners) == 5:  # E17
                self.phase = "over"

    def start_play(self) -> None:
        """E17: the player left of the dealer leads, or the next one who does not sit out."""
        self.phase = "play"
        first = (self.dealer + 1) % 4
        self.to_act = self.next_seat(first - 1)

    def gains(self) -> list[int] | None:
        if self.thrown_in:
            return None
        made = sum(1 for w in self.winners if w % 2 == self.maker % 2)
        return deal_gains(self.maker, made, self.alone)


# ---------------------------------------------------------------- helpers
def legal(state: State) -> set[str]:
    """The texts of the legal actions of a deal or match."""
    return set(texts(state.legal_actions()))


def deal_of(state: State) -> trickcore.Deal:
    d = state.current if isinstance(state, trickcore.Match) else state
    assert isinstance(d, trickcore.Deal)
    return d


def plays(cards) -> set[str]:
    return {f"play {c}" for c in cards}


def new(v: trickcore.Variant, hands: dict[int, Sequence[str]], upcard: str, dealer: int = 0):
    """A deal of these hands (seats not named get the cards left over) and this up-card."""
    order = v.stack_deck({s: list(h) for s, h in hands.items()}, dealer=dealer, turnup=upcard)
    d = v.new_deal(order, dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    for s, h in hands.items():
        assert sorted(d.observation(s).hand) == sorted(h)
    assert d.observation(0).turnup == upcard
    return d


def call(state: State, trump: str, caller: int, alone: bool = False, rnd: int = 2) -> None:
    """Make trump: in the first round (the up-card's suit) or the second (after four passes),
    every player before the caller passes, then he calls (E10, E14, E16)."""
    if rnd == 2:
        run(state, ["pass"] * 4)
    while state.to_act != caller:
        state.apply("pass")
    state.apply(f"bid {NAME[trump]}" + (" alone" if alone else ""))


def fill(hands: dict[int, list[str]], used: Sequence[str], upcard: str) -> dict[int, list[str]]:
    """Complete the hands (5 cards each) with cards not yet used, in deck order."""
    rest = [
        c for c in DECK if c not in used and c != upcard and all(c not in h for h in hands.values())
    ]
    out = {}
    for s in range(4):
        h = list(hands.get(s, []))
        while len(h) < 5:
            h.append(rest.pop(0))
        out[s] = h
    return out


def layout(winners: Sequence[int], active: Sequence[int], leader: int):
    """Hands and tricks (hearts trump) in which trick k is won by winners[k].

    Tricks 1–4 are of clubs, spades, diamonds and hearts: every active seat holds one of the
    suit's top cards, the winner the highest. Trick 5: everyone has one card left; the
    leader leads a club, the winner holds the higher club (or leads it himself), the others
    throw spades. The up-card 9D is unused (hearts are named in the second round)."""
    n = len(active)
    tricks: list[dict[int, str]] = []
    lead = leader
    for k, s in enumerate("CSDH"):
        top = [r + s for r in ("A", "K", "Q", "10" if s in "DH" else "J")][:n]
        w = winners[k]
        assert w in active
        others = [x for x in active if x != w]
        tricks.append({w: top[0], **dict(zip(others, top[1:], strict=True))})
        lead = w
    w = winners[4]
    throws = ["9S", "10S"]
    if w == lead:
        others = [x for x in active if x != w]
        tricks.append({w: "10C", **dict(zip(others, ["9C", *throws], strict=False))})
    else:
        others = [x for x in active if x not in (w, lead)]
        tricks.append({w: "10C", lead: "9C", **dict(zip(others, throws, strict=False))})
    hands = {s: [t[s] for t in tricks] for s in active}
    return hands, tricks


def play_tricks(state: State, tricks: Sequence[dict[int, str]]) -> None:
    """Play planned tricks; each trick's first seat named is its planned winner."""
    d = deal_of(state)
    while not d.is_over:
        seat = state.to_act
        k = len(d.observation(seat).tricks)
        state.apply(f"play {tricks[k][seat]}")
    assert [t[2] for t in d.observation(0).tricks] == [next(iter(t)) for t in tricks]


def planned(
    v: trickcore.Variant,
    caller: int,
    made: int,
    alone: bool = False,
    dealer: int = 0,
    split: bool = False,
):
    """A deck order and its tricks in which the caller's team (named hearts in the second
    round, alone or not) takes `made` tricks; with `split` both makers win some."""
    out = (caller + 2) % 4 if alone else -1
    active = [s for s in range(4) if s != out]
    leader = (dealer + 1) % 4
    if leader == out:
        leader = (leader + 1) % 4
    makers = [s for s in active if s % 2 == caller % 2]
    defenders = [s for s in active if s % 2 != caller % 2]
    wins = [makers[k % len(makers)] if split else caller for k in range(made)]
    wins += [defenders[k % 2] for k in range(5 - made)]
    hands, tricks = layout(wins, active, leader)
    if out >= 0:
        hands = fill(hands, [], "9D")
    return v.stack_deck(hands, dealer=dealer, turnup="9D"), tricks


def scripted(v, caller, made, alone=False, dealer=0, split=False) -> trickcore.Deal:
    """Play a planned deal to its end."""
    order, tricks = planned(v, caller, made, alone, dealer, split)
    d = v.new_deal(order, dealer=dealer)
    call(d, "H", caller, alone)
    play_tricks(d, tricks)
    return d


def random_deal(v: trickcore.Variant, seed: int, dealer: int, check=None) -> Ref:
    """A random deal played by the engine and by `Ref` side by side: the same player to act,
    the same legal actions, the same trick winners and deal scores. `check(d, ref)` runs
    before every action."""
    rng = random.Random(seed)
    order = list(DECK)
    rng.shuffle(order)
    d = v.new_deal(order, dealer=dealer)
    ref = Ref(order, dealer)
    while not d.is_over:
        assert d.to_act == ref.to_act
        assert legal(d) == ref.legal(), (seed, d.observation(ref.to_act).log)
        for seat in range(4):  # E7, E12: each hand as dealt, picked up, discarded, played
            if seat != ref.out:
                assert sorted(d.observation(seat).hand) == sorted(ref.hands[seat])
        if check:
            check(d, ref)
        acts = sorted(ref.legal())
        calls = [a for a in acts if a != "pass"]
        if ref.phase == "call" and (rng.random() < 0.75 or not calls):
            a = "pass"
        else:
            a = rng.choice(calls if ref.phase == "call" else acts)
        d.apply(a)
        ref.apply(a)
    assert ref.phase == "over"
    if ref.thrown_in:
        assert d.observation(0).redealt and d.gains is None
    else:
        assert [t[2] for t in d.observation(0).tricks] == ref.winners
        assert list(d.gains) == ref.gains()
    return ref


def seen(obs: trickcore.Observation) -> set[str]:
    """Every card text anywhere in an observation."""
    return set(CARD_RE.findall(repr(obs.to_dict())))


# ---------------------------------------------------------------- E1–E3: players and cards
def test_E1_four_players_only(euchre):
    """E1: Euchre is played by exactly four; every seat gets a hand."""
    for n in (2, 3, 5):
        with pytest.raises(trickcore.TrickcoreError):
            euchre.new_match(seed=1, players=n)
    assert len(euchre.new_deal(seed=1).observation(0).players_in_deal) == 4


@pytest.mark.parametrize("caller", range(4))
def test_E1_partners_opposite_share_the_deal_score(euchre, caller):
    """E1, E25: the caller's partner is the seat opposite; a march (E22) gives both of them
    2 points and the other team nothing."""
    d = scripted(euchre, caller, 5)
    assert list(d.gains) == [2 if s % 2 == caller % 2 else 0 for s in range(4)]


def test_E2_24_cards_5_to_each_player(euchre):
    """E2: 24 different cards, 9 10 J Q K A in four suits; 5 to each player, one up-card,
    three in the kitty."""
    for seed in range(4):
        d = euchre.new_deal(seed=seed)
        hands = [d.observation(s).hand for s in range(4)]
        assert [len(h) for h in hands] == [5] * 4
        cards = [c for h in hands for c in h] + [d.observation(0).turnup]
        assert len(set(cards)) == 21 and set(cards) <= set(DECK)
    for bad in ("8H", "7S", "2C", "AX"):
        with pytest.raises(trickcore.TrickcoreError):
            euchre.card(bad)
    for card in DECK:
        euchre.card(card)


# ---------------------------------------------------------------- E4–E6: ranking
def trump_pair_deal(v, trump: str, first: str, second: str):
    """Trump named by seat 1 in the second round; seat 1 holds `first`, seat 2 `second`,
    seats 3 and 0 hold no trump."""
    upcard = next(c for c in DECK if suit(c) not in (trump, SAME[trump]))
    plain = [c for c in DECK if not is_trump(c, trump) and c != upcard]
    others = [c for c in DECK if c not in plain and c not in (first, second, upcard)]
    hands = {3: plain[:5], 0: plain[5:10]}
    spare = plain[10:] + others
    hands[1] = [first, *spare[:4]]
    hands[2] = [second, *spare[4:8]]
    d = new(v, hands, upcard)
    call(d, trump, 1)
    return d, hands


@pytest.mark.parametrize("trump", SUITS)
@pytest.mark.parametrize("k", range(6))
def test_E4_trump_order_right_bower_left_bower_A_K_Q_10_9(euchre, trump, k):
    """E4: of two neighbouring trumps (right bower, left bower, A, K, Q, 10, 9) the higher
    wins, whoever plays it first; the other two play no trump."""
    high, low = trump_order(trump)[k], trump_order(trump)[k + 1]
    for first, second in ((low, high), (high, low)):
        d, hands = trump_pair_deal(euchre, trump, first, second)
        assert d.to_act == 1 and d.observation(1).trump == NAME[trump]
        run(d, [f"play {first}", f"play {second}"])
        run(d, [f"play {hands[3][0]}", f"play {hands[0][0]}"])
        assert d.observation(0).tricks[0][2] == (1 if first == high else 2), (first, second)


@pytest.mark.parametrize("trump", SUITS)
def test_E4_E5_the_trump_suit_has_seven_cards_the_same_colour_suit_five(euchre, trump):
    """E4, E5: seat 2 holds A K Q J 10 of the same-colour suit: to a trump lead he must play
    the jack (his only trump); to a lead of the same-colour suit one of the other four."""
    other = SAME[trump]
    third = [c for c in DECK if suit(c) not in (trump, other)]
    hand2 = [r + other for r in ("A", "K", "Q", "J", "10")]
    for lead, follow in (
        ("9" + trump, ["J" + other]),
        ("9" + other, [c for c in hand2 if rank(c) != "J"]),
    ):
        hands = {1: ["9" + trump, "9" + other, *third[:3]], 2: hand2}
        d = new(euchre, hands, third[3])
        call(d, trump, 1)
        d.apply(f"play {lead}")
        assert legal(d) == plays(follow), lead


@pytest.mark.parametrize("trump", SUITS)
def test_E5_left_bower_is_led_as_trump_and_follows_trump(euchre, trump):
    """E5: seat 1 leads the left bower: it is a trump lead, so seat 2, who holds cards of
    its printed suit and a trump, must play the trump; seat 3, with cards of the printed
    suit but no trump, may play any card."""
    left = "J" + SAME[trump]
    printed = [c for c in plain_order(SAME[trump], trump)]
    off = [c for c in DECK if suit(c) not in (trump, SAME[trump])]
    hands = {
        1: [left, *off[:4]],
        2: ["9" + trump, *printed[:4]],
        3: [printed[4], *off[4:8]],
    }
    d = new(euchre, hands, off[8])
    call(d, trump, 1)
    d.apply(f"play {left}")
    assert legal(d) == plays(["9" + trump])
    d.apply(f"play 9{trump}")
    assert legal(d) == plays(hands[3])


@pytest.mark.parametrize("trump", SUITS)
def test_E5_left_bower_does_not_follow_its_printed_suit(euchre, trump):
    """E5: seat 1 leads the ace of the left bower's printed suit; seat 2 holds the left
    bower and no other card of that suit: he is void and may play any card; seats 3 and 0
    follow with that suit, and the left bower wins the trick as a trump."""
    p = SAME[trump]
    off = [c for c in DECK if suit(c) not in (trump, p)]
    hands = {
        1: ["A" + p, *off[:4]],
        2: ["J" + p, *off[4:8]],
        3: ["9" + p, *off[8:12]],
        0: ["K" + p, *[r + trump for r in ("9", "10", "Q", "K")]],
    }
    d = new(euchre, hands, "10" + p)
    call(d, trump, 1)
    d.apply(f"play A{p}")
    assert legal(d) == plays(hands[2])
    d.apply(f"play J{p}")
    assert legal(d) == plays([f"9{p}"])
    d.apply(f"play 9{p}")
    assert legal(d) == plays([f"K{p}"])
    d.apply(f"play K{p}")
    assert d.observation(0).tricks[0][2] == 2


@pytest.mark.parametrize("s, trump", [(s, t) for t in SUITS for s in SUITS if s != t])
def test_E6_plain_suit_order_A_K_Q_J_10_9(euchre, s, trump):
    """E6: in each non-trump suit of two neighbouring cards (A K Q J 10 9, without the left
    bower in the same-colour suit) the higher wins the trick led in that suit; the others
    hold neither the suit nor a trump."""
    order = plain_order(s, trump)
    assert len(order) == (5 if s == SAME[trump] else 6)
    others = [c for c in DECK if suit(c) != s and not is_trump(c, trump)]
    for high, low in zip(order, order[1:]):
        for first, second in ((low, high), (high, low)):
            spare = [c for c in DECK if c not in others and c not in (first, second)]
            upcard = next(c for c in spare if suit(c) == s)
            spare.remove(upcard)
            hands = {
                1: [first, *spare[:4]],
                2: [second, *spare[4:8]],
                3: others[:5],
                0: others[5:10],
            }
            d = new(euchre, hands, upcard)
            call(d, trump, 1)
            run(d, [f"play {first}", f"play {second}", f"play {others[0]}", f"play {others[5]}"])
            assert d.observation(0).tricks[0][2] == (1 if first == high else 2), (first, second)


# ---------------------------------------------------------------- E7–E9: the deal
@pytest.mark.parametrize("dealer", range(4))
def test_E7_E8_dealing_pattern_and_up_card(euchre, dealer):
    """E7: seat d+1 gets positions 1–3 and 11–12, d+2 4–5 and 13–15, d+3 6–8 and 16–17, the
    dealer 9–10 and 18–20; E8: position 21 is the up-card, face up for all; 22–24 are in
    nobody's hand and seen by nobody."""
    order = list(DECK)
    random.Random(dealer).shuffle(order)
    d = euchre.new_deal(order, dealer=dealer)
    hands, upcard, kitty = dealt(order, dealer)
    for seat in range(4):
        obs = d.observation(seat)
        assert sorted(obs.hand) == sorted(hands[seat])
        assert obs.turnup == upcard
        assert not seen(obs) & set(kitty)
    assert d.observation(0).hand_sizes == (5, 5, 5, 5)


def test_E7_stack_deck_agrees_with_the_positions(euchre):
    """E7: a deck order stacked for given hands and up-card puts them at E7's positions."""
    hands = {1: ["9C", "10C", "JC", "KD", "AD"], 3: ["AC", "9D", "10D", "QH", "KH"]}
    order = euchre.stack_deck(hands, dealer=0, turnup="JS")
    got, upcard, _ = dealt(order, 0)
    assert upcard == "JS"
    for seat, h in hands.items():
        assert sorted(got[seat]) == sorted(h)


def test_E9_the_deal_passes_clockwise_also_after_a_thrown_in_deal(euchre):
    """E9, E15: dealers 0, 1, 2, 3, 0, ...; a thrown-in deal passes the deal too."""
    m = euchre.new_match(seed=3)
    dealers = []
    for k in range(6):
        dealers.append(m.deal.dealer)
        assert m.to_act == (m.deal.dealer + 1) % 4
        if k % 2 == 0:
            run(m, ["pass"] * 8)
            continue
        d = deal_of(m)
        while not d.is_over:
            acts = sorted(legal(m))
            m.apply(next((a for a in acts if a.startswith("bid") and "alone" not in a), acts[0]))
    assert dealers == [0, 1, 2, 3, 0, 1]
    assert [r.get("redeal", False) for r in m.deal_results] == [True, False] * 3


# ---------------------------------------------------------------- E10–E16: making trump
@pytest.mark.parametrize("dealer", range(4))
def test_E10_first_round_order_and_offered_calls(euchre, dealer):
    """E10: from seat d+1 clockwise, the dealer last, each player makes one call: pass,
    order up or order up alone, in the up-card's suit only."""
    d = euchre.new_deal(seed=10 + dealer, dealer=dealer)
    up = NAME[suit(d.observation(0).turnup)]
    for k in (1, 2, 3, 4):
        assert d.to_act == (dealer + k) % 4
        assert legal(d) == {"pass", f"bid {up}", f"bid {up} alone"}
        d.apply("pass")
    assert d.to_act == (dealer + 1) % 4  # the second round begins (E14)
    assert f"bid {up}" not in legal(d)


@pytest.mark.parametrize("caller", range(4))
def test_E10_E11_the_first_order_up_ends_the_round(euchre, caller):
    """E10, E11: the first order-up ends the calls: later players make none; the up-card's
    suit is trump and the caller is the maker. After the dealer's discard (E12) the play
    starts."""
    d = new(euchre, {}, "KS")
    call(d, "S", caller, rnd=1)
    obs = d.observation(0)
    assert obs.declarer == caller
    assert d.to_act == 0 and all(a.startswith("discard") for a in legal(d))
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("pass")
    d.apply(sorted(legal(d))[0])
    assert d.phase == "play" and d.to_act == 1 and d.observation(2).trump == "spades"
    assert [seat for seat, _ in obs.bids] == [k % 4 for k in range(1, (caller or 4) + 1)]


def test_E11_the_order_up_fixes_trump_before_the_discard(euchre):
    """E11, E12: an order-up makes the up-card's suit trump at once: while the dealer
    chooses his discard, every seat's view already shows the trump suit."""
    d = new(euchre, {}, "KS")
    call(d, "S", 2, rnd=1)
    assert d.to_act == 0 and all(a.startswith("discard") for a in legal(d))
    for seat in range(4):
        assert d.observation(seat).trump == "spades"


def test_E11_makers_and_defenders(euchre):
    """E11: seat 3 orders up: team B (1, 3) are the makers; they take 3 tricks and score."""
    d = scripted(euchre, 3, 3)
    assert d.observation(2).declarer == 3
    assert list(d.gains) == [0, 1, 0, 1]


def test_E12_dealer_takes_the_up_card_and_discards_any_of_six(euchre):
    """E12: after an order-up the dealer holds 6 cards, the up-card among them, and is
    offered exactly one discard of each; the discard leaves his hand and is out of play."""
    hands = {0: ["9C", "10C", "JC", "QC", "KC"]}
    d = new(euchre, hands, "AH")
    call(d, "H", 2, rnd=1)
    assert sorted(d.observation(0).hand) == sorted([*hands[0], "AH"])
    assert legal(d) == {f"discard {c}" for c in [*hands[0], "AH"]}
    d.apply("discard KC")
    assert sorted(d.observation(0).hand) == sorted(["9C", "10C", "JC", "QC", "AH"])
    while not d.is_over:
        d.apply(sorted(legal(d))[0])
    played = {c for _, cards, _ in d.observation(0).tricks for _, c in cards}
    assert "KC" not in played and "AH" in played


def test_E12_the_dealer_may_discard_the_up_card(euchre):
    """E12: the up-card itself may be discarded: the dealer keeps his dealt hand."""
    d = new(euchre, {0: ["9C", "10C", "JC", "QC", "KC"]}, "AH")
    call(d, "H", 1, rnd=1)
    d.apply("discard AH")
    assert sorted(d.observation(0).hand) == sorted(["9C", "10C", "JC", "QC", "KC"])
    assert d.phase == "play" and d.observation(0).trump == "hearts"


def test_E12_dealer_sits_out_when_his_partner_orders_up_alone(euchre):
    """E12 (settled there), E34: seat 2 orders up alone: the dealer sits out, takes no card
    and discards nothing; the up-card's suit is trump; seat 1 leads."""
    hands = {0: ["9C", "10C", "JC", "QC", "KC"]}
    d = new(euchre, hands, "AH")
    call(d, "H", 2, alone=True, rnd=1)
    obs = d.observation(0)
    assert obs.trump == "hearts" and obs.sitting_out == (0,)
    assert d.phase == "play" and d.to_act == 1
    assert sorted(obs.hand) == sorted(hands[0])
    assert all(a.startswith("play") for a in legal(d))


def test_E13_E14_second_round_names_any_suit_but_the_rejected_one(euchre):
    """E13, E14: after four passes the up-card's suit is rejected; from seat d+1, the dealer
    last, each may pass or name another suit, alone or not."""
    for dealer in range(4):
        d = new(euchre, {}, "QD", dealer=dealer)
        run(d, ["pass"] * 4)
        expected = {"pass"} | {
            f"bid {n}{q}" for n in ("clubs", "hearts", "spades") for q in ("", " alone")
        }
        for k in (1, 2, 3, 4):
            assert d.to_act == (dealer + k) % 4
            assert legal(d) == expected
            with pytest.raises(trickcore.IllegalActionError):
                d.apply("bid diamonds")
            if k < 4:
                d.apply("pass")
        d.apply("bid spades")
        assert d.observation(0).trump == "spades" and d.observation(0).declarer == dealer


def test_E14_no_pickup_in_the_second_round(euchre):
    """E14: a suit named in the second round: nobody picks up or discards; the first
    naming ends the calls and seat d+1 leads at once."""
    hands = {0: ["9C", "10C", "JC", "QC", "KC"]}
    d = new(euchre, hands, "AH")
    run(d, ["pass"] * 5)
    d.apply("bid clubs")  # seat 2
    assert d.phase == "play" and d.to_act == 1
    assert sorted(d.observation(0).hand) == sorted(hands[0])
    assert all(a.startswith("play") for a in legal(d))
    assert d.observation(0).laid_away == ()


def test_E15_all_pass_twice_throws_the_deal_in(euchre):
    """E15: eight passes: the deal is over, thrown in, scored for nobody."""
    d = euchre.new_deal(seed=4)
    run(d, ["pass"] * 7)
    assert not d.is_over and legal(d) == {"pass"} | {
        f"bid {NAME[s]}{q}"
        for s in SUITS
        if s != suit(d.observation(0).turnup)
        for q in ("", " alone")
    }
    d.apply("pass")
    assert d.is_over and d.observation(0).redealt and d.gains is None


def test_E15_no_limit_on_thrown_in_deals(euchre):
    """E15 (settled there): 40 thrown-in deals in a row end nothing; the match goes on with
    the scores unchanged and the deal passing each time."""
    m = euchre.new_match(seed=5, scores=[3, 4, 3, 4])
    for k in range(40):
        assert not m.is_over and m.deal.dealer == k % 4
        run(m, ["pass"] * 8)
    assert not m.is_over and m.scores == [3, 4, 3, 4] and m.deals_played == 0


@pytest.mark.parametrize("caller", range(4))
def test_E16_a_lone_makers_partner_sits_out_and_is_offered_nothing(euchre, caller):
    """E16, E18: a maker alone: his partner sits out (Observation.sitting_out), holds his 5
    cards to the end, is never to act; every trick holds 3 cards."""
    d = new(euchre, {}, "9D")
    call(d, "H", caller, alone=True)
    partner = (caller + 2) % 4
    while not d.is_over:
        assert d.to_act != partner
        assert d.observation(0).sitting_out == (partner,)
        d.apply(sorted(legal(d))[0])
    obs = d.observation(caller)
    assert len(obs.tricks) == 5 and obs.hand_sizes[partner] == 5
    assert all(
        len(cards) == 3 and partner not in [s for s, _ in cards] for _, cards, _ in obs.tricks
    )


def test_E16_alone_is_part_of_the_call(euchre):
    """E16: the decision to go alone is made with the call; after a plain order-up nothing
    offers it, and nobody sits out."""
    d = new(euchre, {}, "9D")
    call(d, "H", 1)
    assert d.observation(0).sitting_out == ()
    while not d.is_over:
        assert not any("alone" in a for a in legal(d))
        d.apply(sorted(legal(d))[0])
    assert all(len(cards) == 4 for _, cards, _ in d.observation(0).tricks)


# ---------------------------------------------------------------- E17–E21: play
@pytest.mark.parametrize("dealer", range(4))
def test_E17_left_of_the_dealer_leads(euchre, dealer):
    """E17: seat d+1 leads the first trick; the winner leads the next (E20)."""
    d = new(euchre, {}, "9D", dealer=dealer)
    call(d, "H", (dealer + 2) % 4)
    assert d.to_act == (dealer + 1) % 4
    while not d.is_over:
        d.apply(sorted(legal(d))[0])
    tricks = d.observation(0).tricks
    assert len(tricks) == 5 and tricks[0][0] == (dealer + 1) % 4
    for prev, nxt in zip(tricks, tricks[1:]):
        assert nxt[0] == prev[2] and nxt[1][0][0] == prev[2]


@pytest.mark.parametrize("dealer", range(4))
def test_E17_the_next_player_leads_when_the_leader_sits_out(euchre, dealer):
    """E17, E35: seat d+3 calls alone: seat d+1 sits out, so seat d+2 leads."""
    d = new(euchre, {}, "9D", dealer=dealer)
    call(d, "H", (dealer + 3) % 4, alone=True)
    assert d.observation(0).sitting_out == ((dealer + 1) % 4,)
    assert d.to_act == (dealer + 2) % 4


def test_E18_play_goes_clockwise_skipping_who_sits_out(euchre):
    """E18: seat 1 alone (seat 3 sits out): in every trick, each player after the leader is
    the next one clockwise but seat 3."""
    d = new(euchre, {}, "9D")
    call(d, "H", 1, alone=True)
    while not d.is_over:
        d.apply(sorted(legal(d))[-1])
    for leader, cards, _ in d.observation(0).tricks:
        seats = [s for s, _ in cards]
        expected = [leader]
        while len(expected) < 3:
            nxt = (expected[-1] + 1) % 4
            expected.append(nxt if nxt != 3 else 0)
        assert seats == expected


def test_E19_follow_suit_no_duty_to_trump_or_beat(euchre):
    """E19: seat 2 has no club: after a club lead he may play any card (trump or not);
    seat 3 holds a higher and a lower club and may play either."""
    hands = {
        1: ["QC", "AD", "KD", "QD", "10D"],
        2: ["9H", "AS", "KS", "QS", "10S"],
        3: ["AC", "9C", "9S", "JS", "9D"],
    }
    d = new(euchre, hands, "JD")
    call(d, "H", 1)
    d.apply("play QC")
    assert legal(d) == plays(hands[2])
    d.apply("play AS")
    assert legal(d) == plays(["AC", "9C"])


def test_E19_E20_against_the_restated_rules_in_random_deals(euchre):
    """E7–E25 restated: in random deals (random calls, alone or not, discards and cards)
    the engine offers the same player the same actions as `Ref`, the tricks go to the same
    players and the deal scores are the same; every kind of deal occurs."""
    kinds: set[str] = set()
    for seed in range(120):
        ref = random_deal(euchre, seed, seed % 4)
        if ref.thrown_in:
            kinds.add("thrown in")
        else:
            kinds.add(f"round {1 if ref.calls < 4 else 2}" + (" alone" if ref.alone else ""))
    assert kinds == {"thrown in", "round 1", "round 2", "round 1 alone", "round 2 alone"}


def test_E20_highest_trump_wins_else_highest_of_the_suit_led(euchre):
    """E20: hearts trump. The A♠ of a void player does not beat the led K♣; the lowest
    trump (9♥) of a void player beats the led A♣; the winner leads next."""
    deals = [
        (
            {
                1: ["KC", "AD", "KD", "QD", "10D"],
                2: ["AS", "KS", "QS", "10S", "9S"],
                3: ["9C", "10C", "AH", "KH", "QH"],
                0: ["QC", "JC", "9D", "JS", "10H"],
            },
            ["KC", "AS", "9C", "QC"],
            1,
        ),
        (
            {
                1: ["AC", "AD", "KD", "QD", "10D"],
                2: ["9H", "AS", "KS", "QS", "10S"],
                3: ["9C", "10C", "9S", "JS", "KH"],
                0: ["QC", "JC", "KC", "9D", "10H"],
            },
            ["AC", "9H", "9C", "KC"],
            2,
        ),
    ]
    for hands, cards, winner in deals:
        d = new(euchre, hands, "JD")
        call(d, "H", 1)
        run(d, [f"play {c}" for c in cards])
        assert d.observation(0).tricks[0][2] == winner and d.to_act == winner


def test_E21_E22_tricks_count_per_team(euchre):
    """E21, E22: the makers' tricks are counted together: seat 1 takes 2 and his partner 1:
    3 tricks, 1 point."""
    d = scripted(euchre, 1, 3, split=True)
    won = d.observation(0).tricks_won
    assert won[1] > 0 and won[3] > 0 and won[1] + won[3] == 3
    assert list(d.gains) == [0, 1, 0, 1]


# ---------------------------------------------------------------- E22–E26: scoring, match
@pytest.mark.parametrize("made", range(6))
@pytest.mark.parametrize("caller", [0, 1])
def test_E22_E24_E36_makers_not_alone(euchre, made, caller):
    """E22, E24, E36: 3 or 4 tricks +1, all 5 +2, fewer than 3: the defenders +2."""
    d = scripted(euchre, caller, made)
    assert sum(d.observation(0).tricks_won[s] for s in (caller, caller + 2)) == made
    assert list(d.gains) == deal_gains(caller, made, False)
    points = {0: 2, 1: 2, 2: 2, 3: 1, 4: 1, 5: 2}[made]
    team = caller % 2 if made >= 3 else 1 - caller % 2
    assert d.gains[team] == d.gains[team + 2] == points and d.gains[1 - team] == 0


@pytest.mark.parametrize("made", range(6))
@pytest.mark.parametrize("caller", [2, 3])
def test_E23_E24_E37_maker_alone(euchre, made, caller):
    """E23, E24, E37: alone, 3 or 4 tricks +1, all 5 +4, fewer than 3: the defenders +2."""
    d = scripted(euchre, caller, made, alone=True)
    assert d.observation(0).tricks_won[caller] == made
    assert list(d.gains) == deal_gains(caller, made, True)
    assert max(d.gains) == {0: 2, 1: 2, 2: 2, 3: 1, 4: 1, 5: 4}[made]


def test_E25_exactly_one_team_scores(euchre):
    """E25: in random played deals one team gets points (both partners the same), the other
    none; a thrown-in deal has no scores."""
    for seed in range(30):
        ref = random_deal(euchre, 1000 + seed, seed % 4)
        gains = ref.gains()
        if gains is None:
            continue
        assert gains[0] == gains[2] and gains[1] == gains[3]
        assert (gains[0] == 0) != (gains[1] == 0)


def scripted_match(v, scores, caller, made, alone=False):
    """A match from a scoreboard whose first deal (dealer 0) is planned."""
    order, tricks = planned(v, caller, made, alone)
    m = v.new_match(deck_orders=[order], scores=list(scores), dealer=0)
    call(m, "H", caller, alone)
    play_tricks(m, tricks)
    return m


def test_E26_the_match_ends_when_a_team_has_10(euchre):
    """E26: 9–5, team A makes 3 tricks: 10 points, the match ends, A (seats 0 and 2) wins."""
    m = scripted_match(euchre, [9, 5, 9, 5], 0, 3)
    assert m.scores == [10, 5, 10, 5] and m.is_over and sorted(m.winners) == [0, 2]


def test_E26_below_10_the_match_goes_on(euchre):
    """E26: 7–8, team B makes 3: 7–9, the next deal is dealt by seat 1."""
    m = scripted_match(euchre, [7, 8, 7, 8], 1, 4)
    assert m.scores == [7, 9, 7, 9] and not m.is_over and m.deal.dealer == 1


def test_E26_no_limit_on_deals(euchre):
    """E26 (settled there): a long match of random deals ends only when a team reaches 10."""
    rng = random.Random(7)
    for seed in range(5):
        m = euchre.new_match(seed=seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        team = m.winners[0] % 2
        assert sorted(m.winners) == [team, team + 2] and m.scores[team] >= 10 > m.scores[1 - team]


# ---------------------------------------------------------------- E27, E28: information
def test_E27_up_card_calls_and_trick_counts_are_public(euchre):
    """E27: every seat sees the up-card through both rounds of calls; every call and card
    played, and each team's trick count, are the same in every seat's view."""
    d = new(euchre, {}, "9D")
    run(d, ["pass"] * 6)
    for seat in range(4):
        assert d.observation(seat).turnup == "9D"
    d.apply("bid hearts")  # seat 3
    while not d.is_over:
        views = [d.observation(s) for s in range(4)]
        assert len({v.bids for v in views}) == 1 and len(views[0].bids) == 7
        assert len({(v.trick, v.tricks, v.tricks_won) for v in views}) == 1
        d.apply(sorted(legal(d))[0])


def test_E28_the_discard_is_seen_by_the_dealer_alone(euchre):
    """E28: the dealer's discard is in his own view only, during play and after the deal;
    the kitty under the up-card is never in anybody's view."""
    order = list(DECK)
    random.Random(28).shuffle(order)
    hands, upcard, kitty = dealt(order, 0)
    d = euchre.new_deal(order, dealer=0)
    call(d, suit(upcard), 1, rnd=1)
    gone = hands[0][0]
    d.apply(f"discard {gone}")
    while True:
        assert gone in seen(d.observation(0))
        for seat in range(4):
            assert not seen(d.observation(seat)) & set(kitty)
            if seat:
                assert gone not in seen(d.observation(seat))
        if d.is_over:
            break
        d.apply(sorted(legal(d))[0])


def test_E28_the_hand_of_a_player_sitting_out_is_seen_by_nobody_else(euchre):
    """E28: seat 3 sits out (seat 1 alone): his five cards are in no other seat's view, at
    any point of the deal."""
    order = list(DECK)
    random.Random(29).shuffle(order)
    hands, upcard, _ = dealt(order, 0)
    d = euchre.new_deal(order, dealer=0)
    named = next(s for s in SUITS if s != suit(upcard))
    call(d, named, 1, alone=True)
    while True:
        for seat in (0, 1, 2):
            assert not seen(d.observation(seat)) & set(hands[3])
        if d.is_over:
            break
        d.apply(sorted(legal(d))[0])


# ---------------------------------------------------------------- E29–E43: worked examples
E29_DECK = [r + s for s in SUITS for r in ("9", "10", "J", "Q", "K", "A")]


def test_E29_deal_by_deck_order(euchre):
    """E29: the deck 9♣ ... A♠ dealt by seat 0: the four hands as listed, up-card J♠, the
    kitty Q♠ K♠ A♠ in nobody's hand."""
    d = euchre.new_deal(E29_DECK, dealer=0)
    expected = {
        1: ["9C", "10C", "JC", "KD", "AD"],
        2: ["QC", "KC", "9H", "10H", "JH"],
        3: ["AC", "9D", "10D", "QH", "KH"],
        0: ["JD", "QD", "AH", "9S", "10S"],
    }
    for seat, h in expected.items():
        assert sorted(d.observation(seat).hand) == sorted(h)
        assert d.observation(seat).turnup == "JS"
        assert not seen(d.observation(seat)) & {"QS", "KS", "AS"}


def test_E30_rejected_spades_and_clubs_named(euchre):
    """E30: all pass in the first round: spades are rejected; seat 1 may name clubs,
    diamonds or hearts but not spades. He names clubs: his J♣ is the right bower and wins
    his lead against the A♣ (the J♠ is out of play)."""
    d = euchre.new_deal(E29_DECK, dealer=0)
    run(d, ["pass"] * 4)
    assert legal(d) == {"pass"} | {
        f"bid {n}{q}" for n in ("clubs", "diamonds", "hearts") for q in ("", " alone")
    }
    d.apply("bid clubs")
    run(d, ["play JC", "play QC", "play AC"])
    assert legal(d) == plays(["JD", "QD", "AH", "9S", "10S"])  # no club: J♠ is not dealt
    d.apply("play 9S")
    assert d.observation(0).tricks[0][2] == 1


def test_E31_hearts_trump_bowers_and_following(euchre):
    """E31: hearts trump in E29's deal: seat 0 (J♦ Q♦ A♥ 9♠ 10♠) must play his Q♦ to a
    diamond lead, and J♦ or A♥ to a heart lead."""
    d = euchre.new_deal(E29_DECK, dealer=0)
    run(d, ["pass"] * 4)
    d.apply("bid hearts")  # seat 1
    run(d, ["play AD", "play 9H", "play 9D"])
    assert legal(d) == plays(["QD"])
    d.apply("play QD")
    assert d.observation(0).tricks[0][2] == 2  # the 9♥ trumps
    d.apply("play 10H")  # seat 2 leads a heart
    d.apply("play QH")
    assert legal(d) == plays(["JD", "AH"])
    d.apply("play JD")
    d.apply(sorted(legal(d))[0])  # seat 1, no trump
    assert d.observation(0).tricks[1][2] == 0  # the left bower beats Q♥ and 10♥


def test_E32_void_by_the_left_bower(euchre):
    """E32: hearts trump; seat 2 holds J♦ K♣ 9♣ Q♠ 10♠: to a diamond lead he holds no
    diamond and may play any card; the J♦ wins as a trump, unless a higher trump comes."""
    for top in (None, "JH"):
        hand0 = ["9D", "AS", "KS", "JS", "AC"] if top is None else [top, "AS", "KS", "JS", "AC"]
        hands = {
            1: ["AD", "KD", "QD", "10D", "QC"],
            2: ["JD", "KC", "9C", "QS", "10S"],
            3: ["9H", "10H", "QH", "KH", "AH"],
            0: hand0,
        }
        d = new(euchre, hands, "JC")
        call(d, "H", 1)
        d.apply("play AD")
        assert legal(d) == plays(hands[2])
        d.apply("play JD")
        d.apply("play 9H")
        d.apply(f"play {hand0[0]}")
        assert d.observation(0).tricks[0][2] == (2 if top is None else 0)


def test_E33_order_up_and_discard(euchre):
    """E33: dealer 0, seat 3 orders up the 9♥: hearts trump, seat 3 the maker, team B the
    makers; the dealer takes the 9♥ and discards one of his 6 cards."""
    d = new(euchre, {}, "9H")
    run(d, ["pass", "pass", "bid hearts"])
    assert d.observation(1).declarer == 3
    assert d.to_act == 0 and "9H" in d.observation(0).hand and len(d.observation(0).hand) == 6
    assert len(legal(d)) == 6
    d.apply("discard 9H")
    assert d.observation(1).trump == "hearts" and len(d.observation(0).hand) == 5
    while not d.is_over:
        d.apply(sorted(legal(d))[0])
    made = d.observation(0).tricks_won[1] + d.observation(0).tricks_won[3]
    assert list(d.gains) == deal_gains(3, made, False)


def test_E34_dealers_partner_alone(euchre):
    """E34: dealer 0, seat 2 orders up alone: the up-card's suit is trump; seat 0 sits out
    and does not pick up; seat 1 leads; tricks hold 3 cards (seats 1, 2, 3)."""
    d = new(euchre, {0: ["9C", "10C", "JC", "QC", "KC"]}, "AS")
    run(d, ["pass", "bid spades alone"])
    assert d.observation(0).trump == "spades" and d.observation(0).sitting_out == (0,)
    assert "AS" not in d.observation(0).hand and d.to_act == 1
    for _ in range(3):
        d.apply(sorted(legal(d))[0])
    leader, cards, _ = d.observation(0).tricks[0]
    assert leader == 1 and [s for s, _ in cards] == [1, 2, 3]


def test_E35_lead_when_the_leader_sits_out(euchre):
    """E35: dealer 0, seat 3 names diamonds alone in the second round: seat 1 sits out and
    seat 2 leads."""
    d = new(euchre, {}, "9S")
    run(d, ["pass"] * 6)
    d.apply("bid diamonds alone")
    assert d.observation(0).sitting_out == (1,) and d.to_act == 2
    assert d.observation(2).trump == "diamonds"


def test_E38_match_end_team_a_marches(euchre):
    """E38: A 8, B 9; team A marches (not alone): A has 10 and wins though B was ahead."""
    m = scripted_match(euchre, [8, 9, 8, 9], 2, 5)
    assert m.scores == [10, 9, 10, 9] and m.is_over and sorted(m.winners) == [0, 2]


def test_E39_match_end_by_euchre(euchre):
    """E39: A 9, B 6; team B makes trump and takes 2 tricks: A scores 2, wins with 11."""
    m = scripted_match(euchre, [9, 6, 9, 6], 1, 2)
    assert m.scores == [11, 6, 11, 6] and m.is_over and sorted(m.winners) == [0, 2]


def test_E40_a_thrown_in_deal(euchre):
    """E40: all eight calls are passes: nobody scores; seat 1 deals next."""
    m = euchre.new_match(seed=40, scores=[2, 5, 2, 5])
    run(m, ["pass"] * 8)
    assert m.scores == [2, 5, 2, 5] and m.deals_played == 0 and not m.is_over
    assert m.deal.dealer == 1 and m.to_act == 2


def test_E41_dealers_discard_keeps_the_left_bower(euchre):
    """E41: spades ordered up, the dealer holds J♣ 10♥ 9♥ K♦ Q♠ and picks up A♠; he may
    discard any of the six, discards 9♥, and his J♣ follows a spade lead as the left
    bower."""
    hands = {0: ["JC", "10H", "9H", "KD", "QS"], 1: ["9S", "AD", "QD", "10D", "9D"]}
    d = new(euchre, hands, "AS")
    run(d, ["bid spades"])
    assert legal(d) == {f"discard {c}" for c in ["JC", "10H", "9H", "KD", "QS", "AS"]}
    d.apply("discard 9H")
    assert sorted(d.observation(0).hand) == sorted(["JC", "AS", "QS", "KD", "10H"])
    d.apply("play 9S")
    run(d, [sorted(legal(d))[0]])
    run(d, [sorted(legal(d))[0]])
    assert legal(d) == plays(["JC", "AS", "QS"])


def test_E42_dealer_picks_it_up_alone(euchre):
    """E42: the others pass and the dealer calls "pick it up alone": the up-card's suit is
    trump, he picks up and discards, his partner (d+2) sits out and seat d+1 leads."""
    for dealer in range(4):
        d = new(euchre, {}, "10C", dealer=dealer)
        run(d, ["pass"] * 3 + ["bid clubs alone"])
        assert d.to_act == dealer and "10C" in d.observation(dealer).hand
        d.apply(sorted(legal(d))[0])
        obs = d.observation(dealer)
        assert obs.sitting_out == ((dealer + 2) % 4,) and obs.trump == "clubs"
        assert len(obs.hand) == 5 and d.to_act == (dealer + 1) % 4


def test_E43_named_suit_bowers_though_the_rejected_suit(euchre):
    """E43: up-card K♣, all passed; seat d+2 names spades: J♠ right bower, J♣ left bower
    (although clubs were rejected): J♠ beats J♣ beats A♠, and the J♣ follows spades."""
    hands = {
        1: ["JC", "AD", "KD", "QD", "10D"],
        2: ["JS", "AC", "QC", "10C", "9C"],
        3: ["AS", "AH", "KH", "QH", "JH"],
    }
    d = new(euchre, hands, "KC")
    run(d, ["pass"] * 5 + ["bid spades"])
    d.apply("play JC")  # seat 1 leads the left bower: a trump lead
    assert legal(d) == plays(["JS"])
    run(d, ["play JS"])
    assert legal(d) == plays(["AS"])
    d.apply("play AS")
    d.apply(sorted(legal(d))[0])
    assert d.observation(0).tricks[0][2] == 2


# ---------------------------------------------------------------- house rules
@pytest.mark.parametrize("dealer", range(4))
def test_E44_stick_the_dealer(dealer):
    """E44 (euchre-stick-the-dealer): the dealer may pass in the first round, but after
    seven passes he must name a suit other than the rejected one, alone or not; the others'
    calls are as in the base game (E10, E14)."""
    v = house("euchre-stick-the-dealer")
    d = new(v, {}, "QD", dealer=dealer)
    up = {"pass", "bid diamonds", "bid diamonds alone"}
    names = {f"bid {n}{q}" for n in ("clubs", "hearts", "spades") for q in ("", " alone")}
    for k in range(7):
        assert d.to_act == (dealer + 1 + k) % 4
        assert legal(d) == (up if k < 4 else {"pass"} | names)
        d.apply("pass")
    assert d.to_act == dealer and legal(d) == names
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("pass")
    d.apply("bid hearts alone")
    obs = d.observation(0)
    assert obs.declarer == dealer and obs.sitting_out == ((dealer + 2) % 4,)
    assert d.phase == "play" and d.to_act == (dealer + 1) % 4


def test_E44_no_deal_is_thrown_in():
    """E44: in random deals every deal is played and scored (never thrown in)."""
    v = house("euchre-stick-the-dealer")
    rng = random.Random(44)
    for seed in range(40):
        d = v.new_deal(seed=seed, dealer=seed % 4)
        while not d.is_over:
            acts = sorted(legal(d))
            d.apply("pass" if "pass" in acts and rng.random() < 0.9 else rng.choice(acts))
        assert not d.observation(0).redealt and d.gains is not None and max(d.gains) > 0


def test_E46_no_trump_named_in_the_second_round_only(euchre):
    """E46 (euchre-no-trump): "no trump" (alone or not) is a second-round call, never a
    first-round one; the base game has no such call."""
    v = house("euchre-no-trump")
    d = new(v, {}, "9D")
    assert legal(d) == {"pass", "bid diamonds", "bid diamonds alone"}
    run(d, ["pass"] * 4)
    assert {"bid notrump", "bid notrump alone"} <= legal(d)
    assert "bid diamonds" not in legal(d)
    b = new(euchre, {}, "9D")
    run(b, ["pass"] * 4)
    assert not any("notrump" in a for a in legal(b))


def test_E46_no_trump_no_bowers_highest_of_the_suit_led(euchre):
    """E46: with no trump a jack ranks between the Q and the 10 of its suit, a void player's
    card never wins, and the highest card of the suit led takes the trick."""
    v = house("euchre-no-trump")
    hands = {
        1: ["QD", "AC", "KC", "QC", "10C"],
        2: ["JD", "AS", "KS", "QS", "10S"],
        3: ["JH", "AH", "KH", "QH", "10H"],
        0: ["10D", "9S", "9H", "9C", "JC"],
    }
    d = new(v, hands, "9D")
    run(d, ["pass"] * 5 + ["bid notrump"])  # seat 2 names no trump
    assert d.observation(0).trump is None
    assert d.to_act == 1
    d.apply("play QD")
    assert legal(d) == plays(["JD"])  # the J♦ is a diamond: no left bower
    run(d, ["play JD", "play JH", "play 10D"])
    assert d.observation(0).tricks[0][2] == 1  # Q♦ beats J♦; the J♥ of a void hand does not win


def test_E46_no_trump_scoring_as_E22_E24(euchre):
    """E46: a no-trump maker's team taking 3 scores 1; alone taking 5, 4."""
    v = house("euchre-no-trump")
    for alone, made in ((False, 5), (False, 3), (True, 5), (True, 2)):
        d = v.new_deal(seed=46 + made, dealer=0)
        run(d, ["pass"] * 4)
        d.apply("bid notrump alone" if alone else "bid notrump")
        while not d.is_over:
            d.apply(sorted(legal(d))[0])
        won = d.observation(0).tricks_won
        got = won[1] + won[3]
        assert list(d.gains) == deal_gains(1, got, alone)


@pytest.mark.parametrize("dealer", range(4))
def test_E47_assist_alone(euchre, dealer):
    """E47 (euchre-assist-alone): in the first round the dealer's partner may order up only
    alone; the others (the dealer included) may order up with or without alone; in the
    second round the dealer's partner may name a suit without going alone. The base game
    lets him order up plainly."""
    v = house("euchre-assist-alone")
    partner = (dealer + 2) % 4
    d = new(v, {}, "QD", dealer=dealer)
    for k in (1, 2, 3, 4):
        seat = (dealer + k) % 4
        assert d.to_act == seat
        if seat == partner:
            assert legal(d) == {"pass", "bid diamonds alone"}
            with pytest.raises(trickcore.IllegalActionError):
                d.apply("bid diamonds")
        else:
            assert legal(d) == {"pass", "bid diamonds", "bid diamonds alone"}
        d.apply("pass")
    d.apply("pass")  # seat d+1 opens the second round
    assert d.to_act == partner and "bid hearts" in legal(d)
    d.apply("bid hearts")
    assert d.observation(0).sitting_out == () and d.observation(0).declarer == partner
    d = new(v, {}, "QD", dealer=dealer)
    run(d, ["pass", "bid diamonds alone"])
    assert d.observation(0).sitting_out == (dealer,) and d.to_act == (dealer + 1) % 4
    b = new(euchre, {}, "QD", dealer=dealer)
    b.apply("pass")
    assert legal(b) == {"pass", "bid diamonds", "bid diamonds alone"}


@pytest.mark.parametrize("dealer", range(4))
def test_E45_defenders_asked_from_the_makers_left_first_call_stands(dealer):
    """E45 (euchre-defend-alone): after a lone order-up the defenders are asked in turn from
    the maker's left; once one calls "defend alone" the other is not asked; the caller's
    partner sits out with the maker's partner, and tricks hold 2 cards (E18)."""
    v = house("euchre-defend-alone")
    maker = (dealer + 1) % 4
    d = new(v, {}, "QD", dealer=dealer)
    d.apply("bid diamonds alone")
    first, second = (maker + 1) % 4, (maker + 3) % 4
    assert d.to_act == first and legal(d) == {"defend_alone", "keep"}
    d.apply("keep")
    assert d.to_act == second and legal(d) == {"defend_alone", "keep"}
    d.apply("defend_alone")
    if second == dealer:  # E12: the dealer takes up the up-card and lays one card away
        assert d.phase == "pickup" and d.to_act == dealer
        d.apply(sorted(legal(d))[0])
    assert d.phase == "play"
    assert set(d.observation(0).sitting_out) == {(maker + 2) % 4, first}
    while not d.is_over:
        d.apply(sorted(legal(d))[0])
    assert all(len(t.cards) == 2 for t in d.tricks) and len(d.tricks) == 5
    # the first defender calls: the second is never asked
    d = new(v, {}, "QD", dealer=dealer)
    d.apply("bid diamonds alone")
    d.apply("defend_alone")
    if dealer in (first, maker):  # E12: a dealer who plays takes up the up-card
        assert d.phase == "pickup" and d.to_act == dealer
        d.apply(sorted(legal(d))[0])
    assert d.phase == "play"  # E12 (settled): a dealer who sits out takes nothing up
    assert set(d.observation(0).sitting_out) == {(maker + 2) % 4, second}


def test_E45_only_after_a_lone_maker(euchre):
    """E45: a maker who does not go alone gets no defend-alone question; nor does the base
    game ask it after a lone call."""
    v = house("euchre-defend-alone")
    d = new(v, {}, "QD", dealer=0)
    d.apply("bid diamonds")
    assert d.phase != "decide" and "defend_alone" not in legal(d)
    b = new(euchre, {}, "QD", dealer=0)
    b.apply("bid diamonds alone")
    assert b.phase == "pickup" and "defend_alone" not in legal(b)  # E12: dealer 0 takes up


def test_E45_lone_defender_who_euchres_scores_4():
    """E45: the lone defender euchres the lone maker: 4 points for his team (2 without the
    call, E24); the maker's team scores nothing."""
    v = house("euchre-defend-alone")
    # dealer 0, maker 1 holds the five lowest clubs; defender 2 holds the top hearts trumps
    hands = {1: ["9C", "10C", "QC", "KC", "AC"], 2: ["JH", "JD", "AH", "KH", "QH"]}
    for call_it, expected in ((True, 4), (False, 2)):
        d = new(v, hands, "9H", dealer=0)
        d.apply("bid hearts alone")
        assert d.to_act == 2
        d.apply("defend_alone" if call_it else "keep")
        if not call_it:
            d.apply("keep")  # seat 0, the dealer, is asked next
        while not d.is_over:
            d.apply(sorted(legal(d))[0])
        assert d.gains is not None
        assert d.gains[0] == d.gains[2] == expected and d.gains[1] == d.gains[3] == 0


FARMER = ["9C", "10C", "9D", "10D", "9H"]  # E49: five cards, all 9s and 10s


def kitty(order: Sequence[str]) -> list[str]:
    """E7, E8: deck positions 22-24 (the cards left out of the deal)."""
    return list(order[21:24])


@pytest.mark.parametrize("dealer", range(4))
def test_E49_farmer_exchanges_three_for_the_kitty(dealer):
    """E49 (euchre-farmers-hand): the holder of a farmer's hand is offered the exchange
    before the first-round calls; he lays three cards of his choice away and takes the
    three kitty cards (positions 22-24); the others see only that he discarded; then the
    calls begin with seat d+1 (E10)."""
    v = house("euchre-farmers-hand")
    holder = (dealer + 2) % 4
    order = v.stack_deck({holder: FARMER}, dealer=dealer, turnup="QS")
    d = v.new_deal(order, dealer=dealer)
    taken = kitty(order)
    assert d.phase == "decide" and d.to_act == holder and legal(d) == {"exchange", "keep"}
    d.apply("exchange")
    assert legal(d) == {f"discard {c}" for c in FARMER}
    for c in ("9C", "10C", "9D"):
        assert d.to_act == holder
        d.apply(f"discard {c}")
    assert sorted(d.observation(holder).hand) == sorted(["10D", "9H", *taken])
    other = (holder + 1) % 4
    assert d.observation(other).log[-3:] == ((holder, "discard a card"),) * 3
    assert d.phase == "bid" and d.to_act == (dealer + 1) % 4
    while not d.is_over:  # E28: the laid-away cards never come into play
        d.apply(sorted(legal(d))[0])
    played = {c for t in d.observation(0).tricks for _, c in t[1]}
    assert not played & {"9C", "10C", "9D"} and played >= set(taken) - {"QS"}


def test_E49_keep_and_who_is_asked():
    """E49: a holder who keeps ends the offer (with 8 nines and tens in the deck there is
    never a second farmer's hand) and the calls begin; a hand with a card above 10 is never
    asked; the base game asks nothing."""
    v = house("euchre-farmers-hand")
    order = v.stack_deck({3: FARMER}, dealer=0, turnup="QD")
    d = v.new_deal(order, dealer=0)
    assert d.phase == "decide" and d.to_act == 3 and legal(d) == {"exchange", "keep"}
    d.apply("keep")
    assert d.phase == "bid" and d.to_act == 1
    assert sorted(d.observation(3).hand) == sorted(FARMER)
    almost = ["9C", "10C", "9D", "10D", "JH"]  # a jack: not a farmer's hand
    d = v.new_deal(v.stack_deck({1: almost}, dealer=0, turnup="QD"), dealer=0)
    assert d.phase == "bid" and "exchange" not in legal(d)
    base = trickcore.load_variant("euchre")
    b = base.new_deal(base.stack_deck({1: FARMER}, dealer=0, turnup="QD"), dealer=0)
    assert b.phase == "bid" and "exchange" not in legal(b)


def test_E48_game_to_7(euchre):
    """E48 (euchre-game-to-7): the match ends at 7: 6–4, team A makes 3 and wins with 7;
    at 6 it goes on; the base game goes on at 7."""
    v = house("euchre-game-to-7")
    m = scripted_match(v, [6, 4, 6, 4], 0, 3)
    assert m.scores == [7, 4, 7, 4] and m.is_over and sorted(m.winners) == [0, 2]
    m = scripted_match(v, [5, 4, 5, 4], 0, 3)
    assert m.scores == [6, 4, 6, 4] and not m.is_over
    b = scripted_match(euchre, [6, 4, 6, 4], 0, 3)
    assert b.scores == [7, 4, 7, 4] and not b.is_over


def test_a_turned_up_trump_stays_trump_after_the_dealer_picks_it_up():
    """E12 with a house rule `trump: turnup` (the up-card's suit is trump whatever is
    called): the dealer's pickup takes the card into his hand, and its suit is still trump
    when play begins."""
    v = trickcore.variant_from_text('extends "euchre"\nplay {\n  trump: turnup\n}\n', "up")
    d = v.new_deal(v.stack_deck({}, turnup="QD", dealer=0), dealer=0)
    d.apply("bid diamonds")
    assert d.phase == "pickup" and "QD" in d.hand_texts(0)
    d.apply(d.legal_actions()[0])
    assert d.phase == "play" and d.public_view().trump == "diamonds"
