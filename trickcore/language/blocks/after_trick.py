"""`after_trick { rule ... }`: rules run for every player after each trick."""

from __future__ import annotations

from ..exprs import Scope
from ..model import StepRule
from ..vocabulary import TRICK_EVENT_NAMES
from .context import CompileContext
from .steps import trick_event_rules


def compile_after_trick(ctx: CompileContext) -> tuple[StepRule, ...]:
    """`after_trick { rule NAME: [if C then] x = e, ... }`: run for every player of the
    deal after each finished trick, over that trick's names; they set deal `keep`
    values."""
    names = {**ctx.trick_names(TRICK_EVENT_NAMES), **ctx.kept}
    scope = Scope(names, ctx.symbols, where="in after_trick", trick=True, aggregates=True)
    return tuple(rule for _, rule in trick_event_rules(ctx, "after_trick", scope))
