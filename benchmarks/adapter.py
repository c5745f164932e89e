"""Benchmark: the OpenSpiel adapter against the raw engine it wraps (issue 30).

Run:  python benchmarks/adapter.py [--deals 200] [--rounds 5] [--variant NAME ...]

For each variant (default: Tysiacha, Hearts, Bridge) it plays the same random deals two ways
in one process, alternating round by round and keeping each way's best round:

- raw: the engine's match (`Variant.new_match` with the deal's deck order, then
  `legal_ids` / `apply_id` until the deal is played);
- adapter: the OpenSpiel game (`trickcore.openspiel.load_game`): a new state, the deck
  order dealt by its chance nodes, then `legal_actions` / `apply_action` until the end.

It prints the time per player action both ways (a deal's whole time, dealing and all, over
its players' actions) and their ratio beside the target (adapter ≤ 1.5× raw), then, in mid
deal, `clone()` of the OpenSpiel state (µs), and `observation_tensor` and
`information_state_tensor` (µs): asked for the player to act at each turn of a deal (the first
call at each state, as a learner asks), and asked again at the same state.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import trickcore
import trickcore.openspiel as tos

TARGET = 1.5  # the adapter's time per action over the raw engine's, at most
VARIANTS = ["tysiacha", "hearts", "bridge"]


def deck_orders(variant: trickcore.Variant, deals: int, seed: int) -> list[list[int]]:
    """`deals` shuffled deck orders (deck numbers), the same for both ways."""
    rng = random.Random(seed)
    orders = []
    for _ in range(deals):
        order = list(range(variant.model.deck.size))
        rng.shuffle(order)
        orders.append(order)
    return orders


def raw_round(variant: trickcore.Variant, orders: list[list[int]], seats: int) -> tuple[float, int]:
    """Seconds and player actions of random deals through the engine's match."""
    rng = random.Random(1)
    actions = 0
    start = time.perf_counter()
    for order in orders:
        m = variant.new_match(deck_orders=[order], players=seats)
        while m.deals_played < 1 and not m.is_over:
            m.apply_id(rng.choice(m.legal_ids()))
            actions += 1
    return time.perf_counter() - start, actions


def adapter_round(game: Any, orders: list[list[int]]) -> tuple[float, int]:
    """Seconds and player actions of random deals through the OpenSpiel game."""
    rng = random.Random(1)
    actions = 0
    start = time.perf_counter()
    for order in orders:
        state = game.new_initial_state()
        for card in order:
            state.apply_action(card)
        while not state.is_terminal():
            if state.is_chance_node():  # a redeal: deal again
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return time.perf_counter() - start, actions


def mid_deal(game: Any, order: list[int]) -> Any:
    """A state halfway through a random deal."""
    rng = random.Random(3)
    state = game.new_initial_state()
    for card in order:
        state.apply_action(card)
    length = 0
    probe = state.clone()
    while not probe.is_terminal():
        if probe.is_chance_node():
            break
        probe.apply_action(rng.choice(probe.legal_actions()))
        length += 1
    rng = random.Random(3)
    for _ in range(length // 2):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def micro(fn: Any, repeat: int = 200) -> float:
    """µs per call of `fn`, the best of five batches."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


def per_step(game: Any, order: list[int], method: str) -> float:
    """µs of `state.METHOD(player)` for the player to act at each turn of a random deal,
    asked once per state, as a learner asks it (the first call at each state)."""
    rng = random.Random(5)
    state = game.new_initial_state()
    for card in order:
        state.apply_action(card)
    spent, calls = 0.0, 0
    while not state.is_terminal() and not state.is_chance_node():
        player = state.current_player()
        fn = getattr(state, method)
        start = time.perf_counter()
        fn(player)
        spent += time.perf_counter() - start
        calls += 1
        state.apply_action(rng.choice(state.legal_actions()))
    return spent / calls * 1e6


def extras(game: Any, order: list[int]) -> tuple[float, float, float, float, float]:
    """In mid deal: clone µs; observation and information-state tensors, µs per call at
    each turn of a deal (first call at a state) and again at the same state."""
    state = mid_deal(game, order)
    player = state.current_player()
    clone = micro(state.clone)
    obs_step = per_step(game, order, "observation_tensor")
    obs_again = micro(lambda: state.observation_tensor(player))
    info_step = per_step(game, order, "information_state_tensor")
    info_again = micro(lambda: state.information_state_tensor(player))
    return clone, obs_step, obs_again, info_step, info_again


def main() -> None:
    """Measure and print the figures for each variant."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals in a round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each way")
    parser.add_argument("--variant", action="append", help="a variant (repeatable)")
    args = parser.parse_args()
    print(
        f"{'variant':<12} {'raw µs/act':>10} {'adapter µs/act':>14} {'ratio':>6} {'target':>7}"
        f" {'clone µs':>9} {'obs µs step/again':>17} {'info µs step/again':>18}"
    )
    for name in args.variant or VARIANTS:
        variant = trickcore.load_variant(name)
        seats = variant.check_seats(None)
        game = tos.load_game(name)
        orders = deck_orders(variant, args.deals, seed=11)
        raw_best = adapter_best = float("inf")
        for _ in range(args.rounds):  # alternating, the best round of each
            seconds, n = raw_round(variant, orders, seats)
            raw_best = min(raw_best, seconds / n)
            seconds, n = adapter_round(game, orders)
            adapter_best = min(adapter_best, seconds / n)
        ratio = adapter_best / raw_best
        clone, obs_step, obs_again, info_step, info_again = extras(game, orders[0])
        mark = "ok" if ratio <= TARGET else "MISSED"
        print(
            f"{name:<12} {raw_best * 1e6:>10.1f} {adapter_best * 1e6:>14.1f} {ratio:>6.2f}"
            f" {'≤' + str(TARGET):>7} {clone:>9.1f} {obs_step:>8.0f}/{obs_again:<8.0f}"
            f" {info_step:>9.0f}/{info_again:<8.0f} {mark}"
        )


if __name__ == "__main__":
    main()
