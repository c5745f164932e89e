"""Invariants every rules file must keep, checked by playing it.

A run plays one match from a seed, choosing among the legal actions by a list of numbers
(so hypothesis can shrink a failing run), and checks after every action. What is right is
restated independently of the engine (`trickcore.checking.check_reference`: a tree-walking
evaluator of the rules' expressions and a replay of each deal from its deck order):

- every card is in exactly one place (the cards left out by `rest out` included), and
  each hand holds what the deal (its `size` worked out by the checker) and the actions put
  there;
- a seat is to act and has a legal action until the deal ends, every deal ends within a
  bound derived from the rules (`deal_action_bound`), every match within its limits; the
  deal is in the phase the rules give, the seat they give is to act, and the deal ends
  (or is void and dealt again) exactly when they end it; the dealer is the rules' dealer;
- the legal actions are exactly those the rules allow: the redeal offer, cards passed
  (every card of the hand, in deal order), calls of an auction in turns that uses the
  spec-4 call settings (bids by level, strain and qualifier above the last up to the cap,
  as `bid_if` and `pass_if` allow, double and redouble) and in pairs (bid, hold, pass
  over the listed values), bids
  (min..max as `bid_if` allows, blind bids and `look` before the hand is seen), the cards
  laid away after a pickup, talon cards given and laid away, contract raises, decisions
  and choices between phases
  (in the order of the file, while their `offer_if` holds; the options their conditions
  allow), and at a turn in trick play the decisions offered, meld announcements, card
  plays (the first leader, follow, beat, trump, overtrump by the card relations and
  obligations written as rules, `lead_if`, `play_if`, `declare_if`, the meld's cards after
  an announcement) and every move of a bout (attack, throw, beat, take, transfer, swap, and
  who is asked to throw in), nothing missing and nothing extra; every trick goes to the
  right player under the right trump;
- what a player sees of his own cards and of what lies open: his hand (nothing while he
  may bid blind and has not decided), the cards he set aside, received and passed, the
  turn-up (while it lies and the stock is open, or until play once picked up), the stock's
  size and state, the meld announced, the deal values, cards laid away, open hands, the
  passing offset, who sits out, for whom the player to act plays, the contract as said,
  the log (cards given, passed and laid away hidden from the others), match scores and
  kept values;
- card points, tricks won and declarations are recomputed from the cards in the tricks,
  deal scores from them by the scoring rules, match scores and kept values by running
  `after_deal`; scores change only at the end of a deal; the match ends exactly when the
  rules end it (target, `end_if`, `play_on`, limits) with the winners they rank first;
- illegal actions are refused and change nothing;
- information: at every step, for every seat, in another world consistent with what the
  seat has seen (two cards hidden from it swapped, the public history replayed), the seat
  sees the same observation, the same seat is to act, and the seat's legal actions are the
  same (they are computable from its observation alone);
- replaying the saved JSON gives the same match.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ..engine.actions import Action
from ..engine.bouts import BoutDeal
from ..engine.deal import Deal
from ..engine.game import Game
from ..engine.match import Match
from ..engine.replay import match_from_json
from ..engine.saving import saved_match_data
from ..language.errors import IllegalActionError, StuckError, TrickcoreError
from ..language.hands import meld_rich_hands
from ..language.loader import MergedRules
from .check_reference import (
    OVER,
    MatchBook,
    OutOfRange,
    Reference,
    TrickReplay,
    _calls,
    bout_limit,
    bout_moves,
    observed,
)


@attrs.frozen
class Violation:
    """A broken invariant: its name, a sentence, and how to reproduce it."""

    invariant: str
    message: str
    seed: int
    players: int
    actions: tuple[str, ...]

    def saved_match(self, game: Game) -> dict[str, Any]:
        """The failing run as a complete saved match (rules texts included), replayable
        with `trickcore replay` anywhere."""
        return saved_match_data(
            game,
            players=self.players,
            seed=self.seed,
            actions=self.actions,
            extra={"violation": {"invariant": self.invariant, "message": self.message}},
        )


class _Found(Exception):
    def __init__(self, invariant: str, message: str) -> None:
        super().__init__(message)
        self.invariant = invariant
        self.message = message


def deal_action_bound(game: Game, players: int, ref: Reference | None = None) -> int:
    """The most actions one deal can take under the rules (a deal that takes more is stuck);
    `ref`: the rules as the checker reads them (doubles, rounds of calls, a pickup)."""
    model = game.model
    hands = min(model.deal.hands or players, players)
    size = model.deck.size
    if model.bouts is not None:
        per_bout = 1 + 2 * size + 1 + hands * (size + 2) + hands
        return model.bouts.max_bouts * per_bout
    tricks = model.tricks
    assert tricks is not None
    b = tricks.bidding
    max_cap = size
    auction = 0
    if b is not None and "auction" in tricks.flow and b.style == "pairs":
        auction = 2 * len(b.values) + 2 * hands + 2  # each bid is higher: a bid, a hold
    elif b is not None and "auction" in tricks.flow:
        rng = random.Random(0)
        caps = [
            b.cap(game.hand_env(h, 0, hands))
            for h in meld_rich_hands(model)
            + [rng.sample(range(size), model.deal.per_hand) for _ in range(50)]
        ]
        max_cap = max([*caps, b.opening]) + size  # a little room for caps a sample misses
        steps = len(b.values) + 2 if b.values else (max_cap - b.opening) // b.step + 2
        bids = steps * len(game.qualifiers)
        passes_per_bid = b.ends_after_passes or hands
        if ref is not None and ref.doubles:  # a bid, passes, a double, passes, a redouble, ...
            auction = bids * (3 * passes_per_bid + 3) + hands
        else:
            auction = bids * (passes_per_bid + 1) + hands
        if ref is not None and ref.rounds:  # rounds of calls without a bid
            auction += ref.rounds * hands
    redeal = hands if model.redeal is not None else 0
    contract = tricks.contract
    contract_change = (
        (max_cap // contract.step + 2)
        if contract is not None and contract.raise_allowed and "contract" in tricks.flow
        else 0
    )
    passing = hands * tricks.pass_cards.count if tricks.pass_cards is not None else 0
    bidding = 2 * hands if tricks.bids is not None else 0  # a look, then a bid
    talon = tricks.talon.give_each_defender * hands + tricks.talon.lay_away
    if ref is not None:
        talon += ref.pickup_lay_away
    # decisions at a turn (each may be taken again while offered: a few per card) and an
    # announcement per lead; decisions between phases once per player at each point
    turn = sum(1 for d in tricks.decisions if set(d.at) & {"lead", "play"})
    between = len(tricks.decisions) - turn
    decisions = (size + 1) * (2 * turn + 1) + hands * between * (len(tricks.flow) + 1)
    return (
        redeal + passing + auction + bidding + talon + decisions + size + 1 + contract_change + size
    )


def _invariant(stage: str, kinds: set[str]) -> str:
    """The invariant wrong legal actions break, by phase and the kinds of actions involved."""
    if stage == "play":
        if "decide" in kinds:
            return "decisions"
        if "announce" in kinds:
            return "melds"
        return "obligations"
    names = {"bid": "auction", "decide": "decisions", "give": "talon", "raise": "contract"}
    return names.get(stage, stage)


def _sampled(deal: int, every: int) -> bool:
    """Deal 1 and every `every`-th deal after it; past ten such spans, every tenth span
    (a match of random players may run to a deal limit of hundreds)."""
    span = every if deal <= 10 * every else 10 * every
    return (deal - 1) % span == 0


@attrs.define
class _Twin:
    """Another world for one seat: the deal with two cards hidden from the seat swapped."""

    seat: int
    a: int
    b: int
    deal: Deal | BoutDeal


@attrs.frozen
class _BoutView:
    """The checker's copy of a bout's state: what D6 decides who may throw in from."""

    bouts: int
    seats: int
    attacker: int
    defender: int
    in_game: tuple[int, ...]
    table: list[list[int]]
    hands: list[list[int]]
    taking: bool

    @classmethod
    def of(cls, deal: BoutDeal) -> _BoutView:
        """A copy of the deal's bout as it is now."""
        return cls(
            deal.bouts,
            deal.seats,
            deal.attacker,
            deal.defender,
            tuple(deal.in_game),
            [list(pair) for pair in deal.table],
            [list(h) for h in deal.hands],
            deal.taking,
        )


@attrs.define
class _BoutBook:
    """What the checker keeps of a deal of bouts: bout count, limit, declined throwers, and
    the bout as it was before the last action."""

    bouts: int = -1
    limit: int = 1
    declined: set[int] = attrs.field(factory=set)
    ranks_before: set[int] = attrs.field(factory=set)
    swapped: int = -1
    before: _BoutView | None = None


class Checker:
    """Plays runs of one variant and reports the first broken invariant.

    `info_every` is how often (in steps) the information checks compare worlds (1: every
    step; 0: never), for every seat or (`every_seat=False`) one seat in turn, in every
    `info_deals`-th deal of the match (the first included; past the 10th such deal only
    every 10·`info_deals`-th); the other worlds are kept up to date at every step
    regardless. With `full_deals` set, the checks at every step (cards, legal actions,
    refused actions, information) run in the first `full_deals` trick deals of a run and
    then in every `step_deals`-th deal (sampled as the information checks are); the other
    trick deals are followed action by action (each action must be one the rules allow)
    and their tricks, scores, match scores and the match's end are checked, as in every
    deal. Deals of bouts are checked at every step.
    """

    def __init__(
        self,
        game: Game,
        max_actions: int = 400,
        rules: MergedRules | None = None,
        info_every: int = 1,
        worlds: int = 1,
        every_seat: bool = True,
        info_deals: int = 1,
        step_deals: int = 1,
        full_deals: int | None = None,
    ) -> None:
        self.game = game
        self.max_actions = max_actions
        self.ref = Reference(game.model, rules)
        self.info_every = max(info_every, 0)
        self.worlds = max(worlds, 1)
        self.every_seat = every_seat
        self.info_deals = max(info_deals, 1)
        self.step_deals = max(step_deals, 1)
        self.full_deals = full_deals  # None: every deal checked at every step
        self._bounds: dict[int, int] = {}
        self._action_texts = list(game.actions.by_text)
        bouts = game.model.bouts
        # rules that make whose turn it is depend on cards, on purpose (public facts): in
        # bouts, skipping who cannot add; in trick games, decisions between phases offered
        # by what a hand holds (being asked tells it)
        self._public_turns = bouts is not None and (
            bouts.skip_unable or bouts.first_attacker == "lowest_trump"
        )
        hand_functions = {"count_rank", "count_suit", "holds", "holds_trump"}
        self._public_turns = self._public_turns or any(
            d.offer_if is not None
            and not set(d.at) & {"lead", "play"}
            and bool(hand_functions & set(_calls(d.offer_if)))
            for d in self.ref.decisions
        )

    # ------------------------------------------------------------ a run
    def run(
        self, seed: int, players: int, choices: Sequence[int], whole: bool = False
    ) -> Violation | None:
        """Play one match (to its end if `whole`); return the first violation, or None."""
        taken: list[str] = []
        try:
            self._run(seed, players, choices, whole, taken)
        except _Found as found:
            return Violation(found.invariant, found.message, seed, players, tuple(taken))
        except TrickcoreError as exc:
            return Violation("error", f"the engine raised: {exc}", seed, players, tuple(taken))
        except OutOfRange as exc:
            message = f"{exc}: the rules stop the match there, but the engine went on"
            return Violation("number range", message, seed, players, tuple(taken))
        return None

    def _run(
        self, seed: int, players: int, choices: Sequence[int], whole: bool, taken: list[str]
    ) -> None:
        game = self.game
        rng = random.Random(seed)
        self._rng = random.Random(seed ^ 0x5EED)
        match = game.new_match(seed=seed, players=players)
        bound = self._bounds.setdefault(players, deal_action_bound(game, players, self.ref))
        book = MatchBook(self.ref, match.seats)
        self._dealt = 0
        self._accounted = 0  # deals of the match accounted for (followed, or void as dealt)
        self._orders: list[list[int]] = []  # the deck orders the seed shuffles, deal by deal
        self._shuffle = random.Random(seed)
        self._redeals = 0
        self._turn = seed
        self._skipped = False
        deal: Deal | BoutDeal | None = None
        in_deal = 0
        step = 0
        while not match.is_over and (whole or step < self.max_actions):
            if match.current is not deal:
                self._void_deals(match, book)
                deal = match.current
                self._begin_deal(deal, book, match)
                in_deal = 0
                light = self._light
            self._obs: dict[int, Any] = {}  # observations of this step, made once
            try:
                legal = match.legal_actions()
            except StuckError as exc:
                raise _Found("stuck", str(exc).split(";")[0]) from None
            due = not light and self.info_every and _sampled(self._dealt, self.info_deals)
            due = due and step % self.info_every == self._dealt % self.info_every
            if not light:
                self._check_cards(deal)
                self._check_hands(deal)
                self._check_moves(deal, legal)
                if step % 17 == 5:
                    self._check_illegal_refused(match, legal)
            if due:
                self._turn += 1
                seats = range(deal.seats) if self.every_seat else self._next_seat(deal)
                self._check_worlds(deal, legal, seats)
                if self._replay is not None and isinstance(deal, Deal):
                    # the views the worlds were compared on (made already), and every
                    # eighth such step all the seats compared
                    viewed = [x for x in seats if x in self._obs or step % 8 == 0]
                    self._check_views(deal, self._replay, viewed)
            choice = choices[step] if step < len(choices) else rng.randrange(1 << 16)
            action = legal[choice % len(legal)]
            scores = list(match.scores)
            seat = deal.to_act
            phase = deal.phase
            self._shapes.append(self._shape(deal))
            match.apply(action)
            self._obs = {}
            taken.append(action.text)
            self._follow(deal, seat, action, phase)
            in_deal += 1
            step += 1
            if match.current is not deal or match.is_over:
                self._check_deal_end(deal, match, book)
                self._check_match_limits(book)
                self._void_deals(match, book)
            elif match.scores != scores:
                raise _Found("scores", "match scores changed in the middle of a deal")
            if in_deal > bound:
                raise _Found(
                    "deal ends", f"a deal took more than {bound} actions, the most the rules allow"
                )
        if match.is_over:
            self._void_deals(match, book)
        self._check_replay(match)

    def _begin_deal(self, deal: Deal | BoutDeal, book: MatchBook, match: Match) -> None:
        self._dealt += 1
        self._light = (  # a trick deal followed and scored, not checked at every step
            self.full_deals is not None
            and isinstance(deal, Deal)
            and self._dealt > self.full_deals
            and not _sampled(self._dealt, self.step_deals)
        )
        self._twins: dict[int, list[_Twin]] = {}
        self._replay: TrickReplay | None = None
        self._bout = _BoutBook()
        self._shapes: list[tuple[Any, ...]] = []
        self._viewed = ""  # the stage whose views were last checked for every player
        if self.ref.forced_if is not None and deal.deck_order != self._order(self._accounted):
            raise _Found("deals", f"deal {self._accounted + 1} is not the one the seed shuffles")
        self._accounted += 1
        if deal.dealer != book.dealer:
            raise _Found("dealer", f"seat {deal.dealer} deals, the rules give seat {book.dealer}")
        kept = tuple(tuple(sorted(k.items())) for k in book.kept)
        for seat in range(0 if self._light else deal.seats):  # the views of a checked deal
            obs = match.observation(seat)
            if obs.scores != tuple(book.scores) or obs.kept != kept:
                raise _Found(
                    "view",
                    f"seat {seat} sees the scores {list(obs.scores)} and kept values "
                    f"{obs.kept}, the match has {book.scores} and {kept}",
                )
        if isinstance(deal, Deal):
            self._replay = TrickReplay(
                self.ref,
                deal.deck_order,
                deal.dealer,
                deal.seats,
                book.context(),
                watch=not self._light,
            )
            self._seen = self._replay.seen
            if self._replay.redealt:
                raise _Found(
                    "redeal",
                    f"seat {self._replay.redeal_by}'s hand makes the deal void as dealt "
                    "(redeal.forced_if), but it is played",
                )
        else:
            self._seen = [set(h) for h in deal.hands]
            public = {deal.trump_card} if deal.trump_card >= 0 else set()
            for seen in self._seen:
                seen.update(public)

    def _order(self, index: int) -> list[int]:
        """The deck order of the match's deal `index` (from 0): the seed's shuffles, as a
        match from a seed deals (C2)."""
        size = self.game.model.deck.size
        while len(self._orders) <= index:
            order = list(range(size))
            self._shuffle.shuffle(order)
            self._orders.append(order)
        return self._orders[index]

    def _void_deals(self, match: Match, book: MatchBook) -> None:
        """Deals void as dealt (`redeal.forced_if`: a hand that meets it voids the deal, nobody
        asked), which the match books and deals again before anyone acts: each must be void
        by the rules' own reading of its hands, and each is booked here (redeal count, dealer,
        the match's end)."""
        current = match.current
        last = match.deals_dealt if current.is_over else match.deals_dealt - 1
        while self._accounted < last:
            index = self._accounted
            if self.ref.forced_if is None:
                raise _Found(
                    "redeal", f"deal {index + 1} was void as dealt, but no rule voids a deal"
                )
            replay = TrickReplay(
                self.ref, self._order(index), book.dealer, match.seats, book.context()
            )
            if not replay.redealt:
                raise _Found(
                    "redeal",
                    f"deal {index + 1} was void as dealt, but no hand in it meets redeal.forced_if",
                )
            self._accounted += 1
            self._redeals += 1
            book.redeals += 1
            book.dealt(True)
            self._check_match_limits(book)
            over, winners = book.ends(True, -1)
            final = self._accounted == match.deals_dealt and match.is_over
            if over != final:
                raise _Found(
                    "match end",
                    f"after the void deal {index + 1} the match "
                    + ("is over" if final else "goes on")
                    + ", the rules "
                    + ("end it" if over else "deal again"),
                )
            if over and sorted(match.winners) != sorted(winners):
                raise _Found(
                    "winners",
                    f"the match is won by seats {sorted(match.winners)}, the rules rank "
                    f"{sorted(winners)} first",
                )

    # ------------------------------------------------------------ following the deal
    def _follow(self, deal: Deal | BoutDeal, seat: int, action: Action, phase: str) -> None:
        """Bring the restatement, the seen cards and the other worlds up to date."""
        replay = self._replay
        if replay is not None:
            if phase == replay.stage and seat != replay.to_act:
                raise _Found(
                    "turn",
                    f"seat {seat} acted ({phase}), but it was seat {replay.to_act}'s turn",
                )
            if phase != replay.stage:
                raise _Found(
                    "phases",
                    f"seat {seat} acted in phase '{phase}', the rules give seat "
                    f"{replay.to_act} in phase '{replay.stage}'",
                )
            if self._light:  # not compared as a whole at this step: the action taken, then
                if replay.allows(action.kind, action.card, action.text) is False:
                    raise _Found(
                        _invariant(replay.stage, {action.kind}),
                        f"seat {seat} ({phase}) took {action.text}, which the rules do not allow",
                    )
            done = len(replay.tricks)
            try:
                replay.apply(
                    seat,
                    action.kind,
                    action.card,
                    action.value,
                    action.to,
                    action.qualifier,
                    action.text,
                )
            except (ValueError, KeyError, IndexError, StopIteration):
                raise _Found(
                    "legal",
                    f"seat {seat} took '{action.text}' ({phase}), which the rules do not allow",
                ) from None
            if len(replay.tricks) > done and isinstance(deal, Deal):
                self._check_trick(deal, done)
        else:
            self._follow_bout(deal, seat, action)
        # each world is taken one step on, once, however many seats share it
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

    def _follow_bout(self, deal: Deal | BoutDeal, seat: int, action: Action) -> None:
        assert isinstance(deal, BoutDeal)
        for seen in self._seen:
            seen.update(action.cards)
        for s, hand in enumerate(deal.hands):
            self._seen[s].update(hand)
        book = self._bout
        mode = deal.rules.throw_in
        kind = action.kind
        book.swapped = seat if kind == "swap" else -1
        if kind == "done":
            book.declined.add(seat)
        elif kind == "attack":
            if mode == "any_time":
                book.declined.clear()
        elif kind == "take":
            if deal.rules.throw_after_take:
                book.declined.clear()
        elif kind == "transfer":
            book.declined.clear()
            book.limit = max(self._bout_limit_now(deal), len(deal.table))
        elif kind == "beat":
            if mode == "any_time":
                if self.ref.eval.rank(action.cards[1]) not in book.ranks_before:
                    book.declined.clear()
            elif all(pair[1] >= 0 for pair in deal.table):
                book.declined.clear()
        before = book.before
        if before is not None and deal.bouts != before.bouts:
            self._check_bout_end(deal.rules.throw_after_take, seat, action, before)

    def _check_bout_end(
        self, throw_after_take: bool, seat: int, action: Action, before: _BoutView
    ) -> None:
        """D6, D8, D9: a bout ends only when every attack card is beaten or the defender
        takes, and only once nobody is still due to throw in (the checker's own copy of the
        bout, with the last action applied to it)."""
        table, hands, taking = before.table, before.hands, before.taking
        kind, cards = action.kind, action.cards
        if kind == "beat":
            hands[seat].remove(cards[1])
            for pair in table:
                if pair[0] == cards[0]:
                    pair[1] = cards[1]
        elif kind == "throw":
            hands[seat].remove(cards[0])
            table.append([cards[0], -1])
        elif kind == "take":
            taking = True
        if not taking and any(pair[1] < 0 for pair in table):
            raise _Found(
                "bout end",
                f"the bout ended after '{action.text}' with an attack card unbeaten and "
                "the defender not taking (D8, D9)",
            )
        if taking and not throw_after_take:
            return  # D8: the defender picks up at once
        due = self._thrower(attrs.evolve(before, table=table, hands=hands, taking=taking))
        if due >= 0:
            raise _Found(
                "throw-in order",
                f"the bout ended after '{action.text}', but D6 still asks seat {due} to "
                "throw in (it has not said done and may add a card)",
            )

    def _bout_limit_now(self, deal: BoutDeal) -> int:
        env = {
            "defender_cards": len(deal.hands[deal.defender]),
            "bout_number": deal.bouts + 1,
            "players": len(deal.in_game),
            "stock": len(deal.stock),
        }
        return bout_limit(self.ref, env)

    # ------------------------------------------------------------ cards
    def _check_cards(self, deal: Deal | BoutDeal) -> None:
        if isinstance(deal, BoutDeal):
            places = [*(c for h in deal.hands for c in h), *deal.stock, *deal.discarded]
            places += [c for pair in deal.table for c in pair if c >= 0]
        else:
            places = [*(c for h in deal.hands for c in h), *deal.talon, *deal.stock]
            places += [deal.turnup] if deal.turnup >= 0 else []
            places += deal.laid_away
            places += deal.out
            places += deal.exchanged  # laid away in an exchange not finished yet
            places += [c for cards in deal.set_aside.values() for c in cards]
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

    def _check_hands(self, deal: Deal | BoutDeal) -> None:
        """Each hand holds the cards the deck order and the actions so far put there."""
        replay = self._replay
        if replay is None or not isinstance(deal, Deal):
            return
        text = self._texts
        for seat in range(deal.seats):
            if sorted(deal.hands[seat]) != sorted(replay.hands[seat]):
                raise _Found(
                    "cards",
                    f"seat {seat} holds {text(deal.hands[seat])} but the deal and the actions "
                    f"so far give it {text(replay.hands[seat])}",
                )
        if sorted(deal.talon) != sorted(replay.talon):
            raise _Found(
                "cards", f"the talon is {text(deal.talon)}, the rules leave {text(replay.talon)}"
            )
        if deal.stock != replay.stock or deal.turnup != replay.turnup:
            ct = self.game.card_text
            raise _Found(
                "cards",
                f"the stock is {', '.join(map(ct, deal.stock)) or 'empty'} (turn-up "
                f"{ct(deal.turnup) if deal.turnup >= 0 else 'none'}), the deal and the "
                f"actions so far leave {', '.join(map(ct, replay.stock)) or 'empty'} (turn-up "
                f"{ct(replay.turnup) if replay.turnup >= 0 else 'none'})",
            )
        if sorted(getattr(deal, "out", [])) != sorted(replay.out):
            raise _Found(
                "cards",
                f"{text(getattr(deal, 'out', []))} take no part in the deal, the pattern "
                f"leaves out {text(replay.out)}",
            )
        laid_away = [*replay.laid_away, *replay.pickup_away]
        if sorted(deal.laid_away) != sorted(laid_away):
            raise _Found(
                "cards",
                f"{text(deal.laid_away)} are laid away, the actions laid away {text(laid_away)}",
            )
        for seat in replay.active:
            aside = deal.set_aside.get(seat, [])
            if aside != replay.set_aside.get(seat, []):
                raise _Found(
                    "cards",
                    f"seat {seat} has set aside {text(aside)} but it chose "
                    f"{text(replay.set_aside.get(seat, []))}",
                )

    def _texts(self, cards: Iterable[int]) -> str:
        return ", ".join(self.game.card_text(c) for c in sorted(cards)) or "nothing"

    # ------------------------------------------------------------ legal actions
    def _check_moves(self, deal: Deal | BoutDeal, legal: Sequence[Action]) -> None:
        if isinstance(deal, BoutDeal):
            self._check_bout_moves(deal, legal)
            return
        replay = self._replay
        assert replay is not None
        stage, phase, seat = replay.stage, deal.phase, deal.to_act
        if phase != stage:
            raise _Found("phases", f"the deal is in phase '{phase}', the rules give '{stage}'")
        if seat != replay.to_act:
            raise _Found(
                "turn", f"seat {seat} is to act ({phase}), but it is seat {replay.to_act}'s turn"
            )
        right = replay.legal()
        offered = {a.text: a.kind for a in legal}
        if right is None or offered.keys() == right.keys():  # (not restated: see legal())
            if stage != self._viewed:  # every player's view as a phase begins
                self._viewed = stage
                self._check_views(deal, replay, replay.active)
            return
        extra = sorted(set(offered) - set(right))
        missing = sorted(set(right) - set(offered))
        kinds = {offered[x] for x in extra} | {right[x] for x in missing}
        words = []
        if extra:
            words.append(f"is offered {', '.join(extra)}, which the rules do not allow")
        if missing:
            words.append(f"is not offered {', '.join(missing)}, which the rules allow")
        raise _Found(_invariant(stage, kinds), f"seat {seat} ({phase}) " + " and ".join(words))

    def _check_views(self, deal: Deal, replay: TrickReplay, seats: Iterable[int]) -> None:
        """What these seats see of their own cards and of what lies open
        (`TrickReplay.view`): every player's view as each phase begins, and at the steps
        whose other worlds are compared the views compared."""
        for seat in seats:
            got = observed(self._observation(deal, seat))
            want = replay.view(seat)
            for field, value in want.items():
                if got[field] == value:
                    continue
                hidden = field == "hand" and not replay.sees_own_hand(seat)
                shown = got[field]
                if field == "log":  # the first entry that differs
                    k = next(
                        (i for i, (a, b) in enumerate(zip(shown, value, strict=False)) if a != b),
                        min(len(shown), len(value)),
                    )
                    shown, value = shown[k : k + 1], value[k : k + 1]
                raise _Found(
                    "hidden hand" if hidden else "view",
                    f"seat {seat} sees {field} {shown!r}, but "
                    + (
                        "it has not looked at its cards (it may bid blind)"
                        if hidden
                        else f"the rules give {value!r}"
                    ),
                )

    def _check_bout_moves(self, deal: BoutDeal, legal: Sequence[Action]) -> None:
        """D5-D8, D12: the complete set of legal actions, compared both ways."""
        book = self._bout
        bouts = deal.rules
        if deal.bouts != book.bouts:  # a new bout: D7's limit, nobody has declined yet
            book.bouts = deal.bouts
            book.limit = self._bout_limit_now(deal)
            book.declined = set()
        if len(deal.table) > book.limit:
            raise _Found(
                "bout limit", f"{len(deal.table)} attack cards, more than the limit {book.limit}"
            )
        rank = self.ref.eval.rank
        book.ranks_before = {rank(c) for pair in deal.table for c in pair if c >= 0}
        view = book.before = _BoutView.of(deal)
        seat = deal.to_act
        phase = deal.phase
        n = len(self.game.model.deck.ranks)
        swap = None
        swap_rank = self.game.model.bouts.swap_rank if self.game.model.bouts else None
        if swap_rank is not None and deal.stock and deal.trump >= 0:
            card = deal.trump * n + swap_rank
            if card in deal.hands[seat] and card != deal.trump_card:
                swap = card
        room = None
        if bouts.transfer:
            nxt = self._next_in_game(deal, deal.defender)
            if nxt != deal.defender:
                room = len(deal.hands[nxt])
        expected = bout_moves(
            self.ref, phase, deal.hands[seat], deal.table, deal.trump, book.limit, swap, room
        )
        offered = {(a.kind, tuple(a.cards)) for a in legal}
        role = {"attack": "attacking", "defend": "defending", "throw": "throwing in"}.get(
            phase, phase
        )
        extra = sorted(offered - expected)
        missing = sorted(expected - offered)
        if extra or missing:
            words = []
            if extra:
                words.append(f"is offered {self._bout_texts(extra)}, which the rules do not allow")
            if missing:
                words.append(f"is not offered {self._bout_texts(missing)}, which the rules allow")
            raise _Found("bout moves", f"seat {seat} ({role}) " + " and ".join(words))
        if phase == "throw" and book.swapped != seat:  # D12: a swap keeps the turn
            due = self._thrower(view)
            if due != seat:
                who = f"seat {due}" if due >= 0 else "nobody"
                raise _Found(
                    "throw-in order", f"seat {seat} is asked to throw in, but D6 asks {who}"
                )
        elif phase == "defend" and (
            bouts.throw_in == "any_time" or all(pair[1] >= 0 for pair in deal.table)
        ):
            due = self._thrower(view)
            if due >= 0:
                raise _Found(
                    "throw-in order",
                    f"the defender (seat {seat}) is asked to answer, but D6 first asks "
                    f"seat {due} to throw in",
                )

    def _bout_texts(self, moves: Sequence[tuple[str, tuple[int, ...]]]) -> str:
        ct = self.game.card_text
        out = []
        for kind, cards in moves:
            if kind == "beat":
                out.append(f"'beat {ct(cards[0])} with {ct(cards[1])}'")
            else:
                out.append("'" + " ".join([kind, *(ct(c) for c in cards)]) + "'")
        return ", ".join(out)

    def _next_in_game(self, deal: BoutDeal | _BoutView, seat: int) -> int:
        for k in range(1, deal.seats + 1):
            s = (seat + k) % deal.seats
            if s in deal.in_game:
                return s
        return seat

    def _thrower(self, view: _BoutView) -> int:
        """D6: the first player, from the attacker round the table, who may throw in now
        (has not said done, may add under throw_in_by and skip_unable, the bout has room);
        -1 if nobody."""
        rules = self.game.model.bouts
        assert rules is not None
        if len(view.table) >= self._bout.limit:
            return -1
        order = [
            (view.attacker + k) % view.seats
            for k in range(view.seats)
            if (view.attacker + k) % view.seats in view.in_game
            and (view.attacker + k) % view.seats != view.defender
        ]
        if rules.throw_in_by == "attacker":
            order = order[:1]
        elif rules.throw_in_by == "neighbours":
            left = self._next_in_game(view, view.defender)
            order = [s for s in order if s in (view.attacker, left)]
        rank = self.ref.eval.rank
        ranks = {rank(c) for pair in view.table for c in pair if c >= 0}
        for s in order:
            if s in self._bout.declined:
                continue
            if rules.skip_unable and not any(rank(c) in ranks for c in view.hands[s]):
                continue
            return s
        return -1

    # ------------------------------------------------------------ deal end
    def _check_deal_end(self, deal: Deal | BoutDeal, match: Match, book: MatchBook) -> None:
        if isinstance(deal, BoutDeal):
            if deal.draw == (deal.loser >= 0):
                raise _Found("result", "a deal of bouts must end with one loser or a draw")
            holders = [s for s in deal.active if deal.hands[s]]
            if deal.loser >= 0 and holders != [deal.loser] and deal.bouts < deal.rules.max_bouts:
                raise _Found("result", "the loser is not the last player holding cards")
            envs = [
                {
                    "loser": seat == deal.loser,
                    "draw": deal.draw,
                    "cards_left": len(deal.hands[seat]),
                    "players": len(deal.active),
                }
                for seat in range(deal.seats)
            ]
            book.after_deal(envs, [0] * deal.seats, "")
            book.dealt(False, deal.loser)
            self._check_book(match, book)
            self._check_end(match, book, False, -1)
            return
        replay = self._replay
        assert replay is not None
        if replay.stage != OVER:
            raise _Found(
                "deal ends",
                "the deal ended, but the rules go on: "
                f"seat {replay.to_act} is to act in phase '{replay.stage}'",
            )
        if not deal.redealt and not self._light:
            # what everybody sees at the end (the talon left untaken, laid-away cards)
            self._check_views(deal, replay, replay.active)
        if deal.redealt != replay.redealt:
            raise _Found(
                "redeal",
                "the deal "
                + ("ended unplayed (redealt)" if deal.redealt else "was scored")
                + ", the rules "
                + ("void it and deal again" if replay.redealt else "score it"),
            )
        if deal.redealt:
            self._redeals += 1
            book.redeals += 1
            book.dealt(True)
            self._check_book(match, book)
            self._check_end(match, book, True, replay.declarer)
            return
        self._check_tricks(deal, replay)
        gains, envs = self.ref.deal_scores(replay)
        engine = deal.gains or [0] * deal.seats
        for seat in range(deal.seats):
            if engine[seat] != gains[seat]:
                raise _Found(
                    "deal score",
                    f"seat {seat} scored {engine[seat]} but the scoring rules give {gains[seat]} "
                    f"(card points {replay.card_points[seat]}, tricks {replay.tricks_won[seat]}, "
                    f"contract {replay.contract})",
                )
        book.after_deal(envs, gains, replay.qualifier)
        book.dealt(False)
        self._check_book(match, book)
        self._check_end(match, book, False, replay.declarer)

    def _check_end(self, match: Match, book: MatchBook, redealt: bool, declarer: int) -> None:
        """The match ends exactly when the rules end it (target, `end_if`, `play_on`, the
        limits), with the winners they rank first."""
        if match.stopped is not None:
            return
        over, winners = book.ends(redealt, declarer)
        ended = match.is_over
        if match.deals_dealt > self._accounted:  # it dealt again (void deals follow): on
            ended = False
            if not over:
                return
        if ended != over:
            scores = ", ".join(map(str, book.scores))
            raise _Found(
                "match end",
                f"after deal {book.deals_scored + book.redeals} (scores {scores}) the match "
                + ("is over" if ended else "goes on")
                + ", the rules "
                + ("end it" if over else "play another deal"),
            )
        if over and sorted(match.winners) != sorted(winners):
            raise _Found(
                "winners",
                f"the match is won by seats {sorted(match.winners)}, the rules rank "
                f"{sorted(winners)} first",
            )

    def _check_trick(self, deal: Deal, i: int) -> None:
        """T15: trick i holds the cards played and goes to the highest trump, else the
        highest card of the suit led."""
        assert self._replay is not None
        cards, winner, trump = self._replay.tricks[i]
        t = deal.tricks[i] if i < len(deal.tricks) else None
        if t is not None and tuple(t.cards) == cards and t.trump != trump:
            raise _Found(
                "trump", f"trick {i + 1} is recorded with trump {t.trump}, the rules give {trump}"
            )
        if t is None or tuple(t.cards) != cards or t.winner != winner:
            text = " ".join(self.game.card_text(c) for _, c in cards)
            got = "nobody" if t is None else f"seat {t.winner}"
            raise _Found(
                "trick winner", f"trick {text} went to {got}, the rules give it to seat {winner}"
            )

    def _check_tricks(self, deal: Deal, replay: TrickReplay) -> None:
        if len(deal.tricks) != len(replay.tricks):
            raise _Found(
                "tricks", f"{len(deal.tricks)} tricks, the cards played make {len(replay.tricks)}"
            )
        for i in range(len(deal.tricks)):
            self._check_trick(deal, i)
        points_for = self.ref.points_for  # card points may depend on the trump
        total = sum(points_for(trump)[c] for cards, _, trump in replay.tricks for _, c in cards)
        one_trump = all(trump == replay.trump for _, _, trump in replay.tricks)
        out_of_play = any(
            (
                replay.talon,
                replay.stock,
                replay.turnup >= 0,
                replay.laid_away,
                replay.out,
                replay.pickup_away,
                any(replay.hands[s] for s in replay.active),  # the hands of who sat out
            )
        )
        deck_points = sum(points_for(replay.trump))
        if not replay.ended_early and not out_of_play and one_trump and total != deck_points:
            raise _Found("points", f"card points in tricks add up to {total}")
        for seat in range(deal.seats):
            if deal.card_points[seat] != replay.card_points[seat]:
                raise _Found(
                    "card points",
                    f"seat {seat} has {deal.card_points[seat]} card points, its tricks hold "
                    f"{replay.card_points[seat]}",
                )
            if deal.tricks_won[seat] != replay.tricks_won[seat]:
                raise _Found(
                    "tricks won",
                    f"seat {seat} is counted {deal.tricks_won[seat]} tricks, it won "
                    f"{replay.tricks_won[seat]}",
                )
        mine = [
            (seat, self.ref.melds[mi].name, suit, value)
            for seat, mi, suit, value in replay.declarations
        ]
        theirs = [(d.seat, d.meld, d.suit, d.value) for d in deal.declarations]
        if mine != theirs:
            raise _Found(
                "declarations",
                f"the deal records the declarations {theirs}, the leads made {mine}",
            )

    def _check_book(self, match: Match, book: MatchBook) -> None:
        for seat in range(match.seats):
            if match.scores[seat] != book.scores[seat]:
                raise _Found(
                    "match score",
                    f"seat {seat}'s score is {match.scores[seat]} but the after_deal rules "
                    f"give {book.scores[seat]}",
                )
            kept = match.kept_state(seat)
            if kept != book.kept[seat]:
                raise _Found(
                    "kept values",
                    f"seat {seat} keeps {kept} but the after_deal rules give {book.kept[seat]}",
                )

    def _check_match_limits(self, book: MatchBook) -> None:
        """Every match ends: scored deals within deal_limit, redeals within redeal_limit
        (counted here, deal by deal)."""
        rules = self.game.model.match
        limit = rules.deal_limit
        if book.deals_scored > limit:
            raise _Found("match ends", f"the match played more than its {limit} deals")
        if self._redeals > rules.redeal_limit + 1:
            raise _Found("match ends", f"the match went past its {rules.redeal_limit} redeals")

    # ------------------------------------------------------------ illegal actions
    def _check_illegal_refused(self, match: Match, legal: Sequence[Any]) -> None:
        """Illegal and malformed actions are refused and change nothing: the history and
        whose turn it is after each, the public view and the acting seat's observation after
        them all (the hands are compared with the restatement at the next step)."""
        legal_texts = {a.text for a in legal}
        texts = self._action_texts
        picked = [t for t in texts[:: max(len(texts) // 5, 1)] if t not in legal_texts]
        picked += ["", "play", "bid", "nonsense 12", "give to"]
        history = list(match.history)
        current, to_act = match.current, match.to_act
        views = [match.deal, match.observation(to_act)]
        for text in picked:
            try:
                match.apply(text)
            except IllegalActionError:
                pass
            else:
                raise _Found("illegal refused", f"the illegal action '{text}' was accepted")
            if match.history != history or match.current is not current or match.to_act != to_act:
                raise _Found("illegal refused", f"the refused action '{text}' changed the state")
        if [match.deal, match.observation(to_act)] != views:
            raise _Found(
                "illegal refused",
                f"refusing the actions {', '.join(repr(t) for t in picked)} changed what a "
                "seat sees",
            )

    # ------------------------------------------------------------ hidden information
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

    def _check_worlds(
        self, deal: Deal | BoutDeal, legal: Sequence[Action], seats: Sequence[int]
    ) -> None:
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
                and (not self._public_turns or self._shape(t.deal) == self._shape(deal))
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
            obs = self._observation(deal, seat)
            for twin in twins:
                pair = f"{self.game.card_text(twin.a)} and {self.game.card_text(twin.b)}"
                if twin.deal.to_act != deal.to_act:
                    raise _Found(
                        "no leak",
                        f"whose turn it is depends on cards hidden from seat {seat} "
                        f"({pair} swapped: seat {twin.deal.to_act} instead of {deal.to_act})",
                    )
                if twin.deal.observation(seat) != obs:
                    raise _Found(
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
                        raise _Found(
                            "observation complete",
                            f"seat {seat}'s legal actions are not computable from its "
                            f"observation: with {pair} swapped they are {theirs}, not {mine}",
                        )

    def _observation(self, deal: Deal | BoutDeal, seat: int) -> Any:
        """The deal's observation for `seat` at this step (made once)."""
        obs = self._obs.get(seat)
        if obs is None:
            obs = self._obs[seat] = deal.observation(seat)
        return obs

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
                    and (not self._public_turns or self._shape(t.deal) == self._shape(deal))
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
            ) and (not self._public_turns or self._shape(twin.deal) == self._shape(deal)):
                return twin
        return None

    def _shape(self, deal: Deal | BoutDeal) -> tuple[Any, ...]:
        """The public course of the deal: who acts in which phase, table and hand sizes."""
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
        return (deal.to_act, deal.phase)

    def _advance(self, twin: _Twin, owners: set[int], actor: int, action: Action, k: int) -> bool:
        """Take the same action (its hidden cards swapped) in the other world.

        `owners` are the seats that cannot tell the world apart from the deal (the two
        swapped cards hidden from each); `k` is the action's index in the deal. False when
        the world turns out not to be consistent with what was public: another player's
        action impossible there, or a course of play that the rules make depend on cards on
        purpose (D6 skip_unable).
        """
        world = twin.deal
        if self._public_turns and self._shape(world) != self._shapes[k]:
            return False
        pair = self._pair_text
        if world.to_act != actor:
            if self._public_turns:
                return False
            raise _Found(
                "no leak",
                f"whose turn it is depends on cards hidden from seat {min(owners)} "
                f"({pair(twin)} swapped)",
            )
        mapped = self._mapped(action, twin.a, twin.b)
        try:
            world.apply(mapped)
        except (IllegalActionError, StuckError):  # not legal there, or no action at all
            if actor in owners:
                raise _Found(
                    "observation complete",
                    f"seat {actor}'s action '{action.text}' is not legal in a world it cannot "
                    f"tell apart ({pair(twin)} swapped)",
                ) from None
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

    # ------------------------------------------------------------ replay
    def _check_replay(self, match: Match) -> None:
        data = match.to_json()
        again = match_from_json(data, self.game)
        if again.history != match.history or again.scores != match.scores:
            raise _Found("replay", "replaying the saved match gave a different match")
        for seat in range(match.seats):
            if again.observation(seat) != match.observation(seat):
                raise _Found("replay", f"after replay seat {seat} sees something else")
