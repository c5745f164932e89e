"""The expression language: type checking and compilation to Python functions.

An expression is checked against a *scope*, the game quantities that exist where it is
used (a bid cap sees the bidder's hand, a scoring rule sees the deal's result), and
compiled into one Python function that takes an environment dict.

The function is generated as Python source (one function per expression: far quicker than
a tree of closures). Nothing of the rules file's text goes into that source: it is built
only from operators, the keywords `and or not if else True False`, whole numbers the
compiler wrote with `int`, the parameter `env`, and names `K0`, `K1`, ... that the
compiler made up; the names a rule reads and the helper functions it calls are values
bound to those `K` names, never text in the source (see `generated_source_ok`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from . import syntax as s
from .errors import Location, RulesError
from .hints import card_hint, did_you_mean

INT = "int"
BOOL = "bool"
Env = dict[str, Any]
Fn = Callable[[Env], Any]

# Keys of the environment that functions read; never names a rules file can write.
HAND_KEY = "\x00hand"
QUALIFIER_KEY = "\x00qualifier"
CARD_KEY = "\x00card"
PLAYED_KEY = "\x00played"  # cards in the deal's finished tricks
TAKEN_KEY = "\x00taken"  # cards in the tricks the player won
TABLE_KEY = "\x00table"  # every player's environment (scoring aggregates)
SIDE_KEY = "\x00side"  # the environments of the player's side, himself included
TRUMP_KEY = "\x00trump"  # the trump suit in force (-1: none)
TURNUP_KEY = "\x00turnup"  # the turned-up card while it lies there (-1: none)
SEATS_KEY = "\x00seats"  # every seated player's environment, by seat (`seat_left`)
SEAT_KEY = "\x00seat"  # the player's own seat (`seat_left`)
NAMED_KEY = "\x00named"  # the strains the player named in his bids (`named_strain`)
LED_KEY = "\x00led"  # the effective suit led to each finished trick (`times_led`)
LEADING_KEY = "\x00leading"  # the effective suit led to the trick in progress (`led_suit`)
# a finished trick (`after_trick`, and each trick of `sum_tricks`): its cards, the player's
# own card(s) in it, his opponents' cards in it, and the card that won it
TRICK_CARDS_KEY = "\x00trick_cards"
OWN_TRICK_KEY = "\x00own_trick"
OPPONENTS_TRICK_KEY = "\x00opponents_trick"
WINNING_KEY = "\x00winning"
# ... the trump in force when it was won, and the function giving the points of the
# combinations (`combination` blocks) among cards under a trump (`trick_combination_points`)
TRICK_TRUMP_KEY = "\x00trick_trump"
TRICK_COMBINATIONS_KEY = "\x00trick_combinations"
TRICKS_KEY = "\x00tricks"  # the finished tricks' environments, for `sum_tricks`
OTHER_KEY = "\x00other"  # the other card of two met (`play.beats`, `bouts.beats`)
# the strengths of the player's combinations, strongest first (`nth_combination`)
COMBINATIONS_KEY = "\x00combinations"
MAX_DEPTH = 100

BOOL_WORDS = {"yes": True, "true": True, "no": False, "false": False}


@attrs.frozen
class CompiledExpr:
    """A checked, compiled expression with its source text (for summaries) and type, and
    where it is written (for the errors it may give as it is worked out in play)."""

    text: str
    type: str
    fn: Fn = attrs.field(eq=False, repr=False)
    source: str = attrs.field(default="", eq=False, repr=False)  # the generated Python
    loc: Location | None = attrs.field(default=None, eq=False, repr=False)

    def __call__(self, env: Env) -> Any:
        return self.fn(env)


# Generated source: how deep an expression may nest before a part becomes a function of its
# own (Python's parser has a limit on nested parentheses).
_PART_DEPTH = 12
_SAFE_TOKEN = re.compile(
    r"\s+|K\d+\b|env\b|and\b|or\b|not\b|if\b|else\b|True\b|False\b|\d+\b"
    r"|<=|>=|==|!=|[-+*<>(),\[\]]"
)


# the whole source as safe tokens, each taken as the first alternative that matches it (an
# atomic group: no other way of splitting the text into tokens is tried)
_SAFE_SOURCE = re.compile(rf"(?>{_SAFE_TOKEN.pattern})*")


def generated_source_ok(source: str) -> bool:
    """Whether a generated function's source holds only what the compiler itself writes:
    operators, the few keywords, whole numbers, `env` and `K` names (no text of a file)."""
    return _SAFE_SOURCE.fullmatch(source) is not None


class _Emitter:
    """Builds one generated function: its source, and the values bound to its K names."""

    def __init__(self) -> None:
        self.consts: list[Any] = []

    def const(self, value: Any) -> str:
        """A K name bound to `value` (a name read, a helper function)."""
        self.consts.append(value)
        return f"K{len(self.consts) - 1}"

    def call(self, fn: Fn) -> str:
        """The source calling a ready function of the environment."""
        return f"{self.const(fn)}(env)"

    def build(self, body: str) -> tuple[Fn, str]:
        """The function `env -> body`, and its whole source."""
        params = ", ".join(f"K{i}" for i in range(len(self.consts)))
        source = f"def make({params}):\n def f(env):\n  return {body}\n return f\n"
        make = _MAKERS.get(source)
        if make is None:
            if not generated_source_ok(body):  # never: every piece comes from this module
                raise AssertionError(f"generated source holds something else: {body!r}")
            namespace: dict[str, Any] = {}
            exec(compile(source, "<trickcore rules>", "exec"), {"__builtins__": {}}, namespace)
            make = namespace["make"]
            if len(_MAKERS) < _MAX_MAKERS:
                _MAKERS[source] = make
        return make(*self.consts), source


# Generated makers by source: many expressions share a shape (`env[K0] >= 4`), and a
# source holds nothing but compiler-made text, so one maker serves them all.
_MAKERS: dict[str, Callable[..., Fn]] = {}
_MAX_MAKERS = 20_000


@attrs.frozen
class Symbols:
    """Names an expression may use as arguments: ranks, suits and bid qualifiers."""

    ranks: Mapping[str, int]
    suits: Mapping[str, int]
    qualifiers: Sequence[str]
    rank_of_card: Sequence[int]
    suit_of_card: Sequence[int]
    # card text -> its face (a rank of a suit: `Deck`), for the faces the deck holds
    cards: Mapping[str, int] = attrs.field(factory=dict)
    strains: Sequence[str] = ()  # the bidding's strains, low to high (`strains:`)
    # the face of each card and the cards of each face; empty when every face is one card
    # whose number is the face's (a plain deck)
    face_of_card: Sequence[int] = ()
    cards_of_face: Sequence[Sequence[int]] = ()

    def copies(self, face: int) -> frozenset[int]:
        """The cards of a face (one card, the face's number, in a plain deck)."""
        if not self.cards_of_face:
            return frozenset((face,))
        return frozenset(self.cards_of_face[face])


def _round_half_up(x: int, m: int) -> int:
    return ((2 * x + m) // (2 * m)) * m


def _floor_to(x: int, m: int) -> int:
    return (x // m) * m


def _ceil_to(x: int, m: int) -> int:
    return -((-x) // m) * m


def _mod(x: int, m: int) -> int:
    return x % m


def _div(x: int, m: int) -> int:
    return x // m


def _checked_division(
    impl: Callable[[int, int], int], func: str, loc: Location | None
) -> Callable[[int, int], int]:
    """`impl`, div(x, m) or mod(x, m), for an m worked out in play: an m of 0 or less is an
    error of the rules at the call's place `loc`, raised as the call is worked out."""

    def divide(x: int, m: int) -> int:
        if m <= 0:
            raise RulesError(f"{func}({x}, {m}): the divisor must be above 0", loc)
        return impl(x, m)

    return divide


def _pick(i: int, *values: int) -> int:
    return values[min(max(i, 0), len(values) - 1)]


_NUMERIC_FUNCS: dict[str, tuple[int, int, Callable[..., int], str]] = {
    # name: (min args, max args, implementation, help)
    "round": (2, 2, _round_half_up, "round(x, m): x to the nearest multiple of m, halves up"),
    "floor": (2, 2, _floor_to, "floor(x, m): x down to a multiple of m"),
    "ceil": (2, 2, _ceil_to, "ceil(x, m): x up to a multiple of m"),
    "mod": (2, 2, _mod, "mod(x, m): the remainder of x divided by m (0 to m - 1)"),
    "div": (2, 2, _div, "div(x, m): x divided by m, rounded down"),
    "pick": (
        2,
        17,
        _pick,
        "pick(i, a0, a1, ...): the value at index i from 0 (below 0 the first, past the end "
        "the last)",
    ),
    "min": (1, 16, min, "min(a, b, ...): the smallest"),
    "max": (1, 16, max, "max(a, b, ...): the largest"),
    "abs": (1, 1, abs, "abs(x): x without its sign"),
}

HAND_FUNCS = {
    "count_rank": "count_rank(R): cards of rank R in the hand",
    "count_suit": "count_suit(S): cards of suit S in the hand",
    "holds": "holds(C): the hand holds card C (e.g. AH; with copies: one of them at least)",
    "count_card": "count_card(C): copies of card C in the hand (with `copies: 2`: 0, 1 or 2)",
}
QUALIFIER_FUNCS = {
    "bid_is": "bid_is(Q): the winning bid carries qualifier Q (e.g. ohne)",
    "strain_is": "strain_is(S): the winning bid names strain S (e.g. notrump)",
}
CARD_FUNCS = {
    "card_rank": "card_rank(R): the card in question has rank R",
    "card_suit": "card_suit(S): the card in question has suit S",
    "card_is": "card_is(C): the card in question is card C (e.g. QS)",
}
OTHER_FUNCS = {
    "other_rank": "other_rank(R): the other card (in `beats`) has rank R",
    "other_suit": "other_suit(S): the other card (in `beats`) has suit S",
    "other_is": "other_is(C): the other card (in `beats`) is card C",
}
TRUMP_FUNCS = {
    "holds_trump": "holds_trump(R): the hand holds the card of rank R of the trump suit",
    "trump_is": "trump_is(S): the suit S is trump now",
}
TURNUP_FUNCS = {
    "turnup_rank": "turnup_rank(R): the turned-up card, while it lies there, has rank R",
}
PLAYED_FUNCS = {
    "played_suit": "played_suit(S): cards of suit S in the deal's finished tricks",
    "played_card": "played_card(C): card C is in one of the deal's finished tricks",
}
LED_FUNCS = {
    "times_led": "times_led(S): finished tricks of the deal led with a card of suit S that is "
    "no trump",
    "led_suit": "led_suit(S): the trick in progress was led with a card of suit S that is no trump",
}
TAKEN_FUNCS = {
    "taken_suit": "taken_suit(S): cards of suit S in the tricks the player won",
    "taken_card": "taken_card(C): card C is in a trick the player won",
}
TRICK_FUNCS = {
    "in_trick": "in_trick(C): copies of card C in the trick",
    "winning_card_is": "winning_card_is(C): the card that won the trick is C",
    "played_to_trick": "played_to_trick(C): the player played card C to the trick",
    "opponents_played": "opponents_played(C): copies of card C his opponents (the players not "
    "of his side) played to the trick",
}
TRICKS_AGGREGATES = {
    "sum_tricks": "sum_tricks(x): x, an expression over the names of a finished trick, summed "
    "over the deal's finished tricks",
    "count_tricks": "count_tricks(b): the deal's finished tricks for which b, an expression over "
    "the names of a finished trick, holds",
}
NAMED_FUNCS = {
    "named_strain": "named_strain(S): the player named strain S in a bid of this auction",
}
COMBINATION_FUNCS = {
    "nth_combination": "nth_combination(k): the `strength` of the player's k-th strongest "
    "combination (1: his best, `best_combination`; 0 when he holds fewer than k); readable "
    "where `best_combination` is",
}
SEAT_FUNCS = {
    "seat_left": "seat_left(k, x): x of the player k seats to his left (every seated "
    "player counts, one sitting the deal out too; k is taken modulo the seats)",
}
AGGREGATE_FUNCS = {
    "sum_all": "sum_all(x): x summed over the players of the deal",
    "max_all": "max_all(x): the largest x of the players of the deal",
    "min_all": "min_all(x): the smallest x of the players of the deal",
    "count_all": "count_all(b): players of the deal for whom b holds",
    "sum_side": "sum_side(x): x summed over the player's side (himself included)",
    "count_side": "count_side(b): players of the player's side for whom b holds",
}


@attrs.define
class Scope:
    """The names an expression may use here, with their types."""

    names: dict[str, str]
    symbols: Symbols
    hand: bool = False
    qualifier: bool = False
    where: str = "here"
    card: bool = False
    played: bool = False  # played_suit / played_card: the deal's finished tricks are known
    taken: bool = False  # taken_suit / taken_card: the player's won tricks are known
    aggregates: bool = False  # sum_all, count_side, ...: every player's result is known
    seats: bool = False  # seat_left(k, x): every seated player's result is known
    named: bool = False  # named_strain(S): the player's bids in the auction are known
    trump: bool = False  # holds_trump: the hand and the trump suit are known
    led: bool = False  # times_led: the suits led to the deal's finished tricks are known
    leading: bool = False  # led_suit: a trick is in progress
    other: bool = False  # other_rank, other_suit, other_is: two cards met (`beats`)
    trick: bool = False  # in_trick, winning_card_is, played_to_trick: a finished trick
    opponents: bool = False  # opponents_played: a finished trick and the player's side
    # sum_tricks / count_tricks: the scope of each finished trick (None: not here)
    tricks: Scope | None = None

    def with_names(self, extra: Mapping[str, str]) -> Scope:
        """A copy with more names."""
        return attrs.evolve(self, names={**self.names, **extra})


def compile_expr(expr: s.Expr, scope: Scope, want: str | None = None) -> CompiledExpr:
    """Type-check `expr` in `scope` and compile it; raise RulesError at the offending place."""
    if _depth(expr) > MAX_DEPTH:
        raise RulesError(f"this expression nests more than {MAX_DEPTH} deep", _loc(expr))
    typ, fn, source = _function(expr, scope)
    if want is not None and typ != want:
        raise RulesError(
            f"this expression is {_type_word(typ)} but {_type_word(want)} is needed",
            _loc(expr),
        )
    return CompiledExpr(s.expr_text(expr), typ, fn, source, _loc(expr))


def _function(expr: s.Expr, scope: Scope) -> tuple[str, Fn, str]:
    """Type-check `expr` and generate its function: (type, function, source)."""
    em = _Emitter()
    typ, body = _compile(expr, scope, em, 0)
    fn, source = em.build(body)
    return typ, fn, source


def _depth(expr: s.Expr) -> int:
    """Nesting depth, counted without recursion (expressions come from untrusted files)."""
    deepest = 0
    stack: list[tuple[s.Expr, int]] = [(expr, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > MAX_DEPTH:
            return deepest
        if isinstance(node, s.Unary):
            stack.append((node.operand, d + 1))
        elif isinstance(node, s.Binary):
            stack.extend([(node.left, d + 1), (node.right, d + 1)])
        elif isinstance(node, s.Cond):
            stack.extend([(node.test, d + 1), (node.then, d + 1), (node.other, d + 1)])
        elif isinstance(node, s.Call):
            stack.extend((a, d + 1) for a in node.args)
    return deepest


def _type_word(t: str) -> str:
    return "a number" if t == INT else "a yes/no condition"


def _loc(expr: s.Expr) -> Any:
    return expr.loc


def _expect(expr: s.Expr, scope: Scope, want: str, what: str, em: _Emitter, depth: int) -> str:
    typ, src = _compile(expr, scope, em, depth)
    if typ != want:
        raise RulesError(f"{what} must be {_type_word(want)}, not {_type_word(typ)}", _loc(expr))
    return src


def _compile(expr: s.Expr, scope: Scope, em: _Emitter, depth: int) -> tuple[str, str]:
    """(type, source) of an expression inside the function `em` builds."""
    if depth >= _PART_DEPTH and isinstance(expr, (s.Unary, s.Binary, s.Cond, s.Call)):
        typ, fn, _ = _function(expr, scope)  # deep: a function of its own
        return typ, em.call(fn)
    depth += 1
    if isinstance(expr, s.Number):
        return INT, f"({int(expr.value)})"
    if isinstance(expr, s.String):
        raise RulesError(f'a string ("{expr.value}") cannot be used in an expression', expr.loc)
    if isinstance(expr, s.Name):
        return _compile_name(expr, scope, em)
    if isinstance(expr, s.Unary):
        if expr.op == "-":
            f = _expect(expr.operand, scope, INT, "the operand of '-'", em, depth)
            return INT, f"(-{f})"
        g = _expect(expr.operand, scope, BOOL, "the operand of 'not'", em, depth)
        return BOOL, f"(not {g})"
    if isinstance(expr, s.Binary):
        return _compile_binary(expr, scope, em, depth)
    if isinstance(expr, s.Cond):
        test = _expect(expr.test, scope, BOOL, "the condition after 'if'", em, depth)
        t1, a = _compile(expr.then, scope, em, depth)
        t2, b = _compile(expr.other, scope, em, depth)
        if t1 != t2:
            raise RulesError(
                f"'then' gives {_type_word(t1)} but 'else' gives {_type_word(t2)}", expr.loc
            )
        return t1, f"({a} if {test} else {b})"
    return _compile_call(expr, scope, em, depth)


def _compile_name(expr: s.Name, scope: Scope, em: _Emitter) -> tuple[str, str]:
    name = expr.name
    if name in BOOL_WORDS:
        return BOOL, "True" if BOOL_WORDS[name] else "False"
    if name in scope.names:
        if name in WHEN_READ:  # worked out from other names when read
            return scope.names[name], em.call(WHEN_READ[name])
        return scope.names[name], f"env[{em.const(name)}]"
    known = ", ".join(sorted(scope.names)) or "none"
    hint = did_you_mean(name, scope.names)
    raise RulesError(
        f"unknown name '{name}' {scope.where}{hint}; names available: {known}", expr.loc
    )


def _trick_combination_points(env: Env) -> int:
    """`trick_combination_points`: the combinations among a finished trick's cards."""
    points: int = env[TRICK_COMBINATIONS_KEY](env[TRICK_CARDS_KEY], env[TRICK_TRUMP_KEY])
    return points


# the names worked out from others only when an expression reads them
WHEN_READ: dict[str, Fn] = {"trick_combination_points": _trick_combination_points}

_ARITH = ("+", "-", "*")
_COMPARE = ("<", "<=", ">", ">=", "==", "!=")


def _compile_binary(expr: s.Binary, scope: Scope, em: _Emitter, depth: int) -> tuple[str, str]:
    op = expr.op
    if op in ("and", "or"):
        a = _expect(expr.left, scope, BOOL, f"the left side of '{op}'", em, depth)
        b = _expect(expr.right, scope, BOOL, f"the right side of '{op}'", em, depth)
        return BOOL, f"(True if ({a} {op} {b}) else False)"
    if op in _ARITH:
        a = _expect(expr.left, scope, INT, f"the left side of '{op}'", em, depth)
        b = _expect(expr.right, scope, INT, f"the right side of '{op}'", em, depth)
        return INT, f"({a} {op} {b})"
    if op not in _COMPARE:
        raise RulesError(f"unknown operator '{op}'", expr.loc)
    ta, a = _compile(expr.left, scope, em, depth)
    tb, b = _compile(expr.right, scope, em, depth)
    if ta != tb:
        raise RulesError(f"'{op}' compares {_type_word(ta)} with {_type_word(tb)}", expr.loc)
    if ta == BOOL and op not in ("==", "!="):
        raise RulesError(f"'{op}' needs numbers, not yes/no conditions", expr.loc)
    return BOOL, f"({a} {op} {b})"


def _symbol_arg(arg: s.Expr, table: Mapping[str, int], kind: str) -> int:
    text = (
        arg.name
        if isinstance(arg, s.Name)
        else str(arg.value)
        if isinstance(arg, (s.Number, s.String))
        else None
    )
    if text is None or text not in table:
        known = ", ".join(table) or "none"
        hint = did_you_mean(text, table) if text is not None else ""
        raise RulesError(f"expected a {kind} here{hint} ({known})", _loc(arg))
    return table[text]


def _card_arg(arg: s.Expr, sym: Symbols) -> int:
    """A card argument (its text, e.g. QS or 10H) as its face (see `Symbols.cards`)."""
    text = (
        arg.name
        if isinstance(arg, s.Name)
        else str(arg.value)
        if isinstance(arg, s.String)
        else None
    )
    if text is None or text not in sym.cards:
        some = ", ".join(list(sym.cards)[:3])
        raise RulesError(
            f"expected a card here, written like {some}{card_hint(text, sym.cards)}", _loc(arg)
        )
    return sym.cards[text]


def _suit_or_card(func: str, args: Sequence[s.Expr], sym: Symbols, key: str) -> tuple[str, Fn]:
    """played_suit / taken_suit (a count) and played_card / taken_card (yes/no) over the
    cards under `key` in the environment."""
    if func.endswith("_card"):
        face = _card_arg(args[0], sym)
        if not sym.cards_of_face:
            return BOOL, lambda env: face in env[key]
        copies = sym.copies(face)
        return BOOL, lambda env: not copies.isdisjoint(env[key])
    suit = _symbol_arg(args[0], sym.suits, "suit")
    of = sym.suit_of_card

    def of_suit(env: Env) -> int:
        n = 0
        for c in env[key]:
            if of[c] == suit:
                n += 1
        return n

    return INT, of_suit


def _aggregate(func: str, arg: s.Expr, scope: Scope) -> tuple[str, Fn]:
    """sum_all(x), max_all(x), ...: a name read in every player's environment."""
    known = ", ".join(sorted(scope.names))
    if isinstance(arg, s.Name) and arg.name not in scope.names:
        hint = did_you_mean(arg.name, scope.names)
        raise RulesError(
            f"unknown name '{arg.name}' in {func}() {scope.where}{hint}; names available: {known}",
            arg.loc,
        )
    if not isinstance(arg, s.Name):
        raise RulesError(f"{func}() takes the name of a quantity or definition ({known})", arg.loc)
    name = arg.name
    want = BOOL if func.startswith("count") else INT
    if scope.names[name] != want:
        raise RulesError(f"{AGGREGATE_FUNCS[func]}: '{name}' is not {_type_word(want)}", arg.loc)
    key = SIDE_KEY if func.endswith("_side") else TABLE_KEY
    # (plain loops: they run for every player at every turn that reads them)
    if func.startswith("count"):

        def count(env: Env) -> int:
            n = 0
            for e in env[key]:
                if e[name]:
                    n += 1
            return n

        return INT, count
    if func.startswith("sum"):

        def total(env: Env) -> int:
            n = 0
            for e in env[key]:
                n += e[name]
            return n

        return INT, total
    if func.startswith("max"):
        return INT, lambda env: max([e[name] for e in env[key]])
    return INT, lambda env: min([e[name] for e in env[key]])


def _nth_combination(k: Fn) -> Fn:
    """nth_combination(k): the k-th of the player's combinations' strengths, strongest
    first (0 past the last, or for k below 1)."""

    def fn(env: Env) -> int:
        strengths = env[COMBINATIONS_KEY]
        i = k(env)
        return strengths[i - 1] if 1 <= i <= len(strengths) else 0

    return fn


def _seat_left(k_arg: s.Expr, arg: s.Expr, scope: Scope) -> tuple[str, Fn]:
    """seat_left(k, x): a name read in the environment of the player k seats to the left."""
    if not isinstance(arg, s.Name) or arg.name not in scope.names:
        known = ", ".join(sorted(scope.names))
        raise RulesError(
            f"seat_left() takes the name of a quantity or definition second ({known})", arg.loc
        )
    name = arg.name
    typ = scope.names[name]
    k = compile_expr(k_arg, scope, INT)

    def fn(env: Env) -> Any:
        seats = env[SEATS_KEY]
        return seats[(env[SEAT_KEY] + k(env)) % len(seats)][name]

    return typ, fn


def _rank_or_suit(arg: s.Expr, sym: Symbols, rank: bool) -> tuple[int, Sequence[int]]:
    """A rank (or suit) argument, and the table giving each card's rank (or suit)."""
    if rank:
        return _symbol_arg(arg, sym.ranks, "rank"), sym.rank_of_card
    return _symbol_arg(arg, sym.suits, "suit"), sym.suit_of_card


def _compile_call(expr: s.Call, scope: Scope, em: _Emitter, depth: int) -> tuple[str, str]:
    """(type, source) of a function call: numeric functions call their implementation on
    the generated arguments; the others are ready functions of the environment."""
    func = expr.func
    args = expr.args
    if func in _NUMERIC_FUNCS:
        lo, hi, impl, help_text = _NUMERIC_FUNCS[func]
        if not lo <= len(args) <= hi:
            raise RulesError(f"wrong number of arguments: {help_text}", expr.loc)
        srcs = [_expect(a, scope, INT, f"an argument of {func}()", em, depth) for a in args]
        if func in ("round", "floor", "ceil", "mod", "div"):
            m = args[1]
            if (func == "div" and not isinstance(m, s.Number)) or (
                func == "mod" and not isinstance(m, (s.Number, s.Unary))
            ):
                impl = _checked_division(impl, func, expr.loc)  # checked as worked out
            elif not isinstance(m, s.Number) or m.value <= 0:
                raise RulesError(f"the step of {func}() must be a positive number", _loc(m))
        return INT, f"{em.const(impl)}({', '.join(srcs)})"
    typ, fn = _call_function(expr, scope)
    return typ, em.call(fn)


def _call_function(expr: s.Call, scope: Scope) -> tuple[str, Fn]:
    """A call other than a numeric function, as a function of the environment."""
    func = expr.func
    args = expr.args
    if func in HAND_FUNCS:
        if not scope.hand:
            raise RulesError(f"{func}() needs a hand, and there is none {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {HAND_FUNCS[func]}", expr.loc)
        if func in ("holds", "count_card"):
            face = _card_arg(args[0], scope.symbols)
            if func == "count_card":
                copies = scope.symbols.copies(face)
                return INT, lambda env: len(copies.intersection(env[HAND_KEY]))
            if not scope.symbols.cards_of_face:
                return BOOL, lambda env: face in env[HAND_KEY]
            held = scope.symbols.copies(face)
            return BOOL, lambda env: not held.isdisjoint(env[HAND_KEY])
        r, of = _rank_or_suit(args[0], scope.symbols, func == "count_rank")
        those = frozenset(c for c, x in enumerate(of) if x == r)  # the cards of that rank/suit
        return INT, lambda env: len(those.intersection(env[HAND_KEY]))
    if func in QUALIFIER_FUNCS:
        if not scope.qualifier:
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {QUALIFIER_FUNCS[func]}", expr.loc)
        if func == "strain_is":
            strains = {st: i for i, st in enumerate(scope.symbols.strains)}
            st = scope.symbols.strains[_symbol_arg(args[0], strains, "strain")]
            head = st + " "
            return BOOL, lambda env: env[QUALIFIER_KEY] == st or env[QUALIFIER_KEY].startswith(head)
        quals = {q: i for i, q in enumerate(scope.symbols.qualifiers)}
        q = scope.symbols.qualifiers[_symbol_arg(args[0], quals, "bid qualifier")]
        if scope.symbols.strains:  # the call "STRAIN Q": the qualifier is its last word
            tail = " " + q
            return BOOL, lambda env: env[QUALIFIER_KEY].endswith(tail)
        return BOOL, lambda env: env[QUALIFIER_KEY] == q
    if func in CARD_FUNCS:
        if not scope.card:
            raise RulesError(
                f"{func}() needs a card in question, and there is none {scope.where}", expr.loc
            )
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {CARD_FUNCS[func]}", expr.loc)
        if func == "card_is":
            face = _card_arg(args[0], scope.symbols)
            if not scope.symbols.face_of_card:
                return BOOL, lambda env: env[CARD_KEY] == face
            face_of = scope.symbols.face_of_card
            return BOOL, lambda env: face_of[env[CARD_KEY]] == face
        want, of = _rank_or_suit(args[0], scope.symbols, func == "card_rank")
        return BOOL, lambda env: of[env[CARD_KEY]] == want
    if func in OTHER_FUNCS:
        if not scope.other:
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {OTHER_FUNCS[func]}", expr.loc)
        if func == "other_is":
            face = _card_arg(args[0], scope.symbols)
            copies = scope.symbols.copies(face)
            return BOOL, lambda env: env[OTHER_KEY] in copies
        want, of = _rank_or_suit(args[0], scope.symbols, func == "other_rank")
        return BOOL, lambda env: of[env[OTHER_KEY]] == want
    if func in TRUMP_FUNCS:
        if not (scope.trump and scope.hand):
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {TRUMP_FUNCS[func]}", expr.loc)
        if func == "trump_is":
            suit = _symbol_arg(args[0], scope.symbols.suits, "suit")
            return BOOL, lambda env: env[TRUMP_KEY] == suit
        rank = _symbol_arg(args[0], scope.symbols.ranks, "rank")
        n_ranks = len(scope.symbols.ranks)
        if scope.symbols.cards_of_face:  # any copy of that face
            of_face = [frozenset(cs) for cs in scope.symbols.cards_of_face]

            def holds_trump(env: Env) -> bool:
                trump = env[TRUMP_KEY]
                return trump >= 0 and not of_face[trump * n_ranks + rank].isdisjoint(env[HAND_KEY])

            return BOOL, holds_trump
        return (
            BOOL,
            lambda env: env[TRUMP_KEY] >= 0 and env[TRUMP_KEY] * n_ranks + rank in env[HAND_KEY],
        )
    if func in TURNUP_FUNCS:
        if "turnup_suit" not in scope.names:  # read where the turned-up card's suit is
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {TURNUP_FUNCS[func]}", expr.loc)
        want, rank_of = _rank_or_suit(args[0], scope.symbols, True)
        return BOOL, lambda env: env[TURNUP_KEY] >= 0 and rank_of[env[TURNUP_KEY]] == want
    for table, allowed, key in (
        (PLAYED_FUNCS, scope.played, PLAYED_KEY),
        (TAKEN_FUNCS, scope.taken, TAKEN_KEY),
    ):
        if func in table:
            if not allowed:
                raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
            if len(args) != 1:
                raise RulesError(f"wrong number of arguments: {table[func]}", expr.loc)
            return _suit_or_card(func, args, scope.symbols, key)
    if func in LED_FUNCS:
        if not (scope.leading if func == "led_suit" else scope.led):
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {LED_FUNCS[func]}", expr.loc)
        suit = _symbol_arg(args[0], scope.symbols.suits, "suit")
        if func == "led_suit":
            return BOOL, lambda env: env[LEADING_KEY] == suit
        return INT, lambda env: env[LED_KEY].count(suit)
    if func in TRICK_FUNCS:
        allowed = scope.opponents if func == "opponents_played" else scope.trick
        if not allowed:
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {TRICK_FUNCS[func]}", expr.loc)
        copies = scope.symbols.copies(_card_arg(args[0], scope.symbols))
        if func == "winning_card_is":
            return BOOL, lambda env: env[WINNING_KEY] in copies
        key = {
            "in_trick": TRICK_CARDS_KEY,
            "played_to_trick": OWN_TRICK_KEY,
            "opponents_played": OPPONENTS_TRICK_KEY,
        }[func]
        if func == "played_to_trick":
            return BOOL, lambda env: not copies.isdisjoint(env[key])

        def copies_in(env: Env) -> int:
            n = 0
            for c in env[key]:
                if c in copies:
                    n += 1
            return n

        return INT, copies_in
    if func in TRICKS_AGGREGATES:
        inner = scope.tricks
        if inner is None:
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {TRICKS_AGGREGATES[func]}", expr.loc)
        typ = BOOL if func == "count_tricks" else INT
        each = compile_expr(args[0], inner, typ).fn
        if func == "count_tricks":

            def count_tricks(env: Env) -> int:
                n = 0
                for t in env[TRICKS_KEY]:
                    if each(t):
                        n += 1
                return n

            return INT, count_tricks

        def sum_tricks(env: Env) -> int:
            n = 0
            for t in env[TRICKS_KEY]:
                n += each(t)
            return n

        return INT, sum_tricks
    if func in NAMED_FUNCS:
        if not scope.named:
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {NAMED_FUNCS[func]}", expr.loc)
        strains = {st: i for i, st in enumerate(scope.symbols.strains)}
        named = scope.symbols.strains[_symbol_arg(args[0], strains, "strain")]
        return BOOL, lambda env: named in env[NAMED_KEY]
    if func in COMBINATION_FUNCS:
        if "best_combination" not in scope.names:
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {COMBINATION_FUNCS[func]}", expr.loc)
        return INT, _nth_combination(compile_expr(args[0], scope, INT).fn)
    if func in SEAT_FUNCS:
        if not scope.seats:
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 2:
            raise RulesError(f"wrong number of arguments: {SEAT_FUNCS[func]}", expr.loc)
        return _seat_left(args[0], args[1], scope)
    if func in AGGREGATE_FUNCS:
        if not scope.aggregates:
            raise RulesError(f"{func}() means nothing {scope.where}", expr.loc)
        if len(args) != 1:
            raise RulesError(f"wrong number of arguments: {AGGREGATE_FUNCS[func]}", expr.loc)
        return _aggregate(func, args[0], scope)
    known = ", ".join(sorted(ALL_FUNCS))
    hint = did_you_mean(func, ALL_FUNCS)
    raise RulesError(f"unknown function '{func}'{hint}; functions: {known}", expr.loc)


ALL_FUNCS = {
    **{k: v[3] for k, v in _NUMERIC_FUNCS.items()},
    **HAND_FUNCS,
    **QUALIFIER_FUNCS,
    **CARD_FUNCS,
    **OTHER_FUNCS,
    **TRUMP_FUNCS,
    **TURNUP_FUNCS,
    **PLAYED_FUNCS,
    **LED_FUNCS,
    **TAKEN_FUNCS,
    **TRICK_FUNCS,
    **TRICKS_AGGREGATES,
    **NAMED_FUNCS,
    **SEAT_FUNCS,
    **COMBINATION_FUNCS,
    **AGGREGATE_FUNCS,
}


def relation_env(
    card: int,
    face: int,
    n_ranks: int,
    trump: int,
    qualifier: str,
    options: Sequence[str],
    chosen: Sequence[str],
) -> Env:
    """The names `play.trump_power` and `play.power` read for one card (the `relation`
    place): its rank and suit (from its `face`), the trump suit in force, the qualifier, the
    options chosen."""
    return {
        CARD_KEY: card,
        QUALIFIER_KEY: qualifier,
        "rank_index": face % n_ranks,
        "suit_index": face // n_ranks,
        "card_in_trump_suit": face // n_ranks == trump,
        "trump_set": trump >= 0,
        **{option: option in chosen for option in options},
    }


def functions_used(expr: s.Expr) -> set[str]:
    """Every function an expression calls."""
    return {call.func for call in s.calls_in(expr)}


def names_used(expr: s.Expr) -> set[str]:
    """Every plain name an expression refers to (for ordering definitions)."""
    if isinstance(expr, s.Name):
        return {expr.name}
    if isinstance(expr, s.Unary):
        return names_used(expr.operand)
    if isinstance(expr, s.Binary):
        return names_used(expr.left) | names_used(expr.right)
    if isinstance(expr, s.Cond):
        return names_used(expr.test) | names_used(expr.then) | names_used(expr.other)
    if isinstance(expr, s.Call):
        out: set[str] = set()
        for a in expr.args:
            out |= names_used(a)
        return out
    return set()
