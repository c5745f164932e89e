"""Tysiacha rules (C1–C3 of docs/rules/conventions.md, T1–T20 of docs/rules/tysiacha.md)
played through the public API.

Each test plays a rule on real cards and fails when that rule is broken in
`variants/tysiacha.rules` or in the engine; none of them reads the compiled model.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from conftest import run, texts

import trickcore

# T2, restated here (not read from the variant): points per rank.
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
RANKS = ["A", "10", "K", "Q", "J", "9"]  # T1: high to low
SUITS = "SCDH"


def rank(card: str) -> str:
    """The rank symbol of a card text."""
    return card[:-1]


def round5(points: int) -> int:
    """T20 restated: nearest multiple of 5, 0/1/2 down and 3/4 up."""
    return (points + 2) // 5 * 5


def random_deal(v: trickcore.Variant, seed: int, dealer: int = 0) -> trickcore.Deal:
    """A deal played to the end with random legal actions."""
    rng = random.Random(seed)
    d = v.new_deal(seed=seed, dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    while not d.is_over:
        d.apply(rng.choice(d.legal_actions()))
    return d


def bids(d: trickcore.Deal) -> list[int]:
    """The bid values offered to the seat to act."""
    return [a.value for a in d.legal_actions() if a.kind == "bid"]


# A deal in which seat 2 (not forehand: dealer 0, forehand 1) declares 105, wins the first
# trick with AC, declares the hearts marriage, loses that trick to seat 1's 10H; seat 1
# then leads AD, which seat 2 and seat 0 are both void in.
VOID_HANDS: dict[int, Sequence[str]] = {
    2: "KH QH AC 10C KC QC JC".split(),
    1: "AD 10D KD QD JD 9D 10H".split(),
    0: "AH JH 9H AS 10S KS QS".split(),
}
VOID_TALON = ["9C", "JS", "9S"]


def void_deal(v: trickcore.Variant) -> trickcore.Deal:
    """VOID_HANDS up to the declarer's first lead (seat 2 declares 105)."""
    d = void_deal_start(v)
    run(d, ["bid 100", "bid 105", "pass", "pass", "give JS to 1", "give 9S to 0"])
    run(d, ["keep contract"])
    return d


# ---------------------------------------------------------------- conventions
def test_C1_seat_0_deals_first_and_left_of_seat_2_is_seat_0(tysiacha):
    m = tysiacha.new_match(seed=3)
    assert m.deal.dealer == 0 and m.to_act == 1
    d = tysiacha.new_deal(seed=3, dealer=2)
    assert d.to_act == 0  # (2 + 1) mod 3
    run(d, ["bid 100"])
    assert d.to_act == 1  # clockwise: the next seat number


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_C2_T4_one_card_at_a_time_from_left_of_dealer_last_three_are_talon(tysiacha, dealer):
    order = [f"{r}{s}" for s in SUITS for r in RANKS]
    random.Random(dealer).shuffle(order)
    d = tysiacha.new_deal(order, dealer=dealer)
    for k in range(3):
        seat = (dealer + 1 + k) % 3
        assert set(d.observation(seat).hand) == set(order[k:21:3])
    opener = (dealer + 1) % 3
    run(d, ["bid 100"] + ["pass", "pass"])
    assert d.observation(opener).declarer == opener
    assert set(d.observation((opener + 1) % 3).talon_shown or ()) == set(order[21:])


def test_C3_forced_and_single_actions_are_still_offered(tysiacha):
    d = void_deal(tysiacha)
    d.apply("play AC")
    d.apply("play 9S")
    assert d.to_act == 1 and not d.is_over
    d.apply("play JS")
    run(d, ["marry KH", "play 9H"])
    assert texts(d.legal_actions()) == ["play 10H"]  # one legal card: still an action
    assert d.to_act == 1
    # the declarer's raise question is asked although he may only keep
    d = tysiacha.new_deal(tysiacha.stack_deck(T12_HANDS, ["QH", "9S", "9C"], 0), dealer=0)
    run(d, ["bid 120", "pass", "pass", "give QH to 2", "give 9C to 0"])
    assert texts(d.legal_actions()) == ["keep contract"] and d.to_act == 1


# ---------------------------------------------------------------- cards
def test_T1_three_players_and_24_cards(tysiacha):
    with pytest.raises(trickcore.TrickcoreError):
        tysiacha.new_match(seed=1, players=4)
    with pytest.raises(trickcore.TrickcoreError):
        tysiacha.new_deal(seed=1, players=2)
    d = tysiacha.new_deal(seed=1)
    assert [len(d.hand_texts(s)) for s in range(3)] == [7, 7, 7]
    with pytest.raises(trickcore.TrickcoreError):
        tysiacha.new_deal([f"{r}{s}" for s in SUITS for r in RANKS][:-1])
    with pytest.raises(trickcore.TrickcoreError):
        tysiacha.card("8S")


@pytest.mark.parametrize("high, low", list(zip(RANKS, RANKS[1:])))
def test_T1_rank_order_a_10_k_q_j_9(tysiacha, high, low):
    """Seat 1 leads one heart, seat 2 follows with his only heart, seat 0 has none."""
    fillers = [f"{r}{s}" for s in "SCD" for r in RANKS]
    for lead, follow, winner in ((low, high, 2), (high, low, 1)):
        other_hearts = [f"{r}H" for r in RANKS if r not in (lead, follow)]
        hands = {
            1: [f"{lead}H", other_hearts[0], *fillers[:5]],
            2: [f"{follow}H", *fillers[5:11]],
            0: fillers[11:18],
        }
        d = tysiacha.new_deal(tysiacha.stack_deck(hands, other_hearts[1:], 0), dealer=0)
        run(d, ["bid 100", "pass", "pass", f"give {fillers[0]} to 2", f"give {fillers[1]} to 0"])
        run(d, ["keep contract", f"play {lead}H", f"play {follow}H", f"play {fillers[11]}"])
        assert d.observation(0).tricks[0][2] == winner, (lead, follow)


# ---------------------------------------------------------------- points and marriages
def test_T2_points_per_rank_in_every_seat_s_tricks(tysiacha):
    """Each seat's card points are the T2 points of exactly the cards in the tricks it won."""
    for seed in range(12):
        d = random_deal(tysiacha, seed, dealer=seed % 3)
        obs = d.observation(0)
        taken = [0, 0, 0]
        for _leader, cards, winner in obs.tricks:
            taken[winner] += sum(POINTS[rank(c)] for _, c in cards)
        assert list(obs.card_points_taken or ()) == taken
        assert sum(taken) == 120


def test_T2_a_scripted_deal_gives_known_points(tysiacha):
    d = void_deal(tysiacha)
    run(d, ["play AC", "play 9S", "play JS"])  # seat 2: 11 + 0 + 2
    run(d, ["marry KH", "play 9H", "play 10H"])  # seat 1: 4 + 0 + 10
    run(d, ["play AD", "play QH", "play AH"])  # seat 0: 11 + 3 + 11
    run(d, ["play AS", "play KD", "play 9C"])  # seat 0: 11 + 4 + 0
    run(d, ["play 10S", "play QD", "play JC"])  # seat 0: 10 + 3 + 2
    run(d, ["play KS", "play JD", "play QC"])  # seat 0: 4 + 2 + 3
    run(d, ["play QS", "play 9D", "play KC"])  # seat 0: 3 + 0 + 4
    run(d, ["play JH", "play 10D", "play 10C"])  # seat 0: 2 + 10 + 10
    assert d.observation(1).card_points_taken == (25 + 15 + 15 + 9 + 7 + 22, 14, 13)


@pytest.mark.parametrize(
    "suit, name, value",
    [("S", "spades", 40), ("C", "clubs", 60), ("D", "diamonds", 80), ("H", "hearts", 100)],
)
def test_T3_marriage_value_by_suit(tysiacha, suit, name, value):
    lead = "A" + ("C" if suit != "C" else "S")
    hands = {1: [f"K{suit}", f"Q{suit}", lead]}
    d = tysiacha.new_deal(tysiacha.stack_deck(hands, dealer=0), dealer=0)
    run(d, ["bid 100", "pass", "pass"])
    for _ in range(2):
        gift = next(
            a
            for a in d.legal_actions()
            if a.card
            not in (tysiacha.card(f"K{suit}"), tysiacha.card(f"Q{suit}"), tysiacha.card(lead))
        )
        d.apply(gift)
    run(d, ["keep contract", f"play {lead}"])
    for _ in range(2):
        d.apply(d.legal_actions()[0])
    assert d.observation(0).tricks[0][2] == 1
    d.apply(f"marry K{suit}")
    assert d.observation(2).declarations == ((1, "marriage", name, value),)
    assert d.observation(2).trump == name


# ---------------------------------------------------------------- deal
def test_T4_dealer_moves_one_seat_left_after_every_deal(tysiacha):
    m = tysiacha.new_match(seed=5)
    dealers = []
    while len(dealers) < 5:
        dealers.append(m.deal.dealer)
        assert m.to_act == (m.deal.dealer + 1) % 3
        deal = m.current
        while m.current is deal and not m.is_over:
            m.apply(m.legal_actions()[0])
    assert dealers == [0, 1, 2, 0, 1]


def test_T5_no_redeal_even_for_hands_that_allow_one_in_schnapsen(tysiacha):
    for hand in ("9S 9C 9D AH 10H KS QC", "JS JC JD JH AS AC AD"):
        for dealer in range(3):
            d = tysiacha.new_deal(
                tysiacha.stack_deck({s: hand.split() for s in [(dealer + 1) % 3]}, dealer=dealer),
                dealer=dealer,
            )
            assert d.phase == "bid" and d.to_act == (dealer + 1) % 3
            assert "redeal" not in texts(d.legal_actions())
    for seed in range(20):
        assert not random_deal(tysiacha, seed).observation(0).redealt


# ---------------------------------------------------------------- bidding
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_T6_left_of_dealer_opens_at_least_100_in_fives_and_cannot_pass(tysiacha, dealer):
    d = tysiacha.new_deal(seed=dealer, dealer=dealer)
    assert d.to_act == (dealer + 1) % 3
    assert "pass" not in texts(d.legal_actions())
    values = bids(d)
    assert values[0] == 100 and values == list(range(100, values[-1] + 1, 5))
    for bad in ("pass", "bid 95", "bid 102"):
        with pytest.raises(trickcore.IllegalActionError):
            d.apply(bad)


def test_T7_raise_by_five_or_more_and_a_passer_is_out_for_the_deal(tysiacha):
    d = void_deal_start(tysiacha)
    run(d, ["bid 100"])
    assert bids(d)[0] == 105 and "pass" in texts(d.legal_actions())
    run(d, ["bid 115", "pass"])  # seat 2 jumps; seat 0 passes and is out
    assert d.to_act == 1 and bids(d)[0] == 120
    run(d, ["bid 120"])
    assert d.to_act == 2  # seat 0 is skipped
    run(d, ["bid 130"])
    assert d.to_act == 1
    assert all(seat != 0 for seat, _ in d.observation(0).bids[3:])


def void_deal_start(v: trickcore.Variant) -> trickcore.Deal:
    """VOID_HANDS before the first bid."""
    d = v.new_deal(v.stack_deck(VOID_HANDS, VOID_TALON, dealer=0), dealer=0)
    assert isinstance(d, trickcore.Deal)
    return d


def test_T8_the_last_player_left_declares_his_last_bid(tysiacha):
    d = void_deal_start(tysiacha)
    run(d, ["bid 100", "bid 105", "bid 110", "pass", "bid 115"])
    assert d.phase == "bid" and d.to_act == 0
    d.apply("pass")
    obs = d.observation(1)
    assert (obs.declarer, obs.contract) == (2, 115)


def test_T8_both_others_pass_at_once_the_opener_plays(tysiacha):
    d = void_deal_start(tysiacha)
    run(d, ["bid 100", "pass", "pass"])
    assert (d.observation(0).declarer, d.observation(0).contract) == (1, 100)


def test_T9_cap_holds_for_every_bid_not_only_the_opening(tysiacha):
    d = void_deal_start(tysiacha)  # marriages: 1 D, 2 H and C, 0 S
    assert max(bids(d)) == 200
    run(d, ["bid 120"])
    assert max(bids(d)) == 280  # hearts and clubs
    run(d, ["bid 165"])
    assert bids(d) == []  # seat 0 (spades, cap 160) may only pass
    assert texts(d.legal_actions()) == ["pass"]


# ---------------------------------------------------------------- talon
def test_T10_talon_shown_to_all_then_in_the_declarer_s_hand(tysiacha):
    d = void_deal_start(tysiacha)
    for seat in range(3):
        assert d.observation(seat).talon_shown is None
    run(d, ["bid 100", "bid 105", "pass", "pass"])
    for seat in range(3):
        assert sorted(d.observation(seat).talon_shown or ()) == sorted(VOID_TALON)
    assert set(VOID_TALON) <= set(d.observation(2).hand)
    assert len(d.observation(2).hand) == 10


def test_T11_one_card_face_down_to_each_defender(tysiacha):
    d = void_deal_start(tysiacha)
    run(d, ["bid 100", "bid 105", "pass", "pass", "give JS to 1"])
    assert {a.to for a in d.legal_actions()} == {0}  # seat 1 has his card
    d.apply("give 9S to 0")
    assert d.observation(1).received == ("JS",) and "JS" in d.observation(1).hand
    assert "JS" not in d.observation(0).hand + d.observation(0).received
    assert "JS" not in str(d.observation(0).log)
    assert "give a card to 1" in str(d.observation(0).log)
    assert [len(d.hand_texts(s)) for s in range(3)] == [8, 8, 8]


# ---------------------------------------------------------------- contract raise
T12_HANDS: dict[int, Sequence[str]] = {1: "KH AS 10S AC 10C AD 10D".split()}


def test_T12_cap_counts_a_marriage_completed_by_the_talon(tysiacha):
    """Dealt hand: no marriage (cap 120); 8-card hand after giving: hearts (cap 220)."""
    d = tysiacha.new_deal(tysiacha.stack_deck(T12_HANDS, ["QH", "9S", "9C"], dealer=0), dealer=0)
    assert max(bids(d)) == 120
    run(d, ["bid 100", "pass", "pass", "give 9S to 2", "give 9C to 0"])
    legal = texts(d.legal_actions())
    assert legal == ["keep contract"] + [f"raise {v}" for v in range(105, 225, 5)]


def test_T12_cap_is_on_the_8_card_hand_not_the_10_card_one(tysiacha):
    """10 cards hold the hearts marriage, but QH is given away: cap 120."""
    d = tysiacha.new_deal(tysiacha.stack_deck(T12_HANDS, ["QH", "9S", "9C"], dealer=0), dealer=0)
    run(d, ["bid 100", "pass", "pass", "give QH to 2", "give 9C to 0"])
    assert texts(d.legal_actions()) == ["keep contract"] + [
        f"raise {v}" for v in range(105, 125, 5)
    ]


def test_T12_never_lower_and_cap_below_contract_keeps_it(tysiacha):
    hands = {1: "KS QS AS 10S AC 10C AD".split()}
    d = tysiacha.new_deal(tysiacha.stack_deck(hands, ["9S", "9C", "9D"], dealer=0), dealer=0)
    run(d, ["bid 150", "pass", "pass", "give QS to 2", "give 9C to 0"])
    assert texts(d.legal_actions()) == ["keep contract"]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("raise 145")
    d.apply("keep contract")
    assert d.observation(0).contract == 150
    d = tysiacha.new_deal(tysiacha.stack_deck(hands, ["9S", "9C", "9D"], dealer=0), dealer=0)
    run(d, ["bid 150", "pass", "pass", "give 9S to 2", "give 9C to 0"])
    assert texts(d.legal_actions()) == ["keep contract", "raise 155", "raise 160"]
    d.apply("raise 160")
    assert d.observation(2).contract == 160


# ---------------------------------------------------------------- play
def test_T13_declarer_leads_first_when_he_is_not_forehand(tysiacha):
    d = void_deal(tysiacha)
    assert d.phase == "play" and d.to_act == 2  # forehand is seat 1
    d = tysiacha.new_deal(seed=4, dealer=1)  # forehand is seat 2; the dealer declares
    run(d, ["bid 100", "pass", "bid 105", "pass"])
    assert d.observation(0).declarer == 1
    run(d, [d.legal_actions()[0].text])
    run(d, [d.legal_actions()[0].text, "keep contract"])
    assert d.phase == "play" and d.to_act == 1


def test_T13_eight_tricks_and_the_winner_leads_the_next(tysiacha):
    for seed in range(15):
        d = random_deal(tysiacha, seed, dealer=seed % 3)
        obs = d.observation(0)
        assert len(obs.tricks) == 8
        assert obs.tricks[0][0] == obs.declarer
        for (_, _, winner), (leader, cards, _) in zip(obs.tricks, obs.tricks[1:]):
            assert leader == winner and cards[0][0] == winner


def test_T14_in_suit_no_need_to_beat_void_without_trump_any_card(tysiacha):
    d = void_deal(tysiacha)
    d.apply("play AC")
    # seat 0 has no club and no trump is set: any of his 8 cards (T14, T16)
    assert sorted(texts(d.legal_actions())) == sorted(
        f"play {c}" for c in "AH JH 9H AS 10S KS QS 9S".split()
    )
    run(d, ["play 9S", "play JS", "marry KH"])
    # hearts led: seat 0 follows with any heart, beating the KH or not
    assert texts(d.legal_actions()) == ["play AH", "play JH", "play 9H"]


def test_T14_void_must_trump_but_may_play_a_lower_trump(tysiacha):
    d = void_deal(tysiacha)
    run(d, ["play AC", "play 9S", "play JS", "marry KH", "play 9H", "play 10H"])
    assert d.to_act == 1
    d.apply("play AD")
    assert texts(d.legal_actions()) == ["play QH"]  # void in diamonds: must trump
    d.apply("play QH")
    # seat 0 is void too; AH would beat the QH, JH would not: both are allowed, nothing else
    assert texts(d.legal_actions()) == ["play AH", "play JH"]
    d.apply("play JH")
    assert d.observation(0).tricks[-1][2] == 2


def test_T15_highest_trump_wins_else_highest_of_led_suit(tysiacha):
    d = void_deal(tysiacha)
    run(d, ["play AC", "play 9S", "play JS"])
    assert d.observation(0).tricks[0][2] == 2  # spades were not trump: the AC wins
    run(d, ["marry KH", "play 9H", "play 10H"])
    assert d.observation(0).tricks[1][2] == 1  # 10H beats KH
    run(d, ["play AD", "play QH", "play AH"])
    assert d.observation(0).tricks[2][2] == 0  # the higher trump, not the led ace
    run(d, ["play QS", "play 10D", "play 10C"])
    assert d.observation(0).tricks[3][2] == 0  # higher cards of other suits do not win


def test_T16_no_trump_at_the_start_of_a_deal(tysiacha):
    d = void_deal(tysiacha)
    assert d.observation(0).trump is None
    run(d, ["play AC", "play 9S", "play JS"])
    assert d.observation(0).tricks[0][2] == 2  # a spade does not trump the AC
    for seed in range(10):
        d = tysiacha.new_deal(seed=seed)
        assert d.observation(0).trump is None


def test_T17_no_marriage_on_the_declarer_s_first_lead(tysiacha):
    d = void_deal(tysiacha)
    assert not [a for a in d.legal_actions() if a.kind == "marry"]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("marry KH")
    assert "play KH" in texts(d.legal_actions())


def test_T17_marriage_after_a_won_trick_sets_trump_at_once_and_later_changes_it(tysiacha):
    d = void_deal(tysiacha)
    run(d, ["play AC", "play 9S", "play JS"])
    assert texts(a for a in d.legal_actions() if a.kind == "marry") == [
        "marry KC",
        "marry QC",
        "marry KH",
        "marry QH",
    ]
    d.apply("marry KH")
    obs = d.observation(0)
    assert obs.trump == "hearts"  # already for the trick being led
    assert obs.declarations == ((2, "marriage", "hearts", 100),)  # credited at once
    run(d, ["play 9H", "play 10H"])
    # seat 1, a defender, won a trick and may declare on his lead; leading without is allowed
    assert {"marry KD", "marry QD", "play KD"} <= set(texts(d.legal_actions()))
    d.apply("marry QD")
    assert d.observation(2).trump == "diamonds"
    assert d.observation(2).declarations[-1] == (1, "marriage", "diamonds", 80)


def test_T17_leading_a_marriage_card_without_declaring(tysiacha):
    d = void_deal(tysiacha)
    run(d, ["play AC", "play 9S", "play JS", "play KH"])
    assert d.observation(0).trump is None and d.observation(0).declarations == ()


# ---------------------------------------------------------------- deal scoring
def test_T18_T19_T20_every_seat_s_deal_score_in_random_deals(tysiacha):
    """Restated: deal points = card points + own marriages; the declarer scores exactly
    +-contract, each defender his deal points rounded to 5."""
    made = failed = 0
    for seed in range(200):
        d = random_deal(tysiacha, 1000 + seed, dealer=seed % 3)
        obs = d.observation(0)
        assert obs.gains is not None and obs.card_points_taken is not None
        for seat in range(3):
            melds = sum(v for s, _, _, v in obs.declarations if s == seat)
            points = obs.card_points_taken[seat] + melds
            if seat == obs.declarer:
                ok = points >= obs.contract
                made += ok
                failed += not ok
                assert obs.gains[seat] == (obs.contract if ok else -obs.contract)
            else:
                assert obs.gains[seat] == round5(points)
    assert made and failed


def test_T18_marriages_count_toward_the_contract(tysiacha):
    assert tysiacha.deal_score(True, card_points=70, meld_points=40, contract=110) == 110
    assert tysiacha.deal_score(True, card_points=70, meld_points=0, contract=110) == -110
    assert tysiacha.deal_score(False, card_points=23, meld_points=60) == 85


def test_T19_exactly_the_contract_made_or_lost(tysiacha):
    assert tysiacha.deal_score(True, card_points=100, contract=100) == 100  # equal: made
    assert tysiacha.deal_score(True, card_points=99, contract=100) == -100
    assert tysiacha.deal_score(True, card_points=120, meld_points=100, contract=100) == 100


@pytest.mark.parametrize(
    "points, score",
    [(0, 0), (2, 0), (3, 5), (10, 10), (12, 10), (13, 15), (17, 15), (18, 20), (120, 120)],
)
def test_T20_defender_points_round_to_5(tysiacha, points, score):
    assert tysiacha.deal_score(False, card_points=points) == score


# ---------------------------------------------------------------- T8, T9 under house rules
def test_T8_the_auction_ends_when_one_is_left_not_after_a_count_of_passes():
    """T8 says "one left", not "two passes": a four-handed house rule on tysiacha (5 cards
    each, 4 in the talon) inherits it, so after a bid and two passes the outbid opener is
    still asked; the third pass ends the auction."""
    v = trickcore.variant_from_text(
        'extends "tysiacha"\nplayers: 4\ndeal {\n  pattern: 1 each 5 times, 4 talon\n}\n',
        "four-handed",
    )
    d = v.new_deal(seed=3, dealer=0, players=4)
    assert isinstance(d, trickcore.Deal)
    run(d, ["bid 100", "bid 105", "pass", "pass"])
    assert d.phase == "bid" and d.to_act == 1 and d.observation(0).declarer == -1
    d.apply("pass")
    obs = d.observation(0)
    assert (obs.declarer, obs.contract) == (2, 105)


def test_T9_without_a_marriage_the_cap_is_exactly_120():
    """T9: without a marriage no bid above 120; a house rule bidding in steps of 1 shows the
    cap itself: 120 is offered, 121 is not."""
    v = trickcore.variant_from_text('extends "tysiacha"\nbidding {\n  step: 1\n}\n', "step-1")
    hand = "AS AC AD AH 10S 10C 10D".split()  # no K-Q pair
    d = v.new_deal(v.stack_deck({1: hand}, ["10H", "9S", "9C"], dealer=0), dealer=0)
    assert isinstance(d, trickcore.Deal)
    assert d.to_act == 1 and bids(d) == list(range(100, 121))
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 121")
