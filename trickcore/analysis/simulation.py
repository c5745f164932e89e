"""`trickcore simulate`: many matches between bots, summed up chunk by chunk.

A chunk plays a range of match indices and returns a `Summary`; summaries add up in chunk
order, so the total is the same whichever worker played which chunk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from .play import play_match
from .runner import ChunkRun, Progress, VariantRef, run_chunks, seed_chunks


@attrs.frozen
class SimulateChunk:
    """Matches `start`..`stop - 1` of a simulation."""

    variant: VariantRef
    seed: int
    start: int
    stop: int
    bots: str = "random"
    players: int | None = None


@attrs.frozen
class Summary:
    """Totals of some matches of a simulation."""

    matches: int = 0
    deals: int = 0
    redeals: int = 0
    # contract (its level, and its strain and qualifier: "hearts alone") -> (deals, made)
    by_contract: tuple[tuple[tuple[int, str], int, int], ...] = ()
    deals_per_match: tuple[int, ...] = ()
    wins: tuple[tuple[int, int], ...] = ()  # (seat, matches won)
    losers: tuple[tuple[int, int], ...] = ()  # (seat or -1 for a draw, deals lost)
    bouts: tuple[int, ...] = ()
    actions: int = 0
    # matches that ended at the match's limit of deals (or of redealt ones) rather than by
    # its rules, and matches stopped by the engine (a rule's number out of range, the most
    # actions a match may have)
    at_limit: int = 0
    stopped: int = 0

    def __add__(self, other: Summary) -> Summary:
        contracts: dict[tuple[int, str], list[int]] = {}
        for c, n, made in (*self.by_contract, *other.by_contract):
            entry = contracts.setdefault(c, [0, 0])
            entry[0] += n
            entry[1] += made
        return Summary(
            matches=self.matches + other.matches,
            deals=self.deals + other.deals,
            redeals=self.redeals + other.redeals,
            by_contract=tuple((c, n, made) for c, (n, made) in sorted(contracts.items())),
            deals_per_match=self.deals_per_match + other.deals_per_match,
            wins=tuple(sorted((Counter(dict(self.wins)) + Counter(dict(other.wins))).items())),
            losers=_add_counts(self.losers, other.losers),
            bouts=self.bouts + other.bouts,
            actions=self.actions + other.actions,
            at_limit=self.at_limit + other.at_limit,
            stopped=self.stopped + other.stopped,
        )


def _add_counts(
    a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, int], ...]:
    total: Counter[int] = Counter()
    for key, n in (*a, *b):
        total[key] += n
    return tuple(sorted(total.items()))


def simulate_chunk(chunk: SimulateChunk) -> Summary:
    """Play the chunk's matches and sum them up."""
    game = chunk.variant.load()
    by_contract: dict[tuple[int, str], list[int]] = {}
    deals = redeals = actions = 0
    per_match: list[int] = []
    wins: Counter[int] = Counter()
    losers: Counter[int] = Counter()
    bouts: list[int] = []
    at_limit = stopped = 0
    rules = game.model.match
    for i in range(chunk.start, chunk.stop):
        record = play_match(game, chunk.seed, i, chunk.bots, chunk.players)
        actions += record.actions
        if record.stopped:
            stopped += 1
        elif record.deals_played >= rules.deal_limit or record.redeals > rules.redeal_limit:
            at_limit += 1
        played = 0
        for deal in record.deals:
            r = deal.result
            if r.get("redeal"):
                redeals += 1
                continue
            deals += 1
            played += 1
            if "loser" in r:
                losers[r["loser"]] += 1
                bouts.append(r["bouts"])
                continue
            if r.get("declarer", -1) < 0:
                continue  # a deal without a declarer (no auction, or all passed)
            entry = by_contract.setdefault((r["contract"], r.get("qualifier", "")), [0, 0])
            entry[0] += 1
            entry[1] += r["gains"][r["declarer"]] > 0
        per_match.append(played)
        wins.update(record.winners)
    return Summary(
        matches=chunk.stop - chunk.start,
        deals=deals,
        redeals=redeals,
        by_contract=tuple((c, n, made) for c, (n, made) in sorted(by_contract.items())),
        deals_per_match=tuple(per_match),
        wins=tuple(sorted(wins.items())),
        losers=tuple(sorted(losers.items())),
        bouts=tuple(bouts),
        actions=actions,
        at_limit=at_limit,
        stopped=stopped,
    )


def simulate(
    variant: VariantRef,
    matches: int,
    seed: int = 0,
    bots: str = "random",
    players: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
) -> tuple[Summary, ChunkRun[Summary]]:
    """Simulate `matches` matches (in chunks of `chunk_size`) and return the total of the
    chunks that finished with the run itself (which says whether it was interrupted)."""
    chunks = [
        SimulateChunk(variant, seed, r.start, r.stop, bots, players)
        for r in seed_chunks(matches, chunk_size or _chunk(workers, scheduler))
    ]
    run = run_chunks(
        simulate_chunk, chunks, workers=workers, scheduler=scheduler, progress=progress
    )
    return total(run.finished), run


def total(summaries: Sequence[Summary]) -> Summary:
    """The sum of summaries, in order."""
    out = Summary()
    for s in summaries:
        out = out + s
    return out


def _chunk(workers: int | None, scheduler: str | None) -> int:
    """Matches per chunk: one in this process (an interrupt loses at most one match), five
    on workers. The totals do not depend on it: chunks add up in order."""
    return 1 if workers is None and scheduler is None else 5
