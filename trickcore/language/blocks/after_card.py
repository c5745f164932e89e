"""`after_card { rule ... }`: rules run for every player after each card played to a trick."""

from __future__ import annotations

from .. import syntax as s
from ..errors import RulesError
from ..exprs import Scope
from ..model import StepRule
from ..vocabulary import CARD_EVENT_NAMES
from .context import CompileContext
from .steps import step_rule


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
        steps.append(step_rule(entry, scope, assignable, "a deal's keep names"))
    return tuple(steps)
