"""What every kind of deal state shares: the legal-action cache and applying an action."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..language.errors import IllegalActionError, StuckError
from ..language.limits import check_seat, shown
from .actions import Action

if TYPE_CHECKING:
    from .game import Game

OVER = "over"


class DealState:
    """Base of Deal (trick games) and BoutDeal (games of bouts).

    Subclasses deal the cards, set `phase` and `to_act`, and implement `_compute_legal`,
    `_do` and `observation`.
    """

    phase: str
    to_act: int
    # What every kind of deal tells its match (-1: nobody): the declarer (trick games with an
    # auction), the loser (games of bouts), whether it ended unplayed and on whose demand,
    # the trump suit in force, and each seat's deal score once it is over.
    declarer: int
    loser: int
    redealt: bool
    redeal_by: int
    trump: int
    gains: list[int] | None

    def __init__(
        self,
        game: Game,
        deck_order: list[int],
        dealer: int,
        seats: int,
        context: list[dict[str, Any]] | None = None,
    ) -> None:
        self.game = game
        # what each player knows of the match as the deal begins (deal_number, score, kept)
        self.context = context if context is not None else game.match_context(seats)
        self.seats = seats
        self.dealer = dealer
        self.deck_order = list(deck_order)
        self.active: list[int] = game.model.deal.players_in_deal(dealer, seats)
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.history: list[tuple[int, Action]] = []
        self._legal: list[Action] | None = None
        self.declarer = self.loser = self.redeal_by = self.trump = -1
        self.redealt = False
        self.gains = None
        # the growing parts of observations, built once: key -> (list seen, view of it)
        self._views: dict[object, tuple[list[Any], tuple[Any, ...]]] = {}

    @property
    def is_over(self) -> bool:
        """True when the deal has ended."""
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take now (empty when the deal is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
            if not legal and self.phase != OVER:
                raise StuckError(
                    f"the rules leave seat {self.to_act} with no legal action ({self.phase}); "
                    "check the variant with `trickcore verify`"
                )
        return legal

    def apply(self, action: Action | str) -> None:
        """Take an action (object or canonical text); raise IllegalActionError if not legal.

        A refused action changes nothing.
        """
        legal = self.legal_actions()
        for a in legal:
            if a is action:
                break
        else:
            for a in legal:  # the canonical text of a legal action: no parsing needed
                if a.text == action:
                    action = a
                    break
            else:
                action = self._resolve(action, legal)
        self._legal = None
        self.history.append((self.to_act, action))
        self._do(action)

    def _grown(self, key: object, items: list[Any], view: Callable[[Any], Any]) -> tuple[Any, ...]:
        """`tuple(map(view, items))` for a list that only grows (the log, the tricks): the
        views of the items seen before are kept, so an observation late in a deal costs
        about what an early one does. A list replaced (a copy, a relabelled world) starts
        again."""
        seen = self._views.get(key)
        if seen is not None and seen[0] is items:
            done = seen[1]
            if len(done) == len(items):
                return done
            done += tuple(map(view, items[len(done) :]))
        else:
            done = tuple(map(view, items))
        self._views[key] = (items, done)
        return done

    def legal_ids(self) -> list[int]:
        """The legal actions as numbers of the variant's action space (`Variant.action_of`
        turns a number back into its action); the same order as `legal_actions()`."""
        return [a.id for a in self.legal_actions()]

    def apply_id(self, action_id: int) -> None:
        """Take the legal action with this number; raise IllegalActionError if none is."""
        for a in self.legal_actions():
            if a.id == action_id:
                self._legal = None
                self.history.append((self.to_act, a))
                self._do(a)
                return
        raise IllegalActionError(
            f"action number {shown(action_id)} is not legal now (seat {self.to_act} to act, "
            f"{self.phase})",
            [a.text for a in self.legal_actions()],
        )

    def clone(self) -> DealState:
        """An independent copy of the deal (for search: apply actions to it freely)."""
        new = object.__new__(type(self))
        state = self.__dict__.copy()
        by_type = _COPY_BY_TYPE
        for name, value in state.items():
            copy = by_type.get(type(value))
            if copy is not None and name not in _SHARED:
                state[name] = copy(value)
        new.__dict__ = state
        return new

    def _resolve(self, action: Action | str, legal: list[Action]) -> Action:
        if self.phase == OVER:
            raise IllegalActionError(f"the deal is over; no action is possible ({action})")
        texts = [a.text for a in legal]
        given_object = not isinstance(action, str)
        if isinstance(action, str):
            parsed = self._parse(action)
            if parsed is None:
                shown = action if len(action) <= 80 else action[:80] + "..."
                raise IllegalActionError(f"'{shown}' is not an action", texts)
            action = parsed
        if not isinstance(action, Action):
            raise IllegalActionError(f"{str(action)[:80]!r} is not an action", texts)
        if action in legal:
            mine = legal[legal.index(action)]
            if given_object and mine.text != action.text:  # another variant's action
                raise IllegalActionError(
                    f"'{action.text}' is an action of another variant (here it would be "
                    f"'{mine.text}'); pass this variant's actions or their text",
                    texts,
                )
            return mine
        raise IllegalActionError(
            f"'{action.text}' is not legal now (seat {self.to_act} to act, {self.phase})", texts
        )

    def _parse(self, text: str) -> Action | None:
        return self.game.actions.parse(text)

    def hand_texts(self, seat: int) -> list[str]:
        """Full information: a seat's hand as card texts (for tests and debugging)."""
        ct = self.game.card_text
        return [ct(c) for c in sorted(self.hands[seat])]

    def stop(self) -> None:
        """End the deal where it stands (the rules broke while an action was carried out)."""
        self.phase = OVER
        self.to_act = -1
        self._legal = None

    def public_view(self) -> Any:
        """What every player at the table may know (the observation of no seat)."""
        return self._observe(-1)

    def observation(self, seat: int) -> Any:
        """What `seat` may know now, and nothing more."""
        return self._observe(check_seat(seat, self.seats))

    # ------------------------------------------------------------ for subclasses
    def _compute_legal(self) -> list[Action]:
        raise NotImplementedError

    def _do(self, action: Action) -> None:
        raise NotImplementedError

    def _observe(self, seat: int) -> Any:
        """The view of `seat` (-1: the public view)."""
        raise NotImplementedError


# ---------------------------------------------------------------- copying a deal
# Attributes every deal of a game shares and never changes: the game, its rules and phases,
# the cached card relations, the cached legal actions and the order of play in tricks
# (replaced, never changed in place).
_SHARED = frozenset(
    {"game", "rules", "_flow", "_current", "_legal", "rel", "deck_order", "next_player"}
)


def _copy_list(value: list[Any]) -> list[Any]:
    """Lists are copied two levels deep (hands, per-seat contexts, a bout's table); the
    items of a list are all of one kind."""
    if value and type(value[0]) in _MUTABLE:
        return [x.copy() for x in value]
    return value[:]


def _copy_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    for v in value.values():
        if type(v) in _MUTABLE:
            return {k: x.copy() for k, x in value.items()}
        break
    return value.copy()


_MUTABLE = (list, dict, set)
_COPY_BY_TYPE: dict[type, Any] = {list: _copy_list, dict: _copy_dict, set: set.copy}
