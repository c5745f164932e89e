"""Command line: python -m mutation {rules,engine,ci} [options] (see `--help`)."""

from __future__ import annotations

import argparse
import queue
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .core import EQUIVALENT_FILE, Mutant, load_equivalents
from .engine import ENGINE_MODULES, engine_mutants
from .rules import rules_mutants
from .run import (
    COMPILER,
    EQUIVALENT,
    KILLED,
    ROOT,
    SURVIVED,
    TIMEOUT,
    Baseline,
    Outcome,
    baseline,
    baseline_from,
    clock,
    engine_tests,
    first_to_judge,
    judge,
    sample,
    say,
    tests_for_variants,
    workspaces,
)

CI_RULES_SAMPLE = 8  # the whole set: `python -m mutation rules` (release)
CI_ENGINE_SAMPLE = 2  # run on the tests that name them: a survivor is reported, never fails CI
CI_SEED = 1
QUICK_SLOW = 1.0  # CPU seconds: with --quick, tests taking more than this judge no mutant
NO_BASELINE_SECONDS = 30.0  # assumed CPU time of the unmutated tests with --no-baseline


def rules_compile(m: Mutant, text: str) -> bool:
    """Whether a mutated rules file still compiles (a TrickcoreError means it does not)."""
    import trickcore

    try:
        trickcore.variant_from_text(text, name=m.path, base_dir=ROOT / "variants")
    except trickcore.TrickcoreError:
        return False
    except Exception:  # a crash in the compiler: let the tests judge it  # noqa: BLE001
        return True
    return True


def python_compiles(m: Mutant, text: str) -> bool:
    """Whether a mutated module is still valid Python."""
    try:
        compile(text, m.path, "exec")
    except SyntaxError:
        return False
    return True


def all_rules_mutants(variants: Sequence[str], root: Path = ROOT) -> list[Mutant]:
    """The mutants of the named shipped variants' files."""
    out: list[Mutant] = []
    for name in variants:
        rel = f"variants/{name}.rules"
        out += rules_mutants((root / rel).read_text(encoding="utf-8"), rel)
    return out


def all_engine_mutants(modules: Sequence[str], root: Path = ROOT) -> list[Mutant]:
    """The mutants of the named engine modules."""
    out: list[Mutant] = []
    for rel in modules:
        out += engine_mutants((root / rel).read_text(encoding="utf-8"), rel)
    return out


def _snapshot(pool: queue.Queue[Path]) -> Path:
    ws = pool.get()
    pool.put(ws)
    return ws


def _progress(started: float) -> Callable[[Outcome, int, int], None]:
    """A line per mutant judged: n of N, what became of it, its seconds and the elapsed time
    (with 100 mutants or more, every survivor and every 25th only)."""

    def show(outcome: Outcome, done: int, total: int) -> None:
        if total < 100 or outcome.status in (SURVIVED, EQUIVALENT) or done % 25 == 0:
            m = outcome.mutant
            took = f"{outcome.seconds:.0f} s" if outcome.seconds else "-"
            say(
                f"  [{done}/{total}] {outcome.status:<9} {m.id}  ({m.kind})  {took};"
                f" {clock(time.monotonic() - started)} in all"
            )

    return show


def _waiting(started: float) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        say(f"  ... {done} of {total} mutants judged, {clock(time.monotonic() - started)}")

    return show


@contextmanager
def _workspaces(jobs: int) -> Iterator[queue.Queue[Path]]:
    """The workspaces of a command, made with a line saying so."""
    started = time.monotonic()
    say(f"copying the work tree into {jobs} temporary workspace(s)")
    with workspaces(jobs) as pool:
        say(f"  done in {clock(time.monotonic() - started)}")
        yield pool


def report(title: str, outcomes: Sequence[Outcome], group: str) -> tuple[int, float]:
    """Print a table per file and the survivors; return (non-equivalent survivors, score %)."""
    rows: dict[str, dict[str, int]] = {}
    for o in outcomes:
        key = o.mutant.path
        row = rows.setdefault(key, {})
        row[o.status] = row.get(o.status, 0) + 1
    cols = (KILLED, TIMEOUT, COMPILER, SURVIVED, EQUIVALENT)
    short = ("killed", "timeout", "compiler", "survived", "equiv.")
    print(f"\n{title}")
    print(f"{group:<52}{'mutants':>8}" + "".join(f"{c:>10}" for c in short) + f"{'score':>8}")
    totals = dict.fromkeys(cols, 0)
    for key, row in sorted(rows.items()):
        n = sum(row.values())
        for c in cols:
            totals[c] += row.get(c, 0)
        print(f"{key:<52}{n:>8}" + "".join(f"{row.get(c, 0):>10}" for c in cols) + _score(row))
    n = sum(totals.values())
    print(f"{'total':<52}{n:>8}" + "".join(f"{totals[c]:>10}" for c in cols) + _score(totals))
    survivors = [o for o in outcomes if o.status == SURVIVED]
    if survivors:
        print(f"\nsurviving mutants ({len(survivors)}): a test should fail on each")
        for o in survivors:
            print(f"  {o.mutant.id}  ({o.mutant.kind})")
    caught = totals[KILLED] + totals[TIMEOUT] + totals[COMPILER]
    judged = n - totals[EQUIVALENT]
    return len(survivors), 100.0 * caught / judged if judged else 100.0


def _score(row: dict[str, int]) -> str:
    judged = sum(row.values()) - row.get(EQUIVALENT, 0)
    caught = row.get(KILLED, 0) + row.get(TIMEOUT, 0) + row.get(COMPILER, 0)
    return f"{100.0 * caught / judged if judged else 100.0:>7.1f}%"


def stale_equivalents(mutants: Sequence[Mutant], equivalents: dict[str, str]) -> list[str]:
    """Listed equivalent ids of these files that no current mutant has (lines moved?)."""
    paths = {m.path for m in mutants}
    ids = {m.id for m in mutants}
    return [i for i in equivalents if i.split(":")[0] in paths and i not in ids]


class _Session:
    """The workspaces of one command, the tree they copy, and the unmutated run of the tests."""

    def __init__(self, pool: queue.Queue[Path], args: argparse.Namespace) -> None:
        self.pool = pool
        self.snap = _snapshot(pool)  # every mutant is made from and run on copies of this
        self.quick = bool(getattr(args, "quick", False))
        self.jobs = max(1, int(getattr(args, "jobs", 1)))
        self._baseline: Baseline | None = None
        if getattr(args, "no_baseline", False):
            self._baseline = Baseline(NO_BASELINE_SECONDS, 0.0, [])
        self.timings = getattr(args, "timings", None)

    def baseline(self) -> tuple[float, list[str]]:
        """(CPU seconds of one run of the tests kept, pytest arguments deselecting the tests
        that fail unmutated and with --quick the slow ones), run once."""
        if self._baseline is None and self.timings:
            self._baseline = baseline_from(
                self.timings, engine_tests(self.snap), QUICK_SLOW if self.quick else None
            )
            if self._baseline is None:
                say(f"note: {self.timings} holds no finished run of every test file")
        if self._baseline is None:
            tests = engine_tests(self.snap)
            workers = f", {self.jobs} processes" if self.jobs > 1 else ""
            say(f"the unmutated tests: {len(tests)} test files{workers} (no time limit)")
            self._baseline = baseline(
                self.pool, tests, QUICK_SLOW if self.quick else None, self.jobs
            )
            say(
                f"unmutated: {len(tests)} test files, {self._baseline.cpu:.0f} s of CPU time"
                " for the tests that judge mutants (their limits derive from it)"
            )
        return self._baseline.cpu, self._baseline.args


def cmd_rules(args: argparse.Namespace, session: _Session | None = None) -> int:
    """Mutate the shipped rules files; 1 when a non-equivalent mutant survives."""
    names = args.variant or sorted(tests_for_variants())
    if args.list:
        for m in sample(all_rules_mutants(names), args.sample, args.seed):
            print(f"{m.id}  ({m.kind})")
        return 0
    if session is None:
        with _workspaces(max(1, args.jobs)) as pool:
            return cmd_rules(args, _Session(pool, args))
    tests = tests_for_variants(session.snap)
    unknown = [n for n in names if n not in tests]
    if unknown:
        sys.exit(f"unknown variant {', '.join(unknown)}; shipped: {', '.join(sorted(tests))}")
    mutants = all_rules_mutants(names, session.snap)
    chosen = sample(mutants, args.sample, args.seed)
    equivalents = load_equivalents()
    if args.sample is None:
        for stale in stale_equivalents(mutants, equivalents):
            print(f"note: {EQUIVALENT_FILE.name} lists {stale!r}, which no longer exists")
    secs, deselect = session.baseline()
    selection = {f"variants/{n}.rules": [*tests[n], *deselect] for n in names}
    for n in names:
        print(f"  {n}: judged by {', '.join(f.split('/')[-1] for f in tests[n])}")
    limit = max(60.0, 3 * secs + 20)
    say(
        f"{len(chosen)} of {len(mutants)} rules-file mutants, {args.jobs} workers,"
        f" each run stopped after {limit:.0f} s of CPU time"
    )
    started = time.monotonic()
    outcomes = judge(
        chosen,
        lambda m: selection[m.path],
        rules_compile,
        equivalents,
        jobs=args.jobs,
        timeout_of=lambda m: limit,
        root=session.snap,
        progress=_progress(started),
        pool=session.pool,
        waiting=_waiting(started),
    )
    survivors, score = report("rules files", outcomes, "rules file")
    print(f"\nrules-file mutation score {score:.1f}%; {survivors} non-equivalent survivor(s)")
    return 1 if survivors else 0


def cmd_engine(args: argparse.Namespace, session: _Session | None = None) -> int:
    """Mutate the engine's Python; reports the score (exit 0 unless the tests cannot run)."""
    modules = args.module or list(ENGINE_MODULES)
    missing = [m for m in modules if not (ROOT / m).is_file()]
    if missing:
        sys.exit(f"no such module: {', '.join(missing)}")
    if args.list:
        for m in sample(all_engine_mutants(modules), args.sample, args.seed):
            print(f"{m.id}  ({m.kind})")
        return 0
    if session is None:
        with _workspaces(max(1, args.jobs)) as pool:
            return cmd_engine(args, _Session(pool, args))
    mutants = all_engine_mutants(modules, session.snap)
    chosen = sample(mutants, args.sample, args.seed)
    secs, deselect = session.baseline()
    selection = [*engine_tests(session.snap), *deselect]
    focused = bool(getattr(args, "focused", False))

    def tests_of(m: Mutant) -> list[str]:
        return first_to_judge(selection, m, session.snap, focused=focused)

    if focused:  # a mutant no test file names is left unjudged (the whole suite would run)
        unnamed = [m for m in chosen if all(f.startswith("-") for f in tests_of(m))]
        for m in unnamed:
            say(f"  not judged: {m.id} (no test file names its module, function or class)")
        chosen = [m for m in chosen if m not in unnamed]
    limit = max(90.0, 3 * secs + 30)
    say(
        f"{len(chosen)} of {len(mutants)} engine mutants, {args.jobs} workers,"
        f" each run stopped after {limit:.0f} s of CPU time"
    )
    started = time.monotonic()
    outcomes = judge(
        chosen,
        tests_of,
        python_compiles,
        load_equivalents(),
        jobs=args.jobs,
        timeout_of=lambda m: limit,
        root=session.snap,
        progress=_progress(started),
        pool=session.pool,
        waiting=_waiting(started),
    )
    report("engine", outcomes, "module")
    print(f"\nengine mutation score {outcome_score(outcomes):.1f}% ", end="")
    print(f"({len(chosen)} of {len(mutants)} mutants)")
    return 0


def outcome_score(outcomes: Sequence[Outcome]) -> float:
    """Caught mutants (killed, timed out, or refused by the compiler) per non-equivalent one."""
    judged = [o for o in outcomes if o.status != EQUIVALENT]
    caught = [o for o in judged if o.status in (KILLED, TIMEOUT, COMPILER)]
    return 100.0 * len(caught) / len(judged) if judged else 100.0


def cmd_ci(args: argparse.Namespace) -> int:
    """A small fixed sample of both kinds; 1 when a non-equivalent rules mutant survives."""
    rules_args = argparse.Namespace(
        variant=None, sample=args.rules_sample, seed=args.seed, jobs=args.jobs, list=False
    )
    engine_args = argparse.Namespace(
        module=None,
        sample=args.engine_sample,
        seed=args.seed,
        jobs=args.jobs,
        list=False,
        focused=True,
    )
    args.quick = True
    started = time.monotonic()
    with _workspaces(max(1, args.jobs)) as pool:
        session = _Session(pool, args)
        say("mutation ci, step 1 of 3:")
        session.baseline()
        say(f"mutation ci, step 2 of 3 ({clock(time.monotonic() - started)} so far):")
        status = cmd_rules(rules_args, session)
        say(f"mutation ci, step 3 of 3 ({clock(time.monotonic() - started)} so far):")
        cmd_engine(engine_args, session)
    result = "passed" if status == 0 else "failed (a rules-file mutant survived)"
    say(f"\nmutation ci {result} in {clock(time.monotonic() - started)}")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run one of the commands."""
    parser = argparse.ArgumentParser(
        prog="python -m mutation",
        description="Mutation testing of the shipped rules files and the engine.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser, default_sample: int | None) -> None:
        p.add_argument("--sample", type=int, default=default_sample, metavar="N")
        p.add_argument("--seed", type=int, default=CI_SEED, metavar="S")
        p.add_argument("--jobs", type=int, default=2, metavar="J")
        p.add_argument(
            "--quick",
            action="store_true",
            help=f"leave out the tests taking more than {QUICK_SLOW:g} s of CPU time"
            " (measured unmutated)",
        )
        p.add_argument(
            "--no-baseline",
            action="store_true",
            help="do not run the unmutated tests first (they are known to pass, as in CI)",
        )

    p_rules = sub.add_parser("rules", help="mutate the shipped rules files in variants/")
    p_rules.add_argument("--variant", action="append", metavar="NAME")
    p_rules.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    common(p_rules, None)
    p_engine = sub.add_parser("engine", help="mutate the engine's Python (trickcore/)")
    p_engine.add_argument("--module", action="append", metavar="trickcore/engine/deal.py")
    p_engine.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    p_engine.add_argument(
        "--focused",
        action="store_true",
        help="run each mutant only on the test files naming its module, function or class",
    )
    common(p_engine, None)
    p_ci = sub.add_parser("ci", help="a small fixed sample of both, for CI")
    p_ci.add_argument("--rules-sample", type=int, default=CI_RULES_SAMPLE, metavar="N")
    p_ci.add_argument("--engine-sample", type=int, default=CI_ENGINE_SAMPLE, metavar="N")
    p_ci.add_argument("--seed", type=int, default=CI_SEED, metavar="S")
    p_ci.add_argument("--jobs", type=int, default=2, metavar="J")
    p_ci.add_argument("--no-baseline", action="store_true", help="as for rules and engine")
    p_ci.add_argument(
        "--timings",
        metavar="PATH",
        help="the CPU time of each test from a test run just made of this tree (pytest -p"
        " mutation.timing --timings-to PATH), instead of running them again unmutated",
    )
    args = parser.parse_args(argv)
    # SIGTERM ends the run like Ctrl-C, so that the temporary copies are removed.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    handler = {"rules": cmd_rules, "engine": cmd_engine, "ci": cmd_ci}[args.command]
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
