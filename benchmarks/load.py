"""Benchmark: how long a variant takes to load, cold and warm, beside the targets.

Run:  python benchmarks/load.py [--variant NAME ...] [--runs 3] [--repeat 20]

For each shipped variant it prints
  cold: in a fresh interpreter, `import trickcore` plus the first `load_variant` (its two
        parts beside it), the median of `--runs` interpreters; target <= 60 ms;
  warm: `load_variant` again in the same process, the median of `--repeat` loads; target
        <= 5 ms;
each beside the same figure without the means that make it fast: cold with every file
parsed by lark (instead of read from its syntax tree made ahead of time, in
`variants/trees/`) and lark's parser built from the grammar (instead of loaded
from the tables shipped in the package), warm with every file of the `extends` chain parsed
again instead of kept from the first load.

The fresh interpreters start with trickcore's bytecode already compiled, as in an installed
package: they run with PYTHONPYCACHEPREFIX set to a folder private to this run (made by one
interpreter before the measured ones, removed at the end), so that a checkout run with
PYTHONDONTWRITEBYTECODE=1 does not measure compiling every module's source. The figure
without compiled bytecode is printed once, at the end, for the first variant.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import trickcore

COLD_TARGET_MS = 60.0
WARM_TARGET_MS = 5.0

# One fresh interpreter: prints the milliseconds of `import trickcore` and of the first load.
CHILD = """
import sys, time
t0 = time.perf_counter()
import trickcore
t1 = time.perf_counter()
if sys.argv[2] == "without":
    try:
        from trickcore.language import parser, tables
    except ImportError:  # a revision from before the shipped tables
        pass
    else:
        tables.shipped_parser = lambda text=None: None
        parser._DOCUMENTS.max_chars = 0
    try:
        from trickcore.language import preparsed
    except ImportError:  # a revision from before the trees made ahead of time
        pass
    else:
        preparsed.PARSED_DIR = preparsed.PARSED_DIR / "none"
t2 = time.perf_counter()
trickcore.load_variant(sys.argv[1])
t3 = time.perf_counter()
print((t1 - t0) * 1000, (t3 - t2) * 1000)
"""


def cold_ms(name: str, mode: str, env: dict[str, str]) -> tuple[float, float]:
    """(import ms, first load ms) in a fresh interpreter; mode "with" or "without" the means."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, name, mode],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout.split()
    return float(out[0]), float(out[1])


def cold_median(name: str, mode: str, env: dict[str, str], runs: int) -> tuple[float, float]:
    """The run with the median total of `runs` fresh interpreters: (import ms, load ms)."""
    times = sorted((cold_ms(name, mode, env) for _ in range(runs)), key=sum)
    return times[len(times) // 2]


def warm_ms(name: str, repeat: int, keep_documents: bool = True) -> float:
    """Median time of `load_variant` once the variant was loaded in this process; with
    keep_documents=False, every file is parsed again (the parser itself stays loaded)."""
    documents = _document_cache()
    saved = documents.max_chars if documents is not None else 0
    if documents is not None and not keep_documents:
        documents.clear()
        documents.max_chars = 0
    try:
        trickcore.load_variant(name)
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            trickcore.load_variant(name)
            times.append((time.perf_counter() - t) * 1000)
    finally:
        if documents is not None:
            documents.max_chars = saved
    return statistics.median(times)


def _document_cache() -> Any:
    """The parser's cache of parsed files, or None in a revision without one."""
    from trickcore.language import parser

    return getattr(parser, "_DOCUMENTS", None)


def mark(ms: float, target: float) -> str:
    """The figure, with '!' when it misses the target."""
    return f"{ms:8.1f}{'!' if ms > target else ' '}"


def main() -> None:
    """Print the figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", action="append", help="only these (default: every shipped one)")
    p.add_argument("--runs", type=int, default=3, help="fresh interpreters per cold figure")
    p.add_argument("--repeat", type=int, default=20, help="loads per warm figure")
    args = p.parse_args()
    names = args.variant or trickcore.list_variants()
    with tempfile.TemporaryDirectory(prefix="trickcore-bench-bytecode-") as pycache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = pycache
        cold_ms(names[0], "with", env)  # compiles the bytecode the measured runs find
        print(
            f"cold: fresh interpreter, import + first load_variant, median of {args.runs}; "
            f"warm: load_variant again, median of {args.repeat}. '!' marks a missed target."
        )
        print(
            "without: cold with the parser built from the grammar (no shipped tables), "
            "warm with every file parsed again (nothing kept)."
        )
        header = (
            f"{'variant':38} {'import':>8} {'1st load':>9} {'cold ms':>9} {'target':>7} "
            f"{'without':>8} | {'warm ms':>9} {'target':>7} {'without':>8}"
        )
        print(header)
        print("-" * len(header))
        colds, warms = [], []
        for name in names:
            imp, load = cold_median(name, "with", env, args.runs)
            imp0, load0 = cold_median(name, "without", env, args.runs)
            warm = warm_ms(name, args.repeat)
            warm0 = warm_ms(name, args.repeat, keep_documents=False)
            colds.append(imp + load)
            warms.append(warm)
            print(
                f"{name:38} {imp:8.1f} {load:9.1f} {mark(imp + load, COLD_TARGET_MS)}"
                f"{COLD_TARGET_MS:7.0f} {imp0 + load0:8.1f} | {mark(warm, WARM_TARGET_MS)}"
                f"{WARM_TARGET_MS:7.0f} {warm0:8.1f}"
            )
        missed_cold = sum(c > COLD_TARGET_MS for c in colds)
        missed_warm = sum(w > WARM_TARGET_MS for w in warms)
        print(
            f"\ncold: median {statistics.median(colds):.1f} ms, worst {max(colds):.1f} ms, "
            f"{missed_cold} of {len(names)} over {COLD_TARGET_MS:.0f} ms; warm: median "
            f"{statistics.median(warms):.1f} ms, worst {max(warms):.1f} ms, {missed_warm} of "
            f"{len(names)} over {WARM_TARGET_MS:.0f} ms"
        )
    plain = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    plain.pop("PYTHONPYCACHEPREFIX", None)
    imp, load = cold_median(names[0], "with", plain, args.runs)
    print(
        f"cold without compiled bytecode ({names[0]}): {imp + load:.1f} ms "
        f"(import {imp:.1f} + first load {load:.1f})"
    )


if __name__ == "__main__":
    main()
