"""trickcore variants as OpenSpiel games: `register(variant_or_path)`, `load_game(...)`.

Needs the extra: pip install 'trickcore[openspiel]'. See
trickcore.interfaces.openspiel_game for the parameters, chance nodes and returns.
"""

from __future__ import annotations

from .interfaces.openspiel_game import (
    TrickcoreGame,
    TrickcoreObserver,
    TrickcoreState,
    can_resample,
    load_game,
    register,
    register_all,
    short_name,
)
from .interfaces.tensors import KINDS, PHASES, Encoder, Piece

__all__ = [
    "KINDS",
    "PHASES",
    "Encoder",
    "Piece",
    "TrickcoreGame",
    "TrickcoreObserver",
    "TrickcoreState",
    "can_resample",
    "load_game",
    "register",
    "register_all",
    "short_name",
]
