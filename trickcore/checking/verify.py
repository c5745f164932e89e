"""Consistency checking of a rules file: static checks, then invariants under random play.

Used by `trickcore verify FILE` and by `trickcore.testing.check_rules`. Needs hypothesis
(the `testing` or `cli` extra): it searches for a failing run and shrinks it to a minimal
one (smallest seed, fewest and smallest choices).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import attrs

from ..engine.game import MAX_SEED, Game
from ..language.compiler import compile_with_errors
from ..language.errors import RulesError, TrickcoreError
from ..language.loader import MergedRules, load_rules
from .check_reference import ReferenceError
from .invariants import Checker, Violation
from .verify_defaults import (
    MATCH_FULL_DEALS,
    MATCHES,
    RUN_CHUNK,
    RUN_FULL_DEALS,
    RUN_STEP_DEALS,
    RUNS,
    THOROUGH_MATCHES,
    THOROUGH_RUNS,
)

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


def _match_checker(game: Game, rules: MergedRules | None, info_deals: int) -> Checker:
    return Checker(
        game,
        rules=rules,
        info_every=1,
        info_deals=info_deals,
        step_deals=info_deals,
        full_deals=MATCH_FULL_DEALS,
    )


def _whole_match(checker: Checker, game: Game, seed: int, index: int) -> Violation | None:
    """The `index`-th whole match (from 0; its players in turn from the rules' counts),
    played at random, every deal's result checked (tricks, scores, match scores and kept
    values, the end of the match and its winners).

    The invariants of every step (cards, legal actions, refused actions) are checked in
    every deal of bouts, and in the first 20 trick deals and every `info_deals`-th after
    them, as the checker was made (a match of random players may run to a deal limit of
    hundreds); the information checks run at every step, for every seat, of every
    `info_deals`-th deal (the first included)."""
    players = game.model.players[index % len(game.model.players)]
    return checker.run(seed, players, (), whole=True)


def default_jobs() -> int:
    """The processes `trickcore verify` uses unless told: the cores this process may run
    on, at most 8."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def verify(
    ref: str | Path,
    examples: int | None = None,
    matches: int | None = None,
    progress: Progress | None = None,
    thorough: bool | None = None,
    derandomize: bool = False,
    jobs: int = 1,
) -> Report:
    """Static checks, then the invariants on `examples` random runs and `matches` whole
    matches (by default those of `trickcore verify`: 200 runs and 3 matches, 2,000 and 20
    when thorough; `derandomize`: the same runs every time).

    `thorough` (default: when 1,000 or more examples are asked for) checks every deal of a
    random run at every step and compares hidden-card worlds at every step for every seat.
    Otherwise a run's first two deals and every fourth after them (5th, 9th, ...; past the
    40th, every 40th) are checked at every step, the worlds at every second step for one
    seat in turn; the deals between are followed action by action (each action must be one
    the rules allow) and scored. In whole matches the worlds are compared at
    every step for every seat of every third deal when thorough, else of every tenth.

    The runs are searched in chunks of 25 (each its own hypothesis search over its own
    seeds); `jobs` above 1 spreads the chunks and the whole matches over that many worker
    processes. The runs and the violation reported do not depend on `jobs`: it is the one
    of the first chunk (then match) that finds one.
    """
    game, errors, rules = _static(ref)
    name = Path(str(ref)).stem
    if game is None:
        return Report(name, static_errors=errors)
    if thorough is None:
        deep = examples is not None and examples >= 1000
    else:
        deep = thorough
    if examples is None:
        examples = THOROUGH_RUNS if deep else RUNS
    if matches is None:
        matches = THOROUGH_MATCHES if deep else MATCHES
    from hypothesis import settings

    # the profile in force decides for workers too (they do not load this process's)
    in_force = settings.default
    derandomize = derandomize or (in_force is not None and in_force.derandomize)
    chunks = runs_chunks(examples)
    tasks = [
        Task(str(ref), "runs", i, len(part), len(chunks), deep, derandomize)
        for i, part in enumerate(chunks)
    ]
    tasks += [Task(str(ref), "match", i, 0, 0, deep, derandomize) for i in range(matches)]
    if jobs > 1 and len(tasks) > 1:
        from .verify_jobs import run_tasks

        results = run_tasks(tasks, jobs, examples, progress)
    else:
        results = _run_here(tasks, game, rules, examples, progress)
    violation = next((v for v, _ in results if v is not None), None)
    return Report(game.name, (), violation, sum(n for _, n in results), matches)


def runs_chunks(examples: int) -> list[range]:
    """The chunks the random runs are searched in (25 each, the last may be shorter)."""
    return [range(i, min(i + RUN_CHUNK, examples)) for i in range(0, examples, RUN_CHUNK)]


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
        checker = _match_checker(game, rules, 3 if task.thorough else 10)
        return _whole_match(checker, game, task.index, task.index), 0
    except TrickcoreError as exc:  # pragma: no cover - the checker reports engine errors itself
        return Violation("error", str(exc), 0, game.model.players[0], ()), 0
    except ReferenceError as exc:  # the rules use what the checker cannot follow: not checked
        return Violation("not restated", str(exc), 0, game.model.players[0], ()), 0


def _run_here(
    tasks: list[Task],
    game: Game,
    rules: MergedRules | None,
    total: int,
    progress: Progress | None,
) -> list[tuple[Violation | None, int]]:
    """The tasks in order in this process, up to the first that finds a violation."""
    results: list[tuple[Violation | None, int]] = []
    done = 0
    for task in tasks:
        tick = None
        if progress is not None and task.kind == "runs":
            before = done

            def tick(d: int, _: int, before: int = before) -> None:
                progress(before + d, total)

        result = run_task(task, game, rules, tick)
        results.append(result)
        done += result[1]
        if result[0] is not None:
            break
    return results
