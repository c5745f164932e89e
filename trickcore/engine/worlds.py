"""Hidden worlds consistent with what one seat knows (`Variant.sample_worlds`).

A *world* is a complete deal: the deck order and the card of every action the seat saw only
as "give a card to N", "pass a card" or "discard a card". It is *consistent* with an
observation when replaying the seat's log in it is legal at every step and the seat's view
at the end is the observation, log included. Nothing here knows any game: every constraint
comes from the engine's own legality, probed on the public situation at each past action.

Method
------
1. **A reference world.** The log is replayed in a deal with a shuffled deck (the seat's
   own cards, a shown talon and a turned-up card placed first, then the cards it saw
   leave another hand, received from it or played, dealt to that hand as far as it takes
   them; a hidden action takes first a card the log shows its receiver play later). Where
   a step fails (a card not in the hand it is played from, an obligation that forbids the
   action, a meld or holding not held, another player to act than the log says) the
   worlds that agree with the steps before are modelled as below and one assignment is
   drawn that also makes the failing step possible; while the replay gets further each
   time, cheaper repairs are tried first (one or two cards swapped, cards the seat has not
   seen first; a hidden action given the card a later step needs or the card that forbids
   it; the swap whose replay gets furthest). The seat's final view is compared last and
   repaired the same way. The attempts are bounded: when none fits, a WorldsError says so.
2. **Slots.** A card is *fixed* where the seat saw it lie (a shown or taken talon, a
   turned-up card, an open hand), *seen* (its own cards, and cards it saw others play: they
   must be in the hand they left, at that step) or *unseen*. The deck positions of the
   cards not fixed are grouped into slots: positions whose cards go the same way in the
   reference world (dealt to one hand, drawn from the stock at one moment by one player,
   left in the talon...). An unseen card that a hidden action moved keeps its whole way
   (its slot is that way).
3. **Constraints by probing.** At every past action, for every hand whose cards differ
   between worlds, the engine is asked again with one card added to that hand or taken out
   of it: would the action have been legal, would the deal have gone on the same way (the
   same phase and player to act), and would the next logged actions up to that hand's next
   one still be legal (applying an action may work out what a later one reads, like a bid
   cap)? A card that breaks this cannot have been there then (a void, a trump not played
   when it had to be, a rank not thrown in); a card whose absence breaks it had to be there
   (a declared meld). Where any of several cards would do (a bid that needs *some* meld),
   the step is checked whole for each world (exact rejection).
4. **Exact uniform sampling.** Slots every card may take alike form groups; cards allowed
   in the same groups form rows. The assignments of cards to groups (every group filled to
   its size) are counted exactly by dynamic programming over the groups' sizes left, row by
   row (a multinomial for how a row spreads over its groups); a draw walks the table with
   the counts as weights, so every assignment is equally likely, then splits each group's
   cards among its slots and orders the unseen ones within their slot uniformly.
5. **Building a world.** When every seen card stays in its reference slot, the world is a
   copy of the reference deal with its unseen cards renamed (fast: the seat's view cannot
   change); otherwise the log is replayed from the new deck order and the view compared
   (exact rejection).

So the worlds are uniform over the consistent deals, but for: a card the seat saw that
later moved unseen (a shown talon card the declarer may have given away, a turned-down
card, a seen card first moved by a hidden action) keeps the reference world's way, and a
seen card staying in its slot keeps its reference position there.
"""

from __future__ import annotations

import bisect
import math
import random
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import attrs

from ..language.errors import StuckError, TrickcoreError
from .actions import Action
from .bouts import BoutDeal
from .deal import Deal
from .observation import BoutObservation, Observation
from .phases.passing import seat_on

if TYPE_CHECKING:
    from .game import Game

HIDDEN_FORMS = ("give a card to ", "pass a card", "discard a card")
_REPAIRS = 400  # replays tried when building the reference world
_MAX_STATES = 400_000  # entries of the counting table before giving up on exact counting
_TRIES = 200  # draws per world wanted before the sampling gives up
_START_TRIES = 8  # replays from a given start before a fresh first order is tried


class WorldsError(TrickcoreError):
    """The observation cannot be matched by any deal of this variant (or none was found)."""


def sample_worlds(
    game: Game,
    observation: Observation | BoutObservation,
    n: int,
    rng: random.Random | int | None = None,
    deal_number: int | None = None,
) -> list[Deal | BoutDeal]:
    """`n` complete deals that agree with everything `observation`'s seat has seen (see the
    module docstring for the method). `rng`: a random.Random or a seed. `deal_number`: the
    deal's number in its match (by default the observation's `deal_number`)."""
    if type(n) is not int or n < 0:
        raise TrickcoreError(f"the number of worlds is a whole number >= 0, not {n!r}")
    r = rng if isinstance(rng, random.Random) else random.Random(rng)
    return WorldSampler(game, observation, r, deal_number).sample(n)


class WorldSampler:
    """The worlds of one observation: reference world, slots and counting table, made once;
    `sample(n)` then draws worlds."""

    def __init__(
        self,
        game: Game,
        observation: Observation | BoutObservation,
        rng: random.Random,
        deal_number: int | None = None,
        deadline: float | None = None,
        start: list[int] | None = None,
    ) -> None:
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
        self.fixed: set[int] = set()
        self.context: list[dict[str, Any]] = []
        self.draw_fix: list[tuple[int, int]] = []  # swaps bringing in the cards it drew
        self._check_input()
        self.seat = observation.seat
        self.seats = len(observation.hand_sizes)
        self.log = observation.log
        self._collect_cards()
        numbers: Iterable[int] = (
            (deal_number,)
            if deal_number is not None
            else (self.obs.deal_number,)
            if isinstance(getattr(self.obs, "deal_number", None), int)
            else self._likely_numbers()
        )
        ref = None
        base = set(self.fixed)
        for number in numbers:
            self.context = self._context(number)
            # first with the turned-up card seen now taken as dealt there, then without
            # (it may have been exchanged during the deal)
            for shown in (True, False):
                self.fixed = base | (self.shown_now if shown else set())
                ref = self._reference()
                if ref is not None or not self.shown_now:
                    break
            if ref is not None:
                break
        if ref is None:
            raise WorldsError(
                f"no deal of {game.name} matches this observation of seat {self.seat} "
                "(is it from another variant, or another deal number?)"
            )
        self.ref, self.picks = ref
        model = self._model(self.ref, len(self.log))
        assert model is not None
        self.model = model
        model.index_cards()
        self.relabeller = _Relabeller(self.ref, model.unseen, game)

    def _check_time(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise WorldsError("no hidden world found in the time allowed")

    # ------------------------------------------------------------ input
    def _check_input(self) -> None:
        obs, game = self.obs, self.game
        bouts = game.model.bouts is not None
        kind = BoutObservation if bouts else Observation
        if not isinstance(obs, (Observation, BoutObservation)):
            raise TrickcoreError(f"sample_worlds takes a seat's observation, not {type(obs)}")
        if not isinstance(obs, kind):
            raise WorldsError(
                f"this observation is from a game of {'tricks' if bouts else 'bouts'}, "
                f"not of {game.name}"
            )
        if obs.seat < 0:
            raise WorldsError(
                "the public view (seat -1) has no seat to sample worlds for; "
                "pass observation(seat) of one player"
            )
        seats = len(obs.hand_sizes)
        if seats not in game.model.players or obs.seat >= seats:
            raise WorldsError(f"this observation has {seats} seats; {game.name} has not")

    def _card(self, text: str) -> int:
        c = self.game._card_by_text.get(text, -1)
        if c < 0:
            raise WorldsError(f"'{text}' is not a card of {self.game.name}")
        return c

    def _collect_cards(self) -> None:
        """Which cards the seat saw where: fixed (seen in a place: a shown talon, a turned
        card, an open hand), its own (held, played, given or received: they go where its
        hand went), seen played by others, or unseen."""
        obs, seat = self.obs, self.seat
        fixed: set[int] = set()
        texts: list[str] = []
        own_texts: list[str] = [*obs.hand]
        if isinstance(obs, Observation):
            texts += [*(obs.talon_shown or ()), *obs.talon_taken]
            texts += [*obs.laid_away, *obs.set_aside]
            texts += [c for _, cs in obs.open_hands for c in cs]
            own_texts += [*obs.received, *(c for _, cs in obs.given for c in cs)]
        # a turned-up card shown now may have come there later (exchanged): tried first as
        # dealt there, else it is fixed where the reference world has it (see `_model`)
        shown = [_turned(obs)]
        self.shown_now = {self._card(t) for t in shown if t is not None}
        fixed.update(self._card(t) for t in texts)
        own = {self._card(t) for t in own_texts}
        # every card played in the log: card -> (step, player), the first time
        self.played_at: dict[int, tuple[int, int]] = {}
        self.hidden_steps: set[int] = set()
        self.own_actions: set[int] = set()
        parse = self.game.actions.parse
        for k, (s, text) in enumerate(self.log):
            if text.startswith(HIDDEN_FORMS):
                self.hidden_steps.add(k)
                continue
            a = parse(text)
            if a is None:
                raise WorldsError(f"'{text}' (step {k + 1} of the log) is no action of this game")
            cards = [a.card] if a.card >= 0 else list(a.cards)
            for c in cards:
                self.played_at.setdefault(c, (k, s))
                if s == seat:
                    own.add(c)
                    self.own_actions.add(c)
        self.fixed = fixed
        self.own = own - fixed
        # a card first played by another player (one the seat played first is its own)
        self.seen_played = {
            c: k for c, (k, _) in self.played_at.items() if c not in fixed and c not in own
        }
        size = self.game.model.deck.size
        self.unseen = {
            c for c in range(size) if c not in fixed and c not in own and c not in self.played_at
        }
        # games of bouts: when each card the seat was dealt or drew came to it
        self.draws: dict[int, set[int]] = {}
        if isinstance(obs, BoutObservation):
            for k, t in obs.drawn:
                self.draws.setdefault(k, set()).add(self._card(t))

    def _likely_numbers(self) -> list[int]:
        """The deal numbers (1 to 16) whose deal could give this observation, judged by what
        the seat sees from the start: the passing direction and its hand's size."""
        obs = self.obs
        out = []
        own_cards = sum(
            1 for k, (s, _) in enumerate(self.log) if s == self.seat and k not in self.hidden_steps
        )
        estimate = len(obs.hand) + own_cards
        if isinstance(obs, Observation):
            estimate -= len(obs.received) + len(obs.talon_taken)
        for number in range(1, 17):
            self.context = self._context(number)
            try:
                deal = self._new_deal(list(range(self.game.model.deck.size)))
            except TrickcoreError:
                continue
            first = deal.observation(self.seat)
            if isinstance(obs, Observation) and isinstance(first, Observation):
                if obs.pass_to != first.pass_to and any(k in self.hidden_steps for k in range(1)):
                    continue
                if first.pass_to != obs.pass_to and obs.pass_to:
                    continue
            if len(first.hand) > max(estimate, len(obs.hand)) and not first.stock_size:
                continue
            out.append(number)
        return out or [1]

    def _context(self, number: int) -> list[dict[str, Any]]:
        obs = self.obs
        kept = [dict(k) for k in obs.kept] if obs.kept else None
        scores = list(obs.scores) if obs.scores else None
        return self.game.match_context(self.seats, number, scores, kept)

    # ------------------------------------------------------------ replaying
    def _new_deal(self, order: list[int]) -> Deal | BoutDeal:
        ctx = [dict(c) for c in self.context]
        return self.game.make_deal(order, self.obs.dealer, self.seats, ctx)

    def _seen(self, deal: Deal | BoutDeal, action: Action, actor: int) -> str:
        if isinstance(deal, Deal):
            return deal._seen_as(action, actor, self.seat)
        return action.text

    def _replay(
        self, order: list[int], picks: dict[int, int], choose: bool
    ) -> tuple[Deal | BoutDeal, tuple[str, int] | None]:
        """The log replayed from a deck order; hidden steps take the card in `picks` (or one
        chosen at random when `choose`). Returns the deal and the failure (kind, step)."""
        deal = self._new_deal(order)
        for k, (s, text) in enumerate(self.log):
            if deal.is_over or deal.to_act != s:
                return deal, ("flow", k)
            try:
                legal = deal.legal_actions()
            except StuckError:
                return deal, ("flow", k)
            if k in self.hidden_steps:
                cands = [a for a in legal if self._seen(deal, a, s) == text and a.text != text]
                pick = picks.get(k, -1)
                found = [a for a in cands if a.card == pick]
                if found:
                    action = found[0]
                elif choose and cands:
                    later = [a for a in cands if self._moved_later(a, s, k)]
                    unseen = [a for a in cands if a.card in self.unseen]
                    action = self.rng.choice(later or unseen or cands)
                    picks[k] = action.card
                else:
                    return deal, ("flow", k)
            else:
                for action in legal:
                    if action.text == text:
                        break
                else:
                    return deal, ("illegal", k)
            if self.draws and isinstance(deal, BoutDeal):
                before = list(deal.stock)
                deal.apply(action)
                if action.kind != "swap" and len(deal.stock) < len(before):
                    hand = deal.hands[self.seat]
                    came = {c for c in before[len(deal.stock) :] if c in hand}
                    want = self.draws.get(k + 1, set())
                    if came != want:  # the seat drew other cards than it remembers
                        self.draw_fix = list(zip(sorted(want - came), sorted(came - want)))
                        return deal, ("draw", k + 1)
                continue
            deal.apply(action)
        return deal, None

    def _played_after(self, card: int, k: int) -> int:
        """Who the log first shows playing (or giving) the card, when that is after step k;
        -1 otherwise."""
        seen = self.played_at.get(card)
        return seen[1] if seen is not None and seen[0] > k else -1

    def _moved_later(self, action: Action, giver: int, k: int) -> bool:
        """Whether the card of a hidden action at step k is one the log shows played later
        by its receiver (by another player than the giver, when the action names none):
        such a card can only have gone that way, so it is the first to try."""
        who = self._played_after(action.card, k)
        return who == action.to if action.to >= 0 else who not in (-1, giver)

    def _view(self, deal: Deal | BoutDeal) -> Observation | BoutObservation:
        obs = self.obs
        return attrs.evolve(deal.observation(self.seat), scores=obs.scores, kept=obs.kept)

    # ------------------------------------------------------------ the reference world
    def _first_order(self) -> list[int]:
        """A shuffled deck order with the seat's likely first cards in its hand."""
        rng = self.rng
        game = self.game
        size = game.model.deck.size
        obs = self.obs
        order_of_play = game.model.deal.players_in_deal(obs.dealer, self.seats)
        places = game.deal_places(order_of_play, self.context[order_of_play[0]])
        mine = [p for p, place in enumerate(places) if place == self.seat]
        own = {self._card(t) for t in obs.hand}
        own.update(self.own_actions)
        if isinstance(obs, Observation):
            own -= {self._card(t) for t in (*obs.received, *obs.talon_taken)}
            if obs.turned_up is not None:  # dealt face up, not to him (he may have taken it)
                own.discard(self._card(obs.turned_up))
        first = list(own)
        rng.shuffle(first)
        if self.draws.get(0):  # the cards it was dealt, known
            first = list(self.draws[0])
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
            for c, q in self._known_givers(obs, order_of_play):
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
        deal = self._new_deal(order)
        first_view = _sightings(deal.observation(self.seat))
        final_view = _sightings(obs)
        for key in ("turnup", "turned_up", "trump_card"):
            want, have = final_view.get(key, ()), first_view.get(key, ())
            if want and have and want != have and self._card(want[0]) in self.fixed:
                _swap(order, {}, self._card(want[0]), self._card(have[0]))
        # a trump suit set by the turned card from the start is the one shown now (if the
        # turned card was exchanged, another card of that suit lay there)
        deal = self._new_deal(order)
        turned = _trump_card(deal)
        suits = self.game.model.deck.suits
        if turned >= 0 and obs.trump is not None and suits[deal.trump].name != obs.trump:
            trumps = [
                c
                for c in range(size)
                if suits[self.game.suit_of[c]].name == obs.trump and c not in self.fixed
            ]
            trumps = [c for c in trumps if c in self.unseen] or trumps
            if trumps:
                _swap(order, {}, rng.choice(trumps), turned)
        if isinstance(obs, Observation):  # a talon seen (shown, or taken by the seat)
            for i, t in enumerate(obs.talon_shown or obs.talon_taken):
                if not isinstance(deal, Deal) or i >= len(deal.talon):
                    break
                _swap(order, {}, self._card(t), order[order.index(deal.talon[i])])
                deal = self._new_deal(order)
            for s, cards in obs.open_hands:  # a hand shown to all was dealt so
                for t in cards:
                    c = self._card(t)
                    spare = [x for x in deal.hands[s] if x not in {self._card(u) for u in cards}]
                    if c not in deal.hands[s] and spare:
                        _swap(order, {}, c, rng.choice(spare))
                        deal = self._new_deal(order)
        return order

    def _known_givers(self, obs: Observation, active: list[int]) -> list[tuple[int, int]]:
        """(card, player) for the cards the seat knows another player had: those it received
        from him (a card given openly, or passed to it: the passing goes a known number of
        seats on), then those it saw him play, in the order of the log."""
        out: list[tuple[int, int]] = []
        for t in obs.received:
            c = self._card(t)
            if c in self.fixed:  # seen lying somewhere (a talon shown): it was dealt there
                continue
            shown = self.played_at.get(c)
            if shown is not None and shown[1] != self.seat:
                out.append((c, shown[1]))
            elif obs.pass_to and self.seat in active:  # passed: from as many seats back
                out.append((c, seat_on(active, self.seat, -obs.pass_to)))
        seen = sorted((k, c) for c, k in self.seen_played.items())
        return out + [(c, self.log[k][0]) for k, c in seen]

    def _reference(self) -> tuple[Deal | BoutDeal, dict[int, int]] | None:
        """A consistent world found by replaying and repairing (None: none found).

        Where the replay fails at a step, the worlds that agree with the steps before it and
        make that step possible are counted (as for sampling) and one is drawn; when that is
        not possible, two cards are swapped (the swap whose replay gets furthest)."""
        order = self.start if self.start is not None else self._first_order()
        picks: dict[int, int] = {}
        flows = 0
        last: tuple[str, int] | None = None
        reach = -1  # the furthest step a replay got to: cheap repairs while it grows
        for attempt in range(_REPAIRS):
            self._check_time()
            # in a trick game a start that does not lead to a world in a few repairs is
            # left for a fresh first order, which places the cards the seat saw leave each
            # hand (what it saw since the start may lie far from it); in a game of bouts
            # the first order places only the seat's own cards, and the start is kept
            leave = attempt == _START_TRIES and self.start and isinstance(self.obs, Observation)
            if attempt and (attempt % 100 == 0 or leave):
                order = self._first_order()
                picks = {}
            deal, fail = self._replay(order, picks, choose=True)
            if fail is None:
                view = self._view(deal)
                if view == self.obs:
                    return deal, picks
                swaps = self._view_repairs(view)
                if not swaps and (view.phase, view.to_act) != (self.obs.phase, self.obs.to_act):
                    fail = ("flow", len(self.log))  # the last action went on another way
                elif not swaps:
                    return None  # the same cards, another shape: not this deal
            if fail is not None and fail[0] == "draw":  # the cards the seat remembers drawing
                swaps = self.draw_fix
                fail = None
            if fail is not None:
                kind, k = fail
                drawn_again = last == (kind, k)  # a drawn world failed where the last did
                last = None
                progress, reach = k > reach, max(reach, k)
                stuck = drawn_again
                if not progress and not drawn_again and (kind == "illegal" or k > 0):
                    upto = k if kind == "illegal" else k - 1
                    model = self._model(deal, upto, kind)
                    drawn = None if model is None else model.greedy(self.rng)
                    if model is not None and drawn is not None:
                        order, picks = self._drawn_order(model, drawn, order, picks, upto)
                        last = (kind, k)
                        continue
                    stuck = True
                options = {tuple(self._step_repairs(deal, k, kind == "flow")) for _ in range(6)}
                options.update(self._pick_changes(deal, k, picks))
                if stuck or k == 0:  # the cause may lie in a heap (a turned-up card, a talon)
                    options.update(self._heap_swaps(deal))
                options.discard(())
                if not options:
                    flows += 1
                    if flows > 20:
                        return None
                    order = self._first_order()
                    picks = {}
                    continue
                swaps = list(self._best(order, picks, sorted(options)))
            for x, y in swaps:
                _change(order, picks, x, y)
        return None

    def _drawn_order(
        self, model: _Model, slots: list[int], order: list[int], picks: dict[int, int], upto: int
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
        reach = -2
        for swaps in options:
            self._check_time()
            o, p = list(order), dict(picks)
            for x, y in swaps:
                _change(o, p, x, y)
            if not self._trump_kept(o):
                if reach < -1:
                    best, reach = [swaps], -1
                elif reach == -1:
                    best.append(swaps)
                continue
            world, fail = self._replay(o, p, choose=True)
            got = fail[1] if fail is not None else len(self.log) + (self._view(world) == self.obs)
            if got > reach:
                best, reach = [swaps], got
            elif got == reach:
                best.append(swaps)
        return self.rng.choice(best)

    def _acting_hand(self, deal: Deal | BoutDeal) -> int:
        if isinstance(deal, Deal) and deal.phase == "play" and deal.turn >= 0:
            return deal.turn
        return deal.to_act

    def _needed(self, deal: Deal | BoutDeal, action: Action) -> list[int]:
        """The cards an action takes from the acting hand (or that must be held for it)."""
        if action.card >= 0:
            if action.kind == "marry":
                melds = self.game.meld_of_card.get(action.card, [])
                return list(melds[0][3]) if melds else [action.card]
            return [action.card]
        if action.kind == "announce":
            for mi, suit, cards in self.game.announced_melds:
                if mi == action.value and suit == action.to:
                    return list(cards)
        if isinstance(deal, BoutDeal):
            on_table = {c for pair in deal.table for c in pair}
            return [c for c in action.cards if c not in on_table]
        return list(action.cards)

    def _movable(self, card: int) -> bool:
        return card not in self.fixed

    def _step_repairs(
        self, deal: Deal | BoutDeal, k: int, flow: bool = False
    ) -> list[tuple[int, int]]:
        """Swaps that may make step k's action possible (`flow`: the wrong player is to
        act; the cards of his action are brought into his hand, if it has any)."""
        rng = self.rng
        if k >= len(self.log):
            return self._flow_swap(deal, k) or self._random_swap(deal)
        s, text = self.log[k]
        action = self.game.actions.parse(text)
        if action is None or deal.is_over:
            return []
        h = s if flow else self._acting_hand(deal)
        if flow and not self._needed(deal, action):
            return self._flow_swap(deal, k) or self._random_swap(deal)
        hand = deal.hands[h]
        needed = self._needed(deal, action)
        missing = [c for c in needed if c not in hand]
        where = _places(deal, len(deal.deck_order))
        outside = [
            c
            for c, p in enumerate(where)
            if p is not None and p != h and p != "turnup" and self._movable(c)
        ]
        unseen_outside = [c for c in outside if c in self.unseen]
        if missing:
            out = []
            spare = [c for c in hand if c not in needed]
            pool = (
                [c for c in spare if c in self.unseen]
                or [c for c in spare if self._movable(c)]
                or spare
            )
            for x in missing:
                if pool:
                    y = rng.choice(pool)
                    pool.remove(y)
                    out.append((x, y))
            return out
        # every card is there, yet the action is refused: an obligation or a needed holding
        keep = [c for c in hand if c in needed or not self._movable(c)]
        extra = [c for c in hand if c not in keep]
        if self._legal_with(deal, h, keep, action):
            rng.shuffle(extra)
            culprits = []
            trial = list(keep)
            for c in extra:
                if self._legal_with(deal, h, [*trial, c], action):
                    trial.append(c)
                else:
                    culprits.append(c)
            out = []
            free = [c for c in unseen_outside if self._legal_with(deal, h, [*keep, c], action)]
            free = free or unseen_outside or outside
            for c in culprits:
                if free:
                    w = rng.choice(free)
                    free.remove(w)
                    out.append((c, w))
            return out
        # a card the seat saw elsewhere may be misplaced here: move it out
        if not self._legal_with(deal, h, [c for c in hand if c in needed], action):
            pass
        elif extra == [] or not self._legal_with(deal, h, keep, action):
            seen_here = [c for c in keep if c not in needed]
            rng.shuffle(seen_here)
            trial = [c for c in hand if c in needed]
            blocking = []
            for c in seen_here:
                if self._legal_with(deal, h, [*trial, c], action):
                    trial.append(c)
                else:
                    blocking.append(c)
            if blocking and outside:
                return [(c, rng.choice(outside)) for c in blocking[:1]]
        # a holding is missing: bring in one card that helps, else two (a holding of two,
        # like the marriage a bid needs); first the cards the seat has not seen and those
        # the log shows leaving this hand later (moving another card it has seen only
        # breaks another step); else swap at random
        rng.shuffle(outside)
        pool = list(extra or hand)
        likely = [c for c in outside if c in self.unseen or self._played_after(c, k) == h]
        for group in (likely, [c for c in outside if c not in likely]):
            for z in group:
                if pool and self._legal_with(deal, h, [*hand, z], action):
                    return [(z, rng.choice(pool))]
            few = group[:12]
            if len(pool) >= 2:
                for i, z in enumerate(few):
                    for w in few[i + 1 :]:
                        if self._legal_with(deal, h, [*hand, z, w], action):
                            y1, y2 = rng.sample(pool, 2)
                            return [(z, y1), (w, y2)]
        # what is refused may depend on a card lying elsewhere (a turned-up card)
        return self._random_swap(deal)

    def _flow_swap(self, deal: Deal | BoutDeal, k: int) -> list[tuple[int, int]]:
        """A card brought into a hand so that the action before step k hands the turn to
        the player the log names (he must hold something to be asked)."""
        if k == 0 or k - 1 in self.hidden_steps:
            return []
        state = self._new_deal(list(deal.deck_order))
        for _, a in deal.history[: k - 1]:
            state.legal_actions()
            state.apply(a)
        action = deal.history[k - 1][1]
        expect = (None, self._actor(k))
        where = _places(deal, len(deal.deck_order))
        free = [c for c, p in enumerate(where) if p is not None and self._movable(c)]
        self.rng.shuffle(free)
        for q in self.rng.sample(range(self.seats), self.seats):
            hand = state.hands[q]
            for z in free[:12]:
                if z not in hand and self._fits(state, q, [*hand, z], action, expect):
                    out = [y for y in hand if self._movable(y)]
                    return [(z, self.rng.choice(out))] if out else []
        return []

    def _heap_swaps(self, deal: Deal | BoutDeal) -> list[tuple[tuple[int, int], ...]]:
        """Exchanges of a card of a small hidden heap with a card of a hand."""
        where = _places(deal, len(deal.deck_order))
        heaps: dict[Any, list[int]] = {}
        for c, p in enumerate(where):
            if isinstance(p, str) and self._movable(c):
                heaps.setdefault(p, []).append(c)
        small = [c for cs in heaps.values() if len(cs) <= 4 for c in cs]
        held = [c for c, p in enumerate(where) if type(p) is int and self._movable(c)]
        out: list[tuple[tuple[int, int], ...]] = [((x, y),) for x in small for y in held]
        return out[:60]

    def _trump_kept(self, order: list[int]) -> bool:
        """False when the card dealt face up sets a trump suit other than the one shown."""
        trump = self.obs.trump
        if trump is None:
            return True
        deal = self._new_deal(order)
        if _trump_card(deal) < 0:
            return True
        return bool(self.game.model.deck.suits[deal.trump].name == trump)

    def _pick_changes(
        self, deal: Deal | BoutDeal, k: int, picks: dict[int, int]
    ) -> list[tuple[tuple[int, int], ...]]:
        """A card step k needs, given unseen to its hand earlier, or a card of its hand that
        forbids the step (a card of the suit led, not played), given or discarded unseen
        by this hand earlier: each earlier hidden action tried with that card (encoded
        (-1 - step, card), see `_change`). A needed card is also swapped with the card an
        earlier hidden action took (it then lies in the giver's hand and goes the same
        way)."""
        if k >= len(self.log):
            return []
        action = self.game.actions.parse(self.log[k][1])
        if action is None:
            return []
        h = self._acting_hand(deal)
        hand = deal.hands[h]
        earlier = [j for j in sorted(self.hidden_steps) if j < k]
        missing = [c for c in self._needed(deal, action) if c not in hand]
        out: list[tuple[tuple[int, int], ...]] = [((-1 - j, c),) for c in missing for j in earlier]
        out += [((c, picks[j]),) for c in missing for j in earlier if picks.get(j, c) != c]
        mine = [j for j in earlier if self.log[j][0] == h]
        if not missing and mine and not self._legal_with(deal, h, list(hand), action):
            blocking = [
                c for c in hand if self._legal_with(deal, h, [x for x in hand if x != c], action)
            ]
            out += [((-1 - j, c),) for c in blocking for j in mine]
        return out

    def _actor(self, k: int) -> int:
        """Who acts at step k of the log (after its last step: who is to act now)."""
        return self.log[k][0] if k < len(self.log) else self.obs.to_act

    def _random_swap(self, deal: Deal | BoutDeal) -> list[tuple[int, int]]:
        """Two cards of two hidden places exchanged (where the course of the deal depends on
        what the hands hold)."""
        where = _places(deal, len(deal.deck_order))
        free = [c for c, p in enumerate(where) if p is not None and self._movable(c)]
        if len(free) < 2:
            return []
        x = self.rng.choice(free)
        others = [c for c in free if where[c] != where[x]]
        return [(x, self.rng.choice(others))] if others else []

    def _legal_with(self, deal: Deal | BoutDeal, h: int, hand: list[int], action: Action) -> bool:
        """Would `action` be legal now if hand h held these cards?"""
        saved = deal.hands[h]
        deal.hands[h] = hand
        deal._legal = None
        deal._ids = None
        try:
            return action in deal._compute_legal()
        except (StuckError, TrickcoreError):
            return False
        finally:
            deal.hands[h] = saved
            deal._legal = None
            deal._ids = None

    def _view_repairs(self, view: Observation | BoutObservation) -> list[tuple[int, int]]:
        """Swaps bringing the cards the seat sees into the places it sees them (each card
        in one swap at most; a place shown in order is put in order)."""
        out: list[tuple[int, int]] = []
        used: set[int] = set()
        mine, theirs = _sightings(view), _sightings(self.obs)
        for key in sorted(set(mine) | set(theirs)):
            want = [self._card(t) for t in theirs.get(key, ())]
            have = [self._card(t) for t in mine.get(key, ())]
            missing = [c for c in want if c not in have]
            extra = [c for c in have if c not in want]
            if not missing and not extra:  # the same cards in another order
                pairs = [(x, y) for x, y in zip(want, have, strict=False) if x != y][:1]
            else:
                self.rng.shuffle(extra)
                pairs = list(zip(missing, extra, strict=False))
                if not extra:
                    pool = [c for c in self.unseen if c not in used]
                    self.rng.shuffle(pool)
                    pairs = list(zip(missing, pool, strict=False))
            for x, y in pairs:
                if x not in used and y not in used:
                    out.append((x, y))
                    used.update((x, y))
        return out

    # ------------------------------------------------------------ slots and constraints
    def _model(self, world: Deal | BoutDeal, upto: int, failed: str = "illegal") -> _Model | None:
        """The slots and constraints of the worlds that agree with `world`'s first `upto`
        steps (all steps: the sampling model). With upto < the log's length, the action at
        step `upto` (refused in `world`) must become possible: its cards in the acting hand,
        and no card the obligations rule out there. None when that cannot be said."""
        order = list(world.deck_order)
        size = len(order)
        steps = upto
        actions = [a for _, a in world.history[:upto]]
        deal = self._new_deal(list(order))
        m = _Model(order, upto)
        m.fixed = set(self.fixed)
        # cards the seat was dealt or drew, known, and placed so by the replay so far
        m.fixed.update(c for k, cs in self.draws.items() if k <= upto for c in cs)
        m.seen_played = {c: k for c, k in self.seen_played.items() if k < upto}
        m.seen_played.update(dict.fromkeys(self.own, 0))
        places = m.places
        probes: list[tuple[int, Deal | BoutDeal, Action, tuple[Any, ...]]] = []
        card = self.game._card_by_text
        for k in range(steps + 1):
            places.append(_places(deal, size))
            if upto == len(self.log):  # the places seen on the way, as in this world
                for place, texts in _sightings(deal.observation(self.seat)).items():
                    if place in _PLACES_SEEN or place.startswith("open"):
                        m.fixed.update(card[t] for t in texts)
            if k == steps:
                break
            action = actions[k]
            before = self._clone(deal)
            deal.legal_actions()
            deal.apply(action)
            if before is not None:
                # the next action must stay legal too: applying this one may work out
                # what it reads (a bid's cap from the hand)
                follow = tuple(
                    (self.log[j][0], actions[j], j in self.hidden_steps)
                    for j in range(k + 1, min(k + 9, steps))
                )
                probes.append((k, before, action, (deal.phase, deal.to_act, follow)))
        if upto < len(self.log):  # building: a small heap's cards (a turned-up card, a
            # talon) stay as the steps so far had them (a swap moves them if need be)
            heaps: dict[Any, list[int]] = {}
            for c, p in enumerate(places[0]):
                if isinstance(p, str) and p != "stock":
                    heaps.setdefault(p, []).append(c)
            m.fixed.update(c for cs in heaps.values() if len(cs) <= 4 for c in cs)
        for c in m.fixed:
            m.seen_played.pop(c, None)
        # fates: the first step a card leaves a hand
        fate = m.fate
        for k in range(steps):
            now, nxt = places[k], places[k + 1]
            for c in range(size):
                p = now[c]
                if c not in fate and type(p) is int and nxt[c] != p:
                    fate[c] = (k, p)
        hidden_moved = {c for c, (k, _) in fate.items() if k in self.hidden_steps}
        final = upto == len(self.log)
        for c in list(m.seen_played):
            if c in hidden_moved or (c not in fate and c not in self.own):
                m.fixed.add(c)  # first moved unseen: kept where it is
                del m.seen_played[c]
            elif c not in fate:
                del m.seen_played[c]
                if final:  # the seat's own card, still where its hand went
                    m.end_at[c] = places[steps][c]
        m.unseen = {
            c
            for c in range(size)
            if c not in m.fixed and c not in m.seen_played and c not in m.end_at
        }
        m.movable = sorted(c for c in range(size) if c not in m.fixed)
        # slots: positions of movable cards that go the same way
        slot_index: dict[Any, int] = {}
        for p, c in enumerate(order):
            if c in m.fixed:
                continue
            way = [places[t][c] for t in range(steps + 1)]
            hid = c in hidden_moved
            if not hid and c in fate:
                k, hand = fate[c]
                way = way[: k + 1] + [hand] * (steps - k)
            key: tuple[bool, tuple[Any, ...]] = (hid, tuple(way))
            i = slot_index.get(key)
            if i is None:
                i = slot_index[key] = len(m.slot_positions)
                m.slot_positions.append([])
                m.slot_sig.append(key[1])
                m.slot_hidden.append(hid)
            m.slot_positions[i].append(p)
            m.slot_of_card[c] = i
        # the card that set the trump suit keeps its suit there
        turned = _trump_card(self._new_deal(list(order)))
        trump_slot = m.slot_of_card.get(turned, -1)
        forbid: dict[int, list[tuple[int, int]]] = {}
        require: dict[int, list[tuple[int, int]]] = {}
        for k, state, action, expect in probes:
            self._probe(m, k, state, action, expect, forbid, require)
        if upto < len(self.log):
            if failed == "illegal":
                if not self._probe_failed(m, world, upto, forbid, require):
                    return None
            elif upto in self.hidden_steps or not self._probe_flow(
                m, deal, world.history[upto][1], upto, forbid
            ):
                return None
        # the slots each card may take
        suit_of = self.game.suit_of
        hidden_ends = {places[steps][c] for c in m.unseen}
        if not final:
            hidden_ends.add(self.seat)
        for c in m.movable:
            ok = []
            for i, sig in enumerate(m.slot_sig):
                if m.slot_hidden[i] and c not in m.unseen:
                    continue
                if i == trump_slot and suit_of[c] != suit_of[turned]:
                    continue
                if c in m.seen_played:
                    k, hand = fate[c]
                    if sig[k] != hand:
                        continue
                elif c in m.end_at:
                    if sig[steps] != m.end_at[c]:
                        continue
                elif sig[steps] not in hidden_ends:
                    continue
                if any(m.present(c, i, k, h) for k, h in forbid.get(c, ())):
                    continue
                if not all(m.present(c, i, k, h) for k, h in require.get(c, ())):
                    continue
                ok.append(i)
            if upto == len(self.log) and m.slot_of_card[c] not in ok:
                raise WorldsError("internal: the reference world breaks its own constraints")
            m.allowed[c] = ok
        m.prepare()
        if final:
            m.count()
        return m

    def _probe(
        self,
        m: _Model,
        k: int,
        state: Deal | BoutDeal,
        action: Action,
        expect: tuple[Any, ...],
        forbid: dict[int, list[tuple[int, int]]],
        require: dict[int, list[tuple[int, int]]],
    ) -> None:
        """Ask the engine, at step k, which cards could (not) have been in each hidden hand:
        the action must stay legal and the deal go on the same way."""
        self._check_time()
        needed = set(self._needed(state, action))
        varies = [c for c in m.movable if m.varies(c, k) and c not in needed]
        known: dict[tuple[int, frozenset[int]], bool] = {}

        def fits(
            state: Deal | BoutDeal, q: int, hand: list[int], action: Action, expect: Any
        ) -> bool:
            key = (q, frozenset(hand))  # the same hand is asked about more than once
            found = known.get(key)
            if found is None:
                found = known[key] = self._fits(state, q, hand, action, expect)
            return found

        acting = self._acting_hand(state)
        for c in needed:  # the cards the action takes or shows are in the acting hand
            if m.varies(c, k):
                require.setdefault(c, []).append((k, acting))
        for q in range(self.seats):
            hand = state.hands[q]
            inside = [c for c in hand if c in varies]
            if not inside:
                continue  # no card of this hand differs between worlds here
            outside = [c for c in varies if c not in hand]
            banned: set[int] = set()
            if outside and not fits(state, q, [*hand, *outside], action, expect):
                for c in outside:
                    if not fits(state, q, [*hand, c], action, expect):
                        banned.add(c)
                if len(banned) == len(outside):  # the hand's size matters: swap instead
                    banned = {
                        c
                        for c in outside
                        if not any(
                            fits(state, q, [y if y != x else c for y in hand], action, expect)
                            for x in inside
                        )
                    }
            for c in banned:
                forbid.setdefault(c, []).append((k, q))
            whole = False
            by_flow = False
            if not fits(state, q, [c for c in hand if c not in inside], action, expect):
                for x in inside:
                    rest = [c for c in hand if c != x]
                    if fits(state, q, rest, action, expect):
                        continue
                    failing = {y for y in outside if not fits(state, q, [*rest, y], action, expect)}
                    if len(failing) == len(outside):
                        require.setdefault(x, []).append((k, q))
                    elif not failing <= banned:
                        whole = True
                        by_flow = by_flow or self._legal_with(state, q, rest, action)
                # a holding any of several could make (a bid needing some meld): whole
                needed_here = {x for x in inside if (k, q) in require.get(x, ())}
                kept = [c for c in hand if c not in inside or c in needed_here]
                if not whole and not fits(state, q, kept, action, expect):
                    whole = True
                    by_flow = by_flow or self._legal_with(state, q, kept, action)
            if whole:
                fixed_part = [c for c in hand if not m.varies(c, k)]
                expect_or_none = expect if by_flow else None
                m.whole.append((k, q, state, action, expect_or_none, fixed_part))

    def _probe_failed(
        self,
        m: _Model,
        world: Deal | BoutDeal,
        k: int,
        forbid: dict[int, list[tuple[int, int]]],
        require: dict[int, list[tuple[int, int]]],
    ) -> bool:
        """Constraints that make the refused action of step k possible: its cards in the
        acting hand, and none of the cards that rule it out. False: none found."""
        action = self.game.actions.parse(self.log[k][1])
        if action is None:
            return False
        h = self._acting_hand(world)
        hand = world.hands[h]
        needed = self._needed(world, action)
        for x in needed:
            if not m.varies(x, k) and x not in hand:
                return False
            require.setdefault(x, []).append((k, h))
        minimal = [c for c in hand if not m.varies(c, k)]
        minimal += [c for c in needed if c not in minimal]
        if not self._legal_with(world, h, minimal, action):
            return False
        for c in m.movable:
            if c not in needed and m.varies(c, k):
                if not self._legal_with(world, h, [*minimal, c], action):
                    forbid.setdefault(c, []).append((k, h))
        return True

    def _probe_flow(
        self,
        m: _Model,
        state: Deal | BoutDeal,
        action: Action,
        k: int,
        forbid: dict[int, list[tuple[int, int]]],
    ) -> bool:
        """Constraints under which the action of step k hands the turn to the player the
        log names next (the course of the deal depends on what the hands hold): the cards
        that would change it are ruled out. False: none found."""
        expect = (None, self._actor(k + 1))
        needed = set(self._needed(state, action))
        hidden = [q for q in range(self.seats) if any(m.varies(c, k) for c in state.hands[q])]
        minimal = {
            q: [c for c in state.hands[q] if not m.varies(c, k) or c in needed] for q in hidden
        }
        if not self._fits_many(state, minimal, action, expect):
            # the hands cannot simply be emptied (their sizes matter): the single cards
            # whose absence sets the course right are ruled out there
            found = False
            for q in hidden:
                for c in state.hands[q]:
                    if m.varies(c, k) and c not in needed:
                        rest = [x for x in state.hands[q] if x != c]
                        if self._fits_many(state, {q: rest}, action, expect):
                            forbid.setdefault(c, []).append((k, q))
                            found = True
            return found
        for q in hidden:
            for c in m.movable:
                if c in needed or not m.varies(c, k) or c in minimal[q]:
                    continue
                hands = dict(minimal)
                hands[q] = [*minimal[q], c]
                if not self._fits_many(state, hands, action, expect):
                    forbid.setdefault(c, []).append((k, q))
        return True

    def _draw(self, m: _Model) -> list[int]:
        """A uniformly drawn slot for each card of `m.cards`: row by row (cards allowed in
        the same groups), how many go to each group, drawn with the counts as weights;
        which of them go where, at random; then each group split among its slots."""
        rng = self.rng
        choices = m.choices
        random_ = rng.random
        left = m.caps
        groups = [0] * len(m.cards)
        start = 0
        for j, (allowed, cards) in enumerate(m.rows):
            got = choices.get((j, left))
            if got is None:
                got = m.options(j, left)
            options, cumulative = got
            if len(options) == 1:
                split, left = options[0]
            else:
                x = random_() * cumulative[-1]
                split, left = options[bisect.bisect_right(cumulative, x)]
            if len(allowed) == 1:
                g = allowed[0]
                for i in range(start, start + len(cards)):
                    groups[i] = g
            else:
                where = [g for g, n in zip(allowed, split, strict=True) for _ in range(n)]
                rng.shuffle(where)
                groups[start : start + len(cards)] = where
            start += len(cards)
        return m.split(groups, rng)

    @property
    def count(self) -> int:
        """How many assignments of cards to slots there are (worlds up to the order of the
        cards within a slot)."""
        return self.model.total

    # ------------------------------------------------------------ worlds
    def sample(self, n: int, deadline: float | None = None) -> list[Deal | BoutDeal]:
        """`n` worlds drawn independently and uniformly (see the module docstring). With a
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
        m = self.model
        slots = self._draw(m)
        if m.whole and not m.whole_ok(slots, self._fits, self._legal_with):
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
            return self.relabeller(relabel)
        ref = self.ref
        order = ref.deck_order
        new_order = m.new_order(slots, self.rng)
        picks = {k: new_order[order.index(c)] for k, c in self.picks.items()}
        world, fail = self._replay(new_order, picks, choose=False)
        if fail is not None or self._view(world) != self.obs:
            return None
        return world

    @staticmethod
    def _clone(deal: Deal | BoutDeal) -> Deal | BoutDeal:
        """A copy of a deal (of its own class)."""
        return deal.clone()  # type: ignore[return-value]

    def _fits(
        self,
        state: Deal | BoutDeal,
        q: int,
        hand: list[int],
        action: Action,
        expect: tuple[Any, ...],
    ) -> bool:
        """Had hand q held these cards, would the action have been legal, and would the
        deal have gone on the same way (the same phase and player to act)?"""
        return self._fits_many(state, {q: hand}, action, expect)

    def _fits_many(
        self,
        state: Deal | BoutDeal,
        hands: dict[int, list[int]],
        action: Action,
        expect: tuple[Any, ...],
    ) -> bool:
        """`_fits` with several hands changed; a phase of None in `expect` is not compared."""
        st = state.clone()
        for q, hand in hands.items():
            st.hands[q] = list(hand)
        st._legal = None
        st._ids = None
        try:
            legal = st._compute_legal()
            for a in legal:
                if a == action:
                    break
            else:
                return False
            st._legal = legal
            st.apply(a)
        except TrickcoreError:
            return False
        phase, to_act = expect[0], expect[1]
        follow = expect[2] if len(expect) > 2 else ()
        if st.to_act != to_act or (phase is not None and st.phase != phase):
            return False
        # the actions that follow must stay legal too, up to the changed hand's next one
        # seen (applying one may work out what a later one reads: a bid's cap)
        try:
            for actor, after, hidden in follow:
                legal = st._compute_legal()
                if after not in legal:
                    return False
                st._legal = legal
                st.apply(after)
                if actor in hands and not hidden:
                    break
        except TrickcoreError:
            return False
        return True


class _Model:
    """The slots of one reference world's first `upto` steps, the slots each movable card
    may take, and the counting table of the assignments."""

    def __init__(self, order: list[int], upto: int) -> None:
        self.order = order
        self.upto = upto
        self.places: list[list[Any]] = []  # places[t][card] before step t
        self.fate: dict[int, tuple[int, int]] = {}  # card -> (step, hand) it first left
        self.fixed: set[int] = set()
        self.seen_played: dict[int, int] = {}  # seen cards that left a hand in view
        self.end_at: dict[int, Any] = {}  # the seat's own cards still in its hand: where
        self.unseen: set[int] = set()
        self.movable: list[int] = []
        self.slot_positions: list[list[int]] = []
        self.slot_sig: list[tuple[Any, ...]] = []
        self.slot_hidden: list[bool] = []
        self.slot_of_card: dict[int, int] = {}
        self.allowed: dict[int, list[int]] = {}
        self.whole: list[tuple[int, int, Any, Action, tuple[Any, ...] | None, list[int]]] = []
        self.cards: list[int] = []
        self.caps: tuple[int, ...] = ()
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.group_of_slot: list[int] = []
        self.group_slots: list[list[int]] = []
        self.total = 0
        self.whole_cache: dict[tuple[int, tuple[int, ...]], bool] = {}
        self.whole_tables: list[list[tuple[int, int, list[bool]]]] = []
        self.seen_index: list[int] = []
        self.unseen_index: list[int] = []
        self.unseen_by_slot: list[list[int]] = []
        self.choices: dict[tuple[int, tuple[int, ...]], tuple[list[Any], list[int]]] = {}
        self.rows: list[tuple[tuple[int, ...], list[int]]] = []

    def varies(self, card: int, step: int) -> bool:
        """Whether a card's place at a step can differ between worlds."""
        if card in self.fixed:
            return False
        if card in self.seen_played:
            return step < self.fate[card][0]
        return True

    def present(self, card: int, slot: int, step: int, hand: int) -> bool:
        """Whether a card put in a slot is in this hand at this step."""
        if not self.varies(card, step):
            return bool(self.places[step][card] == hand)
        return bool(self.slot_sig[slot][step] == hand)

    def prepare(self) -> None:
        """Slots that every card may take alike merged into groups (a group's cards are
        then split among its slots uniformly); cards allowed in the same groups in rows."""
        columns: dict[frozenset[int], int] = {}
        self.group_of_slot = []
        self.group_slots = []
        for i in range(len(self.slot_positions)):
            col = frozenset(c for c in self.movable if i in self.allowed[c])
            g = columns.get(col)
            if g is None:
                g = columns[col] = len(self.group_slots)
                self.group_slots.append([])
            self.group_slots[g].append(i)
            self.group_of_slot.append(g)
        caps = tuple(sum(len(self.slot_positions[i]) for i in g) for g in self.group_slots)
        self.caps = caps
        if sum(caps) != len(self.movable):
            raise WorldsError("internal: slots and cards do not match")
        by_row: dict[tuple[int, ...], list[int]] = {}
        for c in self.movable:
            row = tuple(sorted({self.group_of_slot[i] for i in self.allowed[c]}))
            by_row.setdefault(row, []).append(c)
        rows = sorted(by_row.items(), key=lambda rc: (len(rc[0]), -len(rc[1]), rc[0]))
        # a row with many ways to spread is taken card by card, but for the last one (the
        # sizes left then say how it spreads)
        self.rows = []
        for j, (allowed, cards) in enumerate(rows):
            spreads = math.comb(len(cards) + len(allowed) - 1, max(len(allowed) - 1, 0))
            if j < len(rows) - 1 and spreads > 64:
                self.rows.extend((allowed, [c]) for c in cards)
            else:
                self.rows.append((allowed, cards))
        self.cards = [c for _, cards in self.rows for c in cards]

    def count(self) -> None:
        """The counting table. Slots that every card may take alike are merged into groups
        (a group's cards are then split among its slots uniformly), and cards allowed in the
        same groups form rows. ways(j, sizes left) counts the assignments of rows j on: a
        sum, over how many of row j's cards go to each of its groups, of the multinomial
        ways to choose them times ways(j + 1, the sizes then left); it is filled backwards
        over the size vectors reachable forwards."""
        caps = self.caps
        layers: list[set[tuple[int, ...]]] = [{caps}]  # size vectors reachable, forwards
        states = 1
        for j, (allowed, _) in enumerate(self.rows):
            nxt: set[tuple[int, ...]] = set()
            for left in layers[-1]:
                for split in self._spreads(j, left):
                    nxt.add(_minus(left, allowed, split))
            states += len(nxt)
            if states > _MAX_STATES:
                raise WorldsError("too many hidden arrangements to count exactly")
            layers.append(nxt)
        memo = self.memo
        last = len(self.rows)
        for left in layers[last]:
            memo[(last, left)] = 1
        for j in range(last - 1, -1, -1):
            allowed, cards = self.rows[j]
            for left in layers[j]:
                total = 0
                for split in self._spreads(j, left):
                    w = memo.get((j + 1, _minus(left, allowed, split)), 0)
                    if w:
                        total += _multinomial(list(split)) * w
                if total:
                    memo[(j, left)] = total
        count = memo.get((0, caps), 0)
        for members in self.group_slots:  # the ways to split a group's cards among its slots
            count *= _multinomial([len(self.slot_positions[i]) for i in members])
        self.total = count

    def greedy(self, rng: random.Random) -> list[int] | None:
        """Some assignment (not uniform: for building a reference world), each card in a
        random allowed group with room left; None if none was found."""
        for _ in range(20):
            left = list(self.caps)
            groups = []
            for allowed, cards in self.rows:
                for _ in cards:
                    room = [g for g in allowed if left[g]]
                    if not room:
                        break
                    g = rng.choices(room, [left[x] for x in room])[0]
                    left[g] -= 1
                    groups.append(g)
            if len(groups) == len(self.cards):
                return self.split(groups, rng)
        return None

    def _spreads(self, j: int, left: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """How row j's cards may spread over its groups; the last row fills what is left."""
        allowed, cards = self.rows[j]
        if j == len(self.rows) - 1:
            split = tuple(left[g] for g in allowed)
            if sum(split) == len(cards) == sum(left):
                yield split
            return
        yield from _splits(len(cards), allowed, left)

    def options(
        self, j: int, left: tuple[int, ...]
    ) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[int]]:
        """How row j's cards may spread over its groups from these sizes left (and the
        sizes then left), with cumulative weights."""
        allowed, cards = self.rows[j]
        options = []
        cumulative = []
        total = 0
        for split in self._spreads(j, left):
            nxt = _minus(left, allowed, split)
            w = self.memo.get((j + 1, nxt), 0)
            if w:
                total += _multinomial(list(split)) * w
                options.append((split, nxt))
                cumulative.append(total)
        self.choices[(j, left)] = (options, cumulative)
        return options, cumulative

    def index_cards(self) -> None:
        """For building worlds fast: which cards (by index) are seen or unseen, and the
        reference world's unseen cards of each slot in deck order."""
        self.seen_index = [i for i, c in enumerate(self.cards) if c not in self.unseen]
        self.unseen_index = [i for i, c in enumerate(self.cards) if c in self.unseen]
        self.unseen_by_slot = [
            [self.order[p] for p in positions if self.order[p] in self.unseen]
            for positions in self.slot_positions
        ]

    def split(self, groups: list[int], rng: random.Random) -> list[int]:
        """Each card's slot, from its drawn group: a group's cards shuffled into its slots."""
        by_group: list[list[int]] = [[] for _ in self.group_slots]
        for i, g in enumerate(groups):
            by_group[g].append(i)
        slots = [0] * len(groups)
        for g, members in enumerate(by_group):
            if len(self.group_slots[g]) == 1:
                for i in members:
                    slots[i] = self.group_slots[g][0]
                continue
            rng.shuffle(members)
            it = iter(members)
            for s in self.group_slots[g]:
                for _ in self.slot_positions[s]:
                    slots[next(it)] = s
        return slots

    def new_order(self, slots: list[int], rng: random.Random) -> list[int]:
        """The deck order of an assignment: seen-played cards staying in their slot keep
        their positions; the other cards take the free positions of their slot at random."""
        order = self.order
        by_slot: list[list[int]] = [[] for _ in self.slot_positions]
        for c, s in zip(self.cards, slots, strict=True):
            by_slot[s].append(c)
        new_order = list(order)
        for s, positions in enumerate(self.slot_positions):
            cards = by_slot[s]
            stay = {c for c in cards if c not in self.unseen and self.slot_of_card[c] == s}
            free = [p for p in positions if order[p] not in stay]
            rest = [c for c in cards if c not in stay]
            rng.shuffle(rest)
            for p, c in zip(free, rest, strict=True):
                new_order[p] = c
        return new_order

    def whole_ok(self, slots: list[int], fits: Any, legal_with: Any) -> bool:
        """The steps checked whole (a holding that other cards could make good); the
        answers are kept by hand (worlds repeat hands)."""
        cache = self.whole_cache
        if not self.whole_tables:
            for k, q, *_ in self.whole:  # which card is in the hand, by card and slot
                table = []
                for i, c in enumerate(self.cards):
                    if self.varies(c, k):
                        row = [self.present(c, s, k, q) for s in range(len(self.slot_sig))]
                        if any(row):
                            table.append((i, c, row))
                self.whole_tables.append(table)
        for n, (_, q, state, action, expect, fixed_part) in enumerate(self.whole):
            held = tuple(c for i, c, row in self.whole_tables[n] if row[slots[i]])
            key = (n, held)
            ok = cache.get(key)
            if ok is None:
                hand = [*fixed_part, *held]
                if expect is None:  # the legality alone
                    ok = legal_with(state, q, hand, action)
                else:
                    ok = fits(state, q, hand, action, expect)
                cache[key] = ok
            if not ok:
                return False
        return True


# ---------------------------------------------------------------- helpers
def _trump_card(deal: Deal | BoutDeal) -> int:
    """The card that set the trump suit as the cards were dealt (a turned-up card), or -1."""
    card = deal.turnup if isinstance(deal, Deal) else deal.trump_card
    if card >= 0 and deal.trump >= 0 and deal.game.suit_of[card] == deal.trump:
        return card
    return -1


def _splits(n: int, allowed: tuple[int, ...], left: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The ways to spread n cards over these groups, at most `left` in each (counts)."""
    if not allowed:  # cards with nowhere to go
        if n == 0:
            yield ()
        return
    if len(allowed) == 1:
        if left[allowed[0]] >= n:
            yield (n,)
        return
    rest = sum(left[g] for g in allowed[1:])
    for x in range(max(0, n - rest), min(n, left[allowed[0]]) + 1):
        for tail in _splits(n - x, allowed[1:], left):
            yield (x, *tail)


def _minus(
    left: tuple[int, ...], allowed: tuple[int, ...], split: tuple[int, ...]
) -> tuple[int, ...]:
    """The sizes left once the split is taken from the groups."""
    out = list(left)
    for g, n in zip(allowed, split, strict=True):
        out[g] -= n
    return tuple(out)


def _multinomial(sizes: list[int]) -> int:
    """The ways to split sum(sizes) things into groups of these sizes."""
    out, n = 1, 0
    for k in sizes:
        n += k
        out *= math.comb(n, k)
    return out


def _change(order: list[int], picks: dict[int, int], x: int, y: int) -> None:
    """A repair: two cards swapped, or (x = -1 - step) a hidden step's card set to y."""
    if x < 0:
        picks[-1 - x] = y
    else:
        _swap(order, picks, x, y)


def _swap(order: list[int], picks: dict[int, int], x: int, y: int) -> None:
    """Exchange two cards in a deck order and in the hidden picks."""
    if x == y:
        return
    i, j = order.index(x), order.index(y)
    order[i], order[j] = y, x
    for k, c in picks.items():
        if c == x:
            picks[k] = y
        elif c == y:
            picks[k] = x


def _places(deal: Deal | BoutDeal, size: int) -> list[Any]:
    """Where each card is now: a seat number for a hand, a name for a hidden heap, None when
    on the table or out of play for good (seen)."""
    where: list[Any] = [None] * size
    if isinstance(deal, Deal):
        for c in deal.talon:
            where[c] = "talon"
        for c in deal.stock:
            where[c] = "stock"
        if deal.turnup >= 0:
            where[deal.turnup] = "turnup"
        for c in deal.out:
            where[c] = "out"
        for c in deal.laid_away:
            where[c] = "laid"
        for s, cs in deal.set_aside.items():
            for c in cs:
                where[c] = f"aside{s}"
    else:
        for c in deal.stock:
            where[c] = "stock"
    for s, hand in enumerate(deal.hands):
        for c in hand:
            where[c] = s
    return where


_PLACES_SEEN = ("talon_shown", "talon_taken", "laid_away", "set_aside", "turnup", "trump_card")
_CARD_LISTS = ("hands", "talon", "stock", "out", "laid_away", "played")
_CARD_DICTS = ("received", "talon_taken", "start_hands", "set_aside")


class _Relabeller:
    """Copies of a reference deal with some of its cards renamed: only the attributes that
    hold such cards are rebuilt (found once)."""

    def __init__(self, ref: Deal | BoutDeal, cards: set[int], game: Game) -> None:
        self.ref = ref
        self.game = game
        self.lists = [n for n in _CARD_LISTS if _holds(getattr(ref, n, ()), cards)]
        self.dicts = [n for n in _CARD_DICTS if _holds(getattr(ref, n, None) or {}, cards)]
        passed = getattr(ref, "passed", None) or {}
        self.passed = _holds([cs for _, cs in passed.values()], cards)
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
                    g: (t, [m(c, c) for c in cs]) for g, (t, cs) in world.passed.items()
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


def _renamed(game: Game, action: Action, card: int) -> Action:
    """The same action with another card."""
    old = game.card_texts[action.card]
    words = [game.card_texts[card] if w == old else w for w in action.text.split(" ")]
    found = game.actions.parse(" ".join(words))
    if found is None:
        raise WorldsError(f"internal: no action like '{action.text}' for another card")
    return found


def _sightings(obs: Observation | BoutObservation) -> dict[str, tuple[str, ...]]:
    """The cards a view shows in places (not played), by place."""
    out: dict[str, tuple[str, ...]] = {"hand": tuple(sorted(obs.hand))}
    if isinstance(obs, Observation):
        out["talon_shown"] = tuple(obs.talon_shown or ())
        out["talon_taken"] = obs.talon_taken
        out["received"] = obs.received
        out["laid_away"] = obs.laid_away
        out["set_aside"] = obs.set_aside
        out["turnup"] = (obs.turnup,) if obs.turnup is not None else ()
        out["turned_up"] = (obs.turned_up,) if obs.turned_up is not None else ()
        for s, cs in obs.given:
            out[f"given{s}"] = cs
        for s, cs in obs.open_hands:
            out[f"open{s}"] = cs
    else:
        turned = _turned(obs)
        if turned is not None:  # where it was dealt (a swap moves it later)
            out["trump_card"] = (turned,)
    return out


def _turned(obs: Observation | BoutObservation) -> str | None:
    """The card turned up as the cards were dealt (before any swap or pickup)."""
    if isinstance(obs, Observation):
        return obs.turned_up if obs.turned_up is not None else obs.turnup
    return obs.turned_up if obs.turned_up is not None else obs.trump_card
