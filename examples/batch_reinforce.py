"""A tiny policy gradient (REINFORCE) in numpy, trained on many deals at once with the batch API.

    python examples/batch_reinforce.py [VARIANT] [ITERATIONS] [BATCH]

A linear softmax policy over the observation tensor, masked to the legal actions, plays
every seat of `BATCH` deals stepped together (`trickcore.batch.DealBatch`). When a deal
ends, each of its seats' decisions is pushed toward what the deal was worth to that seat
against the table's average. Before and after training, the policy plays seat 0 against
random players for 200 deals; the mean deal score at seat 0 is printed both times.
Needs numpy (`pip install 'trickcore[pettingzoo]'`).
"""

from __future__ import annotations

import sys

import numpy as np

from trickcore.batch import DealBatch


def choose(weights: np.ndarray, obs: np.ndarray, masks: np.ndarray, rng) -> np.ndarray:
    """Sample one legal action per row from the masked softmax policy."""
    logits = obs @ weights
    logits = np.where(masks == 1, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return (p.cumsum(axis=1) > rng.random((len(p), 1))).argmax(axis=1), p


def evaluate(variant: str, weights: np.ndarray, deals: int, seed: int) -> float:
    """Mean deal score of the policy at seat 0 against random players at the other seats."""
    batch = DealBatch(variant, 50, seed=seed)
    rng = np.random.default_rng(seed)
    scores: list[float] = []
    while len(scores) < deals:
        obs, masks, seats = batch.observations, batch.masks, batch.to_act
        policy, _ = choose(weights, obs, masks, rng)
        random = (rng.random(masks.shape) * masks).argmax(axis=1)
        result = batch.step(np.where(seats == 0, policy, random))
        scores.extend(float(result.rewards[r, 0]) for r in np.flatnonzero(result.done))
    return float(np.mean(scores[:deals]))


def train(variant: str, iterations: int, n: int, seed: int = 0) -> np.ndarray:
    """REINFORCE over `iterations` steps of `n` deals; returns the policy's weights."""
    batch = DealBatch(variant, n, seed=seed)
    rng = np.random.default_rng(seed)
    weights = np.zeros((batch.observation_size, batch.num_actions), np.float32)
    # each row's decisions in its current deal: (seat, observation, action, probabilities)
    taken: list[list[tuple[int, np.ndarray, int, np.ndarray]]] = [[] for _ in range(n)]
    rate = 0.01
    for _ in range(iterations):
        obs, masks, seats = batch.observations, batch.masks, batch.to_act
        actions, p = choose(weights, obs, masks, rng)
        for row in range(n):
            taken[row].append((int(seats[row]), obs[row], int(actions[row]), p[row]))
        result = batch.step(actions)
        for row in np.flatnonzero(result.done):
            worth = result.rewards[row]
            advantage = worth - worth.mean()  # against the table's average
            for seat, o, a, probs in taken[row]:
                grad = -probs
                grad[a] += 1.0  # d log softmax / d logits
                weights += rate * advantage[seat] * np.outer(o, grad)
            taken[row] = []
    return weights


def main(argv: list[str]) -> None:
    """Train, and print the policy's mean score at seat 0 before and after."""
    variant = argv[0] if argv else "sixty-six"
    iterations = int(argv[1]) if len(argv) > 1 else 400
    n = int(argv[2]) if len(argv) > 2 else 32
    start = DealBatch(variant, 1)
    untrained = np.zeros((start.observation_size, start.num_actions), np.float32)
    print(f"{variant}: before training, seat 0 scores {evaluate(variant, untrained, 200, 1):.3f}")
    weights = train(variant, iterations, n)
    print(
        f"{variant}: after {iterations} steps of {n} deals, seat 0 scores "
        f"{evaluate(variant, weights, 200, 1):.3f} (the same 200 deals against random players)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
