"""trickcore variants as OpenSpiel games: `register(variant_or_path)`, `load_game(...)`.

Importing this module registers every shipped variant with pyspiel (`trickcore_hearts`,
`trickcore_russisch_schnapsen`, ...) and the game `trickcore`, which plays a rules file:
`pyspiel.load_game("trickcore", {"rules": PATH})` or `pyspiel.load_game("trickcore(rules=PATH)")`.

Needs the extra: pip install 'trickcore[openspiel]'. See
trickcore.interfaces.openspiel_game for the parameters, chance nodes and returns.
"""

from __future__ import annotations

from .interfaces.openspiel_game import (
    RULES_GAME,
    TrickcoreGame,
    TrickcoreObserver,
    TrickcoreState,
    can_resample,
    load_game,
    register,
    register_all,
    register_rules_game,
    short_name,
)
from .interfaces.tensors import KINDS, PHASES, Encoder, Piece

__all__ = [
    "RULES_GAME",
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
    "register_rules_game",
    "short_name",
]

register_all()  # every shipped variant and the game `trickcore` are known to pyspiel
