"""Command line: python -m native {build,compare,test,check} (see `--help`).

build     compile a copy of the checkout into build/native (kept until a source changes)
compare   trace random matches of every shipped variant with both engines; they must agree
test      run pytest against the compiled copy (extra arguments go to pytest)
check     build, compare, and run the engine's tests against the compiled copy (CI)

No step has a time limit; the long ones print their progress (what runs, n of N, the time
elapsed), so that a slow or busy machine shows it is working.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from . import DEFAULT_DEST, ROOT, NativeBuildError, build, build_wheel, compiled_sources, unpack

# the tests `check` runs against the compiled engine: every numbered rule of every game, and
# the engine's API under any sequence of calls, copies, integer ids, untrusted input, worlds
CHECK_TESTS = (
    "tests/test_rules_*.py",
    "tests/test_stateful_api.py",
    "tests/test_clone_and_ids.py",
    "tests/test_untrusted_engine.py",
    "tests/test_worlds.py",
)
PROGRESS_EVERY = 30.0  # seconds between two progress lines of a long step
PROGRESS = "progress: "  # how native.trace's progress lines (on stderr) begin


def say(text: str) -> None:
    """Print a line at once (the output may be a pipe, read as it comes: CI's log)."""
    print(text, flush=True)


def clock(seconds: float) -> str:
    """A duration as people read it: 42 s, 3 min 05 s."""
    whole = int(round(seconds))
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


@contextmanager
def step(what: str) -> Iterator[None]:
    """Say what starts, a line every PROGRESS_EVERY seconds while it runs, and the time it
    took."""
    started = time.monotonic()
    say(what)
    done = threading.Event()

    def beat() -> None:
        while not done.wait(PROGRESS_EVERY):
            say(f"  ... still at it, {clock(time.monotonic() - started)}")

    beating = threading.Thread(target=beat, daemon=True)
    beating.start()
    try:
        yield
    finally:
        done.set()
        beating.join()
        say(f"  done in {clock(time.monotonic() - started)}")


def _env(dest: Path | None) -> dict[str, str]:
    """The environment of a child process using the compiled copy (dest) or the checkout."""
    env = dict(os.environ)
    path = str(dest) if dest is not None else str(ROOT)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [path, env.get("PYTHONPATH", "")]))
    env["TRICKCORE_EXPECT_ENGINE"] = "native" if dest is not None else "python"
    return env


def _trace(dest: Path | None, deals: int, shard: str = "0/1") -> dict[str, str]:
    """The hashes of the trace of one engine (the compiled copy in `dest`, or the checkout),
    of every variant or of one shard of them (K/N), with a progress line every
    PROGRESS_EVERY seconds (variants traced of all)."""
    want = "native" if dest is not None else "python"
    k, _, n = shard.partition("/")
    shown_as = f"{want} engine" + (f" (part {int(k) + 1} of {n})" if n != "1" else "")
    # -P: the current folder (the checkout, with its pure package) is not put on sys.path
    cmd = [sys.executable, "-P", "-m", "native.trace", "--deals", str(deals), "--progress"]
    cmd += ["--shard", shard]
    started = shown = time.monotonic()
    proc = subprocess.Popen(
        cmd,
        env=_env(dest),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    _TRACING.add(proc)
    assert proc.stdout is not None and proc.stderr is not None
    chunks: list[str] = []
    stdout = proc.stdout
    reader = threading.Thread(target=lambda: chunks.append(stdout.read()), daemon=True)
    reader.start()
    errors: list[str] = []
    total = "?"
    for line in proc.stderr:
        if not line.startswith(PROGRESS):
            errors.append(line)
            continue
        done, _, total = line[len(PROGRESS) :].strip().partition(" of ")
        now = time.monotonic()
        if now - shown >= PROGRESS_EVERY or done == total:
            shown = now
            say(f"  {shown_as}: {done} of {total} variants traced, {clock(now - started)}")
    proc.wait()
    _TRACING.discard(proc)
    reader.join()
    if proc.returncode != 0:
        raise SystemExit(f"the trace failed ({want}):\n{''.join(errors)}")
    out = json.loads("".join(chunks))
    if out["engine"] != want:
        raise SystemExit(f"the trace ran the {out['engine']} engine, not the {want} one")
    hashes: dict[str, str] = out["hashes"]
    return hashes


_TRACING: set[subprocess.Popen[str]] = set()  # the trace processes running


def _stop_traces(early: ThreadPoolExecutor) -> None:
    """Stop the traces under way (a build that failed, Ctrl-C) and let their thread go."""
    for proc in list(_TRACING):
        proc.kill()
    early.shutdown(wait=False, cancel_futures=True)


def compare(dest: Path, deals: int, pure_trace: Future[dict[str, str]] | None = None) -> int:
    """Trace both engines (at once, each in a process of its own: one per core), or only the
    compiled one when `pure_trace` holds the pure engine's (started earlier), in two halves
    at once; print what differs. 0 when they agree."""
    with ThreadPoolExecutor(max_workers=1) as ex:
        if pure_trace is None:
            tracing = ex.submit(_trace, None, deals)
            compiled = _trace(dest, deals)
        else:
            tracing = pure_trace
            other_half = ex.submit(_trace, dest, deals, "1/2")
            compiled = {**_trace(dest, deals, "0/2"), **other_half.result()}
        pure = tracing.result()
    differ = sorted(k for k in pure if compiled.get(k) != pure[k])
    if differ:
        print(f"the engines differ on {len(differ)} of {len(pure)} matches:")
        for key in differ[:20]:
            print(f"  {key} (variant/seed)")
        return 1
    print(f"the engines agree on {len(pure)} matches (every shipped variant, {deals} each)")
    return 0


def test(dest: Path, args: Sequence[str]) -> int:
    """Run pytest with the compiled copy first on sys.path; returns pytest's exit code."""
    cmd = [sys.executable, "-P", "-m", "pytest", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, env=_env(dest), cwd=ROOT).returncode


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run it."""
    parser = argparse.ArgumentParser(prog="python -m native", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["build", "compare", "test", "check"])
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="the compiled copy")
    parser.add_argument("--deals", type=int, default=2, help="matches per variant (compare)")
    args, rest = parser.parse_known_args(argv)
    if sys.version_info < (3, 11):  # the children run with -P (3.11): not the checkout's package
        print("python -m native needs Python 3.11 or later: the native build is not checked")
        return 0 if args.command == "check" else 2
    if not any(shutil.which(cc) for cc in (os.environ.get("CC", "cc"), "gcc", "clang")):
        print("no C compiler here: the native build is not made or checked")
        return 0 if args.command == "check" else 2
    started = time.monotonic()
    # the build compiles on one core: the pure engine's trace (step 2) runs on the other
    early = ThreadPoolExecutor(max_workers=1)
    pure_trace = early.submit(_trace, None, args.deals) if args.command == "check" else None
    try:
        if args.command == "check":
            modules = len(compiled_sources())
            with step(
                f"native check, step 1 of 3: the native wheel (mypyc, {modules} modules), "
                "the pure engine's trace beside it"
            ):
                wheel = build_wheel(ROOT / "build" / "native-dist")
            say(f"built {wheel.name}: every compiled module is in it")
            dest = unpack(wheel, ROOT / "build" / "native-wheel")
        else:
            with step(f"the compiled copy in {args.dest} (mypyc; made again if a source changed)"):
                dest = build(args.dest, quiet=False)
    except NativeBuildError as e:
        print(e, file=sys.stderr)
        _stop_traces(early)
        return 2
    except BaseException:  # anything else, Ctrl-C too: no trace goes on without us
        _stop_traces(early)
        raise
    if args.command == "build":
        print(f"compiled copy: {dest} (PYTHONPATH={dest} python -P ... uses it)")
        return 0
    if args.command == "compare":
        return compare(dest, args.deals)
    if args.command == "test":
        return test(dest, rest)
    files = sorted(str(p.relative_to(ROOT)) for g in CHECK_TESTS for p in ROOT.glob(g))
    say("native check, step 2 of 3: both engines trace random matches of every variant")
    status = compare(dest, args.deals, pure_trace)
    early.shutdown(wait=True)
    if status == 0:
        say(f"native check, step 3 of 3: {len(files)} test files against the compiled engine")
        status = test(dest, ["-n", "2", *files, *rest])
    result = "passed" if status == 0 else "failed"
    say(f"native check {result} in {clock(time.monotonic() - started)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
