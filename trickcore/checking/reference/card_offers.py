"""Decisions `at: card`: before every card of trick play, a round of offers to every player
of the deal (announcements open until a deadline in the play)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .decisions import DecisionsReplay
from .expressions import SHARED
from .names_read import NamesRead
from .scoring import NO_VALUE


class CardOffers(DecisionsReplay):
    """The round of offers before a card: from the player whose card is next, round the
    table, each player is offered the `at: card` decisions whose `offer_if` holds for him,
    and `pass`; a player offered none is passed over; after a decision the round goes on
    with the next player; it ends when every player of the deal in a row has passed or been
    passed over, and then the card is played.

    `offer_at` is the seat the round is at (-1: no round open), `offer_quiet` how many
    players in a row passed or were passed over, `round_offers` what each is offered.
    """

    if TYPE_CHECKING:  # trick play (trick_play.py): who plays the card of the player to play

        def _card_player(self, seat: int) -> int: ...

    def _open_offers(self, seat: int) -> None:
        """Before `seat`'s card (he holds one): the round of offers, if the rules have
        decisions `at: card`."""
        if not self.ref.card_decisions or not self.hands[seat]:
            return
        self.offer_at = seat
        self.offer_quiet = 0
        self.round_offers = None
        self._offer_round()

    def _offer_round(self) -> None:
        """The round goes on from `offer_at`: the first player offered a decision is to act;
        when every player in a row has passed or been passed over, the card is next."""
        active = self.active
        while self.offer_quiet < len(active):
            seat = self.offer_at
            if self._card_offers(seat):
                self.to_act = seat
                return
            self.offer_quiet += 1
            self.offer_at = active[(active.index(seat) + 1) % len(active)]
        self.offer_at = -1
        self.to_act = self._card_player(self.turn)

    def _card_offers(self, seat: int) -> list[str]:
        """The `at: card` decisions offered to `seat` now, by `offer_if` over the names of
        a decision (the other players' for the aggregates). Worked out for every player at
        once, and again only after a decision (a pass changes nothing). Where the offer_ifs
        read names alone (`NamesRead.plain`), a player's offers are worked out again only
        when a name they read has changed, his own or (aggregates) another player's: the
        offers of each key are kept (`Reference.card_offers_by_key`), for every player, deal
        and run."""
        if self.round_offers is None:
            ref = self.ref
            reads = ref.card_reads
            active = self.active
            # where the offer_ifs read names alone, first only each player's values of
            # them (his key); his names are made only when his offers must be worked out
            # again, and the others' for the aggregates only their values the aggregates
            # read. Otherwise every player's names, made at once.
            envs: dict[int, dict[str, Any]] = {}
            if not reads.plain:
                envs = {x: self.decision_env(x, False, reads) for x in active}
            keys: dict[int, tuple[Any, ...]] = {}
            table: tuple[Any, ...] = ()
            if reads.plain:
                keys = {x: self.names_key(x, reads) for x in active}
                if reads.table:  # the players' values the aggregates read, in deal order
                    table = (
                        tuple(active),
                        tuple(tuple(keys[x][i] for i in reads.aggregated_at) for x in active),
                    )
            aggregated: dict[int, dict[str, Any]] = {}
            offers = {}
            by_key = ref.card_offers_by_key
            for x in active:
                key: tuple[Any, ...] = ()
                if reads.plain:
                    key = (keys[x], table)
                    if reads.table:  # and the seats of his side (`SIDE`)
                        key += (self.side(x),)
                    known = _known(by_key, key)
                    if known is not None:
                        offers[x] = known
                        continue
                    env = self.decision_env(x, False, reads)
                    if reads.table:
                        if not aggregated:
                            aggregated = {y: self._aggregated(keys[y], reads) for y in active}
                        self._with_table(env, x, aggregated.__getitem__)
                else:
                    env = envs[x]
                    self._with_table(env, x, envs.__getitem__)
                env[SHARED] = {}  # the env does not change while the offers are read
                offers[x] = [
                    d.name
                    for d in ref.card_decisions
                    if d.offer_if is None
                    or ref.eval(d.offer_if, env, hand=self.hands[x], qualifier=self.qualifier)
                ]
                if reads.plain:
                    _keep(by_key, key, offers[x])
            self.round_offers = offers
        return self.round_offers[seat]

    @staticmethod
    def _aggregated(key: tuple[Any, ...], reads: NamesRead) -> dict[str, Any]:
        """Of a player's names, those the aggregates read, from his key (a name he does
        not hold left out, as his names leave it out)."""
        return {
            name: key[i]
            for name, i in zip(reads.aggregated, reads.aggregated_at)
            if key[i] is not NO_VALUE
        }

    def offer_actions(self) -> dict[str, str]:
        """The actions of the player the round is at: the decisions offered him, or pass."""
        offered = self._card_offers(self.offer_at)
        out: dict[str, Any] = dict.fromkeys(offered, "decide")
        if not self._forced(self.offer_at, offered):  # else he must take one: no pass
            out["pass"] = "pass"
        return out

    def _answer_offer(self, seat: int, kind: str, text: str) -> None:
        """He passes, or takes a decision (its rules and effect; every player may answer it
        again); the round goes on with the next player."""
        if kind == "decide":
            self._take(seat, self._by_name(text))
            if self.ended_early or self.redealt:  # `effect: end_deal` or `redeal`
                return
            self.offer_quiet = 0
            self.round_offers = None
        else:
            self.offer_quiet += 1
        active = self.active
        self.offer_at = active[(active.index(seat) + 1) % len(active)]
        self._offer_round()


# the most keys `Reference.card_offers_by_key` holds (then it starts again)
_MOST_KEYS = 100_000


def _known(by_key: dict[tuple[Any, ...], list[str]], key: tuple[Any, ...]) -> list[str] | None:
    """The offers worked out from `key` before, if any (a key holding a value that is no
    dictionary key, a list, is never kept)."""
    try:
        return by_key.get(key)
    except TypeError:
        return None


def _keep(
    by_key: dict[tuple[Any, ...], list[str]], key: tuple[Any, ...], offers: list[str]
) -> None:
    """Keep the offers worked out from `key`."""
    if len(by_key) >= _MOST_KEYS:
        by_key.clear()
    try:
        by_key[key] = offers
    except TypeError:
        pass
