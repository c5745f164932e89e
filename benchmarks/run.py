"""Benchmark: random-play speed and load + compile time of every shipped variant.

Run:  python benchmarks/run.py [--seconds 3] [--variant NAME ...] [--players N]

For each variant it prints random-play deals per second in one process through the
public API (new_deal, legal_actions, apply), actions per deal, and the time to load and
compile the rules file (cold: the first load in a fresh process, grammar included; warm:
a later load).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time

import trickcore

TARGETS = {  # deals per second, from the issues
    "tysiacha": 6000,
    "russisch-schnapsen": 5000,
    "russisch-schnapsen-36-ohne": 3500,
    "durak": 1000,
}
PLAYERS = {"durak": 3, "durak-36": 3}  # seated players measured (else the variant's first)


def random_deals(
    variant: trickcore.Variant, seconds: float, players: int | None
) -> tuple[int, int, float]:
    """Play random deals for about `seconds`; return (deals, actions, elapsed)."""
    rng = random.Random(1)
    seats = variant.check_seats(players)
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            d = variant.new_deal(seed=deals, dealer=deals % seats, players=players)
            while not d.is_over:
                d.apply(rng.choice(d.legal_actions()))
                actions += 1
            deals += 1
    return deals, actions, time.perf_counter() - start


def cold_load_ms(name: str) -> float:
    """Load + compile time in a fresh interpreter (parser construction included)."""
    code = (
        "import time, trickcore; t = time.perf_counter(); "
        f"trickcore.load_variant({name!r}); print((time.perf_counter() - t) * 1000)"
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
    args = p.parse_args()
    names = args.variant or trickcore.list_variants()
    header = (
        f"{'variant':38} {'players':>7} {'deals/s':>9} {'target':>7} {'actions/deal':>13} "
        f"{'load cold ms':>13} {'load warm ms':>13}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        v = trickcore.load_variant(name)
        players = args.players or PLAYERS.get(name)
        deals, actions, elapsed = random_deals(v, args.seconds, players)
        target = TARGETS.get(name)
        print(
            f"{name:38} {v.check_seats(players):7} {deals / elapsed:9.0f} {target or '':>7} "
            f"{actions / deals:13.1f} {cold_load_ms(name):13.1f} {warm_load_ms(name):13.1f}"
        )


if __name__ == "__main__":
    main()
