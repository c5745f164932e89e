"""A match: deals in sequence, scores and kept per-player state, end and winners."""

from __future__ import annotations

import random
from _thread import get_ident  # threading.get_ident itself (importing threading is dearer)
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

import attrs

from ..language.errors import ConcurrentUseError, IllegalActionError, RulesError, TrickcoreError
from ..language.exprs import SIDE_KEY, TABLE_KEY
from ..language.limits import MAX_VALUE, check_seat, in_range, is_whole
from .actions import Action
from .bouts import BoutDeal
from .deal import Deal
from .dealing import make_deal
from .observation import BoutObservation, Observation
from .saving import (
    ACTION_CHARGE,
    MAX_ACTIONS,
    MAX_SAVED_CHARS,
    save_json,
    saved_chars,
    saved_match_data,
)
from .shuffling import shuffle

if TYPE_CHECKING:
    from .tables import GameTables

T = TypeVar("T")
IN_USE = (
    "this Match is in use by another thread; a Match is not shared between threads "
    "without a lock of your own (or give each thread its own copy: clone())"
)


class ReadOnlyList(Sequence[T]):
    """A read-only view of a list the match keeps (its history): it indexes, slices (a
    copy), iterates and compares equal to a list of the same items, and has no way to change
    the list. Each item read passes through `_out` (here as it is: the history's items are
    tuples)."""

    __slots__ = ("_items",)

    def __init__(self, items: list[T]) -> None:
        self._items = items

    @staticmethod
    def _out(item: T) -> T:
        return item

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self._out(item) for item in self._items[index]]
        return self._out(self._items[index])

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return map(self._out, self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ReadOnlyList):
            return self._items == other._items
        if isinstance(other, (list, tuple)):
            return self._items == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (equal to a list, which has none)

    def __repr__(self) -> str:
        return repr(self._items)


class _Results(ReadOnlyList[dict[str, Any]]):
    """A read-only view of the match's deal results: each item read is a copy (its lists
    copied too), so a caller may change what he reads without changing the match."""

    __slots__ = ()

    @staticmethod
    def _out(item: dict[str, Any]) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, list) else v for k, v in item.items()}


class Match:
    """A whole match. Exactly one seat is to act until `is_over`.

    `current` is the current deal's full state (every hand: for tests, debugging and a
    referee); players and bots should read `observation(seat)` or the public `deal`.

    Everything a match returns is the caller's to change (copies, read-only views and
    frozen values): nothing done to it changes the match. A match is meant for one thread
    at a time; two threads using it at once get a ConcurrentUseError (the second call changes
    nothing), never a corrupted match.

    A match ends at the latest after `MAX_ACTIONS` actions (or sooner when its actions' and
    deck orders' texts reach `MAX_SAVED_CHARS` characters, each action counted with
    `ACTION_CHARGE`): the most a saved match holds, so that every match the engine plays can
    be saved and loaded again. It then ends where it
    stands, ranked by standing, with `stopped` saying why.
    """

    awaiting_order = False  # waiting for its next deck order (`wait_for_orders`)
    _waits = False  # deals only the deck orders given (`wait_for_orders`)

    def __init__(
        self,
        game: GameTables,
        seed: int | None = None,
        deck_orders: Sequence[Sequence[str | int]] | None = None,
        players: int | None = None,
        scores: Sequence[int] | None = None,
        kept: Sequence[dict[str, Any]] | None = None,
        dealer: int = 0,
        secret: bool = False,
    ) -> None:
        self.game = game
        self.seats = game.check_seats(players)
        if secret and seed is not None:
            raise TrickcoreError("a match dealt from the secret source has no seed")
        if seed is None and deck_orders is None and not secret:
            seed = random.randrange(2**31)
        self.seed = seed
        # dealt from the operating system's cryptographically strong source: nothing shown
        # predicts a later deal; each deck order is recorded as it is dealt (for saving)
        self.secret = secret
        self._deck_orders = [game.deck_from_texts(o) for o in deck_orders] if deck_orders else []
        # what is left of what a saved match holds: each action costs its text and
        # ACTION_CHARGE (so at most MAX_ACTIONS actions), each deck order its cards
        # every deck order lists each card once: each counts what one of them counts
        one_order = saved_chars((), [game.card_texts]) if self._deck_orders else 0
        self._room = MAX_SAVED_CHARS - one_order * len(self._deck_orders)
        if self._room < 0:
            raise TrickcoreError(
                f"the deck orders hold more than a saved match can ({MAX_SAVED_CHARS:,} "
                "characters of card texts)"
            )
        self._rng: random.Random = (
            random.SystemRandom() if secret else random.Random(seed if seed is not None else 0)
        )
        self._claims: dict[int, int] = {}  # {0: the thread using the match now}
        match = game.model.match
        self._scores = [0] * self.seats
        self._kept: list[dict[str, Any]] = [
            {name: init for name, _, init in match.keep} for _ in range(self.seats)
        ]
        self._start: dict[str, Any] = {"scores": None, "kept": None, "dealer": dealer}
        if scores is not None:
            if not isinstance(scores, (list, tuple)):
                raise TrickcoreError(f"scores must be a list of {self.seats} whole numbers")
            if len(scores) != self.seats or not all(is_whole(x) for x in scores):
                raise TrickcoreError(
                    f"scores must be {self.seats} whole numbers within ±{MAX_VALUE:,}"
                )
            self._scores = list(scores)
            self._start["scores"] = list(scores)
        if kept is not None:
            self._set_kept(kept)
        if not is_whole(dealer) or not 0 <= dealer < self.seats:
            raise TrickcoreError(f"dealer must be a seat 0..{self.seats - 1}")
        self.dealer = dealer
        self.deals_dealt = 0
        self.deals_played = 0
        self.redeals = 0
        self.stopped: str | None = None
        self._history: list[tuple[int, int, str]] = []
        self._deal_results: list[dict[str, Any]] = []
        self._winners: list[int] = []
        self.is_over = False
        self.current: Deal | BoutDeal = self._next_deal()
        self._skip_void_deals()

    # ------------------------------------------------------------ what it hands out
    @property
    def history(self) -> ReadOnlyList[tuple[int, int, str]]:
        """Every action taken: (deal index, seat, action text), a read-only view."""
        return ReadOnlyList(self._history)

    @property
    def actions_taken(self) -> int:
        """The number of actions taken in the match (`len(history)`)."""
        return len(self._history)

    @property
    def scores(self) -> list[int]:
        """Each seat's match score (a copy)."""
        return self._scores[:]

    @property
    def winners(self) -> list[int]:
        """The seats that won, once the match is over (a copy)."""
        return self._winners[:]

    @property
    def deal_results(self) -> _Results:
        """Each finished deal's result (a read-only view; each record read is a copy): of a
        deal played, `dealer`, `declarer`, `contract`, `qualifier`, `gains`, `card_points`
        and `scores`; of a deal thrown in (a redeal), only `redeal` (True), `by` (the seat
        that threw it in, -1 when nobody bid) and `dealer`."""
        return _Results(self._deal_results)

    @property
    def kept(self) -> list[dict[str, Any]]:
        """Each seat's kept values (`match { keep ... }`), copies."""
        return [dict(k) for k in self._kept]

    @property
    def start(self) -> dict[str, Any]:
        """How the match began: scores, kept values and dealer given (None: the defaults)."""
        return {
            "scores": None if self._start["scores"] is None else list(self._start["scores"]),
            "kept": None if self._start["kept"] is None else [dict(k) for k in self._start["kept"]],
            "dealer": self._start["dealer"],
        }

    @property
    def deck_orders(self) -> list[list[int]]:
        """The deck orders dealt first, one per deal (a copy); a secret match records here
        every order it has dealt."""
        return [list(o) for o in self._deck_orders]

    @deck_orders.setter
    def deck_orders(self, orders: Sequence[Sequence[int]]) -> None:
        self._deck_orders = [list(o) for o in orders]

    def _set_kept(self, kept: Sequence[dict[str, Any]]) -> None:
        types = {name: typ for name, typ, _ in self.game.model.match.keep}
        if (
            not isinstance(kept, (list, tuple))
            or len(kept) != self.seats
            or not all(isinstance(k, dict) for k in kept)
        ):
            raise TrickcoreError(f"kept state must list {self.seats} seats")
        for seat, values in enumerate(kept):
            for name, value in values.items():
                if name not in types:
                    known = ", ".join(types) or "none"
                    raise TrickcoreError(f"'{name}' is not kept state of this variant ({known})")
                ok = isinstance(value, bool) if types[name] == "bool" else is_whole(value)
                if not ok:
                    kind = "yes/no value" if types[name] == "bool" else "whole number in range"
                    raise TrickcoreError(f"kept state '{name}' must be a {kind}")
                self._kept[seat][name] = value
        self._start["kept"] = [dict(k) for k in self._kept]

    # ------------------------------------------------------------ one thread at a time
    def _claim(self) -> None:
        """Mark the match as in use by this thread; a ConcurrentUseError if another thread
        uses it now (an atomic step: a dict's setdefault)."""
        me = get_ident()
        if self._claims.setdefault(0, me) != me:
            raise ConcurrentUseError(IN_USE)

    def _release(self) -> None:
        self._claims.pop(0, None)

    # ------------------------------------------------------------ flow
    def _next_order(self) -> list[int]:
        if self.deals_dealt < len(self._deck_orders):
            return list(self._deck_orders[self.deals_dealt])
        order = list(range(self.game.model.deck.size))
        shuffle(self._rng, order)
        if self.secret:
            self._deck_orders.append(order[:])
            self._room -= saved_chars((), [[self.game.card_text(c) for c in order]])
        return order

    def _next_deal(self) -> Deal | BoutDeal:
        order = self._next_order()
        self.deals_dealt += 1
        context = self.game.match_context(
            self.seats, self.deals_played + 1, self._scores, self._kept
        )
        return make_deal(self.game, order, self.dealer, self.seats, context)

    @property
    def deal(self) -> Observation | BoutObservation:
        """The current deal's public view: what every player at the table may know."""
        self._claim()
        try:
            return attrs.evolve(self.current.public_view(), scores=tuple(self._scores))
        finally:
            self._release()

    @property
    def to_act(self) -> int:
        """The seat to act, or -1 when the match is over."""
        return -1 if self.is_over else self.current.to_act

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (a new list: the caller's to change)."""
        if self.is_over:
            return []
        me = get_ident()  # (the claim of `_claim`, written out: this is the hot path)
        claims = self._claims
        if claims.setdefault(0, me) != me:
            raise ConcurrentUseError(IN_USE)
        try:
            return self.current.legal_actions()
        finally:
            del claims[0]

    def legal_ids(self) -> list[int]:
        """The legal actions as numbers of the variant's action space (see
        `Variant.action_of`), in the order of `legal_actions()` (a new list)."""
        if self.is_over:
            return []
        me = get_ident()
        claims = self._claims
        if claims.setdefault(0, me) != me:
            raise ConcurrentUseError(IN_USE)
        try:
            return self.current.legal_ids()
        finally:
            del claims[0]

    def apply_id(self, action_id: int) -> None:
        """Take the legal action with this number (IllegalActionError if none is)."""
        self._claim()
        try:
            if self.is_over:
                raise IllegalActionError("the match is over; no action is possible")
            deal = self.current
            action = None
            if type(action_id) is int:  # (a float or a bool equal to a number is no number)
                for a in deal._legal_now():
                    if a.id == action_id:
                        action = a
                        break
            if action is None:
                deal.apply_id(action_id)  # not legal: raises, naming the legal actions
        finally:
            self._release()
        self.apply(action)  # type: ignore[arg-type]  # (found above)

    def clone(self) -> Match:
        """An independent copy of the match: its deal, scores, kept values, history and
        the shuffle to come (the copy deals the same cards next; a secretly dealt match's
        copy deals from the secret source too)."""
        self._claim()
        try:
            new = object.__new__(Match)
            state = self.__dict__.copy()
            state["current"] = self.current.clone()
            state["_scores"] = self._scores[:]
            state["_kept"] = [dict(k) for k in self._kept]
            state["_history"] = self._history[:]
            state["_deal_results"] = self._deal_results[:]
            state["_winners"] = self._winners[:]
            state["_deck_orders"] = self._deck_orders[:]
            state["_claims"] = {}
            if not self.secret and self._rng is not None:
                # the same future stream, without seeding a new generator from the system
                rng = random.Random.__new__(type(self._rng))
                rng.setstate(self._rng.getstate())
                state["_rng"] = rng
            new.__dict__ = state
            return new
        finally:
            self._release()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_claims"] = {}
        if self.secret:
            state["_rng"] = None  # the secret source is this process's own
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.secret:
            self._rng = random.SystemRandom()

    def apply(self, action: Action | str) -> None:
        """Take an action (object or text); illegal actions raise and change nothing.

        A rules file that breaks while an action is carried out (a number outside ±999,999,999,
        a bout limit below one) stops the match: the action is recorded, `is_over` and
        `stopped` (the reason) are set, and the RulesError is raised. An error while listing
        the legal actions changes nothing.
        """
        me = get_ident()
        claims = self._claims
        if claims.setdefault(0, me) != me:
            raise ConcurrentUseError(IN_USE)
        try:
            if self.is_over:
                raise IllegalActionError(f"the match is over; no action is possible ({action})")
            deal = self.current
            seat = deal.to_act
            taken = len(deal.history)
            try:
                deal.apply(action)
            except RulesError as exc:
                if len(deal.history) > taken:  # taken, and the rules broke carrying it out
                    self._record(seat, deal.history[-1][1].text)
                    deal.stop()
                    self._stop(exc)
                raise
            text = deal.history[-1][1].text
            self._history.append((self.deals_dealt - 1, seat, text))
            self._room -= len(text) + ACTION_CHARGE
            if deal.is_over:
                self._finish_deal()
            if self._room < 0 and not self.is_over:
                self._end_at_the_limit()
        finally:
            del claims[0]

    def _record(self, seat: int, text: str) -> None:
        self._history.append((self.deals_dealt - 1, seat, text))
        self._room -= len(text) + ACTION_CHARGE

    def _end_at_the_limit(self) -> None:
        """The match has as many actions as a saved match holds: it ends where it stands."""
        self.current.stop()
        self._winners = self._rank(list(range(self.seats)), self.current, ("highest",))
        self.is_over = True
        self.stopped = (
            f"the match reached {len(self._history):,} actions, the most a match may have (a "
            f"saved match holds at most {MAX_ACTIONS:,} actions, and {MAX_SAVED_CHARS:,} "
            "characters of actions and deck orders); it ends here, ranked as it stands"
        )

    def _stop(self, exc: RulesError) -> None:
        self.is_over = True
        self.stopped = exc.message

    def _finish_deal(self) -> None:
        self._book(self.current)
        self._deal_next()

    def _skip_void_deals(self) -> None:
        """A deal void as it is dealt (a compulsory redeal, `redeal.forced_if`) is booked at
        once and the next one dealt."""
        if self.current.is_over and not self.is_over:
            self._book(self.current)
            self._deal_next()

    def _deal_next(self) -> None:
        """Deal the next deal unless the match is over; a deal void as it is dealt is booked
        at once and the next one dealt. A match that waits for its deck orders
        (`wait_for_orders`) stops here, `awaiting_order`, when it has none left."""
        while not self.is_over:
            if self.awaiting_order or (self._waits and self.deals_dealt >= len(self._deck_orders)):
                self.awaiting_order = True
                return
            self.current = self._next_deal()
            if not self.current.is_over:
                return
            self._book(self.current)

    def wait_for_orders(self) -> None:
        """Deal only the deck orders given (at the start or by `give_order`): when the match
        needs another, it waits with `awaiting_order` set (its `current` deal over and booked,
        nobody to act) instead of shuffling one. For a caller that deals the cards itself
        (OpenSpiel's chance nodes); the match then has no generator of its own."""
        self._waits = True
        self._rng = None  # type: ignore[assignment]  # never shuffles

    def give_order(self, order: Sequence[int]) -> None:
        """The next deck order of a match that waits for it (`wait_for_orders`): the match
        deals it and goes on (and may wait again, if that deal is void as it is dealt)."""
        if not self.awaiting_order:
            raise TrickcoreError("the match is not waiting for a deck order")
        self._claim()
        try:
            self._deck_orders.append(list(order))
            self.awaiting_order = False
            self._deal_next()
            if self._room < 0 and not self.is_over and not self.awaiting_order:
                self._end_at_the_limit()
        finally:
            self._release()

    def _book(self, deal: Deal | BoutDeal) -> None:
        """Account for a deal that is over: redeal count or after_deal, dealer, match end."""
        model = self.game.model
        if deal.redealt:
            self.redeals += 1
            if model.redeal is None or not model.redeal.same_dealer:
                self.dealer = (self.dealer + 1) % self.seats
            self._deal_results.append({"redeal": True, "by": deal.redeal_by, "dealer": deal.dealer})
        else:
            try:
                after = self._run_after_deal(deal)
            except RulesError as exc:
                self._stop(exc)
                raise
            self.deals_played += 1
            rule = model.match.next_dealer
            if rule is not None:  # the first from the dealer's left for whom it holds
                seats = self.seats
                order = [(self.dealer + k) % seats for k in range(1, seats + 1)]
                self.dealer = next((s for s in order if rule(after[s])), order[0])
            elif model.deal.next_dealer == "left":
                self.dealer = (self.dealer + 1) % self.seats
            elif model.deal.next_dealer == "loser":
                loser = deal.loser
                self.dealer = loser if loser >= 0 else (self.dealer + 1) % self.seats
        self._check_end(deal)

    def _run_after_deal(self, deal: Deal | BoutDeal) -> list[dict[str, Any]]:
        """Run the after_deal rules for every seat; nothing changes unless all succeed.
        Returns each seat's names after the rules (what `deal.next_dealer = EXPR` reads)."""
        model = self.game.model
        gains = deal.gains or [0] * self.seats
        record = deal.summary()
        scores = list(self._scores)
        kept = [dict(k) for k in self._kept]
        after: list[dict[str, Any]] = []
        for seat in range(self.seats):
            in_range(gains[seat], "the deal score (scoring's declarer or defender)", None)
            env = deal.final_env(seat)
            env.update(kept[seat])
            env.update(
                score=scores[seat],
                gain=gains[seat],
                deal_number=self.deals_played + 1,
                target=model.match.target or 0,
            )
            for step in model.match.after_deal:
                if step.condition is None or step.condition(env):
                    values = [(a.name, a.expr(env)) for a in step.assigns]
                    for name, value in values:
                        in_range(value, f"after_deal rule '{step.name}' ({name})", step.loc)
                    env.update(values)
            scores[seat] = env["score"]
            for name in kept[seat]:
                kept[seat][name] = env[name]
            after.append(env)
        self._scores = scores
        self._kept = kept
        record["scores"] = list(self._scores)
        self._deal_results.append(record)
        return after

    def _check_end(self, deal: Deal | BoutDeal) -> None:
        rules = self.game.model.match
        if not deal.redealt:
            candidates: list[int] = []
            if rules.target is not None:
                candidates = [s for s in range(self.seats) if self._scores[s] >= rules.target]
            if not candidates and rules.end_if is not None and self._end_if_holds():
                # every seat is ranked: the highest standing, then the tie-breaks among them
                top = max(self.standing(s) for s in range(self.seats))
                candidates = [s for s in range(self.seats) if self.standing(s) == top]
            if candidates:
                winners = self._rank(candidates, deal, rules.tie_break)
                side_of = self.game.model.side_of(self.seats)
                play_on = "play_on" in rules.tie_break
                if not (play_on and len({side_of[s] for s in winners}) > 1):
                    self._winners = winners
                    self.is_over = True
                    return
        if self.deals_played >= rules.deal_limit or self.redeals > rules.redeal_limit:
            self._winners = self._rank(list(range(self.seats)), deal, ("highest",))
            self.is_over = True

    def _end_if_holds(self) -> bool:
        """`match.end_if` holds for some seat (after the deal's after_deal rules)."""
        end_if = self.game.model.match.end_if
        assert end_if is not None
        context = self.game.match_context(self.seats, self.deals_played, self._scores, self._kept)
        players = len(self.game.model.deal.players_in_deal(0, self.seats))
        envs = [{**env, "players": players, "seats": self.seats} for env in context]
        side_of = self.game.model.side_of(self.seats)
        for seat, env in enumerate(envs):  # the aggregates: every seat, his side's seats
            env[TABLE_KEY] = envs
            env[SIDE_KEY] = [e for s, e in enumerate(envs) if side_of[s] == side_of[seat]]
        return any(end_if(env) for env in envs)

    def standing(self, seat: int) -> int:
        """The number the match ranks a seat by: `rank_by` of the variant, else the score."""
        check_seat(seat, self.seats)
        rank_by = self.game.model.match.rank_by
        if rank_by is None:
            return self._scores[seat]
        target = self.game.model.match.target or 0
        return int(rank_by({"score": self._scores[seat], "target": target, **self._kept[seat]}))

    def _rank(
        self, candidates: list[int], deal: Deal | BoutDeal, ties: tuple[str, ...]
    ) -> list[int]:
        declarer = deal.declarer
        for rule in ties:
            if rule == "declarer" and declarer in candidates:
                return [declarer]
            if rule == "highest":
                top = max(self.standing(s) for s in candidates)
                return [s for s in candidates if self.standing(s) == top]
        return candidates

    # ------------------------------------------------------------ views
    def observation(self, seat: int) -> Observation | BoutObservation:
        """What `seat` may know now: its view of the current deal plus the match scores and
        every player's kept values (public: they follow from the deals' public results)."""
        kept = tuple(tuple(sorted(k.items())) for k in self._kept)
        self._claim()
        try:
            obs = self.current.observation(seat)
        finally:
            self._release()
        return attrs.evolve(obs, scores=tuple(self._scores), kept=kept)

    def kept_state(self, seat: int) -> dict[str, Any]:
        """The per-player state the variant keeps across deals (`match { keep ... }`)."""
        return dict(self._kept[check_seat(seat, self.seats)])

    # ------------------------------------------------------------ saving
    def to_json(self) -> dict[str, Any]:
        """The match as JSON-ready data: variant and hash, seed or deck orders, actions."""
        self._claim()
        try:
            return match_to_json(self)
        finally:
            self._release()


def match_to_json(match: Match) -> dict[str, Any]:
    """The match as JSON-ready data (a complete saved match)."""
    game = match.game
    return saved_match_data(
        game,
        players=match.seats,
        seed=match.seed,
        actions=[text for _, _, text in match.history],
        deck_orders=[[game.card_text(c) for c in o] for o in match.deck_orders] or None,
        start=match.start,
        stopped=match.stopped,
        secret=match.secret,
    )


def save_match(match: Match, path: str | Path) -> None:
    """Write the match to a JSON file atomically (a temporary file, then a rename)."""
    save_json(match_to_json(match), path)
