"""An independent restatement of a variant's rules, for the consistency checker.

Nothing here calls the engine's rule code (`Deal`, `BoutDeal`, `Match`, the compiled
`CompiledExpr` closures, `Game.deal_score`) to decide what is right. Expressions are
evaluated by walking their syntax trees (`trickcore.syntax`) as the loader gives them; the
deck's tables (suits, ranks, card points, meld values) are read from the model. The
checker compares the engine against what is computed here:

- `Evaluator`: a tree-walking evaluator of the expression language;
- `TrickReplay`: one trick deal followed action by action from its deck order: hands,
  talon, auction result, tricks and their winners, trump, declarations, and from them the
  legal card plays (obligations, `lead_if`, `declare_if`) and the deal scores;
- `bout_moves`: every legal action of a game of bouts in the current state (D5-D8, D12);
- `MatchBook`: scores and kept values across a match, by running `after_deal` itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from . import syntax as s
from .limits import MAX_VALUE
from .loader import MergedBlock, MergedRules, load_rules, load_rules_embedded
from .model import VariantModel

_BOOL_WORDS = {"yes": True, "true": True, "no": False, "false": False}


class ReferenceError(Exception):
    """The restatement cannot be built (e.g. the rules text is not at hand)."""


class OutOfRange(ReferenceError):
    """A number the rules compute left ±MAX_VALUE: the rules stop the match there."""


def in_range(value: Any, what: str) -> Any:
    """`value` if it is a truth value or a number within ±MAX_VALUE, else OutOfRange."""
    if not isinstance(value, bool) and not -MAX_VALUE <= value <= MAX_VALUE:
        raise OutOfRange(f"{what} gives a number outside ±{MAX_VALUE:,}")
    return value


# ---------------------------------------------------------------- expressions
class Evaluator:
    """Evaluates expression syntax trees of one variant (never the compiled closures)."""

    def __init__(self, model: VariantModel) -> None:
        deck = model.deck
        self.n_ranks = len(deck.ranks)
        self.ranks = {r.symbol: i for i, r in enumerate(deck.ranks)}
        self.suits = {su.symbol: i for i, su in enumerate(deck.suits)}
        self.suits.update({su.name: i for i, su in enumerate(deck.suits)})

    def rank(self, card: int) -> int:
        """A card's rank index (0 is the highest)."""
        return card % self.n_ranks

    def suit(self, card: int) -> int:
        """A card's suit index."""
        return card // self.n_ranks

    def __call__(
        self,
        expr: s.Expr,
        env: Mapping[str, Any],
        hand: Sequence[int] = (),
        qualifier: str = "",
        card: int = -1,
    ) -> Any:
        """The value of `expr` where the names mean what `env` says."""
        return self._eval(expr, env, hand, qualifier, card)

    def _symbol(self, arg: s.Expr) -> str:
        if isinstance(arg, s.Name):
            return arg.name
        if isinstance(arg, (s.Number, s.String)):
            return str(arg.value)
        raise ReferenceError("a rank, suit or qualifier argument is not a word")

    def _eval(
        self, e: s.Expr, env: Mapping[str, Any], hand: Sequence[int], q: str, card: int
    ) -> Any:
        ev = self._eval
        if isinstance(e, s.Number):
            return e.value
        if isinstance(e, s.Name):
            if e.name in _BOOL_WORDS:
                return _BOOL_WORDS[e.name]
            return env[e.name]
        if isinstance(e, s.Unary):
            v = ev(e.operand, env, hand, q, card)
            return -v if e.op == "-" else not v
        if isinstance(e, s.Binary):
            a = ev(e.left, env, hand, q, card)
            b = ev(e.right, env, hand, q, card)
            op = e.op
            if op == "and":
                return bool(a) and bool(b)
            if op == "or":
                return bool(a) or bool(b)
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "==":
                return a == b
            if op == "!=":
                return a != b
            if op == "<":
                return a < b
            if op == "<=":
                return a <= b
            if op == ">":
                return a > b
            if op == ">=":
                return a >= b
            raise ReferenceError(f"unknown operator {op}")
        if isinstance(e, s.Cond):
            branch = e.then if ev(e.test, env, hand, q, card) else e.other
            return ev(branch, env, hand, q, card)
        if isinstance(e, s.Call):
            return self._call(e, env, hand, q, card)
        raise ReferenceError(f"cannot evaluate {e!r}")

    def _call(
        self, e: s.Call, env: Mapping[str, Any], hand: Sequence[int], q: str, card: int
    ) -> Any:
        f = e.func
        if f in ("count_rank", "card_rank"):
            r = self.ranks[self._symbol(e.args[0])]
            if f == "card_rank":
                return self.rank(card) == r
            return sum(1 for c in hand if self.rank(c) == r)
        if f in ("count_suit", "card_suit"):
            su = self.suits[self._symbol(e.args[0])]
            if f == "card_suit":
                return self.suit(card) == su
            return sum(1 for c in hand if self.suit(c) == su)
        if f == "bid_is":
            return q == self._symbol(e.args[0])
        args = [self._eval(a, env, hand, q, card) for a in e.args]
        if f == "min":
            return min(args)
        if f == "max":
            return max(args)
        if f == "abs":
            return -args[0] if args[0] < 0 else args[0]
        x, m = args
        if f == "round":  # nearest multiple, halves up
            whole, rest = divmod(x, m)
            return (whole + (1 if 2 * rest >= m else 0)) * m
        if f == "floor":
            return x - x % m
        if f == "ceil":
            return x + (-x) % m
        raise ReferenceError(f"unknown function {f}")


def _expr_of(entry: Any) -> s.Expr | None:
    """The expression of a setting written `name = e` (or `name: e`, as the compiler allows)."""
    if isinstance(entry, s.ExprSetting):
        return entry.expr
    if isinstance(entry, s.ListSetting) and len(entry.items) == 1:
        return entry.items[0].head
    return None


def _block(root: MergedBlock, key: str) -> MergedBlock | None:
    entry = root.entries.get(key)
    return entry if isinstance(entry, MergedBlock) else None


def _setting(root: MergedBlock, block: str, name: str) -> s.Expr | None:
    b = _block(root, block)
    return _expr_of(b.entries.get(name)) if b is not None else None


def _words(root: MergedBlock, block: str, name: str) -> list[tuple[str, ...]]:
    b = _block(root, block)
    entry = b.entries.get(name) if b is not None else None
    if isinstance(entry, s.ListSetting):
        return [it.parts for it in entry.items]
    return []


class Reference:
    """A variant's rules as the checker reads them: syntax trees plus the deck's tables."""

    def __init__(self, model: VariantModel, rules: MergedRules | None = None) -> None:
        if rules is None:
            rules = load_reference_rules(model)
        self.model = model
        self.eval = Evaluator(model)
        root = rules.root
        self.root = root
        deck = model.deck
        n = len(deck.ranks)
        self.size = deck.size
        self.points = [deck.points[c % n] for c in range(deck.size)]
        self.deck_points = sum(self.points)
        # melds: (meld index, its expression trees, ranks, values per suit, sets trump)
        self.melds: list[tuple[str, list[int], list[int], bool, s.Expr | None, s.Expr | None]]
        self.melds = []
        for meld in model.melds:
            block = _block(root, f"meld {meld.name}")
            declare_if = _expr_of(block.entries.get("declare_if")) if block else None
            counts_if = _expr_of(block.entries.get("counts_if")) if block else None
            self.melds.append(
                (
                    meld.name,
                    list(meld.ranks),
                    list(meld.values),
                    meld.sets_trump,
                    declare_if,
                    counts_if,
                )
            )
        self.all_melds = sum(sum(values) for _, _, values, _, _, _ in self.melds)
        scoring = _block(root, "scoring")
        self.definitions: dict[str, s.Expr] = {}
        if scoring is not None:
            for key, entry in scoring.entries.items():
                expr = _expr_of(entry)
                if expr is not None:
                    self.definitions[key] = expr
        after = _block(root, "after_deal")
        self.after_deal: list[s.Step] = [
            e for e in (after.entries.values() if after else ()) if isinstance(e, s.Step)
        ]
        self.keep: list[tuple[str, bool | int]] = []
        for parts in _words(root, "match", "keep"):
            init = parts[1]
            self.keep.append((parts[0], _BOOL_WORDS[init] if init in _BOOL_WORDS else int(init)))
        target = _words(root, "match", "target")
        self.target = 0 if not target or target[0][0] == "none" else int(target[0][0])
        self.lead_if = _setting(root, "play", "lead_if")
        self.split_if = _setting(root, "talon", "split_if")
        self.bout_limit = _setting(root, "bouts", "limit")

    def start_context(self) -> dict[str, Any]:
        """What a seat knows of the match as it begins (deal 1, score 0, initial kept)."""
        return {**dict(self.keep), "deal_number": 1, "score": 0, "target": self.target}

    # ------------------------------------------------------------ scoring
    def deal_scores(self, replay: TrickReplay) -> tuple[list[int], list[dict[str, Any]]]:
        """Each seat's deal score, and the names after_deal reads, from the replayed deal."""
        gains = [0] * replay.seats
        envs: list[dict[str, Any]] = []
        for seat in range(replay.seats):
            env = self.result_env(replay, seat)
            if seat in replay.active:
                rule = "declarer" if seat == replay.declarer else "defender"
                gains[seat] = int(self._definition(rule, env, replay.qualifier, set()))
            envs.append(env)
        return gains, envs

    def result_env(self, replay: TrickReplay, seat: int) -> dict[str, Any]:
        """The result quantities and scoring definitions of a seat, computed from the deal."""
        own = [d for d in replay.declarations if d[0] == seat]
        env: dict[str, Any] = {
            "card_points": replay.card_points[seat],
            "tricks_won": replay.tricks_won[seat],
            "tricks_total": replay.tricks_total,
            "contract": replay.contract,
            "declarer": seat == replay.declarer,
            "deck_points": self.deck_points,
            "all_melds": self.all_melds,
            "players": len(replay.active),
            "melds_declared": sum(d[3] for d in own),
            "meld_points": 0,
            **replay.context[seat],
        }
        counting = 0
        for _, mi, _, value in own:
            counts_if = self.melds[mi][5]
            if counts_if is None or self.eval(counts_if, env, qualifier=replay.qualifier):
                counting += value
        env["meld_points"] = counting
        done: set[str] = set()
        for name in self.definitions:
            if name not in ("declarer", "defender"):
                self._definition(name, env, replay.qualifier, done)
        return env

    def _definition(self, name: str, env: dict[str, Any], qualifier: str, done: set[str]) -> Any:
        """A scoring definition's value, its own dependencies first (written order aside)."""
        expr = self.definitions[name]
        for dep in _names(expr):
            if dep in self.definitions and dep not in ("declarer", "defender") and dep not in done:
                self._definition(dep, env, qualifier, done)
        value = in_range(self.eval(expr, env, qualifier=qualifier), f"scoring definition '{name}'")
        if name not in ("declarer", "defender"):
            env[name] = value
            done.add(name)
        return value


def _names(expr: s.Expr) -> Iterable[str]:
    stack = [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, s.Name):
            yield e.name
        elif isinstance(e, s.Unary):
            stack.append(e.operand)
        elif isinstance(e, s.Binary):
            stack += [e.left, e.right]
        elif isinstance(e, s.Cond):
            stack += [e.test, e.then, e.other]
        elif isinstance(e, s.Call):
            stack += list(e.args)


def load_reference_rules(model: VariantModel) -> MergedRules:
    """The merged syntax tree of the rules the model was compiled from (its own texts)."""
    files, texts = model.source_files, model.source_texts
    if texts and len(files) == len(texts):
        return load_rules_embedded(list(zip(files, texts, strict=True)), model.name)
    if model.sources and Path(model.sources[-1]).is_file():
        return load_rules(Path(model.sources[-1]))
    raise ReferenceError(f"the rules text of {model.name} is not at hand")


# ---------------------------------------------------------------- trick deals
def players_in_deal(model: VariantModel, dealer: int, seats: int) -> list[int]:
    """C1, S3: the seats in a deal, from the left of the dealer; the dealer sits out if needed."""
    order = [(dealer + k) % seats for k in range(1, seats + 1)]
    hands = model.deal.hands or seats
    if hands < seats:
        order = [x for x in order if x != dealer][:hands]
    return order


class TrickReplay:
    """A trick deal followed action by action from its deck order, without the engine."""

    def __init__(
        self,
        ref: Reference,
        deck_order: Sequence[int],
        dealer: int,
        seats: int,
        context: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        model = ref.model
        self.ref = ref
        self.seats = seats
        # what each seat knows of the match as the deal begins (from the checker's own book)
        self.context = (
            [dict(c) for c in context]
            if context is not None
            else [ref.start_context() for _ in range(seats)]
        )
        self.active = players_in_deal(model, dealer, seats)
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.talon: list[int] = []
        pos = 0
        for packet in model.deal.pattern:
            if packet.to == "each":
                for seat in self.active:
                    self.hands[seat] += deck_order[pos : pos + packet.count]
                    pos += packet.count
            else:
                self.talon += deck_order[pos : pos + packet.count]
                pos += packet.count
        self.talon_cards = list(self.talon)
        self.talon_moved = False
        self.declarer = -1
        self.contract = 0
        self.qualifier = ""
        self.trump = -1
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[tuple[tuple[int, int], ...], int, int]] = []  # cards, winner, trump
        self.tricks_won = [0] * seats
        self.card_points = [0] * seats
        self.leads = [0] * seats
        self.declarations: list[tuple[int, int, int, int]] = []  # seat, meld, suit, value
        self.tricks_total = 0
        self.seen: list[set[int]] = [set(h) for h in self.hands]  # cards each seat has seen

    # ------------------------------------------------------------ following the deal
    def take_talon(self) -> None:
        """After the auction: the declarer takes the talon, or (split_if) it is shared out."""
        if self.talon_moved or self.declarer < 0:
            return
        self.talon_moved = True
        ref = self.ref
        tricks = ref.model.tricks
        if tricks is not None and "talon" not in tricks.flow:
            return  # a deal without a talon phase leaves the talon where it lies
        talon, self.talon = self.talon, []
        split = ref.split_if is not None and ref.eval(ref.split_if, {}, qualifier=self.qualifier)
        if split:
            i = self.active.index(self.declarer)
            for k, card in enumerate(talon):
                seat = self.active[(i + k) % len(self.active)]
                self.hands[seat].append(card)
                self.seen[seat].add(card)
            return
        self.hands[self.declarer] += talon
        self.seen[self.declarer].update(talon)
        if tricks is not None and tricks.talon.show:
            for seen in self.seen:
                seen.update(talon)

    def apply(
        self,
        seat: int,
        kind: str,
        card: int = -1,
        value: int = 0,
        to: int = -1,
        qualifier: str = "",
    ) -> None:
        """Follow one action of the deal."""
        if kind == "bid":
            self.declarer, self.contract, self.qualifier = seat, value, qualifier
            return
        if kind in ("pass", "redeal", "keep"):
            return
        self.take_talon()
        if kind == "raise":
            self.contract = value
        elif kind == "give":
            self.hands[seat].remove(card)
            self.hands[to].append(card)
            self.seen[to].add(card)
        elif kind in ("play", "marry"):
            self._play(seat, kind, card)

    def _play(self, seat: int, kind: str, card: int) -> None:
        ref = self.ref
        if not self.tricks and not self.trick:
            self.tricks_total = len(self.hands[seat])
        if not self.trick:
            self.leads[seat] += 1
            if kind == "marry":
                meld = self.meld_led(seat, card)
                if meld is not None:
                    mi, suit, value = meld
                    self.declarations.append((seat, mi, suit, value))
                    if ref.melds[mi][3]:
                        self.trump = suit
        self.hands[seat].remove(card)
        for seen in self.seen:
            seen.add(card)
        self.trick.append((seat, card))
        if len(self.trick) < len(self.active):
            return
        winner = trick_winner(ref, self.trick, self.trump)
        self.card_points[winner] += sum(ref.points[c] for _, c in self.trick)
        self.tricks_won[winner] += 1
        self.tricks.append((tuple(self.trick), winner, self.trump))
        self.trick = []

    def meld_led(self, seat: int, card: int) -> tuple[int, int, int] | None:
        """The meld (index, suit, value) a seat holds complete with this card, if any."""
        ev = self.ref.eval
        held = set(self.hands[seat]) | {card}
        suit = ev.suit(card)
        for mi, (_, ranks, values, _, _, _) in enumerate(self.ref.melds):
            if ev.rank(card) in ranks and all(suit * ev.n_ranks + r in held for r in ranks):
                return mi, suit, values[suit]
        return None

    # ------------------------------------------------------------ legal plays
    def legal_plays(self, seat: int) -> tuple[set[int], set[int]]:
        """The cards `seat` may play now, and those it may lead declaring a meld (marry)."""
        hand = self.hands[seat]
        if self.trick:
            return set(self._follow_plays(hand)), set()
        ref = self.ref
        ev = ref.eval
        leads = set(hand)
        if ref.lead_if is not None:
            trump = self.trump
            env: dict[str, Any] = {
                "first_lead": self.leads[seat] == 0,
                "tricks_played": len(self.tricks),
                "tricks_won": self.tricks_won[seat],
                "declarer": seat == self.declarer,
                "trump_set": trump >= 0,
                "trump_broken": trump >= 0
                and any(ev.suit(c) == trump for t in self.tricks for _, c in t[0]),
                "hand_size": len(hand),
                **self.context[seat],
            }
            allowed = set()
            for c in hand:
                env["card_is_trump"] = ev.suit(c) == trump
                if ref.eval(ref.lead_if, env, hand=hand, card=c):
                    allowed.add(c)
            leads = allowed
        marry = set()
        env = {
            "tricks_won": self.tricks_won[seat],
            "tricks_played": len(self.tricks),
            "declarer": seat == self.declarer,
            "first_lead": self.leads[seat] == 0,
            **self.context[seat],
        }
        for c in leads:
            meld = self.meld_led(seat, c)
            if meld is None:
                continue
            declare_if = ref.melds[meld[0]][4]
            if declare_if is None or ref.eval(declare_if, env, hand=hand):
                marry.add(c)
        return leads, marry

    def _follow_plays(self, hand: list[int]) -> list[int]:
        """T14, S13: follow suit, beat in suit, trump when void, overtrump."""
        model = self.ref.model
        assert model.tricks is not None
        rules = model.tricks.play
        ev = self.ref.eval
        trump = self.trump
        led = ev.suit(self.trick[0][1])
        on_table = [c for _, c in self.trick]
        follow = [c for c in hand if ev.suit(c) == led]
        if follow:
            if not rules.follow:
                return hand
            trumped = led != trump and any(ev.suit(c) == trump for c in on_table)
            if rules.beat_in_suit and not trumped:
                best = min(ev.rank(c) for c in on_table if ev.suit(c) == led)
                return [c for c in follow if ev.rank(c) < best] or follow
            return follow
        trumps = [c for c in hand if ev.suit(c) == trump] if trump >= 0 else []
        if rules.trump_when_void and trumps:
            in_trick = [ev.rank(c) for c in on_table if ev.suit(c) == trump]
            if rules.overtrump and in_trick:
                return [c for c in trumps if ev.rank(c) < min(in_trick)] or trumps
            return trumps
        return hand


def trick_winner(ref: Reference, cards: Sequence[tuple[int, int]], trump: int) -> int:
    """T15: the highest trump wins, else the highest card of the suit led."""
    ev = ref.eval
    led = ev.suit(cards[0][1])
    trumps = [(ev.rank(c), seat) for seat, c in cards if ev.suit(c) == trump]
    if trumps:
        return min(trumps)[1]
    return min((ev.rank(c), seat) for seat, c in cards if ev.suit(c) == led)[1]


# ---------------------------------------------------------------- bouts
def bout_limit(ref: Reference, env: Mapping[str, int]) -> int:
    """D7: the most attack cards of a bout, from the variant's `limit` (at least 1)."""
    if ref.bout_limit is None:
        return 1
    return max(int(ref.eval(ref.bout_limit, env)), 1)


def beats(ref: Reference, attack: int, card: int, trump: int) -> bool:
    """D8: a higher card of the same suit, or any trump on a card that is not trump."""
    ev = ref.eval
    if ev.suit(card) == ev.suit(attack):
        return ev.rank(card) < ev.rank(attack)
    return ev.suit(card) == trump and ev.suit(attack) != trump


def bout_moves(
    ref: Reference,
    phase: str,
    hand: Sequence[int],
    table: Sequence[Sequence[int]],
    trump: int,
    limit: int,
    swap_card: int | None,
    transfer_room: int | None,
) -> set[tuple[str, tuple[int, ...]]]:
    """Every legal action in a bout state, as (kind, cards) (D5-D8, D12).

    `swap_card` is the card the seat may swap for the turned-up trump (D12) or None;
    `transfer_room` is the hand size of the player a transfer would pass the attack to, or
    None when transfers are not allowed.
    """
    ev = ref.eval
    bouts = ref.model.bouts
    assert bouts is not None
    out: set[tuple[str, tuple[int, ...]]] = set()
    on_table = {ev.rank(c) for pair in table for c in pair if c >= 0}
    if phase == "attack":
        by_rank: dict[int, list[int]] = {}
        for c in sorted(hand):
            by_rank.setdefault(ev.rank(c), []).append(c)
        most = limit if bouts.attack_same_rank else 1
        for cards in by_rank.values():
            for k in range(1, min(len(cards), most) + 1):
                out.update(("attack", combo) for combo in combinations(cards, k))
    elif phase == "defend":
        for pair in table:
            if pair[1] < 0:
                out.update(("beat", (pair[0], c)) for c in hand if beats(ref, pair[0], c, trump))
        ranks = {ev.rank(pair[0]) for pair in table}
        if (
            transfer_room is not None
            and all(pair[1] < 0 for pair in table)
            and len(ranks) == 1
            and transfer_room >= len(table) + 1
        ):
            out.update(("transfer", (c,)) for c in hand if ev.rank(c) in ranks)
        out.add(("take", ()))
    elif phase == "throw":
        if len(table) < limit:
            out.update(("throw", (c,)) for c in hand if ev.rank(c) in on_table)
        out.add(("done", ()))
    if swap_card is not None:
        out.add(("swap", (swap_card,)))
    return out


# ---------------------------------------------------------------- match
class MatchBook:
    """Scores and kept values of a match, kept by running `after_deal` here."""

    def __init__(self, ref: Reference, seats: int) -> None:
        self.ref = ref
        self.scores = [0] * seats
        self.kept = [dict(ref.keep) for _ in range(seats)]
        self.deals_scored = 0

    def context(self) -> list[dict[str, Any]]:
        """What each seat knows of the match as the next deal begins."""
        return [
            {
                **kept,
                "deal_number": self.deals_scored + 1,
                "score": score,
                "target": self.ref.target,
            }
            for score, kept in zip(self.scores, self.kept, strict=True)
        ]

    def after_deal(
        self, envs: Sequence[Mapping[str, Any]], gains: Sequence[int], qualifier: str
    ) -> None:
        """Run every after_deal rule in order for every seat, right sides before assigning."""
        ref = self.ref
        self.deals_scored += 1
        for seat, base in enumerate(envs):
            env = dict(base)
            env.update(self.kept[seat])
            env.update(
                score=self.scores[seat],
                gain=gains[seat],
                deal_number=self.deals_scored,
                target=ref.target,
            )
            for step in ref.after_deal:
                if step.condition is None or ref.eval(step.condition, env, qualifier=qualifier):
                    values = [
                        (
                            a.name,
                            in_range(
                                ref.eval(a.expr, env, qualifier=qualifier),
                                f"after_deal rule '{step.name}' ({a.name})",
                            ),
                        )
                        for a in step.assigns
                    ]
                    env.update(values)
            self.scores[seat] = env["score"]
            for name in self.kept[seat]:
                self.kept[seat][name] = env[name]
