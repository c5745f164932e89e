"""Consistency checking of a rules file: static checks, then invariants under random play.

Used by `trickcore verify FILE` and by `trickcore.testing.check_rules`. Needs hypothesis
(the `testing` or `cli` extra): it searches for a failing run and shrinks it to a minimal
one (smallest seed, fewest and smallest choices).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import attrs

from .compiler import compile_rules
from .errors import RulesError, StuckError, TrickcoreError
from .game import Game
from .invariants import Checker, Violation, deal_action_bound
from .loader import load_rules

Progress = Callable[[int, int], None]


@attrs.frozen
class Report:
    """What verify found: static errors, a violation with its counterexample, or nothing."""

    variant: str
    static_errors: tuple[RulesError, ...] = ()
    violation: Violation | None = None
    runs: int = 0
    matches: int = 0

    @property
    def ok(self) -> bool:
        """True when nothing was found."""
        return not self.static_errors and self.violation is None


def static_check(ref: str | Path) -> tuple[Game | None, tuple[RulesError, ...]]:
    """Compile the file: deck and deal pattern, forced bids, caps, names, extends."""
    try:
        rules = load_rules(ref)
        return Game(compile_rules(rules)), ()
    except RulesError as exc:
        return None, (exc,)


def search_violation(
    game: Game,
    examples: int,
    max_actions: int = 400,
    progress: Progress | None = None,
) -> tuple[Violation | None, int]:
    """Look for a run that breaks an invariant; return the shrunk one (or None) and the count."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    checker = Checker(game, max_actions=max_actions)
    runs = 0

    def fails(example: tuple[int, int, list[int]]) -> bool:
        nonlocal runs
        runs += 1
        if progress is not None:
            progress(min(runs, examples), examples)
        seed, players, choices = example
        return checker.run(seed, players, choices) is not None

    strategy = st.tuples(
        st.integers(0, 2**31 - 1),
        st.sampled_from(game.model.players),
        st.lists(st.integers(0, 2**16), max_size=max_actions),
    )
    config = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    try:
        seed, players, choices = find(strategy, fails, settings=config)
    except NoSuchExample:
        return None, runs
    return checker.run(seed, players, choices), runs


def whole_matches(game: Game, count: int, seed: int = 0) -> Violation | None:
    """Play whole matches at random: each must end within its deal limit."""
    rules = game.model.match
    for i in range(count):
        players = game.model.players[i % len(game.model.players)]
        bound = deal_action_bound(game, players)
        rng = random.Random(seed + i)
        match = game.new_match(seed=seed + i, players=players)
        actions = 0
        in_deal = 0
        deals = match.deals_dealt
        while not match.is_over:
            try:
                legal = match.legal_actions()
            except StuckError as exc:
                return Violation("stuck", str(exc).split(";")[0], seed + i, players, ())
            match.apply(rng.choice(legal))
            actions += 1
            in_deal = in_deal + 1 if match.deals_dealt == deals else 0
            deals = match.deals_dealt
            if in_deal > bound:
                return Violation(
                    "deal ends", f"a deal took more than {bound} actions", seed + i, players, ()
                )
            if match.deals_dealt > rules.deal_limit:
                return Violation(
                    "match ends",
                    f"the match went past its limit of {rules.deal_limit} deals",
                    seed + i,
                    players,
                    (),
                )
    return None


def verify(
    ref: str | Path,
    examples: int = 100,
    matches: int = 3,
    progress: Progress | None = None,
) -> Report:
    """Static checks, then the invariants on `examples` random runs and whole matches."""
    game, errors = static_check(ref)
    name = Path(str(ref)).stem
    if game is None:
        return Report(name, static_errors=errors)
    try:
        violation, runs = search_violation(game, examples, progress=progress)
        if violation is None:
            violation = whole_matches(game, matches)
    except TrickcoreError as exc:  # pragma: no cover - the checker reports engine errors itself
        violation = Violation("error", str(exc), 0, game.model.players[0], ())
        runs = 0
    return Report(game.name, (), violation, runs, matches)
