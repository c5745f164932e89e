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
from ..language.errors import TrickcoreError
from .heuristic import HeuristicPlayer
from .pimc import DEFAULT_SECONDS
from .protocol import Turn
from .reading import View
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

    __slots__ = ("children", "visits", "total", "available", "order")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.order: list[int] | None = None  # a wide decision's actions in widening order


class ISMCTSPlayer:
    """An information-set MCTS bot for any variant and every phase.

    `iterations` is the most tree iterations per decision (each one a sampled world and a
    playout); `steps` the most actions played in them (tree and playouts); the worlds come
    from a pool of `worlds` samples used in turn; `seconds` caps the whole decision,
    sampling included (0.8 by default; sampling may take 70% of it: fewer worlds then, and
    the heuristic bot decides when none was found in time). The work budget comes first: at
    the defaults (400 iterations, 6,000 steps) a decision takes 0.06-0.25 s on average in
    every shipped game on a busy 2-core machine, so the cap is a safety net (`capped` counts
    the decisions it stopped, `fallbacks` those left to the heuristic bot); `exploration` is
    the UCT constant (in units of the largest deal value seen); `widening`: with more legal
    actions than that (a long ladder of bids), the search widens progressively: it starts
    with the heuristic bot's choice and one more (an action of another kind, a pass beside a
    bid, then those of its kind nearest to it), and lets in the next each time the
    decision's visits pass a square (2 + sqrt of them in all), so that every action it
    weighs gets visits enough to be judged (0: all at once); cards of a wide hand are let in
    as the rules list them after the heuristic bot's choice (nearest first is for a ladder
    of calls). It does so at the root and, down the tree, at every wide ladder of calls
    (more than `widening` actions that play no card), there with the heuristic bot's choice
    in the first world that reached it: other players in the tree then bid as the rules of
    thumb suggest and near it, not every bid of the ladder alike (a reckless overcall in the
    tree made the seat's own jump bids look best). A choice among cards down the tree is
    weighed whole: widened there too, the search did worse than without
    (docs/howto/bots.md).
    The same seed and budgets give the same choices unless the time cap is reached.
    """

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 400,
        worlds: int = 40,
        seconds: float | None = DEFAULT_SECONDS,
        exploration: float = 0.7,
        rollout: str = "heuristic",
        steps: int = 6_000,
        widening: int = 8,
    ) -> None:
        check_options("ismcts", iterations, seconds, worlds, steps)
        if type(widening) is not int or widening < 0:
            raise TrickcoreError("ismcts: widening must be a whole number of at least 0")
        self.widening = widening
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
        self.capped = 0  # decisions the time cap stopped before their iterations and steps
        self._budget: Budget | None = None  # the last decision's

    def choose(self, turn: Turn) -> Action:
        """The action tried most often by the search (its most robust choice); the
        heuristic bot's choice when no hidden world can be sampled (counted in `fallbacks`)."""
        if len(turn.legal) == 1:
            return turn.legal[0]
        try:
            root = self._search(turn)
        except WorldsUnavailable:
            root = _Node()
        if self._budget is not None and self._budget.capped:
            self.capped += 1
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
        self._budget = budget
        worlds = sample_worlds(turn, self.worlds, rng, budget, self.memory)
        rollout = Rollout(self.rollout, rng)
        root = _Node()
        scale = 1.0
        c = self.exploration
        order = self._root_order(turn)
        wide = 0 < self.widening < len(order)
        allowed = {a.id for a in order}
        while worlds and not budget.spent():
            if wide:  # progressive widening at the root: 2 + sqrt(iterations) actions
                allowed = {a.id for a in order[: 2 + math.isqrt(budget.used)]}
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
                elif 0 < self.widening < len(legal) and self.widening < _calls(legal):
                    # another wide decision down the tree (calls counted only there): a
                    # ladder of calls (bids), not a choice of cards, weighed well enough whole
                    if node.order is None:  # ordered by the rules of thumb in this world
                        seat = world.to_act
                        view = View.of_deal(world, seat)  # type: ignore[arg-type]
                        choice = self.fallback.decide(world.game, view, seat, tuple(legal))
                        node.order = [a.id for a in widening_order(legal, choice)]
                    let_in = set(node.order[: 2 + math.isqrt(node.visits)])
                    legal = [a for a in legal if a.id in let_in] or legal
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

    def _root_order(self, turn: Turn) -> list[Action]:
        """The legal actions in the order a widening search lets them in (see
        `widening_order`): on a ladder of bids, the bids next to the one the heuristic bot
        would make before those far from it."""
        legal = list(turn.legal)
        if not (0 < self.widening < len(legal)):
            return legal
        return widening_order(legal, self.fallback.choose(turn))


def widening_order(legal: list[Action], first: Action) -> list[Action]:
    """`legal` in the order a widening search lets them in: `first` (the heuristic bot's
    choice), then the first of each other kind (a pass beside a bid), then those of its
    kind (on a ladder of calls, nearest to it in the rules' order; cards in the rules'
    order), then the rest."""
    at = legal.index(first)
    kinds: dict[str, int] = {}
    for i, a in enumerate(legal):
        kinds.setdefault(a.kind, i)
    others = {i for kind, i in kinds.items() if kind != first.kind}

    def rank(i: int) -> tuple[int, int, int]:
        if i == at:
            return (0, 0, i)
        if i in others:
            return (1, 0, i)
        if legal[i].kind == first.kind:
            # on a ladder of calls (bids), those next to it first; cards as the rules list them
            return (2, 0 if _plays_cards(first) else abs(i - at), i)
        return (3, 0, i)

    return [legal[i] for i in sorted(range(len(legal)), key=rank)]


def _plays_cards(action: Action) -> bool:
    """Whether the action plays, gives or shows cards (a card of a trick, cards of a bout)."""
    return action.card >= 0 or bool(action.cards)


def _calls(legal: list[Action]) -> int:
    """How many of the actions are calls (bids, passes, announcements), not cards."""
    return sum(not _plays_cards(a) for a in legal)
