"""`combination NAME` blocks (issue 28, kind 3): patterns of cards in one hand, worth points
and compared across the table, for any trick game. Belote's declarations (BL27-BL34) ship
with them (tests/test_rules_belote.py); here a Whist house rule pays a bonus for a run of
five and for four of a kind, and every misuse is a RulesError at its place."""

from __future__ import annotations

import random

import pytest
from conftest import refused_at

import trickcore
from trickcore.interfaces.summary import rules_summary
from trickcore.testing import check_rules

# a house rule on Whist's deal: each player scores 5 for each run of 5 or more cards of a
# suit and 10 for four of a kind (not of 2s), as play began
WHIST_BONUS = """extends "whist"
name: "Whist paying for combinations"
combination run {
  run: 5
  value = 5
}
combination four {
  same_rank: 4
  value = if card_rank(2) then 0 else 10
  strength = value + 14 - top
}
scoring {
  player = combination_points
}
"""


def test_a_bonus_for_the_combinations_of_the_hand_as_play_began(tmp_path):
    v = trickcore.variant_from_text(WHIST_BONUS, "house")
    hands = {  # seat 1: four aces and a run 10-9-8-7-6 of hearts; seat 2: four 2s
        1: ["AS", "AH", "AD", "AC", "10H", "9H", "8H", "7H", "6H", "KS", "QD", "3C", "5S"],
        2: ["2S", "2H", "2D", "2C", "3S", "4S", "3H", "4H", "3D", "4D", "5D", "7S", "JD"],
    }
    m = v.new_match(deck_orders=[v.stack_deck(hands, dealer=0)], dealer=0)
    rng = random.Random(0)
    while not m.deal_results:
        m.apply(rng.choice(m.legal_actions()))
    gains = m.deal_results[0]["gains"]
    assert gains[1] == 10 + 5  # four aces and one run (the AH is not next to the 10H)
    assert gains[2] == 0  # four 2s are worth 0: no combination; runs of 3 and 4 are short
    path = tmp_path / "house.rules"
    path.write_text(WHIST_BONUS, encoding="utf-8")
    check_rules(path, examples=25, matches=1)


def test_show_describes_them():
    sections = rules_summary(trickcore.variant_from_text(WHIST_BONUS, "house").model)
    text = "\n".join(line for _, lines in sections for line in lines)
    assert "Run: 5 or more cards of one suit in a row" in text
    assert "Four: 4 or more cards of one rank" in text


@pytest.mark.parametrize(
    ("block", "line", "words"),
    [
        ("run: 3\n  same_rank: 4\n  value = 1", 4, "either"),
        ("run: 14\n  value = 1", 3, "more cards than there are"),
        ("same_rank: 5\n  value = 1", 3, "more cards than there are"),
        ("run: 3\n  order: A, K, A\n  value = 1", 4, "named twice"),
        ("run: 3\n  order: A, Z\n  value = 1", 4, "unknown rank"),
        ("run: 3\n  value = value + 1", 4, "unknown name 'value'"),
        ("run: 3\n  value = 5\n  strength = top - 3", 5, "strength must be from 1"),
    ],
)
def test_a_misused_combination_is_refused_where_it_stands(block, line, words):
    refused_at(f'extends "whist"\ncombination x {{\n  {block}\n}}\n', line, words)
