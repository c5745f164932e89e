"""`after_trick { rule ... }`: rules run for every player after each trick."""

from __future__ import annotations

from .. import syntax as s
from ..errors import RulesError
from ..exprs import Scope
from ..model import StepRule
from ..vocabulary import TRICK_EVENT_NAMES
from .context import CompileContext
from .steps import step_rule


def compile_after_trick(ctx: CompileContext) -> tuple[StepRule, ...]:
    """`after_trick { rule NAME: [if C then] x = e, ... }`: run for every player of the
    deal after each finished trick, over that trick's names; they set deal `keep`
    values."""
    b = ctx.block("after_trick")
    if b.block is None:
        return ()
    if "tricks" not in ctx.flow_kinds:
        raise RulesError("after_trick needs trick play", b.loc)
    scope = Scope(
        {**TRICK_EVENT_NAMES, **ctx.kept},
        ctx.symbols,
        where="in after_trick",
        trick=True,
        aggregates=True,
    )
    assignable = {k: t for k, t, _ in ctx.deal_rules.keep}
    steps = []
    for key, entry in b.block.entries.items():
        if not isinstance(entry, s.Step):
            raise RulesError(
                f"after_trick holds 'rule NAME: ...' lines; '{key}' is not one", entry.loc
            )
        steps.append(step_rule(entry, scope, assignable, "a deal's keep names"))
    return tuple(steps)
