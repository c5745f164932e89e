"""Running mutants: a temporary copy of the repository per worker, pytest in a subprocess."""

from __future__ import annotations

import ast
import importlib.util
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import timing
from .core import Mutant, apply_mutant

ROOT = Path(__file__).resolve().parent.parent
# Test files that never judge a mutant: the front end's fuzzing (and its harness) accepts any
# library error whatever the rules say, this tool's own tests run mutants themselves, and the
# integrations (web server, browser, Dask cluster, OpenSpiel, PettingZoo) test the plumbing
# around the engine, slowly, with servers and processes of their own.
NOT_JUDGES = (
    "tests/test_fuzz.py",
    "tests/test_fuzz_harness.py",
    "tests/test_mutation_tool.py",
    "tests/test_web.py",
    "tests/test_web_browser.py",
    "tests/test_simulate_dask.py",
    "tests/test_compare.py",
    "tests/test_openspiel.py",
    "tests/test_pettingzoo.py",
    # fails on any change to a shipped file's text (its tree made ahead of time is then stale,
    # and the mutated text is parsed instead): it judges the trees, not the rules
    "tests/test_preparsed.py",
)
# Left out of a --quick run besides the files that loop over every variant: slow, and they
# check the examples rather than a rule.
NOT_QUICK = ("tests/test_examples.py",)
_COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    "*.egg-info",
    "dist",
    "build",
)

_RUNNING: set[subprocess.Popen[str]] = set()  # the test runs under way, killed on Ctrl-C
_LOCK = threading.Lock()

# No limit here is a fixed number of wall-clock seconds that a slow or busy machine could
# reach: a mutant's test run is limited in CPU time (the work done, which other work on the
# machine does not stretch), derived from the unmutated run measured first on this machine.
POLL = 0.5  # seconds between two looks at a test run under way
IDLE_SECONDS = 300.0  # a test run that uses no CPU time for this long hangs: it is stopped
PROGRESS_EVERY = 30.0  # seconds between two progress lines of a long step
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

KILLED, SURVIVED, COMPILER, TIMEOUT, EQUIVALENT = (
    "killed",
    "survived",
    "caught by the compiler",
    "killed (timeout)",
    "equivalent",
)


@dataclass
class Outcome:
    """What became of one mutant: status, the test that failed first (or why the run was
    stopped), seconds taken."""

    mutant: Mutant
    status: str
    detail: str = ""
    seconds: float = 0.0


def say(text: str) -> None:
    """Print a line at once (the output may be a pipe, read as it comes: CI's log)."""
    print(text, flush=True)


def clock(seconds: float) -> str:
    """A duration as people read it: 42 s, 3 min 05 s."""
    whole = int(round(seconds))
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


# ------------------------------------------------------------------ tests per variant
def variant_parents(root: Path = ROOT) -> dict[str, list[str]]:
    """Each shipped variant's direct parents (its `extends` names)."""
    out: dict[str, list[str]] = {}
    for path in sorted((root / "variants").glob("*.rules")):
        parents: list[str] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.match(r"\s*extends\b", line):
                parents += re.findall(r'"([^"]+)"', line.split("#")[0])
        out[path.stem] = parents
    return out


def descendants(name: str, parents: dict[str, list[str]]) -> list[str]:
    """Every variant that extends `name`, directly or through others, sorted."""
    found: set[str] = set()
    frontier = [name]
    while frontier:
        cur = frontier.pop()
        for child, ps in parents.items():
            if cur in ps and child not in found:
                found.add(child)
                frontier.append(child)
    return sorted(found)


def _fixture_variants(root: Path, names: Sequence[str]) -> dict[str, str]:
    """conftest fixtures that load a shipped variant: fixture name -> variant."""
    conftest = root / "tests" / "conftest.py"
    if not conftest.is_file():
        return {}
    out = {}
    for node in ast.walk(ast.parse(conftest.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and any(
            "fixture" in ast.unparse(d) for d in node.decorator_list
        ):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Constant) and sub.value in names:
                    out[node.name] = str(sub.value)
    return out


def tests_for_variants(root: Path = ROOT, loops: bool = True) -> dict[str, list[str]]:
    """Variant -> the test files that exercise it or a variant extending it.

    A test file exercises a variant when it names it ("tysiacha", variants/tysiacha.rules),
    uses a conftest fixture that loads it, or loops over every shipped variant. The files
    naming the variant itself come first, so that `-x` stops early on a killed mutant.
    Without `loops`, files that only loop over every variant are left out (a quicker run).
    """
    parents = variant_parents(root)
    names = list(parents)
    fixtures = _fixture_variants(root, names)
    direct: dict[str, set[str]] = {}
    every: list[str] = []
    for path in sorted((root / "tests").glob("test_*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in NOT_JUDGES:
            continue
        text = path.read_text(encoding="utf-8")
        named = {
            n
            for n in names
            if re.search(rf"""["']{re.escape(n)}["']|{re.escape(n)}\.rules\b""", text)
        }
        for fixture, variant in fixtures.items():
            if re.search(rf"def test\w*\([^)]*\b{fixture}\b", text):
                named.add(variant)
        direct[rel] = named
        if re.search(r"\b(list_variants|shipped_variants)\(\)", text):
            every.append(rel)
    out: dict[str, list[str]] = {}
    for name in names:
        family = [name, *descendants(name, parents)]
        files = [f for f, vs in direct.items() if name in vs and (loops or f not in NOT_QUICK)]
        files += [
            f
            for f, vs in direct.items()
            if vs & set(family[1:]) and f not in files and (loops or f not in NOT_QUICK)
        ]
        if loops:
            files += [f for f in every if f not in files]
        out[name] = files
    return out


def engine_tests(root: Path = ROOT, quick: bool = False) -> list[str]:
    """Every test file except those that never judge a mutant.

    `quick`: only the files that play a named shipped variant (the rule-by-rule tests).
    """
    files = [
        p.relative_to(root).as_posix()
        for p in sorted((root / "tests").glob("test_*.py"))
        if p.relative_to(root).as_posix() not in NOT_JUDGES
    ]
    if quick:
        named = {f for fs in tests_for_variants(root, loops=False).values() for f in fs}
        files = [f for f in files if f in named]
    return files


# ------------------------------------------------------------------ workspaces
@contextmanager
def workspaces(count: int, root: Path = ROOT) -> Iterator[queue.Queue[Path]]:
    """`count` temporary copies of the repository (never the original), removed afterwards."""
    base = Path(tempfile.mkdtemp(prefix="trickcore-mutation-"))
    pool: queue.Queue[Path] = queue.Queue()
    try:
        for i in range(count):
            dest = base / f"w{i}"
            shutil.copytree(root, dest, ignore=_COPY_IGNORE)
            pool.put(dest)
        yield pool
    finally:
        shutil.rmtree(base, ignore_errors=True)


@dataclass
class Limit:
    """When a test run is stopped (a mutant that loops or hangs is "killed (timeout)").

    `cpu`: the CPU seconds its processes may use together (None: no limit); CPU time is the
    work done, so the same limit holds on an idle and on a busy machine. `idle`: wall-clock
    seconds in which its processes use no CPU time at all (a run waiting for nothing; far
    longer than a loaded machine leaves a process that can run waiting). Where CPU time
    cannot be read (no /proc: not Linux), `cpu` limits wall-clock seconds instead.
    """

    cpu: float | None = None
    idle: float | None = IDLE_SECONDS


@dataclass
class TestRun:
    """One pytest run: exit code (None: stopped, `stopped` says why), a summary (the first
    failing test), wall-clock seconds, the ids of the failing tests, pytest's output, and
    the CPU seconds its processes used (None where it cannot be read)."""

    code: int | None
    summary: str
    seconds: float
    failed: list[str] = field(default_factory=list)
    output: str = ""
    cpu: float | None = None
    stopped: str = ""


def group_cpu(pgid: int) -> float | None:
    """CPU seconds used so far by the processes of a process group, with the children they
    have waited for (Linux /proc); None when it cannot be read."""
    total = 0
    seen = False
    try:
        entries = os.scandir("/proc")
    except OSError:
        return None
    with entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    fields = f.read().rpartition(b")")[2].split()
            except OSError:  # gone meanwhile
                continue
            # after the name: state, ppid, pgrp, ... utime, stime, cutime, cstime (14-17)
            if len(fields) > 14 and int(fields[2]) == pgid:
                seen = True
                total += sum(int(x) for x in fields[11:15])
    return total / _TICK if seen else None


def _kill(proc: subprocess.Popen[str]) -> None:
    """Kill a test run and every process it started (its own process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def run_tests(
    workspace: Path,
    tests: Sequence[str],
    limit: Limit | None = None,
    stop_first: bool = True,
    extra: Sequence[str] = (),
    env: dict[str, str] | None = None,
    on_poll: Callable[[float], None] | None = None,
) -> TestRun:
    """pytest (-x) on `tests` inside the workspace, in a process group of its own, stopped
    as `limit` says (by default only when it hangs). `on_poll(elapsed)` is called about
    every POLL seconds while it runs."""
    environ = dict(os.environ)
    environ["PYTHONPATH"] = str(workspace)
    environ["PYTHONDONTWRITEBYTECODE"] = "1"
    environ.setdefault("HYPOTHESIS_PROFILE", "ci")
    environ.update(env or {})
    limit = limit or Limit()
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, *tests]
    if stop_first:
        cmd.insert(3, "-x")
    started = time.monotonic()
    proc = subprocess.Popen(
        cmd,
        cwd=workspace,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its processes can be told apart, measured and killed
    )
    chunks: list[str] = []
    out = proc.stdout
    assert out is not None
    reader = threading.Thread(target=lambda: chunks.append(out.read()), daemon=True)
    reader.start()
    with _LOCK:
        _RUNNING.add(proc)
    stopped = ""
    cpu: float | None = None
    busy_at = started
    try:
        while True:
            try:
                proc.wait(timeout=POLL)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            used = group_cpu(proc.pid)
            if used is not None and (cpu is None or used > cpu + 0.01):
                cpu, busy_at = used, now
            if limit.cpu is not None and (used if used is not None else now - started) > limit.cpu:
                kind = "CPU time" if used is not None else "time (CPU time unknown here)"
                stopped = f"more than {limit.cpu:.0f} s of {kind}"
            elif limit.idle is not None and used is not None and now - busy_at > limit.idle:
                stopped = f"no CPU time used for {limit.idle:.0f} s"
            if stopped:
                _kill(proc)
                proc.wait()
                break
            if on_poll is not None:
                on_poll(now - started)
    except BaseException:  # Ctrl-C: its processes, in a group of their own, are not told
        _kill(proc)
        proc.wait()
        raise
    finally:
        with _LOCK:
            _RUNNING.discard(proc)
    seconds = time.monotonic() - started
    reader.join(timeout=10)
    if reader.is_alive():  # a process a test left behind holds the output open
        _kill(proc)
        reader.join()
    stdout = "".join(chunks)
    if stopped:
        return TestRun(None, "", seconds, [], stdout, cpu, stopped)
    failed = re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", stdout, re.M)
    lines = stdout.strip().splitlines()
    summary = failed[0] if failed else (lines[-1] if lines else "")
    return TestRun(proc.returncode, summary, seconds, failed, stdout, cpu)


def judge(
    mutants: Sequence[Mutant],
    tests_of: Callable[[Mutant], Sequence[str]],
    compiles: Callable[[Mutant, str], bool],
    equivalents: dict[str, str],
    jobs: int = 2,
    timeout_of: Callable[[Mutant], float] = lambda m: 120.0,
    root: Path = ROOT,
    progress: Callable[[Outcome, int, int], None] | None = None,
    pool: queue.Queue[Path] | None = None,
    waiting: Callable[[int, int], None] | None = None,
) -> list[Outcome]:
    """Apply each mutant in a workspace copy, run its tests, and say what became of it, in
    the order of `mutants`.

    `timeout_of(m)`: the CPU seconds the tests of m may use (see `Limit`). `progress` is
    called as each mutant is judged (in the order they finish), `waiting(done, total)` when
    none has been for PROGRESS_EVERY seconds. `pool` holds the workspaces (copies of
    `root`); without it, `jobs` copies are made.
    """
    if pool is None:
        with workspaces(max(1, jobs), root) as made:
            return judge(
                mutants,
                tests_of,
                compiles,
                equivalents,
                jobs,
                timeout_of,
                root,
                progress,
                made,
                waiting,
            )
    originals: dict[str, str] = {}
    for m in mutants:
        if m.path not in originals:
            originals[m.path] = (root / m.path).read_text(encoding="utf-8")
    total = len(mutants)

    def one(m: Mutant) -> Outcome:
        text = apply_mutant(originals[m.path], m)
        if not compiles(m, text):
            return Outcome(m, COMPILER)
        assert pool is not None
        ws = pool.get()
        target = ws / m.path
        try:
            target.write_text(text, encoding="utf-8")
            run = run_tests(ws, tests_of(m), Limit(cpu=timeout_of(m)))
        finally:
            target.write_text(originals[m.path], encoding="utf-8")
            pool.put(ws)
        if run.code is None:
            return Outcome(m, TIMEOUT, run.stopped, run.seconds)
        if run.code == 0:
            status = EQUIVALENT if m.id in equivalents else SURVIVED
            return Outcome(m, status, equivalents.get(m.id, ""), run.seconds)
        detail = run.summary if run.code == 1 else f"pytest exit {run.code}"
        return Outcome(m, KILLED, detail, run.seconds)

    ex = ThreadPoolExecutor(max_workers=max(1, jobs))
    done: dict[int, Outcome] = {}
    try:
        futures: dict[Future[Outcome], int] = {ex.submit(one, m): i for i, m in enumerate(mutants)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=PROGRESS_EVERY, return_when=FIRST_COMPLETED)
            if not finished and waiting is not None:
                waiting(len(done), total)
            for future in sorted(finished, key=lambda f: futures[f]):
                done[futures[future]] = future.result()
                if progress is not None:
                    progress(done[futures[future]], len(done), total)
    finally:  # on Ctrl-C: run no more mutants and stop the test runs under way
        ex.shutdown(wait=False, cancel_futures=True)
        with _LOCK:
            for proc in _RUNNING:
                _kill(proc)
        ex.shutdown(wait=True)
    return [done[i] for i in range(total)]


def names_around(text: str, line: int) -> set[str]:
    """The module-level names a line of Python stands in: its function and class (every
    level, public or not), the way a test file names what it exercises."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.lineno <= line <= (node.end_lineno or node.lineno):
                found.add(node.name.lstrip("_"))
    return {n for n in found if len(n) > 3}


def first_to_judge(
    selection: Sequence[str], mutant: Mutant, root: Path = ROOT, focused: bool = False
) -> list[str]:
    """`selection` (test files, then pytest options) with the files that name what the
    mutant changes first: its module or a function or class around it. With `-x` a killing
    test then comes early instead of after the whole suite (a survivor still runs all).
    `focused`: only those files (none when no file names it: the caller leaves it
    unjudged), so that a survivor costs the tests of its module, not the whole suite (CI)."""
    files = [f for f in selection if not f.startswith("-")]
    options = [f for f in selection if f.startswith("-")]
    path = Path(mutant.path)
    around = names_around((root / mutant.path).read_text(encoding="utf-8"), mutant.line)
    # focused: the module by its package too (`blocks.deal`, not every file saying "deal")
    module = f"{path.parent.name}.{path.stem}" if focused else path.stem
    words = {module, *around}
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b")

    def names_it(test_file: str) -> bool:
        return bool(pattern.search((root / test_file).read_text(encoding="utf-8")))

    near = [f for f in files if names_it(f)]
    if focused:
        return [*near, *options]
    return [*near, *(f for f in files if f not in near), *options]


def sample(mutants: Sequence[Mutant], n: int | None, seed: int) -> list[Mutant]:
    """A deterministic random sample of n mutants (all of them when n is None), in file order."""
    pool = sorted(mutants, key=lambda m: (m.path, m.start, m.id))
    if n is None or n >= len(pool):
        return pool
    chosen = random.Random(seed).sample(range(len(pool)), n)
    return [pool[i] for i in sorted(chosen)]


@dataclass
class Baseline:
    """The unmutated run: the CPU seconds one pytest process takes on the tests kept (start-up
    and collection included), the wall-clock seconds the run took, and the pytest arguments
    leaving tests out (those failing unmutated, and with --quick the slow ones)."""

    cpu: float
    seconds: float
    args: list[str]


def baseline_from(path: str, tests: Sequence[str], slow: float | None = None) -> Baseline | None:
    """The unmutated run read from a test run's `--timings-to` file (see `mutation.timing`)
    instead of run again: the same figures as `baseline`, None when the file is missing,
    unfinished or leaves out one of `tests`."""
    run = timing.read_run(path)
    if run is None:
        return None
    took, failed, processes = run
    files = set(tests)
    if not files <= {ident.split("::")[0] for ident in took}:
        return None
    args: list[str] = []
    for ident in sorted(failed):
        say(f"note: {ident} failed in the test run; it judges no mutant")
        args.append(f"--deselect={ident}")
    left_out = set(failed)
    if slow is not None:
        slow_ids = sorted(i for i, t in took.items() if t > slow and i not in left_out)
        if slow_ids:
            say(f"note: --quick leaves out {len(slow_ids)} tests taking more than {slow:g} s")
        left_out.update(slow_ids)
        args += [f"--deselect={i}" for i in slow_ids if i.split("::")[0] in files]
    overhead = max(0.0, sum(processes) - sum(took.values())) / len(processes)
    kept = sum(t for i, t in took.items() if i not in left_out and i.split("::")[0] in files)
    say(f"  unmutated tests: {len(took)} timed in {path} (not run again)")
    return Baseline(overhead + kept, 0.0, args)


def baseline(
    pool: queue.Queue[Path],
    tests: Sequence[str],
    slow: float | None = None,
    jobs: int = 1,
) -> Baseline:
    """Run the unmutated tests once, on `jobs` processes (pytest-xdist), with a progress line
    every PROGRESS_EVERY seconds. The run has no time limit (only a hang stops it).

    Tests that fail before any mutation cannot judge a mutant (someone may be editing them):
    they are deselected, and a note says so. With `slow` (a quick run), so is every test
    taking more than that many seconds of CPU time: CPU time, so that the same tests are left
    out on an idle and on a busy machine (see `mutation.timing`).
    """
    ws = pool.get()
    fd, name = tempfile.mkstemp(prefix="mutation-timing-", suffix=".jsonl")
    os.close(fd)
    extra = ["-p", "mutation.timing", "--tb=short"]
    workers = jobs if jobs > 1 and importlib.util.find_spec("xdist") is not None else 1
    if workers > 1:
        extra += ["-n", str(workers)]
    shown = [0.0]

    def on_poll(elapsed: float) -> None:
        if elapsed - shown[0] >= PROGRESS_EVERY:
            shown[0] = elapsed
            collected, took = timing.read(name)
            of = f" of {collected}" if collected else ""
            say(f"  unmutated tests: {len(took)}{of} done, {clock(elapsed)}")

    try:
        run = run_tests(ws, tests, Limit(cpu=None), False, extra, {timing.ENV: name}, on_poll)
        collected, took = timing.read(name)
    finally:
        pool.put(ws)
        os.unlink(name)
    if run.code is None:
        raise SystemExit(f"the unmutated tests were stopped: {run.stopped}")
    say(f"  unmutated tests: {len(took)} of {collected} done in {clock(run.seconds)}")
    args: list[str] = []
    for ident in run.failed:
        say(f"note: {ident} fails unmutated; it judges no mutant")
        args.append(f"--deselect={ident}" if "::" in ident else f"--ignore={ident}")
    if run.code not in (0, 1) and not run.failed:
        raise SystemExit(f"the unmutated tests cannot run: {run.summary}")
    left_out = set(run.failed)
    if slow is not None:
        slow_ids = sorted(i for i, t in took.items() if t > slow and i not in left_out)
        if slow_ids:
            say(f"note: --quick leaves out {len(slow_ids)} tests taking more than {slow:g} s")
        left_out.update(slow_ids)
        args += [f"--deselect={i}" for i in slow_ids]
    # one process's CPU time besides the tests themselves (start-up, collection), and the
    # tests kept: what a mutant's run of them takes
    measured = run.cpu if run.cpu is not None else run.seconds * workers
    if measured < sum(took.values()):  # the samples missed the run's end: its clock time
        measured = run.seconds * workers
    overhead = max(0.0, measured - sum(took.values())) / workers
    cpu = overhead + sum(t for i, t in took.items() if i not in left_out)
    return Baseline(cpu, run.seconds, args)
