"""Perfect-Information Monte Carlo: sample hidden worlds consistent with what the seat
knows, play every legal action out in each world, pick the best on average.

Every legal action is tried in the same worlds with the same playout randomness (common
random numbers), so the comparison between actions is as fair as the budget allows. The
value of a playout is the deal's value for the seat (its gain in the direction the match
ranks, or -1 for the loser of a game of bouts; see `values.deal_values`).
"""

from __future__ import annotations

import random

from ..engine.actions import Action
from .heuristic import HeuristicPlayer
from .protocol import Turn
from .search import Budget, Rollout, WorldsUnavailable, best_of, check_options, sample_worlds


class PIMCPlayer:
    """A Perfect-Information Monte Carlo bot for any variant and every phase.

    `worlds` hidden worlds are sampled per decision; `iterations` is the most playouts per
    decision (shared among the worlds and the legal actions: every action is played out
    in the same worlds, world after world, and at least the first world is done);
    `steps` the most actions played in them (long deals get fewer playouts); `seconds`,
    when given, also stops the search. The same seed and budgets in iterations and steps
    give the same choices on any machine.
    """

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 24,
        iterations: int = 400,
        seconds: float | None = None,
        rollout: str = "heuristic",
        steps: int = 12_000,
    ) -> None:
        check_options("pimc", iterations, seconds, worlds, steps)
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.iterations = iterations
        self.steps = steps
        self.seconds = seconds
        self.rollout = rollout
        Rollout(rollout, self.rng)  # refuses an unknown rollout now, not at the first turn
        self.fallback = HeuristicPlayer(seed)
        self.fallbacks = 0  # decisions left to the heuristic: no world could be sampled

    def choose(self, turn: Turn) -> Action:
        """The action with the best average playout value (the heuristic bot's choice
        when no hidden world can be sampled for the turn; counted in `fallbacks`)."""
        if len(turn.legal) == 1:
            return turn.legal[0]
        try:
            return best_of(self.evaluate(turn))
        except WorldsUnavailable:
            self.fallbacks += 1
            return self.fallback.choose(turn)

    def evaluate(self, turn: Turn) -> list[tuple[Action, float]]:
        """Each legal action with its estimated value for the seat (mean over playouts)."""
        rng = random.Random(self.rng.getrandbits(64))
        budget = Budget(self.iterations, self.steps, self.seconds)
        legal = turn.legal
        worlds = sample_worlds(turn, self.worlds, rng)
        rollout = Rollout(self.rollout, rng)
        seat = turn.seat
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        rounds = 0
        while worlds and not (rounds and budget.spent()):
            for world in worlds:
                here = {a.id: a for a in world.legal_actions()}
                for i, a in enumerate(legal):
                    mine = here.get(a.id)
                    if mine is None:
                        continue
                    w = world.clone()
                    w.apply(mine)
                    totals[i] += rollout.run(w, budget)[seat]
                    counts[i] += 1
                    budget.used += 1
                if budget.spent():
                    break
            rounds += 1
        return [
            (a, totals[i] / counts[i] if counts[i] else float("-inf")) for i, a in enumerate(legal)
        ]
