"""The auctions of a replayed trick deal: calls in turns (levels, strains, qualifiers,
doubles, rounds) and in pairs (with a round of joining), who declares at what; the bids
phase (tricks bid, blind or not); the contract raised after the auction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .deal_state import DealState
from .errors import in_range
from .expressions import NAMED, STRAIN, TABLE, TURNUP


class AuctionReplay(DealState):
    """Who calls or bids next, what he may call, and the contract the calls make."""

    def _start_auction(self) -> bool:
        """The auction: a round of joining first (pairs, `join: yes`), the listener and his
        challengers (pairs), or calls in turns from the forehand (or the dealer)."""
        ref = self.ref
        active = self.active
        if ref.bidding is not None and ref.bidding.style == "pairs" and ref.joins:
            self.joining = []
            self.calls_asked = 0
            return self._stage("bid", active[0])
        if ref.bidding is not None and ref.bidding.style == "pairs":
            self.listener = active[0]
            self.challengers = list(active[1:])
            self.answering = False
            return self._stage("bid", self.challengers[0])
        self.in_auction = list(active)
        first = self.dealer if ref.dealer_calls_first and self.dealer in active else active[0]
        return self._stage("bid", first)

    def _call_actions(self, seat: int) -> dict[str, str] | None:
        """The calls of the auction now: in the round of joining, in pairs, or in turns (None
        where the checker does not restate them)."""
        ref = self.ref
        if self.joining is not None:  # the round of joining: join or pass
            return {"join": "join", "pass": "pass"}
        if self.listener >= 0:
            return self._pair_calls(seat)
        return self._turn_calls(seat) if ref.restate_calls else None

    def qualifier_index(self) -> int:
        """The contract's qualifier's place among the bidding's qualifiers."""
        return self.ref.call_qualifiers.index(self.qualifier)

    def named(self, seat: int) -> set[str]:
        """The strains `seat` named in his bids of the auction (`named_strain`)."""
        return {
            self.ref.strains[self._bid_key(text)[1]]
            for s, text in self.calls
            if s == seat and text.startswith("bid ")
        }

    def call_env(self, seat: int) -> dict[str, Any]:
        """The names `bid_if` and `pass_if` read for the player to call (the bid in question
        adds `level`, `bid_suit` and its strain)."""
        ref = self.ref
        hand = self.hands[seat]
        env = ref.hand_env(hand, len(self.active), self.context[seat], self._high_level())
        env.update(
            level=0,
            bid_suit=-1,
            turnup_suit=self.turnup_suit(),
            call_round=self.call_count[seat] + 1,
            bids_made=self.bid_count[seat],
            dealer=seat == self.dealer,
            dealer_side=self.dealer in ref.side(seat, self.seats),
        )
        env[STRAIN] = ""
        env[TURNUP] = self.turnup  # turnup_rank(R)
        if ref.strains:
            env[NAMED] = self.named(seat)
        return env

    def _high_level(self) -> int:
        return self.high[0] if self.high is not None else 0

    def _levels(self, seat: int, env: Mapping[str, Any]) -> list[int]:
        """The levels a bid of `seat` may name now: none (`levels: none`: 0); else the listed
        values, or the opening and its steps, from the opening bid (or the level to beat)
        up to the bidder's cap."""
        ref = self.ref
        b = ref.bidding
        assert b is not None
        if ref.levelless:
            return [0]
        hand = self.hands[seat]
        cap = None
        if ref.bid_cap is not None:
            cap = in_range(ref.eval(ref.bid_cap, env, hand=hand), "bidding cap")
        elif ref.strains and ref.bid_values:  # with strains the cap is the highest value
            cap = ref.bid_values[-1]
        values = ref.bid_values
        if self.high is not None:
            low = self.high[0]
            if values:
                return [v for v in values if low <= v and (cap is None or v <= cap)]
            assert cap is not None
            return list(range(low, cap + 1, b.step))
        if ref.opening is not None:
            opening = int(in_range(ref.eval(ref.opening, env, hand=hand), "bidding opening"))
        elif ref.strains:
            opening = values[0]
        else:
            opening = b.opening
        exact = b.opening_exact and not ref.strains
        if values:
            top = opening if exact else cap
            return [v for v in values if opening <= v and (top is None or v <= top)]
        if exact:
            return [opening]
        assert cap is not None
        return list(range(opening, max(cap, opening) + 1, b.step))

    def _turn_calls(self, seat: int) -> dict[str, str]:
        """B8-B13, E10-E14: every bid that ranks above the last (by level, then strain, then
        qualifier), from the levels there are, that `bid_if` allows; pass (unless an
        opening is forced, and as `pass_if` allows); double an opponent's bid and redouble
        an opponent's double (`double: yes`)."""
        ref = self.ref
        b = ref.bidding
        assert b is not None
        env = self.call_env(seat)
        hand = self.hands[seat]
        out: dict[str, str] = {}
        strains = range(len(ref.strains)) if ref.strains else [-1]
        held = self.high if self._may_hold(seat, env) else None
        for level in self._levels(seat, env):
            for si in strains:
                for qi, q in enumerate(ref.call_qualifiers):
                    if self.high is not None and (level, si, qi) <= self.high:
                        if (level, si, qi) != held:
                            continue
                    if ref.bid_if is not None:
                        env.update(level=level, bid_suit=ref.strain_suits[si] if si >= 0 else -1)
                        env[STRAIN] = ref.strains[si] if si >= 0 else ""
                        if not ref.eval(ref.bid_if, env, hand=hand, qualifier=q):
                            continue
                    out[self._bid_text(level, si, q)] = "bid"
        env.update(level=0, bid_suit=-1)
        env[STRAIN] = ""
        if (self.high is not None or not (b.forced_opening and not ref.strains)) and (
            ref.pass_if is None or ref.eval(ref.pass_if, env, hand=hand)
        ):
            out["pass"] = "pass"
        if ref.doubles and self.last_call is not None:
            caller, kind = self.last_call
            if caller not in ref.side(seat, self.seats):
                if kind == "bid":
                    out["double"] = "double"
                elif kind == "double":
                    out["redouble"] = "redouble"
        return out

    def _may_hold(self, seat: int, env: dict[str, Any]) -> bool:
        """`hold_if`: whether `seat` may bid the standing bid again and so take it over
        (never his own bid, nor one already taken over; over the names of `bid_if`, the bid
        in question the standing one; within his cap, as `_levels` says)."""
        ref = self.ref
        if ref.hold_if is None or self.high is None or seat == self.high_bidder:
            return False
        if self.high_held:
            return False
        level, si, qi = self.high
        env.update(level=level, bid_suit=ref.strain_suits[si] if si >= 0 else -1)
        env[STRAIN] = ref.strains[si] if si >= 0 else ""
        held = bool(
            ref.eval(ref.hold_if, env, hand=self.hands[seat], qualifier=ref.call_qualifiers[qi])
        )
        env.update(level=0, bid_suit=-1)
        env[STRAIN] = ""
        return held

    def _bid_text(self, level: int, si: int, qualifier: str) -> str:
        words = ["bid"]
        if not self.ref.levelless:
            words.append(str(level))
        if si >= 0:
            words.append(self.ref.strains[si])
        if qualifier:
            words.append(qualifier)
        return " ".join(words)

    def _bid_key(self, text: str) -> tuple[int, int, int]:
        """(level, strain index, qualifier index) of a bid's text (`bid 4 clubs alone`)."""
        ref = self.ref
        words = text.split()[1:]
        level = 0
        if not ref.levelless:
            level = int(words.pop(0))
        si = -1
        if ref.strains:
            si = ref.strains.index(words.pop(0))
        qualifier = words[0] if words else ""
        return level, si, ref.call_qualifiers.index(qualifier)

    def _pair_calls(self, seat: int) -> dict[str, str]:
        """K14-K17: the listener holds or passes; a challenger names a value above every
        value named (up to the cap) or passes; the survivor with nothing named plays at the
        lowest value or passes."""
        ref = self.ref
        b = ref.bidding
        assert b is not None
        if self.answering:
            return {"hold": "hold", "pass": "pass"}
        if not self.challengers:
            return {f"bid {b.values[0]}": "bid", "pass": "pass"}
        low = self.high[0] if self.high else 0
        cap = None
        if ref.bid_cap is not None:
            env = ref.hand_env(self.hands[seat], len(self.active), self.context[seat], low)
            cap = in_range(ref.eval(ref.bid_cap, env, hand=self.hands[seat]), "bidding cap")
        out = {f"bid {v}": "bid" for v in b.values if low < v and (cap is None or v <= cap)}
        out["pass"] = "pass"
        return out

    def _call(self, seat: int, kind: str, text: str) -> None:
        """An auction in turns (T6-T9, S6-S8, B7-B16, E10-E15): a bid (the first ends it
        with `ends: first_bid`), a double or redouble, or a pass; then the next caller (the
        next in deal order still in), the declarer, or everybody passed: with `pass:
        drops_out` when one is left or N passes follow a bid; with `stays_in` when N passes
        follow a bid, a double or a redouble, when every player passed once and nobody bid,
        or when every player has made his `rounds` calls."""
        ref = self.ref
        b = ref.bidding
        assert b is not None
        self.call_count[seat] += 1
        if kind == "bid":
            key = self._bid_key(text)
            self.high_held = key == self.high  # the standing bid taken over (`hold_if`)
            self.high = key
            self.high_bidder = seat
            self.bid_round = self.call_count[seat]
            self.bid_count[seat] += 1
            self.strain_bids.append((seat, self.high[1]))
            self.doubled = 0  # B15: a new bid cancels a double
            self.last_call = (seat, kind)
            self.passes_in_row = 0
            if ref.ends_first_bid:
                self._declare(seat)
                return
        elif kind in ("double", "redouble"):
            self.doubled = 1 if kind == "double" else 2
            self.last_call = (seat, kind)
            self.passes_in_row = 0
        else:
            self.passes_in_row += 1
            if b.pass_drops_out and seat in self.in_auction:
                self.in_auction.remove(seat)
        still = self.in_auction if b.pass_drops_out else self.active
        if b.pass_drops_out:
            passes = ref.ends_passes
            enough = passes is not None and self.passes_in_row >= passes
            if self.high is not None and (len(self.in_auction) == 1 or enough):
                self._declare(self.high_bidder)
                return
            if not self.in_auction:
                self._all_passed()
                return
        elif ref.ends_passes is not None:
            if self.high is not None and self.passes_in_row >= ref.ends_passes:
                self._declare(self.high_bidder)
                return
            if self.high is None and self.passes_in_row >= len(self.active):
                self._all_passed()
                return
        if ref.rounds and all(self.call_count[x] >= ref.rounds for x in still):
            if self.high is not None:
                self._declare(self.high_bidder)
            else:
                self._all_passed()
            return
        n = len(self.active)
        i = self.active.index(seat)
        self.to_act = next(
            self.active[(i + k) % n] for k in range(1, n + 1) if self.active[(i + k) % n] in still
        )

    def _join_call(self, seat: int, kind: str) -> None:
        """The round of joining (`join: yes`): everyone in deal order joins or passes; then
        nobody: all passed; one: he declares at the lowest value; more: the first listens,
        holding the lowest value, and the others bid to him in order."""
        joined = self.joining
        assert joined is not None
        if kind == "join":
            joined.append(seat)
        self.calls_asked += 1
        if self.calls_asked < len(self.active):
            self.to_act = self.active[self.calls_asked]
            return
        self.joining = None
        if not joined:
            self._all_passed()
            return
        b = self.ref.bidding
        assert b is not None
        self.high = (b.values[0], -1, 0)
        self.listener = joined[0]
        self.challengers = joined[1:]
        if not self.challengers:
            self._declare(joined[0])
            return
        self.to_act = self.challengers[0]

    def _pair_call(self, seat: int, kind: str, value: int) -> None:
        """K14-K19: a bid, a hold or a pass; then the answer, the next challenger, the
        declarer at the highest value named, or everybody passed."""
        if kind == "bid":
            self.high = (value, -1, 0)
            if not self.challengers:  # the survivor plays at the lowest value
                self._declare(seat)
                return
            self.answering = True
            self.to_act = self.listener
            return
        if kind == "hold":
            self.answering = False
            self.to_act = self.challengers[0]
            return
        if not self.challengers:  # the survivor passes too
            self._all_passed()
            return
        challenger = self.challengers.pop(0)
        if self.answering:  # the listener passed: the challenger survives him
            self.answering = False
            self.listener = challenger
        if self.challengers:
            self.to_act = self.challengers[0]
        elif self.high is not None:
            self._declare(self.listener)
        else:
            self.to_act = self.listener

    def _declare(self, seat: int) -> None:
        """The declarer and his contract: the highest value named (its strain and its
        qualifier); with `declarer: first_to_name` the player of the last bidder's side
        who first bid the contract's strain (B16)."""
        ref = self.ref
        assert self.high is not None
        level, si, qi = self.high
        if ref.first_to_name:
            side = ref.side(seat, self.seats)
            seat = next(x for x, st in self.strain_bids if st == si and x in side)
        self.declarer = seat
        self.contract = level
        self.strain = ref.strains[si] if si >= 0 else ""
        self.qualifier = ref.call_qualifiers[qi]
        if ref.trump_bid:  # the contract's strain is trump from now on
            self.trump = ref.strain_suits[si] if si >= 0 else -1
        self._flow_on()

    def _all_passed(self) -> None:
        """Nobody bid: thrown in (redeal), played as it is (played), or the flow goes on
        with no declarer (play_on)."""
        b = self.ref.bidding
        mode = b.all_pass if b is not None else "redeal"
        if mode == "played":
            self._end_now()
        elif mode == "play_on":
            self._flow_on()
        else:
            self._void(-1)

    # ------------------------------------------------------------ the bids phase
    def _start_bids(self) -> bool:
        """The bids phase (O9): who bids blind has not looked at his hand yet."""
        ref = self.ref
        active = self.active
        first = not self.log  # nothing of the hands has been shown before
        for seat in active:
            if ref.blind_if is not None and ref.eval(ref.blind_if, self.context[seat]):
                self.looked[seat] = False
                if first:  # (a card turned up face up into his hand stays seen)
                    self.seen[seat].difference_update(self.hands[seat])
                    if self.turned_up >= 0:
                        self.seen[seat].add(self.turned_up)
        return self._stage("bids", active[0])

    def _bids_actions(self, seat: int, hand: list[int]) -> dict[str, str]:
        """The bids `seat` may make: blind ones or a look before he has seen his hand; else
        min..max as `bid_if` allows."""
        ref = self.ref
        if not self.looked[seat]:
            out = {f"bid {v} blind": "bid" for v in ref.blind}
            out["look"] = "look"
            return out
        assert ref.bids_max is not None
        env = ref.hand_env(hand, len(self.active), self.context[seat])
        top = in_range(ref.eval(ref.bids_max, env, hand=hand), "bids.max")
        values = list(range(ref.bids_min, top + 1))
        if ref.bids_bid_if is not None:  # O9: each bid in question (not a blind one,
            # made before the hand is seen); none allowed: all are (as lead_if)
            made = [self.tricks_bid[s] for s in self.active if self.tricks_bid[s] >= 0]

            def names(x: int, x_env: dict[str, Any]) -> dict[str, Any]:
                bid = self.tricks_bid[x]
                x_env.update(bids_total=sum(made), bids_made=len(made), dealer=x == self.dealer)
                x_env.update(tricks_bid=max(bid, 0), has_bid=bid >= 0)
                return x_env

            names(seat, env)
            # the aggregates: every player's names (what each has bid so far)
            self._with_table(
                env,
                seat,
                lambda x: names(x, ref.hand_env(self.hands[x], len(self.active), self.context[x])),
            )
            allowed = []
            for v in values:
                for e in env[TABLE]:
                    e["level"] = v
                if ref.eval(ref.bids_bid_if, env, hand=hand):
                    allowed.append(v)
            values = allowed or values
        return {f"bid {v}": "bid" for v in values}

    def _bid(self, seat: int, kind: str, value: int, qualifier: str, text: str) -> None:
        self.looked[seat] = True
        self.seen[seat].update(self.hands[seat])
        if kind == "look":
            return
        self.tricks_bid[seat] = value
        self.bid_blind[seat] = qualifier == "blind"
        self.calls.append((seat, text))
        i = self.active.index(seat)
        if i + 1 < len(self.active):
            self.to_act = self.active[i + 1]
        else:
            self._flow_on()

    # ------------------------------------------------------------ the contract raised
    def _start_raise(self) -> bool:
        """The contract phase: the declarer may raise his contract (when the rules allow)."""
        ref = self.ref
        contract = ref.contract
        if contract is None or not contract.raise_allowed or self.declarer < 0:
            return False
        return self._stage("raise", self.declarer)

    def _raise_actions(self, seat: int, hand: list[int]) -> dict[str, str]:
        """Keep the contract, raise it by its steps up to the cap, or (with strains) name a
        contract of the ladder above the one won, as `raise_if` allows."""
        ref = self.ref
        contract = ref.contract
        assert contract is not None
        env = ref.hand_env(hand, len(self.active), self.context[seat], self.contract)
        if ref.contract_cap is None:  # with strains: the highest level there is
            assert ref.strains and ref.bid_values
            cap = ref.bid_values[-1]
        else:
            cap = in_range(ref.eval(ref.contract_cap, env, hand=hand), "contract cap")
        out = {"keep contract": "keep_contract"}
        if ref.strains:  # a contract of the ladder above the one won, as raise_if allows
            here = (self.contract, ref.strains.index(self.strain), self.qualifier_index())
            env[NAMED] = self.named(seat)
            for level in ref.bid_values:
                for si, strain in enumerate(ref.strains):
                    for qi, q in enumerate(ref.call_qualifiers):
                        if level > cap or (level, si, qi) <= here:
                            continue
                        env["level"] = level
                        env[STRAIN] = strain
                        if ref.raise_if is None or ref.eval(
                            ref.raise_if, env, hand=hand, qualifier=q
                        ):
                            out[self._bid_text(level, si, q)] = "bid"
            return out
        out.update(
            (f"raise {v}", "raise")
            for v in range(self.contract + contract.step, cap + 1, contract.step)
        )
        return out

    def _raise(self, kind: str, value: int, text: str) -> None:
        """The declarer keeps or raises the contract, or names one of the ladder (its level,
        strain, qualifier and trump); then the flow goes on."""
        if kind == "raise":
            self.contract = value
        elif kind == "bid":  # a contract of the ladder: its level, strain and trump
            level, si, qi = self._bid_key(text)
            self.contract = level
            self.strain = self.ref.strains[si]
            self.qualifier = self.ref.call_qualifiers[qi]
            if self.ref.trump_bid:
                self.trump = self.ref.strain_suits[si]
        self._flow_on()
