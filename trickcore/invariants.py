"""Invariants every rules file must keep, checked by playing it.

A run plays one match from a seed, choosing among the legal actions by a list of numbers
(so hypothesis can shrink a failing run), and checks after every action:

- every card is in exactly one place;
- a seat is to act and has a legal action until the deal ends, and every deal ends within
  a bound derived from the rules (`deal_action_bound`);
- every legal card play keeps the obligations (an independent restatement of follow,
  beat, trump and overtrump, read from the same model) and every trick or bout is won by
  the right player;
- card points add up to the deck total, deal scores are what the scoring rules give for
  the deal's quantities, match scores change only at the end of a deal;
- illegal actions are refused and change nothing;
- a seat's observation and legal actions do not change when hidden cards are swapped;
- replaying the saved JSON gives the same match.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from .bouts import BoutDeal
from .deal import Deal
from .errors import IllegalActionError, StuckError, TrickcoreError
from .game import Game
from .hands import meld_rich_hands
from .match import Match
from .saving import FORMAT, VERSION, match_from_json


@attrs.frozen
class Violation:
    """A broken invariant: its name, a sentence, and how to reproduce it."""

    invariant: str
    message: str
    seed: int
    players: int
    actions: tuple[str, ...]

    def saved_match(self, game: Game) -> dict[str, Any]:
        """The failing run as a saved match, replayable with `trickcore replay`."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "variant": game.name,
            "variant_path": game.model.sources[-1] if game.model.sources else None,
            "variant_hash": game.content_hash,
            "players": self.players,
            "seed": self.seed,
            "deck_orders": None,
            "start": {"scores": None, "kept": None, "dealer": 0},
            "actions": list(self.actions),
            "violation": {"invariant": self.invariant, "message": self.message},
        }


class _Found(Exception):
    def __init__(self, invariant: str, message: str) -> None:
        super().__init__(message)
        self.invariant = invariant
        self.message = message


def deal_action_bound(game: Game, players: int) -> int:
    """The most actions one deal can take under the rules (a deal that takes more is stuck)."""
    model = game.model
    hands = min(model.deal.hands or players, players)
    size = model.deck.size
    if model.bouts is not None:
        per_bout = 1 + 2 * size + 1 + hands * (size + 2) + hands
        return model.bouts.max_bouts * per_bout
    tricks = model.tricks
    assert tricks is not None
    b = tricks.bidding
    rng = random.Random(0)
    caps = [
        b.cap(game.hand_env(h, 0, hands))
        for h in meld_rich_hands(model)
        + [rng.sample(range(size), model.deal.per_hand) for _ in range(50)]
    ]
    max_cap = max([*caps, b.opening]) + size  # a little room for caps a sample misses
    bids = ((max_cap - b.opening) // b.step + 2) * len(game.qualifiers)
    passes_per_bid = b.ends_after_passes or hands
    auction = bids * (passes_per_bid + 1) + hands
    redeal = hands if model.redeal is not None else 0
    contract_change = (max_cap // tricks.contract.step + 2) if tricks.contract.raise_allowed else 0
    return redeal + auction + size + 1 + contract_change + size


class Checker:
    """Plays runs of one variant and reports the first broken invariant."""

    def __init__(self, game: Game, max_actions: int = 400) -> None:
        self.game = game
        self.max_actions = max_actions
        self._bounds: dict[int, int] = {}

    # ------------------------------------------------------------ a run
    def run(self, seed: int, players: int, choices: Sequence[int]) -> Violation | None:
        """Play one match; return the first violation, or None."""
        game = self.game
        rng = random.Random(seed)
        taken: list[str] = []
        match: Match | None = None
        try:
            match = game.new_match(seed=seed, players=players)
            bound = self._bounds.setdefault(players, deal_action_bound(game, players))
            in_deal = 0
            deal_no = match.deals_dealt
            for step in range(self.max_actions):
                if match.is_over:
                    break
                deal = match.current
                self._check_cards(deal)
                try:
                    legal = match.legal_actions()
                except StuckError as exc:
                    raise _Found("stuck", str(exc).split(";")[0]) from None
                self._check_obligations(deal, legal)
                if step % 17 == 5:
                    self._check_illegal_refused(match, legal)
                if step % 23 == 11 and match.deals_dealt == 1:
                    self._check_no_leak(match, seed, players, taken, rng)
                choice = choices[step] if step < len(choices) else rng.randrange(1 << 16)
                action = legal[choice % len(legal)]
                scores = list(match.scores)
                bout = _bout_snapshot(deal)
                match.apply(action)
                taken.append(action.text)
                if bout is not None and isinstance(deal, BoutDeal) and deal.bouts > bout[0]:
                    self._check_bout_end(deal, bout, action)
                in_deal += 1
                if match.deals_dealt != deal_no or match.is_over:
                    self._check_deal_end(deal, match, scores)
                    deal_no = match.deals_dealt
                    in_deal = 0
                elif match.scores != scores:
                    raise _Found("scores", "match scores changed in the middle of a deal")
                if in_deal > bound:
                    raise _Found(
                        "deal ends",
                        f"a deal took more than {bound} actions, the most the rules allow",
                    )
            if match.is_over and match.deals_dealt > game.model.match.deal_limit:
                raise _Found("match ends", "the match went past its deal limit")
            self._check_replay(match)
        except _Found as found:
            return Violation(found.invariant, found.message, seed, players, tuple(taken))
        except TrickcoreError as exc:
            return Violation("error", f"the engine raised: {exc}", seed, players, tuple(taken))
        return None

    # ------------------------------------------------------------ cards
    def _check_cards(self, deal: Deal | BoutDeal) -> None:
        if isinstance(deal, BoutDeal):
            places = [*(c for h in deal.hands for c in h), *deal.stock, *deal.discarded]
            places += [c for pair in deal.table for c in pair if c >= 0]
        else:
            places = [*(c for h in deal.hands for c in h), *deal.talon]
            places += [c for _, c in deal.trick]
            places += [c for t in deal.tricks for _, c in t.cards]
        counts = Counter(places)
        size = self.game.model.deck.size
        if len(places) != size or len(counts) != size:
            twice = [self.game.card_text(c) for c, n in counts.items() if n > 1]
            missing = [self.game.card_text(c) for c in range(size) if c not in counts]
            raise _Found(
                "cards",
                "a card is not in exactly one place"
                + (f" (twice: {', '.join(twice)})" if twice else "")
                + (f" (nowhere: {', '.join(missing)})" if missing else ""),
            )

    # ------------------------------------------------------------ obligations
    def _check_obligations(self, deal: Deal | BoutDeal, legal: Sequence[Any]) -> None:
        if isinstance(deal, BoutDeal):
            self._check_bout_moves(deal, legal)
            return
        if deal.phase != "play":
            return
        plays = sorted({a.card for a in legal if a.kind in ("play", "marry")})
        expected = sorted(expected_plays(self.game, deal))
        if plays != expected:
            text = self.game.card_text
            raise _Found(
                "obligations",
                f"seat {deal.to_act} may play {', '.join(map(text, plays))} but the rules "
                f"allow exactly {', '.join(map(text, expected))}",
            )

    def _check_bout_moves(self, deal: BoutDeal, legal: Sequence[Any]) -> None:
        game = self.game
        suit_of, rank_of = game.suit_of, game.rank_of
        trump = deal.trump
        if len(deal.table) > deal.limit:
            raise _Found("bout limit", f"{len(deal.table)} attack cards, more than {deal.limit}")
        on_table = {rank_of[c] for pair in deal.table for c in pair if c >= 0}
        for a in legal:
            if a.kind == "beat":
                attack, card = a.cards
                same = suit_of[card] == suit_of[attack] and rank_of[card] < rank_of[attack]
                trumps = suit_of[card] == trump and suit_of[attack] != trump
                if not (same or trumps):
                    raise _Found("obligations", f"'{a.text}' is offered but does not beat")
            elif a.kind == "throw" and rank_of[a.cards[0]] not in on_table:
                raise _Found("obligations", f"'{a.text}' is offered, its rank is not on the table")
            elif a.kind == "attack" and len({rank_of[c] for c in a.cards}) != 1:
                raise _Found("obligations", f"'{a.text}' mixes ranks")

    def _check_bout_end(
        self, deal: BoutDeal, before: tuple[int, list[int], bool, int], last: Any
    ) -> None:
        """D8, D9: a taken bout goes to the defender's hand, a won one to the discards."""
        _, cards, taking, defender = before
        taking = taking or last.kind == "take"
        added = last.cards if last.kind in ("throw", "beat") else ()
        table = sorted({*cards, *added})
        if taking:
            if not set(table) <= set(deal.hands[defender]):
                raise _Found("bout winner", "the defender took, but the table is not in his hand")
        elif sorted(deal.discarded[-len(table) :]) != table:
            raise _Found("bout winner", "a defended bout was not discarded")

    # ------------------------------------------------------------ deal end
    def _check_deal_end(self, deal: Deal | BoutDeal, match: Match, before: list[int]) -> None:
        if isinstance(deal, BoutDeal):
            if deal.draw == (deal.loser >= 0):
                raise _Found("result", "a deal of bouts must end with one loser or a draw")
            holders = [s for s in deal.active if deal.hands[s]]
            if deal.loser >= 0 and holders != [deal.loser] and deal.bouts < deal.rules.max_bouts:
                raise _Found("result", "the loser is not the last player holding cards")
            return
        if deal.redealt:
            return
        for t in deal.tricks:
            if t.winner != trick_winner(self.game, t.cards, t.trump):
                raise _Found(
                    "trick winner", f"trick {[c for _, c in t.cards]} went to the wrong seat"
                )
        total = sum(self.game.points_of[c] for t in deal.tricks for _, c in t.cards)
        if total != self.game.model.deck.total_points:
            raise _Found("points", f"card points in tricks add up to {total}")
        gains = deal.gains or []
        for seat in deal.active:
            counting = sum(
                d.value
                for d in deal.declarations
                if d.seat == seat
                and self.game.model.melds[self.game.meld_index[d.meld]].counts_if(
                    {
                        **self.game.result_base,
                        "tricks_won": deal.tricks_won[seat],
                        "tricks_total": deal.tricks_total,
                        "declarer": seat == deal.declarer,
                        "card_points": deal.card_points[seat],
                        "contract": deal.contract,
                        "meld_points": 0,
                        "melds_declared": 0,
                        "players": len(deal.active),
                    }
                )
            )
            expected = self.game.deal_score(
                seat == deal.declarer,
                deal.qualifier,
                card_points=deal.card_points[seat],
                meld_points=counting,
                melds_declared=sum(d.value for d in deal.declarations if d.seat == seat),
                tricks_won=deal.tricks_won[seat],
                tricks_total=deal.tricks_total,
                contract=deal.contract,
                players=len(deal.active),
            )
            if gains[seat] != expected:
                raise _Found(
                    "deal score",
                    f"seat {seat} scored {gains[seat]} but the scoring rules give {expected}",
                )
        rules = self.game.model.match
        if not rules.keep and len(rules.after_deal) == 1:
            for seat in range(match.seats):
                if match.scores[seat] != before[seat] + gains[seat]:
                    raise _Found("match score", f"seat {seat}'s score did not change by its gain")

    # ------------------------------------------------------------ illegal actions
    def _check_illegal_refused(self, match: Match, legal: Sequence[Any]) -> None:
        legal_texts = {a.text for a in legal}
        candidates = [t for t in self.game.actions.by_text if t not in legal_texts]
        candidates += ["", "play", "bid", "nonsense 12", "give to"]
        views = [match.observation(s) for s in range(match.seats)]
        history = list(match.history)
        for text in candidates[:: max(len(candidates) // 5, 1)]:
            try:
                match.apply(text)
            except IllegalActionError:
                pass
            else:
                raise _Found("illegal refused", f"the illegal action '{text}' was accepted")
            if [
                match.observation(s) for s in range(match.seats)
            ] != views or match.history != history:
                raise _Found("illegal refused", f"the refused action '{text}' changed the state")

    # ------------------------------------------------------------ hidden information
    def _check_no_leak(
        self, match: Match, seed: int, players: int, taken: list[str], rng: random.Random
    ) -> None:
        deal = match.current
        seat = deal.to_act
        obs = match.observation(seat)
        visible = _visible_cards(self.game, deal, obs, taken)
        hidden = [c for c in range(self.game.model.deck.size) if c not in visible]
        if len(hidden) < 2:
            return
        a, b = rng.sample(hidden, 2)
        order = list(deal.deck_order)
        i, j = order.index(a), order.index(b)
        order[i], order[j] = order[j], order[i]
        twin = self.game.new_match(seed=seed, deck_orders=[order], players=players)
        try:
            for text in taken:
                twin.apply(text)
        except TrickcoreError:
            return  # this swap contradicts what was played: not a world the seat thinks possible
        if [s for _, s, _ in twin.history] != [s for _, s, _ in match.history]:
            return  # other seats would have acted: the seat saw that this world is not the one
        if twin.to_act != match.to_act:
            bouts = self.game.model.bouts
            if bouts is not None and bouts.skip_unable:
                return  # the rules skip a player with nothing to add: the table sees it
            raise _Found(
                "no leak",
                f"whose turn it is after seat {seat}'s view depends on cards hidden from it "
                f"({self.game.card_text(a)}, {self.game.card_text(b)} swapped)",
            )
        if twin.observation(seat) != obs:
            raise _Found(
                "no leak",
                f"seat {seat}'s observation changed when two cards hidden from it "
                f"({self.game.card_text(a)}, {self.game.card_text(b)}) were swapped",
            )
        mine = [x.text for x in match.legal_actions()]
        theirs = [x.text for x in twin.legal_actions()]
        if mine != theirs:
            raise _Found(
                "no leak",
                f"seat {seat}'s legal actions changed when two hidden cards were swapped",
            )

    # ------------------------------------------------------------ replay
    def _check_replay(self, match: Match) -> None:
        data = match.to_json()
        again = match_from_json(data, self.game)
        if again.history != match.history or again.scores != match.scores:
            raise _Found("replay", "replaying the saved match gave a different match")
        for seat in range(match.seats):
            if again.observation(seat) != match.observation(seat):
                raise _Found("replay", f"after replay seat {seat} sees something else")


def _bout_snapshot(deal: Deal | BoutDeal) -> tuple[int, list[int], bool, int] | None:
    """What a bout's end is checked against: bouts so far, table cards, taking, defender."""
    if not isinstance(deal, BoutDeal):
        return None
    cards = [c for pair in deal.table for c in pair if c >= 0]
    return deal.bouts, cards, deal.taking, deal.defender


def _visible_cards(game: Game, deal: Deal | BoutDeal, obs: Any, taken: list[str]) -> set[int]:
    """Every card this seat has seen or holds (cards named in public actions included)."""
    seen: set[str] = set(obs.hand)
    if isinstance(deal, BoutDeal):
        if obs.trump_card:
            seen.add(obs.trump_card)
        seen.update(obs.discarded)
        for text in taken:
            seen.update(w for w in text.split()[1:] if w != "with")
    else:
        seen.update(obs.talon_shown or ())
        seen.update(obs.received)
        seen.update(obs.talon_taken)
        for _, cards in obs.given:
            seen.update(cards)
        seen.update(c for _, c in obs.trick)
        for _, cards, _ in obs.tricks:
            seen.update(c for _, c in cards)
    by_text = {game.card_text(c): c for c in range(game.model.deck.size)}
    return {by_text[t] for t in seen if t in by_text}


def trick_winner(game: Game, cards: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that wins a trick: the highest trump, else the highest card of the led suit."""
    suit_of, rank_of = game.suit_of, game.rank_of
    led = suit_of[cards[0][1]]
    trumps = [(rank_of[c], s) for s, c in cards if suit_of[c] == trump]
    if trumps:
        return min(trumps)[1]
    return min((rank_of[c], s) for s, c in cards if suit_of[c] == led)[1]


def expected_plays(game: Game, deal: Deal) -> set[int]:
    """The cards the obligations allow the seat to act to play, stated afresh from the model."""
    rules = deal.rules.play
    hand = deal.hands[deal.to_act]
    if not deal.trick:
        if rules.lead_if is None:
            return set(hand)
        return {a.card for a in deal.legal_actions() if a.kind == "play"}  # lead_if is a rule
    suit_of, rank_of = game.suit_of, game.rank_of
    trump = deal.trump
    led = suit_of[deal.trick[0][1]]
    on_table = [c for _, c in deal.trick]
    follow = [c for c in hand if suit_of[c] == led]
    if rules.follow and follow:
        trumped = led != trump and any(suit_of[c] == trump for c in on_table)
        if rules.beat_in_suit and not trumped:
            best = min(rank_of[c] for c in on_table if suit_of[c] == led)
            higher = [c for c in follow if rank_of[c] < best]
            return set(higher or follow)
        return set(follow)
    if follow:
        return set(hand)  # no obligation to follow: anything goes
    trumps = [c for c in hand if suit_of[c] == trump] if trump >= 0 else []
    if rules.trump_when_void and trumps:
        if rules.overtrump:
            in_trick = [rank_of[c] for c in on_table if suit_of[c] == trump]
            if in_trick:
                over = [c for c in trumps if rank_of[c] < min(in_trick)]
                return set(over or trumps)
        return set(trumps)
    return set(hand)
