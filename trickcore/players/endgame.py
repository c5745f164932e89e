"""Exact play of a world's last tricks: alpha-beta over the perfect-information deal, as
double-dummy solvers do, for any trick game.

In a sampled world every card is known, so once few cards remain the rest of the deal can
be searched to its end instead of played out by a rollout policy. The seat and every
player on its side (`partners` in the deal: a fixed side, a side formed in play, the other
defender against a declarer) maximise the seat's value of the finished deal
(`values.deal_values`); everyone else minimises it. Every action of the deal is a node (a
card, and any choice offered during play, such as an announcement), so a search that
would take more than `nodes` nodes is given up and the caller plays the world out instead.
"""

from __future__ import annotations

import math
from typing import cast

from ..engine.deal import Deal
from ..engine.state import DealState
from .values import deal_values

DEFAULT_NODES = 4_000  # the most nodes one solve may visit before it is given up


class _TooBig(Exception):
    """The search went past its node budget."""


class EndgameSolver:
    """Solves a world exactly once at most `tricks` tricks remain in its trick play (each
    active player holding at most that many cards); `nodes` caps one solve."""

    def __init__(self, tricks: int, nodes: int = DEFAULT_NODES) -> None:
        self.tricks = tricks
        self.nodes = nodes
        self.visited = 0  # nodes visited by every solve so far (the caller's budget)
        self.solved = 0  # worlds solved exactly
        self.given_up = 0  # worlds whose search went past `nodes`

    def applies(self, world: DealState) -> bool:
        """The world is in trick play with few enough cards left to try a solve."""
        if self.tricks <= 0 or not isinstance(world, Deal) or world.is_over:
            return False
        if world.phase != "play":
            return False
        return all(len(world.hands[s]) <= self.tricks for s in world.active)

    def value(self, world: DealState, seat: int) -> float | None:
        """The seat's value of the world under best play by both sides (the world is not
        changed); None when the search would take more than `nodes` nodes, or the world
        is no trick deal."""
        if not isinstance(world, Deal):
            return None
        self._left = self.nodes
        self._seat = seat
        try:
            found = self._search(_copy(world), -math.inf, math.inf)
        except _TooBig:
            self.visited += self.nodes
            self.given_up += 1
            return None
        self.visited += self.nodes - self._left
        self.solved += 1
        return found

    def _search(self, deal: Deal, alpha: float, beta: float) -> float:
        """Alpha-beta value of `deal` (which this call may change) for the seat."""
        while not deal.is_over:
            legal = deal.legal_actions()
            if len(legal) != 1:
                break
            deal.apply(legal[0])  # a forced action is no node
        if deal.is_over:
            return deal_values(deal)[self._seat]
        self._left -= 1
        if self._left < 0:
            raise _TooBig
        actor = deal.to_act
        ours = actor == self._seat or deal.partners(self._seat, actor)
        best = -math.inf if ours else math.inf
        last = len(legal) - 1
        for i, action in enumerate(legal):
            child = deal if i == last else _copy(deal)
            child.apply(action)
            v = self._search(child, alpha, beta)
            if ours:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


def _copy(deal: Deal) -> Deal:
    """An independent copy of a trick deal."""
    return cast(Deal, deal.clone())
