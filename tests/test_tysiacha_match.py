"""Tysiacha match rules T21–T25 (target, deal limit, barrel) on whole scripted deals."""

from __future__ import annotations

import random

import pytest

import trickcore

# Deal templates: the declarer's 7 dealt cards and the talon; everything else is dealt
# to the defenders so that each holds every suit.
MAKE = ("AS AC AD AH 10S 10C 10D", "10H 9S 9C")  # wins every trick: 120 card points
MARRIAGE = ("AS AC AD AH KH QH 10S", "10C 9S 9C")  # 4 aces, then the hearts marriage
FAIL = ("9S 9C 9D 9H JS JC JD", "JH KS QS")  # loses every trick


def order_for(v, template, declarer, dealer):
    hand, talon = template
    return v.stack_deck({declarer: hand.split()}, talon.split(), dealer=dealer)


def play_deal(m: trickcore.Match, declarer: int, contract: int, seed: int | None = None) -> dict:
    """Drive the current deal: `declarer` wins the auction at `contract`, gives away his two
    lowest cards, leads aces first and declares a marriage after four tricks. Defenders
    play their first legal card, or a random one from `seed`."""
    rng = random.Random(seed) if seed is not None else None
    deal = m.current
    assert isinstance(deal, trickcore.Deal)
    forehand = deal.active[0]
    ranks = ["A", "10", "K", "Q", "J", "9"]  # T1

    def strength(text: str) -> int:
        return ranks.index(text.split()[1][:-1])

    while not deal.is_over:
        seat = m.to_act
        legal = [a.text for a in m.legal_actions()]
        if deal.phase == "bid":
            if seat == declarer and deal.high_bidder != declarer:
                choice = f"bid {contract}" if f"bid {contract}" in legal else legal[-2]
            elif seat == forehand and not deal.bids:
                choice = "bid 100"
            else:
                choice = "pass"
        elif deal.phase == "give":
            choice = max(legal, key=strength)
        elif deal.phase == "raise":
            choice = "keep contract"
        elif seat == declarer:
            marry = [t for t in legal if t.startswith("marry")]
            if marry and deal.tricks_won[seat] >= 4:
                choice = marry[0]
            else:
                choice = min((t for t in legal if t.startswith("play")), key=strength)
        else:
            choice = rng.choice(legal) if rng else legal[0]
        m.apply(choice)
    return m.deal_results[-1]


def new_match(v, deals, scores, kept=None, dealer=0):
    """A match whose deals follow the templates [(template, declarer), ...]."""
    orders = []
    for i, (template, declarer) in enumerate(deals):
        orders.append(order_for(v, template, declarer, (dealer + i) % 3))
    return v.new_match(seed=1, deck_orders=orders, scores=scores, kept=kept, dealer=dealer)


ON = {"on_barrel": True, "barrel_deals": 0}
OFF = {"on_barrel": False, "barrel_deals": 0}


def test_templates_make_and_fail(tysiacha):
    m = new_match(tysiacha, [(MAKE, 1), (FAIL, 2)], [0, 0, 0])
    assert play_deal(m, 1, 120)["gains"][1] == 120
    assert play_deal(m, 2, 120)["gains"][2] == -120


def test_T21_first_to_1000_wins(tysiacha):
    m = new_match(tysiacha, [(MARRIAGE, 1)], [0, 870, 0])
    play_deal(m, 1, 140)
    assert m.is_over and m.winners == [1] and m.scores[1] == 1010


def test_T23_climbing_on_the_barrel_sets_880(tysiacha):
    m = new_match(tysiacha, [(MAKE, 1)], [0, 850, 0])
    play_deal(m, 1, 120)
    assert m.scores[1] == 880
    assert m.kept_state(1) == {"on_barrel": True, "barrel_deals": 0}
    assert not m.is_over


def test_T24_win_from_the_barrel_with_a_contract_of_120(tysiacha):
    m = new_match(tysiacha, [(MAKE, 1)], [0, 880, 0], kept=[OFF, ON, OFF])
    play_deal(m, 1, 120)
    assert m.is_over and m.winners == [1] and m.scores[1] == 1000


def test_T24_made_contract_below_120_scores_nothing_on_the_barrel(tysiacha):
    m = new_match(tysiacha, [(MAKE, 1)], [0, 880, 0], kept=[OFF, ON, OFF])
    result = play_deal(m, 1, 100)
    assert result["contract"] == 100 and result["gains"][1] == 100
    assert m.scores[1] == 880 and m.kept_state(1)["on_barrel"]


def test_T24_failed_contract_loses_it_and_falls_off(tysiacha):
    m = new_match(tysiacha, [(FAIL, 1)], [0, 880, 0], kept=[OFF, ON, OFF])
    play_deal(m, 1, 120)
    assert m.scores[1] == 760
    assert m.kept_state(1)["on_barrel"] is False


def test_T24_failed_contract_below_120_is_lost_too(tysiacha):
    m = new_match(tysiacha, [(FAIL, 1)], [0, 880, 0], kept=[OFF, ON, OFF])
    play_deal(m, 1, 100)
    assert m.scores[1] == 780
    assert m.kept_state(1)["on_barrel"] is False


def test_T24_defender_on_the_barrel_scores_nothing(tysiacha):
    m = new_match(tysiacha, [(FAIL, 2)], [0, 880, 0], kept=[OFF, ON, OFF])
    result = play_deal(m, 2, 120)
    assert result["gains"][1] > 0  # he took card points ...
    assert m.scores[1] == 880  # ... and scores nothing
    assert m.kept_state(1) == {"on_barrel": True, "barrel_deals": 1}


def test_T25_three_deals_on_the_barrel_then_760(tysiacha):
    m = new_match(tysiacha, [(MAKE, 0), (MAKE, 0), (MAKE, 0)], [0, 880, 0], kept=[OFF, ON, OFF])
    for expected in (1, 2):
        play_deal(m, 0, 100)
        assert m.scores[1] == 880 and m.kept_state(1)["barrel_deals"] == expected
    play_deal(m, 0, 100)
    assert m.scores[1] == 760
    assert m.kept_state(1) == {"on_barrel": False, "barrel_deals": 0}


def test_T25_counted_from_the_deal_after_climbing_on(tysiacha):
    m = new_match(tysiacha, [(MAKE, 1), (MAKE, 0), (MAKE, 0), (MAKE, 0)], [0, 850, 0])
    play_deal(m, 1, 120)  # climbs on: this deal does not count
    for _ in range(2):
        play_deal(m, 0, 100)
        assert m.scores[1] == 880
    play_deal(m, 0, 100)
    assert m.scores[1] == 760


def test_T25_jumping_over_the_barrel(tysiacha):
    m = new_match(tysiacha, [(MARRIAGE, 1)], [0, 870, 0])
    play_deal(m, 1, 140)
    assert m.scores[1] == 1010 and m.winners == [1]


def test_T25_may_climb_on_again_after_leaving(tysiacha):
    m = new_match(tysiacha, [(FAIL, 1), (MARRIAGE, 1)], [0, 880, 0], kept=[OFF, ON, OFF])
    play_deal(m, 1, 120)
    assert m.scores[1] == 760
    play_deal(m, 1, 140)
    assert m.scores[1] == 880 and m.kept_state(1)["on_barrel"]


NO_BARREL = """
extends "tysiacha"
name: "Tysiacha without the barrel"
remove match.keep
remove after_deal.barrel_silence
remove after_deal.barrel_fall
remove after_deal.barrel_count
remove after_deal.barrel_climb
remove after_deal.barrel_out
"""


@pytest.fixture(scope="module")
def no_barrel():
    return trickcore.variant_from_text(NO_BARREL, "no-barrel")


def _gains(v, template, declarer, contract, seed=None):
    m = new_match(v, [(template, declarer)], [0, 0, 0])
    return play_deal(m, declarer, contract, seed)["gains"]


def _seed_where(v, template, declarer, contract, test):
    for seed in range(200):
        gains = _gains(v, template, declarer, contract, seed)
        if test(gains):
            return seed, gains
    raise AssertionError("no defender play gives the wanted deal")


@pytest.mark.parametrize("start", [870, 879])
def test_T21_990_to_999_is_not_1000(no_barrel, start):
    m = new_match(no_barrel, [(MAKE, 1)], [0, start, 0])
    play_deal(m, 1, 120)
    assert m.scores[1] == start + 120 and not m.is_over and m.winners == []


def test_T21_two_reach_1000_declarer_among_them_wins(no_barrel):
    seed, g = _seed_where(no_barrel, MARRIAGE, 1, 140, lambda g: g[1] == 140 and g[0] > 0)
    start = [1000 - g[0] + 30, 1000 - g[1], 0]
    m = new_match(no_barrel, [(MARRIAGE, 1)], start)
    play_deal(m, 1, 140, seed)
    assert m.scores[0] > m.scores[1] >= 1000
    assert m.winners == [1]


def test_T21_two_defenders_reach_1000_higher_wins_equal_share(no_barrel):
    seed, g = _seed_where(no_barrel, FAIL, 2, 120, lambda g: g[0] > 0 and g[1] > 0)
    assert g[2] == -120
    m = new_match(no_barrel, [(FAIL, 2)], [1000 - g[0] + 10, 1000 - g[1], 0])
    play_deal(m, 2, 120, seed)
    assert m.winners == [0]
    m = new_match(no_barrel, [(FAIL, 2)], [1000 - g[0], 1000 - g[1], 0])
    play_deal(m, 2, 120, seed)
    assert m.winners == [0, 1] and m.scores[0] == m.scores[1] == 1000


def test_T21_T24_T25_two_players_over_1000_in_one_deal(tysiacha):
    # Seat 1 is on the barrel and makes 120 (T24); seat 2 jumps the barrel from 870 with the
    # hearts marriage (T25). Both reach 1000 in the same deal: the declarer wins (T21).
    hands = {
        1: "AS 10S KS QS AC 10C 9H".split(),
        2: "KH QH AH 10H AD 10D KD".split(),
        0: "JS KC QC JC QD JD JH".split(),
    }
    order = tysiacha.stack_deck(hands, ["9S", "9C", "9D"], dealer=0)
    m = tysiacha.new_match(deck_orders=[order], scores=[0, 880, 870], kept=[OFF, ON, OFF])
    script = (
        "bid 120|pass|pass|give 9C to 2|give 9D to 0|keep contract|"
        "play 9H|play AH|play JH|marry KH|play 9D|play 9S|play QH|play QD|play 10C|"
        "play 9C|play KC|play AC|marry KS|play KD|play JS|play AS|play AD|play QC|"
        "play 10S|play 10D|play JC|play QS|play 10H|play JD"
    )
    for action in script.split("|"):
        m.apply(action)
    result = m.deal_results[-1]
    assert result["gains"][1] == 120 and result["gains"][2] == 135  # 33 + 100, rounded
    assert m.scores[1] == 1000 and m.scores[2] == 1005
    assert not m.kept_state(2)["on_barrel"]  # jumped it
    assert m.is_over and m.winners == [1]


def played_deals(m: trickcore.Match) -> int:
    """Deals played to a score (a redealt deal is not played)."""
    return sum(1 for r in m.deal_results if not r.get("redeal"))


def test_T22_after_200_played_deals_the_highest_score_wins(tysiacha):
    m = tysiacha.new_match(seed=4, scores=[-100_000, -100_000, -100_000])
    rng = random.Random(4)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert played_deals(m) == 200
    top = max(m.scores)
    assert top < 1000
    assert m.winners == [s for s in range(3) if m.scores[s] == top]


def test_T22_equal_highest_scores_share_the_win():
    """The deal limit's ranking (T22) on a one-deal house rule: two defenders end level."""
    v = trickcore.variant_from_text('extends "tysiacha"\nmatch {\n  deal_limit: 1\n}\n')
    seed, g = _seed_where(v, FAIL, 2, 120, lambda g: g[0] > 0 and g[1] > 0)
    m = new_match(v, [(FAIL, 2)], [500 - g[0], 500 - g[1], 0])
    play_deal(m, 2, 120, seed)
    assert m.is_over and m.scores[:2] == [500, 500]
    assert m.winners == [0, 1]


@pytest.mark.parametrize(
    "start, after, on_barrel",
    [(870, 880, True), (879, 880, True), (760, 880, True), (759, 879, False), (700, 820, False)],
)
def test_T23_a_score_landing_on_880_to_999_is_set_to_880(tysiacha, start, after, on_barrel):
    m = new_match(tysiacha, [(MAKE, 1)], [0, start, 0])
    assert play_deal(m, 1, 120)["gains"][1] == 120
    assert m.scores[1] == after
    assert m.kept_state(1)["on_barrel"] is on_barrel
    assert not m.is_over


def test_T23_landing_on_1000_is_not_the_barrel(tysiacha):
    m = new_match(tysiacha, [(MARRIAGE, 1)], [0, 860, 0])
    play_deal(m, 1, 140)
    assert m.scores[1] == 1000 and m.winners == [1]
    assert not m.kept_state(1)["on_barrel"]


def test_T23_a_defender_climbs_too_and_several_may_be_on_the_barrel(tysiacha):
    seed, g = _seed_where(tysiacha, FAIL, 2, 120, lambda g: g[1] > 0 and g[0] > 0)
    m = new_match(tysiacha, [(FAIL, 2)], [880, 1000 - g[1] - 5, 0], kept=[ON, OFF, OFF])
    play_deal(m, 2, 120, seed)
    assert m.scores[:2] == [880, 880]
    assert m.kept_state(0)["on_barrel"] and m.kept_state(1)["on_barrel"]


def test_T25_the_barrel_count_starts_at_0():
    """T25: a player put on the barrel without a count has had no barrel deal yet: he keeps
    his 880 through two deals and falls to 760 only after the third."""
    v = trickcore.load_variant("tysiacha")
    m = new_match(v, [(MAKE, 0)] * 3, [0, 880, 0], kept=[{}, {"on_barrel": True}, {}])
    assert m.kept_state(1) == {"on_barrel": True, "barrel_deals": 0}
    assert m.kept_state(0) == OFF
    for expected in (1, 2):
        play_deal(m, 0, 100)
        assert m.scores[1] == 880 and m.kept_state(1) == {**ON, "barrel_deals": expected}
    play_deal(m, 0, 100)
    assert m.scores[1] == 760 and m.kept_state(1) == OFF


def test_T24_a_made_contract_of_119_still_scores_nothing_on_the_barrel():
    """T24 "at least 120", on a house rule bidding in steps of 1: a made 119 on the barrel
    scores nothing, a made 120 scores."""
    v = trickcore.variant_from_text('extends "tysiacha"\nbidding {\n  step: 1\n}\n', "step-1")
    for contract, score in ((119, 880), (120, 1000)):
        m = new_match(v, [(MAKE, 1)], [0, 880, 0], kept=[OFF, ON, OFF])
        result = play_deal(m, 1, contract)
        assert result["contract"] == contract and result["gains"][1] == contract
        assert m.scores[1] == score


def test_T25_winning_with_exactly_1000_on_the_third_barrel_deal(tysiacha):
    """T25 at its edge: a made 120 on the third barrel deal reaches exactly 1000, which wins
    (T21); he does not lose 120."""
    m = new_match(tysiacha, [(MAKE, 1)], [0, 880, 0], kept=[OFF, {**ON, "barrel_deals": 2}, OFF])
    play_deal(m, 1, 120)
    assert m.scores[1] == 1000 and m.is_over and m.winners == [1]


def test_T25_999_after_the_third_barrel_deal_has_not_won():
    """T25 at its edge: a score of 999 (set up as a study position: on the barrel, two
    barrel deals behind him) has not won (T21), so after the third he loses 120."""
    v = trickcore.load_variant("tysiacha")
    m = new_match(v, [(MAKE, 0)], [0, 999, 0], kept=[OFF, {**ON, "barrel_deals": 2}, OFF])
    play_deal(m, 0, 100)
    assert m.scores[1] == 879 and m.kept_state(1) == OFF and not m.is_over
