"""Where two variants disagree: a search with shrinking (hypothesis) for the shortest deal
and action sequence on which two variants differ.

Each try starts a match of both variants from the same start (seats, dealer, and either a
fresh scoreboard or a drawn one: scores and the values the variants keep) and the same deck
orders, then plays actions drawn one by one among the legal ones, comparing after every step
what the two variants say: the seat to act, the legal actions, the trick winner, the deal's
result (gains, contract, declarer, ...), the match scores and kept values, the end of the
match. The first step where they differ is a counterexample; hypothesis shrinks it towards
fewer actions, earlier actions in the legal list, the deck's own order and a fresh
scoreboard, so what comes out is short and readable. The same search with no difference
found says the two files agree on everything it tried (e.g. a refactored rules file).

Decks: two variants of one deck deal the same deck orders. When one deck has cards the
other lacks (a 36-card house rule of a 32-card game), a try draws an order of all the cards
either deck has, and each variant deals its own cards in that order: the same cards lie in
the same relative places, and the difference is usually the first hand that holds a card the
other deck lacks. Variants with no number of players in common differ before any action;
that is reported as a difference of zero actions, each variant dealt at its own count.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..engine.game import Game
from ..engine.match import Match
from ..language.errors import TrickcoreError

SCORE_RANGE = 2000  # drawn starting scores lie within ±SCORE_RANGE
KEPT_RANGE = 10  # drawn kept whole numbers lie within 0..KEPT_RANGE
MAX_DECK_ORDERS = 2
MAX_DEALS_PER_TRY = 12  # deals after the drawn orders are shuffled from a drawn seed
MAX_CHOICES = 200  # drawn action choices per try; after them the first or the last legal one


class DiffError(TrickcoreError):
    """Two variants that cannot be compared from the same start."""


@attrs.frozen
class Start:
    """Where a try starts: seats, dealer, deck orders, and a scoreboard (or a fresh one).

    `deck_orders` index the cards of variant A's deck, or, when `cards` is given (decks of
    different cards), the card texts in `cards`; `orders_for` gives each variant its own.
    A try plays `deals` deals (at least one per deck order); deals after the given orders
    are shuffled from `seed`, the same way for both variants."""

    players: int
    dealer: int
    deck_orders: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...] | None = None
    kept: tuple[tuple[tuple[str, int | bool], ...], ...] | None = None
    cards: tuple[str, ...] | None = None
    deals: int = 0
    seed: int = 0

    @property
    def deals_to_play(self) -> int:
        """How many deals a try plays (its deck orders, or more when `deals` says so)."""
        return max(self.deals, len(self.deck_orders))

    def orders_for(self, game: Game) -> list[list[int]]:
        """The deck orders as `game` deals them (its own cards, in the drawn order)."""
        if self.cards is None:
            return [list(o) for o in self.deck_orders]
        index = {t: c for c, t in enumerate(game.card_texts)}
        return [
            [index[self.cards[i]] for i in o if self.cards[i] in index] for o in self.deck_orders
        ]

    def kept_for(self, game: Game) -> list[dict[str, Any]] | None:
        """The kept values of this start that `game` keeps."""
        if self.kept is None:
            return None
        names = {name for name, _, _ in game.model.match.keep}
        return [{n: v for n, v in seat if n in names} for seat in self.kept]


@attrs.frozen
class Difference:
    """The first step at which the variants disagree, with both matches up to it."""

    what: str  # "legal actions", "seat to act", "trick winner", "deal result", ...
    a_says: str
    b_says: str
    start: Start
    actions: tuple[str, ...]  # the actions both played, the last one included
    match_a: Match
    match_b: Match


@attrs.frozen
class DiffResult:
    """A difference, or none in `tries` tries (`deals` deals played to their end)."""

    difference: Difference | None
    tries: int
    deals: int = 0


def common_cards(a: Game, b: Game) -> tuple[str, ...] | None:
    """The cards a try orders when the decks differ (A's cards, then those only B has), or
    None when both variants deal decks of one size (orders are then positions in the deck,
    so a deck whose cards are only named otherwise compares card for card)."""
    if a.model.deck.size == b.model.deck.size:
        return None
    own = set(a.card_texts)
    return (*a.card_texts, *(t for t in b.card_texts if t not in own))


def _players_differ(a: Game, b: Game) -> Difference:
    """The difference of variants with no number of players in common: each dealt at its
    smallest count from one deck order, before any action."""
    cards = common_cards(a, b) or tuple(a.card_texts)
    start = Start(0, 0, (tuple(range(len(cards))),), cards=cards)
    made = []
    for g in (a, b):
        made.append(
            g.new_match(deck_orders=start.orders_for(g), players=min(g.model.players), dealer=0)
        )
    return Difference(
        "number of players",
        ", ".join(map(str, sorted(a.model.players))),
        ", ".join(map(str, sorted(b.model.players))),
        start,
        (),
        made[0],
        made[1],
    )


def _view(m: Match, deal: Any, kept: frozenset[str]) -> dict[str, Any]:
    """What is compared after each step (the public facts both variants must agree on; of
    the kept values those named in `kept`, the ones both variants keep)."""
    tricks = getattr(deal.public_view(), "tricks", ())  # of the deal the action was in
    return {
        "match over": m.is_over,
        "winners": tuple(m.winners),
        "scores": tuple(m.scores),
        "kept values": tuple(tuple(sorted(x for x in k.items() if x[0] in kept)) for k in m.kept),
        "deal result": tuple(
            tuple(sorted((k, v) for k, v in r.items() if k != "scores")) for r in m.deal_results
        ),
        "trick winner": tuple((t[0], t[2]) for t in tricks) if tricks else (),
    }


def _say(what: str, value: Any) -> str:
    if what == "trick winner":
        return f"seat {value[-1][1]} wins trick {len(value)}" if value else "no trick yet"
    if what == "deal result":
        return ", ".join(f"{k} {v}" for k, v in value[-1]) if value else "the deal goes on"
    if what == "match over":
        return "the match is over" if value else "the match goes on"
    if what in ("scores", "winners"):
        return ", ".join(map(str, value)) or "none"
    if what == "kept values":
        return "; ".join(
            f"seat {s}: " + ", ".join(f"{n}={v}" for n, v in seat) for s, seat in enumerate(value)
        )
    return str(value)


def _kept_names(a: Game, b: Game) -> list[tuple[str, str]]:
    names: dict[str, str] = {}
    for g in (a, b):
        for name, typ, _ in g.model.match.keep:
            names.setdefault(name, typ)
    return sorted(names.items())


def play_case(
    a: Game,
    b: Game,
    start: Start,
    choose: Callable[[int], int],
    max_steps: int = 5000,
    dealt: list[int] | None = None,
) -> Difference | None:
    """Play both variants from `start`, the actions picked by `choose(number of legal
    actions) -> index`, until they disagree (the difference) or the given deals end (None).
    The deals played under A are added to `dealt[0]`."""
    made = []
    for g in (a, b):
        try:
            made.append(
                g.new_match(
                    seed=start.seed,
                    deck_orders=start.orders_for(g),
                    players=start.players,
                    scores=list(start.scores) if start.scores is not None else None,
                    kept=start.kept_for(g),
                    dealer=start.dealer,
                )
            )
        except TrickcoreError as exc:
            made.append(str(exc))  # type: ignore[arg-type]
    ma, mb = made
    if isinstance(ma, str) or isinstance(mb, str):
        if isinstance(ma, str) and isinstance(mb, str):
            return None
        raise DiffError(
            f"the start is refused by one variant only: {ma if isinstance(ma, str) else mb}"
        )
    actions: list[str] = []
    common = frozenset(n for n, _, _ in a.model.match.keep) & frozenset(
        n for n, _, _ in b.model.match.keep
    )

    def differ(what: str, x: Any, y: Any) -> Difference:
        return Difference(what, _say(what, x), _say(what, y), start, tuple(actions), ma, mb)

    def compare_views(deal_a: Any, deal_b: Any) -> Difference | None:
        va, vb = _view(ma, deal_a, common), _view(mb, deal_b, common)
        for what in (
            "trick winner",
            "deal result",
            "scores",
            "kept values",
            "match over",
            "winners",
        ):
            if va[what] != vb[what]:
                return differ(what, va[what], vb[what])
        return None

    found = compare_views(ma.current, mb.current)
    if found:
        return found
    for _ in range(max_steps):
        if dealt is not None:
            dealt[0] += len(ma.deal_results) - dealt[1]
            dealt[1] = len(ma.deal_results)
        if ma.is_over or ma.deals_dealt > start.deals_to_play:
            return None
        if ma.to_act != mb.to_act:
            return differ("seat to act", ma.to_act, mb.to_act)
        la = [x.text for x in ma.legal_actions()]
        lb = [x.text for x in mb.legal_actions()]
        if sorted(la) != sorted(lb):
            only_a = sorted(set(la) - set(lb))
            only_b = sorted(set(lb) - set(la))
            return Difference(
                "legal actions",
                "also " + ", ".join(only_a) if only_a else "nothing more",
                "also " + ", ".join(only_b) if only_b else "nothing more",
                start,
                tuple(actions),
                ma,
                mb,
            )
        action = la[choose(len(la))]
        actions.append(f"{ma.to_act}: {action}")
        deal_a, deal_b = ma.current, mb.current
        ea, eb = _apply(ma, action), _apply(mb, action)
        if ea != eb:
            return differ("stops the match", ea or "plays on", eb or "plays on")
        found = compare_views(deal_a, deal_b)
        if found:
            return found
    return None


def _apply(m: Match, action: str) -> str | None:
    """Apply an action; a rule that stops the match is an outcome to compare, not a crash."""
    try:
        m.apply(action)
    except TrickcoreError as exc:
        return f"stopped: {type(exc).__name__}"
    return None


def find_difference(
    a: Game,
    b: Game,
    deals: int = 200,
    seed: int = 0,
    shrink_seconds: float | None = 10.0,
    shrink_tries: int | None = None,
) -> DiffResult:
    """Search `deals` tries (each plays 1 to MAX_DEALS_PER_TRY deals) for a difference and
    shrink the first one found to the shortest (a `DiffResult` with `difference` None if none).

    Shrinking stops after `shrink_seconds` (None: no time cap) or after `shrink_tries` tries
    (None: no cap), whichever comes first; the shortest difference found by then is kept.
    A budget in tries alone (`shrink_seconds=None`) gives the same difference on any machine,
    a time cap one that may depend on the machine's speed."""
    try:
        from hypothesis import HealthCheck, Verbosity, given, settings
        from hypothesis import seed as hypothesis_seed
        from hypothesis import strategies as st
    except ImportError:
        raise TrickcoreError(
            "trickcore diff needs hypothesis, which is not installed: pip install 'trickcore[cli]'"
        ) from None
    seat_counts = sorted(set(a.model.players) & set(b.model.players))
    if not seat_counts:
        return DiffResult(_players_differ(a, b), 0, 0)
    cards = common_cards(a, b)
    size = len(cards) if cards is not None else a.model.deck.size
    kept_names = _kept_names(a, b)
    tries = 0
    deals_played = 0
    found: list[Difference] = []
    found_at = [0.0, 0]  # when the first difference was found: time.monotonic(), tries

    class Differs(Exception):
        pass

    @hypothesis_seed(seed)
    @settings(
        max_examples=deals,
        database=None,
        deadline=None,
        derandomize=False,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(st.data())
    def probe(data: Any) -> None:
        nonlocal tries
        if found and (
            (shrink_seconds is not None and time.monotonic() - found_at[0] > shrink_seconds)
            or (shrink_tries is not None and tries - found_at[1] >= shrink_tries)
        ):
            return  # shrinking took long enough (nothing drawn): keep the shortest found so far
        tries += 1
        players = data.draw(st.sampled_from(seat_counts))
        dealer = data.draw(st.integers(0, players - 1))
        try_deals = data.draw(st.integers(1, MAX_DEALS_PER_TRY))  # shrinks towards one deal
        orders = data.draw(
            st.lists(
                st.permutations(range(size)), min_size=1, max_size=min(try_deals, MAX_DECK_ORDERS)
            )
        )
        shuffle_seed = data.draw(st.integers(0, 2**16)) if try_deals > len(orders) else 0
        scores = kept = None
        if data.draw(st.booleans()):  # a drawn scoreboard (shrinks towards a fresh one)
            scores = tuple(
                data.draw(st.integers(-SCORE_RANGE, SCORE_RANGE)) for _ in range(players)
            )
            if kept_names:
                kept = tuple(
                    tuple(
                        (
                            name,
                            data.draw(st.booleans())
                            if typ == "bool"
                            else data.draw(st.integers(0, KEPT_RANGE)),
                        )
                        for name, typ in kept_names
                    )
                    for _ in range(players)
                )
        start = Start(
            players,
            dealer,
            tuple(tuple(o) for o in orders),
            scores,
            kept,
            cards,
            try_deals,
            shuffle_seed,
        )
        # the drawn choices (an index into the legal actions, negative from the end), then
        # always the first legal action or always the last (a pass, often): choices shrink
        # towards the first legal action
        choices = data.draw(st.lists(st.integers(-128, 127), max_size=MAX_CHOICES))
        then = data.draw(st.sampled_from((0, -1)))
        steps = iter(choices)

        def choose(n: int) -> int:
            return next(steps, then) % n

        counted = [0, 0]
        difference = play_case(a, b, start, choose, dealt=counted)
        nonlocal deals_played
        deals_played += counted[0]
        if difference is not None:
            if not found:
                found_at[0], found_at[1] = time.monotonic(), tries
            found.append(difference)
            raise Differs

    try:
        probe()
    except Differs:
        pass
    except Exception:
        if not found:
            raise
        # cut short: hypothesis says its shrunk example no longer fails; we have them all
    if not found:
        return DiffResult(None, tries, deals_played)
    # a fresh match if one shows it, then the fewest actions, players and deck orders, then
    # the one shrunk last
    order = sorted(
        range(len(found)),
        key=lambda i: (
            found[i].start.scores is not None,
            len(found[i].actions),
            found[i].start.deals_to_play,
            found[i].start.players,
            len(found[i].start.deck_orders),
            -i,
        ),
    )
    return DiffResult(found[order[0]], tries, deals_played)


def saved(match: Match) -> dict[str, Any]:
    """The match as a saved match (`trickcore.save_match` / `to_json` format)."""
    return match.to_json()


def card_texts(game: Game, start: Start, order: Sequence[int]) -> list[str]:
    """A deck order of `start` as the card texts `game` deals."""
    if start.cards is not None:
        own = set(game.card_texts)
        return [start.cards[i] for i in order if start.cards[i] in own]
    return [game.card_texts[c] for c in order]
