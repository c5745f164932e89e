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

Chance nodes deal the cards: one chance node per card of the deck order, top card first
(outcome: the card's number, uniform over the cards not yet placed), before every deal. Player
actions are the engine's action numbers (`Variant.num_actions`, `legal_ids()`). Returns: in a
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
    import numpy  # noqa: F401  (the observers' tensors)
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "trickcore's OpenSpiel games need OpenSpiel and numpy: pip install 'trickcore[openspiel]'"
    ) from exc

import trickcore

from ..checking.invariants import deal_action_bound
from ..engine.bouts import BoutDeal
from ..engine.deal import Deal
from ..engine.game import Game
from ..engine.match import Match
from ..engine.observation import BoutObservation, Observation
from ..engine.worlds import WorldsError
from ..language.errors import RulesError, TrickcoreError
from ..language.limits import MAX_VALUE, check_seat
from .tensors import Encoder, observation_text, private_snapshot, snapshot_text

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
RULES_GAME = "trickcore"  # the game that plays the rules file of its `rules` parameter
MAX_SEATS = 8  # the most seats a rules file may declare (`players:`)
RESAMPLE_TRIES = 10  # worlds drawn before a resampling falls back to swapping cards
SWAP_TRIES = 40  # swaps of two hidden cards tried by the fallback (each a replay)
_VARIANTS: dict[str, Game] = {}  # a shipped name or a path -> the loaded variant
_REGISTERED: dict[str, str] = {}  # short name -> the shipped name or path it plays
_BOUNDS: dict[tuple[int, int], int] = {}  # (id of the variant, seats) -> deal action bound


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
        self.variant = variant
        self.seats = seats
        self.whole_match = bool(merged["match"])
        self.rules = rules
        bound = _bound(variant, seats)
        length = int(merged["history_length"])
        self.history_length = min(bound, HISTORY_CAP) if length < 0 else length
        deck = variant.model.deck.size
        rules_match = variant.model.match
        if self.whole_match:
            deals = rules_match.deal_limit + rules_match.redeal_limit + 1
            low, high = 0.0, 1.0
        else:
            deals = rules_match.redeal_limit + 2
            low, high = -2.0 * MAX_VALUE, 2.0 * MAX_VALUE
        info = pyspiel.GameInfo(
            num_distinct_actions=variant.num_actions,
            max_chance_outcomes=deck,
            num_players=seats,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=min(deals * (deck + bound), 2**31 - 1),
        )
        super().__init__(self._game_type, info, merged)
        self.observation_encoder = Encoder(variant, seats)
        self.information_encoder = Encoder(variant, seats, max(1, self.history_length))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_reload, (self._game_type.short_name, self._spec, dict(self.get_parameters())))

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


def _restore(key: tuple[str, int, bool], actions: list[int]) -> _Core:
    """A state's core rebuilt by replaying its actions (serialization)."""
    spec, seats, whole_match = key
    core = _Core(_variant(spec), seats, whole_match, spec)
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


class _Core:
    """The state of a game: the match, the deck orders dealt by chance, and what each seat
    saw of its private cards (for recall). Light to copy and to pickle."""

    def __init__(self, variant: Game, seats: int, whole_match: bool, spec: str) -> None:
        self.variant = variant
        self.seats = seats
        self.whole_match = whole_match
        self.spec = spec
        self.deck = variant.model.deck.size
        self.orders: list[list[int]] = []
        self.order_starts: list[int] = []  # where each deck order's chance actions begin
        self.dealing: list[int] = []
        self.match: Match | None = None
        self.pending: int | None = None
        self.shown: _Shown | None = None
        self.start: list[int] = [0] * seats
        self.terminal = False
        self.actions: list[int] = []
        self.past: list[list[str]] = [[] for _ in range(seats)]
        self.marks: list[list[tuple[int, str]]] = [[] for _ in range(seats)]
        self.snaps: list[tuple[Any, ...] | None] = [None] * seats
        self.arrived: list[dict[str, int]] = [{} for _ in range(seats)]
        # every card that came into each seat's hand in the current deal, in order, with the
        # position in the log at which it came (to resample worlds that keep it)
        self.entered: list[list[tuple[int, str]]] = [[] for _ in range(seats)]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, ((self.spec, self.seats, self.whole_match), list(self.actions)))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = object.__new__(_Core)
        new.__dict__.update(self.__dict__)
        new.orders = list(self.orders)
        new.order_starts = list(self.order_starts)
        new.dealing = list(self.dealing)
        new.match = self.match.clone() if self.match is not None else None
        if new.match is not None:
            new.match.deck_orders = list(self.orders)
        new.actions = list(self.actions)
        new.past = [list(p) for p in self.past]
        new.marks = [list(m) for m in self.marks]
        new.snaps = list(self.snaps)
        new.arrived = [dict(a) for a in self.arrived]
        new.entered = [list(e) for e in self.entered]
        return new

    # ------------------------------------------------------------ flow
    @property
    def chance(self) -> bool:
        """Cards are being dealt."""
        return not self.terminal and (self.match is None or self.pending is not None)

    def current_player(self) -> int:
        """The OpenSpiel player id to act."""
        if self.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.chance:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.match is not None
        return self.match.to_act

    def legal(self) -> list[int]:
        """The legal action numbers, ascending."""
        if self.terminal or self.chance:
            return []
        assert self.match is not None
        return sorted(self.match.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may come next in the deck order, each as likely (the copies of a
        card, `deck { copies: N }`, are one outcome: the first copy's number, as likely as
        the copies left)."""
        placed = set(self.dealing)
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
        placed = set(self.dealing)
        return next((c for c in deck.cards_of_face[deck.faces[action]] if c not in placed), -1)

    def apply(self, action: int) -> None:
        """Apply a chance outcome (the next card of the deck order) or a player's action."""
        action = int(action)
        if self.chance:
            action = self._copy_left(action)
            if action in self.dealing or not 0 <= action < self.deck:
                raise TrickcoreError(f"{action} is not a card still to deal")
            self.actions.append(action)
            self.dealing.append(action)
            if len(self.dealing) == self.deck:
                self.order_starts.append(len(self.actions) - self.deck)
                self.orders.append(self.dealing)
                self.dealing = []
                self._dealt()
            return
        assert self.match is not None
        trial, old = self._trial(action)  # raises on an illegal action, changing nothing
        self.actions.append(action)
        self._settle(trial, old, action)

    def _trial(self, action: int) -> tuple[Match, Deal | BoutDeal]:
        assert self.match is not None
        trial = self.match.clone()
        trial.deck_orders = list(self.orders)
        old = trial.current
        try:
            trial.apply_id(action)
        except RulesError:
            if trial.stopped is None:
                raise
            # the rules file broke carrying out the action: the match stopped (`stopped`)
            # and the game ends there
        return trial, old

    def _dealt(self) -> None:
        """A deck order is complete: start the match, or take the action that waited."""
        if self.match is None:
            m = self.variant.new_match(deck_orders=self.orders, players=self.seats)
            m.deck_orders = list(self.orders)
            if m.deals_dealt > len(self.orders) and not m.is_over:
                return  # void as dealt: deal again
            self.start = [m.standing(s) for s in range(self.seats)]
            self._accept(m, None)
            return
        assert self.pending is not None
        trial, old = self._trial(self.pending)
        self._settle(trial, old, self.pending)

    def _settle(self, trial: Match, old: Deal | BoutDeal, action: int) -> None:
        done = trial.is_over or (not self.whole_match and trial.deals_played >= 1)
        if not done and trial.deals_dealt > len(self.orders):  # the next deal needs cards
            self.pending = action
            self.shown = self._shown(old, trial)
            return
        self.pending = None
        self.shown = self._shown(old, trial) if done and trial.current is not old else None
        self.terminal = done
        self._accept(trial, old)

    @staticmethod
    def _shown(deal: Deal | BoutDeal, match: Match) -> _Shown:
        kept = tuple(tuple(sorted(k.items())) for k in match.kept)
        return _Shown(deal, tuple(match.scores), kept)

    def _accept(self, match: Match, old: Deal | BoutDeal | None) -> None:
        self.match = match
        if old is not None and match.current is not old:  # the deal is over
            for p in range(self.seats):
                final = attrs.evolve(old.observation(p), scores=tuple(match.scores))
                self._mark(p, final)
                self.past[p].append(self._deal_text(p, final))
                self.marks[p] = []
                self.snaps[p] = None
                self.arrived[p] = {}
                self.entered[p] = []
        if self.terminal and self.shown is not None:
            return
        for p in range(self.seats):
            self._mark(p, match.observation(p))

    def _mark(self, seat: int, obs: Observation | BoutObservation) -> None:
        """Note a change of the seat's private cards, where in the log it happened."""
        snap = private_snapshot(obs)
        if snap != self.snaps[seat]:
            self.snaps[seat] = snap
            self.marks[seat].append((len(obs.log), snapshot_text(snap)))
        arrived = self.arrived[seat]
        at = len(obs.log)
        hand = set(obs.hand)
        for card in hand:
            if card not in arrived:
                arrived[card] = at
                self.entered[seat].append((at, card))
        for card in [c for c in arrived if c not in hand]:
            del arrived[card]

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
            *(a.id for _, a in world.history),
        ]

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

    def _deal_text(self, seat: int, obs: Observation | BoutObservation) -> str:
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
            lines += [f"deal {i + 1}: {t}" for i, t in enumerate(self.past[seat])]
        elif self.match is not None:
            lines += [f"deal {i + 1}: {r}" for i, r in enumerate(self.match.deal_results)]
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
        self._core = _Core(game.variant, game.seats, game.whole_match, game.rules or game._spec)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_state_from, (self.get_game(), self.serialize()))

    def current_player(self) -> int:
        """The player to act, CHANCE while cards are dealt, TERMINAL at the end."""
        return self._core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action numbers of the player to act, ascending."""
        return self._core.legal() if player == self._core.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck order: any card not yet placed, each as likely."""
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Deal the next card, or take a player's action."""
        self._core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """`deal KH` for a chance outcome, else the action's canonical text."""
        variant = self._core.variant
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {variant.card_text(int(action))}"
        return variant.action_text(int(action))

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
        self.tensor.fill(0)
        core = state._core
        obs = core.view(player if self.private else -1)
        if obs is None:
            return
        self.encoder.encode(obs, self.dict)
        if self.perfect_recall:
            arrived = core.arrived[player] if self.private else {}
            self.encoder.encode_history(obs.log, arrived, self.dict)

    def string_from(self, state: TrickcoreState, player: int) -> str:
        """What `player` knows in `state`, as text."""
        core = state._core
        if self.perfect_recall:
            return core.information_text(player, self.private)
        return core.observation_text(player, self.private)
