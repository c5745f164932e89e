"""`redeal { ... }`: when a deal is thrown in and dealt again."""

from __future__ import annotations

from ..exprs import BOOL, Scope
from ..model import RedealRules
from .context import CompileContext

REDEAL_SETTINGS = frozenset({"allowed_if", "forced_if", "same_dealer"})


def compile_redeal(ctx: CompileContext, hand_scope: Scope) -> RedealRules | None:
    """The redeal block, if any: when a redeal is offered or forced, and who deals it."""
    if "redeal" not in ctx.root.entries:
        return None
    b = ctx.block("redeal")
    b.check_known(REDEAL_SETTINGS)
    forced = b.expr("forced_if", hand_scope, BOOL, None) if b.raw("forced_if") else None
    # without `allowed_if` nobody is offered a redeal (only forced ones, or thrown-in
    # deals that `same_dealer` deals again)
    allowed = b.expr("allowed_if", hand_scope, BOOL, None) if b.raw("allowed_if") else None
    return RedealRules(allowed, b.flag("same_dealer", True), forced)
