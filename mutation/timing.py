"""A pytest plugin for the unmutated run (`-p mutation.timing`): how many tests were collected
and, as each test ends, the CPU time it took (setup, call and teardown; the processes it ran
and waited for included), as JSON lines appended to the file named by $MUTATION_TIMING.

CPU time, not the clock: other work on a busy machine stretches a test's wall-clock time
many times over, not the work it does (measured here: four busy loops on the two cores made
the tests' wall-clock time 6 times longer, their CPU time 6 % longer), so `--quick` leaves out
the same tests on an idle and on a loaded machine, give or take one on the border. The lines
also let the tool print the run's progress (n of N tests) while it goes on. Under
pytest-xdist each worker appends its own lines (one short write each: they do not mix).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Generator
from typing import Any

import pytest

ENV = "MUTATION_TIMING"


def cpu_seconds() -> float:
    """CPU time of this process and of the child processes it has waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


OPTION = "--timings-to"
# the file named by --timings-to (else by $MUTATION_TIMING), made absolute as the run starts:
# a test that changes the working directory (and then fails) must not lose its lines
_to: list[str] = []
_FROM_ENV = os.path.abspath(os.environ[ENV]) if os.environ.get(ENV) else None


def _write(record: dict[str, Any]) -> None:
    path = _to[0] if _to else _FROM_ENV
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--timings-to PATH`: the same lines for a whole test run, so that `python -m mutation
    ci --timings PATH` need not run the tests again unmutated."""
    parser.addoption(
        OPTION,
        metavar="PATH",
        default=None,
        help="write each test's CPU time and each failure to PATH (JSON lines, made anew)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """With --timings-to, the file is made anew by the main process (not by xdist's workers)."""
    path = config.getoption(OPTION)
    if not path:
        return
    _to[:] = [os.path.abspath(path)]
    if not hasattr(config, "workerinput"):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8"):
            pass


def pytest_collection_finish(session: pytest.Session) -> None:
    """The number of tests this process will run."""
    _write({"collected": len(session.items)})


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """A test that failed (in setup, call or teardown): it cannot judge a mutant."""
    if report.failed:
        _write({"failed": report.nodeid})


def pytest_sessionfinish(session: pytest.Session) -> None:
    """This process's CPU time in all (start-up and collection included)."""
    _write({"process_cpu": cpu_seconds(), "worker": hasattr(session.config, "workerinput")})


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    """One line per test: its node id, CPU seconds and wall-clock seconds."""
    cpu, wall = cpu_seconds(), time.monotonic()
    try:
        return (yield)
    finally:
        took = {"cpu": cpu_seconds() - cpu, "wall": time.monotonic() - wall}
        _write({"test": item.nodeid, **took})


def read_run(
    path: str | os.PathLike[str],
) -> tuple[dict[str, float], set[str], list[float]] | None:
    """(node id -> CPU seconds, the tests that failed, the CPU seconds of each process that
    ran tests) of a finished run written with --timings-to; None if there is no such file or
    the run did not finish."""
    took: dict[str, float] = {}
    failed: set[str] = set()
    processes: list[float] = []
    main, finished = 0.0, False
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            return None
        if "test" in record:
            ident = str(record["test"])
            took[ident] = took.get(ident, 0.0) + float(record["cpu"])
        elif "failed" in record:
            failed.add(str(record["failed"]))
        elif "process_cpu" in record and record["worker"]:
            processes.append(float(record["process_cpu"]))
        elif "process_cpu" in record:  # the main process: it ran the tests without xdist
            main, finished = float(record["process_cpu"]), True
    if not finished or not took:
        return None
    return took, failed, processes or [main]


def read(path: str | os.PathLike[str]) -> tuple[int, dict[str, float]]:
    """(tests collected, node id -> CPU seconds of each test ended so far) from the file."""
    collected = 0
    took: dict[str, float] = {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return 0, {}
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:  # a line being written
            continue
        if "collected" in record:
            collected = max(collected, int(record["collected"]))
        elif "test" in record:
            ident = str(record["test"])
            took[ident] = took.get(ident, 0.0) + float(record["cpu"])
    return collected, took
