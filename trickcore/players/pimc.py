"""Perfect-Information Monte Carlo: sample hidden worlds consistent with what the seat
knows, play every legal action out in each world, pick the best on average.

Every legal action is tried in the same worlds with the same playout randomness (common
random numbers), so the comparison between actions is as fair as the budget allows. The
value of a playout is the deal's value for the seat (its gain in the direction the match
ranks, against the other seats' average gain; see `values.deal_values`).
"""

from __future__ import annotations

import math
import random
import statistics

from ..engine.actions import Action
from ..language.errors import TrickcoreError
from .endgame import EndgameSolver
from .heuristic import HeuristicPlayer
from .protocol import Turn
from .search import (
    Budget,
    Rollout,
    WorldMemory,
    WorldsUnavailable,
    check_options,
    sample_worlds,
)

DEFAULT_SECONDS = 0.8  # the default cap on a whole decision, sampling included
SETTLE_AFTER = 12  # worlds played out for every action before the search may stop early
SETTLE_Z = 3.0  # standard errors by which the best action then beats each other one
PRUNE_AFTER = 6  # worlds played out for every action before one beaten by SETTLE_Z is dropped


class PIMCPlayer:
    """A Perfect-Information Monte Carlo bot for any variant and every phase.

    `worlds` hidden worlds are sampled per decision; `iterations` is the most playouts per
    decision (shared among the worlds and the legal actions: every action is played out
    in the same worlds, world after world, the heuristic bot's choice first in each, so
    that a budget smaller than the legal actions still weighs it against those reached;
    with heuristic playouts, which draw nothing at random, every world is played out once
    per action, as a second playout would end the same); after `PRUNE_AFTER` worlds an
    action that the best beats by `SETTLE_Z` standard errors, paired world by world (the
    error at least the best's own spread over the worlds), is played out no more (so that
    a wide decision, a ladder of bids, spends its budget on more worlds for the actions
    still in question); the search stops early once at least `SETTLE_AFTER` worlds were
    played out for every action left and the best beats each other one by `SETTLE_Z`
    standard errors (or ties it in every world), or one action is left; `steps` the most
    actions played in them (long deals get fewer playouts); `seconds`
    caps the whole decision, sampling included (0.8 by default): sampling may take 70% of
    it (fewer worlds then), and when not even the heuristic bot's choice and one other
    action have been played out in one world in time, the heuristic bot decides.
    `confidence`: the search departs from the heuristic bot's choice only when its best
    action beats that choice, paired playout by
    playout, by at least this many standard errors (1 by default; 0: always the best
    average). `endgame`: once at most this many tricks remain in a world's trick play, the
    world is solved exactly (alpha-beta, `EndgameSolver`: the seat's side against the
    others) instead of played out, when that takes at most `endgame_nodes` nodes (0: never).
    The same seed and budgets give the same choices on any machine unless the time cap is
    reached: `capped` counts the decisions it stopped, `fallbacks` those left to the
    heuristic bot.
    """

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 24,
        iterations: int = 400,
        seconds: float | None = DEFAULT_SECONDS,
        rollout: str = "heuristic",
        steps: int = 12_000,
        confidence: float = 1.0,
        endgame: int = 3,
        endgame_nodes: int = 4_000,
    ) -> None:
        check_options("pimc", iterations, seconds, worlds, steps)
        if not (isinstance(confidence, (int, float)) and 0 <= confidence < math.inf):
            raise TrickcoreError("pimc: confidence must be a number of at least 0")
        for name, value in (("endgame", endgame), ("endgame_nodes", endgame_nodes)):
            if type(value) is not int or value < 0:
                raise TrickcoreError(f"pimc: {name} must be a whole number of at least 0")
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.iterations = iterations
        self.steps = steps
        self.seconds = seconds
        self.rollout = rollout
        self.confidence = float(confidence)
        self.endgame = EndgameSolver(endgame, endgame_nodes)
        Rollout(rollout, self.rng)  # refuses an unknown rollout now, not at the first turn
        self.fallback = HeuristicPlayer(seed)
        self.memory = WorldMemory()  # its last world of the deal: the next search starts there
        self.fallbacks = 0  # decisions left to the heuristic: no world sampled, or no time
        self.capped = 0  # decisions the time cap stopped before their iterations and steps
        self._budget: Budget | None = None  # the last decision's

    def choose(self, turn: Turn) -> Action:
        """The action with the best average playout value over the worlds every action it
        weighs was played out in; the heuristic bot's choice when no hidden world can be
        sampled, or when not even it and one other action were played out in time (counted
        in `fallbacks`), or when the best is not surely better than it (`confidence`).

        The heuristic bot's choice is played out first in every world, so that with many
        legal actions (a talon's discards) and little time the search still weighs it
        against the others it reached in the first world."""
        legal = turn.legal
        if len(legal) == 1:
            return legal[0]
        default = self.fallback.choose(turn)
        d = legal.index(default) if default in legal else 0
        try:
            playouts, done, dropped = self._search(turn, d)
        except WorldsUnavailable:
            playouts, done, dropped = [], 0, set()
        if self._budget is not None and self._budget.capped:
            self.capped += 1
        keys = range(done) if done else range(1)  # the worlds every action weighed had
        weighed = [i for i, p in enumerate(playouts) if all(k in p for k in keys)]
        if not weighed or len(weighed) + len(dropped) < 2:
            self.fallbacks += 1
            return default
        values = {i: statistics.fmean(playouts[i][k] for k in keys) for i in weighed}
        best = max(weighed, key=lambda i: (values[i], -i))
        if self.confidence > 0 and d != best and d in values:
            if not _surely_better(playouts[best], playouts[d], self.confidence):
                return legal[d]
        return legal[best]

    def evaluate(self, turn: Turn) -> list[tuple[Action, float]]:
        """Each legal action with its estimated value for the seat (mean over playouts;
        -inf for an action not played out in time)."""
        playouts, _, _ = self._search(turn, 0)
        return [
            (a, statistics.fmean(p.values()) if p else float("-inf"))
            for a, p in zip(turn.legal, playouts, strict=True)
        ]

    def _search(self, turn: Turn, first: int) -> tuple[list[dict[int, float]], int, set[int]]:
        """Each legal action's playout values, by playout (the same key: the same world
        and round for every action), how many worlds were played out for every action not
        dropped, and the actions dropped (indices of `turn.legal`: surely worse than the
        best). In each world the action `first` (an index) is played out first."""
        rng = random.Random(self.rng.getrandbits(64))
        budget = Budget(self.iterations, self.steps, self.seconds)
        self._budget = budget
        legal = turn.legal
        worlds = sample_worlds(turn, self.worlds, rng, budget, self.memory)
        rollout = Rollout(self.rollout, rng)
        seat = turn.seat
        endgame = self.endgame
        playouts: list[dict[int, float]] = [{} for _ in legal]
        solved: dict[tuple[int, int], float] = {}  # (world, action): its exact value
        tried = [first, *(i for i in range(len(legal)) if i != first)]
        dropped: set[int] = set()
        key = 0
        played_out = True  # a round over the worlds still played something out
        while worlds and played_out and not (key and budget.spent()):
            played_out = False
            for w_index, world in enumerate(worlds):
                here = {a.id: a for a in world.legal_actions()}
                for i in tried:
                    mine = here.get(legal[i].id)
                    if mine is None:
                        continue
                    exact = solved.get((w_index, i))
                    if exact is not None:
                        playouts[i][key] = exact
                        continue
                    w = world.clone()
                    w.apply(mine)
                    if endgame.applies(w):
                        before = endgame.visited
                        exact = endgame.value(w, seat)
                        budget.steps += endgame.visited - before
                    if exact is not None:
                        solved[(w_index, i)] = playouts[i][key] = exact
                    else:
                        playouts[i][key] = rollout.run(w, budget)[seat]
                        played_out = True
                    budget.used += 1
                    if budget.out_of_time() or (budget.used >= 2 and budget.spent()):
                        return playouts, key, dropped
                key += 1
                if budget.spent() or _settled(playouts, key):
                    return playouts, key, dropped
                if key >= PRUNE_AFTER and len(tried) > 2:
                    beaten = _beaten(playouts, key, tried)
                    if beaten:
                        dropped |= beaten
                        tried = [i for i in tried if i not in beaten]
                        if len(tried) == 1:
                            return playouts, key, dropped
            if not rollout.varies:  # another round would play out the same again
                break
        return playouts, key, dropped


def _beaten(playouts: list[dict[int, float]], done: int, tried: list[int]) -> set[int]:
    """The actions of `tried` (indices) that the best of them on average over `done`
    worlds beats by at least SETTLE_Z standard errors, paired playout by playout, the
    standard error taken at least as large as the best's own from world to world."""
    keys = range(done)
    full = [i for i in tried if all(k in playouts[i] for k in keys)]
    if len(full) < 2 or done < 2:
        return set()
    means = {i: statistics.fmean(playouts[i][k] for k in keys) for i in full}
    best = max(full, key=lambda i: (means[i], -i))
    # the spread of the best action's values from world to world bounds the standard error
    # from below: a few worlds in which two actions differ alike (a contract made in each)
    # do not show that they always do (a rare world in which one fails)
    floor = statistics.stdev(playouts[best][k] for k in keys)
    out = set()
    for i in full:
        if i == best:
            continue
        diffs = [playouts[best][k] - playouts[i][k] for k in keys]
        spread = max(statistics.stdev(diffs), floor)
        if statistics.fmean(diffs) > SETTLE_Z * spread / math.sqrt(done):
            out.add(i)
    return out


def _settled(playouts: list[dict[int, float]], done: int) -> bool:
    """Whether, after `done` worlds (at least SETTLE_AFTER), the search can stop: the
    actions played out in all of them are at least two, and the best of them on average
    beats each other one by at least SETTLE_Z standard errors, paired playout by playout
    (or the same value in every world: more worlds would not part them)."""
    if done < SETTLE_AFTER:
        return False
    keys = range(done)
    weighed = [p for p in playouts if all(k in p for k in keys)]
    if len(weighed) < 2:
        return False
    best = max(weighed, key=lambda p: statistics.fmean(p[k] for k in keys))
    for other in weighed:
        if other is best:
            continue
        diffs = [best[k] - other[k] for k in keys]
        if any(diffs) and not _surely_better(best, other, SETTLE_Z):
            return False
    return True


def _surely_better(a: dict[int, float], b: dict[int, float], z: float) -> bool:
    """Whether playouts `a` beat `b` on the playouts both have by at least z standard
    errors of the mean difference."""
    diffs = [a[k] - b[k] for k in a if k in b]
    if len(diffs) < 2:
        return False
    mean = statistics.fmean(diffs)
    sd = statistics.stdev(diffs)
    if sd == 0:
        return mean > 0
    return mean > z * sd / math.sqrt(len(diffs))
