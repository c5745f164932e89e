"""Benchmark: how strong and how fast the search bots are (issue 13's figures).

Run:  python benchmarks/bots.py [--deals 1000] [--bot pimc] [--seconds S] [--iterations N]
                                [--worlds W] [--confidence Z] [--rollout heuristic|random]
                                [--variant NAME[:PLAYERS] ...] [--jobs 2]
                                [--seed 0] [--out FILE.jsonl] [--summarize FILE.jsonl]

For every variant (default: Tysiacha, Russisch Schnapsen, Durak with 3 players) and deck
order (seeds --seed, --seed+1, ...) one seat, the hero seat (deck order mod seats), is
played twice against the same opponents on the same deck order:

- vs heuristic: the search bot in the hero seat, heuristic bots elsewhere, against the
  heuristic bot in the hero seat (the same deal with heuristic bots everywhere);
- vs random: the search bot in the hero seat among random bots, against a random bot in
  that seat among the same random bots (seeded alike).

It prints, per variant, the margin (the search bot's deal score minus the other bot's in
the same seat on the same deck order; in games of bouts the other bot's durak rate minus
the search bot's, so positive is better everywhere) with its 95% confidence interval, the
share of deck orders on which the search bot did at least as well as the random bot, and
the search bot's time per decision (mean and max; decisions with a single legal action do
not count) and how many of its decisions it left to the heuristic bot because no hidden
world could be sampled. Each finished deck order is appended to --out as one JSON line, so a run cut
short keeps its figures (`--summarize FILE` prints them).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import trickcore
from trickcore.players import Turn, make_bot

DEFAULT_VARIANTS = ["tysiacha", "russisch-schnapsen", "durak:3"]
Z95 = 1.959964


def play(variant: trickcore.Variant, players: int, order: list[int], bots: list[Any], hero: int):
    """One deal on a deck order; the hero's score (gain, or 1.0 for the durak) and the
    hero's decision times."""
    d = variant.new_deal(order, dealer=0, players=players)
    times: list[float] = []
    while not d.is_over:
        seat = d.to_act
        legal = tuple(d.legal_actions())
        if len(legal) == 1:
            d.apply(legal[0])
            continue
        turn = Turn(variant, seat, d.observation(seat), legal)
        start = time.perf_counter()
        action = bots[seat].choose(turn)
        if seat == hero:
            times.append(time.perf_counter() - start)
        d.apply(action)
    if variant.model.bouts is not None:
        return (1.0 if d.loser == hero else 0.0), times
    return float((d.gains or [0] * players)[hero]), times


def one_deck_order(job: tuple[str, int, str, int]) -> dict[str, Any]:
    """Both comparisons on one deck order (run in a worker process)."""
    ref, players, spec, seed = job
    import random

    variant = _variant(ref)
    order = list(range(variant.model.deck.size))
    random.Random(seed).shuffle(order)
    hero = seed % players
    out: dict[str, Any] = {"variant": ref, "players": players, "seed": seed, "hero": hero}
    times: list[float] = []
    fallbacks = 0
    for opponents in ("heuristic", "random"):
        scores = []
        for who in (spec, opponents):
            bots = [
                make_bot(who if s == hero else opponents, seed=seed * 16 + s)
                for s in range(players)
            ]
            score, took = play(variant, players, order, bots, hero)
            scores.append(score)
            if who == spec:
                times += took
                fallbacks += getattr(bots[hero], "fallbacks", 0)
        out[f"vs_{opponents}"] = scores  # [search bot, the other bot]
    out["times"] = times
    out["fallbacks"] = fallbacks  # decisions the search bot left to the heuristic bot
    return out


_VARIANTS: dict[str, trickcore.Variant] = {}


def _variant(ref: str) -> trickcore.Variant:
    if ref not in _VARIANTS:
        _VARIANTS[ref] = trickcore.load_variant(ref)
    return _VARIANTS[ref]


def interval(xs: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval."""
    if len(xs) < 2:
        return (xs[0] if xs else math.nan), math.nan
    return statistics.fmean(xs), Z95 * statistics.stdev(xs) / math.sqrt(len(xs))


def summarize(rows: list[dict[str, Any]], spec: str) -> None:
    """Print the figures of finished deck orders, per variant."""
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_variant.setdefault(f"{row['variant']} ({row['players']} players)", []).append(row)
    for name, mine in by_variant.items():
        bouts = _variant(mine[0]["variant"]).model.bouts is not None
        sign = -1.0 if bouts else 1.0  # for the durak rate lower is better
        print(f"\n{name}: {len(mine)} duplicate deck orders, search bot {spec}")
        for opp in ("heuristic", "random"):
            own = [r[f"vs_{opp}"][0] for r in mine]
            other = [r[f"vs_{opp}"][1] for r in mine]
            margins = [sign * (a - b) for a, b in zip(own, other, strict=True)]
            m, h = interval(margins)
            at_least = sum(1 for x in margins if x >= 0) / len(margins)
            unit = "durak rate" if bouts else "points per deal"
            print(
                f"  vs {opp:9s}: {'search' if not bouts else 'durak rate'} "
                f"{statistics.fmean(own):8.3f}  {opp} {statistics.fmean(other):8.3f}  "
                f"margin {m:+8.3f} +- {h:.3f} ({unit}, 95% CI [{m - h:+.3f}, {m + h:+.3f}])  "
                f"at least as well on {100 * at_least:.1f}% of deck orders"
            )
        times = [t for r in mine for t in r["times"]]
        if times:
            print(
                f"  time per decision: mean {1000 * statistics.fmean(times):.0f} ms, "
                f"max {1000 * max(times):.0f} ms over {len(times)} decisions"
            )
        if any("fallbacks" in r for r in mine):
            left = sum(r.get("fallbacks", 0) for r in mine)
            print(f"  decisions left to the heuristic (no hidden world sampled): {left}")


def jobs_of(variants: list[tuple[str, int]], spec: str, seed: int, deals: int) -> Iterator:
    for k in range(deals):  # interleaved, so a cut-short run has every variant
        for ref, players in variants:
            yield (ref, players, spec, seed + k)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deck orders per variant")
    parser.add_argument("--bot", default="pimc", help="the search bot (pimc or ismcts)")
    parser.add_argument("--seconds", type=float, default=None, help="time cap per decision")
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--worlds", type=int, default=None)
    parser.add_argument("--confidence", type=float, default=None, help="pimc's confidence")
    parser.add_argument("--rollout", default=None, help="heuristic or random playouts")
    parser.add_argument("--variant", nargs="+", default=DEFAULT_VARIANTS)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="append one JSON line per deck order")
    parser.add_argument("--summarize", default=None, help="print the figures of a --out file")
    args = parser.parse_args()
    options = [
        f"{name}={value}"
        for name, value in (
            ("seconds", args.seconds),
            ("iterations", args.iterations),
            ("worlds", args.worlds),
            ("confidence", args.confidence),
            ("rollout", args.rollout),
        )
        if value is not None
    ]
    spec = args.bot + (":" + ",".join(options) if options else "")
    if args.summarize:
        rows = [json.loads(line) for line in Path(args.summarize).read_text().splitlines() if line]
        summarize(rows, spec)
        return
    variants = []
    for item in args.variant:
        name, _, players = item.partition(":")
        variant = _variant(name)
        variants.append((name, int(players) if players else variant.model.players[0]))
    make_bot(spec)  # a bad spec fails here
    rows: list[dict[str, Any]] = []
    sink = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    start = time.perf_counter()
    total = args.deals * len(variants)
    with multiprocessing.Pool(args.jobs) as pool:
        for i, row in enumerate(
            pool.imap(one_deck_order, jobs_of(variants, spec, args.seed, args.deals)), 1
        ):
            rows.append(row)
            if sink:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
            if i % 25 == 0 or i == total:
                print(
                    f"{i}/{total} deck orders, {time.perf_counter() - start:.0f} s", file=sys.stderr
                )
    if sink:
        sink.close()
    summarize(rows, spec)


if __name__ == "__main__":
    main()
