"""Every trickcore variant as a PettingZoo AEC environment with action masks.

`env(NAME)` (a shipped variant's name, a rules file's path or a Variant) plays a whole match
(`match=False`: one played deal). Agents are `player_0` ... `player_{n-1}` (the seats). Each
observation is a dict: `observation`, the seat's observation tensor (float32, layout in
trickcore.interfaces.tensors and docs/howto/rl.md), and `action_mask` (int8, one entry per action
number of the variant; only the agent to act has ones). Actions are the engine's action
numbers (`Variant.num_actions`). Rewards: each seat's change of standing (its score, or the
variant's `rank_by`) when a deal ends, so an agent's cumulative reward is its final standing
minus its start; `infos[agent]["winners"]` names the winners at the end (and
`infos[agent]["stopped"]` the reason when a broken rules file stopped the match).

The observation box has real bounds (`Encoder.bounds()`: 0/1 planes, counts over the deck
size, scores within ±MAX_VALUE over their scale). `state()` is the global state for
centralised training (`state_space`: the public view's tensor, then every seat's hand as
S×D card planes): it holds the hidden cards, so it is never a seat's observation.
`render_mode="ansi"` returns the table as text and `"human"` prints it; either shows the
view of the agent to act only (`render_text(agent)` for any agent): its hand, never another
seat's hidden cards. `max_cycles`: truncate after that many cycles (a cycle is a turn for
every seat: as many actions as seats); `max_actions`: after that many actions.
`action_space(agent).sample()` without a mask draws a legal action when the agent is to act.
`parallel_env(...)`: the turn-based parallel form, where a cycle is one parallel step.
Environment names carry a version: `trickcore_tysiacha_v0`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import attrs

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "trickcore's PettingZoo environment needs pettingzoo, gymnasium and numpy: "
        "pip install 'trickcore[pettingzoo]'"
    ) from exc

import trickcore

from ..engine.bouts import BoutDeal
from ..engine.deal import Deal
from ..engine.game import Game
from ..engine.match import Match
from ..engine.observation import BoutObservation, Observation
from ..language.errors import RulesError, TrickcoreError
from .tensors import Encoder

__all__ = ["TrickcoreEnv", "env", "env_name", "parallel_env", "raw_env"]

VERSION = 0  # the environments' version suffix (`_v0`)


def env_name(game: Game) -> str:
    """The environment's name: `trickcore_`, the variant's name (`-` as `_`), `_v0`."""
    slug = re.sub(r"[^0-9a-z]+", "_", game.name.lower()).strip("_")
    return f"trickcore_{slug}_v{VERSION}"


class LegalDiscrete(gymnasium.spaces.Discrete):  # type: ignore[misc]
    """An agent's action space: the variant's action numbers. `sample()` without a mask
    draws among the agent's legal actions when it is to act (so that agents and tests that
    read no mask still play legal games); with a mask, as gymnasium's Discrete."""

    def __init__(self, n: int, legal: Any, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._legal = legal  # () -> the agent's action mask, or None when it is not to act

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A random action: legal when no mask is given and the agent is to act."""
        if mask is None and probability is None:
            mask = self._legal()
        return super().sample(mask=mask, probability=probability)


class TrickcoreEnv(AECEnv):  # type: ignore[misc]
    """A trickcore variant as a PettingZoo AEC environment (see the module)."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "trickcore_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Path | Game,
        players: int | None = None,
        match: bool = True,
        render_mode: str | None = None,
        seed: int | None = None,
        max_cycles: int | None = None,
        max_actions: int | None = None,
    ) -> None:
        """`variant`: a shipped name, a rules file or a loaded Variant; `players`: seats
        (default: the variant's first count); `match`: a whole match, else one played deal;
        `seed`: the shuffle when `reset()` gets none; `max_cycles` / `max_actions`: truncate
        the episode after that many cycles (as many actions as seats) or actions."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TrickcoreError(
                f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}"
            )
        for what, value in (("max_cycles", max_cycles), ("max_actions", max_actions)):
            if value is not None and (type(value) is not int or value < 1):
                raise TrickcoreError(f"{what} is a whole number >= 1 or None, not {value!r}")
        game = variant if isinstance(variant, Game) else trickcore.load_variant(variant)
        self.variant = game
        self.seats = game.check_seats(players)
        self.whole_match = match
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": env_name(game)}
        limits = [x for x in (max_actions, max_cycles and max_cycles * self.seats) if x]
        self.max_actions: int | None = min(limits) if limits else None
        self.encoder = Encoder(game, self.seats)
        self.possible_agents = [f"player_{i}" for i in range(self.seats)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n = game.num_actions
        low, high = self.encoder.bounds()
        self._observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        low, high, (self.encoder.size,), np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {
            a: LegalDiscrete(n, lambda a=a: self._mask_if_to_act(a)) for a in self.possible_agents
        }
        hands = self.seats * self.encoder.deck_size
        self.state_space = gymnasium.spaces.Box(
            np.concatenate([low, np.zeros(hands, np.float32)]),
            np.concatenate([high, np.ones(hands, np.float32)]),
            (self.encoder.size + hands,),
            np.float32,
        )
        self._actions_taken = 0
        self._seed = seed
        self._rng = np.random.default_rng(seed)
        self.match: Match | None = None
        self._finished: Deal | BoutDeal | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The agent's observation space: a Dict of `observation` and `action_mask`."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The agent's action space: the variant's action numbers."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match (shuffled by `seed`, else by the environment's generator)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        shuffle = int(self._rng.integers(2**31))
        self.match = self.variant.new_match(seed=shuffle, players=self.seats)
        self._finished = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._actions_taken = 0
        self._standings = self._now()
        self._check_end()
        self.agent_selection = self._selected()

    def _now(self) -> list[int]:
        assert self.match is not None
        return [self.match.standing(s) for s in range(self.seats)]

    def _selected(self) -> str:
        assert self.match is not None
        if self.match.is_over or self._done:
            return self.agents[0] if self.agents else self.possible_agents[0]
        return self.possible_agents[self.match.to_act]

    @property
    def _done(self) -> bool:
        m = self.match
        return m is not None and (m.is_over or (not self.whole_match and m.deals_played >= 1))

    def _check_end(self) -> None:
        if self._done:
            assert self.match is not None
            winners = [self.possible_agents[s] for s in self.match.winners]
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"winners": winners}
                if self.match.stopped is not None:
                    self.infos[a]["stopped"] = self.match.stopped

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation tensor and action mask."""
        assert self.match is not None
        seat = self._seat[agent]
        flat = self.encoder.new_tensor()
        self.encoder.encode(self._view(seat), self.encoder.views(flat))
        mask = np.zeros(self.variant.num_actions, np.int8)
        if self._to_act(seat):
            mask[self.match.legal_ids()] = 1
        return {"observation": flat, "action_mask": mask}

    def _to_act(self, seat: int) -> bool:
        m = self.match
        return (
            m is not None
            and not self._done
            and not any(self.truncations.values())
            and m.to_act == seat
        )

    def _mask_if_to_act(self, agent: str) -> Any:
        """The agent's action mask when it is to act, else None (any action)."""
        if self.match is None or agent not in self._seat or not self._to_act(self._seat[agent]):
            return None
        mask = np.zeros(self.variant.num_actions, np.int8)
        mask[self.match.legal_ids()] = 1
        return mask

    def state(self) -> Any:
        """The global state (for centralised training, never a seat's observation): the
        public view's tensor, then every seat's hand as card planes (`state_space`)."""
        assert self.match is not None
        flat = np.zeros(self.state_space.shape, np.float32)
        size, deck = self.encoder.size, self.encoder.deck_size
        public = flat[:size]
        self.encoder.encode(self._view(-1), self.encoder.views(public))
        hands = flat[size:].reshape(self.seats, deck)
        source = self._finished if self._finished is not None else self.match.current
        for s, hand in enumerate(source.hands[: self.seats]):
            for card in hand:
                hands[s, card] = 1.0
        return flat

    def _view(self, seat: int) -> Observation | BoutObservation:
        """The seat's view (-1: the public view): of the current deal, or of the deal that
        ended a one-deal game (the match has dealt the next one already)."""
        assert self.match is not None
        m = self.match
        kept = tuple(tuple(sorted(k.items())) for k in m.kept)
        if self._finished is not None:
            deal = self._finished
            obs = deal.public_view() if seat < 0 else deal.observation(seat)
            return attrs.evolve(obs, scores=tuple(m.scores), kept=kept)
        if seat < 0:
            return attrs.evolve(m.deal, kept=kept)
        return m.observation(seat)

    def step(self, action: int | None) -> None:
        """Take the selected agent's action (an action number); a finished agent's step
        must be None."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None
        if action is None:
            raise TrickcoreError(f"{agent} must act: give an action number")
        self._cumulative_rewards[agent] = 0.0
        deal = self.match.current
        try:
            self.match.apply_id(int(action))
        except RulesError:
            if self.match.stopped is None:
                raise
            # the rules file broke carrying out the action: the match stopped, play ends
        if self._done and self.match.current is not deal:
            self._finished = deal
        self._actions_taken += 1
        if self.max_actions is not None and self._actions_taken >= self.max_actions:
            if not self._done:
                self.truncations = dict.fromkeys(self.agents, True)
        now = self._now()
        self.rewards = {
            a: float(now[s] - self._standings[s]) for s, a in enumerate(self.possible_agents)
        }
        self._standings = now
        self._check_end()
        self.agent_selection = self._selected()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as the agent to act sees it (`render_text`): returned with
        render_mode "ansi", printed to stdout with "human"."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = self.render_text()
        if self.render_mode == "human":
            print(text, file=sys.stdout)
            return None
        return text

    def render_text(self, agent: str | None = None) -> str:
        """The table as `agent` sees it (default: the agent to act), from its observation
        only: its hand, the cards shown to everybody, the scores; never another seat's
        hidden cards. At the end, the scores and the winners."""
        if self.match is None:
            return "(not started: call reset())"
        m = self.match
        lines = [f"{self.variant.title}: deal {m.deals_dealt}, scores {list(m.scores)}"]
        if self._done:
            lines.append(f"over; winners: {', '.join(map(str, m.winners)) or 'none'}")
            return "\n".join(lines)
        if any(self.truncations.values()):
            lines.append("truncated")
            return "\n".join(lines)
        seat = m.to_act if agent is None else self._seat[agent]
        obs = self._view(seat)
        lines.append(f"seat: player_{seat}; to act: player_{obs.to_act} ({obs.phase})")
        lines.append(f"hand: {' '.join(obs.hand)}")
        for name in ("trump", "contract_text", "trick", "table", "talon_shown", "turnup"):
            value = getattr(obs, name, None)
            if value:
                lines.append(f"{name}: {value}")
        if self._to_act(seat):
            legal = [self.variant.action_text(a) for a in sorted(m.legal_ids())]
            more = " ..." if len(legal) > 20 else ""
            lines.append(f"legal: {', '.join(legal[:20])}{more}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(variant: str | Path | Game, **kw: Any) -> TrickcoreEnv:
    """The environment without PettingZoo's wrappers."""
    return TrickcoreEnv(variant, **kw)


def env(variant: str | Path | Game, **kw: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper (the usual entry point):
    `env(NAME, players=3, match=True, render_mode="ansi", seed=None, max_cycles=None)`."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(TrickcoreEnv(variant, **kw))


def parallel_env(variant: str | Path | Game, max_cycles: int | None = None, **kw: Any) -> Any:
    """The turn-based parallel form (PettingZoo's `turn_based_aec_to_parallel`): every
    parallel step takes the action of the agent to act; `max_cycles` truncates after that
    many parallel steps (one action each)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    if max_cycles is not None:
        kw["max_actions"] = max_cycles
    return turn_based_aec_to_parallel(env(variant, **kw))
