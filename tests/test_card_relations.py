"""Card relations as expressions (`play.trump_power`, `play.power`): which cards are trumps,
how they rank, and what following suit means then. Played through the public API on a
house rule of Sixty-six in which the four jacks are the highest trumps (as in Skat, K10)."""

from __future__ import annotations

import pytest

import trickcore

POWER = (
    "if card_rank(J) then 20 - suit_index else if card_in_trump_suit then 10 - rank_index else 0"
)
JACKS = f"""
extends "sixty-six"
name: "Sixty-six with jacks as trumps"
play {{
  trump_power = {POWER}
  follow: yes
}}
remove decision.exchange
"""

NULL_ORDER = """
extends "hearts"
name: "Hearts with the ten between jack and nine"
play {
  power = if card_rank(10) then 1 else 20 - rank_index
}
"""


@pytest.fixture(scope="module")
def jacks() -> trickcore.Variant:
    return trickcore.variant_from_text(JACKS, "jacks")


def deal_with(v: trickcore.Variant, forehand: list[str], dealer_hand: list[str], turnup: str):
    """A deal (dealer 0, forehand 1) with these hands and trump card (X6 positions)."""
    rest = [c for c in v.stack_deck({}) if c not in {*forehand, *dealer_hand, turnup}]
    order = forehand[:3] + dealer_hand[:3] + forehand[3:] + dealer_hand[3:] + [turnup] + rest
    return v.new_deal(order, dealer=0)


def test_a_jack_is_a_trump_and_not_a_card_of_its_printed_suit(jacks):
    """Hearts trump: a led JC must be answered with a trump (a heart or a jack), and a led
    club is not followed by the JC."""
    d = deal_with(
        jacks, ["JC", "AC", "9S", "KS", "QS", "JS"], ["10C", "AH", "9D", "KD", "JD", "QD"], "KH"
    )
    assert d.observation(1).trump == "hearts"
    d.apply("play JC")
    assert sorted(a.text for a in d.legal_actions()) == ["play AH", "play JD"]
    d.apply("play AH")
    assert d.tricks_won == [0, 1]  # the JC beats the ace of trumps


def test_jacks_beat_each_other_in_suit_order_and_a_led_suit_excludes_its_jack(jacks):
    """JD (the lowest jack) still beats the ace of trumps; a club lead is followed with clubs
    only, the JC being a trump."""
    d = deal_with(
        jacks, ["AC", "JS", "9S", "KS", "QS", "JH"], ["10C", "JC", "AH", "KD", "JD", "QD"], "KH"
    )
    d.apply("play AC")
    assert [a.text for a in d.legal_actions()] == ["play 10C"]
    d.apply("play 10C")
    d.apply("play JS")  # forehand won the ace of clubs trick and leads a jack
    assert sorted(a.text for a in d.legal_actions()) == ["play AH", "play JC", "play JD"]
    d.apply("play JD")
    assert d.tricks_won == [0, 2]  # JS (power 19) beats JD (17)


def test_power_sets_a_second_rank_order():
    """With `power`, the 10 ranks below the 2: of 2C, 10C, 3C and 4C the 4C wins."""
    text = NULL_ORDER + "pass_cards {\n  to = 0\n}\n"  # a hold hand: no passing
    v = trickcore.variant_from_text(text, "ten-low")
    high = ["AC", "KC", "QC", "JC", "9C", "8C", "7C", "6C", "5C"]
    order = v.stack_deck({1: ["2C", *high], 2: ["10C"], 3: ["3C"], 0: ["4C"]}, dealer=0)
    d = v.new_deal(order, dealer=0)
    for card in ("2C", "10C", "3C", "4C"):
        assert [a.text for a in d.legal_actions()] == [f"play {card}"]
        d.apply(f"play {card}")
    assert d.tricks[0].winner == 0
    plain = trickcore.load_variant("hearts")
    assert plain.relations(-1)[1][plain.card("10C")] > plain.relations(-1)[1][plain.card("4C")]


def test_a_relation_out_of_range_is_refused_where_it_is_written():
    text = 'extends "hearts"\nplay {\n  power = 999999999 * (rank_index + 1)\n}\n'
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text(text, "huge")
    assert info.value.location.line == 3 and "power gives a number outside" in info.value.message
