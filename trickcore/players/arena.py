"""Duplicate deals between computer players: the same deck orders with the bots rotated
through the seats, so the luck of the cards cancels out.

One deal is one deck order played as a single deal (dealer: seat 0). With n seats and n
bots, each deck order is played n times, the bots moved one seat on each time, so every
bot holds every hand once. A bot's score for a deck order is the mean of its deal scores
over the seats it held (its deal gain; in games of bouts 1 when it was the loser, else
0), and the report gives each bot's mean over the deck orders with a 95% confidence
interval, and each bot's margin over the first one paired by deck order.

`play_duplicate` is a pure function of its arguments (the variant, the bot specs and the
range of deck-order seeds): a range can be split into chunks and run anywhere, in any
order, and gives the same records.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..engine.game import Game
from ..language.errors import TrickcoreError
from .protocol import Turn
from .registry import make_bot, parse_spec

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@attrs.frozen
class DealRecord:
    """One deck order played once: which bot sat where, and each seat's score.

    `bots[s]` is the index (into the bot specs) of the bot at seat s; `scores[s]` its deal
    gain, or in games of bouts 1.0 for the loser and 0.0 for the others; `seconds[s]` and
    `decisions[s]` the thinking time and the number of decisions with a choice at seat s,
    `slowest[s]` its longest decision in seconds (left out when records are compared).
    """

    seed: int
    rotation: int
    bots: tuple[int, ...]
    scores: tuple[float, ...]
    # timings depend on the machine: records are equal when the play is
    seconds: tuple[float, ...] = attrs.field(eq=False)
    decisions: tuple[int, ...] = attrs.field(eq=False)
    slowest: tuple[float, ...] = attrs.field(eq=False)


@attrs.frozen
class BotResult:
    """A bot's figures over all deck orders: mean score per deal with its 95% interval,
    the margin over the first bot (paired by deck order) with its interval, and its time
    per decision."""

    label: str
    mean: float
    low: float
    high: float
    margin: float
    margin_low: float
    margin_high: float
    deck_orders: int
    mean_seconds: float
    max_seconds: float


_VARIANTS: dict[str, Game] = {}


def load_ref(variant_ref: Any) -> Game:
    """The variant a reference names: a Variant, a shipped name or a rules file's path, or
    any object with a `load()` method that returns one (loaded once per process)."""
    if isinstance(variant_ref, Game):
        return variant_ref
    if hasattr(variant_ref, "load"):
        game = variant_ref.load()
        if not isinstance(game, Game):
            raise TrickcoreError("a variant reference's load() must give a variant")
        return game
    if isinstance(variant_ref, (str, Path)):
        key = str(variant_ref)
        game = _VARIANTS.get(key)
        if game is None:
            from ..language.compiler import compile_rules
            from ..language.loader import load_rules

            game = _VARIANTS[key] = Game(compile_rules(load_rules(variant_ref)))
        return game
    raise TrickcoreError(f"{variant_ref!r} does not name a variant")


def check_lineup(game: Game, bot_specs: Sequence[str]) -> int:
    """Check the bots against the variant; the number of seats (one bot per seat)."""
    if isinstance(bot_specs, str) or not bot_specs:
        raise TrickcoreError("list the bots, one per seat, e.g. pimc,greedy,greedy")
    for spec in bot_specs:
        parse_spec(spec)
    seats = len(bot_specs)
    if seats not in game.model.players:
        allowed = ", ".join(map(str, game.model.players))
        raise TrickcoreError(
            f"{len(bot_specs)} bots given, but {game.name} is played by {allowed} players: "
            "list one bot per seat"
        )
    return seats


def labels_of(bot_specs: Sequence[str]) -> list[str]:
    """The different bots of a line-up, in order of first appearance (a bot listed twice
    is one bot in the report)."""
    out: list[str] = []
    for spec in bot_specs:
        if spec.strip() not in out:
            out.append(spec.strip())
    return out


def deck_order(game: Game, seed: int) -> list[int]:
    """The deck order of a deck-order seed (the same as `new_deal(seed=...)` deals)."""
    order = list(range(game.model.deck.size))
    random.Random(seed).shuffle(order)
    return order


def play_duplicate(
    variant_ref: Any,
    bot_specs: Sequence[str],
    first_seed: int,
    count: int,
    progress: Callable[[int], None] | None = None,
) -> list[DealRecord]:
    """Play the deck orders of seeds first_seed .. first_seed+count-1, each once per
    rotation of the bots through the seats; one record per deal played.

    The bot at seat s of rotation r is `bot_specs[(s - r) % n]`, seeded from the deck
    order's seed, the rotation and the seat, so the records depend on nothing else.
    `progress(done)` is called after each deck order.
    """
    game = load_ref(variant_ref)
    seats = check_lineup(game, bot_specs)
    specs = [s.strip() for s in bot_specs]
    label_index = {label: i for i, label in enumerate(labels_of(specs))}
    records: list[DealRecord] = []
    for k in range(count):
        seed = first_seed + k
        order = deck_order(game, seed)
        for rotation in range(seats):
            at_seat = [(s - rotation) % seats for s in range(seats)]
            bots = [
                make_bot(specs[at_seat[s]], seed=(seed * 64 + rotation * 8 + s) % (2**63))
                for s in range(seats)
            ]
            records.append(
                _play_one(
                    game, order, seed, rotation, bots, [label_index[specs[i]] for i in at_seat]
                )
            )
        if progress is not None:
            progress(k + 1)
    return records


def _play_one(
    game: Game, order: list[int], seed: int, rotation: int, bots: list[Any], labels: list[int]
) -> DealRecord:
    seats = len(bots)
    deal = game.new_deal(order, dealer=0, players=seats)
    spent = [0.0] * seats
    slowest = [0.0] * seats
    decisions = [0] * seats
    clock = time.perf_counter
    while not deal.is_over:
        seat = deal.to_act
        legal = tuple(deal.legal_actions())
        if len(legal) == 1:
            deal.apply(legal[0])
            continue
        turn = Turn(game, seat, deal.observation(seat), legal)
        start = clock()
        action = bots[seat].choose(turn)
        took = clock() - start
        spent[seat] += took
        slowest[seat] = max(slowest[seat], took)
        decisions[seat] += 1
        if action not in legal:
            raise TrickcoreError(f"bot at seat {seat} chose {action}, which is not legal")
        deal.apply(action)
    if game.model.bouts is not None:
        scores = tuple(1.0 if s == deal.loser else 0.0 for s in range(seats))
    else:
        worth = deal.worth() or [0] * seats  # scoring's `progress` where the rules define it
        scores = tuple(float(w) for w in worth)
    return DealRecord(
        seed, rotation, tuple(labels), scores, tuple(spent), tuple(decisions), tuple(slowest)
    )


def per_deck_order(records: Sequence[DealRecord], bots: int) -> dict[int, list[float]]:
    """Each bot's mean score per deck order: seed -> [score of bot 0, bot 1, ...] (nan for
    a bot that did not play that deck order)."""
    sums: dict[int, list[list[float]]] = {}
    for r in records:
        row = sums.setdefault(r.seed, [[] for _ in range(bots)])
        for seat, b in enumerate(r.bots):
            row[b].append(r.scores[seat])
    return {
        seed: [statistics.fmean(x) if x else math.nan for x in row] for seed, row in sums.items()
    }


def interval(samples: Sequence[float]) -> tuple[float, float, float]:
    """Mean and the bounds of its 95% confidence interval (normal approximation)."""
    if not samples:
        return math.nan, math.nan, math.nan
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, math.nan, math.nan
    half = Z95 * statistics.stdev(samples) / math.sqrt(len(samples))
    return mean, mean - half, mean + half


def summarize(records: Sequence[DealRecord], bot_specs: Sequence[str]) -> list[BotResult]:
    """Each bot's mean score per deal and its margin over the first bot, with 95%
    intervals over the deck orders (paired: the bots played the same deck orders)."""
    labels = labels_of([s.strip() for s in bot_specs])
    table = per_deck_order(records, len(labels))
    rows = [table[seed] for seed in sorted(table)]
    out = []
    for b, label in enumerate(labels):
        own = [row[b] for row in rows if not math.isnan(row[b])]
        mean, low, high = interval(own)
        diffs = [row[b] - row[0] for row in rows if not math.isnan(row[b] + row[0])]
        margin, m_low, m_high = interval(diffs) if b else (0.0, 0.0, 0.0)
        spent = sum(r.seconds[s] for r in records for s, x in enumerate(r.bots) if x == b)
        made = sum(r.decisions[s] for r in records for s, x in enumerate(r.bots) if x == b)
        slowest = max(
            (r.slowest[s] for r in records for s, x in enumerate(r.bots) if x == b), default=0.0
        )
        out.append(
            BotResult(
                label,
                mean,
                low,
                high,
                margin,
                m_low,
                m_high,
                len(own),
                spent / made if made else 0.0,
                slowest,
            )
        )
    return out


def plot_results(results: Sequence[BotResult], path: str | Path, title: str, unit: str) -> None:
    """Save a bar chart of the bots' means with their 95% intervals as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise TrickcoreError(
            "--plot needs matplotlib, which is not installed: pip install 'trickcore[plot]'"
        ) from None
    labels = [r.label for r in results]
    means = [r.mean for r in results]
    errors = [
        [max(0.0, r.mean - r.low) if not math.isnan(r.low) else 0.0 for r in results],
        [max(0.0, r.high - r.mean) if not math.isnan(r.high) else 0.0 for r in results],
    ]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.6 * len(labels) + 2), 3.6), dpi=120)
    colors = [f"C{i}" for i in range(len(labels))]
    ax.bar(labels, means, yerr=errors, capsize=6, color=colors, alpha=0.85)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel(unit)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(str(path), format="png")
    except OSError as exc:
        raise TrickcoreError(f"cannot write the plot to {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
