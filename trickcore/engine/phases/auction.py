"""The auction (T6-T9, S6-S8): bids in steps up to a cap, passes, and the declarer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.exprs import NAMED_KEY, QUALIFIER_KEY, TURNUP_KEY
from ...language.limits import MAX_BIDS, check_count
from ..actions import Action
from .base import Phase

if TYPE_CHECKING:
    from ...language.model import Bidding
    from ..deal import Deal
    from ..tables import GameTables


def named_strains(deal: Deal, seat: int) -> set[str]:
    """The strains a player named in his bids of the auction (`named_strain(S)`)."""
    return {a.qualifier.split(" ")[0] for s, a in deal.bids if s == seat and a.kind == "bid"}


class Auction(Phase):
    """Forehand opens; bids rise by the step up to the bidder's cap; passing drops a player
    out or not (`bidding.pass`); the auction ends with one player left or after N passes in a
    row. If nobody bids, the deal is thrown in (redealt)."""

    name = "bid"

    def __init__(self, game: GameTables) -> None:
        super().__init__(game)
        # the bids from one value to another, each with every qualifier, as actions and as
        # numbers: made once per game
        self._runs: dict[tuple[int, int, int, bool], list[Any]] = {}
        bidding = game.model.tricks.bidding if game.model.tricks else None
        self.calls = CallRules(bidding, game.qualifiers) if bidding is not None else None

    def _bid_run(self, first: int, last: int, step: int, numbers: bool = False) -> list[Any]:
        """The bids first, first + step, ... up to last, each with every qualifier in turn,
        or their numbers (shared: the caller copies before adding to it)."""
        key = (first, last, step, numbers)
        run = self._runs.get(key)
        if run is None:
            bid = self.game.actions.bid
            quals = self.game.qualifiers
            run = [bid(v, q) for v in range(first, last + 1, step) for q in quals]
            if numbers:
                run = [a.id for a in run]
            self._runs[key] = run
        return run

    def start(self, deal: Deal) -> bool:
        """Forehand opens (or the dealer, `first_caller: dealer`)."""
        b = deal.rules.bidding
        assert b is not None
        first = deal.active[0]
        if b.first_caller == "dealer" and deal.dealer in deal.active:
            first = deal.dealer
        deal.to_act = first
        return True

    def call_env(self, deal: Deal, seat: int) -> dict[str, Any]:
        """The names `bidding.bid_if` and `pass_if` read for the player to call."""
        env = self.quantities.env(
            deal.hands[seat], deal.high[0] if deal.high else 0, len(deal.active), deal.context[seat]
        )
        env.update(
            call_round=deal.calls_made[seat] + 1,
            bids_made=sum(1 for s, a in deal.bids if s == seat and a.kind == "bid"),
            dealer=seat == deal.dealer,
            dealer_side=deal.side_of[seat] == deal.side_of[deal.dealer],
            turnup_suit=deal.turnup_suit(),
            level=0,
            bid_suit=-1,
        )
        env[QUALIFIER_KEY] = ""
        env[NAMED_KEY] = named_strains(deal, seat)
        env[TURNUP_KEY] = deal.turnup  # turnup_rank(R)
        return env

    def _filtered(self, deal: Deal, seat: int, out: list[Action]) -> list[Action]:
        """The calls `bid_if` and `pass_if` allow, the standing bid again where `hold_if`
        allows it, doubles added (none allowed: all)."""
        b = deal.rules.bidding
        assert b is not None
        game = self.game
        env: dict[str, Any] | None = None
        if b.bid_if is not None or b.pass_if is not None:
            env = self.call_env(deal, seat)
        calls = out
        high = deal.high
        if b.hold_if is not None and high is not None and self._may_hold(deal, seat):
            # he may bid the standing bid again and take it over (`hold_if`)
            env = env if env is not None else self.call_env(deal, seat)
            hv, hq = high
            qualifier = game.qualifiers[hq]
            env["level"] = hv
            env["bid_suit"] = game.strain_suit(qualifier)
            env[QUALIFIER_KEY] = qualifier
            if b.hold_if(env):
                out = [game.actions.bid(hv, qualifier), *out]
        kept = out
        if b.bid_if is not None:
            assert env is not None
            rule = b.bid_if
            kept = []
            for a in out:
                if a.kind == "bid":
                    env["level"] = a.value
                    env["bid_suit"] = game.strain_suit(a.qualifier)
                    env[QUALIFIER_KEY] = a.qualifier
                    if not rule(env):
                        continue
                kept.append(a)
        if b.pass_if is not None and env is not None:
            env.update(level=0, bid_suit=-1)
            env[QUALIFIER_KEY] = ""
            if not b.pass_if(env):
                kept = [a for a in kept if a.kind != "pass"]
        if b.double:
            kept = kept + self._doubles(deal, seat)
        return kept or calls

    def _may_hold(self, deal: Deal, seat: int) -> bool:
        """Whether the standing bid may be held by `seat` at all, before `hold_if` is asked:
        not his own; not one already held (the next bid must be higher: two players could
        else take it from each other for ever); within his cap."""
        if seat == deal.high_bidder or deal.high is None:
            return False
        bids = [a for _, a in deal.bids if a.kind == "bid"]
        if len(bids) >= 2 and (bids[-1].value, bids[-1].qualifier) == (
            bids[-2].value,
            bids[-2].qualifier,
        ):
            return False
        assert self.calls is not None
        hv = deal.high[0]
        env = self.quantities.env(deal.hands[seat], hv, len(deal.active), deal.context[seat])
        return hv <= self.calls.cap(env)

    def _doubles(self, deal: Deal, seat: int) -> list[Action]:
        """`double` when the last call other than a pass is an opponent's bid; `redouble`
        when it is an opponent's double (B11, B12)."""
        side_of = deal.side_of
        for s, a in reversed(deal.bids):
            if a.kind == "pass":
                continue
            if side_of[s] == side_of[seat]:
                return []
            if a.kind == "bid" and deal.doubled == 0:
                return [self.game.actions.double]
            if a.kind == "double" and deal.doubled == 1:
                return [self.game.actions.redouble]
            return []
        return []

    def legal(self, deal: Deal) -> list[Action]:
        """Every bid from the one to beat up to the cap (with each qualifier), and pass; as
        `bid_if` and `pass_if` allow, the standing bid again as `hold_if` allows, with
        `double` and `redouble` where legal."""
        out = self._calls(deal)
        assert self.calls is not None
        if self.calls.plain:
            return out
        return self._filtered(deal, deal.to_act, out)

    def legal_ids(self, deal: Deal) -> list[int]:
        """`legal` as numbers (the runs of bids kept as numbers too)."""
        assert self.calls is not None
        if self.calls.plain:
            return self._calls(deal, True)
        return [a.id for a in self.legal(deal)]

    def _calls(self, deal: Deal, numbers: bool = False) -> list[Any]:
        """Every bid from the one to beat up to the cap, and pass (as actions, or as their
        numbers)."""
        game = self.game
        b = self.calls
        assert b is not None
        seat = deal.to_act
        high = deal.high
        env = self.quantities.env(
            deal.hands[seat], high[0] if high else 0, len(deal.active), deal.context[seat]
        )
        cap = b.cap(env)
        quals = b.qualifiers
        out: list[Any] = []
        table = game.actions
        if b.values:  # the listed values only
            low = high[0] if high else b.opening_for(env) - 1
            top = cap if high or not b.opening_exact else b.opening_for(env)
            out = [table.bid(v, q) for v in b.values if low < v <= top for q in quals]
            if high is not None:
                hv, hq = high
                same = [table.bid(hv, q) for qi, q in enumerate(quals) if qi > hq and hv <= cap]
                out = same + out
            if high is not None or not b.forced_opening:
                out.append(table.pass_)
            return [a.id for a in out] if numbers else out
        pass_ = table.pass_.id if numbers else table.pass_
        step = b.step
        if high is None:
            opening = b.opening_for(env)
            if b.opening_exact:
                out = self._bid_run(opening, opening, 1, numbers)[:]
            else:
                top = max(cap, opening)
                if (top - opening) // step > MAX_BIDS:  # (the message only when it fails)
                    check_count(top - opening, step, "the bid cap", b.cap_loc)
                out = self._bid_run(opening, top, step, numbers)[:]
            if not b.forced_opening:
                out.append(pass_)
            return out
        hv, hq = high
        if (cap - hv) // step > MAX_BIDS:
            check_count(cap - hv, step, "the bid cap", b.cap_loc)
        for qi, q in enumerate(quals):
            if qi > hq and hv <= cap:
                same_value = table.bid(hv, q)
                out.append(same_value.id if numbers else same_value)
        if hv + step <= cap:
            out.extend(self._bid_run(hv + step, cap, step, numbers))
        out.append(pass_)
        return out

    def apply(self, deal: Deal, action: Action) -> None:
        """A bid, a pass or a double; then the next caller, the declarer, or all passed."""
        b = self.calls
        assert b is not None
        seat = deal.to_act
        deal.bids.append((seat, action))
        deal.calls_made[seat] += 1
        kind = action.kind
        if kind == "bid":
            deal.high = (action.value, b.qualifiers.index(action.qualifier))
            deal.high_bidder = seat
            deal.passes_in_row = 0
            deal.doubled = 0
            deal.bid_round = deal.calls_made[seat]
            if b.strains:
                deal.strain_bids.append((seat, action.qualifier.split(" ")[0]))
            if b.first_bid_ends:
                return self._declare(deal)
        elif kind in ("double", "redouble"):
            deal.doubled = 1 if kind == "double" else 2
            deal.passes_in_row = 0
        else:
            deal.passes_in_row += 1
            if b.pass_drops_out:
                deal.in_auction.remove(seat)
        if b.first_bid_ends:
            if b.pass_drops_out and not deal.in_auction:
                return deal.all_passed()
            if not b.pass_drops_out and sum(deal.calls_made) >= (b.rounds or 1) * len(deal.active):
                return deal.all_passed()
        elif b.pass_drops_out:
            enough = b.ends_after_passes is not None and deal.passes_in_row >= b.ends_after_passes
            if deal.high is not None and (len(deal.in_auction) == 1 or enough):
                return self._declare(deal)
            if not deal.in_auction:
                return deal.all_passed()
        elif deal.high is not None:
            if deal.passes_in_row >= (b.ends_after_passes or 0):
                return self._declare(deal)
        elif deal.passes_in_row >= len(deal.active):
            return deal.all_passed()  # nobody bid: everyone passed once (B14)
        if b.rounds is not None and sum(deal.calls_made) >= b.rounds * len(deal.active):
            # every player has made his last call
            return self._declare(deal) if deal.high is not None else deal.all_passed()
        order = deal.in_auction if b.pass_drops_out else deal.active
        n = len(deal.active)
        i = deal.active.index(seat)
        for k in range(1, n + 1):
            nxt = deal.active[(i + k) % n]
            if nxt in order:
                deal.to_act = nxt
                return

    def _declare(self, deal: Deal) -> None:
        """The last bidder is the declarer (T8, S7), or with `declarer: first_to_name` the
        first of his side to name the contract's strain (B16); his bid is the contract."""
        assert deal.high is not None
        b = deal.rules.bidding
        assert b is not None
        deal.declarer = deal.high_bidder
        deal.contract = deal.high[0]
        deal.qualifier = self.game.qualifiers[deal.high[1]]
        if b.declarer_rule == "first_to_name":
            side_of = deal.side_of
            strain = deal.qualifier.split(" ")[0]
            side = side_of[deal.high_bidder]
            deal.declarer = next(
                s for s, st in deal.strain_bids if side_of[s] == side and st == strain
            )
        if deal.rules.play.trump_bid:  # the contract's strain is trump from now on
            deal.trump = self.game.strain_suit(deal.qualifier)
            deal.rel = None
        deal.next_phase()


class CallRules:
    """What the auction reads of `bidding` at every call, copied once from the model into a
    class of the engine's own (a compiled one in the native build, where reading the
    model's classes costs a lookup each time)."""

    __slots__ = (
        "cap",
        "cap_loc",
        "ends_after_passes",
        "first_bid_ends",
        "forced_opening",
        "opening",
        "opening_exact",
        "opening_expr",
        "pass_drops_out",
        "plain",
        "qualifiers",
        "rounds",
        "step",
        "strains",
        "values",
    )

    def __init__(self, bidding: Bidding, qualifiers: tuple[str, ...]) -> None:
        self.cap = bidding.cap.fn
        self.cap_loc = bidding.cap.loc  # where the cap is written (its errors in play)
        self.first_bid_ends = bidding.first_bid_ends
        # no call is filtered by a rule and none added: the calls are the runs of bids
        self.plain = not (
            bidding.bid_if is not None
            or bidding.pass_if is not None
            or bidding.hold_if is not None
            or bidding.double
        )
        self.values = bidding.values
        self.opening = bidding.opening
        self.opening_expr = bidding.opening_expr.fn if bidding.opening_expr is not None else None
        self.opening_exact = bidding.opening_exact
        self.forced_opening = bidding.forced_opening
        self.step = bidding.step
        self.strains = bidding.strains
        self.pass_drops_out = bidding.pass_drops_out
        self.ends_after_passes = bidding.ends_after_passes
        self.rounds = bidding.rounds
        self.qualifiers = qualifiers  # every call's qualifier, its strain first (GameTables)

    def opening_for(self, env: dict[str, Any]) -> int:
        """The lowest (or, with opening_exact, the only) opening bid (`Bidding.opening_for`)."""
        expr = self.opening_expr
        return self.opening if expr is None else int(expr(env))
