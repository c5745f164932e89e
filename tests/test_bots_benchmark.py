"""`benchmarks/bots.py` judges every game with higher as better: a deal score is signed as
the match ranks players, so Hearts' points taken (`rank_by = -score`) count negative."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import trickcore
from trickcore.players import make_bot

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "bots.py"


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmarks_bots", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks_bots"] = module
    spec.loader.exec_module(module)
    return module


def _scores(bench: ModuleType, name: str, seed: int) -> list[float]:
    """Each seat's benchmark score of one deal of heuristic bots."""
    variant = trickcore.load_variant(name)
    players = variant.model.players[0]
    order = list(range(variant.model.deck.size))
    random.Random(seed).shuffle(order)
    bots = [make_bot("heuristic", seed=s) for s in range(players)]
    return [bench.play(variant, players, order, bots, hero)[0] for hero in range(players)]


def test_points_taken_in_hearts_count_against_the_seat():
    bench = _benchmark()
    for seed in (1, 2):
        scores = _scores(bench, "hearts", seed)
        assert all(s <= 0 for s in scores)
        assert sum(scores) in (-26.0, -78.0)  # 26 points taken, or the moon: 26 to each other


def test_games_ranked_by_the_highest_score_keep_its_sign():
    bench = _benchmark()
    scores = _scores(bench, "tysiacha", 3)
    assert any(s > 0 for s in scores)
