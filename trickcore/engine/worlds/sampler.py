"""The public sampler: `sample_worlds` and `WorldSampler`, which tie the steps together
(what the seat knows, the reference world, the model of the worlds, the draws)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ...language.errors import TrickcoreError
from ..bouts import BoutDeal
from ..deal import Deal
from ..observation import BoutObservation, Observation
from ..phases.passing import pass_moves
from ..state import DealState
from .constraints import ModelBuilder
from .errors import WorldsError
from .hand_probes import fits_with, legal_with
from .knowledge import SeatKnowledge
from .public_reads import asked_by_hidden
from .reference import ReferenceSearch
from .relabelling import Relabeller
from .replaying import LogReplay
from .step_repairs import StepRepairs

if TYPE_CHECKING:
    from ..tables import GameTables

_TRIES = 200  # draws per world wanted before the sampling gives up
_QUICK_TRIES = 4  # replays from a start that get no further before it is left


def sample_worlds(
    game: GameTables,
    observation: Observation | BoutObservation,
    n: int,
    rng: random.Random | int | None = None,
    deal_number: int | None = None,
) -> list[Deal | BoutDeal]:
    """`n` complete deals that agree with everything `observation`'s seat has seen (see the
    package docstring for the method). `rng`: a random.Random or a seed. `deal_number`: the
    deal's number in its match (by default the observation's `deal_number`)."""
    if type(n) is not int or n < 0:
        raise TrickcoreError(f"the number of worlds is a whole number >= 0, not {n!r}")
    r = rng if isinstance(rng, random.Random) else random.Random(rng)
    return WorldSampler(game, observation, r, deal_number).sample(n)


def repaired_worlds(
    game: GameTables,
    observation: Observation | BoutObservation,
    starts: Sequence[DealState],
    rng: random.Random,
    tries: int = _QUICK_TRIES,
    deadline: float | None = None,
) -> list[Deal | BoutDeal]:
    """Worlds that agree with everything `observation`'s seat has seen, each found from one
    of the worlds `starts` of an earlier view of the same deal (its deck order, and the
    cards its hidden steps took) by
    replaying the log and repairing each step that fails with a card swap, giving up a
    start after `tries` replays that get no further (it gives no world then; none either
    when the deal's number is not in the observation). Cheap, as no model of the worlds is made,
    but not uniform: each world stays close to its start. With a `deadline` (a
    `time.perf_counter()` value) the starts not reached by then give none."""
    number = getattr(observation, "deal_number", None)
    if not isinstance(number, int) or not starts:
        return []
    size = game.model.deck.size
    try:
        known = SeatKnowledge(game, observation)
        replay = LogReplay(known, rng, deadline)
        replay.context = replay.context_of(number)
    except TrickcoreError:
        return []
    known.fixed = set(known.fixed) | known.shown_now
    search = ReferenceSearch(replay, StepRepairs(replay), ModelBuilder(replay), None)
    out: list[Deal | BoutDeal] = []
    for start in starts:
        order = list(start.deck_order)
        if sorted(order) != list(range(size)):
            continue
        search.start = order
        history = start.history
        picks = {k: history[k][1].card for k in known.hidden_steps if k < len(history)}
        try:
            found = search.find(quick=tries, picks=picks)
        except TrickcoreError:  # the deadline passed (or a start the rules refuse)
            if deadline is not None and time.perf_counter() > deadline:
                break
            continue
        if found is not None:
            out.append(found[0])
    return out


class WorldSampler:
    """The worlds of one observation: reference world, slots and counting table, made once;
    `sample(n)` then draws worlds."""

    def __init__(
        self,
        game: GameTables,
        observation: Observation | BoutObservation,
        rng: random.Random,
        deal_number: int | None = None,
        deadline: float | None = None,
        start: list[int] | None = None,
    ) -> None:
        _check_supported(game)
        self.game = game
        self.obs = observation
        self.rng = rng
        # `time.perf_counter()` after which the work stops (WorldsError): a search bot's cap
        self.deadline = deadline
        # a deck order to build the reference world from first (a world of an earlier
        # view of the same deal: a few repairs away); only the start of the search
        size = game.model.deck.size
        self.start = (
            list(start) if start is not None and sorted(start) == list(range(size)) else None
        )
        known = self.known = SeatKnowledge(game, observation)
        self.seat = known.seat
        self.seats = known.seats
        self.log = known.log
        replay = self.replay = LogReplay(known, rng, deadline)
        builder = ModelBuilder(replay)
        search = ReferenceSearch(replay, StepRepairs(replay), builder, self.start)
        numbers: Iterable[int] = (
            (deal_number,)
            if deal_number is not None
            else (self.obs.deal_number,)
            if isinstance(getattr(self.obs, "deal_number", None), int)
            else replay.likely_numbers()
        )
        ref = None
        base = set(known.fixed)
        for number in numbers:
            replay.context = replay.context_of(number)
            # first with the turned-up card seen now taken as dealt there, then without
            # (it may have been exchanged during the deal)
            for shown in (True, False):
                known.fixed = base | (known.shown_now if shown else set())
                ref = search.find()
                if ref is not None or not known.shown_now:
                    break
            if ref is not None:
                break
        if ref is None:
            raise WorldsError(
                f"no deal of {game.name} matches this observation of seat {self.seat} "
                "(is it from another variant, or another deal number?)"
            )
        self.ref, self.picks = ref
        model = builder.build(self.ref, len(self.log))
        assert model is not None
        self.model = model
        model.index_cards()
        self.relabeller = Relabeller(self.ref, model.unseen, game)
        # cards a rule lays face up card by card (`open_hand_if` reading a card's names, or
        # its combinations): renaming unseen cards may lay others face up, so each world
        # drawn so is checked against the cards the view shows
        tricks = game.model.tricks
        self.open_now = observation.open_hands if isinstance(observation, Observation) else None
        self.open_by_card = (
            tricks is not None and tricks.play.open_cards and self.open_now is not None
        )
        # who acts first in the deal, where a rule reads the hands as dealt (a game of
        # bouts' `first_attacker = EXPR`, trick play's `first_leader = EXPR` when play
        # begins the deal): no step before it was probed, and renaming unseen cards may
        # give the first action to another player, so each world drawn so is checked
        # against the reference world's (exact rejection: the rest stay uniform)
        bouts = game.model.bouts
        by_hands = (bouts is not None and bouts.first_attacker is not None) or (
            tricks is not None and tricks.play.first_leader_rule is not None
        )
        self.first_actor: int | None = None
        if by_hands:  # (a deal that begins otherwise: a probe of the step before covers it)
            fresh = replay.new_deal(list(self.ref.deck_order))
            if bouts is not None or fresh.phase == "play":
                self.first_actor = fresh.to_act

        # a rule over the hand that refuses some cards a player passes (`pass_cards.pass_if`):
        # renaming unseen cards may give a player a hand from which a card he passed unseen
        # was not allowed, so each world drawn so is replayed from its deck order, those
        # cards chosen again among the allowed ones (`_passed_again`)
        # and so, where a rule over the hand refuses some cards a player lays away unseen
        # (`lay_away_if` of the talon or the pickup: French Tarot's taker, who may lay away
        # a trump only when he has nothing else to lay away)
        self.hidden_rules = tricks is not None and (
            (tricks.pass_cards is not None and tricks.pass_cards.pass_if is not None)
            or tricks.talon.lay_away_if is not None
            or (tricks.pickup is not None and tricks.pickup.lay_away_if is not None)
        )
        # decisions asked of every player between phases whose offer reads what the seat
        # cannot see (`asked_by_hidden`): a player passed over leaves no action to probe,
        # and renaming unseen cards may have him asked (Euchre's farmer's hand, offered to
        # a hand of five 9s and 10s), so each world drawn so is replayed from its deck
        # order (exact rejection)
        self.asked_by_hand = asked_by_hidden(game.model)

    @property
    def count(self) -> int:
        """How many assignments of cards to slots there are (worlds up to the order of the
        cards within a slot)."""
        return self.model.total

    def sample(self, n: int, deadline: float | None = None) -> list[Deal | BoutDeal]:
        """`n` worlds drawn independently and uniformly (see the package docstring). With a
        `deadline` (a `time.perf_counter()` value) fewer once it has passed (one draw is
        always tried; a WorldsError when not even one world was found in time)."""
        out: list[Deal | BoutDeal] = []
        tries = 0
        while len(out) < n:
            if tries and deadline is not None and time.perf_counter() > deadline:
                if out:
                    break
                raise WorldsError("no hidden world found in the time allowed")
            tries += 1
            if tries > _TRIES * (n + 1):
                raise WorldsError(
                    f"found only {len(out)} of {n} worlds: the constraints reject almost every draw"
                )
            world = self._one()
            if world is not None:
                out.append(world)
        return out

    def _one(self) -> Deal | BoutDeal | None:
        """One draw: a world, or None when the draw is rejected."""
        m = self.model
        slots = m.draw(self.rng)
        if m.whole and not m.whole_ok(slots, fits_with, legal_with):
            return None
        cards = m.cards
        slot_of = m.slot_of_card
        if all(slots[i] == slot_of[cards[i]] for i in m.seen_index):
            # the seen cards stay: the unseen ones are renamed in a copy of the reference
            # world (what the seat sees does not change)
            new: list[list[int]] = [[] for _ in m.slot_positions]
            for i in m.unseen_index:
                new[slots[i]].append(cards[i])
            relabel: dict[int, int] = {}
            shuffle = self.rng.shuffle
            for s, old in enumerate(m.unseen_by_slot):
                if old:
                    got = new[s]
                    shuffle(got)
                    relabel.update(zip(old, got))
            world = self.relabeller(relabel)
            if self.open_by_card and world.observation(self.seat).open_hands != self.open_now:
                return None
            if (
                self.first_actor is not None
                and self.replay.new_deal(list(world.deck_order)).to_act != self.first_actor
            ):
                return None
            if self.hidden_rules:  # the unseen passes chosen again, among those allowed
                return self._passed_again(world)
            if self.asked_by_hand:
                return self._replayed(world)
            return world
        ref = self.ref
        order = ref.deck_order
        new_order = m.new_order(slots, self.rng)
        picks = {k: new_order[order.index(c)] for k, c in self.picks.items()}
        world, fail = self.replay.replay(new_order, picks, choose=False)
        if fail is not None or self.replay.view(world) != self.obs:
            return None
        return world

    def _replayed(self, world: Deal | BoutDeal) -> Deal | BoutDeal | None:
        """A renamed world whose log replays from its deck order, its unseen steps as they
        are, to the seat's view; None when it does not (a player would have been asked
        something he was not)."""
        hidden = self.known.hidden_steps
        picks = {k: action.card for k, (_, action) in enumerate(world.history) if k in hidden}
        again, fail = self.replay.replay(list(world.deck_order), picks, choose=False)
        if fail is not None or self.replay.view(again) != self.obs:
            return None
        return world

    def _passed_again(self, world: Deal | BoutDeal) -> Deal | BoutDeal | None:
        """A renamed world's log replayed from its deck order with the cards passed or laid
        away unseen by the seat chosen again among those its rules allow (those passed to
        the seat stay); None when it does not give the seat's view. The hands as dealt are
        the draw's; the unseen passes fit them."""
        assert isinstance(world, Deal)  # (`pass_if` is a trick game's)
        hidden = self.known.hidden_steps
        to_seat = {
            c
            for _, taker, cards in pass_moves(world.passed, world.passed_back)
            if taker == self.seat
            for c in cards
        }
        picks = {
            k: action.card
            for k, (_, action) in enumerate(world.history)
            if k in hidden and action.card in to_seat
        }
        again, fail = self.replay.replay(list(world.deck_order), picks, choose=True)
        if fail is not None or self.replay.view(again) != self.obs:
            return None
        return again


def _check_supported(game: GameTables) -> None:
    """Copies of cards are sampled where every card is dealt to a hand (a double deck dealt
    out whole); beside a talon, a stock, a turned-up card or cards left out, and in games
    of bouts, the copies a seat saw are not yet labelled: a clear error, never a wrong
    world."""
    if not game.copies:
        return
    model = game.model
    places = sorted({p.to for p in model.deal.pattern} & {"talon", "stock", "turnup", "out"})
    if model.bouts is not None or places:
        where = "in a game of bouts" if model.bouts is not None else "beside " + ", ".join(places)
        raise WorldsError(
            f"{game.name}: hidden worlds are not yet drawn for copies of cards {where} "
            "(deck { copies: N }); search bots cannot play this file"
        )
