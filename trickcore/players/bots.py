"""Simple computer players: a random one, and a greedy one that plays sensible cards.

Both follow the `Bot` protocol (`choose(turn) -> Action`): they see only the turn's
observation and legal actions.
"""

from __future__ import annotations

import random

from ..engine.actions import Action
from .protocol import Turn
from .reading import trump_suit


class RandomPlayer:
    """Picks uniformly among the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, turn: Turn) -> Action:
        """The action to take now: any legal one, each as likely."""
        return self.rng.choice(turn.legal)


class GreedyPlayer:
    """A modest opponent: bids low, leads a marriage when it may (`marry`; no other
    announcements, closing or claims), wins tricks cheaply when it can."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, turn: Turn) -> Action:
        """The action to take now."""
        legal = list(turn.legal)
        game = turn.variant
        kinds = {a.kind for a in legal}
        if game.model.bouts is not None:
            return self._bout_choice(turn, legal, kinds)
        if "marry" in kinds:
            return max(
                (a for a in legal if a.kind == "marry"), key=lambda a: game.points_of[a.card]
            )
        if "keep" in kinds:
            return next(a for a in legal if a.kind == "keep")
        if "bid" in kinds:
            bids = [a for a in legal if a.kind == "bid"]
            if "pass" in kinds and self.rng.random() < 0.7:
                return next(a for a in legal if a.kind == "pass")
            return min(bids, key=lambda a: (a.value, a.qualifier))
        if "keep_contract" in kinds:
            return next(a for a in legal if a.kind == "keep_contract")
        if "give" in kinds:
            return min(legal, key=lambda a: game.points_of[a.card])
        plays = [a for a in legal if a.kind == "play"]
        if plays:
            # lead or follow with the highest card when it is an ace, else the cheapest
            best = min(plays, key=lambda a: game.rank_of[a.card])
            if game.rank_of[best.card] == 0:
                return best
            return min(plays, key=lambda a: (game.points_of[a.card], -game.rank_of[a.card]))
        return self.rng.choice(legal)

    def _bout_choice(self, turn: Turn, legal: list[Action], kinds: set[str]) -> Action:
        game = turn.variant
        trump = trump_suit(game, turn.observation.trump)

        def cost(card: int) -> tuple[bool, int]:
            return (game.suit_of[card] == trump, -game.rank_of[card])

        if "swap" in kinds:
            return next(a for a in legal if a.kind == "swap")
        beats = [a for a in legal if a.kind == "beat"]
        if "take" in kinds:
            return min(beats, key=lambda a: cost(a.cards[1])) if beats else legal[-1]
        throws = [a for a in legal if a.kind == "throw" and game.suit_of[a.cards[0]] != trump]
        if "done" in kinds:
            return min(throws, key=lambda a: cost(a.cards[0])) if throws else legal[-1]
        attacks = [a for a in legal if a.kind == "attack"]
        return min(attacks, key=lambda a: (cost(a.cards[0]), -len(a.cards)))
