"""`trickcore arena` in chunks: duplicate deals of a bot line-up, split into ranges of
deck-order seeds, run by `run_chunks` (in this process, on local workers or on a cluster).

Every deck order's deals depend only on its seed (`players.arena.play_duplicate`), so the
records, concatenated in chunk order, are the same whatever runs the chunks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import attrs

from ..engine.game import Game
from ..language.errors import TrickcoreError
from ..players.arena import BotResult, DealRecord, play_duplicate
from .runner import ChunkRun, Progress, VariantRef, run_chunks, seed_chunks


@attrs.frozen
class ArenaChunk:
    """Deck orders `first_seed` .. `first_seed + count - 1` of an arena run."""

    variant: VariantRef
    bots: tuple[str, ...]
    first_seed: int
    count: int


def arena_chunk(chunk: ArenaChunk) -> list[DealRecord]:
    """Play the chunk's deck orders (every rotation of the bots) and return their records."""
    return play_duplicate(chunk.variant, chunk.bots, chunk.first_seed, chunk.count)


def run_arena(
    game: Game,
    bot_specs: Sequence[str],
    seed: int,
    deck_orders: int,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
) -> tuple[list[DealRecord], ChunkRun[list[DealRecord]]]:
    """The records of `deck_orders` duplicate deck orders from `seed` (those of the chunks
    that finished, in order) and the run itself (`interrupted` after Ctrl-C)."""
    size = chunk_size or (1 if workers is None and scheduler is None else 5)
    ref = VariantRef.of(game)
    chunks = [
        ArenaChunk(ref, tuple(bot_specs), seed + r.start, len(r))
        for r in seed_chunks(deck_orders, size)
    ]
    run = run_chunks(arena_chunk, chunks, workers=workers, scheduler=scheduler, progress=progress)
    return [record for part in run.finished for record in part], run


def plot_arena(results: Sequence[BotResult], path: str | Path, title: str, unit: str) -> None:
    """Save the arena's figures as a PNG of two panels: each bot's mean with its 95%
    interval, and each bot's margin over the first bot with the 95% interval of that paired
    difference (deck order by deck order), the interval that says whether they differ."""
    try:
        from matplotlib.figure import Figure  # no pyplot: no global state, no display
    except ImportError:
        raise TrickcoreError(
            "--plot needs matplotlib, which is not installed: pip install 'trickcore[plot]'"
        ) from None

    def spread(value: float, low: float, high: float) -> tuple[float, float]:
        if math.isnan(value) or math.isnan(low) or math.isnan(high):
            return 0.0, 0.0
        return max(0.0, value - low), max(0.0, high - value)

    labels = [r.label for r in results]
    colors = [f"C{i}" for i in range(len(labels))]
    fig = Figure(figsize=(max(7.0, 2.6 * len(labels) + 3), 3.8), dpi=120, layout="constrained")
    means, margins = fig.subplots(1, 2)
    below, above = zip(*(spread(r.mean, r.low, r.high) for r in results), strict=True)
    means.bar(labels, [r.mean for r in results], yerr=[below, above], capsize=6, color=colors)
    means.set_ylabel(unit)
    means.set_title("each bot, with its 95% interval")
    others = results[1:]
    if others:
        first = results[0].label
        names = [r.label for r in others]
        below, above = zip(
            *(spread(r.margin, r.margin_low, r.margin_high) for r in others), strict=True
        )
        margins.errorbar(
            names,
            [0.0 if math.isnan(r.margin) else r.margin for r in others],
            yerr=[below, above],
            fmt="o",
            capsize=6,
            color="black",
        )
        margins.set_title(f"paired margin over {first}, 95% interval")
        margins.set_ylabel(f"bot - {first}")
        margins.set_xlim(-0.6, len(names) - 0.4)
    else:
        margins.set_axis_off()
    for ax in (means, margins):
        ax.axhline(0, color="black", linewidth=0.8)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title)
    try:
        fig.savefig(str(path), format="png")
    except OSError as exc:
        raise TrickcoreError(f"cannot write the plot to {path}: {exc.strerror}") from None
