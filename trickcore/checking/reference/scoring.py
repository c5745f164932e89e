"""A replayed trick deal's result: the deal scores by the scoring rules, and the quantities
they read (card points with the cards set aside, melds that count, top trumps)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .deal_state import CONTRACT_GETS
from .errors import in_range
from .expressions import (
    COMBINATIONS,
    SEAT,
    SEATS,
    SIDE,
    STRAIN,
    TABLE,
    TAKEN,
    TRICKS,
    TRUMP,
    TURNUP,
)
from .finished_tricks import FinishedTricks
from .names_read import COMBINATION_NAMES, NamesRead


class CombinationsWhenRead(dict):  # type: ignore[type-arg]
    """A decision's names with `combination_points` and `best_combination` of the hand
    worked out only when an expression reads them (`tricks_played == 0 and
    best_combination > 0` reads them in the first trick alone)."""

    hand: list[int]
    replay: ReplayScoring

    def __missing__(self, key: str) -> Any:
        if key not in COMBINATION_NAMES and key != COMBINATIONS:  # nth_combination's
            raise KeyError(key)
        self.update(self.replay.ref.combination_names(self.hand, self.replay.trump))
        return self[key]


class ReplayScoring(FinishedTricks):
    """The deal's scores and result quantities, from the deal as the checker followed it."""

    def deal_scores(self) -> tuple[list[int], list[dict[str, Any]]]:
        """Each seat's deal score, and the names after_deal reads, from the replayed deal.

        The definitions are evaluated in dependency order, each for every player of the
        deal before the next (so that the aggregates see every player's value).
        """
        ref = self.ref
        seats = self.seats
        envs = [self.result_env(seat, definitions=False) for seat in range(seats)]
        table = [envs[seat] for seat in self.active]
        for seat in range(seats):
            side = [x for x in self.side(seat) if x in self.active or x == seat]
            envs[seat][TABLE] = table
            envs[seat][SIDE] = [envs[x] for x in side]
            envs[seat][SEATS] = envs
            envs[seat][SEAT] = seat
        others = [seat for seat in range(seats) if seat not in self.active]
        for name in ref.order:
            for seat in [*self.active, *others]:
                value = ref.eval(
                    ref.definitions[name],
                    envs[seat],
                    hand=self.start_hands.get(seat, []),
                    qualifier=self.qualifier,
                )
                envs[seat][name] = in_range(value, f"scoring definition '{name}'")
        gains = [0] * seats
        if "sitting_out" in ref.definitions:  # a seat not in the deal (S3)
            for seat in others:
                value = ref.eval(ref.definitions["sitting_out"], envs[seat], hand=[])
                gains[seat] = int(in_range(value, "scoring's sitting_out score"))
        for seat in self.active:
            if "player" in ref.definitions:
                rule = "player"
            else:
                rule = "declarer" if seat == self.declarer else "defender"
            value = ref.eval(
                ref.definitions[rule],
                envs[seat],
                hand=self.start_hands.get(seat, []),
                qualifier=self.qualifier,
            )
            gains[seat] = int(in_range(value, f"scoring's {rule} score"))
        return gains, envs

    def result_env(self, seat: int, definitions: bool = True, now: bool = False) -> dict[str, Any]:
        """The result quantities of a seat (at the end of the deal; `now`: as the deal
        stands, for a decision: card points of his tricks only), and, for one seat alone,
        the scoring definitions that need no other player."""
        ref = self.ref
        env: dict[str, Any] = {name: get(self, seat, now) for name, get in RESULT_NAMES}
        env.update(self._combinations(seat, now))
        env["meld_points"] = 0
        env[TAKEN] = self._taken(seat)
        env.update(self.contract_env(seat))
        env.update(self.context[seat])
        env[TRUMP] = self.trump  # holds_trump in scoring: over his hand as play began
        if ref.decisions_read_tricks if now else ref.scoring_reads_tricks:
            # sum_tricks: each finished trick (in scoring with the deal's sides at the end;
            # in a decision without them, which are secret)
            env[TRICKS] = self.trick_records(seat, sides=not now)
        counting = 0
        for who, mi, _, value in self.declarations:
            if who != seat:
                continue
            counts_if = ref.melds[mi].counts_if
            if counts_if is None or ref.eval(counts_if, env, qualifier=self.qualifier):
                counting += value
        env["meld_points"] = counting
        if definitions:
            env[TABLE] = env[SIDE] = env[SEATS] = [env]
            env[SEAT] = 0
            for name in ref.order:
                value = ref.eval(
                    ref.definitions[name],
                    env,
                    hand=self.start_hands.get(seat, []),
                    qualifier=self.qualifier,
                )
                env[name] = in_range(value, f"scoring definition '{name}'")
        return env

    def _combinations(self, seat: int, now: bool) -> dict[str, int]:
        """`combination_points` and `best_combination` of his hand (as it is now, for a
        decision; else as play began)."""
        hand = self.hands[seat] if now else self.start_hands.get(seat, [])
        return self.ref.combination_names(hand, self.trump)

    def _taken(self, seat: int) -> list[int]:
        """The cards in the tricks he won (`taken_suit`, `taken_card`)."""
        return [c for cards, winner, _ in self.tricks if winner == seat for _, c in cards]

    def _card_points(self, seat: int, now: bool) -> int:
        """His card points: of his tricks, and at the end of the deal the cards laid away
        and the talon left untaken when they count for him."""
        card_points = self.card_points[seat]
        if not now and seat == self.set_aside_owner():
            points = self.points()
            card_points += sum(points[c] for c in [*self.laid_away, *self.talon])
        return card_points

    def names_read(self, seat: int, reads: NamesRead) -> dict[str, Any]:
        """Of `decision_env(seat, others=False)`, the names in `reads` (and the keys the
        functions they call read): the same values, only those worked out."""
        results, extra, contract = _plan(reads.names)
        env: dict[str, Any] = {name: get(self, seat, True) for name, get in results}
        if reads.combinations:  # of his hand as it is, made when a rule reaches them
            env = CombinationsWhenRead(env)
            env.hand, env.replay = self.hands[seat], self
        if reads.taken:
            env[TAKEN] = self._taken(seat)
        for name, role in contract:  # of `contract_env`, the names read
            env[name] = role(self, seat)
        env[STRAIN] = self.strain
        context = self.context[seat]
        for name in reads.names:
            if name in context:
                env[name] = context[name]
        if reads.tricks:
            env[TRICKS] = self.trick_records(seat, sides=False)
        for name, named in extra:
            env[name] = named(self, seat)
        env[TRUMP] = self.trump
        env[TURNUP] = self.turnup  # turnup_rank(R)
        return env

    def names_key(self, seat: int, reads: NamesRead) -> tuple[Any, ...]:
        """The value of each name of `reads.key` in `names_read(seat, reads)` (NO_VALUE where
        it holds none), worked out alone, without making the names: a decision's names
        set his own values over the contract's, and over both the names of DECISION_NAMES,
        as `names_read` sets them."""
        plan = _KEY_PLANS.get(reads)
        if plan is None:
            results = dict(RESULT_NAMES)
            named = dict(DECISION_NAMES)
            roles = dict(CONTRACT_GETS)
            plan = _KEY_PLANS[reads] = tuple(
                (name, named.get(name), roles.get(name), results.get(name)) for name in reads.key
            )
        context = self.context[seat]
        out: list[Any] = []
        for name, decision_get, role_get, result_get in plan:
            if decision_get is not None:
                out.append(decision_get(self, seat))
            elif name in context:
                out.append(context[name])
            elif role_get is not None:
                out.append(role_get(self, seat))
            elif result_get is not None:
                out.append(result_get(self, seat, True))
            else:
                out.append(NO_VALUE)
        return tuple(out)

    def set_aside_owner(self) -> int:
        """Who gets the laid-away cards and the talon left untaken: the first player in deal
        order for whom `talon.counts_for_if` holds (-1: nobody)."""
        ref = self.ref
        if ref.counts_for_if is None or (not self.laid_away and not self.talon):
            return -1
        for seat in self.active:
            env = self.open_env(seat, ref.eval.reads_table(ref.counts_for_if))
            env.update(won_last_trick=self.won_last_trick(seat), contract=self.contract)
            if ref.eval(ref.counts_for_if, env, qualifier=self.qualifier):
                return seat
        return -1

    def top_trumps(self, seat: int) -> int:
        """Over his hand as play began and the talon cards counted for him: with the
        highest trump, his unbroken run of trumps from the top; without it, the trumps above
        his highest (all of them if he has none). Trumps by the relations at the end."""
        eff, power = self.relations()
        trumps = sorted(
            (c for c in range(self.ref.size) if eff[c] == self.ref.trump_id),
            key=lambda c: -power[c],
        )
        held: set[int] = set()
        owner = self.set_aside_owner()
        for member in self.side(seat):  # his side's cards together
            held.update(self.start_hands.get(member, ()))
            if member == owner:
                held.update(self.laid_away)
                held.update(self.talon)
        if not trumps:
            return 0
        with_top = trumps[0] in held
        run = 0
        for c in trumps:
            if (c in held) != with_top:
                break
            run += 1
        return run


_Get = Callable[[ReplayScoring, int, bool], Any]
# the result quantities of a seat, each worked out from the deal as the checker followed it
# (`now`: as the deal stands, for a decision); `result_env` sets them first, then the hand's
# combinations, the won cards, the contract, the player's own values and the trump over them
RESULT_NAMES: tuple[tuple[str, _Get], ...] = (
    ("card_points", lambda r, seat, now: r._card_points(seat, now)),
    ("tricks_won", lambda r, seat, now: r.tricks_won[seat]),
    ("tricks_total", lambda r, seat, now: r.tricks_total),
    ("tricks_played", lambda r, seat, now: len(r.tricks)),
    ("won_last_trick", lambda r, seat, now: r.won_last_trick(seat)),
    ("stock_closed", lambda r, seat, now: r.stock_closed),
    ("tricks_bid", lambda r, seat, now: max(r.tricks_bid[seat], 0)),
    ("bid_blind", lambda r, seat, now: r.bid_blind[seat]),
    ("contract", lambda r, seat, now: r.contract),
    ("declarer", lambda r, seat, now: seat == r.declarer),
    ("deck_points", lambda r, seat, now: sum(r.points())),
    ("all_melds", lambda r, seat, now: r.ref.all_melds),
    ("players", lambda r, seat, now: len(r.active)),
    ("seats", lambda r, seat, now: r.seats),
    ("seat", lambda r, seat, now: seat),
    ("position", lambda r, seat, now: r.active.index(seat) if seat in r.active else -1),
    ("melds_declared", lambda r, seat, now: sum(d[3] for d in r.declarations if d[0] == seat)),
    ("top_trumps", lambda r, seat, now: r.top_trumps(seat) if r.ref.reads_top_trumps else 0),
)
# what a decision reads besides (`decision_env`): set over his results and values
_Named = Callable[[ReplayScoring, int], Any]
NO_VALUE = object()  # a name a player's names do not hold (`names_key`)
# by what a decision reads: each name of its key with where `names_key` finds it
_KEY_PLANS: dict[NamesRead, tuple[tuple[str, _Named | None, _Named | None, _Get | None], ...]] = {}
DECISION_NAMES: tuple[tuple[str, _Named], ...] = (
    ("stock_left", lambda r, seat: r.stock_left()),
    ("stock_closed", lambda r, seat: r.stock_closed),
    ("hand_size", lambda r, seat: len(r.hands[seat])),
    ("turnup_suit", lambda r, seat: r.turnup_suit()),
    ("out_left", lambda r, seat: r.out_left()),
)
# the getters of the names a set of expressions reads, by its names (`names_read`)
_PLANS: dict[
    frozenset[str],
    tuple[
        tuple[tuple[str, _Get], ...],
        tuple[tuple[str, _Named], ...],
        tuple[tuple[str, _Named], ...],
    ],
] = {}


def _plan(
    names: frozenset[str],
) -> tuple[
    tuple[tuple[str, _Get], ...],
    tuple[tuple[str, _Named], ...],
    tuple[tuple[str, _Named], ...],
]:
    """Of RESULT_NAMES, DECISION_NAMES and the names of `contract_env`, those in `names`."""
    plan = _PLANS.get(names)
    if plan is None:
        plan = _PLANS[names] = (
            tuple((n, get) for n, get in RESULT_NAMES if n in names),
            tuple((n, get) for n, get in DECISION_NAMES if n in names),
            tuple((n, get) for n, get in CONTRACT_GETS if n in names),
        )
    return plan
