"""A computer player whose rules of thumb come from the variant model, for any rules file.

Nothing here knows a game by name. It reads the card points and the rank order (through
`GameTables.relations`: trumps, effective suits and powers as the rules file defines them), the
melds, the bid ladder and the scoring rules (through `GameTables.deal_score`), and the seat's
observation:

- bidding: the hand's strength is estimated as tricks (a run of top cards in a suit counts
  one trick each, lower cards with enough length part of one, long trumps more) and as card
  points (tricks times the average points of a trick) plus the melds held; every legal bid
  is scored by the variant's own scoring rules with that estimate, and the lowest bid
  that the rules would pay for is made, else a pass. In rounds of number bids (tricks
  bid), the number nearest the estimate.
- the talon, passing and laying away: keep meld cards, sure winners and trumps; shed low
  cards of short suits (in games where points hurt, shed the dangerous cards).
- trick play: win a trick cheaply when it is worth it (the last to play takes it with the
  weakest winning card; earlier, only with a sure winner), give points to a partner who is
  winning, otherwise play the least valuable card and keep trumps; lead sure winners, else
  a low card of a long side suit. Where taking points or tricks scores badly (the scoring
  rules say so) or a bid number has been reached, it ducks instead.
- games of bouts: attack with low cards, beat with the cheapest card, keep trumps, take
  when nothing beats; throw in low cards of side suits.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.actions import Action
from ..engine.tables import GameTables
from .protocol import Turn
from .reading import (
    View,
    combinations_worth,
    deal_score_or_none,
    meld_cards_held,
    melds_held,
)
from .values import score_sign

SHY = {"decide", "double", "redouble", "redeal"}  # taken only when nothing else is legal


class _Profile:
    """What the heuristic works out once per variant from its model and scoring rules."""

    def __init__(self, game: GameTables) -> None:
        model = game.model
        self.points_total = model.deck.total_points
        players = max(1, model.deal.hands or model.players[0])
        self.tricks_guess = max(1, model.deck.size // players)
        tricks = model.tricks
        self.number_bids = tricks is not None and tricks.bids is not None
        bidding = tricks.bidding if tricks else None
        self.strains = bool(bidding and bidding.strains)
        # does taking card points and tricks help a player? (where they cost points: no)
        self.points_good = {role: self._more_is_better(game, role) for role in (True, False)}
        self.option_trumps: dict[str, int] = {}
        for d in tricks.decisions if tricks else ():
            for name, suit in zip(d.options, d.option_trumps, strict=False):
                self.option_trumps[name] = max(suit, -1)  # NO_TRUMP: no suit
        self.suit_orders: dict[tuple[int, str, tuple[str, ...]], dict[int, list[int]]] = {}

    def _more_is_better(self, game: GameTables, declarer: bool) -> bool:
        low = deal_score_or_none(game, declarer, "", card_points=0, tricks_won=0)
        high = deal_score_or_none(
            game,
            declarer,
            "",
            card_points=self.points_total // 2,
            tricks_won=self.tricks_guess // 2 + 1,
        )
        if low is None or high is None:
            return True
        return (high - low) * score_sign(game) >= 0

    def suit_order(
        self, game: GameTables, trump: int, qualifier: str, chosen: tuple[str, ...]
    ) -> dict[int, list[int]]:
        """Every effective suit's cards, highest power first (kept)."""
        key = (trump, qualifier, chosen)
        found = self.suit_orders.get(key)
        if found is None:
            eff, power = game.relations(trump, qualifier, chosen)
            found = {}
            for c in sorted(range(len(eff)), key=lambda c: -power[c]):
                found.setdefault(eff[c], []).append(c)
            self.suit_orders[key] = found
        return found


_PROFILES: dict[int, tuple[GameTables, _Profile]] = {}


def profile(game: GameTables) -> _Profile:
    """The heuristic's reading of a variant (made once per variant object)."""
    found = _PROFILES.get(id(game))
    if found is None or found[0] is not game:
        found = _PROFILES[id(game)] = (game, _Profile(game))
    return found[1]


def estimate_tricks(
    game: GameTables, hand: list[int], trump: int, qualifier: str = "", chosen: tuple[str, ...] = ()
) -> float:
    """The tricks a hand should take with this trump (a rough count, at most its size)."""
    prof = profile(game)
    eff, _ = game.relations(trump, qualifier, chosen)
    order = prof.suit_order(game, trump, qualifier, chosen)
    held = set(hand)
    groups: dict[int, int] = {}
    for c in hand:
        groups[eff[c]] = groups.get(eff[c], 0) + 1
    total = 0.0
    for suit, length in groups.items():
        missing = 0
        for c in order.get(suit, ()):
            if c in held:
                if missing == 0:
                    total += 1.0
                elif length > missing:
                    total += max(0.0, 1.0 - 0.45 * missing)
            else:
                missing += 1
        if suit == game.trump_suit_id and length > 3:
            total += 0.6 * (length - 3)
    return min(total, float(len(hand)))


class HeuristicPlayer:
    """Plays any variant by rules of thumb read from its model (see the module text)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, turn: Turn) -> Action:
        """The action to take now."""
        legal = turn.legal
        if len(legal) == 1:
            return legal[0]
        game = turn.variant
        return self.decide(game, View.of_observation(game, turn.observation), turn.seat, legal)

    def decide(self, game: GameTables, obs: View, seat: int, legal: tuple[Action, ...]) -> Action:
        """The action to take for `seat` seeing `obs` (a `View`) with these legal actions."""
        if len(legal) == 1:
            return legal[0]
        if game.model.bouts is not None:
            return self._bouts(game, obs, legal)
        kinds = {a.kind for a in legal}
        if "announce" in kinds:
            return next(a for a in legal if a.kind == "announce")
        if "bid" in kinds or "hold" in kinds:
            return self._bid(game, obs, seat, legal)
        if "raise" in kinds:
            return self._raise(game, obs, legal)
        if kinds & {"give", "discard", "pass_card"}:
            return self._shed(game, obs, seat, legal)
        if "play" in kinds or "marry" in kinds:
            return self._play(game, obs, seat, legal)
        if "choose" in kinds:
            return self._option(game, obs, legal)
        for kind in ("keep", "keep_contract", "look"):
            if kind in kinds:
                return next(a for a in legal if a.kind == kind)
        calm = [a for a in legal if a.kind not in SHY]
        return calm[0] if calm else legal[0]

    # ------------------------------------------------------------ bidding
    def _bid(self, game: GameTables, obs: View, seat: int, legal: tuple[Action, ...]) -> Action:
        prof = profile(game)
        hand = obs.hand
        bids = [a for a in legal if a.kind in ("bid", "hold")]
        passes = [a for a in legal if a.kind == "pass"]
        if not hand:  # bidding blind: no hand seen yet
            look = [a for a in legal if a.kind == "look"]
            return look[0] if look else (passes[0] if passes else bids[0])
        players = len(obs.players) or obs.seats
        size = max(len(hand), 1)
        if prof.number_bids:
            plain = [a for a in bids if a.qualifier != "blind"] or bids
            est = estimate_tricks(game, hand, obs.trump, obs.qualifier)
            return min(plain, key=lambda a: (abs(a.value - est), a.value))
        melds = melds_held(game, set(hand))
        current = max(
            (a.value for _, a in obs.bids if a is not None and a.kind == "bid"), default=0
        )
        scored: list[tuple[int, int, Action]] = []
        worth: dict[int, int] = {}  # the hand's combinations by trump (the same for each bid)

        def combos_with(suit: int) -> int:
            if suit not in worth:
                worth[suit] = combinations_worth(game, hand, suit)
            return worth[suit]

        for a in bids:
            qual = a.qualifier
            if prof.strains:
                trump = game.strain_suit(qual)
                tricks = estimate_tricks(game, hand, trump, qual)
                combos = combos_with(trump)
            else:
                trump = self._best_trump(game, hand)
                tricks = estimate_tricks(game, hand, trump, qual)
                combos = combos_with(trump)
                for option, suit in prof.option_trumps.items():  # a game chosen later
                    tricks = max(tricks, estimate_tricks(game, hand, suit, qual, (option,)))
                    combos = max(combos, combos_with(suit))
            if obs.talon_size:
                tricks += 0.5
            partners = self._partners(game, seat, players)
            tricks += partners * max(0.0, prof.tricks_guess - tricks) / max(1, players - 1)
            points = tricks * prof.points_total / max(prof.tricks_guess, size)
            value = current if a.kind == "hold" else a.value
            score = deal_score_or_none(
                game,
                True,
                qual,
                contract=value,
                card_points=int(points),
                meld_points=melds,
                melds_declared=melds,
                combination_points=combos,
                tricks_won=int(round(tricks)),
                tricks_total=prof.tricks_guess,
            )
            if score is None:  # the scoring needs more than an estimate has: by strength
                fair = prof.tricks_guess / max(players, 1)
                score = 1 if tricks >= 1.4 * fair else -1
            scored.append((value, score, a))
        good = [(v, -s, a) for v, s, a in scored if s > 0]
        if good:
            return min(good, key=lambda t: (t[0], t[1]))[2]
        if passes:
            return passes[0]
        return min(scored, key=lambda t: (t[0], -t[1]))[2]

    @staticmethod
    def _partners(game: GameTables, seat: int, players: int) -> int:
        side = game.side_of.get(players)
        if side is None or seat >= len(side):
            return 0
        return sum(1 for s in range(players) if s != seat and side[s] == side[seat])

    @staticmethod
    def _best_trump(game: GameTables, hand: list[int]) -> int:
        """The suit of the best meld that sets trump, else none (-1)."""
        best, best_value = -1, 0
        held = game.held_as_first_copies(hand)
        for c in hand:
            for mi, suit, value, cards in game.meld_of_card.get(c, ()):
                meld = game.model.melds[mi]
                if meld.sets_trump and value > best_value and all(x in held for x in cards):
                    best, best_value = suit, value
        return best

    def _raise(self, game: GameTables, obs: View, legal: tuple[Action, ...]) -> Action:
        prof = profile(game)
        hand = obs.hand
        keep = [a for a in legal if a.kind != "raise"]
        trump = self._best_trump(game, hand)
        tricks = estimate_tricks(game, hand, trump, obs.qualifier)
        points = (tricks - 0.5) * prof.points_total / max(prof.tricks_guess, len(hand), 1)
        melds = melds_held(game, set(hand))
        best: Action | None = None
        best_score = deal_score_or_none(
            game,
            True,
            obs.qualifier,
            contract=obs.contract,
            card_points=int(points),
            meld_points=melds,
            tricks_won=int(tricks),
        )
        for a in legal:
            if a.kind != "raise":
                continue
            score = deal_score_or_none(
                game,
                True,
                obs.qualifier,
                contract=a.value,
                card_points=int(points),
                meld_points=melds,
                tricks_won=int(tricks),
            )
            if score is not None and score > 0 and (best_score is None or score > best_score):
                best, best_score = a, score
        return best or (keep[0] if keep else legal[0])

    # ------------------------------------------------------------ cards away
    def _shed(self, game: GameTables, obs: View, seat: int, legal: tuple[Action, ...]) -> Action:
        prof = profile(game)
        hand = obs.hand
        held = set(hand)
        trump = obs.trump
        if trump < 0:
            trump = self._best_trump(game, hand)
        chosen = obs.chosen
        eff, power = game.relations(trump, obs.qualifier, chosen)
        order = prof.suit_order(game, trump, obs.qualifier, chosen)
        keep = meld_cards_held(game, held)
        length: dict[int, int] = {}
        for c in hand:
            length[eff[c]] = length.get(eff[c], 0) + 1
        good = prof.points_good[seat == obs.declarer]
        points = game.points_with(trump, obs.qualifier, chosen)

        def top(c: int) -> bool:
            for x in order.get(eff[c], ()):
                if x == c:
                    return True
                if x not in held:
                    return False
            return False

        def key(a: Action) -> tuple[Any, ...]:
            c = a.card
            if not good:  # points hurt: pass on the dangerous cards
                return (-points[c], -power[c])
            return (
                c in keep,
                top(c),
                eff[c] == game.trump_suit_id,
                points[c],
                length[eff[c]],
                power[c],
            )

        cards = [a for a in legal if a.card >= 0]
        if not cards:
            return legal[0]
        return min(cards, key=key)

    # ------------------------------------------------------------ trick play
    def _play(self, game: GameTables, obs: View, seat: int, legal: tuple[Action, ...]) -> Action:
        prof = profile(game)
        marry = [a for a in legal if a.kind == "marry"]
        if marry:
            return max(marry, key=lambda a: self._meld_value(game, a.card))
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            calm = [a for a in legal if a.kind not in SHY]
            return calm[0] if calm else legal[0]
        trump = obs.trump
        chosen = obs.chosen
        eff, power = game.relations(trump, obs.qualifier, chosen)
        order = prof.suit_order(game, trump, obs.qualifier, chosen)
        points = game.points_with(trump, obs.qualifier, chosen)
        seats = obs.seats
        side = game.side_of.get(seats) or list(range(seats))
        mine = side[seat] if seat < len(side) else seat
        # cards that may still be in other hands
        gone = obs.gone
        playing = obs.playing
        want = self._want_tricks(game, obs, seat, side, prof)
        TS = game.trump_suit_id

        def top(c: int) -> bool:
            for x in order.get(eff[c], ()):
                if x == c:
                    return True
                if x not in gone and x not in played_now:
                    return False
            return False

        played_now = obs.played
        # the card that set the suit led (`play.sets_suit_if`; none yet: as if leading)
        setters = game.suit_setters(trump, obs.qualifier, chosen)
        lead_at = 0
        if setters is not None:
            lead_at = next((i for i, (_, c) in enumerate(obs.trick) if setters[c]), len(obs.trick))
        if lead_at < len(obs.trick):
            trick = obs.trick
            led = eff[trick[lead_at][1]]
            win_seat, win_card = trick[lead_at]
            for s, c in trick[lead_at + 1 :]:
                if (eff[c] == eff[win_card] and power[c] > power[win_card]) or (
                    eff[c] == TS and eff[win_card] != TS
                ):
                    win_seat, win_card = s, c

            def beats(c: int) -> bool:
                if eff[c] == eff[win_card]:
                    return power[c] > power[win_card]
                return eff[c] == TS

            last = len(trick) == len(playing) - 1
            at_stake = sum(points[c] for _, c in trick)
            winners = [a for a in plays if beats(a.card)]
            partner_wins = side[win_seat] == mine if win_seat < len(side) else False
            if want and partner_wins and (last or top(win_card)):
                losers = [a for a in plays if not beats(a.card)] or plays
                return max(
                    losers, key=lambda a: (eff[a.card] != TS, not top(a.card), points[a.card])
                )
            if want and winners and not partner_wins:
                if last:
                    return min(winners, key=lambda a: (eff[a.card] == TS, power[a.card]))
                sure = [a for a in winners if top(a.card) and eff[a.card] == led]
                if sure:
                    return min(sure, key=lambda a: power[a.card])
                if at_stake > 0 or prof.points_total == 0:
                    trumps = [a for a in winners if eff[a.card] == TS]
                    if trumps and eff[win_card] != TS:
                        return min(trumps, key=lambda a: power[a.card])
            if not want:  # duck: the highest card that does not win, shedding points
                losers = [a for a in plays if not beats(a.card)]
                if losers:
                    return max(losers, key=lambda a: (points[a.card], power[a.card]))
                return min(plays, key=lambda a: (points[a.card], power[a.card]))
            return min(
                plays, key=lambda a: (eff[a.card] == TS, top(a.card), points[a.card], power[a.card])
            )
        # leading
        if not want:
            return min(plays, key=lambda a: (power[a.card], points[a.card]))
        hand_trumps = [a for a in plays if eff[a.card] == TS]
        sure = [a for a in plays if top(a.card) and eff[a.card] != TS]
        if sure:
            return max(sure, key=lambda a: (points[a.card], power[a.card]))
        if hand_trumps and len(hand_trumps) * 2 >= len(plays):
            top_trumps = [a for a in hand_trumps if top(a.card)]
            if top_trumps:
                return max(top_trumps, key=lambda a: power[a.card])
        length: dict[int, int] = {}
        for a in plays:
            length[eff[a.card]] = length.get(eff[a.card], 0) + 1
        return min(
            plays,
            key=lambda a: (eff[a.card] == TS, points[a.card], -length[eff[a.card]], power[a.card]),
        )

    @staticmethod
    def _meld_value(game: GameTables, card: int) -> int:
        return max((value for _, _, value, _ in game.meld_of_card.get(card, ())), default=0)

    @staticmethod
    def _want_tricks(
        game: GameTables, obs: View, seat: int, side: list[int], prof: _Profile
    ) -> bool:
        if prof.number_bids:
            mine = side[seat] if seat < len(side) else seat
            team = [s for s in range(len(side)) if side[s] == mine]
            target = sum(
                a.value for s, a in obs.bids if s in team and a is not None and a.kind == "bid"
            )
            won = sum(obs.tricks_won[s] for s in team if s < len(obs.tricks_won))
            return won < target
        return prof.points_good[seat == obs.declarer]

    def _option(self, game: GameTables, obs: View, legal: tuple[Action, ...]) -> Action:
        prof = profile(game)
        hand = obs.hand
        chosen = obs.chosen
        options = [a for a in legal if a.kind == "choose"]

        def strength(a: Action) -> tuple[bool, float]:
            trump = prof.option_trumps.get(a.text, -1)
            if trump < 0:
                trump = obs.trump
            now = (*chosen, a.text)
            # an option under which no card is a trump (a game of no tricks) is a gamble
            # the estimate cannot judge: taken only when every option is like that
            with_trumps = bool(game.trump_order(trump, obs.qualifier, now))
            return with_trumps, estimate_tricks(game, hand, trump, obs.qualifier, now)

        return max(options, key=strength)

    # ------------------------------------------------------------ bouts
    def _bouts(self, game: GameTables, obs: View, legal: tuple[Action, ...]) -> Action:
        trump = obs.trump
        rank_of, suit_of = game.rank_of, game.suit_of
        kinds = {a.kind for a in legal}
        late = obs.stock_size == 0

        def cost(card: int) -> tuple[bool, int]:
            return (suit_of[card] == trump, -rank_of[card])

        if "swap" in kinds:
            return next(a for a in legal if a.kind == "swap")
        if "take" in kinds:
            transfers = [a for a in legal if a.kind == "transfer" and suit_of[a.cards[0]] != trump]
            if transfers:
                return min(transfers, key=lambda a: cost(a.cards[0]))
            beats = [a for a in legal if a.kind == "beat"]
            if not beats:
                return next(a for a in legal if a.kind == "take")
            best = min(beats, key=lambda a: cost(a.cards[1]))
            card = best.cards[1]
            # a high trump spent on a low card early in the deal is worth keeping
            n = len(game.model.deck.ranks)
            if (
                not late
                and suit_of[card] == trump
                and rank_of[card] < n // 3
                and obs.stock_size > obs.seats * 2
                and obs.table == 1
            ):
                return next(a for a in legal if a.kind == "take")
            return best
        if "done" in kinds:
            throws = [
                a for a in legal if a.kind == "throw" and (late or suit_of[a.cards[0]] != trump)
            ]
            if throws:
                return min(throws, key=lambda a: cost(a.cards[0]))
            return next(a for a in legal if a.kind == "done")
        attacks = [a for a in legal if a.kind == "attack"]
        if not attacks:
            return legal[0]
        return min(attacks, key=lambda a: (cost(a.cards[0]), -len(a.cards)))
