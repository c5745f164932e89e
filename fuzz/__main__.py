"""`python -m fuzz`: generate cases, run each in a child process, print totals."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from .cases import KINDS, generate_cases
from .runner import CLASSES, FuzzReport, run_cases


def build_parser() -> argparse.ArgumentParser:
    """The command line of the fuzz harness."""
    p = argparse.ArgumentParser(
        prog="python -m fuzz", description="Fuzz trickcore's untrusted inputs."
    )
    p.add_argument("--cases", type=int, default=300, help="number of cases (default 300)")
    p.add_argument("--seed", type=int, default=0, help="seed of case generation (default 0)")
    p.add_argument("--jobs", type=int, default=2, help="children at a time (default 2)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per case (default 10)")
    p.add_argument("--memory", type=int, default=1024, help="MB of address space per case")
    p.add_argument(
        "--kind", nargs="+", choices=KINDS, default=list(KINDS), help="kinds of cases (all)"
    )
    p.add_argument(
        "--max-seconds", type=float, default=None, help="start no case after this many seconds"
    )
    p.add_argument("--out", default="fuzz-findings", help="folder for failing cases")
    p.add_argument("--json", default=None, help="also write the report as JSON to this file")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def print_report(report: FuzzReport, kinds: list[str]) -> None:
    """Totals per kind and class, then one line per distinct finding."""
    width = max(len(k) for k in kinds)
    col = max(len(c) for c in CLASSES)
    print(f"{'kind':<{width}}  " + "  ".join(f"{c:>{col}}" for c in CLASSES))
    for kind in kinds:
        row = "  ".join(f"{report.counts[(kind, c)]:>{col}}" for c in CLASSES)
        print(f"{kind:<{width}}  {row}")
    print(f"{'all':<{width}}  " + "  ".join(f"{report.total(c):>{col}}" for c in CLASSES))
    early = " (stopped early: time limit or interrupt)" if report.stopped_early else ""
    print(f"{report.cases} cases in {report.seconds:.0f} s{early}")
    slow = ", ".join(f"{ident} {sec:.1f} s" for sec, ident, _ in report.slowest[:3])
    print(f"slowest: {slow}")
    groups: Counter[tuple[str, str, str]] = Counter()
    first: dict[tuple[str, str, str], dict[str, object]] = {}
    for f in report.findings:
        key = (str(f["class"]), str(f.get("type")), str(f.get("where")))
        groups[key] += 1
        first.setdefault(key, f)
    if groups:
        print(f"\n{len(groups)} distinct findings (class, type, where: count, first case):")
    for key, n in groups.most_common():
        f = first[key]
        print(f"- {key[0]} {key[1]} at {key[2]}: {n}x, e.g. {f['case']} [{f['label']}]")
        print(f"    {str(f.get('message', ''))[:200]!r}")
        if f.get("saved"):
            print(f"    saved: {f['saved']}")


def main(argv: list[str] | None = None) -> int:
    """Run the fuzz harness; exit 1 on a non-library exception, accepted rules that verify
    finds inconsistent, a timeout or out of memory. `python -m fuzz web` is the attack run
    against a served table instead (`fuzz/web.py`)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["web"]:
        from .web import main as web_main

        return web_main(argv[1:])
    args = build_parser().parse_args(argv)
    kinds = [k for k in KINDS if k in args.kind]
    cases = generate_cases(args.cases, args.seed, tuple(kinds))
    report = run_cases(
        cases,
        jobs=args.jobs,
        timeout=args.timeout,
        memory_mb=args.memory,
        out_dir=Path(args.out),
        progress=not args.quiet,
        max_seconds=args.max_seconds,
    )
    print_report(report, kinds)
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_json(), indent=1, default=str))
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
