"""An independent restatement of a variant's rules, for the consistency checker.

Nothing here calls the engine's rule code (`Deal`, `BoutDeal`, `Match`, the phases, the
compiled `CompiledExpr` closures, `Game.relations`, `Game.deal_score`) to decide what is
right. Expressions are evaluated by walking their syntax trees (`trickcore.language.syntax`) as the
loader gives them; plain settings (the deck's tables, meld ranks and values, the flow,
flags and numbers) are read from the model, and the deal pattern and the settings of
spec 4 (strains, levels, rounds, doubles, the pickup, `trump: bid`) from the rules text
itself. The checker compares the engine against what is computed here:

- `Evaluator`: a tree-walking evaluator of the expression language (card functions,
  played and taken cards, `holds_trump`, the aggregates over the table and the side, `mod`,
  `div`, `pick`, `bid_is` and `strain_is`);
- `TrickReplay`: one trick deal followed action by action from its deck order through its
  flow: the deal (the pattern with its `size`, packets round the table, the rest out),
  the compulsory redeal and the redeal offer, cards passed, the auction (in turns: who
  calls next, when it ends, who declares at what, and where it uses strains, `bid_if`,
  `pass_if`, doubles or rounds, every call: by level, strain and qualifier above the last
  up to the cap, as `bid_if` and `pass_if` allow, double and redouble; in pairs: every
  bid, hold and pass), bids (as `bid_if` allows), the pickup of the turned-up card, the
  talon (shown, taken, given, split, laid away), the contract raise, the decisions and
  choices between phases and at a turn (asked in the order of the file while their
  `offer_if` holds, their rules and effects), trick play with a stock and turn-up (drawing,
  closing, exchanging), announced and led melds, the card relations (`trump_power`,
  `power`), obligations written as rules, `lead_if` / `play_if`, who sits out
  (`sit_out_if`) and whose hand a partner plays (`partner_plays_if`), open hands and
  `stop_if`; from it the phase, the seat to act, its legal actions, what each seat may see
  (the turn-up while it lies or until play, who sits out, for whom the player to act
  plays, the contract as said), and the deal scores (every definition for every player
  before the next, with the names of the contract: `doubled`, `side`, `dealer`, ...);
- `bout_moves`: every legal action of a game of bouts in the current state (D5-D8, D12);
- `MatchBook`: scores and kept values across a match, by running `after_deal` itself, the
  match state each deal begins with (`max_other_score` by `sides`), who deals, and when the
  match ends and who wins (target, `end_if`, `tie_break` with `play_on`, the limits).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import attrs

from ..language import syntax as s
from ..language.limits import MAX_VALUE
from ..language.loader import MergedBlock, MergedRules, load_rules, load_rules_embedded
from ..language.model import VariantModel

_BOOL_WORDS = {"yes": True, "true": True, "no": False, "false": False}

# Keys of an environment that functions read (never a name a rules file can write):
LED = "\x01led"  # the effective suit led to each finished trick (times_led)
LEADING = "\x01leading"  # the effective suit led to the trick in progress (led_suit)
PLAYED = "\x01played"  # the cards in the deal's finished tricks (played_suit, played_card)
TAKEN = "\x01taken"  # the cards in the player's won tricks (taken_suit, taken_card)
TABLE = "\x01table"  # every player's scoring environment (sum_all, count_all, ...)
SIDE = "\x01side"  # the environments of the player's side, himself included (sum_side, ...)
MEMO = "\x01memo"  # counts that are the same for every card in question, once worked out
TRUMP = "\x01trump"  # the trump suit in force (holds_trump), -1 for none
STRAIN = "\x01strain"  # the strain of the contract, or of the bid in question (strain_is)
NAMED = "\x01named"  # the strains the player named in his bids (named_strain)
SEATS = "\x01seats"  # every seated player's scoring environment, by seat (seat_left)
SEAT = "\x01seat"  # the player's own seat (seat_left)
AGGREGATES = ("sum_all", "max_all", "min_all", "count_all", "sum_side", "count_side")
FINAL_RULES = ("declarer", "defender", "player", "sitting_out")  # deal scores, not definitions
OVER = "over"  # the phase of a deal that has ended


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
_Walk = Callable[[Mapping[str, Any], Sequence[int], str, int], Any]


class Evaluator:
    """Evaluates expression syntax trees of one variant (never the compiled closures)."""

    def __init__(self, model: VariantModel) -> None:
        self._reads_table: dict[int, bool] = {}
        self._walkers: dict[int, _Walk] = {}
        self._kept: list[s.Expr] = []
        deck = model.deck
        self.n_ranks = len(deck.ranks)
        self.ranks = {r.symbol: i for i, r in enumerate(deck.ranks)}
        self.suits = {su.symbol: i for i, su in enumerate(deck.suits)}
        self.suits.update({su.name: i for i, su in enumerate(deck.suits)})
        self.cards = {
            r.symbol + su.symbol: si * self.n_ranks + ri
            for si, su in enumerate(deck.suits)
            for ri, r in enumerate(deck.ranks)
        }

    def reads_table(self, expr: s.Expr) -> bool:
        """Whether `expr` reads other players' names (an aggregate such as `sum_all`): only
        then are their environments made for it."""
        known = self._reads_table.get(id(expr))
        if known is None:
            known = bool(set(AGGREGATES) & set(_calls(expr)))
            self._reads_table[id(expr)] = known
            self._kept.append(expr)  # the id stays this expression's
        return known

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

    def card_of(self, text: str) -> int:
        """The card a card text (rank symbol, then suit symbol: QS, 10H) names."""
        if text not in self.cards:
            raise ReferenceError(f"'{text}' is not a card of this deck")
        return self.cards[text]

    def _eval(
        self, e: s.Expr, env: Mapping[str, Any], hand: Sequence[int], q: str, card: int
    ) -> Any:
        fn = self._walkers.get(id(e))
        if fn is None:
            fn = self._walkers[id(e)] = self._walker(e)
            self._kept.append(e)  # the id stays this expression's
        return fn(env, hand, q, card)

    def _walker(self, e: s.Expr) -> _Walk:
        """The expression as nested functions of (env, hand, qualifier, card): its syntax
        tree walked once, here, instead of at every evaluation (each node becomes a small
        function of its children; a function call is `_call` on its syntax node)."""
        kind = type(e)
        if kind is s.Name:
            name = e.name  # type: ignore[union-attr]
            if name in _BOOL_WORDS:
                word = _BOOL_WORDS[name]
                return lambda env, hand, q, card: word
            return lambda env, hand, q, card: env[name]
        if kind is s.Number:
            number = e.value  # type: ignore[union-attr]
            return lambda env, hand, q, card: number
        if kind is s.Binary:
            assert isinstance(e, s.Binary)
            op, a, b = e.op, self._walker(e.left), self._walker(e.right)
            if op == "and":  # no side effects: the right side matters only when needed
                return lambda env, hand, q, card: (
                    bool(a(env, hand, q, card)) and bool(b(env, hand, q, card))
                )
            if op == "or":
                return lambda env, hand, q, card: (
                    bool(a(env, hand, q, card)) or bool(b(env, hand, q, card))
                )
            f = _OPERATORS.get(op)
            if f is None:
                return _fails(f"unknown operator {op}")
            return lambda env, hand, q, card: f(a(env, hand, q, card), b(env, hand, q, card))
        if kind is s.Unary:
            assert isinstance(e, s.Unary)
            v = self._walker(e.operand)
            if e.op == "-":
                return lambda env, hand, q, card: -v(env, hand, q, card)
            return lambda env, hand, q, card: not v(env, hand, q, card)
        if kind is s.Cond:
            assert isinstance(e, s.Cond)
            test, then, other = self._walker(e.test), self._walker(e.then), self._walker(e.other)
            return lambda env, hand, q, card: (
                then(env, hand, q, card) if test(env, hand, q, card) else other(env, hand, q, card)
            )
        if kind is s.Call:
            assert isinstance(e, s.Call)
            call = self._call
            return lambda env, hand, q, card: call(e, env, hand, q, card)
        return _fails(f"cannot evaluate {e!r}")

    def _call(
        self, e: s.Call, env: Mapping[str, Any], hand: Sequence[int], q: str, card: int
    ) -> Any:
        f = e.func
        if f in ("card_rank", "card_suit", "card_is"):
            word = self._symbol(e.args[0])
            if f == "card_rank":
                return self.rank(card) == self.ranks[word]
            if f == "card_suit":
                return self.suit(card) == self.suits[word]
            return card == self.card_of(word)
        if f in _CARD_COUNTS:  # the same for every card in question: worked out once
            memo = env.get(MEMO)
            key = (f, self._symbol(e.args[0]))
            if memo is not None and key in memo:
                return memo[key]
            value = self._count(f, key[1], env, hand)
            if memo is not None:
                memo[key] = value
            return value
        if f == "holds_trump":  # the card of rank R of the trump suit is in the hand
            trump = env.get(TRUMP, -1)
            rank = self.ranks[self._symbol(e.args[0])]
            return trump >= 0 and trump * self.n_ranks + rank in hand
        if f == "bid_is":
            return q == self._symbol(e.args[0])
        if f == "strain_is":
            return env.get(STRAIN, "") == self._symbol(e.args[0])
        if f == "named_strain":
            return self._symbol(e.args[0]) in env[NAMED]
        if f == "seat_left":  # x of the player k seats to the left, every seat counted
            k = self._eval(e.args[0], env, hand, q, card)
            everyone = env[SEATS]
            return everyone[(env[SEAT] + k) % len(everyone)][self._symbol(e.args[1])]
        if f in AGGREGATES:
            name = self._symbol(e.args[0])
            values = [other[name] for other in env[SIDE if f.endswith("_side") else TABLE]]
            if f.startswith("count"):
                return sum(1 for v in values if v)
            if f.startswith("sum"):
                return sum(values)
            return max(values) if f.startswith("max") else min(values)
        args = [self._eval(a, env, hand, q, card) for a in e.args]
        if f == "min":
            return min(args)
        if f == "max":
            return max(args)
        if f == "abs":
            return -args[0] if args[0] < 0 else args[0]
        if f == "pick":  # the value at index i from 0 (below 0 the first, past the end the last)
            i, values = args[0], args[1:]
            return values[0] if i < 0 else values[-1] if i >= len(values) else values[i]
        x, m = args
        if f == "round":  # nearest multiple, halves up
            whole, rest = divmod(x, m)
            return (whole + (1 if 2 * rest >= m else 0)) * m
        if f == "floor":
            return x - x % m
        if f == "ceil":
            return x + (-x) % m
        if f == "mod":  # 0..m-1, m positive
            return x - (x // m) * m
        if f == "div":  # whole-number division rounding down, m positive
            return x // m
        raise ReferenceError(f"unknown function {f}")

    def _count(self, f: str, word: str, env: Mapping[str, Any], hand: Sequence[int]) -> Any:
        """count_rank / count_suit in the hand; played_* in the finished tricks; taken_* in
        the player's won tricks."""
        if f == "count_rank":
            r = self.ranks[word]
            return sum(1 for c in hand if self.rank(c) == r)
        if f == "count_suit":
            su = self.suits[word]
            return sum(1 for c in hand if self.suit(c) == su)
        if f == "holds":
            return self.card_of(word) in hand
        if f == "times_led":  # finished tricks led with a card of that suit, no trump
            return sum(1 for led in env[LED] if led == self.suits[word])
        if f == "led_suit":  # the trick in progress, led with a card of that suit, no trump
            return env[LEADING] == self.suits[word]
        cards = env[PLAYED if f.startswith("played") else TAKEN]
        if f.endswith("_card"):
            return self.card_of(word) in cards
        su = self.suits[word]
        return sum(1 for c in cards if self.suit(c) == su)


def _fails(message: str) -> _Walk:
    """A walker that raises ReferenceError when evaluated (not before: an expression the
    restatement cannot evaluate is an error only if the rules reach it)."""

    def fail(env: Mapping[str, Any], hand: Sequence[int], q: str, card: int) -> Any:
        raise ReferenceError(message)

    return fail


_OPERATORS: dict[str, Any] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
_CARD_COUNTS = (
    "count_rank",
    "count_suit",
    "holds",
    "times_led",
    "led_suit",
    "played_suit",
    "played_card",
    "taken_suit",
    "taken_card",
)


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


def _rule(root: MergedBlock, block: str, name: str) -> s.Expr | None:
    """A setting written as an expression (`name = e`) only."""
    b = _block(root, block)
    entry = b.entries.get(name) if b is not None else None
    return entry.expr if isinstance(entry, s.ExprSetting) else None


def _items(block: MergedBlock | None, name: str) -> list[tuple[str, ...]]:
    """The items of a list setting of a block as words."""
    entry = block.entries.get(name) if block is not None else None
    if isinstance(entry, s.ListSetting):
        return [it.parts for it in entry.items]
    return []


def _words(root: MergedBlock, block: str, name: str) -> list[tuple[str, ...]]:
    """The items of a list setting as words (`block` "" for a top-level setting)."""
    return _items(_block(root, block) if block else root, name)


def _word(block: MergedBlock | None, name: str, default: str) -> str:
    """The first word of a list setting (`levels: none`), or `default`."""
    items = _items(block, name)
    return items[0][0] if items else default


def _flag(block: MergedBlock | None, name: str, default: bool) -> bool:
    """A yes/no list setting (`after_announce: yes`)."""
    items = _items(block, name)
    return _BOOL_WORDS[items[0][0]] if items else default


@attrs.frozen
class MeldRule:
    """A meld as the checker reads it: plain settings from the model, conditions as trees."""

    name: str
    ranks: tuple[int, ...]  # ranks of one suit (one meld in each suit) ...
    cards: tuple[int, ...]  # ... or a fixed set of cards (suit -1, one value)
    values: tuple[int, ...]
    trump_value: int | None
    sets_trump: bool
    announce: bool
    declare_if: s.Expr | None
    counts_if: s.Expr | None

    def value_in(self, suit: int, trump: int) -> int:
        """Its value in `suit` (-1 for fixed cards) while `trump` is trump: `trump_value`
        when its suit is trump as it is declared."""
        if self.trump_value is not None and suit >= 0 and suit == trump:
            return self.trump_value
        return self.values[max(suit, 0)]


@attrs.frozen
class DecisionRule:
    """A `decision` or `choice` block, read from its syntax tree."""

    name: str
    at: tuple[str, ...]  # "lead", "play", or one of "before PHASE", "end"
    who: str  # "each" | "declarer" | "defenders" (between phases)
    first_asked: str  # "forehand" | "left_of_declarer" (between phases)
    offer_if: s.Expr | None  # None: always (a choice)
    after_announce: bool
    public: bool  # its rules set every player's deal values (an announcement all may read)
    steps: tuple[s.Step, ...]
    effect: tuple[str, ...]  # () or the words of `effect:`
    options: tuple[str, ...]  # a choice's options (empty for a decision)
    option_ifs: tuple[s.Expr | None, ...]
    option_trumps: tuple[int, ...]
    own: bool = False  # a choice whose options are the chooser's own values


def _decisions(root: MergedBlock, ev: Evaluator) -> list[DecisionRule]:
    """Every `decision` and `choice` block, in the order of the file."""
    out = []
    for entry in root.entries.values():
        if not isinstance(entry, MergedBlock) or entry.kind not in ("decision", "choice"):
            continue
        options = tuple(parts[0] for parts in _items(entry, "options"))
        trumps = {parts[0]: ev.suits[parts[1]] for parts in _items(entry, "trump")}
        who = _word(entry, "who", "each")
        first_asked = _word(entry, "first_asked", "forehand")
        if who not in ("each", "declarer", "defenders") or first_asked not in (
            "forehand",
            "left_of_declarer",
        ):
            raise ReferenceError(f"'who: {who}' / 'first_asked: {first_asked}' not restated")
        out.append(
            DecisionRule(
                name=entry.name or "",
                at=tuple(" ".join(parts) for parts in _items(entry, "at")),
                who=who,
                first_asked=first_asked,
                offer_if=_expr_of(entry.entries.get("offer_if")),
                after_announce=_flag(entry, "after_announce", False),
                public=_flag(entry, "public", False),
                steps=tuple(e for e in entry.entries.values() if isinstance(e, s.Step)),
                effect=(_items(entry, "effect") or [()])[0],
                options=options,
                option_ifs=tuple(_expr_of(entry.entries.get(f"{o}_if")) for o in options),
                option_trumps=tuple(trumps.get(o, -1) for o in options),
                own=_flag(entry, "own", False),
            )
        )
    return out


class Reference:
    """A variant's rules as the checker reads them: syntax trees plus the deck's tables."""

    def __init__(self, model: VariantModel, rules: MergedRules | None = None) -> None:
        if rules is None:
            rules = load_reference_rules(model)
        self.model = model
        self.eval = ev = Evaluator(model)
        root = rules.root
        self.root = root
        check_restated(root, model.name)
        deck = model.deck
        n = len(deck.ranks)
        self.size = deck.size
        self.n_suits = len(deck.suits)
        self.trump_id = len(deck.suits)  # the effective suit of every trump
        self.card_text = [deck.card_text(c) for c in range(deck.size)]
        self.play_text = [f"play {text}" for text in self.card_text]
        self.marry_text = [f"marry {text}" for text in self.card_text]
        self.suit_names = [su.name for su in deck.suits]
        self.suit_symbols = [su.symbol for su in deck.suits]
        card_points = _setting(root, "deck", "card_points")
        # each card's points with each trump (none first, then each suit's)
        self.points_by_trump: list[list[int]] = []
        for in_force in range(-1, len(deck.suits)):
            if card_points is not None:  # `card_points = EXPR`: per card (and trump suit)
                self.points_by_trump.append(
                    [
                        int(
                            in_range(
                                ev(
                                    card_points,
                                    {
                                        "card_in_trump_suit": c // n == in_force,
                                        "trump_set": in_force >= 0,
                                    },
                                    card=c,
                                ),
                                "deck.card_points",
                            )
                        )
                        for c in range(deck.size)
                    ]
                )
            else:
                self.points_by_trump.append([deck.points[c % n] for c in range(deck.size)])
        self.points = self.points_by_trump[0]
        self.deck_points = sum(self.points)
        # combinations (BL27, BL28): kind, size and order are plain settings of the model;
        # value and strength are restated from the file
        self.combos: list[tuple[str, int, tuple[int, ...], s.Expr, s.Expr | None]] = []
        for combo in model.combinations:
            block = _block(root, f"combination {combo.name}")
            worth_rule = _expr_of(block.entries.get("value")) if block else None
            strength_rule = _expr_of(block.entries.get("strength")) if block else None
            assert worth_rule is not None
            self.combos.append(
                (combo.kind, combo.size, tuple(combo.order), worth_rule, strength_rule)
            )
        # melds, and every concrete meld: (meld index, suit or -1, value, cards)
        self.melds: list[MeldRule] = []
        self.concrete: list[tuple[int, int, int, tuple[int, ...]]] = []
        for mi, meld in enumerate(model.melds):
            block = _block(root, f"meld {meld.name}")
            self.melds.append(
                MeldRule(
                    meld.name,
                    tuple(meld.ranks),
                    tuple(meld.cards),
                    tuple(meld.values),
                    meld.trump_value,
                    meld.sets_trump,
                    meld.announce,
                    _expr_of(block.entries.get("declare_if")) if block else None,
                    _expr_of(block.entries.get("counts_if")) if block else None,
                )
            )
            if meld.cards:
                self.concrete.append((mi, -1, meld.values[0], tuple(meld.cards)))
            else:
                for suit, value in enumerate(meld.values):
                    self.concrete.append((mi, suit, value, tuple(suit * n + r for r in meld.ranks)))
        self.all_melds = sum(value for _, _, value, _ in self.concrete)
        self.led_melds = any(not m.announce for m in self.melds)  # declared by leading
        self.announced_melds = any(m.announce for m in self.melds)
        # scoring
        scoring = _block(root, "scoring")
        self.definitions: dict[str, s.Expr] = {}
        if scoring is not None:
            for key, entry in scoring.entries.items():
                expr = _expr_of(entry)
                if expr is not None:
                    self.definitions[key] = expr
        self.order = self._definition_order()
        after = _block(root, "after_deal")
        self.after_deal: list[s.Step] = [
            e for e in (after.entries.values() if after else ()) if isinstance(e, s.Step)
        ]
        # the match
        self.keep: list[tuple[str, bool | int]] = [
            (parts[0], _value_word(parts[1])) for parts in _words(root, "match", "keep")
        ]
        target = _words(root, "match", "target")
        self.target = 0 if not target or target[0][0] == "none" else int(target[0][0])
        self.has_target = bool(target) and target[0][0] != "none"
        self.end_if = _setting(root, "match", "end_if")
        self.rank_by = _setting(root, "match", "rank_by")
        check_words(root, model.name)
        tie_break = tuple(parts[0] for parts in _words(root, "match", "tie_break"))
        self.tie_break = tie_break or ("highest",)  # T21: equal scores share the win
        self.deal_limit = model.match.deal_limit
        self.redeal_limit = model.match.redeal_limit
        self.sides = [[int(w) for w in parts] for parts in _words(root, "", "sides")]
        self._side_of: dict[tuple[int, int], tuple[int, ...]] = {}
        self.bout_limit = _setting(root, "bouts", "limit")
        # the deal: keep names, its flow, the redeal
        self.deal_keep: list[tuple[str, bool | int]] = [
            (parts[0], _value_word(parts[1])) for parts in _words(root, "deal", "keep")
        ]
        tricks = model.tricks
        self.flow: tuple[str, ...] = tricks.flow if tricks is not None else ()
        self.has_auction = "auction" in self.flow
        self.has_redeal = _block(root, "redeal") is not None
        self.forced_if = _setting(root, "redeal", "forced_if")
        self.allowed_if = _setting(root, "redeal", "allowed_if")
        self.same_dealer = model.redeal.same_dealer if model.redeal is not None else False
        # the auction (plain settings from the model, expressions from the trees)
        self.bidding = tricks.bidding if tricks is not None else None
        self.bid_cap = _rule(root, "bidding", "cap")
        self.opening = _rule(root, "bidding", "opening")
        self.contract_cap = _rule(root, "contract", "cap") or self.bid_cap
        # calls naming strains, bid_if, doubles, rounds (spec 4), read from the rules text
        bidding = _block(root, "bidding")
        suit_by_name = {su.name: i for i, su in enumerate(deck.suits)}
        self.strains = tuple(parts[0] for parts in _items(bidding, "strains"))
        self.strain_suits = tuple(suit_by_name.get(st, -1) for st in self.strains)
        self.levelless = _word(bidding, "levels", "") == "none"
        self.bid_values = tuple(int(parts[0]) for parts in _items(bidding, "values"))
        self.bid_if = _setting(root, "bidding", "bid_if")
        self.pass_if = _setting(root, "bidding", "pass_if")
        ends = (_items(bidding, "ends") or [()])[0]
        self.ends_first_bid = ends == ("first_bid",)
        self.ends_passes = int(ends[1]) if len(ends) == 2 and ends[0] == "passes" else None
        self.rounds = int(_word(bidding, "rounds", "0"))
        self.doubles = _flag(bidding, "double", False)
        self.joins = _flag(bidding, "join", False)  # pairs: a round of joining first
        self.first_to_name = _word(bidding, "declarer", "last_bidder") == "first_to_name"
        self.dealer_calls_first = _word(bidding, "first_caller", "forehand") == "dealer"
        self.call_qualifiers = ("", *(parts[0] for parts in _items(bidding, "qualifiers")))
        # the calls of an auction in turns are restated one by one when it says which calls
        # there are in the spec-4 way (strains, bid_if, pass_if, doubles, rounds); otherwise
        # who calls next, when it ends and who declares at what
        spec4 = ("strains", "levels", "bid_if", "pass_if", "double", "rounds", "first_caller")
        self.restate_calls = bidding is not None and any(k in bidding.entries for k in spec4)
        # the pickup of the turned-up card (spec 4)
        pickup = _block(root, "pickup")
        self.pickup_who = _word(pickup, "who", "dealer")
        self.take_if = _setting(root, "pickup", "take_if")
        self.pickup_lay_away = int(_word(pickup, "lay_away", "0"))
        # BL11: each hand drawn up from the stock to this many cards (0: no such phase)
        self.draw_up_to = int(_word(_block(root, "draw_up"), "to", "0"))
        self.contract = tricks.contract if tricks is not None else None
        # talon
        self.split_if = _setting(root, "talon", "split_if")
        self.counts_for_if = _setting(root, "talon", "counts_for_if")
        self.talon = tricks.talon if tricks is not None else None
        # decisions and choices, in the order of the file
        self.decisions = _decisions(root, ev)
        self.options = list(dict.fromkeys(o for d in self.decisions for o in d.options))
        # play
        play = _block(root, "play")
        self.lead_if = _setting(root, "play", "lead_if")
        self.play_if = _setting(root, "play", "play_if")
        self.stop_if = _setting(root, "play", "stop_if")
        self.skip_if = _setting(root, "play", "skip_if")
        self.open_hand_if = _setting(root, "play", "open_hand_if")
        self.trump_power = _setting(root, "play", "trump_power")
        self.power = _setting(root, "play", "power")
        trump = _words(root, "play", "trump")
        word = trump[0][0] if trump else "none"
        self.trump_rule = _rule(root, "play", "trump")  # `trump = EXPR`: a suit's number
        self.suit_numbers = {su.name: i for i, su in enumerate(model.deck.suits)}
        self.trump_turnup = word == "turnup"
        self.trump_bid = word == "bid"  # the contract's strain (none for one without a suit)
        self.fixed_trump = ev.suits[word] if word not in ("none", "turnup", "bid") else -1
        self.trump_if = _setting(root, "play", "trump_if")  # public: false, no trump
        self.sit_out_if = _setting(root, "play", "sit_out_if")
        self.side_if = _setting(root, "play", "side_if")  # the deal's sides, formed in play
        self.partner_plays_if = _setting(root, "play", "partner_plays_if")
        self.draw = _flag(play, "draw", False)
        self.talon_leads = _flag(play, "talon_leads", False)
        self.raise_if = _setting(root, "contract", "raise_if")
        play_rules = tricks.play if tricks is not None else None
        # the four obligations: a yes/no or an expression read at each play
        self.obligations: dict[str, s.Expr | bool] = {}
        for name in ("follow", "beat_in_suit", "trump_when_void", "overtrump"):
            duty = play.entries.get(name) if play is not None else None
            expr = _expr_of(duty)
            default = bool(getattr(play_rules, name)) if play_rules is not None else False
            self.obligations[name] = expr if expr is not None else default
        self.fixed_duties = all(isinstance(v, bool) for v in self.obligations.values())
        leader = _words(root, "play", "first_leader")
        self.first_leader = (
            leader[0][0] if leader else ("declarer" if self.has_auction else "forehand")
        )
        self.leader_card = (
            ev.card_of("".join(leader[0][1:])) if self.first_leader == "holder" else -1
        )
        # pass phase: how many cards, and how many seats on they go
        count = _words(root, "pass_cards", "count")
        self.pass_count = int(count[0][0]) if count else 0
        self.pass_to = _setting(root, "pass_cards", "to") if "pass" in self.flow else None
        # bids phase: the range, and who bids blind with which values
        low = _words(root, "bids", "min")
        self.bids_min = int(low[0][0]) if low else 0
        self.bids_max = _setting(root, "bids", "max")
        self.blind_if = _setting(root, "bids", "blind_if")
        self.blind = [int(parts[0]) for parts in _words(root, "bids", "blind")]
        self.has_bids = "bids" in self.flow
        self.bids_bid_if = _setting(root, "bids", "bid_if")
        # the deal pattern as written (`size` and `rest` resolved as each deal begins)
        self.pattern = _words(root, "deal", "pattern")
        self.size_rule = _setting(root, "deal", "size")
        self.reads_top_trumps = any(
            "top_trumps" in _names(e)
            for e in [*self.definitions.values(), *(m.counts_if for m in self.melds if m.counts_if)]
        )
        self._relations: dict[tuple[Any, ...], tuple[list[int], list[int]]] = {}

    def start_context(self) -> dict[str, Any]:
        """What a seat knows of the match as it begins (deal 1, score 0, initial kept)."""
        return {
            **dict(self.keep),
            "deal_number": 1,
            "score": 0,
            "target": self.target,
            "max_other_score": 0,
        }

    def combination_names(self, hand: Sequence[int], trump: int) -> dict[str, int]:
        """BL27-BL29: each maximal run of `size` or more cards of one suit in the order, and
        each rank held `size` times or more, is a combination worth its value (none if worth
        0): their sum, and the highest strength (its value, by default)."""
        ev = self.eval
        n = len(self.card_text) // len(self.suit_names)
        held = set(hand)
        points = best = 0
        for kind, size, order, value, strength in self.combos:
            found: list[tuple[int, int, int, bool]] = []  # (highest card, length, top, trump)
            if kind == "run":
                for su in range(len(self.suit_names)):
                    length = 0
                    for place in range(len(order) + 1):
                        if place < len(order) and su * n + order[place] in held:
                            length += 1
                            continue
                        if length >= size:
                            top = place - length
                            found.append((su * n + order[top], length, top, su == trump))
                        length = 0
            else:
                for top, r in enumerate(order):
                    cards = [su * n + r for su in range(len(self.suit_names)) if su * n + r in held]
                    if len(cards) >= size:
                        found.append((cards[0], len(cards), top, False))
            for card, length, top, in_trump in found:
                env = {
                    "length": length,
                    "top": top,
                    "card_in_trump_suit": in_trump,
                    "trump_set": trump >= 0,
                }
                worth = int(ev(value, env, card=card))
                if worth > 0:
                    points += worth
                    env["value"] = worth
                    strong = int(ev(strength, env, card=card)) if strength is not None else worth
                    best = max(best, strong)
        return {"combination_points": points, "best_combination": best}

    def points_for(self, trump: int) -> list[int]:
        """Each card's points while `trump` (-1: none) is trump (`card_points` may read it)."""
        return self.points_by_trump[trump + 1]

    # ------------------------------------------------------------ sides
    def side(self, seat: int, seats: int) -> tuple[int, ...]:
        """The seats of `seat`'s side at a table of `seats` (`sides`; else himself alone)."""
        key = (seat, seats)
        found = self._side_of.get(key)
        if found is None:
            found = (seat,)
            for members in self.sides:
                here = tuple(x for x in members if x < seats)
                if seat in here:
                    found = here
                    break
            self._side_of[key] = found  # asked at every step: worked out once
        return found

    def side_index(self, seat: int) -> int:
        """`side`: the place of the seat's side in `sides:` from 0 (without one: his seat)."""
        for i, members in enumerate(self.sides):
            if seat in members:
                return i
        return seat

    def partner(
        self, seat: int, seats: int, declarer: int = -1, playing: Sequence[int] = ()
    ) -> int:
        """The other player of the seat's side (`partner_plays_if`); without sides, in a
        deal with a declarer against two defenders, the other defender; else himself."""
        others = [x for x in self.side(seat, seats) if x != seat]
        if others:
            return others[0]
        defenders = [x for x in playing if x != declarer]
        if not self.sides and declarer >= 0 and seat in defenders and len(defenders) == 2:
            return defenders[1 - defenders.index(seat)]
        return seat

    def max_other_score(self, seat: int, scores: Sequence[int]) -> int:
        """The highest score of a seat not on `seat`'s side (0 when there is none)."""
        mine = self.side(seat, len(scores))
        return max((x for i, x in enumerate(scores) if i not in mine), default=0)

    # ------------------------------------------------------------ hands
    def hand_env(
        self, hand: Sequence[int], players: int, context: Mapping[str, Any], contract: int = 0
    ) -> dict:
        """The names a hand rule (caps, `bids.max`, the redeal) reads for this hand."""
        held = set(hand)
        in_hand = sum(value for _, _, value, cards in self.concrete if held.issuperset(cards))
        return {
            "melds_in_hand": in_hand,
            "hand_size": len(hand),
            "deck_points": self.deck_points,
            "all_melds": self.all_melds,
            "contract": contract,
            "players": players,
            **context,
        }

    # ------------------------------------------------------------ card relations
    def relations(
        self, trump: int, qualifier: str, chosen: Sequence[str], strain: str = ""
    ) -> tuple[list[int], list[int]]:
        """Each card's effective suit (`trump_id` for a trump) and power while `trump` is
        trump, the contract carries `qualifier` (and names `strain`) and these options were
        chosen: a card whose `trump_power` is above 0 is a trump; by default the trump
        suit's cards, and powers follow the deck's rank order."""
        key = (trump, qualifier, tuple(sorted(chosen)), strain)
        found = self._relations.get(key)
        if found is not None:
            return found
        ev = self.eval
        n = ev.n_ranks
        eff: list[int] = []
        power: list[int] = []
        for c in range(self.size):
            env = {
                "rank_index": ev.rank(c),
                "suit_index": ev.suit(c),
                "card_in_trump_suit": ev.suit(c) == trump,
                "trump_set": trump >= 0,
                **{o: o in chosen for o in self.options},
                STRAIN: strain,
            }
            if self.trump_power is not None:
                tp = in_range(ev(self.trump_power, env, qualifier=qualifier, card=c), "trump_power")
            else:
                tp = n - ev.rank(c) if ev.suit(c) == trump else 0
            if tp > 0:
                eff.append(self.trump_id)
                power.append(tp)
            elif self.power is not None:
                eff.append(ev.suit(c))
                power.append(in_range(ev(self.power, env, qualifier=qualifier, card=c), "power"))
            else:
                eff.append(ev.suit(c))
                power.append(n - ev.rank(c))
        self._relations[key] = (eff, power)
        return eff, power

    # ------------------------------------------------------------ scoring
    def deal_scores(self, replay: TrickReplay) -> tuple[list[int], list[dict[str, Any]]]:
        """Each seat's deal score, and the names after_deal reads, from the replayed deal.

        The definitions are evaluated in dependency order, each for every player of the
        deal before the next (so that the aggregates see every player's value).
        """
        seats = replay.seats
        envs = [self.result_env(replay, seat, definitions=False) for seat in range(seats)]
        table = [envs[seat] for seat in replay.active]
        for seat in range(seats):
            side = [x for x in replay.side(seat) if x in replay.active or x == seat]
            envs[seat][TABLE] = table
            envs[seat][SIDE] = [envs[x] for x in side]
            envs[seat][SEATS] = envs
            envs[seat][SEAT] = seat
        others = [seat for seat in range(seats) if seat not in replay.active]
        for name in self.order:
            for seat in [*replay.active, *others]:
                value = self.eval(
                    self.definitions[name],
                    envs[seat],
                    hand=replay.start_hands.get(seat, []),
                    qualifier=replay.qualifier,
                )
                envs[seat][name] = in_range(value, f"scoring definition '{name}'")
        gains = [0] * seats
        if "sitting_out" in self.definitions:  # a seat not in the deal (S3)
            for seat in others:
                value = self.eval(self.definitions["sitting_out"], envs[seat], hand=[])
                gains[seat] = int(in_range(value, "scoring's sitting_out score"))
        for seat in replay.active:
            if "player" in self.definitions:
                rule = "player"
            else:
                rule = "declarer" if seat == replay.declarer else "defender"
            value = self.eval(
                self.definitions[rule],
                envs[seat],
                hand=replay.start_hands.get(seat, []),
                qualifier=replay.qualifier,
            )
            gains[seat] = int(in_range(value, f"scoring's {rule} score"))
        return gains, envs

    def result_env(
        self, replay: TrickReplay, seat: int, definitions: bool = True, now: bool = False
    ) -> dict[str, Any]:
        """The result quantities of a seat (at the end of the deal; `now`: as the deal
        stands, for a decision: card points of his tricks only), and, for one seat alone,
        the scoring definitions that need no other player."""
        own = [d for d in replay.declarations if d[0] == seat]
        card_points = replay.card_points[seat]
        if not now and seat == replay.set_aside_owner():
            points = self.points_for(replay.trump)
            card_points += sum(points[c] for c in [*replay.laid_away, *replay.talon])
        env: dict[str, Any] = {
            "card_points": card_points,
            "tricks_won": replay.tricks_won[seat],
            "tricks_total": replay.tricks_total,
            "tricks_played": len(replay.tricks),
            "won_last_trick": replay.won_last_trick(seat),
            "stock_closed": replay.stock_closed,
            "tricks_bid": max(replay.tricks_bid[seat], 0),
            "bid_blind": replay.bid_blind[seat],
            "contract": replay.contract,
            "declarer": seat == replay.declarer,
            "deck_points": sum(self.points_for(replay.trump)),
            "all_melds": self.all_melds,
            "players": len(replay.active),
            "seats": replay.seats,
            "seat": seat,
            "position": replay.active.index(seat) if seat in replay.active else -1,
            **self.combination_names(
                replay.hands[seat] if now else replay.start_hands.get(seat, []), replay.trump
            ),
            "melds_declared": sum(d[3] for d in own),
            "meld_points": 0,
            "top_trumps": replay.top_trumps(seat) if self.reads_top_trumps else 0,
            TAKEN: [c for cards, winner, _ in replay.tricks if winner == seat for _, c in cards],
            **replay.contract_env(seat),
            **replay.context[seat],
            TRUMP: replay.trump,  # holds_trump in scoring: over his hand as play began
        }
        counting = 0
        for _, mi, _, value in own:
            counts_if = self.melds[mi].counts_if
            if counts_if is None or self.eval(counts_if, env, qualifier=replay.qualifier):
                counting += value
        env["meld_points"] = counting
        if definitions:
            env[TABLE] = env[SIDE] = env[SEATS] = [env]
            env[SEAT] = 0
            for name in self.order:
                value = self.eval(
                    self.definitions[name],
                    env,
                    hand=replay.start_hands.get(seat, []),
                    qualifier=replay.qualifier,
                )
                env[name] = in_range(value, f"scoring definition '{name}'")
        return env

    def _definition_order(self) -> list[str]:
        """The scoring definitions, each after the ones it reads (else as written)."""
        order: list[str] = []
        visiting: set[str] = set()

        def visit(name: str) -> None:
            if name in order or name in visiting:
                return
            visiting.add(name)
            for dep in _names(self.definitions[name]):
                if dep in self.definitions and dep not in FINAL_RULES:
                    visit(dep)
            visiting.discard(name)
            order.append(name)

        for name in self.definitions:
            if name not in FINAL_RULES:
                visit(name)
        return order


# The settings this restatement follows, block by block (scoring and after_deal: any
# definition or rule). A setting the language gains later is not followed until it is added
# here and restated: until then a file that uses it is refused as "not restated".
RESTATED: dict[str, set[str]] = {
    "variant": {"name", "players", "sides"},
    "deck": {"suits", "ranks", "points", "card_points"},
    "meld": {"cards", "suits", "value", "trump_value", "announce", "declare_if", "counts_if"}
    | {"sets_trump"},
    "decision": {"at", "who", "first_asked", "offer_if", "after_announce", "effect", "public"},
    "choice": {"at", "who", "options", "trump", "first_asked", "offer_if", "own"},
    "deal": {"pattern", "hands", "sits_out", "next_dealer", "flow", "keep", "size"},
    "redeal": {"allowed_if", "forced_if", "same_dealer"},
    "bidding": {"opening", "forced_opening", "step", "pass", "ends", "cap", "qualifiers"}
    | {"style", "values", "all_pass", "strains", "levels", "bid_if", "pass_if", "rounds"}
    | {"double", "declarer", "first_caller", "join"},
    "pickup": {"who", "take_if", "lay_away"},
    "draw_up": {"to"},
    "combination": {"run", "same_rank", "order", "value", "strength"},
    "talon": {"show", "give_each_defender", "split_if", "lay_away", "counts_for_if"},
    "contract": {"raise", "step", "cap", "raise_if"},
    "play": {"follow", "trump_when_void", "beat_in_suit", "overtrump", "lead_if", "play_if"}
    | {"first_leader", "trump", "draw", "trump_power", "power", "open_hand_if", "stop_if"}
    | {"sit_out_if", "partner_plays_if", "trump_if", "talon_leads", "skip_if", "side_if"},
    "pass_cards": {"count", "to"},
    "bids": {"min", "max", "blind_if", "blind", "bid_if"},
    "match": {"target", "deal_limit", "redeal_limit", "tie_break", "keep", "rank_by", "end_if"},
    "bouts": {"attack", "throw_in_by", "skip_unable", "limit", "throw_after_take", "refill_to"}
    | {"refill_order", "next_attacker_after_defence", "next_attacker_after_take", "swap_rank"}
    | {"transfer", "max_bouts", "trump_if_no_stock", "first_attacker", "throw_in"},
}
ANY_SETTING = ("scoring", "after_deal")


def check_restated(root: MergedBlock, name: str) -> None:
    """ReferenceError when the rules use a block or setting this restatement does not follow
    (the checker would otherwise judge the engine by rules it does not know)."""
    missing = [
        f"'{key}'"
        for key, entry in root.entries.items()
        if not isinstance(entry, MergedBlock) and key not in RESTATED["variant"]
    ]
    for key, entry in root.entries.items():
        if not isinstance(entry, MergedBlock) or entry.kind in ANY_SETTING:
            continue
        known = RESTATED.get(entry.kind)
        if known is None:
            missing.append(f"'{key}'")
            continue
        if entry.kind == "choice":
            known = known | {f"{parts[0]}_if" for parts in _items(entry, "options")}
        allowed_steps = entry.kind == "decision"
        for name, setting in entry.entries.items():
            if isinstance(setting, s.Step) and allowed_steps:
                continue
            if name not in known:
                missing.append(f"'{key}.{name}'")
    if missing:
        raise ReferenceError(
            f"the checker does not restate {', '.join(missing)} yet: {name} cannot be checked"
        )


# The words of the settings whose meaning this restatement chooses between: a word the
# language gains later is refused as "not restated" rather than read as another.
RESTATED_WORDS: dict[tuple[str, str], set[str]] = {
    ("play", "first_leader"): {"declarer", "forehand", "holder", "left_of_declarer"},
    ("pickup", "who"): {"dealer", "declarer"},
    ("bidding", "ends"): {"one_left", "passes", "first_bid"},
    ("bidding", "declarer"): {"last_bidder", "first_to_name"},
    ("bidding", "first_caller"): {"forehand", "dealer"},
    ("bidding", "levels"): {"none"},
    ("bidding", "pass"): {"drops_out", "stays_in"},
    ("bidding", "all_pass"): {"redeal", "played", "play_on"},
    ("deal", "next_dealer"): {"left", "same", "loser"},
    ("deal", "sits_out"): {"dealer", "none"},
}
PATTERN_WORDS = {
    *("each", "talon", "stock", "turnup", "out", "round", "times", "rest", "size", "to", "dealer")
}


def check_words(root: MergedBlock, name: str) -> None:
    """ReferenceError when a setting of RESTATED_WORDS, or the deal pattern, uses a word
    this restatement does not know."""
    unknown = [
        f"'{block}.{setting}: {parts[0]}'"
        for (block, setting), known in RESTATED_WORDS.items()
        for parts in _words(root, block, setting)
        if parts[0] not in known
    ]
    unknown += [
        f"'deal.pattern: {' '.join(parts)}'"
        for parts in _words(root, "deal", "pattern")
        if any(not w.isdigit() and w not in PATTERN_WORDS for w in parts)
    ]
    if unknown:
        raise ReferenceError(
            f"the checker does not restate {', '.join(unknown)} yet: {name} cannot be checked"
        )


def _value_word(word: str) -> bool | int:
    """A kept initial value: yes/no or a whole number."""
    return _BOOL_WORDS[word] if word in _BOOL_WORDS else int(word)


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


def _calls(expr: s.Expr) -> Iterable[str]:
    """The functions an expression calls."""
    stack = [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, s.Unary):
            stack.append(e.operand)
        elif isinstance(e, s.Binary):
            stack += [e.left, e.right]
        elif isinstance(e, s.Cond):
            stack += [e.test, e.then, e.other]
        elif isinstance(e, s.Call):
            yield e.func
            stack += list(e.args)


def load_reference_rules(model: VariantModel) -> MergedRules:
    """The merged syntax tree of the rules the model was compiled from (its own texts)."""
    files, texts = model.source_files, model.source_texts
    if texts and len(files) == len(texts):
        return load_rules_embedded(list(zip(files, texts, strict=True)), model.name)
    if model.sources and Path(model.sources[-1]).is_file():
        return load_rules(Path(model.sources[-1]))
    raise ReferenceError(f"the rules text of {model.name} is not at hand")


def players_in_deal(model: VariantModel, dealer: int, seats: int) -> list[int]:
    """C1, S3: the seats in a deal, from the left of the dealer; the dealer sits out if needed."""
    order = [(dealer + k) % seats for k in range(1, seats + 1)]
    hands = model.deal.hands or seats
    if hands < seats:
        order = [x for x in order if x != dealer][:hands]
    return order


# ---------------------------------------------------------------- trick deals
class TrickReplay:
    """A trick deal followed action by action from its deck order, without the engine.

    `stage` is the phase the rules are in (the engine's phase names: redeal, pass, bid,
    bids, give, raise, decide, play, over) and `to_act` the seat to act; `legal()` lists the
    texts of the actions the rules allow that seat now; `apply` follows one action.
    """

    def __init__(
        self,
        ref: Reference,
        deck_order: Sequence[int],
        dealer: int,
        seats: int,
        context: Sequence[Mapping[str, Any]] | None = None,
        watch: bool = True,
    ) -> None:
        model = ref.model
        self.ref = ref
        self.seats = seats
        self.dealer = dealer
        # False: the hands lying open are not followed into `seen` (a deal whose
        # information is not checked)
        self.watch = watch
        # what each seat knows of the match as the deal begins (from the checker's own book),
        # and the deal's own values: `deal.keep` names and the options of choices
        self.context = (
            [dict(c) for c in context]
            if context is not None
            else [ref.start_context() for _ in range(seats)]
        )
        for ctx in self.context:
            ctx.update(ref.deal_keep)
            ctx.update(dict.fromkeys(ref.options, False))
        self.active = players_in_deal(model, dealer, seats)
        # the deal (C2): packets from the top; a turn-up card lies under the stock
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.talon: list[int] = []
        self.stock: list[int] = []  # face down, top first
        self.turnup = -1
        self.turned_up = -1  # the card turned up as the cards were dealt (public all deal)
        self.out: list[int] = []  # `rest out`: no part in the deal, seen by nobody
        self.exchange: tuple[int, int, list[int]] = (-1, 0, [])  # who, how many, laid away
        self.size = 1  # the deal's `size` (deal.size), worked out as it is dealt
        self._deal(deck_order)
        self.seen: list[set[int]] = [set(h) for h in self.hands]  # cards each seat has seen
        if self.turned_up >= 0:  # the turn-up is public (lying there, or the dealer's own)
            for seen in self.seen:
                seen.add(self.turned_up)
        self.stock_closed = False
        self.ended_early = False  # a decision or stop_if ended play before the hands ran out
        self.redealt = False
        self.redeal_by = -1
        self.declarer = -1
        self.contract = 0
        self.qualifier = ""
        self.trump = -1
        self.chosen: list[str] = []  # options of choices, in the order chosen
        self.announced: tuple[int, int] | None = None  # (meld, suit) announced, to be led
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[tuple[tuple[int, int], ...], int, int]] = []  # cards, winner, trump
        self.tricks_won = [0] * seats
        self.card_points = [0] * seats
        self.leads = [0] * seats
        self.declarations: list[tuple[int, int, int, int]] = []  # seat, meld, suit, value
        self.tricks_total = 0
        self.start_hands: dict[int, list[int]] = {}  # each hand as trick play began
        # the talon: who took which of its cards, what was shown, given, laid away
        self.talon_taken: dict[int, list[int]] = {s: [] for s in self.active}
        self.talon_shown: list[int] | None = None
        self.received: dict[int, list[int]] = {s: [] for s in self.active}  # talon cards given
        self.gives_left: dict[int, int] = {}
        self.lay_away_left = 0
        self.laid_away: list[int] = []
        # the pass phase: how many seats on the cards go (0: none), the cards set aside
        self.pass_to = 0
        self.set_aside: dict[int, list[int]] = {}
        self.passed: dict[int, tuple[int, list[int]]] = {}  # giver -> (taker, cards)
        # the bids phase: each seat's bid (-1 before it bids), blind or not, looked or not
        self.tricks_bid = [-1] * seats
        self.bid_blind = [False] * seats
        self.looked = [True] * seats
        # the auction
        self.calls: list[tuple[int, str]] = []  # (seat, text) of every call and bid
        self.high: tuple[int, int, int] | None = None  # (level, strain, qualifier) to beat
        self.high_bidder = -1
        self.in_auction: list[int] = []
        self.passes_in_row = 0
        self.listener = -1  # style pairs: who is bid to, the challengers, is he answering
        self.challengers: list[int] = []
        self.answering = False
        self.joining: list[int] | None = None  # the round of joining: who joined so far
        self.formed: dict[int, tuple[int, ...]] | None = None  # side_if: each seat's side
        self.team: tuple[int, ...] = ()  # side_if: the players for whom it held
        self.calls_asked = 0  # calls made in the round of joining
        # the flow
        self.log: list[tuple[int, str, str, int]] = []  # (seat, kind, text, to) of every action
        self.stage = ""
        self.to_act = -1
        self.step = -1  # the flow position reached
        self.asked = -1  # the flow position whose decisions `before` it were asked
        self.skipped: set[str] = set()
        self.queue: list[tuple[int, DecisionRule]] = []  # decisions asked between phases
        self.redeal_queue: list[int] = []
        # spec 4: the calls of the auction, the contract's strain and doubling, the pickup,
        # who plays (sit_out_if) and whose hand plays now (partner_plays_if)
        self.strain = ""  # the contract's strain ("" for none)
        self.doubled = 0  # 1 doubled, 2 redoubled
        self.bid_round = 0  # the round of calls of the winning bid
        self.call_count = [0] * seats  # calls each player made in the auction
        self.bid_count = [0] * seats  # bids each player made in the auction
        self.last_call: tuple[int, str] | None = None  # the last call that is not a pass
        self.strain_bids: list[tuple[int, int]] = []  # (seat, strain index) of every bid
        self.picked = -1  # the turned-up card taken in a pickup
        self.taker = -1
        self.pickup_left = 0
        self.pickup_away: list[int] = []  # the cards the taker laid away (seen by him only)
        self.playing: list[int] = list(self.active)  # who takes part in trick play
        self.turn = -1  # in trick play: whose hand plays now (to_act may be his partner)
        self.cards_played = 0
        self.first = -1  # who leads (or plays first to) the first trick
        self._fixed_trump()
        self._flow_on()
        if ref.first_leader == "holder" and not self._pass_offset():
            self._leader_card_public()
        self._show_open_hands()

    def _fixed_trump(self) -> None:
        """A trump known as the cards are dealt (`play.trump: SUIT`, or `turnup` with a card
        turned up; `trump_if` public) is in force, and shown, from the start of the deal."""
        ref = self.ref
        if ref.fixed_trump >= 0:
            self.trump = ref.fixed_trump
        elif ref.trump_turnup and self.turned_up >= 0:  # lying there, or in the dealer's hand
            self.trump = ref.eval.suit(self.turned_up)
        elif ref.trump_rule is not None:  # each suit's name is its number there
            suit = ref.eval(ref.trump_rule, {**self._public_env(), **ref.suit_numbers})
            if not 0 <= suit < len(ref.suit_numbers):
                raise OutOfRange(f"play.trump gives {suit}, not a suit")
            self.trump = suit
        if self.trump >= 0 and ref.trump_if is not None:
            if not ref.eval(ref.trump_if, self._public_env()):
                self.trump = -1

    def _public_env(self) -> dict[str, Any]:
        """The public names of the deal (`deal.size`, `play.trump_if`): the deal number,
        the target, the players, the deck's size and the deal's size."""
        return {
            "deal_number": self.context[self.active[0]]["deal_number"],
            "target": self.ref.target,
            "players": len(self.active),
            "deck_size": self.ref.size,
            "size": self.size,
        }

    def _deal(self, deck_order: Sequence[int]) -> None:
        """C2 and the pattern as written: packets from the top in deal order (`N each`, `N N
        .. round`, `N talon`, `N stock`, `1 turnup`, `rest stock`, `rest out`), with `size`
        worked out from the public match state; a packet other than a hand's takes what is
        left (a turn-up with no card left is none)."""
        ref = self.ref
        size = 1
        if ref.size_rule is not None:
            size = in_range(ref.eval(ref.size_rule, self._public_env()), "deal.size")
            if not 0 <= size <= ref.size:
                raise OutOfRange(f"deal.size gives {size}, outside 0..{ref.size}")
        self.size = size

        def number(word: str) -> int:
            return size if word == "size" else int(word)

        pos = 0

        def take(count: int) -> list[int]:
            nonlocal pos
            cards = list(deck_order[pos : pos + count])
            pos += len(cards)
            return cards

        places = {"talon": self.talon, "stock": self.stock, "out": self.out}
        for parts in ref.pattern:
            if parts[0] == "rest":
                places[parts[1]].extend(take(len(deck_order) - pos))
            elif parts[-1] == "round":
                for seat, word in zip(self.active, parts[:-1], strict=True):
                    self.hands[seat] += take(number(word))
            elif tuple(parts[1:3]) == ("turnup", "to"):  # `1 turnup to dealer`: face up, his own
                card = take(1)
                self.hands[self.dealer] += card
                self.turned_up = (card or [-1])[0]
            else:
                count = number(parts[0])
                times = number(parts[2]) if len(parts) == 4 else 1
                for _ in range(times):
                    if parts[1] == "each":
                        for seat in self.active:
                            self.hands[seat] += take(count)
                    elif parts[1] == "turnup":
                        self.turnup = self.turned_up = (take(1) or [-1])[0]
                    else:
                        places[parts[1]].extend(take(count))

    # ------------------------------------------------------------ the flow
    def _flow_on(self) -> None:
        """Enter the next phase of the flow that has something to do, asking the decisions
        `at: before PHASE` first; after the last phase, the decisions `at: end`; then the
        deal is over (scored)."""
        flow = self.ref.flow
        while True:
            here = self.step + 1
            if here < len(flow):
                if self.asked < here:
                    self.asked = here
                    if self._ask_point(f"before {flow[here]}"):
                        return
                self.step = here
                kind = flow[here]
                if kind not in self.skipped and self._start(kind):
                    return
                continue
            if self.asked < len(flow):
                self.asked = len(flow)
                if self._ask_point("end"):
                    return
            self._over()
            return

    def _over(self) -> None:
        self.stage = OVER
        self.to_act = -1
        self.queue = []

    def _end_now(self) -> None:
        """A decision ended the deal (or everybody passed and it is played as it is): the
        phases left do not run; the decisions at the end are still asked, then it is scored."""
        self.ended_early = True
        self.queue = []
        at_end = self.asked >= len(self.ref.flow)
        self.step = len(self.ref.flow) - 1
        if at_end:
            self._over()
            return
        self.asked = min(self.asked, len(self.ref.flow) - 1)
        self._flow_on()

    def _void(self, by: int) -> None:
        """The deal ends unplayed: a redeal (asked for, compulsory, or all passed)."""
        self.redealt = True
        self.redeal_by = by
        self._over()

    def _start(self, kind: str) -> bool:
        """Start a phase; False when it has nothing to do (it skips itself)."""
        ref = self.ref
        active = self.active
        if kind == "redeal":
            if not ref.has_redeal:
                return False
            if ref.forced_if is not None:  # a compulsory redeal: the first such hand voids it
                for seat in active:
                    env = ref.hand_env(self.hands[seat], len(active), self.context[seat])
                    if ref.eval(ref.forced_if, env, hand=self.hands[seat]):
                        self._void(seat)
                        return True
            if ref.allowed_if is None:  # nobody is offered a redeal
                return False
            self.redeal_queue = list(active)
            return self._stage("redeal", active[0])
        if kind == "pass":
            self.pass_to = self._pass_offset()
            if not self.pass_to:
                return False
            self.set_aside = {seat: [] for seat in active}
            return self._stage("pass", active[0])
        if kind == "auction":
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
        if kind == "bids":
            first = not self.log  # nothing of the hands has been shown before
            for seat in active:
                if ref.blind_if is not None and ref.eval(ref.blind_if, self.context[seat]):
                    self.looked[seat] = False
                    if first:  # (a card turned up face up into his hand stays seen)
                        self.seen[seat].difference_update(self.hands[seat])
                        if self.turned_up >= 0:
                            self.seen[seat].add(self.turned_up)
            return self._stage("bids", active[0])
        if kind == "talon":
            return self._start_talon()
        if kind == "pickup":
            return self._start_pickup()
        if kind == "draw_up":
            self._draw_up()
            return False
        if kind == "contract":
            contract = ref.contract
            if contract is None or not contract.raise_allowed or self.declarer < 0:
                return False
            return self._stage("raise", self.declarer)
        return self._start_play()

    def _stage(self, stage: str, seat: int) -> bool:
        self.stage = stage
        self.to_act = seat
        return True

    def _pass_offset(self) -> int:
        """How many seats on the passed cards go (`pass_cards.to`, public), 0 for none."""
        ref = self.ref
        if ref.pass_to is None:
            return 0
        first = self.context[self.active[0]]
        env = {
            "deal_number": first["deal_number"],
            "target": ref.target,
            "players": len(self.active),
        }
        return in_range(ref.eval(ref.pass_to, env), "pass_cards.to") % len(self.active)

    def _leader_card_public(self) -> None:
        """`first_leader: holder CARD`: who holds the card is public once the cards stop
        moving (he is to lead); no other world may move it to another hand."""
        if self.ref.first_leader == "holder":
            for seen in self.seen:
                seen.add(self.ref.leader_card)

    def _start_talon(self) -> bool:
        """The declarer's talon: shared out (split_if), or shown (show) and taken, then
        cards given to each defender and laid away (one action each)."""
        ref = self.ref
        rules = ref.talon
        assert rules is not None
        if self.declarer < 0:  # everybody passed and play goes on: the talon stays
            return False
        talon, self.talon = self.talon, []
        if ref.split_if is not None and ref.eval(ref.split_if, {}, qualifier=self.qualifier):
            i = self.active.index(self.declarer)
            for k, card in enumerate(talon):
                seat = self.active[(i + k) % len(self.active)]
                self.hands[seat].append(card)
                self.talon_taken[seat].append(card)
                self.seen[seat].add(card)
            return False
        if rules.show:
            self.talon_shown = list(talon)
            for seen in self.seen:
                seen.update(talon)
        self.hands[self.declarer] += talon
        self.talon_taken[self.declarer] += talon
        self.seen[self.declarer].update(talon)
        if not rules.give_each_defender and not rules.lay_away:
            return False
        self.gives_left = {
            seat: rules.give_each_defender for seat in self.active if seat != self.declarer
        }
        self.lay_away_left = rules.lay_away
        return self._stage("give", self.declarer)

    def _start_play(self) -> bool:
        """The trump in force from the first trick (`play.trump`: a suit, the turn-up's
        suit, or the contract's strain), who sits out (`sit_out_if`, E16), and the first
        leader (declarer, the player after him, forehand or the holder of a card; if he
        sits out, the next player in deal order who does not, E17)."""
        ref = self.ref
        # a fixed or turned-up trump has been in force since the deal (`_fixed_trump`)
        if ref.trump_bid and self.strain in ref.strains:
            self.trump = ref.strain_suits[ref.strains.index(self.strain)]
        if ref.trump_if is not None and not ref.eval(ref.trump_if, self._public_env()):
            self.trump = -1  # O42: the deal is played without trump
        self.playing = [s for s in self.active if not self._sits_out(s)]
        first = self.active[0]
        if ref.first_leader == "holder":
            first = next((s for s in self.active if ref.leader_card in self.hands[s]), first)
        elif ref.first_leader == "declarer" and self.declarer >= 0:
            first = self.declarer
        elif ref.first_leader == "left_of_declarer" and self.declarer >= 0:  # B17
            i = self.active.index(self.declarer)
            first = self.active[(i + 1) % len(self.active)]
        first = self._next_playing(first, 0)
        self.start_hands = {seat: list(self.hands[seat]) for seat in self.active}
        if ref.side_if is not None:
            self._form_sides()
        self.tricks_total = len(self.hands[first]) + self.stock_left() // len(self.playing)
        self.stage = "play"
        self.first = first
        self._give_turn(first)
        if ref.talon_leads and self.talon:  # R31: the talon's cards lead the first tricks
            self._talon_lead()
        if ref.skip_if is not None and any(  # nothing to play: the deal ends at once
            ref.eval(
                ref.skip_if,
                self.open_env(s, ref.eval.reads_table(ref.skip_if)),
                qualifier=self.qualifier,
            )
            for s in self.active
        ):
            self.ended_early = True
            self.trick = []
            return False
        return True

    def _talon_lead(self) -> None:
        """The talon's next card, turned face up, is the card led (by nobody, seat -1);
        the first leader plays to it first."""
        card = self.talon.pop(0)
        for seen in self.seen:
            seen.add(card)
        self.trick = [(-1, card)]
        self._give_turn(self.first)

    def _next_playing(self, seat: int, k: int) -> int:
        """The player `k` places on from `seat` (0: himself), in deal order, among those who
        take part in trick play; from a seat that sits out, the next who does not."""
        n = len(self.active)
        i = self.active.index(seat)
        order = [self.active[(i + m) % n] for m in range(n)]
        return [x for x in order if x in self.playing][k]

    def _give_turn(self, seat: int) -> None:
        """It is `seat`'s turn to lead or play: he acts, or his partner for him while
        `partner_plays_if` holds (B19); the partner then sees the hand he plays from."""
        self.turn = seat
        self.to_act = seat
        rule = self.ref.partner_plays_if
        if rule is not None and self.ref.eval(
            rule, self.open_env(seat, self.ref.eval.reads_table(rule)), qualifier=self.qualifier
        ):
            self.to_act = self.ref.partner(seat, self.seats, self.declarer, self.playing)
            self.seen[self.to_act].update(self.hands[seat])

    def role_env(self, seat: int, others: bool = True) -> dict[str, Any]:
        """The names `sit_out_if` and `pickup.take_if` read for a player (and, for the
        aggregates, the other players')."""
        env = {
            **self.context[seat],
            "declarer": seat == self.declarer,
            "players": len(self.active),
            **self.contract_env(seat),
        }
        if others:
            self._with_table(env, seat, lambda x: self.role_env(x, others=False))
        return env

    def contract_env(self, seat: int) -> dict[str, Any]:
        """What every player knows of the contract and of a seat's role in it."""
        d = self.declarer
        return {
            "contract": self.contract,
            "doubled": self.doubled == 1,
            "redoubled": self.doubled == 2,
            "bid_round": self.bid_round,
            "declarer_side": d >= 0 and seat in self.side(d),
            "side": self.side_number(seat),
            "dealer": seat == self.dealer,
            STRAIN: self.strain,
        }

    def side(self, seat: int) -> tuple[int, ...]:
        """The seats of `seat`'s side in this deal: as `side_if` formed them, else the
        file's `sides:` (else himself alone)."""
        if self.formed is not None:
            return self.formed[seat]
        return self.ref.side(seat, self.seats)

    def side_number(self, seat: int) -> int:
        """`side`: 0 for the players for whom `side_if` held, 1 for the others; without it
        the place of his side in `sides:` (without those: his seat)."""
        if self.formed is not None:
            return 0 if seat in self.team else 1
        return self.ref.side_index(seat)

    def _form_sides(self) -> None:
        """`side_if` as trick play begins, over each player's role and hand: those for whom
        it holds are one side, the others the other; a seat sitting out is alone."""
        ref = self.ref
        assert ref.side_if is not None
        team = []
        for x in self.active:
            env = self.role_env(x)
            env[TRUMP] = self.trump
            if ref.eval(ref.side_if, env, hand=self.hands[x], qualifier=self.qualifier):
                team.append(x)
        rest = tuple(x for x in self.active if x not in team)
        self.team = tuple(team)
        self.formed = {x: (x,) for x in range(self.seats)}
        for x in self.active:
            self.formed[x] = self.team if x in team else rest

    def _sits_out(self, seat: int) -> bool:
        """`sit_out_if` for a player (worked out as trick play begins, and for the taker
        of a pickup)."""
        rule = self.ref.sit_out_if
        if rule is None:
            return False
        env = self.role_env(seat)
        return bool(self.ref.eval(rule, env, hand=self.hands[seat], qualifier=self.qualifier))

    def _start_pickup(self) -> bool:
        """E12: the taker (the dealer, or the declarer) takes the turned-up card into his
        hand, unless he will sit out or `take_if` does not hold for him; then he lays away
        `lay_away` cards, one action each."""
        ref = self.ref
        taker = self.dealer if ref.pickup_who == "dealer" else self.declarer
        if taker not in self.active or self.turnup < 0 or self._sits_out(taker):
            return False
        if ref.take_if is not None:
            env = ref.result_env(self, taker, definitions=False, now=True)
            env.update(self.role_env(taker), sits_out=False)
            if not ref.eval(ref.take_if, env, hand=self.hands[taker], qualifier=self.qualifier):
                return False
        self.hands[taker].append(self.turnup)
        self.picked, self.taker, self.turnup = self.turnup, taker, -1
        self.pickup_left = ref.pickup_lay_away
        if self.pickup_left <= 0:
            return False
        return self._stage("pickup", taker)

    def _draw_up(self) -> None:
        """BL11, BL12: from the forehand round the table, each player takes the stock's top
        cards, the turned-up card after them, until he holds `draw_up.to`."""
        for seat in self.active:
            hand = self.hands[seat]
            while len(hand) < self.ref.draw_up_to and (self.stock or self.turnup >= 0):
                if self.stock:
                    hand.append(self.stock.pop(0))
                else:
                    hand.append(self.turnup)
                    self.turnup = -1
                self.seen[seat].add(hand[-1])  # BL44: his own cards, seen by him alone

    def _lay_away(self, seat: int, card: int) -> None:
        """A card the taker of the turned-up card lays away (seen by him alone)."""
        self.hands[seat].remove(card)
        self.pickup_away.append(card)
        self.pickup_left -= 1
        if not self.pickup_left:
            self._flow_on()

    # ------------------------------------------------------------ decisions between phases
    def _ask_point(self, point: str) -> bool:
        """Queue the decisions of `point`: each decision in the order of the file, and of
        each, every player of the deal in deal order (`who: declarer`: the declarer alone);
        ask the first whose `offer_if` holds."""
        self.queue = [
            (seat, d) for d in self.ref.decisions if point in d.at for seat in self._asked(d)
        ]
        return self._ask_next()

    def _asked(self, d: DecisionRule) -> list[int]:
        """Whom a decision between phases goes to, in turn: all the players of the deal,
        the declarer, or the defenders (not of his side); from the forehand, or from the
        player after the declarer (`first_asked: left_of_declarer`)."""
        n = len(self.active)
        start = 0
        if d.first_asked == "left_of_declarer" and self.declarer in self.active:
            start = self.active.index(self.declarer) + 1
        turn = [self.active[(start + k) % n] for k in range(n)]
        if d.who == "each":
            return turn
        if self.declarer < 0:
            return []
        if d.who == "declarer":
            return [self.declarer]
        partners = self.side(self.declarer)
        return [x for x in turn if x not in partners]

    def _ask_next(self) -> bool:
        """Drop the queued decisions not offered now (an earlier answer may have changed
        it); ask the first one that is."""
        while self.queue:
            seat, d = self.queue[0]
            if d.offer_if is None or self.ref.eval(
                d.offer_if, self.decision_env(seat), hand=self.hands[seat], qualifier=self.qualifier
            ):
                return self._stage("decide", seat)
            self.queue.pop(0)
        return False

    def stock_left(self) -> int:
        """Cards in the stock, the turn-up included (also one that just lies face up, the
        rest of the deck out: Observation.stock_size "the turned-up card included")."""
        return len(self.stock) + (1 if self.turnup >= 0 else 0)

    def decision_env(self, seat: int, others: bool = True) -> dict[str, Any]:
        """The names a decision (offer_if, its rules, a choice's OPTION_if) reads now; for
        the aggregates, every player of the deal's (TABLE) and his side's (SIDE)."""
        env = self.ref.result_env(self, seat, definitions=False, now=True)
        env.update(
            stock_left=self.stock_left(),
            stock_closed=self.stock_closed,
            hand_size=len(self.hands[seat]),
        )
        env[TRUMP] = self.trump
        if others:
            self._with_table(env, seat, lambda x: self.decision_env(x, others=False))
        return env

    def _with_table(self, env: dict[str, Any], seat: int, env_of: Any) -> None:
        """Give `env` (seat's) the views of the aggregates: TABLE, the players of the deal;
        SIDE, those of them on his side (himself included)."""
        partners = self.side(seat)
        table = [env if x == seat else env_of(x) for x in self.active]
        env[TABLE] = table
        env[SIDE] = [e for x, e in zip(self.active, table) if x in partners]

    def _take(self, seat: int, d: DecisionRule) -> None:
        """A decision taken: its rules set the player's deal values in order, then its
        effect (close the stock, exchange the turn-up, end the deal, skip a phase)."""
        ref = self.ref
        env = self.decision_env(seat)
        hand = self.hands[seat]
        # public: every player's values (of the players of the deal), else his own
        owners = [self.context[s] for s in self.active] if d.public else [self.context[seat]]
        for step in d.steps:
            what = f"decision '{d.name}' rule '{step.name}'"
            assigned = run_step(ref, step, env, what, hand=hand, qualifier=self.qualifier)
            for values in owners:
                values.update(assigned)
            env.update(assigned)
        effect = d.effect
        if not effect:
            return
        if effect[0] == "close_stock":
            self.stock_closed = True
        elif effect[0] == "swap_turnup":
            card = self.trump * ref.eval.n_ranks + ref.eval.ranks[effect[1]]
            hand.remove(card)
            hand.append(self.turnup)
            self.turnup = card
            for seen in self.seen:  # the exchanged card lies face up
                seen.add(card)
        elif effect[0] == "end_deal":
            self._end_now()
        elif effect[0] == "skip":
            self.skipped.add(effect[1])
        elif effect[0] == "exchange_out":  # E49: he lays N away, then takes N left out
            self.exchange = (seat, int(effect[1]), [])

    def _by_name(self, name: str) -> DecisionRule:
        return next(d for d in self.ref.decisions if d.name == name and not d.options)

    # ------------------------------------------------------------ the legal actions
    def legal(self) -> dict[str, str] | None:
        """The texts of the actions the rules allow the seat to act, each with its kind; None
        where the checker does not restate them (the calls of an auction in turns that
        uses none of the spec-4 call settings)."""
        stage = self.stage
        seat = self.to_act
        ref = self.ref
        ct = ref.card_text
        hand = self.hands[seat] if seat >= 0 else []
        if stage == "redeal":
            env = ref.hand_env(hand, len(self.active), self.context[seat])
            allowed = ref.allowed_if is not None and ref.eval(ref.allowed_if, env, hand=hand)
            return {"redeal": "redeal", "keep": "keep"} if allowed else {"keep": "keep"}
        if stage == "pass":
            return {f"pass {ct[c]}": "pass_card" for c in hand}
        if stage == "bid":
            if self.joining is not None:  # the round of joining: join or pass
                return {"join": "join", "pass": "pass"}
            if self.listener >= 0:
                return self._pair_calls(seat)
            return self._turn_calls(seat) if ref.restate_calls else None
        if stage == "bids":
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
                env.update(bids_total=sum(made), bids_made=len(made), dealer=seat == self.dealer)
                allowed = []
                for v in values:
                    env["level"] = v
                    if ref.eval(ref.bids_bid_if, env, hand=hand):
                        allowed.append(v)
                values = allowed or values
            return {f"bid {v}": "bid" for v in values}
        if stage == "give":
            targets = [s for s, n in self.gives_left.items() if n > 0]
            if targets:
                return {f"give {ct[c]} to {s}": "give" for c in hand for s in targets}
            return {f"discard {ct[c]}": "discard" for c in hand}
        if stage == "raise":
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
        if stage == "decide" and self.exchange[0] < 0:
            _, d = self.queue[0]
            if not d.options:
                return {d.name: "decide", "keep": "keep"}
            env = self.decision_env(seat)
            return {
                option: "choose"
                for option, rule in zip(d.options, d.option_ifs, strict=True)
                if rule is None or ref.eval(rule, env, hand=hand, qualifier=self.qualifier)
            }
        if stage == "pickup" or (stage == "decide" and self.exchange[0] >= 0):
            return {f"discard {ct[c]}": "discard" for c in hand}
        if stage == "play":
            return self._turn_actions(self.turn)
        return {}

    def allows(self, kind: str, card: int, text: str) -> bool | None:
        """Whether the rules allow the seat to act this action now, as `legal()` would say
        (None where it restates none); a card played in trick play is judged from the cards
        the player may play alone."""
        if self.stage == "play" and self.announced is None and kind == "play":
            return self.may_play(self.turn, card)
        if self.stage == "play" and self.announced is None and kind == "marry":
            return card in self.legal_plays(self.turn)[1]
        right = self.legal()
        return None if right is None else text in right

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
            turnup_suit=ref.eval.suit(self.turnup) if self.turnup >= 0 else -1,
            call_round=self.call_count[seat] + 1,
            bids_made=self.bid_count[seat],
            dealer=seat == self.dealer,
            dealer_side=self.dealer in ref.side(seat, self.seats),
        )
        env[STRAIN] = ""
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
        for level in self._levels(seat, env):
            for si in strains:
                for qi, q in enumerate(ref.call_qualifiers):
                    if self.high is not None and (level, si, qi) <= self.high:
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

    def _turn_actions(self, seat: int) -> dict[str, str]:
        """At a turn in trick play: the decisions offered, announcements, and the cards."""
        ref = self.ref
        ct = ref.card_text
        out: dict[str, str] = {}
        hand = self.hands[seat]
        if self.announced is not None:  # lead a card of the meld, or a decision after it
            mi, suit = self.announced
            out.update((d, "decide") for d in self._decisions_offered(seat, "announced"))
            out.update((f"play {ct[c]}", "play") for c in self._meld_cards(mi, suit) if c in hand)
            return out
        at = "play" if self.trick else "lead"
        out.update((d, "decide") for d in self._decisions_offered(seat, at))
        if not self.trick and ref.announced_melds:
            out.update((a, "announce") for a in self._announcements(seat))
        plays, marries = self.legal_plays(seat)
        out.update((ref.play_text[c], "play") for c in plays)
        out.update((ref.marry_text[c], "marry") for c in marries)
        return out

    def _decisions_offered(self, seat: int, at: str) -> list[str]:
        """The decisions `seat` may take at his turn to `at` (lead, play), or right after
        announcing a meld (`after_announce`), whose `offer_if` holds now."""
        out = []
        env: dict[str, Any] | None = None
        for d in self.ref.decisions:
            if d.options or not (d.after_announce if at == "announced" else at in d.at):
                continue
            if env is None:
                env = self.decision_env(seat)
            hand, q = self.hands[seat], self.qualifier
            if d.offer_if is None or self.ref.eval(d.offer_if, env, hand=hand, qualifier=q):
                out.append(d.name)
        return out

    def _meld_cards(self, mi: int, suit: int) -> list[int]:
        meld = self.ref.melds[mi]
        if meld.cards:
            return list(meld.cards)
        return [suit * self.ref.eval.n_ranks + r for r in meld.ranks]

    def _declare_env(self, seat: int) -> dict[str, Any]:
        """The names a meld's `declare_if` reads for the player on lead."""
        return {
            "tricks_won": self.tricks_won[seat],
            "tricks_played": len(self.tricks),
            "declarer": seat == self.declarer,
            "first_lead": self.leads[seat] == 0,
            "stock_left": self.stock_left(),
            "stock_closed": self.stock_closed,
            **self.context[seat],
        }

    def _announcements(self, seat: int) -> list[str]:
        """`announce NAME SUIT` for every announced meld held in full whose declare_if holds."""
        ref = self.ref
        held = set(self.hands[seat])
        out = []
        env: dict[str, Any] | None = None
        for mi, suit, _, cards in ref.concrete:
            meld = ref.melds[mi]
            if not meld.announce or not held.issuperset(cards):
                continue
            if env is None:
                env = self._declare_env(seat)
            if meld.declare_if is None or ref.eval(meld.declare_if, env, hand=self.hands[seat]):
                sym = f" {ref.suit_symbols[suit]}" if suit >= 0 else ""
                out.append(f"announce {meld.name}{sym}")
        return out

    def meld_led(self, seat: int, card: int) -> tuple[int, int, int] | None:
        """The meld (index, suit, value) that leading this card declares (`marry`): the
        first meld declared by leading (not announced) that holds the card and that the
        seat holds complete; None if none."""
        ref = self.ref
        held = set(self.hands[seat]) | {card}
        for mi, suit, _, cards in ref.concrete:
            if card in cards and not ref.melds[mi].announce and held.issuperset(cards):
                return mi, suit, ref.melds[mi].value_in(suit, self.trump)
        return None

    def relations(self) -> tuple[list[int], list[int]]:
        """Each card's effective suit and power now (trump, qualifier, options chosen)."""
        return self.ref.relations(self.trump, self.qualifier, self.chosen, self.strain)

    def _card_env(self, seat: int) -> dict[str, Any]:
        """The names `lead_if` and `play_if` read (besides the card in question)."""
        eff = self.relations()[0]
        played = [c for t in self.tricks for _, c in t[0]]
        return {
            "first_lead": self.leads[seat] == 0,
            "tricks_played": len(self.tricks),
            "tricks_won": self.tricks_won[seat],
            "declarer": seat == self.declarer,
            "trump_set": self.trump >= 0,
            "trump_broken": any(eff[c] == self.ref.trump_id for c in played),
            "hand_size": len(self.hands[seat]),
            PLAYED: played,
            LED: [eff[t[0][0][1]] for t in self.tricks],
            LEADING: eff[self.trick[0][1]] if self.trick else -1,
            MEMO: {},
            **self.contract_env(seat),
            **self.context[seat],
        }

    def _play_env(self, seat: int) -> dict[str, Any]:
        """The names `play_if` reads when `seat` plays to a trick: `_card_env` and whether he
        can follow the card led."""
        env = self._card_env(seat)
        eff = self.relations()[0]
        led = eff[self.trick[0][1]]
        env["can_follow"] = any(eff[c] == led for c in self.hands[seat])
        env.update(self._trick_env(seat))
        return env

    def _filtered(self, rule: s.Expr, env: dict[str, Any], cards: Iterable[int], hand: list[int]):
        """The cards a `lead_if` / `play_if` rule allows; all of them when it allows none."""
        ref = self.ref
        eff = self.relations()[0]
        cards = list(cards)
        allowed = set()
        for c in cards:
            env["card_is_trump"] = eff[c] == ref.trump_id
            if self.trick:
                env["card_wins"] = self._wins(self.turn, c)
            if ref.eval(rule, env, hand=hand, card=c):
                allowed.add(c)
        return allowed or set(cards)

    def may_play(self, seat: int, card: int) -> bool:
        """`card in legal_plays(seat)[0]`, worked out for this card: a `lead_if` or `play_if`
        rule is asked about the other cards only when it does not allow this one."""
        hand = self.hands[seat]
        if card not in hand:
            return False
        ref = self.ref
        if self.trick:
            follow = self._follow_plays(seat, hand)
            if card not in follow or ref.play_if is None:
                return card in follow
            return self._allows_card(ref.play_if, self._play_env(seat), card, follow, hand)
        if ref.lead_if is None:
            return True
        return self._allows_card(ref.lead_if, self._card_env(seat), card, hand, hand)

    def _allows_card(
        self, rule: s.Expr, env: dict[str, Any], card: int, cards: Iterable[int], hand: list[int]
    ) -> bool:
        """`card in _filtered(rule, env, cards, hand)`: the rule allows it, or none of them."""
        ref = self.ref
        eff = self.relations()[0]

        def allowed(c: int) -> bool:
            env["card_is_trump"] = eff[c] == ref.trump_id
            if self.trick:
                env["card_wins"] = self._wins(self.turn, c)
            return bool(ref.eval(rule, env, hand=hand, card=c))

        return allowed(card) or not any(allowed(c) for c in cards if c != card)

    def legal_plays(self, seat: int) -> tuple[set[int], set[int]]:
        """The cards `seat` may play now, and those it may lead declaring a meld (marry)."""
        hand = self.hands[seat]
        ref = self.ref
        if self.trick:
            follow = self._follow_plays(seat, hand)
            if ref.play_if is None:
                return set(follow), set()
            return self._filtered(ref.play_if, self._play_env(seat), follow, hand), set()
        leads = set(hand)
        if ref.lead_if is not None:
            leads = self._filtered(ref.lead_if, self._card_env(seat), hand, hand)
        marry: set[int] = set()
        if not ref.led_melds:
            return leads, marry
        env = self._declare_env(seat)
        for c in leads:
            meld = self.meld_led(seat, c)
            if meld is None:
                continue
            declare_if = ref.melds[meld[0]].declare_if
            if declare_if is None or ref.eval(declare_if, env, hand=hand):
                marry.add(c)
        return leads, marry

    def _duties(self, seat: int) -> dict[str, bool]:
        """follow, beat_in_suit, trump_when_void and overtrump now (each a yes/no, or a rule
        read at each play: stock_left, stock_closed, tricks_played, declarer, values)."""
        if self.ref.fixed_duties:
            return self.ref.obligations  # type: ignore[return-value]
        out = {}
        env: dict[str, Any] | None = None
        for name, rule in self.ref.obligations.items():
            if isinstance(rule, bool):
                out[name] = rule
                continue
            if env is None:
                env = {
                    "stock_left": self.stock_left(),
                    "stock_closed": self.stock_closed,
                    "tricks_played": len(self.tricks),
                    "declarer": seat == self.declarer,
                    **self.contract_env(seat),
                    **self.context[seat],
                    **self._trick_env(seat),
                }
            out[name] = bool(self.ref.eval(rule, env, qualifier=self.qualifier))
        return out

    def _trick_env(self, seat: int) -> dict[str, Any]:
        """The trick in progress as `seat` is to play to it: the cards in it, a trump led,
        a trump in it, and whether the card winning it so far (T15) is a partner's (his
        side's; without sides, against a declarer, another defender's)."""
        eff = self.relations()[0]
        trump = self.ref.trump_id
        winner = trick_winner(self.relations(), trump, self.trick)
        if winner < 0 or winner == seat:
            partner = False
        elif self.ref.sides:
            partner = winner in self.ref.side(seat, self.seats)
        else:
            partner = self.declarer >= 0 and self.declarer not in (seat, winner)
        return {
            "cards_in_trick": len(self.trick),
            "led_trump": eff[self.trick[0][1]] == trump,
            "trick_trumped": any(eff[c] == trump for _, c in self.trick),
            "partner_winning": partner,
        }

    def _wins(self, seat: int, card: int) -> bool:
        """`card_wins`: played now, the card would win the trick as it stands (T15)."""
        return (
            trick_winner(self.relations(), self.ref.trump_id, [*self.trick, (seat, card)]) == seat
        )

    def _follow_plays(self, seat: int, hand: list[int]) -> list[int]:
        """T14, S13, X13, K29: follow the led (effective) suit, beat in suit unless trumped,
        trump when void, overtrump; by the cards' effective suits and powers."""
        duty = self._duties(seat)
        eff, power = self.relations()
        trump = self.ref.trump_id
        led = eff[self.trick[0][1]]
        on_table = [c for _, c in self.trick]
        follow = [c for c in hand if eff[c] == led]
        if follow:
            if not duty["follow"]:
                return hand
            trumped = led != trump and any(eff[c] == trump for c in on_table)
            if duty["beat_in_suit"] and not trumped:
                best = max(power[c] for c in on_table if eff[c] == led)
                return [c for c in follow if power[c] > best] or follow
            return follow
        trumps = [c for c in hand if eff[c] == trump]
        if duty["trump_when_void"] and trumps:
            in_trick = [power[c] for c in on_table if eff[c] == trump]
            if duty["overtrump"] and in_trick:
                return [c for c in trumps if power[c] > max(in_trick)] or trumps
            return trumps
        return hand

    # ------------------------------------------------------------ following the deal
    def apply(
        self,
        seat: int,
        kind: str,
        card: int = -1,
        value: int = 0,
        to: int = -1,
        qualifier: str = "",
        text: str = "",
    ) -> None:
        """Follow one action of the deal, taken by `seat` in the current stage."""
        stage = self.stage
        self.log.append((seat, "lay_away" if stage == "pickup" else kind, text, to))
        if stage == "redeal":
            self._redeal_answer(seat, kind)
        elif stage == "pass":
            self._pass_card(seat, card)
        elif stage == "bid":
            self.calls.append((seat, text))
            if self.joining is not None:
                self._join_call(seat, kind)
            elif self.listener >= 0:
                self._pair_call(seat, kind, value)
            else:
                self._call(seat, kind, text)
        elif stage == "bids":
            self._bid(seat, kind, value, qualifier, text)
        elif stage == "give":
            self._give(kind, card, to)
        elif stage == "pickup":
            self._lay_away(seat, card)
        elif stage == "raise":
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
        elif stage == "decide" and self.exchange[0] >= 0:
            self._exchange(seat, card)
        elif stage == "decide":
            self._answer(seat, kind, text)
        elif stage == "play":
            self._turn(self.turn, kind, card, value, to, text)
        else:
            raise ReferenceError(f"an action after the deal ended: {text}")
        self._show_open_hands()

    def _show_open_hands(self) -> None:
        """The cards of the hands lying open (`open_hand_if`) are seen by everybody."""
        if self.watch and self.ref.open_hand_if is not None:
            for s in self.open_seats():
                for seen in self.seen:
                    seen.update(self.hands[s])

    def _redeal_answer(self, seat: int, kind: str) -> None:
        self.redeal_queue.pop(0)
        if kind == "redeal":
            self._void(seat)
        elif self.redeal_queue:
            self.to_act = self.redeal_queue[0]
        else:
            self._flow_on()

    def _pass_card(self, seat: int, card: int) -> None:
        """A card set aside; after the last choice every set goes `pass_to` seats on."""
        self.hands[seat].remove(card)
        self.set_aside[seat].append(card)
        if len(self.set_aside[seat]) < self.ref.pass_count:
            return
        i = self.active.index(seat)
        if i + 1 < len(self.active):
            self.to_act = self.active[i + 1]
            return
        n = len(self.active)
        for k, giver in enumerate(self.active):
            taker = self.active[(k + self.pass_to) % n]
            cards = self.set_aside[giver]
            self.hands[taker] += cards
            self.seen[taker].update(cards)
            self.passed[giver] = (taker, list(cards))
        self.set_aside = {}
        self._leader_card_public()
        self._flow_on()

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
            self.high = self._bid_key(text)
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

    def _give(self, kind: str, card: int, to: int) -> None:
        """A card given to a defender (he sees it), or laid away by the declarer."""
        self.hands[self.declarer].remove(card)
        if kind == "discard":
            self.laid_away.append(card)
            self.lay_away_left -= 1
            if not self.lay_away_left:
                self._flow_on()
            return
        self.hands[to].append(card)
        self.received[to].append(card)
        self.seen[to].add(card)
        self.gives_left[to] -= 1
        if not any(self.gives_left.values()) and not self.lay_away_left:
            self._flow_on()

    def _answer(self, seat: int, kind: str, text: str) -> None:
        """The answer to the decision asked between phases: it, keep, or an option."""
        _, d = self.queue.pop(0)
        if kind == "choose" and d.own:  # the chooser's own value, true for him alone
            self.context[seat][text] = True
        elif kind == "choose":
            self.chosen.append(text)
            for ctx in self.context:  # an option chosen is public, and true for everyone
                ctx[text] = True
            trump = d.option_trumps[d.options.index(text)]
            if trump >= 0:
                self.trump = trump
        elif kind == "decide":
            self._take(seat, d)
            if d.effect[:1] == ("end_deal",):
                return
            if d.effect[:1] == ("exchange_out",):
                self.to_act = seat  # still deciding: the cards to lay away
                return
        if not self._ask_next():
            self._flow_on()

    def _exchange(self, seat: int, card: int) -> None:
        """A card laid away in an exchange with the cards left out of the deal; after the
        last, he takes as many of those (the first in deck order), his in their place."""
        _, n, away = self.exchange
        self.hands[seat].remove(card)
        away.append(card)
        if len(away) < n:
            return
        taken = self.out[: len(away)]
        self.out[: len(away)] = away
        self.hands[seat].extend(taken)
        self.seen[seat].update(taken)
        self.exchange = (-1, 0, [])
        if not self._ask_next():
            self._flow_on()

    def _turn(self, seat: int, kind: str, card: int, value: int, to: int, text: str) -> None:
        """A decision, an announcement or a card at a turn in trick play."""
        if kind == "decide":
            self._take(seat, self._by_name(text))
            return
        if kind == "announce":
            meld = self.ref.melds[value]
            self.declarations.append((seat, value, to, meld.value_in(to, self.trump)))
            if meld.sets_trump and to >= 0:
                self.trump = to
            self.announced = (value, to)
            for seen in self.seen:  # X24: he shows the meld's cards
                seen.update(self._meld_cards(value, to))
            return
        self.announced = None
        if not self.trick:
            self.leads[seat] += 1
            if kind == "marry":
                led = self.meld_led(seat, card)
                if led is not None:
                    mi, suit, value = led
                    self.declarations.append((seat, mi, suit, value))
                    if self.ref.melds[mi].sets_trump and suit >= 0:
                        self.trump = suit
                    for seen in self.seen:
                        seen.update(self._meld_cards(mi, suit))
        self.hands[seat].remove(card)
        for seen in self.seen:
            seen.add(card)
        self.trick.append((seat, card))
        self.cards_played += 1
        from_talon = 1 if self.trick[0][0] < 0 else 0  # a talon card leads: one more card
        if len(self.trick) < len(self.playing) + from_talon:  # E18: who sits out is skipped
            self._give_turn(self._next_playing(seat, 1))
            return
        self._trick_done()

    def _trick_done(self) -> None:
        """The trick to its winner, who leads next; stop_if; drawing from the stock; the
        end of play when every hand is empty."""
        ref = self.ref
        winner = trick_winner(self.relations(), ref.trump_id, self.trick)
        from_talon = self.trick[0][0] < 0
        if winner >= 0:  # R31: a talon-led trick nobody followed is nobody's
            self.card_points[winner] += sum(ref.points_for(self.trump)[c] for _, c in self.trick)
            self.tricks_won[winner] += 1
        self.tricks.append((tuple(self.trick), winner, self.trump))
        self.trick = []
        if from_talon and self.talon:
            self._talon_lead()
            return
        if from_talon:  # R31: after the talon's tricks the first leader leads
            winner = self.first
        self._give_turn(winner)
        if ref.stop_if is not None and any(
            ref.eval(
                ref.stop_if,
                self.open_env(s, ref.eval.reads_table(ref.stop_if)),
                qualifier=self.qualifier,
            )
            for s in self.active
        ):
            self.ended_early = True
            self._flow_on()
            return
        if ref.draw and not self.stock_closed:  # X12: the winner first, the turn-up last
            n = len(self.active)
            i = self.active.index(winner)
            for k in range(n):
                seat = self.active[(i + k) % n]
                if self.stock:
                    card = self.stock.pop(0)
                elif self.turnup >= 0:
                    card, self.turnup = self.turnup, -1
                else:
                    break
                self.hands[seat].append(card)
                self.seen[seat].add(card)
        if not any(self.hands[s] for s in self.playing):
            self._flow_on()

    # ------------------------------------------------------------ what the rules make public
    def open_env(self, seat: int, others: bool = True) -> dict[str, Any]:
        """The names `open_hand_if`, `stop_if` (and `counts_for_if`) read for a player (and,
        for the aggregates, the other players')."""
        env = {
            "declarer": seat == self.declarer,
            "tricks_won": self.tricks_won[seat],
            "tricks_played": len(self.tricks),
            "cards_played": self.cards_played,
            **self.contract_env(seat),
            **self.context[seat],
        }
        if others:
            self._with_table(env, seat, lambda x: self.open_env(x, others=False))
        return env

    def open_seats(self) -> list[int]:
        """The players whose hands lie face up now (`open_hand_if`)."""
        rule = self.ref.open_hand_if
        if rule is None:
            return []
        # every player's names made once, each given the others' for the aggregates (as
        # open_env does for one player; the table's entries are shared)
        envs = {x: self.open_env(x, others=False) for x in self.active}
        if self.ref.eval.reads_table(rule):
            for x, env in envs.items():
                self._with_table(env, x, envs.__getitem__)
        return [x for x in self.active if self.ref.eval(rule, envs[x], qualifier=self.qualifier)]

    def sees_own_hand(self, seat: int) -> bool:
        """False while a player who may bid blind has neither looked nor bid."""
        return self.looked[seat]

    def won_last_trick(self, seat: int) -> bool:
        """He won the deal's last trick, and the deal was played out (not ended early)."""
        return bool(self.tricks) and self.tricks[-1][1] == seat and not self.ended_early

    def set_aside_owner(self) -> int:
        """Who gets the laid-away cards and the talon left untaken: the first player in deal
        order for whom `talon.counts_for_if` holds (-1: nobody)."""
        ref = self.ref
        if ref.counts_for_if is None or (not self.laid_away and not self.talon):
            return -1
        for seat in self.active:
            env = self.open_env(seat, ref.eval.reads_table(ref.counts_for_if))
            env.update(won_last_trick=self.won_last_trick(seat), contract=self.contract)
            if ref.eval(ref.counts_for_if, env, qualifier=self.qualifier):
                return seat
        return -1

    def top_trumps(self, seat: int) -> int:
        """Over his hand as play began and the talon cards counted for him: with the
        highest trump, his unbroken run of trumps from the top; without it, the trumps above
        his highest (all of them if he has none). Trumps by the relations at the end."""
        eff, power = self.relations()
        trumps = sorted(
            (c for c in range(self.ref.size) if eff[c] == self.ref.trump_id),
            key=lambda c: -power[c],
        )
        held: set[int] = set()
        owner = self.set_aside_owner()
        for member in self.side(seat):  # his side's cards together
            held.update(self.start_hands.get(member, ()))
            if member == owner:
                held.update(self.laid_away)
                held.update(self.talon)
        if not trumps:
            return 0
        with_top = trumps[0] in held
        run = 0
        for c in trumps:
            if (c in held) != with_top:
                break
            run += 1
        return run

    def view(self, seat: int) -> dict[str, Any]:
        """What the rules let `seat` see of its own cards and of what lies open: its hand
        (nothing while it may bid blind and has not decided), the cards it set aside,
        received and passed; the talon shown (`show`, or left untaken once the deal is
        over); the turn-up (while it lies and the stock is open; once picked up, until
        play starts), the stock's size and state, the meld announced and not yet led,
        every player's deal values, the cards laid away (by the declarer or after a pickup:
        his own; everybody's at the end when they count for someone), the hands lying
        open, the passing offset, who sits out, for whom the player to act plays, the
        contract as said; card lists sorted."""
        ref = self.ref
        ct = ref.card_text

        def texts(cards: Iterable[int]) -> list[str]:
            return sorted(ct[c] for c in cards)

        received = list(self.received.get(seat, ()))
        received += [c for taker, cards in self.passed.values() if taker == seat for c in cards]
        given = []
        if seat == self.declarer:
            given = [(s, texts(v)) for s, v in self.received.items() if v]
        if seat in self.passed:
            taker, cards = self.passed[seat]
            given.append((taker, texts(cards)))
        announced = None
        if self.announced is not None:
            mi, suit = self.announced
            name = ref.suit_names[suit] if suit >= 0 else ""
            announced = (self.to_act, ref.melds[mi].name, name)
        over = self.stage == OVER
        turnup = None
        if self.turnup >= 0 and not self.stock_closed:  # it lies face up
            turnup = ct[self.turnup]
        elif self.picked >= 0 and self.stage not in ("play", OVER):  # taken: until play
            turnup = ct[self.picked]
        public = self._discards_public()
        laid_away = list(self.laid_away) if seat == self.declarer or public else []
        if seat == self.taker or public:  # E28: what he laid away after a pickup, he alone
            laid_away += self.pickup_away
        contract_text = None
        if self.declarer >= 0 and ref.bidding is not None:
            words = [] if ref.levelless else [str(self.contract)]
            words += [w for w in (self.strain, self.qualifier) if w]
            if self.doubled:
                words.append("doubled" if self.doubled == 1 else "redoubled")
            contract_text = " ".join(words)
        shown = self.talon_shown
        if shown is None and over and self.talon:  # K33: the untaken talon, at the end
            shown = self.talon
        return {
            "hand": texts(self.hands[seat]) if self.looked[seat] else [],
            "talon_shown": None if shown is None else texts(shown),
            "set_aside": texts(self.set_aside.get(seat, ())),
            "received": texts(received),
            "given": sorted(given),
            "turnup": turnup,
            "turned_up": None if self.turned_up < 0 else ct[self.turned_up],
            "stock_size": self.stock_left(),
            "stock_closed": self.stock_closed,
            "announced": announced,
            "deal_keep": tuple(
                (s, name, self.context[s][name]) for s in self.active for name, _ in ref.deal_keep
            ),
            "laid_away": texts(laid_away),
            "open_hands": [(s, texts(self.hands[s])) for s in self.open_seats() if s != seat],
            "pass_to": self.pass_to,
            "sitting_out": tuple(s for s in self.active if s not in self.playing),
            "playing_for": self.turn if self.stage == "play" and self.turn != self.to_act else None,
            "contract_text": contract_text,
            "log": [
                (actor, self._seen_as(actor, kind, text, to, seat))
                for actor, kind, text, to in self.log
            ],
        }

    def _seen_as(self, actor: int, kind: str, text: str, to: int, seat: int) -> str:
        """An action as `seat` saw it: a card given, passed or laid away by another is
        hidden (a given card is seen by its taker; laid-away cards that count for someone
        show at the end)."""
        if kind == "give" and seat not in (actor, to):
            return f"give a card to {to}"
        if kind == "pass_card" and seat != actor:
            return "pass a card"
        if kind in ("discard", "lay_away") and seat != actor and not self._discards_public():
            return "discard a card"
        return text

    def _discards_public(self) -> bool:
        """Cards laid away are seen by who laid them away; by all once the deal is over
        only when they count for someone (`talon.counts_for_if`), else never by the
        others."""
        return self.stage == OVER and self.ref.counts_for_if is not None


def observed(obs: Any) -> dict[str, Any]:
    """The fields of an Observation that `TrickReplay.view` restates, card lists sorted."""
    return {
        "hand": sorted(obs.hand),
        "talon_shown": None if obs.talon_shown is None else sorted(obs.talon_shown),
        "set_aside": sorted(obs.set_aside),
        "received": sorted(obs.received),
        "given": sorted((to, sorted(cards)) for to, cards in obs.given),
        "turnup": obs.turnup,
        "turned_up": obs.turned_up,
        "stock_size": obs.stock_size,
        "stock_closed": obs.stock_closed,
        "announced": obs.announced,
        "deal_keep": obs.deal_keep,
        "laid_away": sorted(obs.laid_away),
        "open_hands": [(s, sorted(cards)) for s, cards in obs.open_hands],
        "pass_to": obs.pass_to,
        "sitting_out": tuple(obs.sitting_out),
        "playing_for": obs.playing_for,
        "contract_text": obs.contract_text,
        "log": list(obs.log),
    }


def run_step(
    ref: Reference, step: Any, env: dict[str, Any], what: str, each: bool = False, **kw: Any
) -> list[tuple[str, Any]]:
    """The values one `rule` line assigns in `env` (none when its condition fails), each
    computed before any is assigned and kept within ±MAX_VALUE (`what` names the rule; with
    `each`, the message also names the value)."""
    if step.condition is not None and not ref.eval(step.condition, env, **kw):
        return []
    return [
        (a.name, in_range(ref.eval(a.expr, env, **kw), f"{what} ({a.name})" if each else what))
        for a in step.assigns
    ]


def trick_winner(
    relations: tuple[list[int], list[int]], trump_id: int, cards: Sequence[tuple[int, int]]
) -> int:
    """T15, X9, K30: the highest trump wins, else the highest card of the (effective) suit
    led; of equal powers the first played. A trick led by a talon card (R31): the same
    among the players' cards, -1 (nobody) when none is a trump or of the suit led."""
    eff, power = relations
    led = eff[cards[0][1]]
    if cards[0][0] < 0:  # R31: a talon card led: the players' cards alone compete
        played = [(power[c], -i, seat, eff[c]) for i, (seat, c) in enumerate(cards) if i > 0]
        for suit in (trump_id, led):
            best = [x for x in played if x[3] == suit]
            if best:
                return max(best)[2]
        return -1
    trumps = [(power[c], -i, seat) for i, (seat, c) in enumerate(cards) if eff[c] == trump_id]
    if trumps:
        return max(trumps)[2]
    return max((power[c], -i, seat) for i, (seat, c) in enumerate(cards) if eff[c] == led)[2]


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
    """Scores and kept values of a match, kept by running `after_deal` here; and whether
    the match ends after a deal, and who wins (`target`, `end_if`, `tie_break`, limits);
    and who deals next."""

    def __init__(self, ref: Reference, seats: int) -> None:
        self.ref = ref
        self.seats = seats
        self.scores = [0] * seats
        self.kept = [dict(ref.keep) for _ in range(seats)]
        self.deals_scored = 0
        self.redeals = 0
        self.dealer = 0  # C1: seat 0 deals first

    def dealt(self, redealt: bool, loser: int = -1) -> None:
        """Who deals the next deal: after a redeal the same dealer (`redeal.same_dealer`) or
        the next; after a played deal by `next_dealer` (left, same, loser)."""
        if redealt:
            if not self.ref.same_dealer:
                self.dealer = (self.dealer + 1) % self.seats
            return
        rule = self.ref.model.deal.next_dealer
        if rule == "left" or (rule == "loser" and loser < 0):
            self.dealer = (self.dealer + 1) % self.seats
        elif rule == "loser":
            self.dealer = loser

    def context(self) -> list[dict[str, Any]]:
        """What each seat knows of the match as the next deal begins."""
        return [
            {
                **kept,
                "deal_number": self.deals_scored + 1,
                "score": score,
                "target": self.ref.target,
                "max_other_score": self.ref.max_other_score(seat, self.scores),
            }
            for seat, (score, kept) in enumerate(zip(self.scores, self.kept, strict=True))
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
                what = f"after_deal rule '{step.name}'"
                env.update(run_step(ref, step, env, what, qualifier=qualifier, each=True))
            self.scores[seat] = env["score"]
            for name in self.kept[seat]:
                self.kept[seat][name] = env[name]

    # ------------------------------------------------------------ the end
    def standing(self, seat: int) -> int:
        """What the match ranks a seat by: `rank_by`, else its score."""
        ref = self.ref
        if ref.rank_by is None:
            return self.scores[seat]
        return int(ref.eval(ref.rank_by, {"score": self.scores[seat], **self.kept[seat]}))

    def ends(self, redealt: bool, declarer: int) -> tuple[bool, list[int]]:
        """Whether the match is over after the deal just finished, and its winners.

        After a played deal: the seats that reached the target (if any), ranked by
        `tie_break`; else `end_if` holding for any seat ends it, the winners ranked among all
        seats by standing and then `tie_break`. `play_on` in the tie-breaks: winners of
        more than one side play another deal. The deal and redeal limits end it regardless,
        the winners the seats of the highest standing.
        """
        ref = self.ref
        seats = range(self.seats)
        if not redealt:
            candidates: list[int] = []
            if ref.has_target:
                candidates = [x for x in seats if self.scores[x] >= ref.target]
            if not candidates and ref.end_if is not None:
                if any(ref.eval(ref.end_if, self._end_env(seat)) for seat in seats):
                    top = max(self.standing(x) for x in seats)
                    candidates = [x for x in seats if self.standing(x) == top]
            if candidates:
                winners = self._tie_break(candidates, declarer)
                if winners is not None:
                    return True, winners
        if self.deals_scored >= ref.deal_limit or self.redeals > ref.redeal_limit:
            top = max(self.standing(x) for x in seats)
            return True, [x for x in seats if self.standing(x) == top]
        return False, []

    def _tie_break(self, candidates: list[int], declarer: int) -> list[int] | None:
        """The winners among `candidates` by `tie_break`; None when `play_on` plays on."""
        for rule in self.ref.tie_break:
            if rule == "declarer" and declarer in candidates:
                return [declarer]
            if rule == "highest":
                top = max(self.standing(x) for x in candidates)
                candidates = [x for x in candidates if self.standing(x) == top]
            if rule == "play_on":
                sides = {tuple(self.ref.side(x, self.seats)) for x in candidates}
                if len(sides) > 1:
                    return None
        return candidates

    def _end_env(self, seat: int) -> dict[str, Any]:
        return {
            **self.kept[seat],
            "players": len(players_in_deal(self.ref.model, 0, self.seats)),
            "score": self.scores[seat],
            "deal_number": self.deals_scored,
            "target": self.ref.target,
            "max_other_score": self.ref.max_other_score(seat, self.scores),
        }
