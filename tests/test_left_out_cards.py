"""A deck with single cards left out (`deck { without: ... }`) in the games that melds and
bouts make: house-rule files written as a user writes them, extending the shipped Sixty-six
(X24: a marriage announced, then one of its cards led), Russisch Schnapsen (S2: the
marriages; S8: the bid cap, the deck's points and every marriage there is) and Durak (D12:
the 7 of trumps swapped for the turned-up card). The checker restates each file under
`verify`; a deck with `copies` is still refused beside melds and bouts, with the place."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import texts

import trickcore
from trickcore.testing import check_rules

SIXTY_SIX = """extends "sixty-six"
name: "Sixty-six without the king of hearts"
deck {
  without: KH, 9C                                 # 22 cards: the stock stays even (X12)
}
"""

SCHNAPSEN = """extends "russisch-schnapsen"
name: "Russisch Schnapsen without the Herz König"
deck {
  without: KH, 9S, 9G                             # 21 cards
}
deal {
  pattern: 2 each, 3 talon, 2 each, 2 each        # six cards each
}
"""

DURAK = """extends "durak"
name: "Durak without the seven of spades"
deck {
  without: 7S                                     # 31 cards
}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_marriage_missing_a_card_left_out_is_never_announced(tmp_path: Path) -> None:
    """X24: holding KS QS the leader announces the spade marriage and must then lead one of
    its cards (the cards themselves, not the cards that would sit at their places in a full
    deck); the queen of hearts alone is no marriage, its king being out of the deck."""
    v = trickcore.load_variant(write(tmp_path, "sixty-six-without", SIXTY_SIX))
    assert v.model.deck.size == 22
    order = v.stack_deck({1: ["KS", "QS", "QH", "AC", "10C", "JD"]}, dealer=0, turnup="AD")
    m = v.new_match(deck_orders=[order])
    m.apply("play AC")  # seat 1 leads; seat 0 answers; who wins leads next
    m.apply(texts(m.legal_actions())[0])
    while m.to_act != 1:  # seat 0 won: play on until seat 1 leads again
        m.apply(texts(m.legal_actions())[0])
    legal = texts(m.legal_actions())
    assert "announce marriage S" in legal
    assert not any(t.startswith("announce marriage H") for t in legal)
    m.apply("announce marriage S")
    assert sorted(texts(m.legal_actions())) == ["play KS", "play QS"]


def test_the_bid_cap_counts_only_the_marriages_the_deck_holds(tmp_path: Path) -> None:
    """S8: cap = deck_points + all_melds. Without KH, 9S and 9G the deck holds 116 points
    and the Schelle, Grün and Eichel marriages (80 + 60 + 40): the cap is 296, so the highest
    bid in steps of 10 is 290 (the full deck's is 400)."""
    v = trickcore.load_variant(write(tmp_path, "schnapsen-without", SCHNAPSEN))
    m = v.new_match(seed=1, players=3)
    while not any(t.startswith("bid") for t in texts(m.legal_actions())):
        m.apply("keep")  # S5: nobody redeals
    m.apply("bid 90")
    bids = [t for t in texts(m.legal_actions()) if t.startswith("bid")]
    assert bids[0] == "bid 100" and bids[-1] == "bid 290"


def test_no_swap_for_a_seven_of_trumps_the_deck_leaves_out(tmp_path: Path) -> None:
    """D12: with spades turned up and 7S out of the deck nobody may swap; with hearts turned
    up the holder of 7H may."""
    v = trickcore.load_variant(write(tmp_path, "durak-without", DURAK))
    assert v.model.deck.size == 31
    for turnup, seven, swaps in (("AS", "7H", False), ("AH", "7H", True)):
        order = v.stack_deck({1: [seven, "8C"]}, dealer=0, turnup=turnup)
        m = v.new_match(deck_orders=[order], players=2)
        assert (f"swap {seven}" in texts(m.legal_actions())) is swaps


@pytest.mark.parametrize(
    ("name", "text"), [("sixty-six", SIXTY_SIX), ("schnapsen", SCHNAPSEN), ("durak", DURAK)]
)
def test_the_files_keep_every_invariant(tmp_path: Path, name: str, text: str) -> None:
    """The checker's restatement finds the marriages' cards and the 7 of trumps by their
    faces, independently of the engine (a checker reading a face as a card number had found
    the engine wrong in the Sixty-six and Durak files)."""
    check_rules(write(tmp_path, name, text), examples=15, matches=0)
