"""Consistency checking of a rules file: static checks, then invariants under random play.

Used by `trickcore verify FILE` and by `trickcore.testing.check_rules`. Needs hypothesis
(the `testing` or `cli` extra): it searches for a failing run and shrinks it to a minimal
one (smallest seed, fewest and smallest choices).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import attrs

from ..engine.game import Game
from ..language.compiler import compile_with_errors
from ..language.errors import RulesError, TrickcoreError
from ..language.loader import MergedRules, load_rules
from .check_reference import ReferenceError
from .invariants import Checker, Violation

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
    """Compile the file: deck and deal pattern, forced bids, caps, names, extends.

    Every error the compiler finds is reported, each at its place.
    """
    game, errors, _ = _static(ref)
    return game, errors


def _static(ref: str | Path) -> tuple[Game | None, tuple[RulesError, ...], MergedRules | None]:
    try:
        rules = load_rules(ref)
    except RulesError as exc:
        return None, (exc,), None
    try:
        model, errors = compile_with_errors(rules)
        if model is None:
            return None, tuple(errors), rules
        return Game(model), (), rules
    except RulesError as exc:
        return None, (exc,), rules


def search_violation(
    game: Game,
    examples: int,
    max_actions: int = 400,
    progress: Progress | None = None,
    rules: MergedRules | None = None,
    thorough: bool = False,
    derandomize: bool = False,
) -> tuple[Violation | None, int]:
    """Look for a run that breaks an invariant; return the shrunk one (or None) and the count.

    The information checks compare worlds at every step for every seat when `thorough`,
    else at every second step for one seat in turn. `derandomize` tries the same runs every
    time; otherwise the hypothesis profile in force decides (hypothesis's default: new runs
    each search; the test suite's `ci` profile: the same runs).
    """
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    checker = Checker(
        game,
        max_actions=max_actions,
        rules=rules,
        info_every=1 if thorough else 2,
        every_seat=thorough,
    )
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
    if derandomize:  # else as the hypothesis profile in force says (random by default)
        config = settings(config, derandomize=True)
    try:
        seed, players, choices = find(strategy, fails, settings=config)
    except NoSuchExample:
        return None, runs
    return checker.run(seed, players, choices), runs


def whole_matches(
    game: Game,
    count: int,
    seed: int = 0,
    rules: MergedRules | None = None,
    info_deals: int = 10,
) -> Violation | None:
    """Play whole matches at random, checking every deal's result (tricks, scores, match
    scores and kept values, the end of the match and its winners).

    The invariants of every step (cards, legal actions, refused actions) are checked in
    every deal of bouts, and in the first 20 trick deals and every `info_deals`-th after
    them (a match of random players may run to a deal limit of hundreds); the information
    checks run at every step, for every seat, of every `info_deals`-th deal (the first
    included).
    """
    checker = Checker(game, rules=rules, info_every=1, info_deals=info_deals, step_deals=info_deals)
    for i in range(count):
        players = game.model.players[i % len(game.model.players)]
        found = checker.run(seed + i, players, (), whole=True)
        if found is not None:
            return found
    return None


def verify(
    ref: str | Path,
    examples: int = 100,
    matches: int = 3,
    progress: Progress | None = None,
    thorough: bool | None = None,
    derandomize: bool = False,
) -> Report:
    """Static checks, then the invariants on `examples` random runs and whole matches
    (`derandomize`: the same runs every time).

    `thorough` (default: when 1,000 or more examples are asked for) compares hidden-card
    worlds at every step of the random runs for every seat, not at every second step for
    one seat in turn; in whole matches they run at every step for every seat of every
    third deal when thorough, else of every tenth.
    """
    game, errors, rules = _static(ref)
    name = Path(str(ref)).stem
    if game is None:
        return Report(name, static_errors=errors)
    deep = examples >= 1000 if thorough is None else thorough
    try:
        violation, runs = search_violation(
            game, examples, progress=progress, rules=rules, thorough=deep, derandomize=derandomize
        )
        if violation is None:
            violation = whole_matches(game, matches, rules=rules, info_deals=3 if deep else 10)
    except TrickcoreError as exc:  # pragma: no cover - the checker reports engine errors itself
        violation = Violation("error", str(exc), 0, game.model.players[0], ())
        runs = 0
    except ReferenceError as exc:  # the rules use what the checker cannot follow: not checked
        violation = Violation("not restated", str(exc), 0, game.model.players[0], ())
        runs = 0
    return Report(game.name, (), violation, runs, matches)
