"""A card outside the suits, written as a suit of its own (examples/euchre-joker.rules: the
joker, the "Benny", above both bowers): it is a trump in every deal, it beats the right
bower, a player who holds it must play it to a trump lead when he holds no other trump, no
bid names its suit, and the file keeps every invariant under verify."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import texts

import trickcore
from trickcore.testing import check_rules

JOKER = Path(__file__).resolve().parent.parent / "examples" / "euchre-joker.rules"


@pytest.fixture(scope="module")
def benny() -> trickcore.Variant:
    return trickcore.load_variant(JOKER)


def hearts_ordered(benny: trickcore.Variant, hands: dict[int, list[str]]) -> trickcore.Match:
    """Dealer 0, hearts turned up and ordered up by seat 1; the dealer's discard made."""
    m = benny.new_match(deck_orders=[benny.stack_deck(hands, dealer=0, turnup="9H")])
    m.apply("bid hearts")
    m.apply(texts(m.legal_actions())[0])  # the dealer's discard (E12)
    return m


def test_the_joker_beats_the_right_bower(benny: trickcore.Variant) -> None:
    assert benny.model.deck.size == 25
    hands = {1: ["JH", "AC"], 2: ["AX", "AS"], 3: ["9D"], 0: ["KC"]}
    m = hearts_ordered(benny, hands)
    m.apply("play JH")
    # a trump led: the joker follows it (it is a trump); his spade may not be played
    legal = texts(m.legal_actions())
    assert "play AX" in legal and "play AS" not in legal
    m.apply("play AX")
    for _ in range(2):
        m.apply(texts(m.legal_actions())[0])
    assert m.observation(0).tricks[0][2] == 2


def test_no_bid_names_the_jokers_suit(benny: trickcore.Variant) -> None:
    m = benny.new_match(seed=1)
    assert not any("joker" in a for a in texts(m.legal_actions()))


def test_it_keeps_every_invariant() -> None:
    check_rules(JOKER, examples=20, matches=0)
