"""Benchmark: the batch API against the raw engine and OpenSpiel's C++ card games (issue 30).

Run:  python benchmarks/batch.py [--seconds 2] [--batch 64] [--game NAME ...]

For the six games trickcore and OpenSpiel both have (Bridge, Euchre, Oh Hell, Hearts, Spades,
Skat) it measures, side by side in one process, random play in player actions per second:

- pyspiel: OpenSpiel's C++ game through its Python API (`legal_actions`, a random choice,
  `apply_action`; chance nodes dealt and not counted), then the same with the player's
  `observation_tensor()` (or `information_state_tensor()` where the game has no other)
  asked at every decision, as a learner asks;
- raw: trickcore's engine (`legal_ids` / `apply_id` on a deal, nothing observed);
- batch: `trickcore.batch.DealBatch` of `--batch` deals, compact actions: every step gives
  each deal's observation tensor for its seat to act, its legal mask and the rewards.

and prints the batch's rate over pyspiel's (target: at least 3 times pyspiel's per-action
rate) and over pyspiel's with observations. The rates are the best of three rounds of
`--seconds` each, the ways alternating round by round.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

import trickcore
from trickcore.batch import DealBatch

GAMES = {  # trickcore variant -> OpenSpiel game
    "bridge": "bridge(use_double_dummy_result=false)",  # no solver run at the end
    "euchre": "euchre",
    "oh-hell": "oh_hell",
    "hearts": "hearts",
    "spades": "spades",
    "skat": "skat",
}
TARGET = 3.0  # the batch's per-action rate over pyspiel's, at least


def pyspiel_rate(game: Any, seconds: float, observe: bool) -> float:
    """Player actions per second of random play through pyspiel."""
    rng = random.Random(0)
    actions = 0
    kind = game.get_type()
    tensor = (
        "observation_tensor" if kind.provides_observation_tensor else "information_state_tensor"
    )
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                continue
            if observe:
                getattr(state, tensor)(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - start)


def raw_rate(variant: trickcore.Variant, seconds: float) -> float:
    """Player actions per second of random deals through the engine."""
    rng = random.Random(0)
    actions = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = variant.new_deal(seed=seed)
        seed += 1
        while not deal.is_over:
            deal.apply_id(rng.choice(deal.legal_ids()))
            actions += 1
    return actions / (time.perf_counter() - start)


def batch_rate(variant: trickcore.Variant, n: int, seconds: float) -> float:
    """Player actions per second of random deals through `DealBatch`."""
    batch = DealBatch(variant, n, seed=0)
    rng = np.random.default_rng(0)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = batch.masks
        batch.step((rng.random(masks.shape) * masks).argmax(axis=1))
        actions += n
    return actions / (time.perf_counter() - start)


def main() -> None:
    """Measure and print the figures for each game."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--game", nargs="*", default=list(GAMES), choices=list(GAMES))
    args = ap.parse_args()
    import pyspiel

    print(f"engine: {trickcore.ENGINE}; player actions per second, best of 3 rounds")
    head = (
        f"{'game':<8} {'pyspiel':>9} {'+obs':>9} {'raw':>9} {'batch':>9}"
        f" {'batch/pyspiel':>14} {'target':>7} {'batch/+obs':>11}"
    )
    print(head)
    for name in args.game:
        variant = trickcore.load_variant(name)
        game = pyspiel.load_game(GAMES[name])
        best = {"pyspiel": 0.0, "obs": 0.0, "raw": 0.0, "batch": 0.0}
        for _ in range(3):
            best["pyspiel"] = max(best["pyspiel"], pyspiel_rate(game, args.seconds, False))
            best["obs"] = max(best["obs"], pyspiel_rate(game, args.seconds, True))
            best["raw"] = max(best["raw"], raw_rate(variant, args.seconds))
            best["batch"] = max(best["batch"], batch_rate(variant, args.batch, args.seconds))
        ratio = best["batch"] / best["pyspiel"]
        mark = "ok" if ratio >= TARGET else "MISSED"
        print(
            f"{name:<8} {best['pyspiel']:>9,.0f} {best['obs']:>9,.0f} {best['raw']:>9,.0f}"
            f" {best['batch']:>9,.0f} {ratio:>14.3f} {'≥' + str(TARGET):>7}"
            f" {best['batch'] / best['obs']:>11.3f} {mark}"
        )


if __name__ == "__main__":
    main()
