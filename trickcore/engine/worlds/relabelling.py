"""Worlds made fast: copies of the reference deal with its unseen cards renamed (what the
seat sees cannot change; see the package's docstring, step 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..bouts import BoutDeal
from ..deal import Deal
from ..phases.passing import pass_moves
from .errors import WorldsError
from .knowledge import with_card

if TYPE_CHECKING:
    from ..tables import GameTables

# the attributes of a deal that may hold cards: lists (or lists of lists), dicts of lists
_CARD_LISTS = ("hands", "talon", "stock", "out", "laid_away", "played", "exchanged")
_CARD_DICTS = ("received", "talon_taken", "start_hands", "set_aside")


class Relabeller:
    """Copies of a reference deal with some of its cards renamed: only the attributes that
    hold such cards are rebuilt (found once)."""

    def __init__(self, ref: Deal | BoutDeal, cards: set[int], game: GameTables) -> None:
        self.ref = ref
        self.game = game
        self.lists = [n for n in _CARD_LISTS if _holds(getattr(ref, n, ()), cards)]
        self.dicts = [n for n in _CARD_DICTS if _holds(getattr(ref, n, None) or {}, cards)]
        passed = getattr(ref, "passed", None) or {}
        back = getattr(ref, "passed_back", None) or {}
        self.passed = _holds([cs for _, _, cs in pass_moves(passed, back)], cards)
        self.turnup = getattr(ref, "turnup", -1) in cards
        self.steps = [
            k
            for k, (_, a) in enumerate(ref.history)
            if a.card in cards or any(c in cards for c in a.cards)
        ]
        self.renamed: dict[tuple[Action, int], Action] = {}

    def __call__(self, relabel: dict[int, int]) -> Deal | BoutDeal:
        """A copy of the reference deal with the cards renamed as `relabel` says."""
        ref = self.ref
        world = ref.clone()
        m = relabel.get
        world.deck_order = [m(c, c) for c in ref.deck_order]
        for name in self.lists:
            value = getattr(world, name)
            if value and isinstance(value[0], list):
                setattr(world, name, [[m(c, c) for c in x] for x in value])
            else:
                setattr(world, name, [m(c, c) for c in value])
        for name in self.dicts:
            value = getattr(world, name)
            setattr(world, name, {k: [m(c, c) for c in v] for k, v in value.items()})
        if isinstance(world, Deal):
            if self.passed:
                world.passed = {
                    g: [(t, [m(c, c) for c in cs]) for t, cs in moves]
                    for g, moves in world.passed.items()
                }
                world.passed_back = {
                    g: [(t, [m(c, c) for c in cs]) for t, cs in moves]
                    for g, moves in world.passed_back.items()
                }
            if self.turnup:
                world.turnup = m(world.turnup, world.turnup)
            world._owner = (None, -1)
            if world.rules.play.side_if is not None and world.start_hands:
                world.form_sides()  # the sides follow the renamed cards (a hidden partner)
        # the card turned up is public, so never renamed; kept in step all the same
        world.turned_up = m(world.turned_up, world.turned_up)
        if isinstance(world, BoutDeal):  # games of bouts: when each card of a hand came
            world.drawn = [[(k, m(c, c)) for k, c in x] for x in world.drawn]
        if self.steps:
            history = list(ref.history)
            for k in self.steps:
                s, a = history[k]
                card = relabel.get(a.card, a.card)
                if card != a.card:
                    key = (a, card)
                    new = self.renamed.get(key)
                    if new is None:
                        new = self.renamed[key] = _renamed(self.game, a, card)
                    history[k] = (s, new)
            world.history = history
        world._legal = None
        world._ids = None
        return world  # type: ignore[return-value]  # clone() keeps the class


def _holds(value: Any, cards: set[int]) -> bool:
    """Whether a nest of lists and dicts of cards holds one of these cards."""
    if isinstance(value, int):
        return value in cards
    if isinstance(value, dict):
        return any(_holds(v, cards) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds(v, cards) for v in value)
    return False


def _renamed(game: GameTables, action: Action, card: int) -> Action:
    """The same action with another card."""
    found = with_card(game, action, card)
    if found is None:
        raise WorldsError(f"internal: no action like '{action.text}' for another card")
    return found
