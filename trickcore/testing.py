"""Hypothesis strategies and a one-line consistency check for your own rules files.

    # test_my_house_rule.py
    from trickcore.testing import check_rules

    def test_my_house_rule_is_consistent():
        check_rules("my-house-rule.rules")

Needs hypothesis (``pip install 'trickcore[testing]'``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from . import load_variant
from .checking.verify import verify
from .engine.game import Game
from .engine.match import Match
from .engine.saving import save_json

__all__ = ["action_choices", "check_rules", "deals", "matches", "seeds"]


def seeds() -> st.SearchStrategy[int]:
    """Seeds for new_match / new_deal."""
    return st.integers(0, 2**31 - 1)


def action_choices(max_size: int = 400) -> st.SearchStrategy[list[int]]:
    """Numbers that pick among the legal actions, one per step (they shrink well)."""
    return st.lists(st.integers(0, 2**16), max_size=max_size)


def _variant(variant: Game | str | Path) -> Game:
    return variant if isinstance(variant, Game) else load_variant(variant)


def deals(variant: Game | str | Path, players: int | None = None) -> st.SearchStrategy[Any]:
    """Freshly dealt deals of a variant, from random deck orders and dealers."""
    game = _variant(variant)
    counts = [players] if players else list(game.model.players)

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        seated = draw(st.sampled_from(counts))
        order = draw(st.permutations(range(game.model.deck.size)))
        dealer = draw(st.integers(0, seated - 1))
        return game.new_deal(order, dealer=dealer, players=seated)

    return build()


def matches(
    variant: Game | str | Path, max_actions: int = 200, players: int | None = None
) -> st.SearchStrategy[Match]:
    """Matches of a variant after a drawn number of drawn legal actions."""
    game = _variant(variant)
    counts = [players] if players else list(game.model.players)

    @st.composite
    def build(draw: st.DrawFn) -> Match:
        seed = draw(seeds())
        match = game.new_match(seed=seed, players=draw(st.sampled_from(counts)))
        for choice in draw(action_choices(max_actions)):
            if match.is_over:
                break
            legal = match.legal_actions()
            match.apply(legal[choice % len(legal)])
        return match

    return build()


def check_rules(
    variant: str | Path,
    examples: int = 100,
    matches: int = 3,
    save_counterexample: str | Path | None = None,
    thorough: bool | None = None,
) -> None:
    """Assert that a rules file is consistent: compiles, and keeps every invariant.

    On failure raises AssertionError naming the broken invariant in plain words with a
    replayable counterexample (seed, players and actions), saved as JSON if asked.
    The runs are played as `verify` plays them, in this process. `thorough` checks every
    deal of a run at every step, hidden information for every seat (see `verify`).
    """
    report = verify(variant, examples=examples, matches=matches, thorough=thorough)
    if report.static_errors:
        raise AssertionError("\n".join(str(e) for e in report.static_errors))
    v = report.violation
    if v is None:
        return
    text = (
        f"{report.variant}: invariant '{v.invariant}' broken: {v.message}\n"
        f"  seed {v.seed}, {v.players} players, after {len(v.actions)} actions: "
        + ", ".join(v.actions[-40:])
    )
    if save_counterexample is not None:
        game = load_variant(variant)
        save_json(v.saved_match(game), save_counterexample)
        text += f"\n  replay: trickcore replay {save_counterexample}"
    raise AssertionError(text)
