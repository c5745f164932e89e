"""Shuffling a deck order from a seed, exactly as `random.Random.shuffle` does."""

from __future__ import annotations

import random


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle `cards` in place, with the same result and the same state of `rng` afterwards
    as `rng.shuffle(cards)`: a Fisher-Yates shuffle drawing each index from `getrandbits`,
    rejecting draws out of range. Deck orders from a seed stay what they always were; this
    saves a method call per card (and is compiled in the native build)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
