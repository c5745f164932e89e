"""Shared helpers for the test suite: real variants, scripted play."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

import pytest
from hypothesis import HealthCheck, settings

import trickcore

settings.register_profile(
    "ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def tysiacha() -> trickcore.Variant:
    return trickcore.load_variant("tysiacha")


@pytest.fixture(scope="session")
def schnapsen() -> trickcore.Variant:
    return trickcore.load_variant("russisch-schnapsen")


def texts(actions: Iterable[trickcore.Action]) -> list[str]:
    return [str(a) for a in actions]


def run(state, actions: Iterable[str]) -> None:
    """Apply scripted actions (texts) to a deal or match."""
    for a in actions:
        state.apply(a)


def play_out(state, choose: Callable[[object, list[str]], str] | None = None) -> None:
    """Finish the current deal: `choose(state, legal_texts)` or the first legal action."""
    start = state.current if isinstance(state, trickcore.Match) else state
    while not start.is_over:
        legal = texts(start.legal_actions())
        state.apply(choose(state, legal) if choose else legal[0])
