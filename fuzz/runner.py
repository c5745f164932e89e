"""Running cases in forked children with a wall-clock timeout and a memory limit."""

from __future__ import annotations

import faulthandler
import json
import os
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from .cases import Case, safe_repr
from .child import run_case  # imported before any fork: children never re-read files

GRACE = 6  # a timeout waits at most this many times its wall-clock time for CPU time
CLASSES = ("ok", "library", "nonlibrary", "inconsistent", "timeout", "oom")
# inconsistent: accepted rules that verify finds the engine and its checker disagree on
FAILING = ("nonlibrary", "inconsistent", "timeout", "oom")


@attrs.define
class FuzzReport:
    """Totals per kind and class, and the failing outcomes with their cases."""

    counts: Counter[tuple[str, str]] = attrs.field(factory=Counter)
    slowest: list[tuple[float, str, str]] = attrs.field(factory=list)
    findings: list[dict[str, Any]] = attrs.field(factory=list)
    cases: int = 0
    seconds: float = 0.0
    stopped_early: bool = False

    @property
    def failed(self) -> int:
        """How many cases ended in a non-library exception, accepted rules that verify finds
        inconsistent, a timeout or out of memory."""
        return sum(n for (_, cls), n in self.counts.items() if cls in FAILING)

    def total(self, cls: str) -> int:
        """How many cases of every kind ended in class `cls`."""
        return sum(n for (_, c), n in self.counts.items() if c == cls)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "cases": self.cases,
            "stopped_early": self.stopped_early,
            "seconds": round(self.seconds, 1),
            "totals": {cls: self.total(cls) for cls in CLASSES},
            "by_kind": {f"{k}/{c}": n for (k, c), n in sorted(self.counts.items())},
            "slowest": [list(t) for t in sorted(self.slowest, reverse=True)[:10]],
            "findings": self.findings,
        }


def _child(case: Case, workdir: Path, memory_mb: int, timeout: float, fd: int) -> None:
    """In the forked child: limit memory, run the case, write the outcome, exit."""
    code = 0
    try:
        faulthandler.disable()  # a crash is reported by its signal, not dumped on stderr
        devnull = os.open(os.devnull, os.O_RDWR)
        for std in (0, 1, 2):
            os.dup2(devnull, std)
        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        cpu = int(timeout) + 2  # a backstop: the parent kills a child at `timeout` CPU seconds
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        workdir.mkdir(parents=True, exist_ok=True)
        os.chdir(workdir)
        outcome = run_case(case, workdir)
        payload = json.dumps(outcome, default=str).encode()
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view) :]
    except MemoryError:
        code = 3
    except BaseException:  # noqa: BLE001 - a child must never return into the parent's code
        code = 4
    os._exit(code)


@attrs.define
class _Running:
    case: Case
    pid: int
    fd: int
    started: float
    deadline: float
    chunks: list[bytes] = attrs.field(factory=list)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a running child has used so far, from /proc (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _finish(run: _Running, status: int | None) -> dict[str, Any]:
    raw = b"".join(run.chunks)
    if raw:
        try:
            outcome: dict[str, Any] = json.loads(raw)
            return outcome
        except ValueError:
            pass
    if status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
        return {"class": "oom", "stage": "?", "type": "MemoryError", "message": "(no report)"}
    if status is not None and os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU:
        return {
            "class": "timeout",
            "stage": "?",
            "type": "Timeout",
            "message": "the child used up its CPU time limit",
            "where": "?",
        }
    if status is not None and os.WIFSIGNALED(status):
        sig = signal.Signals(os.WTERMSIG(status)).name
        return {
            "class": "nonlibrary",
            "stage": "?",
            "type": "Crash",
            "message": f"the child died of {sig}",
            "where": "?",
        }
    code = os.WEXITSTATUS(status) if status is not None else "?"
    return {
        "class": "nonlibrary",
        "stage": "?",
        "type": "Crash",
        "message": f"the child exited {code} without a report",
        "where": "?",
    }


def preload() -> None:
    """Import every trickcore module before any fork, so that children never read module
    files that may have changed since the parent started (a half-upgraded library)."""
    import importlib
    import pkgutil

    import trickcore

    for info in pkgutil.walk_packages(trickcore.__path__, "trickcore."):
        if info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional extra that is not installed
            pass
    for name in ("rich.console", "rich.panel", "rich.table", "rich.progress", "rich.markup"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def run_cases(
    cases: Iterable[Case],
    jobs: int = 2,
    timeout: float = 10.0,
    memory_mb: int = 1024,
    out_dir: Path | None = None,
    progress: bool = False,
    max_seconds: float | None = None,
) -> FuzzReport:
    """Run every case in its own forked child, `jobs` at a time; save failing cases.

    With `max_seconds`, no case starts after that time (the report says it stopped early);
    an interrupt (Ctrl-C) also ends the run with the totals so far.
    """
    preload()
    report = FuzzReport()
    start = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix="fuzz-run-"))
    pending = iter(cases)
    running: dict[int, _Running] = {}
    exhausted = False
    previous = signal.signal(signal.SIGTERM, _interrupt)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:  # started in the background
        signal.signal(signal.SIGINT, _interrupt)
    try:
        while running or not exhausted:
            if max_seconds is not None and time.monotonic() - start > max_seconds:
                exhausted = report.stopped_early = True
            while not exhausted and len(running) < jobs:
                case = next(pending, None)
                if case is None:
                    exhausted = True
                    break
                r, w = os.pipe()
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:  # pragma: no cover - the child
                    os.close(r)
                    _child(case, root / case.ident, memory_mb, timeout, w)
                os.close(w)
                now = time.monotonic()
                running[r] = _Running(case, pid, r, now, now + timeout)
            if not running:
                break
            now = time.monotonic()
            wait = max(0.0, min(run.deadline for run in running.values()) - now)
            ready, _, _ = select.select(list(running), [], [], min(wait, 1.0))
            for fd in ready:
                run = running[fd]
                chunk = os.read(fd, 1 << 16)
                if chunk:
                    run.chunks.append(chunk)
                    continue
                os.close(fd)
                del running[fd]
                _, status = os.waitpid(run.pid, 0)
                _record(report, run.case, _finish(run, status), run.started, out_dir, progress)
            now = time.monotonic()
            for fd, run in list(running.items()):
                if now >= run.deadline:
                    # On a loaded machine a child may get little CPU: while it has used less
                    # CPU than the timeout, wait longer (up to GRACE times the timeout).
                    cpu = _cpu_seconds(run.pid)
                    if cpu is not None and cpu < timeout and now - run.started < GRACE * timeout:
                        run.deadline = now + max(0.5, timeout - cpu)
                        continue
                    os.kill(run.pid, signal.SIGKILL)
                    _, _, usage = os.wait4(run.pid, 0)
                    os.close(fd)
                    del running[fd]
                    cpu = usage.ru_utime + usage.ru_stime
                    outcome = {
                        "class": "timeout",
                        "stage": "?",
                        "type": "Timeout",
                        "message": f"no result within {now - run.started:.0f} s "
                        f"({cpu:.1f} s of CPU; the limit is {timeout:g} s)",
                        "where": "?",
                    }
                    _record(report, run.case, outcome, run.started, out_dir, progress)
    except KeyboardInterrupt:
        report.stopped_early = True
    finally:
        for run in running.values():
            os.kill(run.pid, signal.SIGKILL)
            os.waitpid(run.pid, 0)
        shutil.rmtree(root, ignore_errors=True)
        signal.signal(signal.SIGTERM, previous)
    report.seconds = time.monotonic() - start
    return report


def _record(
    report: FuzzReport,
    case: Case,
    outcome: dict[str, Any],
    started: float,
    out_dir: Path | None,
    progress: bool,
) -> None:
    cls = outcome["class"]
    seconds = time.monotonic() - started
    outcome["seconds"] = round(seconds, 2)
    report.slowest.append((round(seconds, 2), case.ident, case.label[:100]))
    report.slowest = sorted(report.slowest, reverse=True)[:10]
    report.cases += 1
    report.counts[(case.kind, cls)] += 1
    if progress and report.cases % 500 == 0:
        print(f"  ... {report.cases} cases, {report.failed} failing", flush=True)
    if cls not in FAILING:
        return
    finding = {"case": case.ident, "kind": case.kind, "label": case.label[:200], **outcome}
    if out_dir is not None:
        finding["saved"] = str(save_case(case, outcome, out_dir))
    report.findings.append(finding)


def save_case(case: Case, outcome: dict[str, Any], out_dir: Path) -> Path:
    """Write the case's input and outcome to out_dir; returns the input's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = out_dir / f"{outcome['class']}-{case.ident}"
    if case.kind in ("mutant", "grammar"):
        target = stem.with_suffix(".rules")
        target.write_bytes(case.data["rules"])
    elif case.kind == "save":
        target = stem.with_suffix(".json")
        if case.data["path"]:
            target.write_text(json.dumps({"load_match": case.data["path"]}))
        else:
            target.write_bytes(case.data["save"])
        for name, blob in case.data["extra"].items():
            (out_dir / f"{stem.name}-{name}").write_bytes(blob)
    elif case.kind == "api":
        target = stem.with_suffix(".py")
        target.write_text(api_repro(case) + "\n", encoding="utf-8")
    else:
        target = stem.with_suffix(".txt")
    info = {"label": case.label, **outcome}
    stem.with_suffix(".txt").write_text(json.dumps(info, indent=1, default=str), encoding="utf-8")
    return target


def api_repro(case: Case) -> str:
    """A Python snippet that reproduces an api case."""
    d = case.data
    lines = [
        "import random, trickcore",
        "from fuzz.child import play, materialize, _action_arg",
        f"game = trickcore.load_variant({d['variant']!r})",
        f"m = game.new_match(seed={d['seed']}, players={d['players']})",
        f"rng = random.Random({d['seed']})",
        f"play(m, rng, {d['prefix']})",
    ]
    args = safe_repr(d["args"])
    kwargs = safe_repr(d["kwargs"])
    if d["op"] == "apply":
        lines.append(f"m.apply(_action_arg(m, {args}[0], rng))")
    elif d["op"] in ("observation", "standing"):
        lines.append(f"m.{d['op']}(*materialize(game, {args}))")
    elif d["op"] == "refused_many":
        lines.append(f"for i in range({d['args'][0]}): m.apply(f'bid {{i}}{{i}} zz{{i}}')")
    else:
        lines.append(f"game.{d['op']}(*materialize(game, {args}), **materialize(game, {kwargs}))")
    return "\n".join(lines)
