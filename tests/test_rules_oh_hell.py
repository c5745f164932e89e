"""Oh Hell rules (O1–O36 of docs/rules/oh-hell.md) played through the public API, and the
house rules O37–O42 (`variants/oh-hell-*.rules`).

Each test plays a rule on real cards, in `variants/oh-hell.rules` or in one of its house-rule
files; none of them reads the compiled model. Deals are built from deck orders written out
here (O6 restated) or with `stack_deck(..., deal_number=k, turnup=...)`, so the play comes
out as in the sheet's worked examples (O20–O36).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import texts

import trickcore

# O2, restated here (not read from the variant): ranks high to low, four suits.
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
DECK = [r + s for s in SUITS for r in RANKS]
CARD_RE = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AKQJ])[CDHS](?![0-9A-Z])")

State = Any  # a trickcore.Deal or trickcore.Match


@pytest.fixture(scope="module")
def oh_hell() -> trickcore.Variant:
    """The base game, O1–O36."""
    return trickcore.load_variant("oh-hell")


def house(name: str) -> trickcore.Variant:
    """A shipped house-rule file of oh-hell (O37–O41), by its full name (so that the mutation
    tool finds the tests of each file)."""
    return trickcore.load_variant(name)


# ---------------------------------------------------------------- restated rules
def top_size(n: int) -> int:
    """O3: H, the whole number part of 52 / n."""
    return 52 // n


def hand_size(n: int, k: int, top: int | None = None) -> int:
    """O4: the hand size of deal k (rising from 1 to H, then falling back to 1)."""
    h = top_size(n) if top is None else top
    return k if k <= h else 2 * h - k


def seat_of(position: int, dealer: int, n: int) -> int:
    """O6: the seat that deck position `position` (top card = 1) goes to."""
    return (dealer + 1 + (position - 1) % n) % n


def suit(card: str) -> str:
    return card[-1]


def strength(card: str) -> int:
    """O2: higher is better within a suit."""
    return len(RANKS) - RANKS.index(card[:-1])


def trick_winner(cards: Sequence[tuple[int, str]], trump: str | None) -> int:
    """O13 restated: the highest trump, else the highest card of the suit led."""
    led = suit(cards[0][1])
    return max(cards, key=lambda sc: (suit(sc[1]) == trump, suit(sc[1]) == led, strength(sc[1])))[0]


def base_score(bid: int, won: int) -> int:
    """O15, O16 restated."""
    return 10 + bid if won == bid else 0


# ---------------------------------------------------------------- building and playing
def legal(state: State) -> list[str]:
    """The texts of the legal actions of a deal or match."""
    return texts(state.legal_actions())


def deal_of(state: State) -> trickcore.Deal:
    d = state.current if isinstance(state, trickcore.Match) else state
    assert isinstance(d, trickcore.Deal)
    return d


def shuffled(seed: int) -> list[str]:
    order = list(DECK)
    random.Random(seed).shuffle(order)
    return order


def with_top(first: Sequence[str]) -> list[str]:
    """A deck order that begins with these cards, the rest in DECK order."""
    return [*first, *(c for c in DECK if c not in first)]


def dealt(
    v: trickcore.Variant,
    n: int,
    k: int,
    hands: dict[int, Sequence[str]],
    turnup: str | None = None,
    dealer: int = 0,
) -> trickcore.Deal:
    """Deal k of a match of n players with these cards in these hands (stack_deck)."""
    extra = {} if turnup is None else {"turnup": turnup}
    order = v.stack_deck(
        {s: list(c) for s, c in hands.items()},
        dealer=dealer,
        players=n,
        deal_number=k,
        **extra,
    )
    d = v.new_deal(order, dealer=dealer, players=n, deal_number=k)
    assert isinstance(d, trickcore.Deal)
    for s, cards in hands.items():
        assert set(cards) <= set(d.hand_texts(s))
    if turnup is not None:
        assert d.public_view().turnup == turnup
    return d


def bid_all(state: State, bids: dict[int, int]) -> None:
    """Every seat bids once, in turn (O8)."""
    for _ in range(len(bids)):
        state.apply(f"bid {bids[state.to_act]}")


def play(state: State, script: str) -> None:
    """Play cards in order (`|` between tricks is for reading); `*` is the first legal card."""
    for card in script.replace("|", " ").split():
        state.apply(legal(state)[0] if card == "*" else f"play {card}")


def finish(state: State, rng: random.Random | None = None) -> None:
    """Play the current deal to its end: random legal actions, or the first legal ones."""
    d = deal_of(state)
    while not d.is_over:
        acts = state.legal_actions()
        state.apply(rng.choice(acts) if rng else acts[0])


def bid_values(state: State) -> list[int]:
    """The numbers the seat to act may bid."""
    return sorted(int(t.split()[1]) for t in legal(state) if t.startswith("bid "))


def cards_in(obs: Any) -> set[str]:
    """Every card text anywhere in an observation."""
    return set(CARD_RE.findall(json.dumps(obs.to_dict())))


def play_match(v: trickcore.Variant, n: int, seed: int, **kw: Any) -> dict[str, Any]:
    """A whole match with random legal actions: hand sizes and dealers of every deal,
    the bids and tricks of every deal, final scores and winners."""
    rng = random.Random(seed)
    m = v.new_match(seed=seed, players=n, **kw)
    out: dict[str, Any] = {"sizes": [], "dealers": [], "bids": [], "won": [], "match": m}
    while not m.is_over:
        d = deal_of(m)
        out["sizes"].append(len(d.hand_texts(d.to_act)))
        out["dealers"].append(d.dealer)
        while not d.is_over:
            m.apply(rng.choice(m.legal_actions()))
        obs = d.public_view()
        out["bids"].append({s: int(b.split()[1]) for s, b in obs.bids})
        out["won"].append(list(obs.tricks_won))
    return out


@pytest.fixture(scope="module")
def matches(oh_hell: trickcore.Variant) -> dict[int, dict[str, Any]]:
    """One random match for every player count (O1)."""
    return {n: play_match(oh_hell, n, seed=100 + n) for n in (3, 4, 5, 6, 7)}


# ---------------------------------------------------------------- cards and players
def test_o1_three_to_seven_players(oh_hell: trickcore.Variant) -> None:
    """O1: 3 to 7 players, each for himself; 4 unless told; 2 or 8 players are refused."""
    for n in (3, 4, 5, 6, 7):
        d = oh_hell.new_deal(seed=n, players=n, deal_number=1)
        assert len(d.public_view().hand_sizes) == n
    assert len(oh_hell.new_deal(seed=1).public_view().hand_sizes) == 4
    for n in (2, 8):
        with pytest.raises(trickcore.TrickcoreError):
            oh_hell.new_deal(seed=1, players=n)


@pytest.mark.parametrize("i", range(12))
def test_o2_rank_order(oh_hell: trickcore.Variant, i: int) -> None:
    """O2: ranks run A K Q J 10 ... 2: of two cards of the led suit the higher wins, whichever
    is led (a deal of one card each, diamonds trump, nobody else follows)."""
    hi, lo = RANKS[i] + "C", RANKS[i + 1] + "C"
    for first, second in ((hi, lo), (lo, hi)):
        d = dealt(oh_hell, 4, 1, {1: [first], 2: [second], 3: ["2H"], 0: ["3H"]}, turnup="2D")
        bid_all(d, {1: 0, 2: 0, 3: 0, 0: 0})
        play(d, f"{first} {second} 2H 3H")
        assert d.public_view().tricks_won[1 if first == hi else 2] == 1


# ---------------------------------------------------------------- deal
def test_o3_o4_hand_sizes_of_every_deal(oh_hell: trickcore.Variant) -> None:
    """O3, O4: H = 52 // n; deal k has k cards each up to H, then 2H - k (per player count)."""
    expected = {
        3: [*range(1, 18), *range(16, 0, -1)],
        4: [*range(1, 14), *range(12, 0, -1)],
        5: [*range(1, 11), *range(9, 0, -1)],
        6: [*range(1, 9), *range(7, 0, -1)],
        7: [*range(1, 8), *range(6, 0, -1)],
    }
    for n, sizes in expected.items():
        assert len(sizes) == 2 * top_size(n) - 1
        for k, h in enumerate(sizes, start=1):
            assert h == hand_size(n, k)
            d = oh_hell.new_deal(seed=k, players=n, deal_number=k)
            assert d.public_view().hand_sizes == (h,) * n, (n, k)


def test_o4_o18_match_length(matches: dict[int, dict[str, Any]]) -> None:
    """O4, O18: a match is 2H - 1 deals, sizes 1 .. H .. 1 (H once); it ends after the last."""
    for n, rec in matches.items():
        top = top_size(n)
        assert rec["sizes"] == [hand_size(n, k) for k in range(1, 2 * top)], n
        assert rec["sizes"].count(top) == 1
        assert rec["match"].is_over and len(rec["match"].deal_results) == 2 * top - 1


def test_o5_dealer_passes_left(matches: dict[int, dict[str, Any]]) -> None:
    """O5: seat 0 deals first; the deal passes one seat clockwise after every deal."""
    for n, rec in matches.items():
        assert rec["dealers"] == [(k - 1) % n for k in range(1, 2 * top_size(n))]


@pytest.mark.parametrize(("n", "k", "dealer"), [(3, 5, 0), (4, 9, 3), (5, 10, 2), (7, 7, 6)])
def test_o6_one_card_at_a_time(oh_hell: trickcore.Variant, n: int, k: int, dealer: int) -> None:
    """O6: position i (top = 1) goes to seat (d + 1 + (i - 1) mod n) mod n."""
    order = shuffled(k + n)
    h = hand_size(n, k)
    d = oh_hell.new_deal(order, dealer=dealer, players=n, deal_number=k)
    for s in range(n):
        want = [order[i - 1] for i in range(1, n * h + 1) if seat_of(i, dealer, n) == s]
        assert sorted(d.hand_texts(s)) == sorted(want)


def test_o7_o19_turned_card_sets_trump(oh_hell: trickcore.Variant) -> None:
    """O7, O19: position n*h + 1 is turned face up for all; its suit is trump; it belongs to
    no hand; the undealt cards are seen by nobody."""
    n, k = 4, 6
    order = shuffled(7)
    d = oh_hell.new_deal(order, dealer=0, players=n, deal_number=k)
    up = order[n * k]
    undealt = set(order[n * k + 1 :])
    assert all(up not in d.hand_texts(s) for s in range(n))
    for obs in [d.public_view(), *(d.observation(s) for s in range(n))]:
        assert obs.turnup == up
        assert not cards_in(obs) & undealt
    rng = random.Random(1)
    for _ in range(n):  # the bids; trump is in force (Observation.trump) once play begins
        d.apply(rng.choice(d.legal_actions()))
    for obs in [d.public_view(), *(d.observation(s) for s in range(n))]:
        assert obs.turnup == up
        assert obs.trump == SUIT_NAMES[suit(up)]
    finish(d, rng)
    for obs in [d.public_view(), *(d.observation(s) for s in range(n))]:
        assert not cards_in(obs) & undealt
    for _leader, cards, winner in d.public_view().tricks:
        assert winner == trick_winner(cards, suit(up))


def test_o7_o21_no_card_left_no_trump(oh_hell: trickcore.Variant) -> None:
    """O7, O21: 4 players at h = 13 deal all 52 cards; no card is turned and there is no
    trump: an ace of another suit does not beat the led suit."""
    spades = [r + "S" for r in RANKS]
    d = dealt(oh_hell, 4, 13, {1: ["2C"], 2: spades, 3: ["3C"], 0: ["4C"]})
    obs = d.public_view()
    assert obs.turnup is None and obs.trump is None
    assert all(len(d.hand_texts(s)) == 13 for s in range(4))
    bid_all(d, {1: 0, 2: 0, 3: 0, 0: 1})
    play(d, "2C AS 3C 4C")
    assert d.public_view().tricks[0][2] == 0


def test_o21_twelve_cards_turn_position_49(oh_hell: trickcore.Variant) -> None:
    """O21: 4 players at h = 12 (deals 12 and 14): 48 cards dealt, position 49 turned."""
    for k in (12, 14):
        order = shuffled(k)
        d = oh_hell.new_deal(order, dealer=1, players=4, deal_number=k)
        assert d.public_view().hand_sizes == (12,) * 4
        assert d.public_view().turnup == order[48]


def test_o20_five_players(oh_hell: trickcore.Variant) -> None:
    """O20: 5 players: sizes 1..10..1 (19 deals); at h = 10, 50 cards dealt, position 51
    turned."""
    sizes = [hand_size(5, k) for k in range(1, 20)]
    assert sizes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    order = shuffled(20)
    d = oh_hell.new_deal(order, dealer=0, players=5, deal_number=10)
    assert d.public_view().hand_sizes == (10,) * 5
    assert d.public_view().turnup == order[50]


def test_o22_three_players_last_card_turned(oh_hell: trickcore.Variant) -> None:
    """O22: 3 players at h = 17: 51 cards dealt; position 52, the last card, is trump."""
    order = shuffled(22)
    d = oh_hell.new_deal(order, dealer=2, players=3, deal_number=17)
    assert d.public_view().hand_sizes == (17,) * 3
    assert d.public_view().turnup == order[51]
    run_bids(d, [0, 0, 0])
    assert d.public_view().trump == SUIT_NAMES[suit(order[51])]


def test_o23_seven_players_two_cards_unused(oh_hell: trickcore.Variant) -> None:
    """O23: 7 players at h = 7: 49 dealt, position 50 turned, 51 and 52 unused (in no hand,
    seen by nobody, never played)."""
    order = shuffled(23)
    d = oh_hell.new_deal(order, dealer=0, players=7, deal_number=7)
    assert d.public_view().turnup == order[49]
    unused = {order[50], order[51]}
    assert not unused & {c for s in range(7) for c in d.hand_texts(s)}
    finish(d, random.Random(3))
    for obs in [d.public_view(), *(d.observation(s) for s in range(7))]:
        assert not cards_in(obs) & unused


def test_o24_dealing_three_players(oh_hell: trickcore.Variant) -> None:
    """O24: 3 players, dealer 0, h = 2: positions 1, 4 to seat 1; 2, 5 to seat 2; 3, 6 to
    seat 0; position 7 turned."""
    order = shuffled(24)
    d = oh_hell.new_deal(order, dealer=0, players=3, deal_number=2)
    assert sorted(d.hand_texts(1)) == sorted([order[0], order[3]])
    assert sorted(d.hand_texts(2)) == sorted([order[1], order[4]])
    assert sorted(d.hand_texts(0)) == sorted([order[2], order[5]])
    assert d.public_view().turnup == order[6]


# ---------------------------------------------------------------- bidding
def test_o8_each_bids_once_from_the_left(oh_hell: trickcore.Variant) -> None:
    """O8: each player bids once, from seat d+1, the dealer last, a number 0..h."""
    d = oh_hell.new_deal(shuffled(8), dealer=2, players=5, deal_number=4)
    order = []
    for _ in range(5):
        order.append(d.to_act)
        if d.to_act != 2:
            assert bid_values(d) == list(range(5))
        d.apply(legal(d)[0])
    assert order == [3, 4, 0, 1, 2]
    assert d.phase != "bids" and all(not t.startswith("bid") for t in legal(d))
    assert [s for s, _ in d.public_view().bids] == order


def test_o9_o25_hook(oh_hell: trickcore.Variant) -> None:
    """O9, O25: 4 players, h = 5, bids 2, 1, 0: the dealer may bid 0, 1, 3, 4, 5, not 2."""
    d = oh_hell.new_deal(shuffled(25), dealer=0, players=4, deal_number=5)
    run_bids(d, [2, 1, 0])
    assert d.to_act == 0
    assert bid_values(d) == [0, 1, 3, 4, 5]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 2")


def run_bids(state: State, values: Sequence[int]) -> None:
    """The next players bid these numbers, in turn."""
    for v in values:
        state.apply(f"bid {v}")


def test_o9_o26_no_effective_hook(oh_hell: trickcore.Variant) -> None:
    """O9, O26: 4 players, h = 5, bids 3, 1, 2 (sum 6): the dealer may bid 0..5."""
    d = oh_hell.new_deal(shuffled(26), dealer=0, players=4, deal_number=5)
    run_bids(d, [3, 1, 2])
    assert bid_values(d) == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("first", "allowed"), [((0, 0), [0]), ((1, 0), [1]), ((0, 1), [1]), ((1, 1), [0, 1])]
)
def test_o9_o27_hook_at_one_card(
    oh_hell: trickcore.Variant, first: tuple[int, int], allowed: list[int]
) -> None:
    """O9, O27: 3 players at h = 1: after 0, 0 the dealer's only bid is 0 (still offered);
    after one bid of 1 it is 1; after 1, 1 he may bid 0 or 1."""
    d = oh_hell.new_deal(shuffled(27), dealer=0, players=3, deal_number=1)
    run_bids(d, first)
    assert d.to_act == 0 and bid_values(d) == allowed


def test_o9_hook_every_deal(matches: dict[int, dict[str, Any]]) -> None:
    """O9: in every played deal the dealer's bid leaves the sum of the bids unequal to h."""
    for n, rec in matches.items():
        for k, bids in enumerate(rec["bids"], start=1):
            assert sum(bids.values()) != hand_size(n, k), (n, k, bids)


def test_o10_others_unrestricted_bids_public(oh_hell: trickcore.Variant) -> None:
    """O10, O19: non-dealers may make the bid that brings the sum to h; every bid is
    public (each seat and the table see all bids)."""
    d = oh_hell.new_deal(shuffled(10), dealer=0, players=4, deal_number=5)
    run_bids(d, [2, 2])
    assert d.to_act == 3 and bid_values(d) == [0, 1, 2, 3, 4, 5]
    d.apply("bid 1")  # the sum is now 5 = h: allowed for a non-dealer
    for obs in [d.public_view(), *(d.observation(s) for s in range(4))]:
        assert obs.bids == ((1, "bid 2"), (2, "bid 2"), (3, "bid 1"))


def test_o35_bid_beyond_the_hand(oh_hell: trickcore.Variant) -> None:
    """O35: bids are checked only against 0..h: a hand of low cards may bid 5 of 5."""
    d = dealt(oh_hell, 4, 5, {1: ["2C", "3C", "2D", "3D", "4D"]}, turnup="2S")
    assert bid_values(d) == [0, 1, 2, 3, 4, 5]
    d.apply("bid 5")
    assert d.public_view().bids == ((1, "bid 5"),)


# ---------------------------------------------------------------- play
def test_o11_first_lead_and_winner_leads(oh_hell: trickcore.Variant) -> None:
    """O11: h tricks; seat d+1 leads first, any card (trumps too); the winner leads next."""
    for seed in range(4):
        dealer, k = seed % 4, 3 + seed
        d = oh_hell.new_deal(shuffled(seed), dealer=dealer, players=4, deal_number=k)
        rng = random.Random(seed)
        for _ in range(4):
            d.apply(rng.choice(d.legal_actions()))
        assert d.to_act == (dealer + 1) % 4
        assert sorted(t.split()[1] for t in legal(d)) == sorted(d.hand_texts(d.to_act))
        finish(d, rng)
        tricks = d.public_view().tricks
        assert len(tricks) == k
        assert tricks[0][0] == (dealer + 1) % 4
        for before, after in zip(tricks, tricks[1:]):
            assert after[0] == before[2]


def test_o12_o33_follow_suit(oh_hell: trickcore.Variant) -> None:
    """O12, O33: hearts trump, spades led: holding 7S and 2H he must play 7S; holding no
    spade he may play 2H or any other card (no duty to trump or to beat)."""
    d = dealt(oh_hell, 4, 2, {1: ["AS", "KC"], 2: ["7S", "2H"]}, turnup="3H")
    bid_all(d, {1: 1, 2: 0, 3: 0, 0: 0})
    d.apply("play AS")
    assert legal(d) == ["play 7S"]
    d = dealt(oh_hell, 4, 2, {1: ["AS", "KC"], 2: ["2H", "3D"]}, turnup="3H")
    bid_all(d, {1: 1, 2: 0, 3: 0, 0: 0})
    d.apply("play AS")
    assert sorted(legal(d)) == ["play 2H", "play 3D"]


def test_o13_o34_trick_winner(oh_hell: trickcore.Variant) -> None:
    """O13, O34: hearts trump: Q♦ led, A♦, 3♥, K♥: K♥ wins (highest trump); 10♣ led, A♠,
    2♣, K♦: 10♣ wins (highest club)."""
    for cards, winner in (("QD AD 3H KH", 0), ("10C AS 2C KD", 1)):
        one = cards.split()
        d = dealt(oh_hell, 4, 1, {1: [one[0]], 2: [one[1]], 3: [one[2]], 0: [one[3]]}, "2H")
        bid_all(d, {1: 0, 2: 0, 3: 0, 0: 0})
        play(d, cards)
        assert d.public_view().tricks[0][2] == winner


def test_o14_tricks_add_up(matches: dict[int, dict[str, Any]]) -> None:
    """O14: each player's tricks are counted; the counts add up to h."""
    for n, rec in matches.items():
        for k, won in enumerate(rec["won"], start=1):
            assert sum(won) == hand_size(n, k)


# ---------------------------------------------------------------- scoring
def o28(v: trickcore.Variant) -> trickcore.Deal:
    """O28's deal: 3 players, dealer 0, h = 2, deck A♠ 2♥ 9♦ K♠ 3♣ 9♣ 5♥ ..."""
    d = v.new_deal(
        with_top(["AS", "2H", "9D", "KS", "3C", "9C", "5H"]), dealer=0, players=3, deal_number=2
    )
    assert isinstance(d, trickcore.Deal)
    return d


def play_o28(d: trickcore.Deal) -> None:
    """O28's bids and tricks (bids 1, 0, 0; A♠ 3♣ 9♦; K♠ 2♥ 9♣)."""
    run_bids(d, [1, 0, 0])
    d.apply("play AS")
    assert sorted(legal(d)) == ["play 2H", "play 3C"]  # O12: he need not trump
    play(d, "3C 9D | KS 2H 9C")


def test_o28_whole_deal(oh_hell: trickcore.Variant) -> None:
    """O28: the hands, the 5♥ turned (hearts trump), the tricks, the scores 11, 0, 10."""
    d = o28(oh_hell)
    assert sorted(d.hand_texts(1)) == ["AS", "KS"]
    assert sorted(d.hand_texts(2)) == ["2H", "3C"]
    assert sorted(d.hand_texts(0)) == ["9C", "9D"]
    assert d.public_view().turnup == "5H"
    play_o28(d)
    assert d.public_view().tricks[1][1][1] == (2, "2H")  # hearts trump: the 2H won
    obs = d.public_view()
    assert [t[2] for t in obs.tricks] == [1, 2]
    assert obs.tricks_won == (0, 1, 1)
    assert d.is_over and list(d.gains) == [10, 11, 0]


def test_o28_o9_dealer_may_not_bid_one(oh_hell: trickcore.Variant) -> None:
    """O28, O9: after bids 1 and 0 (S = 1, h = 2) the dealer may not bid 1: only 0 or 2."""
    d = o28(oh_hell)
    run_bids(d, [1, 0])
    assert bid_values(d) == [0, 2]


def test_o15_o16_o30_exact_bids(oh_hell: trickcore.Variant) -> None:
    """O15, O16, O30: bid 5 made 15; 0 made 10; a miss (too many or too few) scores 0."""
    d = dealt(oh_hell, 4, 5, {1: ["AS", "KS", "QS", "JS", "10S"]}, turnup="2S")
    bid_all(d, {1: 5, 2: 0, 3: 1, 0: 1})
    play(d, "AS * * * | KS * * * | QS * * * | JS * * * | 10S * * *")
    assert d.public_view().tricks_won == (0, 5, 0, 0)
    assert list(d.gains) == [0, 15, 10, 0]
    d = dealt(oh_hell, 4, 5, {1: ["AS", "KS", "QS", "JS", "10S"]}, turnup="2S")
    bid_all(d, {1: 4, 2: 0, 3: 1, 0: 1})  # 5 tricks on a bid of 4: a miss
    play(d, "AS * * * | KS * * * | QS * * * | JS * * * | 10S * * *")
    assert list(d.gains) == [0, 0, 10, 0]


def test_o30_bid_seventeen(oh_hell: trickcore.Variant) -> None:
    """O30: bid 17 made scores 27 (3 players at h = 17, seat 1 wins every trick)."""
    top = [r + "S" for r in RANKS[:12]] + ["AC", "AD", "AH", "KC", "KD"]
    d = dealt(oh_hell, 3, 17, {1: top}, turnup="2S")
    bid_all(d, {1: 17, 2: 0, 0: 1})
    for card in top:
        assert d.to_act == 1
        play(d, f"{card} * *")
    assert d.public_view().tricks_won == (0, 17, 0)
    assert list(d.gains) == [0, 27, 10]


@pytest.mark.parametrize("seed", range(6))
def test_o15_o16_scores_of_random_deals(oh_hell: trickcore.Variant, seed: int) -> None:
    """O15, O16: every player scores 10 + bid if his tricks equal his bid, else 0."""
    n = 3 + seed % 5
    k = 1 + seed * 2 % top_size(n)
    rng = random.Random(seed)
    d = oh_hell.new_deal(shuffled(seed), dealer=seed % n, players=n, deal_number=k)
    finish(d, rng)
    obs = d.public_view()
    bids = {s: int(b.split()[1]) for s, b in obs.bids}
    assert list(d.gains) == [base_score(bids[s], obs.tricks_won[s]) for s in range(n)]


def test_o17_scores_add_never_below_zero(matches: dict[int, dict[str, Any]]) -> None:
    """O17: scores add up over the deals and never go below 0."""
    for n, rec in matches.items():
        m = rec["match"]
        total = [0] * n
        for k, (res, bids, won) in enumerate(zip(m.deal_results, rec["bids"], rec["won"])):
            want = [base_score(bids[s], won[s]) for s in range(n)]
            assert res["gains"] == want, (n, k)
            total = [t + g for t, g in zip(total, want)]
            assert res["scores"] == total and min(total) >= 0
        assert list(m.scores) == total


def test_o18_highest_total_wins(matches: dict[int, dict[str, Any]]) -> None:
    """O18: the player with the highest total wins (ties share)."""
    for rec in matches.values():
        m = rec["match"]
        top = max(m.scores)
        assert sorted(m.winners) == [s for s, x in enumerate(m.scores) if x == top]


def test_o31_totals(oh_hell: trickcore.Variant) -> None:
    """O31: after three deals of 11, 0 and 12 a player's total is 23 (3 players, seat 1)."""
    orders = [
        oh_hell.stack_deck(
            {1: ["AS"], 2: ["2C"], 0: ["3C"]}, dealer=0, players=3, deal_number=1, turnup="2S"
        ),
        oh_hell.stack_deck(
            {1: ["AS", "KS"], 2: ["2C", "3C"], 0: ["4C", "5C"]},
            dealer=1,
            players=3,
            deal_number=2,
            turnup="2S",
        ),
        oh_hell.stack_deck(
            {1: ["AS", "KS", "2C"], 0: ["AC", "3D", "4D"], 2: ["KC", "5D", "6D"]},
            dealer=2,
            players=3,
            deal_number=3,
            turnup="2S",
        ),
    ]
    m = oh_hell.new_match(deck_orders=orders, players=3)
    run_bids(m, [1, 0, 1])  # seats 1, 2, 0: seat 1 makes 1 (11)
    play(m, "AS 2C 3C")
    run_bids(m, [0, 0, 0])  # seats 2, 0, 1: seat 1 bids 0 and wins both (0)
    play(m, "2C 4C AS | KS 3C 5C")
    run_bids(m, [1, 2, 1])  # seats 0, 1, 2: seat 1 bids 2 and makes it (12)
    play(m, "AC 2C KC | 3D AS 5D | KS 6D 4D")
    assert [r["gains"][1] for r in m.deal_results] == [11, 0, 12]
    assert m.scores[1] == 23
    assert [r["gains"] for r in m.deal_results] == [[0, 11, 10], [10, 0, 10], [11, 12, 0]]


def test_o32_tie_shares_the_win(oh_hell: trickcore.Variant) -> None:
    """O32, O18: two players end on the same top total, 180: both win."""
    first = play_match(oh_hell, 7, seed=32)
    gained = first["match"].scores
    start = [180 - gained[0], 180 - gained[1], *(170 - g for g in gained[2:])]
    again = play_match(oh_hell, 7, seed=32, scores=start)
    m = again["match"]
    assert m.scores[:2] == [180, 180] and max(m.scores[2:]) == 170
    assert sorted(m.winners) == [0, 1]


@pytest.mark.parametrize("seed", range(5))
def test_o36_bid_totals(oh_hell: trickcore.Variant, seed: int) -> None:
    """O36: at h = 5, bids 3, 1, 2, 0 (sum 6) or 1, 1, 0, 1 (sum 3): someone always fails."""
    for bids in ([3, 1, 2, 0], [1, 1, 0, 1]):
        d = oh_hell.new_deal(shuffled(seed), dealer=0, players=4, deal_number=5)
        run_bids(d, bids)
        finish(d, random.Random(seed))
        assert 0 in d.gains


# ---------------------------------------------------------------- information
def test_o19_what_each_player_sees(oh_hell: trickcore.Variant) -> None:
    """O19: own hand only; the turned card, bids, cards played and trick counts are public."""
    order = shuffled(19)
    d = oh_hell.new_deal(order, dealer=1, players=5, deal_number=6)
    rng = random.Random(19)
    for _ in range(5 + 12):  # the bids, two tricks and two cards
        d.apply(rng.choice(d.legal_actions()))
    played = {c for _, cards, _ in d.public_view().tricks for _, c in cards}
    played |= {c for _, c in d.public_view().trick}
    up = d.public_view().turnup
    for s in range(5):
        obs = d.observation(s)
        assert sorted(obs.hand) == sorted(d.hand_texts(s))
        assert cards_in(obs) <= set(d.hand_texts(s)) | played | {up}
        assert obs.bids == d.public_view().bids and len(obs.bids) == 5
        assert obs.tricks_won == d.public_view().tricks_won
        assert sum(obs.tricks_won) == len(obs.tricks) >= 1


def test_o1_o19_each_plays_his_own_hand(oh_hell: trickcore.Variant) -> None:
    """O1, O19: each plays for himself from his own hand: no observation, during the deal or
    after its end, names another hand to play from (Observation.playing_for is None)."""
    d = oh_hell.new_deal(shuffled(119), dealer=3, players=4, deal_number=4)
    rng = random.Random(119)
    while not d.is_over:
        assert all(d.observation(s).playing_for is None for s in range(4))
        d.apply(rng.choice(d.legal_actions()))
    views = [d.public_view(), *(d.observation(s) for s in range(4))]
    assert [o.playing_for for o in views] == [None] * 5


# ---------------------------------------------------------------- house rules
def test_o37_no_hook() -> None:
    """O37: the dealer has no restriction: after 2, 1, 0 at h = 5 he may bid 0..5 and make
    the bids add up to h; after 0, 0 at h = 1 he may bid 0 or 1."""
    v = house("oh-hell-no-hook")
    d = v.new_deal(shuffled(37), dealer=0, players=4, deal_number=5)
    run_bids(d, [2, 1, 0])
    assert d.to_act == 0 and bid_values(d) == [0, 1, 2, 3, 4, 5]
    d.apply("bid 2")
    assert sum(int(b.split()[1]) for _, b in d.public_view().bids) == 5
    d = v.new_deal(shuffled(37), dealer=0, players=3, deal_number=1)
    run_bids(d, [0, 0])
    assert bid_values(d) == [0, 1]


def test_o38_down_and_up() -> None:
    """O38: sizes H, H - 1, ..., 1, 2, ..., H: 2H - 1 deals, 1 dealt once."""
    v = house("oh-hell-down-and-up")
    for n in (3, 4, 5, 6, 7):
        top = top_size(n)
        want = [*range(top, 0, -1), *range(2, top + 1)]
        assert len(want) == 2 * top - 1
        for k, h in enumerate(want, start=1):
            d = v.new_deal(seed=k, players=n, deal_number=k)
            assert d.public_view().hand_sizes == (h,) * n, (n, k)
    rec = play_match(v, 7, seed=38)
    assert rec["sizes"] == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]
    assert rec["match"].is_over


def test_o39_o29_tricks_plus_bonus() -> None:
    """O39, O29: a trick is 1 point, an exact bid 10 more: O28's deal scores 11, 1, 10."""
    d = o28(house("oh-hell-tricks-plus-bonus"))
    play_o28(d)
    assert list(d.gains) == [10, 11, 1]


def test_o40_o29_penalty() -> None:
    """O40, O29: a missed bid scores minus the difference: O28's deal scores 11, -1, 10;
    bid 3 won 1 scores -2, and totals go below 0."""
    v = house("oh-hell-penalty")
    d = o28(v)
    play_o28(d)
    assert list(d.gains) == [10, 11, -1]
    # seat 1 wins the AS trick only; seat 2's top clubs win the other four
    hands = {1: ["AS", "2C", "3C", "4C", "5C"], 2: ["AC", "KC", "QC", "JC", "10C"]}
    d = dealt(v, 4, 5, hands, turnup="2S")
    bid_all(d, {1: 3, 2: 0, 3: 0, 0: 1})
    play(d, "AS * * *")
    finish(d)
    assert d.public_view().tricks_won == (0, 1, 4, 0)
    assert list(d.gains) == [-1, -2, -4, 10]
    # a match: deal 1 (h = 1), seat 1 bids 0 and wins with the AS: his total is -1
    m = v.new_match(deck_orders=[with_top(["AS", "2H", "9D", "KS", "3C"])])
    run_bids(m, [0, 0, 0, 0])
    play(m, "AS 2H 9D KS")
    assert m.scores == [10, -1, 10, 10]


def test_o41_max_hand_ten() -> None:
    """O41: the largest hand is 10: 3 and 4 players deal 1..10..1 (19 deals); with 5 players
    that is O4 itself; with 6 or 7 (H below 10) the setting changes nothing."""
    v = house("oh-hell-max-hand-10")
    for n in (3, 4, 5, 6, 7):
        top = min(10, top_size(n))
        for k in range(1, 2 * top):
            d = v.new_deal(seed=k, players=n, deal_number=k)
            assert d.public_view().hand_sizes == (hand_size(n, k, top),) * n, (n, k)
    rec = play_match(v, 4, seed=41)
    assert rec["sizes"] == [*range(1, 11), *range(9, 0, -1)]
    assert rec["match"].is_over


def test_o42_no_trump_at_the_largest_hand() -> None:
    """O42: with 3 players the 17-card deal still turns up a card (position 52) but is
    played without trump; the 16-card deal keeps the turned card's suit as trump (O7)."""
    v = house("oh-hell-no-trump-top")
    d = v.new_deal(seed=4, players=3, deal_number=17)
    view = d.public_view()
    assert view.turnup is not None and view.hand_sizes == (17, 17, 17)
    while d.phase != "play":
        d.apply(d.legal_actions()[0])
    assert d.public_view().trump is None
    d16 = v.new_deal(seed=4, players=3, deal_number=16)
    while d16.phase != "play":
        d16.apply(d16.legal_actions()[0])
    assert d16.public_view().trump == SUIT_NAMES[d16.public_view().turnup[-1]]


def test_o7_o19_the_trump_is_known_while_bidding(oh_hell: trickcore.Variant) -> None:
    """O7, O19: the turned card's suit is trump from the deal on: every player's observation
    shows it during the bids already; with all 52 cards dealt (4 players, h = 13) there is
    no trump at any time."""
    d = oh_hell.new_deal(seed=7, players=4, deal_number=5)
    view = d.observation(1)
    assert d.phase == "bids" and view.turnup is not None
    assert view.trump == SUIT_NAMES[view.turnup[-1]]
    full = oh_hell.new_deal(seed=7, players=4, deal_number=13)
    assert full.phase == "bids" and full.observation(1).trump is None
