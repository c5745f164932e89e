"""A verify run spread over worker processes: its chunks of random runs and its whole
matches, each a task that a worker plays on its own copy of the rules.

Workers are started fresh (`spawn`: nothing of this process is copied, threads such as a
progress display's included) and load the rules file themselves. The whole matches start
first (a long match left for last would keep one worker busy alone). When a task finds a
violation, the tasks after it in the list that have not started are dropped and the others
are played, so that the violation reported is the first task's in the list that finds one,
as when the tasks run one after the other in this process.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.sharedctypes
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from ..engine.game import Game
from ..language.loader import MergedRules
from .invariants import Violation
from .verify import Progress, Task, _static, run_task

# in a worker: the runs each task has played so far (shared with the parent), and the
# rules files it has loaded
_DONE: Any = None
_LOADED: dict[str, tuple[Game, MergedRules | None]] = {}


def _start_worker(done: Any) -> None:
    global _DONE
    _DONE = done


def _play(task: Task, slot: int) -> tuple[Violation | None, int]:
    """Play one task in a worker, counting its runs in the shared slot."""
    loaded = _LOADED.get(task.ref)
    if loaded is None:
        game, errors, rules = _static(task.ref)
        if game is None:  # pragma: no cover - the parent compiled the same file
            raise RuntimeError(f"{task.ref} did not compile in a worker: {errors[0]}")
        loaded = _LOADED[task.ref] = (game, rules)

    def tick(done: int, _: int) -> None:
        _DONE[slot] = done

    return run_task(task, loaded[0], loaded[1], tick)


def run_tasks(
    tasks: list[Task], jobs: int, total: int, progress: Progress | None
) -> list[tuple[Violation | None, int]]:
    """Play the tasks on `jobs` worker processes; their results in task order, up to the
    first task that finds a violation."""
    context = multiprocessing.get_context("spawn")
    done = context.Array("i", len(tasks), lock=False)
    results: dict[int, tuple[Violation | None, int]] = {}
    with ProcessPoolExecutor(
        max_workers=min(jobs, len(tasks)),
        mp_context=context,
        initializer=_start_worker,
        initargs=(done,),
    ) as pool:
        order = sorted(range(len(tasks)), key=lambda i: tasks[i].kind != "match")
        futures: dict[Future[tuple[Violation | None, int]], int] = {
            pool.submit(_play, tasks[i], i): i for i in order
        }
        pending = set(futures)
        try:
            while pending:
                finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                for future in finished:
                    if not future.cancelled():
                        results[futures[future]] = future.result()
                if progress is not None:
                    progress(min(sum(done), total), total)
                found = [i for i, (v, _) in results.items() if v is not None]
                if found:
                    for future in pending:
                        if futures[future] > min(found):
                            future.cancel()
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    first = min((i for i, (v, _) in results.items() if v is not None), default=len(tasks))
    return [results[i] for i in range(min(first + 1, len(tasks)))]
