"""`pickup { ... }`: a player takes the turned-up card."""

from __future__ import annotations

from ..errors import RulesError
from ..exprs import BOOL
from ..model import PickupRules
from .context import CompileContext
from .read_ahead import role_scope
from .talon import compile_lay_away_if

PICKUP_SETTINGS = frozenset({"who", "take_if", "lay_away", "lay_away_if", "lay_away_shown_if"})


def compile_pickup(ctx: CompileContext) -> PickupRules:
    """`pickup { who; take_if; lay_away }`: a player takes the turned-up card."""
    b = ctx.block("pickup")
    b.check_known(PICKUP_SETTINGS)
    if not any(p.to == "turnup" for p in ctx.deal_rules.pattern):
        raise RulesError("a pickup needs a turned-up card: '1 turnup' in the deal pattern", b.loc)
    if ctx.deal_rules.turnup_held:
        raise RulesError(
            "the turned-up card is dealt into the dealer's hand ('1 turnup to dealer'): "
            "there is nothing to pick up",
            b.loc,
        )
    who = b.word("who", ("dealer", "declarer"), "dealer")
    if who == "declarer" and "auction" not in ctx.flow_kinds:
        raise RulesError("'who: declarer' needs an auction", b.raw("who").loc)
    take_if = (
        b.expr("take_if", role_scope(ctx, "pickup.take_if"), BOOL, None)
        if b.raw("take_if")
        else None
    )
    lay_away = b.integer("lay_away", 0, minimum=0) or 0
    # the taker's hand would differ from the others' all through play (unless every hand
    # is drawn up to one size after the pickup)
    if lay_away != 1 and not (lay_away == 0 and "draw_up" in ctx.flow_kinds):
        more = 1 - lay_away
        raise RulesError(
            f"the taker adds the turned-up card to his hand and lays away {lay_away}: he "
            f"would play with {abs(more)} card{'s' if abs(more) != 1 else ''} "
            f"{'more' if more > 0 else 'fewer'} than the others; the hands stay equal "
            "with 'lay_away: 1'",
            (b.raw("lay_away") or b).loc,
        )
    return PickupRules(
        who,
        take_if,
        lay_away,
        compile_lay_away_if(ctx, b, "pickup", lay_away),
        compile_lay_away_if(ctx, b, "pickup", lay_away, "lay_away_shown_if"),
    )
