"""The information invariants: another world consistent with what a seat has seen (two cards
hidden from it swapped, the public history replayed) looks the same to it."""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ...engine.actions import Action
from ...engine.bouts import BoutDeal
from ...engine.deal import Deal
from ...engine.game import Game
from ...language.errors import IllegalActionError, StuckError
from ...language.syntax import names_in
from ..reference.expressions import calls_in
from ..reference.variant import Reference
from ..reference.views import reads_cards
from .violations import Found


@attrs.define
class _Twin:
    """Another world for one seat: the deal with two cards hidden from the seat swapped."""

    seat: int
    a: int
    b: int
    deal: Deal | BoutDeal


class InformationChecks:
    """No leak and a complete observation, at the steps the checker compares worlds: for each
    seat compared, in other worlds it cannot tell from the deal, the same seat is to act, it
    sees the same observation and it has the same legal actions. The worlds are kept up to
    date at every step (`follow`), compared or not.
    """

    def __init__(self, game: Game, ref: Reference, worlds: int, every_seat: bool) -> None:
        self.game = game
        self.ref = ref
        self.worlds = worlds
        self.every_seat = every_seat
        bouts = game.model.bouts
        # rules that make whose turn it is depend on cards, on purpose (public facts): in
        # bouts, skipping who cannot add; in trick games, decisions between phases offered
        # by what a hand holds (being asked tells it), the rounds of offers before a card
        # (who is offered a decision, and what he decides, tells his side), a first leader
        # chosen by a rule over the hands
        self._public_turns = bouts is not None and (
            bouts.skip_unable or bouts.first_attacker is not None
        )
        hand_functions = {"count_rank", "count_suit", "holds", "count_card", "holds_trump"}
        self._public_turns = (
            self._public_turns
            or any(
                d.offer_if is not None
                and not set(d.at) & {"lead", "play", "card"}
                and bool(hand_functions & set(calls_in(d.offer_if)))
                for d in self.ref.decisions
            )
            or bool(self.ref.card_decisions)
            or (
                self.ref.leader_rule is not None
                and bool(hand_functions & set(calls_in(self.ref.leader_rule)))
            )
        )
        # rules that set deal values from what a hand holds (an announcement of a king and
        # queen of trumps, a declaration stated): the values are public facts, so a world whose
        # values differ is one the seat can tell apart, and is not compared
        self._public_values = self._public_turns or any(
            _reads_hand(e)
            for step in (*self.ref.after_card, *(st for d in self.ref.decisions for st in d.steps))
            for e in (step.condition, *(a.expr for a in step.assigns))
            if e is not None
        )
        self._deal_values = tuple(name for name, _ in self.ref.deal_keep)
        # cards a rule lays face up one by one (what the hands hold decides which): a world
        # showing others is one the seat tells apart; a whole hand shown is compared as is
        rule = self.ref.open_hand_if
        self._open_hands = rule is not None and reads_cards(rule)
        # a player's deal values, as a tuple (of one value or none, a tuple all the same)
        values = self._deal_values
        self._values_of: Callable[[dict[str, Any]], Any] = (
            operator.itemgetter(*values) if values else (lambda context: ())
        )
        self._rng = random.Random(0)  # the run's own (start_run)
        self._turn = 0
        self._skipped = False
        self._twins: dict[int, list[_Twin]] = {}
        self._shapes: list[tuple[Any, ...]] = []
        self._deal: Deal | BoutDeal | None = None  # the deal followed (record_shape)
        self._seen: list[set[int]] = []
        self._obs: dict[int, Any] = {}  # observations of this step, made once

    def start_run(self, seed: int) -> None:
        """A new run from `seed`: the worlds' own random stream, the seat in turn."""
        self._rng = random.Random(seed ^ 0x5EED)
        self._turn = seed
        self._skipped = False

    def start_deal(self, seen: list[set[int]]) -> None:
        """A new deal: no other worlds yet; `seen` is the cards each seat has seen (kept up to
        date by the deal's followers)."""
        self._twins = {}
        self._shapes = []
        self._seen = seen

    def start_step(self) -> None:
        """A new step: the observations made for it are made again."""
        self._obs = {}

    def observed(self, seat: int) -> bool:
        """Whether `seat`'s observation was made at this step."""
        return seat in self._obs

    def seats_due(self, deal: Deal | BoutDeal) -> Sequence[int]:
        """The seats whose worlds are compared at this step: every seat, or one in turn."""
        self._turn += 1
        return range(deal.seats) if self.every_seat else self._next_seat(deal)

    def record_shape(self, deal: Deal | BoutDeal) -> None:
        """The public course of the deal before the action about to be taken."""
        self._shapes.append(self._shape(deal))
        self._deal = deal

    def follow(self, seat: int, action: Action) -> None:
        """Take every other world one step on by the action `seat` took (each once, however
        many seats share it); drop those no longer hidden or consistent."""
        k = len(self._shapes) - 1
        owners: dict[int, set[int]] = {}
        for twins in self._twins.values():
            seen = self._seen
            twins[:] = [t for t in twins if t.a not in seen[t.seat] and t.b not in seen[t.seat]]
            for twin in twins:
                owners.setdefault(id(twin.deal), set()).add(twin.seat)
        moved: dict[int, bool] = {}
        for twins in self._twins.values():
            for twin in twins:
                key = id(twin.deal)
                if key not in moved:
                    moved[key] = self._advance(twin, owners[key], seat, action, k)
            twins[:] = [
                t
                for t in twins
                if moved[id(t.deal)]
                and t.a not in self._seen[t.seat]
                and t.b not in self._seen[t.seat]
            ]

    def check(self, deal: Deal | BoutDeal, legal: Sequence[Action], seats: Sequence[int]) -> None:
        """For these seats: another world consistent with what each has seen looks the same."""
        mine = [a.text for a in legal]
        for seat in seats:
            hidden = set(self._hidden(deal, seat))
            twins = self._twins.setdefault(seat, [])
            twins[:] = [
                t
                for t in twins
                if t.a in hidden
                and t.b in hidden
                and (not self._public_values or self._shape(t.deal) == self._shape(deal))
            ]
            if len(twins) < self.worlds:
                self._adopt(deal, seat, hidden, twins)
            while len(twins) < self.worlds:
                twin = self._new_twin(deal, seat, sorted(hidden))
                if twin is None:
                    break
                twins.append(twin)
            if not twins:
                continue
            obs = self.observation(deal, seat)
            shown = getattr(obs, "open_hands", None)
            told_apart = []
            for twin in twins:
                pair = f"{self.game.card_text(twin.a)} and {self.game.card_text(twin.b)}"
                theirs_obs = twin.deal.observation(seat)
                if self._open_hands and getattr(theirs_obs, "open_hands", None) != shown:
                    # the cards a rule lays face up are public: a world showing others is
                    # one the seat tells apart, and is compared no more
                    told_apart.append(twin)
                    continue
                if twin.deal.to_act != deal.to_act:
                    raise Found(
                        "no leak",
                        f"whose turn it is depends on cards hidden from seat {seat} "
                        f"({pair} swapped: seat {twin.deal.to_act} instead of {deal.to_act})",
                    )
                if theirs_obs != obs:
                    raise Found(
                        "no leak",
                        f"seat {seat}'s observation changed when two cards hidden from it "
                        f"({pair}) were swapped",
                    )
                if deal.to_act == seat:
                    try:
                        theirs = [a.text for a in twin.deal.legal_actions()]
                    except StuckError:
                        theirs = []
                    if theirs != mine:
                        raise Found(
                            "observation complete",
                            f"seat {seat}'s legal actions are not computable from its "
                            f"observation: with {pair} swapped they are {theirs}, not {mine}",
                        )
            if told_apart:
                twins[:] = [t for t in twins if t not in told_apart]

    def observation(self, deal: Deal | BoutDeal, seat: int) -> Any:
        """The deal's observation for `seat` at this step (made once)."""
        obs = self._obs.get(seat)
        if obs is None:
            obs = self._obs[seat] = deal.observation(seat)
        return obs

    def _hidden(self, deal: Deal | BoutDeal, seat: int) -> list[int]:
        """The cards `seat` has not seen in this deal (other hands, talon, stock)."""
        seen = self._seen[seat]
        if isinstance(deal, BoutDeal):
            seen.update(deal.hands[seat])
        return [c for c in range(self.game.model.deck.size) if c not in seen]

    def _next_seat(self, deal: Deal | BoutDeal) -> list[int]:
        """The seat whose worlds are compared now when it is one seat in turn: the next in
        turn that still has a world it cannot tell apart (a world that has followed the deal
        so far costs nothing to compare); when none has, at every second such step the seat
        to act (a new world is made, replaying the deal: the cost of these checks)."""
        n = deal.seats
        for k in range(n):
            seat = (self._turn + k) % n
            if self._twins.get(seat):
                return [seat]
        self._skipped = not self._skipped
        if self._skipped:
            return []
        return [deal.to_act if deal.to_act >= 0 else self._turn % n]

    def _adopt(
        self, deal: Deal | BoutDeal, seat: int, hidden: set[int], twins: list[_Twin]
    ) -> None:
        """Share another seat's world whose two swapped cards are hidden from `seat` too:
        it is the world a new twin of that pair would replay to (it has followed the same
        actions, each legal there, with the same seat to act)."""
        have = {id(t.deal) for t in twins}
        for other in self._twins.values():
            for t in other:
                if len(twins) >= self.worlds:
                    return
                if (
                    id(t.deal) not in have
                    and t.a in hidden
                    and t.b in hidden
                    and (not self._public_values or self._shape(t.deal) == self._shape(deal))
                ):
                    twins.append(_Twin(seat, t.a, t.b, t.deal))
                    have.add(id(t.deal))

    def _new_twin(self, deal: Deal | BoutDeal, seat: int, hidden: list[int]) -> _Twin | None:
        """A world where two cards hidden from `seat` are swapped, with the deal replayed."""
        if len(hidden) < 2:
            return None
        rank = self.ref.eval.rank
        # two cards of one hand swapped give the same hands: such a world tells nothing
        holder = {c: s for s, hand in enumerate(deal.hands) for c in hand}
        for attempt in range(3):
            a = self._rng.choice(hidden)
            apart = [
                c for c in hidden if c != a and (c not in holder or holder[c] != holder.get(a))
            ]
            if not apart:
                continue
            b = self._rng.choice(apart)
            if attempt == 0 and self._public_turns:
                # cards of one rank change no public fact of D6 (who can add): try them first
                same = [c for c in apart if rank(c) == rank(a)]
                if same:
                    b = self._rng.choice(same)
            order = list(deal.deck_order)
            i, j = order.index(a), order.index(b)
            order[i], order[j] = order[j], order[i]
            world = self.game.make_deal(order, deal.dealer, deal.seats, deal.context)
            if world.is_over:  # void as dealt (forced_if): the real deal shows it is not
                continue
            twin = _Twin(seat, a, b, world)
            if all(
                self._advance(twin, {seat}, actor, action, k)
                for k, (actor, action) in enumerate(deal.history)
            ) and (not self._public_values or self._shape(twin.deal) == self._shape(deal)):
                return twin
        return None

    def _shape(self, deal: Deal | BoutDeal) -> tuple[Any, ...]:
        """The public course of the deal: who acts in which phase, table and hand sizes, the
        deal values."""
        if isinstance(deal, BoutDeal):
            return (
                deal.to_act,
                deal.phase,
                deal.bouts,
                deal.taking,
                len(deal.table),
                tuple(len(h) for h in deal.hands),
                len(deal.stock),
                tuple(deal.in_game),
            )
        # the deal values are public (a decision's rules may tell what its taker holds)
        context = deal.context
        return (deal.to_act, deal.phase, *map(self._values_of, [context[s] for s in deal.active]))

    def _advance(self, twin: _Twin, owners: set[int], actor: int, action: Action, k: int) -> bool:
        """Take the same action (its hidden cards swapped) in the other world.

        `owners` are the seats that cannot tell the world apart from the deal (the two
        swapped cards hidden from each); `k` is the action's index in the deal. False when
        the world turns out not to be consistent with what was public: another player's
        action impossible there, or a course of play that the rules make depend on cards on
        purpose (D6 skip_unable).
        """
        world = twin.deal
        if self._public_values and self._shape(world) != self._shapes[k]:
            return False
        pair = self._pair_text
        if world.to_act != actor:
            if self._public_turns:
                return False
            raise Found(
                "no leak",
                f"whose turn it is depends on cards hidden from seat {min(owners)} "
                f"({pair(twin)} swapped)",
            )
        mapped = self._mapped(action, twin.a, twin.b)
        real = self._deal
        try:
            world.apply(mapped)
        except (IllegalActionError, StuckError):  # not legal there, or no action at all
            if actor in owners:
                raise Found(
                    "observation complete",
                    f"seat {actor}'s action '{action.text}' is not legal in a world it cannot "
                    f"tell apart ({pair(twin)} swapped)",
                ) from None
            return False
        if mapped is not action and isinstance(world, Deal) and isinstance(real, Deal):
            # a card laid away in view of all (`lay_away_shown_if`): a world where the
            # action shows and the deal where it does not are told apart (and the reverse)
            for o in owners:
                if (world._seen_as(mapped, actor, o) == mapped.text) != (
                    real._seen_as(action, actor, o) == action.text
                ):
                    return False
        return True

    def _pair_text(self, twin: _Twin) -> str:
        return f"{self.game.card_text(twin.a)} and {self.game.card_text(twin.b)}"

    def _mapped(self, action: Action, a: int, b: int) -> Action:
        def m(c: int) -> int:
            return b if c == a else a if c == b else c

        table = self.game.actions
        kind = action.kind
        if kind == "pass_card" and action.card in (a, b):
            return table.pass_card[m(action.card)]
        if kind == "discard" and action.card in (a, b):
            return table.discard[m(action.card)]
        if kind in ("play", "marry", "give") and action.card in (a, b):
            if kind == "play":
                return table.play[m(action.card)]
            if kind == "marry":
                return table.marry[m(action.card)]
            return table.give[m(action.card)][action.to]
        if action.cards and (a in action.cards or b in action.cards):
            cards = tuple(m(c) for c in action.cards)
            if kind == "attack":
                cards = tuple(sorted(cards))
            return table.bout(kind, cards)
        return action


# what a hand holds, as an expression reads it
_HAND_FUNCTIONS = frozenset({"count_rank", "count_suit", "holds", "count_card", "holds_trump"})
_HAND_NAMES = frozenset({"combination_points", "best_combination", "melds_in_hand", "top_trumps"})


def _reads_hand(expr: Any) -> bool:
    """Whether an expression reads what a hand holds."""
    return bool(_HAND_FUNCTIONS & set(calls_in(expr)) or _HAND_NAMES & set(names_in(expr)))
