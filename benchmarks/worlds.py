"""Benchmark: hidden worlds per second (`Variant.sample_worlds`, issue 13 item 2).

Run:  python benchmarks/worlds.py [--worlds 3000] [--seeds 3]

For several variants and phases of a deal (random play from seeded matches), it prints the
time to set up the sampler for one observation (reference world, slots, probes, counting
table: paid once per call of `sample_worlds`) and the worlds drawn per second after it,
beside the target: >= 10,000 worlds/s for Tysiacha mid-play (trick play, some tricks done).
Figures are medians over the seeds; the machine's load shows in them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import trickcore
from trickcore.engine.worlds import WorldSampler

# (variant, phase label, condition on the deal to stop at, players)
CASES = [
    ("tysiacha", "mid-play", lambda d: d.phase == "play" and len(d.tricks) >= 3, None),
    ("tysiacha", "auction", lambda d: d.phase == "bid" and len(d.history) >= 2, None),
    ("sixty-six", "mid-play", lambda d: d.phase == "play" and len(d.tricks) >= 3, None),
    ("russisch-schnapsen", "mid-play", lambda d: d.phase == "play" and len(d.tricks) >= 3, 3),
    ("skat", "mid-play", lambda d: d.phase == "play" and len(d.tricks) >= 3, None),
    ("hearts", "mid-play", lambda d: d.phase == "play" and len(d.tricks) >= 4, None),
    ("bridge", "mid-play", lambda d: d.phase == "play" and len(d.tricks) >= 4, None),
    ("euchre", "mid-play", lambda d: d.phase == "play" and len(d.tricks) >= 2, None),
    ("durak", "early", lambda d: len(d.history) >= 6, 3),
]
TARGET = {("tysiacha", "mid-play"): 10_000}


def _observation(name: str, until, players: int | None, seed: int):
    variant = trickcore.load_variant(name)
    rng = random.Random(seed)
    match = variant.new_match(seed=seed, players=players)
    while not match.is_over and not until(match.current):
        match.apply(rng.choice(match.legal_actions()))
    if match.is_over:
        return variant, None, 0
    deal = match.current
    seat = (max(deal.declarer, deal.to_act, 0) + 1) % match.seats
    return variant, match.observation(seat), match.deals_played + 1


def main() -> None:
    """Print the setup time and the worlds per second of every case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=3000, help="worlds drawn per case")
    parser.add_argument("--seeds", type=int, default=3, help="deals per case")
    args = parser.parse_args()
    print(f"{'variant':20} {'phase':9} {'setup ms':>9} {'worlds/s':>9} {'target':>8}")
    for name, phase, until, players in CASES:
        setups, rates = [], []
        for seed in range(args.seeds):
            variant, obs, number = _observation(name, until, players, seed)
            if obs is None:
                continue
            start = time.perf_counter()
            try:
                sampler = WorldSampler(variant, obs, random.Random(seed), number)
            except trickcore.TrickcoreError as exc:
                print(f"  {name} seed {seed}: {exc}")
                continue
            ready = time.perf_counter()
            sampler.sample(args.worlds)
            done = time.perf_counter()
            setups.append((ready - start) * 1000)
            rates.append(args.worlds / (done - ready))
        if not rates:
            print(f"{name:20} {phase:9} {'-':>9} {'-':>9}")
            continue
        target = TARGET.get((name, phase))
        shown = f">= {target:,}" if target else ""
        print(
            f"{name:20} {phase:9} {statistics.median(setups):9.1f} "
            f"{statistics.median(rates):9,.0f} {shown:>8}"
        )


if __name__ == "__main__":
    main()
