"""The pieces a verify run is made of (`verify` plays them here, `verify_jobs` on worker
processes): compiling the rules file, a hypothesis search for a run that breaks an
invariant, a whole match checked deal by deal, and the task that is one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import attrs

from ..engine.game import MAX_SEED, Game
from ..language.compiler import compile_with_errors
from ..language.errors import RulesError, TrickcoreError
from ..language.loader import MergedRules, load_rules
from .check_reference import ReferenceError
from .invariants import Checker, Violation
from .verify_defaults import MATCH_DEALS, MATCH_FULL_DEALS, RUN_FULL_DEALS, RUN_STEP_DEALS

Progress = Callable[[int, int], None]


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
        return None, tuple(exc.errors), None
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
    chunk: int = 0,
    chunks: int = 1,
) -> tuple[Violation | None, int]:
    """Look for a run that breaks an invariant; return the shrunk one (or None) and the count.

    The information checks compare worlds at every step for every seat when `thorough`,
    else at every second step for one seat in turn. `derandomize` tries the same runs every
    time; otherwise the hypothesis profile in force decides (hypothesis's default: new runs
    each search; the test suite's `ci` profile: the same runs). A search that is `chunk` of
    `chunks` plays the seeds `chunk`, `chunk + chunks`, ... (so the chunks' runs differ).
    """
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    checker = Checker(
        game,
        max_actions=max_actions,
        rules=rules,
        info_every=1 if thorough else 2,
        every_seat=thorough,
        full_deals=None if thorough else RUN_FULL_DEALS,
        step_deals=RUN_STEP_DEALS,
    )
    runs = 0

    def fails(example: tuple[int, int, list[int]]) -> bool:
        nonlocal runs
        runs += 1
        if progress is not None:
            progress(min(runs, examples), examples)
        seed, players, choices = example
        return checker.run(seed * chunks + chunk, players, choices) is not None

    # the seeds seed·chunks + chunk, each a seed a match accepts (of at most 12 digits)
    top = min(2**31 - 1, (MAX_SEED - 1 - chunk) // chunks)
    strategy = st.tuples(
        st.integers(0, top),
        st.sampled_from(game.model.players),
        st.lists(st.integers(0, 2**16), max_size=max_actions),
    )
    config = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,  # the checker says what it found; hypothesis says nothing
    )
    if derandomize:  # else as the hypothesis profile in force says (random by default)
        config = settings(config, derandomize=True)
    try:
        seed, players, choices = find(strategy, fails, settings=config)
    except NoSuchExample:
        return None, runs
    return checker.run(seed * chunks + chunk, players, choices), runs


def _match_checker(
    game: Game, rules: MergedRules | None, info_deals: int, deals: int | None = None
) -> Checker:
    return Checker(
        game,
        rules=rules,
        info_every=1,
        info_deals=info_deals,
        step_deals=info_deals,
        full_deals=MATCH_FULL_DEALS,
        match_deals=deals,
    )


def _whole_match(checker: Checker, game: Game, seed: int, index: int) -> Violation | None:
    """The `index`-th whole match (from 0; its players in turn from the rules' counts),
    played at random to its end (or the checker's `match_deals`), every deal's result
    checked (tricks, scores, match scores and kept values, the end of the match and its
    winners).

    The invariants of every step (cards, legal actions, refused actions) are checked in
    every deal of bouts, and in the first 20 trick deals and every `info_deals`-th after
    them, as the checker was made (a match of random players may run to a deal limit of
    hundreds); the information checks run at every step, for every seat, of every
    `info_deals`-th deal (the first included)."""
    players = game.model.players[index % len(game.model.players)]
    return checker.run(seed, players, (), whole=True)


@attrs.frozen
class Task:
    """One piece of a verify run, as a worker process gets it: a chunk of random runs or a
    whole match, of the rules file `ref`."""

    ref: str
    kind: str  # "runs" or "match"
    index: int  # the chunk's (or match's) index
    runs: int  # the runs of the chunk
    chunks: int  # the chunks in all
    thorough: bool
    derandomize: bool


def run_task(
    task: Task,
    game: Game,
    rules: MergedRules | None,
    progress: Progress | None = None,
) -> tuple[Violation | None, int]:
    """Play one task; return its violation (or None) and the random runs it played."""
    try:
        if task.kind == "runs":
            return search_violation(
                game,
                task.runs,
                progress=progress,
                rules=rules,
                thorough=task.thorough,
                derandomize=task.derandomize,
                chunk=task.index,
                chunks=task.chunks,
            )
        # the first match to its end; unless thorough, the others to their 100th deal
        deals = None if task.thorough or task.index == 0 else MATCH_DEALS
        checker = _match_checker(game, rules, 3 if task.thorough else 10, deals)
        return _whole_match(checker, game, task.index, task.index), 0
    except TrickcoreError as exc:  # pragma: no cover - the checker reports engine errors itself
        return Violation("error", str(exc), 0, game.model.players[0], ()), 0
    except ReferenceError as exc:  # the rules use what the checker cannot follow: not checked
        return Violation("not restated", str(exc), 0, game.model.players[0], ()), 0
