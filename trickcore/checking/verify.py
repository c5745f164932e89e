"""Consistency checking of a rules file: static checks, then invariants under random play.

Used by `trickcore verify FILE` and by `trickcore.testing.check_rules`. Needs hypothesis
(the `testing` or `cli` extra): it searches for a failing run and shrinks it to a minimal
one (smallest seed, fewest and smallest choices).
"""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from ..engine.game import Game
from ..language.errors import RulesError
from ..language.loader import MergedRules
from .invariants import Violation
from .verify_defaults import (
    MATCHES,
    RUN_CHUNK,
    RUNS,
    THOROUGH_MATCHES,
    THOROUGH_RUNS,
)
from .verify_tasks import Progress, Task, _static, run_task, search_violation, static_check

__all__ = [
    "MATCHES",
    "RUNS",
    "THOROUGH_MATCHES",
    "THOROUGH_RUNS",
    "Report",
    "default_jobs",
    "runs_chunks",
    "search_violation",
    "static_check",
    "verify",
]


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
    Otherwise a run's first deal and every (players + 1)-th after it (each seat dealing one
    of them in turn; past ten such, every tenth of them) are checked at every step, the
    worlds at every second step for one seat in turn; the deals between are followed action
    by action (each action must be one the rules allow) and scored. In whole matches the
    worlds are compared at every step for every seat of every third deal when thorough,
    else of every tenth; when not thorough, whole matches after the first stop at their
    100th deal.

    The runs are searched in chunks of 25 (each its own hypothesis search over its own
    seeds); `jobs` above 1 spreads the chunks and the whole matches over that many worker
    processes. The runs and the violation reported do not depend on `jobs`: it is the one
    of the first chunk (then match) that finds one.
    """
    if thorough is None:
        deep = examples is not None and examples >= 1000
    else:
        deep = thorough
    if examples is None:
        examples = THOROUGH_RUNS if deep else RUNS
    if matches is None:
        matches = THOROUGH_MATCHES if deep else MATCHES
    chunks = runs_chunks(examples)
    count = len(chunks) + matches
    workers = None
    if jobs > 1 and count > 1:  # started first: they start up while the file compiles here
        from .verify_jobs import Workers

        workers = Workers(jobs, count)
    try:
        game, errors, rules = _static(ref)
        name = Path(str(ref)).stem
        if game is None:
            return Report(name, static_errors=errors)
        from hypothesis import settings

        # the profile in force decides for workers too (they do not load this process's)
        in_force = settings.default
        derandomize = derandomize or (in_force is not None and in_force.derandomize)
        tasks = [
            Task(str(ref), "runs", i, len(part), len(chunks), deep, derandomize)
            for i, part in enumerate(chunks)
        ]
        tasks += [Task(str(ref), "match", i, 0, 0, deep, derandomize) for i in range(matches)]
        if workers is not None:
            results = workers.run(tasks, examples, progress)
        else:
            results = _run_here(tasks, game, rules, examples, progress)
    finally:
        if workers is not None:
            workers.close()
    violation = next((v for v, _ in results if v is not None), None)
    return Report(game.name, (), violation, sum(n for _, n in results), matches)


def runs_chunks(examples: int) -> list[range]:
    """The chunks the random runs are searched in (25 each, the last may be shorter)."""
    return [range(i, min(i + RUN_CHUNK, examples)) for i in range(0, examples, RUN_CHUNK)]


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
