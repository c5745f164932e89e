"""Preferans house rules R69-R74 (variants/preferans-*.rules), each against the base game on
the same scripted deal."""

from __future__ import annotations

from test_rules_preferans import FAILED, R56, R60A, contract_deal, finish, script, sheet, start

import trickcore

BASE = trickcore.load_variant("preferans")


def house(name):
    return trickcore.load_variant(f"preferans-{name}")


def test_r69_leningrad_doubles_whists_and_declarer_mountain_not_the_shortfall():
    v = house("leningrad")
    # a failed 7 hearts, one whister (seat 2), declarer seat 1 with 5 tricks: u = 2
    base = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], FAILED)
    finish(base)
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], FAILED, variant=v)
    finish(m)
    assert sheet(base, 1)["mountain"] == 8 and sheet(m, 1)["mountain"] == 16
    # consolation 2 x V x u = 16 each; trick whists 2 x V x T = 40 shared (R71): 20 each
    assert sheet(m, 2)["whists_left2"] == 16 + 20
    assert sheet(m, 0)["whists_left1"] == 16 + 20
    # the shortfall stays at V: R56's one whister short by one trick writes 2
    short = contract_deal(
        ["pass", "pass", "bid 6 diamonds"], ["whist", "pass_whist"], R56, variant=v
    )
    finish(short)
    assert sheet(short, 1)["mountain"] == 2 and sheet(short, 1)["whists_left2"] == 12


def test_r69_leningrad_failed_misere_is_twenty_a_trick():
    from test_rules_preferans import R59A

    m = start(R59A, variant=house("leningrad"))
    script(m, ["pass", "bid 8 misere", "pass", "*", "*", "keep contract"])
    deal = finish(m)
    assert deal.tricks_won[2] == 2 and sheet(m, 2)["mountain"] == 40


def test_r70_rostov_half_shortfall_no_progression_no_talon_leads():
    v = house("rostov")
    m = contract_deal(["pass", "pass", "bid 6 diamonds"], ["whist", "pass_whist"], R56, variant=v)
    finish(m)
    assert sheet(m, 1)["mountain"] == 1  # V / 2 = 1 per missing trick
    m = start(R60A, variant=v)
    script(m, ["pass", "pass", "pass"])
    assert m.observation(0).trick == ()  # no talon card leads
    assert m.to_act == 1  # the first hand leads trick 1
    deal = finish(m)
    assert sum(deal.tricks_won) == 10
    m = start(R60A, variant=v, more=(R60A,))
    taken = [0, 0, 0]
    for _ in range(2):
        script(m, ["pass", "pass", "pass"])
        deal = finish(m)
        taken = [a + b for a, b in zip(taken, deal.tricks_won, strict=True)]
    assert [sheet(m, s)["mountain"] for s in range(3)] == taken  # m = 1 both times
    assert sheet(m, 0)["allpass_run"] == 2


def test_r70_rostov_dealer_sitting_out_writes_consolation():
    v = house("rostov")
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "whist"], FAILED, 4, 2, variant=v)
    deal = finish(m)
    assert deal.declarer == 3 and deal.tricks_won[3] == 5
    assert sheet(m, 2)["whists_left1"] == 8  # seat 3 is one to the left of seat 2
    base = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "whist"], FAILED, 4, 2)
    finish(base)
    assert sheet(base, 2)["whists_left1"] == 0


def test_r71_gentleman_whist_splits_trick_whists_of_a_failed_contract_only():
    v = house("gentleman-whist")
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], FAILED, variant=v)
    finish(m)
    # consolation 8 each; V x T = 4 x 5 = 20 shared: 10 each
    assert sheet(m, 2)["whists_left2"] == 8 + 10 and sheet(m, 0)["whists_left1"] == 8 + 10
    made = contract_deal(
        ["pass", "pass", "bid 6 diamonds"], ["whist", "pass_whist"], R56, variant=v
    )
    finish(made)
    assert sheet(made, 1)["whists_left2"] == 6 and sheet(made, 2)["whists_left1"] == 0


def test_r72_closed_single_whist_lets_the_whister_choose():
    v = house("closed-single-whist")
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], variant=v)
    assert m.to_act == 2 and [str(a) for a in m.legal_actions()] == ["open", "closed"]
    m.apply("closed")
    assert m.observation(1).open_hands == ()
    while m.current.cards_played < 3:
        assert m.observation(m.to_act).playing_for is None
        m.apply(m.legal_actions()[0])
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist", "open"], variant=v)
    assert {s for s, _ in m.observation(1).open_hands} == {0, 2}
    # with two whisters nobody is asked
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "whist"], variant=v)
    assert m.current.phase == "play"


def test_r73_stalingrad_six_spades_must_be_whisted_by_both():
    v = house("stalingrad")
    m = start(variant=v)
    script(m, ["bid 6 spades", "pass", "pass", "*", "*", "keep contract"])
    assert [str(a) for a in m.legal_actions()] == ["whist"]
    m.apply("whist")
    assert [str(a) for a in m.legal_actions()] == ["whist"]
    m = start(variant=v)
    script(m, ["bid 6 clubs", "pass", "pass", "*", "*", "keep contract"])
    assert [str(a) for a in m.legal_actions()] == ["whist", "pass_whist"]
    base = start()
    script(base, ["bid 6 spades", "pass", "pass", "*", "*", "keep contract"])
    assert "pass_whist" in [str(a) for a in base.legal_actions()]


def test_r74_all_pass_zero_bonus():
    from test_rules_preferans import R60C

    v = house("all-pass-zero-bonus")
    m = start(R60C, dealer=2, variant=v)
    script(m, ["pass", "pass", "pass"])
    deal = finish(m)
    assert deal.tricks_won == [0, 6, 4]
    assert [sheet(m, s)["pool"] for s in range(3)] == [1, 0, 0]
    base = start(R60C, dealer=2)
    script(base, ["pass", "pass", "pass"])
    finish(base)
    assert sheet(base, 0)["pool"] == 0
    # through R46: a closed pool sends the point on as aid
    kept = [{"pool": 20}, {"pool": 5}, {"pool": 7}]
    m = v.new_match(deck_orders=[R60C.split()], dealer=2, kept=kept)
    script(m, ["pass", "pass", "pass"])
    finish(m)
    assert [sheet(m, s)["pool"] for s in range(3)] == [20, 5, 8]
    assert sheet(m, 0)["whists_left2"] == 10


# an all-pass in which seats 1 and 2 take no trick (seat 0 takes all ten), dealer 2
TWO_ZEROS = (
    "9C AC 8H KH QH KD 10C 7C 9S QS KS 9H 10H 8S 10D QD "
    "JH 10S 8D AS KC 8C 7S AD JS JD 7D JC 7H 9D QC AH"
)


def test_r74_r46_a_pool_closed_by_its_own_bonus_takes_no_aid_in_the_same_step():
    """R74 (settled there): both players who took no trick are credited in the same step,
    each in his own pool first; seat 1's pool is closed, so his point is aid (R46); seat 2's
    own point closes his pool (19 -> 20), which has no room left for the aid: it goes to
    seat 0, the open pool."""
    v = house("all-pass-zero-bonus")
    kept = [{"pool": 10}, {"pool": 20}, {"pool": 19}]
    m = v.new_match(deck_orders=[TWO_ZEROS.split()], dealer=2, kept=kept)
    script(m, ["pass", "pass", "pass"])
    deal = finish(m)
    assert deal.tricks_won == [10, 0, 0]
    assert [sheet(m, s)["pool"] for s in range(3)] == [11, 20, 20]
