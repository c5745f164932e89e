"""Bounds on what one deal can change a seat's standing by, from the rules file: interval
arithmetic over the compiled scoring, after-deal and ranking expressions.

Each expression is read again from its text and worked out over intervals: a number is a
pair (least, greatest), a condition a pair within (0, 1). The names a deal's scoring reads
are bounded by the deck and the table (a seat's card points between the sums of the deck's
negative and positive card points, tricks and counts of cards by the deck's size, the seats,
the deal number of the first deal); the definitions of the scoring rule are bounded in their
order; a name or a function the analysis does not know is any number the engine allows
(±MAX_VALUE: a match stops rather than go beyond it). The result is sound, not always tight.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import attrs

from ..engine.game import Game
from ..language import syntax as s
from ..language.exprs import CompiledExpr
from ..language.limits import MAX_VALUE
from ..language.model import StepRule
from ..language.parser import parse_text

Interval = tuple[int, int]
ANY: Interval = (-MAX_VALUE, MAX_VALUE)
BOOL: Interval = (0, 1)
# not names a rules file can write: how many tricks a deal has, how many cards a trick
TRICKS = "\x00tricks"
TRICK_SIZE = "\x00trick_size"


def _clamp(iv: Interval) -> Interval:
    return max(iv[0], -MAX_VALUE), min(iv[1], MAX_VALUE)


def _hull(a: Interval, b: Interval) -> Interval:
    return min(a[0], b[0]), max(a[1], b[1])


def _parse(expr: CompiledExpr) -> s.Expr | None:
    """The expression of a compiled one, read again from its text (None: not readable)."""
    try:
        doc = parse_text(f"scoring {{\n  x = {expr.text}\n}}\n", "<bounds>")
        block = doc.statements[0]
        assert isinstance(block, s.Block)
        setting = block.body[0]
        assert isinstance(setting, s.ExprSetting)
        return setting.expr
    except Exception:  # a text the analysis cannot read: no bound from it
        return None


def bound(expr: CompiledExpr | None, names: Mapping[str, Interval], seats: int) -> Interval:
    """The interval of a compiled expression's values over `names` (a name not given: any
    number); (0, 1) bounds a condition."""
    if expr is None:
        return ANY
    tree = _parse(expr)
    if tree is None:
        return BOOL if expr.type == "bool" else ANY
    lo, hi = _Bounds(names, seats).of(tree)
    return (lo, hi) if expr.type != "bool" else (max(0, lo), min(1, hi))


class _Bounds:
    """Interval evaluation of an expression tree."""

    def __init__(self, names: Mapping[str, Interval], seats: int) -> None:
        self.names = names
        self.seats = seats

    def of(self, e: s.Expr, depth: int = 0) -> Interval:
        """The expression's interval (clamped to what the engine allows)."""
        if depth > 200:
            return ANY
        return _clamp(self._of(e, depth + 1))

    def _of(self, e: s.Expr, d: int) -> Interval:
        if isinstance(e, s.Number):
            v = int(e.value)
            return v, v
        if isinstance(e, s.Name):
            if e.name in ("yes", "true"):
                return 1, 1
            if e.name in ("no", "false"):
                return 0, 0
            return self.names.get(e.name, ANY)
        if isinstance(e, s.Unary):
            lo, hi = self.of(e.operand, d)
            if e.op == "-":
                return -hi, -lo
            return 1 - min(1, hi), 1 - max(0, lo)  # not
        if isinstance(e, s.Binary):
            return self._binary(e, d)
        if isinstance(e, s.Cond):
            lo, hi = self.of(e.test, d)
            if lo >= 1 or hi <= -1:  # surely true (a condition is 0 or 1)
                return self.of(e.then, d)
            if lo == hi == 0:
                return self.of(e.other, d)
            return _hull(self.of(e.then, d), self.of(e.other, d))
        if isinstance(e, s.Call):
            return self._call(e, d)
        return ANY

    def _binary(self, e: s.Binary, d: int) -> Interval:
        a, b = self.of(e.left, d), self.of(e.right, d)
        op = e.op
        if op == "+":
            return a[0] + b[0], a[1] + b[1]
        if op == "-":
            return a[0] - b[1], a[1] - b[0]
        if op == "*":
            products = [x * y for x in a for y in b]
            return min(products), max(products)
        if op in ("and", "or"):
            a, b = (max(0, a[0]), min(1, a[1])), (max(0, b[0]), min(1, b[1]))
            if op == "and":
                return min(a[0], b[0]), min(a[1], b[1])
            return max(a[0], b[0]), max(a[1], b[1])
        sure = {
            "<": (a[1] < b[0], a[0] >= b[1]),
            "<=": (a[1] <= b[0], a[0] > b[1]),
            ">": (a[0] > b[1], a[1] <= b[0]),
            ">=": (a[0] >= b[1], a[1] < b[0]),
            "==": (a[0] == a[1] == b[0] == b[1], a[1] < b[0] or b[1] < a[0]),
            "!=": (a[1] < b[0] or b[1] < a[0], a[0] == a[1] == b[0] == b[1]),
        }.get(op)
        if sure is None:
            return ANY
        true, false = sure
        return (1, 1) if true else (0, 0) if false else BOOL

    def _call(self, e: s.Call, d: int) -> Interval:
        func, args = e.func, e.args
        size = self.seats
        if func in ("min", "max") and args:
            ivs = [self.of(a, d) for a in args]
            pick = min if func == "min" else max
            return pick(iv[0] for iv in ivs), pick(iv[1] for iv in ivs)
        if func == "abs" and len(args) == 1:
            lo, hi = self.of(args[0], d)
            if lo >= 0:
                return lo, hi
            if hi <= 0:
                return -hi, -lo
            return 0, max(-lo, hi)
        if func in ("round", "floor", "ceil") and len(args) == 2:
            lo, hi = self.of(args[0], d)
            m_lo, m_hi = self.of(args[1], d)
            if m_lo == m_hi and m_lo > 0:  # within one step of the number
                return lo - m_lo, hi + m_lo
            return ANY
        # a divisor of 0 or less is an error of the rules that stops the match (the deal
        # changes nothing): every value worked out divides by at least one
        if func == "mod" and len(args) == 2:
            return 0, max(0, self.of(args[1], d)[1] - 1)
        if func == "div" and len(args) == 2:  # no larger than the number
            lo, hi = self.of(args[0], d)
            return min(lo, 0), max(hi, 0)
        if func == "pick" and len(args) >= 2:
            ivs = [self.of(a, d) for a in args[1:]]
            return min(iv[0] for iv in ivs), max(iv[1] for iv in ivs)
        tricks = self.names.get(TRICKS, (0, 0))[1]  # the most tricks a deal may have
        if func == "count_tricks" and len(args) == 1:
            return 0, tricks
        if func == "sum_tricks" and len(args) == 1:  # over each finished trick's names
            lo, hi = self.of(args[0], d)
            return min(lo, lo * tricks, 0), max(hi, hi * tricks, 0)
        if func in ("in_trick", "opponents_played") and len(args) == 1:
            return 0, self.names.get(TRICK_SIZE, (0, size))[1]  # copies of it in one trick
        if func in ("winning_card_is", "played_to_trick") and len(args) == 1:
            return BOOL
        if func in ("count_all", "count_side") and len(args) == 1:
            return 0, size
        if func in ("max_all", "min_all") and len(args) == 1:
            return self.of(args[0], d)
        if func in ("sum_all", "sum_side") and len(args) == 1:
            lo, hi = self.of(args[0], d)
            return min(lo, lo * size, 0), max(hi, hi * size, 0)
        if func == "seat_left" and len(args) == 2:
            return self.of(args[1], d)
        return ANY  # a function of the cards or the tricks: any number


def deal_names(game: Game, seats: int) -> dict[str, Interval]:
    """Bounds of the names a seat's scoring reads at the end of a deal that are fixed by the
    deck and the table."""
    deck = game.model.deck
    size = deck.size
    # the points in every case a deal can be in (trump, call, an option chosen)
    rows = [points for _, _, _, points in game.model.point_tables()]
    negative = min(sum(p for p in row if p < 0) for row in rows)
    positive = max(sum(p for p in row if p > 0) for row in rows)
    totals = [sum(row) for row in rows]
    total: Interval = (min(totals), max(totals))
    names: dict[str, Interval] = {
        "card_points": (negative, positive),
        "deck_points": total,
        "tricks_won": (0, size),
        "bid_blind": BOOL,
        "declarer": BOOL,
        "won_last_trick": BOOL,
        "stock_closed": BOOL,
        "tricks_total": (0, size),
        "tricks_played": (0, size),
        "players": (1, seats),
        "seats": (seats, seats),
        "seat": (0, seats - 1),
        "position": (-1, seats - 1),
        "deal_number": (1, 1),
        "top_trumps": (0, size),
    }
    # a finished trick, in `sum_tricks(x)` and `count_tricks(b)`: at most a card of each
    # seat, as many tricks as the deck has cards
    names.update(
        {
            TRICKS: (0, size),
            TRICK_SIZE: (0, seats),
            "trick_number": (1, size),
            "trick_points": (negative, positive),
            "last_trick": BOOL,
            "won_trick": BOOL,
            "side_won": BOOL,
        }
    )
    names["contract"] = _contract(game, seats)
    names["tricks_bid"] = _tricks_bid(game, seats, names)
    # the melds he declared (each meld of each suit once), counting or not
    names["meld_points"] = names["melds_declared"] = hand_names(game, seats)["melds_in_hand"]
    names.update(_combination_names(game, seats))
    # a trick's cards hold no more combinations than any cards of the deck
    names["trick_combination_points"] = names["combination_points"]
    return names


def _combination_names(game: Game, seats: int) -> dict[str, Interval]:
    """`combination_points` and `best_combination` of any hand: each combination's value
    and strength over its names (a length up to the deck's size, held up to the deck's
    copies times, a top within its order), as many of a kind as hold disjoint cards of the
    deck (a combination worth 0 or less is none)."""
    size = game.model.deck.size
    points, best = 0, (0, 0)
    for combo in game.model.combinations:
        env: dict[str, Interval] = {
            "length": (combo.size, size),
            "times": (1, game.model.deck.copies),
            "top": (0, max(0, len(combo.order) - 1)),
            "card_in_trump_suit": BOOL,
            "trump_set": BOOL,
        }
        worth = max(0, bound(combo.value, env, seats)[1])
        # each set of given cards is one combination at most; runs and ranks hold disjoint cards
        points += worth * (len(combo.sets) if combo.kind == "cards" else size // max(1, combo.size))
        strong = (
            (1, worth)
            if combo.strength is None
            else bound(combo.strength, {**env, "value": (1, worth)}, seats)
        )
        best = _hull(best, strong)
    return {"combination_points": _clamp((0, points)), "best_combination": _clamp(best)}


def _deal_keep_names(
    game: Game, seats: int, names: Mapping[str, Interval], rounds: int = 20
) -> dict[str, Interval]:
    """Bounds of the values a deal keeps (`deal { keep }`): from its start, widened by every
    rule that sets it (decisions, `after_trick`, `after_card`, ...) over the bounds so far,
    until nothing widens; a value still widening after `rounds` (`x = x + 1`) is any number."""
    keep: dict[str, Interval] = {
        name: (int(init), int(init)) for name, _, init in game.model.deal.keep
    }
    if not keep:
        return {}
    steps = [step for step in _step_rules(game.model) if any(a.name in keep for a in step.assigns)]
    for _ in range(rounds):
        env = {**names, **keep}
        wider = False
        for step in steps:
            for a in step.assigns:
                if a.name in keep:
                    iv = _hull(keep[a.name], bound(a.expr, env, seats))
                    if iv != keep[a.name]:
                        keep[a.name], wider = iv, True
        if not wider:
            return keep
    return {name: ANY for name in keep}


def _step_rules(value: object, depth: int = 0) -> list[StepRule]:
    """Every rule (`rule NAME: ...`) anywhere in a model: its attrs fields and tuples."""
    if isinstance(value, StepRule):
        return [value]
    if depth > 12:
        return []
    if isinstance(value, tuple):
        return [r for item in value for r in _step_rules(item, depth + 1)]
    if attrs.has(type(value)):
        fields: tuple[Any, ...] = attrs.fields(cast(Any, type(value)))
        return [r for f in fields for r in _step_rules(getattr(value, f.name), depth + 1)]
    return []


def _tricks_bid(game: Game, seats: int, names: Mapping[str, Interval]) -> Interval:
    """The number a seat bid (`bids`; none: 0): a blind bid, or from `min` to what `max`
    allows over a hand (its size at most the deck's)."""
    tricks = game.model.tricks
    rules = tricks.bids if tricks is not None else None
    if rules is None:
        return (0, 0)
    hand = {**names, **hand_names(game, seats)}
    high = max(0, rules.min, *rules.blind, bound(rules.max, hand, seats)[1])
    return (0, high)


def hand_names(game: Game, seats: int) -> dict[str, Interval]:
    """Bounds of the names a rule over a hand reads (a bid cap, a redeal condition, the
    most a player may bid): the melds it holds between the sums of the negative and the
    positive meld values, its size by the deck's."""
    from ..language.hands import HandQuantities

    quantities = HandQuantities(game.model)
    values = quantities.meld_values
    size = game.model.deck.size
    return {
        "melds_in_hand": (sum(v for v in values if v < 0), sum(v for v in values if v > 0)),
        "all_melds": (quantities.all_melds, quantities.all_melds),
        "deck_points": (quantities.deck_points, quantities.deck_points),
        "hand_size": (0, size),
        "players": (1, seats),
    }


def _contract(game: Game, seats: int) -> Interval:
    """The contract's value: 0 (no declarer) or a bid the auction allows (its values, or
    from the opening to the cap), or what a raise after the talon allows."""
    tricks = game.model.tricks
    bidding = tricks.bidding if tricks is not None else None
    if tricks is None or bidding is None:
        return (0, 0)
    if bidding.values:
        iv: Interval = (min(0, *bidding.values), max(0, *bidding.values))
    else:
        hand = hand_names(game, seats)
        opening = bound(bidding.opening_expr, hand, seats) if bidding.opening_expr else None
        low = min(0, bidding.opening, opening[0] if opening else 0)
        iv = (low, max(0, bound(bidding.cap, hand, seats)[1], bidding.opening))
    contract = tricks.contract
    if contract is not None and contract.raise_allowed:
        iv = _hull(iv, bound(contract.cap, {**hand_names(game, seats), "contract": iv}, seats))
    return iv


def deal_change_bounds(game: Game, seats: int) -> Interval:
    """The least and greatest change of a seat's standing (its score, or `rank_by`) by the
    first deal of a match from the start (scores 0, kept values at their start): 0 is
    always within (a redealt or stopped deal changes nothing)."""
    model = game.model
    match = model.match
    start: dict[str, Interval] = {name: (int(init), int(init)) for name, _, init in match.keep}
    start["score"] = (0, 0)
    names = {**deal_names(game, seats), **start}  # the deal reads the match as it began
    names.update(_deal_keep_names(game, seats, names))
    gains: Interval = (0, 0)
    if model.tricks is not None:
        scoring = model.tricks.scoring
        for name, expr in scoring.definitions:
            names[name] = bound(expr, names, seats)
        for rule in (scoring.declarer, scoring.defender, scoring.sitting_out):
            if rule is not None:
                gains = _hull(gains, bound(rule, names, seats))
    else:  # games of bouts: no deal score (the match reads the loser)
        gains = ANY
    env = {**names, **start, "gain": gains, "target": (match.target or 0, match.target or 0)}
    for step in match.after_deal:
        test = bound(step.condition, env, seats) if step.condition is not None else (1, 1)
        if test == (0, 0):
            continue
        values = {a.name: bound(a.expr, env, seats) for a in step.assigns}
        for name, iv in values.items():
            env[name] = iv if test == (1, 1) else _hull(env.get(name, ANY), iv)
    if match.rank_by is None:
        before, after = start["score"], env["score"]
    else:
        fixed = {"target": env["target"]}
        before = bound(match.rank_by, {**start, **fixed}, seats)
        after = bound(match.rank_by, {**start, **{k: env[k] for k in start}, **fixed}, seats)
    low, high = after[0] - before[1], after[1] - before[0]
    return min(low, 0), max(high, 0)
