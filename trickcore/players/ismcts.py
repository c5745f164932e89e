"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse
2012): one tree over the deciding seat's information set; every iteration samples a world
consistent with what the seat knows (a determinization), walks the tree along the actions
legal in that world, choosing by UCT with availability counts (an action's exploration term
counts the iterations in which it was available, not its parent's visits), adds one node,
plays the rest of the deal out and backs each node's value up for the seat that acted
there (every player maximises his own value; see `values.deal_values`).
"""

from __future__ import annotations

import math
import random

from ..engine.actions import Action
from .heuristic import HeuristicPlayer
from .pimc import DEFAULT_SECONDS
from .protocol import Turn
from .search import (
    Budget,
    Rollout,
    WorldMemory,
    WorldsUnavailable,
    best_of,
    check_options,
    sample_worlds,
)


class _Node:
    """Statistics of an action taken from a tree node, and the node it leads to."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1


class ISMCTSPlayer:
    """An information-set MCTS bot for any variant and every phase.

    `iterations` is the most tree iterations per decision (each one a sampled world and a
    playout); `steps` the most actions played in them (tree and playouts); the worlds come
    from a pool of `worlds` samples used in turn; `seconds` caps the whole decision,
    sampling included (0.8 by default; sampling may take half of it: fewer worlds then,
    and the heuristic bot decides when none was found in time); `exploration` is the UCT
    constant (in units of the largest deal value seen). The same seed and budgets give
    the same choices unless the time cap is reached.
    """

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 600,
        worlds: int = 40,
        seconds: float | None = DEFAULT_SECONDS,
        exploration: float = 0.7,
        rollout: str = "heuristic",
        steps: int = 12_000,
    ) -> None:
        check_options("ismcts", iterations, seconds, worlds, steps)
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.steps = steps
        self.worlds = worlds
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout
        Rollout(rollout, self.rng)
        self.fallback = HeuristicPlayer(seed)
        self.memory = WorldMemory()  # its last world of the deal: the next search starts there
        self.fallbacks = 0  # decisions left to the heuristic: no world could be sampled

    def choose(self, turn: Turn) -> Action:
        """The action tried most often by the search (its most robust choice); the
        heuristic bot's choice when no hidden world can be sampled (counted in `fallbacks`)."""
        if len(turn.legal) == 1:
            return turn.legal[0]
        try:
            root = self._search(turn)
        except WorldsUnavailable:
            root = _Node()
        visits = [
            (a, float(root.children[a.id].visits)) for a in turn.legal if a.id in root.children
        ]
        if not visits:  # no world, or no time for one iteration
            self.fallbacks += 1
            return self.fallback.choose(turn)
        return best_of(visits)

    def evaluate(self, turn: Turn) -> list[tuple[Action, float]]:
        """Each legal action with its estimated value for the seat (mean at the root)."""
        root = self._search(turn)
        out = []
        for a in turn.legal:
            child = root.children.get(a.id)
            out.append((a, child.total / child.visits if child and child.visits else float("-inf")))
        return out

    def _search(self, turn: Turn) -> _Node:
        rng = random.Random(self.rng.getrandbits(64))
        budget = Budget(self.iterations, self.steps, self.seconds)
        worlds = sample_worlds(turn, self.worlds, rng, budget, self.memory)
        rollout = Rollout(self.rollout, rng)
        root = _Node()
        scale = 1.0
        c = self.exploration
        allowed = {a.id for a in turn.legal}
        while worlds and not budget.spent():
            world = worlds[budget.used % len(worlds)].clone()
            budget.used += 1
            node = root
            path: list[tuple[_Node, int]] = []
            first = True
            while not world.is_over:
                legal = world.legal_actions()
                if first:
                    legal = [a for a in legal if a.id in allowed] or legal
                    first = False
                actor = world.to_act
                children = node.children
                untried = []
                for a in legal:
                    child = children.get(a.id)
                    if child is None:
                        untried.append(a)
                    else:
                        child.available += 1
                if untried:
                    a = untried[int(rng.random() * len(untried))]
                    child = children[a.id] = _Node()
                    world.apply(a)
                    path.append((child, actor))
                    break
                best_a = legal[0]
                best_u = -math.inf
                for a in legal:
                    child = children[a.id]
                    u = child.total / (child.visits * scale) + c * math.sqrt(
                        math.log(child.available) / child.visits
                    )
                    if u > best_u:
                        best_a, best_u = a, u
                node = children[best_a.id]
                world.apply(best_a)
                budget.steps += 1
                path.append((node, actor))
            values = rollout.run(world, budget)
            top = max(abs(v) for v in values)
            if top > scale:
                scale = top
            for child, actor in path:
                child.visits += 1
                child.total += values[actor]
        return root
