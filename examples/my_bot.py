"""Play a match of a shipped variant with your own bot at seat 0 against the heuristic bot.

A bot is any class with one method, `choose(turn)`: the turn holds the variant, the seat,
that seat's observation (never a hidden card) and the legal actions; it returns one of them.

Run:  python examples/my_bot.py [variant] [seed] [saved.json]

The match is saved to the file named, or else to a new temporary folder (never into the
current folder unasked); the last line says where, and how to replay it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import trickcore
from trickcore.players import Turn, make_bot, turn_of


class MyBot:
    """Declares every marriage it may, opens as low as allowed, then passes; plays its first
    legal card."""

    def choose(self, turn: Turn) -> trickcore.Action:
        """The action to take now: one of `turn.legal`."""
        marriages = [a for a in turn.legal if a.kind == "marry"]
        if marriages:
            return marriages[0]
        if turn.observation.phase == "bid":
            passes = [a for a in turn.legal if a.kind == "pass"]
            return passes[0] if passes else turn.legal[0]
        return turn.legal[0]


def main() -> None:
    """Play one match of the variant named (tysiacha) from the seed given (7) and save it."""
    name = sys.argv[1] if len(sys.argv) > 1 else "tysiacha"
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    variant = trickcore.load_variant(name)
    match = variant.new_match(seed=seed)
    # seat 0 is yours; the others are built-in bots by name ("random", "greedy",
    # "heuristic", "pimc", "ismcts", "pimc:iterations=100", ...)
    bots = [MyBot()] + [make_bot("heuristic", seed=seed + s) for s in range(1, match.seats)]
    while not match.is_over:
        match.apply(bots[match.to_act].choose(turn_of(match)))
    print(f"{variant.title}: {len(match.deal_results)} deals, scores {match.scores}")
    print(f"winners: {match.winners}")
    if len(sys.argv) > 3:
        path = Path(sys.argv[3])
    else:
        path = Path(tempfile.mkdtemp(prefix="trickcore-my-bot-")) / "last_match.json"
    trickcore.save_match(match, str(path))
    print(f"saved to {path}; replay it with: trickcore replay {path}")


if __name__ == "__main__":
    main()
