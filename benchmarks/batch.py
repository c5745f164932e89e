"""Benchmark: the batch API against the raw engine and OpenSpiel's C++ card games (issue 30).

Run:  python benchmarks/batch.py [--seconds 2] [--batch 64] [--game NAME ...] [--no-native]

For the six games trickcore and OpenSpiel both have (Bridge, Euchre, Oh Hell, Hearts, Spades,
Skat) it measures, side by side in one run, random play in player actions per second:

- pyspiel: OpenSpiel's C++ game through its Python API (`legal_actions`, a random choice,
  `apply_action`; chance nodes dealt and not counted), then the same with the player's
  `observation_tensor()` (or `information_state_tensor()` where the game has no other)
  asked at every decision, as a learner asks;
- raw: trickcore's pure-Python engine (`legal_ids` / `apply_id` on a deal, nothing observed);
- native: the same loop on the compiled engine (`python -m native build`, run in a child
  process with the compiled copy first on the path; left out with `--no-native`);
- adapter: trickcore's OpenSpiel game (`trickcore.openspiel.load_game`) through the same
  loop as pyspiel's, chance nodes included (the deck dealt card by card) and not counted;
- batch: `trickcore.batch.DealBatch` of `--batch` deals, compact actions: every step gives
  each deal's observation tensor for its seat to act, its legal mask and the rewards.

and prints each figure's ratio to pyspiel's beside its target: native at least 1.0 times
pyspiel (issue 30), the batch at least 3 times pyspiel's per-action rate. The rates are the
best of three rounds of `--seconds` each, the ways alternating round by round.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path
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
NATIVE_TARGET = 1.0  # the native engine's rate over pyspiel's, at least
ROOT = Path(__file__).resolve().parent.parent


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


def native_rate(dest: Path, name: str, seconds: float) -> float:
    """`raw_rate` of the compiled engine at `dest`, measured in a child process."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import trickcore, batch; "
        "assert trickcore.ENGINE == 'native', trickcore.ENGINE; "
        f"print(batch.raw_rate(trickcore.load_variant({name!r}), {seconds!r}))"
    )
    env = {**os.environ, "PYTHONPATH": str(dest)}
    # -P: not the checkout's own package from the current folder
    out = subprocess.run(
        [sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return float(out.stdout.split()[-1])


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
    ap.add_argument("--no-native", action="store_true", help="leave the compiled engine out")
    args = ap.parse_args()
    import pyspiel

    import trickcore.openspiel as tos

    dest = None
    if not args.no_native:
        sys.path.insert(0, str(ROOT))
        from native import build

        dest = build()
    print(f"engine: {trickcore.ENGINE}; player actions per second, best of 3 rounds")
    head = (
        f"{'game':<8} {'pyspiel':>9} {'+obs':>9} {'raw':>9} {'native':>9} {'adapter':>9}"
        f" {'batch':>9} {'native/pyspiel':>15} {'target':>7} {'adapter/raw':>12}"
        f" {'batch/pyspiel':>14} {'target':>7} {'batch/+obs':>11}"
    )
    print(head)
    for name in args.game:
        variant = trickcore.load_variant(name)
        game = pyspiel.load_game(GAMES[name])
        adapter = tos.load_game(name)
        best = dict.fromkeys(("pyspiel", "obs", "raw", "native", "adapter", "batch"), 0.0)
        for _ in range(3):
            best["pyspiel"] = max(best["pyspiel"], pyspiel_rate(game, args.seconds, False))
            best["obs"] = max(best["obs"], pyspiel_rate(game, args.seconds, True))
            best["raw"] = max(best["raw"], raw_rate(variant, args.seconds))
            if dest is not None:
                best["native"] = max(best["native"], native_rate(dest, name, args.seconds))
            best["adapter"] = max(best["adapter"], pyspiel_rate(adapter, args.seconds, False))
            best["batch"] = max(best["batch"], batch_rate(variant, args.batch, args.seconds))
        ratio = best["batch"] / best["pyspiel"]
        native = best["native"] / best["pyspiel"]
        marks = (
            "ok" if native >= NATIVE_TARGET else "MISSED" if dest is not None else "-",
            "ok" if ratio >= TARGET else "MISSED",
        )
        print(
            f"{name:<8} {best['pyspiel']:>9,.0f} {best['obs']:>9,.0f} {best['raw']:>9,.0f}"
            f" {best['native']:>9,.0f} {best['adapter']:>9,.0f} {best['batch']:>9,.0f}"
            f" {native:>15.3f} {'≥' + str(NATIVE_TARGET):>7}"
            f" {best['adapter'] / best['raw']:>12.3f}"
            f" {ratio:>14.3f} {'≥' + str(TARGET):>7}"
            f" {best['batch'] / best['obs']:>11.3f} native {marks[0]}, batch {marks[1]}"
        )


if __name__ == "__main__":
    main()
