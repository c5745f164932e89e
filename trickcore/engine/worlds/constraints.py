"""The slots and constraints of the worlds that agree with a world's first steps, found by
probing the engine at every past action (see the package's docstring, steps 2 and 3): the
model to draw worlds from, or to repair a replay with."""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..bouts import BoutDeal
from ..deal import Deal
from .errors import WorldsError
from .hand_probes import acting_hand, fits_with, fits_with_hands, legal_with, needed_cards
from .places import PLACES_SEEN, card_places, deal_values, sightings, trump_card
from .replaying import LogReplay
from .slot_model import SlotModel


class ModelBuilder:
    """Builds the `SlotModel` of a world's first steps for one seat's log."""

    def __init__(self, replay: LogReplay) -> None:
        self.replay = replay
        self.known = replay.known
        self.game = replay.game
        self.seat = replay.seat
        self.seats = replay.seats
        self.log = replay.log

    def build(self, world: Deal | BoutDeal, upto: int, failed: str = "illegal") -> SlotModel | None:
        """The slots and constraints of the worlds that agree with `world`'s first `upto`
        steps (all steps: the sampling model). With upto < the log's length, the action at
        step `upto` (refused in `world`) must become possible: its cards in the acting hand,
        and no card the obligations rule out there. None when that cannot be said."""
        order = list(world.deck_order)
        size = len(order)
        steps = upto
        actions = [a for _, a in world.history[:upto]]
        deal = self.replay.new_deal(list(order))
        m = SlotModel(order, upto)
        m.fixed = set(self.known.fixed)
        # cards the seat was dealt or drew, known, and placed so by the replay so far
        m.fixed.update(c for k, cs in self.known.draws.items() if k <= upto for c in cs)
        m.seen_played = {c: k for c, k in self.known.seen_played.items() if k < upto}
        m.seen_played.update(dict.fromkeys(self.known.own, 0))
        places = m.places
        probes: list[tuple[int, Deal | BoutDeal, Action, tuple[Any, ...]]] = []
        card = self.game._card_by_text
        text_of = self.game.card_texts
        shown_now: dict[int, set[str]] = {}  # the cards each open hand shows at the end
        for k in range(steps + 1):
            places.append(card_places(deal, size))
            if upto == len(self.log):  # the places seen on the way, as in this world
                for place, texts in sightings(deal.observation(self.seat)).items():
                    if place in PLACES_SEEN:
                        m.fixed.update(card[t] for t in texts)
                    elif place.startswith("open"):  # the copies lying there in this world
                        s, shown = int(place[4:]), set(texts)
                        m.fixed.update(c for c in deal.hands[s] if text_of[c] in shown)
                        if k == steps:
                            shown_now[s] = shown
            if k == steps:
                break
            action = actions[k]
            before = _clone(deal)
            deal.legal_actions()
            deal.apply(action)
            if before is not None:
                # the next action must stay legal too: applying this one may work out
                # what it reads (a bid's cap from the hand)
                follow = tuple(
                    (self.log[j][0], actions[j], j in self.known.hidden_steps)
                    for j in range(k + 1, min(k + 9, steps))
                )
                probes.append(
                    (k, before, action, (deal.phase, deal.to_act, follow, deal_values(deal)))
                )
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
        hidden_moved = {c for c, (k, _) in fate.items() if k in self.known.hidden_steps}
        final = upto == len(self.log)
        for c in list(m.seen_played):
            if c in hidden_moved or (c not in fate and c not in self.known.own):
                m.fixed.add(c)  # first moved unseen: kept where it is
                del m.seen_played[c]
            elif c not in fate:
                del m.seen_played[c]
                # the seat's own card, still where its hand went; before the end (building
                # the first world), kept in the seat's hand when it lies there
                if final or places[steps][c] == self.seat:
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
        turned = trump_card(self.replay.new_deal(list(order)))
        trump_slot = m.slot_of_card.get(turned, -1)
        forbid: dict[int, list[tuple[int, int]]] = {}
        require: dict[int, list[tuple[int, int]]] = {}
        # no rule tells the copies of a card apart, so a hand that shows one shows every
        # copy it holds: the other copies of a card shown there are elsewhere
        for s, shown in shown_now.items():
            for c in range(size):
                if c not in m.fixed and text_of[c] in shown:
                    forbid.setdefault(c, []).append((steps, s))
        # in trick play, a changed hand's next action is judged at its own step (see
        # `fits_with_hands`): the states there, to see the situation is the same
        states = {k: state for k, state, _, _ in probes}
        for k, state, action, expect in probes:
            if state.phase == "play":
                refs = tuple(states.get(j) for j in range(k + 1, k + 1 + len(expect[2])))
                expect = (*expect, refs)
            self._probe(m, k, state, action, expect, forbid, require)
        if upto < len(self.log):
            if failed == "illegal":
                if not self._probe_failed(m, world, upto, forbid, require):
                    return None
            elif upto in self.known.hidden_steps or not self._probe_flow(
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
        m: SlotModel,
        k: int,
        state: Deal | BoutDeal,
        action: Action,
        expect: tuple[Any, ...],
        forbid: dict[int, list[tuple[int, int]]],
        require: dict[int, list[tuple[int, int]]],
    ) -> None:
        """Ask the engine, at step k, which cards could (not) have been in each hidden hand:
        the action must stay legal and the deal go on the same way."""
        self.replay.check_time()
        needed = set(needed_cards(self.game, state, action))
        varies = [c for c in m.movable if m.varies(c, k) and c not in needed]
        known: dict[tuple[int, frozenset[int]], bool] = {}

        def fits(
            state: Deal | BoutDeal, q: int, hand: list[int], action: Action, expect: Any
        ) -> bool:
            key = (q, frozenset(hand))  # the same hand is asked about more than once
            found = known.get(key)
            if found is None:
                found = known[key] = fits_with(state, q, hand, action, expect)
            return found

        # a card a later action of the hand plays, gives or shows: without it that action
        # is refused whatever other card the hand holds instead, when no card has a twin
        # (`copies`) and no value the rules keep depends on the hand (see `fits_with`)
        later_cards = (
            isinstance(state, Deal)
            and self.game.model.deck.plain
            and not self.game.model.deal.keep
            and len(expect) > 2
        )

        def needed_later(q: int, hand: list[int], x: int) -> bool:
            """The hand without x fails at a later action of its own that takes x."""
            at: list[int] = []
            key = (q, frozenset(hand))
            if key in known:
                return False
            known[key] = fits_with(state, q, hand, action, expect, at)
            if known[key] or not at:
                return False
            actor, after, _ = expect[2][at[0]]
            return actor == q and after.card == x

        acting = acting_hand(state)
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
            broke = bool(outside) and not fits(state, q, [*hand, *outside], action, expect)
            if broke:
                for c in outside:
                    if not fits(state, q, [*hand, c], action, expect):
                        banned.add(c)
                if len(banned) == len(outside):  # the hand's size matters: swap instead
                    broke = False  # (not cards together: their number)
                    banned = {
                        c
                        for c in outside
                        if not any(
                            fits(state, q, [y if y != x else c for y in hand], action, expect)
                            for x in inside
                        )
                    }
            # no card alone breaks the step, but some together do (a value the rules work
            # out from several cards: both red aces held): each world is checked whole
            rest = [c for c in outside if c not in banned]
            together = broke and bool(rest) and not fits(state, q, [*hand, *rest], action, expect)
            for c in banned:
                forbid.setdefault(c, []).append((k, q))
            whole = together
            by_flow = together
            if not fits(state, q, [c for c in hand if c not in inside], action, expect):
                for x in inside:
                    rest = [c for c in hand if c != x]
                    if later_cards and needed_later(q, rest, x):
                        require.setdefault(x, []).append((k, q))  # no other card will do
                        continue
                    if fits(state, q, rest, action, expect):
                        continue
                    failing = {y for y in outside if not fits(state, q, [*rest, y], action, expect)}
                    if len(failing) == len(outside):
                        require.setdefault(x, []).append((k, q))
                    elif not failing <= banned:
                        whole = True
                        by_flow = by_flow or legal_with(state, q, rest, action)
                # a holding any of several could make (a bid needing some meld): whole
                needed_here = {x for x in inside if (k, q) in require.get(x, ())}
                kept = [c for c in hand if c not in inside or c in needed_here]
                if not whole and not fits(state, q, kept, action, expect):
                    whole = True
                    by_flow = by_flow or legal_with(state, q, kept, action)
            if whole:
                fixed_part = [c for c in hand if not m.varies(c, k)]
                expect_or_none = expect if by_flow else None
                m.whole.append((k, q, state, action, expect_or_none, fixed_part))

    def _probe_failed(
        self,
        m: SlotModel,
        world: Deal | BoutDeal,
        k: int,
        forbid: dict[int, list[tuple[int, int]]],
        require: dict[int, list[tuple[int, int]]],
    ) -> bool:
        """Constraints that make the refused action of step k possible: its cards in the
        acting hand, and none of the cards that rule it out. False: none found."""
        action = self.known.action_at(k)
        if action is None:
            return False
        h = acting_hand(world)
        hand = world.hands[h]
        needed = needed_cards(self.game, world, action)
        for x in needed:
            if not m.varies(x, k) and x not in hand:
                return False
            require.setdefault(x, []).append((k, h))
        minimal = [c for c in hand if not m.varies(c, k)]
        minimal += [c for c in needed if c not in minimal]
        if not legal_with(world, h, minimal, action):
            return False
        for c in m.movable:
            if c not in needed and m.varies(c, k):
                if not legal_with(world, h, [*minimal, c], action):
                    forbid.setdefault(c, []).append((k, h))
        return True

    def _probe_flow(
        self,
        m: SlotModel,
        state: Deal | BoutDeal,
        action: Action,
        k: int,
        forbid: dict[int, list[tuple[int, int]]],
    ) -> bool:
        """Constraints under which the action of step k hands the turn to the player the
        log names next (the course of the deal depends on what the hands hold): the cards
        that would change it are ruled out. False: none found."""
        expect = (None, self.known.actor(k + 1))
        needed = set(needed_cards(self.game, state, action))
        hidden = [q for q in range(self.seats) if any(m.varies(c, k) for c in state.hands[q])]
        minimal = {
            q: [c for c in state.hands[q] if not m.varies(c, k) or c in needed] for q in hidden
        }
        if not fits_with_hands(state, minimal, action, expect):
            # the hands cannot simply be emptied (their sizes matter): the single cards
            # whose absence sets the course right are ruled out there
            found = False
            for q in hidden:
                for c in state.hands[q]:
                    if m.varies(c, k) and c not in needed:
                        rest = [x for x in state.hands[q] if x != c]
                        if fits_with_hands(state, {q: rest}, action, expect):
                            forbid.setdefault(c, []).append((k, q))
                            found = True
            return found
        for q in hidden:
            for c in m.movable:
                if c in needed or not m.varies(c, k) or c in minimal[q]:
                    continue
                hands = dict(minimal)
                hands[q] = [*minimal[q], c]
                if not fits_with_hands(state, hands, action, expect):
                    forbid.setdefault(c, []).append((k, q))
        return True


def _clone(deal: Deal | BoutDeal) -> Deal | BoutDeal:
    """A copy of a deal (of its own class)."""
    return deal.clone()  # type: ignore[return-value]
