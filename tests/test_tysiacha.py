"""Tysiacha, rule by rule (T1–T25 of docs/rules/tysiacha.md and C1–C3 of
docs/rules/conventions.md), on variants/tysiacha.rules."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from conftest import play_out, run, texts

import trickcore

# Dealer 0: seat 1 is forehand and declares in the scripted deal below.
HANDS: dict[int, Sequence[str]] = {
    1: "AS 10S KS QS AH JC JD".split(),
    2: "AC 10C KC QC JS JH 10H".split(),
    0: "AD 10D KD QD KH QH 9S".split(),
}
TALON = ["9C", "9D", "9H"]


def scripted(v: trickcore.Variant) -> trickcore.Deal:
    """Seat 1 declares 100, gives 9C to seat 2 and 9D to seat 0, keeps his contract."""
    d = v.new_deal(v.stack_deck(HANDS, TALON, dealer=0), dealer=0)
    assert isinstance(d, trickcore.Deal)
    run(d, ["bid 100", "pass", "pass", "give 9C to 2", "give 9D to 0", "keep contract"])
    return d


def bid_values(d: trickcore.Deal) -> list[int]:
    return [a.value for a in d.legal_actions() if a.kind == "bid"]


# ---------------------------------------------------------------- C1–C3
def test_C1_seat_zero_deals_first_and_left_is_next_seat(tysiacha):
    m = tysiacha.new_match(seed=3)
    assert m.deal.dealer == 0
    assert m.to_act == 1  # left of dealer 0 opens


def test_C2_deck_order_and_dealer_fix_every_hand(tysiacha):
    order = [tysiacha.card_text(c) for c in range(24)]
    d = tysiacha.new_deal(order, dealer=2)
    # one at a time clockwise from the left of dealer 2: seats 0, 1, 2, 0, ...
    assert d.observation(0).hand == tuple(sorted(order[0:21:3], key=tysiacha.card))
    assert d.observation(1).hand == tuple(sorted(order[1:21:3], key=tysiacha.card))
    assert d.observation(2).hand == tuple(sorted(order[2:21:3], key=tysiacha.card))
    assert d.observation(0).talon_size == 3


def test_C3_a_single_legal_card_is_still_offered_as_an_action(tysiacha):
    d = scripted(tysiacha)
    d.apply("play AS")
    assert texts(d.legal_actions()) == ["play JS"]  # seat 2 must follow with his only spade
    assert d.to_act == 2


def test_deck_order_must_be_a_permutation(tysiacha):
    with pytest.raises(trickcore.TrickcoreError, match="each of the 24 cards once"):
        tysiacha.new_deal(["AS"] * 24)


# ---------------------------------------------------------------- cards
def test_T1_three_players_24_cards_ten_beats_king(tysiacha):
    with pytest.raises(trickcore.TrickcoreError, match="played by 3 players"):
        tysiacha.new_match(seed=1, players=4)
    hands = {
        1: "10H AS AC AD 10S 10C 10D".split(),
        2: "KH 9S 9C 9D JS JC JD".split(),
        0: "KS QS KC QC KD QD 9H".split(),
    }
    d = tysiacha.new_deal(tysiacha.stack_deck(hands, ["AH", "QH", "JH"]), dealer=0)
    run(d, ["bid 100", "pass", "pass", "give AS to 2", "give AC to 0", "keep contract"])
    run(d, ["play 10H", "play KH", "play 9H"])
    assert d.observation(0).tricks[0][2] == 1  # the 10 beats the K


def test_T2_card_points_total_120_and_are_credited_with_tricks(tysiacha):
    d = scripted(tysiacha)
    run(d, ["play AS", "play JS", "play 9S"])
    assert d.observation(1).tricks_won == (0, 1, 0)
    play_out(d)
    assert sum(d.observation(0).card_points_taken) == 120


def test_T3_marriage_values_by_suit(tysiacha):
    d = scripted(tysiacha)
    run(d, ["play AS", "play JS", "play 9S", "marry KS"])
    assert d.observation(0).declarations == ((1, "marriage", "spades", 40),)


# ---------------------------------------------------------------- deal
def test_T4_seven_each_three_talon_dealer_moves_left(tysiacha):
    d = tysiacha.new_deal(seed=5, dealer=0)
    assert [len(d.hand_texts(s)) for s in range(3)] == [7, 7, 7]
    assert d.observation(0).talon_size == 3
    m = tysiacha.new_match(seed=5)
    dealers = []
    while m.deals_dealt <= 4:
        if m.deal.dealer not in dealers[-1:]:
            dealers.append(m.deal.dealer)
        m.apply(m.legal_actions()[0])
    assert dealers[:4] == [0, 1, 2, 0]


def test_T5_never_a_redeal(tysiacha):
    for seed in range(30):
        d = tysiacha.new_deal(seed=seed)
        assert all(a.kind == "bid" for a in d.legal_actions())


# ---------------------------------------------------------------- bidding
def test_T6_forehand_opens_at_least_100_cannot_pass_multiples_of_5(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    assert d.to_act == 1
    legal = d.legal_actions()
    assert "pass" not in texts(legal)
    values = bid_values(d)
    assert values[0] == 100 and all(v % 5 == 0 for v in values)
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 95")
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("pass")


def test_T7_raise_by_5_or_pass_and_a_passer_is_out(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    run(d, ["bid 100", "pass"])
    assert d.to_act == 0
    assert bid_values(d)[0] == 105
    d.apply("bid 110")
    assert d.to_act == 1  # seat 2 passed and is skipped from now on
    d.apply("bid 115")
    assert d.to_act == 0


def test_T8_both_others_pass_opener_plays_his_bid(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    run(d, ["bid 100", "pass", "pass"])
    obs = d.observation(2)
    assert (obs.declarer, obs.contract) == (1, 100)


def test_T8_last_player_left_declares_his_last_bid(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    run(d, ["bid 100", "bid 105", "pass", "pass"])
    assert (d.observation(0).declarer, d.observation(0).contract) == (2, 105)


@pytest.mark.parametrize(
    "hand, cap",
    [
        ("AS 10S AC 10C AD 10D AH", 120),
        ("KS QS AC 10C AD 10D AH", 160),
        ("KH QH AC 10C AD 10D AS", 220),
        ("KS QS KH QH AD 10D AC", 260),
    ],
)
def test_T9_bid_cap_is_120_plus_marriages_in_hand(tysiacha, hand, cap):
    d = tysiacha.new_deal(tysiacha.stack_deck({1: hand.split()}), dealer=0)
    assert max(bid_values(d)) == cap
    with pytest.raises(trickcore.IllegalActionError):
        d.apply(f"bid {cap + 5}")


# ---------------------------------------------------------------- talon
def test_T10_talon_is_shown_to_everyone_then_taken(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    assert d.observation(0).talon_shown is None
    run(d, ["bid 100", "pass", "pass"])
    for seat in (0, 1, 2):
        assert d.observation(seat).talon_shown == tuple(TALON)
    assert len(d.observation(1).hand) == 10


def test_T11_declarer_gives_one_card_to_each_defender_face_down(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    run(d, ["bid 100", "pass", "pass"])
    assert {a.to for a in d.legal_actions()} == {0, 2}
    run(d, ["give 9C to 2"])
    assert {a.to for a in d.legal_actions()} == {0}  # one card each
    run(d, ["give 9D to 0"])
    assert d.observation(2).received == ("9C",)
    assert "9C" not in d.observation(0).hand + d.observation(0).received
    assert d.observation(0).cards_received_by_others == ((1, 0), (2, 1))
    assert d.observation(1).given == ((2, ("9C",)), (0, ("9D",)))
    assert [len(d.hand_texts(s)) for s in range(3)] == [8, 8, 8]


def test_T12_raise_up_to_cap_on_eight_cards_never_lower(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    run(d, ["bid 100", "pass", "pass", "give 9C to 2", "give 9D to 0"])
    legal = texts(d.legal_actions())
    assert legal[0] == "keep contract"
    assert legal[1:] == [f"raise {v}" for v in range(105, 165, 5)]  # spade marriage: cap 160
    d.apply("raise 150")
    assert d.observation(0).contract == 150


def test_T12_cap_below_contract_keeps_it(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    run(d, ["bid 160", "pass", "pass", "give QS to 2", "give 9D to 0"])
    assert texts(d.legal_actions()) == ["keep contract"]  # cap is 120 once QS is gone


# ---------------------------------------------------------------- play
def test_T13_eight_tricks_declarer_leads_winner_leads_next(tysiacha):
    d = scripted(tysiacha)
    assert d.to_act == 1
    run(d, ["play JD", "play JH", "play AD"])
    assert d.to_act == 0  # seat 0 won with AD and leads
    play_out(d)
    assert len(d.observation(0).tricks) == 8
    for (leader, _cards, _w), (_l, _c, prev_winner) in zip(
        d.observation(0).tricks[1:], d.observation(0).tricks
    ):
        assert leader == prev_winner


def test_T14_follow_suit_no_obligation_to_overtake(tysiacha):
    d = scripted(tysiacha)
    d.apply("play JC")
    # seat 2 holds AC 10C KC QC 9C: every club is legal, winning or not
    assert texts(d.legal_actions()) == ["play AC", "play 10C", "play KC", "play QC", "play 9C"]
    d.apply("play 9C")
    # seat 0 has no club and no trump is set: any card
    assert len(d.legal_actions()) == 8


def test_T14_void_must_trump_but_need_not_overtrump(tysiacha):
    d = scripted(tysiacha)
    run(d, ["play AS", "play JS", "play 9S", "marry QS"])  # spades trump
    run(d, ["play 9C", "play 9D"])
    assert d.to_act == 1
    d.apply("play JD")
    # seat 2 has no diamonds and no spade: any card; seat 0 must follow diamonds
    run(d, ["play JH"])
    assert texts(d.legal_actions()) == ["play AD", "play 10D", "play KD", "play QD"]


def test_T14_void_in_led_suit_with_a_trump_must_play_it():
    # found by random play: an independent statement of T14 over many deals
    v = trickcore.load_variant("tysiacha")
    rng = random.Random(11)
    checked = 0
    for seed in range(150):
        d = v.new_deal(seed=seed, dealer=seed % 3)
        while not d.is_over:
            obs = d.observation(d.to_act)
            if obs.phase == "play" and obs.trick and obs.trump:
                led = obs.trick[0][1][-1]
                trump = {"spades": "S", "clubs": "C", "diamonds": "D", "hearts": "H"}[obs.trump]
                hand = obs.hand
                follow = [c for c in hand if c.endswith(led)]
                trumps = [c for c in hand if c.endswith(trump)]
                expected = follow or trumps or list(hand)
                assert sorted(a.text[5:] for a in d.legal_actions()) == sorted(expected)
                if not follow and trumps:
                    checked += 1
            d.apply(rng.choice(d.legal_actions()))
    assert checked > 20


def test_T15_highest_trump_else_highest_of_led_suit(tysiacha):
    d = scripted(tysiacha)
    run(d, ["play AS", "play JS", "play 9S"])
    assert d.observation(0).tricks[0][2] == 1
    run(d, ["marry KS", "play 10H", "play AD"])  # a trump beats an ace of another suit
    assert d.observation(0).tricks[1][2] == 1
    run(d, ["play JD", "play AC", "play QD"])  # AC is not of the led suit
    assert d.observation(0).tricks[2][2] == 0


def test_T16_no_trump_at_the_start(tysiacha):
    d = scripted(tysiacha)
    assert d.observation(0).trump is None


def test_T17_marriage_only_after_a_won_trick_never_on_first_lead(tysiacha):
    d = scripted(tysiacha)
    assert not [a for a in d.legal_actions() if a.kind == "marry"]
    with pytest.raises(trickcore.IllegalActionError, match="not legal"):
        d.apply("marry KS")
    run(d, ["play AS", "play JS", "play 9S"])
    assert texts(a for a in d.legal_actions() if a.kind == "marry") == ["marry KS", "marry QS"]
    assert "play KS" in texts(d.legal_actions())  # leading it without declaring is allowed


def test_T17_marriage_sets_trump_for_its_own_trick_and_later_ones_change_it(tysiacha):
    d = scripted(tysiacha)
    run(d, ["play AS", "play JS", "play 9S", "marry KS"])
    assert d.observation(2).trump == "spades"
    run(d, ["play 10H", "play 9D"])  # KS wins as trump
    run(d, ["play JD", "play JH", "play AD"])  # seat 0 wins a trick
    assert "marry KH" in texts(d.legal_actions())
    d.apply("marry KH")
    assert d.observation(1).trump == "hearts"
    run(d, ["play AH", "play AC"])
    assert d.observation(0).tricks[-1][2] == 1  # AH wins the hearts trick
    assert d.observation(0).declarations[-1] == (0, "marriage", "hearts", 100)


def test_T17_leading_marriage_card_without_declaring(tysiacha):
    d = scripted(tysiacha)
    run(d, ["play AS", "play JS", "play 9S", "play KS"])
    assert d.observation(0).trump is None
    assert d.observation(0).declarations == ()


# ---------------------------------------------------------------- deal scoring
def _finish_with_marriage(tysiacha):
    d = scripted(tysiacha)
    run(d, ["play AS", "play JS", "play 9S", "marry KS"])
    play_out(d)
    return d


def test_T18_T19_declarer_scores_exactly_his_contract_or_loses_it(tysiacha):
    d = _finish_with_marriage(tysiacha)
    obs = d.observation(0)
    deal_points = obs.card_points_taken[1] + 40
    assert deal_points >= 100
    assert obs.gains[1] == 100  # not more than the contract


def test_T19_failed_contract_scores_minus_contract(tysiacha):
    d = tysiacha.new_deal(tysiacha.stack_deck(HANDS, TALON), dealer=0)
    run(d, ["bid 160", "pass", "pass", "give AS to 2", "give 10S to 0", "keep contract"])
    play_out(d)
    obs = d.observation(1)
    assert obs.card_points_taken[1] + 40 * ("marriage" in str(obs.declarations)) < 160
    assert obs.gains[1] == -160


def test_T20_defenders_round_to_five_17_to_15_18_to_20(tysiacha):
    rng = random.Random(2)
    seen: dict[int, int] = {}
    for seed in range(3000):
        d = tysiacha.new_deal(seed=seed)
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        obs = d.observation(0)
        for seat in range(3):
            if seat == obs.declarer:
                continue
            melds = sum(v for s, _, _, v in obs.declarations if s == seat)
            points = obs.card_points_taken[seat] + melds
            if points in (17, 18) and points not in seen:
                seen[points] = obs.gains[seat]
        if len(seen) == 2:
            break
    assert seen == {17: 15, 18: 20}


def test_house_rule_forehand_leads_first():
    v = trickcore.variant_from_text('extends "tysiacha"\nplay {\n  first_leader: forehand\n}\n')
    d = v.new_deal(v.stack_deck(HANDS, TALON, dealer=0), dealer=0)  # forehand is seat 1
    run(d, ["bid 100", "bid 105", "pass", "pass"])  # seat 2 declares
    assert d.observation(0).declarer == 2
    gift = d.legal_actions()[0]
    d.apply(gift)
    d.apply(next(a for a in d.legal_actions() if a.to != gift.to))
    d.apply("keep contract")
    assert d.phase == "play" and d.to_act == 1  # forehand leads, not the declarer
