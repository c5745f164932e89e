"""`after_card { rule ... }`: rules run for every player after each card played to a trick."""

from __future__ import annotations

import attrs

from .. import syntax as s
from ..errors import RulesError
from ..exprs import AGGREGATE_FUNCS, BOOL_WORDS, NAMED_FUNCS, SEAT_FUNCS, Scope
from ..model import StepRule
from ..vocabulary import CARD_EVENT_NAMES
from .context import CompileContext
from .steps import step_rule

# the functions that read other players than the one a rule is worked out for
OTHER_PLAYERS = set(AGGREGATE_FUNCS) | set(SEAT_FUNCS) | set(NAMED_FUNCS)


def compile_after_card(ctx: CompileContext) -> tuple[StepRule, ...]:
    """`after_card { rule NAME: [if C then] x = e, ... }`: run for every player of the deal
    after each card played to a trick, over that card (`card_is(C)`, `played_it`, ...) and
    his hand then; they set deal `keep` values (public, as every deal value is)."""
    b = ctx.block("after_card")
    if b.block is None:
        return ()
    if "tricks" not in ctx.flow_kinds:
        raise RulesError("after_card needs trick play", b.loc)
    scope = Scope(
        {**CARD_EVENT_NAMES, **ctx.kept},
        ctx.symbols,
        where="in after_card",
        card=True,
        hand=True,
        trump=True,
        aggregates=True,
    )
    assignable = {k: t for k, t, _ in ctx.deal_rules.keep}
    steps = []
    for key, entry in b.block.entries.items():
        if not isinstance(entry, s.Step):
            raise RulesError(
                f"after_card holds 'rule NAME: ...' lines; '{key}' is not one", entry.loc
            )
        rule = step_rule(entry, scope, assignable, "a deal's keep names")
        words = ctx.symbols
        own = {*CARD_EVENT_NAMES, *ctx.kept, *words.ranks, *words.suits, *words.cards}
        own |= set(BOOL_WORDS)
        steps.append(attrs.evolve(rule, player_only=_player_only(entry, own)))
    return tuple(steps)


def _player_only(entry: s.Step, own: set[str]) -> bool:
    """Whether a rule can hold for the player who played the card alone: its condition
    begins `played_it and ...`, and it reads only its own player's names (no aggregate
    over the table, no other seat; the defines are written in already, and the other
    names are its cards, ranks, suits and words)."""
    head = entry.condition
    while isinstance(head, s.Binary) and head.op == "and":
        head = head.left
    if not (isinstance(head, s.Name) and head.name == "played_it"):
        return False
    exprs = [e for e in (entry.condition, *(a.expr for a in entry.assigns)) if e is not None]
    names = {n for e in exprs for n in s.names_in(e)}
    calls = {c.func for e in exprs for c in s.calls_in(e)}
    return names <= own and not calls & OTHER_PLAYERS
