"""trickcore variants as PettingZoo AEC environments: `env(variant, **kw)`, and their
turn-based parallel form: `parallel_env(variant, **kw)`.

Needs the extra: pip install 'trickcore[pettingzoo]'. See
trickcore.interfaces.pettingzoo_env for agents, observations, rewards and rendering.
"""

from __future__ import annotations

from .interfaces.pettingzoo_env import TrickcoreEnv, env, env_name, parallel_env, raw_env
from .interfaces.tensors import KINDS, PHASES, Encoder, Piece

__all__ = [
    "KINDS",
    "PHASES",
    "Encoder",
    "Piece",
    "TrickcoreEnv",
    "env",
    "env_name",
    "parallel_env",
    "raw_env",
]
