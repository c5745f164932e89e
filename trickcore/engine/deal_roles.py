"""The players' roles in a trick deal: sides and partners, and the names the rules of a
player's role read (`sit_out_if`, `side_if`, `open_hand_if`, the contract as all know it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..language.exprs import (
    HAND_KEY,
    QUALIFIER_KEY,
    SIDE_KEY,
    TABLE_KEY,
    TRUMP_KEY,
)

if TYPE_CHECKING:
    pass


from .deal_core import DealCore

# the names of a seat's role in the contract (`contract_env`)
ROLE_CONTRACT = frozenset(
    {"contract", "doubled", "redoubled", "bid_round", "declarer_side", "side", "dealer"}
)


class LaterList:
    """A list worked out the first time it is read (the aggregates' view of the table)."""

    __slots__ = ("_make", "_items")

    def __init__(self, make: Callable[[], list[dict[str, Any]]]) -> None:
        self._make: Callable[[], list[dict[str, Any]]] | None = make
        self._items: list[dict[str, Any]] = []

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._make is not None:
            self._items = self._make()
            self._make = None
        return iter(self._items)


class DealRoles(DealCore):
    """A trick deal with its players' roles (see the module docstring)."""

    __slots__ = ()

    def form_sides(self) -> None:
        """`play.side_if`, as trick play begins: the players for whom it holds (over his
        role and his hand as play begins) form one side, the others the other; a seat
        sitting the deal out is a side of his own."""
        play = self.rules.play
        rule = play.side_if
        assert rule is not None
        seats = self.seats
        side_of = list(range(seats))
        active = self.active
        # every player's names it reads made once: each player's own with his hand, the
        # trump and the aggregates' view of the table (of his side as the sides stood)
        names = play.side_reads
        envs = [self._role_names(s, names) for s in active]
        hands = [self.start_hands.get(s, self.hands[s]) for s in active]
        # the sides follow from these alone: formed over the same, they are the same
        key = (
            tuple(active),
            tuple([tuple(env.items()) for env in envs]),
            tuple(map(tuple, hands)),
            self.trump,
            tuple(self.side_of),
        )
        if key == self.sides_key:
            return
        self.sides_key = key
        for s, env, hand in zip(active, envs, hands):
            self._with_table(env, s, envs)
            env[HAND_KEY] = hand
            env[TRUMP_KEY] = self.trump
        for s, env in zip(active, envs):
            side_of[s] = seats + (0 if rule(env) else 1)
        self.side_of = side_of
        self.side_members = [
            [t for t in range(seats) if side_of[t] == side_of[s]] for s in range(seats)
        ]

    def hand_role_env(self, seat: int) -> dict[str, Any]:
        """`role_env` with the player's hand as trick play began (the names of
        `play.side_if` and `play.first_leader = EXPR`)."""
        env = self.role_env(seat)
        env[HAND_KEY] = self.start_hands.get(seat, self.hands[seat])
        env[TRUMP_KEY] = self.trump
        return env

    def partner_of(self, seat: int) -> int:
        """The other player of a seat's side (`sides:`); without sides, in a deal with a
        declarer and two defenders, the other defender; else the seat itself."""
        partner = self.game.partner_of(seat, self.seats)
        if partner == seat and not self.game.model.sides and self.declarer >= 0:
            defenders = [s for s in self.playing if s != self.declarer]
            if seat in defenders and len(defenders) == 2:
                return defenders[1 - defenders.index(seat)]
        return partner

    def partners(self, seat: int, other: int) -> bool:
        """`other` is another player of `seat`'s side (`sides:`); without sides, in a deal
        with a declarer, both are defenders."""
        if other == seat:
            return False
        if self.game.model.sides or self.rules.play.side_if is not None:
            side_of = self.side_of
            return side_of[seat] == side_of[other]
        declarer = self.declarer
        return declarer >= 0 and declarer not in (seat, other)

    def open_view(self, seat: int) -> dict[str, Any]:
        """`open_env`, with the aggregates' view of the players of the deal and of his side
        when the open rules read `count_all` and the like: each player's values of the
        names they read, worked out when an aggregate is reached."""
        env = self.open_env(seat)
        play = self.rules.play
        if play.open_aggregates:
            names = play.open_table_reads
            side_of = self.side_of
            env[TABLE_KEY] = LaterList(lambda: [self._aggregated(s, names) for s in self.active])
            env[SIDE_KEY] = LaterList(
                lambda: [
                    self._aggregated(s, names) for s in self.active if side_of[s] == side_of[seat]
                ]
            )
        return env

    def open_env(self, seat: int) -> dict[str, Any]:
        """The names `play.open_hand_if`, `play.stop_if` and `talon.counts_for_if` read for a
        player (of his own values, those they use)."""
        context = self.context[seat]
        env = {
            "declarer": seat == self.declarer,
            "tricks_won": self.tricks_won[seat],
            "tricks_played": len(self.tricks),
            "cards_played": self.cards_played,
            **{name: context[name] for name in self.rules.play.player_reads},
        }
        if self.rules.play.open_reads_contract:
            env.update(self.contract_env(seat))
        if self.rules.talon.counts_for_if is not None:
            env.update(context)
        return env

    def _aggregated(self, seat: int, names: frozenset[str]) -> dict[str, Any]:
        """A player's values of `names` (those the aggregates of the open rules read)."""
        context = self.context[seat]
        out: dict[str, Any] = {}
        contract: dict[str, Any] | None = None
        for name in names:
            if name in context:
                out[name] = context[name]
            elif name == "declarer":
                out[name] = seat == self.declarer
            elif name == "tricks_won":
                out[name] = self.tricks_won[seat]
            elif name == "tricks_played":
                out[name] = len(self.tricks)
            elif name == "cards_played":
                out[name] = self.cards_played
            else:
                if contract is None:
                    contract = self.contract_env(seat)
                out[name] = contract[name]
        return out

    def contract_env(self, seat: int) -> dict[str, Any]:
        """What every player knows of the contract and of a seat's role in it."""
        env = self._contract_public()
        self._set_role(env, seat)
        return env

    def _contract_public(self) -> dict[str, Any]:
        """The contract as every player knows it (the part of `contract_env` that is the
        same for every seat)."""
        return {
            "contract": self.contract,
            "doubled": self.doubled == 1,
            "redoubled": self.doubled == 2,
            "bid_round": self.bid_round,
            QUALIFIER_KEY: self.qualifier,
        }

    def _set_role(self, env: dict[str, Any], seat: int) -> None:
        """Add a seat's role in the contract to `env` (the rest of `contract_env`)."""
        side_of = self.side_of
        declarer = self.declarer
        env["declarer_side"] = declarer >= 0 and side_of[seat] == side_of[declarer]
        env["side"] = self.side_number(seat)
        env["dealer"] = seat == self.dealer

    def side_number(self, seat: int) -> int:
        """The name `side`: the seat's side's place in `sides:` (with `play.side_if`, once
        trick play began: 0 where it holds, 1 where not), else his seat."""
        side = self.side_of[seat]
        return side - self.seats if side >= self.seats else seat

    def role_env(self, seat: int) -> dict[str, Any]:
        """The names `play.sit_out_if` and `pickup.take_if` read for a player, with the
        aggregates' view of the players of the deal and of his side (`count_side(x)`)."""
        envs = [self._role_base(s) for s in self.active]
        active = self.active
        env = envs[active.index(seat)] if seat in active else self._role_base(seat)
        self._with_table(env, seat, envs)
        return env

    def _with_table(self, env: dict[str, Any], seat: int, envs: list[dict[str, Any]]) -> None:
        """Give a player's names the aggregates' view: `envs`, the players of the deal's
        (in deal order), and those of them on his side."""
        side_of = self.side_of
        env[TABLE_KEY] = envs
        env[SIDE_KEY] = [e for s, e in zip(self.active, envs) if side_of[s] == side_of[seat]]

    def _role_names(self, seat: int, names: frozenset[str]) -> dict[str, Any]:
        """Of `_role_base(seat)`, the names in `names` (and the qualifier `bid_is` reads)."""
        context = self.context[seat]
        env: dict[str, Any] = {QUALIFIER_KEY: self.qualifier}
        contract: dict[str, Any] | None = None
        for name in names:
            if name in ROLE_CONTRACT:
                if contract is None:
                    contract = self.contract_env(seat)
                env[name] = contract[name]
            elif name == "declarer":
                env[name] = seat == self.declarer
            elif name == "players":
                env[name] = len(self.active)
            elif name == "seats":
                env[name] = self.seats
            elif name in context:
                env[name] = context[name]
        return env

    def _role_base(self, seat: int) -> dict[str, Any]:
        return {
            **self.context[seat],
            "declarer": seat == self.declarer,
            "players": len(self.active),
            "seats": self.seats,
            **self.contract_env(seat),
        }
