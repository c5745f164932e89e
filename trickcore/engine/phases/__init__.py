"""The phase kinds a deal's flow is made of; `deal { flow: ... }` names them in order.

Each kind is one module: its settings live in the block of the same purpose (`redeal`,
`pass_cards`, `bidding`, `bids`, `talon`, `contract`, `pickup`, `draw_up`, `play`), and it
skips itself when they say it has nothing to do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...language.model import TRICK_PHASES
from .auction import Auction
from .base import Phase
from .bids import Bids
from .contract import ContractRaise
from .draw_up import DrawUp
from .passing import PassCards
from .pickup import Pickup
from .plain_tricks import trick_play
from .redeal import RedealOffer
from .talon import TalonExchange

if TYPE_CHECKING:
    from ..tables import GameTables

# each kind's maker: its class, or a function that picks the class for the game
PHASE_KINDS: dict[str, Callable[[GameTables], Phase]] = {
    "redeal": RedealOffer,
    "pass": PassCards,
    "auction": Auction,
    "bids": Bids,
    "talon": TalonExchange,
    "contract": ContractRaise,
    "pickup": Pickup,
    "draw_up": DrawUp,
    "tricks": trick_play,
}
assert tuple(PHASE_KINDS) == TRICK_PHASES, "every phase kind the language names is implemented"

__all__ = ["PHASE_KINDS", "Phase"]
