"""Rook (`examples/rook.rules`), written by a newcomer from the README and the language
reference alone (issue 28: a game of the family that is not shipped): the Rook bird card is
a card outside the four colours, a fifth suit holding one card; it is the highest trump and
may be played at any time, even by a player who can follow."""

from __future__ import annotations

from pathlib import Path

from conftest import texts

import trickcore
from trickcore.testing import check_rules

ROOK = Path(__file__).resolve().parent.parent / "examples" / "rook.rules"


def test_the_deck_is_41_cards_with_one_bird() -> None:
    """Ten cards of each colour (14 down to 5) and the Rook: 41 cards, 9 to each player and
    5 to the nest."""
    v = trickcore.load_variant(ROOK)
    cards = [v.card_text(c) for c in range(v.model.deck.size)]
    assert len(cards) == 41 and [c for c in cards if c.endswith("X")] == ["RX"]
    for colour in "BRYG":
        assert sorted(c[:-1] for c in cards if c.endswith(colour)) == sorted(
            ["14", "13", "12", "11", "10", "9", "8", "7", "6", "5"]
        )
    m = v.new_match(seed=0)
    assert all(len(m.observation(s).hand) == 9 for s in range(4))


def test_the_rook_is_free_to_play_and_wins_as_the_highest_trump() -> None:
    """Seat 1 leads the red 14 (red is trump); seat 2 holds a red card and the Rook: he may
    follow or play the Rook, which takes the trick over the red 14."""
    v = trickcore.load_variant(ROOK)
    hands = {
        1: ["14R", "13B", "12B", "11B", "10B", "9B", "8B", "7B", "6B"],
        2: ["5R", "RX", "14B", "5B", "14Y", "13Y", "12Y", "11Y", "10Y"],
        3: ["13R", "9Y", "8Y", "7Y", "6Y", "5Y", "14G", "13G", "12G"],
        0: ["12R", "11G", "10G", "9G", "8G", "7G", "6G", "5G", "11R"],
    }
    m = v.new_match(deck_orders=[v.stack_deck(hands, talon=["10R", "9R", "8R", "7R", "6R"])])
    m.apply("bid 70")
    for _ in range(3):
        m.apply("pass")
    for card in ("10R", "9R", "8R", "7R", "6R"):  # the bidder lays the nest away again
        m.apply(f"discard {card}")
    m.apply("red_t")
    m.apply("play 14R")
    assert sorted(texts(m.legal_actions())) == ["play 5R", "play RX"]
    m.apply("play RX")
    m.apply("play 13R")
    m.apply("play 12R")
    assert m.observation(0).tricks[0][2] == 2


def test_the_file_keeps_every_invariant() -> None:
    check_rules(ROOK, examples=15, matches=1)
