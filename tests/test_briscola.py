"""Briscola (examples/briscola.rules), a game trickcore does not ship, written from its
usual rules with the stock, the turned-up card and the draw of Sixty-six's family and no
duty to follow (`follow: no`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import found

import trickcore

BRISCOLA = Path(__file__).resolve().parent.parent / "examples" / "briscola.rules"


@pytest.fixture(scope="module")
def briscola() -> trickcore.Variant:
    return trickcore.load_variant(BRISCOLA)


def test_forty_cards_worth_120_three_each_and_the_briscola_turned_up(briscola) -> None:
    assert briscola.model.deck.size == 40 and briscola.model.deck.total_points == 120
    deal = briscola.new_deal(seed=2, dealer=0)
    seen = deal.observation(1)
    assert len(seen.hand) == 3 and seen.stock_size == 34  # 33 face down and the briscola
    assert seen.trump is not None and seen.turned_up is not None
    assert deal.to_act == 1  # the non-dealer leads


def test_any_card_may_be_played_and_the_highest_of_the_suit_led_or_a_trump_wins(
    briscola,
) -> None:
    """Coins are trumps (7O turned up). Seat 1 leads KP; seat 0 may play any of his cards:
    AP wins the trick (15 points), 2E does not, 4O (a trump) does."""
    winners = {}
    for answer in ("AP", "2E", "4O"):
        order = briscola.stack_deck(
            {1: ["KP", "5E", "6B"], 0: ["AP", "2E", "4O"]}, dealer=0, turnup="7O"
        )
        deal = briscola.new_deal(deck_order=order, dealer=0)
        deal.apply("play KP")
        assert sorted(a.text for a in deal.legal_actions()) == ["play 2E", "play 4O", "play AP"]
        deal.apply(f"play {answer}")
        o = deal.observation(0)
        winners[answer] = o.tricks[0][2]
        # the winner drew first: both hold 3 cards again, the stock 2 fewer
        assert [len(deal.observation(s).hand) for s in (0, 1)] == [3, 3]
        assert o.stock_size == 32 and deal.to_act == winners[answer]
    assert winners == {"AP": 0, "2E": 1, "4O": 0}


def test_the_briscola_is_drawn_last_and_the_last_tricks_come_from_the_hand(briscola) -> None:
    deal = briscola.new_deal(seed=5, dealer=0)
    turned = deal.observation(0).turned_up
    rng = random.Random(5)
    while deal.observation(0).stock_size > 0:
        deal.apply(rng.choice(deal.legal_actions()))
    held = [s for s in (0, 1) if turned in deal.observation(s).hand]
    assert len(held) == 1 and len(deal.observation(0).tricks) == 17
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    assert len(deal.observation(0).tricks) == 20


def test_61_points_win_the_deal_and_60_each_win_nothing(briscola) -> None:
    seen = set()
    for seed in range(200):
        deal = briscola.new_deal(seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        o = deal.observation(0)
        points = o.card_points_taken
        assert sum(points) == 120
        assert list(o.gains) == [1 if p >= 61 else 0 for p in points]
        seen.add(tuple(o.gains))
        if seen == {(1, 0), (0, 1), (0, 0)}:
            return
    assert seen >= {(1, 0), (0, 1)}  # a 60-60 deal is rare: not always met


def test_the_file_keeps_every_invariant() -> None:
    assert found(BRISCOLA, examples=10) is None
