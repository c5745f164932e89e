"""Benchmark: the costs issue 12 sets limits on besides deals per second.

Run:  python benchmarks/api.py [--seconds 2] [--variant NAME ...] [--all] [--no-verify]

For each variant it prints
- the cost of applying canonical text against applying the `Action` object (the same random
  deals played both ways; target: text at most 15% dearer);
- `observation(seat)` in µs early in a deal, halfway and near its end (target: it does not
  grow with the length of the deal), and the length of the observation's `log` there;
- `trickcore verify NAME` with its default settings, in seconds (target: at most 10 s): the
  command itself, run as a user runs it (start-up, worker processes and all).

`--all` measures every shipped variant instead of the base games.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time

import trickcore

TEXT_LIMIT = 1.15  # text may cost at most 15% more than the Action object
VERIFY_LIMIT = 10.0  # seconds
BASE_GAMES = [
    "tysiacha",
    "russisch-schnapsen",
    "russisch-schnapsen-36-ohne",
    "durak",
    "sixty-six",
    "skat",
    "hearts",
    "spades",
    "euchre",
    "oh-hell",
    "bridge",
]


def play_seconds(variant: trickcore.Variant, deals: int, as_text: bool) -> float:
    """Seconds to play `deals` random deals (the same ones either way), applying each
    action as its text or as the Action object."""
    rng = random.Random(7)
    seats = variant.check_seats(None)
    start = time.perf_counter()
    for n in range(deals):
        d = variant.new_deal(seed=n, dealer=n % seats)
        while not d.is_over:
            action = rng.choice(d.legal_actions())
            d.apply(action.text if as_text else action)
    return time.perf_counter() - start


def text_overhead(variant: trickcore.Variant, seconds: float) -> float:
    """Text time / Action time on the same deals (best of three rounds each, the rounds in
    turn: a slower spell of a busy machine falls on both ways alike)."""
    deals = 20
    while play_seconds(variant, deals, False) < seconds / 6:
        deals *= 2
    by_action, by_text = [], []
    for _ in range(3):
        by_action.append(play_seconds(variant, deals, False))
        by_text.append(play_seconds(variant, deals, True))
    return min(by_text) / min(by_action)


def observation_us(variant: trickcore.Variant, repeat: int = 300) -> list[tuple[int, float]]:
    """(log length, µs per `observation(seat)`) at 10%, 50% and 90% of a random deal's
    actions: the median over a few deals."""
    rng = random.Random(3)
    points: list[list[tuple[int, float]]] = [[], [], []]
    for n in range(5):
        d = variant.new_deal(seed=n, dealer=0)
        history = []
        while not d.is_over:
            history.append(rng.choice(d.legal_actions()))
            d.apply(history[-1])
        length = len(history)
        for k, share in enumerate((0.1, 0.5, 0.9)):
            at = variant.new_deal(seed=n, dealer=0)
            for a in history[: max(1, int(length * share))]:
                at.apply(a.text)
            seat = max(at.to_act, 0)
            t = time.perf_counter()
            for _ in range(repeat):
                seen = at.observation(seat)
            us = (time.perf_counter() - t) / repeat * 1e6
            points[k].append((len(seen.log), us))
    return [sorted(p, key=lambda x: x[1])[len(p) // 2] for p in points]


def verify_seconds(name: str) -> tuple[float, bool]:
    """`trickcore verify NAME` as a user runs it: its wall-clock seconds, and whether the
    variant passed."""
    t = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "trickcore", "verify", name], capture_output=True, text=True
    )
    return time.perf_counter() - t, done.returncode == 0


def main() -> None:
    """Print the figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--variant", action="append")
    p.add_argument("--all", action="store_true", help="every shipped variant")
    p.add_argument("--no-verify", action="store_true", help="skip the verify timings")
    args = p.parse_args()
    names = trickcore.list_variants() if args.all else args.variant or BASE_GAMES
    header = (
        f"{'variant':28} {'text/Action':>11} {'limit':>6} "
        f"{'obs µs early / mid / late (log length)':>44} {'verify s':>9} {'limit':>6}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        v = trickcore.load_variant(name)
        ratio = text_overhead(v, args.seconds)
        obs = observation_us(v)
        obs_text = " / ".join(f"{us:.0f} ({n})" for n, us in obs)
        if args.no_verify:
            verify_text = "-"
        else:
            seconds, ok = verify_seconds(name)
            verify_text = f"{seconds:.1f}" + ("" if ok else " FAIL")
            verify_text += "" if seconds <= VERIFY_LIMIT else "!"
        mark = "" if ratio <= TEXT_LIMIT else "!"
        print(
            f"{name:28} {ratio:10.2f}{mark:1} {TEXT_LIMIT:6.2f} {obs_text:>44} "
            f"{verify_text:>9} {VERIFY_LIMIT:6.0f}"
        )
    print("'!' marks a missed limit; observation µs should stay flat from early to late.")


if __name__ == "__main__":
    main()
