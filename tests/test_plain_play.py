"""A trick play whose turns offer only cards (no decision or announcement beside them, no
round of offers before a card) takes a shorter way to its legal actions (`PlainTrickPlay`).
It must be the same game as the general trick play: here both play the same random deals
of shipped variants side by side, and every legal list, observation and score must
agree."""

from __future__ import annotations

import random

import pytest

import trickcore
from trickcore.engine.phases.plain_tricks import PlainTrickPlay, is_plain
from trickcore.engine.phases.tricks import TrickPlay

PLAIN = [
    "hearts",
    "euchre",
    "oh-hell",
    "tysiacha",
    "spades",
    "whist",
    "russisch-schnapsen",
    "bridge",
]
GENERAL = ["skat", "sixty-six", "belote", "doppelkopf", "preferans"]


def _general_copy(name: str) -> trickcore.Variant:
    """The variant loaded afresh, its trick play replaced by the general `TrickPlay`."""
    variant = trickcore.load_variant(name)
    variant.flow[:] = [  # type: ignore[attr-defined]
        TrickPlay(variant) if isinstance(p, PlainTrickPlay) else p
        for p in variant.flow  # type: ignore[attr-defined]
    ]
    return variant


@pytest.mark.parametrize("name", PLAIN)
def test_the_plain_play_plays_as_the_general_one(name):
    """Same deals, same random choices: the same legal actions at every step, the same
    observations for every seat, the same scores."""
    plain = trickcore.load_variant(name)
    assert any(isinstance(p, PlainTrickPlay) for p in plain.flow)  # type: ignore[attr-defined]
    general = _general_copy(name)
    assert not any(isinstance(p, PlainTrickPlay) for p in general.flow)  # type: ignore[attr-defined]
    seats = plain.check_seats(None)
    for seed in range(25):
        rng = random.Random(seed)
        a = plain.new_deal(seed=seed, dealer=seed % seats)
        b = general.new_deal(seed=seed, dealer=seed % seats)
        while not a.is_over:
            legal = [x.text for x in a.legal_actions()]
            assert legal == [x.text for x in b.legal_actions()]
            text = rng.choice(legal)
            a.apply(text)
            b.apply(text)
            for s in range(seats):
                assert a.observation(s) == b.observation(s)
        assert b.is_over
        assert a.worth() == b.worth()


@pytest.mark.parametrize("name", GENERAL)
def test_a_play_with_extras_keeps_the_general_way(name):
    """Decisions or announcements at a turn, or offers before a card: the general trick
    play runs (the plain one offers cards only)."""
    variant = trickcore.load_variant(name)
    plays = [p for p in variant.flow if isinstance(p, TrickPlay)]  # type: ignore[attr-defined]
    assert plays
    assert not any(isinstance(p, PlainTrickPlay) or is_plain(p) for p in plays)
