"""`pass_cards { ... }`: cards passed to another player, by every player or by some, and
with `back: yes` as many passed back."""

from __future__ import annotations

from ..errors import RulesError
from ..exprs import BOOL, INT, Scope
from ..model import PassRules
from ..vocabulary import MATCH_STATE_NAMES, PASS_NAMES
from .context import CompileContext
from .read_ahead import role_scope

PASS_CARDS_SETTINGS = frozenset({"count", "to", "passes_if", "back"})


def compile_pass_cards(ctx: CompileContext) -> PassRules:
    """Passing cards: how many, how many seats on, who passes, and whether they come back."""
    b = ctx.block("pass_cards")
    b.check_known(PASS_CARDS_SETTINGS)
    count = b.integer("count", None, minimum=1)
    if count is None:
        raise RulesError("pass_cards needs 'count: N' (cards each player passes)", b.loc)
    if count > ctx.deal_rules.per_hand:
        raise RulesError(
            f"a player cannot pass {count} cards from a hand of {ctx.deal_rules.per_hand}",
            b.raw("count").loc,
        )
    scope = Scope(dict(PASS_NAMES), ctx.symbols, where="in pass_cards.to")
    passes_if = None
    if b.raw("passes_if") is not None:
        passes_if = b.expr("passes_if", _passer_scope(ctx), BOOL)
    return PassRules(count, b.expr("to", scope, INT), passes_if, b.flag("back", False))


def _passer_scope(ctx: CompileContext) -> Scope:
    """What `passes_if` reads for each player: his role in the deal (as `sit_out_if` does)
    when the passing comes after the auction, else the match's state and his kept values."""
    flow = ctx.flow_kinds
    if "auction" in flow and flow.index("auction") < flow.index("pass"):
        return role_scope(ctx, "pass_cards.passes_if")
    return Scope(
        {**MATCH_STATE_NAMES, "players": INT, **ctx.kept},
        ctx.symbols,
        aggregates=True,
        where="in pass_cards.passes_if (before any auction: nobody has a role yet)",
    )
