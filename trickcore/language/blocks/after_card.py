"""`after_card { rule ... }`: rules run for every player after each card played to a trick."""

from __future__ import annotations

import attrs

from .. import syntax as s
from ..exprs import (
    AGGREGATE_FUNCS,
    BOOL,
    BOOL_WORDS,
    CARD_FUNCS,
    CARD_KEY,
    NAMED_FUNCS,
    SEAT_FUNCS,
    Scope,
    compile_expr,
)
from ..model import StepRule
from ..vocabulary import CARD_EVENT_NAMES
from .context import CompileContext
from .steps import trick_event_rules

# the functions that read other players than the one a rule is worked out for
OTHER_PLAYERS = set(AGGREGATE_FUNCS) | set(SEAT_FUNCS) | set(NAMED_FUNCS)


def compile_after_card(ctx: CompileContext) -> tuple[StepRule, ...]:
    """`after_card { rule NAME: [if C then] x = e, ... }`: run for every player of the deal
    after each card played to a trick, over that card (`card_is(C)`, `played_it`, ...) and
    his hand then; they set deal `keep` values (public, as every deal value is)."""
    words = ctx.symbols
    own = {*CARD_EVENT_NAMES, *ctx.kept, *words.ranks, *words.suits, *words.cards, *BOOL_WORDS}
    scope = Scope(
        {**CARD_EVENT_NAMES, **ctx.kept},
        ctx.symbols,
        where="in after_card",
        card=True,
        hand=True,
        trump=True,
        aggregates=True,
    )
    rules = trick_event_rules(ctx, "after_card", scope)
    size = ctx.deck_size
    return tuple(
        attrs.evolve(
            rule,
            player_only=_player_only(entry),
            others_read=_reads_others(entry, own),
            cards=_cards(entry, scope, size),
        )
        for entry, rule in rules
    )


def _player_only(entry: s.Step) -> bool:
    """Whether a rule can hold for the player who played the card alone: its condition
    begins `played_it and ...`."""
    head = entry.condition
    while isinstance(head, s.Binary) and head.op == "and":
        head = head.left
    return isinstance(head, s.Name) and head.name == "played_it"


def _cards(entry: s.Step, scope: Scope, size: int) -> frozenset[int] | None:
    """The cards after which a rule can hold, from the parts its condition begins with
    (`A and B and ...`, from the left) that read the card alone (`card_is`, `card_rank`,
    `card_suit`, constants), past a `played_it`: None when it begins with no such part.
    (Those parts and `played_it` raise nothing: where they fail, the rest is not read.)"""
    parts: list[s.Expr] = []
    node = entry.condition
    while isinstance(node, s.Binary) and node.op == "and":
        parts.append(node.right)
        node = node.left
    if node is None:
        return None
    parts.append(node)
    lead: list[s.Expr] = []
    for part in reversed(parts):  # in the order they are worked out
        if isinstance(part, s.Name) and part.name == "played_it":
            continue
        if not _reads_card_alone(part):
            break
        lead.append(part)
    if not lead:
        return None
    expr = lead[0]
    for part in lead[1:]:
        expr = s.Binary("and", expr, part, part.loc)
    holds = compile_expr(expr, scope, BOOL).fn
    return frozenset(c for c in range(size) if holds({CARD_KEY: c}))


def _reads_card_alone(node: s.Expr) -> bool:
    """Whether an expression reads nothing but the card in question (a card function of a
    card, rank or suit named) and constants."""
    if isinstance(node, s.Number):
        return True
    if isinstance(node, s.Name):
        return node.name in BOOL_WORDS
    if isinstance(node, s.Call):
        return node.func in CARD_FUNCS and all(isinstance(a, s.Name) for a in node.args)
    if isinstance(node, s.Unary):
        return _reads_card_alone(node.operand)
    if isinstance(node, s.Binary):
        return _reads_card_alone(node.left) and _reads_card_alone(node.right)
    if isinstance(node, s.Cond):
        return all(_reads_card_alone(x) for x in (node.test, node.then, node.other))
    return False


def _reads_others(entry: s.Step, own: set[str]) -> bool:
    """Whether a rule reads other players' names than its own player's (an aggregate over
    the table, another seat; the defines are written in already, and the other names are
    its cards, ranks, suits and words)."""
    exprs = [e for e in (entry.condition, *(a.expr for a in entry.assigns)) if e is not None]
    names = {n for e in exprs for n in s.names_in(e)}
    calls = {c.func for e in exprs for c in s.calls_in(e)}
    return not names <= own or bool(calls & OTHER_PLAYERS)
