"""Russisch Schnapsen rules (S1–S21 of docs/rules/russisch-schnapsen.md) played through the
public API.

Each test plays a rule on real cards and fails when that rule is broken in
`variants/russisch-schnapsen*.rules` or in the engine; none of them reads the compiled model.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from conftest import run, texts

import trickcore

# S1 and S21 restated here (not read from the variants): points per rank.
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0}
POINTS_36 = {"A": 11, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "K": 4, "O": 3, "U": 2}
RANKS = ["A", "10", "K", "O", "U", "9"]
RANKS_36 = ["A", "10", "9", "8", "7", "6", "K", "O", "U"]
SUITS = "HSGE"
SUIT_NAMES = {"H": "Herz", "S": "Schelle", "G": "Grün", "E": "Eichel"}
KEEP3 = ["keep", "keep", "keep"]


@pytest.fixture(scope="module")
def ohne() -> trickcore.Variant:
    """The S20 variant."""
    return trickcore.load_variant("russisch-schnapsen-ohne")


@pytest.fixture(scope="module")
def v36() -> trickcore.Variant:
    """The S21 variant."""
    return trickcore.load_variant("russisch-schnapsen-36-card")


def rank(card: str) -> str:
    """The rank symbol of a card text."""
    return card[:-1]


def round10(points: int) -> int:
    """S14 restated: nearest multiple of 10, 5 and up rounding up."""
    return (points + 5) // 10 * 10


def random_deal(
    v: trickcore.Variant, seed: int, dealer: int = 0, cautious: bool = False
) -> trickcore.Deal:
    """A deal played to the end with random legal actions (redeals included); a cautious
    bidder passes four times in five when he may."""
    rng = random.Random(seed)
    d = v.new_deal(seed=seed, dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    while not d.is_over:
        legal = d.legal_actions()
        if cautious and d.phase == "bid" and legal[-1].kind == "pass" and rng.random() < 0.8:
            d.apply(legal[-1])
        else:
            d.apply(rng.choice(legal))
    return d


def finish(d: trickcore.Deal) -> trickcore.Observation:
    """Play the deal out with every seat's first legal action; seat 0's final view."""
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    return d.observation(0)


def bids(d: trickcore.Deal) -> list[str]:
    """The bid texts offered to the seat to act."""
    return [a.text for a in d.legal_actions() if a.kind == "bid"]


def stacked(
    v: trickcore.Variant, hands: dict[int, Sequence[str]], talon: Sequence[str], dealer: int = 0
) -> trickcore.Deal:
    """A deal of these hands; the redeal question is answered `keep` by all."""
    d = v.new_deal(v.stack_deck(hands, talon, dealer=dealer), dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    run(d, KEEP3)
    return d


# Deal B (dealer 0): seat 1 declares 90 and opens with the Grün marriage; every clause of
# S13 comes up in its first three tricks.
B_HANDS: dict[int, Sequence[str]] = {
    1: "KG OG 9G 10S US OE UE".split(),
    2: "AH 10H KH OH UH 9H AG".split(),
    0: "10G UG AS KS OS AE 10E".split(),
}
B_TALON = ["9E", "9S", "KE"]


def deal_b(v: trickcore.Variant) -> trickcore.Deal:
    """Deal B at the declarer's first lead."""
    d = stacked(v, B_HANDS, B_TALON)
    run(d, ["bid 90", "pass", "pass", "give 9S to 2", "give KE to 0"])
    return d


# Deal N (dealer 0): seat 1 declares 90, declares the Herz marriage on his first lead and
# then takes no trick at all; seat 2 takes all eight.
N_HANDS: dict[int, Sequence[str]] = {
    1: "KH OH 9S US 9G UG UE".split(),
    2: "AH 10H AS 10S AG 10G AE".split(),
    0: "UH 9H KS OS KG OG KE".split(),
}
N_SCRIPT = (
    "marry KH|play 10H|play 9H|play AS|play KS|play US|play AG|play KG|play UG|"
    "play AE|play KE|play UE|play 10S|play OS|play 9S|play 10G|play OG|play 9G|"
    "play 10E|play OE|play 9E|play AH|play UH|play OH"
).split("|")


def deal_n(v: trickcore.Variant, dealer: int = 0) -> trickcore.Deal:
    """Deal N at the declarer's first lead (seats turned for `dealer`)."""
    turn = {s: (s + dealer) % 3 for s in range(3)}
    hands = {turn[s]: cards for s, cards in N_HANDS.items()}
    d = stacked(v, hands, ["9E", "10E", "OE"], dealer=dealer)
    run(d, ["bid 90", "pass", "pass", f"give 10E to {turn[2]}", f"give OE to {turn[0]}"])
    return d


# Deal W (dealer 0): as N, but the declarer wins exactly one trick (with the OH).
W_HANDS: dict[int, Sequence[str]] = {
    1: "KH OH 9S US 9G UG UE".split(),
    2: "AH 10H AS 10S AG 10G 9H".split(),
    0: "UH AE KS OS KG OG KE".split(),
}
W_SCRIPT = (
    "marry KH|play 10H|play UH|play 9H|play KE|play OH|play 9S|play AS|play KS|"
    "play AH|play AE|play 9G|play AG|play KG|play UG|play 10S|play OS|play US|"
    "play 10G|play OG|play 9E|play 10E|play OE|play UE"
).split("|")


# ---------------------------------------------------------------- cards
def test_S1_card_texts_and_points_per_rank_in_every_seat_s_tricks(schnapsen):
    assert schnapsen.card("OH") != schnapsen.card("UH")
    for bad in ("QH", "JS", "KD", "KC"):
        with pytest.raises(trickcore.TrickcoreError):
            schnapsen.card(bad)
    played = 0
    for seed in range(20):
        d = random_deal(schnapsen, seed, dealer=seed % 3)
        obs = d.observation(0)
        if obs.redealt:
            continue
        played += 1
        taken = [0, 0, 0]
        for _leader, cards, winner in obs.tricks:
            taken[winner] += sum(POINTS[rank(c)] for _, c in cards)
        assert list(obs.card_points_taken or ()) == taken
        assert sum(taken) == 120
    assert played >= 15


@pytest.mark.parametrize("high, low", list(zip(RANKS, RANKS[1:])))
def test_S1_rank_order_a_10_k_o_u_9(schnapsen, high, low):
    """Seat 1 leads one Schelle, seat 2 follows with his only Schelle, seat 0 has none."""
    fillers = [f"{r}{s}" for s in "HGE" for r in RANKS]
    for lead, follow, winner in ((low, high, 2), (high, low, 1)):
        others = [f"{r}S" for r in RANKS if r not in (lead, follow)]
        hands = {
            1: [f"{lead}S", others[0], *fillers[:5]],
            2: [f"{follow}S", *fillers[5:11]],
            0: fillers[11:18],
        }
        d = stacked(schnapsen, hands, others[1:])
        run(d, ["bid 90", "pass", "pass", f"give {fillers[0]} to 2", f"give {fillers[1]} to 0"])
        run(d, [f"play {lead}S", f"play {follow}S", f"play {fillers[11]}"])
        assert d.observation(0).tricks[0][2] == winner, (lead, follow)


@pytest.mark.parametrize("suit, value", [("H", 100), ("S", 80), ("G", 60), ("E", 40)])
def test_S2_marriage_values(schnapsen, suit, value):
    d = stacked(schnapsen, {1: [f"K{suit}", f"O{suit}"]}, [])
    run(d, ["bid 90", "pass", "pass"])
    for _ in range(2):
        d.apply(next(a for a in d.legal_actions() if a.text[5:7] not in (f"K{suit}", f"O{suit}")))
    d.apply(f"marry O{suit}")
    assert d.observation(0).declarations == ((1, "marriage", SUIT_NAMES[suit], value),)
    assert d.observation(2).trump == SUIT_NAMES[suit]


# ---------------------------------------------------------------- table and deal
def test_S3_three_or_four_seated_and_the_dealer_sits_out(schnapsen):
    for players in (2, 5):
        with pytest.raises(trickcore.TrickcoreError):
            schnapsen.new_match(seed=1, players=players)
    d = schnapsen.new_deal(seed=1, dealer=2, players=4)
    assert d.observation(2).hand == ()
    assert [len(d.observation(s).hand) for s in (3, 0, 1)] == [7, 7, 7]
    asked = []
    while d.phase in ("redeal", "bid"):
        asked.append(d.to_act)
        d.apply("keep" if d.phase == "redeal" else d.legal_actions()[-1])
    assert 2 not in asked and asked[:4] == [3, 0, 1, 3]
    m = schnapsen.new_match(seed=2, players=4)
    for dealer in (0, 1, 2, 3, 0):
        assert m.deal.dealer == dealer and m.observation(dealer).hand == ()
        deal = m.current
        while m.current is deal:
            m.apply("keep" if deal.phase == "redeal" else m.legal_actions()[0])


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_S4_three_talon_two_two_from_left_of_dealer(schnapsen, dealer):
    order = [f"{r}{s}" for s in SUITS for r in RANKS]
    random.Random(dealer).shuffle(order)
    d = schnapsen.new_deal(order, dealer=dealer)
    for k in range(3):
        seat = (dealer + 1 + k) % 3
        packets = order[3 * k : 3 * k + 3] + order[12 + 2 * k : 14 + 2 * k]
        packets += order[18 + 2 * k : 20 + 2 * k]
        assert set(d.observation(seat).hand) == set(packets)
    while d.phase == "redeal":
        d.apply("keep")
    run(d, ["bid 90", "pass", "pass"])
    forehand = (dealer + 1) % 3
    assert set(d.observation(forehand).talon_taken) == set(order[9:12])


def test_S4_with_four_at_the_table_packets_skip_the_dealer(schnapsen):
    order = [f"{r}{s}" for s in SUITS for r in RANKS]
    d = schnapsen.new_deal(order, dealer=1, players=4)
    assert set(d.observation(2).hand) >= set(order[0:3])
    assert set(d.observation(3).hand) >= set(order[3:6])
    assert set(d.observation(0).hand) >= set(order[6:9])


@pytest.mark.parametrize(
    "hand, offered",
    [
        ("9H 9S 9G AE 10E KE OE", True),  # three 9s
        ("UH US UG UE AE 10E KE", True),  # all four Unter
        ("9H 9S AG AE 10E KE OE", False),  # two 9s
        ("UH US UG AE 10E KE OE", False),  # three Unter
    ],
)
def test_S5_redeal_for_three_nines_or_four_unter_asked_from_forehand(schnapsen, hand, offered):
    d = schnapsen.new_deal(schnapsen.stack_deck({2: hand.split()}, dealer=0), dealer=0)
    assert d.phase == "redeal" and d.to_act == 1 and texts(d.legal_actions()) == ["keep"]
    d.apply("keep")
    assert d.to_act == 2
    assert texts(d.legal_actions()) == (["redeal", "keep"] if offered else ["keep"])
    run(d, ["keep", "keep"])
    assert d.phase == "bid" and d.to_act == 1


@pytest.mark.parametrize("dealer", [0, 2])
def test_S5_after_a_redeal_the_same_dealer_deals_again(schnapsen, dealer):
    forehand = (dealer + 1) % 3
    first = schnapsen.stack_deck({forehand: "9H 9S 9G AE 10E KE OE".split()}, dealer=dealer)
    second = list(reversed(first))
    m = schnapsen.new_match(deck_orders=[first, second], dealer=dealer)
    m.apply("redeal")
    assert m.deal.dealer == dealer and m.to_act == forehand and m.deal.phase == "redeal"
    d = schnapsen.new_deal(second, dealer=dealer)
    for seat in range(3):
        assert m.observation(seat).hand == d.observation(seat).hand
    assert m.scores == [0, 0, 0]


# ---------------------------------------------------------------- bidding
@pytest.mark.parametrize("dealer", [0, 1])
def test_S6_forehand_must_open_exactly_90_then_multiples_of_10(schnapsen, dealer):
    d = schnapsen.new_deal(seed=7, dealer=dealer)
    while d.phase == "redeal":
        d.apply("keep")
    assert d.to_act == (dealer + 1) % 3
    assert texts(d.legal_actions()) == ["bid 90"]  # no pass, no higher opening (C3: offered)
    for bad in ("pass", "bid 100"):
        with pytest.raises(trickcore.IllegalActionError):
            d.apply(bad)
    d.apply("bid 90")
    offered = [int(b.split()[1]) for b in bids(d)]
    assert offered[:3] == [100, 110, 120] and all(v % 10 == 0 for v in offered)
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 95")
    d.apply("bid 150")  # a jump
    assert bids(d)[0] == "bid 160"


def test_S7_worked_example_of_the_source(schnapsen):
    d = stacked(schnapsen, B_HANDS, B_TALON)
    # A = seat 1 (forehand), B = seat 2, C = seat 0
    script = "bid 90|pass|bid 100|bid 110|pass|bid 120|bid 140|pass|bid 150|pass".split("|")
    for action in script:
        assert d.phase == "bid"
        d.apply(action)
    assert d.phase == "bid" and d.to_act == 2  # B is asked again although he passed
    d.apply("pass")
    obs = d.observation(1)
    assert (obs.declarer, obs.contract) == (0, 150)


def test_S7_the_auction_ends_only_after_two_passes_in_a_row(schnapsen):
    d = stacked(schnapsen, B_HANDS, B_TALON)
    run(d, ["bid 90", "pass", "bid 100", "pass"])
    assert d.phase == "bid" and d.to_act == 2  # one pass after C's bid is not enough
    run(d, ["pass"])
    assert (d.observation(0).declarer, d.observation(0).contract) == (0, 100)


def test_S8_no_marriage_cap_only_the_most_a_declarer_could_score(schnapsen):
    d = stacked(schnapsen, {1: "AH AS AG AE 10H 10S 10G".split()}, [])  # no marriage
    d.apply("bid 90")
    d.apply("bid 400")  # 120 + 100 + 80 + 60 + 40
    assert texts(d.legal_actions()) == ["pass"]
    d = stacked(schnapsen, {1: "AH AS AG AE 10H 10S 10G".split()}, [])
    d.apply("bid 90")
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 410")


# ---------------------------------------------------------------- talon
def test_S9_talon_unseen_two_cards_laid_away_one_to_each_defender(schnapsen):
    d = stacked(schnapsen, B_HANDS, B_TALON)
    run(d, ["bid 90", "pass", "pass"])
    for seat in range(3):
        assert d.observation(seat).talon_shown is None
    assert sorted(d.observation(1).talon_taken) == sorted(B_TALON)
    assert d.observation(2).talon_taken == () and len(d.observation(1).hand) == 10
    assert "9E" not in str(d.observation(2).to_dict()) + str(d.observation(0).to_dict())
    targets = {a.to for a in d.legal_actions()}
    assert targets == {0, 2}
    d.apply("give 9S to 0")  # the declarer decides who gets which
    assert {a.to for a in d.legal_actions()} == {2}
    d.apply("give KE to 2")
    assert d.observation(0).received == ("9S",) and d.observation(2).received == ("KE",)
    assert "KE" not in str(d.observation(0).to_dict())
    assert [len(d.observation(s).hand) for s in range(3)] == [8, 8, 8]


def test_S10_no_raise_after_the_talon(schnapsen):
    d = deal_b(schnapsen)
    assert d.phase == "play" and d.to_act == 1
    assert not [a for a in d.legal_actions() if a.kind in ("raise", "keep_contract")]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("raise 100")


# ---------------------------------------------------------------- play
def test_S11_declarer_leads_first_when_he_is_not_forehand(schnapsen):
    d = stacked(schnapsen, B_HANDS, B_TALON)
    run(d, ["bid 90", "bid 100", "pass", "pass"])  # seat 2 declares; forehand is seat 1
    assert d.observation(0).declarer == 2
    run(d, [d.legal_actions()[0].text])
    run(d, [d.legal_actions()[0].text])
    assert d.phase == "play" and d.to_act == 2
    assert d.observation(0).trump is None


def test_S11_no_trump_at_the_start_a_marriage_sets_it_a_later_one_changes_it(schnapsen):
    d = deal_b(schnapsen)
    assert d.observation(0).trump is None
    d.apply("marry KG")
    assert d.observation(0).trump == "Grün"
    run(d, ["play AG", "play 10G"])  # seat 2 wins and leads the Herz marriage
    d.apply("marry KH")
    assert d.observation(1).trump == "Herz"
    run(d, ["play UG", "play OG"])  # Grün is no longer trump: the KH wins
    assert d.observation(0).tricks[-1][2] == 2


def test_S12_marriage_on_the_very_first_lead_and_lost_without_a_trick(schnapsen):
    d = deal_n(schnapsen)
    assert {"marry KH", "marry OH"} <= set(texts(d.legal_actions()))
    run(d, N_SCRIPT)
    obs = d.observation(0)
    assert obs.declarations == ((1, "marriage", "Herz", 100),)
    assert obs.tricks_won == (0, 0, 8)
    assert obs.gains == (0, -90, 120)  # 0 card points and no premium: 0 < 90


def test_S12_the_premium_counts_with_one_trick(schnapsen):
    d = stacked(schnapsen, W_HANDS, ["9E", "10E", "OE"])
    run(d, ["bid 90", "pass", "pass", "give 10E to 2", "give OE to 0", *W_SCRIPT])
    obs = d.observation(0)
    assert obs.tricks_won == (0, 1, 7) and obs.card_points_taken == (0, 7, 113)
    assert obs.gains == (0, 90, 110)  # 10 + 100 >= 90


def test_S13a_follow_and_beat_the_highest_of_the_led_suit(schnapsen):
    d = deal_b(schnapsen)
    d.apply("marry KG")
    assert texts(d.legal_actions()) == ["play AG"]
    d.apply("play AG")
    assert texts(d.legal_actions()) == ["play 10G", "play UG"]  # cannot beat AG: any Grün
    run(d, ["play UG", "play AH", "play 10G", "play 9G"])  # seat 0 wins the trump trick
    d.apply("play KS")
    assert texts(d.legal_actions()) == ["play 10S"]  # 10S beats KS, US would not
    # scenario A of test_schnapsen.py: a trick already trumped is followed with any card


def test_S13a_trick_already_trumped_any_card_of_the_led_suit(schnapsen):
    hands = {
        1: "KH OH AE 9E AG 10G KG".split(),
        2: "AH 9H 10E 9S AS 10S KS".split(),
        0: "10H UH OS US 9G UG OG".split(),
    }
    d = stacked(schnapsen, hands, ["KE", "OE", "UE"])
    run(d, ["bid 90", "pass", "pass", "give UE to 2", "give KG to 0"])
    run(d, ["marry KH", "play AH", "play UH", "play 10E", "play 10H"])
    # seat 1 holds AE, which would beat the 10E, but the trick is trumped
    assert texts(d.legal_actions()) == ["play AE", "play KE", "play OE", "play 9E"]


def test_S13b_void_must_trump_and_overtrump_when_possible(schnapsen):
    d = deal_b(schnapsen)
    run(d, ["marry KG", "play AG", "play 10G", "play AH"])
    assert texts(d.legal_actions()) == ["play UG"]  # void in Herz: must trump
    d.apply("play UG")
    assert texts(d.legal_actions()) == ["play OG"]  # must beat UG: OG, not 9G
    d.apply("play OG")
    assert d.observation(0).tricks[-1][2] == 1


def test_S13b_void_who_cannot_overtrump_plays_any_trump(schnapsen):
    d = deal_b(schnapsen)
    run(d, ["marry KG", "play AG", "play UG", "play AH", "play 10G"])
    assert texts(d.legal_actions()) == ["play OG", "play 9G"]  # no non-trump card


def test_S13c_neither_led_suit_nor_trump_any_card(schnapsen):
    d = deal_b(schnapsen)
    run(d, ["marry KG", "play AG", "play 10G", "play AH", "play UG", "play OG", "play 9E"])
    assert sorted(texts(d.legal_actions())) == sorted(
        f"play {c}" for c in "10H KH OH UH 9H 9S".split()
    )


# ---------------------------------------------------------------- scoring
@pytest.mark.parametrize(
    "points, score", [(84, 80), (85, 90), (5, 10), (4, 0), (14, 10), (15, 20), (120, 120)]
)
def test_S14_S16_card_points_round_to_10_with_5_up(schnapsen, points, score):
    assert schnapsen.deal_score(False, card_points=points) == score


def test_S15_worked_example(schnapsen):
    assert schnapsen.deal_score(True, card_points=84, meld_points=60, contract=150) == -150
    assert schnapsen.deal_score(True, card_points=85, meld_points=60, contract=150) == 150
    assert schnapsen.deal_score(True, card_points=120, meld_points=100, contract=90) == 90


def test_S16_defender_scores_rounded_points_plus_his_premiums(schnapsen):
    assert schnapsen.deal_score(False, card_points=34, meld_points=40) == 70
    d = deal_b(schnapsen)
    run(d, ["marry KG", "play AG", "play 10G", "marry KH"])  # seat 2 declares 100
    obs = finish(d)
    assert obs.card_points_taken is not None and obs.gains is not None
    assert obs.gains[2] == round10(obs.card_points_taken[2]) + 100


def test_S14_S15_S16_every_seat_s_deal_score_in_random_deals(schnapsen):
    """Restated: rounded card points + premiums of a player who won a trick; the declarer
    scores +-contract, a defender his points; all scores are multiples of 10."""
    made = failed = 0
    for seed in range(250):
        obs = random_deal(schnapsen, 500 + seed, seed % 3, cautious=True).observation(0)
        if obs.redealt:
            continue
        assert obs.gains is not None and obs.card_points_taken is not None
        for seat in range(3):
            premiums = sum(v for s, _, _, v in obs.declarations if s == seat)
            points = round10(obs.card_points_taken[seat])
            points += premiums if obs.tricks_won[seat] else 0
            assert obs.gains[seat] % 10 == 0
            if seat == obs.declarer:
                ok = points >= obs.contract
                made += ok
                failed += not ok
                assert obs.gains[seat] == (obs.contract if ok else -obs.contract)
            else:
                assert obs.gains[seat] == points
    assert made and failed


# ---------------------------------------------------------------- match
def played_deals(m: trickcore.Match) -> int:
    """Deals played to a score (a redealt deal is not played)."""
    return sum(1 for r in m.deal_results if not r.get("redeal"))


def test_S17_no_barrel_990_stays_and_1000_wins(schnapsen):
    order = schnapsen.stack_deck(N_HANDS, ["9E", "10E", "OE"], dealer=0)
    for start, after, over in ((870, 990, False), (760, 880, False), (880, 1000, True)):
        m = schnapsen.new_match(deck_orders=[order], scores=[0, 0, start])
        run(m, [*KEEP3, "bid 90", "pass", "pass", "give 10E to 2", "give OE to 0", *N_SCRIPT])
        assert m.scores == [0, -90, after]  # negative scores too (S15)
        assert m.is_over is over
        assert m.winners == ([2] if over else [])


def test_S17_tie_breaks_as_T21(schnapsen):
    order = schnapsen.stack_deck(W_HANDS, ["9E", "10E", "OE"], dealer=0)
    gives = ["give 10E to 2", "give OE to 0"]
    # declarer (seat 1, +90) and seat 2 (+110) both reach 1000: the declarer wins
    m = schnapsen.new_match(deck_orders=[order], scores=[0, 910, 950])
    run(m, [*KEEP3, "bid 90", "pass", "pass", *gives, *W_SCRIPT])
    assert m.scores == [0, 1000, 1060] and m.winners == [1]
    # two defenders reach 1000 (deal B, first legal actions: +60 and +70)
    b_order = schnapsen.stack_deck(B_HANDS, B_TALON, dealer=0)
    for scores, winners in (([940, 0, 930], [0, 2]), ([950, 0, 930], [0])):
        m = schnapsen.new_match(deck_orders=[b_order], scores=scores)
        run(m, [*KEEP3, "bid 90", "pass", "pass", "give 9S to 2", "give KE to 0"])
        while not m.is_over:
            m.apply(m.legal_actions()[0])
        assert m.deal_results[-1]["gains"] == [60, -90, 70]
        assert m.winners == winners


def test_S17_a_match_over_200_played_deals_redeals_not_counted(schnapsen):
    m = schnapsen.new_match(seed=3, scores=[-100_000] * 3)
    rng = random.Random(3)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert played_deals(m) == 200
    assert any(r.get("redeal") for r in m.deal_results)  # the reading matters here
    top = max(m.scores)
    assert m.winners == [s for s in range(3) if m.scores[s] == top]


# ---------------------------------------------------------------- named variants
def test_S18_raise_after_the_talon_in_tens_never_lower():
    v = trickcore.load_variant("russisch-schnapsen-raise-after-talon")
    d = stacked(v, B_HANDS, B_TALON)
    run(d, ["bid 90", "bid 120", "pass", "pass", "give 9S to 1", "give KE to 0"])
    legal = texts(d.legal_actions())
    assert d.to_act == 2 and legal[0] == "keep contract"
    assert legal[1:] == [f"raise {x}" for x in range(130, 410, 10)]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("raise 110")
    d.apply("raise 150")
    assert d.observation(0).contract == 150 and d.phase == "play" and d.to_act == 2


def test_S19_all_eight_tricks_earn_50():
    v = trickcore.load_variant("russisch-schnapsen-all-tricks-bonus")
    d = deal_n(v)
    run(d, N_SCRIPT)
    assert d.observation(0).gains == (0, -90, 170)  # seat 2: 120 + 50
    assert v.deal_score(True, card_points=120, tricks_won=8, tricks_total=8, contract=170) == 170
    assert v.deal_score(True, card_points=120, tricks_won=7, tricks_total=8, contract=170) == -170
    d = stacked(v, W_HANDS, ["9E", "10E", "OE"])
    run(d, ["bid 90", "pass", "pass", "give 10E to 2", "give OE to 0", *W_SCRIPT])
    assert d.observation(0).gains == (0, 90, 110)  # 7 of 8 tricks: no bonus


def test_S20_n_ohne_beats_n_and_loses_to_n_plus_10(ohne):
    d = stacked(ohne, B_HANDS, B_TALON)
    assert texts(d.legal_actions()) == ["bid 90", "bid 90 ohne"]
    d.apply("bid 90")
    assert bids(d)[:3] == ["bid 90 ohne", "bid 100", "bid 100 ohne"]
    d.apply("bid 90 ohne")
    assert bids(d)[:2] == ["bid 100", "bid 100 ohne"]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 90")
    run(d, ["bid 100", "pass", "pass"])
    assert (d.observation(0).declarer, d.observation(0).qualifier) == (0, "")


def test_S20_forced_opening_may_be_90_ohne(ohne):
    d = stacked(ohne, B_HANDS, B_TALON)
    run(d, ["bid 90 ohne", "pass", "pass"])
    obs = d.observation(0)
    assert (obs.declarer, obs.contract, obs.qualifier) == (1, 90, "ohne")


def test_S20_ohne_talon_one_card_each_from_the_declarer_round(ohne):
    d = stacked(ohne, B_HANDS, B_TALON)  # talon in deal order: 9E, 9S, KE
    run(d, ["bid 90", "bid 90 ohne", "pass", "pass"])
    assert d.observation(0).declarer == 2 and d.phase == "play" and d.to_act == 2
    assert d.observation(2).talon_taken == ("9E",)
    assert d.observation(0).talon_taken == ("9S",)
    assert d.observation(1).talon_taken == ("KE",)
    assert "9E" not in str(d.observation(0).to_dict())
    assert [len(d.observation(s).hand) for s in range(3)] == [8, 8, 8]


def test_S20_without_ohne_the_talon_is_exchanged_as_usual(ohne):
    d = stacked(ohne, B_HANDS, B_TALON)
    run(d, ["bid 90", "pass", "pass"])
    assert d.phase == "give" and sorted(d.observation(1).talon_taken) == sorted(B_TALON)


def test_S20_ohne_scores_20_more_made_or_failed(ohne):
    d = stacked(ohne, N_HANDS, ["9E", "10E", "OE"])
    run(d, ["bid 90 ohne", "pass", "pass"])
    obs = finish(d)
    assert obs.gains is not None and obs.gains[1] == -110
    assert ohne.deal_score(True, "ohne", card_points=100, contract=100) == 120
    assert ohne.deal_score(True, "ohne", card_points=94, contract=100) == -120
    assert ohne.deal_score(True, card_points=100, contract=100) == 100
    assert ohne.deal_score(False, "ohne", card_points=30) == 30


def test_S21_36_cards_deal_3_t3_3_t3_2_2(v36):
    order = [f"{r}{s}" for s in SUITS for r in RANKS_36]
    random.Random(1).shuffle(order)
    d = v36.new_deal(order, dealer=0)
    for k, seat in enumerate((1, 2, 0)):
        packets = order[3 * k : 3 * k + 3] + order[12 + 3 * k : 15 + 3 * k]
        packets += order[24 + 2 * k : 26 + 2 * k] + order[30 + 2 * k : 32 + 2 * k]
        assert set(d.observation(seat).hand) == set(packets)
    while d.phase == "redeal":
        d.apply("keep")
    run(d, ["bid 90", "pass", "pass"])
    assert set(d.observation(1).talon_taken) == set(order[9:12] + order[21:24])
    assert len(d.observation(1).hand) == 16
    gives = []
    while d.phase == "give":
        gives.append(d.legal_actions()[0].to)
        d.apply(d.legal_actions()[0])
    assert sorted(gives) == [0, 0, 2, 2]
    assert [len(d.observation(s).hand) for s in range(3)] == [12, 12, 12]


def test_S21_twelve_tricks_240_points_per_rank(v36):
    played = 0
    for seed in range(12):
        obs = random_deal(v36, seed, dealer=seed % 3).observation(0)
        if obs.redealt:
            continue
        played += 1
        assert len(obs.tricks) == 12
        taken = [0, 0, 0]
        for _leader, cards, winner in obs.tricks:
            taken[winner] += sum(POINTS_36[rank(c)] for _, c in cards)
        assert list(obs.card_points_taken or ()) == taken and sum(taken) == 240
    assert played >= 8


@pytest.mark.parametrize("high, low", list(zip(RANKS_36, RANKS_36[1:])))
def test_S21_rank_order_a_10_9_8_7_6_k_o_u(v36, high, low):
    """Seat 1 leads one Herz, seat 2 follows with his only Herz, seat 0 has none."""
    fillers = [f"{r}{s}" for s in "SGE" for r in RANKS_36]
    for lead, follow, winner in ((low, high, 2), (high, low, 1)):
        others = [f"{r}H" for r in RANKS_36 if r not in (lead, follow)]
        hands = {
            1: [f"{lead}H", *others[:1], *fillers[:8]],
            2: [f"{follow}H", *fillers[8:17]],
            0: fillers[17:27],
        }
        d = stacked(v36, hands, others[1:])
        run(d, ["bid 90", "pass", "pass"])
        for target in (0, 0, 2, 2):
            d.apply(next(a for a in d.legal_actions() if a.to == target and "H" not in a.text))
        run(d, [f"play {lead}H", f"play {follow}H", f"play {fillers[17]}"])
        assert d.observation(0).tricks[0][2] == winner, (lead, follow)


def test_S21_bids_and_rounding_unchanged(v36):
    d = v36.new_deal(seed=5)
    while d.phase == "redeal":
        d.apply("keep")
    assert texts(d.legal_actions()) == ["bid 90"]
    d.apply("bid 90")
    assert bids(d)[:2] == ["bid 100", "bid 110"]
    assert v36.deal_score(False, card_points=84) == 80
    assert v36.deal_score(False, card_points=85) == 90
    assert v36.deal_score(True, card_points=184, meld_points=60, contract=250) == -250


def test_S19_S14_card_points_still_round_to_10_with_5_up():
    """S19 keeps S14: the bonus variant rounds card points to 10 with 5 up (85 -> 90)."""
    v = trickcore.load_variant("russisch-schnapsen-all-tricks-bonus")
    for points, score in [(84, 80), (85, 90), (15, 20), (14, 10)]:
        assert v.deal_score(False, card_points=points, tricks_won=3, tricks_total=8) == score
    assert v.deal_score(True, card_points=85, meld_points=60, contract=150, tricks_won=4) == 150


def test_S19_S8_the_highest_bid_is_deck_points_all_melds_and_the_bonus():
    """S8 with S19: bids are bounded by the most a declarer can score, 120 + 280 + 50 = 450
    (the 50 of the all-tricks bonus counts): 450 may be bid, 460 may not."""
    v = trickcore.load_variant("russisch-schnapsen-all-tricks-bonus")
    d = stacked(v, {1: "AH AS AG AE 10H 10S 10G".split()}, [])  # no marriage in hand
    d.apply("bid 90")
    offered = [int(t.split()[1]) for t in texts(d.legal_actions()) if t.startswith("bid")]
    assert max(offered) == 450 and offered == list(range(100, 451, 10))
    d.apply("bid 450")
    assert texts(d.legal_actions()) == ["pass"]
    d = stacked(v, {1: "AH AS AG AE 10H 10S 10G".split()}, [])
    d.apply("bid 90")
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 460")
    # the cap is exactly 450, as a house rule bidding in steps of 1 shows: not 449, not 451
    step1 = trickcore.variant_from_text(
        'extends "russisch-schnapsen-all-tricks-bonus"\nbidding {\n  step: 1\n}\n', "step-1"
    )
    d = stacked(step1, {1: "AH AS AG AE 10H 10S 10G".split()}, [])
    d.apply("bid 90")
    offered = [int(t.split()[1]) for t in texts(d.legal_actions()) if t.startswith("bid")]
    assert max(offered) == 450 and len(offered) == 450 - 90
