"""The phase protocol: one step of a deal's declared flow (auction, talon, tricks, ...)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action

if TYPE_CHECKING:
    from ..deal import Deal
    from ..game import Game


class Phase:
    """A kind of phase. Phases hold no state of a deal: the deal holds it all (a phase may
    keep what it works out once from the game alone, like the auction's runs of bids).

    `start` enters the phase (it may do its work at once and return False: nothing to
    decide, go on to the next phase); `legal` lists the actions of the seat to act; `apply`
    takes one, and calls `deal.next_phase()` when the phase is over (or ends the deal).
    `name` is what observations show as the deal's phase while it runs.
    """

    name = ""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.quantities = game.hand_quantities  # a hand rule's names (`Game.hand_env`)

    def start(self, deal: Deal) -> bool:
        """Enter the phase; False when there is nothing to decide in it."""
        raise NotImplementedError

    def legal(self, deal: Deal) -> list[Action]:
        """The legal actions of `deal.to_act`."""
        raise NotImplementedError

    def legal_ids(self, deal: Deal) -> list[int]:
        """The numbers of the legal actions, in the order of `legal` (a phase may make them
        without making its Action objects; each number's action must have been made)."""
        return [a.id for a in self.legal(deal)]

    def apply(self, deal: Deal, action: Action) -> None:
        """Take a legal action."""
        raise NotImplementedError
