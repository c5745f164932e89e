"""What every kind of deal state shares: the legal-action cache and applying an action."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..language.errors import IllegalActionError, StuckError
from ..language.limits import check_seat, shown
from .actions import Action

if TYPE_CHECKING:
    from .phases.base import Phase
    from .tables import GameTables

OVER = "over"


class DealState:
    """Base of Deal (trick games) and BoutDeal (games of bouts).

    Subclasses deal the cards, set `phase` and `to_act`, and implement `_observe`. A deal
    whose flow is phases sets `_current`, the phase in play, which lists and takes the
    actions; otherwise `_compute_legal` and `_do` do.
    """

    # Every attribute of a deal is declared (no instance dict): a deal is made and copied
    # often, and reads of slots are fast. A subclass declares its own.
    __slots__ = (
        "_by_number",
        "_current",
        "_ids",
        "_legal",
        "_merge_copies",
        "_views",
        "active",
        "context",
        "dealer",
        "deck_order",
        "declarer",
        "gains",
        "game",
        "hands",
        "history",
        "loser",
        "phase",
        "redeal_by",
        "redealt",
        "seats",
        "to_act",
        "trump",
        "turned_up",
    )

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
    turned_up: int  # the card turned up as the cards were dealt (-1: none)

    def __init__(
        self,
        game: GameTables,
        deck_order: list[int],
        dealer: int,
        seats: int,
        context: list[dict[str, Any]] | None = None,
        source: DealState | None = None,  # a copy (clone): each subclass copies it first
    ) -> None:
        self.game = game
        # what each player knows of the match as the deal begins (deal_number, score, kept)
        self.context = context if context is not None else game.match_context(seats)
        self.seats = seats
        self.dealer = dealer
        self.deck_order = list(deck_order)
        self.active: list[int] = game.players_in_deal(dealer, seats)
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.history: list[tuple[int, Action]] = []
        self._legal: list[Action] | None = None
        self._current: Phase | None = None  # the phase in play (a flow of phases)
        self._ids: list[int] | None = None  # legal_ids(), kept until the next action
        self._by_number = game.action_by_number  # number -> action (the game's)
        self._merge_copies = bool(game.copies)  # legal lists give each face's copies once
        self.declarer = self.loser = self.redeal_by = self.trump = -1
        self.redealt = False
        self.gains = None
        # the growing parts of observations, built once: key -> (list seen, view of it)
        self._views: dict[object, tuple[list[Any], tuple[Any, ...]]] = {}

    @property
    def is_over(self) -> bool:
        """True when the deal has ended."""
        return self.phase == OVER

    @property
    def judged_by_progress(self) -> bool:
        """Whether `worth()` is scoring's `progress` (higher is better) or the deal scores."""
        return False

    def worth(self) -> list[int] | None:
        """What the finished deal is worth to each seat, for those who judge play before the
        match is decided: the deal scores (a trick deal: scoring's `progress` where the rules
        define it); None before the end and for a deal thrown in unscored."""
        return None if self.gains is None else list(self.gains)

    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take now (empty when the deal is over): a new
        list, the caller's to change."""
        legal = self._legal
        if legal is None:
            legal = self._legal_now()
        return legal[:]

    def _legal_now(self) -> list[Action]:
        """The legal actions, the deal's own list (cached until the next action: never
        changed in place, never handed out)."""
        legal = self._legal
        if legal is None:
            current = self._current
            legal = self._legal = (
                current.legal(self)  # type: ignore[arg-type]  # only a Deal has phases
                if current is not None
                else self._compute_legal()
            )
            if self._merge_copies:  # the copies of a face held: one action (the first's)
                legal = self._legal = once_per_text(legal)
            if not legal and self.phase != OVER:
                raise StuckError(
                    f"the rules leave seat {self.to_act} with no legal action ({self.phase}); "
                    "check the variant with `trickcore verify`"
                )
        return legal

    def apply(self, action: Action | str | object) -> None:
        """Take an action (object or canonical text); raise IllegalActionError if not legal.

        A refused action changes nothing. (Typed `object` so that a compiled engine, too,
        answers anything else with IllegalActionError rather than a TypeError.)
        """
        legal = self._legal
        if legal is None:
            legal = self._legal_now()
        if action.__class__ is str:  # no text is an Action: straight to the texts
            for chosen in legal:  # the canonical text of a legal action: no parsing needed
                if chosen.text == action:
                    break
            else:
                chosen = self._resolve(action, legal)
        else:
            for chosen in legal:
                if chosen is action:
                    break
            else:
                for chosen in legal:  # an object equal to a legal action's text
                    if chosen.text == action:
                        break
                else:
                    chosen = self._resolve(action, legal)
        self._legal = None
        self._ids = None
        self.history.append((self.to_act, chosen))
        current = self._current
        if current is not None:
            current.apply(self, chosen)  # type: ignore[arg-type]
        else:
            self._do(chosen)

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
        ids = self._ids
        if ids is None:
            ids = self._legal_ids()
        return ids[:]  # a copy: the caller may change it freely

    def _legal_ids(self) -> list[int]:
        ids = self._ids
        if ids is None:
            legal = self._legal
            if legal is None and self.game.copies:  # the actions say which copy is played
                legal = self._legal_now()
            if legal is None:  # numbered afresh, without making Action objects
                ids = self._compute_ids()
                if not ids:
                    self.legal_actions()  # nothing legal: StuckError, unless the deal is over
            else:
                ids = [a.id for a in legal]
            self._ids = ids
        return ids

    def apply_id(self, action_id: int | object) -> None:
        """Take the legal action with this number; raise IllegalActionError if none is."""
        ids = self._ids
        if ids is None:
            ids = self._legal_ids()
        try:  # (any object may come: only a whole number that is legal is taken)
            if type(action_id) is not int:
                raise ValueError
            k = ids.index(action_id)
        except ValueError:
            raise IllegalActionError(
                f"action number {shown(action_id)} is not legal now (seat {self.to_act} to "
                f"act, {self.phase})",
                [a.text for a in self.legal_actions()],
            ) from None
        legal = self._legal  # the numbers were made from it, or it after them: same order
        self._legal = None
        self._ids = None
        current = self._current
        action = legal[k] if legal is not None else self._by_number[ids[k]]
        self.history.append((self.to_act, action))
        if current is not None:
            current.apply(self, action)  # type: ignore[arg-type]
        else:
            self._do(action)

    def clone(self) -> DealState:
        """An independent copy of the deal (for search: apply actions to it freely)."""
        return type(self)(self.game, self.deck_order, self.dealer, self.seats, source=self)

    def _copy_from(self, src: DealState) -> None:
        """Make this new deal an independent copy of `src` (`clone`): what play changes is
        copied, what never changes in place (the game, the deck order) is shared. Each
        subclass copies its own attributes and calls this; a test checks that a copy has
        every attribute of its original."""
        self.game = src.game
        self.context = [c.copy() for c in src.context]
        self.seats = src.seats
        self.dealer = src.dealer
        self.deck_order = src.deck_order
        self.active = src.active[:]
        self.hands = [h[:] for h in src.hands]
        self.history = src.history[:]
        self._legal = src._legal  # replaced, never changed in place
        self._current = src._current  # a phase: shared, it holds no state of a deal
        self._ids = src._ids  # replaced, never changed in place
        self._by_number = src._by_number
        self._merge_copies = src._merge_copies
        self.declarer = src.declarer
        self.loser = src.loser
        self.redeal_by = src.redeal_by
        self.trump = src.trump
        self.redealt = src.redealt
        self.gains = None if src.gains is None else src.gains[:]
        self._views = {}  # the views are rebuilt for the copy's own lists
        self.phase = src.phase
        self.to_act = src.to_act

    def _resolve(self, action: object, legal: list[Action]) -> Action:
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
        if action not in legal and self.game.copies:  # another copy of a legal card
            same = next((a for a in legal if a.text == action.text and a.id == action.id), None)
            if same is not None:
                if self._beside(action.card, same.card):  # held beside it: that copy moves
                    return action
                action = same
        if action in legal:
            mine = legal[legal.index(action)]
            if given_object and mine.text != action.text:  # another variant's action
                raise IllegalActionError(
                    f"'{action.text}' is an action of another variant (here it would be "
                    f"'{mine.text}'); pass this variant's actions or their text",
                    texts,
                )
            return mine
        reason = self._why_not(action)
        raise IllegalActionError(
            f"'{action.text}' is not legal now (seat {self.to_act} to act, {self.phase})"
            + (f": {reason}" if reason else ""),
            texts,
        )

    def why_not(self, action: Action | str | object) -> str | None:
        """Why an action (object or text) is not legal now, in words: the rule or setting
        that refuses it (for a card in trick play: must follow suit, must trump, must
        overtrump, `play_if`, ...); None when it is legal, or when no more can be said than
        that it is not legal now (see the error `apply` raises)."""
        if self.phase == OVER:
            return "the deal is over"
        if isinstance(action, str):
            parsed = self._parse(action)
            if parsed is None:
                return "it is not an action of this game"
            action = parsed
        if not isinstance(action, Action):
            return "it is not an action"
        if action in self._legal_now():
            return None
        return self._why_not(action)

    def _why_not(self, action: Action) -> str | None:
        """The phase in play's reason for refusing `action` (see `Phase.why_not`)."""
        current = self._current
        if current is None:
            return None
        return current.why_not(self, action)

    def _beside(self, card: int, other: int) -> bool:
        """Two copies of a card lie in the same hand (so either may be the one that moves:
        the players cannot tell them apart)."""
        return card >= 0 and any(card in hand and other in hand for hand in self.hands)

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
        self._ids = None
        self._current = None

    def public_view(self) -> Any:
        """What every player at the table may know (the observation of no seat)."""
        return self._observe(-1)

    def observation(self, seat: int | object) -> Any:
        """What `seat` may know now, and nothing more."""
        return self._observe(check_seat(seat, self.seats))

    def private_view(self, seat: int) -> tuple[int, tuple[tuple[str, Any], ...]]:
        """What of `seat`'s view only it sees (its hand, and in trick games the cards shown,
        passed or laid away to it), each part named, as its observation has it, with the
        length of the log: without making the whole observation."""
        raise NotImplementedError

    # ------------------------------------------------------------ for subclasses
    def _compute_legal(self) -> list[Action]:
        """The legal actions worked out afresh: the phase in play lists them (no phase in
        play: the deal is over). A deal whose flow is not phases lists its own."""
        current = self._current
        return [] if current is None else current.legal(self)  # type: ignore[arg-type]

    def _compute_ids(self) -> list[int]:
        """The numbers of the legal actions worked out afresh, in the order of
        `_compute_legal`: the phase in play makes them (a deal whose flow is not phases
        makes its own)."""
        current = self._current
        return [] if current is None else current.legal_ids(self)  # type: ignore[arg-type]

    def _do(self, action: Action) -> None:
        """Carry out a legal action when no phase is in play (a flow not of phases)."""
        raise NotImplementedError

    def _observe(self, seat: int) -> Any:
        """The view of `seat` (-1: the public view)."""
        raise NotImplementedError


def once_per_text(actions: list[Action]) -> list[Action]:
    """The actions with each text once (the first): the copies of a card are one card."""
    seen: set[str] = set()
    out = []
    for a in actions:
        if a.text not in seen:
            seen.add(a.text)
            out.append(a)
    return out
