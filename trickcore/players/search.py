"""What the search bots share: hidden worlds for a turn, playouts to the deal's end, and
their budget (iterations, seconds, seed).

A world is a full deal state that agrees with everything the deciding seat has seen
(`Variant.sample_worlds`); the search plays it out with every seat's actions chosen by a
rollout policy that sees only that seat's observation in the world (the heuristic bot,
or uniformly random actions).
"""

from __future__ import annotations

import random
import time

from ..engine.actions import Action
from ..engine.state import DealState
from ..engine.worlds import HIDDEN_FORMS, WorldSampler, repaired_worlds
from ..language.errors import TrickcoreError
from .heuristic import HeuristicPlayer
from .protocol import Turn
from .reading import View
from .values import deal_values

World = DealState
ROLLOUTS = ("heuristic", "random")


class WorldsUnavailable(TrickcoreError):
    """No hidden world consistent with the turn's observation could be sampled."""


SAMPLING_SHARE = 0.7  # of a decision's time: the most that sampling worlds may take


class WorldMemory:
    """A bot's worlds of the deal it is playing, carried from one decision to the next.

    The worlds of the last decision are played on along the actions logged since (the
    worlds in which one of them is not legal, or in which the seat would now see anything
    else than it does, are dropped): what is left is exact rejection sampling from worlds
    that were uniform over the last view, so uniform over the new one. The sampler tops them
    up when too few are left, starting from the last world's deck order (a world consistent
    with the new view is then a few repairs away).

    The worlds dropped are kept in `lost`: when too few worlds are left, the
    search repairs them first, up to half (`repaired_worlds`: a few card swaps each, far
    cheaper than a model of every world late in a deal), and asks the sampler only when
    that too leaves fewer than half."""

    def __init__(self) -> None:
        self.key: tuple[object, ...] | None = None
        self.log: tuple[tuple[int, str], ...] = ()
        self.order: list[int] | None = None
        self.worlds: list[World] = []
        self.carried = 0  # worlds carried to a later decision (not sampled again)
        self.repaired = 0  # worlds repaired from a dropped one (not sampled again)
        self.lost: list[World] = []  # the worlds the last carry dropped

    @staticmethod
    def _key(turn: Turn) -> tuple[object, ...]:
        obs = turn.observation
        return (id(turn.variant), turn.seat, obs.dealer, obs.deal_number, len(obs.hand_sizes))

    def _goes_on(self, turn: Turn) -> bool:
        log = turn.observation.log
        return self.key == self._key(turn) and log[: len(self.log)] == self.log

    def hint(self, turn: Turn) -> list[int] | None:
        """The remembered deck order when the turn's log goes on from the remembered one."""
        return self.order if self._goes_on(turn) else None

    def carry(self, turn: Turn) -> list[World]:
        """The remembered worlds played on to this turn, those that agree with its view
        (fresh copies; none when the log does not go on from the remembered one, or when a
        step since is one the seat saw only in part). The others go to `lost`."""
        self.lost = []
        if not self.worlds or not self._goes_on(turn):
            return []
        new = turn.observation.log[len(self.log) :]
        if any(text.startswith(HIDDEN_FORMS) for _, text in new):
            self.lost = list(self.worlds)
            return []
        out = []
        for world in self.worlds:
            w = world.clone()
            if _play_on(w, new) and w.observation(turn.seat) == turn.observation:
                out.append(w)
            else:
                self.lost.append(world)
        return out

    def remember(self, turn: Turn, worlds: list[World]) -> None:
        """Keep this turn's worlds (unchanged copies: the search plays on clones)."""
        self.key = self._key(turn)
        self.log = turn.observation.log
        self.worlds = [w.clone() for w in worlds]
        self.order = list(worlds[0].deck_order) if worlds else None


def _play_on(world: World, steps: tuple[tuple[int, str], ...]) -> bool:
    """Apply logged steps (seat, text) to a world; False when one is not legal in it."""
    parse = world.game.actions.parse
    for seat, text in steps:
        if world.is_over or world.to_act != seat:
            return False
        action = parse(text)
        if action is None:
            return False
        for a in world.legal_actions():
            if a.id == action.id:
                world.apply(a)
                break
        else:
            return False
    return True


def sample_worlds(
    turn: Turn,
    n: int,
    rng: random.Random,
    budget: Budget | None = None,
    memory: WorldMemory | None = None,
) -> list[World]:
    """`n` full deal states consistent with the turn's observation (WorldsUnavailable when
    none can be had). With a memory, the worlds of the seat's last decision in this deal
    that still agree with the view are used first; when fewer than half of `n` are left,
    worlds dropped are repaired to agree with it (a few card swaps each) up to half, and the
    sampler is asked only when that too leaves fewer than half, for the rest, starting
    from the last world. With a budget in seconds, sampling stops at 70% of the time:
    fewer worlds then."""
    carried = memory.carry(turn) if memory is not None else []
    if memory is not None:
        memory.carried += len(carried)
    worlds = carried[:n]
    if len(worlds) * 2 < n and memory is not None and memory.lost:
        deadline = budget.deadline(SAMPLING_SHARE) if budget is not None else None
        lost = memory.lost  # each repaired more than once when fewer (other swaps drawn)
        starts = [lost[i % len(lost)] for i in range((n + 1) // 2 - len(worlds))]
        repaired = repaired_worlds(turn.variant, turn.observation, starts, rng, deadline=deadline)
        memory.repaired += len(repaired)
        worlds += repaired
    if len(worlds) * 2 < n:
        worlds += _sampled(turn, n - len(worlds), rng, budget, memory, not worlds)
    if memory is not None:
        memory.remember(turn, worlds)
    return worlds


def _sampled(
    turn: Turn,
    n: int,
    rng: random.Random,
    budget: Budget | None,
    memory: WorldMemory | None,
    needed: bool,
) -> list[World]:
    """`n` worlds from the sampler (fewer when the time runs out; WorldsUnavailable when
    none is found and `needed`)."""
    deadline = budget.deadline(SAMPLING_SHARE) if budget is not None else None
    start = memory.hint(turn) if memory is not None else None
    try:  # the deal's number (hand sizes may depend on it) comes with the observation
        sampler = WorldSampler(turn.variant, turn.observation, rng, deadline=deadline, start=start)
        worlds: list[World] = list(sampler.sample(n, deadline))
    except TrickcoreError as exc:
        if not needed:
            return []
        raise WorldsUnavailable(f"no hidden world for seat {turn.seat}: {exc}") from exc
    if not worlds and needed:
        raise WorldsUnavailable(f"no hidden world for seat {turn.seat}")
    return worlds


class Rollout:
    """Plays a world to its end: every seat's action from the policy (`heuristic`, using
    that seat's observation only, or `random`)."""

    def __init__(self, kind: str, rng: random.Random) -> None:
        if kind not in ROLLOUTS:
            raise TrickcoreError(f"unknown rollout {kind!r}; use one of {', '.join(ROLLOUTS)}")
        self.kind = kind
        self.rng = rng
        self.policy = HeuristicPlayer(seed=rng.getrandbits(32)) if kind == "heuristic" else None
        # whether playing the same world out again may end otherwise: not with the
        # heuristic bot, which draws nothing at random (one playout per world tells all)
        self.varies = self.policy is None

    def run(self, world: World, budget: Budget | None = None) -> list[float]:
        """Finish the deal in place and return each seat's value (the actions taken are
        counted in the budget's `steps`)."""
        rng = self.rng
        policy = self.policy
        game = world.game
        start = len(world.history)
        while not world.is_over:
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply(legal[0])
            elif policy is None:
                world.apply(legal[int(rng.random() * len(legal))])
            else:
                seat = world.to_act
                view = View.of_deal(world, seat)  # type: ignore[arg-type]
                world.apply(policy.decide(game, view, seat, tuple(legal)))
        if budget is not None:
            budget.steps += len(world.history) - start
        return deal_values(world)


class Budget:
    """How long a decision may search: `iterations` (playouts), `steps` (actions played in
    the playouts and the tree, so that long deals do not take longer) and, when given,
    `seconds`; the search stops at the first of them. Iterations and steps do not depend
    on the machine; with seconds the choice may depend on its speed (`capped` says whether
    the time stopped it: the bots count such decisions in their `capped` attribute)."""

    def __init__(self, iterations: int, steps: int, seconds: float | None) -> None:
        self.iterations = iterations
        self.max_steps = steps
        self.seconds = seconds
        self.start = time.perf_counter()
        self.used = 0
        self.steps = 0
        self.capped = False  # the time ran out before the iterations and steps did

    def spent(self) -> bool:
        """True once the iterations or steps are used up or the time is over."""
        if self.used >= self.iterations or self.steps >= self.max_steps:
            return True
        return self.out_of_time()

    def out_of_time(self) -> bool:
        """True once the time (if any) is over (then `capped` is set, unless the
        iterations or steps were used up first)."""
        if self.seconds is None or time.perf_counter() - self.start < self.seconds:
            return False
        if self.used < self.iterations and self.steps < self.max_steps:
            self.capped = True
        return True

    def deadline(self, share: float = 1.0) -> float | None:
        """The `time.perf_counter()` value at this share of the time (None: no time cap)."""
        return None if self.seconds is None else self.start + share * self.seconds


def check_options(
    name: str, iterations: int, seconds: float | None, worlds: int, steps: int = 1
) -> None:
    """Refuse budgets that cannot work, with a clear message."""
    if type(iterations) is not int or iterations < 1:
        raise TrickcoreError(f"{name}: iterations must be a whole number of at least 1")
    if type(steps) is not int or steps < 1:
        raise TrickcoreError(f"{name}: steps must be a whole number of at least 1")
    if type(worlds) is not int or worlds < 1:
        raise TrickcoreError(f"{name}: worlds must be a whole number of at least 1")
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
        raise TrickcoreError(f"{name}: seconds must be a positive number")


def best_of(values: list[tuple[Action, float]]) -> Action:
    """The action with the highest value (the first of equals: the order of `legal`)."""
    best = values[0]
    for item in values[1:]:
        if item[1] > best[1]:
            best = item
    return best[0]
