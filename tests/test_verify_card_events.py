"""`after_card` (rules run after each card played to a trick, over that card and each
player's hand then) is restated by the checker: house rules that use it keep every invariant,
an engine that skips the rules or reads the hand before the card left it is caught, and a
rule that tells the table what a hand holds is an announcement, not a leak (docs: docs/language.md,
"after_card"; BL25 in docs/rules/belote.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import found

import trickcore.engine.phases.trick_events
import trickcore.engine.phases.tricks
from trickcore.testing import check_rules

HOUSE = Path(__file__).parent / "house_rules"
BROKEN_BY = HOUSE / "hearts-broken-by.rules"  # who broke hearts, led the queen, held aces


@pytest.mark.parametrize("rules", [BROKEN_BY, "belote"], ids=str)
def test_rules_after_each_card_keep_every_invariant(rules):
    """Hearts where the table says who broke hearts and who held both red aces, and Belote's
    belote and rebelote (BL25): every invariant holds, none refused as "not restated"."""
    check_rules(rules, examples=20, matches=0)


def test_after_card_rules_not_run_is_caught(monkeypatch):
    """The values `after_card` sets are shown to all as deal values; an engine that never
    runs the rules is caught by the view."""
    monkeypatch.setattr(trickcore.engine.phases.tricks, "run_after_card", lambda *args: None)
    assert found(BROKEN_BY, examples=10) == "view"


def test_after_card_rules_over_the_hand_before_the_card_are_caught(monkeypatch):
    """The rules read the player's hand as it is once the card has left it: an engine that
    gives them the hand with the card still in it never says "hearts gone" when a player plays
    his last heart, and is caught."""
    real = trickcore.engine.phases.trick_events.run_after_card

    def with_card_in_hand(game, deal, rules, seat, card, *flags):
        deal.hands[seat].append(card)
        try:
            return real(game, deal, rules, seat, card, *flags)
        finally:
            deal.hands[seat].remove(card)

    monkeypatch.setattr(trickcore.engine.phases.tricks, "run_after_card", with_card_in_hand)
    assert found(BROKEN_BY, examples=10) == "view"
