"""Deck orders from a seed (C2): the engine's shuffle is `random.Random.shuffle`, card for
card, so a seed deals what it always dealt, and a match's generator ends in the same state."""

from __future__ import annotations

import random

import pytest

import trickcore
from trickcore.engine.shuffling import seeded_order, shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 20, 24, 32, 36, 52, 53, 128])
def test_the_shuffle_is_the_standard_one_card_for_card(size):
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b, (seed, size)
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("size", [0, 1, 24, 52])
def test_a_seeded_order_is_what_random_random_of_the_seed_shuffles(size):
    """`seeded_order` builds the generator without `random.Random`'s Python-level seeding:
    every whole-number seed a deal accepts (negative, zero, up to 12 digits) gives the same
    order."""
    seeds = [*range(-50, 250), 2**32 - 1, 2**32, 2**40 + 7, 10**12 - 1, -(10**12) + 1]
    for seed in seeds:
        order = list(range(size))
        random.Random(seed).shuffle(order)
        assert seeded_order(size, seed) == order, (seed, size)


def test_a_seeded_deal_and_a_seeded_match_deal_the_standard_shuffle():
    """`new_deal(seed=...)` and every deal of `new_match(seed=...)` hold the cards that
    `random.Random` shuffles: the deck orders any earlier release dealt."""
    v = trickcore.load_variant("tysiacha")
    for seed in (0, 7, 123456789):
        order = list(range(v.model.deck.size))
        random.Random(seed).shuffle(order)
        assert v.new_deal(seed=seed).deck_order == order
    m = v.new_match(seed=11)
    rng = random.Random(11)
    for _ in range(3):
        order = list(range(v.model.deck.size))
        rng.shuffle(order)
        assert m.current.deck_order == order
        while m.current.deck_order == order:  # play the deal out: the next one is dealt
            m.apply(m.legal_actions()[0])
