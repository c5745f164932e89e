"""Command line: python -m native {build,compare,test,check} (see `--help`).

build     compile a copy of the checkout into build/native (kept until a source changes)
compare   trace random matches of every shipped variant with both engines; they must agree
test      run pytest against the compiled copy (extra arguments go to pytest)
check     build, compare, and run the engine's tests against the compiled copy (CI)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from . import DEFAULT_DEST, ROOT, NativeBuildError, build, build_wheel, unpack

# the tests `check` runs against the compiled engine: every numbered rule of every game, and
# the engine's API under any sequence of calls, copies, integer ids, untrusted input, worlds
CHECK_TESTS = (
    "tests/test_rules_*.py",
    "tests/test_stateful_api.py",
    "tests/test_clone_and_ids.py",
    "tests/test_untrusted_engine.py",
    "tests/test_worlds.py",
)


def _env(dest: Path | None) -> dict[str, str]:
    """The environment of a child process using the compiled copy (dest) or the checkout."""
    env = dict(os.environ)
    path = str(dest) if dest is not None else str(ROOT)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [path, env.get("PYTHONPATH", "")]))
    env["TRICKCORE_EXPECT_ENGINE"] = "native" if dest is not None else "python"
    return env


def _trace(dest: Path | None, deals: int) -> dict[str, str]:
    # -P: the current folder (the checkout, with its pure package) is not put on sys.path
    cmd = [sys.executable, "-P", "-m", "native.trace", "--deals", str(deals)]
    done = subprocess.run(cmd, env=_env(dest), capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"the trace failed ({'native' if dest else 'python'}):\n{done.stderr}")
    out = json.loads(done.stdout)
    want = "native" if dest is not None else "python"
    if out["engine"] != want:
        raise SystemExit(f"the trace ran the {out['engine']} engine, not the {want} one")
    hashes: dict[str, str] = out["hashes"]
    return hashes


def compare(dest: Path, deals: int) -> int:
    """Trace both engines; print what differs. 0 when they agree."""
    pure = _trace(None, deals)
    compiled = _trace(dest, deals)
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
    parser.add_argument("--deals", type=int, default=3, help="matches per variant (compare)")
    args, rest = parser.parse_known_args(argv)
    if sys.version_info < (3, 11):  # the children run with -P (3.11): not the checkout's package
        print("python -m native needs Python 3.11 or later: the native build is not checked")
        return 0 if args.command == "check" else 2
    if not any(shutil.which(cc) for cc in (os.environ.get("CC", "cc"), "gcc", "clang")):
        print("no C compiler here: the native build is not made or checked")
        return 0 if args.command == "check" else 2
    try:
        if args.command == "check":
            wheel = build_wheel(ROOT / "build" / "native-dist")
            print(f"built {wheel.name}: every compiled module is in it")
            dest = unpack(wheel, ROOT / "build" / "native-wheel")
        else:
            dest = build(args.dest, quiet=False)
    except NativeBuildError as e:
        print(e, file=sys.stderr)
        return 2
    if args.command == "build":
        print(f"compiled copy: {dest} (PYTHONPATH={dest} python -P ... uses it)")
        return 0
    if args.command == "compare":
        return compare(dest, args.deals)
    if args.command == "test":
        return test(dest, rest)
    files = sorted(str(p.relative_to(ROOT)) for g in CHECK_TESTS for p in ROOT.glob(g))
    return compare(dest, args.deals) or test(dest, ["-n", "2", *files, *rest])


if __name__ == "__main__":
    sys.exit(main())
