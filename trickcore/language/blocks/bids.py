"""`bids { ... }`: one bid of a number from each player."""

from __future__ import annotations

import attrs

from ..errors import RulesError
from ..exprs import AGGREGATE_FUNCS, BOOL, INT, CompiledExpr, Scope
from ..limits import MAX_BIDS
from ..model import BidsRules
from ..settings import BlockSettings, int_item
from ..syntax import calls_in
from ..vocabulary import BLIND_NAMES, NUMBER_BID_NAMES
from .context import CompileContext

BIDS_SETTINGS = frozenset({"min", "max", "blind_if", "blind", "bid_if"})


def compile_bids(ctx: CompileContext, hand_scope: Scope) -> BidsRules:
    """One bid of a number from each player, some possibly blind."""
    b = ctx.block("bids")
    b.check_known(BIDS_SETTINGS)
    low = b.integer("min", 0, minimum=0) or 0
    high = b.expr("max", attrs.evolve(hand_scope, where="in bids.max"), INT)
    blind_scope = Scope({**BLIND_NAMES, **ctx.kept}, ctx.symbols, where="in bids.blind_if")
    blind_if = b.expr("blind_if", blind_scope, BOOL, None) if b.raw("blind_if") else None
    blind = tuple(int_item(it, "a blind bid", 0) for it in b.items("blind") or ())
    if blind_if is not None and not blind:
        raise RulesError(
            "bids.blind_if needs 'blind: V, ...' (the bids allowed blind)",
            b.raw("blind_if").loc,
        )
    if blind and blind_if is None:
        raise RulesError("'blind:' needs 'blind_if = ...' (who may bid blind)", b.raw("blind").loc)
    if len(set(blind)) != len(blind):
        raise RulesError("a blind bid is listed twice", b.raw("blind").loc)
    if len(blind) > MAX_BIDS:
        raise RulesError(f"at most {MAX_BIDS} blind bids", b.raw("blind").loc)
    bid_if = number_bid_if(ctx, b)
    aggregates = bid_if is not None and any(
        call.func in AGGREGATE_FUNCS for call in calls_in(b.raw("bid_if").expr)
    )
    return BidsRules(low, high, blind_if, blind, bid_if, aggregates)


def number_bid_if(ctx: CompileContext, b: BlockSettings) -> CompiledExpr | None:
    """`bids { bid_if = EXPR }`: which numbers a player may bid (the aggregates read the
    bids the others made so far)."""
    if b.raw("bid_if") is None:
        return None
    scope = Scope(
        {**NUMBER_BID_NAMES, **ctx.kept},
        ctx.symbols,
        hand=True,
        aggregates=True,
        where="in bids.bid_if",
    )
    return b.expr("bid_if", scope, BOOL, None)
