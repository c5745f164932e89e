"""`trickcore arena` in chunks: duplicate deals of a bot line-up, split into ranges of
deck-order seeds, run by `run_chunks` (in this process, on local workers or on a cluster).

Every deck order's deals depend only on its seed (`players.arena.play_duplicate`), so the
records, concatenated in chunk order, are the same whatever runs the chunks.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..engine.game import Game
from ..players.arena import DealRecord, play_duplicate
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
