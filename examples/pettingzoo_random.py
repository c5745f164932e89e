"""Random agents play a whole match through trickcore's PettingZoo environment.

    python examples/pettingzoo_random.py [VARIANT] [SEED]

Every agent picks uniformly among the legal actions its `action_mask` allows. Prints the
number of steps, each agent's cumulative reward (its final score, or standing, minus its
start) and the winners, then the table as `render_mode="ansi"` draws it.
Needs `pip install 'trickcore[pettingzoo]'`.
"""

from __future__ import annotations

import sys

import numpy as np

import trickcore.pettingzoo as tpz


def main(argv: list[str]) -> None:
    """Play one match with random agents and print the outcome."""
    variant = argv[0] if argv else "tysiacha"
    seed = int(argv[1]) if len(argv) > 1 else 1
    env = tpz.env(variant, render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    info: dict = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            steps += 1
        if steps == 1 and action is not None:
            print(env.render())
        env.step(action)
    print(f"{variant}: {steps} actions")
    for agent, total in totals.items():
        print(f"{agent}: cumulative reward {total:g}")
    print(f"winners: {', '.join(info.get('winners', [])) or 'none'}")
    env.close()


if __name__ == "__main__":
    main(sys.argv[1:])
