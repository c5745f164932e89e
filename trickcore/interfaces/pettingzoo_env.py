"""Every trickcore variant as a PettingZoo AEC environment with action masks.

`env(NAME)` (a shipped variant's name, a rules file's path or a Variant) plays a whole match
(`match=False`: one played deal). Agents are `player_0` ... `player_{n-1}` (the seats). Each
observation is a dict: `observation`, the seat's observation tensor (float32, layout in
trickcore.interfaces.tensors and the README), and `action_mask` (int8, one entry per action
number of the variant; only the agent to act has ones). Actions are the engine's action
numbers (`Variant.num_actions`). Rewards: each seat's change of standing (its score, or the
variant's `rank_by`) when a deal ends, so an agent's cumulative reward is its final standing
minus its start; `infos[agent]["winners"]` names the winners at the end (and
`infos[agent]["stopped"]` the reason when a broken rules file stopped the match).
`render_mode="ansi"` renders the table as text.
"""

from __future__ import annotations

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

__all__ = ["TrickcoreEnv", "env", "raw_env"]


class TrickcoreEnv(AECEnv):  # type: ignore[misc]
    """A trickcore variant as a PettingZoo AEC environment (see the module)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
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
    ) -> None:
        """`variant`: a shipped name, a rules file or a loaded Variant; `players`: seats
        (default: the variant's first count); `match`: a whole match, else one played deal;
        `seed`: the shuffle when `reset()` gets none."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TrickcoreError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        game = variant if isinstance(variant, Game) else trickcore.load_variant(variant)
        self.variant = game
        self.seats = game.check_seats(players)
        self.whole_match = match
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"trickcore_{game.name}"}
        self.encoder = Encoder(game, self.seats)
        self.possible_agents = [f"player_{i}" for i in range(self.seats)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n = game.num_actions
        self._observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        -np.inf, np.inf, (self.encoder.size,), np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
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
        if not self._done and self.match.to_act == seat:
            mask[self.match.legal_ids()] = 1
        return {"observation": flat, "action_mask": mask}

    def _view(self, seat: int) -> Observation | BoutObservation:
        """The seat's view: of the current deal, or of the deal that ended a one-deal game
        (the match has dealt the next one already)."""
        assert self.match is not None
        if self._finished is not None:
            m = self.match
            kept = tuple(tuple(sorted(k.items())) for k in m.kept)
            obs = self._finished.observation(seat)
            return attrs.evolve(obs, scores=tuple(m.scores), kept=kept)
        return self.match.observation(seat)

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
        now = self._now()
        self.rewards = {
            a: float(now[s] - self._standings[s]) for s, a in enumerate(self.possible_agents)
        }
        self._standings = now
        self._check_end()
        self.agent_selection = self._selected()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (render_mode "ansi"): the seat to act's view and the scores."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.match is None:
            return "(not started: call reset())"
        m = self.match
        lines = [f"{self.variant.title}: deal {m.deals_dealt}, scores {m.scores}"]
        if self._done:
            lines.append(f"over; winners: {', '.join(map(str, m.winners)) or 'none'}")
            return "\n".join(lines)
        obs = m.observation(m.to_act)
        lines.append(f"to act: player_{m.to_act} ({obs.phase})")
        lines.append(f"hand: {' '.join(obs.hand)}")
        for name in ("trump", "contract_text", "trick", "table", "talon_shown", "turnup"):
            value = getattr(obs, name, None)
            if value:
                lines.append(f"{name}: {value}")
        legal = [str(a) for a in m.legal_actions()]
        lines.append(f"legal: {', '.join(legal[:20])}{' ...' if len(legal) > 20 else ''}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(variant: str | Path | Game, **kw: Any) -> TrickcoreEnv:
    """The environment without PettingZoo's wrappers."""
    return TrickcoreEnv(variant, **kw)


def env(variant: str | Path | Game, **kw: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper (the usual entry point):
    `env(NAME, players=3, match=True, render_mode="ansi", seed=None)`."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(TrickcoreEnv(variant, **kw))
