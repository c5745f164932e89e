"""The reference world: one deal consistent with the seat's observation, found by
replaying its log from a first deck order and repairing each step that fails (see the
package's docstring, step 1)."""

from __future__ import annotations

from collections import Counter

import attrs

from ..bouts import BoutDeal
from ..deal import Deal
from ..observation import BoutObservation, Observation
from .constraints import ModelBuilder
from .places import sightings, talon_led, trump_card
from .replaying import LogReplay
from .slot_model import SlotModel
from .step_repairs import StepRepairs, change, swap

_REPAIRS = 400  # replays tried when building the reference world
_START_TRIES = 8  # replays from a given start before a fresh first order is tried


class ReferenceSearch:
    """The search for a reference world: a first order (or the `start` given), replayed and
    repaired until the seat's view matches."""

    def __init__(
        self,
        replay: LogReplay,
        repairs: StepRepairs,
        builder: ModelBuilder,
        start: list[int] | None,
    ) -> None:
        self.replay = replay
        self.repairs = repairs
        self.builder = builder
        self.known = replay.known
        self.game = replay.game
        self.obs = replay.obs
        self.seat = replay.seat
        self.seats = replay.seats
        self.log = replay.log
        self.rng = replay.rng
        # a deck order to build the reference world from first (a world of an earlier
        # view of the same deal: a few repairs away); only the start of the search
        self.start = start
        # a choice in the log named the trump suit (Wizard's dealer after a Wizard turned
        # up): the trump shown now tells nothing of the card turned up
        tricks = self.game.model.tricks
        naming = {
            option
            for d in (tricks.decisions if tricks is not None else ())
            for option, trump in zip(d.options, d.option_trumps, strict=True)
            if trump != -1
        }
        self.trump_named = any(text in naming for _, text in self.log)

    def first_order(self) -> list[int]:
        """A shuffled deck order with the seat's likely first cards in its hand."""
        rng = self.rng
        game = self.game
        size = game.model.deck.size
        obs = self.obs
        order_of_play = game.model.deal.players_in_deal(obs.dealer, self.seats)
        places = game.deal_places(order_of_play, self.replay.context[order_of_play[0]])
        mine = [p for p, place in enumerate(places) if place == self.seat]
        first = list(self.known.dealt_own())
        rng.shuffle(first)
        if self.known.draws.get(0):  # the cards it was dealt, known
            first = list(self.known.draws[0])
            rng.shuffle(first)
        first = first[: len(mine)]
        order = [-1] * size
        for p, c in zip(mine, first, strict=False):
            order[p] = c
        if isinstance(obs, Observation):
            # the cards seen leaving another player's hand dealt to him, as many as his
            # hand takes (the others came to him later: a talon, a card given); the
            # repairs below then start close to a consistent world
            placed = set(first)
            room: dict[int, list[int]] = {
                q: [p for p, place in enumerate(places) if place == q]
                for q in range(self.seats)
                if q != self.seat
            }
            for c, q in self.known.known_givers(obs, order_of_play):
                free = room.get(q)
                if free and c not in placed:
                    order[free.pop()] = c
                    placed.add(c)
        taken = set(order)
        rest = [c for c in range(size) if c not in taken]
        rng.shuffle(rest)
        it = iter(rest)
        order = [c if c >= 0 else next(it) for c in order]
        # cards shown from the start (a turned-up card, the trump card, a talon shown later)
        deal = self.replay.new_deal(order)
        first_view = sightings(deal.observation(self.seat))
        final_view = sightings(obs)
        for key in ("turnup", "turned_up", "trump_card"):
            want, have = final_view.get(key, ()), first_view.get(key, ())
            if want and have and want != have and self.known.card(want[0]) in self.known.fixed:
                swap(order, {}, self.known.card(want[0]), self.known.card(have[0]))
        # a trump suit set by the turned card from the start is the one shown now (if the
        # turned card was exchanged, another card of that suit lay there)
        deal = self.replay.new_deal(order)
        turned = trump_card(deal)
        suits = self.game.model.deck.suits
        if (
            turned >= 0
            and not self.trump_named
            and obs.trump is not None
            and suits[deal.trump].name != obs.trump
        ):
            trumps = [
                c
                for c in range(size)
                if suits[self.game.suit_of[c]].name == obs.trump and c not in self.known.fixed
            ]
            trumps = [c for c in trumps if c in self.known.unseen] or trumps
            if trumps:
                swap(order, {}, rng.choice(trumps), turned)
        if isinstance(obs, Observation):  # a talon seen (shown, or taken by the seat)
            for i, t in enumerate(obs.talon_shown or obs.talon_taken or talon_led(obs)):
                if not isinstance(deal, Deal) or i >= len(deal.talon):
                    break
                swap(order, {}, self.known.card(t), order[order.index(deal.talon[i])])
                deal = self.replay.new_deal(order)
            if self.known.stock_shown:
                self.stock_as_seen(order)
                deal = self.replay.new_deal(order)
            for s, cards in self.known.open_cards.items():  # a hand shown to all was dealt so
                shown = set(cards)
                for c in cards:
                    spare = [x for x in deal.hands[s] if x not in shown]
                    if c not in deal.hands[s] and spare:
                        swap(order, {}, c, rng.choice(spare))
                        deal = self.replay.new_deal(order)
        return order

    def stock_as_seen(self, order: list[int]) -> None:
        """Put the cards the seat saw face up on the stock (`stock_top: shown`) where they
        lay in it as dealt."""
        if not self.known.stock_shown:
            return
        deal = self.replay.new_deal(order)
        if not isinstance(deal, Deal):
            return
        at = [order.index(c) for c in deal.stock]  # the deck position of each stock card
        for k, c in self.known.stock_shown:
            if k < len(at):
                swap(order, {}, c, order[at[k]])

    def find(
        self, quick: int = 0, picks: dict[int, int] | None = None
    ) -> tuple[Deal | BoutDeal, dict[int, int]] | None:
        """A consistent world found by replaying and repairing (None: none found).

        Where the replay fails at a step, the worlds that agree with the steps before it and
        make that step possible are counted (as for sampling) and one is drawn; when that is
        not possible, two cards are swapped (the swap whose replay gets furthest).

        `quick` (with a start): each failing step repaired by the first swap, in a random
        order, whose replay gets past it (no model of the steps before, no fresh first
        order, not every swap replayed), giving up after this many replays that get no
        further than the one before: a world a few cheap repairs away from the start, or
        None. `picks`: the cards the start's hidden steps took (by step)."""
        order = self.start if self.start is not None else self.first_order()
        if self.start is not None and self.known.stock_shown:
            order = order[:]
            self.stock_as_seen(order)
        picks = dict(picks) if picks is not None and self.start is not None else {}
        flows = 0
        last: tuple[str, int] | None = None
        reach = -1  # the furthest step a replay got to: cheap repairs while it grows
        stalls = 0  # quick: replays that got no further
        for attempt in range(_REPAIRS):
            self.replay.check_time()
            if quick and stalls >= quick:
                return None
            # in a trick game a start that does not lead to a world in a few repairs is
            # left for a fresh first order, which places the cards the seat saw leave each
            # hand (what it saw since the start may lie far from it); in a game of bouts
            # the first order places only the seat's own cards, and the start is kept
            leave = (
                not quick
                and attempt == _START_TRIES
                and self.start
                and isinstance(self.obs, Observation)
            )
            if attempt and (attempt % 100 == 0 or leave):
                if quick:
                    return None
                order = self.first_order()
                picks = {}
            deal, fail = self.replay.replay(order, picks, choose=True)
            if fail is None:
                view = self.replay.view(deal)
                if view == self.obs:
                    return deal, picks
                stalls += 1
                swaps = self.repairs.view_repairs(view, deal)
                if not swaps and (view.phase, view.to_act) != (self.obs.phase, self.obs.to_act):
                    fail = ("flow", len(self.log))  # the last action went on another way
                elif not swaps and _values_differ(view, self.obs):
                    # values the rules worked out from the hands (said aloud: an announcement)
                    # differ: the swap of two unseen cards that comes closest is made
                    pairs: list[tuple[tuple[int, int], ...]] = [
                        (pair,)
                        for pair in self.repairs.unseen_swaps(
                            deal, 24, _shown_extra(view, self.obs, deal)
                        )
                    ]
                    if not pairs:
                        return None
                    swaps = list(self._best(order, picks, pairs))
                elif not swaps:
                    return None  # the same cards, another shape: not this deal
            if fail is not None and fail[0] == "draw":  # the cards the seat remembers drawing
                swaps = self.replay.draw_fix
                fail = None
            if fail is not None:
                kind, k = fail
                drawn_again = last == (kind, k)  # a drawn world failed where the last did
                last = None
                progress, reach = k > reach, max(reach, k)
                stuck = drawn_again
                if quick:
                    stuck = not progress
                    stalls += not progress
                elif not progress and not drawn_again and (kind == "illegal" or k > 0):
                    upto = k if kind == "illegal" else k - 1
                    model = self.builder.build(deal, upto, kind)
                    drawn = None if model is None else model.greedy(self.rng)
                    if model is not None and drawn is not None:
                        order, picks = self._drawn_order(model, drawn, order, picks, upto)
                        last = (kind, k)
                        continue
                    stuck = True
                pick = picks.get(k, -1)
                options = {
                    tuple(self.repairs.for_step(deal, k, kind == "flow", pick)) for _ in range(6)
                }
                options.update(self.repairs.pick_changes(deal, k, picks))
                if stuck or k == 0:  # the cause may lie in a heap (a turned-up card, a talon)
                    options.update(self.repairs.heap_swaps(deal))
                options.discard(())
                if not options:
                    if quick:
                        return None
                    flows += 1
                    if flows > 20:
                        return None
                    order = self.first_order()
                    picks = {}
                    continue
                if quick:  # the first repair (in a random order) that gets further
                    swaps = list(self._further(order, picks, sorted(options), k))
                else:
                    swaps = list(self._best(order, picks, sorted(options)))
            for x, y in swaps:
                change(order, picks, x, y)
        return None

    def _drawn_order(
        self, model: SlotModel, slots: list[int], order: list[int], picks: dict[int, int], upto: int
    ) -> tuple[list[int], dict[int, int]]:
        """The deck order (and hidden picks) of an assignment in a model of the first steps."""
        new_order = model.new_order(slots, self.rng)
        new_picks = {k: new_order[order.index(c)] for k, c in picks.items() if k < upto}
        return new_order, new_picks

    def _best(
        self, order: list[int], picks: dict[int, int], options: list[tuple[tuple[int, int], ...]]
    ) -> tuple[tuple[int, int], ...]:
        """The repair whose replay gets furthest (ties: at random)."""
        best: list[tuple[tuple[int, int], ...]] = []
        reach = -2.0
        for swaps in options:
            tried = self._swapped(order, picks, swaps)
            if tried is None:
                if reach < -1.0:
                    best, reach = [swaps], -1.0
                elif reach == -1.0:
                    best.append(swaps)
                continue
            world, fail = self.replay.replay(*tried, choose=True)
            got = float(fail[1]) if fail is not None else len(self.log) + self._closeness(world)
            if got > reach:
                best, reach = [swaps], got
            elif got == reach:
                best.append(swaps)
        return self.rng.choice(best)

    def _further(
        self,
        order: list[int],
        picks: dict[int, int],
        options: list[tuple[tuple[int, int], ...]],
        k: int,
    ) -> tuple[tuple[int, int], ...]:
        """The first repair, in a random order, whose replay gets past step k (or that
        leaves a world whose view only is to be repaired); else the one that gets furthest
        (ties: the first)."""
        self.rng.shuffle(options)
        best, reach = options[0], -2
        for swaps in options:
            tried = self._swapped(order, picks, swaps)
            if tried is None:
                continue
            _, fail = self.replay.replay(*tried, choose=True)
            got = fail[1] if fail is not None else len(self.log)
            if got > k:
                return swaps
            if got > reach:
                best, reach = swaps, got
        return best

    def _swapped(
        self, order: list[int], picks: dict[int, int], swaps: tuple[tuple[int, int], ...]
    ) -> tuple[list[int], dict[int, int]] | None:
        """Copies of the deck order and the hidden picks with these swaps made; None when
        they move the trump the seat saw."""
        self.replay.check_time()
        o, p = list(order), dict(picks)
        for x, y in swaps:
            change(o, p, x, y)
        return (o, p) if self._trump_kept(o) else None

    def _closeness(self, world: Deal | BoutDeal) -> float:
        """1 for a world whose view is the observation; else below 1, the closer the more
        of its deal values (`deal { keep }`) and of the cards laid face up by a rule
        (`open_hand_if`) agree with the observation's."""
        view = self.replay.view(world)
        if view == self.obs:
            return 1.0
        if not isinstance(view, Observation) or not isinstance(self.obs, Observation):
            return 0.0
        parts = []
        wanted = set(self.obs.deal_keep)
        if wanted:
            parts.append(len(wanted & set(view.deal_keep)) / len(wanted))
        if self.obs.open_hands or view.open_hands:
            shown, seen = _face_up(self.obs), _face_up(view)
            parts.append(sum((shown & seen).values()) / max(1, sum((shown | seen).values())))
        return 0.5 * sum(parts) / len(parts) if parts else 0.0

    def _trump_kept(self, order: list[int]) -> bool:
        """False when the card dealt face up sets a trump suit other than the one shown."""
        trump = self.obs.trump
        if trump is None or self.trump_named:
            return True
        deal = self.replay.new_deal(order)
        if trump_card(deal) < 0:
            return True
        return bool(self.game.model.deck.suits[deal.trump].name == trump)


def _values_differ(view: Observation | BoutObservation, obs: Observation | BoutObservation) -> bool:
    """Whether two views of a deal differ only in what the rules worked out from the hands:
    its deal values (`deal { keep }`: a holding said aloud) or the cards a rule lays face up
    (`open_hand_if`: the combinations held)."""
    if not isinstance(view, Observation) or not isinstance(obs, Observation):
        return False
    same = attrs.evolve(view, deal_keep=obs.deal_keep, open_hands=obs.open_hands)
    return (view.deal_keep, view.open_hands) != (obs.deal_keep, obs.open_hands) and same == obs


def _shown_extra(
    view: Observation | BoutObservation, obs: Observation | BoutObservation, deal: Deal | BoutDeal
) -> frozenset[int]:
    """The cards a world lays face up (`open_hand_if`) that the observation does not show:
    those to move first."""
    if not isinstance(view, Observation) or not isinstance(obs, Observation):
        return frozenset()
    texts = deal.game.card_texts
    extra = _face_up(view) - _face_up(obs)
    return frozenset(c for s, t in extra for c in deal.hands[s] if texts[c] == t)


def _face_up(view: Observation) -> Counter[tuple[int, str]]:
    """The cards other hands show (`open_hand_if`), as (player, card text), counted."""
    return Counter((s, t) for s, cards in view.open_hands for t in cards)
