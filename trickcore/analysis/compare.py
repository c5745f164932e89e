"""Comparing two variants on duplicate deals, with 95% confidence intervals.

Match `i` is played under both variants from the same seed, so both see the same deck
orders (when their decks are the same) and bots with the same seeds: the differences come
from the rules, not from the luck of the deal. Each quantity is a ratio of sums over matches
(see `measures`); its 95% interval for B - A comes from a paired bootstrap over matches
(whole matches are resampled, the same ones for both variants), so deals of one match are
never treated as independent. With decks of different sizes the matches are not paired:
B is played from other seeds and the two are resampled independently.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import attrs

from ..engine.game import Game
from .measures import (
    DECLARER,
    LENGTH,
    LOST,
    MEASURE,
    POINTS,
    SCORES,
    TOTAL,
    Key,
    MatchMeasures,
    den_key,
    measure_match,
    needs_views,
    position_order,
)
from .play import play_match
from .runner import ChunkRun, Progress, VariantRef, run_chunks, seed_chunks

UNPAIRED_SALT = 500_000_000  # match indices of B when the decks differ in size
RESAMPLES = 2000
MAX_LEVEL_ROWS = 8
OPTIONAL = {(LENGTH, "deals thrown in per match"), (SCORES, "matches stopped by a rule")}


@attrs.frozen
class CompareChunk:
    """Matches `start`..`stop - 1` of a comparison, under both variants."""

    a: VariantRef
    b: VariantRef
    seed: int
    start: int
    stop: int
    bots: str = "greedy"
    players: int | None = None
    paired: bool = True
    measures: tuple[str, ...] = ()


def compare_chunk(chunk: CompareChunk) -> list[tuple[MatchMeasures, MatchMeasures]]:
    """Play the chunk's matches under both variants and measure them."""
    a, b = chunk.a.load(), chunk.b.load()
    views = needs_views(chunk.measures, (a, b))
    out = []
    for i in range(chunk.start, chunk.stop):
        ra = play_match(a, chunk.seed, i, chunk.bots, chunk.players, views=views)
        j = i if chunk.paired else i + UNPAIRED_SALT
        rb = play_match(b, chunk.seed, j, chunk.bots, chunk.players, views=views)
        out.append((measure_match(ra, chunk.measures), measure_match(rb, chunk.measures)))
    return out


@attrs.frozen
class Row:
    """One quantity: its value under A and B, the difference B - A and its 95% interval."""

    section: str
    label: str
    a: float
    b: float
    diff: float
    low: float
    high: float
    n_a: float  # the denominators: deals (or matches) the value rests on
    n_b: float
    a_low: float = math.nan
    a_high: float = math.nan
    b_low: float = math.nan
    b_high: float = math.nan

    @property
    def significant(self) -> bool:
        """Whether the 95% interval of the difference excludes 0."""
        return not (math.isnan(self.low) or self.low <= 0 <= self.high)


@attrs.frozen
class Comparison:
    """The result of `compare`: rows by section, raw values for plots, and what was run."""

    a_name: str
    b_name: str
    a_title: str
    b_title: str
    a_hash: str
    b_hash: str
    bots: str
    seed: int
    matches: int  # matches finished (per variant)
    requested: int
    paired: bool
    notes: tuple[str, ...]
    rows: tuple[Row, ...]
    final_scores: tuple[tuple[int, ...], tuple[int, ...]]  # every seat's final score, A / B
    deals_per_match: tuple[tuple[int, ...], tuple[int, ...]]
    deal_lengths: tuple[tuple[int, ...], tuple[int, ...]]
    interrupted: bool
    seconds: float
    measures: tuple[str, ...] = ()

    def section(self, name: str) -> list[Row]:
        """The rows of one section, in order."""
        return [r for r in self.rows if r.section == name]

    @property
    def sections(self) -> list[str]:
        """The section names, in order."""
        return list(dict.fromkeys(r.section for r in self.rows))

    @property
    def deals(self) -> tuple[int, int]:
        """The deals played under A and under B."""
        return sum(self.deals_per_match[0]), sum(self.deals_per_match[1])


def decks_note(a: Game, b: Game) -> tuple[bool, str | None]:
    """Whether matches can be paired (same deck size), and a note when the decks differ."""
    if a.model.deck.size != b.model.deck.size:
        return False, (
            f"the decks differ in size ({a.model.deck.size} and {b.model.deck.size} cards): "
            "the deals cannot be the same, so B is played from independent seeds"
        )
    if a.card_texts != b.card_texts:
        return True, (
            "the decks have the same size but different cards: both use the same shuffles "
            "(card positions), not the same cards"
        )
    return True, None


def compare(
    a: Game,
    b: Game,
    matches: int,
    seed: int = 0,
    bots: str = "greedy",
    players: int | None = None,
    measures: Sequence[str] = (),
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
) -> Comparison:
    """Play `matches` matches of each variant (duplicate deals) and compare them."""
    started = time.perf_counter()
    paired, note = decks_note(a, b)
    ref_a, ref_b = VariantRef.of(a), VariantRef.of(b)
    chunks = [
        CompareChunk(ref_a, ref_b, seed, r.start, r.stop, bots, players, paired, tuple(measures))
        for r in seed_chunks(matches, chunk_size or _chunk(workers, scheduler))
    ]
    run: ChunkRun[list[tuple[MatchMeasures, MatchMeasures]]] = run_chunks(
        compare_chunk, chunks, workers=workers, scheduler=scheduler, progress=progress
    )
    pairs = [p for result in run.finished for p in result]
    notes = (note,) if note else ()
    return summarize(
        pairs,
        a,
        b,
        bots=bots,
        seed=seed,
        requested=matches,
        paired=paired,
        notes=notes,
        interrupted=run.interrupted,
        seconds=time.perf_counter() - started,
        measures=tuple(measures),
    )


def summarize(
    pairs: Sequence[tuple[MatchMeasures, MatchMeasures]],
    a: Game,
    b: Game,
    bots: str,
    seed: int,
    requested: int,
    paired: bool,
    notes: tuple[str, ...] = (),
    interrupted: bool = False,
    seconds: float = 0.0,
    measures: tuple[str, ...] = (),
) -> Comparison:
    """Turn the measured matches into rows with bootstrap intervals."""
    import numpy as np

    ma = [p[0] for p in pairs]
    mb = [p[1] for p in pairs]
    levels = sorted({lv for m in (*ma, *mb) for lv in m.levels})
    band = _bands(levels)
    keys = _keys(ma, mb, band)
    n = len(pairs)
    rows: list[Row] = []
    if n:
        xa = _matrix(ma, keys, band)
        xb = _matrix(mb, keys, band)
        rng = np.random.default_rng(seed)
        wa = _weights(rng, n)
        wb = wa if paired else _weights(rng, n)
        ratio_a = _ratios(wa, *xa)
        ratio_b = _ratios(wb, *xb)
        with np.errstate(invalid="ignore", divide="ignore"):
            point_a = xa[0].sum(0) / xa[1].sum(0)
            point_b = xb[0].sum(0) / xb[1].sum(0)
        diffs = ratio_b - ratio_a
        for k, key in enumerate(keys):
            section, label = key
            if label == TOTAL:
                continue
            lo, hi = _interval(diffs[:, k])
            alo, ahi = _interval(ratio_a[:, k])
            blo, bhi = _interval(ratio_b[:, k])
            if key in OPTIONAL and not (xa[0][:, k].any() or xb[0][:, k].any()):
                continue  # nothing of the kind happened: no row
            rows.append(
                Row(
                    section,
                    label,
                    float(point_a[k]),
                    float(point_b[k]),
                    float(point_b[k] - point_a[k]),
                    lo,
                    hi,
                    float(xa[1][:, k].sum()),
                    float(xb[1][:, k].sum()),
                    alo,
                    ahi,
                    blo,
                    bhi,
                )
            )
    return Comparison(
        a.name,
        b.name,
        a.title,
        b.title,
        a.content_hash,
        b.content_hash,
        bots,
        seed,
        n,
        requested,
        paired,
        notes,
        tuple(rows),
        (
            tuple(s for m in ma for s in m.final_scores),
            tuple(s for m in mb for s in m.final_scores),
        ),
        (tuple(m.deals_played for m in ma), tuple(m.deals_played for m in mb)),
        (
            tuple(x for m in ma for x in m.deal_lengths),
            tuple(x for m in mb for x in m.deal_lengths),
        ),
        interrupted,
        seconds,
        measures,
    )


def _bands(levels: list[int]) -> dict[int, str]:
    """Contract levels grouped into at most MAX_LEVEL_ROWS bands of a round width."""
    if len(levels) <= MAX_LEVEL_ROWS:
        return {lv: str(lv) for lv in levels}
    lo, hi = levels[0], levels[-1]
    width = 1
    for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10_000, 100_000):
        width = w
        if (hi - lo) // w + 1 <= MAX_LEVEL_ROWS:
            break
    out = {}
    for lv in levels:
        start = lo + (lv - lo) // width * width
        out[lv] = f"{start}-{start + width - 1}"
    return out


def _label(key: Key, band: dict[int, str]) -> Key:
    section, label = key
    if section == DECLARER and label.startswith("level:"):
        return section, band[int(label[6:])]
    return key


def _keys(ma: list[MatchMeasures], mb: list[MatchMeasures], band: dict[int, str]) -> list[Key]:
    seen: dict[Key, None] = {}
    for m in (*ma, *mb):
        for key in m.num:
            seen[_label(key, band)] = None
    bands = {label: i for i, label in enumerate(dict.fromkeys(band.values()))}
    fixed = [DECLARER, POINTS, LOST, LENGTH, SCORES]
    first = list(seen)

    def sort_key(key: Key) -> tuple[int, str, int, int]:
        section, label = key
        where = fixed.index(section) if section in fixed else len(fixed)
        if section == DECLARER:
            rank = bands.get(label, len(bands))
        elif section in (POINTS, LOST) or section.startswith(MEASURE):
            rank = position_order(label) if "after dealer" in label or label == "dealer" else 0
        else:
            rank = 0
        return (where, section if where == len(fixed) else "", rank, first.index(key))

    return sorted(seen, key=sort_key)


def _matrix(ms: list[MatchMeasures], keys: list[Key], band: dict[int, str]) -> tuple[Any, Any]:
    import numpy as np

    index = {k: i for i, k in enumerate(keys)}
    num = np.zeros((len(ms), len(keys)))
    den = np.zeros((len(ms), len(keys)))
    for row, m in enumerate(ms):
        for key, value in m.num.items():
            num[row, index[_label(key, band)]] += value
        for key, value in m.den.items():
            den[row, index[_label(key, band)]] += value
    for key, i in index.items():  # shares of a text use their measure's count of deals
        dk = den_key(key)
        if dk != key and dk in index:
            den[:, i] = den[:, index[dk]]
    return num, den


def _weights(rng: Any, n: int) -> Any:
    """RESAMPLES rows of bootstrap weights: how often each match is drawn."""
    import numpy as np

    draws = rng.integers(0, n, size=(RESAMPLES, n))
    weights = np.zeros((RESAMPLES, n))
    np.add.at(weights, (np.arange(RESAMPLES)[:, None], draws), 1)
    return weights


def _ratios(weights: Any, num: Any, den: Any) -> Any:
    import numpy as np

    with np.errstate(invalid="ignore", divide="ignore"):
        return (weights @ num) / (weights @ den)


def _interval(values: Any) -> tuple[float, float]:
    import numpy as np

    v = np.asarray(values)
    v = v[np.isfinite(v)]
    if len(v) < 0.9 * RESAMPLES:  # the quantity is missing from too many resamples
        return math.nan, math.nan
    lo, hi = np.percentile(v, [2.5, 97.5])
    return float(lo), float(hi)


def _chunk(workers: int | None, scheduler: str | None) -> int:
    """Matches per chunk: one in this process (an interrupt loses at most one match), five
    on workers. The totals do not depend on it: chunks add up in order."""
    return 1 if workers is None and scheduler is None else 5
