"""Every trickcore variant as an OpenSpiel game (a Python game registered with pyspiel).

Importing `trickcore.openspiel` registers every shipped variant (`trickcore_hearts`, ...) and
the game `trickcore`, which plays any rules file: `pyspiel.load_game("trickcore", {"rules":
PATH})` or `pyspiel.load_game("trickcore(rules=PATH)")` (a path without `,`, `(`, `)` or `=`).
`register("my-variant")` registers `trickcore_my_variant` (a shipped name, a path or a
Variant); `pyspiel.load_game("trickcore_my_variant", {"players": 3, "match": True, "rules":
"my/house.rules"})` then loads it. A pickled game registers its variant again when it is
unpickled in another process. Parameters:

- `players`: seats at the table (default, or -1: the variant's first player count);
- `rules`: a rules file to play instead of the registered variant (a house rule), "" for none;
- `match`: False (default) plays one deal (redealt deals do not count: the game ends after
  the first deal that is played); True plays a whole match;
- `history_length`: entries of the deal's log in the information-state tensor (-1: the
  rules' bound on a deal's actions, at most 200).
- `actions`: "stable" (default): the engine's action numbers; "compact": only the actions
  the rules can offer, a card played, passed or laid away one number
  (`compact_actions.CompactNumbering`; `state.stable_action(a)` is the engine's number).

Chance nodes deal the cards: one chance node per card of the deck order, top card first
(outcome: the card's number, uniform over the cards not yet placed), before every deal. Player
actions are the engine's action numbers (`Variant.num_actions`, `legal_ids()`), or with
`actions="compact"` their compact numbering. Returns: in a
deal, each seat's change of standing (its score, or the variant's `rank_by`); in a match, 1
for each winner and 0 for the others.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import attrs

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "trickcore's OpenSpiel games need OpenSpiel and numpy: pip install 'trickcore[openspiel]'"
    ) from exc

import trickcore

from ..checking.invariants import deal_action_bound
from ..checking.utility_bounds import deal_change_bounds
from ..engine.bouts import BoutDeal
from ..engine.deal import Deal
from ..engine.game import Game
from ..engine.match import Match
from ..engine.observation import BoutObservation, Observation
from ..engine.saving import MAX_ACTIONS
from ..engine.worlds import WorldsError
from ..language.errors import IllegalActionError, RulesError, TrickcoreError
from ..language.limits import check_seat
from .compact_actions import CompactNumbering
from .tensors import Encoder, observation_text, snapshot_text

__all__ = [
    "RULES_GAME",
    "can_resample",
    "load_game",
    "register",
    "register_all",
    "register_rules_game",
    "short_name",
]

HISTORY_CAP = 200
STABLE = "stable"  # the engine's action numbers (`Variant.num_actions`): stable ids
COMPACT = "compact"  # only the actions the rules can offer (trickcore.interfaces.compact_actions)
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
RULES_GAME = "trickcore"  # the game that plays the rules file of its `rules` parameter
MAX_SEATS = 8  # the most seats a rules file may declare (`players:`)
RESAMPLE_TRIES = 10  # worlds drawn before a resampling falls back to swapping cards
SWAP_TRIES = 40  # swaps of two hidden cards tried by the fallback (each a replay)
_VARIANTS: dict[str, Game] = {}  # a shipped name or a path -> the loaded variant
_REGISTERED: dict[str, str] = {}  # short name -> the shipped name or path it plays
_BOUNDS: dict[tuple[int, int], int] = {}  # (id of the variant, seats) -> deal action bound
_UTILITY: dict[tuple[int, int], tuple[int, int]] = {}  # the same -> a deal's change bounds
_COMPACT: dict[tuple[int, int], CompactNumbering] = {}  # the same -> the compact numbering


def short_name(variant: str | Path | Game) -> str:
    """The OpenSpiel name of a variant: `trickcore_` and its name, `-` as `_`."""
    name = variant.name if isinstance(variant, Game) else Path(str(variant)).stem
    if isinstance(variant, str) and variant in trickcore.list_variants():
        name = variant
    return "trickcore_" + re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")


def _variant(spec: str) -> Game:
    found = _VARIANTS.get(spec)
    if found is None:
        found = _VARIANTS[spec] = trickcore.load_variant(spec)
    return found


def _bound(variant: Game, seats: int) -> int:
    key = (id(variant), seats)
    found = _BOUNDS.get(key)
    if found is None:
        found = _BOUNDS[key] = deal_action_bound(variant, seats)
    return found


def can_redeal(variant: Game) -> bool:
    """Whether a deal of the variant may end unplayed, to be dealt again: a redeal offered
    or forced (`redeal { ... }`), or thrown in when nobody bids (`all_pass: redeal`)."""
    model = variant.model
    if model.redeal is not None:
        return True
    tricks = model.tricks
    bidding = tricks.bidding if tricks is not None else None
    return bidding is not None and "auction" in tricks.flow and bidding.all_pass == "redeal"  # type: ignore[union-attr]


def game_length(variant: Game, seats: int, whole_match: bool) -> int:
    """The most players' actions a game can take (OpenSpiel's `max_game_length`: chance
    outcomes are not counted): one deal, and the redeals before it when the rules may redeal;
    or a whole match (its deal and redeal limits; a match ends at the latest after
    `MAX_ACTIONS` actions)."""
    per_deal = min(_bound(variant, seats), MAX_ACTIONS)
    return min(_deals(variant, whole_match) * per_deal, MAX_ACTIONS, 2**31 - 1)


def chance_length(variant: Game, whole_match: bool) -> int:
    """The most chance outcomes a game can have (`max_chance_nodes_in_history`): the cards
    of every deal it may deal."""
    return min(_deals(variant, whole_match) * variant.model.deck.size, 2**31 - 1)


def _deals(variant: Game, whole_match: bool) -> int:
    """The most deals a game deals: the match's deal and redeal limits; for one deal, the
    deal played and, when the rules may redeal, the redeals before it (a match that runs out
    of redeals ends without one)."""
    rules = variant.model.match
    redeals = rules.redeal_limit + 1 if can_redeal(variant) else 0
    return (rules.deal_limit if whole_match else 1) + redeals


def _compact(variant: Game, seats: int) -> CompactNumbering:
    key = (id(variant), seats)
    found = _COMPACT.get(key)
    if found is None:
        found = _COMPACT[key] = CompactNumbering(variant, seats)
    return found


def _utility_bounds(variant: Game, seats: int) -> tuple[float, float]:
    key = (id(variant), -seats)
    found = _UTILITY.get(key)
    if found is None:
        found = _UTILITY[key] = deal_change_bounds(variant, seats)
    return float(found[0]), float(found[1])


def register(variant_or_path: str | Path | Game) -> str:
    """Register a variant (a shipped name, a path to a rules file, or a loaded Variant) as
    an OpenSpiel game and return its short name (`trickcore_` and the variant's name);
    registering the same variant again returns the name. Load it with
    `pyspiel.load_game(name, params)`."""
    if isinstance(variant_or_path, Game):
        spec = f"<variant {variant_or_path.name} {variant_or_path.content_hash}>"
        _VARIANTS.setdefault(spec, variant_or_path)
    else:
        spec = str(variant_or_path)
    variant = _variant(spec)
    name = short_name(variant_or_path)
    known = _REGISTERED.get(name)
    if known is not None:
        if known != spec and _variant(known).content_hash != variant.content_hash:
            raise TrickcoreError(
                f"another variant is registered as {name} ({known}); rename the rules file"
            )
        return name
    players = variant.model.players
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"trickcore {variant.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": players[0],
            "rules": "",
            "match": False,
            "history_length": -1,
            "actions": STABLE,
        },
    )
    cls = type(f"TrickcoreGame_{name}", (TrickcoreGame,), {"_spec": spec, "_game_type": game_type})
    pyspiel.register_game(game_type, cls)
    _REGISTERED[name] = spec
    return name


def register_all() -> list[str]:
    """Register every shipped variant and the game `trickcore` (any rules file, by its
    `rules` parameter); the shipped variants' short names."""
    register_rules_game()
    return [register(name) for name in trickcore.list_variants()]  # known ones: a lookup


def register_rules_game() -> str:
    """Register the game `trickcore`, which plays the rules file named by its `rules`
    parameter: `pyspiel.load_game("trickcore", {"rules": PATH})` or
    `pyspiel.load_game("trickcore(rules=PATH)")`; its name."""
    if RULES_GAME in _REGISTERED:
        return RULES_GAME
    game_type = pyspiel.GameType(
        short_name=RULES_GAME,
        long_name="trickcore rules file",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_SEATS,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": -1,
            "rules": "",
            "match": False,
            "history_length": -1,
            "actions": STABLE,
        },
    )
    cls = type("TrickcoreGame_rules", (TrickcoreGame,), {"_spec": "", "_game_type": game_type})
    pyspiel.register_game(game_type, cls)
    _REGISTERED[RULES_GAME] = ""
    return RULES_GAME


def load_game(variant_or_path: str | Path | Game, **params: Any) -> pyspiel.Game:
    """Register a variant if needed and load it: `load_game(NAME, match=True)`."""
    return pyspiel.load_game(register(variant_or_path), params)


def can_resample(game: pyspiel.Game) -> bool:
    """Whether the game's states can resample worlds from an information state
    (`resample_from_infostate`): its variant has a world sampler (`sample_worlds`)."""
    return hasattr(getattr(game, "variant", None), "sample_worlds")


class TrickcoreGame(pyspiel.Game):
    """A trickcore variant as an OpenSpiel game (one class is made per registered variant)."""

    _spec = ""
    _game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self._game_type.parameter_specification
        merged = {**spec, **(params or {})}
        rules = str(merged["rules"])
        if not (rules or self._spec):
            raise TrickcoreError(
                f"the game {RULES_GAME} plays a rules file: "
                f'pyspiel.load_game("{RULES_GAME}", {{"rules": PATH}})'
            )
        variant = _variant(rules or self._spec)
        players = int(merged["players"])
        seats = variant.check_seats(None if players < 0 else players)
        numbering = str(merged["actions"])
        if numbering not in (STABLE, COMPACT):
            raise TrickcoreError(f'actions must be "{STABLE}" or "{COMPACT}", not "{numbering}"')
        # the compact numbering (None: the engine's numbers)
        self.numbering = _compact(variant, seats) if numbering == COMPACT else None
        # compact number i is first the stable number stable[i] (a card's: its play)
        self.stable = self.numbering.stable if self.numbering is not None else None
        self.variant = variant
        self.seats = seats
        self.whole_match = bool(merged["match"])
        self.rules = rules
        bound = _bound(variant, seats)
        length = int(merged["history_length"])
        self.history_length = min(bound, HISTORY_CAP) if length < 0 else length
        deck = variant.model.deck.size
        low, high = (0.0, 1.0) if self.whole_match else _utility_bounds(variant, seats)
        info = pyspiel.GameInfo(
            num_distinct_actions=(
                self.numbering.size if self.numbering is not None else variant.num_actions
            ),
            max_chance_outcomes=deck,
            num_players=seats,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=game_length(variant, seats, self.whole_match),
        )
        super().__init__(self._game_type, info, merged)
        self.observation_encoder = Encoder(variant, seats)
        self.information_encoder = Encoder(variant, seats, max(1, self.history_length))
        self._observers: dict[bool, TrickcoreObserver] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return (_reload, (self._game_type.short_name, self._spec, dict(self.get_parameters())))

    def max_chance_nodes_in_history(self) -> int:
        """The most chance outcomes (cards dealt) a game can have."""
        return chance_length(self.variant, self.whole_match)

    def info_observer(self) -> TrickcoreObserver:
        """The observer of the information state (perfect recall, one seat), made once."""
        found = self._observers.get(True)
        if found is None:
            kind = pyspiel.IIGObservationType(perfect_recall=True)
            found = self._observers[True] = self.make_py_observer(kind)
        return found

    def default_observer(self) -> TrickcoreObserver:
        """The observer of a seat's observation (no recall), made once."""
        found = self._observers.get(False)
        if found is None:
            kind = pyspiel.IIGObservationType(perfect_recall=False)
            found = self._observers[False] = self.make_py_observer(kind)
        return found

    def new_initial_state(self) -> TrickcoreState:
        """A state before the first card is dealt."""
        return TrickcoreState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TrickcoreObserver:
        """The observer of OpenSpiel's observation API (tensors and strings)."""
        return TrickcoreObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


def _reload(name: str, spec: str, params: dict[str, Any]) -> pyspiel.Game:
    """A game loaded again (pickling): registered first when this process has not."""
    register_all()  # as importing trickcore.openspiel does
    if name not in _REGISTERED:
        if spec.startswith("<variant "):
            raise TrickcoreError(f"{name} was registered from a Variant object; register it again")
        register(spec)
    return pyspiel.load_game(name, params)


def _state_from(game: pyspiel.Game, text: str) -> pyspiel.State:
    """A state unpickled: its game (registered again if needed) replays its actions."""
    return game.deserialize_state(text)


def _restore(key: tuple[str, int, bool, bool], actions: list[int]) -> _Core:
    """A state's core rebuilt by replaying its actions (serialization)."""
    spec, seats, whole_match, compact = key
    variant = _variant(spec)
    numbering = _compact(variant, seats) if compact else None
    core = _Core(variant, seats, whole_match, spec, numbering)
    for a in actions:
        core.apply(a)
    return core


@attrs.define
class _Shown:
    """A finished deal shown in place of the match's current one (while the next is dealt,
    and at the end of a game of one deal)."""

    deal: Deal | BoutDeal
    scores: tuple[int, ...]
    kept: tuple[tuple[tuple[str, int | bool], ...], ...]


class _Recall:
    """What each seat saw of its private cards during one deal and where in the log it saw
    it, noted on demand (not after every action): a copy of the deal as it was dealt
    (`shadow`) is played forward to the position asked, each seat's view noted after each
    action. The deal's last position is read from the deal itself (`live`)."""

    __slots__ = (
        "arrived",
        "copies",
        "entered",
        "final",
        "marks",
        "own",
        "shadow",
        "snaps",
        "synced",
        "texts",
    )

    def __init__(self, deal: Deal | BoutDeal, seats: int) -> None:
        self.shadow = deal.clone()  # the deal after `synced` of its actions
        self.copies = bool(deal.game.copies)  # a hand may hold a card twice
        self.own = True  # the shadow is this recall's alone (else copied before it moves)
        self.synced = -1  # positions noted: after this many actions (-1: none yet)
        self.marks: list[list[tuple[int, str]]] = [[] for _ in range(seats)]
        self.snaps: list[tuple[Any, ...] | None] = [None] * seats
        self.arrived: list[dict[str, int]] = [{} for _ in range(seats)]
        # every card that came into each seat's hand in the deal, in order, with the
        # position in the log at which it came (to resample worlds that keep it)
        self.entered: list[list[tuple[int, str]]] = [[] for _ in range(seats)]
        # a deal that is over: the deal and the match scores after it; each seat's text
        self.final: tuple[Deal | BoutDeal, tuple[int, ...]] | None = None
        self.texts: dict[int, str] = {}

    def copy(self) -> _Recall:
        """An independent copy (the shadow shared until one of them moves it on)."""
        new = object.__new__(_Recall)
        new.shadow = self.shadow
        new.copies = self.copies
        new.own = self.own = False
        new.synced = self.synced
        new.marks = [list(m) for m in self.marks]
        new.snaps = list(self.snaps)
        new.arrived = [dict(a) for a in self.arrived]
        new.entered = [list(e) for e in self.entered]
        new.final = self.final
        new.texts = dict(self.texts)
        return new

    def sync(self, live: Deal | BoutDeal, upto: int) -> None:
        """Note every seat's view at each position of `live`'s log up to `upto` actions."""
        n = len(live.history)
        while self.synced < upto:
            if self.synced >= 0:
                if not self.own:
                    self.shadow = self.shadow.clone()
                    self.own = True
                try:
                    self.shadow.apply(live.history[self.synced][1])
                except TrickcoreError:
                    if self.synced + 1 < n:  # (only the action that stopped a match may)
                        raise
            self.synced += 1
            source = live if self.synced == n else self.shadow
            for seat in range(len(self.marks)):
                self.mark(seat, *source.private_view(seat))

    def mark(self, seat: int, at: int, snap: tuple[tuple[str, Any], ...]) -> None:
        """Note a change of the seat's private cards (`snap`, as `private_snapshot` has
        them), where in the log (`at`) it happened."""
        if snap != self.snaps[seat]:
            self.snaps[seat] = snap
            self.marks[seat].append((at, snapshot_text(snap)))
        arrived = self.arrived[seat]
        hand = snap[0][1]
        for card in hand:
            if card not in arrived:
                arrived[card] = at
                self.entered[seat].append((at, card))
        if len(arrived) > len(hand) or self.copies:
            held = set(hand)
            for card in [c for c in arrived if c not in held]:
                del arrived[card]

    def final_view(self, seat: int) -> Observation | BoutObservation:
        """A finished deal's last view of `seat`, with the match scores after it."""
        assert self.final is not None
        deal, scores = self.final
        self.sync(deal, len(deal.history))
        return attrs.evolve(deal.observation(seat), scores=scores)


class _Core:
    """The state of a game: the match, the deck orders dealt by chance, and what each seat
    saw of its private cards (for recall, noted when it is asked for). Light to copy and to
    pickle.

    A player's action is taken by the match itself (its legality is known: no trial copy).
    When it ends a deal and the match needs the next deck order, the match waits
    (`Match.wait_for_orders`) while the chance nodes deal it (`pending`); the finished deal
    is shown meanwhile (`shown`), as it is at the end of a game of one deal."""

    def __init__(
        self,
        variant: Game,
        seats: int,
        whole_match: bool,
        spec: str,
        numbering: CompactNumbering | None = None,
    ) -> None:
        self.variant = variant
        self.numbering = numbering  # the compact numbering (None: the engine's numbers)
        # the legal compact numbers -> the engine's (until an action)
        self._taken: dict[int, int] | None = None
        self.seats = seats
        self.whole_match = whole_match
        self.spec = spec
        self.deck = variant.model.deck.size
        self.plain = variant.model.deck.plain  # every face once: a card is its number
        self.orders: list[list[int]] = []
        self.order_starts: list[int] = []  # where each deck order's chance actions begin
        self.dealing: list[int] = []
        self.placed: set[int] = set()  # the cards of `dealing`
        self.match: Match | None = None
        self.pending = False  # an action ended a deal; the next deck order is being dealt
        self.results_shown = 0  # deal results the public sees while `pending`
        self.shown: _Shown | None = None
        self.start: list[int] = [0] * seats
        self.terminal = False
        self.actions: list[int] = []
        self.recalls: list[_Recall] = []  # the deals over, each seat's recall of them
        self.recall: _Recall | None = None  # the current deal's
        self._legal: list[int] | None = None  # the sorted legal numbers, until an action
        self.player = CHANCE  # the OpenSpiel player id to act (kept up to date by `apply`)
        # what the observers worked out at this state (forgotten by `apply`; a copy of the
        # state starts with copies of them)
        self.tensors: dict[tuple[Any, int], Any] = {}
        self.texts: dict[tuple[bool, bool, int], str] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        key = (self.spec, self.seats, self.whole_match, self.numbering is not None)
        return (_restore, (key, list(self.actions)))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = object.__new__(_Core)
        new.__dict__.update(self.__dict__)
        new.orders = list(self.orders)
        new.order_starts = list(self.order_starts)
        new.dealing = list(self.dealing)
        new.placed = set(self.placed)
        new.match = self.match.clone() if self.match is not None else None
        new.actions = list(self.actions)
        new.recalls = list(self.recalls)  # deals over: never changed but to note them
        new.recall = self.recall.copy() if self.recall is not None else None
        new.tensors = dict(self.tensors)  # (what either works out later is its own)
        new.texts = dict(self.texts)
        return new

    # ------------------------------------------------------------ flow
    @property
    def chance(self) -> bool:
        """Cards are being dealt."""
        return not self.terminal and (self.match is None or self.pending)

    def current_player(self) -> int:
        """The OpenSpiel player id to act."""
        return self.player

    def _to_act(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.match is None or self.pending:
            return CHANCE
        return self.match.to_act

    def legal(self) -> list[int]:
        """The legal action numbers, ascending (the state's own list: not to be changed)."""
        legal = self._legal
        if legal is None:
            if self.terminal or self.chance:
                return []
            assert self.match is not None
            ids = self.match.legal_ids()
            if self.numbering is None:
                legal = self._legal = sorted(ids)
            else:
                self._taken = self.numbering.legal_map(ids)
                legal = self._legal = list(self._taken)
        return legal

    def stable_action(self, action: int) -> int:
        """A player's action number of this state as the engine numbers it (the same
        number when the game uses the engine's numbers). Raises IllegalActionError when it
        is not legal here in the compact numbering."""
        if self.numbering is None:
            return action
        self.legal()
        taken = None if self._taken is None else self._taken.get(action)
        if taken is None:  # (no player to act: no action is legal)
            raise IllegalActionError(f"action number {action} is not legal now")
        return taken

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may come next in the deck order, each as likely (the copies of a
        card, `deck { copies: N }`, are one outcome: the first copy's number, as likely as
        the copies left)."""
        placed = self.placed
        rest = [c for c in range(self.deck) if c not in placed]
        p = 1.0 / len(rest)
        deck = self.variant.model.deck
        if deck.plain:
            return [(c, p) for c in rest]
        left: dict[int, int] = {}
        for c in rest:
            first = deck.cards_of_face[deck.faces[c]][0]
            left[first] = left.get(first, 0) + 1
        return [(c, n * p) for c, n in left.items()]

    def _copy_left(self, action: int) -> int:
        """A chance outcome as the card dealt: with copies, the first copy of its card not
        dealt yet (-1: none left)."""
        deck = self.variant.model.deck
        if deck.plain or not 0 <= action < self.deck:
            return action
        placed = self.placed
        return next((c for c in deck.cards_of_face[deck.faces[action]] if c not in placed), -1)

    def apply(self, action: int) -> None:
        """Apply a chance outcome (the next card of the deck order) or a player's action."""
        action = int(action)
        if self.tensors:
            self.tensors = {}
        if self.texts:
            self.texts = {}
        if self.player == CHANCE:  # (kept up to date: `chance`)
            if not self.plain:
                action = self._copy_left(action)
            if action in self.placed or not 0 <= action < self.deck:
                raise TrickcoreError(f"{action} is not a card still to deal")
            self.actions.append(action)
            self.dealing.append(action)
            self.placed.add(action)
            if len(self.dealing) == self.deck:
                self.order_starts.append(len(self.actions) - self.deck)
                self.orders.append(self.dealing)
                self.dealing = []
                self.placed = set()
                self._dealt()
                self.player = self._to_act()
            return
        m = self.match
        assert m is not None
        old = m.current
        taken = self.stable_action(action)
        try:
            m.apply_id(taken)  # raises on an illegal action, changing nothing
        except RulesError:
            if m.stopped is None:
                raise
            # the rules file broke carrying out the action: the match stopped (`stopped`)
            # and the game ends there
        self._legal = self._taken = None
        self.actions.append(action)
        self._settle(old)
        self.player = self._to_act()

    def _dealt(self) -> None:
        """A deck order is complete: start the match, or deal the match's next deal."""
        m = self.match
        if m is None:
            m = self.variant.new_match(deck_orders=self.orders, players=self.seats)
            m.deck_orders = list(self.orders)
            if m.deals_dealt > len(self.orders) and not m.is_over:
                return  # void as dealt: deal again
            m.wait_for_orders()
            self.match = m
            self.start = [m.standing(s) for s in range(self.seats)]
            self.recall = _Recall(m.current, self.seats)
            return
        assert self.shown is not None  # (the deal over, shown while the next is dealt)
        old = self.shown.deal
        m.give_order(self.orders[-1])
        self._settle(old)

    def _settle(self, old: Deal | BoutDeal) -> None:
        """After an action or a deck order dealt: the game over, the next deal awaited, or
        the match on (with a new deal when `old` is over)."""
        m = self.match
        assert m is not None
        changed = m.current is not old or m.awaiting_order  # `old` is over and booked
        done = m.is_over or (not self.whole_match and m.deals_played >= 1)
        if not done and m.awaiting_order:  # the next deal needs cards
            if not self.pending:
                self.pending = True
                self.results_shown = len(m.deal_results) - 1
                self.shown = self._shown(old, m)
            return
        self.pending = False
        self.shown = self._shown(old, m) if done and changed else None
        self.terminal = done
        if changed:  # the deal is over
            recall = self.recall
            assert recall is not None
            recall.final = (old, tuple(m.scores))
            self.recalls.append(recall)
            self.recall = None
            if not (self.terminal and self.shown is not None):
                self.recall = _Recall(m.current, self.seats)

    @staticmethod
    def _shown(deal: Deal | BoutDeal, match: Match) -> _Shown:
        kept = tuple(tuple(sorted(k.items())) for k in match.kept)
        return _Shown(deal, tuple(match.scores), kept)

    # ------------------------------------------------------------ recall
    def _synced(self) -> _Recall | None:
        """The current deal's recall, noted up to where the seats stand now (the action
        that ended a deal whose successor is being dealt not yet)."""
        recall = self.recall
        if recall is not None:
            assert self.match is not None
            live = self.match.current
            n = len(live.history)
            recall.sync(live, n - 1 if self.pending else n)
        return recall

    @property
    def marks(self) -> list[list[tuple[int, str]]]:
        """Each seat's changes of its private cards in the current deal: (position in the
        log, what it held then)."""
        recall = self._synced()
        return recall.marks if recall is not None else [[] for _ in range(self.seats)]

    @property
    def arrived(self) -> list[dict[str, int]]:
        """Each seat's hand now: card -> the position in the log at which it came."""
        recall = self._synced()
        return recall.arrived if recall is not None else [{} for _ in range(self.seats)]

    @property
    def entered(self) -> list[list[tuple[int, str]]]:
        """Every card that came into each seat's hand in the current deal, in order, with
        the position in the log at which it came."""
        recall = self._synced()
        return recall.entered if recall is not None else [[] for _ in range(self.seats)]

    def past(self, seat: int) -> list[str]:
        """The deals over as `seat` saw them (the texts of its information state)."""
        texts = []
        for recall in self.recalls:
            text = recall.texts.get(seat)
            if text is None:
                final = recall.final_view(seat)
                text = recall.texts[seat] = self._deal_text(seat, final, recall.marks[seat])
            texts.append(text)
        return texts

    def resampled_actions(self, seat: int, rng: random.Random) -> list[int]:
        """The actions of a game that `seat` cannot tell from this one: the deals before the
        current one as they were, then the current deal dealt and played in a world drawn by
        `Variant.sample_worlds` from the seat's observation."""
        if self.terminal or self.chance or self.match is None:
            raise TrickcoreError("worlds are resampled at a player's turn, not while dealing")
        m = self.match
        check_seat(seat, self.seats)
        world = self.variant.sample_worlds(
            m.observation(seat), 1, rng, deal_number=m.deals_played + 1
        )[0]
        start = self.order_starts[m.deals_dealt - 1]
        return [
            *self.actions[:start],
            *world.deck_order,
            *(self._numbered(a.id) for _, a in world.history),
        ]

    def _numbered(self, stable: int) -> int:
        """An engine's action number as this game numbers its actions."""
        if self.numbering is None:
            return stable
        return next(iter(self.numbering.legal_map([stable])))

    def repaired_actions(self, seat: int, world: _Core, actions: list[int]) -> list[int] | None:
        """A resampled game (`actions`, played out in `world`) with the cards `seat` was
        dealt or drew put back in the order it got them here: the sampler keeps the seat's
        current view, not always when each of its cards came (cards drawn from a stock).
        The cards it got are the same, only in another order, so swapping them in the deck
        order changes no other seat's cards. None when they are not the same cards."""
        real, got = self.entered[seat], world.entered[seat]
        if real == got:
            return None
        if [at for at, _ in real] != [at for at, _ in got]:
            return None
        swap: dict[str, str] = {}
        at = 0
        while at < len(real):  # cards that came at the same place, paired in sorted order
            end = at
            while end < len(real) and real[end][0] == real[at][0]:
                end += 1
            mine = sorted(c for _, c in real[at:end])
            theirs = sorted(c for _, c in got[at:end])
            extra = [c for c in theirs if c not in mine]
            wanted = [c for c in mine if c not in theirs]
            for old, new in zip(extra, wanted):
                if swap.setdefault(old, new) != new:
                    return None
            at = end
        if sorted(swap) != sorted(swap.values()):
            return None
        assert self.match is not None
        start = self.order_starts[self.match.deals_dealt - 1]
        order = actions[start : start + self.deck]
        text = self.variant.card_text
        moved = [i for i, c in enumerate(order) if text(c) in swap]
        pool: dict[str, list[int]] = {}
        for i in moved:
            pool.setdefault(text(order[i]), []).append(order[i])
        new_order = list(order)
        for i in moved:
            ids = pool.get(swap[text(order[i])])
            if not ids:
                return None
            new_order[i] = ids.pop()
        return [*actions[:start], *new_order, *actions[start + self.deck :]]

    def same_information(self, seat: int, other: _Core) -> bool:
        """`other` gives back exactly what `seat` knows here: its information state (every
        deal as it saw it) and when each card of its hand came."""
        return (
            other.arrived[seat] == self.arrived[seat]
            and other.information_text(seat) == self.information_text(seat)
            and other.observation_text(seat) == self.observation_text(seat)
        )

    # ------------------------------------------------------------ views
    def view(self, seat: int) -> Observation | BoutObservation | None:
        """What `seat` (-1: everybody) may know now; None before the first deal."""
        shown = self.shown
        if shown is not None:
            deal = shown.deal
            obs = deal.public_view() if seat < 0 else deal.observation(seat)
            return attrs.evolve(obs, scores=shown.scores, kept=shown.kept)
        if self.match is None:
            return None
        if seat < 0:
            kept = tuple(tuple(sorted(k.items())) for k in self.match.kept)
            return attrs.evolve(self.match.deal, kept=kept)
        return self.match.observation(seat)

    def _deal_text(
        self,
        seat: int,
        obs: Observation | BoutObservation,
        marks: list[tuple[int, str]] | None = None,
    ) -> str:
        if marks is None:
            marks = self.marks[seat] if seat >= 0 else []
        parts: list[str] = []
        at = 0
        for i, (s, text) in enumerate(obs.log):
            while at < len(marks) and marks[at][0] <= i:
                parts.append(f"[{marks[at][1]}]")
                at += 1
            parts.append(f"{s}:{text}")
        parts.extend(f"[{m[1]}]" for m in marks[at:])
        return " ".join(parts) + " || " + observation_text(obs)

    def information_text(self, seat: int, private: bool = True) -> str:
        """The seat's information state: every deal so far as it saw it (its log, with
        each change of its private cards where it happened) and its view now."""
        who = seat if private else -1
        lines = [f"seat {seat}" if private else "public"]
        if private:
            lines += [f"deal {i + 1}: {t}" for i, t in enumerate(self.past(seat))]
        elif self.match is not None:
            results = self.match.deal_results
            seen = results[: self.results_shown] if self.pending else results
            lines += [f"deal {i + 1}: {r}" for i, r in enumerate(seen)]
        obs = self.view(who)
        if obs is not None and not (self.terminal and self.shown is not None and private):
            lines.append(f"now: {self._deal_text(who, obs)}")
        if self.chance:
            lines.append(f"dealing: {len(self.orders) + 1}")
        return "\n".join(lines)

    def observation_text(self, seat: int, private: bool = True) -> str:
        """The seat's observation now (no history beyond the current deal's log)."""
        obs = self.view(seat if private else -1)
        head = f"seat {seat}" if private else "public"
        if obs is None:
            return f"{head}; dealing"
        return f"{head}; {observation_text(obs, with_log=True)}"

    def returns(self) -> list[float]:
        """Each seat's return: zero until the end (see the module)."""
        if not self.terminal or self.match is None:
            return [0.0] * self.seats
        m = self.match
        if self.whole_match:
            return [1.0 if s in m.winners else 0.0 for s in range(self.seats)]
        return [float(m.standing(s) - self.start[s]) for s in range(self.seats)]

    def text(self) -> str:
        """Every hand and the public view (for debugging)."""
        if self.match is None:
            return f"dealing: {len(self.dealing)} of {self.deck} cards placed"
        source = self.shown.deal if self.shown is not None else self.match.current
        ct = self.variant.card_text
        hands = " / ".join(" ".join(ct(c) for c in sorted(h)) for h in source.hands)
        public = self.view(-1)
        assert public is not None
        tail = f"\ndealing: {len(self.dealing)} cards" if self.chance else ""
        return f"hands: {hands}\n{observation_text(public, with_log=True)}{tail}"


class TrickcoreState(pyspiel.State):
    """A state of a trickcore game in OpenSpiel."""

    def __init__(self, game: TrickcoreGame) -> None:
        super().__init__(game)
        self._core = _Core(
            game.variant, game.seats, game.whole_match, game.rules or game._spec, game.numbering
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_state_from, (self.get_game(), self.serialize()))

    def current_player(self) -> int:
        """The player to act, CHANCE while cards are dealt, TERMINAL at the end."""
        return self._core.player

    # `is_chance_node`, `is_player_node` and `legal_actions` answer here, in Python, what
    # OpenSpiel's C++ state would answer by calling back into Python several times
    def is_chance_node(self) -> bool:
        """Cards are being dealt."""
        return self._core.player == CHANCE

    def is_player_node(self) -> bool:
        """A player is to act."""
        return self._core.player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of `player` (default: the one to act), ascending: the chance
        outcomes at a chance node, none at the end or for a player not to act (a new
        list)."""
        core = self._core
        to_act = core.player
        if player is None:
            player = to_act
        if to_act == TERMINAL:
            return []
        if to_act == CHANCE:
            return [a for a, _ in core.chance_outcomes()]
        if player == to_act:
            return core.legal()[:]
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def _seat(self, player: int | None) -> int:
        seat = self._core.player if player is None else int(player)
        if not 0 <= seat < self._core.seats:
            raise pyspiel.SpielError(f"player {seat} is not a seat 0..{self._core.seats - 1}")
        return seat

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor of `player` (default: the one to act): worked out
        once per state (a new list each call)."""
        game = self.get_game()
        return game.info_observer().values(self, self._seat(player)).tolist()  # type: ignore[no-any-return]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of `player` (default: the one to act): worked out once
        per state (a new list each call)."""
        game = self.get_game()
        return game.default_observer().values(self, self._seat(player)).tolist()  # type: ignore[no-any-return]

    def information_state_string(self, player: int | None = None) -> str:
        """The information state of `player` (default: the one to act) as text."""
        return self.get_game().info_observer().string_from(self, self._seat(player))  # type: ignore[no-any-return]

    def observation_string(self, player: int | None = None) -> str:
        """The observation of `player` (default: the one to act) as text."""
        return self.get_game().default_observer().string_from(self, self._seat(player))  # type: ignore[no-any-return]

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action numbers of the player to act, ascending."""
        return self._core.legal()[:] if player == self._core.player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck order: any card not yet placed, each as likely."""
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Deal the next card, or take a player's action."""
        self._core.apply(action)

    def stable_action(self, action: int) -> int:
        """A legal action of this state as the engine numbers it (`Variant.num_actions`,
        `legal_ids()`): with `actions="compact"`, a card's number is its play, pass or
        discard, whichever this state offers. Raises IllegalActionError for a number that is
        not legal here."""
        return self._core.stable_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """`deal KH` for a chance outcome, else the action's canonical text (in the compact
        numbering a card's number is named as the kind this state offers it as: its play,
        pass or discard; its play where it offers none)."""
        variant = self._core.variant
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {variant.card_text(int(action))}"
        numbering = self._core.numbering
        if numbering is None:
            return variant.action_text(int(action))
        if not 0 <= int(action) < numbering.size:
            raise TrickcoreError(f"{action} is not an action number of this game")
        if not self._core.chance and not self._core.terminal and int(action) in self._core.legal():
            # a card's number is the kind of action this state offers it as
            return variant.action_text(self._core.stable_action(int(action)))
        return variant.action_text(numbering.stable[int(action)])

    def is_terminal(self) -> bool:
        """The deal (or match) is over."""
        return self._core.terminal

    def returns(self) -> list[float]:
        """Standing change per seat after a deal; 1 per winner of a match; 0 before."""
        return self._core.returns()

    def rewards(self) -> list[float]:
        """The reward of the last action: the returns once the game is over."""
        return self._core.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any = None
    ) -> TrickcoreState:
        """A state that `player_id` cannot tell from this one: its information state string
        and tensors, and its observation, are exactly this state's. The current deal's
        hidden cards are drawn among the worlds consistent with the seat's view
        (`Variant.sample_worlds`; earlier deals stay as they were); the cards the seat was
        dealt or drew are then put back in the order it got them (the sampler matches its
        current view, not when each of its cards came from a stock). A world that still
        differs is drawn again (at most `RESAMPLE_TRIES` times; then TrickcoreError).
        `probability_sampler` (OpenSpiel's, a callable giving numbers in [0, 1)) seeds the
        draw."""
        seed = int(probability_sampler() * 2**53) if callable(probability_sampler) else None
        rng = random.Random(seed)
        seat = int(player_id)
        core = self._core
        if core.terminal or core.chance or core.match is None:
            raise TrickcoreError("worlds are resampled at a player's turn, not while dealing")
        failure = "every world drawn differed"
        sampler_errors = 0
        for _ in range(RESAMPLE_TRIES):
            try:
                actions = core.resampled_actions(seat, rng)
                state = self._replayed(actions)
                if core.same_information(seat, state._core):
                    return state
                repaired = core.repaired_actions(seat, state._core, actions)
                if repaired is None:
                    continue
                state = self._replayed(repaired)
                if core.same_information(seat, state._core):
                    return state
            except WorldsError as exc:  # the sampler found no world: try again, once
                failure = str(exc)
                sampler_errors += 1
                if sampler_errors > 1:
                    break
            except TrickcoreError as exc:  # a world whose replay is refused: draw another
                failure = str(exc)
        swapped = self._swapped(seat, rng)
        if swapped is not None:
            return swapped
        raise TrickcoreError(
            f"no world consistent with seat {seat}'s information was found ({failure})"
        )

    def _swapped(self, seat: int, rng: random.Random) -> TrickcoreState | None:
        """The fallback when the sampler finds no world: this deal with pairs of cards the
        seat has not seen swapped in the deck order, each swap kept when the seat's
        information stays exactly the same (`SWAP_TRIES` tries; a chain of such worlds
        from this one, not a uniform draw). None when no swap keeps it."""
        core = self._core
        assert core.match is not None
        start = core.order_starts[core.match.deals_dealt - 1]
        actions = list(core.actions)
        text = core.variant.card_text
        seen = set(re.split(r"[^0-9A-Za-z]+", core.information_text(seat)))
        hidden = [start + i for i, c in enumerate(actions[start : start + core.deck])]
        hidden = [i for i in hidden if text(actions[i]) not in seen]
        best: TrickcoreState | None = None
        for _ in range(SWAP_TRIES if len(hidden) > 1 else 0):
            i, j = rng.sample(hidden, 2)
            trial = list(actions)
            trial[i], trial[j] = trial[j], trial[i]
            try:
                state = self._replayed(trial)
            except TrickcoreError:
                continue
            if core.same_information(seat, state._core):
                actions, best = trial, state
        return best

    def _replayed(self, actions: list[int]) -> TrickcoreState:
        """A new state of this game after `actions` (chance outcomes and players' actions)."""
        state = self.get_game().new_initial_state()
        for a in actions:
            state.apply_action(a)
        return state

    def __str__(self) -> str:
        return self._core.text()


class TrickcoreObserver:
    """OpenSpiel's observer for trickcore games: `tensor` and `dict` (named pieces, see
    trickcore.interfaces.tensors), `set_from(state, player)` and `string_from`.

    Perfect recall (the information state) adds the deal's log to the tensor and every
    deal so far to the string; `private_info` NONE gives the public view."""

    def __init__(self, game: TrickcoreGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("trickcore games observe for one seat or the public only")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.encoder = game.information_encoder if self.perfect_recall else game.observation_encoder
        self.tensor = self.encoder.new_tensor()
        self.dict = self.encoder.views(self.tensor)

    def set_from(self, state: TrickcoreState, player: int) -> None:
        """Fill the tensor with what `player` knows in `state`."""
        found = state._core.tensors.get((self.encoder, player if self.private else -1))
        if found is None:
            self.values(state, player)  # (worked out in this observer's own tensor)
        else:
            np.copyto(self.tensor, found)

    def values(self, state: TrickcoreState, player: int) -> Any:
        """What `player` knows in `state` as a flat tensor: worked out once per state and
        kept with it (read-only: a caller gets copies). Leaves `tensor` filled with it."""
        core = state._core
        key = (self.encoder, player if self.private else -1)
        found = core.tensors.get(key)
        if found is None:
            self.tensor.fill(0)
            obs = core.view(player if self.private else -1)
            if obs is not None:
                self.encoder.encode(obs, self.dict)
                if self.perfect_recall:
                    arrived = core.arrived[player] if self.private else {}
                    self.encoder.encode_history(obs.log, arrived, self.dict)
            found = self.tensor.copy()
            found.flags.writeable = False
            core.tensors[key] = found
        return found

    def string_from(self, state: TrickcoreState, player: int) -> str:
        """What `player` knows in `state`, as text."""
        core = state._core
        key = (self.perfect_recall, self.private, player)
        found = core.texts.get(key)
        if found is None:
            if self.perfect_recall:
                found = core.information_text(player, self.private)
            else:
                found = core.observation_text(player, self.private)
            core.texts[key] = found
        return found
