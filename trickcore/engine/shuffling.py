"""Shuffling a deck order from a seed, exactly as `random.Random.shuffle` does."""

from __future__ import annotations

import _random


def seeded_order(size: int, seed: int | None) -> list[int]:
    """The deck order 0 .. size - 1 shuffled from `seed`, as `random.Random(seed).shuffle`
    makes it. The generator is the one `random.Random(seed)` builds on (`random.Random` adds
    only Python-level code to seed it, the same for a whole number or None), made without
    that code."""
    order = list(range(size))
    shuffle(_random.Random(seed), order)
    return order


def shuffle(rng: _random.Random, cards: list[int]) -> None:
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
