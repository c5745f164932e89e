"""Benchmark: how strong and how fast the search bots are (issue 13's figures).

Run:  python benchmarks/bots.py [--deals 1000] [--bot pimc] [--seconds S] [--iterations N]
                                [--worlds W] [--confidence Z] [--rollout heuristic|random]
                                [--variant NAME[:PLAYERS] ... | all] [--seats all|one]
                                [--against heuristic random] [--jobs 2]
                                [--seed 0] [--out FILE.jsonl] [--summarize FILE.jsonl]

For every variant (default: Tysiacha, Russisch Schnapsen, Durak with 3 players; `all`: every
shipped game, each in its base file) and deck
order (seeds --seed, --seed+1, ...) the search bot takes each seat in turn, the hero seat
(`--seats all`, the default: a duplicate deal, the bots rotated through the seats as in
`trickcore arena`; `--seats one`: only the seat deck order mod seats). A deck order is
dealt as the match's first deal, except where the hand size depends on the deal's number
(Oh Hell's `deal.size`): deck order k is then dealt as deal 1 + k mod the match's deals, so
that every hand size is played. With the hero in a seat, the deck order is played twice
against the same opponents:

- vs heuristic: the search bot in the hero seat, heuristic bots elsewhere, against the
  heuristic bot in the hero seat (the same deal with heuristic bots everywhere);
- vs random: the search bot in the hero seat among random bots, against a random bot in
  that seat among the same random bots (seeded alike).

It prints, per variant, the margin per duplicate deal (the search bot's deal score minus
the other bot's in the same seats on the same deck order, averaged over the seats it
held, each deal score signed as the match ranks players, so that Hearts' points taken
count negative; in games of bouts the other bot's durak rate minus the search bot's, so
positive is better everywhere) with its 95% confidence interval over deck orders, the share of deck
orders on which the search bot did at least as well as the other bot over the seats it
held, and the same share seat by seat; then the search bot's time per decision (mean and
max; decisions with a single legal action do not count) and how many of its decisions it
left to the heuristic bot because no hidden world could be sampled in time, and how many
the time cap stopped before their iterations and steps were spent (the budget is work
first: at the defaults the cap is a safety net, and the share should be near 0). Each finished
(deck order, seat) is appended to --out as one JSON line, so a run cut short keeps its
figures (`--summarize FILE` prints them; a deck order cut short counts with the seats it
has).
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
from trickcore.players.values import score_sign

DEFAULT_VARIANTS = ["tysiacha", "russisch-schnapsen", "durak:3"]
# `--variant all`: every shipped game, in its base file
GAMES = [
    "tysiacha",
    "russisch-schnapsen",
    "durak:3",
    "sixty-six",
    "hearts",
    "skat",
    "bridge",
    "spades",
    "euchre",
    "oh-hell",
    "preferans",
    "doppelkopf",
    "belote",
    "schafkopf",
    "whist",
]
Z95 = 1.959964


def play(
    variant: trickcore.Variant,
    players: int,
    order: list[int],
    bots: list[Any],
    hero: int,
    deal_number: int = 1,
):
    """One deal on a deck order; the hero's score (gain, or scoring's `progress` where the
    rules define one, as the arena measures; 1.0 for the durak) and the hero's decision
    times. The gain is signed in the direction the match ranks players (Hearts' `rank_by =
    -score`: the points taken count negative), so that higher is better in every game."""
    d = variant.new_deal(order, dealer=0, players=players, deal_number=deal_number)
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
    sign = 1 if d.judged_by_progress else score_sign(d.game)
    return float(sign * (d.worth() or [0] * players)[hero]), times


def one_seat(job: tuple[str, int, str, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """The comparisons on one deck order with the search bot in one seat (run in a worker
    process)."""
    ref, players, spec, seed, hero, against = job
    import random

    variant = _variant(ref)
    order = list(range(variant.model.deck.size))
    random.Random(seed).shuffle(order)
    number = 1 + seed % sized_deals(variant, players)
    out: dict[str, Any] = {"variant": ref, "players": players, "seed": seed, "hero": hero}
    out["deal_number"] = number
    times: list[float] = []
    fallbacks = capped = 0
    for opponents in against:
        scores = []
        for who in (spec, opponents):
            bots = [
                make_bot(who if s == hero else opponents, seed=seed * 16 + s)
                for s in range(players)
            ]
            score, took = play(variant, players, order, bots, hero, number)
            scores.append(score)
            if who == spec:
                times += took
                fallbacks += getattr(bots[hero], "fallbacks", 0)
                capped += getattr(bots[hero], "capped", 0)
        out[f"vs_{opponents}"] = scores  # [search bot, the other bot]
    out["times"] = times
    out["fallbacks"] = fallbacks  # decisions the search bot left to the heuristic bot
    out["capped"] = capped  # decisions the time cap stopped before their work budget
    return out


_VARIANTS: dict[str, trickcore.Variant] = {}
_SIZED: dict[tuple[str, int], int] = {}


def sized_deals(variant: trickcore.Variant, players: int) -> int:
    """How many deal numbers the deck orders go through: 1 where every deal is dealt alike;
    where the hand size depends on the deal's number (`deal.size`: Oh Hell's 1, 2, ...
    cards), every deal of a match that deals cards, so that deck order k is dealt as deal
    1 + k mod that many and every hand size is played, not only the first deal's."""
    key = (variant.name, players)
    if key not in _SIZED:
        count = 1
        if variant.model.deal.size is not None:
            for number in range(2, variant.model.match.deal_limit + 1):
                try:
                    deal = variant.new_deal(seed=0, players=players, deal_number=number)
                except trickcore.TrickcoreError:
                    break
                if not deal.observation(0).hand:
                    break
                count = number
        _SIZED[key] = count
    return _SIZED[key]


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
    """Print the figures of finished (deck order, seat) rows, per variant: per duplicate
    deal (a deck order, over the seats the search bot held) and per seat."""
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_variant.setdefault(f"{row['variant']} ({row['players']} players)", []).append(row)
    for name, mine in by_variant.items():
        bouts = _variant(mine[0]["variant"]).model.bouts is not None
        sign = -1.0 if bouts else 1.0  # for the durak rate lower is better
        orders: dict[int, list[dict[str, Any]]] = {}
        for row in mine:
            orders.setdefault(row["seed"], []).append(row)
        print(
            f"\n{name}: {len(orders)} duplicate deck orders ({len(mine)} seats played), "
            f"search bot {spec}"
        )
        unit = "durak rate" if bouts else "points per deal"
        for opp in ("heuristic", "random"):
            key = f"vs_{opp}"
            groups = [[r[key] for r in group if key in r] for group in orders.values()]
            groups = [g for g in groups if g]
            if not groups:
                continue
            own = [statistics.fmean(a for a, _ in g) for g in groups]
            other = [statistics.fmean(b for _, b in g) for g in groups]
            margins = [sign * (a - b) for a, b in zip(own, other, strict=True)]
            seat_margins = [sign * (a - b) for g in groups for a, b in g]
            m, h = interval(margins)
            at_least = sum(1 for x in margins if x >= 0) / len(margins)
            per_seat = sum(1 for x in seat_margins if x >= 0) / len(seat_margins)
            print(
                f"  vs {opp:9s}: {'search' if not bouts else 'durak rate'} "
                f"{statistics.fmean(own):8.3f}  {opp} {statistics.fmean(other):8.3f}  "
                f"margin {m:+8.3f} +- {h:.3f} ({unit}, 95% CI [{m - h:+.3f}, {m + h:+.3f}])  "
                f"at least as well on {100 * at_least:.1f}% of deck orders "
                f"({100 * per_seat:.1f}% of seats)"
            )
        times = [t for r in mine for t in r["times"]]
        if times:
            print(
                f"  time per decision: mean {1000 * statistics.fmean(times):.0f} ms, "
                f"max {1000 * max(times):.0f} ms over {len(times)} decisions"
            )
        if any("fallbacks" in r for r in mine):
            left = sum(r.get("fallbacks", 0) for r in mine)
            share = f" ({100 * left / len(times):.1f}% of {len(times)})" if times else ""
            print(f"  decisions left to the heuristic (no world, or no time): {left}{share}")
        if any("capped" in r for r in mine):
            capped = sum(r.get("capped", 0) for r in mine)
            share = f" ({100 * capped / len(times):.1f}% of {len(times)})" if times else ""
            print(f"  decisions the time cap stopped before their work budget: {capped}{share}")


def jobs_of(
    variants: list[tuple[str, int]],
    spec: str,
    seed: int,
    deals: int,
    all_seats: bool,
    against: tuple[str, ...],
) -> Iterator[tuple[str, int, str, int, int, tuple[str, ...]]]:
    """One job per deck order and hero seat; interleaved, so a cut-short run has every
    variant."""
    for k in range(deals):
        for ref, players in variants:
            heroes = range(players) if all_seats else [(seed + k) % players]
            for hero in heroes:
                yield (ref, players, spec, seed + k, hero, against)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deck orders per variant")
    parser.add_argument("--bot", default="pimc", help="the search bot (pimc or ismcts)")
    parser.add_argument("--seconds", type=float, default=None, help="time cap per decision")
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--worlds", type=int, default=None)
    parser.add_argument("--confidence", type=float, default=None, help="pimc's confidence")
    parser.add_argument("--rollout", default=None, help="heuristic or random playouts")
    parser.add_argument(
        "--variant", nargs="+", default=DEFAULT_VARIANTS, help="NAME[:PLAYERS] ..., or all"
    )
    parser.add_argument(
        "--seats", choices=("all", "one"), default="all", help="hero seats per deck order"
    )
    parser.add_argument(
        "--against",
        nargs="+",
        choices=("heuristic", "random"),
        default=["heuristic", "random"],
        help="the comparisons to play",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="append one JSON line per (deck order, seat)")
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
    for item in GAMES if args.variant == ["all"] else args.variant:
        name, _, players = item.partition(":")
        variant = _variant(name)
        variants.append((name, int(players) if players else variant.model.players[0]))
    make_bot(spec)  # a bad spec fails here
    rows: list[dict[str, Any]] = []
    sink = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    start = time.perf_counter()
    jobs = list(
        jobs_of(variants, spec, args.seed, args.deals, args.seats == "all", tuple(args.against))
    )
    total = len(jobs)
    with multiprocessing.Pool(args.jobs) as pool:
        for i, row in enumerate(pool.imap(one_seat, jobs), 1):
            rows.append(row)
            if sink:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
            if i % 25 == 0 or i == total:
                print(
                    f"{i}/{total} (deck order, seat) pairs, {time.perf_counter() - start:.0f} s",
                    file=sys.stderr,
                )
    if sink:
        sink.close()
    summarize(rows, spec)


if __name__ == "__main__":
    main()
