"""The talon (T10, T11, S9, S20, S21): shown or not, taken by the declarer who gives cards
to each defender, or split one card each from the declarer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.exprs import QUALIFIER_KEY
from ..actions import Action
from .base import Phase
from .lay_away import cards_to_lay_away, lay_away

if TYPE_CHECKING:
    from ..deal import Deal
    from ..tables import GameTables


class TalonExchange(Phase):
    """Handles the talon once the declarer is known; a decision only when he gives cards."""

    name = "give"

    def start(self, deal: Deal) -> bool:
        """Split, or show and take the talon; ask the declarer when he has cards to give."""
        rules = deal.rules.talon
        if deal.declarer < 0:  # everybody passed and play goes on: the talon stays
            return False
        if rules.split_if is not None and rules.split_if({QUALIFIER_KEY: deal.qualifier}):
            i = deal.active.index(deal.declarer)
            n = len(deal.active)
            for k, card in enumerate(deal.talon):
                seat = deal.active[(i + k) % n]
                deal.hands[seat].append(card)
                deal.talon_taken[seat].append(card)
            deal.talon = []
            return False
        if rules.show:
            deal.talon_shown = tuple(deal.talon)
        deal.hands[deal.declarer].extend(deal.talon)
        deal.talon_taken[deal.declarer].extend(deal.talon)
        deal.talon = []
        if not rules.give_each_defender and not rules.lay_away:
            return False
        deal.gives_left = {s: rules.give_each_defender for s in deal.active if s != deal.declarer}
        deal.lay_away_left = rules.lay_away
        deal.lay_away_by = deal.declarer
        deal.to_act = deal.declarer
        return True

    def __init__(self, game: GameTables) -> None:
        super().__init__(game)
        table = game.actions
        # the numbers of the actions, in the same tables (`legal_ids`)
        self.discard_ids = [a.id for a in table.discard]
        self.give_ids = [[a.id for a in row] for row in table.give]

    def legal(self, deal: Deal) -> list[Action]:
        """Each card of the declarer's hand to each defender still owed a card; then each
        card to lay away (`discard CARD`)."""
        return self._offer(deal, self.game.actions.discard, self.game.actions.give)

    def legal_ids(self, deal: Deal) -> list[int]:
        """`legal` as numbers."""
        return self._offer(deal, self.discard_ids, self.give_ids)

    def _offer(self, deal: Deal, discard: list[Any], give: list[list[Any]]) -> list[Any]:
        """The legal actions made from these tables (actions or their numbers, by card and
        by seat)."""
        targets = [s for s, n in deal.gives_left.items() if n > 0]
        if not targets:
            rule = deal.rules.talon.lay_away_if
            return [discard[c] for c in cards_to_lay_away(deal, deal.declarer, rule)]
        return [give[c][s] for c in sorted(deal.hands[deal.declarer]) for s in targets]

    def apply(self, deal: Deal, action: Action) -> None:
        """One card given or laid away; the phase ends when every defender has his cards and
        the declarer has laid away his."""
        if action.kind == "discard":
            lay_away(deal, deal.declarer, action.card, deal.rules.talon.lay_away_shown_if)
            if not deal.lay_away_left:
                deal.next_phase()
            return
        deal.hands[deal.declarer].remove(action.card)
        deal.hands[action.to].append(action.card)
        deal.received[action.to].append(action.card)
        deal.gives_left[action.to] -= 1
        if not any(deal.gives_left.values()) and not deal.lay_away_left:
            deal.next_phase()
