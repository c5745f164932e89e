"""Benchmark: random-play speed and load + compile time of every shipped variant.

Run:  python benchmarks/run.py [--seconds 3] [--variant NAME ...] [--players N]
                                [--baseline REV [--rounds 3]] [--native]

For each variant it prints random-play deals per second in one process (a variant whose hand
size follows the deal number deals every deal number of a match in turn) through the
public API (new_deal, legal_actions, apply) beside its target, the same through the integer
path (legal_ids, apply_id) with issue 12's targets (Action objects / ids), the time to copy
a deal in mid-play (clone, µs, with its target where one is set), actions per deal, and the
time to load and compile the rules file (cold: the first load in a fresh process, grammar
included; warm: a later load). With `--baseline REV` (a git revision) it also measures the
same loop on that revision's code, checked out in a temporary git worktree, and prints the
ratio now / then for every variant the revision has. With `--native` every figure is of the
compiled engine (`python -m native build` first, then the same measurements against it; see
docs/howto/benchmarks.md, "A native build").
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trickcore

TARGETS = {  # deals per second through Action objects, from the issues that set them
    "tysiacha": 6000,
    "russisch-schnapsen": 5000,
    "russisch-schnapsen-36-ohne": 3500,
    "durak": 1000,
    "hearts": 2000,
    "spades": 2000,
    "sixty-six": 6000,
    "skat": 4000,
    "euchre": 5000,
    "oh-hell": 2000,
    "bridge": 2000,
    "preferans": 2000,
}
FAST_TARGETS = {  # issue 12: (Action objects, integer ids) deals per second
    "tysiacha": (14000, 20000),
    "russisch-schnapsen": (11000, 16000),
    "russisch-schnapsen-36-ohne": (7500, 11000),
    "durak": (2200, 3200),
}
CLONE_TARGETS = {"tysiacha": 5.0, "durak": 15.0}  # issue 12: µs to copy a deal in mid-play
ROOT = Path(__file__).resolve().parent.parent
NOW = Path(trickcore.__file__).resolve().parent.parent  # the code measured: checkout or copy
PLAYERS = {"durak": 3, "durak-36": 3}  # seated players measured (else the variant's first)


def match_length(variant: trickcore.Variant, players: int | None) -> int:
    """Deals in one random match when the deal's size follows the deal number (Oh Hell's
    hand sizes), so that the benchmark deals every size in turn; 1 otherwise."""
    if variant.model.deal.size is None:
        return 1
    rng = random.Random(0)
    m = variant.new_match(seed=0, players=players)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    return max(1, m.deals_played)


def id_deals(variant: trickcore.Variant, seconds: float, players: int | None) -> float:
    """Random play through the integer path (legal_ids / apply_id): deals per second."""
    rng = random.Random(1)
    seats = variant.check_seats(players)
    cycle = match_length(variant, players)
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() < start + seconds:
        for _ in range(50):
            d = variant.new_deal(
                seed=deals, dealer=deals % seats, players=players, deal_number=1 + deals % cycle
            )
            while not d.is_over:
                d.apply_id(rng.choice(d.legal_ids()))
            deals += 1
    return deals / (time.perf_counter() - start)


def clone_us(variant: trickcore.Variant, players: int | None, repeat: int = 2000) -> float:
    """Microseconds to copy a deal in mid-play (`clone`), the median of several deals."""
    rng = random.Random(3)
    times = []
    for seed in range(5):
        d = variant.new_deal(seed=seed, players=players, deal_number=5)
        steps = 0
        while not d.is_over and steps < 12:
            d.apply(rng.choice(d.legal_actions()))
            steps += 1
        if d.is_over:
            continue
        t = time.perf_counter()
        for _ in range(repeat):
            d.clone()
        times.append((time.perf_counter() - t) / repeat * 1e6)
    return sorted(times)[len(times) // 2] if times else float("nan")


def random_deals(
    variant: trickcore.Variant, seconds: float, players: int | None
) -> tuple[int, int, float]:
    """Play random deals for about `seconds`; return (deals, actions, elapsed)."""
    rng = random.Random(1)
    seats = variant.check_seats(players)
    cycle = match_length(variant, players)
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            d = variant.new_deal(
                seed=deals, dealer=deals % seats, players=players, deal_number=1 + deals % cycle
            )
            while not d.is_over:
                d.apply(rng.choice(d.legal_actions()))
                actions += 1
            deals += 1
    return deals, actions, time.perf_counter() - start


# The measuring loop as a script, so that a baseline revision's code runs exactly the same.
LOOP = """
import random, sys, time
sys.path.insert(0, sys.argv[1])
import trickcore
name, seconds = sys.argv[2], float(sys.argv[3])
players = None if sys.argv[4] == "-" else int(sys.argv[4])
if name not in trickcore.list_variants():
    print("-"); raise SystemExit
v = trickcore.load_variant(name)
seats = v.check_seats(players)
rng = random.Random(1)
deals = 0
start = time.perf_counter()
while time.perf_counter() < start + seconds:
    for _ in range(50):
        d = v.new_deal(seed=deals, dealer=deals % seats, players=players)
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        deals += 1
print(deals / (time.perf_counter() - start))
"""


def loop_rate(code_root: Path, name: str, seconds: float, players: int | None) -> float | None:
    """Deals per second of LOOP in a fresh interpreter importing trickcore from code_root."""
    out = subprocess.run(
        [sys.executable, "-c", LOOP, str(code_root), name, str(seconds), str(players or "-")],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(code_root)},
    ).stdout.strip()
    return None if out == "-" else float(out)


def compare(
    rev: str, names: list[str], seconds: float, players: int | None, rounds: int = 3
) -> None:
    """Print deals/s now and at `rev`: the same loop in fresh processes, the best of
    `rounds` runs of each, alternating (so that a busy machine hurts both alike)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
            capture_output=True,
            check=True,
        )
        try:
            print(
                f"\nnow against {rev} (deals/s, same loop, fresh processes, best of {rounds} "
                "alternating runs):"
            )
            print(f"{'variant':38} {'now':>9} {'then':>9} {'ratio':>7}")
            for name in names:
                seats = players or PLAYERS.get(name)
                nows, thens = [], []
                for _ in range(rounds):
                    nows.append(loop_rate(NOW, name, seconds, seats))
                    thens.append(loop_rate(tree, name, seconds, seats))
                if None in nows or None in thens:
                    print(f"{name:38} {max(n or 0 for n in nows):9.0f} {'(new)':>9}")
                    continue
                now, then = max(n or 0 for n in nows), max(n or 0 for n in thens)
                print(f"{name:38} {now:9.0f} {then:9.0f} {now / then:7.2f}")
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                capture_output=True,
            )


def cold_load_ms(name: str) -> float:
    """Load + compile time in a fresh interpreter (parser construction included)."""
    code = (
        f"import sys, time; sys.path.insert(0, {str(NOW)!r}); import trickcore; "
        f"t = time.perf_counter(); trickcore.load_variant({name!r}); "
        "print((time.perf_counter() - t) * 1000)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def warm_load_ms(name: str, repeat: int = 20) -> float:
    """Median load + compile time once the grammar is built."""
    trickcore.load_variant(name)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        trickcore.load_variant(name)
        times.append((time.perf_counter() - t) * 1000)
    return sorted(times)[len(times) // 2]


def main() -> None:
    """Print the figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--variant", action="append")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--baseline", help="a git revision to compare deals/s with")
    p.add_argument("--rounds", type=int, default=3, help="runs of each side in a comparison")
    p.add_argument("--native", action="store_true", help="measure the compiled engine")
    args = p.parse_args()
    if args.native and sys.version_info < (3, 11):
        raise SystemExit("--native needs Python 3.11 or later (the measuring run uses -P)")
    if args.native:  # build the compiled copy, then measure again with it first on the path
        sys.path.insert(0, str(ROOT))
        from native import build

        dest = build()
        argv = [a for a in sys.argv[1:] if a != "--native"]
        env = {**os.environ, "PYTHONPATH": str(dest)}
        # -P: not the checkout's own package from the current folder
        raise SystemExit(
            subprocess.run([sys.executable, "-P", __file__, *argv], env=env).returncode
        )
    print(f"engine: {trickcore.ENGINE} ({NOW / 'trickcore'})")
    names = args.variant or trickcore.list_variants()
    header = (
        f"{'variant':38} {'players':>7} {'deals/s':>9} {'target':>7} {'ids deals/s':>11} "
        f"{'issue 12':>13} {'clone µs':>9} {'actions/deal':>13} {'load cold ms':>13} "
        f"{'load warm ms':>13}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        v = trickcore.load_variant(name)
        players = args.players or PLAYERS.get(name)
        deals, actions, elapsed = random_deals(v, args.seconds, players)
        target = TARGETS.get(name)
        fast = FAST_TARGETS.get(name)
        fast_text = f"{fast[0]}/{fast[1]}" if fast else ""
        clone = clone_us(v, players)
        clone_text = f"{clone:.1f}" + (
            f"/{CLONE_TARGETS[name]:.0f}" if name in CLONE_TARGETS else ""
        )
        print(
            f"{name:38} {v.check_seats(players):7} {deals / elapsed:9.0f} {target or '':>7} "
            f"{id_deals(v, args.seconds / 2, players):11.0f} {fast_text:>13} {clone_text:>9} "
            f"{actions / deals:13.1f} {cold_load_ms(name):13.1f} {warm_load_ms(name):13.1f}"
        )
    if args.baseline:
        compare(args.baseline, names, args.seconds, args.players, args.rounds)


if __name__ == "__main__":
    main()
