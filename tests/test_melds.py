"""Melds that are not ranks of one suit: one rank in every suit (`suits: all`) and a fixed
set of cards (`cards: QS, JD`), declared by leading or announced, through the public API."""

from __future__ import annotations

import pytest

import trickcore

ACES = """
extends "tysiacha"
name: "Tysiacha with the ace marriage"
meld aces {
  cards: A
  suits: all
  value: 200
  declare_if = tricks_won >= 1
}
"""

BINOCLE = """
extends "sixty-six"
name: "Sixty-six with the binocle"
meld binocle {
  cards: QS, JD
  value: 40
  announce: yes
}
"""


def test_four_aces_are_one_meld_declared_by_leading_an_ace():
    """The declarer holding all four aces, after winning a trick, leads one with `marry`: the
    meld (200, no suit) is declared and no trump is set by it."""
    v = trickcore.variant_from_text(ACES, "aces")
    hands = {1: ["AS", "AC", "AD", "AH", "10S", "KS", "QS"]}
    d = v.new_deal(v.stack_deck(hands, talon=["9S", "9C", "9D"]), dealer=0)
    d.apply("bid 100")
    d.apply("pass")
    d.apply("pass")
    d.apply("give 9S to 2")
    d.apply("give 9C to 0")
    d.apply("keep contract")
    assert "marry AS" not in [a.text for a in d.legal_actions()]  # no trick won yet
    d.apply("play 10S")
    while d.trick:
        d.apply(d.legal_actions()[0])
    assert d.tricks_won[1] == 1
    assert "marry AH" in [a.text for a in d.legal_actions()]
    d.apply("marry AH")
    decl = d.observation(0).declarations[-1]
    assert decl == (1, "aces", "", 200)
    assert d.observation(0).trump is None


def test_a_meld_of_fixed_cards_is_announced_and_one_of_its_cards_led():
    """The binocle (QS + JD) is announced without a suit, then QS or JD must be led."""
    v = trickcore.variant_from_text(BINOCLE, "binocle")
    rest = [c for c in v.stack_deck({}) if c not in {"QS", "JD", "9C", "9H", "AC", "AH", "KD"}]
    order = ["QS", "JD", "9C"] + rest[:3] + ["9H", "AC", "AH"] + rest[3:6] + ["KD"] + rest[6:]
    d = v.new_deal(order, dealer=0)
    legal = [a.text for a in d.legal_actions()]
    assert "announce binocle" in legal
    d.apply("announce binocle")
    assert sorted(a.text for a in d.legal_actions()) == ["play JD", "play QS"]
    assert d.observation(0).declarations == ((1, "binocle", "", 40),)


@pytest.mark.parametrize(
    "meld, message",
    [
        ("cards: A\n  suits: all\n  value: spades 1, clubs 2, diamonds 3, hearts 4", "one value"),
        ("cards: QS, QS\n  value: 10", "named twice"),
        ("cards: A\n  suits: all\n  value: 10\n  sets_trump: yes", "needs a meld of one suit"),
        ("cards: AS, KS\n  value: 10\n  trump_value: 20", "needs a meld of one suit"),
        ("cards: AS\n  suits: all\n  value: 10", "'AS' is not a rank"),
    ],
)
def test_meld_sets_are_checked(meld, message):
    text = f'extends "tysiacha"\nmeld odd {{\n  {meld}\n}}\n'
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text(text, "odd")
    assert message in info.value.message
