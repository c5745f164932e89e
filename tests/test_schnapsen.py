"""Russisch Schnapsen and its named variants, rule by rule (S1–S21 of
docs/rules/russisch-schnapsen.md)."""

from __future__ import annotations

import random

import pytest
from conftest import play_out, run, texts

import trickcore

# Dealer 0: seat 1 is forehand. Scenario A of S13 (see the tests below).
HANDS = {
    1: "KH OH AE 9E AG 10G KG".split(),
    2: "AH 9H 10E 9S AS 10S KS".split(),
    0: "10H UH OS US 9G UG OG".split(),
}
TALON = ["KE", "OE", "UE"]


def fresh(v):
    """The scenario deal, past the redeal question (nobody holds a redeal hand)."""
    d = v.new_deal(v.stack_deck(HANDS, TALON, dealer=0), dealer=0)
    run(d, ["keep", "keep", "keep"])
    return d


def scripted(v):
    d = fresh(v)
    run(d, ["bid 90", "pass", "pass", "give UE to 2", "give KG to 0"])
    return d


def random_deals(v, count, seed=0, players=None):
    rng = random.Random(seed)
    for i in range(count):
        d = v.new_deal(seed=seed * 100_000 + i, dealer=i % (players or 3), players=players)
        steps = []
        while not d.is_over:
            steps.append(d.observation(d.to_act))
            d.apply(rng.choice(d.legal_actions()))
        yield d, steps


# ---------------------------------------------------------------- cards
def test_S1_doppeldeutsche_cards_and_points(schnapsen):
    assert schnapsen.card("OH") != schnapsen.card("UH")
    with pytest.raises(trickcore.TrickcoreError, match="not a card"):
        schnapsen.card("QH")


def test_S2_marriage_values(schnapsen):
    d = scripted(schnapsen)
    d.apply("marry KH")
    assert d.observation(0).declarations == ((1, "marriage", "Herz", 100),)


def test_S3_three_or_four_seated_dealer_sits_out_with_four(schnapsen):
    d = schnapsen.new_deal(seed=1, dealer=2, players=4)
    assert d.observation(0).players_in_deal == (3, 0, 1)
    assert d.observation(2).hand == () and d.to_act == 3
    m = schnapsen.new_match(seed=9, players=4)
    rng = random.Random(9)
    sat_out = set()
    while not m.is_over and m.deals_dealt < 6:
        sat_out.add((m.deal.dealer, tuple(m.current.active)))
        m.apply(rng.choice(m.legal_actions()))
    assert all(dealer not in active and len(active) == 3 for dealer, active in sat_out)
    assert {dealer for dealer, _ in sat_out} >= {0, 1, 2, 3}


# ---------------------------------------------------------------- deal
def test_S4_three_talon_two_two(schnapsen):
    order = [schnapsen.card_text(c) for c in range(24)]
    d = schnapsen.new_deal(order, dealer=0)
    hand = lambda seat: set(d.observation(seat).hand)  # noqa: E731
    assert hand(1) == set(order[0:3] + order[12:14] + order[18:20])
    assert hand(2) == set(order[3:6] + order[14:16] + order[20:22])
    assert hand(0) == set(order[6:9] + order[16:18] + order[22:24])
    assert d.observation(0).talon_size == 3


def test_S4_with_four_packets_skip_the_dealer(schnapsen):
    order = [schnapsen.card_text(c) for c in range(24)]
    d = schnapsen.new_deal(order, dealer=0, players=4)
    assert set(d.observation(1).hand) >= set(order[0:3])
    assert set(d.observation(3).hand) >= set(order[6:9])


def test_S5_three_nines_or_four_unter_may_demand_a_redeal(schnapsen):
    deck = schnapsen.stack_deck({2: "9H 9S 9G AE 10E KE OE".split()}, dealer=0)
    d = schnapsen.new_deal(deck, dealer=0)
    # everyone is asked in turn from forehand, so that being asked reveals nothing (C3)
    assert d.to_act == 1 and texts(d.legal_actions()) == ["keep"]
    d.apply("keep")
    assert d.to_act == 2 and texts(d.legal_actions()) == ["redeal", "keep"]
    run(d, ["keep", "keep"])
    assert d.to_act == 1 and d.legal_actions()[0].text == "bid 90"
    deck = schnapsen.stack_deck({1: "UH US UG UE AE 10E KE".split()}, dealer=0)
    m = schnapsen.new_match(deck_orders=[deck], seed=3)
    assert texts(m.legal_actions()) == ["redeal", "keep"]
    m.apply("redeal")
    assert m.deal.dealer == 0 and m.deals_dealt == 2  # the same dealer deals again
    assert m.deal_results[-1]["redeal"]


def test_S5_no_offer_without_such_a_hand(schnapsen):
    d = schnapsen.new_deal(schnapsen.stack_deck(HANDS, TALON), dealer=0)
    for seat in (1, 2, 0):
        assert d.to_act == seat and texts(d.legal_actions()) == ["keep"]
        d.apply("keep")
    assert texts(d.legal_actions()) == ["bid 90"]


# ---------------------------------------------------------------- bidding
def test_S6_forehand_must_open_exactly_90_then_multiples_of_10(schnapsen):
    d = fresh(schnapsen)
    assert texts(d.legal_actions()) == ["bid 90"]  # C3: offered although forced
    d.apply("bid 90")
    values = [a.value for a in d.legal_actions() if a.kind == "bid"]
    assert values[:3] == [100, 110, 120] and all(v % 10 == 0 for v in values)
    d.apply("bid 150")  # a jump
    assert d.observation(0).bids[-1] == (2, "bid 150")


def test_S7_worked_example_auction(schnapsen):
    d = fresh(schnapsen)
    # A = seat 1 (forehand), B = seat 2, C = seat 0
    run(d, "bid 90|pass|bid 100|bid 110|pass|bid 120|bid 140|pass|bid 150|pass".split("|"))
    assert d.phase == "bid" and d.to_act == 2
    d.apply("pass")
    assert (d.observation(1).declarer, d.observation(1).contract) == (0, 150)


def test_S7_passing_does_not_drop_a_player_out(schnapsen):
    d = fresh(schnapsen)
    run(d, ["bid 90", "pass", "bid 100", "bid 110"])
    assert d.to_act == 2  # B passed before and is asked again
    assert "bid 120" in texts(d.legal_actions())


def test_S8_no_marriage_cap(schnapsen):
    d = fresh(schnapsen)
    d.apply("bid 90")
    assert max(a.value for a in d.legal_actions() if a.kind == "bid") == 120 + 280


# ---------------------------------------------------------------- talon
def test_S9_talon_hidden_two_laid_away_one_to_each_defender(schnapsen):
    d = fresh(schnapsen)
    run(d, ["bid 90", "pass", "pass"])
    assert d.observation(2).talon_shown is None
    assert d.observation(1).talon_taken == tuple(TALON)
    assert d.observation(2).talon_taken == ()
    run(d, ["give UE to 2", "give KG to 0"])
    assert d.observation(2).received == ("UE",) and d.observation(0).received == ("KG",)
    assert "UE" not in d.observation(0).hand
    assert [len(d.hand_texts(s)) for s in range(3)] == [8, 8, 8]


def test_S10_no_raise_after_the_talon(schnapsen):
    d = scripted(schnapsen)
    assert d.phase == "play" and d.to_act == 1


# ---------------------------------------------------------------- play
def test_S11_declarer_leads_no_trump_until_a_marriage(schnapsen):
    d = scripted(schnapsen)
    assert d.observation(0).trump is None
    d.apply("marry KH")
    assert d.observation(0).trump == "Herz"


def test_S12_marriage_on_the_very_first_lead(schnapsen):
    d = scripted(schnapsen)
    assert "marry KH" in texts(d.legal_actions()) and "marry KE" in texts(d.legal_actions())


def test_S13a_follow_and_beat_in_the_led_suit(schnapsen):
    d = scripted(schnapsen)
    d.apply("marry KH")
    assert texts(d.legal_actions()) == ["play AH"]  # 9H would not beat the KH
    d.apply("play AH")
    assert texts(d.legal_actions()) == ["play 10H", "play UH"]  # cannot beat: any heart


def test_S13a_trick_already_trumped_follow_with_any_card_of_the_suit(schnapsen):
    d = scripted(schnapsen)
    run(d, ["marry KH", "play AH", "play UH"])  # seat 2 wins and leads
    d.apply("play 10E")
    assert texts(d.legal_actions()) == ["play 10H"]  # seat 0 is void: must trump
    d.apply("play 10H")
    # seat 1 holds AE (which would beat the 10E), 9E, KE, OE: the trick is trumped
    assert texts(d.legal_actions()) == ["play AE", "play KE", "play OE", "play 9E"]


def _s13_expected(obs, trump_symbol):
    """S13 restated independently from a seat's observation."""
    ranks = ["A", "10", "K", "O", "U", "9"]
    rank = lambda c: ranks.index(c[:-1])  # noqa: E731
    suit = lambda c: c[-1]  # noqa: E731
    trick = [c for _, c in obs.trick]
    led = suit(trick[0])
    hand = list(obs.hand)
    same = [c for c in hand if suit(c) == led]
    if same:
        trumped = led != trump_symbol and any(suit(c) == trump_symbol for c in trick)
        if trumped:
            return same, "trumped"
        best = min(rank(c) for c in trick if suit(c) == led)
        beat = [c for c in same if rank(c) < best]
        return (beat, "beat") if beat else (same, "follow")
    trumps = [c for c in hand if suit(c) == trump_symbol]
    if trumps:
        in_trick = [rank(c) for c in trick if suit(c) == trump_symbol]
        if in_trick:
            over = [c for c in trumps if rank(c) < min(in_trick)]
            return (over, "overtrump") if over else (trumps, "undertrump")
        return trumps, "trump"
    return hand, "any"


def test_S13_obligations_hold_in_random_play():
    v = trickcore.load_variant("russisch-schnapsen")
    symbol = {"Herz": "H", "Schelle": "S", "Grün": "G", "Eichel": "E"}
    rng = random.Random(8)
    compared = {}
    for i in range(400):
        d = v.new_deal(seed=i, dealer=i % 3)
        while not d.is_over:
            obs = d.observation(d.to_act)
            if obs.phase == "play" and obs.trick:
                expected, case = _s13_expected(obs, symbol.get(obs.trump or "", "-"))
                legal = sorted(a.text[5:] for a in d.legal_actions())
                assert legal == sorted(expected), (case, obs)
                compared[case] = compared.get(case, 0) + 1
            d.apply(rng.choice(d.legal_actions()))
    for case in ("beat", "follow", "trumped", "trump", "overtrump", "undertrump", "any"):
        assert compared.get(case, 0) > 0, f"random play never reached the case '{case}'"


# ---------------------------------------------------------------- scoring
def test_S14_rounding_84_to_80_85_to_90(schnapsen):
    assert schnapsen.deal_score(False, card_points=84) == 80
    assert schnapsen.deal_score(False, card_points=85) == 90
    assert schnapsen.deal_score(False, card_points=4) == 0


def test_S15_worked_example(schnapsen):
    assert schnapsen.deal_score(True, card_points=84, meld_points=60, contract=150) == -150
    assert schnapsen.deal_score(True, card_points=85, meld_points=60, contract=150) == 150


def test_S15_S16_scores_in_real_deals_are_multiples_of_ten(schnapsen):
    n = 0
    for d, _ in random_deals(schnapsen, 300, seed=2):
        if d.redealt:
            continue
        obs = d.observation(0)
        n += 1
        assert all(g % 10 == 0 for g in obs.gains)
        assert obs.gains[obs.declarer] in (obs.contract, -obs.contract)
        for seat in obs.players_in_deal:
            if seat != obs.declarer:
                premiums = sum(v for s, _, _, v in obs.declarations if s == seat)
                premiums = premiums if obs.tricks_won[seat] else 0
                points = obs.card_points_taken[seat]
                assert obs.gains[seat] == (points + 5) // 10 * 10 + premiums
    assert n > 250


def test_S17_match_to_1000_without_barrel(schnapsen):
    m = schnapsen.new_match(seed=1, scores=[0, 990, 0])
    rng = random.Random(1)
    while not m.is_over:
        before = list(m.scores)
        m.apply(rng.choice(m.legal_actions()))
        if m.deal_results and m.deal_results[-1].get("gains") and m.scores != before:
            gains = m.deal_results[-1]["gains"]
            assert m.scores == [b + g for b, g in zip(before, gains)]  # nothing is capped
    assert m.is_over


# ---------------------------------------------------------------- named variants
def test_S18_raise_after_talon_in_steps_of_10():
    v = trickcore.load_variant("russisch-schnapsen-raise-after-talon")
    d = scripted(v)
    legal = texts(d.legal_actions())
    assert legal[0] == "keep contract" and legal[1:4] == ["raise 100", "raise 110", "raise 120"]
    d.apply("raise 120")
    assert d.observation(0).contract == 120


def test_S19_all_tricks_bonus():
    v = trickcore.load_variant("russisch-schnapsen-all-tricks-bonus")
    assert v.deal_score(True, card_points=120, tricks_won=8, contract=170) == 170
    assert v.deal_score(True, card_points=120, tricks_won=7, contract=170) == -170
    assert v.deal_score(False, card_points=120, tricks_won=8) == 170
    base = trickcore.load_variant("russisch-schnapsen")
    assert base.deal_score(True, card_points=120, tricks_won=8, contract=170) == -170


def test_S20_ohne_bids_rank_between_n_and_n_plus_10():
    v = trickcore.load_variant("russisch-schnapsen-ohne")
    d = fresh(v)
    assert texts(d.legal_actions()) == ["bid 90", "bid 90 ohne"]
    d.apply("bid 90")
    assert texts(d.legal_actions())[:3] == ["bid 90 ohne", "bid 100", "bid 100 ohne"]
    d.apply("bid 90 ohne")
    assert texts(d.legal_actions())[:2] == ["bid 100", "bid 100 ohne"]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 90")


def test_S20_ohne_talon_split_one_each_from_the_declarer():
    v = trickcore.load_variant("russisch-schnapsen-ohne")
    d = fresh(v)
    run(d, ["bid 90", "bid 90 ohne", "pass", "pass"])
    assert d.observation(0).declarer == 2 and d.observation(0).qualifier == "ohne"
    assert d.phase == "play"
    assert d.observation(2).talon_taken == ("KE",)
    assert d.observation(0).talon_taken == ("OE",)
    assert d.observation(1).talon_taken == ("UE",)
    assert [len(d.hand_texts(s)) for s in range(3)] == [8, 8, 8]


def test_S20_ohne_scores_20_more_either_way():
    v = trickcore.load_variant("russisch-schnapsen-ohne")
    assert v.deal_score(True, "ohne", card_points=100, contract=100) == 120
    assert v.deal_score(True, "ohne", card_points=60, contract=100) == -120
    assert v.deal_score(True, card_points=60, contract=100) == -100


def test_S20_failed_ohne_contract_in_play():
    v = trickcore.load_variant("russisch-schnapsen-ohne")
    found = 0
    for d, _ in random_deals(v, 2000, seed=4):
        obs = d.observation(0)
        if obs.redealt or obs.qualifier != "ohne":
            continue
        if obs.gains[obs.declarer] < 0:
            assert obs.gains[obs.declarer] == -obs.contract - 20
            found += 1
        else:
            assert obs.gains[obs.declarer] == obs.contract + 20
        if found >= 3:
            break
    assert found >= 3


def test_S21_36_cards_deal_and_points():
    v = trickcore.load_variant("russisch-schnapsen-36-card")
    order = [v.card_text(c) for c in range(36)]
    d = v.new_deal(order, dealer=0)
    assert set(d.observation(1).hand) == set(
        order[0:3] + order[12:15] + order[24:26] + order[30:32]
    )
    assert d.observation(0).talon_size == 6
    for d, _ in random_deals(v, 50, seed=1):
        if d.redealt:
            continue
        obs = d.observation(0)
        assert len(obs.tricks) == 12
        assert sum(obs.card_points_taken) == 240
        for seat in obs.players_in_deal:
            if seat != obs.declarer:
                assert len(d.observation(seat).received) == 2


def test_36_card_with_ohne_composes_both_variants():
    v = trickcore.load_variant("russisch-schnapsen-36-ohne")
    d = v.new_deal(seed=3)
    while d.phase == "redeal":
        d.apply("keep")
    d.apply("bid 90 ohne")
    run(d, ["pass", "pass"])
    assert d.phase == "play"
    assert [len(d.hand_texts(s)) for s in d.active] == [12, 12, 12]
    play_out(d)
    assert len(d.observation(0).tricks) == 12 and sum(d.observation(0).card_points_taken) == 240
