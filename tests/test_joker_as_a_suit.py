"""A card outside the suits, written as a suit of its own (examples/euchre-joker.rules: the
joker, the "Benny", above both bowers): it is a trump in every deal, it beats the right
bower, a player who holds it must play it to a trump lead when he holds no other trump, no
bid names its suit, and the file keeps every invariant under verify. The same in a game of
bouts (examples/durak-joker.rules: D8's beating rule replaced by `beats`): the joker beats
any card, the highest trump too, nothing beats it, and turned up it lets nobody swap (D12)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import texts

import trickcore
from trickcore.testing import check_rules

JOKER = Path(__file__).resolve().parent.parent / "examples" / "euchre-joker.rules"
DURAK_JOKER = JOKER.parent / "durak-joker.rules"


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


def defender_answers(
    durak: trickcore.Variant, attacker: list[str], defender: list[str]
) -> list[str]:
    """Dealer 0, hearts trump: seat 1 attacks with his first card, nobody throws in (D6);
    what the defender, seat 0, may answer."""
    order = durak.stack_deck({1: attacker, 0: defender}, dealer=0, turnup="7H")
    m = durak.new_match(deck_orders=[order], players=2)
    m.apply(f"attack {attacker[0]}")
    while m.to_act == 1:
        m.apply("done")
    return texts(m.legal_actions())


def test_in_durak_the_joker_beats_any_card_and_nothing_beats_it() -> None:
    durak = trickcore.load_variant(DURAK_JOKER)
    assert durak.model.deck.size == 33
    clubs, diamonds = ["8C", "9C", "10C", "JC", "QC"], ["8D", "9D", "10D", "JD", "QD"]
    # the ace of trumps attacked: the joker beats it, a lower trump does not (D8)
    answers = defender_answers(durak, ["AH", *clubs], ["AX", "KH", *diamonds[:4]])
    assert "beat AH with AX" in answers and "beat AH with KH" not in answers
    # attacked with the joker, the defender holding the ace of trumps can only take
    answers = defender_answers(durak, ["AX", *clubs], ["AH", "KH", *diamonds[:4]])
    assert answers == ["take"]


def test_in_durak_a_joker_turned_up_leaves_nothing_to_swap() -> None:
    durak = trickcore.load_variant(DURAK_JOKER)
    for turnup, swaps in (("AX", False), ("AS", True)):
        order = durak.stack_deck({1: ["7S", "8C"]}, dealer=0, turnup=turnup)
        m = durak.new_match(deck_orders=[order], players=2)
        assert ("swap 7S" in texts(m.legal_actions())) is swaps


def test_durak_with_a_joker_keeps_every_invariant() -> None:
    check_rules(DURAK_JOKER, examples=20, matches=0)
