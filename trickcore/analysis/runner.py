"""Run work split into deterministic chunks: in this process, on a local Dask cluster
started and stopped here, or on an existing Dask cluster.

A chunk is a plain, picklable description of its work (a seed range, the variant's rules
texts, the bots), so its result depends on the chunk alone, never on which worker ran it or
how many there are: results are identical whatever the number of workers. A chunk whose
worker is lost is simply run again elsewhere (Dask reschedules it; a chunk that raises is
retried `retries` times). On Ctrl-C the chunks that finished are kept and returned.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import attrs

from ..engine.game import Game
from ..language.errors import TrickcoreError

# how long the local cluster may take to close before its workers are stopped by force
CLOSE_SECONDS = 20.0

T = TypeVar("T")
C = TypeVar("C")

Progress = Callable[[int, int], None]  # (chunks done, chunks in all)

DEFAULT_CHUNK = 25


class RunnerError(TrickcoreError):
    """A cluster that cannot be started or reached, or a missing `dask` extra."""


@attrs.frozen
class ChunkRun(Generic[T]):
    """What a run produced: one result per chunk, in chunk order (None where a chunk did
    not finish because the run was interrupted)."""

    results: tuple[T | None, ...]
    interrupted: bool = False

    @property
    def done(self) -> int:
        """How many chunks finished."""
        return sum(r is not None for r in self.results)

    @property
    def finished(self) -> list[T]:
        """The results of the chunks that finished, in chunk order."""
        return [r for r in self.results if r is not None]


def seed_chunks(count: int, size: int = DEFAULT_CHUNK) -> list[range]:
    """Split `range(count)` into consecutive ranges of `size` (the last may be shorter).

    The split depends only on `count` and `size`, never on the number of workers."""
    if size < 1:
        raise ValueError("chunk size must be at least 1")
    return [range(i, min(i + size, count)) for i in range(0, count, size)]


@attrs.frozen
class VariantRef:
    """A variant as a chunk carries it: its name and the texts of its rules files, so a
    worker on another machine rebuilds exactly the same variant without the files."""

    name: str
    sources: tuple[tuple[str, str], ...]
    content_hash: str

    @classmethod
    def of(cls, game: Game) -> VariantRef:
        """The reference of a loaded variant."""
        from ..engine.saving import rules_sources

        return cls(game.name, tuple(rules_sources(game)), game.content_hash)

    def load(self) -> Game:
        """The variant (compiled once per process, then taken from a cache)."""
        game = _LOADED.get(self.content_hash)
        if game is None:
            from ..language.compiler import compile_rules
            from ..language.loader import load_rules_embedded

            game = Game(compile_rules(load_rules_embedded(list(self.sources), self.name)))
            _LOADED[self.content_hash] = game
        return game


_LOADED: dict[str, Game] = {}


def run_chunks(
    function: Callable[[C], T],
    chunks: Sequence[C],
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    retries: int = 2,
) -> ChunkRun[T]:
    """Run `function(chunk)` for every chunk and return the results in chunk order.

    - neither `workers` nor `scheduler`: in this process, one chunk after the other;
    - `workers=N`: on a local Dask cluster of N single-threaded worker processes, started
      for this run and stopped after it;
    - `scheduler="tcp://host:8786"`: on an existing Dask cluster (its workers need
      trickcore installed; `function` must be importable there).

    `function` must be a module-level function and each chunk picklable. `progress(done,
    total)` is called as chunks finish. Ctrl-C stops the run: the finished chunks are
    returned with `interrupted=True` (pending chunks are released with the client). The
    worker processes of a local cluster do not see Ctrl-C: this process stops them.
    """
    if workers is not None and scheduler is not None:
        raise RunnerError("give either --workers or --scheduler, not both")
    if workers is not None and workers < 1:
        raise RunnerError("the number of workers must be at least 1")
    total = len(chunks)
    results: list[T | None] = [None] * total
    if progress:
        progress(0, total)
    if workers is None and scheduler is None:
        done = 0
        try:
            for i, chunk in enumerate(chunks):
                results[i] = function(chunk)
                done += 1
                if progress:
                    progress(done, total)
        except KeyboardInterrupt:
            return ChunkRun(tuple(results), interrupted=True)
        return ChunkRun(tuple(results))
    with _client(workers, scheduler) as client:
        return _run_on(client, function, chunks, results, progress, retries)


def _run_on(
    client: Any,
    function: Callable[[C], T],
    chunks: Sequence[C],
    results: list[T | None],
    progress: Progress | None,
    retries: int,
) -> ChunkRun[T]:
    from distributed import as_completed

    total = len(chunks)
    futures: list[Any] = []
    index: dict[Any, int] = {}
    done = 0
    try:  # a Ctrl-C may come while the chunks are still being handed out (the first run)
        futures = client.map(function, list(chunks), retries=retries, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            done += 1
            if progress:
                progress(done, total)
    except KeyboardInterrupt:
        for f in futures:
            if f.done() and f.status == "finished" and results[index[f.key]] is None:
                with contextlib.suppress(Exception):
                    results[index[f.key]] = f.result(timeout=1)
        # no `client.cancel(futures)`: closing the client (`_client`) releases them all at
        # once, where cancelling thousands of futures kept the scheduler busy for half a
        # minute after Ctrl-C
        return ChunkRun(tuple(results), interrupted=True)
    return ChunkRun(tuple(results))


@contextlib.contextmanager
def _client(workers: int | None, scheduler: str | None) -> Iterator[Any]:
    """A Dask client: of a local cluster made for this run, or of the cluster at
    `scheduler`; closed (and the local cluster stopped) afterwards."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunnerError(
            "running on workers needs Dask, which is not installed: pip install 'trickcore[dask]'"
        ) from None
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise RunnerError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        try:
            yield client
        finally:
            client.close()
        return
    cluster = None
    before = set(multiprocessing.active_children())
    try:
        with dask.config.set({"logging.distributed": "error"}), _workers_deaf_to_ctrl_c():
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",  # any free port, on this machine only
                silence_logs=logging.CRITICAL,
            )
        client = Client(cluster)
        try:
            yield client
        finally:
            with contextlib.suppress(Exception):  # bounded: the workers are stopped below
                client.close(timeout=CLOSE_SECONDS)
    finally:
        if cluster is not None:
            # a busy machine can make the close time out: the workers left are stopped below
            with contextlib.suppress(Exception):
                cluster.close(timeout=CLOSE_SECONDS)
        _stop_left_workers(before)


def _stop_left_workers(before: set[Any]) -> None:
    """The local cluster's worker processes still alive once it is closed (its close gave
    up, or stopped them too slowly): terminated, and killed if that does not end them, so
    that nothing is left running and this process can exit (at exit, multiprocessing waits
    for every child it started, for ever)."""
    left = [p for p in multiprocessing.active_children() if p not in before]
    for p in left:
        with contextlib.suppress(Exception):
            p.terminate()
    for p in left:
        p.join(CLOSE_SECONDS / 4)
        if p.is_alive():
            with contextlib.suppress(Exception):
                p.kill()
            p.join(CLOSE_SECONDS / 4)


@contextlib.contextmanager
def _workers_deaf_to_ctrl_c() -> Iterator[None]:
    """While a local cluster starts: SIGINT blocked in this thread, so that the threads
    started meanwhile (Dask's event loop, which starts the worker processes, now and when
    one is replaced) and the worker processes keep it blocked. Ctrl-C in a terminal goes to
    every process of the foreground group: without this each worker would print a
    traceback ("Process Dask Worker process (from Nanny): ..."); with it only this process
    sees it and stops the cluster. A Ctrl-C meanwhile is kept, then raised here."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not (
        threading.main_thread()
    ):
        yield
        return
    from multiprocessing import resource_tracker

    # the first process spawned starts multiprocessing's resource tracker, and that unblocks
    # SIGINT in the thread spawning it: started first, here, it is running already then
    resource_tracker.ensure_running()
    caught: list[int] = []  # a Ctrl-C another thread received meanwhile
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one pending runs the lambda now
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
    if caught:
        raise KeyboardInterrupt


@contextlib.contextmanager
def progress_bar(label: str, console: Any = None, enabled: bool = True) -> Iterator[Progress]:
    """A rich progress bar (chunks done of all, time left) as a `progress` callback; it
    disappears when the run ends. `enabled=False` gives a callback that draws nothing."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("chunks"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=True, console=console, disable=not enabled) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
