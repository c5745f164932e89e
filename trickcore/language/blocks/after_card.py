"""`after_card { rule ... }`: rules run for every player after each card played to a trick."""

from __future__ import annotations

import attrs

from .. import syntax as s
from ..exprs import AGGREGATE_FUNCS, BOOL_WORDS, NAMED_FUNCS, SEAT_FUNCS, Scope
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
    return tuple(
        attrs.evolve(rule, player_only=_player_only(entry), others_read=_reads_others(entry, own))
        for entry, rule in rules
    )


def _player_only(entry: s.Step) -> bool:
    """Whether a rule can hold for the player who played the card alone: its condition
    begins `played_it and ...`."""
    head = entry.condition
    while isinstance(head, s.Binary) and head.op == "and":
        head = head.left
    return isinstance(head, s.Name) and head.name == "played_it"


def _reads_others(entry: s.Step, own: set[str]) -> bool:
    """Whether a rule reads other players' names than its own player's (an aggregate over
    the table, another seat; the defines are written in already, and the other names are
    its cards, ranks, suits and words)."""
    exprs = [e for e in (entry.condition, *(a.expr for a in entry.assigns)) if e is not None]
    names = {n for e in exprs for n in s.names_in(e)}
    calls = {c.func for e in exprs for c in s.calls_in(e)}
    return not names <= own or bool(calls & OTHER_PLAYERS)
