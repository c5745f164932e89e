"""Play a match of a shipped variant with your own bot at seat 0 against random players.

Run:  python examples/my_bot.py [variant] [seed]
"""

from __future__ import annotations

import random
import sys

import trickcore


def my_bot(match: trickcore.Match) -> trickcore.Action:
    """A bot sees only its own observation and the legal actions, like a player at the table."""
    obs = match.observation(match.to_act)
    legal = match.legal_actions()
    marriages = [a for a in legal if a.kind == "marry"]
    if marriages:
        return marriages[0]  # declare whenever allowed
    if obs.phase == "bid":
        passes = [a for a in legal if a.kind == "pass"]
        return passes[0] if passes else legal[0]  # open as low as allowed, then pass
    if obs.phase == "play":
        return legal[0]
    return legal[0]


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "tysiacha"
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    variant = trickcore.load_variant(name)
    match = variant.new_match(seed=seed)
    others = random.Random(seed)
    while not match.is_over:
        if match.to_act == 0:
            match.apply(my_bot(match))
        else:
            match.apply(others.choice(match.legal_actions()))
    print(f"{variant.title}: {len(match.deal_results)} deals, scores {match.scores}")
    print(f"winners: {match.winners}")
    trickcore.save_match(match, "last_match.json")
    print("saved to last_match.json; replay it with: trickcore replay last_match.json")


if __name__ == "__main__":
    main()
