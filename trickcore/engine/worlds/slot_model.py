"""The counting and drawing model of the hidden worlds: the slots of a reference world's
first steps (deck positions whose cards go the same way), the slots each card may take, the
exact count of the assignments of cards to slots, and uniform draws from it (see the
package's docstring, steps 2 to 4)."""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterator
from typing import Any

from ..actions import Action
from .errors import WorldsError

_MAX_STATES = 400_000  # entries of the counting table before giving up on exact counting


class SlotModel:
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

    def draw(self, rng: random.Random) -> list[int]:
        """A uniformly drawn slot for each card of `cards`: row by row (cards allowed in
        the same groups), how many go to each group, drawn with the counts as weights;
        which of them go where, at random; then each group split among its slots."""
        choices = self.choices
        random_ = rng.random
        left = self.caps
        groups = [0] * len(self.cards)
        start = 0
        for j, (allowed, cards) in enumerate(self.rows):
            got = choices.get((j, left))
            if got is None:
                got = self.options(j, left)
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
        return self.split(groups, rng)

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
