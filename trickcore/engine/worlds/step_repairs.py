"""Repairs of a replay that goes wrong: the card swaps (and hidden steps' cards) that may
make a refused step possible, hand the turn to the player the log names, or bring the cards
the seat sees into the places it sees them.

A repair is a tuple of pairs (x, y), applied by `change`: two cards swapped in the deck
order, or (x = -1 - step) the card of a hidden step set to y."""

from __future__ import annotations

from typing import Any

from ...language.errors import StuckError
from ..actions import Action
from ..bouts import BoutDeal
from ..deal import Deal
from ..observation import BoutObservation, Observation
from ..phases.passing import pass_moves
from .hand_probes import acting_hand, fits_with, legal_with, needed_cards
from .knowledge import with_card
from .places import card_places, sightings
from .replaying import LogReplay


class StepRepairs:
    """The repairs tried where a replay of the log fails (each drawn at random)."""

    def __init__(self, replay: LogReplay) -> None:
        self.replay = replay
        self.known = replay.known
        self.game = replay.game
        self.rng = replay.rng
        self.log = replay.log
        self.seats = replay.seats
        self.seat = replay.seat
        self.dealt_own = self.known.dealt_own()

    def _movable(self, card: int, where: list[Any] | None = None) -> bool:
        """Whether a repair may move the card: not one the seat saw lying in a place, nor
        (given `where`, the cards' places now) one of its own it was dealt, lying in its
        hand (it sees it there: moved to another hand, the seat's view is lost)."""
        if card in self.known.fixed:
            return False
        return where is None or where[card] != self.seat or card not in self.dealt_own

    def for_step(
        self, deal: Deal | BoutDeal, k: int, flow: bool = False, pick: int = -1
    ) -> list[tuple[int, int]]:
        """Swaps that may make step k's action possible (`flow`: the wrong player is to
        act; the cards of his action are brought into his hand, if it has any). `pick`: the
        card a hidden step took (a card passed unseen that a rule refused from that hand)."""
        rng = self.rng
        if k >= len(self.log):
            return self._flow_swap(deal, k) or self._random_swap(deal)
        s, text = self.log[k]
        action = self.known.action_at(k)
        if action is None and pick >= 0 and k in self.known.hidden_steps:
            action = self._hidden_action(deal, k, pick)
        if action is None or deal.is_over:
            return []
        h = s if flow else acting_hand(deal)
        if flow and not needed_cards(self.game, deal, action):
            return self._flow_swap(deal, k) or self._random_swap(deal)
        hand = deal.hands[h]
        needed = needed_cards(self.game, deal, action)
        missing = [c for c in needed if c not in hand]
        where = card_places(deal, len(deal.deck_order))
        outside = [
            c
            for c, p in enumerate(where)
            if p is not None and p != h and p != "turnup" and self._movable(c, where)
        ]
        unseen_outside = [c for c in outside if c in self.known.unseen]
        if missing:
            out = []
            spare = [c for c in hand if c not in needed]
            pool = (
                [c for c in spare if c in self.known.unseen]
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
        if legal_with(deal, h, keep, action):
            rng.shuffle(extra)
            culprits = []
            trial = list(keep)
            for c in extra:
                if legal_with(deal, h, [*trial, c], action):
                    trial.append(c)
                else:
                    culprits.append(c)
            out = []
            free = [c for c in unseen_outside if legal_with(deal, h, [*keep, c], action)]
            free = free or unseen_outside or outside
            for c in culprits:
                if free:
                    w = rng.choice(free)
                    free.remove(w)
                    out.append((c, w))
            return out
        # a card the seat saw elsewhere may be misplaced here: move it out (not one its view
        # shows where it saw it: a talon card taken into this hand came here rightly)
        if not legal_with(deal, h, [c for c in hand if c in needed], action):
            pass
        elif extra == [] or not legal_with(deal, h, keep, action):
            placed = self._seen_in_place(deal)
            seen_here = [c for c in keep if c not in needed and c not in placed]
            rng.shuffle(seen_here)
            trial = [c for c in hand if c in needed]
            blocking = []
            for c in seen_here:
                if legal_with(deal, h, [*trial, c], action):
                    trial.append(c)
                else:
                    blocking.append(c)
            if blocking and outside:
                return [(c, rng.choice(outside)) for c in blocking[:1]]
        # a holding is missing: bring in one card that helps, else two (a holding of two,
        # like the marriage a bid needs); first the cards the seat has not seen and those
        # the log shows leaving this hand later (moving another card it has seen only
        # breaks another step), then the others, then one of each (a king seen played
        # by another player later, given to him unseen, with a queen not seen); else swap
        # at random
        rng.shuffle(outside)
        pool = list(extra or hand)
        likely = [
            c for c in outside if c in self.known.unseen or self.known.played_after(c, k) == h
        ]
        others = [c for c in outside if c not in likely]
        for group in (likely, others):
            for z in group:
                if pool and legal_with(deal, h, [*hand, z], action):
                    return [(z, rng.choice(pool))]
            few = group[:12]
            if len(pool) >= 2:
                for i, z in enumerate(few):
                    for w in few[i + 1 :]:
                        if legal_with(deal, h, [*hand, z, w], action):
                            y1, y2 = rng.sample(pool, 2)
                            return [(z, y1), (w, y2)]
        if len(pool) >= 2:
            for z in likely[:12]:
                for w in others[:12]:
                    if legal_with(deal, h, [*hand, z, w], action):
                        y1, y2 = rng.sample(pool, 2)
                        return [(z, y1), (w, y2)]
        # what is refused may depend on a card lying elsewhere (a turned-up card)
        return self._random_swap(deal)

    def _hidden_action(self, deal: Deal | BoutDeal, k: int, pick: int) -> Action | None:
        """The action of hidden step k that moves `pick` (its kind from the legal actions
        shown the same way), or None."""
        if not isinstance(deal, Deal) or deal.is_over:
            return None
        s, text = self.log[k]
        try:
            legal = deal.legal_actions()
        except StuckError:
            return None
        for a in legal:
            if deal._seen_as(a, s, self.seat) == text and a.text != text:
                return with_card(self.game, a, pick)
        return None

    def _seen_in_place(self, deal: Deal | BoutDeal) -> set[int]:
        """The cards the seat's view of a deal shows in the place the observation shows
        them (a talon shown, a card turned up, an open hand)."""
        now = sightings(deal.observation(self.seat))
        want = sightings(self.replay.obs)
        return {
            self.known.card(t)
            for key, texts in want.items()
            for t in texts
            if t in now.get(key, ())
        }

    def _flow_swap(self, deal: Deal | BoutDeal, k: int) -> list[tuple[int, int]]:
        """A card brought into a hand so that the action before step k hands the turn to
        the player the log names (he must hold something to be asked)."""
        if k == 0 or k - 1 in self.known.hidden_steps:
            return []
        state = self.replay.new_deal(list(deal.deck_order))
        for _, a in deal.history[: k - 1]:
            state.legal_actions()
            state.apply(a)
        action = deal.history[k - 1][1]
        expect = (None, self.known.actor(k))
        where = card_places(deal, len(deal.deck_order))
        free = [c for c, p in enumerate(where) if p is not None and self._movable(c, where)]
        self.rng.shuffle(free)
        for q in self.rng.sample(range(self.seats), self.seats):
            hand = state.hands[q]
            for z in free[:12]:
                if z not in hand and fits_with(state, q, [*hand, z], action, expect):
                    out = [y for y in hand if self._movable(y, where)]
                    return [(z, self.rng.choice(out))] if out else []
        return []

    def heap_swaps(self, deal: Deal | BoutDeal) -> list[tuple[tuple[int, int], ...]]:
        """Exchanges of a card of a small hidden heap with a card of a hand."""
        where = card_places(deal, len(deal.deck_order))
        heaps: dict[Any, list[int]] = {}
        for c, p in enumerate(where):
            if isinstance(p, str) and self._movable(c):
                heaps.setdefault(p, []).append(c)
        small = [c for cs in heaps.values() if len(cs) <= 4 for c in cs]
        held = [c for c, p in enumerate(where) if type(p) is int and self._movable(c, where)]
        out: list[tuple[tuple[int, int], ...]] = [((x, y),) for x in small for y in held]
        return out[:60]

    def pick_changes(
        self, deal: Deal | BoutDeal, k: int, picks: dict[int, int]
    ) -> list[tuple[tuple[int, int], ...]]:
        """A card step k needs, given unseen to its hand earlier, or a card of its hand that
        forbids the step (a card of the suit led, not played), given or discarded unseen
        by this hand earlier: each earlier hidden action tried with that card (encoded
        (-1 - step, card), see `change`). A needed card is also swapped with the card an
        earlier hidden action took (it then lies in the giver's hand and goes the same
        way). When the card an earlier hidden action moved is itself the trouble (a card
        the step needs, given or discarded away; a card that forbids the step, given to
        this hand), that action is tried with each card its player holds now instead (a
        talon card the declarer gave away rather than the one he plays later)."""
        if k >= len(self.log):
            return []
        action = self.known.action_at(k)
        if action is None:
            return []
        h = acting_hand(deal)
        if deal.to_act != self.log[k][0] and self.log[k][0] >= 0:
            h = self.log[k][0]  # another player is to act: the one the log has act lacks a card
        hand = deal.hands[h]
        earlier = [j for j in sorted(self.known.hidden_steps) if j < k]
        missing = [c for c in needed_cards(self.game, deal, action) if c not in hand]
        out: list[tuple[tuple[int, int], ...]] = [((-1 - j, c),) for c in missing for j in earlier]
        out += [((c, picks[j]),) for c in missing for j in earlier if picks.get(j, c) != c]
        mine = [j for j in earlier if self.log[j][0] == h]
        blocking: list[int] = []
        if not missing and not legal_with(deal, h, list(hand), action):
            blocking = [c for c in hand if legal_with(deal, h, [x for x in hand if x != c], action)]
            out += [((-1 - j, c),) for c in blocking for j in mine]
        trouble = {*missing, *blocking}
        for j in earlier:
            if picks.get(j, -1) in trouble:
                out += [((-1 - j, y),) for y in deal.hands[self.log[j][0]] if y not in trouble]
        return out

    def unseen_swaps(
        self, deal: Deal | BoutDeal, n: int, focus: frozenset[int] = frozenset()
    ) -> list[tuple[int, int]]:
        """Up to `n` exchanges of two cards the seat has not seen that were dealt to two
        different places (to bring about what the rules worked out from the hands), those
        that move a card of `focus` first."""
        where = card_places(self.replay.new_deal(list(deal.deck_order)), len(deal.deck_order))
        free = [c for c in sorted(self.known.unseen) if self._movable(c) and where[c] is not None]
        pairs = [(x, y) for i, x in enumerate(free) for y in free[i + 1 :] if where[x] != where[y]]
        self.rng.shuffle(pairs)
        if focus:
            pairs.sort(key=lambda pair: pair[0] not in focus and pair[1] not in focus)
        return pairs[:n]

    def _random_swap(self, deal: Deal | BoutDeal) -> list[tuple[int, int]]:
        """Two cards of two hidden places exchanged (where the course of the deal depends on
        what the hands hold)."""
        where = card_places(deal, len(deal.deck_order))
        free = [c for c, p in enumerate(where) if p is not None and self._movable(c, where)]
        if len(free) < 2:
            return []
        x = self.rng.choice(free)
        others = [c for c in free if where[c] != where[x]]
        return [(x, self.rng.choice(others))] if others else []

    def _passed_received(self, world: Deal | BoutDeal, used: set[int]) -> list[tuple[int, int]]:
        """With cards passed back (`pass_cards { back: yes }`), the repairs of the cards
        passed to the seat, place by place: a card its giver held when he passed (dealt to
        him and not passed on, or passed to him before) becomes his hidden step's pick (x =
        -1 - step: see `change`); another is swapped into his dealt hand."""
        obs = self.replay.obs
        if not isinstance(world, Deal) or not world.passed or not isinstance(obs, Observation):
            return []
        seat = self.known.seat
        card = self.known.card
        want = [card(t) for t in obs.received]
        stages = [world.passed, world.passed_back]
        moved = [
            (g, c, n)
            for n, st in enumerate(stages)
            for g, t, cs in pass_moves(st)
            if t == seat
            for c in cs
        ]
        first = len(want) - len(moved)
        if first < 0:
            return []
        dealt = card_places(self.replay.new_deal(list(world.deck_order)), len(world.deck_order))
        hidden = sorted(self.known.hidden_steps)
        out: list[tuple[int, int]] = []
        face = self.game.model.deck.faces
        copies = self.game.model.deck.cards_of_face
        for (giver, have, stage), x in zip(moved, want[first:], strict=True):
            if face[x] == face[have] or have in used:
                continue
            gave = [c for _, cs in world.passed.get(giver, ()) for c in cs]
            got = [c for _, t, cs in pass_moves(world.passed) if t == giver for c in cs]
            held = [
                y
                for y in copies[face[x]]
                if y not in used
                and ((dealt[y] == giver and y not in gave) or (stage == 1 and y in got))
            ]
            steps = [
                k for k in hidden if self.log[k][0] == giver and world.history[k][1].card == have
            ]
            if held and steps:
                out.append((-1 - steps[-1], held[0]))
                used.update((held[0], have))
            else:  # with copies, the copy the seat's knowledge labels its own, if held
                mine = [y for y in copies[face[x]] if y in self.known.hand_cards and y not in used]
                y = mine[0] if mine else x
                if y not in used:
                    out.append((y, have))
                    used.update((y, have))
        return out

    def view_repairs(
        self, view: Observation | BoutObservation, world: Deal | BoutDeal | None = None
    ) -> list[tuple[int, int]]:
        """Swaps bringing the cards the seat sees into the places it sees them (each card
        in one swap at most; a place shown in order is put in order). With copies of cards
        (`deck { copies: N }`) the hand is compared card by card in `world`: the copies the
        seat's knowledge labels its own against the ones it holds there."""
        out: list[tuple[int, int]] = []
        used: set[int] = set()
        mine, theirs = sightings(view), sightings(self.replay.obs)
        copies = self.game.copies and world is not None
        tricks = self.game.model.tricks
        by_card = tricks is not None and tricks.play.open_cards
        keys = sorted(set(mine) | set(theirs))
        if self.known.passes_back:  # the cards passed back: their picks before the hand
            keys.sort(key=lambda key: key != "received")
        for key in keys:
            if by_card and key.startswith("open"):
                continue  # cards a rule lays face up one by one: moved by `unseen_swaps`
            want = [self.known.card(t) for t in theirs.get(key, ())]
            have = [self.known.card(t) for t in mine.get(key, ())]
            if copies and key == "hand" and world is not None:
                want = sorted(self.known.hand_cards)
                have = sorted(world.hands[self.known.seat])
            missing = [c for c in want if c not in have]
            extra = [c for c in have if c not in want]
            if key == "received" and world is not None and self.known.passes_back:
                out += self._passed_received(world, used)
                continue
            if not missing and not extra:  # the same cards in another order
                pairs = [(x, y) for x, y in zip(want, have, strict=False) if x != y][:1]
            else:
                self.rng.shuffle(extra)
                pairs = list(zip(missing, extra, strict=False))
                if not extra:
                    pool = [c for c in self.known.unseen if c not in used]
                    self.rng.shuffle(pool)
                    pairs = list(zip(missing, pool, strict=False))
            for x, y in pairs:
                if x not in used and y not in used:
                    out.append((x, y))
                    used.update((x, y))
        return out


def change(order: list[int], picks: dict[int, int], x: int, y: int) -> None:
    """A repair: two cards swapped, or (x = -1 - step) a hidden step's card set to y."""
    if x < 0:
        picks[-1 - x] = y
    else:
        swap(order, picks, x, y)


def swap(order: list[int], picks: dict[int, int], x: int, y: int) -> None:
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
