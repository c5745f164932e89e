"""The expression language evaluated by walking syntax trees (never the compiled closures),
and what an expression names or calls."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ...language import syntax as s
from ...language.model import VariantModel
from .errors import ReferenceError

BOOL_WORDS = {"yes": True, "true": True, "no": False, "false": False}
CARD_CALLS = frozenset({"card_rank", "card_suit", "card_is"})  # of the card in question

# Keys of an environment that functions read (never a name a rules file can write):
LED = "\x01led"  # the effective suit led to each finished trick (times_led)
LEADING = "\x01leading"  # the effective suit led to the trick in progress (led_suit)
PLAYED = "\x01played"  # the cards in the deal's finished tricks (played_suit, played_card)
TAKEN = "\x01taken"  # the cards in the player's won tricks (taken_suit, taken_card)
TABLE = "\x01table"  # every player's scoring environment (sum_all, count_all, ...)
SIDE = "\x01side"  # the environments of the player's side, himself included (sum_side, ...)
MEMO = "\x01memo"  # counts that are the same for every card in question, once worked out
# the values of the parts at several places of the rules (defines), once worked out for an
# environment that does not change while it is read (Evaluator.share)
SHARED = "\x01shared"
TRUMP = "\x01trump"  # the trump suit in force (holds_trump), -1 for none
TURNUP = "\x01turnup"  # the turned-up card while it lies there (turnup_rank), -1 for none
STRAIN = "\x01strain"  # the strain of the contract, or of the bid in question (strain_is)
NAMED = "\x01named"  # the strains the player named in his bids (named_strain)
SEATS = "\x01seats"  # every seated player's scoring environment, by seat (seat_left)
SEAT = "\x01seat"  # the player's own seat (seat_left)
# a finished trick as one player reads it (after_trick, and each trick of sum_tricks): the
# cards played to it (seat, card), its winner, the player, and his side (None where the
# sides are secret: a decision)
OTHER = "\x01other"  # the other card of two that meet (`beats`)
TRICK = "\x01trick"
TRICKS = "\x01tricks"  # the deal's finished tricks, each as a player reads it (sum_tricks)
COMBINATIONS = "\x01combinations"  # the player's combinations' strengths (nth_combination)
AGGREGATES = ("sum_all", "max_all", "min_all", "count_all", "sum_side", "count_side")
TRICK_FUNCTIONS = ("in_trick", "winning_card_is", "played_to_trick", "opponents_played")
OVER_TRICKS = ("sum_tricks", "count_tricks")


_Walk = Callable[[Mapping[str, Any], Sequence[int], str, int], Any]


class Evaluator:
    """Evaluates expression syntax trees of one variant (never the compiled closures).

    A card's *face* is a rank of a suit (`suit * ranks + rank`); `faces` gives the face of
    each card of the deck (by default every face once, a card's number its face's). The
    copies of a face are one card to the rules: a card named in a rule (`holds(QC)`,
    `card_is(QC)`) is any of them.
    """

    def __init__(self, model: VariantModel, faces: Sequence[int] | None = None) -> None:
        self._reads_table: dict[int, bool] = {}
        self._walkers: dict[int, _Walk] = {}
        self._kept: list[s.Expr] = []
        self._shared: set[int] = set()  # parts at several places (`share`)
        deck = model.deck
        self.n_ranks = len(deck.ranks)
        self.faces: Sequence[int] = (
            faces if faces is not None else range(len(deck.suits) * self.n_ranks)
        )
        self._first_card: dict[int, int] | None = None  # a face -> its first card
        self.ranks = {r.symbol: i for i, r in enumerate(deck.ranks)}
        self.suits = {su.symbol: i for i, su in enumerate(deck.suits)}
        self.suits.update({su.name: i for i, su in enumerate(deck.suits)})
        self.cards = {  # a card's text -> its face
            r.symbol + su.symbol: si * self.n_ranks + ri
            for si, su in enumerate(deck.suits)
            for ri, r in enumerate(deck.ranks)
        }

    def reads_table(self, expr: s.Expr) -> bool:
        """Whether `expr` reads other players' names (an aggregate such as `sum_all`): only
        then are their environments made for it."""
        known = self._reads_table.get(id(expr))
        if known is None:
            known = bool(set(AGGREGATES) & set(calls_in(expr)))
            self._reads_table[id(expr)] = known
            self._kept.append(expr)  # the id stays this expression's
        return known

    def rank(self, card: int) -> int:
        """A card's rank index (0 is the highest)."""
        return self.faces[card] % self.n_ranks

    def suit(self, card: int) -> int:
        """A card's suit index."""
        return self.faces[card] // self.n_ranks

    def face(self, card: int) -> int:
        """A card's face: its rank of its suit (the copies of a card share it)."""
        return self.faces[card]

    def first_card(self, face: int) -> int:
        """The first card of a face; -1 when the deck leaves the face out (`without`)."""
        if self._first_card is None:
            self._first_card = {}
            for card, f in enumerate(self.faces):
                self._first_card.setdefault(f, card)
        return self._first_card.get(face, -1)

    def first_copy(self, card: int) -> int:
        """The first card of `card`'s face: a meld names first cards, and holding any copy
        of a card (`deck { copies: N }`) is holding it."""
        return self.first_card(self.faces[card])

    def copies_in(self, face: int, cards: Iterable[int]) -> int:
        """How many of `cards` are copies of `face`."""
        faces = self.faces
        return sum(1 for c in cards if faces[c] == face)

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
        """The face a card text (rank symbol, then suit symbol: QS, 10H) names."""
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

    def share(self, exprs: Iterable[s.Expr]) -> None:
        """Note the parts that stand at more than one place of these expressions (a define
        written into several rules is one tree): where an environment carries a SHARED
        memo, each such part is worked out once for it (and the card in question)."""
        seen: set[int] = set()
        stack = list(exprs)
        while stack:
            e = stack.pop()
            if isinstance(e, (s.Name, s.Number, s.String)):
                continue
            if id(e) in seen:
                self._shared.add(id(e))
                self._kept.append(e)  # the id stays this expression's
                continue
            seen.add(id(e))
            stack += _parts(e)

    def _walker(self, e: s.Expr) -> _Walk:
        """`_plain_walker`, and for a part that stands at several places, remembered in the
        environment's SHARED memo (when it has one)."""
        fn = self._plain_walker(e)
        if id(e) not in self._shared:
            return fn
        key = id(e)

        def remembered(env: Mapping[str, Any], hand: Sequence[int], q: str, card: int) -> Any:
            memo = env.get(SHARED)
            if memo is None:
                return fn(env, hand, q, card)
            found = memo.get((key, card), memo)
            if found is memo:
                found = memo[(key, card)] = fn(env, hand, q, card)
            return found

        return remembered

    def _plain_walker(self, e: s.Expr) -> _Walk:
        """The expression as nested functions of (env, hand, qualifier, card): its syntax
        tree walked once, here, instead of at every evaluation (each node becomes a small
        function of its children; a function call is `_call` on its syntax node)."""
        kind = type(e)
        if kind is s.Name:
            name = e.name  # type: ignore[union-attr]
            if name in BOOL_WORDS:
                word = BOOL_WORDS[name]
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
        if f in ("other_rank", "other_suit", "other_is"):  # `beats`: the card it meets
            word = self._symbol(e.args[0])
            other = env[OTHER]
            if f == "other_rank":
                return self.rank(other) == self.ranks[word]
            if f == "other_suit":
                return self.suit(other) == self.suits[word]
            return self.faces[other] == self.card_of(word)
        if f in ("card_rank", "card_suit", "card_is"):
            word = self._symbol(e.args[0])
            if f == "card_rank":
                return self.rank(card) == self.ranks[word]
            if f == "card_suit":
                return self.suit(card) == self.suits[word]
            return self.faces[card] == self.card_of(word)
        if f in _CARD_COUNTS:  # the same for every card in question: worked out once
            memo = env.get(MEMO)
            key = (f, self._symbol(e.args[0]))
            if memo is not None and key in memo:
                return memo[key]
            value = self._count(f, key[1], env, hand)
            if memo is not None:
                memo[key] = value
            return value
        if f == "turnup_rank":  # the turned-up card lies there and has rank R
            turnup = env.get(TURNUP, -1)
            return turnup >= 0 and self.rank(turnup) == self.ranks[self._symbol(e.args[0])]
        if f == "trump_is":  # the suit S is trump now
            return env.get(TRUMP, -1) == self.suits[self._symbol(e.args[0])]
        if f == "holds_trump":  # the card of rank R of the trump suit is in the hand
            trump = env.get(TRUMP, -1)
            rank = self.ranks[self._symbol(e.args[0])]
            return trump >= 0 and self.copies_in(trump * self.n_ranks + rank, hand) > 0
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
        if f == "nth_combination":  # the k-th strongest of his combinations, 0 past the last
            k = self._eval(e.args[0], env, hand, q, card)
            strengths = sorted(env[COMBINATIONS], reverse=True)
            return strengths[k - 1] if 0 < k <= len(strengths) else 0
        if f in TRICK_FUNCTIONS:
            return self._in_trick(f, self.card_of(self._symbol(e.args[0])), env[TRICK])
        if f in OVER_TRICKS:  # x (or b) over each finished trick, as the player reads it
            each = [self._eval(e.args[0], t, (), q, -1) for t in env[TRICKS]]
            return sum(1 for v in each if v) if f == "count_tricks" else sum(each)
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
        if f == "holds":  # one copy at least
            return self.copies_in(self.card_of(word), hand) > 0
        if f == "count_card":
            return self.copies_in(self.card_of(word), hand)
        if f == "times_led":  # finished tricks led with a card of that suit, no trump
            return sum(1 for led in env[LED] if led == self.suits[word])
        if f == "led_suit":  # the trick in progress, led with a card of that suit, no trump
            return env[LEADING] == self.suits[word]
        cards = env[PLAYED if f.startswith("played") else TAKEN]
        if f.endswith("_card"):
            return self.copies_in(self.card_of(word), cards) > 0
        su = self.suits[word]
        return sum(1 for c in cards if self.suit(c) == su)

    def _in_trick(self, f: str, face: int, trick: Any) -> Any:
        """in_trick (copies of the card in the trick), winning_card_is (the card that won
        it), played_to_trick (the player played it), opponents_played (copies of it played
        by players not of his side) over one finished trick."""
        cards, winner, seat, side = trick
        if f == "in_trick":
            return self.copies_in(face, (c for _, c in cards))
        if f == "winning_card_is":
            return any(s == winner and self.faces[c] == face for s, c in cards if winner >= 0)
        if f == "played_to_trick":
            return self.copies_in(face, (c for s, c in cards if s == seat)) > 0
        return self.copies_in(face, (c for s, c in cards if s >= 0 and s not in side))


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
    "count_card",
    "times_led",
    "led_suit",
    "played_suit",
    "played_card",
    "taken_suit",
    "taken_card",
)


def _parts(e: s.Expr) -> list[s.Expr]:
    """The expressions directly inside `e`."""
    if isinstance(e, s.Unary):
        return [e.operand]
    if isinstance(e, s.Binary):
        return [e.left, e.right]
    if isinstance(e, s.Cond):
        return [e.test, e.then, e.other]
    if isinstance(e, s.Call):
        return list(e.args)
    return []


def calls_in(expr: s.Expr) -> Iterable[str]:
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
