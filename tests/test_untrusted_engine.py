"""Untrusted input at the engine's API: every bad call is a library error, nothing changes,
and no rules file can make numbers, legal-action lists or matches grow without bound."""

from __future__ import annotations

import tracemalloc

import pytest
from conftest import play_out, texts

import trickcore
from trickcore import IllegalActionError, RulesError, TrickcoreError


def _house(text: str) -> trickcore.Variant:
    return trickcore.variant_from_text(text, "house")


@pytest.mark.parametrize("text", ["bid ²", "bid ١٢٠", "bid " + "9" * 5000, "bid 1e3", "bid -5"])
def test_malformed_numbers_in_action_text_are_refused(tysiacha, text):
    m = tysiacha.new_match(seed=1)
    before = (m.history[:], m.observation(1))
    with pytest.raises(IllegalActionError) as info:
        m.apply(text)
    assert len(str(info.value).splitlines()[0]) < 200  # a 5,000-digit text is not echoed whole
    assert (m.history, m.observation(1)) == before


def test_refused_texts_do_not_grow_the_variant(tysiacha):
    m = tysiacha.new_match(seed=2)
    for value in range(1000, 2000):  # warm-up: whatever is allocated once is allocated now
        with pytest.raises(IllegalActionError):
            m.apply(f"bid {value}")
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for value in range(2000, 30000):
        with pytest.raises(IllegalActionError):
            m.apply(f"bid {value}")
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert grown < 200_000, f"{grown} bytes kept after 28,000 refused bids"


def test_an_action_of_another_variant_is_refused(tysiacha, schnapsen):
    deal = schnapsen.new_deal(seed=5)
    while deal.phase != "play":
        deal.apply(deal.legal_actions()[-1] if deal.phase == "bid" else deal.legal_actions()[0])
    mine = next(a for a in deal.legal_actions() if a.kind == "play")
    # the same card number is another card in Tysiacha's deck (its ranks and suits differ)
    foreign_text = "play " + tysiacha.card_text(mine.card)
    assert foreign_text != mine.text
    foreign = trickcore.Action("play", foreign_text, card=mine.card)
    before = deal.observation(deal.to_act)
    with pytest.raises(IllegalActionError, match="another variant"):
        deal.apply(foreign)
    assert deal.observation(deal.to_act) == before
    deal.apply(mine)  # the variant's own action (or its text) is taken


@pytest.mark.parametrize("seat", [3, -1, -2, "0", 1.0, True, None])
def test_seats_outside_the_table_are_library_errors(tysiacha, seat):
    m = tysiacha.new_match(seed=3)
    with pytest.raises(TrickcoreError, match="seat"):
        m.observation(seat)
    with pytest.raises(TrickcoreError, match="seat"):
        m.standing(seat)
    with pytest.raises(TrickcoreError, match="seat"):
        m.kept_state(seat)
    with pytest.raises(TrickcoreError, match="seat"):
        m.current.observation(seat)


def test_standing_of_a_seat_is_its_own(tysiacha):
    m = tysiacha.new_match(scores=[10, 20, 30])
    assert [m.standing(s) for s in range(3)] == [10, 20, 30]


def test_apply_after_the_match_is_over_is_an_illegal_action():
    v = _house('extends "tysiacha"\nmatch {\n  deal_limit: 1\n}\n')
    m = v.new_match(seed=4)
    play_out(m)
    assert m.is_over and m.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        m.apply("pass")


@pytest.mark.parametrize(
    "scores", [[True, False, True], [1, 2], [10**12, 0, 0], ["1", 0, 0], [1.5, 0, 0]]
)
def test_starting_scores_are_checked(tysiacha, scores):
    with pytest.raises(TrickcoreError, match="scores"):
        tysiacha.new_match(scores=scores)


def test_numbers_leaving_the_range_stop_the_match_naming_the_rule():
    """A kept number squared after every deal: the match stops with a RulesError naming the
    rule and its line, and the failing deal changes no score (all seats or none)."""
    v = _house(
        'extends "tysiacha"\n'
        "match {\n  keep: on_barrel no, barrel_deals 0, big 1000\n}\n"
        "after_deal {\n  rule sq: big = big * big\n}\n"
    )
    m = v.new_match(seed=6)
    scores_before = None
    with pytest.raises(RulesError) as info:
        for _ in range(20):
            scores_before = list(m.scores)
            play_out(m)
    err = info.value
    assert "after_deal rule 'sq'" in err.message and "range" in err.message
    assert err.location is not None and err.location.line == 6
    assert m.is_over and m.stopped and m.scores == scores_before
    assert m.kept_state(0)["big"] == 1000**2  # 1000 -> 10**6; 10**12 is refused
    with pytest.raises(IllegalActionError):
        m.apply("pass")


def test_starting_from_stored_kept_values_is_checked(tysiacha):
    with pytest.raises(TrickcoreError, match="barrel_deals"):
        tysiacha.new_match(kept=[{"barrel_deals": True}, {}, {}])
    with pytest.raises(TrickcoreError, match="kept state"):
        tysiacha.new_match(kept=[{"on_barrel": 1}, {}, {}])


# ---------------------------------------------------------------- redeals (S5, T22, S17)
def _redeal_order(v: trickcore.Variant) -> list[str]:
    """Forehand (seat 1, dealer 0) holds three 9s: he may demand a redeal (S5)."""
    return v.stack_deck({1: ["9H", "9S", "9G"]}, dealer=0)


def test_a_redealt_deal_is_not_a_played_deal(schnapsen):
    """T22/S17 count played deals: a redeal (S5) does not bring the deal limit closer."""
    v = trickcore.variant_from_text(
        'extends "russisch-schnapsen"\nmatch {\n  deal_limit: 1\n}\n', "house"
    )
    order = _redeal_order(v)
    m = v.new_match(deck_orders=[order, order], seed=1)
    m.apply("redeal")
    assert not m.is_over and m.redeals == 1 and m.deals_played == 0
    assert m.deals_dealt == 2  # the redealt deal and the new one
    play_out(m, lambda state, legal: "keep" if "keep" in legal else legal[0])
    assert m.is_over and m.deals_played == 1 and m.redeals == 1


def test_redeals_are_bounded_separately():
    """redeal_limit: after more redeals than that the match ends, so every match ends."""
    v = trickcore.variant_from_text(
        'extends "russisch-schnapsen"\nmatch {\n  redeal_limit: 2\n}\n', "house"
    )
    order = _redeal_order(v)
    m = v.new_match(deck_orders=[order] * 4, seed=1)
    for n in range(1, 4):
        assert "redeal" in texts(m.legal_actions())
        m.apply("redeal")
        assert m.redeals == n
    assert m.is_over and m.deals_played == 0
    assert sorted(m.winners) == [0, 1, 2, 3][: m.seats]  # nobody scored: all share


# ---------------------------------------------------------------- match state in deal rules
def test_the_opening_may_depend_on_the_deal_number():
    """A house rule: from the second played deal on, the opening bid is at least 120."""
    v = _house(
        'extends "tysiacha"\nbidding {\n  opening = if deal_number >= 2 then 120 else 100\n}\n'
    )
    m = v.new_match(seed=8)
    assert texts(m.legal_actions())[0] == "bid 100"
    play_out(m)
    assert m.deals_played == 1
    assert texts(m.legal_actions())[0] == "bid 120"


def test_bid_caps_may_read_the_bidders_kept_values():
    """A house rule: a player on the barrel may bid 40 more than T9 allows."""
    v = _house(
        'extends "tysiacha"\n'
        "bidding {\n  cap = 120 + melds_in_hand + (if on_barrel then 40 else 0)\n}\n"
    )
    order = v.stack_deck({1: ["9S", "9C", "9D", "9H", "JS", "JC", "JD"]}, dealer=0)
    plain = v.new_match(deck_orders=[order])
    barrel = v.new_match(deck_orders=[order], kept=[{}, {"on_barrel": True}, {}])
    assert texts(plain.legal_actions())[-1] == "bid 120"  # no marriage: T9's cap
    assert texts(barrel.legal_actions())[-1] == "bid 160"


def test_a_kept_name_is_read_as_the_deal_began():
    v = _house(
        'extends "tysiacha"\n'
        "match {\n  keep: on_barrel no, barrel_deals 0, bonus 0\n}\n"
        "scoring {\n  defender = round(deal_points, 5) + bonus\n}\n"
    )
    m = v.new_match(seed=3, kept=[{"bonus": 7}, {"bonus": 7}, {"bonus": 7}])
    play_out(m)
    result = m.deal_results[-1]
    declarer = result["declarer"]
    for seat in range(3):
        if seat != declarer:
            points = result["card_points"][seat]
            assert result["gains"][seat] == v.deal_score(False, card_points=points) + 7


@pytest.mark.parametrize(
    "call",
    [
        lambda v: v.stack_deck({1.5: []}),
        lambda v: v.stack_deck({1: "AS"}),
        lambda v: v.stack_deck({1: ["AS"]}, talon=None),
        lambda v: v.stack_deck({1: [None]}),
        lambda v: v.stack_deck({1: ["AS"]}, dealer=7),
        lambda v: v.stack_deck({1: ["AS"]}, dealer=None),
        lambda v: v.new_deal(seed=1.5),
        lambda v: v.new_deal(dealer=None),
        lambda v: v.new_deal(dealer=True),
        lambda v: v.new_deal(deck_order="AS KS"),
        lambda v: v.new_deal(deck_order=[0] * 10_000),
        lambda v: v.new_deal(deck_order=[10**9] * 24),
        lambda v: v.new_deal(players=True),
        lambda v: v.new_match(seed="7"),
        lambda v: v.new_match(deck_orders="AS"),
        lambda v: v.new_match(dealer=None),
        lambda v: v.deal_score(True, card_points="84"),
        lambda v: v.deal_score(True, card_points=10**12),
        lambda v: v.deal_score(True, qualifier=None),
        lambda v: v.deal_score(True, on_barrel=3),
    ],
)
def test_bad_arguments_to_the_variant_are_library_errors(tysiacha, call):
    with pytest.raises(TrickcoreError):
        call(tysiacha)


@pytest.mark.parametrize(
    "call",
    [
        lambda v: v.new_match(players=3.0),
        lambda v: v.new_match(players="3"),
        lambda v: v.new_match(scores=iter([0, 0, 0])),
        lambda v: v.new_match(kept=iter([{}, {}, {}])),
        lambda v: v.new_match(seed=10**100),
        lambda v: v.deal_score(5),
    ],
)
def test_more_bad_arguments_are_library_errors(tysiacha, call):
    with pytest.raises(TrickcoreError):
        call(tysiacha)


def test_a_bout_limit_that_breaks_mid_deal_stops_the_match_cleanly():
    """The limit allows fewer cards each bout and reaches 0 in a later bout: the action that
    ended the bout is recorded, the match stops, and nothing more can be done."""
    v = _house('extends "durak"\nbouts {\n  limit = min(6, defender_cards) - bout_number + 1\n}\n')
    m = v.new_match(seed=0, players=3)
    with pytest.raises(RulesError, match="bout limit"):
        for _ in range(5000):
            m.apply(m.legal_actions()[0])
    assert m.is_over and m.stopped and "bout limit" in m.stopped
    assert len(m.history) == len(m.current.history)  # the match and the deal agree
    assert m.legal_actions() == [] and m.current.legal_actions() == []
    with pytest.raises(IllegalActionError):
        m.apply("take")


def test_every_scoring_definition_stays_in_range():
    """Definitions that square a number each time: the deal stops at the first out of range,
    long before the numbers could grow without bound."""
    chain = "\n".join(f"  d{i} = d{i - 1} * d{i - 1}" for i in range(1, 40))
    v = _house(
        f'extends "tysiacha"\nscoring {{\n  d0 = card_points + 999999\n{chain}\n'
        "  defender = round(deal_points, 5) + 0 * d39\n}\n"
    )
    m = v.new_match(seed=1)
    with pytest.raises(RulesError, match="scoring definition 'd1'"):
        play_out(m)
    assert m.is_over and m.stopped
    with pytest.raises(RulesError, match="scoring definition"):
        v.deal_score(False, card_points=10)


@pytest.mark.parametrize(
    "call",
    [
        lambda v: v.new_match(seed=1).observation(10**5000),
        lambda v: v.new_match(seed=1).standing(10**5000),
        lambda v: v.new_deal(dealer=10**5000),
        lambda v: v.new_match(players=10**5000),
        lambda v: v.new_match(seed=10**5000),
        lambda v: v.deal_score(True, tricks_won=10**5000),
    ],
)
def test_huge_numbers_in_arguments_give_short_messages(tysiacha, call):
    with pytest.raises(TrickcoreError) as info:
        call(tysiacha)
    assert len(str(info.value)) < 300
