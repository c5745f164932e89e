"""A verify run spread over worker processes: its chunks of random runs and its whole
matches, each a task that a worker plays on its own copy of the rules.

Workers are started fresh (`spawn`: nothing of this process is copied, threads such as a
progress display's included) and load the rules file themselves; they ignore Ctrl-C, which
this process answers by stopping them at once. The whole matches start first (a long match
left for last would keep one worker busy alone). When a task finds a violation, the tasks
after it in the list that have not started are skipped and the others are played, so that
the violation reported is the first task's in the list that finds one, as when the tasks
run one after the other in this process; an unexpected error of a task after it is dropped
as it would never have been reached.
"""

from __future__ import annotations

import multiprocessing
import signal
from multiprocessing.pool import AsyncResult
from typing import Any

from ..engine.game import Game
from ..language.loader import MergedRules
from .invariants import Violation
from .verify_tasks import Progress, Task, _static, run_task

Result = tuple[Violation | None, int]

# in a worker: the runs each task has played so far and the index above which tasks are
# skipped (both shared with this process), and the rules files it has loaded
_DONE: Any = None
_SKIP_ABOVE: Any = None
_LOADED: dict[str, tuple[Game, MergedRules | None]] = {}


def _start_worker(done: Any, skip_above: Any) -> None:
    global _DONE, _SKIP_ABOVE
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent to answer
    _DONE, _SKIP_ABOVE = done, skip_above


def _play(task: Task, index: int) -> Result:
    """Play one task in a worker, counting its runs in the shared slot; nothing when an
    earlier task has found a violation."""
    if index > _SKIP_ABOVE.value:
        return None, 0
    loaded = _LOADED.get(task.ref)
    if loaded is None:
        game, errors, rules = _static(task.ref)
        if game is None:  # pragma: no cover - the parent compiled the same file
            raise RuntimeError(f"{task.ref} did not compile in a worker: {errors[0]}")
        loaded = _LOADED[task.ref] = (game, rules)

    def tick(done: int, _: int) -> None:
        _DONE[index] = done

    return run_task(task, loaded[0], loaded[1], tick)


class Workers:
    """The worker processes of a verify run, started ahead of its tasks (while this process
    compiles the rules file) for `count` tasks; `close` stops them at once."""

    def __init__(self, jobs: int, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.count = count
        self.done = context.Array("i", count, lock=False)
        self.skip_above = context.Value("i", count, lock=False)
        self.pool = context.Pool(min(jobs, count), _start_worker, (self.done, self.skip_above))

    def close(self) -> None:
        """Stop the workers at once (after the last result, or on Ctrl-C or an error)."""
        self.pool.terminate()

    def run(self, tasks: list[Task], total: int, progress: Progress | None) -> list[Result]:
        """Play the tasks (as many as the workers were started for); their results in task
        order, up to the first task that finds a violation."""
        assert len(tasks) == self.count
        done, skip_above = self.done, self.skip_above
        results: dict[int, Result] = {}
        errors: dict[int, BaseException] = {}
        order = sorted(range(len(tasks)), key=lambda i: tasks[i].kind != "match")
        pending: dict[int, AsyncResult[Result]] = {
            i: self.pool.apply_async(_play, (tasks[i], i)) for i in order
        }
        while pending:
            next(iter(pending.values())).wait(0.1)
            for i in [i for i, r in pending.items() if r.ready()]:
                try:
                    results[i] = pending.pop(i).get()
                except Exception as exc:  # re-raised below if it is reached
                    errors[i] = exc
                if i in results and results[i][0] is not None:
                    skip_above.value = min(skip_above.value, i)
            if progress is not None:
                progress(min(sum(done), total), total)
        first = min((i for i, (v, _) in results.items() if v is not None), default=len(tasks))
        failed = [i for i in errors if i <= first]
        if failed:
            raise errors[min(failed)]
        return [results[i] for i in range(min(first + 1, len(tasks)))]


def run_tasks(tasks: list[Task], jobs: int, total: int, progress: Progress | None) -> list[Result]:
    """Play the tasks on `jobs` worker processes; their results in task order, up to the
    first task that finds a violation."""
    workers = Workers(jobs, len(tasks))
    try:
        return workers.run(tasks, total, progress)
    finally:
        workers.close()
