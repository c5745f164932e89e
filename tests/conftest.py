"""Shared helpers for the test suite: real variants, scripted play."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import trickcore
from trickcore.checking.verify import verify
from trickcore.language.compiler import forget_compiled
from trickcore.testing import check_rules

settings.register_profile(  # the same examples on every run: CI never flakes
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)


def sweep(name: str, full: int, quick: int) -> int:
    """The work (examples, deals, simulations) a test sweeping every shipped variant gives
    `name`: `full` for a game's own file, and for every file in the thorough profile; `quick`
    for a house-rule file (one extending another) in the ci profile: its rules are mostly
    its parent's, which the sweep runs in full, and the rule it changes has its own tests."""
    if PROFILE != "ci" or len(trickcore.load_variant(name).model.source_files) == 1:
        return full
    return quick


# `python -m native test` runs this suite against the compiled engine: make sure it does
_EXPECTED = os.environ.get("TRICKCORE_EXPECT_ENGINE")
if _EXPECTED and _EXPECTED != trickcore.ENGINE:
    raise RuntimeError(f"expected the {_EXPECTED} engine, got {trickcore.ENGINE}")


def _compiled(target: Any) -> bool:
    """Whether a monkeypatch target (a module, a class or a dotted name) is compiled code."""
    if isinstance(target, str):
        target = sys.modules.get(target.rpartition(".")[0])
    module = (
        sys.modules.get(getattr(target, "__module__", "")) if isinstance(target, type) else target
    )
    return not str(getattr(module, "__file__", None) or ".py").endswith(".py")


@pytest.fixture
def monkeypatch(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """pytest's monkeypatch, except that a test planting a fault in compiled engine code (a
    native build) is skipped: compiled code calls its functions directly."""
    setattr_ = monkeypatch.setattr

    def checked(target: Any, *args: Any, **kwargs: Any) -> None:
        if trickcore.ENGINE == "native" and _compiled(target):
            pytest.skip("plants a fault in engine code, which the compiled engine cannot take")
        setattr_(target, *args, **kwargs)

    monkeypatch.setattr = checked  # type: ignore[method-assign]
    return monkeypatch


@pytest.fixture(scope="session")
def tysiacha() -> trickcore.Variant:
    return trickcore.load_variant("tysiacha")


@pytest.fixture(scope="session")
def schnapsen() -> trickcore.Variant:
    return trickcore.load_variant("russisch-schnapsen")


def refused_at(text: str, line: int | None, words: str) -> trickcore.RulesError:
    """Compiling `text` (as the file "house") fails with an error saying `words`, placed in
    that file at `line` (anywhere when None)."""
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text(text, "house")
    err = info.value
    assert words in str(err)
    assert err.location is not None
    if line is not None:
        assert (err.location.file, err.location.line) == ("house", line), err
    return err


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


def random_deal(variant: trickcore.Variant, seed: int) -> tuple[dict[int, tuple[str, ...]], Any]:
    """The first deal of a seeded match played out by seeded random choices: each seat's
    hand as trick play began, and the last observation for seat 0."""
    deal = variant.new_match(seed=seed).current
    rng = random.Random(seed)
    hands: dict[int, tuple[str, ...]] = {}
    while not deal.is_over:
        if not hands and deal.observation(deal.to_act).phase == "play":
            hands = {s: deal.observation(s).hand for s in deal.observation(0).players_in_deal}
        deal.apply(rng.choice(deal.legal_actions()))
    return hands, deal.observation(0)


def found(variant: str | Path, examples: int = 30, thorough: bool | None = None) -> str | None:
    """The invariant verify reports for a variant (random runs only; `thorough`: every deal
    checked at every step), or None. Models compiled before are forgotten: a test may have
    planted a fault in the compiler."""
    forget_compiled()
    report = verify(variant, examples=examples, matches=0, thorough=thorough)
    assert not report.static_errors
    return None if report.violation is None else report.violation.invariant


def house_rule(tmp_path: Path, name: str, text: str) -> Path:
    """A house-rule file extending a shipped variant, checked clean by the unbroken engine."""
    path = tmp_path / f"{name}.rules"
    path.write_text(text)
    check_rules(path, examples=10, matches=0)
    return path
