"""Where two variants disagree: a search with shrinking (hypothesis) for the shortest deal
and action sequence on which two variants of one deck differ.

Each try starts a match of both variants from the same start (seats, dealer, and either a
fresh scoreboard or a drawn one: scores and the values the variants keep) and the same deck
orders, then plays actions drawn one by one among the legal ones, comparing after every step
what the two variants say: the seat to act, the legal actions, the trick winner, the deal's
result (gains, contract, declarer, ...), the match scores and kept values, the end of the
match. The first step where they differ is a counterexample; hypothesis shrinks it towards
fewer actions, earlier actions in the legal list, the deck's own order and a fresh
scoreboard, so what comes out is short and readable. The same search with no difference
found says the two files agree on everything it tried (e.g. a refactored rules file).
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
MAX_CHOICES = 200  # drawn action choices per try; after them the first legal action


class DiffError(TrickcoreError):
    """Two variants that cannot be compared deal by deal (different decks or seats)."""


@attrs.frozen
class Start:
    """Where a try starts: seats, dealer, deck orders, and a scoreboard (or a fresh one)."""

    players: int
    dealer: int
    deck_orders: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...] | None = None
    kept: tuple[tuple[tuple[str, int | bool], ...], ...] | None = None

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


def comparable(a: Game, b: Game) -> list[int]:
    """The seat counts both variants are played with (a `DiffError` when the decks differ in
    size or no seat count is common)."""
    if a.model.deck.size != b.model.deck.size:
        raise DiffError(
            f"the decks differ ({a.model.deck.size} and {b.model.deck.size} cards): diff "
            "compares variants that deal the same deck"
        )
    seats = sorted(set(a.model.players) & set(b.model.players))
    if not seats:
        raise DiffError(
            f"no number of players is common to {a.name} ({list(a.model.players)}) and "
            f"{b.name} ({list(b.model.players)})"
        )
    return seats


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
                    deck_orders=[list(o) for o in start.deck_orders],
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
        if ma.is_over or ma.deals_dealt > len(start.deck_orders):
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
    a: Game, b: Game, deals: int = 200, seed: int = 0, shrink_seconds: float = 10.0
) -> DiffResult:
    """Search `deals` tries (each plays one or two deals) for a difference and shrink the
    first one found to the shortest (a `DiffResult` with `difference` None if none).

    Shrinking stops after `shrink_seconds`; the shortest difference found by then is kept."""
    try:
        from hypothesis import HealthCheck, Verbosity, given, settings
        from hypothesis import seed as hypothesis_seed
        from hypothesis import strategies as st
    except ImportError:
        raise TrickcoreError(
            "trickcore diff needs hypothesis, which is not installed: pip install 'trickcore[cli]'"
        ) from None
    seat_counts = comparable(a, b)
    size = a.model.deck.size
    kept_names = _kept_names(a, b)
    tries = 0
    deals_played = 0
    found: list[Difference] = []
    found_at = [0.0]

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
        tries += 1
        players = data.draw(st.sampled_from(seat_counts))
        dealer = data.draw(st.integers(0, players - 1))
        orders = data.draw(
            st.lists(st.permutations(range(size)), min_size=1, max_size=MAX_DECK_ORDERS)
        )
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
        start = Start(players, dealer, tuple(tuple(o) for o in orders), scores, kept)
        # the drawn choices, then the first legal action (choices shrink towards it)
        choices = data.draw(st.lists(st.integers(0, 255), max_size=MAX_CHOICES))
        steps = iter(choices)

        def choose(n: int) -> int:
            return next(steps, 0) % n

        if found and time.monotonic() - found_at[0] > shrink_seconds:
            return  # shrinking took long enough: keep the shortest found so far

        counted = [0, 0]
        difference = play_case(a, b, start, choose, dealt=counted)
        nonlocal deals_played
        deals_played += counted[0]
        if difference is not None:
            if not found:
                found_at[0] = time.monotonic()
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
    # a fresh match if one shows it, then the fewest actions, then the one shrunk last
    order = sorted(
        range(len(found)),
        key=lambda i: (found[i].start.scores is not None, len(found[i].actions), -i),
    )
    return DiffResult(found[order[0]], tries, deals_played)


def saved(match: Match) -> dict[str, Any]:
    """The match as a saved match (`trickcore.save_match` / `to_json` format)."""
    return match.to_json()


def card_texts(game: Game, order: Sequence[int]) -> list[str]:
    """A deck order as card texts."""
    return [game.card_texts[c] for c in order]
