"""The flow of a deal: the kind of object each of its phases is (auction, talon, tricks,
...), and the one that asks decisions between phases. Below the deal and the game's tables,
which hold phases; the phases themselves (`engine/phases/`) sit above the deal they drive."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action

if TYPE_CHECKING:
    from .tables import GameTables


class Phase:
    """A kind of phase. Phases hold no state of a deal: the deal holds it all (a phase may
    keep what it works out once from the game alone, like the auction's runs of bids).

    `start` enters the phase (it may do its work at once and return False: nothing to
    decide, go on to the next phase); `legal` lists the actions of the seat to act; `apply`
    takes one, and calls `deal.next_phase()` when the phase is over (or ends the deal).
    `name` is what observations show as the deal's phase while it runs. (Each phase takes
    the deal it drives, typed there; here any deal.)
    """

    name = ""

    def __init__(self, game: GameTables) -> None:
        self.game = game
        self.quantities = game.hand_quantities  # a hand rule's names (`Game.hand_env`)

    def start(self, deal: Any) -> bool:
        """Enter the phase; False when there is nothing to decide in it."""
        raise NotImplementedError

    def legal(self, deal: Any) -> list[Action]:
        """The legal actions of `deal.to_act`."""
        raise NotImplementedError

    def legal_ids(self, deal: Any) -> list[int]:
        """The numbers of the legal actions, in the order of `legal` (a phase may make them
        without making its Action objects; each number's action must have been made)."""
        return [a.id for a in self.legal(deal)]

    def apply(self, deal: Any, action: Action) -> None:
        """Take a legal action."""
        raise NotImplementedError

    def why_not(self, deal: Any, action: Action) -> str | None:
        """Why `action`, which is not legal now, is refused: the rule or setting that refuses
        it, in words (None when the phase cannot say more than that it is not legal)."""
        return None


class Asking(Phase):
    """Decisions and choices asked between the phases of a flow, as a phase of their own;
    `ask` queues those of a point and says whether someone is asked."""

    name = "decide"

    def ask(self, deal: Any, point: str) -> bool:
        """Ask the decisions of `point` ("before PHASE" or "end"); True when someone is."""
        return False
