"""Running mutants: a temporary copy of the repository per worker, pytest in a subprocess."""

from __future__ import annotations

import ast
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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

KILLED, SURVIVED, COMPILER, TIMEOUT, EQUIVALENT = (
    "killed",
    "survived",
    "caught by the compiler",
    "killed (timeout)",
    "equivalent",
)


@dataclass
class Outcome:
    """What became of one mutant: status, the test that failed first, seconds taken."""

    mutant: Mutant
    status: str
    detail: str = ""
    seconds: float = 0.0


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


def run_tests(
    workspace: Path,
    tests: Sequence[str],
    timeout: float,
    stop_first: bool = True,
    extra: Sequence[str] = (),
) -> tuple[int | None, str, float, list[str], str]:
    """pytest (-x) on `tests` inside the workspace.

    Returns the exit code (None on timeout), a summary (the first failing test), the seconds
    taken, the ids of every failing test and pytest's output.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = str(workspace)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("HYPOTHESIS_PROFILE", "ci")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, *tests]
    if stop_first:
        cmd.insert(3, "-x")
    started = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=workspace, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    with _LOCK:
        _RUNNING.add(proc)
    try:
        stdout, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None, "", time.monotonic() - started, [], ""
    finally:
        with _LOCK:
            _RUNNING.discard(proc)
    failed = re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", stdout, re.M)
    lines = stdout.strip().splitlines()
    summary = failed[0] if failed else (lines[-1] if lines else "")
    return proc.returncode, summary, time.monotonic() - started, failed, stdout


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
) -> list[Outcome]:
    """Apply each mutant in a workspace copy, run its tests, and say what became of it.

    `pool` holds the workspaces (copies of `root`); without it, `jobs` copies are made.
    """
    if pool is None:
        with workspaces(max(1, jobs), root) as made:
            return judge(
                mutants, tests_of, compiles, equivalents, jobs, timeout_of, root, progress, made
            )
    originals: dict[str, str] = {}
    for m in mutants:
        if m.path not in originals:
            originals[m.path] = (root / m.path).read_text(encoding="utf-8")
    results: list[Outcome] = []
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
            code, summary, secs, _, _ = run_tests(ws, tests_of(m), timeout_of(m))
        finally:
            target.write_text(originals[m.path], encoding="utf-8")
            pool.put(ws)
        if code is None:
            return Outcome(m, TIMEOUT, "", secs)
        if code == 0:
            status = EQUIVALENT if m.id in equivalents else SURVIVED
            return Outcome(m, status, equivalents.get(m.id, ""), secs)
        return Outcome(m, KILLED, summary if code == 1 else f"pytest exit {code}", secs)

    ex = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        for outcome in ex.map(one, mutants):
            results.append(outcome)
            if progress is not None:
                progress(outcome, len(results), total)
    finally:  # on Ctrl-C: run no more mutants and stop the test runs under way
        ex.shutdown(wait=False, cancel_futures=True)
        with _LOCK:
            for proc in _RUNNING:
                proc.kill()
        ex.shutdown(wait=True)
    return results


def sample(mutants: Sequence[Mutant], n: int | None, seed: int) -> list[Mutant]:
    """A deterministic random sample of n mutants (all of them when n is None), in file order."""
    pool = sorted(mutants, key=lambda m: (m.path, m.start, m.id))
    if n is None or n >= len(pool):
        return pool
    chosen = random.Random(seed).sample(range(len(pool)), n)
    return [pool[i] for i in sorted(chosen)]


def baseline(
    pool: queue.Queue[Path], tests: Sequence[str], slow: float | None = None
) -> tuple[float, list[str]]:
    """Run the unmutated tests once: (seconds, pytest arguments leaving some tests out).

    Tests that fail before any mutation cannot judge a mutant (someone may be editing them):
    they are deselected, and a note says so. With `slow`, so is every test taking longer
    than that many seconds (a quick run).
    """
    ws = pool.get()
    try:
        code, summary, secs, failed, output = run_tests(
            ws, tests, timeout=900, stop_first=False, extra=["--durations=0", "-vv"]
        )
    finally:
        pool.put(ws)
    if code is None:
        raise SystemExit("the unmutated tests take more than 900 s")
    args: list[str] = []
    for ident in failed:
        print(f"note: {ident} fails unmutated; it judges no mutant", flush=True)
        args.append(f"--deselect={ident}" if "::" in ident else f"--ignore={ident}")
    if code not in (0, 1) and not failed:
        raise SystemExit(f"the unmutated tests cannot run: {summary}")
    if slow is not None:
        took: dict[str, float] = {}
        for sec, ident in re.findall(
            r"^\s*([\d.]+)s (?:setup|call|teardown)\s+(\S.*?)\s*$", output, re.M
        ):
            took[ident] = took.get(ident, 0.0) + float(sec)
        slow_ids = sorted(i for i, t in took.items() if t > slow and i not in failed)
        if slow_ids:
            print(f"note: --quick leaves out {len(slow_ids)} tests slower than {slow:g} s")
        secs -= sum(took[i] for i in slow_ids)
        args += [f"--deselect={i}" for i in slow_ids]
    return secs, args
