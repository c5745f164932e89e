"""Hearts rules (H1–H32 of docs/rules/hearts.md) played through the public API, and the
house rules H33–H35, H37 and H38 (`variants/hearts-*.rules`).

Each test plays a rule on real cards (scripted deals built with `stack_deck`) and fails when
that rule is broken in `variants/hearts.rules` or in the engine; none of them reads the
compiled model. H36 (moon-choice, `variants/hearts-moon-choice.rules`) is tested in
`tests/test_decisions.py`.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import run

import trickcore

# H1, restated here (not read from the variant): ranks high to low, the four suits.
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
SUITS = "CDSH"
ALL_CARDS = [r + s for s in SUITS for r in RANKS]
CARD_RE = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AKQJ])[CDSH](?![0-9A-Z])")

State = Any  # a trickcore.Deal or trickcore.Match: both have apply/legal_actions/to_act


@pytest.fixture(scope="module")
def hearts() -> trickcore.Variant:
    return trickcore.load_variant("hearts")


# ---------------------------------------------------------------- restated rules
def suit(card: str) -> str:
    """The suit letter of a card text."""
    return card[-1]


def strength(card: str) -> int:
    """H1: higher is better within a suit."""
    return len(RANKS) - RANKS.index(card[:-1])


def points(card: str) -> int:
    """H3 restated: each heart 1, the QS 13, every other card 0."""
    return 13 if card == "QS" else 1 if suit(card) == "H" else 0


def trick_winner(cards: Sequence[tuple[int, str]]) -> int:
    """H18 restated: the highest card of the led suit wins (no trump, H2)."""
    led = suit(cards[0][1])
    return max((c for c in cards if suit(c[1]) == led), key=lambda c: strength(c[1]))[0]


def expected_gains(taken: Sequence[int]) -> list[int]:
    """H21, H22 restated from the penalty points each seat took."""
    if 26 in taken:
        return [0 if t == 26 else 26 for t in taken]
    return list(taken)


def legal_cards(state: State) -> list[str]:
    """The cards the seat to act may play (or pass), from the action texts."""
    return [str(a).split()[1] for a in state.legal_actions()]


def first_legal(state: State) -> str:
    return str(state.legal_actions()[0])


def cards_in(obs: Any) -> set[str]:
    """Every card text anywhere in an observation."""
    return set(CARD_RE.findall(json.dumps(obs.to_dict())))


# ---------------------------------------------------------------- building deals
def complete(spec: dict[int, str], void: dict[int, str] | None = None) -> dict[int, list[str]]:
    """Hands of 13 cards: the named cards, the rest given out in deck order to the seat with
    the fewest cards among those not void (by `void`) in the card's suit."""
    void = void or {}
    hands = {s: spec.get(s, "").split() for s in range(4)}
    named = [c for h in hands.values() for c in h]
    assert len(set(named)) == len(named) and set(named) <= set(ALL_CARDS)
    for card in ALL_CARDS:
        if card in named:
            continue
        room = [s for s in range(4) if len(hands[s]) < 13 and suit(card) not in void.get(s, "")]
        assert room, f"no seat can take {card}"
        hands[min(room, key=lambda s: (len(hands[s]), s))].append(card)
    return hands


def stacked(
    v: trickcore.Variant, final: dict[int, list[str]], dealer: int = 0, offset: int = 1
) -> tuple[list[str], list[str]]:
    """A deck order and the 12 pass actions (H8) after which every seat holds `final`.

    Cards go `offset` seats on (H7: 1 in deal 1); each seat passes the last three cards of
    its recipient's final hand."""
    gives = {s: final[(s + offset) % 4][-3:] for s in range(4)}
    dealt = {
        s: [c for c in final[s] if c not in gives[(s - offset) % 4]] + gives[s] for s in range(4)
    }
    order = v.stack_deck(dealt, dealer=dealer)
    actions = [f"pass {c}" for k in range(1, 5) for c in gives[(dealer + k) % 4]]
    return order, actions


def start(
    v: trickcore.Variant,
    spec: dict[int, str],
    void: dict[int, str] | None = None,
    dealer: int = 0,
) -> trickcore.Deal:
    """A single deal (deal 1: pass left) at its first play, with these hands after passing."""
    final = complete(spec, void)
    order, actions = stacked(v, final, dealer)
    d = v.new_deal(order, dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    run(d, actions)
    assert {s: sorted(d.hand_texts(s)) for s in range(4)} == {
        s: sorted(h) for s, h in final.items()
    }
    return d


def play(state: State, script: str) -> None:
    """Play cards in order (`|` between tricks is for reading); `*` is the first legal card."""
    for card in script.replace("|", " ").split():
        state.apply(first_legal(state) if card == "*" else f"play {card}")


def finish(state: State) -> None:
    """Every seat plays its first legal action until the deal ends."""
    deal = state.current if isinstance(state, trickcore.Match) else state
    while not deal.is_over:
        state.apply(first_legal(state))


def random_deal(v: trickcore.Variant, seed: int, dealer: int = 0) -> trickcore.Deal:
    """A deal played to the end with random legal actions."""
    rng = random.Random(seed)
    d = v.new_deal(seed=seed, dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    while not d.is_over:
        d.apply(rng.choice(d.legal_actions()))
    return d


def taken_points(obs: Any) -> list[int]:
    """H19, H21: penalty points in the tricks each seat won (from a final observation)."""
    taken = [0] * 4
    for _leader, cards, winner in obs.tricks:
        taken[winner] += sum(points(c) for _, c in cards)
    return taken


# H28: dealer 0. Seat 1 takes the QS and 4 hearts (17), seat 2 six hearts (6), seat 3 three
# hearts (3), seat 0 none. Hands after passing, and the 13 tricks (leader first).
H28_HANDS = {
    0: "2C 7C QC JC 10C 3S KS JS 10S 3H 5H QH 8H",
    1: "AC KC AS 5S KD QD JD 10D 9D 8D 6H KH 7H",
    2: "3C 5C 2S 4S AD 7D 6D 5D 4D 3D 2D AH 10H",
    3: "4C 6C 9C 8C QS 9S 8S 7S 6S 2H 4H JH 9H",
}
H28_TRICKS = [
    "2C AC 3C 4C",  # 0 leads; 1 wins
    "KC 5C 6C 7C",  # 1
    "AS 2S QS 3S",  # 1 wins the QS
    "KD AD 2H 3H",  # 2 wins; seats 3 and 0 are void in diamonds: hearts broken
    "AH 4H 5H 6H",  # 2
    "10H JH QH KH",  # 1
    "7H 2D 9H 8H",  # 3 (seat 2 void in hearts)
    "9C 10C 8D 3D",  # 0
    "QC 9D 4D 8C",  # 0
    "JC 10D 5D 6S",  # 0
    "KS 5S 4S 7S",  # 0
    "JS JD 6D 8S",  # 0
    "10S QD 7D 9S",  # 0
]
H28_LEADERS = [0, 1, 1, 1, 2, 2, 1, 3, 0, 0, 0, 0, 0]


def h28(v: trickcore.Variant, dealer: int = 0) -> tuple[list[str], list[str]]:
    """The H28 deal: its deck order and the pass actions (deal 1, dealer 0)."""
    final = {s: h.split() for s, h in H28_HANDS.items()}
    return stacked(v, final, dealer)


# H29: seat 2 holds the top cards of every suit, so he wins every trick whatever is played.
MOON = {2: "AC KC QC JC 10C AD KD QD JD 10D AS KS AH"}
# Seat 2 loses trick 2 (AS over his 2S, with the QS in it) and takes all 13 hearts.
NEAR_MOON_HEARTS = (
    {
        2: "AC KC QC JC 10C 9C AD KD QD JD 10D 2S AH",
        3: "QS 3C",
        0: "AS 8C 4C",
        1: "2C 4S",
    },
    "2C AC 3C 4C | 2S QS AS 4S | 8C * * *",
)
# Seat 2 loses trick 2 (seat 1 discards the 2H) and takes the QS and the other 12 hearts.
NEAR_MOON_QUEEN = (
    {
        2: "AC KC QC JC 10C AD KD QD JD 2S KS QS AH",
        1: "2C 2H",
        3: "3S 3C",
        0: "AS 4C 8C",
    },
    "2C AC 3C 4C | 2S 3S AS 2H | 8C * * *",
)
# As NEAR_MOON_QUEEN, but seat 1 discards the JD: seat 2 takes every penalty card (a moon);
# seat 0 wins one trick, without penalty cards (the JD matters under H33).
MOON_BUT_JD = (
    {
        2: "AC KC QC JC 10C AD KD QD 10D 2S KS QS AH",
        1: "2C JD",
        3: "3S 3C",
        0: "AS 4C 8C",
    },
    "2C AC 3C 4C | 2S 3S AS JD | 8C * * *",
)


def first_trick(v: trickcore.Variant, hand3: str, extra1: str = "") -> trickcore.Deal:
    """Trick 1 with seat 3 void in clubs holding `hand3`: 2C, AC, KC played, seat 3 to act."""
    d = start(v, {0: "2C", 1: f"AC {extra1}".strip(), 2: "KC", 3: hand3}, void={3: "C"})
    play(d, "2C AC KC")
    assert d.to_act == 3
    return d


# ---------------------------------------------------------------- a whole match of 8 deals
@pytest.fixture(scope="module")
def eight_deals(hearts) -> list[dict[str, Any]]:
    """Deals 1–8 of one match (first legal actions; the totals start at -1000 so that the
    match cannot end, H24): per deal the dealer, the seats in the order they chose cards,
    the cards chosen, the hands as dealt and after the exchange, and what each received."""
    m = hearts.new_match(seed=11, scores=[-1000] * 4)
    out = []
    for _ in range(8):
        deal = m.current
        rec: dict[str, Any] = {
            "dealer": m.deal.dealer,
            "first_phase": m.deal.phase,
            "dealt": {s: deal.hand_texts(s) for s in range(4)},
            "choosers": [],
            "chosen": {s: [] for s in range(4)},
            "first_legal": None,
        }
        while str(m.legal_actions()[0]).startswith("pass "):
            seat = m.to_act
            card = legal_cards(m)[0]
            rec["choosers"].append(seat)
            rec["chosen"][seat].append(card)
            m.apply(f"pass {card}")
        rec["after"] = {s: deal.hand_texts(s) for s in range(4)}
        rec["received"] = {s: list(m.observation(s).received) for s in range(4)}
        rec["first_legal"] = (m.to_act, [str(a) for a in m.legal_actions()])
        finish(m)
        assert not m.is_over
        out.append(rec)
    return out


# ---------------------------------------------------------------- cards and players
def test_H1_four_players_and_52_cards(hearts):
    """H1: 4 players (no other count), 52 cards of four suits and 13 ranks, 13 each."""
    for n in (2, 3, 5):
        with pytest.raises(trickcore.TrickcoreError):
            hearts.new_match(seed=1, players=n)
    d = hearts.new_deal(seed=1)
    hands = [d.hand_texts(s) for s in range(4)]
    assert [len(h) for h in hands] == [13] * 4
    assert sorted(sum(hands, [])) == sorted(ALL_CARDS)
    for bad in ("1C", "11S", "KX", "OH", "BH"):
        with pytest.raises(trickcore.TrickcoreError):
            hearts.card(bad)


def test_H1_each_player_for_himself(hearts):
    """H1: no partnerships: after the H28 deal every seat has its own total (seats across
    from each other, 0/6 and 17/3, share nothing)."""
    order, passes = h28(hearts)
    m = hearts.new_match(deck_orders=[order], seed=1)
    run(m, passes)
    play(m, " ".join(H28_TRICKS))
    assert m.scores == [0, 17, 6, 3]


RANK_CASES = [(h, lo, first) for h, lo in zip(RANKS, RANKS[1:]) for first in (True, False)]
RANK_CASES = [c for c in RANK_CASES if c[1] != "2" or c[2]]


@pytest.mark.parametrize("high, low, high_first", RANK_CASES)
def test_H1_H18_rank_order_A_high_2_low(hearts, high, low, high_first):
    """H1, H18: of two clubs in trick 1, the higher rank wins (A K Q ... 3 2); the AD
    discarded by a seat void in clubs does not win."""
    if low == "2":  # the 2C is led by seat 1; seat 2's 3C beats it; seats 3 and 0 discard
        spec = {1: "2C", 2: "3C", 3: "AS", 0: "AD"}
        d = start(hearts, spec, void={3: "C", 0: "C"})
        play(d, "2C 3C AS AD")
        winner = 2
    else:
        a, b = (high, low) if high_first else (low, high)
        spec = {1: "2C", 2: a + "C", 3: b + "C", 0: "AD"}
        d = start(hearts, spec, void={0: "C"})
        play(d, f"2C {a}C {b}C AD")
        winner = 2 if high_first else 3
    assert d.observation(0).tricks[0][2] == winner
    assert d.to_act == winner


def test_H2_H18_no_trump_the_led_suit_wins_in_random_deals(hearts):
    """H2, H18: no trump is ever in force; every trick of 20 random deals went to the highest
    card of the suit led, however high the cards of other suits."""
    for seed in range(20):
        d = random_deal(hearts, seed, dealer=seed % 4)
        obs = d.observation(seed % 4)
        assert obs.trump is None
        assert len(obs.tricks) == 13
        for _leader, cards, winner in obs.tricks:
            assert winner == trick_winner(cards)


def test_H2_a_high_spade_or_heart_discard_never_wins(hearts):
    """H2, H18: in H28's trick 4 the diamond lead is won by the AD over discarded hearts; in
    trick 12 the JS wins over the JD of a void player."""
    order, passes = h28(hearts)
    d = hearts.new_deal(order, dealer=0)
    run(d, passes)
    play(d, " ".join(H28_TRICKS))
    tricks = d.observation(1).tricks
    assert tricks[3][2] == 2 and tricks[11][2] == 0
    assert d.observation(1).trump is None


def test_H3_H21_penalty_points_in_random_deals(hearts):
    """H3, H21: each heart 1, the QS 13, every other card 0: in 30 random deals each seat
    scores the penalty cards in the tricks it won (26 in all) unless one took them all."""
    for seed in range(30):
        d = random_deal(hearts, 100 + seed)
        taken = taken_points(d.observation(2))
        assert sum(taken) == 26
        assert d.gains == expected_gains(taken)


# ---------------------------------------------------------------- deal
def test_H4_seat_0_deals_first_then_clockwise(eight_deals):
    """H4: deals 1..8 are dealt by seats 0, 1, 2, 3, 0, 1, 2, 3."""
    assert [r["dealer"] for r in eight_deals] == [0, 1, 2, 3, 0, 1, 2, 3]


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_H5_one_card_at_a_time_from_left_of_dealer(hearts, dealer):
    """H5: the card at deck position i (top = 1) goes to seat (d + i) mod 4."""
    order = list(ALL_CARDS)
    random.Random(dealer).shuffle(order)
    d = hearts.new_deal(order, dealer=dealer)
    for i, card in enumerate(order, start=1):
        assert card in d.hand_texts((dealer + i) % 4)
    assert [len(d.hand_texts(s)) for s in range(4)] == [13] * 4


def test_H5_dealt_hands_in_a_match(eight_deals):
    """H5: in a match, too, every seat is dealt 13 cards before any passing."""
    for rec in eight_deals:
        assert sorted(sum(rec["dealt"].values(), [])) == sorted(ALL_CARDS)
        assert all(len(h) == 13 for h in rec["dealt"].values())


def test_H6_never_a_redeal(hearts):
    """H6: no redeal is ever offered: the first action of every deal of a random match is a
    pass (or, in a hold hand, the 2C lead), and no deal is redealt."""
    rng = random.Random(6)
    m = hearts.new_match(seed=6)
    firsts = []
    while not m.is_over:
        if m.deals_dealt > len(firsts):  # a new deal: nothing done in it yet
            firsts.append([str(a) for a in m.legal_actions()])
        m.apply(rng.choice(m.legal_actions()))
    assert m.redeals == 0 and m.deals_dealt == m.deals_played
    for k, legal in enumerate(firsts, start=1):
        if k % 4 == 0:
            assert legal == ["play 2C"]
        else:
            assert len(legal) == 13 and all(t.startswith("pass ") for t in legal)
    assert not any("redeal" in text or text == "keep" for _, _, text in m.history)


# ---------------------------------------------------------------- passing
@pytest.mark.parametrize("k, offset", [(1, 1), (2, 3), (3, 2), (4, 0), (5, 1), (6, 3), (7, 2)])
def test_H7_passing_direction_by_deal_number(eight_deals, k, offset):
    """H7: deal k passes left (k = 1, 5), right (2, 6), across (3, 7) or not at all (4)."""
    rec = eight_deals[k - 1]
    if offset == 0:
        assert rec["choosers"] == []
        return
    for giver in range(4):
        taker = (giver + offset) % 4
        chosen = rec["chosen"][giver]
        assert len(chosen) == 3
        assert set(chosen) <= set(rec["after"][taker])
        assert sorted(rec["received"][taker]) == sorted(chosen)


def test_H7_H10_deals_4_and_8_are_hold_hands(eight_deals):
    """H7, H10: deals 4 and 8 have no passing: play begins at once with the 2C lead and
    every seat keeps the hand he was dealt."""
    for rec in (eight_deals[3], eight_deals[7]):
        assert rec["choosers"] == [] and rec["first_phase"] != "pass"
        assert rec["after"] == rec["dealt"]
        holder = next(s for s in range(4) if "2C" in rec["dealt"][s])
        assert rec["first_legal"] == (holder, ["play 2C"])
        assert all(r == [] for r in rec["received"].values())


def test_H8_three_cards_each_one_at_a_time_from_left_of_dealer(hearts):
    """H8: dealer 2: seats 3, 0, 1, 2 each choose 3 cards, one action per card; every card
    of the hand is offered, a chosen card is no longer offered; nothing else is legal."""
    d = hearts.new_deal(seed=8, dealer=2)
    assert d.observation(3).phase == "pass"
    dealt = {s: d.hand_texts(s) for s in range(4)}
    for seat in (3, 0, 1, 2):
        left = list(dealt[seat])
        for k in range(3):
            assert d.to_act == seat
            assert sorted(legal_cards(d)) == sorted(left)
            assert all(a.kind == "pass_card" for a in d.legal_actions())
            with pytest.raises(trickcore.IllegalActionError):
                d.apply(f"play {left[0]}")
            card = left[k * 4 % len(left)]
            d.apply(f"pass {card}")
            left.remove(card)
            assert card not in d.hand_texts(seat)
            if k < 2:
                with pytest.raises(trickcore.IllegalActionError):
                    d.apply(f"pass {card}")  # set aside: not his to choose again
    assert d.observation(0).phase != "pass"


def test_H9_nobody_receives_before_all_12_are_chosen(hearts):
    """H9: the cards stay set aside until the 12th is chosen, so the dealer (last to choose)
    cannot pass on what his right-hand neighbour gives him; then all move at once."""
    d = hearts.new_deal(seed=9, dealer=0)
    dealt = {s: d.hand_texts(s) for s in range(4)}
    chosen: dict[int, list[str]] = {}
    for n in range(12):
        seat = d.to_act
        if n == 9:  # the dealer chooses: he is offered exactly his own 13 cards
            assert seat == 0 and sorted(legal_cards(d)) == sorted(dealt[0])
        card = legal_cards(d)[-1]
        d.apply(f"pass {card}")
        chosen.setdefault(seat, []).append(card)
        if n < 11:
            for s in range(4):
                assert d.observation(s).received == ()
                assert sorted(d.hand_texts(s)) == sorted(set(dealt[s]) - set(chosen.get(s, [])))
                assert list(d.observation(s).set_aside) == chosen.get(s, [])
    for s in range(4):
        giver = (s - 1) % 4
        assert sorted(d.hand_texts(s)) == sorted(
            set(dealt[s]) - set(chosen[s]) | set(chosen[giver])
        )
        assert sorted(d.observation(s).received) == sorted(chosen[giver])
        assert d.observation(s).set_aside == ()


def test_H11_thirteen_cards_after_the_exchange(eight_deals):
    """H11: after the exchange (and in a hold hand) every seat holds 13 cards, all 52 in
    play."""
    for rec in eight_deals:
        assert all(len(h) == 13 for h in rec["after"].values())
        assert sorted(sum(rec["after"].values(), [])) == sorted(ALL_CARDS)


# ---------------------------------------------------------------- play
@pytest.mark.parametrize("passed", [False, True])
def test_H12_holder_of_2C_after_passing_leads_it(hearts, passed):
    """H12: seat 1 is dealt the 2C; if he passes it (left, to seat 2) seat 2 leads it, else
    seat 1 does; the 2C is the only legal action."""
    order = hearts.stack_deck({1: ["2C", "AC", "KC", "QC"]}, dealer=0)
    d = hearts.new_deal(order, dealer=0)
    for _ in range(12):
        seat = d.to_act
        cards = [c for c in legal_cards(d) if c != "2C"]
        d.apply(
            "pass 2C" if passed and seat == 1 and "2C" in legal_cards(d) else f"pass {cards[0]}"
        )
    leader = 2 if passed else 1
    assert d.to_act == leader
    assert [str(a) for a in d.legal_actions()] == ["play 2C"]
    for other in ("AC", "KC", "QC"):
        if other in d.hand_texts(leader):
            with pytest.raises(trickcore.IllegalActionError):
                d.apply(f"play {other}")


def test_H13_clockwise_winner_leads_13_tricks(hearts):
    """H13: in the H28 deal each trick is played clockwise from its leader, the winner of a
    trick leads the next, and the deal ends with the 13th trick (H20)."""
    order, passes = h28(hearts)
    d = hearts.new_deal(order, dealer=0)
    run(d, passes)
    leader = 0
    for t, trick in enumerate(H28_TRICKS):
        assert leader == H28_LEADERS[t]
        cards = trick.split()
        for k, card in enumerate(cards):
            assert d.to_act == (leader + k) % 4 and not d.is_over
            d.apply(f"play {card}")
        leader = trick_winner([((H28_LEADERS[t] + k) % 4, c) for k, c in enumerate(cards)])
        assert d.observation(0).tricks[t][2] == leader
    assert d.is_over and len(d.observation(0).tricks) == 13


def test_H14_follow_suit_if_able_else_any_card(hearts):
    """H14: H28 trick 4: seat 2 holds diamonds and may play only diamonds; seat 3 is void in
    diamonds and may play any card, hearts included (trick 1 is over)."""
    order, passes = h28(hearts)
    d = hearts.new_deal(order, dealer=0)
    run(d, passes)
    assert sorted(legal_cards(d)) == ["2C"]
    play(d, "2C")
    assert sorted(legal_cards(d)) == ["AC", "KC"]  # seat 1 must follow with a club
    play(d, "AC 3C 4C | KC 5C 6C 7C | AS 2S QS 3S | KD")
    assert sorted(legal_cards(d)) == sorted("AD 7D 6D 5D 4D 3D 2D".split())
    play(d, "AD")
    assert sorted(legal_cards(d)) == sorted(d.hand_texts(3))
    assert "2H" in legal_cards(d) and len(legal_cards(d)) == 10


@pytest.mark.parametrize(
    "hand3, allowed",
    [
        # H30: the QS, some hearts and the 7D: only the 7D
        ("QS 7D AH KH QH JH 10H 9H 8H 7H 6H 5H 4H", "7D"),
        # other cards besides penalty cards: any of them, never a heart or the QS
        ("QS 7D 6D 5S AH KH QH JH 10H 9H 8H 7H 6H", "7D 6D 5S"),
        # H30: only hearts and the QS: any of them
        ("QS KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H", "QS KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"),
        # only hearts: any of them
        ("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H", "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"),
        # the QS and spades only: the spades
        ("QS AS KS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "AS KS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"),
    ],
)
def test_H15_H30_first_trick_no_penalty_card_from_a_void_player(hearts, hand3, allowed):
    """H15, H30: on trick 1 a player void in clubs must not play a heart or the QS while he
    holds another card; with only hearts and the QS he may play any of them."""
    d = first_trick(hearts, hand3)
    assert sorted(legal_cards(d)) == sorted(allowed.split())


def test_H15_a_player_who_can_follow_on_trick_1_must(hearts):
    """H14, H15: on trick 1 a player holding a club plays a club (not a diamond or spade)."""
    d = first_trick(hearts, "QS 7D AH KH QH JH 10H 9H 8H 7H 6H 5H 4H")
    assert d.observation(0).trick[1] == (1, "AC")
    d2 = start(hearts, {0: "2C", 1: "AC 5D 5S 2H"}, void={})
    play(d2, "2C")
    assert all(suit(c) == "C" for c in legal_cards(d2)) and "AC" in legal_cards(d2)


@pytest.mark.parametrize("seat3_plays, broken", [("2H", True), ("QS", False)])
def test_H16_H30_heart_on_trick_1_breaks_hearts_the_QS_does_not(hearts, seat3_plays, broken):
    """H16, H30: seat 3 (no clubs; only hearts and the QS) plays a heart to trick 1: from
    trick 2 on hearts are broken and seat 1 may lead his AH; the QS instead breaks nothing."""
    d = first_trick(hearts, "QS KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H", extra1="AH")
    play(d, seat3_plays)
    assert d.to_act == 1
    assert ("AH" in legal_cards(d)) is broken
    assert len(legal_cards(d)) > 1


def test_H16_a_discarded_heart_breaks_hearts(hearts):
    """H16, H17: in H28 hearts may not be led by seat 1 before trick 4; the 2H and 3H
    discarded to trick 4 let seat 2 lead the AH to trick 5."""
    order, passes = h28(hearts)
    d = hearts.new_deal(order, dealer=0)
    run(d, passes)
    for trick in H28_TRICKS[:3]:
        play(d, trick)
    assert d.to_act == 1
    assert not any(suit(c) == "H" for c in legal_cards(d))
    assert sorted(legal_cards(d)) == sorted("5S KD QD JD 10D 9D 8D".split())
    play(d, H28_TRICKS[3])
    assert d.to_act == 2
    assert sorted(legal_cards(d)) == sorted(d.hand_texts(2))
    assert {"AH", "10H"} <= set(legal_cards(d))


# H17 only-hearts lead: seat 1 wins tricks 1 and 2 with clubs and holds eleven hearts.
ONLY_HEARTS = {
    0: "2C 9C 3D",
    1: "AC KC KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
    2: "AH 2H QC 8C",
    3: "JC 10C 2D",
}


def test_H17_H16_a_hand_of_hearts_only_may_lead_hearts_which_breaks_them(hearts):
    """H17, H16: seat 1 may lead only his KC while he holds it; then, with hearts only, he
    may lead any heart; the led heart breaks hearts, so seat 2, who wins, may lead his 2H."""
    d = start(hearts, ONLY_HEARTS)
    play(d, "2C AC QC JC")
    assert d.to_act == 1 and legal_cards(d) == ["KC"]
    play(d, "KC 8C 10C 9C")
    assert d.to_act == 1
    assert sorted(legal_cards(d)) == sorted(ONLY_HEARTS[1].split()[2:])
    play(d, "3H AH 2D 3D")
    assert d.to_act == 2
    assert len(d.hand_texts(2)) == 10 and "2H" in legal_cards(d)
    assert sorted(legal_cards(d)) == sorted(d.hand_texts(2))


# The QS led before hearts are broken (seat 1 wins trick 1; seat 2 wins trick 2 with AS).
QUEEN_LEAD = {0: "2C 3S", 1: "AC QS 2H", 2: "KC AS 3H", 3: "QC 2S"}


def test_H17_H16_the_QS_may_be_led_before_hearts_are_broken_and_breaks_nothing(hearts):
    """H17: on trick 2 seat 1 may lead the QS but not his 2H (hearts unbroken); H16 settled:
    after the QS has been played seat 2 still may not lead a heart."""
    d = start(hearts, QUEEN_LEAD)
    play(d, "2C AC KC QC")
    assert d.to_act == 1
    assert "QS" in legal_cards(d) and "2H" not in legal_cards(d)
    assert not any(suit(c) == "H" for c in legal_cards(d))
    play(d, "QS AS 2S 3S")
    assert d.to_act == 2
    assert "3H" in d.hand_texts(2) and not any(suit(c) == "H" for c in legal_cards(d))
    assert len(legal_cards(d)) == len([c for c in d.hand_texts(2) if suit(c) != "H"])


def test_H14_H15_H17_legal_cards_in_random_deals(hearts):
    """H12, H14, H15, H16, H17 restated: at every play of 12 random deals the legal cards are
    exactly those the rules allow."""
    for seed in range(12):
        rng = random.Random(seed)
        d = hearts.new_deal(seed=200 + seed, dealer=seed % 4)
        while not d.is_over:
            legal = d.legal_actions()
            if str(legal[0]).startswith("play "):
                obs = d.observation(d.to_act)
                hand = list(obs.hand)
                tricks_played = len(obs.tricks)
                broken = any(suit(c) == "H" for _, cards, _ in obs.tricks for _, c in cards)
                if not obs.trick:
                    if tricks_played == 0:
                        allowed = ["2C"]
                    else:
                        allowed = [c for c in hand if suit(c) != "H" or broken]
                        allowed = allowed or hand
                else:
                    led = suit(obs.trick[0][1])
                    allowed = [c for c in hand if suit(c) == led] or hand
                    if tricks_played == 0 and not any(suit(c) == led for c in hand):
                        safe = [c for c in hand if suit(c) != "H" and c != "QS"]
                        allowed = safe or hand
                assert sorted(legal_cards(d)) == sorted(allowed), (seed, obs.trick)
            d.apply(rng.choice(legal))


def test_H19_the_winner_keeps_the_penalty_cards(hearts):
    """H19: in H28 the QS is played by seat 3 but won by seat 1 with the AS: the 13 points
    are seat 1's; every trick's winner is recorded in every seat's view."""
    order, passes = h28(hearts)
    d = hearts.new_deal(order, dealer=0)
    run(d, passes)
    play(d, " ".join(H28_TRICKS))
    trick3 = d.observation(3).tricks[2]
    assert (3, "QS") in trick3[1] and trick3[2] == 1
    assert d.gains[1] == 17 and d.gains[3] == 3


def test_H20_deal_ends_with_the_13th_trick_26_points_taken(hearts):
    """H20: after 51 cards the deal goes on; the 52nd ends it, with all 26 points taken."""
    for seed in range(5):
        d = hearts.new_deal(seed=300 + seed)
        for _ in range(12):
            d.apply(first_legal(d))
        rng = random.Random(seed)
        for _ in range(51):
            d.apply(rng.choice(d.legal_actions()))
        assert not d.is_over and d.to_act >= 0 and len(d.observation(0).tricks) == 12
        d.apply(first_legal(d))
        assert d.is_over
        assert sum(taken_points(d.observation(0))) == 26
        assert sum(d.gains) in (26, 78)


# ---------------------------------------------------------------- scoring
def test_H21_H28_a_normal_deal_17_6_3_0(hearts):
    """H21, H28: seat 1 takes the QS and 4 hearts (17), seat 2 six hearts (6), seat 3 three
    (3), seat 0 none: 26 in all."""
    order, passes = h28(hearts)
    d = hearts.new_deal(order, dealer=0)
    run(d, passes)
    play(d, " ".join(H28_TRICKS))
    assert d.is_over
    assert d.gains == [0, 17, 6, 3] and sum(d.gains) == 26
    assert taken_points(d.observation(0)) == [0, 17, 6, 3]


def test_H22_H29_shooting_the_moon(hearts):
    """H22, H29: seat 2 takes all 13 hearts and the QS: he scores 0, the others 26 each."""
    d = start(hearts, MOON)
    finish(d)
    assert taken_points(d.observation(2)) == [0, 0, 26, 0]
    assert d.gains == [26, 26, 0, 26]


def test_H22_a_moon_while_another_seat_wins_a_trick(hearts):
    """H22: the moon needs the penalty cards, not every trick: seat 0 wins trick 2 (no
    penalty card in it) and seat 2 takes all 26 points."""
    spec, script = MOON_BUT_JD
    d = start(hearts, spec, void={1: "S"})
    play(d, script)
    finish(d)
    assert d.observation(0).tricks[1][2] == 0
    assert d.gains == [26, 26, 0, 26]


@pytest.mark.parametrize(
    "case, void, gains",
    [(NEAR_MOON_HEARTS, {}, [13, 0, 13, 0]), (NEAR_MOON_QUEEN, {1: "S"}, [1, 0, 25, 0])],
    ids=["13 hearts without the QS", "QS and 12 hearts"],
)
def test_H22_no_moon_without_every_penalty_card(hearts, case, void, gains):
    """H22: all 13 hearts without the QS (13), or the QS and 12 hearts (25), are no moon:
    the points count as they are."""
    spec, script = case
    d = start(hearts, spec, void=void)
    play(d, script)
    finish(d)
    assert d.gains == gains


def test_H23_deal_points_add_to_running_totals(hearts):
    """H23: the H28 deal adds 0, 17, 6, 3 to the totals 5, 5, 5, 5 (and a second deal adds
    its points again)."""
    order, passes = h28(hearts)
    m = hearts.new_match(deck_orders=[order, order], seed=1, scores=[5, 5, 5, 5])
    run(m, passes)
    play(m, " ".join(H28_TRICKS))
    assert m.scores == [5, 22, 11, 8] and m.deals_played == 1
    finish(m)  # deal 2 (dealer 1, passing right)
    assert m.deals_played == 2
    assert sum(m.scores) in (46 + 26, 46 + 78)
    assert all(m.scores[s] >= [5, 22, 11, 8][s] for s in range(4))


# ---------------------------------------------------------------- match
@pytest.mark.parametrize(
    "start_scores, over, winners",
    [
        ([0, 82, 0, 0], False, []),  # 99: the match goes on
        ([0, 83, 0, 0], True, [0]),  # 100: it ends; the lowest total wins, not the 100
        ([150, 0, 0, 0], True, [3]),  # 150 before the deal: it ends only after a deal
        ([1000, 0, 0, 0], True, [3]),  # however high the totals, the lowest wins
        ([30, 83, 30, 40], True, [0]),  # 30, 100, 36, 43: seat 0 alone lowest
    ],
)
def test_H24_H25_match_ends_after_the_deal_reaching_100(hearts, start_scores, over, winners):
    """H24, H25: the match ends after the first deal at whose end a total is 100 or more;
    the lowest total wins."""
    order, passes = h28(hearts)
    m = hearts.new_match(deck_orders=[order], seed=1, scores=start_scores)
    assert not m.is_over and m.to_act == 1
    run(m, passes)
    play(m, " ".join(H28_TRICKS))
    assert m.is_over is over
    if over:
        assert sorted(m.winners) == winners
    else:
        assert m.deals_played == 1 and m.to_act >= 0 and m.deal.dealer == 1


def test_H25_H31_tied_lowest_totals_share_the_win(hearts):
    """H25, H31: totals 102, 67, 88, 67 after a deal: the match ends, seats 1 and 3 win."""
    order, passes = h28(hearts)
    m = hearts.new_match(deck_orders=[order], seed=1, scores=[102, 50, 82, 64])
    run(m, passes)
    play(m, " ".join(H28_TRICKS))
    assert m.scores == [102, 67, 88, 67]
    assert m.is_over and sorted(m.winners) == [1, 3]


def test_H26_totals_never_fall_and_every_match_ends(hearts):
    """H26: in random matches every deal adds 26 (78 after a moon) to the totals, no total
    falls, and the match ends at the first deal that brings a total to 100 (H24)."""
    for seed in range(3):
        rng = random.Random(seed)
        m = hearts.new_match(seed=400 + seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        before = [0, 0, 0, 0]
        played = [r for r in m.deal_results if not r.get("redeal")]
        assert len(played) == m.deals_played
        for k, rec in enumerate(played):
            after = rec["scores"]
            assert sum(after) - sum(before) in (26, 78)
            assert all(a >= b for a, b in zip(after, before))
            assert (max(after) >= 100) is (k == len(played) - 1)
            before = after
        low = min(m.scores)
        assert sorted(m.winners) == [s for s in range(4) if m.scores[s] == low]


# ---------------------------------------------------------------- information
def test_H27_passed_cards_are_private_play_and_scores_public(hearts):
    """H27: a seat's chosen cards are seen only by him until the exchange, then also by his
    recipient, never by the other two or the public view; the played cards, trick winners
    and scores are seen by all."""
    m = hearts.new_match(seed=27, scores=[1, 2, 3, 4])
    deal = m.current
    chosen: dict[int, list[str]] = {s: [] for s in range(4)}
    while str(m.legal_actions()[0]).startswith("pass "):
        seat = m.to_act
        card = [c for c in legal_cards(m) if c != "2C"][0]
        m.apply(f"pass {card}")
        chosen[seat].append(card)
        if sum(map(len, chosen.values())) == 12:
            break  # the 12th choice: the cards have moved on (checked below)
        assert list(m.observation(seat).set_aside) == chosen[seat]
        for other in range(4):
            if other != seat:
                assert not cards_in(m.observation(other)) & set(chosen[seat])
    assert not cards_in(m.deal)
    for giver in range(4):
        taker = (giver + 1) % 4
        assert set(m.observation(taker).received) == set(chosen[giver])
        given = [(s, sorted(c)) for s, c in m.observation(giver).given]
        assert (taker, sorted(chosen[giver])) in given
        for other in ((giver + 2) % 4, (giver + 3) % 4):
            assert not cards_in(m.observation(other)) & set(chosen[giver])
    for s in range(4):
        assert set(m.observation(s).hand) == set(deal.hand_texts(s))
        assert m.observation(s).scores == (1, 2, 3, 4)
    for _ in range(4):
        m.apply(first_legal(m))
    public = m.deal.tricks[0]
    assert [m.observation(s).tricks[0] for s in range(4)] == [public] * 4
    assert len(public[1]) == 4 and public[1][0][1] == "2C"


# ---------------------------------------------------------------- worked examples
def test_H28_worked_normal_deal_in_a_match(hearts):
    """H28: the normal deal scores 17 + 6 + 3 + 0 = 26 on the match scoreboard."""
    order, passes = h28(hearts)
    m = hearts.new_match(deck_orders=[order], seed=1)
    run(m, passes)
    play(m, " ".join(H28_TRICKS))
    assert m.scores == [0, 17, 6, 3] and sum(m.scores) == 26
    assert m.deal_results[0]["scores"] == [0, 17, 6, 3]


def test_H29_worked_moon_in_a_match(hearts):
    """H29: seat 2 shoots the moon: totals 26, 26, 0, 26."""
    final = complete(MOON)
    order, passes = stacked(hearts, final)
    m = hearts.new_match(deck_orders=[order], seed=1)
    run(m, passes)
    finish(m)
    assert m.scores == [26, 26, 0, 26]


def test_H30_worked_first_trick(hearts):
    """H30: seat 3 (no clubs; QS, hearts and the 7D) may only play the 7D; with only hearts
    and the QS any card; a heart then breaks hearts from trick 2 on."""
    d = first_trick(hearts, "QS 7D AH KH QH JH 10H 9H 8H 7H 6H 5H 4H")
    assert [str(a) for a in d.legal_actions()] == ["play 7D"]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("play QS")
    d = first_trick(hearts, "QS KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H", extra1="AH")
    assert len(d.legal_actions()) == 13
    play(d, "5H")
    assert d.to_act == 1 and "AH" in legal_cards(d)


def test_H31_worked_end_shared_win(hearts):
    """H31: 102, 67, 88, 67: over; seats 1 and 3 share the win (nobody plays on)."""
    order, passes = h28(hearts)
    m = hearts.new_match(deck_orders=[order], seed=1, scores=[102, 50, 82, 64])
    run(m, passes)
    play(m, " ".join(H28_TRICKS))
    assert m.is_over and sorted(m.winners) == [1, 3] and m.to_act == -1
    with pytest.raises(trickcore.IllegalActionError):
        m.apply("pass 2C")


def test_H32_worked_passing_order_of_deal_6(eight_deals):
    """H32: deal 6 passes right and is dealt by seat 1: seats 2, 3, 0, 1 choose in turn;
    seat 0 gives to 3, 1 to 0, 2 to 1, 3 to 2."""
    rec = eight_deals[5]
    assert rec["dealer"] == 1
    assert rec["choosers"] == [2, 2, 2, 3, 3, 3, 0, 0, 0, 1, 1, 1]
    for giver, taker in ((0, 3), (1, 0), (2, 1), (3, 2)):
        assert sorted(rec["received"][taker]) == sorted(rec["chosen"][giver])
        assert set(rec["chosen"][giver]) <= set(rec["after"][taker])


# ---------------------------------------------------------------- house rules
@pytest.fixture(scope="module")
def jack() -> trickcore.Variant:
    """H33."""
    return trickcore.load_variant("hearts-jack-of-diamonds")


@pytest.fixture(scope="module")
def queen_breaks() -> trickcore.Variant:
    """H34."""
    return trickcore.load_variant("hearts-queen-breaks-hearts")


@pytest.fixture(scope="module")
def first_points() -> trickcore.Variant:
    """H35."""
    return trickcore.load_variant("hearts-first-trick-points")


@pytest.fixture(scope="module")
def play_off() -> trickcore.Variant:
    """H37."""
    return trickcore.load_variant("hearts-play-off-ties")


@pytest.fixture(scope="module")
def eldest() -> trickcore.Variant:
    """H38."""
    return trickcore.load_variant("hearts-eldest-leads")


def test_H33_jack_of_diamonds_minus_10_normal_deal_sums_16(jack):
    """H33: in H28 seat 0 wins the JD (trick 12): -10; the rest as in H28; sum 16."""
    order, passes = h28(jack)
    d = jack.new_deal(order, dealer=0)
    run(d, passes)
    play(d, " ".join(H28_TRICKS))
    assert d.gains == [-10, 17, 6, 3] and sum(d.gains) == 16


@pytest.mark.parametrize(
    "case, gains",
    [((MOON, ""), [26, 26, -10, 26]), (MOON_BUT_JD, [16, 26, 0, 26])],
    ids=["shooter takes the JD", "another seat takes the JD"],
)
def test_H33_jack_is_scored_separately_after_a_moon(jack, case, gains):
    """H33: the moon still needs only the hearts and the QS; the JD counts -10 to whoever
    took it: a shooter with the JD scores -10, an opponent with it 26 - 10."""
    spec, script = case
    d = start(jack, spec, void={1: "S"} if script else None)
    play(d, script)
    finish(d)
    assert d.gains == gains


def test_H33_a_total_can_fall(jack):
    """H33, H26: after a moon with the JD the shooter's total falls by 10."""
    order, passes = stacked(jack, complete(MOON))
    m = jack.new_match(deck_orders=[order], seed=1, scores=[50, 50, 50, 50])
    run(m, passes)
    finish(m)
    assert m.scores == [76, 76, 40, 76]


def test_H33_without_the_jack_a_deal_scores_as_the_base_game(jack, hearts):
    """H33: 10 random deals (the same cards and choices as in the base game) score as in
    the base game (H21, H22), plus -10 to the seat that took the JD."""
    for seed in range(10):
        base, house = random_deal(hearts, 500 + seed), random_deal(jack, 500 + seed)
        obs = house.observation(0)
        assert obs.tricks == base.observation(0).tricks
        jd = next(w for _, cards, w in obs.tricks if any(c == "JD" for _, c in cards))
        expected = list(base.gains)
        expected[jd] -= 10
        assert house.gains == expected


@pytest.mark.parametrize("seat3_plays", ["QS", "2H"])
def test_H34_the_QS_breaks_hearts(queen_breaks, hearts, seat3_plays):
    """H34: after the QS is played to trick 1 (H15's exception) seat 1 may lead his AH to
    trick 2; in the base game (H16) he may not. A heart breaks them in both."""
    for v, broken in ((queen_breaks, True), (hearts, seat3_plays == "2H")):
        d = first_trick(v, "QS KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H", extra1="AH")
        play(d, seat3_plays)
        assert ("AH" in legal_cards(d)) is broken


def test_H34_a_QS_lead_breaks_hearts(queen_breaks, hearts):
    """H34: seat 1 leads the QS to trick 2; seat 2, who wins it, may then lead his 3H; not in
    the base game; before the QS is played hearts stay unbroken in both."""
    for v, broken in ((queen_breaks, True), (hearts, False)):
        d = start(v, QUEEN_LEAD)
        play(d, "2C AC KC QC")
        assert "2H" not in legal_cards(d)
        play(d, "QS AS 2S 3S")
        assert ("3H" in legal_cards(d)) is broken


def test_H35_first_trick_points_any_card_when_void(first_points, hearts):
    """H35: H15 is dropped: seat 3, void in clubs, may play any card to trick 1 (the base
    game allows only the 7D); the QS then scores 13 to the trick's winner."""
    hand = "QS 7D AH KH QH JH 10H 9H 8H 7H 6H 5H 4H"
    d = first_trick(first_points, hand)
    assert sorted(legal_cards(d)) == sorted(hand.split())
    assert legal_cards(first_trick(hearts, hand)) == ["7D"]
    play(d, "QS")
    assert d.observation(0).tricks[0][2] == 1
    finish(d)
    taken = taken_points(d.observation(0))
    assert taken[1] >= 13 and d.gains == expected_gains(taken)


def test_H35_still_follow_suit_and_lead_the_2C(first_points):
    """H35 changes only H15: the 2C is still the only first lead (H12) and a seat with a
    club must still follow (H14)."""
    d = start(first_points, {0: "2C", 1: "AC 5D 5S 2H"})
    assert legal_cards(d) == ["2C"]
    play(d, "2C")
    assert all(suit(c) == "C" for c in legal_cards(d))


def test_H37_tied_lowest_totals_play_on(play_off, hearts):
    """H37: totals 100, 67, 67, 67 after H28: in the base game seats 1-3 share the win
    (H25); here further deals are played until one seat alone has the lowest total."""
    order, passes = h28(hearts)
    start_scores = [100, 50, 61, 64]
    base = hearts.new_match(deck_orders=[order], seed=1, scores=start_scores)
    run(base, passes)
    play(base, " ".join(H28_TRICKS))
    assert base.is_over and sorted(base.winners) == [1, 2, 3]
    m = play_off.new_match(deck_orders=[order], seed=37, scores=start_scores)
    run(m, passes)
    play(m, " ".join(H28_TRICKS))
    assert m.scores == [100, 67, 67, 67]
    assert not m.is_over and m.deals_played == 1 and m.to_act >= 0
    while not m.is_over:
        m.apply(first_legal(m))
    results = [r["scores"] for r in m.deal_results]
    for scores in results[:-1]:  # every deal before the last left the lowest tied
        assert scores.count(min(scores)) > 1
    low = min(m.scores)
    assert m.scores.count(low) == 1 and m.winners == [m.scores.index(low)]


def test_H37_a_single_lowest_ends_at_once(play_off):
    """H37: without a tie the match ends as in H24/H25."""
    order, passes = h28(play_off)
    m = play_off.new_match(deck_orders=[order], seed=1, scores=[0, 83, 0, 0])
    run(m, passes)
    play(m, " ".join(H28_TRICKS))
    assert m.is_over and m.winners == [0]


# H38: seat 1 (left of dealer 0) leads trick 1 although seat 3 holds the 2C; seat 2 is void
# in diamonds.
ELDEST = {1: "QS AD 5D 5H 3C", 2: "AH KS JC", 3: "2C"}


def test_H38_eldest_leads_any_card_but_a_heart(eldest, hearts):
    """H38: the player left of the dealer leads trick 1 with any card, the QS included,
    except (H17) a heart; in the base game the 2C holder leads it."""
    d = start(eldest, ELDEST, void={2: "D"})
    assert d.to_act == 1
    hand = d.hand_texts(1)
    assert "2C" not in hand
    assert sorted(legal_cards(d)) == sorted(c for c in hand if suit(c) != "H")
    assert {"QS", "AD", "3C"} <= set(legal_cards(d))
    base = start(hearts, ELDEST, void={2: "D"})
    assert base.to_act == 3 and legal_cards(base) == ["2C"]


def test_H38_H15_still_applies_on_trick_1(eldest):
    """H38: H15 still holds: seat 2, void in the diamond led, may not play a heart (or the
    QS) to trick 1; from trick 2 on he may."""
    d = start(eldest, ELDEST, void={2: "D"})
    play(d, "AD")
    assert d.to_act == 2
    hand = d.hand_texts(2)
    assert sorted(legal_cards(d)) == sorted(c for c in hand if suit(c) != "H" and c != "QS")
    assert "KS" in legal_cards(d) and "AH" not in legal_cards(d)
